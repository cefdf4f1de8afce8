/* The SIMD kernels of src/sim/vecmath_simd.c against the portable loops
 * and an independent reference, bit for bit.
 *
 * Every case runs the same input through asc_vec_* twice: with the SIMD
 * kernels (when the host has AVX2, FMA and F16C) and with them switched
 * off (asc_vecmath_set_simd(0)), and the two results must be the same
 * bits.  Exp and Ln on float are also checked against the reference
 * computed here (libm's double exp/log rounded once to float), the
 * half -> float cast against a decoding of the half's fields.
 *
 * Inputs: every float32 class (both signs of zero, subnormals, normals of
 * every exponent, inf, quiet and signalling NaN with payloads, the edges
 * of the range the fast code covers and of float's range, results next to
 * float rounding boundaries), all 65536 halves and bfloat16s, and a large
 * random sample.  `test_vecmath_simd --exhaustive` also runs Exp and Ln on
 * all 2^32 floats (minutes; not part of `meson test`). */
#include "bits.h"
#include "sim/vecmath.h"
#include "sim/vecmath_simd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#ifdef __OPTIMIZE__
#define SAMPLE (1 << 24)
#else /* the debug and sanitizer builds run unoptimised SIMD code */
#define SAMPLE (1 << 20)
#endif

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint64_t rnd(void) { return xorshift64(&rng_state); }

/* The reference: libm in double, rounded once to float (exp overflows to
 * inf at float's threshold). */
static float ref_exp(float x) {
  double r = exp((double)x);
  return r >= 0x1.ffffffp127 ? INFINITY : (float)r;
}
static float ref_ln(float x) { return (float)log((double)x); }

/* The first index where the two byte arrays of n elements of `size` bytes
 * differ, or -1. */
static int64_t first_diff(const void *a, const void *b, int64_t n, int size) {
  const unsigned char *p = a, *q = b;
  for (int64_t i = 0; i < n; i++)
    if (memcmp(p + i * size, q + i * size, (size_t)size))
      return i;
  return -1;
}

/* Runs unary `op` on dtype dt over src with the SIMD kernels of `level`
 * (asc_vecmath_set_simd) and with the portable loops. */
static void both_unary(int level, AscVecUnOp op, AscDType dt, const void *src,
                       int64_t n, void *out_simd, void *out_port) {
  asc_vecmath_set_simd(level);
  asc_vec_unary(op, dt, out_simd, src, n);
  asc_vecmath_set_simd(0);
  asc_vec_unary(op, dt, out_port, src, n);
  asc_vecmath_set_simd(2);
}

/* Float Exp and Ln over xs: SIMD == portable == reference, bit for bit. */
static void check_f32(const char *what, const float *xs, int64_t n) {
  float *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
  if (!a || !b) {
    report(0, __FILE__, __LINE__, "out of memory");
    free(a);
    free(b);
    return;
  }
  for (int op = 0; op < 4; op++) {
    AscVecUnOp u = op & 1 ? ASC_VUN_LN : ASC_VUN_EXP;
    int level = op < 2 ? 2 : 1; /* AVX-512 where present, then AVX2 only */
    both_unary(level, u, ASC_DT_FLOAT32, xs, n, a, b);
    int64_t i = first_diff(a, b, n, 4);
    report(i < 0, __FILE__, __LINE__,
           "%s %s (level %d): simd %08x != portable %08x for x = %08x (%a)",
           what, op & 1 ? "ln" : "exp", level, i < 0 ? 0 : f2u(a[i]),
           i < 0 ? 0 : f2u(b[i]), i < 0 ? 0 : f2u(xs[i]),
           i < 0 ? 0.0 : (double)xs[i]);
    for (i = 0; i < n; i++) {
      float r = op & 1 ? ref_ln(xs[i]) : ref_exp(xs[i]);
      if (f2u(r) != f2u(a[i]))
        break;
    }
    report(i == n, __FILE__, __LINE__,
           "%s %s (level %d): got %08x, reference %08x for x = %08x (%a)", what,
           op & 1 ? "ln" : "exp", level, i < n ? f2u(a[i]) : 0,
           i < n ? f2u(op & 1 ? ref_ln(xs[i]) : ref_exp(xs[i])) : 0,
           i < n ? f2u(xs[i]) : 0, i < n ? (double)xs[i] : 0.0);
  }
  free(a);
  free(b);
}

/* Floats whose exp / ln lies next to a float rounding boundary: the
 * double result's 29 bits below float precision are within 2^14 of a
 * midpoint (these take the scalar fallback in the SIMD kernels). */
static int near_boundary(double r) {
  uint64_t u;
  memcpy(&u, &r, 8);
  int64_t l = (int64_t)(u & ((UINT64_C(1) << 29) - 1)) - (INT64_C(1) << 28);
  return l > -(1 << 14) && l < (1 << 14);
}

static void test_f32_classes(void) {
  enum { CAP = 1 << 21 };
  float *xs = malloc(sizeof *xs * CAP);
  int64_t n = 0;
  if (!xs) {
    report(0, __FILE__, __LINE__, "out of memory");
    return;
  }
#define PUSH(v)                                                                \
  do {                                                                         \
    if (n < CAP)                                                               \
      xs[n++] = (v);                                                           \
  } while (0)
  /* a stride through all bit patterns: every exponent, both signs,
   * subnormals, inf, NaNs */
  for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += 4099)
    PUSH(u2f((uint32_t)u));
  /* specials and NaN payloads */
  static const uint32_t spc[] = {
      0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
      0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
      0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF,
      0x7FFFFFFF, 0xFFFFFFFF, 0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3F800001,
      0x33800000, 0xB3800000, 0x33000000, 0xB3000000, 0x33000001, 0xB2FFFFFF};
  for (size_t k = 0; k < sizeof spc / sizeof spc[0]; k++)
    PUSH(u2f(spc[k]));
  /* +-256 floats around the edges: the SIMD exp's covered range (-87,
   * 88.5), float's normal results (-87.336), exp's underflow to 0
   * (-103.97) and to the smallest subnormal, overflow (88.7228), ln's
   * argument 1, and the powers of two */
  static const float edge[] = {-87.0f,      88.5f,     -87.33654f, -103.972084f,
                               -103.27893f, 88.72284f, 1.0f,       0.5f,
                               2.0f,        0x1p-126f, 0x1p-149f,  0x1p127f};
  for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++)
    for (int d = -256; d <= 256; d++)
      PUSH(u2f(f2u(edge[k]) + (uint32_t)d));
  /* inputs whose results are next to a float midpoint */
  int64_t near_exp = 0, near_ln = 0;
  for (int k = 0; k < (1 << 22); k++) {
    float x = u2f((uint32_t)rnd());
    if (x > -104.0f && x < 89.0f && near_boundary(exp((double)x)) &&
        near_exp < 4096) {
      PUSH(x);
      near_exp++;
    }
    x = u2f((uint32_t)rnd() & 0x7FFFFFFFu);
    if (x > 0 && x < INFINITY && near_boundary(log((double)x)) &&
        near_ln < 4096) {
      PUSH(x);
      near_ln++;
    }
  }
  CHECK(near_exp > 16 && near_ln > 16);
  /* the floats in exp's covered range and the positive normal floats whose
   * exp resp. ln, in libm's double, lies within 8 units of the double's last
   * place of a float midpoint (8 of them exactly on one): a scan of all
   * 2^32 floats.  The SIMD results here are only a few dozen units away
   * from libm's, enough to round across; the boundary test must catch
   * every one. */
  static const uint32_t hard[] = {
      0x022ae487, 0x064cb44b, 0x07c060fa, 0x0dc8bba4, 0x0f61ff63, 0x111c87f8,
      0x145cb6d4, 0x14907055, 0x158772eb, 0x16c5ee7a, 0x18b06f2a, 0x1a8446cb,
      0x1aac80dc, 0x1b81ab52, 0x1dc9e7c1, 0x1f116ab8, 0x22925ad4, 0x22f6d580,
      0x2423c085, 0x25be734f, 0x25f12e61, 0x2758eec4, 0x27a51454, 0x28e3fa26,
      0x29e6126b, 0x29fd22f8, 0x2c4c24b7, 0x2e492984, 0x36fdffc1, 0x377eff81,
      0x383a3ef1, 0x38dcbe38, 0x38e69cc1, 0x39c31348, 0x39c6be5b, 0x39e5bb1d,
      0x3bf86ef0, 0x3c413d3a, 0x3d1a274e, 0x3e2b3421, 0x3fd364d7, 0x4001b249,
      0x40315b33, 0x41178feb, 0x44bc4360, 0x464d5b2b, 0x4665a9a6, 0x46ca6c75,
      0x4b77325a, 0x4bf70db3, 0x4c5d65a5, 0x4d604ebe, 0x4e85f412, 0x4fe4ab24,
      0x54af989d, 0x5b98e163, 0x5d800341, 0x5d8b2d5b, 0x5ee8984e, 0x5f64c24a,
      0x62b467ba, 0x63b134d9, 0x64e27fa3, 0x65d890d3, 0x66a8c860, 0x66abbd63,
      0x6914cb96, 0x6d1f23eb, 0x6e7054f2, 0x6f31a8ec, 0x736cc271, 0x7405dee8,
      0x79e7ec37, 0x7d98b8f4, 0xb3000000, 0xbae0e25c, 0xbbf0edf1, 0xc16912cd};
  for (size_t k = 0; k < sizeof hard / sizeof hard[0]; k++)
    PUSH(u2f(hard[k]));
  /* exp(x) = 1 +- a half ulp region: tiny x */
  for (int e = -30; e <= -20; e++)
    for (int d = -4; d <= 4; d++) {
      PUSH(u2f(f2u(ldexpf(1.0f, e)) + (uint32_t)d));
      PUSH(-u2f(f2u(ldexpf(1.0f, e)) + (uint32_t)d));
    }
#undef PUSH
  CHECK(n < CAP);
  check_f32("classes", xs, n);
  /* in place (dst == src), an odd count (a tail of every width) */
  float *ip = malloc(sizeof *ip * 1001), *ref = malloc(sizeof *ref * 1001);
  if (ip && ref) {
    for (int op = 0; op < 2; op++) {
      for (int i = 0; i < 1001; i++) {
        ip[i] = xs[(int64_t)i * 997 % n];
        ref[i] = op ? ref_ln(ip[i]) : ref_exp(ip[i]);
      }
      asc_vec_unary(op ? ASC_VUN_LN : ASC_VUN_EXP, ASC_DT_FLOAT32, ip, ip,
                    1001);
      CHECK(first_diff(ip, ref, 1001, 4) < 0);
    }
  }
  free(ip);
  free(ref);
  free(xs);
}

static void test_f32_random(void) {
  float *xs = malloc(sizeof *xs * SAMPLE);
  if (!xs) {
    report(0, __FILE__, __LINE__, "out of memory");
    return;
  }
  /* half uniform over all bit patterns, half over exp's finite range */
  for (int64_t i = 0; i < SAMPLE; i++) {
    uint64_t r = rnd();
    xs[i] = i & 1 ? u2f((uint32_t)r)
                  : (float)((double)(r >> 11) * 0x1p-53 * 193.0 - 104.0);
  }
  check_f32("random", xs, SAMPLE);
  free(xs);
}

/* All halves / bfloat16s through every float unary op, both ways. */
static void test_16bit_unary(void) {
  static uint16_t h[65536], a[65536], b[65536];
  static const AscVecUnOp ops[] = {
      ASC_VUN_EXP,           ASC_VUN_LN,         ASC_VUN_SQRT,
      ASC_VUN_RSQRT,         ASC_VUN_RECIPROCAL, ASC_VUN_RSQRT_HW,
      ASC_VUN_RECIPROCAL_HW, ASC_VUN_RELU,       ASC_VUN_ABS};
  for (int i = 0; i < 65536; i++)
    h[i] = (uint16_t)i;
  for (int t = 0; t < 2; t++) {
    AscDType dt = t ? ASC_DT_BFLOAT16 : ASC_DT_FLOAT16;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      for (int level = 2; level >= 1; level--) {
        both_unary(level, ops[k], dt, h, 65536, a, b);
        int64_t i = first_diff(a, b, 65536, 2);
        report(i < 0, __FILE__, __LINE__,
               "%s op %d (level %d): simd %04x != portable %04x for %04x",
               t ? "bf16" : "f16", (int)ops[k], level, i < 0 ? 0 : a[i],
               i < 0 ? 0 : b[i], (unsigned)(i < 0 ? 0 : i));
      }
    }
  }
  /* in place */
  memcpy(a, h, sizeof a);
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT16, a, a, 65536);
  asc_vecmath_set_simd(0);
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT16, b, h, 65536);
  asc_vecmath_set_simd(2);
  CHECK(first_diff(a, b, 65536, 2) < 0);
}

/* All halves against partners (a permutation of all halves, and the
 * specials) through the binary and scalar ops, both ways. */
static void test_f16_binary(void) {
  static uint16_t x[65536], y[65536], a[65536], b[65536];
  static const AscVecBinOp ops[] = {
      ASC_VBIN_ADD, ASC_VBIN_SUB, ASC_VBIN_MUL,      ASC_VBIN_DIV,
      ASC_VBIN_MAX, ASC_VBIN_MIN, ASC_VBIN_ADD_RELU, ASC_VBIN_SUB_RELU};
  static const uint16_t partners[] = {
      0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00,
      0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFD55, 0x3555};
  for (int i = 0; i < 65536; i++)
    x[i] = (uint16_t)i;
  for (int p = -1; p < (int)(sizeof partners / sizeof partners[0]); p++) {
    for (int i = 0; i < 65536; i++)
      y[i] = p < 0 ? (uint16_t)((uint32_t)i * 40503u + 7u) : partners[p];
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      asc_vec_binary(ops[k], ASC_DT_FLOAT16, a, x, y, 65536);
      asc_vecmath_set_simd(0);
      asc_vec_binary(ops[k], ASC_DT_FLOAT16, b, x, y, 65536);
      asc_vecmath_set_simd(2);
      int64_t i = first_diff(a, b, 65536, 2);
      report(i < 0, __FILE__, __LINE__,
             "f16 binary op %d: simd %04x != portable %04x for %04x, %04x",
             (int)ops[k], i < 0 ? 0 : a[i], i < 0 ? 0 : b[i], i < 0 ? 0 : x[i],
             i < 0 ? 0 : y[i]);
    }
  }
  /* tensor-scalar forms, scalars of every class (a NaN scalar takes the
   * portable loop) */
  static const double scal[] = {0.0,  -0.0,     1.5,       -3.25, 65504.0,
                                1e-7, INFINITY, -INFINITY, NAN,   70000.0};
  static const AscVecScalarOp sops[] = {ASC_VSCA_ADDS, ASC_VSCA_MULS,
                                        ASC_VSCA_MAXS, ASC_VSCA_MINS,
                                        ASC_VSCA_LEAKY_RELU};
  for (size_t s = 0; s < sizeof scal / sizeof scal[0]; s++)
    for (size_t k = 0; k < sizeof sops / sizeof sops[0]; k++) {
      AscScalar sc = {scal[s], 0};
      asc_vec_scalar(sops[k], ASC_DT_FLOAT16, a, x, sc, 65536);
      asc_vecmath_set_simd(0);
      asc_vec_scalar(sops[k], ASC_DT_FLOAT16, b, x, sc, 65536);
      asc_vecmath_set_simd(2);
      int64_t i = first_diff(a, b, 65536, 2);
      report(i < 0, __FILE__, __LINE__,
             "f16 scalar op %d, %g: simd %04x != portable %04x for %04x",
             (int)sops[k], scal[s], i < 0 ? 0 : a[i], i < 0 ? 0 : b[i],
             (unsigned)(i < 0 ? 0 : i));
    }
  /* in place: dst is src0 */
  memcpy(a, x, sizeof a);
  asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT16, a, a, y, 65536);
  asc_vecmath_set_simd(0);
  asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT16, b, x, y, 65536);
  asc_vecmath_set_simd(2);
  CHECK(first_diff(a, b, 65536, 2) < 0);
}

/* The half's value from its fields (independent of vecmath). */
static float decode_half(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float s = h & 0x8000 ? -1.0f : 1.0f;
  if (e == 0)
    return s * ldexpf((float)m, -24);
  if (e < 31)
    return s * ldexpf((float)(1024 + m), e - 25);
  /* inf / NaN: the payload in the float's top mantissa bits, as is */
  return u2f((h & 0x8000u) << 16 | 0x7F800000u | (uint32_t)m << 13);
}

static void test_f16_casts(void) {
  static uint16_t h[65536], ha[65536], hb[65536];
  static float f[65536], fa[65536], fb[65536];
  for (int i = 0; i < 65536; i++)
    h[i] = (uint16_t)i;
  /* half -> float: all halves, against the decoding and both ways */
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, fa, h, 65536);
  asc_vecmath_set_simd(0);
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, fb, h, 65536);
  asc_vecmath_set_simd(2);
  int64_t i = first_diff(fa, fb, 65536, 4);
  report(i < 0, __FILE__, __LINE__, "f16->f32 simd %08x != portable %08x",
         i < 0 ? 0 : f2u(fa[i]), i < 0 ? 0 : f2u(fb[i]));
  for (i = 0; i < 65536; i++)
    if (f2u(fa[i]) != f2u(decode_half((uint16_t)i)))
      break;
  report(i == 65536, __FILE__, __LINE__, "f16->f32 of %04x: %08x", (unsigned)i,
         i < 65536 ? f2u(fa[i]) : 0);
  /* float -> half: the boundary classes of every half: its value, the
   * midpoint to the next half and the floats either side of it, NaN
   * payloads (quiet and signalling), and the overflow threshold */
  for (int mode = 0; mode < 2; mode++) {
    AscRoundMode rm = mode ? ASC_ROUND_RINT : ASC_ROUND_NONE;
    for (int cls = 0; cls < 4; cls++) {
      for (i = 0; i < 65536; i++) {
        float v = decode_half((uint16_t)i);
        float next = decode_half((uint16_t)(i + 1));
        if (cls == 0 || !(fabsf(v) < 65504.0f) || ((i + 1) & 0x7FFF) == 0 ||
            ((i + 1) & 0x7C00) == 0x7C00) {
          f[i] = cls == 3 ? u2f(((uint32_t)i << 16) | (uint32_t)(i * 31)) : v;
        } else {
          float mid = (v + next) / 2; /* exact: halves have 11 bits */
          f[i] = cls == 1 ? mid : u2f(f2u(mid) + (cls == 2 ? 1u : -1u));
        }
      }
      f[0] = 65519.996f;
      f[1] = 65520.0f;
      f[2] = -65520.0f;
      f[3] = 0x1p-25f;
      f[4] = 0x1.000002p-25f;
      f[5] = u2f(0x7F800001);
      f[6] = u2f(0xFFBFFFFF);
      f[7] = u2f(0x7F802000);
      asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, rm, ha, f, 65536);
      asc_vecmath_set_simd(0);
      asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, rm, hb, f, 65536);
      asc_vecmath_set_simd(2);
      i = first_diff(ha, hb, 65536, 2);
      report(i < 0, __FILE__, __LINE__,
             "f32->f16 class %d: simd %04x != portable %04x for %08x", cls,
             i < 0 ? 0 : ha[i], i < 0 ? 0 : hb[i], i < 0 ? 0 : f2u(f[i]));
      for (i = 0; i < 65536; i++)
        if (ha[i] != asc_f32_to_f16(f[i]))
          break;
      report(i == 65536, __FILE__, __LINE__, "f32->f16 != asc_f32_to_f16");
    }
  }
  /* spot values, independent of vecmath */
  f[0] = 1.0f + 0x1p-11f; /* a tie: to even (1.0) */
  f[1] = 1.0f + 0x1p-11f + 0x1p-23f;
  f[2] = 65520.0f;        /* rounds up to inf */
  f[3] = 0x1p-25f;        /* a tie with 0: to 0 */
  f[4] = u2f(0x7FA00000); /* a signalling NaN keeps its top payload */
  asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_RINT, ha, f, 5);
  CHECK_EQ(ha[0], 0x3C00);
  CHECK_EQ(ha[1], 0x3C01);
  CHECK_EQ(ha[2], 0x7C00);
  CHECK_EQ(ha[3], 0x0000);
  CHECK_EQ(ha[4], 0x7D00);
}

/* Exp and Ln on all 2^32 floats (by hand: --exhaustive). */
static void exhaustive(void) {
  enum { CH = 1 << 20 };
  static float xs[CH];
  for (uint64_t base = 0; base < (UINT64_C(1) << 32); base += CH) {
    for (int i = 0; i < CH; i++)
      xs[i] = u2f((uint32_t)(base + (uint64_t)i));
    check_f32("exhaustive", xs, CH);
  }
}

int main(int argc, char **argv) {
  asc_vecmath_set_simd(2);
  /* Without the SIMD kernels both runs take the portable loops: the
   * comparisons with the references still hold. */
  printf("test_vecmath_simd: SIMD kernels: %s\n",
         asc_simd_on() ? "on" : "not on this host");
  if (argc > 1 && !strcmp(argv[1], "--exhaustive")) {
    exhaustive();
  } else {
    test_f32_classes();
    test_f32_random();
    test_16bit_unary();
    test_f16_binary();
    test_f16_casts();
  }
  printf("test_vecmath_simd: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
