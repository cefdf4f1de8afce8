"""Memory of a process that launches many specialisations of one kernel.

Launches N (default 2000) specialisations of a tiny kernel (a ConstExpr
taking N values), each in a fresh process with an empty disk cache, and
prints the growth of the resident set size (VmRSS, Linux) with the
in-process cache bounded at its default size and, side by side, with the
bound out of the way (every compiled kernel kept, as before the bound
existed).

    python benchmarks/memory_cache_rss.py [-n 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = '''
import json, sys, time
import numpy as np
import asc
from asc.runtime import cache

@asc.jit
def spec_kernel(z: asc.GlobalAddress, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, k)

def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")

n, size = int(sys.argv[1]), int(sys.argv[2])
if size:
    cache.set_memory_cache_size(size)
z = np.zeros(8, np.int32)
spec_kernel[1](z, -1)
base = rss_kb()
t0 = time.perf_counter()
for k in range(n):
    spec_kernel[1](z, k)
    assert z[0] == k
print(json.dumps({"rss_mb": (rss_kb() - base) / 1024, "seconds": time.perf_counter() - t0,
                  "bound": cache.memory_cache_size(), "held": len(spec_kernel.cache)}))
'''


def measure(n: int, size: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "child.py")  # a file: @asc.jit reads the kernel's source
        with open(script, "w") as f:
            f.write(CHILD)
        env = {**os.environ, "PYASC_CACHE_DIR": os.path.join(d, "cache")}
        env.pop("PYASC_MEMORY_CACHE_SIZE", None)
        env.pop("PYASC_DUMP_PATH", None)
        out = subprocess.run([sys.executable, script, str(n), str(size)], capture_output=True, text=True, env=env)
        if out.returncode != 0:
            sys.exit(f"the measuring process failed:\n{out.stderr}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-n", type=int, default=2000, help="specialisations to launch")
    n = p.parse_args().n
    t0 = time.perf_counter()
    bounded = measure(n, 0)
    unbounded = measure(n, 10**9)
    for name, r in (("default bound", bounded), ("no bound     ", unbounded)):
        print(f"{n} specialisations, {name} ({r['bound']:>10} kernels): RSS +{r['rss_mb']:7.1f} MB, "
              f"{r['held']:5} held, {r['seconds']:5.2f} s")
    print(f"ratio RSS growth bounded / unbounded: {bounded['rss_mb'] / unbounded['rss_mb']:.2f}"
          f"   ({time.perf_counter() - t0:.1f} s in all)")


if __name__ == "__main__":
    main()
