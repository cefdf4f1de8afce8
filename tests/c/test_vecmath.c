/* Unit test of src/sim/vecmath.c.
 *
 * References are computed here independently: values in double, rounded
 * to the target format with libm (ldexp/nearbyint/floor/...), and 16-bit
 * floats decoded and encoded from their fields.  Nothing but the function
 * under test comes from vecmath.c. */
#include "bits.h"
#include "sim/vecmath.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

#define N 37      /* odd, not a multiple of any vector width */
#define NBIG 4096 /* sweeps */

/* Deterministic xorshift, so failures reproduce. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) { return xorshift64(&rng_state); }

/* ------------------------------------------------------------------
 * Formats and reference rounding
 * ---------------------------------------------------------------- */

typedef struct TFmt {
  int mb, emin, emax;
} TFmt;

static const TFmt FH = {10, -14, 15}, FB = {7, -126, 127}, FF = {23, -126, 127};

static TFmt fmt_of(AscDType dt) {
  return dt == ASC_DT_FLOAT16 ? FH : dt == ASC_DT_BFLOAT16 ? FB : FF;
}

static int is_flt(AscDType dt) {
  return dt == ASC_DT_FLOAT16 || dt == ASC_DT_BFLOAT16 || dt == ASC_DT_FLOAT32;
}

/* s rounded to an integer under mode. */
static double ref_rint(double s, AscRoundMode m) {
  double t;
  switch (m) {
  case ASC_ROUND_FLOOR:
    return floor(s);
  case ASC_ROUND_CEIL:
    return ceil(s);
  case ASC_ROUND_ROUND:
    return round(s);
  case ASC_ROUND_TRUNC:
    return trunc(s);
  case ASC_ROUND_ODD:
    t = trunc(s);
    if (t != s && fmod(t, 2.0) == 0.0)
      t += s > 0 ? 1.0 : -1.0;
    return t;
  default:
    return nearbyint(s);
  }
}

/* x rounded to format f under mode, IEEE overflow rules. */
static double ref_round(double x, TFmt f, AscRoundMode m) {
  double q, r, maxv;
  int e;
  if (isnan(x) || isinf(x) || x == 0)
    return x;
  e = ilogb(x);
  if (e < f.emin)
    e = f.emin;
  q = ref_rint(ldexp(x, f.mb - e), m);
  r = ldexp(q, e - f.mb);
  maxv = ldexp(2.0 - ldexp(1.0, -f.mb), f.emax);
  if (fabs(r) > maxv) {
    int neg = x < 0, inf;
    if (m == ASC_ROUND_FLOOR)
      inf = neg;
    else if (m == ASC_ROUND_CEIL)
      inf = !neg;
    else
      inf = !(m == ASC_ROUND_TRUNC || m == ASC_ROUND_ODD);
    r = inf ? INFINITY : maxv;
    if (neg)
      r = -r;
  }
  if (r == 0)
    r = copysign(0.0, x);
  return r;
}

static double rne(double x, AscDType dt) {
  return ref_round(x, fmt_of(dt), ASC_ROUND_RINT);
}

/* Decode / encode 16-bit floats from their fields. */
static double h_val(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 31  ? (m ? NAN : INFINITY)
             : e == 0 ? ldexp(m, -24)
                      : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

static double b_val(uint16_t b) { return u2f((uint32_t)b << 16); }

/* v must be representable (or inf/NaN). */
static uint16_t h_enc(double v) {
  uint16_t s = signbit(v) ? 0x8000 : 0;
  double a = fabs(v);
  int e;
  if (isnan(v))
    return 0x7E00;
  if (isinf(a))
    return (uint16_t)(s | 0x7C00);
  if (a == 0)
    return s;
  e = ilogb(a);
  if (e < -14)
    return (uint16_t)(s | (uint16_t)ldexp(a, 24));
  return (uint16_t)(s | ((e + 15) << 10) | ((int)ldexp(a, 10 - e) - 1024));
}

static uint16_t b_enc(double v) { return (uint16_t)(f2u((float)v) >> 16); }

/* Typed buffer access, independent of vecmath.c. */
static double tget(AscDType dt, const unsigned char *p, int i) {
  uint16_t u16;
  int16_t i16;
  int32_t i32;
  uint32_t u32;
  int64_t i64;
  int8_t i8;
  float f;
  switch (dt) {
  case ASC_DT_FLOAT16:
    memcpy(&u16, p + 2 * i, 2);
    return h_val(u16);
  case ASC_DT_BFLOAT16:
    memcpy(&u16, p + 2 * i, 2);
    return b_val(u16);
  case ASC_DT_FLOAT32:
    memcpy(&f, p + 4 * i, 4);
    return f;
  case ASC_DT_INT8:
    memcpy(&i8, p + i, 1);
    return i8;
  case ASC_DT_UINT8:
    return p[i];
  case ASC_DT_INT16:
    memcpy(&i16, p + 2 * i, 2);
    return i16;
  case ASC_DT_UINT16:
    memcpy(&u16, p + 2 * i, 2);
    return u16;
  case ASC_DT_INT32:
    memcpy(&i32, p + 4 * i, 4);
    return i32;
  case ASC_DT_UINT32:
    memcpy(&u32, p + 4 * i, 4);
    return u32;
  case ASC_DT_INT64:
    memcpy(&i64, p + 8 * i, 8);
    return (double)i64;
  default:
    return 0;
  }
}

static int64_t tget_i64(const unsigned char *p, int i) {
  int64_t v;
  memcpy(&v, p + 8 * i, 8);
  return v;
}

/* Store an exactly representable value (float types) or an in-range
 * integer. */
static void tput(AscDType dt, unsigned char *p, int i, double v) {
  uint16_t u16;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  int8_t i8;
  float f;
  switch (dt) {
  case ASC_DT_FLOAT16:
    u16 = h_enc(v);
    memcpy(p + 2 * i, &u16, 2);
    break;
  case ASC_DT_BFLOAT16:
    u16 = b_enc(v);
    memcpy(p + 2 * i, &u16, 2);
    break;
  case ASC_DT_FLOAT32:
    f = (float)v;
    memcpy(p + 4 * i, &f, 4);
    break;
  case ASC_DT_INT8:
    i8 = (int8_t)v;
    memcpy(p + i, &i8, 1);
    break;
  case ASC_DT_UINT8:
    p[i] = (unsigned char)v;
    break;
  case ASC_DT_INT16:
    i16 = (int16_t)v;
    memcpy(p + 2 * i, &i16, 2);
    break;
  case ASC_DT_INT32:
    i32 = (int32_t)v;
    memcpy(p + 4 * i, &i32, 4);
    break;
  case ASC_DT_INT64:
    i64 = (int64_t)v;
    memcpy(p + 8 * i, &i64, 8);
    break;
  default:
    break;
  }
}

/* Same value: both NaN, or equal with the same sign of zero. */
static int same(double got, double want) {
  if (isnan(want))
    return isnan(got);
  return got == want && signbit(got) == signbit(want);
}

/* Distance in units in the last place between two floats of dt. */
static double ulps(AscDType dt, double got, double want) {
  TFmt f = fmt_of(dt);
  int e;
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got) ? 0 : 1e9;
  if (isinf(want) || isinf(got))
    return got == want ? 0 : 1e9;
  e = want == 0 ? f.emin : ilogb(want);
  if (e < f.emin)
    e = f.emin;
  return fabs(got - want) / ldexp(1.0, e - f.mb);
}

/* A random double with |x| in [2^elo, 2^ehi). */
static double rnd_val(int elo, int ehi) {
  double m = 1.0 + (double)(rnd() >> 11) * 0x1p-53;
  int e = elo + (int)(rnd() % (uint64_t)(ehi - elo));
  return (rnd() & 1 ? -1 : 1) * ldexp(m, e);
}

/* ------------------------------------------------------------------
 * 16-bit float conversions
 * ---------------------------------------------------------------- */

static void test_f16_roundtrip(void) {
  int bad = 0, badval = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    float f = asc_f16_to_f32((uint16_t)h);
    uint16_t back = asc_f32_to_f16(f);
    double want = h_val((uint16_t)h);
    if (!same(f, want) && badval++ < 5)
      printf("  f16 0x%04x -> %.9g, want %.9g\n", h, f, want);
    if (back != h && bad++ < 5)
      printf("  f16 0x%04x -> f32 -> 0x%04x\n", h, back);
  }
  CHECK(badval == 0, "f16 -> f32 values: %d wrong", badval);
  CHECK(bad == 0, "f16 round trip: %d patterns changed", bad);
}

/* Around every midpoint of two adjacent halves: just below, at, just
 * above.  Covers subnormals, ties to even and the 65520 overflow edge. */
static void test_f16_midpoints(void) {
  int bad = 0;
  for (uint32_t h = 0; h < 0x7C00; h++) {
    for (int s = 0; s < 2; s++) {
      uint16_t sg = s ? 0x8000 : 0;
      double lo = h_val((uint16_t)h);
      double hi = h == 0x7BFF ? 65536.0 : h_val((uint16_t)(h + 1));
      float mid = (float)((lo + hi) / 2); /* exact */
      float below = nextafterf(mid, 0), above = nextafterf(mid, INFINITY);
      uint16_t even = (uint16_t)((h & 1) ? h + 1 : h);
      float sgn = s ? -1.0f : 1.0f;
      if (asc_f32_to_f16(sgn * (float)lo) != (sg | h) ||
          asc_f32_to_f16(sgn * below) != (sg | h) ||
          asc_f32_to_f16(sgn * mid) != (sg | even) ||
          asc_f32_to_f16(sgn * above) != (sg | (h + 1))) {
        if (bad++ < 5)
          printf("  f16 midpoint after 0x%04x (sign %d) wrong\n", h, s);
      }
    }
  }
  CHECK(bad == 0, "f32 -> f16 midpoint sweep: %d wrong", bad);
}

static void test_f16_edges(void) {
  struct {
    float in;
    uint16_t out;
  } t[] = {
      {1.0f, 0x3C00},
      {1.0f + 0x1p-11f, 0x3C00},            /* tie, to even (down) */
      {1.0f + 3 * 0x1p-11f, 0x3C02},        /* tie, to even (up) */
      {1.0f + 0x1p-11f + 0x1p-20f, 0x3C01}, /* just above the tie */
      {65504.0f, 0x7BFF},
      {65519.99f, 0x7BFF},
      {65520.0f, 0x7C00}, /* rounds to inf, as numpy */
      {1e10f, 0x7C00},
      {-1e10f, 0xFC00},
      {0x1p-14f, 0x0400}, /* smallest normal */
      {0x1p-24f, 0x0001}, /* smallest subnormal */
      {0x1p-25f, 0x0000}, /* tie between 0 and 2^-24: even is 0 */
      {0x1.000002p-25f, 0x0001},
      {0x1.8p-24f, 0x0002}, /* tie 1.5 ulp -> 2 */
      {0x1p-26f, 0x0000},
      {-0x1p-26f, 0x8000},
      {1e-30f, 0x0000},
      {-0.0f, 0x8000},
      {0.0f, 0x0000},
      {0x1.ffcp-15f, 0x0400}, /* largest subnormal + half ulp: tie to even */
      {0x1.ff8p-15f, 0x03FF}, /* largest subnormal */
      {INFINITY, 0x7C00},
      {-INFINITY, 0xFC00},
      {FLT_MAX, 0x7C00},
  };
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
    uint16_t got = asc_f32_to_f16(t[k].in);
    CHECK(got == t[k].out, "f32 %a -> f16 0x%04x, want 0x%04x", (double)t[k].in,
          got, t[k].out);
  }
  {
    uint16_t q = asc_f32_to_f16(NAN), s = asc_f32_to_f16(u2f(0x7F800001u));
    uint16_t ng = asc_f32_to_f16(-NAN);
    CHECK((q & 0x7C00) == 0x7C00 && (q & 0x3FF), "f16(NaN) = 0x%04x", q);
    CHECK((s & 0x7C00) == 0x7C00 && (s & 0x3FF), "f16(sNaN low) = 0x%04x", s);
    CHECK((ng & 0x7C00) == 0x7C00 && (ng & 0x3FF), "f16(-NaN) = 0x%04x", ng);
  }
}

static void test_bf16(void) {
  int bad = 0;
  for (uint32_t b = 0; b < 65536; b++) {
    float f = asc_bf16_to_f32((uint16_t)b);
    uint16_t back = asc_f32_to_bf16(f);
    int nan = ((b >> 7) & 0xFF) == 0xFF && (b & 0x7F);
    int ok = nan ? isnan(f) && back == 0x7FC0 : f2u(f) == b << 16 && back == b;
    if (!ok && bad++ < 5)
      printf("  bf16 0x%04x -> %a -> 0x%04x\n", b, (double)f, back);
  }
  CHECK(bad == 0, "bf16 round trip: %d wrong", bad);

  bad = 0;
  for (uint32_t b = 0; b < 0x7F80; b++) {
    for (int s = 0; s < 2; s++) {
      uint16_t sg = s ? 0x8000 : 0;
      double lo = b_val((uint16_t)b);
      double hi = b == 0x7F7F ? 0x1p128 : b_val((uint16_t)(b + 1));
      float mid = (float)((lo + hi) / 2);
      float below = nextafterf(mid, 0), above = nextafterf(mid, INFINITY);
      uint16_t even = (uint16_t)((b & 1) ? b + 1 : b);
      float sgn = s ? -1.0f : 1.0f;
      if (asc_f32_to_bf16(sgn * below) != (sg | b) ||
          asc_f32_to_bf16(sgn * mid) != (sg | even) ||
          asc_f32_to_bf16(sgn * above) != (sg | (b + 1))) {
        if (bad++ < 5)
          printf("  bf16 midpoint after 0x%04x (sign %d) wrong\n", b, s);
      }
    }
  }
  CHECK(bad == 0, "f32 -> bf16 midpoint sweep: %d wrong", bad);

  CHECK(asc_f32_to_bf16(1.0f) == 0x3F80, "bf16(1)");
  CHECK(asc_f32_to_bf16(1.0f + 0x1p-8f) == 0x3F80, "bf16 tie down");
  CHECK(asc_f32_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3F82, "bf16 tie up");
  CHECK(asc_f32_to_bf16(FLT_MAX) == 0x7F80, "bf16(FLT_MAX) -> inf");
  CHECK(asc_f32_to_bf16(-FLT_MAX) == 0xFF80, "bf16(-FLT_MAX) -> -inf");
  CHECK(asc_f32_to_bf16(-0.0f) == 0x8000, "bf16(-0)");
  CHECK(asc_f32_to_bf16(0x1p-149f) == 0x0000, "bf16(min subnormal) -> 0");
  CHECK(asc_f32_to_bf16(0x1p-133f) == 0x0001, "bf16 min subnormal");
  CHECK(asc_f32_to_bf16(NAN) == 0x7FC0, "bf16(NaN)");
  CHECK(asc_f32_to_bf16(-NAN) == 0x7FC0, "bf16(-NaN)");
  CHECK(asc_f32_to_bf16(u2f(0x7F800001u)) == 0x7FC0, "bf16(sNaN)");
  CHECK(asc_f32_to_bf16(INFINITY) == 0x7F80, "bf16(inf)");
}

/* ------------------------------------------------------------------
 * Element-wise ops against double references
 * ---------------------------------------------------------------- */

static const AscDType all_types[] = {
    ASC_DT_BOOL,   ASC_DT_INT8,    ASC_DT_INT16,    ASC_DT_INT32,
    ASC_DT_INT64,  ASC_DT_UINT8,   ASC_DT_UINT16,   ASC_DT_UINT32,
    ASC_DT_UINT64, ASC_DT_FLOAT16, ASC_DT_BFLOAT16, ASC_DT_FLOAT32,
    ASC_DT_FLOAT64};
#define NTYPES (int)(sizeof all_types / sizeof all_types[0])

static const char *bin_name[] = {"add", "sub",      "mul",      "div", "max",
                                 "min", "add_relu", "sub_relu", "and", "or"};
static const char *sca_name[] = {
    "adds", "muls", "maxs", "mins", "leaky_relu", "shift_left", "shift_right"};
static const char *un_name[] = {
    "relu",  "exp",        "ln",  "abs",        "sqrt",
    "rsqrt", "reciprocal", "not", "rsqrt (hw)", "reciprocal (hw)"};

static double relu_d(double r) { return isnan(r) ? r : r > 0 ? r : 0.0; }

/* the hardware's Max / Maxs and Min / Mins: IEEE 754-2019's maximum and
 * minimum, -0 below +0 (the devkit's boundary value tables 13, 14, 17, 18:
 * Max(0.0, -0.0) = 0.0, Min(0.0, -0.0) = -0.0) */
static double fmaxnp(double a, double b) {
  if (a == b && a == 0)
    return signbit(a) ? b : a;
  return isnan(a) ? a : isnan(b) ? b : a >= b ? a : b;
}

static double fminnp(double a, double b) {
  if (a == b && a == 0)
    return signbit(a) ? a : b;
  return isnan(a) ? a : isnan(b) ? b : a <= b ? a : b;
}

static double ref_bin(AscVecBinOp op, double a, double b) {
  switch (op) {
  case ASC_VBIN_ADD:
    return a + b;
  case ASC_VBIN_SUB:
    return a - b;
  case ASC_VBIN_MUL:
    return a * b;
  case ASC_VBIN_DIV:
    return a / b;
  case ASC_VBIN_MAX:
    return fmaxnp(a, b);
  case ASC_VBIN_ADD_RELU:
    return relu_d(a + b);
  case ASC_VBIN_SUB_RELU:
    return relu_d(a - b);
  case ASC_VBIN_AND: /* no float form: the loops keep a */
  case ASC_VBIN_OR:
    return a;
  default:
    return fminnp(a, b);
  }
}

/* Integer op wrapped to `bits` bits, as a signed value. */
static int64_t ref_ibin(AscVecBinOp op, int64_t a, int64_t b, int bits) {
  int64_t r;
  uint64_t m = bits == 16 ? 0xFFFF : 0xFFFFFFFF, u;
  switch (op) {
  case ASC_VBIN_ADD:
    r = a + b;
    break;
  case ASC_VBIN_SUB:
    r = a - b;
    break;
  case ASC_VBIN_MUL:
    r = a * b; /* |a|, |b| < 2^31: fits */
    break;
  case ASC_VBIN_MAX:
    r = a > b ? a : b;
    break;
  case ASC_VBIN_ADD_RELU:
    r = a + b;
    break;
  case ASC_VBIN_SUB_RELU:
    r = a - b;
    break;
  case ASC_VBIN_AND:
    r = (int64_t)((uint64_t)a & (uint64_t)b);
    break;
  case ASC_VBIN_OR:
    r = (int64_t)((uint64_t)a | (uint64_t)b);
    break;
  default:
    r = a < b ? a : b;
    break;
  }
  u = (uint64_t)r & m;
  r = u > (m >> 1) ? (int64_t)u - (int64_t)m - 1 : (int64_t)u;
  if ((op == ASC_VBIN_ADD_RELU || op == ASC_VBIN_SUB_RELU) && r < 0)
    r = 0; /* relu of the wrapped result */
  return r;
}

/* Inputs: a few specials, then random values. */
static void fill_float(AscDType dt, unsigned char *p, int n, int elo, int ehi,
                       int positive) {
  const double sp[] = {0.0,       -0.0, 1.0, -1.0, INFINITY,
                       -INFINITY, NAN,  0.5, 3.0};
  TFmt f = fmt_of(dt);
  double maxv = ldexp(2.0 - ldexp(1.0, -f.mb), f.emax);
  double tiny = ldexp(1.0, f.emin - f.mb);
  for (int i = 0; i < n; i++) {
    double v;
    if (i < 9)
      v = sp[i];
    else if (i == 9)
      v = maxv;
    else if (i == 10)
      v = -tiny;
    else if (i == 11)
      v = tiny * 3;
    else
      v = rnd_val(elo, ehi);
    if (positive && !isnan(v))
      v = fabs(v);
    tput(dt, p, i, rne(v, dt));
  }
}

static void fill_int(AscDType dt, unsigned char *p, int n) {
  int bits = dt == ASC_DT_INT16 ? 16 : 32;
  double lim = ldexp(1.0, bits - 1);
  const double sp[] = {0, 1, -1, lim - 1, -lim, 2, -2, 12345, -12345};
  for (int i = 0; i < n; i++) {
    double v =
        i < 9 ? sp[i]
              : (double)((int64_t)(rnd() % (uint64_t)(2 * lim)) - (int64_t)lim);
    tput(dt, p, i, v);
  }
}

/* Exponent range for random inputs: wide enough to hit subnormals and
 * overflow, but bfloat16 stays clear of float subnormal results (where a
 * float computation double-rounds, as PyTorch's does too). */
static void exp_range(AscDType dt, int *lo, int *hi) {
  if (dt == ASC_DT_FLOAT16) {
    *lo = -20;
    *hi = 16;
  } else if (dt == ASC_DT_BFLOAT16) {
    *lo = -40;
    *hi = 40;
  } else {
    *lo = -140;
    *hi = 128;
  }
}

static void test_binary(void) {
  const AscDType types[] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_DT_INT16,
                            ASC_DT_INT32, ASC_DT_BFLOAT16};
  unsigned char x[8 * N + 1], y[8 * N + 1], d[8 * N + 1];
  for (int op = 0; op < ASC_VBIN_COUNT; op++) {
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      AscDType dt = types[t];
      int bad = 0, lo, hi;
      unsigned char *xa = x + (t & 1), *ya = y + (t & 1), *da = d + (t & 1);
      if (!asc_vec_binary_supported((AscVecBinOp)op, dt) &&
          dt != ASC_DT_BFLOAT16)
        continue;
      exp_range(dt, &lo, &hi);
      if (is_flt(dt)) {
        fill_float(dt, xa, N, lo, hi, 0);
        fill_float(dt, ya, N, lo, hi, 0);
        /* pair specials with each other across the arrays */
        tput(dt, ya, 0, -0.0);
        tput(dt, ya, 1, 0.0);
        tput(dt, ya, 4, INFINITY);
      } else {
        fill_int(dt, xa, N);
        fill_int(dt, ya, N);
      }
      asc_vec_binary((AscVecBinOp)op, dt, da, xa, ya, N);
      for (int i = 0; i < N; i++) {
        double a = tget(dt, xa, i), b = tget(dt, ya, i), got = tget(dt, da, i);
        double want =
            is_flt(dt)
                ? rne(ref_bin((AscVecBinOp)op, a, b), dt)
                : (double)ref_ibin((AscVecBinOp)op, (int64_t)a, (int64_t)b,
                                   dt == ASC_DT_INT16 ? 16 : 32);
        if (!same(got, want) && bad++ < 3)
          printf("  %s %s [%d]: %a op %a = %a, want %a\n", bin_name[op],
                 asc_dtype_name(dt), i, a, b, got, want);
      }
      CHECK(bad == 0, "binary %s %s: %d wrong", bin_name[op],
            asc_dtype_name(dt), bad);
    }
  }

  /* in place, both operand positions, and all three the same */
  {
    float a[N], b[N], w[N];
    uint16_t h[N], hb[N];
    int bad = 0;
    for (int i = 0; i < N; i++) {
      a[i] = (float)i * 0.37f - 3.0f;
      b[i] = 1.0f / ((float)i + 1.0f);
      w[i] = a[i] + b[i];
      h[i] = h_enc(rne(a[i], ASC_DT_FLOAT16));
      hb[i] = h_enc(rne(b[i], ASC_DT_FLOAT16));
    }
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT32, a, a, b, N);
    for (int i = 0; i < N; i++)
      bad += a[i] != w[i];
    CHECK(bad == 0, "in-place add dst == src0");
    for (int i = 0; i < N; i++)
      w[i] = (float)rne(h_val(h[i]) * h_val(hb[i]), ASC_DT_FLOAT16);
    asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT16, hb, h, hb, N);
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += h_val(hb[i]) != w[i];
    CHECK(bad == 0, "in-place f16 mul dst == src1");
    for (int i = 0; i < N; i++)
      w[i] = b[i] + b[i];
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT32, b, b, b, N);
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += b[i] != w[i];
    CHECK(bad == 0, "in-place add dst == src0 == src1");
  }

  /* a long run (vector body plus tail) */
  {
    static float a[NBIG + 3], b[NBIG + 3], c[NBIG + 3];
    static uint16_t ha[NBIG + 3], hb[NBIG + 3], hc[NBIG + 3];
    int bad = 0, n = NBIG + 3;
    for (int i = 0; i < n; i++) {
      a[i] = (float)rnd_val(-30, 30);
      b[i] = (float)rnd_val(-30, 30);
      ha[i] = h_enc(rne(rnd_val(-26, 16), ASC_DT_FLOAT16));
      hb[i] = h_enc(rne(rnd_val(-26, 16), ASC_DT_FLOAT16));
    }
    asc_vec_binary(ASC_VBIN_SUB, ASC_DT_FLOAT32, c, a, b, n);
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT16, hc, ha, hb, n);
    for (int i = 0; i < n; i++) {
      bad += c[i] != a[i] - b[i];
      bad +=
          !same(h_val(hc[i]), rne(h_val(ha[i]) + h_val(hb[i]), ASC_DT_FLOAT16));
    }
    CHECK(bad == 0, "long f32 sub / f16 add: %d wrong", bad);
  }
}

static double ref_un(AscVecUnOp op, double a) {
  switch (op) {
  case ASC_VUN_RELU:
    return isnan(a) ? a : a > 0 ? a : 0.0;
  case ASC_VUN_EXP:
    return exp(a);
  case ASC_VUN_LN:
    return log(a);
  case ASC_VUN_ABS:
    return fabs(a);
  case ASC_VUN_SQRT:
    return sqrt(a);
  case ASC_VUN_RSQRT:
  case ASC_VUN_RSQRT_HW:
    return 1.0 / sqrt(a);
  case ASC_VUN_NOT: /* no float form: the loops keep a */
    return a;
  default:
    return 1.0 / a;
  }
}

/* The relative error precision="hardware" allows Rsqrt and Reciprocal of
 * dt (vecmath.c: the significand rounded to 8 bits after the point for
 * half, 12 for float; bfloat16 has no hardware form and computes exactly),
 * and whether got is within it of the exact want: relative to want, plus
 * half an ulp of dt's subnormals where the result is one. */
static double hw_bound(AscDType dt) {
  return dt == ASC_DT_FLOAT16 ? 0x1p-9 : dt == ASC_DT_FLOAT32 ? 0x1p-13 : 0;
}

static double fmt_max(AscDType dt) {
  TFmt f = fmt_of(dt);
  return ldexp(2.0 - ldexp(1.0, -f.mb), f.emax);
}

static int hw_within(AscDType dt, double got, double want) {
  if (isnan(want) || isinf(want) || want == 0)
    return same(got, want);
  if (signbit(got) != signbit(want))
    return 0;
  if (isinf(got)) /* overflow: where want or its estimate is above MAX */
    return fabs(want) * (1 + hw_bound(dt)) >= fmt_max(dt);
  TFmt f = fmt_of(dt);
  double sub_half_ulp = ldexp(1.0, f.emin - f.mb - 1);
  return fabs(got - want) <= hw_bound(dt) * fabs(want) + sub_half_ulp;
}

static void test_unary(void) {
  const AscDType types[] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_DT_INT32,
                            ASC_DT_BFLOAT16};
  unsigned char x[4 * N + 1], d[4 * N + 1];
  for (int op = 0; op < ASC_VUN_COUNT; op++) {
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      AscDType dt = types[t];
      int bad = 0, lo, hi;
      /* correctly rounded ops compare exactly, the others within 1 ulp;
       * the approximate forms within their bound (test_unary_hw) */
      int base = op == ASC_VUN_RSQRT_HW        ? ASC_VUN_RSQRT
                 : op == ASC_VUN_RECIPROCAL_HW ? ASC_VUN_RECIPROCAL
                                               : op;
      int exact = base == ASC_VUN_RELU || base == ASC_VUN_ABS ||
                  base == ASC_VUN_SQRT || base == ASC_VUN_RECIPROCAL;
      int hw = base != op && dt != ASC_DT_BFLOAT16;
      if (!asc_vec_unary_supported((AscVecUnOp)op, dt) && dt != ASC_DT_BFLOAT16)
        continue;
      exp_range(dt, &lo, &hi);
      if (op == ASC_VUN_EXP) { /* keep arguments where exp is interesting */
        lo = -6;
        hi = dt == ASC_DT_FLOAT16 ? 4 : 7;
      }
      if (is_flt(dt))
        fill_float(dt, x + 1, N, lo, hi, 0);
      else
        fill_int(dt, x + 1, N);
      asc_vec_unary((AscVecUnOp)op, dt, d + 1, x + 1, N);
      for (int i = 0; i < N; i++) {
        double a = tget(dt, x + 1, i), got = tget(dt, d + 1, i), want;
        int ok;
        if (is_flt(dt) && hw) {
          want = ref_un((AscVecUnOp)op, a);
          ok = hw_within(dt, got, want);
        } else if (is_flt(dt)) {
          want = rne(ref_un((AscVecUnOp)op, a), dt);
          ok = exact ? same(got, want) : ulps(dt, got, want) <= 1.0;
        } else {
          want = a < 0 ? 0 : a;
          ok = got == want;
        }
        if (!ok && bad++ < 3)
          printf("  %s %s [%d]: f(%a) = %a, want %a\n", un_name[op],
                 asc_dtype_name(dt), i, a, got, want);
      }
      CHECK(bad == 0, "unary %s %s: %d wrong", un_name[op], asc_dtype_name(dt),
            bad);
    }
  }

  /* documented special values */
  {
    float in[] = {-1.0f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 4.0f};
    float out[8];
    uint16_t hin[8], hout[8];
    int n = 8;
    asc_vec_unary(ASC_VUN_LN, ASC_DT_FLOAT32, out, in, n);
    CHECK(isnan(out[0]) && out[1] == -INFINITY && out[2] == -INFINITY &&
              out[3] == INFINITY && isnan(out[4]) && isnan(out[5]),
          "ln specials");
    asc_vec_unary(ASC_VUN_RELU, ASC_DT_FLOAT32, out, in, n);
    CHECK(out[0] == 0 && !signbit(out[2]) && out[2] == 0 &&
              out[3] == INFINITY && out[4] == 0 && isnan(out[5]) &&
              isnan(out[6]) && out[7] == 4,
          "relu f32 specials: -0 -> +0, NaN kept");
    for (int i = 0; i < n; i++)
      hin[i] = asc_f32_to_f16(in[i]);
    asc_vec_unary(ASC_VUN_RELU, ASC_DT_FLOAT16, hout, hin, n);
    CHECK(hout[0] == 0 && hout[2] == 0 && hout[3] == 0x7C00 && hout[4] == 0 &&
              hout[5] == hin[5] && hout[6] == hin[6] && hout[7] == 0x4400,
          "relu f16 specials");
    asc_vec_unary(ASC_VUN_ABS, ASC_DT_FLOAT16, hout, hin, n);
    CHECK(hout[0] == 0x3C00 && hout[2] == 0 && hout[4] == 0x7C00 &&
              hout[6] == (hin[6] & 0x7FFF),
          "abs f16 clears the sign bit, also of NaN");
    asc_vec_unary(ASC_VUN_RSQRT, ASC_DT_FLOAT32, out, in, n);
    CHECK(out[1] == INFINITY && out[2] == -INFINITY && out[7] == 0.5f &&
              isnan(out[0]),
          "rsqrt specials");
    {
      float e_in[4] = {100.0f, -200.0f, 88.0f, NAN}, e_out[4];
      uint16_t he_in[2] = {h_enc(12.0), h_enc(-20.0)}, he_out[2];
      asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT32, e_out, e_in, 4);
      CHECK(e_out[0] == INFINITY && e_out[1] == 0 &&
                e_out[2] == (float)exp(88.0) && isnan(e_out[3]),
            "exp f32 overflow / underflow");
      asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT16, he_out, he_in, 2);
      CHECK(he_out[0] == 0x7C00 && he_out[1] == 0x0000,
            "exp f16 overflow / underflow");
    }
    asc_vec_unary(ASC_VUN_RECIPROCAL, ASC_DT_FLOAT16, hout, hin, n);
    CHECK(hout[1] == 0x7C00 && hout[2] == 0xFC00 && hout[7] == 0x3400,
          "reciprocal f16 of +-0 and 4");
  }
}

/* leaky_relu, shift_left, shift_right: s is the scalar in the element type,
 * sc the raw one (a shift amount is clamped to [0, bits]; a float has no
 * shifts: the loops keep a). */
static double ref_sca_own(AscVecScalarOp op, AscDType dt, double a, double s,
                          AscScalar sc) {
  int bits = dt == ASC_DT_INT16 ? 16 : 32;
  int64_t k = sc.i < 0 ? 0 : sc.i > bits ? bits : sc.i, x = (int64_t)a;
  if (op == ASC_VSCA_LEAKY_RELU) /* the product for a set sign bit, -0 too */
    return is_flt(dt) ? rne(signbit(a) ? a * s : a, dt) : a;
  if (is_flt(dt))
    return a;
  if (op == ASC_VSCA_SHIFT_RIGHT)
    return (double)(x < 0 ? -((-x - 1) >> k) - 1 : x >> k);
  {
    uint64_t m = bits == 16 ? 0xFFFF : 0xFFFFFFFF, sign = (m >> 1) + 1;
    uint64_t u = (uint64_t)x & m;
    uint64_t r = (u & sign) | ((u << k) & (m >> 1));
    return r & sign ? (double)r - (double)m - 1 : (double)r;
  }
}

/* precision="hardware": Rsqrt and Reciprocal within the model's bound of
 * the exact result and reaching most of it, so that the devkit's
 * criterion (half: a relative error above 1e-3 for at most 0.1% of the
 * elements; float: 1e-4, 0.01%; Rsqrt.md / Reciprocal.md say both fail
 * it) fails; special values exact (boundary value tables 5 and 7). Every
 * finite half, and 2^20 floats spread over every exponent. */
static void test_unary_hw(void) {
  static uint16_t hin[0x7C00 * 2], hout[0x7C00 * 2];
  static float fin[1 << 20], fout[1 << 20];
  const AscVecUnOp ops[2] = {ASC_VUN_RSQRT_HW, ASC_VUN_RECIPROCAL_HW};
  int nh = 0, nf = 1 << 20;
  for (uint32_t h = 1; h < 0x7C00; h++) {
    hin[nh++] = (uint16_t)h;
    hin[nh++] = (uint16_t)(h | 0x8000u);
  }
  for (int i = 0; i < nf; i++) /* positive and negative, exponents -149..127 */
    fin[i] = (float)((i & 1 ? -1 : 1) * rnd_val(-149, 128));
  for (int k = 0; k < 2; k++) {
    for (int t = 0; t < 2; t++) {
      AscDType dt = t ? ASC_DT_FLOAT32 : ASC_DT_FLOAT16;
      int n = t ? nf : nh, bad = 0, over = 0, counted = 0;
      double worst = 0, crit = t ? 1e-4 : 1e-3;
      if (t)
        asc_vec_unary(ops[k], dt, fout, fin, n);
      else
        asc_vec_unary(ops[k], dt, hout, hin, n);
      for (int i = 0; i < n; i++) {
        double a = t ? fin[i] : h_val(hin[i]);
        double got = t ? fout[i] : h_val(hout[i]);
        double want = ref_un(ops[k], a);
        if (!hw_within(dt, got, want) && bad++ < 3)
          printf("  %s %s: f(%a) = %a, exact %a\n", un_name[ops[k]],
                 asc_dtype_name(dt), a, got, want);
        if (isfinite(want) && fabs(want) >= ldexp(1.0, fmt_of(dt).emin) &&
            fabs(want) * (1 + hw_bound(dt)) < fmt_max(dt)) {
          double rel = fabs(got - want) / fabs(want);
          worst = rel > worst ? rel : worst;
          over += rel > crit;
          counted++;
        }
      }
      CHECK(bad == 0, "%s %s: %d outside the bound", un_name[ops[k]],
            asc_dtype_name(dt), bad);
      CHECK(worst > 0.9 * hw_bound(dt) && worst <= hw_bound(dt),
            "%s %s: largest relative error %g, bound %g", un_name[ops[k]],
            asc_dtype_name(dt), worst, hw_bound(dt));
      CHECK(over > counted / (t ? 10000 : 1000),
            "%s %s: %d of %d results above %g: the devkit's criterion "
            "should fail",
            un_name[ops[k]], asc_dtype_name(dt), over, counted, crit);
    }
  }
  {
    /* tables 5 and 7: +-0, +-inf, NaN, a negative (Rsqrt: NaN), MAX */
    float in[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -4.0f, FLT_MAX};
    float out[7];
    asc_vec_unary(ASC_VUN_RSQRT_HW, ASC_DT_FLOAT32, out, in, 7);
    CHECK(out[0] == INFINITY && out[1] == -INFINITY && out[2] == 0 &&
              !signbit(out[2]) && isnan(out[3]) && isnan(out[4]) &&
              isnan(out[5]) && out[6] == 0x1p-64f,
          "rsqrt (hw) specials: %a %a %a %a %a %a %a", out[0], out[1], out[2],
          out[3], out[4], out[5], out[6]);
    asc_vec_unary(ASC_VUN_RECIPROCAL_HW, ASC_DT_FLOAT32, out, in, 7);
    CHECK(out[0] == INFINITY && out[1] == -INFINITY && out[2] == 0 &&
              !signbit(out[2]) && out[3] == 0 && signbit(out[3]) &&
              isnan(out[4]) && out[5] == -0.25f && out[6] == 0x1p-128f,
          "reciprocal (hw) specials: table 5's 2.938736e-39 for MAX");
    uint16_t hi[] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0x0001};
    uint16_t ho[7];
    asc_vec_unary(ASC_VUN_RECIPROCAL_HW, ASC_DT_FLOAT16, ho, hi, 7);
    CHECK(ho[0] == 0x7C00 && ho[1] == 0xFC00 && ho[2] == 0 && ho[3] == 0x8000 &&
              (ho[4] & 0x7FFF) > 0x7C00 && ho[5] == 0x0100 && ho[6] == 0x7C00,
          "reciprocal f16 (hw) specials: 1/65504 = 2^-16 (table 5: 0.000015), "
          "1/2^-24 overflows");
    asc_vec_unary(ASC_VUN_RSQRT_HW, ASC_DT_FLOAT16, ho, hi, 7);
    CHECK(ho[0] == 0x7C00 && ho[1] == 0xFC00 && ho[2] == 0 &&
              (ho[3] & 0x7FFF) > 0x7C00 && ho[5] == 0x1C00 && ho[6] == 0x6C00,
          "rsqrt f16 (hw) specials: 1/sqrt(65504) = 0.003906 (table 7)");
    CHECK(asc_vec_unary_hw(ASC_VUN_RSQRT) == ASC_VUN_RSQRT_HW &&
              asc_vec_unary_hw(ASC_VUN_RECIPROCAL) == ASC_VUN_RECIPROCAL_HW &&
              asc_vec_unary_hw(ASC_VUN_EXP) == ASC_VUN_EXP,
          "asc_vec_unary_hw");
  }
}

static void test_scalar(void) {
  const AscDType types[] = {ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_DT_INT16,
                            ASC_DT_INT32, ASC_DT_BFLOAT16};
  const double fs[] = {2.5, -1.25, 3.3, 1e-30, 70000.0, NAN, -0.0};
  const int64_t is[] = {7, -3, 70000, ((int64_t)1 << 40) + 5, -70000};
  unsigned char x[4 * N + 1], d[4 * N + 1];
  for (int op = 0; op < ASC_VSCA_COUNT; op++) {
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      AscDType dt = types[t];
      int flt = is_flt(dt), ns = flt ? 7 : 5, lo, hi;
      if (!asc_vec_scalar_supported((AscVecScalarOp)op, dt) &&
          dt != ASC_DT_BFLOAT16)
        continue;
      exp_range(dt, &lo, &hi);
      for (int k = 0; k < ns; k++) {
        AscScalar sc = {flt ? fs[k] : 0.0, flt ? 0 : is[k]};
        int bad = 0;
        double s;
        static const AscVecBinOp as_bin[] = {ASC_VBIN_ADD, ASC_VBIN_MUL,
                                             ASC_VBIN_MAX, ASC_VBIN_MIN};
        if (flt) {
          /* bfloat16 scalars go double -> float -> bf16 (as PyTorch) */
          s = dt == ASC_DT_BFLOAT16 ? rne((float)sc.f, dt) : rne(sc.f, dt);
          fill_float(dt, x, N, lo, hi, 0);
        } else {
          int bits = dt == ASC_DT_INT16 ? 16 : 32;
          uint64_t m = bits == 16 ? 0xFFFF : 0xFFFFFFFF, u = (uint64_t)sc.i & m;
          s = u > (m >> 1) ? (double)u - (double)m - 1 : (double)u;
          fill_int(dt, x, N);
        }
        asc_vec_scalar((AscVecScalarOp)op, dt, d, x, sc, N);
        for (int i = 0; i < N; i++) {
          double a = tget(dt, x, i), got = tget(dt, d, i), want;
          if (op >= ASC_VSCA_LEAKY_RELU)
            want = ref_sca_own((AscVecScalarOp)op, dt, a, s, sc);
          else if (flt)
            want = rne(ref_bin(as_bin[op], a, s), dt);
          else
            want = (double)ref_ibin(as_bin[op], (int64_t)a, (int64_t)s,
                                    dt == ASC_DT_INT16 ? 16 : 32);
          if (!same(got, want) && bad++ < 3)
            printf("  %s %s [%d]: %a op %a = %a, want %a\n", sca_name[op],
                   asc_dtype_name(dt), i, a, s, got, want);
        }
        CHECK(bad == 0, "scalar %s %s, scalar #%d: %d wrong", sca_name[op],
              asc_dtype_name(dt), k, bad);
      }
    }
  }
}

static void test_dup(void) {
  struct {
    AscDType dt;
    AscScalar s;
    uint64_t bits;
  } t[] = {
      {ASC_DT_FLOAT16, {3.3, 0}, 0x429A}, /* RNE from double */
      {ASC_DT_FLOAT16, {65520.0, 0}, 0x7C00},
      {ASC_DT_FLOAT16, {-0.0, 0}, 0x8000},
      {ASC_DT_BFLOAT16, {1.0, 0}, 0x3F80},
      {ASC_DT_BFLOAT16, {3.3, 0}, 0x4053},
      {ASC_DT_FLOAT32, {0.1, 0}, 0x3DCCCCCD},
      {ASC_DT_FLOAT32, {1e39, 0}, 0x7F800000},
      {ASC_DT_INT16, {0, 70000}, 4464}, /* wraps */
      {ASC_DT_INT16, {0, -1}, 0xFFFF},
      {ASC_DT_UINT16, {0, -1}, 0xFFFF},
      {ASC_DT_INT32, {0, INT64_C(0x123456789)}, 0x23456789},
      {ASC_DT_UINT32, {0, -2}, 0xFFFFFFFE},
  };
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
    unsigned char buf[4 * N + 8];
    size_t sz = asc_dtype_size(t[k].dt);
    int bad = 0;
    memset(buf, 0xA5, sizeof buf);
    CHECK(asc_vec_dup_supported(t[k].dt), "dup supports %s",
          asc_dtype_name(t[k].dt));
    asc_vec_dup(t[k].dt, buf + 1, t[k].s, N);
    for (int i = 0; i < N; i++) {
      uint64_t v = 0;
      memcpy(&v, buf + 1 + (size_t)i * sz, sz); /* little endian */
      bad += v != t[k].bits;
    }
    bad += buf[0] != 0xA5 || buf[1 + N * sz] != 0xA5;
    CHECK(bad == 0, "dup %s case %zu", asc_dtype_name(t[k].dt), k);
  }
}

/* ------------------------------------------------------------------
 * Cast
 * ---------------------------------------------------------------- */

#define RM(x) (1u << ASC_ROUND_##x)
#define RM_DIR (RM(RINT) | RM(FLOOR) | RM(CEIL) | RM(ROUND) | RM(TRUNC))

/* The Atlas A2 table of Cast.md, as this test reads it. */
static const struct {
  AscDType dst, src;
  unsigned modes;
} rules[] = {
    {ASC_DT_FLOAT16, ASC_DT_INT8, RM(NONE)},
    {ASC_DT_FLOAT16, ASC_DT_UINT8, RM(NONE)},
    {ASC_DT_FLOAT16, ASC_DT_INT16, RM_DIR | RM(NONE)},
    {ASC_DT_FLOAT32, ASC_DT_INT16, RM(NONE)},
    {ASC_DT_INT8, ASC_DT_FLOAT16, RM_DIR | RM(NONE)},
    {ASC_DT_UINT8, ASC_DT_FLOAT16, RM_DIR | RM(NONE)},
    {ASC_DT_INT16, ASC_DT_FLOAT16, RM_DIR},
    {ASC_DT_INT32, ASC_DT_FLOAT16, RM_DIR},
    {ASC_DT_FLOAT32, ASC_DT_FLOAT16, RM(NONE)},
    {ASC_DT_INT32, ASC_DT_BFLOAT16, RM_DIR},
    {ASC_DT_FLOAT32, ASC_DT_BFLOAT16, RM(NONE)},
    {ASC_DT_INT16, ASC_DT_INT32, RM(NONE)},
    {ASC_DT_FLOAT32, ASC_DT_INT32, RM_DIR | RM(NONE)},
    {ASC_DT_INT64, ASC_DT_INT32, RM(NONE)},
    {ASC_DT_INT16, ASC_DT_FLOAT32, RM_DIR},
    {ASC_DT_FLOAT16, ASC_DT_FLOAT32, RM_DIR | RM(ODD) | RM(NONE)},
    {ASC_DT_BFLOAT16, ASC_DT_FLOAT32, RM_DIR},
    {ASC_DT_INT32, ASC_DT_FLOAT32, RM_DIR},
    {ASC_DT_FLOAT32, ASC_DT_FLOAT32, RM_DIR},
    {ASC_DT_INT64, ASC_DT_FLOAT32, RM_DIR},
    {ASC_DT_INT32, ASC_DT_INT64, RM(NONE)},
    {ASC_DT_FLOAT32, ASC_DT_INT64, RM_DIR},
};
#define NRULES (int)(sizeof rules / sizeof rules[0])

static const char *mode_name[] = {"NONE",  "RINT",  "FLOOR", "CEIL",
                                  "ROUND", "TRUNC", "ODD"};

static void int_range(AscDType dt, double *lo, double *hi) {
  switch (dt) {
  case ASC_DT_INT8:
    *lo = -128, *hi = 127;
    break;
  case ASC_DT_UINT8:
    *lo = 0, *hi = 255;
    break;
  case ASC_DT_INT16:
    *lo = -32768, *hi = 32767;
    break;
  case ASC_DT_INT32:
    *lo = -2147483648.0, *hi = 2147483647.0;
    break;
  default:
    *lo = -0x1p63, *hi = 0x1p63; /* int64: hi checked apart */
    break;
  }
}

/* Expected result of casting v (exact in double) under mode. */
static double ref_cast(AscDType dst, AscDType src, AscRoundMode m, double v) {
  double lo, hi, r;
  if (m == ASC_ROUND_NONE)
    m = ASC_ROUND_RINT;
  /* to an integral value; a zero result is +0 (boundary value table 32) */
  if (dst == ASC_DT_FLOAT32 && src == ASC_DT_FLOAT32)
    return isnan(v) || isinf(v) ? v : ref_rint(v, m) + 0.0;
  if (is_flt(dst))
    return ref_round(v, fmt_of(dst), m);
  if (isnan(v))
    return 0;
  int_range(dst, &lo, &hi);
  r = ref_rint(v, m);
  r = r < lo ? lo : r > hi ? hi : r;
  return r + 0.0; /* integers have no -0 */
}

static void test_cast_table(void) {
  int bad = 0, count = 0;
  for (int a = 0; a < NTYPES; a++)
    for (int b = 0; b < NTYPES; b++)
      for (int m = 0; m < ASC_ROUND_COUNT; m++) {
        int want = 0;
        for (int k = 0; k < NRULES; k++)
          if (rules[k].dst == all_types[a] && rules[k].src == all_types[b])
            want = (rules[k].modes >> m) & 1;
        count += want;
        if (asc_vec_cast_supported(all_types[a], all_types[b],
                                   (AscRoundMode)m) != want &&
            bad++ < 5)
          printf("  cast %s <- %s %s: supported should be %d\n",
                 asc_dtype_name(all_types[a]), asc_dtype_name(all_types[b]),
                 mode_name[m], want);
      }
  CHECK(bad == 0, "cast support table: %d wrong", bad);
  CHECK(count == 84, "cast table has %d (dst, src, mode) entries", count);
  CHECK(!asc_vec_cast_supported(ASC_DT_FLOAT16, ASC_DT_INT32, ASC_ROUND_NONE),
        "int32 -> half (SetDeqScale dequant) is not a plain cast");
  CHECK(
      !asc_vec_cast_supported(ASC_DT_FLOAT32, ASC_DT_FLOAT32, (AscRoundMode)99),
      "bad mode");
}

static void test_cast_values(void) {
  const double fvals[] = {0.0,           -0.0,
                          0.5,           -0.5,
                          1.5,           -1.5,
                          2.5,           -2.5,
                          1.75,          -1.75,
                          0.4999,        127.5,
                          -128.5,        128.0,
                          255.5,         256.0,
                          -1.0,          32767.5,
                          -32768.5,      4098.0,
                          65504.0,       65520.0,
                          1e10,          -1e10,
                          3e38,          -3e38,
                          2147483520.0,  2147483648.0,
                          -2147483648.0, -2147483904.0,
                          0x1p-24,       0x1p-25,
                          0.5 + 0x1p-12, 0.5 + 0x1p-9 + 0x1p-11,
                          0x1p62,        0x1p63,
                          -0x1p63,       1e-40,
                          0x1.ffep-15,   INFINITY,
                          -INFINITY,     NAN};
  const double ivals[] = {0,
                          1,
                          -1,
                          127,
                          -128,
                          255,
                          2049,
                          4097,
                          4098,
                          -4097,
                          32767,
                          -32768,
                          2147483647.0,
                          -2147483648.0,
                          16777217.0,
                          33554435.0,
                          -33554435.0,
                          0x1p35 + 0x1p12 + 0x1p11,
                          0x1p62 + 0x1p40 + 0x1p39,
                          -0x1p53 - 2,
                          0x1p31,
                          -0x1p31 - 1,
                          0x1p60,
                          -0x1p63};
  const int nf = (int)(sizeof fvals / sizeof fvals[0]);
  const int ni = (int)(sizeof ivals / sizeof ivals[0]);
  unsigned char src[8 * 64 + 1], dst[8 * 64 + 1];
  for (int k = 0; k < NRULES; k++) {
    AscDType dt = rules[k].dst, st = rules[k].src;
    for (int m = 0; m < ASC_ROUND_COUNT; m++) {
      double in[64];
      int n = 0, bad = 0;
      if (!((rules[k].modes >> m) & 1))
        continue;
      if (is_flt(st)) {
        for (int i = 0; i < nf; i++)
          in[n++] = rne(fvals[i], st);
      } else {
        double lo, hi;
        int_range(st, &lo, &hi);
        for (int i = 0; i < ni; i++)
          if (ivals[i] >= lo && ivals[i] < hi + (st == ASC_DT_INT64 ? 0 : 1))
            in[n++] = ivals[i];
      }
      for (int i = 0; i < n; i++)
        tput(st, src + 1, i, in[i]);
      if (st == ASC_DT_INT64) { /* INT64_MAX is not a double */
        int64_t mx = INT64_MAX;
        memcpy(src + 1 + 8 * n, &mx, 8);
      }
      asc_vec_cast(dt, st, (AscRoundMode)m, dst + 1, src + 1,
                   n + (st == ASC_DT_INT64));
      for (int i = 0; i < n; i++) {
        double got = tget(dt, dst + 1, i), want = ref_cast(dt, st, m, in[i]);
        int ok = same(got, want);
        if (dt == ASC_DT_INT64) {
          int64_t g = tget_i64(dst + 1, i);
          int64_t w = want >= 0x1p63 ? INT64_MAX : (int64_t)want;
          ok = g == w;
        }
        if (!ok && bad++ < 3)
          printf("  cast %s <- %s %s: %a -> %a, want %a\n", asc_dtype_name(dt),
                 asc_dtype_name(st), mode_name[m], in[i], got, want);
      }
      if (st == ASC_DT_INT64) { /* 2^63 - 1 */
        double got = tget(dt, dst + 1, n);
        double want = dt == ASC_DT_INT32 ? 2147483647.0
                      : (m == ASC_ROUND_FLOOR || m == ASC_ROUND_TRUNC)
                          ? 0x1p63 - 0x1p39
                          : 0x1p63;
        if (got != want && bad++ < 3)
          printf("  cast %s <- int64 %s: INT64_MAX -> %a\n", asc_dtype_name(dt),
                 mode_name[m], got);
      }
      CHECK(bad == 0, "cast %s <- %s %s: %d wrong", asc_dtype_name(dt),
            asc_dtype_name(st), mode_name[m], bad);
    }
  }

  /* f32 -> f16 in every mode over the midpoint sweep */
  {
    static float in[3 * 0x7C00];
    static uint16_t out[3 * 0x7C00];
    int n = 0;
    for (uint32_t h = 0; h < 0x7C00; h++) {
      double lo = h_val((uint16_t)h);
      double hi = h == 0x7BFF ? 65536.0 : h_val((uint16_t)(h + 1));
      float mid = (float)((lo + hi) / 2);
      float s = (h & 1) ? -1.0f : 1.0f;
      in[n++] = s * nextafterf(mid, 0);
      in[n++] = s * mid;
      in[n++] = s * nextafterf(mid, INFINITY);
    }
    for (int m = 0; m < ASC_ROUND_COUNT; m++) {
      int bad = 0;
      asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, (AscRoundMode)m, out, in, n);
      for (int i = 0; i < n; i++) {
        double want = ref_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, m, in[i]);
        if (!same(h_val(out[i]), want) && bad++ < 3)
          printf("  f32 -> f16 %s: %a -> %a, want %a\n", mode_name[m],
                 (double)in[i], h_val(out[i]), want);
      }
      CHECK(bad == 0, "f32 -> f16 %s sweep: %d wrong", mode_name[m], bad);
    }
  }
}

/* The worked examples of precision_conversion.md. */
static void test_cast_doc_examples(void) {
  int16_t i16;
  int32_t i32, i32v[5];
  int8_t i8;
  int64_t i64;
  uint16_t h, hv[6];
  float f, fv[5];
  const AscRoundMode five[] = {ASC_ROUND_RINT, ASC_ROUND_FLOOR, ASC_ROUND_CEIL,
                               ASC_ROUND_ROUND, ASC_ROUND_TRUNC};

  /* int16 2^12 + 2 -> half: RINT/FLOOR/TRUNC 4096, CEIL/ROUND 4100 */
  i16 = 4098;
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_INT16, five[k], &hv[k], &i16, 1);
  CHECK(h_val(hv[0]) == 4096 && h_val(hv[1]) == 4096 && h_val(hv[2]) == 4100 &&
            h_val(hv[3]) == 4100 && h_val(hv[4]) == 4096,
        "doc: int16 4098 -> half");

  /* half 2^7 - 0.5 -> int8: saturates to 127 in every mode */
  h = h_enc(127.5);
  for (int k = 0; k < 5; k++) {
    asc_vec_cast(ASC_DT_INT8, ASC_DT_FLOAT16, five[k], &i8, &h, 1);
    CHECK(i8 == 127, "doc: half 127.5 -> int8 %s = %d", mode_name[five[k]], i8);
  }

  /* half -1.5 -> int32: -2 -2 -1 -2 -1 */
  h = h_enc(-1.5);
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_INT32, ASC_DT_FLOAT16, five[k], &i32v[k], &h, 1);
  CHECK(i32v[0] == -2 && i32v[1] == -2 && i32v[2] == -1 && i32v[3] == -2 &&
            i32v[4] == -1,
        "doc: half -1.5 -> int32");

  /* int32 2^25 + 3 -> float: 2^25+4 2^25 2^25+4 2^25+4 2^25 */
  i32 = (1 << 25) + 3;
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_INT32, five[k], &fv[k], &i32, 1);
  CHECK(fv[0] == 0x1p25f + 4 && fv[1] == 0x1p25f && fv[2] == 0x1p25f + 4 &&
            fv[3] == 0x1p25f + 4 && fv[4] == 0x1p25f,
        "doc: int32 2^25+3 -> float");

  /* float 0.5 + 2^-12 -> half: ODD and CEIL/ROUND give 0.5 + 2^-11 */
  f = 0.5f + 0x1p-12f;
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, five[k], &hv[k], &f, 1);
  asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_ODD, &hv[5], &f, 1);
  CHECK(h_val(hv[0]) == 0.5 && h_val(hv[1]) == 0.5 &&
            h_val(hv[2]) == 0.5 + 0x1p-11 && h_val(hv[3]) == 0.5 + 0x1p-11 &&
            h_val(hv[4]) == 0.5 && h_val(hv[5]) == 0.5 + 0x1p-11,
        "doc: float 0.5+2^-12 -> half");

  /* float 0.5 + 2^-9 + 2^-11 -> bf16: RINT/CEIL/ROUND 0.5 + 2^-8 */
  f = 0.5f + 0x1p-9f + 0x1p-11f;
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_BFLOAT16, ASC_DT_FLOAT32, five[k], &hv[k], &f, 1);
  CHECK(b_val(hv[0]) == 0.5 + 0x1p-8 && b_val(hv[1]) == 0.5 &&
            b_val(hv[2]) == 0.5 + 0x1p-8 && b_val(hv[3]) == 0.5 + 0x1p-8 &&
            b_val(hv[4]) == 0.5,
        "doc: float -> bf16");

  /* float 2^22 + 0.5 -> int16 saturates; -> int32 rounds */
  f = 0x1p22f + 0.5f;
  asc_vec_cast(ASC_DT_INT16, ASC_DT_FLOAT32, ASC_ROUND_TRUNC, &i16, &f, 1);
  CHECK(i16 == 32767, "doc: float 2^22+0.5 -> int16 saturates");
  asc_vec_cast(ASC_DT_INT32, ASC_DT_FLOAT32, ASC_ROUND_CEIL, &i32, &f, 1);
  CHECK(i32 == (1 << 22) + 1, "doc: float 2^22+0.5 -> int32 CEIL");

  /* float -> float: 0.5 gives 0 0 1 1 0 */
  f = 0.5f;
  for (int k = 0; k < 5; k++)
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT32, five[k], &fv[k], &f, 1);
  CHECK(fv[0] == 0 && fv[1] == 0 && fv[2] == 1 && fv[3] == 1 && fv[4] == 0,
        "doc: float 0.5 -> float");

  /* int64 2^31 -> int32 saturates; int32 max -> int16 saturates */
  i64 = INT64_C(1) << 31;
  asc_vec_cast(ASC_DT_INT32, ASC_DT_INT64, ASC_ROUND_NONE, &i32, &i64, 1);
  CHECK(i32 == INT32_MAX, "doc: int64 2^31 -> int32");
  i32 = INT32_MAX;
  asc_vec_cast(ASC_DT_INT16, ASC_DT_INT32, ASC_ROUND_NONE, &i16, &i32, 1);
  CHECK(i16 == INT16_MAX, "doc: int32 max -> int16");

  /* int64 2^35 + 2^12 + 2^11 -> float: RINT 2^35 + 2^13, FLOOR 2^35 + 2^12 */
  i64 = (INT64_C(1) << 35) + 4096 + 2048;
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_INT64, ASC_ROUND_RINT, &fv[0], &i64, 1);
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_INT64, ASC_ROUND_FLOOR, &fv[1], &i64, 1);
  CHECK(fv[0] == 0x1p35f + 8192 && fv[1] == 0x1p35f + 4096,
        "doc: int64 -> float");

  /* NaN -> integer is 0 (our choice) */
  f = NAN;
  asc_vec_cast(ASC_DT_INT32, ASC_DT_FLOAT32, ASC_ROUND_RINT, &i32, &f, 1);
  CHECK(i32 == 0, "NaN -> int32 is 0");
}

/* ------------------------------------------------------------------
 * Support predicates, scalar access, fallbacks
 * ---------------------------------------------------------------- */

/* Signed zeros of the float conversions, every mode each takes: float ->
 * float gives +0 for -0 (and for what rounds to zero); half -> float,
 * bfloat16 -> float, float -> half and float -> bfloat16 keep the sign
 * (boundary value table 32: float/bfloat16_t -0 -> -0). */
static void test_cast_signed_zeros(void) {
  const float fz[4] = {-0.0f, 0.0f, -0.3f, -0x1p-140f};
  const uint16_t hz[2] = {0x8000, 0x0000};
  for (int m = 0; m < ASC_ROUND_COUNT; m++) {
    float f[4];
    uint16_t h[4];
    if (asc_vec_cast_supported(ASC_DT_FLOAT32, ASC_DT_FLOAT32,
                               (AscRoundMode)m)) {
      asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT32, (AscRoundMode)m, f, fz, 4);
      CHECK(f[0] == 0 && !signbit(f[0]) && !signbit(f[1]),
            "f32 -> f32 %s: -0 -> +0", mode_name[m]);
      CHECK((f[2] != 0 || !signbit(f[2])) && (f[3] != 0 || !signbit(f[3])),
            "f32 -> f32 %s: a negative rounding to zero gives +0",
            mode_name[m]);
    }
    if (asc_vec_cast_supported(ASC_DT_FLOAT16, ASC_DT_FLOAT32,
                               (AscRoundMode)m)) {
      asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, (AscRoundMode)m, h, fz, 2);
      CHECK(h[0] == 0x8000 && h[1] == 0, "f32 -> f16 %s keeps -0",
            mode_name[m]);
    }
    if (asc_vec_cast_supported(ASC_DT_BFLOAT16, ASC_DT_FLOAT32,
                               (AscRoundMode)m)) {
      asc_vec_cast(ASC_DT_BFLOAT16, ASC_DT_FLOAT32, (AscRoundMode)m, h, fz, 2);
      CHECK(h[0] == 0x8000 && h[1] == 0, "f32 -> bf16 %s keeps -0 (table 32)",
            mode_name[m]);
    }
    if (asc_vec_cast_supported(ASC_DT_FLOAT32, ASC_DT_FLOAT16,
                               (AscRoundMode)m)) {
      asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, (AscRoundMode)m, f, hz, 2);
      CHECK(f[0] == 0 && signbit(f[0]) && !signbit(f[1]),
            "f16 -> f32 %s keeps -0", mode_name[m]);
    }
    if (asc_vec_cast_supported(ASC_DT_FLOAT32, ASC_DT_BFLOAT16,
                               (AscRoundMode)m)) {
      asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_BFLOAT16, (AscRoundMode)m, f, hz, 2);
      CHECK(f[0] == 0 && signbit(f[0]) && !signbit(f[1]),
            "bf16 -> f32 %s keeps -0", mode_name[m]);
    }
  }
}

static void test_supported(void) {
  CHECK(!asc_vec_binary_supported(ASC_VBIN_DIV, ASC_DT_INT32), "div i32");
  CHECK(!asc_vec_binary_supported(ASC_VBIN_DIV, ASC_DT_INT16), "div i16");
  CHECK(asc_vec_binary_supported(ASC_VBIN_DIV, ASC_DT_FLOAT16), "div f16");
  CHECK(!asc_vec_binary_supported(ASC_VBIN_ADD, ASC_DT_BFLOAT16), "add bf16");
  CHECK(!asc_vec_binary_supported(ASC_VBIN_ADD, ASC_DT_INT8), "add i8");
  CHECK(!asc_vec_binary_supported(ASC_VBIN_ADD, ASC_DT_UINT16), "add u16");
  CHECK(asc_vec_binary_supported(ASC_VBIN_MIN, ASC_DT_INT16), "min i16");
  CHECK(!asc_vec_binary_supported((AscVecBinOp)ASC_VBIN_COUNT, ASC_DT_FLOAT32),
        "bad op");
  CHECK(!asc_vec_binary_supported(ASC_VBIN_ADD, (AscDType)99), "bad dtype");
  CHECK(!asc_vec_unary_supported(ASC_VUN_EXP, ASC_DT_INT16), "exp i16");
  CHECK(!asc_vec_unary_supported(ASC_VUN_ABS, ASC_DT_INT32), "abs i32");
  CHECK(!asc_vec_unary_supported(ASC_VUN_RELU, ASC_DT_INT16), "relu i16");
  CHECK(asc_vec_unary_supported(ASC_VUN_RELU, ASC_DT_INT32), "relu i32");
  CHECK(!asc_vec_unary_supported(ASC_VUN_SQRT, ASC_DT_BFLOAT16), "sqrt bf16");
  CHECK(asc_vec_scalar_supported(ASC_VSCA_MULS, ASC_DT_INT16), "muls i16");
  CHECK(!asc_vec_scalar_supported(ASC_VSCA_ADDS, ASC_DT_UINT32), "adds u32");
  CHECK(asc_vec_dup_supported(ASC_DT_BFLOAT16), "dup bf16");
  CHECK(!asc_vec_dup_supported(ASC_DT_INT8), "dup i8");
  CHECK(!asc_vec_dup_supported(ASC_DT_INT64), "dup i64");
  CHECK(!asc_vec_cast_supported(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_RINT),
        "half -> float only CAST_NONE");
  CHECK(
      !asc_vec_cast_supported(ASC_DT_BFLOAT16, ASC_DT_FLOAT32, ASC_ROUND_NONE),
      "float -> bf16 has no CAST_NONE");
  CHECK(!asc_vec_cast_supported(ASC_DT_INT32, ASC_DT_FLOAT32, ASC_ROUND_ODD),
        "float -> int32 has no CAST_ODD");
  CHECK(
      !asc_vec_cast_supported(ASC_DT_FLOAT16, ASC_DT_BFLOAT16, ASC_ROUND_RINT),
      "bf16 -> half not on A2");
}

static void test_scalar_access(void) {
  unsigned char b[16];
  AscScalar s;
  uint16_t u16;

  s.f = 1.0 / 3.0, s.i = 0;
  asc_store_scalar(ASC_DT_FLOAT16, b, 1, s);
  memcpy(&u16, b + 2, 2);
  CHECK(u16 == 0x3555, "store f16 1/3 = 0x%04x", u16);
  CHECK(asc_load_f(ASC_DT_FLOAT16, b, 1) == h_val(0x3555), "load f16");
  s.f = 65520.0;
  asc_store_scalar(ASC_DT_FLOAT16, b, 0, s);
  memcpy(&u16, b, 2);
  CHECK(u16 == 0x7C00, "store f16 65520 -> inf");
  s.f = 1e39;
  asc_store_scalar(ASC_DT_FLOAT32, b, 0, s);
  CHECK(asc_load_f(ASC_DT_FLOAT32, b, 0) == INFINITY, "store f32 1e39 -> inf");
  s.f = NAN;
  asc_store_scalar(ASC_DT_BFLOAT16, b, 0, s);
  memcpy(&u16, b, 2);
  CHECK(u16 == 0x7FC0, "store bf16 NaN");
  s.f = 0.0, s.i = 5;
  asc_store_scalar(ASC_DT_BOOL, b, 3, s);
  CHECK(b[3] == 1 && asc_load_i(ASC_DT_BOOL, b, 3) == 1, "bool stores 0/1");
  s.i = 300;
  asc_store_scalar(ASC_DT_INT8, b, 0, s);
  CHECK(asc_load_i(ASC_DT_INT8, b, 0) == 44, "int8 store truncates");
  s.i = -1;
  asc_store_scalar(ASC_DT_UINT16, b, 0, s);
  CHECK(asc_load_i(ASC_DT_UINT16, b, 0) == 65535, "uint16 -1 -> 65535");
  s.i = -1;
  asc_store_scalar(ASC_DT_UINT64, b, 1, s);
  CHECK(asc_load_i(ASC_DT_UINT64, b, 1) == -1 &&
            asc_load_f(ASC_DT_UINT64, b, 1) == 0x1p64,
        "uint64 max");
  s.i = INT64_MIN;
  asc_store_scalar(ASC_DT_INT64, b, 0, s);
  CHECK(asc_load_i(ASC_DT_INT64, b, 0) == INT64_MIN, "int64 min");
  s.f = -3.9;
  asc_store_scalar(ASC_DT_FLOAT32, b, 0, s);
  CHECK(asc_load_i(ASC_DT_FLOAT32, b, 0) == -3, "load_i truncates");
  s.f = 1e30;
  asc_store_scalar(ASC_DT_FLOAT32, b, 0, s);
  CHECK(asc_load_i(ASC_DT_FLOAT32, b, 0) == INT64_MAX, "load_i saturates");
  s.f = NAN;
  asc_store_scalar(ASC_DT_FLOAT64, b, 1, s);
  CHECK(asc_load_i(ASC_DT_FLOAT64, b, 1) == 0 &&
            isnan(asc_load_f(ASC_DT_FLOAT64, b, 1)),
        "NaN load_i -> 0");
}

/* Combinations the chip lacks still give defined results. */
static void test_fallbacks(void) {
  int8_t a[3] = {100, -128, 7}, b[3] = {100, -1, 0}, d[3];
  double x[3] = {1.5, -2.0, 1e300}, y[3] = {0.25, 3.0, 1e300}, z[3];
  uint16_t u[3] = {0, 40000, 65535};
  float f[3];
  asc_vec_binary(ASC_VBIN_ADD, ASC_DT_INT8, d, a, b, 3);
  CHECK(d[0] == -56 && d[1] == 127 && d[2] == 7, "int8 add wraps");
  asc_vec_binary(ASC_VBIN_DIV, ASC_DT_INT8, d, a, b, 3);
  CHECK(d[0] == 1 && d[1] == -128 && d[2] == 0, "int8 div: /-1 wraps, /0 = 0");
  asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT64, z, x, y, 3);
  CHECK(z[0] == 0.375 && z[1] == -6.0 && z[2] == INFINITY, "f64 mul");
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_UINT16, ASC_ROUND_NONE, f, u, 3);
  CHECK(f[0] == 0 && f[1] == 40000 && f[2] == 65535, "uint16 -> float");
  asc_vec_cast(ASC_DT_UINT8, ASC_DT_FLOAT32, ASC_ROUND_TRUNC, d, f, 3);
  CHECK((uint8_t)d[0] == 0 && (uint8_t)d[1] == 255 && (uint8_t)d[2] == 255,
        "float -> uint8 saturates");
  {
    int32_t i[3] = {INT32_MIN, -5, 9}, o[3];
    asc_vec_unary(ASC_VUN_ABS, ASC_DT_INT32, o, i, 3);
    CHECK(o[0] == INT32_MIN && o[1] == 5 && o[2] == 9, "int32 abs wraps");
  }
  {
    uint16_t hv[2] = {0x3C00, 0x4000};
    float out[2] = {7, 7};
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT16, out, hv, hv, 0);
    CHECK(out[0] == 7, "n == 0 writes nothing");
  }
}

int main(void) {
  test_f16_roundtrip();
  test_f16_midpoints();
  test_f16_edges();
  test_bf16();
  test_binary();
  test_unary();
  test_unary_hw();
  test_scalar();
  test_dup();
  test_cast_table();
  test_cast_values();
  test_cast_doc_examples();
  test_cast_signed_zeros();
  test_supported();
  test_scalar_access();
  test_fallbacks();
  printf("vecmath: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
