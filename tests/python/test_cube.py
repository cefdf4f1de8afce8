"""The basic cube API on the simulator against NumPy: a hand-written matmul
kernel (GM -> L1 with Nd2NzParams, load_data to L0A / L0B, mmad, fixpipe
to GM) with set_flag / wait_flag between the pipes, per dtype and shape,
and the misuse errors.

Layouts (src/sim/cube_ops.c): L1 NZ, L0A ZZ, L0B ZN, L0C NZ; a fractal is
16 rows of 32 bytes (k0 = 16 halves, 32 int8)."""

import math
from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc

NP = {"float16": np.float16, "bfloat16": None, "int8": np.int8, "float32": np.float32, "int32": np.int32}


def align(v: int, to: int) -> int:
    return (v + to - 1) // to * to


@asc.jit
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, m: asc.ConstExpr[int],
                  n: asc.ConstExpr[int], k: asc.ConstExpr[int], in_dt: asc.ConstExpr, quant: asc.ConstExpr,
                  relu: asc.ConstExpr[bool], second: asc.ConstExpr[int], reverse_k: asc.ConstExpr[bool],
                  nd_split: asc.ConstExpr[bool]):
    """C[m, n] = A[m, k] B[k, n]; B is given transposed (Bt[n, k]) so that its NZ copy in L1 is already the
    ZN layout of L0B for any dtype. `second`: 0 one mmad, 1 a second one with cmatrix_init_val False, 2 with
    is_bias True (both accumulate). `reverse_k`: A's k fractals loaded last to first (addr_mode 1).
    `nd_split`: fixpipe writes C's 16-column halves one below the other (nd_num 2)."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
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
    pipe.init_buffer(qa1, 1, m1 * k1 * 512)
    pipe.init_buffer(qb1, 1, n1 * k1 * 512)
    pipe.init_buffer(qa2, 1, m1 * k1 * 512)
    pipe.init_buffer(qb2, 1, n1 * k1 * 512)
    pipe.init_buffer(qc, 1, m1 * n1 * 1024)
    a1 = qa1.alloc_tensor(a.dtype)
    b1 = qb1.alloc_tensor(b.dtype)
    a2 = qa2.alloc_tensor(in_dt)
    b2 = qb2.alloc_tensor(in_dt)
    acc_t = asc.int32 if in_dt == asc.int8 else asc.float32
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, n, k, 0, k, n1 * 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    a1v = a1.reinterpret_cast(in_dt)
    for i in range(m1):
        if reverse_k:
            asc.load_data(a2[i * k1 * 512 // in_dt.sizeof()], a1v,
                          asc.LoadData2DParams(i + (k1 - 1) * m1, k1, m1, 0, 0, False, 1))
        else:
            asc.load_data(a2[i * k1 * 512 // in_dt.sizeof()], a1v, asc.LoadData2DParams(i, k1, m1, 0, 0, False, 0))
    # L1 holds Bt's column blocks of k one after another: fractal kb * n1 + nb, the ZN order
    asc.load_data(b2, b1.reinterpret_cast(in_dt), asc.LoadData2DParams(0, k1 * n1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=True))
    if second == 1:
        asc.pipe_barrier(asc.PipeID.PIPE_M)
        asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=False))
    if second == 2:
        asc.pipe_barrier(asc.PipeID.PIPE_M)
        asc.mmad(co1, a2, b2, asc.MmadParams(m=m, n=n, k=k, is_bias=True, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    if nd_split:
        fp = asc.FixpipeParamsV220(n_size=16, m_size=m, src_stride=m1 * 16, dst_stride=16, quant_pre=quant,
                                   relu_en=relu, nd_num=n1, src_nd_stride=m1, dst_nd_stride=m * 16)
        asc.fixpipe(c_gm, co1, fp)
    else:
        fp = asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=n, quant_pre=quant,
                                   relu_en=relu)
        asc.fixpipe(c_gm, co1, fp)


def bf16_bits(x: np.ndarray) -> np.ndarray:
    u = x.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


K0 = {"float16": 16, "bfloat16": 16, "int8": 32, "float32": 8}
ASC_T = {"float16": asc.float16, "bfloat16": asc.bfloat16, "int8": asc.int8, "float32": asc.float32}


def operands(in_t: str, m: int, n: int, k: int) -> Any:
    """A, B for the kernel (B transposed; bfloat16 as its uint16 bits) and their values as float64/int64."""
    rng = np.random.default_rng(m * 10000 + n * 100 + k)
    if in_t == "int8":
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
        b = rng.integers(-128, 128, (k, n)).astype(np.int8)
        return a, np.ascontiguousarray(b.T), a.astype(np.int64), b.astype(np.int64)
    if in_t == "bfloat16":
        ga = bf16_bits(rng.standard_normal((m, k)))
        gb = bf16_bits(rng.standard_normal((k, n)))
        return ga, np.ascontiguousarray(gb.T), bf16_value(ga).astype(np.float64), bf16_value(gb).astype(np.float64)
    a = rng.standard_normal((m, k)).astype(NP[in_t])
    b = rng.standard_normal((k, n)).astype(NP[in_t])
    return a, np.ascontiguousarray(b.T), a.astype(np.float64), b.astype(np.float64)


def run(in_t: str, out_t: str, m: int, n: int, k: int, relu: bool = False, second: int = 0,
        reverse_k: bool = False, nd_split: bool = False, out: Any = None) -> Any:
    ga, gb, av, bv = operands(in_t, m, n, k)
    if reverse_k:  # L0A holds A's k fractals last to first (k a multiple of k0), L0B B's in order
        k0 = K0[in_t]
        order = np.concatenate([np.arange(j * k0, (j + 1) * k0) for j in reversed(range(k // k0))])
        av = av[:, order]
    ref = av @ bv * (2 if second else 1)
    if relu:
        ref = np.maximum(ref, 0)
    if nd_split:
        ref = np.concatenate([ref[:, j:j + 16] for j in range(0, n, 16)], axis=0)
    quant = asc.QuantModes({"float32": 0, "int32": 0, "float16": 1, "bfloat16": 2}[out_t])
    c = out if out is not None else np.zeros(ref.shape, NP[out_t])
    matmul_kernel[1](ga, gb, c, m, n, k, ASC_T[in_t], quant, relu, second, reverse_k, nd_split)
    return c, ref


SHAPES = [(32, 32, 32), (16, 48, 32), (20, 24, 40), (1, 1, 1)]


@pytest.mark.parametrize("m, n, k", SHAPES)
def test_mmad_float16_to_float32(m: int, n: int, k: int) -> None:
    c, ref = run("float16", "float32", m, n, k)
    # products of halves are exact in float32; the sums are rounded to float32 in k order
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m, n, k", SHAPES)
def test_mmad_int8_to_int32(m: int, n: int, k: int) -> None:
    c, ref = run("int8", "int32", m, n, k)
    assert (c == ref).all()


@pytest.mark.parametrize("m, n, k", [(32, 32, 32), (16, 24, 40)])
def test_mmad_float32(m: int, n: int, k: int) -> None:
    c, ref = run("float32", "float32", m, n, k)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


def test_mmad_float32_accumulation_order() -> None:
    # 1 + 2^-24 * 16 in k order, each sum rounded to float32: the small terms vanish one by one
    c, ref = run("float16", "float32", 16, 16, 16)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


def test_mmad_accumulates_when_cmatrix_init_val_false() -> None:
    c, ref = run("int8", "int32", 16, 16, 32, second=1)
    assert (c == ref).all()


def test_fixpipe_float16_output_and_relu() -> None:
    c, ref = run("float16", "float16", 32, 16, 32, relu=True)
    assert (c == ref.astype(np.float32).astype(np.float16)).all()
    assert (c >= 0).all() and (c == 0).any()


def test_ascendc_of_the_kernel() -> None:
    run("float16", "float32", 16, 16, 16)
    src = ascendc(matmul_kernel)
    for frag in ("AscendC::LoadData(", "AscendC::Mmad(", "AscendC::Fixpipe(", "AscendC::Nd2NzParams(",
                 "AscendC::TPosition::A1", "AscendC::TPosition::CO1"):
        assert frag in src, frag


@asc.jit
def misuse_kernel(a: asc.GlobalAddress, case: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    qv = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q1, 1, 1024)
    pipe.init_buffer(q2, 1, 1024)
    pipe.init_buffer(qb, 1, 1024)
    pipe.init_buffer(qc, 2, 1024)
    pipe.init_buffer(qv, 1, 1024)
    a1 = q1.alloc_tensor(asc.float16)
    a2 = q2.alloc_tensor(asc.float16)
    b2 = qb.alloc_tensor(asc.float16)
    c16 = qc.alloc_tensor(asc.float16)
    c32 = qc.alloc_tensor(asc.float32)
    v = qv.alloc_tensor(asc.float16)
    qh1 = asc.TQue(asc.TPosition.C1, 1)
    qi = asc.TQue(asc.TPosition.CO1, 1)
    tbt = asc.TBuf(asc.TPosition.C2)
    pipe.init_buffer(qh1, 1, 1024)
    pipe.init_buffer(qi, 1, 1024)
    pipe.init_buffer(tbt, 256)
    h1 = qh1.alloc_tensor(asc.float16)
    i32 = qi.alloc_tensor(asc.int32)
    bt = tbt.get(asc.float32)
    h_gm = a_gm
    if case == 0:
        asc.load_data(a2, v, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))  # <- 0
    if case == 1:
        asc.mmad(c16, a2, b2, asc.MmadParams(m=16, n=16, k=16))  # <- 1
    if case == 2:
        asc.mmad(c32, b2, a2, asc.MmadParams(m=16, n=16, k=16))  # <- 2
    if case == 3:
        asc.fixpipe(a_gm, c32, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))  # <- 3
    if case == 4:
        asc.data_copy(a2, a_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))  # <- 4
    if case == 5:
        asc.mmad(c32, a2, b2, a2, asc.MmadParams(m=16, n=16, k=16))  # <- 5
    if case == 6:
        asc.set_load_data_boundary(1.5)  # <- 6
    if case == 7:
        fp = asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16)
        asc.fixpipe(a_gm, c32, fp, asc.FixpipeConfig(asc.CO2Layout.COLUMN_MAJOR))  # <- 7
    if case == 8:
        asc.load_data(a2, a1, asc.MmadParams())  # <- 8
    if case == 9:
        asc.data_copy(bt, h1, 64)  # <- 9
    if case == 10:
        asc.fixpipe(h_gm, i32, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))  # <- 10
    if case == 11:
        asc.load_data(a2, a_gm, asc.LoadData2DParamsV2())  # <- 11
    if case == 12:
        asc.init_const_value(a2, asc.InitConstValueParams(1, 1, 0, 1.0))  # <- 12
    if case == 13:
        asc.init_const_value(c32, asc.InitConstValueParams(1, 1, 0, 1.0))  # <- 13
    if case == 14:
        asc.set_fix_pipe_pre_quant_flag(-1)  # <- 14
    if case == 15:
        asc.mmad(c32, a2, b2, asc.MmadParams(m=4096, n=16, k=16))  # <- 15
    if case == 16:
        asc.mmad(c32, a2, b2, asc.MmadParams(m=16, n=16, k=4096))  # <- 16


@pytest.mark.parametrize("case, cls, fragment", [
    (0, asc.CompileError, "'src' must be at TPosition.A1"),
    (1, asc.CompileError, "does not support float16 x float16 -> float16"),
    (2, asc.CompileError, "'fm' must be at TPosition.A2"),
    (3, asc.CompileError, "quant_pre QuantModes.NoQuant does not convert float32 to float16"),
    (4, asc.CompileError, "'dst' must be at TPosition.A1, TPosition.B1, TPosition.C1, TPosition.VECIN"),
    (5, asc.CompileError, "'bias' must be at TPosition.C2, TPosition.CO1"),
    (6, asc.CompileError, "boundary must be an integer"),
    (7, asc.CompileError, "cfg_column_major (NZ to DN) is not supported on the Ascend910B"),
    (8, asc.CompileError, "must be an asc.LoadData2DParams"),
    (9, asc.CompileError, "converting float16 to float32 takes an asc.DataCopyParams"),
    (10, asc.CompileError, "quant_pre QuantModes.NoQuant does not convert int32 to float16"),
    (11, asc.CompileError, "LoadData2DParamsV2 is not supported on the Ascend910B"),
    (12, asc.CompileError, "an InitConstValueParams of float32 but dst is float16"),
    (13, asc.CompileError, "'dst' must be at TPosition.A1, TPosition.B1, TPosition.C1, TPosition.A2, TPosition.B2"),
    (14, asc.CompileError, "does not fit a uint64"),
    (15, asc.KernelError, "Mmad: MmadParams.m = 4096, outside [0, 4095]"),
    (16, asc.KernelError, "Mmad: MmadParams.k = 4096, outside [0, 4095]"),
])
def test_misuse(case: int, cls: Any, fragment: str) -> None:
    a = np.zeros(256, np.float16)
    with pytest.raises(Exception) as info:
        misuse_kernel[1](a, case)
    err = info.value
    if cls is NotImplementedError:
        assert isinstance(err, (NotImplementedError, asc.CompileError)), err
    else:
        assert isinstance(err, cls), err
    assert fragment in str(err), str(err)
    assert getattr(err, "line", None) is None or "# <- " in open(__file__).read().splitlines()[err.line - 1]


@asc.jit
def overrun_kernel(a: asc.GlobalAddress, rep: int):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q1, 1, 1024)
    pipe.init_buffer(q2, 1, 1024)
    a1 = q1.alloc_tensor(asc.float16)
    a2 = q2.alloc_tensor(asc.float16)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, rep, 1, 0, 0, False, 0))


def test_load_data_past_the_tensor_is_a_kernel_error() -> None:
    overrun_kernel[1](np.zeros(16, np.float16), 2)
    with pytest.raises(asc.KernelError, match="past its end"):
        overrun_kernel[1](np.zeros(16, np.float16), 3)


@asc.jit
def l0a_overflow_kernel(a: asc.GlobalAddress):
    pipe = asc.TPipe()
    q2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q2, 1, 65 * 1024)


def test_l0a_capacity_is_64_kib() -> None:
    with pytest.raises(asc.KernelError, match="L0A overflow"):
        l0a_overflow_kernel[1](np.zeros(16, np.float16))


@pytest.mark.parametrize("m, n, k", [(32, 32, 32), (16, 48, 40)])
def test_mmad_bfloat16_to_float32(m: int, n: int, k: int) -> None:
    c, ref = run("bfloat16", "float32", m, n, k)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


def test_mmad_is_bias_accumulates() -> None:
    # the devkit clears cmatrixInitVal when isBias is set: C += A B
    c, ref = run("int8", "int32", 16, 32, 64, second=2)
    assert (c == ref).all()


@pytest.mark.parametrize("in_t", ["float16", "int8"])
def test_load_data_addr_mode_1_reads_fractals_backwards(in_t: str) -> None:
    out_t = "int32" if in_t == "int8" else "float32"
    c, ref = run(in_t, out_t, 32, 16, 3 * K0[in_t], reverse_k=True)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)
    plain, _ = run(in_t, out_t, 32, 16, 3 * K0[in_t])
    assert not np.array_equal(c, plain)


def test_fixpipe_nd_num_writes_each_matrix() -> None:
    c, ref = run("float16", "float32", 20, 48, 16, nd_split=True)
    assert c.shape == (60, 16)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


def test_fixpipe_float32_to_bfloat16() -> None:
    torch = pytest.importorskip("torch")
    out = torch.zeros((16, 32), dtype=torch.bfloat16)
    c, ref = run("float16", "bfloat16", 16, 32, 16, out=out)
    expect = bf16_value(bf16_bits(ref.astype(np.float32)))
    assert np.array_equal(c.float().numpy(), expect)


@asc.jit
def bias_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, bias: asc.GlobalAddress, c: asc.GlobalAddress,
                m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int], in_dt: asc.ConstExpr,
                by_params: asc.ConstExpr[bool], accumulate: asc.ConstExpr[bool]):
    """C = A B + bias (broadcast over the rows): the bias GM -> L1 (C1) -> bias table (C2), then
    mmad(dst, fm, filter, bias, params) with cmatrix_init_val False; `accumulate` adds A B once more with
    the bias at CO1 (C's own values)."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    bias_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    bias_gm.set_global_buffer(bias)
    c_gm.set_global_buffer(c)
    k0 = 32 // in_dt.sizeof()
    m1 = (m + 15) // 16
    n1 = (n + 15) // 16
    k1 = (k + k0 - 1) // k0
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qbias1 = asc.TQue(asc.TPosition.C1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qbt = asc.TBuf(asc.TPosition.C2)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, m1 * k1 * 512)
    pipe.init_buffer(qb1, 1, n1 * k1 * 512)
    pipe.init_buffer(qbias1, 1, n1 * 64)
    pipe.init_buffer(qa2, 1, m1 * k1 * 512)
    pipe.init_buffer(qb2, 1, n1 * k1 * 512)
    pipe.init_buffer(qbt, n1 * 64)
    pipe.init_buffer(qc, 1, m1 * n1 * 1024)
    a1 = qa1.alloc_tensor(in_dt)
    b1 = qb1.alloc_tensor(in_dt)
    acc_t = asc.int32 if in_dt == asc.int8 else asc.float32
    bias1 = qbias1.alloc_tensor(acc_t)
    a2 = qa2.alloc_tensor(in_dt)
    b2 = qb2.alloc_tensor(in_dt)
    bt = qbt.get(acc_t)
    co1 = qc.alloc_tensor(acc_t)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, m, k, 0, k, m1 * 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, n, k, 0, k, n1 * 16, 1, 1))
    asc.data_copy(bias1, bias_gm, n1 * 16)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    if by_params:
        asc.data_copy(bt, bias1, asc.DataCopyParams(1, n1, 0, 0))
    else:
        asc.data_copy(bt, bias1, n1 * 16)
    for i in range(m1):
        asc.load_data(a2[i * k1 * 512 // in_dt.sizeof()], a1, asc.LoadData2DParams(i, k1, m1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1 * n1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, bt, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=False))
    if accumulate:
        asc.pipe_barrier(asc.PipeID.PIPE_M)
        asc.mmad(co1, a2, b2, co1, asc.MmadParams(m=m, n=n, k=k, cmatrix_init_val=False))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=n, m_size=m, src_stride=m1 * 16, dst_stride=n))


@pytest.mark.parametrize("in_t, by_params, accumulate", [("float16", False, False), ("float16", True, True),
                                                          ("int8", True, False)])
def test_mmad_with_bias_table(in_t: str, by_params: bool, accumulate: bool) -> None:
    m, n, k = 20, 32, 48
    ga, gb, av, bv = operands(in_t, m, n, k)
    acc = np.int32 if in_t == "int8" else np.float32
    rng = np.random.default_rng(5)
    bias = np.zeros(32, acc)
    bias[:n] = rng.integers(-1000, 1000, n) if in_t == "int8" else rng.standard_normal(n)
    c = np.zeros((m, n), acc)
    bias_kernel[1](ga, gb, bias, c, m, n, k, ASC_T[in_t], by_params, accumulate)
    ref = av @ bv * (2 if accumulate else 1) + bias[:n].astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4)


@asc.jit
def racy_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, case: asc.ConstExpr[int]):
    """16 x 16 x 16 float16 with one synchronisation left out (case 0: MTE2 -> MTE1, 1: MTE1 -> M,
    2: M -> FIX), or (case 3) a bias-table copy of L1 bytes nothing wrote."""
    a_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    q1 = asc.TQue(asc.TPosition.C1, 1)
    tbt = asc.TBuf(asc.TPosition.C2)
    pipe.init_buffer(qa1, 1, 512)
    pipe.init_buffer(qa2, 1, 512)
    pipe.init_buffer(qb2, 1, 512)
    pipe.init_buffer(qc, 1, 1024)
    pipe.init_buffer(q1, 1, 64)
    pipe.init_buffer(tbt, 64)
    a1 = qa1.alloc_tensor(asc.float16)
    a2 = qa2.alloc_tensor(asc.float16)
    b2 = qb2.alloc_tensor(asc.float16)
    co1 = qc.alloc_tensor(asc.float32)
    if case == 3:
        asc.data_copy(tbt.get(asc.float32), q1.alloc_tensor(asc.float32), 16)  # <- 3
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))
    if case != 0:
        asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))  # <- 0
    asc.load_data(b2, a1, asc.LoadData2DParams(0, 1, 1, 0, 0, True, 0))
    if case != 1:
        asc.set_flag(asc.HardEvent.MTE1_M, 0)
        asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=16, cmatrix_init_val=True))  # <- 1
    if case != 2:
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))  # <- 2


@pytest.mark.parametrize("case, kind, memory, pipes", [
    (0, "race", "L1", ("MTE2", "MTE1")), (1, "race", "L0A", ("MTE1", "M")), (2, "race", "L0C", ("M", "FIX")),
    (3, "uninit", "L1", ("MTE1",)),
])
def test_sanitizer_checks_the_cube_memories(case: int, kind: str, memory: str, pipes: Any) -> None:
    a = np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    with pytest.raises(asc.SanitizerError) as info:
        racy_kernel[1](a, c, case)
    e = info.value
    assert e.kind == kind and e.memory == memory, (e.kind, e.memory, str(e))
    assert f"on {memory}" in str(e) or f"reads {memory} bytes" in str(e), str(e)
    for p in pipes:
        assert p in str(e), str(e)
    assert f"# <- {case}" in open(__file__).read().splitlines()[e.line - 1], str(e)


def test_sanitizer_is_quiet_on_the_synchronised_kernel() -> None:
    a = np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    racy_kernel[1](a, c, 9)
    assert (c == 16).all()


@pytest.mark.parametrize("in_t", ["float16", "float32"])
def test_timing_pipes_and_cube_costs(in_t: str) -> None:
    """Each op on its pipe (GM -> L1 MTE2, load_data MTE1, mmad M, fixpipe FIX); mmad takes its issue cost
    (cube_mmad_issue_cycles) plus one cycle per 16 x 16 x k0 fractal product (two for float32: the devkit's cube_k 4
    with k0 8), load_data its issue cost (cube_load_issue_cycles) plus its bytes at cube_load_bytes_per_cycle, in
    whole cycles (src/sim/timing.c)."""
    from asc.profiler.data import KINDS, PIPES
    p = {name: value for name, value, _, _ in asc.profiler.timing_params("Ascend910B1")}
    m, n, k = 32, 48, 64
    ga, gb, _, _ = operands(in_t, m, n, k)
    c = np.zeros((m, n), np.float32)
    with asc.profile() as prof:
        matmul_kernel[1](ga, gb, c, m, n, k, ASC_T[in_t], asc.QuantModes.NoQuant, False, 0, False, False)
    lp = prof.last
    ops = []
    for x in lp.blocks[0].records:
        if KINDS[x["kind"]] == "op":
            ops.append((lp.sites[x["site"]].line, PIPES[x["pipe"]], int(x["end"]) - int(x["start"]), int(x["bytes"])))
    src = open(__file__).read().splitlines()
    by_call = {}
    for line, pipe, dur, nbytes in ops:
        call = src[line - 1].strip().split("(")[0]
        by_call.setdefault(call, []).append((pipe, dur, nbytes))
    assert {pp for pp, _, _ in by_call["asc.data_copy"]} == {"MTE2"}
    assert {pp for pp, _, _ in by_call["asc.load_data"]} == {"MTE1"}
    (mm,) = by_call["asc.mmad"]
    (fx,) = by_call["asc.fixpipe"]
    assert mm[0] == "M" and fx[0] == "FIX"
    k0 = K0[in_t]
    fractals = (m // 16) * (n // 16) * (k // k0) * (2 if in_t == "float32" else 1)
    def whole(c: float) -> int:
        return math.ceil(c - 1e-9)

    assert mm[1] == whole(p["cube_mmad_issue_cycles"]) + whole(fractals / p["cube_fractals_per_cycle"])
    b_load = [d for d in by_call["asc.load_data"] if d[2] == (n // 16) * (k // k0) * 512][0]
    assert b_load[1] == whole(p["cube_load_issue_cycles"]) + whole(b_load[2] / p["cube_load_bytes_per_cycle"])


@asc.jit
def gm_load_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, reps: asc.ConstExpr[int], start: asc.ConstExpr[int],
                   stride: asc.ConstExpr[int], gap: asc.ConstExpr[int], mode: asc.ConstExpr[int]):
    """load_data GM -> L0A of `reps` fractals, then A (that L0A) x I (an identity in L0B) -> GM: row block i
    of the result is the fractal load_data put at L0A fractal i."""
    a_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    ta2 = asc.TBuf(asc.TPosition.A2)
    tb1 = asc.TBuf(asc.TPosition.B1)
    tb2 = asc.TBuf(asc.TPosition.B2)
    tc = asc.TBuf(asc.TPosition.CO1)
    rows = (reps - 1) * (1 + gap) + 1
    pipe.init_buffer(ta2, rows * 512)
    pipe.init_buffer(tb1, 512)
    pipe.init_buffer(tb2, 512)
    pipe.init_buffer(tc, rows * 1024)
    a2 = ta2.get(asc.float16)
    b1 = tb1.get(asc.float16)
    b2 = tb2.get(asc.float16)
    co1 = tc.get(asc.float32)
    if gap:
        # the gap fractals hold zeros for the matmul (an L0A of zeros from a zero-filled GM tail)
        asc.load_data(a2, a_gm[reps * 256], asc.LoadData2DParams(0, rows, 0, 0, 0, False, 0))
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.load_data(a2, a_gm, asc.LoadData2DParams(start, reps, stride, 0, gap, False, mode))
    # the identity: GM element i * 17 of a 16 x 16 block (the last 256 elements of a) in NZ
    asc.data_copy(b1, a_gm[(reps + 1) * 256], asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, True, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.set_flag(asc.HardEvent.MTE2_M, 0)
    asc.wait_flag(asc.HardEvent.MTE2_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=rows * 16, n=16, k=16, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=rows * 16, src_stride=rows * 16, dst_stride=16))


@pytest.mark.parametrize("reps, start, stride, gap, mode", [(3, 0, 1, 0, 0), (2, 1, 1, 1, 0), (3, 2, 1, 0, 1)])
def test_load_data_from_gm(reps: int, start: int, stride: int, gap: int, mode: int) -> None:
    rng = np.random.default_rng(reps * 7 + start)
    fractals = rng.integers(-8, 8, (reps, 16, 16)).astype(np.float16)
    a = np.concatenate([fractals.reshape(-1), np.zeros(256, np.float16), np.eye(16, dtype=np.float16).reshape(-1)])
    rows = (reps - 1) * (1 + gap) + 1
    c = np.zeros((rows * 16, 16), np.float32)
    gm_load_kernel[1](a, c, reps, start, stride, gap, mode)
    want = np.zeros((rows, 16, 16), np.float32)
    for r in range(reps):
        src = start + (-r if mode else r) * stride
        if 0 <= src < reps:
            want[r * (1 + gap)] = fractals[src]
    assert np.array_equal(c.reshape(rows, 16, 16), want)


@asc.jit
def static_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, l0a_addr: asc.ConstExpr[int]):
    """16 x 16 x 16 float16 with LocalTensors at fixed addresses of the cube memories (B as given: its NZ
    copy transposed by load_data is the ZN layout of L0B)."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 256)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, 512, 256)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, l0a_addr, 256)  # <- l0a
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 256)
    co1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 256)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, True, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=16, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))


def test_static_local_tensors_at_cube_positions() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 4, (16, 16)).astype(np.float16)
    b = rng.integers(-4, 4, (16, 16)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    static_kernel[1](a, b, c, 64 * 1024 - 512)
    assert np.array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    with pytest.raises(asc.KernelError, match="beyond the 65536-byte L0A"):
        static_kernel[1](a, b, c, 64 * 1024)


@asc.jit
def overlap_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, case: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    c_gm.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 4096)
    co1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 1024)
    if case == 0:  # 32 rows of 2 blocks into 16 rows' room (dst_nz_c0_stride 16 < 32 rows)
        asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 32, 32, 0, 32, 1, 1, 1))  # <- 0
    if case == 1:  # rows 8 elements apart in GM, 16 wide
        asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=8))  # <- 1


@pytest.mark.parametrize("case, fragment", [(0, "blocks of an NZ matrix overlap"), (1, "overlap in GM")])
def test_overlapping_destinations_are_kernel_errors(case: int, fragment: str) -> None:
    a = np.zeros(2048, np.float16)
    c = np.zeros(1024, np.float32)
    with pytest.raises(asc.KernelError) as info:
        overlap_kernel[1](a, c, case)
    assert fragment in str(info.value)
    assert f"# <- {case}" in open(__file__).read().splitlines()[info.value.line - 1]


@asc.jit
def fill_kernel(eye: asc.GlobalAddress, c: asc.GlobalAddress, value: asc.ConstExpr, l0: asc.ConstExpr[bool],
                repeat: asc.ConstExpr[int], blocks: asc.ConstExpr[int], gap: asc.ConstExpr[int]):
    """init_const_value of L1 (32-byte blocks) or L0A (512-byte blocks) over zeros, read back through
    mmad(dst, fm, I) and fixpipe: the 8 L0A fractals are the result's 128 rows."""
    eye_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    eye_gm.set_global_buffer(eye)
    c_gm.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 2048)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, 4096, 256)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, 2048)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 256)
    co1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 2048)
    asc.data_copy(b1, eye_gm, asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 1))
    asc.init_const_value(a1, asc.InitConstValueParams(1, 128, 0, asc.number(0, asc.float16)))
    if not l0:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
        asc.init_const_value(a1, asc.InitConstValueParams(repeat, blocks, gap, asc.number(value, asc.float16)))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 8, 1, 0, 0, False, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_MTE1)
    if l0:
        asc.init_const_value(a2, asc.InitConstValueParams(repeat, blocks, gap, asc.number(value, asc.float16)))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=128, n=16, k=16, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=128, src_stride=128, dst_stride=16))


@pytest.mark.parametrize("l0, repeat, blocks, gap", [(False, 3, 5, 2), (True, 2, 1, 1), (False, 1, 128, 0)])
def test_init_const_value(l0: bool, repeat: int, blocks: int, gap: int) -> None:
    c = np.full((128, 16), -1, np.float32)
    fill_kernel[1](np.eye(16, dtype=np.float16), c, 2.5, l0, repeat, blocks, gap)
    want = np.zeros(128 * 16, np.float32)
    blk = 256 if l0 else 16  # elements per block
    for r in range(repeat):
        start = r * (blocks + gap) * blk
        want[start:start + blocks * blk] = 2.5
    assert np.array_equal(c.reshape(-1), want)


@asc.jit
def nd_num_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, dst_mat: asc.ConstExpr[int]):
    """Two 16 x 16 ND matrices (256 elements apart in GM) to NZ matrices dst_mat elements apart in L1, then
    fractal 0 and 1 of L1 (through L0A, an identity in L0B and fixpipe) to GM: dst_mat 256 keeps both,
    0 leaves the second over the first (the devkit's rule)."""
    a_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    c_gm.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 512)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, 1024, 256)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, 512)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 256)
    co1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 512)
    asc.init_const_value(a1, asc.InitConstValueParams(1, 32, 0, asc.number(0, asc.float16)))
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(2, 16, 16, 256, 16, 16, 1, dst_mat))
    asc.data_copy(b1, a_gm[512], asc.Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 2, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, True, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=32, n=16, k=16, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=32, src_stride=32, dst_stride=16))


@pytest.mark.parametrize("dst_mat", [256, 0])
def test_nd2nz_nd_num(dst_mat: int) -> None:
    rng = np.random.default_rng(11)
    mats = rng.integers(-8, 8, (2, 16, 16)).astype(np.float16)
    a = np.concatenate([mats.reshape(-1), np.eye(16, dtype=np.float16).reshape(-1)])
    c = np.zeros((32, 16), np.float32)
    nd_num_kernel[1](a, c, dst_mat)
    want = np.concatenate([mats[0], mats[1]]) if dst_mat else np.concatenate([mats[1], np.zeros((16, 16))])
    assert np.array_equal(c, want.astype(np.float32))
