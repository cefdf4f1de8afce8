"""Vector instructions (count forms) on the simulator against NumPy references.

Every op runs in every element type the Ascend910B vector unit supports for
it (the tables in src/sim/vecmath.c, from the Ascend C API docs), on lengths
that are not multiples of the vector width, and on all pairs of edge values.
The element types it does not support must fail to compile.

Comparison: bit-exact (any NaN equals any NaN) for the correctly rounded
ops (add sub mul div max min adds muls maxs mins relu abs sqrt reciprocal
duplicate). exp, ln and rsqrt are computed in double and rounded to float
(and then to half), which is not guaranteed to be correctly rounded: for
those the tolerance is 1 ulp of the element type, with infinities, zeros
and NaN exact and at least 99% of the elements bit-exact.

max/min: IEEE 754-2019's maximum / minimum, as the devkit's boundary value
tables 13, 14, 17 and 18 give them: NaN propagates, and -0 is below +0, so
max of zeros of opposite signs is +0 and min -0, in either order.
"""

import zlib
from typing import Any, Callable, Dict, Tuple

import numpy as np
import pytest
from kernels_util import (
    LENGTHS,
    all_pairs,
    asc_dtype,
    assert_bits_equal,
    assert_close_ulp,
    duplicate_runtime_kernel,
    f32_to_bf16_rne,
    fill_sentinel,
    padded,
    ref_float,
    run_binary,
    run_duplicate,
    run_scalar,
    run_unary,
    specials,
    storage,
    with_specials,
)

import asc

ARITH = ("float16", "float32", "int16", "int32")
FLT = ("float16", "float32")
ALL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
              "uint32", "uint64", "bool")

BINARY: Dict[str, Tuple[Callable[..., None], Tuple[str, ...]]] = {
    "add": (asc.add, ARITH), "sub": (asc.sub, ARITH), "mul": (asc.mul, ARITH), "div": (asc.div, FLT),
    "max": (asc.max, ARITH), "min": (asc.min, ARITH),
}
SCALAR: Dict[str, Tuple[Callable[..., None], Tuple[str, ...]]] = {
    "adds": (asc.adds, ARITH), "muls": (asc.muls, ARITH), "maxs": (asc.maxs, ARITH), "mins": (asc.mins, ARITH),
}
UNARY: Dict[str, Tuple[Callable[..., None], Tuple[str, ...]]] = {
    "relu": (asc.relu, FLT + ("int32",)), "exp": (asc.exp, FLT), "ln": (asc.ln, FLT), "abs": (asc.abs, FLT),
    "sqrt": (asc.sqrt, FLT), "rsqrt": (asc.rsqrt, FLT), "reciprocal": (asc.reciprocal, FLT),
}
DUPLICATE_TYPES = ("int16", "uint16", "float16", "bfloat16", "int32", "uint32", "float32")

def rng_for(*key: Any) -> np.random.Generator:
    """A generator seeded by the test's parameters (stable across runs, independent of test order)."""
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


# ---------------------------------------------------------------------------
# references
# ---------------------------------------------------------------------------

def _zeros(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a == 0) & (b == 0)


def _fmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The hardware's Max: IEEE 754-2019's maximum, NaN in NaN out, -0 below +0 (the devkit's boundary value
    tables 13 and 17: Max(0.0, -0.0) = 0.0)."""
    pos_zero_a = _zeros(a, b) & ~np.signbit(a)
    return np.where((a > b) | np.isnan(a) | pos_zero_a | ((a == b) & ~_zeros(a, b)), a, b)


def _fmin(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The hardware's Min: IEEE 754-2019's minimum, -0 below +0 (tables 14 and 18: Min(0.0, -0.0) = -0.0)."""
    neg_zero_a = _zeros(a, b) & np.signbit(a)
    return np.where((a < b) | np.isnan(a) | neg_zero_a | ((a == b) & ~_zeros(a, b)), a, b)


def ref_binary(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": _fmax,
              "min": _fmin}[name]
        return ref_float(fn, a.dtype, a, b)
    fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[name]
    with np.errstate(all="ignore"):
        return fn(a, b).astype(a.dtype)  # integer add/sub/mul wrap


def check_binary(name: str, a: np.ndarray, b: np.ndarray) -> None:
    op = BINARY[name][0]
    got = run_binary(op, a, b)
    want = ref_binary(name, a, b)
    assert_bits_equal(got, want, context=f"{name} {a.dtype} n={len(a)}")


# ---------------------------------------------------------------------------
# tensor-tensor
# ---------------------------------------------------------------------------

BINARY_CASES = [(name, dt) for name, (_, dts) in BINARY.items() for dt in dts]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name,dtype", BINARY_CASES)
def test_binary_random(name: str, dtype: str, n: int) -> None:
    rng = rng_for(name, dtype, n)
    a = with_specials(dtype, n, rng)
    b = with_specials(dtype, n, rng)
    check_binary(name, a, b)


@pytest.mark.parametrize("name,dtype", BINARY_CASES)
def test_binary_random_bits(name: str, dtype: str) -> None:
    """Random bit patterns: every exponent and sign, subnormals, NaN payloads, integer extremes."""
    st = storage(dtype)
    rng = rng_for(name, dtype, "bits")
    a, b = (rng.integers(0, 256, 4096 * st.itemsize, dtype=np.uint8).view(st) for _ in range(2))
    check_binary(name, a, b)


@pytest.mark.parametrize("name,dtype", BINARY_CASES)
def test_binary_edge_pairs(name: str, dtype: str) -> None:
    a, b = all_pairs(specials(dtype))
    check_binary(name, a, b)


def _f16(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint16).view(np.float16)


# (op, a, b, expected) in half bits, written out so they do not depend on NumPy's rounding
F16_ROUNDING = [
    ("add", 0x6800, 0x3C00, 0x6800),  # 2048 + 1 = 2049: tie, to even 2048
    ("add", 0x6801, 0x3C00, 0x6802),  # 2050 + 1 = 2051: tie, to even 2052
    ("add", 0x7BFF, 0x4C00, 0x7C00),  # 65504 + 16 = 65520: tie, to even = inf
    ("add", 0x7BFF, 0x4800, 0x7BFF),  # 65504 + 8 rounds back to 65504
    ("add", 0x0001, 0x0001, 0x0002),  # subnormal + subnormal
    ("add", 0x3C00, 0xBC00, 0x0000),  # 1 + -1 = +0
    ("add", 0x8000, 0x8000, 0x8000),  # -0 + -0 = -0
    ("sub", 0x0000, 0x0000, 0x0000),  # 0 - 0 = +0
    ("sub", 0x8000, 0x0000, 0x8000),  # -0 - 0 = -0
    ("sub", 0x0400, 0x0001, 0x03FF),  # min normal - min subnormal = max subnormal
    ("mul", 0x0001, 0x3800, 0x0000),  # 2^-24 * 0.5: tie between 0 and 2^-24, to even 0
    ("mul", 0x0001, 0x3E00, 0x0002),  # 2^-24 * 1.5: tie, to even 2^-23
    ("mul", 0x0003, 0x3800, 0x0002),  # 3 * 2^-25: tie, to even 2 * 2^-24
    ("mul", 0x7BFF, 0x4000, 0x7C00),  # overflow
    ("mul", 0x8000, 0x3C00, 0x8000),  # -0 * 1 = -0
    ("div", 0x3C00, 0x4200, 0x3555),  # 1 / 3
    ("div", 0x3C00, 0x0000, 0x7C00),  # 1 / +0 = inf
    ("div", 0x3C00, 0x8000, 0xFC00),  # 1 / -0 = -inf
    ("div", 0x0001, 0x4000, 0x0000),  # 2^-24 / 2: tie, to even 0
    ("max", 0x7E00, 0x3C00, 0x7E00),  # NaN propagates
    ("max", 0x3C00, 0x7E00, 0x7E00),
    ("min", 0xFC00, 0x7BFF, 0xFC00),  # -inf
]


@pytest.mark.parametrize("name,a,b,want", F16_ROUNDING)
def test_binary_f16_rounding(name: str, a: int, b: int, want: int) -> None:
    got = run_binary(BINARY[name][0], _f16(a), _f16(b))
    assert_bits_equal(got, _f16(want), context=f"{name}(0x{a:04x}, 0x{b:04x})")


def test_binary_f32_rounding() -> None:
    one, big = np.float32(1.0), np.float32(2.0 ** 24)
    a = np.array([big, big + 2, np.finfo(np.float32).max, 2.0 ** -149], np.float32)
    b = np.array([one, one, 2.0 ** 103, 0.5], np.float32)
    got = run_binary(asc.add, a, b)
    # 2^24 + 1 ties to 2^24; 2^24 + 3 ties to 2^24 + 4; FLT_MAX + half an ulp ties to inf; 2^-149 vanishes
    want = np.array([big, big + 4, np.inf, 0.5], np.float32)
    assert_bits_equal(got, want, context="add f32 ties")
    got = run_binary(asc.mul, a[3:], b[3:])
    assert_bits_equal(got, np.zeros(1, np.float32), context="2^-149 * 0.5 ties to 0")


def test_int_wraparound() -> None:
    a = np.array([32767, -32768, 300, -2], np.int16)
    b = np.array([1, -1, 300, 32767], np.int16)
    assert_bits_equal(run_binary(asc.add, a, b), np.array([-32768, 32767, 600, 32765], np.int16), context="add")
    assert_bits_equal(run_binary(asc.mul, a, b), np.array([32767, -32768, 24464, 2], np.int16), context="mul")
    a32 = np.array([2 ** 31 - 1, -(2 ** 31)], np.int32)
    b32 = np.array([1, 1], np.int32)
    assert_bits_equal(run_binary(asc.add, a32, b32), np.array([-(2 ** 31), -(2 ** 31) + 1], np.int32), context="")
    assert_bits_equal(run_binary(asc.sub, a32, b32), np.array([2 ** 31 - 2, 2 ** 31 - 1], np.int32), context="")


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_count_zero_writes_nothing(name: str) -> None:
    got = run_binary(BINARY[name][0], np.zeros(0, np.float32), np.zeros(0, np.float32))
    assert got.size == 0  # run_binary checked that the whole destination block kept its bytes


# ---------------------------------------------------------------------------
# tensor-scalar
# ---------------------------------------------------------------------------

SCALAR_CASES = [(name, dt) for name, (_, dts) in SCALAR.items() for dt in dts]
FLOAT_SCALARS = (1.5, -3.0, 0.0, -0.0, 65504.0, float("inf"), float("nan"), 2.0 ** -24, 0.1)
INT_SCALARS = (0, 1, -1, 7, 32767, -32768, 100000)


def scalar_as(dtype: np.dtype, s: Any) -> Any:
    """The scalar as the instruction sees it: a kernel float argument is float32, then the element type;
    a kernel int argument is int32, then the element type (two's complement truncation)."""
    if dtype.kind == "f":
        with np.errstate(all="ignore"):
            return np.float32(s).astype(dtype)
    return np.array(s, np.int64).astype(dtype)


def ref_scalar(name: str, a: np.ndarray, s: Any) -> np.ndarray:
    b = np.full(a.shape, scalar_as(a.dtype, s), a.dtype)
    return ref_binary(name[:-1], a, b)


def check_scalar(name: str, a: np.ndarray, s: Any, const: bool = False) -> None:
    got = run_scalar(SCALAR[name][0], a, s, const)
    want = ref_scalar(name, a, s)
    assert_bits_equal(got, want, context=f"{name} {a.dtype} scalar={s!r} n={len(a)}")


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name,dtype", SCALAR_CASES)
def test_scalar_random(name: str, dtype: str, n: int) -> None:
    rng = rng_for(name, dtype, n)
    a = with_specials(dtype, n, rng)
    for s in (FLOAT_SCALARS if dtype in FLT else INT_SCALARS)[:3]:
        check_scalar(name, a, s)


@pytest.mark.parametrize("name,dtype", SCALAR_CASES)
def test_scalar_edge_values(name: str, dtype: str) -> None:
    a = specials(dtype)
    for s in FLOAT_SCALARS if dtype in FLT else INT_SCALARS:
        check_scalar(name, a, s)


@pytest.mark.parametrize("dtype", ARITH)
@pytest.mark.parametrize("name", list(SCALAR))
def test_scalar_compile_time_constant(name: str, dtype: str) -> None:
    """A Python number in the kernel is a constant of the element type (via float32 for floats)."""
    a = with_specials(dtype, 37, rng_for(name, dtype, "const"))
    for s in ((0.1, -2.5, 1.0 + 2.0 ** -11 + 2.0 ** -40) if dtype in FLT else (3, -32768)):
        check_scalar(name, a, s, const=True)


def test_int_scalar_wraps_to_element_type() -> None:
    a = np.array([1, 2, 3], np.int16)
    got = run_scalar(asc.adds, a, 65537)  # int32 argument 65537 is int16 1
    assert_bits_equal(got, np.array([2, 3, 4], np.int16), context="adds int16 65537")


# ---------------------------------------------------------------------------
# unary
# ---------------------------------------------------------------------------

UNARY_CASES = [(name, dt) for name, (_, dts) in UNARY.items() for dt in dts]
EXACT_UNARY = ("relu", "abs", "sqrt", "reciprocal")


def ref_unary(name: str, a: np.ndarray) -> np.ndarray:
    if a.dtype.kind != "f":
        assert name == "relu"
        return np.maximum(a, 0).astype(a.dtype)
    if name == "relu":  # -0 -> +0, NaN passes
        return np.where(np.isnan(a) | (a > 0), a, np.zeros_like(a)).astype(a.dtype)
    if name == "abs":
        return np.abs(a)
    fn = {"exp": np.exp, "ln": np.log, "sqrt": np.sqrt, "rsqrt": lambda x: 1.0 / np.sqrt(x),
          "reciprocal": lambda x: 1.0 / x}[name]
    return ref_float(fn, a.dtype, a)


def unary_inputs(name: str, dtype: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random inputs in the op's interesting range, with the edge values spread over them."""
    st = storage(dtype)
    if name == "exp":  # covers overflow to inf and underflow through the subnormals to 0
        lo, hi = (-18.0, 12.0) if dtype == "float16" else (-105.0, 90.0)
        v = rng.uniform(lo, hi, n).astype(st)
    elif name in ("ln", "sqrt", "rsqrt"):  # positive over the whole exponent range
        tiny, big = (2.0 ** -24, 65504.0) if dtype == "float16" else (2.0 ** -149, 3.0e38)
        v = np.exp(rng.uniform(np.log(tiny), np.log(big), n)).astype(st)
    else:
        v = with_specials(dtype, n, rng)
    if dtype in FLT:
        sp = specials(dtype)
        k = min(n, len(sp))
        v[rng.choice(n, k, replace=False)] = sp[:k]
    return v


def check_unary(name: str, a: np.ndarray) -> None:
    got = run_unary(UNARY[name][0], a)
    want = ref_unary(name, a)
    ctx = f"{name} {a.dtype} n={len(a)}"
    if name in EXACT_UNARY or a.dtype.kind != "f":
        assert_bits_equal(got, want, context=ctx)
    else:
        assert_close_ulp(got, want, max_ulp=1, min_exact=0.99, context=ctx)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name,dtype", UNARY_CASES)
def test_unary_random(name: str, dtype: str, n: int) -> None:
    check_unary(name, unary_inputs(name, dtype, n, rng_for(name, dtype, n)))


@pytest.mark.parametrize("name,dtype", UNARY_CASES)
def test_unary_edge_values(name: str, dtype: str) -> None:
    a = specials(dtype)
    check_unary(name, np.concatenate([a, -a]))


@pytest.mark.parametrize("name", [n for n, (_, dts) in UNARY.items() if "float16" in dts])
def test_unary_f16_exhaustive(name: str) -> None:
    """Every one of the 65536 half bit patterns (exp and ln are off by one ulp on 2 and 1 of them: they
    round the double result to float and then to half)."""
    a = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    for i in range(0, len(a), 8192):
        check_unary(name, a[i:i + 8192])


@pytest.mark.parametrize("name,dtype", [c for c in UNARY_CASES if c[1] == "float32"])
def test_unary_f32_random_bits(name: str, dtype: str) -> None:
    """Random float32 bit patterns: every exponent, subnormals, NaN payloads."""
    rng = rng_for(name, "bits")
    a = rng.integers(0, 1 << 32, 4096, dtype=np.uint64).astype(np.uint32).view(np.float32)
    check_unary(name, a)


UNARY_EXACT_VALUES = [
    ("exp", 0.0, 1.0), ("exp", -0.0, 1.0), ("exp", -np.inf, 0.0), ("exp", np.inf, np.inf),
    ("ln", 1.0, 0.0), ("ln", 0.0, -np.inf), ("ln", -0.0, -np.inf), ("ln", np.inf, np.inf), ("ln", -1.0, np.nan),
    ("sqrt", -0.0, -0.0), ("sqrt", 4.0, 2.0), ("sqrt", -1.0, np.nan), ("sqrt", np.inf, np.inf),
    ("rsqrt", 4.0, 0.5), ("rsqrt", 0.0, np.inf), ("rsqrt", -0.0, -np.inf), ("rsqrt", np.inf, 0.0),
    ("reciprocal", -0.0, -np.inf), ("reciprocal", 4.0, 0.25), ("reciprocal", np.inf, 0.0),
    ("relu", -0.0, 0.0), ("relu", -np.inf, 0.0), ("relu", np.nan, np.nan), ("abs", -np.inf, np.inf),
]


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("name,x,want", UNARY_EXACT_VALUES)
def test_unary_exact_values(name: str, x: float, want: float, dtype: str) -> None:
    st = storage(dtype)
    got = run_unary(UNARY[name][0], np.array([x], st))
    assert_bits_equal(got, np.array([want], st), context=f"{name}({x})")


def test_relu_int32() -> None:
    a = np.array([-(2 ** 31), -1, 0, 1, 2 ** 31 - 1], np.int32)
    assert_bits_equal(run_unary(asc.relu, a), np.array([0, 0, 0, 1, 2 ** 31 - 1], np.int32), context="relu")


# ---------------------------------------------------------------------------
# duplicate
# ---------------------------------------------------------------------------

DUPLICATE_VALUES: Dict[str, Tuple[Any, ...]] = {
    "float16": (0.0, -0.0, 65504.0, 1e-7, 7e4, float("inf"), float("-inf"), float("nan"), 0.1,
                1.0 + 2.0 ** -11 + 2.0 ** -40),
    "bfloat16": (0.0, -0.0, 1.5, 3.0e38, 1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, 1e-40, float("inf"), float("nan")),
    "float32": (0.1, -0.0, 3.4028234663852886e38, 1e-45, 2.0 ** -149, float("inf"), float("nan")),
    "int16": (0, -1, 32767, -32768),
    "uint16": (0, 1, 65535),
    "int32": (0, -1, 2 ** 31 - 1, -(2 ** 31)),
    "uint32": (0, 1, 2 ** 31, 2 ** 32 - 1),
}


def ref_duplicate(name: str, n: int, s: Any) -> np.ndarray:
    """Python floats reach 16-bit floats through float32 (as PyTorch converts them); ints are exact."""
    if name == "bfloat16":
        return np.full(n, f32_to_bf16_rne(np.array([s], np.float32))[0], np.uint16)
    with np.errstate(all="ignore"):
        v = np.float32(s).astype(storage(name)) if name in FLT else np.array(s).astype(storage(name))
    return np.full(n, v, storage(name))


@pytest.mark.parametrize("dtype", DUPLICATE_TYPES)
def test_duplicate_values(dtype: str) -> None:
    for s in DUPLICATE_VALUES[dtype]:
        got = run_duplicate(dtype, 37, s)
        assert_bits_equal(got, ref_duplicate(dtype, 37, s), fmt="bfloat16" if dtype == "bfloat16" else None,
                          context=f"duplicate {dtype} {s!r}")


@pytest.mark.parametrize("n", (0,) + LENGTHS)
@pytest.mark.parametrize("dtype", DUPLICATE_TYPES)
def test_duplicate_lengths(dtype: str, n: int) -> None:
    s = DUPLICATE_VALUES[dtype][2]
    got = run_duplicate(dtype, n, s)
    assert_bits_equal(got, ref_duplicate(dtype, n, s), fmt="bfloat16" if dtype == "bfloat16" else None,
                      context=f"duplicate {dtype} n={n}")


def test_duplicate_bf16_known_bits() -> None:
    """Round to nearest even on the float32 value, written out."""
    cases = {1.5: 0x3FC0, 1.0 + 2.0 ** -8: 0x3F80, 1.0 + 3 * 2.0 ** -8: 0x3F82, -2.0: 0xC000,
             3.3895313892515355e38: 0x7F7F, float("inf"): 0x7F80}
    for s, bits in cases.items():
        got = run_duplicate("bfloat16", 1, s)
        assert int(got[0]) == bits, (s, hex(int(got[0])))


@pytest.mark.parametrize("dtype", ("float16", "float32", "int16", "int32", "uint16", "uint32"))
def test_duplicate_runtime_scalar(dtype: str) -> None:
    st = storage(dtype)
    values = (0.1, -0.0, 65520.0, float("nan")) if dtype in FLT else (5, -7, 70000)
    for s in values:
        n = 130
        npad = padded(n, st.itemsize)
        z = fill_sentinel(npad, st)
        duplicate_runtime_kernel[1](z, s, n, npad)
        assert_bits_equal(z[:n], np.full(n, scalar_as(st, s), st), context=f"duplicate {dtype} runtime {s!r}")
        assert (z[n:].view(np.uint8) == 0xA5).all()


# ---------------------------------------------------------------------------
# in-place operands, views, framework-allocated tensors
# ---------------------------------------------------------------------------

@asc.jit
def _in_place(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 2 * n * x.dtype.sizeof())
    xl = buf.get(x.dtype)
    yl = xl[n:]
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(yl, y_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.mul(xl, xl, yl, n)  # dst is src0
    asc.add(yl, xl, yl, n)  # dst is src1
    asc.muls(xl, xl, 2.0, n)
    asc.exp(yl, yl, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(x_gm, xl, n)
    asc.data_copy(y_gm, yl, n)


def test_in_place_operands() -> None:
    rng = rng_for("in_place")
    x = rng.uniform(-1, 1, 64).astype(np.float32)
    y = rng.uniform(-1, 1, 64).astype(np.float32)
    x0, y0 = x.copy(), y.copy()
    _in_place[1](x, y, 64)
    p = ref_float(np.multiply, np.float32, x0, y0)
    s = ref_float(np.add, np.float32, p, y0)
    assert_bits_equal(x, ref_float(np.multiply, np.float32, p, np.float32(2)), context="x")
    assert_close_ulp(y, ref_float(np.exp, np.float32, s), 1, 0.99, context="y")


@asc.jit
def _views(x: asc.GlobalAddress, z: asc.GlobalAddress, off: int, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 1024, 256)
    asc.data_copy(xl, x_gm, 256)
    asc.data_copy(zl, z_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(zl[off:], xl[off:][off:], n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, 256)


def test_offset_views() -> None:
    """zl[off:] = |xl[off:][off:]| over n elements: views compose and are 32-byte aligned here."""
    x = -np.arange(256, dtype=np.float32)
    z = np.full(256, 7.0, np.float32)
    _views[1](x, z, 16, 100)
    want = np.full(256, 7.0, np.float32)
    want[16:116] = np.abs(x[32:132])
    assert_bits_equal(z, want, context="views")


@asc.jit
def _framework_exp(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int],
                   tiles: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * tile * tiles)
    z_gm.set_global_buffer(z + asc.get_block_idx() * tile * tiles)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 2)
    qz = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(qx, 2, tile * x.dtype.sizeof())
    pipe.init_buffer(qz, 2, tile * z.dtype.sizeof())
    for i in range(tiles):
        xl = qx.alloc_tensor(x.dtype)
        asc.data_copy(xl, x_gm[i * tile:], tile)
        qx.enque(xl)
        xl = qx.deque(x.dtype)
        zl = qz.alloc_tensor(z.dtype)
        asc.exp(zl, xl, tile)
        asc.adds(zl, zl, -1.0, tile)
        qz.enque(zl)
        qx.free_tensor(xl)
        zl = qz.deque(z.dtype)
        asc.data_copy(z_gm[i * tile:], zl, tile)
        qz.free_tensor(zl)


@pytest.mark.parametrize("dtype", FLT)
def test_framework_pipeline(dtype: str) -> None:
    """The TPipe/TQue double-buffered pattern of the tutorials, on 4 blocks of 3 tiles."""
    st = storage(dtype)
    x = rng_for("framework", dtype).uniform(-4, 4, 4 * 3 * 128).astype(st)
    z = np.zeros_like(x)
    _framework_exp[4](x, z, 128, 3)
    e = ref_float(np.exp, st, x)
    assert_close_ulp(z, ref_float(lambda a: a - 1.0, st, e), max_ulp=2, min_exact=0.97, context="exp - 1")


# ---------------------------------------------------------------------------
# compile-time checks: element types, operand types, level-0 forms
# ---------------------------------------------------------------------------

def _compile_only(kind: str, op: Callable[..., None]) -> Any:
    """A kernel that applies op to 8 elements of type t in UB, which it first fills from x (768 uint8)."""

    @asc.jit
    def compile_only(x: asc.GlobalAddress, t: asc.ConstExpr[asc.DataType]):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        raw = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 768)
        asc.data_copy(raw, x_gm, 768)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        a = asc.LocalTensor(t, asc.TPosition.VECIN, 0, 256 // t.sizeof())
        b = asc.LocalTensor(t, asc.TPosition.VECIN, 256, 256 // t.sizeof())
        c = asc.LocalTensor(t, asc.TPosition.VECOUT, 512, 256 // t.sizeof())
        if kind == "binary":
            op(c, a, b, 8)
        elif kind == "scalar":
            op(c, a, 1, 8)
        elif kind == "unary":
            op(c, a, 8)
        else:
            op(c, 1, 8)

    return compile_only


def _all_ops() -> Dict[str, Tuple[str, Callable[..., None], Tuple[str, ...]]]:
    ops: Dict[str, Tuple[str, Callable[..., None], Tuple[str, ...]]] = {}
    for kind, table in (("binary", BINARY), ("scalar", SCALAR), ("unary", UNARY)):
        for name, (op, dts) in table.items():
            ops[name] = (kind, op, dts)
    ops["duplicate"] = ("duplicate", asc.duplicate, DUPLICATE_TYPES)
    return ops


ALL_OPS = _all_ops()
UNSUPPORTED = [(name, dt) for name, (_, _, dts) in ALL_OPS.items() for dt in ALL_DTYPES if dt not in dts]


@pytest.mark.parametrize("name,dtype", UNSUPPORTED)
def test_unsupported_dtype_is_compile_error(name: str, dtype: str) -> None:
    kind, op, _ = ALL_OPS[name]
    k = _compile_only(kind, op)
    with pytest.raises(asc.CompileError, match=f"asc.{name} does not support element type {dtype}"):
        k[1](np.zeros(768, np.uint8), asc_dtype(dtype))


@pytest.mark.parametrize("name,dtype", [(n, d) for n, (_, _, dts) in ALL_OPS.items() for d in dts])
def test_supported_dtype_compiles(name: str, dtype: str) -> None:
    """The complement of the test above: the whole support table compiles and runs."""
    kind, op, _ = ALL_OPS[name]
    k = _compile_only(kind, op)
    k[1](np.zeros(768, np.uint8), asc_dtype(dtype))
    assert len(k.cache) == 1


@asc.jit
def _mixed(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 64)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    asc.add(c, a, a, 64)


@asc.jit
def _float_scalar_on_ints(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 64)
    asc.adds(a, a, 1.5, 64)


@asc.jit
def _not_a_tensor(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.exp(a, x_gm, 64)


@pytest.mark.parametrize("kernel,match", [
    (_mixed, "one element type"), (_float_scalar_on_ints, "float"), (_not_a_tensor, "must be a LocalTensor"),
])
def test_operand_type_errors(kernel: Any, match: str) -> None:
    with pytest.raises(asc.CompileError, match=match):
        kernel[1](np.zeros(64, np.float32))


@asc.jit
def _level0(x: asc.GlobalAddress, form: asc.ConstExpr[str]):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, 64)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, 64)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 768, 64)
    if form == "binary_tuple":
        asc.add(c, a, b, 64, 1, (1, 1, 1, 8, 8, 8))
    elif form == "binary_kw":
        asc.mul(c, a, b, mask=64, repeat_times=1)
    elif form == "scalar_tuple":
        asc.adds(c, a, 1.0, 64, 1, (1, 1, 8, 8))
    elif form == "unary_binary_params":
        asc.exp(c, a, 64, 1, asc.BinaryRepeatParams())
    elif form == "unary_kw":
        asc.relu(c, a, mask=64, repeat_times=1)
    elif form == "duplicate_missing":
        asc.duplicate(c, 1.0, 64, 1, 1)
    else:
        asc.cast(h, a, asc.RoundMode.CAST_RINT, 64, 1, asc.UnaryRepeatParams(1, 1, 4, 8))


# level-0 forms (tests/python/test_vector_level0.py) need their repeat params as upstream's classes
@pytest.mark.parametrize("form", ["binary_tuple", "binary_kw", "scalar_tuple", "unary_binary_params", "unary_kw",
                                  "duplicate_missing"])
def test_level0_form_argument_errors(form: str) -> None:
    with pytest.raises(asc.CompileError, match="repeat_params|missing"):
        _level0[1](np.zeros(8, np.float32), form)


def test_level0_cast_compiles() -> None:
    # the level-0 cast (tests/python/test_cast_level0.py) takes a UnaryRepeatParams; the
    # kernel reads uninitialised UB, which only the sanitizer minds
    _level0[1](np.zeros(8, np.float32), "cast", sanitize="off")


@asc.jit
def _count_kw(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 1024, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.sub(c, a, a, count=n)
    asc.adds(c, c, 2, count=n, is_set_mask=False)
    asc.relu(c, c, n, True)  # upstream's count form is (count, is_set_mask=True)
    asc.max(c, c, a, n, False)
    asc.mins(c, c, 5, n, True)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, c, n)


def test_count_keyword_and_is_set_mask() -> None:
    x = np.arange(64, dtype=np.int32)
    y = np.zeros_like(x)
    _count_kw[1](x, y, 64)
    assert (y == np.minimum(np.maximum(2, x), 5)).all()


# ---------------------------------------------------------------------------
# faults at run time
# ---------------------------------------------------------------------------

@asc.jit
def _vec_fault(x: asc.GlobalAddress, off: int, n: int):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    asc.duplicate(a, 1.0, 64)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.add(c[off:], a[off:], a, n)


@pytest.mark.parametrize("off,n,match", [(0, 65, "only 64"), (8, 57, "only 56"), (0, -1, "negative")])
def test_count_out_of_range_is_kernel_error(off: int, n: int, match: str) -> None:
    with pytest.raises(asc.KernelError, match=match) as info:
        _vec_fault[1](np.zeros(8, np.float32), off, n)
    assert info.value.api == "asc.add"


def test_in_range_counts_run() -> None:
    _vec_fault[1](np.zeros(8, np.float32), 8, 56)
    _vec_fault[1](np.zeros(8, np.float32), 0, 0)


def test_misaligned_vector_operand_is_kernel_error() -> None:
    with pytest.raises(asc.KernelError, match="align"):
        _vec_fault[1](np.zeros(8, np.float32), 1, 8)  # c[1:] is at UB byte 260
