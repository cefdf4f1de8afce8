#!/usr/bin/env python3
"""Mutation fuzzer of pyasc's front end (the Python → ASC-IR visitor and the
language API), seeded from the repository's own kernels.

Every `@asc.jit` function of examples/**/*.py and tests/python/*.py is
extracted with `ast`, together with the module-level constants and imports
of its file (names a kernel reads that are bound nowhere, such as the `op`
of a kernel factory, get defaults that make the unmutated kernel run). A
mutant changes the body of one kernel (sometimes also of a device function
it calls; never a signature): constants become edge values, names other
names in scope, arguments are swapped, dropped or duplicated, statements
swapped, dropped, duplicated or nested in loops and ifs, operators changed,
expressions wrapped in calls, API names swapped. The mutant is compiled and
launched on small seeded arrays (the dtypes and sizes the seed ran with)
with the simulator's sanitizer on.

Accepted outcomes: success, `asc.CompileError` (with a location in the
mutant: file and line), `asc.KernelError` (incl. `SanitizerError`), and
`SanitizerWarning`. Anything else — any other exception, a crash of the
process, a mutant running longer than `--timeout` seconds — is a finding:
the mutant's source, how it was made and the traceback are printed, and the
run exits with status 1.

Runs are deterministic: mutant `i` of seed `S` is made by
`random.Random(f"{S}/{i}")` alone, so `--only i` reproduces one finding and
`--show i` prints its source.

    python tests/fuzz/fuzz_frontend.py                      # the CI slice (seed 0, 3000 mutants)
    python tests/fuzz/fuzz_frontend.py --count 100000 --seed 7   # a long run (isolated workers)
    python tests/fuzz/fuzz_frontend.py --seed 7 --only 4242      # one mutant, with its outcome
    python tests/fuzz/fuzz_frontend.py --seed 7 --show 4242      # its source only

The long mode (more than 5000 mutants, or `--isolate`) runs the mutants in
child processes (`--jobs N` of them) under a watchdog: a mutant that hangs
is killed after `--timeout` seconds and a crash of the C core (a segfault,
an AddressSanitizer report) is reported with the mutant and the child's
stderr, and the run goes on with a fresh child. The short mode runs in
process; a hang there is caught by the kernel's step budget (the option
`max_steps`), and in compiling by a lowered compile budget and SIGALRM.

Against the AddressSanitizer/UndefinedBehaviorSanitizer build of the C
core (as tests/run.sh stages `python-asan`):

    meson setup /tmp/build-asan . --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
    ninja -C /tmp/build-asan
    stage=/tmp/build-asan/python-asan
    rm -rf $stage && mkdir -p $stage && cp -r python/asc $stage/ && cp /tmp/build-asan/_C*.so $stage/asc/
    LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)" \\
      ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 PYTHONPATH=$stage \\
      python tests/fuzz/fuzz_frontend.py --jobs 2

(the child processes inherit the environment, so `--isolate` works the same
way there and reports a sanitizer abort as a crash with its report).
"""

from __future__ import annotations

import argparse
import ast
import atexit
import builtins
import copy
import enum
import json
import linecache
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

import asc
from asc.codegen import function_visitor
from asc.language.core.constexpr import is_constexpr_annotation
from asc.runtime.jit import JITFunction

ROOT = Path(__file__).resolve().parents[2]
SEED_GLOBS = ("examples/**/*.py", "tests/python/*.py")
CI_SEED = 0
CI_COUNT = 3000
LONG_MODE_COUNT = 5000  # more mutants than this: isolated workers under a watchdog
DEFAULT_TIMEOUT = 10.0  # seconds one mutant (compile + launch) may take
STEPS = 2_000_000  # the step budget of one block, when the launcher takes one
# the compile budget of a mutant (statements visited): the package's own bound allows compiles of
# many seconds, longer than a mutant may take
function_visitor.MAX_COMPILED_STATEMENTS = 20_000

EDGE_INTS: Tuple[int, ...] = (0, -1, 1, 2**31, -(2**31) - 1, 2**61, 2**62, -(2**62), 2**63 - 1, 2**64)
EDGE_FLOATS: Tuple[float, ...] = (1e308, -1e308, 5e-324, 1e-45, float("nan"), float("inf"), float("-inf"), -0.0)
SMALL_INTS: Tuple[int, ...] = (2, 3, 8, 32, 255, 256, 4096)

# imports of a seed file the fuzzer may execute (the kernel language's own modules)
_IMPORTABLE = ("asc", "numpy", "math", "functools", "typing", "enum")
# a kernel factory's parameter called as op(...): the APIs of that arity to try, in order
_CALLABLE_DEFAULTS = {
    2: ("asc.duplicate",),
    3: ("asc.relu", "asc.exp", "asc.abs", "asc.data_copy", "asc.duplicate"),
    4: ("asc.add", "asc.adds", "asc.mul", "asc.muls", "asc.cast"),
    5: ("asc.add", "asc.adds"),
}
_VALUE_DEFAULTS: Tuple[Any, ...] = (64, asc.float32, 1.5, 8, True, asc.TPosition.VECIN)
_METHODS = ("set_value", "get_value", "set_global_buffer", "alloc_tensor", "enque", "deque", "free_tensor",
            "init_buffer", "get", "dtype", "sizeof", "position", "cast", "depth")
_KEYWORDS = ("count", "mask", "repeat_times", "repeat_params", "is_set_mask", "dtype", "pos", "depth", "len",
             "num", "event_id", "buffer_size", "que", "buf", "foo")
_WRAP_CALLS = ("int", "float", "bool", "abs", "len")
_WRAP_DTYPES = ("int32", "int64", "float16", "float32", "uint8", "bool_", "bfloat16", "uint64")
_ENUMS = {"TPosition": asc.TPosition, "HardEvent": asc.HardEvent, "PipeID": asc.PipeID, "RoundMode": asc.RoundMode}
_ARRAY_DTYPES = (np.float32, np.float16, np.int32, np.int16, np.uint16, np.int8, np.uint8, np.int64, np.uint32,
                 np.float64, np.uint64, np.bool_)
_SIZES = (512, 256, 1024)


class MutantTimeout(BaseException):
    """Raised by SIGALRM in a mutant that runs too long (never caught by the front end)."""


# ---------------------------------------------------------------------------
# seeds
# ---------------------------------------------------------------------------

@dataclass
class Seed:
    path: str  # relative to the repository root
    name: str
    kernel: ast.FunctionDef
    helpers: List[ast.FunctionDef]  # the other @asc.jit functions of the file
    env: Dict[str, Any]  # module constants, imports and defaults of free names
    free: Dict[str, List[Any]]  # free names and the defaults to try
    args: Optional[List[Any]] = None  # validated launch arguments (None: not validated yet)
    env_choice: Dict[str, Any] = field(default_factory=dict)
    outcome: str = ""  # what the unmutated kernel does with them
    usable: bool = True


def _is_jit(fdef: ast.FunctionDef) -> bool:
    for d in fdef.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == "jit" and isinstance(target.value, ast.Name) \
                and target.value.id == "asc":
            return True
    return False


def _eval(node: ast.expr, env: Dict[str, Any]) -> Tuple[bool, Any]:
    """Evaluates a module-level expression of a seed file, if it only uses what env holds."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in env and not hasattr(builtins, n.id):
            return False, None
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.DictComp, ast.GeneratorExp, ast.Await)):
            return False, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return True, eval(compile(ast.Expression(node), "<seed>", "eval"), dict(env))  # noqa: S307
    except Exception:
        return False, None


def _module_env(tree: ast.Module, shared: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """The imports (of the kernel language's modules) and constants of a seed file."""
    env: Dict[str, Any] = {"__name__": "fuzz_seed"}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            mod = stmt.module if isinstance(stmt, ast.ImportFrom) else None
            names = [a.name for a in stmt.names]
            top = (mod or names[0]).split(".")[0]
            if isinstance(stmt, ast.ImportFrom) and mod in shared:
                for a in stmt.names:
                    if a.name in shared[mod]:
                        env[a.asname or a.name] = shared[mod][a.name]
                continue
            if top not in _IMPORTABLE or (isinstance(stmt, ast.ImportFrom) and stmt.level):
                continue
            try:
                exec(compile(ast.Module(body=[stmt], type_ignores=[]), "<seed>", "exec"), env)  # noqa: S102
            except Exception:
                pass
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if all(isinstance(t, ast.Name) for t in targets):
                ok, value = _eval(stmt.value, env)
                # data, and the kernel language's own objects (`static_range = asc.static_range`)
                if ok and (not callable(value) or str(getattr(value, "__module__", "")).startswith("asc")
                           or isinstance(value, asc.DataType)):
                    for t in targets:
                        env[t.id] = value  # type: ignore[union-attr]
    return env


def _bound_names(fdef: ast.FunctionDef) -> set:
    names = {a.arg for a in fdef.args.args + fdef.args.kwonlyargs + fdef.args.posonlyargs}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
    return names


def _free_names(fdef: ast.FunctionDef, known: set) -> Dict[str, int]:
    """Names fdef's body reads that nothing binds: name -> the arity it is called with (-1: not called)."""
    bound = _bound_names(fdef) | known
    builtins_ = set(dir(builtins))
    free: Dict[str, int] = {}
    for stmt in fdef.body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in bound \
                    and n.func.id not in builtins_:
                free[n.func.id] = len(n.args) + len(n.keywords)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound \
                    and n.id not in builtins_:
                free.setdefault(n.id, -1)
    return free


def _enclosing_values(tree: ast.Module, fdef: ast.FunctionDef, name: str, env: Dict[str, Any]) -> List[Any]:
    """Values the functions around a nested kernel assign to `name` (its closure)."""
    out: List[Any] = []
    for outer in ast.walk(tree):
        if not isinstance(outer, ast.FunctionDef) or outer is fdef:
            continue
        if not any(n is fdef for n in ast.walk(outer)):
            continue
        for n in ast.walk(outer):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
                ok, v = _eval(n.value, env)
                if ok:
                    out.append(v)
    return out


def _dedent(fdef: ast.FunctionDef) -> ast.FunctionDef:
    f = copy.deepcopy(fdef)
    ast.fix_missing_locations(f)
    return f


def load_seeds(root: Path = ROOT) -> List[Seed]:
    """Every @asc.jit function of the seed files that is launched as a kernel
    (not only called by another one), in a fixed order."""
    files: List[Path] = []
    for pattern in SEED_GLOBS:
        files += sorted(root.glob(pattern))
    trees: Dict[Path, ast.Module] = {}
    for f in files:
        try:
            trees[f] = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
    # module constants by module name, for `from kernels_util import UB_SLOT`
    shared: Dict[str, Dict[str, Any]] = {}
    for f in files:
        if f in trees and f.parent.name == "python":
            shared[f.stem] = {k: v for k, v in _module_env(trees[f], {}).items() if not k.startswith("__")}
    seeds: List[Seed] = []
    for f, tree in trees.items():
        env = _module_env(tree, shared)
        jits = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and _is_jit(n)]
        names = {j.name for j in jits}
        called = {n.func.id for j in jits for n in ast.walk(j)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)} & names
        by_name: Dict[str, ast.FunctionDef] = {}
        for j in jits:
            by_name.setdefault(j.name, j)  # (one definition per name: the first)
        for j in by_name.values():
            if j.name in called and not _has_global_address(j, env):
                continue
            known = set(env) | names | {"asc", "np"}
            free = {}
            for h in [j] + [by_name[c] for c in _callees(j, by_name)]:
                free.update(_free_names(h, known))
            defaults: Dict[str, List[Any]] = {}
            for name, arity in free.items():
                vals = _enclosing_values(tree, j, name, env)
                if arity >= 0:
                    vals += [eval(a, {"asc": asc}) for a in _CALLABLE_DEFAULTS.get(arity, ("asc.add",))]  # noqa: S307
                else:
                    vals += list(_VALUE_DEFAULTS)
                defaults[name] = vals
            helpers = [_dedent(by_name[h]) for h in _callees(j, by_name)]
            seeds.append(Seed(str(f.relative_to(root)), j.name, _dedent(j), helpers, env, defaults))
    return seeds


def _callees(fdef: ast.FunctionDef, by_name: Dict[str, ast.FunctionDef]) -> List[str]:
    """The @asc.jit functions fdef calls, directly or not, in first-call order."""
    out: List[str] = []
    todo = [fdef]
    while todo:
        f = todo.pop()
        for n in ast.walk(f):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in by_name \
                    and n.func.id != fdef.name and n.func.id not in out:
                out.append(n.func.id)
                todo.append(by_name[n.func.id])
    return out


def _has_global_address(fdef: ast.FunctionDef, env: Dict[str, Any]) -> bool:
    for a in fdef.args.args:
        if a.annotation is not None and ast.unparse(a.annotation) in ("asc.GlobalAddress", "GlobalAddress"):
            return True
    return False


# ---------------------------------------------------------------------------
# launch arguments
# ---------------------------------------------------------------------------

def _annotation(arg: ast.arg, env: Dict[str, Any]) -> Any:
    if arg.annotation is None:
        return None
    ok, v = _eval(arg.annotation, env)
    return v if ok else None


def _body_constants(fdef: ast.FunctionDef, kind: type) -> List[Any]:
    out: List[Any] = []
    for n in ast.walk(fdef):
        if isinstance(n, ast.Constant) and type(n.value) is kind and n.value not in out:
            out.append(n.value)
    return out


def _param_candidates(arg: ast.arg, default: Any, has_default: bool, fdef: ast.FunctionDef,
                      env: Dict[str, Any], n: int) -> List[Any]:
    """The values to try for one kernel parameter, best first ("array" for an array)."""
    ann = _annotation(arg, env)
    head = [default] if has_default else []
    if ann is asc.GlobalAddress:
        return ["array"]
    if is_constexpr_annotation(ann):
        inner = getattr(ann, "inner", None)
        if inner is int:
            return head + [32, 8, 64, n // 16, 1, 4, 2, 16] + _body_constants(fdef, int)[:4]
        if inner is float:
            return head + [1.5, 2.0, 0.5]
        if inner is bool:
            return head + [True, False]
        if inner is str:
            return head + _body_constants(fdef, str)[:6] + ["x"]
        if inner is asc.DataType:
            return head + [asc.float32, asc.float16, asc.int32, asc.int16]
        if isinstance(inner, type) and issubclass(inner, enum.Enum):
            return head + list(inner)[:6]
        return head + [32, asc.float32, 1.5, True]
    if ann is float:
        return head + [1.5, 2.0, 0.5]
    if ann is bool:
        return head + [True, False]
    if ann is int:
        return head + [n, n // 8, 64, 8, 1, 3, 0]
    return head + [n, 1.5, 64, 3]


def _arrays(dtypes: Sequence[Any], n: int, key: str) -> List[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(key.encode()))
    out = []
    for d in dtypes:
        d = np.dtype(d)
        if d.kind == "f":
            out.append(rng.uniform(-4, 4, n).astype(d))
        elif d.kind == "b":
            out.append(rng.integers(0, 2, n).astype(d))
        else:
            out.append(rng.integers(0, 100, n).astype(d))
    return out


def _plans(seed: Seed) -> Iterator[Tuple[List[Any], Dict[str, Any]]]:
    """Launch arguments and free-name values to try, best first."""
    fdef = seed.kernel
    params = fdef.args.args
    defaults = [None] * (len(params) - len(fdef.args.defaults)) + list(fdef.args.defaults)
    n_arrays = 0
    for size in _SIZES:
        cands = []
        for p, d in zip(params, defaults):
            ok, dv = (False, None) if d is None else _eval(d, seed.env)
            cands.append(_param_candidates(p, dv, ok, fdef, seed.env, size))
        n_arrays = sum(1 for c in cands if c == ["array"])
        free_choice = {k: v[0] for k, v in seed.free.items()}
        dtype_plans: List[Tuple[Any, ...]] = [(d,) * n_arrays for d in _ARRAY_DTYPES[:4]]
        if n_arrays >= 2:
            dtype_plans += [(np.float16,) + (np.float32,) * (n_arrays - 1), (np.float32,) + (np.float16,) *
                            (n_arrays - 1), (np.float32,) + (np.int32,) * (n_arrays - 1)]
        base = [c[0] for c in cands]
        yield _build(seed, base, dtype_plans[0], size), free_choice
        for dts in dtype_plans[1:]:
            yield _build(seed, base, dts, size), free_choice
        for i, c in enumerate(cands):
            for v in c[1:]:
                choice = list(base)
                choice[i] = v
                yield _build(seed, choice, dtype_plans[0], size), free_choice
        for name, vals in seed.free.items():
            for v in vals[1:]:
                yield _build(seed, base, dtype_plans[0], size), dict(free_choice, **{name: v})


def _build(seed: Seed, values: List[Any], dtypes: Sequence[Any], size: int) -> List[Any]:
    arrays = iter(_arrays(dtypes, size, f"{seed.path}:{seed.name}"))
    return [next(arrays) if isinstance(v, str) and v == "array" else v for v in values]


# ---------------------------------------------------------------------------
# running one kernel
# ---------------------------------------------------------------------------



@dataclass
class Result:
    outcome: str  # "ok", "CompileError", "KernelError", ... or "finding"
    detail: str = ""  # the traceback of a finding
    message: str = ""  # a CompileError's message and hint (for --messages)


def _emit_check(compiled: Any) -> None:
    # The emitter must handle every kernel that compiles (a CompileError is a fine answer).
    try:
        compiled.ascendc(line_comments=False)
    except asc.CompileError:
        pass


def _alarm(signum: int, frame: Any) -> None:
    raise MutantTimeout()


_MUTANT_CWD: List[str] = []


def _mutant_cwd() -> str:
    """The working directory mutants run in: a kernel may write files there (LocalTensor.to_file takes a
    name relative to it), which must not land in the user's tree."""
    if not _MUTANT_CWD:
        inherited = os.environ.get("ASC_FUZZ_MUTANT_CWD")
        if inherited:  # a --worker child: its parent made the directory and removes it
            _MUTANT_CWD.append(inherited)
        else:
            _MUTANT_CWD.append(tempfile.mkdtemp(prefix="asc-fuzz-cwd-"))
            os.environ["ASC_FUZZ_MUTANT_CWD"] = _MUTANT_CWD[0]
            # removed when the fuzzer exits, with whatever the mutants wrote there (children are
            # killed, so they never clean up themselves)
            atexit.register(shutil.rmtree, _MUTANT_CWD[0], True)
    return _MUTANT_CWD[0]


def run_source(src: str, filename: str, env: Dict[str, Any], kernel: str, args: Sequence[Any],
               core_num: int, timeout: float) -> Result:
    """Compiles the module `src`, launches `kernel` of it; classifies the outcome."""
    cwd = os.getcwd()
    os.chdir(_mutant_cwd())
    try:
        return _run_source(src, filename, env, kernel, args, core_num, timeout)
    finally:
        os.chdir(cwd)


def _run_source(src: str, filename: str, env: Dict[str, Any], kernel: str, args: Sequence[Any],
                core_num: int, timeout: float) -> Result:
    lines = src.splitlines(True)
    linecache.cache[filename] = (len(src), None, lines, filename)
    ns: Dict[str, Any] = dict(env)
    ns["__name__"] = "fuzz_mutant"
    from asc.runtime import compiler

    # A mutant is no kernel of the test suite: while it compiles only the fuzzer's own check of the
    # emitter listens (the suite's conftest would keep and g++-check every mutant's Ascend C).
    listeners = list(compiler.compile_listeners)
    compiler.compile_listeners[:] = [_emit_check]
    use_alarm = timeout > 0 and hasattr(signal, "setitimer") and threading.current_thread() is \
        threading.main_thread()
    old = signal.signal(signal.SIGALRM, _alarm) if use_alarm else None
    try:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                exec(compile(src, filename, "exec"), ns)  # noqa: S102
                fn = ns[kernel]
                assert isinstance(fn, JITFunction)
                options: Dict[str, Any] = {"always_compile": True, "sanitize": "error", "max_steps": STEPS}
                fn[core_num](*[a.copy() if isinstance(a, np.ndarray) else a for a in args], **options)
                return Result("ok")
            except asc.CompileError as e:
                if not e.filename or e.line <= 0 or not e.message:
                    return Result("finding", "a CompileError without a location or a message:\n"
                                  + "".join(traceback.format_exception(type(e), e, e.__traceback__)))
                return Result(type(e).__name__, message=f"{e.message} | {e.hint or 'NO HINT'}")
            except asc.KernelError as e:
                return Result(type(e).__name__)
            except MutantTimeout:
                return Result("finding", f"the mutant ran longer than {timeout} s (a hang)\n"
                              + "".join(traceback.format_stack()[-12:]))
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # noqa: B036 (MemoryError, RecursionError, ...: findings too)
                return Result("finding", "".join(traceback.format_exception(type(e), e, e.__traceback__)))
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        compiler.compile_listeners[:] = listeners
        linecache.cache.pop(filename, None)


def module_source(kernel: ast.FunctionDef, helpers: Sequence[ast.FunctionDef]) -> str:
    """The mutant's module: the device functions, then the kernel."""
    mod = ast.Module(body=[copy.deepcopy(h) for h in helpers] + [kernel], type_ignores=[])
    ast.fix_missing_locations(mod)
    return ast.unparse(mod) + "\n"


def validate(seed: Seed, timeout: float) -> None:
    """Finds launch arguments with which the unmutated kernel runs (else compiles)."""
    if seed.args is not None or not seed.usable:
        return
    src = module_source(seed.kernel, seed.helpers)
    best: Optional[Tuple[int, List[Any], Dict[str, Any], str]] = None
    rank = {"ok": 0, "SanitizerError": 1, "KernelError": 1, "UnsupportedError": 2, "CompileError": 2}
    for tries, (args, free) in enumerate(_plans(seed)):
        if tries >= 12:
            break
        env = dict(seed.env, **free)
        r = run_source(src, f"fuzz_seed_{seed.name}.py", env, seed.name, args, 1, timeout)
        if r.outcome == "finding":
            continue  # the harness guessed wrong (the suite runs this kernel fine)
        if best is None or rank.get(r.outcome, 3) < best[0]:
            best = (rank.get(r.outcome, 3), args, free, r.outcome)
        if r.outcome == "ok":
            break
    if best is None:
        seed.usable = False
        return
    _, seed.args, seed.env_choice, seed.outcome = best


# ---------------------------------------------------------------------------
# mutations
# ---------------------------------------------------------------------------

def _parents(root: ast.AST) -> Dict[int, Tuple[ast.AST, str, Optional[int]]]:
    out: Dict[int, Tuple[ast.AST, str, Optional[int]]] = {}
    for node in ast.walk(root):
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        out[id(v)] = (node, name, i)
            elif isinstance(value, ast.AST):
                out[id(value)] = (node, name, None)
    return out


def _replace(parents: Dict[int, Tuple[ast.AST, str, Optional[int]]], old: ast.AST, new: ast.AST) -> None:
    parent, name, i = parents[id(old)]
    if i is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[i] = new


def _text(node: ast.AST, limit: int = 40) -> str:
    """Source of a node for a change's description (never fails)."""
    try:
        return ast.unparse(node)[:limit]
    except Exception:
        return f"<{type(node).__name__}>"


def _const(value: Any) -> ast.expr:
    return ast.Constant(value=value)


def _name(id_: str) -> ast.expr:
    return ast.Name(id=id_, ctx=ast.Load())


def _asc(attr: str) -> ast.expr:
    return ast.Attribute(value=_name("asc"), attr=attr, ctx=ast.Load())


class Mutator:
    """Applies random mutations to a function body (never to its signature)."""

    def __init__(self, rng: random.Random, fdef: ast.FunctionDef, scope: Sequence[str]):
        self.rng = rng
        self.fdef = fdef
        self.scope = list(scope)
        self.counter = 0

    # ---- helpers ---------------------------------------------------------
    def nodes(self, kind: Any, pred: Callable[[Any], bool] = lambda n: True) -> List[Any]:
        out = []
        for stmt in self.fdef.body:
            for n in ast.walk(stmt):
                if isinstance(n, kind) and pred(n):
                    out.append(n)
        return out

    def parents(self) -> Dict[int, Tuple[ast.AST, str, Optional[int]]]:
        return _parents(self.fdef)

    def edge(self) -> Any:
        r = self.rng.random()
        if r < 0.55:
            return self.rng.choice(EDGE_INTS)
        if r < 0.8:
            return self.rng.choice(EDGE_FLOATS)
        return self.rng.choice(SMALL_INTS)

    def value_expr(self) -> ast.expr:
        r = self.rng.random()
        if r < 0.45:
            return _const(self.edge())
        if r < 0.85 and self.scope:
            return _name(self.rng.choice(self.scope))
        return self.rng.choice([_const(None), _const("x"), ast.Tuple(elts=[_const(1), _const(2)], ctx=ast.Load()),
                                _asc("float32"), _asc("TPosition"), _name("asc"), _asc("HardEvent")])

    def stmt_lists(self) -> List[List[ast.stmt]]:
        lists = [self.fdef.body]
        for stmt in self.fdef.body:
            for n in ast.walk(stmt):
                for name in ("body", "orelse"):
                    v = getattr(n, name, None)
                    if isinstance(v, list) and v and isinstance(v[0], ast.stmt):
                        lists.append(v)
        return lists

    def exprs(self) -> List[ast.expr]:
        """Expressions that may be replaced (loaded values, not targets or slices)."""
        out = []
        inside_fstrings = {id(v) for stmt in self.fdef.body for n in ast.walk(stmt) if isinstance(n, ast.JoinedStr)
                           for v in n.values}
        for stmt in self.fdef.body:
            for n in ast.walk(stmt):
                if isinstance(n, ast.expr) and not isinstance(n, (ast.Slice, ast.Starred, ast.FormattedValue)) \
                        and getattr(n, "ctx", ast.Load()).__class__ is ast.Load and id(n) not in inside_fstrings:
                    out.append(n)
        return out

    # ---- mutation operators ---------------------------------------------------
    def m_constant(self) -> Optional[str]:
        cs = self.nodes(ast.Constant, lambda n: isinstance(n.value, (int, float)) or
                        (isinstance(n.value, str) and self.rng.random() < 0.1))
        if not cs:
            return None
        c = self.rng.choice(cs)
        old = c.value
        c.value = self.edge() if not isinstance(old, str) else self.rng.choice(["", "x", "VECIN"])
        return f"constant {old!r} -> {c.value!r}"

    def m_nearby(self) -> Optional[str]:
        """An integer constant changed a little: the kernel still compiles, and runs off by one."""
        cs = self.nodes(ast.Constant, lambda n: type(n.value) is int)
        if not cs:
            return None
        c = self.rng.choice(cs)
        old = c.value
        c.value = self.rng.choice((old + 1, old - 1, old * 2, old // 2, 0, -old, old + 32, old * 1024))
        return f"constant {old!r} -> {c.value!r}"

    def m_member(self) -> Optional[str]:
        """A data type or an enum member replaced by another of its kind (asc.float32 -> asc.int8,
        asc.HardEvent.MTE2_V -> asc.HardEvent.V_MTE3)."""
        dtypes = self.nodes(ast.Attribute, lambda n: isinstance(n.value, ast.Name) and n.value.id == "asc"
                            and n.attr in _WRAP_DTYPES + ("float64", "int8", "int16", "uint16", "uint32"))
        members = self.nodes(ast.Attribute, lambda n: isinstance(n.value, ast.Attribute) and isinstance(
            n.value.value, ast.Name) and n.value.value.id == "asc" and n.value.attr in _ENUMS)
        if not dtypes and not members:
            return None
        a = self.rng.choice(dtypes + members)
        old = a.attr
        if a in members:
            a.attr = self.rng.choice([m.name for m in _ENUMS[a.value.attr]])  # type: ignore[attr-defined]
        else:
            a.attr = self.rng.choice(_WRAP_DTYPES + ("float64", "int8", "int16", "uint16", "uint32"))
        return f"member {old} -> {a.attr}"

    def m_name(self) -> Optional[str]:
        ns = self.nodes(ast.Name, lambda n: isinstance(n.ctx, ast.Load))
        if not ns or not self.scope:
            return None
        n = self.rng.choice(ns)
        old = n.id
        n.id = self.rng.choice(self.scope)
        return f"name {old} -> {n.id}"

    def m_arguments(self) -> Optional[str]:
        calls = self.nodes(ast.Call)
        if not calls:
            return None
        c = self.rng.choice(calls)
        what = self.rng.choice(("swap", "drop", "dup", "insert", "keyword", "drop_keyword", "replace"))
        a = c.args
        if what == "swap" and len(a) >= 2:
            i, j = self.rng.sample(range(len(a)), 2)
            a[i], a[j] = a[j], a[i]
        elif what == "drop" and a:
            a.pop(self.rng.randrange(len(a)))
        elif what == "dup" and a:
            i = self.rng.randrange(len(a))
            a.insert(i, copy.deepcopy(a[i]))
        elif what == "insert":
            a.insert(self.rng.randrange(len(a) + 1), self.value_expr())
        elif what == "keyword":
            c.keywords.append(ast.keyword(arg=self.rng.choice(_KEYWORDS), value=self.value_expr()))
        elif what == "drop_keyword" and c.keywords:
            c.keywords.pop(self.rng.randrange(len(c.keywords)))
        elif what == "replace" and a:
            a[self.rng.randrange(len(a))] = self.value_expr()
        else:
            return None
        return f"arguments of {_text(c.func)}: {what}"

    def m_statements(self) -> Optional[str]:
        lists = self.stmt_lists()
        body = self.rng.choice(lists)
        what = self.rng.choice(("swap", "drop", "dup", "move"))
        if what == "swap" and len(body) >= 2:
            i = self.rng.randrange(len(body) - 1)
            body[i], body[i + 1] = body[i + 1], body[i]
        elif what == "drop":
            body.pop(self.rng.randrange(len(body)))
            if not body:
                body.append(ast.Pass())
        elif what == "dup":
            i = self.rng.randrange(len(body))
            body.insert(i, copy.deepcopy(body[i]))
        elif what == "move" and len(body) >= 2:
            s = body.pop(self.rng.randrange(len(body)))
            body.insert(self.rng.randrange(len(body) + 1), s)
        else:
            return None
        return f"statements: {what}"

    def m_operator(self) -> Optional[str]:
        cands = self.nodes((ast.BinOp, ast.Compare, ast.UnaryOp, ast.BoolOp, ast.AugAssign))
        if not cands:
            return None
        n = self.rng.choice(cands)
        if isinstance(n, (ast.BinOp, ast.AugAssign)):
            n.op = self.rng.choice([ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift,
                                    ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd, ast.MatMult])()
        elif isinstance(n, ast.Compare):
            i = self.rng.randrange(len(n.ops))
            n.ops[i] = self.rng.choice([ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot,
                                        ast.In, ast.NotIn])()
        elif isinstance(n, ast.UnaryOp):
            n.op = self.rng.choice([ast.UAdd, ast.USub, ast.Not, ast.Invert])()
        else:
            n.op = ast.Or() if isinstance(n.op, ast.And) else ast.And()
        return f"operator of {type(n).__name__} -> {type(getattr(n, 'op', None) or n.ops[0]).__name__}"

    def m_wrap(self) -> Optional[str]:
        es = self.exprs()
        if not es:
            return None
        e = self.rng.choice(es)
        parents = self.parents()
        if id(e) not in parents:
            return None
        inner = copy.deepcopy(e)
        k = self.rng.randrange(12)
        if k == 0:
            new: ast.expr = ast.Call(func=_name(self.rng.choice(_WRAP_CALLS)), args=[inner], keywords=[])
        elif k == 1:
            new = ast.Call(func=_asc(self.rng.choice(_WRAP_DTYPES)), args=[inner], keywords=[])
        elif k == 2:
            new = ast.Call(func=_name(self.rng.choice(("min", "max"))), args=[inner, _const(self.edge())],
                           keywords=[])
        elif k == 3:
            new = ast.Subscript(value=inner, slice=_const(self.rng.choice((0, 1, -1, 2**31))), ctx=ast.Load())
        elif k == 4:
            new = ast.Subscript(value=inner, slice=ast.Slice(lower=_const(self.edge())), ctx=ast.Load())
        elif k == 5:
            new = ast.Attribute(value=inner, attr=self.rng.choice(_METHODS), ctx=ast.Load())
        elif k == 6:
            new = ast.Call(func=inner, args=[_const(self.edge())], keywords=[])
        elif k == 7:
            new = ast.UnaryOp(op=self.rng.choice([ast.USub, ast.Not, ast.Invert])(), operand=inner)
        elif k == 8:
            new = ast.BinOp(left=inner, op=self.rng.choice([ast.Add, ast.Mult, ast.Sub, ast.FloorDiv, ast.Mod])(),
                            right=self.value_expr())
        elif k == 9:
            new = self.rng.choice([ast.Tuple(elts=[inner, copy.deepcopy(inner)], ctx=ast.Load()),
                                   ast.List(elts=[inner], ctx=ast.Load())])
        elif k == 10:
            new = ast.IfExp(test=self.value_expr(), body=inner, orelse=self.value_expr())
        else:
            new = ast.Compare(left=inner, ops=[self.rng.choice([ast.Lt, ast.Eq, ast.GtE])()],
                              comparators=[self.value_expr()])
        _replace(parents, e, new)
        return f"wrap {_text(inner)} -> {_text(new, 60)}"

    def m_nest(self) -> Optional[str]:
        lists = self.stmt_lists()
        body = self.rng.choice(lists)
        i = self.rng.randrange(len(body))
        j = min(len(body), i + self.rng.choice((1, 1, 2, 3)))
        inner = body[i:j]
        self.counter += 1
        var = f"_fz{self.counter}"
        k = self.rng.randrange(5)
        bound = self.rng.choice([_const(0), _const(1), _const(2), _const(3)] +
                                [_name(s) for s in self.scope[:8]] + [_const(self.edge())])
        if k == 0:
            new: List[ast.stmt] = [ast.For(target=ast.Name(id=var, ctx=ast.Store()),
                                           iter=ast.Call(func=_name("range"), args=[bound], keywords=[]),
                                           body=inner, orelse=[])]
        elif k == 1:
            new = [ast.For(target=ast.Name(id=var, ctx=ast.Store()),
                           iter=ast.Call(func=_asc("static_range"), args=[bound], keywords=[]), body=inner,
                           orelse=[])]
        elif k == 2:
            test = self.rng.choice([_const(True), _const(False), self.value_expr(),
                                    ast.Compare(left=self.value_expr(), ops=[ast.Gt()], comparators=[_const(0)]),
                                    ast.Compare(left=ast.Call(func=_asc("get_block_idx"), args=[], keywords=[]),
                                                ops=[ast.Eq()], comparators=[_const(0)])])
            orelse = [copy.deepcopy(s) for s in inner] if self.rng.random() < 0.3 else []
            new = [ast.If(test=test, body=inner, orelse=orelse)]
        elif k == 3:
            # a runtime while that counts to the bound
            init = ast.Assign(targets=[ast.Name(id=var, ctx=ast.Store())],
                              value=ast.Call(func=_asc("int32"), args=[_const(0)], keywords=[]), lineno=0)
            step = ast.AugAssign(target=ast.Name(id=var, ctx=ast.Store()), op=ast.Add(), value=_const(1))
            new = [init, ast.While(test=ast.Compare(left=_name(var), ops=[ast.Lt()], comparators=[bound]),
                                   body=inner + [step], orelse=[])]
        else:
            new = [copy.deepcopy(s) for s in inner] + inner  # the statements twice
        body[i:j] = new
        return f"nest statements {i}..{j} in {type(new[-1]).__name__}"

    def m_api(self) -> Optional[str]:
        attrs = self.nodes(ast.Attribute, lambda n: isinstance(n.value, ast.Name) and n.value.id == "asc")
        others = self.nodes(ast.Attribute, lambda n: not (isinstance(n.value, ast.Name) and n.value.id == "asc"))
        if attrs and (not others or self.rng.random() < 0.6):
            a = self.rng.choice(attrs)
            old = a.attr
            a.attr = self.rng.choice(sorted(asc.__all__))
        elif others:
            a = self.rng.choice(others)
            old = a.attr
            a.attr = self.rng.choice(_METHODS)
        else:
            return None
        return f"attribute {old} -> {a.attr}"

    def m_insert_call(self) -> Optional[str]:
        body = self.rng.choice(self.stmt_lists())
        api = self.rng.choice(sorted(asc.__all__))
        args = [self.value_expr() for _ in range(self.rng.randrange(6))]
        call = ast.Call(func=_asc(api), args=args, keywords=[])
        self.counter += 1
        stmt: ast.stmt = ast.Expr(value=call) if self.rng.random() < 0.5 else ast.Assign(
            targets=[ast.Name(id=f"_fzv{self.counter}", ctx=ast.Store())], value=call, lineno=0)
        body.insert(self.rng.randrange(len(body) + 1), stmt)
        return f"insert {_text(stmt, 60)}"

    def m_transplant(self) -> Optional[str]:
        es = self.exprs()
        if len(es) < 2:
            return None
        a, b = self.rng.sample(es, 2)
        parents = self.parents()
        if id(a) not in parents:
            return None
        _replace(parents, a, copy.deepcopy(b))
        return f"replace {_text(a, 30)} by {_text(b, 30)}"

    OPERATORS = ("m_constant", "m_constant", "m_nearby", "m_nearby", "m_member", "m_name", "m_arguments",
                 "m_arguments", "m_statements", "m_operator", "m_wrap", "m_wrap", "m_nest", "m_api",
                 "m_insert_call", "m_transplant")

    def mutate(self) -> Optional[str]:
        for _ in range(8):
            desc = getattr(self, self.rng.choice(self.OPERATORS))()
            if desc:
                return desc
        return None


def _scope_names(seed: Seed, fdef: ast.FunctionDef) -> List[str]:
    names = sorted(_bound_names(fdef))
    consts = sorted(k for k, v in seed.env.items() if not k.startswith("__") and isinstance(
        v, (int, float, bool, str, tuple, asc.DataType)))
    return names + consts[:10] + ["asc", "range", "len", "int", "True", "None"]


@dataclass
class Mutant:
    index: int
    seed: Seed
    source: str
    changes: List[str]
    core_num: int


def make_mutant(seeds: Sequence[Seed], fuzz_seed: int, index: int, timeout: float) -> Optional[Mutant]:
    """Mutant `index` of run `fuzz_seed`: a function of those two numbers only."""
    rng = random.Random(f"{fuzz_seed}/{index}")
    for attempt in range(40):
        seed = seeds[rng.randrange(len(seeds))]
        validate(seed, timeout)
        # kernels that compile unmutated make mutants that reach the simulator: prefer them 3:1
        if seed.usable and (seed.outcome not in ("CompileError", "UnsupportedError") or rng.random() < 0.33
                            or attempt >= 20):
            break
    else:
        return None
    original = module_source(seed.kernel, seed.helpers)
    for _ in range(10):
        kernel = copy.deepcopy(seed.kernel)
        helpers = [copy.deepcopy(h) for h in seed.helpers]
        changes: List[str] = []
        called = {n.func.id for n in ast.walk(kernel) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        targets = [kernel] + [h for h in helpers if h.name in called]
        try:
            for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
                f = targets[0] if len(targets) == 1 or rng.random() < 0.8 else rng.choice(targets[1:])
                desc = Mutator(rng, f, _scope_names(seed, f)).mutate()
                if desc:
                    changes.append(f"{f.name}: {desc}")
            src = module_source(kernel, helpers)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # ("'int' object is not callable; perhaps you missed a comma?")
                compile(src, "<mutant>", "exec")
        except (SyntaxError, ValueError, RecursionError, TypeError, AttributeError):
            continue  # not Python (a slice outside a subscript, too many nested blocks...)
        if src != original:
            return Mutant(index, seed, src, changes, 2 if rng.random() < 0.15 else 1)
    return None


def mutant_filename(fuzz_seed: int, index: int) -> str:
    return f"fuzz_mutant_{fuzz_seed}_{index}.py"


def run_mutant(m: Mutant, fuzz_seed: int, timeout: float) -> Result:
    env = dict(m.seed.env, **m.seed.env_choice)
    assert m.seed.args is not None
    return run_source(m.source, mutant_filename(fuzz_seed, m.index), env, m.seed.name, m.seed.args, m.core_num,
                      timeout)


def describe_mutant(m: Mutant, fuzz_seed: int) -> str:
    numbered = "".join(f"{i + 1:4d}  {line}\n" for i, line in enumerate(m.source.splitlines()))
    return (f"mutant {m.index} of seed {fuzz_seed} (reproduce: python tests/fuzz/fuzz_frontend.py --seed "
            f"{fuzz_seed} --only {m.index})\n"
            f"from {m.seed.path}:{m.seed.name}, launched [{m.core_num}] with {_args_text(m.seed.args or [])}\n"
            f"changes: {'; '.join(m.changes) or '-'}\n{mutant_filename(fuzz_seed, m.index)}:\n{numbered}")


def _args_text(args: Sequence[Any]) -> str:
    return ", ".join(f"np.ndarray({len(a)}, {a.dtype})" if isinstance(a, np.ndarray) else repr(a) for a in args)


# ---------------------------------------------------------------------------
# drivers
# ---------------------------------------------------------------------------

@dataclass
class Report:
    counts: Dict[str, int] = field(default_factory=dict)
    findings: List[str] = field(default_factory=list)
    signatures: Dict[str, int] = field(default_factory=dict)  # finding kind -> count (duplicates not printed)
    messages: Dict[str, int] = field(default_factory=dict)  # CompileError messages, numbers and names blurred

    def add(self, outcome: str, text: str = "") -> None:
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        if outcome != "finding":
            return
        sig = _signature(text)
        self.signatures[sig] = self.signatures.get(sig, 0) + 1
        if self.signatures[sig] <= 2:
            self.findings.append(text)
            print(f"\n===== FINDING =====\n{text}", file=sys.stderr, flush=True)


def _signature(text: str) -> str:
    """Kind of a finding: its exception line and the innermost frame of the traceback."""
    lines = [x for x in text.splitlines() if x.strip()]
    frames = [x for x in lines if x.strip().startswith("File ")]
    last = lines[-1] if lines else ""
    return (frames[-1].strip() if frames else "") + " | " + last.split(":")[0]


def fuzz_in_process(seeds: List[Seed], fuzz_seed: int, start: int, count: int, timeout: float,
                    report: Report, progress: bool = False) -> None:
    t0 = time.monotonic()
    for i in range(start, start + count):
        m = make_mutant(seeds, fuzz_seed, i, timeout)
        if m is None:
            report.add("skipped")
            continue
        r = run_mutant(m, fuzz_seed, timeout)
        report.add(r.outcome, describe_mutant(m, fuzz_seed) + r.detail if r.outcome == "finding" else "")
        if r.message:
            key = re.sub(r"`[^`]*`|'[^']*'|-?\d+(\.\d+)?(e[-+]?\d+)?", "_", r.message)[:150]
            report.messages[key] = report.messages.get(key, 0) + 1
        if progress and (i - start + 1) % 500 == 0:
            print(f"  {i - start + 1} mutants, {time.monotonic() - t0:.0f} s: {report.counts}", file=sys.stderr)


def _worker(fuzz_seed: int, timeout: float) -> None:
    """--worker: runs the mutant indices read from stdin, one JSON line out per mutant."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # stray prints must not corrupt the protocol
    seeds = load_seeds()
    for line in sys.stdin:
        i = int(line)
        try:
            m = make_mutant(seeds, fuzz_seed, i, timeout)
        except Exception:  # a bug of the fuzzer itself: reported, not hidden
            res = {"i": i, "outcome": "finding", "text": f"mutant {i}: the fuzzer failed to make it\n"
                   + traceback.format_exc()}
        else:
            if m is None:
                res = {"i": i, "outcome": "skipped", "text": ""}
            else:
                r = run_mutant(m, fuzz_seed, timeout)
                res = {"i": i, "outcome": r.outcome,
                       "text": describe_mutant(m, fuzz_seed) + r.detail if r.outcome == "finding" else ""}
        out.write(json.dumps(res) + "\n")
        out.flush()


class _Child:
    def __init__(self, fuzz_seed: int, timeout: float):
        self.stderr = tempfile.TemporaryFile()
        _mutant_cwd()  # made here, so that every child shares it and this process removes it
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", "--seed",
                                      str(fuzz_seed), "--timeout", str(timeout)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True)

    def ask(self, i: int, limit: float) -> Optional[Dict[str, Any]]:
        """The child's result for mutant i; None if it died or took longer than limit."""
        assert self.proc.stdin and self.proc.stdout
        try:
            self.proc.stdin.write(f"{i}\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None
        ready, _, _ = select.select([self.proc.stdout], [], [], limit)
        if not ready:
            return None
        line = self.proc.stdout.readline()
        return json.loads(line) if line else None

    def stderr_tail(self, limit: int = 6000) -> str:
        self.stderr.seek(0)
        data = self.stderr.read().decode("utf-8", "replace")
        return data[-limit:]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.stderr.close()


def fuzz_isolated(seeds: List[Seed], fuzz_seed: int, start: int, count: int, timeout: float, jobs: int,
                  report: Report, progress: bool = False) -> None:
    """The long mode: mutants run in child processes, each answer awaited at
    most timeout (plus the child's time to validate the seed) seconds."""
    todo = list(range(start, start + count))
    lock = threading.Lock()
    t0 = time.monotonic()
    done = [0]

    def work() -> None:
        child = _Child(fuzz_seed, timeout)
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    i = todo.pop(0)
                # a fresh seed is validated first (up to 12 launches of the unmutated kernel)
                res = child.ask(i, timeout * 14 + 30)
                if res is None:
                    code = child.proc.poll()
                    if code is None:
                        what = f"the mutant ran longer than {timeout} s (a hang; the child was killed)"
                    else:
                        what = f"the child process died (exit status {code}: a crash of the C core?)"
                    tail = child.stderr_tail()
                    child.kill()
                    m = make_mutant(seeds, fuzz_seed, i, timeout)
                    text = (describe_mutant(m, fuzz_seed) if m else f"mutant {i}\n") + what + \
                        "\n--- child's stderr (tail) ---\n" + tail
                    res = {"i": i, "outcome": "finding", "text": text}
                    child = _Child(fuzz_seed, timeout)
                with lock:
                    report.add(res["outcome"], res["text"])
                    done[0] += 1
                    if progress and done[0] % 1000 == 0:
                        print(f"  {done[0]} mutants, {time.monotonic() - t0:.0f} s: {report.counts}",
                              file=sys.stderr)
        finally:
            child.kill()

    threads = [threading.Thread(target=work) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def fuzz(fuzz_seed: int = CI_SEED, count: int = CI_COUNT, start: int = 0, timeout: float = DEFAULT_TIMEOUT,
         isolate: Optional[bool] = None, jobs: int = 1, progress: bool = False) -> Report:
    """Runs mutants start..start+count-1 of run fuzz_seed; returns the report."""
    seeds = load_seeds()
    report = Report()
    cache = tempfile.mkdtemp(prefix="pyasc-fuzz-cache-")
    old = os.environ.get("PYASC_CACHE_DIR")
    os.environ["PYASC_CACHE_DIR"] = cache  # never the user's compile cache
    try:
        if isolate is None:
            isolate = count > LONG_MODE_COUNT or jobs > 1
        if isolate:
            fuzz_isolated(seeds, fuzz_seed, start, count, timeout, jobs, report, progress)
        else:
            fuzz_in_process(seeds, fuzz_seed, start, count, timeout, report, progress)
    finally:
        if old is None:
            os.environ.pop("PYASC_CACHE_DIR", None)
        else:
            os.environ["PYASC_CACHE_DIR"] = old
        import shutil

        shutil.rmtree(cache, ignore_errors=True)
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=CI_SEED, help="the run's seed (default: the CI slice's)")
    p.add_argument("--count", type=int, default=CI_COUNT, help="how many mutants")
    p.add_argument("--start", type=int, default=0, help="the first mutant's index")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds one mutant may take")
    p.add_argument("--isolate", action="store_true", default=None, help="run mutants in child processes")
    p.add_argument("--no-isolate", dest="isolate", action="store_false", help="run mutants in this process")
    p.add_argument("--jobs", type=int, default=1, help="child processes (implies --isolate when > 1)")
    p.add_argument("--only", type=int, help="run only this mutant and print its outcome")
    p.add_argument("--show", type=int, help="print this mutant's source and exit")
    p.add_argument("--list-seeds", action="store_true", help="validate and list the seed kernels")
    p.add_argument("--messages", type=int, default=0, metavar="N",
                   help="print the N most frequent CompileError messages (in process only), to review their wording")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        _worker(a.seed, a.timeout)
        return 0
    if a.list_seeds:
        for s in load_seeds():
            validate(s, a.timeout)
            print(f"{s.path}:{s.name}: {s.outcome if s.usable else 'unusable'} {_args_text(s.args or [])}")
        return 0
    if a.show is not None or a.only is not None:
        os.environ.setdefault("PYASC_CACHE_DIR", tempfile.mkdtemp(prefix="pyasc-fuzz-cache-"))
        m = make_mutant(load_seeds(), a.seed, a.show if a.show is not None else a.only, a.timeout)
        if m is None:
            print("no mutant (no usable seed)")
            return 0
        print(describe_mutant(m, a.seed))
        if a.only is not None:
            r = run_mutant(m, a.seed, a.timeout)
            print(f"outcome: {r.outcome}\n{r.detail}")
            return 1 if r.outcome == "finding" else 0
        return 0
    t0 = time.monotonic()
    report = fuzz(a.seed, a.count, a.start, a.timeout, a.isolate, a.jobs, progress=True)
    elapsed = time.monotonic() - t0
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(report.counts.items()))
    print(f"fuzz_frontend: seed {a.seed}, mutants {a.start}..{a.start + a.count - 1} in {elapsed:.1f} s: {summary}")
    for text, n in sorted(report.messages.items(), key=lambda kv: -kv[1])[:a.messages]:
        print(f"  {n:5d}  {text}")
    if report.signatures:
        print(f"{sum(report.signatures.values())} findings of {len(report.signatures)} kinds:")
        for sig, n in sorted(report.signatures.items(), key=lambda kv: -kv[1]):
            print(f"  {n:5d}  {sig}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
