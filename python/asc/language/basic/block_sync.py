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
    _b.current().create("asc.pipe_barrier", [], attrs={"pipe": ("PipeID", p)})
