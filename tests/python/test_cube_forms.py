"""The basic cube API's remaining sub-forms (arch 2201):

- asc.data_copy(dst_ub, src_gm, asc.Nd2NzParams(...)): the devkit's software ND2NZ copy into UB
  (DataCopyGM2UBND2NZImpl, a loop of DataCopyPad GM -> UB), against a NumPy model of that loop and, for the
  plain cases, against the NZ layout directly; each DataCopyPad an MTE2 event of its own;
- asc.data_copy from L0C into L1 with nz2nd_en (no effect on the Ascend910B: NZ kept), relu_pre 2 and the
  vector quant modes (NotImplementedError: upstream cannot set the registers they read);
- asc.load_data 3-D of an 8-bit type with en_transpose (not supported on the Ascend910B: a CompileError).
"""

from typing import Any, Tuple

import numpy as np
import pytest
from kernels_util import ascendc

import asc

# ---- DataCopy GM -> UB with Nd2NzParams -------------------------------------------------------------------


@asc.jit
def nd2nz_ub_kernel(z: asc.GlobalAddress, x: asc.GlobalAddress, nd: int, n: int, d: int, smat: int, sd: int,
                    c0s: int, ns: int, dmat: int, total: asc.ConstExpr[int]):
    """UB <- z (the pattern), then UB <- x by Nd2NzParams, then z <- UB (total elements)."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.VECIN, 1)
    pipe.init_buffer(q, 1, total * 4)
    t = q.alloc_tensor(x.dtype)
    asc.data_copy(t, zg, total)
    asc.pipe_barrier(asc.PipeID.PIPE_MTE2)
    asc.data_copy(t, xg, asc.Nd2NzParams(nd, n, d, smat, sd, c0s, ns, dmat))  # the nd2nz line
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, t, total)


def pad_copy(ub: np.ndarray, gm: np.ndarray, doff: int, soff: int, cnt: int, length: int, sstride: int,
             dstride: int, es: int) -> None:
    """DataCopyPad GM -> UB without padding, in bytes: cnt rows of length bytes, GM rows length + sstride
    apart, UB rows the length rounded up to 32 plus dstride blocks apart; the rounding's bytes repeat the row's
    first element."""
    row32 = -(-length // 32) * 32
    for b in range(cnt):
        o = doff + b * (row32 + dstride * 32)
        s = soff + b * (length + sstride)
        ub[o:o + length] = gm[s:s + length]
        for i in range(length, row32, es):
            ub[o + i:o + min(i + es, row32)] = ub[o:o + min(es, row32 - i)]


def devkit_loop(ub: np.ndarray, gm: np.ndarray, es: int, f32: bool, nd: int, n: int, d: int, smat: int, sd: int,
                c0s: int, ns: int, dmat: int) -> int:
    """The devkit's DataCopyGM2UBND2NZImpl as written (uint16 offsets, the matrix offsets not multiplied by
    the matrix index, a run of 255 rows advancing the source by 255 * d): the byte image of the UB after it;
    returns the number of DataCopyPads."""
    c0 = 16 if f32 else 32 // es
    copies = 0
    for _ in range(nd):
        for b in range(-(-d // c0)):
            w = c0 if d >= (b + 1) * c0 else d % c0
            length = (w * es) & 0xFFFF
            sstride = (sd * es - length) & 0xFFFFFFFF
            if not f32:
                v = ns - 32
                dstride = (abs(v) // 32 * (1 if v >= 0 else -1)) & 0xFFFFFFFF
            elif w < c0:
                dstride = (c0 - w) * 4 // 32
            else:
                dstride = (((ns * 32 - 64) % (1 << 64)) // 32) & 0xFFFFFFFF
            s0, d0 = (b * c0) & 0xFFFF, (b * c0s * (32 // es)) & 0xFFFF
            reps, tail = divmod(n, 255)
            for r in range(reps + 1):
                cnt = 255 if r < reps else tail
                if not cnt:
                    continue
                de = dmat + d0 + (r * ((255 * c0) & 0xFFFF) if r < reps else reps * 255 * c0)
                se = smat + s0 + (r * ((255 * d) & 0xFFFF) if r < reps else reps * 255 * d)
                pad_copy(ub, gm, de * es, se * es, cnt, length, sstride, dstride, es)
                copies += 1
    return copies


def run_nd2nz(dtype: Any, params: Tuple[int, ...], total: int, src_len: int, seed: int = 0) -> Tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    x = (rng.integers(info.min, info.max, src_len, endpoint=True) if info else
         rng.standard_normal(src_len)).astype(dtype)
    z = (np.arange(total) % 97 + 1).astype(dtype)
    want = z.view(np.uint8).copy()
    es = np.dtype(dtype).itemsize
    devkit_loop(want, x.view(np.uint8), es, dtype == np.float32, *params)
    # nd_num > 1: the devkit's copies of each iteration write the same bytes again, unordered within MTE2,
    # which the sanitizer rightly reports (test_the_repeated_matrices_race_within_mte2)
    nd2nz_ub_kernel[1](z, x, *params, total, sanitize="error" if params[0] == 1 else "off")
    return z, want.view(dtype)


def row_pitch(es: int, f32: bool, ns: int) -> int:
    """The UB bytes between the rows of a whole column block."""
    if f32:
        return ns * 32
    v = ns - 32
    return 32 + (abs(v) // 32 * (1 if v >= 0 else -1)) * 32


DTYPES = [np.int8, np.uint8, np.float16, np.int16, np.uint16, np.int32, np.uint32, np.float32]


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_matrix_is_the_nz_layout(dtype: Any) -> None:
    """nd 1, d a whole number of C0 columns: element (r, c) lands in column block c // C0 at
    dst_nz_c0_stride * 32 bytes per block, its rows one 32-byte block apart (float: C0 16, rows of 64 bytes,
    dst_nz_n_stride 2)."""
    es = np.dtype(dtype).itemsize
    f32 = dtype == np.float32
    c0 = 16 if f32 else 32 // es
    n, d, sd = 20, 2 * c0, 2 * c0 + 3
    c0s = (n * c0 * es) // 32 + 1  # a gap of one block between the column blocks
    ns = 2 if f32 else 1
    total = 2 * c0s * 32 // es + 64
    z, want = run_nd2nz(dtype, (1, n, d, 0, sd, c0s, ns, 0), total, n * sd + 64)
    np.testing.assert_array_equal(z, want)
    x = np.random.default_rng(0)  # the same source again, read directly
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    src = (x.integers(info.min, info.max, n * sd + 64, endpoint=True) if info else
           x.standard_normal(n * sd + 64)).astype(dtype)
    for r in range(n):
        for c in range(d):
            at = (c // c0) * c0s * 32 // es + r * c0 + c % c0
            assert z[at] == src[r * sd + c], (r, c)


CASES = [  # nd, n, d, smat, sd, c0s, ns, dmat
    (1, 5, 7, 0, 9, 2, 1, 0),          # a partial block: its rows padded to 32 bytes with their first element
    (1, 16, 40, 0, 40, 16, 1, 0),      # two blocks, the second partial
    (3, 4, 16, 8, 16, 4, 1, 64),       # three matrices: all the one at smat, written at dmat
    (1, 3, 16, 0, 16, 3, 70, 0),       # dst_nz_n_stride 70: a UB row stride of (70 - 32) / 32 = 1 block
    (1, 260, 8, 0, 12, 300, 1, 0),     # 260 rows: a run of 255 and one of 5, the second from 255 * d
]


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.int32, np.float32])
@pytest.mark.parametrize("case", CASES)
def test_the_devkit_loop(dtype: Any, case: Tuple[int, ...]) -> None:
    es = np.dtype(dtype).itemsize
    nd, n, d, smat, sd, c0s, ns, dmat = case
    if dtype == np.float32:
        ns = max(ns, 2)  # 1 gives the float copy a UB row stride of 0xFFFFFFFF blocks (a KernelError)
    pitch = row_pitch(es, dtype == np.float32, ns)
    c0s = max(c0s, -(-n * max(pitch, 64) // 32))  # the column blocks apart (else they overlap: a race)
    params = (nd, n, d, smat, sd, c0s, ns, dmat)
    c0 = 16 if dtype == np.float32 else 32 // es
    blocks = -(-d // c0)
    end = dmat * es + (blocks - 1) * c0s * 32 + n * max(pitch, 64) + 4096
    total = -(-end // es // 16) * 16
    z, want = run_nd2nz(dtype, params, total, smat + n * max(sd, d) + 255 * d + 64, seed=3)
    np.testing.assert_array_equal(z.view(np.uint8), want.view(np.uint8))


def test_the_matrix_offsets_are_not_multiplied_by_the_index() -> None:
    """The devkit fact directly: with nd_num 2 the second matrix of GM is never read."""
    x = np.arange(1, 65, dtype=np.int16)
    z = np.zeros(512, np.int16)
    nd2nz_ub_kernel[1](z, x, 2, 2, 16, 32, 16, 1, 1, 256, 512, sanitize="off")
    np.testing.assert_array_equal(z[256:288], x[32:64])  # the matrix at smat 32, rows 32 bytes apart
    assert not z[:256].any() and not z[288:].any()


def test_the_repeated_matrices_race_within_mte2() -> None:
    """nd_num 2: the second iteration's DataCopyPads write the first one's bytes again, with nothing ordering
    them within MTE2 (the devkit's code has no barrier): the sanitizer says so."""
    with pytest.raises(asc.SanitizerError, match="within pipe MTE2"):
        nd2nz_ub_kernel[1](np.zeros(512, np.int16), np.arange(64, dtype=np.int16), 2, 2, 16, 0, 16, 1, 1, 0, 512,
                           sanitize="error")


def test_zero_rows_or_matrices_write_nothing() -> None:
    for params in [(0, 4, 16, 0, 16, 1, 1, 0), (1, 0, 16, 0, 16, 1, 1, 0), (1, 4, 0, 0, 16, 1, 1, 0)]:
        z = np.full(256, 5, np.float16)
        nd2nz_ub_kernel[1](z, np.ones(64, np.float16), *params, 256)
        assert (z == 5).all(), params


def test_each_datacopypad_is_an_event() -> None:
    from asc.profiler.data import KINDS, PIPES
    line = next(i + 1 for i, s in enumerate(open(__file__).read().splitlines()) if "# the nd2nz line" in s)
    counts = {}
    for nd in (1, 3):
        with asc.profile() as prof:
            nd2nz_ub_kernel[1](np.zeros(2048, np.float16), np.ones(1024, np.float16), nd, 20, 40, 0, 40, 24, 1,
                               0, 2048, sanitize="off")
        lp = prof.last
        recs = [x for blk in lp.blocks for x in blk.records
                if KINDS[x["kind"]] == "op" and lp.sites[x["site"]].line == line]
        assert {PIPES[x["pipe"]] for x in recs} == {"MTE2"}
        counts[nd] = len(recs)
    # three column blocks of 16 (the last 8 wide), one run of rows each, per matrix
    assert counts == {1: 3, 3: 9}, counts


@pytest.mark.parametrize("params,fragment", [
    ((1, 4, 16, 0, 0, 1, 1, 0), "srcDValue 0 is out of range"),
    ((1, 4, 16, 0, 16, 0, 1, 0), "dstNzC0Stride 0 is out of range"),
    ((1, 16385, 16, 0, 16, 1, 1, 0), "nValue 16385 is out of range"),
    ((1, 64, 16, 0, 16, 1, 1, 0), "dst"),                # 64 rows of 32 bytes past the 1 KiB tensor
])
def test_devkit_checks_are_kernel_errors(params: Tuple[int, ...], fragment: str) -> None:
    with pytest.raises(asc.KernelError, match=fragment):
        nd2nz_ub_kernel[1](np.zeros(256, np.float16), np.ones(4096, np.float16), *params, 256, sanitize="error")


def test_float_with_n_stride_1_overruns() -> None:
    """The float specialisation's UB row stride for dst_nz_n_stride 1: (32 - 64) / 32 in size_t, 0xFFFFFFFF
    blocks: the second row lies far past the UB."""
    with pytest.raises(asc.KernelError, match="dst"):
        nd2nz_ub_kernel[1](np.zeros(1024, np.float32), np.ones(1024, np.float32), 1, 2, 16, 0, 16, 4, 1, 0, 1024)


def test_nd2nz_ub_ascendc() -> None:
    src = ascendc(nd2nz_ub_kernel)
    assert "AscendC::DataCopy(" in src and "AscendC::Nd2NzParams(" in src


# ---- DataCopy from L0C: nz2nd_en into L1, relu_pre 2, vector quant -----------------------------------------


@pytest.mark.parametrize("relu", [0, 1])
def test_nz2nd_en_into_l1_has_no_effect_on_910b(relu: int) -> None:
    """The devkit's DataCopy (L0C to L1) page: nz2ndEn takes effect on the Ascend 950 only; on the Atlas A2
    the copy writes NZ either way (test_cube_fixpipe's L0C -> L1 -> L0A round trip, with nz2nd_en)."""
    from test_cube_fixpipe import Q, co12_kernel, operands, reference
    m, n, k = 20, 32, 16
    a, bt, acc = operands(asc.float16, m, n, k)
    want = reference(acc, Q.F322F16, np.zeros((1, n), np.uint64), bool(relu), np.float16).astype(np.float32)
    n1 = (n + 15) // 16
    eye = np.eye(n1 * 16, dtype=np.float16)
    eye_nz = eye.reshape(n1 * 16, n1, 16).transpose(1, 0, 2).reshape(-1)
    c = np.zeros((m, n), np.float32)
    co12_kernel[1](a, bt, c, eye_nz, m, n, k, asc.float16, asc.float16, Q.F322F16, 0, relu, 2, False, True,
                   sanitize="error")
    assert (c == want).all()


# ---- DataCopy L1 -> GM (copy_cbuf_to_gm, MTE3) --------------------------------------------------------------


@asc.jit
def l1_to_gm_kernel(z: asc.GlobalAddress, x: asc.GlobalAddress, how: asc.ConstExpr[int], cnt: int, blen: int,
                    sgap: int, dgap: int):
    """x -> L1 (count), then L1 -> z: how 0 by count (cnt elements), 1 by DataCopyParams, 2 the enhanced form."""
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg = asc.GlobalTensor()
    zg.set_global_buffer(z)
    pipe = asc.TPipe()
    q = asc.TQue(asc.TPosition.B1, 1)
    pipe.init_buffer(q, 1, 4096)
    t = q.alloc_tensor(x.dtype)
    asc.data_copy(t, xg, 4096 // x.dtype.sizeof())
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if how == 0:
        asc.data_copy(zg, t, cnt)
    if how == 1:
        asc.data_copy(zg, t, asc.DataCopyParams(cnt, blen, sgap, dgap))
    if how == 2:
        asc.data_copy(zg, t, asc.DataCopyParams(cnt, blen, sgap, dgap), asc.DataCopyEnhancedParams())


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32])
def test_l1_to_gm_by_count(dtype: Any) -> None:
    x = np.arange(4096 // np.dtype(dtype).itemsize).astype(dtype)
    n = 96 // np.dtype(dtype).itemsize + 3  # not whole blocks: rounded down to 96 bytes
    z = np.full(x.size, 9, dtype)
    with pytest.warns(Warning, match="misaligned length"):
        l1_to_gm_kernel[1](z, x, 0, n, 0, 0, 0, sanitize="error")
    k = 96 // np.dtype(dtype).itemsize
    np.testing.assert_array_equal(z[:k], x[:k])
    assert (z[k:] == 9).all()


@pytest.mark.parametrize("how", [1, 2])
def test_l1_to_gm_by_params(how: int) -> None:
    """3 blocks of 2 x 32 bytes, 1 block skipped in L1 and 2 in GM between them."""
    x = np.arange(1024, dtype=np.float32)
    z = np.zeros(1024, np.float32)
    l1_to_gm_kernel[1](z, x, how, 3, 2, 1, 2, sanitize="error")
    want = np.zeros(1024, np.float32)
    for b in range(3):
        want[b * 32:b * 32 + 16] = x[b * 24:b * 24 + 16]
    np.testing.assert_array_equal(z, want)


def test_l1_to_gm_ascendc() -> None:
    assert "AscendC::DataCopy(zg, t, AscendC::DataCopyParams(" in ascendc(l1_to_gm_kernel)


# ---- misuse: CompileErrors (and NotImplementedErrors) at the user's line ---------------------------------------


@asc.jit
def misuse_kernel(a: asc.GlobalAddress, w: asc.GlobalAddress, case: asc.ConstExpr[int]):
    g = asc.GlobalTensor()
    g.set_global_buffer(a)
    g64 = asc.GlobalTensor()
    g64.set_global_buffer(w)
    pipe = asc.TPipe()
    qv = asc.TQue(asc.TPosition.VECIN, 1)
    qc = asc.TQue(asc.TPosition.CO1, 1)
    q1 = asc.TQue(asc.TPosition.A1, 1)
    q2 = asc.TQue(asc.TPosition.A2, 1)
    pipe.init_buffer(qv, 1, 2048)
    pipe.init_buffer(qc, 1, 2048)
    pipe.init_buffer(q1, 1, 1024)
    pipe.init_buffer(q2, 1, 1024)
    p = asc.Nd2NzParams(1, 4, 16, 0, 16, 1, 1, 0)
    if case == 0:
        v64 = qv.alloc_tensor(asc.int64)
        asc.data_copy(v64, g64, p)  # <- 0
    if case == 1:
        v32 = qv.alloc_tensor(asc.float32)
        asc.data_copy(v32, g, p)  # <- 1
    if case == 2:
        c = qc.alloc_tensor(asc.float32)
        asc.data_copy(c, g, p)  # <- 2
    if case == 3:
        c = qc.alloc_tensor(asc.float32)
        asc.data_copy(g, c, asc.DataCopyCO12DstParams(16, 16, 1, 16, asc.QuantModes.F322F16, 3, False, True))  # <- 3
    if case == 4:
        c = qc.alloc_tensor(asc.float32)
        asc.data_copy(g, c, asc.DataCopyCO12DstParams(16, 16, 1, 16, asc.QuantModes.F322F16, 2, False, True))  # <- 4
    if case == 5:
        i = qc.alloc_tensor(asc.int32)
        asc.data_copy(g, i, asc.DataCopyCO12DstParams(16, 16, 1, 16, asc.QuantModes.VDEQF16, 0, False, True))  # <- 5
    if case == 6:
        f1 = q1.alloc_tensor(asc.int8)
        f2 = q2.alloc_tensor(asc.int8)
        asc.load_data(f2, f1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, en_transpose=True, dtype=asc.int8))  # <- 6
    if case == 8:
        h1 = q1.alloc_tensor(asc.float16)
        hv = qv.alloc_tensor(asc.float16)
        asc.data_copy(hv, h1, 64)  # <- 8
    if case == 9:
        c = qc.alloc_tensor(asc.float32)
        fv = qv.alloc_tensor(asc.float32)
        asc.data_copy(fv, c, 64)  # <- 9
    if case == 10:
        h1 = q1.alloc_tensor(asc.float16)
        asc.data_copy_pad(g, h1, asc.DataCopyExtParams(1, 64, 0, 0, 0))  # <- 10
    if case == 11:
        h1 = q1.alloc_tensor(asc.float16)
        asc.data_copy_pad(h1, g, asc.DataCopyExtParams(1, 64, 0, 0, 0),  # <- 11
                          asc.DataCopyPadExtParams(asc.float16))
    if case == 12:
        h1 = q1.alloc_tensor(asc.float16)
        hv = qv.alloc_tensor(asc.float16)
        asc.data_copy(h1, hv, p)  # <- 12
    if case == 7:
        u1 = q1.alloc_tensor(asc.uint8)
        u2 = q2.alloc_tensor(asc.uint8)
        asc.load_data(u2, u1, asc.LoadData3DParamsV2(l1_h=4, l1_w=4, en_transpose=True, dtype=asc.uint8))  # <- 7


@pytest.mark.parametrize("case, cls, fragment", [
    (0, asc.CompileError, "does not support element type int64"),
    (1, asc.CompileError, "dst and src element types differ (float32 and float16)"),
    (2, asc.CompileError, "'dst' must be at TPosition.A1, TPosition.B1, TPosition.C1, TPosition.VECIN"),
    (3, asc.CompileError, "relu_pre 3 is not a ReLU mode"),
    (4, NotImplementedError, "LRELU_ALPHA register"),
    (5, NotImplementedError, "SetFixPipeConfig sets, which upstream pyasc has no API to set"),
    (6, asc.CompileError, "of int8 with en_transpose is not supported on the Ascend910B"),
    (7, asc.CompileError, "of uint8 with en_transpose is not supported on the Ascend910B"),
    (8, asc.CompileError, "from TPosition.A1 to TPosition.VECIN is not supported on the Ascend910B"),
    (9, asc.CompileError, "from TPosition.CO1 to TPosition.VECIN is not supported on the Ascend910B"),
    (10, asc.CompileError, "between GM and L1 (TPosition.A1) is not supported on the Ascend910B"),
    (11, asc.CompileError, "between GM and L1 (TPosition.A1) is not supported on the Ascend910B"),
    (12, NotImplementedError, "through the Matmul server (KFC)"),
])
def test_misuse_at_the_line(case: int, cls: Any, fragment: str) -> None:
    with pytest.raises(cls) as info:
        misuse_kernel[1](np.zeros(1024, np.float16), np.zeros(64, np.int64), case)
    assert fragment in str(info.value), str(info.value)
    assert f"# <- {case}" in str(info.value)


def test_vector_quant_fixpipe_form_still_works_note() -> None:
    """The NotImplementedError points at asc.fixpipe's cbuf_workspace form, which reads the per-channel
    parameters from L1 (implemented): the hint names it."""
    with pytest.raises(NotImplementedError, match="cbuf_workspace"):
        misuse_kernel[1](np.zeros(1024, np.float16), np.zeros(64, np.int64), 5)


def test_nd2nz_into_ub_is_a_nop_on_a_cube_core() -> None:
    """ASCEND_IS_NOT_AIV: on an AIC_ONLY launch the copy does nothing (the UB keeps the pattern)."""
    z = (np.arange(256) % 97 + 1).astype(np.float16)
    nd2nz_ub_kernel[1](z, np.zeros(64, np.float16), 1, 4, 16, 0, 16, 1, 1, 0, 256,
                       kernel_type=asc.KernelType.AIC_ONLY)
    np.testing.assert_array_equal(z, (np.arange(256) % 97 + 1).astype(np.float16))
    nd2nz_ub_kernel[1](z, np.zeros(64, np.float16), 1, 4, 16, 0, 16, 1, 1, 0, 256)
    assert not z[:64].any()  # the same launch on a vector core copies the zeros
