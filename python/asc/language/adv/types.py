"""family: matmul. The Matmul configuration (`asc.adv.MatmulConfig`, the devkit's MatmulConfig of
include/adv_api/matmul/matmul_config.h) and the parameter groups `asc.adv.get_mm_config` takes, with upstream
pyasc's fields and defaults.

A MatmulConfig is a template argument of Matmul (the MM_CFG reference), so its fields are compile-time values:
Python bools, ints and enum members. The emitted Ascend C declares it as a `static constexpr MatmulConfig`
initialised with its fields in the devkit's member order (upstream's field order is the devkit's)."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, List

from ..core.checks import describe, error
from ..core.enums import BatchMode, BatchOutMode, IterateMode, IterateOrder, ScheduleType, cpp_spelling  # type: ignore[attr-defined]


@dataclass
class MatmulConfig:
    """The devkit's MatmulConfig: which Matmul template (Norm, MDL, BasicBlock, IBShare ...) and its switches.
    Every field a compile-time value; the simulator computes the same C = A * B (+ bias) for all of them (the
    templates differ in how the devkit schedules the copies, not in the result)."""

    do_norm: bool = True
    do_basic_block: bool = False
    do_multi_data_load: bool = False
    basic_m: int = 0
    basic_n: int = 0
    basic_k: int = 0
    intrinsics_check: bool = False
    is_n_batch: bool = False
    en_vec_nd2nz: bool = False
    do_special_basic_block: bool = False
    do_mte2_preload: int = 0
    single_core_m: int = 0
    single_core_n: int = 0
    single_core_k: int = 0
    step_m: int = 0
    step_n: int = 0
    base_mn: int = 0
    single_core_mn: int = 0
    en_unit_flag: bool = True
    is_per_tensor: bool = False
    has_anti_quant_offset: bool = False
    do_ib_share_norm: bool = False
    do_special_mdl: bool = False
    enable_init: bool = True
    batch_mode: Any = BatchMode.BATCH_LESS_THAN_L1
    enable_end: bool = True
    enable_get_tensor_c: bool = True
    enable_set_org_shape: bool = True
    enable_set_bias: bool = True
    enable_set_tail: bool = True
    enable_quant_vector: bool = True
    enable_set_define_data: bool = True
    iterate_mode: Any = IterateMode.ITERATE_MODE_DEFAULT
    enable_reuse: bool = True
    enable_ub_reuse: bool = False
    enable_l1_cache_ub: bool = False
    intra_block_part_sum: bool = False
    iterate_order: Any = IterateOrder.UNDEF
    schedule_type: Any = ScheduleType.INNER_PRODUCT
    enable_double_cache: int = 0
    is_bias_batch: bool = True
    enable_static_pad_zeros: bool = False
    is_partial_output: bool = False
    enable_mix_dual_master: bool = False
    is_a2b2_shared: bool = False
    is_enable_channel_split: bool = False
    enable_kdim_reorder_load: bool = False
    is_co1_shared: bool = False
    shared_co1_buffer_size: int = 64 * 1024
    batch_out_mode: Any = BatchOutMode.SINGLE_BATCH

    # the enum fields and their classes (a plain int is taken as the member of that value)
    _ENUMS = {"batch_mode": BatchMode, "iterate_mode": IterateMode, "iterate_order": IterateOrder,
              "schedule_type": ScheduleType, "batch_out_mode": BatchOutMode}

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            cls = self._ENUMS.get(f.name)
            if cls is not None:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise error(f"asc.adv.MatmulConfig: '{f.name}' must be a {cls.__name__} member, got "
                                f"{describe(v)}", "hint: MatmulConfig's fields are compile-time values")
                try:
                    setattr(self, f.name, cls(int(v)))
                except ValueError:
                    raise error(f"asc.adv.MatmulConfig: {f.name} = {int(v)} is not a {cls.__name__} value") from None
            elif f.type in ("bool", bool):
                if not isinstance(v, (bool, int)) or isinstance(v, enum.Enum):
                    raise error(f"asc.adv.MatmulConfig: '{f.name}' must be a Python bool, got {describe(v)}",
                                "hint: MatmulConfig's fields are compile-time values")
                setattr(self, f.name, bool(v))
            else:
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2 ** 32:
                    raise error(f"asc.adv.MatmulConfig: '{f.name}' must be a Python int in 0..2**32-1 (a uint32_t "
                                f"member), got {describe(v)}", "hint: MatmulConfig's fields are compile-time values")

    def cpp(self) -> str:
        """The C++ aggregate initialiser of the devkit's MatmulConfig (its members in order)."""
        parts: List[str] = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name == "iterate_mode":
                parts.append(str(int(v)))  # a uint8_t member
            elif isinstance(v, enum.Enum):
                parts.append(cpp_spelling(v))
            elif isinstance(v, bool):
                parts.append("true" if v else "false")
            else:
                parts.append(f"{int(v)}U")
        return "{" + ", ".join(parts) + "}"


class MatmulShapeParams:
    """The shape group of get_mm_config: single-core and basic-block sizes."""

    def __init__(self, single_core_m: int = 0, single_core_n: int = 0, single_core_k: int = 0, basic_m: int = 0,
                 basic_n: int = 0, basic_k: int = 0) -> None:
        self.single_core_m = single_core_m
        self.single_core_n = single_core_n
        self.single_core_k = single_core_k
        self.basic_m = basic_m
        self.basic_n = basic_n
        self.basic_k = basic_k


class MatmulQuantParams:
    """The quantisation group of get_mm_config."""

    def __init__(self, is_per_tensor: bool = False, has_anti_quant_offset: bool = False) -> None:
        self.is_per_tensor = is_per_tensor
        self.has_anti_quant_offset = has_anti_quant_offset


class MatmulBatchParams:
    """The batch group of get_mm_config."""

    def __init__(self, is_b_batch: bool = False, batch_mode: Any = 1, is_bias_batch: bool = False) -> None:
        self.is_n_batch = is_b_batch
        self.batch_mode = batch_mode
        self.is_bias_batch = is_bias_batch


class MatmulFuncParams:
    """The function-switch group of get_mm_config."""

    def __init__(self, intrinsics_limit: bool = False, en_vec_nd2_nz: bool = False, enable_double_cache: bool = False,
                 enable_l1_cache: bool = False, do_mte2_pre_load: int = 0, iterate_order: Any = 0,
                 schedule_type: Any = 0, enable_reuse: bool = True, enable_ub_reuse: bool = False,
                 is_partial_output: bool = False, is_a2_b2_shared: bool = False, is_enable_channel_split: bool = False,
                 enable_kdim_reorder_load: bool = False) -> None:
        self.intrinsics_limit = intrinsics_limit
        self.en_vec_nd2_nz = en_vec_nd2_nz
        self.enable_double_cache = enable_double_cache
        self.enable_l1_cache = enable_l1_cache
        self.do_mte2_pre_load = do_mte2_pre_load
        self.iterate_order = iterate_order
        self.schedule_type = schedule_type
        self.enable_reuse = enable_reuse
        self.enable_ub_reuse = enable_ub_reuse
        self.is_partial_output = is_partial_output
        self.is_a2_b2_shared = is_a2_b2_shared
        self.is_enable_channel_split = is_enable_channel_split
        self.enable_kdim_reorder_load = enable_kdim_reorder_load
