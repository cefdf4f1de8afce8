"""asc2 shape operators (reshape, ravel, expand_dims, squeeze, broadcast_to, also as tile methods) against
NumPy; `*` unpacking of a compile-time tuple in a kernel call; errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import asc
import asc2
from asc.codegen.errors import CompileError


@asc2.jit
def shape_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, in_shape: asc.ConstExpr,
                 out_shape: asc.ConstExpr, op: asc.ConstExpr, params: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, in_shape), in_shape, offsets=[0] * len(in_shape))
    z = op(x, *params) * 2  # the result is a tile like any other
    asc2.store(z, asc2.tensor(z_ptr, out_shape), offsets=[0] * len(out_shape))


CASES = [
    (asc2.reshape, (2, 32), (64,), lambda x: x.reshape(64)),
    (asc2.reshape, (64,), ([4, 16],), lambda x: x.reshape(4, 16)),
    (asc2.ravel, (3, 16), (), lambda x: x.ravel()),
    (asc2.expand_dims, (32,), (0,), lambda x: x[None]),
    (asc2.squeeze, (1, 32), (0,), lambda x: x[0]),
    (asc2.squeeze, (1, 32), (), lambda x: x[0]),
    (asc2.broadcast_to, (2, 16), (2, 16), lambda x: x),
]


@pytest.mark.parametrize("op, in_shape, params, ref", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_shape_ops(op: Any, in_shape: Any, params: Any, ref: Any, dtype: str) -> None:
    x = np.arange(np.prod(in_shape)).reshape(in_shape).astype(dtype)
    want = ref(x) * 2
    z = np.zeros(want.shape, dtype)
    shape_kernel[1](x, z, in_shape, want.shape, op, params)
    np.testing.assert_array_equal(z, want)


@asc2.jit
def broadcast_kernel(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, shape: asc.ConstExpr, form: asc.ConstExpr):
    z_gm = asc2.tensor(z_ptr, shape)
    if form == 0:
        t = asc2.full([1], 7, z_gm.dtype).broadcast_to(*shape)  # asc2.full's value, no read
    else:
        x = asc2.load(asc2.tensor(x_ptr, [8]), [8], offsets=[0])
        t = asc2.broadcast_to(x.sum(keep_dims=False) * 0 + asc2.full([1], 0.0) + x.max(0, keep_dims=True) * 0
                              + asc2.reshape(asc2.full([1], 1.0), 1) + x.sum(0, keep_dims=True), shape)
    asc2.store(t, z_gm, offsets=[0] * len(shape))


def test_broadcast_of_one_element() -> None:
    for shape in ((24,), (3, 16)):
        z = np.zeros(shape, np.int32)
        broadcast_kernel[1](np.zeros(8, np.int32), z, shape, 0)
        np.testing.assert_array_equal(z, np.full(shape, 7))
    x = np.arange(8, dtype=np.float32)
    z = np.zeros((2, 8), np.float32)
    broadcast_kernel[1](x, z, (2, 8), 1)
    np.testing.assert_array_equal(z, np.full((2, 8), 1 + x.sum()))


@asc2.jit
def bad_kernel(x_ptr: asc.GlobalAddress, which: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [2, 8]), [2, 8], offsets=[0, 0])
    if which == 0:
        asc2.reshape(x, 3, 5)  # the bad line
    elif which == 1:
        asc2.squeeze(x, 0)  # the bad line
    elif which == 2:
        asc2.broadcast_to(x.reshape(2, 1, 8), 2, 4, 8)  # the bad line
    elif which == 3:
        asc2.broadcast_to(x, 3, 8)  # the bad line
    else:
        asc2.reshape(x, *x)  # the bad line


def test_shape_errors() -> None:
    x = np.zeros(16, np.float32)
    with pytest.raises(CompileError, match=r"cannot be seen as \[3, 5\]") as info:
        bad_kernel[1](x, 0)
    assert info.value.filename == __file__
    with pytest.raises(CompileError, match="is no dim of length 1"):
        bad_kernel[1](x, 1)
    with pytest.raises(NotImplementedError, match=r"broadcasting a tile of shape \[2, 1, 8\] to \[2, 4, 8\]"):
        bad_kernel[1](x, 2)
    with pytest.raises(CompileError, match="cannot be broadcast to"):
        bad_kernel[1](x, 3)
    with pytest.raises(CompileError, match="`\\*` unpacking takes a compile-time tuple or list"):
        bad_kernel[1](x, 4)
