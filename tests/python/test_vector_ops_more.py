"""More vector instructions on the simulator against NumPy references:
add_relu sub_relu bitwise_and bitwise_or bitwise_not (binary / unary),
leaky_relu shift_left shift_right (tensor-scalar), fused_mul_add
fused_mul_add_relu mul_add_dst axpy (multiply-add: they read dst).

Each runs in every element type the devkit lists for the Ascend910B, in
the count form on odd lengths with edge values, and in the level-0 form
(partial continuous masks, a bit mask, block and repeat strides) against a
NumPy model of the level-0 semantics (tests/python/test_vector_level0.py
has the model's rules). Results are bit-exact (any NaN equals any NaN):
every op here is one correctly rounded operation, the multiply-adds
rounded once from the exact a * b + c.

Semantics checked (docs/api.md): relu sends -0.0 to +0.0 and lets NaN
through; int16 add_relu/sub_relu relu the wrapped sum; leaky_relu
multiplies every source whose sign bit is set, -0.0 too (the devkit's
boundary value table 19); signed shift_left keeps the sign bit and drops the one
below it; signed shift_right is arithmetic; the shift amount lies in
[0, bits].
"""

import zlib
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np
import pytest
from kernels_util import (
    all_pairs,
    ascendc,
    assert_bits_equal,
    binary_kernel,
    fails_at,
    padded,
    padded_copy,
    run_binary,
    run_scalar,
    run_unary,
    scalar_kernel,
    specials,
    with_specials,
)

import asc

LENGTHS = (1, 7, 37, 130)
RELU2 = ("float16", "float32", "int16")
BITS = ("int16", "uint16")
FLT = ("float16", "float32")
SHIFT = ("int16", "uint16", "int32", "uint32")
NP = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "int32": np.int32, "uint16": np.uint16,
      "uint32": np.uint32}


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def values(dtype: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if dtype in ("uint16", "uint32"):
        info = np.iinfo(NP[dtype])
        v = rng.integers(0, int(info.max), n, dtype=NP[dtype], endpoint=True)
        v[: min(n, 3)] = np.array([0, 1, info.max], NP[dtype])[: min(n, 3)]
        return v
    return with_specials(dtype, n, rng)


# ---------------------------------------------------------------------------
# references
# ---------------------------------------------------------------------------

def relu_ref(v: np.ndarray) -> np.ndarray:
    """relu of exact (float64) or integer values: NaN passes, -0.0 and negatives give +0."""
    if v.dtype.kind == "f":
        return np.where((v > 0) | np.isnan(v), v, 0.0)
    return np.where(v < 0, 0, v).astype(v.dtype)


def f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a).astype(np.float64)


def ref_binary(name: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        if name == "bitwise_and":
            return a & b
        if name == "bitwise_or":
            return a | b
        if a.dtype.kind == "f":  # the sum rounded once, then relu (relu commutes with rounding)
            r = f64(a) + f64(b) if name == "add_relu" else f64(a) - f64(b)
            return relu_ref(r.astype(a.dtype).astype(np.float64)).astype(a.dtype)
        r = (a + b) if name == "add_relu" else (a - b)  # int16 wraps
        return relu_ref(r.astype(a.dtype))


def scalar_of(dtype: str, s: Any) -> Any:
    """The scalar as Ascend C's `const T&` of the element type sees it."""
    return NP[dtype](s)


def ref_scalar(name: str, a: np.ndarray, s: Any) -> np.ndarray:
    if name == "leaky_relu":
        alpha = f64(scalar_of(a.dtype.name, s))
        with np.errstate(all="ignore"):
            return np.where(~np.signbit(a), a, (f64(a) * alpha).astype(a.dtype))
    bits = a.dtype.itemsize * 8
    k = int(s)
    signed = a.dtype.kind == "i"
    u = a.astype(np.int64) & ((1 << bits) - 1)  # the bits, as non-negative int64
    if name == "shift_left":
        if signed:
            sign = u & (1 << (bits - 1))
            r = sign | ((u << k) & ((1 << (bits - 1)) - 1))
        else:
            r = (u << k) & ((1 << bits) - 1)
        return r.astype(np.uint64).astype({16: np.uint16, 32: np.uint32}[bits]).view(a.dtype)
    if signed:
        return (a.astype(np.int64) >> k).astype(a.dtype)
    return (u >> k).astype(a.dtype)


def ref_ternary(name: str, c: np.ndarray, a: np.ndarray, b: Any) -> np.ndarray:
    """c is dst's value, a src0 (src), b src1 (or axpy's scalar, already of src's type); the exact
    result rounded once to dst's type (float64 holds a * b + c exactly for these operands, up to a
    last-bit double rounding for float32 that random data does not meet)."""
    with np.errstate(all="ignore"):
        if name == "fused_mul_add":
            r = f64(a) * f64(c) + f64(b)
        elif name == "fused_mul_add_relu":
            r = relu_ref(f64(a) * f64(c) + f64(b))
        else:
            r = f64(a) * f64(b) + f64(c)
        return r.astype(c.dtype)


def ref_not(a: np.ndarray) -> np.ndarray:
    return ~a


# ---------------------------------------------------------------------------
# count forms
# ---------------------------------------------------------------------------

BINARY: Dict[str, Tuple[Callable[..., None], Tuple[str, ...]]] = {
    "add_relu": (asc.add_relu, RELU2), "sub_relu": (asc.sub_relu, RELU2),
    "bitwise_and": (asc.bitwise_and, BITS), "bitwise_or": (asc.bitwise_or, BITS),
}
BINARY_CASES = [(n, d) for n, (_, dts) in BINARY.items() for d in dts]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name,dtype", BINARY_CASES)
def test_binary(name: str, dtype: str, n: int) -> None:
    rng = rng_for(name, dtype, n)
    a, b = values(dtype, n, rng), values(dtype, n, rng)
    assert_bits_equal(run_binary(BINARY[name][0], a, b), ref_binary(name, a, b), context=f"{name} {dtype} n={n}")


@pytest.mark.parametrize("name,dtype", [c for c in BINARY_CASES if c[1] != "uint16"])
def test_binary_edge_pairs(name: str, dtype: str) -> None:
    a, b = all_pairs(specials(dtype))
    assert_bits_equal(run_binary(BINARY[name][0], a, b), ref_binary(name, a, b), context=f"{name} {dtype}")


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", BITS)
def test_bitwise_not(dtype: str, n: int) -> None:
    a = values(dtype, n, rng_for("not", dtype, n))
    assert_bits_equal(run_unary(asc.bitwise_not, a), ~a, context=f"bitwise_not {dtype}")


def _h(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint16).view(np.float16)


def test_relu_family_signed_zeros_and_nan() -> None:
    a = _h(0x8000, 0x8000, 0x0000, 0x7E00, 0x8001, 0x3C00)  # -0, -0, +0, NaN, -2^-24, 1
    b = _h(0x8000, 0x0000, 0x8000, 0x3C00, 0x0000, 0x3C00)  # -0, +0, -0, 1, +0, 1
    got = run_binary(asc.add_relu, a, b).view(np.uint16)
    assert list(got[:3]) == [0, 0, 0] and got[4] == 0  # +0.0 every time
    assert (got[3] & 0x7C00) == 0x7C00 and (got[3] & 0x3FF)  # NaN passes
    assert got[5] == 0x4000
    got = run_binary(asc.sub_relu, a, b).view(np.uint16)
    assert list(got[:3]) == [0, 0, 0] and got[5] == 0  # 1 - 1 = +0
    lr = run_scalar(asc.leaky_relu, a, 0.5).view(np.uint16)
    assert lr[0] == 0x8000 and lr[2] == 0  # -0.0 * 0.5 = -0.0
    assert lr[4] == 0x8000  # -2^-24 * 0.5 rounds to -0.0
    # -0.0 takes the product (the devkit's boundary value table 19): -0.0 * -2 = +0.0, -0.0 * nan = nan; +0.0 is
    # kept whatever the scalar
    lr = run_scalar(asc.leaky_relu, a, -2.0).view(np.uint16)
    assert lr[0] == 0 and lr[2] == 0
    lr = run_scalar(asc.leaky_relu, a, float("nan")).view(np.uint16)
    assert (lr[0] & 0x7C00) == 0x7C00 and (lr[0] & 0x3FF) and lr[2] == 0


# (op, a, b, expected) in half bits
F16_ROUNDING = [
    ("add_relu", 0x6800, 0x3C00, 0x6800),  # 2048 + 1: tie, to even
    ("add_relu", 0x6801, 0x3C00, 0x6802),  # 2050 + 1: tie, to even 2052
    ("add_relu", 0x7BFF, 0x4C00, 0x7C00),  # 65504 + 16 = inf
    ("sub_relu", 0x6800, 0xBC00, 0x6800),  # 2048 - -1: tie, to even
    ("sub_relu", 0x3C00, 0x3C01, 0x0000),  # negative: +0
]


@pytest.mark.parametrize("name,a,b,want", F16_ROUNDING)
def test_f16_rounding(name: str, a: int, b: int, want: int) -> None:
    got = run_binary(BINARY[name][0], _h(a), _h(b))
    assert int(got.view(np.uint16)[0]) == want, hex(int(got.view(np.uint16)[0]))


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("alpha", [0.5, 0.1, -2.0])
@pytest.mark.parametrize("dtype", FLT)
def test_leaky_relu(dtype: str, alpha: float, n: int) -> None:
    a = values(dtype, n, rng_for("lrelu", dtype, n))
    assert_bits_equal(run_scalar(asc.leaky_relu, a, alpha), ref_scalar("leaky_relu", a, alpha),
                      context=f"leaky_relu {dtype} {alpha}")


@pytest.mark.parametrize("dtype", SHIFT)
@pytest.mark.parametrize("name", ["shift_left", "shift_right"])
def test_shift(name: str, dtype: str) -> None:
    bits = np.dtype(NP[dtype]).itemsize * 8
    op = getattr(asc, name)
    a = values(dtype, 37, rng_for(name, dtype))
    for k in (0, 1, 3, bits - 1, bits):
        assert_bits_equal(run_scalar(op, a, k), ref_scalar(name, a, k), context=f"{name} {dtype} by {k}")


def test_shift_examples_of_the_devkit() -> None:
    a = np.array([0b1010101010101010], np.uint16)
    assert run_scalar(asc.shift_left, a, 1)[0] == 0b0101010101010100
    assert run_scalar(asc.shift_right, a, 1)[0] == 0b0101010101010101
    s = a.view(np.int16)
    assert run_scalar(asc.shift_left, s, 1).view(np.uint16)[0] == 0b1101010101010100
    assert run_scalar(asc.shift_left, s, 3).view(np.uint16)[0] == 0b1101010101010000
    assert run_scalar(asc.shift_right, s, 1).view(np.uint16)[0] == 0b1101010101010101
    assert run_scalar(asc.shift_right, s, 3).view(np.uint16)[0] == 0b1111010101010101


@pytest.mark.parametrize("k", [-1, 17])
def test_shift_amount_out_of_range_at_runtime(k: int) -> None:
    with pytest.raises(asc.KernelError, match=rf"the scalar {k} is out of range \[0, 16\] for int16"):
        run_scalar(asc.shift_right, np.arange(16, dtype=np.int16), k)


def run_ternary(op: Callable[..., None], c: np.ndarray, a: np.ndarray, b: Any, scalar: bool = False) -> np.ndarray:
    """dst (initially c) after op(dst, a, b, n); dst's elements past n keep their value."""
    n = len(a)
    npad = padded(n, 2)  # whole blocks of the narrower and the wider operand
    rng = rng_for("pad", n)
    x = padded_copy(a, npad, rng)
    z = padded_copy(c, npad)
    before = z.copy()
    if scalar:
        scalar_kernel(op)[1](x, z, b, n, npad)
    else:
        binary_kernel(op)[1](x, padded_copy(b, npad, rng), z, n, npad)
    assert_bits_equal(z[n:], before[n:], context="tail")
    return z[:n]


TERNARY: Dict[str, Tuple[Callable[..., None], List[Tuple[str, str]]]] = {
    "fused_mul_add": (asc.fused_mul_add, [("float16", "float16"), ("float32", "float32")]),
    "fused_mul_add_relu": (asc.fused_mul_add_relu, [("float16", "float16"), ("float32", "float32")]),
    "mul_add_dst": (asc.mul_add_dst, [("float16", "float16"), ("float32", "float32"), ("float32", "float16")]),
    "axpy": (asc.axpy, [("float16", "float16"), ("float32", "float32"), ("float32", "float16")]),
}
TERNARY_CASES = [(n, d, s) for n, (_, pairs) in TERNARY.items() for d, s in pairs]


def ternary_inputs(dst: str, src: str, n: int, rng: np.random.Generator) -> Tuple[np.ndarray, ...]:
    return values(dst, n, rng), values(src, n, rng), values(src, n, rng)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("name,dst,src", TERNARY_CASES)
def test_ternary(name: str, dst: str, src: str, n: int) -> None:
    c, a, b = ternary_inputs(dst, src, n, rng_for(name, dst, src, n))
    if name == "axpy":
        alpha = 0.1
        got = run_ternary(asc.axpy, c, a, alpha, scalar=True)
        want = ref_ternary(name, c, a, scalar_of(src, alpha))
    else:
        got = run_ternary(TERNARY[name][0], c, a, b)
        want = ref_ternary(name, c, a, b)
    assert_bits_equal(got, want, context=f"{name} dst {dst} src {src} n={n}")


def test_ternary_edge_triples() -> None:
    sp = specials("float16")
    a, c = all_pairs(sp)
    b = np.resize(sp, len(a))[::-1].copy()
    for name in ("fused_mul_add", "fused_mul_add_relu", "mul_add_dst"):
        got = run_ternary(TERNARY[name][0], c, a, b)
        assert_bits_equal(got, ref_ternary(name, c, a, b), context=name)


def test_fused_mul_add_rounds_once() -> None:
    # (1 + 2^-10) * (1 - 2^-11) + 9 * 2^-24 = 1 + 2^-11 + 2^-24: just above the tie between 1 and
    # 1 + 2^-10, so it rounds up; rounding the product-sum to float first would make it a tie (to 1)
    got = run_ternary(asc.fused_mul_add, _h(0x3BFF), _h(0x3C01), _h(0x0009))
    assert int(got.view(np.uint16)[0]) == 0x3C01
    got = run_ternary(asc.mul_add_dst, _h(0x0009), _h(0x3C01), _h(0x3BFF))
    assert int(got.view(np.uint16)[0]) == 0x3C01


def test_multiply_add_signed_zeros() -> None:
    one, nz, pz = 0x3C00, 0x8000, 0x0000
    # src0 * dst + src1 with dst = -0, src0 = 1, src1 = -0: -0 + -0 = -0; relu gives +0
    assert run_ternary(asc.fused_mul_add, _h(nz), _h(one), _h(nz)).view(np.uint16)[0] == nz
    assert run_ternary(asc.fused_mul_add, _h(nz), _h(one), _h(pz)).view(np.uint16)[0] == pz
    assert run_ternary(asc.fused_mul_add_relu, _h(nz), _h(one), _h(nz)).view(np.uint16)[0] == pz
    # src0 * src1 + dst: 1 * -0 + -0 = -0
    assert run_ternary(asc.mul_add_dst, _h(nz), _h(one), _h(nz)).view(np.uint16)[0] == nz


# ---------------------------------------------------------------------------
# level-0 forms: a NumPy model on one UB region holding every operand
# ---------------------------------------------------------------------------

REGION = 12288
SLOT = 4096

# name -> (asc function, kind, dtype pairs (dst, src), reference fn(c, *srcs, scalar))
L0_OPS: Dict[str, Tuple[Callable[..., None], str, List[Tuple[str, str]], Callable[..., np.ndarray]]] = {
    "add_relu": (asc.add_relu, "binary", [(d, d) for d in RELU2], lambda c, a, b, s: ref_binary("add_relu", a, b)),
    "sub_relu": (asc.sub_relu, "binary", [(d, d) for d in RELU2], lambda c, a, b, s: ref_binary("sub_relu", a, b)),
    "bitwise_and": (asc.bitwise_and, "binary", [(d, d) for d in BITS], lambda c, a, b, s: a & b),
    "bitwise_or": (asc.bitwise_or, "binary", [(d, d) for d in BITS], lambda c, a, b, s: a | b),
    "bitwise_not": (asc.bitwise_not, "unary", [(d, d) for d in BITS], lambda c, a, s: ~a),
    "leaky_relu": (asc.leaky_relu, "scalar", [(d, d) for d in FLT], lambda c, a, s: ref_scalar("leaky_relu", a, s)),
    "shift_left": (asc.shift_left, "scalar", [(d, d) for d in SHIFT], lambda c, a, s: ref_scalar("shift_left", a, s)),
    "shift_right": (asc.shift_right, "scalar", [(d, d) for d in SHIFT],
                    lambda c, a, s: ref_scalar("shift_right", a, s)),
    "fused_mul_add": (asc.fused_mul_add, "binary", [(d, d) for d in FLT],
                      lambda c, a, b, s: ref_ternary("fused_mul_add", c, a, b)),
    "fused_mul_add_relu": (asc.fused_mul_add_relu, "binary", [(d, d) for d in FLT],
                           lambda c, a, b, s: ref_ternary("fused_mul_add_relu", c, a, b)),
    "mul_add_dst": (asc.mul_add_dst, "binary", TERNARY["mul_add_dst"][1],
                    lambda c, a, b, s: ref_ternary("mul_add_dst", c, a, b)),
    "axpy": (asc.axpy, "scalar", TERNARY["axpy"][1], lambda c, a, s: ref_ternary("axpy", c, a, scalar_of(a.dtype.name, s))),
}
N_OPS = {"binary": 3, "scalar": 2, "unary": 2}

_L0_KERNELS: Dict[str, Any] = {}


def l0_kernel(name: str) -> Any:
    if name in _L0_KERNELS:
        return _L0_KERNELS[name]
    op, kind, _, _ = L0_OPS[name]

    @asc.jit
    def l0_kernel(buf: asc.GlobalAddress, s, o0: int, o1: int, o2: int, bit: int, mask: int,  # noqa: ANN001
                  lo: int, rep: int, k0: int, k1: int, k2: int, r0: int, r1: int, r2: int,
                  dt_dst: asc.ConstExpr[asc.DataType], dt_src: asc.ConstExpr[asc.DataType]):
        gm = asc.GlobalTensor()
        gm.set_global_buffer(buf)
        region = asc.LocalTensor(buf.dtype, asc.TPosition.VECCALC, 0, REGION // buf.dtype.sizeof())
        dview = asc.LocalTensor(dt_dst, asc.TPosition.VECCALC, 0, REGION // dt_dst.sizeof())
        sview = asc.LocalTensor(dt_src, asc.TPosition.VECCALC, 0, REGION // dt_src.sizeof())
        asc.data_copy(region, gm, REGION // buf.dtype.sizeof())
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        d = dview[o0:]
        x = sview[o1:]
        y = sview[o2:]
        m0 = asc.uint64(asc.uint32(lo))
        if kind == "binary":
            params = asc.BinaryRepeatParams(k0, k1, k2, r0, r1, r2)
            if bit:
                op(d, x, y, [m0, 0], rep, params)
            else:
                op(d, x, y, mask, rep, params)
        elif kind == "scalar":
            uparams = asc.UnaryRepeatParams(k0, k1, r0, r1)
            if bit:
                op(d, x, s, [m0, 0], rep, uparams)
            else:
                op(d, x, s, mask, rep, uparams)
        else:
            uparams = asc.UnaryRepeatParams(k0, k1, r0, r1)
            if bit:
                op(d, x, [m0, 0], rep, uparams)
            else:
                op(d, x, mask, rep, uparams)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(gm, region, REGION // buf.dtype.sizeof())

    _L0_KERNELS[name] = l0_kernel
    return l0_kernel


def l0_model(region: np.ndarray, name: str, dst: str, src: str, s: Any, offs: Sequence[int], blk: Sequence[int],
             rep: Sequence[int], idx: Sequence[int], repeat: int) -> np.ndarray:
    """The region (bytes) after the instruction: element i of a repeat of operand k lies at byte
    offs[k] + (r * rep[k] + (i * es) // 32 * blk[k]) * 32 + (i * es) % 32; sources and dst are read
    before the repeat writes."""
    kind = L0_OPS[name][1]
    fn = L0_OPS[name][3]
    out = region.copy()
    dts = [np.dtype(NP[dst])] + [np.dtype(NP[src])] * (N_OPS[kind] - 1)
    for r in range(repeat):
        pos = [[offs[k] + (r * rep[k] + (i * dts[k].itemsize) // 32 * blk[k]) * 32 + (i * dts[k].itemsize) % 32
                for i in idx] for k in range(len(dts))]
        vals = [np.array([out[p:p + dts[k].itemsize].view(dts[k])[0] for p in pos[k]], dts[k])
                for k in range(len(dts))]
        with np.errstate(all="ignore"):
            res = np.asarray(fn(vals[0], *vals[1:], s)).astype(dts[0])
        for p, v in zip(pos[0], res):
            out[p:p + dts[0].itemsize] = np.frombuffer(v.tobytes(), np.uint8)
    return out


def l0_region(dst: str, src: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.zeros(REGION, np.uint8)
    for k, dt in enumerate((dst, src, src)):
        n = SLOT // np.dtype(NP[dt]).itemsize
        if dt in FLT:
            v = rng.uniform(-50, 50, n).astype(NP[dt])
            v[:4] = np.array([0.0, -0.0, np.nan, -1e-6], NP[dt])
        else:
            info = np.iinfo(NP[dt])
            v = rng.integers(int(info.min), int(info.max), n, dtype=NP[dt], endpoint=True)
        out[k * SLOT:(k + 1) * SLOT] = v.view(np.uint8)
    return out


L0_CASES = [(n, d, s) for n, (_, _, pairs, _) in L0_OPS.items() for d, s in pairs]


@pytest.mark.parametrize("name,dst,src", L0_CASES, ids=[f"{n}-{d}-{s}" for n, d, s in L0_CASES])
def test_level0(name: str, dst: str, src: str) -> None:
    kind = L0_OPS[name][1]
    nops = N_OPS[kind]
    per_repeat = 256 // max(np.dtype(NP[dst]).itemsize, np.dtype(NP[src]).itemsize)
    scalar = 3 if name.startswith("shift") else 0.25
    # (label, mask (an int: continuous; a list: bit mode, mask[0] only), repeat, block strides, repeat strides)
    cases: List[Tuple[str, Any, int, List[int], List[int]]] = [
        ("partial", per_repeat // 2 + 3, 3, [1] * 3, [8] * 3),
        ("strided", per_repeat - 5, 2, [2, 1, 3], [20, 9, 4]),
        ("one", 1, 4, [1] * 3, [1] * 3),
        ("full", per_repeat, 2, [1] * 3, [8] * 3),
        ("repeat0", per_repeat, 0, [1] * 3, [8] * 3),
        ("bits", [0x5555_00F1], 2, [1, 2, 1], [12, 8, 16]),  # (the kernel takes mask[0]'s low 32 bits)
    ]
    for i, (label, mask, repeat, blk, rep) in enumerate(cases):
        blk, rep = blk[:nops], rep[:nops]
        region = l0_region(dst, src, i)
        es = [np.dtype(NP[dst]).itemsize] + [np.dtype(NP[src]).itemsize] * 2
        offs = [k * SLOT for k in range(3)]
        bit = isinstance(mask, list)
        idx = [j for j in range(per_repeat) if j < 64 and (mask[0] >> j) & 1] if bit else list(range(mask))
        want = l0_model(region, name, dst, src, scalar, offs, blk, rep, idx, repeat)
        buf = region.view(np.uint16).copy()
        lo = mask[0] if bit else 0
        lo = lo - (1 << 32) if lo >= 1 << 31 else lo
        blk3 = list(blk) + [1] * (3 - nops)
        rep3 = list(rep) + [8] * (3 - nops)
        l0_kernel(name)[1](buf, scalar, offs[0] // es[0], offs[1] // es[1], offs[2] // es[2], int(bit),
                           0 if bit else mask, lo, repeat, *blk3, *rep3, asc_dtype(dst), asc_dtype(src))
        got = buf.view(np.uint8)
        fmt = dst if dst in FLT else None
        if fmt is None:
            assert (got == want).all(), f"{name} {label}: differs at bytes {np.flatnonzero(got != want)[:8]}"
        else:
            g, w = got.view(NP[dst]), want.view(NP[dst])
            assert_bits_equal(g, w, context=f"{name} {dst}/{src} {label}")
        if label == "repeat0":
            assert (got == region).all()


def asc_dtype(name: str) -> asc.DataType:
    return getattr(asc, name)


# ---------------------------------------------------------------------------
# misuse: element types outside the devkit's lists, shift amounts
# ---------------------------------------------------------------------------

@asc.jit
def _bad_dtype(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 256, 64)
    i = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 512, 64)
    w = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 768, 64)
    if case == "and_f32":
        asc.bitwise_and(f, f, f, 64)  # <- and_f32
    elif case == "or_l0_i32":
        asc.bitwise_or(w, w, w, 64, 1, asc.BinaryRepeatParams())  # <- or_l0_i32
    elif case == "not_f16":
        asc.bitwise_not(h, h, 64)  # <- not_f16
    elif case == "add_relu_i32":
        asc.add_relu(w, w, w, 64)  # <- add_relu_i32
    elif case == "sub_relu_l0_i32":
        asc.sub_relu(w, w, w, 64, 1, asc.BinaryRepeatParams())  # <- sub_relu_l0_i32
    elif case == "leaky_i16":
        asc.leaky_relu(i, i, 2, 64)  # <- leaky_i16
    elif case == "shl_f32":
        asc.shift_left(f, f, 1.0, 64)  # <- shl_f32
    elif case == "shr_const":
        asc.shift_right(i, i, 17, 64)  # <- shr_const
    elif case == "shl_l0_const":
        asc.shift_left(w, w, 33, 64, 1, asc.UnaryRepeatParams())  # <- shl_l0_const
    elif case == "fma_i16":
        asc.fused_mul_add(i, i, i, 64)  # <- fma_i16
    elif case == "fmar_l0_i16":
        asc.fused_mul_add_relu(i, i, i, 64, 1, asc.BinaryRepeatParams())  # <- fmar_l0_i16
    elif case == "mla_h_f":
        asc.mul_add_dst(h, f, f, 64)  # <- mla_h_f
    elif case == "mla_mixed_src":
        asc.mul_add_dst(f, h, f, 64)  # <- mla_mixed_src
    elif case == "axpy_i16":
        asc.axpy(i, i, 2, 64)  # <- axpy_i16
    elif case == "axpy_l0_h_f":
        asc.axpy(h, f, 2.0, 64, 1, asc.UnaryRepeatParams())  # <- axpy_l0_h_f


BAD = [
    ("and_f32", "asc.bitwise_and does not support element type float32"),
    ("or_l0_i32", "asc.bitwise_or (level-0 form) does not support element type int32"),
    ("not_f16", "asc.bitwise_not does not support element type float16"),
    ("add_relu_i32", "asc.add_relu does not support element type int32"),
    ("sub_relu_l0_i32", "asc.sub_relu (level-0 form) does not support element type int32"),
    ("leaky_i16", "asc.leaky_relu does not support element type int16"),
    ("shl_f32", "asc.shift_left does not support element type float32"),
    ("shr_const", "shift amount 17 is out of range [0, 16] for int16"),
    ("shl_l0_const", "shift amount 33 is out of range [0, 32] for int32"),
    ("fma_i16", "asc.fused_mul_add does not support element type int16"),
    ("fmar_l0_i16", "asc.fused_mul_add_relu (level-0 form) does not support element type int16"),
    ("mla_h_f", "asc.mul_add_dst does not support a float16 dst with float32 sources"),
    ("mla_mixed_src", "src0 and src1 must have one element type, got float16 and float32"),
    ("axpy_i16", "asc.axpy does not support element type int16"),
    ("axpy_l0_h_f", "asc.axpy (level-0 form) does not support a float16 dst with float32 sources"),
]


@pytest.mark.parametrize("case,fragment", BAD, ids=[c for c, _ in BAD])
def test_unsupported_is_a_compile_error_at_its_line(case: str, fragment: str) -> None:
    fails_at(_bad_dtype, (np.zeros(8, np.float32), case), f"# <- {case}", fragment, cls=asc.CompileError)


# ---------------------------------------------------------------------------
# Ascend C (the suite also compiles every kernel against tests/ascendc/kernel_operator.h)
# ---------------------------------------------------------------------------

@asc.jit
def _every_op(x: asc.GlobalAddress, s: int):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 1024, 256)
    g = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 2048, 256)
    i = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 3072, 256)
    u = asc.LocalTensor(asc.uint32, asc.TPosition.VECCALC, 4096, 256)
    bp = asc.BinaryRepeatParams()
    up = asc.UnaryRepeatParams()
    asc.duplicate(f, 1.0, 256)
    asc.duplicate(h, 2.0, 256)
    asc.duplicate(g, 3.0, 256)
    asc.duplicate(i, 5, 256)
    asc.duplicate(u, 7, 256)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.add_relu(h, h, g, 128)
    asc.sub_relu(i, i, i, 64, 1, bp)
    asc.bitwise_and(i, i, i, 128)
    asc.bitwise_or(i, i, i, [0xFF, 0], 1, bp)
    asc.bitwise_not(i, i, 128)
    asc.bitwise_not(i, i, 128, 1, up)
    asc.leaky_relu(h, h, 0.5, 128)
    asc.leaky_relu(f, f, 0.5, 64, 2, up)
    asc.shift_left(u, u, 3, 64)
    asc.shift_right(i, i, s, 128, 1, up)
    asc.shift_right(u, u, 2, 64)
    asc.fused_mul_add(h, g, g, 128)
    asc.fused_mul_add(f, f, f, 64, 2, bp)
    asc.fused_mul_add_relu(h, g, g, 128)
    asc.fused_mul_add_relu(h, g, g, 128, 1, bp)
    asc.mul_add_dst(f, h, g, 64)
    asc.mul_add_dst(h, h, g, 128, 1, bp)
    asc.mul_add_dst(f, h, g, 64, 1, asc.BinaryRepeatParams(1, 1, 1, 8, 4, 4))
    asc.axpy(f, h, 0.25, 64)
    asc.axpy(h, g, 0.25, 128)
    asc.axpy(f, h, 0.25, [0xFFFF, 0], 1, asc.UnaryRepeatParams(1, 1, 8, 4))


def test_ascendc_spelling() -> None:
    _every_op[1](np.zeros(8, np.float32), 1)
    text = ascendc(_every_op)
    for line in [
        "AscendC::AddRelu(h, h, g, 128);",
        "AscendC::SubRelu(i, i, i, 64ULL, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));",
        "AscendC::And(i, i, i, 128);",
        "AscendC::Or(i, i, i, mask, 1, AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 8));",
        "AscendC::Not(i, i, 128);",
        "AscendC::LeakyRelu(h, h, half(0.5f), 128);",
        "AscendC::ShiftLeft(u, u, 3U, 64);",
        "AscendC::ShiftRight(i, i, static_cast<int16_t>(s), 128ULL, 1, AscendC::UnaryRepeatParams(1, 1, 8, 8));",
        "AscendC::FusedMulAdd(h, g, g, 128);",
        "AscendC::MulAddRelu(h, g, g, 128);",
        "AscendC::MulAddDst(f, h, g, 64);",
        "AscendC::Axpy(f, h, half(0.25f), 64);",
        "AscendC::Axpy(f, h, half(0.25f), mask_1, 1, AscendC::UnaryRepeatParams(1, 1, 8, 4));",
    ]:
        assert line in text, f"{line}\n{text}"


@asc.jit
def _not_set_mask(x: asc.GlobalAddress):
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 256)
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 1024, 256)
    asc.duplicate(f, 1.0, 256)
    asc.duplicate(h, 2.0, 256)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    asc.set_vector_mask(0, 0xFF, dtype=asc.float32)
    asc.mul_add_dst(f, h, h, 64, 1, asc.BinaryRepeatParams(1, 1, 1, 8, 4, 4), False)
    asc.axpy(f, h, 0.5, 64, 1, asc.UnaryRepeatParams(1, 1, 8, 4), False)
    asc.fused_mul_add(f, f, f, 64, 1, asc.BinaryRepeatParams(), False)
    asc.reset_mask()
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(x_gm, f, 64)


def test_mixed_types_with_the_mask_register() -> None:
    """is_set_mask=False: the two-type templates name both types (MulAddDst<T, U, false>); the mask
    register's 8 bits select dst elements 0-7 of the float32 repeat."""
    x = np.zeros(64, np.float32)
    _not_set_mask[1](x)
    text = ascendc(_not_set_mask)
    assert "AscendC::MulAddDst<float, half, false>(f, h, h, 64ULL, 1," in text
    assert "AscendC::Axpy<float, half, false>(f, h, half(0.5f), 64ULL, 1," in text
    assert "AscendC::FusedMulAdd<float, false>(f, f, f, 64ULL, 1," in text
    # f = 1 + 2 * 2 = 5, then + 2 * 0.5 = 6, then 6 * 6 + 6 = 42 on elements 0-7; the others stay 1
    want = np.ones(64, np.float32)
    want[:8] = 42.0
    assert_bits_equal(x, want)


@asc.jit
def _dst_unwritten(x: asc.GlobalAddress, level0: asc.ConstExpr[bool]):
    d = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 256, 64)
    asc.duplicate(a, 1.0, 64)
    asc.pipe_barrier(asc.PipeID.PIPE_V)
    if level0:
        asc.fused_mul_add(d, a, a, 64, 1, asc.BinaryRepeatParams())  # <- l0
    else:
        asc.mul_add_dst(d, a, a, 64)  # <- count


@pytest.mark.parametrize("level0,marker", [(False, "count"), (True, "l0")])
def test_multiply_add_reads_dst(level0: bool, marker: str) -> None:
    """dst is an input of the multiply-adds: reading it unwritten is the sanitizer's finding."""
    fails_at(_dst_unwritten, (np.zeros(8, np.float32), level0), f"# <- {marker}", "uninitialised read",
             "UB bytes [0, 256)", cls=asc.SanitizerError)
