"""The timing model: the cost of each instruction class and the dependency
rules between pipes (set_flag/wait_flag, pipe_barrier, the implicit flags of
TQue), the GM bandwidth model, launch-level figures and determinism.

Expected cycle counts are derived here from the model's parameters
(asc.profiler.timing_params), so the tests check the rules, not the numbers
of one parameter table."""

from __future__ import annotations

import math
from typing import Dict, List, Optional

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.profiler import LaunchProfile
from asc.profiler.data import KINDS, PIPES

P: Dict[str, float] = {name: value for name, value, _, _ in asc.profiler.timing_params("Ascend910B1")}
VEC = int(P["vec_issue_cycles"])
DMA = int(P["dma_issue_cycles"])
RD = int(P["gm_read_latency"])
WR = int(P["gm_write_latency"])
CAP = P["core_gm_bpc"]
BURST = P["dma_burst_cycles"]


def profile(kernel: asc.JITFunction, blocks: int, *args: object, params: Optional[dict] = None) -> LaunchProfile:
    with asc.profile(params=params) as prof:
        kernel[blocks](*args)
    assert len(prof.launches) == 1
    return prof.last


def recs(lp: LaunchProfile, block: int = 0, pipe: Optional[str] = None, kind: str = "op",
         api: Optional[str] = None) -> List[dict]:
    """The block's records (sorted by start) as dicts, filtered."""
    out = []
    r = lp.blocks[block].records
    for x in r[np.argsort(r["start"], kind="stable")]:
        site = lp.sites[x["site"]]
        d = {"start": int(x["start"]), "end": int(x["end"]), "done": int(x["done"]), "issue": int(x["issue"]),
             "pipe": PIPES[x["pipe"]], "kind": KINDS[x["kind"]], "api": site.api, "line": site.line,
             "bytes": int(x["bytes"])}
        if (pipe is None or d["pipe"] == pipe) and (kind is None or d["kind"] == kind) and \
                (api is None or d["api"] == api):
            out.append(d)
    return out


# ---- vector instruction classes ---------------------------------------------------------

@asc.jit
def vec_classes(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 4096)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 16384, 4096)
    # h in another UB bank than a: the cast below meets no bank conflict (test_timing_model.py has those)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 98304, 4096)
    i32 = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 49152, 4096)
    i64 = asc.LocalTensor(asc.int64, asc.TPosition.VECCALC, 65536, 4096)
    asc.data_copy(a, x_gm, 4096)
    asc.data_copy(i32, y_gm, 4096)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(b, a, a, n)
    asc.exp(b, a, n)
    asc.ln(b, a, n)
    asc.sqrt(b, a, n)
    asc.div(b, a, a, n)
    asc.reciprocal(b, a, n)
    asc.rsqrt(b, a, n)
    asc.muls(b, a, 2.0, n)
    asc.relu(b, a, n)
    asc.duplicate(b, 1.0, n)
    asc.cast(h, a, asc.RoundMode.CAST_NONE, n)
    asc.exp(h, h, n)
    asc.add(h, h, h, n)
    asc.cast(i64, i32, asc.RoundMode.CAST_NONE, n)
    asc.data_copy(b, a, 2048)


def expected_vec(kind: str, n: int, size: int) -> int:
    """Cycles of a vector instruction: fixed cost plus whole 256-byte repeats at the class's rate."""
    per_repeat = 256 // size
    repeats = math.ceil(n / per_repeat)
    if kind == "simple":
        return VEC + math.ceil(repeats * 256 / P["vec_bytes_per_cycle"])
    rate = {"transcendental": P["vec_transcendental_epc"], "division": P["vec_division_epc"],
            "cast64": P["vec_cast64_epc"]}[kind]
    return VEC + math.ceil(repeats * per_repeat / rate)


@pytest.mark.parametrize("n", [2048, 2000, 65])
def test_vector_op_classes(n: int) -> None:
    x = np.random.default_rng(0).random(4096).astype(np.float32) + 0.5
    y = np.arange(4096, dtype=np.int32)
    lp = profile(vec_classes, 1, x, y, n)
    v = recs(lp, pipe="V")
    got = [(r["api"], r["end"] - r["start"]) for r in v]
    want = [("asc.add", expected_vec("simple", n, 4)),
            ("asc.exp", expected_vec("transcendental", n, 4)),
            ("asc.ln", expected_vec("transcendental", n, 4)),
            ("asc.sqrt", expected_vec("transcendental", n, 4)),
            ("asc.div", expected_vec("division", n, 4)),
            # Reciprocal and Rsqrt run at full rate on Atlas A2 (the devkit's throughput table)
            ("asc.reciprocal", expected_vec("simple", n, 4)),
            ("asc.rsqrt", expected_vec("simple", n, 4)),
            ("asc.muls", expected_vec("simple", n, 4)),
            ("asc.relu", expected_vec("simple", n, 4)),
            ("asc.duplicate", expected_vec("simple", n, 4)),
            ("asc.cast", expected_vec("simple", n, 4)),  # float32 -> float16: by the wider type
            ("asc.exp", expected_vec("transcendental", n, 2)),  # half: 4 cycles per repeat
            ("asc.add", expected_vec("simple", n, 2)),
            ("asc.cast", expected_vec("cast64", n, 8)),  # int32 -> int64
            ("asc.data_copy", expected_vec("simple", 2048, 4))]  # UB -> UB on the vector unit
    assert got == want
    # a pipe runs its instructions in order, back to back when nothing else holds them
    for prev, cur in zip(v, v[1:]):
        assert cur["start"] == prev["end"]
    assert lp.blocks[0].bytes["UB->UB"] == 2048 * 4


def test_class_order_of_costs() -> None:
    """Division and transcendental ops cost more per element than simple ones, half more than float."""
    x = np.ones(4096, np.float32)
    y = np.ones(4096, np.int32)
    lp = profile(vec_classes, 1, x, y, 4096)
    d = {}
    for r in recs(lp, pipe="V"):
        d.setdefault(r["api"], r["end"] - r["start"])
    assert d["asc.div"] > d["asc.add"] and d["asc.exp"] > d["asc.muls"]
    assert d["asc.reciprocal"] == d["asc.add"]


# ---- data moves and GM bandwidth --------------------------------------------------------------

@asc.jit
def copy_through(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    """Each block: GM -> UB (MTE2), then UB -> GM (MTE3)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n, n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, a, n)


def test_data_move_cost_one_core() -> None:
    n = 8192  # 32 KiB of float32
    x = np.arange(n, dtype=np.float32)
    z = np.zeros_like(x)
    lp = profile(copy_through, 1, x, z, n)
    np.testing.assert_array_equal(z, x)
    (rd,) = recs(lp, pipe="MTE2")
    (wr,) = recs(lp, pipe="MTE3")
    nbytes = n * 4
    # one core alone: its own channel's rate (one burst); results complete after the GM latency
    assert rd["end"] - rd["start"] == DMA + math.ceil(BURST + nbytes / CAP)
    assert rd["done"] - rd["end"] == RD
    assert wr["end"] - wr["start"] == DMA + math.ceil(BURST + nbytes / CAP)
    assert wr["done"] - wr["end"] == WR
    # MTE3 starts when the wait_flag releases it: the read's data is complete
    (wait,) = recs(lp, pipe="MTE3", kind="wait")
    assert wait["end"] == rd["done"] + int(P["sync_cycles"]) and wr["start"] == wait["end"]
    assert {k: v for k, v in lp.blocks[0].bytes.items() if v} == {"GM->UB": nbytes, "UB->GM": nbytes}
    assert lp.memory_table()[0]["bytes"] == nbytes


def test_core_share_of_gm_bandwidth() -> None:
    """With every core streaming, each gets its share of the chip's GM bandwidth."""
    n, cores = 4096, 48
    x = np.arange(n * cores, dtype=np.float32)
    z = np.zeros_like(x)
    lp = profile(copy_through, cores, x, z, n)
    np.testing.assert_array_equal(z, x)
    share = P["gm_bandwidth_gbps"] * P["gm_efficiency"] / P["clock_ghz"] / cores
    assert lp.port_rate == pytest.approx(share)
    for b in (0, 47):
        (rd,) = recs(lp, b, pipe="MTE2")
        assert rd["end"] - rd["start"] == DMA + math.ceil(n * 4 / share)
    # half the bandwidth, about twice the transfer time
    slow = profile(copy_through, cores, x, z, n, params={"gm_bandwidth_gbps": P["gm_bandwidth_gbps"] / 2})
    (rd2,) = recs(slow, 0, pipe="MTE2")
    assert rd2["end"] - rd2["start"] == DMA + math.ceil(n * 4 / (share / 2))
    assert slow.duration_cycles > lp.duration_cycles


@asc.jit
def read_while_write(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
                     BYPASS: asc.ConstExpr[int]):
    """An MTE3 write and an MTE2 read of the same size at the same time (BYPASS: the write skips the L2)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * 2 * n, 2 * n)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n, n)
    if BYPASS == 1:
        z_gm.set_l2_cache_hint(asc.CacheMode.CACHE_MODE_DISABLE)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, n * 4, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(z_gm, a, n)
    asc.data_copy(b, x_gm[n:], n)


@pytest.mark.parametrize("cores", [1, 48])
def test_mte2_and_mte3_share_gm_bandwidth(cores: int) -> None:
    """A write that goes to GM (its L2 bypassed) shares the core's GM bandwidth with a read; one into the L2
    (write back) does not."""
    n = 4096
    x = np.arange(2 * n * cores, dtype=np.float32)
    z = np.zeros(n * cores, np.float32)
    lp = profile(read_while_write, cores, x, z, n, 1)
    rd = recs(lp, pipe="MTE2")[1]
    (wr,) = recs(lp, pipe="MTE3")
    # they overlap in time
    assert rd["start"] < wr["end"] and wr["start"] < rd["end"]
    rate = lp.port_rate
    data = math.ceil(n * 4 / min(rate, CAP))
    if cores == 1:  # a core alone has more share than its two channels take: no slow-down
        assert rd["end"] - rd["start"] == DMA + math.ceil(BURST + n * 4 / CAP)
        assert wr["end"] - wr["start"] == DMA + math.ceil(BURST + n * 4 / CAP)
    else:  # together they take the time of both transfers at the core's share
        first = min(rd["start"], wr["start"]) + DMA
        assert max(rd["end"], wr["end"]) - first >= 2 * data - 1
        assert max(rd["end"] - rd["start"], wr["end"] - wr["start"]) > DMA + data
        # the same write into the L2 leaves the read its whole share
        lp2 = profile(read_while_write, cores, x, z, n, 0)
        rd2 = recs(lp2, pipe="MTE2")[1]
        (wr2,) = recs(lp2, pipe="MTE3")
        assert rd2["start"] < wr2["end"] and wr2["start"] < rd2["end"]
        assert rd2["end"] - rd2["start"] == DMA + data
        assert wr2["end"] - wr2["start"] == DMA + math.ceil(BURST + n * 4 / CAP)


# ---- dependency rules --------------------------------------------------------------------------

@asc.jit
def barrier_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, BARRIER: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, 1024)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 4096, 1024)
    asc.data_copy(a, x_gm, 1024)
    if BARRIER == 1:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(b, x_gm[1024:], 1024)
    if BARRIER == 2:
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    z_gm.set_value(0, 1.0)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[16:], b, 1024)  # a 64-byte data cache line after the set_value's (docs/sanitizer.md)


def test_pipe_barrier() -> None:
    x = np.arange(2048, dtype=np.float32)
    z = np.zeros(1040, np.float32)
    free = recs(profile(barrier_kernel, 1, x, z, 0), pipe="MTE2")
    held = recs(profile(barrier_kernel, 1, x, z, 1), pipe="MTE2")
    # without a barrier the second copy follows the first one's data (DMAs pipeline)
    assert free[1]["start"] == free[0]["end"] < free[0]["done"]
    # with pipe_barrier(PIPE_MTE2) it waits until the first one is complete
    assert held[1]["start"] == held[0]["done"]
    # pipe_barrier(PIPE_ALL): the scalar unit waits for every pipe
    lp = profile(barrier_kernel, 1, x, z, 2)
    mte2 = recs(lp, pipe="MTE2")
    (scalar_write,) = recs(lp, pipe="S", kind="scalar", api="GlobalTensor.set_value")
    assert scalar_write["start"] >= mte2[1]["done"]
    (bar,) = recs(lp, pipe="S", kind="barrier")
    assert bar["end"] == mte2[1]["done"]


@asc.jit(sanitize="off")
def wait_before_set(x: asc.GlobalAddress, z: asc.GlobalAddress):
    """V's wait_flag is issued before the set_flag it waits for (legal: V, not the scalar unit, waits)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, 2048)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 8192, 2048)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(a, x_gm, 2048)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, 1.0, 2048)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, 2048)


def test_wait_issued_before_its_set() -> None:
    x = np.arange(2048, dtype=np.float32)
    z = np.zeros_like(x)
    lp = profile(wait_before_set, 1, x, z)
    np.testing.assert_array_equal(z, x + 1)
    (cp,) = recs(lp, pipe="MTE2")
    (wait,) = recs(lp, pipe="V", kind="wait")
    (add,) = recs(lp, pipe="V")
    assert wait["issue"] < cp["issue"]  # issued first ...
    assert wait["end"] == cp["done"]  # ... released by the later set
    assert add["start"] == wait["end"]
    (out,) = recs(lp, pipe="MTE3")
    assert out["start"] == add["end"]


@asc.jit(sanitize="off")
def waits_first_loop(x: asc.GlobalAddress, z: asc.GlobalAddress, TILES: asc.ConstExpr[int]):
    """Every tile: V's wait is issued before the copy-in that sets its flag."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(TILES):
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, (i % 2) * 8192, 1024)
        b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 16384 + (i % 2) * 8192, 1024)
        asc.wait_flag(asc.HardEvent.MTE2_V, i % 2)
        asc.data_copy(a, x_gm[i * 1024:], 1024)
        asc.set_flag(asc.HardEvent.MTE2_V, i % 2)
        asc.adds(b, a, 1.0, 1024)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * 1024:], b, 1024)


def test_many_waits_issued_before_their_sets() -> None:
    tiles = 64
    x = np.arange(1024 * tiles, dtype=np.float32)
    z = np.zeros_like(x)
    lp = profile(waits_first_loop, 1, x, z, tiles)
    np.testing.assert_array_equal(z, x + 1)
    cps, adds = recs(lp, pipe="MTE2"), recs(lp, pipe="V")
    waits = recs(lp, pipe="V", kind="wait")
    assert len(cps) == len(adds) == len(waits) == tiles
    for cp, w, add in zip(cps, waits, adds):
        assert w["end"] == max(cp["done"], w["start"]) and add["start"] >= w["end"]
        assert w["issue"] < cp["issue"]


@asc.jit(sanitize="off")
def scalar_deadlock(x: asc.GlobalAddress, z: asc.GlobalAddress):
    """MTE2 waits for MTE3; the scalar unit waits for MTE2 before it can issue the MTE3 set."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, 64)
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    asc.data_copy(a, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)


def test_deadlock_found_by_the_timing_model() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    scalar_deadlock[1](x, z)  # the functional model lets it pass
    with pytest.raises(asc.KernelError, match="deadlock"):
        profile(scalar_deadlock, 1, x, z)


@asc.jit
def scalar_waits(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, 2048)
    asc.data_copy(a, x_gm, 2048)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    v = a.get_value(5)
    z_gm.set_value(0, v)


def test_scalar_unit_waits() -> None:
    x = np.arange(2048, dtype=np.float32)
    z = np.zeros(8, np.float32)
    lp = profile(scalar_waits, 1, x, z)
    assert z[0] == 5
    (cp,) = recs(lp, pipe="MTE2")
    (wait,) = recs(lp, pipe="S", kind="wait")
    assert wait["end"] == cp["done"]
    (get,) = recs(lp, pipe="S", kind="scalar", api="LocalTensor.get_value")
    (put,) = recs(lp, pipe="S", kind="scalar", api="GlobalTensor.set_value")
    assert get["start"] >= cp["done"]
    assert get["end"] - get["start"] == P["scalar_ub_cycles"]
    assert put["end"] - put["start"] == P["scalar_gm_cycles"]
    assert lp.blocks[0].bytes["UB->S"] == 4 and lp.blocks[0].bytes["S->GM"] == 4


@asc.jit
def queue_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], TILES: asc.ConstExpr[int],
                 BUFS: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n * TILES)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n * TILES)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, BUFS)
    q_out = asc.TQue(asc.TPosition.VECOUT, BUFS)
    pipe.init_buffer(q_in, BUFS, n * 4)
    pipe.init_buffer(q_out, BUFS, n * 4)
    for i in range(TILES):
        t = q_in.alloc_tensor(x.dtype)
        asc.data_copy(t, x_gm[i * n:], n)
        q_in.enque(t)
        t = q_in.deque(x.dtype)
        o = q_out.alloc_tensor(x.dtype)
        asc.exp(o, t, n)
        q_out.enque(o)
        q_in.free_tensor(t)
        o = q_out.deque(x.dtype)
        asc.data_copy(z_gm[i * n:], o, n)
        q_out.free_tensor(o)


@pytest.mark.parametrize("bufs", [1, 2])
def test_queue_implicit_sync(bufs: int) -> None:
    n, tiles = 2048, 4
    x = np.linspace(-1, 1, n * tiles, dtype=np.float32)
    z = np.zeros_like(x)
    lp = profile(queue_kernel, 1, x, z, n, tiles, bufs)
    np.testing.assert_allclose(z, np.exp(x), rtol=1e-6)
    mte2, v, mte3 = recs(lp, pipe="MTE2"), recs(lp, pipe="V"), recs(lp, pipe="MTE3")
    assert len(mte2) == len(v) == len(mte3) == tiles
    for i in range(tiles):
        assert v[i]["start"] >= mte2[i]["done"]  # deque waits for the enque of the copy-in
        assert mte3[i]["start"] >= v[i]["end"]  # deque waits for the enque of the compute
        if i >= bufs:
            # alloc_tensor of a buffer waits for its free_tensor: copy-in i reuses the buffer of i - bufs
            assert mte2[i]["start"] >= v[i - bufs]["end"]
            assert v[i]["start"] >= mte3[i - bufs]["done"]
    waits = recs(lp, kind="wait")
    assert {w["api"] for w in waits} >= {"TQue.deque", "TQue.alloc_tensor"}
    if bufs == 2:  # alloc_tensor takes the buffers in turn, so copy-in i + 1 overlaps compute i
        assert mte2[1]["start"] < v[0]["end"]
    else:
        assert mte2[1]["start"] >= v[0]["end"]


# ---- launch level ---------------------------------------------------------------------------

def test_duration_is_slowest_core_plus_overhead_and_waves() -> None:
    n = 1024
    cores = 48
    x = np.arange(n * 2 * cores, dtype=np.float32)
    z = np.zeros_like(x)
    one = profile(copy_through, cores, x, z, n)
    slowest = max(b.cycles for b in one.blocks)
    assert one.duration_cycles == slowest + one.launch_overhead_cycles
    base = P["launch_base_us"] + P["launch_per_core_us"] * (cores - 1)
    assert one.launch_overhead_us == pytest.approx(base, abs=1e-3)
    # twice as many blocks as cores: every core runs two blocks, one after the other
    two = profile(copy_through, 2 * cores, x, z, n)
    assert two.cores == cores
    per_core = [two.blocks[c].cycles + two.blocks[c + cores].cycles for c in range(cores)]
    assert two.duration_cycles == max(per_core) + two.launch_overhead_cycles
    assert two.blocks[cores].offset == two.launch_overhead_cycles + two.blocks[0].cycles
    # a block's start-up (it grows with the cores in use) and the first instruction
    assert one.block_start_cycles == math.ceil(P["block_start_per_core_cycles"] * cores)
    assert two.block_start_cycles == one.block_start_cycles
    assert min(r["start"] for r in recs(one, kind=None)) >= one.block_start_cycles


def test_deterministic_and_independent_of_workers() -> None:
    n, cores = 512, 12
    x = np.linspace(-1, 1, n * cores, dtype=np.float32)
    z = np.zeros_like(x)
    outs = []
    for workers in (1, 2, 5):
        config.set_workers(workers)
        try:
            lp = profile(queue_kernel, cores, x, z, 128, 4, 2)
        finally:
            config.set_workers(0)
        outs.append([b.records.tobytes() for b in lp.blocks] + [lp.duration_cycles])
    assert outs[0] == outs[1] == outs[2]


def test_profiling_off_costs_nothing_and_changes_nothing() -> None:
    x = np.arange(2048, dtype=np.float32)
    z1, z2 = np.zeros_like(x), np.zeros_like(x)
    wait_before_set[1](x, z1)
    with asc.profile() as prof:
        wait_before_set[1](x, z2)
    wait_before_set[1](x, z1)  # the fast path again, no profile recorded
    np.testing.assert_array_equal(z1, z2)
    assert len(prof.launches) == 1


def test_parameter_overrides_are_checked() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    with pytest.raises(ValueError, match="no_such_parameter"):
        profile(copy_through, 1, x, z, 64, params={"no_such_parameter": 1.0})
    with pytest.raises(ValueError, match="clock_ghz"):
        profile(copy_through, 1, x, z, 64, params={"clock_ghz": 0.0})
    fast = profile(copy_through, 1, x, z, 64, params={"clock_ghz": 2 * P["clock_ghz"]})
    slow = profile(copy_through, 1, x, z, 64)
    assert fast.blocks[0].cycles == slow.blocks[0].cycles  # a block's cycles do not depend on the clock ...
    assert fast.duration_us < slow.duration_us  # ... microseconds do


def test_parameter_table_has_sources() -> None:
    rows = asc.profiler.timing_params("Ascend910B1")
    assert {name for name, *_ in rows} == set(P)
    assert all(source for *_, source in rows)
    with pytest.raises(ValueError):
        asc.profiler.timing_params("NoSuchChip")
