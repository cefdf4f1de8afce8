"""The compiler driver: a kernel specialisation → IR → bytecode."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .. import _C
from ..codegen import builder as _b
from ..codegen.errors import CompileError
from ..codegen.function_visitor import FunctionVisitor
from ..language.core.values import wrap_ir

# A kernel parameter after specialisation: ("gm", dtype name) | ("int",) |
# ("float",) | ("bool",) | ("const", value)
ParamSpec = Tuple[Any, ...]


class CompiledKernel:
    def __init__(self, name: str, builder: _b.IRBuilder, kernel: Any, runtime_params: List[str],
                 ir_before: str):
        self.name = name
        self.builder = builder
        self.kernel = kernel
        self.runtime_params = runtime_params
        self.ir = ir_before

    def ir_text(self) -> str:
        return self.builder.module.print()


def compile_kernel(jit_fn: Any, specs: Dict[str, ParamSpec]) -> CompiledKernel:
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
    return CompiledKernel(jit_fn.name, builder, kernel, runtime, ir_text)
