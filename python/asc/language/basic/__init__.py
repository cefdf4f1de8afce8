"""Basic API: data movement, synchronisation, vector instructions."""

from .aipp import load_image_to_local, set_aipp_functions
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
from .proposal import (
    get_mrg_sort_result,
    get_sort_len,
    get_sort_offset,
    mrg_sort,
    mrg_sort4,
    proposal_concat,
    proposal_extract,
    rp_sort16,
    sort,
    sort32,
)
from .dump_tensor import (
    dump_acc_chk_point,
    dump_tensor,
    metrics_prof_start,
    metrics_prof_stop,
    print_time_stamp,
    printf,
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
from .vec_brcb import brcb
from .vec_cmpsel import compare, compare_scalar, get_cmp_mask, select, set_cmp_mask  # cmpsel family
from .vec_duplicate import duplicate
from .vec_gather import gather, gatherb
from .vec_gather_mask import gather_mask, get_gather_mask_remain_count
from .vec_quant import (  # quant family
    add_deq_relu,
    add_relu_cast,
    bilinear_interpolation,
    cast_deq,
    mul_cast,
    set_deq_scale,
    sub_relu_cast,
)
from .vec_reduce import (  # cmpsel family: the level-0 reductions
    block_reduce_max,
    block_reduce_min,
    block_reduce_sum,
    pair_reduce_sum,
    reduce_max,
    reduce_min,
    reduce_sum,
    repeat_reduce_sum,
    whole_reduce_max,
    whole_reduce_min,
    whole_reduce_sum,
)
from .vec_scatter import scatter
from .vec_ternary_scalar import axpy
from .vec_transpose import trans_data_to_5hd, transpose
from .vec_unary import abs, bitwise_not, exp, ln, reciprocal, relu, rsqrt, sqrt
from .vec_vconv import cast

# system family: block sync, caches, system variables, scalar bit utilities, list tensors (kept as one block
# after the others to ease merging; the lead may fold it into the sorted imports above)
# ruff: noqa: I001
from .block_sync import data_sync_barrier, ib_set, ib_wait, sync_all
from .cache import data_cache_clean_and_invalid, get_icache_preload_status, icache_preload
from .common import check_local_memory_ia, data_cache_preload, get_sys_workspace, init_soc_state, set_sys_workspace
from .determine_compute_sync import notify_next_block, wait_pre_block
from .list_tensor import ListTensorDesc, TensorDesc, TensorList  # family listtensor: TensorList (host side)
from .scalar import (
    count_bits_cnt_same_as_sign_bit,
    scalar_cast,
    scalar_count_leading_zero,
    scalar_get_count_of_value,
    scalar_get_sff_value,
)
from .sys_var import (
    get_arch_version,
    get_data_block_size_in_bytes,
    get_program_counter,
    get_sub_block_idx,
    get_sub_block_num,
    get_system_cycle,
    get_task_ratio,
    trap,
)

# family: slice (the HCCL context registers; the SliceInfo form of data_copy is in data_copy.py)
from .hccl_context import get_hccl_context, set_hccl_context

__all__ = [
    "pipe_barrier", "set_flag", "wait_flag", "reset_mask", "set_mask_count", "set_mask_norm", "set_vector_mask",
    "data_copy", "get_block_idx", "get_block_num",
    "add", "div", "max", "min", "mul", "sub", "adds", "maxs", "mins", "muls", "duplicate",
    "abs", "exp", "ln", "reciprocal", "relu", "rsqrt", "sqrt", "cast",
    "add_relu", "sub_relu", "bitwise_and", "bitwise_or", "bitwise_not", "leaky_relu", "shift_left", "shift_right",
    "fused_mul_add", "fused_mul_add_relu", "mul_add_dst", "axpy",
    "reduce_max", "reduce_min", "reduce_sum",
    "compare", "compare_scalar",
    # sort family
    "sort32", "sort", "mrg_sort", "get_mrg_sort_result", "get_sort_len", "get_sort_offset", "mrg_sort4",
    "rp_sort16", "proposal_concat", "proposal_extract",
    # system family
    "data_sync_barrier", "ib_set", "ib_wait", "sync_all",
    "data_cache_clean_and_invalid", "get_icache_preload_status", "icache_preload",
    "check_local_memory_ia", "data_cache_preload", "get_sys_workspace", "init_soc_state", "set_sys_workspace",
    "notify_next_block", "wait_pre_block", "ListTensorDesc", "TensorDesc", "TensorList",
    "count_bits_cnt_same_as_sign_bit", "scalar_cast", "scalar_count_leading_zero", "scalar_get_count_of_value",
    "scalar_get_sff_value",
    "get_arch_version", "get_data_block_size_in_bytes", "get_program_counter", "get_sub_block_idx",
    "get_sub_block_num", "get_system_cycle", "get_task_ratio", "trap",
    # cmpsel family
    "select", "get_cmp_mask", "set_cmp_mask", "whole_reduce_max", "whole_reduce_min", "whole_reduce_sum",
    "block_reduce_max", "block_reduce_min", "block_reduce_sum", "pair_reduce_sum", "repeat_reduce_sum",
    # family: debug
    "printf", "dump_tensor", "dump_acc_chk_point", "print_time_stamp", "metrics_prof_start", "metrics_prof_stop",
    "set_aipp_functions", "load_image_to_local",
    # quant family
    "set_deq_scale", "cast_deq", "add_deq_relu", "mul_cast", "add_relu_cast", "sub_relu_cast",
    "bilinear_interpolation",
    "brcb", "gather", "gatherb", "gather_mask", "get_gather_mask_remain_count", "scatter", "transpose",
    "trans_data_to_5hd",
    # data movement family
    "copy", "data_copy_pad", "set_pad_value", "set_atomic_add", "set_atomic_max", "set_atomic_min",
    "set_atomic_none", "set_atomic_type", "set_store_atomic_config", "get_store_atomic_config",
    # family: slice
    "get_hccl_context", "set_hccl_context",
]
