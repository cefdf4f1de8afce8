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
