"""Process-wide runtime state: the backend and platform launches use."""

from __future__ import annotations

import os
from typing import Optional

backend: str = "Model"
soc_version: str = "Ascend910B1"
device_id: Optional[int] = None

# Host threads that run a launch's blocks; 0: one per host core. Set with
# PYASC_WORKERS or asc.runtime.config.set_workers.
def _workers_from_env() -> int:
    value = os.environ.get("PYASC_WORKERS", "0").strip() or "0"
    try:
        n = int(value)
    except ValueError:
        raise ValueError(f"PYASC_WORKERS must be a whole number, got {value!r}") from None
    if n < 0:
        raise ValueError(f"PYASC_WORKERS must be >= 0, got {n}")
    return n


workers: int = _workers_from_env()

# How the simulator computes the instructions the hardware only
# approximates (Rsqrt, Reciprocal): "exact" (correctly rounded, the
# default) or "hardware" (a model of the documented error). A platform
# parameter: asc.runtime.config.set_platform(..., precision=...); a call
# without it goes back to PYASC_PRECISION, else "exact".
PRECISIONS = {"exact": 0, "hardware": 1}  # the names and the codes Kernel.launch takes
PRECISION_ENV = "PYASC_PRECISION"


def check_precision(value: object, what: str = "precision") -> str:
    """value as a precision name; ValueError naming the choices otherwise."""
    if isinstance(value, str) and value.strip().lower() in PRECISIONS:
        return value.strip().lower()
    choices = ", ".join(repr(p) for p in PRECISIONS)
    raise ValueError(f"{what} must be one of {choices}, got {value!r}")


def precision_from_env() -> str:
    value = os.environ.get(PRECISION_ENV, "").strip()
    return check_precision(value, PRECISION_ENV) if value else "exact"


precision: str = precision_from_env()
