/* family: adv math. Asinh, Acosh, Atanh, Sinh, Cosh, Tanh as the devkit
 * computes them for Ascend910B (impl/adv_api/detail/math/<name>/), one
 * element at a time, instruction by instruction (adv_math_ops.h). Half
 * sources are cast to float, computed in float and cast back. */
#include "adv_math_ops.h"

/* sign(x) = x 2^62 / (2^-62 + |x 2^62|), in float (AsinhGetSign). */
static float sign_f(AdvFn *c, float x) {
  float s = adv_muls(c, TF, x, 4611686018427387904.0);
  float den = adv_abs(c, TF, s);
  den = adv_adds(c, TF, den, 2.168404344971009e-19);
  return adv_div(c, TF, s, den);
}

/* asinh(x) = sign(x) ln(|x| + sqrt(x^2 + 1)). */
float adv_asinh(AdvFn *c, float x) {
  float xf = c->half ? adv_to_float(c, x) : x, a, t, s;
  a = adv_abs(c, TF, xf);
  t = adv_mul(c, TF, a, a);
  t = adv_adds(c, TF, t, 1.0);
  t = adv_sqrt(c, TF, t);
  t = adv_add(c, TF, t, a);
  t = adv_ln(c, TF, t);
  if (!c->half)
    return adv_mul(c, TF, t, sign_f(c, x));
  xf = adv_to_float(c, x);
  s = sign_f(c, xf);
  t = adv_mul(c, TF, t, s);
  return adv_to_half(c, t);
}

/* acosh(x) = ln(x + sqrt(x^2 - 1)); the devkit multiplies the argument by
 * itself divided by itself (1, or NaN for 0, inf, NaN) before the Ln. */
float adv_acosh(AdvFn *c, float x) {
  float xf = c->half ? adv_to_float(c, x) : x, t, one;
  t = adv_mul(c, TF, xf, xf);
  t = adv_adds(c, TF, t, -1.0);
  t = adv_sqrt(c, TF, t);
  t = c->half ? adv_add(c, TF, t, xf) : adv_add(c, TF, xf, t);
  one = adv_div(c, TF, t, t);
  t = adv_mul(c, TF, t, one);
  t = adv_ln(c, TF, t);
  return c->half ? adv_to_half(c, t) : t;
}

/* atanh(x) = 0.5 ln((1 + x) / (1 - x)). */
float adv_atanh(AdvFn *c, float x) {
  float xf = c->half ? adv_to_float(c, x) : x, p, m;
  p = adv_adds(c, TF, xf, 1.0);
  m = adv_muls(c, TF, xf, -1.0);
  m = adv_adds(c, TF, m, 1.0);
  m = adv_div(c, TF, p, m);
  m = adv_ln(c, TF, m);
  m = adv_muls(c, TF, m, 0.5);
  return c->half ? adv_to_half(c, m) : m;
}

static const double neg_ln2 = -0.69314718055994530941723212145818;

/* sinh(x) = e^(x - ln 2) - e^(-x - ln 2) (float: the negative term first). */
float adv_sinh(AdvFn *c, float x) {
  float n, p;
  if (!c->half) {
    n = adv_muls(c, TF, x, -1.0);
    n = adv_adds(c, TF, n, neg_ln2);
    n = adv_exp(c, TF, n);
    p = adv_adds(c, TF, x, neg_ln2);
    p = adv_exp(c, TF, p);
    return adv_sub(c, TF, p, n);
  }
  x = adv_to_float(c, x);
  p = adv_adds(c, TF, x, neg_ln2);
  p = adv_exp(c, TF, p);
  n = adv_muls(c, TF, x, -1.0);
  n = adv_adds(c, TF, n, neg_ln2);
  n = adv_exp(c, TF, n);
  p = adv_sub(c, TF, p, n);
  return adv_to_half(c, p);
}

/* cosh(x) = e^(x - ln 2) + 0.25 / e^(x - ln 2); half's final Cast rounds
 * half away from zero (CAST_ROUND). */
float adv_cosh(AdvFn *c, float x) {
  float y1, y2, q;
  if (c->half)
    x = adv_to_float(c, x);
  y2 = adv_adds(c, TF, x, neg_ln2);
  y1 = adv_exp(c, TF, y2);
  q = adv_dup(c, TF, 0.25);
  y2 = adv_div(c, TF, q, y1);
  y1 = adv_add(c, TF, y1, y2);
  return c->half ? adv_to_half_mode(c, ASC_ROUND_ROUND, y1) : y1;
}

/* tanh(x) = (e^2x - 1) / (e^2x + 1), x clipped to [-8.8, 8.8]. */
float adv_tanh(AdvFn *c, float x) {
  float t, d;
  if (c->half)
    x = adv_to_float(c, x);
  t = adv_mins(c, TF, x, 8.8);
  t = adv_maxs(c, TF, t, -8.8);
  t = adv_muls(c, TF, t, 2.0);
  t = adv_exp(c, TF, t);
  d = adv_adds(c, TF, t, -1.0);
  t = adv_adds(c, TF, t, 1.0);
  d = adv_div(c, TF, d, t);
  return c->half ? adv_to_half(c, d) : d;
}
