"""The cube family's 4:2 structured sparse matrix multiplication (arch
2201, src/sim/cube_sparse.c): `asc.load_data_with_sparse` and
`asc.mmad_with_sparse`, with upstream pyasc's signatures."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import error, usage
from ..core.enums import TPosition  # type: ignore[attr-defined]
from .cube import _L1, _local_at, _struct


@usage("asc.load_data_with_sparse(dst, src, idx, load_data_params)")
def load_data_with_sparse(dst: Any, src: Any, idx: Any, load_data_params: Any) -> None:
    """`AscendC::LoadDataWithSparse`: copies `repeat_times` 512-byte
    fractals of the dense int8 matrix B from fractal `start_index` of src
    (L1, B1) to dst (L0B, B2), and as many 128-byte fractals of its index
    matrix (uint8 idx in L1: four 2-bit entries a byte) into the cube's
    index buffer, where `asc.mmad_with_sparse` reads them. Only
    start_index and repeat_times of the asc.LoadData2DParams are used."""
    api = "asc.load_data_with_sparse"
    _local_at(api, dst, "dst", (TPosition.B2,))
    _local_at(api, src, "src", _L1)
    _local_at(api, idx, "idx", _L1)
    params = _struct(api, load_data_params, "LoadData2DParams", "load_data_params")
    if dst.dtype != dt.int8 or src.dtype != dt.int8:
        raise error(f"{api}: dst and src are int8 (got {dst.dtype} and {src.dtype})")
    if idx.dtype != dt.uint8:
        raise error(f"{api}: idx is uint8 (got {idx.dtype})")
    _b.current().create(api, [dst, src, idx, params.to_ir()])


@usage("asc.mmad_with_sparse(dst, fm, filter, mmad_params)")
def mmad_with_sparse(dst: Any, fm: Any, filter: Any, mmad_params: Any) -> None:  # noqa: A002 (upstream's name)
    """`AscendC::MmadWithSparse`: dst[m, n] = fm[m, k] x B (cmatrix_init_val
    True) or dst += it, fm int8 in L0A (ZZ, the full 4:2 sparse A), filter
    the dense int8 (k / 2) x n matrix B in L0B that load_data_with_sparse
    put there with its index: dense rows 2g and 2g + 1 multiply A's columns
    4g + i0 and 4g + max(i0, 1 + i1) (i0, i1 their 2-bit entries); dst
    int32 in L0C, products and sums wrapping as int32."""
    api = "asc.mmad_with_sparse"
    params = _struct(api, mmad_params, "MmadParams", "mmad_params")
    _local_at(api, dst, "dst", (TPosition.CO1,))
    _local_at(api, fm, "fm", (TPosition.A2,))
    _local_at(api, filter, "filter", (TPosition.B2,))
    if fm.dtype != dt.int8 or filter.dtype != dt.int8 or dst.dtype != dt.int32:
        raise error(f"{api} does not support {fm.dtype} x {filter.dtype} -> {dst.dtype} on the Ascend910B "
                    "(int8 x int8 -> int32 only)")
    _b.current().create(api, [dst, fm, filter, params.to_ir()])
