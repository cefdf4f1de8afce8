"""The advanced API (`asc.adv`), as upstream pyasc's asc.language.adv."""

from .tiling import TCubeTiling

__all__ = [
    # .tiling (family: host)
    "TCubeTiling",
]
