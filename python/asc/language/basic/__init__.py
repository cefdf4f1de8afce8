"""Basic API: data movement, synchronisation, vector instructions."""

from .block_sync import pipe_barrier, set_flag, wait_flag
from .data_copy import data_copy
from .sys_var import get_block_idx, get_block_num
from .vec_binary import add, div, max, min, mul, sub
from .vec_binary_scalar import adds, maxs, mins, muls
from .vec_duplicate import duplicate
from .vec_unary import abs, exp, ln, reciprocal, relu, rsqrt, sqrt
from .vec_vconv import cast

__all__ = [
    "pipe_barrier", "set_flag", "wait_flag", "data_copy", "get_block_idx", "get_block_num",
    "add", "div", "max", "min", "mul", "sub", "adds", "maxs", "mins", "muls", "duplicate",
    "abs", "exp", "ln", "reciprocal", "relu", "rsqrt", "sqrt", "cast",
]
