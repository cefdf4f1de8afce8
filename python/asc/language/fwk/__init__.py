"""Framework classes: TPipe, TQueBind, TQue, TBuf, TBufPool, get_tpipe_ptr."""

from .tpipe import TBuf, TBufHandle, TBufPool, TPipe, TQue, TQueBind, get_tpipe_ptr

__all__ = ["TBuf", "TBufPool", "TPipe", "TQue", "TQueBind", "get_tpipe_ptr"]
_internal = [TBufHandle]  # (upstream does not export it either)
