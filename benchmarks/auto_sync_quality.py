"""Automatic synchronisation against hand-written synchronisation.

For examples/01_add itself (its sync calls removed from the kernel's syntax
tree for the auto form) and each kernel of benchmarks/kernels_sync.py
(01_add's add with one buffer and with double buffering, a scalar get_value in the loop, a
reduction, an `if` in the loop) runs the hand-synchronised form and the
auto form (every `# sync` line deleted, `@asc.jit(insert_sync=True)`) once
each on the same data, checks both against NumPy, and prints the timing
model's estimated duration of each launch, their ratio (goal: auto / hand
<= 1.05), the syncs written by hand and those in the auto kernel's final
IR (set_flag / wait_flag / pipe_barrier, static counts), and whether the
sanitizer found a race. Exits with status 1 if any auto form is wrong,
races or misses the goal (or a hand form is wrong or races).

    python benchmarks/auto_sync_quality.py [--small] [--kernel NAME ...] [--goal 1.05]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import asc

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernels_sync as ks  # noqa: E402 (the kernels live next to this script)


@dataclass
class Run:
    """One launch of one form."""

    cycles: Optional[int] = None
    correct: bool = False
    races: List[str] = field(default_factory=list)  # the sanitizer's reports
    error: str = ""  # a compile error or kernel fault, if the launch did not complete
    syncs: Dict[str, int] = field(default_factory=dict)  # set/wait/barrier ops in the final IR

    @property
    def clean(self) -> bool:
        return not self.error and not self.races

    def status(self) -> str:
        if self.error:
            return "error"
        if self.races:
            return "race"
        return "ok" if self.correct else "wrong"


def run_form(fn: asc.JITFunction, launch: Callable[[asc.JITFunction], Tuple[np.ndarray, np.ndarray]]) -> Run:
    """One launch with the sanitizer in "warn" mode, so that a racy kernel still gives its output and
    its estimate; its reports are collected."""
    r = Run()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", asc.SanitizerWarning)
            with asc.profile(record=False) as prof:
                z, expected = launch(fn)
        r.races = [str(w.message).splitlines()[0] for w in caught if issubclass(w.category, asc.SanitizerWarning)]
        r.cycles = prof.last.duration_cycles
        r.correct = bool(np.array_equal(z, expected))
    except (asc.CompileError, asc.KernelError) as e:  # (a SanitizerError is a KernelError)
        r.error = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    irs = ks.compiled_ir(fn)
    if irs:
        r.syncs = ks.ir_sync_counts(irs[-1])
    return r


def _counts(c: Dict[str, int]) -> str:
    return "/".join(str(c.get(k, 0)) for k in ks.SYNC_CALLS) if c else "-"


def _yes(r: Run) -> str:
    return "yes" if r.clean else "no"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true",
                        help=f"the test shape {ks.TEST_SHAPE} instead of {ks.BENCH_SHAPE}")
    parser.add_argument("--kernel", action="append", choices=sorted(ks.KERNELS) + sorted(ks.EXAMPLES),
                        help="only these kernels")
    parser.add_argument("--goal", type=float, default=1.05, help="the largest acceptable auto / hand ratio")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each failure's first report")
    args = parser.parse_args(argv)
    shape = ks.TEST_SHAPE if args.small else ks.BENCH_SHAPE
    names = args.kernel or list(ks.EXAMPLES) + list(ks.KERNELS)
    print(f"auto sync vs hand sync: {shape.blocks} blocks x {shape.tiles} tiles x {shape.tile} float32, "
          f"estimated cycles of one launch (timing model), goal auto/hand <= {args.goal}")
    head = (f"{'kernel':<16}{'hand cyc':>10}{'auto cyc':>10}{'ratio':>8}  {'hand s/w/b':>11}"
            f"{'inserted s/w/b':>15}  {'clean h/a':>10}  {'hand':>6}{'auto':>6}")
    print(head)
    print("-" * len(head))
    failed: List[str] = []
    notes: List[str] = []
    rows = []  # (name, hand function, auto function, launch of a form, hand-written sync counts)
    with tempfile.TemporaryDirectory(prefix="pyasc-auto-sync-") as tmp:
        for name in names:
            if name in ks.EXAMPLES:
                ex = ks.EXAMPLES[name]
                hand_fn, auto_fn = ks.build_example(ex, Path(tmp), sanitize="warn")
                rows.append((name, hand_fn, auto_fn, lambda fn: ks.launch_example(fn, shape),
                             ks.example_source(ex, False)[1]))
                continue
            kernel = ks.KERNELS[name]
            hand_fn, auto_fn = ks.build(kernel, Path(tmp), sanitize="warn")
            rows.append((name, hand_fn, auto_fn, lambda fn, k=kernel: ks.launch(fn, k, shape),
                         ks.sync_counts(kernel.source)))
        for name, hand_fn, auto_fn, launch, written in rows:
            hand, auto = run_form(hand_fn, launch), run_form(auto_fn, launch)
            ratio = auto.cycles / hand.cycles if auto.cycles and hand.cycles else None
            print(f"{name:<16}{hand.cycles or '-':>10}{auto.cycles or '-':>10}"
                  f"{f'{ratio:.3f}' if ratio else '-':>8}  {_counts(written):>11}"
                  f"{_counts(auto.syncs):>15}  {_yes(hand) + '/' + _yes(auto):>10}  {hand.status():>6}{auto.status():>6}")
            for form, r in (("hand", hand), ("auto", auto)):
                if r.status() != "ok":
                    failed.append(f"{name} ({form}: {r.status()})")
                    notes.append(f"  {name} {form}: {r.error or (r.races[0] if r.races else 'output differs from NumPy')}")
            if auto.status() == "ok" and (ratio is None or ratio > args.goal):
                failed.append(f"{name} (auto/hand {ratio:.3f} > {args.goal})" if ratio else f"{name} (no estimate)")
    print("hand s/w/b: set_flag/wait_flag/pipe_barrier lines written by hand; inserted: those ops in the auto "
          "kernel's final IR")
    print("clean h/a: the sanitizer reported no race in the hand / auto form; hand, auto: ok, wrong (differs "
          "from NumPy), race or error")
    if args.verbose and notes:
        print("\n".join(notes))
    if failed:
        print("FAIL: " + ", ".join(failed))
        return 1
    print("OK: every auto form is correct, race-free and within the goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
