"""The results of asc.lib.profiling: one ProfilingTask per kernel launch, a
ProfilingResult per profiled run, and task_time_median over tasks."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Optional, Tuple

# The task types of kernel launches in msprof's summaries (PyAsc2's set):
# task_time_median counts tasks of these types only.
task_types = frozenset({"AI_CORE", "AIV_SQE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "KERNEL_AIVEC",
                        "KERNEL_AICORE"})


@dataclass(frozen=True)
class ProfilingTask:
    """One task (kernel launch): its id in the run, kernel name, task type
    (AI_VECTOR_CORE, AI_CORE, MIX_AIC, ...) and duration in microseconds."""

    id: int
    name: str
    type: str
    duration: float


@dataclass(frozen=True)
class ProfilingResult:
    """The tasks of one profiled run, the run's id and when it was stored."""

    tasks: Tuple[ProfilingTask, ...]
    run_id: str
    stored_at: datetime


def task_time_median(tasks: Iterable[ProfilingTask], name: Optional[str] = None, skip: int = 0) -> float:
    """The median duration (us, rounded to 3 decimals) of the kernel tasks named
    `name` (default: the name of the first kernel task), leaving out the first
    `skip` of them when there are more than `skip` (warm-up launches).
    Tasks of other types are ignored. RuntimeError when no task matches."""
    if isinstance(skip, bool) or not isinstance(skip, int) or skip < 0:
        raise ValueError(f"task_time_median: skip must be a whole number >= 0, got {skip!r}")
    durations = []
    for task in tasks:
        if task.type not in task_types:
            continue
        if name is None:
            name = task.name
        if task.name == name:
            durations.append(float(task.duration))
    if not durations:
        raise RuntimeError(f"task_time_median: there are no timings for task {name!r}")
    if len(durations) > skip:
        durations = durations[skip:]
    return round(statistics.median(durations), 3)
