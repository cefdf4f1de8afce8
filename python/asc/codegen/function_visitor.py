"""FunctionVisitor: walks a kernel's Python AST and builds ASC-IR.

Expressions are evaluated while walking: Python values stay Python values
(compile-time constants, folded), runtime values are wrappers of IR values
(see language/core/values.py) whose operators build IR. Statements map to
structured control flow: `if` on a runtime condition to scf.if, `for ...
in range(...)` to scf.for, `while` to scf.while. Variables assigned inside
a loop that existed before it are carried through the loop; variables
assigned inside a runtime `if` come out of it as its results.

Everything outside the supported subset of Python (DESIGN.md §7) raises a
CompileError naming the file, line and column and saying what to write.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import enum
import inspect
import linecache
import operator
import types
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..language.core import dtype as dt
from ..language.core.checks import api_label, describe, is_ir_handle, usage_hint
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.values import (
    RANGE,
    IRValue,
    LoopRange,
    Scalar,
    binary,
    default_dtype,
    is_number,
    literal_dtype,
    promote,
    to_scalar,
    wrap_ir,
)
from . import builder as _b
from .errors import CompileError, UnsupportedError

if TYPE_CHECKING:
    from ..runtime.jit import JITFunction

_BINOPS: Dict[type, Tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv), ast.FloorDiv: ("//", operator.floordiv), ast.Mod: ("%", operator.mod),
    ast.BitAnd: ("&", operator.and_), ast.BitOr: ("|", operator.or_), ast.BitXor: ("^", operator.xor),
    ast.LShift: ("<<", operator.lshift), ast.RShift: (">>", operator.rshift), ast.Pow: ("**", operator.pow),
}
_CMPOPS: Dict[type, Tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
    ast.Is: ("is", operator.is_), ast.IsNot: ("is not", operator.is_not),
}

# Statements and expressions outside the language, with what to write instead.
_REJECTED_STMTS = {
    ast.Break: "`break` is not supported in kernels; use a `while` loop whose condition becomes false",
    ast.Continue: "`continue` is not supported in kernels; put the rest of the loop body under an `if`",
    ast.Try: "`try` is not supported in kernels; kernels cannot catch exceptions: test conditions with `if`",
    ast.Raise: "`raise` is not supported in kernels; check arguments in the host code before the launch",
    ast.FunctionDef: "nested functions are not supported; define an @asc.jit function at module level and call it",
    ast.AsyncFunctionDef: "async functions are not supported in kernels; define an @asc.jit function at module "
                          "level and call it",
    ast.ClassDef: "classes cannot be defined inside a kernel; define them outside",
    ast.Import: "imports are not allowed inside a kernel; import at module level",
    ast.ImportFrom: "imports are not allowed inside a kernel; import at module level",
    ast.Global: "`global` is not supported; pass the value as a kernel argument or asc.ConstExpr",
    ast.Nonlocal: "`nonlocal` is not supported in kernels; pass the value as an argument (or asc.ConstExpr) and "
                  "return results from an @asc.jit function",
    ast.Delete: "`del` is not supported in kernels; just stop using the name, or assign it a new value",
    ast.AsyncFor: "`async for` is not supported in kernels; write `for i in range(...)`",
    ast.AsyncWith: "`async with` is not supported in kernels; write the body without `with`",
}
_REJECTED_EXPRS = {
    ast.Lambda: "lambdas are not supported in kernels; define an @asc.jit function",
    ast.ListComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.SetComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.DictComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.GeneratorExp: "generator expressions are not supported in kernels; write a `for` loop",
    ast.Dict: "dicts are not supported in kernels; use separate variables, a tuple or a list",
    ast.Set: "sets are not supported in kernels; use a tuple or a list",
    ast.JoinedStr: "f-strings are not supported in kernels; kernels cannot build strings: format messages in the "
                   "host code",
    ast.Await: "`await` is not supported in kernels; call the function directly",
    ast.Yield: "`yield` is not supported in kernels; write results into a GlobalTensor",
    ast.YieldFrom: "`yield from` is not supported in kernels; write results into a GlobalTensor",
    ast.NamedExpr: "the walrus operator is not supported in kernels; assign on its own line",
    ast.Starred: "`*args` unpacking is not supported in kernels; pass arguments one by one",
}

if hasattr(ast, "Match"):  # Python >= 3.10
    _REJECTED_STMTS[ast.Match] = "`match` is not supported in kernels; use if/elif/else"

_GENERIC_HINT = "hint: docs/api.md lists the kernel syntax and the API with the values each takes"
_SUPPORTED_HINT = ("hint: kernels support assignments, if/elif/else, `for` over range(...), `while`, `pass`, and "
                   "calls to the asc API and to @asc.jit functions")

_MAX_STATIC_WHILE = 100000

# Statements one compilation may visit (each iteration of an unrolled loop
# counts its body again): compile-time loops nested in each other would
# otherwise unroll for hours. Compiling is linear (benchmarks/
# compile_scaling.py), about 10-25 us a statement: the bound is well under a
# minute of compiling and far above real kernels. (The front-end fuzzer
# lowers it, so that no mutant takes long.)
MAX_COMPILED_STATEMENTS = 500_000

# Compile-time arithmetic is Python's, with unbounded integers: a few
# mutually squaring constants would use all memory. Kernels compute in at
# most 64 bits; the bound leaves room for intermediate values.
_MAX_CONST_INT_BITS = 4096
_MAX_CONST_SEQUENCE = 100000


class CompileBudget:
    """The work left to one compilation (kernel and device functions)."""

    def __init__(self, statements: Optional[int] = None):
        self.limit = MAX_COMPILED_STATEMENTS if statements is None else statements
        self.statements = self.limit


def _cast_builtin(dtype: dt.DataType) -> Callable[[Any], Any]:
    pytype = float if dtype.is_float() else (builtins.bool if dtype == dt.bool_ else int)

    def conv(x: Any = 0) -> Any:
        if isinstance(x, Scalar):
            return x.cast(dtype)
        if is_number(x):
            return pytype(x)
        raise CompileError(f"{pytype.__name__}() in a kernel converts a number or a runtime scalar, "
                           f"not {describe(x)}",
                           hint=f"hint: write {pytype.__name__}(x) with x a number or a scalar (a tensor element is "
                                "t.get_value(i))")

    conv.__name__ = pytype.__name__
    return conv


def _min_max(is_max: bool) -> Callable[..., Any]:
    name = "max" if is_max else "min"

    def f(*args: Any) -> Any:
        if len(args) < 2:
            raise CompileError(f"{name}() in a kernel takes two or more values",
                               hint=f"hint: write {name}(a, b) with numbers or runtime scalars")
        for x in args:
            if not (is_number(x) or isinstance(x, Scalar)):
                raise CompileError(f"{name}() in a kernel compares numbers and runtime scalars, not {describe(x)}",
                                   hint=f"hint: write {name}(a, b); for tensors use asc.{name}(dst, src0, src1, "
                                        "count)")
        result = args[0]
        for x in args[1:]:
            if is_number(result) and is_number(x):
                result = max(result, x) if is_max else min(result, x)
                continue
            rt = promote(result.dtype if isinstance(result, Scalar) else literal_dtype(result, x.dtype),
                         x.dtype if isinstance(x, Scalar) else literal_dtype(x, result.dtype))
            a, b = to_scalar(result, rt), to_scalar(x, rt)
            bl = _b.current()
            result = Scalar(bl.create1("arith.max" if is_max else "arith.min", [a, b], bl.scalar_type(rt)), rt)
        return result

    f.__name__ = name
    return f


def _abs(x: Any) -> Any:
    if is_number(x):
        return abs(x)
    if isinstance(x, Scalar):
        neg = -x
        bl = _b.current()
        cond = binary("<", x, 0)
        return Scalar(bl.create1("arith.select", [cond, neg, x], bl.scalar_type(x.dtype)), x.dtype)
    raise CompileError(f"abs() in a kernel takes a number or a runtime scalar, not {describe(x)}",
                       hint="hint: write abs(x) with x a number or a scalar; for tensors use "
                            "asc.abs(dst, src, count)")


_RANGE = RANGE

# Python builtins a kernel may use, in their kernel meaning.
_BUILTINS: Dict[str, Any] = {
    "range": _RANGE, "int": _cast_builtin(dt.int32), "float": _cast_builtin(dt.float32),
    "bool": _cast_builtin(dt.bool_), "min": _min_max(False), "max": _min_max(True), "abs": _abs,
    "True": True, "False": False, "None": None, "len": len, "isinstance": isinstance,
}
_ALLOWED_PY_CALLABLES = (len, isinstance)
_BUILTIN_IDS = frozenset(id(v) for v in _BUILTINS.values() if callable(v)) | frozenset(
    id(v) for v in _ALLOWED_PY_CALLABLES)


_MISSING = object()


class Scope(dict):
    """The names of the function being compiled, with a journal of changes.

    A runtime `if` or loop compiles its body, then puts the names back as
    they were before it (and sets the values that flow out of it). Copying
    the whole scope for that would cost the number of live names per `if`
    and loop: quadratic in the size of a kernel. Instead every change after
    a mark() is journalled, and undo(mark) reverts exactly those."""

    __slots__ = ("_journal", "_open")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._journal: List[Tuple[str, Any]] = []
        self._open = 0  # marks not yet closed; nothing is journalled outside them

    def __setitem__(self, name: str, value: Any) -> None:
        if self._open:
            self._journal.append((name, dict.get(self, name, _MISSING)))
        dict.__setitem__(self, name, value)

    def __delitem__(self, name: str) -> None:
        if self._open:
            self._journal.append((name, dict.__getitem__(self, name)))
        dict.__delitem__(self, name)

    def pop(self, name: str, *default: Any) -> Any:
        if self._open and name in self:
            self._journal.append((name, dict.__getitem__(self, name)))
        return dict.pop(self, name, *default)

    def mark(self) -> int:
        """A point to undo to; close() it when the construct is compiled."""
        self._open += 1
        return len(self._journal)

    def undo(self, mark: int) -> None:
        """Reverts every change since mark (most recent first)."""
        journal = self._journal
        while len(journal) > mark:
            name, old = journal.pop()
            if old is _MISSING:
                dict.pop(self, name, None)
            else:
                dict.__setitem__(self, name, old)

    def close(self, mark: int) -> None:
        self._open -= 1
        if not self._open:
            self._journal.clear()

    def values_of(self, names: Sequence[str]) -> Dict[str, Any]:
        """The current values of names (_MISSING for an unbound one)."""
        return {n: dict.get(self, n, _MISSING) for n in names}


def _assigned_names(stmts: Sequence[ast.stmt]) -> List[str]:
    """Names stored to anywhere in stmts, in first-seen order."""
    seen: Dict[str, None] = {}
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                seen.setdefault(node.id, None)
    return list(seen)


class _ReturnFound(Exception):
    pass


class FunctionVisitor:
    """Builds the IR of one function (kernel or device function)."""

    def __init__(self, builder: _b.IRBuilder, fn: "JITFunction", scope: Dict[str, Any], is_kernel: bool):
        self.builder = builder
        self.fn = fn
        self.scope = Scope(scope)
        self.is_kernel = is_kernel
        self.filename = fn.filename
        self.line_offset = fn.first_line - 1
        self.col_offset = fn.col_offset
        self.returned: Optional[List[Any]] = None
        self.return_is_tuple = False
        # (function, name) -> value of every global or closure variable read while compiling;
        # a cached kernel is valid only while they keep their values
        self.globals_used: Dict[Tuple[Any, str], Any] = {}
        # names that exist only inside a runtime `if` branch or loop body: name -> (message, hint)
        self.scoped_out: Dict[str, Tuple[str, str]] = {}
        self.end_loc: Tuple[str, int, int] = (self.filename, self.line_offset + 1, 0)
        # shared with the visitors of the device functions this one calls
        self.budget = CompileBudget()
        self._assigned: Dict[Tuple[int, ...], List[str]] = {}

    # ---- locations and errors --------------------------------------------------
    def loc_of(self, node: ast.AST) -> Tuple[str, int, int]:
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.col_offset
        text = linecache.getline(self.filename, line)
        if not text.isascii():
            # ast columns count UTF-8 bytes; messages and carets count characters
            col = len(text.encode("utf-8")[:col].decode("utf-8", errors="ignore"))
        return (self.filename, line, col)

    def error(self, node: ast.AST, message: str, hint: Optional[str] = None,
              cls: type = CompileError) -> CompileError:
        f, line, col = self.loc_of(node)
        return cls(message, f, line, col, hint)

    def guarded(self, node: ast.AST, thunk: Callable[[], Any], hint: Optional[str] = None) -> Any:
        """Runs thunk with node's location, turning every error into a
        CompileError at node (with `hint` when the error has none).
        RecursionError passes: the statement reports it (visit_stmt), with
        the stack unwound; MemoryError and the BaseExceptions (Ctrl-C,
        SystemExit) are never turned into compile errors."""
        saved = self.builder.loc
        self.builder.loc = self.loc_of(node)
        hint = hint or _GENERIC_HINT
        try:
            return thunk()
        except CompileError as e:
            if not e.filename:
                raise self.error(node, e.message, e.hint or hint, type(e)) from None
            raise
        except NotImplementedError as e:
            raise self.error(node, str(e), hint, cls=UnsupportedError) from None
        except (RecursionError, MemoryError):
            raise
        except Exception as e:
            raise self.error(node, _exception_text(e), hint) from None
        finally:
            self.builder.loc = saved

    # ---- entry -----------------------------------------------------------------
    def visit_body(self, body: Sequence[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Return):
                if i != len(body) - 1:
                    raise self.error(stmt, "`return` must be the last statement of the function",
                                     "hint: assign the result to a variable and return it at the end")
                self.safely(stmt, lambda stmt=stmt: self.visit_return(stmt))
                return
            self.visit_stmt(stmt)

    def visit_stmt(self, stmt: ast.stmt) -> None:
        self.budget.statements -= 1
        if self.budget.statements < 0:
            raise self.error(stmt, f"the kernel unrolls to more than {self.budget.limit} statements while "
                                   "compiling (compile-time loops: asc.static_range, or `while` and `for` on "
                                   "compile-time values)",
                             "hint: use range(...) with a runtime bound for long loops; unroll only short ones")
        method = getattr(self, "visit_" + type(stmt).__name__, None)
        if method is not None:
            self.safely(stmt, lambda: method(stmt))
            return
        hint = _REJECTED_STMTS.get(type(stmt))
        if hint:
            raise self.error(stmt, *_split_hint(hint))
        raise self.error(stmt, f"{type(stmt).__name__} statements are not supported in kernels", _SUPPORTED_HINT)

    def safely(self, stmt: ast.stmt, thunk: Callable[[], None]) -> None:
        """Compiles one statement; the safety net under every API check: any
        other exception escaping it becomes a CompileError at the statement,
        naming the API it calls. An inner statement reports its own errors
        (they arrive here as CompileErrors with a location and pass)."""
        try:
            thunk()
        except CompileError as e:
            if not e.filename:
                raise self.error(stmt, e.message, e.hint, type(e)) from None
            raise
        except NotImplementedError as e:
            raise self.error(stmt, str(e), cls=UnsupportedError) from None
        except RecursionError:
            # the stack is unwound to this statement: enough room to report it
            raise self.error(stmt, "this statement nests too deeply to compile (an expression or a chain of "
                                   "calls deeper than Python's recursion limit)",
                             "hint: split the expression into several assignments of intermediate "
                             "variables") from None
        except MemoryError:
            raise
        except Exception as e:
            api = _called_api(stmt)
            where = f" (a call of `{api}`)" if api else ""
            hint = (f"hint: check the arguments of `{api}` against docs/api.md" if api else
                    "hint: docs/api.md lists the kernel syntax and API; rewrite this line with those forms")
            raise self.error(stmt, f"cannot compile this statement{where}: {_exception_text(e)}", hint) from None

    # ---- simple statements -----------------------------------------------------------
    def visit_Pass(self, stmt: ast.Pass) -> None:
        pass

    def visit_Expr(self, stmt: ast.Expr) -> None:
        if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return  # docstring
        self.eval(stmt.value)

    def visit_Assign(self, stmt: ast.Assign) -> None:
        value = self.eval(stmt.value)
        for target in stmt.targets:
            self.assign(target, value)

    def visit_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is None:
            return  # a bare annotation declares nothing
        value = self.eval(stmt.value)
        ann = self.guarded(stmt.annotation, lambda: self.eval(stmt.annotation))
        if isinstance(ann, dt.DataType):
            value = self.guarded(stmt, lambda: to_scalar(value, ann))
        self.assign(stmt.target, value)

    def visit_Assert(self, stmt: ast.Assert) -> None:
        """`assert` on compile-time values (dtypes, asc.ConstExpr parameters,
        constants) is checked while compiling, as upstream pyasc does; an
        assertion on a runtime value is an error."""
        cond = self.eval(stmt.test)
        self.check_condition(stmt.test, cond)
        if isinstance(cond, IRValue):
            raise self.error(stmt, "`assert` on a runtime value is not supported in kernels",
                             "hint: check the values in the host code before the launch; `assert` in a kernel "
                             "can only test compile-time values (dtypes, asc.ConstExpr parameters, constants)")
        if cond:
            return
        text = ""
        if stmt.msg is not None:
            try:
                text = f": {self.eval(stmt.msg)}"
            except CompileError:
                text = f": {ast.unparse(stmt.msg)}"
        raise self.error(stmt, f"assertion failed while compiling the kernel{text}",
                         f"hint: the assertion `{ast.unparse(stmt.test)}` is false for these arguments")

    def visit_AugAssign(self, stmt: ast.AugAssign) -> None:
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "only plain names can be targets of augmented assignment",
                             "hint: for tensors use set_value(index, value)")
        current = self.lookup(stmt.target.id, stmt.target)
        rhs = self.eval(stmt.value)
        value = self.guarded(stmt, lambda: self.apply_binop(stmt.op, current, rhs, stmt), _OPERAND_HINT)
        self.assign(stmt.target, value)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, IRValue):
                handle = getattr(value, "handle", None)
                if handle is None:
                    value.name_hint = target.id  # named when its IR value is created
                elif is_ir_handle(handle) and handle.name is None:
                    handle.name = target.id
            self.scope[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)):
                raise self.error(target, f"cannot unpack {describe(value)} into {len(target.elts)} names",
                                 "hint: only tuples and lists can be unpacked")
            if len(value) != len(target.elts):
                raise self.error(target, f"cannot unpack {len(value)} values into {len(target.elts)} names",
                                 "hint: give as many names as there are values")
            for t, v in zip(target.elts, value):
                self.assign(t, v)
            return
        if isinstance(target, ast.Subscript):
            raise self.error(target, "assignment to a subscript is not supported",
                             "hint: write tensor.set_value(index, value)")
        raise self.error(target, "only names and tuples of names can be assigned in kernels",
                         "hint: assign to a plain variable; write tensor elements with set_value(index, value)")

    def visit_Return(self, stmt: ast.Return) -> None:
        raise self.error(stmt, "`return` must be the last statement of the function",
                         "hint: assign the result to a variable and return it at the end")

    def visit_return(self, stmt: ast.Return) -> None:
        if stmt.value is None:
            self.returned = []
            return
        value = self.eval(stmt.value)
        if self.is_kernel:
            raise self.error(stmt, "a kernel cannot return a value",
                             "hint: write results into a GlobalTensor with set_value or asc.data_copy")
        values = list(value) if isinstance(value, tuple) else [value]
        out = []
        for v in values:
            if is_number(v):
                v = self.guarded(stmt, lambda v=v: to_scalar(v))
            if not isinstance(v, IRValue) or v.handle is None:
                raise self.error(stmt, f"a device function can return runtime values and numbers, "
                                       f"not {type(v).__name__}",
                                 "hint: pass compile-time values to the function as asc.ConstExpr instead")
            out.append(v)
        self.returned = out
        self.return_is_tuple = isinstance(value, tuple)

    def visit_With(self, stmt: ast.With) -> None:
        raise self.error(stmt, "`with` is only supported over the asc API's own context managers, "
                               "and none of them is implemented yet",
                         "hint: write the body without `with`; open files and other resources in the host code")

    # ---- control flow ---------------------------------------------------------------------
    def check_condition(self, node: ast.expr, cond: Any) -> None:
        """A tuple or list holding runtime values is no condition: in Python
        it is always true (`while (a, b):` for `while a and b:`)."""
        if isinstance(cond, (tuple, list)) and any(isinstance(v, IRValue) for v in cond):
            raise self.error(node, f"{describe(cond)} with runtime values cannot be used as a condition (it is "
                                   "always true in Python)",
                             "hint: combine conditions with `and` / `or`, e.g. `while a and b:`")

    def visit_If(self, stmt: ast.If) -> None:
        cond = self.eval(stmt.test)
        self.check_condition(stmt.test, cond)
        if not isinstance(cond, IRValue):
            # a compile-time condition: only the taken branch exists
            self.visit_nested(stmt.body if cond else stmt.orelse)
            return
        cond = self.guarded(stmt.test, lambda: self.to_bool(cond))
        self.build_if(stmt, cond, stmt.body, stmt.orelse)

    def visit_nested(self, body: Sequence[ast.stmt]) -> None:
        for s in body:
            if isinstance(s, ast.Return):
                raise self.error(s, "`return` inside control flow is not supported",
                                 "hint: assign the result to a variable and return it at the end of the function")
            self.visit_stmt(s)

    def to_bool(self, value: Any) -> Scalar:
        if isinstance(value, Scalar):
            return value if value.dtype == dt.bool_ else binary("!=", value, 0)
        raise CompileError(f"{describe(value)} cannot be used as a condition",
                           hint="hint: conditions are numbers or runtime scalars, e.g. `if n > 0:` or "
                                "`if t.get_value(i) != 0:`")

    def build_if(self, stmt: ast.If, cond: Scalar, then_body: Sequence[ast.stmt],
                 else_body: Sequence[ast.stmt]) -> None:
        b = self.builder
        assigned = self.assigned_names(list(then_body) + list(else_body))
        before = self.scope.values_of(assigned)  # only what the branches can change
        mark = self.scope.mark()
        op = self.guarded(stmt, lambda: b.create("scf.if", [cond], [], regions=[[], []]))
        branch_vals = []
        for r, body in enumerate((then_body, else_body)):
            with b.insertion(op.region(r)):
                self.visit_nested(body)
            branch_vals.append(self.scope.values_of(assigned))
            self.scope.undo(mark)
        names = [n for n in assigned
                 if (before[n] is not _MISSING or all(s[n] is not _MISSING for s in branch_vals))
                 and not all((s[n] if s[n] is not _MISSING else before[n]) is before[n] for s in branch_vals)]
        merged_types = []
        yields: List[List[Any]] = [[], []]
        for n in names:
            vals = [s[n] if s[n] is not _MISSING else before[n] for s in branch_vals]
            vals = [self.require_runtime(v, n, stmt) for v in vals]
            ty = self.merge_type(n, vals, stmt)
            merged_types.append(ty)
            for r in range(2):
                with b.insertion(op.region(r)):
                    yields[r].append(self.coerce(vals[r], ty, n, stmt))
        for r in range(2):
            with b.insertion(op.region(r)):
                self.guarded(stmt, lambda r=r: b.create("scf.yield", yields[r]))
        op.set_result_types([v.handle.type for v in yields[0]])
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)
        # names bound in only one branch are not visible after the `if`
        merged = set(names)
        for n in assigned:
            if n not in merged and before[n] is _MISSING:
                self.scope.pop(n, None)
                self.scoped_out[n] = (f"`{n}` is assigned in only one branch of a runtime `if`",
                                      "hint: assign it before the `if` (or in both branches)")
        self.scope.close(mark)

    def require_runtime(self, v: Any, name: str, node: ast.AST) -> Any:
        if isinstance(v, IRValue) and v.handle is not None:
            return v
        if is_number(v):
            return v
        raise self.error(node, f"`{name}` holds a compile-time {type(v).__name__} and is reassigned under a "
                               "runtime condition or loop; only numbers and runtime values can be",
                         "hint: decide it with a compile-time condition (an asc.ConstExpr parameter), or use "
                         "another name inside the loop or branch")

    def merge_type(self, name: str, vals: Sequence[Any], node: ast.AST) -> Any:
        """The IR type a variable has after the branches of a runtime `if` join:
        the promotion of the scalar types of all branches (as the arithmetic
        operators promote), or the one type of a non-scalar value."""
        others = [v for v in vals if isinstance(v, IRValue) and not isinstance(v, Scalar)]
        if others:
            ty = others[0].handle.type
            if len(others) != len(vals) or any(v.handle.type != ty for v in others):
                kinds = " and ".join(_describe(v) for v in vals)
                raise self.error(node, f"`{name}` holds different kinds of values in the branches of a runtime `if`: "
                                       f"{kinds}", "hint: assign values of one type in every branch")
            return ty
        scalars = [v for v in vals if isinstance(v, Scalar)]
        if scalars:
            rt = scalars[0].dtype
            for v in scalars[1:]:
                rt = promote(rt, v.dtype)
            for v in vals:
                if not isinstance(v, Scalar):
                    rt = promote(rt, literal_dtype(v, rt))
        else:  # all Python numbers: the promotion of their default runtime types
            rt = default_dtype(vals[0])
            for v in vals[1:]:
                rt = promote(rt, default_dtype(v))
        return self.builder.scalar_type(rt)

    def coerce(self, v: Any, ty: Any, name: str, node: ast.AST) -> Any:
        if isinstance(v, IRValue):
            if v.handle.type == ty:
                return v
            if not isinstance(v, Scalar) or ty.kind != "scalar":
                raise self.error(node, f"`{name}` changes type inside control flow: {ty} and {v.handle.type}",
                                 "hint: assign values of one type to it")
            return self.guarded(node, lambda: v.cast(dt.from_name(ty.dtype)))
        return self.guarded(node, lambda: to_scalar(v, dt.from_name(ty.dtype)))

    def loop_yield(self, name: str, ty: Any, node: ast.AST) -> Any:
        """The value a loop-carried variable has at the end of the body,
        converted to the type it entered the loop with. Widening it inside
        the loop (int32 to float32, int32 to int64, ...) is an error: the
        carried value cannot change type and would silently lose bits."""
        v = self.require_runtime(self.scope[name], name, node)
        if ty.kind == "scalar" and (is_number(v) or isinstance(v, Scalar)):
            ct = dt.from_name(ty.dtype)
            nt = v.dtype if isinstance(v, Scalar) else literal_dtype(v, ct)
            if promote(ct, nt) != ct:
                init = "0.0" if nt == dt.float32 else f"asc.{nt.name}(0)"
                raise self.error(node, f"`{name}` is {ct.name} when the loop starts but becomes {nt.name} inside it; "
                                       "a loop-carried variable keeps the type it enters the loop with",
                                 f"hint: give it the wider type before the loop, e.g. `{name} = {init}`")
        return self.coerce(v, ty, name, node)

    def hide_loop_locals(self, body: Sequence[ast.stmt], before: Dict[str, Any], loop_var: Optional[str]) -> None:
        """Names first bound inside a runtime loop do not exist after it
        (before: the values of the body's assigned names before the loop)."""
        for n in self.assigned_names(body):
            if before.get(n, _MISSING) is _MISSING and n != loop_var:
                self.scoped_out[n] = (f"`{n}` is assigned only inside a runtime loop and does not exist after it",
                                      "hint: assign it before the loop")
        if loop_var is not None:
            self.scope.pop(loop_var, None)
            self.scoped_out[loop_var] = (
                f"`{loop_var}` is the variable of a runtime loop and does not exist after it",
                "hint: copy the value you need into a variable assigned before the loop")

    def carried_names(self, body: Sequence[ast.stmt], extra: Sequence[ast.stmt] = ()) -> List[str]:
        return [n for n in self.assigned_names(list(body) + list(extra)) if n in self.scope]

    def assigned_names(self, stmts: Sequence[ast.stmt]) -> List[str]:
        """_assigned_names, remembered: an unrolled loop asks for the same bodies in every copy.
        (Keyed by the statements' ids: the AST lives as long as this compilation.)"""
        key = tuple(id(s) for s in stmts)
        names = self._assigned.get(key)
        if names is None:
            names = self._assigned[key] = _assigned_names(stmts)
        return names

    def visit_For(self, stmt: ast.For) -> None:
        if stmt.orelse:
            raise self.error(stmt, "`for ... else` is not supported in kernels",
                             "hint: move the `else` body after the loop")
        it = stmt.iter
        kind = self.eval(it.func) if isinstance(it, ast.Call) else None
        if not isinstance(kind, LoopRange):
            raise self.error(it, "kernels can only loop over range(...)",
                             "hint: write `for i in range(n):` (or asc.static_range(n) to unroll)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, f"{kind.name}() takes 1 to 3 positional arguments",
                             f"hint: write {kind.name}(stop), {kind.name}(start, stop) or "
                             f"{kind.name}(start, stop, step)")
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "the loop variable must be a single name",
                             "hint: write `for i in range(...)` and unpack inside the body")
        args = [self.eval(a) for a in it.args]
        if kind.unrolled:
            self.unrolled_for(stmt, args)
            return
        if len(args) == 1:
            args = [0, args[0], 1]
        elif len(args) == 2:
            args = [args[0], args[1], 1]
        for a, node in zip(args, it.args if len(it.args) == 3 else [it] * 3):
            if not (isinstance(a, int) and not isinstance(a, bool)) and not (
                    isinstance(a, Scalar) and a.dtype.is_int()):
                raise self.error(node, f"range() arguments must be integers, got {_describe(a)}",
                                 "hint: convert with int(...) or asc.int32(...)")
        if isinstance(args[2], int) and args[2] == 0:
            raise self.error(it, "range() step must not be zero", "hint: use a positive or negative step")
        b = self.builder
        iv_type = dt.int32
        for a in args:
            if isinstance(a, Scalar):
                iv_type = promote(iv_type, a.dtype)
            elif default_dtype(a) == dt.int64:
                iv_type = promote(iv_type, dt.int64)  # a bound beyond int32: count in int64, as Python would
        bounds = [self.guarded(it, lambda a=a: to_scalar(a, iv_type),
                               f"hint: the loop counts in {iv_type.name}: give bounds that fit it") for a in args]
        loop_var = stmt.target.id
        names = [n for n in self.carried_names(stmt.body) if n != loop_var]
        inits = [self.guarded(stmt, lambda n=n: self.loop_value(n, stmt)) for n in names]
        types = [v.handle.type for v in inits]
        op = self.guarded(stmt, lambda: b.create("scf.for", bounds + inits, types,
                                                 regions=[[b.scalar_type(iv_type)] + types]))
        block = op.region(0)
        before = self.scope.values_of(self.assigned_names(stmt.body))
        mark = self.scope.mark()
        args_in = block.args
        args_in[0].name = loop_var
        self.scope[loop_var] = Scalar(args_in[0], iv_type)
        for n, a in zip(names, args_in[1:]):
            a.name = n
            self.scope[n] = wrap_ir(a)
        with b.insertion(block):
            self.visit_nested(stmt.body)
            ys = [self.loop_yield(n, t, stmt) for n, t in zip(names, types)]
            self.guarded(stmt, lambda: b.create("scf.yield", ys))
        self.check_loop_constants(before, names + [loop_var], stmt)
        self.scope.undo(mark)
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)
        self.hide_loop_locals(stmt.body, before, loop_var)
        self.scope.close(mark)

    def unrolled_for(self, stmt: ast.For, args: List[Any]) -> None:
        """`for i in asc.static_range(...)`: the body is compiled once per
        iteration with `i` a Python int, as in upstream pyasc."""
        it = stmt.iter
        assert isinstance(it, ast.Call) and isinstance(stmt.target, ast.Name)
        for a, node in zip(args, it.args):
            if isinstance(a, bool) or not isinstance(a, int):
                raise self.error(node, f"static_range() arguments must be compile-time integers, got {_describe(a)}",
                                 "hint: use range(...) for a loop with runtime bounds")
        try:
            values = range(*args)
        except ValueError as e:
            raise self.error(it, f"static_range(): {e}", "hint: use a positive or negative step") from None
        if len(values) > _MAX_STATIC_WHILE:
            raise self.error(it, f"static_range() of {len(values)} iterations is too long to unroll",
                             "hint: use range(...) for a runtime loop")
        for i in values:
            self.scope[stmt.target.id] = i
            self.visit_nested(stmt.body)

    def loop_value(self, name: str, node: ast.AST) -> Any:
        """The runtime value a variable enters a loop with."""
        v = self.require_runtime(self.scope[name], name, node)
        if is_number(v):
            v = to_scalar(v)
            v.handle.name = name
        return v

    def check_loop_constants(self, before: Dict[str, Any], carried: Sequence[str], node: ast.AST) -> None:
        """A name bound before a runtime loop and not carried through it (a
        compile-time value) must not be reassigned inside it (before: the
        values of the body's assigned names before the loop)."""
        carried_set = set(carried)
        for n, old in before.items():
            if old is _MISSING or n in carried_set:
                continue
            if dict.get(self.scope, n, _MISSING) is not old:
                raise self.error(node, f"`{n}` holds a compile-time {type(old).__name__} and is reassigned "
                                       "inside a runtime loop",
                                 "hint: use a new name inside the loop")

    def visit_While(self, stmt: ast.While) -> None:
        if stmt.orelse:
            raise self.error(stmt, "`while ... else` is not supported in kernels",
                             "hint: move the `else` body after the loop")
        cond = self.eval(stmt.test)
        self.check_condition(stmt.test, cond)
        if not isinstance(cond, IRValue):
            # a compile-time loop: unrolled while its condition holds
            n = 0
            while cond:
                n += 1
                if n > _MAX_STATIC_WHILE:
                    raise self.error(stmt, f"compile-time `while` loop ran more than {_MAX_STATIC_WHILE} times",
                                     "hint: make its condition depend on a runtime value to get a runtime loop")
                self.visit_nested(stmt.body)
                cond = self.eval(stmt.test)
                self.check_condition(stmt.test, cond)
                if isinstance(cond, IRValue):
                    raise self.error(stmt.test, "the `while` condition became a runtime value inside the loop",
                                     "hint: make the condition a runtime value before the loop (e.g. "
                                     "`i = asc.int32(0)`)")
            return
        b = self.builder
        names = self.carried_names(stmt.body)
        inits = [self.guarded(stmt, lambda n=n: self.loop_value(n, stmt)) for n in names]
        types = [v.handle.type for v in inits]
        op = self.guarded(stmt, lambda: b.create("scf.while", inits, types, regions=[types, types]))
        outer = self.scope.values_of(self.assigned_names(stmt.body))
        mark = self.scope.mark()
        before_block, after_block = op.region(0), op.region(1)
        for n, a in zip(names, before_block.args):
            a.name = n
            self.scope[n] = wrap_ir(a)
        with b.insertion(before_block):
            c = self.eval(stmt.test)
            c = self.guarded(stmt.test, lambda: self.to_bool(c) if isinstance(c, IRValue) else to_scalar(bool(c)))
            fwd = [self.scope[n] for n in names]
            self.guarded(stmt, lambda: b.create("scf.condition", [c] + fwd))
        for n, a in zip(names, after_block.args):
            a.name = n
            self.scope[n] = wrap_ir(a)
        with b.insertion(after_block):
            self.visit_nested(stmt.body)
            ys = [self.loop_yield(n, t, stmt) for n, t in zip(names, types)]
            self.guarded(stmt, lambda: b.create("scf.yield", ys))
        self.check_loop_constants(outer, names, stmt)
        self.scope.undo(mark)
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)
        self.hide_loop_locals(stmt.body, outer, None)
        self.scope.close(mark)

    # ---- expressions --------------------------------------------------------------------------
    def eval(self, node: ast.expr) -> Any:
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        hint = _REJECTED_EXPRS.get(type(node))
        if hint:
            raise self.error(node, *_split_hint(hint))
        raise self.error(node, f"{type(node).__name__} expressions are not supported in kernels", _SUPPORTED_HINT)

    def eval_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.scope:
            return self.scope[name]
        if name in self.scoped_out:
            raise self.error(node, *self.scoped_out[name])
        found, value = self.fn.resolve_global(name)
        if found:
            self.globals_used[(self.fn, name)] = value
            return _plain(value)
        if name in _BUILTINS:
            return _BUILTINS[name]
        raise self.error(node, f"name `{name}` is not defined",
                         "hint: assign it before this line, make it a kernel parameter, or define it at module level")

    def eval_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def eval_Attribute(self, node: ast.Attribute) -> Any:
        value = self.eval(node.value)

        def get() -> Any:
            try:
                return getattr(value, node.attr)
            except AttributeError:
                if _has_attribute(value, node.attr):
                    raise  # a property failing inside: its own message
                raise CompileError(f"`{_unparse(node.value)}` ({describe(value)}) has no attribute `{node.attr}`",
                                   hint=_attribute_hint(value, node.attr)) from None

        return self.guarded(node, get)

    def eval_Tuple(self, node: ast.Tuple) -> Any:
        return tuple(self.eval(e) for e in node.elts)

    def eval_List(self, node: ast.List) -> Any:
        return [self.eval(e) for e in node.elts]

    def eval_Slice(self, node: ast.Slice) -> Any:
        part = [None if p is None else self.eval(p) for p in (node.lower, node.upper, node.step)]
        return slice(*part)

    def eval_Index(self, node: Any) -> Any:  # Python < 3.9
        return self.eval(node.value)

    def eval_Subscript(self, node: ast.Subscript) -> Any:
        value = self.eval(node.value)
        index = self.eval(node.slice)

        def get() -> Any:
            if not (hasattr(type(value), "__getitem__") or (isinstance(value, type) and
                                                            hasattr(value, "__class_getitem__"))):
                raise CompileError(f"`{_unparse(node.value)}` ({describe(value)}) cannot be subscripted",
                                   hint="hint: index tuples and lists with compile-time integers, tensors with "
                                        "t[offset:] or t.get_value(i)")
            if isinstance(index, IRValue) and isinstance(value, (tuple, list, np.ndarray)):
                raise CompileError(f"{describe(value)} can only be indexed by compile-time integers, not by "
                                   f"{describe(index)}", hint="hint: index it with numbers, asc.ConstExpr "
                                   "parameters or static_range variables, or put the values in a tensor and read "
                                   "them with t.get_value(i)")
            try:
                return _plain(value[index])
            except (IndexError, KeyError) as e:
                if not isinstance(index, int):
                    raise
                raise CompileError(f"index {_short(repr(index))} is out of range for {describe(value)}",
                                   hint="hint: indices go from 0 to the length - 1 (negative ones count from the "
                                        "end)") from e

        return self.guarded(node, get, "hint: index tuples and lists with compile-time integers (a number, an "
                                       "asc.ConstExpr parameter), tensors with t[offset:] or t.get_value(i)")

    def apply_binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        entry = _BINOPS.get(type(op))
        if entry is None:
            raise self.error(node, f"operator {type(op).__name__} is not supported in kernels",
                             "hint: use + - * / // % & | ^ << >>")
        sym, fn = entry
        for v in (a, b):
            if isinstance(v, enum.Enum):
                raise CompileError(f"operator {sym}: {describe(v)} is an enum member, not a number",
                                   hint="hint: pass enum members to the API as they are; compare them with == or !=")
        if isinstance(a, Scalar) or isinstance(b, Scalar):
            if sym == "**":
                raise UnsupportedError("`**` on runtime values is not supported",
                                       hint="hint: multiply explicitly, e.g. x * x")
        else:
            _check_const_size(sym, a, b)
        try:
            return fn(a, b)
        except ArithmeticError as e:  # compile-time arithmetic: 1 // 0, 10.0 ** 400
            reason = "division by zero" if isinstance(e, ZeroDivisionError) else "the result is out of range"
            raise CompileError(f"compile-time {sym} of {describe(a)} and {describe(b)}: {reason}",
                               hint="hint: check the constants of this expression (kernels cannot divide by zero "
                                    "and compute in at most 64 bits)") from None
        except TypeError as e:
            if not str(e).startswith(_PY_OPERATOR_ERRORS):
                raise
            raise CompileError(f"operator {sym} is not supported between {describe(a)} and {describe(b)}",
                               hint=_OPERAND_HINT) from None

    def eval_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self.eval(node.left), self.eval(node.right)
        return self.guarded(node, lambda: self.apply_binop(node.op, a, b, node), _OPERAND_HINT)

    def eval_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.eval(node.operand)

        def run() -> Any:
            if isinstance(node.op, ast.Not):
                if isinstance(v, IRValue):
                    return self.to_bool(v).logical_not()
                return not v
            if isinstance(v, enum.Enum):
                raise CompileError(f"{describe(v)} is an enum member, not a number",
                                   hint="hint: pass enum members to the API as they are; compare them with == or !=")
            try:
                if isinstance(node.op, ast.USub):
                    return -v
                if isinstance(node.op, ast.UAdd):
                    return +v
                return ~v
            except TypeError as e:
                if not str(e).startswith(_PY_OPERATOR_ERRORS):
                    raise
                sym = {ast.USub: "-", ast.UAdd: "+"}.get(type(node.op), "~")
                raise CompileError(f"unary {sym} is not supported on {describe(v)}", hint=_OPERAND_HINT) from None

        return self.guarded(node, run, _OPERAND_HINT)

    def eval_BoolOp(self, node: ast.BoolOp) -> Any:
        values = [self.eval(v) for v in node.values]
        if not any(isinstance(v, IRValue) for v in values):
            result = values[0]
            for v in values[1:]:
                result = (result and v) if isinstance(node.op, ast.And) else (result or v)
            return result

        def run() -> Any:
            # both sides are evaluated (no short circuit) and combined as booleans
            bools = [self.to_bool(v) if isinstance(v, IRValue) else bool(v) for v in values]
            result = bools[0]
            for v in bools[1:]:
                result = binary("&" if isinstance(node.op, ast.And) else "|", result, v)
            return result if isinstance(result, Scalar) else to_scalar(result)

        return self.guarded(node, run)

    def eval_Compare(self, node: ast.Compare) -> Any:
        left = self.eval(node.left)
        result: Any = None
        for op, comp in zip(node.ops, node.comparators):
            right = self.eval(comp)
            entry = _CMPOPS.get(type(op))
            if entry is None:
                raise self.error(node, f"comparison {type(op).__name__} is not supported in kernels",
                                 "hint: use == != < <= > >=")
            sym, fn = entry
            if sym in ("is", "is not") and (isinstance(left, Scalar) or isinstance(right, Scalar)):
                raise self.error(node, "`is` cannot compare runtime values", "hint: use == or !=")
            part = self.guarded(node, lambda left=left, right=right, fn=fn, sym=sym: _compare(sym, fn, left, right),
                                _OPERAND_HINT)
            if result is None:
                result = part
            elif isinstance(result, IRValue) or isinstance(part, IRValue):
                result = self.guarded(node, lambda result=result, part=part: binary(
                    "&", self.to_bool(result) if isinstance(result, IRValue) else bool(result),
                    self.to_bool(part) if isinstance(part, IRValue) else bool(part)))
            else:
                result = result and part
            left = right
        return result

    def eval_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.eval(node.test)
        self.check_condition(node.test, cond)
        if not isinstance(cond, IRValue):
            return self.eval(node.body if cond else node.orelse)
        a, b = self.eval(node.body), self.eval(node.orelse)

        def run() -> Any:
            c = self.to_bool(cond)
            if not all(isinstance(v, Scalar) or is_number(v) for v in (a, b)):
                raise TypeError("a runtime conditional expression must choose between numbers")
            ta = a.dtype if isinstance(a, Scalar) else (literal_dtype(a, b.dtype) if isinstance(b, Scalar)
                                                        else default_dtype(a))
            tb = b.dtype if isinstance(b, Scalar) else (literal_dtype(b, a.dtype) if isinstance(a, Scalar)
                                                        else default_dtype(b))
            rt = promote(ta, tb)
            bl = self.builder
            h = bl.create1("arith.select", [c, to_scalar(a, rt), to_scalar(b, rt)], bl.scalar_type(rt))
            return Scalar(h, rt)

        return self.guarded(node, run)

    def eval_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.error(a, "`*args` unpacking is not supported in kernels",
                                 "hint: pass the arguments one by one, e.g. f(t[0], t[1])")
        args = [self.eval(a) for a in node.args]
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
        module = getattr(func, "__module__", None) or ""
        self_obj = getattr(func, "__self__", None)
        if self_obj is not None and not isinstance(self_obj, type):
            module = type(self_obj).__module__
        if not isinstance(module, str):
            return False
        return module.startswith("asc.language") or (
            isinstance(func, type) and str(func.__module__).startswith("asc.language"))

    # ---- device functions ---------------------------------------------------------------------
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
            elif isinstance(value, IRValue):
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

    # ---- whole function ----------------------------------------------------------------------------
    def run(self) -> None:
        fdef = self.fn.parse()
        # parsing fixes the function's file, first line and indentation
        self.filename = self.fn.filename
        self.line_offset = self.fn.first_line - 1
        self.col_offset = self.fn.col_offset
        self.end_loc = self.loc_of(fdef.body[-1]) if fdef.body else self.loc_of(fdef)
        self.visit_body(fdef.body)


def _plain(value: Any) -> Any:
    """A NumPy scalar (a module constant such as np.int32(8), an element of a
    NumPy lookup table) as the Python number it holds."""
    if isinstance(value, np.generic) and isinstance(value, (np.number, np.bool_)):
        return value.item()
    return value


def _describe(v: Any) -> str:
    return describe(v)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _unparse(node: ast.AST) -> str:
    """Source text of an expression for a message (short, and safe on any depth)."""
    try:
        return _short(ast.unparse(node))
    except RecursionError:
        return "<expression>"


def _exception_text(e: BaseException) -> str:
    """The message of an exception the API or Python raised while compiling."""
    if isinstance(e, KeyError):
        return f"key {_short(str(e))} not found"
    return str(e) or type(e).__name__


def _called_api(stmt: ast.stmt) -> Optional[str]:
    """The function the statement calls (its outermost call), for messages."""
    roots = [v for f, v in ast.iter_fields(stmt) if isinstance(v, ast.expr) and f not in ("annotation",)]
    for root in roots:
        for n in ast.walk(root):
            if isinstance(n, ast.Call):
                return _unparse(n.func)
    return None


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


# the start of the TypeErrors Python's operators raise for operands they do not support
_PY_OPERATOR_ERRORS = ("unsupported operand", "bad operand", "can only concatenate", "can't multiply",
                       "can't concat", "'<' not supported", "'<=' not supported", "'>' not supported",
                       "'>=' not supported")
_OPERAND_HINT = ("hint: arithmetic and comparisons work on numbers and runtime scalars (read a tensor element "
                 "with t.get_value(i)); an address or a tensor takes an integer offset: x + n, t[n:]")


def _compare(sym: str, fn: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    try:
        return fn(a, b)
    except TypeError as e:
        if not str(e).startswith(_PY_OPERATOR_ERRORS):
            raise
        raise CompileError(f"cannot compare {describe(a)} and {describe(b)} with {sym}",
                           hint=_OPERAND_HINT) from None


def _too_large(what: str) -> CompileError:
    return CompileError(f"the compile-time value of this expression is too large ({what})",
                        hint="hint: kernels compute in at most 64 bits; check the constants of this expression")


def _check_const_size(sym: str, a: Any, b: Any) -> None:
    """Refuses compile-time arithmetic whose result would be huge (and take
    minutes or all memory to compute): big powers and shifts, repetitions."""
    ints = isinstance(a, int) and isinstance(b, int)
    if sym == "**" and ints and b > 0 and abs(a) > 1 and b * a.bit_length() > _MAX_CONST_INT_BITS:
        raise _too_large(f"a power of more than {_MAX_CONST_INT_BITS} bits")
    if sym == "<<" and ints and a != 0 and b + a.bit_length() > _MAX_CONST_INT_BITS:
        raise _too_large(f"a shift to more than {_MAX_CONST_INT_BITS} bits")
    if sym == "*" and ints and a.bit_length() + b.bit_length() > _MAX_CONST_INT_BITS:
        raise _too_large(f"a product of more than {_MAX_CONST_INT_BITS} bits")
    seqs = (str, bytes, tuple, list)
    if sym == "*" and (isinstance(a, seqs) and isinstance(b, int) or isinstance(b, seqs) and isinstance(a, int)):
        seq, n = (a, b) if isinstance(a, seqs) else (b, a)
        if len(seq) * n > _MAX_CONST_SEQUENCE:
            raise _too_large(f"a sequence of more than {_MAX_CONST_SEQUENCE} elements")
    if sym == "+" and isinstance(a, seqs) and isinstance(b, seqs) and len(a) + len(b) > _MAX_CONST_SEQUENCE:
        raise _too_large(f"a sequence of more than {_MAX_CONST_SEQUENCE} elements")


_INTERNAL_ATTRIBUTES = {"handle", "to_ir", "name_hint"}


def _public_attributes(value: Any) -> List[str]:
    if isinstance(value, types.ModuleType):
        names = list(getattr(value, "__all__", None) or [n for n in vars(value) if not n.startswith("_")])
    else:
        try:
            names = [n for n in dir(value) if not n.startswith("_")]
        except Exception:
            return []
    return sorted(n for n in names if n not in _INTERNAL_ATTRIBUTES)


def _has_attribute(value: Any, attr: str) -> bool:
    """True if attr is declared on value's class (a property that failed)."""
    cls = value if isinstance(value, type) else type(value)
    return any(attr in vars(k) for k in getattr(cls, "__mro__", ()))


def _attribute_hint(value: Any, attr: str) -> str:
    names = _public_attributes(value)
    close = difflib.get_close_matches(attr, names, 3)
    if isinstance(value, types.ModuleType):
        text = f"did you mean {', '.join('`' + c + '`' for c in close)}? " if close else ""
        return f"hint: {text}docs/api.md lists what {value.__name__} provides"
    if close:
        return f"hint: did you mean {', '.join('`' + c + '`' for c in close)}?"
    module = str(getattr(value if isinstance(value, type) else type(value), "__module__", ""))
    if not module.startswith("asc.language") or isinstance(value, LoopRange):
        return ("hint: in a kernel only the asc API's objects have attributes (x.dtype, t.get_value, "
                "pipe.init_buffer, asc.float32, ...)")
    if names and len(names) <= 20:
        return f"hint: {describe(value)} has: {', '.join(names)}"
    return "hint: check the name against docs/api.md"


def _split_hint(text: str) -> Tuple[str, Optional[str]]:
    """'what is wrong; what to write' → (message, 'hint: what to write')."""
    msg, _, rest = text.partition(";")
    return msg, ("hint:" + rest) if rest else None


def _const_key(value: Any) -> Any:
    """A hashable, value-based key for a compile-time argument."""
    if isinstance(value, (int, float, bool, str, type(None))):
        return (type(value).__name__, value)
    if isinstance(value, (tuple, list)):
        return tuple(_const_key(v) for v in value)
    if isinstance(value, dt.DataType):
        return ("dtype", value.name)
    return (type(value).__qualname__, repr(value))


def source_of(fn: Callable[..., Any]) -> Tuple[ast.FunctionDef, str, int, int]:
    """The FunctionDef of fn, its file, first line and the column offset to
    add to the AST's columns. The AST's line numbers count from the first line.

    An indented function (defined inside another function or a class) is
    parsed as the body of an `if True:` rather than dedented, so that its
    columns stay those of the file and a multi-line string reaching column 0
    does not break the parse."""
    lines, first_line = inspect.getsourcelines(fn)
    src = "".join(lines)
    filename = inspect.getsourcefile(fn) or "<unknown>"
    try:
        if not lines[0][:1].isspace():
            tree = ast.parse(src)
            body = tree.body
        else:
            tree = ast.parse("if True:\n" + src)
            ast.increment_lineno(tree, -1)
            body = tree.body[0].body  # type: ignore[attr-defined]
    except (RecursionError, SyntaxError) as e:
        # Python compiled the function, so its source parses: unless it nests deeper than the
        # parser's stack here (RecursionError), or the file changed since it was imported
        line = first_line + (getattr(e, "lineno", None) or 1) - 1
        raise CompileError(f"cannot parse the source of {fn.__name__}: {type(e).__name__}: {_short(str(e), 200)}",
                           filename, line, 0, "hint: split deeply nested expressions into several assignments; "
                           "if the file was edited since it was imported, import it again") from None
    fdef = next(n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return fdef, filename, first_line, 0


__all__ = ["FunctionVisitor", "source_of"]
