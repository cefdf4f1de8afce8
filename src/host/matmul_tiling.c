/* The matmul tiling of asc.lib.host (MatmulApiTiling, MultiCoreMatmulTiling,
 * BatchMatmulTiling: GetTiling), and the platform's memory sizes.
 *
 * Facts from the devkit (include/adv_api/matmul/matmul_tiling_base.h,
 * impl/adv_api/tiling/matmul/): the checks GetTiling makes before it
 * computes (baseM * baseK of A within L0A, baseK * baseN of B within L0B,
 * baseM * baseN fp32 within L0C, no zero shape), the fractal sizes (M and N
 * blocks of 16, K blocks of 32 bytes of A's type), what the TCubeTiling
 * members mean (depthA1 = stepM * stepKa * L1 buffers of A, the L1, L0C and
 * UB bytes in shareL1Size / shareL0CSize / shareUbSize, iterateOrder 0 for
 * M first, 1 for N first) and the 910B memories (L0A and L0B 64 KiB, L0C
 * 128 KiB, L1 512 KiB (less 256 bytes the platform keeps), bias table 1 KiB,
 * fixpipe buffer 2 KiB). The search itself is ours: docs/host_tiling.md says
 * what it chooses. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asc/host.h"

/* ---- platform ------------------------------------------------------------ */

#define L0A_BYTES (64u * 1024u)
#define L0B_BYTES (64u * 1024u)
#define BT_BYTES 1024u
#define FB_BYTES 2048u
/* what PlatformAscendC::GetCoreMemSize keeps back of UB and L1 on 910B
 * parts for the Matmul client/server messages (LOCAL_RESERV_SIZE) */
#define LOCAL_RESERVED 256u
/* 910B parts: L2 cache and HBM per chip (vendor specifications); a core
 * sees them whole */
#define L2_BYTES (192ull * 1024u * 1024u)
#define HBM_BYTES (64ull * 1024u * 1024u * 1024u)

int asc_host_core_mem_size(const AscPlatform *p, int type, uint64_t *size) {
  switch (type) {
  case ASC_MEM_L0_A:
    *size = L0A_BYTES;
    return 0;
  case ASC_MEM_L0_B:
    *size = L0B_BYTES;
    return 0;
  case ASC_MEM_L0_C:
    *size = p->l0c_size;
    return 0;
  case ASC_MEM_L1:
    *size = p->l1_size - LOCAL_RESERVED;
    return 0;
  case ASC_MEM_L2:
    *size = L2_BYTES;
    return 0;
  case ASC_MEM_UB:
    *size = p->ub_size - LOCAL_RESERVED;
    return 0;
  case ASC_MEM_HBM:
    *size = HBM_BYTES;
    return 0;
  case ASC_MEM_FB:
    *size = FB_BYTES;
    return 0;
  case ASC_MEM_BT:
    *size = BT_BYTES;
    return 0;
  case ASC_MEM_RESERVED:
    *size = 0;
    return 0;
  default:
    return -1;
  }
}

/* ---- settings --------------------------------------------------------------
 */

const char *const asc_matmul_tiling_arg_names[] = {
#define ASC_MMA_NAME_(name) #name,
    ASC_MATMUL_TILING_ARGS(ASC_MMA_NAME_)
#undef ASC_MMA_NAME_
        NULL};

void asc_matmul_tiling_args_init(AscMatmulTilingArgs *a, int kind,
                                 const AscPlatform *p) {
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->l1_size = (int32_t)(p->l1_size - LOCAL_RESERVED);
  a->l0a_size = (int32_t)L0A_BYTES;
  a->l0b_size = (int32_t)L0B_BYTES;
  a->l0c_size = (int32_t)p->l0c_size;
  a->ub_size = (int32_t)(p->ub_size - LOCAL_RESERVED);
  a->bt_size = (int32_t)BT_BYTES;
  a->core_num = p->cube_cores;
  a->a_pos = a->b_pos = a->c_pos = a->bias_pos = ASC_MM_POS_GM;
  a->a_dtype = a->b_dtype = a->c_dtype = a->bias_dtype = ASC_MM_DT_FLOAT;
  /* the devkit constructor's "not set" */
  a->org_m = a->org_n = a->org_ka = a->org_kb = -1;
  a->single_m = a->single_n = a->single_k = -1;
  a->base_m = a->base_n = a->base_k = -1;
  a->single_core_m = a->single_core_n = a->single_core_k = -1;
  a->max_base_m = a->max_base_n = a->max_base_k = INT32_MAX;
  a->min_base_m = a->min_base_n = a->min_base_k = 16;
  a->max_single_m = a->max_single_n = a->max_single_k = -1;
  a->min_single_m = a->min_single_n = a->min_single_k = -1;
  a->align_m = a->align_n = a->align_k = -1;
  a->dim = 1;
}

int asc_matmul_dtype_bits(int dtype) {
  switch (dtype) {
  case ASC_MM_DT_FLOAT:
  case ASC_MM_DT_INT32:
    return 32;
  case ASC_MM_DT_FLOAT16:
  case ASC_MM_DT_BF16:
  case ASC_MM_DT_BFLOAT16:
  case ASC_MM_DT_INT16:
    return 16;
  case ASC_MM_DT_INT8:
  case ASC_MM_DT_UINT8:
    return 8;
  case ASC_MM_DT_INT4:
    return 4;
  default:
    return 0;
  }
}

/* ---- the computation -------------------------------------------------------
 */

static int fail(char *err, size_t n, const char *fmt, ...) {
  if (n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int is_float_kind(int dt) {
  return dt == ASC_MM_DT_FLOAT || dt == ASC_MM_DT_FLOAT16 ||
         dt == ASC_MM_DT_BF16 || dt == ASC_MM_DT_BFLOAT16;
}

/* The A/B/C/bias types the cube unit of Ascend910B multiplies: A and B of
 * one type (fp16, bf16, fp32 as hf32/fp32, int8), C fp32/fp16/bf16 for
 * float inputs and int32/fp16/int8/bf16 (dequantised) for int8 ones. */
static int check_types(const AscMatmulTilingArgs *a, char *err, size_t n) {
  static const int ab_ok[] = {ASC_MM_DT_FLOAT, ASC_MM_DT_FLOAT16,
                              ASC_MM_DT_BF16, ASC_MM_DT_BFLOAT16,
                              ASC_MM_DT_INT8};
  int a_ok = 0;
  for (size_t i = 0; i < sizeof ab_ok / sizeof ab_ok[0]; i++)
    a_ok |= a->a_dtype == ab_ok[i];
  if (!a_ok)
    return fail(err, n,
                "the A matrix's data type (%d) is not one the cube unit "
                "multiplies (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT8)",
                a->a_dtype);
  int same =
      a->a_dtype == a->b_dtype ||
      (is_float_kind(a->a_dtype) && is_float_kind(a->b_dtype) &&
       asc_matmul_dtype_bits(a->a_dtype) == asc_matmul_dtype_bits(a->b_dtype) &&
       a->a_dtype != ASC_MM_DT_FLOAT16 && a->b_dtype != ASC_MM_DT_FLOAT16);
  if (!same)
    return fail(err, n,
                "the A and B matrices must have one data type, got %d and %d",
                a->a_dtype, a->b_dtype);
  int c = a->c_dtype;
  int c_ok = a->a_dtype == ASC_MM_DT_INT8
                 ? (c == ASC_MM_DT_INT32 || c == ASC_MM_DT_FLOAT16 ||
                    c == ASC_MM_DT_INT8 || c == ASC_MM_DT_BF16 ||
                    c == ASC_MM_DT_BFLOAT16)
                 : (c == ASC_MM_DT_FLOAT || c == ASC_MM_DT_FLOAT16 ||
                    c == ASC_MM_DT_BF16 || c == ASC_MM_DT_BFLOAT16 ||
                    /* fp16 / bf16 quantised to int8 (QF322B8_PRE) */
                    (c == ASC_MM_DT_INT8 && a->a_dtype != ASC_MM_DT_FLOAT));
  if (!c_ok)
    return fail(err, n,
                "the C matrix's data type (%d) is not an output of a "
                "matmul of data type %d",
                c, a->a_dtype);
  if (a->is_bias) {
    int bt = a->bias_dtype;
    int bias_ok = a->a_dtype == ASC_MM_DT_INT8
                      ? bt == ASC_MM_DT_INT32
                      : (bt == ASC_MM_DT_FLOAT || bt == ASC_MM_DT_FLOAT16 ||
                         bt == ASC_MM_DT_BF16 || bt == ASC_MM_DT_BFLOAT16);
    if (!bias_ok)
      return fail(err, n,
                  "the bias's data type (%d) is not one a matmul of data "
                  "type %d adds (int32 for int8, else fp32/fp16/bf16)",
                  bt, a->a_dtype);
  }
  return 0;
}

typedef struct Shape {
  int64_t m, n, k;
} Shape;

/* The per-core shape and the split of M and N over the cores. */
static int split_cores(const AscMatmulTilingArgs *a, Shape s, Shape *sc,
                       int64_t *m_dim, int64_t *n_dim, char *err, size_t n) {
  /* a batch (set_batch_num): the devkit's batch matmul reads each batch's
   * A, B and C as whole single-core matrices one after another (the NORMAL
   * layout's stride is singleCoreM x singleCoreK), so M and N are not split
   * over the cores (a kernel shares the batches out itself) */
  if (a->kind == ASC_MM_TILING_SINGLE_CORE || a->batch_num > 0) {
    *sc = s;
    *m_dim = *n_dim = 1;
    return 0;
  }
  if (a->dim <= 0)
    return fail(err, n, "set_dim: the number of cores must be positive, got %d",
                a->dim);
  int64_t align_m = a->align_m > 0 ? a->align_m : 16;
  int64_t align_n = a->align_n > 0 ? a->align_n : 16;
  sc->k = a->single_core_k > 0 ? a->single_core_k : s.k;
  if (a->single_core_m > 0 && a->single_core_n > 0) {
    sc->m = a->single_core_m;
    sc->n = a->single_core_n;
    *m_dim = ceil_div(s.m, sc->m);
    *n_dim = ceil_div(s.n, sc->n);
    return 0;
  }
  /* Every split of the cores into mDim x nDim: the per-core block of each
   * (aligned, so that each core's block is whole base blocks but the last),
   * costed as the cube work plus the loads of the busiest core. */
  int64_t best_cost = -1, best_m = 0, best_n = 0, best_used = 0;
  for (int64_t md = 1; md <= a->dim; md++) {
    int64_t nd_max = a->dim / md;
    for (int64_t nd = 1; nd <= nd_max; nd++) {
      int64_t cm = a->single_core_m > 0 ? a->single_core_m
                   : md == 1            ? s.m
                                        : align_up(ceil_div(s.m, md), align_m);
      int64_t cn = a->single_core_n > 0 ? a->single_core_n
                   : nd == 1            ? s.n
                                        : align_up(ceil_div(s.n, nd), align_n);
      if ((a->max_single_m > 0 && cm > a->max_single_m) ||
          (a->max_single_n > 0 && cn > a->max_single_n) ||
          (a->min_single_m > 0 && cm < a->min_single_m && md > 1) ||
          (a->min_single_n > 0 && cn < a->min_single_n && nd > 1))
        continue;
      int64_t used = ceil_div(s.m, cm) * ceil_div(s.n, cn);
      int64_t am = align_up(cm, 16), an = align_up(cn, 16);
      int64_t cost = am * an + 16 * (am + an);
      if (best_cost < 0 || cost < best_cost ||
          (cost == best_cost && used < best_used)) {
        best_cost = cost;
        best_m = cm;
        best_n = cn;
        best_used = used;
      }
    }
  }
  if (best_cost < 0)
    return fail(err, n,
                "no split of M=%lld, N=%lld over %d cores keeps each core's "
                "block within set_single_range",
                (long long)s.m, (long long)s.n, a->dim);
  sc->m = best_m;
  sc->n = best_n;
  *m_dim = ceil_div(s.m, best_m);
  *n_dim = ceil_div(s.n, best_n);
  return 0;
}

typedef struct Base {
  int64_t m, n, k;
} Base;

/* A base K (a multiple of k0, at least lo, at most hi) whose A and B
 * blocks fit half of L0A and L0B (double buffered); 0 if none. */
static int64_t pick_base_k(const AscMatmulTilingArgs *a, int64_t bm, int64_t bn,
                           int64_t k0, int64_t lo, int64_t hi, int64_t sa_bits,
                           int64_t sb_bits) {
  int64_t by_a = (int64_t)a->l0a_size / 2 * 8 / (bm * sa_bits);
  int64_t by_b = (int64_t)a->l0b_size / 2 * 8 / (bn * sb_bits);
  int64_t cap = min64(by_a, by_b);
  if (hi <= cap)
    return hi >= lo && hi > 0 ? hi : 0; /* all of the core's K at once */
  /* else a power of two fractals, so that K steps leave no tail but K's
   * own (an odd multiple, 80 for 512, would leave one every block) */
  int64_t k = k0;
  while (k * 2 <= cap)
    k *= 2;
  return k <= cap && k >= lo ? k : 0;
}

static int pick_base(const AscMatmulTilingArgs *a, Shape sc, int64_t k0,
                     int64_t sa_bits, int64_t sb_bits, int64_t bias_bytes,
                     Base *out, char *err, size_t n) {
  int64_t l0c_elems = a->l0c_size / 4;
  /* C at a UB position (VECIN, VECOUT, VECCALC) in ND: the kernel takes each
   * baseM x baseN block of C into a UB buffer (GetTensorC), and the
   * devkit's clients queue two of them (the tutorials' TQue of depth 2), so
   * the search keeps two C blocks within the UB (set_buffer_space's ub_size
   * or the platform's); NZ output stays in L1-sized fractals the kernel
   * moves itself. A base block set_fix_split fixes is the user's choice
   * (upstream's leakyrelu tutorial queues one 256 x 128 fp32 block). */
  int64_t c_ub_bytes = 0;
  if ((a->c_pos == ASC_MM_POS_VECIN || a->c_pos == ASC_MM_POS_VECOUT ||
       a->c_pos == ASC_MM_POS_VECCALC) &&
      a->c_format != ASC_MM_FMT_NZ && a->ub_size > 0)
    c_ub_bytes = asc_matmul_dtype_bits(a->c_dtype) / 8;
  if (a->base_m > 0 && a->base_n > 0 && a->base_k > 0) {
    out->m = a->base_m;
    out->n = a->base_n;
    out->k = a->base_k;
    return 0; /* checked by the caller as any base */
  }
  /* the ranges of each base: 16 (k0 for K) up to the aligned block, within
   * set_split_range, a fixed one (set_fix_split) alone */
  int64_t m_hi = min64(min64(align_up(sc.m, 16), 2048), a->max_base_m);
  int64_t n_hi = min64(min64(align_up(sc.n, 16), 2048), a->max_base_n);
  int64_t k_hi = min64(align_up(sc.k, k0), a->max_base_k);
  m_hi -= m_hi % 16;
  n_hi -= n_hi % 16;
  k_hi -= k_hi % k0;
  int64_t m_lo = min64(max64(16, align_up(a->min_base_m, 16)), m_hi);
  int64_t n_lo = min64(max64(16, align_up(a->min_base_n, 16)), n_hi);
  int64_t k_lo = min64(max64(k0, align_up(a->min_base_k, k0)), k_hi);
  if (a->base_m > 0)
    m_lo = m_hi = a->base_m;
  if (a->base_n > 0)
    n_lo = n_hi = a->base_n;
  if (a->base_k > 0)
    k_lo = k_hi = a->base_k;
  if (m_hi < 16 || n_hi < 16 || k_hi < k0)
    return fail(err, n,
                "set_split_range leaves no base block (max base M/N must be "
                "at least 16, max base K at least %lld)",
                (long long)k0);
  /* Cost of a single core's matmul with bases (bm, bn, bk), in cube cycles
   * of a 16x16xk0 fractal: each base block's fractals, an overhead per
   * block (issue, L0 hand-offs) and the loads from GM of A once per N block
   * and of B once per M block, at 64 bytes a cycle. */
  double best = -1;
  for (int64_t bm = m_lo; bm <= m_hi; bm += 16) {
    for (int64_t bn = n_lo; bn <= n_hi; bn += 16) {
      if (bm * bn > l0c_elems)
        continue;
      if (a->is_bias && a->bt_size > 0 && bn * bias_bytes > a->bt_size)
        continue;
      if (c_ub_bytes > 0 && !(a->base_m > 0 && a->base_n > 0) &&
          bm * bn * c_ub_bytes * 2 > a->ub_size)
        continue; /* C's block double buffered in the UB (see above) */
      int64_t bk = a->base_k > 0 ? a->base_k
                                 : pick_base_k(a, bm, bn, k0, k_lo, k_hi,
                                               sa_bits, sb_bits);
      if (bk <= 0)
        continue;
      int64_t tm = ceil_div(sc.m, bm), tn = ceil_div(sc.n, bn);
      int64_t tk = ceil_div(sc.k, bk);
      double cube = (double)(bm / 16) * (double)(bn / 16) * (double)(bk / k0);
      double blocks = (double)tm * (double)tn * (double)tk;
      double gm =
          ((double)sc.m * (double)sc.k * (double)sa_bits / 8 * (double)tn +
           (double)sc.n * (double)sc.k * (double)sb_bits / 8 * (double)tm) /
          64.0;
      double cost = blocks * (cube + 32.0) + gm;
      if (bm * bn * 2 > l0c_elems)
        cost *= 1.05; /* L0C not double buffered: fixpipe and cube serialise */
      if (best < 0 || cost < best) {
        best = cost;
        out->m = bm;
        out->n = bn;
        out->k = bk;
      }
    }
  }
  if (best < 0)
    return fail(err, n,
                "no base block fits L0A (%d bytes), L0B (%d), L0C (%d)%s "
                "within the given ranges",
                a->l0a_size, a->l0b_size, a->l0c_size,
                a->is_bias ? " and the bias table" : "");
  return 0;
}

int asc_matmul_tiling_compute(const AscMatmulTilingArgs *a, AscTCubeTiling *out,
                              AscMatmulTilingSplit *split, char *err,
                              size_t err_size) {
  size_t n = err_size;
  if (n)
    err[0] = '\0';
  if (check_types(a, err, n))
    return -1;
  int64_t sa_bits = asc_matmul_dtype_bits(a->a_dtype);
  int64_t sb_bits = asc_matmul_dtype_bits(a->b_dtype);
  int64_t bias_bytes = asc_matmul_dtype_bits(a->bias_dtype) / 8;
  int64_t k0 = 256 / sa_bits; /* a fractal's K: 32 bytes of A */

  /* the shape: the single shape (set_shape), each part not set taken from
   * the original one (set_org_shape) */
  Shape s = {a->single_m > 0 ? a->single_m : a->org_m,
             a->single_n > 0 ? a->single_n : a->org_n,
             a->single_k > 0 ? a->single_k : a->org_ka};
  /* -1 is "not set"; any other value but a positive one is refused */
  if (a->single_m == 0 || a->single_n == 0 || a->single_k == 0 ||
      a->single_m < -1 || a->single_n < -1 || a->single_k < -1 ||
      a->org_m < -1 || a->org_n < -1 || a->org_ka < -1 || a->org_kb < -1 ||
      a->org_m == 0 || a->org_n == 0 || a->org_ka == 0 || a->org_kb == 0 ||
      s.m <= 0 || s.n <= 0 || s.k <= 0)
    return fail(err, n,
                "M, N and K must be set (set_shape or set_org_shape) and "
                "positive, got M=%lld, N=%lld, K=%lld",
                (long long)s.m, (long long)s.n, (long long)s.k);
  int32_t org_m = a->org_m > 0 ? a->org_m : (int32_t)s.m;
  int32_t org_n = a->org_n > 0 ? a->org_n : (int32_t)s.n;
  int32_t org_ka = a->org_ka > 0 ? a->org_ka : (int32_t)s.k;
  int32_t org_kb = a->org_kb > 0 ? a->org_kb : (int32_t)s.k;

  /* the checks GetTiling makes of a fixed split (CheckSetParam) */
  if (a->base_m > 0 && a->base_k > 0 &&
      (int64_t)a->base_m * a->base_k * sa_bits / 8 > a->l0a_size)
    return fail(err, n, "baseM * baseK (%d x %d) of A is larger than L0A",
                a->base_m, a->base_k);
  if (a->base_n > 0 && a->base_k > 0 &&
      (int64_t)a->base_n * a->base_k * sb_bits / 8 > a->l0b_size)
    return fail(err, n, "baseK * baseN (%d x %d) of B is larger than L0B",
                a->base_k, a->base_n);
  if (a->base_m > 0 && a->base_n > 0 &&
      (int64_t)a->base_m * a->base_n * 4 > a->l0c_size)
    return fail(err, n, "baseM * baseN (%d x %d) in fp32 is larger than L0C",
                a->base_m, a->base_n);
  if ((a->base_m > 0 && a->base_m % 16) || (a->base_n > 0 && a->base_n % 16) ||
      (a->base_k > 0 && a->base_k % k0))
    return fail(err, n,
                "a fixed base block must be whole fractals: baseM and baseN "
                "multiples of 16, baseK of %lld, got %d, %d, %d",
                (long long)k0, a->base_m, a->base_n, a->base_k);

  Shape sc = {0, 0, 0};
  int64_t m_dim = 0, n_dim = 0;
  if (split_cores(a, s, &sc, &m_dim, &n_dim, err, n))
    return -1;
  Base b = {0, 0, 0};
  if (pick_base(a, sc, k0, sa_bits, sb_bits, bias_bytes, &b, err, n))
    return -1;

  /* L1: stepKa = stepKb K blocks of A and B at a time (a divisor of the
   * K blocks, so that every L1 load is whole steps), all of K if it fits,
   * double buffered if that fits too; stepM = stepN = 1. */
  int64_t a1 = b.m * b.k * sa_bits / 8, b1 = b.n * b.k * sb_bits / 8;
  int64_t a1_l1 = a->a_pos == ASC_MM_POS_TSCM ? 0 : a1;
  int64_t b1_l1 = a->b_pos == ASC_MM_POS_TSCM ? 0 : b1;
  int64_t bias_l1 =
      a->is_bias && a->bias_pos != ASC_MM_POS_TSCM ? b.n * bias_bytes : 0;
  int64_t k_iters = ceil_div(sc.k, b.k);
  int64_t step_k = 0, db = 0;
  for (int64_t sk = k_iters; sk >= 1 && !step_k; sk--)
    for (int64_t d = 2; d >= 1 && !step_k; d--)
      if (k_iters % sk == 0 &&
          sk * d * (a1_l1 + b1_l1) + bias_l1 <= a->l1_size) {
        step_k = sk;
        db = d;
      }
  if (!step_k)
    return fail(err, n,
                "the base blocks of A and B (%lld and %lld bytes) do not fit "
                "L1 (%d bytes)",
                (long long)a1, (long long)b1, a->l1_size);

  int32_t order;
  if (a->traverse == 1 || a->traverse == 2) {
    order = a->traverse - 1;
  } else if (step_k < k_iters) {
    order = 0; /* K not all in L1: no order reuses a block, M first */
  } else {
    int64_t m_loop = ceil_div(sc.m, b.m), n_loop = ceil_div(sc.n, b.n);
    int64_t a_load = sc.m + sc.n * m_loop, b_load = sc.n + sc.m * n_loop;
    order = a_load < b_load ? 1 : 0;
  }

  AscTCubeTiling t;
  memset(&t, 0, sizeof t);
  int64_t used = m_dim * n_dim;
  t.usedCoreNum = (int32_t)(a->kind == ASC_MM_TILING_SINGLE_CORE
                                ? 1
                                : min64(used, (int64_t)a->dim));
  t.M = org_m;
  t.N = org_n;
  t.Ka = org_ka;
  t.Kb = org_kb;
  t.singleCoreM = (int32_t)sc.m;
  t.singleCoreN = (int32_t)sc.n;
  t.singleCoreK = (int32_t)sc.k;
  t.baseM = (int32_t)b.m;
  t.baseN = (int32_t)b.n;
  t.baseK = (int32_t)b.k;
  t.stepM = 1;
  t.stepN = 1;
  t.stepKa = (int32_t)step_k;
  t.stepKb = (int32_t)step_k;
  t.depthA1 = (int32_t)(step_k * db);
  t.depthB1 = (int32_t)(step_k * db);
  t.isBias = a->is_bias ? 1 : 0;
  t.transLength = 0; /* 910B converts ND to NZ on the way to L1, not in UB */
  t.iterateOrder = order;
  t.shareMode = 0;
  t.shareL1Size = (int32_t)(t.depthA1 * a1_l1 + t.depthB1 * b1_l1 + bias_l1);
  t.shareL0CSize = (int32_t)(b.m * b.n * 4);
  t.shareUbSize = 0;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
  t.depthAL1CacheUB = t.depthBL1CacheUB = 0;
  t.dbL0A = a1 * 2 <= a->l0a_size ? 2 : 1;
  t.dbL0B = b1 * 2 <= a->l0b_size ? 2 : 1;
  t.dbL0C = b.m * b.n * 4 * 2 <= a->l0c_size ? 2 : 1;
  t.ALayoutInfoB = a->a_layout_b;
  t.ALayoutInfoS = a->a_layout_s;
  t.ALayoutInfoN = a->a_layout_n;
  t.ALayoutInfoG = a->a_layout_g;
  t.ALayoutInfoD = a->a_layout_d;
  t.BLayoutInfoB = a->b_layout_b;
  t.BLayoutInfoS = a->b_layout_s;
  t.BLayoutInfoN = a->b_layout_n;
  t.BLayoutInfoG = a->b_layout_g;
  t.BLayoutInfoD = a->b_layout_d;
  t.CLayoutInfoB = a->c_layout_b;
  t.CLayoutInfoS1 = a->c_layout_s1;
  t.CLayoutInfoN = a->c_layout_n;
  t.CLayoutInfoG = a->c_layout_g;
  t.CLayoutInfoS2 = a->c_layout_s2;
  t.BatchNum = a->batch_num;
  t.mxTypePara = 0;
  *out = t;
  if (split) {
    split->dim = t.usedCoreNum;
    split->m_dim = (int32_t)m_dim;
    split->n_dim = (int32_t)n_dim;
    split->batch_core_m = 1;
    split->batch_core_n = 1;
  }
  return 0;
}
