"""The Ascend C emitter and PYASC_DUMP_PATH (Backend.NPU's compile command: test_npu_compile.py).

(Every kernel compiled anywhere in the suite is also syntax-checked with
g++ against tests/ascendc/kernel_operator.h: see conftest.py.)
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import asc
import asc._C as C

ROOT = Path(__file__).resolve().parents[2]


def load_example(rel: str) -> ModuleType:
    path = ROOT / "examples" / rel
    spec = importlib.util.spec_from_file_location(f"ex_{path.stem}", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compiled_of(kernel: Any) -> Any:
    assert kernel.cache, "kernel was not compiled"
    return list(kernel.cache.values())[-1]


@pytest.fixture(scope="module")
def add_example() -> Any:
    mod = load_example("01_add/add.py")
    mod.run()
    return compiled_of(mod.add_kernel)


@pytest.fixture(scope="module")
def framework_example() -> Any:
    mod = load_example("02_add_framework/add_framework.py")
    mod.run()
    return compiled_of(mod.add_kernel)


def test_every_op_has_an_emitter_rule() -> None:
    assert C.ops_without_emitter_rule() == []
    assert len(C.op_names()) > 50


def test_translation_unit_shape(add_example: Any) -> None:
    src = add_example.ascendc()
    assert src.splitlines()[1] == '#include "kernel_operator.h"'
    assert 'extern "C" __global__ __aicore__ void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t block_length)' \
        in src


def test_api_spelling_and_python_names(add_example: Any) -> None:
    src = add_example.ascendc(line_comments=False)
    for snippet in [
        "AscendC::GlobalTensor<float> x_gm;",
        "x_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + start, block_length);",
        "int32_t tile = (block_length / 8) / 2;",
        "AscendC::LocalTensor<float> x_ub(AscendC::TPosition::VECIN, 0, tile * 2);",
        "for (int32_t i = 0; i < 16; ++i) {",
        "AscendC::DataCopy(x_ub[slot * tile], x_gm[i * tile], tile);",
        "AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(slot);",
        "AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(slot);",
        "AscendC::Add(z_ub[slot * tile], x_ub[slot * tile], y_ub[slot * tile], tile);",
    ]:
        assert snippet in src, snippet
    assert "v1" not in src and "tmp" not in src


def test_framework_and_device_functions(framework_example: Any) -> None:
    src = framework_example.ascendc(line_comments=False)
    for snippet in [
        "AscendC::TPipe pipe;",
        "AscendC::TQue<AscendC::TPosition::VECIN, 2> x_in;",
        "pipe.InitBuffer(x_in, 2, 512);",
        "__aicore__ inline void copy_in(int32_t i, AscendC::GlobalTensor<float> x_gm, AscendC::GlobalTensor<float> "
        "y_gm, AscendC::TQue<AscendC::TPosition::VECIN, 2> &x_in, AscendC::TQue<AscendC::TPosition::VECIN, 2> &y_in)",
        "AscendC::LocalTensor<float> x_ub = x_in.AllocTensor<float>();",
        "x_in.EnQue(x_ub);",
        "AscendC::LocalTensor<float> x_ub = x_in.DeQue<float>();",
        "x_in.FreeTensor(x_ub);",
        "copy_in(i, x_gm, y_gm, x_in, y_in);",
    ]:
        assert snippet in src, snippet
    # device functions come before the kernel that calls them
    assert src.index("void copy_in(") < src.index("void add_kernel(")


def test_line_comments(add_example: Any) -> None:
    with_comments = add_example.ascendc()
    assert "  // add.py:" in with_comments
    line = next(ln for ln in with_comments.splitlines() if "AscendC::Add(" in ln)
    lineno = int(line.rsplit("add.py:", 1)[1])
    source = (ROOT / "examples/01_add/add.py").read_text().splitlines()
    assert "asc.add(" in source[lineno - 1]
    assert "//" not in add_example.ascendc(line_comments=False).split("\n", 2)[2]


@asc.jit
def _scalar_kernel(z: asc.GlobalAddress, n: int, f: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    acc = 0
    k = n
    while k > 0:
        acc = acc + k % 3
        k = k // 2
    big = n if n > 3 else -n
    g.set_value(0, acc + big)
    h = asc.float16(f) * 2
    g.set_value(1, asc.int32(h) if n != 0 else 7)


def test_control_flow_and_scalars() -> None:
    z = np.zeros(4, np.int32)
    _scalar_kernel[1](z, 10, 1.5)
    src = compiled_of(_scalar_kernel).ascendc(line_comments=False)
    assert "while (true) {" in src and "break;" in src
    assert "if (!(k > 0)) {" in src or "if (!" in src
    assert "static_cast<half>(" in src or "half(" in src
    assert "int32_t acc = 0;" in src


def test_emitter_rejects_module_that_does_not_verify() -> None:
    m = C.Module("bad")
    i32 = m.type("scalar", "int32")
    f = m.add_function("k", [], [], True, ("x.py", 1, 0))
    m.create(f.region(0), "arith.constant", [], [i32], {"value": (1, i32)}, None, ("x.py", 2, 0))
    with pytest.raises(C.IRError, match="func.return"):
        m.emit_ascendc()


# ---- PYASC_DUMP_PATH -----------------------------------------------------------------


@asc.jit
def _dumped(x: asc.GlobalAddress, n: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, n)


def test_dump_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYASC_DUMP_PATH", str(tmp_path / "dumps"))
    _dumped[1](np.zeros(8, np.int32), 5)
    _dumped[1](np.zeros(8, np.int32), 6)  # a second specialisation: other files
    files = sorted(p.name for p in (tmp_path / "dumps").iterdir())
    assert len(files) == 6, files
    keys = {name.split(".")[0] for name in files}
    assert len(keys) == 2 and all(k.startswith("_dumped-") and len(k) == len("_dumped-") + 12 for k in keys)
    for key in keys:
        initial = (tmp_path / "dumps" / f"{key}.initial.ascir").read_text()
        final = (tmp_path / "dumps" / f"{key}.final.ascir").read_text()
        cpp = (tmp_path / "dumps" / f"{key}.cpp").read_text()
        assert '"func.func"' in initial and 'sym_name = "_dumped"' in final
        assert C.Module.parse(final).print() == final  # the dump is valid IR text
        assert 'extern "C" __global__ __aicore__ void _dumped(GM_ADDR x)' in cpp


def test_no_dump_when_unset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYASC_DUMP_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    _dumped[1](np.zeros(8, np.int32), 7)
    assert list(tmp_path.iterdir()) == []


def test_generated_code_compiles_standalone(framework_example: Any, tmp_path: Path) -> None:
    """The same check conftest.py runs for every kernel, once explicitly."""
    src = tmp_path / "k.cpp"
    src.write_text(framework_example.ascendc())
    out = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-I",
                          str(ROOT / "tests/ascendc"), str(src)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    bad = tmp_path / "bad.cpp"
    bad.write_text(src.read_text().replace("AscendC::DataCopy(", "AscendC::DataCopyy("))
    out = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(ROOT / "tests/ascendc"), str(bad)],
                         capture_output=True, text=True)
    assert out.returncode != 0 and "DataCopyy" in out.stderr


