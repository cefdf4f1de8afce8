/* The vector unit: operand checks, then the numeric kernels of vecmath.c --
 * over the whole contiguous run for the count (level-2) forms, over each
 * run of enabled elements for the level-0 forms. */
#include <string.h>

#include "checked.h"
#include "sim.h"

/* a repeat: 8 blocks of 32 bytes; level-0 forms have up to 3 operands */
enum { L0_MAX_OPS = 3, L0_BLOCKS = 8, L0_BLOCK = 32, L0_REPEAT = 256 };

/* A vector operand: inside its tensor and the UB, and 32-byte aligned (the
 * vector unit reads and writes whole 32-byte blocks). */
uint8_t *sim_vec_operand(AscExec *x, const AscInstr *in, int k, int64_t n,
                         int write, const char *what) {
  const AscTensorRef *t = sim_tensor_arg(x, in, k, what);
  if (!t)
    return NULL;
  if (t->addr % 32) {
    sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned", what,
             (long long)t->addr);
    return NULL;
  }
  return sim_local_ptr(x, in, t, n, write, what);
}

/* The size of the work for the timing model. A count (level-2) form runs
 * in counter mode and leaves the mask register as ResetMask and
 * SetMaskNorm do (set_mask_norm, set_vector_mask(-1, -1) after the
 * instruction: the devkit's level-2 implementations). */
void sim_vec_work(AscExec *x, const AscTensorRef *dst, int64_t n) {
  x->b->ev.elems = n;
  x->b->ev.bytes = n * (int64_t)asc_dtype_size((AscDType)dst->dtype);
  x->b->regs.mask_counter = 0;
  x->b->regs.mask_high = UINT64_MAX;
  x->b->regs.mask_low = UINT64_MAX;
}

/* The timing model's view of an elementwise instruction (events.h,
 * AscVecOperand): where the 32-byte blocks of each repeat lie in the UB,
 * for its bank conflicts. A count (level-2) form walks its operands
 * contiguously, 256 bytes of the widest type a repeat; operand 0 is dst,
 * written (and read too when dst_read), then n_ops - 1 sources. */
static void vec_geom(AscExec *x, const AscInstr *in, int n_ops, int dst_read,
                     int64_t n) {
  AscEvent *e = &x->b->ev;
  if (!x->b->n_observers || n <= 0 || n_ops + dst_read > ASC_EVENT_MAX_VOPS)
    return;
  int64_t es[ASC_EVENT_MAX_VOPS], esize = 1;
  for (int k = 0; k < n_ops; k++) {
    es[k] = (int64_t)asc_dtype_size((AscDType)ASC_SLOT(x, in, k).t.dtype);
    if (es[k] < 1 || es[k] > 8)
      return;
    if (es[k] > esize)
      esize = es[k];
  }
  int64_t per_repeat = L0_REPEAT / esize;
  e->vrepeats = (n + per_repeat - 1) / per_repeat;
  e->n_vops = 0;
  for (int k = 0; k < n_ops + dst_read; k++) {
    int op = k < n_ops ? k : 0;
    AscVecOperand *v = &e->vop[e->n_vops++];
    memset(v, 0, sizeof *v);
    v->addr = ASC_SLOT(x, in, op).t.addr;
    v->blocks = (uint8_t)(L0_BLOCKS * es[op] / esize);
    v->blk = 1;
    v->rep = v->blocks;
    v->write = k == 0;
  }
}

static AscScalar scalar_operand(AscExec *x, const AscInstr *in, int k) {
  AscSlot v = ASC_SLOT(x, in, k);
  AscDType t = in->src->operands[k]->type->dtype;
  AscScalar s;
  if (asc_dtype_is_float(t)) {
    s.f = v.f;
    s.i = asc_float_to_int64(v.f);
  } else {
    s.i = v.i;
    s.f = (double)v.i;
  }
  return s;
}

/* The scalar of a tensor-scalar op inside the range its op allows (the
 * shift amounts; asc_vec_scalar_range). */
static int scalar_in_range(AscExec *x, const AscInstr *in, AscScalar s) {
  int64_t lo, hi;
  AscDType dt = (AscDType)in->dtype;
  if (!asc_vec_scalar_range((AscVecScalarOp)in->imm, dt, &lo, &hi) ||
      (s.i >= lo && s.i <= hi))
    return 1;
  sim_fail(x, in, "the scalar %lld is out of range [%lld, %lld] for %s",
           (long long)s.i, (long long)lo, (long long)hi, asc_dtype_name(dt));
  return 0;
}

AscStatus sim_vec_binary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *a = d ? sim_vec_operand(x, in, 1, n, 0, "src0") : NULL;
  uint8_t *b = a ? sim_vec_operand(x, in, 2, n, 0, "src1") : NULL;
  if (!b)
    return ASC_ERR_KERNEL;
  asc_vec_binary((AscVecBinOp)in->imm, (AscDType)in->dtype, d, a, b, n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  vec_geom(x, in, 3, 0, n);
  return ASC_OK;
}

AscStatus sim_vec_scalar(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  AscScalar sc = scalar_operand(x, in, 2);
  if (!s || !scalar_in_range(x, in, sc))
    return ASC_ERR_KERNEL;
  asc_vec_scalar((AscVecScalarOp)in->imm, (AscDType)in->dtype, d, s, sc, n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  vec_geom(x, in, 2, 0, n);
  return ASC_OK;
}

AscStatus sim_vec_unary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_unary(sim_unary_op(x->b, (AscVecUnOp)in->imm), (AscDType)in->dtype, d,
                s, n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  vec_geom(x, in, 2, 0, n);
  return ASC_OK;
}

AscStatus sim_vec_duplicate(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  asc_vec_dup((AscDType)in->dtype, d, scalar_operand(x, in, 1), n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  vec_geom(x, in, 1, 0, n);
  return ASC_OK;
}

AscStatus sim_vec_cast(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  const AscTensorRef *dt = &ASC_SLOT(x, in, 0).t, *st = &ASC_SLOT(x, in, 1).t;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_cast((AscDType)dt->dtype, (AscDType)st->dtype, (AscRoundMode)in->imm2,
               d, s, n);
  sim_vec_work(x, dt, n);
  vec_geom(x, in, 2, 0, n);
  return ASC_OK;
}

/* ---- level-0 forms --------------------------------------------------------
 * One repeat processes 8 data blocks of 32 bytes per operand. Block b of
 * repeat r of an operand starts (r * rep_stride + b * blk_stride) * 32 bytes
 * after the operand's address. The mask selects the elements of each repeat
 * that take part; the others are left unchanged in dst. Each repeat reads
 * all of its source blocks before writing its destination blocks, and the
 * repeats run in order. Cast (operands of two widths): the mask and the
 * elements per repeat follow the wider type (Cast.md); element i of a
 * repeat lies at byte i * sizeof(T) of each operand's repeat, so the
 * narrower operand covers 128 (or 64) bytes of it. */

typedef struct L0Run {
  int block, first, n; /* elements [first, first + n) of the repeat */
} L0Run;

typedef struct L0Mask {
  L0Run runs[L0_REPEAT / 2]; /* enabled elements, split at block edges */
  int n_runs;
  int used[L0_BLOCKS]; /* block has enabled elements */
  int enabled;
} L0Mask;

typedef struct L0 {
  int n_ops;                 /* operand 0 is dst, then the sources */
  uint8_t *base[L0_MAX_OPS]; /* host pointer of each operand's address */
  int64_t addr[L0_MAX_OPS];  /* each operand's UB address */
  int64_t blk[L0_MAX_OPS];   /* block stride, 32-byte units */
  int64_t rep[L0_MAX_OPS];   /* repeat stride, 32-byte units */
  int64_t repeat;            /* repeat_times */
  int64_t es[L0_MAX_OPS];    /* each operand's element size */
  int64_t esize, per_block;  /* mask element size (the widest), per block */
  L0Mask m[2]; /* the repeats' mask; the last repeat's in counter mode */
  int tail;    /* the last repeat uses m[1] */
  int dense;   /* the touched bytes are the bounding range */
} L0;

/* The mask of repeat r. */
static const L0Mask *l0_mask(const L0 *l, int64_t r) {
  return l->tail && r == l->repeat - 1 ? &l->m[1] : &l->m[0];
}

/* Byte offset of element i of repeat r of operand op from its address:
 * operand op holds element i at byte i * es[op] of the repeat, in 32-byte
 * blocks placed by its own block and repeat strides. */
static int64_t l0_offset(const L0 *l, int op, int64_t r, int64_t i) {
  int64_t byte = i * l->es[op];
  return (r * l->rep[op] + byte / L0_BLOCK * l->blk[op]) * L0_BLOCK +
         byte % L0_BLOCK;
}

static int l0_bit(uint64_t lo, uint64_t hi, int i) {
  return i < 64 ? (int)((lo >> i) & 1) : (int)((hi >> (i - 64)) & 1);
}

/* The runs of the elements of a repeat (per_block * 8 of them) whose mask
 * bit is set. */
static void l0_runs(L0Mask *m, int64_t per_block, uint64_t lo, uint64_t hi) {
  m->n_runs = 0;
  m->enabled = 0;
  for (int b = 0; b < L0_BLOCKS; b++) {
    m->used[b] = 0;
    for (int e = 0; e < per_block; e++) {
      int i = b * (int)per_block + e;
      if (!l0_bit(lo, hi, i))
        continue;
      m->enabled++;
      m->used[b] = 1;
      L0Run *r = m->n_runs ? &m->runs[m->n_runs - 1] : NULL;
      if (r && r->block == b && r->first + r->n == i)
        r->n++;
      else
        m->runs[m->n_runs++] = (L0Run){b, i, 1};
    }
  }
}

/* The mask register as AscendCUtils::SetMask<T>(len) sets it for a
 * continuous mask of len elements (kernel_utils_base.h): 64 sets the low
 * word, the repeat's maximum or 128 and more set both words, otherwise the
 * len lowest bits of the two words. A 32-bit type reads only the low word,
 * so a len above its maximum acts as the maximum. */
static void l0_continuous(int64_t per_repeat, uint64_t len, uint64_t *hi,
                          uint64_t *lo) {
  if (len == 64) {
    *hi = 0;
    *lo = UINT64_MAX;
  } else if (len == (uint64_t)per_repeat || len >= 128) {
    *hi = UINT64_MAX;
    *lo = UINT64_MAX;
  } else {
    *hi = len > 64 ? (((uint64_t)1 << (len - 64)) - 1) : 0;
    *lo = len > 64 ? UINT64_MAX : (((uint64_t)1 << len) - 1);
  }
}

/* The counter mode's limit on the repeats of one instruction (the model's,
 * not the hardware's: no UB holds more elements). */
enum { L0_MAX_COUNTER_REPEATS = 65535 };

/* The mask register as a level-0 instruction with isSetMask sets it: bit
 * mode writes the two words (m0 the low one), a continuous mask of m0
 * elements writes what SetMask<T>(m0) does. */
static void l0_set_mask(AscExec *x, int64_t per_repeat, int bit_mode,
                        uint64_t m0, uint64_t m1) {
  if (bit_mode) {
    x->b->regs.mask_low = m0;
    x->b->regs.mask_high = m1;
  } else {
    l0_continuous(per_repeat, m0, &x->b->regs.mask_high, &x->b->regs.mask_low);
  }
}

/* A whole repeat's enabled elements: the register's words as a repeat of
 * per_repeat elements reads them in normal mode (full: all of them, as in
 * counter mode). A repeat of 64 elements or fewer reads the low word. */
static void l0_repeat_mask(const AscExec *x, int64_t per_repeat, int full,
                           uint64_t *lo, uint64_t *hi) {
  *lo = full ? UINT64_MAX : x->b->regs.mask_low;
  *hi = per_repeat <= 64 ? 0 : full ? UINT64_MAX : x->b->regs.mask_high;
  if (per_repeat < 64)
    *lo &= ((uint64_t)1 << per_repeat) - 1;
}

/* Counter mode: the register's low word counts the elements of the whole
 * instruction, repeat_times is not used (SIMD计算说明/掩码.md): *repeats
 * repeats, the last one's *rest elements (0: a whole repeat). 0 after
 * sim_fail past the model's limit. */
static int l0_counter(AscExec *x, const AscInstr *in, int64_t per_repeat,
                      int64_t *repeats, uint64_t *rest) {
  uint64_t count = x->b->regs.mask_low;
  uint64_t reps = count / (uint64_t)per_repeat;
  *rest = count % (uint64_t)per_repeat;
  if (reps + (*rest != 0) > L0_MAX_COUNTER_REPEATS) {
    sim_fail(x, in,
             "counter mode: the mask counts %llu elements, more than %d "
             "repeats of %lld",
             (unsigned long long)count, L0_MAX_COUNTER_REPEATS,
             (long long)per_repeat);
    return 0;
  }
  *repeats = (int64_t)(reps + (*rest != 0));
  return 1;
}

/* Decodes and checks mask, repeat_times and strides (operands k.. of in:
 * mask0, mask1, repeat_times, then the repeat params, a struct of n_ops
 * block strides and n_ops repeat strides; duplicate: its block and its
 * repeat stride as two operands), checks each operand's alignment and
 * extent, and records the accesses. Returns 0 on error, 1 when there is
 * work, 2 for a NOP (repeat_times or mask 0). */
static int l0_prepare(AscExec *x, const AscInstr *in, L0 *l, int k, int n_ops,
                      int64_t blk_max, const char *const *names) {
  /* the strides, block strides first: the fields of the struct operand (a
   * slot each, in the table's order), or Duplicate's two operands */
  int64_t strides[2 * L0_MAX_OPS];
  int in_struct = in->src->operands[k + 3]->type->kind == ASC_TY_STRUCT;
  for (int j = 0; j < 2 * n_ops; j++)
    strides[j] =
        in_struct ? x->regs[in->a[k + 3] + j].i : ASC_SLOT(x, in, k + 3 + j).i;
  l->n_ops = n_ops;
  l->esize = 0;
  for (int i = 0; i < n_ops; i++) {
    if (!sim_tensor_arg(x, in, i, names[i]))
      return 0;
    AscDType t = (AscDType)ASC_SLOT(x, in, i).t.dtype;
    l->es[i] = (int64_t)asc_dtype_size(t);
    /* quant family: CastDeq's b8 dst takes whole blocks as a 16-bit type */
    if (i == 0 && in->src->id == ASC_OP_CAST_DEQ_L0 && l->es[0] == 1)
      l->es[0] = 2;
    if (l->es[i] > l->esize)
      l->esize = l->es[i];
  }
  l->per_block = L0_BLOCK / l->esize;
  int per_repeat = (int)(L0_REPEAT / l->esize);
  uint64_t m0 = (uint64_t)ASC_SLOT(x, in, k).i;
  uint64_t m1 = (uint64_t)ASC_SLOT(x, in, k + 1).i;
  l->repeat = ASC_SLOT(x, in, k + 2).i;
  if (!(in->imm2 & 2)) /* isSetMask: the instruction sets the register */
    l0_set_mask(x, per_repeat, in->imm2 & 1, m0, m1);
  uint64_t lo, hi;
  l0_repeat_mask(x, per_repeat, x->b->regs.mask_counter, &lo, &hi);
  l->tail = 0;
  if (x->b->regs.mask_counter) {
    uint64_t rest;
    if (!l0_counter(x, in, per_repeat, &l->repeat, &rest))
      return 0;
    if (rest) {
      uint64_t th, tl;
      l0_continuous(per_repeat, rest, &th, &tl);
      l0_runs(&l->m[1], l->per_block, tl, th);
      l->tail = 1;
    }
  } else if (l->repeat < 0 || l->repeat > 255) {
    sim_fail(x, in, "repeat_times %lld is out of range [0, 255]",
             (long long)l->repeat);
    return 0;
  }
  for (int i = 0; i < n_ops; i++) {
    l->blk[i] = strides[i];
    l->rep[i] = strides[n_ops + i];
    if (l->blk[i] < 0 || l->blk[i] > blk_max) {
      sim_fail(x, in, "%s block stride %lld is out of range [0, %lld]",
               names[i], (long long)l->blk[i], (long long)blk_max);
      return 0;
    }
    if (l->rep[i] < 0 || l->rep[i] > 255) {
      sim_fail(x, in, "%s repeat stride %lld is out of range [0, 255]",
               names[i], (long long)l->rep[i]);
      return 0;
    }
  }
  if (l->blk[0] == 0) {
    sim_fail(x, in,
             "dst block stride 0 is undefined behaviour on the hardware "
             "(all 8 blocks of a repeat would write one block)");
    return 0;
  }
  l0_runs(&l->m[0], l->per_block, lo, hi);
  if (l->repeat == 0 || l0_mask(l, 0)->enabled == 0)
    return 2; /* documented as a NOP: nothing is read or written */
  const L0Mask *lm = l0_mask(l, l->repeat - 1);
  const L0Run *first = &l0_mask(l, 0)->runs[0];
  const L0Run *last = &lm->runs[lm->n_runs - 1];
  for (int i = 0; i < n_ops; i++) {
    const AscTensorRef *t = &ASC_SLOT(x, in, i).t;
    if (t->addr % 32) {
      sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned", names[i],
               (long long)t->addr);
      return 0;
    }
    /* the bounding range of the touched elements, in bytes from t->addr */
    int64_t b0 = l0_offset(l, i, 0, first->first);
    int64_t b1 =
        l0_offset(l, i, l->repeat - 1, last->first + last->n - 1) + l->es[i];
    if (i == 0 && in->src->id == ASC_OP_CAST_DEQ_L0) /* quant: half blocks */
      b1 = (b1 + L0_BLOCK - 1) / L0_BLOCK * L0_BLOCK;
    AscTensorRef sub = *t;
    int64_t ts = (int64_t)asc_dtype_size((AscDType)t->dtype);
    sub.addr = t->addr + b0;
    if (t->len >= 0)
      sub.len = t->len - b0 / ts;
    if (sub.len < 0)
      sub.len = 0;
    uint8_t *p = sim_local_ptr(x, in, &sub, (b1 - b0) / ts, i == 0, names[i]);
    if (!p)
      return 0;
    l->base[i] = p - b0;
    l->addr[i] = t->addr;
  }
  int full = l->m[0].enabled == per_repeat;
  l->dense = full;
  for (int i = 0; i < n_ops; i++)
    if (l->blk[i] != 1 ||
        (l->repeat > 1 && l->rep[i] != L0_BLOCKS * l->es[i] / l->esize))
      l->dense = 0;
  if (!l->dense && x->b->n_observers)
    for (int i = 0; i < x->b->ev.n_acc; i++)
      x->b->ev.acc[i].bounding = 1;
  return 1;
}

/* Where the elements of mask block b (per_block elements of the widest
 * type) of repeat r start in operand op; they lie in one 32-byte block of
 * op (a narrower operand packs 2 or 4 mask blocks into one of its blocks). */
static uint8_t *l0_block(const L0 *l, int op, int64_t r, int b) {
  return l->base[op] + l0_offset(l, op, r, b * l->per_block);
}

/* Copies the used source blocks of repeat r into tmp (each source's
 * elements of the repeat contiguous, element i at byte i * es). */
static void l0_gather(const L0 *l, int64_t r, uint8_t tmp[][L0_REPEAT]) {
  const L0Mask *m = l0_mask(l, r);
  for (int op = 1; op < l->n_ops; op++)
    for (int b = 0; b < L0_BLOCKS; b++)
      if (m->used[b])
        memcpy(tmp[op] + b * l->per_block * l->es[op], l0_block(l, op, r, b),
               (size_t)(l->per_block * l->es[op]));
}

/* Writes the enabled elements of tmp[0] to dst's blocks of repeat r. */
static void l0_scatter(const L0 *l, int64_t r, uint8_t tmp[][L0_REPEAT]) {
  const L0Mask *m = l0_mask(l, r);
  for (int k = 0; k < m->n_runs; k++) {
    const L0Run *u = &m->runs[k];
    int64_t in_block = (u->first - u->block * l->per_block) * l->es[0];
    memcpy(l0_block(l, 0, r, u->block) + in_block, tmp[0] + u->first * l->es[0],
           (size_t)(u->n * l->es[0]));
  }
}

static void l0_work(AscExec *x, const L0 *l, int nop) {
  int64_t n = nop ? 0 : l->repeat * (L0_REPEAT / l->esize);
  x->b->ev.elems = n;
  x->b->ev.bytes = n * l->es[0];
  /* the timing model's view of the operands (vec_geom); a source of block
   * stride 0 reads its one block once a repeat (the devkit's
   * bank_conflict_ub example, scenario 7) */
  AscEvent *e = &x->b->ev;
  if (nop || !x->b->n_observers || l->n_ops > ASC_EVENT_MAX_VOPS)
    return;
  e->vrepeats = l->repeat;
  e->n_vops = l->n_ops;
  for (int i = 0; i < l->n_ops; i++) {
    AscVecOperand *v = &e->vop[i];
    int64_t blocks = L0_BLOCKS * l->es[i] / l->esize;
    memset(v, 0, sizeof *v);
    v->addr = l->addr[i];
    v->blk = (int32_t)l->blk[i];
    v->rep = (int32_t)l->rep[i];
    v->blocks = (uint8_t)(l->blk[i] == 0 ? 1 : blocks < 1 ? 1 : blocks);
    v->write = i == 0;
  }
}

static const char *const l0_binary_names[] = {"dst", "src0", "src1"};
static const char *const l0_unary_names[] = {"dst", "src"};

AscStatus sim_vec_binary_l0(AscExec *x, const AscInstr *in) {
  L0 l;
  int st = l0_prepare(x, in, &l, 3, 3, 255, l0_binary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  _Alignas(32) uint8_t tmp[3][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int k = 0; k < m->n_runs; k++) {
      int64_t off = m->runs[k].first * l.esize;
      asc_vec_binary((AscVecBinOp)in->imm, (AscDType)in->dtype, tmp[0] + off,
                     tmp[1] + off, tmp[2] + off, m->runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

AscStatus sim_vec_scalar_l0(AscExec *x, const AscInstr *in) {
  L0 l;
  int st = l0_prepare(x, in, &l, 3, 2, 65535, l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  AscScalar s = scalar_operand(x, in, 2);
  if (!scalar_in_range(x, in, s))
    return ASC_ERR_KERNEL;
  _Alignas(32) uint8_t tmp[2][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int k = 0; k < m->n_runs; k++) {
      int64_t off = m->runs[k].first * l.esize;
      asc_vec_scalar((AscVecScalarOp)in->imm, (AscDType)in->dtype, tmp[0] + off,
                     tmp[1] + off, s, m->runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

AscStatus sim_vec_unary_l0(AscExec *x, const AscInstr *in) {
  L0 l;
  int st = l0_prepare(x, in, &l, 2, 2, 65535, l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  _Alignas(32) uint8_t tmp[2][L0_REPEAT];
  AscVecUnOp op = sim_unary_op(x->b, (AscVecUnOp)in->imm);
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int k = 0; k < m->n_runs; k++) {
      int64_t off = m->runs[k].first * l.esize;
      asc_vec_unary(op, (AscDType)in->dtype, tmp[0] + off, tmp[1] + off,
                    m->runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

AscStatus sim_vec_duplicate_l0(AscExec *x, const AscInstr *in) {
  L0 l;
  int st = l0_prepare(x, in, &l, 2, 1, 65535, l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  AscScalar s = scalar_operand(x, in, 1);
  _Alignas(32) uint8_t tmp[1][L0_REPEAT];
  asc_vec_dup((AscDType)in->dtype, tmp[0], s, L0_REPEAT / l.esize);
  for (int64_t r = 0; st == 1 && r < l.repeat; r++)
    l0_scatter(&l, r, tmp);
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

/* The multiply-add forms read dst too: its range is recorded as read
 * (after the write l0_prepare recorded), and each repeat gathers dst's
 * used blocks with the sources. Operand 2 is src1, or Axpy's scalar. */
static void l0_read_dst(AscExec *x) {
  AscEvent *e = &x->b->ev;
  for (int i = 0, n = e->n_acc; i < n; i++)
    if (e->acc[i].write) {
      AscAccess w = e->acc[i];
      sim_record_access(x->b, (AscSpace)w.space, 0, w.buf, w.lo, w.hi);
      if (e->n_acc > n)
        e->acc[e->n_acc - 1].bounding = w.bounding;
      return;
    }
}

AscStatus sim_vec_ternary(AscExec *x, const AscInstr *in) {
  int has_src1 = asc_type_is_tensor(in->src->operands[2]->type);
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *c = sim_vec_operand(x, in, 0, n, 0, "dst");
  uint8_t *d = c ? sim_vec_operand(x, in, 0, n, 1, "dst") : NULL;
  uint8_t *a =
      d ? sim_vec_operand(x, in, 1, n, 0, has_src1 ? "src0" : "src") : NULL;
  uint8_t *b = a && has_src1 ? sim_vec_operand(x, in, 2, n, 0, "src1") : NULL;
  if (!a || (has_src1 && !b))
    return ASC_ERR_KERNEL;
  AscScalar s = {0, 0};
  if (!has_src1)
    s = scalar_operand(x, in, 2);
  asc_vec_ternary((AscVecTernOp)in->imm, (AscDType)in->dtype,
                  (AscDType)ASC_SLOT(x, in, 1).t.dtype, d, a, b, s, n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  vec_geom(x, in, has_src1 ? 3 : 2, 1, n);
  return ASC_OK;
}

AscStatus sim_vec_ternary_l0(AscExec *x, const AscInstr *in) {
  int has_src1 = asc_type_is_tensor(in->src->operands[2]->type);
  L0 l;
  int st = has_src1 ? l0_prepare(x, in, &l, 3, 3, 255, l0_binary_names)
                    : l0_prepare(x, in, &l, 3, 2, 65535, l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  if (st == 1 && x->b->n_observers)
    l0_read_dst(x);
  AscScalar s = {0, 0};
  if (!has_src1)
    s = scalar_operand(x, in, 2);
  AscDType dd = (AscDType)ASC_SLOT(x, in, 0).t.dtype;
  AscDType sd = (AscDType)ASC_SLOT(x, in, 1).t.dtype;
  _Alignas(32) uint8_t tmp[3][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int b = 0; b < L0_BLOCKS; b++)
      if (m->used[b])
        memcpy(tmp[0] + b * l.per_block * l.es[0], l0_block(&l, 0, r, b),
               (size_t)(l.per_block * l.es[0]));
    for (int k = 0; k < m->n_runs; k++) {
      int64_t i = m->runs[k].first;
      asc_vec_ternary((AscVecTernOp)in->imm, dd, sd, tmp[0] + i * l.es[0],
                      tmp[1] + i * l.es[1],
                      has_src1 ? tmp[2] + i * l.es[2] : NULL, s, m->runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

AscStatus sim_vec_cast_l0(AscExec *x, const AscInstr *in) {
  L0 l;
  int st = l0_prepare(x, in, &l, 2, 2, 65535, l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  AscDType d = (AscDType)ASC_SLOT(x, in, 0).t.dtype;
  AscDType s = (AscDType)ASC_SLOT(x, in, 1).t.dtype;
  _Alignas(32) uint8_t tmp[2][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int k = 0; k < m->n_runs; k++) {
      int64_t i = m->runs[k].first;
      asc_vec_cast(d, s, (AscRoundMode)in->imm3, tmp[0] + i * l.es[0],
                   tmp[1] + i * l.es[1], m->runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

/* ---- data movement family: Copy's mask (datamove.c) ----------------------
 * The mask register as l0_prepare sets it for an instruction whose
 * isSetMask is on. */
void sim_l0_apply_mask(AscExec *x, const AscInstr *in, int k,
                       int64_t per_repeat) {
  if (in->imm2 & 2)
    return;
  l0_set_mask(x, per_repeat, in->imm2 & 1, (uint64_t)ASC_SLOT(x, in, k).i,
              (uint64_t)ASC_SLOT(x, in, k + 1).i);
}

/* ---- the mask register ----------------------------------------------------
 * SetVectorMask<T, mode>(maskHigh, maskLow) writes the two words;
 * SetVectorMask<T, mode>(len) writes (0, len) for MaskMode::COUNTER and
 * what a continuous mask of len elements of T sets for NORMAL
 * (kernel_reg.h). The mode argument does not switch the register's mode:
 * SetMaskCount / SetMaskNorm do. */
AscStatus sim_set_vector_mask(AscExec *x, const AscInstr *in) {
  if (in->imm == 0) {
    x->b->regs.mask_high = (uint64_t)ASC_SLOT(x, in, 0).i;
    x->b->regs.mask_low = (uint64_t)ASC_SLOT(x, in, 1).i;
    return ASC_OK;
  }
  int64_t len = ASC_SLOT(x, in, 0).i;
  if (len < 0)
    return sim_fail(x, in, "set_vector_mask: len %lld is negative",
                    (long long)len);
  if (in->imm2 == ASC_MASKMODE_COUNTER) {
    x->b->regs.mask_high = 0;
    x->b->regs.mask_low = (uint64_t)len;
    return ASC_OK;
  }
  size_t es = asc_dtype_size((AscDType)in->dtype);
  int64_t per_repeat = L0_REPEAT / (int64_t)(es ? es : 1);
  l0_continuous(per_repeat, (uint64_t)len, &x->b->regs.mask_high,
                &x->b->regs.mask_low);
  return ASC_OK;
}

/* SetMaskCount (sub 1) / SetMaskNorm (sub 0). */
AscStatus sim_set_mask_mode(AscExec *x, const AscInstr *in) {
  x->b->regs.mask_counter = in->imm;
  return ASC_OK;
}

/* ResetMask: both words all ones. */
AscStatus sim_reset_mask(AscExec *x, const AscInstr *in) {
  (void)in;
  x->b->regs.mask_high = UINT64_MAX;
  x->b->regs.mask_low = UINT64_MAX;
  return ASC_OK;
}

/* ---- cmpsel family: the mask of the level-0 compare, select and
 * reduction forms (their operand layouts are not l0_prepare's) ---------- */
int sim_l0_mask(AscExec *x, const AscInstr *in, int64_t per_repeat,
                int bit_mode, int set_mask, uint64_t m0, uint64_t m1,
                uint64_t *lo, uint64_t *hi) {
  if (set_mask)
    l0_set_mask(x, per_repeat, bit_mode, m0, m1);
  if (x->b->regs.mask_counter) {
    sim_fail(x, in,
             "the mask register is in counter mode (set_mask_count); this "
             "level-0 form needs normal mode (set_mask_norm)");
    return 0;
  }
  l0_repeat_mask(x, per_repeat, 0, lo, hi);
  return 1;
}

/* ---- counter family: the level-0 compare/select/reduction forms'
 * mask in either mode (sim.h) ------------------------------------------- */
int sim_l0_mask_counter(AscExec *x, const AscInstr *in, int64_t per_repeat,
                        int bit_mode, int set_mask, uint64_t m0, uint64_t m1,
                        int64_t *repeats, uint64_t *lo, uint64_t *hi,
                        uint64_t *lo_t, uint64_t *hi_t) {
  if (!x->b->regs.mask_counter) {
    if (!sim_l0_mask(x, in, per_repeat, bit_mode, set_mask, m0, m1, lo, hi))
      return 0;
    *lo_t = *lo;
    *hi_t = *hi;
    return 1;
  }
  if (set_mask) /* the form writes the register as in normal mode */
    l0_set_mask(x, per_repeat, bit_mode, m0, m1);
  uint64_t rest;
  if (!l0_counter(x, in, per_repeat, repeats, &rest))
    return 0;
  l0_repeat_mask(x, per_repeat, 1, lo, hi);
  *lo_t = *lo;
  *hi_t = *hi;
  if (rest)
    l0_continuous(per_repeat, rest, hi_t, lo_t);
  return 1;
}

/* ---- quant family: the level-0 driver of quant.c --------------------------
 * Runs fn over the runs of enabled elements of each repeat, with the mask,
 * strides, checks and access records of the other level-0 forms. n_ops is
 * 2 (UnaryRepeatParams) or 3 (BinaryRepeatParams). half_block < 0: dst is
 * laid out as the other forms' (fn writes element i at byte i * es of
 * tmp[0]); 0 or 1: CastDeq's b8 dst, whose element i of a repeat is byte
 * 16 * half_block + i % 16 of dst block i / 16, the other half of the
 * block left as it was (fn writes it at tmp[0][i]). */
AscStatus sim_vec_l0_apply(AscExec *x, const AscInstr *in, int n_ops,
                           int half_block, SimL0Fn fn, void *ctx) {
  L0 l;
  int st = l0_prepare(x, in, &l, n_ops, n_ops, n_ops == 3 ? 255 : 65535,
                      n_ops == 3 ? l0_binary_names : l0_unary_names);
  if (!st)
    return ASC_ERR_KERNEL;
  if (st == 1 && half_block >= 0 && x->b->n_observers)
    for (int i = 0; i < x->b->ev.n_acc; i++)
      if (x->b->ev.acc[i].write)
        x->b->ev.acc[i].bounding = 1; /* half of each block is not written */
  _Alignas(32) uint8_t tmp[3][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    const L0Mask *m = l0_mask(&l, r);
    for (int k = 0; k < m->n_runs; k++)
      fn(ctx, tmp, m->runs[k].first, m->runs[k].n);
    if (half_block < 0) {
      l0_scatter(&l, r, tmp);
      continue;
    }
    for (int k = 0; k < m->n_runs; k++) {
      const L0Run *u = &m->runs[k];
      uint8_t *blk = l0_block(&l, 0, r, u->block) + 16 * half_block;
      for (int i = u->first; i < u->first + u->n; i++)
        blk[i % 16] = tmp[0][i];
    }
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}

/* quant family: the mask register's words for a continuous mask of len
 * elements of a per_repeat-element type (as l0_continuous). */
void sim_vec_mask_words(int64_t per_repeat, uint64_t len, uint64_t *hi,
                        uint64_t *lo) {
  l0_continuous(per_repeat, len, hi, lo);
}

/* And / Or, count form. On the Ascend910B the devkit's level-2 And / Or
 * (dav_c220 kernel_operator_vec_binary_impl.h) reinterpret every tensor as
 * int16 and run `count` 16-bit lanes in counter mode: int32 / uint32
 * tensors take count 16-bit halves, i.e. count / 2 elements (逻辑计算/And.md:
 * "count must be twice the number of elements"). An odd count leaves the
 * upper half of the last element as it was. */
AscStatus sim_vec_bitwise(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  if (dt != ASC_DT_INT32 && dt != ASC_DT_UINT32)
    return sim_vec_binary(x, in);
  int64_t n = ASC_SLOT(x, in, 3).i;
  static const char *const names[] = {"dst", "src0", "src1"};
  uint8_t *p[3];
  AscTensorRef half[3];
  for (int k = 0; k < 3; k++) {
    const AscTensorRef *t = sim_tensor_arg(x, in, k, names[k]);
    if (!t)
      return ASC_ERR_KERNEL;
    if (t->addr % 32)
      return sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned",
                      names[k], (long long)t->addr);
    half[k] = *t;
    half[k].dtype = ASC_DT_INT16;
    if (t->len >= 0 && asc_mul_i64(t->len, 2, &half[k].len))
      return sim_fail(x, in, "%s: the tensor's length overflows", names[k]);
    p[k] = sim_local_ptr(x, in, &half[k], n, k == 0, names[k]);
    if (!p[k])
      return ASC_ERR_KERNEL;
  }
  asc_vec_binary((AscVecBinOp)in->imm, ASC_DT_INT16, p[0], p[1], p[2], n);
  sim_vec_work(x, &half[0], n);
  return ASC_OK;
}
