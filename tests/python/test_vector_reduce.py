"""Reductions on the simulator against NumPy references: reduce_max,
reduce_min (with and without cal_index), reduce_sum, the count (level-2)
forms, float16 and float32.

reduce_sum follows the Ascend910B devkit's level-2 ReduceSum ("way 1" of its
documentation, one vcadd in counter mode): a binary tree of adjacent pairs
inside each 256-byte repeat, every sum rounded to the element type, then the
repeats' sums added in order; the reference reproduces that order, so results
are bit-exact. reduce_max/min: dst[0] the extreme element, dst[1] (cal_index)
its lowest index as the bits of a uint16 (half) / uint32 (float); nothing
else of dst is written.
"""

import zlib
from typing import Any, Callable

import numpy as np
import pytest
from kernels_util import UB_SLOT, ascendc, fails_at, fill_sentinel, padded, padded_copy

import asc

FLT = ("float16", "float32")
NP = {"float16": np.float16, "float32": np.float32}
UINT = {"float16": np.uint16, "float32": np.uint32}
# one repeat is 256 bytes: 128 halves, 64 floats; lengths below, at and above it, several repeats
LENGTHS = (1, 2, 7, 37, 64, 65, 128, 129, 300, 1000)


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def reduce_kernel(op: Callable[..., None]) -> Any:
    @asc.jit
    def reduce_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, npad: int, zpad: int,
                      cal: asc.ConstExpr[bool]):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        cap = UB_SLOT // x.dtype.sizeof()
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
        zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
        wl = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 2 * UB_SLOT, cap)
        asc.data_copy(xl, x_gm, npad)
        asc.data_copy(zl, z_gm, zpad)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        if cal:
            op(zl, xl, wl, n, cal_index=True)
        else:
            op(zl, xl, wl, n)  # reduce call
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, zpad)

    return reduce_kernel


KERNELS = {name: reduce_kernel(getattr(asc, name)) for name in ("reduce_max", "reduce_min", "reduce_sum")}


def run(name: str, a: np.ndarray, cal: bool = False) -> np.ndarray:
    n = len(a)
    npad = padded(n, a.dtype.itemsize)
    zpad = 32 // a.dtype.itemsize
    x = padded_copy(a, npad, np.random.default_rng(7))
    z = fill_sentinel(zpad, a.dtype)
    KERNELS[name][1](x, z, n, npad, zpad, cal)
    return z


def sum_ref(a: np.ndarray) -> np.generic:
    """The devkit's order: a tree of adjacent pairs per repeat (a missing partner passes the value on), the
    repeats' sums in order; each sum rounded to a's type (NumPy's float16 add is correctly rounded)."""
    lanes = 256 // a.dtype.itemsize
    acc = None
    for base in range(0, len(a), lanes):
        v = list(a[base:base + lanes])
        while len(v) > 1:
            v = [v[i] + v[i + 1] if i + 1 < len(v) else v[i] for i in range(0, len(v), 2)]
        acc = v[0] if acc is None else acc + v[0]
    return acc


def values(dtype: str, n: int, rng: np.random.Generator) -> np.ndarray:
    return (rng.standard_normal(n) * 10).astype(NP[dtype])


def bits(v: Any, dtype: str) -> int:
    return int(np.array(v, NP[dtype]).view(UINT[dtype]))


@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n", LENGTHS)
def test_reduce_sum(dtype: str, n: int) -> None:
    a = values(dtype, n, rng_for("sum", dtype, n))
    z = run("reduce_sum", a)
    with np.errstate(over="ignore"):
        assert bits(z[0], dtype) == bits(sum_ref(a), dtype)
    assert (z[1:].view(UINT[dtype]) == fill_sentinel(len(z), a.dtype)[1:].view(UINT[dtype])).all()


def test_reduce_sum_order_decides_float16_rounding() -> None:
    # 2048 + 1 + 1 in half: the tree adds 1 + 1 first (2050); in order it would stay 2048
    a = np.array([1, 1, 2048], np.float16)
    assert run("reduce_sum", a)[0] == np.float16(2050)
    a = np.array([2048, 1, 1], np.float16)  # (2048 + 1) + 1 ties to even at each step: 2048
    assert run("reduce_sum", a)[0] == np.float16(2048)
    # across repeats the sums are added in order: 128 halves of 1 (128) then one of 0.25: 128.25
    a = np.concatenate([np.ones(128, np.float16), np.array([0.25], np.float16)])
    assert run("reduce_sum", a)[0] == np.float16(128.25)


@pytest.mark.parametrize("dtype", FLT)
def test_reduce_sum_specials(dtype: str) -> None:
    t = NP[dtype]
    z = run("reduce_sum", np.full(64, -0.0, t))
    assert bits(z[0], dtype) == bits(-0.0, dtype)
    assert np.isposinf(run("reduce_sum", np.array([1, np.inf, 2], t))[0])
    assert np.isnan(run("reduce_sum", np.array([np.inf, 1, -np.inf], t))[0])
    assert np.isnan(run("reduce_sum", np.array([1, np.nan, 2], t))[0])
    big = np.finfo(t).max
    with np.errstate(over="ignore"):
        assert np.isposinf(run("reduce_sum", np.array([big, big], t))[0])


@pytest.mark.parametrize("name", ("reduce_max", "reduce_min"))
@pytest.mark.parametrize("dtype", FLT)
@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("cal", (False, True))
def test_reduce_max_min(name: str, dtype: str, n: int, cal: bool) -> None:
    a = values(dtype, n, rng_for(name, dtype, n))
    if n > 3:
        a[n // 2] = a[n - 1] = (a.max() if name == "reduce_max" else a.min())  # equal values: the lowest index
    z = run(name, a, cal)
    i = int(np.argmax(a) if name == "reduce_max" else np.argmin(a))
    assert bits(z[0], dtype) == bits(a[i], dtype)
    sentinel = fill_sentinel(len(z), a.dtype).view(UINT[dtype])
    if cal:
        assert int(z[1:2].view(UINT[dtype])[0]) == i
        assert (z[2:].view(UINT[dtype]) == sentinel[2:]).all()
    else:
        assert (z[1:].view(UINT[dtype]) == sentinel[1:]).all()


@pytest.mark.parametrize("dtype", FLT)
def test_reduce_max_min_specials(dtype: str) -> None:
    t = NP[dtype]
    a = np.array([-0.0, 0.0, -1.0], t)
    z = run("reduce_max", a, True)  # -0 and +0 are equal: the first
    assert bits(z[0], dtype) == bits(-0.0, dtype) and int(z[1:2].view(UINT[dtype])[0]) == 0
    a = np.array([1.0, -np.inf, np.inf, 3.0], t)
    z = run("reduce_max", a, True)
    assert np.isposinf(z[0]) and int(z[1:2].view(UINT[dtype])[0]) == 2
    z = run("reduce_min", a, True)
    assert np.isneginf(z[0]) and int(z[1:2].view(UINT[dtype])[0]) == 1


def test_reduce_max_index_above_one_repeat() -> None:
    a = np.zeros(1000, np.float16)
    a[777] = 5
    z = run("reduce_max", a, True)
    assert z[0] == 5 and int(z[1:2].view(np.uint16)[0]) == 777


@asc.jit
def bad_dtype_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
    asc.reduce_sum(t, t, t, 64)  # bad dtype


@asc.jit
def mixed_dtype_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 512, 64)
    asc.reduce_max(t, t, h, 64)  # mixed


@asc.jit
def bad_cal_index_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    asc.reduce_min(t, t, t, 64, 1)  # int flag


@asc.jit
def level0_kernel(x: asc.GlobalAddress):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    asc.reduce_sum(t, t, t, 64, 256, 8)  # level0


@asc.jit
def zero_count_kernel(x: asc.GlobalAddress, n: int):
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    asc.reduce_max(t, t, t, n)  # zero count


def test_misuse() -> None:
    x = np.zeros(8, np.float32)
    fails_at(bad_dtype_kernel, (x,), "# bad dtype", "asc.reduce_sum", "int32", cls=asc.CompileError)
    fails_at(mixed_dtype_kernel, (x,), "# mixed", "asc.reduce_max", "float16", cls=asc.CompileError)
    fails_at(bad_cal_index_kernel, (x,), "# int flag", "cal_index", cls=asc.CompileError)
    fails_at(level0_kernel, (x,), "# level0", "repeat_time = 256 is out of range", cls=asc.CompileError)
    fails_at(zero_count_kernel, (x, 0), "# zero count", "count 0")


def test_ascendc_spelling() -> None:
    a = np.ones(8, np.float32)
    run("reduce_max", a, True)
    run("reduce_sum", a)
    text = ascendc(KERNELS["reduce_max"])
    assert "AscendC::ReduceMax(" in text, text
    assert "AscendC::ReduceSum(" in ascendc(KERNELS["reduce_sum"])
