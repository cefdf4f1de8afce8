/* The reductions of the vector unit (ReduceMax, ReduceMin, ReduceSum), the
 * count (level-2) forms, on the Ascend910B (half and float; lower.c refuses
 * the other element types).
 *
 * ReduceSum: the devkit's level-2 ReduceSum on this core is one vcadd in
 * counter mode, "way 1" of its documentation: inside each repeat (256 bytes:
 * 128 halves, 64 floats) a binary tree of adjacent pairs, each sum rounded to
 * the element type; the repeats' sums are then accumulated in order.  The
 * lanes of a short last repeat take no part in the tree (a pair with one
 * missing lane passes the other on).
 *
 * ReduceMax / ReduceMin: the extreme value; with cal_index dst[1] holds its
 * index as the devkit stores it, the integer's bits in dst's element type
 * (uint16_t for half, uint32_t for float); of equal values (+0 and -0 are
 * equal) the lowest index.  A half index is at most 65535.  The devkit
 * leaves NaN undefined; here the first NaN is the result. */
#include <string.h>

#include "sim.h"

enum { REPEAT_BYTES = 256, MAX_LANES = 128 };

/* a + b rounded to dt (half: the exact double sum rounded once). */
static double add_round(AscDType dt, double a, double b) {
  if (dt == ASC_DT_FLOAT32)
    return (double)((float)a + (float)b);
  uint16_t h;
  AscScalar s = {.f = a + b};
  asc_store_scalar(dt, &h, 0, s);
  return asc_load_f(dt, &h, 0);
}

/* The binary tree of adjacent pairs over v[0..n), n <= MAX_LANES, in place
 * (the lanes of a full repeat: 128 or 64, a power of two). */
static double tree_sum(AscDType dt, double *v, int64_t n, int64_t lanes) {
  for (int64_t width = lanes; width > 1; width /= 2) {
    int64_t out = 0;
    for (int64_t i = 0; i < width; i += 2, out++) {
      if (i >= n)
        break;
      v[out] = i + 1 < n ? add_round(dt, v[i], v[i + 1]) : v[i];
    }
    n = out;
  }
  return v[0];
}

static void store_index(AscDType dt, uint8_t *d, int64_t idx) {
  if (dt == ASC_DT_FLOAT16) {
    uint16_t u = (uint16_t)idx;
    memcpy(d + 2, &u, 2);
  } else {
    uint32_t u = (uint32_t)idx;
    memcpy(d + 4, &u, 4);
  }
}

AscStatus sim_vec_reduce(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  AscVecReduceOp op = (AscVecReduceOp)in->imm;
  int64_t n = ASC_SLOT(x, in, 3).i;
  int cal_index = op != ASC_VRED_SUM && in->src->n_operands > 4 &&
                  ASC_SLOT(x, in, 4).i != 0;
  int64_t size = (int64_t)asc_dtype_size(dt);
  int64_t lanes = REPEAT_BYTES / size;
  if (n < 1) {
    sim_fail(x, in, "count %lld is out of range: at least 1 element",
             (long long)n);
    return ASC_ERR_KERNEL;
  }
  uint8_t *d = sim_vec_operand(x, in, 0, cal_index ? 2 : 1, 1, "dst");
  uint8_t *s = d ? sim_vec_operand(x, in, 1, n, 0, "src") : NULL;
  if (!s || !sim_tensor_arg(x, in, 2, "shared_tmp_buffer"))
    return ASC_ERR_KERNEL;
  AscScalar r;
  if (op == ASC_VRED_SUM) {
    double v[MAX_LANES], acc = 0;
    for (int64_t base = 0; base < n; base += lanes) {
      int64_t m = n - base < lanes ? n - base : lanes;
      for (int64_t i = 0; i < m; i++)
        v[i] = asc_load_f(dt, s, base + i);
      double t = tree_sum(dt, v, m, lanes);
      acc = base == 0 ? t : add_round(dt, acc, t);
    }
    r.f = acc;
    asc_store_scalar(dt, d, 0, r);
  } else {
    int64_t best = 0;
    double bv = asc_load_f(dt, s, 0);
    for (int64_t i = 1; i < n && bv == bv; i++) {
      double v = asc_load_f(dt, s, i);
      if (v != v || (op == ASC_VRED_MAX ? v > bv : v < bv)) {
        bv = v;
        best = i;
      }
    }
    if (cal_index && dt == ASC_DT_FLOAT16 && best > 65535) {
      sim_fail(x, in,
               "the index %lld does not fit the uint16_t bits of a half "
               "(at most 65535)",
               (long long)best);
      return ASC_ERR_KERNEL;
    }
    /* the element itself (its sign of zero, its NaN payload) */
    memcpy(d, s + best * size, (size_t)size);
    if (cal_index)
      store_index(dt, d, best);
  }
  sim_vec_work(x, &ASC_SLOT(x, in, 1).t, n);
  return ASC_OK;
}
