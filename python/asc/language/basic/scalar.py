"""Scalar bit utilities and ScalarCast (the devkit's kernel_operator_scalar_intf.h), exact on 64 bits."""

from __future__ import annotations

import enum
from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import RoundMode
from ..core.values import Scalar, const, int_operand, is_number, to_scalar


def _int_in(value: Any, dtype: Any, api: str) -> Scalar:
    if isinstance(value, (bool, enum.Enum)) or not isinstance(value, (int, Scalar)):
        raise error(f"{api}: 'value_in' must be an integer, got {describe(value)}")
    if isinstance(value, int):
        lo, hi = (0, 2**64 - 1) if dtype == dt.uint64 else (-(2**63), 2**63 - 1)
        if not lo <= value <= hi:
            raise error(f"{api}: value_in = {value} does not fit {dtype.name}")
        return const(value, dtype)
    s = int_operand(value, f"{api}: value_in")
    return s if s.dtype == dtype else s.cast(dtype)


def _count_value(count_value: Any, api: str) -> Scalar:
    if (isinstance(count_value, (bool, enum.Enum)) or not isinstance(count_value, int)
            or count_value not in (0, 1)):
        raise error(f"{api}: 'count_value' must be the constant 0 or 1 (the countValue template argument), "
                    f"got {describe(count_value)}")
    return const(count_value, dt.int32)


def _result(op: str, operands: list) -> Scalar:
    b = _b.current()
    return Scalar(b.create1(op, operands, b.scalar_type(dt.int64)), dt.int64)


@usage("asc.scalar_get_sff_value(value_in, count_value)")
def scalar_get_sff_value(value_in: Any, count_value: Any) -> Scalar:
    """`AscendC::ScalarGetSFFValue<countValue>(valueIn)`: the position of the lowest bit of the uint64 value_in
    equal to count_value (0 or 1), -1 when there is none (int64)."""
    api = "asc.scalar_get_sff_value"
    return _result("asc.scalar_get_sff_value", [_int_in(value_in, dt.uint64, api), _count_value(count_value, api)])


@usage("asc.scalar_get_count_of_value(value_in, count_value)")
def scalar_get_count_of_value(value_in: Any, count_value: Any) -> Scalar:
    """`AscendC::ScalarGetCountOfValue<countValue>(valueIn)`: how many bits of the uint64 value_in equal
    count_value (0 or 1) (int64)."""
    api = "asc.scalar_get_count_of_value"
    return _result("asc.scalar_get_count_of_value",
                   [_int_in(value_in, dt.uint64, api), _count_value(count_value, api)])


@usage("asc.scalar_count_leading_zero(value_in)")
def scalar_count_leading_zero(value_in: Any) -> Scalar:
    """`AscendC::ScalarCountLeadingZero(valueIn)`: the zero bits above the highest one of the uint64 value_in
    (64 for 0) (int64)."""
    return _result("asc.scalar_count_leading_zero", [_int_in(value_in, dt.uint64, "asc.scalar_count_leading_zero")])


@usage("asc.count_bits_cnt_same_as_sign_bit(value_in)")
def count_bits_cnt_same_as_sign_bit(value_in: Any) -> Scalar:
    """`AscendC::CountBitsCntSameAsSignBit(valueIn)`: the consecutive bits below the sign bit of the int64
    value_in equal to it, from bit 62 down; -1 for 0 and -1 (int64)."""
    api = "asc.count_bits_cnt_same_as_sign_bit"
    return _result("asc.count_bits_cnt_same_as_sign_bit", [_int_in(value_in, dt.int64, api)])


_CAST_MODES = {
    dt.int32: (RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL, RoundMode.CAST_ROUND),
    dt.float16: (RoundMode.CAST_ODD,),
}


@usage("asc.scalar_cast(value_in, asc.int32, asc.RoundMode.CAST_RINT)",
       "asc.scalar_cast(value_in, asc.float16, asc.RoundMode.CAST_ODD)")
def scalar_cast(value_in: Any, dtype: Any, round_mode: Any) -> Scalar:
    """`AscendC::ScalarCast<float, U, roundMode>(valueIn)`: the float value_in converted to dtype with
    round_mode: int32 with CAST_RINT (to nearest even), CAST_FLOOR, CAST_CEIL or CAST_ROUND (half away from
    zero), saturating, NaN to 0; float16 with CAST_ODD (round to odd)."""
    api = "asc.scalar_cast"
    if dtype not in _CAST_MODES:
        raise error(f"{api}: dtype must be asc.int32 or asc.float16 (the devkit's ScalarCast from float), "
                    f"got {describe(dtype)}")
    mode = enum_arg(round_mode, RoundMode, api, "round_mode")
    if mode not in _CAST_MODES[dtype]:
        allowed = ", ".join(f"RoundMode.{m.name}" for m in _CAST_MODES[dtype])
        raise error(f"{api}: float to {dtype.name} takes {allowed}, got RoundMode.{mode.name}")
    if not (is_number(value_in) or isinstance(value_in, Scalar)):
        raise error(f"{api}: 'value_in' must be a number, got {describe(value_in)}")
    v = to_scalar(value_in, dt.float32) if is_number(value_in) else value_in
    if v.dtype != dt.float32:
        v = v.cast(dt.float32)
    b = _b.current()
    return Scalar(b.create1("asc.scalar_cast", [v], b.scalar_type(dtype), attrs={"round_mode": ("RoundMode", mode)}),
                  dtype)
