"""Parameter structs (`asc.BinaryRepeatParams`, `asc.ShapeInfo`, ...), one
Python class each, made from the C core's struct table
(include/asc/structs.def, through `asc._C.struct_infos()`): the class name,
the constructor's parameters, their defaults and the C type of each field
all come from there, so a struct is declared once for the IR, the emitter,
the simulator and the front end. Where upstream pyasc's constructor differs
from the table's field order (a parameter without a default, another order,
a data type first, arguments that are not fields), `_UPSTREAM` below says
so, and ShapeInfo has a class of its own.

A struct object holds its field values (Python numbers, checked against the
field's C type when given, or runtime scalars). Passed to an instruction, it
becomes an `asc.struct` IR value built right before the instruction (the
emitter writes it inline, `AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8)`).
A struct that comes from the IR (a device function's parameter, what
`t.get_shape_info()` returns) holds that IR value instead, and reading a
field is `asc.struct.get` at the point of reading.

A field is a number (of a C type), a member of an enum (asc.HardEvent, ...),
another struct of the table (given as an object of that class, by default
one with its own defaults), or a fixed-length array of numbers (a list or
tuple of exactly its length; `p.pad_list[i]` reads an element, with a
runtime index too). Where upstream's default is None (SliceInfo.end_index,
MmadParams.is_bias, ...), None stands for the field's default value.

A template struct (`DataCopyPadExtParams<T>`, ...) has a data type T: given
as upstream gives it (DataCopyPadExtParams(dtype, ...), AippParams(dtype,
...)), taken from a value (InitConstValueParams: the type of init_value),
or the `dtype` keyword of the others, which takes the table's default when
left out; a template struct held by another (AippParams holds an
AippPaddingParams) takes the holder's T.
"""

from __future__ import annotations

import enum
import inspect
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ... import _C
from ...codegen import builder as _b
from . import dtype as dt
from . import enums as _enums
from .checks import _USAGE_ATTR, describe
from .constexpr import ConstExpr
from .values import Scalar, const, int_fits, to_scalar

_REQUIRED = inspect.Parameter.empty


class _Default:
    """The default of a struct field: a new struct with its own defaults,
    made per object (a shared default object could be changed through one)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"asc.{self.name}()"


class _Field:
    """One field of a table struct: a number of C type `dtype` (None: the
    template argument T), a member of the enum class `enum`, an object of
    the struct class named `struct_name`, or an array of `length` numbers."""

    def __init__(self, row: Tuple[str, str, str, str, float, int]) -> None:
        self.name, self.cpp, self.kind, type_name, default, self.length = row
        self.is_t = self.kind == "number" and type_name == "T"
        self.dtype: Optional[dt.DataType] = (
            None if self.is_t else dt.from_name(type_name) if self.kind == "number" else dt.int32)
        self.enum: Any = _enums.ENUMS[type_name] if self.kind == "enum" else None
        self.struct_name = type_name if self.kind == "struct" else ""
        self.table_default = default

    def ctype(self, t: Optional[dt.DataType]) -> Optional[dt.DataType]:
        """The C type of the field (of each element) for template argument t."""
        return t if self.is_t else self.dtype

    def default(self) -> Any:
        """The value a left-out argument takes (a list for an array)."""
        if self.kind == "enum":
            return self.enum(int(self.table_default))
        if self.kind == "struct":
            return _Default(self.struct_name)
        d = self.table_default
        if self.dtype is not None and self.dtype.is_float():
            one: Any = float(d)
        elif self.dtype == dt.bool_:
            one = bool(d)
        elif self.is_t:
            one = int(d) if float(d).is_integer() else float(d)
        else:
            one = int(d)
        return [one] * self.length if self.length else one

    def describe(self, t: Optional[dt.DataType] = None) -> str:
        if self.kind == "enum":
            return f"asc.{self.enum.__name__}"
        if self.kind == "struct":
            return f"asc.{self.struct_name}"
        ctype = self.ctype(t)
        name = ctype.name if ctype is not None else "T"
        return f"{self.length} values of {name}" if self.length else name


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python number it holds; anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


class FieldArray(Sequence[Any]):
    """The value of an array field: its elements (numbers or runtime
    scalars), read with a[i]; an index known only while the kernel runs
    reads the element with asc.struct.get."""

    def __init__(self, owner: "ParamStruct", field: _Field, elements: Optional[List[Any]]) -> None:
        self._owner = owner
        self._field = field
        self._elements = elements  # None: the owner is an IR value

    def __len__(self) -> int:
        return self._field.length

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index: Any) -> Any:  # type: ignore[override]
        index = _plain(ConstExpr.unwrap(index))
        owner, f = self._owner, self._field
        where = f"{owner._name}.{f.name}"
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if isinstance(index, Scalar):
            if not index.dtype.is_int():
                raise TypeError(f"{where}: an index must be an integer, got {describe(index)}")
            return owner._get_ir(f, index)  # (the simulator checks it against the length)
        if not isinstance(index, int) or isinstance(index, (bool, enum.Enum)):
            raise TypeError(f"{where}: an index must be an integer, got {describe(index)}")
        if not -len(self) <= index < len(self):
            raise IndexError(f"{where}: index {index} is out of range for its {len(self)} elements "
                             f"(0 to {len(self) - 1})")
        index %= len(self)
        if self._elements is None:
            return owner._get_ir(f, index)
        return self._elements[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, FieldArray)) and self._elements is not None:
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        if self._elements is None:
            return f"<{self._field.length} elements of a kernel value>"
        return repr(list(self._elements))


class ParamStruct:
    """Base of the parameter struct classes (see the module docstring)."""

    # set on each class by _make_class
    _name: str = ""
    _cpp: str = ""
    _init: str = "ctor"
    _fields: Tuple[_Field, ...] = ()
    _field_index: Dict[str, _Field] = {}
    _template: Optional[Tuple[dt.DataType, Tuple[dt.DataType, ...]]] = None  # (default T, allowed T)
    _dtype_from: str = ""  # how the constructor gets T: "first", "keyword", or a field's name
    _none_defaults: Tuple[str, ...] = ()  # fields whose upstream default is None
    __slots__ = ("_v", "_handle", "_t", "name_hint")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        api = self._name
        try:
            bound = self.__signature__.bind(*args, **kwargs)  # type: ignore[attr-defined]
        except TypeError as e:
            raise TypeError(f"{api}: {e}; write {_usage(type(self))}") from None
        arguments = {k: ConstExpr.unwrap(v) for k, v in bound.arguments.items()}
        t = self._template_argument(arguments)
        self._setup({f.name: arguments[f.name] for f in self._fields if f.name in arguments}, t)

    # ---- construction -------------------------------------------------------------
    def _setup(self, values: Dict[str, Any], t: Optional[dt.DataType]) -> None:
        """Fields from values (a field left out takes its default)."""
        object.__setattr__(self, "_handle", None)
        object.__setattr__(self, "_t", t)
        object.__setattr__(self, "_v", {})
        for f in self._fields:
            self._v[f.name] = self._check(f, values.get(f.name), f.name in values)

    def _template_argument(self, arguments: Dict[str, Any]) -> Optional[dt.DataType]:
        """T as the constructor's arguments give it (None: not given)."""
        if self._template is None:
            return None
        if self._dtype_from in ("first", "keyword"):
            given = arguments.pop("dtype", None)
            return None if given is None else self._check_dtype(given)
        value = _plain(arguments.get(self._dtype_from))  # T from the type of a value
        if isinstance(value, Scalar):
            return self._check_dtype(value.dtype)
        raw = arguments.get(self._dtype_from)
        if isinstance(raw, np.generic):
            return self._check_dtype(dt.from_numpy(raw.dtype))
        if isinstance(value, bool):
            raise TypeError(f"{self._name}: {self._dtype_from} must be a number, got {describe(value)}")
        if isinstance(value, float):
            return self._check_dtype(dt.float32)
        if isinstance(value, int):
            return self._check_dtype(dt.int32 if int_fits(value, dt.int32) else dt.int64)
        return None

    @classmethod
    def _check_dtype(cls, given: Any) -> dt.DataType:
        assert cls._template is not None
        allowed = cls._template[1]
        if not isinstance(given, dt.DataType) or not given.is_numeric() or given == dt.bool_:
            raise TypeError(f"{cls._name}: the data type T must be an asc data type (asc.float16, ...), "
                            f"got {describe(given)}")
        if allowed and given not in allowed:
            raise TypeError(f"{cls._name}: the data type T must be one of "
                            f"{', '.join('asc.' + a.name for a in allowed)}, got asc.{given.name}")
        return given

    def _check(self, f: _Field, value: Any, given: bool = True) -> Any:
        """value as field f holds it, or a TypeError / ValueError naming the
        struct and the field; given: the caller passed it (else it takes its
        default; None does too where upstream's default is None)."""
        api = self._name
        value = _plain(ConstExpr.unwrap(value))
        if not given or (value is None and f.name in self._none_defaults):
            value = f.default()
        if isinstance(value, _Default):
            nested = STRUCTS[value.name]
            return nested()._with_template(self._t)
        if f.kind == "struct":
            cls = STRUCTS[f.struct_name]
            if not isinstance(value, cls):
                raise TypeError(f"{api}: {f.name} must be an asc.{f.struct_name}, got {describe(value)}")
            if cls._template is not None:
                if value._t is not None and self._t is not None and value._t != self._t:
                    raise TypeError(f"{api}: {f.name} is an asc.{f.struct_name} of asc.{value._t.name}, but this "
                                    f"{api} is of asc.{self._t.name}")
                value = value._with_template(self._t)
            return value
        if f.kind == "enum":
            if isinstance(value, f.enum):
                return value
            raise TypeError(f"{api}: {f.name} must be a member of {f.describe()}, got {describe(value)}")
        if f.length:
            from .array import Array

            if isinstance(value, Array):
                value = [value[i] for i in range(len(value))]
            if isinstance(value, FieldArray):
                value = list(value)
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"{api}: {f.name} must be a list or tuple of {f.describe(self._t)}, got "
                                f"{describe(value)}")
            if len(value) != f.length:
                raise ValueError(f"{api}: {f.name} must have exactly {f.length} elements, got {len(value)}")
            return [self._number(f, f"{f.name}[{i}]", _plain(ConstExpr.unwrap(v))) for i, v in enumerate(value)]
        return self._number(f, f.name, value)

    def _number(self, f: _Field, name: str, value: Any, ftype: Optional[dt.DataType] = None) -> Any:
        """value as number field f holds it (name: the field, or f[i] for an
        element); ftype: the C type, the field's own for this struct's T by
        default (None while T is not known: any number)."""
        api = self._name
        ftype = ftype or f.ctype(self._t)
        if isinstance(value, enum.Enum) or (isinstance(value, bool) and ftype != dt.bool_):
            raise TypeError(f"{api}: {name} must be {_kind_text(ftype)}, got {describe(value)}")
        if isinstance(value, Scalar):
            if ftype is not None and not ftype.is_float() and not (value.dtype.is_int() or value.dtype == dt.bool_):
                raise TypeError(f"{api}: {name} is {ftype.name}, got {describe(value)}; convert it with "
                                f"asc.{ftype.name}(...)")
            return value
        if ftype is None:  # T not known yet: any number, checked once it is
            if isinstance(value, (int, float)):
                return value
            raise TypeError(f"{api}: {name} must be a number, got {describe(value)}")
        if ftype == dt.bool_:
            if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
                return bool(value)
            raise TypeError(f"{api}: {name} must be a bool, got {describe(value)}")
        if ftype.is_float():
            if isinstance(value, (int, float)):
                return value
            raise TypeError(f"{api}: {name} must be a number ({ftype.name}), got {describe(value)}")
        if isinstance(value, int):
            if not int_fits(value, ftype):
                lo, hi = _range(ftype)
                raise ValueError(f"{api}: {name} = {value} is out of range [{lo}, {hi}] "
                                 f"({ftype.name}, the field's C type)")
            return value
        raise TypeError(f"{api}: {name} must be an integer, got {describe(value)}")

    def _with_template(self, t: Optional[dt.DataType]) -> "ParamStruct":
        """This struct with template argument t (itself when it has it or t
        is None; a checked copy when T was not given yet)."""
        if t is None or self._t == t or self._template is None:
            return self
        copy = object.__new__(type(self))
        values = dict(self._values_now())
        copy._setup(values, t)
        return copy

    # ---- reading and writing fields ----------------------------------------------
    def __getattr__(self, name: str) -> Any:
        f = type(self)._field_index.get(name)
        if f is None:
            raise AttributeError(f"{self._name} has no field `{name}`; its fields: {', '.join(self._field_names())}")
        return self.field(name)

    def field(self, name: str) -> Any:
        """The value of field `name` (methods that share a field's name, as
        ShapeInfo.shape, leave the field readable here)."""
        f = type(self)._field_index.get(name)
        if f is None:
            raise AttributeError(f"{self._name} has no field `{name}`; its fields: {', '.join(self._field_names())}")
        if self._handle is not None:
            return FieldArray(self, f, None) if f.length else self._get_ir(f, None)
        v = self._v[name]
        return FieldArray(self, f, v) if f.length else v

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "name_hint":  # the front end names IR values after variables
            object.__setattr__(self, name, value)
            return
        f = type(self)._field_index.get(name)
        if f is None:
            raise AttributeError(f"{self._name} has no field `{name}`; its fields: {', '.join(self._field_names())}")
        if self._handle is not None:  # a kernel value: its fields become values of their own
            values = self._values_now()
            object.__setattr__(self, "_handle", None)
            object.__setattr__(self, "_v", values)
        self._v[name] = self._check(f, value)

    @classmethod
    def _field_names(cls) -> List[str]:
        return [f.name for f in cls._fields]

    def _values_now(self) -> Dict[str, Any]:
        return {f.name: (list(self.field(f.name)) if f.length else self.field(f.name)) for f in self._fields}

    def values(self) -> Tuple[Any, ...]:
        """The fields, in the table's (the C++ constructor's) order; an
        array field as a list."""
        return tuple(list(self.field(f.name)) if f.length else self.field(f.name) for f in self._fields)

    @property
    def dtype(self) -> Optional[dt.DataType]:
        """A template struct's T (its default when none was given); None
        for the others."""
        if self._template is None:
            return None
        return self._t or self._template[0]

    @property
    def handle(self) -> Any:
        """The IR value this struct is, or None for one of values (to_ir()
        makes its IR value)."""
        return self._handle

    # ---- the IR -------------------------------------------------------------------
    def ir_name(self) -> str:
        """The IR name of the struct's type: Name, or Name<f16> for a template."""
        t = self.dtype
        return self._name if t is None else f"{self._name}<{t.name}>"

    @classmethod
    def from_ir(cls, handle: Any) -> "ParamStruct":
        """The struct an IR value holds (a device function's parameter, a
        result): its fields are read with asc.struct.get where they are read."""
        self = object.__new__(cls)
        object.__setattr__(self, "_handle", handle)
        object.__setattr__(self, "_v", {})
        t = handle.type.dtype
        object.__setattr__(self, "_t", dt.from_name(t) if cls._template is not None and t else None)
        return self

    def _get_ir(self, f: _Field, index: Any) -> Any:
        """Field f (element `index` of an array field) of this struct's IR value."""
        b = _b.current()
        base = self.to_ir()
        ops = [base]
        if f.length:
            ops.append(index if isinstance(index, Scalar) else const(index))
        if f.kind == "struct":
            nested = STRUCTS[f.struct_name]
            name = nested._name if nested._template is None else f"{nested._name}<{self.dtype.name}>"  # type: ignore
            return nested.from_ir(b.create1("asc.struct.get", ops, b.struct_type(name), {"field": f.name}))
        ftype = f.ctype(self.dtype) or dt.int32
        h = b.create1("asc.struct.get", ops, b.scalar_type(ftype), {"field": f.name})
        return Scalar(h, ftype)

    def to_ir(self) -> Any:
        """An `asc.struct` value of these fields, built at the current point
        (the IR value itself for a struct that is one)."""
        if self._handle is not None:
            return self._handle
        b = _b.current()
        t = self.dtype
        ops: List[Any] = []
        for f in self._fields:
            v = self._v[f.name]
            if f.kind == "struct":
                ops.append(v._with_template(t).to_ir())
            elif f.kind == "enum":
                ops.append(const(int(v), dt.int32) if isinstance(v, enum.Enum) else to_scalar(v, dt.int32))
            elif f.length:
                ops += [self._operand(f, f"{f.name}[{i}]", x, t) for i, x in enumerate(v)]
            else:
                ops.append(self._operand(f, f.name, v, t))
        return b.create1("asc.struct", ops, b.struct_type(self.ir_name()))

    def _operand(self, f: _Field, name: str, v: Any, t: Optional[dt.DataType]) -> Any:
        ftype = f.ctype(t)
        assert ftype is not None
        if isinstance(v, Scalar):
            return v if ftype.is_float() or v.dtype.is_int() else to_scalar(v, ftype)
        if f.is_t:  # checked now that T is known
            v = self._number(f, name, v, ftype)
        if ftype.is_float():
            return const(float(v), ftype)
        if ftype == dt.bool_:
            return const(bool(v), dt.bool_)
        if not -(2**63) <= v < 2**63:  # (a uint64 above INT64_MAX has no literal type of its own)
            return const(v, ftype)
        return const(v)  # the literal's own type: the emitter writes it as written

    def on_device(self) -> "ParamStruct":
        """This struct as an IR value (itself when it is one)."""
        return self if self._handle is not None else type(self).from_ir(self.to_ir())

    def __repr__(self) -> str:
        if self._handle is not None:
            return f"{self._name}(<kernel value>)"
        t = f"dtype=asc.{self._t.name}, " if self._t is not None else ""
        return f"{self._name}(" + t + ", ".join(f"{n}={self._v[n]!r}" for n in self._field_names()) + ")"


def _kind_text(ftype: Optional[dt.DataType]) -> str:
    if ftype is None or ftype.is_float():
        return "a number"
    return "a bool" if ftype == dt.bool_ else "an integer"


def _range(dtype: dt.DataType) -> Tuple[int, int]:
    bits = dtype.bitwidth or 0
    if dtype.is_unsigned() or dtype == dt.bool_:
        return 0, (1 if dtype == dt.bool_ else 2**bits - 1)
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def _usage(cls: type) -> str:
    """asc.Name(a, b=1, c=asc.DataFormat.ND, *, dtype=None): how the class is called."""
    parts = []
    for p in cls.__signature__.parameters.values():  # type: ignore[attr-defined]
        if p.kind == p.KEYWORD_ONLY and "*" not in parts:
            parts.append("*")
        d = p.default
        if d is _REQUIRED:
            parts.append(p.name)
        elif isinstance(d, enum.Enum):
            owner = "asc" if type(d).__name__ in _enums.__all__ else "asc.language.core.enums"
            parts.append(f"{p.name}={owner}.{type(d).__name__}.{d.name}")
        else:
            parts.append(f"{p.name}={d!r}")
    return f"asc.{cls.__name__}({', '.join(parts)})"


# ---------------------------------------------------------------------------
# upstream pyasc's constructors, where they differ from the table's fields
# ---------------------------------------------------------------------------

# order: upstream's parameter order (fields it does not list follow, as keywords with the table's
# defaults); required: parameters without a default; none: parameters whose default is None (the
# table's default value); dtype: how a template gets its T ("first": a required first parameter
# `dtype`, as upstream; a field's name: the type of that argument; else a `dtype` keyword after the
# fields, the table's default T when left out)
_UPSTREAM: Dict[str, Dict[str, Any]] = {
    "DataCopyCO12DstParams": {"required": ("n_size", "m_size", "dst_stride", "src_stride")},
    "DataCopyPadExtParams": {"dtype": "first"},
    "FixpipeConfig": {"required": ("layout",)},
    "FixpipeParamsV220": {"order": ("n_size", "m_size", "src_stride", "dst_stride", "quant_pre", "deq_scalar",
                                    "nd_num", "src_nd_stride", "dst_nd_stride", "relu_en", "unit_flag",
                                    "is_channel_split"),
                          "required": ("n_size", "m_size", "src_stride", "dst_stride")},
    "InitConstValueParams": {"dtype": "init_value"},
    "LoadData3DParamsV2": {"order": ("pad_list", "l1_h", "l1_w", "channel_size", "k_extension", "m_extension",
                                     "k_start_pt", "m_start_pt", "stride_w", "stride_h", "filter_w", "filter_h",
                                     "dilation_filter_w", "dilation_filter_h", "en_transpose", "pad_value",
                                     "filter_size_w", "filter_size_h", "f_matrix_ctrl")},
    "LoadDataRepeatParam": {"order": ("repeat_time", "repeat_stride", "repeat_mode")},
    "MmadParams": {"none": ("is_bias", "fm_offset", "en_ssparse", "en_winograd_a", "en_winograd_b", "unit_flag",
                            "cmatrix_source", "cmatrix_init_val")},
    "MrgSort4Info": {"required": ("element_lengths",)},
    "Nd2NzParams": {"required": "all"},
    "Nz2NdParamsFull": {"required": "all"},
    "AippParams": {"dtype": "first"},
    "SliceInfo": {"none": ("end_index", "burst_len")},
    "VdeqInfo": {"required": "all"},
}


def _signature(name: str, fields: Sequence[_Field], template: Any) -> Tuple[inspect.Signature, str, Tuple[str, ...]]:
    spec = _UPSTREAM.get(name, {})
    order = list(spec.get("order", ()))
    order += [f.name for f in fields if f.name not in order]
    by_name = {f.name: f for f in fields}
    required = spec.get("required", ())
    if required == "all":
        required = tuple(order)
    none = tuple(spec.get("none", ()))
    P = inspect.Parameter
    params = []
    dtype_from = ""
    if template is not None:
        dtype_from = spec.get("dtype", "keyword")
        if dtype_from == "first":
            params.append(P("dtype", P.POSITIONAL_OR_KEYWORD))
    for n in order:
        f = by_name[n]
        default = _REQUIRED if n in required else None if n in none else f.default()
        if isinstance(default, list):
            default = tuple(default)  # (an immutable default; the object gets a list of its own)
        params.append(P(n, P.POSITIONAL_OR_KEYWORD, default=default))
    if dtype_from == "keyword":
        params.append(P("dtype", P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params), dtype_from, none


def _make_class(info: Dict[str, Any], base: type = ParamStruct) -> type:
    name: str = info["name"]
    fields = tuple(_Field(row) for row in info["fields"])
    template = None
    if info["template"] is not None:
        default, allowed = info["template"]
        template = (dt.from_name(default), tuple(dt.from_name(a) for a in allowed))
    sig, dtype_from, none = _signature(name, fields, template)
    doc = (f"`{info['cpp']}{'<T>' if template else ''}`: "
           + ", ".join(f"{f.name} ({f.describe()})" for f in fields) + ".")
    cls = type(name, (base,), {
        "__doc__": doc, "__module__": __name__, "__slots__": (),
        "_name": name, "_cpp": info["cpp"], "_init": info["init"], "_fields": fields,
        "_field_index": {f.name: f for f in fields}, "_template": template, "_dtype_from": dtype_from, "_none_defaults": none,
        "__signature__": sig,
    })
    setattr(cls, _USAGE_ATTR, (_usage(cls),))
    return cls


# ---------------------------------------------------------------------------
# the structs with more than a constructor
# ---------------------------------------------------------------------------

_INFOS: Dict[str, Dict[str, Any]] = {i["name"]: i for i in _C.struct_infos()}
_SHAPE_DIMS = 8  # K_MAX_SHAPE_DIM: ShapeInfo's arrays


class _ShapeInfoBase(ParamStruct):
    __slots__ = ()


class ShapeInfo(_make_class(_INFOS["ShapeInfo"], _ShapeInfoBase)):  # type: ignore[misc]
    """`AscendC::ShapeInfo`: the shape of a LocalTensor or GlobalTensor
    (set_shape_info / get_shape_info). As upstream: ShapeInfo(shape,
    original_shape=None, data_format=None) with shape a list, tuple or
    asc.array of at most 8 dimensions (original_shape is shape when not
    given, data_format DataFormat.ND), or ShapeInfo() (no dimensions).
    info.shape(i) and info.original_shape(i) read a dimension;
    info.shape_dim, info.original_shape_dim and info.data_format the rest;
    info.field("shape") the whole array of 8."""

    __slots__ = ()
    __signature__ = inspect.Signature([
        inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
        for n in ("shape", "original_shape", "data_format")])

    def __init__(self, shape: Any = None, original_shape: Any = None, data_format: Any = None) -> None:
        shape, original_shape = ConstExpr.unwrap(shape), ConstExpr.unwrap(original_shape)
        dims = self._dims("shape", shape)
        original = dims if original_shape is None else self._dims("original_shape", original_shape)
        values = {"shape_dim": len(dims), "shape": dims + [0] * (_SHAPE_DIMS - len(dims)),
                  "original_shape_dim": len(original),
                  "original_shape": original + [0] * (_SHAPE_DIMS - len(original))}
        if data_format is not None:  # (else DataFormat.ND, the table's default)
            values["data_format"] = ConstExpr.unwrap(data_format)
        self._setup(values, None)

    def _dims(self, name: str, value: Any) -> List[Any]:
        from .array import Array

        if value is None:
            return []
        if isinstance(value, Array):
            value = [value[i] for i in range(len(value))]
        if isinstance(value, FieldArray):
            value = list(value)
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"ShapeInfo: {name} must be a list, tuple or asc.array of dimensions, got "
                            f"{describe(value)}")
        if len(value) > _SHAPE_DIMS:
            raise ValueError(f"ShapeInfo: {name} has {len(value)} dimensions, at most {_SHAPE_DIMS} fit "
                             "(K_MAX_SHAPE_DIM)")
        return list(value)

    def shape(self, dim: Any) -> Any:  # type: ignore[override]
        """Dimension `dim` (shape[dim]); a runtime dim reads it in the kernel."""
        return self.field("shape")[dim]

    def original_shape(self, dim: Any) -> Any:  # type: ignore[override]
        """Dimension `dim` of the original shape."""
        return self.field("original_shape")[dim]


setattr(ShapeInfo, _USAGE_ATTR, ("asc.ShapeInfo(shape, original_shape=None, data_format=None)", "asc.ShapeInfo()"))


class _FixpipeConfigBase(ParamStruct):
    __slots__ = ()


class FixpipeConfig(_make_class(_INFOS["FixpipeConfig"], _FixpipeConfigBase)):  # type: ignore[misc]
    """`AscendC::FixpipeConfig`: FixpipeConfig(layout); cfg_nz() and
    cfg_row_major() are the devkit's CFG_NZ and CFG_ROW_MAJOR."""

    __slots__ = ()

    @classmethod
    def cfg_nz(cls) -> "FixpipeConfig":
        """CFG_NZ: FixpipeConfig(CO2Layout.NZ)."""
        return cls(_enums.CO2Layout.NZ)

    @classmethod
    def cfg_row_major(cls) -> "FixpipeConfig":
        """CFG_ROW_MAJOR: FixpipeConfig(CO2Layout.ROW_MAJOR)."""
        return cls(_enums.CO2Layout.ROW_MAJOR)


# family slice: upstream's SliceInfo.__getitem__ (s[i], s[k:]) reads a C array of SliceInfo through a
# pointer (GetValue / sliceInfo + k); a SliceInfo here is one struct value and data_copy takes Python lists
class _SliceInfoBase(ParamStruct):
    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:  # type: ignore[override]
        raise NotImplementedError("asc.SliceInfo.__getitem__ (s[i], s[k:]: an element or the tail of an array "
                                  "of SliceInfo) is not supported: a SliceInfo is one struct; pass the "
                                  "SliceInfo of each dimension to asc.data_copy in a list (list[k:] for a tail)")


SliceInfo = _make_class(_INFOS["SliceInfo"], _SliceInfoBase)

_CUSTOM = {"ShapeInfo": ShapeInfo, "FixpipeConfig": FixpipeConfig, "SliceInfo": SliceInfo}

# the table declares a nested struct before the structs that hold it
STRUCTS: Dict[str, type] = {}
for _info in _C.struct_infos():
    STRUCTS[_info["name"]] = _CUSTOM.get(_info["name"]) or _make_class(_info)

globals().update(STRUCTS)

__all__ = ["ParamStruct", "STRUCTS", "FieldArray", *STRUCTS]  # (asc.language.core exports the structs)
