"""`asc.gather_mask` (AscendC::GatherMask) and
`asc.get_gather_mask_remain_count` (AscendC::GetGatherMaskRemainCount):
keep the elements of src0 whose gather-mask bit is set, packed from dst[0];
src/sim/gather.c has the semantics."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import enum_arg, error, got, usage
from ..core.enums import GatherMaskMode
from ..core.types import GatherMaskParams
from ..core.values import LocalTensor, Scalar, const, int_operand
from .utils import local

_NAMES = ("src1_pattern", "reduce_mode", "mask", "params", "gather_mask_mode")
_HINT = "hint: write asc.gather_mask(dst, src0, src1_pattern, reduce_mode, mask, asc.GatherMaskParams(...))"


@usage("asc.gather_mask(dst, src0, src1_pattern, reduce_mode, mask, params)")
def gather_mask(dst: LocalTensor, src0: LocalTensor, *args: Any, **kwargs: Any) -> Scalar:
    """`gather_mask(dst, src0, src1_pattern, reduce_mode, mask, params,
    gather_mask_mode=asc.GatherMaskMode.DEFAULT)`: the elements of src0
    whose gather-mask bit is 1, packed from dst[0]; returns their count (a
    uint64, rsvdCnt), which `get_gather_mask_remain_count()` also reads.
    `src1_pattern` is a built-in pattern 1..7 (1 even elements, 2 odd, 3..6
    the first..fourth of every 4, 7 all) or a tensor of bits (uint16 for
    2-byte data, uint32 for 4-byte data; bit i is element i of a repeat,
    repeat r's bits at r * params.src1_repeat_stride blocks). `reduce_mode`
    False: params.repeat_times repeats of 256 bytes (mask unused); True
    (counter mode): repeat_times repeats of `mask` elements (1 to 2^32 - 1).
    src0's repeat r, block b starts (r * src0_repeat_stride + b *
    src0_block_stride) * 32 bytes in. dst past the kept elements is left as
    it was. Element types: int16, uint16, float16, bfloat16, int32, uint32,
    float32."""
    api = "asc.gather_mask"
    d, s = local(dst, api, "dst"), local(src0, api, "src0")
    if d.dtype != s.dtype:
        raise error(f"{api}: dst and src0 must have one element type, got {d.dtype.name} and {s.dtype.name}")
    if len(args) > len(_NAMES):
        raise error(f"{api}: too many arguments", _HINT)
    p = dict(zip(_NAMES, args))
    for k, v in kwargs.items():
        if k not in _NAMES or k in p:
            raise error(f"{api}: unexpected or repeated argument '{k}'", _HINT)
        p[k] = v
    missing = [n for n in _NAMES[:4] if n not in p]
    if missing:
        raise error(f"{api}: missing argument(s) {', '.join(missing)}", _HINT)
    enum_arg(p.get("gather_mask_mode", GatherMaskMode.DEFAULT), GatherMaskMode, api, "gather_mask_mode")
    params = p["params"]
    if not isinstance(params, GatherMaskParams):
        raise error(f"{api}: params must be an asc.GatherMaskParams, got {got(params)}", _HINT)
    rm = p["reduce_mode"]
    if isinstance(rm, bool):
        reduce = const(int(rm), dt.bool_)
    elif isinstance(rm, Scalar) and rm.dtype == dt.bool_:
        reduce = rm
    else:
        raise error(f"{api}: reduce_mode must be a bool (False: normal mode, True: counter mode), got {got(rm)}",
                    _HINT)
    pattern = p["src1_pattern"]
    if isinstance(pattern, LocalTensor):
        want = dt.uint16 if d.dtype.sizeof() == 2 else dt.uint32
        if pattern.dtype != want:
            raise error(f"{api}: src1_pattern must be a {want.name} tensor for {d.dtype.name} data, "
                        f"got {pattern.dtype.name}")
        op, pat = "asc.gather_mask", pattern
    else:
        if isinstance(pattern, int) and not isinstance(pattern, bool) and not 1 <= pattern <= 7:
            raise error(f"{api}: the built-in src1_pattern is 1 to 7, got {pattern}")
        op, pat = "asc.gather_mask.pattern", int_operand(pattern, f"{api}: src1_pattern")
    mask = int_operand(p["mask"], f"{api}: mask")
    b = _b.current()
    h = b.create1(op, [d, s, pat, reduce, mask, params.to_ir()], b.scalar_type(dt.uint64))
    return Scalar(h, dt.uint64)


@usage("asc.get_gather_mask_remain_count()")
def get_gather_mask_remain_count() -> Scalar:
    """The count of elements the last `gather_mask` of this core kept
    (AscendC::GetGatherMaskRemainCount; a uint64, 0 before any)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_gather_mask_remain_count", [], b.scalar_type(dt.uint64)), dt.uint64)
