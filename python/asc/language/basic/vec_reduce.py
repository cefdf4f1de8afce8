"""Vector reductions of the first `count` elements (the level-2 forms of
AscendC::ReduceMax, ReduceMin, ReduceSum; src/sim/reduce.c has their
semantics). The level-0 forms (mask, repeat_time, src_rep_stride) are not
implemented yet."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, usage
from ..core.values import LocalTensor, const, int_operand
from .utils import local
from .vec_ops import same_dtype


def _count_form(api: str, args: Tuple[Any, ...], kwargs: Dict[str, Any], index: bool) -> Tuple[Any, Optional[bool]]:
    names = ("count", "cal_index") if index else ("count",)
    if len(args) > len(names) or "mask" in kwargs or "repeat_time" in kwargs or "src_rep_stride" in kwargs:
        raise NotImplementedError(f"{api} with mask/repeat_time/src_rep_stride (the level-0 form) is not supported "
                                  f"yet; use the count form: {api}(dst, src, shared_tmp_buffer, count"
                                  + (", cal_index)" if index else ")"))
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{api}: unexpected argument '{k}'")
        if k in bound:
            raise TypeError(f"{api}: argument '{k}' given twice")
        bound[k] = v
    if "count" not in bound:
        raise TypeError(f"{api}: missing argument 'count'")
    cal_index = bound.get("cal_index", False) if index else None
    if index and not isinstance(cal_index, bool):
        raise TypeError(f"{api}: cal_index must be a Python bool (True or False), got {describe(cal_index)}")
    return bound["count"], cal_index


def _emit(op: str, dst: Any, src: Any, tmp: Any, args: tuple, kwargs: Dict[str, Any], index: bool) -> None:
    ts = [local(t, op, n) for t, n in zip((dst, src, tmp), ("dst", "src", "shared_tmp_buffer"))]
    same_dtype(op, ts)
    count, cal_index = _count_form(op, args, kwargs, index)
    operands: list = ts + [int_operand(count, "count")]
    if index:
        operands.append(const(int(bool(cal_index)), dt.bool_))
    _b.current().create(op, operands)


@usage("asc.reduce_max(dst, src, shared_tmp_buffer, count, cal_index=False)")
def reduce_max(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The maximum of src[0:count] in dst[0] (AscendC::ReduceMax; half or float, one element type for the three
    tensors). With `cal_index=True` dst[1] holds the index of the maximum (the lowest of equal values) as the
    devkit stores it: the bits of a uint16 (half) or uint32 (float) in dst's type, read it with
    `reinterpret_cast`. `shared_tmp_buffer` is the devkit's work space (its contents are left undefined)."""
    _emit("asc.reduce_max", dst, src, shared_tmp_buffer, args, kwargs, True)


@usage("asc.reduce_min(dst, src, shared_tmp_buffer, count, cal_index=False)")
def reduce_min(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The minimum of src[0:count] in dst[0] and, with `cal_index=True`, its index in dst[1] (AscendC::ReduceMin;
    as `reduce_max`)."""
    _emit("asc.reduce_min", dst, src, shared_tmp_buffer, args, kwargs, True)


@usage("asc.reduce_sum(dst, src, shared_tmp_buffer, count)")
def reduce_sum(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The sum of src[0:count] in dst[0] (AscendC::ReduceSum; half or float). As the Ascend910B's devkit does:
    a binary tree of adjacent pairs inside each 256-byte repeat (128 halves, 64 floats), every sum rounded to the
    element type, then the repeats' sums added in order."""
    _emit("asc.reduce_sum", dst, src, shared_tmp_buffer, args, kwargs, False)
