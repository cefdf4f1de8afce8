"""Launching a compiled kernel: argument conversion and error mapping."""

from __future__ import annotations

import inspect
import struct
import sys
import warnings
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .. import _C
from ..codegen.errors import KernelError, SanitizerError, SanitizerWarning
from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.struct import Struct, layout_key
from ..language.core.values import GlobalAddress
from ..lib.runtime import state
from ..profiler import session as _profiling
from . import memory_cache
from .jit import LAUNCH_ONLY_OPTIONS, OPTIONS, JITFunction, check_options, max_steps_arg, sanitize_code
from .tensor_list import TensorList  # family: listtensor

_SCALAR_ANNOTATIONS = {int: "int", float: "float", bool: "bool"}
_EMPTY = inspect.Parameter.empty  # family: listtensor
# marks a compiled kernel as just launched (bound once: Launcher._fast calls it every launch)
_touch = memory_cache.touch



def _is_torch_tensor(x: Any) -> bool:
    """An actual torch.Tensor (or subclass). torch is never imported here:
    if the caller has not imported it, nothing can be a tensor."""
    torch = sys.modules.get("torch")
    tensor_type = getattr(torch, "Tensor", None)
    return isinstance(tensor_type, type) and isinstance(x, tensor_type)


def _gm_arg(name: str, x: Any) -> Tuple[str, Tuple[Any, ...]]:
    """(dtype name, launch tuple) of an array argument, used in place."""
    if isinstance(x, np.ndarray):
        dtype = dt.from_numpy(x.dtype)
        if dtype is None:
            raise TypeError(f"argument `{name}`: NumPy dtype {x.dtype} is not supported by asc")
        if not x.flags.c_contiguous:
            raise ValueError(f"argument `{name}` is not C-contiguous; pass np.ascontiguousarray({name})")
        return dtype.name, x  # passed through the buffer protocol (read-only arrays stay read-only)
    if _is_torch_tensor(x):
        dtype = dt.from_torch(x.dtype)
        if dtype is None:
            raise TypeError(f"argument `{name}`: torch dtype {x.dtype} is not supported by asc")
        if x.device.type != "cpu":
            if x.device.type == "npu" and state.backend == "NPU":  # torch_npu: passed by its device address
                return dtype.name, ("npu", x)
            raise ValueError(f"argument `{name}` is on {x.device}; Backend.{state.backend} runs on CPU tensors"
                             + (" (and torch_npu tensors)" if state.backend == "NPU" else ""))
        if x.layout != sys.modules["torch"].strided:
            raise ValueError(f"argument `{name}` has layout {x.layout}; pass a dense tensor ({name}.to_dense())")
        if not x.is_contiguous():
            raise ValueError(f"argument `{name}` is not contiguous; pass {name}.contiguous()")
        # the bound of every access is what the storage really holds, not what the view's
        # metadata claims (a storage resized to 0 keeps its tensors' shapes)
        esize = x.element_size()
        nbytes = x.numel() * esize
        storage = x.untyped_storage()
        need = x.storage_offset() * esize + nbytes
        if storage.nbytes() < need:
            raise ValueError(f"argument `{name}`: its storage holds {storage.nbytes()} bytes but the tensor needs "
                             f"{need} (was the storage resized?); pass a tensor that owns its data")
        ptr = x.data_ptr()
        if nbytes and not ptr:
            raise ValueError(f"argument `{name}` has no data (a null data pointer)")
        # the storage object rides along so that it stays alive for the launch even if the tensor
        # is rebound meanwhile (docs/errors.md says what cannot be prevented)
        return dtype.name, ("gm", ptr, nbytes, False, storage)
    raise TypeError(f"argument `{name}` must be a NumPy array or a torch tensor, got {type(x).__name__}")


def _scalar_kind(name: str, x: Any, annotation: Any) -> str:
    want = _SCALAR_ANNOTATIONS.get(annotation)
    if isinstance(x, (bool, np.bool_)):
        kind = "bool"
    elif isinstance(x, (int, np.integer)):
        kind = "int"
    elif isinstance(x, (float, np.floating)):
        kind = "float"
    else:
        raise TypeError(f"argument `{name}` must be a number, got {type(x).__name__}")
    if want == "float" and kind in ("int", "bool"):
        return "float"
    if want is not None and want != kind:
        raise TypeError(f"argument `{name}` is annotated {annotation.__name__} but got {type(x).__name__}")
    return kind


def _struct_spec(name: str, value: Any, annotation: Any) -> Tuple[Any, ...]:
    """The specialisation of a Struct argument: its class, and its layout
    (which names the compiled kernel on disk)."""
    if not isinstance(value, Struct) or value.handle is not None:
        raise TypeError(f"argument `{name}` is annotated {annotation.__name__} but got {type(value).__name__}")
    if isinstance(annotation, type) and issubclass(annotation, Struct) and not isinstance(value, annotation):
        raise TypeError(f"argument `{name}` is annotated {annotation.__name__} but got a "
                        f"{type(value).__name__}")
    return ("struct", type(value), layout_key(type(value)))


_API_NAMES = {
    "asc.data_copy.gm_to_local": "asc.data_copy", "asc.data_copy.local_to_gm": "asc.data_copy",
    "asc.data_copy.local_to_local": "asc.data_copy", "asc.local_tensor": "asc.LocalTensor",
    "asc.global_tensor.set_global_buffer": "GlobalTensor.set_global_buffer",
    "asc.tpipe.init_buffer_que": "TPipe.init_buffer", "asc.tpipe.init_buffer_buf": "TPipe.init_buffer",
    "arith.div": "operator / or //", "arith.rem": "operator %", "arith.shl": "operator <<",
    "arith.shr": "operator >>", "func.call": "call of an @asc.jit function", "scf.for": "for ... in range()",
    "scf.while": "while", "scf.condition": "while", "asc.global_address.offset": "GlobalAddress + offset",
    "asc.global_tensor.offset": "GlobalTensor[offset:]", "asc.local_tensor.offset": "LocalTensor[offset:]",
    # family listtensor
    "asc.list_tensor_desc.from_data": "asc.ListTensorDesc", "asc.list_tensor_desc": "asc.ListTensorDesc",
    "asc.tensor_desc": "asc.TensorDesc",
}


def api_name(op: str) -> str:
    """The Python API name of an IR op, for messages."""
    if op in _API_NAMES:
        return _API_NAMES[op]
    if op.endswith(".l0"):  # the level-0 form of an instruction is the same API
        op = op[: -len(".l0")]
    parts = op.split(".")
    if len(parts) == 3 and parts[0] == "asc":
        cls = {"tque": "TQue", "tbuf": "TBuf", "tpipe": "TPipe", "global_tensor": "GlobalTensor",
               "local_tensor": "LocalTensor", "tensor_desc": "TensorDesc",
               "list_tensor_desc": "ListTensorDesc"}.get(parts[1], parts[1])
        return f"{cls}.{parts[2]}"
    return op


def _stamp_timing(compiled: Any) -> Any:
    """family debug: the timing model of a launch that is not profiled, for a kernel whose
    print_time_stamp prints its cycle (no records kept); None for other kernels."""
    return {"params": None, "record": False} if getattr(compiled, "time_stamps", False) else None


class Launcher:
    """`kernel[core_num, stream]`: calling it launches the kernel.

    A launch of an already compiled specialisation takes the fast path: the
    argument types (and ConstExpr values) form a tuple looked up in the
    kernel's fast cache, and the arguments go straight to the C launcher
    (arrays through the buffer protocol). Anything else (keywords, a new
    specialisation, a bad argument) takes the full path, which checks every
    argument and explains what is wrong."""

    __slots__ = ("fn", "core_num", "stream")

    def __init__(self, fn: JITFunction, core_num: int, stream: Any):
        self.fn = fn
        self.core_num = core_num
        self.stream = stream

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        conv = self.fn.arg_converter
        if conv is not None:  # family: tiles (asc2's 0-dim tensors are scalars)
            args, kwargs = conv(args, kwargs)
        if not kwargs and self._fast(args):
            return
        self._full(args, kwargs)

    def _fast(self, args: Tuple[Any, ...]) -> bool:
        fn = self.fn
        if (len(args) != len(fn.const_mask) or fn.options["always_compile"] or state.backend != "Model"
                or _profiling.enabled):
            return False
        key = fast_key(args, fn.const_mask)
        if key is None:
            return False
        platform = state.soc_version
        try:
            compiled = fn.fast_cache.get((key, platform))
        except TypeError:  # an unhashable ConstExpr value
            return False
        if compiled is None or compiled.globals_changed():
            return False
        try:
            _touch(compiled)  # most recently used (see memory_cache)
        except KeyError:
            pass  # evicted by another thread just now: this launch still holds it
        runtime_args = [a for a, const in zip(args, fn.const_mask) if not const]
        try:
            reports = compiled.kernel.launch(self.core_num, platform, runtime_args, state.workers, fn.san_code,
                                             _stamp_timing(compiled), fn.max_steps,
                                             precision=state.PRECISIONS[state.precision])
        except _C.LaunchError as e:
            raise _kernel_error(fn, e) from None
        except (TypeError, ValueError, OverflowError, BufferError):
            return False  # the full path names the argument and what is wrong with it
        if reports is not None:
            _warn(fn, reports)
        return True

    def _full(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
        fn = self.fn
        # keywords naming a compile option (and no kernel parameter) are per-call options
        params = fn.signature.parameters
        call_options = {k: kwargs.pop(k) for k in list(kwargs) if k in OPTIONS and k not in params}
        options = fn.options
        if call_options:
            check_options(call_options, fn.signature.parameters)
            options = {**fn.options, **call_options}
        try:
            bound = fn.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{fn.name}: {e}") from None
        bound.apply_defaults()
        specs: Dict[str, Tuple[Any, ...]] = {}
        launch_args: List[Any] = []
        tensor_lists: List[Tuple[int, str, TensorList]] = []  # family: listtensor
        for name, value in bound.arguments.items():
            ann = fn.signature.parameters[name].annotation
            if isinstance(value, TensorList):  # family: listtensor: a uint8 GM address, packed below
                if ann is not GlobalAddress and ann is not _EMPTY:
                    raise TypeError(f"argument `{name}` is an asc.TensorList: annotate its parameter "
                                    f"asc.GlobalAddress")
                specs[name] = ("gm", "uint8")
                tensor_lists.append((len(launch_args), name, value))
                launch_args.append(None)
            elif is_constexpr_annotation(ann):
                value = ConstExpr.unwrap(value)
                if isinstance(value, (np.ndarray,)) or _is_torch_tensor(value):
                    raise TypeError(f"argument `{name}` is asc.ConstExpr and cannot be an array")
                if isinstance(value, np.generic):
                    value = value.item()
                specs[name] = ("const", value)
            elif isinstance(value, np.ndarray) or _is_torch_tensor(value):
                if ann in _SCALAR_ANNOTATIONS:
                    raise TypeError(f"argument `{name}` is annotated {ann.__name__} but got an array "
                                    f"({type(value).__name__})")
                dname, launch = _gm_arg(name, value)
                specs[name] = ("gm", dname)
                launch_args.append(launch)
            elif isinstance(value, Struct) or (isinstance(ann, type) and issubclass(ann, Struct)):
                specs[name] = _struct_spec(name, value, ann)
                launch_args.append(("struct", tuple(value.values())))
            else:
                if ann is GlobalAddress:
                    raise TypeError(f"argument `{name}` is annotated asc.GlobalAddress: pass a NumPy array or a "
                                    f"torch tensor, got {type(value).__name__}")
                kind = _scalar_kind(name, value, ann)
                specs[name] = (kind,)
                if kind == "float":
                    launch_args.append(float(value))
                else:
                    iv = int(value)
                    if kind == "int" and not -(2**31) <= iv < 2**31:
                        raise OverflowError(f"argument `{name}` = {iv} does not fit the kernel's int32 parameter")
                    launch_args.append(iv)
        n_extra = _pack_tensor_lists(launch_args, tensor_lists)  # family: listtensor
        platform = state.soc_version
        spec_key = tuple((k, _freeze(v)) for k, v in specs.items())
        option_key = tuple(sorted((k, repr(v)) for k, v in options.items() if k not in LAUNCH_ONLY_OPTIONS))
        key = (spec_key, platform, option_key)
        always = options.get("always_compile")
        compiled = None if always else fn.cache.get(key)
        if compiled is not None and compiled.globals_changed():
            compiled = None  # a module-level constant or closure variable it read has a new value
        if compiled is None:
            compiled = get_compiled(fn, specs, spec_key, options, platform, use_disk=not always)
        # into fn.cache, and marked as just used in the process-wide bound (may evict others)
        memory_cache.remember(fn, key, compiled)
        if not call_options and not kwargs:
            fk = fast_key(args, fn.const_mask)
            if fk is not None:
                try:
                    memory_cache.remember_fast(fn, (fk, platform), compiled)
                except TypeError:
                    pass
        if state.backend == "NPU":
            if tensor_lists:
                raise NotImplementedError(f"{fn.name}: asc.TensorList arguments on Backend.NPU are not implemented "
                                          "(they run on Backend.Model)")
            _run_on_npu(compiled, platform, options, self.core_num, self.stream, bound.arguments, specs)
            return
        profiled = _profiling.enabled
        timing = _profiling.launch_spec() if profiled else _stamp_timing(compiled)
        try:
            reports = compiled.kernel.launch(self.core_num, platform, launch_args, state.workers,
                                             sanitize_code(options), timing=timing,
                                             max_steps=max_steps_arg(options), n_extra=n_extra,
                                             precision=state.PRECISIONS[state.precision])
        except _C.LaunchError as e:
            raise _kernel_error(fn, e) from None
        if timing is not None and profiled:
            _profiling.record(fn.name, platform, self.core_num, timing)
        if reports is not None:
            _warn(fn, reports)


def _pack_tensor_lists(launch_args: List[Any], lists: List[Tuple[int, str, TensorList]]) -> int:
    """family listtensor: each TensorList's words in place of its placeholder, and its arrays appended after
    the parameters as extra GM buffers; how many were appended."""
    n_params = len(launch_args)
    extra: List[Any] = []
    for pos, name, tl in lists:
        launch_args[pos] = tl.pack(n_params + len(extra)).view(np.uint8)
        for i, a in enumerate(tl.arrays):
            extra.append(_gm_arg(f"{name}[{i}]", a)[1])
    launch_args.extend(extra)
    return len(extra)


def fast_key(args: Tuple[Any, ...], const_mask: Tuple[bool, ...]) -> Any:
    """The fast-cache key of a positional argument list, or None if an
    argument is not of a kind the fast path handles."""
    key = []
    for a, const in zip(args, const_mask):
        t = type(a)
        if const:
            # floats by their text: 0.0 == -0.0 and nan != nan would alias or miss
            key.append((t, repr(a)) if t is float else (t, a))
        elif t is np.ndarray:
            key.append(a.dtype)
        elif t is int or t is float or t is bool:
            key.append(t)
        else:
            return None
    return tuple(key)


def _kernel_error(fn: JITFunction, e: Any) -> KernelError:
    status, message, block, file, line, col, op = e.args[:7]
    if len(e.args) > 7:  # a sanitized launch: (the report it fails with or None, the other reports)
        report, others = e.args[7]
        _warn(fn, others, stacklevel=5)
        if report is not None:
            return _sanitizer_error(fn, report)
    return KernelError(message, fn.name, block, api_name(op) if op else "", file, line, col)


def _sanitizer_error(fn: JITFunction, r: Dict[str, Any]) -> SanitizerError:
    """A sanitizer report (a dict from asc._C) as a SanitizerError."""
    pipes = tuple(p for p in (r["pipe"], r["pipe2"]) if p)
    return SanitizerError(r["message"], fn.name, r["block"], api_name(r["op"]) if r["op"] else "", r["file"],
                          r["line"], r["col"], kind=r["kind"], other_api=api_name(r["op2"]) if r["op2"] else "",
                          other_filename=r["file2"], other_line=r["line2"], other_col=r["col2"],
                          other_block=r["block2"], pipes=pipes, memory=r["memory"] or "",
                          byte_range=(r["lo"], r["hi"]), gm_arg=r["buf"], fix=r["fix"])


def _warn(fn: JITFunction, reports: Optional[List[Dict[str, Any]]], stacklevel: int = 4) -> None:
    """Sanitizer reports that do not fail the launch, as SanitizerWarnings
    (stacklevel: the user's line that launched the kernel)."""
    for r in reports or ():
        warnings.warn(SanitizerWarning(_sanitizer_error(fn, r)), stacklevel=stacklevel)


def _compile(fn: JITFunction, specs: Dict[str, Tuple[Any, ...]], options: Dict[str, Any], platform: str) -> Any:
    """compiler.compile_kernel, imported on first use: a process whose kernels all come from the disk cache never
    imports the compiler (a fresh process's first launch, docs/cache.md)."""
    from .compiler import compile_kernel

    return compile_kernel(fn, specs, options, platform)


def get_compiled(fn: JITFunction, specs: Dict[str, Tuple[Any, ...]], spec_key: Any, options: Dict[str, Any],
                 platform: str, use_disk: bool) -> Any:
    """From the disk cache if it holds a valid entry, else compiled (and stored)."""
    from . import cache
    from .compiled import CompiledKernel, write_pass_log
    from .dump import dump_dir

    # with PYASC_DUMP_PATH set every compilation runs, so that its dumps appear
    use_disk = use_disk and dump_dir() is None
    if not use_disk:
        return _compile(fn, specs, options, platform)

    def from_disk(loaded: Any, key: str) -> Any:
        hit = CompiledKernel(fn.name, loaded.module, loaded.kernel, loaded.runtime_params, loaded.ir_text,
                             loaded.globals_used, key[:12], from_disk=True)
        hit.pass_log = loaded.pass_log
        write_pass_log(loaded.pass_log, options)  # auto_sync_log gets it on a hit too
        return hit

    # the fast key first (no tokenizing of sources: docs/cache.md), the entry key on a miss
    memo: Dict[str, Any] = {}
    fast = cache.fast_key(fn, spec_key, platform, options, memo)
    if fast is not None:
        loaded = cache.load_fast(fn, fast, memo)
        if loaded is not None:
            return from_disk(loaded, loaded.key)
    key = cache.entry_key(fn, spec_key, platform, options)
    if key is None:
        return _compile(fn, specs, options, platform)
    loaded = cache.load(fn, key)
    if loaded is not None:
        if fast is not None:
            cache.link(fn, fast, key, loaded.checksum, loaded.globals_used, memo)
        return from_disk(loaded, key)
    compiled = _compile(fn, specs, options, platform)
    used = {k: v for k, (v, _) in compiled.globals_used.items()}
    manifest = cache.make_manifest(used)
    if manifest is not None:
        checksum = cache.store(fn.name, key, compiled.runtime_params, manifest, compiled.ir_text(),
                               compiled.pass_log)
        # the sources are read again: one edited during the compilation must not be linked to it
        if checksum is not None and fast is not None and cache.fast_key(fn, spec_key, platform, options, {}) == fast:
            cache.link(fn, fast, key, checksum, used, memo)
    return compiled


# family npu: the kernel types by the cores they run on (upstream pyasc's CoreType: AiCore for the MIX kernels
# with cube and vector cores, VectorCore, CubeCore), as rtDevBinary_t's magic
_MAGIC_AICORE, _MAGIC_AIVEC, _MAGIC_AICUBE = 0x43554245, 0x41415246, 0x41494343


def binary_magic(kernel_type: Any) -> int:
    """family npu: rtDevBinaryRegister's magic for a kernel type."""
    name = kernel_type.name
    if name in ("MIX_AIC_1_1", "MIX_AIC_1_2"):
        return _MAGIC_AICORE
    if name in ("AIV_ONLY", "MIX_AIV_1_0", "MIX_AIV_HARD_SYNC"):
        return _MAGIC_AIVEC
    return _MAGIC_AICUBE


def npu_args(compiled: Any, arguments: Dict[str, Any], specs: Dict[str, Tuple[Any, ...]],
             dump: bool = False) -> Tuple[List[Tuple[Any, ...]], List[Any]]:
    """family npu: the kernel's arguments in its signature's order for asc._C.npu_run (src/python/npu.c), and
    the objects that must stay alive while it runs. GM arrays go by their buffers (copied back unless
    read-only), torch CPU tensors by their data pointers (copied back), torch_npu tensors by their device
    address (no copy); the same buffer passed twice shares one device copy (buffers that overlap otherwise, one
    of them written, are a ValueError); a struct by its bytes (the kernel takes a GM pointer to them and copies
    them in, src/target/ascendc/emit.c); int / float / bool scalars as int32_t / float / bool; then a MIX
    kernel's FFTS address and, with dump, the dump buffer of a kernel that prints (family entry: upstream pyasc's
    order, explicit arguments, ffts_addr, dump_addr)."""
    out: List[Tuple[Any, ...]] = []
    keep: List[Any] = []
    # the host buffers so far: (start, end, index in out, name); one passed twice shares its device copy
    buffers: List[Tuple[int, int, int, str]] = []

    def host(name: str, obj: Any, start: int, nbytes: int, copy_back: bool) -> Tuple[Any, ...]:
        end = start + nbytes
        for s, e, j, other in buffers:
            if (s, e) == (start, end):
                if copy_back and not out[j][3]:  # written through this one: copied back through it
                    out[j] = ("host", obj, nbytes, True)
                return ("alias", j)
            if start < e and s < end and (copy_back or out[j][3]):
                raise ValueError(f"{compiled.name}: arguments `{other}` and `{name}` overlap in memory: Backend.NPU "
                                 "copies each argument to device memory of its own, so their writes could not "
                                 "meet; pass one array, or arrays that do not overlap")
        if nbytes:
            buffers.append((start, end, len(out), name))
        return ("host", obj, nbytes, copy_back)

    for name in compiled.runtime_params:
        value = arguments[name]
        kind = specs[name][0]
        if kind == "struct":
            data = value.pack()
            keep.append(data)
            out.append(("host", data, len(data), False))
        elif kind == "gm" and isinstance(value, np.ndarray):
            out.append(host(name, value, value.ctypes.data, value.nbytes, bool(value.flags.writeable)))
        elif kind == "gm" and _is_torch_tensor(value):
            if value.device.type == "npu":
                out.append(("device", int(value.data_ptr())))
            else:
                ptr = int(value.data_ptr())
                out.append(host(name, ptr, ptr, value.numel() * value.element_size(), True))
            keep.append(value)
        elif kind == "bool":
            out.append(("scalar", struct.pack("=?", bool(value)), 1))
        elif kind == "int":
            out.append(("scalar", struct.pack("=i", int(value)), 4))
        elif kind == "float":
            out.append(("scalar", struct.pack("=f", float(value)), 4))
        else:
            raise TypeError(f"{compiled.name}: argument `{name}` of type {type(value).__name__} cannot be passed "
                            "to an NPU kernel")
    if compiled.kernel_type.name in ("MIX_AIV_1_0", "MIX_AIC_1_0", "MIX_AIC_1_1", "MIX_AIC_1_2"):
        out.append(("ffts",))
    if dump:
        from .npu import TOTAL_DUMP_SIZE

        out.append(("dump", TOTAL_DUMP_SIZE))
    return out, keep


def _run_on_npu(compiled: Any, platform: str, options: Dict[str, Any], core_num: Any, stream: Any,
                arguments: Dict[str, Any], specs: Dict[str, Tuple[Any, ...]]) -> None:
    """Backend.NPU: compile and link the Ascend C with the CANN toolkit (runtime/npu.py), then launch the binary
    through the CANN runtime (src/npu/runtime.c): register it and the kernel, copy the arguments in, launch on
    core_num blocks, wait for the stream, copy the results back, print what the kernel printed, free.

    A kernel that prints from the device (asc.printf, asc.dump_tensor, ...) takes the dump buffer as its last
    argument and is compiled with -DASCENDC_DUMP=1; after the launch CANN's libascend_dump prints the buffer
    (Adx::AdumpPrintWorkSpace), as upstream pyasc does. With ASCENDC_DUMP=false it is built without both."""
    import shutil
    import tempfile
    import weakref
    from pathlib import Path

    from .. import _C
    from ..lib import runtime as rt
    from .npu import ToolkitMissing, compile_for_npu, device_dump_enabled

    def failed(e: Any) -> Exception:
        message, call, code = e.args
        if code == -1:  # a CANN library or an entry point of it is missing
            return ToolkitMissing(f"Backend.NPU: kernel {compiled.name}: {message}")
        return _C.NpuError(f"Backend.NPU: kernel {compiled.name}: {message}", call, code)

    dump = compiled.prints_on_device() and device_dump_enabled()
    if dump:  # before anything is built or launched: without the library nothing would be printed
        try:
            _C.npu_load_dump()
        except _C.NpuError as e:
            raise failed(e) from None
    kernel_type = compiled.kernel_type
    # built once per compiled kernel and dump setting; the directory lives as long as the compiled kernel does
    binaries = compiled.__dict__.setdefault("npu_binaries", {})
    binary = binaries.get(dump)
    if binary is None:
        out = Path(tempfile.mkdtemp(prefix=f"pyasc-{compiled.name}-"))
        weakref.finalize(compiled, shutil.rmtree, str(out), True)
        build = compile_for_npu(compiled.ascendc(dump=dump), compiled.name, out, platform, kernel_type, options,
                                compiled.key, dump=dump)
        assert build.binary is not None
        binary = binaries[dump] = build.binary.read_bytes()
    args, keep = npu_args(compiled, arguments, specs, dump)
    if not isinstance(stream, (rt.Stream, type(None))):
        raise TypeError(f"{compiled.name}: the stream must be an asc.lib.runtime.Stream, got {type(stream).__name__}")
    if stream is None or not stream.handle:  # none given, or the Model's Stream(0): the device's current stream
        stream = rt.current_stream()
    else:
        rt.current_device()
    handle = stream.handle
    if dump:  # what Python printed before comes before what the kernel prints (the C library's stdout)
        sys.stdout.flush()
    try:
        _C.npu_run(binary, binary_magic(kernel_type), compiled.name, int(core_num), handle, args)
    except _C.NpuError as e:
        raise failed(e) from None
    del keep


def _freeze(spec: Tuple[Any, ...]) -> Any:
    if spec[0] == "const":
        v = spec[1]
        return ("const", type(v).__name__, repr(v))
    return spec


__all__ = ["Launcher"]
