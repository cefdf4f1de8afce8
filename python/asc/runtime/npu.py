"""Backend.NPU: compiling the generated Ascend C with the CANN toolkit.

Each kernel is compiled by the Bisheng compiler once per core kind its
kernel type runs (the devkit's `--cce-aicore-arch=dav-c220-vec` for vector
cores, `dav-c220-cube` for cube cores; a kernel of cube and vector cores,
MIX_AIC_1_1 / MIX_AIC_1_2, is compiled for both with `-cce-enable-mix`),
and the objects are linked into one device binary by the toolkit's
`ld.lld -m aicorelinux -Ttext=0`. The options are those of upstream pyasc
(python/asc/runtime/compiler.py, which launches a kernel directly, as we
will) and of the devkit's own build (cmake/asc/legacy_modules/
bisheng_intf.cmake, device_project/CMakeLists.txt, the v220 op compiler in
tools/build/asc_op_compile_base/adapter/ascendc_compile_v220.py); docs/
tools.md lists them with where each comes from, and what only a real NPU
confirms.

Tools: the compiler is `$PYASC_COMPILER` (a path or a name on PATH), else
`bisheng` on PATH, else the toolkit's `ccec_compiler/bin/bisheng` under
`$ASCEND_HOME_PATH`; the linker `$PYASC_LINKER`, else the `ld.lld` beside
the compiler (the toolkit's, which knows the aicorelinux target), else
`ld.lld` on PATH. Headers: the devkit under `$ASCEND_HOME_PATH`, in the
`asc/include` + `asc/impl` layout of current CANN and the older
`tikcpp/tikcfw` layout, whichever are there.
"""

from __future__ import annotations

import os
import platform as host_platform
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

ENV_COMPILER = "PYASC_COMPILER"
ENV_LINKER = "PYASC_LINKER"
ENV_HOME = "ASCEND_HOME_PATH"
ENV_DUMP = "ASCENDC_DUMP"

# The dump buffer of a kernel that prints from the device (upstream pyasc's runtime/utils.py): 1 MiB for each
# core, room for 75 cores; InitDump in the emitted kernel gets the per-core size (src/target/ascendc/emit_entry.c)
ONE_CORE_DUMP_SIZE = 1048576
TOTAL_DUMP_SIZE = ONE_CORE_DUMP_SIZE * 75

# Ascend910B parts (and the 910_93 series) share the dav-c220 architecture.
_ARCH = {name: "c220" for name in (
    "Ascend910B1", "Ascend910B2", "Ascend910B2C", "Ascend910B3", "Ascend910B4", "Ascend910B4-1",
    "Ascend910_9362", "Ascend910_9372", "Ascend910_9381", "Ascend910_9382", "Ascend910_9391", "Ascend910_9392")}

# Which cores each asc.KernelType runs, so which objects it is built from (upstream's CompilationTarget, the
# devkit's mapping of kernel types to AIV / AIC / MIX builds in extract_host_stub.py)
_VECTOR_ONLY = ("AIV_ONLY", "MIX_AIV_1_0", "MIX_AIV_HARD_SYNC")
_CUBE_ONLY = ("AIC_ONLY", "MIX_AIC_1_0", "MIX_AIC_HARD_SYNC")
_CUBE_AND_VECTOR = ("MIX_AIC_1_1", "MIX_AIC_1_2")

# Every compile: C++17; the kernel's attributes are ours, not the op framework's (device_project/CMakeLists.txt);
# the stack sizes and no data-cache maintenance inserted around scalar accesses (bisheng_intf.cmake for
# c220, the v220 op compiler, upstream's CompilationTarget: all three agree on these).
COMMON_OPTIONS = ("-std=c++17", "--cce-disable-kernel-global-attr-check",
                  "-mllvm", "-cce-aicore-stack-size=0x8000",
                  "-mllvm", "-cce-aicore-function-stack-size=0x8000",
                  "-mllvm", "-cce-aicore-dcci-insert-for-scalar=false")
# upstream's last options: its tiling is passed as a kernel argument, and there is one tiling key
TILING_OPTIONS = ("-D__NPU_TILING__", "-DTILING_KEY_VAR=0")

# The include directories of the devkit's current layout (bisheng_intf.cmake, relative to its devkit root)
_ASC_INCLUDES = ("asc/impl/adv_api", "asc/impl/basic_api", "asc/impl/c_api", "asc/impl/basic_api/reg_compute",
                 "asc/impl/simt_api", "asc/impl/utils", "asc", "asc/include", "asc/include/adv_api",
                 "asc/include/basic_api", "asc/include/aicpu_api", "asc/include/c_api",
                 "asc/include/basic_api/reg_compute", "asc/include/simt_api", "asc/include/utils")
# ... and of the older one (upstream's order)
_TIKCFW_INCLUDES = ("", "impl", "interface")


class ToolkitMissing(RuntimeError):
    """The CANN toolkit, or a part of it Backend.NPU needs, was not found."""


class NpuCompileError(RuntimeError):
    """A compile or link command failed: the command, its exit status and its output."""

    def __init__(self, kernel: str, step: str, cmd: Sequence[str], returncode: int, output: str):
        self.kernel = kernel
        self.step = step
        self.cmd = list(cmd)
        self.returncode = returncode
        self.output = output
        super().__init__(f"Backend.NPU: the {step} of kernel {kernel} failed (exit status {returncode}).\n"
                         f"command: {shlex.join(self.cmd)}\n{output.rstrip()}")


def _host_dir() -> str:
    machine = host_platform.machine().lower()
    return "aarch64-linux" if machine in ("aarch64", "arm64") else "x86_64-linux"


def _devkit_roots(home: Path) -> List[Path]:
    """Where the toolkit's compiler and headers may be, in the devkit's order (bisheng_config.cmake:
    the host's `<arch>-linux`, `tools`, `compiler`; CMakeASCInformation.cmake: the home itself)."""
    return [home / _host_dir(), home / "tools", home / "compiler", home]


def _home() -> Optional[Path]:
    value = os.environ.get(ENV_HOME, "")
    return Path(value) if value else None


def find_compiler() -> str:
    """The Bisheng compiler, or ToolkitMissing naming what to install or set."""
    env = os.environ.get(ENV_COMPILER)
    if env:
        path = shutil.which(env)
        if path is None:
            raise ToolkitMissing(f"{ENV_COMPILER}={env} is not an executable: point it at the CANN toolkit's "
                                 "bisheng compiler (or unset it to use `bisheng` on PATH)")
        return path
    path = shutil.which("bisheng")
    if path is not None:
        return path
    home = _home()
    if home is not None:
        for root in _devkit_roots(home):
            candidate = root / "ccec_compiler" / "bin" / "bisheng"
            if os.access(candidate, os.X_OK) and candidate.is_file():
                return str(candidate)
    where = f" nor under {ENV_HOME}={home}" if home is not None else f", and {ENV_HOME} is not set"
    raise ToolkitMissing("Backend.NPU needs the CANN toolkit: the `bisheng` compiler was not found on PATH"
                         f"{where}, and {ENV_COMPILER} is not set. Install CANN and source its set_env.sh "
                         f"(which sets {ENV_HOME} and PATH), or set {ENV_COMPILER} to the compiler; or use "
                         "Backend.Model to run on the built-in simulator.")


def find_linker(compiler: str) -> str:
    """The toolkit's ld.lld: $PYASC_LINKER, else beside the compiler, else on PATH."""
    env = os.environ.get(ENV_LINKER)
    if env:
        path = shutil.which(env)
        if path is None:
            raise ToolkitMissing(f"{ENV_LINKER}={env} is not an executable: point it at the CANN toolkit's "
                                 "ld.lld (in ccec_compiler/bin, beside bisheng)")
        return path
    dirs = [Path(compiler).parent, Path(os.path.realpath(compiler)).parent]
    for d in dirs:
        candidate = d / "ld.lld"
        if os.access(candidate, os.X_OK) and candidate.is_file():
            return str(candidate)
    path = shutil.which("ld.lld")
    if path is not None:
        return path
    raise ToolkitMissing(f"Backend.NPU needs the CANN toolkit's linker: `ld.lld` is neither beside the compiler "
                         f"({dirs[0]}) nor on PATH, and {ENV_LINKER} is not set. Set {ENV_LINKER} to the "
                         "toolkit's ld.lld (ccec_compiler/bin/ld.lld); a system ld.lld does not know the "
                         "aicorelinux target.")


def devkit_headers(home: Optional[Path] = None) -> Tuple[List[Path], Optional[Path]]:
    """The include directories of the devkit under ASCEND_HOME_PATH and the version header to
    force-include (None when absent); ToolkitMissing when neither header layout is there."""
    home = home if home is not None else _home()
    if home is None:
        raise ToolkitMissing(f"Backend.NPU needs the CANN toolkit's headers: {ENV_HOME} is not set. Source the "
                             f"toolkit's set_env.sh, or set {ENV_HOME} to its install directory (the one holding "
                             "asc/include or compiler/tikcpp).")
    dirs: List[Path] = []
    # current CANN: asc/include and asc/impl under the devkit root (the first root that has them)
    asc_root = next((r for r in _devkit_roots(home) if (r / "asc" / "include").is_dir()), None)
    if asc_root is not None:
        dirs += [asc_root / d for d in _ASC_INCLUDES]
        # the op project's `lib/matmul_intf.h` (the devkit's .clangd: include/ascendc/highlevel_api)
        highlevel = home / "include" / "ascendc" / "highlevel_api"
        if highlevel.is_dir():
            dirs.append(highlevel)
    # the older layout: tikcpp/tikcfw (function.cmake: the host's <arch>-linux, else compiler)
    tikcfw = next((t for t in (home / _host_dir() / "tikcpp" / "tikcfw", home / "compiler" / "tikcpp" / "tikcfw")
                   if t.is_dir()), None)
    if tikcfw is not None:
        dirs += [tikcfw / d if d else tikcfw for d in _TIKCFW_INCLUDES]
    if not dirs:
        looked = [str(r / "asc" / "include") for r in _devkit_roots(home)]
        looked.append(str(home / "compiler" / "tikcpp" / "tikcfw"))
        raise ToolkitMissing(f"Backend.NPU: {ENV_HOME}={home} holds no Ascend C devkit headers (looked for "
                             f"{', '.join(looked)}). Point {ENV_HOME} at the CANN install directory.")
    # the version header the devkit's build force-includes (asc_devkit_version.h; upstream: cann_version.h)
    version = next((v for v in (home / "include" / "version" / "asc_devkit_version.h",
                                home / "include" / "version" / "cann_version.h") if v.is_file()), None)
    return dirs, version


@dataclass(frozen=True)
class Toolchain:
    compiler: str
    linker: str
    includes: Tuple[Path, ...]
    version_header: Optional[Path] = None


def find_toolchain() -> Toolchain:
    """Everything Backend.NPU needs, or ToolkitMissing naming the first thing missing."""
    compiler = find_compiler()
    linker = find_linker(compiler)
    includes, version = devkit_headers()
    return Toolchain(compiler, linker, tuple(includes), version)


def device_dump_enabled() -> bool:
    """Whether a kernel that prints from the device is built and launched with its dump buffer: as upstream
    pyasc, unless ASCENDC_DUMP is set to something other than "true" (any case), e.g. ASCENDC_DUMP=false;
    then the printing is compiled out (-DASCENDC_DUMP=0) and nothing is printed."""
    return os.environ.get(ENV_DUMP, "true").lower() == "true"


def _type_name(kernel_type: Any) -> str:
    return getattr(kernel_type, "name", None) or (str(kernel_type) if kernel_type else "AIV_ONLY")


def core_archs(platform: str, kernel_type: Any) -> List[str]:
    """The `--cce-aicore-arch` of each compile for a platform and KernelType, in build order (upstream's:
    the cube core's first)."""
    arch = _ARCH.get(platform)
    if arch is None:
        raise ValueError(f"Backend.NPU: no NPU architecture known for platform {platform} "
                         f"(supported: {', '.join(sorted(_ARCH))})")
    name = _type_name(kernel_type)
    if name in _VECTOR_ONLY:
        return [f"dav-{arch}-vec"]
    if name in _CUBE_ONLY:
        return [f"dav-{arch}-cube"]
    if name in _CUBE_AND_VECTOR:
        return [f"dav-{arch}-cube", f"dav-{arch}-vec"]
    raise ValueError(f"Backend.NPU: unknown kernel type {name}")


@dataclass
class NpuBuild:
    """The commands that build one kernel: the compiles, then the link."""
    compiles: List[List[str]] = field(default_factory=list)
    link: List[str] = field(default_factory=list)
    objects: List[Path] = field(default_factory=list)
    binary: Optional[Path] = None

    @property
    def commands(self) -> List[List[str]]:
        return self.compiles + [self.link]

    def script(self) -> str:
        """The commands as a shell script (the PYASC_DUMP_PATH dump)."""
        lines = ["#!/bin/sh", "# Backend.NPU: the device compiles and the link of this kernel", "set -e"]
        lines += [shlex.join(c) for c in self.commands]
        return "\n".join(lines) + "\n"


def compile_command(toolchain: Toolchain, arch: str, source: Path, obj: Path, kernel_type: Any,
                    options: Dict[str, Any], dump: bool = False) -> List[str]:
    """One device compile (upstream's argument order: the compiler's own options, the source, the
    target, the output; then the headers, the common options, the option-dependent ones, the defines).
    dump: the kernel prints from the device through its dump buffer (-DASCENDC_DUMP=1)."""
    name = _type_name(kernel_type)
    cmd = [toolchain.compiler, "-c", "-x", "cce", f"-O{options.get('opt_level', 3)}", str(source),
           f"--cce-aicore-arch={arch}", "--cce-aicore-only", "-o", str(obj)]
    if toolchain.version_header is not None:
        cmd += ["-include", str(toolchain.version_header)]
    for d in toolchain.includes:
        cmd += ["-I", str(d)]
    cmd += COMMON_OPTIONS
    # upstream's device printing switch: on for a kernel that prints (printf, DumpTensor, ...) and takes the dump
    # buffer, off for the others and with ASCENDC_DUMP=false
    cmd += [f"-DASCENDC_DUMP={1 if dump else 0}"]
    if options.get("debug"):
        cmd += ["-g", "-mllvm", "--cce-aicore-jump-expand=true"]
    if options.get("auto_sync", True):
        cmd += ["--cce-auto-sync", "-mllvm", "-api-deps-filter"]
        if options.get("auto_sync_log"):
            cmd += [f"-cce-auto-sync-log={options['auto_sync_log']}"]
    if name in _CUBE_AND_VECTOR:
        cmd += ["-cce-enable-mix", "-D__MIX_CORE_MACRO__=1"]
        if name == "MIX_AIC_1_1":
            cmd += ["-D__MIX_CORE_AIC_RATION__=1"]
    cmd += TILING_OPTIONS
    cmd += list(options.get("bisheng_options") or ())
    return cmd


def build_commands(source: Path, out_dir: Path, platform: str, kernel_type: Any, options: Dict[str, Any],
                   toolchain: Optional[Toolchain] = None, dump: bool = False) -> NpuBuild:
    """The device compiles and the link of one Ascend C source: objects `STEM.aic.o` / `STEM.aiv.o`,
    the linked binary `STEM.o`."""
    toolchain = toolchain or find_toolchain()
    build = NpuBuild()
    for arch in core_archs(platform, kernel_type):
        obj = out_dir / f"{source.stem}.{'aiv' if arch.endswith('-vec') else 'aic'}.o"
        build.compiles.append(compile_command(toolchain, arch, source, obj, kernel_type, options, dump))
        build.objects.append(obj)
    build.binary = out_dir / f"{source.stem}.o"
    build.link = [toolchain.linker, "-m", "aicorelinux", "-Ttext=0", *map(str, build.objects), "-static", "-o",
                  str(build.binary)]
    return build


def _run(kernel: str, step: str, cmd: List[str]) -> None:
    try:
        result = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:  # the tool vanished or is not executable since it was found
        raise NpuCompileError(kernel, step, cmd, -1, f"cannot run {cmd[0]}: {e}") from None
    if result.returncode != 0:
        output = "\n".join(s.rstrip() for s in (result.stdout, result.stderr) if s.strip())
        raise NpuCompileError(kernel, step, cmd, result.returncode, output or "(no output)")


def compile_for_npu(source_text: str, name: str, out_dir: Path, platform: str, kernel_type: Any,
                    options: Dict[str, Any], key: str = "", dump: bool = False) -> NpuBuild:
    """Writes the source, compiles it for each core kind and links the objects; returns the build (its
    binary). dump: the source's kernel takes the dump buffer (-DASCENDC_DUMP=1). With PYASC_DUMP_PATH set,
    the commands go to NAME-KEY.npu.sh first."""
    from .dump import write_dumps

    out_dir.mkdir(parents=True, exist_ok=True)
    source = out_dir / f"{name}.cpp"
    source.write_text(source_text)
    build = build_commands(source, out_dir, platform, kernel_type, options, dump=dump)
    write_dumps(name, key or "npu", {"npu": build.script()})
    for cmd, obj in zip(build.compiles, build.objects):
        _run(name, f"compile of {obj.name}", cmd)
    _run(name, "link", build.link)
    return build
