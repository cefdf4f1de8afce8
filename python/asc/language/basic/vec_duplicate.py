"""`asc.duplicate` (AscendC::Duplicate): fill a tensor with a scalar."""

from __future__ import annotations

from typing import Any

from ..core.checks import usage
from ..core.values import LocalTensor
from .vec_ops import emit


@usage("asc.duplicate(dst, scalar, count)",
       "asc.duplicate(dst, scalar, mask, repeat_times, dst_block_stride, dst_repeat_stride)")
def duplicate(dst: LocalTensor, scalar: Any, *args: Any, **kwargs: Any) -> None:
    """`duplicate(dst, scalar, count)`: dst[i] = scalar for i < count; or the level-0 form
    `duplicate(dst, scalar, mask, repeat_times, dst_block_stride, dst_repeat_stride)`."""
    emit("asc.duplicate", (dst,), ("dst",), scalar, args, kwargs, level0="duplicate")
