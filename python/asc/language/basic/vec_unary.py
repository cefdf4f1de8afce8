"""Vector unary instructions: dst = f(src).

Each takes the level-2 (count) form of the Ascend C API or its level-0
form (mask, repeat_times, repeat params; see vec_ops.py).
"""

from __future__ import annotations

from typing import Any

from ..core.checks import usage
from ..core.values import LocalTensor
from .vec_ops import NO_SCALAR, emit


@usage("asc.relu(dst, src, count)",
       "asc.relu(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def relu(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """max(x, 0). `relu(dst, src, count)`."""
    emit("asc.relu", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.exp(dst, src, count)",
       "asc.exp(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def exp(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """e ** x. `exp(dst, src, count)`."""
    emit("asc.exp", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.ln(dst, src, count)",
       "asc.ln(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def ln(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Natural logarithm. `ln(dst, src, count)`."""
    emit("asc.ln", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.abs(dst, src, count)",
       "asc.abs(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def abs(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Absolute value. `abs(dst, src, count)`."""
    emit("asc.abs", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.sqrt(dst, src, count)",
       "asc.sqrt(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def sqrt(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """Square root. `sqrt(dst, src, count)`."""
    emit("asc.sqrt", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.rsqrt(dst, src, count)",
       "asc.rsqrt(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def rsqrt(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """1 / sqrt(x). `rsqrt(dst, src, count)`."""
    emit("asc.rsqrt", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.reciprocal(dst, src, count)",
       "asc.reciprocal(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def reciprocal(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """1 / x. `reciprocal(dst, src, count)`."""
    emit("asc.reciprocal", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")


@usage("asc.bitwise_not(dst, src, count)",
       "asc.bitwise_not(dst, src, mask, repeat_times, asc.UnaryRepeatParams(...))")
def bitwise_not(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """~src elementwise on int16/uint16 (AscendC::Not; named so as not to clash with Python's `not`).
    `bitwise_not(dst, src, count)`."""
    emit("asc.bitwise_not", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, level0="unary")
