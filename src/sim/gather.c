/* The vector unit's broadcast and gather instructions on the Ascend910B:
 * AscendC::Brcb (vbrcb), Gatherb (vgatherb) and Gather (vgather) in its
 * count and level-0 forms; the element types of the family's rows.
 *
 * Brcb: repeat r, block j (j < 8) of dst, at (r * dstRepStride + j *
 * dstBlkStride) * 32 bytes, is filled with src[8 r + j] (a block stride of
 * 0 acts as 1).
 * Gatherb: that block of dst is the 32 bytes at src + offset[8 r + j]
 * (a byte offset, a multiple of 32).
 * Gather: element i of repeat r (256 bytes of dst, at r * dstRepStride * 32
 * bytes) is the element at byte srcBaseAddr + srcOffset[r * P + i] of src
 * (P = 256 / sizeof(T) elements a repeat), for the elements the mask
 * enables; the others keep their values. The count form is the devkit's:
 * count / P whole repeats with a mask of P, then the count % P left over in
 * one repeat with that mask; its repeat count is a uint8_t, so a count of
 * 256 repeats or more is refused here (the devkit would drop repeats).
 * An offset outside src, or not a multiple of the element size, is a
 * KernelError. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "layout.h"

enum { BLOCK = 32, REPEAT = 256, BLOCKS = 8 };

int asc_layout_dtype_supported(AscOpId op, AscDType dt) {
  switch (op) {
  case ASC_OP_TRANSPOSE:
    return dt == ASC_DT_INT16 || dt == ASC_DT_UINT16 || dt == ASC_DT_FLOAT16;
  case ASC_OP_TRANSPOSE_EXT:
  case ASC_OP_TRANS_DATA_TO_5HD:
  case ASC_OP_TRANS_DATA_TO_5HD_ADDRS:
  case ASC_OP_TRANS_DATA_TO_5HD_LIST:
    return dt == ASC_DT_INT8 || dt == ASC_DT_UINT8 || dt == ASC_DT_INT16 ||
           dt == ASC_DT_UINT16 || dt == ASC_DT_FLOAT16 || dt == ASC_DT_INT32 ||
           dt == ASC_DT_UINT32 || dt == ASC_DT_FLOAT32;
  case ASC_OP_BRCB:
  case ASC_OP_GATHER_MASK:
  case ASC_OP_GATHER_MASK_PATTERN:
  case ASC_OP_GATHER:
  case ASC_OP_GATHER_L0:
    return dt == ASC_DT_INT16 || dt == ASC_DT_UINT16 || dt == ASC_DT_FLOAT16 ||
           dt == ASC_DT_BFLOAT16 || dt == ASC_DT_INT32 || dt == ASC_DT_UINT32 ||
           dt == ASC_DT_FLOAT32;
  case ASC_OP_GATHERB:
    return dt == ASC_DT_UINT16 || dt == ASC_DT_UINT32;
  default:
    return 0;
  }
}

uint8_t *sim_ub_span(AscExec *x, const AscInstr *in, int64_t lo, int64_t hi,
                     int write, const char *what) {
  AscTensorRef r = {.addr = lo, .len = -1, .buf = -1, .dtype = ASC_DT_UINT8};
  int n0 = x->b->ev.n_acc;
  uint8_t *p = sim_local_ptr(x, in, &r, hi - lo, write, what);
  if (p && x->b->ev.n_acc > n0)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  return p;
}

void sim_layout_work(AscExec *x, int64_t n, int64_t es) {
  x->b->ev.elems = n;
  x->b->ev.bytes = n * es;
}

/* repeat_times (operand k) in [0, 255] */
static int repeat_arg(AscExec *x, const AscInstr *in, int k, const char *api,
                      int64_t *r) {
  *r = ASC_SLOT(x, in, k).i;
  if (*r >= 0 && *r <= 255)
    return 1;
  sim_fail(x, in, "%s: repeat_times %lld is out of range [0, 255]", api,
           (long long)*r);
  return 0;
}

/* The dst blocks of Brcb and Gatherb: repeat r, block j at (r * rep + j *
 * blk) * 32 bytes from dst (blk 0 acts as 1); their bounding range. */
static uint8_t *block_dst(AscExec *x, const AscInstr *in, const char *api,
                          int64_t repeat, int64_t blk, int64_t rep) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "dst");
  if (!t)
    return NULL;
  if (t->addr % BLOCK) {
    sim_fail(x, in, "%s: dst: UB address %lld is not 32-byte aligned", api,
             (long long)t->addr);
    return NULL;
  }
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  int64_t last = (repeat - 1) * rep + (BLOCKS - 1) * blk; /* < 2^25 */
  uint8_t *p = sim_local_ptr(x, in, t, (last + 1) * BLOCK / es, 1, "dst");
  if (p && (blk != 1 || rep != BLOCKS) && x->b->ev.n_acc)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  return p;
}

AscStatus sim_vec_brcb(AscExec *x, const AscInstr *in) {
  const AscSlot *p = &x->regs[in->a[3]];
  int64_t blk = p[0].i ? p[0].i : 1, rep = p[1].i, repeat;
  if (!repeat_arg(x, in, 2, "brcb", &repeat))
    return ASC_ERR_KERNEL;
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (blk < 0 || blk > 65535 || rep < 0 || rep > 65535)
    return sim_fail(x, in, "brcb: strides %lld, %lld out of range [0, 65535]",
                    (long long)blk, (long long)rep);
  if (repeat == 0) {
    sim_layout_work(x, 0, es);
    return ASC_OK;
  }
  const uint8_t *s = sim_vec_operand(x, in, 1, repeat * BLOCKS, 0, "src0");
  uint8_t *d = s ? block_dst(x, in, "brcb", repeat, blk, rep) : NULL;
  if (!d)
    return ASC_ERR_KERNEL;
  for (int64_t r = 0; r < repeat; r++) {
    uint8_t v[BLOCKS * 4];
    memcpy(v, s + r * BLOCKS * es, (size_t)(BLOCKS * es));
    for (int j = 0; j < BLOCKS; j++) {
      uint8_t *o = d + (r * rep + j * blk) * BLOCK;
      for (int64_t e = 0; e < BLOCK / es; e++)
        memcpy(o + e * es, v + j * es, (size_t)es);
    }
  }
  x->b->regs.mask_high = x->b->regs.mask_low =
      UINT64_MAX; /* BrcbImpl's ResetMask */
  sim_layout_work(x, repeat * REPEAT / es, es);
  return ASC_OK;
}

AscStatus sim_vec_gatherb(AscExec *x, const AscInstr *in) {
  const AscSlot *p = &x->regs[in->a[4]];
  int64_t blk = p[0].i ? p[0].i : 1, rep = p[1].i, repeat;
  if (!repeat_arg(x, in, 3, "gatherb", &repeat))
    return ASC_ERR_KERNEL;
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (repeat == 0) {
    sim_layout_work(x, 0, es);
    return ASC_OK;
  }
  const AscTensorRef *st = sim_tensor_arg(x, in, 1, "src0");
  const uint8_t *off =
      st ? sim_vec_operand(x, in, 2, repeat * BLOCKS, 0, "offset") : NULL;
  if (!off)
    return ASC_ERR_KERNEL;
  if (st->addr % BLOCK)
    return sim_fail(x, in,
                    "gatherb: src0: UB address %lld is not 32-byte "
                    "aligned",
                    (long long)st->addr);
  int64_t limit = st->len >= 0 ? st->len * es : x->b->ub_size - st->addr;
  int64_t lo = INT64_MAX, hi = 0;
  for (int64_t k = 0; k < repeat * BLOCKS; k++) {
    uint32_t o;
    memcpy(&o, off + 4 * k, 4);
    if (o % BLOCK || (int64_t)o + BLOCK > limit)
      return sim_fail(x, in,
                      "gatherb: offset[%lld] = %u bytes is %s src0 (%lld "
                      "bytes)",
                      (long long)k, o,
                      o % BLOCK ? "not a multiple of 32 bytes inside"
                                : "outside",
                      (long long)limit);
    if (o < lo)
      lo = o;
    if (o + BLOCK > hi)
      hi = o + BLOCK;
  }
  const uint8_t *s =
      sim_ub_span(x, in, st->addr + lo, st->addr + hi, 0, "src0");
  uint8_t *d = s ? block_dst(x, in, "gatherb", repeat, blk, rep) : NULL;
  if (!d)
    return ASC_ERR_KERNEL;
  const uint8_t *ub = x->b->ub;
  for (int64_t r = 0; r < repeat; r++) {
    uint8_t v[BLOCKS][BLOCK];
    for (int j = 0; j < BLOCKS; j++) {
      uint32_t o;
      memcpy(&o, off + 4 * (r * BLOCKS + j), 4);
      memcpy(v[j], ub + st->addr + o, BLOCK);
    }
    for (int j = 0; j < BLOCKS; j++)
      memcpy(d + (r * rep + j * blk) * BLOCK, v[j], BLOCK);
  }
  x->b->regs.mask_high = x->b->regs.mask_low =
      UINT64_MAX; /* GatherbImpl's ResetMask */
  sim_layout_work(x, repeat * REPEAT / es, es);
  return ASC_OK;
}

/* One level-0 Gather: `repeat` repeats of the lanes (lo, hi) enables, dst
 * and the offsets from element `first` of their tensors. */
typedef struct GatherCall {
  int64_t first, repeat, rep; /* rep: dst_rep_stride in blocks */
  uint64_t lo, hi;            /* the lanes of a repeat */
  /* counter family: bytes added to dst's offset first * es (counter mode's
   * short last repeat follows the others at the repeat stride) */
  int64_t dst_adj;
} GatherCall;

static int lane_on(const GatherCall *g, int64_t i) {
  return i < 64 ? (int)((g->lo >> i) & 1) : (int)((g->hi >> (i - 64)) & 1);
}

/* Checks the calls' operands and offsets, records the accesses, then runs
 * them in order. */
static AscStatus gather_run(AscExec *x, const AscInstr *in,
                            const GatherCall *calls, int n_calls) {
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), per = REPEAT / es;
  const AscTensorRef *dt_ = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *st = dt_ ? sim_tensor_arg(x, in, 1, "src") : NULL;
  const AscTensorRef *ot = st ? sim_tensor_arg(x, in, 2, "src_offset") : NULL;
  if (!ot)
    return ASC_ERR_KERNEL;
  int64_t base = ASC_SLOT(x, in, 3).i;
  int64_t src_bytes = st->len >= 0 ? st->len * es : x->b->ub_size - st->addr;
  if (base < 0 || base % es || (st->len >= 0 && base >= src_bytes))
    return sim_fail(
        x, in, "gather: src_base %lld is %s src (%lld bytes)", (long long)base,
        base % es ? "not a multiple of the element size in" : "outside",
        (long long)src_bytes);
  const char *names[] = {"dst", "src", "src_offset"};
  const AscTensorRef *ts[] = {dt_, st, ot};
  for (int k = 0; k < 3; k++)
    if (ts[k]->addr % BLOCK)
      return sim_fail(x, in,
                      "gather: %s: UB address %lld is not 32-byte "
                      "aligned",
                      names[k], (long long)ts[k]->addr);
  /* the extents: offsets read, dst written, src elements gathered */
  int64_t n_off = 0, d_hi = 0, s_lo = INT64_MAX, s_hi = 0, work = 0;
  for (int c = 0; c < n_calls; c++) {
    const GatherCall *g = &calls[c];
    if (!g->repeat || !(g->lo | g->hi))
      continue;
    int64_t last = -1;
    for (int64_t i = 0; i < per; i++)
      if (lane_on(g, i))
        last = i;
    int64_t e = g->first + (g->repeat - 1) * per + last + 1;
    if (e > n_off)
      n_off = e;
    int64_t de = g->first * es + g->dst_adj + (g->repeat - 1) * g->rep * BLOCK +
                 (last + 1) * es;
    if (de > d_hi)
      d_hi = de;
    work += g->repeat * per;
  }
  if (!n_off) {
    sim_layout_work(x, 0, es);
    return ASC_OK; /* no repeat or no lane: a NOP */
  }
  const uint8_t *off = sim_vec_operand(x, in, 2, n_off, 0, "src_offset");
  if (!off)
    return ASC_ERR_KERNEL;
  for (int c = 0; c < n_calls; c++) {
    const GatherCall *g = &calls[c];
    for (int64_t r = 0; r < g->repeat; r++)
      for (int64_t i = 0; i < per; i++) {
        if (!lane_on(g, i))
          continue;
        int64_t k = g->first + r * per + i;
        uint32_t o;
        memcpy(&o, off + 4 * k, 4);
        int64_t b = base + (int64_t)o;
        if (b % es || b + es > src_bytes)
          return sim_fail(x, in,
                          "gather: src_offset[%lld] = %u bytes (+ src_base "
                          "%lld) is %s src (%lld bytes)",
                          (long long)k, o, (long long)base,
                          b % es ? "not a multiple of the element size in"
                                 : "outside",
                          (long long)src_bytes);
        if (b < s_lo)
          s_lo = b;
        if (b + es > s_hi)
          s_hi = b + es;
      }
  }
  const uint8_t *s =
      sim_ub_span(x, in, st->addr + s_lo, st->addr + s_hi, 0, "src");
  uint8_t *d = s ? sim_vec_operand(x, in, 0, d_hi / es, 1, "dst") : NULL;
  if (!d)
    return ASC_ERR_KERNEL;
  if (x->b->ev.n_acc) /* dst: the lanes the mask enables */
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  const uint8_t *src = x->b->ub + st->addr;
  for (int c = 0; c < n_calls; c++) {
    const GatherCall *g = &calls[c];
    for (int64_t r = 0; r < g->repeat; r++) {
      uint8_t v[REPEAT];
      for (int64_t i = 0; i < per; i++)
        if (lane_on(g, i)) {
          uint32_t o;
          memcpy(&o, off + 4 * (g->first + r * per + i), 4);
          memcpy(v + i * es, src + base + o, (size_t)es);
        }
      uint8_t *o = d + g->first * es + g->dst_adj + r * g->rep * BLOCK;
      for (int64_t i = 0; i < per; i++)
        if (lane_on(g, i))
          memcpy(o + i * es, v + i * es, (size_t)es);
    }
  }
  sim_layout_work(x, work, es);
  return ASC_OK;
}

/* The lanes of a repeat of per elements that AscendCUtils::SetMask<T>
 * enables for a continuous mask of len (the register's words as vector.c
 * sets them, read as a repeat of per elements reads them). */
static void continuous_lanes(int64_t per, uint64_t len, uint64_t *lo,
                             uint64_t *hi) {
  sim_vec_mask_words(per, len, hi, lo);
  if (per <= 64)
    *hi = 0;
  if (per < 64)
    *lo &= ((uint64_t)1 << per) - 1;
}

/* in->imm: 0 the count form (src_base, count), 1 the level-0 form
 * (src_base, mask0, mask1, repeat_times, dst_rep_stride; in->imm2 bit 0:
 * bit mode). */
AscStatus sim_vec_gather(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), per = REPEAT / es;
  int counter = x->b->regs.mask_counter;
  if (counter && in->imm == 0)
    return sim_fail(x, in,
                    "gather's count form in counter mode (set_mask_count): "
                    "the devkit's Gather(count) sets a normal-mode mask for "
                    "each call (dav_c220 kernel_operator_vec_gather_impl.h) "
                    "and is documented for normal mode only; call "
                    "set_mask_norm first");
  GatherCall calls[2];
  int n = 0;
  if (in->imm == 0) {
    int64_t count = ASC_SLOT(x, in, 4).i;
    if (count < 0 || count / per > 255)
      return sim_fail(x, in,
                      "gather: count %lld needs %lld repeats of %lld; the "
                      "devkit's Gather issues at most 255 (its repeat count "
                      "is a uint8_t)",
                      (long long)count, (long long)(count / per),
                      (long long)per);
    int64_t reps = count / per, tail = count % per;
    if (reps)
      calls[n++] = (GatherCall){0, reps, BLOCKS, 0, 0, 0};
    if (tail)
      calls[n++] = (GatherCall){count - tail, 1, BLOCKS, 0, 0, 0};
    for (int c = 0; c < n; c++)
      continuous_lanes(per, c == 0 && reps ? (uint64_t)per : (uint64_t)tail,
                       &calls[c].lo, &calls[c].hi);
    if (n) { /* the mask register as the last SetMask<T> left it */
      x->b->regs.mask_low = calls[n - 1].lo;
      x->b->regs.mask_high = calls[n - 1].hi;
    }
  } else {
    int64_t repeat, rep = ASC_SLOT(x, in, 7).i;
    if (!repeat_arg(x, in, 6, "gather", &repeat))
      return ASC_ERR_KERNEL;
    if (rep < 0 || rep > 65535)
      return sim_fail(x, in,
                      "gather: dst_rep_stride %lld is out of range "
                      "[0, 65535]",
                      (long long)rep);
    uint64_t m0 = (uint64_t)ASC_SLOT(x, in, 4).i;
    uint64_t m1 = (uint64_t)ASC_SLOT(x, in, 5).i;
    GatherCall g = {0, repeat, rep, 0, 0, 0};
    if (in->imm2 & 1) {
      g.lo = m0;
      g.hi = m1;
      x->b->regs.mask_low = m0;
      x->b->regs.mask_high = m1;
    } else {
      continuous_lanes(per, m0, &g.lo, &g.hi);
      x->b->regs.mask_low = g.lo;
      x->b->regs.mask_high = g.hi;
    }
    if (per <= 64)
      g.hi = 0; /* 64 lanes read the low word */
    if (counter) {
      /* counter family: the register's low word, as SetMask<T> left it,
       * counts the instruction's elements (SIMD计算说明/掩码.md):
       * repeat_times is ignored, count / per whole repeats, then the rest
       * in one more repeat at the next dst repeat stride */
      uint64_t count = x->b->regs.mask_low;
      uint64_t whole = count / (uint64_t)per, rest = count % (uint64_t)per;
      if (whole + (rest != 0) > 65535)
        return sim_fail(x, in,
                        "gather: counter mode: the mask counts %llu "
                        "elements, more than 65535 repeats of %lld",
                        (unsigned long long)count, (long long)per);
      if (whole) {
        continuous_lanes(per, (uint64_t)per, &g.lo, &g.hi);
        g.repeat = (int64_t)whole;
        calls[n++] = g;
      }
      if (rest) {
        GatherCall t = {(int64_t)whole * per, 1, rep, 0, 0, 0};
        continuous_lanes(per, rest, &t.lo, &t.hi);
        t.dst_adj = (int64_t)whole * rep * BLOCK - t.first * es;
        calls[n++] = t;
      }
      return gather_run(x, in, calls, n);
    }
    calls[n++] = g;
  }
  return gather_run(x, in, calls, n);
}

/* ---- GatherMask -----------------------------------------------------------
 * Repeat r reads src0's elements at (r * src0RepeatStride + (i / B) *
 * src0BlockStride) * 32 + (i % B) * sizeof(T) bytes (B elements a block)
 * and keeps element i when bit i of the repeat's pattern is set: the user's
 * pattern from src1 + r * src1RepeatStride * 32 bytes (bit i % 8 of byte
 * i / 8), or the built-in one (1: even i, 2: odd i, 3..6: i % 4 == 0..3,
 * 7: all). The kept elements are packed from dst[0] in order; dst past
 * them is left as it was (the devkit leaves it undefined). Normal mode
 * (reduceMode false): repeatTimes repeats of 256 bytes. Counter mode: the
 * Ascend910B's "way 1", repeatTimes repeats of `mask` elements each. The
 * kept count is the result and the rsvd_cnt register; afterwards the mask
 * register is in normal mode with the mask GatherMask set in it. */

static int builtin_bit(int pattern, int64_t i) {
  switch (pattern) {
  case 1:
    return i % 2 == 0;
  case 2:
    return i % 2 == 1;
  case 7:
    return 1;
  default:
    return i % 4 == pattern - 3;
  }
}

/* in->imm: 0 a pattern tensor (operand 2), 1 a built-in pattern;
 * in->dtype2: T, dst's element type */
AscStatus sim_vec_gather_mask(AscExec *x, const AscInstr *in) {
  const AscSlot *p = &x->regs[in->a[5]];
  int64_t blk = p[0].i, repeat = p[1].i, rep0 = p[2].i, rep1 = p[3].i;
  int reduce = ASC_SLOT(x, in, 3).i != 0;
  int64_t mask = ASC_SLOT(x, in, 4).i;
  int builtin = in->imm == 1;
  int64_t pattern = builtin ? ASC_SLOT(x, in, 2).i : 0;
  AscDType dt = (AscDType)in->dtype2;
  int64_t es = (int64_t)asc_dtype_size(dt), pb = BLOCK / es;
  if (builtin && (pattern < 1 || pattern > 7))
    return sim_fail(x, in,
                    "gather_mask: src1_pattern %lld is not a built-in "
                    "pattern (1 to 7)",
                    (long long)pattern);
  if (reduce && (mask < 1 || mask > (int64_t)UINT32_MAX))
    return sim_fail(x, in,
                    "gather_mask: mask %lld is out of range [1, 2^32 - 1] "
                    "in counter mode (reduce_mode True)",
                    (long long)mask);
  if (repeat < 0 || repeat > 255 || blk < 0 || blk > 255 || rep0 < 0 ||
      rep0 > 65535 || rep1 < 0 || rep1 > 255)
    return sim_fail(x, in,
                    "gather_mask: repeat_times %lld (0 to 255) or strides "
                    "%lld, %lld, %lld out of range",
                    (long long)repeat, (long long)blk, (long long)rep0,
                    (long long)rep1);
  int64_t per = reduce ? mask : REPEAT / es; /* elements a repeat */
  const AscTensorRef *dtr = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *str = dtr ? sim_tensor_arg(x, in, 1, "src0") : NULL;
  if (!str)
    return ASC_ERR_KERNEL;
  if (dtr->addr % BLOCK || str->addr % BLOCK)
    return sim_fail(x, in,
                    "gather_mask: %s: UB address %lld is not 32-byte "
                    "aligned",
                    dtr->addr % BLOCK ? "dst" : "src0",
                    (long long)(dtr->addr % BLOCK ? dtr->addr : str->addr));
  int64_t kept = 0;
  if (repeat > 0) {
    /* src0's extent: the last element of the last repeat */
    int64_t last = per - 1, s_hi, s_end;
    if (asc_mul_i64((repeat - 1) * rep0 + last / pb * blk, BLOCK, &s_hi) ||
        asc_add_i64(s_hi, (last % pb + 1) * es, &s_end))
      return sim_fail(x, in, "gather_mask: src0 extent overflows");
    const uint8_t *s = sim_vec_operand(x, in, 1, s_end / es, 0, "src0");
    if (!s)
      return ASC_ERR_KERNEL;
    if (blk != 1 || (repeat > 1 && rep0 * pb != per) ||
        (s_end != repeat * per * es))
      if (x->b->ev.n_acc)
        x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
    const uint8_t *bits = NULL;
    if (!builtin) {
      int64_t pbytes = ((repeat - 1) * rep1 * BLOCK + (per + 7) / 8);
      int64_t ues =
          (int64_t)asc_dtype_size((AscDType)ASC_SLOT(x, in, 2).t.dtype);
      bits = sim_vec_operand(x, in, 2, (pbytes + ues - 1) / ues, 0,
                             "src1_pattern");
      if (!bits)
        return ASC_ERR_KERNEL;
    }
    for (int64_t r = 0; r < repeat; r++)
      for (int64_t i = 0; i < per; i++)
        kept += builtin ? builtin_bit((int)pattern, i)
                        : (bits[r * rep1 * BLOCK + i / 8] >> (i % 8)) & 1;
    uint8_t *d = sim_vec_operand(x, in, 0, kept, 1, "dst");
    if (!d)
      return ASC_ERR_KERNEL;
    /* gather first: dst may be src0 (the devkit's own example) */
    uint8_t *out = NULL;
    if (kept) {
      out = malloc((size_t)(kept * es));
      if (!out)
        return sim_fail(x, in, "gather_mask: out of host memory");
    }
    int64_t k = 0;
    for (int64_t r = 0; r < repeat; r++)
      for (int64_t i = 0; i < per; i++) {
        int on = builtin ? builtin_bit((int)pattern, i)
                         : (bits[r * rep1 * BLOCK + i / 8] >> (i % 8)) & 1;
        if (on)
          memcpy(out + es * k++,
                 s + (r * rep0 + i / pb * blk) * BLOCK + i % pb * es,
                 (size_t)es);
      }
    if (kept)
      memcpy(d, out, (size_t)(kept * es));
    free(out);
  }
  x->b->regs.rsvd_cnt = kept;
  x->b->regs.mask_counter = 0; /* GatherMaskImpl ends with SetMaskNorm */
  x->b->regs.mask_high = 0;
  x->b->regs.mask_low = reduce ? (uint64_t)mask : UINT64_MAX;
  ASC_DST(x, in).i = kept;
  sim_layout_work(x, repeat * per, es);
  return ASC_OK;
}

AscStatus sim_get_gather_mask_remain_count(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->regs.rsvd_cnt;
  return ASC_OK;
}
