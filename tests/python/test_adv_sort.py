"""asc.adv.concat and asc.adv.extract (src/sim/adv_sort.c) against NumPy, alone and in the pipeline the devkit's
Sort pages show (Concat -> Sort -> Extract), float16 and float32, with the errors.

On the Ascend910B Concat assigns src to dst (`concat = src`: no instruction); Extract is two GatherMasks: the
scores (element 0 of each 8-byte sorted element) and the uint32 indices (bytes 4-7). For half the devkit's
index step runs twice the repeats of its value step (64 * repeat_time indices, 512 * repeat_time bytes of src).
"""

import zlib
from typing import Any, Tuple

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

FLT = ("float16", "float32")
NP = {"float16": np.float16, "float32": np.float32}
SLOT = 8192  # UB bytes per operand (256-byte aligned, as Sort's dst needs)


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def pack(s: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(score, index) elements as bytes (8 each) in the 910B layout; a half's bytes 2-3 hold 0x5A."""
    out = np.full((len(s), 8), 0x5A, np.uint8)
    out[:, :s.dtype.itemsize] = s.view(np.uint8).reshape(len(s), -1)
    out[:, 4:] = idx.astype(np.uint32).view(np.uint8).reshape(len(s), 4)
    return out.reshape(-1)


def extract_ref(sorted_bytes: np.ndarray, dtype: str, rep: int) -> Tuple[np.ndarray, np.ndarray]:
    """The devkit's two GatherMasks: 32 * rep scores; 32 * rep indices (float) or 64 * rep (half)."""
    b = sorted_bytes.reshape(-1, 8)
    sz = np.dtype(NP[dtype]).itemsize
    vals = b[:32 * rep, :sz].copy().view(NP[dtype]).reshape(-1)
    n_idx = 32 * rep * (2 if dtype == "float16" else 1)
    idx = b[:n_idx, 4:].copy().view(np.uint32).reshape(-1)
    return vals, idx


# ---- extract alone ---------------------------------------------------------------------------------------------


@asc.jit
def extract_kernel(s: asc.GlobalAddress, v: asc.GlobalAddress, i: asc.GlobalAddress, ns: int, nv: int, ni: int,
                   rep: int):
    s_gm = asc.GlobalTensor()
    v_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    s_gm.set_global_buffer(s)
    v_gm.set_global_buffer(v)
    i_gm.set_global_buffer(i)
    sl = asc.LocalTensor(s.dtype, asc.TPosition.VECIN, 0, 2 * SLOT // s.dtype.sizeof())
    vl = asc.LocalTensor(s.dtype, asc.TPosition.VECOUT, 2 * SLOT, SLOT // s.dtype.sizeof())
    il = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 3 * SLOT, SLOT // 4)
    asc.data_copy(sl, s_gm, ns)
    asc.data_copy(vl, v_gm, nv)
    asc.data_copy(il, i_gm, ni)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.extract(vl, il, sl, rep)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(v_gm, vl, nv)
    asc.data_copy(i_gm, il, ni)


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("rep", (0, 1, 3, 8))
def test_extract_splits_scores_and_indices(dtype: str, rep: int) -> None:
    rng = rng_for("extract", dtype, rep)
    n_items = 64 * max(rep, 1) + 32  # the half index step reads 64 * rep elements; leave a margin after it
    s = (rng.standard_normal(n_items) * 10).astype(NP[dtype])
    s[:3] = [np.inf, -0.0, np.nan]
    idx = rng.integers(0, 2**32, n_items, dtype=np.uint64).astype(np.uint32)
    raw = pack(s, idx)
    src = raw.view(NP[dtype])
    nv = 32 * max(rep, 1) + 16
    ni = 64 * max(rep, 1) + 8
    v = np.full(nv, 7, NP[dtype])
    i = np.full(ni, 0xDEADBEEF, np.uint32)
    extract_kernel[1](src, v, i, len(src), nv, ni, rep)
    want_v, want_i = extract_ref(raw, dtype, rep)
    assert v[:len(want_v)].tobytes() == want_v.tobytes()  # bit-exact: NaN, -0 and inf kept
    assert np.all(v[len(want_v):] == 7)
    np.testing.assert_array_equal(i[:len(want_i)], want_i)
    assert np.all(i[len(want_i):] == 0xDEADBEEF)


# ---- concat -----------------------------------------------------------------------------------------------------


@asc.jit
def concat_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, n: int, rep: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    w_gm.set_global_buffer(w)
    src = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, SLOT // x.dtype.sizeof())
    dst = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, SLOT, SLOT // x.dtype.sizeof())
    tmp = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * SLOT, SLOT // x.dtype.sizeof())
    old = dst[0:]  # a view made before concat keeps dst's own bytes
    asc.duplicate(old, 3.0, n)
    asc.duplicate(tmp, 5.0, n)
    asc.data_copy(src, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.adv.concat(dst, src, tmp, rep)
    asc.data_copy(z_gm, dst, n)  # dst is src now
    asc.data_copy(w_gm, old, n)
    asc.data_copy(w_gm[n:], tmp, n)


@pytest.mark.parametrize("dtype", FLT)
def test_concat_makes_dst_the_source_tensor(dtype: str) -> None:
    n = 64
    x = rng_for("concat", dtype).standard_normal(n).astype(NP[dtype])
    z = np.zeros(n, NP[dtype])
    w = np.zeros(2 * n, NP[dtype])
    concat_kernel[1](x, z, w, n, n // 16)
    np.testing.assert_array_equal(z, x)
    np.testing.assert_array_equal(w, np.r_[np.full(n, 3.0), np.full(n, 5.0)].astype(NP[dtype]))  # untouched
    cpp = ascendc(concat_kernel)
    assert "AscendC::Concat(dst, src, tmp, " in cpp


# ---- the devkit's pipeline: Concat -> Sort -> Extract ---------------------------------------------------------------


@asc.jit
def pipeline_kernel(x: asc.GlobalAddress, ix: asc.GlobalAddress, v: asc.GlobalAddress, i: asc.GlobalAddress,
                    n: int, ni: int, full: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    ix_gm = asc.GlobalTensor()
    v_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    ix_gm.set_global_buffer(ix)
    v_gm.set_global_buffer(v)
    i_gm.set_global_buffer(i)
    es = x.dtype.sizeof()
    value = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, SLOT // es)
    index = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, SLOT, SLOT // 4)
    concat_t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * SLOT, SLOT // es)
    concat_tmp = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 3 * SLOT, SLOT // es)
    sorted_t = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 4 * SLOT, 2 * SLOT // es)
    sort_tmp = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 6 * SLOT, 2 * SLOT // es)
    dst_value = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8 * SLOT, SLOT // es)
    dst_index = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 9 * SLOT, SLOT // 4)
    # the half index step of Extract reads 512 bytes a repeat (twice the sorted elements): define them
    asc.duplicate(sorted_t, 0.0, 2 * SLOT // es)
    asc.data_copy(value, x_gm, n)
    asc.data_copy(index, ix_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.concat(concat_t, value, concat_tmp, n // 16)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.sort(sorted_t, concat_t, index, sort_tmp, n // 32, is_full_sort=full)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.adv.extract(dst_value, dst_index, sorted_t, n // 32)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(v_gm, dst_value, n)
    asc.data_copy(i_gm, dst_index, ni)


def ref_sort(s: np.ndarray, idx: np.ndarray, runs: int) -> Tuple[np.ndarray, np.ndarray]:
    """Descending, equal scores in input order, in `runs` independent runs."""
    vs, ixs = [], []
    for part_s, part_i in zip(np.split(s, runs), np.split(idx, runs)):
        order = np.argsort(-part_s.astype(np.float64), kind="stable")
        vs.append(part_s[order])
        ixs.append(part_i[order])
    return np.concatenate(vs), np.concatenate(ixs)


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n,full", [(32, True), (128, True), (256, True), (128, False)])
def test_concat_sort_extract_pipeline(dtype: str, n: int, full: bool) -> None:
    rng = rng_for("pipeline", dtype, n, full)
    s = np.round(rng.standard_normal(n) * 20).astype(NP[dtype])  # ties: their input order is kept
    idx = np.arange(n, dtype=np.uint32) * 3 + 1
    v = np.zeros(n, NP[dtype])
    ni = 2 * n if dtype == "float16" else n  # half: the devkit writes 64 indices a repeat
    i = np.zeros(ni, np.uint32)
    pipeline_kernel[1](s, idx, v, i, n, ni, full)
    want_v, want_i = ref_sort(s, idx, 1 if full else n // 32)
    np.testing.assert_array_equal(v, want_v)
    np.testing.assert_array_equal(i[:n], want_i)
    if dtype == "float16":  # the second n: the index words of the (zeroed) bytes after the sorted elements
        np.testing.assert_array_equal(i[n:], np.zeros(n, np.uint32))


def test_pipeline_with_inserted_syncs_and_auto_tensors() -> None:
    """Concat retargets dst: the sync insertion must see the Sort read src's bytes (the DMA's)."""

    @asc.jit(insert_sync=True)
    def k(x: asc.GlobalAddress, ix: asc.GlobalAddress, v: asc.GlobalAddress, i: asc.GlobalAddress,
          n: asc.ConstExpr[int]):
        x_gm = asc.GlobalTensor()
        ix_gm = asc.GlobalTensor()
        v_gm = asc.GlobalTensor()
        i_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        ix_gm.set_global_buffer(ix)
        v_gm.set_global_buffer(v)
        i_gm.set_global_buffer(i)
        # every size a multiple of 256 bytes: the plan's offsets keep Sort's 256-byte alignment
        sorted_t = asc.LocalTensorAuto(asc.float32, 2 * n)
        sort_tmp = asc.LocalTensorAuto(asc.float32, 2 * n)
        value = asc.LocalTensorAuto(asc.float32, n)
        index = asc.LocalTensorAuto(asc.uint32, n)
        concat_t = asc.LocalTensorAuto(asc.float32, n)
        concat_tmp = asc.LocalTensorAuto(asc.float32, n)
        dst_value = asc.LocalTensorAuto(asc.float32, n)
        dst_index = asc.LocalTensorAuto(asc.uint32, n)
        asc.data_copy(value, x_gm, n)
        asc.data_copy(index, ix_gm, n)
        asc.adv.concat(concat_t, value, concat_tmp, n // 16)
        asc.sort(sorted_t, concat_t, index, sort_tmp, n // 32, is_full_sort=True)
        asc.adv.extract(dst_value, dst_index, sorted_t, n // 32)
        asc.data_copy(v_gm, dst_value, n)
        asc.data_copy(i_gm, dst_index, n)

    n = 64
    s = rng_for("auto").standard_normal(n).astype(np.float32)
    idx = np.arange(n, dtype=np.uint32)
    v = np.zeros(n, np.float32)
    i = np.zeros(n, np.uint32)
    k[1](s, idx, v, i, n)  # the sanitizer is on: a missing sync would raise
    assert "insert-sync:" in list(k.cache.values())[-1].pass_log
    order = np.argsort(-s, kind="stable")
    np.testing.assert_array_equal(v, s[order])
    np.testing.assert_array_equal(i, idx[order])


# ---- errors --------------------------------------------------------------------------------------------------


@asc.jit
def misuse_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int], rep: int):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 4096, 1024)
    ii = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 8192, 1024)
    u = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 12288, 1024)
    small = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 16384, 16)
    if case == 0:
        asc.adv.concat(ii, ii, ii, 4)  # int concat
    elif case == 1:
        asc.adv.concat(f, h, f, 4)  # mixed
    elif case == 2:
        asc.adv.concat(f, f, f, 256)  # bad repeat
    elif case == 3:
        asc.adv.extract(f, ii, f, 1)  # int index
    elif case == 4:
        asc.adv.extract(f, u, h, 1)  # mixed extract
    elif case == 5:
        asc.adv.extract(f, u, f, rep)  # runtime repeat
    elif case == 6:
        asc.adv.extract(small, u, f, 1)  # overrun
    elif case == 7:
        asc.adv.concat(f, f, f, rep)  # runtime concat repeat
    elif case == 8:
        asc.adv.extract(f, u, f, 1.5)  # float repeat


@pytest.mark.parametrize("case,marker,fragments,cls", [
    (0, "# int concat", ["asc.adv.concat does not support element type int32"], asc.CompileError),
    (1, "# mixed", ["asc.adv.concat: 'src' holds float16 but dst holds float32"], asc.CompileError),
    (2, "# bad repeat", ["asc.adv.concat: repeat_time = 256 is out of range [0, 255]"], asc.CompileError),
    (3, "# int index", ["asc.adv.extract: 'dst_index' (the indices) must be a uint32 LocalTensor"],
     asc.CompileError),
    (4, "# mixed extract", ["'src' holds float16 but dst holds float32"], asc.CompileError),
    (5, "# runtime repeat", ["asc.adv.extract: repeat_time 300 is out of range [0, 255]"], asc.KernelError),
    (6, "# overrun", ["dst_value"], asc.KernelError),
    (7, "# runtime concat repeat", ["asc.adv.concat: repeat_time -1 is out of range"], asc.KernelError),
    (8, "# float repeat", ["'repeat_time' must be an integer"], asc.CompileError),
])
def test_misuse(case: int, marker: str, fragments: Any, cls: Any) -> None:
    rep = 300 if case == 5 else -1
    fails_at(misuse_kernel, (np.zeros(8, np.float32), case, rep), marker, *fragments, cls=cls)
