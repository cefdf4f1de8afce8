"""asc.lib.profiling, PyAsc2's profiling API, on Backend.Model: Profiler runs
whose tasks are the kernel launches with the timing model's estimated
durations (exactly what asc.profile() reports for them), the msprof-style
CSV export and read-back, task_time_median, and the errors."""

from __future__ import annotations

import csv
import dataclasses
import os
import statistics
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, List

import numpy as np
import pytest

import asc
import asc.lib.profiling as profiling
import asc.lib.runtime as rt
from asc.lib.profiling import Profiler, ProfilingResult, ProfilingTask, task_time_median
from asc.lib.profiling.profiler import task_type
from asc.profiler import session


@asc.jit
def scale_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 8192, 1024)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(b, a, 2.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, b, n)


SIZES = [64, 1024, 256, 512, 128]  # elements per launch: different estimated durations


def launch(n: int) -> None:
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    scale_kernel[1](x, y, n)
    np.testing.assert_array_equal(y[:n], 2 * x[:n])


def task(name: str, duration: float, type: str = "AI_VECTOR_CORE", id: int = 0) -> ProfilingTask:
    return ProfilingTask(id=id, name=name, type=type, duration=duration)


# ---- the names and the data classes ---------------------------------------------------------

def test_names() -> None:
    assert sorted(profiling.__all__) == ["Profiler", "ProfilingResult", "ProfilingTask", "task_time_median"]
    assert asc.lib.profiling is profiling
    assert [f.name for f in dataclasses.fields(ProfilingTask)] == ["id", "name", "type", "duration"]
    assert [f.name for f in dataclasses.fields(ProfilingResult)] == ["tasks", "run_id", "stored_at"]
    t = task("k", 1.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.duration = 2.0  # type: ignore[misc]


# ---- task_time_median ----------------------------------------------------------------------------

def test_task_time_median_rules() -> None:
    tasks = [task("a", 10.0), task("b", 99.0), task("a", 2.0), task("a", 4.0),
             task("a", 1000.0, type="MEMCPY_ASYNC"), task("a", 3.0, type="MIX_AIC")]
    # the first kernel task's name; other names and non-kernel types left out
    assert task_time_median(tasks) == statistics.median([10.0, 2.0, 4.0, 3.0]) == 3.5
    assert task_time_median(tasks, name="b") == 99.0
    assert task_time_median(tasks, skip=1) == 3.0  # 10.0 (a warm-up) left out
    assert task_time_median(tasks, name="b", skip=1) == 99.0  # not more values than skip: all kept
    assert task_time_median([task("a", 1.23456), task("a", 1.0)]) == 1.117  # rounded to 3 decimals
    assert task_time_median(iter(tasks), name="a", skip=2) == 3.5
    with pytest.raises(RuntimeError, match="no timings for task 'c'"):
        task_time_median(tasks, name="c")
    with pytest.raises(RuntimeError, match="no timings"):
        task_time_median([task("a", 1.0, type="AI_CPU")])
    with pytest.raises(ValueError, match="skip"):
        task_time_median(tasks, skip=-1)


def test_task_type_from_cores() -> None:
    def lp(core_num: int, blocks: int, cube: bool) -> Any:
        instrs = {"S": 3, "V": 0 if cube else 5, "M": 2 if cube else 0, "MTE1": 0, "FIX": 0}
        return SimpleNamespace(core_num=core_num, blocks=[SimpleNamespace(instrs=instrs)] * blocks)

    assert task_type(lp(2, 2, cube=False)) == "AI_VECTOR_CORE"
    assert task_type(lp(2, 2, cube=True)) == "AI_CORE"
    assert task_type(lp(2, 6, cube=True)) == "MIX_AIC"  # a cube core and two vector cores per AI Core


# ---- Profiler on Backend.Model ---------------------------------------------------------------

def test_profiled_tasks_are_the_timing_models_estimates() -> None:
    profiler = Profiler()
    with asc.profile() as prof:
        with profiler.profile():
            for n in SIZES[:3]:
                launch(n)
        launch(32)  # after the run: not one of its tasks
    result = profiler.last_result
    assert len(prof.launches) == 4 and len(result.tasks) == 3
    assert [t.duration for t in result.tasks] == [lp.duration_us for lp in prof.launches[:3]]
    assert [t.name for t in result.tasks] == ["scale_kernel"] * 3
    assert [t.type for t in result.tasks] == ["AI_VECTOR_CORE"] * 3
    assert [t.id for t in result.tasks] == [0, 1, 2]
    assert len({t.duration for t in result.tasks}) == 3 and all(t.duration > 0 for t in result.tasks)
    assert isinstance(result.stored_at, datetime) and result.run_id.startswith("PROF_000001_")
    assert profiler.launches[result.run_id] == prof.launches[:3]  # the full LaunchProfiles (ours)
    # a temporary result directory: removed after the run; the results stay
    assert profiler.result_path is None and not profiler.started
    # the same launch profiled on its own gives the same estimate (the model is deterministic)
    with asc.profile() as alone:
        launch(SIZES[1])
    assert alone.last.duration_us == result.tasks[1].duration


def test_median_over_several_launches(tmp_path: Path) -> None:
    profiler = Profiler(str(tmp_path / "prof"))
    with asc.profile() as prof:
        with profiler.profile():
            for n in SIZES:
                launch(n)
    durations = [lp.duration_us for lp in prof.launches]
    tasks = profiler.last_result.tasks
    assert task_time_median(tasks) == round(statistics.median(durations), 3)
    assert task_time_median(tasks, skip=1) == round(statistics.median(durations[1:]), 3)
    assert task_time_median(tasks, name="scale_kernel", skip=2) == round(statistics.median(durations[2:]), 3)
    assert task_time_median(tasks, skip=1) != task_time_median(tasks)  # the sizes make skip matter


def test_result_directory_runs_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "prof"
    profiler = Profiler(str(path))
    with profiler.profile():
        launch(64)
    with profiler.profile():
        launch(128)
        launch(256)
    first, second = profiler.results
    assert first.startswith("PROF_000001_") and second.startswith("PROF_000002_")
    assert profiler.last_result is profiler.results[second] and len(profiler.last_result.tasks) == 2
    # a result directory given by the caller stays; each run wrote msprof's op_summary CSV
    assert profiler.result_path == str(path.resolve()) and sorted(os.listdir(path)) == [first, second]
    (summary,) = (path / second).glob("op_summary_*.csv")
    with open(summary, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["Op Name"] for r in rows] == ["scale_kernel"] * 2
    assert [float(r["Task Duration(us)"]) for r in rows] == [t.duration for t in profiler.last_result.tasks]
    assert [r["Platform"] for r in rows] == [rt.current_platform()] * 2
    # read back (PyAsc2's store_result / store_last_result), also by a new Profiler on the same directory
    again = Profiler(str(path))
    assert again.store_result(first).tasks == profiler.results[first].tasks
    assert again.store_last_result().tasks == profiler.results[second].tasks
    # a third run numbers on from the directory's runs
    with again.profile():
        launch(64)
    assert again.last_result.run_id.startswith("PROF_000003_")
    assert again.last_result.tasks[0].duration == profiler.results[first].tasks[0].duration


def test_start_stop_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profiler = Profiler(str(tmp_path))
    with pytest.raises(RuntimeError, match="no results were stored"):
        _ = profiler.last_result
    with pytest.raises(RuntimeError, match="no profiling results"):
        profiler.store_last_result()
    with pytest.raises(RuntimeError, match="is not a directory"):
        profiler.store_result("PROF_000009_x")
    profiler.start()
    with pytest.raises(RuntimeError, match="already started"):
        profiler.start()
    launch(64)
    profiler.stop()
    profiler.stop()  # a second stop does nothing
    run_id = profiler.export()
    assert profiler.store_result(run_id).tasks[0].name == "scale_kernel"
    # an exception in the block: the run ends (no launch is profiled any more), nothing is stored
    before = dict(profiler.results)
    with pytest.raises(ZeroDivisionError):
        with profiler.profile():
            launch(64)
            _ = 1 / 0
    assert not profiler.started and profiler.results == before
    assert session.enabled == (session._env_dir is not None)
    # Backend.NPU: msprof profiling is not implemented
    monkeypatch.setattr(rt.state, "backend", "NPU")
    with pytest.raises(NotImplementedError, match=r"asc.lib.profiling.Profiler.start: profiling on Backend.NPU"):
        with Profiler().profile():
            pass  # pragma: no cover


def test_populate_tasks_bad_csv(tmp_path: Path) -> None:
    bad = tmp_path / "op_summary_1.csv"
    bad.write_text("Task ID,Op Name\n1,k\n")
    tasks: List[ProfilingTask] = []
    with pytest.raises(RuntimeError, match="no column 'Task Type'"):
        Profiler.populate_tasks(str(bad), "Task ID", "Op Name", "Task Type", "Task Duration(us)", tasks)
    msprof = tmp_path / "task_time_1.csv"
    msprof.write_text("task_id,kernel_name,kernel_type,task_time(us)\n7,k,KERNEL_AIVEC,2.5\n")
    Profiler.populate_tasks(str(msprof), "task_id", "kernel_name", "kernel_type", "task_time(us)", tasks)
    assert tasks == [ProfilingTask(7, "k", "KERNEL_AIVEC", 2.5)]
