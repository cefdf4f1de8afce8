"""`asc2.mask`: the vector mask of a `with` block, and `_vector`, which makes an elementwise tile op masked
or not (the masked ops are lowered to level-0 instructions by lower-tiles)."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, List

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.values import Scalar, is_number, to_scalar

from .tile import _const, _int_or_scalar, _scalar_of, _tile_type


class _Mask:
    """The mask of an `asc2.mask` block: mask0 / mask1 (i64 scalars), its mode (0 count, 1 bits), `other`."""

    def __init__(self, mode: int, mask0: Scalar, mask1: Scalar, other: Any):
        self.mode, self.mask0, self.mask1, self.other = mode, mask0, mask1, other


_MASKS: List[_Mask] = []


class MaskScope:
    """`with asc2.mask(count=n | bits=(hi, lo), other=None):` in a kernel (see `mask`)."""

    def __init__(self, m: _Mask):
        self.m = m

    def __repr__(self) -> str:
        return "asc2.mask(...)"

    @contextlib.contextmanager
    def __asc_scope__(self) -> Iterator[None]:
        _MASKS.append(self.m)
        try:
            yield
        finally:
            _MASKS.pop()


def mask(*, count: Any = None, bits: Any = None, other: Any = None) -> MaskScope:
    """`with asc2.mask(count=n | bits=(hi, lo), other=None):` the elementwise vector operations of the block
    (asc2.add ... asc2.minimum, their scalar forms, abs / exp / log / sqrt / rsqrt / relu / negative / log2) run
    with a vector mask, as PyAsc2 lowers them: the level-0 instruction over the tile's 256-byte repeats, mask
    `count` (the leading `count` elements of each repeat, 1 .. 256 / element bytes) or `bits` (hi, lo: the
    elements of each repeat whose bit is set, bit i of lo element i, of hi element 64 + i). With `other`, the
    result tile is first filled with it (Duplicate), so the masked-off elements hold `other`; without, they are
    undefined (the sanitizer reports reading them). Other operations in the block are not masked."""
    api = "asc2.mask"
    if (count is None) == (bits is None):
        raise error(f"{api}: give exactly one of count= and bits=", "hint: write asc2.mask(count=8, other=0)")
    if count is not None:
        c = _int_or_scalar(count, f"{api}: count")
        if isinstance(c, int) and not 1 <= c <= 128:
            raise error(f"{api}: count must be in [1, 128] (elements of a 256-byte repeat), got {c}",
                        "hint: the count is per repeat: 64 float32 or 128 float16 elements at most")
        m = _Mask(0, to_scalar(c, dt.int64), to_scalar(0, dt.int64), other)
    else:
        bs = _const(bits)
        bs = list(bs) if isinstance(bs, (list, tuple)) else None
        if bs is None or len(bs) != 2:
            raise error(f"{api}: bits must be two integers (hi, lo), got {describe(bits)}",
                        "hint: write asc2.mask(bits=(0, 0xff))")
        hi, lo = (_int_or_scalar(v, f"{api}: bits") for v in bs)
        vals = []
        for v in (lo, hi):
            if isinstance(v, int):
                if not -(1 << 63) <= v < (1 << 64):
                    raise error(f"{api}: a mask word {v} does not fit 64 bits", "hint: give 64-bit words")
                v = v - (1 << 64) if v >= (1 << 63) else v
            vals.append(to_scalar(v, dt.int64))
        m = _Mask(1, vals[0], vals[1], other)
    if other is not None and not (isinstance(_const(other), Scalar) or is_number(_const(other))):
        raise error(f"{api}: other must be a number or a runtime scalar, got {describe(other)}",
                    "hint: write other=0")
    return MaskScope(m)


def _check_masked(api: str, dtype: dt.DataType) -> None:
    if _MASKS and dtype == dt.bfloat16:
        raise NotImplementedError(f"{api} of bfloat16 tiles inside asc2.mask is not supported yet (they are "
                                  "computed in float32, whose repeats hold other elements)")


def _vector(name: str, operands: List[Any], dtype: dt.DataType, row: str, length: int) -> Any:
    """The tile op `name` (asc2.binary, binary_scalar, unary) of `row`; inside asc2.mask its masked form."""
    b = _b.current()
    if not _MASKS:
        return b.create1(name, operands, _tile_type(dtype), attrs={"op": row, "length": length})
    m = _MASKS[-1]
    fill = m.other is not None
    other = _scalar_of(m.other if fill else 0, dtype, "asc2.mask: other")
    return b.create1(name.replace("asc2.", "asc2.masked_"), operands + [m.mask0, m.mask1, other],
                     _tile_type(dtype), attrs={"op": row, "length": length, "mask_mode": m.mode,
                                               "fill": int(fill)})
