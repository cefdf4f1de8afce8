"""Five kernels with hand-written synchronisation, each written once.

Every kernel is Python source text whose synchronisation lines (set_flag,
wait_flag, pipe_barrier) end with the comment `# sync`. From that one text
come two kernels:

- the hand-synchronised one, as written (`@asc.jit`);
- the auto one: every `# sync` line deleted, `@asc.jit(insert_sync=True)`,
  so that the compiler has to find every sync the hand-written one has.

The text is written to a file and imported from there (`load`), so that the
kernel's Python lines exist for error messages, the profiler's hotspots and
the sanitizer's reports. All kernels use static UB buffers carved from one
TBuf (no TQue: its enque/deque are syncs that cannot be deleted line by
line), take (x, y, z, tiles, tile) and run on `blocks` blocks, each block
working on `tiles` tiles of `tile` float32 elements of x and y.

Used by benchmarks/auto_sync_quality.py and tests/python/test_auto_sync.py.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from asc import JITFunction

SYNC_MARK = "# sync"
JIT_LINE = "@asc.jit\n"
# the calls a `# sync` line may hold, and how they are counted
SYNC_CALLS = {"set": "asc.set_flag(", "wait": "asc.wait_flag(", "barrier": "asc.pipe_barrier("}
EVENT_ID_CALLS = (".fetch_event_id(", ".alloc_event_id(", ".release_event_id(")


@dataclass(frozen=True)
class Shape:
    """blocks × tiles × tile float32 elements of x and y."""

    blocks: int
    tiles: int
    tile: int

    @property
    def n(self) -> int:
        return self.blocks * self.tiles * self.tile


TEST_SHAPE = Shape(8, 8, 256)
BENCH_SHAPE = Shape(8, 16, 2048)

# The prologue every kernel shares: each block's slices of x, y and z, one TBuf.
_GM = """\
    block_length = tiles * tile
    start = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + start, block_length)
    y_gm.set_global_buffer(y + start, block_length)
    nbytes = tile * x.dtype.sizeof()
    pipe = asc.TPipe()
    buf = asc.TBuf(asc.TPosition.VECCALC)
"""

_SIG = ("(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, tiles: asc.ConstExpr[int], "
        "tile: asc.ConstExpr[int]):\n")

# a. examples/01_add's computation, one buffer per tensor: z = x + y. The MTE3 -> MTE2 flag is set once
# before the loop so that every iteration waits for the previous one's copy-out the same way.
ADD_SINGLE = "@asc.jit\ndef add_single" + _SIG + _GM + """\
    z_gm.set_global_buffer(z + start, block_length)
    pipe.init_buffer(buf, 3 * nbytes)
    x_ub = buf.get_with_offset(tile, 0, x.dtype)
    y_ub = buf.get_with_offset(tile, nbytes, x.dtype)
    z_ub = buf.get_with_offset(tile, 2 * nbytes, x.dtype)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    for i in range(tiles):
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
        asc.data_copy(x_ub, x_gm[i * tile:], tile)
        asc.data_copy(y_ub, y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.add(z_ub, x_ub, y_ub, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.data_copy(z_gm[i * tile:], z_ub, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
"""

# b. the same with double buffering: two halves per tensor alternating by the tile's parity, one event id
# per half, so that the copy-in of tile i+1 overlaps the add of tile i.
ADD_DOUBLE = "@asc.jit\ndef add_double" + _SIG + _GM + """\
    z_gm.set_global_buffer(z + start, block_length)
    pipe.init_buffer(buf, 6 * nbytes)
    x_ub = buf.get_with_offset(2 * tile, 0, x.dtype)
    y_ub = buf.get_with_offset(2 * tile, 2 * nbytes, x.dtype)
    z_ub = buf.get_with_offset(2 * tile, 4 * nbytes, x.dtype)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 1)  # sync
    for i in range(tiles):
        slot = i % 2
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, slot)  # sync
        asc.data_copy(x_ub[slot * tile:], x_gm[i * tile:], tile)
        asc.data_copy(y_ub[slot * tile:], y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, slot)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_V, slot)  # sync
        asc.add(z_ub[slot * tile:], x_ub[slot * tile:], y_ub[slot * tile:], tile)
        asc.set_flag(asc.HardEvent.V_MTE3, slot)  # sync
        asc.wait_flag(asc.HardEvent.V_MTE3, slot)  # sync
        asc.data_copy(z_gm[i * tile:], z_ub[slot * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, slot)  # sync
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 1)  # sync
"""

# c. a scalar read from the UB in the loop: z = y * x[0] per tile (the scalar unit reads x[0] once MTE2
# has written it).
SCALE_BY_FIRST = "@asc.jit\ndef scale_by_first" + _SIG + _GM + """\
    z_gm.set_global_buffer(z + start, block_length)
    pipe.init_buffer(buf, 3 * nbytes)
    x_ub = buf.get_with_offset(tile, 0, x.dtype)
    y_ub = buf.get_with_offset(tile, nbytes, x.dtype)
    z_ub = buf.get_with_offset(tile, 2 * nbytes, x.dtype)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    for i in range(tiles):
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
        asc.data_copy(x_ub, x_gm[i * tile:], tile)
        asc.data_copy(y_ub, y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_S, 0)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_S, 0)  # sync
        s = x_ub.get_value(0)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.muls(z_ub, y_ub, s, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.data_copy(z_gm[i * tile:], z_ub, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
"""

# d. a reduction: z[t] = sum(x_t * y_t) for each tile t of the block, collected in the UB by the scalar
# unit and copied out once at the end (tiles float32 = a multiple of 32 bytes).
TILE_DOT = "@asc.jit\ndef tile_dot" + _SIG + _GM + """\
    z_gm.set_global_buffer(z + asc.get_block_idx() * tiles, tiles)
    pipe.init_buffer(buf, 4 * nbytes + 64 + tiles * 4)
    x_ub = buf.get_with_offset(tile, 0, x.dtype)
    y_ub = buf.get_with_offset(tile, nbytes, x.dtype)
    p_ub = buf.get_with_offset(tile, 2 * nbytes, x.dtype)
    tmp_ub = buf.get_with_offset(tile, 3 * nbytes, x.dtype)
    r_ub = buf.get_with_offset(16, 4 * nbytes, x.dtype)
    o_ub = buf.get_with_offset(tiles, 4 * nbytes + 64, x.dtype)
    for i in range(tiles):
        asc.data_copy(x_ub, x_gm[i * tile:], tile)
        asc.data_copy(y_ub, y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.mul(p_ub, x_ub, y_ub, tile)
        asc.reduce_sum(r_ub, p_ub, tmp_ub, tile)
        asc.set_flag(asc.HardEvent.V_S, 0)  # sync
        asc.wait_flag(asc.HardEvent.V_S, 0)  # sync
        o_ub.set_value(i, r_ub.get_value(0))
    asc.set_flag(asc.HardEvent.S_MTE3, 0)  # sync
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)  # sync
    asc.data_copy(z_gm, o_ub, tiles)
"""

# e. an `if` in the loop: even tiles z = relu(x), odd tiles z = |x| + y.
IF_PARITY = "@asc.jit\ndef if_parity" + _SIG + _GM + """\
    z_gm.set_global_buffer(z + start, block_length)
    pipe.init_buffer(buf, 3 * nbytes)
    x_ub = buf.get_with_offset(tile, 0, x.dtype)
    y_ub = buf.get_with_offset(tile, nbytes, x.dtype)
    z_ub = buf.get_with_offset(tile, 2 * nbytes, x.dtype)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    for i in range(tiles):
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
        asc.data_copy(x_ub, x_gm[i * tile:], tile)
        asc.data_copy(y_ub, y_gm[i * tile:], tile)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)  # sync
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)  # sync
        if i % 2 == 0:
            asc.relu(z_ub, x_ub, tile)
        else:
            asc.abs(z_ub, x_ub, tile)
            asc.add(z_ub, z_ub, y_ub, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)  # sync
        asc.data_copy(z_gm[i * tile:], z_ub, tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)  # sync
"""


def _tiles(a: np.ndarray, shape: Shape) -> np.ndarray:
    return a.reshape(shape.blocks, shape.tiles, shape.tile)


def _ref_add(x: np.ndarray, y: np.ndarray, shape: Shape) -> np.ndarray:
    return x + y


def _ref_scale(x: np.ndarray, y: np.ndarray, shape: Shape) -> np.ndarray:
    return (_tiles(y, shape) * _tiles(x, shape)[:, :, :1]).reshape(-1)


def _ref_dot(x: np.ndarray, y: np.ndarray, shape: Shape) -> np.ndarray:
    # the inputs are small integers, so every order of summation gives these exact sums
    return (_tiles(x, shape).astype(np.float64) * _tiles(y, shape)).sum(axis=2).astype(np.float32).reshape(-1)


def _ref_if(x: np.ndarray, y: np.ndarray, shape: Shape) -> np.ndarray:
    xt, yt = _tiles(x, shape), _tiles(y, shape)
    even = (np.arange(shape.tiles) % 2 == 0)[None, :, None]
    return np.where(even, np.maximum(xt, np.float32(0)), np.abs(xt) + yt).reshape(-1)


def _signed(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.standard_normal(n).astype(np.float32)


def _small_ints(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(-8, 9, n).astype(np.float32)


@dataclass(frozen=True)
class SyncKernel:
    """One kernel: its source (hand syncs marked), the NumPy reference z = f(x, y), how to make x and y,
    and z's length for a shape."""

    name: str
    source: str
    reference: Callable[[np.ndarray, np.ndarray, Shape], np.ndarray]
    data: Callable[[np.random.Generator, int], np.ndarray] = _signed
    per_tile_output: bool = False  # z has one element per tile (else one per element of x)

    def z_len(self, shape: Shape) -> int:
        return shape.blocks * shape.tiles if self.per_tile_output else shape.n

    def inputs(self, shape: Shape, seed: int = 0) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """x, y and a zeroed z for `shape`."""
        rng = np.random.default_rng(seed)
        x, y = self.data(rng, shape.n), self.data(rng, shape.n)
        return x, y, np.zeros(self.z_len(shape), np.float32)

    def expected(self, x: np.ndarray, y: np.ndarray, shape: Shape) -> np.ndarray:
        return self.reference(x, y, shape).astype(np.float32)


KERNELS: Dict[str, SyncKernel] = {k.name: k for k in (
    SyncKernel("add_single", ADD_SINGLE, _ref_add),
    SyncKernel("add_double", ADD_DOUBLE, _ref_add),
    SyncKernel("scale_by_first", SCALE_BY_FIRST, _ref_scale),
    SyncKernel("tile_dot", TILE_DOT, _ref_dot, _small_ints, per_tile_output=True),
    SyncKernel("if_parity", IF_PARITY, _ref_if),
)}

HEADER = "# generated by benchmarks/kernels_sync.py\nimport asc\n\n\n"


def _is_sync_line(line: str) -> bool:
    return line.rstrip().endswith(SYNC_MARK)


def check_marks(source: str) -> None:
    """Every sync call is on a `# sync` line and every `# sync` line holds one: the auto form then has
    no sync left and nothing else removed."""
    for no, line in enumerate(source.splitlines(), 1):
        has_call = any(c in line for c in SYNC_CALLS.values()) or any(c in line for c in EVENT_ID_CALLS)
        if has_call != _is_sync_line(line):
            what = "a sync call without the mark" if has_call else "the mark without a sync call"
            raise ValueError(f"line {no} has {what} `{SYNC_MARK}`: {line.strip()}")


def _decorator(options: Dict[str, object]) -> str:
    if not options:
        return JIT_LINE
    return "@asc.jit(" + ", ".join(f"{k}={v!r}" for k, v in options.items()) + ")\n"


def _body(source: str) -> str:
    check_marks(source)
    if not source.startswith(JIT_LINE):
        raise ValueError(f"a kernel source starts with {JIT_LINE!r}")
    return source[len(JIT_LINE):]


def hand_source(source: str, sanitize: Optional[str] = None) -> str:
    """The hand-synchronised kernel: the source as written (with `sanitize`: that jit option, so that
    PYASC_SANITIZE cannot weaken the check)."""
    return _decorator({"sanitize": sanitize} if sanitize else {}) + _body(source)


def auto_source(source: str, sanitize: Optional[str] = None) -> str:
    """The auto kernel: every `# sync` line deleted, decorated `@asc.jit(insert_sync=True)`."""
    options: Dict[str, object] = {"insert_sync": True}
    if sanitize:
        options["sanitize"] = sanitize
    kept = [line for line in _body(source).splitlines(keepends=True) if not _is_sync_line(line)]
    text = _decorator(options) + "".join(kept)
    ast.parse(text)  # deleting the syncs must leave no empty block
    return text


def sync_counts(source: str) -> Dict[str, int]:
    """The hand-written syncs of a source: set_flag, wait_flag and pipe_barrier lines (static counts)."""
    counts = {kind: 0 for kind in SYNC_CALLS}
    for line in source.splitlines():
        if _is_sync_line(line):
            for kind, call in SYNC_CALLS.items():
                counts[kind] += line.count(call)
    return counts


_IR_OPS = {"set": '"asc.set_flag"', "wait": '"asc.wait_flag"', "barrier": '"asc.pipe_barrier"'}


def ir_sync_counts(ir_text: str) -> Dict[str, int]:
    """The set_flag, wait_flag and pipe_barrier ops in a kernel's IR text (static counts)."""
    return {kind: ir_text.count(op) for kind, op in _IR_OPS.items()}


_loaded = 0


def load(source: str, directory: Path, stem: str) -> ModuleType:
    """Writes `source` (with `import asc` before it) to directory/stem.py and imports it as a new
    module; the kernel's file and line numbers are those of that file."""
    global _loaded
    _loaded += 1
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", stem):
        raise ValueError(f"not a module name: {stem!r}")
    path = Path(directory) / f"{stem}.py"
    path.write_text(HEADER + source)
    name = f"_pyasc_sync_{stem}_{_loaded}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def build(kernel: SyncKernel, directory: Path, sanitize: Optional[str] = "error") -> Tuple[JITFunction, JITFunction]:
    """The hand and the auto JITFunction of `kernel`, from files in `directory`, both with the jit
    option `sanitize` (None: the process default, PYASC_SANITIZE)."""
    hand = load(hand_source(kernel.source, sanitize), directory, f"{kernel.name}_hand")
    auto = load(auto_source(kernel.source, sanitize), directory, f"{kernel.name}_auto")
    return getattr(hand, kernel.name), getattr(auto, kernel.name)


def launch(fn: JITFunction, kernel: SyncKernel, shape: Shape, seed: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """Runs `fn` (a form of `kernel`) once on fresh inputs: (z, expected z)."""
    x, y, z = kernel.inputs(shape, seed)
    fn[shape.blocks](x, y, z, shape.tiles, shape.tile)
    return z, kernel.expected(x, y, shape)


def compiled_ir(fn: JITFunction) -> List[str]:
    """The final IR text of every specialisation of `fn` compiled so far."""
    return [c.ir_text() for c in fn.cache.values()]


# ---- the examples as they are ----------------------------------------------------------------------

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


@dataclass(frozen=True)
class ExampleKernel:
    """A kernel of examples/, unmarked: the hand form is its file as it is, the auto form the same file
    with every sync call removed from the kernel's syntax tree (and an `if` or loop left empty by that
    with it). It takes (x, y, z, block_length) and computes z = x + y."""

    name: str
    path: Path
    function: str

    def source(self) -> str:
        return self.path.read_text()


EXAMPLES: Dict[str, ExampleKernel] = {k.name: k for k in (
    ExampleKernel("example_01_add", EXAMPLES_DIR / "01_add" / "add.py", "add_kernel"),
)}


def _is_sync_call(node: ast.AST) -> bool:
    call = node.value if isinstance(node, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("set_flag", "wait_flag", "pipe_barrier"))


class _StripSyncs(ast.NodeTransformer):
    def __init__(self, function: str, options: Dict[str, object], strip: bool):
        self.function, self.options, self.strip = function, options, strip
        self.removed: Dict[str, int] = {kind: 0 for kind in SYNC_CALLS}

    def _body(self, stmts: List[ast.stmt]) -> List[ast.stmt]:
        out = []
        for s in stmts:
            if _is_sync_call(s):
                attr = s.value.func.attr  # type: ignore[attr-defined]
                self.removed[{"set_flag": "set", "wait_flag": "wait", "pipe_barrier": "barrier"}[attr]] += 1
                if self.strip:
                    continue
            s = self.visit(s)
            if isinstance(s, (ast.If, ast.For, ast.While)) and not s.body:
                if isinstance(s, ast.If) and s.orelse:
                    s.body = [ast.Pass()]
                else:
                    continue
            out.append(s)
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        # statements hold the sync calls: only their blocks are walked (each statement once)
        for name in ("body", "orelse"):
            if isinstance(getattr(node, name, None), list) and not isinstance(node, ast.Module):
                setattr(node, name, self._body(getattr(node, name)))
        return node

    def visit_Module(self, node: ast.Module) -> ast.AST:
        node.body = [self.visit(s) for s in node.body]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        if node.name != self.function:
            return node
        node.body = self._body(node.body)
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        node.decorator_list = [ast.parse(f"asc.jit({opts})" if opts else "asc.jit", mode="eval").body]
        return node


def example_source(kernel: ExampleKernel, auto: bool, sanitize: Optional[str] = None) -> Tuple[str, Dict[str, int]]:
    """The example's file with its kernel decorated for the form (auto: insert_sync=True and its syncs
    removed), and the counts of the sync calls the kernel writes."""
    options: Dict[str, object] = {"insert_sync": True} if auto else {}
    if sanitize:
        options["sanitize"] = sanitize
    t = _StripSyncs(kernel.function, options, auto)
    tree = ast.fix_missing_locations(t.visit(ast.parse(kernel.source())))
    return ast.unparse(tree) + "\n", t.removed


def build_example(kernel: ExampleKernel, directory: Path,
                  sanitize: Optional[str] = "error") -> Tuple[JITFunction, JITFunction]:
    hand = load(example_source(kernel, False, sanitize)[0], directory, f"{kernel.name}_hand")
    auto = load(example_source(kernel, True, sanitize)[0], directory, f"{kernel.name}_auto")
    return getattr(hand, kernel.function), getattr(auto, kernel.function)


def launch_example(fn: JITFunction, shape: Shape, seed: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """z = x + y on shape.blocks blocks of shape.tiles * shape.tile elements (whole numbers, exact)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-100, 100, shape.n).astype(np.float32)
    y = rng.integers(-100, 100, shape.n).astype(np.float32)
    z = np.zeros_like(x)
    fn[shape.blocks](x, y, z, shape.tiles * shape.tile)
    return z, x + y
