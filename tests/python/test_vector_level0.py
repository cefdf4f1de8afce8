"""Level-0 forms of the vector instructions (mask, repeat_times, strides) on
the simulator, against a NumPy model of the documented semantics.

The model (docs/semantics.md, "Level-0 forms"): a repeat works on 8 data
blocks of 32 bytes per operand; block b of repeat r of an operand starts
(r * repeat_stride + b * block_stride) * 32 bytes after its address;
element i of a repeat (block i // per_block, position i % per_block) takes
part when bit i of the mask is set (continuous mode: i < mask; bit mode:
mask[0] holds bits 0-63, mask[1] bits 64-127); the others keep their value.
Each repeat reads its sources before writing, repeats run in order.

Every case runs on one UB region holding all operands (so in-place and
overlapping operands are modelled exactly) that is copied in whole and
copied back whole: the comparison covers every element, so elements
outside the mask must be unchanged.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import pytest
from kernels_util import assert_close_ulp

import asc

REGION = 12288  # bytes of UB holding the operands
SLOT = 4096  # bytes between the operands' default addresses

ARITH = ("float16", "float32", "int16", "int32")
FLT = ("float16", "float32")

NP = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "int32": np.int32, "uint16": np.uint16,
      "uint32": np.uint32}


def _i32(x: int) -> int:
    """The int32 whose bits are the low 32 bits of x (runtime mask pieces)."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


# ---------------------------------------------------------------------------
# the NumPy model
# ---------------------------------------------------------------------------

def mask_bits(mask: Any, per_repeat: int) -> List[int]:
    if isinstance(mask, (list, tuple)):
        lo, hi = mask
        return [i for i in range(per_repeat) if ((lo >> i) if i < 64 else (hi >> (i - 64))) & 1]
    return list(range(min(mask, per_repeat)))


def ref_level0(ub: np.ndarray, fn: Callable[..., np.ndarray], offs: Sequence[int], blk: Sequence[int],
               rep: Sequence[int], mask: Any, repeat: int) -> Tuple[np.ndarray, np.ndarray]:
    """The UB region after the instruction, and which elements it wrote.
    offs/blk/rep: per operand (dst first) element offset, block and repeat strides."""
    out = ub.copy()
    wrote = np.zeros(len(ub), bool)
    per_block = 32 // ub.itemsize
    per_repeat = 8 * per_block
    idx = np.array(mask_bits(mask, per_repeat), dtype=np.int64)
    if len(idx) == 0:
        return out, wrote

    def where(k: int, r: int) -> np.ndarray:
        return offs[k] + (r * rep[k] + (idx // per_block) * blk[k]) * per_block + idx % per_block

    for r in range(repeat):
        srcs = [out[where(k, r)].copy() for k in range(1, len(offs))]
        with np.errstate(all="ignore"):
            res = fn(*srcs, len(idx))
        out[where(0, r)] = res
        wrote[where(0, r)] = True
    return out, wrote


# ---------------------------------------------------------------------------
# ops: (asc function, dtypes, kind, NumPy function, input range, approximate)
# ---------------------------------------------------------------------------

def _np_bin(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda a, b, n: f(a, b)


def _np_un(f: Callable[..., Any]) -> Callable[..., Any]:
    return lambda a, n: f(a)


def _rsqrt(a: np.ndarray) -> np.ndarray:
    return (1.0 / np.sqrt(a.astype(np.float64))).astype(a.dtype)


def _exp(a: np.ndarray) -> np.ndarray:
    return np.exp(a.astype(np.float64)).astype(np.float32).astype(a.dtype)


def _ln(a: np.ndarray) -> np.ndarray:
    return np.log(a.astype(np.float64)).astype(np.float32).astype(a.dtype)


def _relu(a: np.ndarray) -> np.ndarray:
    return np.where(a > 0, a, np.zeros_like(a))


def _hw_max(a: np.ndarray, b: Any) -> np.ndarray:
    """Max / Maxs: IEEE 754-2019's maximum, -0 below +0 (the devkit's boundary value tables 13 and 17)."""
    if a.dtype.kind != "f":
        return np.maximum(a, b)
    b = np.broadcast_to(b, a.shape)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _hw_min(a: np.ndarray, b: Any) -> np.ndarray:
    """Min / Mins: IEEE 754-2019's minimum, -0 below +0 (tables 14 and 18)."""
    if a.dtype.kind != "f":
        return np.minimum(a, b)
    b = np.broadcast_to(b, a.shape)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), a, b), np.minimum(a, b))


OPS: Dict[str, Tuple[Callable[..., None], Tuple[str, ...], str, Callable[..., Any], str, bool]] = {
    "add": (asc.add, ARITH, "binary", _np_bin(np.add), "any", False),
    "sub": (asc.sub, ARITH, "binary", _np_bin(np.subtract), "any", False),
    "mul": (asc.mul, ARITH, "binary", _np_bin(np.multiply), "any", False),
    "div": (asc.div, FLT, "binary", _np_bin(np.divide), "nonzero", False),
    "max": (asc.max, ARITH, "binary", _np_bin(_hw_max), "any", False),
    "min": (asc.min, ARITH, "binary", _np_bin(_hw_min), "any", False),
    "adds": (asc.adds, ARITH, "scalar", np.add, "any", False),
    "muls": (asc.muls, ARITH, "scalar", np.multiply, "any", False),
    "maxs": (asc.maxs, ARITH, "scalar", _hw_max, "any", False),
    "mins": (asc.mins, ARITH, "scalar", _hw_min, "any", False),
    "relu": (asc.relu, FLT + ("int32",), "unary", _np_un(_relu), "any", False),
    "exp": (asc.exp, FLT, "unary", _np_un(_exp), "small", True),
    "ln": (asc.ln, FLT, "unary", _np_un(_ln), "positive", True),
    "abs": (asc.abs, FLT, "unary", _np_un(np.abs), "any", False),
    "sqrt": (asc.sqrt, FLT, "unary", _np_un(np.sqrt), "positive", False),
    "rsqrt": (asc.rsqrt, FLT, "unary", _np_un(_rsqrt), "positive", True),
    "reciprocal": (asc.reciprocal, FLT, "unary", _np_un(lambda a: np.divide(a.dtype.type(1), a)), "nonzero", False),
    "duplicate": (asc.duplicate, ("float16", "bfloat16", "float32", "int16", "uint16", "int32", "uint32"),
                  "duplicate", None, "any", False),  # type: ignore[dict-item]
}
N_OPERANDS = {"binary": 3, "scalar": 2, "unary": 2, "duplicate": 1}
SCALAR = 3  # the scalar of adds/muls/maxs/mins and duplicate


def _data(name: str, n: int, rng_kind: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if name in ("int16", "int32", "uint16", "uint32"):
        lo = 0 if name.startswith("u") else -1000
        return rng.integers(lo, 1000, n).astype(NP[name])
    if name == "bfloat16":
        return rng.integers(0, 1 << 16, n).astype(np.uint16)
    if rng_kind == "positive":
        v = rng.uniform(0.25, 8.0, n)
    elif rng_kind == "small":
        v = rng.uniform(-4.0, 4.0, n)
    elif rng_kind == "nonzero":
        v = rng.uniform(0.5, 8.0, n) * rng.choice([-1.0, 1.0], n)
    else:  # with zeros of both signs, whose signs the bit-exact check sees
        v = rng.uniform(-50.0, 50.0, n)
        v[::9] = 0.0
        v[4::9] = -0.0
    return v.astype(NP[name])


# ---------------------------------------------------------------------------
# kernels: every level-0 parameter is a runtime argument; `bit` selects the
# mask form at runtime, so each op and element type compiles once
# ---------------------------------------------------------------------------

_KERNELS: Dict[str, Any] = {}


def level0_kernel(name: str) -> Any:
    if name in _KERNELS:
        return _KERNELS[name]
    op, _, kind, _, _, _ = OPS[name]

    @asc.jit
    def level0_kernel(buf: asc.GlobalAddress, dtype_of: asc.GlobalAddress, s: int, o0: int, o1: int, o2: int,
                      bit: int, mask: int, a0: int, a1: int, b0: int, b1: int, rep: int, k0: int, k1: int, k2: int,
                      r0: int, r1: int, r2: int):
        n = REGION // dtype_of.dtype.sizeof()
        gm = asc.GlobalTensor()
        gm.set_global_buffer(buf)
        region = asc.LocalTensor(buf.dtype, asc.TPosition.VECCALC, 0, n)
        whole = asc.LocalTensor(dtype_of.dtype, asc.TPosition.VECCALC, 0, n)
        asc.data_copy(region, gm, REGION // buf.dtype.sizeof())
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        d = whole[o0:]
        x = whole[o1:]
        y = whole[o2:]
        m0 = asc.uint64(asc.uint32(a0)) | (asc.uint64(asc.uint32(a1)) << 32)
        m1 = asc.uint64(asc.uint32(b0)) | (asc.uint64(asc.uint32(b1)) << 32)
        if kind == "binary":
            params = asc.BinaryRepeatParams(k0, k1, k2, r0, r1, r2)
            if bit:
                op(d, x, y, [m0, m1], rep, params)
            else:
                op(d, x, y, mask, rep, params)
        elif kind == "scalar":
            uparams = asc.UnaryRepeatParams(k0, k1, r0, r1)
            if bit:
                op(d, x, s, [m0, m1], rep, uparams)
            else:
                op(d, x, s, mask, rep, uparams)
        elif kind == "unary":
            uparams = asc.UnaryRepeatParams(k0, k1, r0, r1)
            if bit:
                op(d, x, [m0, m1], rep, uparams)
            else:
                op(d, x, mask, rep, uparams)
        else:
            if bit:
                op(d, s, [m0, m1], rep, k0, r0)
            else:
                op(d, s, mask, rep, k0, r0)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(gm, region, REGION // buf.dtype.sizeof())

    _KERNELS[name] = level0_kernel
    return level0_kernel


def run_case(name: str, dtype: str, mask: Any, repeat: int, blk: Sequence[int], rep: Sequence[int],
             offs_bytes: Optional[Sequence[int]] = None, seed: int = 0,
             scalar: int = SCALAR) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(result, reference, written) of one level-0 instruction on the UB region."""
    kind = OPS[name][2]
    nops = N_OPERANDS[kind]
    store = np.uint16 if dtype == "bfloat16" else NP[dtype]
    es = np.dtype(store).itemsize
    offs_bytes = list(offs_bytes if offs_bytes is not None else [k * SLOT for k in range(nops)])
    offs = [o // es for o in offs_bytes] + [0] * (3 - nops)
    ub = _data(dtype, REGION // es, OPS[name][4], seed)
    if kind == "duplicate":
        fill = asc_scalar_value(dtype)
        fn = lambda n: np.full(n, fill, store)  # noqa: E731
    elif kind == "scalar":
        f = OPS[name][3]
        fn = lambda a, n: f(a, store(scalar))  # noqa: E731
    else:
        fn = OPS[name][3]
    ref, wrote = ref_level0(ub, fn, offs[:nops], blk, rep, mask, repeat)
    buf = ub.copy()
    bit = isinstance(mask, (list, tuple))
    lo, hi = mask if bit else (0, 0)
    blk3 = list(blk) + [1] * (3 - len(blk))
    rep3 = list(rep) + [8] * (3 - len(rep))
    dtype_of = np.zeros(1, np.uint16 if dtype == "bfloat16" else store)
    args = [buf, dtype_of, scalar, offs[0], offs[1], offs[2], int(bit), 0 if bit else mask,
            _i32(lo), _i32(lo >> 32), _i32(hi), _i32(hi >> 32), repeat] + blk3 + rep3
    if dtype == "bfloat16":
        level0_bf16_kernel(name)[1](*args)
    else:
        level0_kernel(name)[1](*args)
    return buf, ref, wrote


def asc_scalar_value(dtype: str) -> Any:
    if dtype == "bfloat16":
        return np.uint16(0x4040)  # 3.0 in bfloat16
    return NP[dtype](SCALAR)


_BF16: Dict[str, Any] = {}


def level0_bf16_kernel(name: str) -> Any:
    """duplicate on bfloat16: the GM buffer holds the raw bits (uint16)."""
    if name in _BF16:
        return _BF16[name]
    op = OPS[name][0]

    @asc.jit
    def level0_bf16_kernel(buf: asc.GlobalAddress, dtype_of: asc.GlobalAddress, s: int, o0: int, o1: int, o2: int,
                           bit: int, mask: int, a0: int, a1: int, b0: int, b1: int, rep: int, k0: int, k1: int,
                           k2: int, r0: int, r1: int, r2: int):
        n = REGION // 2
        gm = asc.GlobalTensor()
        gm.set_global_buffer(buf)
        region = asc.LocalTensor(buf.dtype, asc.TPosition.VECCALC, 0, n)
        whole = asc.LocalTensor(asc.bfloat16, asc.TPosition.VECCALC, 0, n)
        asc.data_copy(region, gm, n)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        d = whole[o0:]
        m0 = asc.uint64(asc.uint32(a0)) | (asc.uint64(asc.uint32(a1)) << 32)
        m1 = asc.uint64(asc.uint32(b0)) | (asc.uint64(asc.uint32(b1)) << 32)
        if bit:
            op(d, s, [m0, m1], rep, k0, r0)
        else:
            op(d, s, mask, rep, k0, r0)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(gm, region, n)

    _BF16[name] = level0_bf16_kernel
    return level0_bf16_kernel


def check(name: str, dtype: str, got: np.ndarray, ref: np.ndarray, wrote: np.ndarray) -> None:
    approx = OPS[name][5]
    bits = {2: np.uint16, 4: np.uint32}[got.itemsize]
    exact = ~wrote if approx else np.ones(len(got), bool)
    bad = np.nonzero(got.view(bits)[exact] != ref.view(bits)[exact])[0]
    assert len(bad) == 0, (f"{name} {dtype}: {len(bad)} elements differ, first at {np.nonzero(exact)[0][bad[0]]}: "
                           f"got {got[exact][bad[0]]!r}, expected {ref[exact][bad[0]]!r}")
    if approx and wrote.any():
        assert_close_ulp(got[wrote], ref[wrote], 1, 0.9, context=f"{name} {dtype}")


# ---------------------------------------------------------------------------
# cases: (mask, repeat_times, block strides, repeat strides, operand byte offsets)
# for an element type with per_repeat elements per repeat and nops operands
# ---------------------------------------------------------------------------

def cases(per_repeat: int, nops: int) -> List[Tuple[str, Any, int, List[int], List[int], Optional[List[int]]]]:
    ones = [1] * nops
    eights = [8] * nops
    if per_repeat == 128:
        sparse = [0x8000_0000_0000_0001, 0x5555_5555_0000_00F0]
        high = [0, 0xFFFF_0000_0000_0001]
        dense_bits = [0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF]
    else:
        sparse = [0x8000_0001_5555_00F1, 0]
        high = [0xFFFF_0000_0000_0000, 0]
        dense_bits = [0xFFFF_FFFF_FFFF_FFFF, 0]
    return [
        ("mask1", 1, 1, ones, eights, None),
        ("partial", per_repeat // 2 + 3, 3, ones, eights, None),
        ("full", per_repeat, 2, ones, eights, None),
        ("repeat0", per_repeat, 0, ones, eights, None),
        ("mask0", 0, 2, ones, eights, None),
        ("blk2", per_repeat - 5, 3, [2] + [1] * (nops - 1), [16] + [8] * (nops - 1), None),
        ("src_blk2", per_repeat, 2, [1] + [2] * (nops - 1), [8] + [17] * (nops - 1), None),
        ("rep_stride", 7, 5, ones, [12] + [9] * (nops - 1), None),
        ("src_rep0", per_repeat, 3, [1] + [0] * (nops - 1), [8] + [0] * (nops - 1), None),
        ("bits_sparse", sparse, 2, [2] + [1] * (nops - 1), [20] + [8] * (nops - 1), None),
        ("bits_high", high, 3, ones, [9] * nops, None),
        ("bits_dense", dense_bits, 2, ones, eights, None),
        # dst and every source are the same tensor (100% overlap within a repeat)
        ("in_place", per_repeat - 1, 4, ones, eights, [SLOT] * nops),
        ("in_place_bits", sparse, 2, [2] * nops, [16] * nops, [SLOT] * nops),
    ]


PARAMS = [(name, dt) for name, (_, dts, _, _, _, _) in OPS.items() for dt in dts]


@pytest.mark.parametrize("name,dtype", PARAMS, ids=[f"{n}-{d}" for n, d in PARAMS])
def test_level0_against_numpy(name: str, dtype: str) -> None:
    kind = OPS[name][2]
    es = 2 if dtype in ("float16", "bfloat16", "int16", "uint16") else 4
    for i, (label, mask, repeat, blk, rep, offs) in enumerate(cases(256 // es, N_OPERANDS[kind])):
        got, ref, wrote = run_case(name, dtype, mask, repeat, blk, rep, offs, seed=i)
        try:
            check(name, dtype, got, ref, wrote)
        except AssertionError as e:
            raise AssertionError(f"case {label}: {e}") from None
        if label in ("repeat0", "mask0"):
            assert not wrote.any()
        else:
            assert wrote.any()


@pytest.mark.parametrize("name", ["maxs", "mins", "max", "min"])
@pytest.mark.parametrize("dtype", FLT)
def test_level0_max_min_of_signed_zeros(name: str, dtype: str) -> None:
    """Max / Min / Maxs / Mins of +0 and -0 under masks and strides: +0 for max and -0 for min, whichever
    operand holds which (the scalar forms with a +0 scalar against data holding both zeros)."""
    es = np.dtype(NP[dtype]).itemsize
    signs = set()
    for i, (label, mask, repeat, blk, rep, offs) in enumerate(cases(256 // es, N_OPERANDS[OPS[name][2]])):
        got, ref, wrote = run_case(name, dtype, mask, repeat, blk, rep, offs, seed=100 + i, scalar=0)
        try:
            check(name, dtype, got, ref, wrote)
        except AssertionError as e:
            raise AssertionError(f"case {label}: {e}") from None
        signs |= set(np.signbit(got[wrote & (got == 0)]).tolist())
    # zero results of both signs were written; maxs against +0 can only give +0
    assert signs == ({False} if name == "maxs" else {True, False})


@pytest.mark.parametrize("dtype", ["float16", "float32", "int32"])
def test_add_accumulates_when_dst_is_src1_with_repeat_stride_0(dtype: str) -> None:
    # the documented exception to the overlap rule: dst is src1 and both repeat strides are 0,
    # so each repeat adds the next 8 blocks of src0 into the same 8 blocks
    es = np.dtype(NP[dtype]).itemsize
    got, ref, wrote = run_case("add", dtype, 256 // es, 4, [1, 1, 1], [0, 8, 0], [0, SLOT, 0])
    check("add", dtype, got, ref, wrote)
    assert wrote.sum() == 256 // es


# ---------------------------------------------------------------------------
# Ascend C of the level-0 forms (the suite also g++-checks every kernel)
# ---------------------------------------------------------------------------

@asc.jit
def _spelled(x: asc.GlobalAddress):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 1024)
    b = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 2048, 1024)
    asc.duplicate(a, 1.0, 128, 8, 1, 8)
    asc.duplicate(b, 2.0, 128, 8, 1, 8)
    asc.duplicate(b, 2.0, 0, 8, 1, 8)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.add(b, a, b, 128, 8, asc.BinaryRepeatParams())
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.adds(b, b, 2.5, [0x0F0F, 2**64 - 1], 1, asc.UnaryRepeatParams(1, 1, 8, 8))
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.exp(a, b, mask=64, repeat_times=2, repeat_params=asc.UnaryRepeatParams(dst_rep_stride=4))


def test_ascendc_spelling() -> None:
    from asc.runtime import compiler

    got: List[Any] = []
    compiler.compile_listeners.append(got.append)
    try:
        _spelled[1](np.zeros(8, np.float16), always_compile=True)
    finally:
        compiler.compile_listeners.remove(got.append)
    text = got[0].ascendc(line_comments=False)
    assert "AscendC::Duplicate(a, half(1.0f), 128ULL, 8, 1, 8);" in text
    assert "AscendC::Duplicate(b, half(2.0f), static_cast<uint64_t>(0ULL), 8, 1, 8);" in text
    assert "AscendC::Add(b, a, b, 128ULL, 8, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));" in text
    assert "uint64_t mask[2] = {3855ULL, 18446744073709551615ULL};" in text
    assert "AscendC::Adds(b, b, half(2.5f), mask, 1, AscendC::UnaryRepeatParams(1, 1, 8, 8));" in text
    assert "AscendC::Exp(a, b, 64ULL, 2, AscendC::UnaryRepeatParams(1, 1, 4, 8));" in text


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

@asc.jit
def _bad(x: asc.GlobalAddress, case: asc.ConstExpr[str], v: int):
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 1024)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 4096, 1024)
    asc.duplicate(a, 0.0, 64, 16, 1, 8)
    asc.duplicate(h, 0.0, 128, 8, 1, 8)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    p = asc.UnaryRepeatParams()
    if case == "mask_const":
        asc.relu(h, h, -1, 1, p)
    elif case == "mask_runtime":
        asc.relu(a, a, v, 1, p)
    elif case == "mask_len":
        asc.relu(h, h, [1], 1, p)
    elif case == "repeat_const":
        asc.relu(a, a, 64, 256, p)
    elif case == "repeat_runtime":
        asc.relu(a, a, 64, v, p)
    elif case == "stride_const":
        asc.add(a, a, a, 64, 1, asc.BinaryRepeatParams(1, 1, 1, 8, 256, 8))
    elif case == "stride_runtime":
        asc.relu(a, a, 64, 1, asc.UnaryRepeatParams(1, 1, v, 8))
    elif case == "dst_blk0":
        asc.relu(a, a, 64, 1, asc.UnaryRepeatParams(v, 1, 8, 8))
    elif case == "tensor_extent":
        asc.relu(a, a, 64, v, p)  # 1024 float32 = 16 repeats
    elif case == "ub_extent":
        far = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 181 * 1024, 512)  # (2 KiB within the UB)
        asc.duplicate(far, 1.0, 64, v, 1, 8)
    elif case == "misaligned":
        asc.relu(a[v:], a, 64, 1, p)


ERRORS = [
    ("mask_const", 0, asc.CompileError, r"mask = -1 is negative"),
    ("mask_len", 0, asc.CompileError, r"two uint64"),
    ("repeat_const", 0, asc.CompileError, r"repeat_times = 256 is out of range \[0, 255\]"),
    ("repeat_runtime", 256, asc.KernelError, r"repeat_times 256 is out of range \[0, 255\]"),
    ("repeat_runtime", -1, asc.KernelError, r"repeat_times -1 is out of range"),
    ("stride_const", 0, asc.CompileError, r"src0_rep_stride = 256 is out of range \[0, 255\]"),
    ("stride_runtime", 300, asc.KernelError, r"dst repeat stride 300 is out of range \[0, 255\]"),
    ("dst_blk0", 0, asc.KernelError, r"dst block stride 0"),
    ("tensor_extent", 17, asc.KernelError, r"the LocalTensor has only 1024"),
    ("ub_extent", 10, asc.KernelError, r"dst: 640 elements requested but the LocalTensor has only 512"),
    ("misaligned", 3, asc.KernelError, r"not 32-byte aligned"),
]


@pytest.mark.parametrize("case,v,cls,match", ERRORS, ids=[f"{c[0]}-{c[1]}" for c in ERRORS])
def test_level0_errors(case: str, v: int, cls: type, match: str) -> None:
    with pytest.raises(cls, match=match):
        _bad[1](np.zeros(8, np.float32), case, v)


def test_level0_in_range_runtime_values_run() -> None:
    _bad[1](np.zeros(8, np.float32), "tensor_extent", 16)
    _bad[1](np.zeros(8, np.float32), "mask_runtime", 64)
    _bad[1](np.zeros(8, np.float32), "repeat_runtime", 255 // 16)

