"""`asc.scatter` (AscendC::Scatter). The devkit does not offer Scatter on
the Atlas A2 (Ascend910B) cores this package models: a call is a
CompileError that says so (the devkit points to a Gather-based rewrite)."""

from __future__ import annotations

from typing import Any

from ..core.checks import error, usage
from ..core.values import LocalTensor
from .utils import local


@usage("asc.scatter(dst, src, dst_offset, dst_base, count)",
       "asc.scatter(dst, src, dst_offset, dst_base, mask, repeat_times, src_rep_stride)")
def scatter(dst: LocalTensor, src: LocalTensor, dst_offset: LocalTensor, dst_base: Any, *args: Any,
            **kwargs: Any) -> None:
    """`scatter(dst, src, dst_offset, dst_base, count)` or `(..., mask,
    repeat_times, src_rep_stride)`: AscendC::Scatter, which the devkit
    supports on the Ascend 950, Atlas 200I/500 A2 and Atlas inference cores
    but not on the Ascend910B (Atlas A2 training): always a CompileError
    here. Write the scattered result with `asc.gather` from the inverse
    permutation instead."""
    api = "asc.scatter"
    local(dst, api, "dst")
    local(src, api, "src")
    local(dst_offset, api, "dst_offset")
    raise error(f"{api}: AscendC::Scatter is not available on the Ascend910B (the devkit supports it on the "
                "Ascend 950 and Atlas 200I/500 A2 / inference cores only)",
                "hint: gather with the inverse offsets instead: asc.gather(dst, src, src_offset, 0, count)")
