"""`asc.LocalMemAllocator`: places LocalTensors one after another in local
memory, without a TPipe (the devkit's static-tensor programming).

The allocator is the address of its next tensor, nothing more
(`AscendC::LocalMemAllocator<hard>` holds `head_`, 0 at first, and each
`Alloc<pos, T>(tileSize)` is `LocalTensor<T>(pos, head_, tileSize)` followed
by `head_ += tileSize * sizeof(T)`). So it lives in the front end: the head
is a compile-time integer while the tile sizes are, else a runtime value
computed in the IR, and each alloc is an `asc.LocalTensor(dtype, pos, addr,
tile_size)` (the generated Ascend C constructs the same tensors). As in the
devkit nothing rounds the head up: a tile size that is not a whole number of
32-byte blocks leaves the next tensor misaligned, which the simulator
reports.

An allocator places tensors in one memory, its `hard`: the Unified Buffer
(the default) or, on the cube core, the L1 (A1/B1/C1), L0A (A2), L0B (B2),
L0C (CO1) or the bias table (C2). The fixpipe buffer (Hardware.FIXBUF) has
no TPosition in this API (the devkit's C2PIPE2GM), so it takes no tensors.

The devkit forbids mixing the two programming styles in one kernel
(静态Tensor编程.md, 使用约束和限制: a kernel that places its tensors by address
must not use TPipe, TQue, TQueBind, TBufPool, ...: undefined behaviour; the
TPipe places its buffers from address 0 of each memory too, and keeps event
ids and a stack buffer the static kernel knows nothing of). `claim_style`
makes that a CompileError at the second style's first use (an allocator that
allocates nothing places no tensor and mixes harmlessly).
"""

from __future__ import annotations

import os
import weakref
from typing import Any, Dict, Tuple, Union

from ...codegen import builder as _b
from .checks import describe, dtype_arg, enum_arg, error, usage
from .constexpr import ConstExpr
from .enums import Hardware, TPosition
from .values import LocalTensor, Scalar, int_operand

_UB_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)

# the TPositions of each local memory (arch 2201's GetPhyType)
POSITIONS_OF = {
    Hardware.UB: _UB_POSITIONS,
    Hardware.L1: (TPosition.A1, TPosition.B1, TPosition.C1),
    Hardware.L0A: (TPosition.A2,),
    Hardware.L0B: (TPosition.B2,),
    Hardware.L0C: (TPosition.CO1,),
    Hardware.BIAS: (TPosition.C2,),
}


def memory_of(pos: Any) -> Any:
    """The Hardware a TPosition's buffers are in (None for GM and the others)."""
    return next((h for h, ps in POSITIONS_OF.items() if pos in ps), None)


# per compilation: the first use of each programming style, (api, file, line) by style
_STYLES: "weakref.WeakKeyDictionary[Any, Dict[str, Tuple[str, str, int]]]" = weakref.WeakKeyDictionary()

# what each style is, for the messages
_STYLE_WHAT = {
    "static": "places tensors by address (a static-tensor kernel)",
    "framework": "uses the TPipe framework",
}


def claim_style(style: str, api: str) -> None:
    """Records that the kernel uses programming style `style` through `api`:
    "static" (tensors placed by address: asc.LocalTensor(dtype, pos, addr,
    tile_size), LocalMemAllocator.alloc) or "framework" (TPipe, TQue,
    TQueBind, TBuf, TBufPool, and what is built on them: LocalTensorAuto,
    whose pool is a TBuf of the TPipe, and the high-level APIs that take
    event ids or their temporary from the TPipe). A kernel that already
    used the other style gets a CompileError (静态Tensor编程.md)."""
    b = _b.current()
    file, line, _ = b.loc
    seen = _STYLES.setdefault(b, {})
    seen.setdefault(style, (api, file, line))
    other = "framework" if style == "static" else "static"
    if other not in seen:
        return
    first_api, first_file, first_line = seen[other]
    where = f"line {first_line}" if first_file == file else f"{os.path.basename(first_file)}:{first_line}"
    raise error(f"{api}: this kernel already {_STYLE_WHAT[other]} ({first_api} at {where}); the devkit forbids "
                "mixing static tensors (placed by address: asc.LocalTensor(dtype, pos, addr, tile_size), "
                "LocalMemAllocator) with the framework (TPipe, TQue, TQueBind, TBuf, TBufPool, and what is built on "
                "them: LocalTensorAuto, the high-level APIs that take event ids or UB from the TPipe): the TPipe "
                "places its buffers from address 0 and keeps event ids of its own, undefined behaviour on the NPU "
                "(devkit 静态Tensor编程.md, 使用约束和限制)",
                "hint: write the kernel in one style: either place every tensor by address (and synchronise with "
                "set_flag/wait_flag, ids 0-5), or take every buffer from the TPipe (TQue, TBuf: init_buffer)")


class LocalMemAllocator:
    """`LocalMemAllocator(hard=Hardware.UB)`; `alloc(pos, data_type,
    tile_size)` and `get_cur_addr()`. Not to be mixed with the TPipe
    framework (the devkit forbids it: claim_style)."""

    @usage("allocator = asc.LocalMemAllocator()", "asc.LocalMemAllocator(asc.Hardware.UB)")
    def __init__(self, hard: Any = Hardware.UB):
        hard = enum_arg(ConstExpr.unwrap(hard), Hardware, "asc.LocalMemAllocator", "hard")
        if hard in (Hardware.GM, Hardware.MAX):
            raise error(f"asc.LocalMemAllocator: Hardware.{hard.name} is no local memory",
                        "hint: write asc.LocalMemAllocator() (the Unified Buffer)")
        if hard not in POSITIONS_OF:
            raise error(f"asc.LocalMemAllocator(Hardware.{hard.name}): the fixpipe buffer has no TPosition in this "
                        "API (the devkit's C2PIPE2GM), so no tensor can be placed in it",
                        "hint: allocate in Hardware.UB, L1, L0A, L0B, L0C or BIAS")
        self.hard = hard
        self.head: Union[int, Scalar] = 0
        # the block it is made in: a runtime head computed in a runtime `if` or loop would exist only there
        self._block = _b.current().block

    def __repr__(self) -> str:
        return f"LocalMemAllocator({self.hard.name})"

    def get_cur_addr(self) -> Union[int, Scalar]:
        """`GetCurAddr()`: the address of the next tensor (bytes)."""
        return self.head

    @usage("allocator.alloc(pos, dtype, tile_size)")
    def alloc(self, pos: Any, data_type: Any, tile_size: Any) -> LocalTensor:
        """`Alloc<pos, T>(tileSize)`: `tile_size` elements of `data_type`
        at the current address, which moves on past them."""
        pos = enum_arg(ConstExpr.unwrap(pos), TPosition, "LocalMemAllocator.alloc", "pos")
        if pos not in POSITIONS_OF[self.hard]:
            where = ", ".join(f"asc.TPosition.{p.name}" for p in POSITIONS_OF[self.hard])
            raise error(f"LocalMemAllocator.alloc: TPosition.{pos.name} is not in the {self.hard.name} "
                        f"(this allocator's memory)", f"hint: use {where}")
        dtype = dtype_arg(data_type, "LocalMemAllocator.alloc", "data_type")
        size = ConstExpr.unwrap(tile_size)
        if isinstance(size, bool) or not (isinstance(size, int) or isinstance(size, Scalar)):
            raise error(f"LocalMemAllocator.alloc: `tile_size` must be an integer, got {describe(size)}",
                        "hint: write allocator.alloc(asc.TPosition.VECIN, asc.float32, 256)")
        if isinstance(size, int) and not 0 <= size < 2**32:
            raise error(f"LocalMemAllocator.alloc: `tile_size` {size} is not a uint32_t",
                        "hint: the tile size is a number of elements, at least 0")
        runtime = isinstance(size, Scalar) or isinstance(self.head, Scalar)
        if runtime and _b.current().block is not self._block:
            raise error("LocalMemAllocator.alloc with a runtime address inside a runtime `if` or loop is not "
                        "supported (the address would exist only there)",
                        "hint: allocate the tensors before the loop, or use compile-time tile sizes")
        claim_style("static", "LocalMemAllocator.alloc")
        tensor = LocalTensor(dtype, pos, self.head, size)
        if isinstance(size, int) and isinstance(self.head, int):
            self.head = self.head + size * dtype.sizeof()
        else:
            nbytes = int_operand(size, "tile_size") * dtype.sizeof()
            self.head = nbytes + self.head
        return tensor
