"""asc2 (issue 19): the row-wise operators (softmax, rms_norm, a reduction or product of each row) on tiles of more rows
than lower-tiles unrolls (64): an scf.for over the rows, against NumPy; up to 64 rows stay unrolled."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import compiles_during

import asc
import asc2


@asc2.jit
def rows_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, r_ptr: asc.GlobalAddress,
                rows: asc.ConstExpr[int], cols: asc.ConstExpr[int], which: asc.ConstExpr[str]):
    x = asc2.load(asc2.tensor(x_ptr, [rows, cols]), [rows, cols], offsets=[0, 0])
    z = asc2.tensor(z_ptr, [rows, cols])
    r = asc2.tensor(r_ptr, [rows])
    if which == "softmax":
        asc2.store(asc2.softmax(x), z, offsets=[0, 0])
    elif which == "rms_norm":
        g = asc2.load(asc2.tensor(g_ptr, [cols]), [cols], offsets=[0])
        asc2.store(asc2.rms_norm(x, g, 1e-5), z, offsets=[0, 0])
    elif which == "sum":
        asc2.store(x.sum(1), r, offsets=[0])
    elif which == "max":
        asc2.store(x.max(1), r, offsets=[0])
    elif which == "prod":
        asc2.store(x.prod(1), r, offsets=[0])
    else:
        asc2.store(x.min(1), r, offsets=[0])


@pytest.mark.parametrize("which", ["softmax", "rms_norm", "sum", "max", "min", "prod"])
@pytest.mark.parametrize("rows, dtype", [(65, "float32"), (130, "float16"), (64, "float32")])
def test_rows_beyond_the_unrolled(which: str, rows: int, dtype: str) -> None:
    cols = 32
    rng = np.random.default_rng(rows)
    x = rng.uniform(-3, 3, (rows, cols)).astype(dtype)
    if which == "prod":
        x = rng.uniform(0.8, 1.25, (rows, cols)).astype(dtype) * np.where(rng.random((rows, cols)) < 0.2, -1, 1)
        x = x.astype(dtype)
    g = rng.uniform(0.5, 1.5, cols).astype(dtype)
    z = np.zeros_like(x)
    r = np.zeros(rows, dtype)
    (ck,) = compiles_during(lambda: rows_kernel[1](x, g, z, r, rows, cols, which))
    xd = x.astype(np.float64)
    tol = dict(rtol=2e-3, atol=2e-3) if dtype == "float16" else dict(rtol=1e-5, atol=1e-6)
    if which == "softmax":
        e = np.exp(xd - xd.max(axis=1, keepdims=True))
        np.testing.assert_allclose(z, e / e.sum(axis=1, keepdims=True), **tol)
    elif which == "rms_norm":
        want = xd / np.sqrt((xd * xd).mean(axis=1, keepdims=True) + 1e-5) * g.astype(np.float64)
        np.testing.assert_allclose(z, want, **tol)
    else:
        want = getattr(xd, which)(axis=1)
        np.testing.assert_allclose(r, want, **(dict(rtol=2e-3, atol=2e-2) if dtype == "float16" else tol))
    looped = '"scf.for"' in ck.ir_text()
    assert looped == (rows > 64)
    if looped:
        assert "for (" in ck.ascendc()
