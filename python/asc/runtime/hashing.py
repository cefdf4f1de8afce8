"""SHA-256 for the compile caches, without loading OpenSSL.

`import hashlib` loads OpenSSL's libcrypto first, which costs a fresh process milliseconds at its
first launch (the disk cache's keys and checksums are the first hashes it needs). CPython's own
SHA-256 is a small built-in module that loads in microseconds and gives the same digests; hashlib
is the fallback where it is missing."""

from __future__ import annotations

from typing import Any

sha256: Any
try:
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:  # pragma: no cover (depends on the Python version)
    try:
        from _sha2 import sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
