"""Runtime values inside a kernel: scalars, global addresses and tensors.

Each wraps an IR value (`handle`) of the kernel being compiled. Python
numbers stay Python numbers (folded at compile time) until an operation
with a runtime value needs them in the IR; then they become constants.
"""

from __future__ import annotations

import enum
from typing import Any, Dict, Optional, Tuple, Union

from ...codegen import builder as _b
from . import dtype as dt
from .checks import describe, dtype_arg, enum_arg, error, is_ir_handle, no_arguments, usage
from .constexpr import ConstExpr
from .dtype import DataType
from .enums import CacheMode, CacheRwMode, TPosition

Number = Union[int, float, bool]


def _enum(kind: str, value: Any) -> tuple:
    return (kind, int(value))


def ir_type_of(dtype: DataType) -> Any:
    return _b.current().scalar_type(dtype)


def dtype_of_ir(t: Any) -> DataType:
    return dt.from_name(t.dtype)


class IRValue:
    """Base of everything that wraps an IR value."""

    handle: Any

    def to_ir(self) -> Any:
        return self.handle


def default_dtype(value: Number) -> DataType:
    if isinstance(value, bool):
        return dt.bool_
    if isinstance(value, int):
        return dt.int32 if -(2**31) <= value < 2**31 else dt.int64
    return dt.float32


def int_fits(value: int, dtype: DataType) -> bool:
    """True if the integer value lies in the range of dtype."""
    if dtype == dt.bool_:
        return value in (0, 1)
    bits = dtype.bitwidth or 0
    if dtype.is_unsigned():
        return 0 <= value < 2**bits
    return -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)


def literal_dtype(value: Number, other: DataType) -> DataType:
    """The type a Python number takes in an operation with a runtime value
    of type `other`: other's type when the number fits it (so `x + 1` stays
    in x's type), a float type for a float, else the default type of the
    number (so `n + 2**40` is computed in int64, as Python would)."""
    if isinstance(value, float):
        return other if other.is_float() else dt.float32
    if other.is_float():
        return other
    if other != dt.bool_ and not isinstance(value, bool) and int_fits(int(value), other):
        return other
    return default_dtype(value)


def const(value: Number, dtype: Optional[DataType] = None) -> "Scalar":
    """Materialises a Python number as an IR constant."""
    dtype = dtype or default_dtype(value)
    b = _b.current()
    if dtype.is_float():
        attr: Any = (float(value), b.scalar_type(dtype))
    else:
        if isinstance(value, float):
            raise TypeError(f"cannot use the float {value!r} as an {dtype.name}")
        iv = int(value)
        if dtype == dt.bool_:
            iv = int(bool(iv))
        elif not (-(2 ** (dtype.bitwidth - 1)) <= iv < 2**dtype.bitwidth):
            # (a negative number for an unsigned type, or an unsigned bit pattern for a signed
            # type, converts as in C; anything wider does not fit)
            raise OverflowError(f"the integer {iv} does not fit {dtype.name}")
        attr = (iv, b.scalar_type(dtype))
    h = b.create1("arith.constant", [], b.scalar_type(dtype), {"value": attr})
    return Scalar(h, dtype)


def is_number(x: Any) -> bool:
    # an enum member (asc.TPosition.VECIN, an IntEnum) names a choice: it is no number
    return isinstance(x, (bool, int, float)) and not isinstance(x, (IRValue, enum.Enum))


def promote(a: DataType, b: DataType) -> DataType:
    """The type of a binary operation's result (C-like rules)."""
    if a == b:
        return a
    if a.is_float() or b.is_float():
        if a.is_float() and b.is_float():
            if a.sizeof() != b.sizeof():
                return a if a.sizeof() > b.sizeof() else b
            return dt.float32  # float16 with bfloat16
        return a if a.is_float() else b
    if a == dt.bool_:
        return b
    if b == dt.bool_:
        return a
    if a.sizeof() != b.sizeof():
        return a if a.sizeof() > b.sizeof() else b
    return a if a.is_unsigned() else b


def to_scalar(x: Any, dtype: Optional[DataType] = None) -> "Scalar":
    """A Scalar of the given dtype (converting if needed)."""
    if isinstance(x, Scalar):
        return x if dtype is None or x.dtype == dtype else x.cast(dtype)
    if is_number(x):
        return const(x, dtype)
    raise TypeError(f"expected a number or a runtime scalar, got {describe(x)}")


def cast_scalar(value: Any, dtype: DataType) -> Any:
    if is_number(value):
        if not _b.in_jit():
            raise TypeError(f"asc.{dtype.name}(...) converts values inside a kernel only")
        return const(value if dtype.is_float() else int(value), dtype)
    if isinstance(value, Scalar):
        return value.cast(dtype)
    raise error(f"asc.{dtype.name}(...) converts a number or a runtime scalar, not {describe(value)}",
                f"hint: write asc.{dtype.name}(x) with x a number or a scalar (a tensor element is "
                "t.get_value(i))")


_ARITH = {
    "+": "arith.add", "-": "arith.sub", "*": "arith.mul", "/": "arith.div", "//": "arith.div",
    "%": "arith.rem", "&": "arith.and", "|": "arith.or", "^": "arith.xor", "<<": "arith.shl",
    ">>": "arith.shr",
}
_CMP = {"==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5}
_INT_ONLY = {"%", "&", "|", "^", "<<", ">>"}


def binary(op: str, a: Any, b: Any) -> Any:
    """a OP b where at least one side is a runtime Scalar."""
    ta = a.dtype if isinstance(a, Scalar) else None
    tb = b.dtype if isinstance(b, Scalar) else None
    if ta is None and tb is None:
        raise TypeError("binary() needs a runtime operand")
    if ta is None:
        ta = literal_dtype(a, tb)
    if tb is None:
        tb = literal_dtype(b, ta)
    rt = promote(ta, tb)
    if op in _CMP:
        sa, sb = to_scalar(a, rt), to_scalar(b, rt)
        bl = _b.current()
        h = bl.create1("arith.cmp", [sa, sb], bl.scalar_type(dt.bool_), {"predicate": ("CmpPredicate", _CMP[op])})
        return Scalar(h, dt.bool_)
    if op in _INT_ONLY and rt.is_float():
        raise TypeError(f"operator {op} is not defined on {rt.name} values")
    if op == "//" and rt.is_float():
        raise TypeError("floor division of floats is not supported in kernels; use / and asc.int32(...)")
    if op == "/" and not rt.is_float():
        rt = dt.float32
    sa, sb = to_scalar(a, rt), to_scalar(b, rt)
    bl = _b.current()
    return Scalar(bl.create1(_ARITH[op], [sa, sb], bl.scalar_type(rt)), rt)


class Scalar(IRValue):
    """A scalar computed while the kernel runs (a RuntimeInt / RuntimeFloat)."""

    def __init__(self, handle: Any, dtype: DataType):
        self.handle = handle
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"Scalar({self.dtype.name})"

    def cast(self, dtype: DataType) -> "Scalar":
        if dtype == self.dtype:
            return self
        b = _b.current()
        return Scalar(b.create1("arith.cast", [self], b.scalar_type(dtype)), dtype)

    # family: host -- upstream's RuntimeInt.ceildiv (tiling.m.ceildiv(tiling.single_core_m))
    def ceildiv(self, other: Any) -> Any:
        """(self + other - 1) // other, as asc.ceildiv(self, other)."""
        from .utils import ceildiv

        return ceildiv(self, other)

    def __bool__(self) -> bool:
        raise TypeError("a runtime value has no truth value at compile time; use it in `if`/`while` "
                        "of the kernel, not in Python code that runs while compiling")

    def __index__(self) -> int:
        raise TypeError("a runtime value cannot be used where a compile-time integer is needed")

    def _un(self, name: str) -> "Scalar":
        b = _b.current()
        rt = dt.bool_ if name == "arith.not" else self.dtype
        return Scalar(b.create1(name, [self], b.scalar_type(rt)), rt)

    def __neg__(self) -> "Scalar":
        return self._un("arith.neg")

    def __pos__(self) -> "Scalar":
        return self

    def __invert__(self) -> "Scalar":
        if self.dtype.is_float():
            raise TypeError("~ is not defined on float values")
        return self._un("arith.invert")

    def logical_not(self) -> "Scalar":
        return self._un("arith.not")


def _make(op: str):
    def fwd(self: Scalar, other: Any) -> Any:
        if not (isinstance(other, Scalar) or is_number(other)):
            return NotImplemented
        return binary(op, self, other)

    def rev(self: Scalar, other: Any) -> Any:
        if not is_number(other):
            return NotImplemented
        return binary(op, other, self)

    return fwd, rev


for _op, _name in [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"), ("//", "floordiv"),
                   ("%", "mod"), ("&", "and"), ("|", "or"), ("^", "xor"), ("<<", "lshift"), (">>", "rshift")]:
    _f, _r = _make(_op)
    setattr(Scalar, f"__{_name}__", _f)
    setattr(Scalar, f"__r{_name}__", _r)
for _op, _name in [("==", "eq"), ("!=", "ne"), ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")]:
    setattr(Scalar, f"__{_name}__", _make(_op)[0])
Scalar.__hash__ = object.__hash__  # type: ignore[assignment]


def int_operand(x: Any, what: str) -> Scalar:
    """A runtime integer operand (count, offset, index, event id...)."""
    if isinstance(x, bool):
        raise TypeError(f"{what} must be an integer, got bool")
    if isinstance(x, int) and not isinstance(x, enum.Enum):
        return const(x)
    if isinstance(x, Scalar):
        if not x.dtype.is_int():
            raise TypeError(f"{what} must be an integer, got a runtime {x.dtype.name} value")
        return x
    raise TypeError(f"{what} must be an integer, got {describe(x)}")


class GlobalAddress(IRValue):
    """A pointer to global memory: a kernel's tensor argument."""

    def __init__(self, handle: Any, dtype: DataType):
        if not is_ir_handle(handle) or not isinstance(dtype, DataType):
            # user code calling asc.GlobalAddress(...) (it is only an annotation)
            raise error("asc.GlobalAddress cannot be created in a kernel: it is the annotation of a kernel's "
                        "array parameters", "hint: annotate a kernel parameter `x: asc.GlobalAddress` and "
                        "pass an array at the launch; offset it with x + n")
        self.handle = handle
        self.dtype = dtype

    def __repr__(self) -> str:
        return f"GlobalAddress({self.dtype.name})"

    def __add__(self, offset: Any) -> "GlobalAddress":
        off = int_operand(offset, "an address offset")
        b = _b.current()
        return GlobalAddress(b.create1("asc.global_address.offset", [self, off], self.handle.type), self.dtype)

    __radd__ = __add__


def _offset_of(index: Any, cls: str) -> Scalar:
    if isinstance(index, slice):
        if index.stop is not None or index.step is not None:
            raise error(f"{cls} slices take a start only", "hint: write t[start:] (the view from element start on)")
        index = 0 if index.start is None else index.start
    if isinstance(index, tuple):
        raise error(f"a {cls} has one dimension: it cannot be indexed by {describe(index)}",
                    "hint: write t[offset:] or t(offset) with one integer offset")
    return int_operand(index, f"a {cls} offset")


class GlobalTensor(IRValue):
    """A view of global memory (`AscendC::GlobalTensor<T>`).

    `asc.GlobalTensor()` creates an empty tensor; its element type comes
    from the address passed to `set_global_buffer`.
    """

    @usage("asc.GlobalTensor() and then g.set_global_buffer(address[, size])")
    def __init__(self, handle: Any = None, dtype: Optional[DataType] = None):
        if handle is not None and not (is_ir_handle(handle) and isinstance(dtype, DataType)):
            raise no_arguments("asc.GlobalTensor", "g = asc.GlobalTensor() and then g.set_global_buffer(x) with x "
                               "a kernel's asc.GlobalAddress parameter", handle)
        if handle is None and dtype is not None:
            raise no_arguments("asc.GlobalTensor", "g = asc.GlobalTensor() and then g.set_global_buffer(x); the "
                               "element type comes from the address", dtype)
        self.handle = handle
        self._dtype = dtype
        # the block it is created in: its IR value is made by set_global_buffer and must be visible
        # wherever the Python variable is (the visitor keeps one block object per region)
        self._block = _b.current().block

    @property
    def dtype(self) -> DataType:
        if self._dtype is None:
            raise error("this GlobalTensor has no element type yet: call set_global_buffer first",
                        "hint: write g.set_global_buffer(x) (x: a kernel's asc.GlobalAddress parameter) before "
                        "using g")
        return self._dtype

    def __repr__(self) -> str:
        return f"GlobalTensor({self._dtype.name if self._dtype else '?'})"

    def _require(self) -> Any:
        if self.handle is None:
            raise error("GlobalTensor used before set_global_buffer",
                        "hint: write g.set_global_buffer(x) (x: a kernel's asc.GlobalAddress parameter) before "
                        "using g")
        return self.handle

    def set_global_buffer(self, buffer: Optional[GlobalAddress] = None, buffer_size: Any = None) -> None:
        """`SetGlobalBuffer(buffer[, bufferSize])`: the tensor views global
        memory from `buffer` on (a kernel's GlobalAddress parameter, offset
        or not), `buffer_size` elements long (its get_size())."""
        if not isinstance(buffer, GlobalAddress):
            raise error(f"set_global_buffer takes a GlobalAddress (a kernel's tensor argument), "
                        f"got {describe(buffer)}", "hint: write g.set_global_buffer(x) or g.set_global_buffer(x + "
                        "offset, size) with x a kernel parameter annotated asc.GlobalAddress")
        b = _b.current()
        if self.handle is None and b.block is not self._block:
            raise error("the first set_global_buffer of a GlobalTensor must be in the block that creates it, not "
                        "inside a runtime `if` or loop (the tensor would exist only there)",
                        "hint: call g.set_global_buffer(x) right after g = asc.GlobalTensor(); later calls (to "
                        "move the view) may be anywhere")
        if self.handle is None:
            self._dtype = buffer.dtype
            self.handle = b.create1("asc.global_tensor", [], b.type("global_tensor", buffer.dtype.name))
            self.handle.name = getattr(self, "name_hint", None)
        elif self._dtype != buffer.dtype:
            raise TypeError(f"this GlobalTensor holds {self._dtype.name}, the buffer is {buffer.dtype.name}")
        operands = [self, buffer]
        if buffer_size is not None:
            operands.append(int_operand(buffer_size, "buffer_size"))
        b.create("asc.global_tensor.set_global_buffer", operands)

    def __getitem__(self, index: Any) -> "GlobalTensor":
        off = _offset_of(index, "GlobalTensor")
        b = _b.current()
        h = b.create1("asc.global_tensor.offset", [self._require(), off], self.handle.type)
        return GlobalTensor(h, self.dtype)

    __call__ = __getitem__

    def get_value(self, offset: Any) -> Scalar:
        b = _b.current()
        h = b.create1("asc.global_tensor.get_value", [self._require(), int_operand(offset, "offset")],
                      b.scalar_type(self.dtype))
        return Scalar(h, self.dtype)

    def set_value(self, offset: Any, value: Any) -> None:
        b = _b.current()
        b.create("asc.global_tensor.set_value",
                 [self._require(), int_operand(offset, "offset"), element_value(value, self.dtype, "GlobalTensor")])

    @usage("g.get_phy_addr()", "g.get_phy_addr(offset)")
    def get_phy_addr(self, offset: Any = 0) -> GlobalAddress:
        """`GetPhyAddr(offset)`: the global address of element `offset` of
        the tensor (a GlobalAddress, as a kernel's array parameter is)."""
        b = _b.current()
        h = b.create1("asc.global_tensor.get_phy_addr", [self._require(), int_operand(offset, "offset")],
                      b.type("global_address", self.dtype.name))
        return GlobalAddress(h, self.dtype)

    def get_size(self) -> Scalar:
        """`GetSize()`: the size given to set_global_buffer, in elements
        (a uint64; views keep it; 0 when set_global_buffer had no size)."""
        b = _b.current()
        h = b.create1("asc.global_tensor.get_size", [self._require()], b.scalar_type(dt.uint64))
        return Scalar(h, dt.uint64)

    @usage("g.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_NORMAL, asc.CacheRwMode.RW)")
    def set_l2_cache_hint(self, mode: Any = CacheMode.CACHE_MODE_NORMAL, rw_mode: Any = CacheRwMode.RW) -> None:
        """`SetL2CacheHint<rwMode>(mode)`: how the L2 cache should keep this
        tensor's data. The simulator has no L2 cache: a no-op there."""
        m = enum_arg(ConstExpr.unwrap(mode), CacheMode, "GlobalTensor.set_l2_cache_hint", "mode")
        rw = enum_arg(ConstExpr.unwrap(rw_mode), CacheRwMode, "GlobalTensor.set_l2_cache_hint", "rw_mode")
        _b.current().create("asc.global_tensor.set_l2_cache_hint", [self._require()],
                            attrs={"mode": ("CacheMode", int(m)), "rw_mode": ("CacheRwMode", int(rw))})

    def get_shape_info(self) -> Any:
        """`GetShapeInfo()`: the asc.ShapeInfo set_shape_info gave this
        tensor (a KernelError on the simulator when none was)."""
        return _get_shape_info(self._require(), "asc.global_tensor.get_shape_info")

    @usage("g.set_shape_info(asc.ShapeInfo(shape))")
    def set_shape_info(self, shape_info: Any) -> None:
        """`SetShapeInfo(shapeInfo)`: the tensor holds a copy of shape_info
        (an asc.ShapeInfo), which copies of the tensor carry along."""
        _set_shape_info(self._require(), shape_info, "GlobalTensor.set_shape_info",
                        "asc.global_tensor.set_shape_info")


def _set_shape_info(tensor: Any, shape_info: Any, api: str, op: str) -> None:
    from .types import ShapeInfo  # (types.py builds on this module)

    shape_info = ConstExpr.unwrap(shape_info)
    if not isinstance(shape_info, ShapeInfo):
        raise error(f"{api} takes an asc.ShapeInfo, got {describe(shape_info)}",
                    "hint: write t.set_shape_info(asc.ShapeInfo([rows, cols]))")
    _b.current().create(op, [tensor, shape_info.to_ir()])


def _get_shape_info(tensor: Any, op: str) -> Any:
    from .types import ShapeInfo

    b = _b.current()
    return ShapeInfo.from_ir(b.create1(op, [tensor], b.struct_type("ShapeInfo")))


class LocalTensor(IRValue):
    """A tensor in the core's local memory (`AscendC::LocalTensor<T>`).

    `asc.LocalTensor(dtype, pos, addr, tile_size)` places `tile_size`
    elements at byte address `addr` of the Unified Buffer;
    `asc.LocalTensor(dtype)` is an empty tensor (no memory yet) that a TQue
    of depth 0 allocates into (`que.alloc_tensor(t)`).
    """

    @usage("asc.LocalTensor(dtype)", "asc.LocalTensor(dtype, pos, addr, tile_size)")
    def __init__(self, *args: Any, **kwargs: Any):
        handle = kwargs.pop("handle", None)
        if handle is not None:
            if not is_ir_handle(handle):
                raise error(f"asc.LocalTensor: `handle` is internal, got {describe(handle)}",
                            "hint: write asc.LocalTensor(dtype, pos, addr, tile_size), or allocate from a TQue "
                            "or TBuf")
            dtype, pos = (list(args) + [None, TPosition.VECIN])[:2]
            self.handle = handle
            self.dtype = dtype
            self.position = TPosition(kwargs.pop("pos", pos))
            return
        names = ("dtype", "pos", "addr", "tile_size")
        if len(args) > len(names):
            raise error(f"asc.LocalTensor takes at most 4 arguments, got {len(args)}",
                        "hint: write asc.LocalTensor(dtype) or asc.LocalTensor(dtype, pos, addr, tile_size)")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in given:
                raise error(f"asc.LocalTensor: unexpected argument `{k}`",
                            "hint: write asc.LocalTensor(dtype) or asc.LocalTensor(dtype, pos, addr, tile_size)")
            given[k] = v
        if "dtype" not in given:
            raise error("asc.LocalTensor() needs an element type",
                        "hint: write asc.LocalTensor(dtype) (an empty tensor) or asc.LocalTensor(dtype, pos, addr, "
                        "tile_size)")
        dtype = dtype_arg(given["dtype"], "asc.LocalTensor")
        b = _b.current()
        if len(given) == 1:  # LocalTensor<T>(): memory comes later
            self.handle = b.create1("asc.local_tensor.empty", [],
                                    b.type("local_tensor", dtype.name, int(TPosition.VECCALC)))
            self.dtype = dtype
            self.position = TPosition.VECCALC
            return
        missing = [n for n in names if n not in given]
        if missing:
            raise error(f"asc.LocalTensor: `{missing[0]}` is missing",
                        "hint: write asc.LocalTensor(dtype, pos, addr, tile_size) with all four (or only dtype, "
                        "for an empty tensor)")
        pos = enum_arg(given["pos"], TPosition, "asc.LocalTensor", "pos")
        # family: cube: the cube core's positions address its memories (L1, L0A, L0B, L0C, bias table)
        cube = (TPosition.A1, TPosition.B1, TPosition.C1, TPosition.A2, TPosition.B2, TPosition.CO1, TPosition.C2)
        if pos not in (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC) + cube:
            raise NotImplementedError(f"asc.LocalTensor at TPosition.{pos.name}: only the vector positions "
                                      "(VECIN, VECOUT, VECCALC) and the cube core's (A1, B1, C1, A2, B2, CO1, C2) "
                                      "are supported")
        operands = [int_operand(given["addr"], "addr"), int_operand(given["tile_size"], "tile_size")]
        from .memory_allocator import claim_style  # (it imports this module)

        claim_style("static", "asc.LocalTensor(dtype, pos, addr, tile_size)")
        t = b.type("local_tensor", dtype.name, int(pos))
        self.handle = b.create1("asc.local_tensor", operands, t)
        self.dtype = dtype
        self.position = pos

    def __repr__(self) -> str:
        return f"LocalTensor({self.dtype.name}, {self.position.name})"

    def _same(self, handle: Any) -> "LocalTensor":
        return LocalTensor(self.dtype, self.position, handle=handle)

    def __getitem__(self, index: Any) -> "LocalTensor":
        off = _offset_of(index, "LocalTensor")
        b = _b.current()
        h = b.create1("asc.local_tensor.offset", [self, off], self.handle.type)
        return self._same(h)

    __call__ = __getitem__

    def get_value(self, index: Any) -> Scalar:
        """`GetValue(index)`: element `index`, read by the scalar unit."""
        b = _b.current()
        h = b.create1("asc.local_tensor.get_value", [self, int_operand(index, "index")], b.scalar_type(self.dtype))
        return Scalar(h, self.dtype)

    def set_value(self, index: Any, value: Any) -> None:
        """`SetValue(index, value)`: writes element `index` from the scalar
        unit (the value converted to the element type)."""
        b = _b.current()
        b.create("asc.local_tensor.set_value",
                 [self, int_operand(index, "index"), element_value(value, self.dtype, "LocalTensor")])
        # family gather: a uint64 tensor of addresses knows their element type (TransDataTo5HD's T)
        if getattr(value, "phy_addr_of", None) is not None:
            self.phy_addr_of = value.phy_addr_of

    def _query(self, op: str, dtype: DataType, *operands: Any) -> Scalar:
        b = _b.current()
        return Scalar(b.create1(op, [self, *operands], b.scalar_type(dtype)), dtype)

    def get_length(self) -> Scalar:
        """`GetLength()`: the tensor's data length in bytes (a uint32)."""
        return self._query("asc.local_tensor.get_length", dt.uint32)

    def get_size(self) -> Scalar:
        """`GetSize()`: the tensor's length in elements (a uint32)."""
        return self._query("asc.local_tensor.get_size", dt.uint32)

    @usage("t.get_phy_addr()", "t.get_phy_addr(offset)")
    def get_phy_addr(self, offset: Any = 0) -> Scalar:
        """`GetPhyAddr(offset)`: the local-memory byte address of element
        `offset` (a uint64)."""
        addr = self._query("asc.local_tensor.get_phy_addr", dt.uint64, int_operand(offset, "offset"))
        addr.phy_addr_of = self.dtype  # family gather: the element type TransDataTo5HD's address forms need
        return addr

    def get_position(self) -> "EnumScalar":
        """`GetPosition()`: the tensor's TPosition, as a runtime int32 that
        compares with the members of asc.TPosition (`t.get_position() ==
        asc.TPosition.VECIN`)."""
        b = _b.current()
        h = b.create1("asc.local_tensor.get_position", [self], b.scalar_type(dt.int32))
        return EnumScalar(h, dt.int32, TPosition)

    def get_user_tag(self) -> Scalar:
        """`GetUserTag()`: the tag of the tensor's buffer (an int32; -1
        until set_user_tag)."""
        return self._query("asc.local_tensor.get_user_tag", dt.int32)

    @usage("t.set_user_tag(tag)")
    def set_user_tag(self, tag: Any = 0) -> None:
        """`SetUserTag(tag)`: tags the tensor's buffer (a TQue or TBuf
        buffer: every view of it shares the tag)."""
        _b.current().create("asc.local_tensor.set_user_tag", [self, int_operand(tag, "tag")])

    @usage("t.set_size(size)")
    def set_size(self, size: Any = 0) -> None:
        """`SetSize(size)`: the tensor is `size` elements long from now on."""
        _b.current().create("asc.local_tensor.set_size", [self, int_operand(size, "size")])

    @usage("t.set_buffer_len(data_len)")
    def set_buffer_len(self, data_len: Any) -> None:
        """`SetBufferLen(dataLen)`: the tensor is `data_len` bytes long from
        now on."""
        _b.current().create("asc.local_tensor.set_buffer_len", [self, int_operand(data_len, "data_len")])

    @usage("t.set_addr_with_offset(src, offset)")
    def set_addr_with_offset(self, src: "LocalTensor", offset: Any) -> None:
        """`SetAddrWithOffset(src, offset)`: the tensor takes over `src`'s
        buffer, position and data length (in bytes), starting `offset`
        elements of src's type further; it keeps its own element type."""
        if not isinstance(src, LocalTensor):
            raise error(f"LocalTensor.set_addr_with_offset takes a LocalTensor, got {describe(src)}",
                        "hint: write t.set_addr_with_offset(src, offset) with src a LocalTensor")
        _b.current().create("asc.local_tensor.set_addr_with_offset", [self, src, int_operand(offset, "offset")])

    @usage("t.reinterpret_cast(dtype)")
    def reinterpret_cast(self, dtype: DataType) -> "LocalTensor":
        """`ReinterpretCast<U>()`: the same bytes seen as elements of
        `dtype` (no conversion)."""
        dtype = dtype_arg(dtype, "LocalTensor.reinterpret_cast")
        # (to its own type too: a copy, as in C++, that set_addr_with_offset may move without moving this one)
        b = _b.current()
        h = b.create1("asc.local_tensor.reinterpret_cast", [self],
                      b.type("local_tensor", dtype.name, int(self.position)))
        return LocalTensor(dtype, self.position, handle=h)

    @usage("t.print(data_len)")
    def print(self, data_len: Any) -> None:
        """`Print(dataLen)`: prints the first `data_len` elements (at most
        get_size()), 32 bytes a line, as the devkit's CPU debug build does;
        each block's lines come out at the end of the launch, in block
        order."""
        _b.current().create("asc.local_tensor.print", [self, int_operand(data_len, "data_len")])

    @usage('t.to_file("name.bin")')
    def to_file(self, file_name: str) -> None:
        """`ToFile(fileName)`: writes the tensor's get_size() elements, as
        raw bytes, to the file (relative to the current directory), as the
        devkit's CPU debug build does; with several blocks, the highest
        block's write is the one that stays."""
        if not isinstance(file_name, str) or not file_name or "\0" in file_name:
            raise error(f"LocalTensor.to_file takes a file name (a non-empty compile-time string), got "
                        f"{describe(file_name)}", 'hint: write t.to_file("x_local.bin")')
        _b.current().create("asc.local_tensor.to_file", [self], attrs={"file_name": file_name})

    def get_shape_info(self) -> Any:
        """`GetShapeInfo()`: the asc.ShapeInfo set_shape_info gave this
        tensor (a KernelError on the simulator when none was)."""
        return _get_shape_info(self, "asc.local_tensor.get_shape_info")

    @usage("t.set_shape_info(asc.ShapeInfo(shape))")
    def set_shape_info(self, shape_info: Any) -> None:
        """`SetShapeInfo(shapeInfo)`: the tensor holds a copy of shape_info
        (an asc.ShapeInfo), which copies of the tensor carry along."""
        _set_shape_info(self, shape_info, "LocalTensor.set_shape_info", "asc.local_tensor.set_shape_info")


class EnumScalar(Scalar):
    """A runtime int32 that holds a member of an enum (what
    LocalTensor.get_position() returns): == and != compare it with the
    members of that enum."""

    def __init__(self, handle: Any, dtype: DataType, enum_cls: type):
        super().__init__(handle, dtype)
        self.enum_cls = enum_cls

    def _operand(self, other: Any) -> Any:
        if isinstance(other, self.enum_cls):
            return int(other)
        if isinstance(other, enum.Enum):
            raise TypeError(f"cannot compare a runtime asc.{self.enum_cls.__name__} with {describe(other)}")
        return other

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return Scalar.__eq__(self, self._operand(other))

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return Scalar.__ne__(self, self._operand(other))

    __hash__ = Scalar.__hash__


class LocalTensorAuto(LocalTensor):
    """`asc.LocalTensorAuto(dtype, shape)`: a LocalTensor in the Unified
    Buffer (TPosition.VECCALC) whose address the compiler chooses.

    `shape` is a number of elements or a tuple/list of them (the tensor
    holds their product); a runtime (int) dim makes the tensor's size known
    only at run time: it is placed above the compile-time sized ones when
    the kernel reaches it, and a size that does not fit the UB is a
    KernelError. The plan-ub pass gives every auto
    tensor bytes of one TBuf pool (tensors whose lifetimes do not overlap
    share them; a tensor of a loop body that several pipes access is
    double-buffered when the UB has room), and a kernel using one is
    compiled with insert_sync=True unless the option says otherwise."""

    @usage("asc.LocalTensorAuto(dtype, shape)")
    def __init__(self, *args: Any, **kwargs: Any):
        if "handle" in kwargs:
            super().__init__(*args, **kwargs)
            return
        names = ("dtype", "shape")
        if len(args) > len(names):
            raise error(f"asc.LocalTensorAuto takes 2 arguments (dtype, shape), got {len(args)}",
                        "hint: write asc.LocalTensorAuto(dtype, length)")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in given:
                raise error(f"asc.LocalTensorAuto: unexpected argument `{k}`",
                            "hint: write asc.LocalTensorAuto(dtype, shape)")
            given[k] = v
        for n in names:
            if n not in given:
                raise error(f"asc.LocalTensorAuto: `{n}` is missing", "hint: write asc.LocalTensorAuto(dtype, shape)")
        dtype = dtype_arg(given["dtype"], "asc.LocalTensorAuto")
        shape = ConstExpr.unwrap(given["shape"])
        dims = list(shape) if isinstance(shape, (tuple, list)) else [shape]
        length = 1
        runtime: list = []
        for d in dims:
            d = ConstExpr.unwrap(d)
            if isinstance(d, IRValue):
                # a runtime dim: plan-ub places the tensor at run time
                if not isinstance(d, Scalar) or not d.dtype.is_int() or d.dtype == dt.bool_:
                    raise error(f"asc.LocalTensorAuto: a runtime dim of the shape must be an integer, "
                                f"got {describe(d)}",
                                "hint: pass an int kernel parameter or a value computed from one")
                if len(runtime) == 8:
                    raise error("asc.LocalTensorAuto: at most 8 runtime dims",
                                "hint: multiply some of them first")
                runtime.append(d)
                continue
            if isinstance(d, (bool, enum.Enum)) or not hasattr(d, "__index__"):
                raise error(f"asc.LocalTensorAuto: the shape must be whole numbers, got {describe(d)}",
                            "hint: write asc.LocalTensorAuto(dtype, length) or (dtype, [rows, cols])")
            d = d.__index__()
            if d <= 0:
                raise error(f"asc.LocalTensorAuto: sizes must be positive, got {d}",
                            "hint: give the number of elements the tensor holds")
            length *= d
        if not dims or length >= 1 << 31:
            raise error(f"asc.LocalTensorAuto: {length if dims else 'an empty shape'} is no valid number of elements",
                        "hint: give the number of elements the tensor holds")
        from .memory_allocator import claim_style  # (it imports this module)

        claim_style("framework", "asc.LocalTensorAuto (its bytes are a TBuf of the TPipe)")
        b = _b.current()
        t = b.type("local_tensor", dtype.name, int(TPosition.VECCALC))
        self.handle = b.create1("asc.local_tensor_auto", runtime, t, attrs={"length": length})
        self.dtype = dtype
        self.position = TPosition.VECCALC


class MrgSortSrcList(IRValue):
    """`asc.MrgSortSrcList(dtype, src1, src2[, src3, src4])`: the 2 to 4
    sorted lists (LocalTensors) a merge sort (asc.mrg_sort) merges. A plain
    container: the sort APIs read its tensors."""

    @usage("asc.MrgSortSrcList(dtype, src1, src2, src3=None, src4=None)")
    def __init__(self, dtype: Any = None, src1: Any = None, src2: Any = None, src3: Any = None, src4: Any = None,
                 handle: Any = None):
        if handle is not None:
            raise error("asc.MrgSortSrcList: `handle` is internal",
                        "hint: write asc.MrgSortSrcList(dtype, src1, src2[, src3, src4])")
        self.dtype = dtype_arg(dtype, "asc.MrgSortSrcList")
        srcs = [src1, src2] + [t for t in (src3, src4) if t is not None]
        for i, t in enumerate(srcs, 1):
            if not isinstance(t, LocalTensor):
                raise error(f"asc.MrgSortSrcList: src{i} must be a LocalTensor, got {describe(t)}",
                            "hint: pass 2 to 4 LocalTensors of the list's element type")
            if t.dtype != self.dtype:
                raise error(f"asc.MrgSortSrcList: src{i} holds {t.dtype.name}, the list is of {self.dtype.name}",
                            "hint: pass tensors of the element type given first")
        if src3 is None and src4 is not None:
            raise error("asc.MrgSortSrcList: src4 given without src3",
                        "hint: pass the lists in order: src1, src2, src3, src4")
        self.srcs = tuple(srcs)
        self.handle = None

    def __repr__(self) -> str:
        return f"MrgSortSrcList({self.dtype.name}, {len(self.srcs)} lists)"

    def to_ir(self) -> Any:
        raise error("an asc.MrgSortSrcList is no IR value: pass it to a sort API (asc.mrg_sort)",
                    "hint: asc.mrg_sort(dst, src_list, ...)")


def element_value(value: Any, dtype: DataType, cls: str) -> Scalar:
    """The value stored by set_value, converted to the tensor's element type."""
    if not (isinstance(value, Scalar) or is_number(value)):
        raise error(f"{cls}.set_value: the value must be a number or a runtime scalar, got {describe(value)}",
                    "hint: write t.set_value(index, value); to copy an element write "
                    "t.set_value(i, other.get_value(j))")
    return to_scalar(value, dtype)


class LoopRange:
    """`range(...)`, `asc.range(...)` (a runtime loop, scf.for) and
    `asc.static_range(...)` (unrolled while compiling; its bounds must be
    compile-time integers) inside a kernel: only valid as the iterable of a
    `for`. Upstream pyasc spells the same `asc.range` / `asc.static_range`."""

    # family: tiles: the keywords this range takes (asc2.range: unroll_factor, parallel)
    keywords: Tuple[str, ...] = ()

    def __init__(self, name: str, unrolled: bool):
        self.name = name
        self.unrolled = unrolled

    def check_keyword(self, name: str, value: Any) -> None:
        """Checks a keyword argument's value (a range with keywords says which)."""

    def loop_attrs(self, given: Dict[str, Any]) -> Dict[str, Any]:
        """The scf.for attributes of the checked keyword arguments `given` (none by default)."""
        return {}

    def __repr__(self) -> str:
        return self.name

    def __call__(self, *args: Any) -> Any:
        from ...codegen.errors import CompileError

        raise CompileError(f"{self.name}() can only be used as the iterable of a `for` in a kernel",
                           hint=f"hint: write `for i in {self.name}(...):`")


RANGE = LoopRange("range", False)
STATIC_RANGE = LoopRange("static_range", True)


def wrap_ir(handle: Any) -> Any:
    """The Python wrapper of an IR value, from its type."""
    t = handle.type
    kind = t.kind
    if kind == "scalar":
        return Scalar(handle, dtype_of_ir(t))
    if kind == "global_address":
        return GlobalAddress(handle, dtype_of_ir(t))
    if kind == "global_tensor":
        return GlobalTensor(handle, dtype_of_ir(t))
    if kind == "local_tensor":
        return LocalTensor(dtype_of_ir(t), TPosition(t.position), handle=handle)
    if kind == "struct":
        from .struct import wrap_struct

        return wrap_struct(handle)
    from ..fwk.tpipe import wrap_framework

    return wrap_framework(handle)
