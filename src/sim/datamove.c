/* DataCopy, count form: GM → UB (MTE2), UB → GM (MTE3), UB → UB.
 *
 * Facts (devkit docs, "DataCopy (GM与UB连续数据搬运)"): UB addresses must be
 * 32-byte aligned; GM addresses aligned to the element size; when
 * count * sizeof(T) is not a multiple of 32 bytes the amount moved is
 * rounded down to a multiple of 32 bytes. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "sim.h"

AscStatus sim_data_copy(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return ASC_ERR_KERNEL;
  AscTensorRef dst = ASC_SLOT(x, in, 0).t, src = ASC_SLOT(x, in, 1).t;
  int64_t count = ASC_SLOT(x, in, 2).i;
  if (asc_dtype_size((AscDType)dst.dtype) !=
      asc_dtype_size((AscDType)src.dtype))
    return sim_fail(x, in,
                    "data_copy between tensors of %s and %s: the element "
                    "sizes differ",
                    asc_dtype_name((AscDType)dst.dtype),
                    asc_dtype_name((AscDType)src.dtype));
  int64_t es = (int64_t)asc_dtype_size((AscDType)src.dtype);
  int64_t want;
  if (count < 0)
    return sim_fail(x, in, "negative element count %lld", (long long)count);
  if (asc_mul_i64(count, es, &want))
    return sim_fail(x, in,
                    "%lld elements of %lld bytes are more bytes than any "
                    "memory holds",
                    (long long)count, (long long)es);
  int64_t bytes = want / 32 * 32; /* whole 32-byte blocks only */
  int64_t n = bytes / es;
  x->b->ev.dropped = want - bytes;
  int dst_gm = in->op == ASC_OP_COPY_LOCAL_TO_GM;
  int src_gm = in->op == ASC_OP_COPY_GM_TO_LOCAL;
  const AscTensorRef *local = dst_gm ? &src : &dst;
  if (local->addr % 32)
    return sim_fail(x, in, "UB address %lld is not 32-byte aligned",
                    (long long)local->addr);
  if (!dst_gm && !src_gm && src.addr % 32)
    return sim_fail(x, in, "source UB address %lld is not 32-byte aligned",
                    (long long)src.addr);
  const AscTensorRef *gm = dst_gm ? &dst : (src_gm ? &src : NULL);
  if (gm && gm->addr % es)
    return sim_fail(x, in,
                    "GM address is not aligned to the %lld-byte "
                    "element size",
                    (long long)es);
  SimGmSpan span;
  if (src_gm) { /* GM -> UB: what lies outside the argument reads as zeros */
    uint8_t *d = sim_local_ptr(x, in, &dst, n, 1, "dst");
    if (!d || sim_gm_span(x, in, &src, n, 0, "src", &span))
      return ASC_ERR_KERNEL;
    if (span.valid < bytes)
      memset(d, 0, (size_t)bytes);
    if (span.valid)
      memcpy(d + span.skip, span.p, (size_t)span.valid);
  } else if (dst_gm) { /* UB -> GM: writes outside the argument go nowhere */
    uint8_t *s = sim_local_ptr(x, in, &src, n, 0, "src");
    int n_acc = x->b->ev.n_acc;
    if (!s || sim_gm_span(x, in, &dst, n, 1, "dst", &span))
      return ASC_ERR_KERNEL;
    sim_gm_mark_atomic(x, n_acc);
    if (span.valid &&
        sim_gm_store(x, in, span.p, s + span.skip, span.valid) != ASC_OK)
      return ASC_ERR_KERNEL;
  } else {
    uint8_t *d = sim_local_ptr(x, in, &dst, n, 1, "dst");
    uint8_t *s = d ? sim_local_ptr(x, in, &src, n, 0, "src") : NULL;
    if (!s)
      return ASC_ERR_KERNEL;
    memmove(d, s, (size_t)bytes);
  }
  x->b->ev.elems = n;
  x->b->ev.bytes = bytes;
  return ASC_OK;
}

/* ---- data movement family: DataCopy with DataCopyParams, DataCopyPad,
 * SetPadValue, Copy --------------------------------------------------------
 *
 * The strided forms move blockCount blocks ("bursts") of blockLen each;
 * a block starts `stride` after the previous one ends. Facts (devkit docs
 * "DataCopy (GM与UB连续数据搬运)", "DataCopyPad (GMToUB / UBToGM
 * 非对齐数据搬运)", dav_c220 kernel_operator_data_copy_impl.h):
 *   DataCopyParams: blockCount [1, 4095], blockLen [1, 65535] and both
 *     strides [0, 65535], all in 32-byte blocks on either side.
 *   DataCopyPad: blockLen in bytes, a multiple of sizeof(T); the GM stride
 *     in bytes, the UB stride in 32-byte blocks; a UB block takes blockLen
 *     (plus the paddings GM -> UB) rounded up to 32 bytes; blockCount or
 *     blockLen 0 is a NOP. DataCopyExtParams: blockCount [0, 4095],
 *     blockLen [0, 2097151], strides uint32; DataCopyParams: uint16.
 *   GM -> UB padding: leftPadding / rightPadding elements (at most 32 bytes
 *     each) of the pad value around each block's data, then dummy bytes to
 *     the next 32 bytes: the block's first element when both paddings are
 *     0, else the pad value. isPad writes paddingValue into the pad
 *     register (set_mov_pad_val, which SetPadValue also writes) and the
 *     register holds for later copies; with isPad false the pads are
 *     whatever the register holds (the docs call them random unless
 *     SetPadValue set it; the model: 0 until set).
 * The UB range a copy touches is checked and recorded as one range (its
 * gaps marked for the sanitizer), the GM range as one span. */

static uint64_t field_u(AscExec *x, const AscInstr *in, int k, int f) {
  return (uint64_t)x->regs[in->a[k] + f].i;
}

/* Bytes [lo, hi) from local tensor t's address, inside t and the UB: the
 * host pointer of byte lo, or NULL after sim_fail. */
static uint8_t *local_range(AscExec *x, const AscInstr *in,
                            const AscTensorRef *t, int64_t lo, int64_t hi,
                            int write, int gaps, const char *what) {
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype), bytes;
  AscTensorRef sub = *t;
  sub.dtype = ASC_DT_UINT8;
  if (asc_add_i64(t->addr, lo, &sub.addr)) {
    sim_fail(x, in, "%s: UB address out of range", what);
    return NULL;
  }
  if (t->len >= 0) {
    if (asc_mul_i64(t->len, es, &bytes))
      bytes = INT64_MAX;
    sub.len = bytes - lo < 0 ? 0 : bytes - lo;
  }
  int n = x->b->ev.n_acc;
  uint8_t *p = sim_local_ptr(x, in, &sub, hi - lo, write, what);
  if (p && gaps)
    for (int i = n; i < x->b->ev.n_acc; i++)
      x->b->ev.acc[i].bounding = 1;
  return p;
}

typedef struct GmRange {
  SimGmSpan span;
  int64_t lo;
} GmRange;

/* Bytes [lo, hi) from GM tensor t's address (byte-granular); rows > 1:
 * only rows runs of row_len bytes every row_step from t's address are
 * touched (recorded for the sanitizer's checks between blocks). */
static int gm_range(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                    int64_t lo, int64_t hi, int write, const char *what,
                    GmRange *r, int64_t rows, int64_t row_len,
                    int64_t row_step) {
  AscTensorRef sub = *t;
  sub.dtype = ASC_DT_UINT8;
  if (asc_add_i64(t->addr, lo, &sub.addr)) {
    sim_fail(x, in, "%s: GM address out of range", what);
    return 0;
  }
  int n = x->b->ev.n_acc;
  if (sim_gm_span(x, in, &sub, hi - lo, write, what, &r->span))
    return 0;
  if (write)
    sim_gm_mark_atomic(x, n);
  if (rows > 1 && row_step != row_len)
    for (int i = n; i < x->b->ev.n_acc; i++) {
      AscAccess *acc = &x->b->ev.acc[i];
      acc->rows = (int32_t)rows;
      acc->row0 = sub.addr;
      acc->row_len = row_len;
      acc->row_step = row_step;
    }
  r->lo = lo;
  return 1;
}

/* The part of bytes [off, off + len) that lies inside the argument: its
 * host pointer, *skip bytes after off, *n bytes (0: none). */
static uint8_t *gm_row(const GmRange *r, int64_t off, int64_t len,
                       int64_t *skip, int64_t *n) {
  int64_t a = off - r->lo, b = a + len;
  int64_t va = r->span.skip, vb = va + r->span.valid;
  int64_t lo = a > va ? a : va, hi = b < vb ? b : vb;
  *skip = 0;
  *n = 0;
  if (!r->span.p || hi <= lo)
    return NULL;
  *skip = lo - a;
  *n = hi - lo;
  return r->span.p + (lo - va);
}

typedef struct Rows {
  int64_t count, len;           /* blocks; data bytes a block */
  int64_t src_step, dst_step;   /* bytes from a block's start to the next */
  int64_t src_extra, dst_extra; /* bytes a block takes past len */
} Rows;

static int64_t rows_end(const Rows *r, int dst) {
  return (r->count - 1) * (dst ? r->dst_step : r->src_step) + r->len +
         (dst ? r->dst_extra : r->src_extra);
}

static int check_range(AscExec *x, const AscInstr *in, const char *name,
                       uint64_t v, uint64_t lo, uint64_t hi) {
  if (v >= lo && v <= hi)
    return 1;
  sim_fail(x, in, "%s %llu is out of range [%llu, %llu]", name,
           (unsigned long long)v, (unsigned long long)lo,
           (unsigned long long)hi);
  return 0;
}

/* Moves the rows: GM -> UB (reads outside the argument see zeros), UB ->
 * GM (through sim_gm_store: the atomics) or UB -> UB. */
static AscStatus move_rows_at(AscExec *x, const AscInstr *in, const Rows *r,
                              int src_gm, int dst_gm, int64_t es, int64_t doff,
                              int64_t soff);

static AscStatus move_rows(AscExec *x, const AscInstr *in, const Rows *r,
                           int src_gm, int dst_gm, int64_t es) {
  return move_rows_at(x, in, r, src_gm, dst_gm, es, 0, 0);
}

/* The rows, starting doff bytes after dst's address and soff after src's. */
static AscStatus move_rows_at(AscExec *x, const AscInstr *in, const Rows *r,
                              int src_gm, int dst_gm, int64_t es, int64_t doff,
                              int64_t soff) {
  const AscTensorRef *dst = &ASC_SLOT(x, in, 0).t, *src = &ASC_SLOT(x, in, 1).t;
  int dgaps = r->count > 1 && r->dst_step != r->len + r->dst_extra;
  int sgaps = r->count > 1 && r->src_step != r->len + r->src_extra;
  GmRange g;
  uint8_t *d = NULL, *s = NULL;
  if (src_gm) {
    d = local_range(x, in, dst, doff, doff + rows_end(r, 1), 1, dgaps, "dst");
    if (!d || !gm_range(x, in, src, soff, soff + rows_end(r, 0), 0, "src", &g,
                        r->count, r->len, r->src_step))
      return ASC_ERR_KERNEL;
  } else if (dst_gm) {
    s = local_range(x, in, src, soff, soff + rows_end(r, 0), 0, sgaps, "src");
    if (!s || !gm_range(x, in, dst, doff, doff + rows_end(r, 1), 1, "dst", &g,
                        r->count, r->len, r->dst_step))
      return ASC_ERR_KERNEL;
  } else {
    d = local_range(x, in, dst, 0, rows_end(r, 1), 1, dgaps, "dst");
    s = d ? local_range(x, in, src, 0, rows_end(r, 0), 0, sgaps, "src") : NULL;
    if (!s)
      return ASC_ERR_KERNEL;
  }
  for (int64_t b = 0; b < r->count; b++) {
    int64_t so = b * r->src_step, dof = b * r->dst_step, skip, n;
    if (src_gm) {
      uint8_t *p = gm_row(&g, soff + so, r->len, &skip, &n);
      if (n < r->len)
        memset(d + dof, 0, (size_t)r->len);
      if (n)
        memcpy(d + dof + skip, p, (size_t)n);
    } else if (dst_gm) {
      uint8_t *p = gm_row(&g, doff + dof, r->len, &skip, &n);
      if (n && sim_gm_store(x, in, p, s + so + skip, n) != ASC_OK)
        return ASC_ERR_KERNEL;
    } else {
      memmove(d + dof, s + so, (size_t)r->len);
    }
  }
  x->b->ev.bytes = r->count * r->len;
  x->b->ev.elems = x->b->ev.bytes / es;
  x->b->ev.bursts = r->count;
  return ASC_OK;
}

static int dir_src_gm(const AscInstr *in) {
  return in->op == ASC_OP_DATA_COPY_P_GM_TO_LOCAL ||
         in->op == ASC_OP_DATA_COPY_E_GM_TO_LOCAL ||
         in->op == ASC_OP_DATA_COPY_PAD_GM_TO_LOCAL ||
         in->op == ASC_OP_DATA_COPY_PAD_P_GM_TO_LOCAL ||
         in->op == ASC_OP_DATA_COPY_SLICE_GM_TO_LOCAL ||
         in->op == ASC_OP_DATA_COPY_ND2NZ_UB;
}

static int dir_dst_gm(const AscInstr *in) {
  return in->op == ASC_OP_DATA_COPY_P_LOCAL_TO_GM ||
         in->op == ASC_OP_DATA_COPY_E_LOCAL_TO_GM ||
         in->op == ASC_OP_DATA_COPY_PAD_LOCAL_TO_GM ||
         in->op == ASC_OP_DATA_COPY_PAD_P_LOCAL_TO_GM ||
         in->op == ASC_OP_DATA_COPY_NZ2ND ||
         in->op == ASC_OP_DATA_COPY_SLICE_LOCAL_TO_GM;
}

/* The operands' element size and alignment: UB 32 bytes; GM the element
 * size (DataCopy) or none (DataCopyPad: gm_align 1). */
static int64_t check_operands(AscExec *x, const AscInstr *in, int gm_align) {
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return 0;
  const AscTensorRef *t[2] = {&ASC_SLOT(x, in, 0).t, &ASC_SLOT(x, in, 1).t};
  int gm[2] = {dir_dst_gm(in), dir_src_gm(in)};
  int64_t es = (int64_t)asc_dtype_size((AscDType)t[1]->dtype);
  if ((int64_t)asc_dtype_size((AscDType)t[0]->dtype) != es) {
    sim_fail(x, in, "dst and src element sizes differ");
    return 0;
  }
  for (int i = 0; i < 2; i++) {
    int64_t al = gm[i] ? (gm_align ? gm_align : es) : 32;
    if (t[i]->addr % al) {
      sim_fail(x, in, "%s: %s address %lld is not %lld-byte aligned",
               i ? "src" : "dst", gm[i] ? "GM" : "UB", (long long)t[i]->addr,
               (long long)al);
      return 0;
    }
  }
  return es;
}

AscStatus sim_data_copy_params(AscExec *x, const AscInstr *in) {
  int64_t es = check_operands(x, in, 0);
  if (!es)
    return ASC_ERR_KERNEL;
  uint64_t cnt = field_u(x, in, 2, 0), len = field_u(x, in, 2, 1);
  uint64_t ss = field_u(x, in, 2, 2), ds = field_u(x, in, 2, 3);
  if (!check_range(x, in, "blockCount", cnt, 0, 4095) ||
      !check_range(x, in, "blockLen", len, 0, 65535) ||
      !check_range(x, in, "srcStride", ss, 0, 65535) ||
      !check_range(x, in, "dstStride", ds, 0, 65535))
    return ASC_ERR_KERNEL;
  if (!cnt || !len)
    return ASC_OK; /* nothing moves */
  Rows r = {(int64_t)cnt,
            (int64_t)len * 32,
            (int64_t)(len + ss) * 32,
            (int64_t)(len + ds) * 32,
            0,
            0};
  return move_rows(x, in, &r, dir_src_gm(in), dir_dst_gm(in), es);
}

/* The low es bytes of the pad register, repeated over n bytes. */
static void fill_pad(uint8_t *p, int64_t n, uint64_t bits, int64_t es) {
  for (int64_t i = 0; i < n; i++)
    p[i] = (uint8_t)(bits >> (8 * (i % es)));
}

/* The bits of a T holding v (the register as SetPadValue / isPad set it). */
static uint64_t scalar_bits(AscDType dt, AscSlot v) {
  AscScalar s;
  if (asc_dtype_is_float(dt)) {
    s.f = v.f;
    s.i = asc_float_to_int64(v.f);
  } else {
    s.i = v.i;
    s.f = (double)v.i;
  }
  uint8_t buf[8] = {0};
  asc_store_scalar(dt, buf, 0, s);
  uint64_t bits = 0;
  for (int i = 0; i < 8; i++)
    bits |= (uint64_t)buf[i] << (8 * i);
  return bits;
}

AscStatus sim_data_copy_pad(AscExec *x, const AscInstr *in) {
  int64_t es = check_operands(x, in, 1);
  if (!es)
    return ASC_ERR_KERNEL;
  int ext = in->imm == 0, src_gm = dir_src_gm(in), dst_gm = dir_dst_gm(in);
  uint64_t cnt = field_u(x, in, 2, 0), len = field_u(x, in, 2, 1);
  uint64_t ss = field_u(x, in, 2, 2), ds = field_u(x, in, 2, 3);
  uint64_t smax = ext ? UINT32_MAX : 65535;
  if (!check_range(x, in, "blockCount", cnt, 0, 4095) ||
      !check_range(x, in, "blockLen", len, 0, ext ? 2097151 : 65535) ||
      !check_range(x, in, "srcStride", ss, 0, smax) ||
      !check_range(x, in, "dstStride", ds, 0, smax))
    return ASC_ERR_KERNEL;
  if (len % (uint64_t)es)
    return sim_fail(x, in,
                    "blockLen %llu is not a multiple of the %lld-byte "
                    "element size",
                    (unsigned long long)len, (long long)es);
  int64_t left = 0, right = 0;
  if (src_gm) {
    left = (int64_t)field_u(x, in, 3, 1) * es;
    right = (int64_t)field_u(x, in, 3, 2) * es;
    if (left > 32 || right > 32)
      return sim_fail(x, in,
                      "leftPadding and rightPadding take at most 32 bytes "
                      "each, got %lld and %lld",
                      (long long)left, (long long)right);
    if (x->regs[in->a[3]].i) { /* isPad: the pad register takes the value */
      AscSlot v = x->regs[in->a[3] + 3];
      x->b->regs.pad_value =
          ext ? scalar_bits((AscDType)ASC_SLOT(x, in, 0).t.dtype, v)
              : (uint64_t)v.i;
    }
  }
  if (!cnt || !len)
    return ASC_OK; /* a NOP (also for the pad register? isPad set it) */
  int64_t l = (int64_t)len, row = left + l + right,
          row32 = (row + 31) / 32 * 32;
  Rows r;
  r.count = (int64_t)cnt;
  r.len = l;
  if (src_gm) { /* GM rows of len bytes, UB rows of row32 */
    r.src_step = l + (int64_t)ss;
    r.dst_step = row32 + (int64_t)ds * 32;
    r.src_extra = 0;
    r.dst_extra = row32 - l;
  } else { /* UB rows of len rounded up to 32 bytes, GM rows of len; the
            * dummy bytes after a UB row's data are not read into GM, so only
            * the data is checked (a tensor may end with the data) */
    r.src_step = (l + 31) / 32 * 32 + (int64_t)ss * 32;
    r.dst_step = l + (int64_t)ds;
    r.src_extra = 0;
    r.dst_extra = 0;
  }
  if (!src_gm)
    return move_rows(x, in, &r, 0, dst_gm, es);
  /* GM -> UB: the data goes after the left padding of each UB row */
  const AscTensorRef *dst = &ASC_SLOT(x, in, 0).t, *src = &ASC_SLOT(x, in, 1).t;
  int dgaps = r.count > 1 && r.dst_step != row32;
  GmRange g;
  uint8_t *d = local_range(x, in, dst, 0, rows_end(&r, 1), 1, dgaps, "dst");
  if (!d || !gm_range(x, in, src, 0, rows_end(&r, 0), 0, "src", &g, r.count, l,
                      r.src_step))
    return ASC_ERR_KERNEL;
  uint64_t pad = x->b->regs.pad_value;
  for (int64_t b = 0; b < r.count; b++) {
    uint8_t *o = d + b * r.dst_step;
    int64_t skip, n;
    uint8_t *p = gm_row(&g, b * r.src_step, l, &skip, &n);
    fill_pad(o, left, pad, es);
    if (n < l)
      memset(o + left, 0, (size_t)l);
    if (n)
      memcpy(o + left + skip, p, (size_t)n);
    fill_pad(o + left + l, right, pad, es);
    if (row32 > row) {
      if (left == 0 && right == 0) /* dummy: the block's first element */
        for (int64_t i = row; i < row32; i += es)
          memcpy(o + i, o, (size_t)(row32 - i < es ? row32 - i : es));
      else
        fill_pad(o + row, row32 - row, pad, es);
    }
  }
  x->b->ev.bytes = r.count * l;
  x->b->ev.elems = x->b->ev.bytes / es;
  x->b->ev.bursts = r.count;
  return ASC_OK;
}

/* SetPadValue<T, pos>(v): the pad register holds v's bits as a T (T the
 * value's own type, as upstream passes it). */
AscStatus sim_set_pad_value(AscExec *x, const AscInstr *in) {
  AscDType dt = in->src->operands[0]->type->dtype;
  x->b->regs.pad_value = scalar_bits(dt, ASC_SLOT(x, in, 0));
  return ASC_OK;
}

/* Copy (UB -> UB, level 0): per repeat, the enabled elements of 8 blocks
 * of 32 bytes; block j of repeat r of an operand starts (r * repeatSize +
 * j * stride) * 32 bytes after its address (CopyRepeatParams: dstStride,
 * srcStride [0, 65535], dstRepeatSize, srcRepeatSize [0, 4095]). The mask
 * as for the vector instructions in normal mode. In counter mode, unlike
 * them, the mask counts the elements of each repeat and repeatTime holds:
 * a repeat takes ceil(mask * sizeof(T) / 32) blocks, the mask's elements
 * in order (devkit doc "Copy (UBToUB掩码式高维数据搬运)"). Each repeat
 * reads its source blocks before it writes (the model's order). */
AscStatus sim_copy_l0(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return ASC_ERR_KERNEL;
  const AscTensorRef *t[2] = {&ASC_SLOT(x, in, 0).t, &ASC_SLOT(x, in, 1).t};
  int64_t es = (int64_t)asc_dtype_size((AscDType)t[0]->dtype);
  int64_t pb = 32 / es, per_repeat = 256 / es;
  sim_l0_apply_mask(x, in, 2, per_repeat);
  int64_t repeat = ASC_SLOT(x, in, 4).i;
  int64_t blk[2] = {(int64_t)field_u(x, in, 5, 0),
                    (int64_t)field_u(x, in, 5, 1)};
  int64_t rep[2] = {(int64_t)field_u(x, in, 5, 2),
                    (int64_t)field_u(x, in, 5, 3)};
  if (!check_range(x, in, "repeatTime", (uint64_t)repeat, 0, 255) ||
      !check_range(x, in, "dstStride", (uint64_t)blk[0], 0, 65535) ||
      !check_range(x, in, "srcStride", (uint64_t)blk[1], 0, 65535) ||
      !check_range(x, in, "dstRepeatSize", (uint64_t)rep[0], 0, 4095) ||
      !check_range(x, in, "srcRepeatSize", (uint64_t)rep[1], 0, 4095))
    return ASC_ERR_KERNEL;
  for (int i = 0; i < 2; i++)
    if (t[i]->addr % 32)
      return sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned",
                      i ? "src" : "dst", (long long)t[i]->addr);
  /* enabled[i]: element i of a repeat takes part (n_el elements) */
  int64_t n_el;
  uint64_t lo = x->b->regs.mask_low, hi = x->b->regs.mask_high;
  int counter = x->b->regs.mask_counter;
  if (counter) {
    int64_t max_el = x->b->ub_size / es;
    if (lo > (uint64_t)max_el)
      return sim_fail(x, in,
                      "counter mode: the mask counts %llu elements a repeat, "
                      "more than the UB holds",
                      (unsigned long long)lo);
    n_el = (int64_t)lo;
  } else {
    n_el = per_repeat;
    if (per_repeat <= 64)
      hi = 0;
    if (per_repeat < 64)
      lo &= ((uint64_t)1 << per_repeat) - 1;
  }
  int64_t first = -1, last = -1, enabled = 0;
  for (int64_t i = 0; i < n_el; i++) {
    int on = counter || (i < 64 ? (lo >> i) & 1 : (hi >> (i - 64)) & 1);
    if (!on)
      continue;
    if (first < 0)
      first = i;
    last = i;
    enabled++;
    if (counter) { /* all of them */
      last = n_el - 1;
      enabled = n_el;
      break;
    }
  }
  x->b->ev.elems = 0;
  x->b->ev.bytes = 0;
  if (repeat == 0 || enabled == 0)
    return ASC_OK; /* a NOP */
  if (blk[0] == 0 && last / pb > 0)
    return sim_fail(x, in,
                    "dst block stride 0 is undefined behaviour on the "
                    "hardware (the blocks of a repeat would write one block)");
  uint8_t *base[2];
  int64_t off0[2];
  for (int i = 0; i < 2; i++) {
    int64_t b0 = (first / pb * blk[i]) * 32 + first % pb * es;
    int64_t b1 =
        ((repeat - 1) * rep[i] + last / pb * blk[i]) * 32 + last % pb * es + es;
    int dense = blk[i] == 1 && enabled == n_el && n_el % pb == 0 &&
                (repeat == 1 || rep[i] * 32 == n_el * es);
    base[i] =
        local_range(x, in, t[i], b0, b1, i == 0, !dense, i ? "src" : "dst");
    if (!base[i])
      return ASC_ERR_KERNEL;
    off0[i] = b0;
  }
  int64_t nblk = (last / pb) + 1;
  uint8_t stack[256], *tmp = stack;
  if (nblk * 32 > (int64_t)sizeof stack && !(tmp = malloc((size_t)(nblk * 32))))
    return sim_fail(x, in, "out of memory");
  for (int64_t r = 0; r < repeat; r++) {
    for (int64_t i = first; i <= last; i++) {
      if (!counter && !(i < 64 ? (lo >> i) & 1 : (hi >> (i - 64)) & 1))
        continue;
      int64_t so = (r * rep[1] + i / pb * blk[1]) * 32 + i % pb * es - off0[1];
      memcpy(tmp + i * es, base[1] + so, (size_t)es);
    }
    for (int64_t i = first; i <= last; i++) {
      if (!counter && !(i < 64 ? (lo >> i) & 1 : (hi >> (i - 64)) & 1))
        continue;
      int64_t dof = (r * rep[0] + i / pb * blk[0]) * 32 + i % pb * es - off0[0];
      memcpy(base[0] + dof, tmp + i * es, (size_t)es);
    }
  }
  if (tmp != stack)
    free(tmp);
  x->b->ev.elems = repeat * (counter ? nblk * pb : per_repeat);
  x->b->ev.bytes = x->b->ev.elems * es;
  return ASC_OK;
}

int asc_copy_dtype_supported(AscDType dt) {
  switch (dt) {
  case ASC_DT_INT16:
  case ASC_DT_UINT16:
  case ASC_DT_FLOAT16:
  case ASC_DT_BFLOAT16:
  case ASC_DT_INT32:
  case ASC_DT_UINT32:
  case ASC_DT_FLOAT32:
    return 1;
  default:
    return 0;
  }
}

/* ---- family: slice. DataCopy with SliceInfo (GM -> UB, UB -> GM) ---------
 *
 * Facts (devkit kernel_operator_data_copy_intf_impl.h, _base_impl.h
 * DataCopyGetOffsetList / DataCopyGetPhyStartIndex, dav_c220
 * DataCopySlice*Impl): dimension 0 is the innermost. Each side's shape is
 * its slices' shape_value when src's first shape_value is not 0, else the
 * tensors' ShapeInfo. A side starts at sum(start_index[i] * prod(shape[<i])).
 * Dimensions 1.. select rows start, start + (1 + stride), ... up to
 * end_index ((end - start + 1 + stride) / (1 + stride) of them), in
 * dimension order (dimension 1 fastest); src's list of rows drives the loop
 * and dst's row i takes src's row i. Each row is one DataCopy of src's
 * dimension 0: blockLen = src burst_len 32-byte blocks, blockCount =
 * (end - start + 1 + stride) / (burst_len * 32 / sizeof(T) + stride);
 * between blocks the GM side skips its dimension-0 stride elements (bytes,
 * through DataCopyPad, when they are not whole 32-byte blocks) and the UB
 * side its stride rounded down to whole 32-byte blocks. The row lists hold
 * at most MAX_SLICE_SIZE = 6 * 256 rows; dim_value is at most
 * K_MAX_SHAPE_DIM = 8. The DataCopyParams fields are uint16_t: what does
 * not fit is a KernelError here (the device would truncate it). */
enum { SLICE_MAX_DIM = 8, SLICE_MAX_ROWS = 6 * 256 };
enum { SL_START, SL_END, SL_STRIDE, SL_BURST, SL_SHAPE };

static uint64_t slice_field(AscExec *x, const AscInstr *in, int k, int f) {
  return (uint64_t)x->regs[in->a[k] + f].i & 0xffffffffu;
}

/* The shape of one side (k: its tensor operand, first: its first slice
 * operand): shape_value, or the tensor's ShapeInfo. 0 after sim_fail. */
static int slice_shape(AscExec *x, const AscInstr *in, int k, int first,
                       int dim, int use_value, uint64_t *shape) {
  const char *side = k ? "src" : "dst";
  if (!use_value && !sim_tensor_shape(x, in, k, dim, shape)) {
    sim_fail(x, in,
             "%s: the first src SliceInfo's shape_value is 0, so the shape "
             "is the tensors' ShapeInfo, and none was set on %s "
             "(set_shape_info, or give every SliceInfo its shape_value)",
             side, side);
    return 0;
  }
  /* (a shape of 0 is not refused: the devkit's offsets just do not move) */
  for (int i = 0; use_value && i < dim; i++)
    shape[i] = slice_field(x, in, first + i, SL_SHAPE);
  return 1;
}

/* One side's start (elements) and row offsets (elements from the start). */
static int slice_rows(AscExec *x, const AscInstr *in, int first, int dim,
                      const uint64_t *shape, int64_t *start, int64_t *rows,
                      int *n_rows, const char *side) {
  int64_t size = 1, st = 0, n = 1;
  rows[0] = 0;
  for (int i = 0; i < dim; i++) {
    uint64_t s0 = slice_field(x, in, first + i, SL_START);
    uint64_t e0 = slice_field(x, in, first + i, SL_END);
    uint64_t str = slice_field(x, in, first + i, SL_STRIDE);
    if (e0 < s0) {
      sim_fail(x, in, "%s: dimension %d has end_index %llu < start_index %llu",
               side, i, (unsigned long long)e0, (unsigned long long)s0);
      return 0;
    }
    if (i > 0 && asc_mul_i64(size, (int64_t)shape[i - 1], &size))
      goto overflow;
    int64_t term;
    if (asc_mul_i64(size, (int64_t)s0, &term) || asc_add_i64(st, term, &st))
      goto overflow;
    if (i == 0)
      continue;
    int64_t cur = (int64_t)((e0 - s0 + 1 + str) / (1 + str)), total;
    if (asc_mul_i64(n, cur, &total) || total > SLICE_MAX_ROWS) {
      sim_fail(x, in,
               "%s: the slices select more than %d rows (the devkit's "
               "MAX_SLICE_SIZE)",
               side, SLICE_MAX_ROWS);
      return 0;
    }
    for (int64_t it = 1; it < cur; it++) {
      int64_t step;
      if (asc_mul_i64(it * (int64_t)(1 + str), size, &step))
        goto overflow;
      for (int64_t k = 0; k < n; k++)
        if (asc_add_i64(rows[k], step, &rows[it * n + k]))
          goto overflow;
    }
    n = total;
  }
  *start = st;
  *n_rows = (int)n;
  return 1;
overflow:
  sim_fail(x, in, "%s: the slice offsets overflow", side);
  return 0;
}

/* The software copies below (the devkit's loops of DataCopyPad) show each
 * DataCopyPad as an event of its own: the one just made, before the next
 * begins, under one step instruction labelled `label` (made on first use);
 * the last one is the instruction's own event. */
static AscStatus emit_copy(AscExec *x, const AscInstr *in,
                           const AscInstr **step, const char *label) {
  if (!x->b->n_observers)
    return ASC_OK;
  if (!*step)
    *step = sim_step_instr(in, in->op, 0, label, 0, (AscDType)in->dtype);
  return sim_emit_event(x, *step);
}

/* ---- DataCopy UB -> GM with Nz2NdParamsFull -------------------------------
 * The devkit's DataCopyUB2GMNZ2NDImpl (dav_c220): for each of nd_num NZ
 * matrices (src_nd_matrix_stride 256-element fractal rows apart in UB,
 * dst_nd_matrix_stride elements apart in GM) and each of its d_value / 16
 * column blocks (src_n_stride 16-element rows apart), one DataCopyPad
 * UB -> GM of n_value rows of 16 elements (at most 4095 rows a copy): the
 * block's rows lie 16 elements apart in UB and go dst_d_stride elements
 * apart in GM. Each DataCopyPad is an event of its own (a sub-event: the
 * sanitizer checks the rows each writes, so blocks of one matrix written
 * by different cores are no race). 16- and 32-bit elements; d_value a
 * multiple of 16 (the devkit asserts both). The fields are 16-bit, so no
 * offset below comes near int64's range. */
AscStatus sim_data_copy_nz2nd(AscExec *x, const AscInstr *in) {
  int64_t es = check_operands(x, in, 0);
  if (!es)
    return ASC_ERR_KERNEL;
  if (es != 2 && es != 4)
    return sim_fail(x, in,
                    "DataCopy with Nz2NdParamsFull takes 16- or 32-bit "
                    "elements, got %lld-byte ones",
                    (long long)es);
  int64_t nd = (int64_t)field_u(x, in, 2, 0),
          rows = (int64_t)field_u(x, in, 2, 1);
  int64_t cols = (int64_t)field_u(x, in, 2, 2);
  int64_t src_nd = (int64_t)field_u(x, in, 2, 3),
          src_n = (int64_t)field_u(x, in, 2, 4);
  int64_t dst_d = (int64_t)field_u(x, in, 2, 5),
          dst_nd = (int64_t)field_u(x, in, 2, 6);
  if (!check_range(x, in, "ndNum", (uint64_t)nd, 0, 4095) ||
      !check_range(x, in, "nValue", (uint64_t)rows, 1, 8192) ||
      !check_range(x, in, "dValue", (uint64_t)cols, 1, 8192))
    return ASC_ERR_KERNEL;
  if (cols % 16)
    return sim_fail(x, in, "dValue %lld is not a multiple of 16",
                    (long long)cols);
  if (nd != 1 && (src_nd * 256) % (rows * es))
    return sim_fail(x, in,
                    "srcNdMatrixStride %lld fractals (%lld bytes) is not a "
                    "multiple of nValue x sizeof(T) = %lld bytes",
                    (long long)src_nd, (long long)(src_nd * 256 * es),
                    (long long)(rows * es));
  enum { MAX_ROWS = 4095 }; /* DataCopyPad's blockCount */
  const AscInstr *step = NULL;
  int64_t copies = 0;
  for (int64_t i = 0; i < nd; i++)
    for (int64_t cb = 0; cb < cols / 16; cb++)
      for (int64_t r0 = 0; r0 < rows; r0 += MAX_ROWS) {
        if (copies++) {
          AscStatus s = emit_copy(x, in, &step,
                                  "DataCopy NZ2ND (DataCopyPad of a column "
                                  "block)");
          if (s)
            return s;
        }
        int64_t n = rows - r0 < MAX_ROWS ? rows - r0 : MAX_ROWS;
        Rows r = {n, 16 * es, 16 * es, dst_d * es, 0, 0};
        int64_t doff = (i * dst_nd + cb * 16 + r0 * dst_d) * es;
        int64_t soff = (i * src_nd * 256 + cb * src_n * 16 + r0 * 16) * es;
        AscStatus s = move_rows_at(x, in, &r, 0, 1, es, doff, soff);
        if (s)
          return s;
      }
  return ASC_OK; /* the last copy's event: the interpreter shows it */
}

/* ---- family: cube (cube2). DataCopy GM -> UB with Nd2NzParams -----------
 * The devkit's DataCopyGM2UBND2NZImpl (dav_c220), a software copy done as
 * DataCopyPad GM -> UB calls (DataCopyGM2UBSingleImpl), each an MTE2 event
 * of its own, on the vector cores only (ASCEND_IS_NOT_AIV: a NOP on a cube
 * core). C0 is 32 / sizeof(T) elements, 16 for float (the float
 * specialisation). For each of the nd_num matrices and each column block
 * b of ceil(d_value / C0) (its width w: C0, the last d_value % C0), for
 * each run of at most 255 rows: one DataCopyPad of the run's rows, w
 * elements each, GM rows src_d_value elements apart, from
 *   src + src_nd_matrix_stride + b * C0 + run * (uint16)(255 * d_value)
 * to
 *   dst + dst_nz_matrix_stride + (uint16)(b * dst_nz_c0_stride * 32 /
 *   sizeof(T)) + run * 255 * C0
 * (elements; the tail run's offsets are the same without the uint16).
 * Two facts of that code the model keeps: the matrix offsets are not
 * multiplied by the matrix index (every one of the nd_num iterations
 * copies the matrix at src_nd_matrix_stride to dst_nz_matrix_stride), and
 * a run's rows advance by 255 * d_value, not src_d_value. The UB row
 * stride (DataCopyPad's dstStride, 32-byte blocks past each row's data
 * rounded up to 32 bytes) is (dst_nz_n_stride - 32) / 32 in C's int
 * arithmetic (0 below 64); for float (dst_nz_n_stride * 32 - 64) / 32 in
 * size_t arithmetic, cast to uint32 (dst_nz_n_stride - 2; 0xFFFFFFFF for
 * 1), and (16 - w) * 4 / 32 for a partial block. The bytes a row's 32-byte
 * rounding adds are DataCopyPad's dummy ones (the row's first element). */
static AscStatus pad_gm_to_ub_at(AscExec *x, const AscInstr *in, int64_t cnt,
                                 int64_t len, uint64_t sstride,
                                 uint64_t dstride, int64_t es, int64_t doff,
                                 int64_t soff) {
  const AscTensorRef *dst = &ASC_SLOT(x, in, 0).t, *src = &ASC_SLOT(x, in, 1).t;
  int64_t row32 = (len + 31) / 32 * 32, dstep, sstep, dend, send;
  if (asc_add_i64(row32, (int64_t)dstride * 32, &dstep) ||
      asc_add_i64(len, (int64_t)sstride, &sstep) ||
      asc_mul_i64(cnt - 1, dstep, &dend) ||
      asc_add_i64(dend, row32 + doff, &dend) ||
      asc_mul_i64(cnt - 1, sstep, &send) ||
      asc_add_i64(send, len + soff, &send))
    return sim_fail(x, in, "DataCopy ND2NZ into UB: the offsets overflow");
  GmRange g;
  uint8_t *d =
      local_range(x, in, dst, doff, dend, 1, cnt > 1 && dstep != row32, "dst");
  if (!d || !gm_range(x, in, src, soff, send, 0, "src", &g, cnt, len, sstep))
    return ASC_ERR_KERNEL;
  for (int64_t b = 0; b < cnt; b++) {
    uint8_t *o = d + b * dstep;
    int64_t skip, n;
    uint8_t *p = gm_row(&g, soff + b * sstep, len, &skip, &n);
    if (n < len)
      memset(o, 0, (size_t)len);
    if (n)
      memcpy(o + skip, p, (size_t)n);
    for (int64_t i = len; i < row32; i += es) /* dummy: the first element */
      memcpy(o + i, o, (size_t)(row32 - i < es ? row32 - i : es));
  }
  x->b->ev.bytes = cnt * len;
  x->b->ev.elems = x->b->ev.bytes / es;
  return ASC_OK;
}

AscStatus sim_data_copy_nd2nz_ub(AscExec *x, const AscInstr *in) {
  int64_t es = check_operands(x, in, 1);
  if (!es)
    return ASC_ERR_KERNEL;
  uint64_t nd = field_u(x, in, 2, 0), nv = field_u(x, in, 2, 1);
  uint64_t dv = field_u(x, in, 2, 2), smat = field_u(x, in, 2, 3);
  uint64_t sd = field_u(x, in, 2, 4), c0s = field_u(x, in, 2, 5);
  uint64_t ns = field_u(x, in, 2, 6), dmat = field_u(x, in, 2, 7);
  /* the devkit's CheckNd2NzParamsCommon */
  if (!check_range(x, in, "ndNum", nd, 0, 4095) ||
      !check_range(x, in, "nValue", nv, 0, 16384) ||
      !check_range(x, in, "dValue", dv, 0, 65535) ||
      !check_range(x, in, "srcNdMatrixStride", smat, 0, 65535) ||
      !check_range(x, in, "srcDValue", sd, 1, 65535) ||
      !check_range(x, in, "dstNzC0Stride", c0s, 1, 16384) ||
      !check_range(x, in, "dstNzNStride", ns, 1, 16384) ||
      !check_range(x, in, "dstNzMatrixStride", dmat, 0, 65535))
    return ASC_ERR_KERNEL;
  if (x->b->has_core && x->b->core_is_aic)
    return ASC_OK; /* if ASCEND_IS_NOT_AIV return */
  int f32 = ASC_SLOT(x, in, 0).t.dtype == ASC_DT_FLOAT32;
  int64_t c0 = f32 ? 16 : 32 / es, copies = (int64_t)((dv + c0 - 1) / c0);
  int64_t reps = (int64_t)nv / 255, tail = (int64_t)nv % 255;
  uint16_t max_c0 = (uint16_t)(255 * c0), max_d = (uint16_t)(255 * dv);
  const AscInstr *step = NULL;
  int64_t issued = 0;
  for (uint64_t m = 0; m < nd; m++)
    for (int64_t b = 0; b < copies; b++) {
      int64_t w = (int64_t)dv >= (b + 1) * c0 ? c0 : (int64_t)dv % c0;
      uint16_t len = (uint16_t)(w * es);
      uint16_t s0 = (uint16_t)(b * c0);
      uint16_t d0 = (uint16_t)(b * (int64_t)c0s * (32 / es));
      uint64_t sstride = (uint32_t)(sd * (uint64_t)es - len), dstride;
      if (!f32)
        dstride = (uint32_t)(((int)ns - 32) / 32);
      else if (w < c0)
        dstride = (uint32_t)((uint64_t)(c0 - w) * 4 / 32);
      else
        dstride = (uint32_t)(((uint64_t)ns * 32 - 64) / 32);
      for (int64_t r = 0; r <= reps; r++) {
        int64_t cnt = r < reps ? 255 : tail;
        if (!cnt)
          continue;
        if (issued++) {
          AscStatus st = emit_copy(x, in, &step,
                                   "DataCopy ND2NZ into UB (a DataCopyPad "
                                   "GM -> UB)");
          if (st)
            return st;
        }
        int64_t de =
            (int64_t)dmat + d0 + (r < reps ? r * max_c0 : reps * 255 * c0);
        int64_t se = (int64_t)smat + s0 +
                     (r < reps ? r * max_d : reps * 255 * (int64_t)dv);
        AscStatus st = pad_gm_to_ub_at(x, in, cnt, len, sstride, dstride, es,
                                       de * es, se * es);
        if (st)
          return st;
      }
    }
  return ASC_OK; /* the last copy's event: the interpreter shows it */
}

/* The accesses from n0 on merged into one bounding range a space (the
 * event holds only ASC_EVENT_MAX_ACCESSES): the sanitizer then checks
 * races on the hull of the rows, as for a masked vector instruction. */
static void merge_accesses(AscEvent *ev, int n0) {
  AscAccess hull[2] = {{0}, {0}};
  int have[2] = {0, 0};
  for (int i = n0; i < ev->n_acc; i++) {
    const AscAccess *a = &ev->acc[i];
    AscAccess *h = &hull[a->space == ASC_SPACE_GM];
    if (!have[a->space == ASC_SPACE_GM]) {
      *h = *a;
      h->rows = 0;
      have[a->space == ASC_SPACE_GM] = 1;
    } else {
      h->lo = a->lo < h->lo ? a->lo : h->lo;
      h->hi = a->hi > h->hi ? a->hi : h->hi;
      h->atomic |= a->atomic;
    }
    h->bounding = 1;
  }
  ev->n_acc = n0;
  for (int k = 0; k < 2; k++)
    if (have[k])
      ev->acc[ev->n_acc++] = hull[k];
}

AscStatus sim_data_copy_slice(AscExec *x, const AscInstr *in) {
  int64_t es = check_operands(x, in, 0);
  if (!es)
    return ASC_ERR_KERNEL;
  int src_gm = in->op == ASC_OP_DATA_COPY_SLICE_GM_TO_LOCAL;
  int64_t n_dst_attr = asc_op_attr_int(in->src, "n_dst", 0);
  if (n_dst_attr < 1 || n_dst_attr > (int64_t)in->n_args - 4)
    return sim_fail(x, in,
                    "n_dst %lld: the slices must be at least one for dst and "
                    "one for src (%d given)",
                    (long long)n_dst_attr, in->n_args - 3);
  int n_dst = (int)n_dst_attr, n_src = in->n_args - 3 - n_dst;
  uint64_t dim = (uint64_t)ASC_SLOT(x, in, 2).i;
  if (dim < 1 || dim > SLICE_MAX_DIM)
    return sim_fail(x, in, "dim_value %llu is out of range [1, %d]",
                    (unsigned long long)dim, SLICE_MAX_DIM);
  if ((int)dim > n_dst || (int)dim > n_src)
    return sim_fail(x, in,
                    "dim_value %llu is more than the slices given (%d for "
                    "dst, %d for src)",
                    (unsigned long long)dim, n_dst, n_src);
  int d0 = 3, s0 = 3 + n_dst, nd = (int)dim;
  int use_value = slice_field(x, in, s0, SL_SHAPE) != 0;
  uint64_t dshape[SLICE_MAX_DIM], sshape[SLICE_MAX_DIM];
  if (!slice_shape(x, in, 0, d0, nd, use_value, dshape) ||
      !slice_shape(x, in, 1, s0, nd, use_value, sshape))
    return ASC_ERR_KERNEL;
  int64_t drows[SLICE_MAX_ROWS], srows[SLICE_MAX_ROWS];
  int64_t dstart, sstart;
  int n_drows, n_srows;
  if (!slice_rows(x, in, d0, nd, dshape, &dstart, drows, &n_drows, "dst") ||
      !slice_rows(x, in, s0, nd, sshape, &sstart, srows, &n_srows, "src"))
    return ASC_ERR_KERNEL;
  if (n_drows < n_srows)
    return sim_fail(x, in,
                    "the dst slices select %d rows, fewer than the %d of "
                    "the src slices",
                    n_drows, n_srows);
  uint64_t burst = slice_field(x, in, s0, SL_BURST);
  uint64_t sstr = slice_field(x, in, s0, SL_STRIDE);
  uint64_t dstr = slice_field(x, in, d0, SL_STRIDE);
  uint64_t span = slice_field(x, in, s0, SL_END) -
                  slice_field(x, in, s0, SL_START) + 1 + sstr;
  uint64_t one = burst * (uint64_t)(32 / es) + sstr;
  if (!one)
    return sim_fail(x, in, "src burst_len and stride are both 0");
  uint64_t cnt = span / one;
  /* the GM side's stride in bytes, the UB side's in whole blocks */
  uint64_t gstr = (src_gm ? sstr : dstr) * (uint64_t)es;
  uint64_t ustr = (src_gm ? dstr : sstr) * (uint64_t)es / 32;
  int gm_bytes = gstr % 32 != 0;
  if (!check_range(x, in, "blockCount", cnt, 0, 4095) ||
      !check_range(x, in, "blockLen (burst_len)", burst, 0,
                   gm_bytes ? 65535 / 32 : 65535) ||
      !check_range(x, in, "the GM stride", gm_bytes ? gstr : gstr / 32, 0,
                   65535) ||
      !check_range(x, in, "the UB stride", ustr, 0, 65535))
    return ASC_ERR_KERNEL;
  x->b->ev.dropped = 0;
  if (!cnt || !burst)
    return ASC_OK; /* DataCopyParams with blockCount or blockLen 0: a NOP */
  int64_t len = (int64_t)burst * 32;
  int64_t gstep = len + (int64_t)gstr, ustep = len + (int64_t)ustr * 32;
  Rows r = {(int64_t)cnt,           len, src_gm ? gstep : ustep,
            src_gm ? ustep : gstep, 0,   0};
  const AscTensorRef *ub =
      src_gm ? &ASC_SLOT(x, in, 0).t : &ASC_SLOT(x, in, 1).t;
  int64_t total = 0;
  int n0 = x->b->ev.n_acc, merged = 0;
  /* the GM side as evenly spaced runs (first, step), while it is one */
  int64_t g_first = 0, g_step = 0;
  int g_even = r.count == 1 || (src_gm ? r.src_step : r.dst_step) == len;
  for (int i = 0; i < n_srows; i++) {
    if (x->b->ev.n_acc + 2 > ASC_EVENT_MAX_ACCESSES) {
      merge_accesses(&x->b->ev, n0);
      merged = 1;
    }
    int64_t de = dstart + drows[i], se = sstart + srows[i], doff, soff, ua;
    if (asc_mul_i64(de, es, &doff) || asc_mul_i64(se, es, &soff))
      return sim_fail(x, in, "the slice offsets overflow");
    if (asc_add_i64(ub->addr, src_gm ? doff : soff, &ua) || ua % 32)
      return sim_fail(x, in,
                      "row %d: the UB address %lld is not 32-byte aligned "
                      "(the UB side's start and row offsets must be whole "
                      "32-byte blocks)",
                      i, (long long)ua);
    if (move_rows_at(x, in, &r, src_gm, !src_gm, es, doff, soff) != ASC_OK)
      return ASC_ERR_KERNEL;
    total += x->b->ev.bytes;
    int64_t g = src_gm ? soff : doff;
    if (i == 0)
      g_first = g;
    else if (i == 1)
      g_step = g - g_first;
    else if (g - g_first != g_step * i)
      g_even = 0;
  }
  if (merged) {
    merge_accesses(&x->b->ev, n0);
    /* evenly spaced contiguous runs: the GM record says so, so that blocks
     * writing interleaved rows are not taken for a race */
    int64_t run = rows_end(&r, !src_gm ? 1 : 0);
    for (int k = n0; g_even && g_step >= run && k < x->b->ev.n_acc; k++) {
      AscAccess *a = &x->b->ev.acc[k];
      if (a->space != ASC_SPACE_GM)
        continue;
      const AscTensorRef *gt =
          src_gm ? &ASC_SLOT(x, in, 1).t : &ASC_SLOT(x, in, 0).t;
      a->bounding = 0;
      a->rows = n_srows;
      a->row0 = gt->addr + g_first;
      a->row_len = run;
      a->row_step = g_step;
    }
  }
  x->b->ev.bytes = total;
  x->b->ev.elems = total / es;
  return ASC_OK;
}
