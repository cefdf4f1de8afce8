/* SIMD kernels of the vector unit; see vecmath_simd.h.
 *
 * Compiled for the baseline like the rest of the core: only the functions
 * marked ASC_SIMD use AVX2, FMA and F16C (ASC_SIMD512 also AVX-512 F), and
 * they run only after asc_simd_on() / simd_512() have seen those on the
 * host (__builtin_cpu_supports).
 *
 * Why the results are bit-identical to the scalar reference:
 *   - half -> float is exact, and F16C's VCVTPH2PS gives the exact value
 *     for every non-NaN half (subnormals included);  float -> half with
 *     VCVTPS2PH and immediate rounding "nearest even" is the correctly
 *     rounded result, as f2h; overflow gives inf and subnormal results are
 *     kept in both.  They differ only on NaN (F16C quiets a signalling NaN,
 *     the reference keeps its payload bits), so any group of 8 holding a NaN
 *     goes to the reference (in the fused half arithmetic: to the portable
 *     loop of the op, see asc_simd_h_binary);
 *   - exp and ln: the reference is the C library's double exp/log, rounded
 *     once to float.  Here each is computed in double with a relative error
 *     below 2^-46 (see the bounds at exp_pd, exp_pd512 and ln_pd), then
 *     rounded to float.  Two doubles round to different floats only if a
 *     float rounding boundary (a midpoint between neighbouring floats) lies
 *     between them; the C library's result is within 1 double ulp (2^-52
 *     relative) of the exact value.  So wherever the double result is more
 *     than 2^-41 relative away from every midpoint, both round to the same
 *     float; elements nearer than that (about one in 2^16) and elements
 *     outside the covered range (exp: results that are not normal floats,
 *     ln: zero, negative, subnormal, inf and NaN inputs) are recomputed by
 *     the reference, element by element.
 * tests/c/test_vecmath_simd.c compares these kernels with the portable
 * loops and the reference on every input class, the hardest-to-round
 * floats, all 65536 halves and a large random sample (and, with
 * --exhaustive, exp and ln on all 2^32 floats). */
#include "sim/vecmath_simd.h"

#include <stdatomic.h>

#include "sim/vecmath.h"
#include "sim/vecmath_scalar.h"

typedef unsigned char uchar;

#if defined(__x86_64__) && defined(__GNUC__)
#define ASC_SIMD_X86 1
#include <immintrin.h>
#define ASC_SIMD __attribute__((target("avx2,fma,f16c")))
#define ASC_SIMD512 __attribute__((target("avx512f,avx2,fma,f16c")))
#else
#define ASC_SIMD_X86 0
#endif

/* The most the kernels may use: 0 none, 1 AVX2 + FMA + F16C, 2 also
 * AVX-512 (asc_vecmath_set_simd). */
static atomic_int simd_level = 2;

int asc_vecmath_set_simd(int level) {
  level = level < 0 ? 0 : level > 2 ? 2 : level;
  return atomic_exchange_explicit(&simd_level, level, memory_order_relaxed);
}

int asc_simd_on(void) {
#if ASC_SIMD_X86
  return atomic_load_explicit(&simd_level, memory_order_relaxed) >= 1 &&
         __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c");
#else
  return 0;
#endif
}

#if ASC_SIMD_X86
/* asc_simd_on() and AVX-512 F allowed and present. */
static int simd_512(void) {
  return atomic_load_explicit(&simd_level, memory_order_relaxed) >= 2 &&
         __builtin_cpu_supports("avx512f");
}
#endif

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

ASC_SIMD void asc_simd_h2f(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  const __m128i mag = _mm_set1_epi16(0x7FFF), inf = _mm_set1_epi16(0x7C00);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + 2 * i));
    /* magnitudes above inf's are NaN (signed compare: both are < 2^15) */
    __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, mag), inf);
    if (!_mm_movemask_epi8(nan)) {
      _mm256_storeu_ps((float *)(void *)(d + 4 * i), _mm256_cvtph_ps(h));
    } else {
      for (int k = 0; k < 8; k++)
        stf(d, i + k, h2f(ld16(s, i + k)));
    }
  }
  for (; i < n; i++)
    stf(d, i, h2f(ld16(s, i)));
}

ASC_SIMD void asc_simd_f2h(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 f = _mm256_loadu_ps((const float *)(const void *)(s + 4 * i));
    if (!_mm256_movemask_ps(_mm256_cmp_ps(f, f, _CMP_UNORD_Q))) {
      __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128((__m128i *)(void *)(d + 2 * i), h);
    } else {
      for (int k = 0; k < 8; k++)
        st16(d, i + k, f2h(ldf(s, i + k)));
    }
  }
  for (; i < n; i++)
    st16(d, i, f2h(ldf(s, i)));
}

/* Half add/sub/mul/div in one pass: 8 halves of each source to float
 * (exact), the float operation (the portable loop's, on the same values),
 * the result to half.  A group whose result holds a NaN (which every NaN
 * operand gives) is computed by the portable loop `port` itself: which of
 * two NaN operands an x86 instruction passes on depends on the operand
 * order the compiler chose, so only that loop gives its own payloads. */
#define H_BIN_LOOP(OPV)                                                        \
  for (; i + 8 <= n; i += 8) {                                                 \
    __m128i hx = _mm_loadu_si128((const __m128i *)(const void *)(x + 2 * i));  \
    __m128i hy = _mm_loadu_si128((const __m128i *)(const void *)(y + 2 * i));  \
    __m256 r = OPV(_mm256_cvtph_ps(hx), _mm256_cvtph_ps(hy));                  \
    if (!_mm256_movemask_ps(_mm256_cmp_ps(r, r, _CMP_UNORD_Q)))                \
      _mm_storeu_si128((__m128i *)(void *)(d + 2 * i),                         \
                       _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT));         \
    else                                                                       \
      port(d + 2 * i, x + 2 * i, y + 2 * i, 8);                                \
  }

ASC_SIMD void asc_simd_h_binary(int op, AscSimdBinFn port, void *dst,
                                const void *src0, const void *src1, int64_t n) {
  uchar *d = dst;
  const uchar *x = src0, *y = src1;
  int64_t i = 0;
  switch (op) {
  case ASC_SIMD_ADD:
    H_BIN_LOOP(_mm256_add_ps)
    break;
  case ASC_SIMD_SUB:
    H_BIN_LOOP(_mm256_sub_ps)
    break;
  case ASC_SIMD_MUL:
    H_BIN_LOOP(_mm256_mul_ps)
    break;
  default:
    H_BIN_LOOP(_mm256_div_ps)
    break;
  }
  if (i < n)
    port(d + 2 * i, x + 2 * i, y + 2 * i, n - i);
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

/* ---- exp ----------------------------------------------------------------
 *
 * For x with -87 < x < 88.5 (exp(x) a normal float, far from overflow):
 * k = rint(32 x / ln2) = 32 m + j (0 <= j < 32), r = x - k ln2/32 with
 * |r| <= ln2/64 + 2^-40 < 0.01084, exp(x) = 2^m 2^(j/32) exp(r).
 * ln2/32 = L32_HI + L32_LO with L32_HI of 32 significant bits: x - k L32_HI
 * is exact (|k| <= 4096 and the difference is below 2^-6 with its last bit
 * at least 2^-37), so r carries one rounding (2^-59 absolute) and the
 * constant's error (below 2^-80).  exp(r) is its Taylor polynomial of
 * degree 5, whose remainder is below 0.01084^6 / 6! < 2^-48 relative; the
 * table's entries are 2^(j/32) rounded to double (2^-53 relative), and
 * the polynomial's and the product's roundings add a few units of 2^-53.
 * Total below 2^-47 relative, far inside the 2^-41 of the boundary test;
 * 2^m is exact. */
static const double L32_HI = 0x1.62e42feep-6, L32_LO = 0x1.a39ef35793c76p-38;
static const double INV_L32 = 0x1.71547652b82fep+5;
static const double EXP2_J32[32] = {
    0x1.0000000000000p+0, 0x1.059b0d3158574p+0, 0x1.0b5586cf9890fp+0,
    0x1.11301d0125b51p+0, 0x1.172b83c7d517bp+0, 0x1.1d4873168b9aap+0,
    0x1.2387a6e756238p+0, 0x1.29e9df51fdee1p+0, 0x1.306fe0a31b715p+0,
    0x1.371a7373aa9cbp+0, 0x1.3dea64c123422p+0, 0x1.44e086061892dp+0,
    0x1.4bfdad5362a27p+0, 0x1.5342b569d4f82p+0, 0x1.5ab07dd485429p+0,
    0x1.6247eb03a5585p+0, 0x1.6a09e667f3bcdp+0, 0x1.71f75e8ec5f74p+0,
    0x1.7a11473eb0187p+0, 0x1.82589994cce13p+0, 0x1.8ace5422aa0dbp+0,
    0x1.93737b0cdc5e5p+0, 0x1.9c49182a3f090p+0, 0x1.a5503b23e255dp+0,
    0x1.ae89f995ad3adp+0, 0x1.b7f76f2fb5e47p+0, 0x1.c199bdd85529cp+0,
    0x1.cb720dcef9069p+0, 0x1.d5818dcfba487p+0, 0x1.dfc97337b9b5fp+0,
    0x1.ea4afa2a490dap+0, 0x1.f50765b6e4540p+0};

ASC_SIMD static inline __m256d exp_pd(__m256d x) {
  __m256d k = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(INV_L32)),
                              _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(L32_HI), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(L32_LO), r);
  __m128i ki = _mm256_cvtpd_epi32(k);
  __m256d t =
      _mm256_i32gather_pd(EXP2_J32, _mm_and_si128(ki, _mm_set1_epi32(31)), 8);
  __m256i m = _mm256_cvtepi32_epi64(_mm_srai_epi32(ki, 5));
  __m256d scale = _mm256_castsi256_pd(
      _mm256_slli_epi64(_mm256_add_epi64(m, _mm256_set1_epi64x(1023)), 52));
  /* 1 + r + r^2 (1/2 + r/6) + r^4 (1/24 + r/120) */
  __m256d r2 = _mm256_mul_pd(r, r);
  __m256d p23 =
      _mm256_fmadd_pd(r, _mm256_set1_pd(1.0 / 6.0), _mm256_set1_pd(0.5));
  __m256d p45 = _mm256_fmadd_pd(r, _mm256_set1_pd(1.0 / 120.0),
                                _mm256_set1_pd(1.0 / 24.0));
  __m256d q = _mm256_fmadd_pd(r2, p45, p23);
  __m256d p = _mm256_fmadd_pd(r2, q, _mm256_add_pd(r, _mm256_set1_pd(1.0)));
  return _mm256_mul_pd(_mm256_mul_pd(p, t), scale);
}

ASC_SIMD static void exp_avx2(void *dst, const void *src, int64_t n) {
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
    _mm256_storeu_ps((float *)(void *)(d + 4 * i), y);
    if (redo) {
      float xs[8];
      _mm256_storeu_ps(xs, x); /* dst may be src */
      for (int k = 0; redo; k++, redo >>= 1)
        if (redo & 1)
          stf(d, i + k, exp_to_f(xs[k]));
    }
  }
  for (; i < n; i++)
    stf(d, i, exp_to_f(ldf(s, i)));
}

/* The same with AVX-512 on 16 floats at a time: 16 table entries (one
 * two-register permute), so |r| <= ln2/32 + 2^-40 < 0.02167 and the
 * Taylor polynomial has degree 6 (remainder below 0.02167^7 / 7! < 2^-50
 * relative); t exp(r) is t + t (exp(r) - 1) with one rounding, and
 * 2^floor(k/16) is applied exactly by VSCALEFPD.  Total below 2^-48
 * relative. */
static const double EXP2_J16[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0,
    0x1.2387a6e756238p+0, 0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0,
    0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0, 0x1.6a09e667f3bcdp+0,
    0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0,
    0x1.ea4afa2a490dap+0};
static const double L16_HI = 0x1.62e42feep-5, L16_LO = 0x1.a39ef35793c76p-37;
static const double INV_L16 = 0x1.71547652b82fep+4;

ASC_SIMD512 static inline __m512d exp_pd512(__m512d x, __m512d t_lo,
                                            __m512d t_hi) {
  /* kd's low bits hold k = rint(16 x / ln2) (adding 1.5 * 2^52 rounds to
   * an integer); the table index is k mod 16, its last 4 bits */
  const __m512d shifter = _mm512_set1_pd(0x1.8p52);
  __m512d kd = _mm512_fmadd_pd(x, _mm512_set1_pd(INV_L16), shifter);
  __m512d k = _mm512_sub_pd(kd, shifter);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(L16_HI), x);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(L16_LO), r);
  __m512d t = _mm512_permutex2var_pd(t_lo, _mm512_castpd_si512(kd), t_hi);
  /* exp(r) - 1 = r + r^2 (1/2 + r/6 + r^2 (1/24 + r/120 + r^2/720)) */
  __m512d r2 = _mm512_mul_pd(r, r);
  __m512d q1 =
      _mm512_fmadd_pd(r, _mm512_set1_pd(1.0 / 6.0), _mm512_set1_pd(0.5));
  __m512d q2 = _mm512_fmadd_pd(r, _mm512_set1_pd(1.0 / 120.0),
                               _mm512_set1_pd(1.0 / 24.0));
  q2 = _mm512_fmadd_pd(r2, _mm512_set1_pd(1.0 / 720.0), q2);
  __m512d q = _mm512_fmadd_pd(r2, q2, q1);
  __m512d pm1 = _mm512_fmadd_pd(r2, q, r);
  /* t exp(r) = t + t (exp(r) - 1), times 2^floor(k / 16) */
  return _mm512_scalef_pd(_mm512_fmadd_pd(t, pm1, t),
                          _mm512_mul_pd(k, _mm512_set1_pd(1.0 / 16.0)));
}

/* Bit i set where lane i of y (8 doubles) is near a float midpoint. */
ASC_SIMD512 static inline __mmask8 near_midpoint512(__m512d y) {
  __m512i l = _mm512_and_epi64(_mm512_castpd_si512(y),
                               _mm512_set1_epi64((1LL << 29) - 1));
  __m512i t =
      _mm512_sub_epi64(l, _mm512_set1_epi64((1LL << 28) - NEAR_ULPS + 1));
  return _mm512_cmplt_epu64_mask(t, _mm512_set1_epi64(2 * NEAR_ULPS - 1));
}

ASC_SIMD512 static void exp_avx512(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  const __m512 lo = _mm512_set1_ps(-87.0f), hi = _mm512_set1_ps(88.5f);
  const __m512d t_lo = _mm512_loadu_pd(EXP2_J16),
                t_hi = _mm512_loadu_pd(EXP2_J16 + 8);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 x = _mm512_loadu_ps(s + 4 * i);
    __mmask16 in = _mm512_cmp_ps_mask(x, lo, _CMP_GT_OQ) &
                   _mm512_cmp_ps_mask(x, hi, _CMP_LT_OQ);
    __m256 x0 = _mm512_castps512_ps256(x);
    __m256 x1 =
        _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1));
    __m512d y0 = exp_pd512(_mm512_cvtps_pd(x0), t_lo, t_hi);
    __m512d y1 = exp_pd512(_mm512_cvtps_pd(x1), t_lo, t_hi);
    unsigned redo = ((unsigned)near_midpoint512(y0) |
                     (unsigned)near_midpoint512(y1) << 8 | ~(unsigned)in) &
                    0xFFFFu;
    __m512d y = _mm512_insertf64x4(
        _mm512_castpd256_pd512(_mm256_castps_pd(_mm512_cvtpd_ps(y0))),
        _mm256_castps_pd(_mm512_cvtpd_ps(y1)), 1);
    _mm512_storeu_pd(d + 4 * i, y);
    if (redo) {
      float xs[16];
      _mm512_storeu_ps(xs, x); /* dst may be src */
      for (int k = 0; redo; k++, redo >>= 1)
        if (redo & 1)
          stf(d, i + k, exp_to_f(xs[k]));
    }
  }
  exp_avx2(d + 4 * i, s + 4 * i, n - i);
}

void asc_simd_exp(void *dst, const void *src, int64_t n) {
  if (simd_512())
    exp_avx512(dst, src, n);
  else
    exp_avx2(dst, src, n);
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
static const double LN2_HI = 0x1.62e42feep-1, LN2_LO = 0x1.a39ef35793c76p-33;

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

ASC_SIMD static void ln_avx2(void *dst, const void *src, int64_t n) {
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
    _mm256_storeu_ps((float *)(void *)(d + 4 * i), y);
    if (redo) {
      float xs[8];
      _mm256_storeu_si256((__m256i *)(void *)xs, u); /* dst may be src */
      for (int k = 0; redo; k++, redo >>= 1)
        if (redo & 1)
          stf(d, i + k, ln_to_f(xs[k]));
    }
  }
  for (; i < n; i++)
    stf(d, i, ln_to_f(ldf(s, i)));
}

/* The same with AVX-512 on 16 floats at a time (the same arithmetic, so
 * the same bound). */
ASC_SIMD512 static inline __m512d ln_pd512(__m512d m, __m512d e) {
  __m512d f = _mm512_sub_pd(m, _mm512_set1_pd(1.0));
  __m512d s = _mm512_div_pd(f, _mm512_add_pd(f, _mm512_set1_pd(2.0)));
  __m512d z = _mm512_mul_pd(s, s);
  __m512d p = _mm512_set1_pd(1.0 / 17.0);
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 15.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 13.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 11.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 9.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 7.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 5.0));
  p = _mm512_fmadd_pd(p, z, _mm512_set1_pd(1.0 / 3.0));
  __m512d s2 = _mm512_add_pd(s, s);
  __m512d l = _mm512_fmadd_pd(_mm512_mul_pd(s2, z), p, s2);
  l = _mm512_fmadd_pd(e, _mm512_set1_pd(LN2_LO), l);
  return _mm512_fmadd_pd(e, _mm512_set1_pd(LN2_HI), l);
}

ASC_SIMD512 static void ln_avx512(void *dst, const void *src, int64_t n) {
  uchar *d = dst;
  const uchar *s = src;
  const __m512i min_normal = _mm512_set1_epi32(0x00800000);
  const __m512i inf = _mm512_set1_epi32(0x7F800000);
  const __m512i sqrt_half = _mm512_set1_epi32(0x3F3504F3);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512i u = _mm512_loadu_si512(s + 4 * i);
    __mmask16 in = _mm512_cmpge_epi32_mask(u, min_normal) &
                   _mm512_cmplt_epi32_mask(u, inf);
    __m512i e = _mm512_srai_epi32(_mm512_sub_epi32(u, sqrt_half), 23);
    __m512i mi = _mm512_sub_epi32(u, _mm512_slli_epi32(e, 23));
    __m512d m0 =
        _mm512_cvtps_pd(_mm256_castsi256_ps(_mm512_castsi512_si256(mi)));
    __m512d m1 =
        _mm512_cvtps_pd(_mm256_castsi256_ps(_mm512_extracti64x4_epi64(mi, 1)));
    __m512d y0 = ln_pd512(m0, _mm512_cvtepi32_pd(_mm512_castsi512_si256(e)));
    __m512d y1 =
        ln_pd512(m1, _mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(e, 1)));
    unsigned redo = ((unsigned)near_midpoint512(y0) |
                     (unsigned)near_midpoint512(y1) << 8 | ~(unsigned)in) &
                    0xFFFFu;
    __m512d y = _mm512_insertf64x4(
        _mm512_castpd256_pd512(_mm256_castps_pd(_mm512_cvtpd_ps(y0))),
        _mm256_castps_pd(_mm512_cvtpd_ps(y1)), 1);
    _mm512_storeu_pd(d + 4 * i, y);
    if (redo) {
      float xs[16];
      _mm512_storeu_si512(xs, u); /* dst may be src */
      for (int k = 0; redo; k++, redo >>= 1)
        if (redo & 1)
          stf(d, i + k, ln_to_f(xs[k]));
    }
  }
  ln_avx2(d + 4 * i, s + 4 * i, n - i);
}

void asc_simd_ln(void *dst, const void *src, int64_t n) {
  if (simd_512())
    ln_avx512(dst, src, n);
  else
    ln_avx2(dst, src, n);
}

#else /* no x86 SIMD: asc_simd_on() is 0 and these are never called; they      \
         are defined (as the reference) so that the core links. */

void asc_simd_h2f(void *dst, const void *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    stf(dst, i, h2f(ld16(src, i)));
}
void asc_simd_f2h(void *dst, const void *src, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    st16(dst, i, f2h(ldf(src, i)));
}
void asc_simd_h_binary(int op, AscSimdBinFn port, void *dst, const void *src0,
                       const void *src1, int64_t n) {
  (void)op;
  port(dst, src0, src1, n);
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
