"""The DMA store atomics: `asc.set_atomic_add`, `set_atomic_max`,
`set_atomic_min`, `set_atomic_type`, `set_atomic_none`
(basic_api/kernel_operator_set_atomic_intf.h) and
`asc.set_store_atomic_config` / `asc.get_store_atomic_config`
(kernel_operator_common_intf.h).

Each block has a store-atomic state: a type (an AtomicDtype: none, f32,
f16, s16, s32, s8, bf16) and an operation (sum, max, min). While a type is
set, every DMA write into GM (asc.data_copy and asc.data_copy_pad from UB
to GM) combines each element of that type with the one in GM: the sum (a
float sum rounded to the type), the maximum or the minimum. The bytes are
read as the atomic type whatever the tensors' type. Blocks that add into
the same GM bytes get their sum: each DMA write combines atomically with
respect to the other blocks (integer results do not depend on the order
the blocks run in; float sums are summed in the order the blocks' writes
happen, so with three or more blocks the last bits may vary). The
sanitizer does not report two blocks' atomic writes into the same bytes
as a race. A block starts with no atomic set.
"""

from __future__ import annotations

from typing import Any, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import dtype_arg, enum_arg, usage
from ..core.enums import AtomicDtype, AtomicOp  # type: ignore[attr-defined]
from ..core.values import Scalar


def _typed(op: str, api: str, dtype: Any) -> None:
    d = dtype_arg(dtype, api)
    b = _b.current()
    b.create(op, [], attrs={"dtype": [b.scalar_type(d)]})


@usage("asc.set_atomic_add(dtype)")
def set_atomic_add(dtype: Any) -> None:
    """`AscendC::SetAtomicAdd<T>()`: later DMA writes into GM add to it, as
    elements of `dtype` (int8, int16, int32, float16, bfloat16, float32)."""
    _typed("asc.set_atomic_add", "asc.set_atomic_add", dtype)


@usage("asc.set_atomic_max(dtype)")
def set_atomic_max(dtype: Any) -> None:
    """`AscendC::SetAtomicMax<T>()`: later DMA writes into GM keep the
    maximum of the written and the stored element of `dtype`."""
    _typed("asc.set_atomic_max", "asc.set_atomic_max", dtype)


@usage("asc.set_atomic_min(dtype)")
def set_atomic_min(dtype: Any) -> None:
    """`AscendC::SetAtomicMin<T>()`: later DMA writes into GM keep the
    minimum of the written and the stored element of `dtype`."""
    _typed("asc.set_atomic_min", "asc.set_atomic_min", dtype)


@usage("asc.set_atomic_type(dtype)")
def set_atomic_type(dtype: Any) -> None:
    """`AscendC::SetAtomicType<T>()`: sets the atomic type to `dtype` and
    keeps the operation (sum unless set_atomic_max / min chose another)."""
    _typed("asc.set_atomic_type", "asc.set_atomic_type", dtype)


@usage("asc.set_atomic_none()")
def set_atomic_none() -> None:
    """`AscendC::SetAtomicNone()`: later DMA writes into GM overwrite it."""
    _b.current().create("asc.set_atomic_none", [])


@usage("asc.set_store_atomic_config(atomic_type, atomic_op)")
def set_store_atomic_config(atomic_type: Any, atomic_op: Any) -> None:
    """`AscendC::SetStoreAtomicConfig<type, op>()`: sets the atomic type
    (an asc.AtomicDtype; ATOMIC_NONE turns the atomics off) and the
    operation (asc.AtomicOp.ATOMIC_SUM)."""
    api = "asc.set_store_atomic_config"
    t = enum_arg(atomic_type, AtomicDtype, api, "atomic_type")
    o = enum_arg(atomic_op, AtomicOp, api, "atomic_op")
    _b.current().create(api, [], attrs={"atomic_type": ("AtomicDtype", int(t)), "atomic_op": ("AtomicOp", int(o))})


@usage("atomic_type, atomic_op = asc.get_store_atomic_config()")
def get_store_atomic_config() -> Tuple[Scalar, Scalar]:
    """`AscendC::GetStoreAtomicConfig(atomicType, atomicOp)`: the atomic
    type (the AtomicDtype value, 0 for none) and the operation (0 sum; 1
    max and 2 min in this model, which the devkit does not name), as two
    uint16 scalars."""
    b = _b.current()
    t = b.scalar_type(dt.uint16)
    op = b.create("asc.get_store_atomic_config", [], [t, t])
    return Scalar(op.results[0], dt.uint16), Scalar(op.results[1], dt.uint16)
