"""Kernel types and the cores of a launch (family: cores).

The kernel type is detected when not given (a kernel that uses the cube core is MIX_AIC_1_2, AIC_ONLY with
matmul_cube_only=True, else AIV_ONLY; cross-core flags pairing the cores of an AI Core make it MIX too); a MIX
launch of core_num runs core_num cube cores with two vector cores each, every core running the kernel body with
the devkit's block and sub-block indices; the other core's instructions do nothing; cross-core flags order the
cores' GM accesses (results and the sanitizer's cross-block race check), and a wait no core can satisfy is a
KernelError naming its line."""

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc
from asc.runtime.config import KernelType

S = 16  # int32 per 64-byte data cache line: one slot per core, in a line of its own (docs/sanitizer.md)
DCCI = asc.CacheLine.SINGLE_CACHE_LINE  # a slot another core reads is written back first
FIELDS = 6  # is_aic, block_idx, sub_block_idx, block_num, sub_block_num, task_ratio


def compiled(kernel, kt=None):
    """The kernel's compilation (of kernel type kt when given: each kernel_type option compiles anew)."""
    entries = [c for c in kernel.cache.values() if kt is None or c.kernel_type == kt]
    assert len(entries) >= 1
    return entries[-1]


# ---- detection -------------------------------------------------------------------------------------------------

@asc.jit
def vector_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    z_gm.set_value(0, x_gm.get_value(0) + 1)


@asc.jit
def role_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if asc.ascend_is_aic():
        z_gm.set_value(0, 1)


@asc.jit(matmul_cube_only=True)
def cube_only_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if asc.ascend_is_aic():
        z_gm.set_value(asc.get_block_idx() * S, 7)


@asc.jit
def pair_flag_kernel(z: asc.GlobalAddress):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    if asc.ascend_is_aiv():
        asc.cross_core_set_flag(0, 1, asc.PipeID.PIPE_MTE3)
        asc.cross_core_wait_flag(0, 1, asc.PipeID.PIPE_MTE3)


@asc.jit
def all_aiv_flag_kernel(z: asc.GlobalAddress):
    """Mode 0 among vector cores only: MIX_AIV_1_0. Core i writes, then (after the all-core flag) reads core
    i + 1's slot."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    i = asc.get_block_idx()
    n = asc.get_block_num()
    z_gm.set_value(i * S, 10 * (i + 1))
    asc.data_cache_clean_and_invalid(DCCI, z_gm[i * S])
    asc.cross_core_set_flag(3, 0, asc.PipeID.PIPE_MTE3)
    asc.cross_core_wait_flag(3, 0, asc.PipeID.PIPE_MTE3)
    z_gm.set_value((n + i) * S, z_gm.get_value(((i + 1) % n) * S))


def test_a_vector_kernel_is_aiv_only() -> None:
    x = np.array([41] + [0] * 7, np.int32)
    z = np.zeros(8, np.int32)
    vector_kernel[1](x, z)
    assert compiled(vector_kernel).kernel_type == KernelType.AIV_ONLY
    assert z[0] == 42
    assert "KERNEL_TASK_TYPE_DEFAULT" not in ascendc(vector_kernel)


def test_ascend_is_aic_makes_a_mix_kernel() -> None:
    z = np.zeros(8, np.int32)
    role_kernel[1](z)
    assert compiled(role_kernel, KernelType.MIX_AIC_1_2).options.get("kernel_type") is None  # detected
    assert z[0] == 1  # the one cube core wrote it
    src = compiled(role_kernel, KernelType.MIX_AIC_1_2).ascendc(line_comments=False)
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);" in src
    assert "if (g_coreType == AscendC::AIC) {" in src


def test_matmul_cube_only_makes_aic_only() -> None:
    z = np.zeros(3 * S, np.int32)
    cube_only_kernel[3](z)
    assert compiled(cube_only_kernel).kernel_type == KernelType.AIC_ONLY
    assert z[::S].tolist() == [7, 7, 7]
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);" in ascendc(cube_only_kernel)


@pytest.mark.parametrize("kt", [KernelType.AIV_ONLY, KernelType.AIC_ONLY, KernelType.MIX_AIC_1_1])
def test_an_explicit_kernel_type_wins(kt: KernelType) -> None:
    z = np.zeros(8, np.int32)
    role_kernel[1](z, kernel_type=kt)
    assert compiled(role_kernel, kt).kernel_type == kt
    # AIV_ONLY has no cube core: ascend_is_aic() is False there
    assert z[0] == (0 if kt == KernelType.AIV_ONLY else 1)


def test_flags_pairing_the_cores_of_an_ai_core_make_a_mix_kernel() -> None:
    pair_flag_kernel[1](np.zeros(8, np.int32))
    assert compiled(pair_flag_kernel).kernel_type == KernelType.MIX_AIC_1_2


@pytest.mark.parametrize("cores", [1, 3, 8])
def test_all_core_flags_of_vector_cores_make_mix_aiv_1_0(cores: int) -> None:
    z = np.zeros(2 * cores * S, np.int32)
    all_aiv_flag_kernel[cores](z)
    assert compiled(all_aiv_flag_kernel).kernel_type == KernelType.MIX_AIV_1_0
    first = [10 * (i + 1) for i in range(cores)]
    assert z[: cores * S : S].tolist() == first
    assert z[cores * S :: S].tolist() == first[1:] + first[:1]
    assert "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);" in ascendc(all_aiv_flag_kernel)


@asc.jit
def sync_all_kernel(z: asc.GlobalAddress, hard: asc.ConstExpr[bool]):
    """Core i writes its slot, meets the others, then reads core i + 1's slot: a hard SyncAll (built on
    CrossCoreSetFlag, mode 0) or the GM-workspace one (plain GM accesses)."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    i = asc.get_block_idx()
    n = asc.get_block_num()
    z_gm.set_value(i * S, 10 * (i + 1))
    asc.data_cache_clean_and_invalid(DCCI, z_gm[i * S])
    if hard:
        asc.sync_all()
    else:
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, 8 * 32)
        ub = buf.get(asc.int32)
        w_gm = asc.GlobalTensor()
        w_gm.set_global_buffer(z + 2 * n * S)
        asc.sync_all(w_gm, ub)
    z_gm.set_value((n + i) * S, z_gm.get_value(((i + 1) % n) * S))


@pytest.mark.parametrize("hard,kt", [(True, KernelType.MIX_AIV_1_0), (False, KernelType.AIV_ONLY)])
def test_a_hard_sync_all_makes_mix_aiv_1_0(hard: bool, kt: KernelType) -> None:
    """SyncAll.md: a vector kernel with the hard SyncAll is declared __mix__(0, 1), not __vector__; the
    GM-workspace SyncAll needs nothing of the kind."""
    cores = 3
    z = np.zeros(2 * cores * S + 8 * 8 * cores, np.int32)
    sync_all_kernel[cores](z, hard)
    assert compiled(sync_all_kernel, kt).kernel_type == kt
    first = [10 * (i + 1) for i in range(cores)]
    assert z[: cores * S : S].tolist() == first
    assert z[cores * S : 2 * cores * S : S].tolist() == first[1:] + first[:1]
    has_decl = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);" in compiled(sync_all_kernel, kt).ascendc()
    assert has_decl == hard


# ---- the cores of a launch and what each sees ----------------------------------------------------------------

@asc.jit
def whoami_kernel(z: asc.GlobalAddress, n_aiv: int):
    """Every core writes its role and indices into its own slot: the AIVs at GetBlockIdx, the AICs after them."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    aic = asc.ascend_is_aic()
    slot = asc.get_block_idx()
    if aic:
        slot = n_aiv + asc.get_block_idx()
    base = slot * S
    z_gm.set_value(base, 1 + asc.ascend_is_aic())
    z_gm.set_value(base + 1, asc.get_block_idx())
    z_gm.set_value(base + 2, asc.get_sub_block_idx())
    z_gm.set_value(base + 3, asc.get_block_num())
    z_gm.set_value(base + 4, asc.get_sub_block_num())
    z_gm.set_value(base + 5, asc.get_task_ratio())


# (kernel type, AICs per AI Core, AIVs per AI Core), the devkit's GetBlockNum / GetBlockIdx pages
LAYOUTS = [
    (KernelType.AIV_ONLY, 0, 1),
    (KernelType.MIX_AIV_1_0, 0, 1),
    (KernelType.AIC_ONLY, 1, 0),
    (KernelType.MIX_AIC_1_0, 1, 0),
    (KernelType.MIX_AIC_1_1, 1, 1),
    (KernelType.MIX_AIC_1_2, 1, 2),
]


@pytest.mark.parametrize("kt,aic,aiv", LAYOUTS)
@pytest.mark.parametrize("cores", [1, 3])
def test_each_core_sees_its_indices(kt: KernelType, aic: int, aiv: int, cores: int) -> None:
    n_aiv = cores * aiv
    z = np.full((n_aiv + cores * aic) * S, -1, np.int32)
    whoami_kernel[cores](z, n_aiv, kernel_type=kt)
    rows = z.reshape(-1, S)[:, :FIELDS]
    want = []
    for g in range(cores):  # the AIVs: GetBlockIdx = group * ratio + sub, GetSubBlockNum = ratio
        for s in range(aiv):
            want.append([1, g * aiv + s, s, cores, aiv, aiv])
    for g in range(cores):  # the AICs: GetBlockIdx = group, one sub-block
        want.append([2, g, 0, cores, 1, 1] if aic else None)
    want = [w for w in want if w is not None]
    assert rows.tolist() == want
    assert compiled(whoami_kernel, kt).kernel.launch_blocks(cores) == cores * (aic + aiv)


@asc.jit
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """A vector kernel made MIX by asking the cube core's role: the AIC runs the scalar code, but its copies
    and vector instructions do nothing (the devkit's impls run them under ASCEND_IS_AIV), so each AIV alone
    adds its tile."""
    i = asc.get_block_idx()
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg = asc.GlobalTensor()
    yg.set_global_buffer(y)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, n * 4, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 8, n)
    asc.data_copy(a, xg[i * n :], n)
    asc.data_copy(b, yg[i * n :], n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(c, a, b, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    if asc.ascend_is_aiv():
        asc.data_copy(zg[i * n :], c, n)
    else:
        asc.data_copy(zg[(asc.get_block_num() * 2 + i) * n :], c, n)  # on the AIC: does nothing


@pytest.mark.parametrize("cores", [1, 2])
def test_the_other_cores_instructions_do_nothing(cores: int) -> None:
    n = 64
    rng = np.random.default_rng(5)
    x = rng.standard_normal(2 * cores * n).astype(np.float32)
    y = rng.standard_normal(2 * cores * n).astype(np.float32)
    z = np.full(3 * cores * n, 7.0, np.float32)
    add_kernel[cores](x, y, z, n, kernel_type=KernelType.MIX_AIC_1_2)
    np.testing.assert_array_equal(z[: 2 * cores * n], x + y)
    assert (z[2 * cores * n :] == 7.0).all()  # the AIC's copy out never happened


# ---- cross-core flags ----------------------------------------------------------------------------------------

@asc.jit
def handoff_kernel(ws: asc.GlobalAddress, z: asc.GlobalAddress, flags: asc.ConstExpr[bool], rounds: int):
    """Each round the AIC writes a value into the GM workspace and sets flag 1 (mode 2); its AIVs wait, read it,
    write their answers and set flag 2; the AIC waits for both and sums them."""
    w = asc.GlobalTensor()
    w.set_global_buffer(ws)
    o = asc.GlobalTensor()
    o.set_global_buffer(z)
    g = asc.get_block_idx()
    n = asc.get_block_num()
    for r in range(rounds):
        if asc.ascend_is_aic():
            w.set_value(g * S, 10 * g + r)
            asc.data_cache_clean_and_invalid(DCCI, w[g * S])
            if flags:
                asc.cross_core_set_flag(1, 2, asc.PipeID.PIPE_FIX)
                asc.cross_core_wait_flag(2, 2, asc.PipeID.PIPE_FIX)
            # drop the lines read in the previous round: the AIVs wrote them again since
            asc.data_cache_clean_and_invalid(DCCI, w[(n + g * 2) * S])
            asc.data_cache_clean_and_invalid(DCCI, w[(n + g * 2 + 1) * S])
            s = w.get_value((n + g * 2) * S) + w.get_value((n + g * 2 + 1) * S)
            o.set_value((r * n + g) * S, s)
        else:
            if flags:
                asc.cross_core_wait_flag(1, 2, asc.PipeID.PIPE_MTE2)
            asc.data_cache_clean_and_invalid(DCCI, w[(g // 2) * S])
            v = w.get_value((g // 2) * S)
            w.set_value((n + g) * S, v * 100 + asc.get_sub_block_idx())
            asc.data_cache_clean_and_invalid(DCCI, w[(n + g) * S])
            if flags:
                asc.cross_core_set_flag(2, 2, asc.PipeID.PIPE_MTE3)


@pytest.mark.parametrize("cores,rounds", [(1, 1), (3, 1), (2, 4)])
def test_cross_core_flags_order_a_gm_handoff(cores: int, rounds: int) -> None:
    ws = np.zeros(3 * cores * S, np.int32)
    z = np.zeros(rounds * cores * S, np.int32)
    handoff_kernel[cores](ws, z, True, rounds, sanitize="error")
    got = z[::S].reshape(rounds, cores)
    want = [[2 * (10 * g + r) * 100 + 1 for g in range(cores)] for r in range(rounds)]
    assert got.tolist() == want
    src = ascendc(handoff_kernel)
    assert "AscendC::CrossCoreSetFlag<2, PIPE_FIX>(1);" in src
    assert "AscendC::CrossCoreWaitFlag<2, PIPE_MTE2>(1);" in src


def test_without_the_flags_the_sanitizer_sees_the_race() -> None:
    with pytest.raises(asc.SanitizerError, match="data race on GM between blocks"):
        handoff_kernel[1](np.zeros(3 * S, np.int32), np.zeros(S, np.int32), False, 1, sanitize="error")


@asc.jit
def aiv_pair_kernel(z: asc.GlobalAddress):
    """Mode 1: AIV 0 of each AI Core writes; after the pair's flag AIV 1 reads it."""
    o = asc.GlobalTensor()
    o.set_global_buffer(z)
    if asc.ascend_is_aiv():
        i = asc.get_block_idx()
        sub = asc.get_sub_block_idx()
        if sub == 0:
            o.set_value(i * S, 5 + i)
            asc.data_cache_clean_and_invalid(DCCI, o[i * S])
        asc.cross_core_set_flag(4, 1, asc.PipeID.PIPE_MTE3)
        asc.cross_core_wait_flag(4, 1, asc.PipeID.PIPE_MTE3)
        if sub == 1:
            o.set_value(i * S, o.get_value((i - 1) * S) * 2)


@pytest.mark.parametrize("cores", [1, 4])
def test_mode_1_orders_the_vector_cores_of_an_ai_core(cores: int) -> None:
    z = np.zeros(2 * cores * S, np.int32)
    aiv_pair_kernel[cores](z, sanitize="error")
    got = z[::S].reshape(cores, 2)
    assert got.tolist() == [[5 + 2 * g, 2 * (5 + 2 * g)] for g in range(cores)]


@asc.jit
def all_aic_kernel(z: asc.GlobalAddress):
    """Mode 0 among the cube cores of a MIX kernel: every AIC writes, then reads the next one's slot."""
    o = asc.GlobalTensor()
    o.set_global_buffer(z)
    if asc.ascend_is_aic():
        g = asc.get_block_idx()
        n = asc.get_block_num()
        o.set_value(g * S, 3 * g + 1)
        asc.data_cache_clean_and_invalid(DCCI, o[g * S])
        asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_FIX)
        asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_FIX)
        o.set_value((n + g) * S, o.get_value(((g + 1) % n) * S))


def test_mode_0_orders_all_the_cube_cores() -> None:
    cores = 3
    z = np.zeros(2 * cores * S, np.int32)
    all_aic_kernel[cores](z, sanitize="error")
    first = [3 * g + 1 for g in range(cores)]
    assert z[::S].tolist() == first + first[1:] + first[:1]


@asc.jit
def deadlock_kernel(z: asc.GlobalAddress):
    if asc.ascend_is_aiv():
        asc.cross_core_wait_flag(6, 2, asc.PipeID.PIPE_MTE2)  # <- never set
    else:
        asc.cross_core_set_flag(7, 2, asc.PipeID.PIPE_FIX)


def test_a_wait_no_core_can_satisfy_is_a_deadlock() -> None:
    fails_at(deadlock_kernel, (np.zeros(8, np.int32),), "# <- never set", "deadlock",
             "asc.cross_core_wait_flag(flag_id=6, mode_id=2)")


@asc.jit
def overflow_late_kernel(z: asc.GlobalAddress):
    if asc.ascend_is_aic():
        for _ in range(16):
            asc.cross_core_set_flag(5, 2, asc.PipeID.PIPE_FIX)  # <- the 16th
        asc.cross_core_set_flag(6, 2, asc.PipeID.PIPE_FIX)
    else:
        asc.cross_core_wait_flag(6, 2, asc.PipeID.PIPE_MTE2)
        asc.cross_core_wait_flag(5, 2, asc.PipeID.PIPE_MTE2)


def test_a_counter_past_15_is_a_kernel_error() -> None:
    # the AIVs wait for flag 6 first, which the AIC sets after its 16 sets of flag 5: none is consumed
    fails_at(overflow_late_kernel, (np.zeros(8, np.int32),), "# <- the 16th", "would exceed 15")


@asc.jit
def aiv_only_flag_kernel(z: asc.GlobalAddress):
    asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_MTE3)  # <- no scheduler


def test_cross_core_flags_need_a_mix_kernel_type() -> None:
    with pytest.raises(asc.KernelError, match="AIV_ONLY, whose launches start no cross-core scheduler"):
        aiv_only_flag_kernel[1](np.zeros(8, np.int32), kernel_type=KernelType.AIV_ONLY)


@asc.jit
def bad_flag_kernel(z: asc.GlobalAddress, which: asc.ConstExpr[int]):
    if which == 0:
        asc.cross_core_set_flag(0, 3, asc.PipeID.PIPE_V)  # <- bad
    elif which == 1:
        asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_S)  # <- bad
    elif which == 2:
        asc.cross_core_wait_flag(16, 0, asc.PipeID.PIPE_V)  # <- bad
    else:
        asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_ALL)  # <- bad


@pytest.mark.parametrize("which,fragment", [(0, "mode_id = 3"), (1, "PipeID.PIPE_S is not allowed"),
                                            (2, "flag_id = 16 is not in 0..15"), (3, "PipeID.PIPE_ALL")])
def test_bad_flag_arguments_are_compile_errors(which: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError, match=fragment.replace(".", r"\.")):
        bad_flag_kernel[1](np.zeros(8, np.int32), which)


def test_mix_ascendc_compiles() -> None:
    handoff_kernel[1](np.zeros(3 * S, np.int32), np.zeros(S, np.int32), True, 1)
    src = ascendc(handoff_kernel)
    assert src.index("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);") < src.index("GlobalTensor")


# ---- SyncAll and printf on the cores of a MIX launch ---------------------------------------------------------

@asc.jit
def mix_barrier_kernel(z: asc.GlobalAddress, aic_joins: asc.ConstExpr[bool], all_cores: asc.ConstExpr[bool]):
    """Every vector core writes its slot; after the barrier, vector core i reads core i + 1's (of the AIVs). The
    AIC writes 1 in its own slot before the barrier when it joins; with all_cores the barrier is
    SyncAll<false>, which the AIC joins too."""
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    i = asc.get_block_idx()
    n = asc.get_block_num() * 2
    if asc.ascend_is_aiv():
        z_gm.set_value(i * S, 10 * (i + 1))
        asc.data_cache_clean_and_invalid(DCCI, z_gm[i * S])
        if all_cores:
            asc.sync_all(is_aiv_only=False)
        else:
            asc.sync_all()
        z_gm.set_value((n + i) * S, z_gm.get_value(((i + 1) % n) * S))
    elif aic_joins:
        z_gm.set_value((2 * n + i) * S, 1)
        if all_cores:
            asc.sync_all(is_aiv_only=False)
        else:
            asc.sync_all()  # SyncAll<true> on a cube core: a barrier of the cube cores


@pytest.mark.parametrize("cores", [1, 3])
@pytest.mark.parametrize("aic_joins,all_cores", [(False, False), (True, False), (True, True)])
def test_sync_all_in_a_mix_kernel_meets_the_cores_it_names(cores: int, aic_joins: bool, all_cores: bool) -> None:
    """SyncAll<true> (the default) is a barrier of the vector cores, which does not wait for the cube cores
    (dav_c220's SyncAllImpl, mode 0 per kind); SyncAll<false> is a barrier of every core."""
    n = 2 * cores
    z = np.zeros((2 * n + cores) * S, np.int32)
    mix_barrier_kernel[cores](z, aic_joins, all_cores, kernel_type=KernelType.MIX_AIC_1_2, sanitize="error")
    slots = z[::S]
    assert slots[:n].tolist() == [10 * (i + 1) for i in range(n)]
    assert slots[n : 2 * n].tolist() == [10 * ((i + 1) % n + 1) for i in range(n)]
    assert slots[2 * n :].tolist() == [1 if aic_joins else 0] * cores


@asc.jit
def mix_all_without_aic_kernel(z: asc.GlobalAddress):
    if asc.ascend_is_aiv():
        asc.sync_all(is_aiv_only=False)


def test_sync_all_of_every_core_without_the_cube_cores_is_a_deadlock() -> None:
    z = np.zeros(S, np.int32)
    with pytest.raises(asc.KernelError, match="deadlock"):
        mix_all_without_aic_kernel[1](z, kernel_type=KernelType.MIX_AIC_1_2)


@asc.jit
def printf_kernel(x: asc.GlobalAddress):
    asc.printf("core %d\n", asc.get_block_idx())


def test_printf_names_the_core_kind(capfd: pytest.CaptureFixture) -> None:
    """The devkit's printf prefix: [AIV Block i/GetBlockNum * ratio] on a vector core, [AIC Block
    i/GetBlockNum] on a cube core."""
    printf_kernel[2](np.zeros(8, np.int32), kernel_type=KernelType.MIX_AIC_1_2)
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == sorted([f"[AIV Block {i}/4] core {i}" for i in range(4)]
                           + [f"[AIC Block {g}/2] core {g}" for g in range(2)])
