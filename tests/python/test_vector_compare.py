"""Compare instructions on the simulator against NumPy references:
asc.compare (AscendC::Compare) and asc.compare_scalar (AscendC::Compares),
count forms.

The result is a bit mask in a uint8 tensor: bit i % 8 of byte i / 8 is
element i's result (np.packbits(..., bitorder="little")). Only whole
256-byte repeats of the sources are compared; the bytes after them keep
what they held. Comparisons are IEEE 754's (-0 equals +0, infinities order
as numbers, a NaN is neither below, above nor equal to anything) except NE,
which a NaN does not satisfy either: the hardware's NE is LT or GT (the
devkit's 附录/Memory矢量计算接口边界值汇总.md, tables 30 and 31). Sources: float16 and float32 in
every CMPMODE, int32 in EQ only (the Ascend910B's list).
"""

import zlib
from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc, fails_at, with_specials

import asc

MODES = {
    asc.CMPMODE.LT: np.less,
    asc.CMPMODE.GT: np.greater,
    asc.CMPMODE.EQ: np.equal,
    asc.CMPMODE.LE: np.less_equal,
    asc.CMPMODE.GE: np.greater_equal,
    asc.CMPMODE.NE: lambda a, b: np.less(a, b) | np.greater(a, b),  # 0 with a NaN (tables 30, 31)
}
NP = {"float16": np.float16, "float32": np.float32, "int32": np.int32}
CAP = 2048  # elements of each source tensor
SENTINEL = 0xA5


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


@asc.jit
def _cmp_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int, m: asc.ConstExpr[int],
                dst_int8: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, CAP)
    yl = asc.LocalTensor(y.dtype, asc.TPosition.VECIN, 8192, CAP)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 16384, CAP // 8)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(yl, y_gm, CAP)
    asc.data_copy(zl, z_gm, CAP // 8)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.compare(zl, xl, yl, m, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP // 8)


@asc.jit
def _cmps_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, s, n: int, m: asc.ConstExpr[int]):  # noqa: ANN001
    # `s` unannotated: the launcher makes it a float32 or int32 argument from its value
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, CAP)
    zl = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 16384, CAP // 8)
    asc.data_copy(xl, x_gm, CAP)
    asc.data_copy(zl, z_gm, CAP // 8)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.compare_scalar(zl, xl, s, m, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, CAP // 8)


def per_repeat(dtype: str) -> int:
    return 256 // np.dtype(NP[dtype]).itemsize


def expected_bits(result: np.ndarray, n: int, dtype: str) -> np.ndarray:
    """The dst bytes: whole repeats of result packed LSB first, then the sentinel."""
    whole = n // per_repeat(dtype) * per_repeat(dtype)
    out = np.full(CAP // 8, SENTINEL, np.uint8)
    out[: whole // 8] = np.packbits(result[:whole], bitorder="little")
    return out


def inputs(dtype: str, rng: np.random.Generator) -> tuple:
    if dtype == "int32":
        x = rng.integers(-5, 5, CAP, dtype=np.int32)
        x[:4] = [2 ** 31 - 1, -(2 ** 31), 0, -1]
        y = x.copy()
        flip = rng.random(CAP) < 0.5
        y[flip] = rng.integers(-5, 5, int(flip.sum()), dtype=np.int32)
        return x, y
    x = with_specials(dtype, CAP, rng)
    y = with_specials(dtype, CAP, rng)
    same = rng.random(CAP) < 0.3
    y[same] = x[same]  # equal pairs, NaN with NaN among them
    # signed zeros, infinities and NaN against each other at known places
    t = np.dtype(NP[dtype]).type
    pairs = [(0.0, -0.0), (-0.0, 0.0), (np.inf, np.inf), (-np.inf, np.inf), (np.nan, 1.0), (1.0, np.nan),
             (np.nan, np.nan), (np.inf, np.nan), (-0.0, -0.0)]
    for k, (a, b) in enumerate(pairs):
        x[k], y[k] = t(a), t(b)
    return x, y


def run_compare(x: np.ndarray, y: np.ndarray, mode: Any, n: int, dst_int8: bool = False) -> np.ndarray:
    z = np.full(CAP // 8, SENTINEL, np.uint8)
    if dst_int8:
        z = z.view(np.int8)
    _cmp_kernel[1](x, y, z, n, int(mode), dst_int8)
    return z.view(np.uint8)


def run_compare_scalar(x: np.ndarray, s: Any, mode: Any, n: int) -> np.ndarray:
    z = np.full(CAP // 8, SENTINEL, np.uint8)
    _cmps_kernel[1](x, z, s, n, int(mode))
    return z


def check(actual: np.ndarray, expected: np.ndarray, context: Any) -> None:
    bad = np.nonzero(actual != expected)[0]
    assert bad.size == 0, (f"{context}: byte {bad[0]} is {actual[bad[0]]:#010b}, expected {expected[bad[0]]:#010b}")


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode", list(MODES), ids=[m.name for m in MODES])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_compare_float_against_numpy(dtype: str, mode: Any) -> None:
    x, y = inputs(dtype, rng_for("cmp", dtype, mode))
    for n in (per_repeat(dtype), 3 * per_repeat(dtype) + 37, CAP):  # 37 past whole repeats: not compared
        with np.errstate(invalid="ignore"):
            ref = MODES[mode](x, y)
        check(run_compare(x, y, mode, n), expected_bits(ref, n, dtype), (dtype, mode.name, n))


def test_compare_ieee_edges_bit_by_bit() -> None:
    x, y = inputs("float32", rng_for("edges"))
    # (x, y) pairs 0-8: (+0,-0) (-0,+0) (inf,inf) (-inf,inf) (nan,1) (1,nan) (nan,nan) (inf,nan) (-0,-0)
    want = {
        asc.CMPMODE.EQ: [1, 1, 1, 0, 0, 0, 0, 0, 1],
        asc.CMPMODE.NE: [0, 0, 0, 1, 0, 0, 0, 0, 0],  # NaN: 0, where IEEE gives 1
        asc.CMPMODE.LT: [0, 0, 0, 1, 0, 0, 0, 0, 0],
        asc.CMPMODE.GE: [1, 1, 1, 0, 0, 0, 0, 0, 1],
    }
    for mode, bits in want.items():
        z = run_compare(x, y, mode, 64)
        got = [(int(z[i // 8]) >> (i % 8)) & 1 for i in range(len(bits))]
        assert got == bits, (mode.name, got)


def test_compare_int32_eq() -> None:
    x, y = inputs("int32", rng_for("i32"))
    for n in (64, 64 * 5 + 3):
        check(run_compare(x, y, asc.CMPMODE.EQ, n), expected_bits(x == y, n, "int32"), n)


def test_compare_int8_dst() -> None:
    x, y = inputs("float16", rng_for("int8"))
    check(run_compare(x, y, asc.CMPMODE.GT, 256, dst_int8=True), expected_bits(x > y, 256, "float16"), "int8 dst")


def test_bit_layout_one_element_at_a_time() -> None:
    """Element i sets bit i % 8 of byte i / 8, nothing else: x = 0..n-1 == i."""
    x = np.arange(CAP, dtype=np.float32)
    for i in (0, 1, 7, 8, 9, 63, 64, 100, 511):
        y = np.full(CAP, -1.0, np.float32)
        y[i] = i
        z = run_compare(x, y, asc.CMPMODE.EQ, 512)
        want = np.zeros(64, np.uint8)
        want[i // 8] = 1 << (i % 8)
        check(z[:64], want, i)
        assert (z[64:] == SENTINEL).all()


@pytest.mark.parametrize("n", [0, 1, 63, 127])
def test_counts_below_a_repeat_write_nothing(n: int) -> None:
    x, y = inputs("float16", rng_for("small", n))
    z = run_compare(x, y, asc.CMPMODE.LT, n)  # float16: 128 elements a repeat
    assert (z == SENTINEL).all()


# ---------------------------------------------------------------------------
# compare_scalar
# ---------------------------------------------------------------------------

SCALARS = [0.0, -0.0, 1.5, -1.0, float("inf"), float("-inf"), float("nan"), 0.1]


@pytest.mark.parametrize("mode", list(MODES), ids=[m.name for m in MODES])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_compare_scalar_float_against_numpy(dtype: str, mode: Any) -> None:
    x, _ = inputs(dtype, rng_for("cmps", dtype, mode))
    t = np.dtype(NP[dtype]).type
    for k, s in enumerate(SCALARS):
        n = CAP if k % 2 == 0 else 2 * per_repeat(dtype) + 5
        with np.errstate(invalid="ignore", over="ignore"):
            ref = MODES[mode](x, t(s))  # the scalar in the source type (0.1 rounds to float16)
        check(run_compare_scalar(x, s, mode, n), expected_bits(ref, n, dtype), (dtype, mode.name, s, n))


def test_compare_scalar_int32_eq() -> None:
    x, _ = inputs("int32", rng_for("cmps i32"))
    for s in (0, -1, 3, 2 ** 31 - 1):
        check(run_compare_scalar(x, s, asc.CMPMODE.EQ, CAP), expected_bits(x == s, CAP, "int32"), s)


# ---------------------------------------------------------------------------
# misuse
# ---------------------------------------------------------------------------

@asc.jit
def _bad(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 256, 128)
    i = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 512, 64)
    s = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 768, 128)
    b = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 1024, 32)
    c = asc.LocalTensor(asc.int8, asc.TPosition.VECCALC, 1056, 32)
    if case == "i32_lt":
        asc.compare(b, i, i, asc.CMPMODE.LT, 64)  # <- i32_lt
    elif case == "s_i32_ge":
        asc.compare_scalar(b, i, 3, asc.CMPMODE.GE, 64)  # <- s_i32_ge
    elif case == "i16":
        asc.compare(b, s, s, asc.CMPMODE.EQ, 128)  # <- i16
    elif case == "s_i16":
        asc.compare_scalar(b, s, 1, asc.CMPMODE.EQ, 128)  # <- s_i16
    elif case == "dst_f16":
        asc.compare(h, h, h, asc.CMPMODE.EQ, 128)  # <- dst_f16
    elif case == "s_dst_i8":
        asc.compare_scalar(c, h, 1.0, asc.CMPMODE.EQ, 128)  # <- s_dst_i8
    elif case == "mixed":
        asc.compare(b, h, f, asc.CMPMODE.EQ, 64)  # <- mixed
    elif case == "mode":
        asc.compare(b, f, f, asc.RoundMode.CAST_NONE, 64)  # <- mode
    elif case == "level0":
        asc.compare(b, f, f, asc.CMPMODE.LT, 64, 256, asc.BinaryRepeatParams())  # <- level0
    elif case == "s_level0":
        asc.compare_scalar(b, f, 1.0, asc.CMPMODE.LT, 64, 1, asc.BinaryRepeatParams())  # <- s_level0
    elif case == "register":
        asc.compare(i, i, asc.CMPMODE.EQ, 64, asc.BinaryRepeatParams())  # <- register
    elif case == "s_tensor":
        asc.compare_scalar(b, f, f, asc.CMPMODE.LT, 64)  # <- s_tensor


BAD = [
    ("i32_lt", "asc.compare with int32 sources supports only CMPMODE.EQ"),
    ("s_i32_ge", "asc.compare_scalar with int32 sources supports only CMPMODE.EQ"),
    ("i16", "asc.compare does not support element type int16"),
    ("s_i16", "asc.compare_scalar does not support element type int16"),
    ("dst_f16", "dst must be a uint8 or int8 tensor"),
    ("s_dst_i8", "dst must be a uint8 tensor"),
    ("mixed", "src0 and src1 must have one"),
    ("mode", "must be an asc.CMPMODE"),
    ("level0", "repeat_times = 256 is out of range [0, 255]"),
    ("s_level0", "repeat_params must be an asc.UnaryRepeatParams"),
    ("register", "does not support element type int32"),
    ("s_tensor", "src1_scalar must be a number or a runtime scalar"),
]


@pytest.mark.parametrize("case,fragment", BAD, ids=[c for c, _ in BAD])
def test_misuse_is_a_compile_error_at_its_line(case: str, fragment: str) -> None:
    fails_at(_bad, (np.zeros(8, np.float32), case), f"# <- {case}", fragment, cls=asc.CompileError)


# ---------------------------------------------------------------------------
# Ascend C (the suite also compiles every kernel against tests/ascendc/kernel_operator.h)
# ---------------------------------------------------------------------------

@asc.jit
def _every_op(x: asc.GlobalAddress, s: float):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 1024, 256)
    i = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 2048, 256)
    b = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 3072, 64)
    c = asc.LocalTensor(asc.int8, asc.TPosition.VECCALC, 3136, 64)
    asc.duplicate(f, 1.0, 256)
    asc.duplicate(h, 2.0, 256)
    asc.duplicate(i, 3, 256)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.compare(b, f, f, asc.CMPMODE.LT, 256)
    asc.compare(c, h, h, asc.CMPMODE.NE, 256)
    asc.compare(b, i, i, asc.CMPMODE.EQ, 64)
    asc.compare_scalar(b, h, s, asc.CMPMODE.GE, 256)
    asc.compare_scalar(b, f, 0.5, asc.CMPMODE.GT, 256)
    asc.compare_scalar(b, i, 7, asc.CMPMODE.EQ, 64)


def test_ascendc_spells_every_op_as_the_devkit() -> None:
    _every_op[1](np.zeros(8, np.float32), 1.5)
    src = ascendc(_every_op)
    for line in (
        "AscendC::Compare(b, f, f, AscendC::CMPMODE::LT, 256);",
        "AscendC::Compare(c, h, h, AscendC::CMPMODE::NE, 256);",
        "AscendC::Compare(b, i, i, AscendC::CMPMODE::EQ, 64);",
        "AscendC::CMPMODE::GE, 256);",
        "AscendC::CMPMODE::GT, 256);",
        "AscendC::CMPMODE::EQ, 64);",
    ):
        assert line in src, (line, src)
    assert "AscendC::Compares(b, h, static_cast<half>(s), AscendC::CMPMODE::GE, 256);" in src, src
