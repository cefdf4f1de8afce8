"""asc2 API of issue 19's second slice against NumPy on the simulator, per dtype: num_tiles, log2, concat,
rms_norm, mask (count and bits, with and without `other`), the unary operators on bfloat16 tiles (through
float32), reductions over the last dim of multi-row tiles; odd sizes, fp16 rounding, signed zeros; bad use."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from conftest import compiles_during

import asc
import asc2
from asc.codegen.errors import CompileError


def _close(out: np.ndarray, want: np.ndarray, dtype: str) -> None:
    tol = {"float16": 2e-3, "float32": 2e-6}.get(dtype, 0)
    np.testing.assert_allclose(out.astype(np.float64), want.astype(dtype).astype(np.float64), rtol=tol,
                               atol=tol)


# ---- num_tiles ------------------------------------------------------------------------------------------------

@asc2.jit
def num_tiles_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                     tr: asc.ConstExpr[int], tc: asc.ConstExpr[int]):
    x = asc2.tensor(x_ptr, [rows, cols])
    z = asc2.tensor(z_ptr, [8])
    asc2.store(asc2.num_tiles(x, 0, [tr, tc]), z, offsets=[0])  # a runtime dim: a runtime int
    asc2.store(asc2.num_tiles(x, 1, [tr, tc]), z, offsets=[1])  # a constant dim: an int


@pytest.mark.parametrize("rows, tr, tc", [(1, 1, 8), (17, 4, 8), (16, 16, 16), (100, 7, 3)])
def test_num_tiles(rows: int, tr: int, tc: int) -> None:
    cols = 24
    x = np.zeros(rows * cols, np.int32)
    z = np.zeros(8, np.int32)
    num_tiles_kernel[1](x, z, rows, cols, tr, tc)
    assert z[0] == -(-rows // tr) and z[1] == -(-cols // tc)


def test_num_tiles_bad_axis() -> None:
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, n: int):
        asc2.num_tiles(asc2.tensor(x_ptr, [n]), 1, [8])

    with pytest.raises(CompileError, match=r"num_tiles: axis must be .* in \[0, 0\]"):
        k[1](np.zeros(8, np.float32), 8)


# ---- log2 and bfloat16 unary ----------------------------------------------------------------------------------

@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: int, tile: asc.ConstExpr[int],
                 op: asc.ConstExpr):
    asc2.store(op(asc2.load(asc2.tensor(x_ptr, [n]), [tile], offsets=[0])), asc2.tensor(z_ptr, [n]), offsets=[0])


@pytest.mark.parametrize("dtype, n", [("float32", 37), ("float16", 300), ("float32", 64)])
def test_log2(dtype: str, n: int) -> None:
    x = np.geomspace(1e-3, 3e3, n).astype(dtype)
    x[0] = 1.0
    x[1] = 2.0 ** -7
    z = np.zeros(n, dtype)
    unary_kernel[1](x, z, n, n, asc2.log2)
    want = np.log2(x.astype(np.float64))
    np.testing.assert_allclose(z.astype(np.float64), want, rtol=2e-3 if dtype == "float16" else 1e-6,
                               atol=4e-3 if dtype == "float16" else 1e-6)


def test_log2_of_a_number() -> None:
    @asc2.jit
    def k(z_ptr: asc.GlobalAddress):
        asc2.store(asc2.full([8], asc2.log2(8.0)), asc2.tensor(z_ptr, [8]), offsets=[0])

    z = np.zeros(8, np.float32)
    k[1](z)
    assert (z == 3.0).all()


BF16_UNARY = [
    (asc2.abs, torch.abs), (asc2.exp, torch.exp), (asc2.log, torch.log), (asc2.sqrt, torch.sqrt),
    (asc2.rsqrt, torch.rsqrt), (asc2.relu, torch.relu), (asc2.log2, torch.log2), (asc2.sin, torch.sin),
    (asc2.tanh, torch.tanh), (asc2.floor, torch.floor), (asc2.negative, torch.neg),
]


@pytest.mark.parametrize("op, ref", BF16_UNARY, ids=[o.__name__ for o, _ in BF16_UNARY])
def test_unary_bfloat16(op: Any, ref: Any) -> None:
    n = 45
    g = torch.Generator().manual_seed(n)
    positive = op in (asc2.log, asc2.sqrt, asc2.rsqrt, asc2.log2)
    x = (torch.rand(n, generator=g) * 4 + (0.05 if positive else -2)).to(torch.bfloat16)
    if not positive:
        x[0], x[1] = 0.0, -0.0  # signed zeros
    z = torch.zeros(n, dtype=torch.bfloat16)
    unary_kernel[1](x, z, n, n, op)
    torch.testing.assert_close(z, ref(x.to(torch.float32)).to(torch.bfloat16), rtol=8e-3, atol=1e-5)
    # the contract: the float32 instruction's result rounded once, bit for bit (signs of zeros included)
    zf = torch.zeros(n, dtype=torch.float32)
    unary_kernel[1](x.to(torch.float32), zf, n, n, op)
    assert torch.equal(z.view(torch.int16), zf.to(torch.bfloat16).view(torch.int16))


# ---- concat ---------------------------------------------------------------------------------------------------

@asc2.jit
def concat_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, cols: asc.ConstExpr[int],
                  r0: asc.ConstExpr[int], r1: asc.ConstExpr[int], r2: asc.ConstExpr[int]):
    x = asc2.tensor(x_ptr, [r0 + r1 + r2, cols])
    a = asc2.load(x, [r0, cols], offsets=[0, 0])
    b = asc2.load(x, [r1, cols], offsets=[r0, 0])
    c = asc2.load(x, [r2, cols], offsets=[r0 + r1, 0])
    asc2.store(asc2.concat(c, a, b), asc2.tensor(z_ptr, [r0 + r1 + r2, cols]), offsets=[0, 0])


@pytest.mark.parametrize("dtype, cols, parts", [("float32", 8, (1, 3, 2)), ("float16", 48, (5, 1, 7)),
                                                ("int32", 16, (2, 2, 2))])
def test_concat(dtype: str, cols: int, parts: Any) -> None:
    r0, r1, r2 = parts
    x = (np.arange((r0 + r1 + r2) * cols) - 7).astype(dtype).reshape(-1, cols)
    if dtype != "int32":
        x[0, 0] = -0.0
    z = np.zeros_like(x)
    concat_kernel[1](x, z, cols, r0, r1, r2)
    want = np.concatenate([x[r0 + r1:], x[:r0], x[r0:r0 + r1]])
    assert np.array_equal(z.view(np.uint8), want.view(np.uint8))  # bit for bit (-0.0 kept)


def test_concat_1d_and_errors() -> None:
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
        t = asc2.load(asc2.tensor(x_ptr, [32]), [n], offsets=[0])
        asc2.store(asc2.concat(t, t * 2.0), asc2.tensor(z_ptr, [2 * n]), offsets=[0])

    x = np.arange(32, dtype=np.float32)
    z = np.zeros(32, np.float32)
    k[1](x, z, 16)
    np.testing.assert_array_equal(z, np.concatenate([x[:16], x[:16] * 2]))
    with pytest.raises(NotImplementedError, match="concat: a tile of 10 float32 elements is no whole 32-byte"):
        k[1](x, np.zeros(20, np.float32), 10)


# ---- rms_norm -------------------------------------------------------------------------------------------------

@asc2.jit
def rms_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress,
               rows: asc.ConstExpr[int], cols: asc.ConstExpr[int], eps: float):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), [rows, cols], offsets=[0, 0])
    g = asc2.load(asc2.tensor(g_ptr, [cols]), [cols], offsets=[0])
    asc2.store(asc2.rms_norm(x, g, eps), asc2.tensor(z_ptr, [rows, cols]), offsets=[0, 0])


@pytest.mark.parametrize("dtype, rows, cols", [("float32", 3, 40), ("float16", 5, 48), ("float32", 1, 24)])
def test_rms_norm(dtype: str, rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows * cols)
    x = (rng.standard_normal((rows, cols)) * 2).astype(dtype)
    x[0, :] = 0.0  # a zero row: 0 / sqrt(eps)
    g = rng.uniform(0.5, 1.5, cols).astype(dtype)
    z = np.zeros_like(x)
    eps = 1e-5
    rms_kernel[1](x, g, z, rows, cols, eps)
    xf = x.astype(np.float64)
    want = xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + eps) * g.astype(np.float64)
    tol = 2e-3 if dtype == "float16" else 2e-5
    np.testing.assert_allclose(z.astype(np.float64), want.astype(dtype).astype(np.float64), rtol=tol, atol=tol)


def test_rms_norm_errors() -> None:
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [16]), [16], offsets=[0])
        asc2.store(asc2.rms_norm(x, asc2.full([8], 1.0), 1e-6), asc2.tensor(z_ptr, [16]), offsets=[0])

    with pytest.raises(CompileError, match="rms_norm: gamma must be one row of 16 float32"):
        k[1](np.zeros(16, np.float32), np.zeros(16, np.float32))


# ---- reductions over the last dim -----------------------------------------------------------------------------

@asc2.jit
def row_reduce_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: asc.ConstExpr[int],
                      cols: asc.ConstExpr[int], op: asc.ConstExpr, keep: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), [rows, cols], offsets=[0, 0])
    r = op(x, 1, keep_dims=keep)
    asc2.store(r.reshape(rows) if keep else r, asc2.tensor(z_ptr, [rows]), offsets=[0])


ROW_OPS = [(asc2.reduce_sum, np.sum), (asc2.reduce_max, np.max), (asc2.reduce_min, np.min),
           (asc2.reduce_prod, np.prod)]


@pytest.mark.parametrize("op, ref", ROW_OPS, ids=["sum", "max", "min", "prod"])
@pytest.mark.parametrize("dtype, rows, cols", [("float32", 7, 24), ("float16", 3, 208), ("float32", 2, 8),
                                               ("float32", 3, 72)])
def test_reduce_last_dim(op: Any, ref: Any, dtype: str, rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows + cols)
    if op is asc2.reduce_prod:  # products of moderate numbers, signs mixed
        x = (rng.uniform(0.9, 1.1, (rows, cols)) * rng.choice([-1.0, 1.0], (rows, cols))).astype(dtype)
    else:
        x = (rng.standard_normal((rows, cols)) * 3).astype(dtype)
    for keep in (False, True):
        z = np.zeros(rows, dtype)
        row_reduce_kernel[1](x, z, rows, cols, op, keep)
        want = ref(x.astype(np.float64), axis=1)
        tol = {"rtol": 2e-2, "atol": 2e-2} if dtype == "float16" else {"rtol": 1e-5, "atol": 1e-5}
        np.testing.assert_allclose(z.astype(np.float64), want, **tol)


# ---- mask -----------------------------------------------------------------------------------------------------

@asc2.jit
def mask_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: int,
                tile: asc.ConstExpr[int], count: int, form: asc.ConstExpr[str], hi: asc.ConstExpr[int] = 0):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [tile], offsets=[0])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [tile], offsets=[0])
    if form == "count":
        with asc2.mask(count=count, other=-1):
            z = asc2.exp(x + y)
    elif form == "bits":
        with asc2.mask(bits=(hi, 0xF0F0), other=0.5):  # (the high word: 0 for 32-bit types)
            z = asc2.maximum(x, 2.0)
    elif form == "int":
        with asc2.mask(count=count, other=-1):
            z = asc2.maximum(x + y, 3)
    else:  # no other: the masked-off elements are undefined
        with asc2.mask(count=count):
            z = x * y
    asc2.store(z, asc2.tensor(z_ptr, [n]), offsets=[0])


def _lanes_mask(n: int, lanes: int, sel: Any) -> np.ndarray:
    return np.array([sel(i % lanes) for i in range(n)])


@pytest.mark.parametrize("dtype, n, count", [("float32", 150, 5), ("float16", 200, 100), ("float32", 64, 64)])
def test_mask_count(dtype: str, n: int, count: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.uniform(-1, 1, n).astype(dtype)
    y = rng.uniform(-1, 1, n).astype(dtype)
    z = np.zeros(n, dtype)
    mask_kernel[1](x, y, z, n, n, count, "count")
    lanes = 256 // np.dtype(dtype).itemsize
    on = _lanes_mask(n, lanes, lambda i: i < count)
    s = (x + y).astype(dtype).astype(np.float64)
    want = np.where(on, np.exp(s), -1.0)
    _close(z, want, dtype)


def test_mask_count_int32() -> None:
    n, count = 100, 7
    x = np.arange(n, dtype=np.int32) - 50
    y = np.arange(n, dtype=np.int32) % 5
    z = np.zeros(n, np.int32)
    mask_kernel[1](x, y, z, n, n, count, "int")
    on = _lanes_mask(n, 64, lambda i: i < count)
    np.testing.assert_array_equal(z, np.where(on, np.maximum(x + y, 3), -1))


@pytest.mark.parametrize("dtype, n", [("float32", 100), ("float16", 256)])
def test_mask_bits(dtype: str, n: int) -> None:
    x = np.linspace(-4, 4, n).astype(dtype)
    z = np.zeros(n, dtype)
    lo, hi = 0xF0F0, (1 << 63 | 1) if dtype == "float16" else 0
    mask_kernel[1](x, x, z, n, n, 0, "bits", hi)
    lanes = 256 // np.dtype(dtype).itemsize
    on = _lanes_mask(n, lanes, lambda i: bool((lo >> i) & 1) if i < 64 else bool((hi >> (i - 64)) & 1))
    want = np.where(on, np.maximum(x.astype(np.float64), 2.0), 0.5)
    _close(z, want, dtype)


def test_mask_without_other_leaves_the_rest_undefined() -> None:
    x = np.ones(64, np.float32)
    with pytest.raises(asc.SanitizerError, match="uninit"):
        mask_kernel[1](x, x, np.zeros(64, np.float32), 64, 64, 8, "none")


@asc2.jit
def mask_bad_kernel(x_ptr: asc.GlobalAddress, which: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
    if which == 0:
        with asc2.mask(count=100):
            x = x + x  # the bad line: 100 > 64 float32 elements a repeat
    elif which == 1:
        with asc2.mask(bits=(1, 1)):
            x = x + x  # the bad line: a high word for float32
    elif which == 2:
        with asc2.mask(count=4):
            x = asc2.sin(x)  # the bad line: no level-0 Sin
    else:
        with asc2.mask(count=4, bits=(0, 1)):  # the bad line
            x = x + x
    asc2.store(x, asc2.tensor(x_ptr, [64]), offsets=[0])


@pytest.mark.parametrize("which, msg", [(0, r"count 100 is not in \[1, 64\]"), (1, "high word must be 0 for float32"),
                                        (2, "no level-0 form"), (3, "exactly one of count= and bits=")])
def test_mask_errors(which: int, msg: str) -> None:
    with pytest.raises(CompileError, match=msg) as info:
        mask_bad_kernel[1](np.zeros(64, np.float32), which)
    assert info.value.filename == __file__
    assert "the bad line" in open(__file__).read().splitlines()[info.value.line - 1]


def test_mask_of_bfloat16_is_not_implemented() -> None:
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        with asc2.mask(count=4):
            x = x + x
        asc2.store(x, asc2.tensor(x_ptr, [64]), offsets=[0])

    with pytest.raises(asc.UnsupportedError, match="inside asc2.mask is not supported yet"):
        k[1](torch.zeros(64, dtype=torch.bfloat16))


# ---- asc2.range(unroll_factor=N) ------------------------------------------------------------------------------

@asc2.jit
def unroll_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: int, factor: asc.ConstExpr[int]):
    x, z = asc2.tensor(x_ptr, [n]), asc2.tensor(z_ptr, [n])
    for i in asc2.range(0, n // 8, unroll_factor=factor):
        asc2.store(asc2.load(x, [8], offsets=[i * 8]) * 3.0, z, offsets=[i * 8])


def _compiled(kernel: Any, *args: Any) -> Any:
    (ck,) = compiles_during(lambda: kernel[1](*args))
    return ck


def test_unroll_factor_is_a_pragma() -> None:
    x = np.arange(40, dtype=np.float32)
    for factor in (1, 4):
        z = np.zeros(40, np.float32)
        ck = _compiled(unroll_kernel, x, z, 40, factor)
        np.testing.assert_array_equal(z, x * 3)
        assert ("unroll_factor = 4" in ck.ir_text()) == (factor == 4)
        assert ("#pragma GCC unroll 4\n" in ck.ascendc()) == (factor == 4)


@asc2.jit
def prod_all_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int],
                    rows: asc.ConstExpr[int]):
    if rows == 0:  # a 1-D tile's only dim
        r = asc2.reduce_prod(asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0]), 0)
    else:  # both dims of a 2-D tile, kept
        x = asc2.load(asc2.tensor(x_ptr, [rows, n // rows]), [rows, n // rows], offsets=[0, 0])
        r = asc2.reduce_prod(x, 0, 1, keep_dims=True).reshape(1)
    asc2.store(r.reshape(1), asc2.tensor(z_ptr, [1]), offsets=[0])


@pytest.mark.parametrize("dtype, n, rows", [("float32", 5, 0), ("float32", 37, 0), ("float16", 100, 0),
                                            ("float32", 48, 3), ("float32", 24, 0)])
def test_reduce_prod_all(dtype: str, n: int, rows: int) -> None:
    rng = np.random.default_rng(n)
    x = (rng.uniform(0.9, 1.1, n) * rng.choice([-1.0, 1.0], n)).astype(dtype)
    z = np.zeros(1, dtype)
    prod_all_kernel[1](x, z, n, rows)
    np.testing.assert_allclose(z.astype(np.float64), np.prod(x.astype(np.float64)), rtol=2e-3 if dtype == "float16"
                               else 1e-5)


def test_reduce_prod_signed_zero() -> None:
    x = np.ones(16, np.float32)
    x[3] = -0.0
    z = np.ones(1, np.float32)
    prod_all_kernel[1](x, z, 16, 0)
    assert z[0] == 0 and np.signbit(z[0])  # -0.0: the product keeps the sign
