"""The basic cube API (arch 2201; src/sim/cube_ops.c has the semantics):
`asc.mmad` (AscendC::Mmad, L0A x L0B -> L0C), `asc.init_const_value`, the
Mmad mode registers (`asc.set_hf32_mode`, `asc.set_hf32_trans_mode`,
`asc.set_mm_layout_transform`: src/sim/cube_hf32.c), with upstream pyasc's
signatures; the loads are in cube_load.py, Fixpipe in cube_fixpipe.py.
`asc.data_copy` with an `asc.Nd2NzParams` (GM -> L1) is built here too
(`nd2nz_copy`).

A fractal is 16 rows of 32 bytes; L1 holds NZ matrices, L0A ZZ, L0B ZN,
L0C NZ (see src/sim/cube_ops.c). The APIs of the family not simulated yet
raise NotImplementedError naming themselves."""

from __future__ import annotations

import enum
from typing import Any, Dict, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core import types as _types
from ..core.checks import describe, error, usage
from ..core.enums import TPosition  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, LocalTensor

_L1 = (TPosition.A1, TPosition.B1, TPosition.C1)
_L0AB = (TPosition.A2, TPosition.B2)
_UB = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)
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
    """`DataCopy(dst, src, Nd2NzParams)` GM -> L1 (A1/B1/C1, the MTE2's ND2NZ)
    or GM -> UB (VECIN/VECOUT/VECCALC: the devkit's software copy, a loop
    of DataCopyPad; docs/semantics.md has its layout, including that each
    of the nd_num matrices is the one at src_nd_matrix_stride, written at
    dst_nz_matrix_stride) (asc.data_copy's form)."""
    api = "asc.data_copy"
    if isinstance(src, LocalTensor):
        # the devkit's DataCopyUB2L1ND2NZImpl: the vector core copies to a GM workspace and asks the Matmul
        # server on the cube core (KFC, ScmDataCopyND2NZMsg) to copy it into L1
        raise NotImplementedError("asc.data_copy with Nd2NzParams from a LocalTensor (UB -> L1, software-"
                                  "emulated through the Matmul server (KFC) on this arch) is not supported yet")
    if not isinstance(src, GlobalTensor):
        raise error(f"{api}: with Nd2NzParams 'src' must be a GlobalTensor, got {describe(src)}")
    ub = isinstance(dst, LocalTensor) and _pos(dst) in _UB
    if not ub:
        _local_at(api, dst, "dst", _L1 + _UB)
    if dst.dtype != src.dtype:
        raise error(f"{api}: dst and src element types differ ({dst.dtype} and {src.dtype})")
    if dst.dtype not in _ND2NZ_DTYPES:
        raise error(f"{api} with Nd2NzParams does not support element type {dst.dtype} on the Ascend910B "
                    "(int8, uint8, float16, bfloat16, int16, uint16, float32, int32, uint32)")
    # into UB: the devkit's software copy (DataCopyGM2UBND2NZImpl, a loop of DataCopyPad GM -> UB; a NOP on a
    # cube core), src/sim/datamove.c
    op = "asc.data_copy.nd2nz.gm_to_ub" if ub else "asc.data_copy.nd2nz.gm_to_local"
    _b.current().create(op, [dst, src, params.to_ir()])


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


_BT_DTYPES = (dt.float32, dt.int32)


def l1_to_bt_copy(dst: LocalTensor, src: LocalTensor, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
    """`DataCopy(dst_c2, src_c1, count)` / `(dst_c2, src_c1, repeat_params)`: L1 (C1) -> bias table (C2), MTE1
    (asc.data_copy's form): `block_count` blocks of `block_len` 64-byte units, `src_stride` 32-byte and
    `dst_stride` 64-byte units between a block's end and the next one's start; the count form copies
    count * sizeof(T) bytes rounded down to 64 (the devkit's blockLen = count / (64 / sizeof(T))). A float16 src
    and a float32 dst (DataCopyParams form only): each half widened to float, block_len counting 64-byte units of
    the halves (src/sim/cube_load.c)."""
    api = "asc.data_copy"
    if dst.dtype != src.dtype:
        if dst.dtype == dt.float32 and src.dtype == dt.float16:
            # DataCopy<float, half>: only the DataCopyParams form (block_len in 64-byte units of the halves)
            first = args[0] if args else kwargs.get("repeat_params", kwargs.get("intri_params"))
            if not isinstance(first, _types.DataCopyParams):  # type: ignore[attr-defined]
                raise error(f"{api}: L1 -> bias table converting float16 to float32 takes an asc.DataCopyParams "
                            f"(block_len in 64-byte units of the float16 source), got {describe(first)}")
            p = _bind(api, ("repeat_params",), args, {("repeat_params" if k == "intri_params" else k): v
                                                      for k, v in kwargs.items()}, {})
            _b.current().create("asc.data_copy.params.l1_to_bt.conv", [dst, src, p["repeat_params"].to_ir()])
            return
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




def flag_operand(api: str, value: Any, name: str) -> Any:
    """A bool argument (a Python bool or int, or a runtime bool / integer
    scalar) as the IR's bool operand."""
    from ..core.values import Scalar, const
    if isinstance(value, (bool, int)) and not isinstance(value, enum.Enum):
        return const(int(bool(value)), dt.bool_)
    if isinstance(value, Scalar) and (value.dtype == dt.bool_ or value.dtype.is_int()):
        return value
    raise error(f"{api}: '{name}' must be a bool, got {describe(value)}", f"hint: write {api}(True)")


def set_hf32_mode(hf32_mode: Any) -> None:
    """`AscendC::SetHF32Mode(bool)`: with True, Mmad rounds its float32
    operands in L0A / L0B to HF32 (1 sign, 8 exponent and 11 mantissa bits)
    before multiplying, as set_hf32_trans_mode chooses; False (the state
    as a kernel starts) multiplies float32 as it is. The simulator keeps
    the flag in the core's registers (hf32_mode)."""
    _b.current().create("asc.set_hf32_mode", [flag_operand("asc.set_hf32_mode", hf32_mode, "hf32_mode")])


def set_hf32_trans_mode(trans_mode: Any) -> None:
    """`AscendC::SetHF32TransMode(bool)`: how HF32 mode rounds float32 to
    HF32, to nearest: True with ties away from zero (the devkit's
    HF32TransMode::NEAREST_ZERO), False (the state as a kernel starts)
    with ties to even."""
    _b.current().create("asc.set_hf32_trans_mode",
                        [flag_operand("asc.set_hf32_trans_mode", trans_mode, "trans_mode")])


def set_mm_layout_transform(mm_layout_mode: Any) -> None:
    """`AscendC::SetMMLayoutTransform(bool)`: the order in which the cube
    produces Mmad's result fractals: True N first, then M; False (the
    state as a kernel starts) M first. The order changes no value."""
    _b.current().create("asc.set_mm_layout_transform",
                        [flag_operand("asc.set_mm_layout_transform", mm_layout_mode, "mm_layout_mode")])


set_hf32_mode = usage("asc.set_hf32_mode(hf32_mode)")(set_hf32_mode)
set_hf32_trans_mode = usage("asc.set_hf32_trans_mode(trans_mode)")(set_hf32_trans_mode)
set_mm_layout_transform = usage("asc.set_mm_layout_transform(mm_layout_mode)")(set_mm_layout_transform)
