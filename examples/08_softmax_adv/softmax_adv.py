"""Softmax over the rows of a (1024, 4096) float16 matrix with the advanced
API: asc.adv.softmax, the devkit's AscendC::SoftMax.

The host computes the SoftMax tiling for a tile of rows and the temporary
buffer the kernel gives it (asc.lib.host.softmax_tiling_func: as many rows
at once as the buffer holds, each in float with a 32-byte block of its sum
and 64 floats of reduction lanes); the kernel passes it with the tile's
shape (the ShapeInfo of src) to asc.adv.softmax, which also writes each
row's max and sum (one 32-byte block a row). The blocks share the rows; TQues
move the tiles in and out with double buffering.

    python examples/08_softmax_adv/softmax_adv.py
"""

import argparse

import numpy as np

import asc
import asc.lib.host as host
import asc.runtime.config as config

ROWS, COLS = 1024, 4096
CORES = 8
TILE_ROWS = 4  # 32 KiB of half a tile
BUFFERS = 2
# SoftMax's temporary buffer: 52 KiB of what the UB has left after the queues (2 x 2 x 32 KiB) and the sum / max
# blocks (this AIV kernel, using no API that keeps Ascend C's reserved 8 KiB, may use all 192 KiB); 3 rows of float
# fit, so a tile is done as 3 rows and a tail of 1 (the tiling's range_m, tail_m)
TMP_BYTES = 52 * 1024


@asc.jit
def softmax_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows_per_block: asc.ConstExpr[int],
                   tiling: asc.adv.SoftmaxTiling):
    first = asc.get_block_idx() * rows_per_block * COLS
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first, rows_per_block * COLS)
    y_gm.set_global_buffer(y + first, rows_per_block * COLS)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, BUFFERS)
    y_out = asc.TQue(asc.TPosition.VECOUT, BUFFERS)
    sum_buf = asc.TBuf(asc.TPosition.VECCALC)
    max_buf = asc.TBuf(asc.TPosition.VECCALC)
    tmp_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(x_in, BUFFERS, TILE_ROWS * COLS * 2)
    pipe.init_buffer(y_out, BUFFERS, TILE_ROWS * COLS * 2)
    pipe.init_buffer(sum_buf, TILE_ROWS * 32)  # one 32-byte block a row
    pipe.init_buffer(max_buf, TILE_ROWS * 32)
    pipe.init_buffer(tmp_buf, TMP_BYTES)
    sums = sum_buf.get(asc.float16)
    maxes = max_buf.get(asc.float16)
    tmp = tmp_buf.get(asc.uint8)

    for t in range(rows_per_block // TILE_ROWS):
        x_ub = x_in.alloc_tensor(asc.float16)
        asc.data_copy(x_ub, x_gm[t * TILE_ROWS * COLS:], TILE_ROWS * COLS)
        x_in.enque(x_ub)

        x_ub = x_in.deque(asc.float16)
        y_ub = y_out.alloc_tensor(asc.float16)
        x_ub.set_shape_info(asc.ShapeInfo([TILE_ROWS, COLS]))
        asc.adv.softmax(y_ub, sums, maxes, x_ub, tiling, tmp)
        y_out.enque(y_ub)
        x_in.free_tensor(x_ub)

        y_ub = y_out.deque(asc.float16)
        asc.data_copy(y_gm[t * TILE_ROWS * COLS:], y_ub, TILE_ROWS * COLS)
        y_out.free_tensor(y_ub)


def run(rows: int = ROWS, scale: float = 2.0) -> np.ndarray:
    import torch

    assert rows % (CORES * TILE_ROWS) == 0, "rows: a multiple of CORES * TILE_ROWS"
    rng = np.random.default_rng(8)
    x = (rng.standard_normal((rows, COLS)) * scale).astype(np.float16)
    y = np.zeros_like(x)
    tiling = host.softmax_tiling_func([TILE_ROWS, COLS], 2, TMP_BYTES)
    softmax_kernel[CORES](x, y, rows // CORES, tiling)
    ref = torch.softmax(torch.from_numpy(x).float(), dim=1).numpy()
    # The kernel computes in float and rounds the result to half once (CAST_ROUND), so a normal half result is
    # within half an ulp (2^-11 relative) plus float's few ulps of exp and the row sum: rtol 2^-10. Results below
    # half's smallest normal (6.1e-5; exp(x - max) / sum of 4096 terms is often there) are subnormals, spaced
    # 2^-24 apart: atol 2^-24.
    np.testing.assert_allclose(y.astype(np.float32), ref, rtol=2.0 ** -10, atol=2.0 ** -24)
    return y


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    y = run()
    print("softmax_adv: OK (", ROWS, "x", COLS, "float16 on", CORES, "blocks, within 2^-10 of torch.softmax)")
