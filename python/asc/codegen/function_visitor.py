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

The visitor is composed of one mixin per kind of construct:
statements.py (the statement dispatch, assignments, return), control_flow.py
(if, for, while), expressions.py, calls.py (the asc API and the builtins of
kernel_builtins.py) and device_functions.py (calls of @asc.jit functions);
visitor_support.py holds what they share. This module keeps the locations
and errors every part raises, the compile budget, and source_of.
"""

from __future__ import annotations

import ast
import inspect
import linecache
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from . import builder as _b
from .calls import CallsMixin
from .control_flow import ControlFlowMixin
from .device_functions import DeviceFunctionsMixin
from .errors import CompileError, UnsupportedError
from .expressions import ExpressionsMixin
from .statements import StatementsMixin
from .visitor_support import _REJECTED_EXPRS as _REJECTED_EXPRS
from .visitor_support import _REJECTED_STMTS as _REJECTED_STMTS
from .visitor_support import Scope, _exception_text, _short, _unparse

if TYPE_CHECKING:
    from ..runtime.jit import JITFunction


_GENERIC_HINT = "hint: docs/api.md lists the kernel syntax and the API with the values each takes"

# Statements one compilation may visit (each iteration of an unrolled loop
# counts its body again): compile-time loops nested in each other would
# otherwise unroll for hours. Compiling is linear (benchmarks/
# compile_scaling.py), about 10-25 us a statement: the bound is well under a
# minute of compiling and far above real kernels. (The front-end fuzzer
# lowers it, so that no mutant takes long: it and the tests set this
# module's MAX_COMPILED_STATEMENTS, which CompileBudget reads when made.)
MAX_COMPILED_STATEMENTS = 500_000


class CompileBudget:
    """The work left to one compilation (kernel and device functions)."""

    def __init__(self, statements: Optional[int] = None):
        self.limit = MAX_COMPILED_STATEMENTS if statements is None else statements
        self.statements = self.limit


class FunctionVisitor(StatementsMixin, ControlFlowMixin, ExpressionsMixin, CallsMixin, DeviceFunctionsMixin):
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

    # ---- whole function ----------------------------------------------------------------------------
    def run(self) -> None:
        fdef = self.fn.parse()
        # parsing fixes the function's file, first line and indentation
        self.filename = self.fn.filename
        self.line_offset = self.fn.first_line - 1
        self.col_offset = self.fn.col_offset
        self.end_loc = self.loc_of(fdef.body[-1]) if fdef.body else self.loc_of(fdef)
        self.visit_body(fdef.body)


def _called_api(stmt: ast.stmt) -> Optional[str]:
    """The function the statement calls (its outermost call), for messages."""
    roots = [v for f, v in ast.iter_fields(stmt) if isinstance(v, ast.expr) and f not in ("annotation",)]
    for root in roots:
        for n in ast.walk(root):
            if isinstance(n, ast.Call):
                return _unparse(n.func)
    return None


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
