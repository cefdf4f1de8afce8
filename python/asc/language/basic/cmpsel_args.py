"""Argument binding shared by the level-0 forms of the cmpsel family
(vec_cmpsel.py, vec_reduce.py): upstream's parameter names, the mask in its
two modes, integer operands with constant range checks."""

from __future__ import annotations

import enum
from typing import Any, Dict, List, Sequence, Tuple

from ..core import dtype as dt
from ..core.checks import describe, error
from ..core.values import Scalar, const, int_operand
from .vec_ops import _u64

_MISSING = object()


def bind(api: str, names: Sequence[str], defaults: Dict[str, Any], args: tuple, kwargs: Dict[str, Any],
         form: str) -> Dict[str, Any]:
    """Binds args/kwargs to `names` (upstream's order) with `defaults`."""
    hint = f"hint: write {form}"
    if len(args) > len(names):
        raise error(f"{api}: too many arguments ({len(args)} after the tensors; this form takes "
                    f"{', '.join(names)})", hint)
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise error(f"{api}: unexpected argument '{k}' (this form takes {', '.join(names)})", hint)
        if k in bound:
            raise error(f"{api}: argument '{k}' given twice", hint)
        bound[k] = v
    for k, v in defaults.items():
        bound.setdefault(k, v)
    missing = [n for n in names if n not in bound]
    if missing:
        raise error(f"{api}: missing argument(s) {', '.join(missing)}", hint)
    return bound


def flag(api: str, value: Any, name: str) -> bool:
    if type(value) is not bool:
        raise error(f"{api}: {name} must be a Python bool (True or False), got {describe(value)}")
    return value


def mask_operands(api: str, mask: Any, dtype: dt.DataType, allow_bits: bool = True) -> Tuple[List[Any], int]:
    """mask0, mask1 and the mask mode (0 continuous, 1 bit) of `mask`."""
    per_repeat = 256 // dtype.sizeof()
    if isinstance(mask, (list, tuple)):
        if not allow_bits:
            raise error(f"{api}: mask is the number of elements of each repeat here (an int), got a list")
        if not (len(mask) == 2 or (per_repeat <= 64 and len(mask) == 1)):
            raise error(f"{api}: a bit mask is a list [mask0, mask1] of two uint64 (mask0: elements 0-63, "
                        f"mask1: elements 64-127), got {len(mask)} values")
        return [_u64(mask[0], f"{api}: mask[0]"), _u64(mask[1] if len(mask) == 2 else 0, f"{api}: mask[1]")], 1
    if isinstance(mask, bool) or not (isinstance(mask, (int, Scalar)) and not isinstance(mask, enum.Enum)):
        raise error(f"{api}: mask must be an int (the elements of each repeat) or a list [mask0, mask1] of "
                    f"uint64 bit masks, got {describe(mask)}")
    if isinstance(mask, int) and mask < 0:
        raise error(f"{api}: mask = {mask} is negative (continuous mode: the number of elements of each repeat, "
                    f"0 to {per_repeat} for {dtype.name})")
    return [_u64(mask, f"{api}: mask"), const(0, dt.uint64)], 0


def int_arg(api: str, value: Any, name: str, lo: int, hi: int) -> Scalar:
    if isinstance(value, bool) or not isinstance(value, (int, Scalar)) or isinstance(value, enum.Enum):
        raise error(f"{api}: {name} must be an integer, got {describe(value)}")
    if isinstance(value, int) and not lo <= value <= hi:
        raise error(f"{api}: {name} = {value} is out of range [{lo}, {hi}]")
    return int_operand(value, f"{api}: {name}")
