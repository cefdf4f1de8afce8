"""select (every SelMode, count / level-0 / register forms), the CmpMask
register (set_cmp_mask, get_cmp_mask) and compare's level-0 and register
forms on the simulator, against NumPy references of the devkit's semantics
(src/sim/select.c, compare.c; docs/semantics.md)."""

import zlib
from typing import Any

import numpy as np
import pytest
from kernels_util import UB_SLOT, ascendc

import asc

NP = {"float16": np.float16, "float32": np.float32}
SLOT = UB_SLOT // 4  # bytes per operand here: 4096


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


@asc.jit
def sel_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, m: asc.GlobalAddress, z: asc.GlobalAddress,
               form: asc.ConstExpr[int], mode: asc.ConstExpr[int], n: int, mask: asc.ConstExpr[Any],
               rep: asc.ConstExpr[int], scalar: asc.ConstExpr[float]):
    xg, yg, mg, zg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    mg.set_global_buffer(m)
    zg.set_global_buffer(z)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, SLOT, cap)
    ml = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 2 * SLOT, SLOT)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 3 * SLOT, cap)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(yl, yg, cap)
    asc.data_copy(ml, mg, SLOT)
    asc.data_copy(zl, zg, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    sm = asc.SelMode(mode)
    p = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
    if form == 0:
        if mode == 1:
            asc.select(zl, ml, xl, scalar, sm, n)
        else:
            asc.select(zl, ml, xl, yl, sm, n)
    elif form == 1:
        if mode == 1:
            asc.select(zl, ml, xl, scalar, sm, mask, rep, p)
        else:
            asc.select(zl, ml, xl, yl, sm, mask, rep, p)
    elif form == 2:  # the register forms
        if mode == 1:
            asc.duplicate(yl, scalar, 16)
            asc.set_cmp_mask(yl)
            asc.select(zl, ml, xl, rep, p)
        else:
            asc.set_cmp_mask(ml)
            asc.select(zl, xl, yl, repeat_times=rep, repeat_params=p, sel_mode=sm)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)


def run_select(dt: str, form: int, mode: int, n: int, mask: Any, rep: int, scalar: float = 2.5):
    t = NP[dt]
    cap = SLOT // np.dtype(t).itemsize
    r = rng_for(dt, form, mode, n, str(mask), rep)
    x = r.standard_normal(cap).astype(t)
    y = r.standard_normal(cap).astype(t)
    m = r.integers(0, 256, SLOT).astype(np.uint8)
    z = np.full(cap, -7, t)
    z0 = z.copy()
    sel_kernel[1](x, y, m, z, form, mode, n, mask, rep, scalar)
    return x, y, m, z0, z


def bits_of(m: np.ndarray, count: int) -> np.ndarray:
    return np.unpackbits(m, bitorder="little")[:count].astype(bool)


def mask_bits(mask: Any, per: int) -> np.ndarray:
    if isinstance(mask, list):
        lo, hi = mask[0], mask[1] if len(mask) > 1 else 0
        v = [(lo >> i) & 1 if i < 64 else (hi >> (i - 64)) & 1 for i in range(per)]
        return np.array(v, bool)
    return np.arange(per) < min(mask, per)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("n", [1, 37, 64, 128, 300])
def test_select_count(dt: str, mode: int, n: int) -> None:
    x, y, m, z0, z = run_select(dt, 0, mode, n, 0, 0)
    per = 256 // np.dtype(NP[dt]).itemsize
    if mode == 0:  # the same per bits every repeat
        b = np.resize(bits_of(m, per), n)
    else:
        b = bits_of(m, n)
    other = np.full(n, NP[dt](2.5)) if mode == 1 else y[:n]
    want = z0.copy()
    want[:n] = np.where(b, x[:n], other)
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("mask,rep", [(128, 2), (37, 3), ([0x0F0F0F0F0F0F0F0F, 0x1], 2), (64, 1), (0, 2)])
def test_select_level0(dt: str, mode: int, mask: Any, rep: int) -> None:
    x, y, m, z0, z = run_select(dt, 1, mode, 0, mask, rep)
    per = 256 // np.dtype(NP[dt]).itemsize
    en = np.tile(mask_bits(mask, per), rep)
    n = per * rep
    b = np.resize(bits_of(m, per), n) if mode == 0 else bits_of(m, n)
    other = np.full(n, NP[dt](2.5)) if mode == 1 else y[:n]
    want = z0.copy()
    want[:n] = np.where(en, np.where(b, x[:n], other), z0[:n])
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mode", [0, 1])
def test_select_register_forms(dt: str, mode: int) -> None:
    """Select<T, VSEL_CMPMASK_SPR> with the register from set_cmp_mask, and the scalar mode with the scalar in
    the register; the mask register as it is (all ones)."""
    rep = 2
    x, y, m, z0, z = run_select(dt, 2, mode, 0, 0, rep, 1.5)
    per = 256 // np.dtype(NP[dt]).itemsize
    n = per * rep
    b = np.resize(bits_of(m, per), n) if mode == 0 else bits_of(m, n)
    other = np.full(n, NP[dt](1.5)) if mode == 1 else y[:n]
    want = z0.copy()
    want[:n] = np.where(b, x[:n], other)
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


@asc.jit
def cmp_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, form: asc.ConstExpr[int],
               mode: asc.ConstExpr[int], mask: asc.ConstExpr[Any], rep: asc.ConstExpr[int],
               s0: asc.ConstExpr[int], s1: asc.ConstExpr[int]):
    xg, yg, zg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    zg.set_global_buffer(z)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, SLOT, cap)
    zl = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 2 * SLOT, SLOT)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(yl, yg, cap)
    asc.data_copy(zl, zg, SLOT)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    cm = asc.CMPMODE(mode)
    if form == 0:
        asc.compare(zl, xl, yl, cm, mask, rep, asc.BinaryRepeatParams(1, s0, s1, 8, 8 * s0, 8 * s1))
    elif form == 1:
        asc.compare_scalar(zl, xl, 0.25, cm, mask, rep, asc.UnaryRepeatParams(1, s0, 8, 8 * s0))
    else:
        asc.compare(xl, yl, cm, mask, asc.BinaryRepeatParams())
        asc.get_cmp_mask(zl)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, SLOT)


def _ne(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The hardware's NE: LT or GT, 0 with a NaN (the devkit's boundary value tables 30 and 31)."""
    return np.less(a, b) | np.greater(a, b)


OPS = [np.less, np.greater, np.equal, np.less_equal, np.greater_equal, _ne]


def cmp_inputs(dt: str, key: Any) -> tuple:
    t = NP[dt]
    cap = SLOT // np.dtype(t).itemsize
    r = rng_for(dt, key)
    x = r.integers(-3, 4, cap).astype(t)
    y = r.integers(-3, 4, cap).astype(t)
    x[5] = np.nan
    x[6], y[6] = -0.0, 0.0
    return x, y


def strided(a: np.ndarray, per: int, rep: int, s: int) -> np.ndarray:
    """Element i of repeat r: blocks s apart, repeats 8 * s blocks apart."""
    pb = 32 // a.dtype.itemsize
    out = []
    for r in range(rep):
        for i in range(per):
            out.append(a[(r * 8 * s + (i // pb) * s) * pb + i % pb])
    return np.array(out, a.dtype)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mode", range(6))
@pytest.mark.parametrize("stride", [1, 2])
def test_compare_level0(dt: str, mode: int, stride: int) -> None:
    x, y = cmp_inputs(dt, (mode, stride))
    per, rep = 256 // np.dtype(NP[dt]).itemsize, 2
    z = np.full(SLOT, 0xA5, np.uint8)
    cmp_kernel[1](x, y, z, 0, mode, 17, rep, stride, 1)  # the mask is reserved on the Ascend910B
    want = np.packbits(OPS[mode](strided(x, per, rep, stride), strided(y, per, rep, 1)), bitorder="little")
    np.testing.assert_array_equal(z[:len(want)], want)
    assert (z[len(want):] == 0xA5).all()


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mode", range(6))
def test_compare_scalar_level0(dt: str, mode: int) -> None:
    x, y = cmp_inputs(dt, ("s", mode))
    x[7] = 0.25
    per, rep = 256 // np.dtype(NP[dt]).itemsize, 3
    z = np.full(SLOT, 0xA5, np.uint8)
    cmp_kernel[1](x, y, z, 1, mode, [1, 0], rep, 1, 1)
    want = np.packbits(OPS[mode](x[:per * rep], NP[dt](0.25)), bitorder="little")
    np.testing.assert_array_equal(z[:len(want)], want)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("mask", [128, 10, [0xF0F0, 0x3]])
def test_compare_into_cmp_mask_register(dt: str, mask: Any) -> None:
    x, y = cmp_inputs(dt, ("reg", str(mask)))
    per = 256 // np.dtype(NP[dt]).itemsize
    z = np.full(SLOT, 0xA5, np.uint8)
    cmp_kernel[1](x, y, z, 2, 0, mask, 1, 1, 1)
    res = OPS[0](x[:per], y[:per]) & mask_bits(mask, per)
    want = np.zeros(16, np.uint8)
    want[:per // 8] = np.packbits(res, bitorder="little")
    np.testing.assert_array_equal(z[:16], want)
    assert (z[16:] == 0xA5).all()


def test_emitted_ascendc() -> None:
    run_select("float16", 1, 2, 0, [3, 1], 2)
    src = ascendc(sel_kernel)
    assert "AscendC::Select(" in src and "AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE" in src
    assert "uint64_t mask" in src
    x, y = cmp_inputs("float32", "emit")
    cmp_kernel[1](x, y, np.zeros(SLOT, np.uint8), 2, 3, 64, 1, 1, 1)
    src = ascendc(cmp_kernel)
    assert "AscendC::Compare(xl, yl, AscendC::CMPMODE::LE, static_cast<uint64_t>(64ULL)" in src.replace("\n", " ")
    assert "AscendC::GetCmpMask(" in src


def test_errors() -> None:
    with pytest.raises(asc.CompileError, match="VSEL_TENSOR_SCALAR_MODE"):
        @asc.jit
        def bad(x: asc.GlobalAddress):
            xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
            ml = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 256, 32)
            asc.select(xl, ml, xl, 1.0, asc.SelMode.VSEL_CMPMASK_SPR, 128)
        bad[1](np.zeros(8, np.float16))
    with pytest.raises(asc.CompileError, match="sel_mask"):
        @asc.jit
        def bad2(x: asc.GlobalAddress):
            xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
            ml = asc.LocalTensor(asc.int8, asc.TPosition.VECIN, 256, 32)
            asc.select(xl, ml, xl, xl, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)
        bad2[1](np.zeros(8, np.float16))
    with pytest.raises(asc.CompileError, match="int32"):
        @asc.jit
        def bad3(x: asc.GlobalAddress):
            xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 128)
            asc.select(xl, xl.reinterpret_cast(asc.uint8), xl, xl, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 64)
        bad3[1](np.zeros(8, np.float16))


@asc.jit
def sel_strided_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, m: asc.GlobalAddress, z: asc.GlobalAddress):
    xg, yg, mg, zg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    mg.set_global_buffer(m)
    zg.set_global_buffer(z)
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 512)
    yl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 2048, 512)
    ml = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, 4096, 64)
    zl = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 8192, 512)
    asc.data_copy(xl, xg, 512)
    asc.data_copy(yl, yg, 512)
    asc.data_copy(ml, mg, 64)
    asc.data_copy(zl, zg, 512)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0, 0xFFFF0000FFFF, dtype=asc.float32)
    # dst blocks 2 apart, src0 repeats 16 blocks apart, the mask register as set_vector_mask left it
    asc.select(zl, ml, xl, yl, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 0, 2,
               asc.BinaryRepeatParams(2, 1, 1, 16, 16, 8), False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, 512)


def test_select_level0_strides_and_the_mask_register() -> None:
    r = rng_for("strided")
    x = r.standard_normal(512).astype(np.float32)
    y = r.standard_normal(512).astype(np.float32)
    m = r.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    z = np.full(512, -7, np.float32)
    want = z.copy()
    sel_strided_kernel[1](x, y, m, z)
    bits = bits_of(m.view(np.uint8), 128)
    on = mask_bits([0xFFFF0000FFFF, 0], 64)
    for rep in range(2):
        for i in range(64):
            if not on[i]:
                continue
            b, e = divmod(i, 8)
            d = (rep * 16 + b * 2) * 8 + e
            s0 = (rep * 16 + b) * 8 + e
            s1 = (rep * 8 + b) * 8 + e
            want[d] = x[s0] if bits[rep * 64 + i] else y[s1]
    np.testing.assert_array_equal(z, want)
