"""The compile cache: in-process and on disk, keys, atomicity, corruption."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import pytest

import asc
from asc.runtime import cache, compiler

# ---- a kernel module written to disk, run in fresh processes -----------------------------

KERNEL_MODULE = '''
import numpy as np
import asc

SCALE = {scale}

@asc.jit
def helper(v):
    return v * {helper_factor}

@asc.jit{jit_options}
def kern(z: asc.GlobalAddress, n: int, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, helper(n) + SCALE + k{kernel_extra})
'''

RUNNER = '''
import json, sys, warnings
import numpy as np
sys.path.insert(0, {dir!r})
import kmod
from asc.runtime import compiler
compiled = []
compiler.compile_listeners.append(compiled.append)
dtype = np.dtype({dtype!r})
z = np.zeros(8, dtype)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    kmod.kern[1](z, 3, {k}{call_options})
print(json.dumps({{"result": float(z[0]), "compiled": len(compiled),
                  "warnings": [str(x.message) for x in w]}}))
'''


def write_module(d: Path, scale: int = 10, helper_factor: int = 2, kernel_extra: str = "",
                 jit_options: str = "") -> None:
    (d / "kmod.py").write_text(KERNEL_MODULE.format(scale=scale, helper_factor=helper_factor,
                                                    kernel_extra=kernel_extra, jit_options=jit_options))


def run(d: Path, env: Dict[str, str], dtype: str = "int32", k: int = 1, call_options: str = "") -> Dict[str, Any]:
    script = d / "runner.py"
    script.write_text(RUNNER.format(dir=str(d), dtype=dtype, k=k, call_options=call_options))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    d = tmp_path / "work"
    d.mkdir()
    write_module(d)
    return d


@pytest.fixture
def env(tmp_path: Path) -> Dict[str, str]:
    e = dict(os.environ)
    e["PYASC_CACHE_DIR"] = str(tmp_path / "cache")
    e.pop("PYASC_DUMP_PATH", None)
    return e


def test_second_process_hits_the_disk_cache(workdir: Path, env: Dict[str, str]) -> None:
    first = run(workdir, env)
    assert first == {"result": 3 * 2 + 10 + 1, "compiled": 1, "warnings": []}
    second = run(workdir, env)
    assert second["result"] == first["result"] and second["compiled"] == 0


@pytest.mark.parametrize("change", ["kernel_source", "device_function", "global", "option", "dtype", "constexpr",
                                    "call_option"])
def test_each_key_component_misses(workdir: Path, env: Dict[str, str], change: str) -> None:
    run(workdir, env)
    assert run(workdir, env)["compiled"] == 0
    kwargs: Dict[str, Any] = {}
    expected = 17.0
    if change == "kernel_source":
        write_module(workdir, kernel_extra=" + 100")
        expected = 117.0
    elif change == "device_function":
        write_module(workdir, helper_factor=5)
        expected = 3 * 5 + 10 + 1
    elif change == "global":
        write_module(workdir, scale=20)
        expected = 27.0
    elif change == "option":
        write_module(workdir, jit_options="(opt_level=1)")
    elif change == "dtype":
        kwargs["dtype"] = "float32"
    elif change == "constexpr":
        kwargs["k"] = 2
        expected = 18.0
    elif change == "call_option":
        kwargs["call_options"] = ", debug=True"
    res = run(workdir, env, **kwargs)
    assert res["compiled"] == 1 and res["result"] == expected
    # and the new specialisation is itself cached
    assert run(workdir, env, **kwargs)["compiled"] == 0


def test_always_compile_bypasses_both_levels(workdir: Path, env: Dict[str, str]) -> None:
    run(workdir, env)
    assert run(workdir, env, call_options=", always_compile=True")["compiled"] == 1


def test_corrupt_and_truncated_entries_are_rebuilt(workdir: Path, env: Dict[str, str], tmp_path: Path) -> None:
    run(workdir, env)
    (entry,) = (tmp_path / "cache").glob("*.ascache")
    data = entry.read_bytes()
    for damaged in (data[: len(data) // 2], data.replace(b"asc.", b"asc,", 1), b"garbage", b""):
        entry.write_bytes(damaged)
        res = run(workdir, env)
        assert res["compiled"] == 1 and res["result"] == 17.0
        assert any("corrupt compile cache entry" in w for w in res["warnings"]), res
        assert run(workdir, env)["compiled"] == 0  # rebuilt and stored again


def test_two_processes_compile_the_same_kernel(workdir: Path, env: Dict[str, str], tmp_path: Path) -> None:
    script = workdir / "runner.py"
    script.write_text(RUNNER.format(dir=str(workdir), dtype="int32", k=1, call_options=""))
    procs = [subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    assert all(json.loads(o[0].strip().splitlines()[-1])["result"] == 17.0 for o in outs)
    entries = list((tmp_path / "cache").glob("*.ascache"))
    assert len(entries) == 1 and not list((tmp_path / "cache").glob(".*tmp"))
    assert run(workdir, env)["compiled"] == 0  # the entry the racers left is intact


def test_cache_directory_environment(workdir: Path, tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("PYASC_CACHE_DIR", "PYASC_HOME", "PYASC_DUMP_PATH")}
    home = tmp_path / "home"
    run(workdir, {**base, "HOME": str(home)})
    assert list((home / ".pyasc" / "cache").glob("*.ascache"))
    pyhome = tmp_path / "pyhome"
    run(workdir, {**base, "HOME": str(home), "PYASC_HOME": str(pyhome)})
    assert list((pyhome / ".pyasc" / "cache").glob("*.ascache"))
    explicit = tmp_path / "explicit"
    run(workdir, {**base, "HOME": str(home), "PYASC_HOME": str(pyhome), "PYASC_CACHE_DIR": str(explicit)})
    assert list(explicit.glob("*.ascache"))


# ---- in-process ------------------------------------------------------------------------------

FACTOR = 3


@asc.jit
def _uses_global(z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, FACTOR * 2)


def compiles_during(fn: Any) -> List[Any]:
    seen: List[Any] = []
    compiler.compile_listeners.append(seen.append)
    try:
        fn()
    finally:
        compiler.compile_listeners.remove(seen.append)
    return seen


def test_in_process_hit_and_global_change() -> None:
    global FACTOR
    z = np.zeros(8, np.int32)
    _uses_global[1](z)
    assert compiles_during(lambda: _uses_global[1](z)) == []
    FACTOR = 4
    try:
        assert len(compiles_during(lambda: _uses_global[1](z))) == 1 and z[0] == 8
        assert compiles_during(lambda: _uses_global[1](z)) == []
    finally:
        FACTOR = 3


def test_cache_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "c"))
    assert cache.cache_dir() == tmp_path / "c" and cache.entries() == []

    @asc.jit
    def listed(z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        g = asc.GlobalTensor()
        g.set_global_buffer(z)
        g.set_value(0, n)

    z = np.zeros(8, np.int32)
    listed[1](z, 1)
    listed[1](z, 2)
    found = cache.entries()
    assert [e.kernel for e in found] == ["listed", "listed"] and all(e.size > 0 for e in found)
    assert cache.clear("other_kernel") == 0 and len(cache.entries()) == 2
    assert cache.clear() == 2 and cache.entries() == []


def test_unstable_globals_are_not_cached_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel that reads an object with no cross-process identity still
    works, but is compiled in each process (its entry could not be checked)."""
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "c"))
    holder = object()

    @asc.jit
    def reads_object(z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(z)
        if holder is not None:
            g.set_value(0, 1)

    z = np.zeros(8, np.int32)
    reads_object[1](z)
    assert z[0] == 1 and cache.entries() == []


def test_docs_describe_the_cache() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "cache.md"
    text = doc.read_text()
    for word in ("PYASC_CACHE_DIR", "PYASC_HOME", "always_compile", "cache.clear", "cache.entries"):
        assert word in text, word
