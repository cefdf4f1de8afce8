"""The sort family on the simulator against NumPy references: sort32, sort
(with and without is_full_sort), mrg_sort (the list form and the
MrgSort4Info form, exhausted suspension, repeats), get_mrg_sort_result,
get_sort_len, get_sort_offset, float16 and float32; the region-proposal
instructions the Ascend910B lacks are CompileErrors.

The Ascend910B layout: a sorted element is 8 bytes, the score in the low
bytes (a half's bytes 2-3 reserved, 0 here), its uint32 index in bytes 4-7.
Descending; equal scores in input order (Sort32: position; MrgSort: lower
list first). NaN, which the devkit leaves unordered, ranks above every
number here.
"""

import zlib
from typing import Any, List, Sequence, Tuple

import numpy as np
import pytest
from kernels_util import UB_SLOT, fails_at

import asc

FLT = ("float16", "float32")
NP = {"float16": np.float16, "float32": np.float32}
PER = {"float16": 4, "float32": 2}  # T elements per 8-byte sorted element


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def scores(dtype: str, n: int, rng: np.random.Generator, ties: bool = True) -> np.ndarray:
    v = rng.standard_normal(n) * 10
    if ties:  # a few repeated values, so that the tie order is tested
        v = np.round(v)
    return v.astype(NP[dtype])


def key(a: np.ndarray) -> np.ndarray:
    """The descending key as (not NaN, -score) pairs: NaN first, then larger; -0 == +0."""
    f = a.astype(np.float64)
    nan = np.isnan(f)
    return np.stack([(~nan).astype(np.float64), np.where(nan, 0.0, -(f + 0.0))], axis=-1)


def goes_before(a: Any, b: Any) -> bool:
    return tuple(key(np.array([a]))[0]) < tuple(key(np.array([b]))[0])


def ref_sorted(s: np.ndarray, idx: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    k = key(s)
    order = np.lexsort((k[:, 1], k[:, 0]))  # (stable)
    return s[order], idx[order]


def pack(s: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(score, index) elements as bytes (8 each) in the 910B layout."""
    out = np.zeros((len(s), 8), np.uint8)
    if not len(s):
        return out.reshape(-1)
    out[:, :s.dtype.itemsize] = s.view(np.uint8).reshape(len(s), -1)
    out[:, 4:] = idx.astype(np.uint32).view(np.uint8).reshape(len(s), 4)
    return out.reshape(-1)


def unpack(z: np.ndarray, dtype: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    b = z.view(np.uint8).reshape(-1, 8)
    sz = np.dtype(NP[dtype]).itemsize
    return b[:, :sz].copy().view(NP[dtype]).reshape(-1), b[:, 4:].copy().view(np.uint32).reshape(-1), b[:, sz:4]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.tobytes() == b.tobytes()


# ---- sort32 / sort --------------------------------------------------------------------------------------------


@asc.jit
def sort_kernel(x: asc.GlobalAddress, i: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress,
                n: int, nz: int, rep: int, which: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    i_gm.set_global_buffer(i)
    z_gm.set_global_buffer(z)
    w_gm.set_global_buffer(w)
    cap = UB_SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    il = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, UB_SLOT, UB_SLOT // 4)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * UB_SLOT, cap)
    wl = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 3 * UB_SLOT, cap)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(il, i_gm, n)
    asc.data_copy(zl, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if which == 0:
        asc.sort32(zl, xl, il, rep)
    elif which == 1:
        asc.sort(zl, xl, il, wl, rep)
    else:
        asc.sort(zl, xl, il, wl, rep, is_full_sort=True)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, nz)
    if which == 2:
        asc.data_copy(w_gm, wl, nz)


def run_sort(which: int, s: np.ndarray, idx: np.ndarray, rep: int, extra: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """dst (rep runs and `extra` more sorted elements' worth, pre-filled with 0xA5) and tmp."""
    per = 8 // s.dtype.itemsize
    nz = (rep * 32 + extra) * per
    z = np.full(nz * s.dtype.itemsize, 0xA5, np.uint8).view(s.dtype)
    w = np.zeros(nz, s.dtype)
    sort_kernel[1](s, idx.astype(np.uint32), z, w, len(s), nz, rep, which)
    return z, w


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("rep", (1, 2, 5))
@pytest.mark.parametrize("which", (0, 1))
def test_sort32_runs(dtype: str, rep: int, which: int) -> None:
    rng = rng_for("sort32", dtype, rep)
    n = rep * 32
    s = scores(dtype, n, rng)
    idx = rng.permutation(1000)[:n].astype(np.uint32) + 7
    z, _ = run_sort(which, s, idx, rep, extra=4)
    got_s, got_i, reserved = unpack(z[:n * PER[dtype]], dtype)
    for r in range(rep):  # each run of 32 on its own, not across runs
        es, ei = ref_sorted(s[32 * r:32 * r + 32], idx[32 * r:32 * r + 32])
        assert same_bits(got_s[32 * r:32 * r + 32], es)
        assert (got_i[32 * r:32 * r + 32] == ei).all()
    assert (reserved == 0).all()
    # nothing after the runs is written
    assert (z[n * PER[dtype]:].view(np.uint8) == 0xA5).all()


@pytest.mark.parametrize("dtype", FLT)
def test_sort32_ties_and_specials(dtype: str) -> None:
    t = NP[dtype]
    s = np.array([1, -0.0, 0.0, 1, np.inf, -np.inf, np.nan, 2] * 4, t)
    idx = np.arange(32, dtype=np.uint32)
    z, _ = run_sort(0, s, idx, 1)
    got_s, got_i, _ = unpack(z, dtype)
    es, ei = ref_sorted(s, idx)
    assert (got_i == ei).all()
    assert same_bits(got_s, es)  # the scores' own bits: -0 stays -0, NaN's payload
    assert np.isnan(got_s[:4]).all() and np.isposinf(got_s[4])
    # +0 and -0 are equal: in position order (index 1 (-0) before 2 (+0))
    zero = [int(i) for i in got_i if s[i] == 0]
    assert zero == sorted(zero)


def test_sort32_float16_index_bytes() -> None:
    s = np.arange(32, dtype=np.float16)
    idx = (np.arange(32, dtype=np.uint32) << 20) | 0xABCDE
    z, _ = run_sort(0, s, idx, 1)
    b = z.view(np.uint8).reshape(32, 8)
    assert (b[:, 4:].copy().view(np.uint32).reshape(-1) == idx[::-1]).all()
    assert (b[:, 2:4] == 0).all()
    assert (b[:, :2].copy().view(np.float16).reshape(-1) == s[::-1]).all()


def test_sort32_zero_repeats_is_a_nop() -> None:
    s = np.ones(32, np.float32)
    z, _ = run_sort(0, s, np.arange(32), 0, extra=4)
    assert (z.view(np.uint8) == 0xA5).all()


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("rep", (1, 2, 3, 4, 5, 6, 9, 16, 17, 21))
def test_sort_full(dtype: str, rep: int) -> None:
    rng = rng_for("full", dtype, rep)
    n = rep * 32
    s = scores(dtype, n, rng)
    idx = np.arange(n, dtype=np.uint32)
    z, w = run_sort(2, s, idx, rep)
    got_s, got_i, _ = unpack(z, dtype)
    es, ei = ref_sorted(s, idx)  # the 4-way merges keep equal scores in input order: a stable sort
    assert same_bits(got_s, es)
    assert (got_i == ei).all()
    assert same_bits(w, z)  # tmp ends as a copy of dst


# ---- mrg_sort --------------------------------------------------------------------------------------------------

LIST_CAP = 1024  # elements (8 bytes) per list slot in the kernels below


@asc.jit
def mrg_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, r: asc.GlobalAddress, nx: int, nz: int,
               c0: int, c1: int, c2: int, c3: int, valid: int, rep: int, lists: asc.ConstExpr[int],
               susp: asc.ConstExpr[bool], form: asc.ConstExpr[int], stride: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    r_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    r_gm.set_global_buffer(r)
    per = 8 // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 4 * LIST_CAP * per)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4 * LIST_CAP * 8, 4 * LIST_CAP * per)
    rl = asc.LocalTensor(asc.uint16, asc.TPosition.VECOUT, 8 * LIST_CAP * 8, 16)
    asc.data_copy(xl, x_gm, nx)
    asc.data_copy(zl, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if lists == 2:
        src = asc.MrgSortSrcList(x.dtype, xl, xl[stride * per])
    elif lists == 3:
        src = asc.MrgSortSrcList(x.dtype, xl, xl[stride * per], xl[2 * stride * per])
    else:
        src = asc.MrgSortSrcList(x.dtype, xl, xl[stride * per], xl[2 * stride * per], xl[3 * stride * per])
    if form == 0:
        asc.mrg_sort(zl, src, [c0, c1, c2, c3], [0, 0, 0, 0], valid, rep, susp)
    else:
        asc.mrg_sort(zl, src, asc.MrgSort4Info([c0, c1, c2, c3], susp, valid, rep))
    a, b, c, d = asc.get_mrg_sort_result()
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    rl.set_value(0, a)
    rl.set_value(1, b)
    rl.set_value(2, c)
    rl.set_value(3, d)
    for k in range(4, 16):
        rl.set_value(k, 0)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, zl, nz)
    asc.data_copy(r_gm, rl, 16)


def sorted_list(dtype: str, n: int, rng: np.random.Generator, base: int) -> Tuple[np.ndarray, np.ndarray]:
    s = scores(dtype, n, rng)
    idx = np.arange(base, base + n, dtype=np.uint32)
    return ref_sorted(s, idx)


def run_mrg(dtype: str, lists: Sequence[Tuple[np.ndarray, np.ndarray]], counts: Sequence[int], valid: int,
            rep: int = 1, susp: bool = False, form: int = 0, stride: int = 0) -> Tuple[np.ndarray, List[int]]:
    """Lists stored `stride` elements apart (0: one after another, of the first count's length)."""
    per = PER[dtype]
    stride = stride or counts[0]
    x = np.zeros(4 * LIST_CAP * per, NP[dtype])
    xb = x.view(np.uint8)
    for k, (s, i) in enumerate(lists):
        p = pack(s, i)
        xb[k * stride * 8:k * stride * 8 + len(p)] = p
    nz = 4 * LIST_CAP * per
    z = np.full(nz * 2 if dtype == "float16" else nz * 4, 0xA5, np.uint8).view(NP[dtype])
    r = np.zeros(16, np.uint16)
    c = list(counts) + [0] * (4 - len(counts))
    mrg_kernel[1](x, z, r, len(x), nz, c[0], c[1], c[2], c[3], valid, rep, max(len(lists), 2), susp, form,
                  stride)
    return z, [int(v) for v in r[:4]]


def ref_merge(lists: Sequence[Tuple[np.ndarray, np.ndarray]], susp: bool = False) -> Tuple[np.ndarray, np.ndarray,
                                                                                             List[int]]:
    """The 4-way merge: the greatest head, ties to the lower list; with susp stop when a list runs out."""
    pos = [0] * len(lists)
    out_s: List[Any] = []
    out_i: List[int] = []
    if susp and any(len(s) == 0 for s, _ in lists):
        return np.array([], lists[0][0].dtype), np.array([], np.uint32), pos
    while True:
        best = -1
        for k, (s, _) in enumerate(lists):
            if pos[k] < len(s) and (best < 0 or goes_before(s[pos[k]], lists[best][0][pos[best]])):
                best = k
        if best < 0:
            break
        out_s.append(lists[best][0][pos[best]])
        out_i.append(int(lists[best][1][pos[best]]))
        pos[best] += 1
        if susp and pos[best] == len(lists[best][0]):
            break
    return np.array(out_s, lists[0][0].dtype), np.array(out_i, np.uint32), pos


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("form", (0, 1))
@pytest.mark.parametrize("counts", ((32, 32), (5, 17, 9), (32, 32, 32, 32), (1, 0, 30, 7), (64, 3, 0, 40)))
def test_mrg_sort_merges(dtype: str, form: int, counts: Tuple[int, ...]) -> None:
    rng = rng_for("mrg", dtype, counts)
    lists = [sorted_list(dtype, c, rng, 100 * k) for k, c in enumerate(counts)]
    valid = {2: 3, 3: 7, 4: 15}[len(counts)]
    z, took = run_mrg(dtype, lists, counts, valid, form=form, stride=64)
    es, ei, pos = ref_merge(lists)
    n = len(es)
    got_s, got_i, _ = unpack(z[:n * PER[dtype]], dtype)
    assert same_bits(got_s, es)
    assert (got_i == ei).all()
    assert took == pos + [0] * (4 - len(pos))
    assert (z[n * PER[dtype]:].view(np.uint8) == 0xA5).all()


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("form", (0, 1))
def test_mrg_sort_exhausted_suspension(dtype: str, form: int) -> None:
    rng = rng_for("susp", dtype)
    counts = (20, 6, 20, 20)
    lists = [sorted_list(dtype, c, rng, 100 * k) for k, c in enumerate(counts)]
    lists[1] = (np.sort(lists[1][0])[::-1] + np.asarray(50, NP[dtype]), lists[1][1])  # list 2 runs out first
    z, took = run_mrg(dtype, lists, counts, 15, susp=True, form=form, stride=32)
    es, ei, pos = ref_merge(lists, susp=True)
    assert pos[1] == 6 and sum(pos) < sum(counts)
    n = len(es)
    got_s, got_i, _ = unpack(z[:n * PER[dtype]], dtype)
    assert same_bits(got_s, es) and (got_i == ei).all()
    assert took == pos
    assert (z[n * PER[dtype]:].view(np.uint8) == 0xA5).all()  # the merge stopped: nothing more written


def test_mrg_sort_ties_take_the_lower_list() -> None:
    s = np.full(4, 3.0, np.float32)
    lists = [(s, np.arange(4, dtype=np.uint32) + 10 * k) for k in range(4)]
    z, _ = run_mrg("float32", lists, (4, 4, 4, 4), 15)
    _, got_i, _ = unpack(z[:32], "float32")
    assert list(got_i) == [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("form", (0, 1))
def test_mrg_sort_repeats(dtype: str, form: int) -> None:
    rng = rng_for("rep", dtype)
    groups = [[sorted_list(dtype, 16, rng, 1000 * g + 100 * k) for k in range(4)] for g in range(3)]
    per = PER[dtype]
    flat = [lst for g in groups for lst in g]
    # stored one after another: group g's list k at (4g + k) * 16 elements
    z, _ = run_mrg_flat(dtype, flat, 16, 3, form)
    for g in range(3):
        es, ei, _ = ref_merge(groups[g])
        got_s, got_i, _ = unpack(z[g * 64 * per:(g + 1) * 64 * per], dtype)
        assert same_bits(got_s, es) and (got_i == ei).all()
    assert (z[3 * 64 * per:].view(np.uint8) == 0xA5).all()


def run_mrg_flat(dtype: str, flat: Sequence[Tuple[np.ndarray, np.ndarray]], length: int, rep: int,
                 form: int) -> Tuple[np.ndarray, List[int]]:
    per = PER[dtype]
    x = np.zeros(4 * LIST_CAP * per, NP[dtype])
    xb = x.view(np.uint8)
    for k, (s, i) in enumerate(flat):
        xb[k * length * 8:(k + 1) * length * 8] = pack(s, i)
    nz = 4 * LIST_CAP * per
    z = np.full(nz * np.dtype(NP[dtype]).itemsize, 0xA5, np.uint8).view(NP[dtype])
    r = np.zeros(16, np.uint16)
    mrg_kernel[1](x, z, r, len(x), nz, length, length, length, length, 15, rep, 4, False, form, length)
    return z, [int(v) for v in r[:4]]


def test_mrg_sort_zero_repeats_is_a_nop() -> None:
    rng = rng_for("nop")
    lists = [sorted_list("float32", 8, rng, 0) for _ in range(2)]
    z, took = run_mrg("float32", lists, (8, 8), 3, rep=0)
    assert (z.view(np.uint8) == 0xA5).all() and took == [0, 0, 0, 0]


@pytest.mark.parametrize("valid,lists,rep,susp,counts,fragment", [
    (5, 4, 1, False, (8, 8, 8, 8), "valid_bit 5"),
    (15, 2, 1, False, (8, 8, 8, 8), "holds 2"),
    (15, 4, 2, True, (8, 8, 8, 8), "repeat_time 2"),
    (15, 4, 2, False, (8, 4, 8, 8), "repeat_time 2"),
    (15, 4, 1, False, (4096, 8, 8, 8), "4095"),
])
def test_mrg_sort_run_time_errors(valid: int, lists: int, rep: int, susp: bool, counts: Tuple[int, ...],
                                  fragment: str) -> None:
    x = np.zeros(4 * LIST_CAP * 2, np.float32)
    z = np.zeros(4 * LIST_CAP * 2, np.float32)
    r = np.zeros(16, np.uint16)
    with pytest.raises(asc.KernelError, match=fragment):
        mrg_kernel[1](x, z, r, len(x), len(z), *counts, valid, rep, lists, susp, 0, 8)


# ---- get_sort_len / get_sort_offset / get_mrg_sort_result ----------------------------------------------------


@asc.jit
def len_kernel(z: asc.GlobalAddress, n: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    zl = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 0, 8)
    a, b, c, d = asc.get_mrg_sort_result()
    zl.set_value(0, asc.get_sort_len(n))
    zl.set_value(1, asc.get_sort_offset(n))
    zl.set_value(2, asc.get_sort_len(100))
    zl.set_value(3, a + b + c + d)
    zl.set_value(4, asc.get_sort_offset(7))
    zl.set_value(5, 0)
    zl.set_value(6, 0)
    zl.set_value(7, 0)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, zl, 8)


@pytest.mark.parametrize("n", (0, 1, 37, 4096, 2**31 - 1))
def test_get_sort_len_offset(n: int) -> None:
    z = np.zeros(8, np.uint32)
    len_kernel[1](z, n)
    assert int(z[0]) == (2 * n) % 2**32 and int(z[1]) == (2 * n) % 2**32
    assert int(z[2]) == 200 and int(z[4]) == 14
    assert int(z[3]) == 0  # the result register before any merge


# ---- errors and the Ascend C -----------------------------------------------------------------------------------


@asc.jit
def bad_dtype_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 256)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 1024, 256)
    asc.sort32(t, t, i, 1)  # bad dtype


@asc.jit
def bad_index_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    asc.sort32(t, t, t, 1)  # bad index


@asc.jit
def mixed_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 1024, 256)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 2048, 256)
    asc.sort(t, h, i, t, 1)  # mixed


@asc.jit
def bad_repeat_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 2048, 256)
    asc.sort32(t, t, i, 256)  # bad repeat


@asc.jit
def runtime_repeat_kernel(x: asc.GlobalAddress, n: int):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 2048, 256)
    asc.sort32(t, t, i, n)  # runtime repeat


@asc.jit
def misaligned_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 512)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 4096, 256)
    asc.sort32(t[8], t[256], i, 1)  # misaligned


@asc.jit
def overrun_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 4096, 256)
    s = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 8192, 256)
    asc.sort32(t, s, i, 2)  # overrun


@asc.jit
def full_flag_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    i = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 2048, 256)
    asc.sort(t, t, i, t, 1, 1)  # int flag


@asc.jit
def mrg_list_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    asc.mrg_sort(t, t, [1, 1, 1, 1], [0, 0, 0, 0], 15, 1)  # not a list


@asc.jit
def mrg_valid_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    src = asc.MrgSortSrcList(asc.float32, t, t)
    asc.mrg_sort(t, src, [1, 1, 1, 1], [0, 0, 0, 0], 6, 1)  # bad valid


@asc.jit
def mrg_counts_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    src = asc.MrgSortSrcList(asc.float32, t, t)
    asc.mrg_sort(t, src, [1, 1, 1], [0, 0, 0, 0], 3, 1)  # three counts


@asc.jit
def mrg_overlap_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    src = asc.MrgSortSrcList(asc.float32, t, t[16])
    asc.mrg_sort(t, src, [8, 8, 0, 0], [0, 0, 0, 0], 3, 1)  # overlap


@asc.jit
def rp_sort16_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    asc.rp_sort16(t, t, 1)  # rp_sort16


@asc.jit
def mrg_sort4_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    src = asc.MrgSortSrcList(asc.float16, t, t, t, t)
    asc.mrg_sort4(t, src, asc.MrgSort4Info([1, 1, 1, 1]))  # mrg_sort4


@asc.jit
def concat_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    asc.proposal_concat(t, t, 1, 4)  # concat


@asc.jit
def extract_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    asc.proposal_extract(t, t, 1, 4)  # extract


def test_misuse() -> None:
    x = np.zeros(8, np.float32)
    fails_at(bad_dtype_kernel, (x,), "# bad dtype", "asc.sort32", "int32", cls=asc.CompileError)
    fails_at(bad_index_kernel, (x,), "# bad index", "uint32", cls=asc.CompileError)
    fails_at(mixed_kernel, (x,), "# mixed", "concat", "float16", cls=asc.CompileError)
    fails_at(bad_repeat_kernel, (x,), "# bad repeat", "repeat_time", "[0, 255]", cls=asc.CompileError)
    fails_at(runtime_repeat_kernel, (x, 300), "# runtime repeat", "repeat_time 300")
    fails_at(misaligned_kernel, (x,), "# misaligned", "dst", "256-byte aligned")
    fails_at(overrun_kernel, (x,), "# overrun", "dst", "elements")
    fails_at(full_flag_kernel, (x,), "# int flag", "is_full_sort", cls=asc.CompileError)
    fails_at(mrg_list_kernel, (x,), "# not a list", "MrgSortSrcList", cls=asc.CompileError)
    fails_at(mrg_valid_kernel, (x,), "# bad valid", "valid_bit = 6", cls=asc.CompileError)
    fails_at(mrg_counts_kernel, (x,), "# three counts", "element_count_list", cls=asc.CompileError)
    fails_at(mrg_overlap_kernel, (x,), "# overlap", "overlaps")
    for k, marker, name in ((rp_sort16_kernel, "# rp_sort16", "rp_sort16"),
                            (mrg_sort4_kernel, "# mrg_sort4", "mrg_sort4"),
                            (concat_kernel, "# concat", "proposal_concat"),
                            (extract_kernel, "# extract", "proposal_extract")):
        fails_at(k, (x,), marker, f"asc.{name}", "Ascend910B", cls=asc.CompileError)


def ascendc(kernel: Any) -> str:
    """The Ascend C of all the kernel's compilations."""
    return "\n".join(c.ascendc(line_comments=False) for c in kernel.cache.values())


def test_ascendc_spelling() -> None:
    s = np.ones(32, np.float32)
    run_sort(0, s, np.arange(32), 1)
    text = ascendc(sort_kernel)
    assert "AscendC::Sort32(" in text, text
    run_sort(2, s, np.arange(32), 1)
    assert "AscendC::Sort<float, true>(" in ascendc(sort_kernel)
    rng = rng_for("spell")
    lists = [sorted_list("float32", 8, rng, 0) for _ in range(2)]
    run_mrg("float32", lists, (8, 8), 3, form=0)
    text = ascendc(mrg_kernel)
    assert "AscendC::MrgSortSrcList<float> " in text and "AscendC::MrgSort<float, false>(" in text, text
    assert "AscendC::GetMrgSortResult(" in text, text
    run_mrg("float32", lists, (8, 8), 3, form=1)
    assert "AscendC::MrgSort(zl, AscendC::MrgSortSrcList<float>(" in ascendc(mrg_kernel)
    len_kernel[1](np.zeros(8, np.uint32), 3)
    text = ascendc(len_kernel)
    assert "AscendC::GetSortLen<float>(" in text and "AscendC::GetSortOffset<float>(" in text, text


@pytest.mark.parametrize("dtype", FLT)
def test_sort_full_specials(dtype: str) -> None:
    t = NP[dtype]
    rng = rng_for("full-specials", dtype)
    s = rng.choice(np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.0], t), 96)
    idx = np.arange(96, dtype=np.uint32)
    z, _ = run_sort(2, s, idx, 3)
    got_s, got_i, _ = unpack(z, dtype)
    es, ei = ref_sorted(s, idx)
    assert (got_i == ei).all() and same_bits(got_s, es)


@pytest.mark.parametrize("dtype", FLT)
def test_mrg_sort_specials(dtype: str) -> None:
    t = NP[dtype]
    rng = rng_for("mrg-specials", dtype)
    vals = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0], t)
    lists = [ref_sorted(rng.choice(vals, 12), np.arange(12, dtype=np.uint32) + 50 * k) for k in range(3)]
    z, took = run_mrg(dtype, lists, (12, 12, 12), 7, stride=16)
    es, ei, pos = ref_merge(lists)
    got_s, got_i, _ = unpack(z[:36 * PER[dtype]], dtype)
    assert (got_i == ei).all() and same_bits(got_s, es)
    assert took == [12, 12, 12, 0]


@asc.jit
def mrg_uninit_kernel(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 1024)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 8192, 256)
    asc.data_copy(a, x_gm, 192)  # lists 1-3 (64 floats = 32 elements each), not list 4
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    src = asc.MrgSortSrcList(asc.float32, a, a[64], a[128], a[512])
    asc.mrg_sort(d, src, [32, 32, 32, 32], [0, 0, 0, 0], 15, 1)  # uninit


def test_mrg_sort_sanitizer_sees_every_list() -> None:
    # five accesses (dst and four lists apart): the fourth list's unwritten bytes are an uninitialised read
    fails_at(mrg_uninit_kernel, (np.zeros(192, np.float32),), "# uninit", "uninitialised read", "[2048, 2304)",
             cls=asc.SanitizerError)
