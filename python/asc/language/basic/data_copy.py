"""Data movement: `asc.data_copy` (AscendC::DataCopy), `asc.data_copy_pad`
(AscendC::DataCopyPad), `asc.set_pad_value` (AscendC::SetPadValue) and
`asc.copy` (AscendC::Copy, UB -> UB with a mask).

data_copy moves whole 32-byte blocks: `count` elements (rounded down to
whole blocks), or a DataCopyParams (block_count blocks of block_len
32-byte units, src_stride / dst_stride 32-byte units between them). GM ->
UB runs on MTE2, UB -> GM on MTE3, UB -> UB on V. data_copy_pad moves
byte-granular blocks (DataCopyExtParams / DataCopyParams with block_len in
bytes, the GM stride in bytes and the UB stride in 32-byte blocks), each
UB block padded to 32 bytes; GM -> UB it adds left/right padding of a pad
value (DataCopyPadExtParams / DataCopyPadParams). Writes into GM combine
with memory when a store atomic is set (asc.set_atomic_add, ...).

The copies between GM or UB and the cube's buffers (L1, L0A/B/C: the
Nd2NzParams, Nz2NdParamsFull and DataCopyCO12DstParams forms, and tensors
at the A1/B1/CO1/... positions) belong to the cube family and raise
NotImplementedError here. The slice form (slice_list1, slice_list2,
dim_value: SliceInfo lists) copies a strided sub-block of a tensor of up
to 8 dimensions.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core import types as _types
from ..core.checks import describe, enum_arg, error, usage
from ..core.constexpr import ConstExpr
from ..core.enums import TPosition  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, LocalTensor, Scalar, const, int_operand, is_number, to_scalar
from .vec_ops import _check_const, _u64

_UB_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)
_COPY_DTYPES = (dt.int16, dt.uint16, dt.float16, dt.bfloat16, dt.int32, dt.uint32, dt.float32)
_HINT = ("hint: write asc.data_copy(dst, src, count) with count the number of elements, or "
         "asc.data_copy(dst, src, asc.DataCopyParams(block_count, block_len, src_stride, dst_stride))")


def _direction(api: str, dst: Any, src: Any) -> str:
    """gm_to_local, local_to_gm or local_to_local; the cube positions are
    the cube family's."""
    # family: cube: DataCopy GM -> L1 (A1, B1, C1) by count or DataCopyParams (MTE2, as GM -> UB)
    if api == "asc.data_copy" and isinstance(src, GlobalTensor) and isinstance(dst, LocalTensor) and \
            getattr(dst, "position", None) in (TPosition.A1, TPosition.B1, TPosition.C1):
        return "gm_to_local"
    # family: cube: DataCopy L1 (C1) -> bias table (C2), MTE1
    if api == "asc.data_copy" and isinstance(src, LocalTensor) and isinstance(dst, LocalTensor) and \
            getattr(dst, "position", None) == TPosition.C2 and getattr(src, "position", None) == TPosition.C1:
        return "l1_to_bt"
    # family: cube (cube2): DataCopy L1 (A1, B1, C1) -> GM by count or DataCopyParams: the devkit's
    # DataCopyL12GMImpl (copy_cbuf_to_gm, MTE3, on the cube core), the same copy as UB -> GM
    _l1 = (TPosition.A1, TPosition.B1, TPosition.C1)
    if api == "asc.data_copy" and isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor) and \
            getattr(src, "position", None) in _l1:
        return "local_to_gm"
    # DataCopyPad between GM and L1: arch 2201 reports it unsupported (DataCopyPadGM2L1Impl, DataCopyPadL12GMImpl)
    if api == "asc.data_copy_pad" and (isinstance(dst, GlobalTensor) or isinstance(src, GlobalTensor)):
        local = src if isinstance(dst, GlobalTensor) else dst
        if isinstance(local, LocalTensor) and getattr(local, "position", None) in _l1:
            raise error(f"{api} between GM and L1 (TPosition.{TPosition(local.position).name}) is not supported on "
                        "the Ascend910B (the devkit's arch 2201 reports it unsupported)",
                        "hint: asc.data_copy moves whole 32-byte blocks between GM and L1")
    # the routes arch 2201 reports unsupported (DataCopyL12UBImpl, DataCopyL0C2UBImpl, DataCopyUB2L0CImpl)
    if api == "asc.data_copy" and isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        sp, dp = getattr(src, "position", None), getattr(dst, "position", None)
        if (sp in _l1 and dp in _UB_POSITIONS) or (sp == TPosition.CO1 and dp in _UB_POSITIONS) or \
                (sp in _UB_POSITIONS and dp == TPosition.CO1):
            raise error(f"{api} from TPosition.{TPosition(sp).name} to TPosition.{TPosition(dp).name} is not "
                        "supported on the Ascend910B (the devkit's arch 2201 reports it unsupported)",
                        "hint: L1 and L0C reach the UB through GM (L1 -> GM by data_copy, L0C -> GM by fixpipe)")
    for t in (dst, src):
        if isinstance(t, LocalTensor) and getattr(t, "position", TPosition.VECCALC) not in _UB_POSITIONS:
            # what is left on arch 2201: UB -> L1 (software-emulated: the vector core copies to a GM workspace
            # and asks the Matmul server on the cube core, KFC, to copy it into L1) and L1 -> L0C
            raise NotImplementedError(f"{api} with a LocalTensor at TPosition.{TPosition(t.position).name} "
                                      f"({describe(src)} -> {describe(dst)}) is not supported yet: UB -> L1 runs "
                                      "through the Matmul server (KFC) on this arch, L1 -> L0C is not modelled")
    if isinstance(dst, LocalTensor) and isinstance(src, GlobalTensor):
        return "gm_to_local"
    if isinstance(dst, GlobalTensor) and isinstance(src, LocalTensor):
        return "local_to_gm"
    if isinstance(dst, LocalTensor) and isinstance(src, LocalTensor):
        return "local_to_local"
    raise error(f"{api} copies GlobalTensor→LocalTensor, LocalTensor→GlobalTensor or "
                f"LocalTensor→LocalTensor, got {type(dst).__name__} ← {type(src).__name__} "
                f"(dst: {describe(dst)}, src: {describe(src)})",
                "hint: copy between a GlobalTensor (set_global_buffer) and a LocalTensor (alloc_tensor, "
                "TBuf.get or asc.LocalTensor): asc.data_copy(x_ub, x_gm, n), asc.data_copy(z_gm, z_ub, n)")


def _same_dtype(api: str, dst: Any, src: Any) -> None:
    if dst.dtype != src.dtype:
        raise error(f"{api}: dst is {dst.dtype.name} but src is {src.dtype.name}",
                    "hint: copy between tensors of one element type; convert in UB with asc.cast")


def _bind(api: str, names: Tuple[str, ...], args: tuple, kwargs: Dict[str, Any], hint: str) -> Dict[str, Any]:
    if len(args) > len(names):
        raise error(f"{api}: too many arguments ({len(args)}) for the form ({', '.join(names)})", hint)
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise error(f"{api}: unexpected keyword argument `{k}`", hint)
        if k in bound:
            raise error(f"{api}: `{k}` is given both by position and by keyword", hint)
        bound[k] = v
    return bound


def _struct_name(x: Any) -> Optional[str]:
    return type(x).__name__ if isinstance(x, _types.ParamStruct) else None


@usage("asc.data_copy(dst, src, count)", "asc.data_copy(dst, src, repeat_params)",
       "asc.data_copy(dst, src, intri_params, enhanced_params)")
def data_copy(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::DataCopy` between GM and UB or within the UB.

    - `data_copy(dst, src, count)`: `count` elements; `count * sizeof(T)`
      should be a multiple of 32 bytes, otherwise (as on the NPU) the
      amount moved is rounded down to whole 32-byte blocks.
    - `data_copy(dst, src, repeat_params)` with an `asc.DataCopyParams`:
      `block_count` blocks of `block_len` 32-byte units; `src_stride` and
      `dst_stride` (32-byte units) between the end of a block and the start
      of the next, on either side.
    - `data_copy(dst, src, intri_params, enhanced_params)`: the same with
      an `asc.DataCopyEnhancedParams`, whose fields only matter for L0C
      (GM <-> UB and UB -> UB copies ignore them, as the devkit does).

    - `data_copy(dst, src, slice_list1, slice_list2, dim_value)` (GM ->
      UB or UB -> GM): lists of `asc.SliceInfo`, dst's then src's, one per
      dimension (dimension 0 the innermost); see `_data_copy_slice`.

    - `data_copy(dst_gm, src_ub, intri_params)` with an
      `asc.Nz2NdParamsFull`: UB -> GM turning `nd_num` NZ matrices of
      `n_value` rows x `d_value` columns (a multiple of 16; 16- or 32-bit
      elements) into ND rows `dst_d_stride` elements apart; see
      `_nz2nd_copy`.

    UB addresses must be 32-byte aligned, GM addresses aligned to the
    element size. Nd2NzParams and DataCopyCO12DstParams are the cube's
    copies (cube.py, cube_fixpipe.py).
    """
    api = "asc.data_copy"
    if "slice_list1" in kwargs or "slice_list2" in kwargs or "dim_value" in kwargs or \
            (args and isinstance(args[0], (list, tuple))):
        _data_copy_slice(api, dst, src, args, kwargs)
        return
    first = args[0] if args else next((kwargs[k] for k in ("repeat_params", "intri_params", "count")
                                       if k in kwargs), None)
    name = _struct_name(first)
    if name == "Nd2NzParams":  # family: cube
        from .cube import nd2nz_copy
        nd2nz_copy(dst, src, _bind(api, ("intri_params",), args, kwargs, _HINT)["intri_params"])
        return
    if name == "DataCopyCO12DstParams":  # family: cube
        from .cube_fixpipe import co12dst_copy
        co12dst_copy(dst, src, _bind(api, ("intri_params",), args, kwargs, _HINT)["intri_params"])
        return
    if name == "Nz2NdParamsFull":
        _nz2nd_copy(api, dst, src, _bind(api, ("intri_params",), args, kwargs, _HINT)["intri_params"])
        return
    direction = _direction(api, dst, src)
    if direction == "l1_to_bt":  # family: cube
        from .cube import l1_to_bt_copy
        l1_to_bt_copy(dst, src, args, kwargs)
        return
    if name == "DataCopyParams":
        if "enhanced_params" in kwargs or len(args) == 2 or "intri_params" in kwargs:
            p = _bind(api, ("intri_params", "enhanced_params"), args, kwargs, _HINT)
            if set(p) != {"intri_params", "enhanced_params"}:
                raise error(f"{api}: the enhanced form takes intri_params and enhanced_params", _HINT)
            if not isinstance(p["enhanced_params"], _types.DataCopyEnhancedParams):  # type: ignore[attr-defined]
                raise error(f"{api}: enhanced_params must be an asc.DataCopyEnhancedParams, got "
                            f"{describe(p['enhanced_params'])}", _HINT)
            _same_dtype(api, dst, src)
            _b.current().create(f"asc.data_copy.enhanced.{direction}",
                                [dst, src, p["intri_params"].to_ir(), p["enhanced_params"].to_ir()])
            return
        p = _bind(api, ("repeat_params",), args, kwargs, _HINT)
        _same_dtype(api, dst, src)
        _b.current().create(f"asc.data_copy.params.{direction}", [dst, src, p["repeat_params"].to_ir()])
        return
    if name is not None:
        raise error(f"{api}: takes a count, an asc.DataCopyParams or (DataCopyParams, DataCopyEnhancedParams), "
                    f"got an asc.{name}", _HINT)
    p = _bind(api, ("count",), args, kwargs, _HINT)
    if "count" not in p:
        raise error(f"{api}: missing the element count or an asc.DataCopyParams", _HINT)
    count = int_operand(p["count"], "count")
    _same_dtype(api, dst, src)
    _b.current().create(f"asc.data_copy.{direction}", [dst, src, count])


def _nz2nd_copy(api: str, dst: Any, src: Any, params: Any) -> None:
    """`DataCopy(dst_gm, src_ub, Nz2NdParamsFull)` (the devkit's software copy, MTE3): for each of `nd_num`
    matrices (`src_nd_matrix_stride` 16 x 16 fractals apart in UB, `dst_nd_matrix_stride` elements apart in GM)
    and each 16-column block of its `d_value` columns (`src_n_stride` 16-element rows apart), one DataCopyPad of
    its `n_value` rows of 16 elements, which lie 16 elements apart in UB, to rows `dst_d_stride` elements apart
    in GM. Element (r, c) of matrix i thus comes from UB element i * src_nd_matrix_stride * 256 +
    (c // 16) * src_n_stride * 16 + r * 16 + c % 16."""
    if not isinstance(dst, GlobalTensor) or not isinstance(src, LocalTensor) or \
            getattr(src, "position", TPosition.VECOUT) not in _UB_POSITIONS:
        raise error(f"{api} with an asc.Nz2NdParamsFull copies a UB LocalTensor (VECIN/VECOUT/VECCALC) to a "
                    f"GlobalTensor: got dst {describe(dst)}, src {describe(src)}",
                    "hint: asc.data_copy(z_gm, z_ub, asc.Nz2NdParamsFull(nd_num, n_value, d_value, "
                    "src_nd_matrix_stride, src_n_stride, dst_d_stride, dst_nd_matrix_stride))")
    _same_dtype(api, dst, src)
    if src.dtype.sizeof() not in (2, 4):
        raise error(f"{api} with an asc.Nz2NdParamsFull takes 16- or 32-bit elements (the devkit's B16 and B32), "
                    f"got {src.dtype}")
    _b.current().create("asc.data_copy.nz2nd.local_to_gm", [dst, src, params.to_ir()])


_PAD_HINT = ("hint: write asc.data_copy_pad(x_ub, x_gm, asc.DataCopyExtParams(block_count, block_len_bytes, "
             "src_stride, dst_stride, 0), asc.DataCopyPadExtParams(x_ub.dtype, is_pad, left, right, value)) or "
             "asc.data_copy_pad(z_gm, z_ub, asc.DataCopyExtParams(...))")


@usage("asc.data_copy_pad(dst, src, data_copy_params, pad_params)", "asc.data_copy_pad(dst, src, data_copy_params)")
def data_copy_pad(dst: Any, src: Any, *args: Any, **kwargs: Any) -> None:
    """`AscendC::DataCopyPad`: byte-granular copies between GM and UB.

    - GM -> UB: `data_copy_pad(dst, src, data_copy_params, pad_params)`
      with an `asc.DataCopyExtParams` and an `asc.DataCopyPadExtParams`
      (of dst's dtype), or an `asc.DataCopyParams` and an
      `asc.DataCopyPadParams`. `block_count` blocks of `block_len` bytes (a
      multiple of the element size); `src_stride` bytes between blocks in
      GM; each UB block holds `left_padding` elements, the data,
      `right_padding` elements (each padding at most 32 bytes), rounded up
      to 32 bytes, and `dst_stride` 32-byte blocks follow it. The paddings
      hold the pad value: `padding_value` when `is_pad` (which also sets
      the pad register, as set_pad_value does), else the pad register. The
      bytes that round a block up to 32 are its first element when both
      paddings are 0, else the pad value.
    - UB -> GM: `data_copy_pad(dst, src, data_copy_params)`: each UB block
      takes `block_len` rounded up to 32 bytes plus `src_stride` 32-byte
      blocks; `block_len` bytes of it go to GM, `dst_stride` bytes apart.
      With a store atomic set the bytes combine with GM.

    block_count or block_len 0 is a NOP. The forms with Nd2NzParams (UB ->
    L1) raise NotImplementedError.
    """
    api = "asc.data_copy_pad"
    if "nd2nz_params" in kwargs or any(_struct_name(a) == "Nd2NzParams" for a in args):
        # the devkit's DataCopyPadUB2L1Impl: the vector core copies to a GM workspace and asks the Matmul server
        # on the cube core (KFC) to copy it into L1 with ND2NZ
        raise NotImplementedError("asc.data_copy_pad with Nd2NzParams (UB -> L1) is not supported yet: on this arch "
                                  "it runs through the Matmul server (KFC) on the cube core")
    direction = _direction(api, dst, src)
    if direction == "local_to_local":
        raise error(f"{api} copies GM→UB or UB→GM, got LocalTensor ← LocalTensor", _PAD_HINT)
    _same_dtype(api, dst, src)
    names = ("data_copy_params", "pad_params") if direction == "gm_to_local" else ("data_copy_params",)
    p = _bind(api, names, args, kwargs, _PAD_HINT)
    missing = [n for n in names if n not in p]
    if missing:
        raise error(f"{api}: missing `{missing[0]}` (GM→UB takes data_copy_params and pad_params, UB→GM "
                    "data_copy_params)", _PAD_HINT)
    cp = p["data_copy_params"]
    cname = _struct_name(cp)
    if cname not in ("DataCopyExtParams", "DataCopyParams"):
        raise error(f"{api}: data_copy_params must be an asc.DataCopyExtParams or asc.DataCopyParams, got "
                    f"{describe(cp)}", _PAD_HINT)
    ext = cname == "DataCopyExtParams"
    operands = [dst, src, cp.to_ir()]
    if direction == "gm_to_local":
        pp = p["pad_params"]
        want = "DataCopyPadExtParams" if ext else "DataCopyPadParams"
        if _struct_name(pp) != want:
            raise error(f"{api}: with an asc.{cname}, pad_params must be an asc.{want}, got {describe(pp)}",
                        _PAD_HINT)
        if ext and pp.dtype != dst.dtype:
            raise error(f"{api}: pad_params is a DataCopyPadExtParams of {pp.dtype.name} but the tensors are "
                        f"{dst.dtype.name}", "hint: make the DataCopyPadExtParams of the tensors' dtype: "
                        "asc.DataCopyPadExtParams(x_ub.dtype, is_pad, left, right, value)")
        operands.append(pp.to_ir())
    _b.current().create(f"asc.data_copy_pad.{'' if ext else 'params.'}{direction}", operands)


@usage("asc.set_pad_value(padding_value, pos=asc.TPosition.MAX)")
def set_pad_value(padding_value: Any, pos: Any = TPosition.MAX) -> None:  # type: ignore[name-defined]
    """`AscendC::SetPadValue<T, pos>(padding_value)`: sets the pad register
    that `asc.data_copy_pad` GM -> UB fills its paddings with when
    `is_pad` is False. T is the value's type (a Python float is float32, an
    int int32: pass a typed scalar, e.g. a value read from a tensor of the
    copy's dtype, for other types); the register holds its bits and a copy
    of a narrower type uses their low bytes. `pos` is TPosition.MAX (the
    default, either), VECIN or VECOUT."""
    api = "asc.set_pad_value"
    p = enum_arg(pos, TPosition, api, "pos")
    if p not in (TPosition.MAX, TPosition.VECIN, TPosition.VECOUT):
        raise error(f"{api}: pos must be TPosition.MAX, VECIN or VECOUT, got TPosition.{p.name}",
                    "hint: leave pos out (TPosition.MAX)")
    if isinstance(padding_value, bool) or not (is_number(padding_value) or isinstance(padding_value, Scalar)):
        raise error(f"{api}: padding_value must be a number or a runtime scalar, got {describe(padding_value)}",
                    "hint: write asc.set_pad_value(1.0)")
    v = to_scalar(padding_value)
    if v.dtype not in (dt.int8, dt.uint8, dt.int16, dt.uint16, dt.float16, dt.bfloat16, dt.int32, dt.uint32,
                       dt.float32, dt.int64, dt.uint64):
        raise error(f"{api} does not support a padding value of {v.dtype.name}")
    attrs = {} if p == TPosition.MAX else {"pos": ("TPosition", int(p))}
    _b.current().create("asc.set_pad_value", [v], attrs=attrs)


def _copy_mask(api: str, dtype: dt.DataType, mask: Any, repeat_time: Any) -> Tuple[list, int]:
    """mask0, mask1, repeat_time and the mask mode (0 continuous, 1 bit)."""
    per_repeat = 256 // dtype.sizeof()
    if isinstance(mask, (list, tuple)):
        if not (len(mask) == 2 or (per_repeat <= 64 and len(mask) == 1)):
            raise error(f"{api}: a bit mask is a list [mask0, mask1] of two uint64 (mask0: elements 0-63, "
                        f"mask1: elements 64-127), got {len(mask)} values")
        ops = [_u64(mask[0], f"{api}: mask[0]"), _u64(mask[1] if len(mask) == 2 else 0, f"{api}: mask[1]")]
        mode = 1
    else:
        if isinstance(mask, int) and not isinstance(mask, bool) and mask < 0:
            raise error(f"{api}: mask = {mask} is negative (the number of elements of each repeat)")
        ops = [_u64(mask, f"{api}: mask"), const(0, dt.uint64)]
        mode = 0
    try:
        _check_const(repeat_time, 0, 255, f"{api}: repeat_time")
    except ValueError as e:
        raise error(str(e), "hint: repeat_time is a uint8_t: 0 to 255") from None
    ops.append(int_operand(repeat_time, f"{api}: repeat_time"))
    return ops, mode


@usage("asc.copy(dst, src, mask, repeat_time, repeat_params, is_set_mask=True)")
def copy(dst: Any, src: Any, mask: Any, repeat_time: Any, repeat_params: Any, is_set_mask: bool = True) -> None:
    """`AscendC::Copy<T, isSetMask>`: UB -> UB copy of `repeat_time` repeats
    of 8 blocks of 32 bytes, the elements `mask` selects (continuous: the
    first `mask` of each repeat; a list [mask0, mask1]: a bit per element).
    `repeat_params` is an `asc.CopyRepeatParams`: dst_stride / src_stride
    (32-byte blocks between the blocks of a repeat, 0 to 65535),
    dst_repeat_size / src_repeat_size (between repeats, 0 to 4095). In
    counter mode (asc.set_mask_count) the mask counts the elements of each
    repeat and repeat_time still holds. Types: int16, uint16, float16,
    bfloat16, int32, uint32, float32."""
    api = "asc.copy"
    for n, t in (("dst", dst), ("src", src)):
        if not isinstance(t, LocalTensor):
            raise error(f"{api}: `{n}` must be a LocalTensor, got {describe(t)}",
                        "hint: asc.copy copies within the UB; use asc.data_copy for GM")
    _same_dtype(api, dst, src)
    if dst.dtype not in _COPY_DTYPES:
        raise error(f"{api} does not support element type {dst.dtype.name} on the Ascend910B",
                    "hint: asc.copy takes int16, uint16, float16, bfloat16, int32, uint32 or float32 tensors")
    if not isinstance(repeat_params, _types.CopyRepeatParams):  # type: ignore[attr-defined]
        raise error(f"{api}: repeat_params must be an asc.CopyRepeatParams, got {describe(repeat_params)}",
                    "hint: asc.CopyRepeatParams(dst_stride=1, src_stride=1, dst_repeat_size=8, src_repeat_size=8)")
    if type(is_set_mask) is not bool:
        raise error(f"{api}: is_set_mask must be True or False, got {describe(is_set_mask)}")
    try:
        ops, mode = _copy_mask(api, dst.dtype, mask, repeat_time)
    except (TypeError, ValueError) as e:
        raise error(str(e), "hint: mask is an int (continuous) or [mask0, mask1] (bit mode)") from None
    attrs: Dict[str, Any] = {"mask_mode": mode}
    if not is_set_mask:
        attrs["is_set_mask"] = 0
    _b.current().create("asc.copy.l0", [dst, src] + ops + [repeat_params.to_ir()], attrs=attrs)


# ---- family: slice. DataCopy with SliceInfo -------------------------------
_SLICE_DTYPES = (dt.int8, dt.uint8, dt.int16, dt.uint16, dt.float16, dt.bfloat16, dt.int32, dt.uint32,
                 dt.float32, dt.int64, dt.uint64, dt.float64)
_SLICE_MAX_DIM = 8  # the devkit's K_MAX_SHAPE_DIM
_SLICE_HINT = ("hint: write asc.data_copy(x_ub, x_gm, [asc.SliceInfo(0, 15, 16, 1, 32), asc.SliceInfo(0, 2, 1, 1, 3)], "
               "[asc.SliceInfo(...), asc.SliceInfo(...)], 2): the dst slices, the src slices (dimension 0 first), "
               "the number of dimensions")


def _slice_list(api: str, name: str, value: Any) -> list:
    if not isinstance(value, (list, tuple)) or not value:
        raise error(f"{api}: {name} must be a non-empty list of asc.SliceInfo, got {describe(value)}", _SLICE_HINT)
    for i, v in enumerate(value):
        if not isinstance(v, _types.SliceInfo):  # type: ignore[attr-defined]
            raise error(f"{api}: {name}[{i}] must be an asc.SliceInfo, got {describe(v)}", _SLICE_HINT)
    return list(value)


def _data_copy_slice(api: str, dst: Any, src: Any, args: tuple, kwargs: Dict[str, Any]) -> None:
    """`AscendC::DataCopy(dst, src, dstSliceInfo[], srcSliceInfo[], dimValue)`.

    Each side is a tensor of dim_value dimensions, dimension 0 the
    innermost; its shape is the slices' shape_value when src's first
    shape_value is not 0, else the tensors' ShapeInfo (set_shape_info).
    A side starts at element sum(start_index[i] * prod(shape[:i])). In
    dimensions 1.. the slices select the rows start_index, start_index +
    1 + stride, ... up to end_index, dimension 1 varying fastest; dst's
    i-th row takes src's i-th row. A row is one strided copy of src's
    dimension 0: blocks of src burst_len 32-byte units, as many as
    (end - start + 1 + stride) // (burst_len * 32 / sizeof(T) + stride),
    with the dimension-0 stride (elements) skipped after each block on
    either side (the UB side's rounded down to whole 32-byte blocks). The
    UB side's rows must start on 32-byte boundaries. Out-of-range values
    (more than 4095 blocks, 1536 rows, a dim_value above 8, a shape never
    set) are a KernelError on the simulator.
    """
    p = _bind(api, ("slice_list1", "slice_list2", "dim_value"), args, kwargs, _SLICE_HINT)
    for n in ("slice_list1", "slice_list2", "dim_value"):
        if n not in p:
            raise error(f"{api}: the slice form takes slice_list1, slice_list2 and dim_value (missing `{n}`)",
                        _SLICE_HINT)
    dst_slices = _slice_list(api, "slice_list1", p["slice_list1"])
    src_slices = _slice_list(api, "slice_list2", p["slice_list2"])
    direction = _direction(api, dst, src)
    if direction == "local_to_local":
        raise error(f"{api} with SliceInfo copies GM→UB or UB→GM, got LocalTensor ← LocalTensor", _SLICE_HINT)
    _same_dtype(api, dst, src)
    if dst.dtype not in _SLICE_DTYPES:
        raise error(f"{api} with SliceInfo does not support {dst.dtype.name}",
                    "hint: the devkit copies int8/uint8/int16/uint16/half/bfloat16/int32/uint32/float/int64/"
                    "uint64/double")
    dim = ConstExpr.unwrap(p["dim_value"])
    if isinstance(dim, int) and not isinstance(dim, bool):
        if not 1 <= dim <= _SLICE_MAX_DIM:
            raise error(f"{api}: dim_value = {dim} is out of range [1, {_SLICE_MAX_DIM}]", _SLICE_HINT)
        if dim > len(dst_slices) or dim > len(src_slices):
            raise error(f"{api}: dim_value = {dim} but slice_list1 has {len(dst_slices)} and slice_list2 "
                        f"{len(src_slices)} SliceInfo", "hint: give one SliceInfo per dimension in each list")
    try:
        dim_op = int_operand(dim, "dim_value")
    except TypeError as e:
        raise error(f"{api}: {e}", _SLICE_HINT) from None
    operands = [dst, src, dim_op] + [v.to_ir() for v in dst_slices + src_slices]
    _b.current().create(f"asc.data_copy.slice.{direction}", operands, attrs={"n_dst": len(dst_slices)})
