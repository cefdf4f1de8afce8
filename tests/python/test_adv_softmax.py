"""asc.adv.softmax (the devkit's AscendC::SoftMax, ND) on the simulator against
NumPy, asc.adv.SoftmaxTiling and the host tiling of asc.lib.host.

The reference follows the devkit's algorithm: in float (half src cast
exactly), the row max over the original row length, x - max and exp over
the whole padded row, the row sum over the original length, the quotient,
cast back to half rounding half away from zero; sum / max one 32-byte block
a row, the value repeated. exp is the simulator's own (within a few float
ulps of NumPy's) and the sums add in the devkit's order (lanes of 64, then
trees), so float results are compared within a few ulps and half results
within one half ulp.
"""

from __future__ import annotations

import zlib
from typing import Any, Optional, Tuple

import numpy as np
import pytest
from kernels_util import ascendc, fails_at, unary_kernel

import asc
import asc.lib.host as host

NP = {"float16": np.float16, "float32": np.float32}
FORMS = [("float32", "float32"), ("float16", "float16"), ("float16", "float32")]
UB = 196608


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


@asc.jit
def sm_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, s: asc.GlobalAddress, mx: asc.GlobalAddress,
              rows: asc.ConstExpr[int], k: asc.ConstExpr[int], ori_rows: asc.ConstExpr[int],
              ori_k: asc.ConstExpr[int], tiling: asc.adv.SoftmaxTiling, tmp_bytes: asc.ConstExpr[int],
              default_tiling: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    s_gm = asc.GlobalTensor()
    m_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    s_gm.set_global_buffer(s)
    m_gm.set_global_buffer(mx)
    pipe = asc.TPipe()
    bx = asc.TBuf(asc.TPosition.VECCALC)
    by = asc.TBuf(asc.TPosition.VECCALC)
    bs = asc.TBuf(asc.TPosition.VECCALC)
    bm = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(bx, rows * k * x.dtype.sizeof())
    pipe.init_buffer(by, rows * k * x.dtype.sizeof())
    pipe.init_buffer(bs, rows * 32)
    pipe.init_buffer(bm, rows * 32)
    xl = bx.get(x.dtype)
    yl = by.get(x.dtype)
    sl = bs.get(s.dtype)
    ml = bm.get(s.dtype)
    asc.data_copy(xl, x_gm, rows * k)
    asc.data_copy(yl, y_gm, rows * k)
    asc.data_copy(sl, s_gm, rows * 32 // s.dtype.sizeof())
    asc.data_copy(ml, m_gm, rows * 32 // s.dtype.sizeof())
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    xl.set_shape_info(asc.ShapeInfo([rows, k], [ori_rows, ori_k]))
    t = tiling
    if default_tiling:
        t = asc.adv.SoftmaxTiling()
    if tmp_bytes > 0:
        bt = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(bt, tmp_bytes)
        asc.adv.softmax(yl, sl, ml, xl, t, bt.get(asc.uint8))  # softmax call
    else:
        asc.adv.softmax(yl, sl, ml, xl, t)  # softmax default tmp
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, yl, rows * k)
    asc.data_copy(s_gm, sl, rows * 32 // s.dtype.sizeof())
    asc.data_copy(m_gm, ml, rows * 32 // s.dtype.sizeof())


def reference(x: np.ndarray, ori_rows: int, ori_k: int, sum_t: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    xf = x.astype(np.float32)
    mx = xf[:ori_rows, :ori_k].max(axis=1, keepdims=True)
    e = np.exp(xf[:ori_rows] - mx)
    s = e[:, :ori_k].sum(axis=1, keepdims=True, dtype=np.float32)
    d = e / s
    per = 32 // np.dtype(NP[sum_t]).itemsize
    return d, np.repeat(s, per, axis=1), np.repeat(mx, per, axis=1)


def run(src_t: str, sum_t: str, rows: int, k: int, ori_rows: Optional[int] = None, ori_k: Optional[int] = None,
        tiling: Optional[asc.adv.SoftmaxTiling] = None, tmp_bytes: int = 0, scale: float = 3.0) -> Any:
    ori_rows = rows if ori_rows is None else ori_rows
    ori_k = k if ori_k is None else ori_k
    rng = rng_for(src_t, sum_t, rows, k, ori_rows, ori_k)
    x = (rng.standard_normal((rows, k)) * scale).astype(NP[src_t])
    per = 32 // np.dtype(NP[sum_t]).itemsize
    y = np.full((rows, k), 7, NP[src_t])
    s = np.full((rows, per), 7, NP[sum_t])
    m = np.full((rows, per), 7, NP[sum_t])
    default = tiling is None
    sm_kernel[1](x, y, s, m, rows, k, ori_rows, ori_k, tiling or asc.adv.SoftmaxTiling(), tmp_bytes, default)
    return x, y, s, m


def check(src_t: str, sum_t: str, x: np.ndarray, y: np.ndarray, s: np.ndarray, m: np.ndarray, ori_rows: int,
          ori_k: int, done_rows: int) -> None:
    d, rs, rm = reference(x, ori_rows, ori_k, sum_t)
    n = ori_rows
    if src_t == "float32":
        np.testing.assert_allclose(y[:n], d, rtol=4e-7 * 8, atol=1e-37)
    else:
        np.testing.assert_allclose(y[:n].astype(np.float32), d, rtol=2.0 ** -10, atol=2.0 ** -24)
    # max exact (a max of src's values); sum to float (half: its rounding)
    np.testing.assert_array_equal(m[:n].astype(np.float32), rm.astype(NP[sum_t]).astype(np.float32))
    rtol = 2.0 ** -10 if sum_t == "float16" else 1e-6
    np.testing.assert_allclose(s[:n].astype(np.float32), rs, rtol=rtol)
    # rows past those the tiling covers are untouched
    assert (y[done_rows:] == 7).all() and (s[done_rows:] == 7).all() and (m[done_rows:] == 7).all()


# rows x k (k a multiple of 32 bytes of both types), the original row length: rows under one repeat (WholeReduce),
# [64, 128) with a tail, [128, 512) with a tail, >= 512 (BlockReduce first) with more repeats and a tail
SHAPES = [(1, 16, 16), (3, 64, 64), (5, 80, 77), (7, 256, 250), (2, 640, 640), (9, 1024, 1000)]


@pytest.mark.parametrize("src_t,sum_t", FORMS)
@pytest.mark.parametrize("rows,k,ori_k", SHAPES)
def test_softmax_default_tiling(src_t: str, sum_t: str, rows: int, k: int, ori_k: int) -> None:
    x, y, s, m = run(src_t, sum_t, rows, k, ori_k=ori_k)
    check(src_t, sum_t, x, y, s, m, rows, ori_k, rows)


def tree(v: np.ndarray) -> np.float32:
    """The tree of adjacent pairs over v (length a power of two), float32."""
    v = v.astype(np.float32)
    while len(v) > 1:
        v = (v[0::2] + v[1::2]).astype(np.float32)
    return v[0]


def devkit_row_sum(e: np.ndarray) -> np.float32:
    """The order of the devkit's NewReduceSumLastNDImpl: 64 lanes, chunks of 64 added in turn (the first 512
    elements block sums when the row has 512 or more), the tail's lanes, then the tree of the 64 lanes."""
    e = e.astype(np.float32)
    n = len(e)
    if n < 64:
        return tree(np.concatenate([e, np.zeros(64 - n, np.float32)]))  # (absent lanes add nothing)
    split, tail = divmod(n, 64)
    if n >= 512:
        lane, start = np.array([tree(e[8 * b:8 * b + 8]) for b in range(64)], np.float32), 8
    elif n >= 128:
        lane, start = (e[:64] + e[64:128]).astype(np.float32), 2
    else:
        lane, start = e[:64].copy(), 1
    for i in range(start, split):
        lane = (e[64 * i:64 * i + 64] + lane).astype(np.float32)
    lane[:tail] = (lane[:tail] + e[64 * split:]).astype(np.float32)
    return tree(lane)


exp_kernel = unary_kernel(asc.exp)


@pytest.mark.parametrize("rows,k,ori_k", SHAPES)
def test_float_sum_is_the_devkits_order(rows: int, k: int, ori_k: int) -> None:
    """sum bit for bit: the simulator's exp of x - max (asc.exp itself), added in the devkit's order."""
    x, y, s, m = run("float32", "float32", rows, k, ori_k=ori_k)
    d = (x - m[:, :1]).astype(np.float32)
    e = np.zeros_like(d)
    for r in range(rows):  # (a row at a time: the kernel's tensors hold 4096 floats)
        exp_kernel[1](d[r].copy(), e[r], k, k)
    want = np.array([devkit_row_sum(e[r, :ori_k]) for r in range(rows)], np.float32)
    np.testing.assert_array_equal(s[:, 0], want)
    # and dst: e / sum, correctly rounded
    np.testing.assert_array_equal(y, (e / want[:, None]).astype(np.float32))


@pytest.mark.parametrize("src_t,sum_t", FORMS)
@pytest.mark.parametrize("rows,k,tmp_rows", [(11, 64, 3), (13, 128, 8), (17, 256, 16), (4, 512, 1)])
def test_softmax_host_tiling_splits_rows(src_t: str, sum_t: str, rows: int, k: int, tmp_rows: int) -> None:
    size = np.dtype(NP[sum_t]).itemsize
    tmp = tmp_rows * host.get_softmax_min_tmp_size([rows, k], size)
    tiling = host.softmax_tiling_func([rows, k], size, tmp)
    assert tiling.split_m == (tmp_rows if tmp_rows <= 8 else tmp_rows // 8 * 8) or rows % 8 == 0
    assert tiling.range_m * tiling.split_m + tiling.tail_m == rows
    x, y, s, m = run(src_t, sum_t, rows, k, tiling=tiling, tmp_bytes=tmp)
    check(src_t, sum_t, x, y, s, m, rows, k, rows)


@pytest.mark.parametrize("src_t,sum_t", FORMS)
def test_softmax_default_tiling_with_small_tmp_buffer(src_t: str, sum_t: str) -> None:
    # the kernel's own tiling for 2 rows' worth of buffer: chunks of 2 rows and a tail
    size = np.dtype(NP[sum_t]).itemsize
    tmp = 2 * host.get_softmax_min_tmp_size([5, 128], size)
    x, y, s, m = run(src_t, sum_t, 5, 128, tmp_bytes=tmp)
    check(src_t, sum_t, x, y, s, m, 5, 128, 5)


def test_softmax_original_rows() -> None:
    # 6 rows of which the first 4 take part (the original shape): the kernel's tiling covers 4
    x, y, s, m = run("float32", "float32", 6, 64, ori_rows=4)
    check("float32", "float32", x, y, s, m, 4, 64, 4)


def test_softmax_dst_is_src_and_large_values() -> None:
    # scale 40: exp without the max would overflow float
    x, y, s, m = run("float32", "float32", 4, 128, scale=40.0)
    check("float32", "float32", x, y, s, m, 4, 128, 4)
    assert np.isfinite(y).all()
    np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-5)


def test_host_tiling_values() -> None:
    t = host.softmax_tiling_func([1024, 4096], 2, 100000)
    # 25000 floats / (16 + 4096 + 64) a row = 5 rows; 204 chunks and a tail of 4
    assert (t.src_m, t.src_k, t.src_size, t.out_max_k, t.split_m, t.split_size) == (1024, 4096, 1024 * 4096, 16,
                                                                                 5, 5 * 4096)
    assert (t.reduce_k, t.reduce_size, t.range_m, t.tail_m, t.tail_split_size, t.tail_reduce_size) == \
        (16, 80, 204, 4, 4 * 4096, 64)
    # basic blocks: 8-row multiples dividing srcM, fewer than 255 repeats
    t = host.softmax_tiling_func([64, 1024], 4, 1 << 20)
    assert t.split_m == 8 and t.range_m == 8 and t.tail_m == 0
    assert host.get_softmax_min_tmp_size([8, 1024], 4) == (8 + 1024 + 64) * 4
    assert host.get_softmax_max_tmp_size([8, 1024], 2) == 8 * (16 + 1024 + 64) * 4


@pytest.mark.parametrize("args,fragment", [
    (([8, 12], 4, 4096), "multiple of 32 bytes"),
    (([8, 64], 3, 4096), "data_type_size"),
    (([8, 64], 4, 100), "holds no row"),
    (([8, 0], 4, 4096), "dimension 1"),
])
def test_host_tiling_errors(args: tuple, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        host.softmax_tiling_func(*args)


def test_host_tiling_type_errors() -> None:
    with pytest.raises(TypeError):
        host.softmax_tiling_func("8x64", 4, 4096)
    with pytest.raises(TypeError):
        host.get_softmax_min_tmp_size([8, 64], 4.0)


# ---- run-time errors ------------------------------------------------------------------------------------------

def test_row_not_32_byte_aligned() -> None:
    with pytest.raises(asc.KernelError, match="multiple of 32 bytes"):
        run("float32", "float32", 2, 12)


def test_tmp_buffer_too_small_default_tiling() -> None:
    with pytest.raises(asc.KernelError, match="holds no row"):
        run("float16", "float16", 2, 64, tmp_bytes=64)


def test_tmp_buffer_too_small_for_host_tiling() -> None:
    tiling = host.softmax_tiling_func([8, 64], 4, 1 << 16)  # all 8 rows at once
    err = fails_at(sm_kernel, (np.zeros((8, 64), np.float32), np.zeros((8, 64), np.float32),
                               np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32), 8, 64, 8, 64, tiling,
                               256, False), "# softmax call", "needs", "get_softmax_min_tmp_size")
    assert "256 bytes" in str(err)


def test_inconsistent_tiling() -> None:
    tiling = host.softmax_tiling_func([8, 64], 4, 1 << 16)
    tiling.reduce_k = 16  # a float block holds 8
    with pytest.raises(asc.KernelError, match="reduce_k"):
        run("float32", "float32", 8, 64, tiling=tiling, tmp_bytes=1 << 14)


@asc.jit
def no_shape_kernel(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 4096)
    t = b.get(asc.float32)
    asc.adv.softmax(t, t[512:], t[768:], t, asc.adv.SoftmaxTiling())  # no shape


def test_src_without_shape_info() -> None:
    fails_at(no_shape_kernel, (np.zeros(8, np.float32),), "# no shape", "no ShapeInfo")


# ---- compile-time errors ----------------------------------------------------------------------------------------

@asc.jit
def bad_kernel(case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 8192)
    f = b.get(asc.float32)
    h = b.get(asc.float16)
    i = b.get(asc.int32)
    u = b.get(asc.uint8)
    t = asc.adv.SoftmaxTiling()
    if case == 0:
        asc.adv.softmax(i, i, i, i, t)  # bad0
    elif case == 1:
        asc.adv.softmax(f, f, h, f, t)  # bad1
    elif case == 2:
        asc.adv.softmax(h, f, f, f, t)  # bad2
    elif case == 3:
        asc.adv.softmax(f, f, f, f, t, f)  # bad3
    elif case == 4:
        asc.adv.softmax(f, f, f, f, 0)  # bad4
    elif case == 5:
        asc.adv.softmax(f, h, h, f, t)  # bad5
    elif case == 6:
        asc.adv.softmax(f, f, f, f, t, u, reuse_source=1)  # bad6
    elif case == 7:
        asc.adv.softmax(f, f, f, 3, t)  # bad7


@pytest.mark.parametrize("case,fragment", [
    (0, "float16 or float32"), (1, "one type"), (2, "one type"), (3, "uint8"), (4, "SoftmaxTiling"),
    (5, "float32 for a float16 src"), (6, "Python bool"), (7, "LocalTensor")])
def test_compile_errors(case: int, fragment: str) -> None:
    fails_at(bad_kernel, (case,), f"# bad{case}", fragment, cls=asc.CompileError)


@asc.jit
def nz_kernel(basic: asc.ConstExpr[bool]):
    pipe = asc.TPipe()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 8192)
    f = b.get(asc.float32)
    asc.adv.softmax(f, f, f, f, asc.adv.SoftmaxTiling(), basic_block=basic, data_format_nz=not basic)


@pytest.mark.parametrize("basic", [True, False])
def test_basic_block_and_nz_not_implemented(basic: bool) -> None:
    with pytest.raises(NotImplementedError, match="basic_block" if basic else "data_format_nz"):
        nz_kernel[1](basic)


# ---- the emitted Ascend C ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("src_t,sum_t,tmp", [("float32", "float32", 0), ("float16", "float32", 4096)])
def test_ascendc(src_t: str, sum_t: str, tmp: int) -> None:
    run(src_t, sum_t, 2, 64, tmp_bytes=tmp)
    text = ascendc(sm_kernel)
    cpp = "float" if src_t == "float32" else "half"
    assert f"AscendC::SoftMax<{cpp}, false, false, false>(" in text
    call = [ln for ln in text.splitlines() if "AscendC::SoftMax<" in ln][0]
    assert call.count(",") == (8 if tmp else 7), call  # 3 template flags + dst, sum, max, src, [tmp,] tiling
    assert "SoftMaxTiling" in text


# ---- observers: the sanitizer and the timing model see the steps ----------------------------------------------------

@asc.jit
def race_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    pipe = asc.TPipe()
    b = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(b, 4608)  # x 2 KiB, y 2 KiB, sum and max 256 bytes each: the framework's tmp from 4608 on
    xl = b.get(asc.float32)
    xl.set_shape_info(asc.ShapeInfo([8, 64]))
    asc.data_copy(xl, x_gm, 512)
    if case == 0:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.softmax(xl[512:], xl[1024:], xl[1088:], xl, asc.adv.SoftmaxTiling())  # race
    if case == 0:
        above = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(above, 256)  # the TPipe's next bytes: 4608 on, where the framework's tmp was
        junk = above.get(asc.float32)
        asc.data_copy(junk, x_gm, 64)  # over tmp


def test_sanitizer_sees_the_framework_tmp() -> None:
    # SoftMax's reductions work in the UB above the TPipe's buffers; a copy into it right after, unsynchronised,
    # races with them
    fails_at(race_kernel, (np.zeros(512, np.float32), 0), "# over tmp", "race", cls=asc.SanitizerError)


def test_sanitizer_sees_a_missing_sync_before_src() -> None:
    fails_at(race_kernel, (np.zeros(512, np.float32), 1), "# race", "race", cls=asc.SanitizerError)


def test_timing_sees_the_steps() -> None:
    from asc.profiler.data import KINDS

    p = {name: value for name, value, _, _ in asc.profiler.timing_params("Ascend910B1")}
    rows, k = 4, 256
    x = np.ones((rows, k), np.float32)
    with asc.profile() as prof:
        sm_kernel[1](x, np.zeros_like(x), np.zeros((rows, 8), np.float32), np.zeros((rows, 8), np.float32), rows,
                     k, rows, k, asc.adv.SoftmaxTiling(), 0, True)
    lp = prof.last
    src = open(__file__).read().splitlines()
    ops, barriers = [], 0
    for r in lp.blocks[0].records:
        line = src[lp.sites[r["site"]].line - 1]
        if "# softmax default tmp" in line:
            if KINDS[r["kind"]] == "op":
                ops.append(int(r["end"]) - int(r["start"]))
            elif KINDS[r["kind"]] == "barrier":
                barriers += 1
    # one chunk of 4 rows of 256 floats: ReduceMax (Max, Max, 2 BlockReduceMax, Brcb, Copy), Sub, Exp,
    # ReduceSum (the same 6), Div: 15 vector instructions and the barriers between them, then the SoftMax call's
    # own event (no work of its own: one issue slot, vec_seq.h)
    assert len(ops) == 16, ops
    assert barriers >= 10
    # each at least the issue cost; together at least the Exp of 1024 floats plus the 14 others' issue
    vec = p["vec_issue_cycles"]
    assert min(ops) >= vec
    assert sum(ops) >= 15 * vec + (rows * k) / 64
