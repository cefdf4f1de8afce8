"""Hostile values: indices, offsets and lengths near the int64 limits,
kernels that never end, and arguments that only look like arrays.

Every address the simulator computes is overflow-checked (src/sim/checked.h):
a value that would wrap is a KernelError naming the API call and the line,
on every path — IR built by the front end, IR text, a cache entry — and the
memory around the arguments is untouched. A launch can be stopped: by its
step budget (the `max_steps` option, PYASC_MAX_STEPS) and by Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import asc
from asc import _C

BIG = [2**31, 2**32 + 7, 2**61, 2**61 + 3, 2**62, 2**62 + 1, 2**63 - 1]


@asc.jit
def _gm_index(x: asc.GlobalAddress, i: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    g.set_value(i, 1.0)


@asc.jit
def _gm_read(x: asc.GlobalAddress, i: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    g.set_value(0, g.get_value(i))


@asc.jit
def _addr_offset(x: asc.GlobalAddress, i: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x + i, 16)
    g.set_value(0, 1.0)


@asc.jit
def _tensor_offset(x: asc.GlobalAddress, i: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    h = g[i:]
    h.set_value(0, 1.0)


@asc.jit
def _runtime_index(x: asc.GlobalAddress, k: asc.ConstExpr[int]):
    # the index is computed at run time from get_block_idx(): folding cannot see it
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    i = asc.get_block_idx() + k
    g.set_value(i, 1.0)


# Counts and lengths computed at run time (from get_block_idx(), so no folding sees them): a
# constant that does not fit the C parameter is a compile error of its own (below).
@asc.jit
def _local_count(x: asc.GlobalAddress, k: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 256)
    t = q.alloc_tensor(asc.float32)
    asc.duplicate(t, 1.0, asc.get_block_idx() + k)
    q.free_tensor(t)


@asc.jit
def _queue_length(x: asc.GlobalAddress, k: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 2, asc.get_block_idx() + k)


@asc.jit
def _copy_count(x: asc.GlobalAddress, k: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 256)
    t = q.alloc_tensor(asc.float32)
    asc.data_copy(t, g, asc.get_block_idx() + k)
    q.free_tensor(t)


@asc.jit
def _const_count(x: asc.GlobalAddress, n: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, 256)
    t = q.alloc_tensor(asc.float32)
    asc.duplicate(t, 1.0, n)
    q.free_tensor(t)


@asc.jit
def _const_index(x: asc.GlobalAddress, i: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 16)
    g.set_value(i, 1.0)


@pytest.mark.parametrize("kernel,value,param", [
    (_const_count, 2**31, "count = 2147483648 does not fit the int32_t parameter of AscendC::Duplicate"),
    (_const_count, 2**62, "int32_t parameter of AscendC::Duplicate"),
    (_const_index, -1, "index = -1 does not fit the uint64_t parameter of SetValue"),
])
def test_constants_that_do_not_fit_the_cpp_parameter(kernel: Any, value: int, param: str) -> None:
    """C++ would convert them silently (a count of 2^32 + 3 to 3, -1 to 2^64 - 1): the NPU would run
    another kernel than the simulator. A compile error at the call instead."""
    with pytest.raises(asc.CompileError, match=param) as info:
        kernel[1](_guarded(), value)
    assert info.value.filename == __file__ and info.value.line > 0


CASES = [(_gm_index, "GlobalTensor.set_value"), (_gm_read, "GlobalTensor.get_value"),
         (_addr_offset, None), (_tensor_offset, None), (_runtime_index, "GlobalTensor.set_value"),
         (_local_count, "asc.duplicate"), (_queue_length, "TPipe.init_buffer"), (_copy_count, "asc.data_copy")]


def _guarded() -> np.ndarray:
    """64 floats: the kernels get the middle 16 (elements 24..40), the rest is a guard."""
    return np.full(64, 7.0, np.float32)


_NEGATIVE = [-v for v in BIG if v < 2**63 - 1] + [-(2**63)]
# A negative constant for an unsigned C parameter (an index, a tensor offset) is a compile error
# (test_constants_that_do_not_fit_the_cpp_parameter); negative values reach the simulator as a
# signed address offset or as values computed at run time.
_SIGNED = (_addr_offset, _runtime_index)
_HOSTILE = [(k, api, v) for k, api in CASES for v in BIG + (_NEGATIVE if k in _SIGNED else [])]


@pytest.mark.parametrize("kernel,api,value", _HOSTILE, ids=[f"{k.name}-{v}" for k, _, v in _HOSTILE])
def test_huge_values_fault_at_the_call(kernel: Any, api: Any, value: int) -> None:
    buf = _guarded()
    with pytest.raises(asc.KernelError) as info:
        kernel[1](buf[24:40], value)
    err = info.value
    assert err.kernel == kernel.name and err.block == 0
    assert err.filename == __file__ and err.line > 0
    if api is not None:
        assert err.api == api
    assert np.all(buf[:24] == 7.0) and np.all(buf[40:] == 7.0)


def test_in_range_values_still_work() -> None:
    buf = _guarded()
    _gm_index[1](buf[24:40], 15)
    assert buf[39] == 1.0 and np.all(buf[:39] == 7.0)
    buf = _guarded()
    # one block: blocks writing elements 3..6 would share a 64-byte data cache line (docs/sanitizer.md)
    _runtime_index[1](buf[24:40], 3)
    assert buf[27] == 1.0 and np.all(buf[:27] == 7.0) and np.all(buf[28:] == 7.0)


@pytest.mark.parametrize("value", [2**62, 2**61 + 3])
def test_same_ir_from_text_faults_the_same_way(value: int) -> None:
    """The IR text of the same kernel, as a cache entry or a file holds it,
    parsed, verified and launched again, runs through the same checks."""
    buf = _guarded()
    with pytest.raises(asc.KernelError):
        _gm_index[1](buf[24:40], value)
    compiled = [c for c in _gm_index.cache.values() if str(value) in c.ir_text()]
    assert compiled
    kernel = _C.Module.parse(compiled[0].ir_text(), "entry.ascache").compile("_gm_index")
    with pytest.raises(_C.LaunchError) as info:
        kernel.launch(1, "Ascend910B1", [buf[24:40]], 1, 0)
    assert "out of range" in info.value.args[1]
    assert np.all(buf == 7.0)


def test_negative_constant_index_in_ir_text_is_rejected() -> None:
    """A negative constant for the uint64_t index of SetValue, as IR text could hold it: the
    verifier rejects it (C++ would make it 2^64 - 1)."""
    buf = _guarded()
    _gm_index[1](buf[24:40], 3)
    text = next(c for c in _gm_index.cache.values() if "value = 3 : i32" in c.ir_text()).ir_text()
    with pytest.raises(_C.IRError, match="does not fit the uint64_t parameter of SetValue"):
        _C.Module.parse(text.replace("value = 3 : i32", "value = -5 : i32"), "entry.ascache").compile("_gm_index")


# ---------------------------------------------------------------------------
# loops and the step budget
# ---------------------------------------------------------------------------

@asc.jit
def _spin(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    i = 0
    while i < n:
        i = i + 0 * n  # never advances: the loop never ends
    g.set_value(0, 1)


@asc.jit(max_steps=50000)
def _spin_budget(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    i = 0
    while i < n:
        i = i + 0 * n
    g.set_value(0, 1)


@asc.jit
def _count(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    acc = 0
    for _ in range(n):
        acc = acc + 1
    g.set_value(0, acc)


def test_step_budget_option_stops_an_endless_loop() -> None:
    x = np.zeros(8, np.int32)
    with pytest.raises(asc.KernelError, match="step budget") as info:
        _spin_budget[2](x, 5)
    # the instruction that exceeds the budget is one of the loop's (its condition or its body)
    first = _spin_budget.fn.__code__.co_firstlineno
    assert info.value.line in (first + 5, first + 6) and info.value.block == 0
    assert x[0] == 0


def test_step_budget_per_launch_and_zero_means_none() -> None:
    x = np.zeros(8, np.int32)
    with pytest.raises(asc.KernelError, match="step budget"):
        _count[1](x, 100000, max_steps=1000)
    _count[1](x, 1000, max_steps=0)
    assert x[0] == 1000
    _count[1](x, 2000, max_steps=100000)  # a budget the kernel fits in changes nothing
    assert x[0] == 2000


@pytest.mark.parametrize("bad", [-1, 1.5, "10", True])
def test_step_budget_bad_values(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_steps"):
        asc.jit(max_steps=bad)


def test_step_budget_from_the_environment(tmp_path: Path) -> None:
    script = tmp_path / "spin_env.py"
    script.write_text(textwrap.dedent("""
        import numpy as np, asc
        @asc.jit
        def spin(x: asc.GlobalAddress, n: int):
            g = asc.GlobalTensor()
            g.set_global_buffer(x, 8)
            i = 0
            while i < n:
                i = i + 0 * n
            g.set_value(0, 1)
        try:
            spin[1](np.zeros(8, np.int32), 5)
        except asc.KernelError as e:
            print("budget:", "step budget" in str(e), e.line)
    """))
    env = dict(os.environ, PYASC_MAX_STEPS="20000", PYASC_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.stdout.strip() == "budget: True 8", out.stderr
    env["PYASC_MAX_STEPS"] = "many"
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert "PYASC_MAX_STEPS must be a non-negative integer" in out.stderr


_SIGINT_SCRIPT = """
import sys, time
import numpy as np, asc
@asc.jit
def spin(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    i = 0
    while i < n:
        i = i + 0 * n
    g.set_value(0, 1)
@asc.jit
def one(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, 8)
    g.set_value(0, 42)
x = np.zeros(8, np.int32)
one[1](x)
x[0] = 0
print("start", flush=True)
try:
    spin[int(sys.argv[1])](x, 5)
    print("finished?!", flush=True)
except KeyboardInterrupt:
    one[1](x)  # the process and the package still work
    print("interrupted", x[0], flush=True)
"""


@pytest.mark.parametrize("cores", [1, 6])
def test_ctrl_c_ends_a_running_launch(tmp_path: Path, cores: int) -> None:
    script = tmp_path / "spin_sigint.py"
    script.write_text(_SIGINT_SCRIPT)
    env = dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache"), PYASC_WORKERS="2")
    p = subprocess.Popen([sys.executable, str(script), str(cores)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    try:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "start"
        time.sleep(0.5)  # the launch is running (compiled already: the loop spins)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
    assert out.strip() == "interrupted 42", err
    assert p.returncode == 0
    # the interpreter polls every 100 ms; allow for a loaded CI machine, not for a hang
    assert took < 10


def test_loop_near_int64_max_ends() -> None:
    # `range` of int64 bounds: the induction variable must not overflow past the bound
    text = """
module @m {
  "func.func"() ({
  ^bb0(%x: !asc.global_address<i64>, %lo: i64, %hi: i64, %step: i64):
    %g = "asc.global_tensor"() : () -> !asc.global_tensor<i64> loc("l.py":1:0)
    "asc.global_tensor.set_global_buffer"(%g, %x) : (!asc.global_tensor<i64>, !asc.global_address<i64>) -> () loc("l.py":1:0)
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64 loc("l.py":2:0)
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64 loc("l.py":2:0)
    %n = "scf.for"(%lo, %hi, %step, %c0) ({
    ^bb0(%i: i64, %acc: i64):
      %a = "arith.add"(%acc, %c1) : (i64, i64) -> i64 loc("l.py":3:0)
      "scf.yield"(%a) : (i64) -> () loc("l.py":3:0)
    }) : (i64, i64, i64, i64) -> i64 loc("l.py":3:0)
    "asc.global_tensor.set_value"(%g, %c0, %n) : (!asc.global_tensor<i64>, i64, i64) -> () loc("l.py":4:0)
    "func.return"() : () -> () loc("l.py":5:0)
  }) {sym_name = "m", kernel = 1 : i64, res_types = []} : () -> () loc("l.py":1:0)
}
"""
    kernel = _C.Module.parse(text, "l.ascir").compile("m")
    out = np.zeros(1, np.int64)
    for lo, hi, step, want in [(2**63 - 8, 2**63 - 1, 3, 3), (-(2**63) + 7, -(2**63), -3, 3),
                               (0, 2**63 - 1, 2**62, 2)]:
        kernel.launch(1, "Ascend910B1", [out, lo, hi, step], 1, 0)
        assert out[0] == want, (lo, hi, step)


# ---------------------------------------------------------------------------
# arguments that only look like arrays
# ---------------------------------------------------------------------------

class _FakeTensor:
    """Has what the old duck-typed check looked for, but is no tensor."""

    __module__ = "torch.fake"

    def data_ptr(self) -> int:
        return 4096

    def element_size(self) -> int:
        return 4


def test_objects_that_look_like_tensors_are_rejected() -> None:
    with pytest.raises(TypeError, match="NumPy array or a torch tensor"):
        _gm_index[1](_FakeTensor(), 0)


def test_raw_buffer_tuples_need_their_marker() -> None:
    buf = np.zeros(16, np.float32)
    _gm_index[1](buf, 0)
    kernel = next(iter(_gm_index.cache.values())).kernel
    with pytest.raises(TypeError, match="raw buffer"):
        kernel.launch(1, "Ascend910B1", [("ptr", buf.ctypes.data, 64, False)], 1, 0)


def test_torch_storage_resized_to_zero_is_rejected() -> None:
    torch = pytest.importorskip("torch")
    t = torch.zeros(16)
    t.untyped_storage().resize_(0)
    for i in (0, 1):
        with pytest.raises(ValueError, match="storage holds 0 bytes"):
            _gm_index[1](t, i)


def test_torch_views_are_bounded_by_their_storage() -> None:
    torch = pytest.importorskip("torch")
    base = torch.zeros(32)
    view = base[16:]
    _gm_index[1](view, 15)
    assert base[31].item() == 1.0 and base[:31].sum().item() == 0
    with pytest.raises(ValueError, match="dense"):
        _gm_index[1](torch.zeros(16).to_sparse(), 0)
