"""The statements of a kernel: the dispatch with its compile budget and the
statements outside the language, then assignments (plain, augmented,
annotated, unpacking), `assert` on compile-time values, expression
statements, `pass`, `return` and `with`. Control flow is control_flow.py."""

from __future__ import annotations

import ast
from typing import Any, List, Sequence

from ..language.core import dtype as dt
from ..language.core.checks import describe, is_ir_handle
from ..language.core.struct import Struct
from ..language.core.types import ParamStruct
from ..language.core.values import IRValue, is_number, to_scalar, wrap_ir
from .errors import CompileError
from .visitor_support import _OPERAND_HINT, _REJECTED_STMTS, _SUPPORTED_HINT, VisitorBase, _split_hint


class StatementsMixin(VisitorBase):
    """Compiles one statement, or a function's body."""

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
        if isinstance(stmt.target, ast.Attribute):  # a struct field: cfg.n += 1
            current = self.eval(stmt.target)
        elif not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "only plain names and struct fields can be targets of augmented "
                                          "assignment", "hint: for tensors use set_value(index, value)")
        else:
            current = self.lookup(stmt.target.id, stmt.target)
        rhs = self.eval(stmt.value)
        value = self.guarded(stmt, lambda: self.apply_binop(stmt.op, current, rhs, stmt), _OPERAND_HINT)
        self.assign(stmt.target, value)

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, (IRValue, ParamStruct)):
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
        if isinstance(target, ast.Attribute):
            self.assign_field(target, value)
            return
        if isinstance(target, ast.Subscript):
            raise self.error(target, "assignment to a subscript is not supported",
                             "hint: write tensor.set_value(index, value)")
        raise self.error(target, "only names and tuples of names can be assigned in kernels",
                         "hint: assign to a plain variable; write tensor elements with set_value(index, value)")

    def assign_field(self, target: ast.Attribute, value: Any) -> None:
        """`cfg.tile.n = v` on a struct variable: a new struct value with the
        field set (asc.struct.set, once per level) bound to `cfg`, as a C++
        struct variable changes (see core/struct.py)."""
        path: List[str] = []
        node: ast.expr = target
        while isinstance(node, ast.Attribute):
            path.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            raise self.error(target, "only fields of struct variables can be assigned",
                             "hint: name the struct first: c = <expression>; c.field = value")
        root = self.lookup(node.id, node)
        if not isinstance(root, Struct):
            raise self.error(target, f"cannot assign the attribute `{target.attr}` of `{ast.unparse(target.value)}` "
                                     f"(`{node.id}` is {describe(root)})",
                             "hint: only the fields of a Struct can be assigned in kernels; tensors are written "
                             "with set_value(index, value)")

        def rebuild() -> Any:
            chain = [root.on_device()]
            for attr in path[:-1]:
                chain.append(getattr(chain[-1], attr))
                if not isinstance(chain[-1], Struct):
                    raise CompileError(f"`{attr}` of {type(chain[-2]).__name__} is no struct: its fields cannot "
                                       "be assigned")
            new = value
            for holder, attr in zip(reversed(chain), reversed(path)):
                new = holder.with_field(attr, new)
            return new

        self.assign(node, self.guarded(target, rebuild))

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
            if isinstance(v, ParamStruct):  # returned by value
                v = self.guarded(stmt, v.on_device)
                out.append(v)
                continue
            if not isinstance(v, IRValue) or v.handle is None:
                raise self.error(stmt, f"a device function can return runtime values and numbers, "
                                       f"not {type(v).__name__}",
                                 "hint: pass compile-time values to the function as asc.ConstExpr instead")
            out.append(v)
        self.returned = out
        self.return_is_tuple = isinstance(value, tuple)

    def visit_With(self, stmt: ast.With) -> None:
        """`with CM as name:` over the asc API's own context managers: objects with an `__asc_with__(run)`
        method (asc.adv.Matmul.iterate()). It calls run(condition), condition a function that emits the
        loop's test and returns it as a bool Scalar; run compiles `while condition(): body; name += 1`, name an
        int32 counting the passes from 0 (the loop upstream's MatmulIterator makes)."""
        if len(stmt.items) != 1:
            raise self.error(stmt, "`with` takes one context manager in a kernel",
                             "hint: nest the `with` statements")
        item = stmt.items[0]
        try:
            cm = self.eval(item.context_expr)
        except CompileError as e:
            raise self.error(stmt, "`with` is only supported over the asc API's own context managers "
                                   f"(matmul.iterate()): {e.message}",
                             "hint: write the body without `with`; open files and other resources in the host "
                             "code") from None
        scope = getattr(cm, "__asc_scope__", None)
        if scope is not None:  # a plain scope (asc2.mask): its body is compiled in place, in the scope's state
            if item.optional_vars is not None:
                raise self.error(stmt, f"`with {describe(cm)} as ...`: this context manager gives no value",
                                 "hint: drop `as name`")
            with scope():
                self.visit_nested(stmt.body)
            return
        hook = getattr(cm, "__asc_with__", None)
        if hook is None:
            raise self.error(stmt, "`with` is only supported over the asc API's own context managers "
                                   f"(matmul.iterate()), not {describe(cm)}",
                             "hint: write the body without `with`; open files and other resources in the host code")
        target = item.optional_vars
        if target is not None and not isinstance(target, ast.Name):
            raise self.error(stmt, "`with ... as` takes one name in a kernel", "hint: write `as count`")
        name = target.id if isinstance(target, ast.Name) else None
        hook(lambda cond: self._counted_loop(stmt, name, cond))

    def _counted_loop(self, stmt: ast.With, counter: Any, cond: Any) -> None:
        b = self.builder
        names = [n for n in self.carried_names(stmt.body) if n != counter]
        inits = [self.guarded(stmt, lambda n=n: self.loop_value(n, stmt)) for n in names]  # type: ignore[attr-defined]
        zero = to_scalar(0, dt.int32)
        inits.append(zero)
        types = [v.handle.type for v in inits]
        op = self.guarded(stmt, lambda: b.create("scf.while", inits, types, regions=[types, types]))
        outer = self.scope.values_of(self.assigned_names(stmt.body))  # type: ignore[attr-defined]
        mark = self.scope.mark()
        before_block, after_block = op.region(0), op.region(1)
        for n, a in zip(names, before_block.args):
            a.name = n
            self.scope[n] = wrap_ir(a)
        with b.insertion(before_block):
            c = self.guarded(stmt, cond)
            fwd = [self.scope[n] for n in names] + [wrap_ir(before_block.args[len(names)])]
            self.guarded(stmt, lambda: b.create("scf.condition", [c] + fwd))
        for n, a in zip(names, after_block.args):
            a.name = n
            self.scope[n] = wrap_ir(a)
        count = wrap_ir(after_block.args[len(names)])
        if counter is not None:
            after_block.args[len(names)].name = counter
            self.scope[counter] = count
        with b.insertion(after_block):
            self.visit_nested(stmt.body)
            ys = [self.loop_yield(n, t, stmt) for n, t in zip(names, types)]  # type: ignore[attr-defined]
            ys.append(self.guarded(stmt, lambda: count + 1))
            self.guarded(stmt, lambda: b.create("scf.yield", ys))
        self.check_loop_constants(outer, names, stmt)  # type: ignore[attr-defined]
        self.scope.undo(mark)
        for n, res in zip(names, op.results):
            res.name = n
            self.scope[n] = wrap_ir(res)
        self.hide_loop_locals(stmt.body, outer, counter)  # type: ignore[attr-defined]
        self.scope.close(mark)
