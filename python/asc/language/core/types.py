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
"""

from __future__ import annotations

import enum
import inspect
from typing import Any, Dict, List, Tuple

from ... import _C
from ...codegen import builder as _b
from . import dtype as dt
from .checks import describe
from .values import Scalar, const, to_scalar


def _range(dtype: dt.DataType) -> Tuple[int, int]:
    bits = dtype.bitwidth or 0
    if dtype.is_unsigned() or dtype == dt.bool_:
        return 0, (1 if dtype == dt.bool_ else 2**bits - 1)
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


class ParamStruct:
    """Base of the parameter struct classes (see the module docstring)."""

    # set on each class by _make_class
    _name: str = ""
    _fields: Tuple[str, ...] = ()
    _dtypes: Tuple[dt.DataType, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        api = self._name
        try:
            bound = self.__signature__.bind(*args, **kwargs)  # type: ignore[attr-defined]
        except TypeError as e:
            raise TypeError(f"{api}: {e}; write asc.{api}({', '.join(self._fields)})") from None
        bound.apply_defaults()
        for name, ftype in zip(self._fields, self._dtypes):
            object.__setattr__(self, name, self._field(name, ftype, bound.arguments[name]))

    def _field(self, name: str, ftype: dt.DataType, value: Any) -> Any:
        api = self._name
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
        object.__setattr__(self, name, self._field(name, self._dtypes[self._fields.index(name)], value))

    def values(self) -> Tuple[Any, ...]:
        """The fields, in the table's (and the C++ constructor's) order."""
        return tuple(getattr(self, n) for n in self._fields)

    def to_ir(self) -> Any:
        """An `asc.struct` value of these fields, built at the current point."""
        b = _b.current()
        ops = []
        for v, ftype in zip(self.values(), self._dtypes):
            if isinstance(v, Scalar):
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
    fields: List[Tuple[str, str, str, float]] = info["fields"]
    dtypes = tuple(dt.from_name(f[2]) for f in fields)
    params = [inspect.Parameter(f[0], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                default=float(f[3]) if t.is_float() else int(f[3]))
              for f, t in zip(fields, dtypes)]
    doc = (f"`{info['cpp']}`: " + ", ".join(f"{f[0]} ({t.name}, default {p.default})"
                                            for f, t, p in zip(fields, dtypes, params)) + ".")
    cls = type(name, (ParamStruct,), {
        "__doc__": doc, "__module__": __name__, "__slots__": tuple(f[0] for f in fields),
        "_name": name, "_fields": tuple(f[0] for f in fields), "_dtypes": dtypes,
        "__signature__": inspect.Signature(params),
    })
    return cls


STRUCTS: Dict[str, type] = {info["name"]: _make_class(info) for info in _C.struct_infos()}

BinaryRepeatParams = STRUCTS["BinaryRepeatParams"]
UnaryRepeatParams = STRUCTS["UnaryRepeatParams"]

__all__ = ["ParamStruct", "STRUCTS", "BinaryRepeatParams", "UnaryRepeatParams"]
