"""asc.data_copy (count form) GM -> UB, UB -> GM and UB -> UB on the simulator.

Facts checked (Ascend C DataCopy docs): the copy moves count * sizeof(T)
bytes rounded down to whole 32-byte blocks; UB addresses must be 32-byte
aligned, GM addresses only element-aligned. Copies are byte-exact for every
element type (NaN payloads included). Faults (misaligned UB address,
out-of-bounds GM or UB access, a write to a read-only array) raise
asc.KernelError naming the API and the kernel line, and a failed copy
writes nothing.
"""

import contextlib
from typing import Any

import numpy as np
import pytest
from kernels_util import UB_SLOT, asc_dtype, fill_sentinel, storage

import asc

ALL_TYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
             "float32", "float64", "bool")


def random_bytes(n: int, dtype: np.dtype, seed: int) -> np.ndarray:
    """n elements of random bit patterns (bool: 0/1)."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    return rng.integers(0, 256, n * dtype.itemsize, dtype=np.uint8).view(dtype)


def complement(x: np.ndarray) -> np.ndarray:
    """Every bit flipped (bool: negated), so no element equals x's."""
    if x.dtype == np.bool_:
        return ~x
    return (~x.view(np.uint8)).view(x.dtype)


def same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool((a.view(np.uint8) == b.view(np.uint8)).all())


@asc.jit
def _roundtrip_typed(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 2 * UB_SLOT // x.dtype.sizeof())
    asc.data_copy(ul, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ul, n)


@asc.jit
def _bf16_roundtrip(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """bfloat16 tensors over uint16 arrays: the copies move bfloat16 elements."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    raw = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT)
    b16 = asc.LocalTensor(asc.bfloat16, asc.TPosition.VECIN, 0, UB_SLOT)
    out = asc.LocalTensor(asc.bfloat16, asc.TPosition.VECOUT, 2 * UB_SLOT, UB_SLOT)
    out_raw = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 2 * UB_SLOT, UB_SLOT)
    asc.data_copy(raw, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(out, b16, n)  # UB -> UB in bfloat16
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, out_raw, n)


@pytest.mark.parametrize("nbytes", (32, 96, 1024, 2 * UB_SLOT))
@pytest.mark.parametrize("name", ALL_TYPES)
def test_roundtrip_every_type(name: str, nbytes: int) -> None:
    st = storage(name)
    n = nbytes // st.itemsize
    x = random_bytes(n, st, nbytes + len(name))
    z = fill_sentinel(n, st) if st != np.bool_ else np.zeros(n, np.bool_)
    if name == "bfloat16":
        _bf16_roundtrip[1](x, z, n)
    else:
        _roundtrip_typed[1](x, z, n)
    assert same_bytes(z, x)


@asc.jit
def _partial(x: asc.GlobalAddress, s: asc.GlobalAddress, z: asc.GlobalAddress, n_in: int, n_out: int, full: int):
    """UB filled from s (whole blocks), then n_in elements of x copied over it, then n_out copied to z."""
    x_gm = asc.GlobalTensor()
    s_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    s_gm.set_global_buffer(s)
    z_gm.set_global_buffer(z)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT // x.dtype.sizeof())
    asc.data_copy(ul, s_gm, full)
    # copies to overlapping UB on one pipe need a barrier (devkit PipeBarrier: MTE2 overlap)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(ul, x_gm, n_in)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ul, n_out)


def whole_blocks(count: int, itemsize: int) -> int:
    """Elements DataCopy moves for `count`: count * itemsize rounded down to 32 bytes."""
    return count * itemsize // 32 * 32 // itemsize


def rounding_warning(count: int, itemsize: int) -> Any:
    """The sanitizer's warning for a count that is not whole 32-byte blocks (none otherwise)."""
    if count * itemsize % 32:
        return pytest.warns(asc.SanitizerWarning, match="misaligned length")
    return contextlib.nullcontext()


PARTIAL = [("float32", 13), ("float32", 7), ("float32", 9), ("float32", 1), ("float32", 0), ("float16", 17),
           ("float16", 15), ("float16", 33), ("int8", 33), ("int8", 31), ("int8", 95), ("int64", 5), ("int64", 3),
           ("uint16", 130), ("int32", 1000), ("bool", 40)]


@pytest.mark.parametrize("name,count", PARTIAL)
def test_count_rounds_down_to_whole_blocks_gm_to_ub(name: str, count: int) -> None:
    st = storage(name)
    full = (count * st.itemsize // 32 + 2) * 32 // st.itemsize
    x = random_bytes(full, st, count)
    s = complement(x)
    z = np.zeros_like(x)
    with rounding_warning(count, st.itemsize):
        _partial[1](x, s, z, count, full, full)
    k = whole_blocks(count, st.itemsize)
    assert same_bytes(z[:k], x[:k])
    assert same_bytes(z[k:], s[k:])


@pytest.mark.parametrize("name,count", PARTIAL)
def test_count_rounds_down_to_whole_blocks_ub_to_gm(name: str, count: int) -> None:
    st = storage(name)
    full = (count * st.itemsize // 32 + 2) * 32 // st.itemsize
    x = random_bytes(full, st, count + 1)
    z = fill_sentinel(full, st) if st != np.bool_ else np.ones(full, np.bool_)
    z0 = z.copy()
    with rounding_warning(count, st.itemsize):
        _partial[1](x, x, z, full, count, full)
    k = whole_blocks(count, st.itemsize)
    assert same_bytes(z[:k], x[:k])
    assert same_bytes(z[k:], z0[k:])


@asc.jit
def _ub_to_ub(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, dst_off: int, src_off: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    cap = UB_SLOT // x.dtype.sizeof()
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
    asc.data_copy(a, x_gm, cap)
    asc.data_copy(b, z_gm, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(b[dst_off:], a[src_off:], n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, cap)


@pytest.mark.parametrize("name", ("int8", "float16", "float32", "int64"))
@pytest.mark.parametrize("count,dst_bytes,src_bytes", [(64, 0, 0), (96, 32, 64), (33, 0, 32), (1000, 64, 0),
                                                       (0, 0, 0)])
def test_ub_to_ub(name: str, count: int, dst_bytes: int, src_bytes: int) -> None:
    st = storage(name)
    dst_off, src_off = dst_bytes // st.itemsize, src_bytes // st.itemsize
    cap = UB_SLOT // st.itemsize
    x = random_bytes(cap, st, count)
    z = fill_sentinel(cap, st)
    with rounding_warning(count, st.itemsize):
        _ub_to_ub[1](x, z, count, dst_off, src_off)
    k = whole_blocks(count, st.itemsize)
    want = fill_sentinel(cap, st)
    want[dst_off:dst_off + k] = x[src_off:src_off + k]
    assert same_bytes(z, want)


@asc.jit
def _gm_offsets(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, xo: int, zo: int, ao: int):
    """GM views at any element offset: x + ao (address arithmetic), then [xo:]; z[zo:]."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + ao)
    z_gm.set_global_buffer(z)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT // x.dtype.sizeof())
    asc.data_copy(ul, x_gm[xo:], n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[zo:][1:], ul, n)


@pytest.mark.parametrize("xo,zo,ao", [(0, 0, 0), (3, 5, 0), (1, 0, 7), (13, 2, 11)])
def test_gm_offsets_need_no_alignment(xo: int, zo: int, ao: int) -> None:
    x = np.arange(256, dtype=np.float32)
    z = np.full(256, -1.0, np.float32)
    _gm_offsets[1](x, z, 64, xo, zo, ao)
    want = np.full(256, -1.0, np.float32)
    want[zo + 1:zo + 65] = x[ao + xo:ao + xo + 64]
    assert same_bytes(z, want)


# ---------------------------------------------------------------------------
# framework: TQue double buffering, TBuf, several blocks
# ---------------------------------------------------------------------------

@asc.jit
def _queue_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    per_block = tile * tiles
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * per_block, per_block)
    z_gm.set_global_buffer(z + asc.get_block_idx() * per_block, per_block)
    pipe = asc.TPipe()
    qin = asc.TQue(asc.TPosition.VECIN, 2)
    qout = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(qin, 2, tile * x.dtype.sizeof())
    pipe.init_buffer(qout, 2, tile * x.dtype.sizeof())
    for i in range(tiles):
        a = qin.alloc_tensor(x.dtype)
        asc.data_copy(a, x_gm[i * tile:], tile)
        qin.enque(a)
        a = qin.deque(x.dtype)
        b = qout.alloc_tensor(x.dtype)
        asc.data_copy(b, a, tile)
        qout.enque(b)
        qin.free_tensor(a)
        b = qout.deque(x.dtype)
        asc.data_copy(z_gm[i * tile:], b, tile)
        qout.free_tensor(b)


@pytest.mark.parametrize("name", ("float16", "float32", "int8", "uint64"))
@pytest.mark.parametrize("blocks", (1, 3, 8))
def test_queue_pipeline_on_blocks(name: str, blocks: int) -> None:
    st = storage(name)
    tile = 256 // st.itemsize
    x = random_bytes(blocks * 5 * tile, st, blocks)
    z = fill_sentinel(len(x) + tile, st)
    _queue_copy[blocks](x, z, tile, 5)
    assert same_bytes(z[:len(x)], x)
    assert (z[len(x):].view(np.uint8) == 0xA5).all()


@asc.jit
def _tbuf_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * x.dtype.sizeof())
    t = buf.get(x.dtype)
    asc.data_copy(t, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, t, n)


def test_tbuf_copy() -> None:
    x = random_bytes(512, np.dtype(np.int32), 9)
    z = np.zeros_like(x)
    _tbuf_copy[1](x, z, 512)
    assert same_bytes(z, x)


# ---------------------------------------------------------------------------
# faults
# ---------------------------------------------------------------------------

@asc.jit
def _fault(x: asc.GlobalAddress, z: asc.GlobalAddress, which: asc.ConstExpr[str], n: int, off: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    vl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, 1024)
    if which == "gm_to_ub":
        asc.data_copy(ul[off:], x_gm, n)
    elif which == "ub_to_gm":
        asc.data_copy(ul, x_gm, 64)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm[off:], ul, n)
    else:
        asc.data_copy(ul, x_gm, 64)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        if which == "ub_src":
            asc.data_copy(vl, ul[off:], n)
        else:
            asc.data_copy(vl[off:], ul, n)


FAULTS = [
    ("gm_to_ub", 8, 1, "not 32-byte aligned"),  # UB address 4
    ("gm_to_ub", 8, 4, "not 32-byte aligned"),  # UB address 16
    ("ub_src", 8, 2, "not 32-byte aligned"),
    ("ub_dst", 8, 3, "not 32-byte aligned"),
    ("gm_to_ub", 72, 0, "out of bounds"),  # x has 64 elements
    ("ub_to_gm", 40, 32, "out of bounds"),  # z has 64 elements
    ("ub_to_gm", 16, 64, "out of bounds"),
    ("gm_to_ub", 1032, 0, "only 1024"),  # past the LocalTensor
    ("ub_dst", 16, 1016, "only 8"),
    ("gm_to_ub", -8, 0, "negative"),
]


@pytest.mark.parametrize("which,n,off,match", FAULTS)
def test_faults_are_kernel_errors(which: str, n: int, off: int, match: str) -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.full(64, 5.0, np.float32)
    with pytest.raises(asc.KernelError, match=match) as info:
        _fault[1](x, z, which, n, off)
    e = info.value
    assert e.api == "asc.data_copy" and e.kernel == "_fault" and e.block == 0
    assert e.filename.endswith("test_data_copy.py") and e.line > 0
    assert (z == 5.0).all() and (x == np.arange(64)).all()


def test_fault_free_variants_run() -> None:
    """The same kernel with in-range arguments (so the faults above come from the arguments)."""
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    _fault[1](x, z, "gm_to_ub", 64, 8)
    _fault[1](x, z, "ub_to_gm", 32, 32)
    assert (z[32:] == x[:32]).all() and (z[:32] == 0).all()
    _fault[1](x, z, "ub_src", 8, 56)
    _fault[1](x, z, "ub_dst", 8, 1016)


@asc.jit
def _bad_local(x: asc.GlobalAddress, addr: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, addr, 64)
    asc.data_copy(ul, x_gm, 64)


@pytest.mark.parametrize("addr,match", [(16, "not 32-byte aligned"), (-32, "beyond|negative|UB"),
                                        (196608 - 128, "beyond")])
def test_bad_local_tensor_placement(addr: int, match: str) -> None:
    with pytest.raises(asc.KernelError, match=match):
        _bad_local[1](np.zeros(64, np.float32), addr)


def test_read_only_destination() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    z.flags.writeable = False
    with pytest.raises(asc.KernelError, match="read-only"):
        _roundtrip_typed[1](x, z, 64)
    assert (z == 0).all()
    x.flags.writeable = False  # a read-only source is fine
    w = np.zeros(64, np.float32)
    _roundtrip_typed[1](x, w, 64)
    assert (w == x).all()


@asc.jit
def _wrong_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, form: asc.ConstExpr[str]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    f16 = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 64)
    f32 = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
    if form == "gm_to_gm":
        asc.data_copy(z_gm, x_gm, 64)
    elif form == "dtype":
        asc.data_copy(f16, x_gm, 64)
    elif form == "params":
        asc.data_copy(f32, x_gm, 1, 2, 0, 0)
    elif form == "no_count":
        asc.data_copy(f32, x_gm)
    else:
        asc.data_copy(f32, x_gm, 64.0)


@pytest.mark.parametrize("form,exc,match", [
    ("gm_to_gm", asc.CompileError, "GlobalTensor"), ("dtype", asc.CompileError, "float16"),
    # (the DataCopyParams form takes an asc.DataCopyParams, not its fields: test_data_copy_forms.py)
    ("params", asc.CompileError, "too many arguments"), ("no_count", asc.CompileError, "count"),
    ("float_count", asc.CompileError, "integer"),
])
def test_wrong_calls_are_compile_errors(form: str, exc: Any, match: str) -> None:
    with pytest.raises(exc, match=match):
        _wrong_copy[1](np.zeros(64, np.float32), np.zeros(64, np.float32), form)


def test_typed_view_roundtrip_is_byte_exact() -> None:
    """The bfloat16 view kernel moves the raw uint16 bits unchanged (no rounding in a copy)."""
    x = np.arange(0, 65536, 37, dtype=np.uint16)[:1024]
    z = np.zeros_like(x)
    _bf16_roundtrip[1](x, z, len(x))
    assert same_bytes(z, x)
    assert asc_dtype("bfloat16").sizeof() == 2


@asc.jit
def _per_block(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * tile)
    z_gm.set_global_buffer(z + (asc.get_block_num() - 1 - asc.get_block_idx()) * tile)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile)
    asc.data_copy(ul, x_gm, tile)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ul, tile)


def test_blocks_and_fault_in_one_block() -> None:
    """Block i copies tile i of x to tile (block_num - 1 - i) of z; a sixth block reads past x."""
    x = np.arange(5 * 64, dtype=np.int32)
    z = np.zeros_like(x)
    _per_block[5](x, z, 64)
    assert (z.reshape(5, 64) == x.reshape(5, 64)[::-1]).all()
    with pytest.raises(asc.KernelError, match="out of bounds") as info:
        _per_block[6](x, np.zeros(6 * 64, np.int32), 64)
    assert info.value.block == 5 and info.value.api == "asc.data_copy"
