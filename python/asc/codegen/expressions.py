"""The expressions of a kernel: names (local, global, builtin), constants,
attributes, tuples, lists, subscripts and slices, arithmetic, unary, boolean
and comparison operators, conditional expressions, and conditions. Python
values are computed while compiling (with bounds on their size), runtime
values build IR through their operators. Calls are calls.py."""

from __future__ import annotations

import ast
import difflib
import enum
import operator
import types
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

from ..language.core import dtype as dt
from ..language.core.checks import describe
from ..language.core.values import (
    IRValue,
    LoopRange,
    Scalar,
    binary,
    default_dtype,
    is_number,
    literal_dtype,
    promote,
    to_scalar,
)
from .errors import CompileError, UnsupportedError
from .kernel_builtins import _BUILTINS
from .visitor_support import (
    _OPERAND_HINT,
    _REJECTED_EXPRS,
    _SUPPORTED_HINT,
    VisitorBase,
    _short,
    _split_hint,
    _unparse,
)

_BINOPS: Dict[type, Tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add), ast.Sub: ("-", operator.sub), ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv), ast.FloorDiv: ("//", operator.floordiv), ast.Mod: ("%", operator.mod),
    ast.BitAnd: ("&", operator.and_), ast.BitOr: ("|", operator.or_), ast.BitXor: ("^", operator.xor),
    ast.LShift: ("<<", operator.lshift), ast.RShift: (">>", operator.rshift), ast.Pow: ("**", operator.pow),
    ast.MatMult: ("@", operator.matmul),  # (asc2 tiles: matmul; on anything else the TypeError below)
}
_CMPOPS: Dict[type, Tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne), ast.Lt: ("<", operator.lt),
    ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt), ast.GtE: (">=", operator.ge),
    ast.Is: ("is", operator.is_), ast.IsNot: ("is not", operator.is_not),
}

# Compile-time arithmetic is Python's, with unbounded integers: a few
# mutually squaring constants would use all memory. Kernels compute in at
# most 64 bits; the bound leaves room for intermediate values.
_MAX_CONST_INT_BITS = 4096
_MAX_CONST_SEQUENCE = 100000


class ExpressionsMixin(VisitorBase):
    """Evaluates an expression to a Python value or a runtime value."""

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
        if name in self.fn.custom_builtins:  # family: tiles (asc2.range)
            return self.fn.custom_builtins[name]
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

    # ---- conditions ---------------------------------------------------------------------------
    def check_condition(self, node: ast.expr, cond: Any) -> None:
        """A tuple or list holding runtime values is no condition: in Python
        it is always true (`while (a, b):` for `while a and b:`)."""
        if isinstance(cond, (tuple, list)) and any(isinstance(v, IRValue) for v in cond):
            raise self.error(node, f"{describe(cond)} with runtime values cannot be used as a condition (it is "
                                   "always true in Python)",
                             "hint: combine conditions with `and` / `or`, e.g. `while a and b:`")

    def to_bool(self, value: Any) -> Scalar:
        if isinstance(value, Scalar):
            return value if value.dtype == dt.bool_ else binary("!=", value, 0)
        raise CompileError(f"{describe(value)} cannot be used as a condition",
                           hint="hint: conditions are numbers or runtime scalars, e.g. `if n > 0:` or "
                                "`if t.get_value(i) != 0:`")


def _plain(value: Any) -> Any:
    """A NumPy scalar (a module constant such as np.int32(8), an element of a
    NumPy lookup table) as the Python number it holds."""
    if isinstance(value, np.generic) and isinstance(value, (np.number, np.bool_)):
        return value.item()
    return value


# the start of the TypeErrors Python's operators raise for operands they do not support
_PY_OPERATOR_ERRORS = ("unsupported operand", "bad operand", "can only concatenate", "can't multiply",
                       "can't concat", "'<' not supported", "'<=' not supported", "'>' not supported",
                       "'>=' not supported")


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
