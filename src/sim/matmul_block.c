/* family: matmul. One base block of an asc.adv.Matmul's C (matmul.h).
 *
 * INTERIM: the block is computed directly here, not as the sequence of
 * GM->L1 Nd2Nz copies, LoadData, Mmad and Fixpipe the devkit issues: the
 * sanitizer sees the GM and UB accesses, the timing model costs the call
 * by its cube fractals. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "matmul.h"
#include "vecmath.h"

/* A GM operand read as one span (bounding the elements the block reads). */
typedef struct GmIn {
  SimGmSpan span;
  AscDType dt;
  int64_t es;
} GmIn;

static int gm_in(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                 int64_t count, const char *what, GmIn *g) {
  g->dt = (AscDType)t->dtype;
  g->es = (int64_t)asc_dtype_size(g->dt);
  int n = x->b->ev.n_acc;
  if (sim_gm_span(x, in, t, count, 0, what, &g->span))
    return 0;
  for (int i = n; i < x->b->ev.n_acc; i++)
    x->b->ev.acc[i].bounding = 1; /* strided: not every byte is read */
  return 1;
}

/* Element e of a GM operand; 0 outside its kernel argument (overruns are
 * reported by sim_gm_span). */
static double gm_get(const GmIn *g, int64_t e) {
  int64_t o = e * g->es;
  if (!g->span.p || o < g->span.skip ||
      o + g->es > g->span.skip + g->span.valid)
    return 0.0;
  return asc_load_f(g->dt, g->span.p + (o - g->span.skip), 0);
}

/* The rows x cols values of C from (m0, n0), row-major in out (one span
 * of A, B and bias each, so the event's few access records suffice). */
static int block_values(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                        const Shape *s, int64_t m0, int64_t n0, int64_t rows,
                        int64_t cols, double *out) {
  int64_t a_extent, b_extent;
  /* the last element of A and B the block reads, plus one */
  if (s->sk == 0 || rows == 0 || cols == 0) {
    a_extent = b_extent = 0;
  } else {
    int64_t am = m0 + rows - 1, bn = n0 + cols - 1, k = s->sk - 1;
    a_extent = (m->trans_a ? k * s->lda + am : am * s->lda + k) + 1;
    b_extent = (m->trans_b ? bn * s->ldb + k : k * s->ldb + bn) + 1;
  }
  GmIn a, b, bias;
  if (!gm_in(x, in, &m->a, a_extent, "A", &a) ||
      !gm_in(x, in, &m->b, b_extent, "B", &b))
    return 0;
  int has_bias = m->has_bias;
  if (has_bias && !gm_in(x, in, &m->bias, n0 + cols, "bias", &bias))
    return 0;
  int integer = a.dt == ASC_DT_INT8;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t r = m0 + i, c = n0 + j;
      float acc = 0.0f;
      int64_t iacc = 0;
      for (int64_t k = 0; k < s->sk; k++) {
        double av = gm_get(&a, m->trans_a ? k * s->lda + r : r * s->lda + k);
        double bv = gm_get(&b, m->trans_b ? c * s->ldb + k : k * s->ldb + c);
        if (integer)
          iacc += (int64_t)av * (int64_t)bv;
        else
          acc += (float)av * (float)bv; /* fp32 products and sums (L0C) */
      }
      double v = integer ? (double)(int32_t)iacc : (double)acc;
      if (has_bias)
        v = integer ? (double)(int32_t)((int64_t)v + (int64_t)gm_get(&bias, c))
                    : (double)((float)v + (float)gm_get(&bias, c));
      out[i * cols + j] = v;
    }
  return 1;
}

static void store_value(AscDType dt, uint8_t *p, double v) {
  AscScalar sc = {v, asc_float_to_int64(v)};
  asc_store_scalar(dt, p, 0, sc);
}

/* The store-atomic dtype of a C element type; 0 for none. */
static int atomic_dtype(AscDType dt) {
  switch (dt) {
  case ASC_DT_FLOAT32:
    return 1;
  case ASC_DT_FLOAT16:
    return 2;
  case ASC_DT_INT32:
    return 4;
  case ASC_DT_BFLOAT16:
    return 6;
  default:
    return 0;
  }
}

/* Writes a block of values to GM tensor t from element offset off, rows
 * ld elements apart; en_atomic as the store-atomic mode (1 add, 2 max,
 * 3 min). */
static int write_gm(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                    int64_t off, int64_t ld, int64_t rows, int64_t cols,
                    const double *v, int64_t en_atomic) {
  if (!rows || !cols)
    return 1;
  AscDType dt = (AscDType)t->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), extent;
  if (asc_mul_i64(rows - 1, ld, &extent) ||
      asc_add_i64(extent, off + cols, &extent)) {
    sim_fail(x, in, "Matmul: C out of range");
    return 0;
  }
  AscCoreRegs *r = &x->b->regs;
  int saved_type = r->atomic_type, saved_op = r->atomic_op;
  if (en_atomic) {
    r->atomic_type = atomic_dtype(dt);
    r->atomic_op = (int)en_atomic - 1;
  }
  int n = x->b->ev.n_acc, ok = 1;
  SimGmSpan span;
  if (sim_gm_span(x, in, t, extent, 1, "C", &span)) {
    ok = 0;
    goto out;
  }
  sim_gm_mark_atomic(x, n);
  if (rows > 1 && ld != cols)
    for (int i = n; i < x->b->ev.n_acc; i++) {
      AscAccess *acc = &x->b->ev.acc[i];
      acc->rows = (int32_t)rows;
      acc->row0 = t->addr + off * es;
      acc->row_len = cols * es;
      acc->row_step = ld * es;
    }
  uint8_t buf[8];
  for (int64_t i = 0; i < rows && ok; i++)
    for (int64_t j = 0; j < cols; j++) {
      int64_t o = ((i * ld) + off + j) * es;
      if (!span.p || o < span.skip || o + es > span.skip + span.valid)
        continue; /* outside the argument: the write goes nowhere */
      store_value(dt, buf, v[i * cols + j]);
      if (sim_gm_store(x, in, span.p + (o - span.skip), buf, es) != ASC_OK) {
        ok = 0;
        break;
      }
    }
out:
  r->atomic_type = saved_type;
  r->atomic_op = saved_op;
  return ok;
}

/* The cube unit's 16 x 16 x k0 fractal products a rows x cols block over
 * K takes (k0: 32 bytes of the input type; float counts twice, as
 * cube_ops.c's Mmad does): the timing model's cost of the call. */
static int64_t block_fractals(AscDType in, int64_t rows, int64_t cols,
                              int64_t k) {
  int64_t es = (int64_t)asc_dtype_size(in);
  int64_t k0 = es ? 32 / es : 16;
  int64_t f = ((rows + 15) / 16) * ((cols + 15) / 16) * ((k + k0 - 1) / k0);
  return in == ASC_DT_FLOAT32 ? 2 * f : f;
}

int sim_mm_block(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                 const Shape *s, int64_t m0, int64_t n0, int64_t rows,
                 int64_t cols, const MmOut *o, int64_t *fractals) {
  int64_t cells = rows * cols;
  double *v = malloc(sizeof(double) * (size_t)(cells ? cells : 1));
  if (!v) {
    sim_fail(x, in, "Matmul: out of host memory");
    return 0;
  }
  int ok = block_values(x, in, m, s, m0, n0, rows, cols, v) &&
           sim_mm_convert(x, in, m, n0, rows, cols, v);
  if (ok && !o->to_ub) {
    ok = write_gm(x, in, o->t, o->off, o->ld, rows, cols, v, o->en_atomic);
  } else if (ok && rows && cols) { /* UB: rows ld apart */
    AscDType dt = (AscDType)o->t->dtype;
    int64_t es = (int64_t)asc_dtype_size(dt);
    int64_t need = (rows - 1) * o->ld + cols;
    uint8_t *p = sim_local_ptr(x, in, o->t, need, 1, "tensor");
    if (!p)
      ok = 0;
    for (int64_t i = 0; p && i < rows; i++)
      for (int64_t j = 0; j < cols; j++)
        store_value(dt, p + (i * o->ld + j) * es, v[i * cols + j]);
  }
  free(v);
  *fractals += block_fractals((AscDType)m->a.dtype, rows, cols, s->sk);
  return ok;
}
