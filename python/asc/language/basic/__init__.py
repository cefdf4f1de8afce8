"""Basic API: data movement, synchronisation, vector instructions."""

from .block_sync import pipe_barrier, set_flag, wait_flag
from .common import reset_mask, set_mask_count, set_mask_norm, set_vector_mask

# data movement family
from .data_copy import copy, data_copy, data_copy_pad, set_pad_value
from .set_atomic import (
    get_store_atomic_config,
    set_atomic_add,
    set_atomic_max,
    set_atomic_min,
    set_atomic_none,
    set_atomic_type,
    set_store_atomic_config,
)
from .sys_var import get_block_idx, get_block_num
from .vec_binary import (
    add,
    add_relu,
    bitwise_and,
    bitwise_or,
    div,
    fused_mul_add,
    fused_mul_add_relu,
    max,
    min,
    mul,
    mul_add_dst,
    sub,
    sub_relu,
)
from .vec_binary_scalar import adds, leaky_relu, maxs, mins, muls, shift_left, shift_right
from .vec_cmpsel import compare, compare_scalar
from .vec_duplicate import duplicate
from .vec_reduce import reduce_max, reduce_min, reduce_sum
from .vec_ternary_scalar import axpy
from .vec_unary import abs, bitwise_not, exp, ln, reciprocal, relu, rsqrt, sqrt
from .vec_vconv import cast

__all__ = [
    "pipe_barrier", "set_flag", "wait_flag", "reset_mask", "set_mask_count", "set_mask_norm", "set_vector_mask",
    "data_copy", "get_block_idx", "get_block_num",
    "add", "div", "max", "min", "mul", "sub", "adds", "maxs", "mins", "muls", "duplicate",
    "abs", "exp", "ln", "reciprocal", "relu", "rsqrt", "sqrt", "cast",
    "add_relu", "sub_relu", "bitwise_and", "bitwise_or", "bitwise_not", "leaky_relu", "shift_left", "shift_right",
    "fused_mul_add", "fused_mul_add_relu", "mul_add_dst", "axpy",
    "reduce_max", "reduce_min", "reduce_sum",
    "compare", "compare_scalar",
    # data movement family
    "copy", "data_copy_pad", "set_pad_value", "set_atomic_add", "set_atomic_max", "set_atomic_min",
    "set_atomic_none", "set_atomic_type", "set_store_atomic_config", "get_store_atomic_config",
]
