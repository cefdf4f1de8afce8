"""asc.data_copy with SliceInfo lists (AscendC::DataCopy(dst, src,
dstSliceInfo[], srcSliceInfo[], dimValue)) on the simulator, GM -> UB and
UB -> GM, against NumPy.

The reference `slice_ref` follows the devkit's DataCopyGetPhyStartIndex /
DataCopyGetOffsetList and its DataCopyParams (blockLen = src burst_len,
blockCount = (end - start + 1 + stride) / (burst_len * 32 / sizeof(T) +
stride), the GM side's dimension-0 stride in elements, the UB side's rounded
down to whole 32-byte blocks); the natural cases are also checked against
NumPy slicing of the tensor seen as an array (rows of a matrix, a box of a
3-D array).
"""

from typing import Any, List, Sequence, Tuple

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

Slice = Tuple[int, int, int, int, int]  # start, end, stride, burst_len, shape_value

DTYPES = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "float16": np.float16,
          "bfloat16": np.uint16, "int32": np.int32, "uint32": np.uint32, "float32": np.float32,
          "int64": np.int64, "uint64": np.uint64, "float64": np.float64}


@asc.jit
def gm_to_ub(x: asc.GlobalAddress, z: asc.GlobalAddress, m: int, ds: asc.ConstExpr[Any], ss: asc.ConstExpr[Any],
             nd: asc.ConstExpr[int], dim: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 16384 // x.dtype.sizeof())
    asc.data_copy(ub, z_gm, m)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    if nd == 1:
        asc.data_copy(ub, x_gm, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4])],  # slice copy 1d
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4])], dim)
    elif nd == 2:
        asc.data_copy(ub, x_gm, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4]),  # slice copy 2d
                                 asc.SliceInfo(ds[1][0], ds[1][1], ds[1][2], ds[1][3], ds[1][4])],
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4]),
                       asc.SliceInfo(ss[1][0], ss[1][1], ss[1][2], ss[1][3], ss[1][4])], dim)
    else:
        asc.data_copy(ub, x_gm, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4]),  # slice copy 3d
                                 asc.SliceInfo(ds[1][0], ds[1][1], ds[1][2], ds[1][3], ds[1][4]),
                                 asc.SliceInfo(ds[2][0], ds[2][1], ds[2][2], ds[2][3], ds[2][4])],
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4]),
                       asc.SliceInfo(ss[1][0], ss[1][1], ss[1][2], ss[1][3], ss[1][4]),
                       asc.SliceInfo(ss[2][0], ss[2][1], ss[2][2], ss[2][3], ss[2][4])], dim)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ub, m)


@asc.jit
def ub_to_gm(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, ds: asc.ConstExpr[Any], ss: asc.ConstExpr[Any],
             nd: asc.ConstExpr[int], dim: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, 16384 // x.dtype.sizeof())
    asc.data_copy(ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if nd == 1:
        asc.data_copy(z_gm, ub, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4])],  # slice copy 1d
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4])], dim)
    elif nd == 2:
        asc.data_copy(z_gm, ub, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4]),  # slice copy 2d
                                 asc.SliceInfo(ds[1][0], ds[1][1], ds[1][2], ds[1][3], ds[1][4])],
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4]),
                       asc.SliceInfo(ss[1][0], ss[1][1], ss[1][2], ss[1][3], ss[1][4])], dim)
    else:
        asc.data_copy(z_gm, ub, [asc.SliceInfo(ds[0][0], ds[0][1], ds[0][2], ds[0][3], ds[0][4]),  # slice copy 3d
                                 asc.SliceInfo(ds[1][0], ds[1][1], ds[1][2], ds[1][3], ds[1][4]),
                                 asc.SliceInfo(ds[2][0], ds[2][1], ds[2][2], ds[2][3], ds[2][4])],
                      [asc.SliceInfo(ss[0][0], ss[0][1], ss[0][2], ss[0][3], ss[0][4]),
                       asc.SliceInfo(ss[1][0], ss[1][1], ss[1][2], ss[1][3], ss[1][4]),
                       asc.SliceInfo(ss[2][0], ss[2][1], ss[2][2], ss[2][3], ss[2][4])], dim)


def _side(sl: Sequence[Slice], nd: int, shape: Sequence[int]) -> Tuple[int, List[int]]:
    start, size, rows = 0, 1, [0]
    for i in range(nd):
        s, e, st = sl[i][0], sl[i][1], sl[i][2]
        if i:
            size *= shape[i - 1]
        start += size * s
        if i:
            cur = (e - s + 1 + st) // (1 + st)
            rows = [r + it * (1 + st) * size for it in range(cur) for r in rows]
    return start, rows


def slice_ref(dst: np.ndarray, src: np.ndarray, ds: Sequence[Slice], ss: Sequence[Slice], nd: int,
              src_gm: bool, dshape: Sequence[int] = (), sshape: Sequence[int] = ()) -> np.ndarray:
    out = dst.copy()
    es = src.itemsize
    if ss[0][4]:
        dshape, sshape = [d[4] for d in ds[:nd]], [s[4] for s in ss[:nd]]
    dstart, drows = _side(ds, nd, dshape)
    sstart, srows = _side(ss, nd, sshape)
    burst, sstr, dstr = ss[0][3], ss[0][2], ds[0][2]
    blk = burst * 32 // es
    cnt = (ss[0][1] - ss[0][0] + 1 + sstr) // (blk + sstr)
    gm_gap = sstr if src_gm else dstr
    ub_gap = ((dstr if src_gm else sstr) * es // 32) * 32 // es
    src_step = blk + (gm_gap if src_gm else ub_gap)
    dst_step = blk + (ub_gap if src_gm else gm_gap)
    for i in range(len(srows)):
        for b in range(cnt):
            d0, s0 = dstart + drows[i] + b * dst_step, sstart + srows[i] + b * src_step
            out[d0:d0 + blk] = src[s0:s0 + blk]
    return out


def _data(name: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if name in ("float16", "float32", "float64"):
        return rng.standard_normal(n).astype(DTYPES[name])
    info = np.iinfo(DTYPES[name])
    return rng.integers(info.min, int(info.max) + 1, n, dtype=DTYPES[name])


def run_gm_to_ub(name: str, ds: Sequence[Slice], ss: Sequence[Slice], n: int, m: int, nd: int,
                 dim: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    x = _data(name, n, 1)
    z = _data(name, m, 2)
    want = slice_ref(z, x, ds, ss, nd, True)
    gm_to_ub[1](x, z, m, tuple(ds), tuple(ss), nd, dim or nd)
    return z, want


# (name, dst slices, src slices, dims, src elements, dst elements) for 4-byte elements (8 a block)
CASES_F32 = [
    # 1-D: 32 contiguous elements (4 blocks) from element 8
    ("1d", [(0, 31, 0, 4, 64)], [(8, 39, 0, 4, 64)], 1, 64, 64),
    # 1-D strided on GM: blocks of 8 elements, 8 skipped between (GM stride whole blocks)
    ("1d_stride", [(0, 31, 0, 1, 64)], [(0, 63, 8, 1, 64)], 1, 64, 64),
    # a GM stride of 3 elements (not whole 32-byte blocks: the DataCopyPad path)
    ("1d_odd_stride", [(0, 31, 0, 1, 64)], [(0, 43, 3, 1, 64)], 1, 64, 64),
    # a UB stride of 3 elements rounds down to 0 blocks; of 8: one block
    ("1d_ub_stride", [(0, 63, 8, 1, 64)], [(0, 31, 0, 1, 64)], 1, 64, 64),
    # 2-D: rows 1..3 of a 4 x 16 matrix, 16 columns, into a 3 x 16 one
    ("2d_rows", [(0, 15, 0, 2, 16), (0, 2, 0, 1, 3)], [(0, 15, 0, 2, 16), (1, 3, 0, 1, 4)], 2, 64, 48),
    # 2-D: every other row (stride 1 in dimension 1) into consecutive rows
    ("2d_row_stride", [(0, 15, 0, 2, 16), (0, 2, 0, 1, 3)], [(0, 15, 0, 2, 16), (0, 5, 1, 1, 6)], 2, 96, 48),
    # 2-D: columns 8..15 of an 8 x 24 matrix, rows 2..6, into an 8-column one at row 1
    ("2d_box", [(0, 7, 0, 1, 8), (1, 5, 0, 1, 6)], [(8, 15, 0, 1, 24), (2, 6, 0, 1, 8)], 2, 192, 48),
    # 3-D: a 2 x 3 x 16 box of a 3 x 4 x 16 array
    ("3d", [(0, 15, 0, 2, 16), (0, 2, 0, 1, 3), (0, 1, 0, 1, 2)],
     [(0, 15, 0, 2, 16), (1, 3, 0, 1, 4), (1, 2, 0, 1, 3)], 3, 192, 96),
    # 3-D with strides in dimensions 1 and 2
    ("3d_strides", [(0, 7, 0, 1, 8), (0, 1, 0, 1, 2), (0, 1, 0, 1, 2)],
     [(8, 15, 0, 1, 16), (0, 2, 1, 1, 4), (0, 2, 1, 1, 3)], 3, 192, 32),
]


@pytest.mark.parametrize("case", CASES_F32, ids=[c[0] for c in CASES_F32])
def test_gm_to_ub_float32(case: Any) -> None:
    _, ds, ss, nd, n, m = case
    z, want = run_gm_to_ub("float32", ds, ss, n, m, nd)
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("case", CASES_F32, ids=[c[0] for c in CASES_F32])
def test_ub_to_gm_float32(case: Any) -> None:
    _, ds, ss, nd, n, m = case
    # UB -> GM: the src side is the UB; its rows must start on 32-byte boundaries, which every case's src
    # start satisfies for 4-byte elements except where the test expects the error below
    x = _data("float32", n, 3)
    z = _data("float32", m, 4)
    sstart, srows = _side(ss, nd, [s[4] for s in ss])
    if any((sstart + r) * 4 % 32 for r in srows):
        fails_at(ub_to_gm, (x, z, n, tuple(ds), tuple(ss), nd, nd), f"slice copy {nd}d", "not 32-byte aligned")
        return
    want = slice_ref(z, x, ds, ss, nd, False)
    ub_to_gm[1](x, z, n, tuple(ds), tuple(ss), nd, nd)
    np.testing.assert_array_equal(z, want)


def test_matches_numpy_slicing() -> None:
    """The 2-D box and the 3-D case as NumPy slices of the arrays."""
    _, ds, ss, nd, n, m = CASES_F32[6]
    z, _ = run_gm_to_ub("float32", ds, ss, n, m, nd)
    x = _data("float32", n, 1).reshape(8, 24)
    np.testing.assert_array_equal(z.reshape(6, 8)[1:6], x[2:7, 8:16])
    _, ds, ss, nd, n, m = CASES_F32[7]
    z, _ = run_gm_to_ub("float32", ds, ss, n, m, nd)
    x = _data("float32", n, 1).reshape(3, 4, 16)
    np.testing.assert_array_equal(z.reshape(2, 3, 16), x[1:3, 1:4, :])
    _, ds, ss, nd, n, m = CASES_F32[1]
    z, _ = run_gm_to_ub("float32", ds, ss, n, m, nd)
    np.testing.assert_array_equal(z[:32], _data("float32", n, 1).reshape(4, 16)[:, :8].ravel())


@pytest.mark.parametrize("name", [n for n in DTYPES if n != "bfloat16"])
def test_dtypes_2d(name: str) -> None:
    es = np.dtype(DTYPES[name]).itemsize
    per = 32 // es  # elements a block
    cols = 2 * per
    ds = [(0, cols - 1, 0, 2, cols), (0, 1, 0, 1, 2)]
    ss = [(per, per + cols - 1, 0, 2, 3 * per), (1, 3, 1, 1, 4)]
    z, want = run_gm_to_ub(name, ds, ss, 12 * per, 2 * cols, 2)
    np.testing.assert_array_equal(z, want)
    x = _data(name, 12 * per, 1).reshape(4, 3 * per)
    np.testing.assert_array_equal(z.reshape(2, cols), x[1:4:2, per:per + cols])


@asc.jit
def shape_info_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, set_shape: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    if set_shape:
        x_gm.set_shape_info(asc.ShapeInfo([16, 4]))
        ub.set_shape_info(asc.ShapeInfo([8, 3]))
    asc.data_copy(ub, x_gm, [asc.SliceInfo(0, 7, 0, 1), asc.SliceInfo(0, 2, 0, 1)],  # shaped copy
                  [asc.SliceInfo(8, 15, 0, 1), asc.SliceInfo(1, 3, 0, 1)], 2)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ub, 24)


def test_shape_from_shape_info() -> None:
    """shape_value 0 in src's first SliceInfo: both shapes come from the tensors' ShapeInfo."""
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(24, np.float32)
    # (the unset case first: a register frame is not cleared between launches, see shape_info.c)
    fails_at(shape_info_kernel, (x, z, False), "shaped copy", "ShapeInfo", "none was set")
    shape_info_kernel[1](x, z, True)
    np.testing.assert_array_equal(z.reshape(3, 8), x.reshape(4, 16)[1:4, 8:16])


def test_outermost_shape_unused() -> None:
    """The outermost dimension's shape_value is never read (only the inner ones scale the offsets): 0 is
    fine there, on either side; an inner shape of 0 puts every row at one offset, as the devkit's
    arithmetic does (the last row's data stays)."""
    z, want = run_gm_to_ub("float32", [(0, 31, 0, 4, 0)], [(8, 39, 0, 4, 64)], 64, 64, 1)
    np.testing.assert_array_equal(z, want)
    z, want = run_gm_to_ub("float32", [(0, 15, 0, 2, 16), (0, 2, 0, 1, 0)], [(0, 15, 0, 2, 16), (1, 3, 0, 1, 0)],
                           64, 48, 2)
    np.testing.assert_array_equal(z, want)
    z, want = run_gm_to_ub("float32", [(0, 15, 0, 2, 0), (0, 2, 0, 1, 3)], [(0, 15, 0, 2, 16), (1, 3, 0, 1, 4)],
                           64, 48, 2)
    np.testing.assert_array_equal(z, want)
    np.testing.assert_array_equal(z[:16], _data("float32", 64, 1)[48:64])


def test_default_end_and_burst() -> None:
    """SliceInfo() is start 0, end 31, stride 0, burst 1 block (the devkit's ONE_BLK_SIZE - 1, ONE_BLK_SIZE
    ... as the struct holds them: burst_len 32 blocks, end 31): with 1-byte elements 32 of them are one
    block, but burst_len 32 makes one block of 1024 bytes, of which (31 + 1) // 1024 = 0 are copied."""
    z, want = run_gm_to_ub("int8", [(0, 31, 0, 32, 64)], [(0, 31, 0, 32, 64)], 64, 64, 1)
    np.testing.assert_array_equal(z, want)
    np.testing.assert_array_equal(z, _data("int8", 64, 2))  # nothing moved


def test_emitted_ascendc() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy(ub, x_gm, [asc.SliceInfo(0, 15, 0, 2, 16), asc.SliceInfo(0, 1, 0, 1, 2)],
                      [asc.SliceInfo(0, 15, 0, 2, 16), asc.SliceInfo(1, 2, 0, 1, 4)], 2)

    k[1](np.zeros(64, np.float32), np.zeros(8, np.float32))
    src = ascendc(k)
    assert "AscendC::SliceInfo dst_slices[2] = {AscendC::SliceInfo(0, 15, 0, 2, 16)" in src, src
    assert "AscendC::SliceInfo src_slices[2] = {" in src, src
    assert "AscendC::DataCopy(ub, x_gm, dst_slices, src_slices, 2);" in src, src


# ---- errors -------------------------------------------------------------------------------------------------

def test_run_time_errors() -> None:
    x = np.zeros(64, np.float32)
    z = np.zeros(64, np.float32)
    bad = [
        # end_index before start_index
        ([(0, 31, 0, 4, 64)], [(9, 8, 0, 4, 64)], 1, "end_index 8 < start_index 9"),
        # the dst row lands off a 32-byte boundary in UB
        ([(3, 34, 0, 4, 64)], [(0, 31, 0, 4, 64)], 1, "not 32-byte aligned"),
        # dst selects fewer rows than src
        ([(0, 15, 0, 2, 16), (0, 0, 0, 1, 1)], [(0, 15, 0, 2, 16), (0, 1, 0, 1, 4)], 2, "fewer than"),
    ]
    for ds, ss, nd, frag in bad:
        fails_at(gm_to_ub, (x, z, 64, tuple(ds), tuple(ss), nd, nd), f"slice copy {nd}d", frag)


def test_block_count_and_rows_limits() -> None:
    x = np.zeros(64, np.float32)
    z = np.zeros(64, np.float32)
    # 4096 blocks of one 32-byte block: blockCount above 4095
    fails_at(gm_to_ub, (x, z, 64, ((0, 32767, 0, 1, 64),), ((0, 32767, 0, 1, 32768),), 1, 1), "slice copy 1d",
             "blockCount 4096 is out of range")
    # 40 x 40 = 1600 rows: above MAX_SLICE_SIZE (1536)
    ss = ((0, 7, 0, 1, 8), (0, 39, 0, 1, 40), (0, 39, 0, 1, 40))
    fails_at(gm_to_ub, (x, z, 64, ss, ss, 3, 3), "slice copy 3d", "more than 1536 rows")


def test_overrun_is_kernel_error() -> None:
    """A slice beyond the UB tensor's end is a KernelError, not a write past it."""
    x = np.zeros(4096, np.float32)
    z = np.zeros(64, np.float32)
    ds = ((0, 7, 0, 1, 8), (4095, 4095, 0, 1, 8192))
    ss = ((0, 7, 0, 1, 8), (0, 0, 0, 1, 512))
    with pytest.raises(asc.KernelError):
        gm_to_ub[1](x, z, 64, ds, ss, 2, 2)


def test_dim_value_errors() -> None:
    x = np.zeros(64, np.float32)
    z = np.zeros(64, np.float32)
    one = ((0, 31, 0, 4, 64),)
    fails_at(gm_to_ub, (x, z, 64, one, one, 1, 2), "slice copy 1d", "dim_value = 2 but slice_list1 has 1",
             cls=asc.CompileError)
    fails_at(gm_to_ub, (x, z, 64, one, one, 1, 9), "slice copy 1d", "out of range [1, 8]", cls=asc.CompileError)
    fails_at(gm_to_ub, (x, z, 64, one, one, 1, 0), "slice copy 1d", "out of range [1, 8]", cls=asc.CompileError)


def test_compile_errors() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        u2 = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 1024, 256)
        s = asc.SliceInfo()
        if case == 0:
            asc.data_copy(ub, u2, [s], [s], 1)  # bad0
        elif case == 1:
            asc.data_copy(ub, g, [s, 3], [s], 1)  # bad1
        elif case == 2:
            asc.data_copy(ub, g, [], [s], 1)  # bad2
        elif case == 3:
            asc.data_copy(ub, g, [s], slice_list1=[s])  # bad3
        else:
            asc.data_copy(ub, g, [s], [s], 1.5)  # bad4

    x = np.zeros(64, np.float32)
    fails_at(k, (x, 0), "# bad0", "GM→UB or UB→GM", cls=asc.CompileError)
    fails_at(k, (x, 1), "# bad1", "slice_list1[1] must be an asc.SliceInfo", cls=asc.CompileError)
    fails_at(k, (x, 2), "# bad2", "non-empty list", cls=asc.CompileError)
    fails_at(k, (x, 3), "# bad3", "given both by position and by keyword", cls=asc.CompileError)
    fails_at(k, (x, 4), "# bad4", "dim_value", cls=asc.CompileError)


def test_unsupported_dtype() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy(ub, g, [asc.SliceInfo()], [asc.SliceInfo()], 1)  # bad

    fails_at(k, (np.zeros(8, np.bool_),), "# bad", "does not support bool", cls=asc.CompileError)


def test_slice_info_getitem_not_supported() -> None:
    """Upstream's SliceInfo.__getitem__ reads an array of SliceInfo through a pointer: not modelled."""
    @asc.jit
    def k(x: asc.GlobalAddress):
        s = asc.SliceInfo(0, 31, 0, 1, 32)
        t = s[1:]  # noqa: F841

    with pytest.raises(NotImplementedError, match="asc.SliceInfo.__getitem__"):
        k[1](np.zeros(8, np.float32))


@asc.jit
def rows_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, same: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, 1024)
    asc.data_copy(ub, x_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    b = 0 if same else asc.get_block_idx()
    # block b writes rows b, b + 2, ..., b + 14 of a 16 x 8 matrix
    asc.data_copy(z_gm, ub, [asc.SliceInfo(0, 7, 0, 1, 8), asc.SliceInfo(b, 15, 1, 1, 16)],  # rows
                  [asc.SliceInfo(0, 7, 0, 1, 8), asc.SliceInfo(0, 7, 0, 1, 8)], 2)


def test_sanitizer_sees_interleaved_rows() -> None:
    """Eight rows are more than an instruction's records: the GM side is recorded as evenly spaced runs,
    so two blocks writing interleaved rows do not race, and two writing the same rows do."""
    x = np.arange(256, dtype=np.float32)
    z = np.zeros(128, np.float32)
    rows_kernel[2](x, z, False, sanitize="error")
    np.testing.assert_array_equal(z.reshape(16, 8), np.repeat(x[:64].reshape(8, 8), 2, axis=0))
    with pytest.raises(asc.SanitizerError, match="data race on GM between blocks"):
        rows_kernel[2](x, z, True, sanitize="error")
