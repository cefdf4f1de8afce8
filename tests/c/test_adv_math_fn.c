/* Unit test of the adv math numerics (src/sim/adv_math_fn.c and the API
 * files behind it): each API on float16 and float32 over a dense sweep of
 * its domain against float64 libm (digamma: a float64 series here), plus
 * edge cases, the recorded instruction sequences and the minimum
 * temporary sizes.
 *
 * The bound of a point is atol + rtol |ref| + cond, where cond = 2 ulp(x)
 * |x f'(x)| / |x| is the change of f over the rounding of its input (the
 * error any algorithm that first rounds x, as the devkit's range
 * reductions do, may make: tan near its poles, sin of large x). The
 * per-API (atol, rtol) are in the table below and docs/adv_math_accuracy.md,
 * which this test prints with `test_adv_math_fn --table`. */
#include "sim/adv_math_fn.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "asc/ops.h"
#include "sim/vecmath.h"

static int passed, failed;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                              \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

/* ---- float64 references ----------------------------------------------- */

static const double PI = 3.14159265358979323846;

/* digamma: the recurrence up to x >= 10, then the asymptotic series;
 * reflection for x < 0. */
static double ref_digamma(double x) {
  double r = 0, f;
  if (x <= 0 && x == floor(x))
    return NAN;
  if (x < 0)
    return ref_digamma(1 - x) - PI / tan(PI * x);
  while (x < 10)
    r -= 1 / x, x += 1;
  f = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         f * (1.0 / 12 -
              f * (1.0 / 120 -
                   f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

static double ref_trigamma(double x) {
  double r = 0, f;
  if (x < 0)
    return -ref_trigamma(1 - x) + PI * PI / (sin(PI * x) * sin(PI * x));
  while (x < 10)
    r += 1 / (x * x), x += 1;
  f = 1 / (x * x);
  return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f / 42));
}

static double ref_lgamma(double x) { return lgamma(x); }

typedef struct Api {
  int id;
  const char *name;
  double (*ref)(double);
  double (*deriv)(double);
  double lo, hi;         /* the sweep */
  double atol, rtol;     /* float32 bound */
  double atol16, rtol16; /* float16 bound */
} Api;

static double d_asin(double x) { return 1 / sqrt(1 - x * x); }
static double d_acos(double x) { return -1 / sqrt(1 - x * x); }
static double d_atan(double x) { return 1 / (1 + x * x); }
static double d_sin(double x) { return cos(x); }
static double d_cos(double x) { return -sin(x); }
static double d_tan(double x) { return 1 + tan(x) * tan(x); }
static double d_asinh(double x) { return 1 / sqrt(x * x + 1); }
static double d_acosh(double x) { return 1 / sqrt(x * x - 1); }
static double d_atanh(double x) { return 1 / (1 - x * x); }
static double d_sinh(double x) { return cosh(x); }
static double d_cosh(double x) { return sinh(x); }
static double d_tanh(double x) { return 1 - tanh(x) * tanh(x); }
static double d_erf(double x) { return 2 / sqrt(PI) * exp(-x * x); }
static double d_erfc(double x) { return -2 / sqrt(PI) * exp(-x * x); }

/* The sweeps and bounds. Bounds are what the devkit's algorithms reach
 * (measured here; see docs/adv_math_accuracy.md), with some headroom, so
 * a change of algorithm or rounding shows. */
static const Api apis[] = {
    {ASC_ADV_MATH_ASIN, "asin", asin, d_asin, -1, 1, 1e-4, 2e-6, 1e-3, 1e-3},
    {ASC_ADV_MATH_ACOS, "acos", acos, d_acos, -1, 1, 1e-4, 2e-6, 2e-3, 1e-3},
    {ASC_ADV_MATH_ATAN, "atan", atan, d_atan, -1e4, 1e4, 8e-6, 2e-6, 1e-3,
     2e-3},
    {ASC_ADV_MATH_SIN, "sin", sin, d_sin, -1e3, 1e3, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_COS, "cos", cos, d_cos, -1e3, 1e3, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_TAN, "tan", tan, d_tan, -1e3, 1e3, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_ASINH, "asinh", asinh, d_asinh, -1e4, 1e4, 2e-6, 2e-6, 1e-3,
     2e-3},
    {ASC_ADV_MATH_ACOSH, "acosh", acosh, d_acosh, 1, 1e4, 2e-6, 2e-6, 1e-3,
     2e-3},
    {ASC_ADV_MATH_ATANH, "atanh", atanh, d_atanh, -0.999, 0.999, 2e-6, 2e-6,
     1e-3, 2e-3},
    {ASC_ADV_MATH_SINH, "sinh", sinh, d_sinh, -88, 88, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_COSH, "cosh", cosh, d_cosh, -88, 88, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_TANH, "tanh", tanh, d_tanh, -20, 20, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_ERF, "erf", erf, d_erf, -10, 10, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_ERFC, "erfc", erfc, d_erfc, -10, 10, 2e-6, 2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_DIGAMMA, "digamma", ref_digamma, ref_trigamma, -50, 100, 2e-6,
     2e-6, 1e-3, 2e-3},
    {ASC_ADV_MATH_LGAMMA, "lgamma", ref_lgamma, ref_digamma, -50, 1e4, 1e-4,
     1e-4, 1e-3, 2e-3},
};
#define N_APIS ((int)(sizeof apis / sizeof apis[0]))

/* ---- running an API ------------------------------------------------------ */

static float to_dt(AscDType dt, float v) {
  return dt == ASC_DT_FLOAT16 ? asc_f16_to_f32(asc_f32_to_f16(v)) : v;
}

/* Runs api on xs[0..n) into out (rounded to dt as the caller does). */
static int run(int api, AscDType dt, const float *xs, float *out, int64_t n) {
  float *scratch = malloc((size_t)n * SIM_ADV_MATH_SCRATCH * sizeof(float));
  int ok;
  memcpy(out, xs, (size_t)n * sizeof(float));
  ok =
      scratch && sim_adv_math_fn(api, dt, ASC_PRECISION_EXACT, out, n, scratch);
  for (int64_t i = 0; ok && i < n; i++)
    out[i] = to_dt(dt, out[i]);
  free(scratch);
  return ok;
}

static float run1(int api, AscDType dt, float x) {
  float r = NAN;
  x = to_dt(dt, x);
  run(api, dt, &x, &r, 1);
  return r;
}

/* The inputs of a sweep: every half in [lo, hi]; for float a dense
 * uniform grid plus a log-spaced one (small and large magnitudes). */
static int64_t sweep(AscDType dt, double lo, double hi, float *xs,
                     int64_t cap) {
  int64_t n = 0;
  if (dt == ASC_DT_FLOAT16) {
    for (uint32_t b = 0; b < 0x10000u && n < cap; b++) {
      float v = asc_f16_to_f32((uint16_t)b);
      if (v >= lo && v <= hi)
        xs[n++] = v;
    }
    return n;
  }
  for (int64_t i = 0; i <= 200000 && n < cap; i++) {
    float v = (float)(lo + (hi - lo) * (double)i / 200000.0);
    if (v >= lo && v <= hi)
      xs[n++] = v;
  }
  for (int s = -1; s <= 1; s += 2) {
    for (int64_t i = 0; i <= 20000 && n < cap; i++) {
      double m = pow(10.0, -30.0 + 60.0 * (double)i / 20000.0);
      float v = (float)(s * m);
      if (v >= lo && v <= hi)
        xs[n++] = v;
    }
  }
  return n;
}

/* ulp of x in dt */
static double ulp(AscDType dt, double x) {
  int e;
  double m = frexp(fabs(x), &e);
  int mant = dt == ASC_DT_FLOAT16 ? 11 : 24;
  int emin = dt == ASC_DT_FLOAT16 ? -13 : -125;
  (void)m;
  if (x == 0 || e < emin)
    e = emin;
  return ldexp(1.0, e - mant);
}

typedef struct Stat {
  double max_abs, max_rel, worst_x;
  int64_t n, bad, ill;
} Stat;

static Stat measure(const Api *a, AscDType dt) {
  enum { CAP = 300000 };
  float *xs = malloc(CAP * sizeof(float)), *rs = malloc(CAP * sizeof(float));
  Stat st = {0, 0, 0, 0, 0, 0};
  int64_t n;
  int half = dt == ASC_DT_FLOAT16;
  double atol = half ? a->atol16 : a->atol, rtol = half ? a->rtol16 : a->rtol;
  if (!xs || !rs) {
    free(xs), free(rs);
    st.bad = -1;
    return st;
  }
  n = sweep(dt, a->lo, a->hi, xs, CAP);
  if (!run(a->id, dt, xs, rs, n)) {
    st.bad = -1;
    free(xs), free(rs);
    return st;
  }
  for (int64_t i = 0; i < n; i++) {
    double x = xs[i], ref = a->ref(x), r = rs[i], err, cond, bound;
    if (!isfinite(ref))
      continue; /* poles: the edge cases check them */
    /* a result the type cannot hold: the reference's rounding overflows */
    if (fabs(ref) > (half ? 65504.0 : FLT_MAX))
      continue;
    err = fabs(r - ref);
    if (r != r)
      err = INFINITY;
    cond = 2 * ulp(dt, x) * fabs(a->deriv(x));
    bound = atol + rtol * fabs(ref) + cond;
    st.n++;
    /* the table: the absolute error where |f| <= 1; the relative error
     * where |f| >= 1e-3 (near zero several APIs are accurate only
     * absolutely: see the doc) and the rounding of x does not dominate
     * (the others counted as ill-conditioned) */
    if (fabs(ref) <= 1 && err > st.max_abs)
      st.max_abs = err;
    if (cond > atol + rtol * fabs(ref))
      st.ill++;
    else if (fabs(ref) >= 1e-3 && err / fabs(ref) > st.max_rel)
      st.max_rel = err / fabs(ref), st.worst_x = x;
    if (!(err <= bound)) {
      if (st.bad < 5)
        printf("  %s %s x=%.9g: got %.9g want %.9g (bound %.3g)\n", a->name,
               half ? "f16" : "f32", x, r, ref, bound);
      st.bad++;
    }
  }
  free(xs), free(rs);
  return st;
}

/* ---- tests -----------------------------------------------------------------
 */

static void test_sweeps(int table) {
  static const AscDType dts[2] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32};
  if (table)
    printf("| API | type | domain | points | ill-cond. | max abs err "
           "(abs f <= 1) | max rel err (abs f >= 1e-3) | steps |\n"
           "|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < N_APIS; i++) {
    for (int d = 0; d < 2; d++) {
      Stat st = measure(&apis[i], dts[d]);
      const char *tn = d == 0 ? "float16" : "float32";
      CHECK(st.bad == 0, "%s %s: %lld points out of bound", apis[i].name, tn,
            (long long)st.bad);
      if (table) {
        int ns = 0;
        (void)sim_adv_math_steps(apis[i].id, dts[d], &ns);
        printf("| %s | %s | [%g, %g] | %lld | %lld | %.3g | %.3g | %d |\n",
               apis[i].name, tn, apis[i].lo, apis[i].hi, (long long)st.n,
               (long long)st.ill, st.max_abs, st.max_rel, ns);
      }
    }
  }
}

static int same(float a, float b) {
  return (a != a && b != b) || (a == b && !signbit(a) == !signbit(b));
}

/* NaN gives NaN everywhere; the values the devkit's formulas give at the
 * edges of the domains. */
static void test_edges(void) {
  static const AscDType dts[2] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32};
  for (int d = 0; d < 2; d++) {
    AscDType dt = dts[d];
    const char *tn = d == 0 ? "f16" : "f32";
    double tol = d == 0 ? 2e-3 : 2e-6;
    for (int i = 0; i < N_APIS; i++) {
      float r = run1(apis[i].id, dt, NAN);
      CHECK(r != r, "%s %s(NaN) = %g", apis[i].name, tn, r);
    }
    /* odd functions keep the sign of zero */
    CHECK(same(run1(ASC_ADV_MATH_ASIN, dt, -0.0f), -0.0f), "asin %s(-0)", tn);
    CHECK(same(run1(ASC_ADV_MATH_ASIN, dt, 0.0f), 0.0f), "asin %s(0)", tn);
    CHECK(fabs(run1(ASC_ADV_MATH_ASIN, dt, 1.0f) - PI / 2) < tol * 2,
          "asin %s(1) = %g", tn, run1(ASC_ADV_MATH_ASIN, dt, 1.0f));
    CHECK(fabs(run1(ASC_ADV_MATH_ASIN, dt, -1.0f) + PI / 2) < tol * 2,
          "asin %s(-1)", tn);
    CHECK(fabs(run1(ASC_ADV_MATH_ACOS, dt, 1.0f)) < tol, "acos %s(1) = %g", tn,
          run1(ASC_ADV_MATH_ACOS, dt, 1.0f));
    CHECK(fabs(run1(ASC_ADV_MATH_ACOS, dt, -1.0f) - PI) < tol * 2,
          "acos %s(-1)", tn);
    CHECK(run1(ASC_ADV_MATH_ASIN, dt, 1.5f) !=
              run1(ASC_ADV_MATH_ASIN, dt, 1.5f),
          "asin %s(1.5) is NaN", tn);
    CHECK(run1(ASC_ADV_MATH_ACOSH, dt, 1.0f) == 0.0f, "acosh %s(1)", tn);
    CHECK(isnan(run1(ASC_ADV_MATH_ACOSH, dt, 0.5f)), "acosh %s(0.5)", tn);
    CHECK(isinf(run1(ASC_ADV_MATH_ATANH, dt, 1.0f)) &&
              run1(ASC_ADV_MATH_ATANH, dt, 1.0f) > 0,
          "atanh %s(1) = inf", tn);
    /* the devkit clips to +-1e4 first: atan(1e4) = pi/2 - 1e-4 */
    CHECK(fabs(run1(ASC_ADV_MATH_ATAN, dt, INFINITY) - atan(1e4)) < tol * 2,
          "atan %s(inf) = %g", tn, run1(ASC_ADV_MATH_ATAN, dt, INFINITY));
    CHECK(fabs(run1(ASC_ADV_MATH_ATAN, dt, -INFINITY) + atan(1e4)) < tol * 2,
          "atan %s(-inf)", tn);
    CHECK(run1(ASC_ADV_MATH_TANH, dt, INFINITY) == 1.0f, "tanh %s(inf)", tn);
    CHECK(run1(ASC_ADV_MATH_TANH, dt, -INFINITY) == -1.0f, "tanh %s(-inf)", tn);
    CHECK(run1(ASC_ADV_MATH_SINH, dt, INFINITY) == INFINITY, "sinh %s(inf)",
          tn);
    CHECK(run1(ASC_ADV_MATH_COSH, dt, -INFINITY) == INFINITY, "cosh %s(-inf)",
          tn);
    CHECK(same(run1(ASC_ADV_MATH_SIN, dt, 0.0f), 0.0f), "sin %s(0)", tn);
    CHECK(run1(ASC_ADV_MATH_COS, dt, 0.0f) == 1.0f, "cos %s(0) = %g", tn,
          run1(ASC_ADV_MATH_COS, dt, 0.0f));
    CHECK(isnan(run1(ASC_ADV_MATH_SIN, dt, INFINITY)), "sin %s(inf)", tn);
    CHECK(isnan(run1(ASC_ADV_MATH_COS, dt, -INFINITY)), "cos %s(-inf)", tn);
    CHECK(isnan(run1(ASC_ADV_MATH_TAN, dt, INFINITY)), "tan %s(inf)", tn);
    CHECK(run1(ASC_ADV_MATH_ERF, dt, INFINITY) == 1.0f, "erf %s(inf) = %g", tn,
          run1(ASC_ADV_MATH_ERF, dt, INFINITY));
    CHECK(run1(ASC_ADV_MATH_ERF, dt, -INFINITY) == -1.0f, "erf %s(-inf)", tn);
    /* the devkit clips to 10: erfc(10) = 2.1e-45 */
    CHECK(fabsf(run1(ASC_ADV_MATH_ERFC, dt, INFINITY)) < 1e-40f,
          "erfc %s(inf) = %g", tn, run1(ASC_ADV_MATH_ERFC, dt, INFINITY));
    CHECK(run1(ASC_ADV_MATH_ERFC, dt, -INFINITY) == 2.0f, "erfc %s(-inf) = %g",
          tn, run1(ASC_ADV_MATH_ERFC, dt, -INFINITY));
    /* lgamma(1) = lgamma(2) = 0; poles at 0, -1, -2 */
    CHECK(fabs(run1(ASC_ADV_MATH_LGAMMA, dt, 1.0f)) < tol, "lgamma %s(1)", tn);
    CHECK(fabs(run1(ASC_ADV_MATH_LGAMMA, dt, 2.0f)) < tol, "lgamma %s(2)", tn);
    for (int p = 0; p >= -3; p--) {
      float l = run1(ASC_ADV_MATH_LGAMMA, dt, (float)p);
      float g = run1(ASC_ADV_MATH_DIGAMMA, dt, (float)p);
      CHECK(isinf(l) && l > 0, "lgamma %s(%d) = %g", tn, p, l);
      CHECK(isnan(g) || isinf(g), "digamma %s(%d) = %g", tn, p, g);
    }
    CHECK(fabs(run1(ASC_ADV_MATH_DIGAMMA, dt, 1.0f) + 0.5772156649) < tol * 2,
          "digamma %s(1) = %g", tn, run1(ASC_ADV_MATH_DIGAMMA, dt, 1.0f));
  }
  /* large arguments of sin / cos / tan in float: the four-part pi keeps
   * the reduction accurate to about 1e-7 |x| */
  for (int i = 0; i < 3; i++) {
    float xs[3] = {1e4f, 1e5f, 123456.789f};
    float s = run1(ASC_ADV_MATH_SIN, ASC_DT_FLOAT32, xs[i]);
    float c = run1(ASC_ADV_MATH_COS, ASC_DT_FLOAT32, xs[i]);
    CHECK(fabs(s - sin(xs[i])) < 1e-7 * xs[i] + 1e-5, "sin(%g) = %g vs %g",
          xs[i], s, sin(xs[i]));
    CHECK(fabs(c - cos(xs[i])) < 1e-7 * xs[i] + 1e-5, "cos(%g) = %g vs %g",
          xs[i], c, cos(xs[i]));
    {
      double tr = tan(xs[i]);
      float t = run1(ASC_ADV_MATH_TAN, ASC_DT_FLOAT32, xs[i]);
      CHECK(fabs(t - tr) < (1e-7 * xs[i] + 1e-5) * (1 + tr * tr),
            "tan(%g) = %g vs %g", xs[i], t, tr);
    }
  }
  /* and in half, up to its largest value (computed in float) */
  for (int i = 0; i < 3; i++) {
    float xs[3] = {2048.0f, 30000.0f, 65504.0f};
    float s = run1(ASC_ADV_MATH_SIN, ASC_DT_FLOAT16, xs[i]);
    float c = run1(ASC_ADV_MATH_COS, ASC_DT_FLOAT16, -xs[i]);
    CHECK(fabs(s - sin(xs[i])) < 1e-7 * xs[i] + 1e-3, "sin f16(%g) = %g vs %g",
          xs[i], s, sin(xs[i]));
    CHECK(fabs(c - cos(xs[i])) < 1e-7 * xs[i] + 1e-3, "cos f16(-%g) = %g vs %g",
          xs[i], c, cos(xs[i]));
  }
}

static void test_steps(void) {
  static const AscDType dts[2] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32};
  for (int i = 0; i < N_APIS; i++) {
    for (int d = 0; d < 2; d++) {
      int n = -1, distinct = 0;
      const SimAdvStep *s = sim_adv_math_steps(apis[i].id, dts[d], &n);
      int n2 = -1;
      const SimAdvStep *s2 = sim_adv_math_steps(apis[i].id, dts[d], &n2);
      CHECK(s && n > 0, "%s: no steps", apis[i].name);
      if (!s || n <= 0)
        continue;
      CHECK(s2 == s && n2 == n, "%s: steps recorded once", apis[i].name);
      {
        int src = 0;
        for (int k = 0; k < n; k++)
          src |= s[k].reads & SIM_ADV_SRC;
        CHECK(src, "%s: a step reads the source", apis[i].name);
      }
      CHECK(s[n - 1].writes == SIM_ADV_DST,
            "%s: the last step writes the destination", apis[i].name);
      for (int k = 0; k < n; k++) {
        int seen = 0;
        CHECK(s[k].op >= 0 && s[k].op < ASC_OP_COUNT && s[k].label &&
                  strstr(s[k].label, "(") != NULL,
              "%s step %d", apis[i].name, k);
        for (int j = 0; j < k; j++)
          seen |= s[j].op == s[k].op && s[j].label == s[k].label;
        distinct += !seen;
      }
      {
        /* a float API computes all in float (no step marked); a half one
         * that computes in float has a Cast to get there; half Tanh is
         * computed in float (tanh_impl: Cast, then the float sequence) */
        int on_float = 0, cast = 0;
        for (int k = 0; k < n; k++) {
          cast |= s[k].op == ASC_OP_CAST;
          on_float |= s[k].on_float;
        }
        CHECK(dts[d] == ASC_DT_FLOAT16 || !on_float,
              "%s float: no step marked as computed in float", apis[i].name);
        CHECK(!on_float || cast, "%s half: float steps without a Cast",
              apis[i].name);
        CHECK(dts[d] == ASC_DT_FLOAT32 || apis[i].id != ASC_ADV_MATH_TANH ||
                  on_float,
              "tanh half: its steps are computed in float");
      }
      /* vec_seq keeps at most SIM_VSEQ_MAX_STEPS (64) distinct steps */
      CHECK(distinct <= 64, "%s: %d distinct steps", apis[i].name, distinct);
    }
  }
  {
    int n = 0;
    CHECK(sim_adv_math_steps(ASC_ADV_MATH_SIN, ASC_DT_BFLOAT16, &n) == NULL &&
              n == 0,
          "no bfloat16");
    CHECK(sim_adv_math_steps(ASC_ADV_MATH_EXP, ASC_DT_FLOAT32, &n) == NULL,
          "exp is not in this file");
  }
}

static void test_min_tmp(void) {
  /* GetXxxMaxMinTmpSize's minimum: live nodes x 256 bytes */
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_ASIN, ASC_DT_FLOAT32, 100) == 512,
        "asin f32");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_ASIN, ASC_DT_FLOAT16, 100) == 1536,
        "asin f16");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_ATAN, ASC_DT_FLOAT16, 8) == 3072,
        "atan f16");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_ERFC, ASC_DT_FLOAT32, 8) == 1792,
        "erfc f32");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_LGAMMA, ASC_DT_FLOAT16, 8) == 6656,
        "lgamma f16");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_TANH, ASC_DT_FLOAT32, 8) == 256,
        "tanh f32");
  CHECK(sim_adv_math_min_tmp(ASC_ADV_MATH_SIN, ASC_DT_INT32, 8) == 0, "int32");
  {
    float v = 1;
    CHECK(sim_adv_math_fn(ASC_ADV_MATH_SIN, ASC_DT_BFLOAT16,
                          ASC_PRECISION_EXACT, &v, 1, NULL) == 0,
          "bfloat16 not implemented");
  }
}

int main(int argc, char **argv) {
  int table = argc > 1 && strcmp(argv[1], "--table") == 0;
  test_sweeps(table);
  test_edges();
  test_steps();
  test_min_tmp();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
