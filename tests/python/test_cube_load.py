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

# bfloat16: the layouts are computed on float16 arrays of the same values (2-byte elements; the values are
# exact in both), the kernel gets torch bfloat16 tensors of them (GM holds their bits)
NPT = {asc.float16: np.float16, asc.bfloat16: np.float16, asc.float32: np.float32, asc.int8: np.int8}
K0 = {asc.float16: 16, asc.bfloat16: 16, asc.float32: 8, asc.int8: 32}


def dev(a: np.ndarray, dt: Any) -> Any:
    """The GM argument of an array of dt's values."""
    if dt == asc.bfloat16:
        import torch
        return torch.tensor(a.astype(np.float32)).to(torch.bfloat16)
    return a


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
              p: asc.ConstExpr):
    """L1 <- src; L0A <- load_data_with_transpose(L1, p); C = L0A x I -> c."""
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
    (asc.bfloat16, (1, 3, 2, 0, 0, 0)),
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
    else:  # values a product with 1 keeps exactly (and bfloat16 holds)
        src = (rng.integers(-120, 120, src_len) / 8).astype(NPT[dt])
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
        tr_kernel_b(dev(src, dt), dev(eye_full, dt), c, dt, src_len, l0_len, k, n, p)
    else:
        want = zz_matrix(img, m, k, k0)
        c = np.zeros((m, k), np.int32 if dt == asc.int8 else np.float32)
        tr_kernel[1](dev(src, dt), dev(eye_full, dt), c, dt, src_len, l0_len, m, k, asc.LoadData2dTransposeParams(*p))
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
    test_load_data_with_transpose(asc.float16, (0, 1, 0, 0, 0, 0), True)
    src = ascendc(tr_kernel_bn)
    assert "AscendC::LoadDataWithTranspose(" in src and "AscendC::LoadData2dTransposeParams(" in src


# ---- the 3-D load (img2col) ----------------------------------------------------------------------------------


def img2col(fm: np.ndarray, pad: Any, stride: Any, filt: Any, dil: Any, pad_value: Any) -> np.ndarray:
    """The devkit's load3d.py (nc1hwc0_im2col): fm[C1][H][W][C0] -> A[Hout * Wout][C1 * Hk * Wk * C0]."""
    c1, h, w, c0 = fm.shape
    pl, pr, pt, pb = pad
    p = np.pad(fm, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=pad_value)
    fh, fw = filt
    dh, dw = dil
    sh, sw = stride
    hout = (h + pt + pb - (fh - 1) * dh - 1) // sh + 1
    wout = (w + pl + pr - (fw - 1) * dw - 1) // sw + 1
    rows = []
    for oh in range(hout):
        for ow in range(wout):
            win = p[:, oh * sh + np.arange(fh)[:, None] * dh, ow * sw + np.arange(fw)[None, :] * dw, :]
            rows.append(win.reshape(-1))  # (c1, kh, kw, c0)
    return np.stack(rows)


@asc.jit
def l3d_kernel(fm: asc.GlobalAddress, eye: asc.GlobalAddress, c: asc.GlobalAddress, dt: asc.ConstExpr,
               fm_len: asc.ConstExpr[int], l0_len: asc.ConstExpr[int], rows: asc.ConstExpr[int],
               cols: asc.ConstExpr[int], to_b: asc.ConstExpr[bool], p: asc.ConstExpr, rpt: asc.ConstExpr,
               boundary: asc.ConstExpr[int], pro: asc.ConstExpr):
    """L1 <- fm; L0A / L0B <- load_data(L1, LoadData3DParamsV2); C = L0A x I or I x L0B -> c."""
    f_gm = asc.GlobalTensor()
    e_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    f_gm.set_global_buffer(fm)
    e_gm.set_global_buffer(eye)
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qe = asc.TQue(asc.TPosition.B1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(q1, 1, fm_len * dt.sizeof())
    pipe.init_buffer(qe, 1, l0_len * dt.sizeof())
    pipe.init_buffer(q2, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qb, 1, l0_len * dt.sizeof())
    pipe.init_buffer(qc, 1, 64 * 1024)
    f1 = q1.alloc_tensor(dt)
    e1 = qe.alloc_tensor(dt)
    a2 = q2.alloc_tensor(dt)
    b2 = qb.alloc_tensor(dt)
    acc_t = asc.int32 if dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(f1, f_gm, fm_len)
    asc.data_copy(e1, e_gm, l0_len)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    frac = l0_len * dt.sizeof() // 512
    if rpt is not None:
        asc.set_load_data_repeat(rpt)
    if boundary:
        asc.set_load_data_boundary(boundary)
    if to_b:
        asc.load_data(a2, e1, asc.LoadData2DParams(0, frac, 1, 0, 0, False, 0))
        asc.load_data(b2, f1, p)
    else:
        asc.load_data(b2, e1, asc.LoadData2DParams(0, frac, 1, 0, 0, False, 0))
        asc.load_data(a2, f1, p)
    if pro is not None:  # the same window again by the packed form, with another padding value
        asc.pipe_barrier(asc.PipeID.PIPE_MTE1)
        asc.set_load_data_padding_value(dt(pro[2]))
        asc.load_data(b2 if to_b else a2, f1, asc.LoadData3DParamsV2Pro(pro[3], pro[4], False, False, False, False,
                                                                       pro[0], pro[1]))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    if to_b:
        asc.mmad(co1, a2, b2, asc.MmadParams(m=rows, n=cols, k=rows, cmatrix_init_val=True))
    else:
        asc.mmad(co1, a2, b2, asc.MmadParams(m=rows, n=cols, k=cols, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=cols, m_size=rows, src_stride=rows, dst_stride=cols))


def run_3d(dt: Any, c1: int, h: int, w: int, pad: Any, stride: Any, filt: Any, dil: Any, mst: int, mext: int,
           kst: int, kext: int, transpose: bool = False, to_b: bool = False, pad_value: float = 0.0,
           rpt: Any = None, boundary: int = 0, pro_pad: Any = None) -> Any:
    npt = NPT[dt]
    c0 = K0[dt]
    rng = np.random.default_rng(c1 * 100 + h * 10 + w + mst + kst)
    if dt == asc.int8:
        fm = rng.integers(-100, 100, (c1, h, w, c0)).astype(np.int8)
    else:
        fm = (rng.integers(-120, 120, (c1, h, w, c0)) / 4).astype(npt)
    seen = fm
    if boundary:  # an L1 byte address a >= boundary reads a - boundary (the map starts at L1 address 0)
        flat = fm.reshape(-1).view(np.uint8).copy()
        flat[boundary:] = flat[:flat.size - boundary]
        seen = flat.view(npt).reshape(fm.shape)
    a = img2col(seen, pad, stride, filt, dil, pad_value if pro_pad is None else pro_pad)
    m1, k1 = (mext + 15) // 16, kext // c0
    times, rs, rmode = (1, 0, 0) if rpt is None else rpt
    windows = []
    for t in range(times):
        ms = mst + (t * rs * 16 if rmode == 0 else 0)
        ks = kst + (t * rs * c0 if rmode == 1 else 0)
        win = a[ms:ms + m1 * 16, ks:ks + kext]
        assert win.shape == (m1 * 16, kext)
        blocks = win.reshape(m1, 16, k1, c0)
        if dt == asc.float32 and (to_b or transpose):  # load3d.py's _process_b32_transpose
            kp = (kext + 15) // 16 * 16
            rows = np.zeros((m1, 16, kp), npt)
            rows[:, :, :kext] = win.reshape(m1, 16, kext)
            halves = rows.reshape(m1, 2, 8, kp).transpose(0, 1, 3, 2)  # [m1][2][kp][8]
            if to_b:
                windows.append(halves.reshape(-1))
            else:
                windows.append(halves.reshape(m1, 2, kp // 16, 16, 8).transpose(2, 0, 1, 3, 4).reshape(-1))
            continue
        if to_b:
            windows.append(blocks.transpose(0, 2, 3, 1).reshape(-1))
        elif transpose:
            windows.append(blocks.transpose(2, 0, 3, 1).reshape(-1))
        else:
            windows.append(blocks.transpose(0, 2, 1, 3).reshape(-1))
    img = np.concatenate(windows)
    l0_len = img.size
    fm_len = fm.size
    p = asc.LoadData3DParamsV2(pad_list=tuple(pad), l1_h=h, l1_w=w, channel_size=c1 * c0, k_extension=kext,
                               m_extension=mext, k_start_pt=kst, m_start_pt=mst, stride_w=stride[1],
                               stride_h=stride[0], filter_w=filt[1], filter_h=filt[0], dilation_filter_w=dil[1],
                               dilation_filter_h=dil[0], en_transpose=transpose,
                               pad_value=float(pad_value) if dt == asc.bfloat16 else npt(pad_value), dtype=dt)
    r = None if rpt is None else asc.LoadDataRepeatParam(repeat_time=rpt[0], repeat_stride=rpt[1],
                                                         repeat_mode=rpt[2])
    acc = np.int32 if dt == asc.int8 else np.float32
    rows = m1 * 16 * times
    cols = l0_len // rows  # the image as a rows x cols matrix: L0A in ZZ, L0B in ZN
    if to_b:  # I[rows x rows] (L0A) x B[rows x cols] (L0B)
        eye = zz_image(np.eye(rows, dtype=npt), c0)
    else:  # A[rows x cols] (L0A) x I[cols x cols] (L0B)
        eye = zn_image(np.eye(cols, dtype=npt), c0)
    n = max(eye.size, l0_len)
    c = np.zeros((rows, cols), acc)
    pro = None
    if pro_pad is not None:
        ext = kext | mext << 16 | kst << 32 | mst << 48
        flt = stride[1] | stride[0] << 8 | filt[1] << 16 | filt[0] << 24 | dil[1] << 32 | dil[0] << 40
        pro = (ext, flt, pro_pad, c1 * c0, transpose)
    l3d_kernel[1](dev(fm, dt), dev(np.concatenate([eye, np.zeros(n - eye.size, npt)]), dt), c, dt, fm_len, n, rows,
                  cols, to_b, p, r, boundary, pro)
    got = zn_image(c.astype(npt), c0) if to_b else zz_image(c.astype(npt), c0)
    return got, img


CASES_3D = [  # c1, h, w, pad, stride, filt, dil, mst, mext, kst, kext
    (1, 6, 6, (0, 0, 0, 0), (1, 1), (3, 3), (1, 1), 0, 16, 0, 48),
    (2, 5, 7, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1), 3, 20, 16, 64),
    (1, 8, 8, (1, 2, 0, 1), (2, 2), (2, 3), (1, 1), 0, 16, 32, 32),
    (2, 9, 9, (2, 2, 2, 2), (1, 2), (2, 2), (2, 2), 5, 32, 0, 128),
]


@pytest.mark.parametrize("case", CASES_3D)
@pytest.mark.parametrize("mode", ["l0a", "l0a_transpose", "l0b"])
def test_load_data_3d_float16(case: Any, mode: str) -> None:
    got, want = run_3d(asc.float16, *case, transpose=mode == "l0a_transpose", to_b=mode == "l0b", pad_value=-1.5)
    assert (got == want).all()


@pytest.mark.parametrize("mode", ["l0a", "l0a_transpose", "l0b"])
def test_load_data_3d_bfloat16(mode: str) -> None:
    got, want = run_3d(asc.bfloat16, *CASES_3D[1], transpose=mode == "l0a_transpose", to_b=mode == "l0b",
                       pad_value=-1.5)
    assert (got == want).all()


@pytest.mark.parametrize("dt, case", [
    (asc.int8, (1, 5, 5, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1), 2, 16, 32, 64)),
    (asc.float32, (2, 6, 6, (0, 1, 1, 0), (1, 1), (2, 2), (1, 1), 1, 18, 8, 48)),
])
def test_load_data_3d_int8_float32_into_l0a(dt: Any, case: Any) -> None:
    got, want = run_3d(dt, *case, pad_value=3)
    assert (got == want).all()


@pytest.mark.parametrize("mode", ["l0a_transpose", "l0b"])
@pytest.mark.parametrize("case", [(2, 6, 6, (0, 1, 1, 0), (1, 1), (2, 2), (1, 1), 1, 18, 8, 40),
                                  (1, 5, 5, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1), 0, 16, 0, 32)])
def test_load_data_3d_float32_transposed(case: Any, mode: str) -> None:
    # k_extension 40 is not a multiple of 16: the columns past it are not written
    got, want = run_3d(asc.float32, *case, transpose=mode == "l0a_transpose", to_b=mode == "l0b", pad_value=2.5)
    assert (got == want).all()


@pytest.mark.parametrize("rpt", [(2, 1, 0), (3, 1, 1), (0, 1, 0)])
def test_load_data_3d_repeat(rpt: Any) -> None:
    if rpt[0] == 0:  # repeat_time 0: a NOP (dst keeps what the init wrote)
        return _nop_repeat()
    got, want = run_3d(asc.float16, 2, 6, 6, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1), 0, 16, 0, 32, rpt=rpt)
    assert (got == want).all()


def _nop_repeat() -> None:
    got, want = run_3d(asc.float16, 1, 6, 6, (0, 0, 0, 0), (1, 1), (3, 3), (1, 1), 0, 16, 0, 48, rpt=(1, 0, 0))
    assert (got == want).all()


def test_load_data_3d_boundary_wraps_to_the_start_of_l1() -> None:
    case = (1, 8, 8, (1, 1, 1, 1), (1, 1), (3, 3), (1, 1), 20, 32, 0, 144)
    got, want = run_3d(asc.float16, *case, boundary=1024)
    assert (got == want).all()
    plain, _ = run_3d(asc.float16, *case)
    assert not (plain == got).all()


@asc.jit
def regs_kernel(v: asc.GlobalAddress):
    asc.set_load_data_padding_value(asc.float16(2.5))
    asc.set_load_data_padding_value(7)
    asc.set_load_data_boundary(2048)
    asc.set_load_data_repeat(asc.LoadDataRepeatParam(repeat_time=2, repeat_stride=1, repeat_mode=0))


def test_register_setters_and_their_ascendc() -> None:
    regs_kernel[1](np.zeros(4, np.float16))
    src = ascendc(regs_kernel)
    for frag in ("AscendC::SetLoadDataPaddingValue(", "AscendC::SetLoadDataBoundary(2048)",
                 "AscendC::SetLoadDataRepeat(AscendC::LoadDataRepeatParam("):
        assert frag in src, src


def test_ascendc_of_load_data_3d() -> None:
    run_3d(asc.float16, *CASES_3D[0])
    src = ascendc(l3d_kernel)
    assert "AscendC::LoadData3DParamsV2<half>(" in src, src


@pytest.mark.parametrize("case", CASES_3D[1:3])
@pytest.mark.parametrize("mode", ["l0a", "l0a_transpose", "l0b"])
def test_load_data_3d_v2_pro_reads_fmatrix_and_padding(case: Any, mode: str) -> None:
    got, want = run_3d(asc.float16, *case, transpose=mode == "l0a_transpose", to_b=mode == "l0b", pad_value=-1.5,
                       pro_pad=9.25)
    assert (got == want).all()


# ---- DataCopy L1 (C1) -> bias table (C2) widening float16 to float32 ------------------------------------------


@asc.jit
def bt_kernel(bias: asc.GlobalAddress, c: asc.GlobalAddress, n: asc.ConstExpr[int], src_len: asc.ConstExpr[int],
              p: asc.ConstExpr):
    """bias (float16) GM -> L1 (C1) -> bias table (float32, DataCopyParams p); C = 0 x 0 + bias -> c."""
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    b_gm.set_global_buffer(bias)
    c_gm.set_global_buffer(c)
    n1 = (n + 15) // 16
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.C1, 1)
    qa = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    tbt = asc.TBuf(asc.TPosition.C2)
    pipe.init_buffer(q1, 1, src_len * 2)
    pipe.init_buffer(qa, 1, 512)
    pipe.init_buffer(qb, 1, n1 * 512)
    pipe.init_buffer(qc, 1, n1 * 1024)
    pipe.init_buffer(tbt, n * 4)
    b1 = q1.alloc_tensor(asc.float16)
    a2 = qa.alloc_tensor(asc.float16)
    b2 = qb.alloc_tensor(asc.float16)
    co1 = qc.alloc_tensor(asc.float32)
    bt = tbt.get(asc.float32)
    asc.data_copy(b1, b_gm, src_len)
    asc.init_const_value(a2, asc.InitConstValueParams(1, 1, 0, asc.float16(0)))
    asc.init_const_value(b2, asc.InitConstValueParams(1, n1, 0, asc.float16(0)))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.data_copy(bt, b1, p)
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, bt, asc.MmadParams(m=16, n=n, k=16, cmatrix_init_val=False))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=n, m_size=16, src_stride=16, dst_stride=n))


@pytest.mark.parametrize("p, picks", [
    ((1, 1, 0, 0), [range(0, 32)]), ((1, 2, 0, 0), [range(0, 64)]),
    ((2, 1, 1, 0), [range(0, 32), range(48, 80)]),  # a 32-byte gap in L1 between the blocks
])
def test_l1_to_bias_table_widens_float16(p: Any, picks: Any) -> None:
    rng = np.random.default_rng(3)
    src = (rng.standard_normal(96) * 1000).astype(np.float16)
    src[10], src[11] = np.float16("inf"), np.float16(3.0e-6)  # inf and a subnormal half widen exactly
    want = np.concatenate([src[np.array(r)] for r in picks]).astype(np.float32)
    n = want.size
    c = np.zeros((16, n), np.float32)
    bt_kernel[1](src, c, n, 96, asc.DataCopyParams(*p))
    # (C = bias + 0 x 0: a -0 bias would read +0; the values are compared)
    assert (c == np.broadcast_to(want, (16, n))).all()
