"""The cube family's mode registers (set_hf32_mode, set_hf32_trans_mode,
set_mm_layout_transform: their Ascend C and their run) and the misuse
errors of the cube APIs added with them (load_data's 3-D and unavailable
forms, load_data_with_transpose, the sparse pair, fixpipe's forms and
data_copy from L0C): each a CompileError at the user's line naming the API.
sim_hf32_round itself is tested in tests/c/test_cube_hf32.c."""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc


@asc.jit
def modes_kernel(x: asc.GlobalAddress, flag: int):
    asc.set_hf32_mode(True)
    asc.set_hf32_trans_mode(False)
    asc.set_mm_layout_transform(1)
    asc.set_hf32_mode(flag > 0)
    asc.set_hf32_trans_mode(flag)


def test_mode_setters_run_and_their_ascendc() -> None:
    modes_kernel[1](np.zeros(4, np.float32), 1)
    src = ascendc(modes_kernel)
    for frag in ("AscendC::SetHF32Mode(true)", "AscendC::SetHF32TransMode(false)",
                 "AscendC::SetMMLayoutTransform(true)"):
        assert frag in src, src


@asc.jit
def misuse_kernel(a: asc.GlobalAddress, case: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qc1 = asc.TQue(asc.TPosition.C1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    qb = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    qv = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q1, 3, 1024)
    pipe.init_buffer(qb1, 2, 1024)
    pipe.init_buffer(qc1, 1, 1024)
    pipe.init_buffer(q2, 1, 1024)
    pipe.init_buffer(qb, 2, 1024)
    pipe.init_buffer(qc, 2, 1024)
    pipe.init_buffer(qv, 1, 1024)
    a1 = q1.alloc_tensor(asc.float16)
    i1 = q1.alloc_tensor(asc.int8)
    f1 = q1.alloc_tensor(asc.float32)
    u1 = qb1.alloc_tensor(asc.uint8)
    w1 = qc1.alloc_tensor(asc.uint64)
    a2 = q2.alloc_tensor(asc.float16)
    b2 = qb.alloc_tensor(asc.float16)
    b8 = qb.alloc_tensor(asc.int8)
    c32 = qc.alloc_tensor(asc.float32)
    i32 = qc.alloc_tensor(asc.int32)
    v = qv.alloc_tensor(asc.float16)
    p3 = asc.LoadData3DParamsV2(l1_h=4, l1_w=4, channel_size=16, k_extension=16, m_extension=16, dtype=asc.float16)
    fp = asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16)
    if case == 0:
        asc.load_data(a2, v, p3)  # <- 0
    if case == 1:
        asc.load_data(a2, a1, asc.LoadData3DParamsV1())  # <- 1
    if case == 2:
        asc.load_data(a2, a1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, dtype=asc.float32))  # <- 2
    if case == 3:
        asc.load_data(b8, i1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, dtype=asc.int8))  # <- 3
    if case == 4:
        asc.load_data_with_transpose(a2, a1, asc.LoadData2dTransposeParamsV2())  # <- 4
    if case == 5:
        asc.load_data_with_transpose(a2, v, asc.LoadData2dTransposeParams())  # <- 5
    if case == 6:
        asc.load_data_with_sparse(b2, a1, u1, asc.LoadData2DParams())  # <- 6
    if case == 7:
        asc.load_data_with_sparse(b8, i1, i1, asc.LoadData2DParams())  # <- 7
    if case == 8:
        asc.mmad_with_sparse(c32, a2, b2, asc.MmadParams(m=16, n=16, k=16))  # <- 8
    if case == 9:
        asc.mmad_with_sparse(i32, b8, b8, asc.MmadParams(m=16, n=16, k=16))  # <- 9
    if case == 10:
        asc.fixpipe(a_gm, c32, fp, asc.FixpipeConfig(asc.CO2Layout.COLUMN_MAJOR))  # <- 10
    if case == 11:
        asc.fixpipe(a_gm, i32, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16,  # <- 11
                                                     dst_stride=16, quant_pre=asc.QuantModes.VDEQF16))
    if case == 12:
        asc.fixpipe(a_gm, i32, a1, fp)  # <- 12
    if case == 13:
        asc.fixpipe(a_gm, c32, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16,  # <- 13
                                                     dst_stride=16, quant_pre=asc.QuantModes.DEQF16))
    if case == 14:
        asc.data_copy(f1, c32, asc.DataCopyCO12DstParams(16, 16, 16, 16,  # <- 14
                                                         asc.QuantModes.NoQuant, 0, False, False))
    if case == 15:
        asc.data_copy(a_gm, c32, asc.DataCopyCO12DstParams(16, 16, 16, 16,  # <- 15
                                                           asc.QuantModes.REQ8, 0, False, False))
    if case == 16:
        asc.fixpipe(a_gm, w1, fp)  # <- 16
    if case == 17:
        asc.load_data(a2, a1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, dtype=asc.int8))  # <- 17
    if case == 18:
        asc.fixpipe(a_gm, c32, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16,  # <- 18
                                                     dst_stride=16, quant_pre=asc.QuantModes.F322F16,
                                                     is_channel_split=True), asc.FixpipeConfig.cfg_nz)


@pytest.mark.parametrize("case, fragment", [
    (0, "asc.load_data: 'src' must be at TPosition.A1"),
    (1, "LoadData3DParamsV1 is not supported on the Ascend910B"),
    (2, "params is an asc.LoadData3DParamsV2 of float32 but the tensors are float16"),
    (3, "into L0B (TPosition.B2) does not support int8"),
    (4, "LoadData2dTransposeParamsV2 is not supported on the Ascend910B"),
    (5, "asc.load_data_with_transpose: 'src' must be at TPosition.A1"),
    (6, "asc.load_data_with_sparse: dst and src are int8"),
    (7, "asc.load_data_with_sparse: idx is uint8"),
    (8, "asc.mmad_with_sparse does not support float16 x float16 -> float32"),
    (9, "asc.mmad_with_sparse: 'fm' must be at TPosition.A2"),
    (10, "cfg_column_major (NZ to DN) is not supported on the Ascend910B"),
    (11, "takes its per-channel quant parameters from a cbuf_workspace"),
    (12, "cbuf_workspace holds the uint64 quant parameters"),
    (13, "quant_pre QuantModes.DEQF16 does not convert float32 to float16"),
    (14, "L0C -> L1 converts: NoQuant"),
    (15, "quant_pre QuantModes.REQ8 does not convert float32 to float16"),
    (16, "asc.fixpipe: 'src' must be at TPosition.CO1"),
    (17, "params is an asc.LoadData3DParamsV2 of int8 but the tensors are float16"),
    (18, "is_channel_split (the F32 channel split) needs float32 -> float32 with FixpipeConfig cfg_nz, got float32 "
         "-> float16"),
])
def test_misuse(case: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError) as info:
        misuse_kernel[1](np.zeros(256, np.float16), case)
    err: Any = info.value
    assert fragment in str(err), str(err)
    assert err.line is not None and f"# <- {case}" in open(__file__).read().splitlines()[err.line - 1], str(err)


@asc.jit
def not_yet_kernel(a: asc.GlobalAddress, case: asc.ConstExpr[int]):
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    pipe = asc.TPipe()
    q1 = asc.TQue(asc.TPosition.A1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(q1, 1, 1024)
    pipe.init_buffer(q2, 1, 1024)
    f1 = q1.alloc_tensor(asc.int8)
    f2 = q2.alloc_tensor(asc.int8)
    if case == 0:
        asc.load_data(f2, f1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, en_transpose=True, dtype=asc.int8))


@pytest.mark.parametrize("case, fragment", [(0, "with en_transpose is not supported on the Ascend910B")])
def test_forms_not_supported_yet(case: int, fragment: str) -> None:
    with pytest.raises((NotImplementedError, asc.CompileError), match=fragment):
        not_yet_kernel[1](np.zeros(256, np.int8), case)


# ---- HF32: Mmad's float32 operands rounded while the mode is on ----------------------------------------------

@asc.jit
def hf32_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, k: asc.ConstExpr[int],
                mode: asc.ConstExpr[int]):
    """C[16, 16] = A[16, k] B[k, 16] in float32 (B given transposed: its NZ copy is L0B's ZN layout); mode 0:
    HF32 off, 1: on with ties to even, 2: on with ties away from zero."""
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    c_gm.set_global_buffer(c)
    k1 = (k + 7) // 8
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, k1 * 512)
    pipe.init_buffer(qb1, 1, k1 * 512)
    pipe.init_buffer(qa2, 1, k1 * 512)
    pipe.init_buffer(qb2, 1, k1 * 512)
    pipe.init_buffer(qc, 1, 1024)
    a1 = qa1.alloc_tensor(asc.float32)
    b1 = qb1.alloc_tensor(asc.float32)
    a2 = qa2.alloc_tensor(asc.float32)
    b2 = qb2.alloc_tensor(asc.float32)
    co1 = qc.alloc_tensor(asc.float32)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, k, 0, k, 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 16, k, 0, k, 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, k1, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, k1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    if mode > 0:
        asc.set_hf32_mode(True)
        asc.set_hf32_trans_mode(mode == 2)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=k, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))


def hf32_round(x: np.ndarray, ties_away: bool) -> np.ndarray:
    """float32 to HF32 (11 mantissa bits), to nearest: ties to even, or away from zero."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    low = u & 0xFFF
    keep = u & ~np.uint64(0xFFF)
    tie = low == 0x800
    up = (low > 0x800) | (tie & (ties_away | ((keep >> 12) & 1 == 1)))
    return (keep + np.where(up, 0x1000, 0)).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_mmad_rounds_float32_operands_to_hf32(mode: int) -> None:
    k = 24
    rng = np.random.default_rng(7)
    a = rng.standard_normal((16, k)).astype(np.float32)
    b = rng.standard_normal((k, 16)).astype(np.float32)
    # ties in both directions: values exactly halfway between two HF32 numbers
    a[0, :4] = np.array([0x3F800800, 0x3F801800, 0xBF800800, 0x40000800], np.uint32).view(np.float32)
    c = np.zeros((16, 16), np.float32)
    hf32_kernel[1](a, np.ascontiguousarray(b.T), c, k, mode)
    av, bv = (a, b) if mode == 0 else (hf32_round(a, mode == 2), hf32_round(b, mode == 2))
    want = np.zeros((16, 16), np.float32)
    for j in range(k):  # the sum in k order, each product and addition rounded to float32
        want = (want + np.outer(av[:, j], bv[j, :]).astype(np.float32)).astype(np.float32)
    np.testing.assert_array_equal(c, want)
    if mode:
        plain = np.zeros((16, 16), np.float32)
        for j in range(k):
            plain = (plain + np.outer(a[:, j], b[j, :]).astype(np.float32)).astype(np.float32)
        assert (c != plain).any()  # the mode changes results
