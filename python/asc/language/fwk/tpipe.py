"""The framework classes TPipe, TQue and TBuf (`AscendC::TPipe`, ...)."""

from __future__ import annotations

import enum
from typing import Any, Optional

from ...codegen import builder as _b
from ..core.checks import describe, dtype_arg, enum_arg, error, is_ir_handle, no_arguments, usage
from ..core.dtype import DataType
from ..core.enums import TPosition
from ..core.values import IRValue, LocalTensor, int_operand

_VECTOR_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)

# The depth is a template argument (an int in the IR type and in Ascend C).
MAX_TQUE_DEPTH = 2**31 - 1


def _position(pos: Any, api: str) -> TPosition:
    pos = enum_arg(pos, TPosition, api, "pos")
    if pos not in _VECTOR_POSITIONS:
        raise NotImplementedError(f"{api} at TPosition.{pos.name}: only VECIN, VECOUT and VECCALC are "
                                  "supported yet (cube positions come with the matmul API)")
    return pos


def _dtype(dtype: Any, api: str) -> DataType:
    return dtype_arg(dtype, api)


def _handle(handle: Any, cls: str, what: str) -> Any:
    """The IR value of an existing object (internal use), never a user argument."""
    if not is_ir_handle(handle):
        raise no_arguments(cls, what, handle) if cls == "asc.TPipe" else error(
            f"{cls}: `handle` is internal, got {describe(handle)}", f"hint: write {what}")
    return handle


def _local(tensor: Any, api: str) -> LocalTensor:
    if not isinstance(tensor, LocalTensor):
        raise error(f"{api} takes a LocalTensor, got {describe(tensor)}",
                    f"hint: pass the LocalTensor returned by alloc_tensor or deque, e.g. {api.split('.')[-1]}(x_ub)")
    return tensor


class TPipe(IRValue):
    """Manages the local memory of the core: `pipe.init_buffer(...)`."""

    @usage("pipe = asc.TPipe()")
    def __init__(self, handle: Any = None):
        b = _b.current()
        if handle is not None:
            self.handle = _handle(handle, "asc.TPipe", "pipe = asc.TPipe()")
            return
        self.handle = b.create1("asc.tpipe", [], b.type("tpipe"))

    @usage("pipe.init_buffer(que, num, len)", "pipe.init_buffer(buf, len)")
    def init_buffer(self, que: Any = None, num: Any = 0, len: Any = None, buf: Any = None) -> None:  # noqa: A002
        """`init_buffer(que, num, len)`: `num` buffers of `len` bytes for a
        TQue; `init_buffer(buf, num)`: a TBuf of `num` bytes (upstream's
        keyword names, `que=` / `buf=`, work too)."""
        b = _b.current()
        target = buf if buf is not None else que
        if isinstance(target, TBuf):
            size = num if len is None else len
            b.create("asc.tpipe.init_buffer_buf", [self, target, int_operand(size, "len")])
            return
        if not isinstance(target, TQue):
            raise error(f"TPipe.init_buffer takes a TQue or TBuf, got {describe(target)}",
                        "hint: write pipe.init_buffer(que, num, len) or pipe.init_buffer(buf, len)")
        if len is None:
            raise error("TPipe.init_buffer(que, num, len) needs the buffer length in bytes",
                        "hint: write pipe.init_buffer(que, num, len) with len the bytes of one buffer")
        b.create("asc.tpipe.init_buffer_que", [self, target, int_operand(num, "num"), int_operand(len, "len")])


class TQue(IRValue):
    """A queue of local buffers between pipes: `TQue(position, depth)`."""

    @usage("asc.TQue(pos, depth)")
    def __init__(self, pos: Any = TPosition.VECIN, depth: int = 1, handle: Any = None):
        if handle is not None:
            self.handle = _handle(handle, "asc.TQue", "asc.TQue(pos, depth)")
            self.position = TPosition(handle.type.position)
            self.depth = handle.type.depth
            return
        self.position = _position(pos, "asc.TQue")
        if isinstance(depth, (bool, enum.Enum)) or not isinstance(depth, int):
            raise error(f"asc.TQue: `depth` must be a compile-time integer, got {describe(depth)}",
                        "hint: write asc.TQue(asc.TPosition.VECIN, 2) (the depth is a template argument)")
        if not 1 <= depth <= MAX_TQUE_DEPTH:
            raise error(f"asc.TQue: `depth` must be at least 1 (and fit an int), got {depth}",
                        "hint: 1 (single buffering) or 2 (double buffering) are the usual depths")
        self.depth = depth
        b = _b.current()
        self.handle = b.create1("asc.tque", [], b.type("tque", None, int(self.position), depth))

    def alloc_tensor(self, dtype: Any) -> LocalTensor:
        dtype = _dtype(dtype, "TQue.alloc_tensor")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(self.position))
        return LocalTensor(dtype, self.position, handle=b.create1("asc.tque.alloc_tensor", [self], t))

    def enque(self, tensor: LocalTensor) -> None:
        _b.current().create("asc.tque.enque", [self, _local(tensor, "TQue.enque")])

    def deque(self, dtype: Any) -> LocalTensor:
        dtype = _dtype(dtype, "TQue.deque")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(self.position))
        return LocalTensor(dtype, self.position, handle=b.create1("asc.tque.deque", [self], t))

    def free_tensor(self, tensor: LocalTensor) -> None:
        _b.current().create("asc.tque.free_tensor", [self, _local(tensor, "TQue.free_tensor")])


class TBuf(IRValue):
    """A plain local buffer without queue semantics: `TBuf(position)`."""

    @usage("asc.TBuf(pos)")
    def __init__(self, pos: Any = TPosition.VECCALC, handle: Any = None):
        if handle is not None:
            self.handle = _handle(handle, "asc.TBuf", "asc.TBuf(pos)")
            self.position = TPosition(handle.type.position)
            return
        self.position = _position(pos, "asc.TBuf")
        b = _b.current()
        self.handle = b.create1("asc.tbuf", [], b.type("tbuf", None, int(self.position)))

    def get(self, dtype: Any, len: Optional[Any] = None) -> LocalTensor:  # noqa: A002 (upstream name)
        dtype = _dtype(dtype, "TBuf.get")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(self.position))
        operands = [self] if len is None else [self, int_operand(len, "len")]
        return LocalTensor(dtype, self.position, handle=b.create1("asc.tbuf.get", operands, t))


def wrap_framework(handle: Any) -> Any:
    kind = handle.type.kind
    if kind == "tpipe":
        return TPipe(handle)
    if kind == "tque":
        return TQue(handle=handle)
    if kind == "tbuf":
        return TBuf(handle=handle)
    raise TypeError(f"no Python wrapper for IR type {handle.type}")
