"""The vector mask register: set_vector_mask, set_mask_count, set_mask_norm,
reset_mask (Ascend C basic_api/kernel_common.h).

Each AI Core has one mask register: two 64-bit words (mask_high, mask_low)
and a mode. In normal mode (the default) bit i selects element i of every
repeat of a level-0 instruction (mask_low elements 0-63, mask_high 64-127;
a type of 32 bits has 64 elements a repeat and reads mask_low only). In
counter mode mask_low is the number of elements of the whole instruction:
the repeats are as many as that needs, the last one partial, and
repeat_times is not used. A level-0 instruction writes its own mask into
the register unless it is called with is_set_mask=False; a count (level-2)
instruction leaves the register all ones in normal mode.
"""

from __future__ import annotations

import enum
from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import MaskMode  # type: ignore[attr-defined]
from ..core.values import Scalar, const, int_operand

_API = "asc.set_vector_mask"


def _u64(x: Any, what: str) -> Scalar:
    if isinstance(x, (bool, enum.Enum)) or not isinstance(x, (int, Scalar)):
        raise error(f"{_API}: {what} must be an integer, got {describe(x)}")
    if isinstance(x, int):
        if not 0 <= x < 2**64:
            raise error(f"{_API}: {what} = {x} does not fit uint64 (0 to 2**64 - 1)")
        return const(x, dt.uint64)
    return int_operand(x, f"{_API}: {what}")


@usage("asc.set_vector_mask(length, dtype=asc.float16, mode=asc.MaskMode.NORMAL)",
       "asc.set_vector_mask(mask_high, mask_low, dtype=asc.float16, mode=asc.MaskMode.NORMAL)")
def set_vector_mask(*args: Any, dtype: Any = None, mode: Any = MaskMode.NORMAL) -> None:  # type: ignore[name-defined]
    """`AscendC::SetVectorMask<T, mode>`: sets the mask register for the
    level-0 instructions called with is_set_mask=False.

    `set_vector_mask(mask_high, mask_low, dtype=..., mode=...)` writes the
    two words (normal mode: a bit per element of a repeat; counter mode:
    mask_low is the element count, mask_high should be 0);
    `set_vector_mask(length, dtype=..., mode=...)` in normal mode selects
    the leading `length` elements of each repeat of `dtype` (more than a
    repeat holds: all of them), in counter mode counts `length` elements.
    `mode` is the template argument: it does not switch the register's mode
    (set_mask_count / set_mask_norm do)."""
    if not isinstance(dtype, dt.DataType):
        raise error(f"{_API}: `dtype` must be an asc data type (asc.float16, ...), got {describe(dtype)}")
    m = enum_arg(mode, MaskMode, _API, "mode")
    b = _b.current()
    attrs = {"dtype": [b.scalar_type(dtype)], "mode": ("MaskMode", m)}
    if len(args) == 1:
        length = args[0]
        if isinstance(length, (bool, enum.Enum)) or not isinstance(length, (int, Scalar)):
            raise error(f"{_API}: length must be an integer, got {describe(length)}")
        if isinstance(length, int) and not 0 <= length < 2**31:
            raise error(f"{_API}: length = {length} is out of range [0, 2**31 - 1] (an int32_t element count)")
        b.create("asc.set_vector_mask.len", [int_operand(length, f"{_API}: length")], attrs=attrs)
    elif len(args) == 2:
        b.create("asc.set_vector_mask", [_u64(args[0], "mask_high"), _u64(args[1], "mask_low")], attrs=attrs)
    else:
        raise error(f"{_API}: takes (length) or (mask_high, mask_low) before dtype= and mode=, "
                    f"got {len(args)} positional arguments")


@usage("asc.set_mask_count()")
def set_mask_count() -> None:
    """`AscendC::SetMaskCount`: the mask register counts the elements of an
    instruction (mask_low) until set_mask_norm."""
    _b.current().create("asc.set_mask_count", [])


@usage("asc.set_mask_norm()")
def set_mask_norm() -> None:
    """`AscendC::SetMaskNorm`: the mask register selects elements of each
    repeat (the default mode)."""
    _b.current().create("asc.set_mask_norm", [])


@usage("asc.reset_mask()")
def reset_mask() -> None:
    """`AscendC::ResetMask`: sets both words of the mask register to all ones."""
    _b.current().create("asc.reset_mask", [])


# ---- system family: workspace, SoC state, data cache preload, local-memory checks -------------------------------

@usage("asc.data_cache_preload(src, cache_offset)")
def data_cache_preload(src: Any, cache_offset: Any) -> None:
    """`AscendC::DataCachePreload(src, cacheOffset)`: preloads the cache line at src + cache_offset (src a
    GlobalTensor of uint64). The model has no data cache: nothing changes."""
    from ..core.checks import got
    from ..core.values import GlobalTensor

    api = "asc.data_cache_preload"
    if not isinstance(src, GlobalTensor):
        raise error(f"{api}: 'src' must be a GlobalTensor of uint64, got {got(src)}")
    if src.dtype != dt.uint64:
        raise error(f"{api}: 'src' must hold uint64 (the devkit's GlobalTensor<uint64_t>), got {src.dtype.name}")
    _b.current().create("asc.data_cache_preload", [src, int_operand(cache_offset, f"{api}: cache_offset")])


@usage("asc.init_soc_state()")
def init_soc_state() -> None:
    """`AscendC::InitSocState()`: resets the SoC state registers a previous kernel may have left (atomic modes,
    masks) to their defaults. Every block of the model starts from that state already."""
    _b.current().create("asc.init_soc_state", [])


@usage("asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam(...))")
def check_local_memory_ia(check_params: Any) -> None:
    """`AscendC::CheckLocalMemoryIA(checkParams)`: arms exception register `enable_bit` (0-3) of the block
    to check the UB accesses of the kinds it enables (scalar / vector / MTE reads and writes) inside the
    32-byte blocks (start_addr, end_addr] (start excluded, end included); such an access then raises the
    core's exception, here a KernelError at the access. `is_enable=False` resets the register."""
    from ..core.types import ParamStruct

    if not isinstance(check_params, ParamStruct) or type(check_params).__name__ != "CheckLocalMemoryIAParam":
        raise error(f"asc.check_local_memory_ia: 'check_params' must be an asc.CheckLocalMemoryIAParam, "
                    f"got {describe(check_params)}")
    _b.current().create("asc.check_local_memory_ia", [check_params.to_ir()])


@usage("asc.get_sys_workspace()")
def get_sys_workspace() -> Any:
    """`AscendC::GetSysWorkSpacePtr()`: the system workspace (a GlobalAddress of uint8) that
    set_sys_workspace gave. The model's launches have no framework-given workspace: calling it before
    set_sys_workspace is a KernelError."""
    from ..core.values import GlobalAddress

    b = _b.current()
    return GlobalAddress(b.create1("asc.get_sys_workspace", [], b.type("global_address", dt.uint8.name)), dt.uint8)


@usage("asc.set_sys_workspace(workspace)")
def set_sys_workspace(workspace: Any) -> None:
    """`AscendC::SetSysWorkspace(workspace)`: sets the system workspace (a kernel's GlobalAddress) that
    get_sys_workspace returns, for this block."""
    from ..core.values import GlobalAddress

    if not isinstance(workspace, GlobalAddress):
        raise error(f"asc.set_sys_workspace: 'workspace' must be a GlobalAddress (a kernel's array parameter), "
                    f"got {describe(workspace)}")
    _b.current().create("asc.set_sys_workspace", [workspace])
