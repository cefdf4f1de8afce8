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
import inspect
import operator
import textwrap
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.values import IRValue, Scalar, binary, is_number, promote, to_scalar, wrap_ir
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
    ast.Try: "`try` is not supported in kernels; kernels cannot catch exceptions",
    ast.Raise: "`raise` is not supported in kernels; check arguments in the host code before the launch",
    ast.FunctionDef: "nested functions are not supported; define an @asc.jit function at module level and call it",
    ast.AsyncFunctionDef: "async functions are not supported in kernels",
    ast.ClassDef: "classes cannot be defined inside a kernel; define them outside",
    ast.Import: "imports are not allowed inside a kernel; import at module level",
    ast.ImportFrom: "imports are not allowed inside a kernel; import at module level",
    ast.Global: "`global` is not supported; pass the value as a kernel argument or asc.ConstExpr",
    ast.Nonlocal: "`nonlocal` is not supported in kernels",
    ast.Delete: "`del` is not supported in kernels",
    ast.Assert: "`assert` is not supported in kernels; check in the host code before the launch",
    ast.AsyncFor: "`async for` is not supported in kernels",
    ast.AsyncWith: "`async with` is not supported in kernels",
}
_REJECTED_EXPRS = {
    ast.Lambda: "lambdas are not supported in kernels; define an @asc.jit function",
    ast.ListComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.SetComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.DictComp: "comprehensions are not supported in kernels; write a `for` loop",
    ast.GeneratorExp: "generator expressions are not supported in kernels; write a `for` loop",
    ast.Dict: "dicts are not supported in kernels",
    ast.Set: "sets are not supported in kernels",
    ast.JoinedStr: "f-strings are not supported in kernels",
    ast.Await: "`await` is not supported in kernels",
    ast.Yield: "`yield` is not supported in kernels",
    ast.YieldFrom: "`yield from` is not supported in kernels",
    ast.NamedExpr: "the walrus operator is not supported in kernels; assign on its own line",
    ast.Starred: "`*args` unpacking is not supported in kernels; pass arguments one by one",
}

_MAX_STATIC_WHILE = 100000


def _cast_builtin(dtype: dt.DataType) -> Callable[[Any], Any]:
    pytype = float if dtype.is_float() else (builtins.bool if dtype == dt.bool_ else int)

    def conv(x: Any = 0) -> Any:
        if isinstance(x, Scalar):
            return x.cast(dtype)
        return pytype(x)

    conv.__name__ = pytype.__name__
    return conv


def _min_max(is_max: bool) -> Callable[..., Any]:
    def f(*args: Any) -> Any:
        if len(args) < 2:
            raise TypeError(("max" if is_max else "min") + "() in a kernel takes two or more values")
        result = args[0]
        for x in args[1:]:
            if is_number(result) and is_number(x):
                result = max(result, x) if is_max else min(result, x)
                continue
            rt = promote(result.dtype if isinstance(result, Scalar) else _num_dtype(result, x),
                         x.dtype if isinstance(x, Scalar) else _num_dtype(x, result))
            a, b = to_scalar(result, rt), to_scalar(x, rt)
            bl = _b.current()
            result = Scalar(bl.create1("arith.max" if is_max else "arith.min", [a, b], bl.scalar_type(rt)), rt)
        return result

    return f


def _num_dtype(x: Any, other: Any) -> dt.DataType:
    if isinstance(other, Scalar) and not (isinstance(x, float) and not other.dtype.is_float()):
        return other.dtype
    return dt.float32 if isinstance(x, float) else dt.int32


def _abs(x: Any) -> Any:
    if is_number(x):
        return abs(x)
    if isinstance(x, Scalar):
        neg = -x
        bl = _b.current()
        cond = binary("<", x, 0)
        return Scalar(bl.create1("arith.select", [cond, neg, x], bl.scalar_type(x.dtype)), x.dtype)
    raise TypeError(f"abs() of {type(x).__name__} is not supported in a kernel")


class _RangeMarker:
    """`range` inside a kernel: only valid as the iterable of a `for`."""

    def __call__(self, *args: Any) -> Any:
        raise TypeError("range() can only be used as `for i in range(...)` in a kernel")


_RANGE = _RangeMarker()

# Python builtins a kernel may use, in their kernel meaning.
_BUILTINS: Dict[str, Any] = {
    "range": _RANGE, "int": _cast_builtin(dt.int32), "float": _cast_builtin(dt.float32),
    "bool": _cast_builtin(dt.bool_), "min": _min_max(False), "max": _min_max(True), "abs": _abs,
    "True": True, "False": False, "None": None, "len": len, "isinstance": isinstance,
}
_ALLOWED_PY_CALLABLES = {len, isinstance}


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
        self.scope: Dict[str, Any] = dict(scope)
        self.is_kernel = is_kernel
        self.filename = fn.filename
        self.line_offset = fn.first_line - 1
        self.col_offset = fn.col_offset
        self.returned: Optional[List[Any]] = None
        self.globals_used: Dict[str, Any] = {}

    # ---- locations and errors --------------------------------------------------
    def loc_of(self, node: ast.AST) -> Tuple[str, int, int]:
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + self.col_offset
        return (self.filename, line, col)

    def error(self, node: ast.AST, message: str, hint: Optional[str] = None,
              cls: type = CompileError) -> CompileError:
        f, line, col = self.loc_of(node)
        return cls(message, f, line, col, hint)

    def guarded(self, node: ast.AST, thunk: Callable[[], Any]) -> Any:
        """Runs thunk with node's location, turning errors into CompileErrors."""
        saved = self.builder.loc
        self.builder.loc = self.loc_of(node)
        try:
            return thunk()
        except CompileError as e:
            if not e.filename:
                raise self.error(node, e.message, e.hint, type(e)) from None
            raise
        except NotImplementedError as e:
            raise self.error(node, str(e), cls=UnsupportedError) from None
        except (TypeError, ValueError, RuntimeError, IndexError, KeyError, AttributeError, ZeroDivisionError,
                OverflowError) as e:
            msg = str(e) if not isinstance(e, KeyError) else f"key {e} not found"
            raise self.error(node, msg) from None
        finally:
            self.builder.loc = saved

    # ---- entry -----------------------------------------------------------------
    def visit_body(self, body: Sequence[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Return):
                if i != len(body) - 1:
                    raise self.error(stmt, "`return` must be the last statement of the function",
                                     "hint: assign the result to a variable and return it at the end")
                self.visit_return(stmt)
                return
            self.visit_stmt(stmt)

    def visit_stmt(self, stmt: ast.stmt) -> None:
        method = getattr(self, "visit_" + type(stmt).__name__, None)
        if method is not None:
            method(stmt)
            return
        hint = _REJECTED_STMTS.get(type(stmt))
        if hint:
            raise self.error(stmt, *_split_hint(hint))
        raise self.error(stmt, f"{type(stmt).__name__} statements are not supported in kernels")

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

    def visit_AugAssign(self, stmt: ast.AugAssign) -> None:
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "only plain names can be targets of augmented assignment",
                             "hint: for tensors use set_value(index, value)")
        current = self.lookup(stmt.target.id, stmt.target)
        rhs = self.eval(stmt.value)
        value = self.guarded(stmt, lambda: self.apply_binop(stmt.op, current, rhs, stmt))
        self.assign(stmt.target, value)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, IRValue):
                if value.handle is None:
                    value.name_hint = target.id  # named when its IR value is created
                elif value.handle.name is None:
                    value.handle.name = target.id
            self.scope[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)):
                raise self.error(target, f"cannot unpack a {type(value).__name__} into {len(target.elts)} names")
            if len(value) != len(target.elts):
                raise self.error(target, f"cannot unpack {len(value)} values into {len(target.elts)} names")
            for t, v in zip(target.elts, value):
                self.assign(t, v)
            return
        if isinstance(target, ast.Subscript):
            raise self.error(target, "assignment to a subscript is not supported",
                             "hint: write tensor.set_value(index, value)")
        raise self.error(target, "only names and tuples of names can be assigned in kernels")

    def visit_Return(self, stmt: ast.Return) -> None:
        raise self.error(stmt, "`return` must be the last statement of the function",
                         "hint: assign the result to a variable and return it at the end")

    def visit_return(self, stmt: ast.Return) -> None:
        if stmt.value is None:
            self.returned = []
            return
        value = self.eval(stmt.value)
        if self.is_kernel:
            raise self.error(stmt, "a kernel cannot return a value; write results into a GlobalTensor")
        values = list(value) if isinstance(value, tuple) else [value]
        out = []
        for v in values:
            if is_number(v):
                v = self.guarded(stmt, lambda v=v: to_scalar(v))
            if not isinstance(v, IRValue) or v.handle is None:
                raise self.error(stmt, f"a device function can return runtime values and numbers, "
                                       f"not {type(v).__name__}")
            out.append(v)
        self.returned = out
        self.return_is_tuple = isinstance(value, tuple)

    def visit_With(self, stmt: ast.With) -> None:
        raise self.error(stmt, "`with` is only supported over the asc API's own context managers, "
                               "and none of them is implemented yet")

    # ---- control flow ---------------------------------------------------------------------
    def visit_If(self, stmt: ast.If) -> None:
        cond = self.eval(stmt.test)
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
        raise TypeError(f"a {type(value).__name__} cannot be used as a condition")

    def build_if(self, stmt: ast.If, cond: Scalar, then_body: Sequence[ast.stmt],
                 else_body: Sequence[ast.stmt]) -> None:
        b = self.builder
        before = dict(self.scope)
        op = self.guarded(stmt, lambda: b.create("scf.if", [cond], [], regions=[[], []]))
        branch_scopes = []
        for r, body in enumerate((then_body, else_body)):
            self.scope = dict(before)
            with b.insertion(op.region(r)):
                self.visit_nested(body)
            branch_scopes.append(self.scope)
        self.scope = before
        names = [n for n in _assigned_names(list(then_body) + list(else_body))
                 if (n in before or all(n in s for s in branch_scopes))
                 and not all(s.get(n, before.get(n)) is before.get(n) for s in branch_scopes)]
        merged_types = []
        yields: List[List[Any]] = [[], []]
        for n in names:
            vals = [s.get(n, before.get(n)) for s in branch_scopes]
            vals = [self.require_runtime(v, n, stmt) for v in vals]
            ty = self.merge_type(n, vals, before.get(n), stmt)
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
        for n in _assigned_names(list(then_body) + list(else_body)):
            if n not in names and n not in before:
                self.scope.pop(n, None)
                self.branch_only = getattr(self, "branch_only", set()) | {n}

    def require_runtime(self, v: Any, name: str, node: ast.AST) -> Any:
        if isinstance(v, IRValue) and v.handle is not None:
            return v
        if is_number(v):
            return v
        raise self.error(node, f"`{name}` holds a compile-time {type(v).__name__} and is reassigned under a "
                               "runtime condition or loop; only numbers and runtime values can be")

    def merge_type(self, name: str, vals: Sequence[Any], before: Any, node: ast.AST) -> Any:
        """The IR type a variable has after control flow joins."""
        first = before if isinstance(before, IRValue) else next((v for v in vals if isinstance(v, IRValue)), None)
        if first is None:
            # all Python numbers: the default runtime type of their promotion
            if any(isinstance(v, float) for v in vals):
                return self.builder.scalar_type(dt.float32)
            return self.builder.scalar_type(dt.int32)
        ty = first.handle.type
        for v in vals:
            if isinstance(v, IRValue) and v.handle.type != ty:
                if not (isinstance(v, Scalar) and ty.kind == "scalar"):
                    raise self.error(node, f"`{name}` changes type inside control flow: {ty} and {v.handle.type}")
        return ty

    def coerce(self, v: Any, ty: Any, name: str, node: ast.AST) -> Any:
        if isinstance(v, IRValue):
            if v.handle.type == ty:
                return v
            return self.guarded(node, lambda: v.cast(dt.from_name(ty.dtype)))
        return self.guarded(node, lambda: to_scalar(v, dt.from_name(ty.dtype)))

    def carried_names(self, body: Sequence[ast.stmt], extra: Sequence[ast.stmt] = ()) -> List[str]:
        return [n for n in _assigned_names(list(body) + list(extra)) if n in self.scope]

    def visit_For(self, stmt: ast.For) -> None:
        if stmt.orelse:
            raise self.error(stmt, "`for ... else` is not supported in kernels")
        it = stmt.iter
        if not (isinstance(it, ast.Call) and self.eval(it.func) is _RANGE):
            raise self.error(it, "kernels can only loop over range(...)",
                             "hint: write `for i in range(n):`")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, "range() takes 1 to 3 positional arguments")
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "the loop variable must be a single name")
        args = [self.eval(a) for a in it.args]
        if len(args) == 1:
            args = [0, args[0], 1]
        elif len(args) == 2:
            args = [args[0], args[1], 1]
        for a, node in zip(args, it.args if len(it.args) == 3 else [it] * 3):
            if not (isinstance(a, int) and not isinstance(a, bool)) and not (
                    isinstance(a, Scalar) and a.dtype.is_int()):
                raise self.error(node, f"range() arguments must be integers, got {type(a).__name__}")
        if isinstance(args[2], int) and args[2] == 0:
            raise self.error(it, "range() step must not be zero")
        b = self.builder
        iv_type = dt.int32
        for a in args:
            if isinstance(a, Scalar):
                iv_type = promote(iv_type, a.dtype)
        bounds = [self.guarded(it, lambda a=a: to_scalar(a, iv_type)) for a in args]
        loop_var = stmt.target.id
        names = [n for n in self.carried_names(stmt.body) if n != loop_var]
        inits = [self.guarded(stmt, lambda n=n: self.loop_value(n, stmt)) for n in names]
        types = [v.handle.type for v in inits]
        op = self.guarded(stmt, lambda: b.create("scf.for", bounds + inits, types,
                                                 regions=[[b.scalar_type(iv_type)] + types]))
        block = op.region(0)
        before = dict(self.scope)
        args_in = block.args
        args_in[0].name = loop_var
        self.scope[loop_var] = Scalar(args_in[0], iv_type)
        for n, a in zip(names, args_in[1:]):
            a.name = n
            self.scope[n] = wrap_ir(a)
        with b.insertion(block):
            self.visit_nested(stmt.body)
            ys = [self.coerce(self.require_runtime(self.scope[n], n, stmt), t, n, stmt) for n, t in zip(names, types)]
            self.guarded(stmt, lambda: b.create("scf.yield", ys))
        self.check_loop_constants(before, names + [loop_var], stmt)
        self.scope = before
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)

    def loop_value(self, name: str, node: ast.AST) -> Any:
        """The runtime value a variable enters a loop with."""
        v = self.require_runtime(self.scope[name], name, node)
        if is_number(v):
            v = to_scalar(v)
            v.handle.name = name
        return v

    def check_loop_constants(self, before: Dict[str, Any], carried: Sequence[str], node: ast.AST) -> None:
        for n, v in self.scope.items():
            if n in before and n not in carried and before[n] is not v:
                raise self.error(node, f"`{n}` holds a compile-time {type(before[n]).__name__} and is reassigned "
                                       "inside a runtime loop")

    def visit_While(self, stmt: ast.While) -> None:
        if stmt.orelse:
            raise self.error(stmt, "`while ... else` is not supported in kernels")
        cond = self.eval(stmt.test)
        if not isinstance(cond, IRValue):
            # a compile-time loop: unrolled while its condition holds
            n = 0
            while cond:
                n += 1
                if n > _MAX_STATIC_WHILE:
                    raise self.error(stmt, f"compile-time `while` loop ran more than {_MAX_STATIC_WHILE} times")
                self.visit_nested(stmt.body)
                cond = self.eval(stmt.test)
                if isinstance(cond, IRValue):
                    raise self.error(stmt.test, "the `while` condition became a runtime value inside the loop; "
                                                "make it runtime before the loop")
            return
        b = self.builder
        names = self.carried_names(stmt.body)
        inits = [self.guarded(stmt, lambda n=n: self.loop_value(n, stmt)) for n in names]
        types = [v.handle.type for v in inits]
        op = self.guarded(stmt, lambda: b.create("scf.while", inits, types, regions=[types, types]))
        outer = dict(self.scope)
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
            ys = [self.coerce(self.require_runtime(self.scope[n], n, stmt), t, n, stmt) for n, t in zip(names, types)]
            self.guarded(stmt, lambda: b.create("scf.yield", ys))
        self.check_loop_constants(outer, names, stmt)
        self.scope = outer
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)

    # ---- expressions --------------------------------------------------------------------------
    def eval(self, node: ast.expr) -> Any:
        method = getattr(self, "eval_" + type(node).__name__, None)
        if method is not None:
            return method(node)
        hint = _REJECTED_EXPRS.get(type(node))
        if hint:
            raise self.error(node, *_split_hint(hint))
        raise self.error(node, f"{type(node).__name__} expressions are not supported in kernels")

    def eval_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.scope:
            return self.scope[name]
        if name in getattr(self, "branch_only", set()):
            raise self.error(node, f"`{name}` is assigned in only one branch of a runtime `if`",
                             "hint: assign it before the `if` (or in both branches)")
        found, value = self.fn.resolve_global(name)
        if found:
            self.globals_used[name] = value
            return value
        if name in _BUILTINS:
            return _BUILTINS[name]
        raise self.error(node, f"name `{name}` is not defined")

    def eval_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def eval_Attribute(self, node: ast.Attribute) -> Any:
        value = self.eval(node.value)
        return self.guarded(node, lambda: getattr(value, node.attr))

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
        return self.guarded(node, lambda: value[index])

    def apply_binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        entry = _BINOPS.get(type(op))
        if entry is None:
            raise self.error(node, f"operator {type(op).__name__} is not supported in kernels")
        sym, fn = entry
        if isinstance(a, Scalar) or isinstance(b, Scalar):
            if sym == "**":
                raise UnsupportedError("** on runtime values is not supported; multiply explicitly")
        result = fn(a, b)
        return result

    def eval_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self.eval(node.left), self.eval(node.right)
        return self.guarded(node, lambda: self.apply_binop(node.op, a, b, node))

    def eval_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.eval(node.operand)

        def run() -> Any:
            if isinstance(node.op, ast.Not):
                return self.to_bool(v).logical_not() if isinstance(v, Scalar) else (not v)
            if isinstance(node.op, ast.USub):
                return -v
            if isinstance(node.op, ast.UAdd):
                return +v
            return ~v

        return self.guarded(node, run)

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
                raise self.error(node, f"comparison {type(op).__name__} is not supported in kernels")
            sym, fn = entry
            if sym in ("is", "is not") and (isinstance(left, Scalar) or isinstance(right, Scalar)):
                raise self.error(node, "`is` cannot compare runtime values; use ==")
            part = self.guarded(node, lambda left=left, right=right, fn=fn: fn(left, right))
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
        if not isinstance(cond, IRValue):
            return self.eval(node.body if cond else node.orelse)
        a, b = self.eval(node.body), self.eval(node.orelse)

        def run() -> Any:
            c = self.to_bool(cond)
            if not all(isinstance(v, Scalar) or is_number(v) for v in (a, b)):
                raise TypeError("a runtime conditional expression must choose between numbers")
            ta = a.dtype if isinstance(a, Scalar) else _num_dtype(a, b)
            tb = b.dtype if isinstance(b, Scalar) else _num_dtype(b, a)
            rt = promote(ta, tb)
            bl = self.builder
            h = bl.create1("arith.select", [c, to_scalar(a, rt), to_scalar(b, rt)], bl.scalar_type(rt))
            return Scalar(h, rt)

        return self.guarded(node, run)

    def eval_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.error(a, "`*args` unpacking is not supported in kernels")
        args = [self.eval(a) for a in node.args]
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise self.error(kw.value, "`**kwargs` unpacking is not supported in kernels")
            kwargs[kw.arg] = self.eval(kw.value)
        from ..runtime.jit import JITFunction

        if isinstance(func, JITFunction):
            return self.guarded(node, lambda: self.call_device(func, args, kwargs, node))
        if not self.callable_in_kernel(func):
            name = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
            raise self.error(node, f"calls into arbitrary Python are not supported in kernels: `{name}`",
                             "hint: call asc API functions or other @asc.jit functions; compute host values "
                             "before the launch and pass them as arguments or asc.ConstExpr")
        return self.guarded(node, lambda: func(*args, **kwargs))

    @staticmethod
    def callable_in_kernel(func: Any) -> bool:
        if func in _BUILTINS.values() and func is not _RANGE:
            return True
        if isinstance(func, dt.DataType):
            return True
        try:
            if func in _ALLOWED_PY_CALLABLES:
                return True
        except TypeError:
            pass
        module = getattr(func, "__module__", None) or ""
        self_obj = getattr(func, "__self__", None)
        if self_obj is not None and not isinstance(self_obj, type):
            module = type(self_obj).__module__
        return module.startswith("asc.language") or (
            isinstance(func, type) and func.__module__.startswith("asc.language"))

    # ---- device functions ---------------------------------------------------------------------
    def call_device(self, fn: "JITFunction", args: List[Any], kwargs: Dict[str, Any], node: ast.AST) -> Any:
        try:
            bound = fn.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"calling {fn.name}: {e}") from None
        bound.apply_defaults()
        key_parts: List[Any] = []
        ir_args: List[Any] = []
        bindings: Dict[str, Any] = {}
        for name, value in bound.arguments.items():
            param = fn.signature.parameters[name]
            if is_constexpr_annotation(param.annotation):
                value = ConstExpr.unwrap(value)
                if isinstance(value, IRValue):
                    raise TypeError(f"{fn.name}: parameter `{name}` is asc.ConstExpr but got a runtime value")
                key_parts.append((name, "const", _const_key(value)))
                bindings[name] = value
            elif is_number(value):
                s = to_scalar(value)
                key_parts.append((name, "ir", str(s.handle.type)))
                ir_args.append((name, s))
            elif isinstance(value, IRValue):
                if value.handle is None:
                    raise TypeError(f"{fn.name}: argument `{name}` is a GlobalTensor without a buffer")
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
            raise CompileError(f"recursive call of {fn.name} is not supported")
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
        with b.insertion(block):
            visitor.run()
            returned = visitor.returned or []
            b.loc = visitor.end_loc
            b.create("func.return", returned)
        self.globals_used.update(visitor.globals_used)
        rtypes = [v.handle.type for v in returned]
        fop.set_result_types(rtypes)
        b.function_results[name] = rtypes
        entry = (name, len(rtypes), getattr(visitor, "return_is_tuple", False))
        b.functions[key] = entry
        b.building.discard(key)
        return entry

    # ---- whole function ----------------------------------------------------------------------------
    def run(self) -> None:
        fdef = self.fn.parse()
        self.end_loc = self.loc_of(fdef.body[-1]) if fdef.body else self.loc_of(fdef)
        self.visit_body(fdef.body)


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
    """The FunctionDef of fn, its file, first line and indentation."""
    lines, first_line = inspect.getsourcelines(fn)
    src = "".join(lines)
    dedented = textwrap.dedent(src)
    indent = len(lines[0]) - len(lines[0].lstrip())
    tree = ast.parse(dedented)
    fdef = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return fdef, inspect.getsourcefile(fn) or "<unknown>", first_line, indent


__all__ = ["FunctionVisitor", "source_of"]
