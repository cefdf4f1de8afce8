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
#include "vecmath.h"

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

/* ---- LoadData 3-D (img2col, LoadData3DParamsV2) --------------------------
 * src: a feature map in L1, C1 x H x W x C0 (C0 = 32 bytes of elements,
 * C1 = channel_size / C0), H = l1_h, W = l1_w. Its img2col matrix A has a
 * row per output position (oh, ow) (row oh * Wout + ow) and a column per
 * (c1, kh, kw, c0) (column ((c1 * Hk + kh) * Wk + kw) * C0 + c0); A[r][c] =
 * src[c1][h][w][c0] at h = oh * stride_h + kh * dilation_h - pad_top, w =
 * ow * stride_w + kw * dilation_w - pad_left, the padding value outside the
 * map (Hk = filter_h (+ 256 with filter_size_h), the same for W; Wout =
 * (W + pad_left + pad_right - (Wk - 1) * dilation_w - 1) / stride_w + 1).
 * The load writes the m_extension x k_extension window of A from row
 * m_start_pt, column k_start_pt, in whole fractals of 16 rows x C0: L0A in
 * ZZ (with en_transpose, 16-bit types: fractals column by column, each
 * transposed), L0B (16-bit types) fractals row by row, each transposed (the
 * devkit's load3d.py). As the devkit's LoadData with its default config, it
 * first sets FMATRIX from l1_h, l1_w, pad_list and PADDING from pad_value;
 * SetLoadDataRepeat's repeat_time (never set: 1) windows go one after
 * another into dst, each repeat_stride x 16 rows (repeat_mode 0) or x C0
 * columns (1) after the previous one; with SetLoadDataBoundary's boundary
 * b, an L1 byte address a >= b reads address a - b (the map wraps to L1's
 * start). */
/* the element a load of es bytes takes from the PADDING register: its
 * low bytes */
static void pad_bytes(uint64_t pad, uint8_t out[8]) {
  for (int i = 0; i < 8; i++)
    out[i] = (uint8_t)(pad >> (8 * i));
}

/* imm 0: LoadData3DParamsV2 (sets FMATRIX and PADDING from the params
 * first), 1: LoadData3DParamsV2Pro (the window and filter packed in
 * ext_config and filter_config as the devkit's LOAD_* shifts; the map's
 * l1_h, l1_w and pad_list from FMATRIX, the padding from PADDING). */
AscStatus sim_cube_load_3d(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  AscCoreRegs *r = &x->b->regs;
  int pro = in->imm == 1;
  int64_t pl, pr, pt, pb, h, w, ch, kext, mext, kst, mst, sw, sh, fw, fh, dw,
      dh, tr, fsw, fsh;
  if (pro) {
    uint64_t ext = (uint64_t)FIELD(2, 6), flt = (uint64_t)FIELD(2, 7);
    ch = FIELD(2, 0);
    tr = FIELD(2, 1);
    fsw = FIELD(2, 3);
    fsh = FIELD(2, 4);
    if (FIELD(2, 5))
      return sim_fail(x, in,
                      "LoadData3DParamsV2Pro.f_matrix_ctrl 1 reads the right "
                      "FMATRIX register, which nothing here sets");
    if (!r->fmatrix_set)
      return sim_fail(x, in,
                      "LoadData3DParamsV2Pro reads the FMATRIX register (the "
                      "feature map's l1_h, l1_w and pad_list), which no "
                      "LoadData with LoadData3DParamsV2 has set");
    kext = (int64_t)(ext & 0xffff);
    mext = (int64_t)((ext >> 16) & 0xffff);
    kst = (int64_t)((ext >> 32) & 0xffff);
    mst = (int64_t)((ext >> 48) & 0xffff);
    sw = (int64_t)(flt & 0xff);
    sh = (int64_t)((flt >> 8) & 0xff);
    fw = (int64_t)((flt >> 16) & 0xff);
    fh = (int64_t)((flt >> 24) & 0xff);
    dw = (int64_t)((flt >> 32) & 0xff);
    dh = (int64_t)((flt >> 40) & 0xff);
    w = (int64_t)(r->fmatrix & 0xffff);
    h = (int64_t)((r->fmatrix >> 16) & 0xffff);
    pl = (int64_t)((r->fmatrix >> 32) & 0xff);
    pr = (int64_t)((r->fmatrix >> 40) & 0xff);
    pt = (int64_t)((r->fmatrix >> 48) & 0xff);
    pb = (int64_t)((r->fmatrix >> 56) & 0xff);
  } else {
    pl = FIELD(2, 0);
    pr = FIELD(2, 1);
    pt = FIELD(2, 2);
    pb = FIELD(2, 3);
    h = FIELD(2, 4);
    w = FIELD(2, 5);
    ch = FIELD(2, 6);
    kext = FIELD(2, 7);
    mext = FIELD(2, 8);
    kst = FIELD(2, 9);
    mst = FIELD(2, 10);
    sw = FIELD(2, 11);
    sh = FIELD(2, 12);
    fw = FIELD(2, 13);
    fh = FIELD(2, 14);
    dw = FIELD(2, 15);
    dh = FIELD(2, 16);
    tr = FIELD(2, 17);
    fsw = FIELD(2, 20);
    fsh = FIELD(2, 21);
  }
  int dm = sim_cube_mem_of_position(dst->position);
  AscDType dt = (AscDType)dst->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), c0 = 32 / es;
  if (sim_cube_mem_of_position(src->position) != SIM_CMEM_L1 ||
      (dm != SIM_CMEM_L0A && dm != SIM_CMEM_L0B))
    return sim_fail(x, in,
                    "LoadData (3-D) moves L1 (A1/B1) to L0A (A2) or L0B "
                    "(B2)");
  if (dst->addr % FRACTAL || src->addr % 32)
    return sim_fail(x, in,
                    "LoadData (3-D): dst must be 512-byte aligned (L0 address "
                    "%lld), src 32-byte aligned (L1 address %lld)",
                    (long long)dst->addr, (long long)src->addr);
  /* the devkit's LoadData (3-D) page for the Atlas A2: no b8 into L0B, and
   * transposed into L0A b16 / b32 only */
  if ((tr || dm == SIM_CMEM_L0B) && es == 1)
    return sim_fail(x, in,
                    "LoadData (3-D) of an 8-bit type %s is not supported on "
                    "the Ascend910B",
                    dm == SIM_CMEM_L0B ? "into L0B" : "with en_transpose");
  if (!pro) { /* the registers the load sets first (the devkit's default
               * IsResetLoad3dConfig: Load3DSetFMatrixCal, Load3DSetPaddingCal)
               */
    AscSlot padv = x->regs[in->a[2] + 19];
    r->fmatrix = ((uint64_t)w & 0xffff) | ((uint64_t)h & 0xffff) << 16 |
                 ((uint64_t)pl & 0xff) << 32 | ((uint64_t)pr & 0xff) << 40 |
                 ((uint64_t)pt & 0xff) << 48 | ((uint64_t)pb & 0xff) << 56;
    r->fmatrix_set = 1;
    AscScalar sc;
    if (asc_dtype_is_float(dt)) {
      sc.f = padv.f;
      sc.i = asc_float_to_int64(padv.f);
    } else {
      sc.i = padv.i;
      sc.f = (double)padv.i;
    }
    uint8_t b[8] = {0};
    asc_store_scalar(dt, b, 0, sc);
    uint64_t bits = 0;
    for (int64_t i = 0; i < es; i++)
      bits |= (uint64_t)b[i] << (8 * i);
    r->l3d_padding = es == 1 ? (bits << 8) | bits : bits;
  }
  int64_t rep = r->l3d_rpt_set ? (int64_t)((r->l3d_rpt >> 16) & 0xff) : 1;
  int64_t rstride = (int64_t)(r->l3d_rpt & 0xffff);
  int64_t rmode = (int64_t)((r->l3d_rpt >> 24) & 0xff);
  if (fsw)
    fw += 256;
  if (fsh)
    fh += 256;
  if (h < 1 || w < 1 || sw < 1 || sh < 1 || fw < 1 || fh < 1 || dw < 1 ||
      dh < 1)
    return sim_fail(x, in,
                    "LoadData3DParamsV2: l1_h %lld, l1_w %lld, the strides "
                    "%lld, %lld, the filter %lld x %lld and its dilations "
                    "%lld, %lld must be at least 1",
                    (long long)h, (long long)w, (long long)sh, (long long)sw,
                    (long long)fh, (long long)fw, (long long)dh, (long long)dw);
  if (ch < 1 || ch % c0 || kext % c0 || kst % c0)
    return sim_fail(x, in,
                    "LoadData3DParamsV2: channel_size %lld, k_extension %lld "
                    "and k_start_pt %lld must be multiples of C0 = %lld (other "
                    "values are not simulated)",
                    (long long)ch, (long long)kext, (long long)kst,
                    (long long)c0);
  int64_t wout = (w + pl + pr - (fw - 1) * dw - 1) / sw + 1;
  int64_t hout = (h + pt + pb - (fh - 1) * dh - 1) / sh + 1;
  if (wout < 1 || hout < 1)
    return sim_fail(x, in,
                    "LoadData3DParamsV2: the dilated filter (%lld x %lld) is "
                    "larger than the padded feature map (%lld x %lld)",
                    (long long)((fh - 1) * dh + 1),
                    (long long)((fw - 1) * dw + 1), (long long)(h + pt + pb),
                    (long long)(w + pl + pr));
  if (rep == 0 || mext == 0 || kext == 0)
    return ASC_OK;
  int64_t m1 = (mext + 15) / 16, k1 = kext / c0;
  /* 32-bit types transposed (L0A with en_transpose, L0B): the window's k
   * rounded up to 16 (kp), each 16 rows of m split in two halves of 8,
   * each half a kp x 8 block (the devkit's load3d.py,
   * _process_b32_transpose); the columns past k_extension are not written */
  int b32t = es == 4 && (tr || dm == SIM_CMEM_L0B);
  int64_t kp = (kext + 15) / 16 * 16;
  int64_t per = b32t ? m1 * kp * 16 * es
                     : m1 * k1 * FRACTAL; /* the bytes of one window */
  int64_t map_bytes = ch * h * w * es;
  uint64_t bound = r->l1_3d_size;
  int n0 = x->b->ev.n_acc;
  const uint8_t *s;
  int64_t base = 0; /* the L1 address s points at */
  if (bound) {      /* the reads may wrap: view L1 from 0 to the boundary */
    AscTensorRef l1 = *src;
    l1.addr = 0;
    l1.len = -1;
    if ((int64_t)bound > sim_cube_mem_size(x->b, SIM_CMEM_L1) ||
        src->addr >= (int64_t)bound)
      return sim_fail(x, in,
                      "LoadData (3-D): the boundary %llu (SetLoadDataBoundary) "
                      "must lie within L1 and after src (L1 address %lld)",
                      (unsigned long long)bound, (long long)src->addr);
    s = sim_cube_range(x, in, &l1, 0, (int64_t)bound, 0, "src");
  } else {
    s = sim_cube_range(x, in, src, 0, map_bytes, 0, "src");
    base = src->addr;
  }
  sim_cube_bounding(x, n0); /* a window reads what it reads */
  if (!s)
    return ASC_ERR_KERNEL;
  n0 = x->b->ev.n_acc;
  uint8_t *d = sim_cube_range(x, in, dst, 0, rep * per, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  if (b32t && kp != kext)
    sim_cube_bounding(x, n0); /* the columns past k_extension */
  uint8_t pad[8];
  pad_bytes(r->l3d_padding, pad);
  int64_t hk = fh * fw;
  for (int64_t t = 0; t < rep; t++) {
    int64_t ms = mst + (rmode == 0 ? t * rstride * 16 : 0);
    int64_t ks = kst + (rmode == 1 ? t * rstride * c0 : 0);
    uint8_t *dw0 = d + t * per;
    for (int64_t mi = 0; mi < m1 * 16; mi++)
      for (int64_t ki = 0; ki < kext; ki++) {
        int64_t row = ms + mi, col = ks + ki;
        int64_t cc1 = col / (hk * c0), kpos = (col / c0) % hk, cc0 = col % c0;
        int64_t kh = kpos / fw, kw = kpos % fw;
        int64_t oh = row / wout, ow = row % wout;
        int64_t ih = oh * sh + kh * dh - pt, iw = ow * sw + kw * dw - pl;
        const uint8_t *e = pad;
        if (ih >= 0 && ih < h && iw >= 0 && iw < w && cc1 < ch / c0) {
          int64_t a = src->addr + (((cc1 * h + ih) * w + iw) * c0 + cc0) * es;
          if (bound && a >= (int64_t)bound)
            a -= (int64_t)bound;
          if (a - base < 0 ||
              a - base + es > (bound ? (int64_t)bound : map_bytes))
            return sim_fail(x, in,
                            "LoadData (3-D): the feature map read wraps "
                            "past the boundary twice");
          e = s + (a - base);
        }
        int64_t fm = mi / 16, fk = ki / c0, at;
        int64_t half = (mi % 16) / 8;
        if (b32t && dm == SIM_CMEM_L0B) /* [m1][2][kp][8] */
          at = ((fm * 2 + half) * kp + ki) * 8 + mi % 8;
        else if (b32t) /* [kp / 16][m1][2][16][8] */
          at = ((((ki / 16) * m1 + fm) * 2 + half) * 16 + ki % 16) * 8 + mi % 8;
        else if (dm == SIM_CMEM_L0A && !tr) /* ZZ */
          at = ((fm * k1 + fk) * 16 + mi % 16) * c0 + ki % c0;
        else if (dm == SIM_CMEM_L0A) /* fractals by column, transposed */
          at = ((fk * m1 + fm) * c0 + ki % c0) * 16 + mi % 16;
        else /* L0B: fractals by row, transposed */
          at = ((fm * k1 + fk) * c0 + ki % c0) * 16 + mi % 16;
        memcpy(dw0 + at * es, e, (size_t)es);
      }
  }
  x->b->ev.bytes = rep * per;
  x->b->ev.elems = rep * per / es;
  return ASC_OK;
}
