"""Compile time per statement as kernels grow: is every stage linear?

Builds kernels of 1k, 10k and 30k statements in several shapes and times,
for each, the whole compilation and its stages, per 1000 statements:

    front   Python source → IR (AST parse and the FunctionVisitor)
    print   IR → text (as the compile driver and the disk cache do)
    parse   text → IR (what loading a disk-cache entry does)
    passes  verify, canonicalize, dce
    lower   IR → bytecode (asc_kernel_compile, which verifies again)
    emit    IR → Ascend C

and the ratio of the 30k figure to the 1k one: about 1 when the stage is
linear (a quadratic stage gives about 30). Then `asc-opt` and
`asc-translate` on IR files of 10k and 100k ops, per 1000 ops. Everything
is measured in one run, as CPU time (the machine may be busy with other
work); each size is compiled several times and the fastest run kept.

    python benchmarks/compile_scaling.py [--sizes 1000,10000,30000] [--shapes scalar,vector]
    ASC_TOOLS_DIR=build python benchmarks/compile_scaling.py   # the tools of a meson build dir
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from asc import _C
from asc.codegen import function_visitor
from asc.runtime import compiler


def clock() -> float:
    """CPU seconds of this process: the machine may be busy with other work."""
    return time.process_time()


# ---- kernel shapes: (statements) -> source; each makes exactly n statements ----------------

HEAD = ["import asc", ""]
KERNEL = ["@asc.jit", "def k(z: asc.GlobalAddress):"]


def _store(var: str) -> List[str]:
    return ["    z_gm = asc.GlobalTensor()", "    z_gm.set_global_buffer(z, 8)", f"    z_gm.set_value(0, {var})"]


def scalar(n: int) -> str:
    """Straight-line scalar arithmetic on one variable."""
    body = ["    a = asc.get_block_idx()"] + [f"    a = a + {i % 7 + 1}" for i in range(n - 4)]
    return "\n".join(HEAD + KERNEL + body + _store("a")) + "\n"


def consts(n: int) -> str:
    """As scalar, every statement with a constant of its own."""
    body = ["    a = asc.get_block_idx()"] + [f"    a = a + {1000 + i}" for i in range(n - 4)]
    return "\n".join(HEAD + KERNEL + body + _store("a")) + "\n"


def vector(n: int) -> str:
    """Vector instructions on two LocalTensors of a TQue pipeline."""
    setup = [
        "    x_gm = asc.GlobalTensor()", "    x_gm.set_global_buffer(z, 64)", "    pipe = asc.TPipe()",
        "    q_in = asc.TQue(asc.TPosition.VECIN, 1)", "    q_out = asc.TQue(asc.TPosition.VECOUT, 1)",
        "    pipe.init_buffer(q_in, 1, 256)", "    pipe.init_buffer(q_out, 1, 256)",
        "    xu = q_in.alloc_tensor(asc.float32)", "    asc.data_copy(xu, x_gm, 64)", "    q_in.enque(xu)",
        "    xu = q_in.deque(asc.float32)", "    zu = q_out.alloc_tensor(asc.float32)",
        "    asc.duplicate(zu, 0.0, 64)",
    ]
    tail = ["    q_out.enque(zu)", "    q_in.free_tensor(xu)", "    zu = q_out.deque(asc.float32)",
            "    asc.data_copy(x_gm, zu, 64)", "    q_out.free_tensor(zu)"]
    ops = ["    asc.add(zu, zu, xu, 64)", "    asc.muls(zu, zu, 0.5, 64)", "    asc.adds(zu, zu, 1.0, 64)",
           "    asc.max(zu, zu, xu, 64)"]
    body = [ops[i % 4] for i in range(n - len(setup) - len(tail))]
    return "\n".join(HEAD + ["@asc.jit", "def k(z: asc.GlobalAddress):"] + setup + body + tail) + "\n"


def control(n: int) -> str:
    """Nested control flow: for / if-else / while inside, then an if (8 statements a group)."""
    body = ["    a = asc.get_block_idx()"]
    g = 0
    while 1 + 8 * (g + 1) + 3 <= n:
        body += [
            "    for i in range(2):",
            f"        if a > {g % 50}:",
            f"            a = a - {g % 3 + 1}",
            "            while a > 200:",
            "                a = a - 100",
            "        else:",  # (not a statement)
            f"            a = a + {g % 4 + 1}",
            "    if a < 0:",
            "        a = a + 5",
        ]
        g += 1
    body += ["    a = a + 1"] * (n - 4 - 8 * g)
    return "\n".join(HEAD + KERNEL + body + _store("a")) + "\n"


def calls(n: int) -> str:
    """Calls of device functions: n/50 functions, called in turn."""
    nf = max(4, n // 50)
    lines = list(HEAD)
    for f in range(nf):
        lines += ["@asc.jit", f"def f{f}(x: int) -> int:", f"    return x + {f % 5 + 1}", ""]
    body = ["    a = asc.get_block_idx()"] + [f"    a = f{i % nf}(a) % 1000" for i in range(n - nf - 4)]
    return "\n".join(lines + KERNEL + body + _store("a")) + "\n"


def carried(n: int) -> str:
    """Many variables live at once, all carried around one loop."""
    m = (n - 6) // 2
    body = ["    a = asc.get_block_idx()"] + [f"    v{i} = a + {i % 5}" for i in range(m)]
    body += ["    for i in range(2):"] + [f"        v{i} = v{(i + 1) % m} + 1" for i in range(n - 6 - m)]
    body += ["    s = v0 + v1"]
    return "\n".join(HEAD + KERNEL + body + _store("s")) + "\n"


def branches(n: int) -> str:
    """Many variables live at once, and runtime `if`s that assign one of them each."""
    m = (n - 5) // 2
    body = ["    a = asc.get_block_idx()"] + [f"    v{i} = a + {i % 5}" for i in range(m)]
    k = 0
    while len(body) + 2 <= n - 4:
        body += [f"    if a > {k % 3}:", f"        v{k % m} = v{k % m} + 1"]
        k += 1
    body += ["    a = a + 1"] * (n - 4 - len(body)) + ["    s = v0 + v1"]
    return "\n".join(HEAD + KERNEL + body + _store("s")) + "\n"


SHAPES: Dict[str, Callable[[int], str]] = {
    "scalar": scalar, "vector": vector, "control": control, "calls": calls, "consts": consts, "carried": carried,
    "branches": branches,
}
# the element type of each shape's array argument z (int32 when not listed)
Z_DTYPE = {"vector": "float32"}
STAGES = ("front", "print", "parse", "passes", "lower", "emit")


def statements(source: str) -> int:
    """Statements in the source's functions (what the per-1k figures count)."""
    import ast

    return sum(isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.Import))
               for node in ast.walk(ast.parse(source)))


def load(source: str, directory: Path, name: str) -> object:
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.k


def compile_stages(kernel: object, z_dtype: str) -> Dict[str, float]:
    """Seconds per stage of one cold compilation of kernel."""
    t: Dict[str, float] = {}
    kernel._fdef = None  # type: ignore[attr-defined]  # parse the source again, as a new process would
    t0 = clock()
    module, _, _ = compiler.build_module(kernel, {"z": ("gm", z_dtype)})
    t1 = clock()
    text = module.print()
    t2 = clock()
    _C.Module.parse(text)
    t3 = clock()
    module.verify()
    for name in compiler.PIPELINE:
        module.run_pass(name)
    t4 = clock()
    module.compile("k")
    t5 = clock()
    module.emit_ascendc()
    t6 = clock()
    t.update(front=t1 - t0, print=t2 - t1, parse=t3 - t2, passes=t4 - t3, lower=t5 - t4, emit=t6 - t5)
    t["whole"] = t6 - t0
    return t


def best_of(kernel: object, z_dtype: str, repeats: int) -> Dict[str, float]:
    runs = [compile_stages(kernel, z_dtype) for _ in range(repeats)]
    return {k: min(r[k] for r in runs) for k in runs[0]}


# ---- IR text files for the tools -----------------------------------------------------------


def ir_file(ops: int, path: Path) -> None:
    """A module of `ops` ops in the front end's style: one variable assigned over and over
    (its printed names get `_N` suffixes), a constant per addition, a location on each op."""
    loc = 'loc("kernel.py":{}:4)'
    lines = ['module @k {', '  "func.func"() ({', '  ^bb0(%z: !asc.global_address<i32>):',
             f'    %a = "asc.get_block_idx"() : () -> i64 {loc.format(2)}']
    prev = "%a"
    for i in range((ops - 6) // 2):
        lines.append(f'    %{i} = "arith.constant"() {{value = {i % 7 + 1} : i64}} : () -> i64 {loc.format(i + 3)}')
        cur = f"%a_{i + 1}"
        lines.append(f'    {cur} = "arith.add"({prev}, %{i}) : (i64, i64) -> i64 {loc.format(i + 3)}')
        prev = cur
    lines += [f'    %g = "asc.global_tensor"() : () -> !asc.global_tensor<i32> {loc.format(1)}',
              f'    "asc.global_tensor.set_global_buffer"(%g, %z) : (!asc.global_tensor<i32>, '
              f'!asc.global_address<i32>) -> () {loc.format(1)}',
              f'    %i0 = "arith.constant"() {{value = 0 : i32}} : () -> i32 {loc.format(1)}',
              f'    %v = "arith.cast"({prev}) : (i64) -> i32 {loc.format(1)}',
              f'    "asc.global_tensor.set_value"(%g, %i0, %v) : (!asc.global_tensor<i32>, i32, i32) -> () '
              f'{loc.format(1)}',
              f'    "func.return"() : () -> () {loc.format(1)}',
              '  }) {sym_name = "k", kernel = 1 : i64, res_types = []} : () -> () loc("kernel.py":1:0)', '}']
    path.write_text("\n".join(lines) + "\n")


def kilo(n: int) -> str:
    return f"{n / 1000:g}k"


def find_tool(name: str) -> Optional[str]:
    d = os.environ.get("ASC_TOOLS_DIR")
    for cand in ([Path(d) / name] if d else []) + [Path(sys.executable).parent / name]:
        if cand.is_file():
            return str(cand)
    return shutil.which(name)


def run_tool(argv: List[str]) -> float:
    """CPU seconds of one run of a tool."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def tools(workdir: Path, sizes: Tuple[int, int]) -> None:
    opt, translate = find_tool("asc-opt"), find_tool("asc-translate")
    if not opt or not translate:
        print("\nasc-opt / asc-translate not found (set ASC_TOOLS_DIR): tool timings skipped")
        return
    small, large = sizes
    files = {}
    for ops in sizes:
        files[ops] = workdir / f"k{ops}.ascir"
        ir_file(ops, files[ops])
    runs = {
        "asc-opt (parse, verify, print)": lambda f: [opt, str(f), "-o", os.devnull],
        "asc-opt --pass canonicalize --pass dce": lambda f: [opt, str(f), "--pass", "canonicalize", "--pass",
                                                             "dce", "-o", os.devnull],
        "asc-translate --to-ascendc": lambda f: [translate, str(f), "--to-ascendc", "-o", os.devnull],
    }
    print(f"\ntools on IR files, CPU ms per 1000 ops ({kilo(small)} and {kilo(large)} ops, best of 5 "
          "and of 2; goal: ratio about 1)")
    for label, argv in runs.items():
        t_small = min(run_tool(argv(files[small])) for _ in range(5)) * 1e3 / (small / 1000)
        t_large = min(run_tool(argv(files[large])) for _ in range(2)) * 1e3 / (large / 1000)
        print(f"  {label:40s} {t_small:7.2f} {t_large:7.2f}   ratio {t_large / t_small:5.2f}")


# ---- main ----------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,30000", help="statements per kernel, comma-separated")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"of {', '.join(SHAPES)}")
    ap.add_argument("--tool-ops", default="10000,100000", help="ops of the two IR files for the tools")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    # The front end stops compile-time unrolling that runs away (more statements visited than
    # MAX_COMPILED_STATEMENTS); these kernels are that long without unrolling anything.
    budget = getattr(function_visitor, "MAX_COMPILED_STATEMENTS", None)
    if budget is not None and budget < 2 * max(sizes):
        function_visitor.CompileBudget.__init__.__defaults__ = (2 * max(sizes),)
        print(f"(the front end's budget of {budget} statements per compilation is raised to {2 * max(sizes)} "
              "for these kernels)")
    workdir = Path(tempfile.mkdtemp(prefix="pyasc-scaling-"))
    sys.path.insert(0, str(workdir))
    label = f"{kilo(sizes[-1])}/{kilo(sizes[0])}"
    print(f"compile time, CPU ms per 1000 statements (goal: the last row of each shape, {label}, about 1 "
          "in every column; a quadratic stage would show the ratio of the sizes)")
    print(f"{'shape':8s} {'size':>8s} " + " ".join(f"{c:>7s}" for c in ("whole",) + STAGES))
    for shape in shapes:
        per_1k = {}
        for n in sizes:
            source = SHAPES[shape](n)
            count = statements(source)
            kernel = load(source, workdir, f"{shape}_{n}")
            t = best_of(kernel, Z_DTYPE.get(shape, "int32"), max(2, min(5, sizes[-1] // n)))
            per_1k[n] = {k: v * 1e3 / (count / 1000) for k, v in t.items()}
            row = per_1k[n]
            print(f"{shape:8s} {count:8d} " + " ".join(f"{row[c]:7.2f}" for c in ("whole",) + STAGES), flush=True)
        first, last = per_1k[sizes[0]], per_1k[sizes[-1]]
        print(f"{'':8s} {label:>8s} " + " ".join(f"{last[c] / first[c]:7.2f}" for c in ("whole",) + STAGES))
    small, large = (int(s) for s in args.tool_ops.split(","))
    tools(workdir, (small, large))
    shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
