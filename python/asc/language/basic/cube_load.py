"""The cube family's loads into L0A / L0B (arch 2201, src/sim/cube_ops.c
and src/sim/cube_load.c): `asc.load_data` (the 2-D and 3-D forms),
`asc.load_data_with_transpose` and the
registers the 3-D load reads (`asc.set_load_data_boundary`,
`asc.set_load_data_padding_value`, `asc.set_load_data_repeat`), with
upstream pyasc's signatures."""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import describe, error, usage
from ..core.enums import TPosition  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, Scalar, is_number, to_scalar
from .cube import _L0AB, _L1, _LOAD_DTYPES, _bind, _local_at, _struct

# the devkit's arch 2201 implementation reports these forms unsupported
# (impl/basic_api/dav_c220/kernel_operator_mm_impl.h: ReportNotSupport)
_NOT_ON_2201 = ("LoadData2DParamsV2", "LoadData3DParamsV1")
_TRANSPOSE_DTYPES = (dt.int8, dt.uint8, dt.float16, dt.bfloat16, dt.int32, dt.uint32, dt.float32)
_LOAD3D_DTYPES = (dt.float16, dt.bfloat16, dt.float32, dt.int32, dt.uint32, dt.int8, dt.uint8)


def _same_dtype(api: str, dst: Any, src: Any, allowed: tuple) -> None:
    if dst.dtype != src.dtype:
        raise error(f"{api}: dst and src element types differ ({dst.dtype} and {src.dtype})")
    if dst.dtype not in allowed:
        raise error(f"{api} does not support element type {dst.dtype} on the Ascend910B ("
                    + ", ".join(str(d) for d in allowed) + ")")


@usage("asc.load_data(dst, src, params)")
def load_data(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::LoadData`.

    - 2-D (`asc.LoadData2DParams`): moves `repeat_times` 512-byte fractals
      from L1 (A1/B1) to L0A (A2) or L0B (B2): fractal `start_index + r *
      src_stride` of src to fractal `r * (1 + dst_gap)` of dst (`addr_mode`
      1: `start_index - r * src_stride`); `if_transpose` transposes each
      16 x 16 fractal (16-bit types, L1 sources only). From a GlobalTensor
      (GM -> L0A / L0B) on MTE2.
    - 3-D (`asc.LoadData3DParamsV2`, img2col): src is an L1 feature map in
      NC1HWC0 (C0 = 32 bytes), dst receives the m_extension x k_extension
      window of its img2col matrix from (m_start_pt, k_start_pt) as
      fractals (L0A: ZZ, L0B: ZN); see docs/semantics.md.

    `asc.LoadData2DParamsV2` and `asc.LoadData3DParamsV1` are not available
    on the Ascend910B (a CompileError). `asc.LoadData3DParamsV2Pro` packs
    the window (ext_config: k_extension, m_extension << 16, k_start_pt <<
    32, m_start_pt << 48) and the filter (filter_config: stride_w, stride_h
    << 8, filter_w << 16, filter_h << 24, dilations << 32 and << 40) and
    takes the map's l1_h, l1_w and pad_list from the FMATRIX register a
    LoadData3DParamsV2 load set, the padding from the PADDING register
    (`asc.set_load_data_padding_value`)."""
    api = "asc.load_data"
    p = _bind(api, ("params",), args, kwargs, {})
    params = p["params"]
    name = type(params).__name__
    if name in _NOT_ON_2201:
        raise error(f"{api} with asc.{name} is not supported on the Ascend910B (the devkit's arch 2201 "
                    "implementation reports it unsupported)",
                    "hint: use asc.LoadData2DParams (2-D) or asc.LoadData3DParamsV2 (3-D)")
    if name in ("LoadData3DParamsV2", "LoadData3DParamsV2Pro"):
        _local_at(api, dst, "dst", _L0AB)
        if isinstance(src, GlobalTensor):
            raise error(f"{api} with asc.LoadData3DParamsV2 loads from L1: 'src' must be a LocalTensor at "
                        "TPosition.A1 or B1, got a GlobalTensor")
        _local_at(api, src, "src", _L1)
        _same_dtype(api, dst, src, _LOAD3D_DTYPES)
        to_b = dst.position == TPosition.B2
        if to_b and dst.dtype.sizeof() == 1:
            raise error(f"{api} with asc.LoadData3DParamsV2 into L0B (TPosition.B2) does not support {dst.dtype} on "
                        "the Ascend910B (float16, bfloat16, float32, int32, uint32)")
        tr = params.field("en_transpose")
        if dst.dtype.sizeof() == 1 and isinstance(tr, (bool, int)) and tr:
            # the devkit's LoadData (3-D) page for the Atlas A2: transposed, L1 -> L0A does not support b8 (en_transpose
            # takes effect for b16 / b32 only; b8 on the Ascend 950)
            raise error(f"{api} with asc.{name} of {dst.dtype} with en_transpose is not supported on the Ascend910B "
                        "(the transposed L1 -> L0A load takes 16- and 32-bit types)",
                        "hint: load it untransposed, or transpose with asc.load_data_with_transpose")
        if name == "LoadData3DParamsV2Pro":
            _b.current().create("asc.load_data.3d_v2_pro", [dst, src, params.to_ir()])
            return
        if params.dtype != dst.dtype:
            raise error(f"{api}: params is an asc.LoadData3DParamsV2 of {params.dtype} but the tensors are "
                        f"{dst.dtype}", f"hint: write asc.LoadData3DParamsV2(..., dtype=asc.{dst.dtype})")
        _b.current().create("asc.load_data.3d_v2", [dst, src, params.to_ir()])
        return
    if name != "LoadData2DParams":
        raise error(f"{api}: 'params' must be an asc.LoadData2DParams or asc.LoadData3DParamsV2, got "
                    f"{describe(params)}")
    _local_at(api, dst, "dst", _L0AB)
    if not isinstance(src, GlobalTensor):
        _local_at(api, src, "src", _L1)
    _same_dtype(api, dst, src, _LOAD_DTYPES)
    op = "asc.load_data.2d.gm_to_local" if isinstance(src, GlobalTensor) else "asc.load_data.2d"
    _b.current().create(op, [dst, src, params.to_ir()])


@usage("asc.load_data_with_transpose(dst, src, params)")
def load_data_with_transpose(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::LoadDataWithTranspose` (`asc.LoadData2dTransposeParams`):
    L1 (A1/B1) -> L0A (A2) / L0B (B2), `repeat_times` square matrices each
    transposed: 16 x 16 of a 16-bit type (one fractal), 32 x 32 of an 8-bit
    type (two 16 x 32 fractals), 16 x 16 of a 32-bit type (two 16 x 8
    fractals). Square `start_index + r * src_stride` of src (in squares;
    `addr_mode` 1 subtracts) goes to dst from fractal `r * (dst_gap + 1)`,
    its second fractal `dst_frac_gap` fractals after its first.
    `asc.LoadData2dTransposeParamsV2` is not available on the Ascend910B
    (a CompileError)."""
    api = "asc.load_data_with_transpose"
    p = _bind(api, ("params",), args, kwargs, {})
    name = type(p["params"]).__name__
    if name == "LoadData2dTransposeParamsV2":
        raise error(f"{api} with asc.LoadData2dTransposeParamsV2 is not supported on the Ascend910B (the devkit's "
                    "arch 2201 implementation reports it unsupported)",
                    "hint: use asc.LoadData2dTransposeParams")
    params = _struct(api, p["params"], "LoadData2dTransposeParams", "params")
    _local_at(api, dst, "dst", _L0AB)
    _local_at(api, src, "src", _L1)
    _same_dtype(api, dst, src, _TRANSPOSE_DTYPES)
    _b.current().create("asc.load_data_with_transpose", [dst, src, params.to_ir()])


@usage("asc.set_load_data_boundary(boundary)")
def set_load_data_boundary(boundary: Any) -> None:
    """`AscendC::SetLoadDataBoundary(uint32_t)`: the L1_3D_SIZE register,
    the bytes of L1 from a 3-D load's source address that it may read: an
    access past them wraps to the source's start (0, the state as a kernel
    starts: no boundary)."""
    api = "asc.set_load_data_boundary"
    from ..core.values import int_operand
    try:
        v = int_operand(boundary, "boundary")
    except TypeError as e:
        raise error(f"{api}: {e}", "hint: write asc.set_load_data_boundary(1024)") from None
    _b.current().create(api, [v])


@usage("asc.set_load_data_padding_value(pad_value)")
def set_load_data_padding_value(pad_value: Any) -> None:
    """`AscendC::SetLoadDataPaddingValue<T>(pad_value)`: the PADDING
    register, the value a 3-D load writes where its window lies in the
    feature map's padding. T is the value's type (a Python int is int32, a
    float float32: pass a typed value such as np.float16(1) for a float16
    load); the register holds its bits (an 8-bit value twice) and a load of
    a narrower type reads their low bytes."""
    api = "asc.set_load_data_padding_value"
    if isinstance(pad_value, bool) or not (is_number(pad_value) or isinstance(pad_value, Scalar)):
        raise error(f"{api}: pad_value must be a number or a runtime scalar, got {describe(pad_value)}",
                    "hint: write asc.set_load_data_padding_value(0)")
    v = to_scalar(pad_value)
    if v.dtype not in (dt.int8, dt.uint8, dt.int16, dt.uint16, dt.float16, dt.bfloat16, dt.int32, dt.uint32,
                       dt.float32):
        raise error(f"{api} does not support a padding value of {v.dtype.name} (an 8-, 16- or 32-bit value)")
    _b.current().create(api, [v])


@usage("asc.set_load_data_repeat(param)")
def set_load_data_repeat(param: Any) -> None:
    """`AscendC::SetLoadDataRepeat(LoadDataRepeatParam)`: the L3D_RPT
    register of the 3-D load: `repeat_time` loads of the 3-D instruction's
    window, `repeat_stride` (in fractal rows of 16 for repeat_mode 0,
    along M) between them, `repeat_mode` 0 (M) or 1 (K)."""
    api = "asc.set_load_data_repeat"
    p = _struct(api, param, "LoadDataRepeatParam", "param")
    _b.current().create(api, [p.to_ir()])


