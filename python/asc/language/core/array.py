"""`asc.array(dtype, length[, fill_value])` and `asc.array(dtype, values)`:
a fixed-length array of one element type inside a kernel, as upstream
pyasc's (whose main use is the shape of an asc.ShapeInfo).

Upstream keeps the array in the kernel's stack memory. pyasc keeps its
elements while compiling: each element is a runtime value of the element
type (a number given is converted as upstream converts it, a runtime scalar
is cast), read with a[i] and written with a[i] = v at a compile-time index
(a number, an asc.ConstExpr parameter, an asc.static_range variable). Since
the elements are not in the IR, an index known only while the kernel runs,
and writes inside a runtime `if` or loop (whose body the compiler sees once
for all the times it runs), are compile errors rather than silently wrong.
"""

from __future__ import annotations

import enum
from typing import Any, List, Optional, Tuple

import numpy as np

from ...codegen import builder as _b
from ...codegen.errors import UnsupportedError
from .checks import describe, dtype_arg, error, usage
from .constexpr import ConstExpr
from .dtype import DataType
from .ops import element_value
from .values import Scalar

MAX_LENGTH = 1 << 16  # elements; pyasc holds each while compiling


class Array:
    """A fixed-length array of `dtype` elements (made by asc.array)."""

    def __init__(self, dtype: DataType, elements: List[Optional[Scalar]], block: Any):
        """Internal: kernels call asc.array(...)."""
        self.dtype = dtype
        self._elements = elements
        self._block = block  # the block that created it: the only one that may write it

    @property
    def length(self) -> int:
        return len(self._elements)

    def __len__(self) -> int:
        return len(self._elements)

    def __repr__(self) -> str:
        return f"Array({self.dtype.name}, {len(self._elements)})"

    def _index(self, index: Any) -> int:
        index = ConstExpr.unwrap(index)
        if isinstance(index, np.integer):
            index = int(index)
        if isinstance(index, Scalar):
            raise UnsupportedError("an asc.array indexed by a runtime value: its elements are known while "
                                   "compiling, the index only while the kernel runs",
                                   hint="hint: index it with a compile-time integer (a number, an asc.ConstExpr "
                                        "parameter, an asc.static_range variable), or keep the values in a "
                                        "LocalTensor and read them with t.get_value(i)")
        if not isinstance(index, int) or isinstance(index, (bool, enum.Enum)):
            raise error(f"an asc.array index must be an integer, got {describe(index)}",
                        "hint: write a[i] with i a compile-time integer")
        if not 0 <= index < len(self._elements):
            raise error(f"index {index} is out of range for an asc.array of {len(self._elements)} elements",
                        f"hint: indices go from 0 to {len(self._elements) - 1}")
        return index

    def __getitem__(self, index: Any) -> Scalar:
        i = self._index(index)
        value = self._elements[i]
        if value is None:
            raise error(f"element {i} of an asc.array is read before it is written",
                        "hint: give the array a fill_value or its values, asc.array(dtype, n, fill_value=0), or "
                        "write a[i] = v first")
        return value

    def __setitem__(self, index: Any, value: Any) -> None:
        i = self._index(index)
        if _b.current().block is not self._block:
            raise UnsupportedError("an asc.array written inside a runtime `if` or loop: pyasc keeps its elements "
                                   "while compiling, which sees the body once for all the times it runs",
                                   hint="hint: write the array where it is created (an asc.static_range loop "
                                        "there is fine), or keep the values in a LocalTensor (t.set_value)")
        self._elements[i] = element_value(value, self.dtype, "asc.array", "an element")

    def elements(self) -> Tuple[Scalar, ...]:
        """Every element, for an API that takes an array (an error if one
        was never written)."""
        return tuple(self[i] for i in range(len(self._elements)))


@usage("asc.array(dtype, length)", "asc.array(dtype, length, fill_value)", "asc.array(dtype, values)")
def array(dtype: DataType, length_or_values: Any, fill_value: Any = None) -> Array:
    """An array of `length` elements of `dtype` (each `fill_value`, or
    unwritten), or of the given values."""
    dtype = dtype_arg(dtype, "asc.array")
    length_or_values = ConstExpr.unwrap(length_or_values)
    block = _b.current().block
    if isinstance(length_or_values, int) and not isinstance(length_or_values, (bool, enum.Enum)):
        n = length_or_values
        if not 0 < n <= MAX_LENGTH:
            raise error(f"asc.array: the length must be from 1 to {MAX_LENGTH}, got {n}",
                        "hint: write asc.array(dtype, n) with a positive compile-time n")
        if fill_value is None:
            return Array(dtype, [None] * n, block)
        fill = element_value(fill_value, dtype, "asc.array", "fill_value")
        return Array(dtype, [fill] * n, block)
    if isinstance(length_or_values, Scalar):
        raise error("asc.array: the length must be known at compile time, got a runtime value",
                    "hint: write asc.array(dtype, n) with n a number or an asc.ConstExpr parameter")
    if not isinstance(length_or_values, (tuple, list)):
        raise error(f"asc.array takes a length or a tuple of values, got {describe(length_or_values)}",
                    "hint: write asc.array(asc.int32, 4) or asc.array(asc.int32, (8, 8))")
    if fill_value is not None:
        raise error("asc.array: fill_value cannot be given together with the values",
                    "hint: write asc.array(dtype, values) or asc.array(dtype, length, fill_value)")
    if not 0 < len(length_or_values) <= MAX_LENGTH:
        raise error(f"asc.array: give from 1 to {MAX_LENGTH} values, got {len(length_or_values)}",
                    "hint: write asc.array(asc.int32, (8, 8))")
    elements: List[Optional[Scalar]] = [element_value(v, dtype, "asc.array", f"value {i}")
                                        for i, v in enumerate(length_or_values)]
    return Array(dtype, elements, block)


__all__ = ["Array", "array"]
