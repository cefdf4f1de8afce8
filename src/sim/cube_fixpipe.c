/* family: cube. Fixpipe L0C -> GM on arch 2201 (moved out of cube_ops.c;
 * the layouts are cube_ops.c's). */
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "vecmath.h"

#define FIELD(k, f) (x->regs[in->a[(k)] + (f)].i)

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---- Fixpipe L0C -> GM (row-major: NZ to ND) ------------------------------
 */

AscStatus sim_cube_fixpipe(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  int64_t n = FIELD(2, 0), m = FIELD(2, 1), src_stride = FIELD(2, 2);
  int64_t dst_stride = FIELD(2, 3), relu = FIELD(2, 4), quant = FIELD(2, 5);
  int64_t nd = FIELD(2, 7);
  if (sim_cube_mem_of_position(src->position) != SIM_CMEM_L0C)
    return sim_fail(x, in, "Fixpipe: src in L0C (CO1)");
  AscDType st = (AscDType)src->dtype, dt = (AscDType)dst->dtype;
  int want = st == ASC_DT_INT32 ? (quant == 0 && dt == ASC_DT_INT32)
                                : ((quant == 0 && dt == ASC_DT_FLOAT32) ||
                                   (quant == 1 && dt == ASC_DT_FLOAT16) ||
                                   (quant == 2 && dt == ASC_DT_BFLOAT16));
  if (!want)
    return sim_fail(x, in,
                    "Fixpipe: quant_pre %s does not convert %s to %s (the "
                    "simulator has NoQuant, F322F16 and F322BF16)",
                    asc_enum_value_name(ASC_ENUM_QUANTMODES, (int)quant),
                    asc_dtype_name(st), asc_dtype_name(dt));
  int64_t src_nd = FIELD(2, 8), dst_nd = FIELD(2, 9);
  if (m == 0 || n == 0 || nd == 0)
    return ASC_OK;
  if (n > 4095 || m > 8192 || src_nd > 512)
    return sim_fail(x, in,
                    "FixpipeParamsV220 out of range with NZ2ND: n_size %lld "
                    "(at most 4095), m_size %lld (at most 8192), src_nd_stride "
                    "%lld (at most 512)",
                    (long long)n, (long long)m, (long long)src_nd);
  if (src_stride < m)
    return sim_fail(x, in,
                    "Fixpipe: src_stride %lld is less than m_size %lld (the "
                    "rows of a column of L0C fractals)",
                    (long long)src_stride, (long long)m);
  int64_t des = (int64_t)asc_dtype_size(dt);
  int64_t dst_count = (nd - 1) * dst_nd + (m - 1) * dst_stride + n;
  /* the rows of one matrix overlap in GM: dst_stride below n_size (the
   * devkit's ranges ask for src_nd_stride and dst_nd_stride of at least 1
   * with several matrices, which bounds nd_num by L0C) */
  if (m > 1 && dst_stride < n)
    return sim_fail(x, in,
                    "Fixpipe: dst_stride %lld is less than n_size %lld: the "
                    "rows written overlap in GM",
                    (long long)dst_stride, (long long)n);
  if (nd > 1 && (src_nd < 1 || dst_nd < 1))
    return sim_fail(x, in,
                    "Fixpipe: with nd_num %lld, src_nd_stride (%lld) and "
                    "dst_nd_stride (%lld) are at least 1",
                    (long long)nd, (long long)src_nd, (long long)dst_nd);
  /* in elements: src_stride counts fractal rows (16 elements), src_nd_stride
   * whole fractals (256), dst_stride and dst_nd_stride elements */
  int64_t src_end = ((nd - 1) * src_nd * 256 +
                     ((ceil_div(n, 16) - 1) * src_stride + m) * 16) *
                    4;
  int n0 = x->b->ev.n_acc;
  uint8_t *s = sim_cube_range(x, in, src, 0, src_end, 0, "src");
  sim_cube_bounding(x, n0); /* the columns past n of its last fractals */
  SimGmSpan g;
  if (!s || sim_gm_span(x, in, dst, dst_count, 1, "dst", &g))
    return ASC_ERR_KERNEL;
  for (int64_t k = 0; k < nd; k++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t col = 0; col < n; col++) {
        const uint8_t *e = s + (k * src_nd * 256 +
                                ((col / 16) * src_stride + i) * 16 + col % 16) *
                                   4;
        uint8_t out[4];
        if (st == ASC_DT_INT32) {
          int32_t v;
          memcpy(&v, e, 4);
          if (relu && v < 0)
            v = 0;
          memcpy(out, &v, 4);
        } else {
          float v;
          memcpy(&v, e, 4);
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
        }
        int64_t at = (k * dst_nd + i * dst_stride + col) * des - g.skip;
        if (g.p && at >= 0 && at + des <= g.valid &&
            sim_gm_store(x, in, g.p + at, out, des) != ASC_OK)
          return ASC_ERR_KERNEL;
      }
  x->b->ev.bytes = nd * m * n * des;
  x->b->ev.elems = nd * m * n;
  return ASC_OK;
}
