"""The user's own structs (`asc.language.core.struct`, as upstream pyasc has
it): a tiling struct written as a Python class, filled on the host, passed
to a kernel and read (and changed) inside it.

    class TileConfig(Struct):
        tile_length = Field(dtype=KT.int32, default=0)
        tile_num = Field(dtype=KT.int32, default=0)

    class KernelConfig(Struct):
        tile = StructField(TileConfig)

    cfg = KernelConfig(tile=TileConfig(tile_length=512))
    kernel[8, stream](x, y, cfg)      # inside: cfg.tile.tile_length

An object is one of two things:

* made on the host (no kernel compiling), it holds its values in a ctypes
  structure with the C layout the emitted Ascend C declares (`pack()` gives
  its bytes, `addressof()` their address); values are checked against the
  field's C type when set;
* inside a kernel (a kernel parameter, or made there), it is an IR value of
  the struct type: reading a field is `asc.struct.get`, assigning one
  (`cfg.tile.tile_num = n`) makes a new value with `asc.struct.set` and binds
  the variable to it. So a struct variable behaves as a C++ struct variable
  does: another variable it was copied to keeps the old value.

The IR declares the struct once per module (`asc.struct_def`, made by
`IRBuilder.user_struct_type`); the emitter writes its C++ declaration; a
kernel parameter of a struct type reaches the simulator as its numbers, and
on the device as a pointer to its bytes in global memory, copied into a
local variable when the kernel starts (the emitted code says so).
"""

from __future__ import annotations

import ctypes
import enum
import sys
from typing import Any, ClassVar, Dict, List, Optional, Tuple, Type

from . import dtype as dt
from .checks import describe
from .values import IRValue, Scalar, const, int_fits, is_number

_CTYPES: Dict[str, Any] = {
    "bool": ctypes.c_bool,
    "int8": ctypes.c_int8,
    "int16": ctypes.c_int16,
    "int32": ctypes.c_int32,
    "int64": ctypes.c_int64,
    "uint8": ctypes.c_uint8,
    "uint16": ctypes.c_uint16,
    "uint32": ctypes.c_uint32,
    "uint64": ctypes.c_uint64,
    "float32": ctypes.c_float,
    "float64": ctypes.c_double,
}


class _Missing:
    def __repr__(self) -> str:
        return "<no default>"


missing: Any = _Missing()


def _builder() -> Any:
    from ...codegen import builder as _b

    return _b.current() if _b.in_jit() else None


class BaseField:
    """A field of a Struct: its default, and `name`, the C++ member's
    spelling when it differs from the Python attribute's."""

    def __init__(self, default: Any = missing, name: Optional[str] = None) -> None:
        if name is not None and not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"the C++ name of a field must be an identifier, got {name!r}")
        self.default = default
        self.name = name
        self.attr = ""  # the Python attribute, set when the class is made
        self.owner: Optional[Type["Struct"]] = None

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr

    @property
    def cpp_name(self) -> str:
        return self.name or self.attr

    def __get__(self, obj: Optional["Struct"], objtype: Optional[type] = None) -> Any:
        if obj is None:
            return self
        return obj._get(self)

    def __set__(self, obj: "Struct", value: Any) -> None:
        obj._set(self, value)

    # ---- what each kind of field is -----------------------------------------
    def ctype(self) -> Any:
        raise NotImplementedError

    def check(self, owner: str, value: Any) -> Any:
        """value as this field holds it (on the host), or a TypeError/ValueError."""
        raise NotImplementedError

    def ir_type(self, b: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


class Field(BaseField):
    """A number field of C type `dtype` (KnownTypes.int32, ...). `enum` (the
    name of a C++ enum, upstream's) is accepted: the member is declared with
    `dtype` and holds the enumerator's value."""

    def __init__(self, dtype: dt.DataType, default: Any = missing, name: Optional[str] = None,
                 enum: Optional[str] = None) -> None:
        super().__init__(default, name)
        if not isinstance(dtype, dt.DataType) or dtype.name not in _CTYPES:
            raise TypeError(f"Field: dtype must be one of {', '.join(_CTYPES)} (a data type of asc), "
                            f"got {describe(dtype)}")
        self.dtype = dtype
        self.enum_name = enum
        if default is not missing:
            self.check("Field", default)

    def ctype(self) -> Any:
        return _CTYPES[self.dtype.name]

    def check(self, owner: str, value: Any) -> Any:
        where = f"{owner}.{self.attr}" if self.attr else owner
        d = self.dtype
        if isinstance(value, enum.IntEnum) and d.is_int():
            value = int(value)  # an enumerator held as its value (Field(enum=...))
        if d == dt.bool_:
            if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
                return bool(value)
            raise TypeError(f"{where}: must be a bool, got {describe(value)}")
        if isinstance(value, bool) or not is_number(value):
            raise TypeError(f"{where}: must be {'a number' if d.is_float() else 'an integer'} "
                            f"({d.name}), got {describe(value)}")
        if d.is_float():
            return float(value)
        if isinstance(value, float):
            raise TypeError(f"{where}: must be an integer ({d.name}), got {describe(value)}")
        if not int_fits(value, d):
            raise ValueError(f"{where}: {value} does not fit the field's type {d.name}")
        return value

    def ir_type(self, b: Any) -> Any:
        return b.scalar_type(self.dtype)

    def describe(self) -> str:
        return self.dtype.name


class StructField(BaseField):
    """A field holding another Struct (by default one with its defaults)."""

    def __init__(self, struct_cls: Type["Struct"], default: Any = None, name: Optional[str] = None) -> None:
        if not (isinstance(struct_cls, type) and issubclass(struct_cls, Struct) and struct_cls is not Struct):
            raise TypeError(f"StructField: expected a Struct class, got {describe(struct_cls)}")
        super().__init__(missing if default is None else default, name)
        self.struct_cls = struct_cls
        if default is not None:
            self.check("StructField", default)

    def ctype(self) -> Any:
        return self.struct_cls.ctypes_class

    def check(self, owner: str, value: Any) -> Any:
        if isinstance(value, self.struct_cls) and value._host is not None:
            return value
        where = f"{owner}.{self.attr}" if self.attr else owner
        raise TypeError(f"{where}: must be a {self.struct_cls.__name__}, got {describe(value)}")

    def ir_type(self, b: Any) -> Any:
        return self.struct_cls.ir_type(b)

    def describe(self) -> str:
        return self.struct_cls.__name__


class Struct(IRValue):
    """Base of the user's structs (see the module docstring)."""

    struct_fields: ClassVar[Dict[str, BaseField]] = {}
    ctypes_class: ClassVar[Any] = None
    _def_loc: ClassVar[Tuple[str, int, int]] = ("", 0, 0)

    def __init_subclass__(cls, pack: int = 8, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: Dict[str, BaseField] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "struct_fields", {}) or {})
        fields.update({k: v for k, v in vars(cls).items() if isinstance(v, BaseField)})
        if not fields:
            raise TypeError(f"Struct {cls.__name__} must have at least one field "
                            "(a class attribute Field(...) or StructField(...))")
        taken = [n for n in fields if n in _RESERVED]
        if taken:
            raise TypeError(f"Struct {cls.__name__}: a field cannot be named {', '.join(taken)} (an attribute "
                            "of every Struct)")
        cpp = [f.cpp_name for f in fields.values()]
        if len(set(cpp)) != len(cpp):
            raise TypeError(f"Struct {cls.__name__}: two fields have one C++ name")
        cls.struct_fields = fields
        cls.ctypes_class = type(f"_ctypes_{cls.__name__}", (ctypes.Structure,),
                                {"_fields_": [(n, f.ctype()) for n, f in fields.items()], "_pack_": pack})
        try:  # where the class is defined, for errors about its declaration
            frame = sys._getframe(1)
            cls._def_loc = (frame.f_code.co_filename, frame.f_lineno, 0)
        except (AttributeError, ValueError):
            pass

    def __init__(self, *, handle: Any = None, _view: Any = None, **fields: Any) -> None:
        cls = type(self)
        if cls is Struct:
            raise TypeError("Struct is a base class: define a subclass with fields")
        object.__setattr__(self, "handle", handle)
        object.__setattr__(self, "_host", _view)
        if handle is not None or _view is not None:
            return
        for name in fields:
            if name not in cls.struct_fields:
                raise TypeError(f"{cls.__name__} has no field `{name}`; its fields: "
                                f"{', '.join(cls.struct_fields)}")
        b = _builder()
        if b is not None:  # made inside a kernel: an IR value
            object.__setattr__(self, "handle", self._make_ir(b, fields))
            return
        values = {}
        for name, f in cls.struct_fields.items():
            value = fields.get(name, missing)
            if value is missing:
                value = f.default
            if value is missing:
                if isinstance(f, StructField):
                    value = f.struct_cls()
                else:
                    raise TypeError(f"{cls.__name__}: field `{name}` has no default; give it a value")
            values[name] = f.check(cls.__name__, value)
        host = cls.ctypes_class()
        object.__setattr__(self, "_host", host)
        for name, value in values.items():
            self._set(cls.struct_fields[name], value)

    # ---- the host side -----------------------------------------------------------
    def pack(self) -> bytes:
        """The struct's bytes, laid out as the emitted C++ declares it."""
        host = self._require_host("pack")
        return ctypes.string_at(ctypes.addressof(host), ctypes.sizeof(host))

    def addressof(self) -> int:
        """The address of the bytes pack() returns (valid while this object lives)."""
        return int(ctypes.addressof(self._require_host("addressof")))

    def values(self) -> List[Any]:
        """The number fields, nested structs flattened, in declaration order
        (what a kernel launch passes to the simulator)."""
        out: List[Any] = []
        for f in type(self).struct_fields.values():
            v = self._get(f)
            out.extend(v.values() if isinstance(f, StructField) else [v])
        return out

    def _require_host(self, what: str) -> Any:
        if self._host is None:
            raise TypeError(f"{type(self).__name__}.{what}() is for a struct made on the host, not inside a kernel")
        return self._host

    def _get(self, f: BaseField) -> Any:
        if self._host is None:
            return self._get_ir(f)
        if isinstance(f, StructField):
            return f.struct_cls(_view=getattr(self._host, f.attr))
        return getattr(self._host, f.attr)

    def _set(self, f: BaseField, value: Any) -> None:
        if self._host is None:
            from ...codegen.errors import CompileError

            raise CompileError(f"{type(self).__name__}.{f.attr}: assign fields of a struct in a kernel to a "
                               "struct variable (cfg.x = v)",
                               hint="hint: name the struct first: c = <expression>; c.x = v")
        value = f.check(type(self).__name__, value)
        setattr(self._host, f.attr, value._host if isinstance(f, StructField) else value)

    # ---- the kernel side ----------------------------------------------------------
    @classmethod
    def ir_type(cls, b: Any) -> Any:
        return b.user_struct_type(cls)

    @classmethod
    def from_ir(cls, handle: Any) -> "Struct":
        return cls(handle=handle)

    def to_ir(self) -> Any:
        """The IR value: the kernel's, or for a host struct one made of its
        values at the current point."""
        if self.handle is not None:
            return self.handle
        b = _builder()
        if b is None:
            raise TypeError(f"{type(self).__name__}: an IR value exists only while a kernel compiles")
        values = {n: self._get(f) for n, f in type(self).struct_fields.items()}
        return self._make_ir(b, values)

    def on_device(self) -> "Struct":
        """This struct as an IR value (itself when it is one)."""
        return self if self.handle is not None else type(self)(handle=self.to_ir())

    @classmethod
    def _field_operand(cls, b: Any, f: BaseField, value: Any) -> Any:
        """value converted to the field's type as C++ assignment converts it;
        Python numbers checked against the type."""
        owner = cls.__name__
        if isinstance(f, StructField):
            if isinstance(value, f.struct_cls):
                return value.to_ir()
            raise TypeError(f"{owner}.{f.attr}: must be a {f.struct_cls.__name__}, got {describe(value)}")
        assert isinstance(f, Field)
        if isinstance(value, Scalar):
            if value.dtype.is_float() and not f.dtype.is_float():
                raise TypeError(f"{owner}.{f.attr}: is {f.dtype.name}, got {describe(value)}; convert it "
                                f"with asc.{f.dtype.name}(...)")
            return value.cast(f.dtype).handle
        return const(f.check(owner, value), f.dtype).handle

    @classmethod
    def _make_ir(cls, b: Any, values: Dict[str, Any]) -> Any:
        ops = []
        for name, f in cls.struct_fields.items():
            v = values.get(name, missing)
            if v is missing:
                v = f.default
            if v is missing:  # the emitted C++ value-initialises: zero, or the nested struct's defaults
                v = f.struct_cls() if isinstance(f, StructField) else 0
            ops.append(cls._field_operand(b, f, v))
        return b.create1("asc.struct", ops, cls.ir_type(b))

    def _get_ir(self, f: BaseField) -> Any:
        b = _builder()
        if b is None:
            raise TypeError(f"{type(self).__name__}: this struct belongs to a kernel that has finished compiling")
        h = b.create1("asc.struct.get", [self.handle], f.ir_type(b), {"field": f.attr})
        if isinstance(f, StructField):
            return f.struct_cls(handle=h)
        assert isinstance(f, Field)
        return Scalar(h, f.dtype)

    def with_field(self, attr: str, value: Any) -> "Struct":
        """A copy of this struct (an IR value) with field `attr` set to value."""
        cls = type(self)
        f = cls.struct_fields.get(attr)
        if f is None:
            raise AttributeError(f"{cls.__name__} has no field `{attr}`; its fields: {', '.join(cls.struct_fields)}")
        b = _builder()
        base = self.to_ir()
        h = b.create1("asc.struct.set", [base, cls._field_operand(b, f, value)], cls.ir_type(b), {"field": attr})
        return cls(handle=h)

    def __setattr__(self, name: str, value: Any) -> None:
        f = type(self).struct_fields.get(name)
        if f is None and name == "name_hint":  # the front end names the IR value after the variable
            object.__setattr__(self, name, value)
            return
        if f is None:
            raise AttributeError(f"{type(self).__name__} has no field `{name}`; its fields: "
                                 f"{', '.join(type(self).struct_fields)}")
        self._set(f, value)

    def __repr__(self) -> str:
        cls = type(self)
        if self._host is None:
            return f"{cls.__name__}(<kernel value>)"
        return f"{cls.__name__}(" + ", ".join(f"{n}={self._get(f)!r}" for n, f in cls.struct_fields.items()) + ")"


def wrap_struct(handle: Any) -> Any:
    """The Python object of an IR struct value: the user's Struct class the
    module declared under that name, or a parameter struct of the table."""
    name = handle.type.struct_name
    b = _builder()
    cls = b.struct_classes.get(name) if b is not None else None
    if cls is not None:
        return cls(handle=handle)
    from .types import STRUCTS

    return STRUCTS[name.split("<")[0]].from_ir(handle)  # (a template's instance: Name<f16>)


_RESERVED = frozenset(n for n in dir(Struct) if not n.startswith("__")) | {"handle", "_host", "name_hint"}


def layout_key(cls: Type[Struct]) -> Tuple[Any, ...]:
    """What identifies a struct's IR: its name and fields (names, C names,
    types, nested structs' layouts), for the compilation caches."""
    parts: List[Any] = [cls.__name__]
    for attr, f in cls.struct_fields.items():
        if isinstance(f, StructField):
            parts.append((attr, f.cpp_name, layout_key(f.struct_cls)))
        else:
            assert isinstance(f, Field)
            parts.append((attr, f.cpp_name, f.dtype.name))
    return tuple(parts)


__all__ = ["BaseField", "Field", "StructField", "Struct", "missing", "layout_key", "wrap_struct"]
