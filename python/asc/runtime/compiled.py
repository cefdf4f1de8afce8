"""A compiled kernel specialisation (CompiledKernel) and what a launch needs of it when it comes from the disk
cache: this module is all a cache hit imports (compiler.py, which builds and compiles modules, is imported on a
miss only: docs/cache.md, a fresh process's first launch)."""

from __future__ import annotations

import builtins
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import _C
from ..codegen.errors import CompileError
from ..language.core.constexpr import ConstExpr
from ..language.core.struct import Struct


def write_pass_log(log: str, options: Dict[str, Any]) -> None:
    """The pass log (UB plan, inserted syncs) to the file the jit option
    auto_sync_log names, if any (PYASC_DUMP_PATH gets it from write_dumps,
    as NAME-KEY.passes.log)."""
    if not log:
        return
    path = options.get("auto_sync_log")
    if path:
        try:
            with open(path, "w") as f:
                f.write(log)
        except OSError as e:
            raise OSError(f"auto_sync_log={path}: cannot write the pass log: {e}") from None


def global_key(value: Any) -> Any:
    """What a global or closure variable read by a kernel is compared by:
    plain data by value (a changed module-level constant means a new
    compilation), anything else (modules, functions, classes) by identity."""
    if isinstance(value, (bool, int, float, str, bytes, type(None))):
        return (type(value).__name__, value)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(global_key(v) for v in value))
    if isinstance(value, ConstExpr):
        return ("ConstExpr", global_key(value.value))
    if isinstance(value, np.generic):
        return ("numpy", value.dtype.str, value.item())
    if isinstance(value, np.ndarray) and value.size <= 4096:  # a small lookup table, compared by contents
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, Struct) and value.handle is None:  # a host struct: its values are baked in
        return ("struct", id(type(value)), tuple(value.values()))
    return ("id", id(value))


class CompiledKernel:
    """A kernel specialisation ready to launch: its IR module (after the
    passes) and the bytecode the simulator runs."""

    def __init__(self, name: str, module: Any, kernel: Any, runtime_params: List[str], ir_before: str,
                 globals_used: Optional[Dict[Tuple[Any, str], Any]] = None, key: str = "",
                 from_disk: bool = False):
        self.name = name
        self.module = module
        self.kernel = kernel
        self.runtime_params = runtime_params
        self.ir = ir_before  # the IR as built from Python, before the passes
        self.key = key  # 12 hex digits identifying the specialisation
        self.from_disk = from_disk
        # (function, name) -> (value, key): the globals the kernel was compiled with; the value is
        # kept so that an identity key stays unique while the kernel lives
        self.globals_used = {k: (v, global_key(v)) for k, v in (globals_used or {}).items()}
        # fast check of the same: (namespace, name, value) where the namespace is the module
        # dict or closure cell the name lives in
        self._watch = [(_namespace(fn, name), name, v) for (fn, name), (v, _) in self.globals_used.items()]
        # values that can change in place (a NumPy lookup table) are compared by contents every time
        self._mutable = any(isinstance(v, (np.ndarray, list, Struct)) for v, _ in self.globals_used.values())
        # family debug: asc.print_time_stamp prints the timing model's cycle, so its kernels always run
        # with the timing model (without the profiler's records)
        self.time_stamps = '"asc.print_time_stamp"' in (ir_before or "")
        self.pass_log = ""  # family ubplan: what the passes reported (module.pass_log())
        self.options: Dict[str, Any] = {}  # family ubplan: the options it was compiled with

    @property
    def kernel_type(self) -> Any:
        """family: cores. The asc.KernelType the kernel was compiled as (given or detected)."""
        from .config import KernelType

        return KernelType(self.kernel.kernel_type())

    def prints_on_device(self) -> bool:
        """family npu: the kernel (or a function it calls) uses asc.printf, asc.dump_tensor,
        asc.dump_acc_chk_point, asc.print_time_stamp or LocalTensor.print (a DumpTensor there): on an NPU it
        prints through the dump buffer."""
        return bool(self.module.kernel_dumps())

    def ir_text(self) -> str:
        """The IR after the passes, as the simulator runs it."""
        return self.module.print()

    def ascendc(self, line_comments: bool = True, dump: bool = True) -> str:
        """The Ascend C translation unit of this kernel. A kernel that prints from the device (prints_on_device)
        takes the dump buffer as its last parameter unless dump=False (Backend.NPU with ASCENDC_DUMP=false)."""
        try:
            return self.module.emit_ascendc(line_comments=line_comments, dump=dump)
        except _C.IRError as e:
            msg, file, line, col = e.args
            raise CompileError(msg, file, line, col) from None

    def globals_changed(self) -> bool:
        """True if a global or closure variable the kernel read has changed since it was compiled."""
        if self._mutable:
            return self._globals_changed_by_value()
        for ns, name, value in self._watch:
            current = ns.get(name, _MISSING) if type(ns) is dict else ns.cell_contents
            if current is not value:
                return self._globals_changed_by_value()
        return False

    def _globals_changed_by_value(self) -> bool:
        for (fn, name), (_, key) in self.globals_used.items():
            found, value = fn.resolve_global(name)
            if not found or global_key(value) != key:
                return True
        return False


_MISSING = object()



def _namespace(fn: Any, name: str) -> Any:
    """Where fn reads `name` from: a closure cell or its module globals."""
    code = fn.fn.__code__
    if fn.fn.__closure__ and name in code.co_freevars:
        return fn.fn.__closure__[code.co_freevars.index(name)]
    if name in fn.fn.__globals__:
        return fn.fn.__globals__
    return builtins.__dict__
