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

The fast key, tried first (docs/cache.md): the same hash, but with the kernel named by its file's
path and bytes and its first line, so that no source is tokenized; a link file
(`KERNEL-FASTKEY.asclink`) maps it to the entry key, with the entry's checksum and a manifest of
the globals by their fast value keys (functions and struct classes by their files). The link is
taken only if its manifest matches and the entry it names has exactly that checksum; otherwise
the entry key decides and the link is rewritten. A damaged link is ignored, never reported.

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
import json
import os
import stat
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from .. import _C
from ..language.core.struct import Struct, layout_key
from . import memory_cache
from .hashing import sha256

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

# The fast key's links (see "The fast key" in the module docstring): a magic line, the SHA-256 of
# the rest, and a JSON header naming the entry they stand for.
LINK_MAGIC = "PYASC-LINK 1"
LINK_SUFFIX = ".asclink"
MAX_LINK_BYTES = 4 * 1024 * 1024
# A source file larger than this is not hashed for a fast key (its kernels take the full key).
MAX_SOURCE_BYTES = 64 * 1024 * 1024


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


class CacheEntry:
    """An entry in the cache directory: its kernel's name, key, size, modification time and path.
    Immutable, compared by value. (A plain class, not a dataclass: making one costs a fresh
    process's first launch about a millisecond.)"""

    __slots__ = ("kernel", "key", "size", "mtime", "path")
    kernel: str
    key: str
    size: int
    mtime: float
    path: Path

    def __init__(self, kernel: str, key: str, size: int, mtime: float, path: Path):
        for name, value in zip(self.__slots__, (kernel, key, size, mtime, path)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a CacheEntry")

    def _fields(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.__slots__)

    def __eq__(self, other: Any) -> bool:
        return self._fields() == other._fields() if isinstance(other, CacheEntry) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "CacheEntry(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"


def _scan(suffix: str = SUFFIX) -> List[Tuple[Path, os.stat_result]]:
    """(path, lstat) of every name in the cache directory that looks like an entry (or, with
    LINK_SUFFIX, a link); nothing is followed (a symlink is listed as itself) and nothing is
    opened."""
    d = cache_dir()
    out = []
    try:
        with os.scandir(d) as it:
            for de in it:
                if not de.name.endswith(suffix):
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
    under an entry's name; returns how many. Directories are left alone. The fast key's links go
    too (they are not counted: an entry is what a compilation leaves, a link only an index)."""
    n = 0
    for suffix in (SUFFIX, LINK_SUFFIX):
        for p, st in _scan(suffix):
            if stat.S_ISDIR(st.st_mode):
                continue
            if kernel is not None and p.name[: -len(suffix)].rpartition("-")[0] != kernel:
                continue
            try:
                p.unlink()  # a symlink itself, never its target
                n += suffix == SUFFIX
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
    return sha256(src.encode()).hexdigest()


def _class_hash(cls: type) -> str:
    """A Struct class by its layout and source (a kernel may call its methods)."""
    import inspect

    try:
        src = inspect.getsource(cls)
    except (OSError, TypeError):
        src = ""
    return sha256(repr((layout_key(cls), src)).encode()).hexdigest()


def stable_key(value: Any) -> Any:
    """A JSON value that identifies `value` across processes, or None when
    there is none (then the kernel is not cached on disk)."""
    return _stable_key(value, None)


Memo = Dict[str, Optional[str]]


def _stable_key(value: Any, memo: Optional[Memo]) -> Any:
    """stable_key; with a memo, the fast key's form of it: @asc.jit functions and Struct classes by
    the bytes of the files they are defined in (hashed once per memo) instead of their source text
    (which inspect finds by tokenizing the file), None where there is no such file."""
    from .jit import JITFunction

    if value is None or isinstance(value, (bool, str)):
        return [type(value).__name__, value]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, (tuple, list)):
        parts = [_stable_key(v, memo) for v in value]
        return None if any(p is None for p in parts) else [type(value).__name__, parts]
    if isinstance(value, np.generic):
        return ["numpy", value.dtype.str, _stable_key(value.item(), memo)]
    if isinstance(value, np.ndarray) and value.size <= 4096:
        return ["ndarray", value.dtype.str, list(value.shape), sha256(value.tobytes()).hexdigest()]
    if isinstance(value, JITFunction):
        ident = _source_hash(value) if memo is None else _function_identity(value.fn, memo)
        return None if ident is None else ["jit", value.fn.__module__, value.fn.__qualname__, ident]
    if isinstance(value, type) and issubclass(value, Struct):
        ident = _class_hash(value) if memo is None else _class_identity(value, memo)
        return None if ident is None else ["struct", value.__module__, value.__qualname__, ident]
    if isinstance(value, Struct) and value.handle is None:  # a host struct read as a constant
        cls = _stable_key(type(value), memo)
        parts = [_stable_key(v, memo) for v in value.values()]
        return None if cls is None or any(p is None for p in parts) else ["struct value", cls, parts]
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


def _file_digest(path: Any, memo: Memo) -> Optional[str]:
    """SHA-256 of a source file's bytes, read once per memo; None unless `path` is an absolute path
    to a regular file of at most MAX_SOURCE_BYTES (a function typed at a prompt, or kept in a
    notebook's or a zip's loader, has none: its kernels take the full key)."""
    if not isinstance(path, str):
        return None
    if path not in memo:
        digest = None
        if os.path.isabs(path):
            try:
                data = _read_entry(Path(path), MAX_SOURCE_BYTES)
                if data is not None:
                    digest = sha256(data).hexdigest()
            except (OSError, BadEntry, ValueError):
                pass
        memo[path] = digest
    return memo[path]


def _function_identity(fn: Any, memo: Memo) -> Optional[str]:
    """A function by its file (path and bytes) and first line: the same in every process that
    would read the same source for it."""
    code = fn.__code__
    digest = _file_digest(code.co_filename, memo)
    return None if digest is None else f"{code.co_filename}:{digest}:{code.co_firstlineno}"


def _class_identity(cls: type, memo: Memo) -> Optional[str]:
    """A Struct class by its layout and the bytes of its module's file."""
    digest = _file_digest(getattr(sys.modules.get(cls.__module__), "__file__", None), memo)
    if digest is None:
        return None
    return sha256(repr((layout_key(cls), digest)).encode()).hexdigest()


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
    return sha256(text.encode()).hexdigest()[:32]


def fast_key(jit_fn: Any, specs_key: Any, platform: str, options: Dict[str, Any],
             memo: Memo) -> Optional[str]:
    """The fast key of a kernel specialisation, or None: what the entry key hashes, but the
    kernel's source by the bytes and path of its file and its first line (no tokenizing), and the
    argument types' struct classes likewise. Hashing the whole file makes it stricter than the
    entry key: an edit anywhere in the file misses it (the entry key then decides)."""
    from .. import __version__
    from .jit import LAUNCH_ONLY_OPTIONS

    ident = _function_identity(jit_fn.fn, memo)
    spec_part = _stable_key(list(specs_key), memo)
    if ident is None or spec_part is None:
        return None
    opts = sorted((k, repr(v)) for k, v in options.items() if k not in LAUNCH_ONLY_OPTIONS)
    text = json.dumps([LINK_MAGIC, __version__, _core_stamp(), platform, opts, spec_part, jit_fn.fn.__module__,
                       jit_fn.fn.__qualname__, ident])
    return sha256(text.encode()).hexdigest()[:32]


def make_manifest(globals_used: Dict[Tuple[Any, str], Any], memo: Optional[Memo] = None) -> Optional[List[Any]]:
    """[[owner function key, name, value key], ...] in compile order (with a memo: the fast key's
    value keys)."""
    manifest = []
    try:
        for (fn, name), value in globals_used.items():
            key = _stable_key(value, memo)
            if key is None or not _valid_value_key(_normalize(key)):
                return None
            manifest.append([fn.fn.__qualname__, name, key])
    except RecursionError:
        return None  # a global nested too deeply to key: not cached on disk, like an unkeyable one
    return _normalize(manifest)


def check_manifest(kernel_fn: Any, manifest: List[Any],
                   memo: Optional[Memo] = None) -> Optional[Dict[Tuple[Any, str], Any]]:
    """The globals the entry was compiled with, if they all still hold the
    same values (then the same IR would be built); else None. With a memo,
    the manifest holds the fast key's value keys."""
    from .jit import JITFunction

    owners: Dict[str, Any] = {kernel_fn.fn.__qualname__: kernel_fn}
    used: Dict[Tuple[Any, str], Any] = {}
    for owner_name, name, key in manifest:
        owner = owners.get(owner_name)
        if owner is None:
            return None
        found, value = owner.resolve_global(name)
        if not found or _normalize(_stable_key(value, memo)) != key:
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
          pass_log: str = "") -> Optional[str]:
    """Writes an entry atomically; a failure to write only costs a recompile (and one warning per
    directory). The pass log goes with it, so that a kernel loaded from the cache reports it too.
    Returns the entry's checksum if it was written."""
    entry: Dict[str, Any] = {"kernel": kernel, "key": key, "runtime_params": runtime_params, "manifest": manifest}
    if pass_log:
        entry["pass_log"] = pass_log
    header = json.dumps(entry, separators=(",", ":"))
    rest = header.encode() + b"\n" + ir_text.encode()
    checksum = sha256(rest).hexdigest()
    data = f"{MAGIC}\n{checksum}\n".encode() + rest
    path = _path(kernel, key)
    if len(data) > MAX_ENTRY_BYTES:
        _warn(f"pyasc: not writing the compile cache entry {path}: it would be {len(data)} bytes, over the "
              f"limit of {MAX_ENTRY_BYTES} (asc.runtime.cache.MAX_ENTRY_BYTES); kernel {kernel} is compiled in "
              "each process", once=(path,))
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _warn(f"pyasc: cannot create the compile cache directory {path.parent}: {e.strerror or e}; kernels are "
              "compiled in each process (set PYASC_CACHE_DIR to a writable directory)", once=(path, path.parent))
        return None
    err = _write_atomic(path, data)
    if err is not None:
        _warn(f"pyasc: cannot write the compile cache entry {path}: {err.strerror or err}; kernels are compiled "
              f"in each process until {path.parent} is writable (set PYASC_CACHE_DIR to use another "
              "directory)", once=(path, path.parent))
        return None
    return checksum


def _write_atomic(path: Path, data: bytes) -> Optional[OSError]:
    """Writes `data` to a fresh temporary file in path's directory and renames it to `path`, so that
    a reader sees the old file or the whole new one; the error if that failed (no temporary file is
    left behind)."""
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
        return e
    return None


class Loaded:
    """A loaded entry: its module and kernel, runtime parameters, the globals it was compiled with
    (as they are now), its IR, the pass log (what the passes reported when it was compiled: UB
    plan, inserted syncs), its checksum (what a fast key's link vouches for) and its entry key."""

    __slots__ = ("module", "kernel", "runtime_params", "globals_used", "ir_text", "pass_log", "checksum", "key")

    def __init__(self, module: Any, kernel: Any, runtime_params: List[str],
                 globals_used: Dict[Tuple[Any, str], Any], ir_text: str, pass_log: str = "", checksum: str = "",
                 key: str = ""):
        self.module = module
        self.kernel = kernel
        self.runtime_params = runtime_params
        self.globals_used = globals_used
        self.ir_text = ir_text
        self.pass_log = pass_log
        self.checksum = checksum
        self.key = key


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


def _read_entry(path: Path, limit: Optional[int] = None) -> Optional[bytes]:
    """The bytes of the entry at `path`, or None if there is none. Only a regular file is read, at
    most `limit` (MAX_ENTRY_BYTES) + 1 bytes of it (it may grow meanwhile). Anything else is refused
    from its stat, before it is opened (opening some devices has effects of its own); should it be
    swapped for one after that, the open does not block (a FIFO with no writer) and the fstat
    refuses it. Also reads links and (for the fast key) source files."""
    limit = MAX_ENTRY_BYTES if limit is None else limit
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
        if st.st_size > limit:
            raise BadEntry(f"{st.st_size} bytes, over the limit of {limit}")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise BadEntry(f"grew past the limit of {limit} bytes while being read")
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


def _valid_manifest(manifest: Any) -> bool:
    return isinstance(manifest, list) and all(
        isinstance(m, list) and len(m) == 3 and isinstance(m[0], str) and isinstance(m[1], str)
        and _valid_value_key(m[2]) for m in manifest)


def _parse_entry(data: bytes, kernel: str, key: str) -> Tuple[Dict[str, Any], str]:
    """(header, IR text) of an entry's bytes, checked; raises BadEntry (or any other exception,
    which load treats the same) when it is not a valid entry of this kernel and key."""
    parts = data.split(b"\n", 3)
    if len(parts) != 4:
        raise BadEntry("truncated")
    magic, checksum, header_line, body = parts
    if magic != MAGIC.encode():
        raise BadEntry("not a pyasc cache entry of this format")
    if sha256(data[len(magic) + len(checksum) + 2:]).hexdigest().encode() != checksum:
        raise BadEntry("checksum mismatch")
    header = json.loads(header_line)
    if not isinstance(header, dict):
        raise BadEntry("the header is not a JSON object")
    if header.get("kernel") != kernel or header.get("key") != key:
        raise BadEntry("the entry names another kernel")
    params = header.get("runtime_params")
    if not (isinstance(params, list) and all(isinstance(p, str) for p in params)):
        raise BadEntry("runtime_params is not a list of names")
    if not _valid_manifest(header.get("manifest")):
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


def load(kernel_fn: Any, key: str,
         vouched: Optional[Tuple[str, Dict[Tuple[Any, str], Any]]] = None) -> Optional[Loaded]:
    """The entry for (kernel, key) if it exists, is intact and still valid. A bad entry is
    discarded (None: the caller compiles and stores it again); any exception while reading or
    checking it, from the file system, the JSON parser, the IR parser or verifier, means a bad
    entry, never a failed launch. `vouched` (from a fast key's link): (checksum, globals) of an
    entry whose manifest the link's own has stood for; only an entry with exactly that checksum is
    taken then (None for another: the entry key decides)."""
    path = _path(kernel_fn.name, key)
    try:
        data = _read_entry(path)
        if data is None:
            return None
        header, ir_text = _parse_entry(data, kernel_fn.name, key)
        checksum = data.split(b"\n", 2)[1].decode("ascii")
        params = kernel_fn.signature.parameters
        expected = [name for name, const in zip(params, kernel_fn.const_mask) if not const]
        if header["runtime_params"] != expected:
            raise BadEntry(f"runtime_params {header['runtime_params']!r} are not the kernel's {expected!r}")
        if vouched is not None:
            if checksum != vouched[0]:
                return None  # rewritten since the link was (by a process with other globals)
            used = vouched[1]
        else:
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
    return Loaded(module, kernel, list(expected), used, ir_text, header.get("pass_log", ""), checksum, key)


# ---- the fast key's links ----------------------------------------------------------------------


def _link_path(kernel: str, fast: str) -> Path:
    return cache_dir() / f"{kernel}-{fast}{LINK_SUFFIX}"


def _is_hex(v: Any, n: int) -> bool:
    return isinstance(v, str) and len(v) == n and all(c in "0123456789abcdef" for c in v)


def _parse_link(data: bytes, kernel: str, fast: str) -> Dict[str, Any]:
    parts = data.split(b"\n", 2)
    if len(parts) != 3 or parts[0] != LINK_MAGIC.encode():
        raise BadEntry("not a link of this format")
    if sha256(parts[2]).hexdigest().encode() != parts[1]:
        raise BadEntry("checksum mismatch")
    header = json.loads(parts[2])
    if not (isinstance(header, dict) and header.get("kernel") == kernel and header.get("fast_key") == fast
            and _is_hex(header.get("key"), 32) and _is_hex(header.get("entry"), 64)
            and _valid_manifest(header.get("manifest"))):
        raise BadEntry("not a link of this kernel and key")
    return header


def load_fast(kernel_fn: Any, fast: str, memo: Memo) -> Optional[Loaded]:
    """The entry the link of fast key `fast` names, if the link is intact, every global its manifest
    lists still has the same fast value key and the entry is the one it vouched for (byte for byte,
    by its checksum). Otherwise None, and the entry key decides (and rewrites the link): a link is
    only an index, so a damaged one is never reported, and the entry it names is checked as at
    every load (a damaged entry is discarded with its warning)."""
    try:
        data = _read_entry(_link_path(kernel_fn.name, fast), MAX_LINK_BYTES)
        if data is None:
            return None
        header = _parse_link(data, kernel_fn.name, fast)
        used = check_manifest(kernel_fn, header["manifest"], memo)
    except Exception:  # noqa: BLE001 (a damaged link only costs the entry key)
        return None
    if used is None:
        return None
    return load(kernel_fn, header["key"], vouched=(header["entry"], used))


def link(kernel_fn: Any, fast: str, key: str, checksum: str, globals_used: Dict[Tuple[Any, str], Any],
         memo: Memo) -> None:
    """Writes the link of fast key `fast` to the entry of key `key` (whose checksum is `checksum`,
    compiled with `globals_used`), unless a global has no fast value key. Silent when it cannot be
    written (the entry is there: the next process takes the entry key)."""
    manifest = make_manifest(globals_used, memo)
    if manifest is None:
        return
    header = json.dumps({"kernel": kernel_fn.name, "fast_key": fast, "key": key, "entry": checksum,
                         "manifest": manifest}, separators=(",", ":")).encode()
    data = f"{LINK_MAGIC}\n{sha256(header).hexdigest()}\n".encode() + header
    if len(data) <= MAX_LINK_BYTES:
        _write_atomic(_link_path(kernel_fn.name, fast), data)
