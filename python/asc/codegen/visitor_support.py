"""What the parts of FunctionVisitor share.

The statements and expressions outside the kernel language, each with what
to write instead; the journalled Scope of a function's names; the helpers
that word messages; and VisitorBase, the base of every part, which declares
the state and the methods one part uses of another.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from .errors import CompileError

if TYPE_CHECKING:
    from ..language.core.values import Scalar
    from ..runtime.jit import JITFunction
    from . import builder as _b
    from .function_visitor import CompileBudget

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

_SUPPORTED_HINT = ("hint: kernels support assignments, if/elif/else, `for` over range(...), `while`, `pass`, and "
                   "calls to the asc API and to @asc.jit functions")
_OPERAND_HINT = ("hint: arithmetic and comparisons work on numbers and runtime scalars (read a tensor element "
                 "with t.get_value(i)); an address or a tensor takes an integer offset: x + n, t[n:]")


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


def _split_hint(text: str) -> Tuple[str, Optional[str]]:
    """'what is wrong; what to write' → (message, 'hint: what to write')."""
    msg, _, rest = text.partition(";")
    return msg, ("hint:" + rest) if rest else None


class VisitorBase:
    """Declarations only: the state FunctionVisitor.__init__ sets, and the
    methods one part of the visitor calls on another (seen by type checkers,
    absent at run time), so that each mixin reads as methods of one class.
    FunctionVisitor composes the parts."""

    builder: _b.IRBuilder
    fn: JITFunction
    scope: Scope
    is_kernel: bool
    filename: str
    line_offset: int
    col_offset: int
    returned: Optional[List[Any]]
    return_is_tuple: bool
    globals_used: Dict[Tuple[Any, str], Any]
    scoped_out: Dict[str, Tuple[str, str]]
    end_loc: Tuple[str, int, int]
    budget: CompileBudget
    _assigned: Dict[Tuple[int, ...], List[str]]

    if TYPE_CHECKING:
        # function_visitor.py: locations and errors
        def loc_of(self, node: ast.AST) -> Tuple[str, int, int]: ...

        def error(self, node: ast.AST, message: str, hint: Optional[str] = None,
                  cls: type = CompileError) -> CompileError: ...

        def guarded(self, node: ast.AST, thunk: Callable[[], Any], hint: Optional[str] = None) -> Any: ...

        def safely(self, stmt: ast.stmt, thunk: Callable[[], None]) -> None: ...

        # statements.py, control_flow.py
        def visit_stmt(self, stmt: ast.stmt) -> None: ...

        def visit_nested(self, body: Sequence[ast.stmt]) -> None: ...

        # expressions.py
        def eval(self, node: ast.expr) -> Any: ...

        def lookup(self, name: str, node: ast.AST) -> Any: ...

        def apply_binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any: ...

        def check_condition(self, node: ast.expr, cond: Any) -> None: ...

        def to_bool(self, value: Any) -> Scalar: ...

        # device_functions.py
        def call_device(self, fn: JITFunction, args: List[Any], kwargs: Dict[str, Any], node: ast.AST) -> Any: ...
