"""Vector mask control: the bit-mask form of the level-0 instructions, the
mask register (set_vector_mask, set_mask_count, set_mask_norm,
reset_mask) and is_set_mask=False, against a NumPy model of the devkit's
rules (SIMD计算说明/掩码.md, kernel_utils_base.h SetMask):

- normal mode: bit i of (mask_low, mask_high) selects element i of every
  repeat; a 32-bit type has 64 elements a repeat and ignores mask_high;
- a continuous mask of len elements sets the len lowest bits; more than a
  repeat holds acts as the whole repeat;
- counter mode: mask_low counts the elements of the instruction, over as
  many repeats as they need; repeat_times is not used;
- a count (level-2) instruction leaves the register all ones, normal mode.
"""

from typing import Any, List, Tuple

import numpy as np
import pytest
from kernels_util import fails_at

import asc

N = 512  # elements of each tensor
TYPES = ("float16", "float32", "int16", "int32")
NP = {"float16": np.float16, "float32": np.float32, "int16": np.int16, "int32": np.int32}
ALL = 2**64 - 1


def _i32(x: int) -> int:
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


@asc.jit
def _mask_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, op: asc.ConstExpr[str],
                 setup: asc.ConstExpr[str], bits: asc.ConstExpr[bool], sm: asc.ConstExpr[bool],
                 a0: int, a1: int, b0: int, b1: int, cnt: int, rep: int):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg = asc.GlobalTensor()
    yg.set_global_buffer(y)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, N)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 4096, N)
    d = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, N)
    junk = asc.LocalTensor(x.dtype, asc.TPosition.VECCALC, 12288, N)
    asc.data_copy(a, xg, N)
    asc.data_copy(b, yg, N)
    asc.data_copy(d, zg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    lo = asc.uint64(asc.uint32(a0)) | (asc.uint64(asc.uint32(a1)) << 32)
    hi = asc.uint64(asc.uint32(b0)) | (asc.uint64(asc.uint32(b1)) << 32)
    if setup == "reg_bits":
        asc.set_vector_mask(hi, lo, dtype=x.dtype, mode=asc.MaskMode.NORMAL)
    elif setup == "reg_len":
        asc.set_vector_mask(cnt, dtype=x.dtype, mode=asc.MaskMode.NORMAL)
    elif setup == "counter":
        asc.set_mask_count()
        asc.set_vector_mask(0, cnt, dtype=x.dtype, mode=asc.MaskMode.COUNTER)
    elif setup == "counter_len":
        asc.set_mask_count()
        asc.set_vector_mask(cnt, dtype=x.dtype, mode=asc.MaskMode.COUNTER)
    elif setup == "counter_inline":
        asc.set_mask_count()
    elif setup == "reset":
        asc.set_vector_mask(hi, lo, dtype=x.dtype, mode=asc.MaskMode.NORMAL)
        asc.reset_mask()
    elif setup == "after_count":
        asc.set_vector_mask(hi, lo, dtype=x.dtype, mode=asc.MaskMode.NORMAL)
        asc.adds(junk, a, 0, N)
    bp = asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8)
    up = asc.UnaryRepeatParams(1, 1, 8, 8)
    if op == "add":
        if bits:
            asc.add(d, a, b, [lo, hi], rep, bp, sm)
        else:
            asc.add(d, a, b, cnt, rep, bp, sm)
    elif op == "adds":
        if bits:
            asc.adds(d, a, 3, [lo, hi], rep, up, sm)
        else:
            asc.adds(d, a, 3, cnt, rep, up, sm)
    elif op == "relu":
        if bits:
            asc.relu(d, a, [lo, hi], rep, up, is_set_mask=sm)
        else:
            asc.relu(d, a, cnt, rep, up, is_set_mask=sm)
    else:
        if bits:
            asc.duplicate(d, 7, [lo, hi], rep, 1, 8, sm)
        else:
            asc.duplicate(d, 7, cnt, rep, 1, 8, sm)
    if setup == "counter" or setup == "counter_len" or setup == "counter_inline":
        asc.set_mask_norm()
        asc.reset_mask()
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, d, N)


def _per_repeat(dtype: str) -> int:
    return 256 // np.dtype(NP[dtype]).itemsize


def _bits(lo: int, hi: int, dtype: str) -> List[int]:
    p = _per_repeat(dtype)
    return [i for i in range(p) if ((lo >> i) if i < 64 else (hi >> (i - 64))) & 1]


def _enabled_normal(idx: List[int], dtype: str, rep: int) -> np.ndarray:
    on = np.zeros(N, bool)
    p = _per_repeat(dtype)
    for r in range(rep):
        on[[r * p + i for i in idx]] = True
    return on


def _enabled_first(count: int) -> np.ndarray:
    on = np.zeros(N, bool)
    on[:count] = True
    return on


def _run(dtype: str, op: str, setup: str = "", bits: bool = True, sm: bool = True, lo: int = 0, hi: int = 0,
         cnt: int = 0, rep: int = 1, seed: int = 0, **launch: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = NP[dtype]
    rng = np.random.default_rng(seed)
    x = rng.integers(-100, 100, N).astype(t)
    y = rng.integers(-100, 100, N).astype(t)
    z = np.full(N, -55, t)
    out = z.copy()
    _mask_kernel[1](x, y, out, op, setup, bits, sm, _i32(lo), _i32(lo >> 32), _i32(hi), _i32(hi >> 32), cnt, rep,
                    **launch)
    full = {"add": x + y, "adds": x + t(3), "relu": np.maximum(x, t(0)), "duplicate": np.full(N, 7, t)}[op]
    return out, full.astype(t), z


def _check(out: np.ndarray, full: np.ndarray, z: np.ndarray, on: np.ndarray) -> None:
    assert on.any() or not (out != z).any()
    np.testing.assert_array_equal(out, np.where(on, full, z))


BIT_MASKS = [
    ("alternating", 0x5555555555555555, 0xAAAAAAAAAAAAAAAA),
    ("only_high", 0, 0xF0F0_0000_0000_0F0F),
    ("only_low", 0x8000_0000_FFFF_0001, 0),
    ("all_zero", 0, 0),
    ("all", ALL, ALL),
]


# the element types of each op (Relu: half / float / int32_t)
OP_TYPES = [(op, t) for op in ("add", "adds", "relu", "duplicate") for t in TYPES
            if not (op == "relu" and t == "int16")]


@pytest.mark.parametrize("op,dtype", OP_TYPES)
@pytest.mark.parametrize("name,lo,hi", BIT_MASKS, ids=[m[0] for m in BIT_MASKS])
def test_bit_masks(dtype: str, op: str, name: str, lo: int, hi: int) -> None:
    out, full, z = _run(dtype, op, lo=lo, hi=hi, rep=2)
    _check(out, full, z, _enabled_normal(_bits(lo, hi, dtype), dtype, 2))


@pytest.mark.parametrize("dtype", ("float32", "int32"))
def test_32bit_types_ignore_the_high_word(dtype: str) -> None:
    lo = 0x0F0F_0000_FFFF_1234
    with_hi, full, z = _run(dtype, "add", lo=lo, hi=ALL, rep=3)
    without, _, _ = _run(dtype, "add", lo=lo, hi=0, rep=3)
    np.testing.assert_array_equal(with_hi, without)
    on = _enabled_normal(_bits(lo, 0, dtype), dtype, 3)
    _check(with_hi, full, z, on)
    assert on.sum() == 3 * bin(lo).count("1")


@pytest.mark.parametrize("dtype,cnt", [("float16", 129), ("float16", 1000), ("int16", 200), ("float32", 65),
                                       ("float32", 100), ("int32", 128), ("int32", 2**31 - 1)])
def test_continuous_mask_above_the_maximum_is_the_maximum(dtype: str, cnt: int) -> None:
    out, full, z = _run(dtype, "add", bits=False, cnt=cnt, rep=2)
    p = _per_repeat(dtype)
    _check(out, full, z, _enabled_normal(list(range(p)), dtype, 2))


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("cnt", (0, 37, 64, 100))
def test_continuous_mask_within_a_repeat(dtype: str, cnt: int) -> None:
    out, full, z = _run(dtype, "adds", bits=False, cnt=cnt, rep=3)
    p = _per_repeat(dtype)
    _check(out, full, z, _enabled_normal(list(range(min(cnt, p))), dtype, 3))


@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("setup", ("counter", "counter_len"))
@pytest.mark.parametrize("cnt", (1, 130, 300, 384))
def test_counter_mode_counts_over_repeats(dtype: str, setup: str, cnt: int) -> None:
    # repeat_times 1 is not used: the count decides the repeats
    out, full, z = _run(dtype, "add", setup=setup, bits=False, sm=False, cnt=cnt, rep=1)
    _check(out, full, z, _enabled_first(cnt))


@pytest.mark.parametrize("dtype", ("float16", "int32"))
def test_counter_mode_with_the_instructions_own_mask(dtype: str) -> None:
    # SIMD计算说明/掩码.md: SetMaskCount, then mask[2] = {130, 0} counts 130 elements
    out, full, z = _run(dtype, "relu", setup="counter_inline", lo=130, hi=0, rep=1)
    _check(out, full, z, _enabled_first(130))


@pytest.mark.parametrize("op,dtype", OP_TYPES)
def test_is_set_mask_false_uses_set_vector_mask(dtype: str, op: str) -> None:
    lo, hi = 0x00FF_00FF_0F0F_0F0F, 0x8000_0000_0000_0003
    # the instruction's own mask (ALL) is not used
    out, full, z = _run(dtype, op, setup="reg_bits", sm=False, lo=lo, hi=hi, rep=2)
    _check(out, full, z, _enabled_normal(_bits(lo, hi, dtype), dtype, 2))


@pytest.mark.parametrize("dtype,cnt", [("float16", 100), ("float16", 64), ("float32", 40), ("int32", 100),
                                       ("int16", 128)])
def test_is_set_mask_false_after_set_vector_mask_len(dtype: str, cnt: int) -> None:
    out, full, z = _run(dtype, "add", setup="reg_len", bits=False, sm=False, cnt=cnt, rep=2)
    _check(out, full, z, _enabled_normal(list(range(min(cnt, _per_repeat(dtype)))), dtype, 2))


@pytest.mark.parametrize("setup", ("reset", "after_count"))
def test_reset_mask_and_count_forms_leave_all_ones(setup: str) -> None:
    out, full, z = _run("float16", "add", setup=setup, sm=False, lo=1, hi=0, rep=2)
    _check(out, full, z, _enabled_normal(list(range(128)), "float16", 2))


def test_is_set_mask_true_writes_the_register() -> None:
    # the default register (all ones) is replaced by the instruction's mask
    out, full, z = _run("float32", "add", setup="", lo=0b1011, hi=0, rep=1)
    _check(out, full, z, _enabled_normal([0, 1, 3], "float32", 1))


def _ascendc_of(*args: Any, **kwargs: Any) -> str:
    from asc.runtime import compiler

    got: List[Any] = []
    compiler.compile_listeners.append(got.append)
    try:
        _run(*args, always_compile=True, **kwargs)
    finally:
        compiler.compile_listeners.remove(got.append)
    return got[0].ascendc(line_comments=False)


def test_emitted_ascendc() -> None:
    text = _ascendc_of("float16", "add", setup="counter", bits=False, sm=False, cnt=300)
    assert "AscendC::SetMaskCount();" in text
    assert "AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(static_cast<uint64_t>(0ULL), " in text
    assert "AscendC::Add<half, false>(d, a, b, " in text
    assert "AscendC::SetMaskNorm();" in text
    assert "AscendC::ResetMask();" in text
    text = _ascendc_of("int32", "relu", setup="reg_len", bits=False, sm=False, cnt=3)
    assert "AscendC::SetVectorMask<int32_t, AscendC::MaskMode::NORMAL>(cnt);" in text
    assert "AscendC::Relu<int32_t, false>(d, a, " in text
    text = _ascendc_of("float32", "duplicate", lo=3, rep=1)
    assert "AscendC::Duplicate(d, 7.0f, mask" in text or "AscendC::Duplicate(d, float(7" in text, text


# ---------------------------------------------------------------------------
# misuse: CompileError at the call's line, with a hint
# ---------------------------------------------------------------------------

@asc.jit
def _misuse(x: asc.GlobalAddress, case: asc.ConstExpr[str]):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 256)
    p = asc.BinaryRepeatParams()
    if case == "three_words":
        asc.add(a, a, a, [1, 2, 3], 1, p)  # three_words
    elif case == "one_word_f16":
        asc.add(a, a, a, [1], 1, p)  # one_word_f16
    elif case == "negative":
        asc.add(f, f, f, -1, 1, p)  # negative
    elif case == "negative_word":
        asc.add(f, f, f, [2**64, 0], 1, p)  # negative_word
    elif case == "set_mask_bool":
        asc.add(f, f, f, 64, 1, p, 1)  # set_mask_bool
    elif case == "no_dtype":
        asc.set_vector_mask(0, 64)  # no_dtype
    elif case == "three_args":
        asc.set_vector_mask(0, 1, 2, dtype=asc.float16)  # three_args
    elif case == "negative_len":
        asc.set_vector_mask(-3, dtype=asc.float16)  # negative_len
    elif case == "bad_mode":
        asc.set_vector_mask(3, dtype=asc.float16, mode=7)  # bad_mode


MISUSE = [
    ("three_words", "two uint64"),
    ("one_word_f16", "two uint64"),
    ("negative", "mask = -1 is negative"),
    ("negative_word", "does not fit uint64"),
    ("set_mask_bool", "is_set_mask must be a bool"),
    ("no_dtype", "`dtype` must be an asc data type"),
    ("three_args", "3 positional arguments"),
    ("negative_len", "length = -3 is out of range"),
    ("bad_mode", "asc.MaskMode"),
]


@pytest.mark.parametrize("case,fragment", MISUSE, ids=[m[0] for m in MISUSE])
def test_misuse(case: str, fragment: str) -> None:
    fails_at(_misuse, (np.zeros(8, np.float32), case), f"# {case}", fragment, cls=asc.CompileError)


# ---------------------------------------------------------------------------
# a full repeat past a short LocalTensor (upstream's test_vadd_bits: 64 half
# elements, mask [2**64 - 1, 2**64 - 1] writes 128): a KernelError, in the
# sanitizer's warn mode a SanitizerWarning and the access is made
# ---------------------------------------------------------------------------

@asc.jit
def _short_tensor(x: asc.GlobalAddress, z: asc.GlobalAddress):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 128)
    d = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 512, 64)
    asc.data_copy(a, xg, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(d, a, a, [2**64 - 1, 2**64 - 1], 1, asc.BinaryRepeatParams())  # full repeat
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, d, 64)


def test_full_repeat_past_a_short_tensor() -> None:
    x = np.arange(128, dtype=np.float16)
    z = np.zeros(64, np.float16)
    fails_at(_short_tensor, (x, z), "# full repeat", "128 elements requested but the LocalTensor has only 64")
    with pytest.warns(asc.SanitizerWarning, match="LocalTensor access out of bounds.*has only 64"):
        _short_tensor[1](x, z, sanitize="warn")
    np.testing.assert_array_equal(z, x[:64] + x[:64])
