/* family: matmul. The fast Mmad kernel (src/sim/cube_mmad.c) against its
 * scalar reference: bit-identical results (NaN where the reference has a
 * NaN) over random and edge inputs, every input type, shapes that are not
 * multiples of the fractals, the three starts of a sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/cube_mmad.h"
#include "sim/vecmath.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* Edge values of each type (bits), picked now and then among random ones. */
static const uint16_t half_edges[] = {0x0000, 0x8000, 0x7c00, 0xfc00,
                                      0x7e00, 0x0001, 0x8001, 0x03ff,
                                      0x7bff, 0xfbff, 0x3c00, 0x0400};
static const uint16_t bf16_edges[] = {0x0000, 0x8000, 0x7f80, 0xff80,
                                      0x7fc0, 0x0001, 0x8001, 0x007f,
                                      0x7f7f, 0xff7f, 0x3f80, 0x0080};
static const uint32_t f32_edges[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
    0x80000001, 0x007fffff, 0x7f7fffff, 0x3f800000, 0x00800000, 0x3f800001};

/* Fills n elements of type dt; edges: 1 in `edges` of them an edge value;
 * small: values of a few bits, so that sums are exact or near. */
static void fill(AscDType dt, uint8_t *p, int64_t n, int edges, int small) {
  for (int64_t i = 0; i < n; i++) {
    int edge = edges && next() % (unsigned)edges == 0;
    uint32_t r = next();
    if (dt == ASC_DT_FLOAT16) {
      uint16_t h =
          edge ? half_edges[r % 12]
               : asc_f32_to_f16(small ? (float)((int)(r % 17) - 8)
                                      : ((float)(r % 20001) - 10000) / 997.0f);
      memcpy(p + 2 * i, &h, 2);
    } else if (dt == ASC_DT_BFLOAT16) {
      uint16_t h = edge ? bf16_edges[r % 12]
                        : asc_f32_to_bf16(((float)(r % 20001) - 10000) / 97.0f);
      memcpy(p + 2 * i, &h, 2);
    } else if (dt == ASC_DT_FLOAT32) {
      float f = ((float)(r % 2000001) - 1000000) / 9973.0f;
      uint32_t u;
      memcpy(&u, &f, 4);
      if (edge)
        u = f32_edges[r % 12];
      memcpy(p + 4 * i, &u, 4);
    } else {
      uint8_t v = edge ? (uint8_t)((r & 1) ? 0x80 : 0x7f) : (uint8_t)r;
      p[i] = v;
    }
  }
}

static int same(AscDType in, const uint8_t *x, const uint8_t *y) {
  if (in == ASC_DT_INT8 || in == ASC_DT_UINT8)
    return memcmp(x, y, 4) == 0;
  float a, b;
  memcpy(&a, x, 4);
  memcpy(&b, y, 4);
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  return memcmp(x, y, 4) == 0;
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* hf32: 0 off, 1 HF32 ties to even, 2 HF32 ties away from zero */
static void one_mode(AscDType in, int64_t m, int64_t n, int64_t k, int start,
                     int edges, int hf32) {
  int64_t es = (int64_t)asc_dtype_size(in), k0 = 32 / es;
  int64_t m1 = cdiv(m, 16), n1 = cdiv(n, 16), k1 = cdiv(k, k0);
  int64_t na = m1 * k1 * 512, nb = k1 * n1 * 512, nc = m1 * n1 * 1024;
  uint8_t *a = malloc((size_t)na), *b = malloc((size_t)nb);
  uint8_t *c1 = malloc((size_t)nc), *c2 = malloc((size_t)nc);
  uint8_t *bias = malloc((size_t)(n * 4));
  fill(in, a, na / es, edges, 0);
  fill(in, b, nb / es, edges, 0);
  int integer = in == ASC_DT_INT8 || in == ASC_DT_UINT8;
  for (int64_t i = 0; i < nc / 4; i++) {
    uint32_t v = next();
    if (!integer) {
      float f = ((float)(v % 2001) - 1000) / 7.0f;
      memcpy(&v, &f, 4);
    }
    memcpy(c1 + 4 * i, &v, 4);
  }
  memcpy(c2, c1, (size_t)nc);
  memcpy(bias, c1, (size_t)(n * 4));
  SimMmad p = {in,       m,        n, k, start == 0, start == 1 ? bias : NULL,
               hf32 > 0, hf32 == 2};
  CHECK(sim_mmad_compute(&p, a, b, c1));
  sim_mmad_reference(&p, a, b, c2);
  int64_t bad = 0;
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < n; col++) {
      int64_t o =
          (((col / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + col % 16) * 4;
      bad += !same(in, c1 + o, c2 + o);
    }
  report(bad == 0, __FILE__, __LINE__,
         "%s m %lld n %lld k %lld start %d edges %d hf32 %d: %lld elements "
         "differ",
         asc_dtype_name(in), (long long)m, (long long)n, (long long)k, start,
         edges, hf32, (long long)bad);
  free(a);
  free(b);
  free(c1);
  free(c2);
  free(bias);
}

static void one(AscDType in, int64_t m, int64_t n, int64_t k, int start,
                int edges) {
  one_mode(in, m, n, k, start, edges, 0);
}

int main(void) {
  static const AscDType types[] = {ASC_DT_FLOAT16, ASC_DT_BFLOAT16,
                                   ASC_DT_FLOAT32, ASC_DT_INT8, ASC_DT_UINT8};
  static const int64_t shapes[][3] = {
      {1, 1, 1},  {16, 16, 16}, {17, 33, 5},  {7, 40, 70},   {32, 64, 64},
      {6, 32, 3}, {13, 1, 100}, {48, 95, 31}, {128, 256, 64}};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (int start = 0; start < 3; start++)
        one(types[t], shapes[s][0], shapes[s][1], shapes[s][2], start,
            s % 2 ? 5 : 0);
  /* half with many edges (inf - inf, 0 * inf, denormals, signed zeros) */
  for (int e = 2; e < 5; e++)
    one(ASC_DT_FLOAT16, 20, 35, 37, 0, e);
  one(ASC_DT_BFLOAT16, 20, 35, 37, 1, 2);
  one(ASC_DT_FLOAT32, 20, 35, 37, 2, 2);
  /* HF32 operands (SetHF32Mode): both rounding modes, the fast kernel and
   * the reference agree */
  for (int h = 1; h < 3; h++) {
    one_mode(ASC_DT_FLOAT32, 17, 33, 21, 0, 0, h);
    one_mode(ASC_DT_FLOAT32, 20, 35, 37, 1, 2, h);
  }
  printf("test_cube_mmad: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
