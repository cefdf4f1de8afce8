"""The cube side of `asc2`: tiles in L1, L0A, L0B and L0C, and matmul.

A cube tile is the SSA value of a cube tile op of the IR (src/ir/ops.def,
"family: tiles, the cube side"): an !asc.local_tensor<T, POS> at A1 (L1),
A2 (L0A), B2 (L0B) or CO1 (L0C) whose bytes nobody chose yet. This module
only checks the arguments and builds those ops; the C pass lower-cube
(src/passes/lower_cube.c, run by lower-tiles) turns them into the cube
instructions below on asc.local_tensor_auto tiles, plan-ub gives each cube
memory a pool of its own (a TBuf at A1 / A2 / B2 / CO1): tiles whose
lifetimes do not overlap share bytes, and a tile made in a loop body that
two pipes touch gets two slots alternating by iteration (double buffering:
the load of iteration i + 1 overlaps the mmad of iteration i), and
insert-sync (on for @asc2.jit) orders the pipes. The dump
(PYASC_DUMP_PATH) shows each tile's memory, offset and slots.

  asc2.load(t, [r, c], location=L1)     asc2.cube_load: data_copy GM -> L1 with
                                        Nd2NzParams (NZ)
  asc2.load(t, ..., location=L0A / L0B) the above into a scratch L1 tile, then
                                        as asc2.copy (float32 into L0B: per 16
                                        rows LoadDataWithTranspose)
  asc2.copy(l1, ..., location=L0A)      asc2.cube_copy: load_data L1 -> L0A (ZZ),
                                        one per row of 16x16 fractals
  asc2.copy(l1, ..., location=L0B)      load_data L1 -> L0B (ZN), each fractal
                                        transposed (if_transpose)
  asc2.zeros_acc(shape)                 an L0C tile cleared by one mmad of zero
                                        fractals (init_const_value in L0A/L0B)
  a @ b, asc2.matmul(a, b)              asc2.matmul: mmad into a new L0C tile
  asc2.matmul_acc(a, b, acc)            mmad added to acc
  asc2.relu(acc), acc.to(dtype)         recorded on the tile: the store's or
                                        copy's fixpipe does them (relu_en,
                                        quant_pre)
  asc2.store(acc, t, offsets)           asc2.cube_store: fixpipe L0C -> GM (NZ2ND)
  asc2.copy(acc, ..., location=L1)      DataCopy L0C -> L1 (DataCopyCO12DstParams,
                                        NZ; converted to float16 / bfloat16)

Limits (each a CompileError naming it): operands float16, bfloat16 or float32
(float32 into L0B only by asc2.load), 2-D, every dim a multiple of 16 (one
fractal), offsets into L1 tiles multiples of 16 when known at compile time,
the tiles of a kernel within L1 (512 KiB less what the kernel reserves), L0A
and L0B (64 KiB each) and L0C (128 KiB) of the Ascend910B (the error names
the memory and the tiles' lines).
"""

from __future__ import annotations

from typing import Any, Tuple

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.constexpr import ConstExpr
from asc.language.core.enums import TPosition
from asc.language.core.values import IRValue, to_scalar

FRACTAL = 16  # rows and (16-bit) columns of a 512-byte fractal
POSITIONS = {"L1": TPosition.A1, "L0A": TPosition.A2, "L0B": TPosition.B2, "L0C": TPosition.CO1}
OPERAND_TYPES = (dt.float16, dt.bfloat16, dt.float32)
TO_L1_TYPES = (dt.float16, dt.bfloat16)  # what the fixpipe writes into L1 (no float32 on the Ascend910B)
OUT_TYPES = ("float32", "float16", "bfloat16")  # what the fixpipe converts an L0C tile to


def _type(dtype: dt.DataType, memory: str) -> Any:
    return _b.current().type("local_tensor", dtype.name, int(POSITIONS[memory]))


def _i32(v: Any) -> Any:
    return to_scalar(v, dt.int32)


class CubeTile(IRValue):
    """A 2-D tile in L1 (NZ), L0A (ZZ), L0B (ZN) or L0C (NZ, float32): the result of a cube tile op."""

    def __init__(self, handle: Any, dtype: dt.DataType, shape: Tuple[int, int], memory: str):
        self.handle = handle
        self.dtype = dtype
        self.shape = shape
        self.memory = memory
        self.relu = False  # L0C: the store's fixpipe applies ReLU
        self.out_dtype = dtype  # L0C: the type the store's fixpipe writes

    def __repr__(self) -> str:
        return f"asc2.Tile({self.dtype.name}, {list(self.shape)}, {self.memory})"

    def __matmul__(self, other: Any) -> "CubeTile":
        return matmul(self, other)

    def __bool__(self) -> bool:
        raise error("a tile has no truth value", "hint: compare elements with asc2 operations")

    def to(self, dtype: Any) -> "CubeTile":
        """`tile.to(dtype)` of an L0C tile: float32, float16 or bfloat16, converted by the store's fixpipe."""
        d = ConstExpr.unwrap(dtype)
        if self.memory != "L0C":
            raise NotImplementedError(f"asc2: Tile.to of a tile in {self.memory} is not supported yet (L0C only)")
        if not isinstance(d, dt.DataType) or d.name not in OUT_TYPES:
            raise error(f"asc2: Tile.to of a matmul's result takes float32, float16 or bfloat16, got {describe(d)}",
                        "hint: write c.to(asc.float16)")
        t = CubeTile(self.handle, self.dtype, self.shape, self.memory)
        t.relu, t.out_dtype = self.relu, d
        return t


def is_cube_location(location: Any) -> bool:
    from .tile import TileLocation

    return ConstExpr.unwrap(location) in (TileLocation.L1, TileLocation.L0A, TileLocation.L0B, TileLocation.L0C)


def _memory(location: Any, api: str, allowed: Tuple[str, ...]) -> str:
    from .tile import TileLocation

    loc = ConstExpr.unwrap(location)
    name = {TileLocation.L1: "L1", TileLocation.L0A: "L0A", TileLocation.L0B: "L0B",
            TileLocation.L0C: "L0C"}.get(loc)
    if name not in allowed:
        raise NotImplementedError(f"{api}: location={loc!r} is not supported here (this op makes tiles in "
                                  f"{', '.join(allowed)})")
    return name


def _shape2(shape: Any, dtype: dt.DataType, api: str) -> Tuple[int, int]:
    from .tile import _static_shape

    shp = _static_shape(shape, api)
    if len(shp) != 2:
        raise error(f"{api}: a cube tile must be 2-D, got shape {list(shp)}", "hint: write [rows, cols]")
    if dtype not in OPERAND_TYPES:
        raise error(f"{api}: cube tiles of {dtype.name} are not supported (float16, bfloat16 and float32 here)",
                    "hint: load float16, bfloat16 or float32 operands")
    if shp[0] % FRACTAL or shp[1] % FRACTAL:
        raise error(f"{api}: a cube tile of shape {list(shp)}: each dim must be a multiple of {FRACTAL} (one "
                    "fractal)", f"hint: pad the matrices to multiples of {FRACTAL}")
    return shp[0], shp[1]


def _offsets2(offsets: Any, api: str) -> Tuple[Any, Any]:
    from .tile import _int_or_scalar

    given = ConstExpr.unwrap(offsets)
    vals = list(given) if isinstance(given, (list, tuple)) else [given]
    if len(vals) != 2:
        raise error(f"{api}: {len(vals)} offsets for a 2-D tile", f"hint: write {api}(..., offsets=[row, col])")
    return tuple(_int_or_scalar(v, f"{api}: offsets") for v in vals)  # type: ignore[return-value]


def load(tensor: Any, shape: Any, offsets: Any, tile_id: Any, location: Any) -> CubeTile:
    """asc2.load into L1, L0A or L0B (see the module docstring)."""
    api = "asc2.load"
    memory = _memory(location, api, ("L1", "L0A", "L0B"))
    if len(tensor.shape) != 2:
        raise error(f"{api}: a cube tile comes from a 2-D tensor, got rank {len(tensor.shape)}",
                    "hint: view the matrix as asc2.tensor(ptr, [rows, cols])")
    rows, cols = _shape2(shape, tensor.dtype, api)
    if (offsets is None) == (tile_id is None):
        raise error(f"{api}: give exactly one of offsets=[...] and tile_id=[...]",
                    f"hint: write {api}(..., offsets=[row, col])")
    r0, c0 = _offsets2(offsets if offsets is not None else tile_id, api)
    if tile_id is not None:
        r0, c0 = r0 * rows, c0 * cols
    h = _b.current().create1("asc2.cube_load", [tensor.gt, _i32(r0), _i32(c0), _i32(tensor.shape[1])],
                             _type(tensor.dtype, memory), attrs={"rows": rows, "cols": cols})
    return CubeTile(h, tensor.dtype, (rows, cols), memory)


def copy(input: Any, shape: Any, *, offsets: Any = None, location: Any = None) -> CubeTile:
    """asc2.copy of an L1 tile's part into L0A or L0B, or of a whole L0C tile into L1 (asc2.cube_copy)."""
    api = "asc2.copy"
    x = ConstExpr.unwrap(input)
    if isinstance(x, CubeTile) and x.memory == "L0C":
        return _l0c_to_l1(x, shape, offsets, location, api)
    if not isinstance(x, CubeTile) or x.memory != "L1":
        raise NotImplementedError(f"asc2.copy of {describe(x)} is not supported yet (from an L1 tile, made by "
                                  "asc2.load(..., location=asc2.TileLocation.L1))")
    memory = _memory(location, api, ("L0A", "L0B"))
    shp = _shape2(shape, x.dtype, api)
    off = _offsets2([0, 0] if offsets is None else offsets, api)
    for o, what in zip(off, ("row", "column")):
        if isinstance(o, int) and (o % FRACTAL or o < 0):
            raise error(f"{api}: a {what} offset of {o}: it must be a multiple of {FRACTAL} (one fractal)",
                        f"hint: offset by whole {FRACTAL}-element fractals")
    if any(isinstance(o, int) and o + n > whole for o, n, whole in zip(off, shp, x.shape)):
        raise error(f"{api}: a part of shape {list(shp)} of a tile of shape {list(x.shape)}",
                    "hint: copy a part inside the tile")
    if memory == "L0B" and x.dtype.sizeof() != 2:
        raise NotImplementedError(f"{api}: an L0B tile of {x.dtype.name} from an L1 tile is not supported yet "
                                  "(asc2.load(..., location=asc2.TileLocation.L0B) is)")
    h = _b.current().create1("asc2.cube_copy", [x, _i32(off[0]), _i32(off[1])], _type(x.dtype, memory),
                             attrs={"rows": shp[0], "cols": shp[1], "src_rows": x.shape[0],
                                    "src_cols": x.shape[1]})
    return CubeTile(h, x.dtype, shp, memory)


def _l0c_to_l1(x: CubeTile, shape: Any, offsets: Any, location: Any, api: str) -> CubeTile:
    """The whole L0C tile into a new L1 tile (NZ) converted to its .to() type, with its relu: asc2.cube_copy,
    which lower-cube makes a DataCopy L0C -> L1 with DataCopyCO12DstParams (the FIX pipe)."""
    _memory(location, api, ("L1",))
    if x.out_dtype not in TO_L1_TYPES:
        raise error(f"{api}: an L0C tile goes to L1 as float16 or bfloat16 (the Ascend910B's fixpipe writes no "
                    f"float32 into L1), got {x.out_dtype.name}", "hint: convert first: c.to(asc.float16)")
    shp = _shape2(shape, x.out_dtype, api)
    off = _offsets2([0, 0] if offsets is None else offsets, api)
    if shp != x.shape or any(not isinstance(o, int) or o for o in off):
        raise NotImplementedError(f"{api}: a part of an L0C tile is not supported yet (the whole tile, offsets "
                                  "[0, 0])")
    m, n = x.shape
    h = _b.current().create1("asc2.cube_copy", [x, _i32(0), _i32(0)], _type(x.out_dtype, "L1"),
                             attrs={"rows": m, "cols": n, "src_rows": m, "src_cols": n, "relu": int(x.relu)})
    return CubeTile(h, x.out_dtype, x.shape, "L1")


def _operands(api: str, a: Any, b: Any) -> Tuple[CubeTile, CubeTile]:
    a, b = ConstExpr.unwrap(a), ConstExpr.unwrap(b)
    if not isinstance(a, CubeTile) or a.memory != "L0A" or not isinstance(b, CubeTile) or b.memory != "L0B":
        raise NotImplementedError(f"{api}: operands {describe(a)} and {describe(b)} are not supported yet (the left "
                                  "one in L0A, the right one in L0B: asc2.load or asc2.copy with location="
                                  "asc2.TileLocation.L0A / L0B)")
    if a.dtype != b.dtype:
        raise error(f"{api}: the operands hold {a.dtype.name} and {b.dtype.name}", "hint: give both one type")
    if a.shape[1] != b.shape[0]:
        raise error(f"{api}: shapes {list(a.shape)} and {list(b.shape)} do not multiply",
                    "hint: the left tile's columns must be the right tile's rows")
    return a, b


def matmul(input: Any, other: Any) -> CubeTile:
    """`asc2.matmul(a, b)` (a @ b): a float32 L0C tile of a (L0A) times b (L0B)."""
    a, b = _operands("asc2.matmul", input, other)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    h = _b.current().create1("asc2.matmul", [a, b], _type(dt.float32, "L0C"), attrs={"m": m, "k": k, "n": n})
    return CubeTile(h, dt.float32, (m, n), "L0C")


def matmul_acc(input: Any, other: Any, acc: Any) -> None:
    """`asc2.matmul_acc(a, b, acc)`: acc += a @ b (acc: asc2.zeros_acc's float32 L0C tile)."""
    api = "asc2.matmul_acc"
    a, b = _operands(api, input, other)
    c = ConstExpr.unwrap(acc)
    if not isinstance(c, CubeTile) or c.memory != "L0C":
        raise error(f"{api}: the accumulator must be an L0C tile (asc2.zeros_acc), got {describe(c)}",
                    "hint: acc = asc2.zeros_acc([m, n], dtype=asc.float32)")
    if c.shape != (a.shape[0], b.shape[1]):
        raise error(f"{api}: an accumulator of shape {list(c.shape)} for a product of shape "
                    f"{[a.shape[0], b.shape[1]]}", "hint: give the accumulator the product's shape")
    _b.current().create("asc2.matmul_acc", [a, b, c], [],
                        attrs={"m": a.shape[0], "k": a.shape[1], "n": b.shape[1]})


def zeros_acc(shape: Any, dtype: Any = dt.float32) -> CubeTile:
    """`asc2.zeros_acc(shape, dtype=asc.float32)`: a zero float32 L0C tile (for asc2.matmul_acc)."""
    api = "asc2.zeros_acc"
    d = ConstExpr.unwrap(dtype)
    if d != dt.float32:
        raise error(f"{api}: the accumulator holds float32, got {describe(d)}", "hint: write dtype=asc.float32")
    m, n = _shape2(shape, dt.float16, api)
    h = _b.current().create1("asc2.zeros_acc", [], _type(dt.float32, "L0C"), attrs={"rows": m, "cols": n})
    return CubeTile(h, dt.float32, (m, n), "L0C")


def relu(x: CubeTile) -> CubeTile:
    if x.memory != "L0C":
        raise NotImplementedError(f"asc2.relu of a tile in {x.memory} is not supported yet (UB and L0C tiles)")
    t = CubeTile(x.handle, x.dtype, x.shape, x.memory)
    t.relu, t.out_dtype = True, x.out_dtype
    return t


def store(x: CubeTile, tensor: Any, offsets: Any, tile_id: Any) -> None:
    """asc2.store of an L0C tile: fixpipe L0C -> GM (NZ2ND, with the tile's ReLU and conversion)."""
    api = "asc2.store"
    if x.memory != "L0C":
        raise NotImplementedError(f"{api} of a tile in {x.memory} is not supported yet (UB and L0C tiles)")
    if len(tensor.shape) != 2:
        raise error(f"{api}: a matmul's result goes to a 2-D tensor, got rank {len(tensor.shape)}",
                    "hint: view the matrix as asc2.tensor(ptr, [rows, cols])")
    if tensor.dtype != x.out_dtype:
        raise error(f"{api}: the tile holds {x.out_dtype.name}, the tensor {tensor.dtype.name}",
                    f"hint: convert with tile.to(asc.{tensor.dtype.name}) or store into a tensor of "
                    f"{x.out_dtype.name}")
    if (offsets is None) == (tile_id is None):
        raise error(f"{api}: give exactly one of offsets=[...] and tile_id=[...]",
                    f"hint: write {api}(..., offsets=[row, col])")
    r0, c0 = _offsets2(offsets if offsets is not None else tile_id, api)
    m, n = x.shape
    if tile_id is not None:
        r0, c0 = r0 * m, c0 * n
    _b.current().create("asc2.cube_store", [tensor.gt, x, _i32(r0), _i32(c0), _i32(tensor.shape[1])], [],
                        attrs={"rows": m, "cols": n, "relu": int(x.relu)})
