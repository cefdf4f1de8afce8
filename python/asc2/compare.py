"""asc2's comparisons (a mask tile: one bit an element) and `where` (Select); bfloat16 through float32."""

from __future__ import annotations

import math
from typing import Any

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.values import Scalar, to_scalar

from .shape import _broadcast, _common_shape
from .tile import Tile, _cast, _const, _full_tile, _scalar_of, _tile_type

# (mode of x op y, mode of y op x)
_CMP = {"equal": ("EQ", "EQ"), "not_equal": ("NE", "NE"), "greater": ("GT", "LT"), "greater_equal": ("GE", "LE"),
        "less": ("LT", "GT"), "less_equal": ("LE", "GE")}


def _compare(name: str, input: Any, other: Any) -> Tile:
    from asc.language.core.enums import CMPMODE

    api = f"asc2.{name}"
    x, y = _const(input), _const(other)
    xt, yt = isinstance(x, Tile), isinstance(y, Tile)
    if not xt and not yt:
        raise error(f"{api}: at least one operand must be a tile, got {describe(x)} and {describe(y)}",
                    "hint: compare scalars with Python operators")
    for t in (x, y):
        if isinstance(t, Tile) and t.compared is not None:
            raise error(f"{api}: an operand is a comparison's result (a mask)", "hint: compare values")
    mode = _CMP[name][0 if xt else 1]
    tile, rest = (x, y) if xt else (y, x)
    if tile.dtype not in (dt.float16, dt.float32, dt.bfloat16):
        raise error(f"{api}: tiles of {tile.dtype.name} cannot be compared here (float16, float32 and bfloat16: "
                    "Compare on the Ascend910B takes float16 and float32, bfloat16 is compared as float32)",
                    "hint: compare float tiles")
    compared = tile.dtype
    if compared == dt.bfloat16:  # (no bfloat16 Compare: both sides widened to float32, exactly)
        if isinstance(rest, Tile) and rest.dtype != tile.dtype:
            raise error(f"{api}: the tiles hold {x.dtype.name} and {y.dtype.name}",
                        "hint: give both tiles one element type")
        tile = _cast(tile, dt.float32)
        rest = _cast(rest, dt.float32) if isinstance(rest, Tile) else \
            to_scalar(_scalar_of(rest, compared, api), dt.float32)
        x, y = (tile, rest) if xt else (rest, tile)
    b = _b.current()
    mask_type = _tile_type(dt.uint8)
    attrs = {"cmp_mode": ("CMPMODE", CMPMODE[mode]), "length": tile.size}
    if isinstance(rest, Tile):
        if rest.dtype != tile.dtype:
            raise error(f"{api}: the tiles hold {x.dtype.name} and {y.dtype.name}",
                        "hint: give both tiles one element type")
        if rest.shape != tile.shape:  # (torch's rules: both broadcast to their common shape)
            shape = _common_shape(api, x.shape, y.shape)
            x, y = _broadcast(api, x, shape), _broadcast(api, y, shape)
            tile = x
            attrs["length"] = tile.size
        h = b.create1("asc2.compare", [x, y], mask_type, attrs=attrs)
    else:
        h = b.create1("asc2.compare_scalar", [tile, _scalar_of(rest, tile.dtype, api)], mask_type, attrs=attrs)
    return Tile(h, dt.uint8, tile.shape, compared=compared)


def _comparison(name: str) -> Any:
    def f(input: Any, other: Any) -> Tile:
        return _compare(name, input, other)

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (f"`asc2.{name}(x, y)`: a mask tile of x {name.replace('_', ' ')} y (tiles of broadcastable shapes, "
                 "or a tile and a scalar; AscendC::Compare / Compares), for asc2.where.")
    return f


equal = _comparison("equal")
not_equal = _comparison("not_equal")
greater = _comparison("greater")
greater_equal = _comparison("greater_equal")
less = _comparison("less")
less_equal = _comparison("less_equal")
_COMPARISONS = {"equal": equal, "not_equal": not_equal, "greater": greater, "greater_equal": greater_equal,
                "less": less, "less_equal": less_equal}


def where(condition: Any, input: Any, other: Any) -> Tile:
    """`asc2.where(mask, x, y)`: x where the mask (a comparison's result) holds, else y; x and y tiles
    (broadcast to the mask's shape, torch's rules) or scalars (AscendC::Select)."""
    api = "asc2.where"
    m, x, y = _const(condition), _const(input), _const(other)
    if not isinstance(m, Tile) or m.compared is None:
        raise error(f"{api}: the condition must be a comparison of tiles (asc2.less(x, y), x < y, ...), got "
                    f"{describe(m)}", "hint: write asc2.where(x < y, x, y)")
    dtype = next((t.dtype for t in (x, y) if isinstance(t, Tile)), None)
    if dtype is None:
        dtype = next((t.dtype for t in (x, y) if isinstance(t, Scalar)), m.compared)
    if dtype not in (dt.float16, dt.float32, dt.bfloat16):
        raise error(f"{api}: selecting {dtype.name} elements is not supported (float16, float32 and bfloat16: "
                    "Select takes float16 and float32, bfloat16 is selected as float32)", "hint: select float values")
    for t in (x, y):
        if isinstance(t, Tile):
            if t.dtype != dtype or t.compared is not None:
                raise error(f"{api}: the values must be tiles (or scalars) of one float type, got {describe(x)} and "
                            f"{describe(y)}", "hint: give x and y one element type")
    shapes = [t.shape for t in (m, x, y) if isinstance(t, Tile)]
    shape = _common_shape(api, *shapes)  # (torch's rules: the values broadcast to the mask's shape)
    if shape != m.shape:
        if math.prod(shape) != m.size:
            raise NotImplementedError(f"{api}: a mask of shape {list(m.shape)} broadcast to {list(shape)} (a "
                                      "comparison's result is not broadcast yet: compare tiles of the result's "
                                      "shape)")
        m = Tile(m.handle, m.dtype, shape, m.compared)
    x, y = (_broadcast(api, t, shape) if isinstance(t, Tile) else t for t in (x, y))
    if dtype == dt.bfloat16:  # (no bfloat16 Select: as float32, exactly, and the result back to bfloat16)
        xs, ys = (_cast(t, dt.float32) if isinstance(t, Tile) else to_scalar(_scalar_of(t, dtype, api), dt.float32)
                  for t in (x, y))
        return _cast(where(m, xs, ys), dt.bfloat16)
    if not isinstance(x, Tile):
        x = _full_tile(_scalar_of(x, dtype, api), Tile(None, dtype, m.shape))
    b = _b.current()
    if isinstance(y, Tile):
        h = b.create1("asc2.select", [m, x, y], _tile_type(dtype), attrs={"length": m.size})
    else:
        h = b.create1("asc2.select_scalar", [m, x, _scalar_of(y, dtype, api)], _tile_type(dtype),
                      attrs={"length": m.size})
    return Tile(h, dtype, m.shape)
