"""Vector tensor-scalar instructions: dst = src OP scalar.

Each takes the level-2 (count) form of the Ascend C API or its level-0
form (mask, repeat_times, repeat params; see vec_ops.py).
"""

from __future__ import annotations

from typing import Any

from ..core.checks import usage
from ..core.values import LocalTensor
from .vec_ops import emit


@usage("asc.adds(dst, src, scalar, count)",
       "asc.adds(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def adds(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """Adds a scalar. `adds(dst, src, scalar, count)`."""
    emit("asc.adds", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


@usage("asc.muls(dst, src, scalar, count)",
       "asc.muls(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def muls(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """Multiplies by a scalar. `muls(dst, src, scalar, count)`."""
    emit("asc.muls", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


@usage("asc.maxs(dst, src, scalar, count)",
       "asc.maxs(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def maxs(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """Maximum with a scalar. `maxs(dst, src, scalar, count)`."""
    emit("asc.maxs", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


@usage("asc.mins(dst, src, scalar, count)",
       "asc.mins(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def mins(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """Minimum with a scalar. `mins(dst, src, scalar, count)`."""
    emit("asc.mins", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


@usage("asc.leaky_relu(dst, src, scalar, count)",
       "asc.leaky_relu(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def leaky_relu(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """src where its sign bit is clear, else src * scalar (-0.0 too), elementwise (AscendC::LeakyRelu; half and
    float). `leaky_relu(dst, src, scalar, count)`."""
    emit("asc.leaky_relu", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


def _check_shift(api: str, src: Any, scalar: Any) -> None:
    """A constant shift amount lies in [0, bits of the element type] (ShiftLeft.md / ShiftRight.md)."""
    if isinstance(scalar, int) and not isinstance(scalar, bool) and isinstance(src, LocalTensor):
        bits = 8 * src.dtype.sizeof()
        if not 0 <= scalar <= bits:
            raise ValueError(f"{api}: the shift amount {scalar} is out of range [0, {bits}] for {src.dtype.name}")


@usage("asc.shift_left(dst, src, scalar, count)",
       "asc.shift_left(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def shift_left(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """src << scalar elementwise (AscendC::ShiftLeft; int16/uint16/int32/uint32, scalar in [0, bits];
    signed types keep their sign bit). `shift_left(dst, src, scalar, count)`."""
    _check_shift("asc.shift_left", src, scalar)
    emit("asc.shift_left", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")


@usage("asc.shift_right(dst, src, scalar, count)",
       "asc.shift_right(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def shift_right(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """src >> scalar elementwise (AscendC::ShiftRight; int16/uint16/int32/uint32, scalar in [0, bits];
    arithmetic for signed types, without rounding: roundEn is false). `shift_right(dst, src, scalar, count)`."""
    _check_shift("asc.shift_right", src, scalar)
    emit("asc.shift_right", (dst, src), ("dst", "src"), scalar, args, kwargs, level0="unary")
