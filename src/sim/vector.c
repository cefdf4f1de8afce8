/* The vector unit: operand checks, then the numeric kernels of vecmath.c --
 * over the whole contiguous run for the count (level-2) forms, over each
 * run of enabled elements for the level-0 forms. */
#include <string.h>

#include "sim.h"

/* A vector operand: inside its tensor and the UB, and 32-byte aligned (the
 * vector unit reads and writes whole 32-byte blocks). */
static uint8_t *vec_ptr(AscExec *x, const AscInstr *in, int k, int64_t n,
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

/* The size of the work for the timing model. */
static void vec_work(AscExec *x, const AscTensorRef *dst, int64_t n) {
  x->b->ev.elems = n;
  x->b->ev.bytes = n * (int64_t)asc_dtype_size((AscDType)dst->dtype);
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

AscStatus sim_vec_binary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = vec_ptr(x, in, 0, n, 1, "dst");
  uint8_t *a = d ? vec_ptr(x, in, 1, n, 0, "src0") : NULL;
  uint8_t *b = a ? vec_ptr(x, in, 2, n, 0, "src1") : NULL;
  if (!b)
    return ASC_ERR_KERNEL;
  asc_vec_binary((AscVecBinOp)in->imm, (AscDType)in->dtype, d, a, b, n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_scalar(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = vec_ptr(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, 1, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_scalar((AscVecScalarOp)in->imm, (AscDType)in->dtype, d, s,
                 scalar_operand(x, in, 2), n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_unary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = vec_ptr(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, 1, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_unary((AscVecUnOp)in->imm, (AscDType)in->dtype, d, s, n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_duplicate(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = vec_ptr(x, in, 0, n, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  asc_vec_dup((AscDType)in->dtype, d, scalar_operand(x, in, 1), n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_cast(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  const AscTensorRef *dt = &ASC_SLOT(x, in, 0).t, *st = &ASC_SLOT(x, in, 1).t;
  uint8_t *d = vec_ptr(x, in, 0, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, 1, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_cast((AscDType)dt->dtype, (AscDType)st->dtype, (AscRoundMode)in->imm2,
               d, s, n);
  vec_work(x, dt, n);
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

enum { L0_MAX_OPS = 3, L0_BLOCKS = 8, L0_BLOCK = 32, L0_REPEAT = 256 };

typedef struct L0Run {
  int block, first, n; /* elements [first, first + n) of the repeat */
} L0Run;

typedef struct L0 {
  int n_ops;                 /* operand 0 is dst, then the sources */
  uint8_t *base[L0_MAX_OPS]; /* host pointer of each operand's address */
  int64_t blk[L0_MAX_OPS];   /* block stride, 32-byte units */
  int64_t rep[L0_MAX_OPS];   /* repeat stride, 32-byte units */
  int64_t repeat;            /* repeat_times */
  int64_t es[L0_MAX_OPS];    /* each operand's element size */
  int64_t esize, per_block;  /* mask element size (the widest), per block */
  L0Run runs[L0_REPEAT / 2]; /* enabled elements, split at block edges */
  int n_runs;
  int used[L0_BLOCKS]; /* block has enabled elements */
  int dense;           /* the touched bytes are the bounding range */
} L0;

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
  AscDType dt = (AscDType)in->dtype;
  l->n_ops = n_ops;
  l->esize = 0;
  for (int i = 0; i < n_ops; i++) {
    if (!sim_tensor_arg(x, in, i, names[i]))
      return 0;
    AscDType t = (AscDType)ASC_SLOT(x, in, i).t.dtype;
    l->es[i] = (int64_t)asc_dtype_size(t);
    if (l->es[i] > l->esize) {
      l->esize = l->es[i];
      dt = t;
    }
  }
  l->per_block = L0_BLOCK / l->esize;
  int per_repeat = (int)(L0_REPEAT / l->esize);
  uint64_t m0 = (uint64_t)ASC_SLOT(x, in, k).i;
  uint64_t m1 = (uint64_t)ASC_SLOT(x, in, k + 1).i;
  l->repeat = ASC_SLOT(x, in, k + 2).i;
  if (l->repeat < 0 || l->repeat > 255) {
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
  uint64_t lo, hi;
  if (in->imm2 == 0) { /* continuous mode */
    if (m0 > (uint64_t)per_repeat) {
      sim_fail(x, in,
               "mask %llu is out of range [0, %d] for %s (%d elements per "
               "repeat)",
               (unsigned long long)m0, per_repeat, asc_dtype_name(dt),
               per_repeat);
      return 0;
    }
    lo = m0 >= 64 ? UINT64_MAX : (((uint64_t)1 << m0) - 1);
    hi = m0 <= 64    ? 0
         : m0 >= 128 ? UINT64_MAX
                     : (((uint64_t)1 << (m0 - 64)) - 1);
  } else { /* bit mode: mask[0] low 64 bits, mask[1] high 64 bits */
    lo = m0;
    hi = m1;
    if (per_repeat <= 64 && hi != 0) {
      sim_fail(x, in,
               "mask[1] is 0x%llx but must be 0 for %s: a repeat has only "
               "%d elements, set by mask[0]",
               (unsigned long long)hi, asc_dtype_name(dt), per_repeat);
      return 0;
    }
  }
  l->n_runs = 0;
  int enabled = 0;
  for (int b = 0; b < L0_BLOCKS; b++) {
    l->used[b] = 0;
    for (int e = 0; e < l->per_block; e++) {
      int i = b * (int)l->per_block + e;
      if (!l0_bit(lo, hi, i))
        continue;
      enabled++;
      l->used[b] = 1;
      L0Run *r = l->n_runs ? &l->runs[l->n_runs - 1] : NULL;
      if (r && r->block == b && r->first + r->n == i)
        r->n++;
      else
        l->runs[l->n_runs++] = (L0Run){b, i, 1};
    }
  }
  if (l->repeat == 0 || enabled == 0)
    return 2; /* documented as a NOP: nothing is read or written */
  const L0Run *first = &l->runs[0], *last = &l->runs[l->n_runs - 1];
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
    AscTensorRef sub = *t;
    sub.addr = t->addr + b0;
    if (t->len >= 0)
      sub.len = t->len - b0 / l->es[i];
    if (sub.len < 0)
      sub.len = 0;
    uint8_t *p =
        sim_local_ptr(x, in, &sub, (b1 - b0) / l->es[i], i == 0, names[i]);
    if (!p)
      return 0;
    l->base[i] = p - b0;
  }
  int full = enabled == per_repeat;
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
  for (int op = 1; op < l->n_ops; op++)
    for (int b = 0; b < L0_BLOCKS; b++)
      if (l->used[b])
        memcpy(tmp[op] + b * l->per_block * l->es[op], l0_block(l, op, r, b),
               (size_t)(l->per_block * l->es[op]));
}

/* Writes the enabled elements of tmp[0] to dst's blocks of repeat r. */
static void l0_scatter(const L0 *l, int64_t r, uint8_t tmp[][L0_REPEAT]) {
  for (int k = 0; k < l->n_runs; k++) {
    const L0Run *u = &l->runs[k];
    int64_t in_block = (u->first - u->block * l->per_block) * l->es[0];
    memcpy(l0_block(l, 0, r, u->block) + in_block, tmp[0] + u->first * l->es[0],
           (size_t)(u->n * l->es[0]));
  }
}

static void l0_work(AscExec *x, const L0 *l, int nop) {
  int64_t n = nop ? 0 : l->repeat * (L0_REPEAT / l->esize);
  x->b->ev.elems = n;
  x->b->ev.bytes = n * l->es[0];
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
    for (int k = 0; k < l.n_runs; k++) {
      int64_t off = l.runs[k].first * l.esize;
      asc_vec_binary((AscVecBinOp)in->imm, (AscDType)in->dtype, tmp[0] + off,
                     tmp[1] + off, tmp[2] + off, l.runs[k].n);
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
  _Alignas(32) uint8_t tmp[2][L0_REPEAT];
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    for (int k = 0; k < l.n_runs; k++) {
      int64_t off = l.runs[k].first * l.esize;
      asc_vec_scalar((AscVecScalarOp)in->imm, (AscDType)in->dtype, tmp[0] + off,
                     tmp[1] + off, s, l.runs[k].n);
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
  for (int64_t r = 0; st == 1 && r < l.repeat; r++) {
    l0_gather(&l, r, tmp);
    for (int k = 0; k < l.n_runs; k++) {
      int64_t off = l.runs[k].first * l.esize;
      asc_vec_unary((AscVecUnOp)in->imm, (AscDType)in->dtype, tmp[0] + off,
                    tmp[1] + off, l.runs[k].n);
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
    for (int k = 0; k < l.n_runs; k++) {
      int64_t i = l.runs[k].first;
      asc_vec_cast(d, s, (AscRoundMode)in->imm3, tmp[0] + i * l.es[0],
                   tmp[1] + i * l.es[1], l.runs[k].n);
    }
    l0_scatter(&l, r, tmp);
  }
  l0_work(x, &l, st == 2);
  return ASC_OK;
}
