"""`asc.adv.TCubeTiling`: the devkit's matmul tiling struct (upstream pyasc's
python/asc/language/adv/tiling.py names its fields).

Made on the host (`asc.adv.TCubeTiling(m=..., ...)`, every field 0 unless
given, or filled by `asc.lib.host.MatmulApiTiling.get_tiling`), it is passed
to a kernel as an argument; inside the kernel its fields read as int32
scalars (`tiling.m`, `tiling.m.ceildiv(tiling.single_core_m)`) and may be
assigned (`tiling.share_l1_size = ...`), as any `Struct`.

Unlike the user's structs it is not declared by the emitted Ascend C: its IR
type is the struct table's `!asc.struct<TCubeTiling>` (include/asc/structs.def),
spelled `AscendC::tiling::TCubeTiling`, the devkit's kernel-side struct
(kernel_tiling/kernel_tiling.h). As every struct parameter of a kernel, the
emitted kernel takes it as a `GM_ADDR` to its bytes and copies them into a
local `TCubeTiling` as it starts, which is how the devkit's own samples read
their tiling; on the simulator it is passed as its 50 numbers.
"""

from __future__ import annotations

from typing import Any

from ..core import dtype as _dt
from ..core.struct import Field, Struct


class KT:  # upstream spells the field types KnownTypes.int32
    int32 = _dt.int32
    float32 = _dt.float32  # family: adv normquant (RmsNormTiling)


class TCubeTiling(Struct):
    """The tiling of a matmul (the devkit's TCubeTiling, 50 int32 members
    in its order; mx_type_para, its last, upstream leaves out)."""

    used_core_num = Field(dtype=KT.int32, default=0, name="usedCoreNum")
    m = Field(dtype=KT.int32, default=0, name="M")
    n = Field(dtype=KT.int32, default=0, name="N")
    k_a = Field(dtype=KT.int32, default=0, name="Ka")
    k_b = Field(dtype=KT.int32, default=0, name="Kb")
    single_core_m = Field(dtype=KT.int32, default=0, name="singleCoreM")
    single_core_n = Field(dtype=KT.int32, default=0, name="singleCoreN")
    single_core_k = Field(dtype=KT.int32, default=0, name="singleCoreK")
    base_m = Field(dtype=KT.int32, default=0, name="baseM")
    base_n = Field(dtype=KT.int32, default=0, name="baseN")
    base_k = Field(dtype=KT.int32, default=0, name="baseK")
    depth_a1 = Field(dtype=KT.int32, default=0, name="depthA1")
    depth_b1 = Field(dtype=KT.int32, default=0, name="depthB1")
    step_m = Field(dtype=KT.int32, default=0, name="stepM")
    step_n = Field(dtype=KT.int32, default=0, name="stepN")
    is_bias = Field(dtype=KT.int32, default=0, name="isBias")
    trans_length = Field(dtype=KT.int32, default=0, name="transLength")
    iterate_order = Field(dtype=KT.int32, default=0, name="iterateOrder")
    share_mode = Field(dtype=KT.int32, default=0, name="shareMode")
    share_l1_size = Field(dtype=KT.int32, default=0, name="shareL1Size")
    share_l0c_size = Field(dtype=KT.int32, default=0, name="shareL0CSize")
    share_ub_size = Field(dtype=KT.int32, default=0, name="shareUbSize")
    batch_m = Field(dtype=KT.int32, default=0, name="batchM")
    batch_n = Field(dtype=KT.int32, default=0, name="batchN")
    single_batch_m = Field(dtype=KT.int32, default=0, name="singleBatchM")
    single_batch_n = Field(dtype=KT.int32, default=0, name="singleBatchN")
    step_k_a = Field(dtype=KT.int32, default=0, name="stepKa")
    step_k_b = Field(dtype=KT.int32, default=0, name="stepKb")
    depth_a_l1_cache_ub = Field(dtype=KT.int32, default=0, name="depthAL1CacheUB")
    depth_b_l1_cache_ub = Field(dtype=KT.int32, default=0, name="depthBL1CacheUB")
    db_l0a = Field(dtype=KT.int32, default=0, name="dbL0A")
    db_l0b = Field(dtype=KT.int32, default=0, name="dbL0B")
    db_l0c = Field(dtype=KT.int32, default=0, name="dbL0C")
    a_layout_info_b = Field(dtype=KT.int32, default=0, name="ALayoutInfoB")
    a_layout_info_s = Field(dtype=KT.int32, default=0, name="ALayoutInfoS")
    a_layout_info_n = Field(dtype=KT.int32, default=0, name="ALayoutInfoN")
    a_layout_info_g = Field(dtype=KT.int32, default=0, name="ALayoutInfoG")
    a_layout_info_d = Field(dtype=KT.int32, default=0, name="ALayoutInfoD")
    b_layout_info_b = Field(dtype=KT.int32, default=0, name="BLayoutInfoB")
    b_layout_info_s = Field(dtype=KT.int32, default=0, name="BLayoutInfoS")
    b_layout_info_n = Field(dtype=KT.int32, default=0, name="BLayoutInfoN")
    b_layout_info_g = Field(dtype=KT.int32, default=0, name="BLayoutInfoG")
    b_layout_info_d = Field(dtype=KT.int32, default=0, name="BLayoutInfoD")
    c_layout_info_b = Field(dtype=KT.int32, default=0, name="CLayoutInfoB")
    c_layout_info_s1 = Field(dtype=KT.int32, default=0, name="CLayoutInfoS1")
    c_layout_info_n = Field(dtype=KT.int32, default=0, name="CLayoutInfoN")
    c_layout_info_g = Field(dtype=KT.int32, default=0, name="CLayoutInfoG")
    c_layout_info_s2 = Field(dtype=KT.int32, default=0, name="CLayoutInfoS2")
    batch_num = Field(dtype=KT.int32, default=0, name="BatchNum")
    mx_type_para = Field(dtype=KT.int32, default=0, name="mxTypePara")

    @classmethod
    def ir_type(cls, b: Any) -> Any:
        # the struct table's type: the emitted code uses the devkit's struct and declares none
        b.struct_classes.setdefault("TCubeTiling", cls)
        return b.struct_type("TCubeTiling")


# ---- family: adv normquant ----------------------------------------------------------------------------------
class RmsNormTiling(Struct):
    """The tiling of asc.adv.rmsnorm (the devkit's RmsNormTiling: the shape [b, s, h] of src, the unpadded h, and
    how its b * s rows are split into rounds that fit the temporary buffer). Fill it on the host with
    `asc.lib.host.get_rms_norm_tiling_info` and pass it to the kernel as an argument. Its IR type is the struct
    table's `!asc.struct<RmsNormTiling>`, spelled `AscendC::tiling::RmsNormTiling` (the devkit's uint32 and float
    members; int32 here, as upstream declares them)."""

    b_length = Field(dtype=KT.int32, default=0, name="bLength")
    s_length = Field(dtype=KT.int32, default=0, name="sLength")
    h_length = Field(dtype=KT.int32, default=0, name="hLength")
    original_h_length = Field(dtype=KT.int32, default=0, name="originalHLength")
    reciprocal_of_h_length = Field(dtype=KT.float32, default=0.0, name="reciprocalOfHLength")
    main_bsh_length = Field(dtype=KT.int32, default=0, name="mainBshLength")
    main_bs_length = Field(dtype=KT.int32, default=0, name="mainBsLength")
    main_bs_length_align = Field(dtype=KT.int32, default=0, name="mainBsLengthAlign")
    loop_round = Field(dtype=KT.int32, default=0, name="loopRound")
    input_tail_pos = Field(dtype=KT.int32, default=0, name="inputTailPos")
    tail_bsh_length = Field(dtype=KT.int32, default=0, name="tailBshLength")
    tail_bs_length = Field(dtype=KT.int32, default=0, name="tailBsLength")

    @classmethod
    def ir_type(cls, b: Any) -> Any:
        b.struct_classes.setdefault("RmsNormTiling", cls)
        return b.struct_type("RmsNormTiling")


__all__ = ["RmsNormTiling", "TCubeTiling"]
