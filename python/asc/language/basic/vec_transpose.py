"""Transposes: `asc.transpose` (AscendC::Transpose, the 16x16 form and the
enhanced form with a TransposeParamsExt) and `asc.trans_data_to_5hd`
(AscendC::TransDataTo5HD in its three forms: lists of 16 + 16 LocalTensors,
lists of 16 + 16 uint64 UB addresses, or two uint64 tensors holding them).
src/sim/transpose.c has their semantics."""

from __future__ import annotations

from typing import Any, List, Optional

from ...codegen import builder as _b
from ..core import dtype as dt
from ..core.checks import error, got, usage
from ..core.types import TransDataTo5HDParams, TransposeParamsExt
from ..core.values import LocalTensor, Scalar, const
from .utils import local

_LIST = 16


@usage("asc.transpose(dst, src)", "asc.transpose(dst, src, shared_tmp_buffer, params)")
def transpose(dst: LocalTensor, src: LocalTensor, *args: Any, **kwargs: Any) -> None:
    """`transpose(dst, src)`: dst is the transpose of the 16x16 matrix of
    2-byte elements (int16, uint16, float16) in src (dst may be src).

    `transpose(dst, src, shared_tmp_buffer, params)`, the enhanced form:
    `params` is an `asc.TransposeParamsExt`; TRANSPOSE_NCHW2NHWC and
    TRANSPOSE_NHWC2NCHW permute [n, c, h, w] (h * w * sizeof(T) a multiple
    of 32 bytes; int8, uint8, int16, uint16, float16, int32, uint32,
    float32; dst and src must not overlap) using `shared_tmp_buffer`, a uint8
    tensor of at least (c + 2) * h0 * w0 * sizeof(T) bytes (NHWC2NCHW: (2c +
    1) * ...; h0 = 32 for 1-byte types else 16, w0 = 32 / sizeof(T));
    TRANSPOSE_ND2ND_B16 is the 16x16 transpose (uint16 only);
    TRANSPOSE_TYPE_NONE does nothing. The other types are a KernelError."""
    api = "asc.transpose"
    d, s = local(dst, api, "dst"), local(src, api, "src")
    if d.dtype != s.dtype:
        raise error(f"{api}: dst and src must have one element type, got {d.dtype.name} and {s.dtype.name}")
    if not args and not kwargs:
        _b.current().create("asc.transpose", [d, s])
        return
    names = ("shared_tmp_buffer", "params")
    if len(args) > 2:
        raise error(f"{api}: too many arguments", "hint: write asc.transpose(dst, src, shared_tmp_buffer, params)")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in bound:
            raise error(f"{api}: unexpected or repeated argument '{k}'",
                        "hint: write asc.transpose(dst, src, shared_tmp_buffer, params)")
        bound[k] = v
    if len(bound) != 2:
        raise error(f"{api}: the enhanced form takes shared_tmp_buffer and params",
                    "hint: write asc.transpose(dst, src, shared_tmp_buffer, params)")
    tmp = local(bound["shared_tmp_buffer"], api, "shared_tmp_buffer")
    if tmp.dtype != dt.uint8:
        raise error(f"{api}: shared_tmp_buffer must be a uint8 tensor, got {tmp.dtype.name}")
    params = bound["params"]
    if not isinstance(params, TransposeParamsExt):
        raise error(f"{api}: params must be an asc.TransposeParamsExt, got {got(params)}")
    _b.current().create("asc.transpose_ext", [d, s, tmp, params.to_ir()])


def _addr(x: Any, what: str) -> Scalar:
    if isinstance(x, int) and not isinstance(x, bool):
        if not 0 <= x < 2**64:
            raise error(f"{what} = {x} is not a uint64 address")
        return const(x, dt.uint64)
    if isinstance(x, Scalar) and x.dtype.is_int():
        return x
    raise error(f"{what} must be a UB address (LocalTensor.get_phy_addr()), got {got(x)}")


def _elem_type(tags: List[Any], dtype: Optional[dt.DataType], api: str) -> dt.DataType:
    """The data's element type of an address form: `dtype` when given, else
    the type of the tensors whose get_phy_addr made the addresses (`tags`:
    what each address or address tensor recorded, None when nothing)."""
    if dtype is not None:
        if not isinstance(dtype, dt.DataType):
            raise error(f"{api}: dtype must be a data type such as asc.float16, got {got(dtype)}")
        return dtype
    found = set(tags) - {None}
    if len(found) == 1:
        return found.pop()
    if len(found) > 1:
        raise error(f"{api}: the addresses come from tensors of different element types "
                    f"({', '.join(sorted(t.name for t in found))})")
    raise error(f"{api}: cannot tell the element type of the data at these addresses",
                "hint: take them with LocalTensor.get_phy_addr() of the data tensors, or pass dtype=asc.float16")


@usage("asc.trans_data_to_5hd(dst_list, src_list, params)", "asc.trans_data_to_5hd(dst, src, params)")
def trans_data_to_5hd(dst_or_list: Any, src_or_list: Any, params: TransDataTo5HDParams, *args: Any,
                      dtype: Optional[dt.DataType] = None, **kwargs: Any) -> None:
    """`trans_data_to_5hd(dst_list, src_list, params)`: AscendC::TransDataTo5HD
    (NCHW to NC1HWC0, or a transpose of blocks): each repeat reads 16 blocks
    of 32 bytes from the 16 source addresses and writes 16 blocks to the 16
    destination ones. 2-byte types: dst block j element i = src block i
    element j; 4-byte types: dst blocks 2e and 2e + 1 hold element e of the
    16 sources; 1-byte types: the half of dst block j that
    `params.dst_high_half` names gets element j (+16 with
    `params.src_high_half`) of the 16 sources. Repeat r adds r *
    rep_stride blocks to every address (repeat_times 1 adds 1 * stride, as
    on the hardware). The lists are 16 LocalTensors each, or 16 uint64
    addresses (`t.get_phy_addr()`); `trans_data_to_5hd(dst, src, params)`
    takes two uint64 tensors holding the 16 addresses each. The address
    forms take the data's element type from the tensors the addresses came
    from, or `dtype=`. Element types: int8, uint8, int16, uint16, float16,
    int32, uint32, float32."""
    api = "asc.trans_data_to_5hd"
    if args or kwargs:
        raise error(f"{api}: too many arguments", "hint: write asc.trans_data_to_5hd(dst_list, src_list, params)")
    if not isinstance(params, TransDataTo5HDParams):
        raise error(f"{api}: params must be an asc.TransDataTo5HDParams, got {got(params)}")
    b = _b.current()
    if isinstance(dst_or_list, LocalTensor):
        d, s = dst_or_list, local(src_or_list, api, "src")
        for t, n in ((d, "dst"), (s, "src")):
            if t.dtype != dt.uint64:
                raise error(f"{api}: {n} must be a uint64 tensor of 16 addresses, got {t.dtype.name}")
        el = _elem_type([getattr(d, "phy_addr_of", None), getattr(s, "phy_addr_of", None)], dtype, api)
        b.create("asc.trans_data_to_5hd", [d, s, params.to_ir()], attrs={"dtype": [b.scalar_type(el)]})
        return
    if not isinstance(dst_or_list, (list, tuple)) or not isinstance(src_or_list, (list, tuple)):
        raise error(f"{api}: dst_list and src_list must be lists of 16 LocalTensors or 16 addresses, "
                    f"or dst and src uint64 LocalTensors, got {got(dst_or_list)}")
    if len(dst_or_list) != _LIST or len(src_or_list) != _LIST:
        raise error(f"{api}: dst_list and src_list must have 16 entries each, got "
                    f"{len(dst_or_list)} and {len(src_or_list)}")
    if all(isinstance(t, LocalTensor) for t in list(dst_or_list) + list(src_or_list)):
        ts = list(dst_or_list) + list(src_or_list)
        first = ts[0].dtype
        for t in ts:
            if t.dtype != first:
                raise error(f"{api}: all tensors of dst_list and src_list must have one element type, "
                            f"got {first.name} and {t.dtype.name}")
        b.create("asc.trans_data_to_5hd.tensor_list", ts + [params.to_ir()])
        return
    if any(isinstance(t, LocalTensor) for t in list(dst_or_list) + list(src_or_list)):
        raise error(f"{api}: the lists hold either 16 LocalTensors or 16 addresses each, not both")
    addrs = [_addr(v, f"{api}: dst_list[{i}]") for i, v in enumerate(dst_or_list)]
    addrs += [_addr(v, f"{api}: src_list[{i}]") for i, v in enumerate(src_or_list)]
    el = _elem_type([getattr(v, "phy_addr_of", None) for v in list(dst_or_list) + list(src_or_list)], dtype, api)
    b.create("asc.trans_data_to_5hd.addr_list", addrs + [params.to_ir()], attrs={"dtype": [b.scalar_type(el)]})

