"""Shared emission of the vector instructions: the count (level-2) form and
the level-0 form (mask, repeat_times, strides)."""

from __future__ import annotations

import enum
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe
from ..core.types import BinaryRepeatParams, UnaryRepeatParams
from ..core.values import LocalTensor, Scalar, const, int_operand, is_number, to_scalar
from .utils import count_form, local

# the parameters of each level-0 signature after the tensors and scalar
_L0_PARAMS = {
    "binary": ("mask", "repeat_times", "repeat_params", "is_set_mask"),
    "unary": ("mask", "repeat_times", "repeat_params", "is_set_mask"),
    "duplicate": ("mask", "repeat_times", "dst_block_stride", "dst_repeat_stride", "is_set_mask"),
}


def same_dtype(api: str, tensors: Sequence[LocalTensor]) -> None:
    first = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype != first:
            raise TypeError(f"{api}: all tensors must have one element type, got {first.name} and {t.dtype.name}")


def is_level0(args: tuple, kwargs: Dict[str, Any]) -> bool:
    """Does the call use the level-0 form (mask, repeat_times, ...)?"""
    if "mask" in kwargs or "repeat_times" in kwargs:
        return True
    return len(args) >= 2 and not (len(args) == 2 and type(args[1]) is bool)


def _bind(api: str, names: Tuple[str, ...], args: tuple, kwargs: Dict[str, Any]) -> Dict[str, Any]:
    if len(args) > len(names):
        raise TypeError(f"{api}: too many arguments for the level-0 form ({', '.join(names)})")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"{api}: unexpected argument '{k}' for the level-0 form ({', '.join(names)})")
        if k in bound:
            raise TypeError(f"{api}: argument '{k}' given twice")
        bound[k] = v
    bound.setdefault("is_set_mask", True)
    missing = [n for n in names if n not in bound]
    if missing:
        raise TypeError(f"{api}: missing argument(s) {', '.join(missing)} of the level-0 form")
    return bound


def _u64(x: Any, what: str) -> Scalar:
    if isinstance(x, bool):
        raise TypeError(f"{what} must be an integer, got bool")
    if isinstance(x, int) and not isinstance(x, enum.Enum):
        if not -(2**63) <= x < 2**64:
            raise ValueError(f"{what} = {x} does not fit uint64")
        return const(x % 2**64, dt.uint64)
    return int_operand(x, what)


def _check_const(x: Any, lo: int, hi: int, what: str) -> None:
    if isinstance(x, int) and not isinstance(x, bool) and not lo <= x <= hi:
        raise ValueError(f"{what} = {x} is out of range [{lo}, {hi}]")


def level0_operands(api: str, kind: str, dtype: dt.DataType, args: tuple,
                    kwargs: Dict[str, Any]) -> Tuple[List[Any], int, bool]:
    """The operands mask0, mask1, repeat_times, strides..., the mask mode
    (0 continuous, 1 bit) and is_set_mask of a level-0 call."""
    p = _bind(api, _L0_PARAMS[kind], args, kwargs)
    if type(p["is_set_mask"]) is not bool:
        raise TypeError(f"{api}: is_set_mask must be a bool")
    per_repeat = 256 // dtype.sizeof()
    mask = p["mask"]
    if isinstance(mask, (list, tuple)):
        # bit mode: mask[0] holds elements 0-63, mask[1] elements 64-127 (a
        # 32-bit type has 64 elements a repeat and ignores mask[1])
        mode = 1
        if not (len(mask) == 2 or (per_repeat <= 64 and len(mask) == 1)):
            raise ValueError(f"{api}: a bit mask is a list [mask0, mask1] of two uint64 "
                             f"(mask0: elements 0-63, mask1: elements 64-127), got {len(mask)} values")
        m0 = _u64(mask[0], f"{api}: mask[0]")
        m1 = _u64(mask[1] if len(mask) == 2 else 0, f"{api}: mask[1]")
    else:
        # continuous mode: the leading `mask` elements of each repeat; more
        # than a repeat holds (per_repeat for dtype) acts as all of them
        mode = 0
        if isinstance(mask, int) and not isinstance(mask, bool) and mask < 0:
            raise ValueError(f"{api}: mask = {mask} is negative (continuous mode: the number of elements of "
                             f"each repeat, 0 to {per_repeat} for {dtype.name})")
        m0 = _u64(mask, f"{api}: mask")
        m1 = const(0, dt.uint64)
    _check_const(p["repeat_times"], 0, 255, f"{api}: repeat_times")
    ops: List[Any] = [m0, m1, int_operand(p["repeat_times"], f"{api}: repeat_times")]
    if kind == "duplicate":
        _check_const(p["dst_block_stride"], 0, 65535, f"{api}: dst_block_stride")
        _check_const(p["dst_repeat_stride"], 0, 255, f"{api}: dst_repeat_stride")
        ops += [int_operand(p[n], f"{api}: stride") for n in ("dst_block_stride", "dst_repeat_stride")]
    else:
        cls = BinaryRepeatParams if kind == "binary" else UnaryRepeatParams
        rp = p["repeat_params"]
        if not isinstance(rp, cls):
            raise TypeError(f"{api}: repeat_params must be an asc.{cls.__name__}, got {type(rp).__name__}")
        ops.append(rp.to_ir())
    return ops, mode, p["is_set_mask"]


# the `scalar` of emit for instructions without one (None is a value a user may pass by mistake)
NO_SCALAR = object()


def emit(op: str, tensors: Sequence[Any], names: Sequence[str], scalar: Any,
         args: tuple, kwargs: Dict[str, Any], attrs: Optional[Dict[str, Any]] = None, check_same: bool = True,
         level0: Optional[str] = None) -> None:
    """Emits `op` (count form) or, when the call has the level-0 form and
    `level0` names its signature kind, `op + ".l0"`."""
    api = op
    ts = [local(t, api, n) for t, n in zip(tensors, names)]
    if check_same:
        same_dtype(api, ts)
    operands: list = list(ts)
    if scalar is not NO_SCALAR:
        if not (is_number(scalar) or isinstance(scalar, Scalar)):
            raise TypeError(f"{api}: the scalar must be a number or a runtime scalar, got {describe(scalar)}")
        operands.append(to_scalar(scalar, ts[-1].dtype))  # the tensor before it (Axpy: src, a `const U&`)
    if level0 is not None and is_level0(args, kwargs):
        l0, mode, set_mask = level0_operands(api, level0, ts[0].dtype, args, kwargs)
        l0_attrs = dict(attrs or {}, mask_mode=mode)
        if not set_mask:  # the instruction uses the mask register as set_vector_mask left it
            l0_attrs["is_set_mask"] = 0
        _b.current().create(op + ".l0", operands + l0, attrs=l0_attrs)
        return
    operands.append(int_operand(count_form(api, args, kwargs), "count"))
    _b.current().create(op, operands, attrs=attrs)
