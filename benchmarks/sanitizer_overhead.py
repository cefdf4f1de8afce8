"""The sanitizer's cost, measured in one run.

Prints the median time of examples/02_add_framework (add) and examples/relu (relu) on 2^22 elements
(8 blocks, 32 KiB queue buffers), float32 and float16, with the sanitizer on (`sanitize="error"`, the
default) and off, and the ratio of those medians. The launches of one workload on and off are
interleaved round by round, so that a change in the host's load hits both; each round also gives a
ratio of its own, and the quartiles of those say how noisy the run was. Goal: at most 1.3 for add
and relu in float32.

    python benchmarks/sanitizer_overhead.py [--rounds N] [--inner N] [--log2 N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, Dict, List, Tuple

import numpy as np

import asc

ROOT = Path(__file__).resolve().parents[1]
CORES = 8
UB_BYTES = 32 * 1024  # per queue buffer: add's six (relu's four) fit the 192 KiB UB


def load(rel: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(Path(rel).stem, ROOT / rel)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[Path(rel).stem] = mod
    spec.loader.exec_module(mod)
    return mod


def time_once(fn: Callable[[], object], inner: int) -> float:
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    return (time.perf_counter() - t0) / inner


def measure(on: Callable[[], object], off: Callable[[], object], rounds: int,
            inner: int) -> Tuple[float, float, float, float]:
    """Medians of on and off, and the quartiles of the per-round ratios."""
    t_on: List[float] = []
    t_off: List[float] = []
    for r in range(rounds):  # alternate which goes first
        pair = ((on, t_on), (off, t_off)) if r % 2 == 0 else ((off, t_off), (on, t_on))
        for fn, out in pair:
            out.append(time_once(fn, inner))
    q1, _, q3 = statistics.quantiles([a / b for a, b in zip(t_on, t_off)], n=4)
    return statistics.median(t_on), statistics.median(t_off), q1, q3


def workloads(log2: int) -> Dict[str, Tuple[Callable[[], object], Callable[[], object]]]:
    n = 1 << log2
    block = n // CORES
    af = load("examples/02_add_framework/add_framework.py")
    rl = load("examples/relu/relu.py")
    add_on, add_off = asc.jit(sanitize="error")(af.add_kernel.fn), asc.jit(sanitize="off")(af.add_kernel.fn)
    relu_on, relu_off = asc.jit(sanitize="error")(rl.relu_kernel.fn), asc.jit(sanitize="off")(rl.relu_kernel.fn)
    rng = np.random.default_rng(0)
    out: Dict[str, Tuple[Callable[[], object], Callable[[], object]]] = {}
    for dtype in (np.float32, np.float16):
        tile = UB_BYTES // np.dtype(dtype).itemsize
        x = (rng.random(n) - 0.5).astype(dtype)
        y = (rng.random(n) - 0.5).astype(dtype)
        z = np.zeros_like(x)
        af.TILES = max(1, block // tile // af.BUFFERS)  # the kernel loops TILES * BUFFERS times
        add_tile = block // af.TILES // af.BUFFERS
        for k in (add_on, add_off):  # compile, warm up, check
            z[:] = 0
            k[CORES](x, y, z, block, add_tile)
            np.testing.assert_array_equal(z, x + y)
        for k in (relu_on, relu_off):
            z[:] = 1
            k[CORES](x, z, block, n, tile)
            np.testing.assert_array_equal(z, np.maximum(x, 0))
        name = np.dtype(dtype).name
        out[f"add  {name}"] = (lambda x=x, y=y, z=z, t=add_tile: add_on[CORES](x, y, z, block, t),
                               lambda x=x, y=y, z=z, t=add_tile: add_off[CORES](x, y, z, block, t))
        out[f"relu {name}"] = (lambda x=x, z=z, t=tile: relu_on[CORES](x, z, block, n, t),
                               lambda x=x, z=z, t=tile: relu_off[CORES](x, z, block, n, t))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31, help="interleaved rounds per workload")
    parser.add_argument("--inner", type=int, default=4, help="launches per round and kernel")
    parser.add_argument("--log2", type=int, default=22, help="log2 of the element count")
    args = parser.parse_args()
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"2^{args.log2} elements, {CORES} blocks, 32 KiB queue buffers; host: {os.cpu_count()} cores, "
          f"load average {load_avg:.1f}; medians of {args.rounds} interleaved rounds")
    for name, (on, off) in workloads(args.log2).items():
        a, b, q1, q3 = measure(on, off, args.rounds, args.inner)
        goal = "   (goal <= 1.3)" if "float32" in name else ""
        print(f"  {name}: sanitizer on {a * 1e3:7.2f} ms, off {b * 1e3:7.2f} ms, ratio {a / b:5.2f} "
              f"(per round: quartiles {q1:4.2f}..{q3:4.2f}){goal}")


if __name__ == "__main__":
    main()
