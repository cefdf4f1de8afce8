"""Top-k over the rows of a matrix with sort32 and mrg_sort, on 4 blocks.

Each row of 128 scores is sorted in 4 runs of 32 by asc.sort32 (as
(score, index) pairs of 8 bytes: the Ascend910B layout), the 4 runs are
merged into one descending list by asc.mrg_sort, and the first k pairs
are split into the row's top-k values and their column indices. Equal
scores keep their column order, as the hardware does. The blocks share the
rows; a TQue pipeline per block moves them in and out.

    python examples/07_topk/topk.py
"""

import argparse

import numpy as np

import asc
import asc.runtime.config as config

CORES = 4
COLS = 128  # 4 runs of 32: one merge of 4 lists
K = 16  # a row's k values fill whole 32-byte blocks (DataCopy moves blocks) in float16 and float32


@asc.jit
def topk_kernel(x: asc.GlobalAddress, cols_idx: asc.GlobalAddress, values: asc.GlobalAddress,
                indices: asc.GlobalAddress, rows_per_block: int, cols: asc.ConstExpr[int], k: asc.ConstExpr[int]):
    block = asc.get_block_idx()
    first = block * rows_per_block
    x_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    v_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + first * cols, rows_per_block * cols)
    i_gm.set_global_buffer(cols_idx, cols)
    v_gm.set_global_buffer(values + first * k, rows_per_block * k)
    o_gm.set_global_buffer(indices + first * k, rows_per_block * k)

    per = 8 // x.dtype.sizeof()  # elements of x's type in one (score, index) pair
    pipe = asc.TPipe()
    # the sort buffers first: Sort32 wants its dst 256-byte aligned
    sorted_buf = asc.TBuf(asc.TPosition.VECCALC)
    merged_buf = asc.TBuf(asc.TPosition.VECCALC)
    idx_buf = asc.TBuf(asc.TPosition.VECCALC)
    x_in = asc.TQue(asc.TPosition.VECIN, 2)
    v_out = asc.TQue(asc.TPosition.VECOUT, 2)
    o_out = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(sorted_buf, cols * 8)
    pipe.init_buffer(merged_buf, cols * 8)
    pipe.init_buffer(idx_buf, cols * 4)
    pipe.init_buffer(x_in, 2, cols * x.dtype.sizeof())
    pipe.init_buffer(v_out, 2, k * x.dtype.sizeof())
    pipe.init_buffer(o_out, 2, k * 4)

    idx = idx_buf.get(asc.uint32)
    asc.data_copy(idx, i_gm, cols)  # the column numbers 0..cols-1, the sort's indices
    sorted_pairs = sorted_buf.get(x.dtype)
    merged = merged_buf.get(x.dtype)
    merged_bits = merged.reinterpret_cast(asc.uint32)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)

    for r in range(rows_per_block):
        x_ub = x_in.alloc_tensor(x.dtype)
        asc.data_copy(x_ub, x_gm[r * cols:], cols)
        x_in.enque(x_ub)

        x_ub = x_in.deque(x.dtype)
        asc.sort32(sorted_pairs, x_ub, idx, cols // 32)
        asc.pipe_barrier(asc.PipeID.PIPE_V)
        run = 32 * per  # one sorted run of 32 pairs, in elements of x's type
        lists = asc.MrgSortSrcList(x.dtype, sorted_pairs, sorted_pairs[run], sorted_pairs[2 * run],
                                   sorted_pairs[3 * run])
        asc.mrg_sort(merged, lists, [32, 32, 32, 32], [0, 0, 0, 0], 15, 1)
        x_in.free_tensor(x_ub)

        # the first k pairs: the score in the low bytes, the index in the high 4
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        v_ub = v_out.alloc_tensor(x.dtype)
        o_ub = o_out.alloc_tensor(asc.uint32)
        for j in range(k):
            v_ub.set_value(j, merged.get_value(j * per))
            o_ub.set_value(j, merged_bits.get_value(2 * j + 1))
        asc.set_flag(asc.HardEvent.S_V, 0)  # the next row's sort overwrites what was just read
        asc.wait_flag(asc.HardEvent.S_V, 0)
        asc.set_flag(asc.HardEvent.S_MTE3, 0)
        asc.wait_flag(asc.HardEvent.S_MTE3, 0)
        v_out.enque(v_ub)
        o_out.enque(o_ub)

        v_ub = v_out.deque(x.dtype)
        asc.data_copy(v_gm[r * k:], v_ub, k)
        v_out.free_tensor(v_ub)
        o_ub = o_out.deque(asc.uint32)
        asc.data_copy(o_gm[r * k:], o_ub, k)
        o_out.free_tensor(o_ub)


def reference(x: np.ndarray, k: int) -> "tuple[np.ndarray, np.ndarray]":
    """The top k of each row, descending; equal scores in column order."""
    order = np.argsort(-x.astype(np.float64), axis=1, kind="stable")[:, :k]
    return np.take_along_axis(x, order, axis=1), order.astype(np.uint32)


def run(rows: int = 16, dtype: type = np.float32) -> "tuple[np.ndarray, np.ndarray]":
    if rows % CORES:
        raise ValueError(f"rows must be a multiple of the blocks ({CORES})")
    rng = np.random.default_rng(3)
    # rounded scores, so that rows have equal values and the tie order shows
    x = np.round(rng.standard_normal((rows, COLS)) * 8).astype(dtype)
    values = np.full(rows * K, np.nan, dtype)
    indices = np.zeros(rows * K, np.uint32)
    topk_kernel[CORES](x, np.arange(COLS, dtype=np.uint32), values, indices, rows // CORES, COLS, K)
    values = values.reshape(rows, K)
    indices = indices.reshape(rows, K)
    ev, ei = reference(x, K)
    np.testing.assert_array_equal(values, ev)
    np.testing.assert_array_equal(indices, ei)
    return values, indices


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", default="Model", choices=[b.value for b in config.Backend], help="backend")
    args = parser.parse_args()
    config.set_platform(config.Backend(args.r))
    run()
    run(dtype=np.float16)
    print(f"topk: OK (the top {K} of each row of {COLS}, float32 and float16, on {CORES} blocks)")
