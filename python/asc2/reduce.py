"""asc2's reductions: `reduce_sum`, `reduce_max`, `reduce_min`, `reduce_prod` (the IR op asc2.reduce,
lowered by lower-tiles)."""

from __future__ import annotations

from typing import Any, Tuple

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error

from .tile import Tile, _const, _element0, _tile_type


def _reduce(api: str, kind: str, input: Any, dims: Tuple[Any, ...], keep_dims: Any) -> Any:
    """A reduction of `input` over `dims` (none: every element, a scalar). The IR op asc2.reduce folds the rows
    (axis 0) or the whole tile (axis -1); a dim that is neither is NotImplementedError."""
    x = _const(input)
    if not isinstance(x, Tile):
        raise error(f"{api}: the first argument must be a tile, got {describe(x)}",
                    f"hint: write {api}(asc2.load(...), 0)")
    keep = _const(keep_dims)
    if not isinstance(keep, bool):
        raise error(f"{api}: keep_dims must be True or False, got {describe(keep)}", "hint: write keep_dims=True")
    rank = len(x.shape)
    axes = set()
    for d in dims:
        d = _const(d)
        if isinstance(d, bool) or not isinstance(d, int) or not -rank <= d < rank:
            raise error(f"{api}: a dim must be an int in [{-rank}, {rank - 1}] (the tile has rank {rank}), got "
                        f"{describe(d)}", f"hint: write {api}(tile, 0)")
        axes.add(d % rank)
    if x.dtype not in (dt.float16, dt.float32):
        raise error(f"{api}: tiles of {x.dtype.name} cannot be reduced (the vector unit's reductions take float16 "
                    "and float32)", "hint: reduce a float tile")
    width = x.shape[-1]
    rows = x.size // width
    b = _b.current()
    if not axes:  # everything, to a scalar
        if kind == "prod":
            raise error(f"{api}: a product of a whole tile to a scalar is not supported (as PyAsc2: no such "
                        "reduction)", f"hint: give the dims, e.g. {api}(tile, 0)")
        h = b.create1("asc2.reduce", [x], _tile_type(x.dtype),
                      attrs={"op": kind, "length": x.size, "width": width, "axis": -1})
        return _element0(Tile(h, x.dtype, (1,)))
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape)) if keep else \
        tuple(n for i, n in enumerate(x.shape) if i not in axes)
    if rank == 2 and axes == {0}:
        axis = 0  # the rows folded
    elif rank == 2 and axes == {1} and rows > 1:
        axis = 1  # each row reduced
    elif len(axes) == rank or (axes == {1} and rows == 1):
        axis = -1  # every element
    else:
        raise NotImplementedError(f"{api}: reducing dims {sorted(axes)} of a tile of shape {list(x.shape)} is not "
                                  "supported yet (dim 0 of a 2-D tile, or every element; docs/api.md, asc2)")
    h = b.create1("asc2.reduce", [x], _tile_type(x.dtype),
                  attrs={"op": kind, "length": x.size, "width": width, "axis": axis})
    return Tile(h, x.dtype, shape)


def reduce_sum(input: Any, *dims: Any, keep_dims: Any = False) -> Any:
    """`asc2.reduce_sum(tile, *dims, keep_dims=False)`: the sum over `dims` (a tile), or of every element (no
    dims: a scalar)."""
    return _reduce("asc2.reduce_sum", "sum", input, dims, keep_dims)


def reduce_max(input: Any, *dims: Any, keep_dims: Any = False) -> Any:
    """`asc2.reduce_max(tile, *dims, keep_dims=False)`: the maximum over `dims`, or of every element."""
    return _reduce("asc2.reduce_max", "max", input, dims, keep_dims)


def reduce_min(input: Any, *dims: Any, keep_dims: Any = False) -> Any:
    """`asc2.reduce_min(tile, *dims, keep_dims=False)`: the minimum over `dims`, or of every element."""
    return _reduce("asc2.reduce_min", "min", input, dims, keep_dims)


def reduce_prod(input: Any, *dims: Any, keep_dims: Any = False) -> Any:
    """`asc2.reduce_prod(tile, *dims, keep_dims=False)`: the product over `dims` (dims are required: no product of
    a whole tile to a scalar, as PyAsc2). Dim 0 of a 2-D tile folds the rows by Mul; the last dim (or all dims)
    folds each row's 32-byte blocks by Mul in float32 and multiplies the last block's elements on the scalar
    unit (the vector unit has no product reduction)."""
    return _reduce("asc2.reduce_prod", "prod", input, dims, keep_dims)
