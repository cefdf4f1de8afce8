/* The vector unit, count (level-2) forms: operand checks, then the numeric
 * kernels of vecmath.c over the whole contiguous run. */
#include "sim.h"

/* A vector operand: inside its tensor and the UB, and 32-byte aligned (the
 * vector unit reads and writes whole 32-byte blocks). */
static uint8_t *vec_ptr(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                        int64_t n, int write, const char *what) {
  if (t->addr % 32) {
    sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned", what,
             (long long)t->addr);
    return NULL;
  }
  return sim_local_ptr(x, in, t, n, write, what);
}

/* The size of the work for the timing model. */
static void vec_work(AscExec *x, const AscTensorRef *dst, int64_t n) {
  x->b->ev.elems = n;
  x->b->ev.bytes = n * (int64_t)asc_dtype_size((AscDType)dst->dtype);
}

static AscScalar scalar_operand(AscExec *x, const AscInstr *in, int k) {
  AscSlot v = ASC_SLOT(x, in, k);
  AscDType t = in->src->operands[k]->type->dtype;
  AscScalar s;
  if (asc_dtype_is_float(t)) {
    s.f = v.f;
    s.i = v.f != v.f       ? 0
          : v.f >= 9.2e18  ? INT64_MAX
          : v.f <= -9.2e18 ? INT64_MIN
                           : (int64_t)v.f;
  } else {
    s.i = v.i;
    s.f = (double)v.i;
  }
  return s;
}

AscStatus sim_vec_binary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = vec_ptr(x, in, &ASC_SLOT(x, in, 0).t, n, 1, "dst");
  uint8_t *a = d ? vec_ptr(x, in, &ASC_SLOT(x, in, 1).t, n, 0, "src0") : NULL;
  uint8_t *b = a ? vec_ptr(x, in, &ASC_SLOT(x, in, 2).t, n, 0, "src1") : NULL;
  if (!b)
    return ASC_ERR_KERNEL;
  asc_vec_binary((AscVecBinOp)in->imm, (AscDType)in->dtype, d, a, b, n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_scalar(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 3).i;
  uint8_t *d = vec_ptr(x, in, &ASC_SLOT(x, in, 0).t, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, &ASC_SLOT(x, in, 1).t, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_scalar((AscVecScalarOp)in->imm, (AscDType)in->dtype, d, s,
                 scalar_operand(x, in, 2), n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_unary(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = vec_ptr(x, in, &ASC_SLOT(x, in, 0).t, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, &ASC_SLOT(x, in, 1).t, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_unary((AscVecUnOp)in->imm, (AscDType)in->dtype, d, s, n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_duplicate(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  uint8_t *d = vec_ptr(x, in, &ASC_SLOT(x, in, 0).t, n, 1, "dst");
  if (!d)
    return ASC_ERR_KERNEL;
  asc_vec_dup((AscDType)in->dtype, d, scalar_operand(x, in, 1), n);
  vec_work(x, &ASC_SLOT(x, in, 0).t, n);
  return ASC_OK;
}

AscStatus sim_vec_cast(AscExec *x, const AscInstr *in) {
  int64_t n = ASC_SLOT(x, in, 2).i;
  const AscTensorRef *dt = &ASC_SLOT(x, in, 0).t, *st = &ASC_SLOT(x, in, 1).t;
  uint8_t *d = vec_ptr(x, in, dt, n, 1, "dst");
  uint8_t *s = d ? vec_ptr(x, in, st, n, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  asc_vec_cast((AscDType)dt->dtype, (AscDType)st->dtype, (AscRoundMode)in->imm2,
               d, s, n);
  vec_work(x, dt, n);
  return ASC_OK;
}
