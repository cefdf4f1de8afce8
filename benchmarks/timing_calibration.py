"""Calibration of the timing model against the devkit's own measurements.

Runs, on the simulator with the timing model on, kernels written here that
do the work of publicly measured kernels (same shapes, tiles, core counts,
strides, UB layouts and synchronisation), and prints each estimate beside
its reference. Every row is either

  * fitted -- a model parameter was fitted to (part of) this measurement,
    named in the row; its ratio shows how the rest of the model treats it;
  * held out -- nothing was fitted to it: a check (the goal: a ratio within
    0.8-1.25);
  * not modelled -- a mechanism the model does not know decides it (printed,
    not counted as a check).

References (docs/timing.md lists them with the parameters):
  [COPY] devkit examples/01_simd_cpp_api/05_best_practices/04_memory_access/
         data_copy/README.md, Atlas A2/A3 rows: GM->UB scenarios 1-8 (48 vector
         cores) and GM->L1 scenarios 1-7 (24 cube cores), Task Duration;
  [BANK] .../04_memory_access/bank_conflict_ub/README.md: system-counter
         ticks (50 MHz) of 1000 Adds in 8 UB layouts, one core;
  [ADD]  .../00_vector_compute/add_high_performance/README.md: z = x + y,
         8192x8192 half, cases 0-6 on Atlas A2, Task Duration;
  [VEC]  docs/zh/api/附录/Vector指令理论性能汇总.md (elements per cycle);
  [PERF] docs/zh/guide/算子实践参考/性能分析/分析性能数据.md: an MTE2-bound
         operator (350 us at 0.8 TB/s) and the float vector peak, 11.06 TOPS;
  [KFC]  docs/zh/guide/算子实践参考/优秀实践/Matmul性能调优案例/
         Matmul高阶API使能纯Cube模式.md (MIX and pure-Cube Matmul: aic_time,
         scalar time) and Matmul高阶API使能Tiling全量常量化.md (the same
         pure-Cube kernel: aic_time, scalar time, its first MTE2);
  [MMHP] .../01_matrix_compute/matmul_high_performance/README.md, Cases 0
         and 1 (one core, CFG_NORM, depth 1, base 64^3 and 128x256x64): Task
         Duration and aic_scalar/mte2/mte1/mac_time over their K steps;
  [IBSB] docs/zh/guide/算子实践参考/优秀实践/Matmul性能调优案例/
         Matmul高阶API使能IBShare模板共享B矩阵数据.md: a MIX Matmul on one AI
         Core, two clients, before IBShare: aic_time;
  [PY]   upstream pyasc python/test/kernels/test_vadd.py (3.6 us) and
         test_matmul.py (25.5 us), test/all_task_durations_golden.csv.

    python benchmarks/timing_calibration.py           # everything (about a minute)
    python benchmarks/timing_calibration.py --quick   # skips the slowest rows
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

import numpy as np

import asc
import asc.runtime.config as config

PLATFORM = "Ascend910B1"
CLOCK_HZ = 1.85e9
TICK_HZ = 50e6  # the system counter GetSystemCycle reads on Atlas A2


def profiled(launch: Callable[[], None], params: Optional[Dict[str, float]] = None) -> asc.profiler.LaunchProfile:
    with asc.profile(params=params) as prof:
        launch()
    return prof.last


# ---- [COPY] GM -> UB (DataCopyPad, data_copy_ub.h) and GM -> L1 (DataCopy with Nd2NzParams) ------------------
# Each core copies its singleCoreM = M / cores rows tile by tile into one buffer at address 0, with no
# synchronisation (the MTE2 queue runs them in order), then PipeBarrier<PIPE_ALL>. SPLITS x REP: the N direction
# cut into SPLITS slices, each read REP times in a row (scenarios 5 and 6: RepeatCopy).

@asc.jit(sanitize="off")
def copy_ub(src: asc.GlobalAddress, M: asc.ConstExpr[int], N: asc.ConstExpr[int], TM: asc.ConstExpr[int],
            TN: asc.ConstExpr[int], SPLITS: asc.ConstExpr[int], REP: asc.ConstExpr[int]):
    rows = M // asc.get_block_num()
    m0 = asc.get_block_idx() * rows
    g = asc.GlobalTensor()
    g.set_global_buffer(src, M * N)
    ub = asc.LocalTensor(src.dtype, asc.TPosition.VECIN, 0, TM * TN)
    nc = N // SPLITS
    for sp in range(SPLITS):
        for _rep in range(REP):
            for mb in range(rows // TM):
                for nb in range((nc + TN - 1) // TN):
                    ni = nb * TN
                    cols = TN if ni + TN <= nc else nc - ni
                    asc.data_copy_pad(ub, g[(m0 + mb * TM) * N + sp * nc + ni:],
                                      asc.DataCopyParams(TM, cols * 2, (N - cols) * 2, 0),
                                      asc.DataCopyPadParams(False, 0, 0, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit(sanitize="off")
def copy_l1(src: asc.GlobalAddress, M: asc.ConstExpr[int], N: asc.ConstExpr[int], TM: asc.ConstExpr[int],
            TN: asc.ConstExpr[int], SPLITS: asc.ConstExpr[int], REP: asc.ConstExpr[int]):
    rows = M // asc.get_block_num()
    m0 = asc.get_block_idx() * rows
    g = asc.GlobalTensor()
    g.set_global_buffer(src, M * N)
    l1 = asc.LocalTensor(src.dtype, asc.TPosition.A1, 0, TM * TN)
    nc = N // SPLITS
    for sp in range(SPLITS):
        for _rep in range(REP):
            for mb in range(rows // TM):
                for nb in range((nc + TN - 1) // TN):
                    ni = nb * TN
                    cols = TN if ni + TN <= nc else nc - ni
                    asc.data_copy(l1, g[(m0 + mb * TM) * N + sp * nc + ni:],
                                  asc.Nd2NzParams(1, TM, cols, 0, N, (TM + 15) // 16 * 16, 1, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


# scenarios UB 7/8 and L1 6/7: every core reads the whole matrix, its L2 hint off, in the same order (OFFSET 0)
# or each core starting at its own block (OFFSET 1)
@asc.jit(sanitize="off")
def copy_all_ub(src: asc.GlobalAddress, M: asc.ConstExpr[int], N: asc.ConstExpr[int], TM: asc.ConstExpr[int],
                TN: asc.ConstExpr[int], OFFSET: asc.ConstExpr[int]):
    cores = asc.get_block_num()
    rows = M // cores
    g = asc.GlobalTensor()
    g.set_global_buffer(src, M * N)
    g.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    ub = asc.LocalTensor(src.dtype, asc.TPosition.VECIN, 0, TM * TN)
    for mb in range(cores):
        cur = mb
        if OFFSET == 1:
            cur = (mb + asc.get_block_idx()) % cores
        for mt in range(rows // TM):
            for nb in range(N // TN):
                asc.data_copy_pad(ub, g[(cur * rows + mt * TM) * N + nb * TN:],
                                  asc.DataCopyParams(TM, TN * 2, (N - TN) * 2, 0), asc.DataCopyPadParams(False, 0, 0, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit(sanitize="off")
def copy_all_l1(src: asc.GlobalAddress, M: asc.ConstExpr[int], N: asc.ConstExpr[int], TM: asc.ConstExpr[int],
                TN: asc.ConstExpr[int], OFFSET: asc.ConstExpr[int]):
    cores = asc.get_block_num()
    rows = M // cores
    g = asc.GlobalTensor()
    g.set_global_buffer(src, M * N)
    g.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    l1 = asc.LocalTensor(src.dtype, asc.TPosition.A1, 0, TM * TN)
    for mb in range(cores):
        cur = mb
        if OFFSET == 1:
            cur = (mb + asc.get_block_idx()) % cores
        for mt in range(rows // TM):
            for nb in range(N // TN):
                asc.data_copy(l1, g[(cur * rows + mt * TM) * N + nb * TN:],
                              asc.Nd2NzParams(1, TM, TN, 0, N, (TM + 15) // 16 * 16, 1, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


_MATRICES: Dict[int, np.ndarray] = {}


def matrix(n: int) -> np.ndarray:
    """The 12288 x n half input (the contents do not change the timing); one kept at a time."""
    if n not in _MATRICES:
        _MATRICES.clear()
        _MATRICES[n] = np.zeros((12288, n), np.float16)
    return _MATRICES[n]


def run_copy_ub(tm: int, tn: int, n: int = 12288, splits: int = 1, rep: int = 1) -> float:
    x = matrix(n)
    return profiled(lambda: copy_ub[48](x, 12288, n, tm, tn, splits, rep)).duration_us


def run_copy_l1(tm: int, tn: int, n: int = 12288, splits: int = 1, rep: int = 1) -> float:
    x = matrix(n)
    return profiled(lambda: copy_l1[24](x, 12288, n, tm, tn, splits, rep,
                                        kernel_type=asc.KernelType.AIC_ONLY)).duration_us


def run_copy_all(l1: int, offset: int) -> float:
    x = np.zeros((6144, 512), np.float16)
    if l1:
        return profiled(lambda: copy_all_l1[24](x, 6144, 512, 256, 64, offset,
                                                kernel_type=asc.KernelType.AIC_ONLY)).duration_us
    return profiled(lambda: copy_all_ub[48](x, 6144, 512, 128, 64, offset)).duration_us


# ---- [BANK] 1000 Adds of 64 repeats (4096 float) between two PipeBarrier<PIPE_ALL>, timed with GetSystemCycle

@asc.jit(sanitize="off")
def bank_add(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, out: asc.GlobalAddress,
             XA: asc.ConstExpr[int], YA: asc.ConstExpr[int], ZA: asc.ConstExpr[int], S0B: asc.ConstExpr[int],
             S0R: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    og = asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    zg.set_global_buffer(z)
    og.set_global_buffer(out)
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, XA, 4096)
    yl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, YA, 4096)
    zl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, ZA, 4096)
    asc.data_copy(xl, xg, 4096)
    asc.data_copy(yl, yg, 4096)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    before = asc.get_system_cycle()
    for _i in range(1000):
        asc.add(zl, xl, yl, 64, 64, asc.BinaryRepeatParams(1, S0B, 1, 8, S0R, 8))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    after = asc.get_system_cycle()
    og.set_value(0, after - before)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, 4096)


def run_bank(xa: int, ya: int, za: int, s0_blk: int, s0_rep: int) -> float:
    """The 1000 Adds' system-counter ticks, in microseconds."""
    x = np.ones(4096, np.float32)
    z = np.zeros(4096, np.float32)
    out = np.zeros(1, np.int64)
    profiled(lambda: bank_add[1](x, x, z, out, xa, ya, za, s0_blk, s0_rep))
    return float(out[0]) / TICK_HZ * 1e6


# ---- [ADD] z = x + y, 8192 x 8192 half; rows split evenly over the cores (the remainder to the first ones) ------

@asc.jit
def core_rows(M: asc.ConstExpr[int]):
    idx = asc.get_block_idx()
    cores = asc.get_block_num()
    base = M // cores
    rem = M % cores
    rows = base
    first = rem * (base + 1) + (idx - rem) * base
    if idx < rem:
        rows = base + 1
        first = idx * (base + 1)
    return first, rows


@asc.jit(sanitize="off")
def add_single(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, M: asc.ConstExpr[int],
               N: asc.ConstExpr[int], LEN: asc.ConstExpr[int], XA: asc.ConstExpr[int], YA: asc.ConstExpr[int],
               ZA: asc.ConstExpr[int], SCALAR: asc.ConstExpr[int]):
    """Cases 0-3 (Process / ProcessScalar / ProcessSingle): one buffer per operand; the next copy-in waits for
    the add (V_MTE2), the next add for the copy-out (MTE3_V). SCALAR: the add as a GetValue/SetValue loop."""
    first, rows = core_rows(M)
    total = rows * N
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * N, total)
    y_gm.set_global_buffer(y + first * N, total)
    z_gm.set_global_buffer(z + first * N, total)
    x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, XA, LEN)
    y_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, YA, LEN)
    z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, ZA, LEN)
    tiles = (total + LEN - 1) // LEN
    for i in range(tiles):
        at = i * LEN
        cur = LEN if total - at > LEN else total - at
        if i != 0:
            asc.wait_flag(asc.HardEvent.V_MTE2, 0)
        asc.data_copy(x_ub, x_gm[at:], cur)
        asc.data_copy(y_ub, y_gm[at:], cur)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        if i != 0:
            asc.wait_flag(asc.HardEvent.MTE3_V, 0)
        if SCALAR == 1:
            for k in range(cur):
                z_ub.set_value(k, x_ub.get_value(k) + y_ub.get_value(k))
        else:
            asc.add(z_ub, x_ub, y_ub, cur)
        if i != tiles - 1:
            asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[at:], z_ub, cur)
        if i != tiles - 1:
            asc.set_flag(asc.HardEvent.MTE3_V, 0)


@asc.jit(sanitize="off")
def add_double(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, M: asc.ConstExpr[int],
               N: asc.ConstExpr[int], LEN: asc.ConstExpr[int], BYPASS: asc.ConstExpr[int],
               X0: asc.ConstExpr[int], Y0: asc.ConstExpr[int], Z0: asc.ConstExpr[int], X1: asc.ConstExpr[int],
               Y1: asc.ConstExpr[int], Z1: asc.ConstExpr[int]):
    """Cases 4-6 (ProcessDoubleBuffer*): ping-pong buffers at the example's addresses with two event ids;
    BYPASS: x and y read with SetL2CacheHint(CACHE_MODE_DISABLE)."""
    first, rows = core_rows(M)
    total = rows * N
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * N, total)
    y_gm.set_global_buffer(y + first * N, total)
    z_gm.set_global_buffer(z + first * N, total)
    if BYPASS == 1:
        x_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
        y_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    tiles = (total + LEN - 1) // LEN
    asc.set_flag(asc.HardEvent.V_MTE2, 0)
    asc.set_flag(asc.HardEvent.V_MTE2, 1)
    asc.set_flag(asc.HardEvent.MTE3_V, 0)
    asc.set_flag(asc.HardEvent.MTE3_V, 1)
    for i in range(tiles):
        at = i * LEN
        cur = LEN if total - at > LEN else total - at
        ev = i % 2
        x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, X0 + ev * (X1 - X0), LEN)
        y_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, Y0 + ev * (Y1 - Y0), LEN)
        z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, Z0 + ev * (Z1 - Z0), LEN)
        asc.wait_flag(asc.HardEvent.V_MTE2, ev)
        asc.data_copy(x_ub, x_gm[at:], cur)
        asc.data_copy(y_ub, y_gm[at:], cur)
        asc.set_flag(asc.HardEvent.MTE2_V, ev)
        asc.wait_flag(asc.HardEvent.MTE2_V, ev)
        asc.wait_flag(asc.HardEvent.MTE3_V, ev)
        asc.add(z_ub, x_ub, y_ub, cur)
        asc.set_flag(asc.HardEvent.V_MTE2, ev)
        asc.set_flag(asc.HardEvent.V_MTE3, ev)
        asc.wait_flag(asc.HardEvent.V_MTE3, ev)
        asc.data_copy(z_gm[at:], z_ub, cur)
        asc.set_flag(asc.HardEvent.MTE3_V, ev)
    asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.wait_flag(asc.HardEvent.V_MTE2, 1)
    asc.wait_flag(asc.HardEvent.MTE3_V, 0)
    asc.wait_flag(asc.HardEvent.MTE3_V, 1)


_ADD_INPUTS: Dict[str, np.ndarray] = {}
MAX_LEN = 16384 * 2  # bytes: the example's UB slots (MAX_DATA_COPY_LEN halves)
BC_LEN = 16256 * 2   # its bank-conflict-free layout (BANK_CONFLICT_DATA_COPY_LEN)


def run_add(kernel: asc.JITFunction, cores: int, *args: int, rows: int = 8192) -> float:
    n = 8192
    if rows not in [a.shape[0] for a in _ADD_INPUTS.values()]:
        rng = np.random.default_rng(0)
        _ADD_INPUTS["x"] = rng.integers(0, 100, (rows, n)).astype(np.float16)
        _ADD_INPUTS["y"] = rng.integers(0, 100, (rows, n)).astype(np.float16)
    x, y = _ADD_INPUTS["x"], _ADD_INPUTS["y"]
    z = np.zeros_like(x)
    lp = profiled(lambda: kernel[cores](x, y, z, rows, n, *args))
    assert (z == x + y).all()
    return lp.duration_us


# ---- [VEC] / [PERF]: vector rates ------------------------------------------------------------------------------

@asc.jit(sanitize="off")
def vec_rate(out: asc.GlobalAddress, N: asc.ConstExpr[int], OP: asc.ConstExpr[int], REPS: asc.ConstExpr[int]):
    """REPS instructions of N floats (at most 16384): Axpy (OP 0: dst += src * s) or MulAddDst (OP 1: dst +=
    src0 * src1), each operand in its own 64 KiB of the UB (another bank id), src0 256 bytes into its own (other
    bank groups than dst's): no conflict a layout can avoid."""
    og = asc.GlobalTensor()
    og.set_global_buffer(out)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, N)
    s0 = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 65536 + 256, N)
    s1 = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 131072, N)
    asc.duplicate(d, 0.0, N)
    asc.duplicate(s0, 1.0, N)
    asc.duplicate(s1, 1.0, N)
    for _i in range(REPS):
        if OP == 0:
            asc.axpy(d, s0, 1.0, N)
        else:
            asc.mul_add_dst(d, s0, s1, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(og[asc.get_block_idx() * N:], d, N)


def vec_cycles(op: int, n: int = 8192, reps: int = 64, cores: int = 1) -> float:
    """V pipe cycles of the REPS instructions of one core."""
    out = np.zeros(n * cores, np.float32)
    lp = profiled(lambda: vec_rate[cores](out, n, op, reps))
    assert (out == reps).all()
    recs = lp.blocks[0].records
    v = recs[(recs["pipe"] == asc.profiler.data.PIPES.index("V")) & (recs["kind"] == 0)]
    return float((v["end"] - v["start"])[3:].sum())  # the instructions after the three Duplicates


def elems_per_cycle(op: int) -> float:
    """The unit's rate: the cycles an instruction of 8192 elements takes beyond one of 4096 (its fixed issue cost
    cancels out)."""
    reps = 64
    extra = vec_cycles(op, 8192, reps) - vec_cycles(op, 4096, reps)
    return 4096 * reps / extra


def vector_tops() -> float:
    """The chip's float peak as the guide counts it: a multiply and an add per element (Axpy) on each of the 48
    vector cores at the unit's rate, at the model's clock."""
    return 2 * elems_per_cycle(0) * 48 * CLOCK_HZ / 1e12


# ---- [PERF] an MTE2-bound float32 operator over 8192x8192 elements ---------------------------------------------
# It reads every element once (268 MB) and does elementwise vector work on each row (|x|, then a running maximum);
# each core writes one row (1.5 MB); run with the reference part's 0.8 TB/s of GM bandwidth.

@asc.jit
def colmax_abs(x: asc.GlobalAddress, out: asc.GlobalAddress, M: asc.ConstExpr[int], N: asc.ConstExpr[int]):
    first, rows = core_rows(M)
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * N, rows * N)
    o_gm.set_global_buffer(out + asc.get_block_idx() * N, N)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 2)
    q_out = asc.TQue(asc.TPosition.VECOUT, 1)
    acc_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(que=q_in, num=2, len=N * x.dtype.sizeof())
    pipe.init_buffer(que=q_out, num=1, len=N * x.dtype.sizeof())
    pipe.init_buffer(acc_buf, N * x.dtype.sizeof())
    acc = acc_buf.get(x.dtype)
    asc.duplicate(acc, 0.0, N)
    for r in range(rows):
        t = q_in.alloc_tensor(x.dtype)
        asc.data_copy(t, x_gm[r * N:], N)
        q_in.enque(t)
        t = q_in.deque(x.dtype)
        asc.abs(t, t, N)
        asc.max(acc, acc, t, N)
        q_in.free_tensor(t)
    o = q_out.alloc_tensor(x.dtype)
    asc.data_copy(o, acc, N)
    q_out.enque(o)
    o = q_out.deque(x.dtype)
    asc.data_copy(o_gm, o, N)
    q_out.free_tensor(o)


def run_colmax() -> float:
    m = n = 8192
    cores = 48
    x = np.full((m, n), -1.5, dtype=np.float32)
    x[::97, ::13] = 3.0
    out = np.zeros((cores, n), dtype=np.float32)
    lp = profiled(lambda: colmax_abs[cores](x, out, m, n), params={"gm_bandwidth_gbps": 800.0})
    assert (out.max(axis=0) == np.abs(x).max(axis=0)).all()
    return lp.duration_us


# ---- [PY] upstream pyasc test_vadd: 8192 float32, 16 cores, 8 tiles, one buffer, TQue pipeline ------------------

@asc.jit
def vadd_load(tile: int, x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, qx: asc.TQue, qy: asc.TQue,
              TILE: asc.ConstExpr[int]):
    xt = qx.alloc_tensor(x_gm.dtype)
    yt = qy.alloc_tensor(y_gm.dtype)
    asc.data_copy(xt, x_gm[tile * TILE:], count=TILE)
    asc.data_copy(yt, y_gm[tile * TILE:], count=TILE)
    qx.enque(xt)
    qy.enque(yt)


@asc.jit
def vadd_sum(z_gm: asc.GlobalTensor, qx: asc.TQue, qy: asc.TQue, qz: asc.TQue, TILE: asc.ConstExpr[int]):
    xt = qx.deque(z_gm.dtype)
    yt = qy.deque(z_gm.dtype)
    zt = qz.alloc_tensor(z_gm.dtype)
    asc.add(zt, xt, yt, TILE)
    qz.enque(zt)
    qx.free_tensor(xt)
    qy.free_tensor(yt)


@asc.jit
def vadd_store(tile: int, z_gm: asc.GlobalTensor, qz: asc.TQue, TILE: asc.ConstExpr[int]):
    zt = qz.deque(z_gm.dtype)
    asc.data_copy(z_gm[tile * TILE:], zt, count=TILE)
    qz.free_tensor(zt)


@asc.jit
def vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, PER_CORE: asc.ConstExpr[int],
         BUFS: asc.ConstExpr[int], TILE: asc.ConstExpr[int], TILES: asc.ConstExpr[int]):
    base = asc.get_block_idx() * PER_CORE
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + base)
    y_gm.set_global_buffer(y + base)
    z_gm.set_global_buffer(z + base)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, BUFS)
    qy = asc.TQue(asc.TPosition.VECIN, BUFS)
    qz = asc.TQue(asc.TPosition.VECOUT, BUFS)
    pipe.init_buffer(que=qx, num=BUFS, len=TILE * x.dtype.sizeof())
    pipe.init_buffer(que=qy, num=BUFS, len=TILE * y.dtype.sizeof())
    pipe.init_buffer(que=qz, num=BUFS, len=TILE * z.dtype.sizeof())
    for t in range(TILES):
        vadd_load(t, x_gm, y_gm, qx, qy, TILE)
        vadd_sum(z_gm, qx, qy, qz, TILE)
        vadd_store(t, z_gm, qz, TILE)


def run_vadd() -> float:
    n, cores, tiles = 8192, 16, 8
    rng = np.random.default_rng(2025)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.zeros_like(x)
    per_core = (n + cores - 1) // cores
    tile = (per_core + tiles - 1) // tiles
    lp = profiled(lambda: vadd[cores](x, y, z, per_core, 1, tile, tiles))
    np.testing.assert_allclose(z, x + y)
    return lp.duration_us


# ---- [PY] upstream pyasc test_matmul: C = leaky_relu(A B + bias), 256^3 float32, MIX on 16 AI Cores ---------------
# Each AI Core's two vector cores ask for the same 64 x 64 block of C (upstream's offsets use GetBlockIdx modulo
# the cores used), over all of K in 64 x 64 x 64 base blocks, each block through a UB tensor (get_tensor_c to
# VECCALC), leaky_relu on the vector core and a strided copy out.

@asc.jit
def mm_block_of(tiling: asc.adv.TCubeTiling):
    idx = asc.get_block_idx()
    per_k = tiling.k_a.ceildiv(tiling.single_core_k)
    blocks = tiling.used_core_num // per_k
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    mi = (idx % blocks) % m_blocks
    ni = (idx % blocks) // m_blocks
    return (mi * tiling.k_a * tiling.single_core_m, ni * tiling.single_core_n,
            mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n, ni * tiling.single_core_n)


# both vector cores of an AI Core write the same values to the same place: the sanitizer's report of it would be
# upstream's kernel's, not the model's
@asc.jit(sanitize="off")
def mm_leaky(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, alpha: float,
             tiling: asc.adv.TCubeTiling, bias: asc.GlobalAddress, workspace: asc.GlobalAddress):
    oa, ob, oc, obias = mm_block_of(tiling)
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a + oa)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b + ob)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + oc)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias + obias)
    block = tiling.base_m * tiling.base_n
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=q, num=2, len=block * c.dtype.sizeof())
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_g.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm)
    mm.init(tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.set_bias(bias_g)
    with mm.iterate() as count:
        out = q.alloc_tensor(c.dtype)
        mm.get_tensor_c(out, en_sequential_write=True)
        asc.leaky_relu(out, out, alpha, count=block)
        q.enque(out)
        out = q.deque(c.dtype)
        rows = tiling.single_core_m // tiling.base_m
        at = count % rows * tiling.base_m * tiling.n + count // rows * tiling.base_n
        asc.data_copy(c_g[at:], out, repeat_params=asc.DataCopyParams(
            block_count=tiling.base_m, block_len=tiling.base_n * c.dtype.sizeof() // 32, src_stride=0,
            dst_stride=(tiling.n - tiling.base_n) * c.dtype.sizeof() // 32))
        q.free_tensor(out)
    mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def run_matmul() -> float:
    m = n = k = 256
    base = 64
    rng = np.random.default_rng(2025)
    a = (rng.random((m, k), dtype=np.float32) - 0.5) * 10
    b = (rng.random((k, n), dtype=np.float32) - 0.5) * 10
    bias = (rng.random((1, n), dtype=np.float32) - 0.5) * 10
    cores = (m // base) * (n // base)
    tiling = asc.adv.TCubeTiling(used_core_num=cores, m=m, n=n, k_a=k, k_b=k, base_m=base, base_n=base,
                                 base_k=base, single_core_m=base, single_core_n=base, single_core_k=k, depth_a1=1,
                                 depth_b1=1, step_m=1, step_n=1, share_mode=0, is_bias=1)
    c = np.empty((m, n), np.float32)
    lp = profiled(lambda: mm_leaky[cores, None](a, b, c, 0.01, tiling, bias, np.zeros(1024, np.uint8)))
    want = a @ b + bias
    np.testing.assert_allclose(c, np.where(want >= 0, want, want * 0.01), atol=1e-3)
    return lp.duration_us


# ---- [KFC] the devkit guide's Matmul pure-Cube-mode case: M 128, N 30720, K 64 half, C = A B in GM -------------
# MIX: 24 AI Cores, each vector core a client computing 128 x 640 (3 base blocks of 128 x 256 x 64, IterateAll);
# pure Cube (AIC_ONLY): 24 cube cores, 128 x 1280 each (5 blocks). The guide gives neither C's type nor the kernel;
# C is taken as half here (the inputs' type) and the kernel as the devkit's Matmul sample (Init, SetTensorA,
# SetTensorB, IterateAll, End). References: the slowest AI Core's aic_time and the cube cores' mean scalar time
# (Matmul高阶API使能纯Cube模式); the same pure-Cube kernel with its tiling read at run time (the devkit's
# matmul_constant_tiling sample before its optimisation, Matmul高阶API使能Tiling全量常量化): aic_time 10.62 us,
# scalar time 6.32 us, its first MTE2 at 3.536 us in the simulated pipeline.

@asc.jit(sanitize="off")
def mm_gm(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
          workspace: asc.GlobalAddress):
    idx = asc.get_block_idx()
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b + idx * tiling.single_core_n)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + idx * tiling.single_core_n)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.disable_bias()
    mm.iterate_all(c_g)
    mm.end()


_KFC: Dict[bool, asc.profiler.LaunchProfile] = {}


def cube_mode(mix: bool) -> asc.profiler.LaunchProfile:
    """The MIX or the pure-Cube launch's profile (each run once)."""
    if mix not in _KFC:
        _KFC[mix] = run_cube_mode(mix)
    return _KFC[mix]


def us(cycles: float) -> float:
    return cycles / CLOCK_HZ * 1e6


def kfc_time(mix: bool) -> float:
    """The slowest block's time (aic_time: in MIX the slowest client stands for its server, which ends with it)."""
    return us(max(blk.cycles for blk in cube_mode(mix).blocks))


def kfc_server_scalar() -> float:
    """The MIX cube core's scalar time: its server polls its clients' queues between messages
    (KfcServer::Run), so its scalar unit is busy from its start-up's end to its own end."""
    lp = cube_mode(True)
    return kfc_time(True) - us(lp.block_start_cycles)


def kfc_cube_scalar() -> float:
    """The pure-Cube core's scalar-unit busy time (the slowest block's)."""
    lp = cube_mode(False)
    slow = max(range(len(lp.blocks)), key=lambda i: lp.blocks[i].cycles)
    return us(lp.blocks[slow].busy.get("S", 0))


def kfc_first_mte2() -> float:
    """When the pure-Cube core's first MTE2 copy starts."""
    r = cube_mode(False).blocks[0].records
    ops = r[(r["pipe"] == asc.profiler.data.PIPES.index("MTE2")) & (r["kind"] == asc.profiler.data.KINDS.index("op"))]
    return us(float(ops["start"].min()))


def run_cube_mode(mix: bool) -> asc.profiler.LaunchProfile:
    m, n, k = 128, 30720, 64
    single_n = 640 if mix else 1280
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    t = asc.adv.TCubeTiling(used_core_num=n // single_n, m=m, n=n, k_a=k, k_b=k, base_m=128, base_n=256, base_k=64,
                            single_core_m=m, single_core_n=single_n, single_core_k=k, depth_a1=8, depth_b1=8,
                            step_m=1, step_n=1, step_k_a=4, step_k_b=4, share_mode=0, is_bias=0)
    kt = asc.KernelType.MIX_AIC_1_2 if mix else asc.KernelType.AIC_ONLY
    lp = profiled(lambda: mm_gm[24, None](a, b, c, t, np.zeros(1024, np.uint8), kernel_type=kt))
    np.testing.assert_allclose(c.astype(np.float32), a.astype(np.float32) @ b.astype(np.float32), rtol=2e-3)
    return lp


# ---- [MMHP] the devkit's matmul_high_performance Cases 0 and 1: one cube core, CFG_NORM, depth 1 -----------------
# C = A B^T, 8192^3 half (B stored N x K), pure Cube (ASCENDC_CUBE_ONLY), IterateAll, no bias; SetL1 sets depthA1 =
# depthB1 = 1 and every step to 1 (test_matmul's L1 tiling). Case 0: base 64 x 64 x 64, each K step the A and B
# tiles' GM -> L1 copies (64 rows of 128 B each), their loads, one Mmad; 128 x 128 blocks x 128 K steps. Case 1: base
# 128 x 256 x 64 (copies of 128 and 256 rows of 128 B); 64 x 32 blocks x 128 K steps. The measured times over the
# case's K steps are a K step's, each with 1/128 of its block's own work (its Fixpipe, ...). Every block reads rows
# of A and B that earlier blocks read (A's 128 MiB stays in the 192 MiB L2 as the blocks sweep over it): L2 hits.
# Simulated: one block with K = 8192 (128 K steps), IterateAll twice; the second call's block (its reads L2 hits)
# over its 128 K steps is the estimate: the launch, the start-up and the Matmul's Init are the first call's.

MMHP_CASES = {0: (64, 64, 128 * 128 * 128), 1: (128, 256, 64 * 32 * 128)}  # base M, base N, K steps of the case
MMHP_MEASURED = {  # us over the whole case: Task Duration, aic_scalar_time, aic_mte2_time, aic_mte1_time, aic_mac_time
    0: {"T": 759363.98, "S": 508787.509, "MTE2": 582515.828, "MTE1": 162104.184, "M": 141699.459},
    1: {"T": 249467.08, "S": 63608.818, "MTE2": 195613.432, "MTE1": 52003.703, "M": 81477.188},
}


@asc.jit(sanitize="off")
def mm_mmhp(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
            workspace: asc.GlobalAddress, CALLS: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g, True)
    mm.disable_bias()
    for _i in range(CALLS):
        mm.iterate_all(c_g)
    mm.end()


_MMHP: Dict[tuple, Dict[str, float]] = {}


def mmhp_run(case: int, calls: int, k: int = 8192) -> Dict[str, float]:
    """Block 0's time ("T") and pipe busy cycles of the case's one block, IterateAll called `calls` times."""
    if (case, calls) not in _MMHP:
        bm, bn, _ = MMHP_CASES[case]
        rng = np.random.default_rng(0)
        a = rng.integers(-2, 2, (bm, k)).astype(np.float16)
        b = rng.integers(-2, 2, (bn, k)).astype(np.float16)
        c = np.zeros((bm, bn), np.float16)
        t = asc.adv.TCubeTiling(used_core_num=1, m=bm, n=bn, k_a=k, k_b=k, base_m=bm, base_n=bn, base_k=64,
                                single_core_m=bm, single_core_n=bn, single_core_k=k, depth_a1=1, depth_b1=1,
                                step_m=1, step_n=1, step_k_a=1, step_k_b=1, share_mode=0, is_bias=0)
        lp = profiled(lambda: mm_mmhp[1, None](a, b, c, t, np.zeros(1024, np.uint8), calls,
                                               kernel_type=asc.KernelType.AIC_ONLY))
        np.testing.assert_allclose(c.astype(np.float32), a.astype(np.float32) @ b.astype(np.float32).T, rtol=2e-3)
        busy = {r["pipe"]: float(r["busy_cycles"]) for r in lp.pipe_table(per_block=True) if r["block"] == 0}
        busy["T"] = float(lp.blocks[0].cycles)
        _MMHP[(case, calls)] = busy
    return _MMHP[(case, calls)]


def mmhp_kstep(case: int, what: str) -> float:
    """The case's second IterateAll: its block's time or a pipe's busy time over its 128 K steps (us)."""
    return us(mmhp_run(case, 2).get(what, 0) - mmhp_run(case, 1).get(what, 0)) / 128


def mmhp_points() -> List[Point]:
    roles = {(0, "S"): "fitted: mm_instr_cycles, mm_block_cycles (with [KFC]'s pure-Cube scalar time)",
             (0, "MTE1"): "fitted: cube_load_issue_cycles, cube_load_bytes_per_cycle (with Case 1's)",
             (1, "MTE1"): "fitted: cube_load_issue_cycles, cube_load_bytes_per_cycle (with Case 0's)",
             (0, "M"): "fitted: cube_mmad_issue_cycles",
             (0, "MTE2"): "fitted: l2_read_latency, dma_burst_min_cycles (with Case 1's)",
             (1, "MTE2"): "fitted: l2_read_latency, dma_burst_min_cycles (with Case 0's)"}
    names = {"T": "Task Duration", "S": "aic_scalar_time", "MTE2": "aic_mte2_time", "MTE1": "aic_mte1_time",
             "M": "aic_mac_time"}
    what = {0: "base 64^3", 1: "base 128x256x64"}
    out = []
    for case in (0, 1):
        for key in ("T", "S", "MTE2", "MTE1", "M"):
            out.append(Point(f"Case {case} ({what[case]}): {names[key]} a K step",
                             (lambda c=case, k=key: mmhp_kstep(c, k)),
                             MMHP_MEASURED[case][key] / MMHP_CASES[case][2], roles.get((case, key), "held out")))
    return out


# ---- [IBSB] the guide's IBShare-B case before IBShare: a MIX Matmul, one AI Core, its two vector cores clients ----
# M 64, N 256, K 384 half, C float in GM; each vector core (GetBlockIdx 0, 1) 32 x 256 (singleCoreM 32, one base block
# of 32 x 256 x 64, 6 K steps), B the same for both; CFG_NORM; REGIST_MATMUL_OBJ with the tiling, SetTensorA/B,
# IterateAll, End (the devkit's matmul_ibshareB sample). The page's part has 20 AI Cores (the model's parameters are
# one table for Atlas A2/A3). Reference: aic_time 10.29 us before IBShare. The tiling's depths are not given: 6 (all of
# K in L1 for each operand).

@asc.jit(sanitize="off")
def mm_ibshare(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               workspace: asc.GlobalAddress):
    idx = asc.get_block_idx()
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a + idx * tiling.single_core_m * tiling.k_a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + idx * tiling.single_core_m * tiling.n)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.disable_bias()
    mm.iterate_all(c_g)
    mm.end()


def run_ibshare() -> float:
    """aic_time: the slowest block's time (a client's, which ends when its server has handled the last Quit)."""
    m, n, k = 64, 256, 384
    rng = np.random.default_rng(0)
    a = rng.integers(-2, 2, (m, k)).astype(np.float16)
    b = rng.integers(-2, 2, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    t = asc.adv.TCubeTiling(used_core_num=2, m=m, n=n, k_a=k, k_b=k, base_m=32, base_n=256, base_k=64,
                            single_core_m=32, single_core_n=256, single_core_k=k, depth_a1=6, depth_b1=6,
                            step_m=1, step_n=1, step_k_a=1, step_k_b=1, share_mode=0, is_bias=0)
    lp = profiled(lambda: mm_ibshare[1, None](a, b, c, t, np.zeros(1024, np.uint8),
                                              kernel_type=asc.KernelType.MIX_AIC_1_2))
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32))
    return us(max(blk.cycles for blk in lp.blocks))


# ---- the table ---------------------------------------------------------------------------------------------------

@dataclass
class Point:
    name: str
    run: Callable[[], float]
    reference: float
    role: str  # "held out", "fitted: <parameter(s)>", or "not modelled: <mechanism>"
    unit: str = "us"
    slow: bool = False


def points() -> Dict[str, List[Point]]:
    ub = "[COPY] GM->UB, 48 vector cores, 12288 x 12288 half, Task Duration"
    l1 = "[COPY] GM->L1 (Nd2Nz), 24 cube cores, 12288 x 12288 half, Task Duration"
    same = "[COPY] every core reads all of a 6144 x 512 half matrix, L2 hint off, Task Duration"
    bank = "[BANK] 1000 Adds of 64 repeats (4096 float) on one core: the counter's ticks, in us"
    add = "[ADD] z = x + y, 8192 x 8192 half, Atlas A2, Task Duration"
    other = "[VEC], [PERF], [PY]"
    kfc = "[KFC] Matmul 128 x 30720 x 64 half on 24 AI Cores, the guide's pure-Cube-mode case"
    mmhp = "[MMHP] Matmul 8192^3 half on one cube core, CFG_NORM, depth 1 (matmul_high_performance), per K step"
    ibsb = "[IBSB] MIX Matmul 64 x 256 x 384 half, one AI Core, two clients (the guide's IBShare-B case, before)"
    # the bank_conflict_ub scenarios: src0, src1, dst UB addresses, src0 block and repeat strides, ticks
    banks = [(0, 0x10100, 0x20000, 1, 8, 2390), (0, 0x4000, 0x10000, 1, 8, 4167), (0, 0x10000, 0x14100, 1, 8, 4167),
             (0, 0x10100, 0x4000, 1, 8, 2389), (0, 0x10100, 0x4020, 1, 8, 3751), (0, 0x10100, 0x10100, 1, 8, 2390),
             (0, 0x10100, 0x10100, 0, 1, 3584), (0, 0x10100, 0x10100, 0, 8, 2389)]
    bank_role = {1: "fitted: vec_issue_cycles", 5: "fitted: ub_rw_conflict_cycles"}
    bank_what = {1: "no conflict", 2: "src0/src1 one bank: read-read", 3: "src0/src1 one bank group: read-read",
                 4: "src0/dst one bank, aligned: write delayed", 5: "src0/dst banks overlap: read-write",
                 6: "src1 = dst", 7: "src0 block stride 0, repeat stride 1", 8: "src0 block stride 0, repeat 8"}
    return {
        ub: [
            Point("1: tile [1,64], 128 B a copy", lambda: run_copy_ub(1, 64), 564.84,
                  "fitted: dma_issue_cycles (its aiv_mte2_time per copy)", slow=True),
            Point("2: tile [64,64], 64 bursts of 128 B", lambda: run_copy_ub(64, 64), 233.54, "held out"),
            Point("3: tile [64,1024], 64 bursts of 2 KiB", lambda: run_copy_ub(64, 1024), 215.82,
                  "fitted: gm_efficiency (aiv_mte2_time), block_start_per_core_cycles (aiv_total_cycles)"),
            Point("4: N = 12287: misaligned rows", lambda: run_copy_ub(64, 1024, n=12287), 275.3, "held out"),
            Point("5: the matrix 4 times (L2 hit rate 0.005%)", lambda: run_copy_ub(64, 1024, rep=4), 828.06,
                  "held out"),
            Point("6: 4 slices of N, each 4 times (L2 hit rate 75%)", lambda: run_copy_ub(64, 1024, 12288, 4, 4),
                  365.74, "held out"),
        ],
        l1: [
            Point("1: tile [64,64], 64 rows of 128 B", lambda: run_copy_l1(64, 64), 300.7,
                  "fitted: dma_burst_cycles (its aic_mte2_time per copy)"),
            Point("2: tile [64,256], 64 rows of 512 B", lambda: run_copy_l1(64, 256), 230.24, "held out"),
            Point("3: N = 12287: misaligned rows", lambda: run_copy_l1(64, 256, n=12287), 438.76, "held out"),
            Point("4: the matrix 4 times (L2 hit rate 0.006%)", lambda: run_copy_l1(64, 1024, rep=4), 899.34,
                  "held out"),
            Point("5: 4 slices of N, each 4 times (L2 hit rate 75%)", lambda: run_copy_l1(64, 1024, 12288, 4, 4),
                  414.96, "held out"),
        ],
        same: [
            Point("UB 7: all cores in the same order", lambda: run_copy_all(0, 0), 539.42,
                  "not modelled: same-address serialisation between cores"),
            Point("UB 8: each core from its own block", lambda: run_copy_all(0, 1), 328.88,
                  "not modelled: same-address serialisation between cores"),
            Point("L1 6: all cores in the same order", lambda: run_copy_all(1, 0), 278.56,
                  "not modelled: same-address serialisation between cores"),
            Point("L1 7: each core from its own block", lambda: run_copy_all(1, 1), 221.34,
                  "not modelled: same-address serialisation between cores"),
        ],
        bank: [Point(f"{i}: {bank_what[i]}", (lambda s=s: run_bank(*s[:5])), s[5] / TICK_HZ * 1e6,
                     bank_role.get(i, "held out")) for i, s in enumerate(banks, 1)],
        add: [
            Point("0: 1 core, scalar loop (8 of 8192 rows; reference scaled)",
                  lambda: run_add(add_single, 1, 4096, 0, MAX_LEN, 2 * MAX_LEN, 1, rows=8),
                  (1239689.1 - 0.47) * 8 / 8192 + 0.47, "fitted: scalar_ub_cycles, launch_base_us"),
            Point("1: 1 core, 4096-element tiles", lambda: run_add(add_single, 1, 4096, 0, MAX_LEN, 2 * MAX_LEN, 0),
                  6909.6, "fitted: gm_read/write_latency, issue_cycles, launch_base_us"),
            Point("2: 48 cores, 4096-element tiles",
                  lambda: run_add(add_single, 48, 4096, 0, MAX_LEN, 2 * MAX_LEN, 0), 306.58, "held out"),
            Point("3: 48 cores, 16384-element tiles",
                  lambda: run_add(add_single, 48, 16384, 0, MAX_LEN, 2 * MAX_LEN, 0), 268.5, "held out"),
            Point("4: double buffer", lambda: run_add(add_double, 48, 16384, 0, 0, MAX_LEN, 2 * MAX_LEN,
                                                      3 * MAX_LEN, 4 * MAX_LEN, 5 * MAX_LEN), 264.02, "held out"),
            Point("5: + L2 bypass of x and y", lambda: run_add(add_double, 48, 16384, 1, 0, MAX_LEN, 2 * MAX_LEN,
                                                               3 * MAX_LEN, 4 * MAX_LEN, 5 * MAX_LEN), 187.68,
                  "fitted: launch_per_core_us (Task Duration - aiv_time)"),
            Point("6: + bank-conflict-free UB layout", lambda: run_add(add_double, 48, 16256, 1, 0, BC_LEN,
                                                                       4 * MAX_LEN, 2 * MAX_LEN,
                                                                       2 * MAX_LEN + BC_LEN, 4 * MAX_LEN + BC_LEN),
                  184.52, "held out"),
        ],
        kfc: [
            Point("MIX: 48 vector-core clients, 3 blocks each: aic_time", lambda: kfc_time(True), 17.85,
                  "fitted: mix_message_cycles (its aic_time)"),
            Point("MIX: the cube core's scalar time (it polls: its time after start-up)", kfc_server_scalar, 15.02,
                  "held out"),
            Point("pure Cube: 24 cube cores, 5 blocks each: aic_time", lambda: kfc_time(False), 11.21, "held out"),
            Point("pure Cube: the same, tiling read at run time (Tiling page): aic_time", lambda: kfc_time(False),
                  10.62, "held out"),
            Point("pure Cube (Tiling page): the first MTE2 copy starts", kfc_first_mte2, 3.536, "held out"),
            Point("pure Cube: the cube core's scalar time", kfc_cube_scalar, 5.17,
                  "fitted: mm_instr_cycles, mm_block_cycles (with [MMHP] Case 0's)"),
            Point("pure Cube (Tiling page): the cube core's scalar time", kfc_cube_scalar, 6.32, "held out"),
        ],
        mmhp: mmhp_points(),
        ibsb: [Point("aic_time (2 x 6 K steps of 32 x 256 x 64, IterateAll)", run_ibshare, 10.29,
                     "not modelled: L2 reuse between the clients (one B)")],
        other: [
            Point("[VEC] Axpy float: elements per cycle", lambda: elems_per_cycle(0), 64.0, "held out", "elem/c"),
            Point("[VEC] MulAddDst float (three reads a repeat): elements per cycle", lambda: elems_per_cycle(1),
                  32.0, "held out", "elem/c"),
            Point("[PERF] float vector peak: 48 cores x Axpy rate x 2 ops x clock", vector_tops, 11.06, "held out", "TOPS"),
            Point("[PERF] MTE2-bound f32 8192x8192 at 0.8 TB/s, 48 cores", run_colmax, 350.0, "held out"),
            Point("[PY] test_vadd (8192 f32, 16 cores, 8 tiles, 1 buffer)", run_vadd, 3.6, "held out"),
            Point("[PY] test_matmul (256^3 f32 + bias, leaky_relu, MIX, 16 AI Cores)", run_matmul, 25.5,
                  "held out"),
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest rows (data_copy UB scenario 1)")
    args = parser.parse_args()
    config.set_platform(config.Backend.Model, config.Platform(PLATFORM))
    t0 = time.perf_counter()
    held: List[float] = []
    print(f"Timing model vs. the devkit's measurements ({PLATFORM}; references: docs/timing.md)")
    for title, rows in points().items():
        print()
        print(title)
        print(f"  {'kernel':<68}{'estimate':>10}{'reference':>11}{'ratio':>7}  role")
        for p in rows:
            if p.slow and args.quick:
                print(f"  {p.name:<68}{'(skipped: --quick)':>28}  {p.role}")
                continue
            est = p.run()
            ratio = est / p.reference
            if p.role == "held out":
                held.append(ratio)
            flag = "" if p.role != "held out" or 0.8 <= ratio <= 1.25 else "  <-- outside 0.8-1.25"
            print(f"  {p.name:<68}{est:>10.2f}{p.reference:>11.2f}{ratio:>7.2f}  {p.role} ({p.unit}){flag}")
    inside = sum(0.8 <= r <= 1.25 for r in held)
    print()
    print(f"held-out points: {len(held)}, within 0.8-1.25: {inside}; ratio range "
          f"{min(held):.2f}-{max(held):.2f}; run time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
