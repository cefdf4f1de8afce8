"""The in-process compile cache is bounded over the whole process: least
recently launched kernels are evicted (and freed), and come back from disk."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import Any, Iterator, List

import numpy as np
import pytest
from conftest import compiles_during

import asc
from asc.lib.runtime import state
from asc.runtime import cache, memory_cache
from asc.runtime.launcher import fast_key

BOUND = 4


@asc.jit
def spec_kernel(z: asc.GlobalAddress, n: int, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, n + k)


@asc.jit
def other_kernel(z: asc.GlobalAddress, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, k * 100)


OFFSET = 1


@asc.jit
def global_kernel(z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, OFFSET)


@pytest.fixture
def bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYASC_DUMP_PATH", raising=False)
    old = cache.memory_cache_size()
    memory_cache.clear()
    cache.set_memory_cache_size(BOUND)
    yield BOUND
    cache.set_memory_cache_size(old)




def held(z: np.ndarray, k: int) -> Any:
    """spec_kernel's compiled kernel for ConstExpr k, as the fast path finds it (or None)."""
    return spec_kernel.fast_cache.get((fast_key((z, 10, k), spec_kernel.const_mask), state.soc_version))


def test_more_specialisations_than_the_bound(bound: int) -> None:
    z = np.zeros(8, np.int32)
    alive: "weakref.WeakSet[Any]" = weakref.WeakSet()
    n = 3 * bound
    for k in range(n):
        spec_kernel[1](z, 10, k)
        assert z[0] == 10 + k
        alive.update(spec_kernel.cache.values())
        assert memory_cache.count() == min(k + 1, bound)
        assert len(spec_kernel.cache) == len(spec_kernel.fast_cache) == min(k + 1, bound)
    gc.collect()
    # every kernel compiled was seen; only `bound` of them are still alive: the evicted ones were freed
    assert len(alive) == bound
    assert sorted(id(c) for c in alive) == sorted(id(c) for c in memory_cache.kernels())
    assert held(z, 0) is None and held(z, n - 1) is not None
    # an evicted specialisation comes back from disk, not from a compilation, and gives the right result
    z[0] = 0
    assert compiles_during(lambda: spec_kernel[1](z, 10, 0)) == []
    assert z[0] == 10
    reloaded = held(z, 0)
    assert reloaded is not None and reloaded.from_disk
    assert memory_cache.count() == bound and held(z, n - bound) is None  # the oldest made room
    # and it is launched through the fast path again
    z[0] = 0
    spec_kernel[1](z, 11, 0)
    assert z[0] == 11 and held(z, 0) is reloaded


def test_eviction_is_least_recently_launched_first(bound: int) -> None:
    z = np.zeros(8, np.int32)
    for k in range(bound):
        spec_kernel[1](z, 10, k)
    first = held(z, 0)
    spec_kernel[1](z, 10, 0)  # a fast-path hit makes k=0 the most recently used
    assert z[0] == 10
    spec_kernel[1](z, 10, bound)  # one more: evicts k=1, the least recently launched
    assert held(z, 0) is first and held(z, 1) is None
    assert memory_cache.count() == bound


def test_bound_is_over_all_kernels_of_the_process(bound: int) -> None:
    z = np.zeros(8, np.int32)
    spec_kernel[1](z, 10, 0)
    for k in range(bound):
        other_kernel[1](z, k)
        assert z[0] == k * 100
    assert memory_cache.count() == bound
    assert spec_kernel.cache == {} and spec_kernel.fast_cache == {}  # evicted by another function's kernels
    assert len(other_kernel.cache) == bound


def test_a_recompiled_kernel_replaces_the_old_one(bound: int) -> None:
    global OFFSET
    z = np.zeros(8, np.int32)
    global_kernel[1](z)
    (old,) = global_kernel.cache.values()
    OFFSET = 2
    try:
        global_kernel[1](z)
        assert z[0] == 2
        (new,) = global_kernel.cache.values()
        assert new is not old and not memory_cache.holds(old) and memory_cache.count() == 1
        assert list(global_kernel.fast_cache.values()) == [new]
    finally:
        OFFSET = 1


def test_shrinking_the_bound_evicts_now(bound: int) -> None:
    z = np.zeros(8, np.int32)
    for k in range(bound):
        spec_kernel[1](z, 10, k)
    cache.set_memory_cache_size(1)
    assert memory_cache.count() == 1 and cache.memory_cache_size() == 1
    assert len(spec_kernel.cache) == 1 and held(z, bound - 1) is not None


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "4", None])
def test_set_memory_cache_size_rejects(bad: Any) -> None:
    before = cache.memory_cache_size()
    with pytest.raises(ValueError, match="positive integer"):
        cache.set_memory_cache_size(bad)
    assert cache.memory_cache_size() == before


def size_in_child(value: str) -> Any:
    env = {**os.environ, memory_cache.ENV_VAR: value}
    code = ("import json, warnings\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    from asc.runtime import cache\n"
            "print(json.dumps([cache.memory_cache_size(), [str(x.message) for x in w]]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_environment_variable() -> None:
    assert size_in_child("7") == [7, []]
    assert size_in_child("") == [memory_cache.DEFAULT_SIZE, []]
    size, warns = size_in_child("lots")
    assert size == memory_cache.DEFAULT_SIZE and len(warns) == 1 and memory_cache.ENV_VAR in warns[0]


def test_docs_describe_the_memory_bound() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "cache.md").read_text()
    for word in ("PYASC_MEMORY_CACHE_SIZE", "set_memory_cache_size", str(memory_cache.DEFAULT_SIZE),
                 "MAX_ENTRY_BYTES", "RuntimeWarning"):
        assert word in text, word


def test_threads_launching_past_the_bound(bound: int) -> None:
    """Eviction while other threads launch (and hit the fast path) never loses a launch."""
    errors: List[BaseException] = []

    def worker(seed: int) -> None:
        z = np.zeros(8, np.int32)
        try:
            for i in range(40):
                k = (seed * 7 + i) % (2 * bound)
                spec_kernel[1](z, seed, k)
                assert z[0] == seed + k
        except BaseException as e:  # noqa: BLE001 (reported by the main thread)
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert memory_cache.count() == bound and len(spec_kernel.cache) == bound
    assert set(spec_kernel.fast_cache.values()) <= set(spec_kernel.cache.values())
