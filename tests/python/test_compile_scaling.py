"""Long kernels compile, run and round-trip.

These are not timed: with every compile stage linear they take a few
seconds together; a stage that turns quadratic again (a scan per value in
the printer, a walk of the block per replaced constant, ...) makes this file
take minutes and shows up as a slow CI run. benchmarks/compile_scaling.py
measures the scaling itself.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Callable, Dict, List

import numpy as np

from asc import _C

# Statements per kernel: enough that an O(n^2) stage costs seconds where a
# linear one costs milliseconds. The shapes with control flow and calls
# cost more per statement in the front end (and in Python's own parser)
# and are shorter.
N = 20000
N_NESTED = 12000
N_CALLS = 8000


def _load(tmp_path: Path, name: str, source: str) -> Any:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _kernel_source(body: List[str], result: str, prelude: List[str] = ()) -> str:
    lines = ["import asc", "", *prelude, "@asc.jit", "def k(z: asc.GlobalAddress):",
             "    a = asc.get_block_idx()", *body,
             "    z_gm = asc.GlobalTensor()", "    z_gm.set_global_buffer(z, 32)",
             # a 64-byte data cache line per block (docs/sanitizer.md, "The data cache")
             f"    z_gm.set_value(asc.get_block_idx() * 16, {result})"]
    return "\n".join(lines) + "\n"


def _reference(body: List[str], result: str, prelude: List[str] = ()) -> Callable[[int], int]:
    """The same statements as plain Python, for the expected values."""
    src = "\n".join([*prelude, "def ref(a):", *body, f"    return {result}"]) + "\n"
    names: Dict[str, Any] = {}
    exec(compile(src, "<reference>", "exec"), names)  # noqa: S102 (source generated here)
    return names["ref"]


def _compiled(mod: Any) -> Any:
    return next(iter(mod.k.cache.values()))


def _check(tmp_path: Path, name: str, body: List[str], result: str, device: List[str] = ()) -> str:
    """Compiles and runs the kernel on two blocks against the reference;
    returns its IR text."""
    mod = _load(tmp_path, name, _kernel_source(body, result, device))
    z = np.zeros(32, np.int32)
    mod.k[2](z)
    ref = _reference(body, result, [line for line in device if line != "@asc.jit"])
    assert z[::16].tolist() == [ref(0), ref(1)]
    # the IR text of the whole kernel parses back to the same text
    compiled = _compiled(mod)
    text = compiled.ir_text()
    assert _C.Module.parse(text, "k.ascir").print() == text
    assert compiled.ascendc().count("\n") > len(body) // 2
    return text


def test_long_straight_line_kernel(tmp_path: Path) -> None:
    # one variable assigned N times: the printer names its values a, a_1, ..., a_N (each name once)
    body = [f"    a = a + {i % 7 + 1}" for i in range(N)]
    text = _check(tmp_path, "straight", body, "a")
    assert f"%a_{N} = " in text and f"%a_{N + 1} = " not in text


def test_long_nested_control_flow_kernel(tmp_path: Path) -> None:
    body: List[str] = []
    g = 0
    while len(body) < N_NESTED:
        body += [
            "    for i in range(2):",
            f"        if a > {g % 50}:",
            f"            a = a - {g % 3 + 1}",
            "            while a > 200:",
            "                a = a - 100",
            "        else:",
            f"            a = a + {g % 4 + 1}",
            "    if a < 0:",
            "        a = a + 5",
        ]
        g += 1
    _check(tmp_path, "control", body, "a")


def test_many_device_calls(tmp_path: Path) -> None:
    nf = 200
    device: List[str] = []
    for f in range(nf):
        device += ["@asc.jit", f"def f{f}(x: int) -> int:", f"    return x + {f % 5 + 1}", ""]
    body = [f"    a = f{i % nf}(a) % 1000" for i in range(N_CALLS)]
    text = _check(tmp_path, "calls", body, "a", device)
    assert text.count('"func.func"') == nf + 1


def test_long_variable_name_assigned_many_times(tmp_path: Path) -> None:
    # names are cut at 127 bytes: the cut `NAME_1` is NAME again, so the suffix must find room
    name = "v" * 200
    body = [f"    {name} = a"] + [f"    {name} = {name} + {i}" for i in range(1, 12)]
    text = _check(tmp_path, "longname", body, name)
    names = [line.split(" = ")[0].strip() for line in text.splitlines() if '"arith.add"' in line]
    assert len(set(names)) == len(names) == 11
    assert all(len(n) <= 128 for n in names)  # `%` and at most 127 bytes


def test_long_non_ascii_name_is_cut_at_a_character(tmp_path: Path) -> None:
    # two-byte characters over the 127-byte limit: a cut inside one made the IR text invalid UTF-8
    name = "é" * 70
    body = [f"    {name} = a"] + [f"    {name} = {name} + {i}" for i in range(1, 4)]
    text = _check(tmp_path, "longutf8", body, name)
    names = [line.split(" = ")[0].strip() for line in text.splitlines() if '"arith.add"' in line]
    assert len(set(names)) == len(names) == 3
    assert all(len(n.encode()) <= 128 for n in names)
