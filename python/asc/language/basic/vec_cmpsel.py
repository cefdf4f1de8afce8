"""Compare instructions: `asc.compare` (AscendC::Compare) and
`asc.compare_scalar` (AscendC::Compares), in the count form.

The result is a bit mask in a uint8 tensor (Compare also takes int8): bit
i % 8 of byte i / 8 is 1 when element i satisfies the CMPMODE. On the
Ascend910B the sources are float16 or float32 in every mode, int32 in
CMPMODE.EQ only. Only whole 256-byte repeats of the sources are compared
(count * sizeof(T) must be a multiple of 256, as the devkit requires); the
elements after the last whole repeat are not compared and their bits are
left as they were. Comparisons follow IEEE 754: a NaN satisfies only NE,
-0 equals +0."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import CMPMODE
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar
from .utils import count_form, local


def _not_level0(api: str, args: tuple, kwargs: dict) -> Any:
    try:
        return count_form(api, args, kwargs)
    except NotImplementedError as e:
        raise error(str(e), f"hint: write {api}(..., cmp_mode, count)") from None


@usage("asc.compare(dst, src0, src1, asc.CMPMODE.LT, count)")
def compare(dst: LocalTensor, src0: LocalTensor, src1: Any, cmp_mode: Any, *args: Any, **kwargs: Any) -> None:
    """`compare(dst, src0, src1, cmp_mode, count)`: dst's bit i is
    `src0[i] <cmp_mode> src1[i]` for the first count elements (whole
    256-byte repeats only). dst is uint8 or int8; src0 and src1 float16 or
    float32 (int32: CMPMODE.EQ only). The level-0 forms (mask,
    repeat_times, BinaryRepeatParams) and the form that writes the
    cmp-mask register are not supported yet."""
    api = "asc.compare"
    if isinstance(src1, CMPMODE):
        raise error(f"{api}(src0, src1, cmp_mode, mask, repeat_params) (the result in the cmp-mask register) "
                    "is not supported yet", f"hint: write {api}(dst, src0, src1, cmp_mode, count)")
    d, a, b = local(dst, api, "dst"), local(src0, api, "src0"), local(src1, api, "src1")
    mode = enum_arg(cmp_mode, CMPMODE, api, "cmp_mode")
    count = _not_level0(api, args, kwargs)
    _b.current().create("asc.compare", [d, a, b, int_operand(count, "count")],
                        attrs={"cmp_mode": ("CMPMODE", mode)})


@usage("asc.compare_scalar(dst, src0, src1_scalar, asc.CMPMODE.LT, count)")
def compare_scalar(dst: LocalTensor, src0: LocalTensor, src1_scalar: Any, cmp_mode: Any, *args: Any,
                   **kwargs: Any) -> None:
    """`compare_scalar(dst, src0, src1_scalar, cmp_mode, count)`: dst's bit
    i is `src0[i] <cmp_mode> src1_scalar` for the first count elements
    (whole 256-byte repeats only; AscendC::Compares). dst is uint8; src0
    float16 or float32 (int32: CMPMODE.EQ only); the scalar is converted
    to src0's type. The level-0 forms are not supported yet."""
    api = "asc.compare_scalar"
    d, a = local(dst, api, "dst"), local(src0, api, "src0")
    if not (is_number(src1_scalar) or isinstance(src1_scalar, Scalar)):
        raise error(f"{api}: src1_scalar must be a number or a runtime scalar, got {describe(src1_scalar)}",
                    "hint: write asc.compare_scalar(dst, src0, 0.5, asc.CMPMODE.LT, count)")
    mode = enum_arg(cmp_mode, CMPMODE, api, "cmp_mode")
    count = _not_level0(api, args, kwargs)
    _b.current().create("asc.compare_scalar", [d, a, to_scalar(src1_scalar, a.dtype), int_operand(count, "count")],
                        attrs={"cmp_mode": ("CMPMODE", mode)})
