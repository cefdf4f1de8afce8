"""Damaged disk-cache entries: each kind is discarded with a warning, the
launch still gives the right result, the entry is written again, and the
launch after that loads the rewritten entry."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import subprocess
import sys
import types
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asc
from asc.runtime import cache, compiler, memory_cache


@asc.jit
def damage_kernel(z: asc.GlobalAddress, n: int, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, n * 2 + k)


NESTED = (((((((((((((((((((((1,),),),),),),),),),),),),),),),),),),),),)  # 21 tuples: 42 list levels as a key


@asc.jit
def reads_nested(z: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    if NESTED is not None:
        g.set_value(0, 5)


def forget_in_memory(fn: Any) -> None:
    """Drops fn's compiled kernels from memory, so that the next launch reads the disk cache."""
    for compiled in list(fn.cache.values()):
        memory_cache.forget(compiled)
    assert not fn.cache and not fn.fast_cache


def launch(n: int = 3, k: int = 1) -> Tuple[int, List[str], Any]:
    """(compilations, RuntimeWarning messages, the CompiledKernel) of one launch from a cold
    in-memory cache; checks the result."""
    forget_in_memory(damage_kernel)
    z = np.zeros(8, np.int32)
    seen: List[Any] = []
    compiler.compile_listeners.append(seen.append)
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            damage_kernel[1](z, n, k)
    finally:
        compiler.compile_listeners.remove(seen.append)
    assert z[0] == n * 2 + k
    (compiled,) = damage_kernel.cache.values()
    warns = [x for x in w if issubclass(x.category, RuntimeWarning)]
    assert all(x.filename == __file__ for x in warns), [x.filename for x in warns]  # the user's launch line
    return len(seen), [str(x.message) for x in warns], compiled


@pytest.fixture
def cdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("PYASC_CACHE_DIR", str(d))
    monkeypatch.delenv("PYASC_DUMP_PATH", raising=False)
    monkeypatch.setattr(cache, "_warned", set())
    return d


def good_entry(cdir: Path) -> Tuple[Path, bytes]:
    compiles, warns, compiled = launch()
    assert compiles == 1 and warns == [] and not compiled.from_disk
    (entry,) = cdir.glob("*.ascache")
    return entry, entry.read_bytes()


def split(data: bytes) -> Tuple[Dict[str, Any], bytes]:
    magic, _, header, body = data.split(b"\n", 3)
    assert magic == cache.MAGIC.encode()
    return json.loads(header), body


def join(header_line: bytes, body: bytes) -> bytes:
    """An entry with a correct checksum over this header line and body."""
    rest = header_line + b"\n" + body
    return cache.MAGIC.encode() + b"\n" + hashlib.sha256(rest).hexdigest().encode() + b"\n" + rest


def with_header(data: bytes, **changes: Any) -> bytes:
    header, body = split(data)
    header.update(changes)
    for k, v in changes.items():
        if v is None:
            del header[k]
    return join(json.dumps(header).encode(), body)


def with_ir(data: bytes, old: str, new: str) -> bytes:
    header, body = split(data)
    assert old.encode() in body
    return join(json.dumps(header).encode(), body.replace(old.encode(), new.encode()))


def assert_recovered(entry: Path, good: bytes, reason: str = "") -> None:
    """The launch after the damage compiles (one warning naming the entry), rewrites the entry,
    and the launch after that loads it from disk with no warning."""
    compiles, warns, compiled = launch()
    assert compiles == 1 and not compiled.from_disk
    assert len(warns) == 1 and "corrupt compile cache entry" in warns[0] and str(entry) in warns[0], warns
    assert reason in warns[0], warns
    assert not entry.is_symlink() and stat.S_ISREG(entry.lstat().st_mode)
    assert entry.read_bytes() == good  # the bad entry was replaced by the same, intact one
    compiles, warns, compiled = launch()
    assert compiles == 0 and warns == [] and compiled.from_disk


DEEP = "[" * 100_000 + "]" * 100_000


def deep_key(tuples: int) -> Any:
    """The stable key of `tuples` nested 1-tuples around an int: two list levels each."""
    key: Any = ["int", "1"]
    for _ in range(tuples):
        key = ["tuple", [key]]
    return key

# (name, damage of the entry's bytes, a word the warning's reason contains)
DAMAGES: List[Tuple[str, Callable[[bytes], bytes], str]] = [
    ("truncated_half", lambda d: d[: len(d) // 2], "checksum"),
    ("truncated_last_byte", lambda d: d[:-1], "checksum"),
    ("truncated_in_checksum_line", lambda d: d[:20], "truncated"),
    ("empty", lambda d: b"", "truncated"),
    ("garbage", lambda d: b"garbage\n\x00\xff\n{}\n", "format"),
    ("old_format", lambda d: d.replace(cache.MAGIC.encode(), b"PYASC-CACHE 1", 1), "format"),
    ("body_flipped", lambda d: d.replace(b"asc.", b"asc,", 1), "checksum"),
    # JSON-equivalent change of the header only: nothing but the checksum can tell
    ("header_checksum_only", lambda d: d.replace(b'{"kernel"', b'{ "kernel"', 1), "checksum"),
    ("header_not_json", lambda d: join(b"{not json", split(d)[1]), "JSON"),
    ("header_not_object", lambda d: join(b"[]", split(d)[1]), "object"),
    ("header_nested", lambda d: join(DEEP.encode(), split(d)[1]), "nested"),
    ("manifest_nested", lambda d: join(b'{"manifest":' + DEEP.encode() + b"}", split(d)[1]), "nested"),
    ("manifest_missing", lambda d: with_header(d, manifest=None), "manifest"),
    ("manifest_not_list", lambda d: with_header(d, manifest={"asc": 1}), "manifest"),
    ("manifest_pair", lambda d: with_header(d, manifest=[["damage_kernel", "asc"]]), "manifest"),
    ("manifest_name_not_str", lambda d: with_header(d, manifest=[["damage_kernel", 5, ["module", "asc"]]]),
     "manifest"),
    ("manifest_key_not_list", lambda d: with_header(d, manifest=[["damage_kernel", "asc", 7]]), "manifest"),
    ("manifest_key_dict", lambda d: with_header(d, manifest=[["damage_kernel", "asc", ["module", {"a": 1}]]]),
     "manifest"),
    ("manifest_key_too_deep", lambda d: with_header(d, manifest=[["damage_kernel", "asc", deep_key(20)]]),
     "manifest"),
    ("manifest_item_not_list", lambda d: with_header(d, manifest=["asc"]), "manifest"),
    ("wrong_kernel", lambda d: with_header(d, kernel="other_kernel"), "another kernel"),
    ("wrong_key", lambda d: with_header(d, key="0" * 32), "another kernel"),
    ("kernel_not_str", lambda d: with_header(d, kernel=["damage_kernel"]), "another kernel"),
    ("runtime_params_short", lambda d: with_header(d, runtime_params=["z"]), "runtime_params"),
    ("runtime_params_long", lambda d: with_header(d, runtime_params=["z", "n", "k"]), "runtime_params"),
    ("runtime_params_not_str", lambda d: with_header(d, runtime_params=["z", 1]), "runtime_params"),
    ("runtime_params_not_list", lambda d: with_header(d, runtime_params="zn"), "runtime_params"),
    ("ir_other_function", lambda d: with_ir(d, 'sym_name = "damage_kernel"', 'sym_name = "other_kernel"'),
     "invalid IR"),
    ("ir_does_not_parse", lambda d: with_ir(d, '"arith.mul"', '"arith.frobnicate"'), "invalid IR"),
    ("ir_does_not_verify", lambda d: with_ir(d, '"arith.add"(%1, %2) : (i32, i32) -> i32',
                                             '"arith.add"(%1) : (i32) -> i32'), "invalid IR"),
    ("ir_one_parameter", lambda d: with_ir(with_ir(d, ", %n: i32)", ")"), '"arith.mul"(%n,', '"arith.mul"(%0,'),
     "parameters"),
    ("ir_not_utf8", lambda d: join(d.split(b"\n", 3)[2], b"\xff\xfe" + split(d)[1]), "UTF-8"),
    ("ir_nul", lambda d: join(d.split(b"\n", 3)[2], split(d)[1] + b"\x00"), "null"),
]


@pytest.mark.parametrize("damage", [d[1:] for d in DAMAGES], ids=[d[0] for d in DAMAGES])
def test_damaged_entry_is_replaced(cdir: Path, damage: Tuple[Callable[[bytes], bytes], str]) -> None:
    entry, good = good_entry(cdir)
    fn, reason = damage
    entry.write_bytes(fn(good))
    assert_recovered(entry, good, reason)


def test_oversized_entry_is_replaced(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry, good = good_entry(cdir)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", len(good) + 100)
    entry.write_bytes(good + b"\n" * 200)
    assert_recovered(entry, good, "over the limit")


def test_entry_over_the_limit_is_not_written(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 100)
    all_warns = []
    for _ in range(3):
        compiles, warns, _ = launch()
        assert compiles == 1
        all_warns += warns
    assert len(all_warns) == 1 and "MAX_ENTRY_BYTES" in all_warns[0] and "compiled in each process" in all_warns[0]
    assert not list(cdir.glob("*.ascache"))


def test_directory_in_place_of_an_entry(cdir: Path) -> None:
    entry, good = good_entry(cdir)
    entry.unlink()
    entry.mkdir()
    assert_recovered(entry, good, "directory")


def test_non_empty_directory_in_place_of_an_entry_warns_once(cdir: Path) -> None:
    entry, _ = good_entry(cdir)
    entry.unlink()
    entry.mkdir()
    (entry / "someone's file").write_text("kept")
    compiles, warns, _ = launch()
    assert compiles == 1 and len(warns) == 1 and "cannot be removed" in warns[0] and str(entry) in warns[0]
    for _ in range(2):  # still there: compiled each time, but not a warning at every launch
        compiles, warns, _ = launch()
        assert compiles == 1 and warns == []
    assert (entry / "someone's file").read_text() == "kept"


def test_unreadable_entry(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that cannot be opened (EACCES) is removed and rebuilt (simulated: the suite may run as
    root, for whom permission bits do not stop reads)."""
    entry, good = good_entry(cdir)
    real_open = os.open

    def refusing_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(entry) and not flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, "Permission denied", str(entry))
        return real_open(path, flags, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(os, "open", refusing_open)
        compiles, warns, _ = launch()
    assert compiles == 1 and len(warns) == 1 and "Permission denied" in warns[0]
    assert entry.read_bytes() == good
    compiles, warns, compiled = launch()
    assert compiles == 0 and warns == [] and compiled.from_disk


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_entry_mode_000(cdir: Path) -> None:
    entry, good = good_entry(cdir)
    entry.chmod(0)
    assert_recovered(entry, good, "Permission denied")


def test_read_error_mid_read(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry, good = good_entry(cdir)

    def failing_read(fd: int, n: int) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as m:
        m.setattr(os, "read", failing_read)
        compiles, warns, _ = launch()
    assert compiles == 1 and len(warns) == 1 and "Input/output error" in warns[0]
    compiles, warns, compiled = launch()
    assert compiles == 0 and warns == [] and compiled.from_disk and entry.read_bytes() == good


def test_memory_error_while_parsing(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry, good = good_entry(cdir)

    def no_memory(text: Any) -> Any:
        if isinstance(text, bytes):  # the header line of an entry being loaded
            raise MemoryError
        return json.loads(text)

    with monkeypatch.context() as m:
        m.setattr(cache, "json", types.SimpleNamespace(loads=no_memory, dumps=json.dumps,
                                                       JSONDecodeError=json.JSONDecodeError))
        compiles, warns, _ = launch()
    assert compiles == 1 and len(warns) == 1 and "too large" in warns[0]
    compiles, warns, compiled = launch()
    assert compiles == 0 and warns == [] and compiled.from_disk and entry.read_bytes() == good


def test_stale_manifest_is_rebuilt_silently(cdir: Path) -> None:
    """An intact entry whose globals no longer match is not damage: no warning, just a recompile."""
    entry, good = good_entry(cdir)
    entry.write_bytes(with_header(good, manifest=[["damage_kernel", "asc", ["module", "numpy"]]]))
    compiles, warns, _ = launch()
    assert compiles == 1 and warns == [] and entry.read_bytes() == good


def test_too_deep_global_is_not_cached_on_disk(cdir: Path) -> None:
    z = np.zeros(8, np.int32)
    reads_nested[1](z)
    assert z[0] == 5 and cache.entries() == []


# ---- writing ---------------------------------------------------------------------------------


def test_cache_dir_is_a_file(cdir: Path) -> None:
    cdir.parent.mkdir(parents=True, exist_ok=True)
    cdir.write_text("not a directory")
    all_warns = []
    for k in (1, 1, 2):
        compiles, warns, _ = launch(k=k)
        assert compiles == 1
        all_warns += warns
    assert len(all_warns) == 1 and "cannot create the compile cache directory" in all_warns[0], all_warns
    assert str(cdir) in all_warns[0] and cdir.read_text() == "not a directory"


def test_full_disk(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_space(fd: int, data: bytes) -> None:
        os.write(fd, data[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    all_warns = []
    with monkeypatch.context() as m:
        m.setattr(cache, "_write_all", no_space)
        for k in (1, 1, 2):
            compiles, warns, _ = launch(k=k)
            assert compiles == 1
            all_warns += warns
    assert len(all_warns) == 1 and "No space left on device" in all_warns[0], all_warns
    assert list(cdir.iterdir()) == []  # no half-written temporary files left behind
    compiles, warns, _ = launch()
    assert compiles == 1 and warns == [] and len(cache.entries()) == 1  # space again: written


def test_read_only_file_system(cdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulated (EROFS on every file created in the cache directory): the suite may run as root."""
    cdir.mkdir(parents=True)
    real_open = os.open

    def read_only(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_CREAT and Path(os.fspath(path)).parent == cdir:
            raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    all_warns = []
    with monkeypatch.context() as m:
        m.setattr(os, "open", read_only)
        for k in (1, 1, 2):
            compiles, warns, _ = launch(k=k)
            assert compiles == 1
            all_warns += warns
    assert len(all_warns) == 1 and "Read-only file system" in all_warns[0] and str(cdir) in all_warns[0]
    assert list(cdir.iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes whatever the mode")
def test_read_only_cache_dir(cdir: Path) -> None:
    cdir.mkdir(parents=True)
    cdir.chmod(0o555)
    try:
        all_warns = []
        for k in (1, 1, 2):
            compiles, warns, _ = launch(k=k)
            assert compiles == 1
            all_warns += warns
        assert len(all_warns) == 1 and "cannot write" in all_warns[0]
    finally:
        cdir.chmod(0o755)


# ---- FIFOs and devices, in a child process: a regression would block or read forever -----------------

CHILD = '''
import json, sys, warnings
import numpy as np
import asc

@asc.jit
def damage_kernel(z: asc.GlobalAddress, n: int, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    g.set_value(0, n * 2 + k)

from asc.runtime import compiler
out = []
for _ in range(int(sys.argv[1])):
    seen = []
    compiler.compile_listeners.append(seen.append)
    z = np.zeros(8, np.int32)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        damage_kernel[1](z, 3, 1)
    compiler.compile_listeners.remove(seen.append)
    (compiled,) = damage_kernel.cache.values()
    out.append({"result": int(z[0]), "compiled": len(seen), "from_disk": compiled.from_disk,
                "warnings": [str(x.message) for x in w]})
print(json.dumps(out))
'''


def run_child(tmp_path: Path, cdir: Path, launches: int = 1) -> List[Dict[str, Any]]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {**os.environ, "PYASC_CACHE_DIR": str(cdir)}
    env.pop("PYASC_DUMP_PATH", None)
    out = subprocess.run([sys.executable, str(script), str(launches)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ["fifo", "symlink_to_dev_zero", "symlink_loop", "dangling_symlink"])
def test_special_file_in_place_of_an_entry(tmp_path: Path, kind: str) -> None:
    cdir = tmp_path / "cache"
    (first,) = run_child(tmp_path, cdir)
    assert first["compiled"] == 1 and first["result"] == 7
    (entry,) = cdir.glob("*.ascache")
    good = entry.read_bytes()
    entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
    elif kind == "symlink_to_dev_zero":
        entry.symlink_to("/dev/zero")
    elif kind == "symlink_loop":
        entry.symlink_to(entry.name)
    else:
        entry.symlink_to(tmp_path / "nowhere")
    second, third = run_child(tmp_path, cdir, launches=1) + run_child(tmp_path, cdir, launches=1)
    assert second["result"] == 7 and second["compiled"] == 1
    if kind == "dangling_symlink":
        assert second["warnings"] == []  # nothing there to read: a plain miss
    else:
        assert len(second["warnings"]) == 1 and "corrupt compile cache entry" in second["warnings"][0]
    assert stat.S_ISREG(entry.lstat().st_mode) and entry.read_bytes() == good
    assert third == {"result": 7, "compiled": 0, "from_disk": True, "warnings": []}


# ---- entries() and clear() ---------------------------------------------------------------------


def test_entries_and_clear_skip_special_files(cdir: Path) -> None:
    entry, _ = good_entry(cdir)
    os.mkfifo(cdir / "fifo_kernel-0.ascache")
    (cdir / "zero_kernel-0.ascache").symlink_to("/dev/zero")
    (cdir / "dir_kernel-0.ascache").mkdir()
    (cdir / "dir_kernel-0.ascache" / "inner-1.ascache").write_text("x")
    found = cache.entries()
    assert [e.path for e in found] == [entry] and found[0].kernel == "damage_kernel"
    assert cache.clear("zero_kernel") == 1 and os.path.exists("/dev/zero")
    assert cache.clear() == 2  # the entry and the FIFO; the directory is left alone
    assert sorted(p.name for p in cdir.iterdir()) == ["dir_kernel-0.ascache"]
    assert (cdir / "dir_kernel-0.ascache" / "inner-1.ascache").read_text() == "x"


def test_entries_of_a_cache_dir_that_is_a_file(cdir: Path) -> None:
    cdir.parent.mkdir(parents=True, exist_ok=True)
    cdir.write_text("x")
    assert cache.entries() == [] and cache.clear() == 0


# ---- any damage at all ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_never_fails_a_launch(cdir: Path, data: st.DataObject) -> None:
    for p in list(cdir.glob("*")):
        p.unlink()
    entry, good = good_entry(cdir)
    damaged = bytearray(good)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(damaged) - 1))
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if op == "flip":
            damaged[i] ^= data.draw(st.integers(1, 255))
        elif op == "cut":
            del damaged[i:i + data.draw(st.integers(1, 64))]
        else:
            damaged[i:i] = data.draw(st.binary(min_size=1, max_size=16))
        if not damaged:
            break
    entry.write_bytes(bytes(damaged))
    compiles, warns, _ = launch()
    assert entry.read_bytes() == good  # whatever the damage, the entry is intact again
    compiles, warns, compiled = launch()
    assert compiles == 0 and warns == [] and compiled.from_disk
