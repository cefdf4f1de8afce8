"""`asc.brcb` (AscendC::Brcb): each of 8 elements of src fills one 32-byte
block of dst, per repeat (src/sim/gather.c has its semantics)."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import error, got, usage
from ..core.types import BrcbRepeatParams
from ..core.values import LocalTensor, int_operand
from .utils import local


@usage("asc.brcb(dst, src0, repeat_times, asc.BrcbRepeatParams(dst_blk_stride, dst_rep_stride))")
def brcb(dst: LocalTensor, src0: LocalTensor, repeat_times: Any, repeat_params: BrcbRepeatParams) -> None:
    """`brcb(dst, src0, repeat_times, repeat_params)`: for each repeat r and
    block j < 8, the 32-byte block of dst at (r * dst_rep_stride + j *
    dst_blk_stride) * 32 bytes is filled with src0[8 r + j] (a block stride
    of 0 acts as 1). repeat_times is 0 to 255. Element types: int16, uint16,
    float16, bfloat16, int32, uint32, float32 (one for dst and src0)."""
    api = "asc.brcb"
    d, s = local(dst, api, "dst"), local(src0, api, "src0")
    if d.dtype != s.dtype:
        raise error(f"{api}: dst and src0 must have one element type, got {d.dtype.name} and {s.dtype.name}")
    if not isinstance(repeat_params, BrcbRepeatParams):
        raise error(f"{api}: repeat_params must be an asc.BrcbRepeatParams, got {got(repeat_params)}")
    _b.current().create("asc.brcb", [d, s, int_operand(repeat_times, f"{api}: repeat_times"),
                                     repeat_params.to_ir()])
