"""asc2 comparisons (equal ... less_equal, the operators < <= > >= == != on tiles) and asc2.where against NumPy:
float16 and float32, tile-tile, tile-scalar, scalar-tile, scalar values, sizes that are no whole 256-byte
repeat (Compare runs over whole repeats: the lowering lengthens the source tiles); the lowering in the log and
the Ascend C; errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import asc
import asc2
from asc.codegen.errors import CompileError
from asc.runtime import compiler

CMPS = [
    (asc2.equal, np.equal),
    (asc2.not_equal, np.not_equal),
    (asc2.greater, np.greater),
    (asc2.greater_equal, np.greater_equal),
    (asc2.less, np.less),
    (asc2.less_equal, np.less_equal),
]


@asc2.jit
def where_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress,
                 n: asc.ConstExpr[int], op: asc.ConstExpr, form: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [n], offsets=[0])
    if form == 0:
        z = asc2.where(op(x, y), x, y)
    elif form == 1:
        z = asc2.where(op(x, 0.5), x, -1.0)  # tile-scalar compare, scalar "else"
    elif form == 2:
        z = asc2.where(op(0.5, y), 2.0, y)  # scalar-tile compare, scalar "then"
    else:
        z = asc2.where(op(x, y), 0.0, 1.0)
    asc2.store(z, asc2.tensor(z_ptr, [n]), offsets=[0])


@pytest.mark.parametrize("op, ref", CMPS)
@pytest.mark.parametrize("dtype, n", [("float32", 32), ("float32", 100), ("float16", 144), ("float16", 16)])
def test_where(op: Any, ref: Any, dtype: str, n: int) -> None:
    rng = np.random.default_rng(n)
    x = rng.random(n).astype(dtype)
    y = rng.random(n).astype(dtype)
    x[::5] = y[::5]  # some equal elements
    x[3] = 0.5
    y[4] = 0.5
    wants = [np.where(ref(x, y), x, y), np.where(ref(x, 0.5), x, -1), np.where(ref(0.5, y), 2, y),
             np.where(ref(x, y), 0, 1)]
    for form, want in enumerate(wants):
        z = np.zeros(n, dtype)
        where_kernel[1](x, y, z, n, op, form)
        np.testing.assert_array_equal(z, want.astype(dtype), err_msg=f"form {form}")


@asc2.jit
def operators_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    a = asc2.where(x >= 0.25, x, 0.0)
    b = asc2.where(x >= 0.75, 1.0, a)
    c = asc2.where(0.5 == x, 7.0, b)
    asc2.store(asc2.where(x != x, 9.0, c), asc2.tensor(z_ptr, [n]), offsets=[0])


def test_operators_and_log() -> None:
    n = 40
    x = np.linspace(0, 1, n).astype(np.float32)
    x[7] = 0.5
    z = np.zeros_like(x)
    seen: list = []
    compiler.compile_listeners.append(seen.append)
    try:
        operators_kernel[1](x, z, n)
    finally:
        compiler.compile_listeners.remove(seen.append)
    want = np.where(x == 0.5, 7, np.where(x >= 0.75, 1, np.where(x < 0.25, 0, x))).astype(np.float32)
    np.testing.assert_array_equal(z, want)
    (ck,) = seen
    assert "lower-tiles: asc2.compare_scalar at" in ck.pass_log and "filled by asc.compare_scalar" in ck.pass_log
    assert "filled by asc.select_scalar" in ck.pass_log and "filled by asc.select" in ck.pass_log
    src = ck.ascendc()
    # 40 floats are compared as one whole 64-element repeat
    assert "AscendC::Compares(" in src and ", 64);" in src and "AscendC::Select(" in src


@asc2.jit
def bad_kernel(x_ptr: asc.GlobalAddress, i_ptr: asc.GlobalAddress, which: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [8]), [8], offsets=[0])
    i = asc2.load(asc2.tensor(i_ptr, [8]), [8], offsets=[0])
    if which == 0:
        asc2.where(x, x, x)  # the bad line
    elif which == 1:
        asc2.less(i, 3)  # the bad line
    else:
        asc2.where(x < 1.0, i, i)  # the bad line


def test_bad_where_and_comparisons() -> None:
    x, i = np.zeros(8, np.float32), np.zeros(8, np.int32)
    with pytest.raises(CompileError, match="the condition must be a comparison") as info:
        bad_kernel[1](x, i, 0)
    assert info.value.filename == __file__
    with pytest.raises(CompileError, match="tiles of int32 cannot be compared"):
        bad_kernel[1](x, i, 1)
    with pytest.raises(CompileError, match="selecting int32 elements is not supported"):
        bad_kernel[1](x, i, 2)


# ---- bfloat16: compared, selected and computed through float32 (asc2.cast; no bfloat16 Compare, Select or
# arithmetic on the Ascend910B) ----------------------------------------------------------------------------------

@asc2.jit(always_compile=True)
def bf16_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, alpha: float, out_ptr: asc.GlobalAddress,
                n: asc.ConstExpr[int], case: asc.ConstExpr[str]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [n], offsets=[0])
    if case == "leaky":
        out = asc2.where(x >= 0, x, x * alpha)
    elif case == "min":
        out = asc2.where(x < y, x, y)
    else:
        out = asc2.where(asc2.not_equal(y, x), x + y, 1.5)
    asc2.store(out, asc2.tensor(out_ptr, [n]), offsets=[0])


@pytest.mark.parametrize("case", ["leaky", "min", "ne"])
def test_bfloat16_compare_where(case: str) -> None:
    torch = pytest.importorskip("torch")
    g = torch.Generator().manual_seed(7)
    x = (torch.rand(256, generator=g) * 10 - 5).to(torch.bfloat16)
    y = (torch.rand(256, generator=g) * 10 - 5).to(torch.bfloat16)
    y[:16] = x[:16]  # some equal elements
    alpha = torch.tensor(0.1, dtype=torch.bfloat16)
    out = torch.zeros_like(x)
    seen = []
    compiler.compile_listeners.append(seen.append)
    try:
        bf16_kernel[1](x, y, alpha, out, 256, case)
    finally:
        compiler.compile_listeners.remove(seen.append)
    want = {"leaky": torch.where(x >= 0, x, x * alpha), "min": torch.where(x < y, x, y),
            "ne": torch.where(y != x, x + y, torch.tensor(1.5, dtype=torch.bfloat16))}[case]
    assert torch.equal(out, want)
    (ck,) = seen
    assert "lower-tiles: asc2.cast" in ck.pass_log and "AscendC::Cast(" in ck.ascendc()
