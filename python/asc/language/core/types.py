"""Parameter structs of the vector instructions' level-0 forms.

`BinaryRepeatParams` and `UnaryRepeatParams` are AscendC's structs of the
same names (kernel_struct_binary.h, kernel_struct_unary.h): the block
strides (distance between the 8 data blocks of one repeat) and repeat
strides (distance between consecutive repeats), in 32-byte blocks. Fields
are Python integers (compile-time) or runtime integer values; the
instruction that takes them passes each field to the IR as an operand.
"""

from __future__ import annotations

import enum
from typing import Any, Tuple

from .checks import describe
from .values import Scalar


def _field(value: Any, name: str, api: str, hi: int) -> Any:
    if isinstance(value, (bool, enum.Enum)):
        raise TypeError(f"{api}: {name} must be an integer, got {describe(value)}")
    if isinstance(value, int):
        if not 0 <= value <= hi:
            raise ValueError(f"{api}: {name} = {value} is out of range [0, {hi}]")
        return value
    if isinstance(value, Scalar) and value.dtype.is_int():
        return value
    raise TypeError(f"{api}: {name} must be an integer, got {describe(value)}")


class BinaryRepeatParams:
    """`AscendC::BinaryRepeatParams`: strides of dst, src0 and src1."""

    _fields = ("dst_blk_stride", "src0_blk_stride", "src1_blk_stride", "dst_rep_stride", "src0_rep_stride",
               "src1_rep_stride")

    def __init__(self, dst_blk_stride: Any = 1, src0_blk_stride: Any = 1, src1_blk_stride: Any = 1,
                 dst_rep_stride: Any = 8, src0_rep_stride: Any = 8, src1_rep_stride: Any = 8) -> None:
        api = "BinaryRepeatParams"
        values = (dst_blk_stride, src0_blk_stride, src1_blk_stride, dst_rep_stride, src0_rep_stride, src1_rep_stride)
        for name, v in zip(self._fields, values):
            setattr(self, name, _field(v, name, api, 255))  # uint8_t fields

    def strides(self) -> Tuple[Any, ...]:
        """The fields in the C++ constructor's order."""
        return tuple(getattr(self, n) for n in self._fields)

    def __repr__(self) -> str:
        return "BinaryRepeatParams(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields) + ")"


class UnaryRepeatParams:
    """`AscendC::UnaryRepeatParams`: strides of dst and src."""

    _fields = ("dst_blk_stride", "src_blk_stride", "dst_rep_stride", "src_rep_stride")

    def __init__(self, dst_blk_stride: Any = 1, src_blk_stride: Any = 1, dst_rep_stride: Any = 8,
                 src_rep_stride: Any = 8) -> None:
        api = "UnaryRepeatParams"
        his = (65535, 65535, 255, 255)  # uint16_t block strides, uint8_t repeat strides
        values = (dst_blk_stride, src_blk_stride, dst_rep_stride, src_rep_stride)
        for name, v, hi in zip(self._fields, values, his):
            setattr(self, name, _field(v, name, api, hi))

    def strides(self) -> Tuple[Any, ...]:
        """The fields in the C++ constructor's order."""
        return tuple(getattr(self, n) for n in self._fields)

    def __repr__(self) -> str:
        return "UnaryRepeatParams(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields) + ")"
