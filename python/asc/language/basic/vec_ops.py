"""Shared emission of the vector instructions (count forms)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ...codegen import builder as _b
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar
from .utils import count_form, local


def same_dtype(api: str, tensors: Sequence[LocalTensor]) -> None:
    first = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype != first:
            raise TypeError(f"{api}: all tensors must have one element type, got {first.name} and {t.dtype.name}")


def emit(op: str, tensors: Sequence[Any], names: Sequence[str], scalar: Optional[Any],
         args: tuple, kwargs: Dict[str, Any], attrs: Optional[Dict[str, Any]] = None, check_same: bool = True) -> None:
    api = op
    ts = [local(t, api, n) for t, n in zip(tensors, names)]
    if check_same:
        same_dtype(api, ts)
    count = int_operand(count_form(api, args, kwargs), "count")
    operands: list = list(ts)
    if scalar is not None:
        if not (is_number(scalar) or isinstance(scalar, Scalar)):
            raise TypeError(f"{api}: the scalar must be a number, got {type(scalar).__name__}")
        operands.append(to_scalar(scalar, ts[0].dtype))
    operands.append(count)
    _b.current().create(op, operands, attrs=attrs)
