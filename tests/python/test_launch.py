"""Launching kernels: the launch syntax, argument conversion (NumPy arrays
and scalars, Python numbers, torch CPU tensors), @asc.jit options,
platform selection, the compile cache, and blocks on worker threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import asc
import asc.lib.runtime as rt
from asc.runtime import config


@asc.jit
def write3_kernel(out: asc.GlobalAddress, a, b, c):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, a)
    g.set_value(1, b)
    g.set_value(2, c)


@asc.jit
def typed_kernel(out: asc.GlobalAddress, i: int, f: float, flag: bool):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, i)
    g.set_value(1, f)
    g.set_value(2, flag)


@asc.jit
def block_kernel(out: asc.GlobalAddress, per_block: int):
    g = asc.GlobalTensor()
    b = asc.get_block_idx()
    g.set_global_buffer(out + b * per_block, per_block)
    for i in range(per_block):
        g.set_value(i, b * 1000 + i)
    g.set_value(0, asc.get_block_num())


# ---------------------------------------------------------------------------
# launch syntax
# ---------------------------------------------------------------------------

def test_launch_with_stream_and_without() -> None:
    out = np.zeros(8, np.int32)
    write3_kernel[1, rt.current_stream()](out, 1, 2, 3)
    assert out[:3].tolist() == [1, 2, 3]
    out = np.zeros(8, np.int32)
    write3_kernel[1](out, 4, 5, 6)
    assert out[:3].tolist() == [4, 5, 6]
    out = np.zeros(8, np.int32)
    write3_kernel[1, None](out, 7, 8, 9)
    assert out[:3].tolist() == [7, 8, 9]
    assert len(write3_kernel.cache) == 1  # the stream is not part of the specialisation


def test_launch_with_keyword_arguments_and_defaults() -> None:
    @asc.jit
    def defaults_kernel(out: asc.GlobalAddress, a: int, b: int = 40, scale: asc.ConstExpr[int] = 2):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, (a + b) * scale)

    out = np.zeros(8, np.int32)
    defaults_kernel[1](out, 2)
    assert out[0] == 84
    defaults_kernel[1](out=out, b=1, a=2, scale=10)
    assert out[0] == 30


def test_numpy_integer_core_num() -> None:
    out = np.full(4 * 16, -1, np.int32)  # a 64-byte data cache line per block (docs/sanitizer.md)
    block_kernel[np.int64(4)](out, 16)
    assert (out.reshape(4, 16)[:, 0] == 4).all()


@pytest.mark.parametrize("grid", [0, -1, 1.5, True, "2", np.int32(0), np.bool_(True)])
def test_bad_core_num(grid: Any) -> None:
    with pytest.raises(ValueError, match="core_num must be a positive integer"):
        write3_kernel[grid]


def test_bad_grid_shape() -> None:
    with pytest.raises(TypeError, match=r"kernel\[core_num\]"):
        write3_kernel[1, None, 3]


def test_calling_a_kernel_directly() -> None:
    with pytest.raises(TypeError, match=r"launch it as write3_kernel\[core_num\]"):
        write3_kernel(np.zeros(8, np.int32), 1, 2, 3)


def test_wrong_number_of_arguments() -> None:
    with pytest.raises(TypeError, match="write3_kernel: missing a required argument: 'c'"):
        write3_kernel[1](np.zeros(8, np.int32), 1, 2)
    with pytest.raises(TypeError, match="write3_kernel: too many positional arguments"):
        write3_kernel[1](np.zeros(8, np.int32), 1, 2, 3, 4)
    with pytest.raises(TypeError, match="unexpected keyword argument 'd'"):
        write3_kernel[1](np.zeros(8, np.int32), 1, 2, 3, d=4)


def test_blocks_run_on_worker_threads() -> None:
    per_block = 16
    out = np.full(8 * per_block, -1, np.int32)
    block_kernel[8](out, per_block)
    for b in range(8):
        part = out[b * per_block:(b + 1) * per_block]
        assert part[0] == 8
        assert part[1:].tolist() == [b * 1000 + i for i in range(1, per_block)]


def test_more_blocks_than_host_cores() -> None:
    per_block = 16  # a 64-byte data cache line per block (docs/sanitizer.md)
    n = 64
    out = np.full(n * per_block, -1, np.int32)
    block_kernel[n](out, per_block)
    assert (out.reshape(n, per_block)[:, 0] == n).all()
    assert (out.reshape(n, per_block)[:, 1] == np.arange(n) * 1000 + 1).all()


def test_concurrent_compilation_from_threads() -> None:
    """Kernels compiled from several host threads at once do not mix their IR."""
    import sys
    import threading

    def make(factor: int) -> Any:
        @asc.jit
        def threaded(out: asc.GlobalAddress, n: int):
            g = asc.GlobalTensor()
            g.set_global_buffer(out)
            s = 0
            for j in range(n):
                s += j * factor
            # one element per block, a 64-byte data cache line apart: blocks must not write the same line
            g.set_value(asc.get_block_idx() * 16, s)

        return threaded

    errors: list = []

    def work(factor: int) -> None:
        try:
            for _ in range(4):
                out = np.zeros(32, np.int32)
                make(factor)[2](out, 10)
                assert out[0] == out[16] == 45 * factor
        except Exception as e:  # collected and reported by the main thread
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=work, args=(f,)) for f in range(1, 7)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors


# ---------------------------------------------------------------------------
# argument conversion
# ---------------------------------------------------------------------------

NUMPY_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.float16,
                np.float32, np.float64, np.bool_]


@pytest.mark.parametrize("np_dtype", NUMPY_DTYPES, ids=[np.dtype(d).name for d in NUMPY_DTYPES])
def test_numpy_arrays_of_each_dtype(np_dtype: Any) -> None:
    out = np.zeros(16, np_dtype)
    write3_kernel[1](out, 1, 0, 3)
    assert out[:4].tolist() == np.array([1, 0, 3, 0]).astype(np_dtype).tolist()
    assert (out[3:] == 0).all()


def test_numpy_array_dtype_is_part_of_the_specialisation() -> None:
    @asc.jit
    def size_kernel(out: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, out.dtype.sizeof())

    for d in (np.int8, np.int32, np.float64):
        out = np.zeros(8, d)
        size_kernel[1](out)
        assert out[0] == np.dtype(d).itemsize
    assert len(size_kernel.cache) == 3
    size_kernel[1](np.zeros(8, np.int32))
    assert len(size_kernel.cache) == 3


def test_multidimensional_array() -> None:
    out = np.zeros((4, 4), np.int32)
    write3_kernel[1](out, 1, 2, 3)
    assert out[0, :3].tolist() == [1, 2, 3]


def test_numpy_scalars() -> None:
    out = np.zeros(8, np.float32)
    write3_kernel[1](out, np.int32(3), np.float32(1.5), np.bool_(True))
    assert out[:3].tolist() == [3.0, 1.5, 1.0]
    write3_kernel[1](out, np.int64(-7), np.float64(0.25), np.uint8(9))
    assert out[:3].tolist() == [-7.0, 0.25, 9.0]


def test_python_bool_int_float() -> None:
    out = np.zeros(8, np.float32)
    write3_kernel[1](out, True, 7, 2.5)
    assert out[:3].tolist() == [1.0, 7.0, 2.5]
    ir = list(write3_kernel.cache.values())[-1].ir
    assert "%a: i1" in ir and "%b: i32" in ir and "%c: f32" in ir


def test_annotated_scalar_parameters() -> None:
    out = np.zeros(8, np.float32)
    typed_kernel[1](out, 4, 2, True)  # an int for a float parameter is converted
    assert out[:3].tolist() == [4.0, 2.0, 1.0]
    with pytest.raises(TypeError, match="argument `i` is annotated int but got float"):
        typed_kernel[1](out, 1.5, 2.0, True)
    with pytest.raises(TypeError, match="argument `flag` is annotated bool but got int"):
        typed_kernel[1](out, 1, 2.0, 1)
    with pytest.raises(TypeError, match="argument `i` is annotated int but got an array"):
        typed_kernel[1](out, np.zeros(4, np.int32), 2.0, True)
    with pytest.raises(TypeError, match="argument `out` is annotated asc.GlobalAddress: pass a NumPy array"):
        typed_kernel[1](5, 1, 2.0, True)


@pytest.mark.parametrize("value", [2 ** 31, -(2 ** 31) - 1, np.int64(2 ** 40), 10 ** 20])
def test_int_out_of_int32_range(value: Any) -> None:
    with pytest.raises(OverflowError, match="argument `a`.*does not fit.*int32"):
        write3_kernel[1](np.zeros(8, np.int32), value, 0, 0)


def test_int32_range_limits() -> None:
    out = np.zeros(8, np.int64)
    write3_kernel[1](out, 2 ** 31 - 1, -(2 ** 31), 0)
    assert out[:2].tolist() == [2 ** 31 - 1, -(2 ** 31)]


@pytest.mark.parametrize("make", [
    lambda: np.zeros(32, np.int32)[::2],
    lambda: np.zeros((8, 8), np.int32).T,
    lambda: np.zeros((8, 8), np.int32)[:, 1:3],
], ids=["strided", "transposed", "column-slice"])
def test_non_contiguous_array(make: Any) -> None:
    arr = make()
    with pytest.raises(ValueError, match=r"argument `out` is not C-contiguous; pass np.ascontiguousarray\(out\)"):
        write3_kernel[1](arr, 1, 2, 3)
    assert not arr.any()


def test_contiguous_slice_view_is_used_in_place() -> None:
    big = np.zeros(32, np.int32)
    write3_kernel[1](big[10:20], 1, 2, 3)
    assert big[10:13].tolist() == [1, 2, 3]
    assert not big[:10].any() and not big[13:].any()


def test_unsupported_arguments() -> None:
    with pytest.raises(TypeError, match="NumPy dtype complex64 is not supported"):
        write3_kernel[1](np.zeros(8, np.complex64), 1, 2, 3)
    with pytest.raises(TypeError, match="argument `a` must be a number, got str"):
        write3_kernel[1](np.zeros(8, np.int32), "1", 2, 3)
    with pytest.raises(TypeError, match="argument `b` must be a number, got list"):
        write3_kernel[1](np.zeros(8, np.int32), 1, [2], 3)
    with pytest.raises(TypeError, match="argument `m` is asc.ConstExpr and cannot be an array"):
        const_kernel[1](np.zeros(8, np.int32), np.zeros(2))


@asc.jit
def const_kernel(out: asc.GlobalAddress, m: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, m)


def test_numpy_scalar_constexpr_is_a_python_value() -> None:
    out = np.zeros(8, np.int32)
    const_kernel[1](out, np.int64(12))
    const_kernel[1](out, 12)
    assert out[0] == 12
    assert len(const_kernel.cache) == 1


def test_read_only_array_written_by_the_kernel() -> None:
    out = np.arange(8, dtype=np.int32)
    out.flags.writeable = False
    with pytest.raises(asc.KernelError) as info:
        write3_kernel[1](out, 1, 2, 3)
    err = info.value
    assert "read-only" in err.message
    assert err.api == "GlobalTensor.set_value" and err.block == 0 and err.kernel == "write3_kernel"
    assert out.tolist() == list(range(8))


@asc.jit
def read_kernel(src: asc.GlobalAddress, dst: asc.GlobalAddress):
    s = asc.GlobalTensor()
    d = asc.GlobalTensor()
    s.set_global_buffer(src)
    d.set_global_buffer(dst)
    d.set_value(0, s.get_value(3) * 2)


def test_read_only_array_that_is_only_read() -> None:
    src = np.arange(8, dtype=np.int32)
    src.flags.writeable = False
    dst = np.zeros(8, np.int32)
    read_kernel[1](src, dst)
    assert dst[0] == 6


# ---------------------------------------------------------------------------
# torch CPU tensors (only when torch is installed; the package does not need it)
# ---------------------------------------------------------------------------

TORCH_DTYPES = ["float32", "float16", "bfloat16", "int32", "int16", "int8", "uint8", "int64", "float64", "bool"]


@pytest.mark.parametrize("name", TORCH_DTYPES)
def test_torch_tensors(name: str) -> None:
    torch = pytest.importorskip("torch")
    t = torch.zeros(16, dtype=getattr(torch, name))
    write3_kernel[1](t, 1, 0, 1)
    assert t[:4].tolist() == torch.tensor([1, 0, 1, 0]).to(getattr(torch, name)).tolist()


def test_torch_tensor_is_used_in_place_and_float_values() -> None:
    torch = pytest.importorskip("torch")
    base = torch.zeros(32, dtype=torch.float32)
    view = base[8:24]
    write3_kernel[1](view, 1.5, -2.25, 3)
    assert base[8:11].tolist() == [1.5, -2.25, 3.0]
    assert base[:8].abs().sum().item() == 0 and base[11:].abs().sum().item() == 0


def test_torch_add_kernel_matches_torch() -> None:
    torch = pytest.importorskip("torch")

    @asc.jit
    def vadd(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
        xg = asc.GlobalTensor()
        yg = asc.GlobalTensor()
        zg = asc.GlobalTensor()
        xg.set_global_buffer(x)
        yg.set_global_buffer(y)
        zg.set_global_buffer(z)
        xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
        yl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 4096, n)
        zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
        asc.data_copy(xl, xg, n)
        asc.data_copy(yl, yg, n)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.add(zl, xl, yl, n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(zg, zl, n)

    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float16, torch.int32):
        x = (torch.rand(256, generator=gen) * 100).to(dtype)
        y = (torch.rand(256, generator=gen) * 100).to(dtype)
        z = torch.zeros(256, dtype=dtype)
        vadd[1](x, y, z, 256)
        assert torch.equal(z, x + y), dtype


def test_torch_non_contiguous_and_unsupported() -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError, match=r"argument `out` is not contiguous; pass out.contiguous\(\)"):
        write3_kernel[1](torch.zeros(8, 8).t(), 1, 2, 3)
    with pytest.raises(TypeError, match="torch dtype torch.complex64 is not supported"):
        write3_kernel[1](torch.zeros(8, dtype=torch.complex64), 1, 2, 3)


def test_numpy_path_does_not_import_torch(tmp_path: Any) -> None:
    """The launcher recognises torch tensors without importing torch."""
    import subprocess
    import sys

    code = ("import sys, numpy as np, asc\n"
            "@asc.jit\n"
            "def k(out: asc.GlobalAddress):\n"
            "    g = asc.GlobalTensor()\n"
            "    g.set_global_buffer(out)\n"
            "    g.set_value(0, 5)\n"
            "out = np.zeros(8, np.int32)\n"
            "k[1](out)\n"
            "assert out[0] == 5\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n")
    path = tmp_path / "no_torch_probe.py"  # a file: kernels need their source
    path.write_text(code)
    res = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


# ---------------------------------------------------------------------------
# platform and backend
# ---------------------------------------------------------------------------

@pytest.fixture
def restore_platform() -> Any:
    backend, platform = config.current_backend(), config.current_platform()
    yield
    config.set_platform(backend, platform)


C220 = [p for p in config.Platform if config.platform_to_arch(p) == config.CompilationArch.C220]
C310 = [p for p in config.Platform if config.platform_to_arch(p) == config.CompilationArch.C310]


@pytest.mark.parametrize("platform", C220, ids=[p.name for p in C220])
def test_set_platform_model(platform: Any, restore_platform: Any) -> None:
    config.set_platform(config.Backend.Model, platform)
    assert config.current_backend() == config.Backend.Model
    assert config.current_platform() == platform
    out = np.zeros(8, np.int32)
    write3_kernel[1](out, 1, 2, 3)
    assert out[:3].tolist() == [1, 2, 3]


# ---- PyAsc2's additions: the Ascend950 (C310) platforms, CompilationArch, platform_to_arch ----

PYASC2_C310 = ["Ascend910_9579", "Ascend910_9589", "Ascend910_9599", "Ascend950PR_950z", "Ascend950PR_9579",
               "Ascend950PR_957b", "Ascend950PR_957c", "Ascend950PR_957d", "Ascend950PR_9589", "Ascend950PR_958b",
               "Ascend950PR_9599"]


def test_platform_members_and_arch() -> None:
    # every member PyAsc2 spells, value == name, and the old ones unchanged
    for name in PYASC2_C310:
        assert config.Platform[name].value == name
    assert config.Platform.Ascend910B4_1.value == "Ascend910B4-1"
    assert [p.value for p in C310] == PYASC2_C310
    assert len(C220) == 12 and len(C220) + len(C310) == len(config.Platform)
    assert [a.name for a in config.CompilationArch] == ["C220", "C310"]
    assert config.CompilationArch("c310") is config.CompilationArch.C310
    assert str(config.CompilationArch.C220) == "c220" and f"{config.CompilationArch.C310}" == "c310"
    # the mapping: by member, by value, 910B and 910_93 C220, 910_95 and 950PR C310
    assert config.platform_to_arch(config.Platform.Ascend950PR_9599) is config.CompilationArch.C310
    assert config.platform_to_arch("Ascend910_9589") is config.CompilationArch.C310
    assert config.platform_to_arch("Ascend910B4-1") is config.CompilationArch.C220
    assert config.platform_to_arch(config.Platform.Ascend910_9392) is config.CompilationArch.C220
    with pytest.raises(ValueError):
        config.platform_to_arch("Ascend310P")


def test_c310_platform_table_rows() -> None:
    # the capacities of NPU arch 3510 (the devkit's 架构规格/NPU架构版本3510.md), next to 2201's
    for name in PYASC2_C310:
        row = asc._C.platform(name)
        assert (row["ub_size"], row["l1_size"], row["l0c_size"]) == (256 * 1024, 512 * 1024, 256 * 1024)
        assert row["ub_size"] - row["ub_asc_reserved"] - row["ub_api_reserved"] == 248 * 1024  # ASC_UB_SIZE
        assert (row["l1_reserved"], row["l1_asc_reserved"]) == (0, 0)  # ASC_L1_SIZE = 512 KiB
        assert (row["vector_cores"], row["cube_cores"]) == (48, 24)
    b1 = asc._C.platform("Ascend910B1")
    assert (b1["ub_size"], b1["l0c_size"]) == (192 * 1024, 128 * 1024)


@pytest.mark.parametrize("platform", C310, ids=[p.name for p in C310])
def test_set_platform_model_refuses_c310(platform: Any, restore_platform: Any) -> None:
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3)
    with pytest.raises(NotImplementedError, match=rf"set_platform: platform {platform.value} \(compilation arch "
                       r"C310, NPU arch 3510\).*models NPU arch 2201 \(C220\) only"):
        config.set_platform(config.Backend.Model, platform, check=False)
    with pytest.raises(NotImplementedError, match="Ascend910B1"):  # says what to use instead
        config.set_platform("Model", platform.value)
    assert config.current_platform() == config.Platform.Ascend910B3  # unchanged by the refusal
    assert config.current_backend() == config.Backend.Model


def test_set_platform_npu_refuses_c310(restore_platform: Any) -> None:
    """Our Ascend C and its compile commands are dav-c220's: a C310 platform on Backend.NPU is refused at the
    selection (before the toolkit is looked for), the selection unchanged."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3)
    with pytest.raises(NotImplementedError, match=r"platform Ascend950PR_9599 \(compilation arch C310, NPU arch "
                       r"3510\) is not supported on Backend.NPU.*Ascend910B1"):
        config.set_platform(config.Backend.NPU, config.Platform.Ascend950PR_9599)
    assert config.current_platform() == config.Platform.Ascend910B3
    assert config.current_backend() == config.Backend.Model


def test_c310_launch_and_host_tiling_refuse(restore_platform: Any) -> None:
    # a C310 platform forced past set_platform: the launch itself refuses, the output untouched
    out = np.full(8, 7, np.int32)
    write3_kernel[1](out, 1, 2, 3)  # compiled and run on the current (C220) platform
    rt.set_soc_version(config.Platform.Ascend950PR_9599)
    try:
        out[:] = 7
        with pytest.raises(asc.KernelError, match=r"Ascend950PR_9599 is NPU arch 3510 \(C310\).*2201"):
            write3_kernel[1](out, 4, 5, 6)
        assert out.tolist() == [7] * 8
    finally:
        rt.set_soc_version(config.Platform.Ascend910B1)
    from asc.lib.host import PlatformAscendC

    with pytest.raises(NotImplementedError, match=r"PlatformAscendC: platform Ascend950PR_958b \(compilation arch C310"):
        PlatformAscendC("Ascend950PR_958b")
    assert PlatformAscendC("Ascend910B2").get_core_num() == 48


def test_set_platform_default_and_strings(restore_platform: Any) -> None:
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3)
    config.set_platform("Model")
    assert config.current_platform() == config.Platform.Ascend910B1
    config.set_platform("Model", "Ascend910B4-1")
    assert config.current_platform() == config.Platform.Ascend910B4_1
    with pytest.raises(ValueError):
        config.set_platform("Simulator")
    with pytest.raises(ValueError):
        config.set_platform(config.Backend.Model, "Ascend310P")


def test_npu_backend_without_toolkit(monkeypatch: Any, restore_platform: Any) -> None:
    monkeypatch.delenv("PYASC_COMPILER", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(RuntimeError, match="CANN toolkit.*bisheng"):
        config.set_platform(config.Backend.NPU)
    assert config.current_backend() == config.Backend.Model  # unchanged by the failure
    out = np.zeros(8, np.int32)
    write3_kernel[1](out, 1, 2, 3)  # still runs on the model
    assert out[0] == 1


def test_npu_backend_with_a_bad_compiler_path(monkeypatch: Any, restore_platform: Any) -> None:
    monkeypatch.setenv("PYASC_COMPILER", "/nonexistent/bisheng")
    with pytest.raises(RuntimeError, match="PYASC_COMPILER"):
        config.set_platform(config.Backend.NPU, config.Platform.Ascend910B1)
    assert config.current_backend() == config.Backend.Model


def test_enums() -> None:
    assert [b.value for b in config.Backend] == ["Model", "NPU"]
    assert asc.Backend is config.Backend and asc.Platform is config.Platform and asc.KernelType is config.KernelType
    assert config.Platform.Ascend910B1.value == "Ascend910B1"
    assert config.Platform.Ascend910B4_1.value == "Ascend910B4-1"
    assert config.Platform("Ascend910_9392") is config.Platform.Ascend910_9392
    assert len(config.Platform) == 23  # 12 C220, 11 C310 (PyAsc2)
    assert [(k.name, k.value) for k in config.KernelType] == [
        ("AIV_ONLY", 0), ("AIC_ONLY", 1), ("MIX_AIV_HARD_SYNC", 2), ("MIX_AIC_HARD_SYNC", 3), ("MIX_AIV_1_0", 4),
        ("MIX_AIC_1_0", 5), ("MIX_AIC_1_1", 6), ("MIX_AIC_1_2", 7)]


def test_platform_is_part_of_the_cache_key(restore_platform: Any) -> None:
    @asc.jit
    def plat_kernel(out: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, 1)

    out = np.zeros(8, np.int32)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    plat_kernel[1](out)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B3)
    plat_kernel[1](out)
    assert len(plat_kernel.cache) == 2


# ---------------------------------------------------------------------------
# @asc.jit options
# ---------------------------------------------------------------------------

def _plain(out: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(out)
    g.set_value(0, n)


def test_valid_options(tmp_path: Any) -> None:
    log = str(tmp_path / "sync.log")
    k = asc.jit(kernel_type=config.KernelType.AIV_ONLY, opt_level=2, auto_sync=True, auto_sync_log=log,
                matmul_cube_only=False, always_compile=False, debug=True, insert_sync=True, verify_sync=False)(_plain)
    assert isinstance(k, asc.JITFunction)
    assert k.options["opt_level"] == 2 and k.options["kernel_type"] == config.KernelType.AIV_ONLY
    out = np.zeros(8, np.int32)
    k[1](out, 5)
    assert out[0] == 5
    assert asc.jit()(_plain).options["opt_level"] == 3


def test_unknown_option() -> None:
    with pytest.raises(TypeError, match="unknown @asc.jit option `optimise`; known options: always_compile"):
        asc.jit(optimise=True)


def test_option_clashing_with_a_parameter() -> None:
    def kernel(out: asc.GlobalAddress, debug: int):
        pass

    with pytest.raises(TypeError, match="option `debug` has the name of a kernel parameter"):
        asc.jit(debug=True)(kernel)


@pytest.mark.parametrize("options,error,message", [
    ({"opt_level": 7}, ValueError, "opt_level must be 0, 1, 2 or 3, got 7"),
    ({"opt_level": True}, ValueError, "opt_level"),
    ({"opt_level": "3"}, ValueError, "opt_level"),
    ({"kernel_type": "AIV_ONLY"}, TypeError, "kernel_type must be an asc.runtime.config.KernelType"),
    ({"always_compile": 1}, TypeError, "option `always_compile` must be True or False"),
    ({"debug": "yes"}, TypeError, "option `debug` must be True or False"),
    ({"auto_sync_log": 3}, TypeError, "auto_sync_log must be a file path string"),
])
def test_invalid_option_values(options: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        asc.jit(**options)
    with pytest.raises(error, match=message):
        write3_kernel[1](np.zeros(8, np.int32), 1, 2, 3, **options)


def test_jit_with_positional_function_and_options() -> None:
    with pytest.raises(TypeError, match="keyword options only"):
        asc.jit(_plain, debug=True)


def test_jit_rejects_non_functions_and_star_parameters() -> None:
    with pytest.raises(TypeError, match="decorates functions"):
        asc.jit(object())

    def star(out, *args):
        pass

    with pytest.raises(TypeError, match=r"\*args and \*\*kwargs parameters are not supported"):
        asc.jit(star)


def test_per_call_always_compile_recompiles() -> None:
    k = asc.jit(_plain)
    out = np.zeros(8, np.int32)
    k[1](out, 1)
    first = list(k.cache.values())[0]
    k[1](out, 2)
    assert list(k.cache.values())[0] is first  # cached
    k[1](out, 3, always_compile=True)
    second = list(k.cache.values())[0]
    assert second is not first and out[0] == 3
    k[1](out, 4)
    assert list(k.cache.values())[0] is second and out[0] == 4


def test_decorator_always_compile_recompiles_every_launch() -> None:
    k = asc.jit(always_compile=True)(_plain)
    out = np.zeros(8, np.int32)
    k[1](out, 1)
    first = list(k.cache.values())[0]
    k[1](out, 2)
    assert list(k.cache.values())[0] is not first and out[0] == 2
    k[1](out, 3, always_compile=False)  # a per-call option overrides the decorator's
    assert out[0] == 3


def test_per_call_keyword_that_is_a_kernel_parameter_goes_to_the_kernel() -> None:
    """A kernel may have a parameter named like an option it does not set: a keyword of that
    name at launch is the kernel argument, not an option."""

    @asc.jit
    def debug_param(out: asc.GlobalAddress, debug: int):
        g = asc.GlobalTensor()
        g.set_global_buffer(out)
        g.set_value(0, debug)

    out = np.zeros(8, np.int32)
    debug_param[1](out, debug=9)
    assert out[0] == 9


def test_kernel_name_and_repr() -> None:
    assert write3_kernel.__name__ == "write3_kernel"
    assert repr(write3_kernel) == "<asc.jit write3_kernel>"
    assert write3_kernel.__wrapped__.__name__ == "write3_kernel"


def test_compiled_kernel_exposes_its_ir() -> None:
    out = np.zeros(8, np.int32)
    write3_kernel[1](out, 1, 2, 3)
    compiled = list(write3_kernel.cache.values())[0]
    assert compiled.name == "write3_kernel"
    assert compiled.ir.startswith("module @write3_kernel")
    assert "asc.global_tensor.set_value" in compiled.ir_text()
