"""Vector add with the framework classes TPipe and TQue.

The queues carry the synchronisation: `enque` after a copy-in and `deque`
before the compute stand in for the MTE2 → V flags of examples/01_add, and
so on. The kernel is split into three device functions, the usual
copy-in / compute / copy-out structure of Ascend C operators.

    python examples/02_add_framework/add_framework.py
"""

import argparse

import numpy as np

import asc
import asc.lib.runtime as rt
import asc.runtime.config as config

CORES = 8
TILES = 8
BUFFERS = 2


@asc.jit
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
               tile: asc.ConstExpr[int]):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start)
    y_gm.set_global_buffer(y + start)
    z_gm.set_global_buffer(z + start)

    pipe = asc.TPipe()
    x_in = asc.TQue(asc.TPosition.VECIN, BUFFERS)
    y_in = asc.TQue(asc.TPosition.VECIN, BUFFERS)
    z_out = asc.TQue(asc.TPosition.VECOUT, BUFFERS)
    pipe.init_buffer(x_in, BUFFERS, tile * x.dtype.sizeof())
    pipe.init_buffer(y_in, BUFFERS, tile * y.dtype.sizeof())
    pipe.init_buffer(z_out, BUFFERS, tile * z.dtype.sizeof())

    for i in range(TILES * BUFFERS):
        copy_in(i, x_gm, y_gm, x_in, y_in, tile)
        compute(z_gm, x_in, y_in, z_out, tile)
        copy_out(i, z_gm, z_out, tile)


@asc.jit
def copy_in(i: int, x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, x_in: asc.TQue, y_in: asc.TQue,
            tile: asc.ConstExpr[int]):
    x_ub = x_in.alloc_tensor(x_gm.dtype)
    y_ub = y_in.alloc_tensor(y_gm.dtype)
    asc.data_copy(x_ub, x_gm[i * tile:], tile)
    asc.data_copy(y_ub, y_gm[i * tile:], tile)
    x_in.enque(x_ub)
    y_in.enque(y_ub)


@asc.jit
def compute(z_gm: asc.GlobalTensor, x_in: asc.TQue, y_in: asc.TQue, z_out: asc.TQue, tile: asc.ConstExpr[int]):
    x_ub = x_in.deque(z_gm.dtype)
    y_ub = y_in.deque(z_gm.dtype)
    z_ub = z_out.alloc_tensor(z_gm.dtype)
    asc.add(z_ub, x_ub, y_ub, tile)
    z_out.enque(z_ub)
    x_in.free_tensor(x_ub)
    y_in.free_tensor(y_ub)


@asc.jit
def copy_out(i: int, z_gm: asc.GlobalTensor, z_out: asc.TQue, tile: asc.ConstExpr[int]):
    z_ub = z_out.deque(z_gm.dtype)
    asc.data_copy(z_gm[i * tile:], z_ub, tile)
    z_out.free_tensor(z_ub)


def run(size: int = CORES * 2048, dtype: type = np.float32) -> np.ndarray:
    rng = np.random.default_rng(1)
    x = (rng.random(size) * 100).astype(dtype)  # integers 0..99 for integer dtypes
    y = (rng.random(size) * 100).astype(dtype)
    z = np.zeros_like(x)
    block_length = size // CORES
    add_kernel[CORES, rt.current_stream()](x, y, z, block_length, block_length // TILES // BUFFERS)
    np.testing.assert_array_equal(z, x + y)
    return z


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    parser.add_argument("-v", default=None, choices=[p.value for p in config.Platform], help="platform")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r), config.Platform(args.v) if args.v else None)
    run()
    print("add_framework: OK (z == x + y on", CORES, "blocks)")
