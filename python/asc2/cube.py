"""The cube side of `asc2`: tiles in L1, L0A, L0B and L0C, and matmul.

A cube tile is an asc LocalTensor at a cube position (A1: L1, A2: L0A, B2:
L0B, CO1: L0C) at a static address: each op that makes one takes the next
512-byte aligned bytes of its memory when the kernel is traced (one buffer
per op in the source, so a loop body reuses its tiles' bytes), and a kernel
whose cube tiles do not fit is a CompileError naming the memory. The ops are
the existing cube instructions, ordered by insert-sync (on for @asc2.jit):

  asc2.load(t, [r, c], location=L1)     data_copy GM -> L1 with Nd2NzParams (NZ)
  asc2.load(t, ..., location=L0A / L0B) the above into a scratch L1 tile, then
                                        as asc2.copy
  asc2.copy(l1, ..., location=L0A)      load_data L1 -> L0A (ZZ), one per row of
                                        16x16 fractals
  asc2.copy(l1, ..., location=L0B)      load_data L1 -> L0B (ZN), each fractal
                                        transposed (if_transpose)
  asc2.zeros_acc(shape)                 an L0C tile cleared by one mmad of zero
                                        fractals (init_const_value in L0A/L0B)
  a @ b, asc2.matmul(a, b)              mmad into a new L0C tile (cleared first)
  asc2.matmul_acc(a, b, acc)            mmad added to acc
  asc2.relu(acc), acc.to(dtype)         recorded on the tile: the store's
                                        fixpipe does them (relu_en, quant_pre)
  asc2.store(acc, t, offsets)           fixpipe L0C -> GM (NZ2ND)
  asc2.copy(acc, ..., location=L1)      DataCopy L0C -> L1 (DataCopyCO12DstParams,
                                        NZ; converted to float16 / bfloat16)

Limits (each a CompileError naming it): operands float16, bfloat16 or float32
(float32 into L0B only by asc2.load), 2-D,
every dim a multiple of 16 (one fractal), offsets into L1 tiles multiples of
16 when known at compile time, the tiles of a kernel within L1 (512 KiB), L0A
and L0B (64 KiB each) and L0C (128 KiB) of the Ascend910B.
"""

from __future__ import annotations

import weakref
from typing import Any, Dict, Tuple

from asc.codegen import builder as _b
from asc.language.core import dtype as dt
from asc.language.core.checks import describe, error
from asc.language.core.constexpr import ConstExpr
from asc.language.core.enums import QuantModes, TPosition
from asc.language.core.values import LocalTensor, to_scalar

FRACTAL = 16  # rows and (16-bit) columns of a 512-byte fractal
ALIGN = 512
# the Ascend910B's (arch 2201) cube memories: position, name, bytes
MEMORIES = {"L1": (TPosition.A1, 512 * 1024), "L0A": (TPosition.A2, 64 * 1024),
            "L0B": (TPosition.B2, 64 * 1024), "L0C": (TPosition.CO1, 128 * 1024)}
OPERAND_TYPES = (dt.float16, dt.bfloat16, dt.float32)
TO_L1_TYPES = (dt.float16, dt.bfloat16)  # what the fixpipe writes into L1 (no float32 on the Ascend910B)
QUANT = {"float32": QuantModes.NoQuant, "float16": QuantModes.F322F16, "bfloat16": QuantModes.F322BF16}

_used: "weakref.WeakKeyDictionary[Any, Dict[str, int]]" = weakref.WeakKeyDictionary()


def _alloc(memory: str, dtype: dt.DataType, count: int, api: str) -> LocalTensor:
    """`count` elements of `dtype` at the next free bytes of `memory` for this kernel."""
    b = _b.current()
    used = _used.setdefault(b, {})
    pos, cap = MEMORIES[memory]
    start = (used.get(memory, 0) + ALIGN - 1) // ALIGN * ALIGN
    end = start + count * dtype.sizeof()
    if end > cap:
        raise error(f"{api}: the kernel's {memory} tiles need {end} bytes, more than the {cap} bytes of {memory} "
                    "(each tile op in the source has a buffer of its own there)",
                    "hint: use smaller tiles, or fewer of them")
    used[memory] = end
    return LocalTensor(dtype, pos, start, count)


class CubeTile:
    """A 2-D tile in L1 (NZ), L0A (ZZ), L0B (ZN) or L0C (NZ, float32)."""

    def __init__(self, lt: LocalTensor, dtype: dt.DataType, shape: Tuple[int, int], memory: str):
        self.lt = lt
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
        if not isinstance(d, dt.DataType) or d.name not in QUANT:
            raise error(f"asc2: Tile.to of a matmul's result takes float32, float16 or bfloat16, got {describe(d)}",
                        "hint: write c.to(asc.float16)")
        t = CubeTile(self.lt, self.dtype, self.shape, self.memory)
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
    from asc.language.basic.data_copy import data_copy
    from asc.language.core.types import Nd2NzParams

    l1 = _alloc("L1", tensor.dtype, rows * cols, api)
    tcols = tensor.shape[1]
    src = tensor.gt[r0 * tcols + c0] if not (isinstance(r0, int) and isinstance(c0, int) and r0 == c0 == 0) \
        else tensor.gt
    if memory == "L0B" and tensor.dtype == dt.float32:
        # each 16 rows an ND matrix of their own: the 16 x 8 fractals in row order, so that two side by side
        # are one 16 x 16 square of LoadDataWithTranspose
        data_copy(l1, src, Nd2NzParams(rows // FRACTAL, FRACTAL, cols, FRACTAL * tcols, tcols, FRACTAL, 1,
                                       FRACTAL * cols))
        return _l0b_float32(CubeTile(l1, tensor.dtype, (rows, cols), "L1"), api)
    data_copy(l1, src, Nd2NzParams(1, rows, cols, 0, tcols, rows, 1, 0))
    tile = CubeTile(l1, tensor.dtype, (rows, cols), "L1")
    if memory == "L1":
        return tile
    return _to_l0(tile, (rows, cols), (0, 0), memory, api)


def copy(input: Any, shape: Any, *, offsets: Any = None, location: Any = None) -> CubeTile:
    """asc2.copy of an L1 tile's part into L0A or L0B."""
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
    return _to_l0(x, shp, off, memory, api)


def _l0c_to_l1(x: CubeTile, shape: Any, offsets: Any, location: Any, api: str) -> CubeTile:
    """The whole L0C tile into a new L1 tile (NZ) converted to its .to() type: DataCopy L0C -> L1 with
    DataCopyCO12DstParams (the FIX pipe; its column blocks of 16 columns `m` 32-byte rows apart, as asc2's L1
    tiles)."""
    from asc.language.basic.data_copy import data_copy
    from asc.language.core.types import DataCopyCO12DstParams

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
    l1 = _alloc("L1", x.out_dtype, m * n, api)
    data_copy(l1, x.lt, DataCopyCO12DstParams(n_size=n, m_size=m, dst_stride=m, src_stride=m,
                                              quant_pre=QUANT[x.out_dtype.name], relu_pre=1 if x.relu else 0))
    return CubeTile(l1, x.out_dtype, x.shape, "L1")


def _l0b_float32(src: CubeTile, api: str) -> CubeTile:
    """A float32 L0B tile (ZN: 16 x 8 fractals of n x k, k-blocks first) from src (L1, its 16 x 8 fractals in
    row order): per 16 rows of k, LoadDataWithTranspose of its 16 x 16 squares, the two fractals of a
    transposed square n1 fractals apart."""
    from asc.language.basic.cube_load import load_data_with_transpose
    from asc.language.core.types import LoadData2dTransposeParams

    k, n = src.shape
    n1 = n // FRACTAL
    dst = _alloc("L0B", src.dtype, k * n, api)
    for kb in range(k // FRACTAL):
        load_data_with_transpose(dst[2 * kb * n1 * 128] if kb else dst, src.lt,
                                 LoadData2dTransposeParams(kb * n1, n1, 1, 0, n1 - 1, 0))
    return CubeTile(dst, src.dtype, src.shape, "L0B")


def _to_l0(src: CubeTile, shape: Tuple[int, int], off: Tuple[Any, Any], memory: str, api: str) -> CubeTile:
    """load_data of src's part at `off` (elements, multiples of 16) into a new L0A / L0B tile.
    src in L1 is NZ: column block j (16 columns) holds its rows_p rows of 16, fractal (r, j) at j * rows_p/16 + r."""
    from asc.language.basic.cube_load import load_data
    from asc.language.core.types import LoadData2DParams

    rows, cols = shape
    c0_elems = 32 // src.dtype.sizeof()  # a fractal's columns (its rows: 16)
    if memory == "L0B" and c0_elems != FRACTAL:
        raise NotImplementedError(f"{api}: an L0B tile of {src.dtype.name} from an L1 tile is not supported yet "
                                  "(asc2.load(..., location=asc2.TileLocation.L0B) is)")
    m1, k1 = rows // FRACTAL, cols // c0_elems  # fractal rows and columns of the part
    src_rows1 = src.shape[0] // FRACTAL
    r0, c0 = off
    # (a runtime offset: a multiple of 16 by the op's contract, so whole column blocks of c0_elems)
    base = c0 * src.shape[0] + r0 * c0_elems
    sv = src.lt if isinstance(base, int) and base == 0 else src.lt[base]
    dst = _alloc(memory, src.dtype, rows * cols, api)
    fr = FRACTAL * FRACTAL
    if memory == "L0A":  # ZZ: fractal (r, j) at r * k1 + j
        for r in range(m1):
            load_data(dst[r * k1 * FRACTAL * c0_elems] if r else dst, sv,
                      LoadData2DParams(r, k1, src_rows1, 0, 0, False, 0))
    else:  # ZN: fractal (j of k, c of n) at j * n1 + c, each transposed; here rows are k, cols n
        for j in range(m1):
            load_data(dst[j * k1 * fr] if j else dst, sv,
                      LoadData2DParams(j, k1, src_rows1, 0, 0, True, 0))
    return CubeTile(dst, src.dtype, shape, memory)


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


def _mmad(acc: LocalTensor, a: CubeTile, b: CubeTile, init: bool) -> None:
    from asc.language.basic.cube import mmad
    from asc.language.core.types import MmadParams

    mmad(acc, a.lt, b.lt, MmadParams(m=a.shape[0], n=b.shape[1], k=a.shape[1], cmatrix_init_val=init))


def _acc(shape: Tuple[int, int], api: str) -> CubeTile:
    return CubeTile(_alloc("L0C", dt.float32, shape[0] * shape[1], api), dt.float32, shape, "L0C")


def matmul(input: Any, other: Any) -> CubeTile:
    """`asc2.matmul(a, b)` (a @ b): a float32 L0C tile of a (L0A) times b (L0B)."""
    a, b = _operands("asc2.matmul", input, other)
    acc = _acc((a.shape[0], b.shape[1]), "asc2.matmul")
    _mmad(acc.lt, a, b, True)
    return acc


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
    _mmad(c.lt, a, b, False)


def zeros_acc(shape: Any, dtype: Any = dt.float32) -> CubeTile:
    """`asc2.zeros_acc(shape, dtype=asc.float32)`: a zero float32 L0C tile (for asc2.matmul_acc)."""
    from asc.language.basic.cube import init_const_value
    from asc.language.core.types import InitConstValueParams

    api = "asc2.zeros_acc"
    d = ConstExpr.unwrap(dtype)
    if d != dt.float32:
        raise error(f"{api}: the accumulator holds float32, got {describe(d)}", "hint: write dtype=asc.float32")
    m, n = _shape2(shape, dt.float16, api)
    acc = _acc((m, n), api)
    za = CubeTile(_alloc("L0A", dt.float16, m * FRACTAL, api), dt.float16, (m, FRACTAL), "L0A")
    zb = CubeTile(_alloc("L0B", dt.float16, n * FRACTAL, api), dt.float16, (FRACTAL, n), "L0B")
    zero = to_scalar(0.0, dt.float16)
    init_const_value(za.lt, InitConstValueParams(1, m // FRACTAL, 0, zero))
    init_const_value(zb.lt, InitConstValueParams(1, n // FRACTAL, 0, zero))
    _mmad(acc.lt, za, zb, True)
    return acc


def relu(x: CubeTile) -> CubeTile:
    if x.memory != "L0C":
        raise NotImplementedError(f"asc2.relu of a tile in {x.memory} is not supported yet (UB and L0C tiles)")
    t = CubeTile(x.lt, x.dtype, x.shape, x.memory)
    t.relu, t.out_dtype = True, x.out_dtype
    return t


def store(x: CubeTile, tensor: Any, offsets: Any, tile_id: Any) -> None:
    """asc2.store of an L0C tile: fixpipe L0C -> GM (NZ2ND, with the tile's ReLU and conversion)."""
    from asc.language.basic.cube_fixpipe import fixpipe
    from asc.language.core.types import FixpipeParamsV220

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
    tcols = tensor.shape[1]
    dst = tensor.gt if isinstance(r0, int) and isinstance(c0, int) and r0 == c0 == 0 else tensor.gt[r0 * tcols + c0]
    fixpipe(dst, x.lt, FixpipeParamsV220(n_size=n, m_size=m, src_stride=m, dst_stride=tcols,
                                         quant_pre=QUANT[x.out_dtype.name], relu_en=x.relu))
