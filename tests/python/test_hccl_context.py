"""asc.get_hccl_context / asc.set_hccl_context on the simulator: the core's two
HCCL context addresses (AscendC::Get/SetHcclContext<index>), per block; an
index above 1 or never set gives a null address, a KernelError when used."""

from typing import Any

import numpy as np
from kernels_util import ascendc, fails_at

import asc


@asc.jit
def ctx_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, mode: asc.ConstExpr[int]):
    if mode == 0:  # both set, each block writes through both
        asc.set_hccl_context(0, a + asc.get_block_idx() * 16)  # a 64-byte data cache line per block
        asc.set_hccl_context(1, b)
    elif mode == 1:  # index 1 set twice: the last wins
        asc.set_hccl_context(1, a)
        asc.set_hccl_context(1, b + 2)
        asc.set_hccl_context(0, b)
    c0 = asc.get_hccl_context(0)
    c1 = asc.get_hccl_context(1)
    g0 = asc.GlobalTensor()
    g1 = asc.GlobalTensor()
    g0.set_global_buffer(c0)  # context 0
    g1.set_global_buffer(c1)  # context 1
    g0.set_value(0, 10 + asc.get_block_idx())  # write 0
    g1.set_value(asc.get_block_idx() * 64, 20 + asc.get_block_idx())  # write 1


def test_set_then_get_per_block() -> None:
    a = np.zeros(32, np.int32)
    b = np.zeros(32, np.int32)
    ctx_kernel[2](a, b, 0)
    # context 0 of block i is a + 16 i (element 16 i of the int32 array: byte 64 i, as uint8); context 1 is b
    assert a.view(np.uint8)[[0, 64]].tolist() == [10, 11] and a.view(np.uint8)[1:4].tolist() == [0, 0, 0]
    assert b.view(np.uint8)[[0, 64]].tolist() == [20, 21]
    src = ascendc(ctx_kernel)
    assert "AscendC::SetHcclContext<0>(reinterpret_cast<GM_ADDR>(" in src, src
    assert "AscendC::GetHcclContext<1>()" in src, src


def test_last_set_wins() -> None:
    a = np.zeros(16, np.int32)
    b = np.zeros(16, np.int32)
    ctx_kernel[1](a, b, 1)
    # context 1 is b + 2 (byte 8), context 0 is b (byte 0)
    assert a.tolist() == [0] * 16
    assert b.view(np.uint8)[0] == 10 and b.view(np.uint8)[8] == 20


def test_never_set_is_null() -> None:
    """Each block starts with no context: the use through a null address is a KernelError at the use."""
    fails_at(ctx_kernel, (np.zeros(16, np.int32), np.zeros(16, np.int32), 2), "# write 0",
             "null GM address", "get_hccl_context never set")


def test_blocks_do_not_share_registers() -> None:
    @asc.jit
    def k(a: asc.GlobalAddress):
        if asc.get_block_idx() == 0:
            asc.set_hccl_context(0, a)
        g = asc.GlobalTensor()
        g.set_global_buffer(asc.get_hccl_context(0))
        g.set_value(asc.get_block_idx(), 5)  # block 1 use

    a = np.zeros(8, np.int32)
    k[1](a)
    assert a.view(np.uint8)[0] == 5
    err = fails_at(k, (np.zeros(8, np.int32),), "# block 1 use", "null GM address", core_num=2)
    assert "block 1" in str(err), err


def test_index_above_one() -> None:
    """SetHcclContext<2> does nothing; GetHcclContext<2> is nullptr."""
    @asc.jit
    def k(a: asc.GlobalAddress):
        asc.set_hccl_context(2, a)
        g = asc.GlobalTensor()
        g.set_global_buffer(asc.get_hccl_context(2))
        g.set_value(0, 5)  # use

    fails_at(k, (np.zeros(8, np.int32),), "# use", "null GM address")
    assert "AscendC::GetHcclContext<2>()" in ascendc(k)


def test_bounds_of_the_context() -> None:
    """The context is the kernel argument's address: accesses past its end are a KernelError."""
    @asc.jit
    def k(a: asc.GlobalAddress):
        asc.set_hccl_context(0, a)
        g = asc.GlobalTensor()
        g.set_global_buffer(asc.get_hccl_context(0))
        g.set_value(32, 5)  # past the end

    fails_at(k, (np.zeros(8, np.int32),), "# past the end", "out of bounds")


def test_errors() -> None:
    @asc.jit
    def k(a: asc.GlobalAddress, n: int, case: asc.ConstExpr[int]):
        if case == 0:
            asc.get_hccl_context(n)  # bad0
        elif case == 1:
            asc.set_hccl_context(0, 5)  # bad1
        elif case == 2:
            asc.set_hccl_context(-1, a)  # bad2
        else:
            asc.get_hccl_context(True)  # bad3

    args: Any = (np.zeros(8, np.int32), 0)
    fails_at(k, (*args, 0), "# bad0", "index must be a compile-time integer", cls=asc.CompileError)
    fails_at(k, (*args, 1), "# bad1", "'context' must be a GlobalAddress", cls=asc.CompileError)
    fails_at(k, (*args, 2), "# bad2", "is not a uint32_t", cls=asc.CompileError)
    fails_at(k, (*args, 3), "# bad3", "index must be a compile-time integer", cls=asc.CompileError)
