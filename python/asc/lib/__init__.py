"""Host-side libraries."""

from . import host, runtime  # (host: family host)

__all__ = ["host", "runtime"]
