"""AIPP, the AI Core's image pre-processing: set_aipp_functions
(AscendC::SetAippFunctions, upstream's common.py) and load_image_to_local
(AscendC::LoadImageToLocal, upstream's data_copy.py).

set_aipp_functions sets the block's AIPP state: the source image in GM
(with a YUV420SP image, src1 its UV plane), its asc.AippInputFormat and an
asc.AippParams(dtype, ...) (padding, channel swap, single-line read,
data-type conversion, channel padding, colour-space conversion; dtype is the
type the pixels are converted to, asc.int8 or asc.float16). It reads and
writes no memory: the simulator checks the modes' ranges and the GM
alignment of the format (YUV420SP: 2 bytes, XRGB8888: 4) and keeps the state
for the block. load_image_to_local would apply it while copying an image
into the L1 (TPosition A1/B1); the devkit gives its colour-space conversion
and most padding modes only as figures, so it raises NotImplementedError.
"""

from __future__ import annotations

from typing import Any

from ...codegen import builder as _b
from ..core.checks import describe, enum_arg, error, usage
from ..core.constexpr import ConstExpr
from ..core.enums import AippInputFormat  # type: ignore[attr-defined]
from ..core.values import GlobalTensor, LocalTensor

_API = "asc.set_aipp_functions"
_FORMS = ("asc.set_aipp_functions(src0, input_format, config)",
          "asc.set_aipp_functions(src0, src1, input_format, config)")


def _gm(x: Any, name: str) -> GlobalTensor:
    x = ConstExpr.unwrap(x)
    if not isinstance(x, GlobalTensor):
        raise error(f"{_API}: {name} must be a GlobalTensor (the image in GM), got {describe(x)}",
                    f"hint: write {_FORMS[0]}")
    return x._require()


@usage(*_FORMS)
def set_aipp_functions(*args: Any, **kwargs: Any) -> None:
    """`AscendC::SetAippFunctions(src0[, src1], format, config)`: the AIPP
    configuration LoadImageToLocal applies, for this block. `src0` is the
    image in GM (uint8 pixels; with YUV420SP_U8 its Y plane and `src1`, which
    that format requires, the UV plane), `input_format` an
    asc.AippInputFormat, `config` an asc.AippParams."""
    from ..core.types import AippParams

    names = ("src0", "src1", "input_format", "config") if len(args) + len(kwargs) >= 4 or "src1" in kwargs \
        else ("src0", "input_format", "config")
    if len(args) > len(names):
        raise error(f"{_API} takes at most 4 arguments, got {len(args)}", f"hint: write {_FORMS[1]}")
    values = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names or k in values:
            raise error(f"{_API}: unexpected or repeated argument {k!r}", f"hint: write {_FORMS[0]}")
        values[k] = v
    missing = [n for n in names if n not in values]
    if missing:
        raise error(f"{_API}: missing {', '.join(missing)}", f"hint: write {_FORMS[0]} or {_FORMS[1]}")
    src0 = _gm(values["src0"], "src0")
    src1 = _gm(values["src1"], "src1") if "src1" in values else None
    fmt = enum_arg(ConstExpr.unwrap(values["input_format"]), AippInputFormat, _API, "input_format")
    config = ConstExpr.unwrap(values["config"])
    if not isinstance(config, AippParams):
        raise error(f"{_API}: config must be an asc.AippParams, got {describe(config)}",
                    "hint: write asc.AippParams(asc.int8, swap_params=asc.AippSwapParams(is_swap_rb=True))")
    if fmt == AippInputFormat.YUV420SP_U8 and src1 is None:
        raise error(f"{_API}: a YUV420SP_U8 image takes src1, its UV plane", f"hint: write {_FORMS[1]}")
    operands = [src0, config.to_ir()] + ([src1] if src1 is not None else [])
    _b.current().create("asc.set_aipp_functions", operands, attrs={"input_format": ("AippInputFormat", fmt)})


@usage("asc.load_image_to_local(dst, asc.LoadImageToLocalParams(...))")
def load_image_to_local(dst: LocalTensor, load_data_params: Any) -> None:
    """`AscendC::LoadImageToLocal(dst, loadDataParams)`: copies an image
    from GM into `dst` applying the AIPP state of set_aipp_functions. On the
    Ascend910B dst is in the L1 (TPosition A1/B1). Not simulated yet:
    NotImplementedError (the devkit gives the colour-space conversion and
    three of the four padding modes only as figures, not as text)."""
    raise NotImplementedError("asc.load_image_to_local is not supported yet: the devkit documents its colour-space "
                              "conversion and three of its four padding modes only in figures, so the simulator "
                              "cannot reproduce them exactly")
