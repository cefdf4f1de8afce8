/* The quant family (quant.c, bilinear.c): dequantisation with the DEQSCALE
 * register, the fused add/sub/mul-and-cast instructions and
 * BilinearInterpolation; their sub-operations and the element types the
 * Ascend910B supports for them, for the lowering's CompileErrors. */
#ifndef ASC_SIM_QUANT_H
#define ASC_SIM_QUANT_H

#include "asc/ir.h"

/* The `sub` column of the fused binary rows. */
typedef enum AscQuantBinOp {
  ASC_QBIN_ADD_DEQ_RELU,  /* relu(half(float(a + b) * deq scale)) */
  ASC_QBIN_MUL_CAST,      /* b8(half(a * b)) */
  ASC_QBIN_ADD_RELU_CAST, /* T(relu(a + b)) */
  ASC_QBIN_SUB_RELU_CAST, /* T(relu(a - b)) */
} AscQuantBinOp;

/* What the DEQSCALE register holds (AscCoreRegs.deq_mode). */
enum {
  ASC_DEQ_NONE,   /* never written */
  ASC_DEQ_HALF,   /* SetDeqScale(half): the scale's bits */
  ASC_DEQ_CONFIG, /* SetDeqScale(float, int16_t, bool): one config */
  ASC_DEQ_VECTOR, /* SetDeqScale(vdeq, VdeqInfo): vdeq's UB address / 32 */
};

/* Does the Ascend910B support op with a dst of type dst and sources of
 * type src? AddDeqRelu: (half, int32); MulCast: (int8 or uint8, half);
 * AddReluCast, SubReluCast: (int8, half), (half, float), (int8, int16). */
int asc_quant_binary_supported(int op, AscDType dst, AscDType src);
/* CastDeq: (int8 or uint8, int16), (half, int32). */
int asc_cast_deq_supported(AscDType dst, AscDType src);

#endif
