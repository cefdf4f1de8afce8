"""PYASC_DUMP_PATH: write each compilation's IR and Ascend C to a directory.

For a kernel `NAME` compiled for one specialisation whose key hashes to
`KEY` (12 hex digits), these files are written:

    NAME-KEY.initial.ascir   the IR as built from the Python source
    NAME-KEY.final.ascir     the IR after the passes, as the simulator runs it
    NAME-KEY.cpp             the Ascend C translation unit
    NAME-KEY.passes.log      what the passes report (the UB plan of
                             asc.LocalTensorAuto, inserted syncs); only
                             when they reported something
    NAME-KEY.npu.sh          Backend.NPU: the compile and link commands
                             (runtime/npu.py), written before they run

Unset (or empty), nothing is written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Optional

ENV = "PYASC_DUMP_PATH"


def dump_dir() -> Optional[Path]:
    value = os.environ.get(ENV, "")
    return Path(value) if value else None


def file_names(kernel: str, key: str) -> Dict[str, str]:
    base = f"{kernel}-{key}"
    return {"initial": f"{base}.initial.ascir", "final": f"{base}.final.ascir", "ascendc": f"{base}.cpp",
            "passes": f"{base}.passes.log", "npu": f"{base}.npu.sh"}


def write_dumps(kernel: str, key: str, texts: Dict[str, str]) -> Optional[Path]:
    """Writes the texts (keys of file_names) if dumping is on."""
    directory = dump_dir()
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for kind, name in file_names(kernel, key).items():
            if kind in texts:
                tmp = directory / f".{name}.{os.getpid()}.tmp"
                tmp.write_text(texts[kind])
                os.replace(tmp, directory / name)
    except OSError as e:
        raise OSError(f"{ENV}={directory}: cannot write the compilation dumps: {e}") from None
    return directory
