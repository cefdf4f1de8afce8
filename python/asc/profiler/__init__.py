"""Profiler: the simulator's timing model, seen from Python.

    with asc.profile("prof") as prof:
        kernel[8](x, y, z, n)
    print(prof.last)               # estimate, pipe table, hotspots
    prof.last.duration_us          # the estimated duration of the launch

or, for every launch of a process, PYASC_PROFILE=DIR. Each profiled launch
gives a LaunchProfile: the estimate, per-pipe busy time and utilisation,
bytes per memory path, estimated cycles per line of the kernel's Python
source, a Chrome trace (Perfetto) and a self-contained HTML report.
docs/timing.md describes the model and its parameters."""

from __future__ import annotations

from typing import List, Tuple

from .data import PIPES, BlockStats, Hotspot, LaunchProfile, Site
from .session import Profile, profile
from .trace import trace_schema


def timing_params(platform: str = "Ascend910B1") -> List[Tuple[str, float, str, str]]:
    """The timing parameters of a platform: (name, default, unit, source)."""
    from .. import _C

    return [tuple(x) for x in _C.timing_params(platform)]


__all__ = ["profile", "Profile", "LaunchProfile", "BlockStats", "Site", "Hotspot", "PIPES", "timing_params",
           "trace_schema"]
