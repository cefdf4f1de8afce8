"""AIPP on the simulator: set_aipp_functions (AscendC::SetAippFunctions) and
load_image_to_local (AscendC::LoadImageToLocal).

set_aipp_functions only loads the core's AIPP registers: it reads and
writes no memory, so data moved around it is unchanged; the simulator
checks the devkit's constraints on its values (the padding and channel
padding modes' ranges, the GM alignment of YUV420SP and XRGB8888 images, a
YUV420SP image's UV plane). load_image_to_local writes the L1 on the
Ascend910B, which the simulator does not model yet: an UnsupportedError.
"""

from typing import Any

import numpy as np
import pytest
from kernels_util import ascendc, fails_at

import asc

FORMATS = [asc.AippInputFormat.YUV420SP_U8, asc.AippInputFormat.XRGB8888_U8, asc.AippInputFormat.RGB888_U8,
           asc.AippInputFormat.YUV400_U8]


@asc.jit
def aipp_copy_kernel(x: asc.GlobalAddress, uv: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                     fmt: asc.ConstExpr[asc.AippInputFormat], out: asc.ConstExpr[asc.DataType],
                     pm: int, cpm: int, xo: int, uvo: int):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x + xo)
    ug = asc.GlobalTensor()
    ug.set_global_buffer(uv + uvo)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    cfg = asc.AippParams(out, padding_params=asc.AippPaddingParams(padding_mode=pm, padding_value_ch0=3),
                         swap_params=asc.AippSwapParams(is_swap_rb=True, is_swap_uv=True),
                         single_line_params=asc.AippSingleLineParams(is_single_line_copy=False),
                         dtc_params=asc.AippDataTypeConvParams(dtc_mean_ch0=10, dtc_min_ch1=0.5, dtc_var_ch2=2.0),
                         c_padding_params=asc.AippChannelPaddingParams(c_padding_mode=cpm, c_padding_value=1),
                         csc_params=asc.AippColorSpaceConvParams(is_enable_csc=True, csc_matrix_r0_c0=256,
                                                                 csc_bias_in_0=16))
    if fmt == asc.AippInputFormat.YUV420SP_U8:
        asc.set_aipp_functions(xg, ug, fmt, cfg)  # set aipp yuv
    else:
        asc.set_aipp_functions(xg, fmt, cfg)  # set aipp
    t = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    asc.data_copy(t, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, t, n)


def run(fmt: Any, out: Any = asc.int8, pm: int = 0, cpm: int = 0, x_off: int = 0, uv_off: int = 0) -> None:
    rng = np.random.default_rng(int(fmt) * 7 + pm)
    x = rng.integers(0, 256, 96, dtype=np.uint8)
    uv = rng.integers(0, 256, 64, dtype=np.uint8)
    z = np.zeros(64, np.uint8)
    x0, uv0 = x.copy(), uv.copy()
    aipp_copy_kernel[1](x, uv, z, 64, fmt, out, pm, cpm, x_off, uv_off)
    np.testing.assert_array_equal(x, x0)  # the images are not touched
    np.testing.assert_array_equal(uv, uv0)
    np.testing.assert_array_equal(z, x0[x_off:x_off + 64])  # nor what is copied around it


@pytest.mark.parametrize("fmt", FORMATS, ids=[f.name for f in FORMATS])
@pytest.mark.parametrize("out", [asc.int8, asc.float16], ids=["int8", "float16"])
def test_set_aipp_functions_sets_state_and_touches_no_memory(fmt: Any, out: Any) -> None:
    run(fmt, out)


@pytest.mark.parametrize("pm, cpm", [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_every_padding_mode_is_accepted(pm: int, cpm: int) -> None:
    run(asc.AippInputFormat.RGB888_U8, asc.float16, pm, cpm)


@pytest.mark.parametrize("fmt, x_off, uv_off", [(asc.AippInputFormat.RGB888_U8, 1, 0),
                                                (asc.AippInputFormat.YUV400_U8, 3, 0),
                                                (asc.AippInputFormat.XRGB8888_U8, 8, 0),
                                                (asc.AippInputFormat.YUV420SP_U8, 2, 4)])
def test_aligned_or_unconstrained_addresses_are_accepted(fmt: Any, x_off: int, uv_off: int) -> None:
    run(fmt, x_off=x_off, uv_off=uv_off)


def _fails(marker: str, fragment: str, **kw: Any) -> None:
    args = dict(fmt=asc.AippInputFormat.RGB888_U8, out=asc.int8, pm=0, cpm=0, x_off=0, uv_off=0)
    args.update(kw)
    x = np.zeros(96, np.uint8)
    uv = np.zeros(64, np.uint8)
    if args["fmt"] == asc.AippInputFormat.YUV420SP_U8:
        marker += " yuv"
    fails_at(aipp_copy_kernel, [x, uv, np.zeros(64, np.uint8), 64, args["fmt"], args["out"], args["pm"], args["cpm"],
                                args["x_off"], args["uv_off"]], marker, fragment)


@pytest.mark.parametrize("kw, fragment", [
    (dict(pm=4), "padding_mode = 4"), (dict(pm=-1), "padding_mode = 4294967295"),
    (dict(cpm=2), "c_padding_mode = 2"),
    (dict(fmt=asc.AippInputFormat.XRGB8888_U8, x_off=2), "4-byte aligned for XRGB8888_U8"),
    (dict(fmt=asc.AippInputFormat.YUV420SP_U8, x_off=1), "src0 must be 2-byte aligned for YUV420SP_U8"),
    (dict(fmt=asc.AippInputFormat.YUV420SP_U8, uv_off=3), "src1 must be 2-byte aligned")])
def test_bad_values_are_kernel_errors_at_the_call(kw: dict, fragment: str) -> None:
    _fails("# set aipp", fragment, **kw)


@asc.jit
def aipp_misuse_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    t = asc.LocalTensor(asc.int8, asc.TPosition.VECIN, 0, 64)
    cfg = asc.AippParams(asc.int8)
    if which == 0:
        asc.set_aipp_functions(g, asc.AippInputFormat.YUV420SP_U8, cfg)  # misuse 0
    elif which == 1:
        asc.set_aipp_functions(t, asc.AippInputFormat.RGB888_U8, cfg)  # misuse 1
    elif which == 2:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8, asc.AippSwapParams())  # misuse 2
    elif which == 3:
        asc.set_aipp_functions(g, 2, cfg)  # misuse 3
    elif which == 4:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8)  # misuse 4
    elif which == 5:
        asc.set_aipp_functions(g, g, asc.AippInputFormat.RGB888_U8, cfg, 1)  # misuse 5
    elif which == 6:
        asc.set_aipp_functions(g, asc.AippInputFormat.RGB888_U8, config=cfg, mode=1)  # misuse 6
    else:
        asc.load_image_to_local(t, asc.LoadImageToLocalParams(2, 2, 0, 0, 2, 0, 0, 0, 0))  # misuse 7


@pytest.mark.parametrize("which, fragment, cls", [
    (0, "takes src1, its UV plane", asc.CompileError), (1, "src0 must be a GlobalTensor", asc.CompileError),
    (2, "config must be an asc.AippParams", asc.CompileError), (3, "AippInputFormat", asc.CompileError),
    (4, "missing config", asc.CompileError), (5, "at most 4 arguments", asc.CompileError),
    (6, "unexpected or repeated argument 'mode'", asc.CompileError),
    (7, "colour-space conversion", asc.UnsupportedError)])
def test_misuse_is_a_compile_error_at_the_call(which: int, fragment: str, cls: Any) -> None:
    fails_at(aipp_misuse_kernel, [np.zeros(64, np.uint8), which], f"# misuse {which}", fragment, cls=cls)


@asc.jit
def aipp_keywords_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress):
    g = asc.GlobalTensor()
    g.set_global_buffer(x)
    uv = asc.GlobalTensor()
    uv.set_global_buffer(y)
    cfg = asc.AippParams(asc.float16, swap_params=asc.AippSwapParams(is_swap_ax=True))
    asc.set_aipp_functions(src0=g, input_format=asc.AippInputFormat.XRGB8888_U8, config=cfg)
    asc.set_aipp_functions(g, src1=uv, input_format=asc.AippInputFormat.YUV420SP_U8, config=cfg)


def test_keyword_forms_and_ascendc_spelling() -> None:
    aipp_keywords_kernel[1](np.zeros(64, np.uint8), np.zeros(32, np.uint8))
    code = ascendc(aipp_keywords_kernel)
    assert "AscendC::AippParams<half> " in code
    assert ".swapParams = " in code and ".isSwapAX = true;" in code
    assert "AscendC::SetAippFunctions(g, AscendC::AippInputFormat::XRGB8888_U8, " in code
    assert "AscendC::SetAippFunctions(g, uv, AscendC::AippInputFormat::YUV420SP_U8, " in code
