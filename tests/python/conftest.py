"""Suite-wide checks.

Every kernel any test compiles is also translated to Ascend C, and at the
end of the session each distinct translation unit is compiled with
`g++ -std=c++17 -fsyntax-only` against tests/ascendc/kernel_operator.h, our
declaration of the Ascend C API surface: a misspelt API name or a wrong
template argument in the emitter fails the suite.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from asc.runtime import compiler

HEADER_DIR = Path(__file__).resolve().parents[1] / "ascendc"
_sources: Dict[str, str] = {}  # source text -> kernel name


def _collect(compiled: Any) -> None:
    try:
        text = compiled.ascendc(line_comments=False)
    except Exception as e:  # the emitter must handle every kernel that compiles
        _sources[f"// emitter failed: {e}\n#error emitter failed"] = compiled.name
        return
    _sources.setdefault(text, compiled.name)


def compiles_during(fn: Any) -> List[Any]:
    """Calls fn() and returns the kernels compiled meanwhile (CompiledKernel objects, in order; a cache hit
    compiles nothing)."""
    seen: List[Any] = []
    compiler.compile_listeners.append(seen.append)
    try:
        fn()
    finally:
        compiler.compile_listeners.remove(seen.append)
    return seen


def line_of(kernel: Any, marker: str, nth: int = 0) -> int:
    """The line number, in its file, of the nth line of a kernel's (or function's) source holding marker."""
    import inspect

    lines, start = inspect.getsourcelines(kernel.fn if hasattr(kernel, "fn") else kernel)
    return [start + i for i, line in enumerate(lines) if marker in line][nth]


def syntax_check(text: str, workdir: Path, index: int) -> Tuple[bool, str]:
    """Compiles one translation unit against our declaration header."""
    path = workdir / f"kernel_{index}.cpp"
    path.write_text(text)
    # ASCENDC_DUMP as Backend.NPU compiles a printing kernel: its InitDump line is checked too
    cmd = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-variable",
           "-Wno-unused-but-set-variable", "-DASCENDC_DUMP=1", "-I", str(HEADER_DIR), str(path)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    return out.returncode == 0, out.stderr


@pytest.fixture(scope="session", autouse=True)
def private_compile_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The suite uses its own on-disk compile cache, never the user's."""
    old = os.environ.get("PYASC_CACHE_DIR")
    os.environ["PYASC_CACHE_DIR"] = str(tmp_path_factory.mktemp("pyasc-cache"))
    yield
    if old is None:
        del os.environ["PYASC_CACHE_DIR"]
    else:
        os.environ["PYASC_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def ascendc_of_every_kernel() -> Iterator[None]:
    compiler.compile_listeners.append(_collect)
    yield
    compiler.compile_listeners.remove(_collect)
    if not _sources:
        return
    if shutil.which("g++") is None:
        pytest.fail("g++ is needed to check the generated Ascend C (install the GNU C++ compiler)")
    with tempfile.TemporaryDirectory() as tmp:
        items = list(_sources.items())
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda it: syntax_check(it[1][0], Path(tmp), it[0]), enumerate(items)))
    failures = [(name, err) for (text, name), (ok, err) in zip(items, results) if not ok]
    if failures:
        report = "\n\n".join(f"kernel {name}:\n{err[:2000]}" for name, err in failures[:5])
        report += "\n\nall failing kernels: " + ", ".join(name for name, _ in failures)
        pytest.fail(f"{len(failures)} of {len(items)} generated Ascend C sources do not compile against "
                    f"tests/ascendc/kernel_operator.h:\n{report}")


STUB_DIR = Path(__file__).resolve().parent / "npu_stub"


def _build_stub(tmp_path_factory: pytest.TempPathFactory, source: str, lib: str) -> Path:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler (cc or gcc) to build the stand-in CANN libraries")
    out = tmp_path_factory.mktemp("npu-stub") / lib
    result = subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(out), str(STUB_DIR / source)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="session")
def npu_stub_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Backend.NPU's stand-in for the CANN runtime (npu_stub/stub_runtime.c), compiled once per session
    (the runtime is loaded once per process, so every test that launches on "the NPU" shares it)."""
    return _build_stub(tmp_path_factory, "stub_runtime.c", "libstub_runtime.so")


@pytest.fixture(scope="session")
def npu_stub_dump_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stand-in for CANN's libascend_dump.so (npu_stub/stub_dump.c): Adx::AdumpPrintWorkSpace, which
    records its call and prints the text a stand-in kernel wrote to the dump buffer."""
    return _build_stub(tmp_path_factory, "stub_dump.c", "libascend_dump.so")
