"""Basic API: data movement, synchronisation, vector instructions, system and debugging (one module
per Ascend C API family, as upstream)."""

from .aipp import load_image_to_local, set_aipp_functions
from .block_sync import data_sync_barrier, ib_set, ib_wait, pipe_barrier, set_flag, sync_all, wait_flag
from .cache import data_cache_clean_and_invalid, get_icache_preload_status, icache_preload
from .common import (
    check_local_memory_ia,
    data_cache_preload,
    get_sys_workspace,
    init_soc_state,
    reset_mask,
    set_mask_count,
    set_mask_norm,
    set_sys_workspace,
    set_vector_mask,
)
from .cores import ascend_is_aic, ascend_is_aiv, cross_core_set_flag, cross_core_wait_flag  # family: cores
from .cube import (  # family: cube
    init_const_value,
    mmad,
    set_hf32_mode,
    set_hf32_trans_mode,
    set_mm_layout_transform,
)
from .cube_fixpipe import fixpipe, set_fix_pipe_pre_quant_flag  # family: cube
from .cube_load import (  # family: cube
    load_data,
    load_data_with_transpose,
    set_load_data_boundary,
    set_load_data_padding_value,
    set_load_data_repeat,
)
from .cube_sparse import load_data_with_sparse, mmad_with_sparse  # family: cube
from .data_copy import copy, data_copy, data_copy_pad, set_pad_value
from .determine_compute_sync import notify_next_block, wait_pre_block
from .dump_tensor import (
    dump_acc_chk_point,
    dump_tensor,
    metrics_prof_start,
    metrics_prof_stop,
    print_time_stamp,
    printf,
)
from .hccl_context import get_hccl_context, set_hccl_context
from .list_tensor import ListTensorDesc, TensorDesc, TensorList
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
from .scalar import (
    count_bits_cnt_same_as_sign_bit,
    scalar_cast,
    scalar_count_leading_zero,
    scalar_get_count_of_value,
    scalar_get_sff_value,
)
from .set_atomic import (
    get_store_atomic_config,
    set_atomic_add,
    set_atomic_max,
    set_atomic_min,
    set_atomic_none,
    set_atomic_type,
    set_store_atomic_config,
)
from .sys_var import (
    get_arch_version,
    get_block_idx,
    get_block_num,
    get_data_block_size_in_bytes,
    get_program_counter,
    get_sub_block_idx,
    get_sub_block_num,
    get_system_cycle,
    get_task_ratio,
    trap,
)
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
from .vec_cmpsel import compare, compare_scalar, get_cmp_mask, select, set_cmp_mask
from .vec_duplicate import duplicate
from .vec_gather import gather, gatherb
from .vec_gather_mask import gather_mask, get_gather_mask_remain_count
from .vec_quant import (
    add_deq_relu,
    add_relu_cast,
    bilinear_interpolation,
    cast_deq,
    mul_cast,
    set_deq_scale,
    sub_relu_cast,
)
from .vec_reduce import (
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

__all__ = [
    "ascend_is_aic", "ascend_is_aiv", "cross_core_set_flag", "cross_core_wait_flag",  # family: cores
    # family: cube
    "fixpipe", "init_const_value", "load_data", "load_data_with_sparse", "load_data_with_transpose", "mmad",
    "mmad_with_sparse", "set_fix_pipe_pre_quant_flag", "set_load_data_boundary", "set_load_data_padding_value",
    "set_load_data_repeat", "set_hf32_mode", "set_hf32_trans_mode", "set_mm_layout_transform",
    "load_image_to_local", "set_aipp_functions",
    "get_hccl_context", "set_hccl_context",
    "data_sync_barrier", "ib_set", "ib_wait", "pipe_barrier", "set_flag", "sync_all", "wait_flag",
    "data_cache_clean_and_invalid", "get_icache_preload_status", "icache_preload",
    "check_local_memory_ia", "data_cache_preload", "get_sys_workspace", "init_soc_state", "reset_mask",
    "set_mask_count", "set_mask_norm", "set_sys_workspace", "set_vector_mask",
    "copy", "data_copy", "data_copy_pad", "set_pad_value",
    "notify_next_block", "wait_pre_block",
    "dump_acc_chk_point", "dump_tensor", "metrics_prof_start", "metrics_prof_stop", "print_time_stamp", "printf",
    "ListTensorDesc", "TensorDesc", "TensorList",
    "get_mrg_sort_result", "get_sort_len", "get_sort_offset", "mrg_sort", "mrg_sort4", "proposal_concat",
    "proposal_extract", "rp_sort16", "sort", "sort32",
    "count_bits_cnt_same_as_sign_bit", "scalar_cast", "scalar_count_leading_zero", "scalar_get_count_of_value",
    "scalar_get_sff_value",
    "get_store_atomic_config", "set_atomic_add", "set_atomic_max", "set_atomic_min", "set_atomic_none",
    "set_atomic_type", "set_store_atomic_config",
    "get_arch_version", "get_block_idx", "get_block_num", "get_data_block_size_in_bytes", "get_program_counter",
    "get_sub_block_idx", "get_sub_block_num", "get_system_cycle", "get_task_ratio", "trap",
    "add", "add_relu", "bitwise_and", "bitwise_or", "div", "fused_mul_add", "fused_mul_add_relu", "max", "min", "mul",
    "mul_add_dst", "sub", "sub_relu",
    "adds", "leaky_relu", "maxs", "mins", "muls", "shift_left", "shift_right",
    "brcb",
    "compare", "compare_scalar", "get_cmp_mask", "select", "set_cmp_mask",
    "duplicate",
    "gather", "gatherb",
    "gather_mask", "get_gather_mask_remain_count",
    "add_deq_relu", "add_relu_cast", "bilinear_interpolation", "cast_deq", "mul_cast", "set_deq_scale",
    "sub_relu_cast",
    "block_reduce_max", "block_reduce_min", "block_reduce_sum", "pair_reduce_sum", "reduce_max", "reduce_min",
    "reduce_sum", "repeat_reduce_sum", "whole_reduce_max", "whole_reduce_min", "whole_reduce_sum",
    "scatter",
    "axpy",
    "trans_data_to_5hd", "transpose",
    "abs", "bitwise_not", "exp", "ln", "reciprocal", "relu", "rsqrt", "sqrt",
    "cast",
]
