"""The cube family's loads on the simulator against NumPy:
load_data_with_transpose (16-, 8- and 32-bit types, repeats, strides,
gaps, addr_mode 1), the 3-D load_data (img2col with padding, strides,
dilation, the start points, the padding register, transposition) and the
registers set_load_data_boundary / padding_value / repeat.

An L0A / L0B image is checked through Mmad with an identity operand: C = A
I (or I B) is the loaded matrix, exact in every dtype used, then Fixpipe
writes it to GM. Layouts: L0A ZZ, L0B ZN (src/sim/cube_ops.c)."""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc

NPT = {asc.float16: np.float16, asc.float32: np.float32, asc.int8: np.int8}
K0 = {asc.float16: 16, asc.float32: 8, asc.int8: 32}


def zz_image(a: np.ndarray, k0: int) -> np.ndarray:
    """A[m][k] (m, k multiples of 16, k0) in L0A's ZZ order (flat)."""
    m, k = a.shape
    return a.reshape(m // 16, 16, k // k0, k0).transpose(0, 2, 1, 3).reshape(-1)


def zz_matrix(img: np.ndarray, m: int, k: int, k0: int) -> np.ndarray:
    return img[:m * k].reshape(m // 16, k // k0, 16, k0).transpose(0, 2, 1, 3).reshape(m, k)


def zn_image(b: np.ndarray, k0: int) -> np.ndarray:
    """B[k][n] in L0B's ZN order: fractals row by row over (k, n), each column-major."""
    k, n = b.shape
    return b.reshape(k // k0, k0, n // 16, 16).transpose(0, 2, 3, 1).reshape(-1)


def zn_matrix(img: np.ndarray, k: int, n: int, k0: int) -> np.ndarray:
    return img[:k * n].reshape(k // k0, n // 16, 16, k0).transpose(0, 3, 1, 2).reshape(k, n)


@asc.jit
def tr_kernel(src: asc.GlobalAddress, eye: asc.GlobalAddress, c: asc.GlobalAddress, dt: asc.ConstExpr,
              src_len: asc.ConstExpr[int], l0_len: asc.ConstExpr[int], m: asc.ConstExpr[int], k: asc.ConstExpr[int],
              to_b: asc.ConstExpr[bool], p: asc.ConstExpr):
    """L1 <- src; L0A (or L0B) <- load_data_with_transpose(L1, p); C = L0 x I (I x L0) -> c."""
    s_gm = asc.GlobalTensor()
    e_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    s_gm.set_global_buffer(src)
    e_gm.set_global_buffer(eye)
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qe = asc.TQue(asc.TPosition.B1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q1, 1, src_len * dt.sizeof())
    pipe.init_buffer(qe, 1, l0_len * dt.sizeof())
    pipe.init_buffer(q2, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qb, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qc, 1, 16 * 1024)
    s1 = q1.alloc_tensor(dt)
    e1 = qe.alloc_tensor(dt)
    a2 = q2.alloc_tensor(dt)
    b2 = qb.alloc_tensor(dt)
    acc_t = asc.int32 if dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(s1, s_gm, src_len)
    asc.data_copy(e1, e_gm, l0_len)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    frac = l0_len * dt.sizeof() // 512
    if to_b:  # the identity in L0A, the transposed load in L0B
        asc.init_const_value(b2.reinterpret_cast(asc.int16), asc.InitConstValueParams(1, frac, 0, asc.int16(0)))
        asc.load_data(a2, e1, asc.LoadData2DParams(0, frac, 1, 0, 0, False, 0))
        asc.pipe_barrier(asc.PipeID.PIPE_MTE1)
        asc.load_data_with_transpose(b2, s1, p)
    else:
        asc.init_const_value(a2.reinterpret_cast(asc.int16), asc.InitConstValueParams(1, frac, 0, asc.int16(0)))
        asc.load_data(b2, e1, asc.LoadData2DParams(0, frac, 1, 0, 0, False, 0))
        asc.pipe_barrier(asc.PipeID.PIPE_MTE1)
        asc.load_data_with_transpose(a2, s1, p)
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=k, k=k, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=k, m_size=m, src_stride=m, dst_stride=k))


def transpose_ref(src: np.ndarray, l0_len: int, start: int, repeat: int, stride: int, gap: int, fgap: int,
                  addr_mode: int) -> np.ndarray:
    """The devkit's load_data_with_transpose.py, in elements: the square r transposed."""
    es = src.dtype.itemsize
    side, nf = {2: (16, 1), 1: (32, 2), 4: (16, 2)}[es]
    fr = 512 // es
    dst = np.zeros(l0_len, src.dtype)
    for r in range(repeat):
        sq = (start + (-r if addr_mode else r) * stride) * nf * fr
        if es == 4:  # two 16 x 8 fractals side by side
            s = np.concatenate([src[sq:sq + fr].reshape(16, 8), src[sq + fr:sq + 2 * fr].reshape(16, 8)], axis=1)
            d = s.T
            parts = [d[:, :8].reshape(-1), d[:, 8:].reshape(-1)]
        else:  # 16 x 16, or two 16 x 32 one above the other
            d = src[sq:sq + side * side].reshape(side, side).T
            parts = [d[16 * j:16 * (j + 1)].reshape(-1) for j in range(nf)]
        base = r * (gap + 1) * fr
        for j, part in enumerate(parts):
            o = base + j * (fgap + 1) * fr
            dst[o:o + fr] = part
    return dst


CASES = [  # dtype, (start, repeat, stride, gap, fgap, addr_mode)
    (asc.float16, (0, 1, 0, 0, 0, 0)), (asc.float16, (1, 3, 2, 0, 0, 0)), (asc.float16, (3, 4, 1, 1, 0, 1)),
    (asc.int8, (0, 1, 0, 0, 0, 0)), (asc.int8, (0, 2, 1, 1, 0, 0)), (asc.int8, (1, 2, 1, 0, 2, 0)),
    (asc.float32, (0, 1, 0, 0, 0, 0)), (asc.float32, (0, 2, 1, 2, 0, 0)), (asc.float32, (2, 2, 1, 0, 2, 1)),
]


@pytest.mark.parametrize("to_b", [False, True])
@pytest.mark.parametrize("dt, p", CASES)
def test_load_data_with_transpose(dt: Any, p: Any, to_b: bool) -> None:
    es = np.dtype(NPT[dt]).itemsize
    k0 = K0[dt]
    fr = 512 // es
    frac = 8  # the L0 region: 8 fractals, checked as a (16 * 8 / rows) x k matrix
    l0_len = frac * fr
    rng = np.random.default_rng(sum(p) + es)
    src_len = 8 * 2 * fr
    if dt == asc.int8:
        src = rng.integers(-100, 100, src_len).astype(np.int8)
    else:  # values a product with 1 keeps exactly
        src = (rng.integers(-500, 500, src_len) / 8).astype(NPT[dt])
    img = transpose_ref(src, l0_len, *p)
    # the region as a matrix of k = 2 fractal columns: m = 16 * frac / (k / k0)
    k = 2 * k0
    m = l0_len // k
    eye = np.eye(k, dtype=NPT[dt])
    eye_img = zz_image(eye, k0) if to_b else zn_image(eye, k0)
    eye_full = np.zeros(l0_len, NPT[dt])
    eye_full[:eye_img.size] = eye_img
    if to_b:  # I[k x k] x B: m = k rows; B is k x n with n = l0_len / k
        n = l0_len // k
        want = zn_matrix(img, k, n, k0)
        c = np.zeros((k, n), np.int32 if dt == asc.int8 else np.float32)
        tr_kernel_b(src, eye_full, c, dt, src_len, l0_len, k, n, p)
    else:
        want = zz_matrix(img, m, k, k0)
        c = np.zeros((m, k), np.int32 if dt == asc.int8 else np.float32)
        tr_kernel[1](src, eye_full, c, dt, src_len, l0_len, m, k, False, asc.LoadData2dTransposeParams(*p))
    assert (c == want.astype(c.dtype)).all()


def tr_kernel_b(src: Any, eye: Any, c: Any, dt: Any, src_len: int, l0_len: int, k: int, n: int, p: Any) -> None:
    tr_kernel_bn[1](src, eye, c, dt, src_len, l0_len, k, n, asc.LoadData2dTransposeParams(*p))


@asc.jit
def tr_kernel_bn(src: asc.GlobalAddress, eye: asc.GlobalAddress, c: asc.GlobalAddress, dt: asc.ConstExpr,
                 src_len: asc.ConstExpr[int], l0_len: asc.ConstExpr[int], k: asc.ConstExpr[int],
                 n: asc.ConstExpr[int], p: asc.ConstExpr):
    """C[k x n] = I[k x k] x B, B the transposed load into L0B."""
    s_gm = asc.GlobalTensor()
    e_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    s_gm.set_global_buffer(src)
    e_gm.set_global_buffer(eye)
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.B1, 1)
    qe = asc.TQue(asc.TPosition.A1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q1, 1, src_len * dt.sizeof())
    pipe.init_buffer(qe, 1, l0_len * dt.sizeof())
    pipe.init_buffer(q2, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qb, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qc, 1, 16 * 1024)
    s1 = q1.alloc_tensor(dt)
    e1 = qe.alloc_tensor(dt)
    a2 = q2.alloc_tensor(dt)
    b2 = qb.alloc_tensor(dt)
    acc_t = asc.int32 if dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(s1, s_gm, src_len)
    asc.data_copy(e1, e_gm, l0_len)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    frac = l0_len * dt.sizeof() // 512
    asc.init_const_value(b2.reinterpret_cast(asc.int16), asc.InitConstValueParams(1, frac, 0, asc.int16(0)))
    asc.load_data(a2, e1, asc.LoadData2DParams(0, frac, 1, 0, 0, False, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_MTE1)
    asc.load_data_with_transpose(b2, s1, p)
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=k, n=n, k=k, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=n, m_size=k, src_stride=k, dst_stride=n))


def test_ascendc_of_load_data_with_transpose() -> None:
    src = ascendc(tr_kernel_bn)
    assert "AscendC::LoadDataWithTranspose(" in src and "AscendC::LoadData2dTransposeParams(" in src
