"""`if`, `for` and `while`: on compile-time values unrolled or decided while
compiling; on runtime values built as scf.if, scf.for and scf.while, with the
names assigned inside carried through the loop or merged out of the branches,
and the names that exist only inside hidden after it."""

from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Sequence

from ..language.core import dtype as dt
from ..language.core.checks import describe
from ..language.core.values import (
    IRValue,
    LoopRange,
    Scalar,
    default_dtype,
    is_number,
    literal_dtype,
    promote,
    to_scalar,
    wrap_ir,
)
from .visitor_support import _MISSING, VisitorBase

# iterations a compile-time loop (asc.static_range, `while` on compile-time values) may unroll
_MAX_STATIC_WHILE = 100000


def _assigned_names(stmts: Sequence[ast.stmt]) -> List[str]:
    """Names stored to anywhere in stmts, in first-seen order (a struct
    variable whose field is assigned among them)."""
    seen: Dict[str, None] = {}
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                seen.setdefault(node.id, None)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                root = node.value  # `cfg.tile.n = v` rebinds cfg (a struct variable)
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name):
                    seen.setdefault(root.id, None)
    return list(seen)


class ControlFlowMixin(VisitorBase):
    """Compiles `if`, `for` and `while`."""

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
                kinds = " and ".join(describe(v) for v in vals)
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
        given: Dict[str, Any] = {}
        for kw in it.keywords:  # family: tiles: asc2.range(..., unroll_factor=, parallel=)
            if kw.arg not in kind.keywords:
                raise self.error(kw.value if kw.arg is None else kw, f"{kind.name}() takes no keyword "
                                 f"`{kw.arg}`" + (f" (it takes {', '.join(kind.keywords)})" if kind.keywords else ""),
                                 f"hint: write {kind.name}(stop), {kind.name}(start, stop) or "
                                 f"{kind.name}(start, stop, step)")
            value = self.eval(kw.value)
            self.guarded(kw, lambda kw=kw, value=value: kind.check_keyword(kw.arg, value))
            given[kw.arg] = value
        if not 1 <= len(it.args) <= 3:
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
                raise self.error(node, f"range() arguments must be integers, got {describe(a)}",
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
        attrs = kind.loop_attrs(given) or None
        op = self.guarded(stmt, lambda: b.create("scf.for", bounds + inits, types, attrs=attrs,
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
                raise self.error(node, f"static_range() arguments must be compile-time integers, got {describe(a)}",
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
