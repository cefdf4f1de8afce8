"""Broadcast and gather instructions on the simulator against NumPy
references: brcb, gatherb, gather (count form and level-0 form with
continuous and bit masks), gather_mask (built-in patterns 1-7 and pattern
tensors, normal and counter mode) with get_gather_mask_remain_count, per
element type of the Ascend910B; then the errors (offsets outside src, bad
types), and scatter, which the devkit does not offer on this core.

Offsets are byte offsets (uint32). bfloat16 data is stored as uint16 in
global memory and seen through a bfloat16 LocalTensor in the UB (these
instructions move bits: the references compare bits).
"""

import zlib
from typing import Any, List, Tuple

import numpy as np
import pytest
from kernels_util import UB_SLOT, ascendc, fails_at

import asc

# the Ascend910B's element types of Brcb, Gather and GatherMask; Gatherb: uint16 and uint32
TYPES = ("int16", "uint16", "float16", "bfloat16", "int32", "uint32", "float32")
STORE = {"bfloat16": np.uint16}
ITEM = {n: (2 if n in ("int16", "uint16", "float16", "bfloat16") else 4) for n in TYPES}


def store(name: str) -> np.dtype:
    return np.dtype(STORE.get(name, name))


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


def bits_of(name: str, n: int, *key: Any) -> np.ndarray:
    """n random elements of `name` as their storage type (any bits: NaNs and signed zeros included)."""
    es = ITEM[name]
    raw = rng_for(name, n, *key).integers(0, 256, n * es, dtype=np.uint8)
    return raw.view(store(name)).copy()


def as_u(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint32)


# ---------------------------------------------------------------------------
# brcb
# ---------------------------------------------------------------------------


@asc.jit
def brcb_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, nx: int, nz: int, view: asc.ConstExpr[asc.DataType],
                repeat: int, blk: int, rep: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    xr = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, UB_SLOT // x.dtype.sizeof())
    zr = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UB_SLOT, 4 * UB_SLOT // x.dtype.sizeof())
    xl = asc.LocalTensor(view, asc.TPosition.VECIN, 0, UB_SLOT // view.sizeof())
    zl = asc.LocalTensor(view, asc.TPosition.VECOUT, UB_SLOT, 4 * UB_SLOT // view.sizeof())
    asc.data_copy(xr, x_gm, nx)
    asc.data_copy(zr, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.brcb(zl, xl, repeat, asc.BrcbRepeatParams(blk, rep))  # brcb call
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zr, nz)


def brcb_ref(x: np.ndarray, z: np.ndarray, repeat: int, blk: int, rep: int) -> np.ndarray:
    per = 32 // x.dtype.itemsize
    z = z.copy()
    blk = blk or 1
    for r in range(repeat):
        for j in range(8):
            o = (r * rep + j * blk) * per
            z[o:o + per] = x[r * 8 + j]
    return z


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("repeat, blk, rep", [(1, 1, 8), (3, 1, 8), (2, 2, 16), (2, 0, 9), (0, 1, 8)])
def test_brcb(name: str, repeat: int, blk: int, rep: int) -> None:
    es = ITEM[name]
    nx = (8 * repeat + 32 // es) // (32 // es) * (32 // es)  # whole blocks past the 8 * repeat read
    x = bits_of(name, nx, "brcb")
    nz = 40 * 8 * 32 // es
    z = bits_of(name, nz, "brcb z")
    want = brcb_ref(x, z, repeat, blk, rep)
    brcb_kernel[1](x, z, nx, nz, getattr(asc, name), repeat, blk, rep)
    assert np.array_equal(as_u(z), as_u(want))


# ---------------------------------------------------------------------------
# gatherb
# ---------------------------------------------------------------------------


@asc.jit
def gatherb_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, z: asc.GlobalAddress, nx: int, no: int, nz: int,
                   repeat: int, blk: int, rep: int):
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    o_gm.set_global_buffer(o)
    z_gm.set_global_buffer(z)
    xl = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, nx)
    ol = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, UB_SLOT, no)
    zl = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * UB_SLOT, nz)
    asc.data_copy(xl, x_gm, nx)
    asc.data_copy(ol, o_gm, no)
    asc.data_copy(zl, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.gatherb(zl, xl, ol, repeat, asc.GatherRepeatParams(blk, rep))  # gatherb call
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, nz)


@pytest.mark.parametrize("name", ("uint16", "uint32"))
@pytest.mark.parametrize("repeat, blk, rep", [(1, 1, 8), (3, 1, 8), (2, 2, 17), (2, 0, 8)])
def test_gatherb(name: str, repeat: int, blk: int, rep: int) -> None:
    dtype = np.dtype(name)
    per = 32 // dtype.itemsize
    nblocks = 20
    x = bits_of(name, nblocks * per, "gb").view(dtype)
    offs = (rng_for("gbo", repeat).integers(0, nblocks, 8 * repeat) * 32).astype(np.uint32)
    o = np.zeros(max(8, (len(offs) + 7) // 8 * 8), np.uint32)
    o[:len(offs)] = offs
    nz = 48 * 8 * per
    z = bits_of(name, nz, "gbz").view(dtype)
    want = z.copy()
    for r in range(repeat):
        for j in range(8):
            d = (r * rep + j * (blk or 1)) * per
            want[d:d + per] = x[offs[r * 8 + j] // dtype.itemsize:][:per]
    gatherb_kernel[1](x, o, z, len(x), len(o), nz, repeat, blk, rep)
    assert np.array_equal(z, want)


def test_gatherb_offset_errors() -> None:
    x = np.zeros(64, np.uint16)  # 4 blocks
    z = np.zeros(64 * 8, np.uint16)
    o = np.zeros(8, np.uint32)
    o[3] = 128  # one block past src0
    fails_at(gatherb_kernel, (x, o, z, 64, 8, 512, 1, 1, 8), "# gatherb call", "gatherb", "offset[3] = 128",
             "outside")
    o[3] = 34
    fails_at(gatherb_kernel, (x, o, z, 64, 8, 512, 1, 1, 8), "# gatherb call", "not a multiple of 32")


# ---------------------------------------------------------------------------
# gather
# ---------------------------------------------------------------------------

COUNT, CONT, BITS = 0, 1, 2


@asc.jit
def gather_kernel(x: asc.GlobalAddress, o: asc.GlobalAddress, z: asc.GlobalAddress, nx: int, no: int, nz: int,
                  view: asc.ConstExpr[asc.DataType], form: asc.ConstExpr[int], base: int, count: int,
                  m0: asc.ConstExpr[int], m1: asc.ConstExpr[int], repeat: int, rep: int):
    x_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    o_gm.set_global_buffer(o)
    z_gm.set_global_buffer(z)
    xr = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, nx)
    ol = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, UB_SLOT, no)
    zr = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 3 * UB_SLOT, nz)
    xl = asc.LocalTensor(view, asc.TPosition.VECIN, 0, nx)
    zl = asc.LocalTensor(view, asc.TPosition.VECOUT, 3 * UB_SLOT, nz)
    asc.data_copy(xr, x_gm, nx)
    asc.data_copy(ol, o_gm, no)
    asc.data_copy(zr, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if form == 0:
        asc.gather(zl, xl, ol, base, count)  # gather count
    elif form == 1:
        asc.gather(zl, xl, ol, base, m0, repeat, rep)  # gather cont
    else:
        asc.gather(zl, xl, ol, base, [m0, m1], repeat, rep)  # gather bits
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zr, nz)


def lanes_of(form: int, per: int, m0: int, m1: int) -> List[int]:
    if form == CONT:
        return list(range(min(m0, per)))
    return [i for i in range(per) if ((m0 >> i) & 1 if i < 64 else (m1 >> (i - 64)) & 1)]


def gather_case(name: str, form: int, count: int = 0, m0: int = 0, m1: int = 0, repeat: int = 1, rep: int = 8,
                base_elems: int = 3) -> Tuple[np.ndarray, np.ndarray]:
    es = ITEM[name]
    per = 256 // es
    nx = 1024
    x = bits_of(name, nx, "gx")
    n_off = count if form == COUNT else repeat * per
    no = max(8, (n_off + 7) // 8 * 8)
    r = rng_for(name, form, count, m0, repeat)
    idx = r.integers(0, nx - base_elems, no)
    o = (idx * es).astype(np.uint32)
    nz = max(per * 8, (((repeat - 1) * rep * 32 // es + per) if form != COUNT else count) + 64)
    nz = (nz + 15) // 16 * 16
    z = bits_of(name, nz, "gz", form, count)
    want = z.copy()
    if form == COUNT:
        want[:count] = x[base_elems + idx[:count]]
    else:
        for rr in range(repeat):
            for i in lanes_of(form, per, m0, m1):
                want[rr * rep * 32 // es + i] = x[base_elems + idx[rr * per + i]]
    gather_kernel[1](x, o, z, nx, no, nz, getattr(asc, name), form, base_elems * es, count, m0, m1, repeat, rep)
    return z, want


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("count", (1, 7, 64, 65, 128, 129, 300, 600))
def test_gather_count(name: str, count: int) -> None:
    z, want = gather_case(name, COUNT, count=count)
    assert np.array_equal(as_u(z), as_u(want))


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("form, m0, m1, repeat, rep", [
    (CONT, 128, 0, 2, 8), (CONT, 37, 0, 3, 8), (CONT, 64, 0, 2, 4), (CONT, 200, 0, 1, 8), (CONT, 5, 0, 0, 8),
    (BITS, 0xF0F0_0000_FFFF_0001, 0x8000_0000_0000_0001, 2, 8), (BITS, 0, 0xFF, 2, 12), (BITS, 1, 0, 1, 8),
])
def test_gather_level0(name: str, form: int, m0: int, m1: int, repeat: int, rep: int) -> None:
    z, want = gather_case(name, form, m0=m0, m1=m1, repeat=repeat, rep=rep)
    assert np.array_equal(as_u(z), as_u(want))


def test_gather_offset_errors() -> None:
    x = np.zeros(64, np.float16)
    z = np.zeros(256, np.float16)
    o = np.zeros(8, np.uint32)
    o[5] = 128  # element 64: one past src
    args = [x, o, z, 64, 8, 256, asc.float16, COUNT, 0, 8, 0, 0, 1, 8]
    fails_at(gather_kernel, args, "# gather count", "gather", "src_offset[5] = 128", "outside src (128 bytes)")
    o[5] = 3  # not a whole element
    fails_at(gather_kernel, args, "# gather count", "not a multiple of the element size")
    o[5] = 0
    args[8] = 200  # src_base past src
    fails_at(gather_kernel, args, "# gather count", "src_base 200")


def test_gather_count_over_255_repeats() -> None:
    x = np.zeros(64, np.float32)
    z = np.zeros(8, np.float32)
    o = np.zeros(8, np.uint32)
    fails_at(gather_kernel, [x, o, z, 64, 8, 8, asc.float32, COUNT, 0, 256 * 64, 0, 0, 1, 8], "# gather count",
             "255")


# ---------------------------------------------------------------------------
# gather_mask
# ---------------------------------------------------------------------------


@asc.jit
def gather_mask_kernel(x: asc.GlobalAddress, p: asc.GlobalAddress, z: asc.GlobalAddress, c: asc.GlobalAddress,
                       nx: int, np_: int, nz: int, view: asc.ConstExpr[asc.DataType],
                       builtin: asc.ConstExpr[int], reduce: asc.ConstExpr[bool], mask: int, blk: int, repeat: int,
                       rep0: int, rep1: int):
    x_gm = asc.GlobalTensor()
    p_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    c_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    p_gm.set_global_buffer(p)
    z_gm.set_global_buffer(z)
    c_gm.set_global_buffer(c)
    xr = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, nx)
    pl = asc.LocalTensor(p.dtype, asc.TPosition.VECIN, UB_SLOT, np_)
    zr = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 2 * UB_SLOT, nz)
    xl = asc.LocalTensor(view, asc.TPosition.VECIN, 0, nx)
    zl = asc.LocalTensor(view, asc.TPosition.VECOUT, 2 * UB_SLOT, nz)
    asc.data_copy(xr, x_gm, nx)
    asc.data_copy(pl, p_gm, np_)
    asc.data_copy(zr, z_gm, nz)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    params = asc.GatherMaskParams(blk, repeat, rep0, rep1)
    if builtin == 0:
        kept = asc.gather_mask(zl, xl, pl, reduce, mask, params)  # gather_mask call
    else:
        kept = asc.gather_mask(zl, xl, builtin, reduce, mask, params)  # gather_mask builtin
    c_gm.set_value(0, kept)
    c_gm.set_value(1, asc.get_gather_mask_remain_count())
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zr, nz)


BUILTIN = {1: lambda i: i % 2 == 0, 2: lambda i: i % 2 == 1, 3: lambda i: i % 4 == 0, 4: lambda i: i % 4 == 1,
           5: lambda i: i % 4 == 2, 6: lambda i: i % 4 == 3, 7: lambda i: True}


def gather_mask_ref(x: np.ndarray, z: np.ndarray, pattern_bits: Any, per: int, blk: int, repeat: int, rep0: int,
                    rep1: int) -> Tuple[np.ndarray, int]:
    es = x.dtype.itemsize
    pb = 32 // es
    out = []
    for r in range(repeat):
        for i in range(per):
            if pattern_bits(r, i):
                out.append(x[(r * rep0 + i // pb * blk) * pb + i % pb])
    z = z.copy()
    z[:len(out)] = out
    return z, len(out)


def run_gather_mask(name: str, builtin: int, reduce: bool, mask: int, blk: int, repeat: int, rep0: int,
                    rep1: int) -> None:
    es = ITEM[name]
    per = mask if reduce else 256 // es
    nx = 2048 // es * 8
    x = bits_of(name, nx, "gmx")
    pdt = np.uint16 if es == 2 else np.uint32
    pbytes = max(32, ((repeat - 1) * rep1 * 32 + (per + 7) // 8 + 31) // 32 * 32) if repeat else 32
    pat = rng_for("gmp", name, mask).integers(0, 256, pbytes, dtype=np.uint8)
    nz = max(repeat * per, 16) + 16
    nz = (nz + 15) // 16 * 16
    z = bits_of(name, nz, "gmz")
    if builtin:
        def bits(r: int, i: int) -> bool:
            return BUILTIN[builtin](i)
    else:
        def bits(r: int, i: int) -> bool:
            return bool((pat[r * rep1 * 32 + i // 8] >> (i % 8)) & 1)
    want, kept = gather_mask_ref(x, z, bits, per, blk, repeat, rep0, rep1)
    counts = np.zeros(4, np.uint64)
    gather_mask_kernel[1](x, pat.view(pdt).copy(), z, counts, nx, pbytes // es, nz, getattr(asc, name), builtin,
                          reduce, mask, blk, repeat, rep0, rep1)
    assert counts[0] == kept and counts[1] == kept
    assert np.array_equal(as_u(z), as_u(want))


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("builtin", (1, 2, 3, 4, 5, 6, 7))
def test_gather_mask_builtin_normal(name: str, builtin: int) -> None:
    run_gather_mask(name, builtin, False, 0, 1, 3, 8, 0)


@pytest.mark.parametrize("name", TYPES)
@pytest.mark.parametrize("reduce, mask, blk, repeat, rep0, rep1", [
    (False, 0, 1, 2, 8, 0), (False, 0, 1, 3, 8, 1), (False, 0, 2, 2, 16, 1), (False, 0, 1, 0, 8, 0),
    (True, 70, 1, 2, 4, 0), (True, 300, 1, 1, 8, 0), (True, 5, 1, 3, 1, 1),
])
def test_gather_mask_pattern_tensor(name: str, reduce: bool, mask: int, blk: int, repeat: int, rep0: int,
                                    rep1: int) -> None:
    run_gather_mask(name, 0, reduce, mask, blk, repeat, rep0, rep1)


@pytest.mark.parametrize("name", ("float16", "int32"))
def test_gather_mask_builtin_counter(name: str) -> None:
    run_gather_mask(name, 2, True, 77, 1, 2, 8, 0)


def test_gather_mask_errors() -> None:
    x = np.zeros(256, np.float16)
    p = np.zeros(16, np.uint16)
    c = np.zeros(4, np.uint64)
    base = [x, p, x.copy(), c, 256, 16, 256, asc.float16]
    fails_at(gather_mask_kernel, base + [0, True, 0, 1, 1, 8, 0], "# gather_mask call", "gather_mask", "mask 0")
    fails_at(gather_mask_kernel, base + [0, False, 0, 1, 300, 8, 0], "# gather_mask call", "repeat_times 300")
    fails_at(gather_mask_kernel, base + [0, False, 0, 1, 4, 8, 0], "# gather_mask call", "src0")


def test_get_gather_mask_remain_count_starts_at_zero() -> None:
    @asc.jit
    def remain_kernel(c: asc.GlobalAddress):
        c_gm = asc.GlobalTensor()
        c_gm.set_global_buffer(c)
        c_gm.set_value(0, asc.get_gather_mask_remain_count())

    c = np.full(4, 9, np.uint64)
    remain_kernel[1](c)
    assert c[0] == 0


# ---------------------------------------------------------------------------
# compile errors, scatter, Ascend C
# ---------------------------------------------------------------------------


@asc.jit
def gather_bad_kernel(x: asc.GlobalAddress, which: asc.ConstExpr[int]):
    h = asc.LocalTensor(asc.float16, asc.TPosition.VECIN, 0, 256)
    f = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 1024, 256)
    i8 = asc.LocalTensor(asc.int8, asc.TPosition.VECIN, 2048, 256)
    o = asc.LocalTensor(asc.uint32, asc.TPosition.VECIN, 4096, 256)
    oi = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 4096, 256)
    u16 = asc.LocalTensor(asc.uint16, asc.TPosition.VECIN, 8192, 256)
    p = asc.GatherMaskParams(1, 1, 8, 0)
    if which == 0:
        asc.gather(h, h, oi, 0, 8)  # bad 0
    elif which == 1:
        asc.gather(h, f, o, 0, 8)  # bad 1
    elif which == 2:
        asc.gather(i8, i8, o, 0, 32)  # bad 2
    elif which == 3:
        asc.gatherb(h, h, o, 1, asc.GatherRepeatParams(1, 8))  # bad 3
    elif which == 4:
        asc.brcb(i8, i8, 1, asc.BrcbRepeatParams(1, 8))  # bad 4
    elif which == 5:
        asc.gather_mask(f, f, u16, False, 0, p)  # bad 5
    elif which == 6:
        asc.gather_mask(h, h, 9, False, 0, p)  # bad 6
    elif which == 7:
        asc.scatter(h, h, o, 0, 8)  # bad 7
    elif which == 8:
        asc.gather(h, h, o, 0, 128, 1)  # bad 8
    else:
        asc.gather_mask(h, h, 1, 2, 0, p)  # bad 9


@pytest.mark.parametrize("which, fragment", [
    (0, "uint32"), (1, "one element type"), (2, "element type int8"), (3, "element type float16"),
    (4, "element type int8"), (5, "uint32"), (6, "1 to 7"), (7, "not available on the Ascend910B"),
    (8, "missing argument"), (9, "reduce_mode must be a bool"),
])
def test_compile_errors(which: int, fragment: str) -> None:
    fails_at(gather_bad_kernel, (np.zeros(8, np.float32), which), f"# bad {which}", fragment, cls=asc.CompileError)


def test_ascendc() -> None:
    x = np.zeros(1024, np.int16)
    o = np.zeros(1024, np.uint32)
    gather_kernel[1](x, o, x.copy(), 1024, 1024, 1024, asc.int16, BITS, 0, 0, 3, 0, 1, 8)
    src = ascendc(gather_kernel)
    assert "uint64_t mask[2] = {" in src and "AscendC::Gather(zl, xl, ol," in src, src
    p = np.zeros(16, np.uint16)
    c = np.zeros(4, np.uint64)
    # (int16 data seen as uint16: a compilation no other test made, the cache's newest)
    gather_mask_kernel[1](x, p, x.copy(), c, 1024, 16, 1024, asc.uint16, 3, False, 0, 1, 1, 8, 0)
    src = ascendc(gather_mask_kernel)
    assert "AscendC::GatherMask(zl, xl, static_cast<uint8_t>(3), false, " in src and "AscendC::GetGatherMaskRemainCount()" \
        in src, src
    brcb_kernel[1](x[:64].copy(), x.copy(), 64, 1024, asc.int16, 1, 1, 8)
    assert "AscendC::Brcb(zl, xl, " in ascendc(brcb_kernel)
    g = np.zeros(64, np.uint32)
    gatherb_kernel[1](g, np.zeros(8, np.uint32), np.zeros(512, np.uint32), 64, 8, 512, 0, 1, 8)
    assert "AscendC::Gatherb(zl, xl, ol, " in ascendc(gatherb_kernel)
