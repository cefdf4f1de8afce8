"""The tile layer: tensors, tiles and the tile operations of `asc2`.

A `Tensor` (asc2.tensor) is an asc GlobalTensor with a shape. A `Tile` is
the SSA value of a tile op of the IR (ops.def, "family: tiles"): its type is
`!asc.local_tensor<T, VECCALC>`, its shape and dtype live here. The C pass
lower-tiles (src/passes/lower_tiles.c) makes each tile an
asc.local_tensor_auto filled by the existing copy or vector op, so the UB
planner places it and insert-sync orders the pipes; nothing downstream is
tile-specific.

Tiles of rank 1 and 2 in the Unified Buffer: load/store with offsets,
elementwise arithmetic (add, sub, mul, div, maximum, minimum, shifts by a
scalar), the unary operators with a vector instruction of their own, and
reductions (asc2.reduce: dim 0 of a 2-D tile, or every element), comparisons
into mask tiles and asc2.where (asc2.compare, asc2.select).
Every other PyAsc2 API exists and raises NotImplementedError naming itself
(docs/api.md, "asc2").
"""

from __future__ import annotations

import contextlib
import enum
import math
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from asc.codegen import builder as _b
from asc.language.basic.sys_var import get_block_idx, get_block_num
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.constexpr import ConstExpr
from asc.language.core.values import GlobalAddress, GlobalTensor, IRValue, LoopRange, Scalar, is_number, to_scalar

from . import cube as _cube

UB_BLOCK_BYTES = 32  # a tile's bytes are whole 32-byte blocks of the UB (as PyAsc2 checks)


class TileLocation(enum.IntEnum):
    """Where a tile lives (PyAsc2's values): UB, and L1 / L0A / L0B / L0C for matmul (asc2/cube.py)."""

    L0A = 23
    L0B = 24
    L0C = 25
    UB = 26
    L1 = 27
    FIX = 28


class Asc2Range(LoopRange):
    """`asc2.range(start, stop, step, *, unroll_factor=1, parallel=False)`: a
    runtime loop. unroll_factor > 1 is the scf.for's `unroll_factor`
    attribute, emitted as `#pragma GCC unroll N` (clang and gcc spell it so) before the Ascend C loop (the
    simulator's timing model charges nothing for loop control, so it changes
    no estimate); parallel is checked and has no effect (the UB planner
    double-buffers the tiles of a loop body on its own)."""

    def loop_attrs(self, given: Dict[str, Any]) -> Dict[str, Any]:
        n = ConstExpr.unwrap(given.get("unroll_factor", 1))
        return {"unroll_factor": n} if n > 1 else {}

    keywords = ("unroll_factor", "parallel")

    def check_keyword(self, name: str, value: Any) -> None:
        value = ConstExpr.unwrap(value)
        if name == "unroll_factor" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise error(f"asc2.range: unroll_factor must be an int of at least 1, got {describe(value)}",
                        "hint: pass a compile-time int (an asc.ConstExpr parameter or a literal)")
        if name == "parallel" and not isinstance(value, bool):
            raise error(f"asc2.range: parallel must be True or False, got {describe(value)}",
                        "hint: write parallel=True")


ASC2_RANGE = Asc2Range("range", False)
range = ASC2_RANGE  # noqa: A001 (PyAsc2's name)


def _const(x: Any) -> Any:
    return ConstExpr.unwrap(x)


def _int_or_scalar(x: Any, what: str) -> Any:
    x = _const(x)
    if isinstance(x, Scalar) and x.dtype.is_int() and x.dtype != dt.bool_:
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    raise error(f"{what} must be an integer (a number or a runtime int), got {describe(x)}",
                "hint: pass an int kernel parameter, a value computed from one, or a literal")


def _static_shape(shape: Any, api: str) -> Tuple[int, ...]:
    shape = _const(shape)
    dims = list(shape) if isinstance(shape, (list, tuple)) else [shape]
    out = []
    for d in dims:
        d = _const(d)
        if isinstance(d, IRValue):
            raise error(f"{api}: a tile's shape must be known at compile time, got {describe(d)}",
                        "hint: pass the tile size as an asc.ConstExpr[int] parameter")
        if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
            raise error(f"{api}: a tile's shape must be positive integers, got {describe(d)}",
                        "hint: write e.g. asc2.load(t, [128], offsets=[off])")
        out.append(d)
    if not out:
        raise error(f"{api}: a tile's shape must have at least one dim", "hint: write e.g. [128]")
    return tuple(out)


class Tensor:
    """`asc2.tensor(ptr, shape)`: global memory seen as an array of `shape`
    (dims: ints or runtime ints) of ptr's element type."""

    def __init__(self, gt: GlobalTensor, dtype: dt.DataType, shape: Tuple[Any, ...], numel: Any):
        self.gt = gt
        self.dtype = dtype
        self.shape = shape
        self.numel = numel  # the number of elements: an int or a runtime int

    def __repr__(self) -> str:
        return f"asc2.Tensor({self.dtype.name}, rank {len(self.shape)})"


def tensor(ptr: Any, shape: Any) -> Tensor:
    if not isinstance(ptr, GlobalAddress):
        raise error(f"asc2.tensor: the first argument must be a kernel's tensor argument (a GlobalAddress), "
                    f"got {describe(ptr)}", "hint: write asc2.tensor(x_ptr, [size]) with x_ptr a kernel parameter")
    shape = _const(shape)
    dims = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
    if not dims:
        raise error("asc2.tensor: the shape must have at least one dim", "hint: write asc2.tensor(x_ptr, [size])")
    dims = tuple(_int_or_scalar(d, "asc2.tensor: a dim of the shape") for d in dims)
    gt = GlobalTensor()
    size: Any = 1
    for d in dims:
        size = size * d
    gt.set_global_buffer(ptr, size)
    return Tensor(gt, ptr.dtype, dims, size)


class Tile(IRValue):
    """A tile: `shape` elements of `dtype` in the UB (made by asc2.load and
    the tile operators; PyAsc2's Tile)."""

    def __init__(self, handle: Any, dtype: dt.DataType, shape: Tuple[int, ...],
                 compared: Optional[dt.DataType] = None):
        self.handle = handle
        self.dtype = dtype
        self.shape = shape
        self.size = math.prod(shape)
        # a comparison's result (a mask: one bit an element, in uint8): the element type compared, else None
        self.compared = compared
        self.fill: Optional[Scalar] = None  # asc2.full's value

    def __repr__(self) -> str:
        return f"asc2.Tile({self.dtype.name}, {list(self.shape)})"

    def __add__(self, other: Any) -> Any:
        return add(self, other)

    def __radd__(self, other: Any) -> Any:
        return add(other, self)

    def __sub__(self, other: Any) -> Any:
        return sub(self, other)

    def __rsub__(self, other: Any) -> Any:
        return sub(other, self)

    def __mul__(self, other: Any) -> Any:
        return mul(self, other)

    def __rmul__(self, other: Any) -> Any:
        return mul(other, self)

    def __truediv__(self, other: Any) -> Any:
        return div(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return div(other, self)

    def __lshift__(self, other: Any) -> Any:
        return left_shift(self, other)

    def __rshift__(self, other: Any) -> Any:
        return right_shift(self, other)

    def __neg__(self) -> Any:
        return negative(self)

    def __abs__(self) -> Any:
        return abs(self)  # (asc2.abs below)

    def _compare(self, other: Any, name: str) -> Any:
        return _COMPARISONS[name](self, other)

    def __lt__(self, other: Any) -> Any:
        return self._compare(other, "less")

    def __le__(self, other: Any) -> Any:
        return self._compare(other, "less_equal")

    def __gt__(self, other: Any) -> Any:
        return self._compare(other, "greater")

    def __ge__(self, other: Any) -> Any:
        return self._compare(other, "greater_equal")

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, "equal")

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self._compare(other, "not_equal")

    __hash__ = IRValue.__hash__

    def __bool__(self) -> bool:
        raise error("a tile has no truth value", "hint: compare elements with asc2 operations")

    # PyAsc2's tile methods
    def sum(self, *dims: Any, keep_dims: Any = False) -> Any:
        return reduce_sum(self, *dims, keep_dims=keep_dims)

    def max(self, *dims: Any, keep_dims: Any = False) -> Any:
        return reduce_max(self, *dims, keep_dims=keep_dims)

    def min(self, *dims: Any, keep_dims: Any = False) -> Any:
        return reduce_min(self, *dims, keep_dims=keep_dims)

    def prod(self, *dims: Any, keep_dims: Any = False) -> Any:
        return reduce_prod(self, *dims, keep_dims=keep_dims)

    def broadcast_to(self, *shape: Any) -> "Tile":
        return broadcast_to(self, *shape)

    def reshape(self, *shape: Any) -> "Tile":
        return reshape(self, *shape)

    def ravel(self) -> "Tile":
        return ravel(self)

    def expand_dims(self, *axis: Any) -> "Tile":
        return expand_dims(self, *axis)

    def squeeze(self, *axis: Any) -> "Tile":
        return squeeze(self, *axis)

    def __floordiv__(self, other: Any) -> Any:
        return div(self, other)  # (PyAsc2's Tile: // is /)

    def __pos__(self) -> "Tile":
        return self

    def to(self, dtype: Any) -> "Tile":
        """`tile.to(dtype)`: the elements converted (PyAsc2's rule: between float types, between signed int
        types of different widths, or between a float and a signed int type of one width; a float to an int
        truncates towards zero, to a narrower float rounds to nearest even). The Ascend910B's Cast must have the
        pair, else a CompileError at the line."""
        return to_dtype(self, dtype)


def _unary_method(name: str) -> Any:
    def method(self: Tile) -> Any:
        import asc2

        return getattr(asc2, name)(self)

    method.__name__ = name
    method.__qualname__ = f"Tile.{name}"
    method.__doc__ = f"`tile.{name}()`: asc2.{name}(tile)."
    return method


for _name in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "log", "log2", "floor", "ceil", "abs", "erf",
              "exp2", "sqrt", "rsqrt", "relu"):
    setattr(Tile, _name, _unary_method(_name))
del _name


def to_dtype(x: Any, dtype: Any) -> Tile:
    """Tile.to (above)."""
    api = "Tile.to"
    d = _const(dtype)
    if not isinstance(d, dt.DataType):
        raise error(f"{api}: dtype must be an asc data type, got {describe(d)}", "hint: write t.to(asc.float32)")
    if x.compared is not None:
        raise error(f"{api}: a comparison's result (a mask) has no elements to convert",
                    "hint: select values with asc2.where first")
    if d == x.dtype:
        return x

    def kind(t: dt.DataType) -> str:
        return "f" if t.is_float() else "s" if t.is_int() and t.is_signed() and t != dt.bool_ else "?"

    a, b = kind(x.dtype), kind(d)
    same_width = x.dtype.sizeof() == d.sizeof()
    if "?" in (a, b) or (a == b == "s" and same_width) or (a != b and not same_width):
        raise error(f"{api}: converting {x.dtype.name} to {d.name} is not supported (PyAsc2's rule: float to float, "
                    "signed int to a signed int of another width, float to or from a signed int of its width)",
                    "hint: convert in two steps, e.g. through float32")
    from asc.language.core.enums import RoundMode

    mode = RoundMode.CAST_TRUNC if a == "f" and b == "s" else None
    return _cast(x, d, mode)


def _tile_type(dtype: dt.DataType) -> Any:
    from asc.language.core.enums import TPosition

    return _b.current().type("local_tensor", dtype.name, int(TPosition.VECCALC))


def _check_ub(shape: Tuple[int, ...], dtype: dt.DataType, api: str) -> int:
    n = math.prod(shape)
    last = shape[-1] * dtype.sizeof()
    if len(shape) > 1 and last % UB_BLOCK_BYTES:  # (a 1-D tile: its UB tile is rounded up to whole blocks)
        raise error(f"{api}: a tile's rows of {shape[-1]} {dtype.name} elements are {last} bytes, not a multiple of "
                    f"{UB_BLOCK_BYTES} (the UB's block)",
                    f"hint: make the last dim {UB_BLOCK_BYTES // math.gcd(UB_BLOCK_BYTES, dtype.sizeof())} elements "
                    "or a multiple of that")
    if n >= 1 << 31:
        raise error(f"{api}: a tile of {n} elements is too large", "hint: use smaller tiles")
    return n


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
        raise NotImplementedError("asc2.store of a comparison's result (a mask tile) is not supported yet: select "
                                  "values with asc2.where")
    if value.dtype != tensor.dtype:
        raise error(f"asc2.store: the tile holds {value.dtype.name}, the tensor {tensor.dtype.name}",
                    "hint: store into a tensor of the tile's element type")
    if len(value.shape) > 1 and (value.shape[-1] * value.dtype.sizeof()) % UB_BLOCK_BYTES:
        raise NotImplementedError(f"asc2.store: a tile of shape {list(value.shape)} whose rows are no whole 32-byte "
                                  "blocks is not supported yet")
    place = _place(tensor, value.shape, offsets, tile_id, "asc2.store")
    _b.current().create("asc2.store", [tensor.gt, value] + place, [],
                        attrs={"length": value.size, "width": value.shape[-1]})


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


# ---- elementwise ----------------------------------------------------------------------------------------------

def _scalar_of(x: Any, dtype: dt.DataType, api: str) -> Scalar:
    x = _const(x)
    if isinstance(x, Scalar) or is_number(x):
        return to_scalar(x, dtype)
    raise error(f"{api}: an operand must be a tile or a number, got {describe(x)}",
                f"hint: write {api}(tile, tile) or {api}(tile, number)")


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


def _full_tile(value: Any, like: Tile) -> Tile:
    s = _scalar_of(value, like.dtype, "asc2.full")
    h = _b.current().create1("asc2.full", [s], _tile_type(like.dtype), attrs={"length": like.size})
    return Tile(h, like.dtype, like.shape)


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


def _binary_tiles(api: str, row: str, x: Tile, y: Tile) -> Tile:
    if x.dtype != y.dtype:
        raise error(f"{api}: the tiles hold {x.dtype.name} and {y.dtype.name}",
                    "hint: give both tiles one element type")
    if x.shape != y.shape:
        raise NotImplementedError(f"{api}: broadcasting tiles of shapes {list(x.shape)} and {list(y.shape)} is not "
                                  "supported yet (the shapes must be equal)")
    _check_masked(api, x.dtype)
    if x.dtype == dt.bfloat16:  # (no bfloat16 arithmetic on the Ascend910B: in float32, rounded back once)
        return _cast(_binary_tiles(api, row, _cast(x, dt.float32), _cast(y, dt.float32)), dt.bfloat16)
    return Tile(_vector("asc2.binary", [x, y], x.dtype, row, x.size), x.dtype, x.shape)


def _tile_scalar(row: str, x: Tile, s: Scalar) -> Tile:
    _check_masked(row, x.dtype)
    if x.dtype == dt.bfloat16 and row in _BF16_AS_FLOAT:  # (as _binary_tiles)
        return _cast(_tile_scalar(row, _cast(x, dt.float32), to_scalar(s, dt.float32)), dt.bfloat16)
    return Tile(_vector("asc2.binary_scalar", [x, s], x.dtype, row, x.size), x.dtype, x.shape)


# the tile-scalar rows a bfloat16 tile goes through float32 for (the Ascend910B's vector unit has no bfloat16
# arithmetic)
_BF16_AS_FLOAT = ("asc.adds", "asc.muls", "asc.maxs", "asc.mins")


def _element0(t: Tile) -> Scalar:
    """A tile's first element as a scalar (GetValue; insert-sync makes the scalar unit wait for the tile)."""
    b = _b.current()
    return Scalar(b.create1("asc.local_tensor.get_value", [t, to_scalar(0, dt.uint32)], b.scalar_type(t.dtype)),
                  t.dtype)


def _elementwise(api: str, x: Any, y: Any, row: str, scalar_row: Optional[str], commutes: bool,
                 scalar_map: Any = None) -> Any:
    """x op y on tiles and scalars: tile-tile with `row`; tile-scalar with
    `scalar_row` (the scalar first mapped by scalar_map); scalar-tile the
    same when the op commutes, else the scalar filled into a tile."""
    x, y = _const(x), _const(y)
    xt, yt = isinstance(x, Tile), isinstance(y, Tile)
    if not xt and not yt:
        raise error(f"{api}: at least one operand must be a tile, got {describe(x)} and {describe(y)}",
                    "hint: operate on scalars with Python operators")
    if xt and yt and x.shape != y.shape and x.dtype == y.dtype and (x.size == 1 or y.size == 1):
        # a one-element tile (a reduction's result) broadcasts as its value, read by the scalar unit
        if x.size == 1:
            x, xt = _element0(x), False
        else:
            y, yt = _element0(y), False
    if xt and yt:
        return _binary_tiles(api, row, x, y)
    tile, other = (x, y) if xt else (y, x)
    if scalar_row is not None and (xt or commutes):
        s = _scalar_of(other, tile.dtype, api)
        return _tile_scalar(scalar_row, tile, scalar_map(s) if scalar_map else s)
    if not row:
        raise NotImplementedError(f"{api}: a scalar {'first' if yt else 'second'} operand is not supported yet")
    full = _full_tile(other, tile)
    return _binary_tiles(api, row, full, tile) if yt else _binary_tiles(api, row, tile, full)


def add(input: Any, other: Any) -> Any:
    """`asc2.add(x, y)` (x + y): tiles, or a tile and a scalar."""
    return _elementwise("asc2.add", input, other, "asc.add", "asc.adds", True)


def sub(input: Any, other: Any) -> Any:
    """`asc2.sub(x, y)` (x - y; tile - scalar is Adds of -scalar, except on half types, whose negation in
    Ascend C scalar code is a float: there the scalar is filled into a tile)."""
    t = _const(input)
    half = isinstance(t, Tile) and t.dtype in (dt.float16, dt.bfloat16)
    return _elementwise("asc2.sub", input, other, "asc.sub", None if half else "asc.adds", False, lambda s: -s)


def mul(input: Any, other: Any) -> Any:
    """`asc2.mul(x, y)` (x * y)."""
    return _elementwise("asc2.mul", input, other, "asc.mul", "asc.muls", True)


def div(input: Any, other: Any) -> Any:
    """`asc2.div(x, y)` (x / y; the divisor a scalar is filled into a tile)."""
    return _elementwise("asc2.div", input, other, "asc.div", None, False)


def maximum(input: Any, other: Any) -> Any:
    """`asc2.maximum(x, y)`."""
    return _elementwise("asc2.maximum", input, other, "asc.max", "asc.maxs", True)


def minimum(input: Any, other: Any) -> Any:
    """`asc2.minimum(x, y)`."""
    return _elementwise("asc2.minimum", input, other, "asc.min", "asc.mins", True)


def left_shift(input: Any, other: Any) -> Any:
    """`asc2.left_shift(tile, n)` (tile << n; n a scalar)."""
    if isinstance(_const(other), Tile):
        raise NotImplementedError("asc2.left_shift: a tile shift count is not supported yet (shift by a scalar)")
    return _elementwise("asc2.left_shift", input, other, "", "asc.shift_left", False)


def right_shift(input: Any, other: Any) -> Any:
    """`asc2.right_shift(tile, n)` (tile >> n; n a scalar)."""
    if isinstance(_const(other), Tile):
        raise NotImplementedError("asc2.right_shift: a tile shift count is not supported yet (shift by a scalar)")
    return _elementwise("asc2.right_shift", input, other, "", "asc.shift_right", False)


# the unary operators of a compile-time number: evaluated by the compiler (in double precision)
_FOLD = {
    "asc2.abs": lambda v: math.fabs(v), "asc2.exp": math.exp, "asc2.log": math.log, "asc2.sqrt": math.sqrt,
    "asc2.rsqrt": lambda v: 1.0 / math.sqrt(v), "asc2.relu": lambda v: max(v, 0.0), "asc2.sin": math.sin,
    "asc2.cos": math.cos, "asc2.tan": math.tan, "asc2.sinh": math.sinh, "asc2.cosh": math.cosh,
    "asc2.tanh": math.tanh, "asc2.erf": math.erf, "asc2.floor": lambda v: float(math.floor(v)),
    "asc2.ceil": lambda v: float(math.ceil(v)),
}


def _unary(api: str, x: Any, row: str) -> Any:
    x = _const(x)
    if is_number(x) and not isinstance(x, bool) and api in _FOLD:
        try:
            return _FOLD[api](float(x))  # a Python float, used as a scalar where it meets a tile
        except (ValueError, ZeroDivisionError, OverflowError) as e:
            raise error(f"{api}({x!r}): {e}", "hint: pass a number in the function's domain") from None
    if not isinstance(x, Tile):
        raise NotImplementedError(f"{api} of a runtime scalar is not supported yet: pass a tile or a number")
    _check_masked(api, x.dtype)
    if x.dtype == dt.bfloat16:  # (no bfloat16 arithmetic on the Ascend910B: in float32, rounded back once)
        return _cast(_unary(api, _cast(x, dt.float32), row), dt.bfloat16)
    return Tile(_vector("asc2.unary", [x], x.dtype, row, x.size), x.dtype, x.shape)


def abs(input: Any) -> Any:  # noqa: A001 (PyAsc2's name)
    """`asc2.abs(x)`."""
    return _unary("asc2.abs", input, "asc.abs")


def exp(input: Any) -> Any:
    """`asc2.exp(x)`."""
    return _unary("asc2.exp", input, "asc.exp")


def log(input: Any) -> Any:
    """`asc2.log(x)` (natural logarithm)."""
    return _unary("asc2.log", input, "asc.ln")


def sqrt(input: Any) -> Any:
    """`asc2.sqrt(x)`."""
    return _unary("asc2.sqrt", input, "asc.sqrt")


def rsqrt(input: Any) -> Any:
    """`asc2.rsqrt(x)`."""
    return _unary("asc2.rsqrt", input, "asc.rsqrt")


def relu(input: Any) -> Any:
    """`asc2.relu(x)`: of an L0C tile (a matmul's result), done by its store's fixpipe."""
    if isinstance(_const(input), _cube.CubeTile):
        return _cube.relu(_const(input))
    return _unary("asc2.relu", input, "asc.relu")


def _adv(name: str, doc: str) -> Any:
    """A unary operator that is one call of the Ascend C math library (asc.adv.math.NAME; its temporary
    buffer is the UB the UB plan leaves free, as the devkit's framework does without a temp_buffer)."""

    def f(input: Any) -> Any:
        return _unary(f"asc2.{name}", input, f"asc.adv.math.{name}")

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"`asc2.{name}(x)`: {doc} (AscendC::{name.capitalize()} of the math library)."
    return f


sin = _adv("sin", "sine")
cos = _adv("cos", "cosine")
tan = _adv("tan", "tangent")
sinh = _adv("sinh", "hyperbolic sine")
cosh = _adv("cosh", "hyperbolic cosine")
tanh = _adv("tanh", "hyperbolic tangent")
erf = _adv("erf", "the error function")
floor = _adv("floor", "rounding down")
ceil = _adv("ceil", "rounding up")


_INV_LN2 = 1.0 / math.log(2.0)


def log2(input: Any) -> Any:
    """`asc2.log2(x)`: the base-2 logarithm, `Ln` then `Muls` by 1 / ln 2 (the Ascend910B's vector unit has no
    Log2 instruction); a compile-time number is evaluated by the compiler."""
    x = _const(input)
    if is_number(x) and not isinstance(x, bool):
        if float(x) <= 0.0:
            raise error(f"asc2.log2({x!r}): math domain error", "hint: pass a positive number")
        return math.log2(float(x))
    if not isinstance(x, Tile):
        raise NotImplementedError("asc2.log2 of a runtime scalar is not supported yet: pass a tile or a number")
    if x.dtype == dt.bfloat16:  # (as _unary: in float32, rounded back once)
        return _cast(log2(_cast(x, dt.float32)), dt.bfloat16)
    if x.dtype not in (dt.float16, dt.float32):
        raise error(f"asc2.log2: tiles of {x.dtype.name} are not supported (float16, float32, bfloat16)",
                    "hint: take the logarithm of a float tile")
    return _tile_scalar("asc.muls", _unary("asc2.log2", x, "asc.ln"), to_scalar(_INV_LN2, x.dtype))


def exp2(input: Any) -> Any:
    """`asc2.exp2(x)`: 2 ** x (AscendC::Power of a tile of 2s and x)."""
    x = _const(input)
    if not isinstance(x, Tile):
        raise NotImplementedError("asc2.exp2 of a scalar is not supported yet: pass a tile")
    return _binary_tiles("asc2.exp2", "asc.adv.math.power", _full_tile(2, x), x)


def negative(input: Any) -> Any:
    """`asc2.negative(x)` (-x)."""
    x = _const(input)
    if not isinstance(x, Tile):
        raise NotImplementedError("asc2.negative of a scalar is not supported yet: pass a tile")
    return _tile_scalar("asc.muls", x, to_scalar(-1, x.dtype))


def softmax(input: Any) -> Tile:
    """`asc2.softmax(tile)`: the softmax of each row (the last dim) of a float16 / float32 tile of rank 1 or 2
    (at most 64 rows): per row ReduceMax, Sub of the max, Exp, ReduceSum, Div by the sum."""
    x = _const(input)
    if not isinstance(x, Tile) or x.compared is not None:
        raise error(f"asc2.softmax: the argument must be a tile, got {describe(x)}",
                    "hint: write asc2.softmax(asc2.load(...))")
    if x.dtype not in (dt.float16, dt.float32):
        raise error(f"asc2.softmax: tiles of {x.dtype.name} are not supported (float16 and float32, as PyAsc2)",
                    "hint: load a float tile")
    if len(x.shape) > 2:
        raise error(f"asc2.softmax: a tile of rank {len(x.shape)} (rank 1 and 2, as PyAsc2)",
                    "hint: softmax a 1-D or 2-D tile")
    rows = x.size // x.shape[-1]
    if rows > 64:
        raise NotImplementedError(f"asc2.softmax: a tile of {rows} rows is not supported yet (at most 64: each row "
                                  "is unrolled; docs/api.md, asc2)")
    h = _b.current().create1("asc2.softmax", [x], _tile_type(x.dtype),
                             attrs={"length": x.size, "width": x.shape[-1]})
    return Tile(h, x.dtype, x.shape)


def rms_norm(input: Any, gamma: Any, epsilon: Any) -> Tile:
    """`asc2.rms_norm(tile, gamma, epsilon)`: each row (the last dim) x of a float16 / float32 tile of rank 1 or 2
    (at most 64 rows) as x / sqrt(mean(x * x) + epsilon) * gamma, gamma a tile of one row of the same dtype;
    computed in float32 (a float16 tile is cast, the result rounded back once)."""
    api = "asc2.rms_norm"
    x, g, eps = _const(input), _const(gamma), _const(epsilon)
    for name, t in (("input", x), ("gamma", g)):
        if not isinstance(t, Tile) or t.compared is not None:
            raise error(f"{api}: {name} must be a tile, got {describe(t)}",
                        "hint: write asc2.rms_norm(x, gamma, 1e-6) with x and gamma loaded tiles")
    if x.dtype not in (dt.float16, dt.float32):
        raise error(f"{api}: tiles of {x.dtype.name} are not supported (float16 and float32, as PyAsc2)",
                    "hint: load a float tile")
    if len(x.shape) > 2:
        raise error(f"{api}: a tile of rank {len(x.shape)} (rank 1 and 2, as PyAsc2)", "hint: normalise a 2-D tile")
    width = x.shape[-1]
    if g.dtype != x.dtype or g.size != width:
        raise error(f"{api}: gamma must be one row of {width} {x.dtype.name} elements, got {describe(g)} of shape "
                    f"{list(g.shape)}", "hint: load gamma as a tile of the input's last dim")
    if not (isinstance(eps, Scalar) or (is_number(eps) and not isinstance(eps, bool))):
        raise error(f"{api}: epsilon must be a number, got {describe(eps)}", "hint: write 1e-6")
    rows = x.size // width
    if rows > 64:
        raise NotImplementedError(f"{api}: a tile of {rows} rows is not supported yet (at most 64: each row is "
                                  "unrolled; docs/api.md, asc2)")
    if rows > 1 and (width * 4) % UB_BLOCK_BYTES:
        raise NotImplementedError(f"{api}: rows of {width} elements are no whole 32-byte blocks in float32, which "
                                  "the computation uses; not supported yet")
    h = _b.current().create1("asc2.rms_norm", [x, g, to_scalar(eps, dt.float32)], _tile_type(x.dtype),
                             attrs={"length": x.size, "width": width})
    return Tile(h, x.dtype, x.shape)


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


# ---- shape operators ------------------------------------------------------------------------------------------

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


def broadcast_to(input: Any, *shape: Any) -> Tile:
    """`asc2.broadcast_to(tile, *shape)`: a tile of `shape` repeating the tile's elements (torch's rules). A tile
    of one element is a Duplicate of its value (asc2.full's, else read with GetValue); other broadcasts raise
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
    if math.prod(shp) == x.size:
        return reshape(x, *shp)
    if x.size != 1:
        raise NotImplementedError(f"{api}: broadcasting a tile of shape {list(x.shape)} to {list(shp)} is not "
                                  "supported yet (a tile of one element is; docs/api.md, asc2)")
    return full(shp, x.fill if x.fill is not None else _element0(x), x.dtype)


# ---- comparisons and where -----------------------------------------------------------------------------------

def _cast(x: Tile, dtype: dt.DataType, mode: Any = None) -> Tile:
    """x converted to dtype (asc2.cast: asc.cast; mode None: to a wider type exactly, else rounding to nearest
    even)."""
    from asc.language.core.enums import RoundMode

    if mode is None:
        mode = RoundMode.CAST_NONE if dtype.sizeof() > x.dtype.sizeof() else RoundMode.CAST_RINT
    h = _b.current().create1("asc2.cast", [x], _tile_type(dtype),
                             attrs={"round_mode": ("RoundMode", mode), "length": x.size})
    return Tile(h, dtype, x.shape)


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
        if rest.shape != tile.shape:
            raise NotImplementedError(f"{api}: broadcasting tiles of shapes {list(x.shape)} and {list(y.shape)} is "
                                      "not supported yet (the shapes must be equal)")
        h = b.create1("asc2.compare", [x, y], mask_type, attrs=attrs)
    else:
        h = b.create1("asc2.compare_scalar", [tile, _scalar_of(rest, tile.dtype, api)], mask_type, attrs=attrs)
    return Tile(h, dt.uint8, tile.shape, compared=compared)


def _comparison(name: str) -> Any:
    def f(input: Any, other: Any) -> Tile:
        return _compare(name, input, other)

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (f"`asc2.{name}(x, y)`: a mask tile of x {name.replace('_', ' ')} y (tiles of one shape, or a tile "
                 "and a scalar; AscendC::Compare / Compares), for asc2.where.")
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
    """`asc2.where(mask, x, y)`: x where the mask (a comparison's result) holds, else y; x and y tiles of the
    mask's shape or scalars (AscendC::Select)."""
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
            if t.shape != m.shape:
                raise NotImplementedError(f"{api}: a tile of shape {list(t.shape)} with a mask of shape "
                                          f"{list(m.shape)} (broadcasting) is not supported yet")
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


# ---- reductions -----------------------------------------------------------------------------------------------

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
        if rows > 64:
            raise NotImplementedError(f"{api}: reducing the last dim of a tile of {rows} rows is not supported yet "
                                      "(at most 64: each row is unrolled; docs/api.md, asc2)")
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
