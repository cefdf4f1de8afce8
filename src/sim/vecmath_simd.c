/* SIMD kernels of the vector unit; see vecmath_simd.h.
 *
 * Compiled for the baseline like the rest of the core: only the functions
 * marked ASC_SIMD use AVX2, FMA and F16C, and they run only after
 * asc_simd_on() has seen those on the host (__builtin_cpu_supports).
 *
 * Why the results are bit-identical to the scalar reference:
 *   - half -> float is exact, and F16C's VCVTPH2PS gives the exact value
 *     for every non-NaN half (subnormals included);  float -> half with
 *     VCVTPS2PH and immediate rounding "nearest even" is the correctly
 *     rounded result, as f2h; overflow gives inf and subnormal results are
 *     kept in both.  They differ only on NaN (F16C quiets a signalling NaN,
 *     the reference keeps its payload bits), so any group of 8 holding a NaN
 *     goes to the reference;
 *   - exp and ln: the reference is the C library's double exp/log, rounded
 *     once to float.  Here each is computed in double with a relative error
 *     below 2^-45 (see the bounds at exp_pd and ln_pd), then rounded to
 *     float.  Two doubles round to different floats only if a float
 *     rounding boundary (a midpoint between neighbouring floats) lies
 *     between them; the C library's result is within 1 double ulp (2^-52
 *     relative) of the exact value.  So wherever the double result is more
 *     than 2^-41 relative away from every midpoint, both round to the same
 *     float; elements nearer than that (about one in 2^16) and elements
 *     outside the covered range (exp: results that are not normal floats,
 *     ln: zero, negative, subnormal, inf and NaN inputs) are recomputed by
 *     the reference, element by element.
 * tests/c/test_vecmath.c compares these kernels with the reference on
 * every input class, all 65536 halves and a large random sample. */
#include "sim/vecmath_simd.h"

#include <stdatomic.h>

#include "sim/vecmath.h"
#include "sim/vecmath_scalar.h"

typedef unsigned char uchar;

#if defined(__x86_64__) && defined(__GNUC__)
#define ASC_SIMD_X86 1
#include <immintrin.h>
#define ASC_SIMD __attribute__((target("avx2,fma,f16c")))
#else
#define ASC_SIMD_X86 0
#endif

static atomic_int simd_enabled = 1;

int asc_vecmath_set_simd(int on) {
  return atomic_exchange_explicit(&simd_enabled, on != 0, memory_order_relaxed);
}

int asc_simd_on(void) {
#if ASC_SIMD_X86
  return atomic_load_explicit(&simd_enabled, memory_order_relaxed) &&
         __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
#else
  return 0;
#endif
}

static inline uint16_t ld16(const uchar *p, int64_t i) {
  uint16_t v;
  memcpy(&v, p + 2 * i, 2);
  return v;
}
static inline void st16(uchar *p, int64_t i, uint16_t v) {
  memcpy(p + 2 * i, &v, 2);
}
static inline float ldf(const uchar *p, int64_t i) {
  float v;
  memcpy(&v, p + 4 * i, 4);
  return v;
}
static inline void stf(uchar *p, int64_t i, float v) {
  memcpy(p + 4 * i, &v, 4);
}

#if ASC_SIMD_X86

/* ---- half <-> float ---------------------------------------------------- */

ASC_SIMD void asc_simd_h2f(float *dst, const void *src, int64_t n) {
  const uchar *s = src;
  const __m128i mag = _mm_set1_epi16(0x7FFF), inf = _mm_set1_epi16(0x7C00);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + 2 * i));
    /* magnitudes above inf's are NaN (signed compare: both are < 2^15) */
    __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, mag), inf);
    if (!_mm_movemask_epi8(nan)) {
      _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    } else {
      for (int k = 0; k < 8; k++)
        dst[i + k] = h2f(ld16(s, i + k));
    }
  }
  for (; i < n; i++)
    dst[i] = h2f(ld16(s, i));
}

ASC_SIMD void asc_simd_f2h(void *dst, const float *src, int64_t n) {
  uchar *d = dst;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 f = _mm256_loadu_ps(src + i);
    if (!_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q))) {
      __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128((__m128i *)(void *)(d + 2 * i), h);
    } else {
      for (int k = 0; k < 8; k++)
        st16(d, i + k, f2h(src[i + k]));
    }
  }
  for (; i < n; i++)
    st16(d, i, f2h(src[i]));
}

/* ---- the rounding-boundary test ---------------------------------------
 *
 * A double y (normal, result a normal float) rounds to float at bit 29 of
 * its significand: the low 29 bits L are 2^28 exactly at a midpoint.  y is
 * "near" one when |L - 2^28| < NEAR_ULPS (2^12 units of y's last place,
 * at least 2^-41 of y).  Lanes of the result: all ones where near. */
enum { NEAR_ULPS = 1 << 12 };

ASC_SIMD static inline __m256i near_midpoint(__m256d y) {
  const __m256i low = _mm256_set1_epi64x((1LL << 29) - 1);
  __m256i l = _mm256_and_si256(_mm256_castpd_si256(y), low);
  __m256i t =
      _mm256_sub_epi64(l, _mm256_set1_epi64x((1LL << 28) - NEAR_ULPS + 1));
  /* near: 0 <= t < 2 * NEAR_ULPS - 1 */
  __m256i ge0 = _mm256_cmpgt_epi64(t, _mm256_set1_epi64x(-1));
  __m256i lt = _mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * NEAR_ULPS - 1), t);
  return _mm256_and_si256(ge0, lt);
}

/* The 4 lanes of a 64-bit mask as one bit each, the 4 of the other above. */
ASC_SIMD static inline int mask8(__m256i lo, __m256i hi) {
  return _mm256_movemask_pd(_mm256_castsi256_pd(lo)) |
         (_mm256_movemask_pd(_mm256_castsi256_pd(hi)) << 4);
}

/* 2^k for integral k in [-1022, 1023], held as double. */
ASC_SIMD static inline __m256d pow2_pd(__m256d k) {
  __m256i ki = _mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(k));
  ki = _mm256_add_epi64(ki, _mm256_set1_epi64x(1023));
  return _mm256_castsi256_pd(_mm256_slli_epi64(ki, 52));
}

/* ---- exp ----------------------------------------------------------------
 *
 * For x with -87 < x < 88.5 (exp(x) a normal float, far from overflow):
 * k = rint(x / ln2), r = x - k ln2 with |r| <= 0.3466 + 2^-40, exp(x) =
 * 2^k exp(r).  ln2 = LN2_HI + LN2_LO with LN2_HI of 32 significant bits:
 * k LN2_HI and x - k LN2_HI are exact (|k| <= 128), so r carries one
 * rounding (2^-54 absolute) and the constant's error (below 2^-80).
 * exp(r) is its Taylor polynomial of degree 11, whose remainder is below
 * 0.3467^12 / 12! < 2^-47 relative; Horner's 11 fused steps add a few
 * units of 2^-53.  Total below 2^-46 relative, far inside the 2^-41 of the
 * boundary test; 2^k is exact. */
static const double LN2_HI = 0x1.62e42feep-1, LN2_LO = 0x1.a39ef35793c76p-33;
static const double INV_LN2 = 0x1.71547652b82fep+0;

ASC_SIMD static inline __m256d exp_pd(__m256d x) {
  __m256d k = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(INV_LN2)),
                              _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(LN2_HI), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(LN2_LO), r);
  /* 1/j! for j = 11 .. 0 */
  __m256d p = _mm256_set1_pd(1.0 / 39916800.0);
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 3628800.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 362880.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 40320.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 5040.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 720.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 120.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 24.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0 / 6.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(0.5));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(1.0));
  return _mm256_mul_pd(p, pow2_pd(k));
}

ASC_SIMD void asc_simd_exp(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  const __m256 lo = _mm256_set1_ps(-87.0f), hi = _mm256_set1_ps(88.5f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_loadu_ps((const float *)(const void *)(s + 4 * i));
    /* ordered compares: NaN is outside */
    __m256 in = _mm256_and_ps(_mm256_cmp_ps(x, lo, _CMP_GT_OQ),
                              _mm256_cmp_ps(x, hi, _CMP_LT_OQ));
    __m256d y0 = exp_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));
    __m256d y1 = exp_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
    int redo = mask8(near_midpoint(y0), near_midpoint(y1)) |
               (~_mm256_movemask_ps(in) & 0xFF);
    __m256 y = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));
    float xs[8];
    _mm256_storeu_ps(xs, x); /* dst may be src */
    _mm256_storeu_ps((float *)(void *)(d + 4 * i), y);
    for (int k = 0; redo; k++, redo >>= 1)
      if (redo & 1)
        stf(d, i + k, exp_to_f(xs[k]));
  }
  for (; i < n; i++)
    stf(d, i, exp_to_f(ldf(s, i)));
}

/* ---- ln -----------------------------------------------------------------
 *
 * For a positive normal finite float x = 2^e m with m in [sqrt(1/2),
 * sqrt(2)) (split on the bits): f = m - 1 and s = f / (2 + f) are such
 * that ln(m) = 2 atanh(s) = 2 s (1 + s^2/3 + s^4/5 + ...), |s| <= 0.1716,
 * s^2 <= 0.02944.  f and 2 + f are exact (m has 24 bits), s carries one
 * rounding; the series to s^16/17 leaves a remainder below
 * 0.02944^9 / 19 < 2^-50 relative.  ln(x) = e LN2_HI + (e LN2_LO +
 * 2 s P): e LN2_HI is exact; for e = 0 the result is 2 s P itself (a few
 * units of 2^-53 relative), otherwise |result| >= ln2 - 0.347 > 0.34 and
 * the two additions add an ulp each.  Total below 2^-48 relative. */
ASC_SIMD static inline __m256d ln_pd(__m256d m, __m256d e) {
  __m256d f = _mm256_sub_pd(m, _mm256_set1_pd(1.0));
  __m256d s = _mm256_div_pd(f, _mm256_add_pd(f, _mm256_set1_pd(2.0)));
  __m256d z = _mm256_mul_pd(s, s);
  __m256d p = _mm256_set1_pd(1.0 / 17.0);
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 15.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 13.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 11.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 9.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 7.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 5.0));
  p = _mm256_fmadd_pd(p, z, _mm256_set1_pd(1.0 / 3.0));
  /* 2 s (1 + z p) = 2 s + 2 s z p */
  __m256d s2 = _mm256_add_pd(s, s);
  __m256d l = _mm256_fmadd_pd(_mm256_mul_pd(s2, z), p, s2);
  l = _mm256_fmadd_pd(e, _mm256_set1_pd(LN2_LO), l);
  return _mm256_fmadd_pd(e, _mm256_set1_pd(LN2_HI), l);
}

ASC_SIMD void asc_simd_ln(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  const __m256i min_normal = _mm256_set1_epi32(0x00800000);
  const __m256i inf = _mm256_set1_epi32(0x7F800000);
  const __m256i sqrt_half = _mm256_set1_epi32(0x3F3504F3); /* 0.70710677 */
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(s + 4 * i));
    /* covered: 0x00800000 <= u < 0x7F800000 (signed: negatives are out) */
    __m256i in = _mm256_andnot_si256(_mm256_cmpgt_epi32(min_normal, u),
                                     _mm256_cmpgt_epi32(inf, u));
    /* e = floor(log2(x / sqrt(1/2))), m = x / 2^e in [sqrt(1/2), sqrt(2)) */
    __m256i e = _mm256_srai_epi32(_mm256_sub_epi32(u, sqrt_half), 23);
    __m256 m =
        _mm256_castsi256_ps(_mm256_sub_epi32(u, _mm256_slli_epi32(e, 23)));
    __m256d ef0 = _mm256_cvtepi32_pd(_mm256_castsi256_si128(e));
    __m256d ef1 = _mm256_cvtepi32_pd(_mm256_extracti128_si256(e, 1));
    __m256d y0 = ln_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(m)), ef0);
    __m256d y1 = ln_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(m, 1)), ef1);
    int redo = mask8(near_midpoint(y0), near_midpoint(y1)) |
               (~_mm256_movemask_ps(_mm256_castsi256_ps(in)) & 0xFF);
    __m256 y = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));
    float xs[8];
    _mm256_storeu_si256((__m256i *)(void *)xs, u); /* dst may be src */
    _mm256_storeu_ps((float *)(void *)(d + 4 * i), y);
    for (int k = 0; redo; k++, redo >>= 1)
      if (redo & 1)
        stf(d, i + k, ln_to_f(xs[k]));
  }
  for (; i < n; i++)
    stf(d, i, ln_to_f(ldf(s, i)));
}

#else /* no x86 SIMD: asc_simd_on() is 0 and these are never called; they      \
         are defined (as the reference) so that the core links. */

void asc_simd_h2f(float *dst, const void *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    dst[i] = h2f(ld16(src, i));
}
void asc_simd_f2h(void *dst, const float *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    st16(dst, i, f2h(src[i]));
}
void asc_simd_exp(void *dst, const void *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    stf(dst, i, exp_to_f(ldf(src, i)));
}
void asc_simd_ln(void *dst, const void *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    stf(dst, i, ln_to_f(ldf(src, i)));
}

#endif
