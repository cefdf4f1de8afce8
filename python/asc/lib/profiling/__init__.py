"""PyAsc2's profiling API (asc.lib.profiling): Profiler, ProfilingResult,
ProfilingTask and task_time_median.

On Backend.Model the tasks are the kernel launches made inside
`Profiler.profile()`, each with the duration the simulator's timing model
estimates for it (the `duration_us` of what `asc.profile()` reports for the
same launch; docs/timing.md). Backend.NPU's msprof profiling is not
implemented (NotImplementedError)."""

from .profiler import Profiler
from .result import ProfilingResult, ProfilingTask, task_time_median

__all__ = ["Profiler", "ProfilingResult", "ProfilingTask", "task_time_median"]
