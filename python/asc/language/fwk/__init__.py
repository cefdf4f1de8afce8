"""Framework classes: TPipe, TQue, TBuf."""

from .tpipe import TBuf, TPipe, TQue

__all__ = ["TBuf", "TPipe", "TQue"]
