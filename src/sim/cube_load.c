/* family: cube. The load forms of arch 2201 beyond LoadData 2-D
 * (cube_ops.c): LoadDataWithTranspose (LoadData2dTransposeParams), the
 * 3-D LoadData (img2col, LoadData3DParamsV2) and the registers the 3-D
 * load reads: SetLoadDataBoundary (L1_3D_SIZE), SetLoadDataPaddingValue
 * (PADDING), SetLoadDataRepeat (L3D_RPT)
 * (impl/basic_api/dav_c220/kernel_operator_mm_impl.h; the transpose as
 * the devkit's reference script examples/.../load_data_l12l0/scripts/
 * load_data_with_transpose.py and LoadDataWithTranspose.md, the 3-D load
 * as load3d.py and LoadData_3D.md). */
#include <string.h>

#include "checked.h"
#include "cube.h"

#define FIELD(k, f) (x->regs[in->a[(k)] + (f)].i)

enum { FRACTAL = 512 };

/* sub 0: SetLoadDataBoundary(uint32), 1: SetLoadDataPaddingValue<T>(v)
 * (16- and 32-bit T: v's bits; 8-bit: its byte twice, the devkit's
 * Load3DSetPaddingCal), 2: SetLoadDataRepeat(LoadDataRepeatParam):
 * repeatStride | repeatTime << 16 | repeatMode << 24. */
AscStatus sim_cube_set_load_reg(AscExec *x, const AscInstr *in) {
  AscCoreRegs *r = &x->b->regs;
  if (in->imm == 0) {
    r->l1_3d_size = (uint64_t)(uint32_t)ASC_SLOT(x, in, 0).i;
  } else if (in->imm == 1) {
    AscDType dt = in->src->operands[0]->type->dtype;
    AscSlot v = ASC_SLOT(x, in, 0);
    AscScalar sc;
    if (asc_dtype_is_float(dt)) {
      sc.f = v.f;
      sc.i = asc_float_to_int64(v.f);
    } else {
      sc.i = v.i;
      sc.f = (double)v.i;
    }
    uint8_t b[8] = {0};
    asc_store_scalar(dt, b, 0, sc);
    uint64_t bits = 0;
    int es = (int)asc_dtype_size(dt);
    for (int i = 0; i < es && i < 8; i++)
      bits |= (uint64_t)b[i] << (8 * i);
    if (es == 1)
      bits = (bits << 8) | (bits & 0xff);
    r->l3d_padding = bits;
  } else {
    uint64_t stride = (uint64_t)FIELD(0, 0) & 0xffff;
    uint64_t time = (uint64_t)FIELD(0, 1) & 0xff;
    uint64_t mode = (uint64_t)FIELD(0, 2) & 0xff;
    r->l3d_rpt = stride | time << 16 | mode << 24;
    r->l3d_rpt_set = 1;
  }
  return ASC_OK;
}

/* ---- LoadDataWithTranspose ------------------------------------------------
 * Each repeat transposes one square matrix of L1: 16 x 16 of a 16-bit type
 * (one fractal), 32 x 32 bytes of an 8-bit type (two 16 x 32 fractals one
 * above the other) or 16 x 16 of a 32-bit type (two 16 x 8 fractals side by
 * side). The square r is square start_index + r * src_stride (addr_mode 1:
 * - r * src_stride) of src, squares counted in their own size; it goes to
 * dst from byte r * (dst_gap + 1) * 512, its fractal j (dst_frac_gap + 1)
 * * 512 bytes after fractal 0. */

/* the byte offset of element (row, col) of a square in src (dst: frac the
 * bytes between the two fractals) */
static int64_t sq_at(int64_t es, int64_t r, int64_t c, int64_t frac) {
  if (es == 2)
    return (r * 16 + c) * 2;
  if (es == 1)
    return (r / 16) * frac + (r % 16) * 32 + c;
  return (c / 8) * frac + (r * 8 + c % 8) * 4;
}

AscStatus sim_cube_load_transpose(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  int64_t start = FIELD(2, 0), repeat = FIELD(2, 1), stride = FIELD(2, 2);
  int64_t gap = FIELD(2, 3), fgap = FIELD(2, 4), addr_mode = FIELD(2, 5);
  int dm = sim_cube_mem_of_position(dst->position);
  int sm = sim_cube_mem_of_position(src->position);
  int64_t es = (int64_t)asc_dtype_size((AscDType)dst->dtype);
  if (sm != SIM_CMEM_L1 || (dm != SIM_CMEM_L0A && dm != SIM_CMEM_L0B))
    return sim_fail(x, in,
                    "LoadDataWithTranspose moves L1 (A1/B1) to L0A (A2) or "
                    "L0B (B2)");
  if (dst->addr % FRACTAL || src->addr % 32)
    return sim_fail(x, in,
                    "LoadDataWithTranspose: dst must be 512-byte aligned (L0 "
                    "address %lld), src 32-byte aligned (L1 address %lld)",
                    (long long)dst->addr, (long long)src->addr);
  if (addr_mode > 1)
    return sim_fail(x, in,
                    "LoadData2dTransposeParams.addr_mode %lld: 0 (increasing) "
                    "or 1 (decreasing)",
                    (long long)addr_mode);
  if (repeat == 0)
    return ASC_OK;
  int64_t nfrac = es == 2 ? 1 : 2, sq = nfrac * FRACTAL,
          side = es == 1 ? 32 : 16;
  int64_t step = addr_mode ? -stride : stride;
  int64_t last = start + (repeat - 1) * step;
  int64_t lo = last < start ? last : start, hi = last < start ? start : last;
  if (lo < 0)
    return sim_fail(x, in,
                    "LoadDataWithTranspose: with addr_mode 1 repeat %lld of "
                    "start_index %lld, src_stride %lld reads square %lld, "
                    "before src",
                    (long long)(repeat - 1), (long long)start,
                    (long long)stride, (long long)last);
  int64_t frac = (fgap + 1) * FRACTAL;
  int64_t dst_end =
      (repeat - 1) * (gap + 1) * FRACTAL + (nfrac - 1) * frac + FRACTAL;
  int n0 = x->b->ev.n_acc;
  uint8_t *s =
      sim_cube_range(x, in, src, lo * sq, (hi - lo + 1) * sq, 0, "src");
  sim_cube_bounding(x, n0);
  if (!s)
    return ASC_ERR_KERNEL;
  n0 = x->b->ev.n_acc;
  uint8_t *d = sim_cube_range(x, in, dst, 0, dst_end, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  if (gap || fgap || nfrac == 2)
    sim_cube_bounding(x, n0); /* the gaps are not written */
  for (int64_t r = 0; r < repeat; r++) {
    uint8_t tmp[2 * FRACTAL];
    const uint8_t *sf = s + (start + r * step - lo) * sq;
    uint8_t *df = d + r * (gap + 1) * FRACTAL;
    /* through tmp: a square of dst may overlap its source in L1's copy */
    for (int64_t i = 0; i < side; i++)
      for (int64_t j = 0; j < side; j++)
        memcpy(tmp + sq_at(es, i, j, FRACTAL), sf + sq_at(es, j, i, FRACTAL),
               (size_t)es);
    for (int64_t f = 0; f < nfrac; f++)
      memcpy(df + f * frac, tmp + f * FRACTAL, FRACTAL);
  }
  x->b->ev.bytes = repeat * sq;
  x->b->ev.elems = repeat * sq / es;
  return ASC_OK;
}

AscStatus sim_cube_load_3d(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in, "LoadData with LoadData3DParamsV2 is not simulated");
}
