/* The vector unit's compare instructions (compare.c): the element types
 * the Ascend910B supports for them, for the lowering's CompileErrors. */
#ifndef ASC_SIM_COMPARE_H
#define ASC_SIM_COMPARE_H

#include "asc/ir.h" /* ASC_CMPMODE_LT ... NE */

/* Does Compare (scalar 0) or Compares (scalar 1) support sources of type
 * src with mode `mode`? half and float in every mode, int32 in EQ only. */
int asc_cmp_src_supported(AscDType src, int64_t mode);
/* ... and a dst of type dst? Compare: uint8 or int8; Compares: uint8. */
int asc_cmp_dst_supported(AscDType dst, int scalar);

#endif
