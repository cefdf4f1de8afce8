"""JIT compilation and launching."""

from . import config

__all__ = ["config"]
