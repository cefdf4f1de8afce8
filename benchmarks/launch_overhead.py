"""Launch overhead of a cached kernel, against NumPy's own dispatch cost.

Prints, measured in one run: the median time of a cached launch of a
1-block kernel that does one tiny data_copy, divided by the median time of
`numpy.add` on two 1-element arrays. Goal: at most 10.

    python benchmarks/launch_overhead.py
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

import numpy as np

import asc


@asc.jit
def tiny_copy(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 8)
    asc.data_copy(x_ub, x_gm, 8)


def median_ns(fn: Callable[[], object], repeat: int = 2000, inner: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter_ns() - t0) / inner)
    return statistics.median(samples)


def main() -> None:
    x = np.zeros(8, np.float32)
    a = np.ones(1, np.float32)
    b = np.ones(1, np.float32)
    launch = tiny_copy[1]
    launch(x)  # compile once
    t_launch = median_ns(lambda: tiny_copy[1](x))
    t_add = median_ns(lambda: np.add(a, b))
    print(f"cached launch (1 block, one data_copy): {t_launch / 1000:8.2f} us")
    print(f"numpy.add on 1-element arrays:          {t_add / 1000:8.2f} us")
    print(f"ratio launch / numpy.add:               {t_launch / t_add:8.2f}   (goal <= 10)")


if __name__ == "__main__":
    main()
