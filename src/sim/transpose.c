/* The vector unit's transposes: AscendC::Transpose (the 16x16 form, the
 * vtranspose instruction, and the enhanced form with TransposeParamsExt)
 * and AscendC::TransDataTo5HD (scatter_vnchwconv), on the Ascend910B.
 *
 * Transpose: 256 elements of 2 bytes, dst[j][i] = src[i][j]; dst may be
 * src. The enhanced form: TRANSPOSE_TYPE_NONE does nothing,
 * TRANSPOSE_ND2ND_B16 is the 16x16 transpose (uint16 only on this core),
 * TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW permute [n, c, h, w] through
 * sharedTmpBuffer (the devkit's minimum size for the type; its contents are
 * left undefined, here as they were); a size of 0 does nothing; the other
 * types are not supported on this core.
 *
 * TransDataTo5HD: each repeat reads 16 source blocks of 32 bytes (block i
 * at srcList[i]) and writes 16 destination blocks (block j at dstList[j]):
 *   b16: dst_j[i] = src_i[j] (a 16x16 transpose);
 *   b32: dst_j[e] = src_(8 * (j % 2) + e)[j / 2] (row e of the 8x16
 *        transpose in blocks 2e and 2e + 1);
 *   b8:  the half of dst_j that dstHighHalf names gets src_i[h + j] for i
 *        = 0..15, h = 16 when srcHighHalf; the other half is kept.
 * Repeat r adds r * repStride blocks to every address; with repeatTimes 1
 * the one repeat already adds 1 * repStride (the devkit documents this:
 * pass 0 strides for a single repeat). */
#include <string.h>

#include "checked.h"
#include "layout.h"

enum { BLOCK = 32, LIST = 16 };

static void transpose16(uint8_t *d, const uint8_t *s) {
  uint8_t tmp[512];
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      memcpy(tmp + (j * 16 + i) * 2, s + (i * 16 + j) * 2, 2);
  memcpy(d, tmp, sizeof tmp);
}

static const char *type_name(int64_t t) {
  const char *n = asc_enum_value_name(ASC_ENUM_TRANSPOSETYPE, t);
  return n ? n : "?";
}

/* n, c, h, w, type: the TransposeParamsExt fields of operand 3 */
static AscStatus transpose_ext(AscExec *x, const AscInstr *in) {
  const AscSlot *p = &x->regs[in->a[3]];
  int64_t n = p[0].i, c = p[1].i, h = p[2].i, w = p[3].i, type = p[4].i;
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (type == ASC_TRANSPOSETYPE_TRANSPOSE_TYPE_NONE) {
    sim_layout_work(x, 0, es);
    return ASC_OK;
  }
  if (type == ASC_TRANSPOSETYPE_TRANSPOSE_ND2ND_B16) {
    if (dt != ASC_DT_UINT16)
      return sim_fail(x, in,
                      "transpose: TransposeType.TRANSPOSE_ND2ND_B16 supports "
                      "only uint16 on the Ascend910B, got %s",
                      asc_dtype_name(dt));
    uint8_t *d = sim_vec_operand(x, in, 0, 256, 1, "dst");
    uint8_t *s = d ? sim_vec_operand(x, in, 1, 256, 0, "src") : NULL;
    if (!s)
      return ASC_ERR_KERNEL;
    transpose16(d, s);
    sim_layout_work(x, 256, es);
    return ASC_OK;
  }
  int to_nhwc = type == ASC_TRANSPOSETYPE_TRANSPOSE_NCHW2NHWC;
  if (!to_nhwc && type != ASC_TRANSPOSETYPE_TRANSPOSE_NHWC2NCHW)
    return sim_fail(x, in,
                    "transpose: TransposeType.%s is not supported by the "
                    "enhanced Transpose (TRANSPOSE_TYPE_NONE, "
                    "TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, "
                    "TRANSPOSE_NHWC2NCHW are)",
                    type_name(type));
  if (n < 0 || n > 65535 || c < 0 || c > 4095 || h < 0 || w < 0 || h * w > 4095)
    return sim_fail(x, in,
                    "transpose: sizes n=%lld c=%lld h=%lld w=%lld out of "
                    "range (n <= 65535, c <= 4095, h * w <= 4095)",
                    (long long)n, (long long)c, (long long)h, (long long)w);
  if (n == 0 || c == 0 || h == 0 || w == 0) {
    sim_layout_work(x, 0, es);
    return ASC_OK; /* documented: nothing is computed or written */
  }
  if (h * w * es % BLOCK)
    return sim_fail(x, in,
                    "transpose: h * w * sizeof(T) = %lld bytes is not a "
                    "multiple of 32 (h=%lld, w=%lld)",
                    (long long)(h * w * es), (long long)h, (long long)w);
  int64_t h0 = es == 1 ? 32 : 16, w0 = BLOCK / es;
  int64_t tmp_need = (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * es;
  const AscTensorRef *tt = sim_tensor_arg(x, in, 2, "shared_tmp_buffer");
  if (!tt)
    return ASC_ERR_KERNEL;
  if (tt->len >= 0 && tt->len < tmp_need)
    return sim_fail(x, in,
                    "transpose: shared_tmp_buffer has %lld bytes, %s of "
                    "%lld x %lld needs at least %lld (the devkit's size for "
                    "%s)",
                    (long long)tt->len, type_name(type), (long long)c,
                    (long long)(h * w), (long long)tmp_need,
                    asc_dtype_name(dt));
  int64_t total = n * c * h * w; /* at most 65535 * 4095 * 4095 */
  uint8_t *d = sim_vec_operand(x, in, 0, total, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, total, 0, "src") : NULL;
  uint8_t *t =
      s ? sim_vec_operand(x, in, 2, tmp_need, 1, "shared_tmp_buffer") : NULL;
  if (!t)
    return ASC_ERR_KERNEL;
  int64_t da = ASC_SLOT(x, in, 0).t.addr, sa = ASC_SLOT(x, in, 1).t.addr;
  if (da < sa + total * es && sa < da + total * es)
    return sim_fail(x, in,
                    "transpose: dst and src overlap (UB bytes %lld and %lld, "
                    "%lld bytes each); %s does not support it",
                    (long long)da, (long long)sa, (long long)(total * es),
                    type_name(type));
  int64_t hw = h * w;
  for (int64_t b = 0; b < n; b++)
    for (int64_t ch = 0; ch < c; ch++)
      for (int64_t k = 0; k < hw; k++) {
        int64_t nchw = (b * c + ch) * hw + k, nhwc = (b * hw + k) * c + ch;
        if (to_nhwc)
          memcpy(d + nhwc * es, s + nchw * es, (size_t)es);
        else
          memcpy(d + nchw * es, s + nhwc * es, (size_t)es);
      }
  sim_layout_work(x, total, es);
  return ASC_OK;
}

/* in->imm: 0 the 16x16 form, 1 the enhanced form */
AscStatus sim_vec_transpose(AscExec *x, const AscInstr *in) {
  if (in->imm == 1)
    return transpose_ext(x, in);
  uint8_t *d = sim_vec_operand(x, in, 0, 256, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, 256, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  transpose16(d, s);
  sim_layout_work(x, 256, 2);
  return ASC_OK;
}

/* ---- TransDataTo5HD ------------------------------------------------------ */

typedef struct Vnchw {
  int64_t dst[LIST], src[LIST];         /* UB byte addresses of the lists */
  int64_t dst_len[LIST], src_len[LIST]; /* bytes from each address its
                                           tensor holds, -1: unbounded */
} Vnchw;

/* The 16 + 16 addresses of the three forms. in->imm: 0 two uint64 address
 * tensors (operands 0, 1), 1 32 uint64 operands, 2 32 LocalTensors. */
static AscStatus vnchw_lists(AscExec *x, const AscInstr *in, Vnchw *v) {
  if (in->imm == 0) {
    const uint8_t *d = sim_vec_operand(x, in, 0, LIST, 0, "dst");
    const uint8_t *s = d ? sim_vec_operand(x, in, 1, LIST, 0, "src") : NULL;
    if (!s)
      return ASC_ERR_KERNEL;
    for (int i = 0; i < LIST; i++) {
      uint64_t a, b;
      memcpy(&a, d + 8 * i, 8);
      memcpy(&b, s + 8 * i, 8);
      v->dst[i] = a > (uint64_t)INT64_MAX ? -1 : (int64_t)a;
      v->src[i] = b > (uint64_t)INT64_MAX ? -1 : (int64_t)b;
      v->dst_len[i] = v->src_len[i] = -1;
    }
    return ASC_OK;
  }
  for (int i = 0; i < LIST; i++) {
    if (in->imm == 1) {
      uint64_t a = (uint64_t)ASC_SLOT(x, in, i).i;
      uint64_t b = (uint64_t)ASC_SLOT(x, in, LIST + i).i;
      v->dst[i] = a > (uint64_t)INT64_MAX ? -1 : (int64_t)a;
      v->src[i] = b > (uint64_t)INT64_MAX ? -1 : (int64_t)b;
      v->dst_len[i] = v->src_len[i] = -1;
    } else {
      const AscTensorRef *dt = sim_tensor_arg(x, in, i, "dst_list");
      const AscTensorRef *st =
          dt ? sim_tensor_arg(x, in, LIST + i, "src_list") : NULL;
      if (!st)
        return ASC_ERR_KERNEL;
      int64_t es = (int64_t)asc_dtype_size((AscDType)dt->dtype);
      v->dst[i] = dt->addr;
      v->src[i] = st->addr;
      v->dst_len[i] = dt->len < 0 ? -1 : dt->len * es;
      v->src_len[i] = st->len < 0 ? -1 : st->len * es;
    }
  }
  return ASC_OK;
}

/* Block k (the list's entry i, at offset off) inside the UB, aligned and
 * inside its tensor; the bounding range grows by it. */
static int vnchw_block(AscExec *x, const AscInstr *in, int64_t addr,
                       int64_t len, int64_t off, const char *what, int i,
                       int64_t *lo, int64_t *hi) {
  int64_t a;
  if (addr < 0 || asc_add_i64(addr, off, &a) || a % BLOCK ||
      a > x->b->ub_size - BLOCK) {
    if (addr >= 0 && addr % BLOCK)
      sim_fail(x, in,
               "trans_data_to_5hd: %s[%d] = UB address %lld is not 32-byte "
               "aligned",
               what, i, (long long)addr);
    else
      sim_fail(x, in,
               "trans_data_to_5hd: %s[%d]: the block at UB address %lld + "
               "%lld is outside the UB (%lld bytes)",
               what, i, (long long)addr, (long long)off,
               (long long)x->b->ub_size);
    return 0;
  }
  if (len >= 0 && off + BLOCK > len && x->b->gm_overruns_reported != 1) {
    sim_fail(x, in,
             "trans_data_to_5hd: %s[%d]: the block %lld bytes after its "
             "start is past the LocalTensor's end (%lld bytes)",
             what, i, (long long)off, (long long)len);
    return 0;
  }
  if (a < *lo)
    *lo = a;
  if (a + BLOCK > *hi)
    *hi = a + BLOCK;
  return 1;
}

static void vnchw_repeat(AscDType dt, int dst_high, int src_high, uint8_t *ub,
                         const int64_t *d, const int64_t *s) {
  uint8_t src[LIST][BLOCK];
  for (int i = 0; i < LIST; i++)
    memcpy(src[i], ub + s[i], BLOCK);
  int64_t es = (int64_t)asc_dtype_size(dt);
  for (int j = 0; j < LIST; j++) {
    uint8_t *o = ub + d[j];
    for (int i = 0; i < LIST; i++) {
      if (es == 2) {
        memcpy(o + 2 * i, src[i] + 2 * j, 2);
      } else if (es == 4) {
        if (i < 8)
          memcpy(o + 4 * i, src[8 * (j % 2) + i] + 4 * (j / 2), 4);
      } else {
        o[(dst_high ? 16 : 0) + i] = src[i][(src_high ? 16 : 0) + j];
      }
    }
  }
}

/* in->dtype: the template's T (the address forms' dtype attribute) */
AscStatus sim_vec_trans_5hd(AscExec *x, const AscInstr *in) {
  int pk = in->imm == 0 ? 2 : 2 * LIST;
  const AscSlot *p = &x->regs[in->a[pk]];
  int dst_high = p[0].i != 0, src_high = p[1].i != 0;
  int64_t repeat = p[2].i, dst_rep = p[3].i, src_rep = p[4].i;
  AscDType dt = (AscDType)in->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (!asc_layout_dtype_supported(ASC_OP_TRANS_DATA_TO_5HD, dt))
    return sim_fail(x, in, "trans_data_to_5hd: unsupported element type %s",
                    asc_dtype_name(dt));
  if (repeat < 0 || repeat > 255 || dst_rep < 0 || dst_rep > 65535 ||
      src_rep < 0 || src_rep > 65535)
    return sim_fail(x, in,
                    "trans_data_to_5hd: repeat_times %lld (0 to 255) or "
                    "strides %lld, %lld (0 to 65535) out of range",
                    (long long)repeat, (long long)dst_rep, (long long)src_rep);
  Vnchw v;
  if (vnchw_lists(x, in, &v))
    return ASC_ERR_KERNEL;
  if (repeat == 0) {
    sim_layout_work(x, 0, es);
    return ASC_OK; /* documented as a NOP */
  }
  /* check every block first: a fault leaves the UB as it was */
  int64_t dlo = INT64_MAX, dhi = 0, slo = INT64_MAX, shi = 0;
  for (int64_t r = 0; r < repeat; r++) {
    int64_t k = repeat == 1 ? 1 : r;
    for (int i = 0; i < LIST; i++) {
      if (!vnchw_block(x, in, v.dst[i], v.dst_len[i], k * dst_rep * BLOCK,
                       "dst_list", i, &dlo, &dhi) ||
          !vnchw_block(x, in, v.src[i], v.src_len[i], k * src_rep * BLOCK,
                       "src_list", i, &slo, &shi))
        return ASC_ERR_KERNEL;
    }
  }
  if (!sim_ub_span(x, in, slo, shi, 0, "src_list") ||
      !sim_ub_span(x, in, dlo, dhi, 1, "dst_list"))
    return ASC_ERR_KERNEL;
  for (int64_t r = 0; r < repeat; r++) {
    int64_t k = repeat == 1 ? 1 : r, d[LIST], s[LIST];
    for (int i = 0; i < LIST; i++) {
      d[i] = v.dst[i] + k * dst_rep * BLOCK;
      s[i] = v.src[i] + k * src_rep * BLOCK;
    }
    vnchw_repeat(dt, dst_high, src_high, x->b->ub, d, s);
  }
  sim_layout_work(x, repeat * LIST * BLOCK / es, es);
  return ASC_OK;
}
