"""The timing model's hardware mechanisms (docs/timing.md): UB bank conflicts of vector instructions, the L2 and
its bypass hint, the cost of bursts and of misaligned transfers, and the MIX Matmul's clients of one cube core
(their messages, and a MIX launch's start-up per AI Core).
Each test compares two launches that differ in one thing, on small shapes; the expected ratios come from the
devkit's measurements or from the model's parameters (asc.profiler.timing_params)."""

from __future__ import annotations

import math
from typing import Dict, List, Optional

import numpy as np
import pytest

import asc
from asc.profiler import LaunchProfile
from asc.profiler.data import KINDS, PIPES

P: Dict[str, float] = {name: value for name, value, _, _ in asc.profiler.timing_params("Ascend910B1")}


def profile(launch, params: Optional[dict] = None) -> LaunchProfile:
    with asc.profile(params=params) as prof:
        launch()
    assert len(prof.launches) == 1
    return prof.last


def durations(lp: LaunchProfile, pipe: str, block: int = 0) -> List[int]:
    """The block's instructions on `pipe`, in order: their cycles on it."""
    r = lp.blocks[block].records
    r = r[(r["pipe"] == PIPES.index(pipe)) & (r["kind"] == KINDS.index("op"))]
    r = r[np.argsort(r["start"], kind="stable")]
    return [int(x) for x in r["end"] - r["start"]]


# ---- UB bank conflicts (devkit bank_conflict_ub README) --------------------------------------------------------

@asc.jit
def bank_add(x: asc.GlobalAddress, z: asc.GlobalAddress, XA: asc.ConstExpr[int], YA: asc.ConstExpr[int],
             ZA: asc.ConstExpr[int], S0B: asc.ConstExpr[int], S0R: asc.ConstExpr[int]):
    """Four Adds of 64 repeats of float (level 0, mask 64) at the given UB addresses; src0's block and repeat
    strides S0B, S0R."""
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, XA, 4096)
    yl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, YA, 4096)
    zl = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, ZA, 4096)
    asc.data_copy(xl, xg, 4096)
    asc.data_copy(yl, xg, 4096)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    for _i in range(4):
        asc.add(zl, xl, yl, 64, 64, asc.BinaryRepeatParams(1, S0B, 1, 8, S0R, 8))
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, 4096)


def add_cycles(xa: int, ya: int, za: int, s0b: int = 1, s0r: int = 8) -> int:
    x = np.ones(4096, np.float32)
    z = np.zeros(4096, np.float32)
    lp = profile(lambda: bank_add[1](x, z, xa, ya, za, s0b, s0r))
    adds = durations(lp, "V")
    assert len(adds) == 4 and len(set(adds)) == 1
    return adds[0]


def test_read_read_conflict_costs_the_readme_ratio() -> None:
    """src0 and src1 in one bank group every repeat (scenarios 2 and 3): each repeat reads twice from a group.
    The README measures 4167 against 2390 ticks for 1000 Adds (x 1.74)."""
    free = add_cycles(0, 0x10100, 0x20000)
    same_bank = add_cycles(0, 0x4000, 0x10000)
    same_group = add_cycles(0, 0x10000, 0x14100)
    assert free == int(P["vec_issue_cycles"]) + 64  # one cycle a repeat
    assert same_bank == same_group
    assert same_bank / free == pytest.approx(4167 / 2390, rel=0.05)


def test_read_write_conflict_and_the_delayed_write() -> None:
    """dst over src0 bank by bank (scenario 4) or src1 = dst (scenario 6): the hardware delays the write a repeat,
    no conflict; dst one bank group off src0 (scenario 5): a read and a write meet in a bank every repeat,
    ub_rw_conflict_cycles more each (README: 3751 against 2390 ticks)."""
    free = add_cycles(0, 0x10100, 0x20000)
    assert add_cycles(0, 0x10100, 0x4000) == free
    assert add_cycles(0, 0x10100, 0x10100) == free
    rw = add_cycles(0, 0x10100, 0x4020)
    assert rw == int(P["vec_issue_cycles"]) + math.ceil(64 * (1 + P["ub_rw_conflict_cycles"]))
    assert rw / free == pytest.approx(3751 / 2390, rel=0.05)


def test_strides_decide_the_banks() -> None:
    """src0 reading one block a repeat (block stride 0): repeat stride 1 walks it through src1's bank groups every
    other repeat (scenario 7), repeat stride 8 keeps it out of them (scenario 8)."""
    free = add_cycles(0, 0x10100, 0x20000)
    assert add_cycles(0, 0x10100, 0x10100, 0, 8) == free
    walk = add_cycles(0, 0x10100, 0x10100, 0, 1)
    assert walk == int(P["vec_issue_cycles"]) + 64 + 32  # half the repeats read a group twice


@asc.jit
def three_reads(z: asc.GlobalAddress, OP: asc.ConstExpr[int]):
    """Axpy (dst, src: two reads a repeat) or MulAddDst (dst, src0, src1: three) of 4096 floats, each operand in
    its own 64 KiB (another bank id), src0 256 bytes into its own."""
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 4096)
    s0 = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 65536 + 256, 4096)
    s1 = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 131072, 4096)
    asc.duplicate(d, 1.0, 4096)
    asc.duplicate(s0, 2.0, 4096)
    asc.duplicate(s1, 3.0, 4096)
    if OP == 0:
        asc.axpy(d, s0, 1.0, 4096)
    else:
        asc.mul_add_dst(d, s0, s1, 4096)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, d, 4096)


def test_three_source_reads_take_two_cycles_a_repeat() -> None:
    """24 blocks read a repeat cannot spread over 16 bank groups: MulAddDst runs at half Axpy's rate, as the
    devkit's vector throughput table lists (float: 32 and 64 elements a cycle)."""
    z = np.zeros(4096, np.float32)
    axpy = durations(profile(lambda: three_reads[1](z, 0)), "V")[3]
    np.testing.assert_array_equal(z, 3.0)
    mad = durations(profile(lambda: three_reads[1](z, 1)), "V")[3]
    np.testing.assert_array_equal(z, 7.0)
    vec = int(P["vec_issue_cycles"])
    assert axpy == vec + 64 and mad == vec + 128


# ---- the L2 and its bypass hint --------------------------------------------------------------------------------

# the copies below refill one UB buffer without waiting (as the devkit's data_copy example does): a race the
# sanitizer reports, which does not matter to these timing tests
@asc.jit(sanitize="off")
def reread(x: asc.GlobalAddress, N: asc.ConstExpr[int], TIMES: asc.ConstExpr[int], BYPASS: asc.ConstExpr[int]):
    """N floats read TIMES times in 16 KiB copies (BYPASS 1: with the L2 hint CACHE_MODE_DISABLE; 2: the hint,
    then set_global_buffer again, which keeps it)."""
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    if BYPASS >= 1:
        g.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    if BYPASS == 2:
        g.set_global_buffer(x)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 4096)
    for _t in range(TIMES):
        for i in range(N // 4096):
            asc.data_copy(ub, g[i * 4096:], 4096)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


L2_SMALL = {"l2_size_mb": 1.0}  # 1 MiB of L2 for the core: working sets of 256 KiB fit, of 2 MiB do not


def copy_cycles(n: int, times: int, bypass: int = 0) -> List[int]:
    x = np.zeros(n, np.float32)
    return durations(profile(lambda: reread[1](x, n, times, bypass), L2_SMALL), "MTE2")


def test_repeated_reads_of_a_small_working_set_hit_the_l2() -> None:
    small = copy_cycles(65536, 4)  # 256 KiB, 16 copies a round
    big = copy_cycles(524288, 4)   # 2 MiB, 128 copies a round
    dma, burst = P["dma_issue_cycles"], P["dma_burst_cycles"]
    miss = int(dma) + math.ceil(burst + 16384 / P["core_gm_bpc"])
    hit = int(dma) + math.ceil(burst + 16384 / P["core_l2_bpc"])
    # the first round misses, the next three hit
    assert small[:16] == [miss] * 16 and small[16:] == [hit] * 48
    # a working set larger than the core's L2 share: every round misses (least recently used lines go first)
    assert big == [miss] * len(big)
    assert sum(small) / len(small) < 0.5 * sum(big) / len(big)


@pytest.mark.parametrize("bypass", [1, 2])
def test_l2_bypass_hint_reads_gm_every_time(bypass: int) -> None:
    """The hint goes with the tensor's views and survives set_global_buffer (the devkit's cacheMode_)."""
    bypassed = copy_cycles(65536, 4, bypass=bypass)
    miss = int(P["dma_issue_cycles"]) + math.ceil(P["dma_burst_cycles"] + 16384 / P["core_gm_bpc"])
    assert bypassed == [miss] * 64


@asc.jit(sanitize="off")
def write_then_read(x: asc.GlobalAddress, z: asc.GlobalAddress, N: asc.ConstExpr[int]):
    """Writes N floats (in 16 KiB copies), then reads them back."""
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 4096)
    asc.data_copy(ub, xg, 4096)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    for i in range(N // 4096):
        asc.data_copy(zg[i * 4096:], ub, 4096)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    for i in range(N // 4096):
        asc.data_copy(ub, zg[i * 4096:], 4096)


def test_written_data_is_read_back_from_the_l2() -> None:
    """Writes go into the L2 (write back): reading them back hits."""
    n = 65536
    x = np.arange(4096, dtype=np.float32)
    z = np.zeros(n, np.float32)
    lp = profile(lambda: write_then_read[1](x, z, n), L2_SMALL)
    np.testing.assert_array_equal(z, np.tile(x, 16))
    hit = int(P["dma_issue_cycles"]) + math.ceil(P["dma_burst_cycles"] + 16384 / P["core_l2_bpc"])
    assert durations(lp, "MTE2")[1:] == [hit] * 16


# ---- bursts and alignment ---------------------------------------------------------------------------------------

@asc.jit
def pad_copy(x: asc.GlobalAddress, OFF: asc.ConstExpr[int], COUNT: asc.ConstExpr[int], LEN: asc.ConstExpr[int],
             STRIDE: asc.ConstExpr[int]):
    """One DataCopyPad GM -> UB of COUNT bursts of LEN bytes, STRIDE bytes apart in GM, from byte OFF of x."""
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 32768)
    asc.data_copy_pad(ub, g[OFF // 2:], asc.DataCopyParams(COUNT, LEN, STRIDE, 0), asc.DataCopyPadParams(False, 0, 0, 0))
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def pad_cycles(off: int, count: int, length: int, stride: int = 0) -> int:
    x = np.zeros(131072, np.float16)
    (c,) = durations(profile(lambda: pad_copy[1](x, off, count, length, stride)), "MTE2")
    return c


def test_small_transfers_cost_more_per_byte() -> None:
    """A copy's fixed cost (dma_issue_cycles) and each burst's (dma_burst_cycles): 128 bytes cost more per byte
    than 8 KiB in one burst, and 8 KiB in 64 bursts of 128 bytes (DataCopyParams blockCount 64) more than in one."""
    small = pad_cycles(0, 1, 128)
    one = pad_cycles(0, 1, 8192)
    bursts = pad_cycles(0, 64, 128, 384)
    assert small / 128 > 3 * one / 8192
    assert bursts == int(P["dma_issue_cycles"]) + math.ceil(64 * P["dma_burst_cycles"] + 8192 / P["core_gm_bpc"])
    assert bursts > one


@asc.jit(sanitize="off")
def pad_twice(x: asc.GlobalAddress, COUNT: asc.ConstExpr[int], LEN: asc.ConstExpr[int], STRIDE: asc.ConstExpr[int]):
    """The same DataCopyPad GM -> UB of COUNT bursts of LEN bytes twice: the second read finds them in the L2."""
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    ub = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 32768)
    for _i in range(2):
        asc.data_copy_pad(ub, g, asc.DataCopyParams(COUNT, LEN, STRIDE, 0), asc.DataCopyPadParams(False, 0, 0, 0))
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def mte2_records(lp: LaunchProfile) -> np.ndarray:
    r = lp.blocks[0].records
    r = r[(r["pipe"] == PIPES.index("MTE2")) & (r["kind"] == KINDS.index("op"))]
    return r[np.argsort(r["start"], kind="stable")]


def test_short_bursts_and_the_latency_of_l2_hits() -> None:
    """A read the L2 serves whole returns l2_read_latency after its last byte (HBM: gm_read_latency), and a burst's
    bytes take at least dma_burst_min_cycles: 128-byte rows from the L2 in 2.255 cycles each, not 128 / 110 (both
    fitted to matmul_high_performance Cases 0-1's MTE2 time: rows of 128 bytes read from the L2); from HBM a row of
    128 bytes takes its 4 cycles at 32 bytes a cycle, as before."""
    x = np.zeros(65536, np.float16)
    rows = mte2_records(profile(lambda: pad_twice[1](x, 64, 128, 384)))
    dma, burst = P["dma_issue_cycles"], P["dma_burst_cycles"]
    miss, hit = rows
    assert int(miss["end"] - miss["start"]) == int(dma) + math.ceil(64 * (burst + 128 / P["core_gm_bpc"]) - 1e-9)
    assert int(hit["end"] - hit["start"]) == int(dma) + math.ceil(64 * (burst + P["dma_burst_min_cycles"]) - 1e-9)
    assert P["dma_burst_min_cycles"] > 128 / P["core_l2_bpc"]
    assert int(miss["done"] - miss["end"]) == P["gm_read_latency"]
    assert int(hit["done"] - hit["end"]) == P["l2_read_latency"] < P["gm_read_latency"]
    # long bursts from the L2 keep their rate: one of 8 KiB
    big = mte2_records(profile(lambda: pad_twice[1](x, 1, 8192, 0)))
    assert int(big[1]["end"] - big[1]["start"]) == int(dma) + math.ceil(burst + 8192 / P["core_l2_bpc"] - 1e-9)


def test_misaligned_transfers_move_whole_lines() -> None:
    """A burst whose GM address is not 32-byte aligned moves every 512-byte L2 line it touches: 2048 bytes at an
    offset of 2 touch 5 lines (the data_copy README: misaligned rows about 1.25x slower)."""
    aligned = pad_cycles(0, 1, 2048)
    off = pad_cycles(2, 1, 2048)
    tail = pad_cycles(0, 1, 2046)  # a length that is not whole blocks: its 4 lines
    dma, burst, cap = P["dma_issue_cycles"], P["dma_burst_cycles"], P["core_gm_bpc"]
    assert aligned == int(dma) + math.ceil(burst + 2048 / cap)
    assert off == int(dma) + math.ceil(burst + 5 * 512 / cap)
    assert tail == int(dma) + math.ceil(burst + 4 * 512 / cap)
    assert off / aligned == pytest.approx(1.25, rel=0.05)


def test_line_size_overrides_are_checked() -> None:
    """A line is a power of two of at least one 32-byte block."""
    x = np.zeros(131072, np.float16)
    (c,) = durations(profile(lambda: pad_copy[1](x, 2, 1, 2048, 0), {"l2_line_bytes": 256.0}), "MTE2")
    assert c == int(P["dma_issue_cycles"]) + math.ceil(P["dma_burst_cycles"] + 9 * 256 / P["core_gm_bpc"])
    for bad in (100.0, 16.0):
        with pytest.raises(ValueError, match="l2_line_bytes"):
            profile(lambda: pad_copy[1](x, 0, 1, 128, 0), {"l2_line_bytes": bad})


# ---- a MIX Matmul: its vector cores are clients of one cube core ---------------------------------------------

@asc.jit
def mm_all(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
           workspace: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + asc.get_block_idx() * tiling.m * tiling.n)  # each vector core its own C
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.disable_bias()
    mm.iterate_all(c_g)
    mm.end()


def run_mm(kt: asc.KernelType, params: Optional[dict] = None, cores: int = 1) -> LaunchProfile:
    m = n = k = 64
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    c = np.zeros((2 * cores, m, n), np.float32)
    t = asc.adv.TCubeTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, base_m=64, base_n=64, base_k=64,
                            single_core_m=m, single_core_n=n, single_core_k=k, depth_a1=1, depth_b1=1, step_m=1,
                            step_n=1, share_mode=0, is_bias=0)
    lp = profile(lambda: mm_all[cores, None](a, b, c, t, np.zeros(1024, np.uint8), kernel_type=kt), params)
    np.testing.assert_allclose(c[0], a.astype(np.float32) @ b.astype(np.float32))
    return lp


def test_mix_clients_share_the_cube_core() -> None:
    """In a MIX kernel (1:2) each vector core's Matmul is served by its AI Core's one cube core: the cube's pipes
    do each client's work in half their time, and every message the client posts (Init, given the tiling at
    register_matmul; IterateAll; End; and the Quit of its KfcCommClient when the kernel ends) waits
    mix_message_cycles for each client of the server."""
    cube = run_mm(asc.KernelType.AIC_ONLY)
    mix = run_mm(asc.KernelType.MIX_AIC_1_2)
    quiet = run_mm(asc.KernelType.MIX_AIC_1_2, {"mix_message_cycles": 0.0})
    # block 1: the first vector core of the group (block 0 is the cube core, idle in the server loop)
    assert durations(mix, "M", 1) == [2 * d for d in durations(cube, "M")]
    assert durations(mix, "FIX", 1) == [2 * d for d in durations(cube, "FIX")]
    assert sum(durations(cube, "M")) > 0

    m = P["mix_message_cycles"]
    assert m > 0
    assert s_busy(mix, 1) - s_busy(quiet, 1) == 4 * 2 * m
    assert mix.blocks[1].cycles - quiet.blocks[1].cycles >= 4 * 2 * m


def test_mix_client_posts_a_quit_at_the_end() -> None:
    """The client's last message is its Quit (KfcCommClient's destructor): the block's last scalar work, shown at
    the register_matmul that made the client; the AI Core ends when the server has handled it."""
    mix = run_mm(asc.KernelType.MIX_AIC_1_2)
    quiet = run_mm(asc.KernelType.MIX_AIC_1_2, {"mix_message_cycles": 0.0})
    m = P["mix_message_cycles"]
    r = mix.blocks[1].records
    scalar = r[(r["pipe"] == PIPES.index("S")) & (r["kind"] == KINDS.index("scalar"))]
    last = scalar[np.argmax(scalar["end"])]
    assert int(last["end"] - last["start"]) == 2 * m
    assert int(last["end"]) == mix.blocks[1].cycles

    def register_scalar(lp: LaunchProfile) -> int:
        return next(h.scalar for h in lp.hotspots() if "matmul.register" in h.apis)

    # both vector cores: Init (the tiling given) and Quit, each 2 x m
    assert register_scalar(mix) - register_scalar(quiet) == 2 * 2 * 2 * m


@pytest.mark.parametrize("kt", [asc.KernelType.AIC_ONLY, asc.KernelType.MIX_AIC_1_1, asc.KernelType.MIX_AIC_1_2])
def test_mix_start_up_counts_ai_cores(kt: asc.KernelType) -> None:
    """A MIX launch starts AI Cores, each a cube core and its vector cores together (the devkit's pure-Cube guide
    page: MIX numBlocks is the AI Cores started): the start-up grows with the AI Cores, as an AIC_ONLY launch's
    with its cube cores; every block (cube and vector cores) starts after it."""
    lp = run_mm(kt, cores=2)
    assert lp.block_start_cycles == math.ceil(P["block_start_per_core_cycles"] * 2)
    for blk in lp.blocks:
        assert blk.records.size == 0 or int(blk.records["start"].min()) >= lp.block_start_cycles


def s_busy(lp: LaunchProfile, block: int) -> float:
    """The block's scalar-unit busy cycles."""
    return next(r["busy_cycles"] for r in lp.pipe_table(per_block=True) if r["block"] == block and r["pipe"] == "S")


# ---- the Matmul implementation's own scalar work (devkit impl/adv_api/detail/matmul/) --------------------------

def hot_scalar(lp: LaunchProfile, api: str) -> int:
    """The scalar-unit cycles of the lines whose APIs name `api`."""
    return sum(h.scalar for h in lp.hotspots() if any(api in a for a in h.apis))


def first_start(lp: LaunchProfile, pipe: str, block: int = 0) -> int:
    r = lp.blocks[block].records
    r = r[(r["pipe"] == PIPES.index(pipe)) & (r["kind"] == KINDS.index("op"))]
    return int(r["start"].min())


def test_matmul_scalar_work_per_instruction() -> None:
    """The devkit's Matmul computes each cube instruction's parameters, does its buffer's queue operations and steps
    its loops on the scalar unit before it issues the instruction, and sets up its buffers at Init: mm_instr_cycles
    for each instruction (here one base block of one K step: the GM->L1 copies of A and B, two loads, an Mmad, a
    Fixpipe) and for each buffer Init sets up (A's and B's L1 queues, L0A, L0B, L0C), shown at the API's line; the
    pipes' work does not change."""
    c = P["mm_instr_cycles"]
    assert c > 0
    cube = run_mm(asc.KernelType.AIC_ONLY)
    idle = run_mm(asc.KernelType.AIC_ONLY, {"mm_instr_cycles": 0.0})
    assert s_busy(cube, 0) - s_busy(idle, 0) == (5 + 6) * c
    assert hot_scalar(cube, "register") - hot_scalar(idle, "register") == 5 * c
    assert hot_scalar(cube, "iterate_all") - hot_scalar(idle, "iterate_all") == 6 * c
    # before the instructions: the first copy waits for the Init's work and its own
    assert first_start(cube, "MTE2") - first_start(idle, "MTE2") == 6 * c
    for pipe in ("MTE2", "MTE1", "M", "FIX"):
        assert durations(cube, pipe) == durations(idle, pipe)


@asc.jit
def mm_bias(a: asc.GlobalAddress, b: asc.GlobalAddress, bias: asc.GlobalAddress, c: asc.GlobalAddress,
            tiling: asc.adv.TCubeTiling, workspace: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.set_bias(bias_g)
    mm.iterate_all(c_g)
    mm.end()


def test_matmul_scalar_work_counts_k_steps_and_the_bias() -> None:
    """Each K step issues its copies of A and B (depth 1: no tile stays in L1), two loads and an Mmad; the block its
    bias's copy and load and its Fixpipe; Init, given a tiling with a bias, also sets up the bias's L1 and bias-table
    buffers: 7 buffers and 2 x 5 + 3 instructions for a block of two K steps."""
    c = P["mm_instr_cycles"]
    m, n, k = 32, 32, 64
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    bias = rng.integers(-3, 3, (1, n)).astype(np.float32)
    out = np.zeros((m, n), np.float32)
    t = asc.adv.TCubeTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, base_m=32, base_n=32, base_k=32,
                            single_core_m=m, single_core_n=n, single_core_k=k, depth_a1=1, depth_b1=1, step_m=1,
                            step_n=1, step_k_a=1, step_k_b=1, share_mode=0, is_bias=1)

    def run(params: Optional[dict]) -> LaunchProfile:
        lp = profile(lambda: mm_bias[1, None](a, b, bias, out, t, np.zeros(1024, np.uint8),
                                              kernel_type=asc.KernelType.AIC_ONLY), params)
        np.testing.assert_allclose(out, a.astype(np.float32) @ b.astype(np.float32) + bias)
        return lp

    lp, idle = run(None), run({"mm_instr_cycles": 0.0})
    assert len(durations(lp, "MTE2")) == 2 * 2 + 1
    assert hot_scalar(lp, "register") - hot_scalar(idle, "register") == 7 * c
    assert hot_scalar(lp, "iterate_all") - hot_scalar(idle, "iterate_all") == (2 * 5 + 3) * c


def test_mix_server_does_each_clients_matmul_work() -> None:
    """In a MIX kernel the cube core's server runs the Matmul for each of its clients in turn: each client's
    Matmul scalar work (its Init's 5 buffers, its 6 instructions) takes the server the time of all its clients'."""
    c = P["mm_instr_cycles"]
    mix = run_mm(asc.KernelType.MIX_AIC_1_2)
    idle = run_mm(asc.KernelType.MIX_AIC_1_2, {"mm_instr_cycles": 0.0})
    assert s_busy(mix, 1) - s_busy(idle, 1) == 2 * (5 + 6) * c


def test_mix_message_comes_before_the_calls_work() -> None:
    """The server takes a call's message before it does the call's work: a MIX client's IterateAll starts its cube
    work (the first GM->L1 copy) after its Init's and its IterateAll's messages have been handled, each waiting
    mix_message_cycles for every client of the server."""
    m = P["mix_message_cycles"]
    mix = run_mm(asc.KernelType.MIX_AIC_1_2)
    quiet = run_mm(asc.KernelType.MIX_AIC_1_2, {"mix_message_cycles": 0.0})
    assert first_start(mix, "MTE2", 1) - first_start(quiet, "MTE2", 1) == 2 * 2 * m
    assert s_busy(mix, 1) - s_busy(quiet, 1) == 4 * 2 * m


@asc.jit
def mm_ub(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
          workspace: asc.GlobalAddress):
    """Each vector core: C's block into a UB tensor (get_tensor_c), + 1 on the vector unit, out to its own C."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + asc.get_block_idx() * tiling.m * tiling.n)
    block = tiling.base_m * tiling.base_n
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=q, num=1, len=block * c.dtype.sizeof())
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.disable_bias()
    with mm.iterate() as _count:
        out = q.alloc_tensor(c.dtype)
        mm.get_tensor_c(out, en_sequential_write=True)
        asc.adds(out, out, 1.0, count=block)
        q.enque(out)
        out = q.deque(c.dtype)
        asc.data_copy(c_g, out, count=block)
        q.free_tensor(out)
    mm.end()


def test_mix_get_tensor_c_into_the_ub_goes_through_gm() -> None:
    """On arch 2201 a MIX kernel's cube core reaches no UB: GetTensorC into a UB tensor has the server's Fixpipe
    write C to GM, and the client copy it in on its MTE2 once the server's event came, then make V wait for the copy
    (matmul_client.h, CopyToUB: DataCopy, SetFlag / WaitFlag MTE2_V). Timing only: the values, and the sanitizer's
    view (it runs here and finds nothing), are those of the direct write."""
    m = n = k = 64
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    out = np.zeros((2, m, n), np.float32)
    t = asc.adv.TCubeTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, base_m=64, base_n=64, base_k=64,
                            single_core_m=m, single_core_n=n, single_core_k=k, depth_a1=1, depth_b1=1, step_m=1,
                            step_n=1, share_mode=0, is_bias=0)
    lp = profile(lambda: mm_ub[1, None](a, b, out, t, np.zeros(1024, np.uint8),
                                        kernel_type=asc.KernelType.MIX_AIC_1_2))
    for i in range(2):
        np.testing.assert_allclose(out[i], a.astype(np.float32) @ b.astype(np.float32) + 1)
    r = lp.blocks[1].records
    at_get = np.array([lp.sites[s].op == "asc.matmul.get_tensor_c.local" for s in r["site"]])
    op = r["kind"] == KINDS.index("op")
    fix = r[at_get & op & (r["pipe"] == PIPES.index("FIX"))]
    (copy,) = r[at_get & op & (r["pipe"] == PIPES.index("MTE2")) & (r["bytes"] == m * n * 4)]
    assert copy["start"] >= fix["done"].max()
    assert copy["done"] - copy["end"] == P["l2_read_latency"]  # the bytes the Fixpipe just put in the L2
    (wait,) = r[at_get & (r["kind"] == KINDS.index("wait")) & (r["pipe"] == PIPES.index("V"))]
    assert wait["end"] == copy["done"]
    (adds,) = r[op & (r["pipe"] == PIPES.index("V"))]
    assert adds["start"] >= copy["done"]


@asc.jit
def mm_blocks(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
              workspace: asc.GlobalAddress):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c + asc.get_block_idx() * tiling.m * tiling.n)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, workspace, mm, tiling)
    mm.set_tensor_a(a_g)
    mm.set_tensor_b(b_g)
    mm.disable_bias()
    mm.iterate_all(c_g)
    mm.end()


def run_blocks(kt: asc.KernelType, params: Optional[dict] = None) -> LaunchProfile:
    """C = A B of 64 x 128 x 128 half in two base blocks of 64 x 64 (two K steps each)."""
    m, n, k = 64, 128, 128
    rng = np.random.default_rng(4)
    a = rng.integers(-3, 3, (m, k)).astype(np.float16)
    b = rng.integers(-3, 3, (k, n)).astype(np.float16)
    c = np.zeros((2, m, n), np.float32)
    t = asc.adv.TCubeTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, base_m=64, base_n=64, base_k=64,
                            single_core_m=m, single_core_n=n, single_core_k=k, depth_a1=1, depth_b1=1, step_m=1,
                            step_n=1, step_k_a=1, step_k_b=1, share_mode=0, is_bias=0)
    lp = profile(lambda: mm_blocks[1, None](a, b, c, t, np.zeros(1024, np.uint8), kernel_type=kt), params)
    np.testing.assert_allclose(c[0], a.astype(np.float32) @ b.astype(np.float32))
    return lp


def test_matmul_scalar_work_per_base_block() -> None:
    """Besides each instruction's, the devkit's Matmul does work once a base block (its M / N loop step, its L0C
    buffer's queue operations, the Fixpipe's parameters: MoveNext, CubeOutBuffer, CopyCubeOut): mm_block_cycles for
    each block, before its Fixpipe, shown at the call's line; in MIX the server does it for each client. Fitted
    (docs/timing.md) to matmul_high_performance Case 0's scalar time a K step with the pure-Cube case's."""
    blk = P["mm_block_cycles"]
    assert blk > 0
    cube = run_blocks(asc.KernelType.AIC_ONLY)
    idle = run_blocks(asc.KernelType.AIC_ONLY, {"mm_block_cycles": 0.0})
    assert s_busy(cube, 0) - s_busy(idle, 0) == 2 * blk
    assert hot_scalar(cube, "iterate_all") - hot_scalar(idle, "iterate_all") == 2 * blk
    # not before the first copy: Init's and the first instruction's work only
    assert first_start(cube, "MTE2") == first_start(idle, "MTE2")
    # the first block's Fixpipe is issued after its work
    def first_fix_issue(lp: LaunchProfile) -> int:
        r = lp.blocks[0].records
        return int(r[(r["pipe"] == PIPES.index("FIX")) & (r["kind"] == KINDS.index("op"))]["issue"].min())

    assert first_fix_issue(cube) - first_fix_issue(idle) == blk
    for pipe in ("MTE2", "MTE1", "M", "FIX"):
        assert durations(cube, pipe) == durations(idle, pipe)
    mix = run_blocks(asc.KernelType.MIX_AIC_1_2)
    mix_idle = run_blocks(asc.KernelType.MIX_AIC_1_2, {"mm_block_cycles": 0.0})
    assert s_busy(mix, 1) - s_busy(mix_idle, 1) == 2 * 2 * blk


def test_cube_issue_costs_are_their_own() -> None:
    """An Mmad costs cube_mmad_issue_cycles plus its fractals, a LoadData cube_load_issue_cycles plus its bytes at
    cube_load_bytes_per_cycle (fitted to matmul_high_performance Cases 0-1's aic_mac_time and aic_mte1_time): the
    vector unit's issue cost does not enter them."""
    base = run_blocks(asc.KernelType.AIC_ONLY)
    vec = run_blocks(asc.KernelType.AIC_ONLY, {"vec_issue_cycles": 1000.0})
    for pipe in ("M", "MTE1"):
        assert durations(vec, pipe) == durations(base, pipe)
    mmad = run_blocks(asc.KernelType.AIC_ONLY, {"cube_mmad_issue_cycles": P["cube_mmad_issue_cycles"] + 50})
    assert [d - 50 for d in durations(mmad, "M")] == durations(base, "M")
    load = run_blocks(asc.KernelType.AIC_ONLY, {"cube_load_issue_cycles": P["cube_load_issue_cycles"] + 7})
    assert [d - 7 for d in durations(load, "MTE1")] == durations(base, "MTE1")
    # a 64 x 64 half tile (8 KiB) a load: its bytes at the rate, in whole cycles
    assert durations(base, "MTE1")[0] == math.ceil(P["cube_load_issue_cycles"]) + math.ceil(
        8192 / P["cube_load_bytes_per_cycle"] - 1e-9)
    assert durations(base, "M")[0] == math.ceil(P["cube_mmad_issue_cycles"]) + 64
