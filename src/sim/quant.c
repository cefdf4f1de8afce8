/* The quant family's instructions: the DEQSCALE register (SetDeqScale),
 * CastDeq, AddDeqRelu, MulCast, AddReluCast and SubReluCast, following the
 * devkit's dav-c220 implementations (kernel_operator_vec_vconv_impl.h,
 * kernel_operator_vec_binary_impl.h, kernel_operator_vec_mulcast_impl.h).
 *
 * DEQSCALE is one 64-bit register per block. SetDeqScale(half) writes the
 * half (and the devkit's g_deqValue, which AddDeqRelu reads);
 * SetDeqScale(float scale, int16_t offset, bool signMode) one config:
 * scale's bits in bits 0-31, offset's low 9 bits in 37-45, signMode in 46;
 * SetDeqScale(vdeq, VdeqInfo) writes 16 such configs to the uint64 tensor
 * vdeq and vdeq's UB address / 32 to the register, so a later CastDeq with
 * isVecDeq reads the configs from the UB as they are then.
 *
 * CastDeq int16 -> int8/uint8: (src * scale) + offset, rounded to nearest
 * even and saturated to int8 when the config's signMode is set, else to
 * uint8; with isVecDeq element i % 16 of each 32-byte source block uses
 * config i % 16. Each source block's 16 results fill one half of the
 * corresponding destination block (the upper half, bytes 16-31, when
 * halfBlock), the other half is left as it was: a count of n elements
 * spans the dst blocks of n int16. CastDeq int32 -> half, and AddDeqRelu's
 * float(src0 + src1): (float(x) * 2^-17 * scale) * 2^17 in float, rounded
 * to half (the devkit's overflow guard).
 *
 * The fused casts compute in the source type (a half product or sum is
 * rounded to half), then convert as Cast with CAST_RINT does (saturating,
 * NaN to 0); int16 -> int8 saturates. AddReluCast and SubReluCast from
 * float to half send a NaN to +0 where Cast keeps it (the devkit's
 * 附录/Memory矢量计算接口边界值汇总.md, tables 26 and 27: dst +0 for a NaN
 * sum or difference; infinities pass). */
#include "quant.h"

#include <string.h>

#include "sim.h"

int asc_quant_binary_supported(int op, AscDType dst, AscDType src) {
  switch (op) {
  case ASC_QBIN_ADD_DEQ_RELU:
    return dst == ASC_DT_FLOAT16 && src == ASC_DT_INT32;
  case ASC_QBIN_MUL_CAST:
    return src == ASC_DT_FLOAT16 && (dst == ASC_DT_INT8 || dst == ASC_DT_UINT8);
  case ASC_QBIN_ADD_RELU_CAST:
  case ASC_QBIN_SUB_RELU_CAST:
    return (src == ASC_DT_FLOAT16 && dst == ASC_DT_INT8) ||
           (src == ASC_DT_FLOAT32 && dst == ASC_DT_FLOAT16) ||
           (src == ASC_DT_INT16 && dst == ASC_DT_INT8);
  default:
    return 0;
  }
}

int asc_cast_deq_supported(AscDType dst, AscDType src) {
  if (src == ASC_DT_INT16)
    return dst == ASC_DT_INT8 || dst == ASC_DT_UINT8;
  return src == ASC_DT_INT32 && dst == ASC_DT_FLOAT16;
}

/* ---- the DEQSCALE register ----------------------------------------------- */

static double num_operand(AscExec *x, const AscInstr *in, int k) {
  AscSlot v = ASC_SLOT(x, in, k);
  return asc_dtype_is_float(in->src->operands[k]->type->dtype) ? v.f
                                                               : (double)v.i;
}

static uint64_t deq_config(float scale, int64_t offset, int sign) {
  uint32_t bits;
  memcpy(&bits, &scale, 4);
  return ((uint64_t)(sign != 0) << 46) | (((uint64_t)offset & 0x1ff) << 37) |
         bits;
}

enum { VDEQ_SIZE = 16 };

/* sub 0: (half scale); 1: (float scale, int16_t offset, bool signMode);
 * 2: (vdeq, VdeqInfo). */
AscStatus sim_set_deq_scale(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  if (in->imm == 0) {
    uint16_t h = asc_f32_to_f16((float)num_operand(x, in, 0));
    b->regs.deq_scale = h;
    b->regs.deq_mode = ASC_DEQ_HALF;
    b->regs.deq_half = h;
    b->regs.deq_half_set = 1;
    return ASC_OK;
  }
  if (in->imm == 1) {
    b->regs.deq_scale =
        deq_config((float)num_operand(x, in, 0), ASC_SLOT(x, in, 1).i,
                   num_operand(x, in, 2) != 0);
    b->regs.deq_mode = ASC_DEQ_CONFIG;
    return ASC_OK;
  }
  uint8_t *v = sim_vec_operand(x, in, 0, VDEQ_SIZE, 1, "vdeq");
  if (!v)
    return ASC_ERR_KERNEL;
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[1]->type);
  int fs = asc_struct_field_index(si, "scale");
  int fo = asc_struct_field_index(si, "offset");
  int fm = asc_struct_field_index(si, "sign_mode");
  if (fs < 0 || fo < 0 || fm < 0)
    return sim_fail(x, in, "set_deq_scale: malformed VdeqInfo value");
  const AscSlot *r = &x->regs[in->a[1]];
  for (int i = 0; i < VDEQ_SIZE; i++) {
    uint64_t c = deq_config((float)r[si->fields[fs].slot + i].f,
                            r[si->fields[fo].slot + i].i,
                            r[si->fields[fm].slot + i].i != 0);
    memcpy(v + 8 * i, &c, 8);
  }
  b->regs.deq_scale = (uint64_t)ASC_SLOT(x, in, 0).t.addr >> 5;
  b->regs.deq_mode = ASC_DEQ_VECTOR;
  return ASC_OK;
}

/* ---- dequantisation -------------------------------------------------------
 */

typedef struct Deq {
  float scale[VDEQ_SIZE];
  int offset[VDEQ_SIZE];
  int sign[VDEQ_SIZE];
  int vec;         /* per element of a block (isVecDeq) */
  float half;      /* int32 -> half: the scale */
  AscDType dd, sd; /* dst and src element types */
} Deq;

static void deq_decode(Deq *q, int i, uint64_t c) {
  uint32_t bits = (uint32_t)c;
  memcpy(&q->scale[i], &bits, 4);
  int off = (int)((c >> 37) & 0x1ff);
  q->offset[i] = off >= 256 ? off - 512 : off; /* 9-bit two's complement */
  q->sign[i] = (int)((c >> 46) & 1);
}

/* The scales the instruction reads: 0 after sim_fail. */
static int deq_load(AscExec *x, const AscInstr *in, Deq *q, int vec) {
  AscBlockState *b = x->b;
  q->dd = (AscDType)ASC_SLOT(x, in, 0).t.dtype;
  q->sd = (AscDType)ASC_SLOT(x, in, 1).t.dtype;
  q->vec = vec;
  if (q->sd == ASC_DT_INT32) {
    if (b->regs.deq_mode != ASC_DEQ_HALF) {
      sim_fail(x, in,
               "cast_deq from int32 to half reads the half scale of "
               "set_deq_scale(scale), but the DEQSCALE register %s",
               b->regs.deq_mode == ASC_DEQ_NONE ? "was never set"
                                                : "holds another form's value");
      return 0;
    }
    q->half = asc_f16_to_f32((uint16_t)b->regs.deq_scale);
    return 1;
  }
  if (!vec) {
    if (b->regs.deq_mode != ASC_DEQ_CONFIG) {
      sim_fail(x, in,
               "cast_deq with is_vec_deq=False reads the config of "
               "set_deq_scale(scale, offset, sign_mode), but the DEQSCALE "
               "register %s",
               b->regs.deq_mode == ASC_DEQ_NONE ? "was never set"
                                                : "holds another form's value");
      return 0;
    }
    deq_decode(q, 0, b->regs.deq_scale);
    return 1;
  }
  if (b->regs.deq_mode != ASC_DEQ_VECTOR) {
    sim_fail(x, in,
             "cast_deq with is_vec_deq=True reads the 16 configs of "
             "set_deq_scale(vdeq, vdeq_info), but the DEQSCALE register %s",
             b->regs.deq_mode == ASC_DEQ_NONE ? "was never set"
                                              : "holds another form's value");
    return 0;
  }
  AscTensorRef t = {
      (int64_t)(b->regs.deq_scale << 5), VDEQ_SIZE, -1, ASC_DT_UINT64, 0, 0};
  const uint8_t *p = sim_local_ptr(x, in, &t, VDEQ_SIZE, 0, "the vdeq table");
  if (!p)
    return 0;
  for (int i = 0; i < VDEQ_SIZE; i++) {
    uint64_t c;
    memcpy(&c, p + 8 * i, 8);
    deq_decode(q, i, c);
  }
  return 1;
}

/* float(x) * 2^-17 * scale * 2^17 in float, rounded to half. */
static uint16_t deq_to_half(float v, float scale) {
  v = v * (1.0f / 131072.0f);
  v = v * scale;
  v = v * 131072.0f;
  return asc_f32_to_f16(v);
}

/* int16 element s, at position e of its block, to its b8 byte. */
static uint8_t deq_b8(const Deq *q, int16_t s, int e) {
  int j = q->vec ? e : 0;
  float v = (float)s * q->scale[j] + (float)q->offset[j];
  if (v != v)
    return 0;
  float lo = q->sign[j] ? -128.0f : 0.0f, hi = q->sign[j] ? 127.0f : 255.0f;
  float r = v < lo ? lo : (v > hi ? hi : v);
  /* nearest, ties to even: r is within [-128, 255] */
  float f = (float)(int)r;
  if (f > r)
    f -= 1.0f; /* floor */
  float d = r - f;
  if (d > 0.5f || (d == 0.5f && ((int)f & 1)))
    f += 1.0f;
  int k = (int)f;
  return (uint8_t)(k & 0xff);
}

/* Elements [first, first + n) of src (at byte i * sizeof of each type) to
 * dst; the b8 results as one byte each. */
static void deq_run(const Deq *q, uint8_t *d, const uint8_t *s, int64_t first,
                    int64_t n) {
  for (int64_t i = first; i < first + n; i++) {
    if (q->sd == ASC_DT_INT32) {
      int32_t v;
      memcpy(&v, s + 4 * i, 4);
      uint16_t h = deq_to_half((float)v, q->half);
      memcpy(d + 2 * i, &h, 2);
    } else {
      int16_t v;
      memcpy(&v, s + 2 * i, 2);
      d[i] = deq_b8(q, v, (int)(i % 16));
    }
  }
}

static int deq_flag(const AscInstr *in, const char *name) {
  return asc_op_attr_int(in->src, name, 1) != 0;
}

AscStatus sim_vec_cast_deq(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  Deq q;
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return ASC_ERR_KERNEL;
  int hb = deq_flag(in, "half_block");
  int b8 = ASC_SLOT(x, in, 1).t.dtype == ASC_DT_INT16;
  /* b8: element i is byte 16 * halfBlock + i % 16 of dst block i / 16 */
  int64_t ext =
      !b8 || n <= 0 ? n : (n - 1) / 16 * 32 + 16 * hb + (n - 1) % 16 + 1;
  uint8_t *d = sim_vec_operand(x, in, 0, ext, 1, "dst");
  if (d && b8 && n > 0 && x->b->n_observers && x->b->ev.n_acc)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  if (!s || !deq_load(x, in, &q, deq_flag(in, "is_vec_deq")))
    return ASC_ERR_KERNEL;
  if (!b8) {
    deq_run(&q, d, s, 0, n);
  } else {
    uint8_t tmp[16];
    for (int64_t blk = 0; blk * 16 < n; blk++) {
      int64_t m = n - blk * 16 < 16 ? n - blk * 16 : 16;
      for (int64_t e = 0; e < m; e++) {
        int16_t v;
        memcpy(&v, s + 2 * (blk * 16 + e), 2);
        tmp[e] = deq_b8(&q, v, (int)e);
      }
      memcpy(d + blk * 32 + 16 * hb, tmp, (size_t)m);
    }
  }
  sim_vec_work(x, &ASC_SLOT(x, in, 1).t, n);
  return ASC_OK;
}

static void deq_l0_fn(void *ctx, uint8_t (*tmp)[256], int64_t first,
                      int64_t n) {
  deq_run(ctx, tmp[0], tmp[1], first, n);
}

AscStatus sim_vec_cast_deq_l0(AscExec *x, const AscInstr *in) {
  Deq q;
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return ASC_ERR_KERNEL;
  if (!deq_load(x, in, &q, deq_flag(in, "is_vec_deq")))
    return ASC_ERR_KERNEL;
  int hb = q.sd == ASC_DT_INT16 ? deq_flag(in, "half_block") : -1;
  return sim_vec_l0_apply(x, in, 2, hb, deq_l0_fn, &q);
}

/* ---- the fused binary casts ------------------------------------------------
 */

typedef struct QBin {
  int op;
  AscDType dd, sd;
} QBin;

static void sat_i16_i8(uint8_t *d, const uint8_t *s, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    int16_t v;
    memcpy(&v, s + 2 * i, 2);
    int8_t r = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
    memcpy(d + i, &r, 1);
  }
}

/* n elements (at most 64) of MulCast / AddReluCast / SubReluCast. */
static void qbin_chunk(const QBin *q, uint8_t *d, const uint8_t *a,
                       const uint8_t *b, int64_t n) {
  _Alignas(32) uint8_t t[256];
  AscVecBinOp op = q->op == ASC_QBIN_MUL_CAST        ? ASC_VBIN_MUL
                   : q->op == ASC_QBIN_ADD_RELU_CAST ? ASC_VBIN_ADD_RELU
                                                     : ASC_VBIN_SUB_RELU;
  asc_vec_binary(op, q->sd, t, a, b, n);
  if (q->sd == ASC_DT_INT16) {
    sat_i16_i8(d, t, n);
    return;
  }
  if (q->dd == ASC_DT_FLOAT16 && op != ASC_VBIN_MUL) /* tables 26, 27 */
    for (int64_t i = 0; i < n; i++) {
      float v;
      memcpy(&v, t + 4 * i, 4);
      if (v != v)
        memset(t + 4 * i, 0, 4);
    }
  asc_vec_cast(q->dd, q->sd, ASC_ROUND_RINT, d, t, n);
}

static void qbin_run(const QBin *q, uint8_t *d, const uint8_t *a,
                     const uint8_t *b, int64_t first, int64_t n) {
  int64_t ds = (int64_t)asc_dtype_size(q->dd);
  int64_t ss = (int64_t)asc_dtype_size(q->sd);
  for (int64_t i = first; i < first + n; i += 64) {
    int64_t m = first + n - i < 64 ? first + n - i : 64;
    qbin_chunk(q, d + i * ds, a + i * ss, b + i * ss, m);
  }
}

enum { DEQ_RELU_CHUNK = 8 * 1024 / 4 }; /* TMP_UB_SIZE / sizeof(int32_t) */

/* AddDeqRelu's count form: chunks of DEQ_RELU_CHUNK elements; each chunk
 * leaves its float results in src0 and its half results at the start of
 * its src1 bytes (the devkit's scratch use of the sources). */
static AscStatus add_deq_relu(AscExec *x, const AscInstr *in, uint8_t *d,
                              uint8_t *a, uint8_t *b, int64_t n) {
  if (!x->b->regs.deq_half_set)
    return sim_fail(x, in,
                    "add_deq_relu reads the half scale of "
                    "set_deq_scale(scale), which was never set");
  float scale = asc_f16_to_f32(x->b->regs.deq_half);
  if (x->b->n_observers) {
    const AscTensorRef *t0 = &ASC_SLOT(x, in, 1).t, *t1 = &ASC_SLOT(x, in, 2).t;
    sim_record_access(x->b, ASC_SPACE_UB, 1, -1, t0->addr, t0->addr + 4 * n);
    int64_t hi = n <= DEQ_RELU_CHUNK ? 2 * n : 4 * n;
    sim_record_access(x->b, ASC_SPACE_UB, 1, -1, t1->addr, t1->addr + hi);
    if (n > DEQ_RELU_CHUNK)
      x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  }
  static const int64_t chunk = DEQ_RELU_CHUNK;
  for (int64_t c = 0; c < n; c += chunk) {
    int64_t m = n - c < chunk ? n - c : chunk;
    float f[DEQ_RELU_CHUNK];
    uint16_t h[DEQ_RELU_CHUNK];
    for (int64_t i = 0; i < m; i++) { /* every read before any write */
      int32_t u, v;
      memcpy(&u, a + 4 * (c + i), 4);
      memcpy(&v, b + 4 * (c + i), 4);
      int32_t s = (int32_t)((uint32_t)u + (uint32_t)v);
      float g = (float)s * (1.0f / 131072.0f);
      g = g * scale;
      f[i] = g * 131072.0f;
      h[i] = asc_f32_to_f16(f[i]);
    }
    memcpy(a + 4 * c, f, (size_t)(4 * m));
    memcpy(b + 4 * c, h, (size_t)(2 * m));
    for (int64_t i = 0; i < m; i++) {
      float v = asc_f16_to_f32(h[i]);
      uint16_t r = 0.0f >= v ? 0 : h[i]; /* max(+0, v): NaN stays */
      memcpy(d + 2 * (c + i), &r, 2);
    }
  }
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_binary_cast(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *a = d ? sim_vec_operand(x, in, 1, n, 0, "src0") : NULL;
  uint8_t *b = a ? sim_vec_operand(x, in, 2, n, 0, "src1") : NULL;
  if (!b)
    return ASC_ERR_KERNEL;
  if (in->imm == ASC_QBIN_ADD_DEQ_RELU)
    return add_deq_relu(x, in, d, a, b, n);
  QBin q = {(int)in->imm, (AscDType)ASC_SLOT(x, in, 0).t.dtype,
            (AscDType)ASC_SLOT(x, in, 1).t.dtype};
  qbin_run(&q, d, a, b, 0, n);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

static void qbin_l0_fn(void *ctx, uint8_t (*tmp)[256], int64_t first,
                       int64_t n) {
  qbin_run(ctx, tmp[0], tmp[1], tmp[2], first, n);
}

AscStatus sim_vec_binary_cast_l0(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src0"))
    return ASC_ERR_KERNEL;
  QBin q = {(int)in->imm, (AscDType)ASC_SLOT(x, in, 0).t.dtype,
            (AscDType)ASC_SLOT(x, in, 1).t.dtype};
  return sim_vec_l0_apply(x, in, 3, -1, qbin_l0_fn, &q);
}

/* ---- AddDeqRelu, level 0 ----------------------------------------------------
 * The devkit's sequence (kernel_operator_vec_binary_impl.h, maskMode 1 / 2),
 * in chunks of at most 32 repeats (8 KB of int32 in the reserved buffer):
 *   1. int32 sums of the mask's elements (the int32 mask: the low word) into
 *      the reserved buffer, the sources by their strides;
 *   2-5. float(sum) * 2^-17 * scale * 2^17 into src0, contiguous from the
 *      chunk's src0 (as 64 floats a repeat);
 *   6. those rounded to half into src1, contiguous from the chunk's src1 (64
 *      halves a repeat, the half mask's low word);
 *   7. zeros in the buffer's first halves (one per int32 of the chunk; the
 *      tail chunk keeps the main chunks' count);
 *   8. dst's repeat r, element e < 128 of the half mask: max(buffer half
 *      r * 64 + e, src1 half r * 64 + e), dst by its strides.
 * With a mask above 64 elements repeat r's upper 64 results are repeat
 * r + 1's (the last repeat's read the buffer and src1 past the chunk). The
 * reserved buffer is modelled as zeros when the instruction starts. The
 * mask register is left as the half mask sets it (all ones in normal mode
 * with isSetMask false: step 7's set_vector_mask(-1, -1)). */

enum { ADR_BUF = 2048 }; /* int32 elements of the reserved buffer */

typedef struct AdrSpan {
  int64_t lo, hi; /* bytes from the operand's address */
} AdrSpan;

static void span_add(AdrSpan *s, int64_t b, int64_t n) {
  if (b < s->lo)
    s->lo = b;
  if (b + n > s->hi)
    s->hi = b + n;
}

static uint8_t *span_ptr(AscExec *x, const AscInstr *in, int k, AdrSpan s,
                         int write, const char *what) {
  const AscTensorRef *t = &ASC_SLOT(x, in, k).t;
  if (s.hi <= s.lo)
    return x->b->ub + t->addr;
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  AscTensorRef sub = *t;
  sub.addr = t->addr + s.lo;
  if (t->len >= 0)
    sub.len = t->len - s.lo / es < 0 ? 0 : t->len - s.lo / es;
  uint8_t *p =
      sim_local_ptr(x, in, &sub, (s.hi - s.lo + es - 1) / es, write, what);
  if (p && x->b->n_observers && x->b->ev.n_acc)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  return p ? p - s.lo : NULL;
}

static int bit_of(uint64_t lo, uint64_t hi, int e) {
  return e < 64 ? (int)((lo >> e) & 1) : (int)((hi >> (e - 64)) & 1);
}

/* The masks of chunk c: m[0] the int32 steps' (1-5), m[1] step 6's (low
 * words), m[2] / m[3] step 8's half mask. */
static void adr_masks(int keep, int64_t c, uint64_t ilo, uint64_t hlo,
                      uint64_t hhi, uint64_t m[4]) {
  if (!keep) {
    m[0] = ilo, m[1] = hlo, m[2] = hlo, m[3] = hhi;
    return;
  }
  m[0] = c ? UINT64_MAX : ilo;
  m[1] = c ? UINT64_MAX : hlo;
  m[2] = m[3] = UINT64_MAX;
}

/* counter family: with isSetMask false in counter mode, steps 1-6 of the
 * first chunk run under the register's count of 32-bit elements (64 a
 * repeat, repeatTime ignored): repeat r of the chunk has all 64, the
 * count's rest or none; count < 0 is normal mode (m as it is). Step 7's
 * set_mask_norm puts every later step in normal mode, all ones. */
static uint64_t adr_counter(uint64_t m, int64_t count, int64_t c, int64_t r) {
  if (count < 0 || c)
    return m;
  if (r < count / 64)
    return UINT64_MAX;
  if (r == count / 64 && count % 64)
    return ((uint64_t)1 << (count % 64)) - 1;
  return 0;
}

AscStatus sim_vec_add_deq_relu_l0(AscExec *x, const AscInstr *in) {
  static const char *const names[] = {"dst", "src0", "src1"};
  for (int k = 0; k < 3; k++)
    if (!sim_tensor_arg(x, in, k, names[k]))
      return ASC_ERR_KERNEL;
  if (!x->b->regs.deq_half_set)
    return sim_fail(x, in,
                    "add_deq_relu reads the half scale of "
                    "set_deq_scale(scale), which was never set");
  for (int k = 0; k < 3; k++)
    if (ASC_SLOT(x, in, k).t.addr % 32)
      return sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned",
                      names[k], (long long)ASC_SLOT(x, in, k).t.addr);
  uint64_t m0 = (uint64_t)ASC_SLOT(x, in, 3).i;
  uint64_t m1 = (uint64_t)ASC_SLOT(x, in, 4).i;
  int64_t rep = ASC_SLOT(x, in, 5).i;
  if (rep < 0 || rep > 255)
    return sim_fail(x, in, "repeat_times %lld is out of range [0, 255]",
                    (long long)rep);
  const AscSlot *p = &x->regs[in->a[6]];
  int64_t dblk = p[0].i, blk0 = p[1].i, blk1 = p[2].i;
  int64_t drep = p[3].i, rep0 = p[4].i, rep1 = p[5].i;
  /* the int32 mask (SetMask<int32_t>) and the half mask (SetMask<half>) */
  uint64_t ilo = m0, hlo = m0, hhi = m1, ihi;
  if (!(in->imm2 & 1)) {
    sim_vec_mask_words(64, m0, &ihi, &ilo);
    sim_vec_mask_words(128, m0, &hhi, &hlo);
  }
  /* isSetMask false: steps 1-6 of the first chunk run under the register's
   * mask (its low word: 64 elements a repeat); step 7 leaves it all ones in
   * normal mode, so step 8 and every later chunk use the full mask */
  int keep = (in->imm2 & 2) != 0;
  int64_t count = -1; /* counter family: the register's count, or -1 */
  if (keep) {
    ilo = hlo = x->b->regs.mask_low;
    if (x->b->regs.mask_counter) {
      int64_t first = rep * 64 <= ADR_BUF ? rep : ADR_BUF / 64;
      if (x->b->regs.mask_low > (uint64_t)(first * 64))
        return sim_fail(x, in,
                        "add_deq_relu with is_set_mask=False in counter "
                        "mode: the mask counts %llu elements, more than the "
                        "%lld of the devkit's first chunk (%lld repeats of "
                        "64): its steps 1-6 would write src0, src1 and its "
                        "reserved buffer past the instruction's operands",
                        (unsigned long long)x->b->regs.mask_low,
                        (long long)(first * 64), (long long)first);
      count = (int64_t)x->b->regs.mask_low;
    }
  }
  x->b->regs.mask_counter = 0;
  x->b->regs.mask_low = keep ? UINT64_MAX : hlo;
  x->b->regs.mask_high = keep ? UINT64_MAX : hhi;
  if (rep == 0)
    return ASC_OK;
  /* the chunks: `per` repeats each (32 when they do not fit the buffer) */
  int64_t need = rep * 64;
  int64_t calc = need <= ADR_BUF ? need : ADR_BUF;
  int64_t per = need <= ADR_BUF ? rep : ADR_BUF / 64;
  /* the extents: src reads, src0 / src1 writes, src1 reads of step 8, dst */
  AdrSpan r0 = {INT64_MAX, 0}, r1 = r0, w0 = r0, w1 = r0, r8 = r0, wd = r0;
  for (int64_t r = 0; r < rep; r++) {
    int64_t c = r / per, rl = r % per;
    uint64_t m[4];
    adr_masks(keep, c, ilo, hlo, hhi, m);
    m[0] = adr_counter(m[0], count, c, rl);
    m[1] = adr_counter(m[1], count, c, rl);
    for (int e = 0; e < 128; e++) {
      if (e < 64 && bit_of(m[0], 0, e)) {
        span_add(&r0, (r * rep0 + e / 8 * blk0) * 32 + e % 8 * 4, 4);
        span_add(&r1, (r * rep1 + e / 8 * blk1) * 32 + e % 8 * 4, 4);
        span_add(&w0, c * per * rep0 * 32 + (rl * 64 + e) * 4, 4);
      }
      if (e < 64 && bit_of(m[1], 0, e))
        span_add(&w1, c * per * rep1 * 32 + (rl * 64 + e) * 2, 2);
      if (bit_of(m[2], m[3], e)) {
        span_add(&r8, c * per * rep1 * 32 + (rl * 64 + e) * 2, 2);
        span_add(&wd, (r * drep + e / 16 * dblk) * 32 + e % 16 * 2, 2);
      }
    }
  }
  uint8_t *a = span_ptr(x, in, 1, r0, 0, "src0");
  uint8_t *b = a ? span_ptr(x, in, 2, r1, 0, "src1") : NULL;
  uint8_t *aw = b ? span_ptr(x, in, 1, w0, 1, "src0") : NULL;
  uint8_t *bw = aw ? span_ptr(x, in, 2, w1, 1, "src1") : NULL;
  if (!bw)
    return ASC_ERR_KERNEL;
  /* step 8 reads src1 past what step 6 wrote when the mask has more than
   * 64 elements */
  AdrSpan past = {r8.lo > w1.hi ? r8.lo : w1.hi, r8.hi};
  if (!span_ptr(x, in, 2, past, 0, "src1"))
    return ASC_ERR_KERNEL;
  uint8_t *d = span_ptr(x, in, 0, wd, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  float scale = asc_f16_to_f32(x->b->regs.deq_half);
  int32_t buf[ADR_BUF + 64] = {0}; /* the reserved buffer, as zeros */
  uint8_t *tb = (uint8_t *)buf;
  for (int64_t c = 0; c * per < rep; c++) {
    int64_t n = rep - c * per < per ? rep - c * per : per;
    uint8_t *s0w = a + c * per * rep0 * 32, *s1w = b + c * per * rep1 * 32;
    uint8_t *dc = d + c * per * drep * 32;
    uint64_t m[4];
    adr_masks(keep, c, ilo, hlo, hhi, m);
    for (int64_t r = 0; r < n; r++) /* 1 */
      for (int e = 0; e < 64; e++)
        if (bit_of(adr_counter(m[0], count, c, r), 0, e)) {
          int64_t rg = c * per + r;
          int32_t u, v;
          memcpy(&u, a + (rg * rep0 + e / 8 * blk0) * 32 + e % 8 * 4, 4);
          memcpy(&v, b + (rg * rep1 + e / 8 * blk1) * 32 + e % 8 * 4, 4);
          buf[r * 64 + e] = (int32_t)((uint32_t)u + (uint32_t)v);
        }
    for (int64_t r = 0; r < n; r++) /* 2-5 */
      for (int e = 0; e < 64; e++)
        if (bit_of(adr_counter(m[0], count, c, r), 0, e)) {
          float g = (float)buf[r * 64 + e] * (1.0f / 131072.0f);
          g = g * scale;
          g = g * 131072.0f;
          memcpy(s0w + (r * 64 + e) * 4, &g, 4);
        }
    for (int64_t r = 0; r < n; r++) /* 6 */
      for (int e = 0; e < 64; e++)
        if (bit_of(adr_counter(m[1], count, c, r), 0, e)) {
          float g;
          memcpy(&g, s0w + (r * 64 + e) * 4, 4);
          uint16_t h = asc_f32_to_f16(g);
          memcpy(s1w + (r * 64 + e) * 2, &h, 2);
        }
    memset(tb, 0, (size_t)(2 * calc)); /* 7 */
    for (int64_t r = 0; r < n; r++) {  /* 8 */
      uint8_t out[256];
      for (int e = 0; e < 128; e++)
        if (bit_of(m[2], m[3], e))
          asc_vec_binary(ASC_VBIN_MAX, ASC_DT_FLOAT16, out + 2 * e,
                         tb + (r * 64 + e) * 2, s1w + (r * 64 + e) * 2, 1);
      for (int e = 0; e < 128; e++)
        if (bit_of(m[2], m[3], e))
          memcpy(dc + (r * drep + e / 16 * dblk) * 32 + e % 16 * 2, out + 2 * e,
                 2);
    }
  }
  x->b->ev.elems = rep * 64;
  x->b->ev.bytes = rep * 128;
  return ASC_OK;
}
