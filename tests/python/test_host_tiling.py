"""Host tiling (asc.lib.host, C in src/host/) and asc.adv.TCubeTiling: every
setter, the refusals, the invariants of the tilings over a grid of shapes,
data types and core counts, and TCubeTiling as a kernel parameter (read,
changed and ceildiv'd in a kernel; the Ascend C it emits)."""

from __future__ import annotations

import logging
from typing import Any, Tuple

import numpy as np
import pytest

import asc
from asc.lib import host

P = host.get_ascendc_platform()
L0A = P.get_core_mem_size(host.CoreMemType.L0_A)
L0B = P.get_core_mem_size(host.CoreMemType.L0_B)
L0C = P.get_core_mem_size(host.CoreMemType.L0_C)
L1 = P.get_core_mem_size(host.CoreMemType.L1)
BT = P.get_core_mem_size(host.CoreMemType.BT)
BITS = {host.DataType.DT_FLOAT: 32, host.DataType.DT_FLOAT16: 16, host.DataType.DT_BF16: 16,
        host.DataType.DT_INT8: 8, host.DataType.DT_INT32: 32}


# ---------------------------------------------------------------------------
# the platform
# ---------------------------------------------------------------------------

def test_platform_cores_and_memories() -> None:
    info = asc._C.platform("Ascend910B1")
    p = host.PlatformAscendCManager.get_instance("Ascend910B1")
    assert p is host.PlatformAscendCManager.get_instance("Ascend910B1")
    assert p.get_core_num_aic() == info["cube_cores"] == 24
    assert p.get_core_num_aiv() == info["vector_cores"] == p.core_num == p.get_core_num() == 48
    assert p.get_soc_version() == "Ascend910B1"
    sizes = {t: p.get_core_mem_size(t) for t in host.CoreMemType}
    assert sizes[host.CoreMemType.L0_A] == sizes[host.CoreMemType.L0_B] == 64 * 1024
    assert sizes[host.CoreMemType.L0_C] == 128 * 1024
    assert sizes[host.CoreMemType.L1] == 512 * 1024 - 256  # the devkit keeps 256 bytes back on 910B
    assert sizes[host.CoreMemType.UB] == 192 * 1024 - 256
    assert sizes[host.CoreMemType.BT] == 1024 and sizes[host.CoreMemType.FB] == 2048
    assert host.PlatformAscendCManager.get_instance("Ascend910B3").get_core_num_aic() == 20
    assert p.calc_tsch_block_dim(48, 24, 48) == 24 and p.calc_tsch_block_dim(7, 0, 48) == 7


def test_platform_errors() -> None:
    with pytest.raises(ValueError, match="unknown SoC version 'Ascend999'"):
        host.PlatformAscendC("Ascend999")
    with pytest.raises(TypeError, match="mem_type` must be a member of asc.lib.host.CoreMemType"):
        P.get_core_mem_size(3)
    assert asc.lib.runtime.get_soc_version() == asc.Platform.Ascend910B1


# ---------------------------------------------------------------------------
# TCubeTiling on the host
# ---------------------------------------------------------------------------

def test_tcube_tiling_fields_defaults_and_layout() -> None:
    t = asc.adv.TCubeTiling(m=64, base_k=32)
    assert t.m == 64 and t.base_k == 32 and t.n == 0 and t.mx_type_para == 0
    assert len(t.values()) == 50 and len(t.pack()) == 200
    t.share_l1_size = 1024
    assert t.share_l1_size == 1024
    info = {i["name"]: i for i in asc._C.struct_infos()}["TCubeTiling"]
    assert [f[0] for f in info["fields"]] == list(type(t).struct_fields)
    assert info["cpp"] == "AscendC::tiling::TCubeTiling"
    with pytest.raises(ValueError, match="does not fit"):
        t.m = 2 ** 31
    with pytest.raises(AttributeError, match="has no field `mm`"):
        t.mm = 1


# ---------------------------------------------------------------------------
# setters
# ---------------------------------------------------------------------------

def tiling_of(cls: Any = host.MultiCoreMatmulTiling, m: int = 64, n: int = 64, k: int = 64,
              dtype: host.DataType = host.DataType.DT_FLOAT16, c: host.DataType = host.DataType.DT_FLOAT,
              bias: bool = False) -> Any:
    mt = cls(P)
    pos, fmt = host.TPosition.GM, host.CubeFormat.ND
    assert mt.set_a_type(pos, fmt, dtype, False) == 0
    assert mt.set_b_type(pos, fmt, dtype) == 0
    assert mt.set_c_type(pos, fmt, c) == 0
    bias_dt = host.DataType.DT_INT32 if dtype == host.DataType.DT_INT8 else host.DataType.DT_FLOAT
    assert mt.set_bias_type(pos, fmt, bias_dt) == 0
    assert mt.set_shape(m, n, k) == 0
    assert mt.enable_bias(bias) == 0
    return mt


def get(mt: Any) -> Tuple[int, Any]:
    t = asc.adv.TCubeTiling()
    return mt.get_tiling(t), t


def test_every_setter_returns_upstreams_code_and_takes_effect() -> None:
    mt = tiling_of(m=100, n=200, k=300)
    assert mt.set_org_shape(100, 200, 300) == 0
    assert mt.set_dim(4) == 0
    assert mt.set_traverse(host.MatrixTraverse.FIRSTN) == 0
    assert mt.set_mad_type(host.MatrixMadType.HF32) == 0
    assert mt.set_double_buffer(True, True, False, False) == 0
    assert mt.set_dequant_type(host.DequantType.TENSOR) == 0
    assert mt.set_sparse(False) == 0
    assert mt.set_a_layout(1, 2, 3, 4, 5) == 0 and mt.set_b_layout(6, 7, 8, 9, 10) == 0
    assert mt.set_c_layout(11, 12, 13, 14, 15) == 0 and mt.set_batch_num(4) == 0
    assert mt.set_align_split(32, 32, 16) == 0
    assert mt.set_single_range(-1, -1, -1, -1, -1, -1) == 0
    assert mt.enable_multi_core_split_k(False) is None
    assert mt.set_matmul_config_params(1, False, host.ScheduleType.INNER_PRODUCT, host.MatrixTraverse.FIRSTN) is None
    assert mt.set_buffer_space(-1, -1, -1, -1) == 0
    assert mt.get_core_num() is None and mt.get_single_shape() is None
    ret, t = get(mt)
    assert ret == 0
    assert (t.m, t.n, t.k_a, t.k_b) == (100, 200, 300, 300)
    assert t.iterate_order == 1  # FIRSTN
    assert (t.a_layout_info_b, t.a_layout_info_d, t.b_layout_info_s, t.c_layout_info_s2, t.batch_num) == \
        (1, 5, 7, 15, 4)
    dim, m_dim, n_dim = mt.get_core_num()
    assert dim == t.used_core_num <= 4 and m_dim * n_dim == dim
    assert mt.get_single_shape() == (t.single_core_m, t.single_core_n, t.single_core_k)
    assert t.single_core_m % 32 == 0 or m_dim == 1  # set_align_split
    assert (mt.get_base_m(), mt.get_base_n(), mt.get_base_k()) == (t.base_m, t.base_n, t.base_k)
    assert mt.set_batch_info_for_normal(3, 2, 100, 200, 300) == 0
    ret, t = get(mt)
    assert (t.a_layout_info_b, t.a_layout_info_s, t.b_layout_info_b, t.c_layout_info_b, t.c_layout_info_s2) == \
        (3, 100, 2, 3, 200)


def test_fix_split_single_shape_split_range_and_buffer_space() -> None:
    mt = tiling_of(m=256, n=256, k=256)
    assert mt.set_fix_split(64, 128, 64) == 0
    assert mt.get_base_m() == 64  # before get_tiling: the fixed one
    assert mt.set_fix_split(24, -1, -1) == -1  # not whole fractals
    assert mt.set_fix_split(-1, -1, 8) == -1  # fp16: K in 16s
    assert mt.set_fix_split(0, 16, 16) == -1
    assert mt.set_single_shape(128, 64, -1) == 0
    ret, t = get(mt)
    assert ret == 0 and (t.base_m, t.base_n, t.base_k) == (64, 128, 64)
    assert (t.single_core_m, t.single_core_n, t.single_core_k) == (128, 64, 256)
    mt = tiling_of(host.MatmulApiTiling, m=512, n=512, k=512)
    assert mt.set_split_range(64, 48, 64, 32, 32, 32) == 0
    ret, t = get(mt)
    assert ret == 0 and 32 <= t.base_m <= 64 and 32 <= t.base_n <= 48 and t.base_k <= 64
    mt = tiling_of(host.MatmulApiTiling, m=512, n=512, k=4096)
    assert mt.set_buffer_space(L1 + 1) == -1 and mt.set_buffer_space(-2) == -1
    assert mt.set_buffer_space(64 * 1024 + 7, -1, -1) == 0
    ret, t = get(mt)
    assert ret == 0 and t.share_l1_size <= 64 * 1024


def test_batch_matmul_tiling_core_num() -> None:
    mt = tiling_of(host.BatchMatmulTiling, m=32, n=32, k=32)
    assert mt.get_core_num() is None
    assert get(mt)[0] == 0
    assert mt.get_core_num() == (1, 1, 1, 1, 1)


def test_matmul_config_params_object() -> None:
    cfg = host.MatmulConfigParams(1, False, host.ScheduleType.OUTER_PRODUCT, host.MatrixTraverse.FIRSTM, False)
    mt = tiling_of(host.MatmulApiTiling)
    assert mt.set_matmul_config_params(cfg) is None
    assert get(mt)[1].iterate_order == 0
    assert cfg.schedule_type == host.ScheduleType.OUTER_PRODUCT


@pytest.mark.parametrize("call,exc,match", [
    (lambda mt: mt.set_a_type(0, host.CubeFormat.ND, host.DataType.DT_FLOAT16), TypeError,
     r"MultiCoreMatmulTiling.set_a_type: `pos` must be a member of asc.lib.host.TPosition"),
    (lambda mt: mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, "float16"), TypeError,
     "`data_type` must be a member of asc.lib.host.DataType"),
    (lambda mt: mt.set_shape(32, 32.0, 32), TypeError, "set_shape: `n` must be an integer"),
    (lambda mt: mt.set_shape(32, True, 32), TypeError, "`n` must be an integer"),
    (lambda mt: mt.set_shape(2 ** 31, 1, 1), ValueError, "`m` = 2147483648 does not fit int32"),
    (lambda mt: mt.enable_bias(2), TypeError, "enable_bias: `is_bias_in` must be a bool"),
    (lambda mt: mt.set_dim("4"), TypeError, "set_dim: `dim` must be an integer"),
    (lambda mt: mt.set_org_shape(1, 2), TypeError, "takes \\(org_m_in, org_n_in, org_k_in\\)"),
    (lambda mt: mt.get_tiling(object()), TypeError, "tiling must be an asc.adv.TCubeTiling"),
    (lambda mt: host.MatmulApiTiling(3), TypeError, "the platform must be an asc.lib.host.PlatformAscendC"),
    (lambda mt: mt.set_traverse(1), TypeError, "must be a member of asc.lib.host.MatrixTraverse"),
])
def test_bad_arguments_are_clear_errors(call: Any, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        call(tiling_of())


@pytest.mark.parametrize("setup,match", [
    (lambda mt: mt.set_shape(0, 16, 16), "M, N and K must be set"),
    (lambda mt: mt.set_shape(-5, 16, 16), "M, N and K must be set"),
    (lambda mt: mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT16), "not one the cube"),
    (lambda mt: mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT8), "one data type"),
    (lambda mt: mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT32), "C matrix"),
    (lambda mt: mt.set_fix_split(256, 256, -1), "larger than L0C"),
    (lambda mt: mt.set_fix_split(128, -1, 512), "larger than L0A"),
    (lambda mt: mt.set_dim(0), "number of cores must be positive"),
    (lambda mt: mt.set_buffer_space(64), "do not fit L1"),
])
def test_refusals_return_minus_one_and_leave_the_tiling(setup: Any, match: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    mt = tiling_of()
    setup(mt)
    t = asc.adv.TCubeTiling(m=7)
    with caplog.at_level(logging.WARNING, logger="asc.lib.host"):
        assert mt.get_tiling(t) == -1
    assert t.values() == asc.adv.TCubeTiling(m=7).values()
    assert match in mt.error and "MatmulApi Tiling" in caplog.text


def test_a_tiling_object_without_a_shape_fails() -> None:
    assert host.MatmulApiTiling(P).get_tiling(asc.adv.TCubeTiling()) == -1


# ---------------------------------------------------------------------------
# the tilings' invariants
# ---------------------------------------------------------------------------

TYPES = [(host.DataType.DT_FLOAT16, host.DataType.DT_FLOAT), (host.DataType.DT_BF16, host.DataType.DT_FLOAT),
         (host.DataType.DT_INT8, host.DataType.DT_INT32), (host.DataType.DT_FLOAT, host.DataType.DT_FLOAT)]
SHAPES = [(1, 1, 1), (16, 16, 16), (33, 17, 9), (100, 300, 129), (1024, 1024, 1024), (5, 3000, 70),
          (2000, 8, 4000)]


@pytest.mark.parametrize("dtype,c", TYPES, ids=[t[0].name for t in TYPES])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("trans", [False, True])
def test_tiling_invariants(dtype: host.DataType, c: host.DataType, bias: bool, trans: bool) -> None:
    k0 = 256 // BITS[dtype]
    for (m, n, k) in SHAPES:
        for dim in (1, 3, 24, 48):
            mt = tiling_of(m=m, n=n, k=k, dtype=dtype, c=c, bias=bias)
            mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, dtype, trans)
            mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, dtype, not trans)
            mt.set_dim(dim)
            ret, t = get(mt)
            assert ret == 0, (m, n, k, dim, mt.error)
            assert t.base_m % 16 == 0 and t.base_n % 16 == 0 and t.base_k % k0 == 0
            size = BITS[dtype] // 8 if dtype != host.DataType.DT_INT8 else 1
            a_blk, b_blk = t.base_m * t.base_k * size, t.base_n * t.base_k * size
            assert a_blk * t.db_l0a <= L0A and b_blk * t.db_l0b <= L0B
            assert t.base_m * t.base_n * 4 * t.db_l0c <= L0C == t.share_l0c_size * t.db_l0c or \
                t.base_m * t.base_n * 4 * t.db_l0c <= L0C
            bias_bytes = t.base_n * 4 if bias else 0
            assert t.depth_a1 * a_blk + t.depth_b1 * b_blk + bias_bytes == t.share_l1_size <= L1
            assert bias_bytes <= BT and t.is_bias == int(bias)
            assert t.depth_a1 % (t.step_m * t.step_k_a) == 0 and t.depth_b1 % (t.step_n * t.step_k_b) == 0
            k_iters = -(-t.single_core_k // t.base_k)
            assert 1 <= t.step_k_a <= k_iters and k_iters % t.step_k_a == 0
            # the cores' blocks cover the matrix; no more cores than blocks or than allowed
            m_blocks, n_blocks = -(-m // t.single_core_m), -(-n // t.single_core_n)
            assert t.used_core_num == m_blocks * n_blocks <= dim
            assert (t.m, t.n, t.k_a, t.k_b, t.single_core_k) == (m, n, k, k, k)
            # no base larger than the core's block needs
            assert t.base_m <= -(-t.single_core_m // 16) * 16 and t.base_n <= -(-t.single_core_n // 16) * 16


def test_large_shapes_use_the_cores_and_big_blocks() -> None:
    mt = tiling_of(m=1024, n=1024, k=1024)
    mt.set_dim(24)
    ret, t = get(mt)
    assert ret == 0 and t.used_core_num >= 16
    assert t.base_m * t.base_n >= 128 * 128 and t.step_k_a >= 1
    mt = tiling_of(m=16, n=16, k=16)
    mt.set_dim(48)  # more cores than blocks
    ret, t = get(mt)
    assert ret == 0 and t.used_core_num == 1 and (t.single_core_m, t.single_core_n) == (16, 16)


# ---------------------------------------------------------------------------
# TCubeTiling in a kernel
# ---------------------------------------------------------------------------

@asc.jit
def core_offsets(tiling: asc.adv.TCubeTiling):
    blocks = tiling.m.ceildiv(tiling.single_core_m)
    return blocks, asc.get_block_idx() % blocks


@asc.jit
def read_tiling(z: asc.GlobalAddress, tiling: asc.adv.TCubeTiling):
    g = asc.GlobalTensor()
    g.set_global_buffer(z + asc.get_block_idx() * 16)  # a 64-byte data cache line per block
    blocks, m_index = core_offsets(tiling)
    g.set_value(0, tiling.m)
    g.set_value(1, tiling.base_k)
    g.set_value(2, blocks)
    g.set_value(3, m_index)
    tiling.share_l1_size = tiling.share_l1_size + 1
    g.set_value(4, tiling.share_l1_size)
    g.set_value(5, tiling.mx_type_para)
    g.set_value(6, asc.ceildiv(tiling.n, tiling.single_core_n))
    g.set_value(7, tiling.used_core_num)


def test_tcube_tiling_reaches_the_kernel() -> None:
    mt = tiling_of(m=100, n=70, k=64)
    mt.set_dim(4)
    ret, t = get(mt)
    assert ret == 0
    z = np.zeros((4, 16), np.int32)
    read_tiling[4, None](z, t)
    blocks = -(-t.m // t.single_core_m)
    for i in range(4):
        assert z[i, :8].tolist() == [100, t.base_k, blocks, i % blocks, t.share_l1_size + 1, 0,
                                 -(-70 // t.single_core_n), t.used_core_num]
    assert t.share_l1_size == get(mt)[1].share_l1_size  # the kernel changed its own copy


def test_tcube_tiling_emits_the_devkit_struct() -> None:
    z = np.zeros((1, 8), np.int32)
    read_tiling[1, None](z, asc.adv.TCubeTiling(m=16, single_core_m=16, n=16, single_core_n=16))
    cpp = next(iter(read_tiling.cache.values())).ascendc(line_comments=False)
    assert "struct TCubeTiling" not in cpp  # the devkit's, not declared
    assert "GM_ADDR tiling_gm" in cpp
    assert "AscendC::tiling::TCubeTiling tiling;" in cpp and "sizeof(AscendC::tiling::TCubeTiling)" in cpp
    assert "tiling.shareL1Size" in cpp and "tiling.M" in cpp


def test_tcube_tiling_argument_errors() -> None:
    z = np.zeros((1, 8), np.int32)
    with pytest.raises(TypeError, match="annotated TCubeTiling"):
        read_tiling[1, None](z, 3)
