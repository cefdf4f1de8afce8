/* family: cube. Fixpipe L0C -> GM on arch 2201
 * (impl/basic_api/dav_c220/kernel_operator_fixpipe_impl.h and
 * kernel_operator_fixpipe_v2_impl.h; the layouts are cube_ops.c's), its
 * conversions (QuantMode_t) and the scalar quant register QUANT_PRE
 * (SetFixpipePreQuantFlag).
 *
 * The conversions follow the devkit's pages on the fixpipe's quantisation
 * (矩阵搬出关键特性说明/随路量化.md, 随路量化与随路ReLU场景组合.md) and
 * its reference scripts (examples/.../fixpipe_l0c2gm/scripts/gen_data_*.py):
 * a quant parameter is a uint64: bits [31:13] the scale M1, an fp32 with 10
 * mantissa bits (the low 13 bits are not used), [35:32] N, bit 36 MCB,
 * [45:37] the offset, bit 46 the sign of an 8-bit result. An element x
 * >= 0 is multiplied by M1, a negative one by M2 = 0 with ReLU, else M1;
 * docs/semantics.md lists each mode's rounding. */
#include <math.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "vecmath.h"

#define FIELD(k, f) (x->regs[in->a[(k)] + (f)].i)

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

enum {
  NOQUANT,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8,
  VQF322B8,
  REQ8,
  VREQ8
};

int sim_fixpipe_is_vector_mode(int mode) {
  return mode == VDEQF16 || mode == VQF322B8 || mode == VREQ8;
}

int sim_fixpipe_mode_ok(int mode, AscDType st, AscDType dt) {
  int b8 = dt == ASC_DT_INT8 || dt == ASC_DT_UINT8;
  if (st == ASC_DT_FLOAT32)
    return (mode == NOQUANT && dt == ASC_DT_FLOAT32) ||
           (mode == F322F16 && dt == ASC_DT_FLOAT16) ||
           (mode == F322BF16 && dt == ASC_DT_BFLOAT16) ||
           ((mode == QF322B8 || mode == VQF322B8) && b8);
  if (st == ASC_DT_INT32)
    return (mode == NOQUANT && dt == ASC_DT_INT32) ||
           ((mode == DEQF16 || mode == VDEQF16) && dt == ASC_DT_FLOAT16) ||
           ((mode == REQ8 || mode == VREQ8) && b8);
  return 0;
}

/* M1 of a quant parameter: bits [31:13] as an fp32 */
static float scale_of(uint64_t q) {
  uint32_t u = (uint32_t)q & 0xffffe000u;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* round half to even, then saturate to [lo, hi] (NaN: 0, the saturation
 * mode's result) */
static double sat_round(double v, double lo, double hi) {
  if (isnan(v))
    return 0;
  v = v < lo ? lo : v > hi ? hi : v;
  return rint(v);
}

void sim_fixpipe_convert(int mode, uint64_t q, int relu, AscDType st,
                         const uint8_t *src, AscDType dt, uint8_t *out) {
  if (mode == NOQUANT || mode == F322F16 || mode == F322BF16) {
    if (st == ASC_DT_INT32) {
      int32_t v;
      memcpy(&v, src, 4);
      if (relu && v < 0)
        v = 0;
      memcpy(out, &v, 4);
      return;
    }
    float v;
    memcpy(&v, src, 4);
    if (relu && v < 0)
      v = 0;
    if (dt == ASC_DT_FLOAT16) {
      uint16_t h = asc_f32_to_f16(v);
      memcpy(out, &h, 2);
    } else if (dt == ASC_DT_BFLOAT16) {
      uint16_t h = asc_f32_to_bf16(v);
      memcpy(out, &h, 2);
    } else {
      memcpy(out, &v, 4);
    }
    return;
  }
  float m1 = scale_of(q), m2 = relu ? 0.0f : m1, f;
  if (st == ASC_DT_INT32) {
    int32_t v;
    memcpy(&v, src, 4);
    if ((q >> 36) & 1) { /* MCB: v >> N (0b0000 is 1, 0b1111 16), to int16 */
      v >>= (int)((q >> 32) & 0xf) + 1;
      v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
    }
    f = (float)v;
  } else {
    memcpy(&f, src, 4);
  }
  f = f >= 0 ? f * m1 : f * m2; /* an fp32 product */
  if (mode == DEQF16 || mode == VDEQF16) {
    /* to the nearest half (ties to even), saturated to its finite range */
    float c = isnan(f)        ? 0.0f
              : f > 65504.0f  ? 65504.0f
              : f < -65504.0f ? -65504.0f
                              : f;
    uint16_t h = asc_f32_to_f16(c);
    memcpy(out, &h, 2);
    return;
  }
  /* (V)REQ8, (V)QF322B8_PRE: to an integer in [-256, 255], plus the
   * offset, saturated to int8 (sign bit 1) or uint8 */
  double r = sat_round(f, -256, 255) + (double)((q >> 37) & 0x1ff);
  int sign = (q >> 46) & 1;
  int v = (int)(sign ? (r < -128  ? -128
                        : r > 127 ? 127
                                  : r)
                     : (r < 0     ? 0
                        : r > 255 ? 255
                                  : r));
  out[0] = (uint8_t)v;
}

/* SetFixpipePreQuantFlag(config): the QUANT_PRE register */
AscStatus sim_cube_set_quant_pre(AscExec *x, const AscInstr *in) {
  x->b->regs.quant_pre = (uint64_t)ASC_SLOT(x, in, 0).i;
  return ASC_OK;
}

/* imm 0: Fixpipe(dst, src, params) (row-major), 1: with the layout
 * attribute (FixpipeConfig), 2: Fixpipe(dst, src, cbuf_workspace, params)
 * with the layout attribute. */
AscStatus sim_cube_fixpipe(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  const AscTensorRef *ws =
      src && in->imm == 2 ? sim_tensor_arg(x, in, 2, "cbuf_workspace") : NULL;
  if (!src || (in->imm == 2 && !ws))
    return ASC_ERR_KERNEL;
  int pk = in->imm == 2 ? 3 : 2;
  int nz = 0;
  if (in->imm) {
    const AscAttr *a = asc_op_attr(in->src, "layout");
    nz = a && a->i == 0; /* CO2Layout::NZ; ROW_MAJOR 1 */
  }
  int64_t n = FIELD(pk, 0), m = FIELD(pk, 1), src_stride = FIELD(pk, 2);
  int64_t dst_stride = FIELD(pk, 3), relu = FIELD(pk, 4), quant = FIELD(pk, 5);
  uint64_t deq = (uint64_t)FIELD(pk, 6);
  int64_t nd = FIELD(pk, 7), split = FIELD(pk, 11);
  /* unitFlag 2 / 3: ordered with unit-flag Mmads by the hardware */
  int uf = FIELD(pk, 10) == 2 || FIELD(pk, 10) == 3;
  if (uf) {
    AscStatus us = sim_unit_flag_begin(x, in, 0);
    if (us)
      return us;
  }
  if (sim_cube_mem_of_position(src->position) != SIM_CMEM_L0C)
    return sim_fail(x, in, "Fixpipe: src in L0C (CO1)");
  if (src->addr % 64)
    return sim_fail(x, in,
                    "Fixpipe: the L0C address %lld is not 64-byte aligned",
                    (long long)src->addr);
  AscDType st = (AscDType)src->dtype, dt = (AscDType)dst->dtype;
  if (!sim_fixpipe_mode_ok((int)quant, st, dt))
    return sim_fail(x, in, "Fixpipe: quant_pre %s does not convert %s to %s",
                    asc_enum_value_name(ASC_ENUM_QUANTMODES, (int)quant),
                    asc_dtype_name(st), asc_dtype_name(dt));
  int vec = sim_fixpipe_is_vector_mode((int)quant);
  if (vec && !ws)
    return sim_fail(x, in,
                    "Fixpipe: quant_pre %s takes the per-channel quant "
                    "parameters from a cbuf_workspace (the form "
                    "fixpipe(dst, src, cbuf_workspace, params))",
                    asc_enum_value_name(ASC_ENUM_QUANTMODES, (int)quant));
  /* F32 channel split: float32 -> float32, NZ output only (the devkit's
   * F32-Channel-Split page), n a multiple of 8 */
  if (split && (!nz || st != ASC_DT_FLOAT32 || dt != ASC_DT_FLOAT32 || n % 8))
    return sim_fail(x, in,
                    "Fixpipe: is_channel_split needs float32 -> float32 with "
                    "FixpipeConfig cfg_nz and n_size a multiple of 8 (got %s "
                    "-> %s, %s, n_size %lld)",
                    asc_dtype_name(st), asc_dtype_name(dt),
                    nz ? "cfg_nz" : "cfg_row_major", (long long)n);
  if (!vec && quant >= DEQF16) /* the devkit's SetQuantPreImpl(deqScalar) */
    x->b->regs.quant_pre = deq;
  int64_t src_nd = FIELD(pk, 8), dst_nd = FIELD(pk, 9);
  if (nz)
    nd = 1; /* NZ2NZ: nd_num and its strides are the NZ2ND's */
  if (m == 0 || n == 0 || nd == 0)
    return ASC_OK;
  if (n > 4095 || m > (nz ? 65535 : 8192) || src_nd > 512)
    return sim_fail(x, in,
                    "FixpipeParamsV220 out of range: n_size %lld (at most "
                    "4095), m_size %lld (at most %d), src_nd_stride %lld (at "
                    "most 512)",
                    (long long)n, (long long)m, nz ? 65535 : 8192,
                    (long long)src_nd);
  if (src_stride < m)
    return sim_fail(x, in,
                    "Fixpipe: src_stride %lld is less than m_size %lld (the "
                    "rows of a column of L0C fractals)",
                    (long long)src_stride, (long long)m);
  int64_t des = (int64_t)asc_dtype_size(dt);
  /* NZ output: blocks of 32 bytes' columns for 8-bit types (the channel
   * merge the devkit always does), of 16 columns otherwise */
  int64_t c0 = nz && (des == 1 || split) ? 32 / des : 16;
  int64_t blocks = ceil_div(n, c0), dst_count;
  if (nz) {
    if (dst_stride < 1 || (blocks > 1 && dst_stride * 32 < m * c0 * des))
      return sim_fail(x, in,
                      "Fixpipe (NZ): dst_stride %lld (32-byte units between "
                      "the column blocks) is less than a block's %lld rows of "
                      "%lld bytes: the blocks written overlap in GM",
                      (long long)dst_stride, (long long)m,
                      (long long)(c0 * des));
    dst_count = ((blocks - 1) * dst_stride * 32 + m * c0 * des) / des;
  } else {
    dst_count = (nd - 1) * dst_nd + (m - 1) * dst_stride + n;
    /* the rows of one matrix overlap in GM: dst_stride below n_size */
    if (m > 1 && dst_stride < n)
      return sim_fail(x, in,
                      "Fixpipe: dst_stride %lld is less than n_size %lld: "
                      "the rows written overlap in GM",
                      (long long)dst_stride, (long long)n);
    if (nd > 1 && (src_nd < 1 || dst_nd < 1))
      return sim_fail(x, in,
                      "Fixpipe: with nd_num %lld, src_nd_stride (%lld) and "
                      "dst_nd_stride (%lld) are at least 1",
                      (long long)nd, (long long)src_nd, (long long)dst_nd);
  }
  /* in elements: src_stride counts fractal rows (16 elements), src_nd_stride
   * whole fractals (256) */
  int64_t src_end = ((nd - 1) * src_nd * 256 +
                     ((ceil_div(n, 16) - 1) * src_stride + m) * 16) *
                    4;
  int n0 = x->b->ev.n_acc;
  uint8_t *s = sim_cube_range(x, in, src, 0, src_end, 0, "src");
  sim_cube_bounding(x, n0); /* the columns past n of its last fractals */
  const uint8_t *pw = NULL;
  if (s && vec) {
    if (sim_cube_mem_of_position(ws->position) != SIM_CMEM_L1 || ws->addr % 32)
      return sim_fail(x, in,
                      "Fixpipe: cbuf_workspace is a 32-byte aligned uint64 "
                      "tensor in L1 (C1)");
    pw = sim_cube_range(x, in, ws, 0, n * 8, 0, "cbuf_workspace");
    if (!pw)
      return ASC_ERR_KERNEL;
  }
  SimGmSpan g;
  int g0 = x->b->ev.n_acc;
  if (!s || sim_gm_span(x, in, dst, dst_count, 1, "dst", &g))
    return ASC_ERR_KERNEL;
  /* one ND matrix with rows apart: the runs written, for the sanitizer
   * (blocks writing interleaved parts of one matrix do not race) */
  if (!nz && nd == 1 && m > 1 && dst_stride != n)
    for (int i = g0; i < x->b->ev.n_acc; i++) {
      AscAccess *a = &x->b->ev.acc[i];
      a->rows = (int32_t)m;
      a->row0 = dst->addr;
      a->row_len = n * des;
      a->row_step = dst_stride * des;
    }
  for (int64_t k = 0; k < nd; k++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t col = 0; col < n; col++) {
        const uint8_t *e = s + (k * src_nd * 256 +
                                ((col / 16) * src_stride + i) * 16 + col % 16) *
                                   4;
        uint64_t q = deq;
        if (vec)
          memcpy(&q, pw + col * 8, 8);
        uint8_t out[4];
        sim_fixpipe_convert((int)quant, q, (int)relu, st, e, dt, out);
        int64_t at =
            (nz ? (col / c0) * dst_stride * 32 + (i * c0 + col % c0) * des
                : (k * dst_nd + i * dst_stride + col) * des) -
            g.skip;
        if (g.p && at >= 0 && at + des <= g.valid &&
            sim_gm_store(x, in, g.p + at, out, des) != ASC_OK)
          return ASC_ERR_KERNEL;
      }
  x->b->ev.bytes = nd * m * n * des;
  x->b->ev.elems = nd * m * n;
  return uf ? sim_unit_flag_end(x, in, 0) : ASC_OK;
}

/* ---- DataCopy L0C -> GM / L1 with DataCopyCO12DstParams -------------------
 * The register form of the fixpipe (the devkit's DataCopyL0C2GMImpl,
 * DataCopyL0C2L1Impl: copy_matrix_cc_to_gm / _to_cbuf): the scalar quant
 * parameter is the QUANT_PRE register (set_fix_pipe_pre_quant_flag); the
 * vector modes read the fixpipe buffer's parameters SetFixPipeConfig points
 * at, which upstream's API cannot set (not simulated). relu_pre 1: ReLU.
 * nz2nd_en (GM only): rows dst_stride elements apart (ND_PARA as it is
 * before any SetFixpipeNz2ndFlag: one matrix); else NZ, dst_stride 32-byte
 * units between the column blocks. imm 0: dst in GM, 1: in L1 (the devkit:
 * no float -> float or int32 -> int32 into L1). */
AscStatus sim_cube_co12dst(AscExec *x, const AscInstr *in) {
  int to_l1 = in->imm == 1;
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  int64_t n = FIELD(2, 0), m = FIELD(2, 1), dst_stride = FIELD(2, 2);
  int64_t src_stride = FIELD(2, 3), quant = FIELD(2, 4), relu = FIELD(2, 5);
  int64_t split = FIELD(2, 6), nd = FIELD(2, 7);
  AscDType st = (AscDType)src->dtype, dt = (AscDType)dst->dtype;
  if (sim_cube_mem_of_position(src->position) != SIM_CMEM_L0C || src->addr % 64)
    return sim_fail(x, in,
                    "DataCopy from L0C: src in L0C (CO1), 64-byte aligned");
  if (!sim_fixpipe_mode_ok((int)quant, st, dt) || (to_l1 && quant == NOQUANT))
    return sim_fail(x, in,
                    "DataCopy from L0C to %s: quant_pre %s does not convert "
                    "%s to %s",
                    to_l1 ? "L1" : "GM",
                    asc_enum_value_name(ASC_ENUM_QUANTMODES, (int)quant),
                    asc_dtype_name(st), asc_dtype_name(dt));
  if (split &&
      (to_l1 || nd || st != ASC_DT_FLOAT32 || dt != ASC_DT_FLOAT32 || n % 8))
    return sim_fail(x, in,
                    "DataCopy from L0C: channel_split needs float32 -> "
                    "float32, NZ output to GM and n_size a multiple of 8");
  /* family: cube (cube2). The vector modes read the fixpipe buffer at the
   * address SetFixPipeConfig puts in FPC, relu_pre 2 the LRELU_ALPHA
   * register (set_lrelu_alpha): upstream sets neither. Into L1 nz2nd_en
   * has no effect on the Atlas A2 (the devkit's DataCopy L0C -> L1 page:
   * Ascend 950 only): the copy is NZ. */
  if (to_l1)
    nd = 0;
  if (sim_fixpipe_is_vector_mode((int)quant) || relu > 1)
    return sim_fail(x, in, "DataCopy from L0C with %s is not simulated",
                    sim_fixpipe_is_vector_mode((int)quant)
                        ? "a vector quant mode (its parameters are in the "
                          "fixpipe buffer, which nothing here can fill)"
                    : relu == 2 ? "relu_pre 2 (its slope, the LRELU_ALPHA "
                                  "register, cannot be set)"
                                : "relu_pre above 2 (0: none, 1: ReLU)");
  if (m == 0 || n == 0)
    return ASC_OK;
  if (n > 4095 || src_stride < m)
    return sim_fail(x, in,
                    "DataCopyCO12DstParams: n_size %lld (at most 4095), "
                    "src_stride %lld (at least m_size %lld)",
                    (long long)n, (long long)src_stride, (long long)m);
  int64_t des = (int64_t)asc_dtype_size(dt);
  int64_t c0 = des == 1 || split ? 32 / des : 16, blocks = ceil_div(n, c0),
          dst_bytes;
  if (nd) {
    if (m > 1 && dst_stride < n)
      return sim_fail(x, in,
                      "DataCopy from L0C: dst_stride %lld is less than "
                      "n_size %lld: the rows overlap",
                      (long long)dst_stride, (long long)n);
    dst_bytes = ((m - 1) * dst_stride + n) * des;
  } else {
    if (dst_stride < 1 || (blocks > 1 && dst_stride * 32 < m * c0 * des))
      return sim_fail(x, in,
                      "DataCopy from L0C (NZ): dst_stride %lld (32-byte "
                      "units) is less than a column block's %lld bytes",
                      (long long)dst_stride, (long long)(m * c0 * des));
    dst_bytes = (blocks - 1) * dst_stride * 32 + m * c0 * des;
  }
  int64_t src_end = ((ceil_div(n, 16) - 1) * src_stride + m) * 16 * 4;
  int n0 = x->b->ev.n_acc;
  const uint8_t *s = sim_cube_range(x, in, src, 0, src_end, 0, "src");
  sim_cube_bounding(x, n0);
  if (!s)
    return ASC_ERR_KERNEL;
  uint8_t *d = NULL;
  SimGmSpan g = {0};
  if (to_l1) {
    if (sim_cube_mem_of_position(dst->position) != SIM_CMEM_L1 ||
        dst->addr % 32)
      return sim_fail(x, in,
                      "DataCopy from L0C: dst in L1 (A1/B1), 32-byte "
                      "aligned");
    n0 = x->b->ev.n_acc;
    d = sim_cube_range(x, in, dst, 0, dst_bytes, 1, "dst");
    if (!d)
      return ASC_ERR_KERNEL;
    sim_cube_bounding(x, n0); /* the strides' gaps are not written */
  } else if (sim_gm_span(x, in, dst, dst_bytes / des, 1, "dst", &g)) {
    return ASC_ERR_KERNEL;
  }
  uint64_t q = x->b->regs.quant_pre;
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < n; col++) {
      const uint8_t *e =
          s + (((col / 16) * src_stride + i) * 16 + col % 16) * 4;
      uint8_t out[4];
      sim_fixpipe_convert((int)quant, q, (int)relu, st, e, dt, out);
      int64_t at =
          nd ? (i * dst_stride + col) * des
             : (col / c0) * dst_stride * 32 + (i * c0 + col % c0) * des;
      if (d) {
        memcpy(d + at, out, (size_t)des);
        continue;
      }
      at -= g.skip;
      if (g.p && at >= 0 && at + des <= g.valid &&
          sim_gm_store(x, in, g.p + at, out, des) != ASC_OK)
        return ASC_ERR_KERNEL;
    }
  x->b->ev.bytes = m * n * des;
  x->b->ev.elems = m * n;
  return ASC_OK;
}
