"""Vector reductions (src/sim/reduce.c has their semantics): ReduceMax,
ReduceMin, ReduceSum of the first `count` elements or, level-0, of
repeat_time repeats under a mask; the per-repeat reductions WholeReduceMax,
WholeReduceMin, WholeReduceSum, RepeatReduceSum, the per-block
BlockReduceMax/Min/Sum and the pairwise PairReduceSum, with upstream
pyasc's signatures. float16 and float32, one type for all tensors."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import ReduceOrder
from ..core.values import LocalTensor, const, int_operand
from .cmpsel_args import bind, flag, int_arg, mask_operands
from .utils import local
from .vec_ops import same_dtype


def _count_form(api: str, args: Tuple[Any, ...], kwargs: Dict[str, Any], index: bool) -> Tuple[Any, Optional[bool]]:
    names = ("count", "cal_index") if index else ("count",)
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


def _is_level0(args: tuple, kwargs: Dict[str, Any]) -> bool:
    if "mask" in kwargs or "repeat_time" in kwargs or "src_rep_stride" in kwargs:
        return True
    return len(args) >= 3 or (bool(args) and isinstance(args[0], (list, tuple))) or (
        len(args) == 2 and type(args[1]) is not bool)


def _emit(op: str, dst: Any, src: Any, tmp: Any, args: tuple, kwargs: Dict[str, Any], index: bool) -> None:
    ts = [local(t, op, n) for t, n in zip((dst, src, tmp), ("dst", "src", "shared_tmp_buffer"))]
    same_dtype(op, ts)
    if _is_level0(args, kwargs):
        names = ("mask", "repeat_time", "src_rep_stride") + (("cal_index",) if index else ())
        form = f"{op}(dst, src, shared_tmp_buffer, mask, repeat_time, src_rep_stride" + (
            ", cal_index=False)" if index else ")")
        p = bind(op, names, {"cal_index": False} if index else {}, args, kwargs, form)
        masks, mode = mask_operands(op, p["mask"], ts[0].dtype)
        ops: list = ts + masks + [int_arg(op, p["repeat_time"], "repeat_time", 0, 255),
                                  int_arg(op, p["src_rep_stride"], "src_rep_stride", 0, 65535)]
        if index:
            ops.append(const(int(flag(op, p["cal_index"], "cal_index")), dt.bool_))
        _b.current().create(op + ".l0", ops, attrs={"mask_mode": mode})
        return
    count, cal_index = _count_form(op, args, kwargs, index)
    operands: list = ts + [int_operand(count, "count")]
    if index:
        operands.append(const(int(bool(cal_index)), dt.bool_))
    _b.current().create(op, operands)


@usage("asc.reduce_max(dst, src, shared_tmp_buffer, count, cal_index=False)",
       "asc.reduce_max(dst, src, shared_tmp_buffer, mask, repeat_time, src_rep_stride, cal_index=False)")
def reduce_max(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The maximum of src[0:count] in dst[0] (AscendC::ReduceMax; half or float, one element type for the three
    tensors). With `cal_index=True` dst[1] holds the index of the maximum (the lowest of equal values) as the
    devkit stores it: the bits of a uint16 (half) or uint32 (float) in dst's type, read it with
    `reinterpret_cast`. `shared_tmp_buffer` is the devkit's work space (its contents are left undefined).
    The level-0 form `(mask, repeat_time, src_rep_stride, cal_index=False)` reduces the enabled elements of
    repeat_time repeats (each 8 contiguous blocks, repeats src_rep_stride blocks apart); its index counts
    256 / sizeof(T) elements a repeat."""
    _emit("asc.reduce_max", dst, src, shared_tmp_buffer, args, kwargs, True)


@usage("asc.reduce_min(dst, src, shared_tmp_buffer, count, cal_index=False)",
       "asc.reduce_min(dst, src, shared_tmp_buffer, mask, repeat_time, src_rep_stride, cal_index=False)")
def reduce_min(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The minimum of src[0:count] in dst[0] and, with `cal_index=True`, its index in dst[1] (AscendC::ReduceMin;
    as `reduce_max`)."""
    _emit("asc.reduce_min", dst, src, shared_tmp_buffer, args, kwargs, True)


@usage("asc.reduce_sum(dst, src, shared_tmp_buffer, count)",
       "asc.reduce_sum(dst, src, shared_tmp_buffer, mask, repeat_time, src_rep_stride)")
def reduce_sum(dst: LocalTensor, src: LocalTensor, shared_tmp_buffer: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The sum of src[0:count] in dst[0] (AscendC::ReduceSum; half or float). As the Ascend910B's devkit does:
    a binary tree of adjacent pairs inside each 256-byte repeat (128 halves, 64 floats), every sum rounded to the
    element type, then the repeats' sums added in order. The level-0 form `(mask, repeat_time, src_rep_stride)`:
    each repeat's tree of its enabled elements, then a tree over those sums (the devkit's two more vcadd)."""
    _emit("asc.reduce_sum", dst, src, shared_tmp_buffer, args, kwargs, False)


_STRIDE = 65535


def _tensors(api: str, dst: Any, src: Any) -> list:
    ts = [local(dst, api, "dst"), local(src, api, "src")]
    same_dtype(api, ts)
    return ts


def _strides(api: str, p: Dict[str, Any], names: Tuple[str, ...]) -> list:
    return [int_arg(api, p[n], n, 0, _STRIDE) for n in names]


def _whole(op: str, dst: Any, src: Any, args: tuple, kwargs: Dict[str, Any], order: bool) -> None:
    ts = _tensors(op, dst, src)
    names = ("mask", "repeat_time", "dst_rep_stride", "src_blk_stride", "src_rep_stride")
    names += ("order",) if order else ("is_set_mask",)
    form = f"{op}(dst, src, mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride" + (
        ", order=asc.ReduceOrder.ORDER_VALUE_INDEX)" if order else ", is_set_mask=True)")
    p = bind(op, names, {"order": ReduceOrder.ORDER_VALUE_INDEX} if order else {"is_set_mask": True},
             args, kwargs, form)
    masks, mode = mask_operands(op, p["mask"], ts[0].dtype)
    ops = ts + masks + [int_arg(op, p["repeat_time"], "repeat_time", 0, 255)]
    ops += _strides(op, p, ("dst_rep_stride", "src_blk_stride", "src_rep_stride"))
    attrs: Dict[str, Any] = {"mask_mode": mode}
    if order:
        attrs["order"] = ("ReduceOrder", enum_arg(p["order"], ReduceOrder, op, "order"))
    elif not flag(op, p["is_set_mask"], "is_set_mask"):
        attrs["is_set_mask"] = 0
    _b.current().create(op, ops, attrs=attrs)


@usage("asc.whole_reduce_max(dst, src, mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride, "
       "order=asc.ReduceOrder.ORDER_VALUE_INDEX)")
def whole_reduce_max(dst: LocalTensor, src: LocalTensor, mask: Any, repeat_time: Any, dst_rep_stride: Any,
                     src_blk_stride: Any, src_rep_stride: Any,
                     order: Optional[ReduceOrder] = ReduceOrder.ORDER_VALUE_INDEX) -> None:
    """The maximum of the enabled elements of each repeat and its index in the repeat (AscendC::WholeReduceMax;
    the lowest index of equal values), repeat r's result at dst + r * dst_rep_stride units: [value, index]
    (ORDER_VALUE_INDEX), [index, value], [value] or [index] (a uint32, 4 bytes), the index the bits of an
    integer in dst's type. Source block b of repeat r is at (r * src_rep_stride + b * src_blk_stride) * 32
    bytes. mask is an int (the leading elements of each repeat) or [mask0, mask1]."""
    _whole("asc.whole_reduce_max", dst, src,
           (mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride, order), {}, True)


@usage("asc.whole_reduce_min(dst, src, mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride, "
       "order=asc.ReduceOrder.ORDER_VALUE_INDEX)")
def whole_reduce_min(dst: LocalTensor, src: LocalTensor, mask: Any, repeat_time: Any, dst_rep_stride: Any,
                     src_blk_stride: Any, src_rep_stride: Any,
                     order: Optional[ReduceOrder] = ReduceOrder.ORDER_VALUE_INDEX) -> None:
    """The minimum of each repeat's enabled elements and its index (AscendC::WholeReduceMin; as
    `whole_reduce_max`)."""
    _whole("asc.whole_reduce_min", dst, src,
           (mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride, order), {}, True)


@usage("asc.whole_reduce_sum(dst, src, mask, repeat_time, dst_rep_stride, src_blk_stride, src_rep_stride, "
       "is_set_mask=True)")
def whole_reduce_sum(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """The sum of each repeat's enabled elements (AscendC::WholeReduceSum: a binary tree of adjacent lanes,
    every sum rounded to T), repeat r's at dst[r * dst_rep_stride]."""
    _whole("asc.whole_reduce_sum", dst, src, args, kwargs, False)


def _by_repeat(op: str, dst: Any, src: Any, args: tuple, kwargs: Dict[str, Any], rep_name: str,
               set_mask: bool) -> None:
    ts = _tensors(op, dst, src)
    names = (rep_name, "mask", "dst_rep_stride", "src_blk_stride", "src_rep_stride")
    names += ("is_set_mask",) if set_mask else ()
    form = f"{op}(dst, src, {rep_name}, mask, dst_rep_stride, src_blk_stride, src_rep_stride" + (
        ", is_set_mask=True)" if set_mask else ")")
    p = bind(op, names, {"is_set_mask": True} if set_mask else {}, args, kwargs, form)
    masks, mode = mask_operands(op, p["mask"], ts[0].dtype)
    ops = ts + [int_arg(op, p[rep_name], rep_name, 0, 255)] + masks
    ops += _strides(op, p, ("dst_rep_stride", "src_blk_stride", "src_rep_stride"))
    attrs: Dict[str, Any] = {"mask_mode": mode}
    if set_mask and not flag(op, p["is_set_mask"], "is_set_mask"):
        attrs["is_set_mask"] = 0
    _b.current().create(op, ops, attrs=attrs)


@usage("asc.block_reduce_max(dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)")
def block_reduce_max(dst: LocalTensor, src: LocalTensor, repeat: Any, mask: Any, dst_rep_stride: Any,
                     src_blk_stride: Any, src_rep_stride: Any) -> None:
    """The maximum of each 32-byte block's enabled elements (AscendC::BlockReduceMax): 8 results a repeat,
    repeat r's at dst[r * dst_rep_stride * 8]; a block with no enabled element leaves its result unwritten."""
    _by_repeat("asc.block_reduce_max", dst, src, (repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride),
               {}, "repeat", False)


@usage("asc.block_reduce_min(dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)")
def block_reduce_min(dst: LocalTensor, src: LocalTensor, repeat: Any, mask: Any, dst_rep_stride: Any,
                     src_blk_stride: Any, src_rep_stride: Any) -> None:
    """The minimum of each block's enabled elements (AscendC::BlockReduceMin; as `block_reduce_max`)."""
    _by_repeat("asc.block_reduce_min", dst, src, (repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride),
               {}, "repeat", False)


@usage("asc.block_reduce_sum(dst, src, repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride)")
def block_reduce_sum(dst: LocalTensor, src: LocalTensor, repeat: Any, mask: Any, dst_rep_stride: Any,
                     src_blk_stride: Any, src_rep_stride: Any) -> None:
    """The sum of each block's enabled elements (AscendC::BlockReduceSum: a binary tree inside the block, every
    sum rounded to T; as `block_reduce_max`)."""
    _by_repeat("asc.block_reduce_sum", dst, src, (repeat, mask, dst_rep_stride, src_blk_stride, src_rep_stride),
               {}, "repeat", False)


@usage("asc.pair_reduce_sum(dst, src, repeat_time, mask, dst_rep_stride, src_blk_stride, src_rep_stride, "
       "is_set_mask=True)")
def pair_reduce_sum(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """dst[j] = src[2j] + src[2j + 1] within each repeat (AscendC::PairReduceSum; a pair with one enabled lane
    gives that lane, none leaves dst[j]), repeat r's 128 bytes at dst + r * dst_rep_stride * 128 bytes."""
    _by_repeat("asc.pair_reduce_sum", dst, src, args, kwargs, "repeat_time", True)


@usage("asc.repeat_reduce_sum(dst, src, repeat_time, mask, dst_blk_stride, src_blk_stride, dst_rep_stride, "
       "src_rep_stride, is_set_mask=True)")
def repeat_reduce_sum(dst: LocalTensor, src: LocalTensor, repeat_time: Any, mask: Any, dst_blk_stride: Any,
                      src_blk_stride: Any, dst_rep_stride: Any, src_rep_stride: Any, is_set_mask: bool = True) -> None:
    """The sum of the leading `mask` elements of each repeat (AscendC::RepeatReduceSum: WholeReduceSum with a
    continuous mask), repeat r's at dst[r * dst_rep_stride]; dst_blk_stride is unused, as in the devkit."""
    api = "asc.repeat_reduce_sum"
    ts = _tensors(api, dst, src)
    if isinstance(mask, bool) or not isinstance(mask, int) and not hasattr(mask, "dtype"):
        raise error(f"{api}: mask must be an int (the elements of each repeat), got {describe(mask)}")
    p = {"dst_blk_stride": dst_blk_stride, "src_blk_stride": src_blk_stride, "dst_rep_stride": dst_rep_stride,
         "src_rep_stride": src_rep_stride}
    ops = ts + [int_arg(api, repeat_time, "repeat_time", 0, 255), int_arg(api, mask, "mask", 0, 2**31 - 1)]
    ops += _strides(api, p, ("dst_blk_stride", "src_blk_stride", "dst_rep_stride", "src_rep_stride"))
    attrs = {} if flag(api, is_set_mask, "is_set_mask") else {"is_set_mask": 0}
    _b.current().create(api, ops, attrs=attrs)
