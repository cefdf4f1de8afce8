"""The cube family's sparse matrix multiplication (arch 2201):
`asc.mmad_with_sparse`."""

from __future__ import annotations

from typing import Any

from ..core.checks import usage


@usage("asc.mmad_with_sparse(dst, fm, filter, mmad_params)")
def mmad_with_sparse(dst: Any, fm: Any, filter: Any, mmad_params: Any) -> None:  # noqa: A002 (upstream's name)
    """`AscendC::MmadWithSparse`: not supported yet (raises
    NotImplementedError)."""
    raise NotImplementedError("asc.mmad_with_sparse is not supported yet")
