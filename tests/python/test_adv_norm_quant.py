"""asc.adv.rmsnorm and asc.adv.quant (family: adv normquant) on the simulator against NumPy references that follow
the devkit's Ascend910B instruction sequences (src/sim/adv_rmsnorm.c, src/sim/adv_quant.c), their errors, their
Ascend C and the host functions of asc.lib.host (GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo,
GetAscendQuantMaxMinTmpSize).

quant: every step in half, rounded to nearest even; the int8 cast rounds to nearest even and saturates. The
references compute each step exactly (float64) and round it to half, so results are bit-exact.
rmsnorm: the row sums of squares in the devkit's order (a tree of adjacent pairs per 64 floats, repeated on the
partial sums; basic block: the row's 64-float blocks added into the first, then one tree), all in float32; the
reference does the same, and only exp / ln (the devkit's 1 / sqrt) may differ by an ulp or two.
"""

import zlib
from typing import Any, Optional, Tuple

import numpy as np
import pytest
from kernels_util import ascendc, fails_at, line_of

import asc
import asc.lib.host as host
from asc.runtime import config

NP = {"float16": np.float16, "float32": np.float32}


def rng_for(*key: Any) -> np.random.Generator:
    return np.random.default_rng([zlib.crc32(str(k).encode()) for k in key])


# ---- rmsnorm ---------------------------------------------------------------------------------------------------

@asc.jit(kernel_type=config.KernelType.AIV_ONLY)
def rmsnorm_kernel(x: asc.GlobalAddress, g: asc.GlobalAddress, y: asc.GlobalAddress, tiling: asc.adv.RmsNormTiling,
                   n: asc.ConstExpr[int], h: asc.ConstExpr[int], tmp_bytes: asc.ConstExpr[int],
                   eps: asc.ConstExpr[float], basic: asc.ConstExpr[bool]):
    x_gm = asc.GlobalTensor()
    g_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    g_gm.set_global_buffer(g)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    xb = asc.TBuf(asc.TPosition.VECCALC)
    gb = asc.TBuf(asc.TPosition.VECCALC)
    yb = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(xb, n * x.dtype.sizeof())
    pipe.init_buffer(gb, h * x.dtype.sizeof())
    pipe.init_buffer(yb, n * x.dtype.sizeof())
    xl = xb.get(x.dtype)
    gl = gb.get(x.dtype)
    yl = yb.get(x.dtype)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(gl, g_gm, h)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if tmp_bytes > 0:
        tb = asc.TBuf(asc.TPosition.VECCALC)
        pipe.init_buffer(tb, tmp_bytes)
        asc.adv.rmsnorm(yl, xl, gl, eps, tiling, tb.get(asc.uint8), basic_block=basic)  # rmsnorm call
    else:
        asc.adv.rmsnorm(yl, xl, gl, eps, tiling, basic_block=basic)  # rmsnorm stack
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(y_gm, yl, n)


def tree64(v: np.ndarray) -> np.float32:
    """One RepeatReduceSum repeat: the tree of adjacent pairs over len(v) <= 64 lanes, in float32."""
    vals = [np.float32(a) for a in v]
    present = [True] * len(vals) + [False] * (64 - len(vals))
    vals += [np.float32(0)] * (64 - len(vals))
    w = 64
    while w > 1:
        for i in range(0, w, 2):
            a, b = present[i], present[i + 1]
            vals[i // 2] = np.float32(vals[i] + vals[i + 1]) if a and b else (vals[i] if a else vals[i + 1])
            present[i // 2] = a or b
        w //= 2
    return vals[0]


def row_sum(sq: np.ndarray, orig_h: int, basic: bool) -> np.float32:
    if basic:
        acc = sq[:64].copy()
        for i in range(1, len(sq) // 64):
            acc = (acc + sq[i * 64:(i + 1) * 64]).astype(np.float32)
        return tree64(acc)
    v = sq[:orig_h]
    while len(v) > 1:
        v = np.array([tree64(v[k:k + 64]) for k in range(0, len(v), 64)], np.float32)
    return np.float32(v[0])


def rmsnorm_ref(x: np.ndarray, g: np.ndarray, orig_h: int, eps: float, basic: bool) -> np.ndarray:
    t = x.dtype
    x32 = x.astype(np.float32)
    g32 = g.astype(np.float32)
    e = np.float32(t.type(eps))
    recip = np.float32(1.0 / np.float32(orig_h))
    out = np.empty_like(x32)
    for r in range(x.shape[0]):
        sq = (x32[r] * x32[r]).astype(np.float32)
        m = np.float32(row_sum(sq, orig_h, basic) * recip)
        m = np.float32(m + e)
        inv = np.float32(np.exp(np.float64(np.float32(np.float32(np.log(np.float64(m))) * np.float32(-0.5)))))
        out[r] = ((x32[r] * inv).astype(np.float32) * g32).astype(np.float32)
    return out.astype(t)


def run_rmsnorm(dtype: str, b: int, s: int, orig_h: int, eps: float = 1e-5, basic: bool = False,
                tmp: Optional[int] = None, rows_in_tmp: Optional[int] = None,
                seed: Any = 0) -> Tuple[np.ndarray, np.ndarray, asc.adv.RmsNormTiling]:
    t = NP[dtype]
    es = np.dtype(t).itemsize
    unit = 32 // es
    h = -(-orig_h // unit) * unit  # padded as the devkit requires: h * sizeof(T) a multiple of 32
    rng = rng_for("rmsnorm", dtype, b, s, orig_h, seed)
    rows = b * s
    x = np.zeros((rows, h), t)
    x[:, :orig_h] = (rng.standard_normal((rows, orig_h)) * 2).astype(t)
    g = np.zeros(h, t)
    g[:orig_h] = (rng.random(orig_h) + 0.5).astype(t)
    mx, mn = host.get_rms_norm_max_min_tmp_size((b, s, h), es, basic)
    if rows_in_tmp is not None:
        coeff = 2 if dtype == "float16" else 1
        tmp = 4 * (rows_in_tmp * h * coeff + -(-rows_in_tmp // 8) * 8)
    size = mx if not tmp else tmp
    tiling = host.get_rms_norm_tiling_info((b, s, h), (b, s, orig_h), size, es, basic)
    y = np.zeros_like(x)
    rmsnorm_kernel[1](x, g, y, tiling, rows * h, h, 0 if tmp == 0 else size, eps, basic)
    return y, rmsnorm_ref(x, g, orig_h, eps, basic), tiling


def check_rmsnorm(y: np.ndarray, ref: np.ndarray, orig_h: int) -> None:
    a = y[:, :orig_h].astype(np.float64)
    r = ref[:, :orig_h].astype(np.float64)
    if y.dtype == np.float16:
        # at most one half ulp apart (ln / exp may round the float differently by an ulp)
        np.testing.assert_allclose(a, r, rtol=2 ** -10, atol=2 ** -24)
    else:
        np.testing.assert_allclose(a, r, rtol=4e-7, atol=1e-30)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("b, s, orig_h", [(1, 1, 32), (2, 3, 64), (1, 4, 30), (1, 3, 130), (2, 2, 200)])
def test_rmsnorm_shapes(dtype: str, b: int, s: int, orig_h: int) -> None:
    y, ref, tiling = run_rmsnorm(dtype, b, s, orig_h)
    assert tiling.original_h_length == orig_h and tiling.h_length >= orig_h
    check_rmsnorm(y, ref, orig_h)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_rmsnorm_rounds_and_tail(dtype: str) -> None:
    # a buffer for 3 rows: 7 rows are two rounds of 3 and a tail of 1
    y, ref, tiling = run_rmsnorm(dtype, 1, 7, 48, rows_in_tmp=3)
    assert (tiling.main_bs_length, tiling.loop_round, tiling.tail_bs_length) == (3, 2, 1)
    check_rmsnorm(y, ref, 48)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("eps", [1e-6, 0.5, 4.0])
def test_rmsnorm_epsilon(dtype: str, eps: float) -> None:
    y, ref, _ = run_rmsnorm(dtype, 1, 2, 64, eps=eps)
    check_rmsnorm(y, ref, 64)
    if eps > 0.1:
        y2, _, _ = run_rmsnorm(dtype, 1, 2, 64, eps=eps / 4)
        assert not np.array_equal(y, y2)  # epsilon reaches the result


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("b, s, h", [(1, 8, 128), (2, 8, 64), (1, 16, 192)])
def test_rmsnorm_basic_block(dtype: str, b: int, s: int, h: int) -> None:
    y, ref, _ = run_rmsnorm(dtype, b, s, h, basic=True)
    check_rmsnorm(y, ref, h)


def test_rmsnorm_without_tmp_buffer() -> None:
    # the devkit's stack buffer: the UB above the TPipe's buffers
    y, ref, _ = run_rmsnorm("float32", 1, 3, 64, tmp=0)
    check_rmsnorm(y, ref, 64)


def test_rmsnorm_gamma_applied() -> None:
    y, ref, _ = run_rmsnorm("float32", 1, 2, 64, seed=1)
    y2, ref2, _ = run_rmsnorm("float32", 1, 2, 64, seed=2)
    check_rmsnorm(y, ref, 64)
    check_rmsnorm(y2, ref2, 64)
    assert not np.allclose(y, y2)


@asc.jit(kernel_type=config.KernelType.AIV_ONLY, insert_sync=True)
def rmsnorm_auto_kernel(x_gm: asc.GlobalAddress, g_gm: asc.GlobalAddress, y_gm: asc.GlobalAddress,
                        tiling: asc.adv.RmsNormTiling, n: asc.ConstExpr[int], h: asc.ConstExpr[int],
                        tmp_bytes: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x_gm)
    gg = asc.GlobalTensor()
    gg.set_global_buffer(g_gm)
    yg = asc.GlobalTensor()
    yg.set_global_buffer(y_gm)
    xl = asc.LocalTensorAuto(xg.dtype, n)
    gl = asc.LocalTensorAuto(xg.dtype, h)
    yl = asc.LocalTensorAuto(xg.dtype, n)
    tl = asc.LocalTensorAuto(asc.uint8, tmp_bytes)
    asc.data_copy(xl, xg, count=n)
    asc.data_copy(gl, gg, count=h)
    asc.adv.rmsnorm(yl, xl, gl, 1e-5, tiling, tl)
    asc.data_copy(yg, yl, count=n)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_rmsnorm_with_insert_sync_and_auto_tensors(dtype: str) -> None:
    # the sync insertion and the UB plan see the op's reads and writes (ops.def), the sanitizer finds no race
    t = NP[dtype]
    rows, h = 4, 64
    x = rng_for("auto", dtype).standard_normal((rows, h)).astype(t)
    g = (rng_for("auto-g", dtype).random(h) + 0.5).astype(t)
    size = np.dtype(t).itemsize
    mx, _ = host.get_rms_norm_max_min_tmp_size((1, rows, h), size)
    tiling = host.get_rms_norm_tiling_info((1, rows, h), (1, rows, h), mx, size)
    y = np.zeros_like(x)
    rmsnorm_auto_kernel[1](x, g, y, tiling, rows * h, h, mx)
    check_rmsnorm(y, rmsnorm_ref(x, g, h, 1e-5, False), h)


def test_rmsnorm_tmp_too_small() -> None:
    t = host.get_rms_norm_tiling_info((1, 4, 64), (1, 4, 64), 4 * (4 * 64 + 8), 4)
    x = np.ones((4, 64), np.float32)
    fails_at(rmsnorm_kernel, (x, x[0].copy(), np.zeros_like(x), t, 256, 64, 4 * (64 + 8), 1e-5, False),
             "# rmsnorm call", "temporary buffer has 288 bytes", "GetRmsNormMaxMinTmpSize")


@pytest.mark.parametrize("fields", [
    dict(b_length=1, s_length=4, h_length=60, original_h_length=60),  # h not 32-byte aligned
    dict(b_length=1, s_length=4, h_length=64, original_h_length=64, main_bs_length=4, main_bsh_length=256,
         main_bs_length_align=8, loop_round=2),  # rounds past b * s rows
    dict(b_length=-1, s_length=-1, h_length=-8, original_h_length=1, main_bs_length=-1, main_bsh_length=-8,
         main_bs_length_align=-8, loop_round=-1, tail_bsh_length=-1),  # hostile: products past int64
])
def test_rmsnorm_bad_tiling(fields: dict) -> None:
    t = asc.adv.RmsNormTiling(**fields)
    x = np.ones((4, 64), np.float32)
    fails_at(rmsnorm_kernel, (x, x[0].copy(), np.zeros_like(x), t, 256, 64, 2048, 1e-5, False),
             "# rmsnorm call", "is not one GetRmsNormTilingInfo makes")


@asc.jit
def rmsnorm_bad_kernel(x: asc.GlobalAddress, tiling: asc.adv.RmsNormTiling, which: asc.ConstExpr[int]):
    a = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 256)
    i = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 2048, 256)
    u = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 4096, 256)
    if which == 0:
        asc.adv.rmsnorm(a, a, b, 1e-5, tiling)  # mixed
    elif which == 1:
        asc.adv.rmsnorm(i, i, i, 1e-5, tiling)  # int16
    elif which == 2:
        asc.adv.rmsnorm(a, a, a, 1e-5, 3)  # not a tiling
    elif which == 3:
        asc.adv.rmsnorm(a, a, a, 1e-5, tiling, a)  # tmp not uint8
    elif which == 4:
        asc.adv.rmsnorm(a, a, a, 1e-5, tiling, u, basic_block=1)  # basic not bool


@pytest.mark.parametrize("which, marker, fragment", [
    (0, "# mixed", "'gamma' must have src's element type float16"),
    (1, "# int16", "does not support element type int16"),
    (2, "# not a tiling", "must be an asc.adv.RmsNormTiling"),
    (3, "# tmp not uint8", "must be a uint8 LocalTensor"),
    (4, "# basic not bool", "must be a Python bool"),
])
def test_rmsnorm_compile_errors(which: int, marker: str, fragment: str) -> None:
    with pytest.raises(asc.CompileError) as info:
        rmsnorm_bad_kernel[1](np.zeros(8, np.float16), asc.adv.RmsNormTiling(), which)
    assert fragment in str(info.value)
    assert info.value.line is not None


def ops_on_line(kernel: Any, marker: str, run: Any) -> Tuple[int, int]:
    """(vector op events, PipeBarrier events) the profiler records on the kernel's line ending with marker."""
    from asc.profiler.data import KINDS, PIPES

    with asc.profile() as prof:
        run()
    lp = prof.last
    line = line_of(kernel, marker)
    recs = [x for blk in lp.blocks for x in blk.records if lp.sites[x["site"]].line == line]
    ops = sum(1 for x in recs if KINDS[x["kind"]] == "op" and PIPES[x["pipe"]] == "V")
    return ops, sum(1 for x in recs if KINDS[x["kind"]] == "barrier")


@pytest.mark.parametrize("dtype, extra", [("float32", 0), ("float16", 3)])
def test_rmsnorm_steps_seen_by_the_timing_model(dtype: str, extra: int) -> None:
    # one round of 2 rows of 64: [Cast,] Mul, 2 RepeatReduceSum, Muls, Adds, Ln, Muls, Exp, 2 Muls, [Cast,] Mul,
    # [Cast]: each its own event on the call's line, with the devkit's barriers between them; then the call's own
    # event (no work of its own: one issue slot, vec_seq.h)
    ops, barriers = ops_on_line(rmsnorm_kernel, "# rmsnorm call", lambda: run_rmsnorm(dtype, 1, 2, 64))
    assert ops == 12 + extra, ops
    assert barriers >= 9, barriers


def test_quant_steps_seen_by_the_timing_model() -> None:
    # 1000 floats through a 512-byte buffer: 4 chunks of 256 of Cast, Muls, Adds, Cast, a barrier after each, and
    # the call's own event (no work of its own: one issue slot, vec_seq.h)
    src = (rng_for("steps").random(1024) * 8 - 4).astype(np.float32)
    ops, barriers = ops_on_line(quant_kernel, "# quant call", lambda: run_quant(src, 1000))
    assert ops == 17 and barriers == 16, (ops, barriers)


def test_rmsnorm_ascendc() -> None:
    run_rmsnorm("float16", 1, 2, 64, basic=False)
    text = ascendc(rmsnorm_kernel)
    assert "AscendC::RmsNorm<half, false>(" in text
    assert "AscendC::tiling::RmsNormTiling" in text


# ---- host functions ----------------------------------------------------------------------------------------------

def test_rmsnorm_host_sizes() -> None:
    # the devkit's formulas: max all rows (float: b*s*h + bs padded; half: twice b*s*h), min one row
    assert host.get_rms_norm_max_min_tmp_size((2, 3, 64), 4) == (4 * (384 + 8), 4 * (64 + 8))
    assert host.get_rms_norm_max_min_tmp_size((2, 3, 64), 2) == (4 * (768 + 16), 4 * (128 + 8))
    with pytest.raises(ValueError, match="basic block"):
        host.get_rms_norm_max_min_tmp_size((1, 3, 64), 4, True)
    with pytest.raises(ValueError):
        host.get_rms_norm_max_min_tmp_size((1, 3), 4)
    with pytest.raises(ValueError):
        host.get_rms_norm_max_min_tmp_size((1, 3, 64), 3)


def test_rmsnorm_host_tiling() -> None:
    t = host.get_rms_norm_tiling_info((1, 300, 8), (1, 300, 5), 1 << 20, 4)
    assert (t.b_length, t.s_length, t.h_length, t.original_h_length) == (1, 300, 8, 5)
    assert t.main_bs_length == 255 and t.main_bsh_length == 255 * 8 and t.main_bs_length_align == 256
    assert (t.loop_round, t.tail_bs_length, t.tail_bsh_length, t.input_tail_pos) == (1, 45, 360, 2040)
    assert t.reciprocal_of_h_length == pytest.approx(0.2)
    for bad in [((1, 2, 60), (1, 2, 60), 4096, 4),  # h * 4 not 32-byte aligned
                ((1, 2, 64), (1, 3, 64), 4096, 4),  # b, s differ
                ((1, 2, 64), (1, 2, 65), 4096, 4),  # h below the original
                ((1, 2, 64), (1, 2, 64), 100, 4)]:  # below the minimum
        with pytest.raises(ValueError):
            host.get_rms_norm_tiling_info(*bad)
    with pytest.raises(ValueError, match="basic block"):
        host.get_rms_norm_tiling_info((1, 3, 64), (1, 3, 64), 4096, 4, True)


def test_quant_host_sizes() -> None:
    assert host.get_ascend_quant_max_min_tmp_size((32,), 2) == (512, 512)
    assert host.get_ascend_quant_max_min_tmp_size((1000, 8), 4) == (16000, 512)
    with pytest.raises(ValueError):
        host.get_ascend_quant_max_min_tmp_size((3,), 2)  # 6 bytes: not 32-byte aligned


# ---- quant -------------------------------------------------------------------------------------------------------

def h(v: Any) -> np.ndarray:
    return np.asarray(v, np.float64).astype(np.float16).astype(np.float64)


def quant_ref(src: np.ndarray, scale: Any, offset: Any) -> np.ndarray:
    """int8(half(half(half(src) * scale) + offset)): scale / offset scalars or per-column arrays (already half)."""
    t = h(src)
    t = h(t * h(scale))
    t = h(t + h(offset))
    return np.clip(np.rint(t), -128, 127).astype(np.int8)


@asc.jit(kernel_type=config.KernelType.AIV_ONLY)
def quant_kernel(x: asc.GlobalAddress, sc: asc.GlobalAddress, of: asc.GlobalAddress, z: asc.GlobalAddress,
                 n: asc.ConstExpr[int], count: asc.ConstExpr[int], rowlen: asc.ConstExpr[int],
                 tmp_bytes: asc.ConstExpr[int], form: asc.ConstExpr[int], scale: asc.ConstExpr[float],
                 offset: asc.ConstExpr[float], use_cfg: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    s_gm = asc.GlobalTensor()
    o_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    s_gm.set_global_buffer(sc)
    o_gm.set_global_buffer(of)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    xb = asc.TBuf(asc.TPosition.VECCALC)
    sb = asc.TBuf(asc.TPosition.VECCALC)
    ob = asc.TBuf(asc.TPosition.VECCALC)
    zb = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(xb, n * x.dtype.sizeof())
    pipe.init_buffer(sb, rowlen * x.dtype.sizeof())
    pipe.init_buffer(ob, rowlen * x.dtype.sizeof())
    pipe.init_buffer(zb, n)
    xl = xb.get(x.dtype)
    sl = sb.get(x.dtype)
    ol = ob.get(x.dtype)
    zl = zb.get(asc.int8)
    asc.data_copy(xl, x_gm, n)
    asc.data_copy(sl, s_gm, rowlen)
    asc.data_copy(ol, o_gm, rowlen)
    asc.data_copy(zl, z_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    tb = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(tb, tmp_bytes)
    tl = tb.get(asc.uint8)
    if form == 0:
        if use_cfg == 1:
            asc.adv.quant(zl, xl, scale, offset, count, tl, config=asc.adv.QuantConfig(64, 0, 0, 512))
        else:
            asc.adv.quant(zl, xl, scale, offset, count, tl)  # quant call
    elif form == 1:
        asc.adv.quant(zl, xl, sl, offset, count, tl, scale_count=rowlen)  # channel call
    elif form == 2:
        if use_cfg == 1:
            asc.adv.quant(zl, xl, sl, ol, count, tl, config=asc.adv.QuantConfig(64, 32, 32, 512),
                          scale_count=rowlen, offset_count=rowlen)
        else:
            asc.adv.quant(zl, xl, sl, ol, count, tl, scale_count=rowlen, offset_count=rowlen)  # offsets call
    else:
        asc.adv.quant(zl, xl, scale, offset)  # defaults
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, zl, n)
    asc.data_copy(s_gm, sl, rowlen)


def run_quant(src: np.ndarray, count: int, form: int = 0, scale: float = 2.0, offset: float = 0.9,
              scales: Optional[np.ndarray] = None, offsets: Optional[np.ndarray] = None, rowlen: int = 32,
              tmp: int = 512, use_cfg: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    n = len(src)
    t = src.dtype.type
    sc = np.zeros(rowlen, t) if scales is None else scales.astype(t)
    of = np.zeros(rowlen, t) if offsets is None else offsets.astype(t)
    z = np.full(n, 99, np.int8)
    quant_kernel[1](src, sc, of, z, n, count, rowlen, tmp, form, scale, offset, use_cfg)
    return z, sc


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("n, count, tmp", [(32, 32, 512), (64, 48, 512), (1024, 1000, 512), (1024, 1024, 1056)])
def test_quant_per_tensor(dtype: str, n: int, count: int, tmp: int) -> None:
    src = (rng_for("quant", dtype, n).random(n) * 8 - 4).astype(NP[dtype])
    z, _ = run_quant(src, count, tmp=tmp)
    np.testing.assert_array_equal(z[:count], quant_ref(src[:count], 2.0, 0.9))
    assert (z[count:] == 99).all()  # nothing past count is written


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_quant_ties_to_even_and_saturation(dtype: str) -> None:
    # src * 1 + 0: x.5 values round to the even neighbour; beyond the int8 range saturates
    vals = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 126.5, 127.5, -127.5, -128.5, 300.0, -300.0, 1e4, -1e4, 0.0, -0.0]
    src = np.array(vals * 2, NP[dtype])
    z, _ = run_quant(src, 32, scale=1.0, offset=0.0)
    expect = [0, 2, 2, 0, -2, -2, 126, 127, -128, -128, 127, -128, 127, -128, 0, 0] * 2
    np.testing.assert_array_equal(z, np.array(expect, np.int8))
    np.testing.assert_array_equal(z, quant_ref(src, 1.0, 0.0))


def test_quant_float_rounds_to_half_first() -> None:
    # the devkit casts a float src to half first: half(2.2501) is 2.25, * 2 = 4.5 rounds to 4 (ties to even),
    # where the float product 4.5002 would give 5
    src = np.full(32, 2.2501, np.float32)
    z, _ = run_quant(src, 32, scale=2.0, offset=0.0)
    assert (z == 4).all()
    np.testing.assert_array_equal(z, quant_ref(src, 2.0, 0.0))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_quant_config(dtype: str) -> None:
    # QuantConfig(calc_count=64, work_local_size=512): 64 elements quantised, whatever count says
    src = (rng_for("cfg", dtype).random(128) * 8 - 4).astype(NP[dtype])
    z, _ = run_quant(src, 128, use_cfg=1)
    np.testing.assert_array_equal(z[:64], quant_ref(src[:64], 2.0, 0.9))
    assert (z[64:] == 99).all()


def test_quant_defaults_count_and_stack_buffer() -> None:
    # no count: all of src; no temp buffer: the stack buffer above the TPipe's buffers
    src = (rng_for("defaults").random(96) * 8 - 4).astype(np.float16)
    z, _ = run_quant(src, 0, form=3, tmp=32)
    np.testing.assert_array_equal(z, quant_ref(src, 2.0, 0.9))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("rowlen, rows, tmp", [(32, 3, 512), (64, 2, 512), (512, 2, 512)])
def test_quant_per_channel_scalar_offset(dtype: str, rowlen: int, rows: int, tmp: int) -> None:
    rng = rng_for("pc", dtype, rowlen)
    n = rowlen * rows
    src = (rng.random(n) * 8 - 4).astype(NP[dtype])
    scales = (rng.random(rowlen) * 3).astype(NP[dtype])
    z, sc_after = run_quant(src, n, form=1, scales=scales, offset=-0.75, rowlen=rowlen, tmp=tmp)
    np.testing.assert_array_equal(z, quant_ref(src.reshape(rows, rowlen), scales, -0.75).reshape(-1))
    if dtype == "float32":
        # the devkit casts the scale tensor to half in place: its first rowlen halves hold the values
        np.testing.assert_array_equal(sc_after.view(np.float16)[:rowlen], scales.astype(np.float16))
    else:
        np.testing.assert_array_equal(sc_after, scales)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("use_cfg", [0, 1])
def test_quant_per_channel_offset_tensor(dtype: str, use_cfg: int) -> None:
    rng = rng_for("pco", dtype, use_cfg)
    rowlen, rows = 32, 4
    n = rowlen * rows
    src = (rng.random(n) * 8 - 4).astype(NP[dtype])
    scales = (rng.random(rowlen) * 3).astype(NP[dtype])
    offsets = (rng.random(rowlen) * 4 - 2).astype(NP[dtype])
    z, _ = run_quant(src, n, form=2, scales=scales, offsets=offsets, rowlen=rowlen, use_cfg=use_cfg)
    done = 64 if use_cfg else n  # QuantConfig(64, 32, 32, 512): two rows of 32
    ref = quant_ref(src.reshape(rows, rowlen), scales, offsets).reshape(-1)
    np.testing.assert_array_equal(z[:done], ref[:done])
    assert (z[done:] == 99).all()


def test_quant_tmp_too_small() -> None:
    src = np.ones(32, np.float16)
    fails_at(quant_kernel, (src, src, src, np.zeros(32, np.int8), 32, 32, 32, 256, 0, 2.0, 0.9, 0),
             "# quant call", "256 bytes", "GetAscendQuantMaxMinTmpSize")


def test_quant_count_too_big() -> None:
    src = np.ones(32, np.float16)
    fails_at(quant_kernel, (src, src, src, np.zeros(32, np.int8), 32, 64, 32, 512, 0, 2.0, 0.9, 0),
             "# quant call", "count is 64, larger than src's size 32")


def test_quant_count_not_multiple_of_scale_count() -> None:
    src = np.ones(64, np.float16)
    fails_at(quant_kernel, (src, src[:32].copy(), src[:32].copy(), np.zeros(64, np.int8), 64, 48, 32, 512, 1,
                            2.0, 0.9, 0),
             "# channel call", "multiple of scale_count 32")


@asc.jit
def quant_bad_kernel(which: asc.ConstExpr[int]):
    f = asc.LocalTensor(asc.float16, asc.TPosition.VECCALC, 0, 256)
    g = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 256)
    i = asc.LocalTensor(asc.int8, asc.TPosition.VECCALC, 2048, 256)
    s = asc.LocalTensor(asc.int16, asc.TPosition.VECCALC, 4096, 256)
    u = asc.LocalTensor(asc.uint8, asc.TPosition.VECCALC, 8192, 1024)
    if which == 0:
        asc.adv.quant(f, f, 2.0, 0.5, 32, u)  # dst half
    elif which == 1:
        asc.adv.quant(i, s, 2.0, 0.5, 32, u)  # src int16
    elif which == 2:
        asc.adv.quant(i, f, 2.0, f, 32, u)  # offset tensor
    elif which == 3:
        asc.adv.quant(i, f, g, 0.5, 32, u)  # scale dtype
    elif which == 4:
        asc.adv.quant(i, f, 2.0, 0.5, 32, f)  # tmp half
    elif which == 5:
        asc.adv.quant(i, f, 2.0, 0.5, 32, u, config=(1, 2, 3, 4))  # config tuple
    elif which == 6:
        asc.adv.quant(i, f, 2.0, 0.5, 32, u, reuse_source=1)  # reuse int


@pytest.mark.parametrize("which, fragment", [
    (0, "'dst' must be an int8 LocalTensor"),
    (1, "does not support element type int16"),
    (2, "an offset tensor needs a scale tensor"),
    (3, "scale tensor must have src's element type float16"),
    (4, "'temp_buffer' must be a uint8 LocalTensor"),
    (5, "'config' must be an asc.adv.QuantConfig"),
    (6, "'reuse_source' must be a Python bool"),
])
def test_quant_compile_errors(which: int, fragment: str) -> None:
    with pytest.raises(asc.CompileError) as info:
        quant_bad_kernel[1](which)
    assert fragment in str(info.value)
    assert info.value.line is not None


def test_quant_config_checks() -> None:
    with pytest.raises(asc.CompileError, match="uint32"):
        asc.adv.QuantConfig(-1)
    with pytest.raises(asc.CompileError, match="Python int"):
        asc.adv.QuantConfig(1.5)  # type: ignore[arg-type]


def test_quant_ascendc() -> None:
    src = (rng_for("cpp").random(64) * 8 - 4).astype(np.float16)
    run_quant(src, 64, use_cfg=1)
    text = ascendc(quant_kernel)
    assert "static constexpr AscendC::AscendQuantConfig" in text and "= {64, 0, 0, 512};" in text
    assert "AscendC::AscendQuant<half, false, quant_cfg" in text
    run_quant(src[:32].copy(), 32, form=2, scales=src[:32], offsets=src[:32], rowlen=32)
    text = ascendc(quant_kernel)
    assert "AscendC::AscendQuant<half>(" in text
