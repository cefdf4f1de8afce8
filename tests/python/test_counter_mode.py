"""The vector mask register's counter mode (set_mask_count) on the level-0
forms that read it outside the elementwise family, against NumPy references
of the devkit's rule (SIMD计算说明/掩码.md): the register's low word counts
the elements of the whole instruction, repeat_times is ignored, the count
runs in ceil(count / per_repeat) repeats (per_repeat = 256 bytes of the
type), the last one with the count's rest, and the register is left as it
was (counter mode, the same count: a following duplicate without setting
the mask fills the same number of elements).

- select level 0 (every SelMode) with is_set_mask=False, and the register
  forms select(dst, src0, src1, repeat_times=, ...) / select(dst, sel_mask,
  src0, repeat_times, repeat_params);
- whole_reduce_sum / repeat_reduce_sum / pair_reduce_sum with
  is_set_mask=False; whole_reduce_max / min and block_reduce_*, which always
  set the mask (bit mode [count, 0] writes the count, as the devkit's
  example with mask {130, 0});
- gather level 0 (its mask operand sets the register, then counts);
- add_deq_relu level 0 with is_set_mask=False: its steps 1-6 of the first
  chunk under the count, steps 7-8 in normal mode, the register left normal
  and all ones;
- the refusals: level-0 reduce_max/min/sum, gather's count form, compare's
  register form, and add_deq_relu's count past its first chunk.
"""

import zlib
from typing import Any, List

import numpy as np
import pytest
from kernels_util import UB_SLOT

import asc

NP = {"float16": np.float16, "float32": np.float32}
SLOT = UB_SLOT // 4  # bytes per operand: 4096
SENT = -7.0


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def per_repeat(dt: str) -> int:
    return 256 // np.dtype(NP[dt]).itemsize


def bits_of(m: np.ndarray, count: int) -> np.ndarray:
    return np.unpackbits(m, bitorder="little")[:count].astype(bool)


# ---------------------------------------------------------------------------
# select
# ---------------------------------------------------------------------------

@asc.jit
def sel_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, m: asc.GlobalAddress, z: asc.GlobalAddress,
               w: asc.GlobalAddress, form: asc.ConstExpr[int], mode: asc.ConstExpr[int],
               count: asc.ConstExpr[int], dst_rep: asc.ConstExpr[int], rep: asc.ConstExpr[int]):
    xg, yg, mg, zg, wg = (asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(),
                          asc.GlobalTensor())
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    mg.set_global_buffer(m)
    zg.set_global_buffer(z)
    wg.set_global_buffer(w)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, SLOT, cap)
    ml = asc.LocalTensor(asc.uint8, asc.TPosition.VECIN, 2 * SLOT, SLOT)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 3 * SLOT, cap)
    wl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4 * SLOT, cap)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(yl, yg, cap)
    asc.data_copy(ml, mg, SLOT)
    asc.data_copy(zl, zg, cap)
    asc.data_copy(wl, wg, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    sm = asc.SelMode(mode)
    p = asc.BinaryRepeatParams(1, 1, 1, dst_rep, 8, 8)
    if form == 2 and mode == 1:  # the register's first element is the scalar
        asc.duplicate(yl, 2.5, 16)
        asc.set_cmp_mask(yl)
    elif form == 2:
        asc.set_cmp_mask(ml)
    asc.set_mask_count()
    asc.set_vector_mask(0, count, dtype=x.dtype, mode=asc.MaskMode.COUNTER)
    if form == 1:  # the mask argument is ignored
        if mode == 1:
            asc.select(zl, ml, xl, 2.5, sm, 1, rep, p, False)
        else:
            asc.select(zl, ml, xl, yl, sm, 1, rep, p, is_set_mask=False)
    elif mode == 1:
        asc.select(zl, ml, xl, rep, p)
    else:
        asc.select(zl, xl, yl, repeat_times=rep, repeat_params=p, sel_mode=sm)
    # the register as select leaves it: counter mode, the same count
    asc.duplicate(wl, 1.0, 1, rep, 1, 8, False)
    asc.set_mask_norm()
    asc.reset_mask()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)
    asc.data_copy(wg, wl, cap)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("form,mode", [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1)])
@pytest.mark.parametrize("count,dst_rep,rep", [(1, 8, 1), (37, 8, 5), (64, 8, 1), (300, 8, 1), (200, 16, 255)])
def test_select_in_counter_mode(dt: str, form: int, mode: int, count: int, dst_rep: int, rep: int) -> None:
    t = NP[dt]
    cap = SLOT // np.dtype(t).itemsize
    per = per_repeat(dt)
    r = rng_for("sel", dt, form, mode, count, dst_rep)
    x = r.standard_normal(cap).astype(t)
    y = r.standard_normal(cap).astype(t)
    m = r.integers(0, 256, SLOT).astype(np.uint8)
    z = np.full(cap, SENT, t)
    w = np.full(cap, SENT, t)
    sel_kernel[1](x, y, m, z, w, form, mode, count, dst_rep, rep)
    if mode == 0:  # the same per bits every repeat
        b = np.resize(bits_of(m, per), count)
    else:
        b = bits_of(m, count)
    other = np.full(count, t(2.5)) if mode == 1 else y[:count]
    got = np.where(b, x[:count], other)
    want = np.full(cap, SENT, t)
    k = np.arange(count)
    at = (k // per) * dst_rep * (32 // np.dtype(t).itemsize) + k % per
    want[at] = got
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))
    # the following duplicate (contiguous repeats) fills exactly the count
    wwant = np.full(cap, SENT, t)
    wwant[:count] = 1.0
    np.testing.assert_array_equal(w, wwant)


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------

@asc.jit
def red_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, op: asc.ConstExpr[str],
               count: asc.ConstExpr[int], dst_rep: asc.ConstExpr[int], blk: asc.ConstExpr[int],
               src_rep: asc.ConstExpr[int], order: asc.ConstExpr[int]):
    xg, zg, wg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    wg.set_global_buffer(w)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, SLOT, cap)
    wl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * SLOT, cap)
    tl = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 3 * SLOT, cap)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(zl, zg, cap)
    asc.data_copy(wl, wg, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_mask_count()
    asc.set_vector_mask(0, count, dtype=x.dtype, mode=asc.MaskMode.COUNTER)
    rep = 3  # ignored in counter mode
    bm = [count, 0]  # the forms that always set the mask: bit mode writes the count itself
    if op == "whole_reduce_sum":
        asc.whole_reduce_sum(zl, xl, 1, rep, dst_rep, blk, src_rep, is_set_mask=False)
    elif op == "repeat_reduce_sum":
        asc.repeat_reduce_sum(zl, xl, rep, 1, 1, blk, dst_rep, src_rep, False)
    elif op == "pair_reduce_sum":
        asc.pair_reduce_sum(zl, xl, rep, 1, dst_rep, blk, src_rep, is_set_mask=False)
    elif op == "whole_reduce_max":
        asc.whole_reduce_max(zl, xl, bm, rep, dst_rep, blk, src_rep, asc.ReduceOrder(order))
    elif op == "whole_reduce_min":
        asc.whole_reduce_min(zl, xl, bm, rep, dst_rep, blk, src_rep, asc.ReduceOrder(order))
    elif op == "block_reduce_sum":
        asc.block_reduce_sum(zl, xl, rep, bm, dst_rep, blk, src_rep)
    elif op == "block_reduce_max":
        asc.block_reduce_max(zl, xl, rep, bm, dst_rep, blk, src_rep)
    elif op == "block_reduce_min":
        asc.block_reduce_min(zl, xl, rep, bm, dst_rep, blk, src_rep)
    elif op == "reduce_sum":
        asc.reduce_sum(zl, xl, tl, 64, 2, 8)
    asc.duplicate(wl, 1.0, 1, 1, 1, 8, False)
    asc.set_mask_norm()
    asc.reset_mask()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)
    asc.data_copy(wg, wl, cap)


def tree(v: List[Any], on: List[bool]) -> Any:
    """Adjacent pairs level by level, each sum rounded to the type; an absent lane passes its partner on."""
    v, on = list(v), list(on)
    with np.errstate(over="ignore"):
        while len(v) > 1:
            nv, no = [], []
            for i in range(0, len(v), 2):
                a, b = on[i], on[i + 1]
                nv.append(v[i] + v[i + 1] if a and b else v[i] if a else v[i + 1])
                no.append(a or b)
            v, on = nv, no
    return v[0], on[0]


def repeat_lanes(x: np.ndarray, r: int, per: int, blk: int, src_rep: int) -> np.ndarray:
    pb = 32 // x.dtype.itemsize
    return np.array([x[(r * src_rep + (i // pb) * blk) * pb + i % pb] for i in range(per)], x.dtype)


def red_ref(op: str, x: np.ndarray, z: np.ndarray, count: int, dst_rep: int, blk: int, src_rep: int,
            order: int) -> np.ndarray:
    per = 256 // x.dtype.itemsize
    pb = 32 // x.dtype.itemsize
    want = z.copy()
    idx_t = np.uint16 if x.dtype == np.float16 else np.uint32
    for r in range((count + per - 1) // per):
        n = min(per, count - r * per)
        v = repeat_lanes(x, r, per, blk, src_rep)
        on = [i < n for i in range(per)]
        if op in ("whole_reduce_sum", "repeat_reduce_sum"):
            want[r * dst_rep] = tree(v, on)[0]
        elif op == "pair_reduce_sum":
            for j in range(per // 2):
                s, present = tree(v[2 * j:2 * j + 2], on[2 * j:2 * j + 2])
                if present:
                    want[r * dst_rep * (per // 2) + j] = s
        elif op.startswith("whole_reduce"):
            lanes = v[:n]
            i = int(np.argmax(lanes) if op.endswith("max") else np.argmin(lanes))
            if order == 0:  # ORDER_VALUE_INDEX
                want[r * dst_rep * 2] = lanes[i]
                want[r * dst_rep * 2 + 1:r * dst_rep * 2 + 2].view(idx_t)[0] = i
            else:  # 2, ORDER_ONLY_VALUE
                want[r * dst_rep] = lanes[i]
        else:  # block_reduce_*
            for b in range(8):
                lanes = v[b * pb:min((b + 1) * pb, n)]
                if len(lanes) == 0:
                    continue  # no enabled element: the result is not written
                at = r * dst_rep * 8 + b
                if op.endswith("sum"):
                    want[at] = tree(list(v[b * pb:(b + 1) * pb]), on[b * pb:(b + 1) * pb])[0]
                else:
                    want[at] = lanes.max() if op.endswith("max") else lanes.min()
    return want


RED_CASES = [  # op, count, dst_rep, blk, src_rep, order
    ("whole_reduce_sum", 1, 1, 1, 8, 0),
    ("whole_reduce_sum", 300, 2, 1, 8, 0),
    ("repeat_reduce_sum", 77, 1, 2, 16, 0),
    ("pair_reduce_sum", 200, 1, 1, 8, 0),
    ("pair_reduce_sum", 33, 2, 1, 9, 0),
    ("whole_reduce_max", 150, 1, 1, 8, 0),
    ("whole_reduce_min", 70, 3, 1, 8, 2),
    ("block_reduce_sum", 300, 1, 1, 8, 0),
    ("block_reduce_max", 100, 2, 1, 8, 0),
    ("block_reduce_min", 19, 1, 2, 16, 0),
]


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("case", RED_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_reductions_in_counter_mode(dt: str, case: tuple) -> None:
    op, count, dst_rep, blk, src_rep, order = case
    t = NP[dt]
    cap = SLOT // np.dtype(t).itemsize
    r = rng_for("red", dt, *case)
    x = (r.standard_normal(cap) * 4).astype(t)
    z = np.full(cap, SENT, t)
    w = np.full(cap, SENT, t)
    red_kernel[1](x, z, w, op, count, dst_rep, blk, src_rep, order)
    want = red_ref(op, x, np.full(cap, SENT, t), count, dst_rep, blk, src_rep, order)
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))
    wwant = np.full(cap, SENT, t)
    wwant[:count] = 1.0  # the register: still counter mode, the count the op's mask gave
    np.testing.assert_array_equal(w, wwant)


def test_level0_reduce_in_counter_mode_is_a_kernel_error() -> None:
    x = np.ones(SLOT // 4, np.float32)
    with pytest.raises(asc.KernelError, match="counter mode"):
        red_kernel[1](x, x.copy(), x.copy(), "reduce_sum", 64, 1, 1, 8, 0)


# ---------------------------------------------------------------------------
# gather
# ---------------------------------------------------------------------------

@asc.jit
def gather_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, z: asc.GlobalAddress, form: asc.ConstExpr[int],
                  count: asc.ConstExpr[int], rep: asc.ConstExpr[int]):
    xg, og, zg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    og.set_global_buffer(o)
    zg.set_global_buffer(z)
    cap = SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    ol = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, SLOT, SLOT // 4)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * SLOT, cap)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(ol, og, SLOT // 4)
    asc.data_copy(zl, zg, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_mask_count()
    if form == 0:
        asc.gather(zl, xl, ol, 0, count)
    elif form == 1:  # bit mode: mask[0] is the register's low word, the count
        asc.gather(zl, xl, ol, 0, [count, 0], 7, rep)
    else:  # a continuous mask: the low word as SetMask<T>(len) writes it
        asc.gather(zl, xl, ol, 0, count, 7, rep)
    asc.set_mask_norm()
    asc.reset_mask()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)


@pytest.mark.parametrize("dt", ["float16", "float32"])
@pytest.mark.parametrize("form,count,rep", [(1, 5, 8), (1, 150, 8), (1, 130, 16), (1, 64, 0), (2, 10, 8)])
def test_gather_level0_in_counter_mode(dt: str, form: int, count: int, rep: int) -> None:
    t = NP[dt]
    es = np.dtype(t).itemsize
    cap, per = SLOT // es, 256 // es
    r = rng_for("gather", dt, form, count, rep)
    x = r.standard_normal(cap).astype(t)
    o = (r.integers(0, cap, SLOT // 4) * es).astype(np.uint32)
    z = np.full(cap, SENT, t)
    gather_kernel[1](x, o, z, form, count, rep)
    n = count if form == 1 else (1 << count) - 1  # a continuous mask of 10 is the bits 0..9: 1023 elements
    want = np.full(cap, SENT, t)
    for k in range(n):
        want[(k // per) * rep * (32 // es) + k % per] = x[o[k] // es]
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


def test_gather_count_form_in_counter_mode_is_a_kernel_error() -> None:
    x = np.ones(SLOT // 4, np.float32)
    with pytest.raises(asc.KernelError, match="counter mode"):
        gather_kernel[1](x, np.zeros(SLOT // 4, np.uint32), x.copy(), 0, 64, 8)


# ---------------------------------------------------------------------------
# compare's register form
# ---------------------------------------------------------------------------

def test_compare_register_form_in_counter_mode_is_a_kernel_error() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress):
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
        asc.set_mask_count()
        asc.set_vector_mask(0, 64, dtype=asc.float32, mode=asc.MaskMode.COUNTER)
        asc.compare(a, a, asc.CMPMODE.LT, 64, asc.BinaryRepeatParams(), is_set_mask=False)

    with pytest.raises(asc.KernelError, match="counter mode"):
        k[1](np.zeros(8, np.float32))


# ---------------------------------------------------------------------------
# add_deq_relu level 0, is_set_mask=False
# ---------------------------------------------------------------------------

@asc.jit
def adr_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress,
               count: asc.ConstExpr[int], repeat: asc.ConstExpr[int], sb: asc.ConstExpr[int],
               sr: asc.ConstExpr[int], cap: asc.ConstExpr[int]):
    xg, yg, zg, wg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    zg.set_global_buffer(z)
    wg.set_global_buffer(w)
    xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, cap * 4, cap)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, cap * 8, cap)
    wl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, cap * 10, 256)
    asc.data_copy(xl, xg, cap)
    asc.data_copy(yl, yg, cap)
    asc.data_copy(zl, zg, cap)
    asc.data_copy(wl, wg, 256)
    asc.set_deq_scale(0.125)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_mask_count()
    asc.set_vector_mask(0, count, dtype=asc.int32, mode=asc.MaskMode.COUNTER)
    asc.add_deq_relu(zl, xl, yl, 1, repeat, asc.BinaryRepeatParams(1, sb, sb, 8, sr, sr), False)
    # the register as the instruction leaves it: normal mode, all ones (128 halves a repeat)
    asc.duplicate(wl, asc.float16(1.0), 128, 1, 1, 8, False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, cap)
    asc.data_copy(xg, xl, cap)
    asc.data_copy(yg, yl, cap)
    asc.data_copy(wg, wl, 256)


def adr_counter_ref(a: np.ndarray, b: np.ndarray, z: np.ndarray, count: int, rep: int, sb: int, sr: int) -> None:
    """AddDeqRelu<false>'s steps in counter mode on copies of the UB tensors, in place: steps 1-6 of the first
    chunk over the count's elements (64 a repeat), later chunks all ones, step 8 all 128 halves."""
    per = rep if rep * 64 <= 2048 else 32
    calc = min(rep * 64, 2048)
    buf = np.zeros(2048 + 64, np.int32)
    af, bh = a.view(np.float32), b.view(np.float16)
    sc = np.float32(np.float16(0.125))
    for c in range(0, (rep + per - 1) // per):
        n = min(per, rep - c * per)
        a0, b0 = c * per * sr * 8, c * per * sr * 16

        def on(r: int, e: int, c: int = c) -> bool:
            return c > 0 or r * 64 + e < count

        for r in range(n):
            for e in range(64):
                if on(r, e):
                    ia = ((c * per + r) * sr + e // 8 * sb) * 8 + e % 8
                    buf[r * 64 + e] = (int(a[ia]) + int(b[ia]) + 2 ** 31) % 2 ** 32 - 2 ** 31
        for r in range(n):
            for e in range(64):
                if on(r, e):
                    g = np.float32(buf[r * 64 + e]) * np.float32(2.0 ** -17)
                    af[a0 + r * 64 + e] = g * sc * np.float32(2.0 ** 17)
        for r in range(n):
            for e in range(64):
                if on(r, e):
                    with np.errstate(over="ignore"):
                        bh[b0 + r * 64 + e] = np.float16(af[a0 + r * 64 + e])
        bufh = buf.view(np.float16)
        bufh[:calc] = 0
        for r in range(n):
            out = []
            for e in range(128):
                t, v = bufh[r * 64 + e], bh[b0 + r * 64 + e]
                out.append(t if (t >= v or t != t) else v)
            for e in range(128):
                z[(((c * per + r) * 8 + e // 16) * 32 + e % 16 * 2) // 2] = out[e]


@pytest.mark.parametrize("count,rep,sb,sr", [(64, 2, 1, 8), (37, 3, 1, 8), (100, 2, 2, 16), (0, 2, 1, 8),
                                             (200, 40, 1, 8)])
def test_add_deq_relu_without_setting_the_mask_in_counter_mode(count: int, rep: int, sb: int, sr: int) -> None:
    rng = rng_for("adr", count, rep, sb, sr)
    cap = max(rep * sr * 8 + 256, rep * 128 + 128, 1024)
    a = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    b = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    z = np.full(cap, 0x5A5A, np.uint16).view(np.float16)
    w = np.full(256, 0x5A5A, np.uint16).view(np.float16)
    wa, wb, wz = a.copy(), b.copy(), z.copy()
    adr_kernel[1](a, b, z, w, count, rep, sb, sr, cap)
    adr_counter_ref(wa, wb, wz, count, rep, sb, sr)
    np.testing.assert_array_equal(z.view(np.uint16), wz.view(np.uint16), err_msg="dst")
    np.testing.assert_array_equal(a, wa, err_msg="src0")
    np.testing.assert_array_equal(b, wb, err_msg="src1")
    ww = np.full(256, 0x5A5A, np.uint16).view(np.float16)
    ww[:128] = 1.0
    np.testing.assert_array_equal(w, ww)


def test_add_deq_relu_counter_past_its_first_chunk_is_a_kernel_error() -> None:
    a = np.zeros(1024, np.int32)
    with pytest.raises(asc.KernelError, match="first chunk"):
        adr_kernel[1](a, a.copy(), np.zeros(1024, np.float16), np.zeros(256, np.float16), 200, 2, 1, 8, 1024)
