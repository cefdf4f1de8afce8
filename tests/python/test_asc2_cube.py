"""asc2's cube side lowered in C (src/passes/lower_cube.c) and planned per cube memory (plan-ub's pools at A1, A2,
B2, CO1): matmul, matmul_acc, zeros_acc, relu, to(dtype) and the L0C -> L1 copy per dtype against NumPy, small
shapes; the plan in the pass log (double-buffered tiles of a loop body); the capacity errors naming the memory and
the Python line."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import compiles_during
from test_asc2_matmul import chain_kernel

import asc
import asc2
from asc.codegen.errors import CompileError

L1, L0A, L0B = asc2.TileLocation.L1, asc2.TileLocation.L0A, asc2.TileLocation.L0B

torch = pytest.importorskip("torch")  # (bfloat16 arrays)

TORCH = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


def rand(shape: Any, dtype: str, seed: int) -> Any:
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=g) - 0.5).to(TORCH[dtype])


def f64(t: Any) -> Any:
    return t.to(torch.float64).numpy()


def tol(dtype: str) -> float:
    return {"float16": 2e-3, "float32": 2e-3, "bfloat16": 2e-2}[dtype]




@asc2.jit(always_compile=True)
def mm(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
       k: asc.ConstExpr[int], n: asc.ConstExpr[int], relu: asc.ConstExpr[bool], out: asc.ConstExpr):
    a = asc2.load(asc2.tensor(a_ptr, [m, k]), [m, k], offsets=[0, 0], location=L0A)
    b = asc2.load(asc2.tensor(b_ptr, [k, n]), [k, n], offsets=[0, 0], location=L0B)
    c = asc2.matmul(a, b)
    if relu:
        c = asc2.relu(c)
    asc2.store(c.to(out), asc2.tensor(c_ptr, [m, n]), offsets=[0, 0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("out", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("relu", [False, True])
def test_matmul_relu_to(dtype: str, out: str, relu: bool) -> None:
    a, b = rand((16, 32), dtype, 1), rand((32, 48), dtype, 2)
    c = torch.zeros((16, 48), dtype=TORCH[out])
    (ck,) = compiles_during(lambda: mm[1](a, b, c, 16, 32, 48, relu, getattr(asc, out)))
    ref = f64(a) @ f64(b)
    if relu:
        ref = np.maximum(ref, 0)
    np.testing.assert_allclose(f64(c), ref, rtol=max(tol(dtype), tol(out)), atol=max(tol(dtype), tol(out)))
    src = ck.ascendc()
    # the tiles are planned: one TBuf pool per cube memory, no static addresses
    for pos in ("A1", "A2", "B2", "CO1"):
        assert f"AscendC::TBuf<AscendC::TPosition::{pos}>" in src
    assert "AscendC::Mmad(" in src and "AscendC::Fixpipe" in src


@asc2.jit(always_compile=True)
def acc_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
               k: asc.ConstExpr[int], n: asc.ConstExpr[int], k_tiles: asc.ConstExpr[int], steps: asc.ConstExpr[int]):
    """C = zeros + A B, k in k_tiles slices from L1 tiles (asc2.copy with offsets); steps = 0: C = zeros_acc."""
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    acc = asc2.zeros_acc([m, n], dtype=asc.float32)
    kk = k // k_tiles
    a_l1 = asc2.load(a_gm, [m, k], offsets=[0, 0], location=L1)
    b_l1 = asc2.load(b_gm, [k, n], offsets=[0, 0], location=L1)
    for i in asc2.range(steps):
        a_i = asc2.copy(a_l1, [m, kk], offsets=[0, i * kk], location=L0A)
        b_i = asc2.copy(b_l1, [kk, n], offsets=[i * kk, 0], location=L0B)
        asc2.matmul_acc(a_i, b_i, acc)
    asc2.store(acc, asc2.tensor(c_ptr, [m, n]), offsets=[0, 0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("m, k, n, k_tiles", [(16, 32, 16, 2), (32, 64, 48, 4)])
def test_matmul_acc_from_l1(dtype: str, m: int, k: int, n: int, k_tiles: int) -> None:
    a, b = rand((m, k), dtype, m + k), rand((k, n), dtype, n)
    c = torch.zeros((m, n), dtype=torch.float32)
    acc_kernel[1](a, b, c, m, k, n, k_tiles, k_tiles)
    np.testing.assert_allclose(f64(c), f64(a) @ f64(b), rtol=tol(dtype), atol=tol(dtype))


def test_zeros_acc() -> None:
    a, b = rand((16, 32), "float16", 3), rand((32, 32), "float16", 4)
    c = torch.full((16, 32), 7.0, dtype=torch.float32)
    acc_kernel[1](a, b, c, 16, 32, 32, 2, 0)  # no step: the store writes the zeros
    assert torch.count_nonzero(c) == 0


# (relu(A B) as dtype) B: the product to L1 by the fixpipe (asc2.copy), back into L0A
chain = chain_kernel


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("relu", [False, True])
def test_l0c_to_l1_copy(dtype: str, relu: bool) -> None:
    a, b = rand((32, 32), dtype, 5), rand((32, 32), dtype, 6)
    first = a.to(torch.float32) @ b.to(torch.float32)
    if relu:
        first = first.relu()
    ref = f64(first.to(TORCH[dtype])) @ f64(b)
    c = torch.zeros((32, 32), dtype=torch.float32)
    chain[1](a, b, c, 32, 32, 32, getattr(asc, dtype), relu)
    np.testing.assert_allclose(f64(c), ref, rtol=tol(dtype), atol=tol(dtype))


@asc2.jit(always_compile=True)
def k_loop(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
           k: asc.ConstExpr[int], n: asc.ConstExpr[int], kk: asc.ConstExpr[int]):
    """PyAsc2's test_matmul_tiled shape of loop: each iteration loads its k slice of A and B into L0A / L0B."""
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    acc = asc2.zeros_acc([m, n], dtype=asc.float32)
    for i in asc2.range(k // kk):
        a_i = asc2.load(a_gm, [m, kk], offsets=[0, i * kk], location=L0A)
        b_i = asc2.load(b_gm, [kk, n], offsets=[i * kk, 0], location=L0B)
        asc2.matmul_acc(a_i, b_i, acc)
    asc2.store(acc, asc2.tensor(c_ptr, [m, n]), offsets=[0, 0])


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_loop_tiles_double_buffered(dtype: str, tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYASC_DUMP_PATH", str(tmp_path))
    a, b = rand((32, 128), dtype, 7), rand((128, 32), dtype, 8)
    c = torch.zeros((32, 32), dtype=torch.float32)
    (ck,) = compiles_during(lambda: k_loop[1](a, b, c, 32, 128, 32, 32))
    np.testing.assert_allclose(f64(c), f64(a) @ f64(b), rtol=tol(dtype), atol=tol(dtype))
    (log_file,) = tmp_path.glob("k_loop-*.passes.log")
    log = log_file.read_text()
    # each loop tile: two slots in its memory (the scratch L1 tiles of both loads, a_i, b_i); acc: one
    for mem, name in (("L1", "LocalTensorAuto"), ("L0A", "a_i"), ("L0B", "b_i")):
        assert re.search(rf"plan-ub: {mem} {name} \(test_asc2_cube.py:\d+\) .* 2 slots \(double-buffered", log), mem
    assert re.search(r"plan-ub: L0C acc .* 1 slot \(not in a loop", log)
    assert len(re.findall(r"plan-ub: L1 .* 2 slots", log)) == 2
    # insert-sync sees the slots as different buffers: the loads of iteration i + 1 wait for no mmad of iteration i
    src = ck.ascendc()
    assert "AscendC::TBuf<AscendC::TPosition::A2>" in src and "% 2" in src


@asc2.jit(always_compile=True)
def hog(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
        k: asc.ConstExpr[int], n: asc.ConstExpr[int], kk: asc.ConstExpr[int], hk: asc.ConstExpr[int],
        early: asc.ConstExpr[bool]):
    """The k loop plus one more product of large L0A / L0B tiles (ha, hb): loaded after the loop, or before it
    (early: then they live through the loop, and the loop's L0A / L0B tiles no longer fit twice)."""
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    acc = asc2.zeros_acc([m, n], dtype=asc.float32)
    if early:
        ha = asc2.load(a_gm, [m, hk], offsets=[0, 0], location=L0A)
        hb = asc2.load(b_gm, [hk, n], offsets=[0, 0], location=L0B)
    for i in asc2.range(k // kk):
        a_i = asc2.load(a_gm, [m, kk], offsets=[0, i * kk], location=L0A)
        b_i = asc2.load(b_gm, [kk, n], offsets=[i * kk, 0], location=L0B)
        asc2.matmul_acc(a_i, b_i, acc)
    if not early:
        ha = asc2.load(a_gm, [m, hk], offsets=[0, 0], location=L0A)
        hb = asc2.load(b_gm, [hk, n], offsets=[0, 0], location=L0B)
    asc2.matmul_acc(ha, hb, acc)
    asc2.store(acc, asc2.tensor(c_ptr, [m, n]), offsets=[0, 0])


def test_double_buffering_shortens_the_loop(tmp_path: Any) -> None:
    """The same instructions twice: with the loop's L0A / L0B tiles double-buffered the timing model's estimated
    duration is shorter than with them single (the plan falls back to one slot when two do not fit)."""
    m, k, n, kk, hk = 32, 1024, 32, 64, 960  # ha, hb: 60 KiB of the 64 KiB of L0A / L0B each
    a, b = rand((m, k), "float16", 11), rand((k, n), "float16", 12)
    ref = f64(a) @ f64(b) + f64(a[:, :hk]) @ f64(b[:hk])
    us = {}
    for early in (False, True):
        c = torch.zeros((m, n), dtype=torch.float32)
        log_file = tmp_path / f"{early}.log"
        with asc.profile() as prof:
            hog[1](a, b, c, m, k, n, kk, hk, early, auto_sync_log=str(log_file))
        np.testing.assert_allclose(f64(c), ref, rtol=2e-3, atol=2e-3)
        us[early] = prof.last.duration_us
        log = log_file.read_text()
        slots = "1 slot (single: double buffering would not fit in its memory" if early else \
            "2 slots (double-buffered"
        assert re.search(r"plan-ub: L0A a_i .* " + re.escape(slots), log), log
    assert us[False] < us[True]


@asc2.jit(always_compile=True)
def big(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
        k: asc.ConstExpr[int], n: asc.ConstExpr[int], where: asc.ConstExpr[str]):
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    if where == "l1":
        x = asc2.load(a_gm, [m, k], offsets=[0, 0], location=L1)
        y = asc2.load(a_gm, [m, k], offsets=[0, 0], location=L1)
        asc2.store(asc2.copy(x, [16, 16], offsets=[0, 0], location=L0A)
                   @ asc2.copy(y, [16, 16], offsets=[0, 0], location=L0B), asc2.tensor(c_ptr, [m, n]),
                   offsets=[0, 0])
    else:
        a = asc2.load(a_gm, [m, k], offsets=[0, 0], location=L0A)
        b = asc2.load(b_gm, [k, n], offsets=[0, 0], location=L0B)
        asc2.store(a @ b, asc2.tensor(c_ptr, [m, n]), offsets=[0, 0])


@pytest.mark.parametrize("m, k, n, where, memory", [
    (16, 2304, 16, "l0", "L0A"),
    (16, 16, 2304, "l0", "L0B"),
    (512, 16, 128, "l0", "L0C"),  # 512 x 128 float32: 256 KiB
    (256, 576, 16, "l1", "L1"),  # two 288 KiB tiles live together
])
def test_capacity_errors_name_memory_and_line(m: int, k: int, n: int, where: str, memory: str) -> None:
    a, b = torch.zeros((m, k), dtype=torch.float16), torch.zeros((k, n), dtype=torch.float16)
    c = torch.zeros((m, n), dtype=torch.float32)
    with pytest.raises(CompileError, match=rf"the kernel's {memory} tiles need \d+ bytes, more than the \d+ bytes "
                                           rf"of {memory}") as info:
        big[1](a, b, c, m, k, n, where)
    assert info.value.line > 0 and "test_asc2_cube.py" in str(info.value)


@asc2.jit(always_compile=True)
def n_blocks(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, m: asc.ConstExpr[int],
             k: asc.ConstExpr[int], n: asc.ConstExpr[int], nt: asc.ConstExpr[int]):
    """C's column blocks one per iteration: A once in L0A, each block of B into L0B, its product stored."""
    a = asc2.load(asc2.tensor(a_ptr, [m, k]), [m, k], offsets=[0, 0], location=L0A)
    b_gm = asc2.tensor(b_ptr, [k, n])
    c_gm = asc2.tensor(c_ptr, [m, n])
    for j in asc2.range(n // nt):
        c = a @ asc2.load(b_gm, [k, nt], offsets=[0, j * nt], location=L0B)
        asc2.store(asc2.relu(c).to(asc.float16), c_gm, offsets=[0, j * nt])


def test_l0c_tile_of_a_loop_double_buffered(tmp_path: Any) -> None:
    """The product of each iteration (M writes it, FIX reads it) gets two L0C slots: the next mmad does not wait
    for this iteration's fixpipe."""
    a, b = rand((32, 32), "float16", 13), rand((32, 128), "float16", 14)
    c = torch.zeros((32, 128), dtype=torch.float16)
    log_file = tmp_path / "plan.log"
    n_blocks[1](a, b, c, 32, 32, 128, 32, auto_sync_log=str(log_file))
    ref = np.maximum(f64(a) @ f64(b), 0)
    np.testing.assert_allclose(f64(c), ref, rtol=2e-3, atol=2e-3)
    log = log_file.read_text()
    assert re.search(r"plan-ub: L0C c \(test_asc2_cube.py:\d+\) float32 x 1024 = 4096 bytes at offset 0, 2 slots "
                     r"\(double-buffered; pipes M,FIX\)", log), log
    assert re.search(r"plan-ub: L0A a .* 1 slot \(not in a loop", log), log
