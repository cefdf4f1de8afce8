/* Host-side tiling (asc.lib.host): the platform's memory sizes and the
 * matmul tiling of the devkit's MatmulApiTiling / MultiCoreMatmulTiling /
 * BatchMatmulTiling (include/adv_api/matmul/matmul_tiling_base.h).
 *
 * The Python classes keep what their setters were told; get_tiling hands
 * it to asc_matmul_tiling_compute as one AscMatmulTilingArgs and copies the
 * AscTCubeTiling back. The algorithm and the checks are here (see
 * docs/host_tiling.md for what it chooses and how that differs from the
 * devkit's). */
#ifndef ASC_HOST_H
#define ASC_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "asc/exec.h"

/* ---- the platform's memories (platform_ascendc::CoreMemType) ------------ */

typedef enum AscCoreMemType {
  ASC_MEM_L0_A = 0,
  ASC_MEM_L0_B = 1,
  ASC_MEM_L0_C = 2,
  ASC_MEM_L1 = 3,
  ASC_MEM_L2 = 4,
  ASC_MEM_UB = 5,
  ASC_MEM_HBM = 6,
  ASC_MEM_FB = 7,
  ASC_MEM_BT = 8,
  ASC_MEM_RESERVED = 9
} AscCoreMemType;

/* Bytes of memory `type` per core of platform p; 0 for RESERVED. -1 for a
 * value outside the enum. */
int asc_host_core_mem_size(const AscPlatform *p, int type, uint64_t *size);

/* ---- TCubeTiling: the devkit's struct, its int32 members in its order --- */

/* clang-format off */
#define ASC_TCUBE_TILING_FIELDS(X)                                             \
  X(usedCoreNum)                                                               \
  X(M)                                                                         \
  X(N)                                                                         \
  X(Ka) X(Kb) X(singleCoreM) X(singleCoreN) X(singleCoreK) X(baseM) X(baseN)   \
      X(baseK) X(depthA1) X(depthB1) X(stepM) X(stepN) X(isBias)               \
          X(transLength) X(iterateOrder) X(shareMode) X(shareL1Size) X(        \
              shareL0CSize) X(shareUbSize) X(batchM) X(batchN) X(singleBatchM) \
              X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB)           \
                  X(depthBL1CacheUB) X(dbL0A) X(dbL0B) X(dbL0C)                \
                      X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN)          \
                          X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB)      \
                              X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG)  \
                                  X(BLayoutInfoD) X(CLayoutInfoB)              \
                                      X(CLayoutInfoS1) X(CLayoutInfoN)         \
                                          X(CLayoutInfoG) X(CLayoutInfoS2)     \
                                              X(BatchNum) X(mxTypePara)

/* clang-format on */

typedef struct AscTCubeTiling {
#define ASC_TCT_MEMBER_(name) int32_t name;
  ASC_TCUBE_TILING_FIELDS(ASC_TCT_MEMBER_)
#undef ASC_TCT_MEMBER_
} AscTCubeTiling;

#define ASC_TCUBE_TILING_NFIELDS                                               \
  ((int)(sizeof(AscTCubeTiling) / sizeof(int32_t)))

/* ---- the tiling objects' settings ---------------------------------------- */

typedef enum AscMatmulTilingKind {
  ASC_MM_TILING_SINGLE_CORE = 0, /* MatmulApiTiling */
  ASC_MM_TILING_MULTI_CORE = 1,  /* MultiCoreMatmulTiling */
  ASC_MM_TILING_BATCH = 2        /* BatchMatmulTiling */
} AscMatmulTilingKind;

/* matmul_tiling::DataType values the algorithm knows the size of */
enum {
  ASC_MM_DT_FLOAT = 0,
  ASC_MM_DT_FLOAT16 = 1,
  ASC_MM_DT_INT8 = 2,
  ASC_MM_DT_INT32 = 3,
  ASC_MM_DT_UINT8 = 4,
  ASC_MM_DT_INT16 = 6,
  ASC_MM_DT_BF16 = 27,
  ASC_MM_DT_INT4 = 29,
  ASC_MM_DT_BFLOAT16 = 33
};

/* matmul_tiling::TPosition values that matter here */
enum {
  ASC_MM_POS_GM = 0,
  ASC_MM_POS_VECIN = 9,
  ASC_MM_POS_VECOUT = 10,
  ASC_MM_POS_VECCALC = 11,
  ASC_MM_POS_TSCM = 13
};
/* matmul_tiling::CubeFormat::NZ */
enum { ASC_MM_FMT_NZ = 1 };

/* Every member an int32: the Python binding fills them by name
 * (asc_matmul_tiling_arg_names). -1 is "not set" where the devkit has it. */
/* clang-format off */
#define ASC_MATMUL_TILING_ARGS(X)                                              \
  X(kind)                                                                      \
  X(l1_size)                                                                   \
  X(l0a_size) X(l0b_size) X(l0c_size) X(ub_size) X(bt_size) X(core_num) X(     \
      a_pos) X(a_format) X(a_dtype) X(a_trans) X(b_pos) X(b_format) X(b_dtype) \
      X(b_trans) X(c_pos) X(c_format) X(c_dtype) X(bias_pos) X(bias_format) X( \
          bias_dtype) X(org_m) X(org_n) X(org_ka) X(org_kb) X(single_m)        \
          X(single_n) X(single_k) X(base_m) X(base_n) X(base_k) X(max_base_m)  \
              X(max_base_n) X(max_base_k) X(min_base_m) X(min_base_n) X(       \
                  min_base_k) X(single_core_m) X(single_core_n)                \
                  X(single_core_k) X(max_single_m) X(max_single_n) X(          \
                      max_single_k) X(min_single_m) X(min_single_n)            \
                      X(min_single_k) X(align_m) X(align_n) X(align_k) X(dim)  \
                          X(is_bias) X(traverse) X(mad_type) X(split_k)        \
                              X(batch_num) X(a_layout_b) X(a_layout_s)         \
                                  X(a_layout_n) X(a_layout_g) X(a_layout_d)    \
                                      X(b_layout_b) X(b_layout_s)              \
                                          X(b_layout_n) X(b_layout_g)          \
                                              X(b_layout_d) X(c_layout_b)      \
                                                  X(c_layout_s1) X(c_layout_n) \
                                                      X(c_layout_g)            \
                                                          X(c_layout_s2)

/* clang-format on */

typedef struct AscMatmulTilingArgs {
#define ASC_MMA_MEMBER_(name) int32_t name;
  ASC_MATMUL_TILING_ARGS(ASC_MMA_MEMBER_)
#undef ASC_MMA_MEMBER_
} AscMatmulTilingArgs;

/* The names of the members of AscMatmulTilingArgs in order, NULL-ended. */
extern const char *const asc_matmul_tiling_arg_names[];

/* The devkit constructor's defaults for a tiling object of `kind` on
 * platform p (its memory sizes, no shapes, fp32 A/B/C/bias in GM, ND). */
void asc_matmul_tiling_args_init(AscMatmulTilingArgs *a, int kind,
                                 const AscPlatform *p);

/* What GetCoreNum / GetSingleShape report after a computation. */
typedef struct AscMatmulTilingSplit {
  int32_t dim, m_dim, n_dim, batch_core_m, batch_core_n;
} AscMatmulTilingSplit;

/* Computes the tiling: 0 and *out filled (every member), or -1 with *out
 * untouched and a sentence in err (err_size bytes, may be 0) saying which
 * check failed. */
int asc_matmul_tiling_compute(const AscMatmulTilingArgs *a, AscTCubeTiling *out,
                              AscMatmulTilingSplit *split, char *err,
                              size_t err_size);

/* Bits of one element of matmul_tiling::DataType dtype; 0 if unknown. */
int asc_matmul_dtype_bits(int dtype);

/* ---- family: adv normquant: the RmsNorm and AscendQuant host functions
 * (include/adv_api/normalization/rmsnorm_tiling.h,
 * include/adv_api/quantization/ascend_quant_tiling.h; src/host/
 * rmsnorm_tiling.c). A shape is [b, s, h]; type_size 2 (half) or 4. */
typedef struct AscRmsNormTiling {
  uint32_t b_length, s_length, h_length, original_h_length;
  float reciprocal_of_h_length;
  uint32_t main_bsh_length, main_bs_length, main_bs_length_align, loop_round,
      input_tail_pos, tail_bsh_length, tail_bs_length;
} AscRmsNormTiling;

/* GetRmsNormMaxMinTmpSize: 1 and the sizes in bytes, or 0 (a shape a basic
 * block cannot take: h a multiple of 64 below 2048, b * s of 8). */
int asc_rmsnorm_max_min_tmp_size(const uint32_t shape[3], uint32_t type_size,
                                 int is_basic_block, uint32_t *max_value,
                                 uint32_t *min_value);
/* GetRmsNormTilingInfo: 1 and *out filled, or 0 with a sentence in err
 * (the devkit returns false: shapes that differ in b or s, h below the
 * original h or not 32-byte aligned, a basic block's shape, a stack buffer
 * below the minimum). */
int asc_rmsnorm_tiling_info(const uint32_t shape[3], const uint32_t orig[3],
                            uint32_t stack_buffer_size, uint32_t type_size,
                            int is_basic_block, AscRmsNormTiling *out,
                            char *err, size_t err_size);
/* GetAscendQuantMaxMinTmpSize for `size` elements: the sizes in bytes. */
void asc_ascend_quant_max_min_tmp_size(uint64_t size, uint32_t *max_value,
                                       uint32_t *min_value);

#endif
