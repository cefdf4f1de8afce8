"""The data movement forms on the simulator against NumPy byte models:
asc.data_copy with DataCopyParams (GM -> UB, UB -> GM, UB -> UB) and with
DataCopyEnhancedParams, asc.data_copy_pad (DataCopyExtParams /
DataCopyPadExtParams and DataCopyParams / DataCopyPadParams, GM -> UB with
paddings, UB -> GM byte-granular), asc.set_pad_value, and asc.copy (level
0: continuous and bit masks, strides, counter mode, is_set_mask=False).

Every kernel first fills its UB destination from a random background, so
the bytes a copy must not touch are checked too."""

from typing import Any, List

import numpy as np
import pytest

import asc

NP = {"int8": np.int8, "int16": np.int16, "float16": np.float16, "int32": np.int32, "float32": np.float32,
      "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "bfloat16": np.uint16}
UBN = 4096  # bytes of each UB tile


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([abs(hash(str(k))) % (2 ** 32) for k in key])


def rand(name: str, nbytes: int, rng: np.random.Generator) -> np.ndarray:
    t = NP[name]
    n = nbytes // np.dtype(t).itemsize
    if name == "bfloat16" or np.issubdtype(t, np.integer):
        info = np.iinfo(t)
        return rng.integers(info.min, info.max, n, endpoint=True).astype(t)
    return rng.standard_normal(n).astype(t)


def as_bytes(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8)


def all_ascendc(kernel: Any) -> List[str]:
    return [c.ascendc(line_comments=False) for c in kernel.cache.values()]


def dt_of(name: str) -> asc.DataType:
    return getattr(asc, name)


# ---------------------------------------------------------------------------
# data_copy with DataCopyParams
# ---------------------------------------------------------------------------

@asc.jit
def params_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, cnt: int, ln: int, ss: int, ds: int,
                  way: asc.ConstExpr[int], enhanced: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    n = UBN // x.dtype.sizeof()
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UBN, n)
    p = asc.DataCopyParams(cnt, ln, ss, ds)
    e = asc.DataCopyEnhancedParams()
    asc.data_copy(b, z_gm, n)  # the background
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)  # before MTE2 writes b again
    if way == 0:  # GM -> UB
        if enhanced:
            asc.data_copy(b, x_gm, p, e)
        else:
            asc.data_copy(b, x_gm, p)
    else:
        asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if way == 2:  # UB -> UB
        if enhanced:
            asc.data_copy(b, a, p, e)
        else:
            asc.data_copy(b, a, p)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    if way == 1:  # UB -> GM
        if enhanced:
            asc.data_copy(z_gm, a, p, e)
        else:
            asc.data_copy(z_gm, a, repeat_params=p)
    else:
        asc.data_copy(z_gm, b, n)


def params_ref(x: bytes, z: np.ndarray, cnt: int, ln: int, ss: int, ds: int) -> np.ndarray:
    out = z.copy()
    for k in range(cnt):
        out[k * (ln + ds) * 32:(k * (ln + ds) + ln) * 32] = x[k * (ln + ss) * 32:(k * (ln + ss) + ln) * 32]
    return out


GEOMS = [(1, 4, 0, 0), (3, 2, 1, 0), (4, 1, 0, 2), (5, 3, 2, 1), (2, 7, 0, 0)]


@pytest.mark.parametrize("enhanced", [False, True], ids=["params", "enhanced"])
@pytest.mark.parametrize("way", [0, 1, 2], ids=["gm_to_ub", "ub_to_gm", "ub_to_ub"])
@pytest.mark.parametrize("name", ["int8", "float16", "float32", "int32"])
def test_data_copy_params_against_numpy(name: str, way: int, enhanced: bool) -> None:
    for geom in GEOMS:
        rng = rng_for("params", name, way, geom)
        x = rand(name, UBN, rng)
        z = rand(name, UBN, rng)
        expect = params_ref(as_bytes(x), as_bytes(z), *geom)
        params_kernel[1](x, z, *geom, way, enhanced)
        np.testing.assert_array_equal(as_bytes(z), expect, err_msg=f"{geom}")


def test_data_copy_params_zero_count_is_nop_and_range_checked() -> None:
    x = np.arange(UBN // 4, dtype=np.int32)
    z = np.full(UBN // 4, 7, np.int32)
    params_kernel[1](x, z, 0, 4, 0, 0, 0, False)
    assert (z == 7).all()
    with pytest.raises(asc.KernelError, match="blockCount 4096 is out of range"):
        params_kernel[1](x, z, 4096, 1, 0, 0, 0, False)


def test_data_copy_params_gm_overrun_is_kernel_error() -> None:
    x = np.zeros(64, np.float32)  # 256 bytes: 9 blocks of 32 do not fit
    z = np.zeros(UBN // 4, np.float32)
    with pytest.raises(asc.KernelError, match="GM access out of bounds"):
        params_kernel[1](x, z, 9, 1, 0, 0, 0, False)


# ---------------------------------------------------------------------------
# data_copy_pad
# ---------------------------------------------------------------------------

@asc.jit
def pad_in_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, off: int, cnt: int, blen: int, ss: int, ds: int,
                  left: int, right: int, is_pad: asc.ConstExpr[bool], value: asc.ConstExpr[Any],
                  ext: asc.ConstExpr[bool], set_pad: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + off)
    z_gm.set_global_buffer(z)
    n = UBN // x.dtype.sizeof()
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(b, z_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    if set_pad == 1:
        asc.set_pad_value(value)
    elif set_pad == 2:
        asc.set_pad_value(x_gm.get_value(0), asc.TPosition.VECIN)
    if ext:
        asc.data_copy_pad(b, x_gm, asc.DataCopyExtParams(cnt, blen, ss, ds, 0),
                          asc.DataCopyPadExtParams(x.dtype, is_pad, left, right, value))
    else:
        asc.data_copy_pad(b, x_gm, asc.DataCopyParams(cnt, blen, ss, ds),
                          asc.DataCopyPadParams(is_pad, left, right, 0x0102030405060708))
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(z_gm, b, n)


def pad_in_ref(x: np.ndarray, z: np.ndarray, cnt: int, blen: int, ss: int, ds: int, left: int, right: int,
               pad: bytes) -> np.ndarray:
    """blen bytes; left/right in elements; pad: the pad value's bytes (one element)."""
    es = len(pad)
    out = z.copy()
    row = left * es + blen + right * es
    row32 = (row + 31) // 32 * 32
    for k in range(cnt):
        o = k * (row32 + ds * 32)
        data = x[k * (blen + ss):k * (blen + ss) + blen]
        line = np.frombuffer(pad * (row32 // es + 1), np.uint8)[:row32].copy()
        line[left * es:left * es + blen] = data
        if left == 0 and right == 0:
            for i in range(row, row32, es):
                line[i:i + es] = data[:es][:row32 - i]
        out[o:o + row32] = line
    return out


PAD_GEOMS = [  # cnt, blen elements, src stride bytes, dst stride blocks, left, right
    (1, 5, 0, 0, 0, 0), (3, 7, 4, 1, 0, 0), (2, 8, 0, 0, 2, 3), (4, 3, 12, 0, 1, 0), (2, 16, 0, 2, 0, 8),
    (1, 1, 0, 0, 0, 0),
]


def bits_of(name: str, value: float) -> bytes:
    t = NP[name]
    if name == "bfloat16":
        f = np.array([value], np.float32).view(np.uint32)
        return np.array([(f[0] + 0x7FFF + ((f[0] >> 16) & 1)) >> 16], np.uint16).tobytes()
    return np.array([value], t).tobytes()


@pytest.mark.parametrize("name", ["int8", "int16", "float16", "float32", "int32", "uint8", "uint32"])
def test_data_copy_pad_gm_to_ub_ext_against_numpy(name: str) -> None:
    es = np.dtype(NP[name]).itemsize
    for geom in PAD_GEOMS:
        cnt, blen, ss, ds, left, right = geom
        if (left + right) * es > 32 + 32 or left * es > 32 or right * es > 32:
            continue
        rng = rng_for("pad", name, geom)
        x = rand(name, UBN, rng)
        z = rand(name, UBN, rng)
        value = 3.0 if name.startswith("float") else 3
        expect = pad_in_ref(as_bytes(x), as_bytes(z), cnt, blen * es, ss, ds, left, right, bits_of(name, value))
        pad_in_kernel[1](x, z, 0, cnt, blen * es, ss, ds, left, right, True, value, True, 0)
        np.testing.assert_array_equal(as_bytes(z), expect, err_msg=f"{geom}")


@pytest.mark.parametrize("name", ["int8", "float16", "int32"])
def test_data_copy_pad_gm_to_ub_params_form(name: str) -> None:
    es = np.dtype(NP[name]).itemsize
    rng = rng_for("padp", name)
    x = rand(name, UBN, rng)
    z = rand(name, UBN, rng)
    raw = (0x0102030405060708).to_bytes(8, "little")[:es]  # DataCopyPadParams' value: raw bits
    expect = pad_in_ref(as_bytes(x), as_bytes(z), 3, 5 * es, 2, 1, 1, 2, raw)
    pad_in_kernel[1](x, z, 0, 3, 5 * es, 2, 1, 1, 2, True, 0.0, False, 0)
    np.testing.assert_array_equal(as_bytes(z), expect)


@pytest.mark.parametrize("name,value", [("float32", 2.5), ("int32", 7), ("int16", 2.5)])
def test_set_pad_value_fills_when_is_pad_false(name: str, value: Any) -> None:
    rng = rng_for("setpad", name)
    x = rand(name, UBN, rng)
    z = rand(name, UBN, rng)
    # set_pad_value(value): a Python float is a float32 (an int an int32): a narrower copy pads with
    # the low bytes of its bits
    es = np.dtype(NP[name]).itemsize
    bits = np.array([value], np.float32 if isinstance(value, float) else np.int32).tobytes()[:es]
    expect = pad_in_ref(as_bytes(x), as_bytes(z), 2, 12, 0, 0, 1, 2, bits)
    pad_in_kernel[1](x, z, 0, 2, 12, 0, 0, 1, 2, False, value if name != "int16" else 0, True, 1)
    # (is_pad False: the DataCopyPadExtParams value is not used)
    np.testing.assert_array_equal(as_bytes(z), expect)


def test_set_pad_value_typed_runtime_scalar() -> None:
    x = np.arange(1, 1 + UBN // 2, dtype=np.float16)
    z = np.zeros(UBN // 2, np.float16)
    # the pad value is x_gm[0] (1.0 as half), read at run time
    expect = pad_in_ref(as_bytes(x), as_bytes(z), 2, 6, 0, 0, 2, 1, np.float16(1.0).tobytes())
    pad_in_kernel[1](x, z, 0, 2, 6, 0, 0, 2, 1, False, 0.0, True, 2)
    np.testing.assert_array_equal(as_bytes(z), expect)


def test_data_copy_pad_from_an_odd_gm_address() -> None:
    x = np.arange(256, dtype=np.uint8).astype(np.int8)
    z = np.zeros(UBN, np.int8)
    expect = pad_in_ref(as_bytes(x)[3:], as_bytes(z), 2, 5, 1, 0, 0, 0, b"\x00")
    pad_in_kernel[1](x, z, 3, 2, 5, 1, 0, 0, 0, True, 0, True, 0)
    np.testing.assert_array_equal(as_bytes(z), expect)


@asc.jit
def pad_out_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, off: int, cnt: int, blen: int, ss: int, ds: int,
                   ext: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z + off)
    n = UBN // x.dtype.sizeof()
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if ext:
        asc.data_copy_pad(z_gm, a, asc.DataCopyExtParams(cnt, blen, ss, ds, 0))
    else:
        asc.data_copy_pad(z_gm, a, asc.DataCopyParams(cnt, blen, ss, ds))


def pad_out_ref(ub: np.ndarray, z: np.ndarray, off: int, cnt: int, blen: int, ss: int, ds: int) -> np.ndarray:
    out = z.copy()
    step = (blen + 31) // 32 * 32 + ss * 32
    for k in range(cnt):
        o = off + k * (blen + ds)
        out[o:o + blen] = ub[k * step:k * step + blen]
    return out


@pytest.mark.parametrize("ext", [True, False], ids=["ext", "params"])
@pytest.mark.parametrize("name", ["int8", "float16", "float32", "int32"])
def test_data_copy_pad_ub_to_gm_against_numpy(name: str, ext: bool) -> None:
    es = np.dtype(NP[name]).itemsize
    for cnt, blen, ss, ds, off in [(1, 5, 0, 0, 0), (3, 7, 1, 3, 1), (4, 9, 0, 0, 2), (2, 16, 2, 5, 0)]:
        rng = rng_for("padout", name, cnt, blen)
        x = rand(name, UBN, rng)
        z = rand(name, UBN, rng)
        expect = pad_out_ref(as_bytes(x), as_bytes(z), off * es, cnt, blen * es, ss, ds * es)
        pad_out_kernel[1](x, z, off, cnt, blen * es, ss, ds * es, ext)
        np.testing.assert_array_equal(as_bytes(z), expect, err_msg=f"{(cnt, blen, ss, ds, off)}")


def test_data_copy_pad_errors_at_run_time() -> None:
    x = np.zeros(UBN // 4, np.float32)
    z = np.zeros(UBN // 4, np.float32)
    with pytest.raises(asc.KernelError, match="blockLen 6 is not a multiple of the 4-byte element size"):
        pad_out_kernel[1](x, z, 0, 1, 6, 0, 0, True)
    with pytest.raises(asc.KernelError, match="leftPadding and rightPadding take at most 32 bytes"):
        pad_in_kernel[1](x, z, 0, 1, 8, 0, 0, 9, 0, True, 1.0, True, 0)
    with pytest.raises(asc.KernelError, match="blockLen 65536 is out of range"):
        pad_out_kernel[1](x, z, 0, 1, 65536, 0, 0, False)
    before = z.copy()
    pad_out_kernel[1](x + 1, z, 0, 0, 8, 0, 0, True)  # block_count 0: a NOP
    np.testing.assert_array_equal(z, before)


# ---------------------------------------------------------------------------
# copy (level 0)
# ---------------------------------------------------------------------------

@asc.jit
def copy_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, mask: asc.ConstExpr[Any], rep: int, ds: int, ss: int,
                drs: int, srs: int, mode: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    n = UBN * 4 // x.dtype.sizeof()
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, UBN * 4, n)
    asc.data_copy(a, x_gm, n)
    asc.data_copy(b, z_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    p = asc.CopyRepeatParams(ds, ss, drs, srs)
    if mode == 0:
        asc.copy(b, a, mask, rep, p)
    elif mode == 1:  # counter mode: the register counts each repeat's elements
        asc.set_mask_count()
        asc.set_vector_mask(mask, dtype=x.dtype, mode=asc.MaskMode.COUNTER)
        asc.copy(b, a, 0, rep, p, is_set_mask=False)
        asc.set_mask_norm()
    else:  # the mask register set before, is_set_mask False
        asc.set_vector_mask(mask[1], mask[0], dtype=x.dtype)
        asc.copy(b, a, [0, 0], rep, p, is_set_mask=False)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, b, n)


def copy_ref(x: np.ndarray, z: np.ndarray, enabled: List[int], rep: int, ds: int, ss: int, drs: int,
             srs: int) -> np.ndarray:
    pb = 32 // x.itemsize
    out = z.copy()
    for r in range(rep):
        for i in enabled:
            out[(r * drs + i // pb * ds) * pb + i % pb] = x[(r * srs + i // pb * ss) * pb + i % pb]
    return out


def enabled_of(mask: Any, per_repeat: int) -> List[int]:
    if isinstance(mask, list):
        bits = mask[0] | (mask[1] << 64)
        return [i for i in range(per_repeat) if (bits >> i) & 1]
    return list(range(min(mask, per_repeat)))


COPY_CASES = [  # mask, repeat, dst_stride, src_stride, dst_repeat_size, src_repeat_size
    (64, 4, 1, 1, 8, 8), (128, 2, 1, 1, 8, 8), (8, 18, 1, 1, 1, 8), (37, 3, 2, 1, 16, 8),
    ([0x5555_0000_FFFF_000F, 0x8000_0000_0000_0001], 2, 1, 3, 8, 24), ([0xF0, 0], 5, 1, 1, 0, 1),
]


@pytest.mark.parametrize("name", ["int16", "uint16", "float16", "int32", "uint32", "float32"])
def test_copy_against_numpy(name: str) -> None:
    es = 2 if name in ("int16", "uint16", "float16", "bfloat16") else 4
    for case in COPY_CASES:
        mask, rep, ds, ss, drs, srs = case
        rng = rng_for("copy", name, str(case))
        x = rand(name, UBN * 4, rng)
        z = rand(name, UBN * 4, rng)
        expect = copy_ref(x, z, enabled_of(mask, 256 // es), rep, ds, ss, drs, srs)
        copy_kernel[1](x, z, mask, rep, ds, ss, drs, srs, 0)
        np.testing.assert_array_equal(z, expect, err_msg=f"{case}")


@pytest.mark.parametrize("name", ["float16", "int32"])
def test_copy_counter_mode_counts_each_repeat(name: str) -> None:
    rng = rng_for("copyc", name)
    x = rand(name, UBN * 4, rng)
    z = rand(name, UBN * 4, rng)
    per_block = 32 // np.dtype(NP[name]).itemsize
    count = 18 * per_block - 3  # 18 blocks in one repeat, the last partial (the devkit's example)
    expect = copy_ref(x, z, list(range(count)), 2, 1, 8, 20, 160)
    copy_kernel[1](x, z, count, 2, 1, 8, 20, 160, 1)
    np.testing.assert_array_equal(z, expect)


def test_copy_with_the_mask_register() -> None:
    rng = rng_for("copyreg")
    x = rand("float32", UBN * 4, rng)
    z = rand("float32", UBN * 4, rng)
    mask = [0x00FF_00FF_0000_F00F, 0]
    expect = copy_ref(x, z, enabled_of(mask, 64), 3, 1, 1, 8, 8)
    copy_kernel[1](x, z, mask, 3, 1, 1, 8, 8, 2)
    np.testing.assert_array_equal(z, expect)


def test_copy_repeat_zero_is_nop_and_strides_checked() -> None:
    x = np.arange(UBN, dtype=np.float32)
    z = np.zeros(UBN, np.float32)
    copy_kernel[1](x, z, 64, 0, 1, 1, 8, 8, 0)
    assert not z.any()
    with pytest.raises(asc.KernelError, match="dstRepeatSize 4096 is out of range"):
        copy_kernel[1](x, z, 64, 1, 1, 1, 4096, 8, 0)


# ---------------------------------------------------------------------------
# errors at compile time, forms not implemented, Ascend C
# ---------------------------------------------------------------------------

def _compile(body: Any, dtype: Any = np.float32) -> None:
    body[1](np.zeros(256, dtype), np.zeros(256, dtype))


def test_copy_dtype_and_argument_errors() -> None:
    @asc.jit
    def k8(x: asc.GlobalAddress, z: asc.GlobalAddress):
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.copy(a, a, 64, 1, asc.CopyRepeatParams(1, 1, 8, 8))
    with pytest.raises(asc.CompileError, match="asc.copy does not support element type int8"):
        _compile(k8, np.int8)

    @asc.jit
    def krep(x: asc.GlobalAddress, z: asc.GlobalAddress):
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.copy(a, a, 64, 256, asc.CopyRepeatParams(1, 1, 8, 8))
    with pytest.raises(asc.CompileError, match="repeat_time = 256 is out of range"):
        _compile(krep)

    @asc.jit
    def kparams(x: asc.GlobalAddress, z: asc.GlobalAddress):
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.copy(a, a, 64, 1, asc.UnaryRepeatParams())
    with pytest.raises(asc.CompileError, match="repeat_params must be an asc.CopyRepeatParams"):
        _compile(kparams)


def test_data_copy_pad_compile_errors() -> None:
    @asc.jit
    def kmix(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy_pad(a, g, asc.DataCopyExtParams(1, 8, 0, 0, 0), asc.DataCopyPadParams())
    with pytest.raises(asc.CompileError, match="pad_params must be an asc.DataCopyPadExtParams"):
        _compile(kmix)

    @asc.jit
    def kdt(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy_pad(a, g, asc.DataCopyExtParams(1, 8, 0, 0, 0), asc.DataCopyPadExtParams(asc.int32))
    with pytest.raises(asc.CompileError, match="DataCopyPadExtParams of int32 but the tensors are float32"):
        _compile(kdt)

    @asc.jit
    def kmiss(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy_pad(a, g, asc.DataCopyExtParams(1, 8, 0, 0, 0))
    with pytest.raises(asc.CompileError, match="missing `pad_params`"):
        _compile(kmiss)

    @asc.jit
    def kpos(x: asc.GlobalAddress, z: asc.GlobalAddress):
        asc.set_pad_value(1.0, asc.TPosition.VECCALC)
    with pytest.raises(asc.CompileError, match="pos must be TPosition.MAX, VECIN or VECOUT"):
        _compile(kpos)


def test_data_copy_compile_errors_and_not_implemented_forms() -> None:
    @asc.jit
    def kwrong(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy(a, g, asc.DataCopyPadParams())
    with pytest.raises(asc.CompileError, match="takes a count, an asc.DataCopyParams"):
        _compile(kwrong)

    @asc.jit
    def kslice(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy(a, g, [asc.SliceInfo()], [asc.SliceInfo()], 1)
    # family slice: the SliceInfo form is implemented (test_data_copy_slice.py); shape_value 0 takes the
    # tensors' ShapeInfo, which these never set
    with pytest.raises(asc.KernelError, match="ShapeInfo"):
        _compile(kslice)

    @asc.jit
    def knd(x: asc.GlobalAddress, z: asc.GlobalAddress):
        g = asc.GlobalTensor()
        g.set_global_buffer(x)
        a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 256)
        asc.data_copy(a, g, asc.Nd2NzParams(1, 1, 16, 0, 16, 1, 1, 0))
    # family: cube: the Nd2NzParams form copies GM -> L1 (test_cube.py) and, into the UB, runs the devkit's
    # software ND2NZ copy (test_cube_forms.py)
    _compile(knd)


def test_ascendc_of_the_forms() -> None:
    x = np.zeros(UBN // 4, np.float32)
    params_kernel[1](x, x.copy(), 1, 1, 0, 0, 0, True)
    params_kernel[1](x, x.copy(), 1, 1, 0, 0, 1, False)
    srcs = "\n".join(all_ascendc(params_kernel))
    assert "AscendC::DataCopy(b, x_gm, AscendC::DataCopyParams(" in srcs
    assert "AscendC::DataCopyEnhancedParams(" in srcs
    pad_in_kernel[1](x, x.copy(), 0, 1, 8, 0, 0, 0, 0, False, 2.0, True, 1)
    pad_in_kernel[1](x, x.copy(), 0, 1, 8, 0, 0, 0, 0, False, 2.0, False, 0)
    pad_in_kernel[1](x, x.copy(), 0, 1, 8, 0, 0, 0, 0, False, 2.0, True, 2)
    srcs = "\n".join(all_ascendc(pad_in_kernel))
    assert "AscendC::SetPadValue<float>(static_cast<float>(2.0" in srcs
    assert "AscendC::SetPadValue<float, AscendC::TPosition::VECIN>(" in srcs
    assert "AscendC::DataCopyPad(b, x_gm, AscendC::DataCopyExtParams(" in srcs
    assert "AscendC::DataCopyPadExtParams<float>(" in srcs and "AscendC::DataCopyPadParams(" in srcs
    xs = np.zeros(UBN, np.float32)
    copy_kernel[1](xs, xs.copy(), [1, 0], 1, 1, 1, 8, 8, 2)
    srcs = "\n".join(all_ascendc(copy_kernel))
    assert "AscendC::Copy(b, a, 64" in srcs or "AscendC::Copy(b, a, static_cast<uint64_t>" in srcs
    assert "AscendC::Copy<float, false>(b, a, " in srcs and "AscendC::CopyRepeatParams(" in srcs


# ---------------------------------------------------------------------------
# strided GM writes of several blocks: the sanitizer looks at the rows
# ---------------------------------------------------------------------------

@asc.jit
def columns_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, rows: int, cols: int, width: int,
                   overlap: asc.ConstExpr[bool], params: asc.ConstExpr[bool]):
    # block i writes columns [i * cols, (i + 1) * cols) of a rows x width matrix (overlap: all write 0..cols)
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    col = 0 if overlap else asc.get_block_idx() * cols
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z + col)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, UBN // 4)
    asc.data_copy(a, x_gm, UBN // 4)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if params:  # whole 32-byte units: DataCopyParams strides
        asc.data_copy(z_gm, a, asc.DataCopyParams(rows, cols // 8, 0, (width - cols) // 8))
    else:
        asc.data_copy_pad(z_gm, a, asc.DataCopyExtParams(rows, cols * 4, 0, (width - cols) * 4, 0))


@pytest.mark.parametrize("params", [False, True], ids=["data_copy_pad", "data_copy"])
def test_blocks_writing_interleaved_rows_do_not_race(params: bool) -> None:
    rows, cols, blocks = 6, 8, 3
    width = cols * blocks
    x = np.arange(UBN // 4, dtype=np.float32)
    z = np.full(rows * width, -1, np.float32)
    columns_kernel[blocks](x, z, rows, cols, width, False, params, sanitize="error")
    step = (cols + 7) // 8 * 8  # each UB row is rounded up to 32 bytes
    expect = np.vstack([x[r * step:r * step + cols] for r in range(rows)])
    for b in range(blocks):
        np.testing.assert_array_equal(z.reshape(rows, width)[:, b * cols:(b + 1) * cols], expect)
    with pytest.raises(asc.SanitizerError, match="data race on GM between blocks 0 and 1"):
        columns_kernel[blocks](x, z, rows, cols, width, True, params, sanitize="error")
