/* The scalar reference of the vector unit's float conversions and
 * transcendentals, shared by vecmath.c (the portable loops) and
 * vecmath_simd.c (whose SIMD kernels fall back to these per element and
 * must agree with them bit for bit).  Internal to src/sim/. */
#ifndef ASC_SIM_VECMATH_SCALAR_H
#define ASC_SIM_VECMATH_SCALAR_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint64_t d2u(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static inline double u2d(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* half -> float is exact.  Placing the half's exponent and mantissa in a
 * float and scaling by 2^112 rebias normals and normalises subnormals in
 * one multiply; exponent 31 (inf/NaN) is patched in.  No branches, so the
 * loops around this vectorise. */
static inline float h2f(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  int32_t em = h & 0x7FFF; /* signed: SSE2 has no unsigned compare */
  uint32_t mag = (uint32_t)em << 13;
  uint32_t fin = f2u(u2f(mag) * 0x1p112f);
  uint32_t is_spc = 0u - (uint32_t)(em >= 0x7C00);
  return u2f(sign | ((mag | 0x7F800000u) & is_spc) | (fin & ~is_spc));
}

/* float -> half, round to nearest even, bit-exact with NumPy: overflow
 * gives inf, subnormals are kept, a NaN keeps the top of its payload (and
 * stays a NaN if that is zero).  Every case is computed and the result
 * picked with masks: with ?: GCC sinks the float add into a branch, will
 * not speculate it, and the loop stays scalar. */
static inline uint16_t f2h(float v) {
  uint32_t f = f2u(v);
  uint32_t sign = (f >> 16) & 0x8000u;
  int32_t a = (int32_t)(f & 0x7FFFFFFFu); /* signed compares, as above */
  uint32_t ua = (uint32_t)a;
  /* Normal: rebias, then adding 0xFFF plus the lowest kept bit carries out
   * of the 13 dropped bits exactly when rounding to even goes up. */
  uint32_t nrm = (ua - 0x38000000u + 0xFFFu + ((ua >> 13) & 1u)) >> 13;
  /* Below 2^-14 let the FPU round: after adding 0.5 the last bit of the
   * sum is worth 2^-24, the subnormal half ulp. */
  uint32_t sub = f2u(u2f(ua) + 0.5f) - 0x3F000000u;
  uint32_t pay = (ua >> 13) & 0x3FFu;
  uint32_t nan = 0x7C00u | pay | (uint32_t)(pay == 0);
  uint32_t is_sub = 0u - (uint32_t)(a < 0x38800000);
  uint32_t is_big = 0u - (uint32_t)(a >= 0x47800000);
  uint32_t is_nan = 0u - (uint32_t)(a > 0x7F800000);
  uint32_t r = (sub & is_sub) | (nrm & ~is_sub);
  r = (0x7C00u & is_big) | (r & ~is_big);
  r = (nan & is_nan) | (r & ~is_nan);
  return (uint16_t)(sign | r);
}

static inline float b2f(uint16_t b) { return u2f((uint32_t)b << 16); }

/* float -> bfloat16 as PyTorch: round to nearest even, NaN -> 0x7FC0. */
static inline uint16_t f2b(float v) {
  uint32_t f = f2u(v);
  uint32_t r = (f + 0x7FFFu + ((f >> 16) & 1u)) >> 16;
  return (uint16_t)((f & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC0u : r);
}

/* exp in double, rounded to float; an overflow becomes inf here rather
 * than in C's double -> float conversion (undefined out of range). */
static inline float exp_to_f(float a) {
  double r = exp((double)a);
  return r >= 0x1.ffffffp127 ? INFINITY : (float)r;
}

/* ln in double, rounded once to float (never out of float's range). */
static inline float ln_to_f(float a) { return (float)log((double)a); }

#endif
