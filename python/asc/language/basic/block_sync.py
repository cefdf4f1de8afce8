"""Synchronisation between pipes: set_flag, wait_flag, pipe_barrier."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import enum_arg, usage
from ..core.enums import HardEvent, PipeID
from ..core.values import int_operand


def _event(event: Any, api: str) -> HardEvent:
    return enum_arg(event, HardEvent, api, "event")


@usage("asc.set_flag(asc.HardEvent.MTE2_V, event_id)")
def set_flag(event: HardEvent, event_id: Any = 0) -> None:
    """Signals `event` (source pipe → destination pipe) with `event_id`."""
    ev = _event(event, "asc.set_flag")
    _b.current().create("asc.set_flag", [int_operand(event_id, "event_id")], attrs={"event": ("HardEvent", ev)})


@usage("asc.wait_flag(asc.HardEvent.MTE2_V, event_id)")
def wait_flag(event: HardEvent, event_id: Any = 0) -> None:
    """Blocks the destination pipe of `event` until it is signalled."""
    ev = _event(event, "asc.wait_flag")
    _b.current().create("asc.wait_flag", [int_operand(event_id, "event_id")], attrs={"event": ("HardEvent", ev)})


@usage("asc.pipe_barrier(asc.PipeID.PIPE_V)")
def pipe_barrier(pipe: PipeID) -> None:
    """Waits until every instruction issued to `pipe` has finished."""
    p = enum_arg(pipe, PipeID, "asc.pipe_barrier", "pipe")
    if p in (PipeID.PIPE_MTE4, PipeID.PIPE_MTE5, PipeID.PIPE_V2):
        raise NotImplementedError(f"asc.pipe_barrier(PipeID.{p.name}): this pipe does not exist on Ascend910B")
    if p == PipeID.PIPE_S:
        # PipeBarrier(ISASI).md: the scalar pipe orders itself and PipeBarrier<PIPE_S> is not supported (the
        # devkit asserts it on arch 2201, impl/basic_api/kernel_reg.h; upstream: a hardware error)
        from ..core.checks import error

        raise error("asc.pipe_barrier(PipeID.PIPE_S): PipeBarrier does not support PIPE_S (the hardware keeps the "
                    "scalar pipe in order by itself; on the NPU it is a hardware error, devkit PipeBarrier(ISASI).md)",
                    "hint: remove it; to wait for another pipe's work before scalar code use "
                    "asc.set_flag/asc.wait_flag with a *_S HardEvent (e.g. HardEvent.V_S), or "
                    "asc.pipe_barrier(asc.PipeID.PIPE_ALL)")
    _b.current().create("asc.pipe_barrier", [], attrs={"pipe": ("PipeID", p)})


# ---- system family: inter-block synchronisation --------------------------------------------------------------
# (src/sim/block_sync.c: every block of a kernel that uses these runs at once, on a thread of its own; a wait that
# no block can release is a KernelError naming the deadlock, never a hang)

def _workspaces(api: str, gm_workspace: Any, ub_workspace: Any) -> tuple:
    from ..core import dtype as dt
    from ..core.checks import error, got
    from ..core.values import GlobalTensor
    from .utils import local

    if not isinstance(gm_workspace, GlobalTensor):
        raise error(f"{api}: 'gm_workspace' must be a GlobalTensor of int32, got {got(gm_workspace)}",
                    "hint: pass a GlobalTensor over a zero-initialised int32 kernel argument")
    ub = local(ub_workspace, api, "ub_workspace")
    for name, t in (("gm_workspace", gm_workspace), ("ub_workspace", ub)):
        if t.dtype != dt.int32:
            raise error(f"{api}: '{name}' must hold int32 (the devkit's {name} is a tensor of int32_t), "
                        f"got {t.dtype.name}", f"hint: declare {name} with dtype asc.int32")
    return gm_workspace, ub


def _aiv_only(value: Any, api: str) -> dict:
    """The op's attributes: is_aiv_only = 0 for the template argument false, none for the default true."""
    from ..core.checks import describe, error

    if not isinstance(value, bool):
        raise error(f"{api}: 'is_aiv_only' must be True or False (a template argument), got {describe(value)}")
    return {} if value else {"is_aiv_only": 0}


@usage("asc.data_sync_barrier(asc.MemDsbT.ALL)")
def data_sync_barrier(arg0: Any) -> None:
    """`AscendC::DataSyncBarrier<arg0>()`: waits until the memory accesses of the kind `arg0` (a MemDsbT) issued
    before it have completed. The model completes every access when it is issued, so this orders nothing more."""
    from ..core.enums import MemDsbT  # type: ignore[attr-defined]

    m = enum_arg(arg0, MemDsbT, "asc.data_sync_barrier", "arg0")
    _b.current().create("asc.data_sync_barrier", [], attrs={"arg0": ("MemDsbT", m)})


def _ib(api: str, op: str, gm_workspace: Any, ub_workspace: Any, block_idx: Any, event_id: Any,
        is_aiv_only: Any) -> None:
    gm, ub = _workspaces(api, gm_workspace, ub_workspace)
    ops = [gm, ub, int_operand(block_idx, f"{api}: block_idx"), int_operand(event_id, f"{api}: event_id")]
    _b.current().create(op, ops, attrs=_aiv_only(is_aiv_only, api))


@usage("asc.ib_set(gm_workspace, ub_workspace, block_idx, event_id)")
def ib_set(gm_workspace: Any, ub_workspace: Any, block_idx: Any, event_id: Any, is_aiv_only: bool = True) -> None:
    """`AscendC::IBSet`: sets the flag (block_idx, event_id) that a block waits for with `ib_wait`. The flag is the
    int32 at element `block_num * 8 * event_id + block_idx * 8` of gm_workspace (zero-initialised, int32); ib_set
    waits until it is 0 and writes 1. ub_workspace (32 bytes of int32) receives the flag's block."""
    _ib("asc.ib_set", "asc.ib_set", gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only)


@usage("asc.ib_wait(gm_workspace, ub_workspace, block_idx, event_id)")
def ib_wait(gm_workspace: Any, ub_workspace: Any, block_idx: Any, event_id: Any, is_aiv_only: bool = True) -> None:
    """`AscendC::IBWait`: waits until block `block_idx` set the flag `event_id` with `ib_set` (the flag is 1),
    then clears it (writes 0). The arguments other than ub_workspace must be those of the matching ib_set."""
    _ib("asc.ib_wait", "asc.ib_wait", gm_workspace, ub_workspace, block_idx, event_id, is_aiv_only)


@usage("asc.sync_all()", "asc.sync_all(gm_workspace, ub_workspace, used_cores=0)")
def sync_all(gm_workspace: Any = None, ub_workspace: Any = None, used_cores: Any = 0,
             is_aiv_only: bool = True) -> None:
    """`AscendC::SyncAll`: a barrier of the blocks of the launch. Without workspaces it is the hardware barrier:
    with is_aiv_only (the default) of the cores of the caller's kind (every block of a vector kernel, the vector
    cores of a MIX kernel, its cube cores among themselves), with is_aiv_only=False of every core of a MIX
    kernel. With gm_workspace (zero-initialised int32, 8 per block) and ub_workspace the devkit's software
    barrier of the first `used_cores` blocks (all when 0): each adds 1 to its word and waits until every word
    reached its own count (a cube core returns at once). A block that never reaches the barrier makes the others'
    wait a KernelError."""
    api = "asc.sync_all"
    aiv = _aiv_only(is_aiv_only, api)
    if gm_workspace is None or ub_workspace is None:
        if gm_workspace is not None or ub_workspace is not None:
            from ..core.checks import error

            raise error(f"{api}: pass both gm_workspace and ub_workspace (the software barrier) or neither")
        _b.current().create("asc.sync_all", [], attrs=aiv)
        return
    gm, ub = _workspaces(api, gm_workspace, ub_workspace)
    _b.current().create("asc.sync_all.soft", [gm, ub, int_operand(used_cores, f"{api}: used_cores")],
                        attrs=aiv)
