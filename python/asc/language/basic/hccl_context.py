"""The HCCL context registers: `asc.get_hccl_context(index)` /
`asc.set_hccl_context(index, context)` (AscendC::GetHcclContext<index>() /
SetHcclContext<index>(GM_ADDR), basic_api/kernel_common.h).

Each core holds two context addresses, indices 0 and 1, that collective
communication kernels read. The index is the template argument: a
compile-time integer. For an index above 1 set does nothing and get
returns a null address. The model's launches have no HCCL framework to
fill the registers, so get of an index never set is a null address too;
using it (set_global_buffer then a copy) is a KernelError. The registers
are per block.
"""

from __future__ import annotations

import enum
from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, error, usage
from ..core.constexpr import ConstExpr
from ..core.values import GlobalAddress

_HINT = "hint: the index is the template argument of Get/SetHcclContext<index>: write a constant, 0 or 1"


def _index(api: str, index: Any) -> int:
    index = ConstExpr.unwrap(index)
    if isinstance(index, (bool, enum.Enum)) or not isinstance(index, int):
        raise error(f"{api}: index must be a compile-time integer (a template argument), got {describe(index)}",
                    _HINT)
    if not 0 <= index <= 0xFFFFFFFF:
        raise error(f"{api}: index = {index} is not a uint32_t", _HINT)
    return index


@usage("asc.get_hccl_context(index)")
def get_hccl_context(index: int) -> GlobalAddress:
    """`AscendC::GetHcclContext<index>()`: the HCCL context address (a GlobalAddress of uint8)
    set_hccl_context gave for this index in this block; a null address for an index above 1 or never
    set (a KernelError when used)."""
    i = _index("asc.get_hccl_context", index)
    b = _b.current()
    h = b.create1("asc.get_hccl_context", [], b.type("global_address", dt.uint8.name), attrs={"index": i})
    return GlobalAddress(h, dt.uint8)


@usage("asc.set_hccl_context(index, context)")
def set_hccl_context(index: int, context: GlobalAddress) -> None:
    """`AscendC::SetHcclContext<index>(context)`: stores the GM address `context` (of any element type)
    as the HCCL context `index` of this block; for an index above 1 it does nothing."""
    i = _index("asc.set_hccl_context", index)
    if not isinstance(context, GlobalAddress):
        raise error(f"asc.set_hccl_context: 'context' must be a GlobalAddress (a kernel's array parameter, or "
                    f"get_hccl_context), got {describe(context)}",
                    "hint: write asc.set_hccl_context(0, ctx) with ctx: asc.GlobalAddress a kernel parameter")
    _b.current().create("asc.set_hccl_context", [context], attrs={"index": i})
