/* The basic cube API on arch 2201: DataCopy GM -> L1 with Nd2NzParams,
 * LoadData (2-D) L1 -> L0A / L0B and Mmad (Fixpipe: cube_fixpipe.c).
 *
 * Layouts (the devkit's Mmad and LoadData pages): a fractal is 16 rows of
 * C0 = 32 bytes (16x16 for 16-bit types, 16x32 for 8-bit, 16x8 for
 * 32-bit), 512 bytes. L1 holds NZ matrices (column blocks of C0 elements,
 * each block's rows contiguous); L0A holds A[m][k] in ZZ (fractals row by
 * row, each row-major: A[i][j] at ((i/16)*K1 + j/k0)*16*k0 + (i%16)*k0 +
 * j%k0); L0B holds B[k][n] in ZN (fractals row by row over (k, n), each
 * column-major: B[j][c] at ((j/k0)*N1 + c/16)*16*k0 + (c%16)*k0 + j%k0);
 * L0C holds C[m][n] in NZ (fractals of 16x16 column by column: C[i][c] at
 * ((c/16)*M1 + i/16)*256 + (i%16)*16 + c%16), M1, N1, K1 the fractal
 * counts of m, n, k. */
#include <math.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "cube_mmad.h"
#include "vecmath.h"

#define FIELD(k, f) (x->regs[in->a[(k)] + (f)].i)

enum { FRACTAL = 512 };

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* ---- DataCopy GM -> L1, Nd2NzParams ------------------------------------ */

/* family: matmul (mmseq): the data movement, shared with asc.adv.Matmul's
 * GM -> L1 copies (matmul_block.c) */
void sim_cube_nd2nz_move(const SimNd2Nz *p, int64_t es, const SimGmSpan *g,
                         uint8_t *o) {
  int64_t c0 = 32 / es, blocks = ceil_div(p->d, c0);
  /* the source wholly inside its argument: 32-byte blocks copied whole */
  int whole = g->p && g->skip == 0 && g->valid == g->total;
  for (int64_t m = 0; m < p->nd; m++)
    for (int64_t b = 0; b < blocks; b++) {
      int64_t len = p->d - b * c0 < c0 ? p->d - b * c0 : c0;
      for (int64_t r = 0; r < p->n; r++) {
        uint8_t *row =
            o +
            ((m * p->dst_mat) + (b * p->c0_stride + r * p->n_stride) * c0) * es;
        int64_t at = (m * p->src_mat + r * p->src_d + b * c0) * es;
        if (whole && len == c0) {
          memcpy(row, g->p + at, 32);
          continue;
        }
        /* the columns past d in the last block are zeros */
        memset(row, 0, 32);
        for (int64_t c = 0; c < len; c++) {
          int64_t e = at + c * es - g->skip;
          if (g->p && e >= 0 && e + es <= g->valid)
            memcpy(row + c * es, g->p + e, (size_t)es);
        }
      }
    }
}

AscStatus sim_cube_nd2nz(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  int64_t nd = FIELD(2, 0), n = FIELD(2, 1), d = FIELD(2, 2);
  int64_t src_mat = FIELD(2, 3), src_d = FIELD(2, 4);
  int64_t c0_stride = FIELD(2, 5), n_stride = FIELD(2, 6);
  int64_t dst_mat = FIELD(2, 7);
  int64_t es = (int64_t)asc_dtype_size((AscDType)dst->dtype), c0 = 32 / es;
  if (sim_cube_mem_of_position(dst->position) != SIM_CMEM_L1)
    return sim_fail(x, in,
                    "dst: DataCopy with Nd2NzParams writes L1 (A1, B1 "
                    "or C1)");
  if (dst->addr % 32)
    return sim_fail(x, in, "dst: L1 address %lld is not 32-byte aligned",
                    (long long)dst->addr);
  if (nd == 0 || n == 0 || d == 0)
    return ASC_OK;
  /* the devkit's ranges; dst_nz_matrix_stride 0 (nd_num 1, or each NZ
   * matrix over the first) and src_nd_matrix_stride 0 (the first ND
   * matrix again) are allowed */
  if (n > 16384 || nd > 4095 || src_d < 1 || c0_stride < 1 || n_stride < 1 ||
      c0_stride > 16384 || n_stride > 16384 || dst_mat > 16384)
    return sim_fail(x, in,
                    "Nd2NzParams out of range: nd_num %lld (at most 4095), "
                    "n_value %lld (at most 16384), src_d_value %lld (at least "
                    "1), dst_nz_c0_stride %lld, dst_nz_n_stride %lld (1 to "
                    "16384), dst_nz_matrix_stride %lld (at most 16384)",
                    (long long)nd, (long long)n, (long long)src_d,
                    (long long)c0_stride, (long long)n_stride,
                    (long long)dst_mat);
  int64_t blocks = ceil_div(d, c0);
  /* the 16-bit fields keep every product below 2^50 */
  int64_t dst_end =
      ((nd - 1) * dst_mat +
       ((blocks - 1) * c0_stride + (n - 1) * n_stride) * c0 + c0) *
      es;
  int64_t src_count = (nd - 1) * src_mat + (n - 1) * src_d + d;
  /* more 32-byte blocks in one NZ matrix than its range holds: the
   * strides overlap them (and the work would not be bounded by L1) */
  int64_t one = ((blocks - 1) * c0_stride + (n - 1) * n_stride + 1) * 32;
  if (n * blocks * 32 > one)
    return sim_fail(x, in,
                    "Nd2NzParams: the %lld 32-byte blocks of an NZ matrix "
                    "overlap (dst_nz_c0_stride %lld, dst_nz_n_stride %lld "
                    "leave %lld bytes for them)",
                    (long long)(n * blocks), (long long)c0_stride,
                    (long long)n_stride, (long long)one);
  int n0 = x->b->ev.n_acc;
  uint8_t *o = sim_cube_range(x, in, dst, 0, dst_end, 1, "dst");
  sim_cube_bounding(x, n0); /* rows n_stride apart, blocks c0_stride apart */
  SimGmSpan g;
  int g0 = x->b->ev.n_acc;
  if (!o || sim_gm_span(x, in, src, src_count, 0, "src", &g))
    return ASC_ERR_KERNEL;
  SimNd2Nz p = {nd, n, d, src_mat, src_d, c0_stride, n_stride, dst_mat};
  sim_cube_nd2nz_move(&p, es, &g, o);
  x->b->ev.bytes = nd * n * d * es;
  x->b->ev.elems = nd * n * d;
  /* one burst a row (the timing model); rows evenly spaced in GM when the
   * matrices follow one another: the runs read, for the sanitizer too */
  x->b->ev.bursts = nd * n;
  if (nd * n > 1 && src_d != d && (nd == 1 || src_mat == n * src_d))
    for (int i = g0; i < x->b->ev.n_acc; i++) {
      AscAccess *a = &x->b->ev.acc[i];
      a->rows = (int32_t)(nd * n);
      a->row0 = src->addr;
      a->row_len = d * es;
      a->row_step = src_d * es;
    }
  return ASC_OK;
}

/* ---- LoadData 2-D: L1 -> L0A / L0B -------------------------------------- */

/* imm 1: the GM source (MTE2; src 1-byte aligned, no transpose) */
AscStatus sim_cube_load_2d(AscExec *x, const AscInstr *in) {
  int from_gm = in->imm == 1;
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  int64_t start = FIELD(2, 0), repeat = FIELD(2, 1), stride = FIELD(2, 2);
  int64_t gap = FIELD(2, 4), transpose = FIELD(2, 5), addr_mode = FIELD(2, 6);
  int dm = sim_cube_mem_of_position(dst->position);
  int sm = from_gm ? SIM_CMEM_L1 : sim_cube_mem_of_position(src->position);
  int64_t es = (int64_t)asc_dtype_size((AscDType)dst->dtype);
  if (sm != SIM_CMEM_L1 || (dm != SIM_CMEM_L0A && dm != SIM_CMEM_L0B))
    return sim_fail(x, in,
                    "LoadData (2-D) moves L1 (A1/B1) or GM to L0A (A2) or "
                    "L0B (B2)");
  if (from_gm && transpose)
    return sim_fail(x, in,
                    "LoadData from GM cannot transpose (only L1 -> "
                    "L0A / L0B can)");
  if (dst->addr % FRACTAL || (!from_gm && src->addr % 32))
    return sim_fail(x, in,
                    "LoadData: dst must be 512-byte aligned (L0 address "
                    "%lld), src 32-byte aligned (L1 address %lld)",
                    (long long)dst->addr, (long long)src->addr);
  if (transpose && es != 2)
    return sim_fail(x, in,
                    "LoadData 2-D with if_transpose takes 16-bit types on "
                    "this arch (8-bit: load_data_with_transpose)");
  if (addr_mode > 1)
    return sim_fail(x, in,
                    "LoadData2DParams.addr_mode %lld: 0 (increasing fractal "
                    "indices) or 1 (decreasing)",
                    (long long)addr_mode);
  if (repeat == 0)
    return ASC_OK;
  /* the fractals src reads: start + r * step for r < repeat */
  int64_t step = addr_mode ? -stride : stride;
  int64_t last = start + (repeat - 1) * step;
  int64_t lo_frac = last < start ? last : start;
  int64_t hi_frac = last < start ? start : last;
  if (lo_frac < 0)
    return sim_fail(x, in,
                    "LoadData: with addr_mode 1 repeat %lld of start_index "
                    "%lld, src_stride %lld reads fractal %lld, before src",
                    (long long)(repeat - 1), (long long)start,
                    (long long)stride, (long long)last);
  int64_t dst_end = ((repeat - 1) * (1 + gap) + 1) * FRACTAL;
  int64_t src_bytes = (hi_frac - lo_frac + 1) * FRACTAL;
  int n0 = x->b->ev.n_acc;
  uint8_t *s = NULL;
  SimGmSpan g;
  if (from_gm) {
    AscTensorRef sub = *src;
    if (asc_add_i64(src->addr, lo_frac * FRACTAL, &sub.addr))
      return sim_fail(x, in, "src: GM address out of range");
    if (sim_gm_span(x, in, &sub, src_bytes / es, 0, "src", &g))
      return ASC_ERR_KERNEL;
  } else {
    s = sim_cube_range(x, in, src, lo_frac * FRACTAL, src_bytes, 0, "src");
    sim_cube_bounding(x, n0);
    if (!s)
      return ASC_ERR_KERNEL;
  }
  n0 = x->b->ev.n_acc;
  uint8_t *d = sim_cube_range(x, in, dst, 0, dst_end, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  if (gap)
    sim_cube_bounding(x, n0); /* the gaps are not written */
  for (int64_t r = 0; r < repeat; r++) {
    int64_t off = (start + r * step - lo_frac) * FRACTAL;
    uint8_t *df = d + r * (1 + gap) * FRACTAL;
    if (from_gm) { /* bytes outside the argument read as zeros */
      for (int64_t i = 0; i < FRACTAL; i++) {
        int64_t at = off + i - g.skip;
        df[i] = g.p && at >= 0 && at < g.valid ? g.p[at] : 0;
      }
      continue;
    }
    const uint8_t *sf = s + off;
    if (!transpose) {
      memmove(df, sf, FRACTAL);
      continue;
    }
    uint8_t tmp[FRACTAL];
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 16; j++)
        memcpy(tmp + (j * 16 + i) * 2, sf + (i * 16 + j) * 2, 2);
    memcpy(df, tmp, FRACTAL);
  }
  x->b->ev.bytes = repeat * FRACTAL;
  x->b->ev.elems = repeat * FRACTAL / es;
  return ASC_OK;
}

/* ---- Mmad ------------------------------------------------------------------
 * C (+)= A B with fp32 accumulation (int32 for int8): each product of two
 * fp16 / bf16 values is exact in fp32; the sum runs over k in order, each
 * addition rounded to fp32. */

/* imm 1: the bias form Mmad(dst, fm, filter, bias, params) */
AscStatus sim_cube_mmad(AscExec *x, const AscInstr *in) {
  int with_bias = in->imm == 1, pk = with_bias ? 4 : 3;
  const AscTensorRef *c = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *a = c ? sim_tensor_arg(x, in, 1, "fm") : NULL;
  const AscTensorRef *b = a ? sim_tensor_arg(x, in, 2, "filter") : NULL;
  const AscTensorRef *bias =
      b && with_bias ? sim_tensor_arg(x, in, 3, "bias") : NULL;
  if (!b || (with_bias && !bias))
    return ASC_ERR_KERNEL;
  int64_t m = FIELD(pk, 0), n = FIELD(pk, 1), k = FIELD(pk, 2);
  int64_t is_bias = FIELD(pk, 3), source = FIELD(pk, 9), init = FIELD(pk, 10);
  /* unitFlag 2 / 3: ordered with unit-flag Fixpipes by the hardware */
  int64_t unit = FIELD(pk, 8);
  int uf = unit == 2 || unit == 3;
  if (uf) {
    AscStatus us = sim_unit_flag_begin(x, in, 1);
    if (us)
      return us;
  }
  if (sim_cube_mem_of_position(c->position) != SIM_CMEM_L0C ||
      sim_cube_mem_of_position(a->position) != SIM_CMEM_L0A ||
      sim_cube_mem_of_position(b->position) != SIM_CMEM_L0B)
    return sim_fail(x, in,
                    "Mmad: dst in L0C (CO1), fm in L0A (A2), filter "
                    "in L0B (B2)");
  if (sim_mmad_dims(x, in, "Mmad", m, n, k))
    return ASC_ERR_KERNEL;
  const uint8_t *pbias = NULL;
  if (with_bias) {
    /* the devkit's MmadImpl: a bias in the bias table makes cmatrixSource
     * 1, one in L0C 0 (C's own values); the params' flag is not used */
    int bm = sim_cube_mem_of_position(bias->position);
    if (bm != SIM_CMEM_BT && bm != SIM_CMEM_L0C)
      return sim_fail(x, in,
                      "Mmad: the bias is in the bias table (C2) or "
                      "L0C (CO1)");
    if (bm == SIM_CMEM_BT && bias->addr % 64)
      return sim_fail(x, in,
                      "Mmad: bias table address %lld is not 64-byte aligned",
                      (long long)bias->addr);
    source = bm == SIM_CMEM_BT;
    if (source && m && n && k &&
        !(pbias = sim_cube_range(x, in, bias, 0, n * 4, 0, "bias")))
      return ASC_ERR_KERNEL;
  } else {
    if (source)
      return sim_fail(x, in,
                      "Mmad: cmatrix_source 1 takes C from the bias table, "
                      "which this form has no tensor of (use the bias form)");
    /* the devkit's MmadCal: is_bias keeps the L0C values (C += A B) */
    init = init && !is_bias;
  }
  AscDType it = (AscDType)a->dtype;
  int64_t ies = (int64_t)asc_dtype_size(it), k0 = 32 / ies;
  int64_t m1 = ceil_div(m, 16), n1 = ceil_div(n, 16), k1 = ceil_div(k, k0);
  if (m == 0 || n == 0 || k == 0)
    return ASC_OK;
  int n0 = x->b->ev.n_acc;
  uint8_t *pa = sim_cube_range(x, in, a, 0, m1 * k1 * FRACTAL, 0, "fm");
  uint8_t *pb =
      pa ? sim_cube_range(x, in, b, 0, k1 * n1 * FRACTAL, 0, "filter") : NULL;
  sim_cube_bounding(x, n0); /* whole fractals, padding included */
  uint8_t *pc =
      pb ? sim_cube_range(x, in, c, 0, m1 * n1 * 256 * 4, 1, "dst") : NULL;
  if (!pc)
    return ASC_ERR_KERNEL;
  /* the arithmetic: cube_mmad.c (the start of each sum: 0, the column's
   * bias, or C) */
  SimMmad mp = {it,
                m,
                n,
                k,
                (int)init,
                pbias,
                x->b->regs.hf32_mode,
                x->b->regs.hf32_trans_mode};
  if (!sim_mmad_compute(&mp, pa, pb, pc))
    return sim_fail(x, in, "Mmad: out of host memory");
  /* the timing model's work: 16 x 16 x k0 fractal products, each k0 /
   * cube_k cycles of the unit (docs/zh/api/附录/Cube指令理论性能汇总.md,
   * arch 2201: cube_k = k0 for int8, half and bfloat16, 4 = k0 / 2 for
   * float) */
  x->b->ev.elems = m1 * n1 * k1 * (it == ASC_DT_FLOAT32 ? 2 : 1);
  x->b->ev.bytes = m1 * n1 * 256 * 4;
  return uf ? sim_unit_flag_end(x, in, 1) : ASC_OK;
}

/* ---- DataCopy L1 (C1) -> bias table (C2) --------------------------------
 * imm 0: count elements (count * sizeof(T) / 64 blocks of 64 bytes, the
 * devkit's blockLen), 1: DataCopyParams (block_len in 64 bytes, src_stride
 * 32-byte and dst_stride 64-byte units between blocks). */
AscStatus sim_cube_l1_to_bt(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  if (!src)
    return ASC_ERR_KERNEL;
  /* DataCopy<float, half>: each half of L1 widened exactly to a float of
   * the table, so a block writes twice its bytes (the devkit's
   * DataCopyL12BTImpl with isEnableConv; always the DataCopyParams form) */
  int widen = in->op == ASC_OP_DATA_COPY_P_L1_BT_CONV;
  int64_t es = (int64_t)asc_dtype_size((AscDType)dst->dtype);
  int64_t count = 1, len, sgap = 0, dgap = 0;
  if (in->imm == 0 && !widen) {
    len = ASC_SLOT(x, in, 2).i * es / 64;
  } else {
    count = FIELD(2, 0);
    len = FIELD(2, 1);
    sgap = FIELD(2, 2);
    dgap = FIELD(2, 3);
  }
  if (sim_cube_mem_of_position(dst->position) != SIM_CMEM_BT ||
      sim_cube_mem_of_position(src->position) != SIM_CMEM_L1)
    return sim_fail(x, in,
                    "DataCopy to the bias table: dst at C2, src in L1 "
                    "(C1)");
  if (dst->addr % 64 || src->addr % 32)
    return sim_fail(x, in,
                    "DataCopy L1 -> bias table: dst must be 64-byte aligned "
                    "(address %lld), src 32-byte aligned (address %lld)",
                    (long long)dst->addr, (long long)src->addr);
  if (count > 4095)
    return sim_fail(x, in, "DataCopyParams.block_count %lld: at most 4095",
                    (long long)count);
  if (count == 0 || len == 0)
    return ASC_OK;
  int64_t out = len * 64 * (widen ? 2 : 1); /* bytes a block writes */
  int64_t sstep = len * 64 + sgap * 32, dstep = out + dgap * 64;
  uint8_t *s =
      sim_cube_range(x, in, src, 0, (count - 1) * sstep + len * 64, 0, "src");
  uint8_t *d =
      s ? sim_cube_range(x, in, dst, 0, (count - 1) * dstep + out, 1, "dst")
        : NULL;
  if (!d)
    return ASC_ERR_KERNEL;
  for (int64_t i = 0; i < count; i++) {
    if (!widen) {
      memmove(d + i * dstep, s + i * sstep, (size_t)(len * 64));
      continue;
    }
    for (int64_t e = 0; e < len * 32; e++) {
      uint16_t h;
      memcpy(&h, s + i * sstep + e * 2, 2);
      float f = asc_f16_to_f32(h);
      memcpy(d + i * dstep + e * 4, &f, 4);
    }
  }
  x->b->ev.bytes = count * len * 64;
  x->b->ev.elems = widen ? count * len * 32 : x->b->ev.bytes / es;
  return ASC_OK;
}

/* ---- InitConstValue -------------------------------------------------------
 * repeat_times repeats of block_num blocks (32 bytes in L1, 512 in L0A /
 * L0B), dst_gap blocks between a repeat's end and the next one's start,
 * every element the value (the devkit's create_cbuf_matrix /
 * create_ca_matrix / create_cb_matrix). imm 1: dst in L0A / L0B. */
AscStatus sim_cube_init_const(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  if (!dst)
    return ASC_ERR_KERNEL;
  int64_t repeat = FIELD(1, 0), blocks = FIELD(1, 1), gap = FIELD(1, 2);
  int mem = sim_cube_mem_of_position(dst->position);
  int l0 = mem == SIM_CMEM_L0A || mem == SIM_CMEM_L0B;
  if (!l0 && mem != SIM_CMEM_L1)
    return sim_fail(x, in,
                    "InitConstValue fills L1 (A1/B1), L0A (A2) or "
                    "L0B (B2)");
  int64_t blk = l0 ? FRACTAL : 32;
  if (dst->addr % blk)
    return sim_fail(x, in,
                    "InitConstValue: the %s address %lld is not %lld-byte "
                    "aligned",
                    sim_cube_mem_name(mem), (long long)dst->addr,
                    (long long)blk);
  if (repeat > 32767 || blocks > 32767 || gap > 32767)
    return sim_fail(x, in,
                    "InitConstValueParams: repeat_times %lld, block_num %lld, "
                    "dst_gap %lld: each at most 32767",
                    (long long)repeat, (long long)blocks, (long long)gap);
  if (repeat == 0 || blocks == 0)
    return ASC_OK;
  AscDType dt = (AscDType)dst->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  int64_t step = (blocks + gap) * blk, len = blocks * blk;
  int n0 = x->b->ev.n_acc;
  uint8_t *d =
      sim_cube_range(x, in, dst, 0, (repeat - 1) * step + len, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  if (gap)
    sim_cube_bounding(x, n0); /* the gaps are not written */
  AscSlot v = x->regs[in->a[1] + 3];
  AscScalar sc;
  if (asc_dtype_is_float(dt)) {
    sc.f = v.f;
    sc.i = asc_float_to_int64(v.f);
  } else {
    sc.i = v.i;
    sc.f = (double)v.i;
  }
  uint8_t elem[8];
  asc_store_scalar(dt, elem, 0, sc);
  for (int64_t r = 0; r < repeat; r++)
    for (int64_t i = 0; i < len; i += es)
      memcpy(d + r * step + i, elem, (size_t)es);
  x->b->ev.bytes = repeat * len;
  x->b->ev.elems = repeat * len / es;
  return ASC_OK;
}
