"""asc.LocalTensorAuto and the plan-ub pass (src/passes/plan_ub.c).

Auto tensors get bytes of one TBuf pool at VECCALC: tensors whose lifetimes
do not overlap share bytes, a tensor of a loop body that two pipes access is
double-buffered when the UB has room, and over capacity is a CompileError
naming the tensors. Sync insertion is another pass: kernels here either
synchronise by hand (the sanitizer on) or run with sanitize="off" (the
simulator executes in program order, so results are right either way).
"""

import inspect
import re
from typing import Any, Dict, List

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc
from asc.runtime import compiler

MTE2_V = asc.HardEvent.MTE2_V
V_MTE3 = asc.HardEvent.V_MTE3
MTE3_MTE2 = asc.HardEvent.MTE3_MTE2


def compiled(kernel: Any) -> Any:
    return list(kernel.cache.values())[-1]


def plan_lines(kernel: Any) -> Dict[str, str]:
    """The plan-ub log line of each tensor, by its Python name."""
    out = {}
    for line in compiled(kernel).pass_log.splitlines():
        m = re.match(r"plan-ub: (\w+) \(", line)
        if m and m.group(1) != "pool":
            out[m.group(1)] = line
    return out


def offset_of(line: str) -> int:
    return int(re.search(r"at offset (\d+)", line).group(1))


def slots_of(line: str) -> int:
    return int(re.search(r", (\d) slots?", line).group(1))


# ---- a copy-in / compute / copy-out loop: double buffering ----------------------------------------------


@asc.jit(sanitize="off")
def vadd_loop(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int],
              tiles: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    for i in range(tiles):
        x_local = asc.LocalTensorAuto(x.dtype, tile)
        y_local = asc.LocalTensorAuto(y.dtype, [tile])
        z_local = asc.LocalTensorAuto(z.dtype, (tile // 8, 8))
        asc.data_copy(x_local, x_gm[i * tile:], count=tile)
        asc.data_copy(y_local, y_gm[i * tile:], count=tile)
        asc.add(z_local, x_local, y_local, tile)
        asc.data_copy(z_gm[i * tile:], z_local, count=tile)


@pytest.mark.parametrize("dtype,tile,tiles", [(np.float32, 64, 4), (np.float16, 128, 3), (np.float32, 10240, 2)])
def test_loop_tensors_compute_and_double_buffer_when_they_fit(dtype: Any, tile: int, tiles: int) -> None:
    rng = np.random.default_rng(tile)
    x = rng.random(tile * tiles).astype(dtype)
    y = rng.random(tile * tiles).astype(dtype)
    z = np.zeros_like(x)
    vadd_loop[1](x, y, z, tile, tiles)
    np.testing.assert_array_equal(z, x + y)
    lines = plan_lines(vadd_loop)
    assert set(lines) == {"x_local", "y_local", "z_local"}
    nbytes = tile * np.dtype(dtype).itemsize
    for line in lines.values():
        assert f"= {nbytes} bytes" in line, line
    if 6 * nbytes <= 192 * 1024:
        # every tensor is touched by two pipes (MTE2/V, V/MTE3): two slots each, in disjoint bytes
        assert all(slots_of(v) == 2 for v in lines.values()), lines
        assert "pipes V,MTE2" in lines["x_local"] and "pipes V,MTE3" in lines["z_local"]
        spans = sorted((offset_of(v), offset_of(v) + 2 * nbytes) for v in lines.values())
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans
    else:
        # 40 KiB tiles: 240 KiB double-buffered; the largest (here: the first) give it up until 160 KiB fit
        assert [slots_of(lines[n]) for n in ("x_local", "y_local", "z_local")] == [1, 1, 2], lines
        assert "double buffering would not fit" in lines["x_local"]
        assert "pool 163840 bytes of 196608" in compiled(vadd_loop).pass_log
    ir = compiled(vadd_loop).ir_text()
    assert '"asc.local_tensor_auto"' not in ir
    assert '"asc.tpipe.init_buffer_buf"' in ir and ir.count('"asc.tbuf"()') == 1
    # the slot alternates with the loop index: rem(i, 2) * slot + base
    n_db = sum(slots_of(v) == 2 for v in lines.values())
    assert ir.count('"arith.rem"(%i, ') == n_db
    cpp = ascendc(vadd_loop)
    assert "AscendC::TBuf<AscendC::TPosition::VECCALC> auto_ub_pool;" in cpp
    assert "pipe.InitBuffer(auto_ub_pool, " in cpp
    assert re.search(r"auto_ub_pool\.GetWithOffset<(float|half)>\(\d+, \(\(i % 2\) \* \d+\) \+ \d+\)", cpp), cpp


@asc.jit(sanitize="off")
def strided_loop(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(3, 11, 2):  # tiles 0..3 at i = 3, 5, 7, 9
        a = asc.LocalTensorAuto(asc.float32, 64)
        b = asc.LocalTensorAuto(asc.float32, 64)
        asc.data_copy(a, x_gm[(i - 3) // 2 * 64:], count=64)
        asc.muls(b, a, 3.0, 64)
        asc.data_copy(z_gm[(i - 3) // 2 * 64:], b, count=64)


def test_a_loop_with_lower_bound_and_step_counts_its_iterations() -> None:
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    strided_loop[1](x, z)
    np.testing.assert_array_equal(z, x * 3)
    ir = compiled(strided_loop).ir_text()
    # (i - lower) / step picks the slot when the loop does not count 0, 1, 2, ...
    assert re.search(r'"arith.sub"\(%i, %\d+\)', ir) and '"arith.div"' in ir
    assert all(slots_of(v) == 2 for v in plan_lines(strided_loop).values())


# ---- straight-line code: lifetimes and reuse ----------------------------------------------------------


@asc.jit
def chain(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensorAuto(asc.float32, n)
    asc.data_copy(a, x_gm, count=n)
    asc.set_flag(MTE2_V, 0)
    asc.wait_flag(MTE2_V, 0)
    b = asc.LocalTensorAuto(asc.float32, n)
    asc.adds(b, a, 1.0, n)
    c = asc.LocalTensorAuto(asc.float32, n)  # a is dead here: c may take its bytes
    asc.muls(c, b, 2.0, n)
    asc.set_flag(V_MTE3, 0)
    asc.wait_flag(V_MTE3, 0)
    asc.data_copy(z_gm, c, count=n)


@pytest.mark.parametrize("n", [8, 64, 1000])
def test_tensors_with_disjoint_lifetimes_share_bytes(n: int) -> None:
    x = np.random.default_rng(n).random(n).astype(np.float32)
    z = np.zeros_like(x)
    chain[1](x, z, n)  # sanitizer on: the hand-written flags order the pipes
    np.testing.assert_array_equal(z, (x + np.float32(1)) * np.float32(2))
    lines = plan_lines(chain)
    assert offset_of(lines["a"]) == offset_of(lines["c"])
    assert offset_of(lines["b"]) != offset_of(lines["a"])
    assert all("1 slot (not in a loop" in v for v in lines.values())
    size = -(-n * 4 // 32) * 32  # 32-byte aligned
    assert f"pool {2 * size} bytes" in compiled(chain).pass_log
    assert all(offset_of(v) % 32 == 0 for v in lines.values())
    # constant offsets: the gets are hoisted to the kernel entry, after the pool's init
    ir = compiled(chain).ir_text()
    init = ir.index('"asc.tpipe.init_buffer_buf"')
    gets = [m.start() for m in re.finditer(r'"asc.tbuf.get_with_offset"', ir)]
    assert len(gets) == 3 and all(g > init for g in gets)
    assert all(g < ir.index('"asc.global_tensor"()') for g in gets)


@asc.jit(sanitize="off")
def outside_loop(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    acc = asc.LocalTensorAuto(asc.float32, 64)
    asc.duplicate(acc, 0.0, 64)
    for i in range(4):
        t = asc.LocalTensorAuto(asc.float32, 64)
        asc.data_copy(t, x_gm[i * 64:], count=64)
        asc.add(acc, acc, t, 64)
    last = asc.LocalTensorAuto(asc.float32, 64)  # acc is still live: no sharing with it
    asc.muls(last, acc, 0.5, 64)
    last.set_value(0, last.get_value(1) + acc.get_value(2))
    asc.data_copy(z_gm, last, count=64)


def test_a_tensor_used_in_a_loop_lives_to_the_loops_end() -> None:
    x = np.random.default_rng(1).random(256).astype(np.float32)
    z = np.zeros(64, np.float32)
    outside_loop[1](x, z)
    acc = ((((np.float32(0) + x[:64]) + x[64:128]) + x[128:192]) + x[192:])
    want = acc * np.float32(0.5)
    want[0] = want[1] + acc[2]
    np.testing.assert_array_equal(z, want)
    lines = plan_lines(outside_loop)
    assert slots_of(lines["acc"]) == 1 and slots_of(lines["t"]) == 2
    assert "pipes S,V,MTE3" in lines["last"]
    taken = [(offset_of(v), offset_of(v) + 256 * slots_of(v)) for v in (lines["acc"], lines["t"])]
    # last lives after the loop: it may reuse t's bytes, never acc's
    assert offset_of(lines["last"]) != offset_of(lines["acc"])
    assert taken[0][1] <= taken[1][0] or taken[1][1] <= taken[0][0]


@asc.jit(sanitize="off")
def while_loop(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    i = 0
    while i < n:
        w = asc.LocalTensorAuto(asc.float32, 32)
        asc.data_copy(w, x_gm[i * 32:], count=32)
        asc.data_copy(z_gm[i * 32:], w, count=32)
        i += 1


def test_only_for_loops_double_buffer() -> None:
    x = np.arange(96, dtype=np.float32)
    z = np.zeros_like(x)
    while_loop[1](x, z, 3)
    np.testing.assert_array_equal(z, x)
    assert "1 slot (in an scf.while loop" in plan_lines(while_loop)["w"]


# ---- device functions, the kernel's own TPipe ----------------------------------------------------------


@asc.jit
def copy_in(i: int, x_gm: asc.GlobalTensor, x_local: asc.LocalTensorAuto, tile: asc.ConstExpr[int]):
    asc.data_copy(x_local, x_gm[i * tile:], count=tile)


@asc.jit
def scale(dst: asc.LocalTensorAuto, src: asc.LocalTensorAuto, tile: asc.ConstExpr[int]):
    asc.muls(dst, src, 2.0, tile)


@asc.jit(sanitize="off")
def with_pipe(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que, 1, tile * 4)
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(2):
        a = asc.LocalTensorAuto(asc.float32, tile)
        copy_in(i, x_gm, a, tile)
        o = que.alloc_tensor(asc.float32)
        scale(o, a, tile)
        que.enque(o)
        o = que.deque(asc.float32)
        asc.data_copy(z_gm[i * tile:], o, count=tile)
        que.free_tensor(o)


def test_the_kernels_tpipe_is_reused_and_its_buffers_counted() -> None:
    x = np.arange(128, dtype=np.float32)
    z = np.zeros_like(x)
    with_pipe[1](x, z, 64)
    np.testing.assert_array_equal(z, x * 2)
    ir = compiled(with_pipe).ir_text()
    assert ir.count('"asc.tpipe"()') == 1
    log = compiled(with_pipe).pass_log
    assert "pool 512 bytes of 196352 available (UB 196608, 256 taken by init_buffer calls)" in log, log
    # through the calls: copy_in's DataCopy (MTE2) and scale's Muls (V)
    assert "2 slots (double-buffered; pipes V,MTE2)" in plan_lines(with_pipe)["a"]
    cpp = ascendc(with_pipe)
    assert cpp.count("AscendC::TPipe ") == 1


# ---- errors -------------------------------------------------------------------------------------------


@asc.jit
def too_big_simple(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    big0 = asc.LocalTensorAuto(asc.float32, 16384)  # <- first
    big1 = asc.LocalTensorAuto(asc.float32, 16384)
    big2 = asc.LocalTensorAuto(asc.float32, [128, 128])
    big3 = asc.LocalTensorAuto(asc.float32, 16)
    asc.data_copy(big0, x_gm, count=64)
    asc.data_copy(big1, x_gm, count=64)
    asc.data_copy(big2, x_gm, count=64)
    asc.data_copy(big3, x_gm, count=16)
    asc.add(big0, big1, big2, 64)
    asc.add(big0, big0, big3, 16)


def test_over_capacity_names_every_tensor_and_the_capacity() -> None:
    err = fails_at(too_big_simple, (np.zeros(64, np.float32),), "# <- first", "big0 at test_ub_plan.py:",
                   "big1 at", "big2 at", "65536 bytes", "big3 at", "64 bytes", "196672 bytes needed",
                   "the kernel has 196608", "all of the UB: its kernel type AIV_ONLY is not MIX",
                   cls=asc.CompileError)
    assert "LocalTensorAuto" in str(err)


@asc.jit
def runtime_size(x: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    t = asc.LocalTensorAuto(asc.float32, [8, n])
    asc.duplicate(t, 2.0, 8 * n)
    asc.data_copy(x_gm, t, 8 * n)


def test_a_runtime_size_is_placed_at_run_time() -> None:
    # (was a CompileError; test_ub_plan_dynamic.py covers runtime-sized tensors)
    x = np.zeros(32, np.float32)
    runtime_size[1](x, 4)
    np.testing.assert_array_equal(x, np.full(32, 2.0, np.float32))


@asc.jit
def nested_pipe(x: asc.GlobalAddress):
    t = asc.LocalTensorAuto(asc.float32, 8)
    t.set_value(0, 1.0)
    for _i in range(1):
        pipe = asc.TPipe()  # <- here
        pipe.init()


def test_a_tpipe_in_a_nested_block_is_a_compile_error() -> None:
    fails_at(nested_pipe, (np.zeros(8, np.float32),), "# <- here", "TPipe at the top level",
             cls=asc.CompileError)


# ---- options and logs ---------------------------------------------------------------------------------


@asc.jit(sanitize="off")
def tiny(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    t = asc.LocalTensorAuto(asc.int32, 8)
    asc.duplicate(t, 7, 8)
    asc.data_copy(x_gm, t, count=8)


@asc.jit(sanitize="off")
def plain(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    x_gm.set_value(0, 7)


def test_auto_tensors_imply_insert_sync() -> None:
    x = np.zeros(8, np.int32)
    tiny[1](x)
    np.testing.assert_array_equal(x, 7)
    assert compiled(tiny).options["insert_sync"] is True
    plain[1](x)
    assert compiled(plain).options["insert_sync"] is False
    assert compiled(plain).pass_log == ""
    assert compiler.effective_options({"insert_sync": False}, '"asc.local_tensor_auto"')["insert_sync"] is False
    assert compiler.sync_pipeline({"insert_sync": False}) == []
    # without the kernel's module, what any kernel may use: 192 KiB less the 256 bytes of a MIX kernel and the
    # 8 KiB of one using an API of 静态Tensor编程.md's table 5 (NPU架构版本2201.md), or less the 256 bytes only with
    # --cce-disable-asc-reserved-ubuf; with it, what this kernel may use (test_hw_rules.py)
    assert compiler.sync_pipeline({"insert_sync": None}, True, "Ascend910B1")[-1] == "plan-ub{ub=188160}"
    assert compiler.sync_pipeline({"insert_sync": None, "bisheng_options": ("--cce-disable-asc-reserved-ubuf",)},
                                  True, "Ascend910B1")[-1] == "plan-ub{ub=196352}"
    assert compiler.sync_pipeline({"insert_sync": None}, True, "Ascend910B1", compiled(tiny).module)[-1] == \
        "plan-ub{ub=196608}"
    assert compiler.sync_pipeline({"insert_sync": True}) == ["inline", "insert-sync{auto-sync}"]
    assert compiler.sync_pipeline({"insert_sync": "replace", "auto_sync": False}, True) == \
        ["inline", "plan-ub", "insert-sync{replace}"]


def test_the_plan_goes_to_the_dump_and_to_auto_sync_log(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYASC_DUMP_PATH", str(tmp_path / "dump"))
    log_file = tmp_path / "auto_sync.log"

    @asc.jit(sanitize="off", auto_sync_log=str(log_file))
    def logged(x: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        t = asc.LocalTensorAuto(asc.float32, 8)
        asc.duplicate(t, 2.0, 8)
        asc.data_copy(x_gm, t, count=8)

    x = np.zeros(8, np.float32)
    logged[1](x)
    np.testing.assert_array_equal(x, 2)
    dumped: List[Any] = list((tmp_path / "dump").glob("logged-*.passes.log"))
    assert len(dumped) == 1
    text = dumped[0].read_text()
    assert re.search(r"plan-ub: t \(test_ub_plan.py:\d+\) float32 x 8 = 32 bytes at offset 0, 1 slot", text), text
    assert "plan-ub: pool 32 bytes of 196608" in text
    assert log_file.read_text() == text


def test_run_passes_false_still_plans() -> None:
    @asc.jit(sanitize="off", run_passes=False)
    def unoptimised(x: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        t = asc.LocalTensorAuto(asc.float32, 8)
        asc.duplicate(t, 3.0, 8)
        asc.data_copy(x_gm, t, count=8)

    x = np.zeros(8, np.float32)
    unoptimised[1](x)
    np.testing.assert_array_equal(x, 3)


@asc.jit(sanitize="off")
def pipe_init_first(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    pipe.init()
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    t = asc.LocalTensorAuto(asc.float32, 8)
    asc.duplicate(t, 5.0, 8)
    asc.data_copy(x_gm, t, count=8)
    pipe.destroy()


@asc.jit
def pipe_reset_after(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    t = asc.LocalTensorAuto(asc.float32, 8)
    t.set_value(0, 1.0)
    pipe.reset()  # <- here


def test_the_pool_follows_pipe_init_and_a_later_reset_is_refused() -> None:
    x = np.zeros(8, np.float32)
    pipe_init_first[1](x)
    np.testing.assert_array_equal(x, 5)
    ir = compiled(pipe_init_first).ir_text()
    assert ir.index('"asc.tpipe.init"') < ir.index('"asc.tpipe.init_buffer_buf"')
    fails_at(pipe_reset_after, (x,), "# <- here", "releases the UB the compiler gave the auto tensors",
             cls=asc.CompileError)


@asc.jit
def make_auto(x_gm: asc.GlobalTensor):
    inner = asc.LocalTensorAuto(asc.float32, 8)  # <- here
    asc.duplicate(inner, 4.0, 8)
    asc.data_copy(x_gm, inner, count=8)


@asc.jit(sanitize="off")
def auto_in_device_function(x: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    make_auto(x_gm)


def test_an_auto_tensor_of_a_device_function_needs_inlining() -> None:
    x = np.zeros(8, np.float32)
    if "inline" in asc._C.pass_names():  # once the inline pass exists, the plan sees the callee's tensors
        auto_in_device_function[1](x)
        np.testing.assert_array_equal(x, 4)
    else:
        with pytest.raises(asc.CompileError) as info:
            auto_in_device_function[1](x)
        lines, first = inspect.getsourcelines(make_auto.fn)
        assert info.value.line == first + next(i for i, t in enumerate(lines) if t.rstrip().endswith("# <- here"))
        assert "device function make_auto" in str(info.value) and "inline pass" in str(info.value)


def test_a_disk_cache_hit_reports_the_log_too(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PYASC_DUMP_PATH", raising=False)
    log_file = tmp_path / "auto_sync.log"

    def cached(x: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        t = asc.LocalTensorAuto(asc.float32, 8)
        asc.duplicate(t, 4.0, 8)
        asc.data_copy(x_gm, t, count=8)

    first = asc.jit(auto_sync_log=str(log_file))(cached)
    x = np.zeros(8, np.float32)
    first[1](x)
    text = log_file.read_text()
    assert "plan-ub: t" in text and "insert-sync: set_flag/wait_flag V_MTE3" in text, text
    log_file.unlink()
    again = asc.jit(auto_sync_log=str(log_file))(cached)  # a new JITFunction: its memory cache is empty
    x[:] = 0
    again[1](x)
    np.testing.assert_array_equal(x, 4)
    hit = next(iter(again.cache.values()))
    assert hit.from_disk and hit.pass_log == text
    assert log_file.read_text() == text
