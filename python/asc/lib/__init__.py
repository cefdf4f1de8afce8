"""Host-side libraries."""

from . import runtime

__all__ = ["runtime"]
