"""Multi-block launch overhead: a tiny kernel on 8 blocks against the same kernel on 1 block.

Each block adds 32 float32 elements (two data_copy in, one add, one data_copy out). Prints, measured
in one run with the rounds of the two interleaved: the median time of a cached launch on 1 block and
on 8 blocks, and their ratio, with the sanitizer on (the default) and off, for the default worker
setting (one worker per host core: the launching thread and helper threads kept between launches,
src/sim/pool.c) and, for reference, for one worker (every block on the launching thread). Goal: the
8-block launch at most 2x the 1-block one. The ratio depends on the host's free cores: a helper that
cannot get a core takes no blocks, and the 8 blocks then run one after another.

It also prints what a block costs, (8 blocks - 1 block) / 7, with the sanitizer on and off, and the
sanitizer's share of it: with every block on one thread, the ratio is at most 2 exactly when a block
costs at most a sixth of the rest of a 1-block launch (the launch's fixed cost), so the line says how
far each side is from that bound.

    python benchmarks/launch_blocks.py [--rounds 300]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, Dict, List

import numpy as np

import asc
import asc.runtime.config as config
from asc import _C

N = 32  # elements per block


@asc.jit(sanitize="error")
def add_on(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    off = asc.get_block_idx() * N
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + off)
    yg.set_global_buffer(y + off)
    zg.set_global_buffer(z + off)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, N)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(a, xg, N)
    asc.data_copy(b, yg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(c, a, b, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, N)


@asc.jit(sanitize="off")
def add_off(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress):
    off = asc.get_block_idx() * N
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + off)
    yg.set_global_buffer(y + off)
    zg.set_global_buffer(z + off)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 256, N)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 512, N)
    asc.data_copy(a, xg, N)
    asc.data_copy(b, yg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(c, a, b, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, c, N)


def interleaved_medians(fns: Dict[str, Callable[[], object]], rounds: int, inner: int = 20) -> Dict[str, float]:
    """Median time per call (ns) of each function, their rounds interleaved so that a change in the
    host's load affects all alike."""
    samples: Dict[str, List[float]] = {k: [] for k in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter_ns()
            for _ in range(inner):
                fn()
            samples[name].append((time.perf_counter_ns() - t0) / inner)
    return {k: statistics.median(v) for k, v in samples.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    rounds = ap.parse_args().rounds
    x = np.arange(8 * N, dtype=np.float32)
    y = np.ones(8 * N, np.float32)
    z = np.zeros(8 * N, np.float32)
    for kernel in (add_on, add_off):
        kernel[1](x, y, z)
        kernel[8](x, y, z)
        np.testing.assert_array_equal(z, x + y)
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"host: {cores} cores, load average {load:.1f}; {N} float32 elements per block")
    for workers, label in ((0, f"default workers ({min(cores, 8)} for 8 blocks)"), (1, "1 worker (reference)")):
        config.set_workers(workers)
        try:
            t = interleaved_medians({"on1": lambda: add_on[1](x, y, z), "on8": lambda: add_on[8](x, y, z),
                                     "off1": lambda: add_off[1](x, y, z), "off8": lambda: add_off[8](x, y, z)},
                                    rounds)
        finally:
            config.set_workers(0)
        print(f"{label}: helper threads alive {_C.helper_threads()}")
        per_block = {}
        for san in ("on", "off"):
            t1, t8 = t[san + "1"], t[san + "8"]
            per_block[san] = (t8 - t1) / 7
            print(f"  sanitizer {san:3}: 1 block {t1 / 1000:7.2f} us, 8 blocks {t8 / 1000:7.2f} us, "
                  f"ratio {t8 / t1:5.2f}   (goal <= 2)")
        for san in ("on", "off"):
            fixed = t[san + "1"] - per_block[san]
            print(f"  a block with the sanitizer {san:3}: {per_block[san] / 1000:5.2f} us; the bound for "
                  f"ratio 2, a sixth of the launch's fixed {fixed / 1000:5.2f} us: {fixed / 6000:5.2f} us")
        print(f"  the sanitizer's share of a block: {(per_block['on'] - per_block['off']) / 1000:5.2f} us")


if __name__ == "__main__":
    main()
