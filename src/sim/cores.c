/* family: cores. The cores of a launch (kernel types) and their cross-core
 * flags (CrossCoreSetFlag / CrossCoreWaitFlag).
 *
 * A launch of core_num AI Cores runs, per kernel type (the devkit's
 * GetBlockNum / GetBlockIdx pages): AIV_ONLY, MIX_AIV_1_0 and
 * MIX_AIV_HARD_SYNC core_num vector cores; AIC_ONLY, MIX_AIC_1_0 and
 * MIX_AIC_HARD_SYNC core_num cube cores; MIX_AIC_1_1 core_num cube cores
 * each with one vector core; MIX_AIC_1_2 core_num cube cores each with two
 * (the Ascend910B's 1:2). Each core is a block of the launch: block
 * group * per_group + r, r = 0 the AIC, then the AIVs. GetBlockNum is
 * core_num everywhere; GetBlockIdx is the group on the AIC and
 * group * ratio + sub on an AIV (dav_c220's GetBlockIdxImpl);
 * GetSubBlockIdx the AIV's index in its group (0 on the AIC);
 * GetSubBlockNum and GetTaskRatio 1 on the AIC, the AIVs per group on an
 * AIV.
 *
 * Cross-core flags ("关键特性说明" of the devkit's 核间同步 pages): every
 * core has a counter per flag id (0-15; the low 4 bits of flagId). Mode 0:
 * when every core of the setter's kind in the launch has set the flag once
 * more, each of their counters counts up. Mode 1: the same for the AIVs of
 * one AI Core. Mode 2: an AIC's set counts up the counter of each of its
 * AIVs; when all the AIVs of an AI Core have set once more, the AIC's
 * counter counts up. A wait blocks while its counter is 0, then counts it
 * down. A counter above 15 is a KernelError (the hardware's exception).
 * The blocks run on threads of their own, with the block-sync machinery of
 * block_sync.c: a wait no core can satisfy is a deadlock KernelError, and
 * each delivery orders (for the sanitizer's cross-block race check) the
 * setters' accesses before the waiter's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum { N_FLAGS = 16, MAX_COUNT = 15, N_MODES = 3, FLAG_KEY_BUF = -2 };

struct AscCoreFlags {
  int units, per_group;
  /* per block and flag: the counter; the sets of each mode (mode 2: the
   * AIVs' sets, counted for their AIC) */
  int32_t *count;
  int64_t *sets[N_MODES];
  /* completed rounds: mode 0 per kind (0 AIV, 1 AIC), modes 1 and 2 per
   * group (indexed by the group's first block) */
  int64_t *rounds[N_MODES];
};

int asc_kernel_type_of(const AscKernel *k) {
  if (!k || !k->module || !k->n_funcs)
    return KT_AIV_ONLY;
  const AscOp *f = asc_module_find_function(k->module, k->funcs[0].name);
  int64_t t = f ? asc_op_attr_int(f, "kernel_type", KT_AIV_ONLY) : 0;
  return t >= KT_AIV_ONLY && t <= KT_MIX_AIC_1_2 ? (int)t : KT_AIV_ONLY;
}

int asc_kernel_type(const AscKernel *k) { return asc_kernel_type_of(k); }

const char *asc_kernel_type_name(int64_t kernel_type) {
  static const char *const names[] = {
      "AIV_ONLY",    "AIC_ONLY",    "MIX_AIV_HARD_SYNC", "MIX_AIC_HARD_SYNC",
      "MIX_AIV_1_0", "MIX_AIC_1_0", "MIX_AIC_1_1",       "MIX_AIC_1_2"};
  return kernel_type >= KT_AIV_ONLY && kernel_type <= KT_MIX_AIC_1_2
             ? names[kernel_type]
             : "?";
}

int asc_kernel_type_is_mix(int64_t kernel_type) {
  return kernel_type > KT_AIC_ONLY && kernel_type <= KT_MIX_AIC_1_2;
}

int asc_kernel_launch_blocks(const AscKernel *k, int core_num) {
  int per = asc_cores_per_group(asc_kernel_type_of(k));
  return core_num > 0 && core_num <= (1 << 20) ? core_num * per : 0;
}

int asc_cores_per_group(int kernel_type) {
  return kernel_type == KT_MIX_AIC_1_2   ? 3
         : kernel_type == KT_MIX_AIC_1_1 ? 2
                                         : 1;
}

static int has_aic(int kernel_type) {
  switch (kernel_type) {
  case KT_AIC_ONLY:
  case KT_MIX_AIC_HARD_SYNC:
  case KT_MIX_AIC_1_0:
  case KT_MIX_AIC_1_1:
  case KT_MIX_AIC_1_2:
    return 1;
  default:
    return 0;
  }
}

int asc_kernel_uses_core_flags(const AscKernel *k) {
  for (int f = 0; f < k->n_funcs; f++)
    for (int i = 0; i < k->funcs[f].n_code; i++)
      if (k->funcs[f].code[i].op == ASC_OP_CROSS_CORE_SET_FLAG ||
          k->funcs[f].code[i].op == ASC_OP_CROSS_CORE_WAIT_FLAG)
        return 1;
  return 0;
}

void asc_cores_assign(AscBlockState *b, int kernel_type, int unit,
                      int core_num) {
  int per = asc_cores_per_group(kernel_type);
  int r = unit % per;
  b->has_core = 1;
  b->kernel_type = kernel_type;
  b->core_per_group = per;
  b->core_group = unit / per;
  b->core_is_aic = has_aic(kernel_type) && r == 0;
  b->logical_num = core_num;
  b->core_bit = b->core_is_aic ? ASC_CORE_AIC : ASC_CORE_AIV;
  if (b->core_is_aic) {
    b->core_sub_idx = 0;
    b->core_sub_num = 1;
    b->logical_idx = b->core_group;
  } else {
    int ratio = per > 1 ? per - 1 : 1;
    b->core_sub_idx = per > 1 ? r - 1 : 0;
    b->core_sub_num = ratio;
    b->logical_idx = (int64_t)b->core_group * ratio + b->core_sub_idx;
  }
}

AscCoreFlags *asc_core_flags_new(int units, int per_group) {
  AscCoreFlags *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  size_t n = (size_t)units * N_FLAGS;
  f->units = units;
  f->per_group = per_group;
  f->count = calloc(n, sizeof *f->count);
  int ok = f->count != NULL;
  for (int m = 0; m < N_MODES && ok; m++) {
    f->sets[m] = calloc(n, sizeof *f->sets[m]);
    f->rounds[m] = calloc(n + 2 * N_FLAGS, sizeof *f->rounds[m]);
    ok = f->sets[m] && f->rounds[m];
  }
  if (!ok) {
    asc_core_flags_free(f);
    return NULL;
  }
  return f;
}

void asc_core_flags_free(AscCoreFlags *f) {
  if (!f)
    return;
  free(f->count);
  for (int m = 0; m < N_MODES; m++) {
    free(f->sets[m]);
    free(f->rounds[m]);
  }
  free(f);
}

AscStatus sim_core_role(AscExec *x, const AscInstr *in) {
  const AscBlockState *b = x->b;
  int aic = b->has_core && b->core_is_aic;
  ASC_DST(x, in).i = in->imm ? aic : !aic;
  return ASC_OK;
}

/* ---- cross-core flags ---------------------------------------------------
 */

typedef struct Ctx {
  AscExec *x;
  const AscInstr *in;
  AscCoreFlags *cf;
  int flag;
  char what[96];
} Ctx;

static int32_t *counter(AscCoreFlags *cf, int unit, int flag) {
  return &cf->count[(size_t)unit * N_FLAGS + (size_t)flag];
}

/* The clock key of (unit, flag)'s counter. */
static int64_t key_of(int unit, int flag) {
  return (int64_t)unit * N_FLAGS + flag;
}

/* One more arrival for `unit`'s counter of the flag (lock held): a
 * KernelError past 15. */
static AscStatus deliver(Ctx *c, int unit) {
  int32_t *n = counter(c->cf, unit, c->flag);
  if (*n >= MAX_COUNT)
    return sim_fail(c->x, c->in,
                    "%s: the counter of flag %d on block %d would exceed %d "
                    "(its waits lag its sets by more than the hardware "
                    "counts)",
                    c->what, c->flag, unit, MAX_COUNT);
  (*n)++;
  return ASC_OK;
}

/* The blocks that take part in a round of the setter's mode: mode 0 every
 * core of its kind in the launch, modes 1 and 2 the AIVs of its AI Core. */
static int members(const AscBlockState *b, int mode, int *out, int cap) {
  AscCoreFlags *cf = b->core_flags;
  int per = cf->per_group, n = 0;
  int aic_kind = has_aic(b->kernel_type);
  for (int u = 0; u < cf->units && n < cap; u++) {
    int r = u % per;
    int is_aic = aic_kind && r == 0;
    if (mode == 0 ? is_aic == b->core_is_aic
                  : u / per == b->core_group && !is_aic)
      out[n++] = u;
  }
  return n;
}

static AscStatus set_flag(Ctx *c, int mode) {
  AscBlockState *b = c->x->b;
  AscCoreFlags *cf = c->cf;
  AscXSync *xs = b->xsync;
  int me = b->block_idx, per = cf->per_group;
  int64_t t0 = asc_xsync_arrival(b);
  if (mode == 2 && b->core_is_aic) { /* to each AIV of the group */
    for (int u = me + 1; u < me + per; u++) {
      AscStatus st = deliver(c, u);
      if (st)
        return st;
      asc_xsync_release(xs, b, FLAG_KEY_BUF, key_of(u, c->flag), t0);
    }
    asc_xsync_next_epoch(b);
    asc_xsync_released_at(b, t0);
    asc_xsync_changed(xs);
    return ASC_OK;
  }
  /* a round: every member has set once more */
  int cap = cf->units, *m = malloc(sizeof *m * (size_t)cap);
  if (!m)
    return sim_fail(c->x, c->in, "%s: out of memory", c->what);
  int n = members(b, mode, m, cap);
  int64_t *sets = cf->sets[mode];
  int64_t *round =
      &cf->rounds[mode][(mode == 0 ? (size_t)b->core_is_aic
                                   : (size_t)(b->core_group * per) + 2) *
                            N_FLAGS +
                        (size_t)c->flag];
  sets[(size_t)me * N_FLAGS + (size_t)c->flag]++;
  /* the receivers: the members themselves, or (mode 2) the AIC */
  int group0 = b->core_group * per;
  for (int i = 0; i < n; i++) {
    int u = mode == 2 ? group0 : m[i];
    asc_xsync_release(xs, b, FLAG_KEY_BUF, key_of(u, c->flag), t0);
    if (mode == 2)
      break;
  }
  AscStatus st = ASC_OK;
  for (;;) {
    int64_t least = INT64_MAX;
    for (int i = 0; i < n; i++) {
      int64_t s = sets[(size_t)m[i] * N_FLAGS + (size_t)c->flag];
      least = s < least ? s : least;
    }
    if (least <= *round)
      break;
    (*round)++;
    if (mode == 2)
      st = deliver(c, group0);
    else
      for (int i = 0; i < n && !st; i++)
        st = deliver(c, m[i]);
    if (st)
      break;
  }
  free(m);
  if (!st) {
    asc_xsync_next_epoch(b);
    asc_xsync_released_at(b, t0);
    asc_xsync_changed(xs);
  }
  return st;
}

static int counter_nonzero(void *ctx) {
  Ctx *c = ctx;
  return *counter(c->cf, c->x->b->block_idx, c->flag) > 0;
}

static AscStatus wait_flag(Ctx *c) {
  AscBlockState *b = c->x->b;
  AscXSync *xs = b->xsync;
  int64_t t0 = asc_xsync_arrival(b);
  AscStatus st = asc_xsync_wait(c->x, c->in, counter_nonzero, c, c->what);
  if (st)
    return st;
  (*counter(c->cf, b->block_idx, c->flag))--;
  int64_t rel =
      asc_xsync_acquire(xs, b, FLAG_KEY_BUF, key_of(b->block_idx, c->flag));
  asc_xsync_next_epoch(b);
  asc_xsync_released_at(b, rel > t0 ? rel : t0);
  asc_xsync_changed(xs);
  return ASC_OK;
}

AscStatus sim_cross_core_flag(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  int set = in->imm == 0;
  const char *api =
      set ? "asc.cross_core_set_flag" : "asc.cross_core_wait_flag";
  int64_t mode = asc_op_attr_int(in->src, "mode_id", 0);
  int64_t id = ASC_SLOT(x, in, 0).i;
  Ctx c = {x, in, b->core_flags, (int)((uint64_t)id & (N_FLAGS - 1)), ""};
  snprintf(c.what, sizeof c.what, "%s(flag_id=%lld, mode_id=%lld)", api,
           (long long)id, (long long)mode);
  int kt = b->has_core ? b->kernel_type : KT_AIV_ONLY;
  if (mode < 0 || mode >= N_MODES)
    return sim_fail(x, in, "%s: mode_id must be 0, 1 or 2 on the Ascend910B",
                    c.what);
  if (kt == KT_AIV_ONLY || kt == KT_AIC_ONLY)
    return sim_fail(x, in,
                    "%s: the kernel type is %s, whose launches start no "
                    "cross-core scheduler (the flag would never arrive): "
                    "give the kernel a MIX kernel_type (MIX_AIV_1_0 for "
                    "vector cores only)",
                    c.what, kt == KT_AIV_ONLY ? "AIV_ONLY" : "AIC_ONLY");
  if (set && mode > 0 && kt != KT_MIX_AIC_1_1 && kt != KT_MIX_AIC_1_2)
    return sim_fail(x, in,
                    "%s: modes 1 and 2 synchronise the cores of one AI Core, "
                    "which needs kernel_type MIX_AIC_1_1 or MIX_AIC_1_2",
                    c.what);
  if (set && mode == 1 && b->core_is_aic)
    return sim_fail(x, in,
                    "%s: mode 1 synchronises the vector cores of an AI Core; "
                    "the cube core (ascend_is_aic()) takes no part in it",
                    c.what);
  if (!b->xsync || !c.cf)
    return sim_fail(x, in, "%s: internal: the launch has no cross-core state",
                    c.what);
  asc_xsync_lock(b->xsync);
  AscStatus st = set ? set_flag(&c, (int)mode) : wait_flag(&c);
  asc_xsync_unlock(b->xsync);
  return st;
}

/* ---- which core runs an instruction -----------------------------------
 * The devkit's instructions run only on their unit's core (dav_c220
 * impls: vector instructions under ASCEND_IS_AIV, LoadData / Mmad /
 * Fixpipe and copies into L1 under ASCEND_IS_AIC): on the other core of a
 * MIX kernel (and on the one core of an AIC_ONLY kernel) they do nothing.
 * V-pipe instructions are the AIV's; M, MTE1 and FIX the AIC's; a copy
 * (MTE2, MTE3) the AIC's when a local tensor operand or result is at a
 * cube position, the AIV's when one is in the UB; everything else (scalar,
 * framework and sync instructions) runs on both. */

static int position_core(const AscType *t) {
  if (!t || t->position < 0 || t->kind == ASC_TY_GLOBAL_TENSOR ||
      t->kind == ASC_TY_GLOBAL_ADDRESS)
    return 0;
  if (t->position >= 1 && t->position <= 8)
    return ASC_CORE_AIC;
  if (t->position >= 9 && t->position <= 11)
    return ASC_CORE_AIV;
  return 0;
}

static uint8_t instr_core(const AscInstr *in) {
  const AscOpInfo *oi = asc_op_info((AscOpId)in->op);
  if (!oi || !in->src)
    return 0;
  switch (oi->pipe) {
  case ASC_PIPE_V:
    return ASC_CORE_AIV;
  case ASC_PIPE_M:
  case ASC_PIPE_MTE1:
  case ASC_PIPE_FIX:
    return ASC_CORE_AIC;
  case ASC_PIPE_MTE2:
  case ASC_PIPE_MTE3: {
    const AscOp *op = in->src;
    for (int i = 0; i < op->n_operands; i++) {
      int c = position_core(op->operands[i]->type);
      if (c == ASC_CORE_AIC)
        return (uint8_t)c;
    }
    for (int i = 0; i < op->n_operands; i++) {
      int c = position_core(op->operands[i]->type);
      if (c)
        return (uint8_t)c;
    }
    return 0;
  }
  default:
    return 0;
  }
}

uint8_t **asc_cores_table_new(const AscKernel *k) {
  int kt = asc_kernel_type_of(k);
  if (kt == KT_AIV_ONLY || kt == KT_MIX_AIV_1_0 || kt == KT_MIX_AIV_HARD_SYNC)
    return NULL; /* vector cores only: every instruction runs, as before */
  uint8_t **t = calloc((size_t)k->n_funcs + 1, sizeof *t);
  for (int f = 0; t && f < k->n_funcs; f++) {
    const AscFunc *fn = &k->funcs[f];
    t[f] = calloc((size_t)fn->n_code + 1, 1);
    if (!t[f]) {
      asc_cores_table_free(t, k);
      return NULL;
    }
    for (int i = 0; i < fn->n_code; i++)
      t[f][i] = instr_core(&fn->code[i]);
  }
  return t;
}

void asc_cores_table_free(uint8_t **t, const AscKernel *k) {
  if (!t)
    return;
  for (int f = 0; f < k->n_funcs; f++)
    free(t[f]);
  free(t);
}
