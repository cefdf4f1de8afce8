"""Softmax over the rows of a float32 matrix, one vector repeat per row.

A row of 64 floats is exactly one repeat of the vector unit (256 bytes, 8
blocks of 32 bytes), so the row statistics of a whole tile of rows take one
instruction each:

- `whole_reduce_max` writes each row's maximum (one value per repeat);
- `brcb` broadcasts 8 of those values at a time, each into a 32-byte block;
- a level-0 `sub` with a src1 block stride of 0 and a repeat stride of one
  block subtracts row r's maximum from every element of row r;
- `exp` (count form), then `whole_reduce_sum`, `brcb` and a level-0 `div` in
  the same way.

Dependent vector instructions are separated with `pipe_barrier(PIPE_V)`, as
the devkit's own implementations do. The blocks share the rows; TQues move
the tiles in and out with double buffering.

    python examples/04_softmax/softmax.py
"""

import argparse

import numpy as np

import asc
import asc.runtime.config as config

CORES = 4
COLS = 64  # one repeat of float32
TILE_ROWS = 32  # rows a tile: a multiple of 8 (brcb fills 8 blocks a repeat)
BUFFERS = 2


@asc.jit
def softmax_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows_per_block: int, tile: asc.ConstExpr[int]):
    first = asc.get_block_idx() * rows_per_block * COLS
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first, rows_per_block * COLS)
    y_gm.set_global_buffer(y + first, rows_per_block * COLS)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, BUFFERS)
    y_out = asc.TQue(asc.TPosition.VECOUT, BUFFERS)
    stat_buf = asc.TBuf(asc.TPosition.VECCALC)
    bcast_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(x_in, BUFFERS, tile * COLS * 4)
    pipe.init_buffer(y_out, BUFFERS, tile * COLS * 4)
    pipe.init_buffer(stat_buf, tile * 4)  # one value a row
    pipe.init_buffer(bcast_buf, tile * 8 * 4)  # one 32-byte block a row
    stat = stat_buf.get(asc.float32)
    bcast = bcast_buf.get(asc.float32)
    # row r's block of bcast against all 8 blocks of row r
    per_row = asc.BinaryRepeatParams(1, 1, 0, 8, 8, 1)

    for t in range(rows_per_block // tile):
        x_ub = x_in.alloc_tensor(asc.float32)
        asc.data_copy(x_ub, x_gm[t * tile * COLS:], tile * COLS)
        x_in.enque(x_ub)

        x_ub = x_in.deque(asc.float32)
        y_ub = y_out.alloc_tensor(asc.float32)
        asc.whole_reduce_max(stat, x_ub, COLS, tile, 1, 1, 8, order=asc.ReduceOrder.ORDER_ONLY_VALUE)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.brcb(bcast, stat, tile // 8, asc.BrcbRepeatParams(1, 8))
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.sub(y_ub, x_ub, bcast, COLS, tile, per_row)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.exp(y_ub, y_ub, tile * COLS)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.whole_reduce_sum(stat, y_ub, COLS, tile, 1, 1, 8)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.brcb(bcast, stat, tile // 8, asc.BrcbRepeatParams(1, 8))
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        asc.div(y_ub, y_ub, bcast, COLS, tile, per_row)
        y_out.enque(y_ub)
        x_in.free_tensor(x_ub)

        y_ub = y_out.deque(asc.float32)
        asc.data_copy(y_gm[t * tile * COLS:], y_ub, tile * COLS)
        y_out.free_tensor(y_ub)


def reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def run(rows: int = CORES * 2 * TILE_ROWS, scale: float = 4.0) -> np.ndarray:
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((rows, COLS)) * scale).astype(np.float32)
    y = np.zeros_like(x)
    rows_per_block = rows // CORES
    assert rows % (CORES * TILE_ROWS) == 0, "rows: a multiple of CORES * TILE_ROWS"
    softmax_kernel[CORES](x, y, rows_per_block, TILE_ROWS)
    np.testing.assert_allclose(y, reference(x), rtol=2e-6, atol=1e-7)
    return y


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    y = run()
    print("softmax: OK (rows of", COLS, "floats on", CORES, "blocks, within 2e-6 of float64 NumPy)")
