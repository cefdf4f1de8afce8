"""asc2's memory operators: `load`, `store` and the atomic stores between a tile and an `asc2.tensor`,
and the program model (`block_idx`, `block_num`, `num_tiles`). The IR ops (asc2.load, asc2.store) are lowered by
lower-tiles (src/passes/lower_tiles.c); cube locations go to asc2/cube.py."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple

from asc.codegen import builder as _b
from asc.language.basic.sys_var import get_block_idx, get_block_num
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.values import Scalar, is_number, to_scalar

from . import cube as _cube
from .compare import where
from .tile import (
    UB_BLOCK_BYTES,
    Tensor,
    Tile,
    TileLocation,
    _cast,
    _check_ub,
    _const,
    _int_or_scalar,
    _scalar_of,
    _static_shape,
    _tile_type,
)


def _place(tensor: Tensor, shape: Tuple[int, ...], offsets: Any, tile_id: Any, api: str) -> List[Any]:
    """The (row, col, rows, cols) operands of a load or store: the tensor as rows x cols elements (a 1-D one
    as 1 x size) and the tile's first element in it."""
    if (offsets is None) == (tile_id is None):
        raise error(f"{api}: give exactly one of offsets=[...] and tile_id=[...]",
                    f"hint: write {api}(..., offsets=[off])")
    rank = len(tensor.shape)
    if rank > 2:
        raise NotImplementedError(f"{api}: tensors of rank {rank} are not supported yet (rank 1 and 2; docs/api.md, "
                                  "asc2)")
    if len(shape) != rank and not (api == "asc2.store" and len(shape) < rank):
        raise error(f"{api}: a tile of rank {len(shape)} in a tensor of rank {rank}",
                    "hint: give the tile as many dims as the tensor")
    shape = (1,) * (rank - len(shape)) + tuple(shape)  # (a store of a lower-rank tile: its rows at the offsets)
    given = _const(offsets if offsets is not None else tile_id)
    vals = list(given) if isinstance(given, (list, tuple)) else [given]
    if len(vals) != rank:
        raise error(f"{api}: {len(vals)} offsets for a tensor of rank {rank}",
                    f"hint: write {api}(..., offsets=[{', '.join(['off'] * rank)}])")
    what = "tile_id" if tile_id is not None else "offsets"
    vals = [_int_or_scalar(v, f"{api}: {what}") for v in vals]
    if tile_id is not None:
        vals = [v * n for v, n in zip(vals, shape)]
    dims = list(tensor.shape)
    if rank == 1:
        vals, dims = [0] + vals, [1] + dims
    return [to_scalar(v, dt.int32) for v in vals + dims]  # (Ascend C offsets: 32 bits)


def _index(tensor: Tensor, offsets: Any, api: str) -> Any:
    """The element index of `offsets` in the tensor (row-major)."""
    if offsets is None:
        raise error(f"{api} of one element takes offsets=[...]", f"hint: write {api}(..., offsets=[i])")
    row, col, _, cols = _place(tensor, (1,) * len(tensor.shape), offsets, None, api)
    return row * cols + col


def load(tensor: Tensor, shape: Optional[Iterable[int]] = None, *, offsets: Any = None, tile_id: Any = None,
         location: TileLocation = TileLocation.UB, pad_value: Any = 0) -> Any:
    """`asc2.load(tensor, shape, offsets=[...] | tile_id=[...], pad_value=0)`:
    a tile of `shape` elements from `offsets`; its elements past the
    tensor's end are pad_value. Without a shape, the element at offsets."""
    if not isinstance(tensor, Tensor):
        raise error(f"asc2.load: the first argument must be an asc2.tensor, got {describe(tensor)}",
                    "hint: write asc2.load(asc2.tensor(x_ptr, [size]), [tile], offsets=[off])")
    if _cube.is_cube_location(location) and shape is not None:
        return _cube.load(tensor, shape, offsets, tile_id, location)
    if _const(location) != TileLocation.UB:
        raise NotImplementedError(f"asc2.load: location={location!r} is not supported yet (UB, L1, L0A, L0B)")
    if shape is None:
        return tensor.gt.get_value(_index(tensor, offsets, "asc2.load"))
    shp = _static_shape(shape, "asc2.load")
    n = _check_ub(shp, tensor.dtype, "asc2.load")
    place = _place(tensor, shp, offsets, tile_id, "asc2.load")
    pad = _scalar_of(0 if pad_value is None else pad_value, tensor.dtype, "asc2.load: pad_value")
    b = _b.current()
    h = b.create1("asc2.load", [tensor.gt] + place + [pad], _tile_type(tensor.dtype),
                  attrs={"length": n, "width": shp[-1]})
    return Tile(h, tensor.dtype, shp)


def store(value: Any, tensor: Tensor, *, offsets: Any = None, tile_id: Any = None) -> None:
    """`asc2.store(tile, tensor, offsets=[...] | tile_id=[...])`: the tile's
    elements that lie inside the tensor are written, the others not. A
    scalar value is stored as the element at offsets."""
    if not isinstance(tensor, Tensor):
        raise error(f"asc2.store: the second argument must be an asc2.tensor, got {describe(tensor)}",
                    "hint: write asc2.store(tile, asc2.tensor(z_ptr, [size]), offsets=[off])")
    value = _const(value)
    if isinstance(value, _cube.CubeTile):
        _cube.store(value, tensor, offsets, tile_id)
        return
    if not isinstance(value, Tile):
        if isinstance(value, Scalar) or is_number(value):
            tensor.gt.set_value(_index(tensor, offsets, "asc2.store"), to_scalar(value, tensor.dtype))
            return
        raise error(f"asc2.store: the value must be a tile or a scalar, got {describe(value)}",
                    "hint: store what asc2.load or a tile operation returned")
    if value.compared is not None:
        value = _mask_values(value, tensor.dtype)
    if value.dtype != tensor.dtype:
        raise error(f"asc2.store: the tile holds {value.dtype.name}, the tensor {tensor.dtype.name}",
                    "hint: store into a tensor of the tile's element type")
    if len(value.shape) > 1 and (value.shape[-1] * value.dtype.sizeof()) % UB_BLOCK_BYTES:
        raise NotImplementedError(f"asc2.store: a tile of shape {list(value.shape)} whose rows are no whole 32-byte "
                                  "blocks is not supported yet")
    place = _place(tensor, value.shape, offsets, tile_id, "asc2.store")
    _b.current().create("asc2.store", [tensor.gt, value] + place, [],
                        attrs={"length": value.size, "width": value.shape[-1]})


# the tensor types a comparison's result is stored into, as 1 (holds) and 0; bool through uint8 (one byte each)
_MASK_STORE_TYPES = (dt.float16, dt.float32, dt.int8, dt.uint8, dt.int16, dt.int32)


def _mask_values(mask: Tile, dtype: dt.DataType) -> Tile:
    """A comparison's result (one bit an element) as a tile of 1 and 0 of dtype: Select of 1 and 0 (in the
    compared float type), then Cast (exact: 0 and 1 are in every type); an integer type through float16, the
    Ascend910B's Cast to int8 / uint8 / int16 taking float16."""
    if dtype not in _MASK_STORE_TYPES:
        raise error(f"asc2.store: a comparison's result (a mask) is stored into a tensor of "
                    f"{', '.join(t.name for t in _MASK_STORE_TYPES)} (1 where it holds, else 0), not {dtype.name}",
                    "hint: pass a uint8 tensor (for a torch.bool one: t.view(torch.uint8))")
    t = where(mask, 1.0, 0.0)  # (in the compared type, float16 or float32; a bfloat16 one gives bfloat16)
    if t.dtype == dtype:
        return t
    if dtype.is_float():
        return _cast(t, dtype)
    if t.dtype != dt.float16:
        t = _cast(t, dt.float16)
    from asc.language.core.enums import RoundMode

    return _cast(t, dtype, RoundMode.CAST_RINT)


def _atomic(name: str, value: Any, tensor: Any, offsets: Any, tile_id: Any) -> None:
    from asc.language.basic import set_atomic as _sa

    api = f"asc2.atomic_{name}"
    v = _const(value)
    if not isinstance(v, Tile):
        raise error(f"{api}: the value must be a tile, got {describe(v)}",
                    f"hint: write {api}(tile, asc2.tensor(z_ptr, [n]), offsets=[0])")
    if v.dtype not in (dt.int8, dt.int16, dt.int32, dt.float16, dt.bfloat16, dt.float32):
        raise error(f"{api}: tiles of {v.dtype.name} cannot be stored atomically (int8, int16, int32, float16, "
                    "bfloat16, float32)", "hint: store a tile of one of those types")
    getattr(_sa, f"set_atomic_{name}")(v.dtype)
    store(v, tensor, offsets=offsets, tile_id=tile_id)
    _sa.set_atomic_none()


def atomic_add(value: Any, tensor: Any, *, offsets: Any = None, tile_id: Any = None) -> None:
    """`asc2.atomic_add(tile, tensor, offsets=[...])`: the tensor's elements become their sums with the tile's,
    atomically with respect to other blocks (SetAtomicAdd, the store's copy, SetAtomicNone)."""
    _atomic("add", value, tensor, offsets, tile_id)


def atomic_max(value: Any, tensor: Any, *, offsets: Any = None, tile_id: Any = None) -> None:
    """`asc2.atomic_max(tile, tensor, offsets=[...])`: elementwise maximum into the tensor (SetAtomicMax)."""
    _atomic("max", value, tensor, offsets, tile_id)


def atomic_min(value: Any, tensor: Any, *, offsets: Any = None, tile_id: Any = None) -> None:
    """`asc2.atomic_min(tile, tensor, offsets=[...])`: elementwise minimum into the tensor (SetAtomicMin)."""
    _atomic("min", value, tensor, offsets, tile_id)


def num_tiles(tensor: Any, axis: Any, shape: Any) -> Any:
    """`asc2.num_tiles(tensor, axis, shape)`: how many tiles of `shape` cover the tensor along `axis`, the last
    one maybe partial: ceil(tensor.shape[axis] / shape[axis]) (an int, or a runtime int for a runtime dim)."""
    api = "asc2.num_tiles"
    t = _const(tensor)
    if not isinstance(t, Tensor):
        raise error(f"{api}: the first argument must be an asc2.tensor, got {describe(t)}",
                    "hint: write asc2.num_tiles(asc2.tensor(x_ptr, [size]), 0, [tile])")
    shp = _static_shape(shape, api)
    if len(shp) != len(t.shape):
        raise error(f"{api}: a tile shape of rank {len(shp)} for a tensor of rank {len(t.shape)}",
                    "hint: give the tile as many dims as the tensor")
    ax = _const(axis)
    if isinstance(ax, bool) or not isinstance(ax, int) or not 0 <= ax < len(shp):
        raise error(f"{api}: axis must be a compile-time int in [0, {len(shp) - 1}], got {describe(ax)}",
                    f"hint: write {api}(tensor, 0, [tile])")
    dim, tile = t.shape[ax], shp[ax]
    return (dim + (tile - 1)) // tile


def block_idx() -> Scalar:
    """`asc2.block_idx()`: the index of this block (asc.get_block_idx)."""
    return get_block_idx()


def block_num() -> Scalar:
    """`asc2.block_num()`: the number of blocks of the launch (asc.get_block_num)."""
    return get_block_num()
