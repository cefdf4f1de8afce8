"""Process-wide runtime state: the backend and platform launches use."""

from __future__ import annotations

from typing import Optional

backend: str = "Model"
soc_version: str = "Ascend910B1"
device_id: Optional[int] = None
