"""Element data types (``asc.float16``, ...), as in upstream pyasc."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any, Optional

import numpy as np


class DataType:
    """A scalar element type. Instances are singletons compared by name."""

    _re_matcher = re.compile("^(int|float|uint|bfloat)([0-9]+)$")

    class Kind(Enum):
        Any = ""
        Int = "int"
        Float = "float"
        UInt = "uint"

    _NAMES = ("void", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "bfloat16", "float32", "float64")

    def __init__(self, name: str):
        if not isinstance(name, str) or name not in self._NAMES:
            from ...codegen.errors import CompileError

            raise CompileError(f"asc.DataType: {name!r} is not a data type",
                               hint="hint: use the predefined types asc.float16, asc.float32, asc.int32, ... "
                                    "(or x.dtype of a tensor)")
        self.name = name
        self.kind = self.Kind.Any
        self.bitwidth: Optional[int] = None
        match = self._re_matcher.match(name)
        if match:
            self.kind = self.Kind.Float if match[1] == "bfloat" else self.Kind(match[1])
            self.bitwidth = int(match[2])
        elif name == "bool":
            self.kind = self.Kind.UInt
            self.bitwidth = 8

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DataType) and self.name == other.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"asc.{self.name}"

    def is_int(self) -> bool:
        return self.kind in (self.Kind.Int, self.Kind.UInt)

    def is_float(self) -> bool:
        return self.kind == self.Kind.Float

    def is_numeric(self) -> bool:
        return self.is_int() or self.is_float()

    def is_signed(self) -> bool:
        return self.kind == self.Kind.Int

    def is_unsigned(self) -> bool:
        return self.kind == self.Kind.UInt

    def is_void(self) -> bool:
        return self.name == "void"

    def sizeof(self) -> int:
        """Size of one element in bytes."""
        if self.bitwidth is None:
            raise ValueError(f"DataType does not have a size: {self.name}")
        return self.bitwidth // 8

    def __call__(self, value: Any = None) -> Any:
        if value is None:
            from ...codegen.errors import CompileError

            raise CompileError(f"asc.{self.name}(...) converts a number or a runtime scalar, got no value",
                               hint=f"hint: write asc.{self.name}(x) with x a number or a runtime scalar")
        # asc.float32(x) inside a kernel converts a scalar; see core/values.py
        from .values import cast_scalar

        return cast_scalar(value, self)


void = DataType("void")
int8 = DataType("int8")
int16 = DataType("int16")
int32 = DataType("int32")
int64 = DataType("int64")
uint8 = DataType("uint8")
uint16 = DataType("uint16")
uint32 = DataType("uint32")
uint64 = DataType("uint64")
float16 = DataType("float16")
bfloat16 = DataType("bfloat16")
float32 = DataType("float32")
float64 = DataType("float64")
bool_ = DataType("bool")
half = float16
float_ = float32
double = float64
int_ = int32

ALL_DTYPES = (int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, bool_)

_BY_NAME = {dt.name: dt for dt in ALL_DTYPES}


def from_name(name: str) -> DataType:
    return _BY_NAME[name]


_NUMPY = {
    np.dtype(np.int8): int8,
    np.dtype(np.int16): int16,
    np.dtype(np.int32): int32,
    np.dtype(np.int64): int64,
    np.dtype(np.uint8): uint8,
    np.dtype(np.uint16): uint16,
    np.dtype(np.uint32): uint32,
    np.dtype(np.uint64): uint64,
    np.dtype(np.float16): float16,
    np.dtype(np.float32): float32,
    np.dtype(np.float64): float64,
    np.dtype(np.bool_): bool_,
}


def from_numpy(dtype: Any) -> Optional[DataType]:
    """The DataType of a NumPy dtype, or None."""
    try:
        return _NUMPY.get(np.dtype(dtype))
    except TypeError:
        return None


def from_torch(dtype: Any) -> Optional[DataType]:
    """The DataType of a torch.dtype, or None (torch is never imported here)."""
    name = str(dtype).replace("torch.", "")
    return {"bfloat16": bfloat16, "half": float16, "float": float32, "double": float64}.get(name, _BY_NAME.get(name))


class KnownTypes:
    """The data types by the names upstream pyasc's `KnownTypes` gives them
    (`from asc.language.core.dtype import KnownTypes as KT`; `KT.int32`).
    As upstream, `int1` and `bit` are the one-bit boolean and `bool_` is
    int8 (a byte holding 0 or 1, as a C++ bool field is laid out)."""

    void = void
    int1 = bool_
    bit = bool_
    int8 = int8
    int16 = int16
    int32 = int32
    int64 = int64
    uint8 = uint8
    uint16 = uint16
    uint32 = uint32
    uint64 = uint64
    float16 = float16
    bfloat16 = bfloat16
    float32 = float32
    float64 = float64
    bool_ = int8
    int_ = int32
    half = float16
    float_ = float32
    double = float64
