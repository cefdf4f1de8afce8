"""The methods of GlobalTensor and LocalTensor on the simulator, against
the devkit's implementation (impl/basic_api/kernel_tensor_impl.h):

- GlobalTensor: get_size (the size given to set_global_buffer, kept by
  views), get_phy_addr (an address another GlobalTensor can view),
  set_l2_cache_hint (a hint: the data is the same);
- LocalTensor: get_size / get_length (elements / bytes of its data length),
  get_position, get_phy_addr (byte addresses in the UB), the user tag of
  its buffer, set_size / set_buffer_len, set_addr_with_offset,
  reinterpret_cast (the byte size it keeps), print (the devkit's CPU-debug
  format, in block order) and to_file (raw bytes);
- misuse: a KernelError or CompileError at the user's line with what to do.

(asc.LocalTensor(dtype) without an address is the tensor a depth-0 queue
allocates into; test_framework_methods.py has that.)
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

VECIN, VECOUT, VECCALC = asc.TPosition.VECIN, asc.TPosition.VECOUT, asc.TPosition.VECCALC
# the UB; an AIV kernel using no API of 静态Tensor编程.md's table 5 may use all of it (test_hw_rules.py)
UB_BYTES = 192 * 1024


def out64(n: int = 32) -> np.ndarray:
    return np.full(n, -99, np.int64)


# ---------------------------------------------------------------------------
# GlobalTensor
# ---------------------------------------------------------------------------


@asc.jit
def k_global(x: asc.GlobalAddress, z: asc.GlobalAddress, out: asc.GlobalAddress, n: int):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    o = asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z)
    o.set_global_buffer(out)
    o.set_value(0, xg.get_size())
    o.set_value(1, xg[8:].get_size())  # a view keeps the size (the devkit copies bufferSize_)
    o.set_value(2, xg(3).get_size())
    o.set_value(3, zg.get_size())  # no size given: 0, as the devkit's CPU debug build has it
    # get_phy_addr is an address: another tensor can view global memory from it
    part = asc.GlobalTensor()
    part.set_global_buffer(xg.get_phy_addr(8), 16)
    o.set_value(4, part.get_size())
    o.set_value(5, part.get_value(0))
    whole = asc.GlobalTensor()
    whole.set_global_buffer(xg.get_phy_addr())
    o.set_value(6, whole.get_value(3))
    # the L2 cache hint changes no data
    xg.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_LAST, asc.CacheRwMode.READ)
    zg.set_l2_cache_hint()
    zg.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE, asc.CacheRwMode.WRITE)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(ub, part, 16)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, ub, 16)


def test_global_tensor_methods() -> None:
    x = np.arange(64, dtype=np.float32) * 3
    z = np.zeros(16, np.float32)
    out = out64()
    k_global[1](x, z, out, 40)
    assert out[:7].tolist() == [40, 40, 40, 0, 16, 24, 9]
    np.testing.assert_array_equal(z, x[8:24])
    src = ascendc(k_global)
    for snippet in ["xg.SetL2CacheHint<AscendC::CacheRwMode::READ>(AscendC::CacheMode::CACHE_MODE_LAST);",
                    "zg.SetL2CacheHint<AscendC::CacheRwMode::RW>(AscendC::CacheMode::CACHE_MODE_NORMAL);",
                    "__gm__ float * tmp_4 = xg.GetPhyAddr(8);", "part.SetGlobalBuffer(tmp_4, 16);", "xg.GetSize()"]:
        assert snippet in src, snippet


@asc.jit
def k_global_misuse(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    e = asc.GlobalTensor()
    if case == 0:
        e.get_size()  # <- 0
    if case == 1:
        e.get_phy_addr()  # <- 1
    if case == 2:
        xg.set_l2_cache_hint(asc.CacheRwMode.READ)  # <- 2
    if case == 3:
        xg.get_phy_addr(1.5)  # <- 3
    if case == 4:
        past = asc.GlobalTensor()
        past.set_global_buffer(xg.get_phy_addr(60), 8)
        past.get_value(4)  # <- 4


@pytest.mark.parametrize("case, fragments, cls", [
    (0, ["GlobalTensor used before set_global_buffer"], asc.CompileError),
    (1, ["GlobalTensor used before set_global_buffer"], asc.CompileError),
    (2, ["`mode` must be an asc.CacheMode, got asc.CacheRwMode.READ"], asc.CompileError),
    (3, ["offset must be an integer"], asc.CompileError),
    (4, ["out of bounds"], asc.KernelError),
])
def test_global_tensor_misuse(case: int, fragments: Sequence[str], cls: Any) -> None:
    fails_at(k_global_misuse, (np.zeros(64, np.float32), case), f"# <- {case}", *fragments, cls=cls)


# ---------------------------------------------------------------------------
# LocalTensor: sizes, position, addresses
# ---------------------------------------------------------------------------

DTYPES = ["float16", "bfloat16", "float32", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"]


@asc.jit
def k_local_meta(out: asc.GlobalAddress, dtype: asc.ConstExpr[Any], pos: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    t = asc.LocalTensor(dtype, pos, 1024, 96)
    o.set_value(0, t.get_size())
    o.set_value(1, t.get_length())
    o.set_value(2, t.get_position())
    o.set_value(3, t.get_position() == pos)
    o.set_value(4, t.get_phy_addr())
    o.set_value(5, t.get_phy_addr(5))
    v = t[16:]
    o.set_value(6, v.get_phy_addr())
    o.set_value(7, v.get_size())
    o.set_value(8, v.get_position())


@pytest.mark.parametrize("pos", [VECIN, VECOUT, VECCALC])
@pytest.mark.parametrize("name", DTYPES)
def test_local_tensor_sizes_position_and_addresses(name: str, pos: asc.TPosition) -> None:
    dtype = getattr(asc, name)
    size = dtype.sizeof()
    out = out64(9)
    k_local_meta[1](out, dtype, int(pos))
    assert out.tolist() == [96, 96 * size, int(pos), 1, 1024, 1024 + 5 * size, 1024 + 16 * size, 80, int(pos)]


@asc.jit
def k_sizes(out: asc.GlobalAddress, n: int, dlen: int):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 256)
    t = q.alloc_tensor(asc.float32)
    o.set_value(0, t.get_size())
    o.set_value(1, t.get_length())
    t.set_size(n)
    o.set_value(2, t.get_size())
    o.set_value(3, t.get_length())
    t.set_buffer_len(dlen)  # in bytes: it need not hold whole elements
    o.set_value(4, t.get_size())
    o.set_value(5, t.get_length())
    h = t.reinterpret_cast(asc.uint8)  # keeps the whole elements' bytes (GetSize() * sizeof(T))
    o.set_value(6, h.get_size())
    o.set_value(7, h.get_length())
    t.set_size()  # (the default: 0)
    o.set_value(8, t.get_size())
    o.set_value(9, t.get_length())
    q.free_tensor(t)


@pytest.mark.parametrize("n, dlen", [(16, 22), (64, 256), (0, 3), (1, 4)])
def test_set_size_and_set_buffer_len(n: int, dlen: int) -> None:
    out = out64(10)
    k_sizes[1](out, n, dlen)
    assert out[:10].tolist() == [64, 256, n, 4 * n, dlen // 4, dlen, dlen // 4 * 4, dlen // 4 * 4, 0, 0]
    src = ascendc(k_sizes)
    for snippet in ["t.SetSize(n);", "t.SetBufferLen(dlen);", "t.SetSize(0);", "t.GetLength()",
                    "t.ReinterpretCast<uint8_t>()"]:
        assert snippet in src, snippet


@asc.jit
def k_size_limits(out: asc.GlobalAddress, n: int, case: asc.ConstExpr[int]):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    if case == 0:
        t.set_size(n)  # <- 0
    if case == 1:
        t.set_buffer_len(n)  # <- 1
    if case == 2:
        t.set_size(16)
        asc.data_copy(g, t, 32)  # <- 2
    if case == 3:
        t.set_size(-1)  # <- 3


def test_set_size_is_checked_against_the_ub() -> None:
    n = (UB_BYTES - 1024) // 4 + 1
    fails_at(k_size_limits, (np.zeros(64, np.float32), n, 0), "# <- 0",
             f"LocalTensor.set_size({n}): {n} elements of float32 from UB address 1024 end past the UB the kernel "
             f"may use; the kernel may use UB bytes [0, {UB_BYTES})")
    k_size_limits[1](np.zeros(64, np.float32), (UB_BYTES - 1024) // 4, 0)  # up to the usable UB's end is fine
    fails_at(k_size_limits, (np.zeros(64, np.float32), -1, 1), "# <- 1", "set_buffer_len: negative length -1")
    fails_at(k_size_limits, (np.zeros(64, np.float32), 0, 2), "# <- 2", "32 elements requested but the LocalTensor "
             "has only 16")
    fails_at(k_size_limits, (np.zeros(64, np.float32), 0, 3), "# <- 3", "-1", cls=asc.CompileError)


# ---------------------------------------------------------------------------
# reinterpret_cast
# ---------------------------------------------------------------------------

PAIRS = [("float32", "int16"), ("float32", "uint8"), ("int8", "int32"), ("float16", "float32"), ("int64", "float16"),
         ("uint8", "uint8"), ("bfloat16", "int16"), ("int32", "float32")]


@asc.jit
def k_reinterpret(x: asc.GlobalAddress, z: asc.GlobalAddress, out: asc.GlobalAddress, n: int,
                  src_t: asc.ConstExpr[Any], dst_t: asc.ConstExpr[Any], nbytes: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    o = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, nbytes)
    raw = q.alloc_tensor(asc.uint8)
    asc.data_copy(raw, xg, nbytes)
    t = raw.reinterpret_cast(src_t)
    t.set_size(n)
    r = t.reinterpret_cast(dst_t)
    o.set_value(0, r.get_size())
    o.set_value(1, r.get_length())
    o.set_value(2, r.get_phy_addr())
    o.set_value(3, r.get_position())
    o.set_value(4, t.get_size())  # the source is unchanged
    q.enque(t)
    t = q.deque(src_t)
    r = t.reinterpret_cast(dst_t)
    r.set_size(nbytes // dst_t.sizeof())
    back = r.reinterpret_cast(asc.uint8)  # the same bytes, seen as dst_t and then as bytes again
    o.set_value(5, back.get_size())
    asc.data_copy(zg, back, nbytes)
    q.free_tensor(t)


@pytest.mark.parametrize("src, dst", PAIRS)
def test_reinterpret_cast_keeps_the_bytes(src: str, dst: str) -> None:
    st, dt = getattr(asc, src), getattr(asc, dst)
    nbytes = 128
    n = 7  # elements of src: 7 * sizeof(src) bytes, not always a whole number of dst elements
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, nbytes, dtype=np.uint8)
    z = np.zeros(nbytes, np.uint8)
    out = out64(6)
    k_reinterpret[1](x, z, out, n, st, dt, nbytes)
    length = n * st.sizeof()
    assert out.tolist() == [length // dt.sizeof(), length, 0, int(VECOUT), n, nbytes // dt.sizeof() * dt.sizeof()]
    np.testing.assert_array_equal(z, x)
    src_text = ascendc(k_reinterpret)
    assert "ReinterpretCast<" in src_text


def test_reinterpret_cast_to_its_own_type_is_a_copy() -> None:
    @asc.jit
    def k(out: asc.GlobalAddress):
        o = asc.GlobalTensor()
        o.set_global_buffer(out)
        t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
        r = t.reinterpret_cast(asc.int32)
        r.set_size(8)  # a C++ copy: t keeps its size
        o.set_value(0, t.get_size())
        o.set_value(1, r.get_size())

    out = out64(2)
    k[1](out)
    assert out.tolist() == [64, 8]


@asc.jit
def k_reinterpret_values(x: asc.GlobalAddress, out: asc.GlobalAddress):
    xg = asc.GlobalTensor()
    o = asc.GlobalTensor()
    xg.set_global_buffer(x)
    o.set_global_buffer(out)
    t = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 16)
    asc.data_copy(t, xg, 16)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    h = t.reinterpret_cast(asc.int16)
    for i in range(8):
        o.set_value(i, h.get_value(i))


def test_reinterpret_cast_as_the_devkit_example() -> None:
    # the devkit's example: int32 0..15 seen as int16 is 0 0 1 0 2 0 ... (little endian)
    out = out64(8)
    k_reinterpret_values[1](np.arange(16, dtype=np.int32), out)
    assert out.tolist() == [0, 0, 1, 0, 2, 0, 3, 0]


# ---------------------------------------------------------------------------
# set_addr_with_offset
# ---------------------------------------------------------------------------


@asc.jit
def k_addr_offset(x: asc.GlobalAddress, out: asc.GlobalAddress, off: int):
    xg = asc.GlobalTensor()
    o = asc.GlobalTensor()
    xg.set_global_buffer(x)
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 256)
    src = q.alloc_tensor(asc.float32)
    asc.data_copy(src, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    h16 = asc.LocalTensor(asc.float16)
    h16.set_addr_with_offset(src, off)  # off elements of src's type further on
    o.set_value(0, h16.get_phy_addr())
    o.set_value(1, h16.get_length())  # src's data length, not shortened by the offset
    o.set_value(2, h16.get_size())
    o.set_value(3, h16.get_position())
    tb = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(tb, 32)
    i32 = tb.get(asc.int32)
    i32.set_addr_with_offset(src, off)  # moves an existing tensor too
    o.set_value(4, i32.get_phy_addr())
    o.set_value(5, i32.get_value(0))  # the bits of src's element `off`
    i32.set_user_tag(5)  # src's buffer: the tag is shared
    o.set_value(6, src.get_user_tag())
    q.free_tensor(src)


def test_set_addr_with_offset() -> None:
    x = np.arange(64, dtype=np.float32) + 0.5
    out = out64(7)
    k_addr_offset[1](x, out, 8)
    assert out.tolist() == [32, 256, 128, int(VECIN), 32, int(x[8:9].view(np.int32)[0]), 5]
    assert "h16.SetAddrWithOffset(src, off);" in ascendc(k_addr_offset)


# ---------------------------------------------------------------------------
# the user tag (of the buffer: TBufType.usertag)
# ---------------------------------------------------------------------------


@asc.jit
def k_user_tag(out: asc.GlobalAddress, case: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(q, 2, 64)
    pipe.init_buffer(b, 64)
    a = q.alloc_tensor(asc.float32)
    o.set_value(0, a.get_user_tag())  # init_buffer sets -1
    a.set_user_tag(11)
    o.set_value(1, a.get_user_tag())
    o.set_value(2, a[4:].get_user_tag())  # every view of the buffer
    o.set_value(3, a.reinterpret_cast(asc.int8).get_user_tag())
    c = q.alloc_tensor(asc.float32)
    o.set_value(4, c.get_user_tag())  # the other buffer: its own tag
    c.set_user_tag()  # (the default: 0)
    o.set_value(5, c.get_user_tag())
    q.enque(a)
    d = q.deque(asc.float32)
    o.set_value(6, d.get_user_tag())  # the tag travels with the buffer
    q.free_tensor(d)
    q.free_tensor(c)
    e = q.alloc_tensor(asc.float32)  # round robin: buffer 0 again; alloc keeps the tag
    o.set_value(7, e.get_user_tag())
    q.free_tensor(e)
    t = b.get(asc.int16)
    o.set_value(8, t.get_user_tag())
    t.set_user_tag(-7)
    o.set_value(9, b.get_with_offset(4, 32, asc.float32).get_user_tag())  # the TBuf's one buffer


@asc.jit
def k_loose_tag(out: asc.GlobalAddress, case: asc.ConstExpr[int]):
    """A tensor placed by address (a static-tensor kernel: no TPipe) is in no buffer."""
    loose = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 8192, 8)
    if case == 1:
        loose.set_user_tag(1)  # <- 1
    if case == 2:
        loose.get_user_tag()  # <- 2


def test_user_tag_belongs_to_the_buffer() -> None:
    out = out64(10)
    k_user_tag[1](out, 0)
    assert out.tolist() == [-1, 11, 11, 11, -1, 0, 11, 11, -1, -7]
    src = ascendc(k_user_tag)
    assert "a.SetUserTag(11);" in src and "c.SetUserTag(0);" in src and "a.GetUserTag()" in src


@pytest.mark.parametrize("case, api", [(1, "set_user_tag"), (2, "get_user_tag")])
def test_user_tag_needs_a_buffer(case: int, api: str) -> None:
    fails_at(k_loose_tag, (out64(10), case), f"# <- {case}", f"LocalTensor.{api}: this LocalTensor (UB address 8192) "
             "is not in a TQue or TBuf buffer", "null pointer")


# ---------------------------------------------------------------------------
# print and to_file
# ---------------------------------------------------------------------------


@asc.jit
def k_print(x: asc.GlobalAddress, n: int, dtype: asc.ConstExpr[Any], count: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    raw = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, count)
    asc.data_copy(raw, xg, count)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    t = raw.reinterpret_cast(dtype)  # (bfloat16 arrives as its uint16 bits)
    t.print(n)


def devkit_print(values: Sequence[Any], itemsize: int, as_float: bool) -> str:
    """The text of the devkit's LocalTensor::Print (CPU debug build): 32 bytes a line, each line the index
    of its first element in 4 zero-padded digits, " : ", and the elements each followed by a space (floats
    as a std::ostream writes them: printf's %g; 8-bit types as int32_t)."""
    per_line = 32 // itemsize
    lines = []
    for start in range(0, len(values), per_line):
        chunk = values[start:start + per_line]
        items = "".join((f"{float(v):g}" if as_float else f"{int(v)}") + " " for v in chunk)
        lines.append(f"{start:04d} : {items}\n")
    return "".join(lines)


@pytest.mark.parametrize("name, values", [
    ("float32", [0.0, 1.5, -2.0, 1e-5, 123456789.0, float("inf"), float("-inf"), float("nan"), 0.1, -0.0, 3.25e38]),
    ("float16", [0.0, 0.5, -1.25, 65504.0, 6e-8, float("inf"), 1 / 3] + [float(i) for i in range(12)]),
    ("int8", list(range(-20, 20, 1))),
    ("uint8", [0, 1, 127, 128, 200, 255] * 7),
    ("int16", [-32768, -1, 0, 1, 32767] * 4),
    ("int32", [-2**31, -1, 0, 7, 2**31 - 1] * 2),
    ("uint32", [0, 1, 2**32 - 1, 2**31] * 3),
    ("int64", [-2**63, -1, 0, 2**63 - 1, 42]),
    ("uint64", [0, 2**64 - 1, 2**63, 5]),
])
def test_print_has_the_devkits_format(name: str, values: Sequence[Any], capfd: pytest.CaptureFixture) -> None:
    np_t = {"float16": np.float16}.get(name, np.dtype(name))
    itemsize = np.dtype(np_t).itemsize
    count = math.ceil(len(values) * itemsize / 32) * 32 // itemsize
    x = np.zeros(count, np_t)
    x[:len(values)] = np.array(values, dtype=np_t)
    capfd.readouterr()
    k_print[1](x, len(values), getattr(asc, name), count)
    printed = capfd.readouterr().out
    as_float = name.startswith("float")
    shown = [float(v) for v in x[:len(values)]] if as_float else [int(v) for v in x[:len(values)]]
    assert printed == devkit_print(shown, itemsize, as_float)


def test_print_of_a_bfloat16_and_a_bool_tensor(capfd: pytest.CaptureFixture) -> None:
    bits = (np.array([1.0, -2.5, 0.0078125, 3e38], np.float32).view(np.uint32) >> 16).astype(np.uint16)
    x = np.zeros(16, np.uint16)
    x[:4] = bits
    capfd.readouterr()
    k_print[1](x, 4, asc.bfloat16, 16)
    shown = (bits.astype(np.uint32) << 16).view(np.float32)  # (3e38 truncated to bfloat16)
    assert capfd.readouterr().out == devkit_print([float(v) for v in shown], 2, True)
    assert devkit_print([float(v) for v in shown], 2, True).startswith("0000 : 1 -2.5 0.0078125 2.99")
    flags = np.zeros(32, np.bool_)
    flags[[1, 5]] = True
    k_print[1](flags, 6, asc.bool_, 32)
    assert capfd.readouterr().out == "0000 : 0 1 0 0 0 1 \n"


@pytest.mark.parametrize("n, shown", [(0, 0), (3, 3), (8, 8), (9, 9), (100, 16), (-1, 16)])
def test_print_length_is_clamped_to_the_size(n: int, shown: int, capfd: pytest.CaptureFixture) -> None:
    x = np.arange(16, dtype=np.int32)
    capfd.readouterr()
    k_print[1](x, n, asc.int32, 16)  # (-1 is the uint32_t 4294967295: all of it)
    assert capfd.readouterr().out == devkit_print(list(range(shown)), 4, False)


@asc.jit
def k_print_blocks(x: asc.GlobalAddress):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    t = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 8)
    asc.data_copy(t, xg[asc.get_block_idx() * 8:], 8)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    t.print(2)
    t[2:].print(1)


@pytest.mark.parametrize("workers", [1, 3])
def test_print_output_comes_in_block_order(workers: int, capfd: pytest.CaptureFixture) -> None:
    x = np.arange(6 * 8, dtype=np.int32)
    old = asc.runtime.config.get_workers() if hasattr(asc.runtime.config, "get_workers") else 0
    asc.runtime.config.set_workers(workers)
    try:
        capfd.readouterr()
        k_print_blocks[6](x)
    finally:
        asc.runtime.config.set_workers(old)
    expected = "".join(f"0000 : {8 * b} {8 * b + 1} \n0000 : {8 * b + 2} \n" for b in range(6))
    assert capfd.readouterr().out == expected


def test_print_of_unwritten_data_is_a_sanitizer_error() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress):
        t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 8)
        t.print(8)  # <- here

    fails_at(k, (np.zeros(8, np.float32),), "# <- here", "uninitialised read", cls=asc.SanitizerError)


@asc.jit
def k_to_file(x: asc.GlobalAddress, n: int):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    pipe = asc.TPipe()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 256)
    t = b.get(asc.int16)
    asc.data_copy(t, xg[asc.get_block_idx() * 128:], 128)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    t.set_size(n)
    t.to_file("t_local.bin")
    t[4:].to_file("sub dir/view.bin")


def test_to_file_writes_the_tensors_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub dir").mkdir()
    x = np.arange(3 * 128, dtype=np.int16) * 7
    k_to_file[1](x, 20)
    assert (tmp_path / "t_local.bin").read_bytes() == x[:20].tobytes()
    assert (tmp_path / "sub dir" / "view.bin").read_bytes() == x[4:20].tobytes()
    k_to_file[3](x, 5)  # every block writes the file: the last block's write stays
    assert (tmp_path / "t_local.bin").read_bytes() == x[256:261].tobytes()
    src = ascendc(k_to_file)
    assert '    t.ToFile("t_local.bin");' in src and "#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1" in src


@asc.jit
def k_debug_misuse(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 8)
    if case == 0:
        t.to_file("")  # <- 0
    if case == 1:
        t.to_file(5)  # <- 1
    if case == 2:
        t.print(2.5)  # <- 2
    if case == 3:
        t.print()  # <- 3
    if case == 4:
        t.reinterpret_cast(7)  # <- 4
    if case == 5:
        t.set_addr_with_offset(x, 0)  # <- 5
    if case == 6:
        t.set_user_tag(1.5)  # <- 6
    if case == 7:
        t.get_phy_addr(t)  # <- 7
    if case == 8:
        t.to_file("a\0b")  # <- 8


@pytest.mark.parametrize("case, fragment", [
    (0, "LocalTensor.to_file takes a file name (a non-empty compile-time string), got the string ''"),
    (1, "LocalTensor.to_file takes a file name"), (2, "data_len must be an integer"),
    (3, "data_len"), (4, "LocalTensor.reinterpret_cast: `dtype` must be a data type"),
    (5, "LocalTensor.set_addr_with_offset takes a LocalTensor, got a GlobalAddress"),
    (6, "tag must be an integer"), (7, "offset must be an integer"), (8, "LocalTensor.to_file takes a file name"),
])
def test_tensor_method_misuse_is_a_compile_error(case: int, fragment: str) -> None:
    fails_at(k_debug_misuse, (np.zeros(8, np.float32), case), f"# <- {case}", fragment, cls=asc.CompileError)
