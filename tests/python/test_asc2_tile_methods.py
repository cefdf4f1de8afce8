"""asc2 (issue 19): PyAsc2's Tile methods — `to(dtype)`, `//`, unary `+`, and the unary operators as methods —
on the simulator against NumPy; the conversions PyAsc2 refuses are CompileErrors at the line."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import asc
import asc2
from asc.codegen.errors import CompileError


@asc2.jit
def to_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int], dtype: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    asc2.store(x.to(dtype), asc2.tensor(z_ptr, [n]), offsets=[0])


def _values(src: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(5)
    if src.startswith("int"):
        info = np.iinfo(src)
        lo, hi = max(info.min, -3000), min(info.max, 3000)
        return rng.integers(lo, hi, n).astype(src)
    v = (rng.standard_normal(n) * 100).astype(src)
    v[:6] = np.array([0.0, -0.0, 2.5, -2.5, 3.5, -1.75], src)  # ties, signed zeros, truncation towards zero
    return v


@pytest.mark.parametrize("src, dst", [
    ("float32", "float16"), ("float16", "float32"), ("float32", "int32"), ("int32", "float32"),
    ("float16", "int16"), ("int16", "float16"),
])
def test_to(src: str, dst: str) -> None:
    n = 77  # odd: the UB tile is rounded up to whole blocks
    x = _values(src, n)
    z = np.zeros(n, dst)
    to_kernel[1](x, z, n, getattr(asc, dst))
    if np.dtype(dst).kind == "i" and x.dtype.kind == "f":
        want = np.trunc(x.astype(np.float64)).astype(dst)  # towards zero
    else:
        want = x.astype(dst)  # NumPy rounds to nearest even, as Cast does
    np.testing.assert_array_equal(z, want)
    if dst.startswith("float"):
        np.testing.assert_array_equal(np.signbit(z), np.signbit(want))


def test_to_same_dtype_is_the_tile() -> None:
    x = np.arange(16, dtype=np.float32)
    z = np.zeros_like(x)
    to_kernel[1](x, z, 16, asc.float32)
    np.testing.assert_array_equal(z, x)


@pytest.mark.parametrize("src, dst", [("float32", "int16"), ("int32", "uint32"), ("float32", "uint8"),
                                      ("uint8", "float16")])
def test_to_refused(src: str, dst: str) -> None:
    with pytest.raises(CompileError, match=f"converting {src} to {dst} is not supported") as info:
        to_kernel[1](np.zeros(16, src), np.zeros(16, dst), 16, getattr(asc, dst))
    assert info.value.filename == __file__


@asc2.jit
def method_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int], name: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    if name == "exp":
        r = x.exp()
    elif name == "log":
        r = x.log()
    elif name == "sqrt":
        r = x.sqrt()
    elif name == "abs":
        r = x.abs()
    elif name == "relu":
        r = x.relu()
    elif name == "sin":
        r = x.sin()
    elif name == "tanh":
        r = x.tanh()
    elif name == "log2":
        r = x.log2()
    elif name == "floor":
        r = x.floor()
    else:
        r = x.rsqrt()
    asc2.store(r, asc2.tensor(z_ptr, [n]), offsets=[0])


METHODS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "abs": np.abs, "relu": lambda v: np.maximum(v, 0),
           "sin": np.sin, "tanh": np.tanh, "log2": np.log2, "floor": np.floor, "rsqrt": lambda v: 1 / np.sqrt(v)}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_unary_methods(name: str) -> None:
    n = 40
    x = np.linspace(0.25, 4.0, n).astype(np.float32)
    if name in ("abs", "relu", "floor", "sin"):
        x = x - 2.0
    z = np.zeros_like(x)
    method_kernel[1](x, z, n, name)
    np.testing.assert_allclose(z, METHODS[name](x.astype(np.float64)), rtol=2e-6, atol=2e-6)


@asc2.jit
def ops_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [n], offsets=[0])
    asc2.store(+(x // y) // 2.0, asc2.tensor(z_ptr, [n]), offsets=[0])


def test_floordiv_is_div_and_pos_is_identity() -> None:
    """PyAsc2's Tile defines // as / (a float division, no floor) and +x as x."""
    x = np.array([7.0, -7.0, 1.0, 9.0] * 8, np.float32)
    y = np.array([2.0, 2.0, -4.0, 3.0] * 8, np.float32)
    z = np.zeros_like(x)
    ops_kernel[1](x, y, z, x.size)
    np.testing.assert_allclose(z, x / y / 2.0, rtol=1e-6)


def test_tile_has_pyasc2_methods() -> None:
    for name in ("to", "sum", "max", "min", "prod", "sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "log",
                 "log2", "floor", "ceil", "abs", "erf", "exp2", "sqrt", "rsqrt", "relu", "broadcast_to", "reshape",
                 "ravel", "expand_dims", "squeeze", "__floordiv__", "__pos__", "__neg__", "__add__"):
        assert callable(getattr(asc2.Tile, name)), name


@asc2.jit
def scalar_form_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, s: float, name: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [16]), [16], offsets=[0])
    if name == "exp":
        v = asc2.exp(s)
    elif name == "erf":
        v = asc2.erf(s)
    else:
        v = asc2.sqrt(s)
    asc2.store(x * v, asc2.tensor(z_ptr, [16]), offsets=[0])


@pytest.mark.parametrize("name, ref", [("exp", math.exp), ("erf", math.erf), ("sqrt", math.sqrt)])
@pytest.mark.parametrize("s", [0.0, 0.75, 2.5])
def test_scalar_forms_of_exp_erf_sqrt(name: str, ref: Any, s: float) -> None:
    """PyAsc2's exp, erf and sqrt also take a runtime scalar (float32): a one-element tile, the operator,
    GetValue."""
    x = np.linspace(-1, 1, 16).astype(np.float32)
    z = np.zeros_like(x)
    scalar_form_kernel[1](x, z, s, name)
    np.testing.assert_allclose(z, x * np.float32(ref(s)), rtol=2e-6, atol=1e-7)


@asc2.jit
def scalar_form_refused(z_ptr: asc.GlobalAddress, s: float):
    asc2.store(asc2.full([8], asc2.tanh(s)), asc2.tensor(z_ptr, [8]), offsets=[0])  # the bad line


def test_other_unary_operators_refuse_a_runtime_scalar() -> None:
    with pytest.raises(CompileError, match="asc2.tanh takes a tile or a compile-time number") as info:
        scalar_form_refused[1](np.zeros(8, np.float32), 0.5)
    assert info.value.filename == __file__
