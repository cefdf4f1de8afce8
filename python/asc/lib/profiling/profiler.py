"""asc.lib.profiling.Profiler: PyAsc2's profiler, backed on Backend.Model by
the simulator's timing model.

    profiler = Profiler()
    with profiler.profile():
        for _ in range(5):
            kernel[8](x, y, z)
    task_time_median(profiler.last_result.tasks, skip=1)

A run (start ... stop) profiles every kernel launch made in it through an
`asc.profile()` session: each launch is a task whose duration is the timing
model's estimate for it (LaunchProfile.duration_us). `export` writes the run
as msprof's op_summary CSV (Task ID, Op Name, Task Type, Task Duration(us))
into <result_path>/<run_id>/, and store_result reads such a CSV back, as
PyAsc2 does with msprof's output."""

from __future__ import annotations

import csv
import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Dict, Iterator, List, Optional

from ...profiler import LaunchProfile, Profile
from ...profiler import profile as _profile
from .result import ProfilingResult, ProfilingTask

_RUN_DIR = re.compile(r"PROF_(\d{6})_")
_SUMMARY_COLUMNS = ("Task ID", "Op Name", "Task Type", "Task Duration(us)", "Block Dim", "Platform")
_CUBE_PIPES = ("M", "MTE1", "FIX")


def _backend_check(api: str) -> None:
    from ...runtime import config

    if config.current_backend() != config.Backend.Model:
        raise NotImplementedError(
            f"{api}: profiling on Backend.NPU (msprof: aclprofInit/aclprofStart and the msprof export tool) is "
            f"not implemented; on Backend.Model it reports the timing model's estimated task durations")


def task_type(lp: LaunchProfile) -> str:
    """The msprof task type of a launch, from the cores it ran on: MIX_AIC when
    each of its AI Cores ran a cube core with vector cores, AI_CORE when its
    cores used the cube pipes (M, MTE1, FIX), AI_VECTOR_CORE otherwise."""
    if lp.core_num and len(lp.blocks) > lp.core_num:
        return "MIX_AIC"
    if any(b.instrs.get(p, 0) for b in lp.blocks for p in _CUBE_PIPES):
        return "AI_CORE"
    return "AI_VECTOR_CORE"


class Profiler:
    """Profiles the kernel launches of a run (PyAsc2's asc.lib.profiling.Profiler).

    result_path: where runs are exported (one directory per run); None: a
    temporary directory, removed by cleanup(). `results` maps run ids to
    ProfilingResults, `launches` run ids to the runs' LaunchProfiles (ours:
    the timing model's full view of each task)."""

    def __init__(self, result_path: Optional[str] = None) -> None:
        self.started = False
        self.result_path: Optional[str] = result_path
        self.auto_remove = result_path is None
        self.results: Dict[str, ProfilingResult] = {}
        self.launches: Dict[str, List[LaunchProfile]] = {}
        self._session: Optional[Profile] = None
        self._run: List[LaunchProfile] = []

    @classmethod
    def populate_tasks(cls, filename: str, col_id: str, col_name: str, col_type: str, col_duration: str,
                       tasks: List[ProfilingTask]) -> None:
        """Appends to `tasks` a ProfilingTask per row of the CSV file, from the named columns."""
        with open(filename, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                try:
                    tasks.append(ProfilingTask(id=int(row[col_id]), name=row[col_name], type=row[col_type],
                                               duration=float(row[col_duration])))
                except KeyError as e:
                    raise RuntimeError(f"{filename}: no column {e.args[0]!r}") from None
                except ValueError as e:
                    raise RuntimeError(f"{filename}: bad value in row {row!r}: {e}") from None

    @property
    def last_result(self) -> ProfilingResult:
        if not self.results:
            raise RuntimeError("Profiler.last_result: no results were stored (no profiled run was finished)")
        return self.results[next(reversed(self.results))]

    def start(self, device_id: Optional[int] = None) -> None:
        """Starts a run: every kernel launch from here to stop() is a task.
        device_id is accepted for PyAsc2's signature (the model has one device)."""
        _backend_check("asc.lib.profiling.Profiler.start")
        if self.started:
            raise RuntimeError("Profiler.start: a run is already started")
        if self.result_path is None:
            self.result_path = tempfile.mkdtemp(prefix="pyasc_profiler_")
        else:
            self.result_path = str(Path(self.result_path).resolve())
            os.makedirs(self.result_path, exist_ok=True)
        # durations only: no per-instruction records (they do not change the estimate)
        self._session = _profile(record=False)
        self._session.__enter__()
        self._run = []
        self.started = True

    def stop(self) -> None:
        """Ends the run started by start() (nothing when none is)."""
        if not self.started or self._session is None:
            return
        self._session.__exit__(None, None, None)
        self._run = list(self._session.launches)
        self._session = None
        self.started = False

    def _next_run_id(self) -> str:
        assert self.result_path is not None
        seqs = [int(m.group(1)) for d in os.listdir(self.result_path) if (m := _RUN_DIR.match(d))]
        return f"PROF_{max(seqs, default=0) + 1:06d}_{datetime.now():%Y%m%d%H%M%S%f}"

    def export(self) -> str:
        """Writes the last stopped run as <result_path>/<run_id>/op_summary_<time>.csv
        (msprof's columns); returns the run id."""
        if self.result_path is None:
            raise RuntimeError("Profiler.export: no run was started")
        run_id = self._next_run_id()
        run_dir = Path(self.result_path) / run_id
        run_dir.mkdir(parents=True)
        with open(run_dir / f"op_summary_{run_id[12:]}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(_SUMMARY_COLUMNS)
            for i, lp in enumerate(self._run):
                w.writerow([i, lp.kernel, task_type(lp), repr(lp.duration_us), lp.core_num, lp.platform])
        self.launches[run_id] = self._run
        return run_id

    def cleanup(self) -> None:
        """Removes the temporary result directory (only one the profiler made)."""
        if self.auto_remove and self.result_path is not None and os.path.isdir(self.result_path):
            shutil.rmtree(self.result_path)
            self.result_path = None

    def store_result(self, run_id: str) -> ProfilingResult:
        """Reads run `run_id` from the result directory into results[run_id]."""
        if self.result_path is None:
            raise RuntimeError("Profiler.store_result: there is no result directory")
        result_dir = Path(self.result_path) / run_id
        if not result_dir.is_dir():
            raise RuntimeError(f"Profiler.store_result: {result_dir} is not a directory")
        tasks: List[ProfilingTask] = []
        for item in sorted(result_dir.glob("**/*.csv")):
            if item.name.startswith("op_summary_"):
                self.populate_tasks(str(item), "Task ID", "Op Name", "Task Type", "Task Duration(us)", tasks)
                break
            if item.name.startswith("task_time_"):
                self.populate_tasks(str(item), "task_id", "kernel_name", "kernel_type", "task_time(us)", tasks)
                break
        else:
            raise RuntimeError(f"Profiler.store_result: there is no CSV report in {result_dir}")
        result = ProfilingResult(tuple(tasks), run_id, stored_at=datetime.now())
        self.results[run_id] = result
        return result

    def store_last_result(self) -> ProfilingResult:
        """Stores the newest run of the result directory (the greatest run id)."""
        if self.result_path is None or not os.path.isdir(self.result_path):
            raise RuntimeError(f"Profiler.store_last_result: {self.result_path} is not a directory")
        runs = [d for d in os.listdir(self.result_path) if os.path.isdir(os.path.join(self.result_path, d))]
        if not runs:
            raise RuntimeError(f"Profiler.store_last_result: there are no profiling results in {self.result_path}")
        return self.store_result(max(runs))

    @contextmanager
    def profile(self, device_id: Optional[int] = None, cleanup: bool = True) -> Iterator[None]:
        """Profiles the launches of the `with` block; on its normal end the run is
        exported and stored (last_result). cleanup: remove a temporary result
        directory afterwards."""
        try:
            self.start(device_id)
            yield
            self.stop()
            self.export()
            self.store_last_result()
        finally:
            self.stop()
            if cleanup:
                self.cleanup()
