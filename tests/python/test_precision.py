"""The platform parameter precision: how the simulator computes the
instructions the hardware only approximates, Rsqrt and Reciprocal.

"exact" (the default) rounds them correctly. "hardware" models the error
the devkit documents for the Ascend910B (基础算术/Rsqrt.md and
Reciprocal.md: half results fail the "dual one-thousandth" criterion and
float results the "dual ten-thousandth" one): the exact result with its
significand rounded to 8 bits after the point for half and 12 for float,
so the relative error reaches 2^-9 (half) and 2^-13 (float) and a test
demanding correct rounding, or the devkit's criterion, fails as it would on
an NPU. Zeros, infinities, NaN and subnormals as the boundary value tables
5 and 7 give them. The setting is a platform parameter
(asc.runtime.config.set_platform(..., precision=...), PYASC_PRECISION),
reaches every launch, applies where the adv APIs issue Reciprocal too, and
is not part of the compile cache key.
"""

import os
import subprocess
import sys
from typing import Any, Iterator

import numpy as np
import pytest
from kernels_util import run_unary

import asc
import asc.runtime.config as config

BOUND = {"float16": 2.0 ** -9, "float32": 2.0 ** -13}  # the model's largest relative error
CRITERION = {"float16": 1e-3, "float32": 1e-4}  # the devkit's dual criterion, which the hardware fails
NP = {"float16": np.float16, "float32": np.float32}
UINT = {"float16": np.uint16, "float32": np.uint32}
OPS = {"rsqrt": (asc.rsqrt, lambda x: 1.0 / np.sqrt(x)), "reciprocal": (asc.reciprocal, lambda x: 1.0 / x)}


@pytest.fixture
def platform() -> Iterator[None]:
    """Restores the backend, platform and precision a test changes."""
    backend, plat, prec = config.current_backend(), config.current_platform(), config.current_precision()
    yield
    config.set_platform(backend, plat, precision=prec)


@pytest.fixture
def hardware(platform: None) -> None:
    config.set_platform(config.Backend.Model, precision="hardware")


def every_value(dtype: str) -> np.ndarray:
    """Every half; for float 2^16 values spread over all exponents and both signs, subnormals included, and
    the special values."""
    if dtype == "float16":
        return np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(17)
    bits = rng.integers(0, 2 ** 32, 65536, dtype=np.uint64).astype(np.uint32)
    v = bits.view(np.float32)
    v[:9] = [0.0, -0.0, np.inf, -np.inf, np.nan, 2.0 ** -149, -(2.0 ** -149), 2.0 ** -130, 3.4028235e38]
    return v


def run(name: str, a: np.ndarray) -> np.ndarray:
    return np.concatenate([run_unary(OPS[name][0], a[i:i + 4096]) for i in range(0, len(a), 4096)])


def exact(name: str, a: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return OPS[name][1](a.astype(np.float64))


def rel_error(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    """|got - want| / |want| where want is a finite normal of dtype (elsewhere 0)."""
    info = np.finfo(NP[dtype])
    ok = np.isfinite(want) & (np.abs(want) >= info.tiny) & (np.abs(want) * (1 + BOUND[dtype]) < info.max)
    with np.errstate(all="ignore"):
        return np.where(ok, np.abs(got.astype(np.float64) - want) / np.where(ok, np.abs(want), 1), 0.0), ok


def check_specials(got: np.ndarray, want: np.ndarray, dtype: str) -> None:
    """NaN where want is NaN; infinities and zeros exact with their sign."""
    g = got.astype(np.float64)
    assert (np.isnan(g) == np.isnan(want)).all()
    spc = np.isinf(want) | (want == 0)
    assert (g[spc] == want[spc]).all() and (np.signbit(g[spc]) == np.signbit(want[spc])).all()


# ---- the numbers ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name", list(OPS))
def test_hardware_error_is_within_and_reaches_the_bound(name: str, dtype: str, hardware: None) -> None:
    a = every_value(dtype)
    got = run(name, a)
    want = exact(name, a)
    check_specials(got, want, dtype)
    rel, counted = rel_error(got, want, dtype)
    info = np.finfo(NP[dtype])
    sub = np.isfinite(want) & (np.abs(want) < info.tiny) & (want != 0)  # subnormal results: half an ulp more
    sub_ulp = float(info.smallest_subnormal)
    assert (np.abs(got[sub].astype(np.float64) - want[sub]) <= BOUND[dtype] * np.abs(want[sub]) + sub_ulp / 2).all()
    assert rel.max() <= BOUND[dtype]
    assert rel.max() > 0.9 * BOUND[dtype]  # a large part of it
    # the devkit's criterion fails: more than 1/1000 (half) or 1/10000 (float) of the elements above 1e-3 / 1e-4
    over = (rel > CRITERION[dtype]).sum()
    assert over > counted.sum() * CRITERION[dtype], (over, counted.sum())
    # a test demanding correct rounding (0.5 ulp) fails on most elements
    with np.errstate(over="ignore"):
        rounded = want.astype(NP[dtype])
    finite = counted
    assert (got[finite] != rounded[finite]).mean() > 0.5


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("name", list(OPS))
def test_exact_is_the_default_and_correctly_rounded(name: str, dtype: str, platform: None) -> None:
    config.set_platform(config.Backend.Model)
    assert config.current_precision() == "exact"
    a = every_value(dtype)
    got = run(name, a)
    with np.errstate(over="ignore"):
        want = exact(name, a).astype(NP[dtype])
    check_specials(got, want.astype(np.float64), dtype)
    fin = np.isfinite(want)
    diff = got[fin] != want[fin]
    if name == "reciprocal":
        assert not diff.any()  # correctly rounded
    else:  # rsqrt goes through double and float: within 1 ulp, nearly always exact
        assert diff.mean() < 0.01
        ulp = np.spacing(np.abs(want[fin])).astype(np.float64)
        assert (np.abs(got[fin].astype(np.float64) - want[fin].astype(np.float64)) <= ulp).all()


def test_boundary_value_tables(hardware: None) -> None:
    """Tables 5 and 7 of 附录/Memory矢量计算接口边界值汇总.md, both types, in hardware mode."""
    f = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4028235e38, -3.4028235e38, -1.0], np.float32)
    r = run("reciprocal", f)
    assert r[0] == np.inf and r[1] == -np.inf and r[2] == 0 and not np.signbit(r[2])
    assert r[3] == 0 and np.signbit(r[3]) and np.isnan(r[4]) and r[7] == -1
    assert np.float32(2.938736e-39) == r[5] and np.float32(-2.938736e-39) == r[6]  # subnormal, kept
    s = run("rsqrt", f)
    assert s[0] == np.inf and s[1] == -np.inf and s[2] == 0 and np.isnan(s[3]) and np.isnan(s[4])
    assert np.isclose(s[5], 5.421011e-20, rtol=1e-6) and np.isnan(s[6]) and np.isnan(s[7])
    h = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504, -65504, 4.0], np.float16)
    r = run("reciprocal", h)
    assert r[0] == np.inf and r[1] == -np.inf and r[2] == 0 and r[3] == 0 and np.signbit(r[3])
    assert np.isnan(r[4]) and abs(float(r[5]) - 0.000015) < 5e-7 and r[6] == -r[5] and r[7] == 0.25
    s = run("rsqrt", h)
    assert s[0] == np.inf and s[1] == -np.inf and s[2] == 0 and np.isnan(s[3]) and np.isnan(s[4])
    assert abs(float(s[5]) - 0.003906) < 1e-6 and np.isnan(s[6]) and s[7] == 0.5


@asc.jit
def _level0_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[int]):
    n = 4096 // x.dtype.sizeof()
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    zl = asc.LocalTensor(z.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(xl, xg, n)
    asc.data_copy(zl, zg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    per = 256 // x.dtype.sizeof()
    if op == 0:
        asc.rsqrt(zl, xl, per, 16, asc.UnaryRepeatParams(1, 1, 8, 8))
    else:
        asc.reciprocal(zl, xl, per // 2, 16, asc.UnaryRepeatParams(1, 1, 8, 8))  # half of each repeat
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, n)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_level0_forms_use_the_mode(dtype: str, platform: None) -> None:
    t = NP[dtype]
    n = 4096 // np.dtype(t).itemsize
    a = np.random.default_rng(3).uniform(0.5, 100.0, n).astype(t)
    per = 256 // np.dtype(t).itemsize
    for op, name in enumerate(OPS):
        outs = {}
        for prec in ("exact", "hardware"):
            config.set_platform(config.Backend.Model, precision=prec)
            z = np.full(n, 7, t)
            _level0_kernel[1](a, z, op)
            outs[prec] = z
        on = np.arange(n) % per < (per if op == 0 else per // 2)  # the mask's elements
        assert (outs["hardware"][~on] == 7).all() and (outs["exact"][~on] == 7).all()
        want = exact(name, a[on])
        assert (outs["exact"][on] != want.astype(t)).mean() < 0.01
        rel, _ = rel_error(outs["hardware"][on], want, dtype)
        assert rel.max() <= BOUND[dtype] and (outs["hardware"][on] != outs["exact"][on]).mean() > 0.5


# ---- where the adv APIs issue Reciprocal -------------------------------------------------------------------

@asc.jit
def _lgamma_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, 3 * 8192)
    xl = buf.get_with_offset(n, 0, x.dtype)
    zl = buf.get_with_offset(n, 8192, z.dtype)
    wl = buf.get_with_offset(8192, 16384, asc.uint8)
    asc.data_copy(xl, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.lgamma(zl, xl, n, temp_buffer=wl)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, zl, n)


def test_adv_lgamma_runs_its_reciprocal_step_in_the_mode(platform: None) -> None:
    """The devkit's Lgamma issues Reciprocal for x >= 5.8 (lgamma_common_basic_impl.h, LGamma58): in hardware
    mode that step is the approximate one, so results there move (slightly: it feeds a small correction)."""
    a = np.linspace(6.0, 20.0, 1024).astype(np.float32)
    outs = {}
    for prec in ("exact", "hardware"):
        config.set_platform(config.Backend.Model, precision=prec)
        z = np.zeros_like(a)
        _lgamma_kernel[1](a, z, len(a))
        outs[prec] = z
    moved = outs["hardware"] != outs["exact"]
    assert moved.sum() > 20, moved.sum()
    assert np.allclose(outs["hardware"], outs["exact"], rtol=1e-5, atol=0)


# ---- the setting ---------------------------------------------------------------------------------------------

def test_set_platform_precision_is_per_platform_and_resets(platform: None) -> None:
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3, precision="hardware")
    assert config.current_precision() == "hardware"
    assert config.current_platform() == config.Platform.Ascend910B3
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3)  # without it: the default again
    assert config.current_precision() == "exact"
    config.set_platform("Model", precision=" Hardware ")  # names are case- and space-insensitive
    assert config.current_precision() == "hardware"


@pytest.mark.parametrize("bad", ["fast", "", 1, 0.5, "hardware-ish"])
def test_a_bad_precision_is_a_clear_error(bad: Any, platform: None) -> None:
    config.set_platform(config.Backend.Model, precision="hardware")
    with pytest.raises(ValueError, match=r"precision must be one of 'exact', 'hardware', got"):
        config.set_platform(config.Backend.Model, precision=bad)
    assert config.current_precision() == "hardware"  # unchanged by the failure


def test_the_environment_variable_sets_the_default(platform: None, monkeypatch: Any) -> None:
    monkeypatch.setenv("PYASC_PRECISION", "hardware")
    config.set_platform(config.Backend.Model)
    assert config.current_precision() == "hardware"
    config.set_platform(config.Backend.Model, precision="exact")  # an explicit value wins
    assert config.current_precision() == "exact"
    monkeypatch.setenv("PYASC_PRECISION", "sloppy")
    with pytest.raises(ValueError, match=r"PYASC_PRECISION must be one of 'exact', 'hardware', got 'sloppy'"):
        config.set_platform(config.Backend.Model)


def _run_script(code: str, env_value: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYASC_PRECISION=env_value)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)


def test_the_environment_variable_reaches_a_whole_script() -> None:
    code = ("import asc.runtime.config as c\n"
            "print(c.current_precision())\n")
    res = _run_script(code, "hardware")
    assert res.returncode == 0 and res.stdout.strip() == "hardware", res.stderr
    res = _run_script(code, "bogus")
    assert res.returncode != 0 and "PYASC_PRECISION must be one of 'exact', 'hardware', got 'bogus'" in res.stderr


def test_precision_is_not_part_of_the_compile_cache_key(platform: None) -> None:
    @asc.jit
    def recip(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
        xg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x)
        zg.set_global_buffer(z)
        xl = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)
        zl = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)
        asc.data_copy(xl, xg, 64)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.reciprocal(zl, xl, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(zg, zl, 64)

    a = np.linspace(1.0, 3.0, 64).astype(np.float32)
    results = []
    for prec in ("exact", "hardware", "exact", "hardware"):  # the second round goes through the fast path
        config.set_platform(config.Backend.Model, precision=prec)
        z = np.zeros_like(a)
        recip[1](a, z, 64)
        results.append(z)
    assert len(recip.cache) == 1
    assert (results[0] == (1.0 / a.astype(np.float64)).astype(np.float32)).all()
    assert (results[1] != results[0]).any()
    np.testing.assert_array_equal(results[2], results[0])
    np.testing.assert_array_equal(results[3], results[1])


def test_npu_backend_takes_the_parameter_too(platform: None, monkeypatch: Any) -> None:
    """Backend.NPU computes as the hardware does; the parameter is still validated first."""
    monkeypatch.delenv("PYASC_COMPILER", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ValueError, match="precision must be one of"):
        config.set_platform(config.Backend.NPU, precision="approximate")
    with pytest.raises(RuntimeError, match="CANN toolkit"):
        config.set_platform(config.Backend.NPU, precision="hardware")

