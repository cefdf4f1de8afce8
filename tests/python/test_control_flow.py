"""Control flow in kernels: `for` over range, `while`, `if`/`elif`/`else`
and conditional expressions, on runtime and compile-time values, with the
variables they assign flowing out (loop-carried values, branch results).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import asc
from asc.language.core.values import RANGE, STATIC_RANGE


def run(kernel: Any, *args: Any, size: int = 16, dtype: Any = np.int32) -> np.ndarray:
    out = np.zeros(size, dtype)
    kernel[1](out, *args)
    return out


def last_ir(kernel: Any) -> str:
    return list(kernel.cache.values())[-1].ir


# ---------------------------------------------------------------------------
# for
# ---------------------------------------------------------------------------

@asc.jit
def range_forms_kernel(out: asc.GlobalAddress, n: int, start: int, step: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    s1 = 0
    for i in range(n):  # one argument, runtime
        s1 += i
    g.set_value(0, s1)
    s2 = 0
    for i in range(start, n):  # two arguments
        s2 += i
    g.set_value(1, s2)
    s3 = 0
    for i in range(start, n, step):  # three arguments, runtime step
        s3 = s3 * 10 + i
    g.set_value(2, s3)
    s4 = 0
    for i in range(n, start, -2):  # negative step
        s4 = s4 * 10 + i
    g.set_value(3, s4)
    s5 = 0
    for i in range(10, 0, -3):  # compile-time bounds, negative step
        s5 = s5 * 100 + i
    g.set_value(4, s5)
    c = 0
    for _i in range(5):  # compile-time bound
        c += 1
    g.set_value(5, c)
    digits = 0
    for i in range(-2, n - 8, step):  # negative start
        digits = digits * 10 + (i + 5)
    g.set_value(6, digits)


def _digits(values: Any, base: int = 10) -> int:
    acc = 0
    for v in values:
        acc = acc * base + v
    return acc


@pytest.mark.parametrize("n,start,step", [(7, 2, 2), (9, 1, 3), (0, 0, 1), (3, 5, 1)])
def test_range_forms(n: int, start: int, step: int) -> None:
    out = run(range_forms_kernel, n, start, step)
    expected = [
        sum(range(n)),
        sum(range(start, n)),
        _digits(range(start, n, step)),
        _digits(range(n, start, -2)),
        _digits(range(10, 0, -3), 100),
        5,
        _digits(i + 5 for i in range(-2, n - 8, step)),
    ]
    assert out[:7].tolist() == expected


@asc.jit
def runtime_step_kernel(out: asc.GlobalAddress, a: int, b: int, step: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    c = 0
    s = 0
    for i in range(a, b, step):
        c += 1
        s = s * 10 + i
    g.set_value(0, c)
    g.set_value(1, s)


@pytest.mark.parametrize("a,b,step", [(9, 1, -2), (1, 9, -2), (9, 1, 2), (0, 10, 3), (5, 5, 1), (-3, 3, 2)])
def test_runtime_step_of_either_sign(a: int, b: int, step: int) -> None:
    out = run(runtime_step_kernel, a, b, step, dtype=np.int64)
    assert out[:2].tolist() == [len(range(a, b, step)), _digits(range(a, b, step))]


def test_runtime_zero_step_is_a_kernel_error() -> None:
    with pytest.raises(asc.KernelError, match="step must not be zero") as info:
        run(runtime_step_kernel, 0, 10, 0)
    assert info.value.api == "for ... in range()"


@asc.jit
def nested_for_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    total = 0
    pairs = 0
    for i in range(n):
        for j in range(i, n):
            total += i * j
            pairs += 1
    g.set_value(0, total)
    g.set_value(1, pairs)
    a, b = 0, 1
    for _ in range(n):  # two carried variables updated together
        a, b = b, a + b
    g.set_value(2, a)
    for i in range(n):  # writes at the loop index
        g.set_value(4 + i, i * i)


def test_nested_loops_and_carried_tuples() -> None:
    n = 6
    out = run(nested_for_kernel, n)
    fib = [0, 1]
    for _ in range(n):
        fib = [fib[1], fib[0] + fib[1]]
    assert out[0] == sum(i * j for i in range(n) for j in range(i, n))
    assert out[1] == n * (n + 1) // 2
    assert out[2] == fib[0]
    assert out[4:4 + n].tolist() == [i * i for i in range(n)]


@asc.jit
def int64_bounds_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    b = asc.get_block_idx()  # int64
    s = asc.int64(0)
    for i in range(b, b + n):  # the loop variable is int64
        s += i
    g.set_value(b * 8, s)  # a 64-byte data cache line per block


def test_loop_with_int64_bounds() -> None:
    out = np.zeros(32, np.int64)
    int64_bounds_kernel[4](out, 5)
    assert out[::8].tolist() == [sum(range(b, b + 5)) for b in range(4)]
    assert "scf.for" in last_ir(int64_bounds_kernel)


@asc.jit
def loop_float_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    acc = 0.0
    for _i in range(n):
        acc = acc * 0.5 + x
    g.set_value(0, acc)
    p = 1.0
    for i in range(1, n + 1):
        p *= i  # int operand promoted to the carried float
    g.set_value(1, p)


def test_loop_carried_float() -> None:
    n, x = 5, 3.0
    out = run(loop_float_kernel, n, x, dtype=np.float32)
    acc = 0.0
    for _ in range(n):
        acc = acc * 0.5 + x
    assert out[0] == np.float32(acc)
    assert out[1] == 120.0


# upstream pyasc's spellings; asc.range / asc.static_range once the language package exports them
asc_range = getattr(asc, "range", RANGE)
static_range = getattr(asc, "static_range", STATIC_RANGE)


@asc.jit
def static_range_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    acc = n
    for i in static_range(1, 4):  # unrolled: i is a Python int in each copy of the body
        acc = acc * 10 + i
        g.set_value(4 + i, i * n)
    g.set_value(0, acc)
    g.set_value(1, i)  # the unrolled loop variable keeps its last value, as in Python
    s = 0
    for j in asc_range(n):  # asc.range is the runtime loop
        s += j
    g.set_value(2, s)
    for k in static_range(3, 0, -1):
        g.set_value(8 + k, k)


def test_static_range_unrolls_and_asc_range_is_a_runtime_loop() -> None:
    n = 5
    out = run(static_range_kernel, n)
    assert out[:3].tolist() == [((n * 10 + 1) * 10 + 2) * 10 + 3, 3, sum(range(n))]
    assert out[5:8].tolist() == [n, 2 * n, 3 * n]
    assert out[9:12].tolist() == [1, 2, 3]
    ir = last_ir(static_range_kernel)
    assert ir.count('"scf.for"') == 1


@asc.jit
def static_range_runtime_bound(out: asc.GlobalAddress, n: int):
    for i in static_range(n):  # noqa: B007
        pass


def test_static_range_needs_compile_time_bounds() -> None:
    with pytest.raises(asc.CompileError, match="compile-time integers") as info:
        run(static_range_runtime_bound, 3)
    assert "use range" in info.value.hint


# ---------------------------------------------------------------------------
# while
# ---------------------------------------------------------------------------

@asc.jit
def gcd_kernel(out: asc.GlobalAddress, a: int, b: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    steps = 0
    while b != 0:
        a, b = b, a % b
        steps += 1
    g.set_value(0, a)
    g.set_value(1, steps)


@pytest.mark.parametrize("a,b", [(48, 18), (17, 5), (7, 0), (100, 75)])
def test_while_with_runtime_condition(a: int, b: int) -> None:
    out = run(gcd_kernel, a, b)
    import math

    x, y, steps = a, b, 0
    while y:
        x, y, steps = y, x % y, steps + 1
    assert out[:2].tolist() == [math.gcd(a, b), steps]
    assert "scf.while" in last_ir(gcd_kernel)


@asc.jit
def collatz_kernel(out: asc.GlobalAddress, n: int, limit: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    steps = 0
    while n != 1 and steps < limit:  # compound condition
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    g.set_value(0, steps)
    g.set_value(1, n)


@pytest.mark.parametrize("n,limit", [(27, 1000), (27, 10), (1, 5), (6, 100)])
def test_while_with_branches_in_body(n: int, limit: int) -> None:
    out = run(collatz_kernel, n, limit)
    steps, x = 0, n
    while x != 1 and steps < limit:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    assert out[:2].tolist() == [steps, x]


@asc.jit
def static_while_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    i = 0
    acc = n
    while i < 4:  # a compile-time condition: unrolled
        acc = acc * 2
        g.set_value(i, acc)
        i += 1


def test_compile_time_while_is_unrolled() -> None:
    out = run(static_while_kernel, 3)
    assert out[:5].tolist() == [6, 12, 24, 48, 0]
    ir = last_ir(static_while_kernel)
    assert "scf.while" not in ir and ir.count("arith.mul") == 4


@asc.jit
def while_zero_trip_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    x = 5
    while n > 100:
        x += n
        n -= 1
    g.set_value(0, x)
    g.set_value(1, n)


def test_while_that_never_runs_keeps_initial_values() -> None:
    assert run(while_zero_trip_kernel, 3)[:2].tolist() == [5, 3]
    assert run(while_zero_trip_kernel, 102)[:2].tolist() == [5 + 102 + 101, 100]


# ---------------------------------------------------------------------------
# if / elif / else
# ---------------------------------------------------------------------------

@asc.jit
def classify_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    if n < 0:
        kind = -1
        mag = -n
    elif n == 0:
        kind = 0
        mag = 0
    elif n < 10:
        kind = 1
        mag = n
    else:
        kind = 2
        mag = n // 10
    g.set_value(0, kind)
    g.set_value(1, mag)
    x = 100
    if n > 5:  # assigned in one branch, defined before
        x = n
    g.set_value(2, x)
    if n:  # truth of an int
        g.set_value(3, 1)
    if not n > 3:
        g.set_value(4, 1)
    else:
        g.set_value(4, 2)


@pytest.mark.parametrize("n", [-4, 0, 7, 42])
def test_if_elif_else_runtime(n: int) -> None:
    out = run(classify_kernel, n)
    if n < 0:
        kind, mag = -1, -n
    elif n == 0:
        kind, mag = 0, 0
    elif n < 10:
        kind, mag = 1, n
    else:
        kind, mag = 2, n // 10
    assert out[:5].tolist() == [kind, mag, n if n > 5 else 100, int(bool(n)), 1 if not n > 3 else 2]


@asc.jit
def nested_if_kernel(out: asc.GlobalAddress, a: int, b: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    r = 0
    if a > 0:
        if b > 0:
            r = 1
        else:
            r = 2
    else:
        if b > 0:
            r = 3
    g.set_value(0, r)
    evens = 0
    for i in range(a):
        if i % 2 == 0:
            evens += 1
    g.set_value(1, evens)


@pytest.mark.parametrize("a,b", [(5, 1), (5, -1), (-5, 1), (-5, -1)])
def test_nested_if_and_if_in_loop(a: int, b: int) -> None:
    out = run(nested_if_kernel, a, b)
    r = (1 if b > 0 else 2) if a > 0 else (3 if b > 0 else 0)
    assert out[:2].tolist() == [r, len(range(0, max(a, 0), 2))]


@asc.jit
def static_if_kernel(out: asc.GlobalAddress, n: int, mode: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    if mode == 0:
        y = n + 1
    elif mode == 1:
        y = n * 2.5  # the other branch may even have another type
    else:
        y = out  # or be a non-number: it is never compiled for mode 0 and 1
    if mode != 2:
        g.set_value(0, y)


def test_compile_time_if_compiles_only_the_taken_branch() -> None:
    assert run(static_if_kernel, 4, 0)[0] == 5
    assert run(static_if_kernel, 4, 1)[0] == 10
    run(static_if_kernel, 4, 2)
    irs = [c.ir for c in static_if_kernel.cache.values()]
    assert len(irs) == 3
    assert all("scf.if" not in ir for ir in irs)
    assert "arith.add" in irs[0] and "arith.mul" not in irs[0]


@asc.jit
def if_promotes_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    w = n  # int32 before the if
    if n > 3:
        w = 1.5  # float in one branch: after the if `w` is a float, as in Python
    g.set_value(0, w * 2)
    if n > 3:
        v = asc.get_block_idx() + 10  # int64
    else:
        v = n  # int32
    g.set_value(1, v)


@pytest.mark.parametrize("n", [2, 5])
def test_if_join_promotes_types(n: int) -> None:
    out = run(if_promotes_kernel, n, dtype=np.float32)
    assert out[0] == (3.0 if n > 3 else 2.0 * n)
    assert out[1] == (10 if n > 3 else n)


@asc.jit
def if_tensor_kernel(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    a = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    b = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 256, 64)
    asc.duplicate(a, 1, 64)
    asc.duplicate(b, 2, 64)
    t = a
    if n > 0:
        t = b  # a tensor chosen at run time
    g.set_value(0, t.get_value(5))
    u = a
    for _i in range(n):  # a tensor carried through a loop
        u = b
    g.set_value(1, u.get_value(5))


@pytest.mark.parametrize("n", [0, 3])
def test_tensors_through_control_flow(n: int) -> None:
    out = run(if_tensor_kernel, n)
    assert out[:2].tolist() == [2 if n > 0 else 1] * 2


# ---------------------------------------------------------------------------
# conditional expressions
# ---------------------------------------------------------------------------

@asc.jit
def ifexp_kernel(out: asc.GlobalAddress, n: int, x: float):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n if n > 0 else -n)  # runtime: both sides numbers, a select
    g.set_value(1, 1.5 if n > 2 else n)  # int and float -> float
    g.set_value(2, x if x > n else 0.25)
    g.set_value(3, (7 if n > 0 else 8) * 2)


@asc.jit
def static_ifexp_kernel(out: asc.GlobalAddress, n: int, m: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n if m > 0 else out)  # compile-time: only the chosen side is evaluated... and used


@pytest.mark.parametrize("n,x", [(3, 1.0), (-2, -5.0), (1, 2.0)])
def test_conditional_expressions(n: int, x: float) -> None:
    out = run(ifexp_kernel, n, x, dtype=np.float32)
    assert out[:4].tolist() == [abs(n), 1.5 if n > 2 else n, x if x > n else 0.25, 14 if n > 0 else 16]
    ir = last_ir(ifexp_kernel)
    assert ir.count("arith.select") == 4
    assert "scf.if" not in ir


def test_compile_time_conditional_expression() -> None:
    assert run(static_ifexp_kernel, 9, 1)[0] == 9
    assert "arith.select" not in last_ir(static_ifexp_kernel)


# ---------------------------------------------------------------------------
# loops and branches in device functions
# ---------------------------------------------------------------------------

@asc.jit
def power_of(base, exponent):
    result = 1
    e = exponent
    while e > 0:
        if e % 2 == 1:
            result *= base
        base = base * base
        e = e // 2
    return result


@asc.jit
def sum_and_count(n):
    s = 0
    c = 0
    for i in range(n):
        if i % 3 == 0:
            s += i
            c += 1
    return s, c


@asc.jit
def device_flow_kernel(out: asc.GlobalAddress, b: int, e: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, power_of(b, e))
    s, c = sum_and_count(e)
    g.set_value(1, s)
    g.set_value(2, c)


@pytest.mark.parametrize("b,e", [(3, 5), (2, 10), (7, 0)])
def test_control_flow_in_device_functions(b: int, e: int) -> None:
    out = run(device_flow_kernel, b, e)
    multiples = [i for i in range(e) if i % 3 == 0]
    assert out[:3].tolist() == [b ** e, sum(multiples), len(multiples)]
