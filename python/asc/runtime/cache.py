"""The on-disk compile cache.

A launch looks for a compiled kernel first in its JIT function's in-process
cache, then here, then compiles. An entry holds the kernel's IR after the
passes (parsed and lowered again on load, which is fast; the slow part of a
compilation is walking the Python AST) and a manifest of everything the
compilation read besides the kernel's own source: each module global or
closure variable of the kernel and of every @asc.jit function it calls, by
value, and those functions' sources, by hash. The file name carries a hash of
the kernel's source, the package version, the platform, the compile options
and the argument types and ConstExpr values; a loaded entry is used only if
its manifest still matches.

Directory: `PYASC_CACHE_DIR`, else `$PYASC_HOME/.pyasc/cache`, else
`~/.pyasc/cache`. Entries are written to a temporary file and renamed, so a
reader never sees a torn entry; an entry whose checksum does not match, or
that does not parse, is discarded with a warning and rebuilt. The format is
a text header line of JSON and the IR text: nothing in it is executed.

    from asc.runtime import cache
    cache.cache_dir()        # where entries live
    cache.entries()          # what is there (kernel, key, size, mtime, path)
    cache.clear()            # remove every entry (or cache.clear("my_kernel"))
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import _C

MAGIC = "PYASC-CACHE 1"
SUFFIX = ".ascache"


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


def entries() -> List[CacheEntry]:
    """The entries in the cache directory, oldest first."""
    d = cache_dir()
    if not d.is_dir():
        return []
    out = []
    for p in d.glob(f"*{SUFFIX}"):
        kernel, _, key = p.stem.rpartition("-")
        try:
            st = p.stat()
        except OSError:
            continue  # removed meanwhile
        out.append(CacheEntry(kernel, key, st.st_size, st.st_mtime, p))
    return sorted(out, key=lambda e: e.mtime)


def clear(kernel: Optional[str] = None) -> int:
    """Removes every entry (or those of one kernel); returns how many."""
    n = 0
    for e in entries():
        if kernel is None or e.kernel == kernel:
            try:
                e.path.unlink()
                n += 1
            except FileNotFoundError:
                pass
    return n


# ---- stable keys --------------------------------------------------------------------


def _source_hash(jit_fn: Any) -> str:
    import inspect

    try:
        src = inspect.getsource(jit_fn.fn)
    except (OSError, TypeError):
        src = repr(jit_fn.fn.__code__.co_code)
    return hashlib.sha256(src.encode()).hexdigest()


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


def entry_key(jit_fn: Any, specs_key: Any, platform: str, options: Dict[str, Any]) -> Optional[str]:
    """The hash naming a kernel specialisation's entry, or None."""
    from .. import __version__

    spec_part = stable_key(list(specs_key))
    if spec_part is None:
        return None
    opts = sorted((k, repr(v)) for k, v in options.items() if k != "always_compile")
    text = json.dumps([MAGIC, __version__, platform, opts, spec_part, jit_fn.fn.__module__,
                       jit_fn.fn.__qualname__, _source_hash(jit_fn)])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def make_manifest(globals_used: Dict[Tuple[Any, str], Any]) -> Optional[List[Any]]:
    """[[owner function key, name, value key], ...] in compile order."""
    manifest = []
    for (fn, name), value in globals_used.items():
        key = stable_key(value)
        if key is None:
            return None
        manifest.append([fn.fn.__qualname__, name, key])
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


def store(kernel: str, key: str, runtime_params: List[str], manifest: List[Any], ir_text: str) -> None:
    """Writes an entry atomically; a failure to write only costs a recompile."""
    body = ir_text.encode()
    header = {"kernel": kernel, "key": key, "runtime_params": runtime_params, "manifest": manifest,
              "sha256": hashlib.sha256(body).hexdigest(), "length": len(body)}
    data = f"{MAGIC}\n{json.dumps(header)}\n".encode() + body
    path = _path(kernel, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.{os.getpid()}.{id(data)}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        warnings.warn(f"pyasc: cannot write the compile cache entry {path}: {e}", RuntimeWarning, stacklevel=3)


@dataclass
class Loaded:
    module: Any
    kernel: Any
    runtime_params: List[str]
    globals_used: Dict[Tuple[Any, str], Any]
    ir_text: str


def _discard(path: Path, reason: str) -> None:
    warnings.warn(f"pyasc: discarding corrupt compile cache entry {path} ({reason}); it will be rebuilt",
                  RuntimeWarning, stacklevel=4)
    try:
        path.unlink()
    except OSError:
        pass


def load(kernel_fn: Any, key: str) -> Optional[Loaded]:
    """The entry for (kernel, key) if it exists, is intact and still valid."""
    path = _path(kernel_fn.name, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        magic, header_line, body = data.split(b"\n", 2)
        if magic.decode() != MAGIC:
            raise ValueError("bad magic line")
        header = json.loads(header_line)
        if len(body) != header["length"] or hashlib.sha256(body).hexdigest() != header["sha256"]:
            raise ValueError("checksum mismatch")
        if header["kernel"] != kernel_fn.name or header["key"] != key:
            raise ValueError("entry names another kernel")
        ir_text = body.decode()
        manifest = header["manifest"]
        runtime_params = list(header["runtime_params"])
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as e:
        _discard(path, str(e))
        return None
    used = check_manifest(kernel_fn, manifest)
    if used is None:
        return None  # a global or a called function changed: recompile (and overwrite)
    try:
        module = _C.Module.parse(ir_text, str(path))
        kernel = module.compile(kernel_fn.name)
    except _C.IRError as e:
        _discard(path, f"invalid IR: {e.args[0]}")
        return None
    return Loaded(module, kernel, runtime_params, used, ir_text)
