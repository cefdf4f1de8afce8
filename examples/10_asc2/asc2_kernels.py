"""Two kernels in `asc2`, PyAsc2's tile language: no buffers, queues or syncs written.

- `gelu`: each block loads its whole share of x as ONE tile (1.5 MiB per block, eight times the Unified
  Buffer): the compiler's split-tiles pass cuts the chain load -> arithmetic -> store into a loop over chunks,
  the UB planner double-buffers each chunk's tiles, insert-sync orders the pipes.
- `matmul`: C = A @ B in float16 -> float32 on the cube core, K in slices through L0A / L0B; the L1 and L0
  tiles of the loop get two slots each, so the copies of slice i + 1 overlap the Mmad of slice i.

Both run on the simulator, are checked against NumPy, and print their estimated duration (timing model).
`-v` prints what the compiler decided (the pass log: split-tiles, plan-ub). The same kernels, with
`PYASC_DUMP_PATH=dir`, leave their Ascend C in dir.

    python examples/10_asc2/asc2_kernels.py [-v]
"""

import argparse
from typing import Any, List

import numpy as np

import asc
import asc2
from asc.runtime import compiler

CORES = 8
L1, L0A, L0B = asc2.TileLocation.L1, asc2.TileLocation.L0A, asc2.TileLocation.L0B


@asc2.jit
def gelu(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int, per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    z_gm = asc2.tensor(z_ptr, [size])
    off = asc2.block_idx() * per_block
    x = asc2.load(x_gm, [per_block], offsets=[off])
    # the tanh approximation: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    inner = (x + x * x * x * 0.044715) * 0.7978845608028654
    asc2.store(x * 0.5 * (asc2.tanh(inner) + 1.0), z_gm, offsets=[off])


@asc2.jit
def matmul(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
           k: asc.ConstExpr[int], n: asc.ConstExpr[int], k_tiles: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    c_gm = asc2.tensor(c_ptr, [m, n])
    nt = n // asc2.block_num()  # (a runtime value: each block computes nt columns of C)
    col = asc2.block_idx() * nt
    kk = k // k_tiles
    acc = asc2.zeros_acc([m, n // CORES], dtype=asc.float32)
    for i in asc2.range(k_tiles):
        a_i = asc2.load(a_gm, [m, kk], offsets=[0, i * kk], location=L0A)
        b_i = asc2.load(b_gm, [kk, n // CORES], offsets=[i * kk, col], location=L0B)
        asc2.matmul_acc(a_i, b_i, acc)
    asc2.store(acc, c_gm, offsets=[0, col])


def run(launch: Any, verbose: bool, what: str) -> float:
    seen: List[Any] = []
    compiler.compile_listeners.append(seen.append)
    try:
        with asc.profile() as prof:
            launch()
    finally:
        compiler.compile_listeners.remove(seen.append)
    if verbose:
        for ck in seen:
            for line in ck.pass_log.splitlines():
                if line.startswith(("split-tiles", "plan-ub")):
                    print(f"  [{what}] {line}")
    return prof.last.duration_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="print the pass log (split-tiles, plan-ub)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    per_block = 393216  # float32: 1.5 MiB per block, the UB holds 192 KiB
    x = rng.uniform(-4, 4, CORES * per_block).astype(np.float32)
    z = np.zeros_like(x)
    us = run(lambda: gelu[CORES](x, z, x.size, per_block), args.verbose, "gelu")
    xd = x.astype(np.float64)
    want = 0.5 * xd * (1 + np.tanh(np.sqrt(2 / np.pi) * (xd + 0.044715 * xd ** 3)))
    np.testing.assert_allclose(z, want, rtol=2e-5, atol=2e-5)
    print(f"gelu of {x.size} float32 on {CORES} blocks: {us:.1f} us (estimated)")

    m, k, n, k_tiles = 64, 512, 256, 8
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    us = run(lambda: matmul[CORES](a, b, c, m, k, n, k_tiles), args.verbose, "matmul")
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-3, atol=1e-3)
    print(f"matmul {m}x{k} @ {k}x{n} float16 -> float32 on {CORES} blocks: {us:.1f} us (estimated)")
    print("asc2 kernels: OK")


if __name__ == "__main__":
    main()
