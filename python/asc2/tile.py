"""The tile layer's values: `Tensor` (asc2.tensor), `Tile`, `TileLocation`, `asc2.range`, and the helpers the
operators share.

A `Tensor` is an asc GlobalTensor with a shape. A `Tile` is the SSA value of a tile op of the IR (ops.def,
"family: tiles"): its type is `!asc.local_tensor<T, VECCALC>`, its shape and dtype live here. The C passes
split-tiles and lower-tiles (src/passes/) make each tile an asc.local_tensor_auto filled by the existing copy
or vector op, so the UB planner places it and insert-sync orders the pipes; nothing downstream is
tile-specific. The operators, one module per family as PyAsc2 groups them: memory.py (load, store, atomics,
block_idx, num_tiles), creation.py (full, zeros, concat), elementwise.py (arithmetic, unary operators,
softmax, rms_norm), compare.py (comparisons, where), reduce.py, shape.py, mask.py (asc2.mask), cube.py
(L1 / L0 tiles and matmul). A Tile's methods and Python operators call those through the package.
What works: docs/api.md, "asc2".
"""

from __future__ import annotations

import enum
import math
from typing import Any, Dict, Optional, Tuple

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.constexpr import ConstExpr
from asc.language.core.values import GlobalAddress, GlobalTensor, IRValue, LoopRange, Scalar, is_number, to_scalar

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
    attribute, emitted as `#pragma GCC unroll N` (clang, so bisheng, and gcc
    both take this spelling; gcc rejects `#pragma unroll`) before the Ascend C loop (the simulator's timing
    model charges nothing for loop control, so it changes no estimate);
    parallel is checked and has no effect (as in PyAsc2, whose attribute no
    pass reads yet; the UB planner double-buffers a loop body's tiles on its
    own)."""

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
        return _api().add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _api().add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _api().sub(self, other)

    def __rsub__(self, other: Any) -> Any:
        return _api().sub(other, self)

    def __mul__(self, other: Any) -> Any:
        return _api().mul(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _api().mul(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _api().div(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _api().div(other, self)

    def __lshift__(self, other: Any) -> Any:
        return _api().left_shift(self, other)

    def __rshift__(self, other: Any) -> Any:
        return _api().right_shift(self, other)

    def __neg__(self) -> Any:
        return _api().negative(self)

    def __abs__(self) -> Any:
        return _api().abs(self)

    def _compare(self, other: Any, name: str) -> Any:
        return getattr(_api(), name)(self, other)

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
        return _api().reduce_sum(self, *dims, keep_dims=keep_dims)

    def max(self, *dims: Any, keep_dims: Any = False) -> Any:
        return _api().reduce_max(self, *dims, keep_dims=keep_dims)

    def min(self, *dims: Any, keep_dims: Any = False) -> Any:
        return _api().reduce_min(self, *dims, keep_dims=keep_dims)

    def prod(self, *dims: Any, keep_dims: Any = False) -> Any:
        return _api().reduce_prod(self, *dims, keep_dims=keep_dims)

    def broadcast_to(self, *shape: Any) -> "Tile":
        return _api().broadcast_to(self, *shape)

    def reshape(self, *shape: Any) -> "Tile":
        return _api().reshape(self, *shape)

    def ravel(self) -> "Tile":
        return _api().ravel(self)

    def expand_dims(self, *axis: Any) -> "Tile":
        return _api().expand_dims(self, *axis)

    def squeeze(self, *axis: Any) -> "Tile":
        return _api().squeeze(self, *axis)

    def __floordiv__(self, other: Any) -> Any:
        return _api().div(self, other)  # (PyAsc2's Tile: // is /)

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
        return getattr(_api(), name)(self)

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



def _scalar_of(x: Any, dtype: dt.DataType, api: str) -> Scalar:
    x = _const(x)
    if isinstance(x, Scalar) or is_number(x):
        return to_scalar(x, dtype)
    raise error(f"{api}: an operand must be a tile or a number, got {describe(x)}",
                f"hint: write {api}(tile, tile) or {api}(tile, number)")


def _full_tile(value: Any, like: Tile) -> Tile:
    s = _scalar_of(value, like.dtype, "asc2.full")
    h = _b.current().create1("asc2.full", [s], _tile_type(like.dtype), attrs={"length": like.size})
    return Tile(h, like.dtype, like.shape)


def _element0(t: Tile) -> Scalar:
    """A tile's first element as a scalar (GetValue; insert-sync makes the scalar unit wait for the tile)."""
    b = _b.current()
    return Scalar(b.create1("asc.local_tensor.get_value", [t, to_scalar(0, dt.uint32)], b.scalar_type(t.dtype)),
                  t.dtype)



def _cast(x: Tile, dtype: dt.DataType, mode: Any = None) -> Tile:
    """x converted to dtype (asc2.cast: asc.cast; mode None: to a wider type exactly, else rounding to nearest
    even)."""
    from asc.language.core.enums import RoundMode

    if mode is None:
        mode = RoundMode.CAST_NONE if dtype.sizeof() > x.dtype.sizeof() else RoundMode.CAST_RINT
    h = _b.current().create1("asc2.cast", [x], _tile_type(dtype),
                             attrs={"round_mode": ("RoundMode", mode), "length": x.size})
    return Tile(h, dtype, x.shape)


def _api() -> Any:
    """The asc2 package, whose operators the Tile's methods and Python operators call (imported when first
    called: the operators' modules import this one)."""
    import asc2

    return asc2
