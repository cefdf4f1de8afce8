"""Calls of @asc.jit device functions: the arguments bound to the function's
signature, one IR function built per specialisation (the types of its
runtime arguments and the values of its compile-time ones), and the
func.call of it."""

from __future__ import annotations

import ast
import inspect
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.struct import Struct
from ..language.core.types import ParamStruct
from ..language.core.values import IRValue, is_number, to_scalar, wrap_ir
from .errors import CompileError
from .visitor_support import VisitorBase

if TYPE_CHECKING:
    from ..runtime.jit import JITFunction


class DeviceFunctionsMixin(VisitorBase):
    """Compiles a call of a device function."""

    def call_device(self, fn: "JITFunction", args: List[Any], kwargs: Dict[str, Any], node: ast.AST) -> Any:
        try:
            bound = fn.signature.bind(*args, **kwargs)
        except TypeError as e:
            params = [p.replace(annotation=inspect.Parameter.empty) for p in fn.signature.parameters.values()]
            raise CompileError(f"calling {fn.name}: {e}",
                               hint=f"hint: {fn.name} is defined as {fn.name}"
                                    f"{fn.signature.replace(parameters=params)}; pass one value per "
                                    "parameter") from None
        bound.apply_defaults()
        key_parts: List[Any] = []
        ir_args: List[Any] = []
        bindings: Dict[str, Any] = {}
        for name, value in bound.arguments.items():
            param = fn.signature.parameters[name]
            if is_constexpr_annotation(param.annotation):
                value = ConstExpr.unwrap(value)
                if isinstance(value, IRValue):
                    raise CompileError(f"{fn.name}: parameter `{name}` is asc.ConstExpr but got a runtime value",
                                       hint="hint: pass a compile-time value (a number, a kernel asc.ConstExpr "
                                            "parameter or a module constant)")
                key_parts.append((name, "const", _const_key(value)))
                bindings[name] = value
            elif is_number(value):
                s = to_scalar(value)
                key_parts.append((name, "ir", str(s.handle.type)))
                ir_args.append((name, s))
            elif isinstance(value, ParamStruct):
                value = value.on_device()  # a parameter struct is passed by value, as in C++
                key_parts.append((name, "ir", str(value.handle.type)))
                ir_args.append((name, value))
            elif isinstance(value, IRValue):
                if isinstance(value, Struct):
                    value = value.on_device()  # a host struct: its values, made here
                # (an API object whose C++ type its IR type does not say: TQueBind, TBufPool)
                refuse = getattr(value, "device_argument_error", None)
                refusal = refuse(fn.name, name) if refuse is not None else None
                if refusal is not None:
                    raise refusal
                if getattr(value, "handle", None) is None:
                    raise CompileError(f"{fn.name}: argument `{name}` is a GlobalTensor without a buffer",
                                       hint="hint: call set_global_buffer on it before passing it")
                key_parts.append((name, "ir", str(value.handle.type)))
                ir_args.append((name, value))
            else:
                key_parts.append((name, "const", _const_key(value)))
                bindings[name] = value
        key = (fn, tuple(key_parts))
        b = self.builder
        entry = b.functions.get(key)
        if entry is None:
            entry = self.build_device(fn, key, ir_args, bindings, node)
        fname, _, is_tuple = entry
        op = b.create("func.call", [v for _, v in ir_args], b.function_results[fname], attrs={"callee": fname})
        results = [wrap_ir(r) for r in op.results]
        if not results:
            return None
        if len(results) == 1 and not is_tuple:
            return results[0]
        return tuple(results)

    def build_device(self, fn: "JITFunction", key: Any, ir_args: List[Tuple[str, Any]],
                     bindings: Dict[str, Any], node: ast.AST) -> Tuple[str, int, bool]:
        b = self.builder
        if key in b.building:
            raise CompileError(f"recursive call of {fn.name} is not supported",
                               hint="hint: write the recursion as a `while` loop")
        b.building.add(key)
        name = b.unique_function_name(fn.name)
        types = [v.handle.type for _, v in ir_args]
        fop = b.module.add_function(name, types, [], False, (fn.filename, fn.first_line, 0))
        block = fop.region(0)
        scope = dict(bindings)
        for (pname, _), arg in zip(ir_args, block.args):
            arg.name = pname
            scope[pname] = wrap_ir(arg)
        from .function_visitor import FunctionVisitor  # which is composed of this mixin

        visitor = FunctionVisitor(b, fn, scope, is_kernel=False)
        visitor.budget = self.budget
        saved_loc = b.loc  # the call's location, for the func.call op built after this
        try:
            with b.insertion(block):
                visitor.run()
                returned = visitor.returned or []
                b.loc = visitor.end_loc
                b.create("func.return", returned)
        finally:
            b.loc = saved_loc
            b.building.discard(key)
        self.globals_used.update(visitor.globals_used)
        rtypes = [v.handle.type for v in returned]
        fop.set_result_types(rtypes)
        b.function_results[name] = rtypes
        entry = (name, len(rtypes), visitor.return_is_tuple)
        b.functions[key] = entry
        return entry


def _const_key(value: Any) -> Any:
    """A hashable, value-based key for a compile-time argument."""
    if isinstance(value, (int, float, bool, str, type(None))):
        return (type(value).__name__, value)
    if isinstance(value, (tuple, list)):
        return tuple(_const_key(v) for v in value)
    if isinstance(value, dt.DataType):
        return ("dtype", value.name)
    return (type(value).__qualname__, repr(value))
