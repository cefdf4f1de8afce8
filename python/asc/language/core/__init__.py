"""Core language: data types, enums, values, properties and small helpers."""

from .array import array
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
                    void,
)
from .enums import *  # noqa: F403  (every enum class upstream exports, from the C core's enum table)
from .enums import __all__ as _enums_all
from .memory_allocator import LocalMemAllocator
from .ops import inline, number
from .properties import DEFAULT_C0_SIZE, ONE_BLK_SIZE, TOTAL_L0C_SIZE, TOTAL_L1_SIZE, property  # noqa: A004
from .types import *  # noqa: F403  (every parameter struct of the C core's struct table)
from .types import STRUCTS as _STRUCTS
from .utils import ceildiv, get_shape_size, static_assert
from .values import RANGE as range  # noqa: A004  `for i in asc.range(n)`, as upstream
from .values import STATIC_RANGE as static_range
from .values import GlobalAddress, GlobalTensor, LocalTensor, LocalTensorAuto, MrgSortSrcList

__all__ = [
    "ConstExpr", "DataType", "bfloat16", "bool_", "double", "float16", "float32", "float64", "float_", "half",
    "int8", "int16", "int32", "int64", "int_", "uint8", "uint16", "uint32", "uint64",
    "GlobalAddress", "GlobalTensor", "LocalTensor", "range", "static_range",
    "LocalMemAllocator", "LocalTensorAuto", "MrgSortSrcList",
] + list(_enums_all) + list(_STRUCTS) + [
    "void", "array", "inline", "number", "property", "DEFAULT_C0_SIZE", "ONE_BLK_SIZE", "TOTAL_L0C_SIZE",
    "TOTAL_L1_SIZE", "ceildiv", "get_shape_size", "static_assert",
]
