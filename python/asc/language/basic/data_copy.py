"""`asc.data_copy` (AscendC::DataCopy), count form."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import describe, error, usage
from ..core.values import GlobalTensor, LocalTensor, int_operand

# upstream's keyword names of the forms not implemented yet (DataCopyParams, slices, ...)
_OTHER_FORMS = ("repeat_params", "intri_params", "enhanced_params", "slice_list1", "slice_list2", "dim_value")
_HINT = "hint: write asc.data_copy(dst, src, count) with count the number of elements"


@usage("asc.data_copy(dst, src, count)")
def data_copy(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """Copies `count` elements between global and local memory.

    GM→UB runs on MTE2, UB→GM on MTE3. `count * sizeof(T)` should be a
    multiple of 32 bytes: otherwise (as on the NPU) the amount moved is
    rounded down to whole 32-byte blocks.
    """
    for k in kwargs:
        if k != "count" and k not in _OTHER_FORMS:
            raise error(f"asc.data_copy: unexpected keyword argument `{k}`", _HINT)
    if "count" in kwargs:
        if args:
            raise error("asc.data_copy: `count` is given both by position and by keyword", _HINT)
        args = (kwargs.pop("count"),)
    if kwargs or len(args) != 1:
        # (the DataCopyParams fields by position, slices, ...: upstream's other forms)
        raise NotImplementedError("asc.data_copy with DataCopyParams or other parameter forms is not "
                                  "supported yet; use asc.data_copy(dst, src, count)")
    count = int_operand(args[0], "count")
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        op = "asc.data_copy.gm_to_local"
    elif isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        op = "asc.data_copy.local_to_gm"
    elif isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        op = "asc.data_copy.local_to_local"
    else:
        raise error(f"asc.data_copy copies GlobalTensor→LocalTensor, LocalTensor→GlobalTensor or "
                    f"LocalTensor→LocalTensor, got {type(dst).__name__} ← {type(src).__name__} "
                    f"(dst: {describe(dst)}, src: {describe(src)})",
                    "hint: copy between a GlobalTensor (set_global_buffer) and a LocalTensor (alloc_tensor, "
                    "TBuf.get or asc.LocalTensor): asc.data_copy(x_ub, x_gm, n), asc.data_copy(z_gm, z_ub, n)")
    if dst.dtype != src.dtype:
        raise error(f"asc.data_copy: dst is {dst.dtype.name} but src is {src.dtype.name}",
                    "hint: copy between tensors of one element type; convert in UB with asc.cast")
    _b.current().create(op, [dst, src, count])
