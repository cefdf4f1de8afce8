"""asc2 reductions (reduce_sum / reduce_max / reduce_min / reduce_prod) against NumPy, per dtype, with odd
sizes: dim 0 of 2-D tiles (the rows folded by elementwise instructions), every element to a scalar
(ReduceSum/ReduceMax/ReduceMin), keep_dims, a row softmax built from them; the lowering in the pass log and the
Ascend C; what is not supported raises."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import compiles_during

import asc
import asc2
from asc.codegen.errors import CompileError

OPS = [
    (asc2.reduce_sum, np.sum),
    (asc2.reduce_max, np.max),
    (asc2.reduce_min, np.min),
    (asc2.reduce_prod, np.prod),
]


def _tol(dtype: str) -> dict:
    return {"rtol": 2e-2, "atol": 2e-2} if dtype == "float16" else {"rtol": 1e-5, "atol": 1e-5}


def _data(rng: np.random.Generator, shape: Any, dtype: str, op: Any) -> np.ndarray:
    if op is asc2.reduce_prod:  # products of moderate numbers
        x = rng.uniform(0.8, 1.25, shape) * rng.choice([-1.0, 1.0], shape)
    else:
        x = rng.standard_normal(shape) * 3.0
    return x.astype(dtype)


@asc2.jit
def rows_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: asc.ConstExpr[int],
                cols: asc.ConstExpr[int], op: asc.ConstExpr, keep: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), [rows, cols], offsets=[0, 0])
    r = op(x, 0, keep_dims=keep)
    if keep:
        asc2.store(r, asc2.tensor(z_ptr, [1, cols]), offsets=[0, 0])
    else:
        asc2.store(r, asc2.tensor(z_ptr, [cols]), offsets=[0])


@pytest.mark.parametrize("op, ref", OPS)
@pytest.mark.parametrize("dtype, rows, cols", [("float32", 7, 24), ("float32", 1, 8), ("float16", 5, 48),
                                               ("float32", 64, 32)])
def test_reduce_dim0(op: Any, ref: Any, dtype: str, rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows * cols)
    x = _data(rng, (rows, cols), dtype, op)
    for keep in (False, True):
        z = np.zeros((1, cols) if keep else cols, dtype)
        rows_kernel[1](x, z, rows, cols, op, keep)
        want = ref(x.astype(np.float64), axis=0, keepdims=keep)
        np.testing.assert_allclose(z.astype(np.float64), want, **_tol(dtype))


@asc2.jit
def all_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int],
               op: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [size]), [tile], offsets=[0])
    s = op(x)  # a scalar
    asc2.store(asc2.full([8], s, dtype=x.dtype) + 1.0, asc2.tensor(z_ptr, [8]), offsets=[0])


@pytest.mark.parametrize("op, ref", OPS[:3])
@pytest.mark.parametrize("dtype, n", [("float32", 1), ("float32", 17), ("float32", 333), ("float16", 7),
                                      ("float16", 300)])
def test_reduce_all_to_scalar(op: Any, ref: Any, dtype: str, n: int) -> None:
    rng = np.random.default_rng(n)
    x = _data(rng, n + 5, dtype, op)
    x[n:] = 1000  # past the tile: not reduced
    z = np.zeros(8, dtype)
    all_kernel[1](x, z, n + 5, n, op)
    want = ref(x[:n].astype(np.float64)) + 1.0
    np.testing.assert_allclose(z.astype(np.float64), np.full(8, want), **_tol(dtype))


@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: int, cols: int,
                   tile: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    z_gm = asc2.tensor(z_ptr, [rows, cols])
    for i in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        row = asc2.load(x_gm, [1, tile], offsets=[i, 0], pad_value=-1e30)
        e = asc2.exp(row - asc2.reduce_max(row, 1))  # dim 1 of one row: every element
        asc2.store(e / asc2.reduce_sum(e), z_gm, offsets=[i, 0])


@pytest.mark.parametrize("rows, cols, tile, cores", [(5, 64, 64, 2), (3, 40, 48, 1)])
def test_row_softmax(rows: int, cols: int, tile: int, cores: int) -> None:
    rng = np.random.default_rng(cols)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    z = np.zeros_like(x)
    softmax_kernel[cores](x, z, rows, cols, tile)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(z, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@asc2.jit
def fused_softmax_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                         block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    z_gm = asc2.tensor(z_ptr, [rows, cols])
    start = asc2.block_idx() * block
    asc2.store(asc2.softmax(asc2.load(x_gm, [block, cols], offsets=[start, 0])), z_gm, offsets=[start, 0])


@asc2.jit
def softmax_1d_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    asc2.store(asc2.softmax(asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])), asc2.tensor(z_ptr, [n]),
               offsets=[0])


@pytest.mark.parametrize("dtype, rows, cols, block, cores", [("float32", 7, 24, 3, 3), ("float16", 4, 48, 2, 2),
                                                              ("float32", 1, 8, 1, 1)])
def test_asc2_softmax(dtype: str, rows: int, cols: int, block: int, cores: int) -> None:
    rng = np.random.default_rng(rows * cols)
    x = (rng.standard_normal((rows, cols)) * 2).astype(dtype)
    z = np.zeros_like(x)
    fused_softmax_kernel[cores](x, z, rows, cols, block)  # the last block's rows past the end: not stored
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(z, e / e.sum(axis=1, keepdims=True), **_tol(dtype))
    v = x[0].copy()
    z1 = np.zeros_like(v)
    softmax_1d_kernel[1](v, z1, cols)
    e1 = np.exp(v.astype(np.float64) - v.max())
    np.testing.assert_allclose(z1, e1 / e1.sum(), **_tol(dtype))


def _compiled(kernel: Any, *args: Any) -> Any:
    (ck,) = compiles_during(lambda: kernel[1](*args))
    return ck


def test_lowering_in_log_and_ascendc() -> None:
    x = np.ones((5, 8), np.float32)
    z = np.zeros(8, np.float32)
    ck = _compiled(rows_kernel, x, z, 5, 8, asc2.reduce_sum, False)
    np.testing.assert_array_equal(z, np.full(8, 5.0, np.float32))
    assert "lower-tiles: asc2.reduce at" in ck.pass_log and "over the rows by asc.add" in ck.pass_log
    # 5 rows: rows 0-1 + rows 2-3, then row 4 into row 0; then 2 rows -> 1
    assert ck.ascendc().count("AscendC::Add(") == 3
    y = np.ones(19, np.float32)
    ck = _compiled(all_kernel, y, z, 19, 19, asc2.reduce_max)
    assert "over all by asc.reduce_max" in ck.pass_log
    src = ck.ascendc()
    assert "AscendC::ReduceMax(" in src and "GetValue(" in src


@asc2.jit
def bad_kernel(x_ptr: asc.GlobalAddress, which: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [4, 8]), [4, 8], offsets=[0, 0])
    if which == 0:
        asc2.reduce_prod(x)  # the bad line
    elif which == 1:
        asc2.reduce_sum(x, 0, keep_dims=1)  # the bad line
    elif which == 2:
        asc2.reduce_sum(x, 2)  # the bad line
    else:
        asc2.softmax(asc2.zeros([8]))  # the bad line: int32


def test_unsupported_and_bad_reductions() -> None:
    x = np.zeros(32, np.float32)
    with pytest.raises(CompileError, match="product of a whole tile") as info:
        bad_kernel[1](x, 0)
    assert info.value.filename == __file__
    with pytest.raises(CompileError, match="keep_dims must be True or False"):
        bad_kernel[1](x, 1)
    with pytest.raises(CompileError, match=r"a dim must be an int in \[-2, 1\]"):
        bad_kernel[1](x, 2)
    with pytest.raises(CompileError, match="asc2.softmax: tiles of int32 are not supported"):
        bad_kernel[1](x, 3)
