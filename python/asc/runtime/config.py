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
    # NPU arch 3510 (C310), as PyAsc2 spells them: in the platform table with
    # their capacities, but Backend.Model does not run them (set_platform).
    Ascend910_9579 = "Ascend910_9579"
    Ascend910_9589 = "Ascend910_9589"
    Ascend910_9599 = "Ascend910_9599"
    Ascend950PR_950z = "Ascend950PR_950z"
    Ascend950PR_9579 = "Ascend950PR_9579"
    Ascend950PR_957b = "Ascend950PR_957b"
    Ascend950PR_957c = "Ascend950PR_957c"
    Ascend950PR_957d = "Ascend950PR_957d"
    Ascend950PR_9589 = "Ascend950PR_9589"
    Ascend950PR_958b = "Ascend950PR_958b"
    Ascend950PR_9599 = "Ascend950PR_9599"


class CompilationArch(Enum):
    """The Ascend C compilation arch of a platform (PyAsc2): C220 is NPU arch
    2201 (Ascend910B, Ascend910_93), C310 NPU arch 3510 (Ascend950,
    Ascend910_95). str() gives the value ("c220")."""

    C220 = "c220"
    C310 = "c310"

    def __str__(self) -> str:
        return self.value


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
    hardware does whatever it says.

    Backend.Model and Backend.NPU run the C220 platforms only: selecting a
    C310 one (Ascend950PR_*, Ascend910_95*; platform_to_arch) raises
    NotImplementedError, the selection left as it was."""
    backend = Backend(backend)
    platform = Platform(soc_version) if soc_version is not None else Platform.Ascend910B1
    prec = rt.state.precision_from_env() if precision is None else rt.state.check_precision(precision)
    if backend == Backend.Model:
        check_simulated(platform)
        rt.use_model()
    else:
        arch = platform_to_arch(platform)
        if arch is not CompilationArch.C220:  # the emitter and the compile commands are dav-c220's
            raise NotImplementedError(
                f"asc.runtime.config.set_platform: platform {platform.value} (compilation arch {arch.name}, NPU arch "
                f"{_NPU_ARCH[arch.value]}) is not supported on Backend.NPU: pyasc emits Ascend C and compiles for "
                "NPU arch 2201 (dav-c220) only. Use a C220 platform such as Ascend910B1")
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


# NPU arch of each compilation arch (the devkit's __NPU_ARCH__)
_NPU_ARCH = {"c220": 2201, "c310": 3510}


def platform_to_arch(platform: Union[Platform, str]) -> CompilationArch:
    """The compilation arch of a platform (a Platform or its value): C220 for
    Ascend910B* and Ascend910_93*, C310 for Ascend910_95* and Ascend950PR_95*
    (PyAsc2's rule). ValueError for a name that is not a Platform."""
    name = Platform(platform).value
    if name.startswith(("Ascend910B", "Ascend910_93")):
        return CompilationArch.C220
    if name.startswith(("Ascend910_95", "Ascend950PR_95")):
        return CompilationArch.C310
    raise ValueError(f"no compilation arch is known for platform {name!r}")


def check_simulated(platform: Union[Platform, str], api: str = "asc.runtime.config.set_platform") -> None:
    """Raises NotImplementedError, naming `api`, the platform and its arch,
    unless the simulator models `platform` (a C220 one: it models NPU arch
    2201 only; a C310 platform is in its table with its capacities, but
    Backend.Model does not run it and the host tiling does not serve it)."""
    arch = platform_to_arch(platform)
    if arch is CompilationArch.C220:
        return
    name = Platform(platform).value
    npu = _NPU_ARCH[arch.value]
    raise NotImplementedError(
        f"{api}: platform {name} (compilation arch {arch.name}, NPU arch {npu}) is not supported on "
        f"Backend.Model: the simulator models NPU arch 2201 (C220) only; arch {npu}'s register-based vector "
        f"unit (RegTensor, MaskReg), SIMT, its UB<->L1 and L0C->UB paths and its cube memories are not "
        f"modelled. Use a C220 platform such as Ascend910B1 (pytest --platform Ascend910B1 for PyAsc2's tests)")
