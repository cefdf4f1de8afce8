"""ReLU over 8 blocks: z = max(x, 0), with a TQue pipeline per block.

The input length need not divide evenly: every block but the last takes
`block_length` elements; the last one takes the rest. Tiles are a multiple
of 32 bytes, as DataCopy requires.

    python examples/relu/relu.py
"""

import argparse

import numpy as np

import asc
import asc.runtime.config as config

CORES = 8
TILE = 256  # elements per tile


@asc.jit
def relu_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int, total: int,
                tile: asc.ConstExpr[int]):
    block = asc.get_block_idx()
    start = block * block_length
    length = block_length
    if block == asc.get_block_num() - 1:
        length = total - start  # the last block takes the remainder
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, length)
    z_gm.set_global_buffer(z + start, length)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, 2)
    z_out = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(x_in, 2, tile * x.dtype.sizeof())
    pipe.init_buffer(z_out, 2, tile * z.dtype.sizeof())

    for t in range(length // tile):
        x_ub = x_in.alloc_tensor(x.dtype)
        asc.data_copy(x_ub, x_gm[t * tile:], tile)
        x_in.enque(x_ub)

        x_ub = x_in.deque(x.dtype)
        z_ub = z_out.alloc_tensor(z.dtype)
        asc.relu(z_ub, x_ub, tile)
        z_out.enque(z_ub)
        x_in.free_tensor(x_ub)

        z_ub = z_out.deque(z.dtype)
        asc.data_copy(z_gm[t * tile:], z_ub, tile)
        z_out.free_tensor(z_ub)


def run(size: int = CORES * 4096 + 3 * TILE, dtype: type = np.float32) -> np.ndarray:
    if size % TILE:
        raise ValueError(f"size must be a multiple of the tile ({TILE} elements)")
    rng = np.random.default_rng(2)
    x = ((rng.random(size) - 0.5) * 100).astype(dtype)
    z = np.full_like(x, np.nan)
    block_length = size // CORES // TILE * TILE
    relu_kernel[CORES](x, z, block_length, size, TILE)
    np.testing.assert_array_equal(z, np.maximum(x, 0))
    return z


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r))
    run()
    print("relu: OK (z == max(x, 0) on", CORES, "blocks)")
