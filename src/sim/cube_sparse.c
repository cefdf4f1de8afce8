/* family: cube. The 4:2 structured sparse matrix multiplication of arch
 * 2201: LoadDataWithSparse (L1 -> L0B, the dense B and its index matrix)
 * and MmadWithSparse (int8 x int8 -> int32), as the devkit's
 * MmadWithSparse.md, LoadDataWithSparse.md and its reference script
 * examples/.../mmad_with_sparse/scripts/gen_data.py.
 *
 * B is the dense (k / 2) x n int8 matrix in L0B (ZN, k0 = 32). Its index
 * matrix has a 2-bit entry per dense element, four to a byte (the entry of
 * dense row j at bits 2 * (j % 4)), in 128-byte fractals of 16 rows (n) x 8
 * bytes (32 dense rows), fractal f the one of B's fractal f. Dense rows 2g
 * and 2g + 1 stand for A's columns 4g .. 4g + 3: row 2g multiplies column
 * 4g + i0, row 2g + 1 column 4g + max(i0, 1 + i1) (i0, i1 their entries;
 * the devkit's selection table: i0 in 0..2, i1 in 0..2). */
#include <string.h>

#include "checked.h"
#include "cube.h"

#define FIELD(k, f) (x->regs[in->a[(k)] + (f)].i)

enum { FRACTAL = 512, IDX_FRACTAL = 128 };

/* LoadDataWithSparse(dst, src, idx, LoadData2dParams): repeat_times
 * fractals from start_index of src and of idx (only those two fields are
 * used), the index fractals into the index buffer beside dst's. */
AscStatus sim_cube_load_sparse(AscExec *x, const AscInstr *in) {
  const AscTensorRef *dst = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *src = dst ? sim_tensor_arg(x, in, 1, "src") : NULL;
  const AscTensorRef *idx = src ? sim_tensor_arg(x, in, 2, "idx") : NULL;
  if (!idx)
    return ASC_ERR_KERNEL;
  int64_t start = FIELD(3, 0), repeat = FIELD(3, 1);
  if (sim_cube_mem_of_position(dst->position) != SIM_CMEM_L0B ||
      sim_cube_mem_of_position(src->position) != SIM_CMEM_L1 ||
      sim_cube_mem_of_position(idx->position) != SIM_CMEM_L1)
    return sim_fail(x, in,
                    "LoadDataWithSparse moves L1 (B1) to L0B (B2); idx is in "
                    "L1 (B1)");
  if (dst->addr % FRACTAL || src->addr % 32 || idx->addr % 32)
    return sim_fail(x, in,
                    "LoadDataWithSparse: dst must be 512-byte aligned (L0B "
                    "address %lld), src and idx 32-byte aligned (L1 addresses "
                    "%lld, %lld)",
                    (long long)dst->addr, (long long)src->addr,
                    (long long)idx->addr);
  if (repeat == 0)
    return ASC_OK;
  int64_t ib = dst->addr / 4, ilen = repeat * IDX_FRACTAL;
  if (ib + ilen > (int64_t)sizeof x->b->regs.sparse_idx)
    return sim_fail(x, in,
                    "LoadDataWithSparse: %lld index fractals from L0B address "
                    "%lld run past the index buffer",
                    (long long)repeat, (long long)dst->addr);
  const uint8_t *s =
      sim_cube_range(x, in, src, start * FRACTAL, repeat * FRACTAL, 0, "src");
  const uint8_t *pi =
      s ? sim_cube_range(x, in, idx, start * IDX_FRACTAL, ilen, 0, "idx")
        : NULL;
  uint8_t *d =
      pi ? sim_cube_range(x, in, dst, 0, repeat * FRACTAL, 1, "dst") : NULL;
  if (!d)
    return ASC_ERR_KERNEL;
  memmove(d, s, (size_t)(repeat * FRACTAL));
  memcpy(x->b->regs.sparse_idx + ib, pi, (size_t)ilen);
  if (x->b->regs.sparse_used < ib + ilen) /* what the next reset clears */
    x->b->regs.sparse_used = ib + ilen;
  x->b->ev.bytes = repeat * (FRACTAL + IDX_FRACTAL);
  x->b->ev.elems = repeat * FRACTAL;
  return ASC_OK;
}

/* MmadWithSparse(dst, fm, filter, params): C[m x n] (+)= A[m x k] B, A in
 * L0A (ZZ, k0 = 32), B the dense (k / 2) x n matrix of L0B, its index in
 * the index buffer (filter's L0B address / 4); cmatrix_init_val clears C
 * first. */
AscStatus sim_cube_mmad_sparse(AscExec *x, const AscInstr *in) {
  const AscTensorRef *c = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *a = c ? sim_tensor_arg(x, in, 1, "fm") : NULL;
  const AscTensorRef *b = a ? sim_tensor_arg(x, in, 2, "filter") : NULL;
  if (!b)
    return ASC_ERR_KERNEL;
  int64_t m = FIELD(3, 0), n = FIELD(3, 1), k = FIELD(3, 2);
  int64_t init = FIELD(3, 10);
  if (sim_cube_mem_of_position(c->position) != SIM_CMEM_L0C ||
      sim_cube_mem_of_position(a->position) != SIM_CMEM_L0A ||
      sim_cube_mem_of_position(b->position) != SIM_CMEM_L0B)
    return sim_fail(x, in,
                    "MmadWithSparse: dst in L0C (CO1), fm in L0A (A2), filter "
                    "in L0B (B2)");
  if (sim_mmad_dims(x, in, "MmadWithSparse", m, n, k))
    return ASC_ERR_KERNEL;
  if (k % 4)
    return sim_fail(x, in,
                    "MmadWithSparse: k %lld is not a multiple of 4 (the 4:2 "
                    "groups)",
                    (long long)k);
  if (m == 0 || n == 0 || k == 0)
    return ASC_OK;
  int64_t kd = k / 2;
  int64_t m1 = (m + 15) / 16, n1 = (n + 15) / 16, k1 = (k + 31) / 32,
          kd1 = (kd + 31) / 32;
  int64_t ib = b->addr / 4;
  if (ib + kd1 * n1 * IDX_FRACTAL > (int64_t)sizeof x->b->regs.sparse_idx)
    return sim_fail(x, in, "MmadWithSparse: the index runs past its buffer");
  int n0 = x->b->ev.n_acc;
  const uint8_t *pa = sim_cube_range(x, in, a, 0, m1 * k1 * FRACTAL, 0, "fm");
  const uint8_t *pb =
      pa ? sim_cube_range(x, in, b, 0, kd1 * n1 * FRACTAL, 0, "filter") : NULL;
  sim_cube_bounding(x, n0);
  uint8_t *pc =
      pb ? sim_cube_range(x, in, c, 0, m1 * n1 * 256 * 4, 1, "dst") : NULL;
  if (!pc)
    return ASC_ERR_KERNEL;
  const uint8_t *ix = x->b->regs.sparse_idx + ib;
  for (int64_t col = 0; col < n; col++)
    for (int64_t j = 0; j < kd; j += 2) {
      int64_t f = (j / 32) * n1 + col / 16;
      for (int64_t h = 0; h < 2; h++) {
        int64_t jj = j + h;
        uint8_t byte = ix[f * IDX_FRACTAL + (col % 16) * 8 + (jj % 32) / 4];
        int e = (byte >> (2 * (jj % 4))) & 3;
        if (e == 3)
          return sim_fail(x, in,
                          "MmadWithSparse: index entry 3 (2'b11) for dense "
                          "row %lld of column %lld: the entries are 0 to 2",
                          (long long)jj, (long long)col);
      }
    }
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < n; col++) {
      uint8_t *po =
          pc +
          (((col / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + col % 16) * 4;
      int32_t acc = 0;
      if (!init)
        memcpy(&acc, po, 4);
      int64_t f0 = col / 16;
      for (int64_t j = 0; j < kd; j += 2) {
        int64_t f = (j / 32) * n1 + f0;
        const uint8_t *row = ix + f * IDX_FRACTAL + (col % 16) * 8;
        int i0 = (row[(j % 32) / 4] >> (2 * (j % 4))) & 3;
        int i1 = (row[((j + 1) % 32) / 4] >> (2 * ((j + 1) % 4))) & 3;
        int64_t g = j / 2, p0 = i0, p1 = 1 + i1 > i0 ? 1 + i1 : i0;
        for (int h = 0; h < 2; h++) {
          int64_t jj = j + h, ka = 4 * g + (h ? p1 : p0);
          if (ka >= k)
            continue;
          int8_t av = (int8_t)
              pa[((i / 16) * k1 + ka / 32) * 512 + (i % 16) * 32 + ka % 32];
          int8_t bv = (int8_t)
              pb[((jj / 32) * n1 + col / 16) * 512 + (col % 16) * 32 + jj % 32];
          acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)av * bv));
        }
      }
      memcpy(po, &acc, 4);
    }
  /* the work: the dense product's fractals */
  x->b->ev.elems = m1 * n1 * kd1;
  x->b->ev.bytes = m1 * n1 * 256 * 4;
  return ASC_OK;
}
