"""The math library of asc.adv (family adv math, src/sim/adv_math.c, adv_math_simple.c) against NumPy.

Exp (both taylor_expand_level 0 and > 0), Log, Sign, Floor, Ceil, Round, Trunc, Frac, Axpy and Xor follow the
devkit's Ascend910B instruction sequences; their references here repeat those sequences in NumPy (float32
steps, one rounding per instruction), so most results are bit-exact. The transcendental APIs (Acos ...
Lgamma) take their numerics from adv_math_fn.c (family mathfn) and are checked against float64 NumPy within
tolerances of the order of the devkit's stated precision. Every API: the count form, the form without count
(src.get_size()), with and without temp_buffer, odd lengths, NaN / inf / signed zeros where they matter; the
errors: element types, temp_buffer's type and size, count, overlaps, template arguments."""

import math
import zlib
from typing import Any, Callable, Dict

import numpy as np
import pytest
from kernels_util import ascendc, fails_at, fill_sentinel, padded, padded_copy

import asc

FLT = ("float16", "float32")
NP = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "uint16": np.uint16}
UINT = {"float16": np.uint16, "float32": np.uint32}
SLOT = 16384  # UB bytes per operand
LENGTHS = (1, 37, 128, 300)
TMP = 4096  # bytes of temp_buffer unless a test says otherwise
F_COUNT, F_COUNT_TMP, F_ALL, F_ALL_TMP = range(4)


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def unary_kernel(op: Callable[..., None]) -> Any:
    @asc.jit
    def adv_unary(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, tmp_bytes: int,
                  f: asc.ConstExpr[int]):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 3 * SLOT)
        xl = buf.get_with_offset(npad, 0, x.dtype)
        zl = buf.get_with_offset(npad, SLOT, z.dtype)
        wl = buf.get_with_offset(tmp_bytes, 2 * SLOT, asc.uint8)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        if f == 0:
            op(zl, xl, n)  # the count form
        elif f == 1:
            op(zl, xl, n, temp_buffer=wl)  # count and temp_buffer
        elif f == 2:
            op(zl, xl)  # src.get_size() elements
        else:
            op(zl, xl, temp_buffer=wl)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return adv_unary


UNARY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan", "tanh", "erf",
         "erfc", "digamma", "lgamma", "log", "sign", "floor", "ceil", "round", "trunc", "frac")
KERNELS: Dict[str, Any] = {name: unary_kernel(getattr(asc.adv, name)) for name in UNARY}


def run_unary(name: str, a: np.ndarray, form: int = F_COUNT_TMP, tmp: int = TMP,
              kernel: Any = None) -> np.ndarray:
    n = len(a)
    npad = padded(n, a.dtype.itemsize)
    if form in (F_ALL, F_ALL_TMP):
        # the form without count computes the whole tensor: give it exactly the n elements
        assert npad == n
    x = padded_copy(a, npad, np.random.default_rng(7))
    z = fill_sentinel(npad, a.dtype)
    (kernel or KERNELS[name])[1](x, z, n, npad, tmp, form)
    if form in (F_COUNT, F_COUNT_TMP):  # nothing past count is written
        assert (z[n:].view(np.uint8) == fill_sentinel(npad, a.dtype)[n:].view(np.uint8)).all()
    return z[:n]


def bits_equal(actual: np.ndarray, expected: np.ndarray, dtype: str) -> None:
    u = UINT[dtype]
    a, e = actual.astype(NP[dtype]), expected.astype(NP[dtype])
    nan = np.isnan(e)
    assert (np.isnan(a) == nan).all(), f"NaN at {np.flatnonzero(np.isnan(a) != nan)[:8]}"
    bad = np.flatnonzero((a.view(u) != e.view(u)) & ~nan)
    assert bad.size == 0, f"at {bad[:8]}: {a[bad[:8]]} vs {e[bad[:8]]}"


# ---- the rounding family: bit-exact ----------------------------------------------------------------------

def specials(dtype: str) -> np.ndarray:
    t = NP[dtype]
    return np.array([0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.0, -2.0, np.inf, -np.inf, np.nan, 1e-3, -1e-3,
                     1023.5, -1023.5, 65504 if dtype == "float16" else 3e38], t)


# The devkit's Floor / Ceil / Round / Trunc are a float -> float Cast, whose zero results are +0 (the boundary
# value table 32): floor(-0.0) and ceil(-0.5) are +0.0, and Frac(-0.0) = -0.0 - +0.0 = -0.0.
ROUND_REF = {name: (lambda f, fn=fn: fn(f) + np.float32(0)) for name, fn in
             (("floor", np.floor), ("ceil", np.ceil), ("round", np.rint), ("trunc", np.trunc))}


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("name", ("floor", "ceil", "round", "trunc", "frac"))
@pytest.mark.parametrize("n", LENGTHS)
def test_rounding(name: str, dtype: str, n: int) -> None:
    t = NP[dtype]
    a = (rng_for(name, dtype, n).standard_normal(n) * 20).astype(t)
    a[: min(n, 18)] = specials(dtype)[: min(n, 18)]
    z = run_unary(name, a)
    f = a.astype(np.float32)
    with np.errstate(invalid="ignore"):
        ref = (f - ROUND_REF["trunc"](f)) if name == "frac" else ROUND_REF[name](f)
    bits_equal(z, ref.astype(t), dtype)


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("form", (F_COUNT, F_ALL, F_ALL_TMP))
@pytest.mark.parametrize("name", ("floor", "ceil", "round", "trunc", "frac", "sign"))
def test_rounding_forms(name: str, dtype: str, form: int) -> None:
    n = 256  # padded: the form without count computes all of it
    a = (rng_for(name, form).standard_normal(n) * 9).astype(NP[dtype])
    ref = run_unary(name, a, F_COUNT_TMP)
    bits_equal(run_unary(name, a, form), ref, dtype)


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n", LENGTHS)
def test_sign(dtype: str, n: int) -> None:
    t = NP[dtype]
    a = (rng_for("sign", dtype, n).standard_normal(n) * 3).astype(t)
    a[: min(n, 18)] = specials(dtype)[: min(n, 18)]
    z = run_unary("sign", a)
    # -1, +1, and +0 for zeros of both signs and for NaN (the devkit's two Selects and their Add)
    ref = np.where(a < 0, -1.0, np.where(a > 0, 1.0, 0.0)).astype(t)
    bits_equal(z, ref, dtype)


@pytest.mark.parametrize("name", ("floor", "ceil", "round", "trunc", "frac", "sign"))
def test_every_half_value(name: str) -> None:
    every = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    f = every.astype(np.float32)
    with np.errstate(invalid="ignore"):
        if name == "sign":
            ref = np.where(f < 0, -1.0, np.where(f > 0, 1.0, 0.0))
        else:
            ref = (f - ROUND_REF["trunc"](f)) if name == "frac" else ROUND_REF[name](f)
    out = np.concatenate([run_unary(name, every[i:i + 8192], F_ALL_TMP) for i in range(0, 65536, 8192)])
    bits_equal(out, ref.astype(np.float16), "float16")


def test_passes_over_a_small_temp_buffer_give_the_same_results() -> None:
    """A half Floor with a 512-byte buffer runs 128 elements a pass; 300 elements: three passes."""
    a = (rng_for("passes").standard_normal(300) * 50).astype(np.float16)
    bits_equal(run_unary("floor", a, tmp=512), ROUND_REF["floor"](a), "float16")
    bits_equal(run_unary("sign", a, tmp=768), np.sign(a), "float16")


# ---- Log, Exp -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n", LENGTHS)
def test_log(dtype: str, n: int) -> None:
    t = NP[dtype]
    a = np.abs(rng_for("log", dtype, n).standard_normal(n) * 30).astype(t)
    a[: min(n, 5)] = np.array([1.0, 0.0, np.inf, -1.0, np.nan], t)[: min(n, 5)]
    with np.errstate(divide="ignore", invalid="ignore"):
        ref = np.log(a.astype(np.float64)).astype(t)
    z = run_unary("log", a, F_COUNT)
    # the basic Ln: correctly rounded from double here
    bits_equal(z, ref, dtype)


@asc.jit
def exp_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, tmp_bytes: int,
               level: asc.ConstExpr[int], f: asc.ConstExpr[int], reuse: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 3 * SLOT)
    xl = buf.get_with_offset(npad, 0, x.dtype)
    zl = buf.get_with_offset(npad, SLOT, z.dtype)
    wl = buf.get_with_offset(tmp_bytes, 2 * SLOT, asc.uint8)
    asc.data_copy(xl, x_gm, npad)
    asc.data_copy(zl, z_gm, npad)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if f == 1:
        asc.adv.exp(zl, xl, n, level, temp_buffer=wl, is_reuse_source=reuse)
    else:
        asc.adv.exp(zl, xl, n, level, is_reuse_source=reuse)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, npad)
    asc.data_copy(x_gm, xl, npad)  # src too: is_reuse_source lets the devkit overwrite it


def exp_taylor_ref(a: np.ndarray, level: int) -> tuple:
    """The devkit's sequence in float32: floor via int32, d = x - floor(x), the basic Exp of floor(x), the
    Taylor sum term by term (times d, times float(1/i)), the product; and d (what src holds with reuse)."""
    f = a.astype(np.float32)
    with np.errstate(all="ignore"):
        i32 = np.clip(np.floor(f.astype(np.float64)), -2**31, 2**31 - 1)
        i32 = np.where(np.isnan(f), 0, i32).astype(np.int32)
        ip = i32.astype(np.float32)
        d = (f - ip).astype(np.float32)
        eip = np.exp(ip.astype(np.float64)).astype(np.float32)
        pw = d.copy()
        res = (d + np.float32(1)).astype(np.float32)
        for i in range(2, level + 1):
            pw = (d * pw).astype(np.float32)
            pw = (pw * np.float32(np.float32(1.0) / np.float32(i))).astype(np.float32)
            res = (res + pw).astype(np.float32)
        res = (res * eip).astype(np.float32)
    return res.astype(a.dtype), d


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("level", (0, 1, 3, 10))
@pytest.mark.parametrize("n", (1, 37, 300))
@pytest.mark.parametrize("form", (0, 1))
def test_exp(dtype: str, level: int, n: int, form: int) -> None:
    t = NP[dtype]
    a = (rng_for("exp", dtype, n, level).standard_normal(n) * 3).astype(t)
    a[: min(n, 6)] = np.array([0.0, -0.0, np.inf, -30.0, np.nan, 1.0], t)[: min(n, 6)]
    npad = padded(n, a.itemsize)
    x = padded_copy(a, npad)
    z = fill_sentinel(npad, a.dtype)
    exp_kernel[1](x, z, n, npad, 4096, level, form, False)
    if level == 0:  # the basic Exp
        with np.errstate(over="ignore"):
            bits_equal(z[:n], np.exp(a.astype(np.float64)).astype(t), dtype)
    else:
        ref, _ = exp_taylor_ref(a, level)
        bits_equal(z[:n], ref, dtype)
    assert (x[:n].view(np.uint8) == a.view(np.uint8)).all()  # src untouched without reuse
    if level == 10:  # and close to e^x
        fin = np.isfinite(a) & (np.abs(a) < 8)
        with np.errstate(over="ignore"):
            np.testing.assert_allclose(z[:n][fin].astype(np.float64), np.exp(a[fin].astype(np.float64)),
                                       rtol=2e-3 if dtype == "float16" else 2e-6)


def test_exp_reuse_source_keeps_the_fractions_in_float_src() -> None:
    a = np.array([1.25, -0.5, 2.0, 3.75] * 8, np.float32)
    x, z = a.copy(), np.zeros(32, np.float32)
    exp_kernel[1](x, z, 32, 32, 4096, 5, 1, True)
    ref, d = exp_taylor_ref(a, 5)
    bits_equal(z, ref, "float32")
    bits_equal(x, d, "float32")  # src holds x - floor(x)
    h = a.astype(np.float16)
    xh, zh = h.copy(), np.zeros(32, np.float16)
    exp_kernel[1](xh, zh, 32, 32, 4096, 5, 1, True)
    assert (xh == h).all()  # half computes in the temporary buffer


# ---- Axpy, Xor --------------------------------------------------------------------------------------------

@asc.jit
def axpy_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, tmp_bytes: int,
                a: float, f: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 3 * SLOT)
    xl = buf.get_with_offset(npad, 0, x.dtype)
    zl = buf.get_with_offset(npad, SLOT, z.dtype)
    wl = buf.get_with_offset(tmp_bytes, 2 * SLOT, asc.uint8)
    asc.data_copy(xl, x_gm, npad)
    asc.data_copy(zl, z_gm, npad)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if f == 0:
        asc.adv.axpy(zl, xl, a, n, temp_buffer=wl)
    else:
        asc.adv.axpy(zl, xl, a, temp_buffer=wl)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, npad)


@pytest.mark.parametrize("types", (("float16", "float16"), ("float32", "float16"), ("float32", "float32")))
@pytest.mark.parametrize("n", LENGTHS)
def test_axpy(types: tuple, n: int) -> None:
    dst_t, src_t = NP[types[0]], NP[types[1]]
    rng = rng_for("axpy", types, n)
    s = (rng.standard_normal(n) * 4).astype(src_t)
    d = (rng.standard_normal(n) * 4).astype(dst_t)
    if n >= 4:
        s[:4] = [np.inf, -0.0, 1.0, np.nan]
        d[:4] = [1.0, -0.0, -np.inf, 2.0]
    alpha = 0.3
    npad = max(padded(n, s.itemsize), padded(n, d.itemsize))
    x, z = padded_copy(s, npad), padded_copy(d, npad)
    axpy_kernel[1](x, z, n, npad, 4096, alpha, 0)
    a = np.float32(src_t(alpha))  # the scalar has src's type
    with np.errstate(invalid="ignore"):
        if types == ("float32", "float32"):  # the basic Axpy: one rounding of a * x + y
            ref = (s.astype(np.float64) * np.float64(a) + d.astype(np.float64)).astype(np.float32)
        else:  # Muls then Add in float, one rounding each; half: the final Cast
            ref = ((s.astype(np.float32) * a).astype(np.float32) + d.astype(np.float32)).astype(dst_t)
    bits_equal(z[:n], ref, types[0])
    assert (z[n:].view(np.uint8) == padded_copy(d, npad)[n:].view(np.uint8)).all()  # nothing past count


def test_axpy_without_count_takes_src_size() -> None:
    s = np.arange(64, dtype=np.float16)
    d = np.ones(64, np.float16)
    axpy_kernel[1](s.copy(), d, 64, 64, 2048, 2.0, 1)
    assert (d == (np.arange(64) * 2 + 1).astype(np.float16)).all()


def binary_kernel(op: Callable[..., None]) -> Any:
    @asc.jit
    def adv_binary(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int,
                   tmp_bytes: int, f: asc.ConstExpr[int]):
        x_gm = asc.GlobalTensor()
        y_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        y_gm.set_global_buffer(y)
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 4 * SLOT)
        xl = buf.get_with_offset(npad, 0, x.dtype)
        yl = buf.get_with_offset(npad, SLOT, y.dtype)
        zl = buf.get_with_offset(npad, 2 * SLOT, z.dtype)
        wl = buf.get_with_offset(tmp_bytes, 3 * SLOT, asc.uint8)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(yl, y_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        if f == 0:
            op(zl, xl, yl, n)
        elif f == 1:
            op(zl, xl, yl, n, temp_buffer=wl)
        else:
            op(zl, xl, yl)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return adv_binary


xor_kernel = binary_kernel(asc.adv.xor)
power_kernel = binary_kernel(asc.adv.power)


@pytest.mark.parametrize("dtype", ("int16", "uint16"))
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("form", (0, 1, 2))
def test_xor(dtype: str, n: int, form: int) -> None:
    t = NP[dtype]
    rng = rng_for("xor", dtype, n)
    npad = padded(n, 2) if form != 2 else padded(n, 2)
    a = rng.integers(np.iinfo(t).min, np.iinfo(t).max, npad, dtype=t)
    b = rng.integers(np.iinfo(t).min, np.iinfo(t).max, npad, dtype=t)
    z = np.full(npad, 0x5A5A, np.uint16).view(t)
    m = n if form != 2 else npad
    xor_kernel[1](a, b, z, m, npad, 512, form)
    assert (z[:m] == np.bitwise_xor(a[:m], b[:m])).all()
    assert (z[m:].view(np.uint16) == 0x5A5A).all()


def power_ref(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The devkit's float sequence: Exp(y * Ln|x|) (the basic Ln / Exp: rounded once from double), the sign of
    an odd integer y for a negative x (its sign bit), 1 for y == 0, x == 1, x == -1 with |y| == inf, NaN for a
    negative finite-y non-integer."""
    f, g = x.astype(np.float32), y.astype(np.float32)
    with np.errstate(all="ignore"):
        t = np.log(np.abs(f).astype(np.float64)).astype(np.float32)
        t = (g * t).astype(np.float32)
        d = np.exp(t.astype(np.float64)).astype(np.float32)
        ay = np.abs(g)
        r = np.rint(ay)
        odd = (r - np.floor(r * np.float32(0.5)) * np.float32(2)) == 1
        int_y = np.abs(ay - np.rint(ay)) < np.float32(1e-8)
        neg = np.signbit(f)
        d = np.where(neg & int_y & odd, -d, d).astype(np.float32)
        one = (ay == 0) | (f == 1) | ((f == -1) & (ay == np.inf))
        d = np.where(one, np.float32(1), d)
        undefined = ~((ay == np.inf) | int_y | (f >= 0) | (f == -np.inf))
        d = np.where(undefined, np.float32(np.nan), d)
        return d.astype(x.dtype)


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("form", (0, 1, 2))
def test_power(dtype: str, n: int, form: int) -> None:
    t = NP[dtype]
    rng = rng_for("power", dtype, n)
    npad = padded(n, np.dtype(t).itemsize)
    a = (rng.standard_normal(npad) * 3).astype(t)
    b = rng.choice([-3.0, -2.0, -1.5, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 2.5], npad).astype(t)
    sp = [(-2.0, 3.0), (-2.0, 2.0), (-2.0, 0.5), (-0.0, 3.0), (-0.0, -3.0), (0.0, -1.0), (1.0, np.nan),
          (np.nan, 0.0), (-1.0, np.inf), (-np.inf, 3.0), (np.inf, -2.0), (2.0, np.inf), (0.5, -np.inf)]
    for i, (u, v) in enumerate(sp[:n]):
        a[i], b[i] = u, v
    z = fill_sentinel(npad, np.dtype(t))
    m = n if form != 2 else npad
    power_kernel[1](a, b, z, m, npad, 4096, form)
    bits_equal(z[:m], power_ref(a[:m], b[:m]), dtype)
    # and close to NumPy's power where both are finite
    with np.errstate(all="ignore"):
        ref = np.power(a[:m].astype(np.float64), b[:m].astype(np.float64))
    fin = np.isfinite(ref) & np.isfinite(z[:m]) & (np.abs(ref) < 1e4)
    np.testing.assert_allclose(z[:m][fin].astype(np.float64), ref[fin], rtol=4e-3 if dtype == "float16" else 1e-5,
                               atol=1e-6)


@pytest.mark.parametrize("n", (1, 37, 300))
def test_power_int32(n: int) -> None:
    rng = rng_for("ipow", n)
    npad = padded(n, 4)
    a = rng.integers(-6, 7, npad).astype(np.int32)
    b = rng.integers(-3, 12, npad).astype(np.int32)
    sp = [(0, 0), (0, 5), (0, -2), (2, -1), (1, -7), (-1, -3), (-1, 4), (3, 40), (-2, 31), (7, 1), (5, 0)]
    for i, (u, v) in enumerate(sp[:n]):
        a[i], b[i] = u, v
    z = np.full(npad, 0x5A5A5A5A, np.int32)
    power_kernel[1](a, b, z, n, npad, 4096, 1)
    ref = []
    for u, v in zip(a[:n].tolist(), b[:n].tolist()):
        r = pow(u, abs(v), 2**32) if v else 1  # int32 products wrap
        r = r - 2**32 if r >= 2**31 else r
        if v < 0 and r != 0:
            r = int(np.trunc(np.float32(1) / np.float32(r)))
        ref.append(r)
    assert z[:n].tolist() == ref
    assert (z[n:] == 0x5A5A5A5A).all()


def test_power_int32_exponent_int32_min_is_a_kernel_error() -> None:
    a = np.full(8, 2, np.int32)
    b = np.full(8, np.iinfo(np.int32).min, np.int32)
    fails_at(power_kernel, (a, b, np.zeros(8, np.int32), 8, 8, 4096, 1), "op(zl, xl, yl, n, temp_buffer=wl)",
             "INT32_MIN")


def test_power_int32_loops_cost_time() -> None:
    """The devkit loops while any element needs another squaring or multiplication: an exponent of 12 (8 + 4:
    three squarings, four multiplications) costs more vector time than one of 2."""
    def vector_busy(e: int) -> int:
        a = np.full(64, 3, np.int32)
        with asc.profile() as prof:
            power_kernel[1](a, np.full(64, e, np.int32), np.zeros(64, np.int32), 64, 64, 4096, 1)
        return sum(b.busy["V"] for b in prof.last.blocks)

    assert vector_busy(12) > vector_busy(2)


def test_power_passes() -> None:
    """float with the minimum 1280 bytes: 64 elements a pass."""
    a = np.linspace(0.5, 4, 256).astype(np.float32)
    b = np.full(256, 1.5, np.float32)
    z = np.zeros(256, np.float32)
    power_kernel[1](a, b, z, 256, 256, 1280, 1)
    bits_equal(z, power_ref(a, b), "float32")


# ---- the transcendental APIs (numerics: adv_math_fn.c, family mathfn) --------------------------------------

def _digamma(x: float) -> float:
    r = 0.0
    while x < 6:
        r -= 1 / x
        x += 1
    f = 1 / (x * x)
    return r + math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))))


TRANS = {  # reference, domain
    "acos": (np.arccos, (-1, 1)), "acosh": (np.arccosh, (1, 8)), "asin": (np.arcsin, (-1, 1)),
    "asinh": (np.arcsinh, (-8, 8)), "atan": (np.arctan, (-8, 8)), "atanh": (np.arctanh, (-0.95, 0.95)),
    "cos": (np.cos, (-6, 6)), "cosh": (np.cosh, (-5, 5)), "sin": (np.sin, (-6, 6)), "sinh": (np.sinh, (-5, 5)),
    "tan": (np.tan, (-1.2, 1.2)), "tanh": (np.tanh, (-5, 5)),
    "erf": (np.vectorize(math.erf), (-3, 3)), "erfc": (np.vectorize(math.erfc), (-2, 3)),
    "digamma": (np.vectorize(_digamma), (0.2, 9)), "lgamma": (np.vectorize(math.lgamma), (0.2, 9)),
}


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("name", sorted(TRANS))
@pytest.mark.parametrize("form", (F_COUNT, F_COUNT_TMP))
def test_transcendental(name: str, dtype: str, form: int) -> None:
    ref_fn, (lo, hi) = TRANS[name]
    t = NP[dtype]
    n = 77
    a = rng_for(name, dtype).uniform(lo, hi, n).astype(t)
    z = run_unary(name, a, form, tmp=8192)
    ref = ref_fn(a.astype(np.float64))
    rtol, atol = (4e-3, 2e-3) if dtype == "float16" else (1e-4, 1e-5)
    np.testing.assert_allclose(z.astype(np.float64), ref, rtol=rtol, atol=atol, err_msg=f"asc.adv.{name}")


@pytest.mark.parametrize("name", ("atan", "erf", "lgamma"))
@pytest.mark.parametrize("form", (F_ALL, F_ALL_TMP))
def test_transcendental_without_count(name: str, form: int) -> None:
    _, (lo, hi) = TRANS[name]
    a = rng_for(name, "all").uniform(lo, hi, 128).astype(np.float16)
    bits_equal(run_unary(name, a, form, tmp=8192), run_unary(name, a, F_COUNT_TMP, tmp=8192), "float16")


# ---- the Ascend C -----------------------------------------------------------------------------------------

def test_ascendc_spellings() -> None:
    def src_of(name: str, a: np.ndarray, form: int) -> str:
        k = unary_kernel(getattr(asc.adv, name))  # a fresh cache: its one compilation
        run_unary(name, a, form, kernel=k)
        return ascendc(k)

    assert "AscendC::Floor<half, false>(zl, xl, wl, n)" in src_of("floor", np.zeros(16, np.float16), F_COUNT_TMP)
    assert "AscendC::Floor<float, false>(zl, xl, n)" in src_of("floor", np.zeros(16, np.float32), F_COUNT)
    assert "AscendC::Trunc<float, false>(zl, xl, " in src_of("trunc", np.ones(16, np.float32), F_ALL)
    # the devkit's Log has no temporary-buffer form
    assert "AscendC::Log<half, false>(zl, xl, n)" in src_of("log", np.ones(16, np.float16), F_COUNT_TMP)
    k = asc.jit(exp_kernel.fn)
    k[1](np.zeros(16, np.float16), np.zeros(16, np.float16), 16, 16, 4096, 3, 1, True)
    assert "AscendC::Exp<half, 3, true>(zl, xl, wl, n)" in ascendc(k)
    k = asc.jit(axpy_kernel.fn)
    k[1](np.zeros(16, np.float16), np.zeros(16, np.float32), 16, 16, 4096, 1.0, 0)
    assert "AscendC::Axpy<float, half, false>(zl, xl, static_cast<half>(a), wl, n)" in ascendc(k)
    k = asc.jit(xor_kernel.fn)
    k[1](*(np.zeros(16, np.int16) for _ in range(3)), 16, 16, 512, 1)
    assert "AscendC::Xor<int16_t, false>(zl, xl, yl, wl, n)" in ascendc(k)


# ---- errors -----------------------------------------------------------------------------------------------

def test_element_types_are_compile_errors() -> None:
    k = unary_kernel(asc.adv.sin)
    fails_at(k, (np.zeros(16, np.int16), np.zeros(16, np.int16), 16, 16, 256, F_COUNT), "# the count form",
             "asc.adv.sin does not support element type int16", "float16, float32", cls=asc.CompileError)
    fails_at(xor_kernel, (*(np.zeros(16, np.float16) for _ in range(3)), 16, 16, 512, 0), "op(zl, xl, yl, n)",
             "asc.adv.xor does not support element type float16", "int16, uint16", cls=asc.CompileError)


@pytest.mark.parametrize("name,dtype,need", (("floor", "float16", 512), ("sign", "float32", 768),
                                             ("frac", "float16", 1024), ("ceil", "float32", 256)))
def test_a_small_temp_buffer_is_a_kernel_error(name: str, dtype: str, need: int) -> None:
    a = np.zeros(64, NP[dtype])
    k = KERNELS[name]
    fails_at(k, (a, a.copy(), 64, 64, need - 32, F_COUNT_TMP), "# count and temp_buffer",
             f"temp_buffer holds {need - 32} bytes", f"needs at least {need}")
    run_unary(name, a, tmp=need)  # the minimum is enough


@pytest.mark.parametrize("name", ("floor", "sign", "log", "frac"))
def test_count_zero_writes_nothing(name: str) -> None:
    a = np.ones(16, np.float16)
    z = fill_sentinel(16, a.dtype)
    KERNELS[name][1](a, z, 0, 16, TMP, F_COUNT_TMP)
    assert (z.view(np.uint16) == fill_sentinel(16, a.dtype).view(np.uint16)).all()


def test_floor_on_float_needs_no_temp_buffer() -> None:
    a = np.array([1.5] * 8, np.float32)
    bits_equal(run_unary("floor", a, tmp=32), np.ones(8, np.float32), "float32")


@asc.jit
def misuse(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 4096)
    a = buf.get_with_offset(256, 0, asc.float16)
    b = buf.get_with_offset(256, 512, asc.float16)
    w = buf.get_with_offset(1024, 1024, asc.uint8)
    wf = buf.get_with_offset(256, 1024, asc.float16)
    if case == 0:
        asc.adv.floor(b, a, 257, temp_buffer=w)  # case 0
    elif case == 1:
        asc.adv.floor(b, a, 16, temp_buffer=wf)  # case 1
    elif case == 2:
        asc.adv.floor(a[16:], a, 32, temp_buffer=w)  # case 2
    elif case == 3:
        asc.adv.floor(b, a, 16, temp_buffer=b.reinterpret_cast(asc.uint8))  # case 3
    elif case == 4:
        asc.adv.exp(b, a, 16, 256, temp_buffer=w)  # case 4
    elif case == 5:
        asc.adv.exp(b, a, 16, 2, temp_buffer=w, is_reuse_source=1)  # case 5
    elif case == 6:
        asc.adv.axpy(b, a, 2.0, 16)  # case 6
    elif case == 7:
        asc.adv.power(b.reinterpret_cast(asc.int16), a.reinterpret_cast(asc.int16), a.reinterpret_cast(asc.int16), 8)  # case 7
    elif case == 8:
        asc.adv.floor(b, a, -1)  # case 8


@pytest.mark.parametrize("case,cls,fragments", (
    (0, asc.KernelError, ("257",)),
    (1, asc.CompileError, ("temp_buffer must be a uint8",)),
    (2, asc.KernelError, ("overlaps a source",)),
    (3, asc.KernelError, ("temp_buffer", "overlaps")),
    (4, asc.CompileError, ("taylor_expand_level = 256 is out of range",)),
    (5, asc.CompileError, ("is_reuse_source must be a Python bool",)),
    (6, asc.CompileError, ("pass temp_buffer",)),
    (7, asc.CompileError, ("asc.adv.power does not support element type int16", "float16, float32, int32")),
    (8, asc.CompileError, ("count = -1 is negative",)),
))
def test_misuse(case: int, cls: Any, fragments: tuple) -> None:
    fails_at(misuse, (np.zeros(16, np.float16), case), f"# case {case}", *fragments, cls=cls)


# The stack buffer runs from the TPipe's last buffer to the UB's end less the 128-byte Matmul message
# (kernel_pop_stack_buffer.h): a kernel whose TPipe gives nearly all the UB leaves it short. (This AIV kernel, which
# uses no API of 静态Tensor编程.md's table 5, may use the whole UB with or without the option it keeps from when the
# option was what gave a kernel the UB's last 8 KiB; test_hw_rules.py.)
@asc.jit(bisheng_options=("--cce-disable-asc-reserved-ubuf",))
def full_ub(x: asc.GlobalAddress, z: asc.GlobalAddress, left: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 196352 - left)
    a = buf.get_with_offset(64, 0, asc.float16)
    b = buf.get_with_offset(64, 128, asc.float16)
    asc.data_copy(a, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.floor(b, a, 64)  # the framework's temporary
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    asc.data_copy(z_gm, b, 64)


def test_without_temp_buffer_the_framework_needs_ub_left() -> None:
    x = np.full(64, 2.5, np.float16)
    z = np.zeros(64, np.float16)
    full_ub[1](x, z, 384)  # 512 bytes of stack
    assert (z == 2).all()
    fails_at(full_ub, (x, z, 128), "# the framework's temporary", "only 256 are left", "pass a temp_buffer")


# ---- what the observers see ---------------------------------------------------------------------------------

def test_the_profile_shows_the_passes() -> None:
    from asc.profiler.data import KINDS
    a = (rng_for("prof").standard_normal(1024)).astype(np.float16)

    def ops(tmp: int) -> int:
        with asc.profile() as prof:
            run_unary("floor", a, tmp=tmp)
        lp = prof.last
        return sum(1 for blk in lp.blocks for r in blk.records if KINDS[r["kind"]] == "op")

    # 1024 halves: one pass of three Casts with 4096 bytes, eight passes with 512
    assert ops(512) - ops(4096) == 7 * 3


def test_half_steps_computed_in_float_cost_float_work() -> None:
    """The devkit computes half Tanh / Sin in float after a Cast: the timing model's vector time for 1024 halves
    is then about that of 1024 floats (not half of it, as if every step ran on half elements)."""
    def vector_busy(dtype: type) -> int:
        a = np.linspace(-2, 2, 1024).astype(dtype)
        with asc.profile() as prof:
            run_unary("tanh", a)
        return sum(b.busy["V"] for b in prof.last.blocks)

    assert vector_busy(np.float16) >= 0.8 * vector_busy(np.float32)


@asc.jit(sanitize="error")
def racy(x: asc.GlobalAddress, z: asc.GlobalAddress, synced: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 3 * SLOT)
    a = buf.get_with_offset(128, 0, asc.float16)
    b = buf.get_with_offset(128, SLOT, asc.float16)
    w = buf.get_with_offset(1024, 2 * SLOT, asc.uint8)
    wh = buf.get_with_offset(128, 2 * SLOT, asc.float16)
    asc.data_copy(a, x_gm, 128)
    asc.data_copy(wh, x_gm, 128)  # MTE2 writes the temporary buffer
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if synced:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.floor(b, a, 128, temp_buffer=w)  # <- the Floor
    if not synced:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 128)


def test_the_sanitizer_sees_the_steps() -> None:
    x = np.full(128, 1.5, np.float16)
    z = np.zeros(128, np.float16)
    racy[1](x, z, True)
    assert (z == 1).all()
    with pytest.raises(asc.SanitizerError) as info:
        racy[1](x, z, False)
    assert "Floor (Cast to float)" in str(info.value) or "race" in str(info.value), str(info.value)


@asc.jit(sanitize="error")
def above_the_pipe(x: asc.GlobalAddress, z: asc.GlobalAddress, with_tmp: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    old = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(old, 4 * SLOT)
    by_hand = old.get_with_offset(128, 3 * SLOT, asc.float16)
    pipe.reset()  # the TPipe takes its UB back: by_hand now lies above what it gives below
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 3 * SLOT)
    a = buf.get_with_offset(128, 0, asc.float16)
    b = buf.get_with_offset(128, SLOT, asc.float16)
    w = buf.get_with_offset(1024, 2 * SLOT, asc.uint8)
    asc.data_copy(a, x_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(by_hand, x_gm, 128)  # MTE2, not waited for
    if with_tmp:
        asc.adv.floor(b, a, 128, temp_buffer=w)
    else:
        asc.adv.floor(b, a, 128)  # the framework's temporary
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 128)


def test_the_framework_temporary_lies_above_the_tpipe() -> None:
    """Without temp_buffer the devkit's framework takes the UB the TPipe did not give out: a tensor there (one
    the TPipe gave before a reset; a static tensor would not mix with the TPipe, test_hw_rules.py) written by
    another pipe at the same time races with the Floor's temporary."""
    x = np.full(128, 2.5, np.float16)
    z = np.zeros(128, np.float16)
    above_the_pipe[1](x, z, True)
    assert (z == 2).all()
    with pytest.raises(asc.SanitizerError) as info:
        above_the_pipe[1](x, z, False)
    assert "Floor" in str(info.value), str(info.value)
