"""Fixpipe's conversions on the simulator against NumPy: every quant_pre
mode of the Ascend910B (NoQuant, F322F16, F322BF16, DEQF16, VDEQF16,
QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8) with and without ReLU, the scalar
quant parameter (deq_scalar) and the per-channel one (cbuf_workspace in
L1), the NZ and row-major layouts, shapes that are not multiples of 16, and
set_fix_pipe_pre_quant_flag. The reference follows the devkit's
fixpipe_l0c2gm scripts (docs/semantics.md)."""

import struct
from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc

Q = asc.QuantModes


@asc.jit
def fx_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, w: asc.GlobalAddress,
              m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int], in_dt: asc.ConstExpr,
              quant: asc.ConstExpr, deq: asc.ConstExpr[int], relu: asc.ConstExpr[bool], nz: asc.ConstExpr[bool],
              dst_stride: asc.ConstExpr[int], use_ws: asc.ConstExpr[bool], split: asc.ConstExpr[bool] = False):
    """C = A Bt^T into L0C, then one fixpipe of it to c."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    w_gm.set_global_buffer(w)
    k0 = 32 // in_dt.sizeof()
    m1 = (m + 15) // 16
    n1 = (n + 15) // 16
    k1 = (k + k0 - 1) // k0
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qw = asc.TQue(asc.TPosition.C1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, m1 * k1 * 512)
    pipe.init_buffer(qb1, 1, n1 * k1 * 512)
    pipe.init_buffer(qw, 1, n1 * 16 * 8)
    pipe.init_buffer(qa2, 1, m1 * k1 * 512)
    pipe.init_buffer(qb2, 1, n1 * k1 * 512)
    pipe.init_buffer(qc, 1, m1 * n1 * 1024)
    a1 = qa1.alloc_tensor(in_dt)
    b1 = qb1.alloc_tensor(in_dt)
    w1 = qw.alloc_tensor(asc.uint64)
    a2 = qa2.alloc_tensor(in_dt)
    b2 = qb2.alloc_tensor(in_dt)
    acc_t = asc.int32 if in_dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, n, k, 0, k, n1 * 16, 1, 1))
    if use_ws:
        asc.data_copy(w1, w_gm, n1 * 16)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 512 // in_dt.sizeof()], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    fp = asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=dst_stride, quant_pre=quant,
                               deq_scalar=deq, relu_en=relu, is_channel_split=split)
    cfg = asc.FixpipeConfig.cfg_nz if nz else asc.FixpipeConfig.cfg_row_major
    if use_ws:
        asc.fixpipe(c_gm, co1, w1, fp, cfg)
    else:
        asc.fixpipe(c_gm, co1, fp, cfg)


def f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def qparam(scale: float, offset: int = 0, sign: bool = True, shift: int = 0, mcb: bool = False) -> int:
    return f32_bits(scale) | (shift & 0xF) << 32 | int(mcb) << 36 | (offset & 0x1FF) << 37 | int(sign) << 46


def decode(q: np.ndarray) -> Any:
    q = q.astype(np.uint64)
    m1 = (q & np.uint64(0xFFFFE000)).astype(np.uint32).view(np.float32)
    return (m1, ((q >> np.uint64(32)) & np.uint64(0xF)).astype(np.int64), ((q >> np.uint64(36)) & np.uint64(1)) == 1,
            ((q >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64), ((q >> np.uint64(46)) & np.uint64(1)) == 1)


def reference(acc: np.ndarray, mode: Any, q: np.ndarray, relu: bool, out: Any) -> np.ndarray:
    """The devkit's algorithm (gen_data_s322s8.py, gen_data_s322f16.py, gen_data_f322s8.py): q per column."""
    if mode in (Q.NoQuant, Q.F322F16, Q.F322BF16):
        v = np.maximum(acc, 0) if relu else acc
        if mode == Q.F322BF16:
            u = v.astype(np.float32).view(np.uint32).astype(np.uint64)
            return ((u + 0x7FFF + ((u >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)).astype(np.uint16)
        return v.astype(out)
    m1, shift, mcb, offset, sign = decode(q)
    if acc.dtype == np.int32:
        x = acc.astype(np.int64)
        x = np.where(mcb, np.clip(x >> (shift + 1), -32768, 32767), x)
        f = x.astype(np.float32)
    else:
        f = acc.astype(np.float32)
    m2 = np.zeros_like(m1) if relu else m1
    f = np.where(f >= 0, f * m1, f * m2).astype(np.float32)
    if mode in (Q.DEQF16, Q.VDEQF16):
        return np.clip(f, -65504, 65504).astype(np.float16)
    r = np.rint(np.clip(f, -256, 255)) + offset
    r = np.where(sign, np.clip(r, -128, 127), np.clip(r, 0, 255)).astype(np.int64)
    return (r & 0xFF).astype(np.uint8).view(np.int8 if out == np.int8 else np.uint8)


def operands(in_t: Any, m: int, n: int, k: int, lo: int = -3, hi: int = 4) -> Any:
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    if in_t == asc.int8:
        a = rng.integers(lo, hi, (m, k)).astype(np.int8)
        b = rng.integers(lo, hi, (k, n)).astype(np.int8)
        return a, np.ascontiguousarray(b.T), (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    # quarters: every sum is exact in float32 (in any order), most are not in float16 / bfloat16
    a = (rng.integers(-40, 40, (m, k)) / 4).astype(np.float16)
    b = (rng.integers(-8, 8, (k, n)) / 4).astype(np.float16)
    acc = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    return a, np.ascontiguousarray(b.T), acc


NP_OUT = {asc.float32: np.float32, asc.int32: np.int32, asc.float16: np.float16, asc.bfloat16: np.uint16,
          asc.int8: np.int8, asc.uint8: np.uint8}


def run(in_t: Any, out_t: Any, mode: Any, m: int, n: int, k: int, q: Any = 0, relu: bool = False,
        nz: bool = False, lo: int = -3, hi: int = 4, split: bool = False) -> Any:
    a, bt, acc = operands(in_t, m, n, k, lo, hi)
    vec = mode in (Q.VDEQF16, Q.VQF322B8_PRE, Q.VREQ8)
    n16 = (n + 15) // 16 * 16
    w = np.zeros(n16, np.uint64)
    if vec:
        w[:n] = np.asarray(q, np.uint64)
    qcol = w[:n] if vec else np.full(n, q, np.uint64)
    ref = reference(acc, mode, qcol[None, :], relu, NP_OUT[out_t])
    es = np.dtype(NP_OUT[out_t]).itemsize
    if nz:
        c0 = 32 // es if es == 1 or split else 16  # (the channel split: 16 x 8 float fractals)
        blocks = (n + c0 - 1) // c0
        stride = (m * c0 * es + 31) // 32  # 32-byte units between the column blocks
        c = np.zeros(((blocks - 1) * stride * 32 + m * c0 * es) // es, NP_OUT[out_t])
        fx_kernel[1](a, bt, c, w, m, n, k, in_t, mode, 0 if vec else int(q), relu, True, stride, vec, split)
        got = np.zeros((m, n), NP_OUT[out_t])
        for col in range(n):
            base = (col // c0) * stride * 32 // es
            got[:, col] = c[base + np.arange(m) * c0 + col % c0]
        return got, ref
    if out_t == asc.bfloat16:  # a bfloat16 GlobalAddress: a torch tensor (GM holds its bits)
        import torch
        t = torch.zeros((m, n), dtype=torch.bfloat16)
        fx_kernel[1](a, bt, t, w, m, n, k, in_t, mode, 0, relu, False, n, vec)
        return t.view(torch.int16).numpy().view(np.uint16), ref
    c = np.zeros((m, n), NP_OUT[out_t])
    fx_kernel[1](a, bt, c, w, m, n, k, in_t, mode, 0 if vec else int(q), relu, False, n, vec)
    return c, ref


@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("out_t, sign, offset", [(asc.int8, True, 0), (asc.int8, True, 5), (asc.uint8, False, 3)])
def test_req8_scalar(relu: bool, out_t: Any, sign: bool, offset: int) -> None:
    c, ref = run(asc.int8, out_t, Q.REQ8, 20, 32, 64, qparam(0.37, offset, sign), relu, lo=-10, hi=10)
    assert (c == ref).all()
    assert len(np.unique(c)) > 10


def test_req8_mcb_shifts_int32_first() -> None:
    # MCB: x >> (N + 1) saturated to int16, then scaled; N = 3: a shift of 4
    c, ref = run(asc.int8, asc.int8, Q.REQ8, 16, 16, 64, qparam(1.0, 0, True, shift=3, mcb=True), lo=-128, hi=128)
    assert (c == ref).all()
    c2, ref2 = run(asc.int8, asc.int8, Q.REQ8, 16, 16, 64, qparam(1.0, 0, True), lo=-128, hi=128)
    assert (c2 == ref2).all() and not (c2 == c).all()


def test_vreq8_per_channel() -> None:
    n = 24
    q = [qparam(0.05 + 0.03 * j, j % 7, j % 2 == 0) for j in range(n)]
    c, ref = run(asc.int8, asc.int8, Q.VREQ8, 20, n, 64, q, lo=-10, hi=10)
    assert (c == ref).all()


@pytest.mark.parametrize("relu", [False, True])
def test_deqf16_scalar_and_vector(relu: bool) -> None:
    c, ref = run(asc.int8, asc.float16, Q.DEQF16, 17, 16, 32, qparam(0.123), relu, lo=-100, hi=100)
    assert (c.view(np.uint16) == ref.view(np.uint16)).all()
    q = [qparam(0.01 * (j + 1)) for j in range(32)]
    c, ref = run(asc.int8, asc.float16, Q.VDEQF16, 20, 32, 32, q, relu, lo=-100, hi=100)
    assert (c.view(np.uint16) == ref.view(np.uint16)).all()


def test_deqf16_saturates_to_the_half_range() -> None:
    c, ref = run(asc.int8, asc.float16, Q.DEQF16, 16, 16, 64, qparam(100.0), lo=-128, hi=128)
    assert (c == ref).all() and np.isfinite(c).all() and (np.abs(c) == 65504).any()


def test_scale_uses_ten_mantissa_bits() -> None:
    # 1 + 2^-12 has its bit in [12:0]: the fixpipe's scale is 1.0
    c, ref = run(asc.int8, asc.float16, Q.DEQF16, 16, 16, 32, f32_bits(1 + 2 ** -12) | 1 << 46, lo=-100, hi=100)
    a, bt, acc = operands(asc.int8, 16, 16, 32, -100, 100)
    assert (c == acc.astype(np.float16)).all()


@pytest.mark.parametrize("relu", [False, True])
@pytest.mark.parametrize("out_t", [asc.int8, asc.uint8])
def test_qf322b8_scalar_and_vector(relu: bool, out_t: Any) -> None:
    sign = out_t == asc.int8
    c, ref = run(asc.float16, out_t, Q.QF322B8_PRE, 20, 32, 32, qparam(1.7, 2, sign), relu)
    assert (c == ref).all()
    q = [qparam(0.5 + 0.1 * j, 0, sign) for j in range(16)]
    c, ref = run(asc.float16, out_t, Q.VQF322B8_PRE, 16, 16, 16, q, relu)
    assert (c == ref).all()


@pytest.mark.parametrize("mode, out_t", [(Q.NoQuant, asc.float32), (Q.F322F16, asc.float16),
                                         (Q.F322BF16, asc.bfloat16)])
@pytest.mark.parametrize("relu", [False, True])
def test_float_casts(mode: Any, out_t: Any, relu: bool) -> None:
    c, ref = run(asc.float16, out_t, mode, 20, 24, 32, 0, relu)
    assert (c.view(np.uint8) == ref.view(np.uint8)).all()


@pytest.mark.parametrize("in_t, out_t, mode, q", [
    (asc.float16, asc.float32, Q.NoQuant, 0), (asc.float16, asc.float16, Q.F322F16, 0),
    (asc.int8, asc.int32, Q.NoQuant, 0), (asc.int8, asc.int8, Q.REQ8, qparam(0.3)),
    (asc.int8, asc.uint8, Q.VREQ8, None), (asc.float16, asc.int8, Q.QF322B8_PRE, qparam(2.0)),
])
@pytest.mark.parametrize("m, n", [(16, 32), (20, 48), (5, 16)])
def test_nz_layout(in_t: Any, out_t: Any, mode: Any, q: Any, m: int, n: int) -> None:
    if q is None:
        q = [qparam(0.2 + 0.01 * j, 0, False) for j in range(n)]
    c, ref = run(in_t, out_t, mode, m, n, 32, q, nz=True, lo=-40, hi=40)
    assert (c.view(np.uint8) == ref.view(np.uint8)).all()


@pytest.mark.parametrize("m, n", [(16, 32), (20, 24), (5, 8)])
@pytest.mark.parametrize("relu", [False, True])
def test_nz_channel_split(m: int, n: int, relu: bool) -> None:
    # float32 -> float32 in 16 x 8 fractals (the devkit's fixpipe_l0c2gm scenario 7)
    c, ref = run(asc.float16, asc.float32, Q.NoQuant, m, n, 32, 0, relu, nz=True, split=True)
    assert (c.view(np.uint32) == ref.view(np.uint32)).all()


@asc.jit
def flag_kernel(c: asc.GlobalAddress, v: asc.ConstExpr[int]):
    asc.set_fix_pipe_pre_quant_flag(v)
    asc.set_fix_pipe_pre_quant_flag(asc.uint64(v))


def test_set_fix_pipe_pre_quant_flag_and_its_ascendc() -> None:
    flag_kernel[1](np.zeros(4, np.float32), 0x400000000000 | f32_bits(2.0))
    src = ascendc(flag_kernel)
    assert "AscendC::SetFixpipePreQuantFlag(" in src


def test_ascendc_of_the_forms() -> None:
    run(asc.int8, asc.int8, Q.VREQ8, 16, 16, 32, [qparam(1.0)] * 16, nz=True)
    src = ascendc(fx_kernel)
    assert "AscendC::Fixpipe<int8_t, int32_t, AscendC::CFG_NZ>(" in src, src


def test_vector_mode_without_workspace_is_a_compile_error() -> None:
    with pytest.raises(asc.CompileError, match="takes its per-channel quant parameters from a cbuf_workspace"):
        fx_kernel[1](np.zeros((16, 32), np.int8), np.zeros((16, 32), np.int8), np.zeros(256, np.int8),
                     np.zeros(16, np.uint64), 16, 16, 32, asc.int8, Q.VREQ8, 0, False, False, 16, False)


# ---- DataCopy L0C -> GM / L1 with DataCopyCO12DstParams (the register form) ----------------------------------


@asc.jit
def co12_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, eye: asc.GlobalAddress,
                m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int], in_dt: asc.ConstExpr,
                out_dt: asc.ConstExpr, quant: asc.ConstExpr, flag: asc.ConstExpr[int], relu: asc.ConstExpr[int],
                how: asc.ConstExpr[int], split: asc.ConstExpr[bool] = False, nz2nd: asc.ConstExpr[bool] = False):
    """C = A Bt^T in L0C; how 0: data_copy to GM (ND), 1: to GM (NZ), 2: to L1 (NZ, out_dt), then L1 -> L0A,
    times the identity, fixpipe (NoQuant) to c."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    e_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    e_gm.set_global_buffer(eye)
    k0 = 32 // in_dt.sizeof()
    m1 = (m + 15) // 16
    n1 = (n + 15) // 16
    k1 = (k + k0 - 1) // k0
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    qo = asc.TQue(asc.TPosition.A1, 1)
    qe = asc.TQue(asc.TPosition.B1, 1)
    pipe.init_buffer(qa1, 1, m1 * k1 * 512)
    pipe.init_buffer(qb1, 1, n1 * k1 * 512)
    pipe.init_buffer(qa2, 1, m1 * n1 * 512 + m1 * k1 * 512)
    pipe.init_buffer(qb2, 1, n1 * n1 * 512 + n1 * k1 * 512)
    pipe.init_buffer(qc, 1, m1 * n1 * 1024 * 2)
    pipe.init_buffer(qo, 1, m1 * n1 * 512)
    pipe.init_buffer(qe, 1, n1 * n1 * 512)
    a1 = qa1.alloc_tensor(in_dt)
    b1 = qb1.alloc_tensor(in_dt)
    a2 = qa2.alloc_tensor(in_dt)
    b2 = qb2.alloc_tensor(in_dt)
    acc_t = asc.int32 if in_dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, n, k, 0, k, n1 * 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 512 // in_dt.sizeof()], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.set_fix_pipe_pre_quant_flag(flag)
    if how == 0:
        asc.data_copy(c_gm, co1, asc.DataCopyCO12DstParams(n, m, n, m1 * 16, quant, relu, False, True))
    if how == 1:
        c0 = 8 if split else 16
        asc.data_copy(c_gm, co1, asc.DataCopyCO12DstParams(n, m, m1 * 16 * c0 * out_dt.sizeof() // 32, m1 * 16,
                                                           quant, relu, split, False))
    if how == 2:  # float16 into L1 in NZ (column blocks of 16, m1 * 16 rows: the layout load_data reads)
        o1 = qo.alloc_tensor(out_dt)
        e1 = qe.alloc_tensor(out_dt)
        asc.data_copy(o1, co1, asc.DataCopyCO12DstParams(n, m, m1 * 16, m1 * 16, quant, relu, False, nz2nd))
        asc.data_copy(e1, e_gm, n1 * n1 * 256)
        asc.set_flag(asc.HardEvent.FIX_MTE1, 0)
        asc.wait_flag(asc.HardEvent.FIX_MTE1, 0)
        asc.set_flag(asc.HardEvent.MTE2_MTE1, 1)
        asc.wait_flag(asc.HardEvent.MTE2_MTE1, 1)
        a2h = a2[m1 * k1 * 512 // in_dt.sizeof()].reinterpret_cast(out_dt)
        b2h = b2[n1 * k1 * 512 // in_dt.sizeof()].reinterpret_cast(out_dt)
        for i in range(m1):
            asc.load_data(a2h[i * n1 * 256], o1, asc.LoadData2DParams(i, n1, m1, 0, 0, False, 0))
        asc.load_data(b2h, e1, asc.LoadData2DParams(0, n1 * n1, 1, 0, 0, False, 0))
        asc.set_flag(asc.HardEvent.MTE1_M, 1)
        asc.wait_flag(asc.HardEvent.MTE1_M, 1)
        c2 = co1[m1 * n1 * 256]
        asc.mmad(c2, a2h, b2h, asc.MmadParams(m=m, n=n, k=n, cmatrix_init_val=True))
        asc.set_flag(asc.HardEvent.M_FIX, 1)
        asc.wait_flag(asc.HardEvent.M_FIX, 1)
        asc.fixpipe(c_gm, c2, asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=n))


@pytest.mark.parametrize("in_t, out_t, mode, q", [
    (asc.float16, asc.float32, Q.NoQuant, 0), (asc.float16, asc.float16, Q.F322F16, 0),
    (asc.int8, asc.int8, Q.REQ8, None), (asc.int8, asc.float16, Q.DEQF16, None),
    (asc.float16, asc.uint8, Q.QF322B8_PRE, None),
])
@pytest.mark.parametrize("nd", [True, False])
@pytest.mark.parametrize("relu", [0, 1])
def test_data_copy_co12dst_to_gm(in_t: Any, out_t: Any, mode: Any, q: Any, nd: bool, relu: int,
                                 split: bool = False) -> None:
    m, n, k = 20, 32, 32
    if q is None:
        q = qparam(0.25, 3, out_t == asc.int8)
    a, bt, acc = operands(in_t, m, n, k, -20, 20)
    ref = reference(acc, mode, np.full(n, q, np.uint64)[None, :], bool(relu), NP_OUT[out_t])
    es = np.dtype(NP_OUT[out_t]).itemsize
    m16 = (m + 15) // 16 * 16
    if nd:
        c = np.zeros((m, n), NP_OUT[out_t])
        co12_kernel[1](a, bt, c, np.zeros(1, np.float16), m, n, k, in_t, out_t, mode, q, relu, 0)
        got = c
    else:
        c0 = 32 // es if es == 1 or split else 16
        stride = m16 * c0 * es // 32
        c = np.zeros(((n // c0 - 1) * stride * 32 + m * c0 * es) // es, NP_OUT[out_t])
        co12_kernel[1](a, bt, c, np.zeros(1, np.float16), m, n, k, in_t, out_t, mode, q, relu, 1, split)
        got = np.zeros((m, n), NP_OUT[out_t])
        for col in range(n):
            got[:, col] = c[(col // c0) * stride * 32 // es + np.arange(m) * c0 + col % c0]
    assert (got.view(np.uint8) == ref.view(np.uint8)).all()


def test_data_copy_co12dst_channel_split() -> None:
    test_data_copy_co12dst_to_gm(asc.float16, asc.float32, Q.NoQuant, 0, False, 1, split=True)


@pytest.mark.parametrize("relu", [0, 1])
def test_data_copy_co12dst_to_l1_and_back(relu: int) -> None:
    m, n, k = 20, 32, 16
    a, bt, acc = operands(asc.float16, m, n, k)
    want = reference(acc, Q.F322F16, np.zeros((1, n), np.uint64), bool(relu), np.float16).astype(np.float32)
    n1 = (n + 15) // 16
    eye = np.eye(n1 * 16, dtype=np.float16)  # L1 NZ of I: its columns blocks (symmetric: it is its own Bt)
    eye_nz = eye.reshape(n1 * 16, n1, 16).transpose(1, 0, 2).reshape(-1)
    c = np.zeros((m, n), np.float32)
    co12_kernel[1](a, bt, c, eye_nz, m, n, k, asc.float16, asc.float16, Q.F322F16, 0, relu, 2)
    assert (c == want).all()


def test_co12dst_vector_mode_is_not_implemented() -> None:
    a, bt, _ = operands(asc.int8, 16, 16, 32)
    with pytest.raises(NotImplementedError, match="VREQ8"):
        co12_kernel[1](a, bt, np.zeros(256, np.int8), np.zeros(1, np.float16), 16, 16, 32, asc.int8, asc.int8,
                       Q.VREQ8, 0, 0, 0)
