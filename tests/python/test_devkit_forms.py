"""Forms of the basic API whose semantics follow a particular reading of the
devkit's dav-c220 implementation, each against a NumPy reference built the
same way:

- add_deq_relu level 0 with is_set_mask=False (AddDeqRelu<false>): the
  first chunk's int32 sums and conversions under the register's mask, the
  max step and later chunks under all ones (the devkit's zero fill resets
  the register), the register left all ones.
- bitwise_and / bitwise_or count form on int32 / uint32: int16 lanes, the
  count counting 16-bit halves; their level-0 forms a CompileError.
- compare / compare_scalar count form: the mask register is left as it was.
- check_local_memory_ia: an access of an armed kind in (start, end] (32-byte
  blocks) is a KernelError at the access, per block.
- duplicate: upstream's forms (count with is_set_mask, runtime level-0
  operands, bit masks) and the mask register they leave.
"""

import zlib
from typing import Any

import numpy as np
import pytest
from kernels_util import add_deq_relu_level0_ref

import asc

SENT = 0x5A5A


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


# ---------------------------------------------------------------------------
# add_deq_relu, level 0, is_set_mask=False
# ---------------------------------------------------------------------------

@asc.jit
def _adr_keep_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress,
                     hi: asc.ConstExpr[int], lo: asc.ConstExpr[int], repeat: asc.ConstExpr[int],
                     db: asc.ConstExpr[int], sb: asc.ConstExpr[int], dr: asc.ConstExpr[int], sr: asc.ConstExpr[int],
                     bits: asc.ConstExpr[bool], cap: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    w_gm.set_global_buffer(w)
    xl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, cap * 4, cap)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, cap * 8, cap)
    wl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, cap * 10, 128)
    asc.data_copy(xl, x_gm, cap)
    asc.data_copy(yl, y_gm, cap)
    asc.data_copy(zl, z_gm, cap)
    asc.data_copy(wl, w_gm, 128)
    asc.set_deq_scale(0.125)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(hi, lo, dtype=asc.int32)
    p = asc.BinaryRepeatParams(db, sb, sb, dr, sr, sr)
    # the mask argument is ignored: 1 / [1, 0] would select one element
    if bits:
        asc.add_deq_relu(zl, xl, yl, [1, 0], repeat, p, False)
    else:
        asc.add_deq_relu(zl, xl, yl, 1, repeat, p, is_set_mask=False)
    # the register as the instruction leaves it: a level-0 duplicate without setting it
    asc.duplicate(wl, asc.float16(1.0), 128, 1, 1, 8, False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, cap)
    asc.data_copy(x_gm, xl, cap)
    asc.data_copy(y_gm, yl, cap)
    asc.data_copy(w_gm, wl, 128)


def adr_keep_ref(a: np.ndarray, b: np.ndarray, z: np.ndarray, lo: int, rep: int, db: int, sb: int, dr: int,
                 sr: int) -> None:
    """AddDeqRelu<false>'s steps on copies of the UB tensors, in place: the first chunk's steps 1-6 under the
    register's low word, everything after the devkit's zero fill (step 7) under all ones."""
    full = 2 ** 64 - 1
    mask = lambda c: lo if c == 0 else full  # noqa: E731
    add_deq_relu_level0_ref(a, b, z, 0.125, rep, db, sb, dr, sr, mask, mask, [True] * 128)


ADR_KEEP = [  # hi, lo, repeat, db, sb, dr, sr, bits
    (0, 2 ** 64 - 1, 2, 1, 1, 8, 8, False),
    (0, 0x0000_FFFF_0F0F_0003, 2, 1, 1, 8, 8, True),
    (0, (1 << 37) - 1, 3, 2, 1, 16, 8, False),
    (0, 0xFFFF, 40, 1, 1, 8, 8, False),  # a chunk of 32 repeats under the register's mask, then all ones
]


@pytest.mark.parametrize("case", range(len(ADR_KEEP)))
def test_add_deq_relu_level0_without_setting_the_mask(case: int) -> None:
    hi, lo, rep, db, sb, dr, sr, bits = ADR_KEEP[case]
    rng = rng_for("adr-keep", case)
    cap = max(rep * dr * 16 + 256, rep * 64 + 128, 1024)
    a = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    b = rng.integers(-(2 ** 18), 2 ** 18, cap).astype(np.int32)
    z = np.full(cap, SENT, np.uint16).view(np.float16)
    w = np.full(128, SENT, np.uint16).view(np.float16)
    wa, wb, wz = a.copy(), b.copy(), z.copy()
    _adr_keep_kernel[1](a, b, z, w, hi, lo, rep, db, sb, dr, sr, bits, cap)
    adr_keep_ref(wa, wb, wz, lo, rep, db, sb, dr, sr)
    np.testing.assert_array_equal(z.view(np.uint16), wz.view(np.uint16), err_msg="dst")
    np.testing.assert_array_equal(a, wa, err_msg="src0")
    np.testing.assert_array_equal(b, wb, err_msg="src1")
    # the register is left all ones (normal mode): the duplicate fills all 128 halves
    np.testing.assert_array_equal(w, np.ones(128, np.float16))


def test_add_deq_relu_without_setting_the_mask_counting_past_its_first_chunk_is_a_kernel_error() -> None:
    # counter mode within the first chunk is modelled (tests/python/test_counter_mode.py)
    @asc.jit
    def k(x: asc.GlobalAddress):
        t = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 0, 64)
        h = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 512, 128)
        asc.set_deq_scale(1.0)
        asc.set_mask_count()
        asc.set_vector_mask(0, 65, dtype=asc.int32, mode=asc.MaskMode.COUNTER)
        asc.add_deq_relu(h, t, t, 64, 1, asc.BinaryRepeatParams(), False)

    with pytest.raises(asc.KernelError, match="counter mode.*first chunk"):
        k[1](np.zeros(8, np.float32))


def all_ascendc(kernel: Any) -> str:
    """The Ascend C of every compilation of kernel (the cache keeps one per specialisation)."""
    return "\n".join(v.ascendc(line_comments=False) for v in kernel.cache.values())


def test_the_ascend_c_of_add_deq_relu_without_setting_the_mask() -> None:
    for bits in (False, True):
        a = np.zeros(1024, np.int32)
        _adr_keep_kernel[1](a, a.copy(), np.zeros(1024, np.float16), np.zeros(128, np.float16), 0, 2 ** 64 - 1,
                            1, 1, 1, 8, 8, bits, 1024)
    code = all_ascendc(_adr_keep_kernel)
    assert "AscendC::AddDeqRelu<false>(zl, xl, yl, 1ULL, 1, " in code
    assert "AscendC::AddDeqRelu<false>(zl, xl, yl, mask" in code


# ---------------------------------------------------------------------------
# bitwise_and / bitwise_or on int32 / uint32: the count form as int16 lanes
# ---------------------------------------------------------------------------

@asc.jit
def _bitwise_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, n: int,
                    dtype: asc.ConstExpr[Any], op: asc.ConstExpr[int], cap: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(dtype, asc.TPosition.VECIN, 0, cap)
    yl = asc.LocalTensor(dtype, asc.TPosition.VECIN, cap * 4, cap)
    zl = asc.LocalTensor(dtype, asc.TPosition.VECOUT, cap * 8, cap)
    asc.data_copy(xl, x_gm, cap)
    asc.data_copy(yl, y_gm, cap)
    asc.data_copy(zl, z_gm, cap)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if op == 0:
        asc.bitwise_and(zl, xl, yl, n)
    else:
        asc.bitwise_or(zl, xl, yl, count=n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, cap)


@pytest.mark.parametrize("dtype", ["int32", "uint32"])
@pytest.mark.parametrize("op", [0, 1])
@pytest.mark.parametrize("n", [0, 1, 64, 129, 256])
def test_bitwise_on_32_bit_types_takes_count_int16_lanes(dtype: str, op: int, n: int) -> None:
    cap = 128
    rng = rng_for("bitwise32", dtype, op, n)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, cap, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, cap, dtype=dtype, endpoint=True)
    z = np.full(cap, 0x5A5A5A5A, np.uint32).view(dtype)
    want = z.copy().view(np.uint16)
    a16, b16 = a.view(np.uint16), b.view(np.uint16)
    want[:n] = (a16 & b16)[:n] if op == 0 else (a16 | b16)[:n]
    _bitwise_kernel[1](a, b, z, n, getattr(asc, dtype), op, cap)
    np.testing.assert_array_equal(z.view(np.uint16), want)


def test_bitwise_on_32_bit_types_counts_the_int16_lanes_against_the_tensor() -> None:
    a = np.zeros(128, np.int32)
    with pytest.raises(asc.KernelError, match="bitwise_and"):
        _bitwise_kernel[1](a, a.copy(), a.copy(), 257, asc.int32, 0, 128)  # 257 lanes > 256 of 128 int32


@pytest.mark.parametrize("api", ["bitwise_and", "bitwise_or"])
@pytest.mark.parametrize("dtype", ["int32", "uint32", "float32"])
def test_bitwise_level0_on_32_bit_types_is_a_compile_error(api: str, dtype: str) -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, dt: asc.ConstExpr[Any], op: asc.ConstExpr[int]):
        t = asc.LocalTensor(dt, asc.TPosition.VECCALC, 0, 64)
        if op == 0:
            asc.bitwise_and(t, t, t, 64, 1, asc.BinaryRepeatParams())
        else:
            asc.bitwise_or(t, t, t, [1, 0], 1, asc.BinaryRepeatParams())

    match = (f"element type {dtype}: the devkit's" if dtype != "float32"
             else "element type float32 on the Ascend910B")
    with pytest.raises(asc.CompileError, match=rf"asc.{api} \(level-0 form\) does not support {match}"):
        k[1](np.zeros(8, np.float32), getattr(asc, dtype), 0 if api == "bitwise_and" else 1)


def test_the_ascend_c_of_bitwise_on_int32() -> None:
    a = np.zeros(128, np.int32)
    _bitwise_kernel[1](a, a.copy(), a.copy(), 64, asc.int32, 0, 128)
    _bitwise_kernel[1](a.view(np.uint32), a.view(np.uint32).copy(), a.view(np.uint32).copy(), 64, asc.uint32, 1, 128)
    code = all_ascendc(_bitwise_kernel)
    assert "AscendC::And(zl, xl, yl, n)" in code
    assert "AscendC::Or(zl, xl, yl, n)" in code
    assert "AscendC::LocalTensor<uint32_t> zl" in code


# ---------------------------------------------------------------------------
# compare / compare_scalar count form: the mask register is left as it was
# ---------------------------------------------------------------------------

@asc.jit
def _cmp_mask_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, lo: asc.ConstExpr[int],
                     scalar: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    w_gm.set_global_buffer(w)
    xl = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 256)
    zl = asc.LocalTensor(asc.uint8, asc.TPosition.VECOUT, 512, 32)
    wl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 1024, 128)
    asc.data_copy(xl, x_gm, 256)
    asc.data_copy(wl, w_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0, lo, dtype=asc.float16)
    if scalar:
        asc.compare_scalar(zl, xl, asc.float16(0.0), asc.CMPMODE.GT, 256)
    else:
        asc.compare(zl, xl, xl, asc.CMPMODE.EQ, 256)
    asc.duplicate(wl, asc.float16(2.0), 128, 1, 1, 8, False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, 32)
    asc.data_copy(w_gm, wl, 128)


@pytest.mark.parametrize("scalar", [False, True])
@pytest.mark.parametrize("lo", [0xF, 0x8000_0000_0000_0001])
def test_compare_count_form_leaves_the_mask_register(scalar: bool, lo: int) -> None:
    x = rng_for("cmp-mask", scalar, lo).standard_normal(256).astype(np.float16)
    z = np.zeros(32, np.uint8)
    w = np.full(128, SENT, np.uint16).view(np.float16)
    _cmp_mask_kernel[1](x, z, w, lo, scalar)
    want_bits = (x > 0) if scalar else (x == x)
    np.testing.assert_array_equal(np.unpackbits(z, bitorder="little").astype(bool), want_bits)
    on = np.array([(lo >> e) & 1 for e in range(64)] + [0] * 64, bool)
    want = np.full(128, SENT, np.uint16).view(np.float16)
    want[on] = 2.0
    np.testing.assert_array_equal(w.view(np.uint16), want.view(np.uint16))


# ---------------------------------------------------------------------------
# check_local_memory_ia: an armed range makes accesses of its kinds KernelErrors
# ---------------------------------------------------------------------------

@asc.jit
def _ia_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, start: asc.ConstExpr[int], end: asc.ConstExpr[int],
               kind: asc.ConstExpr[int], enable: asc.ConstExpr[bool], reset: asc.ConstExpr[bool],
               only_block: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 64)      # UB bytes [0, 256): blocks 0-7
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 256, 64)   # UB bytes [256, 512): blocks 8-15
    p = asc.CheckLocalMemoryIAParam(enable_bit=2, start_addr=start, end_addr=end,
                                    is_vector_read=kind == 0, is_vector_write=kind == 1,
                                    is_mte_read=kind == 2, is_mte_write=kind == 3, is_enable=enable)
    if only_block < 0 or asc.get_block_idx() == only_block:
        asc.check_local_memory_ia(p)
    if reset:
        asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam(enable_bit=2, is_enable=False))
    asc.data_copy(a, x_gm, 64)                       # MTE write of a
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(b, a, 1.0, 64)                          # vector read of a, vector write of b
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm[asc.get_block_idx() * 64], b, 64)   # MTE read of b


def _ia_line(fragment: str) -> int:
    import inspect
    src, first = inspect.getsourcelines(_ia_kernel.fn if hasattr(_ia_kernel, "fn") else _ia_kernel)
    return first + next(i for i, s in enumerate(src) if fragment in s)


def _ia_run(start: int, end: int, kind: int, enable: bool = True, reset: bool = False, blocks: int = 1,
            only_block: int = -1) -> np.ndarray:
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64 * blocks, np.float32)
    _ia_kernel[blocks](x, z, start, end, kind, enable, reset, only_block)
    return z


# kind, (start, end], the op and access it catches
IA_HITS = [
    (0, 0, 7, "asc.adds", "vector read of UB bytes [0, 256)"),     # blocks 1-7 of a
    (1, 7, 8, "asc.adds", "vector write of UB bytes [256, 512)"),  # block 8: b's first
    (3, 6, 7, "asc.data_copy", "MTE write of UB bytes [0, 256)"),  # block 7: a's last
    (2, 14, 20, "asc.data_copy", "MTE read of UB bytes [256, 512)"),  # block 15: b's last
]


@pytest.mark.parametrize("case", range(len(IA_HITS)))
def test_check_local_memory_ia_raises_at_an_access_in_range(case: int) -> None:
    kind, start, end, op, what = IA_HITS[case]
    with pytest.raises(asc.KernelError, match=op) as info:
        _ia_run(start, end, kind)
    msg = str(info.value)
    assert what in msg
    assert f"({start}, {end}] of 32-byte blocks" in msg and "exception register 2" in msg
    line = _ia_line({0: "asc.adds", 1: "asc.adds", 2: "data_copy(z_gm", 3: "data_copy(a, x_gm"}[kind])
    assert f":{line}:" in msg


# accesses not taken: outside the range (the start block is excluded), another kind, not enabled, reset
IA_MISSES = [
    dict(kind=0, start=7, end=7),        # an empty range
    dict(kind=1, start=15, end=30),      # b ends in block 15: (15, 30] starts at block 16
    dict(kind=0, start=8, end=15),       # a vector read of a (blocks 0-7) is not in (8, 15]
    dict(kind=2, start=0, end=7),        # MTE reads happen to b only
    dict(kind=1, start=7, end=8, enable=False),
    dict(kind=1, start=7, end=8, reset=True),
]


@pytest.mark.parametrize("case", range(len(IA_MISSES)))
def test_check_local_memory_ia_lets_other_accesses_through(case: int) -> None:
    z = _ia_run(**IA_MISSES[case])
    np.testing.assert_array_equal(z, np.arange(64, dtype=np.float32) + 1)


def test_check_local_memory_ia_is_per_block() -> None:
    with pytest.raises(asc.KernelError, match=r"block 1\b"):
        _ia_run(7, 8, 1, blocks=2, only_block=1)
    z = _ia_run(7, 8, 1, blocks=2, only_block=5)  # no block arms it
    np.testing.assert_array_equal(z, np.tile(np.arange(64, dtype=np.float32) + 1, 2))


@pytest.mark.parametrize("bit, start, end, match", [(4, 0, 1, "enable_bit 4 is out of range"),
                                                    (0, 0, 65536, "out of range \\[0, 65535\\]")])
def test_check_local_memory_ia_bad_params_are_kernel_errors(bit: int, start: int, end: int, match: str) -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, bit: int, start: int, end: int):
        asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam(enable_bit=bit, start_addr=start, end_addr=end,
                                                              is_vector_write=True, is_enable=True))

    with pytest.raises(asc.KernelError, match=match):
        k[1](np.zeros(8, np.float32), bit, start, end)


# ---------------------------------------------------------------------------
# duplicate: upstream's calling forms (count with is_set_mask, runtime level-0 operands)
# ---------------------------------------------------------------------------

@asc.jit
def _dup_forms_kernel(z: asc.GlobalAddress, w: asc.GlobalAddress, s: float, m: int, r: int, bs: int, rs: int,
                      form: asc.ConstExpr[int]):
    z_gm = asc.GlobalTensor()
    w_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z)
    w_gm.set_global_buffer(w)
    zl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 0, 1024)
    wl = asc.LocalTensor(asc.float16, asc.TPosition.VECOUT, 4096, 128)
    asc.data_copy(zl, z_gm, 1024)
    asc.data_copy(wl, w_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.set_vector_mask(0, 0xFF, dtype=asc.float16)
    if form == 0:
        asc.duplicate(zl, s, m, False)              # the count form takes (and ignores) is_set_mask
    elif form == 1:
        asc.duplicate(zl, s, count=m, is_set_mask=True)
    elif form == 2:
        asc.duplicate(zl, s, m, r, bs, rs)          # level 0, every operand a runtime value
    else:
        asc.duplicate(zl, s, [m, m], r, bs, rs, is_set_mask=True)
    asc.duplicate(wl, asc.float16(1.0), 128, 1, 1, 8, False)  # the register the call left
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, 1024)
    asc.data_copy(w_gm, wl, 128)


@pytest.mark.parametrize("form, m, r, bs, rs", [(0, 37, 0, 0, 0), (1, 300, 0, 0, 0), (2, 100, 3, 2, 17),
                                                (3, 0x4101_0081, 2, 3, 24)])
def test_duplicate_forms_against_numpy(form: int, m: int, r: int, bs: int, rs: int) -> None:
    z = np.full(1024, SENT, np.uint16).view(np.float16)
    w = np.full(128, SENT, np.uint16).view(np.float16)
    _dup_forms_kernel[1](z, w, -2.5, m, r, bs, rs, form)
    want = np.full(1024, SENT, np.uint16).view(np.float16)
    if form < 2:
        want[:m] = -2.5
        reg = np.ones(128, bool)  # the count form leaves the mask all ones (ResetMask)
    else:
        on = ([e < m for e in range(128)] if form == 2
              else [bool((m >> (e % 64)) & 1) for e in range(128)])
        for rep in range(r):
            for e in range(128):
                if on[e]:
                    want[(rep * rs * 32 + e // 16 * bs * 32) // 2 + e % 16] = -2.5
        reg = np.array(on, bool)  # isSetMask: the call's mask stays in the register
    np.testing.assert_array_equal(z.view(np.uint16), want.view(np.uint16))
    want_w = np.full(128, SENT, np.uint16).view(np.float16)
    want_w[reg] = 1.0
    np.testing.assert_array_equal(w.view(np.uint16), want_w.view(np.uint16))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float64"])
def test_duplicate_other_dtypes_are_compile_errors(dtype: str) -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, dt: asc.ConstExpr[Any]):
        t = asc.LocalTensor(dt, asc.TPosition.VECCALC, 0, 256)
        asc.duplicate(t, 1, 32)

    with pytest.raises(asc.CompileError, match=f"asc.duplicate does not support element type {dtype}"):
        k[1](np.zeros(8, np.float32), getattr(asc, dtype))


def test_the_ascend_c_of_the_duplicate_forms() -> None:
    z = np.zeros(1024, np.float16)
    for form in range(4):
        _dup_forms_kernel[1](z, np.zeros(128, np.float16), 1.0, 8, 1, 1, 8, form)
    code = all_ascendc(_dup_forms_kernel)
    assert code.count("AscendC::Duplicate(zl, static_cast<half>(s), m);") == 2  # is_set_mask: not emitted
    assert "AscendC::Duplicate(zl, static_cast<half>(s), static_cast<uint64_t>(m), r, bs, rs);" in code
    assert "uint64_t mask[2] = {static_cast<uint64_t>(m), static_cast<uint64_t>(m)};" in code
    assert "AscendC::Duplicate(zl, static_cast<half>(s), mask, r, bs, rs);" in code
    assert "AscendC::Duplicate<half, false>(wl, half(1.0f), 128ULL, 1, 1, 8);" in code


@pytest.mark.parametrize("write", [False, True])
def test_check_local_memory_ia_checks_scalar_accesses(write: bool) -> None:
    @asc.jit
    def k(x: asc.GlobalAddress, w: asc.ConstExpr[bool], i: int):
        a = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 64)
        asc.duplicate(a, 0.0, 64)  # a vector write before the range is armed
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.check_local_memory_ia(asc.CheckLocalMemoryIAParam(enable_bit=0, start_addr=0, end_addr=3,
                                                              is_scalar_read=not w, is_scalar_write=w,
                                                              is_enable=True))
        if w:
            a.set_value(i, 1.0)
        else:
            a.get_value(i)

    x = np.zeros(8, np.float32)
    k[1](x, write, 7)  # UB bytes [28, 32): block 0, the excluded start
    k[1](x, write, 32)  # block 4, past the end
    what = "LocalTensor.set_value: the scalar write" if write else "LocalTensor.get_value: the scalar read"
    with pytest.raises(asc.KernelError, match=f"{what} of UB bytes \\[80, 84\\)"):
        k[1](x, write, 20)
