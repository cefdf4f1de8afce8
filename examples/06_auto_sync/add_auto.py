"""Vector add with no synchronisation written: the compiler places the buffers and the flags.

The kernel of 01_add, written as upstream pyasc's insert_sync tutorial writes
it: `asc.LocalTensorAuto` buffers (the `plan-ub` pass gives them UB bytes and,
since two pipes touch each one in the loop, two halves picked by the
iteration's parity) and no set_flag/wait_flag at all (using an auto tensor
turns on `insert_sync`, whose pass orders every pair of pipes that touch the
same bytes). `-v` prints the pass log: the plan and every sync inserted, with
the two lines it orders.

    python examples/06_auto_sync/add_auto.py [-v]
"""

import argparse

import numpy as np

import asc
import asc.lib.runtime as rt

CORES = 8
TILES = 8


@asc.jit
def copy_in(i: int, x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, x_ub: asc.LocalTensorAuto,
            y_ub: asc.LocalTensorAuto, tile: asc.ConstExpr[int]):
    asc.data_copy(x_ub, x_gm[i * tile:], count=tile)
    asc.data_copy(y_ub, y_gm[i * tile:], count=tile)


@asc.jit
def compute(x_ub: asc.LocalTensorAuto, y_ub: asc.LocalTensorAuto, z_ub: asc.LocalTensorAuto,
            tile: asc.ConstExpr[int]):
    asc.add(z_ub, x_ub, y_ub, tile)


@asc.jit
def copy_out(i: int, z_gm: asc.GlobalTensor, z_ub: asc.LocalTensorAuto, tile: asc.ConstExpr[int]):
    asc.data_copy(z_gm[i * tile:], z_ub, count=tile)


@asc.jit  # asc.LocalTensorAuto implies insert_sync=True
def add_auto_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                    block_length: asc.ConstExpr[int]):
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start)
    y_gm.set_global_buffer(y + start)
    z_gm.set_global_buffer(z + start)
    tile = block_length // TILES
    for i in range(TILES):
        x_ub = asc.LocalTensorAuto(x.dtype, tile)
        y_ub = asc.LocalTensorAuto(x.dtype, tile)
        z_ub = asc.LocalTensorAuto(x.dtype, tile)
        copy_in(i, x_gm, y_gm, x_ub, y_ub, tile)
        compute(x_ub, y_ub, z_ub, tile)
        copy_out(i, z_gm, z_ub, tile)


def run(size: int = CORES * 2048, dtype: type = np.float32, verbose: bool = False) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = (rng.random(size) * 100).astype(dtype)
    y = (rng.random(size) * 100).astype(dtype)
    z = np.zeros_like(x)
    add_auto_kernel[CORES, rt.current_stream()](x, y, z, size // CORES)
    np.testing.assert_array_equal(z, x + y)
    if verbose:
        compiled = next(iter(add_auto_kernel.cache.values()))
        print(compiled.pass_log, end="")
    return z


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="print the UB plan and the inserted syncs")
    args = parser.parse_args()
    run(verbose=args.v)
    print("add_auto: OK (z == x + y on", CORES, "blocks, syncs inserted by the compiler)")
