/* family: adv math. Asin, Acos, Atan, Sin, Cos, Tan as the devkit computes
 * them for Ascend910B (impl/adv_api/detail/math/<name>/, the
 * __NPU_ARCH__ 2201 paths), one element at a time, instruction by
 * instruction (adv_math_ops.h). The constants are the devkit's. */
#include "adv_math_ops.h"

/* ---- Asin / Acos --------------------------------------------------------- */

/* The devkit's Taylor coefficients of asin: 1, 1/6, 3/40, 15/336, ... */
static const double asin_k[8] = {
    1.0,
    0.16666666666666666666666666666667,
    0.075,
    0.04464285714285714285714285714286,
    0.03038194444444444444444444444444,
    0.02237215909090909090909090909091,
    0.01735276442307692307692307692308,
    0.01396484375,
};
#define ASIN_TERMS 7

static const double half_pi = 1.5707963267948966192313216916398;
static const double boundary = 0.70710678118654752440084436210485;

/* x * P(x^2), the two square multiplies first (AsinTaylorCompute). */
static float asin_taylor(AdvFn *c, int t, float x) {
  float d = adv_mul(c, t, x, x);
  float sq = adv_mul(c, t, x, x);
  d = adv_muls(c, t, d, asin_k[ASIN_TERMS]);
  for (int i = ASIN_TERMS - 1; i > 0; i--) {
    d = adv_adds(c, t, d, asin_k[i]);
    d = adv_mul(c, t, d, sq);
  }
  d = adv_adds(c, t, d, asin_k[0]);
  return adv_mul(c, t, d, x);
}

/* sqrt(s) * P(s) from the square s, leaving sqrt(s) in *sp
 * (AsinTaylorComputeBySquareValue). */
static float asin_taylor_sq(AdvFn *c, int t, float *sp) {
  float s = *sp;
  float d = adv_muls(c, t, s, 1.0);
  d = adv_muls(c, t, d, asin_k[ASIN_TERMS]);
  for (int i = ASIN_TERMS - 1; i > 0; i--) {
    d = adv_adds(c, t, d, asin_k[i]);
    d = adv_mul(c, t, d, s);
  }
  d = adv_adds(c, t, d, asin_k[0]);
  *sp = s = adv_sqrt(c, t, s);
  return adv_mul(c, t, d, s);
}

/* sign(x) = x * 2^62 / (2^-62 + |x * 2^62|) (2^15, 2^-15 in half). */
static float get_sign(AdvFn *c, int t, float x) {
  double big = t == TH ? 32768.0 : 4611686018427387904.0;
  double tiny = t == TH ? 3.0517578125e-05 : 2.168404344971009e-19;
  float s = adv_muls(c, t, x, big);
  float den = adv_abs(c, t, s);
  den = adv_adds(c, t, den, tiny);
  return adv_div(c, t, s, den);
}

/* Float: res1 = taylor(|x|) below 2^-0.5, res2 = pi/2 - taylor(sqrt(1 -
 * x^2)) above, blended by choice = -floor(min(|x|, B) - B) in {0, 1}. */
static float asin_f32(AdvFn *c, float x) {
  float t2 = adv_mul(c, TF, x, x), d, tm, s;
  t2 = adv_muls(c, TF, t2, -1.0);
  t2 = adv_adds(c, TF, t2, 1.0);
  d = adv_sqrt(c, TF, t2);
  t2 = asin_taylor(c, TF, d);
  t2 = adv_muls(c, TF, t2, -1.0);
  t2 = adv_adds(c, TF, t2, half_pi);
  tm = adv_mul(c, TF, x, x);
  d = asin_taylor_sq(c, TF, &tm);
  tm = adv_mins(c, TF, tm, boundary);
  tm = adv_adds(c, TF, tm, -boundary);
  tm = adv_to_int(c, TF, ASC_DT_INT32, ASC_ROUND_FLOOR, tm);
  tm = adv_from_int(c, TF, tm);
  tm = adv_muls(c, TF, tm, -1.0);
  d = adv_mul(c, TF, d, tm);
  tm = adv_muls(c, TF, tm, -1.0);
  tm = adv_adds(c, TF, tm, 1.0);
  t2 = adv_mul(c, TF, t2, tm);
  d = adv_add(c, TF, d, t2);
  s = get_sign(c, TF, x);
  return adv_mul(c, TF, d, s);
}

/* Half: the square-root branch in float, the Taylor branch of |x| in half,
 * the blend and the sign in half and float as the devkit interleaves them
 * (AsinFp16Compute). *f1 is left with the float result, which Acos uses. */
static float asin_f16(AdvFn *c, float x, float *f1out) {
  float f2 = adv_to_float(c, x), f1, h2, h1, d;
  f2 = adv_mul(c, TF, f2, f2);
  f2 = adv_muls(c, TF, f2, -1.0);
  f2 = adv_adds(c, TF, f2, 1.0);
  f1 = asin_taylor_sq(c, TF, &f2);
  f1 = adv_muls(c, TF, f1, -1.0);
  f1 = adv_adds(c, TF, f1, half_pi);
  h2 = adv_abs(c, TH, x);
  d = asin_taylor(c, TH, h2);
  h2 = adv_mins(c, TH, h2, boundary);
  h2 = adv_adds(c, TH, h2, -boundary);
  h1 = adv_to_int(c, TH, ASC_DT_INT8, ASC_ROUND_FLOOR, h2);
  h2 = adv_from_int(c, TH, h1);
  h2 = adv_muls(c, TH, h2, -1.0);
  d = adv_mul(c, TH, d, h2);
  h2 = adv_muls(c, TH, h2, -1.0);
  h2 = adv_adds(c, TH, h2, 1.0);
  f2 = adv_to_float(c, h2);
  f1 = adv_mul(c, TF, f1, f2);
  f2 = adv_to_float(c, d);
  f1 = adv_add(c, TF, f2, f1);
  h1 = get_sign(c, TH, x);
  f2 = adv_to_float(c, h1);
  f1 = adv_mul(c, TF, f1, f2);
  *f1out = f1;
  return adv_to_half(c, f1);
}

float adv_asin(AdvFn *c, float x) {
  float f1;
  return c->half ? asin_f16(c, x, &f1) : asin_f32(c, x);
}

/* acos(x) = -(asin(x) - pi/2); for half from asin's float result. */
float adv_acos(AdvFn *c, float x) {
  float r;
  if (!c->half) {
    r = asin_f32(c, x);
    r = adv_adds(c, TF, r, -half_pi);
    return adv_muls(c, TF, r, -1.0);
  }
  (void)asin_f16(c, x, &r);
  r = adv_adds(c, TF, r, -half_pi);
  r = adv_muls(c, TF, r, -1.0);
  return adv_to_half(c, r);
}

/* ---- Atan ------------------------------------------------------------------
 */

static const double atan_k[7] = {1,
                                 -0.3333333333333333,
                                 0.2,
                                 -0.14285714285714285,
                                 0.1111111111111111,
                                 -0.09090909090909091,
                                 0.07692307692307693};

/* x * (1 + x^2 (k1 + x^2 (k2 + ...))) to level terms (TaylorExpand). */
static float atan_taylor(AdvFn *c, float x, int level) {
  float sq = adv_mul(c, TF, x, x);
  float d = adv_mul(c, TF, x, x);
  d = adv_muls(c, TF, d, atan_k[level]);
  for (int i = level - 1; i > 0; i--) {
    d = adv_adds(c, TF, d, atan_k[i]);
    d = adv_mul(c, TF, d, sq);
  }
  d = adv_adds(c, TF, d, atan_k[0]);
  return adv_mul(c, TF, d, x);
}

/* |(x - y) / (1 + x y)| (AtanTransform). */
static float atan_transform(AdvFn *c, float x, double y) {
  float d = adv_muls(c, TF, x, y);
  float m;
  d = adv_adds(c, TF, d, 1.0);
  m = adv_adds(c, TF, x, 0.0 - (float)y);
  d = adv_div(c, TF, m, d);
  return adv_abs(c, TF, d);
}

/* The minimum of four candidates, each the Taylor series of a reduced
 * argument plus its offset: each is too large outside its range
 * (AtanFormulaImpl). */
static float atan_formula(AdvFn *c, float x) {
  const double pi4 = 0.78539816339744830961566084581988;
  const double pi8 = 0.39269908169872415480783042290994;
  const double tan8 = 0.4142135623730950;
  float clip = adv_mins(c, TF, x, 10000.0), a, d, t, t2, s;
  clip = adv_maxs(c, TF, clip, -10000.0);
  a = adv_abs(c, TF, clip);
  d = atan_taylor(c, a, 4);
  t = atan_transform(c, a, tan8);
  t2 = atan_taylor(c, t, 4);
  t2 = adv_adds(c, TF, t2, pi8);
  d = adv_min(c, TF, d, t2);
  t2 = adv_adds(c, TF, a, 1.0);
  t = adv_adds(c, TF, a, -1.0);
  t = adv_div(c, TF, t, t2);
  t = adv_abs(c, TF, t);
  t2 = atan_taylor(c, t, 4);
  t2 = adv_adds(c, TF, t2, pi4);
  d = adv_min(c, TF, d, t2);
  t2 = atan_transform(c, t, tan8);
  t = atan_taylor(c, t2, 6);
  t = adv_adds(c, TF, t, pi8);
  t = adv_adds(c, TF, t, pi4);
  d = adv_min(c, TF, d, t);
  s = get_sign(c, TF, clip);
  return adv_mul(c, TF, d, s);
}

float adv_atan(AdvFn *c, float x) {
  if (!c->half)
    return atan_formula(c, x);
  return adv_to_half(c, atan_formula(c, adv_to_float(c, x)));
}

/* ---- Sin / Cos / Tan -------------------------------------------------------
 */

/* pi split in parts exact in few bits, 1/pi, the odd polynomial of sin
 * on [-pi/2, pi/2], shared by Sin and Cos. */
static const double inv_pi = 0.3183098733425140380859375;
static const double pi_0 = 3.140625;
static const double pi_1 = 0.0009670257568359375;
static const double pi_2 = 6.2771141529083251953125e-7;
static const double pi_3 = 1.21644916362129151821136474609375e-10;
static const double sin_r[4] = {2.604926501e-6, -0.0001980894471,
                                0.008333049340, -0.1666665792};

/* (-1)^k as 4 floor(k / 2) - 2 k + 1, and x P(x^2) times it
 * (SinSignCompute + SinPolynomialApproximation). */
static float sin_poly(AdvFn *c, float x, float k) {
  float sq = adv_mul(c, TF, x, x);
  float sg = adv_muls(c, TF, k, 0.5), r;
  sg = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, sg);
  sg = adv_muls(c, TF, sg, 4.0);
  k = adv_muls(c, TF, k, -2.0);
  sg = adv_add(c, TF, sg, k);
  sg = adv_adds(c, TF, sg, 1.0);
  r = adv_muls(c, TF, sq, sin_r[0]);
  r = adv_adds(c, TF, r, sin_r[1]);
  r = adv_mul(c, TF, r, sq);
  r = adv_adds(c, TF, r, sin_r[2]);
  r = adv_mul(c, TF, r, sq);
  r = adv_adds(c, TF, r, sin_r[3]);
  r = adv_mul(c, TF, r, sq);
  r = adv_adds(c, TF, r, 1.0);
  r = adv_mul(c, TF, r, x);
  return adv_mul(c, TF, r, sg);
}

/* k = round(x / pi) (ties away from zero), x0 = x - k pi in four parts. */
static float sin_float(AdvFn *c, float x) {
  float k = adv_muls(c, TF, x, inv_pi), kp, x0;
  k = adv_round_to_int(c, TF, ASC_ROUND_ROUND, k);
  kp = adv_muls(c, TF, k, pi_0);
  x0 = adv_sub(c, TF, x, kp);
  kp = adv_muls(c, TF, k, pi_1);
  x0 = adv_sub(c, TF, x0, kp);
  kp = adv_muls(c, TF, k, pi_2);
  x0 = adv_sub(c, TF, x0, kp);
  kp = adv_muls(c, TF, k, pi_3);
  x0 = adv_sub(c, TF, x0, kp);
  return sin_poly(c, x0, k);
}

float adv_sin_f32(AdvFn *c, float x) { return sin_float(c, x); }

float adv_sin(AdvFn *c, float x) {
  if (!c->half)
    return sin_float(c, x);
  return adv_to_half(c, sin_float(c, adv_to_float(c, x)));
}

/* cos(x) = (-1)^k sin(x - k pi + pi/2), k = rint(x / pi + 1/2), clamped to
 * [-1, 1]. */
static float cos_float(AdvFn *c, float x) {
  const double pi_4 = -1.0290623200529979163359041220560e-13;
  float k = adv_muls(c, TF, x, inv_pi), kp, x0, r;
  k = adv_adds(c, TF, k, 0.5);
  k = adv_round_to_int(c, TF, ASC_ROUND_RINT, k);
  kp = adv_muls(c, TF, k, pi_0);
  x0 = adv_sub(c, TF, x, kp);
  kp = adv_muls(c, TF, k, pi_1);
  x0 = adv_sub(c, TF, x0, kp);
  x0 = adv_adds(c, TF, x0, 1.57079637050628662109375);
  kp = adv_muls(c, TF, k, pi_2);
  x0 = adv_sub(c, TF, x0, kp);
  kp = adv_muls(c, TF, k, pi_3);
  x0 = adv_sub(c, TF, x0, kp);
  kp = adv_muls(c, TF, k, pi_4);
  x0 = adv_sub(c, TF, x0, kp);
  x0 = adv_adds(c, TF, x0, -0.00000004371139000189375);
  r = sin_poly(c, x0, k);
  r = adv_mins(c, TF, r, 1.0);
  return adv_maxs(c, TF, r, -1.0);
}

float adv_cos_f32(AdvFn *c, float x) { return cos_float(c, x); }

float adv_cos(AdvFn *c, float x) {
  if (!c->half)
    return cos_float(c, x);
  return adv_to_half(c, cos_float(c, adv_to_float(c, x)));
}

/* tan(x0) = x0 P(x0^2) / ((x0 + pi/2)(x0 - pi/2) Q(x0^2)), x0 = x - k pi,
 * k = rint(x / pi), the two factors of the denominator reduced along. */
static float tan_float(AdvFn *c, float x) {
  const double pi_4 = -1.0291767438275201129727065563201904296875e-13;
  const double pio2 = 1.57079637050628662109375;
  const double pio2_lo = 0.00000004371139000189375;
  float k = adv_muls(c, TF, x, inv_pi), d, r1, r2, sq, up;
  k = adv_round_to_int(c, TF, ASC_ROUND_RINT, k);
  d = adv_muls(c, TF, k, pi_0);
  x = adv_sub(c, TF, x, d);
  d = adv_muls(c, TF, k, pi_1);
  x = adv_sub(c, TF, x, d);
  r1 = adv_adds(c, TF, x, pio2);
  r2 = adv_adds(c, TF, x, -pio2);
  d = adv_muls(c, TF, k, pi_2);
  x = adv_sub(c, TF, x, d);
  r1 = adv_sub(c, TF, r1, d);
  r2 = adv_sub(c, TF, r2, d);
  r1 = adv_adds(c, TF, r1, -pio2_lo);
  r2 = adv_adds(c, TF, r2, pio2_lo);
  d = adv_muls(c, TF, k, pi_3);
  x = adv_sub(c, TF, x, d);
  r1 = adv_sub(c, TF, r1, d);
  r2 = adv_sub(c, TF, r2, d);
  d = adv_muls(c, TF, k, pi_4);
  x = adv_sub(c, TF, x, d);
  r1 = adv_sub(c, TF, r1, d);
  r2 = adv_sub(c, TF, r2, d);
  sq = adv_mul(c, TF, x, x);
  up = adv_muls(c, TF, sq, 0.0698520831551998762793);
  up = adv_adds(c, TF, up, -6.8711573651634203789);
  up = adv_mul(c, TF, up, sq);
  up = adv_adds(c, TF, up, 61.20362572811089435388);
  up = adv_mul(c, TF, up, x);
  sq = adv_adds(c, TF, sq, -24.8048928861126769186219);
  sq = adv_mul(c, TF, sq, r1);
  sq = adv_mul(c, TF, sq, r2);
  return adv_div(c, TF, up, sq);
}

float adv_tan_f32(AdvFn *c, float x) {
  return tan_float(c, adv_adds(c, TF, x, 0.0));
}

float adv_tan(AdvFn *c, float x) {
  if (!c->half)
    return tan_float(c, adv_adds(c, TF, x, 0.0));
  return adv_to_half(c, tan_float(c, adv_to_float(c, x)));
}
