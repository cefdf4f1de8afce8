"""asc.lib.host's SoftMax tiling (family: adv softmax), thin over the C of
src/host/softmax_tiling.c: the devkit's host functions SoftMaxTilingFunc,
GetSoftMaxMaxTmpSize and GetSoftMaxMinTmpSize
(include/adv_api/activation/softmax_tiling.h) in snake case. The tiling is an
asc.adv.SoftmaxTiling, passed to a kernel as an argument."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ... import _C

if TYPE_CHECKING:
    from ...language.adv.softmax import SoftmaxTiling


def _shape(api: str, src_shape: Any) -> list:
    if not isinstance(src_shape, (list, tuple)) or not src_shape:
        raise TypeError(f"{api}: src_shape must be a non-empty list or tuple of ints, got {src_shape!r}")
    for d in src_shape:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"{api}: src_shape must hold ints, got {d!r}")
    return list(src_shape)


def _uint(api: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2 ** 32:
        raise TypeError(f"{api}: {name} must be an int in [0, 2^32), got {value!r}")
    return value


def softmax_tiling_func(src_shape: Sequence[int], data_type_size: int, local_work_space_size: int) -> "SoftmaxTiling":
    """SoftMaxTilingFunc: the tiling of a SoftMax over src_shape (its last axis the rows; a multiple of 32 bytes)
    with sum / max of data_type_size bytes (2 or 4) and local_work_space_size bytes of temporary buffer (rows of
    the axis in float, a 32-byte block and 64 floats each: as many rows as fit, a multiple of 8 when not all do).
    ValueError for what the devkit's checks refuse."""
    from ...language.adv.softmax import SoftmaxTiling

    api = "softmax_tiling_func"
    values = _C.host_softmax_tiling(_shape(api, src_shape), _uint(api, "data_type_size", data_type_size),
                                    _uint(api, "local_work_space_size", local_work_space_size))
    return SoftmaxTiling(**dict(zip(SoftmaxTiling.struct_fields, values)))


def get_softmax_max_tmp_size(src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False) -> int:
    """GetSoftMaxMaxTmpSize: the temporary bytes with which SoftMax does all rows at once."""
    api = "get_softmax_max_tmp_size"
    return int(_C.host_softmax_tmp_size(_shape(api, src_shape), _uint(api, "data_type_size", data_type_size), True))


def get_softmax_min_tmp_size(src_shape: Sequence[int], data_type_size: int, is_reuse_source: bool = False) -> int:
    """GetSoftMaxMinTmpSize: the temporary bytes of one row, the least SoftMax works with."""
    api = "get_softmax_min_tmp_size"
    return int(_C.host_softmax_tmp_size(_shape(api, src_shape), _uint(api, "data_type_size", data_type_size), False))


__all__ = ["get_softmax_max_tmp_size", "get_softmax_min_tmp_size", "softmax_tiling_func"]
