"""asc.adv.Matmul's methods beyond the basic ones (family matmul, mmapi), against NumPy: iterate_batch (both
forms, batch_a != batch_b, bias per batch, into GM and the UB, asynchronous), iterate_n_batch with
get_batch_tensor_c, the quantisation (set_quant_scalar / set_quant_vector: DEQF16, REQ8, QF322B8_PRE with
rounding, offsets and saturation), the asynchronous forms (iterate / iterate_all / get_tensor_c with
sync=False, async_get_tensor_c, the Wait* methods), get_tensor_c into GM and the UB at once, iterate_all into
the UB, get_offset_c, the state setters, the emitted Ascend C, and the errors."""

import struct
from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc

import asc
import asc.lib.host as host

F16, F32, I8 = host.DataType.DT_FLOAT16, host.DataType.DT_FLOAT, host.DataType.DT_INT8
HD = {np.float16: F16, np.float32: F32, np.int8: I8, np.int32: host.DataType.DT_INT32}


def make_tiling(m: int, n: int, k: int, ab: Any = F16, c: Any = F32, bias: bool = False, batch: int = 0,
                base: Any = None) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, ab, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, ab, False)
    mt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, c)
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, F32)
    mt.set_dim(1)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(bias)
    if base:
        mt.set_fix_split(*base)
    if batch:
        mt.set_batch_num(batch)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    return t


# ---- iterate_batch ------------------------------------------------------------------------------------

@asc.jit
def batch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, batch_a: asc.ConstExpr[int],
                 batch_b: asc.ConstExpr[int], use_bias: asc.ConstExpr[bool], form: asc.ConstExpr[int],
                 bias_batch: asc.ConstExpr[bool]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    cfg = asc.adv.MatmulConfig(is_bias_batch=bias_batch)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, asc.LayoutMode.NORMAL), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, asc.LayoutMode.NORMAL),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NORMAL), bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype, False, asc.LayoutMode.NONE), matmul_config=cfg)
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        if use_bias:
            mm.set_bias(bias_g)
        if form == 0:
            mm.iterate_batch(c_g, batch_a, batch_b, False)
        elif form == 1:  # the cube-only form after set_batch_num
            mm.set_batch_num(batch_a, batch_b)
            mm.iterate_batch(c_g, False, 0, False)
        elif form == 2:  # asynchronous, waited for
            mm.iterate_batch(c_g, batch_a, batch_b, False, sync=False, wait_iterate_batch=True)
            mm.wait_iterate_batch()
        else:  # into the UB, then to GM
            que = asc.TQue(asc.TPosition.VECOUT, 1)
            size = max(batch_a, batch_b) * tiling.single_core_m * tiling.single_core_n
            pipe.init_buffer(que=que, num=1, len=size * 4)
            out = que.alloc_tensor(asc.float32)
            mm.iterate_batch(out, batch_a, batch_b, True)
            que.enque(out)
            out = que.deque(asc.float32)
            asc.data_copy(c_g, out, count=size)
            que.free_tensor(out)
        mm.end()


def batch_ref(a: np.ndarray, b: np.ndarray, ba: int, bb: int, bias: Any = None, bias_batch: bool = True) -> Any:
    batch = max(ba, bb)
    out = []
    for i in range(batch):
        c = a[i // (batch // ba)].astype(np.float32) @ b[i // (batch // bb)].astype(np.float32)
        if bias is not None:
            c = c + (bias[i] if bias_batch else bias[0])
        out.append(c)
    return np.stack(out)


@pytest.mark.parametrize("ba,bb,use_bias,form,bias_batch", [
    (2, 2, False, 0, True),
    (2, 4, True, 0, True),   # A broadcast: batch i takes A i // 2
    (3, 1, True, 0, False),  # B broadcast, one bias for every batch
    (1, 2, True, 2, True),   # asynchronous
    (2, 2, True, 3, True),   # into the UB
])
def test_iterate_batch(ba: int, bb: int, use_bias: bool, form: int, bias_batch: bool) -> None:
    m, n, k = 40, 24, 40  # not multiples of the base blocks
    rng = np.random.default_rng(ba * 10 + bb + form)
    a = rng.integers(-4, 4, (ba, m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (bb, k, n)).astype(np.float16)
    batch = max(ba, bb)
    bias = rng.integers(-4, 4, (batch, n)).astype(np.float32)
    t = make_tiling(m, n, k, bias=use_bias, batch=batch, base=(16, 16, 16))
    c = np.zeros((batch, m, n), np.float32)
    batch_kernel[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), ba, bb, use_bias, form, bias_batch)
    np.testing.assert_allclose(c, batch_ref(a, b, ba, bb, bias if use_bias else None, bias_batch), atol=1e-3)


@asc.jit(matmul_cube_only=True)
def cube_batch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                      ws: asc.GlobalAddress, ba: asc.ConstExpr[int], bb: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    lay = asc.LayoutMode.NORMAL
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, lay),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, lay))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    if ba > 0:
        mm.set_batch_num(ba, bb)
    mm.iterate_batch(c_g, False, 0, False)
    mm.end()


@pytest.mark.parametrize("ba,bb", [(3, 1), (2, 4), (2, 3), (0, 0)])
def test_batch_matmul_tiling_on_a_cube_only_kernel(ba: int, bb: int) -> None:
    # asc.lib.host.BatchMatmulTiling with the NORMAL layout's batch info, the cube-only form on an AIC_ONLY kernel
    m, n, k = 30, 20, 50
    bt = host.BatchMatmulTiling(host.get_ascendc_platform())
    bt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, F16, False)
    bt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, F16, False)
    bt.set_c_type(host.TPosition.GM, host.CubeFormat.ND, F32)
    bt.set_org_shape(m, n, k)
    bt.set_shape(m, n, k)
    bt.set_batch_info_for_normal(max(ba, 1), max(bb, 1), m, n, k)
    bt.set_batch_num(max(ba, bb, 1))
    t = asc.adv.TCubeTiling()
    assert bt.get_tiling(t) == 0 and (t.single_core_m, t.single_core_n) == (m, n)
    rng = np.random.default_rng(9)
    a = rng.integers(-4, 4, (max(ba, 1), m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (max(bb, 1), k, n)).astype(np.float16)
    if ba == 0:  # no set_batch_num
        with pytest.raises(asc.KernelError, match="set_batch_num first"):
            cube_batch_kernel[1, None](a, b, np.zeros(64, np.float32), t, np.zeros(64, np.uint8), 0, 0)
        return
    c = np.zeros((max(ba, bb), m, n), np.float32)
    if ba % bb and bb % ba:
        with pytest.raises(asc.KernelError, match="one a multiple of the other"):
            cube_batch_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), ba, bb)
        return
    cube_batch_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), ba, bb)
    assert list(cube_batch_kernel.cache.values())[-1].kernel_type == asc.KernelType.AIC_ONLY
    np.testing.assert_allclose(c, batch_ref(a, b, ba, bb), atol=1e-3)


@asc.jit
def nbatch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  ws: asc.GlobalAddress, user_ws: asc.GlobalAddress, loops: asc.ConstExpr[int],
                  ba: asc.ConstExpr[int], bb: asc.ConstExpr[int], sync: asc.ConstExpr[bool]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    w_g = asc.GlobalTensor()
    w_g.set_global_buffer(user_ws)
    pipe = asc.TPipe()
    lay = asc.LayoutMode.BNGS1S2
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, lay), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, lay),
                        matmul_config=asc.adv.get_normal_config(batch_loop=True))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_workspace(w_g)
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.iterate_n_batch(loops, ba, bb, False, sync=sync, wait_iterate_batch=not sync)
        if not sync:
            mm.wait_iterate_batch()
        size = max(ba, bb) * tiling.single_core_m * tiling.single_core_n
        que = asc.TQue(asc.TPosition.VECIN, 1)
        pipe.init_buffer(que=que, num=1, len=size * 4)
        for i in range(loops):
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)  # the previous copy out is done
            out = que.alloc_tensor(asc.float32)
            if i % 2 == 0:  # the LocalTensor form
                mm.get_batch_tensor_c(out, ba, bb)
            else:  # the GlobalTensor form: a view of the workspace
                res = mm.get_batch_tensor_c(ba, bb)
                asc.data_copy(out, res, count=size)
                asc.pipe_barrier(asc.PipeID.PIPE_ALL)
            que.enque(out)
            out = que.deque(asc.float32)
            asc.data_copy(c_g[i * size:], out, count=size)
            que.free_tensor(out)
        mm.end()


@pytest.mark.parametrize("sync", [True, False])
def test_iterate_n_batch(sync: bool) -> None:
    m, n, k, loops, ba, bb = 16, 24, 32, 3, 2, 1
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 4, (loops * ba, m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (loops * bb, k, n)).astype(np.float16)
    t = make_tiling(m, n, k, batch=2)
    c = np.zeros((loops * 2, m, n), np.float32)
    user_ws = np.zeros(loops * 2 * m * n * 4, np.uint8)
    nbatch_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), user_ws, loops, ba, bb, sync)
    want = np.concatenate([batch_ref(a[i * ba:(i + 1) * ba], b[i * bb:(i + 1) * bb], ba, bb) for i in range(loops)])
    np.testing.assert_allclose(c, want, atol=1e-3)
    np.testing.assert_allclose(user_ws.view(np.float32).reshape(c.shape), want, atol=1e-3)


# ---- quantisation -------------------------------------------------------------------------------------

def qword(scale: float, offset: int = 0, signed: bool = True) -> int:
    bits = struct.unpack("<I", struct.pack("<f", scale))[0]
    return bits | ((offset & 0x1FF) << 37) | (int(signed) << 46)


def q_ref(v: np.ndarray, words: np.ndarray, out: Any) -> np.ndarray:
    """The fixpipe's conversion (docs/zh/api/.../随路量化.md, the devkit's gen_data scripts), per column."""
    res = np.zeros(v.shape, out)
    for j in range(v.shape[1]):
        w = int(words[j])
        m1 = np.float32(struct.unpack("<f", struct.pack("<I", w & 0xFFFFE000))[0])
        off = (w >> 37) & 0x1FF
        off = off - 512 if off >= 256 else off
        f = v[:, j].astype(np.float32) * m1
        if out == np.float16:
            res[:, j] = np.clip(f, -65504, 65504).astype(np.float16)
        else:
            q = np.round(np.clip(f, -256, 255)) + off
            res[:, j] = (np.clip(q, -128, 127) if (w >> 46) & 1 else np.clip(q, 0, 255)).astype(np.int64).astype(
                np.uint8).view(np.int8)
    return res


@asc.jit
def quant_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, q: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, scalar: asc.ConstExpr[int],
                 vector: asc.ConstExpr[bool]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    q_g = asc.GlobalTensor()
    q_g.set_global_buffer(q)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, asc.LayoutMode.NONE), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, asc.LayoutMode.NONE), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NONE))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        if vector:
            mm.set_quant_vector(q_g)
        elif scalar >= 0:  # (-1: none)
            mm.set_quant_scalar(scalar)
        with mm.iterate():
            mm.get_tensor_c(c_g)
        mm.end()


@pytest.mark.parametrize("ab,cdt,vector,scale,offset,signed", [
    (np.int8, np.float16, False, 0.1, 0, True),      # DEQF16: the scale's mantissa cut to 10 bits
    (np.int8, np.float16, False, 3000.0, 0, True),   # saturates at 65504
    (np.int8, np.float16, True, None, 0, True),      # VDEQF16
    (np.int8, np.int8, False, 0.37, 5, True),        # REQ8 with an offset, signed saturation
    (np.int8, np.int8, False, 0.6, -3, False),       # unsigned result (stored as its byte)
    (np.int8, np.int8, True, None, 7, True),         # VREQ8
    (np.float16, np.int8, False, 2.5, 0, True),      # QF322B8_PRE: ties to even (x.5), saturation
    (np.float16, np.int8, True, None, -2, True),     # VQF322B8_PRE
])
def test_quant(ab: Any, cdt: Any, vector: bool, scale: Any, offset: int, signed: bool) -> None:
    m, n, k = 40, 48, 64
    rng = np.random.default_rng(11)
    a = rng.integers(-6, 6, (m, k)).astype(ab)
    b = rng.integers(-6, 6, (k, n)).astype(ab)
    if vector:
        scales = rng.uniform(-0.9, 0.9, n).astype(np.float32)
        words = np.array([qword(float(s), offset, signed) for s in scales], np.uint64)
    else:
        words = np.full(n, qword(scale, offset, signed), np.uint64)
    t = make_tiling(m, n, k, ab=HD[ab], c=HD[cdt], base=(16, 32, 32))
    c = np.zeros((m, n), cdt)
    quant_kernel[1, None](a, b, c, words, t, np.zeros(64, np.uint8), int(words[0]), vector)
    acc = a.astype(np.int64) @ b.astype(np.int64)
    want = q_ref(acc, words, cdt)
    np.testing.assert_array_equal(c, want)
    if cdt == np.int8 and not vector and signed:  # the edge cases are reached: saturated values
        assert (np.abs(want.astype(int)) >= 127).any()


@asc.jit(matmul_cube_only=True)
def quant_l1_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, q: asc.GlobalAddress,
                    tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, n: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    q_g = asc.GlobalTensor()
    q_g.set_global_buffer(q)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    # the scales' L1 buffer from the pipe before the Matmul's own (which Init takes from the pipe after it)
    q_buf = asc.TBuf(asc.TPosition.C1)
    pipe.init_buffer(q_buf, n * 8)
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    q_l1 = q_buf.get(asc.uint64)
    asc.data_copy(q_l1, q_g, n)  # the scales into L1
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.set_quant_vector(q_l1)
    mm.iterate_all(c_g)
    mm.end()


def test_quant_vector_in_l1() -> None:
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(12)
    a = rng.integers(-6, 6, (m, k)).astype(np.int8)
    b = rng.integers(-6, 6, (k, n)).astype(np.int8)
    words = np.array([qword(float(s), 3) for s in rng.uniform(-0.9, 0.9, n)], np.uint64)
    t = make_tiling(m, n, k, ab=I8, c=I8, base=(16, 16, 32))
    c = np.zeros((m, n), np.int8)
    quant_l1_kernel[1, None](a, b, c, words, t, np.zeros(64, np.uint8), n)
    np.testing.assert_array_equal(c, q_ref(a.astype(np.int64) @ b.astype(np.int64), words, np.int8))
    assert "SetQuantVector(q_l1)" in ascendc(quant_l1_kernel)


@pytest.mark.parametrize("ab,cdt", [(np.int8, np.float16), (np.int8, np.int8), (np.float16, np.int8)])
def test_quantised_c_needs_a_quantisation(ab: Any, cdt: Any) -> None:
    t = make_tiling(16, 16, 32, ab=HD[ab], c=HD[cdt])
    with pytest.raises(asc.KernelError, match="set_quant_scalar or set_quant_vector before"):
        quant_kernel[1, None](np.ones((16, 32), ab), np.ones((32, 16), ab), np.zeros((16, 16), cdt),
                              np.zeros(16, np.uint64), t, np.zeros(64, np.uint8), -1, False)


def test_quant_rounding_ties_to_even() -> None:
    # 0.5 * odd integers: exact ties, rounded to even by the fixpipe's int8 conversion
    a = np.zeros((16, 32), np.int8)
    b = np.zeros((32, 16), np.int8)
    a[:, 0] = np.arange(16) - 8
    b[0, :] = 1
    t = make_tiling(16, 16, 32, ab=I8, c=I8)
    c = np.zeros((16, 16), np.int8)
    w = qword(0.5)
    quant_kernel[1, None](a, b, c, np.zeros(16, np.uint64), t, np.zeros(64, np.uint8), w, False)
    np.testing.assert_array_equal(c[:, 0], np.round((np.arange(16) - 8) * 0.5).astype(np.int8))
    assert c[1, 0] == -4 and c[3, 0] == -2 and c[11, 0] == 2  # -3.5 -> -4, -2.5 -> -2, 1.5 -> 2


# ---- the asynchronous forms -----------------------------------------------------------------------------

@asc.jit
def async_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
                 tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, user_ws: asc.GlobalAddress,
                 form: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    w_g = asc.GlobalTensor()
    w_g.set_global_buffer(user_ws)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, asc.LayoutMode.NONE), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, asc.LayoutMode.NONE), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NONE), bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype, False, asc.LayoutMode.NONE))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=tiling.base_m * tiling.base_n * 4)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.set_bias(bias_g)
        mm.set_workspace(w_g)
        if form == 0:
            mm.iterate_all(c_g, sync=False, wait_iterate_all=True)
            mm.wait_iterate_all()
        elif form == 1:  # get_tensor_c(gm, sync=False) at each block's place
            with mm.iterate(sync=False):
                mm.get_tensor_c(c_g, sync=False)
        else:  # the workspace forms: the block as a GlobalTensor, or copied into the UB
            m_blocks = tiling.single_core_m.ceildiv(tiling.base_m)
            with mm.iterate(sync=False) as count:
                asc.pipe_barrier(asc.PipeID.PIPE_ALL)  # the previous block's copy out is done
                out = que.alloc_tensor(asc.float32)
                if form == 2:
                    blk = mm.get_tensor_c()
                    asc.data_copy(out, blk, count=tiling.base_m * tiling.base_n)
                    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
                else:
                    mm.async_get_tensor_c(out)
                    mm.wait_get_tensor_c()
                que.enque(out)
                out = que.deque(asc.float32)
                start = count % m_blocks * tiling.base_m * tiling.n + count // m_blocks * tiling.base_n
                params = asc.DataCopyParams(block_count=tiling.base_m, block_len=tiling.base_n * 4 // 32,
                                            src_stride=0, dst_stride=(tiling.n - tiling.base_n) * 4 // 32)
                asc.data_copy(c_g[start:], out, repeat_params=params)
                que.free_tensor(out)
        mm.end()


@pytest.mark.parametrize("form", [0, 1, 2, 3])
def test_async_forms(form: int) -> None:
    m, n, k = 64, 64, 40
    rng = np.random.default_rng(form)
    a = rng.integers(-4, 4, (m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (k, n)).astype(np.float16)
    bias = rng.integers(-4, 4, n).astype(np.float32)
    t = make_tiling(m, n, k, bias=True, base=(32, 32, 32) if form < 2 else (32, 32, 16))
    c = np.zeros((m, n), np.float32)
    user_ws = np.zeros(4 * 32 * 32 * 4, np.uint8)
    async_kernel[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), user_ws, form)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias, atol=1e-3)
    if form == 2:  # the blocks went through the workspace, one after another in iterate order
        blocks = user_ws.view(np.float32).reshape(4, 32, 32)
        np.testing.assert_allclose(blocks[1], (a.astype(np.float32) @ b.astype(np.float32) + bias)[32:, :32])


@asc.jit
def both_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, c2: asc.GlobalAddress,
                tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, form: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    c2_g = asc.GlobalTensor()
    c2_g.set_global_buffer(c2)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, asc.LayoutMode.NONE), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, asc.LayoutMode.NONE), c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NONE))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=tiling.single_core_m * tiling.single_core_n * 4)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        out = que.alloc_tensor(asc.float32)
        if form == 0:  # iterate_all into the UB: singleM x singleN row-major
            mm.iterate_all(out)
            size = tiling.single_core_m * tiling.single_core_n
        else:  # one block (the whole C here) into GM and the UB at once
            with mm.iterate():
                mm.get_tensor_c(c_g, optional_tensor=out)
            size = tiling.base_m * tiling.base_n
        que.enque(out)
        out = que.deque(asc.float32)
        asc.data_copy(c2_g, out, count=size)
        que.free_tensor(out)
        mm.end()


@pytest.mark.parametrize("form", [0, 1])
def test_ub_forms(form: int) -> None:
    m, n, k = 32, 32, 48
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 4, (m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (k, n)).astype(np.float16)
    t = make_tiling(m, n, k, base=(32, 32, 16))
    c = np.zeros((m, n), np.float32)
    c2 = np.zeros((m, n), np.float32)
    both_kernel[1, None](a, b, c, c2, t, np.zeros(64, np.uint8), form)
    want = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c2, want, atol=1e-3)
    if form == 1:
        np.testing.assert_allclose(c, want, atol=1e-3)


# ---- get_offset_c and the setters that only keep state -------------------------------------------------

@asc.jit
def state_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, out: asc.GlobalAddress,
                 idx: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    o_g = asc.GlobalTensor()
    o_g.set_global_buffer(out)
    i_g = asc.GlobalTensor()
    i_g.set_global_buffer(idx)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, asc.LayoutMode.NONE), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, False, asc.LayoutMode.NONE), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NONE))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_self_define_data(7)
        mm.set_self_define_data(out)
        mm.set_user_def_info(out)
        mm.set_sparse_index(i_g)
        mm.set_workspace(ws, 64)
        mm.set_hf32(False, 0)
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        mm.iterate_all(c_g)
        off = mm.get_offset_c()
        o_g.set_value(0, off.offset + 1)
        o_g.set_value(1, off.row + off.col + off.height + off.width + 2)
        mm.end()


def test_state_setters_and_offset_c() -> None:
    m, n, k = 32, 16, 32
    rng = np.random.default_rng(2)
    a = rng.integers(-4, 4, (m, k)).astype(np.float16)
    b = rng.integers(-4, 4, (k, n)).astype(np.float16)
    t = make_tiling(m, n, k)
    c = np.zeros((m, n), np.float32)
    out = np.zeros(8, np.int32)
    state_kernel[1, None](a, b, c, out, np.zeros(32, np.uint8), t, np.zeros(64, np.uint8))
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), atol=1e-3)
    assert list(out[:2]) == [1, 2]  # the devkit's reserved GetOffsetC<false>() is all zeros
    src = ascendc(state_kernel)
    for s in ("SetSelfDefineData(static_cast<uint64_t>(7", "SetSelfDefineData(reinterpret_cast<uint64_t>(", "SetUserDefInfo(reinterpret_cast<",
              "SetSparseIndex(", "SetWorkspace(", "SetHF32(", "GetOffsetC<false>()"):
        assert s in src, s


def test_emitted_ascend_c() -> None:
    src = ascendc(batch_kernel)  # the UB form was compiled last
    assert "IterateBatch<true>(" in src
    batch_kernel[1, None](np.zeros((1, 16, 16), np.float16), np.zeros((2, 16, 16), np.float16),
                          np.zeros((2, 16, 16), np.float32), np.zeros((2, 16), np.float32),
                          make_tiling(16, 16, 16, batch=2), np.zeros(64, np.uint8), 1, 2, False, 2, True)
    assert "IterateBatch<false, true>(" in ascendc(batch_kernel) and "WaitIterateBatch()" in ascendc(batch_kernel)
    src = ascendc(nbatch_kernel)
    assert "IterateNBatch<" in src and "GetBatchTensorC<true>(" in src
    src = ascendc(async_kernel)
    assert "Iterate<false>(" in src
    src = ascendc(quant_kernel)
    assert "SetQuant" in src


# ---- errors -------------------------------------------------------------------------------------------

@asc.jit
def bad_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, q: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               ws: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    q_g = asc.GlobalTensor()
    q_g.set_global_buffer(q)
    pipe = asc.TPipe()
    cfg = asc.adv.MatmulConfig()
    lay = asc.LayoutMode.NONE
    if which >= 9:
        lay = asc.LayoutMode.NORMAL
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, asc.LayoutMode.NONE), matmul_config=cfg)
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(a_g)
    if which == 0:
        mm.set_quant_scalar(1)  # float16 -> float32: no quantisation
    elif which == 1 or which == 11:
        mm2 = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8),
                             b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.int8),
                             c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16))
        if which == 1:
            mm2.set_quant_vector(c_g)  # float32, not uint64
        else:
            tb = asc.TBuf(asc.TPosition.VECCALC)
            pipe.init_buffer(tb, 128)
            mm2.set_quant_vector(tb.get(asc.uint64))  # not in L1
    elif which == 2:
        mm.iterate_batch(c_g, 1, 1, False)  # no batch layout
    elif which == 3:
        mm.iterate_all(c_g, sync=asc.get_block_idx() == 0)
    elif which == 4:
        mm.set_sparse_index(a_g)
    elif which == 5:
        mm.set_workspace(ws)
    elif which == 6:
        mm.set_hf32(True, 2)
    elif which == 7:
        mm.iterate_n_batch(1, 1, 1, False)
    elif which == 8:
        mm.get_batch_tensor_c(1, 1)
    elif which == 9:
        mm.iterate_batch(c_g, 1, 1, False, sync=False, wait_iterate_batch=None, en_atomic=0, en_partial_sum=False,
                         matrix_stride_a=0, bogus=1)
    elif which == 10:
        mm.iterate_batch(c_g, 1, 1, False, wait_iterate_batch=True)


@pytest.mark.parametrize("which,match", [
    (0, "no quantisation converts float16 inputs to a float32 C"),
    (1, "must hold uint64, got float32"),
    (11, "lies in L1"),
    (2, "need a batch layout"),
    (3, "template argument"),
    (4, "uint8"),
    (5, "needs its size"),
    (6, "trans_mode must be 0"),
    (7, "NONE or NORMAL layout"),
    (8, "is_n_batch=True"),
    (9, "unexpected argument 'bogus'"),
    (10, "for the asynchronous form"),
])
def test_compile_errors_at_the_users_line(which: int, match: str) -> None:
    t = make_tiling(16, 16, 16)
    with pytest.raises(asc.CompileError, match=match) as e:
        bad_kernel[1, None](np.zeros(256, np.float16), np.zeros(256, np.float32), np.zeros(16, np.float32), t,
                            np.zeros(64, np.uint8), which)
    assert "test_matmul_api.py" in str(e.value)


@asc.jit
def misuse_kernel(a: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress,
                  which: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    lay = asc.LayoutMode.BNGS1S2
    if which == 4:
        lay = asc.LayoutMode.NORMAL
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay), b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, False, lay), c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype, False, lay),
                        matmul_config=asc.adv.get_normal_config(batch_loop=True))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(a_g)
        if which != 2:
            mm.set_workspace(ws, 64)
        if which == 0:
            mm.wait_iterate_all()  # no asynchronous iterate_all to wait for
        elif which == 1:
            with mm.iterate():
                mm.get_tensor_c()  # the workspace form after a synchronous iterate
        elif which == 2:
            with mm.iterate(sync=False):
                que = asc.TQue(asc.TPosition.VECOUT, 1)
                pipe.init_buffer(que=que, num=1, len=1024)
                mm.async_get_tensor_c(que.alloc_tensor(asc.float32))  # no set_workspace
        elif which == 3:
            mm.get_batch_tensor_c(1, 1)  # no iterate_n_batch
        elif which == 4:
            mm.iterate_batch(c_g, False, 0, False)  # the cube-only form without set_batch_num
        elif which == 5:
            mm.wait_iterate_batch()
        elif which == 6:
            mm.set_batch_num(2, 3)


@pytest.mark.parametrize("which,match", [
    (0, "wait_iterate_all without"),
    (1, "needs an asynchronous iterate"),
    (2, "set_workspace"),
    (3, "without an iterate_n_batch"),
    (4, "needs an AIC_ONLY kernel"),
    (5, "wait_iterate_batch without"),
    (6, "MIX kernel has no SetBatchNum"),
])
def test_kernel_errors(which: int, match: str) -> None:
    t = make_tiling(16, 16, 16, batch=1)
    with pytest.raises(asc.KernelError, match=match):
        misuse_kernel[1, None](np.zeros(256, np.float16), np.zeros(256, np.float32), t, np.zeros(64, np.uint8), which)


# ---- the host tiling's bound for C in the UB ------------------------------------------------------------

@pytest.mark.parametrize("c_pos,fix", [(host.TPosition.VECCALC, False), (host.TPosition.VECIN, False),
                                       (host.TPosition.GM, False), (host.TPosition.VECCALC, True)])
def test_tiling_keeps_two_c_blocks_in_the_ub(c_pos: Any, fix: bool) -> None:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, F32, False)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, F32, False)
    mt.set_c_type(c_pos, host.CubeFormat.ND, F32)
    mt.set_dim(16)
    mt.set_org_shape(1024, 512, 256)
    mt.set_shape(1024, 512, 256)
    if fix:
        mt.set_fix_split(256, 128, -1)  # the user's choice stands (one block of 128 KiB)
    mt.set_buffer_space(-1, -1, -1)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    ub = host.get_ascendc_platform().get_core_mem_size(host.CoreMemType.UB)
    two_blocks = 2 * t.base_m * t.base_n * 4
    if fix:
        assert (t.base_m, t.base_n) == (256, 128)
    elif c_pos == host.TPosition.GM:
        assert two_blocks > ub  # (the search's favourite, 256 x 128, when C is not in the UB)
    else:
        assert two_blocks <= ub


# ---- set_hf32: float32 A and B multiplied as HF32 -------------------------------------------------------

@asc.jit(matmul_cube_only=True)
def hf32_mm_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress,
                   tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, mode: asc.ConstExpr[int]):
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
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if mode > 0:
        mm.set_hf32(True, mode - 1)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.iterate_all(c_g)
    mm.end()


def hf32_of(x: np.ndarray, ties_away: bool) -> np.ndarray:
    """float32 to HF32 (11 mantissa bits), to nearest: ties to even, or away from zero."""
    u = x.view(np.uint32).astype(np.uint64)
    low, keep = u & 0xFFF, u & ~np.uint64(0xFFF)
    up = (low > 0x800) | ((low == 0x800) & (ties_away | ((keep >> 12) & 1 == 1)))
    return (keep + np.where(up, 0x1000, 0)).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_set_hf32_rounds_float32_operands(mode: int) -> None:
    """With set_hf32(True, trans_mode) the cube multiplies A's and B's float32 values rounded to HF32 (the
    Mmad HF32 mode); the sums stay float32. Integers times 1 + 2^-12 (a tie) tell the modes apart."""
    m, n, k = 16, 32, 16
    rng = np.random.default_rng(9)
    a = (rng.integers(1, 4, (m, k)) * np.float32(1 + 2**-12)).astype(np.float32)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32)
    t = make_tiling(m, n, k, ab=F32)
    c = np.zeros((m, n), np.float32)
    hf32_mm_kernel[1, None](a, b, c, t, np.zeros(64, np.uint8), mode)
    av = a if mode == 0 else hf32_of(a, mode == 2)
    want = av.astype(np.float64) @ b.astype(np.float64)  # exact: few terms of few bits
    np.testing.assert_array_equal(c, want.astype(np.float32))


@asc.jit
def objects_kernel(a: asc.GlobalAddress, n: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    f16 = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    f32 = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float32)
    for _ in range(n):
        asc.adv.Matmul(a=f16, b=f16, c=f32)  # <- object


@pytest.mark.parametrize("n", [8, 9])
def test_at_most_eight_matmul_objects_on_a_core(n: int) -> None:
    # the devkit's arch-2201 implementation: MAX_MATMUL_OBJ 8 (impl/basic_api/dav_c220/kfc/kfc_comm.h)
    a = np.zeros(16, np.float16)
    if n <= 8:
        objects_kernel[1](a, n)
        return
    with pytest.raises(asc.KernelError, match="more than 8 objects on one core") as info:
        objects_kernel[1](a, n)
    assert "# <- object" in open(__file__).read().splitlines()[info.value.line - 1]
