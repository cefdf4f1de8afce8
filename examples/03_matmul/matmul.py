"""C = A @ B (+ bias) with asc.adv.Matmul on a MIX kernel: fp16 A and B, fp32 C.

The host cuts the problem with asc.lib.host.MultiCoreMatmulTiling: each vector
core owns one singleCoreM x singleCoreN block of C (the cube core of its AI Core
does the matrix work for it, as in the devkit), and the Matmul object walks that
block in baseM x baseN pieces. The shapes need not divide the blocks: the edge
cores tell their object how much of its block is really there (set_tail), and
the last base blocks of each core are partial. The result is checked against
NumPy's float32 matmul at upstream's tutorial tolerance (rtol = atol = 1e-3).

    python examples/03_matmul/matmul.py [--m 300 --n 200 --k 130 --cores 2 --no-bias]
"""

import argparse

import numpy as np

import asc
import asc.lib.host as host
import asc.runtime.config as config


@asc.jit
def tile_of(tiling: asc.adv.TCubeTiling):
    """This core's block of C: where A, B, C and bias start and how much of the block is inside C."""
    idx = asc.get_block_idx()  # on a vector core: AI Core * 2 + sub-block
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    mi = idx % m_blocks
    ni = idx // m_blocks
    rows = tiling.m - mi * tiling.single_core_m
    if rows > tiling.single_core_m:
        rows = tiling.single_core_m
    cols = tiling.n - ni * tiling.single_core_n
    if cols > tiling.single_core_n:
        cols = tiling.single_core_n
    off_a = mi * tiling.single_core_m * tiling.k_a
    off_b = ni * tiling.single_core_n
    off_c = mi * tiling.single_core_m * tiling.n + ni * tiling.single_core_n
    return off_a, off_b, off_c, off_b, rows, cols


@asc.jit
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, bias: asc.GlobalAddress, c: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, use_bias: asc.ConstExpr[bool]):
    off_a, off_b, off_c, off_bias, rows, cols = tile_of(tiling)
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    bias_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + off_a)
    b_gm.set_global_buffer(b + off_b)
    bias_gm.set_global_buffer(bias + off_bias)
    c_gm.set_global_buffer(c + off_c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    # on the cube core this is where the devkit's server loop runs (and the kernel ends for it)
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() < tiling.used_core_num:  # the tiling may use fewer cores than launched
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        if use_bias:
            mm.set_bias(bias_gm)
        mm.set_tail(rows, cols)
        mm.iterate_all(c_gm)
        mm.end()


def make_tiling(m: int, n: int, k: int, cores: int, use_bias: bool) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_dim(cores)  # vector cores: one block of C each
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(use_bias)
    mt.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    if mt.get_tiling(tiling) != 0:
        raise RuntimeError(f"no tiling for {m} x {n} x {k}: {mt.error}")
    return tiling


def run(m: int = 300, n: int = 200, k: int = 130, cores: int = 2, use_bias: bool = True, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    tiling = make_tiling(m, n, k, cores, use_bias)
    workspace = np.zeros(1024, np.uint8)
    matmul_kernel[(cores + 1) // 2](a, b, bias, c, tiling, workspace, use_bias)  # AI Cores: 2 vector cores each
    want = a.astype(np.float32) @ b.astype(np.float32)
    if use_bias:
        want += bias
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)
    return c


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--m", type=int, default=300)
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--k", type=int, default=130)
    p.add_argument("--cores", type=int, default=2)
    p.add_argument("--no-bias", action="store_true")
    args = p.parse_args()
    config.set_platform(config.Backend.Model)
    run(args.m, args.n, args.k, args.cores, not args.no_bias)
    what = "A @ B" + ("" if args.no_bias else " + bias")
    where = f"a MIX kernel: {(args.cores + 1) // 2} AI Core(s), {args.cores} vector cores"
    print(f"{p.prog.split('.')[0]}: OK (C = {what}, {args.m} x {args.n} x {args.k} float16 -> float32 on "
          f"{where}; matches NumPy's float32 matmul within rtol = atol = 1e-3)")
