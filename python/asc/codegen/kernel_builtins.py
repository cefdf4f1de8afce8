"""The Python builtins a kernel may use (range, int, float, bool, min, max,
abs, len, isinstance, True, False, None), in their kernel meaning: on a
runtime scalar they build IR, on numbers they compute while compiling."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Dict

from ..language.core import dtype as dt
from ..language.core.checks import describe
from ..language.core.values import RANGE, Scalar, binary, is_number, literal_dtype, promote, to_scalar
from . import builder as _b
from .errors import CompileError


def _cast_builtin(dtype: dt.DataType) -> Callable[[Any], Any]:
    pytype = float if dtype.is_float() else (builtins.bool if dtype == dt.bool_ else int)

    def conv(x: Any = 0) -> Any:
        if isinstance(x, Scalar):
            return x.cast(dtype)
        if is_number(x):
            return pytype(x)
        raise CompileError(f"{pytype.__name__}() in a kernel converts a number or a runtime scalar, "
                           f"not {describe(x)}",
                           hint=f"hint: write {pytype.__name__}(x) with x a number or a scalar (a tensor element is "
                                "t.get_value(i))")

    conv.__name__ = pytype.__name__
    return conv


def _min_max(is_max: bool) -> Callable[..., Any]:
    name = "max" if is_max else "min"

    def f(*args: Any) -> Any:
        if len(args) < 2:
            raise CompileError(f"{name}() in a kernel takes two or more values",
                               hint=f"hint: write {name}(a, b) with numbers or runtime scalars")
        for x in args:
            if not (is_number(x) or isinstance(x, Scalar)):
                raise CompileError(f"{name}() in a kernel compares numbers and runtime scalars, not {describe(x)}",
                                   hint=f"hint: write {name}(a, b); for tensors use asc.{name}(dst, src0, src1, "
                                        "count)")
        result = args[0]
        for x in args[1:]:
            if is_number(result) and is_number(x):
                result = max(result, x) if is_max else min(result, x)
                continue
            rt = promote(result.dtype if isinstance(result, Scalar) else literal_dtype(result, x.dtype),
                         x.dtype if isinstance(x, Scalar) else literal_dtype(x, result.dtype))
            a, b = to_scalar(result, rt), to_scalar(x, rt)
            bl = _b.current()
            result = Scalar(bl.create1("arith.max" if is_max else "arith.min", [a, b], bl.scalar_type(rt)), rt)
        return result

    f.__name__ = name
    return f


def _abs(x: Any) -> Any:
    if is_number(x):
        return abs(x)
    if isinstance(x, Scalar):
        neg = -x
        bl = _b.current()
        cond = binary("<", x, 0)
        return Scalar(bl.create1("arith.select", [cond, neg, x], bl.scalar_type(x.dtype)), x.dtype)
    raise CompileError(f"abs() in a kernel takes a number or a runtime scalar, not {describe(x)}",
                       hint="hint: write abs(x) with x a number or a scalar; for tensors use "
                            "asc.abs(dst, src, count)")


# Python builtins a kernel may use, in their kernel meaning.
_BUILTINS: Dict[str, Any] = {
    "range": RANGE, "int": _cast_builtin(dt.int32), "float": _cast_builtin(dt.float32),
    "bool": _cast_builtin(dt.bool_), "min": _min_max(False), "max": _min_max(True), "abs": _abs,
    "True": True, "False": False, "None": None, "len": len, "isinstance": isinstance,
}
_ALLOWED_PY_CALLABLES = (len, isinstance)
_BUILTIN_IDS = frozenset(id(v) for v in _BUILTINS.values() if callable(v)) | frozenset(
    id(v) for v in _ALLOWED_PY_CALLABLES)
