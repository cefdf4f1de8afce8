"""The DMA store atomics on the simulator: asc.set_atomic_add / max / min /
type / none and asc.set_store_atomic_config / get_store_atomic_config.

With an atomic type set, every DMA write into GM (data_copy and
data_copy_pad UB -> GM) combines each element of the atomic type with GM's:
sum, max or min. Blocks writing into the same GM bytes combine atomically
with respect to each other: integer results and max/min never depend on
the order the blocks run in; a float sum of two addends is exact up to one
rounding, so the tests compare float sums of several blocks with a
tolerance of the rounding of each addition. The sanitizer does not report
two blocks' atomic writes into the same bytes as a race, but still reports
plain writes."""

import warnings
from typing import Any

import numpy as np
import pytest

import asc
import asc.runtime.config as config

N = 256
CORES = 4
NP = {"float32": np.float32, "float16": np.float16, "int32": np.int32, "int16": np.int16, "int8": np.int8}


def all_ascendc(kernel: Any) -> list:
    """The Ascend C of each of the kernel's compilations (one per ConstExpr value)."""
    return [c.ascendc(line_comments=False) for c in kernel.cache.values()]


def _dt(name: str) -> asc.DataType:
    return getattr(asc, name)


@asc.jit
def atomic_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], mode: asc.ConstExpr[int],
                  pad: asc.ConstExpr[bool]):
    # block i adds its slice x[i * n:(i + 1) * n] into z[0:n]
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + asc.get_block_idx() * n)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(xl, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if mode == 0:
        asc.set_atomic_add(x.dtype)
    elif mode == 1:
        asc.set_atomic_max(x.dtype)
    elif mode == 2:
        asc.set_atomic_min(x.dtype)
    if pad:
        asc.data_copy_pad(z_gm, xl, asc.DataCopyExtParams(1, n * x.dtype.sizeof(), 0, 0, 0))
    else:
        asc.data_copy(z_gm, xl, n)
    asc.set_atomic_none()


def run_atomic(name: str, mode: int, pad: bool = False, seed: int = 0) -> tuple:
    rng = np.random.default_rng(seed)
    t = NP[name]
    if np.issubdtype(t, np.integer):
        x = rng.integers(-50, 50, CORES * N).astype(t)
        z = rng.integers(-50, 50, N).astype(t)
    else:
        x = (rng.standard_normal(CORES * N) * 4).astype(t)
        z = (rng.standard_normal(N) * 4).astype(t)
    z0 = z.copy()
    atomic_kernel[CORES](x, z, N, mode, pad, sanitize="error")
    return x.reshape(CORES, N), z0, z


@pytest.mark.parametrize("pad", [False, True], ids=["data_copy", "data_copy_pad"])
@pytest.mark.parametrize("name", list(NP))
def test_atomic_add_of_blocks_gives_the_sum(name: str, pad: bool) -> None:
    x, z0, z = run_atomic(name, 0, pad)
    if np.issubdtype(NP[name], np.integer):
        # int8 / int16 sums wrap at the type's width (|sum| < 250 fits int16 and, here, may wrap int8)
        expect = (z0.astype(np.int64) + x.astype(np.int64).sum(0))
        info = np.iinfo(NP[name])
        expect = ((expect - info.min) % (1 << info.bits) + info.min).astype(NP[name])
        np.testing.assert_array_equal(z, expect)
    else:
        # the blocks run in block order, each addition rounded to the type (float16: via float32)
        acc = z0.copy()
        for i in range(CORES):
            acc = (acc.astype(np.float32) + x[i].astype(np.float32)).astype(NP[name])
        np.testing.assert_array_equal(z, acc)


def test_atomic_add_float32_two_addends_is_one_rounding() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.data_copy(xl, x_gm, 64)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.set_atomic_add(asc.float32)
        asc.data_copy(z_gm, xl, 64)
    rng = np.random.default_rng(3)
    x = rng.standard_normal(64).astype(np.float32)
    z = rng.standard_normal(64).astype(np.float32)
    expect = z + x  # numpy's float32 add rounds once, as the model does
    k[1](x, z)
    np.testing.assert_array_equal(z, expect)


def test_atomic_add_float16_rounds_each_addition_to_half() -> None:
    x, z0, z = run_atomic("float16", 0, seed=5)
    acc = z0.copy()
    for i in range(CORES):  # block order
        acc = (acc.astype(np.float32) + x[i].astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(z, acc)
    # not the same as one rounding of the exact sum: the order and the roundings show
    exact = (z0.astype(np.float64) + x.astype(np.float64).sum(0)).astype(np.float16)
    assert (z != exact).any()


@pytest.mark.parametrize("name", list(NP))
@pytest.mark.parametrize("mode", [1, 2], ids=["max", "min"])
def test_atomic_max_min_of_blocks(name: str, mode: int) -> None:
    x, z0, z = run_atomic(name, mode)
    stack = np.vstack([z0[None, :], x])
    expect = stack.max(0) if mode == 1 else stack.min(0)
    np.testing.assert_array_equal(z, expect)


@pytest.mark.parametrize("name", ["int32", "float32", "float16"])
def test_atomic_results_do_not_depend_on_the_run(name: str) -> None:
    """Float sums too: a kernel with store atomics runs its blocks in block order, whatever the workers."""
    first = run_atomic(name, 0, seed=7)[2]
    saved = config.get_workers()
    for workers in (1, 2, 8):
        config.set_workers(workers)
        try:
            np.testing.assert_array_equal(run_atomic(name, 0, seed=7)[2], first)
        finally:
            config.set_workers(saved)


@asc.jit
def none_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, cfg: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy(xl, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if cfg == 0:
        asc.set_atomic_add(asc.float32)
        asc.set_atomic_none()
    elif cfg == 1:
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_F32, asc.AtomicOp.ATOMIC_SUM)
    elif cfg == 2:
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_F32, asc.AtomicOp.ATOMIC_SUM)
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_NONE, asc.AtomicOp.ATOMIC_SUM)
    elif cfg == 3:
        asc.set_atomic_max(asc.float32)
        asc.set_atomic_type(asc.float32)  # keeps max
    elif cfg == 4:
        asc.set_atomic_add(asc.int32)
        asc.set_atomic_type(asc.float32)  # the bytes combine as float32
    asc.data_copy(z_gm, xl, 64)


@pytest.mark.parametrize("cfg,expect", [(0, "x"), (1, "sum"), (2, "x"), (3, "max"), (4, "sum")])
def test_set_atomic_none_type_and_store_config(cfg: int, expect: str) -> None:
    rng = np.random.default_rng(cfg)
    x = rng.standard_normal(64).astype(np.float32)
    z = rng.standard_normal(64).astype(np.float32)
    ref = {"x": x, "sum": z + x, "max": np.maximum(z, x)}[expect]
    none_kernel[1](x, z, cfg)
    np.testing.assert_array_equal(z, ref)


@asc.jit
def get_kernel(out: asc.GlobalAddress, cfg: asc.ConstExpr[int]):
    o = asc.GlobalTensor()
    o.set_global_buffer(out)
    if cfg == 1:
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_BF16, asc.AtomicOp.ATOMIC_SUM)
    elif cfg == 2:
        asc.set_atomic_max(asc.int8)
    elif cfg == 3:
        asc.set_atomic_min(asc.float16)
    elif cfg == 4:
        asc.set_atomic_add(asc.int16)
        asc.set_atomic_none()
    t, op = asc.get_store_atomic_config()
    o.set_value(0, t)
    o.set_value(1, op)


@pytest.mark.parametrize("cfg,expect", [(0, (0, 0)), (1, (6, 0)), (2, (5, 1)), (3, (2, 2)), (4, (0, 0))])
def test_get_store_atomic_config(cfg: int, expect: tuple) -> None:
    out = np.full(2, 99, np.int32)
    get_kernel[1](out, cfg)
    assert tuple(out) == expect


def test_sanitizer_accepts_atomic_writes_of_blocks_and_reports_plain_ones() -> None:
    x = np.ones(CORES * N, np.float32)
    z = np.zeros(N, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", asc.SanitizerWarning)
        atomic_kernel[CORES](x, z, N, 0, False, sanitize="error")
    np.testing.assert_array_equal(z, np.full(N, CORES, np.float32))
    with pytest.raises(asc.SanitizerError, match="data race on GM between blocks"):
        atomic_kernel[CORES](x, z, N, 3, False, sanitize="error")  # mode 3: no atomic


@pytest.mark.parametrize("name", ["uint8", "uint16", "uint32", "int64", "float64"])
def test_atomic_dtype_errors(name: str) -> None:
    @asc.jit
    def k(z: asc.GlobalAddress, d: asc.ConstExpr[Any]):
        asc.set_atomic_add(d)
    with pytest.raises(asc.CompileError, match=f"asc.set_atomic_add does not support element type {name}"):
        k[1](np.zeros(8, np.float32), _dt(name))


def test_atomic_argument_errors() -> None:
    @asc.jit
    def k1(z: asc.GlobalAddress):
        asc.set_atomic_max(3)
    with pytest.raises(asc.CompileError, match="must be a data type"):
        k1[1](np.zeros(8, np.float32))

    @asc.jit
    def k2(z: asc.GlobalAddress):
        asc.set_store_atomic_config(asc.AtomicOp.ATOMIC_SUM, asc.AtomicOp.ATOMIC_SUM)
    with pytest.raises(asc.CompileError, match="atomic_type. must be an asc.AtomicDtype"):
        k2[1](np.zeros(8, np.float32))


def test_atomic_bytes_not_whole_elements_is_kernel_error() -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.data_copy(xl, x_gm, 64)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.set_atomic_add(asc.float32)
        asc.data_copy_pad(z_gm, xl, asc.DataCopyExtParams(1, 6, 0, 0, 0))  # 3 int16: 1.5 floats
    with pytest.raises(asc.KernelError, match="not a whole number of float32 elements"):
        k[1](np.zeros(64, np.int16), np.zeros(64, np.int16))


def test_atomics_ascendc() -> None:
    x = np.zeros(64, np.float32)
    spelt = {0: ["AscendC::SetAtomicAdd<float>();", "AscendC::SetAtomicNone();"],
             1: ["AscendC::SetStoreAtomicConfig<AscendC::AtomicDtype::ATOMIC_F32, AscendC::AtomicOp::ATOMIC_SUM>();"],
             3: ["AscendC::SetAtomicMax<float>();", "AscendC::SetAtomicType<float>();"]}
    for cfg, want in spelt.items():
        none_kernel[1](x, x.copy(), cfg)
        assert any(all(w in src for w in want) for src in all_ascendc(none_kernel)), want
    get_kernel[1](np.zeros(2, np.int32), 3)
    src = next(s for s in all_ascendc(get_kernel) if "SetAtomicMin" in s)
    assert "AscendC::SetAtomicMin<half>();" in src
    assert "uint16_t t;" in src and "AscendC::GetStoreAtomicConfig(t, op);" in src  # the user's names
