"""asc.bilinear_interpolation (AscendC::BilinearInterpolation, float16) on
the simulator against a NumPy model of the devkit's dav-c220 sequence:
Gatherb of the src0 blocks at src0_offset's byte offsets into the
temporary buffer, Brcb of src1 after them, a Mul by one broadcast block per
repeat (repeat_mode False) or eight (True), the Add of each vertical
iteration's h_repeat products (the mask's elements) and the Adds of 0 that
writes them to dst with its block and repeat strides. Every product and
sum is rounded to half; x + 0 turns -0 into +0.
"""

import zlib
from typing import Any, List, Union

import numpy as np
import pytest
from kernels_util import fails_at

import asc

N0 = 1024  # src0 elements
TMP = 16384  # bytes of the temporary buffer
ND = 2048  # dst elements
SENT = np.uint16(0x7E5A)


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


@asc.jit
def _bil_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                n1: asc.ConstExpr[int], bits: asc.ConstExpr[bool], m0: asc.ConstExpr[int], m1: asc.ConstExpr[int],
                h: asc.ConstExpr[int], mode: asc.ConstExpr[bool], dst_blk: asc.ConstExpr[int],
                vro: asc.ConstExpr[int], v: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    o_gm.set_global_buffer(o)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, N0)
    ol = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, 2048, 256)
    yl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 4096, n1)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 8192, ND)
    tmp = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 16384, TMP)
    asc.data_copy(xl, x_gm, N0)
    asc.data_copy(ol, o_gm, 256)
    asc.data_copy(yl, y_gm, n1)
    asc.data_copy(zl, z_gm, ND)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if bits:
        asc.bilinear_interpolation(zl, xl, ol, yl, [m0, m1], h, mode, dst_blk, vro, v, tmp)
    else:
        asc.bilinear_interpolation(zl, xl, ol, yl, m0, h, mode, dst_blk, vro, v, tmp)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, ND)


def mask_of(mask: Union[int, List[int]]) -> np.ndarray:
    if isinstance(mask, list):
        return np.array([(mask[0] >> i) & 1 if i < 64 else (mask[1] >> (i - 64)) & 1 for i in range(128)], bool)
    return np.arange(128) < (128 if mask >= 128 else mask)


def reference(src0: np.ndarray, offs: np.ndarray, src1: np.ndarray, mask: Union[int, List[int]], h: int,
              mode: bool, dst_blk: int, vro: int, v: int, dst: np.ndarray) -> np.ndarray:
    n = (h * v) & 0xFF
    on = mask_of(mask)
    gathered = np.concatenate([src0[o // 2:o // 2 + 16] for o in offs[:8 * n]]) if n else np.zeros(0, np.float16)
    bc = np.repeat(src1[:src1.size // 8 * 8], 16)  # Brcb: a block per element
    prod = gathered.reshape(n, 8, 16).copy()
    for r in range(n):
        for b in range(8):
            blk = r * 8 + b if mode else r
            prod[r, b] = prod[r, b] * bc[blk * 16:blk * 16 + 16]  # (float16 * float16: rounded to half)
    prod = prod.reshape(n, 128)
    for i in range(v):
        for k in range(h - 1):
            acc = prod[i * h]
            acc[on] = prod[i * h + 1 + k][on] + acc[on]
    out = dst.copy()
    dst_rep = (vro * 2 // 32) & 0xFF
    src_rep = (h * 8) & 0xFF
    flat = prod.reshape(-1)
    for r in range(v):
        for e in np.nonzero(on)[0]:
            e = int(e)
            di = ((r * dst_rep + e // 16 * dst_blk) * 32 + e % 16 * 2) // 2
            out[di] = flat[r * src_rep * 16 + e] + np.float16(0)
    return out


CASES = [  # h, v, repeat_mode, mask, dst_blk_stride, v_r_offset, src1 elements
    (2, 2, False, 128, 1, 128, 16),
    (3, 2, True, 128, 1, 256, 64),
    (1, 3, False, 77, 1, 128, 16),
    (2, 2, True, [0xFFFF_0000_F0F0_0001, 0x8000_0000_0000_FFFF], 2, 512, 32),
    (4, 1, False, 64, 1, 128, 16),
    (2, 3, False, 200, 1, 136, 16),  # mask above the maximum; a repeat stride of 136 // 16 blocks
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_bilinear_interpolation_against_numpy(case: int) -> None:
    h, v, mode, mask, dst_blk, vro, n1 = CASES[case]
    rng = rng_for("bil", case)
    src0 = rng.uniform(-10, 10, N0).astype(np.float16)
    src0[:16] = 0.0  # block 0: zeros, times negative weights: -0, which the final x + 0 makes +0
    offs = (rng.integers(0, N0 // 16, 256) * 32).astype(np.uint32)
    offs[0] = 0
    src1 = rng.uniform(-4, 4, n1).astype(np.float16)
    src1[0] = -2.0
    z = np.full(ND, SENT, np.uint16).view(np.float16)
    bits = isinstance(mask, list)
    m0, m1 = (mask[0], mask[1]) if bits else (mask, 0)
    _bil_kernel[1](src0, offs, src1, z, n1, bits, m0, m1, h, mode, dst_blk, vro, v)
    want = reference(src0, offs, src1, mask, h, mode, dst_blk, vro, v,
                     np.full(ND, SENT, np.uint16).view(np.float16))
    np.testing.assert_array_equal(z.view(np.uint16), want.view(np.uint16), err_msg=str(CASES[case]))
    if h == 1 and not mode:
        assert z.view(np.uint16)[0] == 0  # 0 * -2 is -0, the final + 0 makes it +0


def test_an_offset_that_is_not_a_block_is_a_kernel_error() -> None:
    offs = (np.arange(256) * 32).astype(np.uint32)
    offs[3] = 40
    z = np.zeros(ND, np.float16)
    fails_at(_bil_kernel, (np.zeros(N0, np.float16), offs, np.ones(16, np.float16), z, 16, False, 128, 0, 2, False,
                           1, 128, 2),
             "asc.bilinear_interpolation(zl, xl, ol, yl, m0, h, mode, dst_blk, vro, v, tmp)",
             "src0_offset[3] = 40 is not a multiple of 32")


def test_an_offset_past_src0_is_a_kernel_error() -> None:
    offs = (np.arange(256) * 32).astype(np.uint32)
    offs[5] = 1 << 20  # past the UB
    fails_at(_bil_kernel, (np.zeros(N0, np.float16), offs, np.ones(16, np.float16), np.zeros(ND, np.float16), 16,
                           False, 128, 0, 2, False, 1, 128, 2),
             "asc.bilinear_interpolation(zl, xl, ol, yl, m0, h, mode, dst_blk, vro, v, tmp)", "src0")


@asc.jit
def _bil_f32(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    o = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 1024, 64)
    t = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 2048, 4096)
    asc.bilinear_interpolation(a, a, o, a, 64, 1, False, 1, 64, 1, t)


def test_other_element_types_are_compile_errors() -> None:
    with pytest.raises(asc.CompileError, match="asc.bilinear_interpolation: dst must be a float16 tensor"):
        _bil_f32[1](np.zeros(8, np.float32))


def test_the_ascend_c_of_bilinear_interpolation() -> None:
    z = np.zeros(ND, np.float16)
    offs = (np.arange(256) * 32).astype(np.uint32)
    _bil_kernel[1](np.zeros(N0, np.float16), offs, np.ones(32, np.float16), z, 32, True, 3, 1, 2, True, 1, 128, 2)
    code = "\n".join(c.ascendc(line_comments=False) for c in _bil_kernel.cache.values())
    assert "AscendC::BilinearInterpolation(zl, xl, ol, yl, mask" in code
    z = np.zeros(ND, np.float16)
    _bil_kernel[1](np.zeros(N0, np.float16), offs, np.ones(16, np.float16), z, 16, False, 128, 0, 2, False, 1, 128, 2)
    code = "\n".join(c.ascendc(line_comments=False) for c in _bil_kernel.cache.values())
    assert "AscendC::BilinearInterpolation(zl, xl, ol, yl, 128ULL, 2, false, 1, 128, 2, tmp)" in code
