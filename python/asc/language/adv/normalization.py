"""family: adv normquant. `asc.adv.rmsnorm`: the devkit's RmsNorm (include/adv_api/normalization/rmsnorm.h), with
upstream pyasc's signature. src/sim/adv_rmsnorm.c runs it as the devkit's sequence of vector instructions."""

from __future__ import annotations

from typing import Any, Optional

from ...codegen import builder as _b
from ..basic.utils import local
from ..core import dtype as dt
from ..core.checks import describe, error, got, usage
from ..core.values import LocalTensor, Scalar, is_number, to_scalar
from .tiling import RmsNormTiling

_API = "asc.adv.rmsnorm"


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise error(f"{_API}: '{name}' must be a Python bool (a template argument), got {describe(value)}")
    return value


@usage("asc.adv.rmsnorm(dst, src, gamma, epsilon, tiling, temp_buffer=None, basic_block=False)")
def rmsnorm(dst: LocalTensor, src: LocalTensor, gamma: LocalTensor, epsilon: Any, tiling: RmsNormTiling,
            temp_buffer: Optional[LocalTensor] = None, basic_block: bool = False) -> None:
    """RMSNorm of each row of src, a [b, s, h] tensor (h padded to 32 bytes, the tiling's original h the real
    length): dst = src / sqrt(mean(src[:original_h] ** 2) + epsilon) * gamma, the devkit's RmsNorm<T, isBasicBlock>
    (half or float; dst, src and gamma, gamma h elements, of one element type). A half src is computed in float.
    The mean's 1 / sqrt is the devkit's exp(-0.5 * ln(.)). `tiling` comes from
    asc.lib.host.get_rms_norm_tiling_info; `temp_buffer` is a uint8 LocalTensor of at least the bytes that tiling
    was made for (asc.lib.host.get_rms_norm_max_min_tmp_size gives the range); without it the devkit takes the
    UB above the TPipe's buffers. `basic_block=True` is the devkit's faster form for h a multiple of 64 below
    2048 and b * s a multiple of 8."""
    ts = [local(dst, _API, "dst"), local(src, _API, "src"), local(gamma, _API, "gamma")]
    t = ts[1].dtype
    if t not in (dt.float16, dt.float32):
        raise error(f"{_API} does not support element type {t.name}: the devkit's RmsNorm takes float16 or float32")
    for x, name in ((ts[0], "dst"), (ts[2], "gamma")):
        if x.dtype != t:
            raise error(f"{_API}: '{name}' must have src's element type {t.name}, got {x.dtype.name}")
    if not isinstance(tiling, RmsNormTiling):
        raise error(f"{_API}: 'tiling' must be an asc.adv.RmsNormTiling, got {got(tiling)}",
                    "hint: fill one on the host with asc.lib.host.get_rms_norm_tiling_info and pass it to the kernel")
    if not (is_number(epsilon) or isinstance(epsilon, Scalar)) or isinstance(epsilon, bool):
        raise error(f"{_API}: 'epsilon' must be a number, got {describe(epsilon)}")
    if isinstance(epsilon, Scalar) and not epsilon.dtype.is_float():
        epsilon = epsilon.cast(t)
    ops: list = ts + [to_scalar(epsilon, t), tiling.to_ir()]
    if temp_buffer is not None:
        tmp = local(temp_buffer, _API, "temp_buffer")
        if tmp.dtype != dt.uint8:
            raise error(f"{_API}: 'temp_buffer' must be a uint8 LocalTensor, got {tmp.dtype.name}")
        ops.append(tmp)
    _b.current().create("asc.adv.rmsnorm", ops, attrs={"basic_block": int(_flag(basic_block, "basic_block"))})


__all__ = ["rmsnorm"]
