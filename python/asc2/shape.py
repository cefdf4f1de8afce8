"""asc2's shape operators: `reshape`, `ravel`, `expand_dims`, `squeeze` (the same UB elements seen in
another shape) and `broadcast_to`."""

from __future__ import annotations

import math
from typing import Any, Tuple

from asc.codegen import builder as _b
from asc.language.core.checks import describe, error

from .creation import full
from .tile import Tile, _check_ub, _const, _element0, _tile_type


def _shape_args(api: str, shape: Tuple[Any, ...]) -> Tuple[int, ...]:
    """`*shape` as PyAsc2 takes it: ints, or one list/tuple of them."""
    dims: Any = shape
    if len(shape) == 1 and isinstance(_const(shape[0]), (list, tuple)):
        dims = _const(shape[0])
    out = []
    for d in dims:
        d = _const(d)
        if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
            raise error(f"{api}: a shape's dims must be positive compile-time ints, got {describe(d)}",
                        f"hint: write {api}(tile, 2, 32)")
        out.append(d)
    return tuple(out)


def _tile_arg(api: str, input: Any) -> Tile:
    x = _const(input)
    if not isinstance(x, Tile):
        raise error(f"{api}: the first argument must be a tile, got {describe(x)}", f"hint: write {api}(tile, ...)")
    return x


def reshape(input: Any, *shape: Any) -> Tile:
    """`asc2.reshape(tile, *shape)`: the same elements (row-major) seen in another shape of as many elements; no
    instruction (the tile's UB bytes are shared)."""
    x = _tile_arg("asc2.reshape", input)
    shp = _shape_args("asc2.reshape", shape)
    if math.prod(shp) != x.size:
        raise error(f"asc2.reshape: a tile of shape {list(x.shape)} ({x.size} elements) cannot be seen as "
                    f"{list(shp)} ({math.prod(shp)} elements)", "hint: keep the number of elements")
    t = Tile(x.handle, x.dtype, shp, x.compared)
    t.fill = x.fill
    return t


def ravel(input: Any) -> Tile:
    """`asc2.ravel(tile)`: the tile as one dim."""
    x = _tile_arg("asc2.ravel", input)
    return reshape(x, x.size)


def expand_dims(input: Any, *axis: Any) -> Tile:
    """`asc2.expand_dims(tile, *axis)`: dims of length 1 inserted at `axis`."""
    x = _tile_arg("asc2.expand_dims", input)
    shape = list(x.shape)
    for ax in sorted({_const(a) for a in axis}):
        if isinstance(ax, bool) or not isinstance(ax, int) or not 0 <= ax <= len(shape):
            raise error(f"asc2.expand_dims: an axis must be an int in [0, {len(shape)}], got {describe(ax)}",
                        "hint: write asc2.expand_dims(tile, 0)")
        shape.insert(ax, 1)
    return reshape(x, *shape)


def squeeze(input: Any, *axis: Any) -> Tile:
    """`asc2.squeeze(tile, *axis)`: the dims of length 1 at `axis` (none given: all of them) removed."""
    x = _tile_arg("asc2.squeeze", input)
    axes = {_const(a) % len(x.shape) if isinstance(_const(a), int) else _const(a) for a in axis} if axis else \
        {i for i, d in enumerate(x.shape) if d == 1}
    for ax in axes:
        if isinstance(ax, bool) or not isinstance(ax, int) or x.shape[ax] != 1:
            raise error(f"asc2.squeeze: axis {ax!r} of a tile of shape {list(x.shape)} is no dim of length 1",
                        "hint: squeeze dims of length 1")
    return reshape(x, *[d for i, d in enumerate(x.shape) if i not in axes] or [1])


def _common_shape(api: str, *shapes: Tuple[int, ...]) -> Tuple[int, ...]:
    """The shape tiles of `shapes` broadcast to (torch's rules: dims aligned at the end, each 1 or the largest),
    else a CompileError at the user's line."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(1, rank + 1):
        dims = {s[-i] for s in shapes if len(s) >= i} - {1}
        if len(dims) > 1:
            raise error(f"{api}: tiles of shapes {' and '.join(str(list(s)) for s in shapes)} cannot be broadcast "
                        "to one shape", "hint: each dim must be 1 or equal to the others (torch's broadcasting)")
        out.append(dims.pop() if dims else 1)
    return tuple(out[::-1])


def _broadcast(api: str, x: Tile, shp: Tuple[int, ...]) -> Tile:
    """x broadcast to shp (checked by the caller): itself seen in shp when as many elements, a Duplicate of its
    value when one element, else asc2.broadcast of a row ([C] or [1, C]) or a column ([R, 1]) to [R, C]."""
    if math.prod(shp) == x.size:
        return reshape(x, *shp)
    if x.size == 1:
        return full(shp, x.fill if x.fill is not None else _element0(x), x.dtype)
    _check_ub(shp, x.dtype, api)
    src = (1,) * (len(shp) - len(x.shape)) + tuple(x.shape)
    width, rows = shp[-1], math.prod(shp[:-1])
    if src[-1] == width and math.prod(src[:-1]) == 1:
        src_rows, src_cols = 1, width
    elif len(shp) == 2 and src == (rows, 1):
        src_rows, src_cols = rows, 1
    else:
        raise NotImplementedError(f"{api}: broadcasting a tile of shape {list(x.shape)} to {list(shp)} is not "
                                  "supported yet (a row [C] / [1, C] or a column [R, 1] to [R, C] is; docs/api.md, "
                                  "asc2)")
    h = _b.current().create1("asc2.broadcast", [x], _tile_type(x.dtype),
                             attrs={"length": math.prod(shp), "width": width, "src_rows": src_rows,
                                    "src_cols": src_cols})
    return Tile(h, x.dtype, shp)


def broadcast_to(input: Any, *shape: Any) -> Tile:
    """`asc2.broadcast_to(tile, *shape)`: a tile of `shape` repeating the tile's elements (torch's rules). A tile
    of one element is a Duplicate of its value (asc2.full's, else read with GetValue); a row ([C] or [1, C]) to
    [R, C] is copied (DataCopy UB -> UB, doubling the rows copied); a column ([R, 1]) to [R, C] is per row a
    GetValue and a Duplicate (up to 64 rows unrolled, more in a loop); other broadcasts raise
    NotImplementedError."""
    api = "asc2.broadcast_to"
    x = _tile_arg(api, input)
    shp = _shape_args(api, shape)
    src, dst = x.shape[::-1], shp[::-1]
    if len(src) > len(dst) or any(s != d and s != 1 for s, d in zip(src, dst)):
        raise error(f"{api}: a tile of shape {list(x.shape)} cannot be broadcast to {list(shp)}",
                    "hint: each dim must equal the target's or be 1")
    if x.compared is not None:
        raise NotImplementedError(f"{api} of a comparison's result (a mask) is not supported yet")
    return _broadcast(api, x, shp)
