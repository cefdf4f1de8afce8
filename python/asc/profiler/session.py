"""When launches are profiled: inside `asc.profile()` and, for the whole
process, with PYASC_PROFILE=DIR. The launcher reads `enabled` on every
launch (one attribute load); everything else runs only while profiling."""

from __future__ import annotations

import os
import re
import threading
from typing import Any, Dict, List, Optional

from .data import LaunchProfile

ENV = "PYASC_PROFILE"

enabled: bool = False  # read by Launcher on every launch
_env_dir: Optional[str] = os.environ.get(ENV, "").strip() or None
_sessions: List[Profile] = []
_lock = threading.Lock()
_counter = 0


def _update() -> None:
    global enabled
    enabled = bool(_sessions) or _env_dir is not None


class Profile:
    """Profiles every kernel launch made inside its `with` block.

        with asc.profile("prof") as prof:      # output directory (optional)
            add_kernel[8](x, y, z, n)
        print(prof.last)                       # estimate, pipe table, hotspots
        prof.last.duration_us

    `params` overrides timing parameters by name (see docs/timing.md), e.g.
    {"gm_bandwidth_gbps": 800}. With `out_dir`, each launch writes its Chrome
    trace, CSV tables and HTML report there when the block ends."""

    def __init__(self, out_dir: Optional[str] = None, params: Optional[Dict[str, float]] = None,
                 record: bool = True):
        self.out_dir = out_dir
        self.params = dict(params or {})
        self.record = record
        self.launches: List[LaunchProfile] = []
        self.paths: List[Dict[str, str]] = []

    @property
    def last(self) -> LaunchProfile:
        if not self.launches:
            raise LookupError("no kernel was launched inside asc.profile()")
        return self.launches[-1]

    def __enter__(self) -> Profile:
        with _lock:
            _sessions.append(self)
            _update()
        return self

    def __exit__(self, *exc: Any) -> None:
        with _lock:
            if self in _sessions:
                _sessions.remove(self)
            _update()
        if self.out_dir and exc[0] is None:
            for i, lp in enumerate(self.launches):
                self.paths.append(lp.write(self.out_dir, _stem(lp, i)))

    def __len__(self) -> int:
        return len(self.launches)

    def __iter__(self) -> Any:
        return iter(self.launches)

    def __repr__(self) -> str:
        return f"Profile({len(self.launches)} launches)"


def profile(out_dir: Optional[str] = None, *, params: Optional[Dict[str, float]] = None,
            record: bool = True) -> Profile:
    """A context manager that profiles the kernel launches inside it (see Profile)."""
    return Profile(out_dir, params, record)


def _stem(lp: LaunchProfile, i: int) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", lp.kernel)
    return f"{name}_{i:03d}"


def launch_spec() -> Dict[str, Any]:
    """The `timing` argument of Kernel.launch: parameter overrides (the innermost
    session's win) and whether to keep per-instruction records."""
    params: Dict[str, float] = {}
    record = _env_dir is not None
    for s in list(_sessions):
        params.update(s.params)
        record = record or s.record
    return {"params": params or None, "record": record}


def record(kernel: str, platform: str, core_num: int, spec: Dict[str, Any]) -> Optional[LaunchProfile]:
    """Called by the launcher after a profiled launch."""
    global _counter
    raw = spec.get("result")
    if raw is None:
        return None
    lp = LaunchProfile(raw, kernel, platform, core_num)
    with _lock:
        sessions = list(_sessions)
        n = _counter
        _counter += 1
    for s in sessions:
        s.launches.append(lp)
    if _env_dir is not None:
        lp.write(_env_dir, _stem(lp, n))
    return lp


_update()
