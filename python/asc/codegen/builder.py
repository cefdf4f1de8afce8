"""The IR builder the language API writes through while a kernel compiles.

One builder exists per compilation; `current()` returns it. It wraps an
`asc._C.Module`, remembers the insertion block and the Python location of
the statement being compiled, and caches IR types.
"""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from .. import _C
from .errors import CompileError

Loc = Tuple[str, int, int]


class IRBuilder:
    def __init__(self, module_name: str):
        self.module = _C.Module(module_name)
        self.block: Optional[Any] = None
        self.loc: Loc = ("", 0, 0)
        self._types: Dict[tuple, Any] = {}
        # device function specialisations: key -> (name, result count, returns a tuple)
        self.functions: Dict[Any, Tuple[str, int, bool]] = {}
        self.function_results: Dict[str, List[Any]] = {}
        self.function_names: Dict[str, int] = {}
        self.building: set = set()  # specialisations being built (recursion check)
        # the user's Struct classes this module declares: IR struct name -> class
        self.struct_classes: Dict[str, type] = {}

    # ---- types ----------------------------------------------------------
    def type(self, kind: str, dtype: Optional[str] = None, position: int = -1, depth: int = 0) -> Any:
        key = (kind, dtype, position, depth)
        t = self._types.get(key)
        if t is None:
            t = self.module.type(kind, dtype, position, depth)
            self._types[key] = t
        return t

    def scalar_type(self, dtype: Any) -> Any:
        return self.type("scalar", dtype.name)

    def struct_type(self, name: str) -> Any:
        """The IR type of the parameter struct `name` (!asc.struct<name>)."""
        key = ("struct", name)
        t = self._types.get(key)
        if t is None:
            t = self.module.type("struct", struct=name)
            self._types[key] = t
        return t

    def user_struct_type(self, cls: Any) -> Any:
        """The IR type of the user's Struct class `cls`, declared in the
        module (asc.struct_def) the first time, after the structs it holds."""
        key = ("user_struct", cls)
        t = self._types.get(key)
        if t is not None:
            return t
        # (a struct cannot hold itself: StructField takes a class defined before)
        types = [f.ir_type(self) for f in cls.struct_fields.values()]
        names = [attr if f.cpp_name == attr else f"{attr}={f.cpp_name}" for attr, f in cls.struct_fields.items()]
        try:
            t = self.module.define_struct(cls.__name__, names, types, cls._def_loc)
        except _C.IRError as e:
            msg, file, line, col = e.args
            raise CompileError(msg, file, line, col,
                               hint="hint: give each Struct class of a kernel its own name") from None
        self._types[key] = t
        self.struct_classes[cls.__name__] = cls
        return t

    # ---- ops ----------------------------------------------------------------
    def create(self, name: str, operands: Sequence[Any] = (), result_types: Sequence[Any] = (),
               attrs: Optional[Dict[str, Any]] = None, regions: Optional[List[List[Any]]] = None) -> Any:
        if self.block is None:
            raise CompileError(f"{name} can only be called inside an @asc.jit function")
        handles = [o.handle if hasattr(o, "handle") else o for o in operands]
        try:
            return self.module.create(self.block, name, handles, list(result_types), attrs, regions, self.loc)
        except _C.IRError as e:
            msg, file, line, col = e.args
            raise CompileError(msg, file, line, col) from None

    def create1(self, name: str, operands: Sequence[Any], result_type: Any,
                attrs: Optional[Dict[str, Any]] = None) -> Any:
        return self.create(name, operands, [result_type], attrs).results[0]

    @contextlib.contextmanager
    def insertion(self, block: Any) -> Iterator[None]:
        saved = self.block
        self.block = block
        try:
            yield
        finally:
            self.block = saved

    def unique_function_name(self, base: str) -> str:
        n = self.function_names.get(base, 0)
        self.function_names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"


_stack: List[IRBuilder] = []


def current() -> IRBuilder:
    """The builder of the kernel being compiled; an error outside one."""
    if not _stack:
        raise RuntimeError("asc API functions can only be called inside an @asc.jit function "
                           "while it is being compiled")
    return _stack[-1]


def in_jit() -> bool:
    return bool(_stack)


@contextlib.contextmanager
def active(builder: IRBuilder) -> Iterator[IRBuilder]:
    _stack.append(builder)
    try:
        yield builder
    finally:
        _stack.pop()
