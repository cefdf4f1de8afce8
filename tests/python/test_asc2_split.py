"""asc2 (issue 19): tiles larger than the UB are split into chunks (the split-tiles pass, src/passes/split_tiles.c)
and the chunks' tiles double-buffered; results against NumPy, the choice in the pass log; CompileErrors naming
the line for what cannot be split."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import compiles_during

import asc
import asc2
from asc.codegen.errors import CompileError


def _compiled(run: Any) -> Any:
    """Runs run() and returns what it compiled (one kernel)."""
    (ck,) = compiles_during(run)
    return ck


@asc2.jit
def chain_1d(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int,
             tile: asc.ConstExpr[int]):
    x, y, z = asc2.tensor(x_ptr, [size]), asc2.tensor(y_ptr, [size]), asc2.tensor(z_ptr, [size])
    off = asc2.block_idx() * tile
    a = asc2.load(x, [tile], offsets=[off], pad_value=1.0)
    b = asc2.load(y, [tile], offsets=[off])
    asc2.store(asc2.exp(a) + b * 2.0, z, offsets=[off])


@pytest.mark.parametrize("tile, cut", [(100_000, 3), (65_536, 0), (70_000, 70_001)])
def test_1d_chain_split_with_tail_and_end(tile: int, cut: int) -> None:
    """A 1-D chain of 5 tiles of 100000 float32 (2 MB): chunks of a multiple of 256 elements, a tail, and the
    tensor's end inside the last chunk (cut elements short of two tiles; 70001: the end inside block 0)."""
    rng = np.random.default_rng(1)
    cores = 2
    x = rng.random(tile * cores).astype(np.float32)
    y = rng.random(tile * cores).astype(np.float32)
    z = np.full_like(x, -7.0)
    size = x.size - cut if cut < tile else cut
    ck = _compiled(lambda: chain_1d[cores](x, y, z, size, tile))
    want = (np.exp(x) + y * 2.0).astype(np.float32)
    want[size:] = -7.0  # (not written: outside the tensor)
    np.testing.assert_allclose(z, want, rtol=1e-6)
    m = re.search(r"split-tiles: the 6 tile ops at test_asc2_split.py:\d+-\d+ \(tiles of 1 x (\d+) float32, (\d+) "
                  r"bytes at once: more than the UB's \d+\): an scf.for of (\d+) chunks of (\d+) elements", ck.pass_log)
    assert m, ck.pass_log
    assert int(m.group(1)) == tile and int(m.group(2)) > 192 * 1024
    n_full, chunk = int(m.group(3)), int(m.group(4))
    assert chunk % 256 == 0 and n_full == tile // chunk
    if tile % chunk:
        assert f"then a tail of {tile % chunk} elements" in ck.pass_log
    else:
        assert "tail" not in ck.pass_log
    # the chunk's tiles: double-buffered in the UB by plan-ub
    assert re.search(rf"plan-ub: a \(test_asc2_split.py:\d+\) float32 x {chunk} = \d+ bytes at offset \d+, 2 slots",
                     ck.pass_log)


def test_small_chain_is_not_split() -> None:
    x = np.ones(2048, np.float32)
    z = np.zeros_like(x)
    ck = _compiled(lambda: chain_1d[2](x, x, z, x.size, 1024))
    np.testing.assert_allclose(z, np.exp(1.0) + 2.0, rtol=1e-6)
    assert "split-tiles" not in ck.pass_log
    assert '"scf.for"' not in ck.ir_text()


@asc2.jit
def chain_where(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int]):
    x, z = asc2.tensor(x_ptr, [size]), asc2.tensor(z_ptr, [size])
    a = asc2.load(x, [tile], offsets=[0])
    w = asc2.where(a < 0.5, a * 4.0, -a)
    asc2.store(asc2.relu(w) + 1.0, z, offsets=[0])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_compare_select_chain_split(dtype: str) -> None:
    """Compare into a mask, Select, and more: the mask tiles are chunked with the rest (whole 256-element repeats)."""
    n = 60_000 if dtype == "float32" else 120_001
    rng = np.random.default_rng(2)
    x = (rng.random(n) - 0.2).astype(dtype)
    z = np.zeros_like(x)
    ck = _compiled(lambda: chain_where[1](x, z, n, n))
    w = np.where(x < np.asarray(0.5, dtype), x * np.asarray(4.0, dtype), -x)
    want = (np.maximum(w, 0) + np.asarray(1.0, dtype)).astype(dtype)
    np.testing.assert_array_equal(z, want)
    assert "an scf.for of" in ck.pass_log


@asc2.jit
def chain_2d(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, rows: int, cols: int, r: asc.ConstExpr[int],
             c: asc.ConstExpr[int]):
    x, z = asc2.tensor(x_ptr, [rows, cols]), asc2.tensor(z_ptr, [rows, cols])
    t = asc2.load(x, [r, c], offsets=[0, 8])
    asc2.store(t * 3.0, z, offsets=[0, 8])


@pytest.mark.parametrize("r, c, rows", [(5000, 8, 5003), (3000, 64, 2990), (4100, 16, 4100)])
def test_2d_tile_split_by_rows(r: int, c: int, rows: int) -> None:
    """A tile of r rows of c float32 in a wider tensor: chunks of rows (at most 4095 each: one DataCopyPad); the
    tensor's last row inside the last chunk or the tail."""
    cols = c + 16
    rng = np.random.default_rng(3)
    x = rng.random((rows, cols)).astype(np.float32)
    z = np.zeros_like(x)
    ck = _compiled(lambda: chain_2d[1](x, z, rows, cols, r, c))
    want = np.zeros_like(x)
    want[:r, 8:8 + c] = x[:r, 8:8 + c] * 3.0
    np.testing.assert_array_equal(z, want)
    m = re.search(r"an scf.for of (\d+) chunks of (\d+) rows", ck.pass_log)
    assert m and 1 <= int(m.group(2)) <= 4095, ck.pass_log


@asc2.jit
def atomic_big(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    asc2.atomic_add(a * 2.0, asc2.tensor(z_ptr, [n]), offsets=[0])


def test_atomic_store_split() -> None:
    """asc2.atomic_add of a large tile from 3 blocks: SetAtomicAdd goes with the stores into each chunk."""
    n = 70_000
    x = np.arange(n, dtype=np.float32) % 97
    z = np.ones(n, np.float32)
    ck = _compiled(lambda: atomic_big[3](x, z, n))
    np.testing.assert_array_equal(z, 1 + 3 * 2 * x)
    assert "an scf.for of" in ck.pass_log


@asc2.jit
def in_loop(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int], reps: int):
    x, z = asc2.tensor(x_ptr, [n * 4]), asc2.tensor(z_ptr, [n * 4])
    for i in asc2.range(reps):
        asc2.store(asc2.abs(asc2.load(x, [n], offsets=[i * n])), z, offsets=[i * n])


def test_split_inside_an_asc2_range_loop() -> None:
    n = 80_000
    x = np.linspace(-5, 5, 4 * n).astype(np.float32)
    z = np.zeros_like(x)
    ck = _compiled(lambda: in_loop[1](x, z, n, 3))
    want = np.abs(x)
    want[3 * n:] = 0
    np.testing.assert_array_equal(z, want)
    assert "an scf.for of" in ck.pass_log


# ---- what is not split: a CompileError naming the line and the reason ----------------------------------------

@asc2.jit
def big_reduce(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(x_ptr, [n]), [n], offsets=[0])
    asc2.store(asc2.reduce_max(a, 0, keep_dims=True), asc2.tensor(z_ptr, [1]), offsets=[0])


@asc2.jit
def shifted_store(x_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x = asc2.tensor(x_ptr, [n + 64])
    asc2.store(asc2.load(x, [n], offsets=[0]) + 1.0, x, offsets=[64])


@asc2.jit
def effect_between(x_ptr: asc.GlobalAddress, z_ptr: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x, z = asc2.tensor(x_ptr, [n]), asc2.tensor(z_ptr, [n])
    a = asc2.load(x, [n], offsets=[0])
    asc2.store(5.0, z, offsets=[0])
    asc2.store(a, z, offsets=[0])


@pytest.mark.parametrize("kernel, args, why", [
    (big_reduce, lambda: (np.zeros(100_000, np.float32), np.zeros(1, np.float32), 100_000), "asc2.reduce"),
    (shifted_store, lambda: (np.zeros(100_064, np.float32), 100_000), "a store into a tensor the chain loads from"),
    (effect_between, lambda: (np.zeros(100_000, np.float32), np.zeros(100_000, np.float32), 100_000),
     "asc.global_tensor.set_value at line"),
])
def test_what_cannot_be_split_is_a_compile_error(kernel: Any, args: Any, why: str) -> None:
    with pytest.raises(CompileError) as info:
        kernel[1](*args())
    text = str(info.value)
    assert "test_asc2_split.py" in text and "cannot be split into chunks" in text and why in text, text
    assert "bytes of the UB at once" in text
