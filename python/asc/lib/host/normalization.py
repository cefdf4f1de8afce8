"""family: adv normquant. The devkit's host functions of RmsNorm and AscendQuant (GetRmsNormMaxMinTmpSize,
GetRmsNormTilingInfo, GetAscendQuantMaxMinTmpSize), thin over src/host/rmsnorm_tiling.c. Shapes are [b, s, h]
(any sequence of three positive ints); type_size is the element's bytes, 2 (float16) or 4 (float32)."""

from __future__ import annotations

from typing import Sequence, Tuple

from ... import _C
from ...language.adv.tiling import RmsNormTiling

_U32 = (1 << 32) - 1


def _shape(api: str, name: str, shape: Sequence[int], dims: int = 3) -> Tuple[int, ...]:
    try:
        t = tuple(shape)
    except TypeError:
        raise TypeError(f"{api}: '{name}' must be a sequence of {dims} ints, got {type(shape).__name__}") from None
    if len(t) != dims or any(isinstance(v, bool) or not isinstance(v, int) or not 0 < v <= _U32 for v in t):
        raise ValueError(f"{api}: '{name}' must be {dims} positive ints (b, s, h), got {t!r}")
    n = 1
    for v in t:
        n *= v
    if n > _U32:
        raise ValueError(f"{api}: '{name}' {t!r} has more than 2**32 - 1 elements")
    return t


def _type_size(api: str, type_size: int) -> int:
    if isinstance(type_size, bool) or type_size not in (2, 4):
        raise ValueError(f"{api}: 'type_size' must be 2 (float16) or 4 (float32), got {type_size!r}")
    return type_size


def get_rms_norm_max_min_tmp_size(src_shape: Sequence[int], type_size: int,
                                  is_basic_block: bool = False) -> Tuple[int, int]:
    """(max, min): the bytes of the temporary buffer asc.adv.rmsnorm can use for src_shape [b, s, h] — all rows in
    one round, and one row (the devkit's GetRmsNormMaxMinTmpSize). A ValueError where the devkit returns false:
    with is_basic_block, h not a multiple of 64 below 2048 or b * s not a multiple of 8."""
    api = "get_rms_norm_max_min_tmp_size"
    r = _C.host_rmsnorm_max_min_tmp_size(_shape(api, "src_shape", src_shape), _type_size(api, type_size),
                                         bool(is_basic_block))
    if r is None:
        raise ValueError(f"{api}: a basic block takes h a multiple of 64 below 2048 and b * s a multiple of 8, "
                         f"got {tuple(src_shape)!r}")
    return int(r[0]), int(r[1])


def get_rms_norm_tiling_info(src_shape: Sequence[int], original_src_shape: Sequence[int], stack_buffer_size: int,
                             type_size: int, is_basic_block: bool = False) -> RmsNormTiling:
    """The asc.adv.RmsNormTiling for src_shape [b, s, h] (h padded to 32 bytes) of original_src_shape [b, s,
    original h] with a temporary buffer of stack_buffer_size bytes (the devkit's GetRmsNormTilingInfo): as many
    rows a round as fit, at most 255 (basic block: a multiple of 8). A ValueError where the devkit returns false."""
    api = "get_rms_norm_tiling_info"
    if isinstance(stack_buffer_size, bool) or not isinstance(stack_buffer_size, int) or \
            not 0 <= stack_buffer_size <= _U32:
        raise ValueError(f"{api}: 'stack_buffer_size' must be an int of bytes, got {stack_buffer_size!r}")
    values, message = _C.host_rmsnorm_tiling_info(_shape(api, "src_shape", src_shape),
                                                  _shape(api, "original_src_shape", original_src_shape),
                                                  stack_buffer_size, _type_size(api, type_size),
                                                  bool(is_basic_block))
    if values is None:
        raise ValueError(f"{api}: {message}")
    names = ("b_length", "s_length", "h_length", "original_h_length", "reciprocal_of_h_length", "main_bsh_length",
             "main_bs_length", "main_bs_length_align", "loop_round", "input_tail_pos", "tail_bsh_length",
             "tail_bs_length")
    return RmsNormTiling(**dict(zip(names, values)))


def get_ascend_quant_max_min_tmp_size(src_shape: Sequence[int], type_size: int) -> Tuple[int, int]:
    """(max, min): the bytes of the temporary buffer asc.adv.quant can use for a src of src_shape (the devkit's
    GetAscendQuantMaxMinTmpSize: 2 bytes an element, at least 512, rounded up to 32; the minimum 512)."""
    api = "get_ascend_quant_max_min_tmp_size"
    try:
        dims = tuple(src_shape)
    except TypeError:
        dims = (src_shape,)  # type: ignore[assignment]
    n = 1
    for v in _shape(api, "src_shape", dims, len(dims) or 1):
        n *= v
    ts = _type_size(api, type_size)
    if (n * ts) % 32:
        raise ValueError(f"{api}: the src's {n * ts} bytes are not 32-byte aligned")
    mx, mn = _C.host_ascend_quant_max_min_tmp_size(n)
    return int(mx), int(mn)


__all__ = ["get_ascend_quant_max_min_tmp_size", "get_rms_norm_max_min_tmp_size", "get_rms_norm_tiling_info"]
