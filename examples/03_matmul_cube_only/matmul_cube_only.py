"""C = A @ B (+ bias) on the cube cores alone (an AIC_ONLY kernel): fp16 A and B, fp32 C.

With `@asc.jit(matmul_cube_only=True)` the kernel runs on cube cores only, one per
block, and asc.adv.Matmul works on the core that calls it. Each core owns one
singleCoreM x singleCoreN block of C from the host tiling and walks it base block
by base block with `with mm.iterate():`, writing each block to its place in C with
get_tensor_c. Neither M, N nor K divide the base blocks, so the last blocks of a
row or column of C are partial, and so is the last K step. Checked against
NumPy's float32 matmul at upstream's tutorial tolerance (rtol = atol = 1e-3).

    python examples/03_matmul_cube_only/matmul_cube_only.py [--m 250 --n 700 --k 300 --cores 2 --no-bias]
"""

import argparse

import numpy as np

import asc
import asc.lib.host as host
import asc.runtime.config as config


@asc.jit(matmul_cube_only=True)
def matmul_cube_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, bias: asc.GlobalAddress, c: asc.GlobalAddress,
                       tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, use_bias: asc.ConstExpr[bool]):
    idx = asc.get_block_idx()  # the AI Core
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    mi = idx % m_blocks
    ni = idx // m_blocks
    rows = tiling.m - mi * tiling.single_core_m
    if rows > tiling.single_core_m:
        rows = tiling.single_core_m
    cols = tiling.n - ni * tiling.single_core_n
    if cols > tiling.single_core_n:
        cols = tiling.single_core_n
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    bias_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a + mi * tiling.single_core_m * tiling.k_a)
    b_gm.set_global_buffer(b + ni * tiling.single_core_n)
    bias_gm.set_global_buffer(bias + ni * tiling.single_core_n)
    c_gm.set_global_buffer(c + mi * tiling.single_core_m * tiling.n + ni * tiling.single_core_n)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if idx < tiling.used_core_num:
        mm.set_tensor_a(a_gm)
        mm.set_tensor_b(b_gm)
        if use_bias:
            mm.set_bias(bias_gm)
        else:
            mm.disable_bias()
        mm.set_tail(rows, cols)
        with mm.iterate():  # one base block of this core's C a pass
            mm.get_tensor_c(c_gm)  # at its place in C (rows tiling.n elements apart)
        mm.end()


def make_tiling(m: int, n: int, k: int, cores: int, use_bias: bool) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_dim(cores)  # cube cores: one block of C each
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(use_bias)
    mt.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    if mt.get_tiling(tiling) != 0:
        raise RuntimeError(f"no tiling for {m} x {n} x {k}: {mt.error}")
    return tiling


def run(m: int = 250, n: int = 700, k: int = 300, cores: int = 2, use_bias: bool = True, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    tiling = make_tiling(m, n, k, cores, use_bias)
    matmul_cube_kernel[cores](a, b, bias, c, tiling, np.zeros(1024, np.uint8), use_bias)
    want = a.astype(np.float32) @ b.astype(np.float32)
    if use_bias:
        want += bias
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)
    return c


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--m", type=int, default=250)
    p.add_argument("--n", type=int, default=700)
    p.add_argument("--k", type=int, default=300)
    p.add_argument("--cores", type=int, default=2)
    p.add_argument("--no-bias", action="store_true")
    args = p.parse_args()
    config.set_platform(config.Backend.Model)
    run(args.m, args.n, args.k, args.cores, not args.no_bias)
    what = "A @ B" + ("" if args.no_bias else " + bias")
    where = f"an AIC_ONLY kernel: {args.cores} cube core(s)"
    print(f"{p.prog.split('.')[0]}: OK (C = {what}, {args.m} x {args.n} x {args.k} float16 -> float32 on "
          f"{where}; matches NumPy's float32 matmul within rtol = atol = 1e-3)")
