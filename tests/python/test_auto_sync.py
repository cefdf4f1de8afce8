"""Acceptance tests of automatic synchronisation (`@asc.jit(insert_sync=True)`).

1. The five kernels of benchmarks/kernels_sync.py, each written once with
   its hand-written syncs marked `# sync`: the hand form is correct and
   sanitizer-clean; the auto form (those lines deleted, insert_sync=True)
   must be too.
2. A property: random straight-line and loop kernels over 2-4 UB buffers of
   one TBuf, written with no sync at all and compiled with insert_sync=True,
   run race-free under the sanitizer and compute what a NumPy interpreter
   of the same op list computes. The same programs with a
   `pipe_barrier(PIPE_ALL)` after every op (correct by construction) check
   the generator and the NumPy model.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set, Tuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asc

ROOT = Path(__file__).resolve().parents[2]


def _load_benchmark(name: str) -> Any:
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


ks = _load_benchmark("kernels_sync")


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("auto_sync_kernels")


@pytest.fixture(scope="module")
def built(kernel_dir: Path) -> Dict[str, Tuple[asc.JITFunction, asc.JITFunction]]:
    return {name: ks.build(k, kernel_dir, sanitize="error") for name, k in ks.KERNELS.items()}


# ---------------------------------------------------------------------------
# the five kernels
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(ks.KERNELS))
def test_auto_source_has_no_sync_left(name: str) -> None:
    src = ks.KERNELS[name].source
    auto = ks.auto_source(src)
    assert auto.startswith("@asc.jit(insert_sync=True)\n")
    for call in ks.SYNC_CALLS.values():
        assert call not in auto
    counts = ks.sync_counts(src)
    # every line deleted is a sync line, nothing else
    assert len(src.splitlines()) - len(auto.splitlines()) == sum(counts.values())
    assert counts["set"] == counts["wait"] > 0  # every set_flag has its wait_flag


def test_unmarked_sync_is_refused() -> None:
    with pytest.raises(ValueError, match="without the mark"):
        ks.check_marks("@asc.jit\ndef k():\n    asc.set_flag(asc.HardEvent.MTE2_V, 0)\n")
    with pytest.raises(ValueError, match="the mark without"):
        ks.check_marks("@asc.jit\ndef k():\n    asc.add(a, b, c, 8)  # sync\n")


@pytest.mark.parametrize("name", list(ks.KERNELS))
def test_hand_form_is_correct_and_clean(name: str, built: Dict[str, Any]) -> None:
    hand, _ = built[name]
    kernel = ks.KERNELS[name]
    z, expected = ks.launch(hand, kernel, ks.TEST_SHAPE, seed=1)  # a race is a SanitizerError here
    np.testing.assert_array_equal(z, expected)
    ir = ks.compiled_ir(hand)[-1]
    assert ks.ir_sync_counts(ir) == ks.sync_counts(kernel.source)  # the syncs written are those compiled


@pytest.mark.parametrize("name", list(ks.KERNELS))
def test_hand_form_without_its_syncs_races(name: str, kernel_dir: Path) -> None:
    """The syncs marked are needed: with them deleted and insert_sync=False the kernel races."""
    src = ks.auto_source(ks.KERNELS[name].source, "error").replace("insert_sync=True", "insert_sync=False")
    fn = getattr(ks.load(src, kernel_dir, f"{name}_nosync"), name)
    with pytest.raises(asc.SanitizerError, match="data race"):
        ks.launch(fn, ks.KERNELS[name], ks.TEST_SHAPE)


@pytest.mark.parametrize("name", list(ks.KERNELS))
def test_auto_form_is_correct_and_clean(name: str, built: Dict[str, Any]) -> None:
    _, auto = built[name]
    z, expected = ks.launch(auto, ks.KERNELS[name], ks.TEST_SHAPE, seed=1)
    np.testing.assert_array_equal(z, expected)


def test_example_01_add_with_its_syncs_removed(kernel_dir: Path) -> None:
    """examples/01_add as it is (hand) and with every sync call removed from its kernel (auto)."""
    ex = ks.EXAMPLES["example_01_add"]
    text, written = ks.example_source(ex, True, "error")
    kernel_text = text[text.index("def add_kernel"):text.index("def run(")]
    assert "set_flag" not in kernel_text and "wait_flag" not in kernel_text
    assert "insert_sync=True" in text and written == {"set": 3, "wait": 4, "barrier": 0}
    hand, auto = ks.build_example(ex, kernel_dir, sanitize="error")
    for fn in (hand, auto):
        z, expected = ks.launch_example(fn, ks.TEST_SHAPE, seed=2)
        np.testing.assert_array_equal(z, expected)
    unsynced = asc.jit(insert_sync=False, sanitize="error")(auto.fn)
    with pytest.raises(asc.SanitizerError):
        ks.launch_example(unsynced, ks.TEST_SHAPE)


def test_auto_sync_quality_benchmark_passes(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load_benchmark("auto_sync_quality")
    status = bench.main(["--small"])
    out = capsys.readouterr().out
    assert "example_01_add" in out and "add_single" in out and "if_parity" in out
    assert status == 0, out


# ---------------------------------------------------------------------------
# the property: random kernels without syncs
# ---------------------------------------------------------------------------

L = 64  # float32 elements per UB buffer: 256 bytes, one vector repeat
IN_SLICES = 4  # slices of x a load reads (a load in the loop reads slice s + i)
MAX_REPS = 3
SCALARS = (0.5, -1.5, 2.0, 3.0, -0.25)


@dataclass
class Program:
    """Ops on buffers b0..b{nbuf-1}: a straight-line prefix, a loop body run `reps` times (none when 0),
    a suffix. Ops: ("load", b, s), ("store", b), ("bin", name, d, a, c), ("sca", name, d, a, v),
    ("relu", d, a), ("dup", d, v), ("getset", d, j, a, k): b_d[j] = b_a[k], ("setv", d, j, v), and in the
    loop ("if", parity, ops): ops run in the iterations i with i % 2 == parity. `auto`: the buffers are
    asc.LocalTensorAuto (the compiler places them), else views of one TBuf."""

    nbuf: int
    auto: bool = False
    prefix: List[tuple] = field(default_factory=list)
    loop: List[tuple] = field(default_factory=list)
    reps: int = 0
    suffix: List[tuple] = field(default_factory=list)

    def parts(self) -> Iterator[Tuple[List[tuple], int]]:
        yield self.prefix, 0
        if self.reps:
            yield self.loop, self.reps
        yield self.suffix, 0


@st.composite
def programs(draw: st.DrawFn) -> Program:
    nbuf = draw(st.integers(2, 4))
    written: Set[int] = set()  # buffers every element of which has been written (the sanitizer checks reads)
    buffers = st.integers(0, nbuf - 1)

    def op() -> tuple:
        kinds = ["load", "dup"] + (["store", "bin", "sca", "relu", "getset", "setv"] if written else [])
        kind = draw(st.sampled_from(kinds))
        src = st.sampled_from(sorted(written)) if written else buffers
        if kind == "load":
            d = draw(buffers)
            written.add(d)
            return ("load", d, draw(st.integers(0, IN_SLICES - 1)))
        if kind == "dup":
            d = draw(buffers)
            written.add(d)
            return ("dup", d, draw(st.sampled_from(SCALARS)))
        if kind == "store":
            return ("store", draw(src))
        if kind == "bin":
            d = draw(buffers)
            t = ("bin", draw(st.sampled_from(["add", "mul", "max"])), d, draw(src), draw(src))
        elif kind == "sca":
            d = draw(buffers)
            t = ("sca", draw(st.sampled_from(["adds", "muls"])), d, draw(src), draw(st.sampled_from(SCALARS)))
        elif kind == "relu":
            d = draw(buffers)
            t = ("relu", d, draw(src))
        elif kind == "getset":
            d = draw(src)
            t = ("getset", d, draw(st.integers(0, L - 1)), draw(src), draw(st.integers(0, L - 1)))
        else:
            d = draw(src)
            t = ("setv", d, draw(st.integers(0, L - 1)), draw(st.sampled_from(SCALARS)))
        written.add(d)
        return t

    def branch() -> tuple:
        # a branch writes only buffers already whole, so what follows never reads bytes it may skip
        inner = []
        for _ in range(draw(st.integers(1, 3))):
            before = set(written)
            t = op()
            if written != before:  # it wrote a buffer not yet whole: not in a branch
                written.intersection_update(before)
                continue
            inner.append(t)
        return ("if", draw(st.integers(0, 1)), inner) if inner else op()

    p = Program(nbuf, auto=draw(st.booleans()))
    p.prefix = [op() for _ in range(draw(st.integers(1, 5)))]
    p.reps = draw(st.integers(0, MAX_REPS))
    if p.reps:
        p.loop = [branch() if draw(st.integers(0, 3)) == 0 else op() for _ in range(draw(st.integers(1, 5)))]
    p.suffix = [op() for _ in range(draw(st.integers(0, 3)))]
    p.suffix += [("store", b) for b in sorted(written)]  # the UB's final contents are part of the output
    return p


def _render_op(op: tuple, in_loop: bool, out: List[int]) -> List[str]:
    """The Python lines of one op; `out` is the next output slice, advanced by the stores."""
    i = " + i" if in_loop else ""
    kind = op[0]
    if kind == "if":
        lines = [f"if i % 2 == {op[1]}:"]
        for inner in op[2]:
            lines += ["    " + line for line in _render_op(inner, in_loop, out)]
        return lines
    if kind == "load":
        return [f"asc.data_copy(b{op[1]}, x_gm[({op[2]}{i}) * {L}:], {L})"]
    if kind == "store":
        line = f"asc.data_copy(z_gm[({out[0]}{i}) * {L}:], b{op[1]}, {L})"
        out[0] += MAX_REPS if in_loop else 1
        return [line]
    if kind == "bin":
        return [f"asc.{op[1]}(b{op[2]}, b{op[3]}, b{op[4]}, {L})"]
    if kind == "sca":
        return [f"asc.{op[1]}(b{op[2]}, b{op[3]}, {op[4]!r}, {L})"]
    if kind == "relu":
        return [f"asc.relu(b{op[1]}, b{op[2]}, {L})"]
    if kind == "dup":
        return [f"asc.duplicate(b{op[1]}, {op[2]!r}, {L})"]
    if kind == "getset":
        return [f"b{op[1]}.set_value({op[2]}, b{op[3]}.get_value({op[4]}))"]
    return [f"b{op[1]}.set_value({op[2]}, {op[3]!r})"]


def render(p: Program, barriers: bool) -> str:
    """The kernel's source: with `barriers`, a pipe_barrier(PIPE_ALL) after every op and plain @asc.jit;
    without, no sync at all and @asc.jit(insert_sync=True)."""
    deco = '@asc.jit(sanitize="error")' if barriers else '@asc.jit(insert_sync=True, sanitize="error")'
    lines = [deco, "def prop_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):",
             "    x_gm = asc.GlobalTensor()", "    z_gm = asc.GlobalTensor()",
             "    x_gm.set_global_buffer(x)", "    z_gm.set_global_buffer(z)",
             "    pipe = asc.TPipe()", "    buf = asc.TBuf(asc.TPosition.VECCALC)",
             f"    pipe.init_buffer(buf, {p.nbuf * L * 4})"]
    if p.auto:
        lines += [f"    b{b} = asc.LocalTensorAuto(x.dtype, {L})" for b in range(p.nbuf)]
    else:
        lines += [f"    b{b} = buf.get_with_offset({L}, {b * L * 4}, x.dtype)" for b in range(p.nbuf)]
    out = [0]
    for ops, reps in p.parts():
        indent = "    "
        if reps:
            lines.append(f"    for i in range({reps}):")
            indent = "        "
        for op in ops:
            for line in _render_op(op, bool(reps), out):
                lines.append(indent + line)
                if barriers and not line.startswith("if "):
                    lines.append(indent + " " * (len(line) - len(line.lstrip())) +
                                 "asc.pipe_barrier(asc.PipeID.PIPE_ALL)")
    return "\n".join(lines) + "\n"


def numpy_model(p: Program, x: np.ndarray) -> np.ndarray:
    """What the program computes, op by op, in float32."""
    ub = [np.zeros(L, np.float32) for _ in range(p.nbuf)]
    z = np.zeros(_z_len(p), np.float32)
    out = 0
    f32 = np.float32
    for ops, reps in p.parts():
        base = out
        for i in range(max(reps, 1)):
            out = base
            flat: List[tuple] = []
            for op in ops:
                if op[0] == "if":
                    flat += op[2] if i % 2 == op[1] else [("skip", op[2])]
                else:
                    flat.append(op)
            for op in flat:
                kind = op[0]
                if kind == "skip":  # a branch not taken still takes its stores' slices
                    out += sum(t[0] == "store" for t in op[1]) * (MAX_REPS if reps else 1)
                    continue
                if kind == "load":
                    s = op[2] + (i if reps else 0)
                    ub[op[1]] = x[s * L:(s + 1) * L].copy()
                elif kind == "store":
                    s = out + (i if reps else 0)
                    z[s * L:(s + 1) * L] = ub[op[1]]
                    out += MAX_REPS if reps else 1
                elif kind == "bin":
                    a, c = ub[op[3]], ub[op[4]]
                    ub[op[2]] = {"add": a + c, "mul": a * c, "max": np.maximum(a, c)}[op[1]]
                elif kind == "sca":
                    a = ub[op[3]]
                    ub[op[2]] = a + f32(op[4]) if op[1] == "adds" else a * f32(op[4])
                elif kind == "relu":
                    ub[op[1]] = np.maximum(ub[op[2]], f32(0))
                elif kind == "dup":
                    ub[op[1]] = np.full(L, op[2], np.float32)
                elif kind == "getset":
                    ub[op[1]] = ub[op[1]].copy()
                    ub[op[1]][op[2]] = ub[op[3]][op[4]]
                else:
                    ub[op[1]] = ub[op[1]].copy()
                    ub[op[1]][op[2]] = f32(op[3])
    return z


def _stores(ops: List[tuple]) -> int:
    return sum(_stores(op[2]) if op[0] == "if" else op[0] == "store" for op in ops)


def _z_len(p: Program) -> int:
    # a store in the loop takes MAX_REPS slices (slice out + i), whatever the loop's count
    return L * sum(_stores(ops) * (MAX_REPS if reps else 1) for ops, reps in p.parts())


_count = [0]


def run_program(p: Program, barriers: bool, directory: Path) -> Tuple[np.ndarray, np.ndarray]:
    _count[0] += 1
    mod = ks.load(render(p, barriers), directory, f"prop_{'barrier' if barriers else 'auto'}_{_count[0]}")
    rng = np.random.default_rng(_count[0])
    x = (rng.integers(-8, 9, (IN_SLICES + MAX_REPS) * L) / 4).astype(np.float32)
    z = np.zeros(_z_len(p), np.float32)
    mod.prop_kernel[1](x, z)
    return z, numpy_model(p, x)


PROPERTY = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROPERTY
@given(p=programs())
def test_random_kernels_with_barriers_match_numpy(p: Program, kernel_dir: Path) -> None:
    z, expected = run_program(p, True, kernel_dir)
    np.testing.assert_array_equal(z, expected, err_msg=render(p, True))


@PROPERTY
@given(p=programs())
def test_random_kernels_with_insert_sync_match_numpy(p: Program, kernel_dir: Path) -> None:
    z, expected = run_program(p, False, kernel_dir)
    np.testing.assert_array_equal(z, expected, err_msg=render(p, False))


def test_generator_covers_every_op_and_both_shapes() -> None:
    """The property's programs include each op kind, loops and straight-line programs."""
    kinds: Set[str] = set()
    loops = straight = autos = 0

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(p=programs())
    def collect(p: Program) -> None:
        nonlocal loops, straight, autos
        autos += p.auto
        for ops, _ in p.parts():
            kinds.update(op[0] for op in ops)
        if p.reps:
            loops += 1
        else:
            straight += 1

    collect()
    assert kinds == {"load", "store", "bin", "sca", "relu", "dup", "getset", "setv", "if"}
    assert 0 < autos < 60
    assert loops and straight
