"""The sanitizer's cost, measured in one run.

Prints the median time of examples/02_add_framework on 2^22 float32
elements (8 blocks, 32 KiB queue buffers) with the sanitizer on (`sanitize=
"error"`, the default) and off, and their ratio. Goal: at most 3.

    python benchmarks/sanitizer_overhead.py [--repeat N] [--log2 N]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, List

import numpy as np

import asc

ROOT = Path(__file__).resolve().parents[1]
CORES = 8
UB_TILE = 8192  # float32 elements per queue buffer: 6 buffers of 32 KiB fill the 192 KiB UB


def load(rel: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(Path(rel).stem, ROOT / rel)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[Path(rel).stem] = mod
    spec.loader.exec_module(mod)
    return mod


def median_s(fn: Callable[[], object], repeat: int) -> float:
    samples: List[float] = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="launches per measurement")
    parser.add_argument("--log2", type=int, default=22, help="log2 of the element count")
    args = parser.parse_args()
    n = 1 << args.log2
    block = n // CORES
    af = load("examples/02_add_framework/add_framework.py")
    af.TILES = max(1, block // UB_TILE // af.BUFFERS)  # a tile that fits the UB
    tile = block // af.TILES // af.BUFFERS
    on = asc.jit(sanitize="error")(af.add_kernel.fn)
    off = asc.jit(sanitize="off")(af.add_kernel.fn)
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    z = np.zeros_like(x)
    for k in (on, off):  # compile, warm up, check
        z[:] = 0
        k[CORES](x, y, z, block, tile)
        np.testing.assert_array_equal(z, x + y)
    t_on: List[float] = []
    t_off: List[float] = []
    for _ in range(3):  # interleaved, so that both see the same machine state
        t_on.append(median_s(lambda: on[CORES](x, y, z, block, tile), args.repeat))
        t_off.append(median_s(lambda: off[CORES](x, y, z, block, tile), args.repeat))
    a, b = min(t_on), min(t_off)
    print(f"02_add_framework, 2^{args.log2} float32, {CORES} blocks, tile {tile}:")
    print(f"  sanitizer on  (error): {a * 1e3:8.2f} ms")
    print(f"  sanitizer off:         {b * 1e3:8.2f} ms")
    print(f"  ratio on / off:        {a / b:8.2f}   (goal <= 3)")


if __name__ == "__main__":
    main()
