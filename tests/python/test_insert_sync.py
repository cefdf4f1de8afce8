"""The sync-insertion pass (jit option insert_sync): kernels over static
buffers with no syncs written at all, compiled with insert_sync=True, run
sanitizer-clean (sanitize="error") and compute what NumPy computes; the
syncs it inserts are the ones a careful hand would write (counted in the
final IR), and every one of them is in the pass log."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import asc

N = 256  # elements per tile
TILES = 4
BLOCKS = 2


def compiled(kernel: Any) -> Any:
    return next(iter(kernel.cache.values()))


def syncs(kernel: Any) -> dict:
    """Counts of the sync ops in the kernel's final IR, by kind and event."""
    text = compiled(kernel).ir_text()
    out: dict = {}
    for m in re.finditer(r'"asc\.(set_flag|wait_flag)"\([^)]*\) \{event = #asc<HardEvent (\w+)>', text):
        out[(m.group(1), m.group(2))] = out.get((m.group(1), m.group(2)), 0) + 1
    for m in re.finditer(r'"asc\.pipe_barrier"\(\) \{pipe = #asc<PipeID (\w+)>', text):
        out[("barrier", m.group(1))] = out.get(("barrier", m.group(1)), 0) + 1
    return out


def balanced(counts: dict) -> bool:
    """As many set_flag ops as wait_flag ops per event (structure: no flag
    left set when the kernel ends, none waited that nothing sets)."""
    events = {e for (k, e) in counts if k in ("set_flag", "wait_flag")}
    return all(counts.get(("set_flag", e), 0) == counts.get(("wait_flag", e), 0) for e in events)


def data(dtype: Any = np.float32, size: int = BLOCKS * TILES * N) -> Any:
    rng = np.random.default_rng(7)
    return (rng.random(size) * 4 - 2).astype(dtype)


# ---- single buffer: the add example without syncs ------------------------------

@asc.jit(insert_sync=True, sanitize="error")
def vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
         tiles: asc.ConstExpr[int]):
    off = asc.get_block_idx() * n * tiles
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + off)
    yg.set_global_buffer(y + off)
    zg.set_global_buffer(z + off)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4 * 3)
    xl = buf.get_with_offset(n, 0, dtype=x.dtype)
    yl = buf.get_with_offset(n, n * 4, dtype=x.dtype)
    zl = buf.get_with_offset(n, n * 8, dtype=x.dtype)
    for i in range(tiles):
        asc.data_copy(xl, xg[i * n:], count=n)
        asc.data_copy(yl, yg[i * n:], count=n)
        asc.add(zl, xl, yl, n)
        asc.data_copy(zg[i * n:], zl, count=n)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_single_buffer_loop(dtype: Any) -> None:
    x, y = data(dtype), data(dtype)[::-1].copy()
    z = np.zeros_like(x)
    vadd[BLOCKS](x, y, z, N, TILES)
    np.testing.assert_array_equal(z, x + y)
    c = syncs(vadd)
    # copy-in -> add, add -> copy-out, and the two carried to the next iteration
    assert c == {("set_flag", "MTE2_V"): 1, ("wait_flag", "MTE2_V"): 1,
                 ("set_flag", "V_MTE3"): 1, ("wait_flag", "V_MTE3"): 1,
                 ("set_flag", "V_MTE2"): 2, ("wait_flag", "V_MTE2"): 2,
                 ("set_flag", "MTE3_V"): 2, ("wait_flag", "MTE3_V"): 2}


def test_log_names_each_sync_and_its_lines() -> None:
    x = data()
    vadd[BLOCKS](x, x, np.zeros_like(x), N, TILES)
    log = compiled(vadd).module.pass_log()
    lines = [ln for ln in log.splitlines() if ln.startswith("insert-sync: set_flag")]
    assert len(lines) == 4, log
    src_line = vadd.fn.__code__.co_firstlineno
    add_line = src_line + 19  # asc.add(zl, xl, yl, n)
    assert any(f"MTE2_V id 0: asc.data_copy at {__file__}:{add_line - 1} before asc.add at {__file__}:{add_line}"
               in ln for ln in lines), log
    assert any("V_MTE2" in ln and "write after read" in ln and "carried by the loop" in ln for ln in lines), log
    assert "4 set_flag/wait_flag pairs, 0 pipe_barriers inserted" in log
    # the inserted syncs are in the Ascend C, with the line of the op they order
    cpp = compiled(vadd).ascendc()
    assert "AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);" in cpp
    assert "AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(0);" in cpp


# ---- double buffering by the iteration's parity, a scalar read, an if -----------

@asc.jit(insert_sync=True, sanitize="error")
def ping_pong(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
              tiles: int):
    off = asc.get_block_idx() * n * 8
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + off)
    yg.set_global_buffer(y + off)
    zg.set_global_buffer(z + off)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4 * 6)
    for i in range(tiles):
        p = (i % 2) * (n * 4)
        xl = buf.get_with_offset(n, p, dtype=asc.float32)
        yl = buf.get_with_offset(n, n * 8 + p, dtype=asc.float32)
        zl = buf.get_with_offset(n, n * 16 + p, dtype=asc.float32)
        asc.data_copy(xl, xg[i * n:], count=n)
        asc.data_copy(yl, yg[i * n:], count=n)
        s = xl.get_value(3)
        if i % 3 == 0:
            asc.add(zl, xl, yl, n)
        else:
            asc.muls(zl, xl, s, n)
        asc.data_copy(zg[i * n:], zl, count=n)


def ping_pong_ref(x: Any, y: Any, tiles: int) -> Any:
    xr, yr = x.reshape(BLOCKS, 8, N), y.reshape(BLOCKS, 8, N)
    ref = np.where((np.arange(8) % 3 == 0)[None, :, None], xr + yr, xr * xr[:, :, 3:4])
    ref[:, tiles:] = 0
    return ref.reshape(-1)


@pytest.mark.parametrize("tiles", [0, 1, 2, 5, 8])
def test_double_buffer_if_and_scalar_read(tiles: int) -> None:
    x, y = data(size=BLOCKS * 8 * N), data(size=BLOCKS * 8 * N)[::-1].copy()
    z = np.zeros_like(x)
    ping_pong[BLOCKS](x, y, z, N, tiles)  # a runtime trip count: 0 and 1 leave no flag pending
    np.testing.assert_allclose(z, ping_pong_ref(x, y, tiles), rtol=1e-6)
    c = syncs(ping_pong)
    assert balanced(c), c
    # a buffer is rewritten two iterations later: those pairs take two ids each, set twice before the loop
    text = compiled(ping_pong).ir_text()
    assert c[("set_flag", "V_MTE2")] == 3 and c[("set_flag", "MTE3_V")] == 3
    assert c[("set_flag", "MTE2_S")] == 1 and c[("set_flag", "S_MTE2")] == 3
    assert '"arith.rem"' in text
    log = compiled(ping_pong).module.pass_log()
    assert "ids 0/1 by iteration parity" in log


# ---- a reduction read by the scalar unit; set_value before a vector read --------

@asc.jit(insert_sync=True, sanitize="error")
def tile_sums(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n * tiles)
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4 * 4)
    xl = buf.get_with_offset(n, 0, dtype=asc.float32)
    sl = buf.get_with_offset(8, n * 4, dtype=asc.float32)
    work = buf.get_with_offset(n, n * 8, dtype=asc.float32)
    out = buf.get_with_offset(n, n * 12, dtype=asc.float32)
    asc.duplicate(out, 0.0, n)
    for i in range(tiles):
        asc.data_copy(xl, xg[i * n:], count=n)
        asc.reduce_sum(sl, xl, work, n)
        out.set_value(i, sl.get_value(0))
    asc.adds(out, out, 1.0, n)
    asc.data_copy(zg, out, count=n)


def test_reduction_and_scalar_writes() -> None:
    x = data()
    z = np.zeros(BLOCKS * N, np.float32)
    tile_sums[BLOCKS](x, z, N, TILES)
    sums = x.reshape(BLOCKS, TILES, N).astype(np.float64).sum(axis=2)
    ref = np.ones((BLOCKS, N), np.float32)
    ref[:, :TILES] += sums
    np.testing.assert_allclose(z, ref.reshape(-1), rtol=1e-5, atol=1e-5)
    c = syncs(tile_sums)
    assert balanced(c), c
    # the scalar unit waits for the reduction and the adds waits for the scalar writes
    assert c[("wait_flag", "V_S")] >= 1 and c[("wait_flag", "S_V")] >= 1


# ---- GM: a scalar write read back by DMA ----------------------------------------

@asc.jit(insert_sync=True, sanitize="error")
def gm_roundtrip(z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4)
    t = buf.get(dtype=asc.float32)
    zg.set_value(0, 5.0)
    # the scalar write is in the data cache until written back (docs/sanitizer.md, "The data cache")
    asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, zg)
    asc.data_copy(t, zg, count=n)
    asc.muls(t, t, 2.0, n)
    asc.data_copy(zg, t, count=n)


def test_gm_scalar_write_then_dma_read() -> None:
    z = np.ones(BLOCKS * N, np.float32)
    gm_roundtrip[BLOCKS](z, N)
    ref = np.full((BLOCKS, N), 2.0, np.float32)
    ref[:, 0] = 10.0
    np.testing.assert_array_equal(z, ref.reshape(-1))
    c = syncs(gm_roundtrip)
    assert c.get(("wait_flag", "S_MTE2")) == 1 and c.get(("wait_flag", "MTE2_V")) == 1
    assert c.get(("wait_flag", "V_MTE3")) == 1


# ---- same pipe: barriers when the Ascend C compiler does not order V itself -------

@asc.jit(insert_sync=True, auto_sync=False, sanitize="error")
def chain(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n)
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 8)
    a = buf.get_with_offset(n, 0, dtype=asc.float32)
    b = buf.get_with_offset(n, n * 4, dtype=asc.float32)
    asc.data_copy(a, xg, count=n)
    asc.data_copy(b, xg, count=n)  # MTE2 after MTE2 into another buffer: no barrier
    asc.muls(a, a, 3.0, n)
    asc.add(b, a, b, n)  # reads what muls wrote: PipeBarrier<PIPE_V>
    asc.relu(b, b, n)  # in place after add
    asc.data_copy(zg, b, count=n)


def test_same_pipe_barriers_without_compiler_auto_sync() -> None:
    x = data(size=BLOCKS * N)
    z = np.zeros_like(x)
    chain[BLOCKS](x, z, N)
    np.testing.assert_allclose(z, np.maximum(x * 3 + x, 0), rtol=1e-6)
    c = syncs(chain)
    assert c.get(("barrier", "PIPE_V")) == 2 and ("barrier", "PIPE_MTE2") not in c


# ---- the kernel's own syncs --------------------------------------------------------

@asc.jit(insert_sync=True, sanitize="error")
def hand_synced(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n)
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4)
    t = buf.get(dtype=asc.float32)
    asc.data_copy(t, xg, count=n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.abs(t, t, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, t, count=n)
    asc.data_copy(t, xg, count=n)  # the kernel forgot MTE3 -> MTE2 here
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(t, t, 1.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 1)
    asc.wait_flag(asc.HardEvent.V_MTE3, 1)
    asc.data_copy(zg, t, count=n)


def test_own_syncs_kept_and_completed() -> None:
    x = data(size=BLOCKS * N)
    z = np.zeros_like(x)
    hand_synced[BLOCKS](x, z, N)
    np.testing.assert_allclose(z, x + 1, rtol=1e-6)
    c = syncs(hand_synced)
    # the kernel's four pairs stay; only the missing MTE3 -> MTE2 one is added
    assert c == {("set_flag", "MTE2_V"): 2, ("wait_flag", "MTE2_V"): 2, ("set_flag", "V_MTE3"): 2,
                 ("wait_flag", "V_MTE3"): 2, ("set_flag", "MTE3_MTE2"): 1, ("wait_flag", "MTE3_MTE2"): 1}


def test_replace_drops_the_kernels_syncs() -> None:
    replaced = asc.jit(insert_sync="replace", sanitize="error")(hand_synced.fn)
    x = data(size=BLOCKS * N)
    z = np.zeros_like(x)
    replaced[BLOCKS](x, z, N)
    np.testing.assert_allclose(z, x + 1, rtol=1e-6)
    c = syncs(replaced)
    assert c[("set_flag", "MTE2_V")] == 2 and c[("set_flag", "MTE3_MTE2")] == 1
    assert c[("set_flag", "V_MTE3")] == 2


@asc.jit(insert_sync=True, sanitize="error")
def user_ids(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n)
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 8)
    a = buf.get_with_offset(n, 0, dtype=asc.float32)
    b = buf.get_with_offset(n, n * 4, dtype=asc.float32)
    asc.data_copy(a, xg, count=n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.data_copy(b, xg, count=n)  # unsynchronised: the pass's MTE2_V pair must not take id 0
    asc.add(a, a, b, n)
    asc.data_copy(zg, a, count=n)


def test_inserted_ids_avoid_the_kernels_ids() -> None:
    x = data(size=BLOCKS * N)
    z = np.zeros_like(x)
    user_ids[BLOCKS](x, z, N)
    np.testing.assert_allclose(z, x + x, rtol=1e-6)
    text = compiled(user_ids).ascendc()
    assert "AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(1);" in text


# ---- more live pairs of one event than ids: a barrier for the rest ---------------

def test_event_ids_run_out() -> None:
    k = 10  # ten buffers copied in, then each read: ten MTE2_V pairs live at once

    @asc.jit(insert_sync=True, sanitize="error")
    def many(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        xg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x + asc.get_block_idx() * n * 10)
        zg.set_global_buffer(z + asc.get_block_idx() * n)
        pipe = asc.TPipe()
        buf = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(buf, n * 4 * 11)
        acc = buf.get_with_offset(n, n * 40, dtype=asc.float32)
        asc.duplicate(acc, 0.0, n)
        for j in asc.static_range(10):
            t = buf.get_with_offset(n, n * 4 * j, dtype=asc.float32)
            asc.data_copy(t, xg[j * n:], count=n)
        for j in asc.static_range(10):
            t = buf.get_with_offset(n, n * 4 * j, dtype=asc.float32)
            asc.add(acc, acc, t, n)
        asc.data_copy(zg, acc, count=n)

    x = data(size=BLOCKS * k * N)
    z = np.zeros(BLOCKS * N, np.float32)
    many[BLOCKS](x, z, N)
    np.testing.assert_allclose(z, x.reshape(BLOCKS, k, N).sum(axis=1).reshape(-1), rtol=1e-5)
    c = syncs(many)
    # the pass gives ids 0-5 only (6 and 7 are the devkit's, SetFlag-WaitFlag(ISASI).md): six pairs, four barriers
    assert c[("set_flag", "MTE2_V")] == 6 and c[("barrier", "PIPE_ALL")] == 4
    assert "pipe_barrier PIPE_ALL" in compiled(many).module.pass_log()


# ---- while loops and errors ----------------------------------------------------------

@asc.jit(insert_sync=True, sanitize="error")
def countdown(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], rounds: int):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n)
    zg.set_global_buffer(z + asc.get_block_idx() * n)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4)
    t = buf.get(dtype=asc.float32)
    k = rounds
    while k > 0:
        asc.data_copy(t, xg, count=n)
        asc.muls(t, t, 2.0, n)
        asc.data_copy(xg, t, count=n)
        k = k - 1
    asc.data_copy(t, xg, count=n)
    asc.data_copy(zg, t, count=n)


@pytest.mark.parametrize("rounds", [0, 1, 3])
def test_while_loop(rounds: int) -> None:
    x = data(size=BLOCKS * N)
    x0 = x.copy()
    z = np.zeros_like(x)
    countdown[BLOCKS](x, z, N, rounds)
    np.testing.assert_array_equal(z, x0 * 2.0 ** rounds)
    assert balanced(syncs(countdown))


def test_option_values() -> None:
    with pytest.raises(TypeError, match="'replace'"):
        asc.jit(insert_sync="yes")(vadd.fn)


def test_without_the_pass_the_sanitizer_reports_the_race() -> None:
    # the control: the kernels above are not clean by luck
    unsynced = asc.jit(insert_sync=False, sanitize="error")(vadd.fn)
    x = data()
    with pytest.raises(asc.SanitizerError, match="MTE2"):
        unsynced[BLOCKS](x, x, np.zeros_like(x), N, TILES)


# ---- device functions: inlined first, so their ops are ordered like the kernel's -------

@asc.jit
def copy_in(i: int, xg: asc.GlobalTensor, yg: asc.GlobalTensor, xl: asc.LocalTensor, yl: asc.LocalTensor,
            n: asc.ConstExpr[int]):
    asc.data_copy(xl, xg[i * n:], count=n)
    asc.data_copy(yl, yg[i * n:], count=n)


@asc.jit
def compute(xl: asc.LocalTensor, yl: asc.LocalTensor, zl: asc.LocalTensor, n: asc.ConstExpr[int]):
    asc.sub(zl, xl, yl, n)


@asc.jit
def copy_out(i: int, zg: asc.GlobalTensor, zl: asc.LocalTensor, n: asc.ConstExpr[int]):
    asc.data_copy(zg[i * n:], zl, count=n)


@asc.jit(insert_sync=True, sanitize="error")
def vsub_calls(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int],
               tiles: asc.ConstExpr[int]):
    off = asc.get_block_idx() * n * tiles
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + off)
    yg.set_global_buffer(y + off)
    zg.set_global_buffer(z + off)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4 * 3)
    xl = buf.get_with_offset(n, 0, dtype=x.dtype)
    yl = buf.get_with_offset(n, n * 4, dtype=x.dtype)
    zl = buf.get_with_offset(n, n * 8, dtype=x.dtype)
    for i in range(tiles):
        copy_in(i, xg, yg, xl, yl, n)
        compute(xl, yl, zl, n)
        copy_out(i, zg, zl, n)


def test_device_functions_are_inlined_and_synchronised() -> None:
    x, y = data(), data()[::-1].copy()
    z = np.zeros_like(x)
    vsub_calls[BLOCKS](x, y, z, N, TILES)
    np.testing.assert_array_equal(z, x - y)
    vadd[BLOCKS](x, y, z, N, TILES)
    text = compiled(vsub_calls).ir_text()
    assert '"func.call"' not in text
    assert syncs(vsub_calls) == syncs(vadd)
    # the log names the device functions' own lines
    assert f"before asc.sub at {__file__}:{compute.fn.__code__.co_firstlineno + 2}" in \
        compiled(vsub_calls).module.pass_log()


# ---- runtime sizes: offsets as linear forms of the kernel's parameters ------------------

@asc.jit(insert_sync=True, sanitize="error")
def runtime_tiles(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: int, tiles: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * tile * tiles)
    zg.set_global_buffer(z + asc.get_block_idx() * tile * tiles)
    nbytes = tile * 4
    # static buffers at addresses the launch's `tile` decides, two halves each
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * tile)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 2 * nbytes, 2 * tile)
    for i in range(tiles):
        half = i % 2
        asc.data_copy(a[half * tile:], xg[i * tile:], tile)
        asc.muls(b[half * tile:], a[half * tile:], 3.0, tile)
        asc.data_copy(zg[i * tile:], b[half * tile:], tile)


@pytest.mark.parametrize("tile", [64, 256])
def test_runtime_sized_static_double_buffers(tile: int) -> None:
    x = data(size=BLOCKS * TILES * tile)
    z = np.zeros_like(x)
    runtime_tiles[BLOCKS](x, z, tile, TILES)
    np.testing.assert_array_equal(z, x * np.float32(3))
    log = compiled(runtime_tiles).module.pass_log()
    # the halves a[0:tile] / a[tile:2 tile] are apart for every tile >= 0: ping-pong pairs
    assert log.count("by iteration parity") == 2, log
    assert "0 pipe_barriers inserted" in log


@asc.jit(insert_sync=True, sanitize="error")
def shifting(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], tiles: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n * tiles)
    zg.set_global_buffer(z + asc.get_block_idx() * n * tiles)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, n * 4 * (tiles + 1))
    for i in range(tiles):
        # iteration i's tile is the one iteration i - 1 filled with ones: offsets that move with i
        # are no symbols (two iterations' `i * n * 4` are not the same bytes)
        t = buf.get_with_offset(n, i * n * 4, dtype=asc.float32)
        after = buf.get_with_offset(n, (i + 1) * n * 4, dtype=asc.float32)
        asc.data_copy(t, xg[i * n:], count=n)
        asc.duplicate(after, 1.0, n)
        asc.add(t, t, t, n)
        asc.data_copy(zg[i * n:], t, count=n)


def test_offsets_that_move_with_the_iteration() -> None:
    x = data()
    z = np.zeros_like(x)
    shifting[BLOCKS](x, z, N, TILES)
    np.testing.assert_array_equal(z, x + x)
    assert balanced(syncs(shifting))
