"""The profiler's outputs: the Chrome trace (checked against its JSON schema),
the CSV tables and Python objects, per-line hotspots, the HTML report (drawn
by headless Chromium), PYASC_PROFILE, and the acceptance check of
examples/01_add: with BUFFERS = 2 MTE2, V and MTE3 overlap and the estimate
is lower than with BUFFERS = 1."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

import asc
from asc.profiler import LaunchProfile
from asc.profiler.data import KINDS, PIPES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(rel: str) -> ModuleType:
    path = EXAMPLES / rel
    spec = importlib.util.spec_from_file_location(f"profiled_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def add_example() -> ModuleType:
    return load_example("01_add/add.py")


def run_add(module: ModuleType, buffers: int) -> LaunchProfile:
    old = module.BUFFERS
    module.BUFFERS = buffers
    try:
        with asc.profile() as prof:
            module.run()  # checks z == x + y itself
    finally:
        module.BUFFERS = old
    return prof.last


def intervals(lp: LaunchProfile, block: int, pipe: str) -> List[Tuple[int, int]]:
    r = lp.blocks[block].records
    sel = r[(r["pipe"] == PIPES.index(pipe)) & (r["kind"] == KINDS.index("op"))]
    return [(int(a), int(b)) for a, b in zip(sel["start"], sel["end"])]


def overlap(a: List[Tuple[int, int]], b: List[Tuple[int, int]]) -> int:
    """Cycles during which an instruction of a and one of b both run."""
    return sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in a for s2, e2 in b)


# ---- acceptance: double buffering in examples/01_add -------------------------------------------

def test_01_add_double_buffering_overlaps_and_is_faster(add_example: ModuleType) -> None:
    one = run_add(add_example, 1)
    two = run_add(add_example, 2)
    for b in range(len(two.blocks)):
        mte2, v, mte3 = (intervals(two, b, p) for p in ("MTE2", "V", "MTE3"))
        assert overlap(mte2, v) > 0 and overlap(mte2, mte3) > 0
    # one buffer: every stage waits for the previous one
    mte2, v, mte3 = (intervals(one, 0, p) for p in ("MTE2", "V", "MTE3"))
    assert overlap(mte2, v) == 0 and overlap(mte2, mte3) == 0 and overlap(v, mte3) == 0
    assert two.duration_us < one.duration_us
    assert two.duration_cycles < one.duration_cycles


# ---- the Chrome trace ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def add_profile(add_example: ModuleType) -> LaunchProfile:
    return run_add(add_example, 2)


def test_trace_matches_schema(add_profile: LaunchProfile) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    trace = add_profile.chrome_trace()
    # what json.dump writes is what is checked
    trace = json.loads(json.dumps(trace))
    jsonschema.validate(trace, asc.profiler.trace_schema(), cls=jsonschema.Draft202012Validator)
    bad = dict(trace, traceEvents=trace["traceEvents"] + [{"ph": "X", "name": "x"}])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, asc.profiler.trace_schema(), cls=jsonschema.Draft202012Validator)


def test_trace_tracks_slices_and_flows(add_profile: LaunchProfile) -> None:
    events = add_profile.chrome_trace()["traceEvents"]
    threads = {(e["pid"], e["args"]["name"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for b in range(8):  # one track per core and pipe
        assert {(b, p) for p in ("S", "MTE2", "V", "MTE3")} <= threads
    slices = [e for e in events if e["ph"] == "X" and e["cat"] == "op"]
    assert len(slices) == sum(len(intervals(add_profile, b, p)) for b in range(8) for p in ("MTE2", "V", "MTE3"))
    # each instruction is named by its API and its Python line
    assert all(re.search(r" @ add\.py:\d+$", e["name"]) for e in slices)
    assert any(e["name"].startswith("asc.data_copy @ add.py:") for e in slices)
    waits = [e for e in events if e["ph"] == "X" and e["name"].startswith("asc.wait_flag MTE2_V @")]
    assert waits
    # flags as flow arrows: every start has its finish, bound to a slice of the same track and time
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts and set(starts) == set(finishes)
    at = {(e["pid"], e["tid"], e["ts"]) for e in events if e["ph"] == "X" and e["cat"] == "sync"}
    for fid, s in starts.items():
        f = finishes[fid]
        assert f["bp"] == "e" and (s["pid"], s["tid"], s["ts"]) in at and (f["pid"], f["tid"], f["ts"]) in at
    # slices of one track never overlap partially (they nest or follow each other)
    by_track: Dict[Tuple[int, int], List[Tuple[float, float]]] = {}
    for e in events:
        if e["ph"] == "X" and e["dur"] > 0:
            by_track.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    for spans in by_track.values():
        spans.sort(key=lambda x: (x[0], -x[1]))
        stack: List[float] = []
        for s0, e0 in spans:
            while stack and stack[-1] <= s0 + 1e-9:
                stack.pop()
            assert not stack or e0 <= stack[-1] + 1e-9
            stack.append(e0)


def test_write_outputs(add_profile: LaunchProfile, tmp_path: Path) -> None:
    paths = add_profile.write(str(tmp_path), "add")
    assert sorted(os.path.basename(p) for p in paths.values()) == [
        "add.csv", "add.hotspots.csv", "add.html", "add.trace.json"]
    with open(paths["trace"]) as f:
        assert json.load(f)["otherData"]["kernel"] == "add_kernel"


# ---- tables and objects ----------------------------------------------------------------------------

def test_pipe_table_and_bytes(add_profile: LaunchProfile) -> None:
    lp = add_profile
    s = lp.summary()
    assert s["kernel"] == "add_kernel" and s["blocks"] == 8 and s["cores"] == 8
    assert s["estimated_duration_us"] == pytest.approx(lp.duration_us)
    n = 8 * 2048 * 4
    assert s["bytes"]["GM->UB"] == 2 * n and s["bytes"]["UB->GM"] == n
    rows = {r["pipe"]: r for r in lp.pipe_table()}
    assert set(rows) == {"S", "V", "MTE2", "MTE3"}
    assert all(0 < r["utilisation"] <= 1 for r in rows.values())
    assert rows["MTE2"]["instructions"] == 8 * 2 * 16 and rows["V"]["instructions"] == 8 * 16
    per_block = [r for r in lp.pipe_table(per_block=True) if r["block"] != "all"]
    assert len(per_block) == 8 * 4
    mem = {r["path"]: r for r in lp.memory_table()}
    assert mem["GM->UB"]["bytes"] == 2 * n and mem["UB->GM"]["pipe"] == "MTE3"
    assert "add_kernel" in str(lp) and "MTE2" in lp.format()


def test_csv(add_profile: LaunchProfile) -> None:
    rows = list(csv.DictReader(io.StringIO(add_profile.table_csv())))
    (dur,) = [r for r in rows if r["kind"] == "duration" and r["name"] == "estimated"]
    assert float(dur["us"]) == pytest.approx(add_profile.duration_us, abs=1e-3)
    assert int(dur["cycles"]) == add_profile.duration_cycles
    pipes = [r for r in rows if r["kind"] == "pipe" and r["block"] == "all"]
    assert {r["name"] for r in pipes} == {"S", "V", "MTE2", "MTE3"}
    paths = {r["name"]: int(r["bytes"]) for r in rows if r["kind"] == "path"}
    assert paths == {"GM->UB": 2 * 8 * 2048 * 4, "UB->GM": 8 * 2048 * 4}
    hot = list(csv.DictReader(io.StringIO(add_profile.hotspots_csv())))
    assert hot and all(r["file"].endswith("add.py") for r in hot)
    assert sum(float(r["share"]) for r in hot) == pytest.approx(1.0, abs=1e-3)


@asc.jit
def hot_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, n * 4, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    for _ in range(16):
        asc.exp(b, a, n)  # the hot line
    asc.adds(b, b, 1.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


def test_hotspots_per_python_line() -> None:
    n = 8192
    x = np.linspace(-1, 1, n, dtype=np.float32)
    z = np.zeros_like(x)
    with asc.profile() as prof:
        hot_kernel[1](x, z, n)
    np.testing.assert_allclose(z, np.exp(x) + 1, rtol=1e-6)
    lp = prof.last
    hot = lp.hotspots()
    top = hot[0]
    assert top.source.strip().startswith("asc.exp(b, a, n)") and top.count == 16
    assert top.apis == ["asc.exp"] and top.share > 0.5
    # the line's cycles are its instructions' cycles on the vector pipe
    r = lp.blocks[0].records
    on_line = [i for i, s in enumerate(lp.sites) if s.line == top.line and s.api == "asc.exp"]
    sel = r[np.isin(r["site"], on_line) & (r["kind"] == KINDS.index("op"))]
    assert top.busy == int((sel["done"] - sel["start"]).sum())
    assert sum(h.cycles for h in hot) == sum(s.cycles for s in lp.sites)
    assert hot[0].cycles >= hot[1].cycles >= hot[-1].cycles


# ---- the HTML report ---------------------------------------------------------------------------------

def chromium() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def test_html_is_self_contained(add_profile: LaunchProfile) -> None:
    page = add_profile.html()
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "<script src" not in page
    assert "add.py" in page and "asc.data_copy" in page
    for pipe in ("MTE2", "MTE3"):
        assert f"<td class='l'>{pipe}</td>" in page


def test_html_renders_in_headless_chromium(add_profile: LaunchProfile, tmp_path: Path) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); CI installs it")
    page = tmp_path / "report.html"
    add_profile.write_html(str(page))
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
           f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,900"]
    out = subprocess.run(cmd + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    assert 'data-ready="1"' in dom, "the report's script did not run"
    drawn = re.search(r'data-drawn="(\d+)"', dom)
    assert drawn and int(drawn.group(1)) > 100, "the timeline was not drawn"
    shot = tmp_path / "report.png"
    out = subprocess.run(cmd + [f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and shot.exists() and shot.stat().st_size > 10_000


# ---- PYASC_PROFILE and the launch path ----------------------------------------------------------------

def test_pyasc_profile_environment(tmp_path: Path) -> None:
    out_dir = tmp_path / "prof"
    code = ("import importlib.util, sys\n"
            f"spec = importlib.util.spec_from_file_location('ex', {str(EXAMPLES / '01_add/add.py')!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            "m.run(); m.run()\n")
    env = {**os.environ, "PYASC_PROFILE": str(out_dir)}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    names = sorted(p.name for p in out_dir.iterdir())
    assert names == sorted(f"add_kernel_{i:03d}{ext}" for i in (0, 1)
                           for ext in (".csv", ".hotspots.csv", ".html", ".trace.json"))


def test_profile_context_writes_and_nests(tmp_path: Path, add_example: ModuleType) -> None:
    with asc.profile(str(tmp_path)) as outer:
        add_example.run()
        with asc.profile(params={"gm_bandwidth_gbps": 100.0}) as inner:
            add_example.run()
        add_example.run()
    assert len(outer) == 3 and len(inner) == 1
    assert inner.last is outer.launches[1]
    assert inner.last.params["gm_bandwidth_gbps"] == 100.0
    assert outer.launches[0].params["gm_bandwidth_gbps"] != 100.0
    assert len(list(tmp_path.glob("*.html"))) == 3
    with pytest.raises(LookupError):
        _ = asc.profile().last
    assert not asc.profiler.session.enabled or asc.profiler.session._env_dir is not None
