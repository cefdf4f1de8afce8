"""The number of host worker threads is configurable and never changes results."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, List, Set

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc import _C


@asc.jit
def _blocks(z: asc.GlobalAddress, per_block: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z + asc.get_block_idx() * per_block)
    acc = asc.int32(0)
    blk = asc.int32(asc.get_block_idx())
    for i in range(per_block):
        acc = acc * 31 + blk + i
        g.set_value(i, acc)


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_results_do_not_depend_on_workers(workers: int) -> None:
    ref = np.zeros(16 * 16, np.int32)
    config.set_workers(1)
    try:  # 16 int32 per block: a 64-byte data cache line each (docs/sanitizer.md)
        _blocks[16](ref, 16)
        out = np.zeros_like(ref)
        config.set_workers(workers)
        _blocks[16](out, 16)
    finally:
        config.set_workers(0)
    np.testing.assert_array_equal(out, ref)
    assert config.get_workers() == 0


def test_set_workers_validates() -> None:
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            config.set_workers(bad)  # type: ignore[arg-type]


def test_environment_variable() -> None:
    code = "import asc.runtime.config as c; print(c.get_workers())"
    env = {**os.environ, "PYASC_WORKERS": "3"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "3", out.stderr
    env["PYASC_WORKERS"] = "many"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode != 0 and "PYASC_WORKERS" in out.stderr


def test_core_num_limit() -> None:
    z = np.zeros(8, np.int32)
    with pytest.raises(ValueError, match="65535"):
        _blocks[65536](z, 8)
    with pytest.raises(ValueError, match="positive"):
        _blocks[0](z, 8)


@asc.jit
def _registers_at_block_start(x: asc.GlobalAddress, z: asc.GlobalAddress):
    # every block reads the merge result and CmpMask registers first, then sets both
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z + asc.get_block_idx() * 8)
    xl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
    zl = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
    ml = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 512, 32)
    rl = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 640, 8)
    asc.get_cmp_mask(ml)
    a, b, c, d = asc.get_mrg_sort_result()
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    rl.set_value(0, a + b + c + d)
    rl.set_value(1, ml.get_value(0) | ml.get_value(1) | ml.get_value(2) | ml.get_value(3))
    for k in range(2, 8):
        rl.set_value(k, 0)
    asc.data_copy(xl, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    src = asc.MrgSortSrcList(asc.float32, xl, xl[32])
    asc.mrg_sort(zl, src, [16, 16, 0, 0], [0, 0, 0, 0], 3, 1, False)
    asc.set_cmp_mask(xl)
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(z_gm, rl, 8)


@pytest.mark.parametrize("workers", [1, 4])
def test_every_block_starts_with_the_registers_of_a_fresh_core(workers: int) -> None:
    """A block that runs after another on the same worker does not see its registers."""
    x = np.zeros(64, np.float32)  # two sorted lists of 16 (score, index 0) pairs
    x[0:32:2] = np.arange(16, 0, -1)
    x[32:64:2] = np.arange(16, 0, -1) - 0.5
    z = np.full(4 * 8, 7, np.uint32)
    config.set_workers(workers)
    try:
        _registers_at_block_start[4](x, z)
    finally:
        config.set_workers(0)
    np.testing.assert_array_equal(z, 0)


# ---- the helper threads kept between launches (src/sim/pool.c) ----------------------------------


def _task_ids() -> Set[str]:
    """The process's thread ids (Linux), or an empty set where /proc does not list them."""
    try:
        return set(os.listdir("/proc/self/task"))
    except OSError:
        return set()


def _expected(blocks: int, per_block: int) -> np.ndarray:
    ref = np.zeros(blocks * per_block, np.int32)
    for b in range(blocks):
        acc = 0
        for i in range(per_block):
            acc = (acc * 31 + b + i) & 0xFFFFFFFF
            ref[b * per_block + i] = np.uint32(acc).view(np.int32)
    return ref


def _wait_for(cond: Callable[[], bool], seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        time.sleep(0.01)
    return cond()


def test_helper_threads_persist_between_launches() -> None:
    ref = _expected(16, 16)
    config.set_workers(2)
    try:
        out = np.zeros_like(ref)
        _blocks[16](out, 16)
        np.testing.assert_array_equal(out, ref)
        # the launching thread is one worker, one helper the other (helpers of earlier launches
        # with more workers end)
        assert _C.helper_threads() == 1
        time.sleep(0.2)  # for those to be gone
        tasks = _task_ids()
        for _ in range(30):
            out[:] = 0
            _blocks[16](out, 16)
            np.testing.assert_array_equal(out, ref)
            assert _C.helper_threads() == 1
        assert _task_ids() == tasks  # the same threads: none made or ended per launch
    finally:
        config.set_workers(0)


def test_helper_threads_follow_the_worker_setting() -> None:
    ref = _expected(16, 2000)
    out = np.zeros_like(ref)
    try:
        config.set_workers(4)
        for _ in range(3):
            _blocks[16](out, 2000)
            assert 1 <= _C.helper_threads() <= 3
        np.testing.assert_array_equal(out, ref)
        config.set_workers(2)
        _blocks[16](out, 2000)
        # idle helpers beyond the setting end at once, busy ones after their block
        assert _wait_for(lambda: _C.helper_threads() <= 1), _C.helper_threads()
        config.set_workers(1)
        out[:] = 0
        _blocks[16](out, 2000)  # one worker: the launching thread alone, the pool left as it is
        np.testing.assert_array_equal(out, ref)
        assert _C.helper_threads() <= 1
    finally:
        config.set_workers(0)


def test_concurrent_launches_from_python_threads() -> None:
    """The GIL is released during a launch: launches from several threads share the helpers,
    and each gets its own results."""
    errors: List[BaseException] = []

    def run(blocks: int) -> None:
        try:
            ref = _expected(blocks, 48)
            for _ in range(15):
                out = np.zeros_like(ref)
                _blocks[blocks](out, 48)
                np.testing.assert_array_equal(out, ref)
        except BaseException as e:  # noqa: BLE001 (reported by the main thread)
            errors.append(e)

    config.set_workers(3)
    try:
        threads = [threading.Thread(target=run, args=(b,)) for b in (5, 8, 13, 16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not any(t.is_alive() for t in threads), "a launch did not finish"
    finally:
        config.set_workers(0)
    assert errors == []


_FORK_SCRIPT = """
import os, signal, sys, threading
import numpy as np
import asc
import asc.runtime.config as config
from asc import _C

@asc.jit
def blocks(z: asc.GlobalAddress, per_block: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z + asc.get_block_idx() * per_block)
    for i in range(per_block):
        g.set_value(i, asc.get_block_idx() * 1000 + i)

def check(blocks_n, per_block):
    z = np.zeros(blocks_n * per_block, np.int32)
    blocks[blocks_n](z, per_block)
    want = (np.arange(blocks_n)[:, None] * 1000 + np.arange(per_block)[None, :]).ravel()
    return bool((z == want).all())

config.set_workers(2)
assert check(8, 16) and _C.helper_threads() == 1
stop = False

def keep_launching():  # launches run (and hold the pool's lock now and then) while the process forks
    while not stop:
        assert check(8, 208)

busy = threading.Thread(target=keep_launching)
busy.start()
bad = 0
for _ in range(5):
    pid = os.fork()
    if pid == 0:
        signal.alarm(60)  # a hang in the child ends it with SIGALRM
        ok = _C.helper_threads() == 0  # the parent's helpers do not exist here
        ok = ok and all(check(8, 16) for _ in range(5)) and _C.helper_threads() == 1
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    bad += not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0)
stop = True
busy.join()
print("children failed:", bad)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
def test_forked_child_launches_with_helpers_of_its_own(tmp_path: Path) -> None:
    script = tmp_path / "fork_launch.py"
    script.write_text(_FORK_SCRIPT)
    env = {**os.environ, "PYASC_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "children failed: 0", out.stderr


_EXIT_SCRIPT = """
import sys, threading, time
import numpy as np
import asc
import asc.runtime.config as config

@asc.jit
def spin(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x + asc.get_block_idx() * 16, 16)
    i = 0
    while i < n:
        i = i + 0 * n  # never ends
    g.set_value(0, 1)

@asc.jit
def one(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x + asc.get_block_idx() * 16, 16)
    g.set_value(0, 42)

config.set_workers(3)
x = np.zeros(8 * 16, np.int32)
one[8](x)
assert (x[::16] == 42).all()
if sys.argv[1] == "busy":  # a daemon thread is in an endless launch as the interpreter exits
    threading.Thread(target=lambda: spin[8](np.zeros(8 * 16, np.int32), 5), daemon=True).start()
    time.sleep(0.5)
print("exiting", flush=True)
"""


@pytest.mark.parametrize("state", ["idle", "busy"])
def test_interpreter_exits_with_helper_threads(tmp_path: Path, state: str) -> None:
    script = tmp_path / "exit_with_helpers.py"
    script.write_text(_EXIT_SCRIPT)
    env = {**os.environ, "PYASC_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, str(script), state], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "exiting", out.stderr


@asc.jit
def _sparse_index_at_block_start(a: asc.GlobalAddress, b: asc.GlobalAddress, idx: asc.GlobalAddress,
                                 c: asc.GlobalAddress, load_index: asc.ConstExpr[bool]):
    # 16 x 64 int8 A times a 4:2-sparse B (16 x 32 dense int8 and its index). With load_index, block 0
    # loads B with its index; every other block loads B plainly, so that its mmad_with_sparse reads the
    # index buffer as a fresh core has it
    a_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    i_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    a_gm.set_global_buffer(a)
    b_gm.set_global_buffer(b)
    i_gm.set_global_buffer(idx)
    c_gm.set_global_buffer(c + asc.get_block_idx() * 256)
    pipe = asc.TPipe()
    qa1 = asc.TQue(asc.TPosition.A1, 1)
    qb1 = asc.TQue(asc.TPosition.B1, 1)
    qi1 = asc.TQue(asc.TPosition.B1, 1)
    qa2 = asc.TQue(asc.TPosition.A2, 1)
    qb2 = asc.TQue(asc.TPosition.B2, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    pipe.init_buffer(qa1, 1, 1024)
    pipe.init_buffer(qb1, 1, 512)
    pipe.init_buffer(qi1, 1, 128)
    pipe.init_buffer(qa2, 1, 1024)
    pipe.init_buffer(qb2, 1, 512)
    pipe.init_buffer(qc, 1, 1024)
    a1 = qa1.alloc_tensor(asc.int8)
    b1 = qb1.alloc_tensor(asc.int8)
    i1 = qi1.alloc_tensor(asc.uint8)
    a2 = qa2.alloc_tensor(asc.int8)
    b2 = qb2.alloc_tensor(asc.int8)
    co1 = qc.alloc_tensor(asc.int32)
    asc.data_copy(a1, a_gm, asc.Nd2NzParams(1, 16, 64, 0, 64, 16, 1, 1))
    asc.data_copy(b1, b_gm, 512)
    asc.data_copy(i1, i_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 2, 1, 0, 0, False, 0))
    if load_index:
        if asc.get_block_idx() == 0:
            asc.load_data_with_sparse(b2, b1, i1, asc.LoadData2DParams(start_index=0, repeat_times=1))
        else:
            asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
    else:
        asc.load_data(b2, b1, asc.LoadData2DParams(0, 1, 1, 0, 0, False, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad_with_sparse(co1, a2, b2, asc.MmadParams(m=16, n=16, k=64, cmatrix_init_val=True))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(c_gm, co1, asc.FixpipeParamsV220(n_size=16, m_size=16, src_stride=16, dst_stride=16))


def test_every_block_starts_with_an_empty_sparse_index_buffer() -> None:
    """The index buffer LoadDataWithSparse fills is cleared between blocks on one worker too (only as far
    as a block wrote it, which must still be all of it)."""
    rng = np.random.default_rng(7)
    a = rng.integers(-5, 6, (16, 64)).astype(np.int8)
    b = rng.integers(-5, 6, 512).astype(np.int8)
    # 2-bit entries of 1 or 2 (0 to 2 are valid): none is a fresh core's 0
    fields = rng.integers(1, 3, (128, 4))
    idx = (fields[:, 0] | fields[:, 1] << 2 | fields[:, 2] << 4 | fields[:, 3] << 6).astype(np.uint8)
    fresh = np.zeros(256, np.int32)
    _sparse_index_at_block_start[1](a, b, idx, fresh, False)
    config.set_workers(1)  # block 1 runs after block 0 on the same thread
    try:
        out = np.zeros(2 * 256, np.int32)
        _sparse_index_at_block_start[2](a, b, idx, out, True)
    finally:
        config.set_workers(0)
    assert not np.array_equal(out[:256], fresh)  # the index block 0 loaded makes a difference
    np.testing.assert_array_equal(out[256:], fresh)
