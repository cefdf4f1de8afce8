"""The compiler driver: a kernel specialisation → IR → passes → bytecode
(and, on demand, Ascend C)."""

from __future__ import annotations

import contextlib
import gc
import threading
from typing import Any, Dict, Iterator, List, Optional, Tuple

from .. import _C
from ..codegen import builder as _b
from ..codegen.errors import CompileError
from ..codegen.function_visitor import FunctionVisitor
from ..language.core.values import wrap_ir
from .compiled import CompiledKernel, global_key, write_pass_log  # noqa: F401 (compiler's names)
from .dump import dump_dir, write_dumps
from .hashing import sha256

# The passes every kernel goes through before it runs (see src/passes/).
PIPELINE = ("canonicalize", "dce")

# family ubplan: a kernel holding one of these ops is compiled with insert_sync=True unless the option
# says otherwise (upstream's need_insert_sync), and goes through sync_pipeline's passes.
AUTO_TENSOR_OP = '"asc.local_tensor_auto"'

# family: tiles. The asc2 front end's tile ops (ops.def); a kernel holding one goes through lower-tiles first,
# which makes its tiles auto tensors (so it is planned and synced as a LocalTensorAuto kernel is).
TILE_OP_PREFIX = '"asc2.'


def sync_pipeline(options: Dict[str, Any], has_auto: bool = False, platform: str = "",
                  module: Any = None) -> List[str]:
    """The passes after PIPELINE for kernels with asc.LocalTensorAuto or
    insert_sync: `inline` (the planner and the sync analysis see one kernel
    body), `plan-ub` with the UB the kernel may use on the platform
    (usable_ub; auto tensors only), then `insert-sync` with its options
    (auto-sync: the Ascend C compiler's own auto-sync orders the V pipe;
    replace: the kernel's own syncs go)."""
    mode = options.get("insert_sync")
    if not (has_auto or mode):
        return []
    passes = ["inline"]
    if has_auto:
        ub = usable_ub(platform, options, module) if platform else 0
        passes.append(f"plan-ub{{ub={ub}}}" if ub else "plan-ub")
    if mode:
        opts = [o for o, on in (("auto-sync", options.get("auto_sync", True)), ("replace", mode == "replace")) if on]
        passes.append("insert-sync{" + ",".join(opts) + "}" if opts else "insert-sync")
    return passes


# the Ascend C compiler option that gives the kernel the 8 KiB of UB Ascend C otherwise keeps for a few APIs
# (静态Tensor编程.md; upstream passes compiler options through bisheng_options)
DISABLE_RESERVED_UBUF = "--cce-disable-asc-reserved-ubuf"


def reserved_ubuf_disabled(options: Dict[str, Any]) -> bool:
    """Whether the jit's bisheng_options hold --cce-disable-asc-reserved-ubuf."""
    return DISABLE_RESERVED_UBUF in (options.get("bisheng_options") or ())


def usable_ub(platform: str, options: Dict[str, Any], module: Any = None) -> int:
    """The UB bytes a kernel may use on the platform (架构规格/NPU架构版本2201.md; src/sim/reserve.c): the
    platform's UB less the 256 bytes the framework and compiler keep when the kernel is MIX, less the 8 KiB
    Ascend C keeps when it uses an API of 静态Tensor编程.md's table 5 (Select, AddDeqRelu, ...). With the
    kernel's module (`module`, its kernel type set by detect-kernel-type) that is Module.reserve's figure,
    exactly what the simulator lets the kernel use. Without it, what any kernel may use: both parts kept, the
    8 KiB not with --cce-disable-asc-reserved-ubuf (no API may use them then)."""
    if module is not None:
        return int(module.reserve(platform)["ub_user"])
    row = _C.platform(platform)
    keep = row["ub_asc_reserved"] + (0 if reserved_ubuf_disabled(options) else row["ub_api_reserved"])
    return int(row["ub_size"] - keep)


def kernel_type_pass(options: Dict[str, Any]) -> str:
    """family: cores. The detect-kernel-type pass for these options: the jit option kernel_type when given
    (it wins), else detection (src/passes/kernel_type.c: a kernel using the cube core is MIX_AIC_1_2, or AIC_ONLY
    with matmul_cube_only=True; otherwise AIV_ONLY)."""
    kt = options.get("kernel_type")
    if kt is not None:
        return f"detect-kernel-type{{type={int(kt.value)}}}"
    return "detect-kernel-type{cube-only}" if options.get("matmul_cube_only") else "detect-kernel-type"


def effective_options(options: Dict[str, Any], ir_text: str) -> Dict[str, Any]:
    """The options a module is compiled with: insert_sync=None becomes True
    when the kernel uses asc.LocalTensorAuto (else False)."""
    if options.get("insert_sync") is None:
        options = dict(options, insert_sync=AUTO_TENSOR_OP in ir_text or TILE_OP_PREFIX in ir_text)
    return options


# Called with each new CompiledKernel (the test suite uses this to check the
# Ascend C of every kernel it compiles).
compile_listeners: List[Any] = []

# A kernel parameter after specialisation: ("gm", dtype name) | ("int",) |
# ("float",) | ("bool",) | ("const", value) | ("struct", Struct class, layout)
ParamSpec = Tuple[Any, ...]


# The builder stack of codegen/builder.py is process-wide: compilations from
# several threads take turns (launches still run in parallel).
_COMPILE_LOCK = threading.RLock()


def specialization_key(name: str, specs: Dict[str, ParamSpec], extra: Any = ()) -> str:
    """12 hex digits naming a specialisation in file names."""
    text = repr((name, sorted((k, repr(v)) for k, v in specs.items()), extra))
    return sha256(text.encode()).hexdigest()[:12]


def compile_kernel(jit_fn: Any, specs: Dict[str, ParamSpec], options: Optional[Dict[str, Any]] = None,
                   platform: str = "") -> CompiledKernel:
    with _COMPILE_LOCK:
        compiled = _compile_kernel(jit_fn, specs, options or {}, platform)
    for listener in compile_listeners:
        listener(compiled)
    return compiled


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the front end runs.

    The front end allocates a few objects per statement (AST nodes, IR
    wrappers) and keeps most of them until the kernel is built; every full
    collection then walks all of them again, which made building a 30k
    statement kernel 1.2-1.5x slower per statement than a 1k one. The
    compilation frees what it allocated by reference counting; cycles it
    left are collected as usual once the collector is back on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build_module(jit_fn: Any, specs: Dict[str, ParamSpec]) -> Tuple[Any, Any, List[str]]:
    """The front end: the kernel's Python source → its IR module, before the
    passes. Returns (module, visitor, names of the runtime parameters)."""
    with _gc_paused():
        return _build_module(jit_fn, specs)


def _build_module(jit_fn: Any, specs: Dict[str, ParamSpec]) -> Tuple[Any, Any, List[str]]:
    builder = _b.IRBuilder(jit_fn.name)
    jit_fn.parse()
    with _b.active(builder):
        types: List[Any] = []
        runtime: List[str] = []
        for name, spec in specs.items():
            kind = spec[0]
            if kind == "const":
                continue
            if kind == "gm":
                types.append(builder.type("global_address", spec[1]))
            elif kind == "struct":
                types.append(spec[1].ir_type(builder))  # (asc.adv.TCubeTiling: the table's type)
            else:
                types.append(builder.type("scalar", {"int": "int32", "float": "float32", "bool": "bool"}[kind]))
            runtime.append(name)
        loc = (jit_fn.filename, jit_fn.first_line, 0)
        fop = builder.module.add_function(jit_fn.name, types, [], True, loc)
        block = fop.region(0)
        scope: Dict[str, Any] = {}
        for name, arg in zip(runtime, block.args):
            arg.name = name
            scope[name] = specs[name][1](handle=arg) if specs[name][0] == "struct" else wrap_ir(arg)
        for name, spec in specs.items():
            if spec[0] == "const":
                scope[name] = spec[1]
        visitor = FunctionVisitor(builder, jit_fn, scope, is_kernel=True)
        with builder.insertion(block):
            visitor.run()
            builder.loc = visitor.end_loc
            builder.create("func.return", [])
    return builder.module, visitor, runtime


def _compile_kernel(jit_fn: Any, specs: Dict[str, ParamSpec], options: Dict[str, Any],
                    platform: str) -> CompiledKernel:
    module, visitor, runtime = build_module(jit_fn, specs)
    ir_initial = module.print()
    has_tiles = TILE_OP_PREFIX in ir_initial
    has_auto = AUTO_TENSOR_OP in ir_initial or has_tiles
    options = effective_options(options, ir_initial)
    try:
        module.verify()
        if has_tiles:  # (also with run_passes=False: nothing runs tile ops)
            # tiles too large for the UB become loops over chunks (the UB any kernel may use: the kernel type is
            # not known yet)
            ub = usable_ub(platform, options) if platform else 0
            module.run_pass(f"split-tiles{{ub={ub}}}" if ub else "split-tiles")
            module.run_pass("lower-tiles")  # (it verifies what it made: an invalid op is its IRError)
        passes = list(PIPELINE) if options.get("run_passes", True) else []
        for name in passes:
            module.run_pass(name)
        if reserved_ubuf_disabled(options):
            # the APIs that use the reserved UB are compile errors (they could not have their 8 KiB)
            module.run_pass("reserved-ubuf{disable}")
        # family: cores. Before the UB plan: a MIX kernel leaves the UB's last 256 bytes free (usable_ub). The
        # passes after it add no op that decides the type (the planner's TPipe and TBuf, insert-sync's flags).
        module.run_pass(kernel_type_pass(options))
        # (auto tensors are planned even with run_passes=False: nothing runs them unplanned)
        synced = sync_pipeline(options, has_auto, platform, module)
        for name in synced:
            module.run_pass(name)
        if synced:
            module.verify()
        kernel = module.compile(jit_fn.name)
    except _C.IRError as e:
        # the core names the op and the rule; which forms and types exist is in the docs
        msg, file, line, col = e.args
        raise CompileError(msg, file, line, col,
                           "hint: docs/api.md lists the forms, parameters and element types each API "
                           "takes") from None
    key = specialization_key(jit_fn.name, specs, (platform, sorted((k, repr(v)) for k, v in options.items())))
    compiled = CompiledKernel(jit_fn.name, module, kernel, runtime, ir_initial, visitor.globals_used, key)
    log = module.pass_log()
    compiled.pass_log = log
    compiled.options = options  # family ubplan: as compiled (insert_sync resolved)
    write_pass_log(log, options)
    if dump_dir() is not None:
        texts = {"initial": ir_initial, "final": compiled.ir_text(), "ascendc": compiled.ascendc()}
        if log:
            texts["passes"] = log
        write_dumps(jit_fn.name, key, texts)
    return compiled
