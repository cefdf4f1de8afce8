"""Backend.NPU: compiling the generated Ascend C with the CANN toolkit.

The Bisheng compiler is found as `$PYASC_COMPILER` or `bisheng` on PATH;
headers under `$ASCEND_HOME_PATH`. The command follows the options of the
toolkit's device compiler for the Ascend910B (NPU arch dav-c220): one
compile per core kind the kernel type needs (AIV: `dav-c220-vec`, AIC:
`dav-c220-cube`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional

# Ascend910B parts (and the 910_93 series) share the dav-c220 architecture.
_ARCH = {name: "c220" for name in (
    "Ascend910B1", "Ascend910B2", "Ascend910B2C", "Ascend910B3", "Ascend910B4", "Ascend910B4-1",
    "Ascend910_9362", "Ascend910_9372", "Ascend910_9381", "Ascend910_9382", "Ascend910_9391", "Ascend910_9392")}


class ToolkitMissing(RuntimeError):
    pass


def find_compiler() -> str:
    """The Bisheng compiler, or ToolkitMissing naming what to install."""
    env = os.environ.get("PYASC_COMPILER")
    if env:
        path = shutil.which(env)
        if path is None:
            raise ToolkitMissing(f"PYASC_COMPILER={env} is not an executable")
        return path
    path = shutil.which("bisheng")
    if path is None:
        raise ToolkitMissing("Backend.NPU needs the CANN toolkit: the `bisheng` compiler was not found on PATH "
                             "and PYASC_COMPILER is not set. Install CANN and source its set_env.sh, or use "
                             "Backend.Model to run on the built-in simulator.")
    return path


def core_archs(platform: str, kernel_type: Any) -> List[str]:
    """The `--cce-aicore-arch` values for a platform and KernelType."""
    arch = _ARCH.get(platform)
    if arch is None:
        raise ValueError(f"no NPU architecture known for platform {platform}")
    name = getattr(kernel_type, "name", None) or "AIV_ONLY"
    if name == "AIV_ONLY":
        return [f"dav-{arch}-vec"]
    if name == "AIC_ONLY":
        return [f"dav-{arch}-cube"]
    return [f"dav-{arch}-vec", f"dav-{arch}-cube"]


def compile_commands(source: Path, out_dir: Path, platform: str, options: Dict[str, Any],
                     compiler: Optional[str] = None) -> List[List[str]]:
    """The device compile commands for one Ascend C source."""
    compiler = compiler or find_compiler()
    home = os.environ.get("ASCEND_HOME_PATH", "")
    includes: List[str] = []
    if home:
        tik = Path(home) / "compiler" / "tikcpp" / "tikcfw"
        includes = ["-I", str(tik), "-I", str(tik / "impl"), "-I", str(tik / "interface")]
    commands = []
    for arch in core_archs(platform, options.get("kernel_type")):
        kind = "vec" if arch.endswith("vec") else "cube"
        cmd = [compiler, "-c", "-x", "cce", f"-O{options.get('opt_level', 3)}", "-std=c++17",
               f"--cce-aicore-arch={arch}", "--cce-aicore-only", str(source),
               "-o", str(out_dir / f"{source.stem}.{kind}.o")]
        cmd += includes
        if options.get("debug"):
            cmd += ["-g", "-DASCENDC_DUMP=1"]
        else:
            cmd += ["-DASCENDC_DUMP=0"]
        if options.get("auto_sync"):
            cmd += ["--cce-auto-sync"]
            if options.get("auto_sync_log"):
                cmd += [f"-cce-auto-sync-log={options['auto_sync_log']}"]
        cmd += ["-DTILING_KEY_VAR=0"]
        # upstream's bisheng_options go to the compiler as they are (e.g. --cce-disable-asc-reserved-ubuf, which
        # the simulator honours too: compiler.usable_ub)
        cmd += list(options.get("bisheng_options") or ())
        commands.append(cmd)
    return commands


def compile_for_npu(source_text: str, name: str, out_dir: Path, platform: str, options: Dict[str, Any]) -> List[Path]:
    """Writes the source, runs the compiler, returns the object files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    source = out_dir / f"{name}.cpp"
    source.write_text(source_text)
    objects = []
    for cmd in compile_commands(source, out_dir, platform, options):
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"the NPU compile of {name} failed ({' '.join(cmd)}):\n{result.stderr}")
        objects.append(Path(cmd[cmd.index("-o") + 1]))
    return objects
