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
from conftest import compiles_during

import asc
from asc.runtime import cache

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


def test_a_disk_cache_hit_does_not_import_the_compiler(workdir: Path, env: Dict[str, str]) -> None:
    """A process whose kernel comes from the disk cache never imports asc.runtime.compiler (the AST visitor
    and the passes' driver): its first launch costs only what a hit needs (docs/cache.md)."""
    run(workdir, env)  # fills the cache
    script = workdir / "hit.py"
    script.write_text(f"""
import sys
import numpy as np
sys.path.insert(0, {str(workdir)!r})
import kmod
z = np.zeros(8, np.int32)
kmod.kern[1](z, 3, 1)
print(int(z[0]), "asc.runtime.compiler" in sys.modules, all(c.from_disk for c in kmod.kern.cache.values()))
""")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["17", "False", "True"]


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
    assert len(list((tmp_path / "cache").glob("*.asclink"))) == 1  # and one fast-key link to it
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


# ---- the fast key: checked first, the entry key only on a miss -----------------------------
# A kernel module whose device function, captured global and struct class each live in a module of
# their own, so that each can change while the kernel's file stays the same.

FAST_KERNEL = '''
import asc
from kdep_fn import helper
from kdep_val import FACTOR
from kdep_struct import Cfg

@asc.jit{jit_options}
def kern(z: asc.GlobalAddress, cfg: Cfg, n: int, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, helper(n) + FACTOR + k + cfg.a{kernel_extra})
{tail}'''

FAST_DEP_FN = '''
import asc

@asc.jit
def helper(v):
    return v * {helper_factor}
'''

# the value comes from the environment: the file stays the same when it changes
FAST_DEP_VAL = '''
import os
FACTOR = int(os.environ.get("KFAST_FACTOR", "10"))
'''

FAST_DEP_STRUCT = '''
from asc.language.core.dtype import KnownTypes as KT
from asc.language.core.struct import Field, Struct


class Cfg(Struct):
    a = Field(dtype=KT.int32, default=0)
{struct_extra}'''

# counts the entry keys computed (the full key: reading and tokenizing the sources)
FAST_RUNNER = '''
import json, sys, warnings
import numpy as np
sys.path.insert(0, {dir!r})
import asc
import asc.runtime.config as config
from asc.runtime import cache, compiler
{setup}
import kfast
compiled, full_keys = [], []
compiler.compile_listeners.append(compiled.append)
entry_key = cache.entry_key
def counting(*args, **kwargs):
    full_keys.append(1)
    return entry_key(*args, **kwargs)
cache.entry_key = counting
z = np.zeros(8, np.int32)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    kfast.kern[1](z, kfast.Cfg(a=4), 3, {k}{call_options})
print(json.dumps({{"result": int(z[0]), "compiled": len(compiled), "full_keys": len(full_keys),
                  "warnings": [str(x.message) for x in w]}}))
'''


def write_fast_modules(d: Path, kernel_extra: str = "", jit_options: str = "", tail: str = "",
                       helper_factor: int = 2, struct_extra: str = "") -> None:
    (d / "kfast.py").write_text(FAST_KERNEL.format(kernel_extra=kernel_extra, jit_options=jit_options, tail=tail))
    (d / "kdep_fn.py").write_text(FAST_DEP_FN.format(helper_factor=helper_factor))
    (d / "kdep_val.py").write_text(FAST_DEP_VAL)
    (d / "kdep_struct.py").write_text(FAST_DEP_STRUCT.format(struct_extra=struct_extra))


def run_fast(d: Path, env: Dict[str, str], k: int = 1, call_options: str = "", setup: str = "") -> Dict[str, Any]:
    script = d / "fast_runner.py"
    script.write_text(FAST_RUNNER.format(dir=str(d), k=k, call_options=call_options, setup=setup))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


BASE = 3 * 2 + 10 + 1 + 4  # helper(3) + FACTOR + k + cfg.a

# (change, what to run with, the result) - each must miss the fast key and compile anew
FAST_MISSES: List[Any] = [
    ("kernel_source", dict(modules=dict(kernel_extra=" + 100")), BASE + 100),
    ("device_function_in_another_file", dict(modules=dict(helper_factor=5)), 3 * 5 + 10 + 1 + 4),
    ("captured_global_in_another_file", dict(env=dict(KFAST_FACTOR="20")), BASE + 10),
    ("struct_class_in_another_file", dict(modules=dict(struct_extra="    b = Field(dtype=KT.int32, default=0)\n")),
     BASE),
    ("package_version", dict(setup="asc.__version__ = asc.__version__ + '.other'"), BASE),
    ("core_build", dict(setup="cache._CORE_STAMP = 'another build'"), BASE),
    ("platform", dict(setup="config.set_platform(config.Backend.Model, config.Platform.Ascend910B2)"), BASE),
    ("jit_option", dict(modules=dict(jit_options="(opt_level=1)")), BASE),
    ("call_option", dict(call_options=", opt_level=1"), BASE),
    ("constexpr", dict(k=2), BASE + 1),
]


@pytest.fixture
def fastdir(tmp_path: Path) -> Path:
    d = tmp_path / "fast"
    d.mkdir()
    write_fast_modules(d)
    return d


def test_fast_key_hit_computes_no_entry_key(fastdir: Path, env: Dict[str, str]) -> None:
    first = run_fast(fastdir, env)
    assert first == {"result": BASE, "compiled": 1, "full_keys": 1, "warnings": []}
    second = run_fast(fastdir, env)
    assert second == {"result": BASE, "compiled": 0, "full_keys": 0, "warnings": []}


@pytest.mark.parametrize("change,how,expected", FAST_MISSES, ids=[c[0] for c in FAST_MISSES])
def test_each_fast_key_component_misses(fastdir: Path, env: Dict[str, str], change: str, how: Dict[str, Any],
                                        expected: int) -> None:
    run_fast(fastdir, env)
    assert run_fast(fastdir, env)["full_keys"] == 0  # a fast-key hit
    if "modules" in how:
        write_fast_modules(fastdir, **how["modules"])
    env = {**env, **how.get("env", {})}
    kwargs = {k: v for k, v in how.items() if k in ("k", "call_options", "setup")}
    res = run_fast(fastdir, env, **kwargs)
    assert res["compiled"] == 1 and res["result"] == expected and res["warnings"] == [], res
    # and the new specialisation is itself found by its fast key
    res = run_fast(fastdir, env, **kwargs)
    assert res == {"result": expected, "compiled": 0, "full_keys": 0, "warnings": []}


def test_edit_elsewhere_in_the_file_misses_the_fast_key_only(fastdir: Path, env: Dict[str, str]) -> None:
    """The fast key hashes the kernel's whole file: an edit anywhere misses it, the entry key (the
    kernel's own source) still hits, and the link is rewritten for the file as it is now."""
    run_fast(fastdir, env)
    write_fast_modules(fastdir, tail="# an edit below the kernel\nUNUSED = 1\n")
    assert run_fast(fastdir, env) == {"result": BASE, "compiled": 0, "full_keys": 1, "warnings": []}
    assert run_fast(fastdir, env) == {"result": BASE, "compiled": 0, "full_keys": 0, "warnings": []}


def test_link_to_a_rewritten_entry_is_not_taken(fastdir: Path, env: Dict[str, str], tmp_path: Path) -> None:
    """A link vouches for its entry byte for byte: when another process has rewritten the entry
    (compiled with other globals) after the link was read, the entry key decides."""
    cdir = tmp_path / "cache"
    run_fast(fastdir, env)
    (link,) = cdir.glob("*.asclink")
    old_link = link.read_bytes()
    other = run_fast(fastdir, {**env, "KFAST_FACTOR": "20"})  # rewrites the entry and the link
    assert other["compiled"] == 1 and other["result"] == BASE + 10
    link.write_bytes(old_link)  # as a process that read the link before the rewrite sees it
    res = run_fast(fastdir, env)
    assert res == {"result": BASE, "compiled": 1, "full_keys": 1, "warnings": []}


@pytest.mark.parametrize("damage", ["truncated", "garbage", "checksum", "other_entry", "directory"])
def test_damaged_link_is_ignored_and_rewritten(fastdir: Path, env: Dict[str, str], tmp_path: Path,
                                                damage: str) -> None:
    """A link is only an index: whatever is wrong with it, the entry key decides (silently: the entry
    itself is intact), and the link is written again."""
    cdir = tmp_path / "cache"
    run_fast(fastdir, env)
    (link,) = cdir.glob("*.asclink")
    data = link.read_bytes()
    if damage == "truncated":
        link.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        link.write_bytes(b"garbage\n\x00\xff")
    elif damage == "checksum":
        link.write_bytes(data.replace(b'"kernel"', b'"kernel" ', 1))
    elif damage == "other_entry":  # names an entry that is not there, with a valid checksum
        magic, _, header = data.split(b"\n", 2)
        h = json.loads(header)
        h["key"] = "0" * 32
        header = json.dumps(h).encode()
        link.write_bytes(magic + b"\n" + cache.sha256(header).hexdigest().encode() + b"\n" + header)
    else:
        link.unlink()
        link.mkdir()
    res = run_fast(fastdir, env)
    assert res == {"result": BASE, "compiled": 0, "full_keys": 1, "warnings": []}
    if damage != "directory":  # rewritten: the next process takes the fast key again
        assert run_fast(fastdir, env)["full_keys"] == 0


def test_clear_removes_links(fastdir: Path, env: Dict[str, str], tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    run_fast(fastdir, env)
    cdir = tmp_path / "cache"
    assert len(list(cdir.glob("*.asclink"))) == 1
    monkeypatch.setenv("PYASC_CACHE_DIR", str(cdir))
    assert [e.kernel for e in cache.entries()] == ["kern"]  # entries() lists entries, not links
    assert cache.clear("other") == 0 and len(list(cdir.iterdir())) == 2
    assert cache.clear() == 1  # the entry (links are not counted)
    assert list(cdir.iterdir()) == []


# ---- in-process ------------------------------------------------------------------------------

FACTOR = 3


@asc.jit
def _uses_global(z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, FACTOR * 2)


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
