"""Simulating a matmul against NumPy computing it, measured in one run.

A 1024 x 1024 x 1024 fp16 matmul with fp32 out (C = A * B) through a kernel in the style of upstream's
tutorial 04_matmul_cube_only (asc.adv.Matmul on the cube cores of an AIC_ONLY kernel, a MultiCoreMatmulTiling
over 24 cores, each core's single-core shape with its tails), simulated as the devkit's cube instruction
sequence (GM->L1 copies, L1->L0 loads, Mmad, Fixpipe). Reported: the best of --repeat launches after the
compile, with the sanitizer on (the default) and off, NumPy's float32 matmul of the same data (best of
as many), and their ratios (the goal: simulated / NumPy <= 4 with the sanitizer on). Also checks the result
against NumPy. Exits with status 1 if the result is wrong or the goal is missed (--no-goal: only report).

    python benchmarks/sim_matmul.py [--size N] [--repeat R] [--goal 4] [--no-goal]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, Tuple

import numpy as np

import asc
import asc.lib.host as host

CORES = 24


def kernel_fn(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
              workspace: asc.GlobalAddress):
    if asc.ascend_is_aic():
        idx = asc.get_block_idx()
        m_blocks = tiling.m.ceildiv(tiling.single_core_m)
        mi = idx % m_blocks
        ni = idx // m_blocks
        rows = tiling.m - mi * tiling.single_core_m
        if rows <= 0 or rows >= tiling.single_core_m:
            rows = tiling.single_core_m
        cols = tiling.n - ni * tiling.single_core_n
        if cols <= 0 or cols >= tiling.single_core_n:
            cols = tiling.single_core_n
        a_g = asc.GlobalTensor()
        a_g.set_global_buffer(a + mi * tiling.k_a * tiling.single_core_m)
        b_g = asc.GlobalTensor()
        b_g.set_global_buffer(b + ni * tiling.single_core_n)
        c_g = asc.GlobalTensor()
        c_g.set_global_buffer(c + mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
        asc.adv.register_matmul(pipe, workspace, mm, tiling)
        if idx < tiling.used_core_num:
            mm.set_tensor_a(a_g)
            mm.set_tensor_b(b_g)
            mm.set_tail(rows, cols, tiling.k_a)
            mm.iterate_all(c_g)
            mm.end()
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def tiling_for(m: int, n: int, k: int) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_dim(CORES)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(False)
    mt.set_buffer_space(-1, -1, -1)
    t = asc.adv.TCubeTiling()
    if mt.get_tiling(t) != 0:
        raise SystemExit("no tiling for the shape")
    return t


def best(f: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024, help="M = N = K (default 1024)")
    ap.add_argument("--repeat", type=int, default=5, help="launches per measurement (best of)")
    ap.add_argument("--goal", type=float, default=4.0, help="simulated / NumPy at most this, sanitizer on")
    ap.add_argument("--no-goal", action="store_true", help="report only")
    args = ap.parse_args()
    n = args.size
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    t = tiling_for(n, n, n)
    used = t.used_core_num
    ws = np.zeros(1024, np.uint8)
    on = asc.jit(matmul_cube_only=True)(kernel_fn)  # the sanitizer as by default
    off = asc.jit(matmul_cube_only=True, sanitize="off")(kernel_fn)

    def launch(k: asc.JITFunction) -> Tuple[Callable[[], object], np.ndarray]:
        c = np.zeros((n, n), np.float32)
        return (lambda: k[used, None](a, b, c, t, ws)), c

    af, bf = a.astype(np.float32), b.astype(np.float32)
    ref = af @ bf
    results = {}
    for name, k in (("on", on), ("off", off)):
        run, c = launch(k)
        run()  # compiles
        if not np.allclose(c, ref, rtol=1e-3, atol=1e-3):
            print(f"sanitizer {name}: result differs from NumPy (max error {np.abs(c - ref).max():.3g})")
            return 1
        results[name] = best(run, args.repeat)
    t_np = best(lambda: af @ bf, args.repeat)
    print(f"{n} x {n} x {n} fp16 -> fp32, tiling: {used} cores, single {t.single_core_m} x {t.single_core_n} x "
          f"{t.single_core_k}, base {t.base_m} x {t.base_n} x {t.base_k}")
    print(f"  NumPy float32 matmul:      {t_np * 1e3:8.2f} ms")
    for name in ("on", "off"):
        print(f"  simulated, sanitizer {name + ':':4s} {results[name] * 1e3:8.2f} ms"
              f"   ratio {results[name] / t_np:5.2f}")
    ratio = results["on"] / t_np
    if not args.no_goal and ratio > args.goal:
        print(f"goal missed: {ratio:.2f} > {args.goal}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
