"""Every error path a user can hit: Python outside the kernel language,
wrong API arguments and unsupported forms (asc.CompileError and
asc.UnsupportedError, raised while compiling), and faults while the kernel
runs on the simulator (asc.KernelError).

Compile errors must name the file, line and column of the offending code,
quote that line with a caret under the column, and (for syntax outside the
language) say what to write instead. Line numbers are found with inspect,
never written into the tests.
"""

from __future__ import annotations

import inspect
import linecache
import os
import re
from typing import Any, Optional, Tuple, Type

import numpy as np
import pytest

import asc

HERE = os.path.abspath(__file__)


def locate(fn: Any, snippet: str, at: Optional[str] = None) -> Tuple[int, int]:
    """(line, column) of the one line of fn's body containing snippet; the column is where `at`
    (default: snippet) starts in that line."""
    func = fn.fn if isinstance(fn, asc.JITFunction) else fn
    lines, first = inspect.getsourcelines(func)
    body = next(i for i, text in enumerate(lines) if text.lstrip().startswith("def ")) + 1
    hits = [(first + i, text.index(at or snippet)) for i, text in enumerate(lines)
            if i >= body and snippet in text]
    assert len(hits) == 1, f"snippet {snippet!r} found {len(hits)} times"
    return hits[0]


def check_location(err: Any, fn: Any, snippet: str) -> None:
    """err points at snippet in fn: filename, line, column, quoted line and caret."""
    line, col = locate(fn, snippet)
    filename = os.path.abspath(inspect.getsourcefile(fn.fn if isinstance(fn, asc.JITFunction) else fn))
    assert os.path.abspath(err.filename) == filename
    assert (err.line, err.col) == (line, col), f"expected {line}:{col}, got {err.line}:{err.col}\n{err}"
    text = str(err).splitlines()
    assert text[0].startswith(f"{err.filename}:{line}:{col + 1}: ")
    src = linecache.getline(filename, line).rstrip("\n")
    assert f"    {src}" in text, text
    i = text.index(f"    {src}")
    assert text[i + 1] == "    " + " " * col + "^"


def compile_error(kernel: Any, *args: Any, cls: Type[Exception] = asc.CompileError, core_num: int = 1) -> Any:
    out = np.zeros(64, np.int32)
    with pytest.raises(cls) as info:
        kernel[core_num](out, *args)
    return info.value


# ---------------------------------------------------------------------------
# syntax outside the kernel language
# ---------------------------------------------------------------------------

@asc.jit
def k_nested_def(out: asc.GlobalAddress, n: int):
    def helper(x):
        return x


@asc.jit
def k_lambda(out: asc.GlobalAddress, n: int):
    f = lambda x: x + 1  # noqa: E731, F841


@asc.jit
def k_class(out: asc.GlobalAddress, n: int):
    class Local:
        pass


@asc.jit
def k_break(out: asc.GlobalAddress, n: int):
    for i in range(n):  # noqa: B007
        break


@asc.jit
def k_continue(out: asc.GlobalAddress, n: int):
    for i in range(n):  # noqa: B007
        continue


@asc.jit
def k_try(out: asc.GlobalAddress, n: int):
    try:
        pass
    except Exception:
        pass


@asc.jit
def k_raise(out: asc.GlobalAddress, n: int):
    raise ValueError("no")


@asc.jit
def k_with(out: asc.GlobalAddress, n: int):
    with open("/dev/null") as f:  # noqa: F841
        pass


@asc.jit
def k_listcomp(out: asc.GlobalAddress, n: int):
    xs = [i * 2 for i in range(4)]  # noqa: F841


@asc.jit
def k_dictcomp(out: asc.GlobalAddress, n: int):
    xs = {i: i for i in range(4)}  # noqa: F841


@asc.jit
def k_setcomp(out: asc.GlobalAddress, n: int):
    xs = {i for i in range(4)}  # noqa: F841


G_FOR_GLOBAL = 1


@asc.jit
def k_global(out: asc.GlobalAddress, n: int):
    global G_FOR_GLOBAL


def _make_nonlocal() -> Any:
    v = 1

    @asc.jit
    def k_nonlocal(out: asc.GlobalAddress, n: int):
        nonlocal v

    return k_nonlocal


k_nonlocal = _make_nonlocal()


@asc.jit
def k_del(out: asc.GlobalAddress, n: int):
    x = n
    del x


@asc.jit
def k_assert(out: asc.GlobalAddress, n: int):
    assert n > 0


@asc.jit
def k_import(out: asc.GlobalAddress, n: int):
    import os  # noqa: F401


@asc.jit
def k_import_from(out: asc.GlobalAddress, n: int):
    from os import path  # noqa: F401


@asc.jit
def k_fstring(out: asc.GlobalAddress, n: int):
    s = f"n={n}"  # noqa: F841


@asc.jit
def k_star_call(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, *n)


EMPTY_OPTIONS: dict = {}


@asc.jit
def k_kwargs_call(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n, **EMPTY_OPTIONS)


@asc.jit
def k_print(out: asc.GlobalAddress, n: int):
    print(n)


@asc.jit
def k_np_sum(out: asc.GlobalAddress, n: int):
    x = np.sum(n)  # noqa: F841


@asc.jit
def k_python_function(out: asc.GlobalAddress, n: int):
    x = locate(n, "x")  # noqa: F841


@asc.jit
def k_return_early(out: asc.GlobalAddress, n: int):
    return
    g = asc.GlobalTensor()  # noqa: F841


@asc.jit
def k_return_value(out: asc.GlobalAddress, n: int):
    return n


@asc.jit
def k_for_list(out: asc.GlobalAddress, n: int):
    for i in [1, 2, 3]:  # noqa: B007
        pass


@asc.jit
def k_for_else(out: asc.GlobalAddress, n: int):
    for i in range(n):  # noqa: B007
        pass
    else:
        pass


@asc.jit
def k_while_else(out: asc.GlobalAddress, n: int):
    while n > 0:
        n -= 1
    else:
        pass


@asc.jit
def k_for_tuple_target(out: asc.GlobalAddress, n: int):
    for i, j in range(n):  # noqa: B007
        pass


@asc.jit
def k_subscript_assign(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g[0] = n


@asc.jit
def k_subscript_augassign(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g[0] += n


@asc.jit
def k_attribute_assign(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.size = n


@asc.jit
def k_undefined(out: asc.GlobalAddress, n: int):
    x = n + no_such_name  # noqa: F821, F841


@asc.jit
def k_walrus(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, (y := n))  # noqa: F841


@asc.jit
def k_dict(out: asc.GlobalAddress, n: int):
    d = {"a": n}  # noqa: F841


@asc.jit
def k_yield(out: asc.GlobalAddress, n: int):
    yield n


@asc.jit
def k_in(out: asc.GlobalAddress, n: int):
    x = n in (1, 2)  # noqa: F841


@asc.jit
def k_unpack_count(out: asc.GlobalAddress, n: int):
    a, b = n, n, n  # noqa: F841


SYNTAX_CASES = [
    (k_nested_def, (), "def helper", "nested functions"),
    (k_lambda, (), "lambda x", "lambdas"),
    (k_class, (), "class Local", "classes"),
    (k_break, (), "break", "`break`"),
    (k_continue, (), "continue", "`continue`"),
    (k_try, (), "try:", "`try`"),
    (k_raise, (), "raise ValueError", "`raise`"),
    (k_with, (), "with open", "`with`"),
    (k_listcomp, (), "[i * 2 for", "comprehensions"),
    (k_dictcomp, (), "{i: i for", "comprehensions"),
    (k_setcomp, (), "{i for i", "comprehensions"),
    (k_global, (), "global G_FOR_GLOBAL", "`global`"),
    (k_nonlocal, (), "nonlocal v", "`nonlocal`"),
    (k_del, (), "del x", "`del`"),
    (k_assert, (), "assert n", "`assert` on a runtime value"),
    (k_import, (), "import os", "imports"),
    (k_import_from, (), "from os import", "imports"),
    (k_fstring, (), 'f"n={n}"', "f-strings"),
    (k_star_call, (), "*n)", r"`\*` unpacking takes a compile-time tuple or list"),
    (k_kwargs_call, (), "EMPTY_OPTIONS)", r"`\*\*kwargs`"),
    (k_print, (), "print(n)", "arbitrary Python.*`print`"),
    (k_np_sum, (), "np.sum(n)", "arbitrary Python.*`np.sum`"),
    (k_python_function, (), 'locate(n, "x")', "arbitrary Python.*`locate`"),
    (k_return_early, (), "return", "`return` must be the last statement"),
    (k_return_value, (), "return n", "cannot return a value"),
    (k_for_list, (), "[1, 2, 3]", r"only loop over range"),
    (k_for_else, (), "for i in range(n):", r"`for \.\.\. else`"),
    (k_while_else, (), "while n > 0:", r"`while \.\.\. else`"),
    (k_for_tuple_target, (), "i, j in", "single name"),
    (k_subscript_assign, (), "g[0] = n", "assignment to a subscript"),
    (k_subscript_augassign, (), "g[0] += n", "augmented assignment"),
    (k_attribute_assign, (), "g.size = n", "cannot assign the attribute `size` of `g`"),
    (k_undefined, (), "no_such_name", "`no_such_name` is not defined"),
    (k_walrus, (), "y := n", "walrus"),
    (k_dict, (), '{"a": n}', "dicts"),
    (k_yield, (), "yield n", "`yield`"),
    (k_in, (), "n in (1, 2)", "comparison In"),
    (k_unpack_count, (), "a, b = n", "cannot unpack 3 values into 2"),
]


@pytest.mark.parametrize("kernel,args,snippet,message", SYNTAX_CASES, ids=[c[0].name for c in SYNTAX_CASES])
def test_syntax_outside_the_language(kernel: Any, args: tuple, snippet: str, message: str) -> None:
    err = compile_error(kernel, 3, *args)
    assert type(err) is asc.CompileError
    assert re.search(message, err.message), err.message
    check_location(err, kernel, snippet)
    assert err.hint and err.hint.startswith("hint: "), f"no hint in: {err}"
    assert err.hint in str(err)


@asc.jit
def k_static_assert(out: asc.GlobalAddress, m: asc.ConstExpr[int]):
    assert out.dtype == asc.int32, "out must hold int32"
    assert m > 0, f"m={m} must be positive"
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, m)


def test_assert_on_compile_time_values() -> None:
    """Upstream kernels assert on dtypes and ConstExpr values: checked while compiling."""
    out = np.zeros(8, np.int32)
    k_static_assert[1](out, 3)
    assert out[0] == 3
    with pytest.raises(asc.CompileError) as info:
        k_static_assert[1](np.zeros(8, np.float32), 3)
    assert info.value.message == "assertion failed while compiling the kernel: out must hold int32"
    check_location(info.value, k_static_assert, "assert out.dtype")
    with pytest.raises(asc.CompileError) as info:
        k_static_assert[1](out, -1)
    assert "assertion failed" in info.value.message and "m > 0" in info.value.hint
    check_location(info.value, k_static_assert, "assert m > 0")


def test_every_rejected_form_has_a_hint() -> None:
    from asc.codegen import function_visitor as fv

    for table in (fv._REJECTED_STMTS, fv._REJECTED_EXPRS):
        for node_type, text in table.items():
            assert ";" in text, f"{node_type.__name__}: no hint in {text!r}"


# ---------------------------------------------------------------------------
# names and values across control flow
# ---------------------------------------------------------------------------

@asc.jit
def k_branch_only(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    if n > 0:
        only_then = 1
    g.set_value(0, only_then)


@asc.jit
def k_loop_only(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    for i in range(n):
        last_i = i
    g.set_value(0, last_i)


@asc.jit
def k_loop_var_after(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    for loop_index in range(n):  # noqa: B007
        pass
    g.set_value(0, loop_index)


@asc.jit
def k_while_only(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    while n > 0:
        inner = n
        n -= 1
    g.set_value(0, inner)


@asc.jit
def k_widen_for(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    total = 0
    for i in range(n):  # noqa: B007
        total += 0.5
    g.set_value(0, total)


@asc.jit
def k_widen_while(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    acc = 0
    while acc < n:
        acc = acc + asc.get_block_idx() + 1
    g.set_value(0, acc)


@asc.jit
def k_branch_kinds(out: asc.GlobalAddress, n: int):
    t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    if n > 0:
        t = 5  # noqa: F841


@asc.jit
def k_compile_time_in_loop(out: asc.GlobalAddress, n: int):
    t = asc.int32
    for i in range(n):  # noqa: B007
        t = asc.float32  # noqa: F841


@asc.jit
def k_static_while_turns_runtime(out: asc.GlobalAddress, n: int):
    i = 0
    while i < 3:
        i = n


NAME_CASES = [
    (k_branch_only, "only_then)", "only one branch of a runtime `if`", "before the `if`"),
    (k_loop_only, "last_i)", "only inside a runtime loop", "before the loop"),
    (k_loop_var_after, "loop_index)", "variable of a runtime loop", "before the loop"),
    (k_while_only, "inner)", "only inside a runtime loop", "before the loop"),
    (k_widen_for, "for i in range(n):", "`total` is int32 when the loop starts but becomes float32",
     "`total = 0.0`"),
    (k_widen_while, "while acc < n:", "`acc` is int32 when the loop starts but becomes int64",
     "asc.int64"),
    (k_branch_kinds, "if n > 0:", "different kinds of values", "one type"),
    (k_compile_time_in_loop, "for i in range(n):", "compile-time DataType", "asc.ConstExpr"),
    (k_static_while_turns_runtime, "i < 3", "became a runtime value", "before the loop"),
]


@pytest.mark.parametrize("kernel,snippet,message,hint", NAME_CASES, ids=[c[0].name for c in NAME_CASES])
def test_names_and_types_across_control_flow(kernel: Any, snippet: str, message: str, hint: str) -> None:
    err = compile_error(kernel, 3)
    assert message in err.message
    assert err.hint and hint in err.hint
    check_location(err, kernel, snippet)


# ---------------------------------------------------------------------------
# operators and calls on the wrong values
# ---------------------------------------------------------------------------

@asc.jit
def k_pow_runtime(out: asc.GlobalAddress, n: int):
    x = n ** 2  # noqa: F841


@asc.jit
def k_is_runtime(out: asc.GlobalAddress, n: int):
    x = n is None  # noqa: F841


@asc.jit
def k_range_float(out: asc.GlobalAddress, n: int):
    for i in range(0, n, 0.5):  # noqa: B007
        pass


@asc.jit
def k_range_zero_step(out: asc.GlobalAddress, n: int):
    for i in range(0, n, 0):  # noqa: B007
        pass


@asc.jit
def k_range_value(out: asc.GlobalAddress, n: int):
    r = range(n)  # noqa: F841


@asc.jit
def k_runtime_index(out: asc.GlobalAddress, n: int):
    t = (1, 2, 3)
    x = t[n]  # noqa: F841


@asc.jit
def k_bad_attribute(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.no_such_method(n)


@asc.jit
def k_mod_float(out: asc.GlobalAddress, x: float):
    y = x % 2  # noqa: F841


@asc.jit
def k_condition_tensor(out: asc.GlobalAddress, n: int):
    if out:
        pass


@asc.jit
def dev_ret_in_if(x):
    if x > 0:
        return x
    return 0


@asc.jit
def k_device_return_in_if(out: asc.GlobalAddress, n: int):
    y = dev_ret_in_if(n)  # noqa: F841


@asc.jit
def dev_recursive(x):
    return dev_recursive(x - 1)


@asc.jit
def k_recursive(out: asc.GlobalAddress, n: int):
    y = dev_recursive(n)  # noqa: F841


@asc.jit
def dev_const(x, m: asc.ConstExpr[int]):
    return x * m


@asc.jit
def k_constexpr_runtime(out: asc.GlobalAddress, n: int):
    y = dev_const(n, n)  # noqa: F841


@asc.jit
def k_device_missing_arg(out: asc.GlobalAddress, n: int):
    y = dev_const(n)  # noqa: F841


@asc.jit
def k_call_kernel_param_type(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(n)


@asc.jit
def k_add_global(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    asc.add(g, g, g, 8)


@asc.jit
def k_copy_gm_to_gm(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    asc.data_copy(g, g, 8)


@asc.jit
def k_mixed_dtypes(out: asc.GlobalAddress, n: int):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    b = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 256, 64)
    asc.add(a, a, b, 64)


@asc.jit
def k_count_float(out: asc.GlobalAddress, n: int):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    asc.adds(a, a, 1.0, 2.5)


@asc.jit
def k_div_int(out: asc.GlobalAddress, n: int):
    x = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    asc.div(x, x, x, 64)


@asc.jit
def k_exp_int(out: asc.GlobalAddress, n: int):
    x = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    asc.exp(x, x, 64)


@asc.jit
def k_literal_too_wide(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, 2**40)


@asc.jit
def k_bad_event(out: asc.GlobalAddress, n: int):
    asc.set_flag(3.5, 0)


@asc.jit
def k_float_event_id(out: asc.GlobalAddress, x: float):
    asc.set_flag(asc.HardEvent.MTE2_V, x)


VALUE_CASES = [
    (k_pow_runtime, (3,), "n ** 2", r"`\*\*`", asc.UnsupportedError),
    (k_is_runtime, (3,), "n is None", "`is`", asc.CompileError),
    (k_range_float, (3,), "0.5", "integers", asc.CompileError),
    (k_range_zero_step, (3,), "range(0, n, 0)", "zero", asc.CompileError),
    (k_range_value, (3,), "range(n)", r"iterable of a `for`", asc.CompileError),
    (k_runtime_index, (3,), "t[n]", "compile-time integer", asc.CompileError),
    (k_bad_attribute, (3,), "g.no_such_method", "no_such_method", asc.CompileError),
    (k_mod_float, (2.5,), "x % 2", "float32", asc.CompileError),
    (k_condition_tensor, (3,), "out:", "cannot be used as a condition", asc.CompileError),
    (k_recursive, (3,), "dev_recursive(x - 1)", "recursive", asc.CompileError),
    (k_constexpr_runtime, (3,), "dev_const(n, n)", "asc.ConstExpr but got a runtime value", asc.CompileError),
    (k_device_missing_arg, (3,), "dev_const(n)", "missing a required argument: 'm'", asc.CompileError),
    (k_call_kernel_param_type, (3,), "g.set_global_buffer(n)", "GlobalAddress", asc.CompileError),
    (k_add_global, (3,), "asc.add(g", "must be a LocalTensor, got GlobalTensor", asc.CompileError),
    (k_copy_gm_to_gm, (3,), "asc.data_copy(g", "GlobalTensor", asc.CompileError),
    (k_mixed_dtypes, (3,), "asc.add(a", "one element type", asc.CompileError),
    (k_count_float, (3,), "asc.adds(a", "count must be an integer", asc.CompileError),
    (k_div_int, (3,), "asc.div(x", "int32", asc.CompileError),  # from the C core's op table
    (k_exp_int, (3,), "asc.exp(x", "int32", asc.CompileError),
    (k_bad_event, (3,), "asc.set_flag(3.5", "HardEvent", asc.CompileError),
    (k_literal_too_wide, (3,), "g.set_value(0, 2**40)", "1099511627776 does not fit int32", asc.CompileError),
    (k_float_event_id, (2.5,), "asc.set_flag(asc", "event_id must be an integer", asc.CompileError),
]


@pytest.mark.parametrize("kernel,args,snippet,message,cls", VALUE_CASES, ids=[c[0].name for c in VALUE_CASES])
def test_wrong_values_and_api_arguments(kernel: Any, args: tuple, snippet: str, message: str,
                                        cls: Type[Exception]) -> None:
    err = compile_error(kernel, *args, cls=cls)
    assert type(err) is cls
    assert re.search(message, err.message), err.message
    where = dev_recursive if kernel is k_recursive else kernel
    check_location(err, where, snippet)


def test_error_inside_a_device_function_points_into_it() -> None:
    err = compile_error(k_device_return_in_if, 3)
    assert "`return` inside control flow" in err.message
    check_location(err, dev_ret_in_if, "return x")
    assert err.hint


def test_compile_error_of_an_indented_kernel() -> None:
    @asc.jit
    def indented(out: asc.GlobalAddress, n: int):
        if n > 0:
            y = n + undefined_in_indented  # noqa: F821, F841

    err = compile_error(indented, 1)
    check_location(err, indented, "undefined_in_indented")


def test_indented_kernel_with_a_string_reaching_column_0() -> None:
    @asc.jit
    def docstring_at_col0(out: asc.GlobalAddress, n: int):
        """A docstring whose second line
starts at column 0 (textwrap.dedent cannot dedent this function)."""
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, n + undefined_after_docstring)  # noqa: F821

    err = compile_error(docstring_at_col0, 1)
    check_location(err, docstring_at_col0, "undefined_after_docstring")


def test_compile_error_in_an_indented_device_function() -> None:
    @asc.jit
    def indented_dev(x):
        return x + undefined_in_indented_dev  # noqa: F821

    @asc.jit
    def indented_caller(out: asc.GlobalAddress, n: int):
        y = indented_dev(n)  # noqa: F841

    err = compile_error(indented_caller, 1)
    check_location(err, indented_dev, "undefined_in_indented_dev")


def test_column_counts_characters_not_bytes() -> None:
    @asc.jit
    def non_ascii(out: asc.GlobalAddress, n: int):
        x = ("ÄÖÜ中文", undefined_after_text)  # noqa: F821, F841

    err = compile_error(non_ascii, 1)
    check_location(err, non_ascii, "undefined_after_text")


# ---------------------------------------------------------------------------
# level-0 and other unsupported forms: UnsupportedError (CompileError and NotImplementedError)
# ---------------------------------------------------------------------------

@asc.jit
def k_copy_params(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    x = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, 256)
    a1 = asc.LocalTensor(asc.int32, asc.TPosition.A1, 0, 256)
    asc.data_copy(a1, x, asc.Nd2NzParams(1, 1, 8, 0, 8, 1, 1, 1))  # (UB -> L1 through the Matmul server: not yet)


@asc.jit
def k_cube_queue(out: asc.GlobalAddress, n: int):
    q = asc.TQue(asc.TPosition.VECIN, 2, 1)  # noqa: F841 (a TQueConfig mask: not supported yet)


UNSUPPORTED_CASES = [
    (k_copy_params, "asc.data_copy(", "asc.data_copy"),
    (k_cube_queue, "asc.TQue(", "`mask` (a TQueConfig)"),
]


@pytest.mark.parametrize("kernel,snippet,message", UNSUPPORTED_CASES, ids=[c[0].name for c in UNSUPPORTED_CASES])
def test_unsupported_forms(kernel: Any, snippet: str, message: str) -> None:
    err = compile_error(kernel, 3, cls=NotImplementedError)
    assert isinstance(err, asc.UnsupportedError)
    assert isinstance(err, asc.CompileError)
    assert message in err.message
    check_location(err, kernel, snippet)


def test_unsupported_error_hierarchy() -> None:
    assert issubclass(asc.UnsupportedError, asc.CompileError)
    assert issubclass(asc.UnsupportedError, NotImplementedError)
    assert issubclass(asc.SanitizerError, asc.KernelError)
    assert issubclass(asc.KernelError, RuntimeError)


def test_api_outside_a_kernel() -> None:
    with pytest.raises(RuntimeError, match="inside an @asc.jit function"):
        asc.get_block_idx()
    with pytest.raises(RuntimeError, match="inside an @asc.jit function"):
        asc.GlobalTensor()


def test_failed_compilation_is_not_cached_and_can_be_retried() -> None:
    compile_error(k_undefined, 3)
    assert not k_undefined.cache
    compile_error(k_undefined, 3)


def test_jit_of_a_function_without_source() -> None:
    namespace: dict = {}
    exec("def f(out):\n    pass\n", {"asc": asc}, namespace)
    kernel = asc.jit(namespace["f"])
    with pytest.raises(RuntimeError, match="cannot read the source of f"):
        kernel[1](np.zeros(8, np.int32))


# ---------------------------------------------------------------------------
# faults while the kernel runs: asc.KernelError
# ---------------------------------------------------------------------------

def check_kernel_error(err: Any, kernel: Any, snippet: str, api: str, block: int = 0,
                       message: Optional[str] = None, at: Optional[str] = None) -> None:
    line, col = locate(kernel, snippet, at)
    assert isinstance(err, asc.KernelError)
    assert err.kernel == kernel.name
    assert err.block == block
    assert err.api == api
    assert os.path.abspath(err.filename) == HERE
    assert (err.line, err.col) == (line, col), str(err)
    text = str(err)
    assert f"kernel '{kernel.name}'" in text and f"block {block}" in text and api in text
    assert linecache.getline(HERE, line).rstrip("\n") in text
    if message is not None:
        assert re.search(message, err.message), err.message


@asc.jit
def gm_read_kernel(x: asc.GlobalAddress, index: int, dst: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    v = g.get_value(index)
    g.set_value(dst, v + 1)


@asc.jit
def gm_write_kernel(x: asc.GlobalAddress, index: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, 5)  # the kernel's own write, before the fault
    g.set_value(index, 7)


@asc.jit
def gm_copy_kernel(x: asc.GlobalAddress, count: int, write: asc.ConstExpr[bool]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    if write:
        asc.duplicate(t, 3.0, 1024)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(g, t, count)
    else:
        asc.data_copy(t, g, count)


def _guarded_view(n: int, dtype: Any = np.int32) -> Tuple[np.ndarray, np.ndarray]:
    """A view of n elements in the middle of a larger array filled with a pattern."""
    big = np.arange(3 * n, dtype=dtype) + 100
    return big, big[n:2 * n]


@pytest.mark.parametrize("index", [16, 17, 1000, -1])
def test_gm_read_out_of_bounds(index: int) -> None:
    big, view = _guarded_view(16)
    before = big.copy()
    with pytest.raises(asc.KernelError) as info:
        gm_read_kernel[1](view, index, 0)
    check_kernel_error(info.value, gm_read_kernel, "g.get_value(index)", "GlobalTensor.get_value")
    assert np.array_equal(big, before)  # nothing written at all: the read faulted first


@pytest.mark.parametrize("index", [16, 40, -3])
def test_gm_write_out_of_bounds(index: int) -> None:
    big, view = _guarded_view(16)
    before = big.copy()
    with pytest.raises(asc.KernelError) as info:
        gm_write_kernel[1](view, index)
    check_kernel_error(info.value, gm_write_kernel, "g.set_value(index, 7)", "GlobalTensor.set_value")
    expected = before.copy()
    expected[16] = 5  # the kernel's own earlier write
    assert np.array_equal(big, expected)


def test_gm_in_bounds_access_at_the_edges() -> None:
    big, view = _guarded_view(16)
    gm_read_kernel[1](view, 15, 0)
    assert view[0] == view[15] + 1
    assert big[16] == view[0] and big[31] == 100 + 31 and big[32] == 100 + 32


@pytest.mark.parametrize("write", [True, False])
def test_data_copy_out_of_bounds(write: bool) -> None:
    big, view = _guarded_view(256, np.float32)
    before = big.copy()
    with pytest.raises(asc.KernelError) as info:
        gm_copy_kernel[1](view, 512, write)
    check_kernel_error(info.value, gm_copy_kernel, "asc.data_copy(g, t, count)" if write else
                       "asc.data_copy(t, g, count)", "asc.data_copy", message="out of bounds")
    assert np.array_equal(big, before)  # checked before a single byte moved
    gm_copy_kernel[1](view, 256, write)  # the same kernel in bounds is fine
    if write:
        assert (view == 3.0).all()
        assert np.array_equal(big[:256], before[:256]) and np.array_equal(big[512:], before[512:])


@asc.jit
def ub_tensor_kernel(x: asc.GlobalAddress, elements: int):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, elements)
    asc.duplicate(t, 1.0, elements)


def test_local_tensor_beyond_ub() -> None:
    ub = 192 * 1024  # an AIV kernel using no API of table 5 may use all of it (test_hw_rules.py)
    out = np.zeros(8, np.float32)
    ub_tensor_kernel[1](out, ub // 4)  # exactly the usable UB is fine
    with pytest.raises(asc.KernelError) as info:
        ub_tensor_kernel[1](out, ub // 4 + 8)
    check_kernel_error(info.value, ub_tensor_kernel, "asc.LocalTensor(", "asc.LocalTensor", message="UB")


@asc.jit
def init_buffer_kernel(x: asc.GlobalAddress, size: int):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, size)


def test_init_buffer_beyond_ub() -> None:
    out = np.zeros(8, np.float32)
    half = 192 * 1024 // 2
    init_buffer_kernel[1](out, half)  # two buffers: exactly the UB this kernel may use (all of it: test_hw_rules.py)
    with pytest.raises(asc.KernelError) as info:
        init_buffer_kernel[1](out, half + 32)
    check_kernel_error(info.value, init_buffer_kernel, "pipe.init_buffer(", "TPipe.init_buffer", message="UB")


@asc.jit
def deadlock_kernel(x: asc.GlobalAddress, n: int):
    asc.set_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 1)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)


@asc.jit
def scalar_deadlock_kernel(x: asc.GlobalAddress, n: int):
    asc.wait_flag(asc.HardEvent.V_S, 0)
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, 1)


def test_wait_flag_without_set_flag_is_a_deadlock() -> None:
    with pytest.raises(asc.KernelError) as info:
        deadlock_kernel[1](np.zeros(8, np.int32), 0)
    check_kernel_error(info.value, deadlock_kernel, "asc.wait_flag(asc.HardEvent.MTE2_V, 0)", "asc.wait_flag",
                       message="deadlock")
    out = np.zeros(8, np.int32)
    with pytest.raises(asc.KernelError) as info:
        scalar_deadlock_kernel[1](out, 0)
    check_kernel_error(info.value, scalar_deadlock_kernel, "asc.wait_flag(", "asc.wait_flag", message="deadlock")
    assert not out.any()  # the scalar unit never got past the wait


@asc.jit
def queue_kernel(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    other = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, 1024)
    pipe.init_buffer(other, 2, 1024)
    if case == 0:
        t = q.deque(asc.float32)  # noqa: F841
    elif case == 1:
        a = q.alloc_tensor(asc.float32)
        b = q.alloc_tensor(asc.float32)
        third = q.alloc_tensor(asc.float32)  # noqa: F841
    elif case == 2:
        a = q.alloc_tensor(asc.float32)
        other.free_tensor(a)
    else:
        a = q.alloc_tensor(asc.float32)
        q.enque(a)
        b = q.deque(asc.float32)
        q.free_tensor(b)
        c = q.alloc_tensor(asc.float32)
        q.free_tensor(c)


@pytest.mark.parametrize("case,snippet,api,message", [
    (0, "t = q.deque", "TQue.deque", "empty"),
    (1, "third = q.alloc_tensor", "TQue.alloc_tensor", "in use"),
    (2, "other.free_tensor(a)", "TQue.free_tensor", "did not allocate"),
])
def test_queue_misuse(case: int, snippet: str, api: str, message: str) -> None:
    with pytest.raises(asc.KernelError) as info:
        queue_kernel[1](np.zeros(8, np.float32), case)
    # the location is that of the call expression
    check_kernel_error(info.value, queue_kernel, snippet, api, message=message, at=snippet.split(" = ")[-1])


def test_queue_correct_use_runs() -> None:
    queue_kernel[1](np.zeros(8, np.float32), 3)


@asc.jit
def several_fail_kernel(x: asc.GlobalAddress, first_bad: int, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    b = asc.get_block_idx()
    g.set_value(b, b + 1)
    if b >= first_bad:
        g.set_value(n + b, 1)


@pytest.mark.parametrize("first_bad", [0, 3, 7])
def test_error_of_the_lowest_failing_block(first_bad: int) -> None:
    big, view = _guarded_view(8)
    before = big.copy()
    with pytest.raises(asc.KernelError) as info:
        several_fail_kernel[8](view, first_bad, 8)
    check_kernel_error(info.value, several_fail_kernel, "g.set_value(n + b, 1)", "GlobalTensor.set_value",
                       block=first_bad)
    assert np.array_equal(big[:8], before[:8]) and np.array_equal(big[16:], before[16:])
    # the blocks below the failing one completed; a block at or above it either ran its own
    # write or (when its worker thread stopped at an earlier failure) never started
    assert view[:first_bad].tolist() == list(range(1, first_bad + 1))
    for b in range(first_bad, 8):
        assert view[b] in (b + 1, before[8 + b])


@asc.jit
def int_div_kernel(x: asc.GlobalAddress, a: int, b: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, a // b)


def test_integer_division_by_zero() -> None:
    out = np.zeros(8, np.int32)
    with pytest.raises(asc.KernelError) as info:
        int_div_kernel[1](out, 7, 0)
    check_kernel_error(info.value, int_div_kernel, "a // b", "operator / or //", message="division by zero")
    int_div_kernel[1](out, -2 ** 31, -1)  # INT_MIN / -1 wraps instead of trapping
    assert out[0] == -2 ** 31


@asc.jit
def fault_in_device(g: asc.GlobalTensor, i):
    g.set_value(i, 1)


@asc.jit
def fault_in_device_kernel(x: asc.GlobalAddress, i: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    fault_in_device(g, i)


def test_fault_inside_a_device_function_names_its_line() -> None:
    with pytest.raises(asc.KernelError) as info:
        fault_in_device_kernel[1](np.zeros(4, np.int32), 4)
    err = info.value
    line, col = locate(fault_in_device, "g.set_value(i, 1)")
    assert (err.line, err.col) == (line, col)
    assert err.kernel == "fault_in_device_kernel" and err.api == "GlobalTensor.set_value"


def test_kernel_errors_are_independent_of_later_launches() -> None:
    """A failed launch leaves no state behind: the next launch of the same compiled kernel works."""
    out = np.zeros(16, np.int32)
    with pytest.raises(asc.KernelError):
        gm_write_kernel[1](out, 16)
    gm_write_kernel[1](out, 15)
    assert out[0] == 5 and out[15] == 7
    assert len(gm_write_kernel.cache) == 1
