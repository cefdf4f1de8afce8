/* The scalar unit: arithmetic on scalar registers, system variables.
 *
 * Integers are kept in int64 slots normalised to their type's width and
 * signedness (so an i32 wraps as in C on the device); floats in double
 * slots rounded to their type's precision. Division truncates toward zero
 * and `%` takes the sign of the dividend, as in C++ on the device. */
#include <math.h>
#include <string.h>

#include "sim.h"

int64_t asc_int_normalize(AscDType dt, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (dt) {
  case ASC_DT_BOOL:
    return v != 0;
  case ASC_DT_INT8:
    return (int8_t)(uint8_t)u;
  case ASC_DT_INT16:
    return (int16_t)(uint16_t)u;
  case ASC_DT_INT32:
    return (int32_t)(uint32_t)u;
  case ASC_DT_UINT8:
    return (uint8_t)u;
  case ASC_DT_UINT16:
    return (uint16_t)u;
  case ASC_DT_UINT32:
    return (uint32_t)u;
  default:
    return v;
  }
}

double asc_float_normalize(AscDType dt, double v) {
  switch (dt) {
  case ASC_DT_FLOAT32:
    return (float)v;
  case ASC_DT_FLOAT16:
    return asc_f16_to_f32(asc_f32_to_f16((float)v));
  case ASC_DT_BFLOAT16:
    return asc_bf16_to_f32(asc_f32_to_bf16((float)v));
  default:
    return v;
  }
}

/* Reads a scalar slot of type dt as double or as int64. */
static double as_f(AscDType dt, AscSlot s) {
  return asc_dtype_is_float(dt) ? s.f : (double)s.i;
}

int64_t asc_float_to_int64(double f) {
  if (f != f)
    return 0;
  if (f >= 9.2233720368547758e18)
    return INT64_MAX;
  if (f <= -9.2233720368547758e18)
    return INT64_MIN;
  return (int64_t)f;
}

static int64_t as_i(AscDType dt, AscSlot s) {
  return asc_dtype_is_float(dt) ? asc_float_to_int64(s.f) : s.i;
}

int asc_constant_value(const AscOp *op, AscSlot *out) {
  const AscType *t = op && op->id == ASC_OP_CONSTANT && op->n_results == 1
                         ? op->results[0].type
                         : NULL;
  const AscAttr *a = t ? asc_op_attr(op, "value") : NULL;
  if (!t || t->kind != ASC_TY_SCALAR || t->dtype == ASC_DT_NONE || !a ||
      (a->kind != ASC_ATTR_INT && a->kind != ASC_ATTR_FLOAT))
    return -1;
  memset(out, 0, sizeof *out);
  if (asc_dtype_is_float(t->dtype))
    out->f = asc_float_normalize(
        t->dtype, a->kind == ASC_ATTR_FLOAT ? a->f : (double)a->i);
  else
    out->i = asc_int_normalize(
        t->dtype, a->kind == ASC_ATTR_FLOAT ? asc_float_to_int64(a->f) : a->i);
  return 0;
}

AscStatus sim_structural(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in,
                  "internal error: structural op reached the "
                  "interpreter");
}

AscStatus sim_arith_constant(AscExec *x, const AscInstr *in) {
  return sim_structural(x, in); /* constants are preset frame slots */
}

/* ---- the scalar unit's semantics, as pure functions ---------------------
 * The simulator runs them, and the canonicalize pass folds constants with
 * them, so a folded constant always equals what the kernel would compute. */

int asc_scalar_binary(int sub, AscDType rt, AscDType at, AscDType bt, AscSlot a,
                      AscSlot b, AscSlot *r) {
  if (asc_dtype_is_float(rt)) {
    double p = as_f(at, a), q = as_f(bt, b), v;
    switch (sub) {
    case ASC_ARITH_ADD:
      v = p + q;
      break;
    case ASC_ARITH_SUB:
      v = p - q;
      break;
    case ASC_ARITH_MUL:
      v = p * q;
      break;
    case ASC_ARITH_DIV:
      v = p / q;
      break;
    case ASC_ARITH_MIN:
      v = p < q ? p : q;
      break;
    case ASC_ARITH_MAX:
      v = p > q ? p : q;
      break;
    default:
      return ASC_SCALAR_UNDEFINED;
    }
    r->f = asc_float_normalize(rt, v);
    return ASC_SCALAR_OK;
  }
  int64_t p = as_i(at, a), q = as_i(bt, b);
  uint64_t up = (uint64_t)p, uq = (uint64_t)q;
  int uns = asc_dtype_is_unsigned_int(rt);
  int64_t v;
  switch (sub) {
  case ASC_ARITH_ADD:
    v = (int64_t)(up + uq);
    break;
  case ASC_ARITH_SUB:
    v = (int64_t)(up - uq);
    break;
  case ASC_ARITH_MUL:
    v = (int64_t)(up * uq);
    break;
  case ASC_ARITH_DIV:
  case ASC_ARITH_REM:
    if (q == 0)
      return ASC_SCALAR_DIV_BY_ZERO;
    if (p == INT64_MIN && q == -1)
      v = sub == ASC_ARITH_DIV ? INT64_MIN : 0;
    else if (uns)
      v = (int64_t)(sub == ASC_ARITH_DIV ? up / uq : up % uq);
    else
      v = sub == ASC_ARITH_DIV ? p / q : p % q;
    break;
  case ASC_ARITH_AND:
    v = p & q;
    break;
  case ASC_ARITH_OR:
    v = p | q;
    break;
  case ASC_ARITH_XOR:
    v = p ^ q;
    break;
  case ASC_ARITH_SHL:
    v = q < 0 || q >= 64 ? 0 : (int64_t)(up << q);
    break;
  case ASC_ARITH_SHR:
    if (q < 0 || q >= 64)
      v = p < 0 && !uns ? -1 : 0;
    else if (uns)
      v = (int64_t)(up >> q);
    else
      v = p < 0 ? (int64_t)~(~up >> q) : (int64_t)(up >> q);
    break;
  case ASC_ARITH_MIN:
  case ASC_ARITH_MAX: {
    /* unsigned 64-bit values above INT64_MAX live as negative int64 */
    int less = uns ? up < uq : p < q;
    v = (sub == ASC_ARITH_MIN) == less ? p : q;
    break;
  }
  default:
    return ASC_SCALAR_UNDEFINED;
  }
  r->i = asc_int_normalize(rt, v);
  return ASC_SCALAR_OK;
}

int asc_scalar_cmp(int64_t pred, AscDType at, AscDType bt, AscSlot a,
                   AscSlot b) {
  int lt, eq;
  if (asc_dtype_is_float(at) || asc_dtype_is_float(bt)) {
    double p = as_f(at, a), q = as_f(bt, b);
    if (p != p || q != q) /* NaN: only != holds */
      return pred == ASC_CMPPRED_NE;
    lt = p < q;
    eq = p == q;
  } else {
    /* both operands have one type (the front end promotes them); flipping
     * the top bit maps unsigned order onto signed order */
    uint64_t bias = asc_dtype_is_unsigned_int(at) ? (uint64_t)1 << 63 : 0;
    int64_t p = (int64_t)((uint64_t)a.i ^ bias);
    int64_t q = (int64_t)((uint64_t)b.i ^ bias);
    lt = p < q;
    eq = p == q;
  }
  switch (pred) {
  case ASC_CMPPRED_EQ:
    return eq;
  case ASC_CMPPRED_NE:
    return !eq;
  case ASC_CMPPRED_LT:
    return lt;
  case ASC_CMPPRED_LE:
    return lt || eq;
  case ASC_CMPPRED_GT:
    return !lt && !eq;
  default:
    return !lt;
  }
}

int asc_scalar_unary(int sub, AscDType rt, AscDType at, AscSlot a, AscSlot *r) {
  switch (sub) {
  case ASC_ARITH_NEG:
    if (asc_dtype_is_float(rt))
      r->f = -a.f;
    else
      r->i = asc_int_normalize(rt, (int64_t)(0u - (uint64_t)a.i));
    return ASC_SCALAR_OK;
  case ASC_ARITH_NOT:
    r->i = a.i == 0;
    return ASC_SCALAR_OK;
  case ASC_ARITH_INVERT:
    r->i = asc_int_normalize(rt, ~a.i);
    return ASC_SCALAR_OK;
  case ASC_ARITH_CAST:
    if (asc_dtype_is_float(rt))
      r->f = asc_float_normalize(rt, as_f(at, a));
    else
      r->i = asc_int_normalize(rt, as_i(at, a));
    return ASC_SCALAR_OK;
  default:
    return ASC_SCALAR_UNDEFINED;
  }
}

/* ---- the op-table functions ---------------------------------------------- */

static AscStatus scalar_fault(AscExec *x, const AscInstr *in, int code) {
  return sim_fail(x, in,
                  code == ASC_SCALAR_DIV_BY_ZERO
                      ? "integer division by zero"
                      : "operation not defined on these types");
}

AscStatus sim_arith_binary(AscExec *x, const AscInstr *in) {
  int code = asc_scalar_binary(
      in->imm, (AscDType)in->dtype, in->src->operands[0]->type->dtype,
      in->src->operands[1]->type->dtype, ASC_SLOT(x, in, 0), ASC_SLOT(x, in, 1),
      &ASC_DST(x, in));
  return code ? scalar_fault(x, in, code) : ASC_OK;
}

AscStatus sim_arith_cmp(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = asc_scalar_cmp(in->imm2, in->src->operands[0]->type->dtype,
                                    in->src->operands[1]->type->dtype,
                                    ASC_SLOT(x, in, 0), ASC_SLOT(x, in, 1));
  return ASC_OK;
}

AscStatus sim_arith_unary(AscExec *x, const AscInstr *in) {
  int code = asc_scalar_unary(in->imm, (AscDType)in->dtype,
                              in->src->operands[0]->type->dtype,
                              ASC_SLOT(x, in, 0), &ASC_DST(x, in));
  return code ? scalar_fault(x, in, code) : ASC_OK;
}

AscStatus sim_arith_select(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in) =
      ASC_SLOT(x, in, 0).i ? ASC_SLOT(x, in, 1) : ASC_SLOT(x, in, 2);
  return ASC_OK;
}

/* family: cores: GetBlockIdx / GetBlockNum of the core (cores.c) */
AscStatus sim_get_block_idx(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->has_core ? x->b->logical_idx : x->b->block_idx;
  return ASC_OK;
}

AscStatus sim_get_block_num(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->has_core ? x->b->logical_num : x->b->block_num;
  return ASC_OK;
}
