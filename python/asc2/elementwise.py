"""asc2's elementwise operators: arithmetic on tiles and scalars (add ... right_shift), the unary
operators (a vector instruction or a call of the math library), softmax and rms_norm. bfloat16 tiles are
computed in float32 and rounded back once (the Ascend910B's vector unit has no bfloat16 arithmetic)."""

from __future__ import annotations

import math
from typing import Any, Optional

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.values import Scalar, is_number, to_scalar

from . import cube as _cube
from .mask import _check_masked, _vector
from .shape import _broadcast, _common_shape, reshape
from .tile import UB_BLOCK_BYTES, Tile, _cast, _const, _element0, _full_tile, _scalar_of, _tile_type


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
    if xt and yt and x.shape != y.shape and x.dtype == y.dtype:
        shape = _common_shape(api, x.shape, y.shape)  # (torch's rules)
        if x.size == 1 or y.size == 1:
            # a one-element tile (a reduction's result) broadcasts as its value, read by the scalar unit
            if x.size == 1:
                x, xt = _element0(x), False
            else:
                y, yt = _element0(y), False
            out = _elementwise(api, x, y, row, scalar_row, commutes, scalar_map)
            return reshape(out, *shape) if out.shape != shape else out
        x, y = _broadcast(api, x, shape), _broadcast(api, y, shape)
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


# the unary operators PyAsc2 also applies to a runtime scalar (its support_scalar)
_SCALAR_FORMS = ("asc2.exp", "asc2.erf", "asc2.sqrt")


def _unary(api: str, x: Any, row: str) -> Any:
    x = _const(x)
    if is_number(x) and not isinstance(x, bool) and api in _FOLD:
        try:
            return _FOLD[api](float(x))  # a Python float, used as a scalar where it meets a tile
        except (ValueError, ZeroDivisionError, OverflowError) as e:
            raise error(f"{api}({x!r}): {e}", "hint: pass a number in the function's domain") from None
    if isinstance(x, Scalar) and api in _SCALAR_FORMS:
        # PyAsc2's scalar form (exp, erf, sqrt of a runtime number, as float32): the scalar unit has no such
        # instruction, so a one-element tile (Duplicate), the vector operator, GetValue
        one = _full_tile(to_scalar(x, dt.float32), Tile(None, dt.float32, (1,)))
        return _element0(_unary(api, one, row))
    if not isinstance(x, Tile):
        forms = ", ".join(sorted(_SCALAR_FORMS))
        raise error(f"{api} takes a tile or a compile-time number, got {describe(x)} (as in PyAsc2, only {forms} "
                    "also take a runtime scalar)", f"hint: apply {api} to a tile")
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
        raise error(f"asc2.log2 takes a tile or a compile-time number, got {describe(x)} (as in PyAsc2)",
                    "hint: apply asc2.log2 to a tile")
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
    """`asc2.softmax(tile)`: the softmax of each row (the last dim) of a float16 / float32 tile of rank 1 or 2:
    per row ReduceMax, Sub of the max, Exp, ReduceSum, Div by the sum (up to 64 rows unrolled, more in a loop
    over the rows)."""
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
    h = _b.current().create1("asc2.softmax", [x], _tile_type(x.dtype),
                             attrs={"length": x.size, "width": x.shape[-1]})
    return Tile(h, x.dtype, x.shape)


def rms_norm(input: Any, gamma: Any, epsilon: Any) -> Tile:
    """`asc2.rms_norm(tile, gamma, epsilon)`: each row (the last dim) x of a float16 / float32 tile of rank 1 or 2
    as x / sqrt(mean(x * x) + epsilon) * gamma, gamma a tile of one row of the same dtype;
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
    if rows > 1 and (width * 4) % UB_BLOCK_BYTES:
        raise NotImplementedError(f"{api}: rows of {width} elements are no whole 32-byte blocks in float32, which "
                                  "the computation uses; not supported yet")
    h = _b.current().create1("asc2.rms_norm", [x, g, to_scalar(eps, dt.float32)], _tile_type(x.dtype),
                             attrs={"length": x.size, "width": width})
    return Tile(h, x.dtype, x.shape)
