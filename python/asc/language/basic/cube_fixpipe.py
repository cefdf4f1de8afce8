"""The cube family's Fixpipe (arch 2201, src/sim/cube_fixpipe.c):
`asc.fixpipe` (L0C -> GM with its conversions, ReLU and the NZ / row-major
layouts) and `asc.set_fix_pipe_pre_quant_flag` (the scalar quant
register), with upstream pyasc's signatures."""

from __future__ import annotations

import enum
from typing import Any

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core import types as _types
from ..core.checks import describe, error, usage
from ..core.enums import CO2Layout, QuantModes, TPosition  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, LocalTensor, Scalar, const
from .cube import _bind, _local_at, _struct

# (src, mode) -> the dst types (the devkit's Fixpipe dtype table for the Atlas A2 and QuantMode_t)
_F32, _S32 = dt.float32, dt.int32
_B8 = (dt.int8, dt.uint8)
_MODES = {
    (_F32, QuantModes.NoQuant): (dt.float32,), (_F32, QuantModes.F322F16): (dt.float16,),
    (_F32, QuantModes.F322BF16): (dt.bfloat16,), (_F32, QuantModes.QF322B8_PRE): _B8,
    (_F32, QuantModes.VQF322B8_PRE): _B8,
    (_S32, QuantModes.NoQuant): (dt.int32,), (_S32, QuantModes.DEQF16): (dt.float16,),
    (_S32, QuantModes.VDEQF16): (dt.float16,), (_S32, QuantModes.REQ8): _B8, (_S32, QuantModes.VREQ8): _B8,
}
_VECTOR = (QuantModes.VDEQF16, QuantModes.VQF322B8_PRE, QuantModes.VREQ8)
_L1 = (TPosition.A1, TPosition.B1, TPosition.C1)


def _mode_for(src: Any, dst: Any) -> str:
    return ", ".join(f"QuantModes.{m.name}" for (s, m), ds in _MODES.items() if s == src and dst in ds)


@usage("asc.fixpipe(dst, src, params, config=asc.FixpipeConfig.cfg_row_major)",
       "asc.fixpipe(dst, src, cbuf_workspace, params, config=asc.FixpipeConfig.cfg_row_major)")
def fixpipe(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::Fixpipe` (FixpipeParamsV220): writes the m_size x n_size
    matrix of the L0C (CO1) tensor src, NZ with src_stride rows between its
    column fractals, to the GlobalTensor dst, converting each element as
    `quant_pre` says: float32 -> float32 (NoQuant), float16 (F322F16),
    bfloat16 (F322BF16), int8 / uint8 (QF322B8_PRE, VQF322B8_PRE); int32 ->
    int32 (NoQuant), float16 (DEQF16, VDEQF16), int8 / uint8 (REQ8, VREQ8).
    The scalar modes take their quant parameter from `deq_scalar`, the
    vector (V...) modes one uint64 per column from `cbuf_workspace`, a
    uint64 LocalTensor in L1 (C1). `relu_en`: ReLU (the negative side's
    factor 0). `config`: cfg_row_major (NZ to ND: rows dst_stride elements
    apart, nd_num matrices) or cfg_nz (NZ kept: column blocks dst_stride
    32-byte units apart, 32 bytes wide for an 8-bit dst; with
    `is_channel_split`, float32 -> float32 only, blocks of 8 columns). The
    conversions and their rounding are in docs/semantics.md."""
    api = "asc.fixpipe"
    ws = None
    if (args and isinstance(args[0], LocalTensor)) or "cbuf_workspace" in kwargs:
        p = _bind(api, ("cbuf_workspace", "params", "config"), args, kwargs,
                  {"config": _types.FixpipeConfig.cfg_row_major})
        ws = _local_at(api, p["cbuf_workspace"], "cbuf_workspace", _L1)
        if ws.dtype != dt.uint64:
            raise error(f"{api}: cbuf_workspace holds the uint64 quant parameters, got a {ws.dtype} tensor")
    else:
        p = _bind(api, ("params", "config"), args, kwargs, {"config": _types.FixpipeConfig.cfg_row_major})
    params = _struct(api, p["params"], "FixpipeParamsV220", "params")
    config = p["config"]
    if callable(config) and not isinstance(config, _types.FixpipeConfig):
        config = config()
    config = _struct(api, config, "FixpipeConfig", "config")
    layout = config.field("layout")
    if not isinstance(layout, (int, CO2Layout)):
        raise error(f"{api}: the FixpipeConfig's layout must be a constant CO2Layout")
    layout = CO2Layout(int(layout))
    if layout == CO2Layout.COLUMN_MAJOR:
        raise error(f"{api}: FixpipeConfig cfg_column_major (NZ to DN) is not supported on the Ascend910B (the "
                    "Ascend 950's)", "hint: use asc.FixpipeConfig.cfg_row_major or cfg_nz")
    if not isinstance(dst, GlobalTensor):
        raise error(f"{api}: 'dst' must be a GlobalTensor, got {describe(dst)}")
    _local_at(api, src, "src", (TPosition.CO1,))
    if not any(s == src.dtype and dst.dtype in ds for (s, _m), ds in _MODES.items()):
        raise error(f"{api} does not convert {src.dtype} to {dst.dtype} on the Ascend910B (float32 -> float32 / "
                    "float16 / bfloat16 / int8 / uint8, int32 -> int32 / float16 / int8 / uint8)")
    quant = params.field("quant_pre")
    if isinstance(quant, (int, QuantModes)):
        q = QuantModes(int(quant))
        if dst.dtype not in _MODES.get((src.dtype, q), ()):
            raise error(f"{api}: quant_pre QuantModes.{q.name} does not convert {src.dtype} to {dst.dtype}",
                        f"hint: for {src.dtype} -> {dst.dtype} use {_mode_for(src.dtype, dst.dtype)}")
        if q in _VECTOR and ws is None:
            raise error(f"{api}: quant_pre QuantModes.{q.name} takes its per-channel quant parameters from a "
                        "cbuf_workspace", "hint: write asc.fixpipe(dst, src, cbuf_workspace, params)")
    split = params.field("is_channel_split")
    if isinstance(split, (bool, int)) and split and (
            layout != CO2Layout.NZ or src.dtype != dt.float32 or dst.dtype != dt.float32):
        raise error(f"{api}: is_channel_split (the F32 channel split) needs float32 -> float32 with "
                    f"FixpipeConfig cfg_nz, got {src.dtype} -> {dst.dtype} with CO2Layout.{layout.name}")
    attrs = {"layout": ("CO2Layout", int(layout))}
    if ws is not None:
        _b.current().create("asc.fixpipe.workspace", [dst, src, ws, params.to_ir()], attrs=attrs)
    elif layout == CO2Layout.ROW_MAJOR:
        _b.current().create("asc.fixpipe", [dst, src, params.to_ir()])
    else:
        _b.current().create("asc.fixpipe.config", [dst, src, params.to_ir()], attrs=attrs)


@usage("asc.set_fix_pipe_pre_quant_flag(config)")
def set_fix_pipe_pre_quant_flag(config: Any) -> None:
    """`AscendC::SetFixpipePreQuantFlag(uint64_t)`: the QUANT_PRE register,
    the scalar quant parameter of the fixpipe's scalar modes (bits [31:13]
    the scale, an fp32 with 10 mantissa bits; [35:32] N and bit 36 MCB,
    the shift of an int32 source; [45:37] the offset; bit 46 the sign of an
    8-bit result). Fixpipe itself loads it from deq_scalar in the scalar
    modes (as the devkit's Fixpipe does)."""
    api = "asc.set_fix_pipe_pre_quant_flag"
    if isinstance(config, (bool, enum.Enum)):
        raise error(f"{api}: config must be a uint64 integer, got {describe(config)}")
    if isinstance(config, int):
        if not 0 <= config < 1 << 64:
            raise error(f"{api}: config {config} does not fit a uint64")
        v = const(config, dt.uint64)
    elif isinstance(config, Scalar) and config.dtype.is_int():
        v = config if config.dtype == dt.uint64 else config.cast(dt.uint64)
    else:
        raise error(f"{api}: config must be a uint64 integer, got {describe(config)}",
                    "hint: write asc.set_fix_pipe_pre_quant_flag(0x3F800000)")
    _b.current().create(api, [v])


def co12dst_copy(dst: Any, src: Any, params: Any) -> None:
    """`DataCopy(dst, src, DataCopyCO12DstParams)` (asc.data_copy's form):
    L0C (CO1) -> GM or L1 (A1/B1/C1), the register form of the fixpipe:
    `quant_pre` a scalar mode (its parameter the QUANT_PRE register of
    asc.set_fix_pipe_pre_quant_flag) or a cast, `relu_pre` 1 for ReLU,
    `nz2nd_en` (GM) rows `dst_stride` elements apart, else NZ with
    column blocks `dst_stride` 32-byte units apart; into L1 `nz2nd_en`
    has no effect on the Ascend910B (the devkit: Ascend 950 only), the
    copy is NZ. Into L1 it converts (float32 -> float32 and int32 ->
    int32 are not available there). `relu_pre` 2 (the scalar ReLU, its
    slope a register upstream cannot set) and the vector quant modes
    (their parameters in the fixpipe buffer, which upstream cannot point
    the fixpipe at) raise NotImplementedError."""
    api = "asc.data_copy"
    _local_at(api, src, "src", (TPosition.CO1,))
    to_l1 = isinstance(dst, LocalTensor)
    if to_l1:
        _local_at(api, dst, "dst", _L1)
    elif not isinstance(dst, GlobalTensor):
        raise error(f"{api} with DataCopyCO12DstParams: 'dst' must be a GlobalTensor or an L1 LocalTensor, got "
                    f"{describe(dst)}")
    params = _struct(api, params, "DataCopyCO12DstParams", "intri_params")
    if not any(s == src.dtype and dst.dtype in ds for (s, _m), ds in _MODES.items()):
        raise error(f"{api} from L0C does not convert {src.dtype} to {dst.dtype} on the Ascend910B")
    quant = params.field("quant_pre")
    if isinstance(quant, (int, QuantModes)):
        q = QuantModes(int(quant))
        if dst.dtype not in _MODES.get((src.dtype, q), ()):
            raise error(f"{api}: quant_pre QuantModes.{q.name} does not convert {src.dtype} to {dst.dtype}",
                        f"hint: for {src.dtype} -> {dst.dtype} use {_mode_for(src.dtype, dst.dtype)}")
        if to_l1 and q == QuantModes.NoQuant:
            raise error(f"{api}: L0C -> L1 converts: NoQuant ({src.dtype} -> {dst.dtype}) is not available on the "
                        "Ascend910B", "hint: write a float16 / bfloat16 / int8 L1 tensor with a quant_pre mode")
        if q in _VECTOR:
            # the devkit's copy_matrix_cc_to_gm / _cbuf reads the per-channel parameters from the fixpipe buffer
            # (C2PIPE2GM) at the address SetFixPipeConfig writes into the FPC register; upstream pyasc has no
            # set_fix_pipe_config (nor a copy into the fixpipe buffer), so no kernel can fill it
            raise NotImplementedError(f"asc.data_copy from L0C with quant_pre QuantModes.{q.name}: its per-channel "
                                      "parameters are read from the fixpipe buffer at the address "
                                      "AscendC::SetFixPipeConfig sets, which upstream pyasc has no API to set; "
                                      "use asc.fixpipe(dst, src, cbuf_workspace, params) instead")
    relu = params.field("relu_pre")
    if isinstance(relu, int) and not isinstance(relu, bool):
        if relu == 2:
            # the scalar (leaky) ReLU multiplies negatives by the LRELU_ALPHA register, set on arch 2201 only by
            # set_lrelu_alpha (the devkit's internal SetLreluALPHA); upstream pyasc cannot set it
            raise NotImplementedError("asc.data_copy from L0C with relu_pre 2 (the scalar / leaky ReLU): its slope "
                                      "is the LRELU_ALPHA register (the devkit's set_lrelu_alpha), which upstream "
                                      "pyasc has no API to set")
        if not 0 <= relu <= 2:
            raise error(f"{api}: relu_pre {relu} is not a ReLU mode (0: none, 1: ReLU)")
    # nz2nd_en into L1: the devkit's DataCopy (L0C to L1) page says it takes effect on the Ascend 950 only; on
    # the Ascend910B the copy writes NZ with or without it (src/sim/cube_fixpipe.c)
    v = params.field("channel_split")
    if isinstance(v, (bool, int)) and v and (to_l1 or src.dtype != dt.float32 or dst.dtype != dt.float32):
        raise error(f"{api}: channel_split (the F32 channel split) needs float32 -> float32 into GM")
    op = "asc.data_copy.co12dst.local_to_local" if to_l1 else "asc.data_copy.co12dst.local_to_gm"
    _b.current().create(op, [dst, src, params.to_ir()])
