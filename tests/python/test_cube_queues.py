"""The framework objects over the cube core's memories: TQueBind(GM, A1/B1), (A1, A2), (B1, B2), (CO1, CO2)
(buffers at the devkit's GetPosition, synchronised as a TQue of that position: MTE2 -> MTE1 into L1, MTE1 -> M
into L0A/L0B, M -> FIX out of L0C), TBufPool in L1, and LocalMemAllocator over L1 / L0A / L0B / L0C / the bias
table: a 16 x 16 x 32 float16 matmul through each, against NumPy, with the sanitizer on (the queues' implicit
syncs order every pipe pair, so no race is reported); the pairs and memories the Ascend910B does not have are
CompileErrors at the user's line."""

import numpy as np
import pytest

import asc

K = 32  # two 16-element k fractals of float16


@asc.jit(matmul_cube_only=True)
def queue_kernel(a: asc.GlobalAddress, bt: asc.GlobalAddress, c: asc.GlobalAddress):
    """C[16, 16] = A[16, K] B[K, 16], B given transposed; every hand-over through a queue."""
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm = asc.GlobalTensor()
    b_gm.set_global_buffer(bt)
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    qa1 = asc.TQueBind(asc.TPosition.GM, asc.TPosition.A1, 1)
    qb1 = asc.TQueBind(asc.TPosition.GM, asc.TPosition.B1, 1)
    qa2 = asc.TQueBind(asc.TPosition.A1, asc.TPosition.A2, 1)
    qb2 = asc.TQueBind(asc.TPosition.B1, asc.TPosition.B2, 1)
    qc = asc.TQueBind(asc.TPosition.CO1, asc.TPosition.CO2, 1)
    pipe.init_buffer(qa1, 1, 1024)
    pipe.init_buffer(qb1, 1, 1024)
    pipe.init_buffer(qa2, 1, 1024)
    pipe.init_buffer(qb2, 1, 1024)
    pipe.init_buffer(qc, 1, 1024)
    a1 = qa1.alloc_tensor(asc.float16)
    b1 = qb1.alloc_tensor(asc.float16)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    qa1.enque(a1)
    qb1.enque(b1)
    a1 = qa1.deque(asc.float16)
    b1 = qb1.deque(asc.float16)
    a2 = qa2.alloc_tensor(asc.float16)
    b2 = qb2.alloc_tensor(asc.float16)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    qa1.free_tensor(a1)
    qb1.free_tensor(b1)
    qa2.enque(a2)
    qb2.enque(b2)
    a2 = qa2.deque(asc.float16)
    b2 = qb2.deque(asc.float16)
    co1 = qc.alloc_tensor(asc.float32)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=K, cmatrix_init_val=True))
    qa2.free_tensor(a2)
    qb2.free_tensor(b2)
    qc.enque(co1)
    co1 = qc.deque(asc.float32)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))
    qc.free_tensor(co1)


def operands() -> tuple:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, K)).astype(np.float16)
    b = rng.standard_normal((K, 16)).astype(np.float16)
    return a, b, a.astype(np.float32) @ b.astype(np.float32)


def test_a_matmul_through_cube_queues() -> None:
    a, b, want = operands()
    c = np.zeros((16, 16), np.float32)
    queue_kernel[1](a, np.ascontiguousarray(b.T), c, sanitize="error")
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)
    src = list(queue_kernel.cache.values())[-1].ascendc(line_comments=False)
    assert "AscendC::TQueBind<AscendC::TPosition::GM, AscendC::TPosition::A1, 1> qa1;" in src
    assert "AscendC::TQueBind<AscendC::TPosition::CO1, AscendC::TPosition::CO2, 1> qc;" in src


@asc.jit(matmul_cube_only=True)
def allocator_kernel(a: asc.GlobalAddress, bt: asc.GlobalAddress, c: asc.GlobalAddress,
                     pool_l1: asc.ConstExpr[bool]):
    """The same matmul with static tensors: a LocalMemAllocator per memory and explicit flags (or, with pool_l1,
    the framework's buffers instead: the L1 tensors from a TBufPool of A1 carved by the TPipe, the L0 ones from
    TBufs; a kernel does not mix the two, 静态Tensor编程.md)."""
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm = asc.GlobalTensor()
    b_gm.set_global_buffer(bt)
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c)
    if pool_l1:
        pipe = asc.TPipe()
        pool = asc.TBufPool(asc.TPosition.A1)
        pipe.init_buf_pool(pool, 4096)
        buf = asc.TBuf(asc.TPosition.A1)
        pool.init_buffer(buf, 2048)
        a1 = buf.get(asc.float16)
        b1 = a1[512:]
        ba2 = asc.TBuf(asc.TPosition.A2)
        bb2 = asc.TBuf(asc.TPosition.B2)
        bco1 = asc.TBuf(asc.TPosition.CO1)
        pipe.init_buffer(ba2, 1024)
        pipe.init_buffer(bb2, 1024)
        pipe.init_buffer(bco1, 1024)
        a2 = ba2.get(asc.float16)
        b2 = bb2.get(asc.float16)
        co1 = bco1.get(asc.float32)
    else:
        l1 = asc.LocalMemAllocator(asc.Hardware.L1)
        a1 = l1.alloc(asc.TPosition.A1, asc.float16, 512)
        b1 = l1.alloc(asc.TPosition.B1, asc.float16, 512)
        a2 = asc.LocalMemAllocator(asc.Hardware.L0A).alloc(asc.TPosition.A2, asc.float16, 512)
        b2 = asc.LocalMemAllocator(asc.Hardware.L0B).alloc(asc.TPosition.B2, asc.float16, 512)
        co1 = asc.LocalMemAllocator(asc.Hardware.L0C).alloc(asc.TPosition.CO1, asc.float32, 256)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=K, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))


@pytest.mark.parametrize("pool_l1", [False, True])
def test_a_matmul_with_static_cube_tensors(pool_l1: bool) -> None:
    a, b, want = operands()
    c = np.zeros((16, 16), np.float32)
    allocator_kernel[1](a, np.ascontiguousarray(b.T), c, pool_l1, sanitize="error")
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)


@asc.jit
def misuse_kernel(case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    if case == 0:
        asc.TQue(asc.TPosition.CO2, 1)  # <- 0
    if case == 1:
        asc.TQueBind(asc.TPosition.VECOUT, asc.TPosition.A1, 1)  # <- 1
    if case == 2:
        asc.TQueBind(asc.TPosition.GM, asc.TPosition.A2, 1)  # <- 2
    if case == 3:
        asc.LocalMemAllocator(asc.Hardware.FIXBUF)  # <- 3
    if case == 4:
        asc.LocalMemAllocator(asc.Hardware.L0A).alloc(asc.TPosition.B2, asc.float16, 16)  # <- 4
    if case == 5:
        q = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(q, 1, 512)
        asc.LocalMemAllocator(asc.Hardware.L1).alloc(asc.TPosition.A1, asc.float16, 16)  # <- 5


@pytest.mark.parametrize("case,fragment", [
    (0, "TPosition.CO2 is global memory on the Ascend910B"),
    (1, "(VECOUT, A1) is no data path of the Ascend910B's cube core"),
    (2, "(GM, A2) is no data path"),
    (3, "the fixpipe buffer has no TPosition"),
    (4, "TPosition.B2 is not in the L0A"),
    (5, "this kernel already uses the TPipe framework (asc.TPipe at line"),
])
def test_misuse_is_a_compile_error_at_the_line(case: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError) as e:
        misuse_kernel[1](case)
    assert fragment in str(e.value), str(e.value)
    assert f"# <- {case}" in str(e.value)
    assert not isinstance(e.value, NotImplementedError)


@asc.jit
def ub_and_l1_kernel(x: asc.GlobalAddress):
    """A TPipe in the UB and a LocalMemAllocator in the L1 would not overlap, but the devkit forbids mixing the
    styles in any memory (静态Tensor编程.md: the TPipe keeps event ids and a stack buffer of its own)."""
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 512)
    t = asc.LocalMemAllocator(asc.Hardware.L1).alloc(asc.TPosition.A1, asc.float16, 16)  # <- static
    assert t is not None


def test_the_styles_do_not_mix_in_different_memories_either() -> None:
    with pytest.raises(asc.CompileError) as e:
        ub_and_l1_kernel[1](np.zeros(4, np.float32))
    assert "# <- static" in str(e.value) and "forbids mixing" in str(e.value)
