"""Parameter structs (`asc.BinaryRepeatParams`, ...), one Python class each,
made from the C core's struct table (include/asc/structs.def, through
`asc._C.struct_infos()`): the class name, the constructor's parameters in
their order, their defaults and the C type of each field all come from
there, so a struct is declared once for the IR, the emitter, the simulator
and the front end.

A struct object holds its field values (Python numbers, checked against the
field's C type when given, or runtime scalars). Passed to an instruction, it
becomes an `asc.struct` IR value built right before the instruction (the
emitter writes it inline, `AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8)`).

A field is a number (of a C type), a member of an enum (asc.HardEvent, ...)
or another struct of the table (given as an object of that class, by default
one with its own defaults).
"""

from __future__ import annotations

import enum
import inspect
from typing import Any, Dict, List, Tuple

from ... import _C
from ...codegen import builder as _b
from . import dtype as dt
from . import enums as _enums
from .checks import describe
from .values import Scalar, const, to_scalar


def _range(dtype: dt.DataType) -> Tuple[int, int]:
    bits = dtype.bitwidth or 0
    if dtype.is_unsigned() or dtype == dt.bool_:
        return 0, (1 if dtype == dt.bool_ else 2**bits - 1)
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


class _FieldKind:
    """What one field of a table struct holds: a number of `dtype`, a member
    of the enum class `enum`, or an object of the struct class `struct`."""

    def __init__(self, kind: str, type_name: str) -> None:
        self.kind = kind
        self.dtype = dt.from_name(type_name) if kind == "number" else dt.int32
        self.enum: Any = _enums.ENUMS[type_name] if kind == "enum" else None
        self.struct_name = type_name if kind == "struct" else ""

    def default(self, value: float) -> Any:
        if self.kind == "enum":
            return self.enum(int(value))
        if self.kind == "struct":
            return _Default(self.struct_name)
        return float(value) if self.dtype.is_float() else int(value)

    def describe(self) -> str:
        if self.kind == "enum":
            return f"asc.{self.enum.__name__}"
        if self.kind == "struct":
            return f"asc.{self.struct_name}"
        return self.dtype.name


class _Default:
    """The default of a struct field: a new struct with its own defaults,
    made per object (a shared default object could be changed through one)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"asc.{self.name}()"


class ParamStruct:
    """Base of the parameter struct classes (see the module docstring)."""

    # set on each class by _make_class
    _name: str = ""
    _fields: Tuple[str, ...] = ()
    _kinds: Tuple[_FieldKind, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        api = self._name
        try:
            bound = self.__signature__.bind(*args, **kwargs)  # type: ignore[attr-defined]
        except TypeError as e:
            raise TypeError(f"{api}: {e}; write asc.{api}({', '.join(self._fields)})") from None
        bound.apply_defaults()
        for name, kind in zip(self._fields, self._kinds):
            object.__setattr__(self, name, self._field(name, kind, bound.arguments[name]))

    def _field(self, name: str, kind: _FieldKind, value: Any) -> Any:
        api = self._name
        if isinstance(value, _Default):
            return STRUCTS[value.name]()
        if kind.kind == "struct":
            if isinstance(value, STRUCTS[kind.struct_name]):
                return value
            raise TypeError(f"{api}: {name} must be an asc.{kind.struct_name}, got {describe(value)}")
        if kind.kind == "enum":
            if isinstance(value, kind.enum):
                return value
            raise TypeError(f"{api}: {name} must be a member of {kind.describe()}, got {describe(value)}")
        ftype = kind.dtype
        if isinstance(value, (bool, enum.Enum)) and not ftype == dt.bool_:
            raise TypeError(f"{api}: {name} must be {'a number' if ftype.is_float() else 'an integer'}, "
                            f"got {describe(value)}")
        if ftype.is_float():
            if isinstance(value, (int, float)) or (isinstance(value, Scalar)):
                return value
            raise TypeError(f"{api}: {name} must be a number, got {describe(value)}")
        if isinstance(value, int):
            lo, hi = _range(ftype)
            if not lo <= value <= hi:
                raise ValueError(f"{api}: {name} = {value} is out of range [{lo}, {hi}] "
                                 f"({ftype.name}, the field's C type)")
            return value
        if isinstance(value, Scalar) and value.dtype.is_int():
            return value
        raise TypeError(f"{api}: {name} must be an integer, got {describe(value)}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._fields:
            raise AttributeError(f"{self._name} has no field `{name}`; its fields: {', '.join(self._fields)}")
        object.__setattr__(self, name, self._field(name, self._kinds[self._fields.index(name)], value))

    def values(self) -> Tuple[Any, ...]:
        """The fields, in the table's (and the C++ constructor's) order."""
        return tuple(getattr(self, n) for n in self._fields)

    @classmethod
    def from_ir(cls, handle: Any) -> "ParamStruct":
        """The struct an IR value holds (a device function's parameter): its
        fields read with asc.struct.get (an enum field as its int32 value)."""
        b = _b.current()
        self = object.__new__(cls)
        for name, kind in zip(cls._fields, cls._kinds):
            ftype = b.struct_type(kind.struct_name) if kind.kind == "struct" else b.scalar_type(kind.dtype)
            h = b.create1("asc.struct.get", [handle], ftype, {"field": name})
            value = STRUCTS[kind.struct_name].from_ir(h) if kind.kind == "struct" else Scalar(h, kind.dtype)
            object.__setattr__(self, name, value)
        return self

    def to_ir(self) -> Any:
        """An `asc.struct` value of these fields, built at the current point."""
        b = _b.current()
        ops = []
        for v, kind in zip(self.values(), self._kinds):
            ftype = kind.dtype
            if isinstance(v, ParamStruct):
                ops.append(v.to_ir())
            elif isinstance(v, enum.Enum):
                ops.append(const(int(v), dt.int32))
            elif kind.kind == "enum":  # read from an IR value (from_ir): the enum's int32 value
                ops.append(to_scalar(v, dt.int32))
            elif isinstance(v, Scalar):
                ops.append(v if ftype.is_float() or v.dtype.is_int() else to_scalar(v, ftype))
            elif ftype.is_float():
                ops.append(const(float(v), ftype))
            else:
                ops.append(const(v))  # the literal's own type: the emitter writes it as written
        return b.create1("asc.struct", ops, b.struct_type(self._name))

    def __repr__(self) -> str:
        return f"{self._name}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields) + ")"


def _make_class(info: Dict[str, Any]) -> type:
    name: str = info["name"]
    fields: List[Tuple[str, str, str, str, float]] = info["fields"]
    kinds = tuple(_FieldKind(f[2], f[3]) for f in fields)
    params = [inspect.Parameter(f[0], inspect.Parameter.POSITIONAL_OR_KEYWORD, default=k.default(f[4]))
              for f, k in zip(fields, kinds)]
    doc = (f"`{info['cpp']}`: " + ", ".join(f"{f[0]} ({k.describe()}, default {p.default!r})"
                                            for f, k, p in zip(fields, kinds, params)) + ".")
    cls = type(name, (ParamStruct,), {
        "__doc__": doc, "__module__": __name__, "__slots__": tuple(f[0] for f in fields),
        "_name": name, "_fields": tuple(f[0] for f in fields), "_kinds": kinds,
        "__signature__": inspect.Signature(params),
    })
    return cls


# the table declares a nested struct before the structs that hold it
STRUCTS: Dict[str, type] = {}
for _info in _C.struct_infos():
    STRUCTS[_info["name"]] = _make_class(_info)

BinaryRepeatParams = STRUCTS["BinaryRepeatParams"]
UnaryRepeatParams = STRUCTS["UnaryRepeatParams"]

__all__ = ["ParamStruct", "STRUCTS", "BinaryRepeatParams", "UnaryRepeatParams"]
