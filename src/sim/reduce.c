/* The reductions of the vector unit (ReduceMax, ReduceMin, ReduceSum), the
 * count (level-2) forms, on the Ascend910B (half and float; lower.c refuses
 * the other element types).
 *
 * ReduceSum: the devkit's level-2 ReduceSum on this core is one vcadd in
 * counter mode, "way 1" of its documentation: inside each repeat (256 bytes:
 * 128 halves, 64 floats) a binary tree of adjacent pairs, each sum rounded to
 * the element type; the repeats' sums are then accumulated in order.  The
 * lanes of a short last repeat take no part in the tree (a pair with one
 * missing lane passes the other on).
 *
 * ReduceMax / ReduceMin: the extreme value; with cal_index dst[1] holds its
 * index as the devkit stores it, the integer's bits in dst's element type
 * (uint16_t for half, uint32_t for float); of equal values (+0 and -0 are
 * equal) the lowest index.  A half index is at most 65535.  The devkit
 * leaves NaN undefined; here the first NaN is the result. */
#include <string.h>

#include "cmpsel.h"
#include "sim.h"

enum { REPEAT_BYTES = 256, MAX_LANES = 128 };

/* a + b rounded to dt (half: the exact double sum rounded once). */
static double add_round(AscDType dt, double a, double b) {
  if (dt == ASC_DT_FLOAT32)
    return (double)((float)a + (float)b);
  uint16_t h;
  AscScalar s = {.f = a + b};
  asc_store_scalar(dt, &h, 0, s);
  return asc_load_f(dt, &h, 0);
}

/* The binary tree of adjacent pairs over v[0..n), n <= MAX_LANES, in place
 * (the lanes of a full repeat: 128 or 64, a power of two). */
static double tree_sum(AscDType dt, double *v, int64_t n, int64_t lanes) {
  for (int64_t width = lanes; width > 1; width /= 2) {
    int64_t out = 0;
    for (int64_t i = 0; i < width; i += 2, out++) {
      if (i >= n)
        break;
      v[out] = i + 1 < n ? add_round(dt, v[i], v[i + 1]) : v[i];
    }
    n = out;
  }
  return v[0];
}

static void store_index(AscDType dt, uint8_t *d, int64_t idx) {
  if (dt == ASC_DT_FLOAT16) {
    uint16_t u = (uint16_t)idx;
    memcpy(d + 2, &u, 2);
  } else {
    uint32_t u = (uint32_t)idx;
    memcpy(d + 4, &u, 4);
  }
}

AscStatus sim_vec_reduce(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  AscVecReduceOp op = (AscVecReduceOp)in->imm;
  int64_t n = ASC_SLOT(x, in, 3).i;
  int cal_index = op != ASC_VRED_SUM && in->src->n_operands > 4 &&
                  ASC_SLOT(x, in, 4).i != 0;
  int64_t size = (int64_t)asc_dtype_size(dt);
  int64_t lanes = REPEAT_BYTES / size;
  if (n < 1) {
    sim_fail(x, in, "count %lld is out of range: at least 1 element",
             (long long)n);
    return ASC_ERR_KERNEL;
  }
  uint8_t *d = sim_vec_operand(x, in, 0, cal_index ? 2 : 1, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  if (!s || !sim_tensor_arg(x, in, 2, "shared_tmp_buffer"))
    return ASC_ERR_KERNEL;
  AscScalar r;
  if (op == ASC_VRED_SUM) {
    double v[MAX_LANES], acc = 0;
    for (int64_t base = 0; base < n; base += lanes) {
      int64_t m = n - base < lanes ? n - base : lanes;
      for (int64_t i = 0; i < m; i++)
        v[i] = asc_load_f(dt, s, base + i);
      double t = tree_sum(dt, v, m, lanes);
      acc = base == 0 ? t : add_round(dt, acc, t);
    }
    r.f = acc;
    asc_store_scalar(dt, d, 0, r);
  } else {
    int64_t best = 0;
    double bv = asc_load_f(dt, s, 0);
    for (int64_t i = 1; i < n && bv == bv; i++) {
      double v = asc_load_f(dt, s, i);
      if (v != v || (op == ASC_VRED_MAX ? v > bv : v < bv)) {
        bv = v;
        best = i;
      }
    }
    if (cal_index && dt == ASC_DT_FLOAT16 && best > 65535) {
      sim_fail(x, in,
               "the index %lld does not fit the uint16_t bits of a half "
               "(at most 65535)",
               (long long)best);
      return ASC_ERR_KERNEL;
    }
    /* the element itself (its sign of zero, its NaN payload) */
    memcpy(d, s + best * size, (size_t)size);
    if (cal_index)
      store_index(dt, d, best);
  }
  sim_vec_work(x, &ASC_SLOT(x, in, 1).t, n);
  return ASC_OK;
}

/* ---- level-0 reductions ----------------------------------------------------
 * The devkit's per-repeat reductions on the Ascend910B
 * (dav_c220/kernel_operator_vec_reduce_impl.h): WholeReduceMax/Min/Sum
 * (vcmax, vcmin, vcadd), BlockReduceMax/Min/Sum (vcgmax, vcgmin, vcgadd),
 * PairReduceSum (vcpadd), RepeatReduceSum (vcadd with a continuous mask)
 * and the level-0 ReduceMax/Min/Sum built on them. Source element i of
 * repeat r lies at (r * src_rep_stride + (i * size / 32) * src_blk_stride)
 * * 32 + i * size % 32 bytes. A mask or repeat count of 0 is a NOP. Sums
 * are binary trees of adjacent lanes, each sum rounded to T; a lane the
 * mask disables takes no part (its partner passes on unchanged). */

enum { RED_MAX_STRIDE = 65535 };

/* The tree of adjacent pairs over the present lanes of v[0..n) (n a power
 * of two); returns 0 when no lane is present. */
static int tree_present(AscDType dt, double *v, int *present, int64_t n,
                        double *out) {
  for (int64_t width = n; width > 1; width /= 2) {
    for (int64_t i = 0; i < width; i += 2) {
      int a = present[i], b = present[i + 1];
      v[i / 2] = a && b ? add_round(dt, v[i], v[i + 1]) : a ? v[i] : v[i + 1];
      present[i / 2] = a || b;
    }
  }
  *out = v[0];
  return present[0];
}

typedef struct Red {
  AscDType dt;
  int64_t es, per_repeat, per_block, repeats;
  uint64_t lo, hi;
  int64_t first, last; /* enabled elements of a repeat */
  CsOp src;
  /* counter family: the last repeat's mask and last enabled element (in
   * counter mode it is short; otherwise as the other repeats') */
  uint64_t lo_t, hi_t;
  int64_t last_t;
} Red;

static int red_bit(const Red *rd, int64_t r, int64_t i) {
  return r == rd->repeats - 1 ? cs_bit(rd->lo_t, rd->hi_t, i)
                              : cs_bit(rd->lo, rd->hi, i);
}

/* The end of the span of `repeats` repeats whose element `last` (the last
 * repeat's: last_t) at byte off(r, i) + es ends the repeat's part. */
static int64_t red_end(const Red *rd, int64_t r_unit, int64_t e_unit,
                       int64_t last_div, int64_t tail_div) {
  int64_t end = (rd->repeats - 1) * r_unit + (tail_div + 1) * e_unit;
  if (rd->repeats > 1 &&
      (rd->repeats - 2) * r_unit + (last_div + 1) * e_unit > end)
    end = (rd->repeats - 2) * r_unit + (last_div + 1) * e_unit;
  return end;
}

/* Decodes repeat_time (operand kr), the mask (operands km, km + 1; km + 1
 * < 0: a continuous mask only) and the source strides (operands kb, kp),
 * and checks the source's span. Returns 0 on error, 1 with work, 2 for a
 * NOP. */
static int red_prepare(AscExec *x, const AscInstr *in, Red *rd, int kr, int km,
                       int km1, int kb, int kp) {
  const AscTensorRef *d = sim_tensor_arg(x, in, 0, "dst");
  if (!d)
    return 0;
  rd->dt = (AscDType)d->dtype;
  if (rd->dt != ASC_DT_FLOAT16 && rd->dt != ASC_DT_FLOAT32)
    return sim_fail(x, in, "unsupported element type"), 0;
  rd->es = (int64_t)asc_dtype_size(rd->dt);
  rd->per_repeat = CS_REPEAT / rd->es;
  rd->per_block = CS_BLOCK / rd->es;
  rd->repeats = ASC_SLOT(x, in, kr).i;
  if (rd->repeats < 0 || rd->repeats > 255)
    return sim_fail(x, in, "repeat_time %lld is out of range [0, 255]",
                    (long long)rd->repeats),
           0;
  int bit_mode = (int)asc_op_attr_int(in->src, "mask_mode", 0) & 1;
  int set_mask = (int)asc_op_attr_int(in->src, "is_set_mask", 1) != 0;
  int64_t m0 = ASC_SLOT(x, in, km).i;
  if (!bit_mode && m0 < 0)
    return sim_fail(x, in, "mask %lld is negative", (long long)m0), 0;
  if (!sim_l0_mask_counter(
          x, in, rd->per_repeat, bit_mode, set_mask, (uint64_t)m0,
          km1 >= 0 ? (uint64_t)ASC_SLOT(x, in, km1).i : 0, &rd->repeats,
          &rd->lo, &rd->hi, &rd->lo_t, &rd->hi_t))
    return 0;
  rd->src.es = rd->es;
  rd->src.blk = kb >= 0 ? ASC_SLOT(x, in, kb).i : 1;
  rd->src.rep = ASC_SLOT(x, in, kp).i;
  if (rd->src.blk < 0 || rd->src.blk > RED_MAX_STRIDE || rd->src.rep < 0 ||
      rd->src.rep > RED_MAX_STRIDE)
    return sim_fail(x, in, "src strides %lld, %lld are out of range [0, 65535]",
                    (long long)rd->src.blk, (long long)rd->src.rep),
           0;
  if (rd->repeats == 0 ||
      !cs_mask_range(rd->lo, rd->hi, rd->per_repeat, &rd->first, &rd->last)) {
    x->b->ev.elems = 0;
    x->b->ev.bytes = 0;
    return 2;
  }
  int64_t t_first = 0;
  if (!cs_mask_range(rd->lo_t, rd->hi_t, rd->per_repeat, &t_first, &rd->last_t))
    rd->last_t = rd->last;
  int64_t end = cs_off(&rd->src, rd->repeats - 1, rd->last_t) + rd->es;
  if (rd->repeats > 1 &&
      cs_off(&rd->src, rd->repeats - 2, rd->last) + rd->es > end)
    end = cs_off(&rd->src, rd->repeats - 2, rd->last) + rd->es;
  rd->src.base =
      cs_span(x, in, 1, "src", cs_off(&rd->src, 0, rd->first), end, 0, 32, 0);
  return rd->src.base ? 1 : 0;
}

static double red_load(const Red *rd, int64_t r, int64_t i) {
  return asc_load_f(rd->dt, rd->src.base + cs_off(&rd->src, r, i), 0);
}

/* The sum of the enabled lanes [from, from + n) of repeat r. */
static int red_sum(const Red *rd, int64_t r, int64_t from, int64_t n,
                   double *out) {
  double v[MAX_LANES];
  int present[MAX_LANES];
  for (int64_t i = 0; i < n; i++) {
    present[i] = red_bit(rd, r, from + i);
    v[i] = present[i] ? red_load(rd, r, from + i) : 0;
  }
  return tree_present(rd->dt, v, present, n, out);
}

/* The extreme of the enabled lanes [from, from + n) of repeat r and its
 * index in the repeat: the lowest of equal values, the first NaN. */
static int red_extreme(const Red *rd, int64_t r, int64_t from, int64_t n,
                       int max, double *out, int64_t *idx) {
  int found = 0;
  for (int64_t i = from; i < from + n; i++) {
    if (!red_bit(rd, r, i))
      continue;
    double v = red_load(rd, r, i);
    if (!found || (*out == *out && (v != v || (max ? v > *out : v < *out)))) {
      *out = v;
      *idx = i;
      found = 1;
    }
  }
  return found;
}

/* Stores the element (for an extreme, the source element itself, its
 * sign of zero and NaN payload, at src lane idx of repeat r). */
static void red_store(const Red *rd, uint8_t *p, double v, int64_t r,
                      int64_t idx) {
  if (idx >= 0) {
    memcpy(p, rd->src.base + cs_off(&rd->src, r, idx), (size_t)rd->es);
    return;
  }
  AscScalar s = {.f = v};
  asc_store_scalar(rd->dt, p, 0, s);
}

static void red_store_index(AscDType dt, uint8_t *p, int64_t idx, int wide) {
  if (dt == ASC_DT_FLOAT16 && !wide) {
    uint16_t u = (uint16_t)idx;
    memcpy(p, &u, 2);
  } else {
    uint32_t u = (uint32_t)idx;
    memcpy(p, &u, 4);
  }
}

static int red_dst_stride(AscExec *x, const AscInstr *in, int k, int64_t *out) {
  *out = ASC_SLOT(x, in, k).i;
  if (*out < 0 || *out > RED_MAX_STRIDE)
    return sim_fail(x, in, "dst_rep_stride %lld is out of range [0, 65535]",
                    (long long)*out),
           0;
  return 1;
}

/* WholeReduceMax/Min/Sum(dst, src, mask, repeat_time, dst_rep_stride,
 * src_blk_stride, src_rep_stride[, order]) and RepeatReduceSum(dst, src,
 * repeat_time, mask, dst_blk_stride (unused, as in the devkit),
 * src_blk_stride, dst_rep_stride, src_rep_stride). Repeat r's result goes
 * to dst + r * dst_rep_stride units: the size of what it writes (sum and
 * ORDER_ONLY_VALUE: one T; value and index: two T; ORDER_ONLY_INDEX: a
 * uint32 index, 4 bytes for half and float, the devkit's table). in->imm:
 * the ASC_VRED op. */
static AscStatus whole_reduce(AscExec *x, const AscInstr *in, int repeat_form) {
  AscVecReduceOp op = (AscVecReduceOp)in->imm;
  Red rd;
  int st = repeat_form ? red_prepare(x, in, &rd, 2, 3, -1, 5, 7)
                       : red_prepare(x, in, &rd, 4, 2, 3, 6, 7);
  if (st != 1)
    return st ? ASC_OK : ASC_ERR_KERNEL;
  int64_t dst_rep;
  if (!red_dst_stride(x, in, repeat_form ? 6 : 5, &dst_rep))
    return ASC_ERR_KERNEL;
  int order =
      op == ASC_VRED_SUM ? ASC_REDUCEORDER_ORDER_ONLY_VALUE : (int)in->imm2;
  int64_t unit = order == ASC_REDUCEORDER_ORDER_ONLY_VALUE   ? rd.es
                 : order == ASC_REDUCEORDER_ORDER_ONLY_INDEX ? 4
                                                             : 2 * rd.es;
  uint8_t *d =
      cs_span(x, in, 0, "dst", 0, (rd.repeats - 1) * dst_rep * unit + unit, 1,
              unit, dst_rep == 1);
  if (!d)
    return ASC_ERR_KERNEL;
  for (int64_t r = 0; r < rd.repeats; r++) {
    uint8_t *p = d + r * dst_rep * unit;
    double v = 0;
    int64_t idx = -1;
    if (op == ASC_VRED_SUM) {
      red_sum(&rd, r, 0, rd.per_repeat, &v);
      red_store(&rd, p, v, r, -1);
      continue;
    }
    red_extreme(&rd, r, 0, rd.per_repeat, op == ASC_VRED_MAX, &v, &idx);
    switch (order) {
    case ASC_REDUCEORDER_ORDER_VALUE_INDEX:
      red_store(&rd, p, v, r, idx);
      red_store_index(rd.dt, p + rd.es, idx, 0);
      break;
    case ASC_REDUCEORDER_ORDER_INDEX_VALUE:
      red_store_index(rd.dt, p, idx, 0);
      red_store(&rd, p + rd.es, v, r, idx);
      break;
    case ASC_REDUCEORDER_ORDER_ONLY_VALUE:
      red_store(&rd, p, v, r, idx);
      break;
    default:
      red_store_index(rd.dt, p, idx, 1);
      break;
    }
  }
  x->b->ev.elems = rd.repeats * rd.per_repeat;
  x->b->ev.bytes = rd.repeats * CS_REPEAT;
  return ASC_OK;
}

AscStatus sim_vec_whole_reduce(AscExec *x, const AscInstr *in) {
  return whole_reduce(x, in, 0);
}

AscStatus sim_vec_repeat_reduce(AscExec *x, const AscInstr *in) {
  return whole_reduce(x, in, 1);
}

/* BlockReduceMax/Min/Sum(dst, src, repeat, mask, dst_rep_stride,
 * src_blk_stride, src_rep_stride): each of a repeat's 8 blocks reduced to
 * one T, the 8 results of repeat r at dst + r * dst_rep_stride * 8 * size
 * (16 bytes for half, 32 for float); a block with no enabled element
 * leaves its result unwritten (Ascend910B). */
AscStatus sim_vec_block_reduce(AscExec *x, const AscInstr *in) {
  AscVecReduceOp op = (AscVecReduceOp)in->imm;
  Red rd;
  int st = red_prepare(x, in, &rd, 2, 3, 4, 6, 7);
  if (st != 1)
    return st ? ASC_OK : ASC_ERR_KERNEL;
  int64_t dst_rep;
  if (!red_dst_stride(x, in, 5, &dst_rep))
    return ASC_ERR_KERNEL;
  int64_t unit = 8 * rd.es;
  int64_t b0 = rd.first / rd.per_block, b1 = rd.last / rd.per_block;
  int all_blocks = 1;
  for (int64_t b = 0; b < 8; b++) { /* every block written */
    int any = 0;
    for (int64_t e = 0; e < rd.per_block; e++)
      any |= cs_bit(rd.lo, rd.hi, b * rd.per_block + e);
    all_blocks &= any;
  }
  uint8_t *d =
      cs_span(x, in, 0, "dst", b0 * rd.es,
              red_end(&rd, dst_rep * unit, rd.es, b1, rd.last_t / rd.per_block),
              1, unit, dst_rep == 1 && all_blocks && rd.last_t == rd.last);
  if (!d)
    return ASC_ERR_KERNEL;
  for (int64_t r = 0; r < rd.repeats; r++)
    for (int64_t b = 0; b < 8; b++) {
      double v = 0;
      int64_t idx = -1;
      int64_t from = b * rd.per_block;
      uint8_t *p = d + r * dst_rep * unit + b * rd.es;
      if (op == ASC_VRED_SUM) {
        if (red_sum(&rd, r, from, rd.per_block, &v))
          red_store(&rd, p, v, r, -1);
      } else if (red_extreme(&rd, r, from, rd.per_block, op == ASC_VRED_MAX, &v,
                             &idx)) {
        red_store(&rd, p, v, r, idx);
      }
    }
  x->b->ev.elems = rd.repeats * rd.per_repeat;
  x->b->ev.bytes = rd.repeats * CS_REPEAT;
  return ASC_OK;
}

/* PairReduceSum(dst, src, repeat_time, mask, dst_rep_stride,
 * src_blk_stride, src_rep_stride): dst[j] = src[2j] + src[2j + 1] of each
 * repeat (one enabled lane: that lane; none: dst[j] unwritten), repeat r's
 * 128 bytes at dst + r * dst_rep_stride * 128. */
AscStatus sim_vec_pair_reduce(AscExec *x, const AscInstr *in) {
  Red rd;
  int st = red_prepare(x, in, &rd, 2, 3, 4, 6, 7);
  if (st != 1)
    return st ? ASC_OK : ASC_ERR_KERNEL;
  int64_t dst_rep;
  if (!red_dst_stride(x, in, 5, &dst_rep))
    return ASC_ERR_KERNEL;
  int64_t unit = CS_REPEAT / 2;
  uint8_t *d =
      cs_span(x, in, 0, "dst", rd.first / 2 * rd.es,
              red_end(&rd, dst_rep * unit, rd.es, rd.last / 2, rd.last_t / 2),
              1, 32, 0);
  if (!d)
    return ASC_ERR_KERNEL;
  for (int64_t r = 0; r < rd.repeats; r++)
    for (int64_t j = 0; j < rd.per_repeat / 2; j++) {
      double v;
      if (red_sum(&rd, r, 2 * j, 2, &v))
        red_store(&rd, d + r * dst_rep * unit + j * rd.es, v, r, -1);
    }
  x->b->ev.elems = rd.repeats * rd.per_repeat;
  x->b->ev.bytes = rd.repeats * CS_REPEAT;
  return ASC_OK;
}

/* ReduceMax/Min/Sum(dst, src, shared_tmp_buffer, mask, repeat_time,
 * src_rep_stride[, cal_index]), the level-0 forms (blocks contiguous in a
 * repeat). Sum: each repeat's tree (vcadd), then the devkit's counter-mode
 * vcadd over those partial sums (a tree per 256 bytes of them), then one
 * more over its at most 4 results; max/min: the extreme of all enabled
 * elements, the lowest index of equal values (index r * per_repeat + i,
 * as the devkit's GetIndex counts it: an inference), the first NaN. */
AscStatus sim_vec_reduce_l0(AscExec *x, const AscInstr *in) {
  AscVecReduceOp op = (AscVecReduceOp)in->imm;
  if (!sim_tensor_arg(x, in, 2, "shared_tmp_buffer"))
    return ASC_ERR_KERNEL;
  int cal_index = op != ASC_VRED_SUM && ASC_SLOT(x, in, 7).i != 0;
  /* counter family: these forms have no isSetMask (附录/Mask接口汇总.md:
   * the instruction sets the mask itself) and the devkit's steps switch
   * the mode themselves (ReduceSumSecondStep: SetMaskCount ... SetMaskNorm,
   * dav_c220 kernel_operator_vec_reduce_impl.h); their first step in
   * counter mode is not documented, so it is refused */
  if (x->b->regs.mask_counter)
    return sim_fail(x, in,
                    "level-0 ReduceMax/Min/Sum in counter mode "
                    "(set_mask_count) is not supported: the devkit documents "
                    "these forms for normal mode only; call set_mask_norm "
                    "first");
  Red rd;
  int st = red_prepare(x, in, &rd, 5, 3, 4, -1, 6);
  if (st != 1)
    return st ? ASC_OK : ASC_ERR_KERNEL;
  uint8_t *d = sim_vec_operand(x, in, 0, cal_index ? 2 : 1, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  if (op == ASC_VRED_SUM) {
    double part[256], v[MAX_LANES], second[4] = {0};
    int present[MAX_LANES], n2 = 0;
    for (int64_t r = 0; r < rd.repeats; r++)
      red_sum(&rd, r, 0, rd.per_repeat, &part[r]);
    for (int64_t base = 0; base < rd.repeats; base += rd.per_repeat, n2++) {
      for (int64_t i = 0; i < rd.per_repeat; i++) {
        present[i] = base + i < rd.repeats;
        v[i] = present[i] ? part[base + i] : 0;
      }
      tree_present(rd.dt, v, present, rd.per_repeat, &second[n2]);
    }
    double out = second[0];
    if (n2 > 1) {
      for (int64_t i = 0; i < rd.per_repeat; i++) {
        present[i] = i < n2;
        v[i] = present[i] ? second[i] : 0;
      }
      tree_present(rd.dt, v, present, rd.per_repeat, &out);
    }
    red_store(&rd, d, out, 0, -1);
  } else {
    double best = 0;
    int64_t bi = -1, br = 0;
    for (int64_t r = 0; r < rd.repeats; r++) {
      double v = 0;
      int64_t i = -1;
      red_extreme(&rd, r, 0, rd.per_repeat, op == ASC_VRED_MAX, &v, &i);
      if (bi < 0 || (best == best &&
                     (v != v || (op == ASC_VRED_MAX ? v > best : v < best)))) {
        best = v;
        bi = i;
        br = r;
      }
    }
    red_store(&rd, d, best, br, bi);
    if (cal_index)
      store_index(rd.dt, d, br * rd.per_repeat + bi);
  }
  x->b->ev.elems = rd.repeats * rd.per_repeat;
  x->b->ev.bytes = rd.repeats * CS_REPEAT;
  return ASC_OK;
}
