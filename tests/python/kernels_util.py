"""Shared helpers of the op tests: kernel factories, padding, NumPy references.

The kernels here place their operands at fixed Unified Buffer addresses
(one UB_SLOT per operand), copy whole 32-byte blocks in and out, and run
the op under test on the first `n` elements only. The destination is first
filled from the output array, so a test can check that an op touched
exactly `n` elements. `n` and the padded length are runtime arguments:
each kernel compiles once per element type, whatever the length.

bfloat16 needs no torch: the GM arrays hold the raw bits as uint16 and the
kernel looks at the same UB bytes through a bfloat16 LocalTensor.
"""

import functools
import inspect
import math
import os
from typing import Any, Callable, Dict, Iterable, Optional, Sequence, Tuple

import numpy as np
import pytest

import asc

UB_SLOT = 16384  # bytes of UB per operand
BLOCK = 32  # bytes per DataCopy block

# ---------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------

# asc dtype -> NumPy storage dtype (bfloat16 is stored as its uint16 bits)
STORAGE: Dict[str, Any] = {
    "float16": np.float16, "bfloat16": np.uint16, "float32": np.float32, "float64": np.float64,
    "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "bool": np.bool_,
}

FLOAT_NAMES = ("float16", "bfloat16", "float32")
# (mantissa bits, exponent bits) of the float formats
FORMATS: Dict[str, Tuple[int, int]] = {"float16": (10, 5), "bfloat16": (7, 8), "float32": (23, 8)}


def asc_dtype(name: str) -> asc.DataType:
    return getattr(asc, "bool_" if name == "bool" else name)


def storage(name: str) -> np.dtype:
    return np.dtype(STORAGE[name])


def padded(n: int, itemsize: int) -> int:
    """Elements in the smallest whole number of 32-byte blocks holding n elements (at least one block)."""
    per_block = BLOCK // itemsize
    return max(1, math.ceil(n / per_block)) * per_block


def fill_sentinel(n: int, dtype: np.dtype) -> np.ndarray:
    """n elements whose every byte is 0xA5 (never a result of the tests' inputs)."""
    return np.full(n * dtype.itemsize, 0xA5, np.uint8).view(dtype).copy()


def padded_copy(a: np.ndarray, npad: int, rng: Optional[np.random.Generator] = None) -> np.ndarray:
    """a followed by garbage bytes up to npad elements."""
    out = fill_sentinel(npad, a.dtype)
    if rng is not None and npad > len(a):
        junk = rng.integers(0, 256, (npad - len(a)) * a.dtype.itemsize, dtype=np.uint8)
        out.view(np.uint8)[len(a) * a.dtype.itemsize:] = junk
    out[:len(a)] = a
    return out


# ---------------------------------------------------------------------------
# comparisons
# ---------------------------------------------------------------------------

def _bits(a: np.ndarray) -> np.ndarray:
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def is_nan_bits(bits: np.ndarray, fmt: str) -> np.ndarray:
    """NaN mask of raw bits of a float format (float16/bfloat16/float32)."""
    mb, eb = FORMATS[fmt]
    b = bits.astype(np.uint64)
    exp_mask = ((1 << eb) - 1) << mb
    return ((b & exp_mask) == exp_mask) & ((b & ((1 << mb) - 1)) != 0)


def assert_bits_equal(actual: np.ndarray, expected: np.ndarray, fmt: Optional[str] = None,
                      context: Any = "") -> None:
    """Bit-exact equality; for a float format, any NaN equals any NaN (payloads are not specified).

    `fmt` names the float format of raw uint16 bits (bfloat16); float arrays find it themselves.
    """
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if fmt is None and actual.dtype.kind == "f":
        fmt = {2: "float16", 4: "float32"}.get(actual.dtype.itemsize)
    ab, eb = _bits(actual), _bits(expected)
    if fmt is not None:
        an, en = is_nan_bits(ab, fmt), is_nan_bits(eb, fmt)
        bad = (an != en) | (~an & (ab != eb))
    else:
        bad = ab != eb
    if bad.any():
        idx = np.flatnonzero(bad)[:10]
        rows = [f"  [{i}] got {actual[i]!r} (0x{int(ab[i]):x}) expected {expected[i]!r} (0x{int(eb[i]):x})"
                for i in idx]
        raise AssertionError(f"{context}: {bad.sum()} of {bad.size} elements differ\n" + "\n".join(rows))


def ordered(bits: np.ndarray, fmt: str) -> np.ndarray:
    """Float bits mapped to integers that count ulps (+0 and -0 both 0)."""
    mb, eb = FORMATS[fmt]
    width = 1 + mb + eb
    b = bits.astype(np.int64)
    mag = b & ((1 << (width - 1)) - 1)
    return np.where((b >> (width - 1)) & 1 == 1, -mag, mag)


def assert_close_ulp(actual: np.ndarray, expected: np.ndarray, max_ulp: int, min_exact: float,
                     context: Any = "") -> None:
    """Within max_ulp ulps (NaN only where expected NaN, infinities and zeros exact) and at least
    a fraction min_exact of the elements bit-exact."""
    fmt = {2: "float16", 4: "float32"}[actual.dtype.itemsize]
    ab, eb = _bits(actual), _bits(expected)
    an, en = is_nan_bits(ab, fmt), is_nan_bits(eb, fmt)
    assert (an == en).all(), f"{context}: NaN at {np.flatnonzero(an != en)[:10]}"
    special = ~np.isfinite(expected) | (expected == 0)
    assert_bits_equal(np.where(special & ~en, actual, 0).astype(actual.dtype),
                      np.where(special & ~en, expected, 0).astype(actual.dtype), context=f"{context} (specials)")
    ok = ~en
    dist = np.abs(ordered(ab[ok], fmt) - ordered(eb[ok], fmt))
    worst = int(dist.max()) if dist.size else 0
    assert worst <= max_ulp, (f"{context}: {worst} ulp at {actual[ok][dist.argmax()]!r} "
                              f"vs {expected[ok][dist.argmax()]!r}")
    if dist.size:
        exact = float((dist == 0).mean())
        assert exact >= min_exact, f"{context}: only {exact:.3%} bit-exact"


# ---------------------------------------------------------------------------
# bfloat16 in NumPy (bits in uint16)
# ---------------------------------------------------------------------------

def f32_to_bf16_rne(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even; NaN -> 0x7FC0 (quiet)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(np.asarray(x, np.float32)), np.uint16(0x7FC0), r).astype(np.uint16)


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


# ---------------------------------------------------------------------------
# rounding references (exact, in float64 / Python integers)
# ---------------------------------------------------------------------------

RM = asc.RoundMode


def round_integral(v: np.ndarray, mode: asc.RoundMode) -> np.ndarray:
    """v (float64) rounded to an integral value under mode; NaN/inf pass through."""
    if mode in (RM.CAST_RINT, RM.CAST_NONE):
        return np.rint(v)
    if mode == RM.CAST_FLOOR:
        return np.floor(v)
    if mode == RM.CAST_CEIL:
        return np.ceil(v)
    if mode == RM.CAST_TRUNC:
        return np.trunc(v)
    if mode == RM.CAST_ROUND:  # ties away from zero; -0.0 stays -0.0
        return np.where(np.signbit(v), np.ceil(v - 0.5), np.floor(v + 0.5))
    raise ValueError(mode)


def _round_magnitude(q: np.ndarray, neg: np.ndarray, mode: asc.RoundMode) -> np.ndarray:
    """Non-negative float64 q rounded to an integer, for values of sign neg."""
    if mode in (RM.CAST_RINT, RM.CAST_NONE):
        return np.rint(q)
    if mode == RM.CAST_FLOOR:
        return np.where(neg, np.ceil(q), np.floor(q))
    if mode == RM.CAST_CEIL:
        return np.where(neg, np.floor(q), np.ceil(q))
    if mode == RM.CAST_TRUNC:
        return np.floor(q)
    if mode == RM.CAST_ROUND:
        return np.floor(q + 0.5)
    if mode == RM.CAST_ODD:
        f = np.floor(q)
        return np.where((f != q) & (f % 2 == 0), f + 1, f)
    raise ValueError(mode)


def round_to_format(v: np.ndarray, fmt: str, mode: asc.RoundMode) -> np.ndarray:
    """float64 values (exact) rounded to a float format under mode, as float64.

    Overflow follows IEEE 754 for the rounding direction: to infinity for
    the nearest modes, else to the largest finite value of that sign.
    """
    mb, eb = FORMATS[fmt]
    bias = (1 << (eb - 1)) - 1
    max_finite = (2.0 - 2.0 ** -mb) * 2.0 ** bias
    v = np.asarray(v, np.float64)
    out = v.copy()
    sel = np.isfinite(v) & (v != 0)
    a = np.abs(v[sel])
    neg = v[sel] < 0
    _, e = np.frexp(a)  # a = m * 2**e, 0.5 <= m < 1
    qe = np.maximum(e - 1, 1 - bias) - mb  # weight of the last kept bit
    q = _round_magnitude(np.ldexp(a, -qe), neg, mode)
    r = np.ldexp(q, qe)
    over = r > max_finite
    to_inf = {RM.CAST_FLOOR: neg, RM.CAST_CEIL: ~neg, RM.CAST_TRUNC: np.zeros_like(neg),
              RM.CAST_ODD: np.zeros_like(neg)}.get(mode, np.ones_like(neg))
    r = np.where(over, np.where(to_inf, np.inf, max_finite), r)
    out[sel] = np.where(neg, -r, r)
    return out


def encode(v: np.ndarray, fmt: str) -> np.ndarray:
    """float64 values exactly representable in fmt -> an array of fmt's storage."""
    if fmt == "bfloat16":
        return (np.asarray(v, np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return np.asarray(v).astype(STORAGE[fmt])


def int_to_format(x: Iterable[int], fmt: str, mode: asc.RoundMode) -> np.ndarray:
    """Integers (any size, exact, as Python ints) rounded to a float format, as float64."""
    mb, _ = FORMATS[fmt]
    out = []
    for xi in x:
        xi = int(xi)
        neg, mag = xi < 0, abs(xi)
        sh = max(0, mag.bit_length() - (mb + 1))
        q, rest = mag >> sh, mag & ((1 << sh) - 1)
        half = 1 << (sh - 1) if sh else 0
        if rest:
            up = {RM.CAST_FLOOR: neg, RM.CAST_CEIL: not neg, RM.CAST_TRUNC: False,
                  RM.CAST_ROUND: rest >= half, RM.CAST_ODD: q % 2 == 0}.get(
                mode, rest > half or (rest == half and q % 2 == 1))
            q += int(up)
        out.append(float(-(q << sh) if neg else q << sh))
    return round_to_format(np.array(out, np.float64), fmt, mode)  # exact here; applies overflow


def saturate_int(v: np.ndarray, name: str) -> np.ndarray:
    """Integral float64 values (or inf) to an integer type: saturate, NaN -> 0."""
    info = np.iinfo(STORAGE[name])
    v = np.where(np.isnan(v), 0.0, v)
    hi = v >= float(info.max)  # float(int64 max) is 2**63: compare before converting
    lo = v <= float(info.min)
    mid = np.where(hi | lo, 0.0, v).astype(STORAGE[name])
    return np.where(hi, info.max, np.where(lo, info.min, mid)).astype(STORAGE[name])


# ---------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------

@functools.cache
def binary_kernel(op: Callable[..., None]) -> Any:
    """z[:n] = op(x[:n], y[:n]); z[n:npad] keeps what it held."""

    @asc.jit
    def binary_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int):
        x_gm = asc.GlobalTensor()
        y_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        y_gm.set_global_buffer(y)
        z_gm.set_global_buffer(z)
        cap = UB_SLOT // x.dtype.sizeof()
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
        yl = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, UB_SLOT, cap)
        zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 2 * UB_SLOT, cap)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(yl, y_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        op(zl, xl, yl, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return binary_kernel


@functools.cache
def scalar_kernel(op: Callable[..., None]) -> Any:
    """z[:n] = op(x[:n], s) with s a runtime scalar argument."""

    @asc.jit
    def scalar_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, s, n: int, npad: int):  # noqa: ANN001
        # `s` is unannotated on purpose: the launcher makes it a float32 or int32 argument from its value
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        cap = UB_SLOT // x.dtype.sizeof()
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
        zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        op(zl, xl, s, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return scalar_kernel


@functools.cache
def const_scalar_kernel(op: Callable[..., None]) -> Any:
    """z[:n] = op(x[:n], s) with s a compile-time constant (asc.ConstExpr)."""

    @asc.jit
    def const_scalar_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, s: asc.ConstExpr[float]):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        cap = UB_SLOT // x.dtype.sizeof()
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
        zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        op(zl, xl, s, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return const_scalar_kernel


@functools.cache
def unary_kernel(op: Callable[..., None]) -> Any:
    """z[:n] = op(x[:n])."""

    @asc.jit
    def unary_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        cap = UB_SLOT // x.dtype.sizeof()
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
        zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(zl, z_gm, npad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        op(zl, xl, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, npad)

    return unary_kernel


@asc.jit
def duplicate_kernel(z: asc.GlobalAddress, n: int, npad: int, view: asc.ConstExpr[asc.DataType],
                     s: asc.ConstExpr[float]):
    """z[:n] = s, with z's UB bytes seen as `view` (bfloat16 through uint16 storage)."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    raw = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 0, UB_SLOT // z.dtype.sizeof())
    zl = asc.LocalTensor(view, asc.TPosition.VECOUT, 0, UB_SLOT // view.sizeof())
    asc.data_copy(raw, z_gm, npad)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(zl, s, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, raw, npad)


@asc.jit
def duplicate_runtime_kernel(z: asc.GlobalAddress, s, n: int, npad: int):  # noqa: ANN001
    """z[:n] = s with s a runtime scalar argument."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 0, UB_SLOT // z.dtype.sizeof())
    asc.data_copy(zl, z_gm, npad)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(zl, s, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, npad)


@asc.jit
def cast_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad_x: int, npad_z: int,
                src_t: asc.ConstExpr[asc.DataType], dst_t: asc.ConstExpr[asc.DataType],
                mode: asc.ConstExpr[asc.RoundMode]):
    """z[:n] = cast(x[:n]); the UB bytes of x and z are seen as src_t and dst_t."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    x_raw = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT // x.dtype.sizeof())
    z_raw = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, UB_SLOT // z.dtype.sizeof())
    xl = asc.LocalTensor(src_t, asc.TPosition.VECIN, 0, UB_SLOT // src_t.sizeof())
    zl = asc.LocalTensor(dst_t, asc.TPosition.VECOUT, UB_SLOT, UB_SLOT // dst_t.sizeof())
    asc.data_copy(x_raw, x_gm, npad_x)
    asc.data_copy(z_raw, z_gm, npad_z)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.cast(zl, xl, mode, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, z_raw, npad_z)


# ---------------------------------------------------------------------------
# runners: pad, launch, check the untouched tail, return the first n results
# ---------------------------------------------------------------------------

_RNG = np.random.default_rng(1234)


def _finish(z: np.ndarray, n: int, context: Any) -> np.ndarray:
    tail = z[n:]
    assert_bits_equal(_bits(tail), _bits(fill_sentinel(len(tail), z.dtype)), context=f"{context}: tail after n")
    return z[:n]


def run_binary(op: Callable[..., None], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = len(a)
    npad = padded(n, a.dtype.itemsize)
    x, y = padded_copy(a, npad, _RNG), padded_copy(b, npad, _RNG)
    z = fill_sentinel(npad, a.dtype)
    binary_kernel(op)[1](x, y, z, n, npad)
    return _finish(z, n, op.__name__)


def run_scalar(op: Callable[..., None], a: np.ndarray, s: Any, const: bool = False) -> np.ndarray:
    n = len(a)
    npad = padded(n, a.dtype.itemsize)
    x = padded_copy(a, npad, _RNG)
    z = fill_sentinel(npad, a.dtype)
    if const:
        const_scalar_kernel(op)[1](x, z, n, npad, s)
    else:
        scalar_kernel(op)[1](x, z, s, n, npad)
    return _finish(z, n, op.__name__)


def run_unary(op: Callable[..., None], a: np.ndarray) -> np.ndarray:
    n = len(a)
    npad = padded(n, a.dtype.itemsize)
    x = padded_copy(a, npad, _RNG)
    z = fill_sentinel(npad, a.dtype)
    unary_kernel(op)[1](x, z, n, npad)
    return _finish(z, n, op.__name__)


def run_duplicate(name: str, n: int, s: Any) -> np.ndarray:
    st = storage(name)
    npad = padded(n, st.itemsize)
    z = fill_sentinel(npad, st)
    duplicate_kernel[1](z, n, npad, asc_dtype(name), s)
    return _finish(z, n, f"duplicate {name}")


def run_cast(src: str, dst: str, mode: asc.RoundMode, a: np.ndarray) -> np.ndarray:
    """a holds src values in src's storage dtype; returns dst values in dst's storage dtype."""
    n = len(a)
    xs, zs = storage(src), storage(dst)
    npad_x, npad_z = padded(n, xs.itemsize), padded(n, zs.itemsize)
    x = padded_copy(a.astype(xs, copy=False), npad_x, _RNG)
    z = fill_sentinel(npad_z, zs)
    cast_kernel[1](x, z, n, npad_x, npad_z, asc_dtype(src), asc_dtype(dst), mode)
    return _finish(z, n, f"cast {src}->{dst} {mode.name}")


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------

LENGTHS = (1, 7, 37, 130, 1000)

F16_SPECIALS = np.array([
    0.0, -0.0, 2.0 ** -24, -(2.0 ** -24), 2.0 ** -14 - 2.0 ** -24, 2.0 ** -14, 0.5, 1.0, -1.0, 1.5, 3.0, 8.0,
    16.0, 2048.0, 2050.0, 65504.0, -65504.0, 0.0999755859375, np.inf, -np.inf, np.nan,
], np.float16)

F32_SPECIALS = np.array([
    0.0, -0.0, 2.0 ** -149, -(2.0 ** -149), 2.0 ** -126 - 2.0 ** -149, 2.0 ** -126, 0.5, 1.0, -1.0, 1.5, 3.0,
    2.0 ** 24, 2.0 ** 24 + 2, 2.0 ** 103, 2.0 ** 104, float(np.finfo(np.float32).max),
    -float(np.finfo(np.float32).max), 0.1, np.inf, -np.inf, np.nan,
], np.float32)

INT_SPECIALS: Dict[str, Sequence[int]] = {
    "int16": (0, 1, -1, 2, -2, 255, 256, 32767, -32768, 181, -182, 12345),
    "int32": (0, 1, -1, 2, -2, 65535, 65536, 2 ** 31 - 1, -(2 ** 31), 46341, -46341, 123456789),
}


def specials(name: str) -> np.ndarray:
    if name == "float16":
        return F16_SPECIALS.copy()
    if name == "float32":
        return F32_SPECIALS.copy()
    return np.array(INT_SPECIALS[name], storage(name))


def all_pairs(v: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Every (a, b) with a, b in v, as two arrays."""
    return np.repeat(v, len(v)), np.tile(v, len(v))


def random_values(name: str, n: int, rng: np.random.Generator, scale: float = 100.0) -> np.ndarray:
    """n values of the storage dtype of `name`: floats of mixed magnitude and sign, integers over the full range."""
    st = storage(name)
    if name in FLOAT_NAMES:
        mag = scale * np.exp(rng.uniform(-6, 1, n))
        v = np.where(rng.random(n) < 0.5, -mag, mag)
        if name == "bfloat16":
            return f32_to_bf16_rne(v.astype(np.float32))
        return v.astype(st)
    info = np.iinfo(st)
    return rng.integers(int(info.min), int(info.max), n, dtype=st, endpoint=True)


def with_specials(name: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """n random values with the dtype's special values spread over them."""
    v = random_values(name, n, rng)
    sp = specials(name)
    k = min(n, len(sp))
    pos = rng.choice(n, k, replace=False)
    v[pos] = sp[:k]
    return v


def ref_float(fn: Callable[..., np.ndarray], dtype: np.dtype, *args: np.ndarray) -> np.ndarray:
    """fn on float64 copies of args, rounded once to dtype: the correctly rounded result of
    +, -, *, /, sqrt (float64 has more than 2p+2 bits for half and float)."""
    with np.errstate(all="ignore"):
        return fn(*(np.asarray(a).astype(np.float64) for a in args)).astype(dtype)


def line_of(kernel: Any, marker: str) -> int:
    """The line of kernel's source that ends with `marker` (once)."""
    lines, first = inspect.getsourcelines(kernel.fn)
    hits = [first + i for i, text in enumerate(lines) if text.rstrip().endswith(marker)]
    assert len(hits) == 1, f"{marker!r} found {len(hits)} times"
    return hits[0]


def fails_at(kernel: Any, args: Sequence[Any], marker: str, *fragments: str, cls: Any = asc.KernelError,
             core_num: int = 1) -> Any:
    """kernel[core_num](*args) raises cls at the line of the kernel's file holding marker, its message
    (with its hint) holding each fragment; a CompileError has a hint."""
    with pytest.raises(cls) as info:
        kernel[core_num](*args)
    err = info.value
    assert os.path.samefile(err.filename, inspect.getsourcefile(kernel.fn)), err
    assert err.line == line_of(kernel, marker), f"expected line {line_of(kernel, marker)}:\n{err}"
    text = str(err) + (getattr(err, "hint", None) or "")
    for f in fragments:
        assert f in text, f"{f!r} not in:\n{text}"
    if issubclass(cls, asc.CompileError):
        assert err.hint and err.hint.startswith("hint: "), err
    return err


def ascendc(kernel: Any) -> str:
    """The Ascend C of the kernel's most recent compilation."""
    return list(kernel.cache.values())[-1].ascendc(line_comments=False)


def add_deq_relu_level0_ref(a: np.ndarray, b: np.ndarray, z: np.ndarray, scale: float, rep: int, db: int, sb: int,
                            dr: int, sr: int, int_mask: Callable[[int], int], half_mask: Callable[[int], int],
                            out_mask: Sequence[bool]) -> None:
    """The devkit's level-0 AddDeqRelu sequence on copies of the UB tensors, in place (a, b int32; z float16):
    chunks of at most 32 repeats; in chunk c the int32 sums and their dequantisation take the lanes of
    int_mask(c), the float -> half conversion those of half_mask(c) (the low 64 halves), and the final max
    writes the halves out_mask (128 of them) enables."""
    if rep == 0:
        return  # a NOP
    per = rep if rep * 64 <= 2048 else 32
    calc = min(rep * 64, 2048)
    buf = np.zeros(2048 + 64, np.int32)
    af, bh = a.view(np.float32), b.view(np.float16)
    sc = np.float32(np.float16(scale))
    for c in range(0, (rep + per - 1) // per):
        n = min(per, rep - c * per)
        a0, b0 = c * per * sr * 8, c * per * sr * 16  # chunk bases: int32 of src0, halves of src1
        im, hm = int_mask(c), half_mask(c)
        for r in range(n):
            for e in range(64):
                if (im >> e) & 1:
                    ia = ((c * per + r) * sr + e // 8 * sb) * 8 + e % 8
                    buf[r * 64 + e] = (int(a[ia]) + int(b[ia]) + 2 ** 31) % 2 ** 32 - 2 ** 31  # int32 wraps
        for r in range(n):
            for e in range(64):
                if (im >> e) & 1:
                    g = np.float32(buf[r * 64 + e]) * np.float32(2.0 ** -17)
                    af[a0 + r * 64 + e] = g * sc * np.float32(2.0 ** 17)
        for r in range(n):
            for e in range(64):
                if (hm >> e) & 1:
                    with np.errstate(over="ignore"):
                        bh[b0 + r * 64 + e] = np.float16(af[a0 + r * 64 + e])
        bufh = buf.view(np.float16)
        bufh[:calc] = 0
        for r in range(n):
            out = {}
            for e in range(128):
                if out_mask[e]:
                    t, v = bufh[r * 64 + e], bh[b0 + r * 64 + e]
                    out[e] = t if (t >= v or t != t) else v
            for e, v in out.items():
                z[(((c * per + r) * dr + e // 16 * db) * 32 + e % 16 * 2) // 2] = v
