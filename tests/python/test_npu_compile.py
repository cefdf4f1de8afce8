"""Backend.NPU's compile and link commands (python/asc/runtime/npu.py), without an NPU: a fake CANN
toolkit in tmp_path (a `bisheng` and an `ld.lld` that check and record their arguments and write their
output file, and an ASCEND_HOME_PATH holding the devkit's header directories) stands in for the real
one. The exact argument lists are asserted per kernel type; what only a real NPU confirms is listed in
docs/tools.md."""

from __future__ import annotations

import json
import os
import shlex
import stat
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.runtime import npu

KT = config.KernelType

ASC_DIRS = ["asc/impl/adv_api", "asc/impl/basic_api", "asc/impl/c_api", "asc/impl/basic_api/reg_compute",
            "asc/impl/simt_api", "asc/impl/utils", "asc", "asc/include", "asc/include/adv_api",
            "asc/include/basic_api", "asc/include/aicpu_api", "asc/include/c_api",
            "asc/include/basic_api/reg_compute", "asc/include/simt_api", "asc/include/utils"]

COMMON = ["-std=c++17", "--cce-disable-kernel-global-attr-check", "-mllvm", "-cce-aicore-stack-size=0x8000",
          "-mllvm", "-cce-aicore-function-stack-size=0x8000", "-mllvm", "-cce-aicore-dcci-insert-for-scalar=false"]
AUTO_SYNC = ["--cce-auto-sync", "-mllvm", "-api-deps-filter"]
TILING = ["-D__NPU_TILING__", "-DTILING_KEY_VAR=0"]

# The fake compiler: checks the arguments a device compile needs, records them, writes the object.
FAKE_BISHENG = """#!{python}
import json, os, pathlib, sys
args = sys.argv[1:]
with open({log!r}, "a") as f:
    f.write(json.dumps(["bisheng"] + args) + "\\n")
if os.environ.get("FAKE_FAIL") == "compile":
    print("bisheng: note: a line on stdout")
    print("k.cpp:3:5: error: something broke", file=sys.stderr)
    sys.exit(3)
assert args[:4] == ["-c", "-x", "cce", args[3]] and args[3].startswith("-O"), args
assert args.count("-o") == 1 and sum(a.startswith("--cce-aicore-arch=") for a in args) == 1, args
src = pathlib.Path(args[4])
assert src.is_file() and "__global__ __aicore__" in src.read_text(), src
for i, a in enumerate(args):
    if a == "-I":
        assert pathlib.Path(args[i + 1]).is_dir(), args[i + 1]
pathlib.Path(args[args.index("-o") + 1]).write_bytes(b"object " + args[5].encode())
"""

# The fake linker: checks that it links existing objects into one binary, records the arguments.
FAKE_LLD = """#!{python}
import json, os, pathlib, sys
args = sys.argv[1:]
with open({log!r}, "a") as f:
    f.write(json.dumps(["ld.lld"] + args) + "\\n")
if os.environ.get("FAKE_FAIL") == "link":
    print("ld.lld: error: undefined symbol: foo", file=sys.stderr)
    sys.exit(1)
assert args[:4] == ["-m", "aicorelinux", "-Ttext=0", args[3]], args
inputs = args[3:args.index("-static")]
assert inputs and all(pathlib.Path(p).is_file() for p in inputs), inputs
pathlib.Path(args[args.index("-o") + 1]).write_bytes(b"".join(pathlib.Path(p).read_bytes() for p in inputs))
"""


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


class Toolkit:
    def __init__(self, root: Path):
        self.root = root
        self.log = root / "calls.jsonl"
        self.home = root / "cann"
        self.bin = root / "cann" / "compiler" / "ccec_compiler" / "bin"
        self.bisheng = _script(self.bin / "bisheng", FAKE_BISHENG.format(python=sys.executable, log=str(self.log)))
        self.lld = _script(self.bin / "ld.lld", FAKE_LLD.format(python=sys.executable, log=str(self.log)))

    def make_dirs(self, *rels: str) -> None:
        for rel in rels:
            (self.home / rel).mkdir(parents=True, exist_ok=True)

    def calls(self) -> List[List[str]]:
        return [json.loads(line) for line in self.log.read_text().splitlines()] if self.log.exists() else []

    def includes(self, *rels: str) -> List[str]:
        out: List[str] = []
        for rel in rels:
            out += ["-I", str(self.home / rel)]
        return out


@pytest.fixture
def toolkit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, npu_stub_library: Path,
            npu_stub_dump_library: Path) -> Iterator[Toolkit]:
    """A fake toolkit in the current CANN layout: asc/include + asc/impl, the highlevel_api directory of
    lib/matmul_intf.h, the devkit's version header; the launch goes to the stand-in runtime and dump
    library (test_npu_launch.py tests them)."""
    monkeypatch.setenv("PYASC_NPU_RUNTIME", str(npu_stub_library))
    monkeypatch.setenv("PYASC_NPU_DUMP_LIB", str(npu_stub_dump_library))
    monkeypatch.delenv("ASCENDC_DUMP", raising=False)
    monkeypatch.setenv("STUB_LOG", str(tmp_path / "runtime.jsonl"))
    monkeypatch.delenv("STUB_FAIL", raising=False)
    tk = Toolkit(tmp_path)
    tk.make_dirs(*ASC_DIRS, "include/ascendc/highlevel_api", "include/version")
    (tk.home / "include/version/asc_devkit_version.h").write_text("#define ASC_DEVKIT_VERSION 1\n")
    monkeypatch.setenv("PYASC_COMPILER", str(tk.bisheng))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tk.home))
    for name in ("PYASC_LINKER", "PYASC_DUMP_PATH", "FAKE_FAIL"):
        monkeypatch.delenv(name, raising=False)
    try:
        yield tk
    finally:
        config.set_platform(config.Backend.Model)


def current_layout(tk: Toolkit) -> List[str]:
    return ["-include", str(tk.home / "include/version/asc_devkit_version.h")] + \
        tk.includes(*ASC_DIRS, "include/ascendc/highlevel_api")


@asc.jit
def npu_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, 1)


@asc.jit
def npu_static_kernel(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 8)
    asc.duplicate(ub, 1, 8)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(g, ub, 8)


def launch(tk: Toolkit, kernel: Any = npu_kernel, platform: Any = config.Platform.Ascend910B3,
           **options: Any) -> Dict[str, Any]:
    """Launches kernel on Backend.NPU with the fake toolkit and the stand-in runtime; returns the binary's
    registration (rtDevBinaryRegister's arguments as the stand-in recorded them)."""
    config.set_platform(config.Backend.NPU, platform)
    kernel[1](np.zeros(8, np.int32), always_compile=True, **options)
    log = tk.root / "runtime.jsonl"
    (reg,) = [c for c in map(json.loads, log.read_text().splitlines()) if c["call"] == "rtDevBinaryRegister"]
    return reg


def compile_argv(tk: Toolkit, source: str, arch: str, obj: str, opt: str = "-O3", layout: Any = None,
                 extra: Any = None, auto_sync: bool = True, dump: int = 0) -> List[str]:
    argv = ["bisheng", "-c", "-x", "cce", opt, source, f"--cce-aicore-arch={arch}", "--cce-aicore-only", "-o", obj]
    argv += current_layout(tk) if layout is None else layout
    argv += COMMON + [f"-DASCENDC_DUMP={dump}"] + (AUTO_SYNC if auto_sync else []) + list(extra or []) + TILING
    return argv


# ---- the commands per kernel type ---------------------------------------------------------------------------


def test_vector_kernel_one_compile_then_the_link(toolkit: Toolkit) -> None:
    reg = launch(toolkit)
    compile_, link = toolkit.calls()
    source = Path(compile_[5])
    out = source.parent
    assert source.name == "npu_kernel.cpp" and 'extern "C" __global__ __aicore__ void npu_kernel(' in \
        source.read_text()
    assert compile_ == compile_argv(toolkit, str(source), "dav-c220-vec", str(out / "npu_kernel.aiv.o"))
    assert link == ["ld.lld", "-m", "aicorelinux", "-Ttext=0", str(out / "npu_kernel.aiv.o"), "-static", "-o",
                    str(out / "npu_kernel.o")]
    assert (out / "npu_kernel.o").read_bytes() == b"object --cce-aicore-arch=dav-c220-vec"
    # the linked binary is what the launch registers, as a vector-core binary
    assert reg["length"] == len(b"object --cce-aicore-arch=dav-c220-vec") and reg["magic"] == 0x41415246


@pytest.mark.parametrize("kernel_type", [KT.AIC_ONLY, KT.MIX_AIC_1_0, KT.MIX_AIC_HARD_SYNC])
def test_cube_core_kernel_types_compile_for_the_cube(toolkit: Toolkit, kernel_type: Any) -> None:
    launch(toolkit, kernel_type=kernel_type)
    compile_, link = toolkit.calls()
    out = Path(compile_[5]).parent
    assert compile_ == compile_argv(toolkit, compile_[5], "dav-c220-cube", str(out / "npu_kernel.aic.o"))
    assert link[4:5] == [str(out / "npu_kernel.aic.o")]


@pytest.mark.parametrize("kernel_type", [KT.MIX_AIV_1_0, KT.MIX_AIV_HARD_SYNC])
def test_vector_core_kernel_types_compile_for_the_vector_core(toolkit: Toolkit, kernel_type: Any) -> None:
    launch(toolkit, kernel_type=kernel_type)
    (compile_, _) = toolkit.calls()
    out = Path(compile_[5]).parent
    assert compile_ == compile_argv(toolkit, compile_[5], "dav-c220-vec", str(out / "npu_kernel.aiv.o"))
    # MIX_AIV_1_0 is a MIX type: its kernel takes the FFTS address (family entry); the HARD_SYNC one is not
    text = Path(compile_[5]).read_text()
    assert ("GM_ADDR ffts_addr" in text) == (kernel_type == KT.MIX_AIV_1_0)


@pytest.mark.parametrize("kernel_type, ration", [(KT.MIX_AIC_1_2, []), (KT.MIX_AIC_1_1, ["-D__MIX_CORE_AIC_RATION__=1"])])
def test_mix_kernel_compiles_cube_then_vector_and_links_both(toolkit: Toolkit, kernel_type: Any,
                                                             ration: List[str]) -> None:
    reg = launch(toolkit, kernel_type=kernel_type)
    cube, vec, link = toolkit.calls()
    src = cube[5]
    out = Path(src).parent
    mix = ["-cce-enable-mix", "-D__MIX_CORE_MACRO__=1"] + ration
    assert cube == compile_argv(toolkit, src, "dav-c220-cube", str(out / "npu_kernel.aic.o"), extra=mix)
    assert vec == compile_argv(toolkit, src, "dav-c220-vec", str(out / "npu_kernel.aiv.o"), extra=mix)
    assert link == ["ld.lld", "-m", "aicorelinux", "-Ttext=0", str(out / "npu_kernel.aic.o"),
                    str(out / "npu_kernel.aiv.o"), "-static", "-o", str(out / "npu_kernel.o")]
    text = Path(src).read_text()
    assert "void npu_kernel(GM_ADDR x, GM_ADDR ffts_addr)" in text
    assert f"KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_{kernel_type.name});\n    set_ffts_base_addr(" in text
    assert reg["magic"] == 0x43554245  # a MIX binary (cube and vector cores)


def test_detected_kernel_type_decides_the_build(toolkit: Toolkit) -> None:
    """Not the jit option alone: a kernel whose IR uses the cube core is MIX_AIC_1_2 (detect-kernel-type)."""
    @asc.jit
    def cube_kernel(x: asc.GlobalAddress):
        pipe = asc.TPipe()
        q = asc.TQue(asc.TPosition.A1, 1)
        pipe.init_buffer(q, 1, 512)
        t = q.alloc_tensor(asc.float16)
        q.free_tensor(t)

    reg = launch(toolkit, cube_kernel)
    archs = [a for c in toolkit.calls() for a in c if a.startswith("--cce-aicore-arch=")]
    assert archs == ["--cce-aicore-arch=dav-c220-cube", "--cce-aicore-arch=dav-c220-vec"]
    assert reg["magic"] == 0x43554245


def test_static_tensor_kernel_source_has_its_entry_and_exit(toolkit: Toolkit) -> None:
    launch(toolkit, npu_static_kernel)
    text = Path(toolkit.calls()[0][5]).read_text()
    assert "{\n    AscendC::InitSocState();\n" in text
    assert "    AscendC::PipeBarrier<PIPE_ALL>();\n}" in text


# ---- the options ------------------------------------------------------------------------------------------


def test_debug_opt_level_auto_sync_and_bisheng_options(toolkit: Toolkit, tmp_path: Path) -> None:
    log = str(tmp_path / "sync.log")
    launch(toolkit, debug=True, opt_level=1, auto_sync_log=log, bisheng_options=("-DFOO=1", "-Wno-unused"))
    (compile_, _) = toolkit.calls()
    out = Path(compile_[5]).parent
    expected = ["bisheng", "-c", "-x", "cce", "-O1", compile_[5], "--cce-aicore-arch=dav-c220-vec",
                "--cce-aicore-only", "-o", str(out / "npu_kernel.aiv.o")] + current_layout(toolkit) + COMMON + \
        ["-DASCENDC_DUMP=0", "-g", "-mllvm", "--cce-aicore-jump-expand=true"] + AUTO_SYNC + \
        [f"-cce-auto-sync-log={log}"] + TILING + ["-DFOO=1", "-Wno-unused"]
    assert compile_ == expected


@asc.jit
def npu_print_kernel(x: asc.GlobalAddress):
    asc.printf("x\n")


@pytest.mark.parametrize("env, dump", [(None, 1), ("true", 1), ("TRUE", 1), ("false", 0), ("0", 0)])
def test_device_printing_switch(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch, env: Any, dump: int) -> None:
    """A kernel that prints is compiled with upstream's -DASCENDC_DUMP=1 and takes the dump buffer; with
    ASCENDC_DUMP set to anything but "true" (upstream's test) it is compiled with -DASCENDC_DUMP=0 and
    without the buffer. A kernel that does not print always gets -DASCENDC_DUMP=0 (the tests above)."""
    if env is not None:
        monkeypatch.setenv("ASCENDC_DUMP", env)
    launch(toolkit, npu_print_kernel)
    (compile_, _) = toolkit.calls()
    out = Path(compile_[5]).parent
    assert compile_ == compile_argv(toolkit, compile_[5], "dav-c220-vec", str(out / "npu_print_kernel.aiv.o"),
                                    dump=dump)
    text = Path(compile_[5]).read_text()
    assert ("void npu_print_kernel(GM_ADDR x, GM_ADDR dump_addr)" in text) == bool(dump)
    assert ("AscendC::InitDump(false, dump_addr, 1048576);" in text) == bool(dump)
    assert "void npu_print_kernel(GM_ADDR x)" in text or dump


def test_auto_sync_off(toolkit: Toolkit) -> None:
    launch(toolkit, auto_sync=False)
    (compile_, _) = toolkit.calls()
    assert "--cce-auto-sync" not in compile_ and "-api-deps-filter" not in compile_
    assert compile_ == compile_argv(toolkit, compile_[5], "dav-c220-vec", compile_[9], auto_sync=False)


# ---- the devkit under ASCEND_HOME_PATH ------------------------------------------------------------------


def test_older_tikcpp_layout_and_cann_version_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    npu_stub_library: Path) -> None:
    monkeypatch.setenv("PYASC_NPU_RUNTIME", str(npu_stub_library))
    monkeypatch.setenv("STUB_LOG", str(tmp_path / "runtime.jsonl"))
    tk = Toolkit(tmp_path)
    tk.make_dirs("compiler/tikcpp/tikcfw/impl", "compiler/tikcpp/tikcfw/interface", "include/version")
    (tk.home / "include/version/cann_version.h").write_text("")
    monkeypatch.setenv("PYASC_COMPILER", str(tk.bisheng))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tk.home))
    monkeypatch.delenv("PYASC_LINKER", raising=False)
    try:
        launch(tk)
    finally:
        config.set_platform(config.Backend.Model)
    (compile_, _) = tk.calls()
    layout = ["-include", str(tk.home / "include/version/cann_version.h")] + \
        tk.includes("compiler/tikcpp/tikcfw", "compiler/tikcpp/tikcfw/impl", "compiler/tikcpp/tikcfw/interface")
    assert compile_ == compile_argv(tk, compile_[5], "dav-c220-vec", compile_[9], layout=layout)


def test_both_layouts_current_first_and_no_version_header(tmp_path: Path) -> None:
    tk = Toolkit(tmp_path)
    host = npu._host_dir()
    tk.make_dirs(*(f"{host}/{d}" for d in ASC_DIRS), "compiler/tikcpp/tikcfw")
    dirs, version = npu.devkit_headers(tk.home)
    assert version is None
    assert dirs == [tk.home / host / d for d in ASC_DIRS] + \
        [tk.home / "compiler/tikcpp/tikcfw" / d if d else tk.home / "compiler/tikcpp/tikcfw"
         for d in ("", "impl", "interface")]


def test_home_without_devkit_headers(toolkit: Toolkit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("ASCEND_HOME_PATH", str(empty))
    with pytest.raises(npu.ToolkitMissing, match=rf"ASCEND_HOME_PATH={empty} holds no Ascend C devkit headers"):
        config.set_platform(config.Backend.NPU)
    assert config.current_backend() == config.Backend.Model


def test_home_not_set(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH")
    with pytest.raises(npu.ToolkitMissing, match="ASCEND_HOME_PATH is not set.*set_env.sh"):
        config.set_platform(config.Backend.NPU)


# ---- finding the tools --------------------------------------------------------------------------------------


def test_no_compiler_anywhere(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYASC_COMPILER")
    monkeypatch.delenv("ASCEND_HOME_PATH")
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(npu.ToolkitMissing) as info:
        config.set_platform(config.Backend.NPU)
    msg = str(info.value)
    assert "`bisheng` compiler was not found on PATH" in msg and "ASCEND_HOME_PATH is not set" in msg
    assert "PYASC_COMPILER" in msg and "set_env.sh" in msg and "Backend.Model" in msg


def test_compiler_from_the_toolkit_under_home(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYASC_COMPILER")
    monkeypatch.setenv("PATH", "/nonexistent")
    assert npu.find_compiler() == str(toolkit.bisheng)
    assert npu.find_linker(npu.find_compiler()) == str(toolkit.lld)


def test_bad_compiler_variable(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYASC_COMPILER", "/nonexistent/bisheng")
    with pytest.raises(npu.ToolkitMissing, match="PYASC_COMPILER=/nonexistent/bisheng is not an executable"):
        config.set_platform(config.Backend.NPU)


def test_linker_order_variable_then_beside_the_compiler_then_path(toolkit: Toolkit, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    on_path = _script(tmp_path / "path_bin" / "ld.lld", "#!/bin/sh\nexit 0\n")
    monkeypatch.setenv("PATH", f"{on_path.parent}{os.pathsep}{os.environ['PATH']}")
    assert npu.find_linker(str(toolkit.bisheng)) == str(toolkit.lld)  # beside the compiler wins over PATH
    toolkit.lld.unlink()
    assert npu.find_linker(str(toolkit.bisheng)) == str(on_path)
    chosen = _script(tmp_path / "mine" / "my-lld", "#!/bin/sh\nexit 0\n")
    monkeypatch.setenv("PYASC_LINKER", str(chosen))
    assert npu.find_linker(str(toolkit.bisheng)) == str(chosen)
    monkeypatch.setenv("PYASC_LINKER", "/nonexistent/ld.lld")
    with pytest.raises(npu.ToolkitMissing, match="PYASC_LINKER=/nonexistent/ld.lld is not an executable"):
        npu.find_linker(str(toolkit.bisheng))


def test_no_linker(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    toolkit.lld.unlink()
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(npu.ToolkitMissing) as info:
        config.set_platform(config.Backend.NPU)
    msg = str(info.value)
    assert "`ld.lld` is neither beside the compiler" in msg and str(toolkit.bin) in msg
    assert "PYASC_LINKER" in msg and "aicorelinux" in msg
    assert config.current_backend() == config.Backend.Model


# ---- failures ---------------------------------------------------------------------------------------------


def test_failing_compiler_message(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    config.set_platform(config.Backend.NPU)
    monkeypatch.setenv("FAKE_FAIL", "compile")
    with pytest.raises(npu.NpuCompileError) as info:
        npu_kernel[1](np.zeros(8, np.int32), always_compile=True)
    err = info.value
    assert isinstance(err, RuntimeError) and err.returncode == 3 and err.step == "compile of npu_kernel.aiv.o"
    (argv,) = toolkit.calls()  # the link never ran
    msg = str(err)
    assert msg.startswith("Backend.NPU: the compile of npu_kernel.aiv.o of kernel npu_kernel failed (exit status 3)")
    assert f"command: {shlex.join([str(toolkit.bisheng)] + argv[1:])}" in msg
    assert "k.cpp:3:5: error: something broke" in msg and "bisheng: note: a line on stdout" in msg


def test_failing_linker_message(toolkit: Toolkit, monkeypatch: pytest.MonkeyPatch) -> None:
    config.set_platform(config.Backend.NPU)
    monkeypatch.setenv("FAKE_FAIL", "link")
    with pytest.raises(npu.NpuCompileError) as info:
        npu_kernel[1](np.zeros(8, np.int32), always_compile=True)
    msg = str(info.value)
    assert "the link of kernel npu_kernel failed (exit status 1)" in msg
    assert f"command: {shlex.quote(str(toolkit.lld))} -m aicorelinux -Ttext=0 " in msg
    assert "ld.lld: error: undefined symbol: foo" in msg


def test_unknown_platform() -> None:
    with pytest.raises(ValueError, match="no NPU architecture known for platform Ascend310P"):
        npu.core_archs("Ascend310P", KT.AIV_ONLY)


# ---- the dump -----------------------------------------------------------------------------------------------


def test_commands_are_dumped(toolkit: Toolkit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dump = tmp_path / "dump"
    monkeypatch.setenv("PYASC_DUMP_PATH", str(dump))
    launch(toolkit, kernel_type=KT.MIX_AIC_1_2)
    (script,) = dump.glob("npu_kernel-*.npu.sh")
    key = script.name[len("npu_kernel-"):-len(".npu.sh")]
    assert (dump / f"npu_kernel-{key}.cpp").is_file()
    lines = script.read_text().splitlines()
    assert lines[:3] == ["#!/bin/sh", "# Backend.NPU: the device compiles and the link of this kernel", "set -e"]
    ran: List[Dict[str, Any]] = []
    for line, call in zip(lines[3:], toolkit.calls()):
        argv = shlex.split(line)
        ran.append({"tool": Path(argv[0]).name, "same": argv[1:] == call[1:]})
    assert ran == [{"tool": "bisheng", "same": True}, {"tool": "bisheng", "same": True},
                   {"tool": "ld.lld", "same": True}]
    assert len(lines) == 6
