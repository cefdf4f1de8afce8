/* family: adv math. The numerics of the math-library APIs this family
 * computes itself, as the devkit's Ascend910B implementations
 * (impl/adv_api/detail/math/<name>/, the v220 and common files) issue them:
 * each basic instruction is the simulator's own (vecmath.c: Cast with its
 * round mode, Add, Sub, Mul, Muls, Adds, Exp, Ln, Not, And, Or, Axpy), on
 * the element type the devkit computes in, so results round as on the
 * hardware. Being elementwise, they are computed over all n elements at
 * once; adv_math.c shows the instructions pass by pass (the plans here).
 *
 *   Floor/Ceil/Trunc/Round: float: Cast(float -> float, CAST_FLOOR / CEIL /
 *     TRUNC / RINT); half: Cast to float, that Cast, Cast back (CAST_NONE).
 *   Frac: x - Trunc(x) (Cast TRUNC, Sub), half through float.
 *   Sign: Duplicate 0, Compare LT / GT, Select 1 / -1 against 0, Add: -1,
 *     +1, or +0 (zeros of either sign and NaN).
 *   Xor: (x | y) & ~(x & y) (And, Or, Not, And).
 *   Axpy: half: dst = half(float(dst) + float(src) * float(a)) (Cast, Cast,
 *     Muls, Add, Cast); float dst, half src: dst += float(src) * float(a)
 *     (Cast, Muls, Add); float: the basic Axpy.
 *   Log: the basic Ln on T.
 *   Exp: taylor_expand_level 0: the basic Exp on T; else in float: x =
 *     floor(x) + d (Cast FLOOR to int32 and back, Sub), exp(x) = Exp(floor
 *     x) * (1 + d + d^2/2! + ... + d^level/level!), each term the previous
 *     times d times (1/i rounded to float); half rounds the product once at
 *     the end. With is_reuse_source on float the devkit keeps d in src.
 *   Power (tensor ** tensor, power_common_impl.h / power_float_impl.h):
 *     in float (half: Cast both sources first, Cast the result back):
 *     d = Exp(y * Ln|x|); times -1 where x's sign bit is set and y is an
 *     integer (|y - rint y| < 1e-8) of odd parity (rint|y| - 2 floor(rint|y|
 *     / 2)); 1 where y == 0, x == 1, or x == -1 and |y| == inf; NaN where x
 *     is negative (and not -inf) and y a finite non-integer.
 *     int32 (power_int_impl.h): x ** |y| by squaring while |y| >> k is not
 *     0 for some element, then one more multiplication by x per remaining
 *     unit, all int32 products wrapping; 0 ** 0 is 1; for y < 0 the trunc of
 *     1.0f / float(x ** |y|), 0 where x ** |y| is 0 (so 1, -1 or 0). The
 *     loops run as long as any element of the pass needs them: their
 *     instructions are shown once with elements times iterations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adv_math.h"
#include "sim.h"
#include "vecmath.h"

static AscScalar fsc(double v) {
  AscScalar s;
  s.f = v;
  s.i = (int64_t)v;
  return s;
}

/* Cast src (type from) to float, or copy a float array. */
static void to_float(float *f, AscDType from, const void *src, int64_t n) {
  if (from == ASC_DT_FLOAT32)
    memcpy(f, src, (size_t)n * sizeof(float));
  else
    asc_vec_cast(ASC_DT_FLOAT32, from, ASC_ROUND_NONE, f, src, n);
}

static void from_float(void *dst, AscDType to, const float *f, int64_t n) {
  if (to == ASC_DT_FLOAT32)
    memcpy(dst, f, (size_t)n * sizeof(float));
  else
    asc_vec_cast(to, ASC_DT_FLOAT32, ASC_ROUND_NONE, dst, f, n);
}

static AscRoundMode round_mode(int api) {
  switch (api) {
  case ASC_ADV_MATH_FLOOR:
    return ASC_ROUND_FLOOR;
  case ASC_ADV_MATH_CEIL:
    return ASC_ROUND_CEIL;
  case ASC_ADV_MATH_ROUND:
    return ASC_ROUND_RINT;
  default:
    return ASC_ROUND_TRUNC;
  }
}

static void rounding(const SimAdvCall *c, float *f) {
  AscRoundMode m = round_mode(c->api);
  to_float(f, c->dt, c->src, c->n);
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT32, m, f, f, c->n);
  if (c->api == ASC_ADV_MATH_FRAC) {
    float *x = f + c->n;
    to_float(x, c->dt, c->src, c->n);
    asc_vec_binary(ASC_VBIN_SUB, ASC_DT_FLOAT32, f, x, f, c->n);
  }
  from_float(c->dst, c->dt, f, c->n);
}

static void sign(const SimAdvCall *c, float *f) {
  to_float(f, c->dt, c->src, c->n);
  /* the two Selects give (x < 0 ? 0 : 1) and (x > 0 ? 0 : -1); their Add */
  for (int64_t i = 0; i < c->n; i++) {
    float a = f[i] < 0 ? 0.0f : 1.0f, b = f[i] > 0 ? 0.0f : -1.0f;
    f[i] = a + b;
  }
  from_float(c->dst, c->dt, f, c->n);
}

static void xor_(const SimAdvCall *c) {
  size_t bytes = (size_t)c->n * 2;
  uint16_t *a = malloc(bytes);
  if (!a)
    return;
  /* And(dst), Or(tmp), Not(dst), And(dst): dst may be neither source */
  asc_vec_binary(ASC_VBIN_AND, c->dt, c->dst, c->src, c->src1, c->n);
  asc_vec_binary(ASC_VBIN_OR, c->dt, a, c->src, c->src1, c->n);
  asc_vec_unary(ASC_VUN_NOT, c->dt, c->dst, c->dst, c->n);
  asc_vec_binary(ASC_VBIN_AND, c->dt, c->dst, a, c->dst, c->n);
  free(a);
}

static void axpy(const SimAdvCall *c, float *f) {
  if (c->dt == ASC_DT_FLOAT32) { /* the basic Axpy<float, float> */
    asc_vec_ternary(ASC_VTER_AXPY, ASC_DT_FLOAT32, ASC_DT_FLOAT32, c->dst,
                    c->src, NULL, fsc(c->scalar), c->n);
    return;
  }
  float *d = f + c->n;
  to_float(f, ASC_DT_FLOAT16, c->src, c->n);
  to_float(d, c->dst_dt, c->dst, c->n);
  asc_vec_scalar(ASC_VSCA_MULS, ASC_DT_FLOAT32, f, f, fsc((float)c->scalar),
                 c->n);
  asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT32, d, f, d, c->n);
  from_float(c->dst, c->dst_dt, d, c->n);
}

static void exp_taylor(const SimAdvCall *c, float *w) {
  int64_t n = c->n;
  float *fx = w, *ip = w + n, *pw = w + 2 * n, *res = w + 3 * n;
  int32_t *i32 = (int32_t *)(w + 4 * n);
  if (c->dt == ASC_DT_FLOAT16)
    to_float(fx, ASC_DT_FLOAT16, c->src, n);
  else /* the devkit's copy is an Adds of 0 */
    asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT32, fx, c->src, fsc(0), n);
  asc_vec_cast(ASC_DT_INT32, ASC_DT_FLOAT32, ASC_ROUND_FLOOR, i32, fx, n);
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_INT32, ASC_ROUND_NONE, ip, i32, n);
  asc_vec_binary(ASC_VBIN_SUB, ASC_DT_FLOAT32, fx, fx, ip, n);
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT32, ip, ip, n);
  asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT32, pw, fx, fsc(0), n);
  asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT32, res, fx, fsc(0), n);
  asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT32, res, res, fsc(1), n);
  for (int i = 2; i < c->level + 1; i++) {
    asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT32, pw, fx, pw, n);
    asc_vec_scalar(ASC_VSCA_MULS, ASC_DT_FLOAT32, pw, pw,
                   fsc((float)1.0f / (float)i), n);
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT32, res, res, pw, n);
  }
  asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT32, res, res, ip, n);
  from_float(c->dst, c->dt, res, n);
  if (c->dt == ASC_DT_FLOAT32 && c->reuse) /* FloorX was src */
    memcpy(c->src, fx, (size_t)n * sizeof(float));
}

/* Power in float on n elements of x, y (float), into d; w: 2n floats. */
static void power_f(float *d, const float *x, const float *y, int64_t n,
                    float *w) {
  float *t = w, *ay = w + n;
  for (int64_t i = 0; i < n; i++) {
    t[i] = fabsf(x[i]);
    ay[i] = fabsf(y[i]);
  }
  asc_vec_unary(ASC_VUN_LN, ASC_DT_FLOAT32, t, t, n);
  for (int64_t i = 0; i < n; i++)
    t[i] = y[i] * t[i];
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT32, d, t, n);
  for (int64_t i = 0; i < n; i++) {
    float r = rintf(ay[i]);
    float parity = r - floorf(r * 0.5f) * 2.0f;
    float sgn = rintf(parity * -2.0f + 1.0f);
    uint32_t bits;
    memcpy(&bits, &x[i], sizeof bits);
    float diff = fabsf(ay[i] - rintf(ay[i]));
    int int_y = diff < 1e-8f; /* false for NaN and inf */
    float f = (bits >> 31) && int_y ? sgn : 1.0f;
    d[i] = f * d[i];
    int keep =
        ay[i] != 0.0f && x[i] != 1.0f && (x[i] != -1.0f || ay[i] != INFINITY);
    if (!keep)
      d[i] = 1.0f;
    int defined =
        ay[i] == INFINITY || int_y || x[i] >= 0.0f || x[i] == -INFINITY;
    if (!defined)
      d[i] = NAN;
  }
}

static void power(const SimAdvCall *c, float *w) {
  int64_t n = c->n;
  float *x = w, *y = w + n, *d = w + 2 * n;
  to_float(x, c->dt, c->src, n);
  to_float(y, c->dt, c->src1, n);
  power_f(d, x, y, n, w + 3 * n);
  from_float(c->dst, c->dt, d, n);
}

/* x ** e with int32 products wrapping (e >= 0); the devkit's squarings
 * then single multiplications give the same product modulo 2^32. */
static int32_t ipow_wrap(int32_t x, uint32_t e) {
  uint32_t r = 1, b = (uint32_t)x;
  for (; e; e >>= 1) {
    if (e & 1)
      r *= b;
    b *= b;
  }
  return (int32_t)r;
}

static int power_i32(const SimAdvCall *c) {
  const int32_t *x = (const int32_t *)c->src, *y = (const int32_t *)c->src1;
  int32_t *d = (int32_t *)c->dst;
  for (int64_t i = 0; i < c->n; i++)
    if (y[i] == INT32_MIN)
      return -1;
  for (int64_t i = 0; i < c->n; i++) {
    int32_t e = y[i] < 0 ? -y[i] : y[i];
    int32_t r = e == 0 ? 1 : ipow_wrap(x[i], (uint32_t)e);
    if (y[i] < 0 && r != 0) /* Div in float, Cast CAST_TRUNC */
      r = (int32_t)truncf(1.0f / (float)r);
    d[i] = r;
  }
  return 1;
}

/* The iterations of int32 Power's loops over n elements: squarings (the
 * largest floor(log2 |y|)) and single multiplications (the largest |y| -
 * 2^floor(log2 |y|)). */
static void power_i32_loops(const SimAdvCall *c, int64_t *squarings,
                            int64_t *singles) {
  const int32_t *y = (const int32_t *)c->src1;
  *squarings = *singles = 0;
  for (int64_t i = 0; i < c->n; i++) {
    uint32_t e = y[i] < 0 ? (uint32_t)(-(int64_t)y[i]) : (uint32_t)y[i];
    int64_t k = 0;
    while (e >> (k + 1))
      k++;
    int64_t rest = e ? (int64_t)e - ((int64_t)1 << k) : 0;
    if (e && k > *squarings)
      *squarings = k;
    if (rest > *singles)
      *singles = rest;
  }
}

int sim_adv_simple_compute(const SimAdvCall *c) {
  if (c->n <= 0)
    return 1;
  if (c->api == ASC_ADV_MATH_XOR) {
    xor_(c);
    return 1;
  }
  if (c->api == ASC_ADV_MATH_POWER && c->dt == ASC_DT_INT32)
    return power_i32(c);
  if (c->api == ASC_ADV_MATH_LOG ||
      (c->api == ASC_ADV_MATH_EXP && c->level == 0)) {
    asc_vec_unary(c->api == ASC_ADV_MATH_LOG ? ASC_VUN_LN : ASC_VUN_EXP, c->dt,
                  c->dst, c->src, c->src ? c->n : 0);
    return 1;
  }
  float *w = malloc((size_t)c->n * 5 * sizeof(float));
  if (!w)
    return 0;
  switch (c->api) {
  case ASC_ADV_MATH_EXP:
    exp_taylor(c, w);
    break;
  case ASC_ADV_MATH_SIGN:
    sign(c, w);
    break;
  case ASC_ADV_MATH_AXPY:
    axpy(c, w);
    break;
  case ASC_ADV_MATH_POWER:
    power(c, w);
    break;
  default:
    rounding(c, w);
    break;
  }
  free(w);
  return 1;
}

/* ---- the plans: one pass's instructions ---------------------------------- */

enum { S = SIM_ADV_SRC, D = SIM_ADV_DST, T = SIM_ADV_TMP, S1 = SIM_ADV_SRC1 };

typedef struct Plan {
  SimAdvPlanStep *s;
  int n;
} Plan;

static void add_times(Plan *p, int op, const char *label, int on_float,
                      int reads, int writes, int barrier, int64_t times) {
  if (p->n >= SIM_ADV_PLAN_MAX || times <= 0)
    return;
  SimAdvPlanStep st = {op,
                       label,
                       (uint8_t)on_float,
                       (uint8_t)reads,
                       (uint8_t)writes,
                       (uint8_t)barrier,
                       times};
  p->s[p->n++] = st;
}

static void add(Plan *p, int op, const char *label, int on_float, int reads,
                int writes, int barrier) {
  add_times(p, op, label, on_float, reads, writes, barrier, 1);
}

static const char *const round_labels[][3] = {
    [ASC_ADV_MATH_FLOOR] = {"Floor (Cast to float)", "Floor (Cast CAST_FLOOR)",
                            "Floor (Cast to half)"},
    [ASC_ADV_MATH_CEIL] = {"Ceil (Cast to float)", "Ceil (Cast CAST_CEIL)",
                           "Ceil (Cast to half)"},
    [ASC_ADV_MATH_ROUND] = {"Round (Cast to float)", "Round (Cast CAST_RINT)",
                            "Round (Cast to half)"},
    [ASC_ADV_MATH_TRUNC] = {"Trunc (Cast to float)", "Trunc (Cast CAST_TRUNC)",
                            "Trunc (Cast to half)"},
    [ASC_ADV_MATH_FRAC] = {"Frac (Cast to float)", "Frac (Cast CAST_TRUNC)",
                           "Frac (Cast to half)"},
};

static void plan_rounding(const SimAdvCall *c, Plan *p) {
  const char *const *l = round_labels[c->api];
  int frac = c->api == ASC_ADV_MATH_FRAC;
  if (c->dt == ASC_DT_FLOAT32) {
    add(p, ASC_OP_CAST, l[1], 1, S, D, 1);
    if (frac)
      add(p, ASC_OP_SUB, "Frac (Sub)", 1, S | D, D, 1);
    return;
  }
  add(p, ASC_OP_CAST, l[0], 1, S, T, 1);
  add(p, ASC_OP_CAST, l[1], 1, T, T, 1);
  if (frac)
    add(p, ASC_OP_SUB, "Frac (Sub)", 1, T, T, 1);
  add(p, ASC_OP_CAST, l[2], 1, T, D, 1);
}

static void plan_exp(const SimAdvCall *c, Plan *p) {
  int half = c->dt == ASC_DT_FLOAT16;
  int fx = !half && c->reuse ? S : T; /* FloorX */
  int res = half ? T : D;
  if (c->level == 0) {
    add(p, ASC_OP_EXP, "Exp (Exp)", 0, S, D, 0);
    return;
  }
  if (half)
    add(p, ASC_OP_CAST, "Exp (Cast to float)", 1, S, T, 1);
  else
    add(p, ASC_OP_ADDS, "Exp (Adds: copy)", 1, S, fx, 1);
  add(p, ASC_OP_CAST, "Exp (Cast CAST_FLOOR)", 1, fx, T, 0);
  add(p, ASC_OP_CAST, "Exp (Cast to int32)", 1, fx, T, 1);
  add(p, ASC_OP_CAST, "Exp (Cast to float)", 1, T, T, 1);
  add(p, ASC_OP_SUB, "Exp (Sub)", 1, fx | T, fx, 1);
  add(p, ASC_OP_EXP, "Exp (Exp)", 1, T, T, 1);
  add(p, ASC_OP_ADDS, "Exp (Adds: copy)", 1, fx, T, 1);
  add(p, ASC_OP_ADDS, "Exp (Adds: copy)", 1, fx, res, 1);
  add(p, ASC_OP_ADDS, "Exp (Adds 1)", 1, res, res, 1);
  for (int i = 2; i < c->level + 1; i++) {
    add(p, ASC_OP_MUL, "Exp (Mul)", 1, fx | T, T, 1);
    add(p, ASC_OP_MULS, "Exp (Muls)", 1, T, T, 1);
    add(p, ASC_OP_ADD, "Exp (Add)", 1, res | T, res, 1);
  }
  add(p, ASC_OP_MUL, "Exp (Mul)", 1, res | T, res, 1);
  if (half)
    add(p, ASC_OP_CAST, "Exp (Cast to half)", 1, T, D, 1);
}

/* int32 Power: InitBulkPowerI, the squaring loop (BulkProcessPowerI: its
 * last round only sums), InitFinePowerI, the multiplication loop,
 * HandleNegativeExpPowerI. A loop's steps are shown once, times its
 * iterations (at least one: the do-while's first sum). */
static void plan_power_i32(const SimAdvCall *c, Plan *p) {
  int64_t sq, one;
  power_i32_loops(c, &sq, &one);
  add(p, ASC_OP_CAST, "Power (Cast to float)", 1, S1, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar LT)", 1, T, T, 1);
  add(p, ASC_OP_MULS, "Power (Muls -1)", 0, S1, T, 1);
  add(p, ASC_OP_SELECT, "Power (Select |y|)", 0, S1 | T, T, 1);
  add(p, ASC_OP_MULS, "Power (Muls 1)", 0, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar EQ)", 0, T, T, 0);
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate 0)", 0, 0, T, 1);
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate 1)", 0, 0, T, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 0, T, T, 0);
  add(p, ASC_OP_SELECT, "Power (Select)", 0, T | S, D, 0);
  add(p, ASC_OP_SHIFT_RIGHT, "Power (ShiftRight)", 0, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar EQ)", 0, T, T, 1);
  add_times(p, ASC_OP_CAST, "Power (squaring: Cast)", 1, T, T, 1, sq + 1);
  add_times(p, ASC_OP_REDUCE_SUM, "Power (squaring: ReduceSum)", 1, T, T, 1,
            sq + 1);
  add_times(p, ASC_OP_MUL, "Power (squaring: Mul)", 0, D, T, 0, sq);
  add_times(p, ASC_OP_MULS, "Power (squaring: Muls 2)", 0, T, T, 1, sq);
  add_times(p, ASC_OP_SELECT, "Power (squaring: Select)", 0, D | T, D, 0, sq);
  add_times(p, ASC_OP_SELECT, "Power (squaring: Select)", 0, T, T, 0, sq);
  add_times(p, ASC_OP_SHIFT_RIGHT, "Power (squaring: ShiftRight)", 0, T, T, 1,
            sq);
  add_times(p, ASC_OP_COMPARE_SCALAR, "Power (squaring: CompareScalar)", 0, T,
            T, 1, sq);
  add(p, ASC_OP_SUB, "Power (Sub)", 0, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar EQ)", 0, T, T, 1);
  add_times(p, ASC_OP_CAST, "Power (multiplying: Cast)", 1, T, T, 1, one + 1);
  add_times(p, ASC_OP_REDUCE_SUM, "Power (multiplying: ReduceSum)", 1, T, T, 1,
            one + 1);
  add_times(p, ASC_OP_MUL, "Power (multiplying: Mul)", 0, D | S, T, 0, one);
  add_times(p, ASC_OP_ADDS, "Power (multiplying: Adds -1)", 0, T, T, 1, one);
  add_times(p, ASC_OP_SELECT, "Power (multiplying: Select)", 0, D | T, D, 0,
            one);
  add_times(p, ASC_OP_SELECT, "Power (multiplying: Select)", 0, T, T, 1, one);
  add_times(p, ASC_OP_COMPARE_SCALAR, "Power (multiplying: CompareScalar)", 0,
            T, T, 1, one);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar EQ)", 0, D, T, 0);
  add(p, ASC_OP_CAST, "Power (Cast to float)", 1, D, T, 0);
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate 1.0)", 1, 0, T, 1);
  add(p, ASC_OP_DIV, "Power (Div)", 1, T, T, 1);
  add(p, ASC_OP_CAST, "Power (Cast CAST_TRUNC)", 1, T, T, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 0, T | D, D, 0);
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate 0)", 0, 0, T, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 0, T | D, D, 1);
}

static void plan_power(const SimAdvCall *c, Plan *p) {
  if (c->dt == ASC_DT_INT32) {
    plan_power_i32(c, p);
    return;
  }
  int half = c->dt == ASC_DT_FLOAT16;
  int x = half ? T : S, y = half ? T : S1, d = half ? T : D;
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate 1)", 1, 0, T, 0);
  add(p, ASC_OP_DUPLICATE, "Power (Duplicate NaN)", 1, 0, T, 0);
  if (half) {
    add(p, ASC_OP_CAST, "Power (Cast src0 to float)", 1, S, T, 0);
    add(p, ASC_OP_CAST, "Power (Cast src1 to float)", 1, S1, T, 1);
  }
  /* InitDst: Exp(y * Ln|x|) */
  add(p, ASC_OP_ABS, "Power (Abs)", 1, x, d, 1);
  add(p, ASC_OP_LN, "Power (Ln)", 1, d, d, 1);
  add(p, ASC_OP_MUL, "Power (Mul)", 1, y | d, d, 1);
  add(p, ASC_OP_EXP, "Power (Exp)", 1, d, d, 1);
  /* DetermineSign: the parity of rint|y| as +1 / -1 */
  add(p, ASC_OP_ABS, "Power (Abs)", 1, y, T, 1);
  add(p, ASC_OP_CAST, "Power (Cast CAST_RINT)", 1, T, T, 1);
  add(p, ASC_OP_MULS, "Power (Muls)", 1, T, T, 1);
  add(p, ASC_OP_CAST, "Power (Cast CAST_FLOOR)", 1, T, T, 1);
  add(p, ASC_OP_MULS, "Power (Muls)", 1, T, T, 1);
  add(p, ASC_OP_SUB, "Power (Sub)", 1, T, T, 1);
  add(p, ASC_OP_MULS, "Power (Muls)", 1, T, T, 1);
  add(p, ASC_OP_ADDS, "Power (Adds)", 1, T, T, 1);
  add(p, ASC_OP_CAST, "Power (Cast CAST_RINT)", 1, T, T, 1);
  /* GenMaskForSign: x's sign bit and y an integer */
  add(p, ASC_OP_SHIFT_RIGHT, "Power (ShiftRight)", 1, x, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, T, T, 1);
  add(p, ASC_OP_ABS, "Power (Abs)", 1, y, T, 1);
  add(p, ASC_OP_CAST, "Power (Cast CAST_RINT)", 1, T, T, 1);
  add(p, ASC_OP_SUB, "Power (Sub)", 1, T, T, 1);
  add(p, ASC_OP_ABS, "Power (Abs)", 1, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, T, T, 1);
  add(p, ASC_OP_BITWISE_AND, "Power (And)", 0, T, T, 1);
  add(p, ASC_OP_SET_CMP_MASK, "Power (SetCmpMask)", 1, T, 0, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 1, T, T, 1);
  add(p, ASC_OP_MUL, "Power (Mul)", 1, T | d, d, 1);
  /* GenMaskForOne: y == 0, x == 1, x == -1 with |y| == inf */
  add(p, ASC_OP_ABS, "Power (Abs)", 1, y, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, x, T, 1);
  add(p, ASC_OP_BITWISE_AND, "Power (And)", 0, T, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, x, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, T, T, 1);
  add(p, ASC_OP_BITWISE_OR, "Power (Or)", 0, T, T, 1);
  add(p, ASC_OP_BITWISE_AND, "Power (And)", 0, T, T, 1);
  add(p, ASC_OP_SET_CMP_MASK, "Power (SetCmpMask)", 1, T, 0, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 1, T | d, d, 1);
  /* GenMaskForNan: a negative x with a finite non-integer y */
  add(p, ASC_OP_ABS, "Power (Abs)", 1, y, T, 1);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, T, T, 1);
  add(p, ASC_OP_BITWISE_OR, "Power (Or)", 0, T, T, 0);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, x, T, 0);
  add(p, ASC_OP_COMPARE_SCALAR, "Power (CompareScalar)", 1, x, T, 1);
  add(p, ASC_OP_BITWISE_OR, "Power (Or)", 0, T, T, 1);
  add(p, ASC_OP_BITWISE_OR, "Power (Or)", 0, T, T, 1);
  add(p, ASC_OP_SET_CMP_MASK, "Power (SetCmpMask)", 1, T, 0, 1);
  add(p, ASC_OP_SELECT, "Power (Select)", 1, T | d, d, 1);
  if (half)
    add(p, ASC_OP_CAST, "Power (Cast to half)", 1, T, D, 1);
}

void sim_adv_simple_plan(const SimAdvCall *c, SimAdvPlanStep *steps, int *n) {
  Plan p = {steps, 0};
  switch (c->api) {
  case ASC_ADV_MATH_EXP:
    plan_exp(c, &p);
    break;
  case ASC_ADV_MATH_POWER:
    plan_power(c, &p);
    break;
  case ASC_ADV_MATH_LOG:
    add(&p, ASC_OP_LN, "Log (Ln)", 0, S, D, 0);
    break;
  case ASC_ADV_MATH_SIGN:
    add(&p, ASC_OP_DUPLICATE, "Sign (Duplicate 0)", 0, 0, D, 1);
    add(&p, ASC_OP_COMPARE, "Sign (Compare LT)", 0, S | D, T, 0);
    add(&p, ASC_OP_COMPARE, "Sign (Compare GT)", 0, S | D, T, 0);
    add(&p, ASC_OP_DUPLICATE, "Sign (Duplicate 1)", 0, 0, T, 1);
    add(&p, ASC_OP_SET_CMP_MASK, "Sign (SetCmpMask)", 0, T, 0, 0);
    add(&p, ASC_OP_SELECT, "Sign (Select)", 0, T | D, T, 1);
    add(&p, ASC_OP_DUPLICATE, "Sign (Duplicate -1)", 0, 0, T, 1);
    add(&p, ASC_OP_SET_CMP_MASK, "Sign (SetCmpMask)", 0, T, 0, 0);
    add(&p, ASC_OP_SELECT, "Sign (Select)", 0, T | D, D, 1);
    add(&p, ASC_OP_ADD, "Sign (Add)", 0, T | D, D, 1);
    break;
  case ASC_ADV_MATH_XOR:
    add(&p, ASC_OP_BITWISE_AND, "Xor (And)", 0, S | S1, D, 0);
    add(&p, ASC_OP_BITWISE_OR, "Xor (Or)", 0, S | S1, T, 1);
    add(&p, ASC_OP_BITWISE_NOT, "Xor (Not)", 0, D, D, 1);
    add(&p, ASC_OP_BITWISE_AND, "Xor (And)", 0, T | D, D, 1);
    break;
  case ASC_ADV_MATH_AXPY:
    if (c->dt == ASC_DT_FLOAT32) {
      add(&p, ASC_OP_AXPY, "Axpy (Axpy)", 0, S | D, D, 0);
    } else if (c->dst_dt == ASC_DT_FLOAT32) {
      add(&p, ASC_OP_CAST, "Axpy (Cast to float)", 1, S, T, 1);
      add(&p, ASC_OP_MULS, "Axpy (Muls)", 1, T, T, 1);
      add(&p, ASC_OP_ADD, "Axpy (Add)", 1, T | D, D, 1);
    } else {
      add(&p, ASC_OP_CAST, "Axpy (Cast to float)", 1, S, T, 1);
      add(&p, ASC_OP_CAST, "Axpy (Cast dst to float)", 1, D, T, 1);
      add(&p, ASC_OP_MULS, "Axpy (Muls)", 1, T, T, 1);
      add(&p, ASC_OP_ADD, "Axpy (Add)", 1, T, T, 1);
      add(&p, ASC_OP_CAST, "Axpy (Cast to half)", 1, T, D, 1);
    }
    break;
  default:
    plan_rounding(c, &p);
    break;
  }
  *n = p.n;
}

/* ---- temporary buffers ----------------------------------------------------
 * The minimum sizes of the devkit's host tiling (GetXxxMaxMinTmpSize,
 * impl/adv_api/tiling/math/, the Ascend910B's where it differs) and the
 * element split of its kernels (splitCount / stackSize / oneTmpSize, all
 * 32-aligned). */

enum { REPEAT = 256, BLK = 32 };

int64_t sim_adv_simple_min_tmp(int api, AscDType dt, int reuse, int level) {
  int half = dt == ASC_DT_FLOAT16;
  switch (api) {
  case ASC_ADV_MATH_EXP:
    return level == 0 ? 0 : (half ? 4 : reuse ? 2 : 3) * REPEAT;
  case ASC_ADV_MATH_SIGN:
    return 3 * REPEAT;
  case ASC_ADV_MATH_FLOOR:
  case ASC_ADV_MATH_ROUND:
    return half ? (api == ASC_ADV_MATH_FLOOR ? 2 : 1) * REPEAT : 0;
  case ASC_ADV_MATH_CEIL:
  case ASC_ADV_MATH_TRUNC:
    return (half ? 2 : 1) * REPEAT;
  case ASC_ADV_MATH_FRAC:
  case ASC_ADV_MATH_AXPY:
    return half ? 4 * REPEAT : 0;
  case ASC_ADV_MATH_XOR:
    return REPEAT;
  case ASC_ADV_MATH_POWER: /* V220's tensor-tensor factors 14 (half) / 4 /
                              6 (int32) */
    if (dt == ASC_DT_INT32)
      return 6 * REPEAT;
    return half ? 14 * REPEAT / 2 + REPEAT : 4 * REPEAT + REPEAT;
  default: /* Log */
    return 0;
  }
}

int64_t sim_adv_simple_pass(int api, AscDType dt, AscDType dst_dt, int reuse,
                            int level, int64_t tmp_bytes, int64_t n) {
  int64_t es = (int64_t)asc_dtype_size(dt), fl = tmp_bytes / 4;
  int half = dt == ASC_DT_FLOAT16;
  int64_t k;
  switch (api) {
  case ASC_ADV_MATH_EXP: {
    if (level == 0)
      return n;
    int64_t align = BLK / es;
    return fl / (half ? 4 : reuse ? 2 : 3) / align * align;
  }
  case ASC_ADV_MATH_SIGN:
    return tmp_bytes / es / 3 / BLK * BLK;
  case ASC_ADV_MATH_XOR:
    return tmp_bytes / es / BLK * BLK;
  case ASC_ADV_MATH_POWER: /* one repeat of scalars, then 7 / 4 buffers */
    if (dt == ASC_DT_INT32)
      return tmp_bytes / 4 / 6 / BLK * BLK;
    return tmp_bytes < REPEAT
               ? 0
               : (tmp_bytes - REPEAT) / 4 / (half ? 7 : 4) / BLK * BLK;
  case ASC_ADV_MATH_FLOOR:
  case ASC_ADV_MATH_ROUND:
    return half ? fl / BLK * BLK : n;
  case ASC_ADV_MATH_CEIL:
  case ASC_ADV_MATH_TRUNC:
    return half ? tmp_bytes / 2 / 2 / BLK * BLK : tmp_bytes / 4 / BLK * BLK;
  case ASC_ADV_MATH_FRAC:
    return half ? fl / 2 / BLK * BLK : n;
  case ASC_ADV_MATH_AXPY:
    if (dt == ASC_DT_FLOAT32)
      return n;
    k = dst_dt == ASC_DT_FLOAT16 ? 2 : 1;
    return fl / k / BLK * BLK;
  default: /* Log */
    return n;
  }
}
