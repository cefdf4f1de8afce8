"""The methods of the framework classes on the simulator, against what the
devkit's implementation does (impl/basic_api/kernel_tpipe_impl.h,
kernel_tquebind_impl.h, kernel_tbuf_impl.h, kernel_tbufpool_impl.h):

- TPipe: the event-id pools (alloc_event_id takes the lowest free id of
  its HardEvent, fetch_event_id reads it without taking it, release gives
  it back; 8 ids per event on the Ascend910B; the queues take theirs from
  the same pools), init / reset / destroy, get_base_addr, get_tpipe_ptr;
- TQue / TQueBind: the buffer state machine (round-robin allocation, FIFO
  order, the counts), the pipes a binding hands buffers between, the user
  positions of enque / deque, depth 0 (in-place alloc and deque);
- TBuf: get_with_offset and the queue methods a TBuf has;
- TBufPool: carving, sharing and resetting pools as the devkit's
  tbufpool_management example does;
- LocalMemAllocator, and that it does not mix with the TPipe;
- every misuse is a KernelError (while running) or CompileError at the
  user's line, with what to do about it in the message.

(test_framework_api.py has the keyword forms of init_buffer.)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pytest
from kernels_util import ascendc, fails_at, line_of

import asc

VECIN, VECOUT, VECCALC, GM = asc.TPosition.VECIN, asc.TPosition.VECOUT, asc.TPosition.VECCALC, asc.TPosition.GM
UB_BYTES = 192 * 1024  # the Ascend910B's Unified Buffer


def out64(n: int = 64) -> np.ndarray:
    return np.full(n, -99, np.int64)


# ---------------------------------------------------------------------------
# TPipe: event ids
# ---------------------------------------------------------------------------


@asc.jit
def k_event_ids(out: asc.GlobalAddress):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    a0 = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    a1 = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    a2 = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    o.set_value(0, a0)
    o.set_value(1, a1)
    o.set_value(2, a2)
    o.set_value(3, pipe.fetch_event_id(asc.HardEvent.MTE2_V))
    o.set_value(4, pipe.fetch_event_id(asc.HardEvent.MTE2_V))  # fetch takes nothing
    pipe.release_event_id(a1, asc.HardEvent.MTE2_V)
    o.set_value(5, pipe.fetch_event_id(asc.HardEvent.MTE2_V))  # the lowest free one
    o.set_value(6, pipe.alloc_event_id(asc.HardEvent.MTE2_V))
    o.set_value(7, pipe.alloc_event_id(asc.HardEvent.V_MTE3))  # each HardEvent has its own ids
    o.set_value(8, pipe.alloc_event_id())  # (upstream's default: V_S)
    o.set_value(9, pipe.fetch_event_id(asc.HardEvent.V_S))
    p = asc.get_tpipe_ptr()  # the same pipe
    o.set_value(10, p.alloc_event_id(asc.HardEvent.V_S))
    o.set_value(11, pipe.fetch_event_id(asc.HardEvent.V_S))
    pipe.release_event_id(0)  # (default V_S)
    o.set_value(12, p.fetch_event_id())
    # an allocated id is an event id of set_flag / wait_flag
    e = pipe.alloc_event_id(asc.HardEvent.S_MTE3)
    o.set_value(13, e)
    asc.set_flag(asc.HardEvent.S_MTE3, e)
    asc.wait_flag(asc.HardEvent.S_MTE3, e)
    pipe.release_event_id(e, asc.HardEvent.S_MTE3)
    o.set_value(14, pipe.get_base_addr(asc.TPosition.VECIN))


def test_event_ids_are_the_lowest_free_of_their_event() -> None:
    out = out64(16)
    k_event_ids[1](out)
    assert out[:15].tolist() == [0, 1, 2, 3, 3, 1, 1, 0, 0, 1, 1, 2, 0, 0, 0]
    src = ascendc(k_event_ids)
    for snippet in ["pipe.AllocEventID<AscendC::HardEvent::MTE2_V>()", "pipe.FetchEventID<AscendC::HardEvent::V_S>()",
                    "pipe.ReleaseEventID<AscendC::HardEvent::MTE2_V>(", "AscendC::TPipe &p = *GetTPipePtr();"]:
        assert snippet in src, snippet


@asc.jit
def k_take_ids(out: asc.GlobalAddress, n: int, fetch: asc.ConstExpr[bool]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    for i in range(n):
        if fetch:
            o.set_value(i, pipe.alloc_event_id(asc.HardEvent.V_MTE2))
        else:
            o.set_value(i, pipe.alloc_event_id(asc.HardEvent.MTE2_V))  # <- alloc
    if fetch:
        o.set_value(n, pipe.fetch_event_id(asc.HardEvent.V_MTE2))  # <- fetch


def test_eight_event_ids_per_event() -> None:
    out = out64(16)
    k_take_ids[1](out, 8, False)
    assert out[:8].tolist() == list(range(8))
    fails_at(k_take_ids, (out64(), 9, False), "# <- alloc", "TPipe.alloc_event_id: all 8 event ids of "
             "HardEvent.MTE2_V are taken", "release_event_id")
    fails_at(k_take_ids, (out64(), 8, True), "# <- fetch", "all 8 event ids of HardEvent.V_MTE2 are taken")


@asc.jit
def k_release_misuse(out: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 64)
    e = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    if case == 0:
        pipe.release_event_id(e + 8, asc.HardEvent.MTE2_V)  # <- 0
    if case == 1:
        pipe.release_event_id(e - 1, asc.HardEvent.MTE2_V)  # <- 1
    if case == 2:
        pipe.release_event_id(e, asc.HardEvent.MTE2_V)
        pipe.release_event_id(e, asc.HardEvent.MTE2_V)  # <- 2
    if case == 3:
        pipe.release_event_id(e, asc.HardEvent.V_MTE2)  # <- 3
    if case == 4:
        t = q.alloc_tensor(asc.float32)
        q.enque(t)  # takes MTE2_V id 1
        pipe.release_event_id(1, asc.HardEvent.MTE2_V)  # <- 4


@pytest.mark.parametrize("case, fragments", [
    (0, ["event id 8 of HardEvent.MTE2_V is out of range [0, 8)"]),
    (1, ["event id -1 of HardEvent.MTE2_V is out of range [0, 8)"]),
    (2, ["event id 0 of HardEvent.MTE2_V is not allocated", "released twice"]),
    (3, ["event id 0 of HardEvent.V_MTE2 is not allocated"]),
    (4, ["event id 1 of HardEvent.MTE2_V is not allocated by alloc_event_id (a queue holds it)"]),
])
def test_release_event_id_misuse(case: int, fragments: Sequence[str]) -> None:
    fails_at(k_release_misuse, (out64(), case), f"# <- {case}", *fragments)


def test_an_event_id_that_does_not_fit_an_int8_is_a_compile_error() -> None:
    @asc.jit
    def k(out: asc.GlobalAddress):
        pipe = asc.TPipe()
        pipe.release_event_id(200, asc.HardEvent.MTE2_V)  # <- here

    fails_at(k, (out64(),), "# <- here", "200", cls=asc.CompileError)


# ---------------------------------------------------------------------------
# queues: the state machine and the event ids they hold
# ---------------------------------------------------------------------------


@asc.jit
def _state(o: asc.GlobalTensor, at: asc.ConstExpr[int], q: asc.TQue):
    o.set_value(at, q.has_idle_buffer())
    o.set_value(at + 1, q.vacant_in_que())
    o.set_value(at + 2, q.has_tensor_in_que())
    o.set_value(at + 3, q.get_tensor_count_in_que())


@asc.jit
def k_queue_state(out: asc.GlobalAddress):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    none = asc.TQue(asc.TPosition.VECIN, 2)
    _state(o, 40, none)  # no buffers: nothing idle, but room in the queue
    pipe.init_buffer(q, 2, 100)  # (rounded up to 128 bytes)
    _state(o, 0, q)
    a = q.alloc_tensor(asc.float32)
    _state(o, 4, q)
    b = q.alloc_tensor(asc.float32)
    _state(o, 8, q)
    q.enque(a)
    _state(o, 12, q)
    q.enque(b)
    _state(o, 16, q)
    c = q.deque(asc.float32)
    o.set_value(20, c.get_phy_addr())
    o.set_value(21, a.get_phy_addr())
    o.set_value(22, b.get_phy_addr())
    _state(o, 23, q)
    d = q.deque(asc.float32)
    o.set_value(27, d.get_phy_addr())
    q.free_tensor(c)
    _state(o, 28, q)
    q.free_tensor(d)
    e = q.alloc_tensor(asc.float16)  # the cursor is back at buffer 0
    o.set_value(32, e.get_phy_addr())
    o.set_value(33, e.get_size())
    q.free_tensor(e)
    f = q.alloc_tensor(asc.float16)  # round robin: buffer 1, though buffer 0 is free too
    o.set_value(34, f.get_phy_addr())
    q.free_tensor(f)


def test_queue_state_machine() -> None:
    out = out64()
    k_queue_state[1](out)
    assert out[40:44].tolist() == [0, 1, 0, 0]
    assert out[0:4].tolist() == [1, 1, 0, 0]
    assert out[4:8].tolist() == [1, 1, 0, 0]
    assert out[8:12].tolist() == [0, 1, 0, 0]
    assert out[12:16].tolist() == [0, 1, 1, 1]
    assert out[16:20].tolist() == [0, 0, 1, 2]
    assert out[20:23].tolist() == [0, 0, 128]  # FIFO: a comes out first
    assert out[23:27].tolist() == [0, 1, 1, 1]
    assert out[27] == 128
    assert out[28:32].tolist() == [1, 1, 0, 0]
    assert out[32:35].tolist() == [0, 64, 128]


@asc.jit
def k_queue_ids(out: asc.GlobalAddress):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    r = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 2, 64)
    pipe.init_buffer(r, 1, 64)
    a = q.alloc_tensor(asc.float32)
    o.set_value(0, pipe.fetch_event_id(asc.HardEvent.MTE2_V))
    q.enque(a)  # takes an MTE2_V id (GM -> VECIN)
    o.set_value(1, pipe.fetch_event_id(asc.HardEvent.MTE2_V))
    a = q.deque(asc.float32)  # gives it back
    o.set_value(2, pipe.fetch_event_id(asc.HardEvent.MTE2_V))
    o.set_value(3, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    q.free_tensor(a)  # takes a V_MTE2 id until the buffer is allocated again
    o.set_value(4, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    b = q.alloc_tensor(asc.float32)  # buffer 1: buffer 0's free event is still pending
    o.set_value(5, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    q.free_tensor(b)
    o.set_value(6, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    c = q.alloc_tensor(asc.float32)  # buffer 0 again: waits for its free event and gives id 0 back
    o.set_value(7, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    q.free_tensor(c)
    q.free_all_event()  # waits for both free events and gives their ids back
    o.set_value(8, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    z = r.alloc_tensor(asc.float32)
    r.enque(z)  # VECOUT -> GM: V_MTE3
    o.set_value(9, pipe.fetch_event_id(asc.HardEvent.V_MTE3))
    z = r.deque(asc.float32)
    r.free_tensor(z)  # MTE3_V
    o.set_value(10, pipe.fetch_event_id(asc.HardEvent.MTE3_V))
    o.set_value(11, pipe.fetch_event_id(asc.HardEvent.V_MTE3))


def test_queues_take_their_event_ids_from_the_pipe() -> None:
    out = out64(16)
    k_queue_ids[1](out)
    assert out[:12].tolist() == [0, 1, 0, 0, 1, 1, 2, 0, 0, 1, 1, 0]


@asc.jit
def k_ids_exhausted_by_user(out: asc.GlobalAddress):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, 64)
    for _i in range(8):
        pipe.alloc_event_id(asc.HardEvent.MTE2_V)
    t = q.alloc_tensor(asc.float32)
    q.enque(t)  # <- here


def test_a_queue_needs_a_free_event_id() -> None:
    fails_at(k_ids_exhausted_by_user, (out64(),), "# <- here", "enque: all 8 event ids of HardEvent.MTE2_V are taken")


@asc.jit
def k_queue_misuse(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    other = asc.TQue(asc.TPosition.VECIN, 1)
    empty = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 2, 64)
    pipe.init_buffer(other, 1, 64)
    t = q.alloc_tensor(asc.float32)
    if case == 0:
        q.deque(asc.float32)  # <- 0
    if case == 1:
        u = q.alloc_tensor(asc.float32)
        q.alloc_tensor(asc.float32)  # <- 1
    if case == 2:
        q.free_tensor(t)
        q.free_tensor(t)  # <- 2
    if case == 3:
        other.free_tensor(t)  # <- 3
    if case == 4:
        q.enque(t)
        q.free_tensor(t)  # <- 4
    if case == 5:
        q.enque(t)
        q.enque(t)  # <- 5
    if case == 6:
        u = q.alloc_tensor(asc.float32)
        q.enque(t)
        q.enque(u)  # <- 6
    if case == 7:
        other.enque(t)  # <- 7
    if case == 8:
        empty.alloc_tensor(asc.float32)  # <- 8
    if case == 9:
        pipe.init_buffer(q, 1, 64)  # <- 9
    if case == 10:
        pipe.init_buffer(empty, 65, 32)  # <- 10
    if case == 11:
        pipe.init_buffer(empty, 0, 32)  # <- 11
    if case == 12:
        pipe.init_buffer(empty, 1, 0)  # <- 12
    if case == 13:
        pipe.init_buffer(empty, 2, UB_BYTES // 2)  # <- 13
    if case == 14:
        q.enque(t[8:])  # <- 14
    if case == 15:
        q.enque(t, asc.TPosition.GM, asc.TPosition.VECIN)
        q.deque(asc.float32, asc.TPosition.VECIN, asc.TPosition.VECOUT)  # <- 15
    if case == 16:
        q.enque(t, asc.TPosition.VECIN, asc.TPosition.VECOUT)
        q.deque(asc.float32)  # <- 16


@pytest.mark.parametrize("case, fragments", [
    (0, ["deque on an empty TQue", "enque the tensor first"]),
    (1, ["all 2 buffers of the TQue are in use", "free_tensor is missing"]),
    (2, ["free_tensor of a LocalTensor this TQue did not allocate, or freed already"]),
    (3, ["free_tensor of a LocalTensor this TQue did not allocate"]),
    (4, ["free_tensor of a LocalTensor still in the queue (deque it first)"]),
    (5, ["already queued", "deque it before enqueuing it again"]),
    (6, ["enque on a full TQue: it holds at most depth = 1 tensors", "greater depth"]),
    (7, ["enque of a LocalTensor that was not allocated from this TQue"]),
    (8, ["alloc_tensor on a TQue without buffers (call pipe.init_buffer first)"]),
    (9, ["this TQue already has buffers", "pipe.reset()"]),
    (10, ["buffer count 65 not in [1, 64]"]),
    (11, ["buffer count 0 not in [1, 64]"]),
    (12, ["buffer length must be positive, got 0"]),
    (13, ["UB overflow"]),
    (14, ["enque of a LocalTensor that was not allocated from this TQue"]),
    (15, ["deque waits for HardEvent.MTE2_MTE3, but the tensor was enqueued with HardEvent.MTE2_V",
          "same positions"]),
    (16, ["deque waits for HardEvent.MTE2_V, but the tensor was enqueued with HardEvent.MTE2_MTE3"]),
])
def test_queue_misuse_is_a_kernel_error_at_its_line(case: int, fragments: Sequence[str]) -> None:
    fails_at(k_queue_misuse, (np.zeros(64, np.float32), case), f"# <- {case}", *fragments)


# ---------------------------------------------------------------------------
# queues: data paths (with the sanitizer on, the default)
# ---------------------------------------------------------------------------


@asc.jit
def k_bind_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], tiles: asc.ConstExpr[int],
                bind: asc.ConstExpr[bool]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    if bind:
        q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 2)
    else:
        q = asc.TQue(asc.TPosition.VECIN, 2)
    pipe.init_buffer(q, 2, n * 4)
    for i in range(tiles):
        t = q.alloc_tensor(asc.float32)
        asc.data_copy(t, xg[i * n:], n)
        q.enque(t)
        t = q.deque(asc.float32)
        zg.set_value(i, t.get_position())
        # the copies start a 64-byte line after the set_values: no line both (docs/sanitizer.md, "The data cache")
        asc.data_copy(zg[16 + i * n:], t, n)  # <- copy out
        q.free_tensor(t)


def test_tquebind_vecin_vecout_orders_mte2_before_mte3() -> None:
    x = np.arange(4 * 64, dtype=np.float32)
    z = np.zeros(16 + x.size, np.float32)
    k_bind_copy[1](x, z, 64, 4, True)
    np.testing.assert_array_equal(z[16:], x)
    assert z[:4].tolist() == [int(VECOUT)] * 4  # the buffers' position: GetPosition(VECIN, VECOUT)
    assert ("AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 2> q;"
            in ascendc(k_bind_copy))
    # a TQue(VECIN) orders MTE2 before V only: the copy out (MTE3) races with the copy in
    err = fails_at(k_bind_copy, (x, np.zeros_like(z), 64, 4, False), "# <- copy out", "data race",
                   cls=asc.SanitizerError)
    assert set(err.pipes) == {"MTE2", "MTE3"}


@pytest.mark.parametrize("src, dst, cpp", [
    (GM, VECIN, "AscendC::TQue<AscendC::TPosition::VECIN, 1> q;"),
    (VECOUT, GM, "AscendC::TQue<AscendC::TPosition::VECOUT, 1> q;"),
    (VECOUT, VECIN, "AscendC::TQueBind<AscendC::TPosition::VECOUT, AscendC::TPosition::VECIN, 1> q;"),
    (GM, VECOUT, "AscendC::TQueBind<AscendC::TPosition::GM, AscendC::TPosition::VECOUT, 1> q;"),
])
def test_tquebind_bindings(src: asc.TPosition, dst: asc.TPosition, cpp: str) -> None:
    @asc.jit
    def k(out: asc.GlobalAddress, s: asc.ConstExpr[int], d: asc.ConstExpr[int]):
        o = asc.GlobalTensor()
        o.set_global_buffer(out)
        pipe = asc.TPipe()
        q = asc.TQueBind(s, d, 1)
        pipe.init_buffer(q, 1, 64)
        t = q.alloc_tensor(asc.int32)
        o.set_value(0, t.get_position())
        o.set_value(1, t.get_size())
        q.enque(t)
        t = q.deque(asc.int32)
        q.free_tensor(t)

    out = out64(2)
    k[1](out, int(src), int(dst))
    assert out.tolist() == [int(src if dst == GM else dst), 16]
    assert cpp in ascendc(k)


@asc.jit
def k_depth0(x: asc.GlobalAddress, z: asc.GlobalAddress, ids: asc.GlobalAddress, n: asc.ConstExpr[int],
             tiles: asc.ConstExpr[int], case: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    ig = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    ig.set_global_buffer(ids)
    pipe = asc.TPipe()
    qi = asc.TQue(asc.TPosition.VECIN, 0)
    qo = asc.TQue(asc.TPosition.VECOUT, 0)
    pipe.init_buffer(qi, 2, n * 4)
    pipe.init_buffer(qo, 1, n * 4)
    # a queue of depth 0 holds an id of its enque and of its free event per buffer from init_buffer on
    ig.set_value(0, pipe.fetch_event_id(asc.HardEvent.MTE2_V))
    ig.set_value(1, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    ig.set_value(2, pipe.fetch_event_id(asc.HardEvent.V_MTE3))
    xi = asc.LocalTensor(asc.float32)
    zo = asc.LocalTensor(asc.float32)
    for i in range(tiles):
        qi.alloc_tensor(xi)
        ig.set_value(3 + i, xi.get_phy_addr())
        asc.data_copy(xi, xg[i * n:], n)
        if case == 1:
            qi.deque(xi)  # <- 1
        qi.enque(xi)
        qi.deque(xi)
        qo.alloc_tensor(zo)
        asc.adds(zo, xi, 1.0, n)
        qo.enque(zo)
        qi.free_tensor(xi)
        qo.deque(zo)
        asc.data_copy(zg[i * n:], zo, n)
        qo.free_tensor(zo)
    if case == 2:
        qi.free_tensor(xi)  # <- 2


def test_depth_zero_queues_alloc_and_deque_in_place() -> None:
    x = np.arange(3 * 64, dtype=np.float32)
    z = np.zeros_like(x)
    ids = out64(8)
    k_depth0[1](x, z, ids, 64, 3, 0)
    np.testing.assert_array_equal(z, x + 1)
    assert ids[:3].tolist() == [2, 2, 1]
    assert ids[3:6].tolist() == [0, 256, 0]  # round robin over the two buffers
    src = ascendc(k_depth0)
    for snippet in ["AscendC::TQue<AscendC::TPosition::VECIN, 0> qi;", "AscendC::LocalTensor<float> xi;",
                    "qi.AllocTensor(xi);", "qi.EnQue(xi);", "qi.DeQue(xi);", "qi.FreeTensor(xi);"]:
        assert snippet in src, snippet
    fails_at(k_depth0, (x, z, ids, 64, 1, 1), "# <- 1", "deque of a LocalTensor that was not enqueued",
             "enque it first")
    fails_at(k_depth0, (x, z, ids, 64, 1, 2), "# <- 2", "free_tensor of a LocalTensor this TQue did not allocate")


@asc.jit
def k_user_positions(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    qi = asc.TQue(asc.TPosition.VECIN, 1)
    qo = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(qi, 1, n * 4)
    pipe.init_buffer(qo, 1, n * 4)
    a = qi.alloc_tensor(asc.float32)
    asc.data_copy(a, xg, n)
    qi.enque(a, asc.TPosition.GM, asc.TPosition.VECIN)
    a = qi.deque(asc.float32, asc.TPosition.GM, asc.TPosition.VECIN)
    b = qo.alloc_tensor(asc.float32)
    asc.muls(b, a, 3.0, n)
    qo.enque(b, asc.TPosition.VECOUT, asc.TPosition.GM)
    b = qo.deque(asc.float32, asc.TPosition.VECOUT, asc.TPosition.GM)
    asc.data_copy(zg, b, n)
    qi.free_tensor(a)
    qo.free_tensor(b)


def test_enque_and_deque_with_user_positions() -> None:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    k_user_positions[1](x, z, 64)
    np.testing.assert_array_equal(z, x * 3)
    src = ascendc(k_user_positions)
    assert "qi.EnQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN>(a);" in src
    assert "qi.DeQue<AscendC::TPosition::GM, AscendC::TPosition::VECIN, float>();" in src


# ---------------------------------------------------------------------------
# TBuf
# ---------------------------------------------------------------------------


@asc.jit
def k_tbuf(out: asc.GlobalAddress, off: int, case: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    b = asc.TBuf()  # the devkit's default position: LCM, which is VECCALC
    pipe.init_buffer(q, 1, 96)
    pipe.init_buffer(b, 250)  # rounded up to 256 bytes, placed after the queue's 96
    whole = b.get(asc.float32)
    o.set_value(0, whole.get_phy_addr())
    o.set_value(1, whole.get_size())
    o.set_value(2, whole.get_position())
    o.set_value(3, b.get(asc.int16, 0).get_size())  # (as upstream: a length of 0 is the whole buffer)
    o.set_value(4, b.get(asc.int16, 10).get_size())
    w = b.get_with_offset(8, 64, asc.float16)
    o.set_value(5, w.get_phy_addr())
    o.set_value(6, w.get_size())
    o.set_value(7, w.get_length())
    a = b.alloc_tensor(asc.int32)  # a TBuf's queue methods: alloc_tensor and deque give the whole buffer,
    b.enque(a)  # enque and free_tensor do nothing
    d = b.deque(asc.int32)
    o.set_value(8, a.get_phy_addr())
    o.set_value(9, d.get_phy_addr())
    o.set_value(10, d.get_size())
    b.free_tensor(d)
    b.free_tensor(d)
    r = b.get_with_offset(16, off, asc.float32)  # <- offset
    o.set_value(11, r.get_phy_addr())
    if case == 1:
        b.get_with_offset(64, 32, asc.float32)  # <- 1
    if case == 2:
        b.get(asc.float32, 65)  # <- 2
    if case == 3:
        unready = asc.TBuf(asc.TPosition.VECCALC)
        unready.get(asc.float32)  # <- 3


def test_tbuf_get_with_offset_and_its_queue_methods() -> None:
    out = out64(16)
    k_tbuf[1](out, 128, 0)
    assert out[:12].tolist() == [96, 64, int(VECCALC), 128, 10, 160, 8, 16, 96, 96, 64, 224]
    src = ascendc(k_tbuf)
    for snippet in ["AscendC::TBuf<AscendC::TPosition::VECCALC> b;", "b.GetWithOffset<half>(8, 64)",
                    "b.AllocTensor<int32_t>()", "b.DeQue<int32_t>()", "b.EnQue(a);", "b.FreeTensor(d);",
                    "b.Get<int16_t>()"]:
        assert snippet in src, snippet
    fails_at(k_tbuf, (out64(), 48, 0), "# <- offset", "byte offset 48 is not a multiple of 32")
    fails_at(k_tbuf, (out64(), 0, 1), "# <- 1", "TBuf.get_with_offset of 64 elements at byte offset 32 exceeds "
             "the 256-byte buffer", "give the TBuf more bytes")
    fails_at(k_tbuf, (out64(), 0, 2), "# <- 2", "TBuf.get of 65 elements at byte offset 0 exceeds the 256-byte")
    fails_at(k_tbuf, (out64(), 0, 3), "# <- 3", "TBuf.get before pipe.init_buffer")


# ---------------------------------------------------------------------------
# TBufPool (the scenarios of the devkit's tbufpool_management example)
# ---------------------------------------------------------------------------


@asc.jit
def _add_stage(xg: asc.GlobalTensor, yg: asc.GlobalTensor, zg: asc.GlobalTensor, qx: asc.TQue, qy: asc.TQue,
               qz: asc.TQue, n: asc.ConstExpr[int]):
    a = qx.alloc_tensor(asc.float32)
    b = qy.alloc_tensor(asc.float32)
    asc.data_copy(a, xg, n)
    asc.data_copy(b, yg, n)
    qx.enque(a)
    qy.enque(b)
    a = qx.deque(asc.float32)
    b = qy.deque(asc.float32)
    c = qz.alloc_tensor(asc.float32)
    asc.add(c, a, b, n)
    qz.enque(c)
    qx.free_tensor(a)
    qy.free_tensor(b)
    c = qz.deque(asc.float32)
    asc.data_copy(zg, c, n)
    qz.free_tensor(c)


@asc.jit
def k_pool_reuse(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, addrs: asc.GlobalAddress,
                 n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    yg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    ag = asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    zg.set_global_buffer(z)
    ag.set_global_buffer(addrs)
    pipe = asc.TPipe()
    head = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(head, 1, 64)  # the pools come after the pipe's first 64 bytes
    pool1 = asc.TBufPool(asc.TPosition.VECCALC, 4)
    pool2 = asc.TBufPool(asc.TPosition.VECCALC)
    pipe.init_buf_pool(pool1, n * 4 * 3)
    pipe.init_buf_pool(pool2, n * 4 * 3, pool1)  # pool2 uses pool1's memory
    qx = asc.TQue(asc.TPosition.VECIN, 1)
    qy = asc.TQue(asc.TPosition.VECIN, 1)
    qz = asc.TQue(asc.TPosition.VECOUT, 1)
    pool1.init_buffer(qx, 1, n * 4)
    pool1.init_buffer(qy, 1, n * 4)
    pool1.init_buffer(qz, 1, n * 4)
    t = qz.alloc_tensor(asc.float32)
    ag.set_value(0, t.get_phy_addr())
    qz.free_tensor(t)
    _add_stage(xg, yg, zg, qx, qy, qz, n)
    pool1.reset()
    rx = asc.TQue(asc.TPosition.VECIN, 1)
    ry = asc.TQue(asc.TPosition.VECIN, 1)
    rz = asc.TQue(asc.TPosition.VECOUT, 1)
    pool2.init_buffer(rx, 1, n * 4)
    pool2.init_buffer(ry, 1, n * 4)
    pool2.init_buffer(rz, 1, n * 4)
    t = rz.alloc_tensor(asc.float32)
    ag.set_value(1, t.get_phy_addr())
    rz.free_tensor(t)
    _add_stage(xg[n:], yg[n:], zg[n:], rx, ry, rz, n)
    pool2.reset()
    tail = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(tail, 32)  # after the pools: the pipe gave them their bytes
    ag.set_value(2, tail.get(asc.float32).get_phy_addr())


def test_pools_share_memory_after_reset() -> None:
    n = 64
    x = np.arange(2 * n, dtype=np.float32)
    y = np.full_like(x, 0.5)
    z = np.zeros_like(x)
    addrs = out64(4)
    k_pool_reuse[1](x, y, z, addrs, n)
    np.testing.assert_array_equal(z, x + y)
    assert addrs[:3].tolist() == [64 + 2 * n * 4, 64 + 2 * n * 4, 64 + 3 * n * 4]
    src = ascendc(k_pool_reuse)
    for snippet in ["AscendC::TBufPool<AscendC::TPosition::VECCALC, 4> pool1;", "pipe.InitBufPool(pool1, 768);",
                    "pipe.InitBufPool(pool2, 768, pool1);", "pool1.InitBuffer(qx, 1, 256);", "pool1.Reset();"]:
        assert snippet in src, snippet


@asc.jit
def k_pool_subdivide(out: asc.GlobalAddress, case: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    pool0 = asc.TBufPool(asc.TPosition.VECIN, 3)
    pool1 = asc.TBufPool(asc.TPosition.VECIN, 3)  # (sub-pools have their parent's type, as in C++)
    pool2 = asc.TBufPool(asc.TPosition.VECIN, 3)
    pipe.init_buf_pool(pool0, 1024)
    pool0.init_buf_pool(pool1, 512)
    q0 = asc.TQue(asc.TPosition.VECIN, 1)
    pool0.init_buffer(q0, 1, 512)  # after pool1
    pool0.init_buf_pool(pool2, 500, pool1)  # pool2 uses pool1's memory (500 <= 512)
    q1 = asc.TQue(asc.TPosition.VECIN, 1)
    b1 = asc.TBuf(asc.TPosition.VECIN)
    pool1.init_buffer(q1, 1, 256)
    pool1.init_buffer(b1, 256)
    if case == 8:
        pool1.init_buffer(asc.TBuf(asc.TPosition.VECIN), 0)  # <- 8
    t = q0.alloc_tensor(asc.float32)
    o.set_value(0, t.get_phy_addr())
    q0.free_tensor(t)
    t = q1.alloc_tensor(asc.float32)
    o.set_value(1, t.get_phy_addr())
    q1.free_tensor(t)
    o.set_value(2, b1.get(asc.float32).get_phy_addr())
    pool1.reset()
    q2 = asc.TQue(asc.TPosition.VECIN, 1)
    pool2.init_buffer(q2, 1, 512)
    t = q2.alloc_tensor(asc.float32)
    o.set_value(3, t.get_phy_addr())
    q2.free_tensor(t)
    t = q1.alloc_tensor(asc.float32)  # pool1's buffers outlive its reset (their bytes may be overwritten)
    o.set_value(4, t.get_phy_addr())
    q1.free_tensor(t)
    if case == 1:
        pool0.init_buffer(asc.TBuf(asc.TPosition.VECIN), 32)  # <- 1
    if case == 2:
        pool1.init_buffer(asc.TQue(asc.TPosition.VECIN, 1), 1, 32)  # <- 2
    if case == 3:
        pool3 = asc.TBufPool(asc.TPosition.VECCALC, 2)
        pipe.init_buf_pool(pool3, 256)
        pool3.init_buffer(asc.TQue(asc.TPosition.VECIN, 1), 2, 32)
        pool3.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 32)  # <- 3
    if case == 4:
        unready = asc.TBufPool(asc.TPosition.VECCALC)
        unready.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 32)  # <- 4
    if case == 5:
        unready = asc.TBufPool(asc.TPosition.VECCALC)
        pipe.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC), 64, unready)  # <- 5
    if case == 6:
        pipe.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC), 2048, pool0)  # <- 6
    if case == 7:
        pipe.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC), 0)  # <- 7
    if case == 10:
        pool4 = asc.TBufPool(asc.TPosition.VECCALC, 20)
        pipe.init_buf_pool(pool4, 1024)
        for _i in asc.static_range(17):
            pool4.init_buffer(asc.TBuf(asc.TPosition.VECCALC), 32)  # <- 10
    if case == 9:
        pipe.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC), UB_BYTES)  # <- 9


def test_pools_carved_from_pools() -> None:
    out = out64(8)
    k_pool_subdivide[1](out, 0)
    assert out[:5].tolist() == [512, 0, 256, 0, 0]


@pytest.mark.parametrize("case, fragments", [
    (1, ["TBufPool.init_buffer: 32 bytes requested at UB address 1024, but the TBufPool has 0 bytes left of its "
         "1024"]),
    (2, ["but the TBufPool has 0 bytes left of its 0", "pipe.init_buf_pool(pool, len), or again after pool.reset()"]),
    (3, ["TBufPool.init_buffer: the TBufPool manages at most 2 buffers (its buf_id_size), 1 more requested after 2"]),
    (4, ["the TBufPool has 0 bytes left", "give it memory first"]),
    (5, ["TPipe.init_buf_pool: the pool to share has no memory yet"]),
    (6, ["2048 bytes requested, but the shared pool has only 1024"]),
    (7, ["the pool's length must be positive, got 0"]),
    (8, ["TBufPool.init_buffer: buffer length must be positive, got 0"]),
    (10, ["at most 16 buffers (16 at most, whatever its buf_id_size), 1 more requested after 16"]),
    (9, ["TPipe.init_buf_pool: UB overflow"]),
])
def test_pool_misuse_is_a_kernel_error(case: int, fragments: Sequence[str]) -> None:
    fails_at(k_pool_subdivide, (out64(), case), f"# <- {case}", *fragments)


# ---------------------------------------------------------------------------
# TPipe: init, reset, destroy
# ---------------------------------------------------------------------------


@asc.jit
def k_pipe_lifecycle(out: asc.GlobalAddress, case: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    pipe = asc.TPipe()
    big = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(big, 1, 128 * 1024)
    t = big.alloc_tensor(asc.float32)
    big.enque(t)
    t = big.deque(asc.float32)
    big.free_tensor(t)  # its free event is pending: reset waits for it
    o.set_value(0, pipe.alloc_event_id(asc.HardEvent.S_V))
    if case != 1:
        pipe.reset()  # the UB and every event id are free again
    again = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(again, 1, 128 * 1024)  # <- 1
    u = again.alloc_tensor(asc.float32)
    o.set_value(1, u.get_phy_addr())
    o.set_value(2, pipe.fetch_event_id(asc.HardEvent.S_V))
    o.set_value(3, pipe.fetch_event_id(asc.HardEvent.V_MTE2))
    again.free_tensor(u)
    if case == 2:
        t = big.alloc_tensor(asc.float32)  # <- 2
    pipe.destroy()
    o.set_value(4, pipe.fetch_event_id(asc.HardEvent.MTE3_V) if case == 9 else 7)
    if case == 3:
        pipe.init_buffer(asc.TQue(asc.TPosition.VECIN, 1), 1, 32)  # <- 3
    if case == 4:
        pipe.alloc_event_id(asc.HardEvent.S_V)  # <- 4
    if case == 5:
        asc.get_tpipe_ptr()  # <- 5
    if case == 6:
        u = again.alloc_tensor(asc.float32)  # <- 6
    pipe.init()  # the devkit's pattern to reuse a pipe: destroy, then init
    third = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(third, 1, 128 * 1024)
    w = third.alloc_tensor(asc.float32)
    o.set_value(5, w.get_phy_addr())
    third.free_tensor(w)
    o.set_value(6, pipe.fetch_event_id(asc.HardEvent.S_V))
    pipe.destroy()


def test_reset_and_destroy_init_free_the_pipe() -> None:
    out = out64(8)
    k_pipe_lifecycle[1](out, 0)
    assert out[:7].tolist() == [0, 0, 0, 0, 7, 0, 0]
    src = ascendc(k_pipe_lifecycle)
    for snippet in ["pipe.Reset();", "pipe.Destroy();", "pipe.Init();"]:
        assert snippet in src, snippet


@pytest.mark.parametrize("case, fragments", [
    (1, ["UB overflow"]),
    (2, ["alloc_tensor: the TQue's buffers were given before the latest pipe.reset() / pipe.init()",
         "give it buffers again with init_buffer"]),
    (3, ["after pipe.destroy()", "call pipe.init() before using the pipe or its queues again"]),
    (4, ["TPipe.alloc_event_id after pipe.destroy()"]),
    (5, ["asc.get_tpipe_ptr after pipe.destroy()"]),
    (6, ["alloc_tensor after pipe.destroy()"]),
])
def test_pipe_lifecycle_misuse(case: int, fragments: Sequence[str]) -> None:
    fails_at(k_pipe_lifecycle, (out64(), case), f"# <- {case}", *fragments)


def test_reset_in_a_loop_as_the_devkit_shows() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        xg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x)
        zg.set_global_buffer(z)
        pipe = asc.TPipe()
        que = asc.TQue(asc.TPosition.VECIN, 1)
        for i in range(3):
            pipe.init_buffer(que, 1, 96 * 1024)  # each round takes half the UB: only with the reset below
            t = que.alloc_tensor(asc.float32)
            asc.data_copy(t, xg[i * n:], n)
            que.enque(t)
            t = que.deque(asc.float32)
            asc.adds(t, t, 1.0, n)
            asc.set_flag(asc.HardEvent.V_MTE3, 0)
            asc.wait_flag(asc.HardEvent.V_MTE3, 0)
            asc.data_copy(zg[i * n:], t, n)
            que.free_tensor(t)
            pipe.reset()

    x = np.arange(3 * 64, dtype=np.float32)
    z = np.zeros_like(x)
    k[1](x, z, 64)
    np.testing.assert_array_equal(z, x + 1)


# ---------------------------------------------------------------------------
# LocalMemAllocator
# ---------------------------------------------------------------------------


@asc.jit
def k_allocator(x: asc.GlobalAddress, out: asc.GlobalAddress, m: int):
    xg = asc.GlobalTensor()
    o = asc.GlobalTensor()
    xg.set_global_buffer(x)
    o.set_global_buffer(out)
    am = asc.LocalMemAllocator()
    o.set_value(0, am.get_cur_addr())
    a = am.alloc(asc.TPosition.VECIN, asc.float32, 64)
    o.set_value(1, am.get_cur_addr())
    b = am.alloc(asc.TPosition.VECOUT, asc.float16, 48)
    o.set_value(2, am.get_cur_addr())
    c = am.alloc(asc.TPosition.VECCALC, asc.int32, m)  # a runtime size: the address becomes runtime
    o.set_value(3, am.get_cur_addr())
    d = am.alloc(asc.TPosition.VECCALC, asc.int8, 32)
    o.set_value(4, a.get_phy_addr())
    o.set_value(5, b.get_phy_addr())
    o.set_value(6, c.get_phy_addr())
    o.set_value(7, d.get_phy_addr())
    o.set_value(8, b.get_size())
    o.set_value(9, b.get_position())
    o.set_value(10, c.get_size())
    asc.data_copy(a, xg, 64)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    o.set_value(11, a.get_value(5))


def test_local_mem_allocator_places_tensors_one_after_another() -> None:
    out = out64(16)
    x = np.arange(64, dtype=np.float32) * 2
    k_allocator[1](x, out, 16)
    assert out[:12].tolist() == [0, 256, 352, 416, 0, 256, 352, 416, 48, int(VECOUT), 16, 10]
    src = ascendc(k_allocator)
    assert "AscendC::LocalTensor<half> b(AscendC::TPosition::VECOUT, 256, 48);" in src


@asc.jit
def k_mixed(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    if case == 1:
        asc.TPipe()  # <- first 1
        asc.LocalMemAllocator().alloc(asc.TPosition.VECIN, asc.float32, 64)  # <- 1
    if case == 2:
        asc.LocalMemAllocator().alloc(asc.TPosition.VECIN, asc.float32, 64)  # <- first 2
        asc.TPipe()  # <- 2
    if case == 3:
        asc.LocalMemAllocator(asc.Hardware.L1).alloc(asc.TPosition.A1, asc.float16, 16)  # <- first 3
        asc.TBufPool(asc.TPosition.VECCALC)  # <- 3
    if case == 4:  # an allocator that places nothing mixes
        pipe = asc.TPipe()
        asc.LocalMemAllocator()
        e = pipe.alloc_event_id(asc.HardEvent.MTE2_V)
        pipe.release_event_id(e, asc.HardEvent.MTE2_V)


@pytest.mark.parametrize("case, first", [(1, "uses the TPipe framework (asc.TPipe"),
                                         (2, "places tensors by address (a static-tensor kernel) "
                                             "(LocalMemAllocator.alloc"),
                                         (3, "places tensors by address (a static-tensor kernel) "
                                             "(LocalMemAllocator.alloc")])
def test_local_mem_allocator_does_not_mix_with_the_tpipe(case: int, first: str) -> None:
    """静态Tensor编程.md: a kernel placing tensors by address uses no TPipe, TQue, TBuf, TBufPool, in any memory
    (test_hw_rules.py has every form)."""
    err = fails_at(k_mixed, (np.zeros(4, np.float32), case), f"# <- {case}",
                   f"this kernel already {first} at line {line_of(k_mixed, f'# <- first {case}')})",
                   "forbids mixing", cls=asc.CompileError)
    assert "one style" in err.hint
    k_mixed[1](np.zeros(4, np.float32), 4)  # an allocator that allocates nothing


# ---------------------------------------------------------------------------
# compile-time misuse of the framework classes
# ---------------------------------------------------------------------------


@asc.jit
def k_compile_misuse(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 2)
    q0 = asc.TQue(asc.TPosition.VECIN, 0)
    b = asc.TBuf(asc.TPosition.VECCALC)
    t = asc.LocalTensor(asc.float32)
    if case == 0:
        q0.alloc_tensor(asc.float32)  # <- 0
    if case == 1:
        q.alloc_tensor(t)  # <- 1
    if case == 2:
        q.deque(t)  # <- 2
    if case == 3:
        q0.deque(asc.float32)  # <- 3
    if case == 4:
        q0.vacant_in_que()  # <- 4
    if case == 5:
        q0.free_all_event()  # <- 5
    if case == 6:
        q0.enque(t, asc.TPosition.GM, asc.TPosition.VECIN)  # <- 6
    if case == 7:
        q.enque(t, asc.TPosition.GM, asc.TPosition.GM)  # <- 7
    if case == 8:
        asc.TQueBind(asc.TPosition.GM, asc.TPosition.GM, 1)  # <- 8
    if case == 9:
        b.has_idle_buffer()  # <- 9
    if case == 10:
        b.enque(t, asc.TPosition.GM, asc.TPosition.VECIN)  # <- 10
    if case == 11:
        b.get_with_offset(8, 48, asc.float32)  # <- 11
    if case == 12:
        asc.TQue(asc.TPosition.VECIN, -1)  # <- 12
    if case == 13:
        asc.TPipe()  # <- 13
    if case == 14:
        pipe.init_buffer(asc.TBufPool(asc.TPosition.VECCALC), 64)  # <- 14
    if case == 15:
        asc.TBufPool(asc.TPosition.VECCALC, 0)  # <- 15
    if case == 16:
        pipe.get_base_addr()  # <- 16
    if case == 17:
        asc.LocalMemAllocator(asc.Hardware.GM)  # <- 17
    if case == 18:
        asc.LocalMemAllocator().alloc(asc.TPosition.GM, asc.float32, 8)  # <- 18
    if case == 19:
        q.enque(t, asc.TPosition.GM)  # <- 19
    if case == 20:
        q.free_tensor(x)  # <- 20
    if case == 21:
        q.deque(asc.float32, asc.TPosition.GM)  # <- 21
    if case == 22:
        pool = asc.TBufPool(asc.TPosition.VECCALC, 4)
        pool.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC, 2), 64)  # <- 22
    if case == 23:
        pool = asc.TBufPool(asc.TPosition.VECCALC, 4)
        pool.init_buf_pool(asc.TBufPool(asc.TPosition.VECCALC), 64, asc.TBufPool(asc.TPosition.VECIN))  # <- 23


@pytest.mark.parametrize("case, fragments", [
    (0, ["alloc_tensor(dtype) needs a queue of depth >= 1", "que.alloc_tensor(t)"]),
    (1, ["alloc_tensor(tensor) allocates in place, which needs a queue of depth 0"]),
    (2, ["deque(tensor) dequeues in place, which needs a queue of depth 0"]),
    (3, ["TQue.deque(dtype) needs a queue of depth >= 1; this one has depth 0"]),
    (4, ["TQue.vacant_in_que needs a queue of depth >= 1"]),
    (5, ["TQue.free_all_event needs a queue of depth >= 1"]),
    (6, ["TQue.enque(tensor, src_user_pos, dst_user_pos) needs a queue of depth >= 1"]),
    (7, ["src_user_pos and dst_user_pos cannot both be TPosition.GM"]),
    (8, ["asc.TQueBind: src and dst cannot both be TPosition.GM"]),
    (9, ["TBuf.has_idle_buffer is not available: a TBuf has no queue"]),
    (10, ["TBuf.enque(tensor, src_user_pos, dst_user_pos) is not available"]),
    (11, ["TBuf.get_with_offset: buf_offset 48 is not a multiple of 32"]),
    (12, ["`depth` must be at least 0"]),
    (13, ["a kernel has one TPipe", "asc.get_tpipe_ptr()"]),
    (14, ["TPipe.init_buffer takes a TQue or TBuf, got an asc.TBufPool"]),
    (15, ["`buf_id_size` must be a positive compile-time integer, got the int 0"]),
    (16, ["TPipe.get_base_addr needs a position"]),
    (17, ["Hardware.GM is no local memory"]),
    (18, ["TPosition.GM is not in the UB"]),
    (19, ["give both src_user_pos and dst_user_pos"]),
    (20, ["TQue.free_tensor takes a LocalTensor, got a GlobalAddress"]),
    (21, ["give both src_user_pos and dst_user_pos"]),
    (22, ["`buf_pool` is a TBufPool(VECCALC, 2), this pool a TBufPool(VECCALC, 4)", "own position and buf_id_size"]),
    (23, ["`share_buf` is a TBufPool(VECIN, 4), this pool a TBufPool(VECCALC, 4)"]),
])
def test_framework_misuse_is_a_compile_error(case: int, fragments: Sequence[str]) -> None:
    fails_at(k_compile_misuse, (np.zeros(4, np.float32), case), f"# <- {case}", *fragments, cls=asc.CompileError)


def test_get_tpipe_ptr_needs_a_pipe() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress):
        asc.get_tpipe_ptr()  # <- here
        asc.TPipe()

    fails_at(k, (np.zeros(4, np.float32),), "# <- here", "made no TPipe yet", cls=asc.CompileError)


@asc.jit
def _uses_queue(q: asc.TQue):
    t = q.alloc_tensor(asc.float32)
    q.free_tensor(t)


@asc.jit
def _uses_pool(p: asc.TBufPool):
    pass


def test_tquebind_and_tbufpool_are_no_device_function_arguments_yet() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
        pipe = asc.TPipe()
        q = asc.TQue(asc.TPosition.VECIN, 1)
        qb = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
        pool = asc.TBufPool(asc.TPosition.VECCALC)
        pipe.init_buffer(q, 1, 64)
        pipe.init_buffer(qb, 1, 64)
        _uses_queue(q)  # a TQue is fine
        if case == 1:
            _uses_queue(qb)  # <- 1
        if case == 2:
            _uses_pool(pool)  # <- 2

    k[1](np.zeros(4, np.float32), 0)
    fails_at(k, (np.zeros(4, np.float32), 1), "# <- 1", "argument `q` is a TQueBind<VECIN, VECOUT>",
             cls=asc.CompileError)
    fails_at(k, (np.zeros(4, np.float32), 2), "# <- 2", "argument `p` is a TBufPool", cls=asc.CompileError)


@asc.jit
def k_unsupported(x: asc.GlobalAddress, case: asc.ConstExpr[int]):
    q = asc.TQue(asc.TPosition.VECIN, 1)
    b = asc.TBuf(asc.TPosition.VECCALC)
    # (the cube positions of TQue, TQueBind, TBufPool and LocalMemAllocator: test_cube_queues.py)
    if case == 5:
        asc.TQue(asc.TPosition.VECIN, 2, 1)  # <- 5
    if case == 6:
        q.init_buf_handle(None, 0, None, 0, 32)  # <- 6
    if case == 7:
        q.init_start_buf_handle(None, 1, 32)  # <- 7
    if case == 8:
        b.init_buf_handle(None, 0, None, 0, 32)  # <- 8


@pytest.mark.parametrize("case, fragment", [
    (5, "`mask` (a TQueConfig) the int 1 is not supported yet"),
    (6, "TQue.init_buf_handle is not supported yet"), (7, "TQue.init_start_buf_handle is not supported yet"),
    (8, "TBuf.init_buf_handle is not supported yet"),
])
def test_unsupported_forms_raise_not_implemented(case: int, fragment: str) -> None:
    err = fails_at(k_unsupported, (np.zeros(4, np.float32), case), f"# <- {case}", fragment,
                   cls=asc.UnsupportedError)
    assert isinstance(err, NotImplementedError)
