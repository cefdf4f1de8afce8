"""asc.cast on the simulator against exact references, bit for bit.

The conversions and round modes are those of the Atlas A2 (Ascend910B)
table of the Ascend C Cast documentation; every supported (src, dst, mode)
runs, every other mode of those pairs and a set of other pairs must fail to
compile. Sources of 8 and 16 bits (half and bfloat16 included) are tested
exhaustively over all their bit patterns; 32- and 64-bit sources on random
bit patterns plus edge values (ties, range limits, subnormals, inf, NaN).

Semantics checked (from the documentation's precision conversion rules):
conversions to integers round under the mode, then saturate; NaN becomes 0.
Conversions to floats round under the mode; overflow follows IEEE 754 for
the rounding direction (inf for the nearest modes, else the largest finite
value). CAST_NONE rounds like CAST_RINT. CAST_ROUND is "to nearest, ties
away from zero", CAST_ODD is round-to-odd. float -> float rounds to an
integral value, and its zero results are +0: the devkit's boundary value
table 32 (附录/Memory矢量计算接口边界值汇总.md) turns -0 into +0 there,
unlike IEEE 754; the other float conversions keep the sign of zero (its
float -> bfloat16_t row: -0 -> -0). Any NaN equals any NaN.

bfloat16 travels as its uint16 bits (see kernels_util); when torch is
installed, one test also passes torch.bfloat16 tensors to the kernel.
"""

from typing import Dict, List, Tuple

import numpy as np
import pytest
from kernels_util import (
    FORMATS,
    LENGTHS,
    RM,
    assert_bits_equal,
    bf16_to_f32,
    encode,
    f32_to_bf16_rne,
    int_to_format,
    round_integral,
    round_to_format,
    run_cast,
    saturate_int,
    storage,
)

import asc

try:  # only for the launcher test with torch tensors
    import torch
except ImportError:  # pragma: no cover
    torch = None

DIR = (RM.CAST_RINT, RM.CAST_FLOOR, RM.CAST_CEIL, RM.CAST_ROUND, RM.CAST_TRUNC)
NONE = (RM.CAST_NONE,)

# (src, dst) -> round modes, Atlas A2 table of Cast.md
CAST_TABLE: Dict[Tuple[str, str], Tuple[asc.RoundMode, ...]] = {
    ("int8", "float16"): NONE,
    ("uint8", "float16"): NONE,
    ("int16", "float16"): DIR + NONE,
    ("int16", "float32"): NONE,
    ("float16", "int8"): DIR + NONE,
    ("float16", "uint8"): DIR + NONE,
    ("float16", "int16"): DIR,
    ("float16", "int32"): DIR,
    ("float16", "float32"): NONE,
    ("bfloat16", "int32"): DIR,
    ("bfloat16", "float32"): NONE,
    ("int32", "int16"): NONE,
    ("int32", "float32"): DIR + NONE,
    ("int32", "int64"): NONE,
    ("float32", "int16"): DIR,
    ("float32", "float16"): DIR + (RM.CAST_ODD,) + NONE,
    ("float32", "bfloat16"): DIR,
    ("float32", "int32"): DIR,
    ("float32", "float32"): DIR,
    ("float32", "int64"): DIR,
    ("int64", "int32"): NONE,
    ("int64", "float32"): DIR,
}

SUPPORTED = [(s, d, m) for (s, d), modes in CAST_TABLE.items() for m in modes]
UNSUPPORTED_MODES = [(s, d, m) for (s, d), modes in CAST_TABLE.items() for m in RM if m not in modes]
UNSUPPORTED_PAIRS = [
    ("float16", "bfloat16"), ("bfloat16", "float16"), ("int8", "int16"), ("uint8", "int32"), ("int16", "int32"),
    ("int32", "float16"), ("float32", "int8"), ("float32", "uint8"), ("float32", "float64"), ("float64", "float32"),
    ("uint16", "float32"), ("uint32", "float32"), ("bool", "float16"), ("float16", "float16"), ("int8", "int8"),
    ("float16", "int64"), ("uint64", "float32"), ("bfloat16", "bfloat16"),
]


def _id(case: Tuple[str, str, asc.RoundMode]) -> str:
    s, d, m = case
    return f"{s}-{d}-{m.name[5:]}"


# ---------------------------------------------------------------------------
# reference
# ---------------------------------------------------------------------------

def as_float64(src: str, x: np.ndarray) -> np.ndarray:
    """Exact float64 values of src elements (not for int64)."""
    if src == "bfloat16":
        return bf16_to_f32(x).astype(np.float64)
    return x.astype(np.float64)


def ref_cast(src: str, dst: str, mode: asc.RoundMode, x: np.ndarray) -> np.ndarray:
    if dst in FORMATS:  # float destination
        if src == "int64":
            return encode(int_to_format(x.tolist(), dst, mode), dst)
        v = as_float64(src, x)
        if src == "float32" and dst == "float32":  # zero results are +0 (table 32)
            with np.errstate(invalid="ignore"):
                return (round_integral(v, mode) + 0.0).astype(np.float32)
        return encode(round_to_format(v, dst, mode), dst)
    if src in FORMATS:  # float -> integer
        return saturate_int(round_integral(as_float64(src, x), mode), dst)
    info = np.iinfo(storage(dst))  # integer -> integer saturates
    return np.clip(x.astype(np.int64), info.min, info.max).astype(storage(dst))


def check(src: str, dst: str, mode: asc.RoundMode, x: np.ndarray, chunk: int = 2048) -> None:
    for i in range(0, max(len(x), 1), chunk):
        part = x[i:i + chunk]
        got = run_cast(src, dst, mode, part)
        with np.errstate(all="ignore"):
            want = ref_cast(src, dst, mode, part)
        fmt = dst if dst in FORMATS else None
        assert_bits_equal(got, want, fmt=fmt, context=f"cast {src}->{dst} {mode.name} [{i}:{i + len(part)}]")


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------

F32_EDGES = [
    0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997, 1.0000001, 127.5, -128.5, 128.0, -129.0, 255.5, 256.0,
    32767.5, -32768.5, 32768.0, 65504.0, 65519.996, 65520.0, -65520.0, 65536.0, 2.0 ** 31, -(2.0 ** 31),
    2.0 ** 31 - 128, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 62 * 1.5, 2.0 ** -14, 2.0 ** -24, 2.0 ** -25, 1.5 * 2.0 ** -25,
    2.0 ** -126, 2.0 ** -149, 0.5 + 2.0 ** -12, 0.5 + 2.0 ** -9 + 2.0 ** -11, 1.0 + 2.0 ** -11,
    1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, 3.4028235e38, np.inf, -np.inf, np.nan, 1e10, -1e10, 0.1, 1.0 / 3,
]
I32_EDGES = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 24 + 1, 2 ** 24 + 3, -(2 ** 24) - 1, 2 ** 25 + 3, 2 ** 25 + 2,
             2 ** 25 + 6, 32767, 32768, -32768, -32769, 65535, 2 ** 30 + 64]
I64_EDGES = [0, 1, -1, 2 ** 63 - 1, -(2 ** 63), 2 ** 31, -(2 ** 31) - 1, 2 ** 31 - 1, 2 ** 35 + 2 ** 12 + 2 ** 11,
             2 ** 35 + 2 ** 12, 2 ** 24 + 1, 2 ** 40 + 2 ** 16, -(2 ** 40) - 2 ** 16, 2 ** 62 + 2 ** 38 + 1]


def inputs(src: str, rng: np.random.Generator) -> np.ndarray:
    """Exhaustive for 8/16-bit sources, random bit patterns plus edges otherwise."""
    st = storage(src)
    if st.itemsize <= 2:
        info = np.iinfo(np.uint8 if st.itemsize == 1 else np.uint16)
        return np.arange(info.max + 1, dtype=info.dtype).view(st)
    if src == "float32":
        bits = rng.integers(0, 2 ** 32, 3000, dtype=np.uint64).astype(np.uint32).view(np.float32)
        scaled = (rng.standard_normal(3000) * np.exp(rng.uniform(-20, 50, 3000))).astype(np.float32)
        halves = (rng.integers(-70000, 70000, 500) + 0.5).astype(np.float32)
        return np.concatenate([np.array(F32_EDGES, np.float32), bits, scaled, halves])
    edges = I32_EDGES if src == "int32" else I64_EDGES
    info = np.iinfo(st)
    full = rng.integers(info.min, info.max, 3000, dtype=st, endpoint=True)
    shifts = rng.integers(0, st.itemsize * 8 - 1, 3000)
    scaled = (full >> shifts.astype(st)).astype(st)  # every magnitude
    return np.concatenate([np.array(edges, st), full, scaled])


_INPUTS: Dict[str, np.ndarray] = {}


def cached_inputs(src: str) -> np.ndarray:
    if src not in _INPUTS:
        _INPUTS[src] = inputs(src, np.random.default_rng(len(src) * 7919))
    return _INPUTS[src]


# ---------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("case", SUPPORTED, ids=[_id(c) for c in SUPPORTED])
def test_cast(case: Tuple[str, str, asc.RoundMode]) -> None:
    src, dst, mode = case
    check(src, dst, mode, cached_inputs(src))


@pytest.mark.parametrize("n", (0,) + LENGTHS)
@pytest.mark.parametrize("pair", list(CAST_TABLE), ids=[f"{s}-{d}" for s, d in CAST_TABLE])
def test_cast_lengths(pair: Tuple[str, str], n: int) -> None:
    """Odd counts: exactly n elements converted, the rest of the destination block untouched."""
    src, dst = pair
    x = cached_inputs(src)
    x = x[np.random.default_rng(n).permutation(len(x))[:n]]
    check(src, dst, CAST_TABLE[pair][0], x)


FLOAT_PAIRS = [(s, d, m) for s, d, m in SUPPORTED if s in FORMATS and d in FORMATS]
NEG_ZERO = {"float16": 0x8000, "bfloat16": 0x8000, "float32": 0x8000_0000}


@pytest.mark.parametrize("case", FLOAT_PAIRS, ids=[_id(c) for c in FLOAT_PAIRS])
def test_cast_signed_zeros(case: Tuple[str, str, asc.RoundMode]) -> None:
    """+0 and -0 through every float -> float conversion and mode: float -> float (Cast<float, float>) gives +0
    for -0, and for negatives that round to zero; half -> float, bfloat16 -> float, float -> half and
    float -> bfloat16 keep the sign (the devkit's boundary value table 32)."""
    src, dst, mode = case
    x = np.zeros(8, storage(src))
    x.view({2: np.uint16, 4: np.uint32}[x.itemsize])[1::2] = NEG_ZERO[src]  # +0, -0, +0, -0, ...
    if src == "float32":
        x[4:] = [-0.3, -0.5, -2.0 ** -140, 0.25]  # rounding to zero in some modes; tiny for the 16-bit targets
    got = run_cast(src, dst, mode, x)
    bits = got.view({2: np.uint16, 4: np.uint32}[got.itemsize])
    if src == dst == "float32":
        assert not (bits == NEG_ZERO[dst]).any(), f"{bits} has a -0"
    else:
        assert list(bits[:4]) == [0, NEG_ZERO[dst]] * 2
    with np.errstate(all="ignore"):
        want = ref_cast(src, dst, mode, x)
    assert_bits_equal(got, want, fmt=dst, context=f"cast {src}->{dst} {mode.name} of signed zeros")


# Worked examples of the documentation's precision conversion rules: (src, dst, input, {mode: output}).
DOC_EXAMPLES: List[Tuple[str, str, float, Dict[asc.RoundMode, float]]] = [
    ("int16", "float16", 2 ** 12 + 2, {RM.CAST_RINT: 4096, RM.CAST_FLOOR: 4096, RM.CAST_CEIL: 4100,
                                       RM.CAST_ROUND: 4100, RM.CAST_TRUNC: 4096}),
    ("float16", "int8", 127.5, {RM.CAST_RINT: 127, RM.CAST_FLOOR: 127, RM.CAST_CEIL: 127, RM.CAST_ROUND: 127,
                                RM.CAST_TRUNC: 127}),
    ("float16", "uint8", 1.75, {RM.CAST_RINT: 2, RM.CAST_FLOOR: 1, RM.CAST_CEIL: 2, RM.CAST_ROUND: 2,
                                RM.CAST_TRUNC: 1}),
    ("float16", "int16", 127.5, {RM.CAST_RINT: 128, RM.CAST_FLOOR: 127, RM.CAST_CEIL: 128, RM.CAST_ROUND: 128,
                                 RM.CAST_TRUNC: 127}),
    ("float16", "int32", -1.5, {RM.CAST_RINT: -2, RM.CAST_FLOOR: -2, RM.CAST_CEIL: -1, RM.CAST_ROUND: -2,
                                RM.CAST_TRUNC: -1}),
    ("bfloat16", "int32", 64.5, {RM.CAST_RINT: 64, RM.CAST_FLOOR: 64, RM.CAST_CEIL: 65, RM.CAST_ROUND: 65,
                                 RM.CAST_TRUNC: 64}),
    ("int32", "float32", 2 ** 25 + 3, {RM.CAST_RINT: 2 ** 25 + 4, RM.CAST_FLOOR: 2 ** 25, RM.CAST_CEIL: 2 ** 25 + 4,
                                       RM.CAST_ROUND: 2 ** 25 + 4, RM.CAST_TRUNC: 2 ** 25}),
    ("float32", "int16", 2 ** 22 + 0.5, {m: 32767 for m in DIR}),
    ("float32", "float16", 0.5 + 2 ** -12, {RM.CAST_RINT: 0.5, RM.CAST_FLOOR: 0.5, RM.CAST_CEIL: 0.5 + 2 ** -11,
                                            RM.CAST_ROUND: 0.5 + 2 ** -11, RM.CAST_TRUNC: 0.5,
                                            RM.CAST_ODD: 0.5 + 2 ** -11}),
    ("float32", "bfloat16", 0.5 + 2 ** -9 + 2 ** -11, {RM.CAST_RINT: 0.5 + 2 ** -8, RM.CAST_FLOOR: 0.5,
                                                       RM.CAST_CEIL: 0.5 + 2 ** -8, RM.CAST_ROUND: 0.5 + 2 ** -8,
                                                       RM.CAST_TRUNC: 0.5}),
    ("float32", "int32", 2 ** 22 + 0.5, {RM.CAST_RINT: 2 ** 22, RM.CAST_FLOOR: 2 ** 22, RM.CAST_CEIL: 2 ** 22 + 1,
                                         RM.CAST_ROUND: 2 ** 22 + 1, RM.CAST_TRUNC: 2 ** 22}),
    ("float32", "float32", 0.5, {RM.CAST_RINT: 0.0, RM.CAST_FLOOR: 0.0, RM.CAST_CEIL: 1.0, RM.CAST_ROUND: 1.0,
                                 RM.CAST_TRUNC: 0.0}),
    ("float32", "int64", 2 ** 22 + 0.5, {RM.CAST_RINT: 2 ** 22, RM.CAST_FLOOR: 2 ** 22, RM.CAST_CEIL: 2 ** 22 + 1,
                                         RM.CAST_ROUND: 2 ** 22 + 1, RM.CAST_TRUNC: 2 ** 22}),
    ("int64", "int32", 2 ** 31, {RM.CAST_NONE: 2 ** 31 - 1}),
    ("int32", "int16", 2 ** 31 - 1, {RM.CAST_NONE: 2 ** 15 - 1}),
    ("int64", "float32", 2 ** 35 + 2 ** 12 + 2 ** 11, {RM.CAST_RINT: 2 ** 35 + 2 ** 13, RM.CAST_FLOOR: 2 ** 35 + 2 ** 12,
                                                       RM.CAST_CEIL: 2 ** 35 + 2 ** 13,
                                                       RM.CAST_ROUND: 2 ** 35 + 2 ** 13,
                                                       RM.CAST_TRUNC: 2 ** 35 + 2 ** 12}),
]


def _encode_value(name: str, v: float) -> np.ndarray:
    if name == "bfloat16":
        return f32_to_bf16_rne(np.array([v], np.float32))
    return np.array([v]).astype(storage(name))


@pytest.mark.parametrize("src,dst,x,results", DOC_EXAMPLES, ids=[f"{e[0]}-{e[1]}" for e in DOC_EXAMPLES])
def test_documentation_examples(src: str, dst: str, x: float, results: Dict[asc.RoundMode, float]) -> None:
    xs = _encode_value(src, x)
    assert as_float64(src, xs)[0] == x if src != "int64" else int(xs[0]) == x
    for mode, want in results.items():
        got = run_cast(src, dst, mode, xs)
        assert_bits_equal(got, _encode_value(dst, want), fmt=dst if dst in FORMATS else None,
                          context=f"{src}->{dst} {mode.name} of {x}")


def test_overflow_and_nan() -> None:
    """float -> half overflow per direction; float -> int saturation and NaN -> 0."""
    x = np.array([1e5, -1e5, 65520.0, 65519.996, np.nan], np.float32)
    inf, mx = np.inf, 65504.0
    want = {RM.CAST_RINT: [inf, -inf, inf, mx], RM.CAST_FLOOR: [mx, -inf, mx, mx], RM.CAST_CEIL: [inf, -mx, inf, inf],
            RM.CAST_TRUNC: [mx, -mx, mx, mx], RM.CAST_ODD: [mx, -mx, mx, mx], RM.CAST_ROUND: [inf, -inf, inf, mx]}
    for mode, w in want.items():
        got = run_cast("float32", "float16", mode, x)
        assert_bits_equal(got[:4], np.array(w, np.float16), context=mode.name)
        assert np.isnan(got[4])
    y = np.array([np.inf, -np.inf, np.nan, 3e9, -3e9], np.float32)
    for dst, lo, hi in (("int32", -(2 ** 31), 2 ** 31 - 1), ("int16", -32768, 32767), ("int64", -(2 ** 63), 2 ** 63 - 1)):
        got = run_cast("float32", dst, RM.CAST_TRUNC, y)
        assert got.tolist() == [hi, lo, 0, hi, lo] if dst != "int64" else got.tolist() == [hi, lo, 0, 3 * 10 ** 9,
                                                                                             -3 * 10 ** 9]


@pytest.mark.parametrize("case", UNSUPPORTED_MODES, ids=[_id(c) for c in UNSUPPORTED_MODES])
def test_unsupported_mode_is_compile_error(case: Tuple[str, str, asc.RoundMode]) -> None:
    src, dst, mode = case
    with pytest.raises(asc.CompileError, match="not supported"):
        run_cast(src, dst, mode, np.zeros(8, storage(src)))


@pytest.mark.parametrize("pair", UNSUPPORTED_PAIRS, ids=[f"{s}-{d}" for s, d in UNSUPPORTED_PAIRS])
def test_unsupported_pair_is_compile_error(pair: Tuple[str, str]) -> None:
    src, dst = pair
    for mode in (RM.CAST_NONE, RM.CAST_RINT):
        with pytest.raises(asc.CompileError, match="not supported"):
            run_cast(src, dst, mode, np.zeros(8, storage(src)))


@asc.jit
def _cast_direct(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], mode: asc.ConstExpr[int]):
    """Cast with the GM arrays' own element types (no reinterpretation)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 1)
    qz = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qx, 1, n * x.dtype.sizeof())
    pipe.init_buffer(qz, 1, n * z.dtype.sizeof())
    xl = qx.alloc_tensor(x.dtype)
    asc.data_copy(xl, x_gm, n)
    qx.enque(xl)
    xl = qx.deque(x.dtype)
    zl = qz.alloc_tensor(z.dtype)
    asc.cast(zl, xl, mode, n)
    qz.enque(zl)
    qx.free_tensor(xl)
    zl = qz.deque(z.dtype)
    asc.data_copy(z_gm, zl, n)
    qz.free_tensor(zl)


def test_cast_framework_and_int_mode() -> None:
    """TQue-allocated tensors, and the round mode given as a plain int (RoundMode is an IntEnum)."""
    x = np.linspace(-100, 100, 64).astype(np.float32)
    z = np.zeros(64, np.float16)
    _cast_direct[1](x, z, 64, int(RM.CAST_CEIL))
    assert_bits_equal(z, encode(round_to_format(x.astype(np.float64), "float16", RM.CAST_CEIL), "float16"))


@pytest.mark.parametrize("mode", [9, -1])
def test_bad_round_mode_is_compile_error(mode: int) -> None:
    with pytest.raises(asc.CompileError, match="RoundMode"):
        _cast_direct[1](np.zeros(16, np.float32), np.zeros(16, np.float16), 16, mode)


@pytest.mark.skipif(torch is None, reason="checks torch.bfloat16 arguments; bfloat16 itself is tested without torch")
def test_torch_bfloat16_arguments() -> None:
    x = torch.linspace(-3, 3, 64, dtype=torch.float32) * 1.0001
    z = torch.zeros(64, dtype=torch.bfloat16)
    _cast_direct[1](x, z, 64, int(RM.CAST_RINT))
    assert torch.equal(z, x.to(torch.bfloat16))  # torch rounds to nearest even too
    back = torch.zeros(64, dtype=torch.float32)
    _cast_direct[1](z, back, 64, int(RM.CAST_NONE))
    assert torch.equal(back, z.to(torch.float32))
    want = f32_to_bf16_rne(x.numpy())
    assert (z.view(torch.int16).numpy().view(np.uint16) == want).all()


def test_bf16_reference_matches_known_bits() -> None:
    """The NumPy bfloat16 reference itself: ties to even, overflow to inf, NaN quiet."""
    v = np.array([1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, 3.4028235e38, np.nan, -0.0, 2.0 ** -133], np.float32)
    assert f32_to_bf16_rne(v).tolist() == [0x3F80, 0x3F82, 0x7F80, 0x7FC0, 0x8000, 0x0001]


def test_count_not_whole_block_is_exact() -> None:
    """cast converts exactly n elements even when n elements are not whole 32-byte blocks."""
    x = np.arange(1, 12, dtype=np.float32)
    got = run_cast("float32", "float16", RM.CAST_RINT, x)  # checks the rest of the block kept its bytes
    assert got.tolist() == list(range(1, 12))
