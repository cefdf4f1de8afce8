#!/usr/bin/env python3
"""Regenerates tests/fuzz/corpus, the seed corpus of the IR fuzzer.

Runs the examples and a selection of the Python tests with PYASC_DUMP_PATH
set (docs/tools.md), takes the IR every compilation writes after the passes
(`NAME-KEY.final.ascir`), and keeps a small, varied set of it: one file per
distinct shape (the text with numbers and element types masked, so the
dtype variants of one kernel count once), chosen first to cover every op,
enum value and element type the suite uses, then one per further kernel,
at most MAX_FILES files and MAX_BYTES bytes. Source locations keep only the
file's base name, so the corpus does not depend on where the tree was.

Needs the package installed (`pip install .`); run from anywhere:

    python tests/fuzz/make_corpus.py [--keep-dumps DIR | --from-dumps DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"

# Tests whose kernels cover the op table: vector ops (both levels), casts,
# copies, the framework classes, control flow, tensor access, sanitizer
# cases (races, uninitialised reads), launch edge cases, the user's and the
# table's structs, the tensor and framework methods and the core helpers.
TESTS = [
    "test_vector_ops.py",
    "test_vector_level0.py",
    "test_cast.py",
    "test_cast_level0.py",
    "test_data_copy.py",
    "test_framework_api.py",
    "test_control_flow.py",
    "test_tensor_access.py",
    "test_sanitizer.py",
    "test_launch.py",
    "test_frontend.py",
    "test_timing.py",
    "test_user_structs.py",
    "test_param_structs.py",
    "test_framework_methods.py",
    "test_tensor_methods.py",
    "test_core_helpers.py",
]

MAX_FILES = 80
MAX_BYTES = 400_000
MAX_FILE_BYTES = 16_000  # big kernels slow every mutation down
TIMEOUT = 1800

LOC_PATH = re.compile(r'loc\("[^"]*/([^"/]*)"')
NUMBER = re.compile(r"-?\b\d+(\.\d+)?(e[+-]?\d+)?\b")
DTYPE = re.compile(r"\b(i1|i8|i16|i32|i64|ui8|ui16|ui32|ui64|f16|bf16|f32|f64|index)\b")
KERNEL_NAME = re.compile(r"^(.*)-[0-9a-f]{12}\.final\.ascir$")


def run(cmd: List[str], env: Dict[str, str], what: str) -> None:
    """Runs one dumping command; a failing test still leaves its dumps."""
    print(f"make_corpus: {what}", flush=True)
    try:
        out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        print(f"make_corpus:   timed out after {TIMEOUT} s", flush=True)
        return
    if out.returncode != 0:
        tail = (out.stdout + out.stderr).strip().splitlines()[-3:]
        print(f"make_corpus:   exit {out.returncode}: " + " | ".join(tail), flush=True)


def dump_all(dump_dir: Path, tests: List[str]) -> None:
    """Runs the examples and the tests with their IR dumped into dump_dir."""
    env = dict(os.environ)
    env["PYASC_DUMP_PATH"] = str(dump_dir)
    # a private compile cache: the dumps must not depend on the user's
    env["PYASC_CACHE_DIR"] = str(dump_dir / "cache")
    for script in sorted((ROOT / "examples").glob("*/*.py")):
        run([sys.executable, str(script)], env, f"example {script.relative_to(ROOT)}")
    for test in tests:
        path = ROOT / "tests" / "python" / test
        if not path.exists():
            print(f"make_corpus: no {test}, skipped", flush=True)
            continue
        run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
            env,
            f"pytest {test}",
        )


def normalise(text: str) -> str:
    """Locations keep the base name of their file."""
    return LOC_PATH.sub(r'loc("\1"', text)


def shape(text: str) -> str:
    """The text with numbers and element types masked."""
    return DTYPE.sub("T", NUMBER.sub("0", text))


def verifies(text: str) -> bool:
    """asc-opt accepts the file (when the tool is on PATH)."""
    tool = shutil.which("asc-opt")
    if not tool:
        return True
    out = subprocess.run([tool, "-", "--verify-only"], input=text, capture_output=True, text=True)
    return out.returncode == 0


FEATURE = re.compile(r'"((?:asc|arith|scf|func)\.[a-z0-9_.]+)"|#asc<(\w+ \w+)>|' + DTYPE.pattern)


def features(text: str) -> Set[str]:
    """The op names, enum values and element types a text uses."""
    return {next(g for g in m.groups() if g) for m in FEATURE.finditer(text)}


def select(dump_dir: Path) -> Dict[str, str]:
    """File name -> text of the chosen seeds."""
    by_shape: Dict[str, Tuple[str, str]] = {}
    for path in sorted(dump_dir.glob("*.final.ascir")):
        m = KERNEL_NAME.match(path.name)
        name = m.group(1) if m else path.stem
        text = normalise(path.read_text())
        if len(text.encode()) > MAX_FILE_BYTES:
            continue
        key = shape(text)
        old = by_shape.get(key)
        if old is None or (len(text), text) < (len(old[1]), old[1]):
            by_shape[key] = (name, text)
    candidates = sorted(by_shape.values(), key=lambda c: (len(c[1]), c))
    chosen: Dict[str, str] = {}
    kernels: Set[str] = set()
    covered: Set[str] = set()
    total = 0

    def take(name: str, text: str) -> bool:
        nonlocal total
        size = len(text.encode())
        if len(chosen) >= MAX_FILES or total + size > MAX_BYTES or not verifies(text):
            return False
        digest = hashlib.sha1(text.encode()).hexdigest()[:8]
        chosen[f"{name}-{digest}.ascir"] = text
        kernels.add(name)
        covered.update(features(text))
        total += size
        return True

    # greedy cover of the ops, enum values and element types first (the
    # smallest file among those adding the most), then one variant of every
    # other kernel, smallest first, while the caps allow
    pending = list(candidates)
    while pending and len(chosen) < MAX_FILES:
        best = max(pending, key=lambda c: (len(features(c[1]) - covered), -len(c[1])))
        if not features(best[1]) - covered:
            break
        pending.remove(best)
        take(*best)
    for name, text in pending:
        if name not in kernels:
            take(name, text)
    return chosen


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep-dumps", type=Path, help="dump into DIR and keep it")
    parser.add_argument("--from-dumps", type=Path, help="select from the dumps in DIR, run nothing")
    parser.add_argument("--tests", nargs="*", default=TESTS, help="tests/python files to run")
    args = parser.parse_args(argv)
    tmp: Optional[tempfile.TemporaryDirectory[str]] = None
    if args.from_dumps:
        dump_dir = args.from_dumps.resolve()
    elif args.keep_dumps:
        dump_dir = args.keep_dumps.resolve()
        dump_dir.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="pyasc-corpus-")
        dump_dir = Path(tmp.name)
    try:
        if not args.from_dumps:
            dump_all(dump_dir, args.tests)
        chosen = select(dump_dir)
    finally:
        if tmp:
            tmp.cleanup()
    if not chosen:
        print("make_corpus: no IR was dumped; is the package installed?", file=sys.stderr)
        return 1
    CORPUS.mkdir(exist_ok=True)
    for old in CORPUS.glob("*.ascir"):
        old.unlink()
    for name, text in sorted(chosen.items()):
        (CORPUS / name).write_text(text)
    total = sum(len(t.encode()) for t in chosen.values())
    print(f"make_corpus: {len(chosen)} files, {total} bytes in {CORPUS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
