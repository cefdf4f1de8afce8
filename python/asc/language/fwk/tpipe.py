"""The framework classes TPipe, TQue and TBuf (`AscendC::TPipe`, ...)."""

from __future__ import annotations

from typing import Any, Optional

from ...codegen import builder as _b
from ..core.dtype import DataType
from ..core.enums import TPosition
from ..core.values import IRValue, LocalTensor, int_operand

_VECTOR_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)


def _position(pos: Any, api: str) -> TPosition:
    try:
        pos = TPosition(pos)
    except ValueError:
        raise TypeError(f"{api}: {pos!r} is not a TPosition") from None
    if pos not in _VECTOR_POSITIONS:
        raise NotImplementedError(f"{api} at TPosition.{pos.name}: only VECIN, VECOUT and VECCALC are "
                                  "supported yet (cube positions come with the matmul API)")
    return pos


def _dtype(dtype: Any, api: str) -> DataType:
    if not isinstance(dtype, DataType):
        raise TypeError(f"{api} takes an element type such as asc.float32, got {dtype!r}")
    return dtype


class TPipe(IRValue):
    """Manages the local memory of the core: `pipe.init_buffer(...)`."""

    def __init__(self, handle: Any = None):
        b = _b.current()
        self.handle = handle if handle is not None else b.create1("asc.tpipe", [], b.type("tpipe"))

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
            raise TypeError(f"init_buffer takes a TQue or TBuf, got {type(target).__name__}")
        if len is None:
            raise TypeError("init_buffer(que, num, len) needs the buffer length in bytes")
        b.create("asc.tpipe.init_buffer_que", [self, target, int_operand(num, "num"), int_operand(len, "len")])


class TQue(IRValue):
    """A queue of local buffers between pipes: `TQue(position, depth)`."""

    def __init__(self, pos: Any = TPosition.VECIN, depth: int = 1, handle: Any = None):
        if handle is not None:
            self.handle = handle
            self.position = TPosition(handle.type.position)
            self.depth = handle.type.depth
            return
        self.position = _position(pos, "asc.TQue")
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise TypeError("asc.TQue depth must be a compile-time integer")
        if depth < 1:
            raise ValueError(f"asc.TQue depth must be at least 1, got {depth}")
        self.depth = depth
        b = _b.current()
        self.handle = b.create1("asc.tque", [], b.type("tque", None, int(self.position), depth))

    def alloc_tensor(self, dtype: Any) -> LocalTensor:
        dtype = _dtype(dtype, "TQue.alloc_tensor")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(self.position))
        return LocalTensor(dtype, self.position, handle=b.create1("asc.tque.alloc_tensor", [self], t))

    def enque(self, tensor: LocalTensor) -> None:
        if not isinstance(tensor, LocalTensor):
            raise TypeError(f"enque takes a LocalTensor, got {type(tensor).__name__}")
        _b.current().create("asc.tque.enque", [self, tensor])

    def deque(self, dtype: Any) -> LocalTensor:
        dtype = _dtype(dtype, "TQue.deque")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(self.position))
        return LocalTensor(dtype, self.position, handle=b.create1("asc.tque.deque", [self], t))

    def free_tensor(self, tensor: LocalTensor) -> None:
        if not isinstance(tensor, LocalTensor):
            raise TypeError(f"free_tensor takes a LocalTensor, got {type(tensor).__name__}")
        _b.current().create("asc.tque.free_tensor", [self, tensor])


class TBuf(IRValue):
    """A plain local buffer without queue semantics: `TBuf(position)`."""

    def __init__(self, pos: Any = TPosition.VECCALC, handle: Any = None):
        if handle is not None:
            self.handle = handle
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
