"""The framework classes (`AscendC::TPipe`, `TQueBind`, `TQue`, `TBuf`,
`TBufPool`, `TBufHandle`) and `asc.get_tpipe_ptr()`, with upstream pyasc's
names, signatures and defaults; semantics as the devkit's implementation
(see src/sim/framework.c)."""

from __future__ import annotations

import enum
import weakref
from typing import Any, Optional

from ...codegen import builder as _b
from ..core.checks import describe, dtype_arg, enum_arg, error, is_ir_handle, no_arguments, usage
from ..core.constexpr import ConstExpr
from ..core.dtype import DataType
from ..core.enums import HardEvent, TPosition
from ..core.memory_allocator import claim_style
from ..core.values import IRValue, LocalTensor, Scalar, int_operand

_VECTOR_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)
# family: cube: the positions of the cube core's L1, L0A, L0B, L0C and bias table (arch 2201's GetPhyType)
_CUBE_POSITIONS = (TPosition.A1, TPosition.B1, TPosition.C1, TPosition.A2, TPosition.B2, TPosition.CO1,
                   TPosition.C2)
# the TQueBind(src, dst) pairs of the cube core (the devkit's GetBufferLogicPos): into L1, L1 into L0A / L0B /
# the bias table, L0C out (CO2 is GM on arch 2201: the buffers stay in L0C)
_CUBE_BINDINGS = ((TPosition.GM, TPosition.A1), (TPosition.GM, TPosition.B1), (TPosition.GM, TPosition.C1),
                  (TPosition.A1, TPosition.A2), (TPosition.B1, TPosition.B2), (TPosition.C1, TPosition.C2),
                  (TPosition.CO1, TPosition.CO2))

# The depth is a template argument (an int in the IR type and in Ascend C).
MAX_TQUE_DEPTH = 2**31 - 1


def _const(value: Any) -> Any:
    return ConstExpr.unwrap(value)


def _position(pos: Any, api: str, name: str = "pos", gm: bool = False, cube: bool = False,
              co2: bool = False) -> TPosition:
    """A compile-time TPosition of the vector memories (GM too when `gm`,
    the cube core's memories too when `cube`, CO2 when `co2`)."""
    pos = enum_arg(_const(pos), TPosition, api, name)
    if pos in _VECTOR_POSITIONS or (gm and pos == TPosition.GM) or (cube and pos in _CUBE_POSITIONS) or \
            (co2 and pos == TPosition.CO2):
        return pos
    if pos == TPosition.CO2:
        raise error(f"{api}: TPosition.CO2 is global memory on the Ascend910B (the devkit's GetPhyType), so no "
                    "buffer of local memory can be there",
                    "hint: L0C buffers are at asc.TPosition.CO1; asc.TQueBind(asc.TPosition.CO1, "
                    "asc.TPosition.CO2, depth) is the queue of L0C results")
    if pos in (TPosition.GM, TPosition.MAX):
        raise error(f"{api}: `{name}` cannot be TPosition.{pos.name}",
                    "hint: use a position of local memory: asc.TPosition.VECIN, VECOUT or VECCALC")
    raise NotImplementedError(f"{api} at TPosition.{pos.name}: only VECIN, VECOUT and VECCALC are supported "
                              "here yet (the cube positions are taken by TQue, TQueBind, TBuf and TBufPool)")


def _depth(depth: Any, api: str) -> int:
    depth = _const(depth)
    if isinstance(depth, (bool, enum.Enum)) or not isinstance(depth, int):
        raise error(f"{api}: `depth` must be a compile-time integer, got {describe(depth)}",
                    "hint: write asc.TQue(asc.TPosition.VECIN, 2) (the depth is a template argument)")
    if not 0 <= depth <= MAX_TQUE_DEPTH:
        raise error(f"{api}: `depth` must be at least 0 (and fit an int), got {depth}",
                    "hint: 1 (single buffering) or 2 (double buffering) are the usual depths; 0 makes a queue "
                    "whose tensors are allocated and dequeued in place")
    return depth


def _mask(mask: Any, api: str) -> None:
    mask = _const(mask)
    if mask is not None and mask != 0:
        raise NotImplementedError(f"{api}: `mask` (a TQueConfig) {describe(mask)} is not supported yet; leave it 0")


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


def _forms(api: str, args: tuple, kwargs: dict, names: tuple) -> dict:
    """Binds the arguments of an overloaded method to parameter names (the
    longest form's), positional first."""
    if len(args) > len(names):
        raise error(f"{api} takes at most {len(names)} arguments, got {len(args)}")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in bound or k not in names:
            raise error(f"{api}: unexpected argument `{k}`")
        bound[k] = v
    return bound


def _user_positions(bound: dict, api: str) -> tuple:
    src = _position(bound["src_user_pos"], api, "src_user_pos", gm=True)
    dst = _position(bound["dst_user_pos"], api, "dst_user_pos", gm=True)
    if src == dst == TPosition.GM:
        raise error(f"{api}: src_user_pos and dst_user_pos cannot both be TPosition.GM",
                    "hint: one end of the transfer is local memory (VECIN, VECOUT or VECCALC)")
    return src, dst


# ---- queues -----------------------------------------------------------------------------------------------


class TQueBind(IRValue):
    """Buffers handed from a source position to a destination position, with
    the synchronisation between their pipes (`AscendC::TQueBind<src, dst,
    depth>`). TQue is the usual form; TQueBind(VECIN, VECOUT) passes data
    from MTE2 to MTE3 without the vector unit."""

    position: TPosition
    depth: int
    src: TPosition
    dst: TPosition

    @usage("asc.TQueBind(src, dst, depth)")
    def __init__(self, src: Any = TPosition.VECIN, dst: Any = TPosition.VECIN, depth: Any = 0, mask: Any = 0,
                 handle: Any = None):
        if handle is not None:
            self._adopt(handle, "asc.TQueBind(src, dst, depth)")
            return
        api = "asc.TQueBind"
        src = _position(src, api, "src", gm=True, cube=True, co2=True)
        dst = _position(dst, api, "dst", gm=True, cube=True, co2=True)
        if src == dst == TPosition.GM:
            raise error(f"{api}: src and dst cannot both be TPosition.GM",
                        "hint: a queue holds buffers of local memory: e.g. asc.TQueBind(asc.TPosition.VECIN, "
                        "asc.TPosition.VECOUT, 2)")
        cube = [p for p in (src, dst) if p in _CUBE_POSITIONS or p == TPosition.CO2]
        if cube and (src, dst) not in _CUBE_BINDINGS:
            pairs = ", ".join(f"({a.name}, {b.name})" for a, b in _CUBE_BINDINGS)
            raise error(f"{api}: ({src.name}, {dst.name}) is no data path of the Ascend910B's cube core",
                        f"hint: the cube queues bind {pairs}")
        self.depth = _depth(depth, api)
        _mask(mask, api)
        self.src, self.dst = src, dst
        # the position of its buffers: the devkit's GetPosition(src, dst) on arch 2201 (CO2 is GM there: a
        # queue from CO1 to CO2 holds L0C buffers)
        self.position = src if dst in (TPosition.GM, TPosition.CO2) else dst
        if self.position == TPosition.CO2:
            raise error(f"{api}: TPosition.CO2 is global memory on the Ascend910B (the devkit's GetPhyType), so "
                        "a queue cannot keep its buffers there",
                        "hint: the L0C results' queue is asc.TQueBind(asc.TPosition.CO1, asc.TPosition.CO2, depth) "
                        "(buffers in L0C) or asc.TQue(asc.TPosition.CO1, depth)")
        claim_style("framework", "asc.TQueBind")
        b = _b.current()
        t = b.type("tque", None, int(self.position), self.depth)
        if (src, dst) in ((TPosition.GM, TPosition.VECIN), (TPosition.VECOUT, TPosition.GM)):
            self.handle = b.create1("asc.tque", [], t)  # the binding of a TQue: it is one
        else:
            self._bind_op = True
            self.handle = b.create1("asc.tque_bind", [], t,
                                    {"src": ("TPosition", int(src)), "dst": ("TPosition", int(dst))})

    _bind_op = False  # made by asc.tque_bind: its C++ type is no TQue's

    def device_argument_error(self, fn: str, param: str) -> Optional[Exception]:
        """Why the object cannot be an argument of a device function (None:
        it can). A TQueBind of another binding than a TQue's has the IR type
        of a TQue, which the device function's C++ parameter would get."""
        if not self._bind_op:
            return None
        return error(f"{fn}: argument `{param}` is a TQueBind<{self.src.name}, {self.dst.name}>, which cannot be "
                     "passed to a device function yet (its parameter would be declared as a TQue)",
                     "hint: use the queue in the kernel itself, or pass the tensors it gives")

    def _adopt(self, handle: Any, what: str) -> None:
        self.handle = _handle(handle, type(self).__name__, what)
        self.position = TPosition(handle.type.position)
        self.depth = handle.type.depth
        self.src = TPosition.GM if self.position == TPosition.VECIN else self.position
        self.dst = TPosition.GM if self.position == TPosition.VECOUT else self.position

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.position.name}, {self.depth})"

    def _api(self, name: str) -> str:
        return f"{type(self).__name__}.{name}"

    def _queued(self, name: str) -> None:
        """The devkit refuses these on a queue of depth 0 (static_assert)."""
        if self.depth == 0:
            raise error(f"{self._api(name)} needs a queue of depth >= 1; this one has depth 0",
                        f"hint: give the queue a depth, e.g. asc.TQue(asc.TPosition.{self.position.name}, 2)")

    def _tensor_type(self, dtype: DataType) -> Any:
        return _b.current().type("local_tensor", dtype.name, int(self.position))

    @usage("que.alloc_tensor(dtype)", "que.alloc_tensor(tensor)")
    def alloc_tensor(self, *args: Any, **kwargs: Any) -> Optional[LocalTensor]:
        """`AllocTensor<T>()`: a free buffer of the queue as a LocalTensor of
        `dtype`; `AllocTensor(tensor)` (depth 0): the buffer, into `tensor`."""
        api = self._api("alloc_tensor")
        bound = _forms(api, args, kwargs, ("dtype",) if "tensor" not in kwargs else ("tensor",))
        value = next(iter(bound.values()), None)
        b = _b.current()
        if isinstance(value, LocalTensor):
            if self.depth != 0:
                raise error(f"{api}(tensor) allocates in place, which needs a queue of depth 0 (this one has depth "
                            f"{self.depth})", "hint: write t = que.alloc_tensor(dtype)")
            b.create("asc.tque.alloc_tensor_inplace", [self, value])
            return None
        dtype = _dtype(value, api)
        if self.depth == 0:
            raise error(f"{api}(dtype) needs a queue of depth >= 1; a queue of depth 0 allocates in place",
                        "hint: write t = asc.LocalTensor(dtype) and then que.alloc_tensor(t)")
        h = b.create1("asc.tque.alloc_tensor", [self], self._tensor_type(dtype))
        return LocalTensor(dtype, self.position, handle=h)

    @usage("que.enque(tensor)", "que.enque(tensor, src_user_pos, dst_user_pos)")
    def enque(self, *args: Any, **kwargs: Any) -> None:
        """`EnQue(tensor)`: hands the tensor's buffer to the consumer;
        `EnQue<srcUserPos, dstUserPos>(tensor)` with the pipes of those
        positions."""
        api = self._api("enque")
        bound = _forms(api, args, kwargs, ("tensor", "src_user_pos", "dst_user_pos"))
        tensor = _local(bound.get("tensor"), api)
        b = _b.current()
        if "src_user_pos" in bound or "dst_user_pos" in bound:
            if len(bound) != 3:
                raise error(f"{api}: give both src_user_pos and dst_user_pos",
                            "hint: write que.enque(t, asc.TPosition.GM, asc.TPosition.VECIN)")
            self._queued("enque(tensor, src_user_pos, dst_user_pos)")
            src, dst = _user_positions(bound, api)
            b.create("asc.tque.enque_pos", [self, tensor], attrs={"src_user_pos": ("TPosition", int(src)),
                                                                 "dst_user_pos": ("TPosition", int(dst))})
            return
        b.create("asc.tque.enque", [self, tensor])

    @usage("que.deque(dtype)", "que.deque(tensor)", "que.deque(dtype, src_user_pos, dst_user_pos)")
    def deque(self, *args: Any, **kwargs: Any) -> Optional[LocalTensor]:
        """`DeQue<T>()`: the oldest enqueued buffer as a LocalTensor of
        `dtype`; `DeQue(tensor)` (depth 0): waits for `tensor`'s buffer;
        `DeQue<srcUserPos, dstUserPos, T>()`."""
        api = self._api("deque")
        names = ("tensor",) if "tensor" in kwargs else ("dtype", "src_user_pos", "dst_user_pos")
        bound = _forms(api, args, kwargs, names)
        value = next(iter(bound.values()), None)
        b = _b.current()
        if isinstance(value, LocalTensor):
            if len(bound) > 1:
                raise error(f"{api}(tensor) takes no positions")
            if self.depth != 0:
                raise error(f"{api}(tensor) dequeues in place, which needs a queue of depth 0 (this one has depth "
                            f"{self.depth})", "hint: write t = que.deque(dtype)")
            b.create("asc.tque.deque_inplace", [self, value])
            return None
        dtype = _dtype(value, api)
        self._queued("deque(dtype)")
        if len(bound) > 1:
            if len(bound) != 3:
                raise error(f"{api}: give both src_user_pos and dst_user_pos",
                            "hint: write que.deque(dtype, asc.TPosition.GM, asc.TPosition.VECIN)")
            src, dst = _user_positions(bound, api)
            h = b.create1("asc.tque.deque_pos", [self], self._tensor_type(dtype),
                          {"src_user_pos": ("TPosition", int(src)), "dst_user_pos": ("TPosition", int(dst))})
        else:
            h = b.create1("asc.tque.deque", [self], self._tensor_type(dtype))
        return LocalTensor(dtype, self.position, handle=h)

    def free_tensor(self, tensor: LocalTensor) -> None:
        """`FreeTensor(tensor)`: returns the tensor's buffer to the queue."""
        _b.current().create("asc.tque.free_tensor", [self, _local(tensor, self._api("free_tensor"))])

    def free_all_event(self) -> None:
        """`FreeAllEvent()`: waits for the free events of the queue's
        buffers and gives their event ids back to the TPipe."""
        self._queued("free_all_event")
        _b.current().create("asc.tque.free_all_event", [self])

    def _count(self, name: str, op: str, dtype: DataType) -> Scalar:
        self._queued(name)
        b = _b.current()
        return Scalar(b.create1(op, [self], b.scalar_type(dtype)), dtype)

    def get_tensor_count_in_que(self) -> Scalar:
        """`GetTensorCountInQue()`: how many tensors are enqueued (int32)."""
        from ..core import dtype as dt

        return self._count("get_tensor_count_in_que", "asc.tque.get_tensor_count_in_que", dt.int32)

    def has_idle_buffer(self) -> Scalar:
        """`HasIdleBuffer()`: whether a buffer is free for alloc_tensor (bool)."""
        from ..core import dtype as dt

        return self._count("has_idle_buffer", "asc.tque.has_idle_buffer", dt.bool_)

    def has_tensor_in_que(self) -> Scalar:
        """`HasTensorInQue()`: whether a tensor is enqueued (bool)."""
        from ..core import dtype as dt

        return self._count("has_tensor_in_que", "asc.tque.has_tensor_in_que", dt.bool_)

    def vacant_in_que(self) -> Scalar:
        """`VacantInQue()`: whether another tensor can be enqueued (bool)."""
        from ..core import dtype as dt

        return self._count("vacant_in_que", "asc.tque.vacant_in_que", dt.bool_)

    def init_buf_handle(self, buf_pool: Any, index: Any, buf_handle: Any, cur_pool_addr: Any,
                        len: Any) -> None:  # noqa: A002 (upstream's name)
        """`InitBufHandle(bufPool, index, bufHandle, curPoolAddr, len)`: for
        a custom TBufPool (the devkit's EXTERN_IMPL_BUFPOOL), which pyasc has
        not."""
        raise _custom_pool(self._api("init_buf_handle"))

    def init_start_buf_handle(self, start_buf_handle: Any, num: Any, len: Any) -> None:  # noqa: A002
        """`InitStartBufHandle(startBufHandle, num, len)`: for a custom
        TBufPool (EXTERN_IMPL_BUFPOOL), which pyasc has not."""
        raise _custom_pool(self._api("init_start_buf_handle"))


def _custom_pool(api: str) -> NotImplementedError:
    return NotImplementedError(f"{api} is not supported yet: it hands the buffers of a custom TBufPool (the "
                               "devkit's EXTERN_IMPL_BUFPOOL, whose buffers are asc.TBufHandle values) to a queue, "
                               "and pyasc has no custom TBufPool; use pipe.init_buffer, or an asc.TBufPool's "
                               "init_buffer")


class TQue(TQueBind):
    """A queue of local buffers between pipes: `TQue(position, depth)`
    (`AscendC::TQue<pos, depth>`, the TQueBind GM -> VECIN for VECIN, VECOUT
    -> GM for VECOUT)."""

    @usage("asc.TQue(pos, depth)")
    def __init__(self, pos: Any = TPosition.VECIN, depth: Any = None, mask: Any = 0, handle: Any = None):
        if handle is not None:
            self._adopt(handle, "asc.TQue(pos, depth)")
            return
        self.position = _position(pos, "asc.TQue", cube=True)
        self.depth = 1 if _const(depth) is None else _depth(depth, "asc.TQue")
        _mask(mask, "asc.TQue")
        claim_style("framework", "asc.TQue")
        self.src = TPosition.GM if self.position == TPosition.VECIN else self.position
        self.dst = TPosition.GM if self.position == TPosition.VECOUT else self.position
        b = _b.current()
        self.handle = b.create1("asc.tque", [], b.type("tque", None, int(self.position), self.depth))


class TBuf(TQueBind):
    """A plain local buffer without queue semantics: `TBuf(position)`
    (`AscendC::TBuf<pos>`, a TQueBind<pos, pos, 0>). Its queue methods are
    the devkit's TBuf ones: alloc_tensor and deque give the whole buffer,
    enque and free_tensor do nothing."""

    @usage("asc.TBuf(pos)")
    def __init__(self, pos: Any = None, handle: Any = None):
        if handle is not None:
            self.handle = _handle(handle, "asc.TBuf", "asc.TBuf(pos)")
            self.position = TPosition(handle.type.position)
        else:
            # the devkit's default position is LCM, which is VECCALC
            self.position = TPosition.VECCALC if _const(pos) is None else _position(pos, "asc.TBuf", cube=True)
            claim_style("framework", "asc.TBuf")
            b = _b.current()
            self.handle = b.create1("asc.tbuf", [], b.type("tbuf", None, int(self.position)))
        self.depth = 0
        self.src = self.dst = self.position

    def _no_queue(self, name: str, hint: str) -> Any:
        return error(f"TBuf.{name} is not available: a TBuf has no queue (the devkit's TBuf has no such form)",
                     f"hint: {hint}")

    def _get(self, op: str, dtype: Any, api: str, operands: tuple = ()) -> LocalTensor:
        dtype = _dtype(dtype, api)
        b = _b.current()
        h = b.create1(op, [self, *operands], self._tensor_type(dtype))
        return LocalTensor(dtype, self.position, handle=h)

    @usage("buf.get(dtype)", "buf.get(dtype, len)")
    def get(self, dtype: Any, len: Optional[Any] = None, shape: Any = None) -> LocalTensor:  # noqa: A002
        """`Get<T>()` / `Get<T>(len)`: the buffer (its first `len`
        elements) as a LocalTensor of `dtype`."""
        if shape is not None:
            raise NotImplementedError("TBuf.get(..., shape=...) is not supported yet: tensor shapes come with the "
                                      "issue \"automatic synchronisation and UB allocation\"")
        n = _const(len)
        # (upstream passes no length for a false `len`: get(dtype, 0) is the whole buffer too)
        whole = n is None or (isinstance(n, int) and not isinstance(n, (bool, enum.Enum)) and n == 0)
        operands = () if whole else (int_operand(n, "len"),)
        return self._get("asc.tbuf.get", dtype, "TBuf.get", operands)

    @usage("buf.get_with_offset(size, buf_offset, dtype)")
    def get_with_offset(self, size: Any, buf_offset: Any, dtype: Any) -> LocalTensor:
        """`GetWithOffset<T>(size, bufOffset)`: `size` elements of `dtype`
        from byte `buf_offset` (a multiple of 32) of the buffer."""
        off = _const(buf_offset)
        if isinstance(off, int) and not isinstance(off, bool) and off % 32:
            raise error(f"TBuf.get_with_offset: buf_offset {off} is not a multiple of 32",
                        "hint: LocalTensor addresses are 32-byte aligned: use a multiple of 32 bytes")
        return self._get("asc.tbuf.get_with_offset", dtype, "TBuf.get_with_offset",
                         (int_operand(size, "size"), int_operand(off, "buf_offset")))

    @usage("buf.alloc_tensor(dtype)")
    def alloc_tensor(self, *args: Any, **kwargs: Any) -> Optional[LocalTensor]:
        """`AllocTensor<T>()`: the whole buffer (the devkit's Get<T>())."""
        bound = _forms("TBuf.alloc_tensor", args, kwargs, ("dtype",))
        value = bound.get("dtype")
        if isinstance(value, LocalTensor):
            raise self._no_queue("alloc_tensor(tensor)", "write t = buf.alloc_tensor(dtype) or t = buf.get(dtype)")
        return self._get("asc.tbuf.alloc_tensor", value, "TBuf.alloc_tensor")

    @usage("buf.deque(dtype)")
    def deque(self, *args: Any, **kwargs: Any) -> Optional[LocalTensor]:
        """`DeQue<T>()`: the whole buffer (the devkit's Get<T>())."""
        bound = _forms("TBuf.deque", args, kwargs, ("dtype", "src_user_pos", "dst_user_pos"))
        value = bound.get("dtype")
        if isinstance(value, LocalTensor) or len(bound) > 1:
            raise self._no_queue("deque(tensor) and deque(dtype, src_user_pos, dst_user_pos)",
                                 "write t = buf.deque(dtype) or t = buf.get(dtype)")
        return self._get("asc.tbuf.deque", value, "TBuf.deque")

    @usage("buf.enque(tensor)")
    def enque(self, *args: Any, **kwargs: Any) -> None:
        """`EnQue(tensor)`: nothing (a TBuf has no queue)."""
        bound = _forms("TBuf.enque", args, kwargs, ("tensor", "src_user_pos", "dst_user_pos"))
        if len(bound) > 1:
            raise self._no_queue("enque(tensor, src_user_pos, dst_user_pos)", "write buf.enque(tensor)")
        _b.current().create("asc.tbuf.enque", [self, _local(bound.get("tensor"), "TBuf.enque")])

    def free_tensor(self, tensor: LocalTensor) -> None:
        """`FreeTensor(tensor)`: nothing (a TBuf has no queue)."""
        _b.current().create("asc.tbuf.free_tensor", [self, _local(tensor, "TBuf.free_tensor")])

    def _queued(self, name: str) -> None:
        raise self._no_queue(name, "use a TQue for queue state")

class TBufHandle(IRValue):
    """`AscendC::TBufHandle`: a buffer of a TPipe or TBufPool. Upstream makes
    none from Python code: it is what a custom TBufPool (EXTERN_IMPL_BUFPOOL)
    gives, which pyasc does not offer."""

    def __init__(self, handle: Any = None):
        raise error("asc.TBufHandle cannot be created in a kernel: it is a buffer of a custom TBufPool "
                    "(EXTERN_IMPL_BUFPOOL), which pyasc does not offer",
                    "hint: use pipe.init_buffer(que, num, len) or a TBufPool's init_buffer")


class TBufPool(IRValue):
    """A part of the UB that queues and buffers are carved from, reused by
    the stages of a kernel (`AscendC::TBufPool<pos, bufIDSize>`):
    `pipe.init_buf_pool(pool, len)`, then `pool.init_buffer(que, num, len)`;
    a second pool made with `share_buf=pool` uses the same memory, after
    `pool.reset()`."""

    @usage("asc.TBufPool(pos, buf_id_size)")
    def __init__(self, pos: Any = None, buf_id_size: Any = 4, handle: Any = None):
        if handle is not None:
            raise error("asc.TBufPool: `handle` is internal", "hint: write asc.TBufPool(pos, buf_id_size)")
        if _const(pos) is None:
            raise error("asc.TBufPool needs a position", "hint: write asc.TBufPool(asc.TPosition.VECCALC, 4)")
        self.position = _position(pos, "asc.TBufPool", cube=True)
        n = _const(buf_id_size)
        if isinstance(n, (bool, enum.Enum)) or not isinstance(n, int) or not 1 <= n <= 2**31 - 1:
            raise error(f"asc.TBufPool: `buf_id_size` must be a positive compile-time integer, got {describe(n)}",
                        "hint: the number of buffers the pool can manage, e.g. 4 (the default)")
        self.buf_id_size = n
        claim_style("framework", "asc.TBufPool")
        b = _b.current()
        self.handle = b.create1("asc.tbufpool", [], b.type("tbuf", None, int(self.position)),
                                {"buf_id_size": n})

    def __repr__(self) -> str:
        return f"TBufPool({self.position.name}, {self.buf_id_size})"

    def device_argument_error(self, fn: str, param: str) -> Optional[Exception]:
        """A TBufPool has the IR type of a TBuf (until the IR has one of its
        own), so it cannot be a device function's argument yet."""
        return error(f"{fn}: argument `{param}` is a TBufPool, which cannot be passed to a device function yet "
                     "(its parameter would be declared as a TBuf)",
                     "hint: initialise the pool's queues and buffers in the kernel, and pass those")

    @usage("pool.init_buffer(que, num, len)", "pool.init_buffer(buf, len)")
    def init_buffer(self, *args: Any, **kwargs: Any) -> None:
        """`InitBuffer(que, num, len)` / `InitBuffer(buf, len)`, from the
        pool's memory."""
        _init_buffer(self, "TBufPool.init_buffer", "asc.tbufpool.init_buffer_que", "asc.tbufpool.init_buffer_buf",
                     args, kwargs)

    @usage("pool.init_buf_pool(sub_pool, len)", "pool.init_buf_pool(sub_pool, len, share_buf)")
    def init_buf_pool(self, buf_pool: Any, len: Any = 0, share_buf: Any = None) -> None:  # noqa: A002
        """`InitBufPool(bufPool, len[, shareBuf])`: `len` bytes of this pool
        for `buf_pool`, or the memory of `share_buf`."""
        _init_buf_pool(self, "TBufPool.init_buf_pool", "asc.tbufpool.init_buf_pool", buf_pool, len, share_buf)

    def reset(self) -> None:
        """`Reset()`: ends the pool's use; its buffers stay, and a pool that
        shares its memory may now overwrite them."""
        _b.current().create("asc.tbufpool.reset", [self])


def _pool(value: Any, api: str, name: str) -> TBufPool:
    if not isinstance(value, TBufPool):
        raise error(f"{api}: `{name}` must be an asc.TBufPool, got {describe(value)}",
                    "hint: write pool = asc.TBufPool(asc.TPosition.VECCALC) and pass pool")
    return value


def _init_buf_pool(owner: Any, api: str, op: str, buf_pool: Any, len: Any, share_buf: Any) -> None:  # noqa: A002
    pool = _pool(buf_pool, api, "buf_pool")
    operands = [owner, pool, int_operand(len, "len")]
    if share_buf is not None:
        operands.append(_pool(share_buf, api, "share_buf"))
    if isinstance(owner, TBufPool):
        # the devkit's TBufPool<pos, bufIDSize> reaches into the pools it is given, which only a pool of its
        # own type may (another specialisation's members are private to it): C++ would not compile
        for name, other in (("buf_pool", pool), ("share_buf", share_buf)):
            if other is not None and (other.position, other.buf_id_size) != (owner.position, owner.buf_id_size):
                raise error(f"{api}: `{name}` is a TBufPool({other.position.name}, {other.buf_id_size}), this pool a "
                            f"TBufPool({owner.position.name}, {owner.buf_id_size}); a pool can only carve pools of "
                            "its own position and buf_id_size",
                            f"hint: create the sub-pool as asc.TBufPool(asc.TPosition.{owner.position.name}, "
                            f"{owner.buf_id_size}), or carve it from the TPipe (pipe.init_buf_pool)")
    _b.current().create(op, operands)


def _init_buffer(owner: Any, api: str, que_op: str, buf_op: str, args: tuple, kwargs: dict) -> None:
    """init_buffer(que, num, len) / init_buffer(buf, num) with upstream's
    names (`que=` / `buf=`; for a TBuf upstream calls its length `num`)."""
    kwargs = dict(kwargs)
    target = kwargs.pop("buf", None)
    names = ("que", "num", "len") if target is None else ("num", "len")
    bound = _forms(api, args, kwargs, names)
    if target is None:
        target = bound.pop("que", None)
    b = _b.current()
    if isinstance(target, TBuf):
        size = bound.get("len", bound.get("num"))
        if size is None or ("len" in bound and "num" in bound):
            raise error(f"{api}(buf, len) takes the buffer length in bytes once",
                        "hint: write pipe.init_buffer(buf, len)")
        b.create(buf_op, [owner, target, int_operand(size, "len")])
        return
    if not isinstance(target, TQueBind):
        raise error(f"{api} takes a TQue or TBuf, got {describe(target)}",
                    "hint: write pipe.init_buffer(que, num, len) or pipe.init_buffer(buf, len)")
    if "len" not in bound:
        raise error(f"{api}(que, num, len) needs the buffer length in bytes",
                    "hint: write pipe.init_buffer(que, num, len) with len the bytes of one buffer")
    b.create(que_op, [owner, target, int_operand(bound.get("num", 0), "num"), int_operand(bound["len"], "len")])


# ---- the pipe ------------------------------------------------------------------------------------------------

# the TPipe of each compilation (the devkit allows one per kernel; GetTPipePtr() finds it)
_PIPES: "weakref.WeakKeyDictionary[Any, TPipe]" = weakref.WeakKeyDictionary()


class TPipe(IRValue):
    """Manages the local memory and the event ids of the core
    (`AscendC::TPipe`); a kernel has one."""

    @usage("pipe = asc.TPipe()")
    def __init__(self, handle: Any = None):
        b = _b.current()
        if handle is not None:
            self.handle = _handle(handle, "asc.TPipe", "pipe = asc.TPipe()")
            return
        if b in _PIPES:
            raise error("a kernel has one TPipe: this compilation made one already",
                        "hint: pass the first TPipe on, or get it with asc.get_tpipe_ptr()")
        claim_style("framework", "asc.TPipe")
        self.handle = b.create1("asc.tpipe", [], b.type("tpipe"))
        _PIPES[b] = self

    def init(self) -> None:
        """`Init()`: frees the pipe's memory and event ids (as TPipe() does)."""
        _b.current().create("asc.tpipe.init", [self])

    def destroy(self) -> None:
        """`Destroy()`: waits for the buffers' pending events and for every
        pipe (PipeBarrier<PIPE_ALL>); init() makes the pipe usable again."""
        _b.current().create("asc.tpipe.destroy", [self])

    def reset(self) -> None:
        """`Reset()`: waits for the buffers' pending events, then frees the
        pipe's memory and event ids."""
        _b.current().create("asc.tpipe.reset", [self])

    @usage("pipe.init_buffer(que, num, len)", "pipe.init_buffer(buf, len)")
    def init_buffer(self, *args: Any, **kwargs: Any) -> None:
        """`init_buffer(que, num, len)`: `num` buffers of `len` bytes for a
        TQue; `init_buffer(buf, len)`: a TBuf of `len` bytes (upstream's
        keyword names, `que=` / `buf=` / `num=`, work too)."""
        _init_buffer(self, "TPipe.init_buffer", "asc.tpipe.init_buffer_que", "asc.tpipe.init_buffer_buf", args,
                     kwargs)

    @usage("pipe.init_buf_pool(pool, len)", "pipe.init_buf_pool(pool, len, share_buf)")
    def init_buf_pool(self, buf_pool: Any, len: Any = 0, share_buf: Any = None) -> None:  # noqa: A002
        """`InitBufPool(bufPool, len[, shareBuf])`: `len` bytes of the UB for
        the pool, or the memory of `share_buf`."""
        _init_buf_pool(self, "TPipe.init_buf_pool", "asc.tpipe.init_buf_pool", buf_pool, len, share_buf)

    def _event(self, event: Any, api: str) -> HardEvent:
        ev = enum_arg(_const(event), HardEvent, api, "event")
        return ev

    def _event_id(self, op: str, event: Any, api: str) -> Scalar:
        from ..core import dtype as dt

        ev = self._event(event, api)
        b = _b.current()
        h = b.create1(op, [self], b.scalar_type(dt.int32), {"event": ("HardEvent", int(ev))})
        return Scalar(h, dt.int32)

    @usage("pipe.alloc_event_id(asc.HardEvent.MTE2_V)")
    def alloc_event_id(self, event: Any = HardEvent.V_S) -> Scalar:
        """`AllocEventID<event>()`: takes the lowest free event id of
        `event` (free it with release_event_id)."""
        return self._event_id("asc.tpipe.alloc_event_id", event, "TPipe.alloc_event_id")

    @usage("pipe.fetch_event_id(asc.HardEvent.V_MTE3)")
    def fetch_event_id(self, event: Any = HardEvent.V_S) -> Scalar:
        """`FetchEventID<event>()`: the lowest free event id of `event`,
        without taking it."""
        return self._event_id("asc.tpipe.fetch_event_id", event, "TPipe.fetch_event_id")

    @usage("pipe.release_event_id(id, asc.HardEvent.MTE2_V)")
    def release_event_id(self, id: Any, event: Any = HardEvent.V_S) -> None:  # noqa: A002 (upstream's name)
        """`ReleaseEventID<event>(id)`: gives back an id alloc_event_id took."""
        ev = self._event(event, "TPipe.release_event_id")
        _b.current().create("asc.tpipe.release_event_id", [self, int_operand(id, "id")],
                            attrs={"event": ("HardEvent", int(ev))})

    @usage("pipe.get_base_addr(asc.TPosition.VECIN)")
    def get_base_addr(self, logic_pos: Any = None) -> int:
        """The first address of the memory of `logic_pos`: local-memory
        addresses start at 0 on the AI Core (the devkit's GetBaseAddr, of
        its CPU debug build, returns the host buffer standing for it), so
        this is the compile-time 0."""
        if _const(logic_pos) is None:
            raise error("TPipe.get_base_addr needs a position", "hint: write pipe.get_base_addr(asc.TPosition.VECIN)")
        _position(logic_pos, "TPipe.get_base_addr", "logic_pos", cube=True)
        return 0


def get_tpipe_ptr() -> TPipe:
    """`GetTPipePtr()`: the kernel's TPipe (made by asc.TPipe() before)."""
    b = _b.current()
    if b not in _PIPES:
        raise error("asc.get_tpipe_ptr(): this kernel has made no TPipe yet",
                    "hint: create it first: pipe = asc.TPipe()")
    return TPipe(b.create1("asc.get_tpipe_ptr", [], b.type("tpipe")))


def wrap_framework(handle: Any) -> Any:
    kind = handle.type.kind
    if kind == "tpipe":
        return TPipe(handle)
    if kind == "tque":
        return TQue(handle=handle)
    if kind == "tbuf":
        return TBuf(handle=handle)
    if kind in ("tensor_desc", "list_tensor_desc"):  # family listtensor (a device function's parameter or result)
        from ..basic.list_tensor import ListTensorDesc, TensorDesc
        from ..core import dtype as dt
        if kind == "list_tensor_desc":
            return ListTensorDesc(handle=handle)
        return TensorDesc(dt.from_name(handle.type.dtype), handle=handle)
    raise TypeError(f"no Python wrapper for IR type {handle.type}")
