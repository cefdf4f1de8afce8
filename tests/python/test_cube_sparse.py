"""The 4:2 sparse matrix multiplication on the simulator against NumPy:
load_data_with_sparse + mmad_with_sparse (int8 x int8 -> int32) with the
dense B and its index matrix built as the devkit's mmad_with_sparse
gen_data.py builds them, the selection table's collapsed entries, the
accumulating form, and the errors."""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc


@asc.jit
def sp_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, idx: asc.GlobalAddress, c: asc.GlobalAddress,
              m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int], twice: asc.ConstExpr[bool]):
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    i_gm.set_global_buffer(idx)
    c_gm.set_global_buffer(c)
    m1 = (m + 15) // 16
    n1 = (n + 15) // 16
    k1 = (k + 31) // 32
    kd1 = (k // 2 + 31) // 32
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qi1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, m1 * k1 * 512)
    pipe.init_buffer(qb1, 1, kd1 * n1 * 512)
    pipe.init_buffer(qi1, 1, kd1 * n1 * 128)
    pipe.init_buffer(qa2, 1, m1 * k1 * 512)
    pipe.init_buffer(qb2, 1, kd1 * n1 * 512)
    pipe.init_buffer(qc, 1, m1 * n1 * 1024)
    a1 = qa1.alloc_tensor(asc.int8)
    b1 = qb1.alloc_tensor(asc.int8)
    i1 = qi1.alloc_tensor(asc.uint8)
    a2 = qa2.alloc_tensor(asc.int8)
    b2 = qb2.alloc_tensor(asc.int8)
    co1 = qc.alloc_tensor(asc.int32)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 1))
    asc.data_copy(b1, b_gm, kd1 * n1 * 512)
    asc.data_copy(i1, i_gm, kd1 * n1 * 128)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 512], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False, 0))
    asc.load_data_with_sparse(b2, b1, i1, asc.LoadData2DParams(start_index=0, repeat_times=kd1 * n1))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad_with_sparse(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=True))
    if twice:
        asc.pipe_barrier(asc.PipeID.PIPE_M)
        asc.mmad_with_sparse(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=False))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=n))


def sparse_b(n: int, k: int, rng: Any) -> np.ndarray:
    """B[n][k]: every group of 4 has exactly 2 non-zeros (gen_data.py's construct_sparse_matrix_B)."""
    b = np.zeros((n, k), np.int8)
    for r in range(n):
        for g in range(0, k, 4):
            pos = rng.choice(4, 2, replace=False)
            b[r, g + pos] = rng.integers(1, 10, 2) * rng.choice([-1, 1], 2)
    return b


def densify(b: np.ndarray) -> Any:
    """The dense B[n][k/2], its index entries and the columns of A each dense element multiplies."""
    n, k = b.shape
    dense = np.zeros((n, k // 2), np.int8)
    index = np.zeros((n, k // 2), np.uint8)
    cols = np.zeros((n, k // 2), np.int64)
    for r in range(n):
        for g in range(k // 4):
            nz = [j for j in range(4) if b[r, 4 * g + j]]
            dense[r, 2 * g:2 * g + 2] = b[r, 4 * g + np.array(nz)]
            index[r, 2 * g:2 * g + 2] = (nz[0], nz[1] - 1)
            cols[r, 2 * g:2 * g + 2] = (4 * g + nz[0], 4 * g + nz[1])
    return dense, index, cols


def images(dense: np.ndarray, index: np.ndarray) -> Any:
    """L1 images: B (k/2 x n, ZN, k0 32) and the index (fractals of 16 n x 8 bytes, the same order)."""
    n, kd = dense.shape
    b_img = dense.reshape(n // 16, 16, kd // 32, 32).transpose(2, 0, 1, 3).reshape(-1)
    packed = np.zeros((n, kd // 4), np.uint8)
    for j in range(4):
        packed |= (index[:, j::4] << (2 * j)).astype(np.uint8)
    i_img = packed.reshape(n // 16, 16, kd // 32, 8).transpose(2, 0, 1, 3).reshape(-1)
    return b_img, i_img


def golden(a: np.ndarray, dense: np.ndarray, cols: np.ndarray) -> np.ndarray:
    m, n = a.shape[0], dense.shape[0]
    c = np.zeros((m, n), np.int64)
    for r in range(n):
        c[:, r] = a[:, cols[r]].astype(np.int64) @ dense[r].astype(np.int64)
    return c.astype(np.int32)


@pytest.mark.parametrize("m, n, k", [(16, 16, 64), (20, 32, 128), (5, 48, 64)])
def test_mmad_with_sparse(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m * 100 + n + k)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    dense, index, cols = densify(sparse_b(n, k, rng))
    b_img, i_img = images(dense, index)
    c = np.zeros((m, n), np.int32)
    sp_kernel[1](a, b_img, i_img, c, m, n, k, False)
    assert (c == golden(a, dense, cols)).all()
    c2 = np.zeros((m, n), np.int32)
    sp_kernel[1](a, b_img, i_img, c2, m, n, k, True)
    assert (c2 == 2 * c).all()


def test_collapsed_entries_select_one_column_twice() -> None:
    # (i0, i1) = (2, 0) and (1, 0): both dense elements multiply column 4g + i0 (the devkit's table, X/X)
    m, n, k = 16, 16, 64
    rng = np.random.default_rng(7)
    a = rng.integers(-50, 50, (m, k)).astype(np.int8)
    dense = rng.integers(-9, 10, (n, k // 2)).astype(np.int8)
    index = np.zeros((n, k // 2), np.uint8)
    index[:, 0::2] = rng.integers(0, 3, (n, k // 4))
    index[:, 1::2] = rng.integers(0, 3, (n, k // 4))
    index[:4, 0:2] = (2, 0)
    index[4:8, 0:2] = (1, 0)
    cols = np.zeros((n, k // 2), np.int64)
    g = np.arange(k // 4)
    i0, i1 = index[:, 0::2].astype(np.int64), index[:, 1::2].astype(np.int64)
    cols[:, 0::2] = 4 * g + i0
    cols[:, 1::2] = 4 * g + np.maximum(i0, 1 + i1)
    b_img, i_img = images(dense, index)
    c = np.zeros((m, n), np.int32)
    sp_kernel[1](a, b_img, i_img, c, m, n, k, False)
    assert (c == golden(a, dense, cols)).all()


def test_index_entry_3_is_a_kernel_error() -> None:
    m, n, k = 16, 16, 64
    dense = np.ones((n, k // 2), np.int8)
    index = np.zeros((n, k // 2), np.uint8)
    index[3, 5] = 3
    b_img, i_img = images(dense, index)
    with pytest.raises(asc.KernelError, match="index entry 3"):
        sp_kernel[1](np.ones((m, k), np.int8), b_img, i_img, np.zeros((m, n), np.int32), m, n, k, False)


def test_ascendc_of_the_sparse_ops() -> None:
    test_mmad_with_sparse(16, 16, 64)
    src = ascendc(sp_kernel)
    assert "AscendC::LoadDataWithSparse(" in src and "AscendC::MmadWithSparse(" in src
