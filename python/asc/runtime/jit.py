"""`@asc.jit`: turns a Python function into a kernel or device function.

A kernel is launched as `kernel[core_num, stream](*args)`; the first launch
with a new combination of argument types and ConstExpr values compiles it
(Python AST → ASC-IR → bytecode), later launches reuse the compiled kernel.
Called from another @asc.jit function, it is a device function.
"""

from __future__ import annotations

import ast
import builtins
import inspect
from typing import Any, Callable, Dict, Optional, Tuple, Union

import numpy as np

from ..codegen.function_visitor import source_of
from ..language.core.constexpr import is_constexpr_annotation

# Compile options of upstream pyasc, plus ours (see docs/api.md).
OPTIONS: Dict[str, Any] = {
    "kernel_type": None,
    "opt_level": 3,
    "auto_sync": True,
    "auto_sync_log": "",
    "matmul_cube_only": False,
    "always_compile": False,
    "debug": False,
    # True: the compiler inserts the syncs the kernel lacks (keeping its own); "replace" (ours): it first
    # removes the kernel's set_flag/wait_flag/pipe_barrier; None: True when asc.LocalTensorAuto is used
    "insert_sync": None,
    "verify_sync": False,
    # ours: the simulator's sanitizer, "error", "warn" or "off"; None: PYASC_SANITIZE (default "error")
    "sanitize": None,
    # ours: the step budget, bytecode instructions one block may run before the launch fails with a
    # KernelError (a loop that never ends); 0: no limit; None: PYASC_MAX_STEPS (default no limit)
    "max_steps": None,
    # accepted for compatibility with upstream pyasc; recorded, no effect on the simulator (except
    # bisheng_options holding --cce-disable-asc-reserved-ubuf: the APIs of 静态Tensor编程.md's table 5 are then
    # CompileErrors, src/passes/reserved_ubuf.c)
    "strip_loc": False,
    "print_ir_before_all": False,
    "run_passes": True,
    "bisheng_options": None,
    "capture_exceptions": True,
    "ir_multithreading": True,
}


# options that change how a compiled kernel is launched, not what is compiled: no part of the
# in-memory or the disk cache key
LAUNCH_ONLY_OPTIONS = frozenset({"always_compile", "sanitize", "max_steps"})

# sanitizer modes as the C launcher numbers them (Kernel.launch's `sanitize`)
SANITIZE_MODES: Dict[str, int] = {"off": 0, "warn": 1, "error": 2}


def sanitize_code(options: Dict[str, Any]) -> int:
    """The `sanitize` argument of Kernel.launch for these options: the mode
    (3: the process default, PYASC_SANITIZE), plus 4 when the kernel is
    compiled with auto_sync (the compiler then orders scalar accesses)."""
    mode = options.get("sanitize")
    return (3 if mode is None else SANITIZE_MODES[mode]) | (4 if options.get("auto_sync", True) else 0)


# The number of blocks of a launch: [1, 65535] in Ascend C (numBlocks).
MAX_CORE_NUM = 65535


def max_steps_arg(options: Dict[str, Any]) -> int:
    """The `max_steps` argument of Kernel.launch for these options (-1: the
    process default, PYASC_MAX_STEPS)."""
    n = options.get("max_steps")
    return -1 if n is None else n


def check_options(options: Dict[str, Any], params: Any = ()) -> Dict[str, Any]:
    """Validates option names and values; returns them merged with defaults."""
    from .config import KernelType

    for name, value in options.items():
        if name not in OPTIONS:
            raise TypeError(f"unknown @asc.jit option `{name}`; known options: {', '.join(sorted(OPTIONS))}")
        if name in params:
            raise TypeError(f"@asc.jit option `{name}` has the name of a kernel parameter; rename the parameter")
        if name == "opt_level" and (isinstance(value, bool) or value not in (0, 1, 2, 3)):
            raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {value!r}")
        if name == "kernel_type" and value is not None and not isinstance(value, KernelType):
            raise TypeError(f"kernel_type must be an asc.runtime.config.KernelType, got {value!r}")
        if name in ("auto_sync", "matmul_cube_only", "always_compile", "debug", "verify_sync", "strip_loc",
                    "print_ir_before_all", "run_passes", "capture_exceptions", "ir_multithreading") \
                and not isinstance(value, bool):
            raise TypeError(f"option `{name}` must be True or False, got {value!r}")
        if name == "insert_sync" and value is not None and not isinstance(value, bool) and value != "replace":
            raise TypeError(f"option `insert_sync` must be True, False, None or 'replace', got {value!r}")
        if name == "bisheng_options" and value is not None and not (
                isinstance(value, (tuple, list)) and all(isinstance(v, str) for v in value)):
            raise TypeError(f"bisheng_options must be a tuple of strings, got {value!r}")
        if name == "auto_sync_log" and not isinstance(value, str):
            raise TypeError(f"auto_sync_log must be a file path string, got {value!r}")
        if name == "sanitize" and value is not None and (not isinstance(value, str) or value not in SANITIZE_MODES):
            raise ValueError(f"option `sanitize` must be 'error', 'warn' or 'off', got {value!r}")
        if name == "max_steps" and value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63):
            raise ValueError(f"option `max_steps` must be a non-negative int (0: no limit) or None, got {value!r}")
    merged = dict(OPTIONS)
    merged.update(options)
    return merged


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    """fn's signature with string annotations (`from __future__ import
    annotations`) evaluated in fn's globals and closure, so that
    `asc.ConstExpr[int]` and `int` are recognised either way. An annotation
    that cannot be evaluated stays a string (it then means nothing)."""
    sig = inspect.signature(fn)
    if not any(isinstance(p.annotation, str) for p in sig.parameters.values()):
        return sig
    names: Dict[str, Any] = dict(fn.__globals__)
    if fn.__closure__:
        for var, cell in zip(fn.__code__.co_freevars, fn.__closure__):
            try:
                names[var] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
    params = []
    for p in sig.parameters.values():
        if isinstance(p.annotation, str):
            try:
                p = p.replace(annotation=eval(p.annotation, names))  # noqa: S307 (the user's own annotation)
            except Exception:
                pass
        params.append(p)
    return sig.replace(parameters=params)


class JITFunction:
    # family: tiles. A front end built on this JIT (asc2) may give names of its own to kernel builtins
    # (`range`) and convert arguments before a launch reads them (PyAsc2 passes 0-dim tensors by value).
    custom_builtins: Dict[str, Any] = {}
    arg_converter: Optional[Callable[[Tuple[Any, ...], Dict[str, Any]], Tuple[Tuple[Any, ...], Dict[str, Any]]]] \
        = None

    def __init__(self, fn: Callable[..., Any], options: Optional[Dict[str, Any]] = None):
        if not inspect.isfunction(fn):
            raise TypeError(f"@asc.jit decorates functions, not {type(fn).__name__}")
        self.fn = fn
        self.name = fn.__name__
        self.signature = _signature(fn)
        for p in self.signature.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"@asc.jit function {self.name}: *args and **kwargs parameters are not supported")
        self.options = check_options(dict(options or {}), self.signature.parameters)
        self.san_code = sanitize_code(self.options)  # Kernel.launch's `sanitize`, for Launcher._fast
        self.max_steps = max_steps_arg(self.options)  # Kernel.launch's `max_steps`, likewise
        self._fdef: Optional[ast.FunctionDef] = None
        self.filename = fn.__code__.co_filename
        self.first_line = fn.__code__.co_firstlineno
        self.col_offset = 0
        # full specialisation key -> CompiledKernel. Both dicts are filled (and evicted from) only by
        # memory_cache, which bounds the compiled kernels of the whole process.
        self.cache: Dict[Any, Any] = {}
        # positional argument types / ConstExpr values -> CompiledKernel (see Launcher._fast)
        self.fast_cache: Dict[Any, Any] = {}
        self.const_mask = tuple(is_constexpr_annotation(p.annotation) for p in self.signature.parameters.values())
        self._launchers: Dict[Any, Any] = {}
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__
        self.__wrapped__ = fn

    def parse(self) -> ast.FunctionDef:
        if self._fdef is None:
            try:
                fdef, filename, first_line, indent = source_of(self.fn)
            except (OSError, TypeError) as e:
                raise RuntimeError(f"cannot read the source of {self.name}: {e}") from None
            self._fdef, self.filename, self.first_line, self.col_offset = fdef, filename, first_line, indent
        return self._fdef

    def resolve_global(self, name: str) -> Tuple[bool, Any]:
        """A name the function reads from its closure or module globals."""
        code = self.fn.__code__
        if self.fn.__closure__ and name in code.co_freevars:
            cell = self.fn.__closure__[code.co_freevars.index(name)]
            try:
                return True, cell.cell_contents
            except ValueError:
                return False, None
        if name in self.fn.__globals__:
            return True, self.fn.__globals__[name]
        if name in ("range", "int", "float", "bool", "min", "max", "abs", "len", "isinstance", "True", "False",
                    "None"):
            return False, None
        if hasattr(builtins, name):
            return True, getattr(builtins, name)
        return False, None

    def __getitem__(self, grid: Union[int, Tuple[Any, ...]]) -> "Callable[..., None]":
        # launchers are reused when the grid is plainly an int (True == 1 must not alias)
        reusable = type(grid) is int or (type(grid) is tuple and len(grid) > 0 and type(grid[0]) is int)
        if reusable:
            try:
                return self._launchers[grid]
            except (KeyError, TypeError):
                pass
        from .launcher import Launcher

        g = grid if isinstance(grid, tuple) else (grid,)
        if not 1 <= len(g) <= 2:
            raise TypeError("launch a kernel as kernel[core_num](...) or kernel[core_num, stream](...)")
        core_num = g[0]
        if isinstance(core_num, np.integer):
            core_num = int(core_num)
        if isinstance(core_num, bool) or not isinstance(core_num, int) or core_num < 1:
            raise ValueError(f"core_num must be a positive integer, got {core_num!r}")
        if core_num > MAX_CORE_NUM:
            raise ValueError(f"core_num is at most {MAX_CORE_NUM} (the Ascend C launch limit), got {core_num}")
        launcher = Launcher(self, core_num, g[1] if len(g) > 1 else None)
        if reusable and len(self._launchers) < 64:
            try:
                self._launchers[grid] = launcher
            except TypeError:
                pass  # an unhashable stream object
        return launcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{self.name} is an @asc.jit kernel: launch it as {self.name}[core_num](...), or call it "
                        "from another @asc.jit function")

    def __repr__(self) -> str:
        return f"<asc.jit {self.name}>"


def jit(fn: Optional[Callable[..., Any]] = None, **options: Any) -> Any:
    """`@asc.jit` or `@asc.jit(**options)`."""
    if fn is not None:
        if options:
            raise TypeError("use @asc.jit(option=value) with keyword options only")
        return JITFunction(fn)

    check_options(options)

    def decorate(f: Callable[..., Any]) -> JITFunction:
        return JITFunction(f, options)

    return decorate
