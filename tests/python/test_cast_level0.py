"""Level-0 form of asc.cast (mask, repeat_times, UnaryRepeatParams) on the
simulator, against a NumPy model.

The model (docs/semantics.md, "Level-0 forms"; 类型转换/Cast.md): mask and
elements per repeat follow the wider of the two element types (64 per
repeat for half <-> float); element i of repeat r of an operand with
element size es lies at byte i * es of that operand's repeat, whose 32-byte
blocks are placed by the operand's own block and repeat strides (contiguous:
dst_rep_stride 8, src_rep_stride 4 for float <- half). Elements outside the
mask keep their value. float -> float rounds to an integral value and its
zero results are +0 (the devkit's boundary value table 32); the other
conversions keep the sign of zero. Compared bit by bit.
"""

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pytest

import asc

DST_AT = 8192  # UB byte address of dst (src at 0)
N_SRC = 8192 // 4  # room for the src region: 8 KiB
N_DST = 8192 // 2

NP = {"float16": np.float16, "float32": np.float32, "int32": np.int32}
ASC = {"float16": asc.float16, "float32": asc.float32, "int32": asc.int32}


def _i32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def mask_bits(mask: Any, per_repeat: int) -> List[int]:
    if isinstance(mask, (list, tuple)):
        lo, hi = mask
        return [i for i in range(per_repeat) if ((lo >> i) if i < 64 else (hi >> (i - 64))) & 1]
    return list(range(min(mask, per_repeat)))


def where(i: np.ndarray, es: int, r: int, blk: int, rep: int) -> np.ndarray:
    """Element index (in the operand's type) of element i of repeat r."""
    byte = i * es
    return ((r * rep + (byte // 32) * blk) * 32 + byte % 32) // es


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def convert(x: np.ndarray, dst: str, mode: str) -> np.ndarray:
    d = NP[dst]
    if dst == "int32" or (dst == "float32" and x.dtype == np.float32):
        f = {"CAST_RINT": np.rint, "CAST_NONE": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil,
             "CAST_TRUNC": np.trunc, "CAST_ROUND": _round_half_away}[mode]
        return (f(x.astype(np.float64)) + 0.0).astype(d)  # float -> float: +0 for zero results (table 32)
    if dst == "float16" and x.dtype == np.float32:
        h = x.astype(np.float16)  # nearest even
        x64, h64 = x.astype(np.float64), h.astype(np.float64)
        if mode == "CAST_FLOOR":
            h = np.where(h64 > x64, np.nextafter(h, np.float16(-np.inf)), h)
        elif mode == "CAST_CEIL":
            h = np.where(h64 < x64, np.nextafter(h, np.float16(np.inf)), h)
        elif mode == "CAST_TRUNC":
            h = np.where(np.abs(h64) > np.abs(x64), np.nextafter(h, np.float16(0)), h)
        else:
            assert mode in ("CAST_RINT", "CAST_NONE")
        return h.astype(d)
    return x.astype(d)  # exact (float <- half) or nearest even (float <- int32)


def reference(src: np.ndarray, dst: np.ndarray, dst_t: str, mode: str, mask: Any, repeat: int,
              blk: Sequence[int], rep: Sequence[int]) -> np.ndarray:
    out = dst.copy()
    wide = max(src.itemsize, dst.itemsize)
    idx = np.array(mask_bits(mask, 256 // wide), dtype=np.int64)
    if len(idx) == 0:
        return out
    for r in range(repeat):
        vals = src[where(idx, src.itemsize, r, blk[1], rep[1])]
        out[where(idx, dst.itemsize, r, blk[0], rep[0])] = convert(vals, dst_t, mode)
    return out


_KERNELS: Dict[Tuple[str, str, str], Any] = {}


def cast_kernel(dst_t: str, src_t: str, mode: str) -> Any:
    key = (dst_t, src_t, mode)
    if key in _KERNELS:
        return _KERNELS[key]
    rm = getattr(asc.RoundMode, mode)

    @asc.jit
    def kernel(y: asc.GlobalAddress, x: asc.GlobalAddress, bit: int, mask: int, a0: int, a1: int, b0: int,
               b1: int, repeat: int, k0: int, k1: int, r0: int, r1: int):
        ns = 8192 // x.dtype.sizeof()
        nd = 8192 // y.dtype.sizeof()
        xg = asc.GlobalTensor()
        xg.set_global_buffer(x)
        yg = asc.GlobalTensor()
        yg.set_global_buffer(y)
        s = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, ns)
        d = asc.LocalTensor(y.dtype, asc.TPosition.VECOUT, DST_AT, nd)
        asc.data_copy(s, xg, ns)
        asc.data_copy(d, yg, nd)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        m0 = asc.uint64(asc.uint32(a0)) | (asc.uint64(asc.uint32(a1)) << 32)
        m1 = asc.uint64(asc.uint32(b0)) | (asc.uint64(asc.uint32(b1)) << 32)
        params = asc.UnaryRepeatParams(k0, k1, r0, r1)
        if bit:
            asc.cast(d, s, rm, [m0, m1], repeat, params)
        else:
            asc.cast(d, s, rm, mask, repeat, params)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(yg, d, nd)

    _KERNELS[key] = kernel
    return kernel


def _data(t: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if t == "int32":
        return rng.integers(-(1 << 26), 1 << 26, n).astype(np.int32)
    v = rng.uniform(-60.0, 60.0, n)
    if t == "float32":  # values between halves, and exact .5 ties for the integer roundings
        v[::7] = np.round(v[::7]) + 0.5
    v[3::11] = -0.0  # signed zeros, and negatives that round to zero
    v[5::11] = 0.0
    v[8::11] = -0.375
    return v.astype(NP[t])


def run(dst_t: str, src_t: str, mode: str, mask: Any, repeat: int, blk: Sequence[int], rep: Sequence[int],
        seed: int = 0) -> None:
    src = _data(src_t, 8192 // np.dtype(NP[src_t]).itemsize, seed)
    init = _data(dst_t, 8192 // np.dtype(NP[dst_t]).itemsize, seed + 1)
    ref = reference(src, init, dst_t, mode, mask, repeat, blk, rep)
    out = init.copy()
    bit = isinstance(mask, (list, tuple))
    lo, hi = mask if bit else (0, 0)
    cast_kernel(dst_t, src_t, mode)[1](out, src, int(bit), 0 if bit else mask, _i32(lo), _i32(lo >> 32),
                                       _i32(hi), _i32(hi >> 32), repeat, blk[0], blk[1], rep[0], rep[1])
    if out.dtype.kind == "f":  # bit by bit: the sign of zero counts
        u = {2: np.uint16, 4: np.uint32}[out.itemsize]
        np.testing.assert_array_equal(out.view(u), ref.view(u))
    else:
        np.testing.assert_array_equal(out, ref)


PAIRS = [
    ("float32", "float16", "CAST_NONE"),
    ("float16", "float32", "CAST_RINT"),
    ("float16", "float32", "CAST_NONE"),
    ("float16", "float32", "CAST_FLOOR"),
    ("float16", "float32", "CAST_CEIL"),
    ("float16", "float32", "CAST_TRUNC"),
    ("int32", "float32", "CAST_RINT"),
    ("int32", "float32", "CAST_FLOOR"),
    ("int32", "float32", "CAST_ROUND"),
    ("int32", "float32", "CAST_TRUNC"),
    ("int32", "float16", "CAST_CEIL"),
    ("float32", "int32", "CAST_NONE"),
    ("float32", "int32", "CAST_RINT"),
    ("float32", "float32", "CAST_CEIL"),
    ("float32", "float32", "CAST_TRUNC"),
]


def _contiguous(dst_t: str, src_t: str) -> Tuple[int, int]:
    wide = max(np.dtype(NP[dst_t]).itemsize, np.dtype(NP[src_t]).itemsize)
    return 8 * np.dtype(NP[dst_t]).itemsize // wide, 8 * np.dtype(NP[src_t]).itemsize // wide


@pytest.mark.parametrize("dst_t,src_t,mode", PAIRS, ids=[f"{d}<-{s}-{m}" for d, s, m in PAIRS])
def test_cast_level0_contiguous(dst_t: str, src_t: str, mode: str) -> None:
    rd, rs = _contiguous(dst_t, src_t)
    run(dst_t, src_t, mode, 64, 8, (1, 1), (rd, rs))  # the documented example: 512 elements
    run(dst_t, src_t, mode, 32, 8, (1, 1), (rd, rs), seed=3)  # Cast.md "更多样例": first 32 of each repeat


@pytest.mark.parametrize("dst_t,src_t,mode", PAIRS[:3] + PAIRS[6:7] + PAIRS[-3:],
                         ids=[f"{d}<-{s}-{m}" for d, s, m in PAIRS[:3] + PAIRS[6:7] + PAIRS[-3:]])
@pytest.mark.parametrize("mask,repeat,blk,rep", [
    ([0xF0F0_0000_FFFF_0001, 0], 3, (1, 1), None),
    ([(1 << 64) - 1, 0], 2, (1, 1), (16, 16)),
    (17, 4, (2, 3), (24, 20)),
    ([0x8000_0000_0000_0001, 0], 5, (1, 2), (8, 8)),
    (64, 3, (1, 1), (0, 4)),  # repeat stride 0 on dst: the last repeat wins
    (0, 5, (1, 1), None),  # empty mask: NOP
    (64, 0, (1, 1), None),  # repeat 0: NOP
])
def test_cast_level0_masks_strides(dst_t: str, src_t: str, mode: str, mask: Any, repeat: int,
                                   blk: Sequence[int], rep: Any) -> None:
    run(dst_t, src_t, mode, mask, repeat, blk, rep or _contiguous(dst_t, src_t), seed=repeat)


@asc.jit
def _bad(x: asc.GlobalAddress, case: asc.ConstExpr[str], v: int):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 4096, 2048)
    i8 = asc.LocalTensor(asc.int8, asc.TPosition.VECCALC, 8192, 1024)
    asc.duplicate(a, 0.0, 64, 16, 1, 8)
    asc.duplicate(h, 0.0, 128, 16, 1, 8)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    p = asc.UnaryRepeatParams(1, 1, 4, 8)
    if case == "mask_const":
        asc.cast(h, a, asc.RoundMode.CAST_RINT, -1, 1, p)
    elif case == "mask_runtime":
        asc.cast(h, a, asc.RoundMode.CAST_RINT, v, 1, p)
    elif case == "mode":
        asc.cast(a, h, asc.RoundMode.CAST_RINT, 64, 1, asc.UnaryRepeatParams(1, 1, 8, 4))
    elif case == "pair":
        asc.cast(i8, a, asc.RoundMode.CAST_RINT, 64, 1, p)
    elif case == "src_extent":
        asc.cast(h, a, asc.RoundMode.CAST_RINT, 64, v, p)  # 1024 float32 = 16 repeats
    elif case == "params":
        asc.cast(h, a, asc.RoundMode.CAST_RINT, 64, 1, asc.BinaryRepeatParams())


ERRORS = [
    ("mask_const", 0, asc.CompileError, r"mask = -1 is negative"),
    ("mode", 0, asc.CompileError, r"RoundMode.CAST_RINT is not supported"),
    ("pair", 0, asc.CompileError, r"from float32 to int8"),
    ("src_extent", 17, asc.KernelError, r"src: .*the LocalTensor has only 1024"),
    ("params", 0, asc.CompileError, r"UnaryRepeatParams"),
]


@pytest.mark.parametrize("case,v,cls,match", ERRORS, ids=[f"{c[0]}-{c[1]}" for c in ERRORS])
def test_cast_level0_errors(case: str, v: int, cls: type, match: str) -> None:
    with pytest.raises(cls, match=match):
        _bad[1](np.zeros(8, np.float32), case, v)


def test_cast_level0_in_range_runs() -> None:
    _bad[1](np.zeros(8, np.float32), "src_extent", 16)


@asc.jit
def _spelled(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 512)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 4096, 512)
    asc.duplicate(h, 1.0, 128, 4, 1, 8)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.cast(a, h, asc.RoundMode.CAST_NONE, 64, 8, asc.UnaryRepeatParams(1, 1, 8, 4))
    asc.cast(h, a, asc.RoundMode.CAST_ODD, [3, 0], 2, asc.UnaryRepeatParams(1, 1, 4, 8))


def test_cast_level0_ascendc_text() -> None:
    from asc.runtime import compiler

    got: List[Any] = []
    compiler.compile_listeners.append(got.append)
    try:
        _spelled[1](np.zeros(8, np.float16), always_compile=True)
    finally:
        compiler.compile_listeners.remove(got.append)
    text = got[0].ascendc(line_comments=False)
    assert ("AscendC::Cast(a, h, AscendC::RoundMode::CAST_NONE, 64ULL, 8, "
            "AscendC::UnaryRepeatParams(1, 1, 8, 4));") in text
    assert "uint64_t mask[2] = {3ULL, " in text
    assert "AscendC::Cast(h, a, AscendC::RoundMode::CAST_ODD, mask, 2, AscendC::UnaryRepeatParams(1, 1, 4, 8));" in text
