"""The exceptions a user sees, with the Python location they point at."""

from __future__ import annotations

import linecache
from typing import Optional, Tuple


def format_location(filename: str, line: int, col: int, message: str, hint: Optional[str] = None) -> str:
    """`file:line:col: message`, the source line with a caret, and a hint."""
    text = f"{filename}:{line}:{col + 1}: {message}" if filename else message
    src = linecache.getline(filename, line) if filename and line > 0 else ""
    if src:
        stripped = src.rstrip("\r\n")
        # the caret keeps the line's tabs so that it lines up under the column
        pad = "".join(c if c == "\t" else " " for c in stripped[:col])
        text += f"\n    {stripped}\n    {pad}^"
    if hint:
        text += f"\n{hint}"
    return text


class CompileError(Exception):
    """A kernel cannot be compiled: unsupported syntax, a wrong API call, a
    type error. Names the file, line and column of the offending code."""

    def __init__(self, message: str, filename: str = "", line: int = 0, col: int = 0, hint: Optional[str] = None):
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        self.hint = hint
        super().__init__(format_location(filename, line, col, message, hint))

    def __reduce__(self) -> tuple:  # picklable (multiprocessing, pytest-xdist)
        return (type(self), (self.message, self.filename, self.line, self.col, self.hint))


class UnsupportedError(CompileError, NotImplementedError):
    """An API or form that pyasc does not implement yet."""


class KernelError(RuntimeError):
    """A fault while the kernel ran on the simulator (out-of-bounds access,
    UB overflow, deadlock, misuse of a queue). Nothing outside the kernel's
    own writes was modified."""

    def __init__(self, message: str, kernel: str = "", block: int = -1, api: str = "", filename: str = "",
                 line: int = 0, col: int = 0):
        self.message = message
        self.kernel = kernel
        self.block = block
        self.api = api
        self.filename = filename
        self.line = line
        self.col = col
        where = f"kernel '{kernel}'"
        if block >= 0:
            where += f", block {block}"
        if api:
            where += f", {api}"
        head = f"{where}: {message}"
        if filename and line:
            head = format_location(filename, line, col, head)
        super().__init__(head)

    def __reduce__(self) -> tuple:  # picklable (multiprocessing, pytest-xdist)
        return (type(self), (self.message, self.kernel, self.block, self.api, self.filename, self.line, self.col))


class SanitizerError(KernelError):
    """A synchronisation or initialisation bug found by the simulator's
    sanitizer (docs/sanitizer.md). Besides KernelError's fields:

    - `kind`: "race" (two pipes of a core), "core-race" (two blocks on GM),
      "uninit" (a read of local memory never written), "sync" (set_flag /
      wait_flag misuse), "align" (a DataCopy length that loses bytes),
      "overrun" (a GM access outside its argument), and the scalar unit's
      data cache: "stale-read", "stale-line", "lost-write";
    - `other_api`, `other_filename`, `other_line`, `other_col`: the second
      API call involved ("" / 0 when there is none), `other_block` its block
      (core races; else -1);
    - `pipes`: the pipes of the two calls, e.g. ("MTE2", "V");
    - `memory` ("UB", "GM" or ""), `byte_range` (lo, hi): the bytes involved
      (UB address, or offset into kernel argument `gm_arg`);
    - `fix`: what to change, naming concrete lines."""

    def __init__(self, message: str, kernel: str = "", block: int = -1, api: str = "", filename: str = "",
                 line: int = 0, col: int = 0, kind: str = "", other_api: str = "", other_filename: str = "",
                 other_line: int = 0, other_col: int = 0, other_block: int = -1,
                 pipes: Tuple[str, ...] = (), memory: str = "", byte_range: Tuple[int, int] = (0, 0),
                 gm_arg: int = -1, fix: str = ""):
        self.kind = kind
        self.other_api = other_api
        self.other_filename = other_filename
        self.other_line = other_line
        self.other_col = other_col
        self.other_block = other_block
        self.pipes = tuple(pipes)
        self.memory = memory
        self.byte_range = tuple(byte_range)
        self.gm_arg = gm_arg
        self.fix = fix
        super().__init__(message, kernel, block, api, filename, line, col)
        text = self.args[0]
        if fix:
            text += f"\nfix: {fix}"
        self.args = (text,)

    def __reduce__(self) -> tuple:  # picklable (multiprocessing, pytest-xdist)
        return (type(self), (self.message, self.kernel, self.block, self.api, self.filename, self.line, self.col,
                             self.kind, self.other_api, self.other_filename, self.other_line, self.other_col,
                             self.other_block, self.pipes, self.memory, self.byte_range, self.gm_arg, self.fix))


class SanitizerWarning(RuntimeWarning):
    """A sanitizer report in `sanitize="warn"` mode, or a finding that is
    only a warning in every mode (a DataCopy length that is not a whole
    number of 32-byte blocks). `error` holds the same fields as a
    SanitizerError would."""

    def __init__(self, error: SanitizerError):
        self.error = error
        super().__init__(str(error))

    def __reduce__(self) -> tuple:
        return (type(self), (self.error,))
