"""pyasc: write Ascend NPU kernels in Python, run them on the built-in
simulator of the Ascend AI Core.

    import asc

    @asc.jit
    def kernel(x: asc.GlobalAddress, ...):
        ...

    kernel[core_num](x_array, ...)
"""

from . import language, lib, runtime
from .codegen.errors import CompileError, KernelError, SanitizerError, SanitizerWarning, UnsupportedError
from .language import *  # noqa: F403
from .language import __all__ as _language_all
from .language import adv  # family: host
from .profiler import profile
from .runtime.config import Backend, KernelType, Platform
from .runtime.jit import JITFunction, jit

__version__ = "0.1.0"

__all__ = ["jit", "JITFunction", "CompileError", "KernelError", "SanitizerError", "SanitizerWarning",
           "UnsupportedError", "adv",
           "Backend", "Platform", "KernelType", "language", "lib", "runtime", "profile"] + list(_language_all)
