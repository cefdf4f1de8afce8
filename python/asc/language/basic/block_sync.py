"""Synchronisation between pipes: set_flag, wait_flag, pipe_barrier."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.enums import HardEvent, PipeID
from ..core.values import int_operand


def _event(event: Any, api: str) -> HardEvent:
    try:
        return HardEvent(event)
    except ValueError:
        raise TypeError(f"{api}: {event!r} is not a HardEvent") from None


def set_flag(event: HardEvent, event_id: Any = 0) -> None:
    """Signals `event` (source pipe → destination pipe) with `event_id`."""
    ev = _event(event, "asc.set_flag")
    _b.current().create("asc.set_flag", [int_operand(event_id, "event_id")], attrs={"event": ("HardEvent", ev)})


def wait_flag(event: HardEvent, event_id: Any = 0) -> None:
    """Blocks the destination pipe of `event` until it is signalled."""
    ev = _event(event, "asc.wait_flag")
    _b.current().create("asc.wait_flag", [int_operand(event_id, "event_id")], attrs={"event": ("HardEvent", ev)})


def pipe_barrier(pipe: PipeID) -> None:
    """Waits until every instruction issued to `pipe` has finished."""
    try:
        p = PipeID(pipe)
    except ValueError:
        raise TypeError(f"asc.pipe_barrier: {pipe!r} is not a PipeID") from None
    if p in (PipeID.PIPE_MTE4, PipeID.PIPE_MTE5, PipeID.PIPE_V2):
        raise NotImplementedError(f"asc.pipe_barrier(PipeID.{p.name}): this pipe does not exist on Ascend910B")
    _b.current().create("asc.pipe_barrier", [], attrs={"pipe": ("PipeID", p)})
