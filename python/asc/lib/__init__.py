"""Host-side libraries."""

from . import host, profiling, runtime  # (host: family host)

__all__ = ["host", "profiling", "runtime"]
