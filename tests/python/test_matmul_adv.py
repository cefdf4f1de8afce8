"""asc.adv.Matmul (family matmul): C = A * B (+ bias) with a host tiling, against NumPy.

IterateAll into GM (one core, several cores with tails), the `with matmul.iterate() as count:` form writing
each base block to GM or to a UB tensor and then GM, bias, transposed inputs, the MatmulConfig helpers, the
emitted Ascend C, and the errors."""

from typing import Any, Tuple

import numpy as np
import pytest
from kernels_util import ascendc

import asc
import asc.lib.host as host


def make_tiling(m: int, n: int, k: int, cores: int = 1, bias: bool = False, trans_a: bool = False,
                trans_b: bool = False, base: Tuple[int, int, int] = (-1, -1, -1), c_pos: Any = None,
                order_n: bool = False, ab: Any = host.DataType.DT_FLOAT16,
                c: Any = host.DataType.DT_FLOAT) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, ab, trans_a)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, ab, trans_b)
    mt.set_c_type(c_pos or host.TPosition.GM, host.CubeFormat.ND, c)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, c)
    mt.set_dim(cores)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(bias)
    if base != (-1, -1, -1):
        mt.set_fix_split(*base)
    if order_n:
        mt.set_traverse(host.MatrixTraverse.FIRSTN)
    mt.set_buffer_space(-1, -1, -1)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    return t


@asc.jit
def offsets(tiling: asc.adv.TCubeTiling, trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool]):
    idx = asc.get_block_idx()
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    mi = idx % m_blocks
    ni = idx // m_blocks
    off_a = mi * tiling.k_a * tiling.single_core_m
    if trans_a:
        off_a = mi * tiling.single_core_m
    off_b = ni * tiling.single_core_n
    if trans_b:
        off_b = ni * tiling.k_b * tiling.single_core_n
    off_c = mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n
    tail_m = tiling.m - mi * tiling.single_core_m
    if tail_m >= tiling.single_core_m:
        tail_m = tiling.single_core_m
    tail_n = tiling.n - ni * tiling.single_core_n
    if tail_n >= tiling.single_core_n:
        tail_n = tiling.single_core_n
    return off_a, off_b, off_c, ni * tiling.single_core_n, tail_m, tail_n


@asc.jit
def mm_all(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
           tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress, use_bias: asc.ConstExpr[bool],
           trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool]):
    off_a, off_b, off_c, off_bias, tail_m, tail_n = offsets(tiling, trans_a, trans_b)
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a + off_a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b + off_b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + off_c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias + off_bias)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, trans_a),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, trans_b),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_tensor_a(a_g, trans_a)
        mm.set_tensor_b(b_g, trans_b)
        if use_bias:
            mm.set_bias(bias_g)
        else:
            mm.disable_bias()
        mm.set_tail(tail_m, tail_n)
        mm.iterate_all(c_g)
        mm.end()


def data(m: int, n: int, k: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-5, 5, (m, k)).astype(np.float16)
    b = rng.integers(-5, 5, (k, n)).astype(np.float16)
    bias = rng.integers(-5, 5, (n,)).astype(np.float32)
    return a, b, bias


def ref(a: np.ndarray, b: np.ndarray, bias: Any = None) -> np.ndarray:
    c = a.astype(np.float32) @ b.astype(np.float32)
    return c + bias if bias is not None else c


@pytest.mark.parametrize("m,n,k,cores,use_bias,trans_a,trans_b", [
    (64, 64, 64, 1, False, False, False),
    (64, 64, 64, 1, True, False, False),
    (100, 70, 50, 1, True, False, False),   # tails in every dimension
    (100, 70, 50, 4, False, False, False),  # four cores, tails at the edges
    (96, 80, 48, 2, True, True, False),
    (48, 64, 40, 2, False, False, True),
    (48, 64, 40, 1, True, True, True),
])
def test_iterate_all(m: int, n: int, k: int, cores: int, use_bias: bool, trans_a: bool, trans_b: bool) -> None:
    a, b, bias = data(m, n, k)
    t = make_tiling(m, n, k, cores, use_bias, trans_a, trans_b)
    c = np.zeros((m, n), np.float32)
    ws = np.zeros(1024, np.uint8)
    a_in = np.ascontiguousarray(a.T) if trans_a else a
    b_in = np.ascontiguousarray(b.T) if trans_b else b
    mm_all[(cores + 1) // 2, None](a_in, b_in, c, bias, t, ws, use_bias, trans_a, trans_b)
    np.testing.assert_allclose(c, ref(a, b, bias if use_bias else None), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("ab,c", [(np.float32, np.float32), (np.int8, np.int32), (np.float16, np.float16)])
def test_element_types(ab: Any, c: Any) -> None:
    m, n, k = 48, 40, 64
    rng = np.random.default_rng(5)
    a = rng.integers(-8, 8, (m, k)).astype(ab)
    b = rng.integers(-8, 8, (k, n)).astype(ab)
    bias = rng.integers(-8, 8, (n,)).astype(c)
    hd = {np.float32: host.DataType.DT_FLOAT, np.int8: host.DataType.DT_INT8, np.float16: host.DataType.DT_FLOAT16,
          np.int32: host.DataType.DT_INT32}
    t = make_tiling(m, n, k, bias=True, ab=hd[ab], c=hd[c])
    out = np.zeros((m, n), c)
    mm_all[1, None](a, b, out, bias, t, np.zeros(64, np.uint8), True, False, False)
    want = a.astype(np.int64) @ b.astype(np.int64) + bias.astype(np.int64)
    np.testing.assert_array_equal(out, want.astype(c))


def test_float_inputs_accumulate_in_fp32() -> None:
    # products of fp16 values that need fp32: 1/3 sums in float32, compared at upstream's tolerance
    m = n = k = 32
    rng = np.random.default_rng(3)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    t = make_tiling(m, n, k)
    c = np.zeros((m, n), np.float32)
    mm_all[1, None](a, b, c, np.zeros(n, np.float32), t, np.zeros(64, np.uint8), False, False, False)
    np.testing.assert_allclose(c, ref(a, b), rtol=1e-3, atol=1e-3)


@asc.jit
def mm_iterate_ub(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=tiling.base_m * tiling.base_n * 4)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_g.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.set_bias(bias_g)
        with mm.iterate() as count:
            out = que.alloc_tensor(asc.float32)
            mm.get_tensor_c(out, en_sequential_write=True)
            asc.muls(out, out, 2.0, count=tiling.base_m * tiling.base_n)
            que.enque(out)
            out = que.deque(asc.float32)
            round_m = tiling.single_core_m // tiling.base_m
            start = count % round_m * tiling.base_m * tiling.n + count // round_m * tiling.base_n
            params = asc.DataCopyParams(block_count=tiling.base_m, block_len=tiling.base_n * 4 // 32, src_stride=0,
                                        dst_stride=(tiling.n - tiling.base_n) * 4 // 32)
            asc.data_copy(c_g[start:], out, repeat_params=params)
            que.free_tensor(out)
        mm.end()


def test_iterate_to_ub_then_gm() -> None:
    m, n, k = 64, 64, 48
    a, b, bias = data(m, n, k, 1)
    t = make_tiling(m, n, k, base=(32, 32, -1), c_pos=host.TPosition.VECCALC)
    assert (t.base_m, t.base_n) == (32, 32)
    c = np.zeros((m, n), np.float32)
    mm_iterate_ub[1, None](a, b, c, bias, t, np.zeros(64, np.uint8))
    np.testing.assert_allclose(c, 2 * ref(a, b, bias), rtol=1e-3, atol=1e-3)


@asc.jit
def mm_iterate_gm(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, n_out: asc.GlobalAddress,
                  tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    n_g = asc.GlobalTensor()
    n_g.set_global_buffer(n_out)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype),
                        matmul_config=asc.adv.get_normal_config())
    asc.adv.register_matmul(pipe, workspace, mm)
    mm.init(tiling)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.set_tail(tiling.m, tiling.n, tiling.k_a)
        blocks = 0
        with mm.iterate() as count:
            mm.get_tensor_c(c_g)
            blocks = count + 1
        n_g.set_value(0, blocks)  # the AIC left the kernel at register_matmul: no race with it
        mm.end()


@pytest.mark.parametrize("order_n", [False, True])
def test_iterate_to_gm_with_tails(order_n: bool) -> None:
    m, n, k = 100, 70, 50
    a, b, _ = data(m, n, k, 2)
    t = make_tiling(m, n, k, base=(32, 32, -1), order_n=order_n)
    c = np.zeros((m, n), np.float32)
    count = np.zeros(8, np.int32)
    mm_iterate_gm[1, None](a, b, c, count, t, np.zeros(64, np.uint8))
    np.testing.assert_allclose(c, ref(a, b), rtol=1e-3, atol=1e-3)
    assert count[0] == 4 * 3  # ceil(100 / 32) x ceil(70 / 32) blocks


@asc.jit
def after_register_kernel(z: asc.GlobalAddress, workspace: asc.GlobalAddress):
    z_g = asc.GlobalTensor()
    z_g.set_global_buffer(z)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    if asc.ascend_is_aic():
        z_g.set_value((4 + asc.get_block_idx()) * 16 + 1, 1)  # the AIC runs up to register_matmul
    asc.adv.register_matmul(pipe, workspace, mm)
    if asc.ascend_is_aic():
        z_g.set_value((4 + asc.get_block_idx()) * 16 + 2, 1)  # but not past it
    else:  # rows of 16 int32: a 64-byte data cache line per core (docs/sanitizer.md), the AICs' after the AIVs'
        z_g.set_value(asc.get_block_idx() * 16, 1)


def test_the_cube_core_leaves_the_kernel_at_register_matmul() -> None:
    """On a MIX kernel the devkit's AIC runs the Matmul server inside REGIST_MATMUL_OBJ and then returns from
    the kernel: what follows runs on the vector cores only (AIC g has block index g, AIV g * 2 + sub)."""
    z = np.zeros(16 * 8, np.int32)
    after_register_kernel[2, None](z, np.zeros(64, np.uint8))
    ran = z.reshape(8, 16)
    assert list(ran[4:, 1]) == [1, 1, 0, 0]  # AICs 0 and 1 before register_matmul
    assert list(ran[4:, 2]) == [0, 0, 0, 0]  # and none after it
    assert list(ran[:4, 0]) == [1, 1, 1, 1]  # the four AIVs after it
    assert z.sum() == 6


def test_ascendc_spells_the_devkit_object() -> None:
    test_iterate_to_gm_with_tails(False)
    text = ascendc(mm_iterate_gm)
    assert "static constexpr MatmulConfig" in text
    assert "AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half, false, " \
           "LayoutMode::NONE>" in text
    assert "REGIST_MATMUL_OBJ(&pipe, reinterpret_cast<__gm__ uint8_t *>(workspace), mm)" in text
    assert "mm.Init(&tiling)" in text
    assert ".Iterate(false)" in text and ".GetTensorC(c_g, static_cast<uint8_t>(0), false)" in text
    assert "AscendC::SetSysWorkspace(" in text


def test_config_helpers_match_upstream_defaults() -> None:
    cfg = asc.adv.get_normal_config()
    assert cfg.do_norm and cfg.iterate_order == asc.IterateOrder.ORDER_M and cfg.en_unit_flag
    mdl = asc.adv.get_mdl_config()
    assert not mdl.en_unit_flag and mdl.enable_ub_reuse
    basic = asc.adv.get_basic_config(128, 64, 32)
    assert (basic.basic_m, basic.basic_n, basic.basic_k) == (128, 64, 32)
    sb = asc.adv.get_special_basic_config(64, 64, 64, 128, 128, 128, 2, 2)
    assert (sb.single_core_m, sb.step_m) == (128, 2)
    assert asc.adv.get_ib_share_norm_config(is_double_cache=True).enable_double_cache == 1
    mm = asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL, asc.adv.MatmulShapeParams(64, 64, 64, 32, 32, 32))
    assert mm.do_multi_data_load and mm.single_core_m == 64 and mm.basic_k == 32
    assert asc.adv.MatmulConfig().cpp().startswith("{true, false, false, 0U")
    with pytest.raises(asc.CompileError, match="batch_mode"):
        asc.adv.MatmulConfig(batch_mode="x")


@asc.jit
def bad_kernel(a: asc.GlobalAddress, workspace: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    pipe = asc.TPipe()
    f16 = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    f32 = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    if which == 0:
        asc.adv.Matmul(a=f16, b=f32, c=f32)
    elif which == 1:
        asc.adv.Matmul(a=f16, b=f16, c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int32))
    elif which == 2:
        mm = asc.adv.Matmul(a=f16, b=f16, c=f32)
        mm.set_tensor_a(a_g)  # a is float32
    elif which == 3:
        mm = asc.adv.Matmul(a=f16, b=f16, c=f32)
        mm.iterate_all(a_g, en_atomic=5)
    elif which == 4:
        mm = asc.adv.Matmul(a=f16, b=f16, c=f32)
        asc.adv.register_matmul(pipe, workspace, mm, 3)
    elif which == 5:
        asc.adv.Matmul(a=f16, b=f16)


@pytest.mark.parametrize("which,match", [
    (0, "A is float16 but B is float32"),
    (1, "C of int32 is not supported for float16"),
    (2, "the tensor is float32 but the MatmulType says float16"),
    (3, "en_atomic must be 0, 1, 2 or 3"),
    (4, "'tiling' must be an asc.adv.TCubeTiling"),
    (5, "'c' must be an asc.adv.MatmulType"),
])
def test_errors_at_the_users_line(which: int, match: str) -> None:
    with pytest.raises(asc.CompileError, match=match):
        bad_kernel[1, None](np.zeros(16, np.float32), np.zeros(16, np.uint8), which)


@asc.jit
def unimplemented_kernel(a: asc.GlobalAddress):
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    mm.set_tensor_a(1.0)


def test_other_upstream_methods_are_not_implemented() -> None:
    # mmlocal: the scalar form is a CompileError naming the devkit's rule (test_matmul_local.py)
    with pytest.raises(asc.CompileError, match=r"set_tensor_a\(scalar\).*CubeFormat::SCALAR"):
        unimplemented_kernel[1, None](np.zeros(16, np.float32))


@asc.jit
def no_tiling_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(a_g)
    mm.iterate_all(c_g)


def test_a_matmul_without_a_tiling_is_a_kernel_error() -> None:
    with pytest.raises(asc.KernelError, match="Matmul: used before Init"):
        no_tiling_kernel[1, None](np.zeros(16, np.float16), np.zeros(16, np.float32))


def test_timing_charges_the_cube_work_to_the_calling_core() -> None:
    """Interim model: iterate_all runs on the scalar pipe of the vector core that calls it, costing the issue
    plus one cycle per 16 x 16 x 16 fractal product of its blocks (the call waits for the cube work)."""
    from asc.profiler.data import KINDS

    p = {name: value for name, value, _, _ in asc.profiler.timing_params("Ascend910B1")}
    m, n, k = 64, 64, 64
    a, b, _ = data(m, n, k)
    t = make_tiling(m, n, k)
    src = open(__file__).read().splitlines()
    with asc.profile() as prof:
        mm_all[1, None](a, b, np.zeros((m, n), np.float32), np.zeros(n, np.float32), t, np.zeros(64, np.uint8),
                        False, False, False)
    lp = prof.last
    durs = [int(x["end"]) - int(x["start"]) for blk in lp.blocks for x in blk.records
            if KINDS[x["kind"]] in ("op", "scalar") and "iterate_all" in src[lp.sites[x["site"]].line - 1]]
    fractals = (m // 16) * (n // 16) * (k // 16)
    assert max(durs) >= round(fractals / p["cube_fractals_per_cycle"]), durs


@asc.jit
def mm_atomic_org(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  workspace: asc.GlobalAddress, sub_m: int, sub_n: int, sub_k: int):
    """C (org_m x org_n) += the top-left sub_m x sub_n x sub_k product, twice (en_atomic=1: the store-atomic add),
    the original shape given by set_org_shape and the single shape by set_single_shape."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    if asc.get_block_idx() < tiling.used_core_num:
        mm.set_org_shape(tiling.m, tiling.n, tiling.k_a)
        mm.set_single_shape(sub_m, sub_n, sub_k)
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.iterate_all(c_g, en_atomic=1)
        mm.iterate_all(c_g, en_atomic=1)
        mm.end()


def test_atomic_add_org_and_single_shape() -> None:
    m, n, k = 64, 48, 32
    a, b, _ = data(m, n, k, 7)
    t = make_tiling(m, n, k)
    c = np.ones((m, n), np.float32)
    mm_atomic_org[1, None](a, b, c, t, np.zeros(64, np.uint8), 40, 24, 16)
    want = np.ones((m, n), np.float32)
    want[:40, :24] += 2 * ref(a[:40, :16], b[:16, :24])
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)
