"""Layer normalisation over the rows of a float32 matrix.

y = (x - mean) / sqrt(var + eps) * gamma + beta, with the mean and the
(biased) variance of each row of 64 floats. A row is one vector repeat, so:

- `whole_reduce_sum` gives every row's sum at once, `muls` turns the sums
  into means, `brcb` spreads each mean over a 32-byte block, and a level-0
  `sub` whose src1 block stride is 0 subtracts row r's mean from row r;
- the same again on the squares for the variance, then `adds` (eps),
  `sqrt` and a level-0 `div`;
- gamma and beta (one row each) are applied with level-0 `mul` and `add`
  whose src1 repeat stride is 0: every repeat reads the same 64 values.

    python examples/05_layer_norm/layer_norm.py
"""

import argparse

import numpy as np

import asc
import asc.runtime.config as config

CORES = 4
COLS = 64  # one repeat of float32
TILE_ROWS = 32  # a multiple of 8: brcb fills 8 blocks a repeat
EPS = 1e-5


@asc.jit
def layer_norm_kernel(x: asc.GlobalAddress, gamma: asc.GlobalAddress, beta: asc.GlobalAddress,
                      y: asc.GlobalAddress, rows_per_block: int, tile: asc.ConstExpr[int]):
    first = asc.get_block_idx() * rows_per_block * COLS
    x_gm = asc.GlobalTensor()
    g_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first, rows_per_block * COLS)
    g_gm.set_global_buffer(gamma, COLS)
    b_gm.set_global_buffer(beta, COLS)
    y_gm.set_global_buffer(y + first, rows_per_block * COLS)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, 2)
    y_out = asc.TQue(asc.TPosition.VECOUT, 2)
    params_buf = asc.TBuf(asc.TPosition.VECCALC)
    work_buf = asc.TBuf(asc.TPosition.VECCALC)
    stat_buf = asc.TBuf(asc.TPosition.VECCALC)
    bcast_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(x_in, 2, tile * COLS * 4)
    pipe.init_buffer(y_out, 2, tile * COLS * 4)
    pipe.init_buffer(params_buf, 2 * COLS * 4)
    pipe.init_buffer(work_buf, tile * COLS * 4)
    pipe.init_buffer(stat_buf, tile * 4)
    pipe.init_buffer(bcast_buf, tile * 8 * 4)
    params = params_buf.get(asc.float32)
    g_ub = params  # gamma in its first COLS floats
    b_ub = params[COLS:]
    work = work_buf.get(asc.float32)
    stat = stat_buf.get(asc.float32)
    bcast = bcast_buf.get(asc.float32)

    asc.data_copy(g_ub, g_gm, COLS)
    asc.data_copy(b_ub, b_gm, COLS)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)

    per_row = asc.BinaryRepeatParams(1, 1, 0, 8, 8, 1)  # src1: row r's block of bcast
    same_row = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 0)  # src1: the same 64 values every repeat
    inv_cols = 1.0 / COLS
    for t in range(rows_per_block // tile):
        x_ub = x_in.alloc_tensor(asc.float32)
        asc.data_copy(x_ub, x_gm[t * tile * COLS:], tile * COLS)
        x_in.enque(x_ub)

        x_ub = x_in.deque(asc.float32)
        y_ub = y_out.alloc_tensor(asc.float32)
        # the mean of each row, subtracted from it
        asc.whole_reduce_sum(stat, x_ub, COLS, tile, 1, 1, 8)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.muls(stat, stat, inv_cols, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.brcb(bcast, stat, tile // 8, asc.BrcbRepeatParams(1, 8))
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.sub(y_ub, x_ub, bcast, COLS, tile, per_row)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        # the variance of each row, its 1 / sqrt(var + eps) applied
        asc.mul(work, y_ub, y_ub, tile * COLS)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.whole_reduce_sum(stat, work, COLS, tile, 1, 1, 8)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.muls(stat, stat, inv_cols, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.adds(stat, stat, EPS, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.sqrt(stat, stat, tile)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.brcb(bcast, stat, tile // 8, asc.BrcbRepeatParams(1, 8))
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.div(y_ub, y_ub, bcast, COLS, tile, per_row)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        # the affine part, gamma and beta the same for every row
        asc.mul(y_ub, y_ub, g_ub, COLS, tile, same_row)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.add(y_ub, y_ub, b_ub, COLS, tile, same_row)
        y_out.enque(y_ub)
        x_in.free_tensor(x_ub)

        y_ub = y_out.deque(asc.float32)
        asc.data_copy(y_gm[t * tile * COLS:], y_ub, tile * COLS)
        y_out.free_tensor(y_ub)


def reference(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    return (x64 - mean) / np.sqrt(var + EPS) * gamma + beta


def run(rows: int = CORES * 2 * TILE_ROWS) -> np.ndarray:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((rows, COLS)) * 3 + 1).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, COLS).astype(np.float32)
    beta = rng.uniform(-1, 1, COLS).astype(np.float32)
    y = np.zeros_like(x)
    assert rows % (CORES * TILE_ROWS) == 0, "rows: a multiple of CORES * TILE_ROWS"
    layer_norm_kernel[CORES](x, gamma, beta, y, rows // CORES, TILE_ROWS)
    np.testing.assert_allclose(y, reference(x, gamma, beta), rtol=1e-5, atol=1e-5)
    return y


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    run()
    print("layer_norm: OK (rows of", COLS, "floats on", CORES, "blocks, within 1e-5 of float64 NumPy)")
