"""`asc.cast` (AscendC::Cast): element type conversion with a RoundMode."""

from __future__ import annotations

from typing import Any

from ..core.enums import RoundMode
from ..core.values import LocalTensor
from .vec_ops import emit


def cast(dst: LocalTensor, src: LocalTensor, round_mode: RoundMode, *args: Any, **kwargs: Any) -> None:
    """`cast(dst, src, round_mode, count)` converts src's type to dst's."""
    try:
        mode = RoundMode(round_mode)
    except ValueError:
        raise TypeError(f"asc.cast: {round_mode!r} is not a RoundMode") from None
    emit("asc.cast", (dst, src), ("dst", "src"), None, args, kwargs,
         attrs={"round_mode": ("RoundMode", mode)}, check_same=False)
