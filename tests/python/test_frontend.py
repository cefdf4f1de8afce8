"""The kernel language (DESIGN.md §7): assignments, expressions, builtins,
subscripts, attribute access, device functions, captured constants and
asc.ConstExpr specialisation.

Each kernel computes scalars from its runtime arguments and writes them to
a GlobalTensor with set_value; the test reads them back in NumPy and
compares with what Python computes for the same expression.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import asc


def run(kernel: Any, *args: Any, size: int = 16, dtype: Any = np.int32) -> np.ndarray:
    """Launches kernel(out, *args) on one block; returns out."""
    out = np.zeros(size, dtype)
    kernel[1](out, *args)
    return out


def only_compiled(kernel: Any) -> Any:
    assert len(kernel.cache) >= 1
    return list(kernel.cache.values())[-1]


# ---------------------------------------------------------------------------
# assignments
# ---------------------------------------------------------------------------

@asc.jit
def assignments_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    a = n  # plain
    a += 3  # augmented, runtime
    b: asc.int32 = n * 2  # annotated with an element type
    c, d = n, n - 1  # tuple unpacking
    (e, f), h = (n + 1, 2), 5  # nested unpacking
    [p, q] = [n, 7]  # list target
    x = y = n + 100  # chained
    c, d = d, c  # swap
    k = 10
    k -= n
    k *= 3
    k //= 2
    k %= 7
    m = 1
    m <<= n
    m |= 1
    m ^= 3
    g.set_value(0, a)
    g.set_value(1, b)
    g.set_value(2, c)
    g.set_value(3, d)
    g.set_value(4, e)
    g.set_value(5, f)
    g.set_value(6, h)
    g.set_value(7, p + q)
    g.set_value(8, x + y)
    g.set_value(9, k)
    g.set_value(10, m)


@pytest.mark.parametrize("n", [4, -9])
def test_assignments(n: int) -> None:
    out = run(assignments_kernel, n)
    k = int(np.int32(10 - n) * 3)
    k = int(np.trunc(k / 2))  # runtime // truncates like C
    k = int(np.fmod(k, 7))  # runtime % takes the sign of the dividend like C
    m = (((1 << n) if n >= 0 else 0) | 1) ^ 3
    expected = [n + 3, 2 * n, n - 1, n, n + 1, 2, 5, n + 7, 2 * (n + 100), k]
    assert out[:10].tolist() == expected
    if n >= 0:
        assert out[10] == m


@asc.jit
def annotated_float_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    f: asc.float32 = n  # the annotation converts the runtime int
    h: asc.float32 = 3  # and a Python number
    u: int  # noqa: F842  (a bare annotation declares nothing)
    g.set_value(0, f / 4)
    g.set_value(1, h / 2)


def test_annotated_assignment_converts() -> None:
    out = run(annotated_float_kernel, 5, dtype=np.float32)
    assert out[:2].tolist() == [1.25, 1.5]
    ir = only_compiled(annotated_float_kernel).ir
    assert "arith.cast" in ir


# ---------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------

@asc.jit
def int_arith_kernel(out: asc.GlobalAddress, a: int, b: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, a + b)
    g.set_value(1, a - b)
    g.set_value(2, a * b)
    g.set_value(3, a // b)
    g.set_value(4, a % b)
    g.set_value(5, a & b)
    g.set_value(6, a | b)
    g.set_value(7, a ^ b)
    g.set_value(8, a << 2)
    g.set_value(9, a >> 1)
    g.set_value(10, -a)
    g.set_value(11, +a)
    g.set_value(12, ~a)
    g.set_value(13, 3 - a)  # reflected operators with a Python number on the left
    g.set_value(14, 100 // b)
    g.set_value(15, 2 * a + 1)


@pytest.mark.parametrize("a,b", [(17, 5), (40, 7), (3, 4)])
def test_int_arithmetic_matches_python_for_non_negative(a: int, b: int) -> None:
    out = run(int_arith_kernel, a, b)
    expected = [a + b, a - b, a * b, a // b, a % b, a & b, a | b, a ^ b, a << 2, a >> 1, -a, a, ~a, 3 - a,
                100 // b, 2 * a + 1]
    assert out.tolist() == expected


@pytest.mark.parametrize("a,b", [(-7, 2), (7, -2), (-7, -2), (-1, 5)])
def test_floor_div_and_mod_of_negative_runtime_ints_truncate_like_c(a: int, b: int) -> None:
    """Documented semantics: on runtime integers `//` and `%` are C's `/` and
    `%` (the quotient truncates toward zero, the remainder takes the sign of
    the dividend), as in the Ascend C code the kernel becomes. Python's
    floor semantics apply only to compile-time values."""
    out = run(int_arith_kernel, a, b)
    c_quot = int(np.trunc(a / b))
    c_rem = a - b * c_quot
    assert out[3] == c_quot
    assert out[4] == c_rem
    if (a < 0) != (b < 0):
        assert (out[3], out[4]) != (a // b, a % b)  # differs from Python when the signs differ
    assert c_rem == np.fmod(a, b)


@asc.jit
def folded_negative_kernel(out: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    a = -7
    g.set_value(0, a // 2)  # compile-time: Python semantics
    g.set_value(1, a % 2)


def test_floor_div_and_mod_of_compile_time_ints_follow_python() -> None:
    out = run(folded_negative_kernel)
    assert out[:2].tolist() == [-7 // 2, -7 % 2] == [-4, 1]
    ir = only_compiled(folded_negative_kernel).ir
    assert "arith.div" not in ir and "arith.rem" not in ir  # folded while compiling


@asc.jit
def mixed_arith_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n + 0.5)  # int + float literal -> float
    g.set_value(1, n * x)  # int * float -> float
    g.set_value(2, n / 4)  # / of ints is true division
    g.set_value(3, x - n)
    g.set_value(4, x / 2)
    g.set_value(5, -x)
    g.set_value(6, 1.0 / x)
    g.set_value(7, n * 2 * 0.25)
    g.set_value(8, float(n) / 8)
    g.set_value(9, int(x * 3))  # truncates toward zero
    g.set_value(10, asc.float32(n) + 0.125)
    g.set_value(11, abs(x - 10))
    g.set_value(12, min(x, n) + max(x, 0.0))


@pytest.mark.parametrize("n,x", [(3, 1.5), (-5, 2.25)])
def test_int_float_mixing(n: int, x: float) -> None:
    out = run(mixed_arith_kernel, n, x, dtype=np.float32)
    expected = [n + 0.5, n * x, n / 4, x - n, x / 2, -x, 1.0 / x, n * 2 * 0.25, n / 8, int(x * 3), n + 0.125,
                abs(x - 10), min(x, n) + max(x, 0.0)]
    np.testing.assert_allclose(out[:13], np.array(expected, np.float32), rtol=1e-6)


@asc.jit
def int_types_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    big = asc.int64(n) * 1000000  # int64 arithmetic does not wrap at 2**31
    g.set_value(0, big)
    g.set_value(1, asc.get_block_idx() + n)  # int64 + int32 -> int64
    g.set_value(2, min(n, 3) + max(n, 7) + abs(-n))
    g.set_value(3, bool(n))
    g.set_value(4, int(n > 2) + int(True))


def test_integer_widths_and_builtins() -> None:
    out = run(int_types_kernel, 5000, dtype=np.int64)
    assert out[:5].tolist() == [5000 * 1000000, 5000, 3 + 5000 + 5000, 1, 2]
    ir = only_compiled(int_types_kernel).ir
    assert "(i64, i64) -> i64" in ir


@asc.jit
def big_literal_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n + 2**40)  # a literal too wide for int32 computes in int64, as in Python
    g.set_value(1, n * 3000000000)
    g.set_value(2, n < 2**40)
    g.set_value(3, n - 1)  # a literal that fits stays in n's type
    g.set_value(4, max(n, 2**35))


def test_integer_literals_wider_than_the_runtime_operand() -> None:
    n = 3
    out = run(big_literal_kernel, n, dtype=np.int64)
    assert out[:5].tolist() == [n + 2**40, n * 3000000000, 1, n - 1, 2**35]
    ir = only_compiled(big_literal_kernel).ir
    assert "value = 1099511627776 : i64" in ir


@asc.jit
def pow_const_kernel(out: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, 2 ** 10)  # compile-time numbers may use any Python operator


def test_compile_time_power_is_folded() -> None:
    assert run(pow_const_kernel)[0] == 1024


# ---------------------------------------------------------------------------
# comparisons, boolean and unary operators
# ---------------------------------------------------------------------------

@asc.jit
def compare_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n < 5)
    g.set_value(1, n <= 5)
    g.set_value(2, n > 5)
    g.set_value(3, n >= 5)
    g.set_value(4, n == 5)
    g.set_value(5, n != 5)
    g.set_value(6, 0 <= n < 10)  # chain
    g.set_value(7, 0 < n <= 4 < 9)  # three links, compile-time last one
    g.set_value(8, n > x)  # int vs float
    g.set_value(9, n > 3 and n < 8)
    g.set_value(10, n < 0 or n > 6)
    g.set_value(11, not n == 5)
    g.set_value(12, not n)  # truth of an int
    g.set_value(13, n > 0 and True)  # mixing runtime and compile-time operands
    g.set_value(14, n > 100 or x > 0)
    g.set_value(15, not (x < 1.0))


@pytest.mark.parametrize("n,x", [(5, 4.5), (0, -1.0), (7, 7.5), (12, 0.5)])
def test_comparisons_and_boolean_operators(n: int, x: float) -> None:
    out = run(compare_kernel, n, x)
    expected = [n < 5, n <= 5, n > 5, n >= 5, n == 5, n != 5, 0 <= n < 10, 0 < n <= 4 < 9, n > x,
                n > 3 and n < 8, n < 0 or n > 6, not n == 5, not n, n > 0 and True, n > 100 or x > 0,
                not (x < 1.0)]
    assert out.tolist() == [int(bool(v)) for v in expected]


@asc.jit
def bool_value_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n and 5)  # runtime `and`/`or` combine their operands as booleans
    g.set_value(1, 0 or 7)  # compile-time operands keep Python's value semantics


def test_boolean_operator_values() -> None:
    out = run(bool_value_kernel, 3)
    assert out[:2].tolist() == [1, 7]


@asc.jit
def unary_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, -x)
    g.set_value(1, +x)
    g.set_value(2, -n)
    g.set_value(3, not x)
    g.set_value(4, -(+x))


def test_unary_operators() -> None:
    out = run(unary_kernel, 3, 2.5, dtype=np.float32)
    assert out[:5].tolist() == [-2.5, 2.5, -3.0, 0.0, -2.5]
    out = run(unary_kernel, 3, 0.0, dtype=np.float32)
    assert out[3] == 1.0


# ---------------------------------------------------------------------------
# subscripts, slices, tuples, lists, attributes, pass
# ---------------------------------------------------------------------------

@asc.jit
def tuples_lists_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    t = (n, n + 1, n + 2)
    lst = [10, n, 30]
    g.set_value(0, t[0])
    g.set_value(1, t[-1])
    g.set_value(2, lst[1] + lst[2])
    rest = t[1:]  # slicing a tuple at compile time
    g.set_value(3, rest[0])
    g.set_value(4, len(rest) + len(lst))
    a, b, c = t
    g.set_value(5, a + b + c)
    pair = (t, lst)
    g.set_value(6, pair[1][0])


def test_tuples_and_lists() -> None:
    n = 4
    out = run(tuples_lists_kernel, n)
    assert out[:7].tolist() == [n, n + 2, n + 30, n + 1, 5, 3 * n + 3, 10]


@asc.jit
def slices_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    tail = g[4:]  # a GlobalTensor view from element 4
    tail.set_value(0, 11)
    tail[n:].set_value(0, 22)  # runtime offset
    g[n + 6:].set_value(1, 33)
    shifted = g(2)  # upstream spelling of an offset view
    shifted.set_value(0, 44)
    loc = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    asc.duplicate(loc, 0, 64)
    loc[8:].set_value(1, 55)
    g.set_value(0, loc.get_value(9))
    g.set_value(1, loc[n:].get_value(9 - n))


def test_subscripts_and_slices_of_tensors() -> None:
    n = 3
    out = run(slices_kernel, n)
    assert out[0] == 55
    assert out[1] == 55
    assert out[2] == 44
    assert out[4] == 11
    assert out[4 + n] == 22
    assert out[n + 7] == 33


@pytest.mark.parametrize("np_dtype", [np.int8, np.int16, np.int32, np.float16, np.float32, np.int64])
def test_attribute_access_dtype_sizeof(np_dtype: Any) -> None:
    @asc.jit
    def sizeof_kernel(out: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, out.dtype.sizeof())
        g.set_value(1, g.dtype.sizeof() * 2)
        if out.dtype.is_float():  # a compile-time condition on an attribute
            g.set_value(2, 1)
        else:
            g.set_value(2, 2)
        pass

    out = run(sizeof_kernel, dtype=np_dtype)
    size = np.dtype(np_dtype).itemsize
    assert out[:3].tolist() == [size, 2 * size, 1 if np.dtype(np_dtype).kind == "f" else 2]


@asc.jit
def pass_kernel(out: asc.GlobalAddress, n: int):
    """A docstring is not code."""
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    if n > 0:
        pass
    else:
        g.set_value(0, 1)
    for _ in range(n):
        pass
    pass


def test_pass_and_docstring() -> None:
    assert run(pass_kernel, 3)[0] == 0
    assert run(pass_kernel, 0)[0] == 1


# ---------------------------------------------------------------------------
# device functions
# ---------------------------------------------------------------------------

@asc.jit
def square(x):
    return x * x


@asc.jit
def divmod_c(a, b):
    return a // b, a % b


@asc.jit
def store(g: asc.GlobalTensor, index, value):
    g.set_value(index, value)


@asc.jit
def scaled(x, factor: asc.ConstExpr[int], offset=100):
    return x * factor + offset


@asc.jit
def constant_five():
    return 5


@asc.jit
def single_tuple(x):
    return (x + 1,)


@asc.jit
def twice_square(x):
    return square(x) + square(x)  # a device function calling another


@asc.jit
def device_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, square(n))
    q, r = divmod_c(n, 3)
    g.set_value(1, q)
    g.set_value(2, r)
    store(g, 3, n + 1)
    g.set_value(4, scaled(n, 10))
    g.set_value(5, scaled(n, 2, offset=1))
    g.set_value(6, constant_five())
    (s,) = single_tuple(n)
    g.set_value(7, s)
    g.set_value(8, twice_square(n))
    g.set_value(9, square(x) * 4)  # float specialisation of the same function
    g.set_value(10, square(3))  # a Python number becomes a runtime argument


def test_device_functions() -> None:
    n, x = 7, 1.5
    out = run(device_kernel, n, x)
    assert out[:11].tolist() == [49, 2, 1, 8, 170, 15, 5, 8, 98, 9, 9]
    ir = only_compiled(device_kernel).ir
    # one function per specialisation: square(i32), square(f32); scaled with factor 10 and with 2
    assert ir.count('sym_name = "square') == 2
    assert ir.count('sym_name = "scaled') == 2
    assert ir.count('sym_name = "divmod_c"') == 1


def test_device_call_carries_the_call_site_location() -> None:
    """The func.call op points at the caller's line, not into the callee."""
    import inspect

    run(device_kernel, 2, 0.5)
    ir = only_compiled(device_kernel).ir
    lines, first = inspect.getsourcelines(device_kernel.fn)
    call_line = first + next(i for i, text in enumerate(lines) if "g.set_value(0, square(n))" in text)
    calls = [ln for ln in ir.splitlines() if '"func.call"' in ln and 'callee = "square"' in ln]
    assert calls
    m = re.search(r'loc\("[^"]*":(\d+):\d+\)', calls[0])
    assert m and int(m.group(1)) == call_line


@asc.jit
def tensor_device(x_local: asc.LocalTensor, value):
    asc.duplicate(x_local, value, 64)
    return x_local


@asc.jit
def tensor_device_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    loc = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    same = tensor_device(loc, n)
    g.set_value(0, same.get_value(63))


def test_device_function_takes_and_returns_tensors() -> None:
    assert run(tensor_device_kernel, 9)[0] == 9


# ---------------------------------------------------------------------------
# compile-time values: module constants, closures, asc.ConstExpr
# ---------------------------------------------------------------------------

SCALE = 3
OFFSETS = (10, 20)


@asc.jit
def constants_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n * SCALE)
    g.set_value(1, OFFSETS[1])


def test_module_constants_are_captured_and_part_of_the_cache_key() -> None:
    global SCALE
    assert run(constants_kernel, 5)[:2].tolist() == [15, 20]
    assert run(constants_kernel, 6)[0] == 18
    assert len(constants_kernel.cache) == 1
    first = only_compiled(constants_kernel)
    assert "arith.constant" in first.ir and "value = 3 " in first.ir
    old = SCALE
    try:
        SCALE = 4
        assert run(constants_kernel, 5)[0] == 20  # recompiled with the new value
        assert only_compiled(constants_kernel) is not first
        second = only_compiled(constants_kernel)
        assert run(constants_kernel, 5)[0] == 20
        assert only_compiled(constants_kernel) is second  # and cached again
    finally:
        SCALE = old
    assert run(constants_kernel, 5)[0] == 15


NP_FACTOR = np.int32(4)
NP_TABLE = np.array([3, 5, 7], np.int64)


@asc.jit
def numpy_constants_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n * NP_FACTOR)  # NumPy scalars act as the Python numbers they hold
    g.set_value(1, NP_TABLE[1] + n)  # elements of a NumPy lookup table too
    for i in range(NP_FACTOR):
        g.set_value(2 + i, i)


def test_numpy_module_constants() -> None:
    out = run(numpy_constants_kernel, 3)
    assert out[:6].tolist() == [12, 8, 0, 1, 2, 3]
    NP_TABLE[1] = 50  # a table changed in place is a new constant
    try:
        assert run(numpy_constants_kernel, 3)[1] == 53
    finally:
        NP_TABLE[1] = 5


def make_scaler(factor: int) -> Any:
    @asc.jit
    def closure_kernel(out: asc.GlobalAddress, n: int):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, n * factor)

    return closure_kernel


def test_closure_variables_are_captured() -> None:
    k2, k5 = make_scaler(2), make_scaler(5)
    assert run(k2, 7)[0] == 14
    assert run(k5, 7)[0] == 35


def test_closure_variable_change_recompiles() -> None:
    factor = 2

    @asc.jit
    def closure_kernel(out: asc.GlobalAddress, n: int):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, n * factor)

    assert run(closure_kernel, 7)[0] == 14
    factor = 3
    assert run(closure_kernel, 7)[0] == 21


@asc.jit
def constexpr_kernel(out: asc.GlobalAddress, n: int, m: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n * m)
    g.set_value(1, m)
    if m > 2:  # compile-time: only the taken branch is compiled
        g.set_value(2, 100)
    else:
        g.set_value(2, 200)
    acc = 0
    for _i in range(m):  # a loop whose bound is a compile-time constant
        acc += n
    g.set_value(3, acc)


def test_constexpr_specialisations() -> None:
    a = run(constexpr_kernel, 5, 2)
    b = run(constexpr_kernel, 5, 7)
    assert a[:4].tolist() == [10, 2, 200, 10]
    assert b[:4].tolist() == [35, 7, 100, 35]
    assert len(constexpr_kernel.cache) == 2
    irs = [c.ir for c in constexpr_kernel.cache.values()]
    assert all("scf.if" not in ir for ir in irs)
    assert sum("value = 200 " in ir for ir in irs) == 1
    c = run(constexpr_kernel, 6, asc.ConstExpr(7))  # an explicit ConstExpr wrapper is the same value
    assert c[0] == 42
    assert len(constexpr_kernel.cache) == 2


@asc.jit
def constexpr_dtype_kernel(out: asc.GlobalAddress, t: asc.ConstExpr[asc.DataType], flag: asc.ConstExpr[bool]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, t.sizeof())
    g.set_value(1, 1 if flag else 2)


def test_constexpr_of_other_types() -> None:
    assert run(constexpr_dtype_kernel, asc.float16, True)[:2].tolist() == [2, 1]
    assert run(constexpr_dtype_kernel, asc.int64, False)[:2].tolist() == [8, 2]
    assert len(constexpr_dtype_kernel.cache) == 2


@asc.jit
def scalar_convert_kernel(out: asc.GlobalAddress, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, asc.int32(x))
    g.set_value(1, asc.int64(x * 2))
    g.set_value(2, int(-x))


def test_element_type_conversions() -> None:
    assert run(scalar_convert_kernel, 2.75)[:3].tolist() == [2, 5, -2]


PAIR = (1, 2)


@asc.jit
def star_call_kernel(z: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(z)
    at = (0, n)
    g.set_value(*at)  # a tuple built in the kernel: its length is known at compile time
    g.set_value(*PAIR)  # a module-level constant
    g.set_value(*[3, n + 1])


def test_star_unpacking_of_a_compile_time_tuple_or_list() -> None:
    z = np.zeros(8, np.int32)
    star_call_kernel[1](z, 41)
    assert z[:4].tolist() == [41, 2, 0, 42]
