"""asc2 vs hand-written asc: the timing model's estimated duration of the same work (issue 19's acceptance).

For each kernel, the asc2 version (tiles; the compiler places the UB, double-buffers and synchronises) and a
hand-written asc version (TPipe, TQue with two buffers, the copies and vector instructions written out, as an
Ascend C author would) run on the simulator under `asc.profile()` (docs/timing.md) on Ascend910B1; both
results are checked against NumPy, and the estimated durations are printed with their ratio asc2 / asc
against the goal of 1.1.

    PYTHONPATH=<staged package> python benchmarks/asc2_vs_asc.py
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import numpy as np

import asc
import asc.runtime.config as config
import asc2

PLATFORM = "Ascend910B1"
GOAL = 1.1
CORES = 16


def profiled_us(launch: Callable[[], None]) -> float:
    with asc.profile() as prof:
        launch()
    return prof.last.duration_us


# ---- vadd: z = x + y, float32, 16 cores, tiles of TILE elements ---------------------------------------------------

@asc2.jit
def vadd_asc2(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int,
              tile: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    z_gm = asc2.tensor(z_ptr, [size])
    base = asc2.block_idx() * tile * tiles
    for i in asc2.range(tiles):
        off = base + i * tile
        asc2.store(asc2.load(x_gm, [tile], offsets=[off]) + asc2.load(y_gm, [tile], offsets=[off]), z_gm,
                   offsets=[off])


@asc.jit
def vadd_asc(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int],
             tiles: asc.ConstExpr[int]):
    base = asc.get_block_idx() * tile * tiles
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + base)
    y_gm.set_global_buffer(y + base)
    z_gm.set_global_buffer(z + base)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 2)
    qy = asc.TQue(asc.TPosition.VECIN, 2)
    qz = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(que=qx, num=2, len=tile * 4)
    pipe.init_buffer(que=qy, num=2, len=tile * 4)
    pipe.init_buffer(que=qz, num=2, len=tile * 4)
    for t in range(tiles):
        xt = qx.alloc_tensor(asc.float32)
        yt = qy.alloc_tensor(asc.float32)
        asc.data_copy(xt, x_gm[t * tile:], count=tile)
        asc.data_copy(yt, y_gm[t * tile:], count=tile)
        qx.enque(xt)
        qy.enque(yt)
        xv = qx.deque(asc.float32)
        yv = qy.deque(asc.float32)
        zt = qz.alloc_tensor(asc.float32)
        asc.add(zt, xv, yv, tile)
        qz.enque(zt)
        qx.free_tensor(xv)
        qy.free_tensor(yv)
        zv = qz.deque(asc.float32)
        asc.data_copy(z_gm[t * tile:], zv, count=tile)
        qz.free_tensor(zv)


def vadd_pair(tile: int, tiles: int, seed: int, asc2_launch: Callable[..., None]) -> Tuple[float, float]:
    """The asc2 kernel (asc2_launch(x, y, z, n)) and vadd_asc on CORES * tile * tiles float32: their estimated
    durations, both results checked against NumPy."""
    n = CORES * tile * tiles
    rng = np.random.default_rng(seed)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    z2, z1 = np.zeros_like(x), np.zeros_like(x)
    t2 = profiled_us(lambda: asc2_launch(x, y, z2, n))
    t1 = profiled_us(lambda: vadd_asc[CORES](x, y, z1, tile, tiles))
    np.testing.assert_allclose(z2, x + y)
    np.testing.assert_allclose(z1, x + y)
    return t2, t1


def bench_vadd() -> Tuple[float, float]:
    tile, tiles = 1024, 4
    return vadd_pair(tile, tiles, 1, lambda x, y, z, n: vadd_asc2[CORES](x, y, z, n, tile, tiles))


# ---- vadd with one tile per block larger than the UB: the compiler splits it (split-tiles) ---------------------------

@asc2.jit
def vadd_big_asc2(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int,
                  per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    z_gm = asc2.tensor(z_ptr, [size])
    off = asc2.block_idx() * per_block
    asc2.store(asc2.load(x_gm, [per_block], offsets=[off]) + asc2.load(y_gm, [per_block], offsets=[off]), z_gm,
               offsets=[off])


def bench_vadd_big() -> Tuple[float, float]:
    """A block's 98304 float32 of x, y and z (1.1 MiB of tiles) as one asc2 tile each, against the hand-written
    kernel's loop over 24 tiles of 4096 with two buffers each."""
    tile, tiles = 4096, 24
    return vadd_pair(tile, tiles, 4, lambda x, y, z, n: vadd_big_asc2[CORES](x, y, z, n, tile * tiles))


# ---- softmax over the rows of a ROWS x COLS float32 matrix (PyAsc2's kernels/test_softmax.py) ---------------------

@asc2.jit
def softmax_asc2(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int, num_cols: int,
                 tile_size: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    for i in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(), parallel=True):
        row = asc2.load(x_gm, [1, tile_size], offsets=[i, 0])
        numerator = asc2.exp(row - asc2.reduce_max(row))
        asc2.store(numerator / asc2.reduce_sum(numerator), out_gm, offsets=[i, 0])


@asc.jit
def softmax_asc(x: asc.GlobalAddress, z: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, 2)
    qz = asc.TQue(asc.TPosition.VECOUT, 2)
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(que=qx, num=2, len=cols * 4)
    pipe.init_buffer(que=qz, num=2, len=cols * 4)
    pipe.init_buffer(buf, 64 + 2 * cols // 64 * 4 + 32)
    red = buf.get_with_offset(8, 0, asc.float32)
    work = buf.get_with_offset(2 * cols // 64 + 8, 32, asc.float32)
    for i in range(asc.get_block_idx(), rows, asc.get_block_num()):
        xt = qx.alloc_tensor(asc.float32)
        asc.data_copy(xt, x_gm[i * cols:], count=cols)
        qx.enque(xt)
        xv = qx.deque(asc.float32)
        zt = qz.alloc_tensor(asc.float32)
        asc.reduce_max(red, xv, work, cols)
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        m = red.get_value(0)
        asc.adds(zt, xv, -m, cols)
        asc.exp(zt, zt, cols)
        asc.reduce_sum(red, zt, work, cols)
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        s = red.get_value(0)
        asc.muls(zt, zt, 1.0 / s, cols)
        qx.free_tensor(xv)
        qz.enque(zt)
        zv = qz.deque(asc.float32)
        asc.data_copy(z_gm[i * cols:], zv, count=cols)
        qz.free_tensor(zv)


def bench_softmax() -> Tuple[float, float]:
    rows, cols = 64, 1024
    rng = np.random.default_rng(2)
    x = rng.random((rows, cols), dtype=np.float32)
    z2, z1 = np.zeros_like(x), np.zeros_like(x)
    t2 = profiled_us(lambda: softmax_asc2[CORES](x, z2, rows, cols, cols))
    t1 = profiled_us(lambda: softmax_asc[CORES](x, z1, rows, cols))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(z2, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(z1, want, rtol=1e-5, atol=1e-7)
    return t2, t1


# ---- matmul: C[M, N] = A[M, K] B[K, N], float16 -> float32, block i computes C's columns [i * NT, (i + 1) * NT) ---
# (PyAsc2's kernels/test_matmul_tiled.py: A and B's parts in L1, K_TILES slices of k through L0A / L0B into L0C)

L1, L0A, L0B = asc2.TileLocation.L1, asc2.TileLocation.L0A, asc2.TileLocation.L0B


@asc2.jit
def matmul_asc2(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
                k: asc.ConstExpr[int], n: asc.ConstExpr[int], nt: asc.ConstExpr[int], k_tiles: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    c_gm = asc2.tensor(c_ptr, [m, n])
    col = asc2.block_idx() * nt
    kk = k // k_tiles
    acc = asc2.zeros_acc([m, nt], dtype=asc.float32)
    a_l1 = asc2.load(a_gm, [m, k], offsets=[0, 0], location=L1)
    b_l1 = asc2.load(b_gm, [k, nt], offsets=[0, col], location=L1)
    for i in asc2.range(k_tiles):
        a_i = asc2.copy(a_l1, [m, kk], offsets=[0, i * kk], location=L0A)
        b_i = asc2.copy(b_l1, [kk, nt], offsets=[i * kk, 0], location=L0B)
        asc2.matmul_acc(a_i, b_i, acc)
    asc2.store(acc, c_gm, offsets=[0, col])


@asc.jit
def matmul_asc(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, m: asc.ConstExpr[int],
               k: asc.ConstExpr[int], n: asc.ConstExpr[int], nt: asc.ConstExpr[int], k_tiles: asc.ConstExpr[int]):
    col = asc.get_block_idx() * nt
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    kk = k // k_tiles
    m1 = m // 16
    k1 = kk // 16
    n1 = nt // 16
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, m * k)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, m * k * 2, k * nt)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, m * kk)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, kk * nt)
    co1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, m * nt)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
    asc.data_copy(b1, b_gm[col:], asc.Nd2NzParams(1, k, nt, 0, n, k, 1, 0))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(k_tiles):
        if i > 0:  # the previous Mmad has read L0A / L0B
            asc.set_flag(asc.HardEvent.M_MTE1, 0)
            asc.wait_flag(asc.HardEvent.M_MTE1, 0)
        av = a1[i * kk * m:]  # A's NZ column blocks of the slice
        bv = b1[i * kk * 16:]  # B's NZ rows of the slice
        for r in asc.static_range(m1):
            asc.load_data(a2[r * k1 * 256:], av, asc.LoadData2DParams(r, k1, m1, 0, 0, False, 0))
        for j in asc.static_range(k1):
            asc.load_data(b2[j * n1 * 256:], bv, asc.LoadData2DParams(j, n1, k // 16, 0, 0, True, 0))
        asc.set_flag(asc.HardEvent.MTE1_M, 0)
        asc.wait_flag(asc.HardEvent.MTE1_M, 0)
        asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=nt, k=kk, cmatrix_init_val=i == 0))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm[col:], co1, asc.FixpipeParamsV220(n_size=nt, m_size=m, src_stride=m, dst_stride=n))


def bench_matmul() -> Tuple[float, float]:
    m, k, nt, k_tiles = 64, 256, 32, 4
    n = CORES * nt
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    c2, c1 = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    t2 = profiled_us(lambda: matmul_asc2[CORES](a, b, c2, m, k, n, nt, k_tiles))
    t1 = profiled_us(lambda: matmul_asc[CORES](a, b, c1, m, k, n, nt, k_tiles))
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c2, want, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(c1, want, rtol=1e-3, atol=1e-3)
    return t2, t1


def main() -> None:
    config.set_platform(config.Backend.Model, config.Platform(PLATFORM))
    print(f"asc2 vs hand-written asc: estimated durations (timing model, {PLATFORM}, {CORES} cores); goal: "
          f"asc2 / asc <= {GOAL}")
    print(f"{'kernel':<28} {'asc2 us':>9} {'asc us':>9} {'ratio':>7}  verdict")
    rows: List[Tuple[str, Optional[Callable[[], Tuple[float, float]]]]] = [
        ("vadd (65536 float32)", bench_vadd),
        ("vadd, tiles > UB (1.5M f32)", bench_vadd_big),
        ("softmax (64 x 1024 float32)", bench_softmax),
        ("matmul (64x256x512 fp16)", bench_matmul),
    ]
    for name, bench in rows:
        if bench is None:
            print(f"{name:<28} {'-':>9} {'-':>9} {'-':>7}  not yet (asc2.matmul is not implemented)")
            continue
        t2, t1 = bench()
        ratio = t2 / t1
        print(f"{name:<28} {t2:9.2f} {t1:9.2f} {ratio:7.3f}  {'within' if ratio <= GOAL else 'OVER'} {GOAL}")


if __name__ == "__main__":
    main()
