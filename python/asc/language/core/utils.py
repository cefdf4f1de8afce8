"""Small helpers of upstream pyasc's core: `asc.ceildiv`, `asc.static_assert`
and `asc.get_shape_size`.

`ceildiv` is upstream's `(x + y - 1) // y`: on Python integers it is
computed while compiling (and works in host code too); with a runtime
integer it builds the IR of that expression (`//` of the kernel: C's
division, which truncates). `static_assert` checks a condition known at
compile time and fails the compilation at its line when it is false.
"""

from __future__ import annotations

import enum
from typing import Any, Optional

import numpy as np

from .checks import describe, error, usage
from .constexpr import ConstExpr
from .values import Scalar


def _integer(value: Any) -> bool:
    if isinstance(value, Scalar):
        return value.dtype.is_int() and value.dtype.name != "bool"
    return isinstance(value, int) and not isinstance(value, (bool, enum.Enum))


@usage("asc.ceildiv(x, y)")
def ceildiv(x: Any, y: Any) -> Any:
    """x / y rounded up, as upstream: (x + y - 1) // y. Integers give an
    integer; a runtime integer among them gives a runtime value."""
    x, y = ConstExpr.unwrap(x), ConstExpr.unwrap(y)
    for name, v in (("x", x), ("y", y)):
        if not _integer(v):
            raise error(f"asc.ceildiv: `{name}` must be an integer (a number or a runtime integer), "
                        f"got {describe(v)}", "hint: write asc.ceildiv(x, y) with integers, e.g. "
                                              "asc.ceildiv(n, 32); for floats round with int(...) first")
    if isinstance(y, int) and y == 0:
        raise error("asc.ceildiv: division by zero (y is 0)",
                    "hint: the divisor of asc.ceildiv(x, y) must not be 0")
    return (x + y - 1) // y


@usage("asc.static_assert(condition)", "asc.static_assert(condition, message)")
def static_assert(test: Any, message: Optional[str] = None) -> None:
    """Fails the compilation, at this line, when `test` (a bool known at
    compile time) is false."""
    if message is not None and not isinstance(message, str):
        raise error(f"asc.static_assert: `message` must be a string, got {describe(message)}",
                    "hint: write asc.static_assert(condition, \"what went wrong\")")
    test = ConstExpr.unwrap(test)
    if isinstance(test, np.bool_):
        test = bool(test)
    if not isinstance(test, bool):
        raise error(f"asc.static_assert: the condition must be a bool known at compile time, got {describe(test)}",
                    "hint: assert on compile-time values (numbers, asc.ConstExpr parameters, x.dtype == "
                    "asc.float32); a runtime value is only known while the kernel runs")
    if not test:
        raise error(f"asc.static_assert failed: {message}" if message else "asc.static_assert failed",
                    "hint: the condition is false for this kernel's compile-time values")


@usage("asc.get_shape_size(shape_info)")
def get_shape_size(shape_info: Any) -> Any:
    """The product of the first shape_dim dimensions of an asc.ShapeInfo
    (`GetShapeSize`): an integer when they are known at compile time (in
    host code too), else a runtime int32 (`asc.get_shape_size` in the IR,
    AscendC::GetShapeSize in Ascend C; upstream's result type)."""
    from .types import ShapeInfo

    shape_info = ConstExpr.unwrap(shape_info)
    if not isinstance(shape_info, ShapeInfo):
        raise error(f"asc.get_shape_size takes an asc.ShapeInfo, got {describe(shape_info)}",
                    "hint: write asc.get_shape_size(t.get_shape_info()) or asc.get_shape_size(asc.ShapeInfo(...))")
    if shape_info.handle is None:
        dims = shape_info.shape_dim
        shape = shape_info.field("shape")
        known = _integer(dims) and not isinstance(dims, Scalar) and all(
            not isinstance(shape[i], Scalar) for i in range(min(int(dims), len(shape))))
        if known:
            size = 1
            for i in range(int(dims)):
                size *= int(shape[i])
            return size
    from ...codegen import builder as _b
    from . import dtype as dt

    b = _b.current()
    h = b.create1("asc.get_shape_size", [shape_info.to_ir()], b.scalar_type(dt.int32))
    return Scalar(h, dt.int32)


__all__ = ["ceildiv", "static_assert", "get_shape_size"]
