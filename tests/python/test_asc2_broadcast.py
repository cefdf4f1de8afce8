"""asc2 broadcasting (torch's rules) against NumPy: broadcast_to of a row ([C] or [1, C]) or a column ([R, 1]) to
[R, C]; binary operators, comparisons and where on tiles of broadcastable shapes, in both operand orders, per
dtype, with odd rows; a softmax written with keep_dims reductions; the lowering (asc2.broadcast) in the pass log and
the Ascend C; shapes that do not broadcast raise a CompileError at the user's line."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import line_of

import asc
import asc2
from asc.codegen.errors import CompileError
from asc.runtime import compiler


def _tol(dtype: str) -> dict:
    return {"rtol": 2e-3, "atol": 2e-3} if dtype == "float16" else {"rtol": 1e-6, "atol": 1e-6}


def _data(rng: np.random.Generator, shape: Any, dtype: str, positive: bool = False) -> np.ndarray:
    if dtype == "int32":
        return rng.integers(1 if positive else -50, 50, shape).astype(dtype)
    x = rng.uniform(0.5, 2.0, shape) * (1.0 if positive else rng.choice([-1.0, 1.0], shape))
    return x.astype(dtype)


@asc2.jit
def to_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, xs: asc.ConstExpr, zs: asc.ConstExpr,
              xn: asc.ConstExpr[int], zn: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [xn]), [xn], offsets=[0]).reshape(*xs)
    z = asc2.broadcast_to(x, *zs)
    asc2.store(asc2.ravel(z), asc2.tensor(z_ptr, [zn]), offsets=[0])


@pytest.mark.parametrize("dtype", ["float16", "float32", "int32"])
@pytest.mark.parametrize("xs, zs", [((16,), (5, 16)), ((1, 32), (7, 32)), ((5, 1), (5, 16)), ((3, 1), (3, 64)),
                                    ((1, 16), (1, 16)), ((16,), (1, 16)), ((1,), (3, 16)),
                                    ((1, 32), (50, 32))])
def test_broadcast_to(dtype: str, xs: Any, zs: Any) -> None:
    rng = np.random.default_rng(len(xs) * 100 + zs[0])
    x = _data(rng, xs, dtype)
    z = np.zeros(zs, dtype)
    to_kernel[1](x.ravel(), z.ravel(), xs, zs, x.size, z.size)
    np.testing.assert_array_equal(z, np.broadcast_to(x, zs))


@asc2.jit
def bin_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, xs: asc.ConstExpr,
               ys: asc.ConstExpr, xn: asc.ConstExpr[int], yn: asc.ConstExpr[int], zn: asc.ConstExpr[int],
               op: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [xn]), [xn], offsets=[0]).reshape(*xs)
    y = asc2.load(asc2.tensor(y_ptr, [yn]), [yn], offsets=[0]).reshape(*ys)
    z = op(x, y)
    asc2.store(asc2.ravel(z), asc2.tensor(z_ptr, [zn]), offsets=[0])


BINARY = [(asc2.add, np.add), (asc2.sub, np.subtract), (asc2.mul, np.multiply), (asc2.div, np.divide),
          (asc2.maximum, np.maximum), (asc2.minimum, np.minimum)]
PAIRS = [((16,), (5, 16)), ((1, 32), (3, 32)), ((7, 1), (7, 16)), ((5, 1), (1, 32))]


@pytest.mark.parametrize("op, ref, dtype", [(op, ref, dtype) for op, ref in BINARY
                                             for dtype in ("float16", "float32", "int32")
                                             if not (op is asc2.div and dtype == "int32")])  # (div: floats)
def test_binary(op: Any, ref: Any, dtype: str) -> None:
    rng = np.random.default_rng(7)
    for a, b in PAIRS:
        for xs, ys in ((a, b), (b, a)):
            x, y = _data(rng, xs, dtype), _data(rng, ys, dtype, positive=op is asc2.div)
            want = ref(x.astype(np.float64), y.astype(np.float64))
            z = np.zeros(want.shape, dtype)
            bin_kernel[1](x.ravel(), y.ravel(), z.ravel(), xs, ys, x.size, y.size, z.size, op)
            np.testing.assert_allclose(z.astype(np.float64), want.astype(dtype).astype(np.float64),
                                       err_msg=f"{xs} {ys}", **_tol(dtype))


@pytest.mark.parametrize("op", [asc2.add, asc2.mul, asc2.maximum])
def test_binary_bfloat16(op: Any) -> None:
    """bfloat16 tiles broadcast as they are (the row copies, the column's GetValue / Duplicate of bfloat16), then are
    computed in float32 and rounded once: torch's bfloat16 result exactly."""
    torch = pytest.importorskip("torch")
    ref = {asc2.add: torch.add, asc2.mul: torch.mul, asc2.maximum: torch.maximum}[op]
    g = torch.Generator().manual_seed(5)
    for a, b in PAIRS:
        for xs, ys in ((a, b), (b, a)):
            x = (torch.rand(xs, generator=g) * 8 - 4).to(torch.bfloat16)
            y = (torch.rand(ys, generator=g) * 8 - 4).to(torch.bfloat16)
            want = ref(x, y)
            z = torch.zeros(want.shape, dtype=torch.bfloat16)
            bin_kernel[1](x.ravel(), y.ravel(), z.ravel(), xs, ys, x.numel(), y.numel(), z.numel(), op)
            assert torch.equal(z, want), f"{xs} {ys}"


@asc2.jit
def where_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, xs: asc.ConstExpr,
                 ys: asc.ConstExpr, xn: asc.ConstExpr[int], yn: asc.ConstExpr[int], zn: asc.ConstExpr[int],
                 cmp: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [xn]), [xn], offsets=[0]).reshape(*xs)
    y = asc2.load(asc2.tensor(y_ptr, [yn]), [yn], offsets=[0]).reshape(*ys)
    z = asc2.where(cmp(x, y), x, y)
    asc2.store(asc2.ravel(z), asc2.tensor(z_ptr, [zn]), offsets=[0])


@pytest.mark.parametrize("cmp, ref", [(asc2.less, np.less), (asc2.greater_equal, np.greater_equal),
                                      (asc2.equal, np.equal)])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_compare_and_where(cmp: Any, ref: Any, dtype: str) -> None:
    rng = np.random.default_rng(11)
    for a, b in PAIRS:
        for xs, ys in ((a, b), (b, a)):
            x, y = _data(rng, xs, dtype), _data(rng, ys, dtype)
            x.ravel()[::3] = np.broadcast_to(y, np.broadcast_shapes(xs, ys)).ravel()[:x.size:3]  # some equal
            want = np.where(ref(x, y), x, y)
            z = np.zeros(want.shape, dtype)
            where_kernel[1](x.ravel(), y.ravel(), z.ravel(), xs, ys, x.size, y.size, z.size, cmp)
            np.testing.assert_array_equal(z, want, err_msg=f"{xs} {ys}")


@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: asc.ConstExpr[int],
                   cols: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), [rows, cols], offsets=[0, 0])
    e = asc2.exp(x - x.max(1, keep_dims=True))
    asc2.store(e / e.sum(1, keep_dims=True), asc2.tensor(z_ptr, [rows, cols]), offsets=[0, 0])


@pytest.mark.parametrize("dtype, rows, cols", [("float32", 5, 32), ("float16", 3, 64)])
def test_softmax_by_broadcasting(dtype: str, rows: int, cols: int) -> None:
    x = (np.random.default_rng(3).standard_normal((rows, cols)) * 2).astype(dtype)
    z = np.zeros_like(x)
    softmax_kernel[1](x, z, rows, cols)
    e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
    np.testing.assert_allclose(z, e / e.sum(1, keepdims=True), **_tol(dtype))


def _compiled(kernel: Any, *args: Any) -> Any:
    seen: list = []
    compiler.compile_listeners.append(seen.append)
    try:
        kernel[1](*args)
    finally:
        compiler.compile_listeners.remove(seen.append)
    (ck,) = seen
    return ck


def test_lowering_in_log_and_ascendc() -> None:
    x, z = np.arange(16, dtype=np.float32), np.zeros((7, 16), np.float32)
    ck = _compiled(to_kernel, x, z.ravel(), (16,), (7, 16), 16, 112)
    assert "lower-tiles: asc2.broadcast at" in ck.pass_log and "then doubled" in ck.pass_log
    assert ck.ascendc().count("AscendC::DataCopy(") >= 4  # row 0, then 1 -> 2, 2 -> 4, 4 -> 7 rows
    x = np.arange(3, dtype=np.float32)
    z = np.zeros((3, 8), np.float32)
    ck = _compiled(to_kernel, x, z.ravel(), (3, 1), (3, 8), 3, 24)
    assert "get_value and asc.duplicate per source row" in ck.pass_log
    assert ck.ascendc().count("AscendC::Duplicate") >= 3
    np.testing.assert_array_equal(z, np.repeat(x[:, None], 8, 1))


@asc2.jit
def bad_kernel(x_ptr: asc.GlobalAddress, which: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [4, 8]), [4, 8], offsets=[0, 0])
    y = asc2.load(asc2.tensor(x_ptr, [3, 8]), [3, 8], offsets=[0, 0])
    if which == 0:
        x + y  # the bad line
    elif which == 1:
        asc2.less(y, x)  # the bad line
    else:
        asc2.where(x < 0.0, y, x)  # the bad line


def test_errors() -> None:
    x = np.zeros(1 << 10, np.float32)
    for which, what in ((0, "asc2.add"), (1, "asc2.less"), (2, "asc2.where")):
        with pytest.raises(CompileError, match=rf"{what}: tiles of shapes .* cannot be broadcast") as info:
            bad_kernel[1](x, which)
        assert info.value.filename == __file__
        assert info.value.line == line_of(bad_kernel, "the bad line", which)


@asc2.jit
def column_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: asc.ConstExpr[int]):
    c = asc2.load(asc2.tensor(x_ptr, [rows]), [rows], offsets=[0]).reshape(rows, 1)
    asc2.store(asc2.broadcast_to(c, rows, 8), asc2.tensor(z_ptr, [rows, 8]), offsets=[0, 0])


@pytest.mark.parametrize("rows", [64, 72, 129])
def test_column_of_many_rows(rows: int) -> None:
    """A column of more rows than lower-tiles unrolls (64): a loop over the rows."""
    x = np.arange(rows, dtype=np.float32) - 20.5
    z = np.zeros((rows, 8), np.float32)
    column_kernel[1](x, z, rows)
    np.testing.assert_array_equal(z, np.repeat(x[:, None], 8, axis=1))
