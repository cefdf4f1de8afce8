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
