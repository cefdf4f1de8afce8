"""family: cores. The cores of a launch and the cross-core flags between them.

A kernel runs on the cores its kernel type names (`asc.KernelType`, the jit option `kernel_type`, detected when
not given): a MIX_AIC_1_2 launch of `core_num` runs `core_num` cube cores (AIC), each with two vector cores (AIV),
and every core runs the kernel body. `ascend_is_aic()` / `ascend_is_aiv()` tell the cores apart;
`cross_core_set_flag` / `cross_core_wait_flag` order their work (src/sim/cores.c has the model)."""

from __future__ import annotations

import enum
from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, enum_arg, error, usage
from ..core.enums import PipeID
from ..core.values import Scalar, int_operand

# the pipes CrossCoreSetFlag / CrossCoreWaitFlag take for modes 0, 1 and 2 on the Ascend910B
_PIPES = ("PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX")


def _role(op: str) -> Scalar:
    b = _b.current()
    return Scalar(b.create1(op, [], b.scalar_type(dt.bool_)), dt.bool_)


@usage("asc.ascend_is_aic()")
def ascend_is_aic() -> Scalar:
    """`ASCEND_IS_AIC` (`g_coreType == AscendC::AIC`): True on a cube core. Using it makes the kernel a mixed
    (cube and vector) kernel when no kernel_type is given."""
    return _role("asc.ascend_is_aic")


@usage("asc.ascend_is_aiv()")
def ascend_is_aiv() -> Scalar:
    """`ASCEND_IS_AIV` (`g_coreType == AscendC::AIV`): True on a vector core."""
    return _role("asc.ascend_is_aiv")


def _flag(api: str, op: str, flag_id: Any, mode_id: Any, pipe: Any) -> None:
    if isinstance(mode_id, (bool, enum.Enum)) or not isinstance(mode_id, int):
        raise error(f"{api}: 'mode_id' must be a Python int 0, 1 or 2 (the modeId template argument), got "
                    f"{describe(mode_id)}")
    if mode_id not in (0, 1, 2):
        raise error(f"{api}: mode_id = {mode_id} is not a synchronisation mode of the Ascend910B (0: all AICs or "
                    "all AIVs of the launch, 1: the AIVs of one AI Core, 2: an AIC and its AIVs)")
    p = enum_arg(pipe, PipeID, api, "pipe")
    if p.name not in _PIPES:
        raise error(f"{api}: pipe = PipeID.{p.name} is not allowed (modes 0-2 take {', '.join(_PIPES)})")
    fid = int_operand(flag_id, f"{api}: flag_id")
    if isinstance(flag_id, int) and not 0 <= flag_id <= 15:
        raise error(f"{api}: flag_id = {flag_id} is not in 0..15 (each core has 16 flag counters)")
    _b.current().create(op, [fid], attrs={"mode_id": mode_id, "pipe": ("PipeID", p)})


@usage("asc.cross_core_set_flag(flag_id, mode_id, pipe)")
def cross_core_set_flag(flag_id: Any, mode_id: int, pipe: PipeID) -> None:
    """`AscendC::CrossCoreSetFlag<modeId, pipe>(flagId)`: once the work issued to `pipe` is done, reports the flag
    to the scheduler. Mode 0: when every AIC (or every AIV) of the launch has set it, each of their counters of
    flag_id counts up; mode 1: the same for the two AIVs of one AI Core; mode 2: an AIC's set counts up its AIVs'
    counters, and when both AIVs have set, their AIC's counter counts up. flag_id 0..15; a counter holds at most
    15 (a KernelError past it). Needs a MIX kernel type (modes 1, 2: MIX_AIC_1_1 or MIX_AIC_1_2)."""
    _flag("asc.cross_core_set_flag", "asc.cross_core_set_flag", flag_id, mode_id, pipe)


@usage("asc.cross_core_wait_flag(flag_id, mode_id, pipe)")
def cross_core_wait_flag(flag_id: Any, mode_id: int, pipe: PipeID) -> None:
    """`AscendC::CrossCoreWaitFlag<modeId, pipe>(flagId)`: blocks this core (every pipe: on the Ascend910B the
    template arguments take no effect) until its counter of flag_id is not 0, then counts it down. A wait that no
    core can satisfy any more is a KernelError (deadlock) at its line."""
    _flag("asc.cross_core_wait_flag", "asc.cross_core_wait_flag", flag_id, mode_id, pipe)
