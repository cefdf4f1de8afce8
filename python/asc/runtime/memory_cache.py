"""The in-process cache of compiled kernels, bounded over the whole process.

Each JIT function keeps its compiled specialisations in two dicts:
`fn.cache` (full specialisation key -> CompiledKernel, used by
`Launcher._full`) and `fn.fast_cache` (positional argument types and
ConstExpr values -> the same CompiledKernel, used by `Launcher._fast`). A
compiled kernel owns C memory (its IR module's arena, at least 64 KB, and its
bytecode), so a process that launches thousands of specialisations would
grow without end if they were all kept.

This module keeps every compiled kernel of the process in one
least-recently-launched order. Past the bound, the oldest is evicted: it is
removed from both dicts of its function, which drops the last references to
it, so its C memory is freed. An evicted specialisation launched again comes
back from the disk cache (`CompiledKernel.from_disk`), or is compiled again if
it cannot be cached on disk.

The bound is `DEFAULT_SIZE` compiled kernels unless `PYASC_MEMORY_CACHE_SIZE`
(a positive integer, read when this module is first imported: at the first
launch, or an import of asc.runtime.cache) says otherwise; `set_size(n)` changes it
at run time (also as `asc.runtime.cache.set_memory_cache_size`).
"""

from __future__ import annotations

import os
import threading
import warnings
from collections import OrderedDict
from typing import Any, List, Optional, Set

ENV_VAR = "PYASC_MEMORY_CACHE_SIZE"
DEFAULT_SIZE = 128


class _Slot:
    """Where one compiled kernel is referenced: fn.cache[key] and fn.fast_cache[k] for k in fast_keys."""

    __slots__ = ("fn", "key", "fast_keys")

    def __init__(self, fn: Any, key: Any):
        self.fn = fn
        self.key = key
        self.fast_keys: Set[Any] = set()


# CompiledKernel -> _Slot, least recently launched first. CompiledKernel hashes by identity.
_lru: "OrderedDict[Any, _Slot]" = OrderedDict()
# Insertions and evictions edit several dicts together; a launch on the fast path only calls
# `touch`, a single C call that is atomic under the GIL, and tolerates a concurrent eviction.
_lock = threading.RLock()

# Launcher._fast calls this on every hit (a bound C method: the cheapest way to mark a kernel as
# just used). It raises KeyError for a kernel another thread has just evicted.
touch = _lru.move_to_end


def _size_from_env() -> int:
    text = os.environ.get(ENV_VAR, "").strip()
    if not text:
        return DEFAULT_SIZE
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        warnings.warn(f"pyasc: {ENV_VAR}={text!r} is not a positive integer; keeping at most {DEFAULT_SIZE} "
                      "compiled kernels in memory (the default)", RuntimeWarning, stacklevel=2)
        return DEFAULT_SIZE
    return n


_size = _size_from_env()


def size() -> int:
    """The most compiled kernels the process keeps in memory."""
    return _size


def set_size(n: int) -> None:
    """Keeps at most `n` (>= 1) compiled kernels in memory; evicts the excess now."""
    global _size
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the in-memory compile cache size must be a positive integer, got {n!r}")
    with _lock:
        _size = n
        _evict()


def count() -> int:
    """How many compiled kernels are held in memory now (at most `size()`)."""
    return len(_lru)


def kernels() -> List[Any]:
    """The compiled kernels held in memory, least recently launched first."""
    with _lock:
        return list(_lru)


def clear() -> None:
    """Drops every compiled kernel held in memory (the disk cache keeps its entries)."""
    with _lock:
        while _lru:
            compiled, slot = _lru.popitem(last=False)
            _unlink(compiled, slot)


def remember(fn: Any, key: Any, compiled: Any) -> None:
    """Sets fn.cache[key] = compiled (a hit or a new kernel) and marks it as just used; a kernel
    it replaces (compiled anew because a global changed) is dropped, and the least recently used
    kernels of the process are evicted past the bound."""
    with _lock:
        old = fn.cache.get(key)
        if old is not None and old is not compiled:
            forget(old)
        fn.cache[key] = compiled
        if compiled in _lru:
            _lru.move_to_end(compiled)
        else:
            _lru[compiled] = _Slot(fn, key)
            _evict()


def remember_fast(fn: Any, fast_key: Any, compiled: Any) -> None:
    """Sets fn.fast_cache[fast_key] = compiled, for a kernel `remember` holds (raises TypeError
    for an unhashable key)."""
    with _lock:
        slot = _lru.get(compiled)
        if slot is None:
            return  # already evicted (a bound smaller than the kernels one launch touches)
        fn.fast_cache[fast_key] = compiled
        slot.fast_keys.add(fast_key)


def forget(compiled: Any) -> None:
    """Drops one compiled kernel from memory, if it is held."""
    with _lock:
        slot = _lru.pop(compiled, None)
        if slot is not None:
            _unlink(compiled, slot)


def _evict() -> None:
    while len(_lru) > _size:
        compiled, slot = _lru.popitem(last=False)
        _unlink(compiled, slot)


def _unlink(compiled: Any, slot: _Slot) -> None:
    # only the entries that still point at this kernel: a key may have been taken over since by a
    # newer compilation of the same specialisation
    fn = slot.fn
    if fn.cache.get(slot.key) is compiled:
        fn.cache.pop(slot.key, None)
    for k in slot.fast_keys:
        if fn.fast_cache.get(k) is compiled:
            fn.fast_cache.pop(k, None)


def holds(compiled: Optional[Any]) -> bool:
    """True if `compiled` is held in memory."""
    return compiled in _lru
