"""Calibration of the timing model against measurements on real hardware.

Runs, on the simulator with the timing model on, kernels that reproduce
publicly reported measurements on Ascend910B-class NPUs (Atlas A2), and
prints each estimate beside its reference and their ratio. The kernels are
written here; the references are cited in docs/timing.md.

References (the goal: every ratio within 0.75-1.25):
  * upstream pyasc's python/test/kernels/test_vadd.py: 8192 float32
    elements, 16 cores, 8 tiles, one buffer: task duration 3.6 us;
  * upstream pyasc's python/test/kernels/test_matmul.py: 256^3 float32
    with bias and leaky_relu on 16 cores, 25.5 us (upstream's
    test/all_task_durations_golden.csv); held out, nothing fitted to it;
  * the devkit performance guide's example: an MTE2-bound float32 operator
    reading 8192x8192 elements, 350 us on a part with 0.8 TB/s of GM
    bandwidth (335.5 us theoretical).
Further public measurements, from which several of the model's parameters
are derived (the devkit's add_high_performance example, 8192x8192 half on
Atlas A2), are printed after them.

    python benchmarks/timing_calibration.py            # all
    python benchmarks/timing_calibration.py --quick    # the references only
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

import asc
import asc.runtime.config as config

PLATFORM = "Ascend910B1"


# ---- upstream pyasc test_vadd: the same work, written with our API --------------------------

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


def run_vadd(params: Optional[Dict[str, float]] = None) -> asc.profiler.LaunchProfile:
    n, cores, tiles = 8192, 16, 8
    rng = np.random.default_rng(2025)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.zeros_like(x)
    per_core = (n + cores - 1) // cores
    tile = (per_core + tiles - 1) // tiles
    with asc.profile(params=params) as prof:
        vadd[cores](x, y, z, per_core, 1, tile, tiles)
    np.testing.assert_allclose(z, x + y)
    return prof.last


# ---- upstream pyasc test_matmul: the same work, written with our API ---------------------
# C = leaky_relu(A B + bias) for 256 x 256 x 256 float32 on a MIX kernel: 16 AI Cores, each a 64 x 64 block of
# C over all of K in base blocks of 64 x 64 x 64 (the tiling given by hand, as the test gives it), each block
# through a UB tensor (get_tensor_c to VECCALC), leaky_relu on the vector core and a strided copy out. Its
# 25.5 us is upstream's golden task duration (test/all_task_durations_golden.csv, read by
# test/run_presmoke_npu_test.sh). A held-out point: no parameter is fitted to it; the cube costs are the
# devkit's theoretical M / MTE1 / FIX rates (docs/zh/api/附录/Cube指令理论性能汇总.md) and the copies the
# platform's bandwidths.

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


# both vector cores of an AI Core are clients computing the same block (upstream's kernel offsets by
# GetBlockIdx modulo the cores used), so their copies out write the same values to the same place: the
# sanitizer's report of it is upstream's, not the model's
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


def run_matmul() -> asc.profiler.LaunchProfile:
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
    with asc.profile() as prof:
        mm_leaky[cores, None](a, b, c, 0.01, tiling, bias, np.zeros(1024, np.uint8))
    want = a @ b + bias
    np.testing.assert_allclose(c, np.where(want >= 0, want, want * 0.01), atol=1e-3)
    return prof.last


# ---- rows of a matrix split over the cores, remainder rows to the first cores -------------

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


# ---- an MTE2-bound float32 operator over 8192x8192 elements ------------------------------
# It reads every element once (MTE2: 268 MB) and does elementwise vector work on each row
# (|x|, then a running elementwise max); each core writes one row of results (MTE3: 1.5 MB).

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


def run_colmax(cores: int = 48) -> asc.profiler.LaunchProfile:
    m = n = 8192
    x = np.full((m, n), -1.5, dtype=np.float32)
    x[::97, ::13] = 3.0
    out = np.zeros((cores, n), dtype=np.float32)
    # the reference part's GM bandwidth; every other parameter is the Atlas A2 core's
    with asc.profile(params={"gm_bandwidth_gbps": 800.0}) as prof:
        colmax_abs[cores](x, out, m, n)
    assert (out.max(axis=0) == np.abs(x).max(axis=0)).all()
    return prof.last


# ---- the devkit's add_high_performance example (8192x8192 half), cases 1-4 ----------------

@asc.jit
def add_single(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, M: asc.ConstExpr[int],
               N: asc.ConstExpr[int], LEN: asc.ConstExpr[int]):
    """One buffer per operand: copy in, add, copy out; the next copy-in waits for the add."""
    first, rows = core_rows(M)
    total = rows * N
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * N, total)
    y_gm.set_global_buffer(y + first * N, total)
    z_gm.set_global_buffer(z + first * N, total)
    size = x.dtype.sizeof()
    x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, LEN)
    y_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, LEN * size, LEN)
    z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * LEN * size, LEN)
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
        asc.add(z_ub, x_ub, y_ub, cur)
        if i != tiles - 1:
            asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[at:], z_ub, cur)
        if i != tiles - 1:
            asc.set_flag(asc.HardEvent.MTE3_V, 0)


@asc.jit
def add_double(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, M: asc.ConstExpr[int],
               N: asc.ConstExpr[int], LEN: asc.ConstExpr[int]):
    """Ping-pong buffers: the copies of one tile overlap the add of the other."""
    first, rows = core_rows(M)
    total = rows * N
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * N, total)
    y_gm.set_global_buffer(y + first * N, total)
    z_gm.set_global_buffer(z + first * N, total)
    size = x.dtype.sizeof()
    tiles = (total + LEN - 1) // LEN
    asc.set_flag(asc.HardEvent.V_MTE2, 0)
    asc.set_flag(asc.HardEvent.V_MTE2, 1)
    asc.set_flag(asc.HardEvent.MTE3_V, 0)
    asc.set_flag(asc.HardEvent.MTE3_V, 1)
    for i in range(tiles):
        at = i * LEN
        cur = LEN if total - at > LEN else total - at
        ev = i % 2
        x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, (3 * ev) * LEN * size, LEN)
        y_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, (3 * ev + 1) * LEN * size, LEN)
        z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, (3 * ev + 2) * LEN * size, LEN)
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


def run_add_case(kernel: Any, cores: int, length: int) -> asc.profiler.LaunchProfile:
    m = n = 8192
    if not _ADD_INPUTS:
        rng = np.random.default_rng(0)
        _ADD_INPUTS["x"] = rng.integers(0, 100, (m, n)).astype(np.float16)
        _ADD_INPUTS["y"] = rng.integers(0, 100, (m, n)).astype(np.float16)
    x, y = _ADD_INPUTS["x"], _ADD_INPUTS["y"]
    z = np.zeros_like(x)
    with asc.profile() as prof:
        kernel[cores](x, y, z, m, n, length)
    assert (z == x + y).all()
    return prof.last


# ---- the table ----------------------------------------------------------------------------

Row = Tuple[str, Optional[float], float, str]


def measure(fn: Callable[[], asc.profiler.LaunchProfile]) -> Tuple[asc.profiler.LaunchProfile, float]:
    t0 = time.perf_counter()
    lp = fn()
    return lp, time.perf_counter() - t0


def print_table(title: str, rows: List[Row]) -> None:
    print(title)
    print(f"  {'kernel':<64}{'estimate us':>30}{'reference us':>14}{'ratio':>8}")
    for name, est, ref, note in rows:
        if est is None:
            print(f"  {name:<64}{note:>30}{ref:>14.1f}{'n/a':>8}")
        else:
            print(f"  {name:<64}{est:>30.2f}{ref:>14.1f}{est / ref:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the three references only")
    parser.add_argument("-v", action="store_true", help="print each launch's profile")
    args = parser.parse_args()
    config.set_platform(config.Backend.Model, config.Platform(PLATFORM))
    refs: List[Row] = []
    lp, secs = measure(run_vadd)
    if args.v:
        print(lp)
    refs.append(("pyasc test_vadd (8192 f32, 16 cores, 8 tiles, 1 buffer)", lp.duration_us, 3.6, ""))
    lp, secs = measure(run_matmul)
    if args.v:
        print(lp)
    refs.append(("pyasc test_matmul (256^3 f32 + bias, leaky_relu, 16 cores; held out)", lp.duration_us, 25.5,
                 ""))
    unfitted = run_vadd({"block_start_cycles": 0.0}).duration_us
    lp, secs = measure(run_colmax)
    if args.v:
        print(lp)
    refs.append(("devkit guide: MTE2-bound f32 8192x8192, 0.8 TB/s, 48 cores", lp.duration_us, 350.0, ""))
    print_table(f"Timing model vs. hardware ({PLATFORM}; references: docs/timing.md)", refs)
    print(f"  (test_vadd is also what the block start-up parameter is fitted to; without it: {unfitted:.2f} us,"
          f" ratio {unfitted / 3.6:.2f})")
    if args.quick:
        return
    extra: List[Row] = []
    cases = [("1: 1 core, 4096-element tiles", add_single, 1, 4096, 6909.6),
             ("2: 48 cores, 4096-element tiles", add_single, 48, 4096, 306.58),
             ("3: 48 cores, 16384-element tiles", add_single, 48, 16384, 268.5),
             ("4: 48 cores, 16384, double buffer", add_double, 48, 16384, 264.02)]
    for name, kernel, cores, length, ref in cases:
        lp, secs = measure(lambda k=kernel, c=cores, n=length: run_add_case(k, c, n))
        if args.v:
            print(lp)
        extra.append((f"devkit Add f16 8192x8192, case {name}", lp.duration_us, ref, ""))
    print()
    print_table("Further public measurements (the devkit's add_high_performance example, Atlas A2; "
                "the latencies are fitted to case 1)", extra)


if __name__ == "__main__":
    main()
