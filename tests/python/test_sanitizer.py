"""The sanitizer (docs/sanitizer.md): data races between the pipes of a core
and between cores, uninitialised reads, synchronisation misuse, DataCopy
lengths that lose bytes; its modes (error, warn, off; PYASC_SANITIZE, the
`sanitize=` option) and its reports (kind, lines, pipes, bytes, fix).

The mutation suite at the end takes every example (and a few kernels of
its own that exercise the scalar unit and pipe_barrier), removes each
set_flag / wait_flag / pipe_barrier in turn, and replaces each TQue
enque/deque pair by direct use of the tensor; every mutant must be
reported, or be listed in HARMLESS with the reason.

Line numbers are found in the source, never written into the tests.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import importlib.util
import inspect
import os
import pickle
import re
import subprocess
import sys
import textwrap
import warnings
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
import pytest

import asc

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
HERE = os.path.abspath(__file__)
BASE = os.path.basename(HERE)


@pytest.fixture(autouse=True, scope="module")
def default_mode_error() -> Iterator[None]:
    """The tests expect the default mode, whatever PYASC_SANITIZE says."""
    from asc import _C

    _C.set_sanitize_default(2)
    yield
    env = os.environ.get("PYASC_SANITIZE", "").strip().lower() or "error"
    _C.set_sanitize_default({"off": 0, "warn": 1}.get(env, 2))


def line_of(fn: Any, snippet: str) -> int:
    """The line of the one line of fn's source containing snippet."""
    func = fn.fn if isinstance(fn, asc.JITFunction) else fn
    lines, first = inspect.getsourcelines(func)
    hits = [first + i for i, text in enumerate(lines) if snippet in text]
    assert len(hits) == 1, f"snippet {snippet!r} found {len(hits)} times"
    return hits[0]


@contextlib.contextmanager
def no_reports() -> Iterator[None]:
    """Fails on any SanitizerWarning (SanitizerErrors fail by themselves)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.SanitizerWarning)
        yield


def sanitizer_warnings(fn: Any, *args: Any, core_num: int = 1, **kw: Any) -> List[asc.SanitizerError]:
    """Launches in warn mode; the reports it produced."""
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        fn[core_num](*args, sanitize="warn", **kw)
    return [w.message.error for w in got if isinstance(w.message, asc.SanitizerWarning)]


def gm3(n: int = 256) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.random(n).astype(np.float32)
    y = rng.random(n).astype(np.float32)
    return x, y, np.zeros(n, np.float32)


# ---------------------------------------------------------------------------
# races between the pipes of a core
# ---------------------------------------------------------------------------

@asc.jit
def missing_mte2_v(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 4096, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(yl, y_gm, n)
    asc.add(zl, xl, yl, n)  # V reads what MTE2 may still be writing
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, n)


def test_race_between_pipes_names_both_calls_and_the_fix() -> None:
    x, y, z = gm3()
    with pytest.raises(asc.SanitizerError) as info:
        missing_mte2_v[1](x, y, z, 256)
    e = info.value
    add = line_of(missing_mte2_v, "asc.add(zl")
    copy_x = line_of(missing_mte2_v, "asc.data_copy(xl")
    copy_y = line_of(missing_mte2_v, "asc.data_copy(yl")
    assert isinstance(e, asc.KernelError)
    assert (e.kind, e.kernel, e.block, e.api) == ("race", "missing_mte2_v", 0, "asc.add")
    assert (e.filename, e.line) == (HERE, add)
    assert (e.other_api, e.other_filename, e.other_line) == ("asc.data_copy", HERE, copy_x)
    assert e.pipes == ("V", "MTE2")
    assert (e.memory, e.byte_range) == ("UB", (0, 1024))
    # the flag goes after the last of the copies the add depends on
    assert e.fix == (f"insert `asc.set_flag(asc.HardEvent.MTE2_V, 0)` after line {copy_y} and "
                     f"`asc.wait_flag(asc.HardEvent.MTE2_V, 0)` before line {add}")
    text = str(e)
    assert f"{BASE}:{add}" in text and f"{BASE}:{copy_x}" in text and "MTE2" in text and "[0, 1024)" in text
    assert text.splitlines()[0].startswith(f"{HERE}:{add}:")
    assert "fix: insert" in text.splitlines()[-1]
    assert not z.any()  # nothing reached GM: the block stopped at the add


def test_same_kernel_runs_with_sanitizer_off_and_warns_in_warn_mode() -> None:
    x, y, z = gm3()
    missing_mte2_v[1](x, y, z, 256, sanitize="off")
    np.testing.assert_array_equal(z, x + y)  # program order: right here, wrong on the NPU
    z[:] = 0
    reports = sanitizer_warnings(missing_mte2_v, x, y, z, 256)
    assert [r.kind for r in reports] == ["race", "race"]  # x and y: one report per pair of calls
    assert {r.other_line for r in reports} == {line_of(missing_mte2_v, "asc.data_copy(xl"),
                                               line_of(missing_mte2_v, "asc.data_copy(yl")}
    np.testing.assert_array_equal(z, x + y)  # warn mode runs the kernel to the end


@asc.jit
def racy_loop(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, times: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z + asc.get_block_idx() * n)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4096, n)
    for _ in range(times):
        asc.data_copy(xl, x_gm, n)
        asc.pipe_barrier(asc.PipeID.PIPE_V)  # orders V after V only: not after the copy
        asc.abs(zl, xl, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)  # the next iteration starts from a quiet core


def test_warn_mode_reports_a_pair_once_and_per_block_state_is_fresh() -> None:
    x, _, _ = gm3()
    z = np.zeros(4 * 256, np.float32)
    reports = sanitizer_warnings(racy_loop, x, z, 256, 8, core_num=4)
    assert len(reports) == 1  # 8 iterations x 4 blocks, one pair of calls
    r = reports[0]
    assert (r.kind, r.block, r.line, r.other_line) == ("race", 0, line_of(racy_loop, "asc.abs("),
                                                       line_of(racy_loop, "asc.data_copy(xl"))
    np.testing.assert_array_equal(z, np.tile(np.abs(x), 4))


@asc.jit
def barrier_all(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 4096, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(yl, y_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)  # everything issued so far has finished
    asc.add(zl, xl, yl, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, zl, n)


@asc.jit
def scalar_wait_orders_all(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 4096, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(yl, y_gm, n)
    # the scalar unit waits for MTE2 and issues nothing meanwhile: V starts after the copies
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.add(zl, xl, yl, n)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    asc.data_copy(z_gm, zl, n)


@pytest.mark.parametrize("kernel", [barrier_all, scalar_wait_orders_all], ids=lambda k: k.name)
def test_barrier_all_and_waits_of_the_scalar_unit_order_every_pipe(kernel: Any) -> None:
    x, y, z = gm3()
    with no_reports():
        kernel[1](x, y, z, 256)
    np.testing.assert_array_equal(z, x + y)


@asc.jit
def overlapping_copies(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                       barrier: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    ul = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(ul, x_gm, n)
    if barrier:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(ul, y_gm, n // 2)  # the same UB bytes: which copy lands last?
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, ul, n)


def test_copies_to_overlapping_ub_on_one_pipe_need_a_barrier() -> None:
    x, y, z = gm3()
    with pytest.raises(asc.SanitizerError) as info:
        overlapping_copies[1](x, y, z, 256, False)
    e = info.value
    assert (e.kind, e.pipes, e.byte_range) == ("race", ("MTE2", "MTE2"), (0, 512))
    assert e.line == line_of(overlapping_copies, "asc.data_copy(ul, y_gm")
    assert e.other_line == line_of(overlapping_copies, "asc.data_copy(ul, x_gm")
    assert "within pipe MTE2" in e.message
    assert e.fix.startswith(f"insert `asc.pipe_barrier(asc.PipeID.PIPE_MTE2)` after line {e.other_line}")
    with no_reports():
        overlapping_copies[1](x, y, z, 256, True)
    np.testing.assert_array_equal(z, np.concatenate([y[:128], x[128:]]))


def _chain_source(flags: bool) -> str:
    return f"""
def chain(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    tl = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 4096, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(xl, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(tl, xl, 1.0, n)
    {"asc.pipe_barrier(asc.PipeID.PIPE_V)" if flags else "pass"}
    asc.muls(zl, tl, 2.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, n)
"""


def load_source(tmp_path: Path, name: str, text: str) -> ModuleType:
    """A module written to a file (the front end reads kernels' source)."""
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(f"sanitizer_{name}_{abs(hash(text))}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("auto_sync", [True, False])
def test_vector_after_vector_needs_a_barrier_only_without_auto_sync(tmp_path: Path, auto_sync: bool) -> None:
    head = f"import asc\n\n\n@asc.jit(auto_sync={auto_sync})"
    bare = load_source(tmp_path, "bare", head + _chain_source(False))
    fenced = load_source(tmp_path, "fenced", head + _chain_source(True))
    x, _, z = gm3()
    with no_reports():
        fenced.chain[1](x, z, 256)
    np.testing.assert_array_equal(z, (x + 1) * 2)
    if auto_sync:  # bisheng's --cce-auto-sync inserts PipeBarrier<PIPE_V> itself
        with no_reports():
            bare.chain[1](x, z, 256)
        return
    with pytest.raises(asc.SanitizerError) as info:
        bare.chain[1](x, z, 256)
    e = info.value
    assert (e.kind, e.pipes) == ("race", ("V", "V")) and "within pipe V" in e.message
    assert "asc.pipe_barrier(asc.PipeID.PIPE_V)" in e.fix and "auto_sync=True" in e.fix


SCALAR_KERNEL = """
import asc


@asc.jit(auto_sync=AUTO_SYNC)
def scalar_access(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4096, n)
    asc.data_copy(xl, x_gm, n)
    asc.duplicate(zl, 0.0, n)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    zl.set_value(1, xl.get_value(0) + 1)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, zl, n)


def run():
    import numpy as np
    x = np.arange(64, dtype=np.float32)
    z = np.full(64, -1, np.float32)
    scalar_access[1](x, z, 64)
    want = np.zeros(64, np.float32)
    want[1] = 1
    np.testing.assert_array_equal(z, want)
"""


@pytest.mark.parametrize("auto_sync", [True, False])
def test_scalar_unit_accesses_need_flags_only_without_auto_sync(tmp_path: Path, auto_sync: bool) -> None:
    text = SCALAR_KERNEL.replace("AUTO_SYNC", str(auto_sync))
    with no_reports():
        load_source(tmp_path, "with_flags", text).run()
    bare = "\n".join(line for line in text.splitlines()
                     if "asc.set_flag" not in line and "asc.wait_flag" not in line)
    mod = load_source(tmp_path, "no_flags", bare)
    if auto_sync:  # the compiler orders GetValue / SetValue against V, MTE2, MTE3
        with no_reports():
            mod.run()
        return
    with pytest.raises(asc.SanitizerError) as info:
        mod.run()
    e = info.value
    assert e.kind == "race" and e.api == "LocalTensor.get_value" and e.pipes == ("S", "MTE2")
    assert "asc.HardEvent.MTE2_S" in e.fix


# ---------------------------------------------------------------------------
# uninitialised reads
# ---------------------------------------------------------------------------

@asc.jit
def relu_copies_the_wrong_buffer(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """The fused ReLU + pooling tutorial's mistake: ReLU goes into one local
    buffer, and another one, never written, is copied out."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 1)
    q_out = asc.TQue(asc.TPosition.VECOUT, 2)
    pipe.init_buffer(q_in, 1, n * 4)
    pipe.init_buffer(q_out, 2, n * 4)
    x_ub = q_in.alloc_tensor(x.dtype)
    asc.data_copy(x_ub, x_gm, n)
    q_in.enque(x_ub)
    x_ub = q_in.deque(x.dtype)
    relu_ub = q_out.alloc_tensor(x.dtype)
    pool_ub = q_out.alloc_tensor(x.dtype)
    asc.relu(relu_ub, x_ub, n)
    q_out.enque(pool_ub)
    q_in.free_tensor(x_ub)
    pool_ub = q_out.deque(x.dtype)
    asc.data_copy(z_gm, pool_ub, n)
    q_out.free_tensor(pool_ub)
    q_out.free_tensor(relu_ub)


def test_relu_into_one_buffer_copy_out_of_another_is_an_uninitialised_read() -> None:
    x, _, z = gm3()
    with pytest.raises(asc.SanitizerError) as info:
        relu_copies_the_wrong_buffer[1](x, z, 256)
    e = info.value
    read = line_of(relu_copies_the_wrong_buffer, "asc.data_copy(z_gm, pool_ub")
    relu = line_of(relu_copies_the_wrong_buffer, "asc.relu(")
    alloc = line_of(relu_copies_the_wrong_buffer, "pool_ub = q_out.alloc_tensor")
    assert (e.kind, e.api, e.line, e.pipes) == ("uninit", "asc.data_copy", read, ("MTE3", "V"))
    assert (e.other_api, e.other_line) == ("asc.relu", relu)
    assert (e.memory, e.byte_range) == ("UB", (2048, 3072))  # pool_ub: q_out's second buffer
    text = str(e)
    assert f"{BASE}:{read}" in text and f"{BASE}:{relu}" in text and f"{BASE}:{alloc}" in text
    assert "uninitialised read" in text and "UB bytes [1024, 2048)" in e.fix
    assert not z.any()


@asc.jit
def partial_init(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(xl, x_gm, n - 8)
    xl.set_value(n - 8, 1.0)  # one more element: the rest of that block stays unwritten
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, xl, n)


def test_uninitialised_reads_are_exact_to_the_byte() -> None:
    x, _, z = gm3(64)
    with pytest.raises(asc.SanitizerError) as info:
        partial_init[1](x, z, 64)
    e = info.value
    assert e.kind == "uninit" and e.byte_range == (4 * 57, 4 * 64)
    assert e.other_line == line_of(partial_init, "xl.set_value")  # the latest write nobody read


# ---------------------------------------------------------------------------
# synchronisation misuse
# ---------------------------------------------------------------------------

@asc.jit
def wait_before_set(x: asc.GlobalAddress, n: int):
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)


@asc.jit
def set_twice(x: asc.GlobalAddress, n: int):
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 1)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 1)
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 1)
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 1)


@asc.jit
def set_never_waited(x: asc.GlobalAddress, n: int):
    asc.set_flag(asc.HardEvent.V_MTE3, 2)


def test_wait_with_no_earlier_set_is_reported_at_the_wait() -> None:
    with pytest.raises(asc.SanitizerError) as info:
        wait_before_set[1](np.zeros(8, np.float32), 0)
    e = info.value
    assert (e.kind, e.api, e.line) == ("sync", "asc.wait_flag", line_of(wait_before_set, "asc.wait_flag("))
    assert "deadlock" in e.message and e.pipes == ("V", "MTE2")
    assert e.fix.startswith("issue `asc.set_flag(asc.HardEvent.MTE2_V, 0)` before line")


def test_set_of_a_set_flag_is_reported_with_both_sets() -> None:
    with pytest.raises(asc.SanitizerError) as info:
        set_twice[1](np.zeros(8, np.float32), 0)
    e = info.value
    lines, first = inspect.getsourcelines(set_twice.fn)
    sets = [first + i for i, t in enumerate(lines) if "asc.set_flag(" in t]
    assert (e.kind, e.line, e.other_line) == ("sync", sets[1], sets[0])
    assert "undefined behaviour" in e.message
    assert e.fix.startswith(f"insert `asc.wait_flag(asc.HardEvent.MTE3_MTE2, 1)` between line {sets[0]} and "
                            f"line {sets[1]}")


def test_set_never_waited_for_is_reported_when_the_block_ends() -> None:
    with pytest.raises(asc.SanitizerError) as info:
        set_never_waited[3](np.zeros(8, np.float32), 0)
    e = info.value
    assert (e.kind, e.block, e.line) == ("sync", 0, line_of(set_never_waited, "asc.set_flag("))
    assert "never waited for" in e.message and "wait_flag(asc.HardEvent.V_MTE3, 2)" in e.fix


@asc.jit
def bad_event_id(x: asc.GlobalAddress, n: int):
    asc.set_flag(asc.HardEvent.MTE2_V, n)
    asc.wait_flag(asc.HardEvent.MTE2_V, n)


@asc.jit
def enque_past_depth(x: asc.GlobalAddress, n: int):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 2, 256)
    a = q.alloc_tensor(x.dtype)
    b = q.alloc_tensor(x.dtype)
    q.enque(a)
    q.enque(b)


@asc.jit
def free_foreign(x: asc.GlobalAddress, n: int):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    r = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 256)
    pipe.init_buffer(r, 1, 256)
    a = q.alloc_tensor(x.dtype)
    r.free_tensor(a)


@pytest.mark.parametrize("kernel,n,message", [(bad_event_id, 8, "out of range"),
                                              (enque_past_depth, 0, "full TQue"),
                                              (free_foreign, 0, "did not allocate")],
                         ids=["event-id", "enque-depth", "foreign-free"])
def test_misuse_the_simulator_catches_stays_a_kernel_error(kernel: Any, n: int, message: str) -> None:
    with pytest.raises(asc.KernelError) as info:
        kernel[1](np.zeros(8, np.float32), n)
    assert type(info.value) is asc.KernelError and message in info.value.message


# ---------------------------------------------------------------------------
# misaligned DataCopy lengths: a warning in every mode but off
# ---------------------------------------------------------------------------

@asc.jit
def short_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(xl, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, xl, 8)


@pytest.mark.parametrize("mode", ["error", "warn"])
def test_copy_length_that_loses_bytes_is_a_warning(mode: str) -> None:
    x, _, z = gm3(64)
    with pytest.warns(asc.SanitizerWarning) as got:
        short_copy[1](x, z, 13, sanitize=mode)
    (w,) = got.list
    e = w.message.error
    assert (e.kind, e.line) == ("align", line_of(short_copy, "asc.data_copy(xl, x_gm"))
    assert "13 float32 elements (52 bytes)" in e.message and "the last 20 bytes are not copied" in e.message
    assert e.fix.startswith("copy a multiple of 8 elements (16 instead of 13")
    np.testing.assert_array_equal(z[:8], x[:8])


def test_nothing_is_checked_when_off() -> None:
    x, _, z = gm3(64)
    with no_reports():
        short_copy[1](x, z, 13, sanitize="off")


# ---------------------------------------------------------------------------
# races between cores
# ---------------------------------------------------------------------------

@asc.jit
def shared_output(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(xl, x_gm, n)  # every block reads all of x: fine
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm[asc.get_block_idx() * 8:], xl, n)  # blocks overlap unless n <= 8


@asc.jit
def own_elements(z: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    b = asc.get_block_idx()
    # distinct bytes, each block's in a 64-byte data cache line of its own (adjacent elements in one line
    # lose writes on the NPU: test_dcache.py)
    g.set_value(b * 16, g.get_value(b * 16) + 1)


def test_blocks_writing_the_same_gm_bytes_race() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    with pytest.raises(asc.SanitizerError) as info:
        shared_output[4](x, z, 16)
    e = info.value
    line = line_of(shared_output, "asc.data_copy(z_gm")
    assert (e.kind, e.block, e.other_block, e.line, e.other_line) == ("core-race", 0, 1, line, line)
    assert (e.memory, e.gm_arg, e.byte_range) == ("GM", 1, (32, 64))
    assert "blocks 0 and 1" in e.message and "asc.get_block_idx()" in e.fix
    with no_reports():
        shared_output[4](x, z, 8)
    np.testing.assert_array_equal(z[:32], np.tile(x[:8], 4))


def test_blocks_reading_shared_data_or_writing_their_own_bytes_do_not_race() -> None:
    z = np.zeros(16 * 16, np.int32)
    with no_reports():
        own_elements[16](z, 0)
    assert (z[::16] == 1).all() and z.sum() == 16


def test_race_between_cores_in_warn_mode() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    reports = sanitizer_warnings(shared_output, x, z, 16, core_num=3)
    # blocks 0-1 and 1-2 overlap: one report per pair of API calls, from the lowest blocks
    assert [(r.kind, r.block, r.other_block) for r in reports] == [("core-race", 0, 1)]
    np.testing.assert_array_equal(z[24:32], x[8:16])  # the launch ran to the end (only block 2 writes these)


# ---------------------------------------------------------------------------
# modes and options
# ---------------------------------------------------------------------------

def test_sanitize_option_is_checked() -> None:
    with pytest.raises(ValueError, match="sanitize"):
        asc.jit(sanitize="loud")(lambda x: None)
    with pytest.raises(ValueError, match="sanitize"):
        missing_mte2_v[1](*gm3(), 256, sanitize=True)
    assert asc.jit(sanitize="warn")(missing_mte2_v.fn).options["sanitize"] == "warn"


def test_jit_option_sets_the_mode_of_every_launch() -> None:
    x, y, z = gm3()
    quiet = asc.jit(sanitize="off")(missing_mte2_v.fn)
    quiet[1](x, y, z, 256)
    quiet[1](x, y, z, 256)  # the cached fast path too
    loud = asc.jit(sanitize="warn")(missing_mte2_v.fn)
    for _ in range(2):
        with pytest.warns(asc.SanitizerWarning):
            loud[1](x, y, z, 256)


RACY_SCRIPT = textwrap.dedent("""
    import warnings
    import numpy as np
    import asc

    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
        asc.data_copy(xl, x_gm, n)
        asc.data_copy(z_gm, xl, n)

    x = np.ones(64, np.float32)
    z = np.zeros(64, np.float32)
    warnings.simplefilter("always")
    try:
        k[1](x, z, 64)
        print("ran", z.sum())
    except asc.SanitizerError as e:
        print("error", e.kind)
""")


@pytest.mark.parametrize("env,stdout,stderr", [(None, "error race", ""), ("error", "error race", ""),
                                               ("warn", "ran 64.0", "SanitizerWarning"), ("OFF", "ran 64.0", ""),
                                               ("loud", "", "PYASC_SANITIZE must be")])
def test_pyasc_sanitize_environment_variable(tmp_path: Path, env: Optional[str], stdout: str, stderr: str) -> None:
    script = tmp_path / "racy.py"
    script.write_text(RACY_SCRIPT)
    environ = {k: v for k, v in os.environ.items() if k != "PYASC_SANITIZE"}
    if env is not None:
        environ["PYASC_SANITIZE"] = env
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environ, timeout=120)
    assert stdout in out.stdout and stderr in out.stderr, out.stdout + out.stderr
    if stderr != "SanitizerWarning":
        assert "SanitizerWarning" not in out.stderr


def test_reports_pickle() -> None:
    x, y, z = gm3()
    with pytest.raises(asc.SanitizerError) as info:
        missing_mte2_v[1](x, y, z, 256)
    e = pickle.loads(pickle.dumps(info.value))
    assert str(e) == str(info.value) and e.fix == info.value.fix and e.pipes == info.value.pipes
    w = pickle.loads(pickle.dumps(asc.SanitizerWarning(info.value)))
    assert str(w) == str(info.value)


# ---------------------------------------------------------------------------
# no reports on correct kernels: the examples (run more thoroughly by
# test_examples.py, under the default mode `error`)
# ---------------------------------------------------------------------------

def load_path(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


EXAMPLE_FILES = {"01_add": EXAMPLES / "01_add" / "add.py",
                 "02_add_framework": EXAMPLES / "02_add_framework" / "add_framework.py",
                 "relu": EXAMPLES / "relu" / "relu.py"}


@pytest.mark.parametrize("name", sorted(EXAMPLE_FILES))
def test_examples_have_no_reports(name: str) -> None:
    with no_reports():
        load_path(EXAMPLE_FILES[name], f"clean_{name}").run()


# ---------------------------------------------------------------------------
# the mutation suite
# ---------------------------------------------------------------------------

def inline_device_functions(text: str) -> str:
    """The module with every statement that calls an @asc.jit device
    function of the same module replaced by the callee's body (arguments
    substituted for parameters). The kernel stays equivalent; tensors that
    one device function hands to another through a TQue now live in one
    scope, so that the queue can be replaced by direct use."""
    tree = ast.parse(text)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}

    class Substitute(ast.NodeTransformer):
        def __init__(self, mapping: Dict[str, ast.expr]):
            self.mapping = mapping

        def visit_Name(self, node: ast.Name) -> ast.AST:
            if isinstance(node.ctx, ast.Load) and node.id in self.mapping:
                return copy.deepcopy(self.mapping[node.id])
            return node

    class Inline(ast.NodeTransformer):
        def visit_Expr(self, node: ast.Expr) -> Any:
            call = node.value
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in funcs:
                callee = funcs[call.func.id]
                params = [a.arg for a in callee.args.args]
                mapping = dict(zip(params, call.args))
                return [Substitute(mapping).visit(copy.deepcopy(s)) for s in callee.body
                        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            return node

    kernels = [f for f in funcs.values() if any(_is_jit(d) for d in f.decorator_list)]
    callees = {n.func.id for k in kernels for n in ast.walk(k)
               if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in funcs}
    for k in kernels:
        if k.name not in callees:
            Inline().visit(k)
    tree.body = [s for s in tree.body if not (isinstance(s, ast.FunctionDef) and s.name in callees)]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _is_jit(d: ast.expr) -> bool:
    target = d.func if isinstance(d, ast.Call) else d
    return isinstance(target, ast.Attribute) and target.attr == "jit"


@dataclass
class Mutant:
    name: str  # example: what was changed
    text: str
    kind: str  # "remove" (a sync call) or "direct" (a TQue enque/deque pair)
    line: int  # the line changed (the enque's line for "direct")
    what: str  # the source of the changed line(s)


SYNC_CALLS = ("asc.set_flag(", "asc.wait_flag(", "asc.pipe_barrier(")


def mutants_of(name: str, text: str) -> Iterator[Mutant]:
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        stmt = line.strip()
        if stmt.startswith(SYNC_CALLS):
            indent = line[:len(line) - len(line.lstrip())]
            body = lines[:i] + [f"{indent}pass  # mutant: removed {stmt}\n"] + lines[i + 1:]
            yield Mutant(f"{name}: remove line {i + 1} `{stmt}`", "".join(body), "remove", i + 1, stmt)
    # each TQue enque(t) ... t2 = q.deque(...) pair: t used directly
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)(\w+)\.enque\((\w+)\)\s*$", line)
        if not m:
            continue
        indent, que, tensor = m.groups()
        for j in range(i + 1, len(lines)):
            d = re.match(rf"(\s*)(\w+) = {que}\.deque\(.*\)\s*$", lines[j])
            if d:
                body = list(lines)
                body[i] = f"{indent}pass  # mutant: no enque\n"
                use = f"{d.group(2)} = {tensor}" if d.group(2) != tensor else "pass"
                body[j] = f"{d.group(1)}{use}  # mutant: direct use instead of deque\n"
                yield Mutant(f"{name}: use `{tensor}` directly instead of {que}.enque (line {i + 1}) / "
                             f"{que}.deque (line {j + 1})", "".join(body), "direct", i + 1,
                             f"{line.strip()} / {lines[j].strip()}")
                break


# Kernels of the suite's own, besides the examples: the scalar unit
# (get_value / set_value) and pipe_barrier, under auto_sync on and off.
SUITE_SOURCES: Dict[str, str] = {
    "scalar-auto": SCALAR_KERNEL.replace("AUTO_SYNC", "True"),
    "scalar-manual": SCALAR_KERNEL.replace("AUTO_SYNC", "False"),
    "vv-auto": "import asc\n\n\n@asc.jit(auto_sync=True)" + _chain_source(True) + textwrap.dedent("""
        def run():
            import numpy as np
            x = np.arange(64, dtype=np.float32)
            z = np.zeros(64, np.float32)
            chain[1](x, z, 64)
            np.testing.assert_array_equal(z, (x + 1) * 2)
        """),
}
SUITE_SOURCES["vv-manual"] = SUITE_SOURCES["vv-auto"].replace("auto_sync=True", "auto_sync=False")

# Mutants that are not reported, each with the reason it is harmless:
# (source name, kind, the changed source) -> reason.
_OTHER_ENQUE_COVERS = (
    "copy_in issues both copies and then both enques: the other input queue's enque is an implicit "
    "set_flag(MTE2_V), which the NPU executes only once every earlier MTE2 instruction has finished (devkit "
    "同步控制/核内同步/SetFlag-WaitFlag(ISASI).md), this queue's copy included; compute deques that other "
    "queue (its wait_flag(MTE2_V)) before the add, so the add still comes after this copy. (free_tensor / "
    "alloc_tensor, which order the next copy after the add, are untouched.)")

HARMLESS: Dict[Tuple[str, str, str], str] = {
    ("02_add_framework", "direct", "x_in.enque(x_ub) / x_ub = x_in.deque(z_gm.dtype)"): _OTHER_ENQUE_COVERS,
    ("02_add_framework", "direct", "y_in.enque(y_ub) / y_ub = y_in.deque(z_gm.dtype)"): _OTHER_ENQUE_COVERS,
    ("vv-auto", "remove", "asc.pipe_barrier(asc.PipeID.PIPE_V)"):
        "with auto_sync=True bisheng's --cce-auto-sync inserts PipeBarrier<PIPE_V> between dependent vector "
        "instructions itself (devkit 同步控制/核内同步/关键特性说明.md, table 3: PIPE_V -> PIPE_V supported), so "
        "the barrier the kernel writes is redundant",
}


def all_mutants() -> List[Tuple[str, Mutant]]:
    out: List[Tuple[str, Mutant]] = []
    for name, path in sorted(EXAMPLE_FILES.items()):
        text = path.read_text()
        if name == "02_add_framework":  # the queue hands tensors between device functions
            text = inline_device_functions(text)
        out += [(name, m) for m in mutants_of(name, text)]
    for name, text in SUITE_SOURCES.items():
        out += [(name, m) for m in mutants_of(name, text)]
    return out


MUTANTS = all_mutants()


def test_mutation_suite_covers_every_sync_call_and_queue() -> None:
    counts: Dict[str, Dict[str, int]] = {}
    for name, m in MUTANTS:
        counts.setdefault(name, {"remove": 0, "direct": 0})[m.kind] += 1
    # 01_add: every set_flag / wait_flag line; 02_add_framework: 3 queues; relu: 2 queues
    calls = [t for t in EXAMPLE_FILES["01_add"].read_text().splitlines() if t.strip().startswith(SYNC_CALLS)]
    assert counts["01_add"] == {"remove": len(calls), "direct": 0} and len(calls) >= 6
    assert counts["02_add_framework"] == {"remove": 0, "direct": 3}
    assert counts["relu"] == {"remove": 0, "direct": 2}
    assert counts["scalar-auto"]["remove"] == counts["scalar-manual"]["remove"] == 6
    assert counts["vv-auto"]["remove"] == 5


def test_inlined_add_framework_is_still_correct_and_clean(tmp_path: Path) -> None:
    text = inline_device_functions(EXAMPLE_FILES["02_add_framework"].read_text())
    assert "copy_in(i" not in text and "x_in.deque(" in text
    with no_reports():
        load_source(tmp_path, "inlined", text).run()


@pytest.mark.parametrize("name,mutant", MUTANTS, ids=[m.name for _, m in MUTANTS])
def test_mutant_is_reported(tmp_path: Path, name: str, mutant: Mutant) -> None:
    mod = load_source(tmp_path, f"mutant_{name.replace('-', '_')}_{mutant.line}", mutant.text)
    reason = HARMLESS.get((name, mutant.kind, mutant.what))
    if reason is not None:
        with no_reports():
            mod.run()  # harmless: runs clean, and right (each run() checks its results)
        with no_reports():
            mod.run(**({"size": 8 * 256} if name == "02_add_framework" else {}))  # another shape
        return
    with pytest.raises(asc.KernelError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", asc.SanitizerWarning)
            mod.run()
    e = info.value
    src = str(tmp_path / f"mutant_{name.replace('-', '_')}_{mutant.line}.py")
    assert e.filename == src and e.line > 0
    if not isinstance(e, asc.SanitizerError):
        # a wait of the scalar unit (X_S) with no set before it blocks every later instruction: the
        # simulator itself reports the deadlock, at that wait
        assert mutant.what.startswith("asc.set_flag(") and "_S," in mutant.what, str(e)
        assert e.api == "asc.wait_flag" and "deadlock" in e.message
        return
    if mutant.kind == "direct":
        # the consumer's access races with the producer's: both calls named
        assert e.kind == "race" and e.other_filename == src and e.other_line > 0, str(e)
        assert "enque" in e.fix, e.fix
        return
    call = mutant.what
    event = re.search(r"HardEvent\.(\w+)", call)
    if call.startswith("asc.set_flag("):
        # its wait now waits for nothing earlier: reported at that wait, and the fix issues the set
        assert (e.kind, e.api) == ("sync", "asc.wait_flag"), str(e)
        assert e.fix.startswith(f"issue `asc.set_flag(asc.HardEvent.{event.group(1)}, ") and \
            f"before line {e.line}" in e.fix, e.fix
    elif call.startswith("asc.wait_flag("):
        # the accesses it ordered race, or its set_flag is left set: the fix puts the wait back
        assert e.kind in ("race", "sync"), str(e)
        assert f"asc.wait_flag(asc.HardEvent.{event.group(1)}, " in e.fix, e.fix
        if e.kind == "race":
            assert e.other_line > 0 and e.fix.startswith("insert") and f"before line {e.line}" in e.fix
        else:
            assert e.api == "asc.set_flag" and f"after line {e.line}" in e.fix
    else:
        assert e.kind == "race" and "pipe_barrier" in e.fix, str(e)
