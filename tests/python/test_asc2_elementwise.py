"""asc2 (the tile layer, issue 19): 1-D elementwise kernels end to end on the
simulator, against NumPy; the lowering visible in the pass log and the
Ascend C; NotImplementedError for what is not supported yet; CompileErrors
with file:line for bad use."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import pytest
from conftest import line_of

import asc
import asc2
from asc.codegen.errors import CompileError
from asc.runtime import compiler


@asc2.jit
def binary_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int,
                  tile: asc.ConstExpr[int], tiles_per_block: asc.ConstExpr[int], op: asc.ConstExpr,
                  form: asc.ConstExpr[str]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    z_gm = asc2.tensor(z_ptr, [size])
    base = asc2.block_idx() * tile * tiles_per_block
    for i in range(tiles_per_block):
        off = base + i * tile
        if form == "VV":
            z = op(asc2.load(x_gm, [tile], offsets=[off]), asc2.load(y_gm, [tile], offsets=[off]))
        elif form == "VS":
            z = op(asc2.load(x_gm, [tile], offsets=[off]), asc2.load(y_gm, offsets=[0]))
        else:
            z = op(asc2.load(y_gm, offsets=[0]), asc2.load(x_gm, [tile], offsets=[off]))
        asc2.store(z, z_gm, offsets=[off])


BINARY = [
    (asc2.add, np.add, ["float32", "float16", "int32"]),
    (asc2.sub, np.subtract, ["float32", "float16", "int32"]),
    (asc2.mul, np.multiply, ["float32", "float16", "int32"]),
    (asc2.div, np.divide, ["float32", "float16"]),
    (asc2.maximum, np.maximum, ["float32", "float16", "int32"]),
    (asc2.minimum, np.minimum, ["float32", "float16", "int32"]),
]


def _inputs(dtype: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if dtype == "int32":
        return rng.integers(-50, 50, n).astype(np.int32)
    return (rng.random(n) * 4 + 0.5).astype(dtype)


def _check(out: np.ndarray, want: np.ndarray) -> None:
    if out.dtype == np.int32:
        np.testing.assert_array_equal(out, want.astype(np.int32))
    else:
        tol = 2e-3 if out.dtype == np.float16 else 1e-6
        np.testing.assert_allclose(out.astype(np.float64), want.astype(out.dtype).astype(np.float64), rtol=tol,
                                   atol=tol)


@pytest.mark.parametrize("op, ref, dtype", [(op, ref, d) for op, ref, ds in BINARY for d in ds],
                         ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("form", ["VV", "VS", "SV"])
def test_binary(op: Any, ref: Callable[..., Any], dtype: str, form: str) -> None:
    rng = np.random.default_rng(19)
    tile, per_block, cores = 64, 2, 3  # 3 blocks of 2 tiles each
    n = tile * per_block * cores
    x, y = _inputs(dtype, n, rng), _inputs(dtype, n, rng)
    if dtype == "int32" and op is asc2.div:
        pytest.skip("no integer division")
    z = np.zeros_like(x)
    binary_kernel[cores](x, y, z, n, tile, per_block, op, form)
    s = y[0]
    want = ref(x, y) if form == "VV" else ref(x, s) if form == "VS" else ref(s, x)
    _check(z, want)


@asc2.jit
def chain_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress,
                 out_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int], per_block: asc.ConstExpr[int]):
    x_gm, y_gm = asc2.tensor(x_ptr, [size]), asc2.tensor(y_ptr, [size])
    z_gm, out_gm = asc2.tensor(z_ptr, [size]), asc2.tensor(out_ptr, [size])
    for i in asc2.range(per_block, unroll_factor=2, parallel=True):
        off = (asc2.block_idx() * per_block + i) * tile
        x = asc2.load(x_gm, [tile], offsets=[off])
        y = asc2.load(y_gm, [tile], tile_id=[asc2.block_idx() * per_block + i])
        z = asc2.load(z_gm, [tile], offsets=[off])
        asc2.store(-(x * y + z) / 2.0 - 1.0, out_gm, offsets=[off])


@pytest.mark.parametrize("tile, per_block, cores", [(8, 1, 1), (24, 3, 2), (128, 4, 4)])
def test_operator_chain_odd_tiles(tile: int, per_block: int, cores: int) -> None:
    """Python operators on tiles, tile_id and offsets, asc2.range's keywords; tiles of 8 and 24 float32
    (32 and 96 bytes: whole UB blocks, not a power of two) and several blocks."""
    rng = np.random.default_rng(3)
    n = tile * per_block * cores
    x, y, z = (rng.random(n).astype(np.float32) for _ in range(3))
    out = np.zeros_like(x)
    chain_kernel[cores](x, y, z, out, n, tile, per_block)
    np.testing.assert_allclose(out, -(x * y + z) / 2 - 1, rtol=1e-6)


@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, tile: asc.ConstExpr[int], op: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [tile]), [tile], offsets=[0])
    asc2.store(op(x), asc2.tensor(z_ptr, [tile]), offsets=[0])


UNARY = [
    (asc2.abs, np.abs, ["float32", "float16"]),
    (asc2.exp, np.exp, ["float32", "float16"]),
    (asc2.log, np.log, ["float32", "float16"]),
    (asc2.sqrt, np.sqrt, ["float32", "float16"]),
    (asc2.rsqrt, lambda v: 1 / np.sqrt(v), ["float32"]),
    (asc2.relu, lambda v: np.maximum(v, 0), ["float32", "float16", "int32"]),
    (asc2.negative, np.negative, ["float32", "float16", "int32"]),
    (asc2.sin, np.sin, ["float32"]),
    (asc2.tanh, np.tanh, ["float32"]),
    (asc2.erf, np.vectorize(math.erf), ["float32"]),
    (asc2.floor, np.floor, ["float32"]),
    (asc2.ceil, np.ceil, ["float32"]),
    (asc2.exp2, np.exp2, ["float32"]),
]


@pytest.mark.parametrize("op, ref, dtype", [(op, ref, d) for op, ref, ds in UNARY for d in ds],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_unary(op: Any, ref: Callable[..., Any], dtype: str) -> None:
    rng = np.random.default_rng(5)
    tile = 64
    if dtype == "int32":
        x = rng.integers(-50, 50, tile).astype(np.int32)
    elif op in (asc2.abs, asc2.relu, asc2.negative, asc2.sin, asc2.tanh, asc2.erf, asc2.floor, asc2.ceil):
        x = ((rng.random(tile) - 0.5) * 6).astype(dtype)
    else:
        x = (rng.random(tile) * 3 + 0.25).astype(dtype)
    z = np.zeros_like(x)
    unary_kernel[1](x, z, tile, op)
    want = ref(x.astype(np.float64))
    if dtype == "int32":
        np.testing.assert_array_equal(z, want.astype(np.int32))
    else:
        tol = 2e-3 if dtype == "float16" else 1e-4
        np.testing.assert_allclose(z.astype(np.float64), want, rtol=tol, atol=tol)


def test_zero_dim_torch_tensor_is_a_scalar() -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(64, dtype=torch.float32)
    y = torch.tensor(2.5)
    z = torch.zeros(64)
    binary_kernel_scalar[1](x, y, z, 64)
    assert torch.allclose(z, x * 2.5)


@asc2.jit
def binary_kernel_scalar(x_ptr: asc.GlobalAddress, s, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    asc2.store(asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0]) * s, asc2.tensor(z_ptr, [n]), offsets=[0])


def test_lowering_is_visible_and_emitted() -> None:
    """The pass log names each tile op's lowering, the UB plan double-buffers the loop's tiles, insert-sync
    orders the pipes, and the Ascend C is plain DataCopy / Add over the planned pool."""
    seen = []
    compiler.compile_listeners.append(seen.append)
    try:
        x = np.ones(512, np.float32)
        z = np.zeros_like(x)
        binary_kernel[2](x, x, z, 512, 128, 2, asc2.add, "VV")
    finally:
        compiler.compile_listeners.remove(seen.append)
    np.testing.assert_array_equal(z, 2 * x)
    (ck,) = seen
    log = ck.pass_log
    assert "lower-tiles: asc2.load" in log and "filled by asc.data_copy.gm_to_local" in log
    assert "lower-tiles: asc2.binary" in log and "filled by asc.add" in log
    assert "lower-tiles: asc2.store" in log
    assert "double-buffered" in log and "insert-sync: set_flag/wait_flag MTE2_V" in log
    assert '"asc2.' in ck.ir and '"asc2.' not in ck.ir_text()
    src = ck.ascendc()
    assert "AscendC::Add(" in src and "GetWithOffset" in src and "AscendC::DataCopy(" in src
    assert "asc2" not in src.replace("asc2_", "")


@asc2.jit
def compare_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    asc2.store(x >= 0.25, asc2.tensor(z_ptr, [n]), offsets=[0])


@pytest.mark.parametrize("src", ["float32", "float16"])
@pytest.mark.parametrize("dst", ["float16", "float32", "int8", "uint8", "int16", "int32"])
def test_storing_a_mask(src: str, dst: str) -> None:
    """A comparison's result is stored as 1 where it holds, else 0 (Select of 1 and 0, Cast)."""
    n = 77
    x = np.linspace(-1, 1, n).astype(src)
    x[5] = np.asarray(0.25, src)  # equal: holds for >=
    z = np.full(n, 7, dst)
    compare_kernel[1](x, z, n)
    np.testing.assert_array_equal(z, (x >= np.asarray(0.25, src)).astype(dst))


def test_storing_a_mask_into_bool_says_how() -> None:
    with pytest.raises(CompileError, match=r"stored into a tensor of float16, .*not bool") as info:
        compare_kernel[1](np.zeros(8, np.float32), np.zeros(8, np.bool_), 8)
    assert "t.view(torch.uint8)" in str(info.value)


@asc2.jit
def bad_shape_kernel(x_ptr: asc.GlobalAddress, tile: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [2, 32768]), [2, tile], offsets=[0, 0])  # the bad line
    asc2.store(x, asc2.tensor(x_ptr, [2, 32768]), offsets=[0, 0])


@asc2.jit
def mixed_dtype_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress):
    x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
    y = asc2.load(asc2.tensor(y_ptr, [64]), [64], offsets=[0])
    asc2.store(x + y, asc2.tensor(x_ptr, [64]), offsets=[0])  # the bad line


def test_compile_errors_name_file_and_line() -> None:
    x = np.zeros(64, np.float32)
    with pytest.raises(CompileError, match="not a multiple of 32") as info:
        bad_shape_kernel[1](np.zeros(1 << 16, np.float32), 7)  # rows of 28 bytes: no whole UB block
    assert info.value.filename == __file__ and info.value.line == line_of(bad_shape_kernel, "the bad line")
    with pytest.raises(CompileError, match="float32 and int32") as info:
        mixed_dtype_kernel[1](x, np.zeros(64, np.int32))
    assert info.value.line == line_of(mixed_dtype_kernel, "the bad line")
    # (a tile larger than the UB is split into chunks: test_asc2_split.py)


def test_range_keyword_errors() -> None:
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        for i in asc2.range(2, unroll_factor=0):
            asc2.store(asc2.load(asc2.tensor(x_ptr, [16]), [8], offsets=[i * 8]), asc2.tensor(x_ptr, [16]),
                       offsets=[i * 8])

    with pytest.raises(CompileError, match="unroll_factor must be an int of at least 1"):
        k[1](np.zeros(16, np.float32))


@asc2.jit
def tail_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int],
                per_block: asc.ConstExpr[int], pad: asc.ConstExpr):
    x_gm, z_gm = asc2.tensor(x_ptr, [size]), asc2.tensor(z_ptr, [size])
    for i in range(per_block):
        off = (asc2.block_idx() * per_block + i) * tile
        x = asc2.load(x_gm, [tile], offsets=[off], pad_value=pad)
        asc2.store(x * 2 + asc2.exp(x), z_gm, offsets=[off])


@pytest.mark.parametrize("n, tile, cores", [(100, 32, 2), (7, 16, 3), (64, 32, 1), (1000, 64, 4), (33, 16, 5)])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_tails(n: int, tile: int, cores: int, dtype: str) -> None:
    """Tensors whose size is no multiple of the tile (and blocks wholly past the end): a load copies what lies
    inside (DataCopyPad) and pads the rest, a store writes only what lies inside; the sanitizer sees no access
    outside the arguments and no uninitialised read."""
    rng = np.random.default_rng(n)
    x = rng.random(n).astype(dtype)
    z = np.full(n + 16, 7, dtype)  # the 16 after n must stay
    per_block = asc.ceildiv(asc.ceildiv(n, tile), cores)
    tail_kernel[cores](x, z[:n], n, tile, per_block, 0.5)
    want = x.astype(np.float32) * 2 + np.exp(x.astype(np.float32))
    np.testing.assert_allclose(z[:n].astype(np.float32), want, rtol=3e-3 if dtype == "float16" else 1e-5)
    assert (z[n:] == 7).all()


@asc2.jit
def pad_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: int):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0], pad_value=-3)
    asc2.store(x, asc2.tensor(z_ptr, [64]), offsets=[0])


def test_pad_value_fills_the_tile_past_the_end() -> None:
    x = np.arange(64, dtype=np.int32)
    z = np.zeros(64, np.int32)
    pad_kernel[1](x, z, 13)
    np.testing.assert_array_equal(z, np.where(np.arange(64) < 13, x, -3))


def test_pyasc2_options_are_accepted_and_checked() -> None:
    def body(x_ptr: asc.GlobalAddress):
        asc2.store(asc2.load(asc2.tensor(x_ptr, [8]), [8], offsets=[0]) + 1.0, asc2.tensor(x_ptr, [8]), offsets=[0])

    k = asc2.jit(vf_fusion=True, static_alloc=None, reuse_ub=True, reuse_ub_in_out=False,
                 densify_load_store=False, run_asc2_passes=True)(body)
    assert k.asc2_options["reuse_ub"] is True and k.options["insert_sync"] is True
    x = np.zeros(8, np.float32)
    k[1](x)
    np.testing.assert_array_equal(x, 1)
    with pytest.raises(TypeError, match="vf_fusion"):
        asc2.jit(vf_fusion=1)(body)
    with pytest.raises(TypeError, match="unknown @asc.jit option `nope`"):
        asc2.jit(nope=True)(body)


@asc2.jit
def tile2d_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: int, cols: int,
                  shape: asc.ConstExpr, tile_id: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), shape, tile_id=tile_id, pad_value=100.0)
    asc2.store(x * 3.0, asc2.tensor(z_ptr, [rows, cols]), tile_id=tile_id)


@pytest.mark.parametrize("rows, cols, shape, tile_id", [
    (16, 64, (4, 32), (1, 1)),      # inside, rows strided in GM
    (13, 40, (8, 16), (1, 2)),      # past both ends: 5 rows, 8 columns inside
    (9, 24, (4, 24), (2, 0)),       # past the last row only
    (3, 8, (4, 8), (1, 0)),         # wholly past the end: nothing moves
])
def test_tiles_of_two_dims(rows: int, cols: int, shape: Any, tile_id: Any) -> None:
    x = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    z = np.zeros_like(x)
    tile2d_kernel[1](x, z, rows, cols, shape, tile_id)
    want = np.zeros_like(x)
    r0, c0 = tile_id[0] * shape[0], tile_id[1] * shape[1]
    want[r0:r0 + shape[0], c0:c0 + shape[1]] = 3 * x[r0:r0 + shape[0], c0:c0 + shape[1]]
    np.testing.assert_array_equal(z, want)


@asc2.jit
def scalar_elem_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, i: int, j: int):
    xt, zt = asc2.tensor(x_ptr, [8, 16]), asc2.tensor(z_ptr, [8, 16])
    s = asc2.load(xt, offsets=[i, j])
    asc2.store(s * 2.0, zt, offsets=[i, j])
    asc2.store(asc2.full([1], s), zt, offsets=[j % 8, i])
    asc2.store(asc2.zeros_like(asc2.full([16], 1.0)) + 5.0, zt, offsets=[0, 0])


def test_scalar_load_store_and_full() -> None:
    x = np.arange(128, dtype=np.float32).reshape(8, 16)
    z = np.zeros_like(x)
    scalar_elem_kernel[1](x, z, 3, 5)
    want = np.zeros_like(x)
    want[0, :] = 5
    want[5, 3] = x[3, 5]
    want[3, 5] = 2 * x[3, 5]
    np.testing.assert_array_equal(z, want)


@asc2.jit
def folded_unary_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int],
                        bad: asc.ConstExpr[bool]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    k = asc2.sqrt(-1.0) if bad else 2 * asc2.sqrt(2 / math.pi) + asc2.erf(0.5) + asc2.exp(1)
    asc2.store(x * k, asc2.tensor(z_ptr, [n]), offsets=[0])


def test_unary_of_a_number_is_folded() -> None:
    x = np.linspace(-1, 1, 24).astype(np.float32)
    z = np.zeros_like(x)
    folded_unary_kernel[1](x, z, 24, False)
    k = 2 * math.sqrt(2 / math.pi) + math.erf(0.5) + math.e
    np.testing.assert_allclose(z, x * np.float32(k), rtol=1e-6)
    with pytest.raises(CompileError, match=r"asc2.sqrt\(-1.0\): math domain error"):
        folded_unary_kernel[1](x, z, 24, True)
