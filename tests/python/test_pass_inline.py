"""The `inline` pass (src/passes/inline.c) on kernels built by the front end.

Each kernel calls device functions with LocalTensor arguments (from a TBuf
and a TQue), GlobalTensor arguments, asc.ConstExpr arguments and runtime
scalars, and uses the scalars they return (tuples too); device functions
call other device functions, inside loops and branches. The module is
built as the compiler builds it (compiler.build_module), inlined with
module.run_pass("inline"), then canonicalized and compiled: the IR holds
no call and no device function, the ops keep the device functions' Python
lines, and the inlined kernel computes what the kernel with calls
computes, and what NumPy computes. The inlined module's Ascend C compiles
against tests/ascendc/kernel_operator.h as every other kernel's.
"""

from __future__ import annotations

import inspect
import re
import shutil
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest
from conftest import syntax_check

import asc
from asc import _C
from asc.runtime import compiler

PLATFORM = "Ascend910B1"


# ---- device functions --------------------------------------------------------------------------

@asc.jit
def load(dst: asc.LocalTensor, src: asc.GlobalTensor, count: asc.ConstExpr[int]):
    asc.data_copy(dst, src, count=count)


@asc.jit
def affine(dst: asc.LocalTensor, src: asc.LocalTensor, k: float, count: asc.ConstExpr[int]):
    asc.muls(dst, src, k, count)  # affine: muls
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.adds(dst, dst, 1.0, count)


@asc.jit
def square(v):
    return v * v


@asc.jit
def above(g: asc.GlobalTensor, n: int, threshold: asc.ConstExpr[int]):
    """The sum of the squares and the count of the elements above threshold."""
    total = 0
    count = 0
    for i in range(n):
        v = g.get_value(i)
        if v > threshold:
            total = total + square(v)  # above: square
            count = count + 1
    return total, count


@asc.jit
def weighted(g: asc.GlobalTensor, n: int, w):
    s, c = above(g, n, 0)
    return s * w + c


# ---- kernels -----------------------------------------------------------------------------------

@asc.jit
def vector_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, k: float, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    q_in = asc.TQue(asc.TPosition.VECIN, 1)
    q_out = asc.TQue(asc.TPosition.VECOUT, 1)
    tmp = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(que=q_in, num=1, len=n * x.dtype.sizeof())
    pipe.init_buffer(que=q_out, num=1, len=n * z.dtype.sizeof())
    pipe.init_buffer(buf=tmp, num=n * x.dtype.sizeof())
    a = q_in.alloc_tensor(x.dtype)
    load(a, x_gm, n)
    q_in.enque(a)
    a = q_in.deque(x.dtype)
    t = tmp.get(x.dtype)
    affine(t, a, k, n)  # z = (x * k + 1) * 2 + 1
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    b = q_out.alloc_tensor(z.dtype)
    affine(b, t, 2.0, n)
    q_out.enque(b)
    q_in.free_tensor(a)
    b = q_out.deque(z.dtype)
    asc.data_copy(z_gm, b, count=n)
    q_out.free_tensor(b)


@asc.jit
def scalar_kernel(x: asc.GlobalAddress, out: asc.GlobalAddress, n: int, w: int, t: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    o_gm.set_global_buffer(out)
    s0, c0 = above(x_gm, n, 0)
    s1, c1 = above(x_gm, n, t)  # another specialisation (threshold t)
    o_gm.set_value(0, s0)
    o_gm.set_value(1, c0)
    o_gm.set_value(2, s1)
    o_gm.set_value(3, c1)
    o_gm.set_value(4, weighted(x_gm, n, w))  # weighted -> above -> square
    acc = 0
    for i in range(3):
        if i != 1:
            acc = acc + square(i + w)
    o_gm.set_value(5, acc)


# ---- helpers -----------------------------------------------------------------------------------

def inlined(kernel: Any, specs: Dict[str, Tuple[Any, ...]]) -> Tuple[Any, str, str]:
    """The kernel's module as the front end builds it, after `inline` (verified), and its
    text before and after the pass."""
    module, _, _ = compiler.build_module(kernel, specs)
    module.verify()
    before = module.print()
    module.run_pass("inline")
    module.verify()
    after = module.print()
    return module, before, after


def run_module(module: Any, name: str, args: List[Any]) -> None:
    for p in ("canonicalize", "dce"):
        module.run_pass(p)
    reports = module.compile(name).launch(1, PLATFORM, args, 1)
    assert not reports, reports


def lines_of(fn: Any, marker: str) -> int:
    lines, first = inspect.getsourcelines(fn.fn)
    hits = [first + i for i, text in enumerate(lines) if text.rstrip().endswith(marker)]
    assert len(hits) == 1, marker
    return hits[0]


def locs(text: str) -> List[int]:
    return [int(m) for m in re.findall(r'loc\("[^"]*test_pass_inline.py":(\d+):\d+\)', text)]


def check_ascendc(module: Any, tmp_path: Path) -> None:
    text = module.emit_ascendc(line_comments=False)
    assert "__aicore__ inline" not in text  # no device function is left to emit
    if shutil.which("g++") is None:
        pytest.fail("g++ is needed to check the generated Ascend C")
    ok, err = syntax_check(text, tmp_path, 0)
    assert ok, err


# ---- tests -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [64, 128])
@pytest.mark.parametrize("k", [0.5, -3.0])
def test_vector_kernel_inlined_matches_calls_and_numpy(n: int, k: float, tmp_path: Path) -> None:
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    z_calls = np.zeros(n, np.float32)
    vector_kernel[1](x, z_calls, k, n)
    module, before, after = inlined(vector_kernel, {"x": ("gm", "float32"), "z": ("gm", "float32"),
                                                    "k": ("float",), "n": ("const", n)})
    assert before.count('"func.call"') == 3
    assert '"func.call"' not in after
    assert after.count('"func.func"') == 1
    # each call is a copy of its callee: three copies of data_copy / muls / adds in all
    assert after.count('"asc.muls"') == 2 and after.count('"asc.adds"') == 2
    # the inlined ops keep the device function's lines
    assert lines_of(affine, "# affine: muls") in locs(after)
    z = np.zeros(n, np.float32)
    run_module(module, "vector_kernel", [x, z, k])
    np.testing.assert_array_equal(z, z_calls)
    ref = ((x * np.float32(k) + np.float32(1)) * np.float32(2) + np.float32(1)).astype(np.float32)
    np.testing.assert_allclose(z, ref, rtol=1e-6)
    check_ascendc(module, tmp_path)


def scalar_ref(x: np.ndarray, n: int, w: int, t: int) -> List[int]:
    def above_ref(th: int) -> Tuple[int, int]:
        sel = x[:n][x[:n] > th].astype(np.int64)
        return int((sel * sel).sum()), int(sel.size)

    s0, c0 = above_ref(0)
    s1, c1 = above_ref(t)
    acc = sum((i + w) ** 2 for i in range(3) if i != 1)
    return [s0, c0, s1, c1, s0 * w + c0, acc]


@pytest.mark.parametrize("n,w,t", [(1, 2, 3), (17, -1, 0), (40, 3, 5)])
def test_scalar_kernel_inlined_matches_calls_and_numpy(n: int, w: int, t: int, tmp_path: Path) -> None:
    rng = np.random.default_rng(n + 100)
    x = rng.integers(-9, 10, size=64).astype(np.int32)
    out_calls = np.zeros(8, np.int32)
    scalar_kernel[1](x, out_calls, n, w, t)
    module, before, after = inlined(scalar_kernel, {"x": ("gm", "int32"), "out": ("gm", "int32"),
                                                    "n": ("int",), "w": ("int",), "t": ("const", t)})
    assert '"func.call"' in before and before.count('"func.func"') >= 4
    assert '"func.call"' not in after
    assert after.count('"func.func"') == 1
    # above is inlined three times (twice here, once through weighted), each with its own loop
    # and branch, and square in each of them, plus once in the kernel's own loop
    assert after.count('"scf.for"') == 4
    assert after.count('"scf.if"') == 4
    assert lines_of(above, "# above: square") in locs(after)
    out = np.zeros(8, np.int32)
    run_module(module, "scalar_kernel", [x, out, n, w])
    np.testing.assert_array_equal(out, out_calls)
    assert out[:6].tolist() == scalar_ref(x, n, w, t)
    check_ascendc(module, tmp_path)


@asc.jit
def shrink(t: asc.LocalTensor, size: int):
    t.set_size(size)


@asc.jit
def in_place_kernel(z: asc.GlobalAddress, n: int):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    tmp = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf=tmp, num=256)
    t = tmp.get(asc.float32)
    shrink(t, n)  # in_place: call
    z_gm.set_value(0, t.get_size())


def test_a_parameter_changed_in_place_is_refused_at_the_call() -> None:
    """C++ passes the LocalTensor by value: shrink changes its own copy (the kernel's t keeps
    its size), which an inlined copy would not; the pass says so at the call."""
    z = np.zeros(8, np.int32)
    in_place_kernel[1](z, 5)
    assert z[0] == 64  # the caller's tensor is unchanged by the callee's set_size
    module, _, _ = compiler.build_module(in_place_kernel, {"z": ("gm", "int32"), "n": ("int",)})
    module.verify()
    before = module.print()
    with pytest.raises(_C.IRError) as info:
        module.run_pass("inline")
    msg, file, line, _ = info.value.args
    assert "changes its parameter `t` in place" in msg and "set_size" in msg
    assert file.endswith("test_pass_inline.py")
    assert line == lines_of(in_place_kernel, "# in_place: call")
    assert module.print() == before  # left as it was


def test_device_function_recursion_never_reaches_the_pass() -> None:
    """The front end refuses recursion before the pass runs (the pass refuses it too: test_inline.c)."""
    @asc.jit
    def rec(v):
        return rec(v)

    @asc.jit
    def rec_kernel(out: asc.GlobalAddress, n: int):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, rec(n))

    with pytest.raises(asc.CompileError, match="recursive"):
        compiler.build_module(rec_kernel, {"out": ("gm", "int32"), "n": ("int",)})
