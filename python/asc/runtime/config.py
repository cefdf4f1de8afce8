"""Backend and platform selection, with upstream pyasc's enums."""

from __future__ import annotations

from enum import Enum
from typing import Optional, Union

from ..lib import runtime as rt


class Backend(Enum):
    Model = "Model"
    NPU = "NPU"


class Platform(Enum):
    Ascend910B1 = "Ascend910B1"
    Ascend910B2 = "Ascend910B2"
    Ascend910B2C = "Ascend910B2C"
    Ascend910B3 = "Ascend910B3"
    Ascend910B4 = "Ascend910B4"
    Ascend910B4_1 = "Ascend910B4-1"
    Ascend910_9362 = "Ascend910_9362"
    Ascend910_9372 = "Ascend910_9372"
    Ascend910_9381 = "Ascend910_9381"
    Ascend910_9382 = "Ascend910_9382"
    Ascend910_9391 = "Ascend910_9391"
    Ascend910_9392 = "Ascend910_9392"


class KernelType(Enum):
    AIV_ONLY = 0
    AIC_ONLY = 1
    MIX_AIV_HARD_SYNC = 2
    MIX_AIC_HARD_SYNC = 3
    MIX_AIV_1_0 = 4
    MIX_AIC_1_0 = 5
    MIX_AIC_1_1 = 6
    MIX_AIC_1_2 = 7


def set_platform(backend: Union[Backend, str], soc_version: Optional[Union[Platform, str]] = None,
                 device_id: Optional[int] = None, check: bool = True, *, precision: Optional[str] = None) -> None:
    """Selects where kernels run. Backend.Model (the built-in simulator)
    defaults to Platform.Ascend910B1.

    precision (ours; keyword only) says how the simulator computes the
    instructions the hardware only approximates, Rsqrt and Reciprocal (also
    where the adv APIs issue them): "exact", correctly rounded (the
    default), or "hardware", with the error the devkit documents for the
    Ascend910B (a deterministic model: docs/semantics.md). It is part of the
    platform: a later set_platform without it goes back to the default,
    PYASC_PRECISION when set, else "exact". Backend.NPU computes as the
    hardware does whatever it says."""
    backend = Backend(backend)
    platform = Platform(soc_version) if soc_version is not None else Platform.Ascend910B1
    prec = rt.state.precision_from_env() if precision is None else rt.state.check_precision(precision)
    if backend == Backend.Model:
        rt.use_model()
    else:
        rt.use_npu()  # raises with what is missing
    rt.set_soc_version(platform)
    rt.state.precision = prec
    if device_id is not None:
        rt.set_device(device_id)


def current_backend() -> Backend:
    return Backend(rt.state.backend)


def current_platform() -> Platform:
    return Platform(rt.state.soc_version)


def current_precision() -> str:
    """The platform's precision: "exact" or "hardware" (set_platform)."""
    return rt.state.precision


def set_workers(n: int = 0) -> None:
    """Host threads that simulate a launch's blocks (0: one per host core,
    the default; also PYASC_WORKERS). Results never depend on it. The
    launching thread is one of them; the others are helper threads kept
    between launches (docs/performance.md), resized at the next
    multi-block launch after a change."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"set_workers takes a whole number >= 0, got {n!r}")
    rt.state.workers = n


def get_workers() -> int:
    return rt.state.workers
