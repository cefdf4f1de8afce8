/* family: adv normquant. asc.adv.quant: the devkit's AscendQuant on the
 * Ascend910B (impl/adv_api/detail/quantization/quant/ascend_quant_pre_impl.h,
 * the v220 path), run as its sequence of basic vector instructions in
 * counter mode, chunk by chunk of the work space:
 *
 *   per tensor:  [Cast float -> half into tmp,] Muls(half scale),
 *                Adds(half offset), Cast half -> int8 into dst
 *   per channel: for float src the scale (and offset) tensors are first cast
 *                to half in place (the devkit reuses their memory); then for
 *                each row of scale_count elements and each chunk of it:
 *                [Cast float -> half,] Mul(scale), Adds(offset) or
 *                Add(offset tensor), Cast half -> int8
 *
 * each followed by PipeBarrier<PIPE_V>. Everything after src is computed in
 * half, each instruction rounding to nearest even (RoundMode::CAST_NONE of
 * float -> half is CAST_RINT); the half -> int8 Cast rounds to nearest even
 * and saturates to [-128, 127] (vecmath.c's casts). A chunk is the work
 * space's size / 2 rounded down to 32 elements (the AscendQuantConfig's
 * workLocalSize when config gives it with calcCount / scaleCount, which then
 * also set how many elements are quantised). */
#include <stdlib.h>
#include <string.h>

#include "adv_normquant.h"
#include "checked.h"
#include "vecmath.h"

/* ---- shared with adv_rmsnorm.c (adv_normquant.h) ---- */

uint8_t *sim_adv_tmp(AscExec *x, const AscInstr *in, int k, int64_t *addr,
                     int64_t *bytes) {
  if (in->n_args > k) {
    const AscTensorRef *t = sim_tensor_arg(x, in, k, "shared_tmp_buffer");
    if (!t)
      return NULL;
    if (t->addr % 32) {
      sim_fail(x, in,
               "shared_tmp_buffer: UB address %lld is not 32-byte "
               "aligned",
               (long long)t->addr);
      return NULL;
    }
    int64_t n = t->len >= 0 ? t->len : 0;
    *addr = t->addr;
    *bytes = n;
    return sim_local_ptr(x, in, t, n, 1, "shared_tmp_buffer");
  }
  int64_t lo = sim_adv_stack_buffer(x, in, bytes);
  if (lo < 0)
    return NULL;
  if (lo > x->b->ub_size) {
    sim_fail(x, in,
             "no UB is left above the TPipe's buffers for the "
             "devkit's stack buffer (pass a shared_tmp_buffer)");
    return NULL;
  }
  AscTensorRef t = {lo, -1, -1, (uint8_t)ASC_DT_UINT8, ASC_TPOSITION_VECCALC,
                    0};
  *addr = lo;
  return sim_local_ptr(x, in, &t, *bytes, 1, "stack buffer");
}

void sim_adv_begin(SimAdvSeq *s, AscExec *x, const AscInstr *in) {
  memset(s, 0, sizeof *s);
  sim_vseq_begin(&s->q, x, in);
}

int sim_adv_op(SimAdvSeq *s, int op, AscDType dt, int64_t elems,
               const char *label, const SimUbSpan *spans, int n_spans) {
  if (!s->failed && !sim_vseq_op(&s->q, op, dt, elems, label, spans, n_spans))
    s->failed = 1;
  return !s->failed;
}

void sim_adv_barrier(SimAdvSeq *s) {
  if (!s->failed && !sim_vseq_barrier(&s->q))
    s->failed = 1;
}

AscStatus sim_adv_end(SimAdvSeq *s) {
  if (s->failed)
    return ASC_ERR_KERNEL;
  sim_vseq_end(&s->q);
  return ASC_OK;
}

/* ---- AscendQuant ---- */

enum { QUANT_MIN_TMP = 2 * 256 }; /* GetAscendQuantMaxMinTmpSize's minimum */

typedef struct Quant {
  AscExec *x;
  const AscInstr *in;
  SimAdvSeq seq;
  AscDType st;         /* src's element type */
  int64_t dst, src;    /* UB addresses */
  int64_t tmp;         /* the work space (halves) */
  int64_t scale, offs; /* per channel: the half scale / offset tensors */
  uint16_t scale_h, offs_h;
  int offs_tensor;
} Quant;

static uint8_t *ub(const Quant *q, int64_t addr) { return q->x->b->ub + addr; }

/* One chunk of n elements at element e of src and dst; per channel the
 * scale / offset element c. */
static int chunk(Quant *q, int per_channel, int64_t e, int64_t n, int64_t c) {
  int64_t ss = (int64_t)asc_dtype_size(q->st);
  int64_t src = q->src + e * ss, dst = q->dst + e, tmp = q->tmp;
  int64_t h = n * 2;
  SimAdvSeq *s = &q->seq;
  SimUbSpan sp[3];
  int64_t from = src; /* the half values the Muls / Mul reads */
  if (q->st == ASC_DT_FLOAT32) {
    asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_NONE, ub(q, tmp),
                 ub(q, src), n);
    sp[0] = sim_adv_span(src, n * 4, 0);
    sp[1] = sim_adv_span(tmp, h, 1);
    if (!sim_adv_op(s, ASC_OP_CAST, ASC_DT_FLOAT32, n, "AscendQuant (Cast)", sp,
                    2))
      return 0;
    sim_adv_barrier(s);
    from = tmp;
  }
  if (per_channel) {
    int64_t sc = q->scale + c * 2;
    asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT16, ub(q, tmp), ub(q, from),
                   ub(q, sc), n);
    sp[0] = sim_adv_span(from, h, 0);
    sp[1] = sim_adv_span(sc, h, 0);
    sp[2] = sim_adv_span(tmp, h, 1);
    if (!sim_adv_op(s, ASC_OP_MUL, ASC_DT_FLOAT16, n, "AscendQuant (Mul)", sp,
                    3))
      return 0;
  } else {
    AscScalar v = {.f = asc_f16_to_f32(q->scale_h)};
    v.i = (int64_t)v.f;
    asc_vec_scalar(ASC_VSCA_MULS, ASC_DT_FLOAT16, ub(q, tmp), ub(q, from), v,
                   n);
    sp[0] = sim_adv_span(from, h, 0);
    sp[1] = sim_adv_span(tmp, h, 1);
    if (!sim_adv_op(s, ASC_OP_MULS, ASC_DT_FLOAT16, n, "AscendQuant (Muls)", sp,
                    2))
      return 0;
  }
  sim_adv_barrier(s);
  if (q->offs_tensor) {
    int64_t oc = q->offs + c * 2;
    asc_vec_binary(ASC_VBIN_ADD, ASC_DT_FLOAT16, ub(q, tmp), ub(q, tmp),
                   ub(q, oc), n);
    sp[0] = sim_adv_span(tmp, h, 0);
    sp[1] = sim_adv_span(oc, h, 0);
    sp[2] = sim_adv_span(tmp, h, 1);
    if (!sim_adv_op(s, ASC_OP_ADD, ASC_DT_FLOAT16, n, "AscendQuant (Add)", sp,
                    3))
      return 0;
  } else {
    AscScalar v = {.f = asc_f16_to_f32(q->offs_h)};
    v.i = (int64_t)v.f;
    asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT16, ub(q, tmp), ub(q, tmp), v, n);
    sp[0] = sim_adv_span(tmp, h, 0);
    sp[1] = sim_adv_span(tmp, h, 1);
    if (!sim_adv_op(s, ASC_OP_ADDS, ASC_DT_FLOAT16, n, "AscendQuant (Adds)", sp,
                    2))
      return 0;
  }
  sim_adv_barrier(s);
  asc_vec_cast(ASC_DT_INT8, ASC_DT_FLOAT16, ASC_ROUND_NONE, ub(q, dst),
               ub(q, tmp), n);
  sp[0] = sim_adv_span(tmp, h, 0);
  sp[1] = sim_adv_span(dst, n, 1);
  if (!sim_adv_op(s, ASC_OP_CAST, ASC_DT_FLOAT16, n, "AscendQuant (Cast)", sp,
                  2))
    return 0;
  sim_adv_barrier(s);
  return 1;
}

/* n elements from element e in chunks of split (scale element c0 + i). */
static int chunks(Quant *q, int per_channel, int64_t e, int64_t n,
                  int64_t split, int64_t c0) {
  for (int64_t i = 0; i < n; i += split) {
    int64_t m = n - i < split ? n - i : split;
    if (!chunk(q, per_channel, e + i, m, c0 + i))
      return 0;
  }
  return 1;
}

/* A float scale / offset tensor's first n elements cast to half in place
 * (the devkit's "source vector of scale is reused"). */
static int to_half_in_place(Quant *q, int64_t addr, int64_t n,
                            const char *label) {
  uint16_t *h = malloc((size_t)(n > 0 ? n : 1) * sizeof *h);
  if (!h) {
    sim_fail(q->x, q->in, "out of host memory");
    return 0;
  }
  asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_NONE, h, ub(q, addr),
               n);
  memcpy(ub(q, addr), h, (size_t)n * 2);
  free(h);
  SimUbSpan sp[2] = {sim_adv_span(addr, n * 4, 0),
                     sim_adv_span(addr, n * 2, 1)};
  return sim_adv_op(&q->seq, ASC_OP_CAST, ASC_DT_FLOAT32, n, label, sp, 2);
}

static uint16_t half_of(double v) { return asc_f32_to_f16((float)v); }

/* in->imm: 0 per tensor, 1 a scale tensor and a scalar offset, 2 scale and
 * offset tensors. Operands: dst, src, scale, offset, [scale_count,
 * [offset_count,]] count, [shared_tmp_buffer]. */
AscStatus sim_adv_quant(AscExec *x, const AscInstr *in) {
  int form = in->imm;
  int k_count = form == 0 ? 4 : form == 1 ? 5 : 6;
  Quant q;
  memset(&q, 0, sizeof q);
  q.x = x;
  q.in = in;
  const AscTensorRef *dt = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *st = dt ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!st)
    return ASC_ERR_KERNEL;
  q.st = (AscDType)st->dtype;
  if (dt->dtype != ASC_DT_INT8 ||
      (q.st != ASC_DT_FLOAT16 && q.st != ASC_DT_FLOAT32))
    return sim_fail(x, in,
                    "AscendQuant takes an int8 dst and a half or float "
                    "src on the Ascend910B");
  int64_t count = ASC_SLOT(x, in, k_count).i;
  int has_cfg = asc_op_attr(in->src, "cfg_calc_count") != NULL;
  int64_t cfg_calc = asc_op_attr_int(in->src, "cfg_calc_count", 0);
  int64_t cfg_scale = asc_op_attr_int(in->src, "cfg_scale_count", 0);
  int64_t cfg_offs = asc_op_attr_int(in->src, "cfg_offset_count", 0);
  int64_t cfg_work = asc_op_attr_int(in->src, "cfg_work_local_size", 0);
  int64_t src_len = st->len;
  if (src_len >= 0 && count > src_len)
    return sim_fail(x, in,
                    "AscendQuant: count is %lld, larger than src's "
                    "size %lld",
                    (long long)count, (long long)src_len);
  if (has_cfg && src_len >= 0 && cfg_calc > src_len)
    return sim_fail(x, in,
                    "AscendQuant: config.calc_count is %lld, larger "
                    "than src's size %lld",
                    (long long)cfg_calc, (long long)src_len);
  int64_t tmp_addr, tmp_bytes;
  if (!sim_adv_tmp(x, in, k_count + 1, &tmp_addr, &tmp_bytes))
    return ASC_ERR_KERNEL;
  if (tmp_bytes < QUANT_MIN_TMP)
    return sim_fail(x, in,
                    "AscendQuant: the temporary buffer has %lld "
                    "bytes, less than the %d GetAscendQuantMaxMinTmpSize "
                    "gives as the minimum",
                    (long long)tmp_bytes, QUANT_MIN_TMP);
  if (cfg_work > tmp_bytes)
    return sim_fail(x, in,
                    "AscendQuant: config.work_local_size is %lld, "
                    "larger than the temporary buffer's %lld bytes",
                    (long long)cfg_work, (long long)tmp_bytes);
  q.tmp = tmp_addr;
  q.dst = dt->addr;
  q.src = st->addr;
  /* the chunk: the work space in halves, a multiple of 32 */
  int64_t split = tmp_bytes / 2 / 32 * 32;
  if (form == 0) {
    int use_cfg = cfg_work != 0 && cfg_calc != 0;
    int64_t n = use_cfg ? cfg_calc : count;
    if (use_cfg)
      split = cfg_work / 2 / 32 * 32;
    if (split == 0)
      return sim_fail(x, in,
                      "AscendQuant: config.work_local_size %lld "
                      "leaves no chunk of 32 halves",
                      (long long)cfg_work);
    if (!sim_vec_operand(x, in, 0, n, 1, "dst") ||
        !sim_vec_operand(x, in, 1, n, 0, "src"))
      return ASC_ERR_KERNEL;
    q.scale_h = half_of(ASC_SLOT(x, in, 2).f);
    q.offs_h = half_of(ASC_SLOT(x, in, 3).f);
    sim_adv_begin(&q.seq, x, in);
    chunks(&q, 0, 0, n, split, 0);
    return sim_adv_end(&q.seq);
  }
  /* per channel */
  const AscTensorRef *sc = sim_tensor_arg(x, in, 2, "scale");
  if (!sc)
    return ASC_ERR_KERNEL;
  int64_t scale_count = ASC_SLOT(x, in, 4).i;
  int64_t offs_count = form == 2 ? ASC_SLOT(x, in, 5).i : scale_count;
  const AscTensorRef *ot = NULL;
  if (form == 2 && !(ot = sim_tensor_arg(x, in, 3, "offset")))
    return ASC_ERR_KERNEL;
  if (sc->len >= 0 && scale_count > sc->len)
    return sim_fail(x, in,
                    "AscendQuant: scale_count is %lld, larger than "
                    "scale's size %lld",
                    (long long)scale_count, (long long)sc->len);
  if (ot && ot->len >= 0 && offs_count > ot->len)
    return sim_fail(x, in,
                    "AscendQuant: offset_count is %lld, larger than "
                    "offset's size %lld",
                    (long long)offs_count, (long long)ot->len);
  if (scale_count <= 0 || offs_count != scale_count)
    return sim_fail(x, in,
                    "AscendQuant: scale_count is %lld, which must be "
                    "positive (and equal offset_count, %lld)",
                    (long long)scale_count, (long long)offs_count);
  if (count <= 0 || count % scale_count)
    return sim_fail(x, in,
                    "AscendQuant: count is %lld, which must be a "
                    "positive multiple of scale_count %lld",
                    (long long)count, (long long)scale_count);
  if (has_cfg) {
    if ((sc->len >= 0 && cfg_scale > sc->len) ||
        (cfg_scale && cfg_calc % cfg_scale) || cfg_scale % 32 ||
        (form == 2 && cfg_offs != cfg_scale))
      return sim_fail(x, in,
                      "AscendQuant: config (calc_count %lld, "
                      "scale_count %lld, offset_count %lld) is not valid: "
                      "scale_count a multiple of 32 dividing calc_count, "
                      "within scale, equal to offset_count",
                      (long long)cfg_calc, (long long)cfg_scale,
                      (long long)cfg_offs);
  }
  int use_static = cfg_scale != 0 && cfg_calc != 0;
  int64_t row = use_static ? cfg_scale : scale_count;
  int64_t rows = use_static ? cfg_calc / cfg_scale : count / scale_count;
  /* the devkit's per-row loop takes config's scaleCount and workLocalSize
   * whenever both are set (even when calcCount is 0 and the rows are the
   * call's scale_count apart) */
  int64_t row_split = split, per_row = row;
  if (cfg_work != 0 && cfg_scale != 0) {
    row_split = cfg_work / 2 / 32 * 32;
    per_row = cfg_scale;
  }
  int64_t total;
  if (rows <= 0 || asc_mul_i64(row, rows - 1, &total) ||
      asc_add_i64(total, per_row, &total))
    return sim_fail(x, in, "AscendQuant: too many elements");
  int64_t scale_elems = per_row > row ? per_row : row;
  if (row_split == 0)
    return sim_fail(x, in,
                    "AscendQuant: the work space leaves no chunk of "
                    "32 halves");
  if (!sim_vec_operand(x, in, 0, total, 1, "dst") ||
      !sim_vec_operand(x, in, 1, total, 0, "src") ||
      !sim_vec_operand(x, in, 2, scale_elems, q.st == ASC_DT_FLOAT32,
                       "scale") ||
      (form == 2 && !sim_vec_operand(x, in, 3, scale_elems,
                                     q.st == ASC_DT_FLOAT32, "offset")))
    return ASC_ERR_KERNEL;
  q.scale = sc->addr;
  if (form == 2) {
    q.offs = ot->addr;
    q.offs_tensor = 1;
  } else {
    q.offs_h = half_of(ASC_SLOT(x, in, 3).f);
  }
  sim_adv_begin(&q.seq, x, in);
  if (q.st == ASC_DT_FLOAT32) {
    if (!to_half_in_place(&q, q.scale, row, "AscendQuant (Cast scale)"))
      return sim_adv_end(&q.seq);
    if (form == 2 &&
        !to_half_in_place(&q, q.offs, row, "AscendQuant (Cast offset)"))
      return sim_adv_end(&q.seq);
    if (form == 1)
      sim_adv_barrier(&q.seq);
  }
  for (int64_t r = 0; r < rows; r++)
    if (!chunks(&q, 1, r * row, per_row, row_split, 0))
      break;
  return sim_adv_end(&q.seq);
}
