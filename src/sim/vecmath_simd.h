/* SIMD kernels of the vector unit's float conversions and transcendentals
 * (x86-64 with AVX2, FMA and F16C, picked at run time), internal to
 * src/sim/.  Each gives, bit for bit, what the scalar reference of
 * vecmath_scalar.h gives element by element (h2f, f2h, exp_to_f, ln_to_f):
 * the conversions use the CPU's instructions and hand NaN to the scalar
 * code; exp and ln are computed in double to well under the margin that
 * decides float rounding, and every element whose double result lies too
 * near a float rounding boundary (or outside the range the fast code
 * covers) is recomputed by the scalar reference.
 *
 * Pointers need no alignment; dst may alias src exactly (not partially).
 * asc_simd_on() is 0 on other hosts, and then these must not be called. */
#ifndef ASC_SIM_VECMATH_SIMD_H
#define ASC_SIM_VECMATH_SIMD_H

#include <stdint.h>

/* 1 when the host has AVX2, FMA and F16C and the kernels are not switched
 * off (asc_vecmath_set_simd in vecmath.h); exp and ln also use AVX-512 F where
 * the host has it and the level allows. */
int asc_simd_on(void);

/* n halves (little-endian bytes) to floats, and back with rounding to
 * nearest even. */
void asc_simd_h2f(void *dst, const void *src, int64_t n);
void asc_simd_f2h(void *dst, const void *src, int64_t n);
/* Half dst = f2h(h2f(src0) op h2f(src1)), op one of the enum; `port` is
 * the portable loop of the same op, which computes the groups with a NaN
 * result and the tail. */
enum { ASC_SIMD_ADD, ASC_SIMD_SUB, ASC_SIMD_MUL, ASC_SIMD_DIV };
typedef void (*AscSimdBinFn)(unsigned char *, const unsigned char *,
                             const unsigned char *, int64_t);
void asc_simd_h_binary(int op, AscSimdBinFn port, void *dst, const void *src0,
                       const void *src1, int64_t n);
/* dst[i] = exp_to_f(src[i]) resp. ln_to_f(src[i]) on floats. */
void asc_simd_exp(void *dst, const void *src, int64_t n);
void asc_simd_ln(void *dst, const void *src, int64_t n);

#endif
