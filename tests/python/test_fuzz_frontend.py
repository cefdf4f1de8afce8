"""A slice of the front-end fuzzer (tests/fuzz/fuzz_frontend.py) in the
normal test run: a few hundred mutants of the suite's own kernels, each
compiled and launched; every outcome must be one the language promises
(success, asc.CompileError with a location, asc.KernelError, a
SanitizerWarning). The CI slice (thousands of mutants, against the
sanitizer build) and long runs use the script itself; see its docstring.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import asc

FUZZER = Path(__file__).resolve().parents[1] / "fuzz" / "fuzz_frontend.py"
SLICE_SEED = 101  # not the CI slice's seed: the two runs cover different mutants
SLICE_COUNT = 300


@pytest.fixture(scope="module")
def fuzzer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_frontend", FUZZER)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_frontend"] = mod  # (dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


def test_seeds_come_from_the_examples_and_the_tests(fuzzer: ModuleType) -> None:
    seeds = fuzzer.load_seeds()
    paths = {s.path for s in seeds}
    assert any(p.startswith("examples/") for p in paths)
    assert "tests/python/kernels_util.py" in paths
    names = {(s.path, s.name) for s in seeds}
    assert ("examples/01_add/add.py", "add_kernel") in names
    # device functions are not seeds of their own; they come with the kernel that calls them
    framework = next(s for s in seeds if s.path == "examples/02_add_framework/add_framework.py")
    assert framework.name == "add_kernel" and {h.name for h in framework.helpers} == {"copy_in", "compute",
                                                                                     "copy_out"}


def test_mutants_are_a_function_of_seed_and_index(fuzzer: ModuleType) -> None:
    seeds = fuzzer.load_seeds()
    a = fuzzer.make_mutant(seeds, 5, 17, fuzzer.DEFAULT_TIMEOUT)
    b = fuzzer.make_mutant(fuzzer.load_seeds(), 5, 17, fuzzer.DEFAULT_TIMEOUT)
    assert a is not None and b is not None
    assert a.source == b.source and a.changes == b.changes and a.seed.name == b.seed.name
    c = fuzzer.make_mutant(seeds, 5, 18, fuzzer.DEFAULT_TIMEOUT)
    assert c is not None and c.source != a.source
    # only bodies change: the kernel's signature is the seed's
    import ast

    def signature(src: str, name: str) -> str:
        fdef = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == name)
        return ast.dump(fdef.args)

    assert signature(a.source, a.seed.name) == ast.dump(a.seed.kernel.args)


def test_an_internal_exception_is_a_finding(fuzzer: ModuleType) -> None:
    """The oracle: anything but the accepted outcomes is reported."""
    src = "@asc.jit\ndef k(x: asc.GlobalAddress):\n    pass\n"
    env = {"asc": asc}
    ok = fuzzer.run_source(src, "fuzz_oracle_ok.py", env, "k", [np.zeros(8, np.float32)], 1, 5.0)
    assert ok.outcome == "ok"
    bad = fuzzer.run_source(src, "fuzz_oracle_bad.py", env, "k", ["not an array"], 1, 5.0)
    assert bad.outcome == "finding" and "TypeError" in bad.detail
    err = fuzzer.run_source(src.replace("pass", "asc.add(x)"), "fuzz_oracle_err.py", env, "k",
                            [np.zeros(8, np.float32)], 1, 5.0)
    assert err.outcome == "CompileError"


def test_a_slice_of_mutants_has_no_findings(fuzzer: ModuleType) -> None:
    report = fuzzer.fuzz(SLICE_SEED, SLICE_COUNT, isolate=False)
    assert not report.findings, f"{len(report.findings)} findings; the first:\n\n{report.findings[0]}"
    assert sum(report.counts.values()) == SLICE_COUNT
    # the slice reaches every stage: mutants that compile and run, that fail to compile, that fault
    assert report.counts.get("ok", 0) > 0
    assert report.counts.get("CompileError", 0) > 0
    assert report.counts.get("KernelError", 0) + report.counts.get("SanitizerError", 0) > 0
