/* BilinearInterpolation (half), as the devkit's dav-c220 implementation
 * (kernel_operator_vec_bilinearinterpolation_impl.h) composes it from
 * other instructions through sharedTmpBuffer (viewed as half), with
 * N = (uint8_t)(hRepeat * vRepeat):
 *   1. Gatherb: block k < 8N of tmp is the 32 bytes at src0 + offset[k]
 *      (byte offsets from src0's address);
 *   2. Brcb: from half N * 128 of tmp, block j < src1.GetSize() / 8 * 8
 *      holds src1[j] 16 times;
 *   3. Mul (counter mode, all N * 128 elements, no mask): repeat r of the
 *      gathered data times broadcast block r (repeatMode false) or blocks
 *      8r..8r+7 (true), rounded to half;
 *   4. Add (the mask): for each vertical i, repeat i * hRepeat accumulates
 *      repeats i * hRepeat + 1 .. + hRepeat - 1 in order, rounded to half;
 *   5. Adds of 0 (the mask): repeat i * hRepeat to dst's repeat i, dst's
 *      blocks dstBlkStride apart and repeats (uint8_t)(vROffset * 2 / 32)
 *      blocks apart (x + 0 turns -0 into +0).
 * The mask register is left as the mask sets it, in normal mode. Brcb
 * writes whole repeats of 8 blocks from src1's size, which may pass the
 * end of a tmp buffer sized for the blocks the Mul reads (the overrun is a
 * warning in PYASC_SANITIZE=warn, as on an NPU, and an error otherwise). */
#include <string.h>

#include "sim.h"

enum { BLK = 32, REP_ELEMS = 128 };

static float ld_h(const uint8_t *p, int64_t i) {
  uint16_t h;
  memcpy(&h, p + 2 * i, 2);
  return asc_f16_to_f32(h);
}

static void st_h(uint8_t *p, int64_t i, float v) {
  uint16_t h = asc_f32_to_f16(v);
  memcpy(p + 2 * i, &h, 2);
}

static int mask_bit(uint64_t lo, uint64_t hi, int e) {
  return e < 64 ? (int)((lo >> e) & 1) : (int)((hi >> (e - 64)) & 1);
}

/* t's range [lo, hi) in bytes from its address, as one access. */
static uint8_t *range(AscExec *x, const AscInstr *in, int k, int64_t lo,
                      int64_t hi, int write, const char *what) {
  const AscTensorRef *t = &ASC_SLOT(x, in, k).t;
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  if (t->addr % BLK) {
    sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned", what,
             (long long)t->addr);
    return NULL;
  }
  if (hi <= lo)
    return x->b->ub + t->addr; /* nothing touched */
  AscTensorRef sub = *t;
  sub.addr = t->addr + lo;
  if (t->len >= 0)
    sub.len = t->len - lo / es < 0 ? 0 : t->len - lo / es;
  uint8_t *p = sim_local_ptr(x, in, &sub, (hi - lo + es - 1) / es, write, what);
  return p ? p - lo : NULL;
}

AscStatus sim_vec_bilinear(AscExec *x, const AscInstr *in) {
  for (int k = 0; k < 4; k++)
    if (!sim_tensor_arg(x, in, k, "operand"))
      return ASC_ERR_KERNEL;
  if (!sim_tensor_arg(x, in, 11, "shared_tmp_buffer"))
    return ASC_ERR_KERNEL;
  uint64_t m0 = (uint64_t)ASC_SLOT(x, in, 4).i,
           m1 = (uint64_t)ASC_SLOT(x, in, 5).i;
  int64_t h = (uint8_t)ASC_SLOT(x, in, 6).i;
  AscSlot rm = ASC_SLOT(x, in, 7);
  int mode = asc_dtype_is_float(in->src->operands[7]->type->dtype) ? rm.f != 0
                                                                   : rm.i != 0;
  int64_t dst_blk = (uint16_t)ASC_SLOT(x, in, 8).i;
  int64_t vro = (uint16_t)ASC_SLOT(x, in, 9).i;
  int64_t v = (uint8_t)ASC_SLOT(x, in, 10).i;
  int64_t n = (uint8_t)(h * v);
  int64_t dst_rep = (uint8_t)(vro * 2 / BLK), src_rep = (uint8_t)(h * 8);
  const AscTensorRef *s1t = &ASC_SLOT(x, in, 3).t;
  if (s1t->len < 0)
    return sim_fail(x, in,
                    "src1: a LocalTensor of unknown size (Brcb "
                    "broadcasts src1.GetSize() / 8 repeats)");
  int64_t nb = s1t->len / 8 * 8; /* broadcast blocks */
  /* the mask register as the Add and the Adds set it */
  uint64_t lo = m0, hi = m1;
  if (!(in->imm2 & 1))
    sim_vec_mask_words(REP_ELEMS, m0, &hi, &lo);
  x->b->regs.mask_counter = 0;
  x->b->regs.mask_low = lo;
  x->b->regs.mask_high = hi;

  /* operands: the offsets, then the gathered blocks' bounding range */
  const uint8_t *offp = range(x, in, 2, 0, 4 * 8 * n, 0, "src0_offset");
  if (!offp)
    return ASC_ERR_KERNEL;
  int64_t omin = INT64_MAX, omax = -1;
  for (int64_t k = 0; k < 8 * n; k++) {
    uint32_t o;
    memcpy(&o, offp + 4 * k, 4);
    if (o % BLK)
      return sim_fail(x, in,
                      "src0_offset[%lld] = %u is not a multiple of 32 (the "
                      "byte offset of a 32-byte block of src0)",
                      (long long)k, o);
    omin = o < omin ? o : omin;
    omax = (int64_t)o > omax ? (int64_t)o : omax;
  }
  const uint8_t *s0 = n ? range(x, in, 1, omin, omax + BLK, 0, "src0")
                        : x->b->ub + ASC_SLOT(x, in, 1).t.addr;
  if (!s0)
    return ASC_ERR_KERNEL;
  if (n && x->b->n_observers && omax + BLK - omin > 8 * n * BLK)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  const uint8_t *s1 = range(x, in, 3, 0, 2 * nb, 0, "src1");
  if (!s1)
    return ASC_ERR_KERNEL;
  /* tmp: gathered [0, 256N), broadcast from 256N; the Mul reads broadcast
   * blocks [0, N or 8N), the Adds reads repeats i * src_rep */
  int64_t bc = n * 8 * BLK;
  int64_t wr_end = bc + nb * BLK;
  int64_t rd_end = bc + (mode ? 8 * n : n) * BLK;
  if (v > 0 && (v - 1) * src_rep * BLK + 8 * BLK > rd_end)
    rd_end = (v - 1) * src_rep * BLK + 8 * BLK;
  if (!n)
    rd_end = v > 0 ? (v - 1) * src_rep * BLK + 8 * BLK : 0;
  /* the reads of tmp are of what steps 1-2 wrote, except past wr_end */
  uint8_t *t = range(x, in, 11, 0, wr_end, 1, "shared_tmp_buffer");
  if (!t || !range(x, in, 11, wr_end, rd_end, 0, "shared_tmp_buffer"))
    return ASC_ERR_KERNEL;
  /* dst: the bounding range of the enabled elements of the v repeats */
  int64_t dlo = INT64_MAX, dhi = 0;
  for (int64_t r = 0; r < v; r++)
    for (int e = 0; e < REP_ELEMS; e++)
      if (mask_bit(lo, hi, e)) {
        int64_t b = (r * dst_rep + (e / 16) * dst_blk) * BLK + (e % 16) * 2;
        dlo = b < dlo ? b : dlo;
        dhi = b + 2 > dhi ? b + 2 : dhi;
      }
  uint8_t *d = NULL;
  if (dhi > 0) {
    d = range(x, in, 0, dlo, dhi, 1, "dst");
    if (!d)
      return ASC_ERR_KERNEL;
    if (x->b->n_observers && (dhi - dlo) != v * REP_ELEMS * 2)
      x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  }

  /* 1. Gatherb */
  for (int64_t k = 0; k < 8 * n; k++) {
    uint32_t o;
    memcpy(&o, offp + 4 * k, 4);
    memmove(t + k * BLK, s0 + o, BLK);
  }
  /* 2. Brcb (all reads first: src1 may lie in tmp) */
  for (int64_t j0 = 0; j0 < nb; j0 += 8) {
    uint16_t vals[8];
    memcpy(vals, s1 + 2 * j0, sizeof vals);
    for (int j = 0; j < 8; j++)
      for (int e = 0; e < 16; e++)
        memcpy(t + bc + (j0 + j) * BLK + 2 * e, &vals[j], 2);
  }
  /* 3. Mul */
  for (int64_t r = 0; r < n; r++)
    for (int e = 0; e < REP_ELEMS; e++) {
      int64_t blk = mode ? r * 8 + e / 16 : r;
      float g = ld_h(t, r * REP_ELEMS + e);
      st_h(t, r * REP_ELEMS + e, g * ld_h(t + bc + blk * BLK, e % 16));
    }
  /* 4. Add */
  for (int64_t i = 0; i < v && h > 1; i++)
    for (int64_t k = 0; k < h - 1; k++)
      for (int e = 0; e < REP_ELEMS; e++)
        if (mask_bit(lo, hi, e)) {
          int64_t acc = i * h * REP_ELEMS + e;
          float g = ld_h(t, (i * h + 1 + k) * REP_ELEMS + e);
          st_h(t, acc, g + ld_h(t, acc));
        }
  /* 5. Adds */
  for (int64_t r = 0; r < v && d; r++)
    for (int e = 0; e < REP_ELEMS; e++)
      if (mask_bit(lo, hi, e)) {
        int64_t b = (r * dst_rep + (e / 16) * dst_blk) * BLK + (e % 16) * 2;
        st_h(d + b, 0, ld_h(t, r * src_rep * 16 + e) + 0.0f);
      }
  int64_t work = (n + v * (h > 1 ? h : 1)) * REP_ELEMS;
  x->b->ev.elems = work;
  x->b->ev.bytes = 2 * work;
  return ASC_OK;
}
