/* Element-wise numeric kernels of the vector unit, on contiguous runs.
 *
 * These functions know numbers, not hardware: the level-0 machinery (masks,
 * repeats, block/repeat strides) and all bounds checks live in the callers in
 * src/sim/, which call these on each contiguous run of active elements.
 * Every function works in place (dst may alias a source exactly).
 *
 * Rounding: results of 16-bit float types are rounded to nearest even, as
 * NumPy and PyTorch do, so simulator results compare bit-exactly with them
 * for add/sub/mul/div/sqrt (which are correctly rounded). */
#ifndef ASC_SIM_VECMATH_H
#define ASC_SIM_VECMATH_H

#include <stdint.h>

#include "asc/dtype.h"

typedef enum AscVecBinOp {
  ASC_VBIN_ADD,
  ASC_VBIN_SUB,
  ASC_VBIN_MUL,
  ASC_VBIN_DIV,
  ASC_VBIN_MAX,
  ASC_VBIN_MIN,
  ASC_VBIN_ADD_RELU, /* relu(a + b) */
  ASC_VBIN_SUB_RELU, /* relu(a - b) */
  ASC_VBIN_AND,      /* a & b */
  ASC_VBIN_OR,       /* a | b */
  ASC_VBIN_COUNT
} AscVecBinOp;

/* Tensor-scalar forms: dst[i] = op(src[i], scalar). */
typedef enum AscVecScalarOp {
  ASC_VSCA_ADDS,
  ASC_VSCA_MULS,
  ASC_VSCA_MAXS,
  ASC_VSCA_MINS,
  ASC_VSCA_LEAKY_RELU,  /* a >= 0 ? a : a * scalar */
  ASC_VSCA_SHIFT_LEFT,  /* a << scalar (signed: the sign bit is kept) */
  ASC_VSCA_SHIFT_RIGHT, /* a >> scalar (signed: arithmetic) */
  ASC_VSCA_COUNT
} AscVecScalarOp;

typedef enum AscVecUnOp {
  ASC_VUN_RELU,
  ASC_VUN_EXP,
  ASC_VUN_LN,
  ASC_VUN_ABS,
  ASC_VUN_SQRT,
  ASC_VUN_RSQRT,
  ASC_VUN_RECIPROCAL,
  ASC_VUN_NOT, /* ~a */
  /* Rsqrt and Reciprocal as the launch option precision="hardware" runs
   * them: the estimate the hardware's instructions give, modelled with a
   * limited number of correct significand bits (vecmath.c, "Approximate
   * instructions"). No op of the table names them: asc_vec_unary_hw maps
   * RSQRT and RECIPROCAL to them. */
  ASC_VUN_RSQRT_HW,
  ASC_VUN_RECIPROCAL_HW,
  ASC_VUN_COUNT
} AscVecUnOp;

/* Multiply-add forms, which read dst: dst[i] = op(dst[i], src0[i], src1[i])
 * (AXPY: the scalar instead of src1).  MLA and AXPY also take a float dst
 * with half sources. */
typedef enum AscVecTernOp {
  ASC_VTER_FMA,      /* src0 * dst + src1 (FusedMulAdd) */
  ASC_VTER_FMA_RELU, /* relu(src0 * dst + src1) (MulAddRelu) */
  ASC_VTER_MLA,      /* src0 * src1 + dst (MulAddDst) */
  ASC_VTER_AXPY,     /* src0 * scalar + dst (Axpy) */
  ASC_VTER_COUNT
} AscVecTernOp;

/* Values of AscendC::RoundMode (enum class RoundMode : uint8_t). */
typedef enum AscRoundMode {
  ASC_ROUND_NONE = 0,  /* CAST_NONE */
  ASC_ROUND_RINT = 1,  /* CAST_RINT: to nearest, ties to even */
  ASC_ROUND_FLOOR = 2, /* CAST_FLOOR: toward -inf */
  ASC_ROUND_CEIL = 3,  /* CAST_CEIL: toward +inf */
  ASC_ROUND_ROUND = 4, /* CAST_ROUND: to nearest, ties away from zero */
  ASC_ROUND_TRUNC = 5, /* CAST_TRUNC: toward zero */
  ASC_ROUND_ODD = 6,   /* CAST_ODD: von Neumann rounding (to odd) */
  ASC_ROUND_COUNT
} AscRoundMode;

/* A scalar operand: the caller fills both fields from the user's value;
 * the kernel uses `f` for float element types and `i` for integer ones,
 * after converting it to the element type (as Ascend C's `const T&`). */
typedef struct AscScalar {
  double f;
  int64_t i;
} AscScalar;

/* Is `op` defined for element type `dt` on the Ascend910B vector unit? */
int asc_vec_binary_supported(AscVecBinOp op, AscDType dt);
int asc_vec_scalar_supported(AscVecScalarOp op, AscDType dt);
int asc_vec_unary_supported(AscVecUnOp op, AscDType dt);
int asc_vec_dup_supported(AscDType dt);
int asc_vec_ternary_supported(AscVecTernOp op, AscDType dst, AscDType src);
/* The range [*lo, *hi] the scalar of `op` must lie in for element type dt
 * (the shift amounts); 0 when any value is accepted. */
int asc_vec_scalar_range(AscVecScalarOp op, AscDType dt, int64_t *lo,
                         int64_t *hi);
int asc_vec_cast_supported(AscDType dst, AscDType src, AscRoundMode mode);

void asc_vec_binary(AscVecBinOp op, AscDType dt, void *dst, const void *src0,
                    const void *src1, int64_t n);
void asc_vec_scalar(AscVecScalarOp op, AscDType dt, void *dst, const void *src,
                    AscScalar scalar, int64_t n);
void asc_vec_unary(AscVecUnOp op, AscDType dt, void *dst, const void *src,
                   int64_t n);
/* The op that runs instead of `op` with precision="hardware": the
 * approximate form of RSQRT and RECIPROCAL, `op` itself for the others. */
AscVecUnOp asc_vec_unary_hw(AscVecUnOp op);
void asc_vec_dup(AscDType dt, void *dst, AscScalar scalar, int64_t n);
/* src1 is unused (may be NULL) for AXPY, scalar for the others.  Each
 * result is rounded once, from the exact a * b + c, to dst's type. */
void asc_vec_ternary(AscVecTernOp op, AscDType dst_dt, AscDType src_dt,
                     void *dst, const void *src0, const void *src1,
                     AscScalar scalar, int64_t n);
/* Precondition: asc_vec_cast_supported(dst_dt, src_dt, mode). */
void asc_vec_cast(AscDType dst_dt, AscDType src_dt, AscRoundMode mode,
                  void *dst, const void *src, int64_t n);

/* The reductions of src/sim/reduce.c (ReduceMax, ReduceMin, ReduceSum). */
typedef enum AscVecReduceOp {
  ASC_VRED_MAX,
  ASC_VRED_MIN,
  ASC_VRED_SUM,
} AscVecReduceOp;

/* Scalar conversions (also used by the interpreter for scalar values). */
uint16_t asc_f32_to_f16(float v); /* round to nearest even */
float asc_f16_to_f32(uint16_t h);
uint16_t asc_f32_to_bf16(float v); /* round to nearest even */
float asc_bf16_to_f32(uint16_t h);

/* Load element `idx` of an array of type dt as double / int64, and store. */
double asc_load_f(AscDType dt, const void *base, int64_t idx);
int64_t asc_load_i(AscDType dt, const void *base, int64_t idx);
void asc_store_scalar(AscDType dt, void *base, int64_t idx, AscScalar v);

/* The SIMD kernels (vecmath_simd.c: exp, ln and the half <-> float
 * conversions with AVX2, FMA and F16C, exp and ln also with AVX-512) are used
 * when the host has them; their results equal the portable loops' bit for
 * bit.  `level` caps what they may use: 0 none (every call takes the
 * portable loops), 1 AVX2 + FMA + F16C, 2 (the default) also AVX-512; for
 * tests comparing the paths.  Returns the previous level.  Not for use
 * while a launch runs. */
int asc_vecmath_set_simd(int level);

#endif
