"""Runtime functions (devices, streams, device memory, platform) as in upstream pyasc's
`asc.lib.runtime`.

With Backend.Model (the simulator) there is one device and one implicit stream: launches run
synchronously, `synchronize` has nothing to wait for and device memory does not exist (the
simulator uses the caller's arrays in place).

With Backend.NPU each function calls the CANN runtime, which is loaded at the first call that
needs it (src/npu/runtime.c: `$PYASC_NPU_RUNTIME`, else libruntime.so under
`$ASCEND_HOME_PATH`, else on LD_LIBRARY_PATH). A failing runtime call raises `NpuRuntimeError`
naming the call and its error code; a missing runtime library raises `ToolkitMissing` saying how
to point at it. As upstream, the first call that needs a device selects device 0 and the first
that needs a stream creates one on the current device."""

from __future__ import annotations

import atexit
import enum
from typing import Any, Dict, Optional

from . import state

__all__ = ["Stream", "current_stream", "use_model", "use_npu", "set_soc_version", "current_platform",
           "set_device", "current_device", "reset_device", "device_count", "create_stream", "destroy_stream",
           "is_available", "synchronize", "synchronize_device", "get_soc_version", "malloc", "free", "memcpy",
           "MemcpyKind", "NpuRuntimeError"]


class MemcpyKind(enum.IntEnum):
    """rtMemcpyKind_t (upstream's MemcpyKind)."""
    RT_MEMCPY_HOST_TO_HOST = 0
    RT_MEMCPY_HOST_TO_DEVICE = 1
    RT_MEMCPY_DEVICE_TO_HOST = 2
    RT_MEMCPY_DEVICE_TO_DEVICE = 3


def _C() -> Any:
    from ... import _C as c

    return c


def __getattr__(name: str) -> Any:
    """NpuRuntimeError is asc._C.NpuError (a RuntimeError with args (message, call, code)), bound lazily:
    this module imports before the extension."""
    if name == "NpuRuntimeError":
        return _C().NpuError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Stream:
    """A launch stream: an NPU stream's address with Backend.NPU; with Backend.Model (which runs
    launches synchronously) a stream only orders them the way a single NPU stream would."""

    def __init__(self, handle: int = 0):
        self.handle = handle

    def __repr__(self) -> str:
        return f"Stream({self.handle:#x})" if self.handle else "Stream(0)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other.handle == self.handle

    def __hash__(self) -> int:
        return hash(self.handle)

    def synchronize(self) -> None:
        synchronize(self)


_default_stream = Stream(0)
_streams: Dict[int, Stream] = {}  # Backend.NPU: the current stream of each device
_npu_device: Optional[int] = None  # the device rtSetDevice selected (state.device_id may be set on the Model)
_exit_registered = False


def _npu() -> bool:
    return state.backend == "NPU"


def _runtime() -> Any:
    """asc._C with the CANN runtime loaded; ToolkitMissing when the library is not there."""
    global _exit_registered
    c = _C()
    if not c.npu_loaded():
        try:
            c.npu_load()
        except c.NpuError as e:
            if e.args[2] == -1:  # the library or an entry point of it is missing
                from ...runtime.npu import ToolkitMissing

                raise ToolkitMissing(e.args[0]) from None
            raise
    if not _exit_registered:
        _exit_registered = True
        atexit.register(_release)
    return c


def _release() -> None:
    """At exit: the streams pyasc made, the device, ACL (errors ignored: the process is ending)."""
    c = _C()
    if not c.npu_loaded():
        return
    for stream in list(_streams.values()):
        try:
            c.npu_stream_destroy(stream.handle)
        except c.NpuError:
            pass
    _streams.clear()
    try:
        if _npu_device is not None:
            c.npu_reset_device(_npu_device)
        c.npu_finalize()
    except c.NpuError:
        pass


def _check_device(device_id: Any) -> int:
    if isinstance(device_id, bool) or not isinstance(device_id, int) or device_id < 0:
        raise ValueError(f"a device id is an int >= 0, got {device_id!r}")
    return device_id


def set_device(device_id: int) -> None:
    """Selects the device launches run on (rtSetDevice); the previous device is reset first, its
    stream destroyed."""
    global _npu_device
    _check_device(device_id)
    if _npu():
        c = _runtime()
        if _npu_device is not None and _npu_device != device_id:
            reset_device(_npu_device)
        c.npu_set_device(device_id)
        _npu_device = device_id
    state.device_id = device_id


def current_device() -> int:
    """The current device (device 0 when none was set). With Backend.NPU it is selected on the runtime now if
    it was not yet (also one chosen while Backend.Model was active)."""
    if not _npu():
        return 0 if state.device_id is None else state.device_id
    if state.device_id is None or _npu_device != state.device_id:
        set_device(0 if state.device_id is None else state.device_id)
    assert state.device_id is not None
    return state.device_id


def reset_device(device_id: Optional[int] = None) -> None:
    """Destroys the device's stream and resets it (rtDeviceReset)."""
    global _npu_device
    device_id = state.device_id if device_id is None else _check_device(device_id)
    if device_id is None:
        return
    if _npu():
        c = _runtime()
        stream = _streams.pop(device_id, None)
        if stream is not None:
            c.npu_stream_destroy(stream.handle)
        c.npu_reset_device(device_id)
        if device_id == _npu_device:
            _npu_device = None
    if device_id == state.device_id:
        state.device_id = None


def device_count() -> int:
    """How many NPUs there are (rtGetDeviceCount); 1 with Backend.Model (the simulator)."""
    if _npu():
        return int(_runtime().npu_device_count())
    return 1


def create_stream(priority: int = 0) -> Stream:
    """A new stream on the current device (rtStreamCreate)."""
    if _npu():
        current_device()
        return Stream(_runtime().npu_stream_create(priority))
    return Stream(0)


def destroy_stream(stream: Stream) -> None:
    """rtStreamDestroy (nothing to do with Backend.Model)."""
    if stream is None or not _npu() or not stream.handle:
        return
    _runtime().npu_stream_destroy(stream.handle)
    for dev, s in list(_streams.items()):
        if s.handle == stream.handle:
            del _streams[dev]


def current_stream(device_id: Optional[int] = None) -> Stream:
    """The device's stream launches use by default (created at the first call with Backend.NPU)."""
    if not _npu():
        return _default_stream
    dev = current_device() if device_id is None else _check_device(device_id)
    if dev != current_device():
        raise ValueError(f"current_stream({dev}): device {dev} is not the current device "
                         f"({current_device()}); call asc.lib.runtime.set_device({dev}) first")
    stream = _streams.get(dev)
    if stream is None:
        stream = _streams[dev] = create_stream()
    return stream


def synchronize(stream: Optional[Stream] = None) -> None:
    """Waits until the stream (default: the current one) has finished (rtStreamSynchronize). Launches
    already wait for their stream, as upstream's do."""
    if not _npu():
        return
    stream = stream if stream is not None else current_stream()
    _runtime().npu_stream_synchronize(stream.handle)


def synchronize_device() -> None:
    """Waits until everything on the current device has finished (rtDeviceSynchronize)."""
    if _npu():
        current_device()
        _runtime().npu_device_synchronize()


def _need_npu(api: str) -> Any:
    if not _npu():
        raise RuntimeError(f"asc.lib.runtime.{api} is device memory, which only Backend.NPU has: Backend.Model runs "
                           "kernels on the caller's arrays in place")
    current_device()
    return _runtime()


def malloc(size: int) -> int:
    """size bytes of device memory (rtMalloc, HBM; huge pages above 2 KiB as upstream); its address."""
    if not isinstance(size, int) or size <= 0:
        raise ValueError(f"malloc size must be an int > 0, got {size!r}")
    return int(_need_npu("malloc").npu_malloc(size))


def free(address: int) -> None:
    """Frees device memory from malloc (rtFree)."""
    _need_npu("free").npu_free(address)


def memcpy(dst: int, dst_nbytes: int, src: int, src_nbytes: int, kind: MemcpyKind) -> None:
    """Copies src_nbytes from src to dst, which holds dst_nbytes (rtMemcpy); host addresses are ints too
    (e.g. `array.ctypes.data`)."""
    if dst_nbytes <= 0 or src_nbytes <= 0:
        raise ValueError("memcpy: the source and destination sizes must be greater than 0")
    if src_nbytes > dst_nbytes:
        raise ValueError(f"memcpy: {src_nbytes} bytes do not fit the destination's {dst_nbytes}")
    _need_npu("memcpy").npu_memcpy(dst, dst_nbytes, src, src_nbytes, int(MemcpyKind(kind)))


def use_model() -> None:
    state.backend = "Model"


def use_npu() -> None:
    """Selects Backend.NPU; raises, naming what is missing (compiler, linker, devkit headers), without a
    toolkit. The runtime library is loaded at the first launch (or runtime call)."""
    from ...runtime.npu import find_toolchain

    find_toolchain()
    state.backend = "NPU"


def set_soc_version(soc_version: object) -> None:
    state.soc_version = getattr(soc_version, "value", soc_version)  # type: ignore[assignment]


def get_soc_version() -> Any:
    """The platform kernels run on, as upstream's: an asc.Platform (its .value the name)."""
    from ...runtime.config import Platform

    try:
        return Platform(state.soc_version)
    except ValueError:
        return state.soc_version


def current_platform() -> str:
    """The platform kernels are compiled for (set_platform's soc_version)."""
    return state.soc_version


def is_available() -> bool:
    """Whether kernels can run: always with Backend.Model; with Backend.NPU, whether the CANN runtime
    loads."""
    if not _npu():
        return True
    try:
        _runtime()
    except Exception:
        return False
    return True
