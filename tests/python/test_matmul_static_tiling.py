"""asc.adv.MatmulApiStaticTiling and asc.adv.get_matmul_api_tiling (python/asc/language/adv/static_tiling.py: the
devkit's constexpr GetMatmulApiTiling for the Ascend910B), and an asc.adv.Matmul built on one, against NumPy."""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc
import asc.lib.host as host

GM, ND = asc.TPosition.GM, asc.CubeFormat.ND
F16T = asc.adv.MatmulType(GM, ND, asc.float16)
F32T = asc.adv.MatmulType(GM, ND, asc.float32)


def cfg(sm: int = 0, sn: int = 0, sk: int = 0, bm: int = 0, bn: int = 0, bk: int = 0) -> asc.adv.MatmulConfig:
    return asc.adv.MatmulConfig(single_core_m=sm, single_core_n=sn, single_core_k=sk, basic_m=bm, basic_n=bn,
                                basic_k=bk)


# ---- the struct and the tiling arithmetic ------------------------------------------------------------------------


def test_defaults_are_minus_one_and_cfg_norm() -> None:
    t = asc.adv.MatmulApiStaticTiling()
    assert all(getattr(t, f) == -1 for f in t.int_fields())
    assert len(t.int_fields()) == 46 and t.int_fields()[0] == "used_core_num" and t.int_fields()[-1] == "mx_type_para"
    assert t.cfg == asc.adv.MatmulConfig()
    with pytest.raises(asc.CompileError, match="'m' must be a Python int"):
        asc.adv.MatmulApiStaticTiling(m=1.5)
    with pytest.raises(asc.CompileError, match="'cfg' must be an asc.adv.MatmulConfig"):
        asc.adv.MatmulApiStaticTiling(cfg=3)


def test_base_shape_only_is_the_partial_constant_tiling() -> None:
    c = cfg(bm=128, bn=256, bk=64)
    t = asc.adv.get_matmul_api_tiling(c, 524288, F16T, F16T, F32T, F32T)
    assert (t.base_m, t.base_n, t.base_k) == (128, 256, 64)
    # L0A: 128 * 64 halves = 16 KiB <= 32 KiB: double-buffered; L0B: 256 * 64 halves = 32 KiB: too
    assert (t.db_l0a, t.db_l0b, t.is_bias) == (2, 2, 1)
    assert t.m == t.single_core_m == t.depth_a1 == t.step_m == -1 and not t.is_full()
    t2 = asc.adv.get_matmul_api_tiling(cfg(bm=256, bn=256, bk=128), 524288, F16T, F16T, F32T)
    assert (t2.db_l0a, t2.db_l0b) == (1, 1)  # 64 KiB each: no room for two
    # no base shape: nothing but the config
    t3 = asc.adv.get_matmul_api_tiling(asc.adv.get_normal_config(), 524288, F16T, F16T, F32T)
    assert t3.values() == asc.adv.MatmulApiStaticTiling().values() and t3.cfg == asc.adv.get_normal_config()


def test_full_constant_tiling_both_matrices_in_l1() -> None:
    # single 128^3, base 64^3, half -> float: A and B both fit L1 (k = 8 blocks of 16, 2 x 2 base blocks)
    t = asc.adv.get_matmul_api_tiling(cfg(128, 128, 128, 64, 64, 64), 524288, F16T, F16T, F32T, F32T)
    assert t.is_full()
    assert (t.m, t.n, t.k_a, t.k_b) == (128, 128, 128, 128)
    assert (t.single_core_m, t.single_core_n, t.single_core_k, t.base_m, t.base_n, t.base_k) == (128,) * 3 + (64,) * 3
    assert (t.step_m, t.step_n, t.step_k_a, t.step_k_b, t.depth_a1, t.depth_b1) == (2, 2, 2, 2, 4, 4)
    assert (t.iterate_order, t.db_l0a, t.db_l0b, t.db_l0c, t.is_bias) == (0, 2, 2, 1, 1)
    # C's ND copy-out: 64 x 64 floats; L1: 4 + 4 base blocks of 8 KiB, a bias row, the quant vector of 2 x 64
    assert (t.trans_length, t.share_l1_size, t.share_l0c_size, t.share_mode, t.share_ub_size) == \
        (16384, 8 * 8192 + 256 + 1024, 16384, 0, 0)
    assert t.used_core_num == -1 and t.batch_num == -1


def test_small_single_shapes_load_a_fully() -> None:
    # singleM, singleN <= 16: CalcAL1FullLoadTiling (depthA1 = stepKa: all of A's K blocks)
    t = asc.adv.get_matmul_api_tiling(cfg(16, 16, 256, 16, 16, 64), 524288, F16T, F16T, F32T, F32T)
    assert (t.depth_a1, t.step_k_a) == (4, 4)
    assert t.step_k_b >= 1 and t.depth_b1 == 2 * t.step_k_b and t.step_k_a % t.step_k_b == 0


def test_a_small_l1_splits_k() -> None:
    # 64 KiB of L1 cannot hold A and B's whole K (1024): the K steps shrink, the depths follow
    c = cfg(256, 256, 1024, 128, 128, 64)
    t = asc.adv.get_matmul_api_tiling(c, 65536, F16T, F16T, F32T, F32T)
    big = asc.adv.get_matmul_api_tiling(c, 524288, F16T, F16T, F32T, F32T)
    assert t.step_k_a * 64 < 1024 or t.step_k_b * 64 < 1024
    assert t.share_l1_size <= 65536 < big.share_l1_size
    for v in (t, big):
        assert v.depth_a1 == v.step_k_a * v.step_m * (v.depth_a1 // (v.step_k_a * v.step_m))
        assert v.depth_a1 >= 1 and v.depth_b1 >= 1


def test_argument_orders_and_errors() -> None:
    c = cfg(bm=64, bn=64, bk=64)
    want = asc.adv.get_matmul_api_tiling(c, 524288, F16T, F16T, F32T, F32T).values()
    assert asc.adv.get_matmul_api_tiling(c, F16T, F16T, F32T, F32T, 524288).values() == want  # upstream's impl
    assert asc.adv.get_matmul_api_tiling(mm_cfg=c, l1_size=524288, a_type=F16T, b_type=F16T, c_type=F32T,
                                         bias_type=F32T).values() == want  # upstream's test
    assert asc.adv.get_matmul_api_tiling(c, a_type=F16T, b_type=F16T, c_type=F32T).values() == want  # defaults
    with pytest.raises(asc.CompileError, match="'mm_cfg' must be an asc.adv.MatmulConfig"):
        asc.adv.get_matmul_api_tiling(3, 524288, F16T, F16T, F32T)
    with pytest.raises(asc.CompileError, match="'l1_size' must be a positive int32"):
        asc.adv.get_matmul_api_tiling(c, -1, F16T, F16T, F32T)
    with pytest.raises(asc.CompileError, match="missing argument 'c_type'"):
        asc.adv.get_matmul_api_tiling(c, 524288, F16T, F16T)
    with pytest.raises(asc.CompileError, match="sets the single-core shape but not basic_m"):
        asc.adv.get_matmul_api_tiling(cfg(64, 64, 64, 0, 64, 64), 524288, F16T, F16T, F32T)
    with pytest.raises(asc.CompileError, match="unexpected argument 'foo'"):
        asc.adv.get_matmul_api_tiling(c, 524288, F16T, F16T, F32T, foo=1)


# ---- a Matmul on a constant tiling ---------------------------------------------------------------------------------


@asc.jit
def static_mm(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
              ws: asc.GlobalAddress, m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int],
              base: asc.ConstExpr[int], edit: asc.ConstExpr[bool]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    a_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    c_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    mm_cfg = asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_NORM,
                                   asc.adv.MatmulShapeParams(m, n, k, base, base, base))
    static = asc.adv.get_matmul_api_tiling(mm_cfg, 524288, a_type, a_type, c_type, c_type)
    if edit:  # one made by hand: the emitted code spells its fields
        static = asc.adv.MatmulApiStaticTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, single_core_m=m,
                                               single_core_n=n, single_core_k=k, base_m=base, base_n=base,
                                               base_k=base, depth_a1=1, depth_b1=1, step_m=1, step_n=1,
                                               step_k_a=1, step_k_b=1, is_bias=1, iterate_order=0, db_l0a=1,
                                               db_l0b=1, db_l0c=1, cfg=mm_cfg)
    mm = asc.adv.Matmul(a_type, a_type, c_type, c_type, static)
    asc.adv.register_matmul(pipe, ws, mm)  # a fully constant tiling: no runtime one
    if asc.get_block_idx() == 0:  # (a MIX kernel: one of the two vector cores drives the cube)
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.set_bias(bias_g)
        mm.iterate_all(c_g)
        mm.end()


@pytest.mark.parametrize("m,n,k,base,edit", [(64, 64, 64, 32, False), (128, 96, 64, 32, False),
                                             (32, 32, 128, 32, True)])
def test_matmul_with_a_full_constant_tiling(m: int, n: int, k: int, base: int, edit: bool) -> None:
    rng = np.random.default_rng(m + n + k)
    a = rng.integers(-4, 4, (m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (k, n)).astype(np.float16)
    bias = rng.integers(-4, 4, (n,)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    static_mm[1, None](a, b, c, bias, np.zeros(64, np.uint8), m, n, k, base, edit)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias, atol=1e-3)
    cpp = ascendc(static_mm)
    assert "static constexpr MatmulConfig mm_cfg = {" in cpp
    if edit:  # changed fields: their values, not the call
        assert "static constexpr MatmulApiStaticTiling mm_tiling = {1, " in cpp
    else:
        assert ("static constexpr MatmulApiStaticTiling mm_tiling = AscendC::GetMatmulApiTiling<"
                "AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE>") in cpp
        assert "(mm_cfg, 524288);" in cpp
    assert ", mm_tiling> mm;" in cpp


@asc.jit
def partial_mm(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               ws: asc.GlobalAddress, base_m: asc.ConstExpr[int], base_n: asc.ConstExpr[int],
               base_k: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    a_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    c_type = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    mm_cfg = asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL,
                                   asc.adv.MatmulShapeParams(0, 0, 0, base_m, base_n, base_k))
    static = asc.adv.get_matmul_api_tiling(mm_cfg=mm_cfg, l1_size=524288, a_type=a_type, b_type=a_type,
                                           c_type=c_type)
    mm = asc.adv.Matmul(a=a_type, b=a_type, c=c_type, matmul_config=static)
    asc.adv.register_matmul(pipe, ws, mm, tiling)  # base shape only: the runtime tiling gives the rest
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.disable_bias()
        mm.iterate_all(c_g)
        mm.end()


def host_tiling(m: int, n: int, k: int, base: Any) -> asc.adv.TCubeTiling:
    F16, F32 = host.DataType.DT_FLOAT16, host.DataType.DT_FLOAT
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, F16, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, F16, False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, F32)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, F32)
    mt.set_dim(1)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(False)
    mt.set_fix_split(*base)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    return t


def test_matmul_with_a_partial_constant_tiling_and_the_runtime_one() -> None:
    m, n, k = 96, 64, 80
    t = host_tiling(m, n, k, (32, 32, 32))
    assert (t.base_m, t.base_n, t.base_k) == (32, 32, 32)  # the constant must match (the devkit's rule)
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 4, (m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    partial_mm[1, None](a, b, c, t, np.zeros(64, np.uint8), 32, 32, 32)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)
    cpp = ascendc(partial_mm)
    assert "AscendC::GetMatmulApiTiling<" in cpp and "REGIST_MATMUL_OBJ(&pipe, reinterpret_cast<__gm__ uint8_t *>(ws), mm, &tiling)" in cpp


def test_matmul_rejects_other_configs() -> None:
    @asc.jit
    def k(ws: asc.GlobalAddress):
        asc.adv.Matmul(F16T, F16T, F32T, None, 5)  # here

    with pytest.raises(asc.CompileError, match="an asc.adv.MatmulApiStaticTiling or None"):
        k[1, None](np.zeros(64, np.uint8))


def test_a_runtime_tiling_that_disagrees_with_the_constants_is_a_kernel_error() -> None:
    m, n, k = 64, 64, 64
    t = host_tiling(m, n, k, (32, 32, 32))
    a = np.zeros((m, k), np.float16)
    b = np.zeros((k, n), np.float16)
    with pytest.raises(asc.KernelError, match="the tiling's baseN is 32 but the object's constant tiling"):
        partial_mm[1, None](a, b, np.zeros((m, n), np.float32), t, np.zeros(64, np.uint8), 32, 64, 32)
