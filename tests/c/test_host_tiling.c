/* The matmul tiling of asc.lib.host (src/host/matmul_tiling.c): over a
 * grid of shapes, types, core counts and options, every tiling it returns
 * satisfies the devkit's constraints (whole fractals, L0A/L0B/L0C/L1 and
 * bias-table capacities, depths and steps consistent, the cores' blocks
 * covering the matrix), and the inputs it must refuse return -1 with a
 * message and leave the output untouched. */
#include <stdio.h>
#include <string.h>

#include "asc/host.h"

static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);               \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
    }                                                                          \
  } while (0)

static int bits(int dt) { return asc_matmul_dtype_bits(dt); }

static void check_invariants(const AscMatmulTilingArgs *a,
                             const AscTCubeTiling *t,
                             const AscMatmulTilingSplit *sp, int m, int n,
                             int k) {
  int k0 = 256 / bits(a->a_dtype);
  const char *w = "shape";
  CHECK(t->M == m && t->N == n && t->Ka == k && t->Kb == k, "%s", w);
  CHECK(t->baseM > 0 && t->baseM % 16 == 0, "baseM %d", t->baseM);
  CHECK(t->baseN > 0 && t->baseN % 16 == 0, "baseN %d", t->baseN);
  CHECK(t->baseK > 0 && t->baseK % k0 == 0, "baseK %d k0 %d", t->baseK, k0);
  long long a_blk = (long long)t->baseM * t->baseK * bits(a->a_dtype) / 8;
  long long b_blk = (long long)t->baseN * t->baseK * bits(a->b_dtype) / 8;
  CHECK(a_blk * t->dbL0A <= a->l0a_size, "L0A %lld x %d", a_blk, t->dbL0A);
  CHECK(b_blk * t->dbL0B <= a->l0b_size, "L0B %lld x %d", b_blk, t->dbL0B);
  CHECK((long long)t->baseM * t->baseN * 4 * t->dbL0C <= a->l0c_size,
        "L0C %d x %d", t->baseM, t->baseN);
  CHECK(t->depthA1 % (t->stepM * t->stepKa) == 0, "depthA1 %d", t->depthA1);
  CHECK(t->depthB1 % (t->stepN * t->stepKb) == 0, "depthB1 %d", t->depthB1);
  long long bias =
      t->isBias ? (long long)t->baseN * bits(a->bias_dtype) / 8 : 0;
  long long l1 = t->depthA1 * a_blk + t->depthB1 * b_blk + bias;
  CHECK(l1 <= a->l1_size && l1 == t->shareL1Size, "L1 %lld share %d", l1,
        t->shareL1Size);
  if (t->isBias)
    CHECK(bias <= a->bt_size, "bias table %lld", bias);
  int k_iters = (t->singleCoreK + t->baseK - 1) / t->baseK;
  CHECK(t->stepKa >= 1 && t->stepKa <= k_iters && k_iters % t->stepKa == 0,
        "stepKa %d", t->stepKa);
  CHECK(t->iterateOrder == 0 || t->iterateOrder == 1, "order %d",
        t->iterateOrder);
  /* the cores' blocks cover M x N */
  CHECK((long long)sp->m_dim * t->singleCoreM >= m &&
            (long long)sp->n_dim * t->singleCoreN >= n,
        "split %d x %d of %d x %d", sp->m_dim, sp->n_dim, t->singleCoreM,
        t->singleCoreN);
  CHECK(t->usedCoreNum >= 1 && t->usedCoreNum <= a->dim &&
            t->usedCoreNum == sp->m_dim * sp->n_dim,
        "used %d dim %d", t->usedCoreNum, a->dim);
  CHECK(t->singleCoreK == k, "singleCoreK %d", t->singleCoreK);
}

static void grid(const AscPlatform *p) {
  static const int types[][3] = {
      {ASC_MM_DT_FLOAT16, ASC_MM_DT_FLOAT, ASC_MM_DT_FLOAT},
      {ASC_MM_DT_BF16, ASC_MM_DT_FLOAT, ASC_MM_DT_FLOAT},
      {ASC_MM_DT_INT8, ASC_MM_DT_INT32, ASC_MM_DT_INT32},
      {ASC_MM_DT_FLOAT, ASC_MM_DT_FLOAT, ASC_MM_DT_FLOAT}};
  static const int shapes[][3] = {
      {1, 1, 1},      {16, 16, 16},       {33, 17, 9},    {128, 256, 64},
      {1000, 30, 77}, {1024, 1024, 1024}, {7, 4096, 513}, {4096, 8, 8192}};
  static const int dims[] = {1, 2, 8, 24, 48};
  int count = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
      for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++)
        for (int bias = 0; bias < 2; bias++) {
          AscMatmulTilingArgs a;
          asc_matmul_tiling_args_init(&a, ASC_MM_TILING_MULTI_CORE, p);
          a.a_dtype = a.b_dtype = types[ti][0];
          a.c_dtype = types[ti][1];
          a.bias_dtype = types[ti][2];
          a.is_bias = bias;
          a.a_trans = (int)(si & 1);
          a.dim = dims[di];
          int m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
          a.org_m = a.single_m = m;
          a.org_n = a.single_n = n;
          a.org_ka = a.org_kb = a.single_k = k;
          AscTCubeTiling t;
          AscMatmulTilingSplit sp;
          char err[256];
          int ret = asc_matmul_tiling_compute(&a, &t, &sp, err, sizeof err);
          CHECK(ret == 0, "type %zu shape %dx%dx%d dim %d: %s", ti, m, n, k,
                a.dim, err);
          if (ret == 0)
            check_invariants(&a, &t, &sp, m, n, k);
          count++;
        }
  CHECK(count == 4 * 8 * 5 * 2, "%d", count);
}

static void refusals(const AscPlatform *p) {
  AscMatmulTilingArgs base;
  asc_matmul_tiling_args_init(&base, ASC_MM_TILING_SINGLE_CORE, p);
  base.org_m = base.single_m = 64;
  base.org_n = base.single_n = 64;
  base.org_ka = base.org_kb = base.single_k = 64;
  struct {
    const char *what;
    AscMatmulTilingArgs a;
  } cases[8];
  int nc = 0;
  cases[nc].what = "no shape";
  cases[nc].a = base;
  cases[nc].a.single_m = cases[nc].a.org_m = -1;
  nc++;
  cases[nc].what = "zero K";
  cases[nc].a = base;
  cases[nc].a.single_k = 0;
  nc++;
  cases[nc].what = "A int16";
  cases[nc].a = base;
  cases[nc].a.a_dtype = ASC_MM_DT_INT16;
  nc++;
  cases[nc].what = "A fp16, B int8";
  cases[nc].a = base;
  cases[nc].a.a_dtype = ASC_MM_DT_FLOAT16;
  cases[nc].a.b_dtype = ASC_MM_DT_INT8;
  nc++;
  cases[nc].what = "fixed base beyond L0C";
  cases[nc].a = base;
  cases[nc].a.base_m = 256;
  cases[nc].a.base_n = 256;
  cases[nc].a.base_k = 16;
  nc++;
  cases[nc].what = "fixed base beyond L0A";
  cases[nc].a = base;
  cases[nc].a.base_m = 128;
  cases[nc].a.base_k = 256; /* fp32: 128 KiB */
  nc++;
  cases[nc].what = "L1 too small";
  cases[nc].a = base;
  cases[nc].a.l1_size = 64;
  nc++;
  cases[nc].what = "no cores";
  cases[nc].a = base;
  cases[nc].a.kind = ASC_MM_TILING_MULTI_CORE;
  cases[nc].a.dim = 0;
  nc++;
  for (int i = 0; i < nc; i++) {
    AscTCubeTiling t;
    memset(&t, 0x5a, sizeof t);
    AscTCubeTiling before = t;
    char err[256] = "";
    int ret = asc_matmul_tiling_compute(&cases[i].a, &t, NULL, err, sizeof err);
    CHECK(ret == -1, "%s: returned %d", cases[i].what, ret);
    CHECK(err[0] != '\0', "%s: no message", cases[i].what);
    CHECK(memcmp(&t, &before, sizeof t) == 0, "%s: output changed",
          cases[i].what);
  }
}

static void fixed_and_ranges(const AscPlatform *p) {
  AscMatmulTilingArgs a;
  asc_matmul_tiling_args_init(&a, ASC_MM_TILING_SINGLE_CORE, p);
  a.org_m = a.single_m = 32;
  a.org_n = a.single_n = 16;
  a.org_ka = a.org_kb = a.single_k = 8;
  a.base_m = 32;
  a.base_n = 16;
  a.base_k = 8; /* fp32: k0 is 8 */
  AscTCubeTiling t;
  AscMatmulTilingSplit sp;
  char err[256];
  CHECK(asc_matmul_tiling_compute(&a, &t, &sp, err, sizeof err) == 0, "%s",
        err);
  CHECK(t.baseM == 32 && t.baseN == 16 && t.baseK == 8, "fixed %d %d %d",
        t.baseM, t.baseN, t.baseK);
  /* split range: bases stay within it */
  asc_matmul_tiling_args_init(&a, ASC_MM_TILING_SINGLE_CORE, p);
  a.a_dtype = a.b_dtype = ASC_MM_DT_FLOAT16;
  a.org_m = a.single_m = a.org_n = a.single_n = 1024;
  a.org_ka = a.org_kb = a.single_k = 1024;
  a.max_base_m = a.max_base_n = 64;
  a.min_base_m = a.min_base_n = 32;
  CHECK(asc_matmul_tiling_compute(&a, &t, &sp, err, sizeof err) == 0, "%s",
        err);
  CHECK(t.baseM >= 32 && t.baseM <= 64 && t.baseN >= 32 && t.baseN <= 64,
        "range %d %d", t.baseM, t.baseN);
  /* traverse: the order asked for */
  a.traverse = 2;
  CHECK(asc_matmul_tiling_compute(&a, &t, &sp, err, sizeof err) == 0, "%s",
        err);
  CHECK(t.iterateOrder == 1, "order %d", t.iterateOrder);
  /* more cores than blocks: only as many used as there are blocks */
  asc_matmul_tiling_args_init(&a, ASC_MM_TILING_MULTI_CORE, p);
  a.org_m = a.single_m = 16;
  a.org_n = a.single_n = 16;
  a.org_ka = a.org_kb = a.single_k = 16;
  a.dim = 48;
  CHECK(asc_matmul_tiling_compute(&a, &t, &sp, err, sizeof err) == 0, "%s",
        err);
  CHECK(t.usedCoreNum == 1, "used %d", t.usedCoreNum);
  /* memory sizes */
  uint64_t size = 0;
  CHECK(asc_host_core_mem_size(p, ASC_MEM_L0_A, &size) == 0 && size == 65536,
        "L0A %llu", (unsigned long long)size);
  CHECK(asc_host_core_mem_size(p, ASC_MEM_L1, &size) == 0 &&
            size == p->l1_size - 256,
        "L1");
  CHECK(asc_host_core_mem_size(p, 42, &size) == -1, "bad type");
}

int main(void) {
  const AscPlatform *p = asc_platform_get("Ascend910B1");
  CHECK(p != NULL, "platform");
  if (!p)
    return 1;
  CHECK(ASC_TCUBE_TILING_NFIELDS == 50, "%d", ASC_TCUBE_TILING_NFIELDS);
  grid(p);
  refusals(p);
  fixed_and_ranges(p);
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  return failures != 0;
}
