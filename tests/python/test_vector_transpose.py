"""Transposes on the simulator against NumPy references: transpose (the
16x16 form and the enhanced TransposeParamsExt form: NCHW<->NHWC,
TRANSPOSE_ND2ND_B16, TRANSPOSE_TYPE_NONE) and trans_data_to_5hd in its
three forms (lists of LocalTensors, lists of UB addresses, uint64 tensors
of addresses), per element size (b8 with its high/low halves, b16, b32),
with one and several repeats; then the errors.

TransDataTo5HD's reference follows the devkit: repeat r reads the 16
source blocks at srcList[i] + r * srcRepStride blocks and writes the 16
destination blocks at dstList[j] + r * dstRepStride blocks; with
repeatTimes 1 that one repeat already adds 1 * the strides.
"""

import zlib
from typing import Any, List

import numpy as np
import pytest
from kernels_util import UB_SLOT, ascendc, fails_at

import asc

ALL = ("int8", "uint8", "int16", "uint16", "float16", "int32", "uint32", "float32")
NP = {n: np.dtype(n) for n in ALL}


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def values(name: str, n: int, *key: Any) -> np.ndarray:
    r = rng_for(name, n, *key)
    if name.startswith("float"):
        return r.standard_normal(n).astype(NP[name])
    info = np.iinfo(NP[name])
    return r.integers(info.min, info.max, n, endpoint=True).astype(NP[name])


# ---------------------------------------------------------------------------
# transpose
# ---------------------------------------------------------------------------


@asc.jit
def transpose16_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, in_place: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UB_SLOT, 256)
    asc.data_copy(xl, x_gm, 256)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if in_place:
        asc.transpose(xl, xl)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, xl, 256)
    else:
        asc.transpose(zl, xl)  # transpose call
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm, zl, 256)


@pytest.mark.parametrize("name", ("int16", "uint16", "float16"))
@pytest.mark.parametrize("in_place", (False, True))
def test_transpose_16x16(name: str, in_place: bool) -> None:
    a = values(name, 256, "t16")
    if name == "float16":
        a[:4] = [np.nan, -0.0, np.inf, -np.inf]
    z = np.zeros(256, NP[name])
    transpose16_kernel[1](a.copy(), z, in_place)
    assert np.array_equal(z.view(np.uint16), a.reshape(16, 16).T.reshape(-1).view(np.uint16))


@asc.jit
def transpose_ext_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, c: int, h: int, w: int,
                         ttype: asc.ConstExpr[asc.TransposeType], total: int, tmp_len: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    cap = UB_SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
    tmp = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 2 * UB_SLOT, tmp_len)
    asc.data_copy(xl, x_gm, total)
    asc.data_copy(zl, z_gm, total)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.TransposeParamsExt(n_size=n, c_size=c, h_size=h, w_size=w, transpose_type=ttype)
    asc.transpose(zl, xl, tmp, params)  # ext call
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, total)


def tmp_need(c: int, es: int, to_nhwc: bool) -> int:
    h0, w0 = (32 if es == 1 else 16), 32 // es
    return ((c + 2) if to_nhwc else (2 * c + 1)) * h0 * w0 * es


NCHW = ((1, 16, 4, 4), (2, 3, 2, 8), (1, 5, 1, 16), (3, 2, 4, 8), (2, 3, 4, 16))
# h * w * sizeof(T) must be a multiple of 32 bytes (the errors test the others)
NCHW_CASES = [(name, shape) for name in ALL for shape in NCHW if shape[2] * shape[3] * NP[name].itemsize % 32 == 0]


@pytest.mark.parametrize("name, shape", NCHW_CASES)
@pytest.mark.parametrize("to_nhwc", (True, False))
def test_transpose_ext_nchw_nhwc(name: str, shape: tuple, to_nhwc: bool) -> None:
    n, c, h, w = shape
    es = NP[name].itemsize
    a = values(name, n * c * h * w, shape, to_nhwc)
    z = np.zeros_like(a)
    t = asc.TransposeType.TRANSPOSE_NCHW2NHWC if to_nhwc else asc.TransposeType.TRANSPOSE_NHWC2NCHW
    transpose_ext_kernel[1](a, z, n, c, h, w, t, len(a), tmp_need(c, es, to_nhwc))
    if to_nhwc:
        want = a.reshape(n, c, h, w).transpose(0, 2, 3, 1)
    else:
        want = a.reshape(n, h, w, c).transpose(0, 3, 1, 2)
    assert np.array_equal(z.view(np.uint8), np.ascontiguousarray(want).reshape(-1).view(np.uint8))


def test_transpose_ext_nd2nd_b16_and_none() -> None:
    a = values("uint16", 256, "b16")
    z = np.zeros_like(a)
    transpose_ext_kernel[1](a, z, 0, 0, 16, 16, asc.TransposeType.TRANSPOSE_ND2ND_B16, 256, 32)
    assert np.array_equal(z, a.reshape(16, 16).T.reshape(-1))
    z = np.full_like(a, 7)
    transpose_ext_kernel[1](a, z, 1, 16, 4, 4, asc.TransposeType.TRANSPOSE_TYPE_NONE, 256, 32)
    assert (z == 7).all()
    # a size of 0 computes nothing and writes nothing
    transpose_ext_kernel[1](a, z, 0, 16, 4, 4, asc.TransposeType.TRANSPOSE_NCHW2NHWC, 256, 32)
    assert (z == 7).all()


@pytest.mark.parametrize("ttype, args, fragment", [
    ("TRANSPOSE_NZ2ND_0213", (1, 16, 4, 4), "is not supported"),
    ("TRANSPOSE_NCHW2NHWC", (1, 16, 3, 5), "not a multiple of 32"),
    ("TRANSPOSE_NCHW2NHWC", (1, 4096, 1, 16), "out of range"),
])
def test_transpose_ext_errors(ttype: str, args: tuple, fragment: str) -> None:
    a = np.zeros(256, np.float16)
    t = getattr(asc.TransposeType, ttype)
    fails_at(transpose_ext_kernel, (a, a.copy(), *args, t, 256, 16384), "# ext call", "transpose", fragment)


def test_transpose_ext_small_tmp_buffer_and_b16_dtype() -> None:
    a = np.zeros(256, np.float16)
    fails_at(transpose_ext_kernel, (a, a.copy(), 1, 16, 4, 4, asc.TransposeType.TRANSPOSE_NCHW2NHWC, 256,
                                    9215), "# ext call", "shared_tmp_buffer has 9215 bytes", "9216")
    fails_at(transpose_ext_kernel, (a, a.copy(), 0, 0, 16, 16, asc.TransposeType.TRANSPOSE_ND2ND_B16, 256,
                                    32), "# ext call", "only uint16")


@asc.jit
def transpose_bad_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 256)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 1024, 256)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 2048, 256)
    t = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 4096, 256)
    p = asc.TransposeParamsExt(1, 16, 4, 4, asc.TransposeType.TRANSPOSE_NCHW2NHWC)
    if which == 0:
        asc.transpose(b, a)  # bad 0
    elif which == 1:
        asc.transpose(h, a)  # bad 1
    elif which == 2:
        asc.transpose(h, h, t, p)  # bad 2
    else:
        asc.transpose(h, h, t)  # bad 3


@pytest.mark.parametrize("which, fragment", [
    (0, "element type float32"), (1, "one element type"), (2, "uint8"), (3, "shared_tmp_buffer and params"),
])
def test_transpose_compile_errors(which: int, fragment: str) -> None:
    fails_at(transpose_bad_kernel, (np.zeros(8, np.float32), which), f"# bad {which}", fragment,
             cls=asc.CompileError)


def test_transpose_ascendc() -> None:
    transpose16_kernel[1](np.zeros(256, np.float16), np.zeros(256, np.float16), False)
    assert "AscendC::Transpose(" in ascendc(transpose16_kernel)
    a = np.zeros(256, np.int16)
    transpose_ext_kernel[1](a, a.copy(), 1, 16, 4, 4, asc.TransposeType.TRANSPOSE_NCHW2NHWC, 256, 16384)
    src = ascendc(transpose_ext_kernel)
    assert "AscendC::Transpose(" in src and "AscendC::TransposeParamsExt(" in src


# ---------------------------------------------------------------------------
# trans_data_to_5hd
# ---------------------------------------------------------------------------

FORM_LIST, FORM_ADDRS, FORM_TENSOR = 0, 1, 2


@asc.jit
def trans5hd_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, total: int, form: asc.ConstExpr[int],
                    dst_step: asc.ConstExpr[int], src_step: asc.ConstExpr[int], dst_high: asc.ConstExpr[bool],
                    src_high: asc.ConstExpr[bool], repeat: int, dst_rep: int, src_rep: int):
    """dst_list[i] = zl[i * dst_step], src_list[i] = xl[i * src_step] (in elements)."""
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    cap = UB_SLOT // x.dtype.sizeof()
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, cap)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UB_SLOT, cap)
    asc.data_copy(xl, x_gm, total)
    asc.data_copy(zl, z_gm, total)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.TransDataTo5HDParams(dst_high, src_high, repeat, dst_rep, src_rep)
    if form == 0:
        dl = [
            zl[0 * dst_step], zl[1 * dst_step], zl[2 * dst_step], zl[3 * dst_step], zl[4 * dst_step],
            zl[5 * dst_step], zl[6 * dst_step], zl[7 * dst_step], zl[8 * dst_step], zl[9 * dst_step],
            zl[10 * dst_step], zl[11 * dst_step], zl[12 * dst_step], zl[13 * dst_step], zl[14 * dst_step],
            zl[15 * dst_step]
        ]
        sl = [
            xl[0 * src_step], xl[1 * src_step], xl[2 * src_step], xl[3 * src_step], xl[4 * src_step],
            xl[5 * src_step], xl[6 * src_step], xl[7 * src_step], xl[8 * src_step], xl[9 * src_step],
            xl[10 * src_step], xl[11 * src_step], xl[12 * src_step], xl[13 * src_step], xl[14 * src_step],
            xl[15 * src_step]
        ]
        asc.trans_data_to_5hd(dl, sl, params)  # 5hd list
    elif form == 1:
        da = [
            zl[0 * dst_step].get_phy_addr(), zl[1 * dst_step].get_phy_addr(), zl[2 * dst_step].get_phy_addr(),
            zl[3 * dst_step].get_phy_addr(), zl[4 * dst_step].get_phy_addr(), zl[5 * dst_step].get_phy_addr(),
            zl[6 * dst_step].get_phy_addr(), zl[7 * dst_step].get_phy_addr(), zl[8 * dst_step].get_phy_addr(),
            zl[9 * dst_step].get_phy_addr(), zl[10 * dst_step].get_phy_addr(), zl[11 * dst_step].get_phy_addr(),
            zl[12 * dst_step].get_phy_addr(), zl[13 * dst_step].get_phy_addr(), zl[14 * dst_step].get_phy_addr(),
            zl[15 * dst_step].get_phy_addr()
        ]
        sa = [
            xl[0 * src_step].get_phy_addr(), xl[1 * src_step].get_phy_addr(), xl[2 * src_step].get_phy_addr(),
            xl[3 * src_step].get_phy_addr(), xl[4 * src_step].get_phy_addr(), xl[5 * src_step].get_phy_addr(),
            xl[6 * src_step].get_phy_addr(), xl[7 * src_step].get_phy_addr(), xl[8 * src_step].get_phy_addr(),
            xl[9 * src_step].get_phy_addr(), xl[10 * src_step].get_phy_addr(), xl[11 * src_step].get_phy_addr(),
            xl[12 * src_step].get_phy_addr(), xl[13 * src_step].get_phy_addr(), xl[14 * src_step].get_phy_addr(),
            xl[15 * src_step].get_phy_addr()
        ]
        asc.trans_data_to_5hd(da, sa, params)  # 5hd addrs
    else:
        dt_ = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 2 * UB_SLOT, 16)
        st_ = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 2 * UB_SLOT + 128, 16)
        for i in range(16):
            dt_.set_value(i, zl[i * dst_step].get_phy_addr())
            st_.set_value(i, xl[i * src_step].get_phy_addr())
        asc.trans_data_to_5hd(dt_, st_, params)  # 5hd tensor
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, total)


def trans5hd_ref(x: np.ndarray, z: np.ndarray, dst_step: int, src_step: int, dst_high: bool, src_high: bool,
                 repeat: int, dst_rep: int, src_rep: int) -> np.ndarray:
    """The devkit's scatter_vnchwconv on byte arrays (offsets in elements of x's type)."""
    es = x.dtype.itemsize
    xb, zb = x.view(np.uint8), z.view(np.uint8).copy()
    for r in range(repeat):
        k = 1 if repeat == 1 else r
        src = [xb[i * src_step * es + k * src_rep * 32:][:32].copy() for i in range(16)]
        for j in range(16):
            o = j * dst_step * es + k * dst_rep * 32
            if es == 2:
                zb[o:o + 32] = np.stack([s.view(np.uint16)[j] for s in src]).view(np.uint8)
            elif es == 4:
                zb[o:o + 32] = np.stack([src[8 * (j % 2) + e].view(np.uint32)[j // 2]
                                         for e in range(8)]).view(np.uint8)
            else:
                h = 16 if dst_high else 0
                zb[o + h:o + h + 16] = [s[(16 if src_high else 0) + j] for s in src]
    return zb.view(x.dtype)


# (dst_step, src_step, repeat, dst_rep, src_rep) in elements / blocks, per element size
CASES_5HD = {
    # a 16-block transpose, one repeat with strides 0; NCHW -> NC1HWC0 of a 16 x 16 x 16 block
    2: [(16, 16, 1, 0, 0), (16, 256, 16, 16, 1), (16, 16, 1, 2, 1)],
    4: [(8, 8, 1, 0, 0), (8, 64, 8, 16, 1), (8, 8, 2, 16, 0)],
    1: [(32, 32, 1, 0, 0), (32, 512, 3, 16, 1)],
}


def total_for(es: int, case: tuple) -> int:
    dst_step, src_step, repeat, dst_rep, src_rep = case
    k = max(repeat - 1, 1)
    need = max(15 * dst_step * es + k * dst_rep * 32 + 32, 15 * src_step * es + k * src_rep * 32 + 32)
    return (need + 31) // 32 * 32 // es


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("form", (FORM_LIST, FORM_ADDRS, FORM_TENSOR))
def test_trans_data_to_5hd(name: str, form: int) -> None:
    es = NP[name].itemsize
    halves = [(False, False), (True, False), (False, True), (True, True)] if es == 1 else [(False, False)]
    for ci, case in enumerate(CASES_5HD[es]):
        total = total_for(es, case)
        for dh, sh in halves if ci == 0 else halves[:1]:
            x = values(name, total, form, case)
            z = values(name, total, form, case, "z")
            want = trans5hd_ref(x, z, case[0], case[1], dh, sh, *case[2:])
            trans5hd_kernel[1](x, z, total, form, case[0], case[1], dh, sh, *case[2:])
            assert np.array_equal(z.view(np.uint8), want.view(np.uint8)), (case, dh, sh)


def test_trans_data_to_5hd_nchw_to_nc1hwc0() -> None:
    """The devkit's scenario: a [c=16, h=16, w=16] half block to [h, w, c0=16]."""
    x = values("float16", 4096, "5hd")
    z = np.zeros_like(x)
    trans5hd_kernel[1](x, z, 4096, FORM_LIST, 16, 256, False, False, 16, 16, 1)
    assert np.array_equal(z.view(np.uint16), x.reshape(16, 16, 16).transpose(1, 2, 0).reshape(-1).view(np.uint16))


def test_trans_data_to_5hd_repeat_zero_is_nop() -> None:
    x = values("int16", 512, "nop")
    z = values("int16", 512, "nop", "z")
    trans5hd_kernel[1](x, z_out := z.copy(), 512, FORM_ADDRS, 16, 16, False, False, 0, 0, 0)
    assert np.array_equal(z_out, z)


def test_trans_data_to_5hd_out_of_ub() -> None:
    x = np.zeros(256, np.int16)
    fails_at(trans5hd_kernel, (x, x.copy(), 256, FORM_ADDRS, 16, 16, False, False, 200, 65535, 0), "# 5hd addrs",
             "trans_data_to_5hd", "outside the UB")


@asc.jit
def trans5hd_bad_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 4096)
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 8192, 256)
    a = asc.LocalTensor(asc.uint64, asc.TPosition.VECCALC, 16384, 16)
    i = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 16384, 16)
    p = asc.TransDataTo5HDParams(False, False, 1, 0, 0)
    hs = [
        h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h
    ]
    fs = [
        f, f, f, f, f, f, f, f, f, f, f, f, f, f, f, f
    ]
    zs = [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    ]
    if which == 0:
        asc.trans_data_to_5hd(hs, fs, p)  # bad 0
    elif which == 1:
        asc.trans_data_to_5hd([h, h, h], [h, h, h], p)  # bad 1
    elif which == 2:
        asc.trans_data_to_5hd(a, a, p)  # bad 2
    elif which == 3:
        asc.trans_data_to_5hd(i, i, p, dtype=asc.float16)  # bad 3
    elif which == 4:
        asc.trans_data_to_5hd(zs, zs, p)  # bad 4
    elif which == 5:
        asc.trans_data_to_5hd(hs, hs, 3)  # bad 5
    else:
        g = asc.LocalTensor(asc.int64, asc.TPosition.VECIN, 0, 4096)
        gs = [
            g, g, g, g, g, g, g, g, g, g, g, g, g, g, g, g
        ]
        asc.trans_data_to_5hd(gs, gs, p)  # bad 6


@pytest.mark.parametrize("which, fragment", [
    (0, "one element type"), (1, "16 entries"), (2, "cannot tell the element type"), (3, "uint64"),
    (4, "cannot tell the element type"), (5, "TransDataTo5HDParams"), (6, "element type int64"),
])
def test_trans_data_to_5hd_compile_errors(which: int, fragment: str) -> None:
    fails_at(trans5hd_bad_kernel, (np.zeros(8, np.float32), which), f"# bad {which}", fragment,
             cls=asc.CompileError)


@pytest.mark.parametrize("form, fragments", [
    (FORM_LIST, ("AscendC::LocalTensor<int16_t> dst_list[16] = {", "AscendC::TransDataTo5HD<int16_t>(dst_list")),
    (FORM_ADDRS, ("uint64_t dst_list[16] = {", "AscendC::TransDataTo5HD<int16_t>(dst_list")),
    (FORM_TENSOR, ("AscendC::TransDataTo5HD<int16_t>(",)),
])
def test_trans_data_to_5hd_ascendc(form: int, fragments: List[str]) -> None:
    x = np.zeros(4096, np.int16)
    # (high halves, which 2-byte types ignore: a compilation no other test made, the cache's newest)
    trans5hd_kernel[1](x, x.copy(), 4096, form, 16, 256, True, True, 16, 16, 1)
    src = ascendc(trans5hd_kernel)
    for f in fragments:
        assert f in src, src
