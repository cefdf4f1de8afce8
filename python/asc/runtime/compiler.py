"""The compiler driver: a kernel specialisation → IR → bytecode."""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import _C
from ..codegen import builder as _b
from ..codegen.errors import CompileError
from ..codegen.function_visitor import FunctionVisitor
from ..language.core.constexpr import ConstExpr
from ..language.core.values import wrap_ir

# A kernel parameter after specialisation: ("gm", dtype name) | ("int",) |
# ("float",) | ("bool",) | ("const", value)
ParamSpec = Tuple[Any, ...]


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
    return ("id", id(value))


class CompiledKernel:
    def __init__(self, name: str, builder: _b.IRBuilder, kernel: Any, runtime_params: List[str],
                 ir_before: str, globals_used: Optional[Dict[Tuple[Any, str], Any]] = None):
        self.name = name
        self.builder = builder
        self.kernel = kernel
        self.runtime_params = runtime_params
        self.ir = ir_before
        # (function, name) -> (value, key): the globals the kernel was compiled with; the value is
        # kept so that an identity key stays unique while the kernel lives
        self.globals_used = {k: (v, global_key(v)) for k, v in (globals_used or {}).items()}

    def ir_text(self) -> str:
        return self.builder.module.print()

    def globals_changed(self) -> bool:
        """True if a global or closure variable the kernel read has changed since it was compiled."""
        for (fn, name), (_, key) in self.globals_used.items():
            found, value = fn.resolve_global(name)
            if not found or global_key(value) != key:
                return True
        return False


# The builder stack of codegen/builder.py is process-wide: compilations from
# several threads take turns (launches still run in parallel).
_COMPILE_LOCK = threading.RLock()


def compile_kernel(jit_fn: Any, specs: Dict[str, ParamSpec]) -> CompiledKernel:
    with _COMPILE_LOCK:
        return _compile_kernel(jit_fn, specs)


def _compile_kernel(jit_fn: Any, specs: Dict[str, ParamSpec]) -> CompiledKernel:
    builder = _b.IRBuilder(jit_fn.name)
    jit_fn.parse()
    with _b.active(builder):
        types: List[Any] = []
        runtime: List[str] = []
        for name, spec in specs.items():
            kind = spec[0]
            if kind == "const":
                continue
            if kind == "gm":
                types.append(builder.type("global_address", spec[1]))
            else:
                types.append(builder.type("scalar", {"int": "int32", "float": "float32", "bool": "bool"}[kind]))
            runtime.append(name)
        loc = (jit_fn.filename, jit_fn.first_line, 0)
        fop = builder.module.add_function(jit_fn.name, types, [], True, loc)
        block = fop.region(0)
        scope: Dict[str, Any] = {}
        for name, arg in zip(runtime, block.args):
            arg.name = name
            scope[name] = wrap_ir(arg)
        for name, spec in specs.items():
            if spec[0] == "const":
                scope[name] = spec[1]
        visitor = FunctionVisitor(builder, jit_fn, scope, is_kernel=True)
        with builder.insertion(block):
            visitor.run()
            builder.loc = visitor.end_loc
            builder.create("func.return", [])
    module = builder.module
    ir_text = module.print()
    try:
        kernel = module.compile(jit_fn.name)
    except _C.IRError as e:
        msg, file, line, col = e.args
        raise CompileError(msg, file, line, col) from None
    return CompiledKernel(jit_fn.name, builder, kernel, runtime, ir_text, visitor.globals_used)
