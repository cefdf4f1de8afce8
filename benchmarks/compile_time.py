"""Cold compile time of examples/02_add_framework, against a cached launch.

Cold: Python source → IR → passes → Ascend C and bytecode, with no cache
(in-process or on disk). Prints both times and their ratio, measured in one
run.

    python benchmarks/compile_time.py
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from asc.runtime import compiler

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    os.environ["PYASC_CACHE_DIR"] = tempfile.mkdtemp(prefix="pyasc-bench-cache-")
    spec = importlib.util.spec_from_file_location("add_framework", ROOT / "examples/02_add_framework/add_framework.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["add_framework"] = mod
    spec.loader.exec_module(mod)
    kernel = mod.add_kernel
    size = mod.CORES * 2048
    x = np.random.rand(size).astype(np.float32)
    y = np.random.rand(size).astype(np.float32)
    z = np.zeros_like(x)
    block = size // mod.CORES
    tile = block // mod.TILES // mod.BUFFERS

    cold = []
    for _ in range(20):
        t0 = time.perf_counter()
        compiled = compiler.compile_kernel(kernel, {"x": ("gm", "float32"), "y": ("gm", "float32"),
                                                    "z": ("gm", "float32"), "block_length": ("int",),
                                                    "tile": ("const", tile)}, dict(kernel.options), "Ascend910B1")
        compiled.ascendc()
        cold.append(time.perf_counter() - t0)

    kernel[mod.CORES](x, y, z, block, tile)  # compile + fill the in-process cache
    launches = []
    for _ in range(200):
        t0 = time.perf_counter()
        kernel[mod.CORES](x, y, z, block, tile)
        launches.append(time.perf_counter() - t0)
    np.testing.assert_array_equal(z, x + y)
    t_cold, t_launch = statistics.median(cold), statistics.median(launches)
    print(f"cold compile of 02_add_framework (to Ascend C and bytecode): {t_cold * 1e3:8.2f} ms")
    print(f"cached launch of the same kernel ({mod.CORES} blocks, {size} floats):  {t_launch * 1e3:8.3f} ms")
    print(f"ratio cold compile / cached launch:                      {t_cold / t_launch:8.1f}")


if __name__ == "__main__":
    main()
