/* family: matmul. The cube unit's Mmad arithmetic (cube_mmad.c), shared by
 * the basic Mmad (cube_ops.c) and asc.adv.Matmul's instruction sequence
 * (matmul_block*.c). Layouts as cube_ops.c describes them: A in L0A as ZZ
 * fractals, B in L0B as ZN, C in L0C as NZ (fp32, or int32 for 8-bit
 * inputs). */
#ifndef ASC_SIM_CUBE_MMAD_H
#define ASC_SIM_CUBE_MMAD_H

#include <stdint.h>

#include "asc/ir.h"

typedef struct SimMmad {
  AscDType in; /* the type of A and B: half, bfloat16, float, int8, uint8 */
  int64_t m, n, k;
  /* the start of each sum: init 1: zero; else bias (n fp32 / int32 values,
   * one per column) when not NULL, else C's own values in L0C */
  int init;
  const uint8_t *bias;
  /* SetHF32Mode / SetHF32TransMode: float inputs rounded to HF32 first */
  int hf32, hf32_trans;
} SimMmad;

/* C (+)= A B over the m x n x k of p: every sum runs over k in order, each
 * product and each addition rounded to fp32 (ints: wrapping int32), as the
 * scalar reference does, bit for bit. Repacks the fractals into contiguous
 * fp32 / int32 panels and runs a register-blocked loop vectorised across
 * columns. Returns 0 when out of host memory (nothing written). */
int sim_mmad_compute(const SimMmad *p, const uint8_t *a, const uint8_t *b,
                     uint8_t *c);
/* The same, one element at a time (the reference of the tests). */
void sim_mmad_reference(const SimMmad *p, const uint8_t *a, const uint8_t *b,
                        uint8_t *c);

#endif
