"""Argument checks and value descriptions shared by the API modules and the
kernel visitor, so that every misuse of the API is reported the same way:
what the API expected, what it got (described as the user wrote it, not as
a Python type name), and a hint saying what to write.

`usage(...)` attaches the forms an API is called in; the visitor quotes them
in the hint of any error raised while the API runs.
"""

from __future__ import annotations

import enum
import inspect
import types
from typing import Any, Callable, Optional, Type, TypeVar

from ...codegen.errors import CompileError

F = TypeVar("F", bound=Callable[..., Any])
E = TypeVar("E", bound=enum.IntEnum)

_USAGE_ATTR = "__asc_usage__"


def usage(*forms: str) -> Callable[[F], F]:
    """Records how an API is called (`asc.add(dst, src0, src1, count)`, ...);
    the function itself is returned unchanged (no wrapper: no call cost)."""

    def attach(fn: F) -> F:
        setattr(fn, _USAGE_ATTR, forms)
        return fn

    return attach


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def describe(value: Any) -> str:
    """A value as the user thinks of it: `the int 5`, `a runtime int64 value`,
    `a GlobalTensor (float32)`, `the data type asc.float16`, `the module asc`."""
    from .dtype import DataType  # (values imports this module)
    from .values import GlobalAddress, GlobalTensor, IRValue, LocalTensor, LoopRange, Scalar

    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"the bool {value}"
    if isinstance(value, enum.Enum):
        return f"asc.{type(value).__name__}.{value.name}"
    if isinstance(value, int):
        return f"the int {_short(repr(value))}"
    if isinstance(value, float):
        return f"the float {value!r}"
    if isinstance(value, str):
        return f"the string {_short(repr(value))}"
    if isinstance(value, tuple):
        return f"a tuple of {len(value)} value{'s' if len(value) != 1 else ''}"
    if isinstance(value, list):
        return f"a list of {len(value)} value{'s' if len(value) != 1 else ''}"
    if isinstance(value, Scalar):
        return f"a runtime {value.dtype.name} value"
    if isinstance(value, GlobalAddress):
        return f"a GlobalAddress ({value.dtype.name})"
    if isinstance(value, GlobalTensor):
        return f"a GlobalTensor ({value._dtype.name})" if value._dtype else "a GlobalTensor without a buffer"
    if isinstance(value, LocalTensor):
        return f"a LocalTensor ({value.dtype.name}, {value.position.name})"
    if isinstance(value, IRValue) and hasattr(type(value), "struct_fields"):  # a user's Struct
        return f"a {type(value).__name__} struct"
    if isinstance(value, IRValue):
        return f"an asc.{type(value).__name__}"
    if isinstance(value, DataType):
        return f"the data type asc.{value.name}"
    if isinstance(value, LoopRange):
        return f"{value.name} (a loop range)"
    if isinstance(value, types.ModuleType):
        return f"the module {value.__name__}"
    if type(value).__module__ == "numpy" and hasattr(value, "shape"):
        return f"a NumPy array of shape {tuple(value.shape)}"
    if isinstance(value, type):
        if issubclass(value, enum.Enum):
            return f"the enum asc.{value.__name__}"
        module = value.__module__ or ""
        return f"the class {'asc.' if module.startswith('asc') else ''}{value.__name__}"
    kind = type(value).__name__
    if kind == "JITFunction":
        return f"the @asc.jit function {getattr(value, 'name', '?')}"
    if callable(value):
        name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None) or kind
        if "<locals>" in name:  # (the kernel meaning of a builtin: int, float, min, ...)
            name = getattr(value, "__name__", kind)
        return f"the function {name}"
    return f"a {kind} object"


def got(value: Any) -> str:
    """`GlobalTensor (float32)`, `the int 5`: what an API got, naming the class of an API object."""
    from .values import IRValue

    text = describe(value)
    if isinstance(value, IRValue):
        cls = type(value).__name__
        detail = text.split(cls, 1)[1].strip() if cls in text else ""
        return f"{cls} {detail}".strip()
    return text


def api_label(func: Any) -> str:
    """The name an API is known by in messages: `asc.add`, `TQue.alloc_tensor`,
    `asc.float32`, `asc.TPipe`, `int`."""
    from .dtype import DataType
    from .values import IRValue

    if isinstance(func, DataType):
        return f"asc.{func.name}"
    if isinstance(func, IRValue):  # t(offset)
        return f"calling a {type(func).__name__}"
    owner = getattr(func, "__self__", None)
    name = getattr(func, "__name__", None) or type(func).__name__
    if owner is not None and not isinstance(owner, types.ModuleType):
        cls = owner if isinstance(owner, type) else type(owner)
        return f"{cls.__name__}.{name}"
    module = getattr(func, "__module__", None) or ""
    if module.startswith("asc.language"):
        return f"asc.{name}"
    return name


def usage_hint(func: Any) -> str:
    """`hint: write asc.add(dst, src0, src1, count) or ...` for an API, from its
    recorded usage, else from its signature."""
    from .dtype import DataType
    from .values import IRValue

    forms = getattr(func, _USAGE_ATTR, None)
    if not forms and isinstance(func, type):
        forms = getattr(func.__init__, _USAGE_ATTR, None)
    if forms:
        return "hint: write " + " or ".join(forms)
    if isinstance(func, DataType):
        return f"hint: write asc.{func.name}(x) with x a number or a runtime scalar"
    if isinstance(func, IRValue):
        return "hint: a tensor called with one offset, t(offset), is the view t[offset:]"
    if isinstance(func, type) and issubclass(func, enum.Enum):
        return (f"hint: use a member, e.g. asc.{func.__name__}.{_example(func)}, or asc.{func.__name__}(value) with "
                "one of its values")
    label = api_label(func)
    try:
        target = func.__init__ if isinstance(func, type) else func
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return f"hint: check the arguments of {label} (docs/api.md lists the supported forms)"
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()
              if p.name not in ("self", "handle")]
    text = str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))
    return f"hint: {label} is called as {label}{text} (docs/api.md lists the supported forms)"


def error(message: str, hint: Optional[str] = None) -> CompileError:
    """An API argument error; the visitor adds the location of the call."""
    return CompileError(message, hint=hint)


# the member an example in a hint names (the first member of TPosition, GM, is no place for a tensor)
_EXAMPLES = {"TPosition": "VECIN", "HardEvent": "MTE2_V", "PipeID": "PIPE_V", "RoundMode": "CAST_NONE"}


def _example(cls: Any) -> str:
    return _EXAMPLES.get(cls.__name__) or next(iter(cls)).name


def enum_arg(value: Any, cls: Type[E], api: str, name: str) -> E:
    """An enum argument: a member of `cls` (or the plain int of one)."""
    example = f"asc.{cls.__name__}.{_example(cls)}"
    if isinstance(value, cls):
        return value
    if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
        try:
            return cls(value)
        except ValueError:
            pass
    raise error(f"{api}: `{name}` must be an asc.{cls.__name__}, got {describe(value)}",
                f"hint: pass a member of the enum, e.g. {example}")


def dtype_arg(value: Any, api: str, name: str = "dtype") -> Any:
    """A data type argument (asc.float32, ...)."""
    from .dtype import ALL_DTYPES, DataType

    if isinstance(value, DataType) and value in ALL_DTYPES:
        return value
    raise error(f"{api}: `{name}` must be a data type such as asc.float32, got {describe(value)}",
                "hint: pass an element type: asc.float16, asc.float32, asc.int32, ... (or x.dtype of a tensor)")


def no_arguments(api: str, what: str, got: Any) -> CompileError:
    """The error of a class that user code creates without arguments."""
    return error(f"{api}() takes no arguments, got {describe(got)}", f"hint: write {what}")


def is_ir_handle(handle: Any) -> bool:
    from ... import _C

    return isinstance(handle, _C.Value)


__all__ = ["usage", "describe", "got", "api_label", "usage_hint", "error", "enum_arg", "dtype_arg", "no_arguments",
           "is_ir_handle"]
