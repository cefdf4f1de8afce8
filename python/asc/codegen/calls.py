"""Calls in a kernel: to @asc.jit device functions (device_functions.py),
to the asc API (any error it raises becomes a CompileError at the call,
naming the API and quoting its usage) and to the kernel builtins; calls into
any other Python, and calls of values that cannot be called, are rejected."""

from __future__ import annotations

import ast
import inspect
from typing import Any, Dict, List, Optional, Sequence

from ..language.core import dtype as dt
from ..language.core.checks import api_label, describe, usage_hint
from ..language.core.struct import Struct
from .errors import CompileError, UnsupportedError
from .kernel_builtins import _BUILTIN_IDS
from .visitor_support import VisitorBase, _exception_text, _unparse


class CallsMixin(VisitorBase):
    """Compiles a call."""

    def eval_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        args: List[Any] = []
        for a in node.args:
            if not isinstance(a, ast.Starred):
                args.append(self.eval(a))
                continue
            from ..language.core.constexpr import ConstExpr

            seq = ConstExpr.unwrap(self.eval(a.value))
            if not isinstance(seq, (tuple, list)):  # a compile-time tuple or list is unpacked, nothing else
                raise self.error(a, f"`*` unpacking takes a compile-time tuple or list in kernels, got {describe(seq)}",
                                 "hint: pass the arguments one by one, e.g. f(t[0], t[1])")
            args.extend(seq)
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise self.error(kw.value, "`**kwargs` unpacking is not supported in kernels",
                                 "hint: pass the keyword arguments one by one, e.g. f(a=x, b=y)")
            kwargs[kw.arg] = self.eval(kw.value)
        from ..runtime.jit import JITFunction

        if isinstance(func, JITFunction):
            return self.guarded(node, lambda: self.call_device(func, args, kwargs, node))
        if not callable(func):
            raise self.error(node, f"`{_unparse(node.func)}` is {describe(func)}, which cannot be called",
                             "hint: call asc API functions (asc.add(...), t.get_value(i), ...) or @asc.jit "
                             "functions; remove the parentheses to use the value")
        if not self.callable_in_kernel(func):
            name = _unparse(node.func)
            raise self.error(node, f"calls into arbitrary Python are not supported in kernels: `{name}`",
                             "hint: call asc API functions or other @asc.jit functions; compute host values "
                             "before the launch and pass them as arguments or asc.ConstExpr")
        return self.call_api(node, func, args, kwargs)

    def call_api(self, node: ast.Call, func: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        """Calls an API function, class or method at node's location. Any
        error it raises becomes a CompileError at the call that names the API
        and, unless the API gave a more specific one, quotes its usage."""
        saved = self.builder.loc
        self.builder.loc = self.loc_of(node)
        try:
            return func(*args, **kwargs)
        except CompileError as e:
            if e.filename and e.hint:
                raise
            if e.filename:  # from the C verifier, at this call: say how the API is called
                raise type(e)(e.message, e.filename, e.line, e.col, usage_hint(func)) from None
            raise self.error(node, e.message, e.hint or usage_hint(func), type(e)) from None
        except NotImplementedError as e:
            raise self.error(node, str(e), usage_hint(func), cls=UnsupportedError) from None
        except (RecursionError, MemoryError):
            raise
        except Exception as e:
            label = api_label(func)
            msg = _binding_problem(func, args, kwargs) or _exception_text(e)
            if not msg.startswith(label):
                msg = f"{label}: {msg}"
            raise self.error(node, msg, usage_hint(func)) from None
        finally:
            self.builder.loc = saved

    @staticmethod
    def callable_in_kernel(func: Any) -> bool:
        # by identity: `in` would compare with ==, which builds IR for a runtime value
        if id(func) in _BUILTIN_IDS:
            return True
        if isinstance(func, dt.DataType):
            return True
        if isinstance(func, type) and issubclass(func, Struct):
            return True  # the user's struct, made in the kernel
        if isinstance(getattr(func, "__self__", None), Struct):
            return True  # a method of the user's struct: Python run while compiling, on its fields
        module = getattr(func, "__module__", None) or ""
        self_obj = getattr(func, "__self__", None)
        if self_obj is not None and not isinstance(self_obj, type):
            module = type(self_obj).__module__
        if not isinstance(module, str):
            return False
        if module == "asc2" or module.startswith("asc2."):  # family: tiles: the asc2 API
            return True
        return module.startswith("asc.language") or (
            isinstance(func, type) and str(func.__module__).startswith("asc.language"))


def _binding_problem(func: Any, args: Sequence[Any], kwargs: Dict[str, Any]) -> Optional[str]:
    """What is wrong with the argument list itself (count, names), if anything."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    try:
        sig.bind(*args, **kwargs)
    except TypeError as e:
        return f"{api_label(func)}: wrong arguments: {e}"
    return None
