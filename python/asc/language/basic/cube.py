"""The basic cube API (arch 2201; src/sim/cube_ops.c has the semantics):
`asc.load_data` (AscendC::LoadData, L1 -> L0A / L0B, the 2-D form),
`asc.mmad` (AscendC::Mmad, L0A x L0B -> L0C) and `asc.fixpipe`
(AscendC::Fixpipe, L0C -> GM, NZ to row-major with a dtype conversion and
ReLU), with upstream pyasc's signatures. `asc.data_copy` with an
`asc.Nd2NzParams` (GM -> L1) is built here too (`nd2nz_copy`).

A fractal is 16 rows of 32 bytes; L1 holds NZ matrices, L0A ZZ, L0B ZN,
L0C NZ (see src/sim/cube_ops.c). The APIs of the family not simulated yet
raise NotImplementedError naming themselves."""

from __future__ import annotations

from typing import Any, Dict, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core import types as _types
from ..core.checks import describe, error, usage
from ..core.enums import CO2Layout, QuantModes, TPosition  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, LocalTensor

_L1 = (TPosition.A1, TPosition.B1, TPosition.C1)
_L0AB = (TPosition.A2, TPosition.B2)
_ND2NZ_DTYPES = (dt.int8, dt.uint8, dt.float16, dt.bfloat16, dt.int16, dt.uint16, dt.float32, dt.int32, dt.uint32)
_LOAD_DTYPES = (dt.int8, dt.uint8, dt.float16, dt.bfloat16, dt.int16, dt.uint16, dt.float32, dt.int32,
                dt.uint32)
# (fm, filter) -> dst: the devkit's Mmad dtype table for the Atlas A2 (910B)
_MMAD_DTYPES = {dt.float16: dt.float32, dt.bfloat16: dt.float32, dt.int8: dt.int32, dt.float32: dt.float32}


def _pos(t: Any) -> Any:
    return getattr(t, "position", None)


def _local_at(api: str, t: Any, name: str, positions: Tuple[Any, ...]) -> LocalTensor:
    where = ", ".join(f"TPosition.{p.name}" for p in positions)
    if not isinstance(t, LocalTensor):
        raise error(f"{api}: '{name}' must be a LocalTensor at {where}, got {describe(t)}")
    if _pos(t) not in positions:
        raise error(f"{api}: '{name}' must be at {where}, got a LocalTensor at "
                    f"TPosition.{TPosition(_pos(t)).name}",
                    f"hint: allocate it from an asc.TQue / asc.TBuf at {where}")
    return t


def _struct(api: str, value: Any, cls_name: str, name: str) -> Any:
    cls = getattr(_types, cls_name)
    if not isinstance(value, cls):
        raise error(f"{api}: '{name}' must be an asc.{cls_name}, got {describe(value)}")
    return value


def _bind(api: str, names: Tuple[str, ...], args: Tuple[Any, ...], kwargs: Dict[str, Any],
          defaults: Dict[str, Any]) -> Dict[str, Any]:
    if len(args) > len(names):
        raise error(f"{api}: takes at most {len(names)} arguments after the tensors, got {len(args)}")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise error(f"{api}: unexpected argument '{k}'")
        if k in bound:
            raise error(f"{api}: argument '{k}' given twice")
        bound[k] = v
    for k, v in defaults.items():
        bound.setdefault(k, v)
    for k in names:
        if k not in bound:
            raise error(f"{api}: missing argument '{k}'")
    return bound


def nd2nz_copy(dst: Any, src: Any, params: Any) -> None:
    """`DataCopy(dst, src, Nd2NzParams)` GM -> L1 (asc.data_copy's form)."""
    api = "asc.data_copy"
    if isinstance(src, LocalTensor):
        raise NotImplementedError("asc.data_copy with Nd2NzParams from a LocalTensor (UB -> L1, software-"
                                  "emulated through the Matmul server on this arch) is not supported yet")
    if not isinstance(src, GlobalTensor):
        raise error(f"{api}: with Nd2NzParams 'src' must be a GlobalTensor, got {describe(src)}")
    _local_at(api, dst, "dst", _L1)
    if dst.dtype != src.dtype:
        raise error(f"{api}: dst and src element types differ ({dst.dtype} and {src.dtype})")
    if dst.dtype not in _ND2NZ_DTYPES:
        raise error(f"{api} with Nd2NzParams does not support element type {dst.dtype} on the Ascend910B "
                    "(int8, uint8, float16, bfloat16, int16, uint16, float32, int32, uint32)")
    _b.current().create("asc.data_copy.nd2nz.gm_to_local", [dst, src, params.to_ir()])


@usage("asc.load_data(dst, src, params)")
def load_data(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::LoadData` (2-D, `asc.LoadData2DParams`): moves
    `repeat_times` 512-byte fractals from L1 (A1/B1) to L0A (A2) or L0B
    (B2): fractal `start_index + r * src_stride` of src to fractal
    `r * (1 + dst_gap)` of dst (`addr_mode` 1: `start_index - r *
    src_stride`); `if_transpose` transposes each 16 x 16 fractal (16-bit
    types, L1 sources only). From a GlobalTensor (GM -> L0A / L0B) on MTE2.
    The LoadData2DParamsV2 and 3-D forms raise NotImplementedError."""
    api = "asc.load_data"
    p = _bind(api, ("params",), args, kwargs, {})
    name = type(p["params"]).__name__
    if name != "LoadData2DParams":
        if name in ("LoadData2DParamsV2", "LoadData3DParamsV1", "LoadData3DParamsV2", "LoadData3DParamsV2Pro"):
            raise NotImplementedError(f"asc.load_data with {name} is not supported yet (the 2-D form with "
                                      "asc.LoadData2DParams is)")
        raise error(f"{api}: 'params' must be an asc.LoadData2DParams, got {describe(p['params'])}")
    _local_at(api, dst, "dst", _L0AB)
    if not isinstance(src, GlobalTensor):
        _local_at(api, src, "src", _L1)
    if dst.dtype != src.dtype:
        raise error(f"{api}: dst and src element types differ ({dst.dtype} and {src.dtype})")
    if dst.dtype not in _LOAD_DTYPES:
        raise error(f"{api} does not support element type {dst.dtype} on the Ascend910B")
    op = "asc.load_data.2d.gm_to_local" if isinstance(src, GlobalTensor) else "asc.load_data.2d"
    _b.current().create(op, [dst, src, p["params"].to_ir()])


@usage("asc.mmad(dst, fm, filter, params)", "asc.mmad(dst, fm, filter, bias, params)")
def mmad(dst: Any, fm: Any, filter: Any, *args: Any, **kwargs: Any) -> None:  # noqa: A002 (upstream's name)
    """`AscendC::Mmad`: dst[m, n] = fm[m, k] x filter[k, n] (cmatrix_init_val
    True) or dst += it (False), fm in L0A (ZZ), filter in L0B (ZN), dst in
    L0C (NZ). float16 x float16 and bfloat16 x bfloat16 -> float32 (exact
    products, fp32 accumulation), int8 x int8 -> int32, float32 x float32
    -> float32. `mmad(dst, fm, filter, bias, params)`: with the bias in the
    bias table (C2) an element not cleared by cmatrix_init_val starts at
    bias[column] (the devkit's cmatrixSource 1); with the bias at CO1 at
    dst's own value. `is_bias` in the 4-operand form keeps dst's values
    (the devkit clears cmatrixInitVal then)."""
    api = "asc.mmad"
    bias = None
    if len(args) + len(kwargs) >= 2 or "bias" in kwargs:
        p = _bind(api, ("bias", "params"), args, kwargs, {})
        bias = _local_at(api, p["bias"], "bias", (TPosition.C2, TPosition.CO1))
    else:
        p = _bind(api, ("params",), args, kwargs, {})
    params = _struct(api, p["params"], "MmadParams", "params")
    _local_at(api, dst, "dst", (TPosition.CO1,))
    _local_at(api, fm, "fm", (TPosition.A2,))
    _local_at(api, filter, "filter", (TPosition.B2,))
    out = _MMAD_DTYPES.get(fm.dtype)
    if filter.dtype != fm.dtype or out is None or dst.dtype != out:
        raise error(f"{api} does not support {fm.dtype} x {filter.dtype} -> {dst.dtype} on the Ascend910B "
                    "(float16 x float16 -> float32, bfloat16 x bfloat16 -> float32, int8 x int8 -> int32, "
                    "float32 x float32 -> float32)")
    if bias is not None:
        if bias.dtype != dst.dtype:
            raise error(f"{api}: the bias is {bias.dtype}, dst {dst.dtype}: they must match (float32 or int32)")
        _b.current().create("asc.mmad.bias", [dst, fm, filter, bias, params.to_ir()])
        return
    _b.current().create("asc.mmad", [dst, fm, filter, params.to_ir()])


@usage("asc.fixpipe(dst, src, params)", "asc.fixpipe(dst, src, params, config)")
def fixpipe(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::Fixpipe` (FixpipeParamsV220, row-major): writes the
    m_size x n_size matrix of the L0C (CO1) tensor src, NZ with src_stride
    rows between its column fractals, to GM row by row (dst_stride
    elements apart), ReLU when relu_en, converting float32 to float16
    (QuantModes.F322F16) or bfloat16 (F322BF16), or keeping float32 / int32
    (NoQuant). The NZ layout (FixpipeConfig.cfg_nz), the workspace form
    and the other quant modes are not supported yet."""
    api = "asc.fixpipe"
    if args and isinstance(args[0], LocalTensor) or "cbuf_workspace" in kwargs:
        raise NotImplementedError("asc.fixpipe with a cbuf_workspace (the per-channel quant parameters in L1) "
                                  "is not supported yet")
    p = _bind(api, ("params", "config"), args, kwargs, {"config": _types.FixpipeConfig.cfg_row_major})
    params = _struct(api, p["params"], "FixpipeParamsV220", "params")
    config = p["config"]
    if callable(config) and not isinstance(config, _types.FixpipeConfig):
        config = config()
    config = _struct(api, config, "FixpipeConfig", "config")
    layout = config.field("layout")
    if layout != CO2Layout.ROW_MAJOR and layout != int(CO2Layout.ROW_MAJOR):
        raise NotImplementedError("asc.fixpipe with a FixpipeConfig other than cfg_row_major (NZ or column-major "
                                  "output) is not supported yet")
    if not isinstance(dst, GlobalTensor):
        raise error(f"{api}: 'dst' must be a GlobalTensor, got {describe(dst)}")
    _local_at(api, src, "src", (TPosition.CO1,))
    ok = (src.dtype == dt.float32 and dst.dtype in (dt.float32, dt.float16, dt.bfloat16)) or (
        src.dtype == dt.int32 and dst.dtype == dt.int32)
    # the devkit's other pairs for the Atlas A2: the quantising modes (DEQF16, REQ8, QF322B8_PRE, V...)
    quantised = (src.dtype == dt.float32 and dst.dtype in (dt.int8, dt.uint8)) or (
        src.dtype == dt.int32 and dst.dtype in (dt.int8, dt.uint8, dt.float16))
    if quantised:
        raise NotImplementedError(f"asc.fixpipe from {src.dtype} to {dst.dtype} (a quantising quant_pre: DEQF16, "
                                  "REQ8, QF322B8_PRE or their vector forms) is not supported yet")
    if not ok:
        raise error(f"{api} does not convert {src.dtype} to {dst.dtype} on the Ascend910B (float32 -> float32 / "
                    "float16 / bfloat16 / int8 / uint8, int32 -> int32 / float16 / int8 / uint8)")
    quant = params.field("quant_pre")
    if isinstance(quant, QuantModes) or isinstance(quant, int):
        want = {dt.float32: 0, dt.int32: 0, dt.float16: 1, dt.bfloat16: 2}[dst.dtype]
        if int(quant) != want:
            raise error(f"{api}: quant_pre {QuantModes(int(quant)).name} does not write {dst.dtype}",
                        f"hint: use asc.QuantModes.{QuantModes(want).name} for a {dst.dtype} dst")
    _b.current().create("asc.fixpipe", [dst, src, params.to_ir()])


def _not_yet(name: str) -> Any:
    def fn(*args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"asc.{name} is not supported yet (the cube family has load_data 2-D, mmad "
                                  "and fixpipe)")
    fn.__name__ = name
    fn.__doc__ = f"`asc.{name}`: not supported yet (raises NotImplementedError)."
    return fn


load_data_with_transpose = _not_yet("load_data_with_transpose")
load_data_with_sparse = _not_yet("load_data_with_sparse")
mmad_with_sparse = _not_yet("mmad_with_sparse")
set_load_data_boundary = _not_yet("set_load_data_boundary")
set_load_data_padding_value = _not_yet("set_load_data_padding_value")
set_load_data_repeat = _not_yet("set_load_data_repeat")


_BT_DTYPES = (dt.float32, dt.int32)


def l1_to_bt_copy(dst: LocalTensor, src: LocalTensor, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
    """`DataCopy(dst_c2, src_c1, count)` / `(dst_c2, src_c1, repeat_params)`: L1 (C1) -> bias table (C2), MTE1
    (asc.data_copy's form): `block_count` blocks of `block_len` 64-byte units, `src_stride` 32-byte and
    `dst_stride` 64-byte units between a block's end and the next one's start; the count form copies
    count * sizeof(T) bytes rounded down to 64 (the devkit's blockLen = count / (64 / sizeof(T)))."""
    api = "asc.data_copy"
    if dst.dtype != src.dtype:
        if dst.dtype == dt.float32 and src.dtype == dt.float16:
            raise NotImplementedError("asc.data_copy L1 -> bias table converting float16 to float32 is not "
                                      "supported yet")
        raise error(f"{api}: L1 -> bias table copies {src.dtype} to {dst.dtype}: the Ascend910B has float32 -> "
                    "float32, int32 -> int32 (and float16 -> float32)")
    if dst.dtype not in _BT_DTYPES:
        raise error(f"{api}: the bias table (TPosition.C2) holds float32 or int32, got {dst.dtype}")
    first = args[0] if args else next((kwargs[k] for k in ("repeat_params", "intri_params", "count")
                                       if k in kwargs), None)
    if isinstance(first, _types.DataCopyParams):  # type: ignore[attr-defined]
        p = _bind(api, ("repeat_params",), args, {("repeat_params" if k == "intri_params" else k): v
                                                  for k, v in kwargs.items()}, {})
        _b.current().create("asc.data_copy.params.l1_to_bt", [dst, src, p["repeat_params"].to_ir()])
        return
    if isinstance(first, _types.ParamStruct):
        raise error(f"{api}: L1 -> bias table takes a count or an asc.DataCopyParams, got {describe(first)}")
    from ..core.values import int_operand
    p = _bind(api, ("count",), args, kwargs, {})
    _b.current().create("asc.data_copy.l1_to_bt", [dst, src, int_operand(p["count"], "count")])


_INIT_DTYPES = (dt.float16, dt.bfloat16, dt.int16, dt.uint16, dt.float32, dt.int32, dt.uint32)


@usage("asc.init_const_value(dst, init_const_value_params)")
def init_const_value(dst: Any, init_const_value_params: Any) -> None:
    """`AscendC::InitConstValue`: fills dst in L1 (A1/B1, MTE2, 32-byte
    blocks) or L0A / L0B (A2/B2, MTE1, 512-byte blocks) with `init_value`:
    `repeat_times` repeats of `block_num` blocks, `dst_gap` blocks between a
    repeat's end and the next one's start. The params' T (the type of
    init_value) must be dst's: float16, bfloat16, int16, uint16, float32,
    int32, uint32."""
    api = "asc.init_const_value"
    # the devkit dispatches on the physical memory (GetPhyType): C1 is L1 too
    _local_at(api, dst, "dst", _L1 + _L0AB)
    params = _struct(api, init_const_value_params, "InitConstValueParams", "init_const_value_params")
    if dst.dtype not in _INIT_DTYPES:
        raise error(f"{api} does not support element type {dst.dtype} on the Ascend910B (float16, bfloat16, "
                    "int16, uint16, float32, int32, uint32)")
    if params.dtype != dst.dtype:
        raise error(f"{api}: init_const_value_params is an InitConstValueParams of {params.dtype} but dst is "
                    f"{dst.dtype}",
                    "hint: give init_value in dst's type, e.g. np.float16(1.0) for a float16 dst, or a scalar "
                    "of that dtype")
    op = "asc.init_const_value" if _pos(dst) in _L1 else "asc.init_const_value.l0"
    _b.current().create(op, [dst, params.to_ir()])


set_fix_pipe_pre_quant_flag = _not_yet("set_fix_pipe_pre_quant_flag")
