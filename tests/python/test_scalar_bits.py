"""The scalar bit utilities and scalar_cast on the simulator, exact on 64 bits, against Python references:
scalar_get_sff_value, scalar_get_count_of_value, scalar_count_leading_zero, count_bits_cnt_same_as_sign_bit
(the devkit's examples and edge cases: 0, all ones, the sign bit, single bits), scalar_cast (float to int32 with
CAST_RINT/FLOOR/CEIL/ROUND, to half with CAST_ODD), their Ascend C, and the misuse errors."""

import math
import random
from typing import List

import numpy as np
import pytest
from kernels_util import ascendc

import asc

U64 = 2**64 - 1
VALUES = [0, 1, 2, 3, 0x0100000000000020, 0x1000000000000100, 1 << 63, U64, U64 - 1, 0x8000000000000001,
          0x7FFFFFFFFFFFFFFF, 0x00000000FFFFFFFF, 0xFFFFFFFF00000000, 0xAAAAAAAAAAAAAAAA, 1 << 40]
VALUES += [random.Random(7).getrandbits(64) for _ in range(8)]


def ref_sff(v: int, bit: int) -> int:
    for i in range(64):
        if (v >> i) & 1 == bit:
            return i
    return -1


def ref_count(v: int, bit: int) -> int:
    ones = bin(v).count("1")
    return ones if bit else 64 - ones


def ref_clz(v: int) -> int:
    return 64 - v.bit_length()


def ref_same_as_sign(v: int) -> int:
    if v in (0, U64):
        return -1
    sign = v >> 63
    n = 0
    for b in range(62, -1, -1):
        if (v >> b) & 1 != sign:
            break
        n += 1
    return n


@asc.jit
def bits_kernel(z: asc.GlobalAddress, v: asc.GlobalAddress, which: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    v_gm = asc.GlobalTensor()
    v_gm.set_global_buffer(v)
    x = v_gm.get_value(0)
    if which == 0:
        z_gm.set_value(0, asc.scalar_get_sff_value(x, 0))
        z_gm.set_value(1, asc.scalar_get_sff_value(x, 1))
    elif which == 1:
        z_gm.set_value(0, asc.scalar_get_count_of_value(x, 0))
        z_gm.set_value(1, asc.scalar_get_count_of_value(x, 1))
    elif which == 2:
        z_gm.set_value(0, asc.scalar_count_leading_zero(x))
    else:
        z_gm.set_value(0, asc.count_bits_cnt_same_as_sign_bit(x))


def run_bits(which: int, v: int) -> List[int]:
    z = np.zeros(4, np.int64)
    arr = np.array([v], np.uint64) if which != 3 else np.array([v], np.uint64).view(np.int64)
    bits_kernel[1](z, arr, which)
    return [int(x) for x in z[:2]]


@pytest.mark.parametrize("v", VALUES)
def test_sff_and_count(v: int) -> None:
    assert run_bits(0, v) == [ref_sff(v, 0), ref_sff(v, 1)]
    assert run_bits(1, v) == [ref_count(v, 0), ref_count(v, 1)]


@pytest.mark.parametrize("v", VALUES)
def test_clz_and_sign_bits(v: int) -> None:
    assert run_bits(2, v)[0] == ref_clz(v)
    assert run_bits(3, v)[0] == ref_same_as_sign(v)


def test_devkit_examples() -> None:
    # the devkit's documented examples: CountLeadingZero 7, CountBitsCntSameAsSignBit 6, GetSFFValue 8
    assert run_bits(2, 0x0100000000000020)[0] == 7
    assert run_bits(3, 0x0100000000000020)[0] == 6
    assert run_bits(0, 0x1000000000000100)[1] == 8
    assert run_bits(2, 0)[0] == 64
    assert run_bits(0, U64)[0] == -1


@asc.jit
def const_bits_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, asc.scalar_count_leading_zero(1 << 63))
    z_gm.set_value(1, asc.count_bits_cnt_same_as_sign_bit(-2))
    z_gm.set_value(2, asc.scalar_get_count_of_value(2**64 - 1, 1))
    z_gm.set_value(3, asc.scalar_get_sff_value(12, 1))


def test_constant_operands_and_ascendc() -> None:
    z = np.zeros(4, np.int64)
    const_bits_kernel[1](z)
    assert z.tolist() == [0, 62, 64, 2]
    src = ascendc(const_bits_kernel)
    assert "AscendC::ScalarCountLeadingZero(" in src
    assert "AscendC::CountBitsCntSameAsSignBit(" in src
    assert "AscendC::ScalarGetCountOfValue<1>(" in src
    assert "AscendC::ScalarGetSFFValue<1>(" in src


# ---- scalar_cast --------------------------------------------------------------------------------------------

@asc.jit
def cast_kernel(z: asc.GlobalAddress, v: asc.GlobalAddress, mode: asc.ConstExpr[asc.RoundMode]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    v_gm = asc.GlobalTensor()
    v_gm.set_global_buffer(v)
    z_gm.set_value(0, asc.scalar_cast(v_gm.get_value(0), asc.int32, mode))


@asc.jit
def cast_half_kernel(z: asc.GlobalAddress, v: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    v_gm = asc.GlobalTensor()
    v_gm.set_global_buffer(v)
    z_gm.set_value(0, asc.scalar_cast(v_gm.get_value(0), asc.float16, asc.RoundMode.CAST_ODD))


def ref_int(f: float, mode: asc.RoundMode) -> int:
    if math.isnan(f):
        return 0
    if math.isinf(f):
        return 2**31 - 1 if f > 0 else -(2**31)
    if mode == asc.RoundMode.CAST_RINT:
        r = round(f)  # Python rounds half to even
    elif mode == asc.RoundMode.CAST_FLOOR:
        r = math.floor(f)
    elif mode == asc.RoundMode.CAST_CEIL:
        r = math.ceil(f)
    else:
        r = int(math.copysign(math.floor(abs(f) + 0.5), f))
    return max(-(2**31), min(2**31 - 1, r))


FLOATS = [0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1.25, -1.75, 3e9, -3e9, 123456.7, float("nan"),
          float("inf"), -float("inf"), 1e-30]
MODES = [asc.RoundMode.CAST_RINT, asc.RoundMode.CAST_FLOOR, asc.RoundMode.CAST_CEIL, asc.RoundMode.CAST_ROUND]


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_scalar_cast_to_int32(mode: asc.RoundMode) -> None:
    for f in FLOATS:
        z = np.zeros(8, np.int32)
        cast_kernel[1](z, np.array([f], np.float32), mode)
        assert int(z[0]) == ref_int(float(np.float32(f)), mode), (f, mode)


def ref_half_odd(f: np.float32) -> np.float16:
    """Round to odd: truncate towards zero, then set the last kept bit when inexact."""
    if np.isnan(f) or np.isinf(f):
        return np.float16(f)
    with np.errstate(over="ignore"):
        h = np.float16(f)  # nearest even; step back towards zero when it rounded away
    if abs(float(h)) > abs(float(f)):
        h = np.nextafter(h, np.float16(0))
    if float(h) != float(f) and not np.isinf(h):
        bits = h.view(np.uint16) | np.uint16(1)
        h = np.array([bits], np.uint16).view(np.float16)[0]
    return h


@pytest.mark.parametrize("f", [1.0, 1.0005, 1.0015, -1.0005, 65519.0, 70000.0, 1e-8, 0.1, -0.0, float("nan")])
def test_scalar_cast_to_half_odd(f: float) -> None:
    z = np.zeros(16, np.float16)
    cast_half_kernel[1](z, np.array([f], np.float32))
    want = ref_half_odd(np.float32(f))
    if np.isnan(want):
        assert np.isnan(z[0])
    else:
        assert z[0].view(np.uint16) == want.view(np.uint16), (f, z[0], want)


def test_scalar_cast_ascendc() -> None:
    cast_kernel[1](np.zeros(8, np.int32), np.array([1.5], np.float32), asc.RoundMode.CAST_FLOOR)
    srcs = [c.ascendc(line_comments=False) for c in cast_kernel.cache.values()]
    assert any("AscendC::ScalarCast<float, int32_t, AscendC::RoundMode::CAST_FLOOR>(" in s for s in srcs)
    cast_half_kernel[1](np.zeros(16, np.float16), np.array([1.5], np.float32))
    assert "AscendC::ScalarCast<float, half, AscendC::RoundMode::CAST_ODD>(" in ascendc(cast_half_kernel)


# ---- misuse --------------------------------------------------------------------------------------------------

@asc.jit
def bad_kernel(z: asc.GlobalAddress, case: asc.ConstExpr[int]):
    if case == 0:
        asc.scalar_get_sff_value(3, 2)  # bad call
    elif case == 1:
        asc.scalar_get_count_of_value(3, True)  # bad call
    elif case == 2:
        asc.scalar_count_leading_zero(2**64)  # bad call
    elif case == 3:
        asc.count_bits_cnt_same_as_sign_bit(1.5)  # bad call
    elif case == 4:
        asc.scalar_cast(1.5, asc.int16, asc.RoundMode.CAST_RINT)  # bad call
    elif case == 5:
        asc.scalar_cast(1.5, asc.int32, asc.RoundMode.CAST_ODD)  # bad call
    else:
        asc.scalar_cast(1.5, asc.float16, asc.RoundMode.CAST_RINT)  # bad call


@pytest.mark.parametrize("case, fragment", list(enumerate(
    ["count_value", "count_value", "does not fit", "must be an integer", "asc.int32 or asc.float16", "CAST_RINT",
     "CAST_ODD"])))
def test_misuse_is_a_compile_error(case: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError) as info:
        bad_kernel[1](np.zeros(8, np.int64), case)
    assert fragment in str(info.value)
