"""Vector tensor-scalar instructions that accumulate into dst: dst = src * scalar + dst.

The level-2 (count) form of the Ascend C API or its level-0 form (mask,
repeat_times, repeat params; see vec_ops.py).
"""

from __future__ import annotations

from typing import Any

from ..core.checks import usage
from ..core.values import LocalTensor
from .vec_ops import emit


@usage("asc.axpy(dst, src, scalar, count)",
       "asc.axpy(dst, src, scalar, mask, repeat_times, asc.UnaryRepeatParams(...))")
def axpy(dst: LocalTensor, src: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """dst = src * scalar + dst elementwise, rounded once (AscendC::Axpy; half, float, or a float dst with
    half src; the scalar has src's type). `axpy(dst, src, scalar, count)`."""
    emit("asc.axpy", (dst, src), ("dst", "src"), scalar, args, kwargs, check_same=False, level0="unary")
