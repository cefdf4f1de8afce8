"""System variables: block index and count."""

from __future__ import annotations

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import usage
from ..core.values import Scalar


@usage("asc.get_block_idx()")
def get_block_idx() -> Scalar:
    """Index of the running block, in [0, core_num) (int64)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_block_idx", [], b.scalar_type(dt.int64)), dt.int64)


@usage("asc.get_block_num()")
def get_block_num() -> Scalar:
    """Number of blocks of the launch (int64)."""
    b = _b.current()
    return Scalar(b.create1("asc.get_block_num", [], b.scalar_type(dt.int64)), dt.int64)
