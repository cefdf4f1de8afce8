/* family: adv math. Erf, Erfc, Digamma, Lgamma as the devkit computes them
 * for Ascend910B (impl/adv_api/detail/math/<name>/), one element at a
 * time, instruction by instruction (adv_math_ops.h). */
#include <math.h>

#include "adv_math_ops.h"

/* ---- Erf ------------------------------------------------------------------- */

/* erf(x) = x P(x^2) / Q(x^2) on x clipped to [-3.92, 3.92]; half's final
 * Cast rounds half away from zero (CAST_ROUND on 2201). */
static float erf_float(AdvFn *c, float x) {
  static const double p[6] = {0.29639384698e5, 0.50637915060e4,
                              0.13938061484e4, 0.10162808918e3,
                              0.75517016694e1, 0.053443748819};
  static const double q[5] = {0.26267224157e5, 0.13243365831e5,
                              0.30231248150e4, 0.39856963806e3,
                              0.31212858877e2};
  float t1 = adv_mins(c, TF, x, 3.92), t2, t3, d;
  x = adv_maxs(c, TF, t1, -3.92);
  t1 = adv_mul(c, TF, x, x);
  t2 = adv_muls(c, TF, t1, p[5]);
  t3 = adv_adds(c, TF, t2, p[4]);
  for (int i = 3; i >= 0; i--) {
    t2 = adv_mul(c, TF, t1, t3);
    t3 = adv_adds(c, TF, t2, p[i]);
  }
  t2 = adv_mul(c, TF, x, t3);
  t3 = adv_adds(c, TF, t1, q[4]);
  for (int i = 3; i >= 0; i--) {
    d = adv_mul(c, TF, t1, t3);
    t3 = adv_adds(c, TF, d, q[i]);
  }
  return adv_div(c, TF, t2, t3);
}

float adv_erf(AdvFn *c, float x) {
  if (!c->half)
    return erf_float(c, x);
  return adv_to_half_mode(c, ASC_ROUND_ROUND,
                          erf_float(c, adv_to_float(c, x)));
}

/* ---- Erfc ------------------------------------------------------------------ */

/* erfc(x) = 1 - s + s e^(-z^2) R(z) / S(z), z = |x| + 2^-62, s = x / z
 * (the sign), x clipped to [-10, 10]. */
static float erfc_float(AdvFn *c, float x) {
  static const double r[9] = {0.1735313680e-7,  -0.9856738394e-6,
                              0.2517003236e-4,  -0.3848015171e-3,
                              0.5681528564e0,   0.5245623129e1,
                              0.2107740710e2,   0.4212761755e2,
                              0.4380524149e2};
  static const double s5[5] = {0.9349684299e1, 0.3756930664e2,
                               0.8058268949e2, 0.9155653738e2,
                               0.4380524152e2};
  float cl = adv_mins(c, TF, x, 10.0), z, s, t3, t4, t5, e, t2;
  cl = adv_maxs(c, TF, cl, -10.0);
  z = adv_abs(c, TF, cl);
  z = adv_adds(c, TF, z, 2.168404344971009e-19);
  s = adv_div(c, TF, cl, z);
  (void)adv_mins(c, TF, z, 10.0); /* issued, its result unused */
  t3 = adv_muls(c, TF, z, r[0]);
  t4 = adv_adds(c, TF, t3, r[1]);
  for (int i = 2; i < 9; i++) {
    t3 = adv_mul(c, TF, z, t4);
    t4 = adv_adds(c, TF, t3, r[i]);
  }
  t3 = adv_adds(c, TF, z, s5[0]);
  for (int i = 1; i < 5; i++) {
    t5 = adv_mul(c, TF, z, t3);
    t3 = adv_adds(c, TF, t5, s5[i]);
  }
  t3 = adv_div(c, TF, t4, t3);
  e = adv_mul(c, TF, z, z);
  e = adv_muls(c, TF, e, -1.0);
  e = adv_exp(c, TF, e);
  t3 = adv_mul(c, TF, e, t3);
  t2 = adv_muls(c, TF, s, -1.0);
  t2 = adv_adds(c, TF, t2, 1.0);
  t3 = adv_mul(c, TF, t3, s);
  return adv_add(c, TF, t3, t2);
}

float adv_erfc(AdvFn *c, float x) {
  if (!c->half)
    return erfc_float(c, x);
  return adv_to_half_mode(c, ASC_ROUND_ROUND,
                          erfc_float(c, adv_to_float(c, x)));
}

/* ---- Digamma --------------------------------------------------------------- */

static const double dg_pi = 3.141592653589793238;
static const double dg_min_neg = -8388608.0; /* below: no fraction in float */

/* Compare(src, Duplicate(k)) as DigammaGenCompareMask. */
static int dg_cmp(AdvFn *c, float x, int mode, double k) {
  return adv_cmp(c, TF, mode, x, adv_dup(c, TF, k));
}

/* dst + (mask ? v : 0): Duplicate(0) as the compare-mask scalar, Select,
 * Add (DigammaSelect). */
static float dg_sel(AdvFn *c, float dst, int m, float v) {
  float t;
  (void)adv_dup(c, TF, 0.0);
  t = adv_sels(c, TF, m, v, 0.0);
  return adv_add(c, TF, t, dst);
}

/* x a negative integer above -2^23 (DigammaGenNegIntMask). */
static int dg_negint(AdvFn *c, float x) {
  int m1 = dg_cmp(c, x, ADV_LT, 0.0), m2 = dg_cmp(c, x, ADV_GT, dg_min_neg);
  float r;
  m1 = adv_mand(c, m1, m2);
  r = adv_round_to_int(c, TF, ASC_ROUND_ROUND, x);
  m2 = adv_cmp(c, TF, ADV_EQ, x, r);
  return adv_mand(c, m1, m2);
}

/* NaN: neither x < 0 nor x >= 0 (DigammaGenNanMask). */
static int dg_nan(AdvFn *c, float x) {
  int m1 = dg_cmp(c, x, ADV_LT, 0.0), m2 = dg_cmp(c, x, ADV_GE, 0.0);
  m1 = adv_mnot(c, m1);
  m2 = adv_mnot(c, m2);
  return adv_mand(c, m1, m2);
}

/* Float: psi(x) = ln w - 1/(2w) - z P(z) - sum_{i<10} 1/(x+i), w = x + 10,
 * z = 1/w^2 (DigammaPositive). */
static float dg_positive(AdvFn *c, float x) {
  static const double k[6] = {2.10927960927960927961e-2,
                              7.57575757575757575758e-3,
                              4.16666666666666666667e-3,
                              3.96825396825396825397e-3,
                              8.33333333333333333333e-3,
                              8.33333333333333333333e-2};
  float w = adv_adds(c, TF, x, 10.0), d, one, iw, t2, s, t;
  d = adv_ln(c, TF, w);
  one = adv_dup(c, TF, 1.0);
  iw = adv_div(c, TF, one, w);
  t2 = adv_muls(c, TF, iw, 0.5);
  d = adv_sub(c, TF, d, t2);
  iw = adv_mul(c, TF, iw, iw);
  t2 = adv_dup(c, TF, 8.33333333333333333333e-2);
  for (int i = 0; i < 6; i++) {
    s = adv_dup(c, TF, k[i]);
    t2 = adv_mul(c, TF, iw, t2);
    t2 = adv_sub(c, TF, s, t2);
  }
  t2 = adv_mul(c, TF, iw, t2);
  d = adv_sub(c, TF, d, t2);
  one = adv_dup(c, TF, 1.0);
  t = adv_div(c, TF, one, x);
  for (int i = 1; i <= 9; i++) {
    float u = adv_adds(c, TF, x, (double)i);
    u = adv_div(c, TF, one, u);
    t = adv_add(c, TF, t, u);
  }
  return adv_sub(c, TF, d, t);
}

/* -pi cot(pi x) from tan of the reduced (2x - round(2x)) pi/2 by an odd
 * polynomial, its negative reciprocal where round(2x) is even
 * (DigammaNegPicotPix). */
static float dg_picot(AdvFn *c, float x) {
  static const double pk[5] = {0.00326538085938, 0.0242919921875,
                               0.053466796875, 0.133377909660,
                               0.333332300186};
  float f7 = adv_add(c, TF, x, x), f8, f36, r, f17, d, f30, f34, m1v;
  int m1, m2;
  f8 = adv_round_to_int(c, TF, ASC_ROUND_ROUND, f7);
  f36 = adv_sub(c, TF, f7, f8);
  f36 = adv_muls(c, TF, f36, 1.5707963267948966);
  r = adv_to_int(c, TF, ASC_DT_INT32, ASC_ROUND_ROUND, f8);
  (void)adv_dup(c, TF, 1.0); /* the int32 1 */
  r = adv_and_i32(c, r, 1);
  m1v = adv_from_int(c, TF, r);
  m1 = dg_cmp(c, m1v, ADV_LT, 0.5);
  m2 = dg_cmp(c, m1v, ADV_GE, 0.5);
  f17 = adv_mul(c, TF, f36, f36);
  d = adv_dup(c, TF, 0.0093383789065);
  for (int i = 0; i < 5; i++) {
    d = adv_mul(c, TF, d, f17);
    d = adv_adds(c, TF, d, pk[i]);
  }
  d = adv_mul(c, TF, d, f17);
  d = adv_mul(c, TF, d, f36);
  f30 = adv_add(c, TF, d, f36);
  d = adv_dup(c, TF, 0.0);
  d = dg_sel(c, d, m2, f30);
  f34 = adv_dup(c, TF, -1.0);
  f34 = adv_div(c, TF, f34, f30);
  d = dg_sel(c, d, m1, f34);
  return adv_muls(c, TF, d, dg_pi);
}

/* Float: NaN at x <= -2^23, negative integers and NaN; psi(x) for x >= 0;
 * psi(1 - x) - pi cot(pi x) for x < 0; summed over the masks. */
static float dg_f32(AdvFn *c, float x) {
  float d = adv_dup(c, TF, 0.0), nan = adv_dup(c, TF, NAN), r, t;
  int m = dg_cmp(c, x, ADV_LE, dg_min_neg);
  d = dg_sel(c, d, m, nan);
  m = dg_negint(c, x);
  d = dg_sel(c, d, m, nan);
  m = dg_nan(c, x);
  d = dg_sel(c, d, m, x);
  m = dg_cmp(c, x, ADV_GE, 0.0);
  r = dg_positive(c, x);
  d = dg_sel(c, d, m, r);
  m = dg_cmp(c, x, ADV_LT, 0.0);
  t = adv_muls(c, TF, x, -1.0);
  t = adv_adds(c, TF, t, 1.0);
  r = dg_positive(c, t);
  t = dg_picot(c, x);
  r = adv_add(c, TF, r, t);
  return dg_sel(c, d, m, r);
}

/* Half: psi(x) = ln w - 1/(2w) - 1/(12 w^2) - ... - 1/x - 1/(x+1) -
 * 1/(x+2), w = x + 3 (DigammaPositiveHalf). */
static float dg_positive_h(AdvFn *c, float x) {
  float w = adv_adds(c, TF, x, 3.0), d, one, iw, s, t2, t1;
  d = adv_ln(c, TF, w);
  one = adv_dup(c, TF, 1.0);
  iw = adv_div(c, TF, one, w);
  s = adv_muls(c, TF, iw, 0.5);
  d = adv_sub(c, TF, d, s);
  iw = adv_mul(c, TF, iw, iw);
  s = adv_muls(c, TF, iw, 0.0833333333333333);
  d = adv_sub(c, TF, d, s);
  t2 = adv_mul(c, TF, iw, iw);
  s = adv_muls(c, TF, t2, 0.0083333333333333);
  d = adv_sub(c, TF, d, s);
  t2 = adv_mul(c, TF, t2, iw);
  s = adv_muls(c, TF, t2, 0.003968253968254);
  d = adv_sub(c, TF, d, s);
  one = adv_dup(c, TF, 1.0);
  t1 = adv_div(c, TF, one, x);
  for (int i = 1; i <= 2; i++) {
    t2 = adv_adds(c, TF, x, (double)i);
    t2 = adv_div(c, TF, one, t2);
    t1 = adv_add(c, TF, t1, t2);
  }
  return adv_sub(c, TF, d, t1);
}

/* Half: as float with the shorter series, the reflection through
 * pi / tan(pi frac(x)) computed first, and near zero from below (-1e-4 <=
 * x < 0) pi cos(pi frac(x)) / sin(-pi x) instead. */
static float dg_f16(AdvFn *c, float h) {
  float x = adv_to_float(c, h), t4, ts, t3, d, nan, r, pos1mx = 0, one, u;
  int m;
  t4 = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, x);
  t4 = adv_sub(c, TF, x, t4);
  t4 = adv_muls(c, TF, t4, dg_pi);
  ts = adv_tan_f32(c, t4);
  t3 = adv_dup(c, TF, dg_pi);
  t3 = adv_div(c, TF, t3, ts);
  d = adv_dup(c, TF, 0.0);
  nan = adv_dup(c, TF, NAN);
  m = dg_cmp(c, x, ADV_LE, dg_min_neg);
  d = dg_sel(c, d, m, nan);
  m = dg_negint(c, x);
  d = dg_sel(c, d, m, nan);
  m = dg_nan(c, x);
  d = dg_sel(c, d, m, x);
  m = dg_cmp(c, x, ADV_GE, 0.0);
  r = dg_positive_h(c, x);
  d = dg_sel(c, d, m, r);
  m = dg_cmp(c, x, ADV_LT, -0.0001);
  one = adv_dup(c, TF, 1.0);
  u = adv_sub(c, TF, one, x);
  r = dg_positive_h(c, u);
  pos1mx = adv_adds(c, TF, r, 0.0);
  r = adv_sub(c, TF, r, t3);
  d = dg_sel(c, d, m, r);
  x = adv_to_float(c, h);
  {
    int m1 = dg_cmp(c, x, ADV_LT, 0.0), m2 = dg_cmp(c, x, ADV_GE, -0.0001);
    float fl, cs, sn;
    m = adv_mand(c, m1, m2);
    fl = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, x);
    fl = adv_sub(c, TF, x, fl);
    fl = adv_muls(c, TF, fl, dg_pi);
    cs = adv_cos_f32(c, fl);
    x = adv_muls(c, TF, x, -dg_pi);
    sn = adv_sin_f32(c, x);
    cs = adv_muls(c, TF, cs, dg_pi);
    cs = adv_div(c, TF, cs, sn);
    r = adv_sub(c, TF, pos1mx, cs);
  }
  d = dg_sel(c, d, m, r);
  return adv_to_half(c, d);
}

float adv_digamma(AdvFn *c, float x) {
  return c->half ? dg_f16(c, x) : dg_f32(c, x);
}
