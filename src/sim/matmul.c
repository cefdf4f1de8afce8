/* family: matmul. asc.adv.Matmul: the devkit's AscendC::Matmul object
 * (include/adv_api/matmul/matmul.h, impl/adv_api/detail/matmul/).
 *
 * Each core holds the states of the Matmul objects it made (asc.matmul
 * returns an index into them): the tiling Init / REGIST_MATMUL_OBJ gave,
 * the A, B and bias tensors, the single-core shape (the tiling's, or what
 * SetTail / SetSingleShape set), the original shape (the tiling's M, N,
 * Ka, Kb, or SetOrgShape's) and the position of Iterate.
 *
 * C = A * B (+ bias) over the single-core shape singleM x singleN x
 * singleK. Iterate walks the base blocks of baseM x baseN in the tiling's
 * iterateOrder (0, ORDER_M: the M index moves first; 1: the N index) and
 * returns false after the last (the next Iterate starts over); each block
 * sums its products over K in fp32, as the cube unit's L0C does (int32 for
 * int8 inputs), bias added once per block. GetTensorC writes the current
 * block: to GM at its place in C (rows orgN (or orgKc) elements apart; with
 * enSequentialWrite at the tensor's start, rows baseN apart), or to a UB
 * tensor as baseM x baseN row-major. IterateAll writes every block to GM.
 * enAtomic 1, 2, 3 combine with C in GM as the store-atomic add, max, min.
 *
 * INTERIM: each block is computed directly here, not as the sequence of
 * GM->L1 Nd2Nz copies, LoadData, Mmad and Fixpipe the devkit issues (the
 * cube family was not merged when this was written): the sanitizer sees
 * the GM and UB accesses, the timing model costs each call as one scalar
 * instruction.
 *
 * Which core does the work: in a MIX kernel the devkit's AIC runs a server
 * loop inside REGIST_MATMUL_OBJ for the requests of the two AIVs, each of
 * which owns a client object with its own tensors and tails (the tutorials
 * offset them by GetBlockIdx, g * 2 + sub on an AIV); so each vector core
 * computes its own object's work and the methods do nothing on the cube
 * core, which leaves the kernel at REGIST_MATMUL_OBJ, as the devkit's
 * does after its server loop. In an AIC_ONLY kernel the cube core
 * computes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "sim.h"
#include "vecmath.h"

enum { MM_MAX_OBJECTS = 8, MM_TILING_FIELDS = 50 };

/* TCubeTiling's fields by index (include/asc/structs.def order) */
enum {
  TL_M = 1,
  TL_N = 2,
  TL_KA = 3,
  TL_KB = 4,
  TL_SINGLE_M = 5,
  TL_SINGLE_N = 6,
  TL_SINGLE_K = 7,
  TL_BASE_M = 8,
  TL_BASE_N = 9,
  TL_BASE_K = 10,
  TL_ITERATE_ORDER = 17
};

struct AscSimMatmul {
  int64_t tiling[MM_TILING_FIELDS];
  int has_tiling;
  AscTensorRef a, b, bias;
  int has_a, has_b, has_bias, trans_a, trans_b;
  int64_t single_m, single_n, single_k;         /* < 0: the tiling's */
  int64_t org_m, org_n, org_ka, org_kb, org_kc; /* < 0: the tiling's */
  int64_t iter; /* blocks Iterate has started; 0: none */
  int64_t cur_m, cur_n;
};

void sim_matmul_reset(AscBlockState *b) {
  free(b->matmuls);
  b->matmuls = NULL;
  b->n_matmuls = 0;
  b->core_done = 0;
}

/* Whether this core does a Matmul's work (see the top of the file). */
static int works_here(const AscBlockState *b) {
  return !(b->has_core && b->core_is_aic && b->core_per_group > 1);
}

static AscSimMatmul *object(AscExec *x, const AscInstr *in, int k) {
  int64_t h = ASC_SLOT(x, in, k).i;
  if (h < 0 || h >= x->b->n_matmuls) {
    sim_fail(x, in, "Matmul: no such object (handle %lld)", (long long)h);
    return NULL;
  }
  return &x->b->matmuls[h];
}

AscStatus sim_matmul_create(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  if (b->n_matmuls >= MM_MAX_OBJECTS)
    return sim_fail(x, in,
                    "Matmul: more than %d objects on one core (the devkit "
                    "allows 4 registered objects)",
                    MM_MAX_OBJECTS);
  if (!b->matmuls) {
    b->matmuls = calloc(MM_MAX_OBJECTS, sizeof *b->matmuls);
    if (!b->matmuls)
      return sim_fail(x, in, "Matmul: out of host memory");
  }
  AscSimMatmul *m = &b->matmuls[b->n_matmuls];
  memset(m, 0, sizeof *m);
  m->single_m = m->single_n = m->single_k = -1;
  m->org_m = m->org_n = m->org_ka = m->org_kb = m->org_kc = -1;
  x->regs[in->dst].i = b->n_matmuls++;
  return ASC_OK;
}

/* Init(&tiling) (sub 0: operands mm, tiling) and REGIST_MATMUL_OBJ(&pipe,
 * workspace, mm, &tiling) (sub 1: pipe, workspace, mm, tiling?). */
AscStatus sim_matmul_init(AscExec *x, const AscInstr *in) {
  int reg = in->imm == 1;
  AscSimMatmul *m = object(x, in, reg ? 2 : 0);
  if (!m)
    return ASC_ERR_KERNEL;
  if (reg && !works_here(x->b)) {
    /* the devkit's REGIST_MATMUL_OBJ on a MIX kernel's AIC runs the
     * server loop for its AIVs' requests and returns from the kernel */
    x->b->core_done = 1;
    return ASC_OK;
  }
  int k = reg ? 3 : 1;
  if (k >= in->n_args)
    return ASC_OK; /* registered without a tiling: Init gives it */
  for (int f = 0; f < MM_TILING_FIELDS; f++)
    m->tiling[f] = x->regs[in->a[k] + f].i;
  m->has_tiling = 1;
  m->iter = 0;
  return ASC_OK;
}

static int64_t arg_i(AscExec *x, const AscInstr *in, int k) {
  return ASC_SLOT(x, in, k).i;
}

AscStatus sim_matmul_set(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  switch (in->imm) {
  case 0: /* SetTensorA(gm, isTransposeA) */
  case 1: /* SetTensorB */
  case 2: /* SetBias */ {
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "tensor");
    if (!t)
      return ASC_ERR_KERNEL;
    if (in->imm == 0) {
      m->a = *t;
      m->has_a = 1;
      m->trans_a = arg_i(x, in, 2) != 0;
    } else if (in->imm == 1) {
      m->b = *t;
      m->has_b = 1;
      m->trans_b = arg_i(x, in, 2) != 0;
    } else {
      m->bias = *t;
      m->has_bias = 1;
    }
    break;
  }
  case 3: /* DisableBias */
    m->has_bias = 0;
    break;
  case 4: /* SetTail(tailM, tailN, tailK): -1 keeps a size */
  case 6: /* SetSingleShape */ {
    int64_t v[3] = {arg_i(x, in, 1), arg_i(x, in, 2), arg_i(x, in, 3)};
    int64_t *d[3] = {&m->single_m, &m->single_n, &m->single_k};
    for (int i = 0; i < 3; i++)
      if (v[i] >= 0 || in->imm == 6)
        *d[i] = v[i] < 0 ? -1 : v[i];
    break;
  }
  case 5: /* SetOrgShape(orgM, orgN, orgKa[, orgKb[, orgKc]]) */
    m->org_m = arg_i(x, in, 1);
    m->org_n = arg_i(x, in, 2);
    m->org_ka = arg_i(x, in, 3);
    m->org_kb = in->n_args > 4 ? arg_i(x, in, 4) : m->org_ka;
    m->org_kc = in->n_args > 5 ? arg_i(x, in, 5) : -1;
    break;
  default: /* End: the object's work is done */
    m->iter = 0;
    break;
  }
  return ASC_OK;
}

/* The shapes a computation uses. */
typedef struct Shape {
  int64_t sm, sn, sk;         /* single-core shape */
  int64_t bm, bn, bk;         /* base block */
  int64_t lda, ldb, ldc;      /* row strides of A, B, C in elements */
  int64_t m_blocks, n_blocks; /* base blocks along M and N */
  int order;                  /* iterateOrder */
} Shape;

static int shape_of(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                    Shape *s) {
  if (!m->has_tiling) {
    sim_fail(x, in,
             "Matmul: used before Init / register_matmul gave it a "
             "tiling");
    return 0;
  }
  if (!m->has_a || !m->has_b) {
    sim_fail(x, in,
             "Matmul: set_tensor_a and set_tensor_b must come "
             "before the computation");
    return 0;
  }
  const int64_t *t = m->tiling;
  s->sm = m->single_m >= 0 ? m->single_m : t[TL_SINGLE_M];
  s->sn = m->single_n >= 0 ? m->single_n : t[TL_SINGLE_N];
  s->sk = m->single_k >= 0 ? m->single_k : t[TL_SINGLE_K];
  s->bm = t[TL_BASE_M];
  s->bn = t[TL_BASE_N];
  s->bk = t[TL_BASE_K];
  int64_t om = m->org_m >= 0 ? m->org_m : t[TL_M];
  int64_t on = m->org_n >= 0 ? m->org_n : t[TL_N];
  int64_t oka = m->org_ka >= 0 ? m->org_ka : t[TL_KA];
  int64_t okb = m->org_kb >= 0 ? m->org_kb : t[TL_KB];
  s->lda = m->trans_a ? om : oka; /* A: M x Ka, or Ka x M transposed */
  s->ldb = m->trans_b ? okb : on; /* B: Kb x N, or N x Kb transposed */
  s->ldc = m->org_kc > 0 ? m->org_kc : on;
  s->order = (int)t[TL_ITERATE_ORDER];
  if (s->sm < 0 || s->sn < 0 || s->sk < 0 || s->bm <= 0 || s->bn <= 0 ||
      s->bk <= 0 || s->lda < 0 || s->ldb < 0 || s->ldc < 0 ||
      s->sm > (1 << 24) || s->sn > (1 << 24) || s->sk > (1 << 24)) {
    sim_fail(x, in,
             "Matmul: bad shape (single %lld x %lld x %lld, base %lld x %lld "
             "x %lld, strides %lld %lld %lld): check the tiling and the "
             "tails",
             (long long)s->sm, (long long)s->sn, (long long)s->sk,
             (long long)s->bm, (long long)s->bn, (long long)s->bk,
             (long long)s->lda, (long long)s->ldb, (long long)s->ldc);
    return 0;
  }
  s->m_blocks = (s->sm + s->bm - 1) / s->bm;
  s->n_blocks = (s->sn + s->bn - 1) / s->bn;
  return 1;
}

AscStatus sim_matmul_iterate(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  if (!works_here(x->b)) {
    x->regs[in->dst].i = 0;
    return ASC_OK;
  }
  Shape s;
  if (!shape_of(x, in, m, &s))
    return ASC_ERR_KERNEL;
  int64_t total = s.m_blocks * s.n_blocks;
  if (m->iter >= total) {
    m->iter = 0; /* the next Iterate starts over */
    x->regs[in->dst].i = 0;
    return ASC_OK;
  }
  int64_t c = m->iter++;
  if (s.order == 1) {
    m->cur_n = c % s.n_blocks;
    m->cur_m = c / s.n_blocks;
  } else {
    m->cur_m = c % s.m_blocks;
    m->cur_n = c / s.m_blocks;
  }
  x->regs[in->dst].i = 1;
  return ASC_OK;
}

/* A GM operand read as one span (bounding the elements the block reads). */
typedef struct GmIn {
  SimGmSpan span;
  AscDType dt;
  int64_t es;
} GmIn;

static int gm_in(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                 int64_t count, const char *what, GmIn *g) {
  g->dt = (AscDType)t->dtype;
  g->es = (int64_t)asc_dtype_size(g->dt);
  int n = x->b->ev.n_acc;
  if (sim_gm_span(x, in, t, count, 0, what, &g->span))
    return 0;
  for (int i = n; i < x->b->ev.n_acc; i++)
    x->b->ev.acc[i].bounding = 1; /* strided: not every byte is read */
  return 1;
}

/* Element e of a GM operand; 0 outside its kernel argument (overruns are
 * reported by sim_gm_span). */
static double gm_get(const GmIn *g, int64_t e) {
  int64_t o = e * g->es;
  if (!g->span.p || o < g->span.skip ||
      o + g->es > g->span.skip + g->span.valid)
    return 0.0;
  return asc_load_f(g->dt, g->span.p + (o - g->span.skip), 0);
}

/* The rows x cols values of C from (m0, n0), row-major in out (one span
 * of A, B and bias each, so the event's few access records suffice). */
static int block_values(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                        const Shape *s, int64_t m0, int64_t n0, int64_t rows,
                        int64_t cols, double *out) {
  int64_t a_extent, b_extent;
  /* the last element of A and B the block reads, plus one */
  if (s->sk == 0 || rows == 0 || cols == 0) {
    a_extent = b_extent = 0;
  } else {
    int64_t am = m0 + rows - 1, bn = n0 + cols - 1, k = s->sk - 1;
    a_extent = (m->trans_a ? k * s->lda + am : am * s->lda + k) + 1;
    b_extent = (m->trans_b ? bn * s->ldb + k : k * s->ldb + bn) + 1;
  }
  GmIn a, b, bias;
  if (!gm_in(x, in, &m->a, a_extent, "A", &a) ||
      !gm_in(x, in, &m->b, b_extent, "B", &b))
    return 0;
  int has_bias = m->has_bias;
  if (has_bias && !gm_in(x, in, &m->bias, n0 + cols, "bias", &bias))
    return 0;
  int integer = a.dt == ASC_DT_INT8;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t r = m0 + i, c = n0 + j;
      float acc = 0.0f;
      int64_t iacc = 0;
      for (int64_t k = 0; k < s->sk; k++) {
        double av = gm_get(&a, m->trans_a ? k * s->lda + r : r * s->lda + k);
        double bv = gm_get(&b, m->trans_b ? c * s->ldb + k : k * s->ldb + c);
        if (integer)
          iacc += (int64_t)av * (int64_t)bv;
        else
          acc += (float)av * (float)bv; /* fp32 products and sums (L0C) */
      }
      double v = integer ? (double)(int32_t)iacc : (double)acc;
      if (has_bias)
        v = integer ? (double)(int32_t)((int64_t)v + (int64_t)gm_get(&bias, c))
                    : (double)((float)v + (float)gm_get(&bias, c));
      out[i * cols + j] = v;
    }
  return 1;
}

static void store_value(AscDType dt, uint8_t *p, double v) {
  AscScalar sc = {v, asc_float_to_int64(v)};
  asc_store_scalar(dt, p, 0, sc);
}

/* The store-atomic dtype of a C element type; 0 for none. */
static int atomic_dtype(AscDType dt) {
  switch (dt) {
  case ASC_DT_FLOAT32:
    return 1;
  case ASC_DT_FLOAT16:
    return 2;
  case ASC_DT_INT32:
    return 4;
  case ASC_DT_BFLOAT16:
    return 6;
  default:
    return 0;
  }
}

/* Writes a block of values to GM tensor t from element offset off, rows
 * ld elements apart; en_atomic as the store-atomic mode (1 add, 2 max,
 * 3 min). */
static int write_gm(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                    int64_t off, int64_t ld, int64_t rows, int64_t cols,
                    const double *v, int64_t en_atomic) {
  if (!rows || !cols)
    return 1;
  AscDType dt = (AscDType)t->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), extent;
  if (asc_mul_i64(rows - 1, ld, &extent) ||
      asc_add_i64(extent, off + cols, &extent)) {
    sim_fail(x, in, "Matmul: C out of range");
    return 0;
  }
  AscCoreRegs *r = &x->b->regs;
  int saved_type = r->atomic_type, saved_op = r->atomic_op;
  if (en_atomic) {
    r->atomic_type = atomic_dtype(dt);
    r->atomic_op = (int)en_atomic - 1;
  }
  int n = x->b->ev.n_acc, ok = 1;
  SimGmSpan span;
  if (sim_gm_span(x, in, t, extent, 1, "C", &span)) {
    ok = 0;
    goto out;
  }
  sim_gm_mark_atomic(x, n);
  if (rows > 1 && ld != cols)
    for (int i = n; i < x->b->ev.n_acc; i++) {
      AscAccess *acc = &x->b->ev.acc[i];
      acc->rows = (int32_t)rows;
      acc->row0 = t->addr + off * es;
      acc->row_len = cols * es;
      acc->row_step = ld * es;
    }
  uint8_t buf[8];
  for (int64_t i = 0; i < rows && ok; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t o = ((i * ld) + off + j) * es;
      if (!span.p || o < span.skip || o + es > span.skip + span.valid)
        continue; /* outside the argument: the write goes nowhere */
      store_value(dt, buf, v[i * cols + j]);
      if (sim_gm_store(x, in, span.p + (o - span.skip), buf, es) != ASC_OK) {
        ok = 0;
        break;
      }
    }
out:
  r->atomic_type = saved_type;
  r->atomic_op = saved_op;
  return ok;
}

/* The cube unit's 16 x 16 x k0 fractal products a rows x cols block over
 * K takes (k0: 32 bytes of the input type; float counts twice, as
 * cube_ops.c's Mmad does): the timing model's cost of the call. */
static int64_t block_fractals(AscDType in, int64_t rows, int64_t cols,
                              int64_t k) {
  int64_t es = (int64_t)asc_dtype_size(in);
  int64_t k0 = es ? 32 / es : 16;
  int64_t f = ((rows + 15) / 16) * ((cols + 15) / 16) * ((k + k0 - 1) / k0);
  return in == ASC_DT_FLOAT32 ? 2 * f : f;
}

/* The rows and columns of block (bi, bj) (tails at the edges). */
static void block_size(const Shape *s, int64_t bi, int64_t bj, int64_t *rows,
                       int64_t *cols) {
  int64_t r = s->sm - bi * s->bm, c = s->sn - bj * s->bn;
  *rows = r < s->bm ? r : s->bm;
  *cols = c < s->bn ? c : s->bn;
}

/* IterateAll (sub 0), GetTensorC to GM (1) or to a UB tensor (2). */
AscStatus sim_matmul_compute(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  if (!works_here(x->b))
    return ASC_OK;
  const AscTensorRef *t = sim_tensor_arg(x, in, 1, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  Shape s;
  if (!shape_of(x, in, m, &s))
    return ASC_ERR_KERNEL;
  int64_t en_atomic = arg_i(x, in, 2), seq = arg_i(x, in, 3);
  if (en_atomic < 0 || en_atomic > 3)
    return sim_fail(x, in, "Matmul: enAtomic %lld is not 0..3",
                    (long long)en_atomic);
  int64_t cells = in->imm == 0 ? s.sm * s.sn : s.bm * s.bn;
  /* the products one call computes (the interpreter's step budget does
   * not see inside it): beyond 2^32 a KernelError, not a hang */
  if (s.bm > 4096 || s.bn > 4096 || cells > ((int64_t)1 << 26) ||
      cells * s.sk > ((int64_t)1 << 32))
    return sim_fail(x, in, "Matmul: %lld x %lld is too large to simulate",
                    (long long)(in->imm == 0 ? s.sm : s.bm),
                    (long long)(in->imm == 0 ? s.sn : s.bn));
  double *v = malloc(sizeof(double) * (size_t)(cells ? cells : 1));
  if (!v)
    return sim_fail(x, in, "Matmul: out of host memory");
  AscStatus st = ASC_OK;
  int64_t rows, cols, elems = 0;
  if (in->imm == 0) { /* IterateAll: every block into its place */
    /* the blocks together are C; each sums over K as one block would */
    rows = s.sm;
    cols = s.sn;
    if (!block_values(x, in, m, &s, 0, 0, rows, cols, v) ||
        !write_gm(x, in, t, 0, s.ldc, rows, cols, v, en_atomic))
      st = ASC_ERR_KERNEL;
    for (int64_t bj = 0; bj < s.n_blocks; bj++)
      for (int64_t bi = 0; bi < s.m_blocks; bi++) {
        int64_t r, c;
        block_size(&s, bi, bj, &r, &c);
        elems += block_fractals((AscDType)m->a.dtype, r, c, s.sk);
      }
    m->iter = 0;
  } else {
    if (m->iter == 0) {
      free(v);
      return sim_fail(x, in,
                      "Matmul: get_tensor_c outside an iterate loop "
                      "(no current block)");
    }
    block_size(&s, m->cur_m, m->cur_n, &rows, &cols);
    if (!block_values(x, in, m, &s, m->cur_m * s.bm, m->cur_n * s.bn, rows,
                      cols, v))
      st = ASC_ERR_KERNEL;
    else if (in->imm == 1) {
      int64_t off = seq ? 0 : m->cur_m * s.bm * s.ldc + m->cur_n * s.bn;
      if (!write_gm(x, in, t, off, seq ? s.bn : s.ldc, rows, cols, v,
                    en_atomic))
        st = ASC_ERR_KERNEL;
    } else { /* UB: baseM x baseN row-major */
      AscDType dt = (AscDType)t->dtype;
      int64_t es = (int64_t)asc_dtype_size(dt);
      int64_t need = (rows - 1) * s.bn + cols;
      uint8_t *p =
          rows && cols ? sim_local_ptr(x, in, t, need, 1, "tensor") : NULL;
      if (rows && cols && !p)
        st = ASC_ERR_KERNEL;
      for (int64_t i = 0; p && i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
          store_value(dt, p + (i * s.bn + j) * es, v[i * cols + j]);
    }
    elems = block_fractals((AscDType)m->a.dtype, rows, cols, s.sk);
  }
  free(v);
  x->b->ev.elems = elems; /* fractals (cost class CUBE) */
  return st;
}
