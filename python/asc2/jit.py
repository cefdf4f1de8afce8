"""`@asc2.jit`: an `@asc.jit` kernel whose loops are `asc2.range` and whose
0-dim torch tensor arguments are scalars (as PyAsc2 passes them).

It is the asc JIT (python/asc/runtime/jit.py): the same launch path
(`kernel[core_num](...)`), cache, compiler driver, simulator and emitter.
The compiler driver sees the tile ops (asc2.*) in the kernel's IR and runs
the lower-tiles pass first (docs/api.md, "asc2")."""

from __future__ import annotations

import inspect
import sys
from typing import Any, Callable, Dict, Optional, Tuple

from asc.runtime.jit import JITFunction

from .tile import ASC2_RANGE

# PyAsc2's compile options that the asc JIT does not have: accepted (checked to be bools; static_alloc also None)
# and recorded in Asc2JITFunction.asc2_options, with no effect on what is compiled here: the UB planner always
# places tiles at static offsets of one TBuf pool and reuses the bytes of dead tiles (static_alloc, reuse_ub,
# reuse_ub_in_out), loads and stores stay where the kernel writes them (densify_load_store), and each tile op
# is one vector instruction (vf_fusion: C310 MicroAPI fusion); run_asc2_passes is always on for @asc2.jit.
ASC2_ONLY_OPTIONS = ("vf_fusion", "run_asc2_passes", "static_alloc", "reuse_ub", "reuse_ub_in_out",
                     "densify_load_store")


def _scalar_args(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
    """0-dim torch tensors become Python numbers (PyAsc2 passes them by value)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return args, kwargs
    tensor = torch.Tensor

    def conv(v: Any) -> Any:
        return v.item() if isinstance(v, tensor) and v.dim() == 0 else v

    return tuple(conv(a) for a in args), {k: conv(v) for k, v in kwargs.items()}


class Asc2JITFunction(JITFunction):
    """An asc2 kernel (see the module docstring)."""

    custom_builtins = {"range": ASC2_RANGE}
    arg_converter = staticmethod(_scalar_args)

    def __init__(self, fn: Callable[..., Any], options: Optional[Dict[str, Any]] = None):
        options = dict(options or {})
        self.asc2_options = {k: options.pop(k) for k in ASC2_ONLY_OPTIONS if k in options}
        for k, v in self.asc2_options.items():
            if not isinstance(v, bool) and not (k == "static_alloc" and v is None):
                raise TypeError(f"option `{k}` must be True or False, got {v!r}")
        options.setdefault("insert_sync", True)
        super().__init__(fn, options)

    def __repr__(self) -> str:
        return f"<asc2.jit {self.name}>"


def jit(fn: Optional[Callable[..., Any]] = None, **options: Any) -> Any:
    """`@asc2.jit` or `@asc2.jit(**options)`: the options of `@asc.jit` plus PyAsc2's (ASC2_ONLY_OPTIONS)."""
    if fn is not None:
        if not inspect.isfunction(fn):
            raise TypeError(f"@asc2.jit decorates functions, not {type(fn).__name__}")
        return Asc2JITFunction(fn, options)

    def decorate(f: Callable[..., Any]) -> Asc2JITFunction:
        return Asc2JITFunction(f, options)

    return decorate
