"""The level-0 reductions on the simulator against NumPy references of the
devkit's semantics (src/sim/reduce.c): whole_reduce_max/min (every
ReduceOrder), whole_reduce_sum, repeat_reduce_sum, block_reduce_*,
pair_reduce_sum and the level-0 reduce_max/min/sum. Sums are trees of
adjacent lanes rounded to T at every step (NumPy's float16 add rounds
correctly), so results are bit-exact."""

import zlib
from typing import Any, List

import numpy as np
import pytest
from kernels_util import UB_SLOT

import asc

NP = {"float16": np.float16, "float32": np.float32}
SLOT = UB_SLOT // 4


@asc.jit
def red_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[str], mask: asc.ConstExpr[Any],
               rep: asc.ConstExpr[int], dst_rep: asc.ConstExpr[int], blk: asc.ConstExpr[int],
               src_rep: asc.ConstExpr[int], order: asc.ConstExpr[int]):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, SLOT, cap)
    wl = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * SLOT, cap)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(zl, zg, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if op == "whole_reduce_max":
        asc.whole_reduce_max(zl, xl, mask, rep, dst_rep, blk, src_rep, asc.ReduceOrder(order))
    elif op == "whole_reduce_min":
        asc.whole_reduce_min(zl, xl, mask, rep, dst_rep, blk, src_rep, asc.ReduceOrder(order))
    elif op == "whole_reduce_sum":
        asc.whole_reduce_sum(zl, xl, mask, rep, dst_rep, blk, src_rep)
    elif op == "repeat_reduce_sum":
        asc.repeat_reduce_sum(zl, xl, rep, mask, 1, blk, dst_rep, src_rep)
    elif op == "block_reduce_max":
        asc.block_reduce_max(zl, xl, rep, mask, dst_rep, blk, src_rep)
    elif op == "block_reduce_min":
        asc.block_reduce_min(zl, xl, rep, mask, dst_rep, blk, src_rep)
    elif op == "block_reduce_sum":
        asc.block_reduce_sum(zl, xl, rep, mask, dst_rep, blk, src_rep)
    elif op == "pair_reduce_sum":
        asc.pair_reduce_sum(zl, xl, rep, mask, dst_rep, blk, src_rep)
    elif op == "reduce_max":
        asc.reduce_max(zl, xl, wl, mask, rep, src_rep, cal_index=True)
    elif op == "reduce_min":
        asc.reduce_min(zl, xl, wl, mask, rep, src_rep, True)
    else:
        asc.reduce_sum(zl, xl, wl, mask, rep, src_rep)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)


def enabled(mask: Any, per: int) -> np.ndarray:
    if isinstance(mask, list):
        return np.array([(mask[i // 64] >> (i % 64)) & 1 for i in range(per)], bool)
    return np.arange(per) < min(mask, per)


def lanes(x: np.ndarray, r: int, per: int, blk: int, src_rep: int) -> np.ndarray:
    pb = 32 // x.dtype.itemsize
    return np.array([x[(r * src_rep + (i // pb) * blk) * pb + i % pb] for i in range(per)], x.dtype)


def tree(v: List[Any], on: List[bool]) -> Any:
    """Adjacent pairs level by level; an absent lane passes its partner on (float16 sums may overflow to inf,
    as on the device)."""
    with np.errstate(over="ignore"):
        return _tree(v, on)


def _tree(v: List[Any], on: List[bool]) -> Any:
    while len(v) > 1:
        nv, no = [], []
        for i in range(0, len(v), 2):
            a, b = on[i], on[i + 1]
            nv.append(v[i] + v[i + 1] if a and b else v[i] if a else v[i + 1])
            no.append(a or b)
        v, on = nv, no
    return v[0] if on[0] else None


def extreme(v: np.ndarray, on: np.ndarray, mx: bool) -> int:
    best = -1
    for i in np.flatnonzero(on):
        if best < 0 or (not np.isnan(v[best]) and (np.isnan(v[i]) or (v[i] > v[best] if mx else v[i] < v[best]))):
            best = i
    return best


def run(dt: str, op: str, mask: Any, rep: int, dst_rep: int, blk: int, src_rep: int, order: int = 0) -> tuple:
    t = NP[dt]
    cap = SLOT // np.dtype(t).itemsize
    r = np.random.default_rng(zlib.crc32(f"{dt}{op}{mask}{rep}{dst_rep}{blk}{src_rep}{order}".encode()))
    x = (r.standard_normal(cap) * 100).astype(t)
    x[3] = x[4]  # equal values: the lowest index wins
    z = np.full(cap, 0xA5A5 if dt == "float16" else 0x5A5A5A5A,
                np.uint16 if dt == "float16" else np.uint32).view(t)
    z0 = z.copy()
    red_kernel[1](x, z, op, mask, rep, dst_rep, blk, src_rep, order)
    return x, z0, z


CASES = [(128, 2, 1, 8), (37, 3, 1, 8), ([0xF0F0F0F0F0F0F0F0, 0x3], 2, 2, 16), (64, 1, 1, 8)]


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("op", ["whole_reduce_max", "whole_reduce_min"])
@pytest.mark.parametrize("order", range(4))
@pytest.mark.parametrize("mask,rep,blk,src_rep", CASES)
def test_whole_reduce_max_min(dt: str, op: str, order: int, mask: Any, rep: int, blk: int, src_rep: int) -> None:
    x, z0, z = run(dt, op, mask, rep, 2, blk, src_rep, order)
    per = 256 // x.itemsize
    want = z0.copy().view(np.uint8)
    es = x.itemsize
    unit = es if order == 2 else 4 if order == 3 else 2 * es
    for r in range(rep):
        v = lanes(x, r, per, blk, src_rep)
        i = extreme(v, enabled(mask, per), op.endswith("max"))
        val = v[i:i + 1].view(np.uint8)
        idx = np.array([i], np.uint16 if es == 2 else np.uint32).view(np.uint8)
        at = r * 2 * unit
        parts = {0: [val, idx], 1: [idx, val], 2: [val], 3: [np.array([i], np.uint32).view(np.uint8)]}[order]
        b = np.concatenate(parts)
        want[at:at + len(b)] = b
    np.testing.assert_array_equal(z.view(np.uint8), want)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("op", ["whole_reduce_sum", "repeat_reduce_sum"])
@pytest.mark.parametrize("mask,rep,blk,src_rep", CASES)
def test_whole_and_repeat_reduce_sum(dt: str, op: str, mask: Any, rep: int, blk: int, src_rep: int) -> None:
    if op == "repeat_reduce_sum" and isinstance(mask, list):
        mask = 100
    x, z0, z = run(dt, op, mask, rep, 3, blk, src_rep)
    per = 256 // x.itemsize
    want = z0.copy()
    for r in range(rep):
        want[3 * r] = tree(list(lanes(x, r, per, blk, src_rep)), list(enabled(mask, per)))
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("op", ["block_reduce_max", "block_reduce_min", "block_reduce_sum", "pair_reduce_sum"])
@pytest.mark.parametrize("mask,rep,blk,src_rep", CASES)
def test_block_and_pair_reduce(dt: str, op: str, mask: Any, rep: int, blk: int, src_rep: int) -> None:
    x, z0, z = run(dt, op, mask, rep, 2, blk, src_rep)
    per = 256 // x.itemsize
    pb = 32 // x.itemsize
    on = enabled(mask, per)
    want = z0.copy()
    for r in range(rep):
        v = lanes(x, r, per, blk, src_rep)
        if op == "pair_reduce_sum":
            base = r * 2 * (128 // x.itemsize)
            for j in range(per // 2):
                s = tree(list(v[2 * j:2 * j + 2]), list(on[2 * j:2 * j + 2]))
                if s is not None:
                    want[base + j] = s
            continue
        for b in range(8):
            sl = slice(b * pb, (b + 1) * pb)
            if not on[sl].any():
                continue
            if op == "block_reduce_sum":
                want[r * 16 + b] = tree(list(v[sl]), list(on[sl]))
            else:
                want[r * 16 + b] = v[sl][extreme(v[sl], on[sl], op.endswith("max"))]
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("op", ["reduce_max", "reduce_min", "reduce_sum"])
@pytest.mark.parametrize("mask,rep,src_rep", [(128, 2, 8), (37, 5, 8), ([0xFF00FF00FF00FF00, 0xF], 3, 16),
                                               (64, 70, 1), (128, 200, 0)])
def test_reduce_level0(dt: str, op: str, mask: Any, rep: int, src_rep: int) -> None:
    x, z0, z = run(dt, op, mask, rep, 0, 1, src_rep)
    per = 256 // x.itemsize
    on = enabled(mask, per)
    vals = [lanes(x, r, per, 1, src_rep) for r in range(rep)]
    want = z0.copy()
    if op == "reduce_sum":
        part = [tree(list(v), list(on)) for v in vals]
        second = [tree(part[b:b + per] + [x.dtype.type(0)] * (per - len(part[b:b + per])),
                       [True] * len(part[b:b + per]) + [False] * (per - len(part[b:b + per])))
                  for b in range(0, rep, per)]
        want[0] = second[0] if len(second) == 1 else tree(second + [0] * (per - len(second)),
                                                           [True] * len(second) + [False] * (per - len(second)))
    else:
        flat = np.concatenate(vals)
        i = extreme(flat, np.tile(on, rep), op == "reduce_max")
        want[0] = flat[i]
        want[1:2] = np.array([i], np.uint16 if x.itemsize == 2 else np.uint32).view(x.dtype)
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


def test_zero_mask_or_repeat_is_a_nop() -> None:
    for op in ("whole_reduce_sum", "block_reduce_max", "pair_reduce_sum"):
        x, z0, z = run("float16", op, 0, 2, 1, 1, 8)
        np.testing.assert_array_equal(z.view(np.uint8), z0.view(np.uint8))
        x, z0, z = run("float32", op, 64, 0, 1, 1, 8)
        np.testing.assert_array_equal(z.view(np.uint8), z0.view(np.uint8))


def test_errors() -> None:
    with pytest.raises(asc.CompileError, match="repeat_time"):
        @asc.jit
        def bad(x: asc.GlobalAddress):
            xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
            asc.whole_reduce_sum(xl, xl, 128, 256, 1, 1, 8)
        bad[1](np.zeros(8, np.float16))
    with pytest.raises(asc.CompileError, match="int32"):
        @asc.jit
        def bad2(x: asc.GlobalAddress):
            xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 128)
            asc.block_reduce_sum(xl, xl, 1, 64, 1, 1, 8)
        bad2[1](np.zeros(8, np.float16))


@asc.jit
def special_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, case: asc.ConstExpr[int]):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 1024, 256)
    asc.data_copy(xl, xg, 256)
    asc.data_copy(zl, zg, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if case == 0:
        asc.whole_reduce_max(zl, xl, 64, 2, 1, 1, 8)
    elif case == 1:
        asc.whole_reduce_sum(zl, xl, 64, 2, 1, 1, 8)
    else:  # the mask register from set_vector_mask (is_set_mask=False)
        asc.set_vector_mask(0, 0b1011, dtype=asc.float32)
        asc.whole_reduce_sum(zl, xl, 0, 1, 1, 1, 8, is_set_mask=False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, 256)


def test_nan_signed_zero_and_the_mask_register() -> None:
    x = np.arange(256, dtype=np.float32)
    x[10], x[20] = np.nan, 1e30  # repeat 0: the first NaN wins over a later larger value
    x[64:128] = -0.0  # repeat 1: all -0: the sum stays -0, the max is -0 at index 0
    z = np.zeros(256, np.float32)
    special_kernel[1](x, z, 0)
    assert np.isnan(z[0]) and z[1:2].view(np.uint32)[0] == 10
    assert z[2] == 0 and np.signbit(z[2]) and z[3:4].view(np.uint32)[0] == 0
    z = np.zeros(256, np.float32)
    special_kernel[1](x, z, 1)
    assert np.isnan(z[0]) and z[1] == 0 and np.signbit(z[1])
    z = np.full(256, 7, np.float32)
    special_kernel[1](x, z, 2)
    assert z[0] == np.float32(x[0] + x[1]) + x[3] and z[1] == 7
