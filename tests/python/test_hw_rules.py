"""Resource and programming-style rules the NPU enforces by hanging or corrupting (issue 17), which the simulator
enforces with a KernelError, a CompileError or a sanitizer report naming the user's line, the limit, the devkit
source and what to write instead:

1. at most 8 queue buffers of one TPosition allocated at once (TQue简介.md "TQue Buffer限制", FAQ
   运行验证时AllocTensor-FreeTensor失败.md): the 9th AllocTensor hangs on an NPU;
2. the UB's reserved parts (架构规格/NPU架构版本2201.md): a MIX kernel leaves the UB's and the L1's last 256 bytes,
   a kernel using an API of 静态Tensor编程.md's table 5 leaves Ascend C's 8 KiB of UB; --cce-disable-asc-reserved-ubuf
   (bisheng_options) makes those APIs CompileErrors;
3. static tensors (placed by address) and the TPipe framework do not mix in one kernel (静态Tensor编程.md);
4. event ids 6 and 7 are the devkit's (SetFlag-WaitFlag(ISASI).md), and an id a TQue holds is the queue's;
5. pipe_barrier(PIPE_S) is not supported (PipeBarrier(ISASI).md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from kernels_util import fails_at, line_of

import asc
import asc._C as C
from asc.runtime import compiler

VECIN, VECOUT, VECCALC, GM = asc.TPosition.VECIN, asc.TPosition.VECOUT, asc.TPosition.VECCALC, asc.TPosition.GM
UB = 192 * 1024  # what an AIV kernel using no API of 静态Tensor编程.md's table 5 may use: all of it
UB_API = UB - 8 * 1024  # one using such an API: below TMP_UB_OFFSET (kernel_utils_constants.h)
UB_MIX = UB - 256  # a MIX kernel: ASC_UB_SIZE (NPU架构版本2201.md)
UB_MIX_API = UB - 256 - 8 * 1024  # a MIX kernel using such an API (the page's 192 KiB - 256 B - 8 KiB)
L1 = 512 * 1024
L1_MIX = L1 - 256  # ASC_L1_SIZE: a MIX kernel's
NO_RESERVE = ("--cce-disable-asc-reserved-ubuf",)


# ---- 1. queue buffers of one TPosition allocated at once ---------------------------------------------------------

@asc.jit
def _load(q: asc.TQue, xg: asc.GlobalTensor, i: asc.ConstExpr[int]):
    t = q.alloc_tensor(asc.float32)
    asc.data_copy(t, xg[i * 64:], 64)
    q.enque(t)
    return q.deque(asc.float32)


@asc.jit
def many_at_once(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    """n (8 or 9) VECIN tensors from n queues in use at once; each enque / deque releases its event id, and only
    8 frees follow, so the devkit's event ids never run out: only the documented limit stops the 9th."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q0 = asc.TQue(VECIN, 1)
    q1 = asc.TQue(VECIN, 1)
    q2 = asc.TQue(VECIN, 1)
    q3 = asc.TQue(VECIN, 1)
    q4 = asc.TQue(VECIN, 1)
    q5 = asc.TQue(VECIN, 1)
    q6 = asc.TQue(VECIN, 1)
    q7 = asc.TQue(VECIN, 1)
    q8 = asc.TQue(VECIN, 1)
    pipe.init_buffer(q0, 1, 256)
    pipe.init_buffer(q1, 1, 256)
    pipe.init_buffer(q2, 1, 256)
    pipe.init_buffer(q3, 1, 256)
    pipe.init_buffer(q4, 1, 256)
    pipe.init_buffer(q5, 1, 256)
    pipe.init_buffer(q6, 1, 256)
    pipe.init_buffer(q7, 1, 256)
    pipe.init_buffer(q8, 1, 256)
    t0 = _load(q0, xg, 0)
    t1 = _load(q1, xg, 1)
    t2 = _load(q2, xg, 2)
    t3 = _load(q3, xg, 3)
    t4 = _load(q4, xg, 4)
    t5 = _load(q5, xg, 5)
    t6 = _load(q6, xg, 6)
    t7 = _load(q7, xg, 7)
    if n == 9:
        t8 = q8.alloc_tensor(asc.float32)  # <- ninth
        asc.data_copy(t8, xg[8 * 64:], 64)
        q8.enque(t8)
        t8 = q8.deque(asc.float32)
        asc.add(t0, t0, t8, 64)
    asc.add(t0, t0, t1, 64)
    asc.add(t0, t0, t2, 64)
    asc.add(t0, t0, t3, 64)
    asc.add(t0, t0, t4, 64)
    asc.add(t0, t0, t5, 64)
    asc.add(t0, t0, t6, 64)
    asc.add(t0, t0, t7, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, t0, 64)
    q1.free_tensor(t1)
    q2.free_tensor(t2)
    q3.free_tensor(t3)
    q4.free_tensor(t4)
    q5.free_tensor(t5)
    q6.free_tensor(t6)
    q7.free_tensor(t7)
    q0.free_tensor(t0)


def test_eight_buffers_of_a_position_at_once_are_fine_the_ninth_is_not() -> None:
    x = np.ones(9 * 64, np.float32)
    z = np.zeros(64, np.float32)
    many_at_once[1](x, z, 8)
    np.testing.assert_array_equal(z, np.full(64, 8.0, np.float32))
    err = fails_at(many_at_once, (x, z, 9), "# <- ninth", "alloc_tensor: 8 buffers of TPosition.VECIN are allocated "
                   "and not yet freed (from 8 queues)", "at most 8 queue buffers of one TPosition",
                   "TQue简介.md", "运行验证时AllocTensor-FreeTensor失败.md", "free_tensor one first",
                   "merge buffers")
    assert "hangs" in str(err)


@asc.jit
def what_counts(case: asc.ConstExpr[int]):
    """Seven VECIN buffers in use from seven TQues, then what the case adds."""
    pipe = asc.TPipe()
    q0 = asc.TQue(VECIN, 1)
    q1 = asc.TQue(VECIN, 1)
    q2 = asc.TQue(VECIN, 1)
    q3 = asc.TQue(VECIN, 1)
    q4 = asc.TQue(VECIN, 1)
    q5 = asc.TQue(VECIN, 1)
    q6 = asc.TQue(VECIN, 1)
    pipe.init_buffer(q0, 1, 64)
    pipe.init_buffer(q1, 1, 64)
    pipe.init_buffer(q2, 1, 64)
    pipe.init_buffer(q3, 1, 64)
    pipe.init_buffer(q4, 1, 64)
    pipe.init_buffer(q5, 1, 64)
    pipe.init_buffer(q6, 1, 64)
    t0 = q0.alloc_tensor(asc.float32)
    q1.alloc_tensor(asc.float32)
    q2.alloc_tensor(asc.float32)
    q3.alloc_tensor(asc.float32)
    q4.alloc_tensor(asc.float32)
    q5.alloc_tensor(asc.float32)
    q6.alloc_tensor(asc.float32)
    if case == 0:  # TQueBind(GM, VECIN) buffers are VECIN buffers too
        b1 = asc.TQueBind(GM, VECIN, 1)
        b2 = asc.TQueBind(GM, VECIN, 1)
        pipe.init_buffer(b1, 1, 64)
        pipe.init_buffer(b2, 1, 64)
        b1.alloc_tensor(asc.float32)
        b2.alloc_tensor(asc.float32)  # <- 0
    if case == 1:  # so are the buffers of queues of depth 0, allocated in place
        d1 = asc.TQue(VECIN, 0)
        d2 = asc.TQue(VECIN, 0)
        pipe.init_buffer(d1, 1, 64)
        pipe.init_buffer(d2, 1, 64)
        e1 = asc.LocalTensor(asc.float32)
        e2 = asc.LocalTensor(asc.float32)
        d1.alloc_tensor(e1)
        d2.alloc_tensor(e2)  # <- 1
    if case == 2:  # and those of queues a TBufPool gave
        pool = asc.TBufPool(VECCALC, 4)
        pipe.init_buf_pool(pool, 1024)
        p1 = asc.TQue(VECIN, 1)
        p2 = asc.TQue(VECIN, 1)
        pool.init_buffer(p1, 1, 64)
        pool.init_buffer(p2, 1, 64)
        p1.alloc_tensor(asc.float32)
        p2.alloc_tensor(asc.float32)  # <- 2
    if case == 3:  # a TBuf carries no event: it does not count
        buf = asc.TBuf(VECIN)
        pipe.init_buffer(buf, 64)
        buf.get(asc.float32)
        q7 = asc.TQue(VECIN, 1)
        pipe.init_buffer(q7, 1, 64)
        q7.alloc_tensor(asc.float32)
    if case == 4:  # another position has eight of its own
        o0 = asc.TQue(VECOUT, 1)
        o1 = asc.TQue(VECOUT, 1)
        pipe.init_buffer(o0, 1, 64)
        pipe.init_buffer(o1, 1, 64)
        o0.alloc_tensor(asc.float32)
        o1.alloc_tensor(asc.float32)
    if case == 5:  # a buffer freed is no longer in use: eight at once again
        q0.free_tensor(t0)
        r1 = asc.TQue(VECIN, 1)
        r2 = asc.TQue(VECIN, 1)
        pipe.init_buffer(r1, 1, 64)
        pipe.init_buffer(r2, 1, 64)
        r1.alloc_tensor(asc.float32)
        r2.alloc_tensor(asc.float32)
    if case == 6:  # ... until the next one
        q0.free_tensor(t0)
        r1 = asc.TQue(VECIN, 1)
        r2 = asc.TQue(VECIN, 1)
        r3 = asc.TQue(VECIN, 1)
        pipe.init_buffer(r1, 1, 64)
        pipe.init_buffer(r2, 1, 64)
        pipe.init_buffer(r3, 1, 64)
        r1.alloc_tensor(asc.float32)
        r2.alloc_tensor(asc.float32)
        r3.alloc_tensor(asc.float32)  # <- 6
    if case == 7:  # pipe.reset() takes every buffer back
        pipe.reset()
        s1 = asc.TQue(VECIN, 1)
        s2 = asc.TQue(VECIN, 1)
        pipe.init_buffer(s1, 1, 64)
        pipe.init_buffer(s2, 1, 64)
        s1.alloc_tensor(asc.float32)
        s2.alloc_tensor(asc.float32)


@pytest.mark.parametrize("case", [0, 1, 2, 6])
def test_every_queue_buffer_of_the_position_counts(case: int) -> None:
    fails_at(what_counts, (case,), f"# <- {case}", "8 buffers of TPosition.VECIN are allocated and not yet freed")


@pytest.mark.parametrize("case", [3, 4, 5, 7])
def test_tbufs_other_positions_and_freed_buffers_do_not_count(case: int) -> None:
    what_counts[1](case)


@asc.jit
def double_buffered(n: asc.ConstExpr[int]):
    """TQue简介.md's double-buffer example: each TQue has 2 buffers, so 4 TQues fill a position."""
    pipe = asc.TPipe()
    q0 = asc.TQue(VECIN, 1)
    q1 = asc.TQue(VECIN, 1)
    q2 = asc.TQue(VECIN, 1)
    q3 = asc.TQue(VECIN, 1)
    q4 = asc.TQue(VECIN, 1)
    pipe.init_buffer(q0, 2, 1024)
    pipe.init_buffer(q1, 2, 1024)
    pipe.init_buffer(q2, 2, 1024)
    pipe.init_buffer(q3, 2, 1024)
    pipe.init_buffer(q4, 2, 1024)
    q0.alloc_tensor(asc.float16)
    q0.alloc_tensor(asc.float16)
    q1.alloc_tensor(asc.float16)
    q1.alloc_tensor(asc.float16)
    q2.alloc_tensor(asc.float16)
    q2.alloc_tensor(asc.float16)
    q3.alloc_tensor(asc.float16)
    q3.alloc_tensor(asc.float16)
    if n == 5:
        q4.alloc_tensor(asc.float16)  # <- fifth queue


def test_double_buffering_halves_the_queues() -> None:
    double_buffered[1](4)
    fails_at(double_buffered, (5,), "# <- fifth queue", "8 buffers of TPosition.VECIN", "(from 4 queues)")


# ---- 2. the UB's reserved parts --------------------------------------------------------------------------------
# 256 bytes of UB and of L1 are kept in MIX kernels only; 8 KiB of UB only in a kernel using an API of table 5. The
# devkit's add_high_performance example (an AIV kernel without those APIs) places its tensors in all 196608 bytes.

def test_the_platform_table_holds_the_reserved_parts() -> None:
    row = C.platform("Ascend910B1")
    assert (row["ub_size"], row["ub_asc_reserved"], row["ub_api_reserved"], row["ub_msg_size"]) == \
        (UB, 256, 8 * 1024, 128)
    assert (row["l1_size"], row["l1_reserved"], row["l1_asc_reserved"]) == (512 * 1024, 128, 256)
    assert (row["event_ids"], row["user_event_ids"]) == (8, 6)
    # without the kernel's module: what any kernel may use (both parts kept; the 8 KiB not with the option)
    assert compiler.usable_ub("Ascend910B1", {}) == UB_MIX_API
    assert compiler.usable_ub("Ascend910B1", {"bisheng_options": NO_RESERVE}) == UB_MIX


def test_the_npu_compile_gets_the_option_too(tmp_path: Any) -> None:
    from pathlib import Path

    import asc.runtime.config as config
    from asc.runtime import npu

    tools = npu.Toolchain("bisheng", "ld.lld", ())
    build = npu.build_commands(Path("k.cpp"), tmp_path, "Ascend910B1", config.KernelType.AIV_ONLY,
                               {"bisheng_options": NO_RESERVE}, toolchain=tools)
    assert build.compiles and all(c[-1] == NO_RESERVE[0] for c in build.compiles)


@asc.jit(sanitize="off")
def _select_in_a_function(a: asc.LocalTensor, m: asc.LocalTensor):
    asc.select(a, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- select in a function


def ub_kernel(how: str, api: str = "", **options: Any) -> Any:
    """A kernel taking n bytes of UB (from a TBuf, a static tensor, a LocalTensor.set_size or a TQue) and, with
    api, using Select in its body or in a device function it calls (after the bytes are taken, on tensors within
    them: it never needs the reserved UB to run here)."""

    def by_tbuf(n: int):
        pipe = asc.TPipe()
        buf = asc.TBuf(VECCALC)
        pipe.init_buffer(buf, n)  # <- take
        if api == "body":
            a = buf.get_with_offset(128, 0, asc.float16)
            m = buf.get_with_offset(32, 256, asc.uint8)
            asc.select(a, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- select
        if api == "call":
            _select_in_a_function(buf.get_with_offset(128, 0, asc.float16), buf.get_with_offset(32, 256, asc.uint8))

    def by_static(n: int):
        asc.LocalTensor(asc.uint8, VECCALC, 0, n)  # <- take
        if api == "body":
            a = asc.LocalTensor(asc.float16, VECCALC, 0, 128)
            m = asc.LocalTensor(asc.uint8, VECCALC, 256, 32)
            asc.select(a, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- select
        if api == "call":
            _select_in_a_function(asc.LocalTensor(asc.float16, VECCALC, 0, 128),
                                  asc.LocalTensor(asc.uint8, VECCALC, 256, 32))

    def by_set_size(n: int):
        t = asc.LocalTensor(asc.uint8, VECCALC, 0, 32)
        t.set_size(n)  # <- take
        if api == "body":
            a = asc.LocalTensor(asc.float16, VECCALC, 0, 128)
            m = asc.LocalTensor(asc.uint8, VECCALC, 256, 32)
            asc.select(a, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- select

    def by_queue(n: int):
        pipe = asc.TPipe()
        q = asc.TQue(VECIN, 1)
        pipe.init_buffer(q, 2, n // 2)  # <- take
        if api == "body":
            t = q.alloc_tensor(asc.float16)
            m = t[128:].reinterpret_cast(asc.uint8)
            asc.select(t, m, t, t, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- select
            q.free_tensor(t)

    fn = {"tbuf": by_tbuf, "static": by_static, "set_size": by_set_size, "queue": by_queue}[how]
    fn.__name__ = f"ub_{how}_{api or 'none'}_{len(options)}"
    return asc.jit(sanitize="off", **options)(fn)


def assert_usable(kernel: Any, usable: int, *fragments: str, step: int = 1) -> str:
    """kernel[1](usable) runs; kernel[1](usable + step) fails at the line that takes the bytes, saying how much the
    kernel may use, the devkit page and what to do (and the fragments)."""
    kernel[1](usable)
    err = fails_at(kernel, (usable + step,), "# <- take", f"the kernel may use UB bytes [0, {usable})",
                   "NPU架构版本2201.md", "use smaller buffers", *fragments)
    return str(err)


@pytest.mark.parametrize("how", ["tbuf", "static", "set_size", "queue"])
def test_an_aiv_kernel_without_the_apis_of_table_5_may_use_the_whole_ub(how: str) -> None:
    text = assert_usable(ub_kernel(how), UB, "all of the UB", "kernel type AIV_ONLY is not MIX",
                         "uses no API of 静态Tensor编程.md's table 5", step=64 if how == "queue" else 1)
    assert "--cce-disable-asc-reserved-ubuf" not in text  # the option would change nothing
    # the option gives it nothing more either: it has no reserved bytes to give
    assert_usable(ub_kernel(how, bisheng_options=NO_RESERVE), UB, "all of the UB",
                  step=64 if how == "queue" else 1)


@pytest.mark.parametrize("how,api", [("tbuf", "body"), ("static", "body"), ("set_size", "body"), ("queue", "body"),
                                     ("tbuf", "call"), ("static", "call")])
def test_a_kernel_using_an_api_of_table_5_leaves_its_8_kib(how: str, api: str) -> None:
    kernel = ub_kernel(how, api)
    marker = "# <- select" if api == "body" else "# <- select in a function"
    where = f"test_hw_rules.py:{line_of(kernel if api == 'body' else _select_in_a_function, marker)}"
    text = assert_usable(kernel, UB_API, "the 8192 Ascend C keeps from byte 188416 (TMP_UB_OFFSET) for the "
                         f"temporaries of Select, which the kernel uses at {where}", "静态Tensor编程.md, table 5",
                         "kernel type AIV_ONLY is not MIX", "or do without Select",
                         step=64 if how == "queue" else 1)
    assert "256 the framework" not in text


@asc.jit(kernel_type=asc.KernelType.MIX_AIV_1_0)
def mix_static(n: int, sel: asc.ConstExpr[bool]):
    asc.LocalTensor(asc.uint8, VECCALC, 0, n)  # <- take
    if sel:
        a = asc.LocalTensor(asc.float16, VECCALC, 0, 128)
        m = asc.LocalTensor(asc.uint8, VECCALC, 256, 32)
        asc.select(a, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)


@asc.jit(kernel_type=asc.KernelType.MIX_AIC_1_2)
def mix_tbuf(n: int):
    pipe = asc.TPipe()
    buf = asc.TBuf(VECCALC)
    pipe.init_buffer(buf, n)  # <- take


def test_a_mix_kernel_leaves_the_frameworks_256_bytes() -> None:
    mix_static[1](UB_MIX, False)
    fails_at(mix_static, (UB_MIX + 1, False), "# <- take", f"the kernel may use UB bytes [0, {UB_MIX}): the UB's "
             f"{UB} less the 256 the framework and compiler keep in a MIX kernel (kernel type MIX_AIV_1_0; "
             "ASC_UB_SIZE)", "uses no API of 静态Tensor编程.md's table 5")
    # MIX and an API of table 5: the page's 192 KiB - 256 B - 8 KiB
    with_select = asc.jit(kernel_type=asc.KernelType.MIX_AIV_1_0, sanitize="off")(mix_static.fn)  # (reads unset UB)
    with_select[1](UB_MIX_API, True)
    fails_at(with_select, (UB_MIX_API + 1, True), "# <- take", f"[0, {UB_MIX_API}): the UB's {UB} less the 256",
             "and the 8192 Ascend C keeps from byte 188416")
    # a MIX_AIC_1_2 launch: the vector cores' TPipe
    mix_tbuf[1](UB_MIX)
    fails_at(mix_tbuf, (UB_MIX + 1,), "# <- take", f"[0, {UB_MIX})", "kernel type MIX_AIC_1_2")


@pytest.mark.parametrize("case,api", [(0, "Select"), (2, "AddDeqRelu"), (3, "Digamma"), (6, "Power")])
def test_every_api_of_table_5_takes_the_8_kib(case: int, api: str) -> None:
    compiled = asc.jit(sanitize="off")(reserved_apis.fn)
    compiled[1](case)
    info = list(compiled.cache.values())[-1].module.reserve("Ascend910B1")
    assert (info["api"], info["api_loc"][1]) == (api, line_of(reserved_apis, f"# <- {case}")), info
    assert (info["ub_user"], info["kernel_type"], info["mix"]) == (UB_API, 0, False), info
    compiled[1](7)  # Add: no reserve
    info = list(compiled.cache.values())[-1].module.reserve("Ascend910B1")
    assert (info["api"], info["api_loc"], info["ub_user"]) == (None, None, UB), info


@asc.jit(matmul_cube_only=True)
def l1_static(n: int):
    asc.LocalTensor(asc.uint8, asc.TPosition.A1, 0, n)  # <- l1


@asc.jit(matmul_cube_only=True)
def l1_tbuf(n: int):
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.A1)
    pipe.init_buffer(buf, n)  # <- l1


@pytest.mark.parametrize("kernel", [l1_static, l1_tbuf])
def test_the_l1_of_a_mix_kernel_is_asc_l1_size_else_all_of_it(kernel: Any) -> None:
    kernel[1](L1)  # AIC_ONLY: all of the L1
    fails_at(kernel, (L1 + 1,), "# <- l1", f"the kernel may use L1 bytes [0, {L1}), all of the L1: its kernel type "
             "AIC_ONLY is not MIX", "NPU架构版本2201.md", "use smaller buffers")
    mix = asc.jit(kernel.fn)  # detected: a kernel using the cube core is MIX_AIC_1_2
    mix[1](L1_MIX)
    fails_at(mix, (L1_MIX + 1,), "# <- l1", f"the kernel may use L1 bytes [0, {L1_MIX}): the L1's {L1} less the 256 "
             "the framework and compiler keep in a MIX kernel (kernel type MIX_AIC_1_2; ASC_L1_SIZE)",
             "NPU架构版本2201.md")


def auto_pool_kernel(sel: bool, **options: Any) -> Any:
    def auto_pool(x: asc.GlobalAddress):
        xg = asc.GlobalTensor()
        xg.set_global_buffer(x)
        t = asc.LocalTensorAuto(asc.float32, 8)
        asc.duplicate(t, 3.0, 8)
        if sel:
            m = asc.LocalTensorAuto(asc.uint8, 32)
            asc.duplicate(m.reinterpret_cast(asc.int16), 0, 16)
            asc.select(t, m, t, 1.0, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 8)
        asc.data_copy(xg, t, 8)

    auto_pool.__name__ = f"auto_pool_{int(sel)}_{len(options)}"
    return asc.jit(**options)(auto_pool)


@pytest.mark.parametrize("sel,options,usable", [
    (False, {}, UB), (True, {}, UB_API),
    (False, {"kernel_type": asc.KernelType.MIX_AIV_1_0}, UB_MIX),
    (True, {"kernel_type": asc.KernelType.MIX_AIV_1_0}, UB_MIX_API),
    (False, {"bisheng_options": NO_RESERVE}, UB),
])
def test_the_ub_planner_gets_what_the_kernel_may_use(sel: bool, options: Any, usable: int) -> None:
    kernel = auto_pool_kernel(sel, **options)
    x = np.zeros(8, np.float32)
    kernel[1](x)
    np.testing.assert_array_equal(x, 1.0 if sel else 3.0)  # (a mask of zeros selects the scalar)
    compiled = list(kernel.cache.values())[-1]
    assert f"of {usable} available (UB {usable}, 0 taken" in compiled.pass_log, compiled.pass_log
    assert compiler.usable_ub("Ascend910B1", compiled.options, compiled.module) == usable


@asc.jit
def auto_too_big(x: asc.GlobalAddress):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    t = asc.LocalTensorAuto(asc.float32, UB // 4 - 8)  # <- big
    m = asc.LocalTensorAuto(asc.uint8, 32)
    asc.duplicate(t, 3.0, 8)
    asc.select(t, m, t, 1.0, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 8)  # <- select
    asc.data_copy(xg, t, 8)


def test_the_planners_error_says_which_reserve_applies() -> None:
    fails_at(auto_too_big, (np.zeros(8, np.float32),), "# <- big", f"the kernel has {UB_API}",
             f"the kernel may use UB bytes [0, {UB_API})", "temporaries of Select, which the kernel uses at "
             f"test_hw_rules.py:{line_of(auto_too_big, '# <- select')}", "or do without Select",
             cls=asc.CompileError)


@asc.jit
def reserved_apis(case: asc.ConstExpr[int]):
    a = asc.LocalTensor(asc.float16, VECCALC, 0, 128)
    b = asc.LocalTensor(asc.float16, VECCALC, 256, 128)
    c = asc.LocalTensor(asc.float16, VECCALC, 512, 128)
    m = asc.LocalTensor(asc.uint8, VECCALC, 768, 32)
    i = asc.LocalTensor(asc.int32, VECCALC, 1024, 128)
    tmp = asc.LocalTensor(asc.uint8, VECCALC, 8192, 32768)
    if case == 0:
        asc.select(c, m, a, b, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 128)  # <- 0
    if case == 1:
        asc.select(c, m, a, 1.0, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 128)  # <- 1
    if case == 2:
        asc.set_deq_scale(1.0)
        asc.add_deq_relu(c, i, i, 128)  # <- 2
    if case == 3:
        asc.adv.digamma(c, a, 128, tmp)  # <- 3
    if case == 4:
        asc.adv.lgamma(c, a, 128, tmp)  # <- 4
    if case == 5:
        asc.adv.sign(c, a, 128, tmp)  # <- 5
    if case == 6:
        asc.adv.power(c, a, b, 128, tmp)  # <- 6
    if case == 7:
        asc.add(c, a, b, 128)  # any other API: fine


@pytest.mark.parametrize("case,api", [(0, "Select"), (1, "Select"), (2, "AddDeqRelu"), (3, "Digamma"),
                                      (4, "Lgamma"), (5, "Sign"), (6, "Power")])
def test_the_apis_of_the_reserved_ub_are_compile_errors_with_the_option(case: int, api: str) -> None:
    with_option = asc.jit(bisheng_options=NO_RESERVE, sanitize="off")(reserved_apis.fn)
    fails_at(with_option, (case,), f"# <- {case}", f"{api} uses the 8 KiB of UB Ascend C reserves",
             "--cce-disable-asc-reserved-ubuf", "静态Tensor编程.md, table 5", cls=asc.CompileError)
    asc.jit(sanitize="off")(reserved_apis.fn)[1](case)  # without the option: compiles and runs


def test_other_apis_compile_with_the_option() -> None:
    asc.jit(bisheng_options=NO_RESERVE, sanitize="off")(reserved_apis.fn)[1](7)


# ---- 3. static tensors and the framework do not mix ------------------------------------------------------------

@asc.jit
def mixed(case: asc.ConstExpr[int]):
    if case < 10:
        t = asc.LocalTensor(asc.float32, VECCALC, 0, 64)  # <- first static
        asc.duplicate(t, 1.0, 64)
    if case == 0:
        asc.TPipe()  # <- 0
    if case == 1:
        asc.TQue(VECIN, 1)  # <- 1
    if case == 2:
        asc.TQueBind(VECIN, VECOUT, 1)  # <- 2
    if case == 3:
        asc.TBuf(VECCALC)  # <- 3
    if case == 4:
        asc.TBufPool(VECCALC, 4)  # <- 4
    if case == 5:
        asc.LocalTensorAuto(asc.float32, 64)  # <- 5
    if case >= 10:
        pipe = asc.TPipe()  # <- first framework
    if case == 10:
        asc.LocalTensor(asc.float32, VECCALC, 0, 64)  # <- 10
    if case == 11:
        asc.LocalMemAllocator().alloc(VECIN, asc.float32, 64)  # <- 11
    if case == 12:
        asc.LocalMemAllocator(asc.Hardware.L1).alloc(asc.TPosition.A1, asc.float16, 16)  # <- 12
    if case == 13:  # an allocator that places nothing, and an empty tensor for a depth-0 queue, are fine
        asc.LocalMemAllocator()
        q = asc.TQue(VECIN, 0)
        pipe.init_buffer(q, 1, 256)
        e = asc.LocalTensor(asc.float32)
        q.alloc_tensor(e)


@pytest.mark.parametrize("case,api", [(0, "asc.TPipe"), (1, "asc.TQue"), (2, "asc.TQueBind"), (3, "asc.TBuf"),
                                      (4, "asc.TBufPool"), (5, "asc.LocalTensorAuto")])
def test_the_framework_after_static_tensors_is_a_compile_error(case: int, api: str) -> None:
    err = fails_at(mixed, (case,), f"# <- {case}", f"{api}", "this kernel already places tensors by address",
                   f"(asc.LocalTensor(dtype, pos, addr, tile_size) at line {line_of(mixed, '# <- first static')})",
                   "静态Tensor编程.md", cls=asc.CompileError)
    assert "one style" in err.hint


@pytest.mark.parametrize("case,api", [(10, "asc.LocalTensor(dtype, pos, addr, tile_size)"),
                                      (11, "LocalMemAllocator.alloc"), (12, "LocalMemAllocator.alloc")])
def test_static_tensors_after_the_framework_are_a_compile_error(case: int, api: str) -> None:
    fails_at(mixed, (case,), f"# <- {case}", api, "this kernel already uses the TPipe framework",
             f"(asc.TPipe at line {line_of(mixed, '# <- first framework')})", cls=asc.CompileError)


def test_what_places_nothing_mixes() -> None:
    mixed[1](13)


@asc.jit
def static_adv(x: asc.GlobalAddress, with_tmp: asc.ConstExpr[bool]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    a = asc.LocalTensor(asc.float16, VECCALC, 0, 64)
    b = asc.LocalTensor(asc.float16, VECCALC, 128, 64)
    tmp = asc.LocalTensor(asc.uint8, VECCALC, 256, 1024)
    asc.data_copy(a, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if with_tmp:
        asc.adv.floor(b, a, 64, tmp)
    else:
        asc.adv.floor(b, a, 64)  # <- no tmp
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(xg, b, 64)


def test_a_high_level_api_without_temp_buffer_needs_the_tpipe() -> None:
    x = np.full(64, 2.5, np.float16)
    static_adv[1](x, True)
    assert (x == 2).all()
    fails_at(static_adv, (np.full(64, 2.5, np.float16), False), "# <- no tmp", "AscendC::Floor without a temporary "
             "buffer takes the TPipe's free UB", "PopStackBuffer", "pass a temp_buffer")


# ---- 4. event ids the devkit reserves ---------------------------------------------------------------------------

@asc.jit
def flags_with(x: asc.GlobalAddress, event_id: asc.ConstExpr[int]):
    t = asc.LocalTensor(asc.float32, VECCALC, 0, 64)
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    asc.data_copy(t, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, event_id)  # <- set
    asc.wait_flag(asc.HardEvent.MTE2_V, event_id)
    asc.adds(t, t, 1.0, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(xg, t, 64)


@pytest.mark.parametrize("event_id", [6, 7])
def test_ids_6_and_7_are_a_warning(event_id: int) -> None:
    x = np.zeros(64, np.float32)
    with pytest.warns(asc.SanitizerWarning) as got:
        flags_with[1](x, event_id, sanitize="error")  # a warning even in error mode: the kernel runs
    np.testing.assert_array_equal(x, 1.0)
    texts = [str(w.message) for w in got]
    assert any(f"set_flag(HardEvent.MTE2_V, {event_id})" in t and f"event id {event_id} is reserved" in t and
               "SetFlag-WaitFlag(ISASI).md" in t and "use an event id in 0-5" in t for t in texts), texts
    assert any(f"wait_flag(HardEvent.MTE2_V, {event_id})" in t for t in texts), texts
    e = next(w.message.error for w in got if "set_flag" in str(w.message))
    assert (e.kind, e.line) == ("sync", line_of(flags_with, "# <- set"))


def test_ids_0_to_5_are_fine() -> None:
    import warnings

    x = np.zeros(64, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.SanitizerWarning)
        flags_with[1](x, 5)
    np.testing.assert_array_equal(x, 1.0)


@asc.jit
def allocated_ids(x: asc.GlobalAddress):
    pipe = asc.TPipe()
    buf = asc.TBuf(VECCALC)
    pipe.init_buffer(buf, 256)
    t = buf.get(asc.float32)
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    for _i in asc.static_range(6):
        pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    e = pipe.alloc_event_id(asc.HardEvent.MTE2_V)  # id 6, from the TPipe
    asc.data_copy(t, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, e)
    asc.wait_flag(asc.HardEvent.MTE2_V, e)
    asc.adds(t, t, 1.0, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(xg, t, 64)


def test_an_id_the_tpipe_gave_is_no_warning() -> None:
    import warnings

    x = np.zeros(64, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.SanitizerWarning)
        allocated_ids[1](x)
    np.testing.assert_array_equal(x, 1.0)


@asc.jit
def queue_and_flag(x: asc.GlobalAddress, from_pipe: asc.ConstExpr[bool]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    pipe = asc.TPipe()
    q = asc.TQue(VECIN, 1)
    pipe.init_buffer(q, 1, 256)
    buf = asc.TBuf(VECCALC)
    pipe.init_buffer(buf, 256)
    w = buf.get(asc.float32)
    t = q.alloc_tensor(asc.float32)
    asc.data_copy(t, xg, 64)
    q.enque(t)  # takes MTE2_V id 0 from the TPipe until the deque
    asc.data_copy(w, xg, 64)
    if from_pipe:
        e = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
        asc.set_flag(asc.HardEvent.MTE2_V, e)
        asc.wait_flag(asc.HardEvent.MTE2_V, e)
        pipe.release_event_id(e, asc.HardEvent.MTE2_V)
    else:
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  # <- hard-coded
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    t = q.deque(asc.float32)
    asc.add(w, w, t, 64)
    asc.set_flag(asc.HardEvent.V_MTE3, 1)
    asc.wait_flag(asc.HardEvent.V_MTE3, 1)
    asc.data_copy(xg, w, 64)
    q.free_tensor(t)


def test_an_id_a_queue_holds_is_the_queues() -> None:
    x = np.ones(64, np.float32)
    queue_and_flag[1](x, True)
    np.testing.assert_array_equal(x, 2.0)
    with pytest.raises(asc.SanitizerError) as info:
        queue_and_flag[1](np.ones(64, np.float32), False)
    e = info.value
    assert (e.kind, e.line) == ("sync", line_of(queue_and_flag, "# <- hard-coded"))
    assert "a TQue of this kernel's TPipe holds event id 0 of HardEvent.MTE2_V" in e.message
    assert "SetFlag-WaitFlag(ISASI).md" in e.message and "pipe.alloc_event_id" in e.fix


@asc.jit
def set_set(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, VECCALC, 0, 64)
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    asc.data_copy(t, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)  # <- first set
    asc.set_flag(asc.HardEvent.MTE2_V, 0)  # <- second set
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)


def test_two_sets_of_one_flag_are_reported() -> None:
    """SetFlag-WaitFlag(ISASI).md's example: two SetFlag of one pipe pair and id, then a PipeBarrier (which hangs
    on the NPU): the sanitizer's `sync` report at the second set (it was there before issue 17)."""
    with pytest.raises(asc.SanitizerError) as info:
        set_set[1](np.zeros(64, np.float32))
    e = info.value
    assert (e.kind, e.line, e.other_line) == ("sync", line_of(set_set, "# <- second set"),
                                              line_of(set_set, "# <- first set"))
    assert "PipeBarrier<PIPE_ALL> hangs" in e.message


# ---- 5. pipe_barrier(PIPE_S) -------------------------------------------------------------------------------------

@asc.jit
def barrier_s(x: asc.GlobalAddress):
    asc.pipe_barrier(asc.PipeID.PIPE_S)  # <- barrier


def test_pipe_barrier_of_the_scalar_pipe_is_a_compile_error() -> None:
    err = fails_at(barrier_s, (np.zeros(8, np.float32),), "# <- barrier", "PipeBarrier does not support PIPE_S",
                   "PipeBarrier(ISASI).md", cls=asc.CompileError)
    assert "HardEvent.V_S" in err.hint
