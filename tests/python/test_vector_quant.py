"""The quant family on the simulator against NumPy references:
asc.set_deq_scale + asc.cast_deq (AscendC::SetDeqScale, CastDeq),
asc.add_deq_relu, asc.mul_cast, asc.add_relu_cast, asc.sub_relu_cast, in
the count form and (but add_deq_relu) the level-0 forms with continuous
and bit masks, repeats and strides.

The references follow the devkit's dav-c220 implementations: a half sum or
product is rounded to half before it is converted; conversions to integers
round to nearest even and saturate (NaN to 0); int16 -> int8 dequantisation
is (src * scale) + offset in float, the config's sign mode picking int8 or
uint8 saturation, each source block's 16 results filling one half of the
matching 32-byte dst block; int32 -> half is float(src) * 2^-17 * scale *
2^17 rounded to half.
"""

import zlib
from typing import Any, List, Tuple

import numpy as np
import pytest
from kernels_util import add_deq_relu_level0_ref, fails_at

import asc

CAP = 512  # elements of each tensor
SENT = 0x5A  # the sentinel byte of every dst


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------

@asc.jit
def _fused_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int, op: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, CAP)
    yl = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, 8192, CAP)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 16384, CAP)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(yl, y_gm, CAP)
    asc.data_copy(zl, z_gm, CAP)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if op == 0:
        asc.mul_cast(zl, xl, yl, n)
    elif op == 1:
        asc.add_relu_cast(zl, xl, yl, n)
    else:
        asc.sub_relu_cast(zl, xl, yl, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP)


@asc.jit
def _fused_l0_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[int],
                     bits: asc.ConstExpr[bool], m0: asc.ConstExpr[int], m1: asc.ConstExpr[int],
                     repeat: asc.ConstExpr[int], db: asc.ConstExpr[int], sb: asc.ConstExpr[int],
                     dr: asc.ConstExpr[int], sr: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, CAP)
    yl = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, 8192, CAP)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 16384, CAP)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(yl, y_gm, CAP)
    asc.data_copy(zl, z_gm, CAP)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    p = asc.BinaryRepeatParams(db, sb, sb, dr, sr, sr)
    if bits:
        if op == 0:
            asc.mul_cast(zl, xl, yl, [m0, m1], repeat, p)
        elif op == 1:
            asc.add_relu_cast(zl, xl, yl, [m0, m1], repeat, p)
        else:
            asc.sub_relu_cast(zl, xl, yl, [m0, m1], repeat, p)
    else:
        if op == 0:
            asc.mul_cast(zl, xl, yl, m0, repeat, p)
        elif op == 1:
            asc.add_relu_cast(zl, xl, yl, m0, repeat, p)
        else:
            asc.sub_relu_cast(zl, xl, yl, m0, repeat, p)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP)


@asc.jit
def _deq_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, form: asc.ConstExpr[int],
                scale: asc.ConstExpr[float], offset: asc.ConstExpr[int], sign: asc.ConstExpr[bool],
                vec: asc.ConstExpr[bool], half: asc.ConstExpr[bool], bits: asc.ConstExpr[bool],
                m0: asc.ConstExpr[int], m1: asc.ConstExpr[int], repeat: asc.ConstExpr[int],
                db: asc.ConstExpr[int], sb: asc.ConstExpr[int], dr: asc.ConstExpr[int], sr: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, CAP)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 16384, CAP)
    vdeq = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 32768, 16)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(zl, z_gm, CAP)
    if form == 0:
        asc.set_deq_scale(scale)
    elif form == 1:
        asc.set_deq_scale(scale, offset, sign)
    else:
        info = asc.VdeqInfo([scale + 0.0, scale + 0.25, scale + 0.5, scale + 0.75, scale + 1.0, scale + 1.25,
                             scale + 1.5, scale + 1.75, scale + 2.0, scale + 2.25, scale + 2.5, scale + 2.75,
                             scale + 3.0, scale + 3.25, scale + 3.5, scale + 3.75],
                            [offset + 0, offset + 1, offset + 2, offset + 3, offset + 4, offset + 5, offset + 6, offset + 7,
                             offset + 8, offset + 9, offset + 10, offset + 11, offset + 12, offset + 13, offset + 14, offset + 15],
                            [sign] * 16)
        asc.set_deq_scale(vdeq, info)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if repeat < 0:
        asc.cast_deq(zl, xl, n, vec, half)
    elif bits:
        asc.cast_deq(zl, xl, [m0, m1], repeat, asc.UnaryRepeatParams(db, sb, dr, sr), True, vec, half)
    else:
        asc.cast_deq(zl, xl, m0, repeat, asc.UnaryRepeatParams(db, sb, dr, sr), is_vec_deq=vec, half_block=half)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP)


@asc.jit
def _add_deq_relu_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                         scale: asc.ConstExpr[float]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, CAP)
    yl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 8192, CAP)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 16384, CAP)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(yl, y_gm, CAP)
    asc.data_copy(zl, z_gm, CAP)
    asc.set_deq_scale(scale)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add_deq_relu(zl, xl, yl, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP)
    asc.data_copy(x_gm, xl, CAP)
    asc.data_copy(y_gm, yl, CAP)


# ---------------------------------------------------------------------------
# references
# ---------------------------------------------------------------------------

INT_RANGE = {"int8": (-128, 127), "uint8": (0, 255)}


def to_int(v: np.ndarray, name: str) -> np.ndarray:
    """Nearest, ties to even, saturating, NaN to 0."""
    lo, hi = INT_RANGE[name]
    v = np.asarray(v, np.float64)
    r = np.rint(np.nan_to_num(v, nan=0.0, posinf=hi, neginf=lo))
    return np.clip(r, lo, hi).astype(name)


def fused_ref(op: int, dst: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if op == 0:
            return to_int((a * b).astype(np.float16), dst)
        s = a + b if op == 1 else a - b  # (int16 wraps, half and float round)
        s = np.maximum(s, s.dtype.type(0))
        if a.dtype == np.int16:
            return np.clip(s, -128, 127).astype(np.int8)
        if dst == "float16":  # a NaN gives +0 (the devkit's boundary value tables 26 and 27)
            return np.where(np.isnan(s), s.dtype.type(0), s).astype(np.float16)
        return to_int(s, dst)


def mask_bits(bits: bool, m0: int, m1: int, per_repeat: int) -> np.ndarray:
    if bits:
        on = [(m0 >> i) & 1 if i < 64 else (m1 >> (i - 64)) & 1 for i in range(per_repeat)]
    else:
        on = [i < m0 for i in range(per_repeat)]  # (m0 at most per_repeat here)
    return np.array(on, bool)


def l0_index(r: int, i: int, es: int, blk: int, rep: int) -> int:
    """The element index of element i of repeat r of an operand of es-byte elements."""
    byte = i * es
    return ((r * rep + byte // 32 * blk) * 32 + byte % 32) // es


def inputs(src: str, rng: np.random.Generator) -> Tuple[np.ndarray, np.ndarray]:
    if src == "int16":
        a = rng.integers(-300, 300, CAP).astype(np.int16)
        b = rng.integers(-300, 300, CAP).astype(np.int16)
        a[:3] = [32767, -32768, 100]
        b[:3] = [1, -1, -100]  # wrap both ways, zero
        return a, b
    t = np.float16 if src == "float16" else np.float32
    a = (rng.standard_normal(CAP) * 40).astype(t)
    b = (rng.standard_normal(CAP) * 40).astype(t)
    a[:6] = [0.5, 1.5, 2.5, -0.0, 200.0, -3.5]  # ties to even, signed zero, saturation
    b[:6] = [1.0, 1.0, 1.0, 0.0, 100.0, 1.0]
    a[6:11] = [np.nan, np.inf, np.inf, 1.0, -np.inf]  # NaN and infinities (tables 26 to 28)
    b[6:11] = [1.0, -np.inf, 1.0, np.nan, 2.0]
    return a, b


FUSED = [(0, "float16", "int8"), (0, "float16", "uint8"),
         (1, "float16", "int8"), (1, "float32", "float16"), (1, "int16", "int8"),
         (2, "float16", "int8"), (2, "float32", "float16"), (2, "int16", "int8")]
OPS = {0: asc.mul_cast, 1: asc.add_relu_cast, 2: asc.sub_relu_cast}


def sentinel(name: str) -> np.ndarray:
    return np.full(CAP * np.dtype(name).itemsize, SENT, np.uint8).view(name)


@pytest.mark.parametrize("n", [0, 1, 77, 256, CAP])
@pytest.mark.parametrize("op,src,dst", FUSED)
def test_fused_casts_count_form(op: int, src: str, dst: str, n: int) -> None:
    a, b = inputs(src, rng_for("fused", op, src, dst))
    if op == 0:
        a, b = (a / 8).astype(np.float16), (b / 8).astype(np.float16)
        a[:4], b[:4] = [0.5, 1.5, 2.5, 300.0], [1, 1, 1, 2]  # ties to even, saturation
    z = sentinel(dst)
    _fused_kernel[1](a, b, z, n, op)
    want = sentinel(dst)
    want[:n] = fused_ref(op, dst, a, b)[:n]
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8), err_msg=f"{OPS[op].__name__} n={n}")


L0_CASES = [  # bits, m0, m1, repeat, db, sb, dr, sr
    (False, 1000, 0, 2, 1, 1, 0, 0),    # continuous, over the maximum: all; dr/sr set below to dense
    (False, 37, 0, 3, 1, 1, 0, 0),
    (True, 0xF0F0_0000_FFFF_0001, 0x8000_0000_0000_00FF, 2, 1, 1, 0, 0),
    (False, 64, 0, 2, 2, 1, 0, 0),      # a dst block stride of 2
    (False, 20, 0, 0, 1, 1, 0, 0),      # repeat 0: a NOP
]


@pytest.mark.parametrize("case", range(len(L0_CASES)))
@pytest.mark.parametrize("op,src,dst", FUSED)
def test_fused_casts_level0(op: int, src: str, dst: str, case: int) -> None:
    bits, m0, m1, repeat, db, sb, _, _ = L0_CASES[case]
    a, b = inputs(src, rng_for("fused-l0", op, src, dst, case))
    es_s, es_d = np.dtype(src).itemsize, np.dtype(dst).itemsize
    wide = max(es_s, es_d)
    per = 256 // wide
    # dense repeat strides: each operand's repeat spans per * es bytes
    dr, sr = max(1, per * es_d // 32) * db, per * es_s // 32
    if bits and per == 64:
        m1 = 0
    on = mask_bits(bits, m0, m1, per) if bits else np.arange(per) < min(m0, per)
    z = sentinel(dst)
    _fused_l0_kernel[1](a, b, z, op, bits, m0, m1, repeat, db, sb, dr, sr)
    want = sentinel(dst)
    full = fused_ref(op, dst, a, b)
    for r in range(repeat):
        for i in np.nonzero(on)[0]:
            s = l0_index(r, int(i), es_s, sb, sr)
            d = l0_index(r, int(i), es_d, db, dr)
            want[d] = fused_ref(op, dst, a[s:s + 1], b[s:s + 1])[0]
    del full
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8), err_msg=f"{L0_CASES[case]}")


# ---------------------------------------------------------------------------
# cast_deq
# ---------------------------------------------------------------------------

def deq_b8_ref(s: np.ndarray, scales: List[float], offsets: List[int], sign: bool, vec: bool) -> np.ndarray:
    j = np.arange(s.size) % 16 if vec else np.zeros(s.size, int)
    sc = np.array(scales, np.float32)[j]
    off = np.array(offsets, np.int64)[j]
    off = np.where((off & 0x1ff) >= 256, (off & 0x1ff) - 512, off & 0x1ff).astype(np.float32)
    v = s.astype(np.float32) * sc + off
    return to_int(v, "int8" if sign else "uint8").view(np.uint8)


def deq_half_ref(s: np.ndarray, scale: float) -> np.ndarray:
    v = s.astype(np.float32) * np.float32(2.0 ** -17)
    v = v * np.float32(np.float16(scale))
    with np.errstate(over="ignore"):
        return (v * np.float32(2.0 ** 17)).astype(np.float16)


def deq_params(vec: bool, scale: float, offset: int) -> Tuple[List[float], List[int]]:
    if vec:
        return [scale + 0.25 * i for i in range(16)], [offset + i for i in range(16)]
    return [scale] * 16, [offset] * 16


@pytest.mark.parametrize("n", [1, 16, 45, 128, 256])
@pytest.mark.parametrize("vec,half,sign", [(True, True, True), (True, False, False), (False, True, False),
                                           (False, False, True)])
def test_cast_deq_int16_count_form(vec: bool, half: bool, sign: bool, n: int) -> None:
    rng = rng_for("deq16", vec, half, sign, n)
    s = rng.integers(-200, 200, CAP).astype(np.int16)
    s[:4] = [5, -5, 1000, -1000]  # rounding ties and saturation
    dst = "int8" if sign else "uint8"
    scale, offset = 0.5, (-3 if sign else 7)
    z = sentinel(dst)
    _deq_kernel[1](s, z, n, 2 if vec else 1, scale, offset, sign, vec, half, False, 0, 0, -1, 1, 1, 8, 8)
    want = sentinel(dst).view(np.uint8)
    res = deq_b8_ref(s[:n], *deq_params(vec, scale, offset), sign, vec)
    for i in range(n):  # 16 results per 32-byte block, in its upper (half) or lower half
        want[i // 16 * 32 + 16 * half + i % 16] = res[i]
    np.testing.assert_array_equal(z.view(np.uint8), want)


def test_cast_deq_int16_the_two_halves_make_a_contiguous_result() -> None:
    s = np.arange(CAP, dtype=np.int16) - 100
    z = sentinel("int8")
    _deq_kernel[1](s, z, 128, 1, 1.0, 0, True, False, False, False, 0, 0, -1, 1, 1, 8, 8)
    first = z.copy()
    _deq_kernel[1](s, first, 128, 1, 1.0, 0, True, False, True, False, 0, 0, -1, 1, 1, 8, 8)
    # the even blocks' results in the lower halves stay, the upper halves now hold the same blocks' results
    assert (first.view(np.uint8)[:256].reshape(8, 32)[:, :16] == z.view(np.uint8)[:256].reshape(8, 32)[:, :16]).all()
    assert (first[:256].reshape(8, 32)[:, 16:] == first[:256].reshape(8, 32)[:, :16]).all()


@pytest.mark.parametrize("case", [(False, 128, 0, 2, 1, 1, 8, 8), (False, 40, 0, 1, 2, 1, 16, 8),
                                  (True, 0xFFFF_0000_0000_FFFF, 0x0F0F, 2, 1, 1, 8, 8)])
@pytest.mark.parametrize("vec,half", [(True, True), (False, False)])
def test_cast_deq_int16_level0(vec: bool, half: bool, case: tuple) -> None:
    bits, m0, m1, repeat, db, sb, dr, sr = case
    rng = rng_for("deq16-l0", vec, half, case)
    s = rng.integers(-300, 300, CAP).astype(np.int16)
    z = sentinel("int8")
    _deq_kernel[1](s, z, 0, 2 if vec else 1, 0.75, 2, True, vec, half, bits, m0, m1, repeat, db, sb, dr, sr)
    want = sentinel("int8").view(np.uint8)
    sc, off = deq_params(vec, 0.75, 2)
    on = mask_bits(bits, m0, m1, 128)
    for r in range(repeat):
        for i in np.nonzero(on)[0]:
            i = int(i)
            si = l0_index(r, i, 2, sb, sr)
            v = deq_b8_ref(s[si:si + 1], [sc[i % 16]] * 16, [off[i % 16]] * 16, True, False)[0]
            want[(r * dr + i // 16 * db) * 32 + 16 * half + i % 16] = v
    np.testing.assert_array_equal(z.view(np.uint8), want)


@pytest.mark.parametrize("level0", [False, True])
@pytest.mark.parametrize("scale", [0.5, 3.0e-3, 1.0])
def test_cast_deq_int32_to_half(scale: float, level0: bool) -> None:
    rng = rng_for("deq32", scale, level0)
    s = rng.integers(-(2 ** 20), 2 ** 20, CAP).astype(np.int32)
    s[:5] = [2 ** 31 - 1, -(2 ** 31), 0, 1, 2049]
    z = sentinel("float16")
    n = 200
    if level0:  # mask 40 of 64, 3 repeats, dense
        _deq_kernel[1](s, z, 0, 0, scale, 0, False, False, True, False, 40, 0, 3, 1, 1, 4, 8)
        want = sentinel("float16")
        for r in range(3):
            for i in range(40):
                want[r * 64 + i] = deq_half_ref(s[r * 64 + i:r * 64 + i + 1], scale)[0]
    else:
        _deq_kernel[1](s, z, n, 0, scale, 0, False, False, True, False, 0, 0, -1, 1, 1, 8, 8)
        want = sentinel("float16")
        want[:n] = deq_half_ref(s[:n], scale)
    np.testing.assert_array_equal(z.view(np.uint16), want.view(np.uint16))


def test_cast_deq_needs_the_matching_set_deq_scale() -> None:
    s = np.zeros(CAP, np.int16)
    z = sentinel("int8")
    # is_vec_deq=True after set_deq_scale(scale, offset, sign_mode)
    fails_at(_deq_kernel, (s, z, 16, 1, 1.0, 0, True, True, True, False, 0, 0, -1, 1, 1, 8, 8),
             "asc.cast_deq(zl, xl, n, vec, half)", "is_vec_deq=True", "set_deq_scale(vdeq, vdeq_info)")
    i32 = np.zeros(CAP, np.int32)
    fails_at(_deq_kernel, (i32, sentinel("float16"), 16, 1, 1.0, 0, True, True, True, False, 0, 0, -1, 1, 1, 8, 8),
             "asc.cast_deq(zl, xl, n, vec, half)", "int32 to half", "set_deq_scale(scale)")


def test_cast_deq_dtypes_are_checked() -> None:
    with pytest.raises(asc.CompileError, match="from float16 to int8 is not supported"):
        _deq_kernel[1](np.zeros(CAP, np.float16), sentinel("int8"), 16, 1, 1.0, 0, True, False, True, False, 0, 0,
                       -1, 1, 1, 8, 8)


# ---------------------------------------------------------------------------
# add_deq_relu
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 100, CAP])
@pytest.mark.parametrize("scale", [0.25, 1.0e-2])
def test_add_deq_relu_count_form(scale: float, n: int) -> None:
    rng = rng_for("adr", scale, n)
    a = rng.integers(-(2 ** 16), 2 ** 16, CAP).astype(np.int32)
    b = rng.integers(-(2 ** 16), 2 ** 16, CAP).astype(np.int32)
    a[:3], b[:3] = [2 ** 31 - 1, 5, -7], [1, -5, 3]  # wraps, zero, negative
    a0, b0 = a.copy(), b.copy()
    z = sentinel("float16")
    _add_deq_relu_kernel[1](a, b, z, n, scale)
    s = (a0.astype(np.int64) + b0).astype(np.int64)
    s = ((s + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)
    f = s.astype(np.float32) * np.float32(2.0 ** -17) * np.float32(np.float16(scale)) * np.float32(2.0 ** 17)
    with np.errstate(over="ignore"):
        h = f.astype(np.float16)
    want = sentinel("float16")
    want[:n] = np.where(h[:n] > 0, h[:n], np.float16(0))
    np.testing.assert_array_equal(z.view(np.uint16), want.view(np.uint16))
    # the devkit's scratch use of the sources: src0 holds the floats, src1's first bytes the halves
    np.testing.assert_array_equal(a.view(np.float32)[:n], f[:n])
    np.testing.assert_array_equal(a[n:], a0[n:])
    np.testing.assert_array_equal(b.view(np.float16)[:n], h[:n])


@asc.jit
def _add_deq_relu_l0_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                            scale: asc.ConstExpr[float], bits: asc.ConstExpr[bool], m0: asc.ConstExpr[int],
                            m1: asc.ConstExpr[int], repeat: asc.ConstExpr[int], db: asc.ConstExpr[int],
                            sb: asc.ConstExpr[int], dr: asc.ConstExpr[int], sr: asc.ConstExpr[int],
                            cap: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, cap * 4, cap)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, cap * 8, cap)
    asc.data_copy(xl, x_gm, cap)
    asc.data_copy(yl, y_gm, cap)
    asc.data_copy(zl, z_gm, cap)
    asc.set_deq_scale(scale)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    p = asc.BinaryRepeatParams(db, sb, sb, dr, sr, sr)
    if bits:
        asc.add_deq_relu(zl, xl, yl, [m0, m1], repeat, p)
    else:
        asc.add_deq_relu(zl, xl, yl, m0, repeat, p)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, cap)
    asc.data_copy(x_gm, xl, cap)
    asc.data_copy(y_gm, yl, cap)


def words(bits: bool, m0: int, m1: int, per_repeat: int) -> Tuple[int, int]:
    """The mask register's (low, high) words as SetMask<T> sets them."""
    if bits:
        return m0, m1
    if m0 == 64:
        return 2 ** 64 - 1, 0
    if m0 == per_repeat or m0 >= 128:
        return 2 ** 64 - 1, 2 ** 64 - 1
    return (2 ** 64 - 1 if m0 > 64 else (1 << m0) - 1), ((1 << (m0 - 64)) - 1 if m0 > 64 else 0)


def add_deq_relu_l0_ref(a: np.ndarray, b: np.ndarray, z: np.ndarray, scale: float, bits: bool, m0: int, m1: int,
                        rep: int, db: int, sb: int, dr: int, sr: int) -> None:
    """AddDeqRelu's level-0 form with the mask it sets: every chunk under it (the int32 steps read the
    register as 64 lanes, the half steps as 128)."""
    ilo, _ = words(bits, m0, m1, 64)
    hlo, hhi = words(bits, m0, m1, 128)
    hmask = [bool((hlo >> e) & 1 if e < 64 else (hhi >> (e - 64)) & 1) for e in range(128)]
    add_deq_relu_level0_ref(a, b, z, scale, rep, db, sb, dr, sr, lambda c: ilo, lambda c: hlo, hmask)


ADR_L0 = [  # bits, m0, m1, repeat, db, sb, dr, sr
    (False, 64, 0, 3, 1, 1, 4, 8),     # the natural int32 mask, dense
    (False, 37, 0, 2, 1, 1, 4, 8),
    (False, 128, 0, 3, 1, 1, 4, 8),    # the upper 64 halves of a repeat: the next repeat's results
    (True, 0xF0F0_0000_0000_FFFF, 0x1, 2, 2, 1, 8, 8),
    (False, 64, 0, 0, 1, 1, 4, 8),     # repeat 0: a NOP
    (False, 128, 0, 40, 1, 1, 4, 8),   # 40 repeats: a chunk of 32 and a tail of 8
]


@pytest.mark.parametrize("case", range(len(ADR_L0)))
def test_add_deq_relu_level0(case: int) -> None:
    bits, m0, m1, rep, db, sb, dr, sr = ADR_L0[case]
    rng = rng_for("adr-l0", case)
    cap = CAP if rep <= 8 else 64 * rep + 128  # (the last repeat of a mask of 128 reads 64 halves on)
    a = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    b = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    z = np.full(cap, SENT * 257, np.uint16).view(np.float16)
    wa, wb, wz = a.copy(), b.copy(), z.copy()
    _add_deq_relu_l0_kernel[1](a, b, z, 0.125, bits, m0, m1, rep, db, sb, dr, sr, cap)
    add_deq_relu_l0_ref(wa, wb, wz, 0.125, bits, m0, m1, rep, db, sb, dr, sr)
    np.testing.assert_array_equal(z.view(np.uint16), wz.view(np.uint16), err_msg=f"dst {ADR_L0[case]}")
    np.testing.assert_array_equal(a, wa, err_msg="src0")
    np.testing.assert_array_equal(b, wb, err_msg="src1")


# ---------------------------------------------------------------------------
# errors, Ascend C
# ---------------------------------------------------------------------------

def test_fused_cast_dtypes_are_compile_errors() -> None:
    a = np.zeros(CAP, np.float32)
    with pytest.raises(asc.CompileError, match="asc.mul_cast does not support a int8 dst with float32 sources"):
        _fused_kernel[1](a, a, sentinel("int8"), 16, 0)
    with pytest.raises(asc.CompileError, match="asc.add_relu_cast does not support a uint8 dst with float16"):
        _fused_kernel[1](a.astype(np.float16), a.astype(np.float16), sentinel("uint8"), 16, 1)


def all_ascendc(kernel: Any) -> str:
    """The Ascend C of every compilation of kernel (the cache keeps one per specialisation)."""
    return "\n".join(v.ascendc(line_comments=False) for v in kernel.cache.values())


def test_the_ascend_c_of_the_quant_calls() -> None:
    a = np.zeros(CAP, np.float16)
    _fused_kernel[1](a, a, sentinel("int8"), 16, 0)
    assert "AscendC::MulCast(zl, xl, yl, n)" in all_ascendc(_fused_kernel)
    s = np.zeros(CAP, np.int16)
    _deq_kernel[1](s, sentinel("int8"), 16, 1, 1.0, 0, True, False, False, False, 0, 0, -1, 1, 1, 8, 8)
    code = all_ascendc(_deq_kernel)
    assert "AscendC::CastDeq<int8_t, int16_t, false, false>(zl, xl, n)" in code and "AscendC::SetDeqScale(" in code
    _deq_kernel[1](s, sentinel("int8"), 0, 2, 1.0, 0, True, True, True, True, 7, 0, 1, 1, 1, 8, 8)
    code = all_ascendc(_deq_kernel)
    assert "AscendC::CastDeq<int8_t, int16_t, true, true, true>(" in code and "VdeqInfo" in code


@asc.jit
def _deq_upper_half(x: asc.GlobalAddress, level0: asc.ConstExpr[bool]):
    s = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 0, 16)
    d = asc.LocalTensor(asc.int8, asc.TPosition.VECCALC, 1024, 16)
    asc.duplicate(s, 3, 16)
    asc.set_deq_scale(1.0, 0, True)
    if level0:
        asc.cast_deq(d, s, 16, 1, asc.UnaryRepeatParams(), True, False, True)  # level-0
    else:
        asc.cast_deq(d, s, 16, False, True)  # count


@pytest.mark.parametrize("level0", [False, True])
def test_cast_deq_upper_halves_past_the_dst_are_kernel_errors(level0: bool) -> None:
    # 16 int16 results go to bytes 16-31 of dst's first block: past a 16-element int8 tensor
    fails_at(_deq_upper_half, (np.zeros(8, np.float32), level0), "# level-0" if level0 else "# count",
             "dst", "LocalTensor has only 16")
