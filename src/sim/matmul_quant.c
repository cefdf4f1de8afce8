/* family: matmul. The quantisation a Matmul's fixpipe applies to a block
 * of C (SetQuantScalar / SetQuantVector; matmul.h).
 *
 * Which mode: the devkit's MatmulQuantProcessor (impl/adv_api/detail/
 * matmul/stage/copy_cube_out/quant/quant_processor_fixpipe.h) picks it by
 * the L0C and C types: int32 L0C (int8 A) to half C is DEQF16 (VDEQF16 for
 * a vector), int32 to int8 REQ8 (VREQ8), fp32 L0C (half / bfloat16 A) to
 * int8 QF322B8_PRE (VQF322B8_PRE).
 *
 * The uint64 of each scale (docs/zh/api/.../随路量化.md, table 1, NPU arch
 * 2201): bits 0..31 a float of which the fixpipe uses 1 sign, 8 exponent
 * and 10 mantissa bits (M1 = bits & 0xFFFFE000), bits 32..35 N (a shift of
 * N + 1 bits, 1..16), bit 36 MCB (REQ8 / DEQF16: shift the int32 right by
 * N + 1 and saturate it to int16 first), bits 37..45 a 9-bit signed
 * offset (REQ8 / QF322B8_PRE), bit 46 the int8 result signed (1) or
 * unsigned (0).
 *
 * The arithmetic follows the devkit's reference generators
 * (examples/.../fixpipe_l0c2gm/scripts/gen_data_s322s8.py, _s322f16.py,
 * _f322s8.py): the value as fp32 times M1 in fp32; to half: saturated to
 * +-65504 and rounded to nearest even; to int8: saturated to [-256, 255],
 * rounded to nearest even, plus the offset, saturated to [-128, 127] or
 * [0, 255] (an unsigned result is stored as its byte). A NaN becomes 0 in
 * the int8 modes. */
#include <math.h>
#include <string.h>

#include "matmul.h"
#include "vecmath.h"

enum { Q_NONE, Q_DEQF16, Q_REQ8, Q_QF322B8 };

static int quant_kind(const AscSimMatmul *m) {
  int a = m->a.dtype, c = m->c_dtype;
  if (a == ASC_DT_INT8 && c == ASC_DT_FLOAT16)
    return Q_DEQF16;
  if (a == ASC_DT_INT8 && c == ASC_DT_INT8)
    return Q_REQ8;
  if ((a == ASC_DT_FLOAT16 || a == ASC_DT_BFLOAT16) && c == ASC_DT_INT8)
    return Q_QF322B8;
  return Q_NONE;
}

static float scale_of(uint64_t w) {
  uint32_t bits = (uint32_t)(w & 0xFFFFE000u);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static double clamp(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* One L0C value (an int32 or an fp32, held as a double) through the mode
 * with the scale word w. */
static double convert(int kind, uint64_t w, double v) {
  float m1 = scale_of(w);
  int mcb = (int)((w >> 36) & 1);
  int shift = (int)((w >> 32) & 0xF) + 1;
  int64_t off = (int64_t)((w >> 37) & 0x1FF);
  if (off >= 256)
    off -= 512; /* 9-bit two's complement */
  int sign = (int)((w >> 46) & 1);
  float f;
  if (kind == Q_QF322B8) {
    f = (float)v * m1;
  } else {
    int64_t i = (int64_t)v;
    if (mcb)
      i = (int64_t)clamp((double)(i >> shift), -32768.0, 32767.0);
    f = (float)i * m1;
  }
  if (kind == Q_DEQF16) {
    if (isnan(f))
      return (double)f;
    float c = (float)clamp((double)f, -65504.0, 65504.0);
    return (double)asc_f16_to_f32(asc_f32_to_f16(c));
  }
  if (isnan(f))
    return 0.0;
  double q = nearbyint(clamp((double)f, -256.0, 255.0)) + (double)off;
  if (sign)
    return clamp(q, -128.0, 127.0);
  q = clamp(q, 0.0, 255.0);
  return q > 127.0 ? q - 256.0 : q; /* the byte, read as C's int8 */
}

int sim_mm_convert(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                   int64_t n0, int64_t rows, int64_t cols, double *v) {
  int kind = quant_kind(m);
  if (m->quant_mode == 0 && kind != Q_NONE) {
    /* the devkit picks these types' fixpipe mode by SetQuantScalar /
     * SetQuantVector; without one the scale is not defined */
    sim_fail(x, in,
             "Matmul: a %s C from %s inputs is quantised: set_quant_scalar "
             "or set_quant_vector before the computation",
             asc_dtype_name((AscDType)m->c_dtype),
             asc_dtype_name((AscDType)m->a.dtype));
    return 0;
  }
  if (m->quant_mode == 0)
    return 1; /* C takes the values as they are (converted on store) */
  if (kind == Q_NONE) {
    sim_fail(x, in,
             "Matmul: set_quant_scalar / set_quant_vector: no quantisation "
             "converts %s inputs to a %s C",
             asc_dtype_name((AscDType)m->a.dtype),
             asc_dtype_name((AscDType)m->c_dtype));
    return 0;
  }
  if (m->quant_mode == 1) {
    for (int64_t e = 0; e < rows * cols; e++)
      v[e] = convert(kind, m->quant_scalar, v[e]);
    return 1;
  }
  /* a vector (2: in GM, 3: in L1): column n0 + j of the single-core C
   * takes element n0 + j */
  if (!cols || !rows)
    return 1;
  SimGmSpan span = {0};
  const uint8_t *l1 = NULL;
  if (m->quant_mode == 3) {
    l1 = sim_local_ptr(x, in, &m->quant_vec, n0 + cols, 0, "quant vector");
    if (!l1)
      return 0;
  } else if (sim_gm_span(x, in, &m->quant_vec, n0 + cols, 0, "quant vector",
                         &span)) {
    return 0;
  }
  for (int64_t j = 0; j < cols; j++) {
    int64_t o = (n0 + j) * 8;
    uint64_t w = 0;
    if (l1)
      memcpy(&w, l1 + o, sizeof w);
    else if (span.p && o >= span.skip && o + 8 <= span.skip + span.valid)
      memcpy(&w, span.p + (o - span.skip), sizeof w);
    for (int64_t i = 0; i < rows; i++)
      v[i * cols + j] = convert(kind, w, v[i * cols + j]);
  }
  return 1;
}
