/* family: cube. Unit test of sim_hf32_round (src/sim/cube_hf32.c) and
 * sim_fixpipe_convert (src/sim/cube_fixpipe.c).
 *
 * The HF32 reference is computed here independently, in double with libm:
 * a value with exponent e (at least fp32's -126) is a multiple of 2^(e -
 * 11) in HF32 (11 mantissa bits), reached by rint (ties to even) or round
 * (ties away from zero: SetHF32's transMode 1). */
#include <math.h>
#include <stdint.h>

#include "bits.h"
#include "check.h"
#include "sim/cube.h"
#include "sim/vecmath.h"

static float hf32_ref(float v, int ties_away) {
  if (!isfinite(v) || v == 0)
    return v;
  int e = ilogb(v);
  if (e < -126)
    e = -126;
  double step = ldexp(1.0, e - 11);
  double q = (double)v / step;
  q = ties_away ? round(q) : rint(q);
  return (float)(q * step); /* an overflow to inf is fp32's too */
}

static void test_hf32(void) {
  /* the bits around the rounding point, both signs, and a sweep */
  const float cases[] = {1.0f,
                         u2f(0x3f800800u), /* 1 + 2^-12: a tie, even */
                         u2f(0x3f801800u), /* 1 + 3 * 2^-12: a tie, odd */
                         u2f(0x3f800801u),
                         u2f(0x3f8007ffu),
                         -u2f(0x3f801800u),
                         u2f(0x7f7fffffu), /* FLT_MAX: rounds up to inf */
                         u2f(0x00000fffu), /* a subnormal */
                         u2f(0x00000800u),
                         -0.0f,
                         3.14159265f};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int tz = 0; tz < 2; tz++) {
      float got = sim_hf32_round(cases[i], tz), want = hf32_ref(cases[i], tz);
      report(f2u(got) == f2u(want), __FILE__, __LINE__,
             "hf32(%a, %d) = %a, expected %a", cases[i], tz, got, want);
    }
  uint32_t u = 0x12345u;
  for (int i = 0; i < 20000; i++) {
    u = u * 1664525u + 1013904223u;
    float v = u2f(u);
    if (!isfinite(v))
      continue;
    for (int tz = 0; tz < 2; tz++) {
      float got = sim_hf32_round(v, tz), want = hf32_ref(v, tz);
      if (f2u(got) != f2u(want)) {
        report(0, __FILE__, __LINE__, "hf32(%a, %d) = %a, expected %a", v, tz,
               got, want);
        return;
      }
    }
  }
  passed++;
  CHECK(isnan(sim_hf32_round(NAN, 0)));
  CHECK(sim_hf32_round(INFINITY, 1) == INFINITY);
  /* ties: to even, or away from zero (both signs) */
  CHECK(f2u(sim_hf32_round(u2f(0x3f801800u), 1)) == 0x3f802000u);
  CHECK(f2u(sim_hf32_round(u2f(0x3f801800u), 0)) == 0x3f802000u);
  CHECK(f2u(sim_hf32_round(u2f(0x3f800800u), 1)) == 0x3f801000u);
  CHECK(f2u(sim_hf32_round(u2f(0x3f800800u), 0)) == 0x3f800000u);
  CHECK(f2u(sim_hf32_round(u2f(0xbf800800u), 1)) == 0xbf801000u);
  CHECK(f2u(sim_hf32_round(u2f(0x3f8007ffu), 1)) == 0x3f800000u);
}

static uint64_t qp(float scale, int offset, int sign, int n, int mcb) {
  return (uint64_t)f2u(scale) | (uint64_t)(n & 15) << 32 |
         (uint64_t)(mcb & 1) << 36 | (uint64_t)(offset & 0x1ff) << 37 |
         (uint64_t)(sign & 1) << 46;
}

static int8_t req8(int32_t v, uint64_t q, int relu) {
  uint8_t out[4] = {0};
  sim_fixpipe_convert(7, q, relu, ASC_DT_INT32, (const uint8_t *)&v,
                      ASC_DT_INT8, out);
  return (int8_t)out[0];
}

static void test_fixpipe(void) {
  /* REQ8: x * 0.5 to nearest even (2.5 -> 2, 3.5 -> 4), the offset, int8 */
  CHECK_EQ(req8(5, qp(0.5f, 0, 1, 0, 0), 0), 2);
  CHECK_EQ(req8(7, qp(0.5f, 0, 1, 0, 0), 0), 4);
  CHECK_EQ(req8(-5, qp(0.5f, 0, 1, 0, 0), 0), -2);
  CHECK_EQ(req8(-5, qp(0.5f, 0, 1, 0, 0), 1), 0);       /* ReLU: M2 = 0 */
  CHECK_EQ(req8(100000, qp(1.0f, 0, 1, 0, 0), 0), 127); /* saturated */
  CHECK_EQ(req8(-100000, qp(1.0f, 0, 1, 0, 0), 0), -128);
  CHECK_EQ(req8(10, qp(1.0f, 5, 1, 0, 0), 0), 15); /* the offset */
  /* MCB: >> (N + 1) to int16 first: 64 >> 2 = 16 */
  CHECK_EQ(req8(64, qp(1.0f, 0, 1, 1, 1), 0), 16);
  /* unsigned: [0, 255] */
  {
    int32_t v = 200;
    uint8_t out[4];
    sim_fixpipe_convert(7, qp(1.0f, 0, 0, 0, 0), 0, ASC_DT_INT32,
                        (const uint8_t *)&v, ASC_DT_UINT8, out);
    CHECK_EQ(out[0], 200);
    v = -3;
    sim_fixpipe_convert(7, qp(1.0f, 0, 0, 0, 0), 0, ASC_DT_INT32,
                        (const uint8_t *)&v, ASC_DT_UINT8, out);
    CHECK_EQ(out[0], 0);
  }
  /* the scale's low 13 bits are not used */
  CHECK_EQ(req8(100, (uint64_t)0x3f801fffu | 1ull << 46, 0), 100);
  /* DEQF16: saturated to the half range */
  {
    int32_t v = 1000000;
    uint16_t h;
    sim_fixpipe_convert(3, qp(1.0f, 0, 0, 0, 0), 0, ASC_DT_INT32,
                        (const uint8_t *)&v, ASC_DT_FLOAT16, (uint8_t *)&h);
    CHECK_EQ(h, 0x7bff);
  }
  /* F322F16 keeps NaN; ReLU takes -1 to 0 */
  {
    float v = NAN, m1 = -1.0f;
    uint16_t h;
    sim_fixpipe_convert(1, 0, 0, ASC_DT_FLOAT32, (const uint8_t *)&v,
                        ASC_DT_FLOAT16, (uint8_t *)&h);
    CHECK((h & 0x7c00) == 0x7c00 && (h & 0x3ff));
    sim_fixpipe_convert(1, 0, 1, ASC_DT_FLOAT32, (const uint8_t *)&m1,
                        ASC_DT_FLOAT16, (uint8_t *)&h);
    CHECK_EQ(h, 0);
  }
  CHECK(sim_fixpipe_mode_ok(5, ASC_DT_FLOAT32, ASC_DT_INT8));
  CHECK(!sim_fixpipe_mode_ok(5, ASC_DT_INT32, ASC_DT_INT8));
  CHECK(sim_fixpipe_is_vector_mode(8) && !sim_fixpipe_is_vector_mode(7));
}

int main(void) {
  test_hf32();
  test_fixpipe();
  printf("test_cube_hf32: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
