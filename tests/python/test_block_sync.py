"""Synchronisation between blocks on the simulator: sync_all (hard and soft), ib_set/ib_wait,
notify_next_block/wait_pre_block. Each test makes a block depend on data another block writes to GM, so a
missing or broken barrier changes the result; a wait no block can release is a KernelError (never a hang);
and the Ascend C spells the devkit's calls."""

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

N = 8  # int32 per 32-byte block
# int32 per 64-byte data cache line: the slot of a value one block writes with set_value and another reads,
# written back (data_cache_clean_and_invalid) before the sync that hands it over (docs/sanitizer.md)
L = 16
DCCI = asc.CacheLine.SINGLE_CACHE_LINE


@asc.jit
def ring_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, ws: asc.GlobalAddress, soft: asc.ConstExpr[bool]):
    """Block i writes x[i] + 1 into z[i]; after the barrier it reads z[(i + 1) % n] into z[n + i]."""
    i = asc.get_block_idx()
    n = asc.get_block_num()
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 512)
    z_gm.set_value(i * L, x_gm.get_value(i * N) + 1)
    asc.data_cache_clean_and_invalid(DCCI, z_gm[i * L])
    if soft:
        asc.sync_all(w_gm, ub)
    else:
        asc.sync_all()
    j = (i + 1) % n
    z_gm.set_value((n + i) * L, z_gm.get_value(j * L))


@pytest.mark.parametrize("soft", [False, True])
@pytest.mark.parametrize("blocks", [1, 2, 5])
def test_sync_all_orders_the_blocks(blocks: int, soft: bool) -> None:
    x = np.arange(blocks * N, dtype=np.int32) * 3
    z = np.zeros(2 * blocks * L, np.int32)
    ws = np.zeros(blocks * N, np.int32)
    ring_kernel[blocks](x, z, ws, soft)
    first = x[::N] + 1
    assert z[: blocks * L : L].tolist() == first.tolist()
    assert z[blocks * L :: L].tolist() == np.roll(first, -1).tolist()
    if soft:  # the devkit's protocol: each block's word counts its barriers
        assert ws[::N].tolist() == [1] * blocks


def test_sync_all_ascendc() -> None:
    for soft in (False, True):
        ring_kernel[2](np.zeros(16, np.int32), np.zeros(4 * L, np.int32), np.zeros(16, np.int32), soft)
    srcs = [c.ascendc(line_comments=False) for c in ring_kernel.cache.values()]
    assert any("AscendC::SyncAll<true>();" in s for s in srcs)
    assert any("AscendC::SyncAll<true>(w_gm, ub, 0);" in s for s in srcs)


@asc.jit
def repeat_barrier_kernel(z: asc.GlobalAddress, rounds: int):
    """Each round every block adds its index + 1 to z[round]; after the barrier block 0 checks the sum."""
    i = asc.get_block_idx()
    n = asc.get_block_num()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    for r in range(rounds):
        z_gm.set_value((r * n + i) * L, i + 1 + r)
        asc.data_cache_clean_and_invalid(DCCI, z_gm[(r * n + i) * L])
        asc.sync_all()
        if i == 0:
            s = 0
            for k in range(n):
                s = s + z_gm.get_value((r * n + k) * L)
            z_gm.set_value((rounds * n + r) * L, s)
        asc.sync_all()


def test_sync_all_in_a_loop() -> None:
    blocks, rounds = 4, 6
    z = np.zeros((rounds * blocks + rounds) * L, np.int32)
    repeat_barrier_kernel[blocks](z, rounds)
    sums = z[rounds * blocks * L :: L].tolist()
    assert sums == [sum(k + 1 + r for k in range(blocks)) for r in range(rounds)]


@asc.jit
def skip_barrier_kernel(z: asc.GlobalAddress):
    i = asc.get_block_idx()
    if i != 1:
        asc.sync_all()  # the barrier
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(i * N, 1)


def test_a_block_that_skips_sync_all_is_a_deadlock() -> None:
    fails_at(skip_barrier_kernel, [np.zeros(3 * N, np.int32)], "# the barrier", "deadlock", "block 1",
             core_num=3)


@asc.jit
def fault_then_barrier_kernel(z: asc.GlobalAddress):
    i = asc.get_block_idx()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if i == 2:
        asc.trap()  # the trap
    asc.sync_all()


def test_the_failing_block_is_reported_not_the_waiters() -> None:
    err = fails_at(fault_then_barrier_kernel, [np.zeros(4 * N, np.int32)], "# the trap", "trap", core_num=4)
    assert err is None or "deadlock" not in str(err)


def test_too_many_blocks_for_a_barrier() -> None:
    with pytest.raises(asc.KernelError, match="vector cores"):
        ring_kernel[49](np.zeros(49 * N, np.int32), np.zeros(98 * N, np.int32), np.zeros(49 * N, np.int32), False)


# ---- ib_set / ib_wait ------------------------------------------------------------------------------------------

@asc.jit
def chain_kernel(z: asc.GlobalAddress, ws: asc.GlobalAddress):
    """Block i waits for block i - 1, then writes z[i] = z[i - 1] * 2 + i: only correct in order."""
    i = asc.get_block_idx()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    if i > 0:
        asc.ib_wait(w_gm, ub, i - 1, 0)
        z_gm.set_value(i * L, z_gm.get_value((i - 1) * L) * 2 + i)
    else:
        z_gm.set_value(0, 1)
    asc.data_cache_clean_and_invalid(DCCI, z_gm[i * L])
    asc.ib_set(w_gm, ub, i, 0)


@pytest.mark.parametrize("blocks", [1, 2, 6])
def test_ib_set_wait_chain(blocks: int) -> None:
    z = np.zeros(blocks * L, np.int32)
    ws = np.zeros(blocks * N, np.int32)
    chain_kernel[blocks](z, ws)
    want = [1]
    for i in range(1, blocks):
        want.append(want[-1] * 2 + i)
    assert z[::L].tolist() == want
    # every flag was set and, except the last block's (nobody waits for it), cleared by its waiter
    assert ws[::N].tolist() == [0] * (blocks - 1) + [1]


def test_ib_ascendc() -> None:
    chain_kernel[2](np.zeros(2 * L, np.int32), np.zeros(16, np.int32))
    src = ascendc(chain_kernel)
    assert "AscendC::IBWait<true>(w_gm, ub, " in src and "AscendC::IBSet<true>(w_gm, ub, " in src


@asc.jit
def lonely_wait_kernel(ws: asc.GlobalAddress):
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    if asc.get_block_idx() == 0:
        asc.ib_wait(w_gm, ub, 1, 0)  # nobody sets it


def test_ib_wait_never_set_is_a_deadlock() -> None:
    fails_at(lonely_wait_kernel, [np.zeros(2 * N, np.int32)], "# nobody sets it", "deadlock", "ib_wait",
             core_num=2)


@asc.jit
def flag_outside_kernel(ws: asc.GlobalAddress, ev: int):
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    asc.ib_set(w_gm, ub, 0, ev)  # the flag


def test_ib_flag_outside_the_workspace() -> None:
    fails_at(flag_outside_kernel, [np.zeros(2 * N, np.int32), 1], "# the flag", "outside", core_num=2)
    fails_at(flag_outside_kernel, [np.zeros(2 * N, np.int32), -1], "# the flag", "negative", core_num=2)


# ---- notify_next_block / wait_pre_block ------------------------------------------------------------------------

@asc.jit
def ordered_kernel(z: asc.GlobalAddress, ws: asc.GlobalAddress, rounds: int):
    """Blocks append their index to a log in z, in blockIdx order, `rounds` times."""
    i = asc.get_block_idx()
    n = asc.get_block_num()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 512)
    ub.set_value(n * N, 1)  # what InitDetermineComputeWorkspace leaves
    for _r in range(rounds):
        asc.wait_pre_block(w_gm, ub)
        asc.data_cache_clean_and_invalid(DCCI, z_gm)  # the count another block changed since the last round
        k = z_gm.get_value(0)
        z_gm.set_value((k + 1) * N, i)
        z_gm.set_value(0, k + 1)
        asc.data_cache_clean_and_invalid(asc.CacheLine.ENTIRE_DATA_CACHE, z_gm)  # both lines, for the next block
        asc.notify_next_block(w_gm, ub)


@pytest.mark.parametrize("blocks", [1, 3])
def test_blocks_run_in_order(blocks: int) -> None:
    rounds = 3
    z = np.zeros((blocks * rounds + 1) * N, np.int32)
    ws = np.zeros(blocks * N, np.int32)
    ordered_kernel[blocks](z, ws, rounds)
    assert z[0] == blocks * rounds
    assert z[N::N].tolist() == list(range(blocks)) * rounds
    assert ws.tolist() == [0] * (blocks * N)  # the last block resets it
    src = ascendc(ordered_kernel)
    assert "AscendC::WaitPreBlock(w_gm, ub);" in src and "AscendC::NotifyNextBlock(w_gm, ub);" in src


# ---- misuse --------------------------------------------------------------------------------------------------

@asc.jit
def bad_sync_kernel(ws: asc.GlobalAddress, case: asc.ConstExpr[int]):
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ubf = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    if case == 0:
        asc.ib_set(w_gm, ubf, 0, 0)  # bad 0
    elif case == 1:
        asc.sync_all(w_gm)  # bad 1
    elif case == 2:
        asc.ib_wait(ub, ub, 0, 0)  # bad 2
    else:
        asc.sync_all(is_aiv_only=1)  # bad 3


@pytest.mark.parametrize("case, fragment", [(0, "int32"), (1, "both"), (2, "GlobalTensor"), (3, "True or False")])
def test_misuse(case: int, fragment: str) -> None:
    fails_at(bad_sync_kernel, [np.zeros(N, np.int32), case], f"# bad {case}", fragment, cls=asc.CompileError)


@asc.jit
def used_cores_kernel(z: asc.GlobalAddress, ws: asc.GlobalAddress):
    """Blocks 0 and 1 publish a value; every block passes the software barrier of the first two blocks, and
    block 2 (not among them, as the devkit's loop allows) then reads both values."""
    i = asc.get_block_idx()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm = asc.GlobalTensor()
    w_gm.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 512)
    if i < 2:
        z_gm.set_value(i * L, (i + 1) * 10)
        asc.data_cache_clean_and_invalid(DCCI, z_gm[i * L])
    asc.sync_all(w_gm, ub, 2)
    if i == 2:
        z_gm.set_value(2 * L, z_gm.get_value(0) + z_gm.get_value(L))


def test_sync_all_soft_with_used_cores() -> None:
    z = np.zeros(3 * L, np.int32)
    ws = np.zeros(3 * N, np.int32)
    used_cores_kernel[3](z, ws)
    assert z[::L].tolist() == [10, 20, 30]
    assert ws[::N].tolist() == [1, 1, 1]


@asc.jit
def race_after_barrier_kernel(z: asc.GlobalAddress):
    i = asc.get_block_idx()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    asc.sync_all()
    if i == 0:
        z_gm.set_value(0, 5)  # the write
    else:
        z_gm.set_value(N, z_gm.get_value(0))


def test_the_sanitizer_still_sees_races_the_barrier_does_not_order() -> None:
    # both accesses come after the same barrier: nothing orders them
    with pytest.raises(asc.SanitizerError, match="data race on GM between blocks 0 and 1"):
        race_after_barrier_kernel[2](np.zeros(2 * N, np.int32))
