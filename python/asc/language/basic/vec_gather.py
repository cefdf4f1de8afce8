"""`asc.gatherb` (AscendC::Gatherb: 32-byte blocks at byte offsets) and
`asc.gather` (AscendC::Gather: elements at byte offsets, in its count and
level-0 forms). Offsets are uint32 tensors of byte offsets; src/sim/gather.c
has the semantics."""

from __future__ import annotations

from typing import Any, Dict, List

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import error, got, usage
from ..core.types import GatherRepeatParams
from ..core.values import LocalTensor, const, int_operand
from .utils import local
from .vec_ops import _u64


def _offsets(t: Any, api: str, name: str) -> LocalTensor:
    o = local(t, api, name)
    if o.dtype != dt.uint32:
        raise error(f"{api}: {name} must be a uint32 tensor of byte offsets, got {o.dtype.name}")
    return o


@usage("asc.gatherb(dst, src0, offset, repeat_times, asc.GatherRepeatParams(dst_blk_stride, dst_rep_stride))")
def gatherb(dst: LocalTensor, src0: LocalTensor, offset: LocalTensor, repeat_times: Any,
            repeat_params: GatherRepeatParams) -> None:
    """`gatherb(dst, src0, offset, repeat_times, repeat_params)`: for each
    repeat r and block j < 8, the 32-byte block of dst at (r *
    dst_rep_stride + j * dst_blk_stride) * 32 bytes is the block at byte
    offset[8 r + j] of src0 (a multiple of 32 inside src0, else a
    KernelError; a block stride of 0 acts as 1). offset is uint32;
    dst and src0 uint16 or uint32 (the Ascend910B's types)."""
    api = "asc.gatherb"
    d, s = local(dst, api, "dst"), local(src0, api, "src0")
    o = _offsets(offset, api, "offset")
    if d.dtype != s.dtype:
        raise error(f"{api}: dst and src0 must have one element type, got {d.dtype.name} and {s.dtype.name}")
    if not isinstance(repeat_params, GatherRepeatParams):
        raise error(f"{api}: repeat_params must be an asc.GatherRepeatParams, got {got(repeat_params)}")
    _b.current().create("asc.gatherb", [d, s, o, int_operand(repeat_times, f"{api}: repeat_times"),
                                        repeat_params.to_ir()])


_HINT = ("hint: write asc.gather(dst, src, src_offset, src_base, count) or "
         "asc.gather(dst, src, src_offset, src_base, mask, repeat_times, dst_rep_stride)")


def _bind(api: str, args: tuple, kwargs: Dict[str, Any]) -> Dict[str, Any]:
    level0 = len(args) > 1 or any(k in kwargs for k in ("mask", "repeat_times", "dst_rep_stride"))
    names = ("mask", "repeat_times", "dst_rep_stride") if level0 else ("count",)
    if len(args) > len(names):
        raise error(f"{api}: too many arguments", _HINT)
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in bound:
            raise error(f"{api}: unexpected or repeated argument '{k}'", _HINT)
        bound[k] = v
    missing = [n for n in names if n not in bound]
    if missing:
        raise error(f"{api}: missing argument(s) {', '.join(missing)}", _HINT)
    return bound


@usage("asc.gather(dst, src, src_offset, src_base, count)",
       "asc.gather(dst, src, src_offset, src_base, mask, repeat_times, dst_rep_stride)")
def gather(dst: LocalTensor, src: LocalTensor, src_offset: LocalTensor, src_base: Any, *args: Any,
           **kwargs: Any) -> None:
    """`gather(dst, src, src_offset, src_base, count)`: dst[i] = the element
    at byte src_base + src_offset[i] of src, for i < count.
    `gather(dst, src, src_offset, src_base, mask, repeat_times,
    dst_rep_stride)`, the level-0 form: repeat r writes the 256 bytes of dst
    at r * dst_rep_stride * 32 bytes, element i from byte src_base +
    src_offset[r * P + i] (P = 256 / sizeof(T)), for the elements the mask
    enables (an int: the first `mask`; a list [mask0, mask1]: bit mode).
    Offsets are uint32 byte offsets, multiples of sizeof(T) inside src (else
    a KernelError). Element types: int16, uint16, float16, bfloat16, int32,
    uint32, float32. The count form issues at most 255 whole repeats and one
    partial one, as the devkit does."""
    api = "asc.gather"
    d, s = local(dst, api, "dst"), local(src, api, "src")
    o = _offsets(src_offset, api, "src_offset")
    if d.dtype != s.dtype:
        raise error(f"{api}: dst and src must have one element type, got {d.dtype.name} and {s.dtype.name}")
    base = int_operand(src_base, f"{api}: src_base")
    p = _bind(api, args, kwargs)
    b = _b.current()
    if "count" in p:
        b.create("asc.gather", [d, s, o, base, int_operand(p["count"], f"{api}: count")])
        return
    per_repeat = 256 // d.dtype.sizeof()
    mask = p["mask"]
    if isinstance(mask, (list, tuple)):
        if not (len(mask) == 2 or (per_repeat <= 64 and len(mask) == 1)):
            raise error(f"{api}: a bit mask is a list [mask0, mask1] of two uint64, got {len(mask)} values")
        ms: List[Any] = [_u64(mask[0], f"{api}: mask[0]"), _u64(mask[1] if len(mask) == 2 else 0, f"{api}: mask[1]")]
        mode = 1
    else:
        if isinstance(mask, int) and not isinstance(mask, bool) and mask < 0:
            raise error(f"{api}: mask = {mask} is negative (the number of elements of each repeat)")
        ms = [_u64(mask, f"{api}: mask"), const(0, dt.uint64)]
        mode = 0
    b.create("asc.gather.l0", [d, s, o, base, *ms, int_operand(p["repeat_times"], f"{api}: repeat_times"),
                               int_operand(p["dst_rep_stride"], f"{api}: dst_rep_stride")],
             attrs={"mask_mode": mode})
