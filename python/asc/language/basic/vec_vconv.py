"""`asc.cast` (AscendC::Cast): element type conversion with a RoundMode.

It takes the level-2 (count) form or the level-0 form (mask, repeat_times,
UnaryRepeatParams). In the level-0 form the mask and the elements per
repeat follow the wider of the two element types (Cast.md); each operand's
strides are in 32-byte blocks of that operand."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import enum_arg, usage
from ..core.enums import RoundMode
from ..core.values import LocalTensor
from .utils import local
from .vec_ops import NO_SCALAR, emit, is_level0, level0_operands


@usage("asc.cast(dst, src, asc.RoundMode.CAST_NONE, count)",
       "asc.cast(dst, src, round_mode, mask, repeat_times, asc.UnaryRepeatParams(...))")
def cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any, **kwargs: Any) -> None:
    """`cast(dst, src, round_mode, count)` converts src's type to dst's;
    `cast(dst, src, round_mode, mask, repeat_times, repeat_params)` is the
    level-0 form."""
    mode = enum_arg(round_mode, RoundMode, "asc.cast", "round_mode")
    attrs = {"round_mode": ("RoundMode", mode)}
    if is_level0(args, kwargs):
        api = "asc.cast"
        d, s = local(dst, api, "dst"), local(src, api, "src")
        wide = d.dtype if d.dtype.sizeof() >= s.dtype.sizeof() else s.dtype
        l0, mask_mode, set_mask = level0_operands(api, "unary", wide, args, kwargs)
        l0_attrs = dict(attrs, mask_mode=mask_mode)
        if not set_mask:
            l0_attrs["is_set_mask"] = 0
        _b.current().create("asc.cast.l0", [d, s] + l0, attrs=l0_attrs)
        return
    emit("asc.cast", (dst, src), ("dst", "src"), NO_SCALAR, args, kwargs, attrs=attrs, check_same=False)
