"""family: adv normquant. `asc.adv.quant` and `asc.adv.QuantConfig`: the devkit's AscendQuant and AscendQuantConfig
(include/adv_api/quantization/ascend_quant.h, ascend_quant_utils.h), with upstream pyasc's signature
(quantization.py; QuantConfig in its types.py). src/sim/adv_quant.c runs AscendQuant as the devkit's sequence of
vector instructions.

Upstream's Python takes a scalar scale and offset only (the per-tensor form); the devkit also has per-channel forms,
a scale tensor with a scalar offset and scale and offset tensors (one value per element of a row of scale_count
elements), which this `quant` takes too when `scale` (and `offset`) is a LocalTensor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional

from ...codegen import builder as _b
from ..basic.utils import local
from ..core import dtype as dt
from ..core.checks import describe, error, usage
from ..core.values import LocalTensor, Scalar, int_operand, is_number, to_scalar

_API = "asc.adv.quant"
_U32 = (1 << 32) - 1


@dataclass
class QuantConfig:
    """The devkit's AscendQuantConfig, a template argument of AscendQuant: compile-time sizes that replace the
    call's (calc_count elements quantised, scale_count / offset_count per-channel row lengths, work_local_size the
    bytes of the temporary buffer used). All 0 is the devkit's ASCEND_QUANT_DEFAULT_CFG. The per-tensor form uses
    the config when calc_count and work_local_size are both non-zero; the per-channel forms when calc_count and
    scale_count are (scale_count then a multiple of 32)."""

    calc_count: int = 0
    offset_count: int = 0
    scale_count: int = 0
    work_local_size: int = 0

    def __post_init__(self) -> None:
        for name in ("calc_count", "offset_count", "scale_count", "work_local_size"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise error(f"asc.adv.QuantConfig: '{name}' must be a Python int (a compile-time value), "
                            f"got {describe(v)}")
            if not 0 <= v <= _U32:
                raise error(f"asc.adv.QuantConfig: '{name}' is {v}, outside the uint32 range")

    def attrs(self) -> Dict[str, int]:
        return {"cfg_calc_count": self.calc_count, "cfg_offset_count": self.offset_count,
                "cfg_scale_count": self.scale_count, "cfg_work_local_size": self.work_local_size}


def _count(value: Any, name: str, tensor: LocalTensor) -> Any:
    if value is None:
        return tensor.get_size()
    try:
        return int_operand(value, f"{_API}: '{name}'")
    except TypeError as e:
        raise error(str(e)) from None


def _scalar(value: Any, name: str, dtype: Any) -> Any:
    if isinstance(value, bool) or not (is_number(value) or isinstance(value, Scalar)):
        raise error(f"{_API}: '{name}' must be a number or a LocalTensor, got {describe(value)}")
    return to_scalar(value, dtype)


@usage("asc.adv.quant(dst, src, scale, offset, count=None, temp_buffer=None, reuse_source=False, config=None)",
       "asc.adv.quant(dst, src, scale_tensor, offset, count=None, temp_buffer=None, reuse_source=False, "
       "config=None, scale_count=None)",
       "asc.adv.quant(dst, src, scale_tensor, offset_tensor, count=None, temp_buffer=None, reuse_source=False, "
       "config=None, scale_count=None, offset_count=None)")
def quant(dst: LocalTensor, src: LocalTensor, scale: Any, offset: Any, count: Optional[Any] = None,
          temp_buffer: Optional[LocalTensor] = None, reuse_source: bool = False,
          config: Optional[QuantConfig] = None, *, scale_count: Optional[Any] = None,
          offset_count: Optional[Any] = None) -> None:
    """Quantises src (float16 or float32) to int8: dst = int8(half(half(src) * scale) + offset), the devkit's
    AscendQuant<T, isReuseSource, config>. Every step rounds to the nearest half (ties to even) and the int8 cast
    rounds to nearest even and saturates to [-128, 127]. `count` elements (default: all of src).

    `scale` and `offset` are numbers (per tensor), or `scale` a LocalTensor of src's type with `offset` a number or
    a LocalTensor too (per channel: element i of each row of scale_count elements, default scale's size, is
    scaled by scale[i]; count a multiple of it). For a float32 src the devkit casts the per-channel scale and
    offset tensors to half in place: their first scale_count elements' bytes are overwritten.

    `temp_buffer`: a uint8 LocalTensor of at least 512 bytes (asc.lib.host.get_ascend_quant_max_min_tmp_size),
    processed in chunks of its size / 2 elements; without it the devkit takes the UB above the TPipe's buffers.
    `config`: an asc.adv.QuantConfig. `reuse_source` is the devkit's isReuseSource (unused by its Ascend910B
    implementation)."""
    d = local(dst, _API, "dst")
    s = local(src, _API, "src")
    if d.dtype != dt.int8:
        raise error(f"{_API}: 'dst' must be an int8 LocalTensor, got {d.dtype.name}")
    t = s.dtype
    if t not in (dt.float16, dt.float32):
        raise error(f"{_API} does not support element type {t.name}: the devkit's AscendQuant takes a float16 or "
                    "float32 src")
    if not isinstance(reuse_source, bool):
        raise error(f"{_API}: 'reuse_source' must be a Python bool (a template argument), got {describe(reuse_source)}")
    if config is not None and not isinstance(config, QuantConfig):
        raise error(f"{_API}: 'config' must be an asc.adv.QuantConfig, got {describe(config)}")
    tmp = None
    if temp_buffer is not None:
        tmp = local(temp_buffer, _API, "temp_buffer")
        if tmp.dtype != dt.uint8:
            raise error(f"{_API}: 'temp_buffer' must be a uint8 LocalTensor, got {tmp.dtype.name}")
    attrs: Dict[str, Any] = {"reuse_source": int(reuse_source)}
    if config is not None:
        attrs.update(config.attrs())
    if isinstance(scale, LocalTensor):
        if scale.dtype != t:
            raise error(f"{_API}: the scale tensor must have src's element type {t.name}, got {scale.dtype.name}")
        ops: list = [d, s, scale]
        if isinstance(offset, LocalTensor):
            if offset.dtype != t:
                raise error(f"{_API}: the offset tensor must have src's element type {t.name}, "
                            f"got {offset.dtype.name}")
            name = "asc.adv.quant.per_channel_offset"
            ops += [offset, _count(scale_count, "scale_count", scale), _count(offset_count, "offset_count", offset)]
        else:
            if offset_count is not None:
                raise error(f"{_API}: 'offset_count' goes with an offset tensor; this offset is a number")
            name = "asc.adv.quant.per_channel"
            ops += [_scalar(offset, "offset", t), _count(scale_count, "scale_count", scale)]
        ops.append(_count(count, "count", s))
    else:
        if isinstance(offset, LocalTensor):
            raise error(f"{_API}: an offset tensor needs a scale tensor (the devkit has no scalar-scale, "
                        "tensor-offset form)")
        if scale_count is not None or offset_count is not None:
            raise error(f"{_API}: 'scale_count' / 'offset_count' go with a scale tensor; this scale is a number")
        name = "asc.adv.quant"
        ops = [d, s, _scalar(scale, "scale", dt.float32), _scalar(offset, "offset", dt.float32),
               _count(count, "count", s)]
    if tmp is not None:
        ops.append(tmp)
    _b.current().create(name, ops, attrs=attrs)


__all__ = ["QuantConfig", "quant"]
