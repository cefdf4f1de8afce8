"""`asc.adv.softmax` and `asc.adv.SoftmaxTiling` (family: adv softmax):
the devkit's `AscendC::SoftMax` over the last axis of a LocalTensor and its
tiling struct, as upstream pyasc's python/asc/language/adv/activation.py and
tiling.py name them.

The shape is src's ShapeInfo (`src.set_shape_info(asc.ShapeInfo([m, k]))`):
rows of k elements, k a multiple of 32 bytes (pad the rows; the original
shape says how many elements of a row and how many rows take part). The
tiling comes from the host (`asc.lib.host.softmax_tiling_func`) or is a
default `asc.adv.SoftmaxTiling()`, all zeros: the kernel then recomputes it
for the temporary buffer it has, as the devkit does. docs/api.md says more.
"""

from __future__ import annotations

from typing import Any, Optional

from ...codegen import builder as _b
from ..basic.cmpsel_args import flag
from ..basic.utils import local
from ..core import dtype as _dt
from ..core.checks import error, got, usage
from ..core.struct import Field, Struct
from ..core.values import LocalTensor


class KT:  # upstream spells the field types KnownTypes.int32
    int32 = _dt.int32


class SoftmaxTiling(Struct):
    """The tiling of SoftMax (the devkit's SoftMaxTiling, 16 members in its
    order, every one 0 unless given): made on the host by
    asc.lib.host.softmax_tiling_func, or in the kernel; all zeros, the
    kernel computes its own for the shape it sees."""

    src_m = Field(dtype=KT.int32, default=0, name="srcM")
    src_k = Field(dtype=KT.int32, default=0, name="srcK")
    src_size = Field(dtype=KT.int32, default=0, name="srcSize")
    out_max_m = Field(dtype=KT.int32, default=0, name="outMaxM")
    out_max_k = Field(dtype=KT.int32, default=0, name="outMaxK")
    out_max_size = Field(dtype=KT.int32, default=0, name="outMaxSize")
    split_m = Field(dtype=KT.int32, default=0, name="splitM")
    split_k = Field(dtype=KT.int32, default=0, name="splitK")
    split_size = Field(dtype=KT.int32, default=0, name="splitSize")
    reduce_m = Field(dtype=KT.int32, default=0, name="reduceM")
    reduce_k = Field(dtype=KT.int32, default=0, name="reduceK")
    reduce_size = Field(dtype=KT.int32, default=0, name="reduceSize")
    range_m = Field(dtype=KT.int32, default=0, name="rangeM")
    tail_m = Field(dtype=KT.int32, default=0, name="tailM")
    tail_split_size = Field(dtype=KT.int32, default=0, name="tailSplitSize")
    tail_reduce_size = Field(dtype=KT.int32, default=0, name="tailReduceSize")

    @classmethod
    def ir_type(cls, b: Any) -> Any:
        # the struct table's type: the emitted code uses the devkit's struct and declares none
        b.struct_classes.setdefault("SoftmaxTiling", cls)
        return b.struct_type("SoftmaxTiling")


_API = "asc.adv.softmax"


@usage("asc.adv.softmax(dst, sum, max, src, tiling, temp_buffer=None, reuse_source=False, basic_block=False, "
       "data_format_nz=False)")
def softmax(dst: LocalTensor, sum: LocalTensor, max: LocalTensor, src: LocalTensor, tiling: SoftmaxTiling,
            temp_buffer: Optional[LocalTensor] = None, reuse_source: bool = False, basic_block: bool = False,
            data_format_nz: bool = False) -> None:
    """Softmax over the last axis of src (its ShapeInfo: rows of k elements, k a multiple of 32 bytes) into dst,
    each row's max and sum of exponentials in max and sum (one 32-byte block a row, the value repeated), as the
    devkit's AscendC::SoftMax: float, half, or half src / dst with float sum / max. dst may be src. Computed as the
    devkit's sequence of vector instructions (Cast, the row max, Sub, Exp, the row sum, Div, Cast), float inside.
    temp_buffer (uint8) is its work space; without one it takes the UB the TPipe did not allocate. reuse_source
    is the devkit's reserved flag (no effect here); basic_block and data_format_nz (NZ input) are not
    implemented."""
    ts = [local(t, _API, n) for t, n in zip((dst, sum, max, src), ("dst", "sum", "max", "src"))]
    if not isinstance(tiling, SoftmaxTiling):
        raise error(f"{_API}: 'tiling' must be an asc.adv.SoftmaxTiling, got {got(tiling)}",
                    "hint: asc.adv.SoftmaxTiling() (computed in the kernel) or asc.lib.host.softmax_tiling_func(...)")
    flags = {n: flag(_API, v, n) for n, v in (("reuse_source", reuse_source), ("basic_block", basic_block),
                                              ("data_format_nz", data_format_nz))}
    if flags["basic_block"]:
        raise NotImplementedError(f"{_API}: basic_block=True (the devkit's basic-block SoftMax) is not implemented")
    if flags["data_format_nz"]:
        raise NotImplementedError(f"{_API}: data_format_nz=True (NZ-format SoftMax) is not implemented")
    t1, t2 = ts[3].dtype, ts[1].dtype
    if t1 not in (_dt.float16, _dt.float32):
        raise error(f"{_API}: src is {t1.name}; the Ascend910B's SoftMax takes float16 or float32")
    if ts[0].dtype != t1:
        raise error(f"{_API}: dst is {ts[0].dtype.name} but src is {t1.name}; they must be one type")
    if ts[2].dtype != t2:
        raise error(f"{_API}: sum is {t2.name} but max is {ts[2].dtype.name}; they must be one type")
    if t2 != t1 and not (t1 == _dt.float16 and t2 == _dt.float32):
        raise error(f"{_API}: sum / max are {t2.name} with src {t1.name}; the devkit takes them of src's type, "
                    "or float32 for a float16 src")
    operands: list = ts + [tiling.to_ir()]
    if temp_buffer is not None:
        tmp = local(temp_buffer, _API, "temp_buffer")
        if tmp.dtype != _dt.uint8:
            raise error(f"{_API}: temp_buffer is {tmp.dtype.name}; the devkit's sharedTmpBuffer is a "
                        "LocalTensor<uint8_t>", "hint: tbuf.get(asc.uint8) or tensor.reinterpret_cast(asc.uint8)")
        operands.append(tmp)
    _b.current().create("asc.adv.softmax", operands, attrs={n: int(v) for n, v in flags.items()})


__all__ = ["SoftmaxTiling", "softmax"]
