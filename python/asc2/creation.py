"""asc2's creation operators: `full`, `full_like`, `zeros`, `zeros_like` (asc2.full: a Duplicate) and
`concat`."""

from __future__ import annotations

import math
from typing import Any

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.values import Scalar, is_number

from .tile import UB_BLOCK_BYTES, Tile, TileLocation, _check_ub, _const, _scalar_of, _static_shape, _tile_type


def full(shape: Any, value: Any, dtype: Any = None, location: TileLocation = TileLocation.UB) -> Tile:
    """`asc2.full(shape, value, dtype=None)`: a tile of `value` (dtype: given, else the value's: int32 for a
    Python int, float32 for a float)."""
    if _const(location) != TileLocation.UB:
        raise NotImplementedError(f"asc2.full: location={location!r} is not supported yet (UB only)")
    shp = _static_shape(shape, "asc2.full")
    value = _const(value)
    if dtype is None:
        if isinstance(value, Scalar):
            dtype = value.dtype
        elif is_number(value):
            dtype = dt.float32 if isinstance(value, float) else dt.int32
        else:
            raise error(f"asc2.full: the value must be a number or a runtime scalar, got {describe(value)}",
                        "hint: write asc2.full([n], 0.0)")
    dtype = _const(dtype)
    if not isinstance(dtype, dt.DataType):
        raise error(f"asc2.full: dtype must be an asc data type, got {describe(dtype)}",
                    "hint: write dtype=asc.float32")
    s = _scalar_of(value, dtype, "asc2.full")
    n = math.prod(shp)
    h = _b.current().create1("asc2.full", [s], _tile_type(dtype), attrs={"length": n})
    t = Tile(h, dtype, shp)
    t.fill = s  # every element is this scalar (broadcast_to fills a larger tile with it)
    return t


def full_like(input: Tile, value: Any, location: TileLocation = TileLocation.UB) -> Tile:
    """`asc2.full_like(tile, value)`: a tile of tile's shape and dtype holding value."""
    if not isinstance(_const(input), Tile):
        raise error(f"asc2.full_like: the first argument must be a tile, got {describe(input)}",
                    "hint: write asc2.full_like(t, 0.0)")
    return full(input.shape, value, input.dtype, location)


def zeros(shape: Any, dtype: Any = dt.int32, location: TileLocation = TileLocation.UB) -> Tile:
    """`asc2.zeros(shape, dtype=asc.int32)`."""
    return full(shape, 0, dtype, location)


def zeros_like(input: Tile, location: TileLocation = TileLocation.UB) -> Tile:
    """`asc2.zeros_like(tile)`."""
    return full_like(input, 0, location)


def concat(*inputs: Any) -> Tile:
    """`asc2.concat(*tiles)`: the tiles one after the other along dim 0 (equal other dims and dtypes); a
    DataCopy UB -> UB each. Each tile must be whole 32-byte blocks (a 2-D tile always is)."""
    api = "asc2.concat"
    ts = [_const(t) for t in inputs]
    if not ts or not all(isinstance(t, Tile) and t.compared is None for t in ts):
        raise error(f"{api}: every argument must be a tile, got {', '.join(describe(t) for t in ts) or 'none'}",
                    "hint: write asc2.concat(a, b)")
    rest, dtype = ts[0].shape[1:], ts[0].dtype
    for t in ts:
        if t.shape[1:] != rest or len(t.shape) != len(ts[0].shape):
            raise error(f"{api}: tiles of shapes {[list(u.shape) for u in ts]}: all dims but the first must be equal",
                        "hint: concatenate tiles of one row length")
        if t.dtype != dtype:
            raise error(f"{api}: the tiles hold {t.dtype.name} and {dtype.name}", "hint: give them one dtype")
        if (t.size * dtype.sizeof()) % UB_BLOCK_BYTES:
            raise NotImplementedError(f"{api}: a tile of {t.size} {dtype.name} elements is no whole 32-byte blocks; "
                                      "not supported yet (its successor would start inside a block)")
    shape = (sum(t.shape[0] for t in ts),) + tuple(rest)
    n = _check_ub(shape, dtype, api)
    h = _b.current().create1("asc2.concat", ts, _tile_type(dtype),
                             attrs={"length": n, "parts": ",".join(str(t.size) for t in ts)})
    return Tile(h, dtype, shape)
