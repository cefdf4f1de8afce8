"""Backend.NPU's launch (python/asc/runtime/launcher.py `_run_on_npu`, src/npu/runtime.c) and asc.lib.runtime,
without an NPU: the fake bisheng / ld.lld of test_npu_compile.py build the "binary", and a stand-in CANN
runtime written in C (npu_stub/stub_runtime.c, compiled by the `npu_stub_library` fixture and loaded through
PYASC_NPU_RUNTIME) records every call with its arguments, keeps "device" memory in host memory (refusing
addresses that are not device memory) and, for the kernel named npu_double, doubles a float buffer so that
results flow back. What only a real NPU confirms is listed in docs/tools.md."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import numpy as np
import pytest
from test_npu_compile import ASC_DIRS, Toolkit

import asc
import asc.runtime.config as config
from asc import _C
from asc.language.core.dtype import KnownTypes as KTy
from asc.language.core.struct import Field, Struct
from asc.lib import runtime as rt
from asc.lib.runtime import state
from asc.runtime.npu import ToolkitMissing

KT = config.KernelType
MAGIC_AICORE, MAGIC_AIVEC, MAGIC_AICUBE = 0x43554245, 0x41415246, 0x41494343
FFTS_ADDR = 0xFF7700001000  # what the stand-in's rtGetC2cCtrlAddr returns
H2D, D2H = 1, 2


class Npu:
    def __init__(self, tk: Toolkit, log: Path, lib: Any):
        self.tk = tk
        self.log = log
        self.lib = lib

    def calls(self, *names: str) -> List[Dict[str, Any]]:
        """The calls made (named ones), those that failed by injection (STUB_FAIL) included."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        out = [json.loads(line) for line in lines]
        return [c for c in out if not names or c["call"] in names]

    def done(self, *names: str) -> List[Dict[str, Any]]:
        """The calls that did their work."""
        return [c for c in self.calls(*names) if "injected" not in c]

    def names(self) -> List[str]:
        """The runtime calls made (aclInit comes once per process, with the first test that loads the runtime:
        test_acl_is_initialised_once_and_finalised_at_exit checks it)."""
        return [c["call"] for c in self.calls() if c["call"] != "aclInit"]

    def live_blocks(self) -> int:
        return int(self.lib.stub_live_blocks())


def _reset_runtime_state() -> None:
    state.device_id = None
    rt._npu_device = None
    rt._streams.clear()


@pytest.fixture
def npu(npu_stub_library: Path, npu_stub_dump_library: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> Iterator[Npu]:
    tk = Toolkit(tmp_path)
    tk.make_dirs(*ASC_DIRS)
    monkeypatch.setenv("PYASC_COMPILER", str(tk.bisheng))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tk.home))
    for name in ("PYASC_LINKER", "PYASC_DUMP_PATH", "FAKE_FAIL", "STUB_FAIL", "ASCENDC_DUMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYASC_NPU_RUNTIME", str(npu_stub_library))
    monkeypatch.setenv("PYASC_NPU_DUMP_LIB", str(npu_stub_dump_library))
    log = tmp_path / "runtime.jsonl"
    monkeypatch.setenv("STUB_LOG", str(log))
    lib = ctypes.CDLL(str(npu_stub_library))  # the same library the runtime loader opens
    lib.stub_reset()
    _reset_runtime_state()
    config.set_platform(config.Backend.NPU, config.Platform.Ascend910B3)
    try:
        yield Npu(tk, log, lib)
    finally:
        config.set_platform(config.Backend.Model)
        _reset_runtime_state()
        lib.stub_reset()


@asc.jit
def npu_double(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, g.get_value(0))


class Tiling(Struct):
    total = Field(KTy.int32, default=0)
    scale = Field(KTy.float32, default=0.0)
    offset = Field(KTy.int64, default=0)


@asc.jit
def npu_packed(x: asc.GlobalAddress, n: int, scale: float, flag: bool, c: asc.ConstExpr[int],
               y: asc.GlobalAddress, t: Tiling):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, n + c)


@asc.jit
def npu_plain(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, 1)


def _ptr(hexargs: str, offset: int) -> int:
    return int(struct.unpack_from("<Q", bytes.fromhex(hexargs), offset)[0])


# ---- the whole path ------------------------------------------------------------------------------------


def test_launch_runs_the_kernel_and_copies_the_result_back(npu: Npu) -> None:
    x = np.arange(8, dtype=np.float32)
    npu_double[1](x, 8)
    np.testing.assert_array_equal(x, 2 * np.arange(8, dtype=np.float32))  # the stand-in's kernel doubled it
    assert npu.names() == ["rtSetDevice", "rtStreamCreate", "rtDevBinaryRegister", "rtFunctionRegister",
                           "rtMalloc", "rtMemcpy", "rtKernelLaunch", "rtStreamSynchronize", "rtMemcpy", "rtFree",
                           "rtDevBinaryUnRegister"]
    c = {c["call"]: c for c in npu.calls()}
    assert c["rtSetDevice"]["device"] == 0
    stream = c["rtStreamCreate"]["stream"]
    assert c["rtStreamCreate"]["priority"] == 0
    # the linked binary (the fake linker's output) as a vector-core ELF
    reg = c["rtDevBinaryRegister"]
    assert (reg["magic"], reg["version"], reg["head"]) == (MAGIC_AIVEC, 0, "object --cce-aic")
    assert reg["length"] == len(b"object --cce-aicore-arch=dav-c220-vec")
    assert c["rtFunctionRegister"]["name"] == "npu_double" and c["rtFunctionRegister"]["info_is_name"] == 1
    assert c["rtFunctionRegister"]["mode"] == 0
    malloc = c["rtMalloc"]
    assert (malloc["size"], malloc["type"], malloc["module"]) == (32, 2, 33)  # HBM
    to_dev, back = npu.calls("rtMemcpy")
    assert (to_dev["dst"], to_dev["count"], to_dev["kind"]) == (malloc["ptr"], 32, H2D)
    assert bytes.fromhex(to_dev["data"]) == np.arange(8, dtype=np.float32).tobytes()
    assert (back["src"], back["count"], back["kind"], back["dst"]) == (malloc["ptr"], 32, D2H, x.ctypes.data)
    launch = c["rtKernelLaunch"]
    assert (launch["name"], launch["blocks"], launch["stream"], launch["sm_null"]) == ("npu_double", 1, stream, 1)
    assert bytes.fromhex(launch["args"]) == struct.pack("<Qi4x", malloc["ptr"], 8)
    assert c["rtStreamSynchronize"]["stream"] == stream
    assert c["rtFree"]["ptr"] == malloc["ptr"] and npu.live_blocks() == 0


def test_second_launch_reuses_device_stream_and_binary(npu: Npu) -> None:
    @asc.jit
    def npu_double(x: asc.GlobalAddress, n: int):  # a kernel of its own: compiled (and built) in this test
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        g.set_value(1, g.get_value(1))

    x = np.ones(8, dtype=np.float32)
    npu_double[4](x, 8)
    npu_double[4](x, 8)
    np.testing.assert_array_equal(x, np.full(8, 4, np.float32))
    names = npu.names()
    assert names.count("rtSetDevice") == 1 and names.count("rtStreamCreate") == 1
    assert names.count("rtKernelLaunch") == 2 and [c["blocks"] for c in npu.calls("rtKernelLaunch")] == [4, 4]
    # the binary is built once per compiled kernel: one compile and one link
    assert [c[0] for c in npu.tk.calls()] == ["bisheng", "ld.lld"]


def test_argument_packing(npu: Npu) -> None:
    x = np.zeros(8, np.int32)
    y = np.arange(6, dtype=np.int16)
    t = Tiling(total=96, scale=0.25, offset=-5)
    npu_packed[2](x, -7, 1.5, True, 3, y, t)
    # the kernel signature the block must match (the ConstExpr is compiled in: no parameter)
    source = Path(npu.tk.calls()[0][5]).read_text()
    assert 'extern "C" __global__ __aicore__ void npu_packed(GM_ADDR x, int32_t n, float scale, bool flag, ' \
        'GM_ADDR y, GM_ADDR t_gm)' in source
    (launch,) = npu.calls("rtKernelLaunch")
    mallocs = npu.calls("rtMalloc")
    assert [m["size"] for m in mallocs] == [32, 32, 32]  # whole 32-byte blocks: 32, 12 -> 32, 16 -> 32
    px, py, pt = (m["ptr"] for m in mallocs)
    # GM pointers 8 bytes at 8-byte offsets; int32 / float at 4; bool in a 4-byte slot (the Bisheng ABI);
    # the struct by a pointer to its bytes; the block a multiple of 8
    expected = struct.pack("<QifB3x4xQQ", px, -7, 1.5, 1, py, pt)
    assert len(expected) == 40 and bytes.fromhex(launch["args"]) == expected
    copies_in = [c for c in npu.calls("rtMemcpy") if c["kind"] == H2D]
    assert [(c["dst"], bytes.fromhex(c["data"])) for c in copies_in] == \
        [(px, x.tobytes()), (py, y.tobytes()), (pt, t.pack())]
    assert t.pack() == struct.pack("<if q", 96, 0.25, -5)  # the C layout the kernel copies in
    # results come back into the arrays, not into the struct's bytes
    assert [c["src"] for c in npu.calls("rtMemcpy") if c["kind"] == D2H] == [px, py]
    assert npu.live_blocks() == 0


@pytest.mark.parametrize("kernel_type, magic, ffts", [
    (KT.AIV_ONLY, MAGIC_AIVEC, False), (KT.MIX_AIV_HARD_SYNC, MAGIC_AIVEC, False),
    (KT.MIX_AIV_1_0, MAGIC_AIVEC, True), (KT.AIC_ONLY, MAGIC_AICUBE, False),
    (KT.MIX_AIC_1_0, MAGIC_AICUBE, True), (KT.MIX_AIC_1_2, MAGIC_AICORE, True),
    (KT.MIX_AIC_1_1, MAGIC_AICORE, True)])
def test_magic_per_kernel_type_and_the_ffts_address(npu: Npu, kernel_type: Any, magic: int, ffts: bool) -> None:
    x = np.zeros(8, np.int32)
    npu_plain[1](x, kernel_type=kernel_type, always_compile=True)
    (reg,) = npu.calls("rtDevBinaryRegister")
    assert reg["magic"] == magic
    (launch,) = npu.calls("rtKernelLaunch")
    args = bytes.fromhex(launch["args"])
    px = npu.calls("rtMalloc")[0]["ptr"]
    if not ffts:
        assert args == struct.pack("<Q", px) and "rtGetC2cCtrlAddr" not in npu.names()
        return
    # a MIX kernel's last argument: device memory holding the FFTS address (emit_entry.c reads a uint64 there)
    assert len(args) == 16 and _ptr(launch["args"], 0) == px
    pf = _ptr(launch["args"], 8)
    (m,) = [m for m in npu.calls("rtMalloc") if m["ptr"] == pf]
    (copy,) = [c for c in npu.calls("rtMemcpy") if c["dst"] == pf]
    assert (copy["kind"], copy["count"], bytes.fromhex(copy["data"])) == (H2D, 8, struct.pack("<Q", FFTS_ADDR))
    names = npu.names()
    assert names.index("rtGetC2cCtrlAddr") < names.index("rtKernelLaunch")
    assert [c["src"] for c in npu.calls("rtMemcpy") if c["kind"] == D2H] == [px]  # not copied back
    assert npu.live_blocks() == 0


def test_an_array_passed_twice_shares_its_device_copy(npu: Npu) -> None:
    x = np.arange(8, dtype=np.float32)
    npu_mix[1](x, x)
    (m,) = npu.calls("rtMalloc")
    (launch,) = npu.calls("rtKernelLaunch")
    assert bytes.fromhex(launch["args"]) == struct.pack("<QQ", m["ptr"], m["ptr"])
    assert [c["kind"] for c in npu.calls("rtMemcpy")] == [H2D, D2H]
    # a read-only view first, then the writable array: copied back once, as written
    ro = x.view()
    ro.flags.writeable = False
    npu.lib.stub_reset()
    npu_mix[1](ro, x)
    assert [c["kind"] for c in npu.calls("rtMemcpy")] == [H2D, D2H]
    # overlapping but not the same: each would get its own copy, so a write through one could not reach the
    # other
    with pytest.raises(ValueError, match="arguments `x` and `y` overlap in memory"):
        npu_mix[1](x[:6], x[2:])
    a = x.copy()
    a.flags.writeable = False
    npu_mix[1](a[:6], a[2:])  # both read-only: nothing is written back, nothing to meet
    assert npu.live_blocks() == 0


def test_read_only_array_is_not_copied_back(npu: Npu) -> None:
    x = np.arange(8, dtype=np.float32)
    x.flags.writeable = False
    npu_double[1](x, 8)
    assert [c["kind"] for c in npu.calls("rtMemcpy")] == [H2D]
    np.testing.assert_array_equal(x, np.arange(8, dtype=np.float32))
    assert npu.live_blocks() == 0


def test_launch_on_a_stream_the_user_made(npu: Npu) -> None:
    s = rt.create_stream(priority=1)
    assert isinstance(s, rt.Stream) and s.handle and s != rt.current_stream()
    x = np.ones(8, np.float32)
    npu_double[1, s](x, 8)
    (launch,) = npu.calls("rtKernelLaunch")
    assert launch["stream"] == s.handle
    assert npu.calls("rtStreamSynchronize")[0]["stream"] == s.handle
    rt.destroy_stream(s)
    assert npu.calls("rtStreamDestroy")[-1]["stream"] == s.handle
    # the Model's Stream(0) (made before Backend.NPU was chosen) means the device's current stream
    npu_double[1, rt.Stream(0)](x, 8)
    assert npu.calls("rtKernelLaunch")[-1]["stream"] == rt.current_stream().handle
    with pytest.raises(TypeError, match="the stream must be an asc.lib.runtime.Stream, got str"):
        npu_double[1, "s"](x, 8)


def test_torch_tensors_cpu_copied_npu_by_device_address(npu: Npu) -> None:
    torch = pytest.importorskip("torch")
    t = torch.arange(8, dtype=torch.float32)
    npu_double[1](t, 8)
    assert t.tolist() == [2.0 * i for i in range(8)]
    back = [c for c in npu.calls("rtMemcpy") if c["kind"] == D2H]
    assert [c["dst"] for c in back] == [t.data_ptr()]

    # a torch_npu tensor (a tensor whose device type is 'npu'): its device address, no copy
    dev = rt.malloc(32)
    host = np.arange(8, dtype=np.float32)
    rt.memcpy(dev, 32, host.ctypes.data, 32, rt.MemcpyKind.RT_MEMCPY_HOST_TO_DEVICE)

    class _NpuDevice:
        type = "npu"

    class NpuTensor(torch.Tensor):
        @property
        def device(self) -> Any:  # type: ignore[override]
            return _NpuDevice()

        def data_ptr(self) -> int:
            return dev

    fake = torch.Tensor._make_subclass(NpuTensor, torch.zeros(8))
    npu.lib.stub_reset()
    npu_double[1](fake, 8)
    (launch,) = npu.calls("rtKernelLaunch")
    assert _ptr(launch["args"], 0) == dev
    assert "rtMalloc" not in npu.names() and "rtMemcpy" not in npu.names()
    out = np.zeros(8, np.float32)
    rt.memcpy(out.ctypes.data, 32, dev, 32, rt.MemcpyKind.RT_MEMCPY_DEVICE_TO_HOST)
    np.testing.assert_array_equal(out, 2 * host)  # doubled in device memory
    rt.free(dev)
    assert npu.live_blocks() == 0


# ---- errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fail, code", [
    ("rtDevBinaryRegister", 507899), ("rtFunctionRegister", 107000), ("rtMalloc:207001:2", 207001),
    ("rtMemcpy:107000:2", 107000), ("rtKernelLaunch", 507015), ("rtStreamSynchronize", 507011),
    ("rtMemcpy:107001:4", 107001), ("rtGetC2cCtrlAddr", 107002)])
def test_runtime_error_names_the_call_and_code_and_frees_memory(npu: Npu, monkeypatch: pytest.MonkeyPatch,
                                                               fail: str, code: int) -> None:
    call = fail.split(":")[0]
    monkeypatch.setenv("STUB_FAIL", f"{call}:{code}" + (f":{fail.split(':')[2]}" if fail.count(":") == 2 else ""))
    x = np.arange(8, dtype=np.float32)
    y = np.arange(8, dtype=np.float32)
    with pytest.raises(rt.NpuRuntimeError) as info:
        npu_mix[1](x, y, kernel_type=KT.MIX_AIC_1_2, always_compile=True)
    err = info.value
    assert isinstance(err, RuntimeError)
    message, err_call, err_code = err.args
    assert (err_call, err_code) == (call, code)
    assert message == f"Backend.NPU: kernel npu_mix: {call} failed with error code {code}"
    injected = [c for c in npu.calls() if "injected" in c]
    assert [(c["call"], c["injected"]) for c in injected] == [(call, code)]
    # every block allocated was freed, the binary unregistered
    mallocs = {m["ptr"] for m in npu.done("rtMalloc")}
    assert {f["ptr"] for f in npu.calls("rtFree")} == mallocs and npu.live_blocks() == 0
    assert npu.names().count("rtDevBinaryUnRegister") == (call != "rtDevBinaryRegister")
    if call != "rtMemcpy" or code != 107001:  # no result came back (the 4th copy is y's copy back)
        np.testing.assert_array_equal(x, np.arange(8, dtype=np.float32))


@asc.jit
def npu_mix(x: asc.GlobalAddress, y: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    g.set_value(0, g.get_value(0))


def test_failing_free_is_reported(npu: Npu, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUB_FAIL", "rtFree:107003")
    x = np.ones(8, np.float32)
    with pytest.raises(rt.NpuRuntimeError, match="rtFree failed with error code 107003"):
        npu_double[1](x, 8)
    np.testing.assert_array_equal(x, 2)  # the launch itself worked
    assert npu.live_blocks() == 1 and npu.names()[-1] == "rtDevBinaryUnRegister"
    monkeypatch.delenv("STUB_FAIL")
    rt.free(npu.done("rtMalloc")[0]["ptr"])
    assert npu.live_blocks() == 0


def test_set_device_error(npu: Npu, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STUB_FAIL", "rtSetDevice:107001")
    with pytest.raises(rt.NpuRuntimeError) as info:
        rt.set_device(1)
    assert info.value.args == ("rtSetDevice failed with error code 107001", "rtSetDevice", 107001)
    assert state.device_id is None


def test_core_num_and_tensor_list_checked(npu: Npu) -> None:
    with pytest.raises(ValueError, match="core_num must be a positive integer"):
        npu_double[0](np.ones(8, np.float32), 8)
    with pytest.raises(NotImplementedError, match="asc.TensorList arguments on Backend.NPU are not implemented"):
        npu_plain[1](asc.TensorList([np.ones(8, np.int32)]))
    assert "rtKernelLaunch" not in npu.names() and npu.tk.calls() == []  # refused before compiling


# ---- printing from the device ----------------------------------------------------------------------------

TOTAL_DUMP = 75 * 1048576  # upstream pyasc's TOTAL_DUMP_SIZE: 1 MiB for each of 75 cores


@asc.jit
def npu_print_f(x: asc.GlobalAddress):
    asc.printf("hello %d\n", 1)


@asc.jit
def npu_print_tensor(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_tensor(g, 1, 8)


@asc.jit
def npu_print_chk(x: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    asc.dump_acc_chk_point(g, 1, 0, 8)


@asc.jit
def npu_print_stamp(x: asc.GlobalAddress):
    asc.print_time_stamp(65577)


@asc.jit
def npu_print_local(x: asc.GlobalAddress):
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 8)
    ub.print(8)  # DumpTensor on the NPU


@asc.jit
def npu_say(n: int):
    asc.printf("n=%d\n", n)


@asc.jit
def npu_print_callee(x: asc.GlobalAddress, n: int):
    npu_say(n)


@pytest.mark.parametrize("kernel, kernel_type", [
    (npu_print_f, KT.AIV_ONLY), (npu_print_tensor, KT.AIV_ONLY), (npu_print_chk, KT.AIV_ONLY),
    (npu_print_stamp, KT.AIV_ONLY), (npu_print_local, KT.AIV_ONLY), (npu_print_f, KT.MIX_AIC_1_2),
    (npu_print_tensor, KT.MIX_AIV_1_0)])
def test_device_printing_goes_through_the_dump_buffer(npu: Npu, capfd: pytest.CaptureFixture, kernel: Any,
                                                      kernel_type: Any) -> None:
    x = np.arange(8, dtype=np.int32)
    print("before the launch")
    kernel[2](x, kernel_type=kernel_type, always_compile=True)
    print("after the launch")
    name = kernel.name
    # what the stand-in kernel wrote at the buffer's start, printed by the stand-in libascend_dump, in order
    assert capfd.readouterr().out == f"before the launch\ndevice: {name} ran on 2 blocks\nafter the launch\n"
    # the kernel takes the buffer last (after the FFTS address of a MIX kernel), built with ASCENDC_DUMP on
    source = Path(npu.tk.calls()[0][5]).read_text()
    mix = kernel_type != KT.AIV_ONLY
    params = "GM_ADDR x, GM_ADDR ffts_addr, GM_ADDR dump_addr" if mix else "GM_ADDR x, GM_ADDR dump_addr"
    assert f"void {name}({params})" in source
    assert f"#if defined ASCENDC_DUMP\n    AscendC::InitDump({'true' if mix else 'false'}, dump_addr, 1048576);\n" \
        "#endif\n" in source
    assert all("-DASCENDC_DUMP=1" in c for c in npu.tk.calls() if c[0] == "bisheng")
    names = npu.names()
    (launch,) = npu.calls("rtKernelLaunch")
    mallocs = npu.calls("rtMalloc")
    px, pd = mallocs[0]["ptr"], mallocs[-1]["ptr"]
    # 8 bytes per address; the dump buffer's address last
    assert bytes.fromhex(launch["args"])[-8:] == struct.pack("<Q", pd)
    assert launch["size"] == 8 * (3 if mix else 2) and _ptr(launch["args"], 0) == px
    # huge pages (above 2 KiB, as every allocation: upstream's policy), zeroed from host zeros before the launch
    assert (mallocs[-1]["size"], mallocs[-1]["type"]) == (TOTAL_DUMP, 2 | 0x800)
    (zero,) = [c for c in npu.calls("rtMemcpy") if c["dst"] == pd]
    assert (zero["kind"], zero["count"], zero["dst_max"], zero["data"]) == (H2D, TOTAL_DUMP, TOTAL_DUMP, "00" * 64)
    assert (launch["dump_device"], launch["dump_zeroed"]) == (1, 1)  # stand-in rtMalloc fills with 0xAB
    # after the stream is done and the results are back: printed (address, size, stream, kernel name), freed
    (printed,) = npu.calls("AdumpPrintWorkSpace")
    assert (printed["addr"], printed["size"], printed["stream"], printed["name"]) == \
        (pd, TOTAL_DUMP, launch["stream"], name)
    last_copy_back = max(i for i, c in enumerate(npu.calls()) if c["call"] == "rtMemcpy" and c["kind"] == D2H)
    at = [c["call"] for c in npu.calls()].index("AdumpPrintWorkSpace")
    assert names.index("rtStreamSynchronize") < names.index("AdumpPrintWorkSpace") and last_copy_back < at
    frees = [i for i, c in enumerate(npu.calls()) if c["call"] == "rtFree" and c["ptr"] == pd]
    assert len(frees) == 1 and frees[0] > at
    assert npu.live_blocks() == 0


def test_device_printing_in_a_device_function(npu: Npu, capfd: pytest.CaptureFixture) -> None:
    npu_print_callee[1](np.zeros(8, np.float32), 5)
    assert capfd.readouterr().out == "device: npu_print_callee ran on 1 blocks\n"
    (launch,) = npu.calls("rtKernelLaunch")
    # x, n (an int32 in its 4-byte slot, padded to 8), the dump buffer
    assert launch["size"] == 24 and struct.unpack_from("<i", bytes.fromhex(launch["args"]), 8)[0] == 5
    assert npu.calls("AdumpPrintWorkSpace")[0]["addr"] == _ptr(launch["args"], 16)


def test_ascendc_dump_false_builds_and_launches_without_the_buffer(npu: Npu, monkeypatch: pytest.MonkeyPatch,
                                                                   capfd: pytest.CaptureFixture) -> None:
    @asc.jit
    def npu_print_off(x: asc.GlobalAddress):  # its own kernel: the same compiled kernel launched both ways
        asc.printf("off\n")

    x = np.arange(8, dtype=np.int32)
    monkeypatch.setenv("ASCENDC_DUMP", "false")
    npu_print_off[1](x)
    (launch,) = npu.calls("rtKernelLaunch")
    assert bytes.fromhex(launch["args"]) == struct.pack("<Q", npu.calls("rtMalloc")[0]["ptr"])
    assert len(npu.calls("rtMalloc")) == 1 and launch["dump_device"] == 0
    assert "AdumpPrintWorkSpace" not in npu.names() and capfd.readouterr().out == ""
    (compile_, _) = npu.tk.calls()
    assert "-DASCENDC_DUMP=0" in compile_ and "-DASCENDC_DUMP=1" not in compile_
    text = Path(compile_[5]).read_text()
    assert "void npu_print_off(GM_ADDR x)" in text and "InitDump" not in text
    np.testing.assert_array_equal(x, np.arange(8))
    # back on: the compiled kernel gets a binary of its own with the buffer (built once more, then reused)
    monkeypatch.delenv("ASCENDC_DUMP")
    npu.lib.stub_reset()
    npu_print_off[1](x)
    npu_print_off[1](x)
    assert capfd.readouterr().out == "device: npu_print_off ran on 1 blocks\n" * 2
    assert [c[0] for c in npu.tk.calls()] == ["bisheng", "ld.lld"] * 2
    assert "-DASCENDC_DUMP=1" in npu.tk.calls()[2]
    assert len(npu.calls("AdumpPrintWorkSpace")) == 2 and npu.live_blocks() == 0


def test_missing_dump_library(npu: Npu, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                              npu_stub_dump_library: Path, capfd: pytest.CaptureFixture) -> None:
    x = np.zeros(8, np.int32)
    monkeypatch.setenv("PYASC_NPU_DUMP_LIB", str(tmp_path / "nope.so"))
    with pytest.raises(ToolkitMissing) as info:
        npu_print_f[1](x, always_compile=True)
    message = str(info.value)
    assert message.startswith("Backend.NPU: kernel npu_print_f: Backend.NPU cannot load CANN's dump library "
                              f"PYASC_NPU_DUMP_LIB={tmp_path}/nope.so"), message
    assert "libascend_dump.so" in message and "ASCENDC_DUMP=false" in message
    # found missing before anything was compiled or reached the runtime
    assert npu.tk.calls() == [] and npu.names() == []

    # a library without the entry point (the stand-in runtime)
    monkeypatch.setenv("PYASC_NPU_DUMP_LIB", os.environ["PYASC_NPU_RUNTIME"])
    with pytest.raises(ToolkitMissing, match=r"has no entry point Adx::AdumpPrintWorkSpace "
                                             r"\(_ZN3Adx19AdumpPrintWorkSpaceEPKvmPvPKc\)"):
        npu_print_f[1](x, always_compile=True)

    # without the variable: libascend_dump.so in the CANN library directories under ASCEND_HOME_PATH
    monkeypatch.delenv("PYASC_NPU_DUMP_LIB")
    if ctypes.util.find_library("ascend_dump") is None:  # (a machine with CANN on its library path finds it)
        with pytest.raises(ToolkitMissing) as info:
            npu_print_f[1](x, always_compile=True)
        message = str(info.value)
        assert "needs CANN's dump library libascend_dump.so" in message
        assert f"{npu.tk.home}/lib64/libascend_dump.so" in message and "PYASC_NPU_DUMP_LIB" in message
        assert "set_env.sh" in message and npu.tk.calls() == []
    lib64 = npu.tk.home / "lib64"
    lib64.mkdir()
    (lib64 / "libascend_dump.so").write_bytes(npu_stub_dump_library.read_bytes())
    npu_print_f[1](x, always_compile=True)
    assert capfd.readouterr().out.endswith("device: npu_print_f ran on 1 blocks\n")
    assert _C.npu_load_dump() == str(lib64 / "libascend_dump.so")


@pytest.mark.parametrize("fail", ["rtMalloc:207001:2", "rtMemcpy:107000:2", "rtKernelLaunch:507015",
                                  "rtStreamSynchronize:507011", "rtMemcpy:107001:3"])
def test_dump_buffer_errors_free_everything_and_print_nothing(npu: Npu, monkeypatch: pytest.MonkeyPatch,
                                                              capfd: pytest.CaptureFixture, fail: str) -> None:
    call, code = fail.split(":")[:2]
    monkeypatch.setenv("STUB_FAIL", fail)
    with pytest.raises(rt.NpuRuntimeError) as info:
        npu_print_f[1](np.zeros(8, np.int32), always_compile=True)
    assert info.value.args == (f"Backend.NPU: kernel npu_print_f: {call} failed with error code {code}", call,
                               int(code))
    # the 2nd rtMalloc / rtMemcpy is the dump buffer's (the 3rd copy: the result coming back)
    assert "AdumpPrintWorkSpace" not in npu.names() and capfd.readouterr().out == ""
    assert {f["ptr"] for f in npu.calls("rtFree")} == {m["ptr"] for m in npu.done("rtMalloc")}
    assert npu.live_blocks() == 0
    assert ("rtKernelLaunch" in npu.names()) == (call not in ("rtMalloc", "rtMemcpy") or code == "107001")


def test_dump_argument_checked(npu: Npu) -> None:
    stream = rt.current_stream().handle
    with pytest.raises(ValueError, match="argument 0: an empty dump buffer"):
        _C.npu_run(b"bin", MAGIC_AIVEC, "k", 1, stream, [("dump", 0)])
    with pytest.raises(rt.NpuRuntimeError, match="bad launch: more than one dump buffer"):
        _C.npu_run(b"bin", MAGIC_AIVEC, "k", 1, stream, [("dump", 64), ("dump", 64)])
    assert "rtDevBinaryRegister" not in npu.names()


# ---- asc.lib.runtime -----------------------------------------------------------------------------------


def test_runtime_functions_on_the_npu(npu: Npu) -> None:
    assert rt.device_count() == 2
    assert rt.current_device() == 0  # device 0 is set at the first need
    rt.set_device(1)
    assert rt.current_device() == 1 and state.device_id == 1
    s = rt.current_stream()
    assert rt.current_stream() is s and s.handle
    rt.synchronize()
    s.synchronize()
    rt.synchronize_device()
    rt.reset_device()
    assert state.device_id is None
    assert npu.names() == ["rtGetDeviceCount", "rtSetDevice", "rtDeviceReset", "rtSetDevice", "rtStreamCreate",
                           "rtStreamSynchronize", "rtStreamSynchronize", "rtDeviceSynchronize", "rtStreamDestroy",
                           "rtDeviceReset"]
    assert [c["device"] for c in npu.calls("rtSetDevice")] == [0, 1]
    assert [c["device"] for c in npu.calls("rtDeviceReset")] == [0, 1]
    assert rt.is_available()


def test_device_memory_round_trip(npu: Npu) -> None:
    a = np.arange(16, dtype=np.uint8)
    dev = rt.malloc(16)
    rt.memcpy(dev, 16, a.ctypes.data, 16, rt.MemcpyKind.RT_MEMCPY_HOST_TO_DEVICE)
    b = np.zeros(16, np.uint8)
    rt.memcpy(b.ctypes.data, 16, dev, 16, rt.MemcpyKind.RT_MEMCPY_DEVICE_TO_HOST)
    rt.free(dev)
    np.testing.assert_array_equal(a, b)
    (m,) = npu.calls("rtMalloc")
    assert (m["size"], m["type"]) == (16, 2)
    big = rt.malloc(4096)
    assert npu.calls("rtMalloc")[-1]["type"] == 2 | 0x800  # huge pages above 2 KiB, as upstream
    rt.free(big)
    with pytest.raises(ValueError, match="do not fit"):
        rt.memcpy(dev, 8, a.ctypes.data, 16, rt.MemcpyKind.RT_MEMCPY_HOST_TO_DEVICE)
    with pytest.raises(rt.NpuRuntimeError, match="rtFree failed with error code 107000"):
        rt.free(dev)  # freed already: the stand-in refuses, as the runtime would
    assert npu.live_blocks() == 0


def test_device_chosen_on_the_model_is_set_on_the_npu(npu: Npu) -> None:
    config.set_platform(config.Backend.Model)
    rt.set_device(1)
    assert npu.names() == [] and rt.current_device() == 1
    config.set_platform(config.Backend.NPU, config.Platform.Ascend910B3)
    npu_double[1](np.ones(8, np.float32), 8)
    assert [(c["call"], c["device"]) for c in npu.calls("rtSetDevice", "rtDeviceReset")] == [("rtSetDevice", 1)]
    assert rt.current_device() == 1 and npu.names().count("rtSetDevice") == 1


def test_runtime_functions_on_the_model() -> None:
    assert config.current_backend() == config.Backend.Model
    assert rt.device_count() == 1 and rt.current_stream() == rt.Stream(0) and rt.is_available()
    rt.synchronize()
    rt.synchronize_device()
    with pytest.raises(RuntimeError, match="asc.lib.runtime.malloc is device memory, which only Backend.NPU"):
        rt.malloc(16)
    with pytest.raises(ValueError, match="a device id is an int >= 0"):
        rt.set_device(-1)


# ---- without CANN (fresh processes: the runtime is loaded once per process) ---------------------------------


def _run(code: str, env: Dict[str, Optional[str]]) -> subprocess.CompletedProcess:
    full = dict(os.environ)
    for k, v in env.items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full)


MISSING = """
import asc
from asc.lib import runtime as rt
from asc.lib.runtime import state
from asc.runtime.npu import ToolkitMissing
state.backend = "NPU"
try:
    rt.device_count()
except ToolkitMissing as e:
    print("MISSING", e)
"""


def test_missing_runtime_library(tmp_path: Path) -> None:
    home = tmp_path / "cann"
    home.mkdir()
    r = _run(MISSING, {"PYASC_NPU_RUNTIME": None, "ASCEND_HOME_PATH": str(home), "LD_LIBRARY_PATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("MISSING Backend.NPU needs the CANN runtime library libruntime.so"), out
    for tried in ("lib64/libruntime.so", "runtime/lib64/libruntime.so", "-linux/lib64/libruntime.so"):
        assert f"{home}/" in out and tried in out
    assert "set_env.sh" in out and "PYASC_NPU_RUNTIME" in out

    r = _run(MISSING, {"PYASC_NPU_RUNTIME": str(tmp_path / "nope.so")})
    assert f"MISSING Backend.NPU cannot load the CANN runtime library PYASC_NPU_RUNTIME={tmp_path}/nope.so" \
        in r.stdout and "ASCEND_HOME_PATH" in r.stdout, r.stdout + r.stderr


def test_runtime_without_an_entry_point(tmp_path: Path, npu_stub_library: Path) -> None:
    # a shared library that is not the runtime: the C library itself
    libc = ctypes.util.find_library("c")
    r = _run(MISSING, {"PYASC_NPU_RUNTIME": libc})
    assert f"MISSING the CANN runtime library {libc} has no entry point rtSetDevice" in r.stdout, r.stdout + r.stderr


def test_import_loads_nothing(npu_stub_library: Path) -> None:
    code = ("import asc, asc.lib.runtime, asc.runtime.launcher\n"
            "maps = open('/proc/self/maps').read()\n"
            "print('stub' in maps, 'libruntime' in maps, asc._C.npu_loaded())\n")
    r = _run(code, {"PYASC_NPU_RUNTIME": str(npu_stub_library)})
    assert r.stdout.split() == ["False", "False", "False"], r.stdout + r.stderr


def test_failed_load_is_tried_again(tmp_path: Path, npu_stub_library: Path) -> None:
    code = MISSING + f"""
import os
os.environ["PYASC_NPU_RUNTIME"] = {str(npu_stub_library)!r}
print("COUNT", rt.device_count())
"""
    r = _run(code, {"PYASC_NPU_RUNTIME": str(tmp_path / "nope.so"), "STUB_LOG": str(tmp_path / "log")})
    assert "MISSING" in r.stdout and "COUNT 2" in r.stdout, r.stdout + r.stderr


def test_acl_is_initialised_once_and_finalised_at_exit(tmp_path: Path, npu_stub_library: Path) -> None:
    log = tmp_path / "log"
    code = ("from asc.lib import runtime as rt\nfrom asc.lib.runtime import state\nstate.backend = 'NPU'\n"
            "rt.current_stream(); rt.device_count(); rt.current_stream()\n")
    r = _run(code, {"PYASC_NPU_RUNTIME": str(npu_stub_library), "STUB_LOG": str(log)})
    assert r.returncode == 0, r.stderr
    names = [json.loads(line)["call"] for line in log.read_text().splitlines()]
    assert names == ["aclInit", "rtSetDevice", "rtStreamCreate", "rtGetDeviceCount", "rtStreamDestroy",
                     "rtDeviceReset", "aclFinalize"]


def test_npu_error_is_exported() -> None:
    assert rt.NpuRuntimeError is _C.NpuError and issubclass(_C.NpuError, RuntimeError)
    assert issubclass(ToolkitMissing, RuntimeError)
