"""Runtime-sized asc.LocalTensorAuto (plan-ub, src/passes/plan_ub.c; the check in src/sim/ub_plan.c).

A LocalTensorAuto whose shape has a runtime (int) dim is placed when the kernel reaches it: above the
compile-time sized auto tensors (which keep their planned offsets) and above every runtime-sized one it
lives with, reusing the bytes of those already dead; a size that does not fit the UB is a KernelError at
the tensor's line naming the sizes (AscendC::Trap() in the emitted code).
"""

import re
from typing import Any, List

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc


def compiled(kernel: Any) -> Any:
    return list(kernel.cache.values())[-1]


def align(n: int) -> int:
    return (n + 31) // 32 * 32


# ---- runtime shapes: one compiled kernel for every size ------------------------------------------------


@asc.jit(insert_sync=True)
def dyn_vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, rows: asc.ConstExpr[int],
             cols: int):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    n = rows * cols
    fixed = asc.LocalTensorAuto(asc.float32, 8)
    a = asc.LocalTensorAuto(x_gm.dtype, (rows, cols))
    b = asc.LocalTensorAuto(y_gm.dtype, [rows, cols])
    asc.data_copy(a, x_gm, n)
    asc.data_copy(b, y_gm, n)
    c = asc.LocalTensorAuto(z_gm.dtype, n)
    asc.add(c, a, b, n)
    asc.duplicate(fixed, 1.0, 8)
    asc.adds(c, c, 0.5, n)
    asc.data_copy(z_gm, c, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_runtime_shapes_compute_with_one_compilation(dtype: Any) -> None:
    rng = np.random.default_rng(1)
    before = len(dyn_vadd.cache)
    for cols in (8, 16, 64, 200):  # the byte counts of float16 x 8 columns are not 32-byte multiples
        x = rng.random(4 * cols).astype(dtype)
        y = rng.random(4 * cols).astype(dtype)
        z = np.zeros_like(x)
        dyn_vadd[1](x, y, z, 4, cols)  # the sanitizer is on: the inserted syncs must order every pipe
        np.testing.assert_array_equal(z, (x + y) + dtype(0.5))
    assert len(dyn_vadd.cache) == before + 1  # cols is a runtime value: one kernel
    log = compiled(dyn_vadd).pass_log
    assert re.search(r"plan-ub: fixed \(\S+\) float32 x 8 = 32 bytes at offset 0, 1 slot", log), log
    for name in ("a", "b", "c"):
        assert re.search(rf"plan-ub: {name} \(\S+\) float(16|32) x \d+ x 1 runtime dim = a runtime size "
                         r"at a runtime offset from 32", log), log
    assert "plan-ub: pool 196608 bytes of 196608 available" in log
    assert "plan-ub: 3 runtime-sized tensors above the first 32 bytes" in log
    ir = compiled(dyn_vadd).ir_text()
    assert ir.count('"asc.local_tensor_auto.check"') == 3 and '"asc.local_tensor_auto"' not in ir
    cpp = ascendc(dyn_vadd)
    assert "pipe.InitBuffer(auto_ub_pool, 196608);" in cpp  # all of the UB: an AIV kernel without Select & co.
    assert "auto_ub_pool.GetWithOffset<float>(8, 0);" in cpp
    assert cpp.count("AscendC::Trap();") == 3
    # a's offset is the static part's end; its length the shape's product
    assert re.search(r"GetWithOffset<(float|half)>\(\w+, 32\)", cpp), cpp


# ---- placement: disjoint while alive, reuse when dead ------------------------------------------------------


@asc.jit(insert_sync=True)
def dyn_addrs(out: asc.GlobalAddress, n1: int, n2: int, n3: int, n4: int):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    s = asc.LocalTensorAuto(asc.float32, 24)
    asc.duplicate(s, 0.0, 24)
    a = asc.LocalTensorAuto(asc.float32, n1)
    b = asc.LocalTensorAuto(asc.float16, (2, n2))
    asc.duplicate(a, 1.0, n1)
    asc.duplicate(b, 2.0, 2 * n2)
    o.set_value(0, s.get_phy_addr())
    o.set_value(1, a.get_phy_addr())
    o.set_value(2, b.get_phy_addr())  # a and b die here
    c = asc.LocalTensorAuto(asc.uint8, n3)  # reuses a's bytes
    d = asc.LocalTensorAuto(asc.int32, n4)  # lives with c: above it
    asc.duplicate(c.reinterpret_cast(asc.int16), 3, n3 // 2)
    asc.duplicate(d, 4, n4)
    o.set_value(3, c.get_phy_addr())
    o.set_value(4, d.get_phy_addr())
    o.set_value(5, s.get_phy_addr())


@pytest.mark.parametrize("n1,n2,n3,n4", [(8, 16, 64, 8), (5, 3, 30, 1), (1000, 24, 6000, 300)])
def test_runtime_tensors_are_disjoint_while_alive_and_reuse_dead_bytes(n1: int, n2: int, n3: int,
                                                                       n4: int) -> None:
    out = np.zeros(8, np.uint64)
    dyn_addrs[1](out, n1, n2, n3, n4)
    s, a, b, c, d, s2 = (int(v) for v in out[:6])
    assert s2 == s  # the compile-time sized tensor keeps its planned offset (0) and lives throughout
    assert a == s + 96  # 24 floats = 96 bytes below the runtime-sized ones
    assert b == a + align(4 * n1)
    assert c == a  # a and b are dead: c takes their bytes
    assert d == c + align(n3)


@asc.jit(insert_sync=True)
def two_phases(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, overlap: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensorAuto(asc.float32, n)
    asc.data_copy(a, x_gm, n)
    asc.muls(a, a, 2.0, n)
    if not overlap:
        asc.data_copy(z_gm, a, n)
    # 100 KB each: b fits only in a's bytes
    b = asc.LocalTensorAuto(asc.float32, n)  # b here
    if overlap:
        asc.adds(b, a, 1.0, n)
    else:
        asc.data_copy(b, z_gm, n)
        asc.adds(b, b, 1.0, n)
    asc.data_copy(z_gm, b, n)


def test_reuse_is_what_makes_two_large_tensors_fit() -> None:
    n = 25600  # 100 KiB of floats: two of them do not fit the 192 KiB UB side by side
    x = np.arange(n, dtype=np.float32)
    z = np.zeros_like(x)
    two_phases[1](x, z, n, False)
    np.testing.assert_array_equal(z, x * 2 + 1)
    fails_at(two_phases, (x, z, n, True), "# b here",
             "asc.LocalTensorAuto b: its runtime shape (25600 elements) of float32 needs 102400 bytes at byte 102400 "
             "of the auto-tensor pool, which has 196608 bytes")
    small = np.arange(64, dtype=np.float32)
    zs = np.zeros_like(small)
    two_phases[1](small, zs, 64, True)
    np.testing.assert_array_equal(zs, small * 2 + 1)


# ---- run-time errors --------------------------------------------------------------------------------------


@asc.jit(insert_sync=True)
def sized(z: asc.GlobalAddress, rows: int, cols: int, fixed: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    big = asc.LocalTensorAuto(asc.float32, fixed)
    asc.duplicate(big, 1.0, fixed)
    t = asc.LocalTensorAuto(asc.float16, (rows, 4, cols))  # t here
    asc.duplicate(t, 2.0, 8)
    asc.data_copy(z_gm, big, 16)


@pytest.mark.parametrize("rows,cols,fixed,fragments", [
    (0, 4, 64, ["asc.LocalTensorAuto t: its runtime shape (4 x 0 x 4 elements) has a size that is not positive"]),
    (4, -1, 64, ["(4 x 4 x -1 elements) has a size that is not positive"]),
    (2**31 - 1, 2**31 - 1, 64, ["(4 x 2147483647 x 2147483647 elements) of float16 needs more bytes than an int64 holds"]),
    (1000, 25, 64, ["(4 x 1000 x 25 elements) of float16 needs 200000 bytes at byte 256 of the auto-tensor pool, "
                    "which has 196608 bytes"]),
    # the compile-time sized tensors take their bytes first: 196576 of the 196608 the kernel may use, 32 left
    (2, 3, 49144, ["(4 x 2 x 3 elements) of float16 needs 48 bytes at byte 196576 of the auto-tensor pool, "
                   "which has 196608 bytes"]),
])
def test_sizes_that_do_not_fit_are_kernel_errors_at_the_tensors_line(rows: int, cols: int, fixed: int,
                                                                      fragments: List[str]) -> None:
    z = np.zeros(64, np.float32)
    fails_at(sized, (z, rows, cols, fixed), "# t here", *fragments)
    sized[1](z, 2, 1, fixed)  # 8 halves fit
    np.testing.assert_array_equal(z[:16], np.ones(16, np.float32))


def test_the_pool_leaves_the_kernels_own_buffers_their_bytes() -> None:
    @asc.jit(insert_sync=True)
    def with_que(z: asc.GlobalAddress, n: int):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        pipe = asc.TPipe()
        q = asc.TQue(asc.TPosition.VECOUT, 1)
        pipe.init_buffer(q, 1, 65536)
        t = asc.LocalTensorAuto(asc.float32, n)  # t here
        asc.duplicate(t, 5.0, n)
        out = q.alloc_tensor(asc.float32)
        asc.adds(out, t, 1.0, 64)
        q.enque(out)
        out = q.deque(asc.float32)
        asc.data_copy(z_gm, out, 64)
        q.free_tensor(out)

    z = np.zeros(64, np.float32)
    with_que[1](z, 64)
    np.testing.assert_array_equal(z, np.full(64, 6.0, np.float32))
    assert "plan-ub: pool 131072 bytes of 131072 available (UB 196608, 65536 taken" in compiled(with_que).pass_log
    fails_at(with_que, (z, 32769), "# t here", "needs 131076 bytes at byte 0",
             "which has 131072 bytes")


# ---- loops and insert_sync ------------------------------------------------------------------------------


@asc.jit(insert_sync=True)
def dyn_loop(x: asc.GlobalAddress, z: asc.GlobalAddress, tile: int, tiles: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    for i in range(tiles):
        st_in = asc.LocalTensorAuto(asc.float32, 64)  # compile-time sized: double-buffered as before
        st_out = asc.LocalTensorAuto(asc.float32, 64)
        a = asc.LocalTensorAuto(asc.float32, tile)
        b = asc.LocalTensorAuto(asc.float32, tile)
        asc.data_copy(a, x_gm[i * tile:], count=tile)
        asc.data_copy(st_in, x_gm[i * tile:], count=64)
        asc.muls(b, a, 3.0, tile)
        asc.add(st_out, st_in, b, 64)
        asc.data_copy(z_gm[i * tile:], b, count=tile)
        asc.data_copy(z_gm[i * tile:], st_out, count=64)


@pytest.mark.parametrize("tile,tiles", [(64, 3), (200, 4), (1024, 2)])
def test_runtime_tensors_in_a_loop_with_inserted_syncs(tile: int, tiles: int) -> None:
    rng = np.random.default_rng(tile)
    x = rng.random(tile * tiles).astype(np.float32)
    z = np.zeros_like(x)
    dyn_loop[1](x, z, tile, tiles)  # the sanitizer is on (error): every race would raise
    want = x * np.float32(3.0)
    for i in range(tiles):
        want[i * tile:i * tile + 64] += x[i * tile:i * tile + 64]
    np.testing.assert_allclose(z, want, rtol=1e-6)
    log = compiled(dyn_loop).pass_log
    assert re.search(r"plan-ub: st_in \(\S+\) float32 x 64 = 256 bytes at offset \d+, 2 slots", log), log
    assert re.search(r"plan-ub: a \(\S+\) .* 1 slot \(runtime size; pipes V,MTE2\)", log), log
    assert "insert-sync:" in log


def test_upstream_style_quant_kernel_shapes() -> None:
    """asc.LocalTensorAuto(src_global.dtype, (dim1, dim2)) and (asc.uint8, tmp_bytes), as upstream's
    insert_sync/test_quant_dynamic.py writes them (with adds standing in for asc.adv.quant)."""

    @asc.jit(insert_sync=True)
    def kernel(src_gm: asc.GlobalAddress, dst_gm: asc.GlobalAddress, dim1: asc.ConstExpr[int], dim2: int,
               tmp_min_bytes: int):
        src_global = asc.GlobalTensor()
        dst_global = asc.GlobalTensor()
        src_global.set_global_buffer(src_gm)
        dst_global.set_global_buffer(dst_gm)
        src_local = asc.LocalTensorAuto(src_global.dtype, (dim1, dim2))
        asc.data_copy(src_local, src_global, dim1 * dim2)
        dst_local = asc.LocalTensorAuto(src_global.dtype, (dim1, dim2))
        tmp_local = asc.LocalTensorAuto(asc.uint8, tmp_min_bytes)
        asc.duplicate(tmp_local.reinterpret_cast(asc.float16), 0.0, 16)
        asc.adds(dst_local, src_local, 0.9, dim1 * dim2)
        asc.data_copy(dst_global, dst_local, dim1 * dim2)

    src = np.linspace(-4, 4, 32).astype(np.float16)
    dst = np.zeros_like(src)
    kernel[1](src, dst, 4, 8, 512)
    np.testing.assert_array_equal(dst, src + np.float16(0.9))


# ---- compile errors --------------------------------------------------------------------------------------


def test_a_float_dim_is_a_compile_error() -> None:
    @asc.jit
    def k(z: asc.GlobalAddress, f: float):
        t = asc.LocalTensorAuto(asc.float32, (4, f))  # here
        asc.duplicate(t, 1.0, 4)

    fails_at(k, (np.zeros(4, np.float32), 1.5), "# here", "a runtime dim of the shape must be an integer",
             cls=asc.CompileError)


def test_a_runtime_sized_tensor_carried_across_iterations_is_a_compile_error() -> None:
    @asc.jit(sanitize="off")
    def k(z: asc.GlobalAddress, n: int):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        t = asc.LocalTensorAuto(asc.float32, 16)
        for _ in range(3):
            asc.duplicate(t, 1.0, 16)
            t = asc.LocalTensorAuto(asc.float32, n)  # here
        asc.data_copy(z_gm, t, 16)

    fails_at(k, (np.zeros(16, np.float32), 16), "# here", "carried from one iteration of a loop to the next",
             cls=asc.CompileError)


def test_a_runtime_sized_tensor_outliving_its_block_beside_another_is_a_compile_error() -> None:
    @asc.jit(sanitize="off")
    def k(z: asc.GlobalAddress, n: int):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        u = asc.LocalTensorAuto(asc.float32, 16)
        if n > 4:
            u = asc.LocalTensorAuto(asc.float32, n)
        v = asc.LocalTensorAuto(asc.float32, n)  # here
        asc.add(v, u, u, 16)
        asc.data_copy(z_gm, v, 16)

    fails_at(k, (np.zeros(16, np.float32), 16), "# here", "lives with u (runtime size",
             "give one of them a compile-time size", cls=asc.CompileError)


def test_a_runtime_sized_tensor_made_in_a_branch_and_dead_after_it_is_fine() -> None:
    @asc.jit(insert_sync=True)
    def k(z: asc.GlobalAddress, n: int):
        z_gm = asc.GlobalTensor()
        z_gm.set_global_buffer(z)
        if n > 4:
            u = asc.LocalTensorAuto(asc.float32, n)
            asc.duplicate(u, 7.0, n)
            asc.data_copy(z_gm, u, n)
        v = asc.LocalTensorAuto(asc.float32, n)
        asc.duplicate(v, 1.0, n)
        asc.data_copy(z_gm[n:], v, n)

    z = np.zeros(32, np.float32)
    k[1](z, 16)
    np.testing.assert_array_equal(z, np.r_[np.full(16, 7.0), np.ones(16)].astype(np.float32))
