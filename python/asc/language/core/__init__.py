"""Core language: data types, enums, values."""

from .constexpr import ConstExpr
from .dtype import (
                    DataType,
                    bfloat16,
                    bool_,
                    double,
                    float16,
                    float32,
                    float64,
                    float_,
                    half,
                    int8,
                    int16,
                    int32,
                    int64,
                    int_,
                    uint8,
                    uint16,
                    uint32,
                    uint64,
)
from .enums import HardEvent, PipeID, RoundMode, TPosition
from .types import BinaryRepeatParams, UnaryRepeatParams
from .values import RANGE as range  # noqa: A004  `for i in asc.range(n)`, as upstream
from .values import STATIC_RANGE as static_range
from .values import GlobalAddress, GlobalTensor, LocalTensor

__all__ = [
    "ConstExpr", "DataType", "bfloat16", "bool_", "double", "float16", "float32", "float64", "float_", "half",
    "int8", "int16", "int32", "int64", "int_", "uint8", "uint16", "uint32", "uint64",
    "HardEvent", "PipeID", "RoundMode", "TPosition", "BinaryRepeatParams", "UnaryRepeatParams", "GlobalAddress", "GlobalTensor", "LocalTensor", "range", "static_range",
]
