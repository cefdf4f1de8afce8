"""`asc.data_copy` (AscendC::DataCopy), count form."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.values import GlobalTensor, LocalTensor, int_operand


def data_copy(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """Copies `count` elements between global and local memory.

    GM→UB runs on MTE2, UB→GM on MTE3. `count * sizeof(T)` should be a
    multiple of 32 bytes: otherwise (as on the NPU) the amount moved is
    rounded down to whole 32-byte blocks.
    """
    if "count" in kwargs and not args:
        args = (kwargs.pop("count"),)
    if len(args) != 1 or kwargs:
        raise NotImplementedError("asc.data_copy with DataCopyParams or other parameter forms is not supported "
                                  "yet; use asc.data_copy(dst, src, count)")
    count = int_operand(args[0], "count")
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        op = "asc.data_copy.gm_to_local"
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        op = "asc.data_copy.local_to_gm"
    elif isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        op = "asc.data_copy.local_to_local"
    else:
        raise TypeError(f"asc.data_copy copies GlobalTensor→LocalTensor, LocalTensor→GlobalTensor or "
                        f"LocalTensor→LocalTensor, got {type(dst).__name__} ← {type(src).__name__}")
    if dst.dtype != src.dtype:
        raise TypeError(f"asc.data_copy: dst is {dst.dtype.name} but src is {src.dtype.name}")
    _b.current().create(op, [dst, src, count])
