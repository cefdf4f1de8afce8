"""Runtime functions (streams, devices, platform) as in upstream pyasc's
`asc.lib.runtime`. With the Model backend there is one implicit stream."""

from __future__ import annotations

from typing import Any

from . import state

__all__ = ["Stream", "current_stream", "use_model", "use_npu", "set_soc_version", "current_platform",
           "set_device", "is_available", "synchronize", "get_soc_version"]


class Stream:
    """A launch stream. The simulator runs launches synchronously, so a
    stream only orders them the way a single NPU stream would."""

    def __init__(self, handle: int = 0):
        self.handle = handle

    def __repr__(self) -> str:
        return f"Stream({self.handle})"

    def synchronize(self) -> None:
        pass


_default_stream = Stream(0)


def current_stream() -> Stream:
    return _default_stream


def synchronize() -> None:
    pass


def use_model() -> None:
    state.backend = "Model"


def use_npu() -> None:
    """Selects Backend.NPU; raises, naming what is missing (compiler, linker, devkit headers), without a
    toolkit."""
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
    return state.soc_version


def set_device(device_id: int) -> None:
    state.device_id = device_id


def is_available() -> bool:
    return state.backend == "Model"
