"""The exceptions a user sees, with the Python location they point at."""

from __future__ import annotations

import linecache
from typing import Optional


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
    sanitizer (a data race between pipes, an uninitialised read)."""
