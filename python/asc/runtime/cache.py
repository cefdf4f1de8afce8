"""The on-disk compile cache.

A launch looks for a compiled kernel first in the in-process cache
(memory_cache.py: bounded, least recently launched kernels evicted), then
here, then compiles. An entry holds the kernel's IR after the passes (parsed
and lowered again on load, which is fast; the slow part of a compilation is
walking the Python AST) and a manifest of everything the compilation read
besides the kernel's own source: each module global or closure variable of
the kernel and of every @asc.jit function it calls, by value, and those
functions' sources, by hash. The file name carries a hash of the kernel's
source, the package version, the C core's build (its file's size and time),
the platform, the compile options and the
argument types and ConstExpr values; a loaded entry is used only if its
manifest still matches.

Directory: `PYASC_CACHE_DIR`, else `$PYASC_HOME/.pyasc/cache`, else
`~/.pyasc/cache`. Entries are written to a temporary file and renamed, so a
reader never sees a torn entry. The format (MAGIC) is a magic line, the
SHA-256 of the rest of the file, a header line of JSON and the IR text:
nothing in it is executed. Everything read back is untrusted until checked:
only a regular file (opened without blocking, so a FIFO or a device in an
entry's place is refused, not read), at most MAX_ENTRY_BYTES, whose checksum
matches, whose header has the expected shape and names this kernel and key,
whose IR parses, verifies and has the kernel's parameters. Anything else
(and any exception while loading) makes it a bad entry: it is removed with a
RuntimeWarning and the kernel is compiled and stored again. A cache that
cannot be written (a file where the directory should be, no permission, a
full disk) costs a recompile and one warning per directory.

    from asc.runtime import cache
    cache.cache_dir()        # where entries live
    cache.entries()          # what is there (kernel, key, size, mtime, path)
    cache.clear()            # remove every entry (or cache.clear("my_kernel"))
    cache.set_memory_cache_size(64)   # the in-process bound (PYASC_MEMORY_CACHE_SIZE)
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import stat
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from .. import _C
from ..language.core.struct import Struct, layout_key
from . import memory_cache

# Format 2: the checksum covers the header as well as the IR. Format 1 entries have other file
# names (MAGIC is part of entry_key), so they are never read; cache.clear() removes them.
MAGIC = "PYASC-CACHE 2"
SUFFIX = ".ascache"
# An entry larger than this is not read (it is a bad entry: removed and rebuilt) and a kernel whose
# entry would be larger is not written (it is compiled in each process). The largest entry the test
# suite writes is about 12 KB: the limit only keeps a damaged or foreign file from being read whole.
MAX_ENTRY_BYTES = 64 * 1024 * 1024
# The deepest nesting of lists a manifest value key may have (a tuple of tuples is two levels per
# tuple). A global nested deeper makes the kernel uncacheable on disk, exactly as an unhashable
# one does, so that what store writes, load always accepts.
MAX_KEY_DEPTH = 32


def memory_cache_size() -> int:
    """The most compiled kernels a process keeps in memory (PYASC_MEMORY_CACHE_SIZE, default
    memory_cache.DEFAULT_SIZE); the least recently launched beyond it are evicted."""
    return memory_cache.size()


def set_memory_cache_size(n: int) -> None:
    """Keeps at most `n` compiled kernels in memory (evicting the excess now); an evicted kernel
    launched again is loaded from this disk cache (or compiled, if it has no entry)."""
    memory_cache.set_size(n)


def cache_dir() -> Path:
    """The cache directory (not created until an entry is written)."""
    env = os.environ.get("PYASC_CACHE_DIR")
    if env:
        return Path(env)
    home = os.environ.get("PYASC_HOME")
    return Path(home if home else Path.home()) / ".pyasc" / "cache"


@dataclass(frozen=True)
class CacheEntry:
    kernel: str
    key: str
    size: int
    mtime: float
    path: Path


def _scan() -> List[Tuple[Path, os.stat_result]]:
    """(path, lstat) of every name in the cache directory that looks like an entry; nothing is
    followed (a symlink is listed as itself) and nothing is opened."""
    d = cache_dir()
    out = []
    try:
        with os.scandir(d) as it:
            for de in it:
                if not de.name.endswith(SUFFIX):
                    continue
                try:
                    out.append((Path(de.path), de.stat(follow_symlinks=False)))
                except OSError:
                    continue  # removed meanwhile
    except OSError:
        return []  # no directory (or a file in its place, or no permission to list it)
    return out


def entries() -> List[CacheEntry]:
    """The entries in the cache directory (regular files only), oldest first."""
    out = []
    for p, st in _scan():
        if not stat.S_ISREG(st.st_mode):
            continue
        kernel, _, key = p.name[: -len(SUFFIX)].rpartition("-")
        out.append(CacheEntry(kernel, key, st.st_size, st.st_mtime, p))
    return sorted(out, key=lambda e: e.mtime)


def clear(kernel: Optional[str] = None) -> int:
    """Removes every entry (or those of one kernel), and whatever else (a symlink, a FIFO) sits
    under an entry's name; returns how many. Directories are left alone."""
    n = 0
    for p, st in _scan():
        if stat.S_ISDIR(st.st_mode):
            continue
        if kernel is not None and p.name[: -len(SUFFIX)].rpartition("-")[0] != kernel:
            continue
        try:
            p.unlink()  # a symlink itself, never its target
            n += 1
        except OSError:
            pass  # removed meanwhile, or not ours to remove
    return n


# ---- stable keys --------------------------------------------------------------------


def _source_hash(jit_fn: Any) -> str:
    import inspect

    try:
        src = inspect.getsource(jit_fn.fn)
    except (OSError, TypeError):
        src = repr(jit_fn.fn.__code__.co_code)
    return hashlib.sha256(src.encode()).hexdigest()


def _class_hash(cls: type) -> str:
    """A Struct class by its layout and source (a kernel may call its methods)."""
    import inspect

    try:
        src = inspect.getsource(cls)
    except (OSError, TypeError):
        src = ""
    return hashlib.sha256(repr((layout_key(cls), src)).encode()).hexdigest()


def stable_key(value: Any) -> Any:
    """A JSON value that identifies `value` across processes, or None when
    there is none (then the kernel is not cached on disk)."""
    from .jit import JITFunction

    if value is None or isinstance(value, (bool, str)):
        return [type(value).__name__, value]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, (tuple, list)):
        parts = [stable_key(v) for v in value]
        return None if any(p is None for p in parts) else [type(value).__name__, parts]
    if isinstance(value, np.generic):
        return ["numpy", value.dtype.str, stable_key(value.item())]
    if isinstance(value, np.ndarray) and value.size <= 4096:
        return ["ndarray", value.dtype.str, list(value.shape), hashlib.sha256(value.tobytes()).hexdigest()]
    if isinstance(value, JITFunction):
        return ["jit", value.fn.__module__, value.fn.__qualname__, _source_hash(value)]
    if isinstance(value, type) and issubclass(value, Struct):
        return ["struct", value.__module__, value.__qualname__, _class_hash(value)]
    if isinstance(value, Struct) and value.handle is None:  # a host struct read as a constant
        return ["struct value", stable_key(type(value)), [stable_key(v) for v in value.values()]]
    if isinstance(value, type(os)):
        return ["module", value.__name__]
    if isinstance(value, enum.Enum):
        return ["enum", type(value).__module__, type(value).__qualname__, value.name]
    module = getattr(value, "__module__", None) or ""
    if module.startswith("asc.") or module == "asc":
        name = getattr(value, "__qualname__", None) or getattr(value, "name", None) or repr(value)
        return ["asc", module, str(name), repr(value) if not callable(value) else ""]
    if callable(value) and getattr(value, "__module__", None) == "builtins":
        return ["builtin", value.__qualname__]
    return None


def _normalize(x: Any) -> Any:
    return json.loads(json.dumps(x))


# ---- keys and manifests ---------------------------------------------------------------------


_CORE_STAMP: Optional[str] = None


def _core_stamp() -> str:
    """The C core's build, by its file's size and modification time: a core
    rebuilt with the same package version (a developer's build, a reinstall)
    may compile the same source differently (new passes), so its entries are
    not the old core's. A stat, not a hash of the file: it costs a
    microsecond per process."""
    global _CORE_STAMP
    if _CORE_STAMP is None:
        try:
            st = os.stat(_C.__file__)
            _CORE_STAMP = f"{st.st_size}-{st.st_mtime_ns}"
        except (OSError, AttributeError, TypeError):
            _CORE_STAMP = ""
    return _CORE_STAMP


def entry_key(jit_fn: Any, specs_key: Any, platform: str, options: Dict[str, Any]) -> Optional[str]:
    """The hash naming a kernel specialisation's entry, or None."""
    from .. import __version__

    spec_part = stable_key(list(specs_key))
    if spec_part is None:
        return None
    from .jit import LAUNCH_ONLY_OPTIONS

    # options that only change how a kernel is launched (the sanitizer, the step budget) share its entry
    opts = sorted((k, repr(v)) for k, v in options.items() if k not in LAUNCH_ONLY_OPTIONS)
    text = json.dumps([MAGIC, __version__, _core_stamp(), platform, opts, spec_part, jit_fn.fn.__module__,
                       jit_fn.fn.__qualname__, _source_hash(jit_fn)])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def make_manifest(globals_used: Dict[Tuple[Any, str], Any]) -> Optional[List[Any]]:
    """[[owner function key, name, value key], ...] in compile order."""
    manifest = []
    try:
        for (fn, name), value in globals_used.items():
            key = stable_key(value)
            if key is None or not _valid_value_key(_normalize(key)):
                return None
            manifest.append([fn.fn.__qualname__, name, key])
    except RecursionError:
        return None  # a global nested too deeply to key: not cached on disk, like an unkeyable one
    return _normalize(manifest)


def check_manifest(kernel_fn: Any, manifest: List[Any]) -> Optional[Dict[Tuple[Any, str], Any]]:
    """The globals the entry was compiled with, if they all still hold the
    same values (then the same IR would be built); else None."""
    from .jit import JITFunction

    owners: Dict[str, Any] = {kernel_fn.fn.__qualname__: kernel_fn}
    used: Dict[Tuple[Any, str], Any] = {}
    for owner_name, name, key in manifest:
        owner = owners.get(owner_name)
        if owner is None:
            return None
        found, value = owner.resolve_global(name)
        if not found or _normalize(stable_key(value)) != key:
            return None
        if isinstance(value, JITFunction):
            owners.setdefault(value.fn.__qualname__, value)
        used[(owner, name)] = value
    return used


# ---- entries ---------------------------------------------------------------------------------


def _path(kernel: str, key: str) -> Path:
    return cache_dir() / f"{kernel}-{key}{SUFFIX}"


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# what has been warned about once already (paths, directories): a cache that cannot be written, or
# a bad entry that cannot be removed, warns once per process, not at every launch
_warned: Set[Any] = set()


def _warn(message: str, once: Tuple[Any, ...] = ()) -> None:
    """A RuntimeWarning attributed to the first caller outside the asc package (the user's launch);
    with `once`, only if none of those keys was warned about before (then all are recorded)."""
    if once:
        if any(k in _warned for k in once):
            return
        _warned.update(once)
    level, f = 1, sys._getframe(0)
    while f is not None and f.f_code.co_filename.startswith(_PACKAGE_DIR):
        f, level = f.f_back, level + 1
    warnings.warn(message, RuntimeWarning, stacklevel=level)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def store(kernel: str, key: str, runtime_params: List[str], manifest: List[Any], ir_text: str,
          pass_log: str = "") -> None:
    """Writes an entry atomically; a failure to write only costs a recompile (and one warning per
    directory). The pass log goes with it, so that a kernel loaded from the cache reports it too."""
    entry: Dict[str, Any] = {"kernel": kernel, "key": key, "runtime_params": runtime_params, "manifest": manifest}
    if pass_log:
        entry["pass_log"] = pass_log
    header = json.dumps(entry, separators=(",", ":"))
    rest = header.encode() + b"\n" + ir_text.encode()
    data = f"{MAGIC}\n{hashlib.sha256(rest).hexdigest()}\n".encode() + rest
    path = _path(kernel, key)
    if len(data) > MAX_ENTRY_BYTES:
        _warn(f"pyasc: not writing the compile cache entry {path}: it would be {len(data)} bytes, over the "
              f"limit of {MAX_ENTRY_BYTES} (asc.runtime.cache.MAX_ENTRY_BYTES); kernel {kernel} is compiled in "
              "each process", once=(path,))
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _warn(f"pyasc: cannot create the compile cache directory {path.parent}: {e.strerror or e}; kernels are "
              "compiled in each process (set PYASC_CACHE_DIR to a writable directory)", once=(path, path.parent))
        return
    tmp = path.parent / f".{path.name}.{os.getpid()}.{threading.get_ident()}.{os.urandom(4).hex()}.tmp"
    created = False
    try:
        # O_EXCL: a fresh file of ours, never an existing one or the target of someone's symlink
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        created = True
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as e:
        if created:
            try:
                os.unlink(tmp)  # a full disk must not also fill up with half-written entries
            except OSError:
                pass
        _warn(f"pyasc: cannot write the compile cache entry {path}: {e.strerror or e}; kernels are compiled "
              f"in each process until {path.parent} is writable (set PYASC_CACHE_DIR to use another "
              "directory)", once=(path, path.parent))


@dataclass
class Loaded:
    module: Any
    kernel: Any
    runtime_params: List[str]
    globals_used: Dict[Tuple[Any, str], Any]
    ir_text: str
    pass_log: str = ""  # what the passes reported when it was compiled (UB plan, inserted syncs)


class BadEntry(ValueError):
    """Something read from the cache directory is not a valid entry (the message says what)."""


_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _read_entry(path: Path) -> Optional[bytes]:
    """The bytes of the entry at `path`, or None if there is none. Only a regular file is read, at
    most MAX_ENTRY_BYTES + 1 bytes of it (it may grow meanwhile). Anything else is refused from its
    stat, before it is opened (opening some devices has effects of its own); should it be swapped
    for one after that, the open does not block (a FIFO with no writer) and the fstat refuses it."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None  # no entry, or no cache directory (a file in its place: store warns about it)
    if not stat.S_ISREG(st.st_mode):
        raise BadEntry(_kind(st.st_mode))
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None  # removed meanwhile
    except IsADirectoryError:
        raise BadEntry("a directory") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadEntry(_kind(st.st_mode))
        if st.st_size > MAX_ENTRY_BYTES:
            raise BadEntry(f"{st.st_size} bytes, over the limit of {MAX_ENTRY_BYTES}")
        chunks, total = [], 0
        while total <= MAX_ENTRY_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_ENTRY_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_ENTRY_BYTES:
            raise BadEntry(f"grew past the limit of {MAX_ENTRY_BYTES} bytes while being read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _valid_value_key(v: Any) -> bool:
    """True if `v` has the shape of a stable_key (after JSON): a list starting with a type name,
    of JSON scalars and lists, nested at most MAX_KEY_DEPTH deep. Iterative: a deeply nested
    value must not exhaust the stack here."""
    if not (isinstance(v, list) and v and isinstance(v[0], str)):
        return False
    stack = [(v, 1)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, list):
            if depth > MAX_KEY_DEPTH:
                return False
            stack.extend((y, depth + 1) for y in x)
        elif not (x is None or isinstance(x, (str, int, float))):
            return False
    return True


def _parse_entry(data: bytes, kernel: str, key: str) -> Tuple[Dict[str, Any], str]:
    """(header, IR text) of an entry's bytes, checked; raises BadEntry (or any other exception,
    which load treats the same) when it is not a valid entry of this kernel and key."""
    parts = data.split(b"\n", 3)
    if len(parts) != 4:
        raise BadEntry("truncated")
    magic, checksum, header_line, body = parts
    if magic != MAGIC.encode():
        raise BadEntry("not a pyasc cache entry of this format")
    if hashlib.sha256(data[len(magic) + len(checksum) + 2:]).hexdigest().encode() != checksum:
        raise BadEntry("checksum mismatch")
    header = json.loads(header_line)
    if not isinstance(header, dict):
        raise BadEntry("the header is not a JSON object")
    if header.get("kernel") != kernel or header.get("key") != key:
        raise BadEntry("the entry names another kernel")
    params = header.get("runtime_params")
    if not (isinstance(params, list) and all(isinstance(p, str) for p in params)):
        raise BadEntry("runtime_params is not a list of names")
    manifest = header.get("manifest")
    if not (isinstance(manifest, list)
            and all(isinstance(m, list) and len(m) == 3 and isinstance(m[0], str) and isinstance(m[1], str)
                    and _valid_value_key(m[2]) for m in manifest)):
        raise BadEntry("the manifest is not a list of [function, name, value key] triples")
    if not isinstance(header.get("pass_log", ""), str):
        raise BadEntry("pass_log is not text")
    return header, body.decode("utf-8")


def _reason(e: BaseException) -> str:
    if isinstance(e, BadEntry):
        text = str(e)
    elif isinstance(e, _C.IRError):
        text = f"invalid IR: {e.args[0] if e.args else e}"
    elif isinstance(e, RecursionError):
        text = "nested too deeply to parse"
    elif isinstance(e, MemoryError):
        text = "too large to load"
    elif isinstance(e, OSError):
        text = f"cannot read it: {e.strerror or e}"
    elif isinstance(e, UnicodeDecodeError):
        text = "the IR is not UTF-8"
    elif isinstance(e, json.JSONDecodeError):
        text = f"the header is not JSON: {e.msg}"
    else:
        text = f"{type(e).__name__}: {e}"
    return text if len(text) <= 300 else text[:300] + "..."


def _remove(path: Path) -> Optional[OSError]:
    """Removes what sits at `path` (a file, a symlink itself, or an empty directory: never a
    directory's contents); the error if that failed."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            os.rmdir(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as e:
        return e
    return None


def _discard(path: Path, reason: str) -> None:
    err = _remove(path)
    if err is None:
        _warn(f"pyasc: discarding corrupt compile cache entry {path} ({reason}); it will be rebuilt")
    else:
        # it stays, so every later load would fail the same way: say so once, not at every launch
        _warn(f"pyasc: corrupt compile cache entry {path} ({reason}) cannot be removed ({err.strerror or err}); "
              "the kernel is compiled in each process until it is removed", once=(path,))


def load(kernel_fn: Any, key: str) -> Optional[Loaded]:
    """The entry for (kernel, key) if it exists, is intact and still valid. A bad entry is
    discarded (None: the caller compiles and stores it again); any exception while reading or
    checking it, from the file system, the JSON parser, the IR parser or verifier, means a bad
    entry, never a failed launch."""
    path = _path(kernel_fn.name, key)
    try:
        data = _read_entry(path)
        if data is None:
            return None
        header, ir_text = _parse_entry(data, kernel_fn.name, key)
        params = kernel_fn.signature.parameters
        expected = [name for name, const in zip(params, kernel_fn.const_mask) if not const]
        if header["runtime_params"] != expected:
            raise BadEntry(f"runtime_params {header['runtime_params']!r} are not the kernel's {expected!r}")
        used = check_manifest(kernel_fn, header["manifest"])
        if used is None:
            return None  # a global or a called function changed: recompile (and overwrite)
        module = _C.Module.parse(ir_text, str(path))
        kernel = module.compile(kernel_fn.name)  # verifies the module first
        if len(kernel.param_types()) != len(expected):
            raise BadEntry(f"the IR kernel takes {len(kernel.param_types())} parameters, not {len(expected)}")
    except Exception as e:  # noqa: BLE001 (whatever a damaged file makes fail, it is a bad entry)
        _discard(path, _reason(e))
        return None
    return Loaded(module, kernel, list(expected), used, ir_text, header.get("pass_log", ""))
