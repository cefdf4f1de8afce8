"""System variables, trap, the cache and SoC rows, and the timing of cross-block sync on the simulator:
get_arch_version, get_data_block_size_in_bytes, get_program_counter, get_sub_block_idx/num, get_task_ratio,
get_system_cycle (the timing model's cycle on the 50 MHz system counter), trap (a KernelError at its line),
data_sync_barrier, data_cache_clean_and_invalid, data_cache_preload, icache_preload,
get_icache_preload_status, init_soc_state, check_local_memory_ia (results unchanged, the devkit's calls
emitted), and what is not supported yet."""

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

N = 8


@asc.jit
def vars_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    i = asc.get_block_idx()
    z_gm.set_value(i * N + 0, asc.get_arch_version(0))
    z_gm.set_value(i * N + 1, asc.get_data_block_size_in_bytes())
    z_gm.set_value(i * N + 2, asc.get_sub_block_idx())
    z_gm.set_value(i * N + 3, asc.get_sub_block_num())
    z_gm.set_value(i * N + 4, asc.get_task_ratio())
    z_gm.set_value(i * N + 5, asc.get_icache_preload_status())
    a = asc.get_program_counter()
    b = asc.get_program_counter()
    z_gm.set_value(i * N + 6, b - a)


@pytest.mark.parametrize("blocks", [1, 3])
def test_system_variables(blocks: int) -> None:
    z = np.full(blocks * N, -7, np.int64)
    vars_kernel[blocks](z)
    for i in range(blocks):
        # dav-c220's arch version; a 32-byte data block; an AIV-only kernel: sub block 0 of 1, task ratio 1;
        # no icache preload in flight; the program counter moves forward
        row = z[i * N : i * N + 7].tolist()
        assert row[:6] == [0x220, 32, 0, 1, 1, 0]
        assert row[6] > 0


def test_system_variables_ascendc() -> None:
    vars_kernel[1](np.zeros(N, np.int64))
    src = ascendc(vars_kernel)
    for call in ("AscendC::GetArchVersion(core_version)", "AscendC::GetDataBlockSizeInBytes()",
                 "AscendC::GetSubBlockIdx()", "AscendC::GetSubBlockNum()", "AscendC::GetTaskRatio()",
                 "AscendC::GetICachePreloadStatus()", "AscendC::GetProgramCounter()"):
        assert call in src, call
    assert "uint32_t core_version = 0U;" in src


@asc.jit
def trap_kernel(z: asc.GlobalAddress, when: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(asc.get_block_idx() * 16, 1)  # a 64-byte data cache line per block (docs/sanitizer.md)
    if asc.get_block_idx() == when:
        asc.trap()  # the trap
    z_gm.set_value(asc.get_block_idx() * 16 + 1, 2)


def test_trap_is_a_kernel_error_at_its_line() -> None:
    z = np.zeros(32, np.int32)
    fails_at(trap_kernel, [z, 1], "# the trap", "trap", core_num=2)
    z = np.zeros(32, np.int32)
    trap_kernel[2](z, 5)  # no block traps
    assert z[[0, 1, 16, 17]].tolist() == [1, 2, 1, 2]
    assert "AscendC::Trap();" in ascendc(trap_kernel)


@asc.jit
def cache_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(w)
    asc.init_soc_state()
    asc.icache_preload(2)
    asc.data_cache_preload(w_gm, 0)
    asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam(enable_bit=1, start_addr=0, end_addr=1024))
    for k in range(4):
        z_gm.set_value(k, x_gm.get_value(k) * 2)
    asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, z_gm, asc.DcciDst.CACHELINE_OUT)
    asc.data_cache_clean_and_invalid(asc.CacheLine.ENTIRE_DATA_CACHE, z_gm)
    asc.data_sync_barrier(asc.MemDsbT.ALL)


def test_cache_and_soc_rows_change_nothing() -> None:
    x = np.arange(8, dtype=np.float32) + 0.5
    z = np.zeros(8, np.float32)
    w = np.arange(4, dtype=np.uint64)
    cache_kernel[1](x, z, w)
    assert z.tolist() == [1.0, 3.0, 5.0, 7.0, 0, 0, 0, 0]
    assert w.tolist() == [0, 1, 2, 3]
    src = ascendc(cache_kernel)
    for call in ("AscendC::InitSocState();", "AscendC::ICachePreLoad(2", "AscendC::DataCachePreload(w_gm, ",
                 "AscendC::CheckLocalMemoryIA(AscendC::CheckLocalMemoryIAParam(",
                 "AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::SINGLE_CACHE_LINE, "
                 "AscendC::DcciDst::CACHELINE_OUT>(z_gm);",
                 "AscendC::DataCacheCleanAndInvalid<float, AscendC::CacheLine::ENTIRE_DATA_CACHE>(z_gm);",
                 "AscendC::DataSyncBarrier<AscendC::MemDsbT::ALL>();"):
        assert call in src, call


# ---- get_system_cycle and the timing of sync_all ----------------------------------------------------------------

@asc.jit
def cycle_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, work: int, barrier: asc.ConstExpr[bool]):
    i = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 2048)
    c0 = asc.get_system_cycle()
    if i == 0:
        asc.data_copy(t, x_gm, 2048)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        for _k in range(work):
            asc.exp(t, t, 2048)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    c1 = asc.get_system_cycle()
    if barrier:
        asc.sync_all()
    c2 = asc.get_system_cycle()
    z_gm.set_value(i * N, c0)
    z_gm.set_value(i * N + 1, c1)
    z_gm.set_value(i * N + 2, c2)


def _profiled(barrier: bool) -> tuple:
    x = np.zeros(2048, np.float32)
    z = np.zeros(2 * N, np.int64)
    with asc.profile() as prof:
        cycle_kernel[2](x, z, 100, barrier)
    return z, prof.last


def test_system_cycle_follows_the_timing_model() -> None:
    z, lp = _profiled(False)
    # block 0 works between c0 and c1; block 1 does not
    assert z[1] - z[0] > 10 * (z[N + 1] - z[N] + 1)
    # the counter is the block's cycles at 50 MHz of a 1.85 GHz core: far fewer ticks than cycles
    assert 0 < z[1] < lp.blocks[0].cycles


def test_sync_all_waits_for_the_slowest_block_in_the_timing_model() -> None:
    z0, lp0 = _profiled(False)
    z1, lp1 = _profiled(True)
    # without the barrier block 1 ends long before block 0; with it, after block 0's work
    assert lp0.blocks[1].cycles * 3 < lp0.blocks[0].cycles
    assert lp1.blocks[1].cycles >= lp1.blocks[0].cycles * 0.95
    assert z1[N + 2] >= z1[1]  # block 1 leaves the barrier after block 0 reached it


def test_without_the_timing_model_the_cycle_still_advances() -> None:
    z = np.zeros(2 * N, np.int64)
    cycle_kernel[2](np.zeros(2048, np.float32), z, 50, True)
    assert z[0] <= z[1] <= z[2]


@asc.jit
def bad_system_kernel(z: asc.GlobalAddress, case: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if case == 0:
        asc.data_cache_preload(z_gm, 0)  # bad 0
    elif case == 1:
        asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, 5)  # bad 1
    elif case == 2:
        asc.check_local_memory_ia(5)  # bad 2
    elif case == 3:
        asc.set_sys_workspace(z_gm)  # bad 3
    else:
        asc.data_sync_barrier(asc.PipeID.PIPE_V)  # bad 4


@pytest.mark.parametrize("case, fragment", [(0, "uint64"), (1, "GlobalTensor"), (2, "CheckLocalMemoryIAParam"),
                                            (3, "GlobalAddress"), (4, "MemDsbT")])
def test_misuse(case: int, fragment: str) -> None:
    fails_at(bad_system_kernel, [np.zeros(N, np.float32), case], f"# bad {case}", fragment, cls=asc.CompileError)


@asc.jit
def pc_device() -> int:
    return asc.get_program_counter()


@asc.jit
def pc_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, asc.get_program_counter())
    z_gm.set_value(1, pc_device())
    z_gm.set_value(2, pc_device())


def test_program_counter_in_a_device_function() -> None:
    z = np.zeros(4, np.int64)
    pc_kernel[1](z)
    # the device function's code lies after the kernel's, at one place for both calls; 4-byte steps
    assert z[0] >= 0 and z[1] > z[0] and z[1] == z[2] and z[1] % 4 == 0


@asc.jit
def sys_ws_kernel(x: asc.GlobalAddress, w: asc.GlobalAddress, set_it: asc.ConstExpr[bool]):
    if set_it:
        asc.set_sys_workspace(w + 1)
    a = asc.get_sys_workspace()  # the workspace
    g = asc.GlobalTensor()
    g.set_global_buffer(a)
    g.set_value(asc.get_block_idx() * 64, 7)  # a 64-byte data cache line per block (docs/sanitizer.md)


def test_sys_workspace() -> None:
    w = np.zeros(40, np.float32)
    sys_ws_kernel[2](np.zeros(4, np.float32), w, True)
    # w + 1 is element 1 of the float32 array: byte 4 as uint8; blocks 0 and 1 write bytes 4 and 68
    u = w.view(np.uint8)
    assert u[[4, 68]].tolist() == [7, 7] and u.sum() == 14
    src = ascendc(sys_ws_kernel)
    assert "AscendC::SetSysWorkspace(" in src and "= GetSysWorkSpacePtr();" in src
    fails_at(sys_ws_kernel, [np.zeros(4, np.float32), np.zeros(4, np.float32), False], "# the workspace",
             "no system workspace")
