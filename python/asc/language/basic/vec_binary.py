"""Vector tensor-tensor instructions: dst = src0 OP src1.

Each takes the level-2 (count) form of the Ascend C API or its level-0
form (mask, repeat_times, repeat params; see vec_ops.py).
"""

from __future__ import annotations

from typing import Any

from ..core.checks import usage
from ..core.values import LocalTensor
from .vec_ops import NO_SCALAR, emit


@usage("asc.add(dst, src0, src1, count)",
       "asc.add(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def add(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Adds elementwise. `add(dst, src0, src1, count)`."""
    emit("asc.add", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.sub(dst, src0, src1, count)",
       "asc.sub(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def sub(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Subtracts elementwise. `sub(dst, src0, src1, count)`."""
    emit("asc.sub", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.mul(dst, src0, src1, count)",
       "asc.mul(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def mul(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Multiplies elementwise. `mul(dst, src0, src1, count)`."""
    emit("asc.mul", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.div(dst, src0, src1, count)",
       "asc.div(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def div(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Divides elementwise. `div(dst, src0, src1, count)`."""
    emit("asc.div", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.max(dst, src0, src1, count)",
       "asc.max(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def max(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Elementwise maximum. `max(dst, src0, src1, count)`."""
    emit("asc.max", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.min(dst, src0, src1, count)",
       "asc.min(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def min(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Elementwise minimum. `min(dst, src0, src1, count)`."""
    emit("asc.min", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.add_relu(dst, src0, src1, count)",
       "asc.add_relu(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def add_relu(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """max(src0 + src1, 0) elementwise (AscendC::AddRelu; int16 sums wrap as in add).
    `add_relu(dst, src0, src1, count)`."""
    emit("asc.add_relu", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.sub_relu(dst, src0, src1, count)",
       "asc.sub_relu(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def sub_relu(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """max(src0 - src1, 0) elementwise (AscendC::SubRelu). `sub_relu(dst, src0, src1, count)`."""
    emit("asc.sub_relu", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.bitwise_and(dst, src0, src1, count)",
       "asc.bitwise_and(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def bitwise_and(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """src0 & src1 elementwise on int16/uint16 (AscendC::And; named so as not to clash with Python's `and`).
    `bitwise_and(dst, src0, src1, count)`; the count form also takes int32/uint32 as the devkit does, as int16
    lanes: count counts 16-bit halves (pass twice the element count)."""
    emit("asc.bitwise_and", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.bitwise_or(dst, src0, src1, count)",
       "asc.bitwise_or(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def bitwise_or(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """src0 | src1 elementwise on int16/uint16 (AscendC::Or; named so as not to clash with Python's `or`).
    `bitwise_or(dst, src0, src1, count)`; the count form also takes int32/uint32 as the devkit does, as int16
    lanes: count counts 16-bit halves (pass twice the element count)."""
    emit("asc.bitwise_or", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.fused_mul_add(dst, src0, src1, count)",
       "asc.fused_mul_add(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def fused_mul_add(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst = src0 * dst + src1 elementwise, rounded once (AscendC::FusedMulAdd; half and float).
    `fused_mul_add(dst, src0, src1, count)`."""
    emit("asc.fused_mul_add", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs, level0="binary")


@usage("asc.fused_mul_add_relu(dst, src0, src1, count)",
       "asc.fused_mul_add_relu(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def fused_mul_add_relu(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst = max(src0 * dst + src1, 0) elementwise (AscendC::MulAddRelu, the devkit's name for the
    deprecated FusedMulAddRelu; half and float). `fused_mul_add_relu(dst, src0, src1, count)`."""
    emit("asc.fused_mul_add_relu", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs,
         level0="binary")


@usage("asc.mul_add_dst(dst, src0, src1, count)",
       "asc.mul_add_dst(dst, src0, src1, mask, repeat_times, asc.BinaryRepeatParams(...))")
def mul_add_dst(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst = src0 * src1 + dst elementwise, rounded once (AscendC::MulAddDst; half, float, or a float dst
    with half sources). `mul_add_dst(dst, src0, src1, count)`."""
    emit("asc.mul_add_dst", (dst, src0, src1), ("dst", "src0", "src1"), NO_SCALAR, args, kwargs,
         check_same=False, level0="binary")
