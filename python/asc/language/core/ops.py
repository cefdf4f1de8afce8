"""`asc.number` (a number as a runtime value of a given type) and
`asc.inline` (Ascend C source inserted verbatim), as upstream pyasc has them.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

from ...codegen.errors import UnsupportedError
from .checks import describe, dtype_arg, error, usage
from .constexpr import ConstExpr
from .dtype import DataType
from .values import IRValue, Scalar, const, int_fits, is_number


def element_value(value: Any, dtype: DataType, api: str, what: str = "the value") -> Scalar:
    """`value` (a number or a runtime scalar) as a runtime value of `dtype`,
    converted as upstream converts: a number becomes an int or float of the
    type (a float given for an integer type is truncated), a runtime value is
    cast."""
    value = ConstExpr.unwrap(value)
    if isinstance(value, Scalar):
        return value.cast(dtype)
    if not is_number(value):
        raise error(f"{api}: {what} must be a number or a runtime scalar, got {describe(value)}",
                    f"hint: write {api}(...) with numbers such as 8 or 2.5, or runtime scalars")
    if dtype.is_float():
        number: Any = float(value)
    else:
        if isinstance(value, float) and not math.isfinite(value):
            raise error(f"{api}: {what} {value!r} is no {dtype.name} value",
                        f"hint: give a finite number for an {dtype.name}")
        number = int(value)
        if not int_fits(number, dtype):
            raise error(f"{api}: {what} {number!r} does not fit {dtype.name}",
                        f"hint: give a value in the range of {dtype.name}, or choose a wider type")
    return const(number, dtype)


@usage("asc.number(value, dtype)")
def number(value: Any, dtype: DataType) -> Scalar:
    """`value` as a runtime scalar of type `dtype` (asc.number(1, asc.int64))."""
    dtype = dtype_arg(dtype, "asc.number")
    return element_value(value, dtype, "asc.number")


@usage("asc.inline(code)", "asc.inline(code, args, before_function=False)")
def inline(code: str, args: Optional[Sequence[Any]] = None, before_function: bool = False) -> None:
    """Upstream's verbatim Ascend C source. The simulator cannot run C++
    source, so a kernel with it does not compile here (the arguments are
    checked first)."""
    if not isinstance(code, str):
        raise error(f"asc.inline: `code` must be a string of Ascend C source, got {describe(code)}",
                    "hint: write asc.inline(\"...\") with the C++ statement as a string")
    if args is not None:
        if not isinstance(args, (tuple, list)):
            raise error(f"asc.inline: `args` must be a tuple of values, got {describe(args)}",
                        "hint: write asc.inline(code, (x, y)) with the values the code refers to")
        for a in args:
            if not (isinstance(a, IRValue) or is_number(a)):
                raise error(f"asc.inline: the arguments must be runtime values or numbers, got {describe(a)}",
                            "hint: pass scalars, tensors or numbers in `args`")
    if not isinstance(before_function, bool):
        raise error(f"asc.inline: `before_function` must be True or False, got {describe(before_function)}",
                    "hint: write before_function=True to put the code before the kernel's function")
    raise UnsupportedError("asc.inline: verbatim Ascend C source cannot run on the simulator (Backend.Model), "
                           "and pyasc has no IR operation that carries it yet",
                           hint="hint: write the computation with asc API calls")


__all__ = ["number", "inline", "element_value"]
