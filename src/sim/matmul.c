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
 * The rest of the API (mmapi): IterateBatch runs max(batchA, batchB)
 * single-core matmuls of the NORMAL / BNGS1S2 layout (batch i on A
 * i / (batch / batchA), B i / (batch / batchB), the devkit's broadcast),
 * IterateNBatch batchLoop of them into the workspace SetWorkspace gave,
 * which GetBatchTensorC reads one IterateBatch's Cs a call. The
 * asynchronous forms (Iterate<false>, IterateAll<false>, IterateBatch<
 * false>, ...) compute at the call; GetTensorC<false>() puts each block
 * in the workspace baseM x baseN after the one before, as the devkit's
 * server does (AsyncGetTensorC, which copies that block into a UB tensor,
 * computes into the tensor directly); the Wait* methods check that
 * something waits. SetQuantScalar / SetQuantVector state is applied per
 * block by sim_mm_convert (matmul_quant.c).
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
                    "Matmul: more than %d objects on one core (the devkit's "
                    "implementation for arch 2201 takes at most %d: "
                    "MAX_MATMUL_OBJ, impl/basic_api/dav_c220/kfc/kfc_comm.h; "
                    "its REGIST_MATMUL_OBJ.md advises at most 4); create each "
                    "Matmul once, outside loops",
                    MM_MAX_OBJECTS, MM_MAX_OBJECTS);
  if (!b->matmuls) {
    b->matmuls = calloc(MM_MAX_OBJECTS, sizeof *b->matmuls);
    if (!b->matmuls)
      return sim_fail(x, in, "Matmul: out of host memory");
  }
  AscSimMatmul *m = &b->matmuls[b->n_matmuls];
  memset(m, 0, sizeof *m);
  m->single_m = m->single_n = m->single_k = -1;
  m->org_m = m->org_n = m->org_ka = m->org_kb = m->org_kc = -1;
  m->c_dtype = in->dtype2;                /* C's element type (lower.c) */
  m->layout_a = (uint8_t)(in->imm2 & 15); /* mmlocal: LayoutMode (lower.c) */
  m->layout_b = (uint8_t)(in->imm2 >> 4 & 15);
  m->layout_c = (uint8_t)(in->imm2 >> 8 & 15);
  m->ws_bytes = -1;
  /* family: adv tiling (misc): "call:L1|v,...,v" or "agg:v,...,v", the
   * constant tiling's 46 fields (emit_matmul.c) */
  const char *st = asc_op_attr_str(in->src, "static_tiling");
  const char *vals = st ? strchr(st, '|') : NULL;
  vals = vals ? vals + 1 : (st && strncmp(st, "agg:", 4) == 0 ? st + 4 : NULL);
  for (int f = 0; vals && f <= 10; f++) {
    char *end = NULL;
    long long v = strtoll(vals, &end, 10);
    if (end == vals)
      break;
    if (f >= 5)
      m->static_shape[f - 5] = v;
    vals = *end == ',' ? end + 1 : NULL;
  }
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
  /* family: adv tiling (misc): the devkit compiles the constant tiling's
   * shape into the object and requires the runtime tiling to agree */
  static const char *const shape_names[6] = {
      "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN", "baseK"};
  for (int f = 0; f < 6; f++)
    if (m->static_shape[f] > 0 && m->tiling[5 + f] != m->static_shape[f])
      return sim_fail(x, in,
                      "Matmul: the tiling's %s is %lld but the object's "
                      "constant tiling (asc.adv.get_matmul_api_tiling) "
                      "says %lld: the devkit compiles the constant in and "
                      "requires the runtime tiling to match it",
                      shape_names[f], (long long)m->tiling[5 + f],
                      (long long)m->static_shape[f]);
  m->has_tiling = 1;
  m->iter = 0;
  /* the timing model: the Init's scalar work, a cube instruction's worth
   * for each buffer it sets up (TPipe::InitBuffer: the L1 queues of A and
   * B in CubeInBuffer::Init, L0A and L0B in TBufPoolL0::Init, L0C in
   * CubeOutBuffer::Init, and, when the tiling has a bias, its L1 and bias
   * table buffers in BiasScheduler::Init), which also takes in the tiling's
   * fields (MatmulSchedulerBase::Init, impl/adv_api/detail/matmul/) */
  x->b->ev.mm_work = m->tiling[TL_IS_BIAS] ? 7 : 5;
  return ASC_OK;
}

static int64_t arg_i(AscExec *x, const AscInstr *in, int k) {
  return ASC_SLOT(x, in, k).i;
}

/* A MIX kernel: the vector cores hold the devkit's MatmulClient objects,
 * which lack the cube-only methods (SetBatchNum, IterateBatch(gm,
 * enPartialSum, ...)). */
static int is_mix(const AscBlockState *b) {
  return b->has_core && b->core_per_group > 1;
}

/* A view of GM tensor t moved by `bytes` (its element count shortened when
 * it has one), typed dt; 0 after sim_fail on overflow. */
static int gm_view(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                   int64_t bytes, int dt, AscTensorRef *out) {
  *out = *t;
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  if (asc_add_i64(t->addr, bytes, &out->addr)) {
    sim_fail(x, in, "Matmul: address out of range");
    return 0;
  }
  if (t->len >= 0 && es > 0) {
    int64_t left = t->len * es - bytes;
    out->len = left < 0 ? 0 : left;
  }
  out->dtype = (uint8_t)dt;
  int64_t nes = (int64_t)asc_dtype_size((AscDType)dt);
  if (out->len >= 0 && nes > 0)
    out->len /= nes;
  return 1;
}

/* mmlocal: SetTensorA / SetTensorB (sub 24, 25: tensor, isTranspose) and
 * SetBias (26) of an L1 LocalTensor: the devkit's FROM_L1 copy-in keeps
 * its address and the loads read it (matmul_block.c). In a MIX kernel the
 * devkit's MatmulClient passes a LocalTensor to its AIC by address only at
 * TPosition::TSCM (which asc.TPosition does not have) and copies any other
 * through the UB to GM, which an L1 tensor cannot be. */
static AscStatus set_l1_input(AscExec *x, const AscInstr *in, AscSimMatmul *m) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 1, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  if (is_mix(x->b))
    return sim_fail(x, in,
                    "Matmul: %s of an L1 LocalTensor needs an AIC_ONLY kernel "
                    "(a MIX kernel's MatmulClient takes L1 tensors only at "
                    "TPosition::TSCM)",
                    in->imm == 24   ? "set_tensor_a"
                    : in->imm == 25 ? "set_tensor_b"
                                    : "set_bias");
  if (in->imm == 24) {
    m->a = *t;
    m->has_a = m->a_l1 = 1;
    m->trans_a = arg_i(x, in, 2) != 0;
  } else if (in->imm == 25) {
    m->b = *t;
    m->has_b = m->b_l1 = 1;
    m->trans_b = arg_i(x, in, 2) != 0;
  } else {
    m->bias = *t;
    m->has_bias = m->bias_l1 = 1;
  }
  return ASC_OK;
}

/* The setters of the rest of the API (mmapi; ops.def subs 10..22). */
static AscStatus set_more(AscExec *x, const AscInstr *in, AscSimMatmul *m) {
  switch (in->imm) {
  case 10: { /* SetBatchNum(batchA, batchB) */
    int64_t a = arg_i(x, in, 1), b = arg_i(x, in, 2);
    if (is_mix(x->b))
      return sim_fail(x, in,
                      "Matmul: set_batch_num is the cube-only form's (an "
                      "AIC_ONLY kernel): the devkit's MatmulClient of a MIX "
                      "kernel has no SetBatchNum");
    if (a <= 0 || b <= 0 || (a % b && b % a))
      return sim_fail(x, in,
                      "Matmul: set_batch_num(%lld, %lld): the batches must "
                      "be positive and one a multiple of the other",
                      (long long)a, (long long)b);
    m->batch_a = (int32_t)a;
    m->batch_b = (int32_t)b;
    m->has_batch_num = 1;
    return ASC_OK;
  }
  case 11: /* SetQuantScalar(uint64) */
    m->quant_mode = 1;
    m->quant_scalar = (uint64_t)arg_i(x, in, 1);
    return ASC_OK;
  case 12: { /* SetQuantVector(GlobalTensor<uint64_t>) */
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "quant_vector");
    if (!t)
      return ASC_ERR_KERNEL;
    m->quant_mode = 2;
    m->quant_vec = *t;
    return ASC_OK;
  }
  case 13: { /* SetHF32(enableHF32, transMode) */
    int64_t mode = arg_i(x, in, 2);
    if (mode != 0 && mode != 1)
      return sim_fail(x, in, "Matmul: set_hf32 trans_mode %lld is not 0 or 1",
                      (long long)mode);
    m->hf32 = arg_i(x, in, 1) != 0;
    m->hf32_trans = (int)mode;
    return ASC_OK;
  }
  case 14:   /* SetWorkspace(GlobalTensor) */
  case 15: { /* SetWorkspace(addr, size) */
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "addr");
    if (!t)
      return ASC_ERR_KERNEL;
    m->ws = *t;
    int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
    m->ws_bytes = in->imm == 15 ? arg_i(x, in, 2)
                  : t->len >= 0 ? t->len * (es ? es : 1)
                                : -1;
    if (in->imm == 15 && m->ws_bytes < 0)
      return sim_fail(x, in, "Matmul: set_workspace size %lld is negative",
                      (long long)m->ws_bytes);
    m->has_ws = 1;
    return ASC_OK;
  }
  case 16: /* SetSelfDefineData(uint64) */
  case 17: /* SetSelfDefineData(address) */
    m->self_define_data = in->imm == 16 ? (uint64_t)arg_i(x, in, 1)
                                        : (uint64_t)ASC_SLOT(x, in, 1).t.addr;
    return ASC_OK;
  case 18: /* SetUserDefInfo(tilingPtr) */
    m->user_def_info = (uint64_t)ASC_SLOT(x, in, 1).t.addr;
    return ASC_OK;
  case 19: { /* SetSparseIndex: kept; no effect for these B types */
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "index_global");
    if (!t)
      return ASC_ERR_KERNEL;
    m->sparse_index = *t;
    m->has_sparse_index = 1;
    return ASC_OK;
  }
  case 20: /* WaitIterateAll */
    if (!m->pending_all)
      return sim_fail(x, in,
                      "Matmul: wait_iterate_all without an iterate_all("
                      "sync=False, wait_iterate_all=True) before it (the "
                      "devkit's would wait forever)");
    m->pending_all = 0;
    return ASC_OK;
  case 21: /* WaitIterateBatch */
    if (!m->pending_batch)
      return sim_fail(x, in,
                      "Matmul: wait_iterate_batch without an iterate_batch / "
                      "iterate_n_batch(sync=False, wait_iterate_batch=True) "
                      "before it (the devkit's would wait forever)");
    m->pending_batch = 0;
    return ASC_OK;
  case 23: { /* SetQuantVector(LocalTensor<uint64_t> in L1) */
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "quant_vector");
    if (!t)
      return ASC_ERR_KERNEL;
    m->quant_mode = 3;
    m->quant_vec = *t;
    return ASC_OK;
  }
  case 24: /* mmlocal: SetTensorA / SetTensorB / SetBias of an L1 tensor */
  case 25:
  case 26:
    return set_l1_input(x, in, m);
  default: /* 22: WaitGetTensorC: the copies were done at their calls */
    return ASC_OK;
  }
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
      m->a_l1 = 0;
    } else if (in->imm == 1) {
      m->b = *t;
      m->has_b = 1;
      m->trans_b = arg_i(x, in, 2) != 0;
      m->b_l1 = 0;
    } else {
      m->bias = *t;
      m->has_bias = 1;
      m->bias_l1 = 0;
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
  case 7: /* End: the object's work is done */
    m->iter = 0;
    break;
  default:
    return set_more(x, in, m);
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

static void block_size(const Shape *s, int64_t bi, int64_t bj, int64_t *rows,
                       int64_t *cols);

/* mmlocal: Iterate(enPartialSum, localCmatrix) (sub 2): the block the
 * Iterate moved to is computed into the user's CO1 tensor (NZ, its rows
 * 16-aligned: the Mmads' layout), which the kernel then fixpipes out
 * itself; enPartialSum adds to what the tensor holds, which the devkit
 * allows only for one block (singleM == baseM, singleN == baseN). */
static AscStatus iterate_l0c(AscExec *x, const AscInstr *in, AscSimMatmul *m,
                             const Shape *s) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 2, "local_c_matrix");
  if (!t)
    return ASC_ERR_KERNEL;
  if (is_mix(x->b))
    return sim_fail(x, in,
                    "Matmul: iterate(local_c_matrix=...) needs an AIC_ONLY "
                    "kernel (the CO1 tensor is the cube core's)");
  int64_t partial = arg_i(x, in, 1);
  if (partial && (s->sm != s->bm || s->sn != s->bn))
    return sim_fail(x, in,
                    "Matmul: iterate(en_partial_sum=True, local_c_matrix) "
                    "accumulates in L0C only when singleM == baseM and "
                    "singleN == baseN (here %lld x %lld, base %lld x %lld)",
                    (long long)s->sm, (long long)s->sn, (long long)s->bm,
                    (long long)s->bn);
  int64_t rows, cols;
  block_size(s, m->cur_m, m->cur_n, &rows, &cols);
  MmOut o = {t, 0, 0, 0, 0, 1, partial != 0};
  int64_t fractals = 0;
  return sim_mm_block(x, in, m, s, m->cur_m * s->bm, m->cur_n * s->bn, rows,
                      cols, &o, &fractals)
             ? ASC_OK
             : ASC_ERR_KERNEL;
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
  if (m->iter == 0) { /* a loop starts: its mode, the workspace's start */
    m->iter_async = in->imm == 1;
    m->c_off = 0;
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
  /* the timing model: this Iterate started a block (in a MIX kernel the
   * devkit's client posts a message for it) */
  if (in->imm == 2) {
    AscStatus st = iterate_l0c(x, in, m, &s);
    x->b->ev.elems = 1;
    return st;
  }
  /* mmlocal: enPartialSum, as the devkit allows it: one block */
  int partial = arg_i(x, in, 1) != 0;
  if (partial && (s.sm != s.bm || s.sn != s.bn))
    return sim_fail(x, in,
                    "Matmul: iterate(en_partial_sum=True) accumulates in "
                    "L0C only when singleM == baseM and singleN == baseN "
                    "(here %lld x %lld, base %lld x %lld)",
                    (long long)s.sm, (long long)s.sn, (long long)s.bm,
                    (long long)s.bn);
  /* the devkit's Iterate computes its block into L0C, GetTensorC moves it
   * out; here GetTensorC computes it. A block no GetTensorC took is what a
   * partial sum adds to: it is computed now into the Matmul's L0C (the one
   * block: (0, 0)) */
  if (partial && m->has_prev && !m->block_done) {
    int64_t rows, cols, fractals = 0;
    block_size(&s, 0, 0, &rows, &cols);
    MmOut o = {&m->a, 0, 0, 0, 0, 2, m->prev_partial};
    if (!sim_mm_block(x, in, m, &s, 0, 0, rows, cols, &o, &fractals))
      return ASC_ERR_KERNEL;
  }
  m->partial = m->prev_partial = partial;
  m->has_prev = 1;
  m->block_done = 0;
  x->b->ev.elems = 1;
  return ASC_OK;
}

/* The rows and columns of block (bi, bj) (tails at the edges). */
static void block_size(const Shape *s, int64_t bi, int64_t bj, int64_t *rows,
                       int64_t *cols) {
  int64_t r = s->sm - bi * s->bm, c = s->sn - bj * s->bn;
  *rows = r < s->bm ? r : s->bm;
  *cols = c < s->bn ? c : s->bn;
}

/* The products one call computes (the interpreter's step budget does not
 * see inside it): beyond 2^32 a KernelError, not a hang. */
static int too_large(AscExec *x, const AscInstr *in, const Shape *s,
                     int64_t rows, int64_t cols) {
  int64_t cells = rows * cols;
  if (s->bm > 4096 || s->bn > 4096 || cells > ((int64_t)1 << 26) ||
      cells * s->sk > ((int64_t)1 << 32)) {
    sim_fail(x, in, "Matmul: %lld x %lld is too large to simulate",
             (long long)rows, (long long)cols);
    return 1;
  }
  return 0;
}

/* The current block of an Iterate loop: its origin and size; 0 after
 * sim_fail outside a loop. */
static int current_block(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                         const Shape *s, const char *what, int64_t *rows,
                         int64_t *cols) {
  if (m->iter == 0) {
    sim_fail(x, in, "Matmul: %s outside an iterate loop (no current block)",
             what);
    return 0;
  }
  block_size(s, m->cur_m, m->cur_n, rows, cols);
  return 1;
}

/* IterateAll (sub 0; 3 IterateAll<false>; 4 into a UB tensor), GetTensorC
 * to GM (1; 5 <false>) or to a UB tensor (2; 6 <false>), to both (7),
 * AsyncGetTensorC (8). The asynchronous forms do their work at the call. */
AscStatus sim_matmul_compute(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  if (!works_here(x->b))
    return ASC_OK;
  int sub = (int)in->imm;
  const AscTensorRef *t = sim_tensor_arg(x, in, 1, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  Shape s;
  if (!shape_of(x, in, m, &s))
    return ASC_ERR_KERNEL;
  int k_atomic = sub == 7 ? 3 : 2; /* the both form has the UB tensor at 2 */
  int64_t en_atomic = sub == 8 ? 0 : arg_i(x, in, k_atomic);
  int64_t seq = sub == 4 || sub == 8 ? 0 : arg_i(x, in, k_atomic + 1);
  if (en_atomic < 0 || en_atomic > 3)
    return sim_fail(x, in, "Matmul: enAtomic %lld is not 0..3",
                    (long long)en_atomic);
  int whole = sub == 0 || sub == 3 || sub == 4;
  if (too_large(x, in, &s, whole ? s.sm : s.bm, whole ? s.sn : s.bn))
    return ASC_ERR_KERNEL;
  int64_t fractals = 0;
  MmOut o = {t, 0, s.ldc, en_atomic, 0, 0, 0};
  int ok;
  if (whole) {      /* IterateAll: every block into its place */
    if (sub == 4) { /* a UB tensor: singleM x singleN row-major */
      o.to_ub = 1;
      o.ld = s.sn;
    }
    /* the blocks together are C; each sums over K as one block would */
    ok = sim_mm_block(x, in, m, &s, 0, 0, s.sm, s.sn, &o, &fractals);
    m->iter = 0;
    if (sub == 3 && arg_i(x, in, 4))
      m->pending_all = 1; /* WaitIterateAll waits for it */
  } else {
    int64_t rows, cols;
    if (!current_block(x, in, m, &s,
                       sub == 8 ? "async_get_tensor_c" : "get_tensor_c", &rows,
                       &cols))
      return ASC_ERR_KERNEL;
    int64_t m0 = m->cur_m * s.bm, n0 = m->cur_n * s.bn;
    o.partial = m->partial; /* mmlocal: onto what L0C holds */
    if (m->partial && sub == 7)
      return sim_fail(x, in,
                      "Matmul: get_tensor_c into GM and the UB at once after "
                      "iterate(en_partial_sum=True) is not simulated");
    if (sub == 8) { /* from the workspace, baseM x baseN row-major */
      if (!m->iter_async || !m->has_ws)
        return sim_fail(x, in,
                        "Matmul: async_get_tensor_c needs an asynchronous "
                        "iterate (sync=False) and set_workspace");
      m->c_off += s.bm * s.bn * (int64_t)asc_dtype_size((AscDType)t->dtype);
    }
    if (sub == 1 || sub == 5 || sub == 7) {
      o.off = seq ? 0 : m->cur_m * s.bm * s.ldc + m->cur_n * s.bn;
      o.ld = seq ? s.bn : s.ldc;
      ok = sim_mm_block(x, in, m, &s, m0, n0, rows, cols, &o, &fractals);
      if (ok && sub == 7) { /* and the UB tensor */
        const AscTensorRef *u = sim_tensor_arg(x, in, 2, "optional_tensor");
        int64_t unused = 0;
        MmOut ou = {u, 0, s.bn, 0, 1, 0, 0};
        ok = u && sim_mm_block(x, in, m, &s, m0, n0, rows, cols, &ou, &unused);
      }
    } else { /* UB: baseM x baseN row-major */
      o.to_ub = 1;
      o.ld = s.bn;
      ok = sim_mm_block(x, in, m, &s, m0, n0, rows, cols, &o, &fractals);
    }
  }
  x->b->ev.elems = fractals; /* fractals (cost class CUBE) */
  if (ok && !whole)
    m->block_done = 1; /* mmlocal: the block is in L0C, moved out */
  return ok ? ASC_OK : ASC_ERR_KERNEL;
}

/* GetOffsetC<false>(): the devkit's reserved method returns a zero
 * MatrixOffset. */
AscStatus sim_matmul_offset_c(AscExec *x, const AscInstr *in) {
  if (!object(x, in, 0))
    return ASC_ERR_KERNEL;
  const AscStructInfo *si = asc_struct_info(ASC_STRUCT_MATRIX_OFFSET);
  memset(&ASC_DST(x, in), 0,
         sizeof(AscSlot) * (size_t)(si->n_slots > 0 ? si->n_slots : 1));
  return ASC_OK;
}

/* Copies `bytes` of GM tensor g to UB tensor u (through the sanitizer's
 * and the memory model's checks). */
static int gm_to_ub(AscExec *x, const AscInstr *in, const AscTensorRef *g,
                    const AscTensorRef *u, int64_t count) {
  if (count <= 0)
    return 1;
  SimGmSpan span;
  if (sim_gm_span(x, in, g, count, 0, "workspace", &span))
    return 0;
  uint8_t *p = sim_local_ptr(x, in, u, count, 1, "tensor");
  if (!p)
    return 0;
  int64_t es = (int64_t)asc_dtype_size((AscDType)u->dtype);
  for (int64_t e = 0; e < count * es; e++)
    p[e] = span.p && e >= span.skip && e < span.skip + span.valid
               ? span.p[e - span.skip]
               : 0;
  return 1;
}

/* The workspace forms: GetTensorC<false>() (sub 0: the current block into
 * the workspace, returned as a GlobalTensor), GetBatchTensorC(batchA,
 * batchB) (1: the next IterateNBatch result, a GlobalTensor) and
 * GetBatchTensorC(ub, batchA, batchB) (2: copied into the UB tensor). */
AscStatus sim_matmul_workspace_c(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  int sub = (int)in->imm;
  AscTensorRef *dst = sub == 2 ? NULL : &ASC_DST(x, in).t;
  if (dst) { /* on a core that does no work: an empty tensor */
    dst->buf = -1;
    dst->addr = 0;
    dst->len = 0;
    dst->dtype = in->dtype;
  }
  if (!works_here(x->b))
    return ASC_OK;
  Shape s;
  if (!shape_of(x, in, m, &s))
    return ASC_ERR_KERNEL;
  if (!m->has_ws)
    return sim_fail(x, in,
                    "Matmul: %s reads the workspace: set_workspace first",
                    sub ? "get_batch_tensor_c" : "get_tensor_c()");
  int dt = sub == 2 ? sim_tensor_arg(x, in, 1, "tensor")->dtype : in->dtype;
  int64_t es = (int64_t)asc_dtype_size((AscDType)dt);
  AscTensorRef view;
  if (sub == 0) {
    int64_t rows, cols;
    if (!current_block(x, in, m, &s, "get_tensor_c()", &rows, &cols))
      return ASC_ERR_KERNEL;
    if (!m->iter_async)
      return sim_fail(x, in,
                      "Matmul: get_tensor_c() returning a GlobalTensor needs "
                      "an asynchronous iterate (sync=False)");
    int64_t bytes = s.bm * s.bn * es;
    if (m->ws_bytes >= 0 && m->c_off + bytes > m->ws_bytes)
      return sim_fail(x, in,
                      "Matmul: the workspace (%lld bytes) is too small for "
                      "block %lld of C (%lld bytes each)",
                      (long long)m->ws_bytes, (long long)(m->iter - 1),
                      (long long)bytes);
    if (!gm_view(x, in, &m->ws, m->c_off, dt, &view))
      return ASC_ERR_KERNEL;
    view.len = s.bm * s.bn;
    int64_t fractals = 0;
    MmOut o = {&view, 0, s.bn, arg_i(x, in, 1), 0, 0, m->partial};
    if (o.en_atomic < 0 || o.en_atomic > 3)
      return sim_fail(x, in, "Matmul: enAtomic %lld is not 0..3",
                      (long long)o.en_atomic);
    if (!sim_mm_block(x, in, m, &s, m->cur_m * s.bm, m->cur_n * s.bn, rows,
                      cols, &o, &fractals))
      return ASC_ERR_KERNEL;
    x->b->ev.elems = fractals;
    m->block_done = 1; /* mmlocal */
    m->c_off += bytes;
    *dst = view;
    return ASC_OK;
  }
  int k = sub == 2 ? 2 : 1;
  int64_t ba = arg_i(x, in, k), bb = arg_i(x, in, k + 1);
  int64_t batch = ba > bb ? ba : bb;
  if (!m->has_nbatch)
    return sim_fail(x, in,
                    "Matmul: get_batch_tensor_c without an iterate_n_batch "
                    "before it");
  int64_t count = batch * s.sm * s.sn, bytes = count * es;
  if (batch <= 0 || m->nb_off + bytes > m->nb_end)
    return sim_fail(x, in,
                    "Matmul: get_batch_tensor_c(%lld, %lld): iterate_n_batch "
                    "left %lld bytes of results, this wants %lld",
                    (long long)ba, (long long)bb,
                    (long long)(m->nb_end - m->nb_off), (long long)bytes);
  if (!gm_view(x, in, &m->ws, m->nb_off, dt, &view))
    return ASC_ERR_KERNEL;
  view.len = count;
  m->nb_off += bytes;
  if (sub == 1) {
    *dst = view;
    return ASC_OK;
  }
  return gm_to_ub(x, in, &view, sim_tensor_arg(x, in, 1, "tensor"), count)
             ? ASC_OK
             : ASC_ERR_KERNEL;
}

/* Merges the access records from `from` on into the earlier ones of the
 * same kind (memory, argument, direction, atomic): a batch computes one
 * block call per matrix, and an instruction holds ASC_EVENT_MAX_ACCESSES
 * records; the union of two ranges with a gap bounds the bytes. */
static void merge_accesses(AscExec *x, int from) {
  AscEvent *ev = &x->b->ev;
  int n = from;
  for (int i = from; i < ev->n_acc; i++) {
    AscAccess *a = &ev->acc[i];
    int j = 0;
    for (; j < n; j++) {
      AscAccess *b = &ev->acc[j];
      if (b->space == a->space && b->buf == a->buf && b->write == a->write &&
          b->atomic == a->atomic)
        break;
    }
    if (j == n) {
      ev->acc[n++] = *a;
      continue;
    }
    AscAccess *b = &ev->acc[j];
    int exact = !a->bounding && !b->bounding && !a->rows && !b->rows &&
                a->lo <= b->hi && b->lo <= a->hi;
    b->lo = a->lo < b->lo ? a->lo : b->lo;
    b->hi = a->hi > b->hi ? a->hi : b->hi;
    if (!exact) {
      b->bounding = 1;
      b->rows = 0;
    }
  }
  ev->n_acc = n;
}

/* One batched computation: max(batchA, batchB) single-core matmuls, batch i
 * taking A number i / (batch / batchA) and B i / (batch / batchB), each
 * matrix of the NORMAL / BNGS1S2 layout after the one before (strideA /
 * strideB elements apart when given, else its own size), C's one after
 * another (singleM x singleN each) from element c_off of t (a GM tensor, or
 * the UB tensor to_ub), bias i (singleN after the one before) with
 * bias_batch, else the one bias. */
/* mmlocal: matrix idx of a batch in the BSNGD (layout 2) / SBNGD (3)
 * layouts, as the devkit's batch copy-in and copy-out address them: with
 * info the tiling's LayoutInfo B, S, N, G, D (C: B, S1, N, G, S2) and the
 * matrix h x w, its rows are D * N * G (SBNGD: * B) elements apart, the
 * batches of one line of N * G matrices w (or the user's matrixStride)
 * apart, the lines (BSNGD) N * G * h * w apart. Returns the start in
 * elements; 0 after sim_fail. */
static int layout_at(AscExec *x, const AscInstr *in, int layout,
                     const int64_t *info, const char *what, int64_t idx,
                     int64_t h, int64_t w, int64_t stride, int64_t *ld,
                     int64_t *off) {
  int64_t ng = info[2] * info[3];
  *ld = info[4] * ng * (layout == 3 ? info[0] : 1);
  if (ng <= 0 || *ld < w || (layout == 3 && info[0] <= 0)) {
    sim_fail(x, in,
             "Matmul: %s of the %s layout: the tiling's layout info (B %lld, "
             "N %lld, G %lld, D %lld) does not hold its %lld columns "
             "(host: set_%c_layout)",
             what, layout == 2 ? "BSNGD" : "SBNGD", (long long)info[0],
             (long long)info[2], (long long)info[3], (long long)info[4],
             (long long)w,
             what[0] == 'A'   ? 'a'
             : what[0] == 'B' ? 'b'
                              : 'c');
    return 0;
  }
  int64_t step = stride ? stride : w;
  *off = layout == 2 ? (idx / ng) * ng * h * w + (idx % ng) * step : idx * step;
  return 1;
}

static int batch_run(AscExec *x, const AscInstr *in, AscSimMatmul *m,
                     const Shape *s0, int64_t ba, int64_t bb, int64_t stride_a,
                     int64_t stride_b, const AscTensorRef *t, int64_t c_off,
                     int to_ub, int bias_batch, int64_t en_atomic,
                     int64_t a_first, int64_t b_first, int64_t *fractals) {
  if (ba <= 0 || bb <= 0 || (ba % bb && bb % ba)) {
    sim_fail(x, in,
             "Matmul: batches %lld and %lld: both positive, one a multiple "
             "of the other",
             (long long)ba, (long long)bb);
    return 0;
  }
  if (m->quant_mode) {
    sim_fail(x, in,
             "Matmul: the batch forms do not quantise (the devkit's "
             "IterateBatch does not take set_quant_scalar / "
             "set_quant_vector)");
    return 0;
  }
  if (en_atomic < 0 || en_atomic > 3) {
    sim_fail(x, in, "Matmul: enAtomic %lld is not 0..3", (long long)en_atomic);
    return 0;
  }
  int64_t batch = ba > bb ? ba : bb;
  Shape s = *s0;
  s.lda = m->trans_a ? s.sm : s.sk;
  s.ldb = m->trans_b ? s.sk : s.sn;
  s.ldc = s.sn;
  int64_t sa = stride_a ? stride_a : s.sm * s.sk;
  int64_t sb = stride_b ? stride_b : s.sk * s.sn;
  if (too_large(x, in, &s, s.sm, s.sn))
    return 0;
  int64_t esa = (int64_t)asc_dtype_size((AscDType)m->a.dtype);
  int64_t esb = (int64_t)asc_dtype_size((AscDType)m->b.dtype);
  int64_t esbias = (int64_t)asc_dtype_size((AscDType)m->bias.dtype);
  int64_t esc = (int64_t)asc_dtype_size((AscDType)t->dtype);
  int bsngd_ab = m->layout_a == 2 || m->layout_a == 3;
  int bsngd_c = m->layout_c == 2 || m->layout_c == 3;
  if (bsngd_c && (to_ub || c_off)) {
    sim_fail(x, in,
             "Matmul: a C of the BSNGD / SBNGD layout is simulated into GM "
             "by iterate_batch only");
    return 0;
  }
  for (int64_t i = 0; i < batch; i++) {
    AscSimMatmul mb = *m;
    int64_t ia = a_first + i / (batch / ba), ib = b_first + i / (batch / bb);
    int64_t oa, ob, oc, ea = ia * sa, eb = ib * sb,
                        ec = c_off + i * s.sm * s.sn;
    /* mmlocal: the BSNGD / SBNGD layouts */
    if (bsngd_ab &&
        (!layout_at(x, in, m->layout_a, &m->tiling[TL_A_LAYOUT_B], "A", ia,
                    m->trans_a ? s.sk : s.sm, m->trans_a ? s.sm : s.sk,
                    stride_a, &s.lda, &ea) ||
         !layout_at(x, in, m->layout_b, &m->tiling[TL_B_LAYOUT_B], "B", ib,
                    m->trans_b ? s.sn : s.sk, m->trans_b ? s.sk : s.sn,
                    stride_b, &s.ldb, &eb)))
      return 0;
    if (bsngd_c && !layout_at(x, in, m->layout_c, &m->tiling[TL_C_LAYOUT_B],
                              "C", i, s.sm, s.sn, 0, &s.ldc, &ec))
      return 0;
    if (asc_mul_i64(ea, esa, &oa) || asc_mul_i64(eb, esb, &ob) ||
        asc_mul_i64(ec, esc, &oc)) {
      sim_fail(x, in, "Matmul: batch offset out of range");
      return 0;
    }
    AscTensorRef tc;
    if (!gm_view(x, in, &m->a, oa, m->a.dtype, &mb.a) ||
        !gm_view(x, in, &m->b, ob, m->b.dtype, &mb.b) ||
        !gm_view(x, in, t, oc, t->dtype, &tc))
      return 0;
    if (m->has_bias && bias_batch &&
        !gm_view(x, in, &m->bias, i * s.sn * esbias, m->bias.dtype, &mb.bias))
      return 0;
    MmOut o = {&tc, 0, s.ldc, en_atomic, to_ub, 0, 0};
    int first = x->b->ev.n_acc;
    if (!sim_mm_block(x, in, &mb, &s, 0, 0, s.sm, s.sn, &o, fractals))
      return 0;
    if (i > 0 || a_first > 0 || b_first > 0)
      merge_accesses(x, first);
  }
  return 1;
}

/* IterateBatch (sub 0; 1 <false>; 2 into a UB tensor), the cube-only
 * IterateBatch after SetBatchNum (3; 4 into a UB tensor), IterateNBatch (5;
 * 6 <false>: its Cs into the workspace for GetBatchTensorC). */
AscStatus sim_matmul_batch(AscExec *x, const AscInstr *in) {
  AscSimMatmul *m = object(x, in, 0);
  if (!m)
    return ASC_ERR_KERNEL;
  if (!works_here(x->b))
    return ASC_OK;
  int sub = (int)in->imm;
  Shape s;
  if (!shape_of(x, in, m, &s))
    return ASC_ERR_KERNEL;
  int64_t fractals = 0;
  int ok;
  if (sub <= 4) {
    const AscTensorRef *t = sim_tensor_arg(x, in, 1, "tensor");
    if (!t)
      return ASC_ERR_KERNEL;
    int cube = sub >= 3;
    int64_t ba, bb, partial, atomic;
    if (cube) {
      if (is_mix(x->b))
        return sim_fail(x, in,
                        "Matmul: the cube-only iterate_batch (after "
                        "set_batch_num) needs an AIC_ONLY kernel: the "
                        "devkit's MatmulClient of a MIX kernel has no such "
                        "IterateBatch");
      if (!m->has_batch_num)
        return sim_fail(x, in,
                        "Matmul: the cube-only iterate_batch needs "
                        "set_batch_num first");
      ba = m->batch_a;
      bb = m->batch_b;
      partial = arg_i(x, in, 2);
      atomic = arg_i(x, in, 3);
    } else {
      ba = arg_i(x, in, 2);
      bb = arg_i(x, in, 3);
      partial = arg_i(x, in, 8);
      atomic = arg_i(x, in, 9);
    }
    if (partial)
      return sim_fail(x, in,
                      "Matmul: iterate_batch with en_partial_sum=True (adding "
                      "to what L0C holds) is not simulated");
    ok = batch_run(x, in, m, &s, ba, bb, arg_i(x, in, 5), arg_i(x, in, 6), t, 0,
                   sub == 2 || sub == 4, (int)arg_i(x, in, cube ? 8 : 11),
                   atomic, 0, 0, &fractals);
    if (ok && sub == 1 && arg_i(x, in, 10))
      m->pending_batch = 1;
  } else { /* IterateNBatch: batchLoop IterateBatches into the workspace */
    int64_t loops = arg_i(x, in, 1), ba = arg_i(x, in, 2), bb = arg_i(x, in, 3);
    if (!m->has_ws)
      return sim_fail(x, in,
                      "Matmul: iterate_n_batch writes its Cs to the "
                      "workspace: set_workspace first");
    int64_t batch = ba > bb ? ba : bb;
    int64_t total = loops * batch * s.sm * s.sn;
    if (loops < 0 || total < 0 || total > ((int64_t)1 << 26))
      return sim_fail(x, in, "Matmul: iterate_n_batch(%lld, ...): too large",
                      (long long)loops);
    AscTensorRef ws; /* the workspace as an array of C's elements */
    if (!gm_view(x, in, &m->ws, 0, m->c_dtype, &ws))
      return ASC_ERR_KERNEL;
    int64_t esc = (int64_t)asc_dtype_size((AscDType)ws.dtype);
    if (m->ws_bytes >= 0 && total * esc > m->ws_bytes)
      return sim_fail(x, in,
                      "Matmul: the workspace (%lld bytes) is too small for "
                      "iterate_n_batch's %lld Cs (%lld bytes)",
                      (long long)m->ws_bytes, (long long)(loops * batch),
                      (long long)(total * esc));
    ok = 1;
    for (int64_t l = 0; ok && l < loops; l++)
      ok = batch_run(x, in, m, &s, ba, bb, arg_i(x, in, 5), arg_i(x, in, 6),
                     &ws, l * batch * s.sm * s.sn, 0, (int)arg_i(x, in, 9), 0,
                     l * ba, l * bb, &fractals);
    if (ok) {
      m->has_nbatch = 1;
      m->nb_off = 0;
      m->nb_end = total * esc;
      if (sub == 6 && arg_i(x, in, 8))
        m->pending_batch = 1;
    }
  }
  x->b->ev.elems = fractals;
  return ok ? ASC_OK : ASC_ERR_KERNEL;
}
