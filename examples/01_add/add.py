"""Vector add with manual synchronisation and double buffering.

Each of 8 blocks adds its slice of x and y. Inside a block the slice is cut
into tiles; while the vector unit adds tile i, the DMA engine (MTE2) can
already load tile i+1 into the other half of the buffers. The flags order
the pipes: MTE2 → V (data loaded), V → MTE3 (sum ready), MTE3 → MTE2
(buffer free again).

    python examples/01_add/add.py            # runs on the simulator
"""

import argparse

import numpy as np

import asc
import asc.lib.runtime as rt
import asc.runtime.config as config

CORES = 8
TILES = 8
BUFFERS = 2  # 1: no overlap between copy and compute; 2: double buffering


@asc.jit
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    y_gm.set_global_buffer(y + start, block_length)
    z_gm.set_global_buffer(z + start, block_length)

    tile = block_length // TILES // BUFFERS
    dtype = x.dtype
    bytes_per_buffer = tile * BUFFERS * dtype.sizeof()
    # three UB regions, one after the other
    x_ub = asc.LocalTensor(dtype, asc.TPosition.VECIN, 0, tile * BUFFERS)
    y_ub = asc.LocalTensor(dtype, asc.TPosition.VECIN, bytes_per_buffer, tile * BUFFERS)
    z_ub = asc.LocalTensor(dtype, asc.TPosition.VECOUT, 2 * bytes_per_buffer, tile * BUFFERS)

    for i in range(TILES * BUFFERS):
        slot = i % BUFFERS
        if i >= BUFFERS:
            # the slot's previous tile has left the UB (MTE3 copied it out)
            asc.wait_flag(asc.HardEvent.MTE3_MTE2, slot)
        asc.data_copy(x_ub[slot * tile:], x_gm[i * tile:], tile)
        asc.data_copy(y_ub[slot * tile:], y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, slot)
        asc.wait_flag(asc.HardEvent.MTE2_V, slot)

        asc.add(z_ub[slot * tile:], x_ub[slot * tile:], y_ub[slot * tile:], tile)
        asc.set_flag(asc.HardEvent.V_MTE3, slot)
        asc.wait_flag(asc.HardEvent.V_MTE3, slot)

        asc.data_copy(z_gm[i * tile:], z_ub[slot * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, slot)
    for slot in range(BUFFERS):
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, slot)  # every set_flag has its wait_flag


def run(size: int = CORES * 2048, dtype: type = np.float32) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = (rng.random(size) * 100).astype(dtype)  # integers 0..99 for integer dtypes
    y = (rng.random(size) * 100).astype(dtype)
    z = np.zeros_like(x)
    add_kernel[CORES, rt.current_stream()](x, y, z, size // CORES)
    np.testing.assert_array_equal(z, x + y)
    return z


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    run()
    print("add: OK (z == x + y on", CORES, "blocks)")
