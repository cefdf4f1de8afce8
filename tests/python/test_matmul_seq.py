"""asc.adv.Matmul as the devkit's cube instruction sequence (family matmul, src/sim/matmul_block.c).

Each base block runs as GM->L1 Nd2Nz copies (MTE2), L1->L0A/L0B loads (MTE1), Mmad (M) and a Fixpipe (FIX)
with the flags between the pipes, shown to the timing model and the sanitizer as sub-events on the Matmul
call's line. Checked here: the events (pipes and steps on the call's line, the sanitizer naming a step), the
timing (M / MTE1 / FIX busy, growing with K), and the results against NumPy for each input type, with and
without bias, tails, transposed A / B, iterate + get_tensor_c to GM and to UB, iterate_all, en_atomic."""

from typing import Any, Tuple

import numpy as np
import pytest
import torch

import asc
import asc.lib.host as host

HD = {"float16": host.DataType.DT_FLOAT16, "bfloat16": host.DataType.DT_BF16, "float32": host.DataType.DT_FLOAT,
      "int8": host.DataType.DT_INT8, "int32": host.DataType.DT_INT32}


def tiling(m: int, n: int, k: int, ab: str = "float16", c: str = "float32", bias: bool = False,
           trans_a: bool = False, trans_b: bool = False, base: Tuple[int, int, int] = (-1, -1, -1),
           c_pos: Any = None) -> asc.adv.TCubeTiling:
    mt = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    mt.set_a_type(host.TPosition.GM, host.CubeFormat.ND, HD[ab], trans_a)
    mt.set_b_type(host.TPosition.GM, host.CubeFormat.ND, HD[ab], trans_b)
    mt.set_c_type(c_pos or host.TPosition.GM, host.CubeFormat.ND, HD[c])
    mt.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, HD[c])
    mt.set_dim(1)
    mt.set_org_shape(m, n, k)
    mt.set_shape(m, n, k)
    mt.enable_bias(bias)
    if base != (-1, -1, -1):
        mt.set_fix_split(*base)
    mt.set_buffer_space(-1, -1, -1)
    t = asc.adv.TCubeTiling()
    assert mt.get_tiling(t) == 0
    return t


@asc.jit
def body(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
         t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, use_bias: asc.ConstExpr[bool], trans_a: asc.ConstExpr[bool],
         trans_b: asc.ConstExpr[bool], atomic: asc.ConstExpr[int]):
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    bias_g = asc.GlobalTensor()
    bias_g.set_global_buffer(bias)
    pipe = asc.TPipe()
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype, trans_a),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype, trans_b),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_g.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bias_g.dtype))
    asc.adv.register_matmul(pipe, ws, mm, t)
    if asc.get_block_idx() < t.used_core_num:  # one AIV of the MIX kernel's two
        mm.set_tensor_a(a_g, trans_a)
        mm.set_tensor_b(b_g, trans_b)
        if use_bias:
            mm.set_bias(bias_g)
        mm.iterate_all(c_g, en_atomic=atomic)  # the iterate_all line
        mm.end()


@asc.jit
def mm_all(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
           t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, use_bias: asc.ConstExpr[bool],
           trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool], atomic: asc.ConstExpr[int]):
    """A MIX kernel: the AIV does the work of the AIC serving it."""
    body(a, b, c, bias, t, ws, use_bias, trans_a, trans_b, atomic)


@asc.jit(matmul_cube_only=True)
def mm_cube(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
            t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, use_bias: asc.ConstExpr[bool],
            trans_a: asc.ConstExpr[bool], trans_b: asc.ConstExpr[bool], atomic: asc.ConstExpr[int]):
    """An AIC_ONLY kernel: the cube core works."""
    if asc.ascend_is_aic():
        body(a, b, c, bias, t, ws, use_bias, trans_a, trans_b, atomic)


def bf16(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16)


def operands(ab: str, m: int, n: int, k: int, seed: int, small: bool = True) -> Tuple[Any, Any, np.ndarray,
                                                                                       np.ndarray]:
    """A, B as the kernel takes them and their values as float64 (small integers: every sum exact)."""
    rng = np.random.default_rng(seed)
    if small:
        av = rng.integers(-4, 5, (m, k)).astype(np.float64)
        bv = rng.integers(-4, 5, (k, n)).astype(np.float64)
    else:
        av = rng.standard_normal((m, k))
        bv = rng.standard_normal((k, n))
    if ab == "bfloat16":
        ta, tb = bf16(av), bf16(bv)
        return ta, tb, ta.float().numpy().astype(np.float64), tb.float().numpy().astype(np.float64)
    a = av.astype(ab)
    b = bv.astype(ab)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def run_all(ab: str, c_t: str, m: int, n: int, k: int, use_bias: bool = False, trans_a: bool = False,
            trans_b: bool = False, atomic: int = 0, cube: bool = False, base: Any = (-1, -1, -1),
            small: bool = True, c0: Any = None) -> Tuple[np.ndarray, np.ndarray]:
    a, b, av, bv = operands(ab, m, n, k, m * 7 + n * 3 + k, small)
    t = tiling(m, n, k, ab, c_t, use_bias, trans_a, trans_b, base)
    bias = np.arange(n).astype(c_t) % 7 - 3
    c = np.zeros((m, n), c_t) if c0 is None else c0.copy()
    if trans_a:
        a = a.T.contiguous() if isinstance(a, torch.Tensor) else np.ascontiguousarray(a.T)
    if trans_b:
        b = b.T.contiguous() if isinstance(b, torch.Tensor) else np.ascontiguousarray(b.T)
    kern = mm_cube if cube else mm_all
    kern[1, None](a, b, c, bias, t, np.zeros(64, np.uint8), use_bias, trans_a, trans_b, atomic)
    want = av @ bv + (bias.astype(np.float64) if use_bias else 0)
    return c, want


# ---- results ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ab,c_t", [("float16", "float32"), ("bfloat16", "float32"), ("float32", "float32"),
                                    ("int8", "int32"), ("float16", "float16")])
@pytest.mark.parametrize("use_bias", [False, True])
def test_types_and_bias(ab: str, c_t: str, use_bias: bool) -> None:
    c, want = run_all(ab, c_t, 40, 56, 72, use_bias)
    np.testing.assert_array_equal(c, want.astype(c_t))


@pytest.mark.parametrize("trans_a,trans_b", [(False, True), (True, False), (True, True)])
@pytest.mark.parametrize("ab", ["float16", "float32", "int8"])
def test_transposed_inputs(ab: str, trans_a: bool, trans_b: bool) -> None:
    c_t = "int32" if ab == "int8" else "float32"
    c, want = run_all(ab, c_t, 48, 40, 96, True, trans_a, trans_b)
    np.testing.assert_array_equal(c, want.astype(c_t))


@pytest.mark.parametrize("cube", [False, True])
def test_tails_in_every_dimension(cube: bool) -> None:
    """Base blocks of 32 x 32 x 32 over 100 x 70 x 50: tails along M, N and K, several L1 tiles."""
    c, want = run_all("float16", "float32", 100, 70, 50, True, cube=cube, base=(32, 32, 32))
    np.testing.assert_array_equal(c, want.astype(np.float32))


def test_fp32_accumulation_of_fp16_products() -> None:
    """Random fp16 inputs: the sums are fp32 ones (upstream's tolerance against float64)."""
    c, want = run_all("float16", "float32", 64, 64, 256, small=False)
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)


def test_en_atomic_adds_to_c() -> None:
    c0 = np.full((32, 48), 5.0, np.float32)
    c, want = run_all("float16", "float32", 32, 48, 64, atomic=1, c0=c0)
    np.testing.assert_array_equal(c, want + 5)


@asc.jit
def mm_iter(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, t: asc.adv.TCubeTiling,
            ws: asc.GlobalAddress, to_ub: asc.ConstExpr[bool]):
    """The iterate loop: each base block to its place in C, directly or through a UB tensor."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=t.base_m * t.base_n * 4)
    c_pos = asc.TPosition.VECCALC if to_ub else asc.TPosition.GM
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(c_pos, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, ws, mm, t)
    if asc.get_block_idx() < t.used_core_num:  # one AIV of the two
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        with mm.iterate() as count:
            if to_ub:
                out = que.alloc_tensor(asc.float32)
                mm.get_tensor_c(out, en_sequential_write=True)
                que.enque(out)
                out = que.deque(asc.float32)
                rounds = t.single_core_m // t.base_m
                start = count % rounds * t.base_m * t.n + count // rounds * t.base_n
                params = asc.DataCopyParams(block_count=t.base_m, block_len=t.base_n * 4 // 32, src_stride=0,
                                            dst_stride=(t.n - t.base_n) * 4 // 32)
                asc.data_copy(c_g[start:], out, repeat_params=params)
                que.free_tensor(out)
            else:
                mm.get_tensor_c(c_g)
        mm.end()


@pytest.mark.parametrize("to_ub", [False, True])
def test_iterate_and_get_tensor_c(to_ub: bool) -> None:
    m, n, k = 64, 64, 80
    a, b, av, bv = operands("float16", m, n, k, 11)
    t = tiling(m, n, k, base=(32, 32, 32), c_pos=host.TPosition.VECCALC if to_ub else None)
    c = np.zeros((m, n), np.float32)
    mm_iter[1, None](a, b, c, t, np.zeros(64, np.uint8), to_ub)
    np.testing.assert_array_equal(c, (av @ bv).astype(np.float32))


# ---- what the observers see -------------------------------------------------------------------------------

def line_of(text: str) -> int:
    return next(i + 1 for i, s in enumerate(open(__file__).read().splitlines()) if text in s)


def profile(k: int, cube: bool = False) -> Any:
    m, n = 64, 64
    a, b, _, _ = operands("float16", m, n, k, 3)
    t = tiling(m, n, k, base=(64, 64, 32))
    with asc.profile() as prof:
        (mm_cube if cube else mm_all)[1, None](a, b, np.zeros((m, n), np.float32), np.zeros(n, np.float32), t,
                                               np.zeros(64, np.uint8), False, False, False, 0)
    return prof.last


@pytest.mark.parametrize("cube", [False, True])
def test_the_trace_shows_each_pipe_on_the_matmul_line(cube: bool) -> None:
    from asc.profiler.data import KINDS, PIPES
    lp = profile(128, cube)
    line = line_of("# the iterate_all line")
    pipes = {PIPES[x["pipe"]] for blk in lp.blocks for x in blk.records
             if KINDS[x["kind"]] == "op" and lp.sites[x["site"]].line == line}
    assert {"MTE2", "MTE1", "M", "FIX"} <= pipes, pipes
    busy = {p: sum(blk.busy[p] for blk in lp.blocks) for p in ("MTE2", "MTE1", "M", "FIX")}
    assert all(v > 0 for v in busy.values()), busy
    # the profiler's hotspot of the line carries the cube work
    assert max(s.busy for s in lp.sites if s.line == line) > 0


def test_timing_grows_with_k() -> None:
    short, long = profile(64), profile(512)
    assert long.duration_cycles > short.duration_cycles
    m_short = sum(b.busy["M"] for b in short.blocks)
    m_long = sum(b.busy["M"] for b in long.blocks)
    # 64 x 64 x k: (64 / 16)^2 * k / 16 fractal products of one cycle each
    assert m_long - m_short >= 16 * (512 - 64) // 16, (m_short, m_long)


@asc.jit(auto_sync=False)  # the compiler would order the scalar unit's accesses
def racy(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, t: asc.adv.TCubeTiling,
         ws: asc.GlobalAddress, synced: asc.ConstExpr[bool]):
    """Fills a UB tensor on the vector pipe, then has get_tensor_c write the block into it: without a wait for
    V the Matmul's write races with the fill."""
    a_g = asc.GlobalTensor()
    a_g.set_global_buffer(a)
    b_g = asc.GlobalTensor()
    b_g.set_global_buffer(b)
    c_g = asc.GlobalTensor()
    c_g.set_global_buffer(c)
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(buf, t.base_m * t.base_n * 4)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_g.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_g.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, c_g.dtype))
    asc.adv.register_matmul(pipe, ws, mm, t)
    if asc.get_block_idx() < t.used_core_num:  # one AIV of the two
        mm.set_tensor_a(a_g)
        mm.set_tensor_b(b_g)
        out = buf.get(asc.float32)
        with mm.iterate() as count:
            asc.duplicate(out, 0.0, count=t.base_m * t.base_n)
            if synced:
                asc.set_flag(asc.HardEvent.V_S, 0)
                asc.wait_flag(asc.HardEvent.V_S, 0)
            mm.get_tensor_c(out, en_sequential_write=True)  # <- the Matmul
            asc.set_flag(asc.HardEvent.S_MTE3, 0)
            asc.wait_flag(asc.HardEvent.S_MTE3, 0)
            asc.data_copy(c_g[count * t.base_m * t.base_n:], out, count=t.base_m * t.base_n)
            asc.set_flag(asc.HardEvent.MTE3_V, 0)
            asc.wait_flag(asc.HardEvent.MTE3_V, 0)
        mm.end()


def test_the_sanitizer_names_the_step() -> None:
    m, n, k = 32, 32, 32
    a, b, av, bv = operands("float16", m, n, k, 9)
    t = tiling(m, n, k, c_pos=host.TPosition.VECCALC)
    c = np.zeros((m, n), np.float32)
    racy[1, None](a, b, c, t, np.zeros(64, np.uint8), True)
    np.testing.assert_array_equal(c, (av @ bv).astype(np.float32))
    with pytest.raises(asc.SanitizerError) as info:
        racy[1, None](a, b, c, t, np.zeros(64, np.uint8), False)
    msg = str(info.value)
    assert "Matmul (C into the UB tensor)" in msg and "asc.duplicate" in msg and "race" in msg, msg
    assert info.value.line == line_of("# <- the Matmul"), msg


def test_without_observers_the_results_are_the_same() -> None:
    m, n, k = 48, 40, 64
    a, b, av, bv = operands("float16", m, n, k, 5)
    t = tiling(m, n, k, base=(16, 16, 16))
    off = asc.jit(sanitize="off")(mm_all.fn)
    c = np.zeros((m, n), np.float32)
    off[1, None](a, b, c, np.zeros(n, np.float32), t, np.zeros(64, np.uint8), False, False, False, 0)
    np.testing.assert_array_equal(c, (av @ bv).astype(np.float32))


def test_the_instructions_of_a_call() -> None:
    """128 x 32 x 32 in base blocks of 32 x 32 x 32 (one K step): four blocks along M, each one GM->L1 copy
    of its A tile; B's one tile stays in its L1 slot (the tiling's depthB1 holds it) and is copied once; per
    block two loads (MTE1), one Mmad (M) and one Fixpipe (FIX)."""
    m, n, k = 128, 32, 32
    a, b, av, bv = operands("float16", m, n, k, 1)
    t = tiling(m, n, k, base=(32, 32, 32))
    c = np.zeros((m, n), np.float32)
    with asc.profile() as prof:
        mm_cube[1, None](a, b, c, np.zeros(n, np.float32), t, np.zeros(64, np.uint8), False, False, False, 0)
    np.testing.assert_array_equal(c, (av @ bv).astype(np.float32))
    instrs = prof.last.blocks[0].instrs
    assert (instrs["MTE2"], instrs["MTE1"], instrs["M"], instrs["FIX"]) == (5, 8, 4, 4), instrs
