"""The sanitizer's shadow held per range (docs/sanitizer.md, "Shadow memory"): the edges of its
representation. Races are found per 32-byte block and uninitialised reads to the byte, whatever the
runs the shadow keeps: accesses that start or end inside a block, a hole inside a written block,
partial overlaps, level-0 accesses with masks and strides (bounding ranges), kernels that cut the
UB into more pieces than the run form holds (it turns dense; the next block starts clean), and the
quick test of races between blocks (block ranges that interleave without meeting, or meet).

Line numbers are found in the source, never written into the tests.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Iterator, List

import numpy as np
import pytest

import asc
import asc.runtime.config as config

BASE = os.path.basename(os.path.abspath(__file__))


@pytest.fixture(autouse=True, scope="module")
def default_mode_error() -> Iterator[None]:
    """The tests expect the default mode, whatever PYASC_SANITIZE says."""
    from asc import _C

    _C.set_sanitize_default(2)
    yield
    env = os.environ.get("PYASC_SANITIZE", "").strip().lower() or "error"
    _C.set_sanitize_default({"off": 0, "warn": 1}.get(env, 2))


def line_of(fn: Any, snippet: str) -> int:
    import inspect

    func = fn.fn if isinstance(fn, asc.JITFunction) else fn
    lines, first = inspect.getsourcelines(func)
    hits = [first + i for i, text in enumerate(lines) if snippet in text]
    assert len(hits) == 1, f"snippet {snippet!r} found {len(hits)} times"
    return hits[0]


def reports(fn: Any, *args: Any, core_num: int = 1) -> List[asc.SanitizerError]:
    """Launches in warn mode; the reports it produced."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        fn[core_num](*args, sanitize="warn")
    return [w.message.error for w in got if isinstance(w.message, asc.SanitizerWarning)]


# ---------------------------------------------------------------------------
# uninitialised reads: exact to the byte inside 32-byte blocks
# ---------------------------------------------------------------------------

@asc.jit
def mid_block(z: asc.GlobalAddress, read: asc.ConstExpr[int]):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    asc.duplicate(a, 1.0, 10)  # bytes [0, 40): ends inside the second block
    asc.adds(b, a, 1.0, read)  # reads bytes [0, 4 * read)


def test_a_write_that_ends_inside_a_block_initialises_only_its_bytes() -> None:
    z = np.zeros(64, np.float32)
    assert reports(mid_block, z, 10) == []
    (e,) = reports(mid_block, z, 16)
    assert e.kind == "uninit" and e.byte_range == (40, 64)
    assert e.line == line_of(mid_block, "asc.adds(b, a")


@asc.jit
def hole(z: asc.GlobalAddress, count: asc.ConstExpr[int]):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    a.set_value(0, 1.0)
    for i in range(2, 8):  # element 1 (bytes [4, 8)) stays unwritten
        a.set_value(i, 2.0)
    asc.duplicate(a[8:], 3.0, 8)
    asc.adds(b, a, 1.0, count)


def test_a_hole_inside_a_written_block_is_found() -> None:
    z = np.zeros(64, np.float32)
    (e,) = reports(hole, z, 16)
    assert e.kind == "uninit" and e.byte_range == (4, 8)
    assert reports(hole, z, 1) == []  # bytes [0, 4) are written


# ---------------------------------------------------------------------------
# races: per 32-byte block, reported over the bytes both accesses touch
# ---------------------------------------------------------------------------

@asc.jit
def partial_overlap(x: asc.GlobalAddress, z: asc.GlobalAddress, offset: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    asc.duplicate(a, 0.0, 64)
    asc.set_flag(asc.HardEvent.V_MTE2, 0)
    asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.data_copy(a, x_gm, 16)  # bytes [0, 64)
    asc.adds(b, a[offset:], 1.0, 16)  # no MTE2_V flag


def test_a_partial_overlap_is_reported_over_the_shared_bytes() -> None:
    x, z = np.ones(64, np.float32), np.zeros(64, np.float32)
    (e,) = reports(partial_overlap, x, z, 8)  # reads [32, 96)
    assert e.kind == "race" and e.pipes == ("V", "MTE2") and e.byte_range == (32, 64)
    assert e.other_line == line_of(partial_overlap, "asc.data_copy(a, x_gm")
    assert reports(partial_overlap, x, z, 16) == []  # reads [64, 128): no shared block


@asc.jit(auto_sync=False)
def same_block(x: asc.GlobalAddress, z: asc.GlobalAddress, index: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    asc.duplicate(a, 0.0, 64)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    asc.data_copy(a, x_gm, 8)  # bytes [0, 32): MTE2
    a.get_value(index)  # 4 bytes on the scalar unit; no MTE2_S flag


def test_races_are_found_per_32_byte_block() -> None:
    x, z = np.ones(64, np.float32), np.zeros(64, np.float32)
    (e,) = reports(same_block, x, z, 5)  # bytes [20, 24): inside the copy's block
    assert e.kind == "race" and e.pipes == ("S", "MTE2") and e.byte_range == (20, 24)
    assert reports(same_block, x, z, 8) == []  # bytes [32, 36): the next block


# ---------------------------------------------------------------------------
# level-0 accesses: the bounding range of masks and strides
# ---------------------------------------------------------------------------

@asc.jit
def strided(x: asc.GlobalAddress, z: asc.GlobalAddress, case: asc.ConstExpr[str]):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 256)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 2048, 256)
    if case == "write_gaps":
        asc.duplicate(a, 1.0, 64, 1, 2, 8)  # blocks 0, 2, .., 14: bounds [0, 480)
        asc.adds(b, a, 1.0, 120)  # the gaps count as written
    elif case == "past_the_bound":
        asc.duplicate(a, 1.0, 64, 1, 2, 8)
        asc.adds(b, a, 1.0, 128)  # bytes [480, 512) are not in the bound
    elif case == "read_gaps":
        asc.duplicate(a, 1.0, 8)  # block 0 only
        asc.adds(b, a, 1.0, 64, 1, asc.UnaryRepeatParams(1, 2, 8, 8))  # blocks 0, 2, ..: not checked
    elif case == "mask":
        asc.duplicate(a, 1.0, 8)
        asc.adds(b, a, 1.0, 8, 4, asc.UnaryRepeatParams(1, 1, 8, 8))  # block 0 of 4 repeats
    elif case == "race":
        asc.duplicate(a, 0.0, 128)
        asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.wait_flag(asc.HardEvent.V_MTE2, 0)
        asc.data_copy(a[120:], x_gm, 8)  # bytes [480, 512)
        asc.adds(b, a, 1.0, 8, 4, asc.UnaryRepeatParams(1, 1, 8, 8))  # bounds [0, 800) of a


@pytest.mark.parametrize("case", ["write_gaps", "read_gaps", "mask"])
def test_level0_accesses_with_gaps_are_not_uninitialised_reads(case: str) -> None:
    x, z = np.ones(128, np.float32), np.zeros(128, np.float32)
    assert reports(strided, x, z, case) == []


def test_a_level0_write_marks_its_bounding_range_written() -> None:
    x, z = np.ones(128, np.float32), np.zeros(128, np.float32)
    (e,) = reports(strided, x, z, "past_the_bound")
    assert e.kind == "uninit" and e.byte_range == (480, 512)


def test_level0_races_are_checked_over_the_bounding_range() -> None:
    x, z = np.ones(128, np.float32), np.zeros(128, np.float32)
    (e,) = reports(strided, x, z, "race")
    assert e.kind == "race" and e.pipes == ("V", "MTE2") and e.byte_range == (480, 512)


# ---------------------------------------------------------------------------
# many pieces: the dense form, and a clean start for the next block
# ---------------------------------------------------------------------------

@asc.jit
def scattered(z: asc.GlobalAddress, n: int, fill_odd: asc.ConstExpr[bool], reverse: asc.ConstExpr[bool]):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 8192, 1024)
    if asc.get_block_idx() == 0:  # block 1 writes nothing
        for i in range(n):  # every other element: n runs of written bytes
            k = 2 * (n - 1 - i) if reverse else 2 * i
            a.set_value(k, 1.0)
        if fill_odd:
            for i in range(n):
                a.set_value(2 * i + 1, 2.0)
    asc.adds(b, a, 1.0, 2 * n)


@pytest.mark.parametrize("reverse", [False, True])
def test_more_pieces_than_runs_stay_exact(reverse: bool) -> None:
    z = np.zeros(16, np.float32)
    (e,) = reports(scattered, z, 300, False, reverse)
    assert e.kind == "uninit" and e.block == 0 and e.byte_range == (4, 8)
    assert e.line == line_of(scattered, "asc.adds(b, a")


def test_the_next_block_on_a_worker_starts_with_a_clean_shadow() -> None:
    z = np.zeros(16, np.float32)
    config.set_workers(1)  # block 1 runs after block 0, on its shadow
    try:
        (e,) = reports(scattered, z, 300, True, False, core_num=2)
    finally:
        config.set_workers(0)
    assert e.kind == "uninit" and e.block == 1 and e.byte_range == (0, 2400)


# ---------------------------------------------------------------------------
# races between blocks: the quick test and the full one agree
# ---------------------------------------------------------------------------

TILE = 64


@asc.jit
def tiles(z: asc.GlobalAddress, tiles_per_block: int, shift: int):
    """Block i writes tiles i, i + n, i + 2n, .. of z, each moved back by i * shift elements."""
    i = asc.get_block_idx()
    n = asc.get_block_num()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, TILE)
    asc.duplicate(a, 1.0, TILE)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    for t in range(tiles_per_block):
        asc.data_copy(z_gm[(t * n + i) * TILE - i * shift:], a, TILE)


def test_blocks_whose_ranges_interleave_without_meeting_do_not_race() -> None:
    z = np.zeros(8 * 4 * TILE + 64, np.float32)
    assert reports(tiles, z, 4, 0, core_num=8) == []
    assert (z[: 8 * 4 * TILE] == 1).all()


def test_blocks_whose_ranges_interleave_and_meet_race() -> None:
    z = np.zeros(8 * 4 * TILE + 64, np.float32)
    got = reports(tiles, z, 4, 8, core_num=8)  # block i + 1's tiles overlap block i's by 8 elements
    assert got and all(e.kind == "core-race" for e in got)
    e = got[0]
    assert (e.block, e.other_block) == (0, 1) and e.byte_range == (4 * (TILE - 8), 4 * TILE)


def test_varying_block_counts_reuse_the_sanitizer_safely() -> None:
    """Kept sanitizer objects (sanitizer.c) resize their per-block records for each launch."""
    for blocks in (8, 2, 16, 1, 80, 3, 8):
        z = np.zeros(blocks * 4 * TILE + 64, np.float32)
        assert reports(tiles, z, 4, 0, core_num=blocks) == []
        if blocks > 1:
            got = reports(tiles, z, 4, 8, core_num=blocks)
            assert got and got[0].kind == "core-race" and (got[0].block, got[0].other_block) == (0, 1)
