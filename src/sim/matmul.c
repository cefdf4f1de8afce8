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
 * A block itself is computed by matmul_block.c.
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
#include "matmul.h"

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
  int64_t fractals = 0;
  MmOut o = {t, 0, s.ldc, en_atomic, 0};
  int ok;
  if (in->imm == 0) { /* IterateAll: every block into its place */
    /* the blocks together are C; each sums over K as one block would */
    ok = sim_mm_block(x, in, m, &s, 0, 0, s.sm, s.sn, &o, &fractals);
    m->iter = 0;
  } else {
    if (m->iter == 0)
      return sim_fail(x, in,
                      "Matmul: get_tensor_c outside an iterate loop "
                      "(no current block)");
    int64_t rows, cols;
    block_size(&s, m->cur_m, m->cur_n, &rows, &cols);
    if (in->imm == 1) {
      o.off = seq ? 0 : m->cur_m * s.bm * s.ldc + m->cur_n * s.bn;
      o.ld = seq ? s.bn : s.ldc;
    } else { /* UB: baseM x baseN row-major */
      o.to_ub = 1;
      o.ld = s.bn;
    }
    ok = sim_mm_block(x, in, m, &s, m->cur_m * s.bm, m->cur_n * s.bn, rows,
                      cols, &o, &fractals);
  }
  x->b->ev.elems = fractals; /* fractals (cost class CUBE) */
  return ok ? ASC_OK : ASC_ERR_KERNEL;
}
