"""The unit flag (MmadParams.unit_flag, FixpipeParamsV220.unit_flag, 2 or 3): with it on both the Mmad and the
Fixpipe the hardware orders them on their L0C data (the devkit's UnitFlag page), so the kernel needs no M_FIX /
FIX_M flags: the sanitizer sees that order (an implicit queue between the M and FIX pipes) and reports the race
when the flag is on one side only; the values are those of the plain instructions."""

import numpy as np
import pytest

import asc

K = 32


@asc.jit
def unit_kernel(a: asc.GlobalAddress, bt: asc.GlobalAddress, c: asc.GlobalAddress, mm_flag: asc.ConstExpr[int],
                fix_flag: asc.ConstExpr[int], rounds: asc.ConstExpr[int]):
    """rounds x (C_r = (r + 1) * A B into L0C, fixpipe it to C[r]): the L0C tile is rewritten each round, so
    both directions (M -> FIX and FIX -> M) need ordering; only the unit flags give it."""
    a_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm = asc.GlobalTensor()
    b_gm.set_global_buffer(bt)
    c_gm = asc.GlobalTensor()
    c_gm.set_global_buffer(c)
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, 1024)
    pipe.init_buffer(qb1, 1, 1024)
    pipe.init_buffer(qa2, 1, 1024)
    pipe.init_buffer(qb2, 1, 1024)
    pipe.init_buffer(qc, 1, 1024)
    a1 = qa1.alloc_tensor(asc.float16)
    b1 = qb1.alloc_tensor(asc.float16)
    a2 = qa2.alloc_tensor(asc.float16)
    b2 = qb2.alloc_tensor(asc.float16)
    co1 = qc.alloc_tensor(asc.float32)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    asc.data_copy(b1, b_gm, asc.Nd2NzParams(1, 16, K, 0, K, 16, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, K // 16, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    for r in range(rounds):
        asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=K, cmatrix_init_val=True, unit_flag=mm_flag))
        for _ in range(r):  # the sum of r + 1 products, accumulated in L0C
            asc.pipe_barrier(asc.PipeID.PIPE_M)
            asc.mmad(co1, a2, b2, asc.MmadParams(m=16, n=16, k=K, cmatrix_init_val=False, unit_flag=mm_flag))
        asc.fixpipe(c_gm[r * 256:], co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16,
                                                                unit_flag=fix_flag))


def operands() -> tuple:
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 4, (16, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, 16)).astype(np.float16)
    return a, np.ascontiguousarray(b.T), a.astype(np.float32) @ b.astype(np.float32)


@pytest.mark.parametrize("mm_flag,fix_flag", [(3, 3), (2, 3), (3, 2)])
@pytest.mark.parametrize("rounds", [1, 3])
def test_unit_flags_on_both_sides_order_mmad_and_fixpipe(mm_flag: int, fix_flag: int, rounds: int) -> None:
    a, bt, ab = operands()
    c = np.zeros((rounds, 16, 16), np.float32)
    unit_kernel[1](a, bt, c, mm_flag, fix_flag, rounds, sanitize="error")
    for r in range(rounds):
        np.testing.assert_array_equal(c[r], (r + 1) * ab)


@pytest.mark.parametrize("mm_flag,fix_flag", [(0, 3), (3, 0), (0, 0)])
def test_the_unit_flag_on_one_side_only_leaves_the_race(mm_flag: int, fix_flag: int) -> None:
    a, bt, _ = operands()
    c = np.zeros((1, 16, 16), np.float32)
    with pytest.raises(asc.SanitizerError, match="data race on L0C"):
        unit_kernel[1](a, bt, c, mm_flag, fix_flag, 1, sanitize="error")
