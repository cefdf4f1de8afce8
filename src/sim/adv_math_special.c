/* family: adv math. Erf, Erfc, Digamma, Lgamma as the devkit computes them
 * for Ascend910B (impl/adv_api/detail/math/<name>/), one element at a
 * time, instruction by instruction (adv_math_ops.h). */
#include <math.h>

#include "adv_math_ops.h"

/* ---- Erf -------------------------------------------------------------------
 */

/* erf(x) = x P(x^2) / Q(x^2) on x clipped to [-3.92, 3.92]; half's final
 * Cast rounds half away from zero (CAST_ROUND on 2201). */
static float erf_float(AdvFn *c, float x) {
  static const double p[6] = {0.29639384698e5, 0.50637915060e4, 0.13938061484e4,
                              0.10162808918e3, 0.75517016694e1, 0.053443748819};
  static const double q[5] = {0.26267224157e5, 0.13243365831e5, 0.30231248150e4,
                              0.39856963806e3, 0.31212858877e2};
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
  return adv_to_half_mode(c, ASC_ROUND_ROUND, erf_float(c, adv_to_float(c, x)));
}

/* ---- Erfc ------------------------------------------------------------------
 */

/* erfc(x) = 1 - s + s e^(-z^2) R(z) / S(z), z = |x| + 2^-62, s = x / z
 * (the sign), x clipped to [-10, 10]. */
static float erfc_float(AdvFn *c, float x) {
  static const double r[9] = {
      0.1735313680e-7,  -0.9856738394e-6, 0.2517003236e-4,
      -0.3848015171e-3, 0.5681528564e0,   0.5245623129e1,
      0.2107740710e2,   0.4212761755e2,   0.4380524149e2};
  static const double s5[5] = {0.9349684299e1, 0.3756930664e2, 0.8058268949e2,
                               0.9155653738e2, 0.4380524152e2};
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

/* ---- Digamma ---------------------------------------------------------------
 */

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
  static const double k[6] = {
      2.10927960927960927961e-2, 7.57575757575757575758e-3,
      4.16666666666666666667e-3, 3.96825396825396825397e-3,
      8.33333333333333333333e-3, 8.33333333333333333333e-2};
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
                               0.053466796875, 0.133377909660, 0.333332300186};
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

/* ---- Lgamma ----------------------------------------------------------------
 */

/* dst + (mask ? v : 0): Select against the zero scalar, Add (LGammaSelect;
 * the zero was duplicated once before). */
static float lg_sel(AdvFn *c, float dst, int m, float v) {
  float t = adv_sels(c, TF, m, v, 0.0);
  return adv_add(c, TF, t, dst);
}

/* ((p0 x + p1) x + p2) ... + p[n-1]) x (LGammaCalcMulAdd). */
static float lg_muladd(AdvFn *c, float x, const double *p, int n) {
  float t = adv_muls(c, TF, x, p[0]);
  t = adv_adds(c, TF, t, p[1]);
  for (int i = 2; i < n; i++) {
    t = adv_mul(c, TF, t, x);
    t = adv_adds(c, TF, t, p[i]);
  }
  return adv_mul(c, TF, t, x);
}

static const double lg_p007[7] = {
    0.00358751555905, -0.00547128543258, -0.0446271263063, 0.167317703366,
    -0.0421359799802, -0.655867278576,   0.577215373516};
static const double lg_p0715[11] = {
    0.0458826646209, 0.103739671409, 0.122803635895, 0.127524212003,
    0.143216684461,  0.169343575835, 0.207407936454, 0.27058750391,
    0.400685429573,  0.82246696949,  0.577215671539};
static const double lg_p153[10] = {
    4.95984932058e-05, -0.000220894842641, 0.000541314249858, -0.00120451697148,
    0.00288425176404,  -0.00738275796175,  0.0205813199282,   -0.067352488637,
    0.322467029095,    0.422784328461};
static const double lg_p378a[4] = {-748.890319824, -12349.7421875, -41061.375,
                                   -48310.6640625};
static const double lg_p378b[3] = {-259.250976562, -10777.1796875,
                                   -92685.046875};
static const double lg_p58[2] = {0.000777830660809, -0.00277765537612};
static const double lg_odd[4] = {
    0.00002427957952022552490234375, -0.001388786011375486850738525390625,
    0.0416667275130748748779296875, -0.4999999701976776123046875};
static const double lg_even[3] = {-0.000195746586541645228862762451171875,
                                  0.0083327032625675201416015625,
                                  -0.16666662693023681640625};
static const double lg_min = 9.99999968266e-20;

static int lg_cmp(AdvFn *c, float x, int mode, double k) {
  return adv_cmp(c, TF, mode, x, adv_dup(c, TF, k));
}

static int lg_range(AdvFn *c, float x, double lo, double hi) {
  int m = lg_cmp(c, x, ADV_LT, hi), m1 = lg_cmp(c, x, ADV_GE, lo);
  return adv_mand(c, m1, m);
}

/* Float, a = |x|: five ranges, each a rational or polynomial fit (below
 * 0.7: -ln(a + a P(a)); 0.7..1.5 and 1.5..3: polynomials in 1 - a and
 * a - 2; 3..5.8: a ratio in a - 3; above: Stirling), summed over their
 * masks (LGammaPositive). */
static float lg_positive(AdvFn *c, float a) {
  float d = adv_dup(c, TF, 0.0), t1, t2, t3, t4;
  int m = lg_cmp(c, a, ADV_LT, 0.7);
  t1 = lg_muladd(c, a, lg_p007, 7);
  t1 = adv_mul(c, TF, t1, a);
  t1 = adv_add(c, TF, t1, a);
  t1 = adv_ln(c, TF, t1);
  t1 = adv_muls(c, TF, t1, -1.0);
  d = lg_sel(c, d, m, t1);
  m = lg_range(c, a, 0.7, 1.5);
  t1 = adv_muls(c, TF, a, -1.0);
  t1 = adv_adds(c, TF, t1, 1.0);
  t2 = lg_muladd(c, t1, lg_p0715, 11);
  d = lg_sel(c, d, m, t2);
  m = lg_range(c, a, 1.5, 3.0);
  t1 = adv_adds(c, TF, a, -2.0);
  t2 = lg_muladd(c, t1, lg_p153, 10);
  d = lg_sel(c, d, m, t2);
  m = lg_range(c, a, 3.0, 5.8);
  t1 = adv_adds(c, TF, a, -3.0);
  t2 = lg_muladd(c, t1, lg_p378a, 4);
  t2 = adv_adds(c, TF, t2, -143033.40625);
  t3 = lg_muladd(c, t1, lg_p378b, 3);
  t3 = adv_adds(c, TF, t3, -206353.578125);
  t3 = adv_div(c, TF, t2, t3);
  t3 = adv_add(c, TF, t3, t1);
  d = lg_sel(c, d, m, t3);
  m = lg_range(c, a, 5.8, INFINITY);
  t1 = adv_ln(c, TF, a);
  t1 = adv_muls(c, TF, t1, 0.5);
  t2 = adv_adds(c, TF, a, -0.5);
  t2 = adv_mul(c, TF, t2, t1);
  t3 = adv_recip(c, TF, a);
  t4 = adv_mul(c, TF, t3, t3);
  t1 = lg_muladd(c, t4, lg_p58, 2);
  t1 = adv_adds(c, TF, t1, 0.0833332762122);
  t1 = adv_mul(c, TF, t1, t3);
  t1 = adv_adds(c, TF, t1, 0.91893851757);
  t1 = adv_add(c, TF, t1, t2);
  t1 = adv_add(c, TF, t1, t2);
  t1 = adv_sub(c, TF, t1, a);
  d = lg_sel(c, d, m, t1);
  m = lg_cmp(c, a, ADV_GE, INFINITY);
  return lg_sel(c, d, m, a);
}

/* Float, x < 0 from a = |x| and pos = lgamma(a): ln(pi) - ln|a sin(pi
 * a)| - pos with sin from polynomials of the reduced argument; -ln(a)
 * below 1e-19; inf at the integers (LGammaNegative). */
static float lg_negative(AdvFn *c, float a, float pos) {
  const double fpi = 3.1415927410125732421875;
  float d = adv_dup(c, TF, 0.0), t1, t2, t3, s, e, o, inf;
  int m = lg_cmp(c, a, ADV_LT, lg_min), odd, even, m1;
  t1 = adv_ln(c, TF, a);
  t1 = adv_muls(c, TF, t1, -1.0);
  d = lg_sel(c, d, m, t1);
  t2 = adv_add(c, TF, a, a);
  t2 = adv_adds(c, TF, t2, 0.5);
  t2 = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, t2);
  t3 = adv_muls(c, TF, t2, 0.5);
  t3 = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, t3);
  t3 = adv_muls(c, TF, t3, 2.0);
  t3 = adv_sub(c, TF, t2, t3);
  odd = lg_cmp(c, t3, ADV_GE, 0.5);
  even = adv_mnot(c, odd);
  t2 = adv_muls(c, TF, t2, -0.5);
  t2 = adv_add(c, TF, t2, a);
  t2 = adv_muls(c, TF, t2, fpi);
  t3 = adv_mul(c, TF, t2, t2);
  e = lg_muladd(c, t3, lg_even, 3);
  e = adv_mul(c, TF, e, t2);
  e = adv_add(c, TF, e, t2);
  s = adv_dup(c, TF, 0.0);
  s = lg_sel(c, s, even, e);
  o = lg_muladd(c, t3, lg_odd, 4);
  o = adv_adds(c, TF, o, 1.0);
  s = lg_sel(c, s, odd, o);
  t1 = adv_abs(c, TF, s);
  t3 = adv_mul(c, TF, t1, a);
  t1 = adv_ln(c, TF, t3);
  t1 = adv_muls(c, TF, t1, -1.0);
  t1 = adv_adds(c, TF, t1, 1.1447298526763916015625);
  t2 = adv_muls(c, TF, pos, -1.0);
  t2 = adv_add(c, TF, t1, t2);
  t1 = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, a);
  m = adv_cmp(c, TF, ADV_NE, t1, a);
  inf = adv_dup(c, TF, INFINITY);
  m1 = adv_cmp(c, TF, ADV_LT, t3, inf);
  m = adv_mand(c, m1, m);
  m1 = lg_cmp(c, a, ADV_GE, lg_min);
  m = adv_mand(c, m1, m);
  d = lg_sel(c, d, m, t2);
  m1 = adv_mnot(c, m);
  m = lg_cmp(c, a, ADV_GE, lg_min);
  m1 = adv_mand(c, m1, m);
  inf = adv_dup(c, TF, INFINITY);
  return lg_sel(c, d, m1, inf);
}

static float lg_f32(AdvFn *c, float x) {
  int ge = lg_cmp(c, x, ADV_GE, 0.0), lt = lg_cmp(c, x, ADV_LT, 0.0), m, m1;
  float a = adv_abs(c, TF, x), pos, neg, d;
  (void)adv_dup(c, TF, 0.0); /* the Select scalar */
  pos = lg_positive(c, a);
  d = adv_dup(c, TF, 0.0);
  d = lg_sel(c, d, ge, pos);
  neg = lg_negative(c, a, pos);
  d = lg_sel(c, d, lt, neg);
  m = adv_mnot(c, ge);
  m1 = adv_mnot(c, lt);
  m = adv_mand(c, m1, m);
  return lg_sel(c, d, m, a);
}

/* Half, x > 0: Stirling at x + 4 minus ln x(x+1)(x+2)(x+3) as four Ln
 * (Lgamma1Compute, LgammaComputePosHalf). */
static float lg_pos_h(AdvFn *c, float x) {
  const double pi = 3.14159265358979323846264338327950288;
  float w = adv_adds(c, TF, x, 4.0), one, iw, t2, t3, t4, d, l, u;
  one = adv_dup(c, TF, 1.0);
  iw = adv_div(c, TF, one, w);
  t2 = adv_muls(c, TF, iw, pi);
  t2 = adv_muls(c, TF, t2, 2.0);
  t2 = adv_ln(c, TF, t2);
  t2 = adv_muls(c, TF, t2, 0.5);
  t3 = adv_muls(c, TF, iw, -0.1);
  t4 = adv_muls(c, TF, w, 12.0);
  t4 = adv_add(c, TF, t4, t3);
  one = adv_dup(c, TF, 1.0);
  t4 = adv_div(c, TF, one, t4);
  t4 = adv_add(c, TF, t4, w);
  t4 = adv_ln(c, TF, t4);
  t4 = adv_adds(c, TF, t4, -1.0);
  t4 = adv_mul(c, TF, t4, w);
  d = adv_add(c, TF, t4, t2);
  l = adv_ln(c, TF, x);
  for (int i = 1; i <= 3; i++) {
    u = adv_adds(c, TF, x, (double)i);
    u = adv_ln(c, TF, u);
    l = adv_add(c, TF, l, u);
  }
  return adv_sub(c, TF, d, l);
}

/* Half, x < 0: ln(pi / |sin(pi frac(x))|) - lgamma(1 - x), with the float
 * Sin (LgammaComputeNegHalf). */
static float lg_neg_h(AdvFn *c, float x) {
  const double pi = 3.14159265358979323846264338327950288;
  float t1 = adv_muls(c, TF, x, -1.0), d, s, p;
  t1 = adv_adds(c, TF, t1, 1.0);
  d = lg_pos_h(c, t1);
  d = adv_muls(c, TF, d, -1.0);
  t1 = adv_round_to_int(c, TF, ASC_ROUND_FLOOR, x);
  t1 = adv_sub(c, TF, x, t1);
  t1 = adv_muls(c, TF, t1, pi);
  s = adv_sin_f32(c, t1);
  s = adv_abs(c, TF, s);
  p = adv_dup(c, TF, pi);
  s = adv_div(c, TF, p, s);
  s = adv_ln(c, TF, s);
  return adv_add(c, TF, d, s);
}

static float lg_f16(AdvFn *c, float h) {
  float d = adv_dup(c, TF, 0.0), x = adv_to_float(c, h), r, a;
  int ge, lt, m2, m3;
  (void)adv_dup(c, TF, 0.0); /* the Select scalar */
  r = lg_pos_h(c, x);
  ge = lg_cmp(c, x, ADV_GE, 0.0);
  d = lg_sel(c, d, ge, r);
  r = lg_neg_h(c, x);
  lt = lg_cmp(c, x, ADV_LT, 0.0);
  d = lg_sel(c, d, lt, r);
  m2 = adv_mnot(c, ge);
  m3 = adv_mnot(c, lt);
  m2 = adv_mand(c, m2, m3);
  d = lg_sel(c, d, m2, x);
  a = adv_abs(c, TF, x);
  m2 = lg_cmp(c, a, ADV_GE, 65504.0);
  m3 = adv_mnot(c, m2);
  (void)adv_dup(c, TF, 655040.0);
  d = adv_sels(c, TF, m3, d, 655040.0);
  return adv_to_half(c, d);
}

float adv_lgamma(AdvFn *c, float x) {
  return c->half ? lg_f16(c, x) : lg_f32(c, x);
}
