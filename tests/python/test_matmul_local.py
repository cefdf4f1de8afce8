"""asc.adv.Matmul's operand forms beyond GM (family matmul, mmlocal), against NumPy: A, B and the bias from an L1
LocalTensor (the MatmulType at A1 / B1 / C1: the devkit's FROM_L1 copy-in, no GM -> L1 copy, the loads read the
kernel's tensor; A and B in NZ, plain and transposed, per input dtype), iterate(local_c_matrix=...) computing
each block into the kernel's CO1 tensor, which the kernel fixpipes out itself (with en_partial_sum adding to it),
what the sanitizer and the timing model see of them, the emitted Ascend C, and the errors (the scalar forms
of set_tensor_a / set_tensor_b, UB inputs, the devkit's CO1 rules)."""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc
import asc.lib.host as host

HD = {np.float16: host.DataType.DT_FLOAT16, np.float32: host.DataType.DT_FLOAT, np.int8: host.DataType.DT_INT8}
ACC = {np.float16: np.float32, np.float32: np.float32, np.int8: np.int32}


def make_tiling(m: int, n: int, k: int, ab: Any = np.float16, bias: bool = False,
                base: Any = (16, 16, 32)) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, HD[ab], False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, HD[ab], False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT32 if ab == np.int8 else
                  host.DataType.DT_FLOAT)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT32 if ab == np.int8 else
                     host.DataType.DT_FLOAT)
    mt.set_dim(1)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(bias)
    mt.set_fix_split(*base)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    return t


# ---- A, B and bias from L1 -----------------------------------------------------------------------------

@asc.jit(matmul_cube_only=True)
def l1_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
              tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, m: asc.ConstExpr[int], n: asc.ConstExpr[int],
              k: asc.ConstExpr[int], a_l1: asc.ConstExpr[bool], b_l1: asc.ConstExpr[bool],
              use_bias: asc.ConstExpr[int], trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool],
              synced: asc.ConstExpr[bool]):
    """C = A B (+ bias); A / B copied by the kernel into L1 as NZ when a_l1 / b_l1, the bias (use_bias 1: in
    GM, 2: copied into L1) a row; `synced`: the kernel waits for its copies (MTE2) before the Matmul's loads
    (MTE1) read them."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    es = a_g.dtype.sizeof()
    mm = asc.adv.Matmul(
        a=asc.adv.MatmulType(asc.TPosition.A1 if a_l1 else asc.TPosition.GM,
                             asc.CubeFormat.NZ if a_l1 else asc.CubeFormat.ND, a_g.dtype, trans_a),
        b=asc.adv.MatmulType(asc.TPosition.B1 if b_l1 else asc.TPosition.GM,
                             asc.CubeFormat.NZ if b_l1 else asc.CubeFormat.ND, b_g.dtype, trans_b),
        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype),
        bias=asc.adv.MatmulType(asc.TPosition.C1 if use_bias == 2 else asc.TPosition.GM, asc.CubeFormat.ND,
                                bias_g.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    ra, ca = (k, m) if trans_a else (m, k)
    rb, cb = (n, k) if trans_b else (k, n)
    if a_l1:
        qa = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(qa, 1, (ca * es + 31) // 32 * 32 * ((ra + 15) // 16 * 16))
        a1 = qa.alloc_tensor(a_g.dtype)
        asc.data_copy(a1, a_g, asc.Nd2NzParams(1, ra, ca, 0, ca, (ra + 15) // 16 * 16, 1, 1))
    if b_l1:
        qb = asc.TQue(asc.TPosition.B1, 1)
        pipe.init_buffer(qb, 1, (cb * es + 31) // 32 * 32 * ((rb + 15) // 16 * 16))
        b1 = qb.alloc_tensor(b_g.dtype)
        asc.data_copy(b1, b_g, asc.Nd2NzParams(1, rb, cb, 0, cb, (rb + 15) // 16 * 16, 1, 1))
    if use_bias == 2:
        qbias = asc.TQue(asc.TPosition.C1, 1)
        pipe.init_buffer(qbias, 1, (n * 4 + 31) // 32 * 32)
        bias1 = qbias.alloc_tensor(bias_g.dtype)
        asc.data_copy(bias1, bias_g, count=(n + 7) // 8 * 8)
    if synced:
        asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    if a_l1:
        mm.set_tensor_a(a1, trans_a)  # <- set_tensor_a
    else:
        mm.set_tensor_a(a_g, trans_a)
    if b_l1:
        mm.set_tensor_b(b1, trans_b)
    else:
        mm.set_tensor_b(b_g, trans_b)
    if use_bias == 1:
        mm.set_bias(bias_g)
    elif use_bias == 2:
        mm.set_bias(bias1)
    mm.iterate_all(c_g)  # <- the iterate_all line
    mm.end()


def operands(dtype: Any, m: int, n: int, k: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    lo, hi = (-8, 8) if dtype == np.int8 else (-4, 4)
    a = rng.integers(lo, hi, (m, k)).astype(dtype)
    b = rng.integers(lo, hi, (k, n)).astype(dtype)
    bias = rng.integers(-6, 6, n + 8).astype(ACC[dtype])
    return a, b, bias


# the compiler's automatic synchronisation would insert the wait the unsynced kernel leaves out
l1_kernel_manual = asc.jit(matmul_cube_only=True, auto_sync=False)(l1_kernel.fn)


def run_l1(dtype: Any, m: int, n: int, k: int, a_l1: bool, b_l1: bool, use_bias: int, trans_a: bool = False,
           trans_b: bool = False, synced: bool = True, base: Any = (16, 16, 32), seed: int = 0) -> Any:
    a, b, bias = operands(dtype, m, n, k, seed)
    t = make_tiling(m, n, k, dtype, use_bias > 0, base)
    c = np.zeros((m, n), ACC[dtype])
    (l1_kernel if synced else l1_kernel_manual)[1, None](np.ascontiguousarray(a.T) if trans_a else a, np.ascontiguousarray(b.T) if trans_b else b,
                       c, bias, t, np.zeros(64, np.uint8), m, n, k, a_l1, b_l1, use_bias, trans_a, trans_b, synced)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    if use_bias:
        ref = ref + bias[:n]
    return c, ref.astype(ACC[dtype])


@pytest.mark.parametrize("a_l1,b_l1,use_bias", [
    (True, False, 0), (False, True, 1), (True, True, 2), (False, False, 2), (True, True, 0)])
def test_inputs_from_l1(a_l1: bool, b_l1: bool, use_bias: int) -> None:
    c, ref = run_l1(np.float16, 40, 24, 72, a_l1, b_l1, use_bias, seed=1)  # tails in M, N and K
    np.testing.assert_array_equal(c, ref)


@pytest.mark.parametrize("dtype,base", [(np.float32, (16, 16, 16)), (np.int8, (32, 32, 64))])
def test_inputs_from_l1_per_dtype(dtype: Any, base: Any) -> None:
    c, ref = run_l1(dtype, 48, 40, 96, True, True, 2 if dtype == np.float32 else 1, base=base, seed=2)
    np.testing.assert_array_equal(c, ref)


@pytest.mark.parametrize("trans_a,trans_b", [(True, False), (False, True), (True, True)])
def test_transposed_inputs_from_l1(trans_a: bool, trans_b: bool) -> None:
    c, ref = run_l1(np.float16, 32, 48, 40, True, True, 1, trans_a, trans_b, seed=3)
    np.testing.assert_array_equal(c, ref)


def test_l1_inputs_are_not_copied_from_gm() -> None:
    """With A and B in L1 the Matmul's MTE2 issues only the bias copy; with both in GM one copy per tile."""
    m, n, k = 32, 32, 32
    counts = []
    for l1 in (False, True):
        a, b, bias = operands(np.float16, m, n, k, 4)
        t = make_tiling(m, n, k, np.float16, True, (32, 32, 32))
        c = np.zeros((m, n), np.float32)
        with asc.profile() as prof:
            l1_kernel[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), m, n, k, l1, l1, 1, False, False, True)
        np.testing.assert_array_equal(c, (a.astype(np.float32) @ b.astype(np.float32)) + bias[:n])
        counts.append(prof.last.blocks[0].instrs["MTE2"])
    # GM: A, B and the bias (3); L1: the kernel's own two Nd2Nz copies and the bias (3): the same count, but the
    # Matmul's own copies of A and B are gone
    assert counts[0] == 3 and counts[1] == 3, counts


def test_the_sanitizer_sees_the_loads_of_the_kernels_l1_tensor() -> None:
    """The kernel's copy into L1 (MTE2) and the Matmul's load of it (MTE1) race without the MTE2_MTE1 wait."""
    with pytest.raises(asc.SanitizerError) as info:
        run_l1(np.float16, 32, 32, 32, True, True, 0, synced=False)
    msg = str(info.value)
    assert "race" in msg and "L1->L0A load of A" in msg, msg


def test_an_l1_tensor_too_small_is_a_kernel_error() -> None:
    @asc.jit(matmul_cube_only=True)
    def small(a: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
        a_g = asc.GlobalTensor()
        a_g.set_global_buffer(a)
        c_g = asc.GlobalTensor()
        c_g.set_global_buffer(c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.A1, asc.CubeFormat.NZ, asc.float16),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        qa = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(qa, 1, 512)
        a1 = qa.alloc_tensor(asc.float16)
        mm.set_tensor_a(a1)
        mm.set_tensor_b(a_g)
        mm.iterate_all(c_g)
        mm.end()

    t = make_tiling(32, 32, 32, np.float16, False, (32, 32, 32))
    with pytest.raises(asc.KernelError, match="A in L1 holds 256 elements"):
        small[1, None](np.zeros(32 * 32, np.float16), np.zeros(32 * 32, np.float32), t, np.zeros(64, np.uint8))


# ---- iterate(local_c_matrix=...) --------------------------------------------------------------------------

@asc.jit(matmul_cube_only=True)
def l0c_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               ws: asc.GlobalAddress, n: asc.ConstExpr[int], mb: asc.ConstExpr[int], nb: asc.ConstExpr[int],
               bm: asc.ConstExpr[int], bn: asc.ConstExpr[int], acc: asc.ConstExpr, passes: asc.ConstExpr[int],
               order: asc.ConstExpr[int]):
    """Each block into the kernel's CO1 tensor, fixpipe'd by the kernel to its place in C (block i is (i % mb,
    i // mb) in ORDER_M, (i // nb, i % nb) in ORDER_N); passes 2: a second loop with en_partial_sum=True adds
    A B again (one block)."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.CO1, asc.CubeFormat.NZ, acc))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qc, 1, bm * bn * 4)
    co1 = qc.alloc_tensor(acc)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    fp = asc.FixpipeParamsV220(n_size=bn, m_size=bm, src_stride=bm, dst_stride=n)
    if passes == 1:
        with mm.iterate(local_c_matrix=co1) as count:  # <- iterate into CO1
            asc.set_flag(asc.HardEvent.M_FIX, 1)
            asc.wait_flag(asc.HardEvent.M_FIX, 1)
            if order == 0:
                asc.fixpipe(c_g[(count % mb) * bm * n + (count // mb) * bn:], co1, fp)
            else:
                asc.fixpipe(c_g[(count // nb) * bm * n + (count % nb) * bn:], co1, fp)
            asc.set_flag(asc.HardEvent.FIX_M, 1)
            asc.wait_flag(asc.HardEvent.FIX_M, 1)
    else:
        with mm.iterate(False, local_c_matrix=co1) as count:
            pass
        with mm.iterate(True, local_c_matrix=co1) as count:
            pass
        asc.set_flag(asc.HardEvent.M_FIX, 1)
        asc.wait_flag(asc.HardEvent.M_FIX, 1)
        asc.fixpipe(c_g, co1, fp)
    mm.end()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8])
def test_iterate_into_co1(dtype: Any) -> None:
    m, n, k = 32, 48, 64
    base = (16, 16, 32)
    a, b, _ = operands(dtype, m, n, k, 5)
    t = make_tiling(m, n, k, dtype, False, base)
    c = np.zeros((m, n), ACC[dtype])
    acc = asc.int32 if dtype == np.int8 else asc.float32
    l0c_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), n, m // 16, n // 16, 16, 16, acc, 1, t.iterate_order)
    np.testing.assert_array_equal(c, (a.astype(np.float64) @ b.astype(np.float64)).astype(ACC[dtype]))


def test_iterate_into_co1_with_partial_sum() -> None:
    m, n, k = 16, 16, 64
    a, b, _ = operands(np.float16, m, n, k, 6)
    t = make_tiling(m, n, k, np.float16, False, (16, 16, 32))
    c = np.zeros((m, n), np.float32)
    l0c_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), n, 1, 1, 16, 16, asc.float32, 2, 0)
    np.testing.assert_array_equal(c, 2 * (a.astype(np.float32) @ b.astype(np.float32)))


def test_partial_sum_needs_one_block() -> None:
    m, n, k = 32, 16, 32
    a, b, _ = operands(np.float16, m, n, k, 7)
    t = make_tiling(m, n, k, np.float16, False, (16, 16, 32))
    with pytest.raises(asc.KernelError, match="singleM == baseM"):
        l0c_kernel[1, None](a, b, np.zeros((m, n), np.float32), t, np.zeros(64, np.uint8), n, 2, 1, 16, 16,
                            asc.float32, 2, 0)


def test_the_kernels_fixpipe_races_with_the_next_block_without_its_wait() -> None:
    """The next Iterate's Mmads overwrite CO1: the kernel's Fixpipe (FIX) must finish first (FIX_M)."""
    @asc.jit(matmul_cube_only=True, auto_sync=False)
    def racy(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
             ws: asc.GlobalAddress):
        a_g = asc.GlobalTensor()
        a_g.set_global_buffer(a)
        b_g = asc.GlobalTensor()
        b_g.set_global_buffer(b)
        c_g = asc.GlobalTensor()
        c_g.set_global_buffer(c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            c=asc.adv.MatmulType(asc.TPosition.CO1, asc.CubeFormat.NZ, asc.float32))
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        qc = asc.TQue(asc.TPosition.CO1, 1)
        pipe.init_buffer(qc, 1, 16 * 16 * 4)
        co1 = qc.alloc_tensor(asc.float32)
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        fp = asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16)
        with mm.iterate(local_c_matrix=co1) as count:
            asc.fixpipe(c_g[count * 256:], co1, fp)
        mm.end()

    m, n, k = 32, 16, 32
    a, b, _ = operands(np.float16, m, n, k, 8)
    t = make_tiling(m, n, k, np.float16, False, (16, 16, 32))
    with pytest.raises(asc.SanitizerError, match="race"):
        racy[1, None](a, b, np.zeros(m * n, np.float32), t, np.zeros(64, np.uint8))


@asc.jit(matmul_cube_only=True)
def partial_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
                   tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, use_bias: asc.ConstExpr[bool]):
    """Iterate(enPartialSum) with the Matmul's own L0C: the second loop's block adds A B to the first's, which
    get_tensor_c then moves to C."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    if use_bias:
        mm.set_bias(bias_g)
    with mm.iterate() as _first:
        pass
    with mm.iterate(True) as _count:
        mm.get_tensor_c(c_g)
    mm.end()


@pytest.mark.parametrize("use_bias", [False, True])
def test_iterate_with_partial_sum(use_bias: bool) -> None:
    m, n, k = 16, 32, 64
    a, b, bias = operands(np.float16, m, n, k, 10)
    t = make_tiling(m, n, k, np.float16, use_bias, (16, 32, 32))
    c = np.zeros((m, n), np.float32)
    partial_kernel[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), use_bias)
    ab = a.astype(np.float32) @ b.astype(np.float32)
    # the bias starts the first block's sums; the partial block adds its products only
    np.testing.assert_array_equal(c, 2 * ab + (bias[:n] if use_bias else 0))


def test_iterate_with_partial_sum_needs_one_block() -> None:
    m, n, k = 32, 32, 32
    a, b, bias = operands(np.float16, m, n, k, 11)
    t = make_tiling(m, n, k, np.float16, False, (16, 32, 32))
    with pytest.raises(asc.KernelError, match="singleM == baseM"):
        partial_kernel[1, None](a, b, np.zeros((m, n), np.float32), bias, t, np.zeros(64, np.uint8), False)


# ---- iterate_batch with the BSNGD / SBNGD layouts -----------------------------------------------------------

@asc.jit(matmul_cube_only=True)
def layout_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  ws: asc.GlobalAddress, batch: asc.ConstExpr[int], lay: asc.ConstExpr, c_lay: asc.ConstExpr,
                  trans_b: asc.ConstExpr[bool]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, False, lay),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16, trans_b, lay),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32, False, c_lay))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g, trans_b)
    mm.iterate_batch(c_g, batch, batch, False)
    mm.end()


@pytest.mark.parametrize("lay,c_lay,trans_b", [("BSNGD", "BSNGD", False), ("SBNGD", "SBNGD", False),
                                               ("BSNGD", "NORMAL", True), ("SBNGD", "BSNGD", False)])
def test_iterate_batch_with_the_bsngd_and_sbngd_layouts(lay: str, c_lay: str, trans_b: bool) -> None:
    bdim, nn, g, m, k, n = 2, 2, 1, 16, 32, 24
    ng = nn * g
    batch = bdim * ng
    rng = np.random.default_rng(12)
    mats_a = rng.integers(-4, 4, (batch, m, k)).astype(np.float16)
    mats_b = rng.integers(-4, 4, (batch, k, n)).astype(np.float16)

    def pack(mats: np.ndarray, layout: str) -> np.ndarray:
        """Batch-major matrices as a BSNGD array (B, S, N*G, D), an SBNGD one (S, B*N*G, D) or NORMAL."""
        h, w = mats.shape[1:]
        if layout == "BSNGD":
            return mats.reshape(bdim, ng, h, w).transpose(0, 2, 1, 3).copy()
        if layout == "SBNGD":
            return mats.transpose(1, 0, 2).copy()
        return mats.copy()

    b_in = mats_b.transpose(0, 2, 1) if trans_b else mats_b
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, trans_b)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    mt.set_dim(1)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.set_fix_split(16, 16, 32)
    mt.set_batch_num(batch)
    mt.set_a_layout(bdim, m, nn, g, k)
    mt.set_b_layout(bdim, *((n, nn, g, k) if trans_b else (k, nn, g, n)))  # (B stored N x K: S N, D K)
    mt.set_c_layout(bdim, m, nn, g, n)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    c = np.zeros(batch * m * n, np.float32)
    layout_kernel[1, None](pack(mats_a, lay), pack(np.ascontiguousarray(b_in), lay), c, t, np.zeros(64, np.uint8),
                           batch, getattr(asc.LayoutMode, lay), getattr(asc.LayoutMode, c_lay), trans_b)
    ref = mats_a.astype(np.float32) @ mats_b.astype(np.float32)
    np.testing.assert_array_equal(c.reshape(-1), pack(ref, c_lay).reshape(-1))


def test_a_bsngd_c_cannot_be_written_sequentially() -> None:
    @asc.jit(matmul_cube_only=True)
    def seq(a: asc.GlobalAddress, ws: asc.GlobalAddress, tiling: asc.adv.TCubeTiling):
        a_g = asc.GlobalTensor()
        a_g.set_global_buffer(a)
        pipe = asc.TPipe()
        bs = asc.LayoutMode.BSNGD
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32, False, bs),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32, False, bs),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32, False, bs))
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        mm.iterate_batch(a_g, 2, 2, True)

    with pytest.raises(asc.CompileError, match="cannot be written with en_sequential_write=True"):
        seq[1, None](np.zeros(64, np.float32), np.zeros(64, np.uint8), make_tiling(32, 32, 32))


# ---- the emitted Ascend C ---------------------------------------------------------------------------------

def test_the_ascend_c() -> None:
    m, n, k = 32, 32, 32
    a, b, bias = operands(np.float16, m, n, k, 9)
    t = make_tiling(m, n, k, np.float16, True, (32, 32, 32))
    c = np.zeros((m, n), np.float32)
    l1_kernel[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), m, n, k, True, True, 2, False, False, True)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32) + bias[:n])
    src = ascendc(l1_kernel)
    assert "AscendC::MatmulType<AscendC::TPosition::A1, CubeFormat::NZ, half, false" in src, src
    assert "AscendC::MatmulType<AscendC::TPosition::C1, CubeFormat::ND, float" in src, src
    for frag in (".SetTensorA(a1", ".SetTensorB(b1", ".SetBias(bias1"):
        assert frag in src.replace("_0", "").replace("_1", ""), (frag, src)
    l0c_kernel[1, None](a, b, np.zeros((m, n), np.float32), t, np.zeros(64, np.uint8), n, 1, 1, 32, 32,
                        asc.float32, 1, 0)
    src = ascendc(l0c_kernel)
    assert ".Iterate(false, co1" in src.replace("_0", ""), src
    assert "AscendC::MatmulType<AscendC::TPosition::CO1, CubeFormat::NZ, float" in src, src


# ---- errors ------------------------------------------------------------------------------------------------

def compile_error(tmp_path: Any, body: str, a_pos: str = "GM", a_fmt: str = "ND", dtype: str = "float16",
                  c: str = "asc.TPosition.GM, asc.CubeFormat.ND, asc.float32", bias: str = "None") -> str:
    import importlib.util
    code = f"""import asc


@asc.jit(matmul_cube_only=True)
def kern(x: asc.GlobalAddress, ws: asc.GlobalAddress, tiling: asc.adv.TCubeTiling):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.{a_pos}, asc.CubeFormat.{a_fmt}, asc.{dtype}),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.{dtype}),
                        c=asc.adv.MatmulType({c}), bias={bias})
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    q1 = asc.TQue(asc.TPosition.A1, 1)
    pipe.init_buffer(q1, 1, 1024)
    l1 = q1.alloc_tensor(asc.{dtype})
    qv = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(qv, 1, 1024)
    ub = qv.alloc_tensor(asc.{dtype})
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qc, 1, 1024)
    co1 = qc.alloc_tensor(asc.float32)
    co1h = qc.alloc_tensor(asc.float16)
    {body}
"""
    path = tmp_path / "kern_mod.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("kern_mod", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ns = vars(mod)
    t = make_tiling(32, 32, 32)
    with pytest.raises((asc.CompileError, NotImplementedError)) as info:
        ns["kern"][1, None](np.zeros(64, np.float16 if dtype == "float16" else np.float32), np.zeros(64, np.uint8),
                            t)
    return f"{type(info.value).__name__}: {info.value}"


@pytest.mark.parametrize("body,kw,expect", [
    ("mm.set_tensor_a(2.0)", {}, "CompileError: .*CubeFormat::SCALAR"),
    ("mm.set_tensor_a(2)", {"dtype": "int8", "c": "asc.TPosition.GM, asc.CubeFormat.ND, asc.int32"},
     "CompileError: .*float16 or float32"),
    ("mm.set_tensor_b(1.0)", {}, "CompileError: .*does not allow a scalar B"),
    ("mm.set_tensor_a(l1)", {}, "CompileError: .*MatmulType at an L1 position"),
    ("mm.set_tensor_a(ub)", {"a_pos": "A1", "a_fmt": "NZ"}, "CompileError: .*tensor is at TPosition.VECIN"),
    ("mm.set_tensor_a(ub)", {"a_pos": "VECIN"}, "(NotImplementedError|UnsupportedError): .*in the UB"),
    ("mm.set_tensor_a(l1)", {"a_pos": "A1", "a_fmt": "ND"}, "(NotImplementedError|UnsupportedError): .*CubeFormat.ND"),
    ("mm.set_bias(l1)", {}, "CompileError: .*MatmulType at an L1 position"),
    ("with mm.iterate(local_c_matrix=co1) as i:\n        pass", {}, "CompileError: .*TPosition.CO1, CubeFormat.NZ"),
    ("with mm.iterate(local_c_matrix=co1h) as i:\n        pass", {"c": "asc.TPosition.CO1, asc.CubeFormat.NZ, "
     "asc.float32"}, "CompileError: .*'local_c_matrix' of float16"),
    ("with mm.iterate(local_c_matrix=l1) as i:\n        pass", {}, "CompileError: .*must be at TPosition.CO1"),
    ("with mm.iterate(local_c_matrix=g) as i:\n        pass", {}, "CompileError: .*must be a LocalTensor"),
    ("with mm.iterate(sync=False, local_c_matrix=co1) as i:\n        pass",
     {"c": "asc.TPosition.CO1, asc.CubeFormat.NZ, asc.float32"}, r"Error: .*Matmul.iterate\(sync=False, local_c_matrix=...\) is not implemented"),
])
def test_errors(tmp_path: Any, body: str, kw: dict, expect: str) -> None:
    import re
    msg = compile_error(tmp_path, body, **kw)
    assert re.search(expect, msg), msg


def test_an_l1_input_on_a_mix_kernel_is_a_kernel_error() -> None:
    @asc.jit
    def mix(a: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
        a_g = asc.GlobalTensor()
        a_g.set_global_buffer(a)
        c_g = asc.GlobalTensor()
        c_g.set_global_buffer(c)
        pipe = asc.TPipe()
        mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.A1, asc.CubeFormat.NZ, asc.float16),
                            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16),
                            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32))
        asc.adv.register_matmul(pipe, ws, mm, tiling)
        qa = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(qa, 1, 2048)
        a1 = qa.alloc_tensor(asc.float16)
        mm.set_tensor_a(a1)
        mm.set_tensor_b(a_g)
        mm.iterate_all(c_g)
        mm.end()

    t = make_tiling(32, 32, 32, np.float16, False, (32, 32, 32))
    with pytest.raises(asc.KernelError, match="needs an AIC_ONLY kernel"):
        mix[1, None](np.zeros(32 * 32, np.float16), np.zeros(32 * 32, np.float32), t, np.zeros(64, np.uint8))
