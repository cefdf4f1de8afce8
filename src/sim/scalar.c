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

static int64_t as_i(AscDType dt, AscSlot s) {
  if (!asc_dtype_is_float(dt))
    return s.i;
  double f = s.f;
  if (f != f)
    return 0;
  if (f >= 9.2233720368547758e18)
    return INT64_MAX;
  if (f <= -9.2233720368547758e18)
    return INT64_MIN;
  return (int64_t)f;
}

AscStatus sim_structural(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in,
                  "internal error: structural op reached the "
                  "interpreter");
}

AscStatus sim_arith_constant(AscExec *x, const AscInstr *in) {
  return sim_structural(x, in); /* constants are preset frame slots */
}

AscStatus sim_arith_binary(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  AscSlot a = ASC_SLOT(x, in, 0), b = ASC_SLOT(x, in, 1);
  AscSlot *r = &ASC_DST(x, in);
  AscDType at = in->src->operands[0]->type->dtype;
  AscDType bt = in->src->operands[1]->type->dtype;
  if (asc_dtype_is_float(dt)) {
    double p = as_f(at, a), q = as_f(bt, b), v;
    switch (in->imm) {
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
      return sim_fail(x, in, "operation not defined on floats");
    }
    r->f = asc_float_normalize(dt, v);
    return ASC_OK;
  }
  int64_t p = as_i(at, a), q = as_i(bt, b);
  uint64_t up = (uint64_t)p, uq = (uint64_t)q;
  int64_t v;
  switch (in->imm) {
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
      return sim_fail(x, in, "integer division by zero");
    if (p == INT64_MIN && q == -1)
      v = in->imm == ASC_ARITH_DIV ? INT64_MIN : 0;
    else if (asc_dtype_is_unsigned_int(dt))
      v = (int64_t)(in->imm == ASC_ARITH_DIV ? up / uq : up % uq);
    else
      v = in->imm == ASC_ARITH_DIV ? p / q : p % q;
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
      v = p < 0 && !asc_dtype_is_unsigned_int(dt) ? -1 : 0;
    else if (asc_dtype_is_unsigned_int(dt))
      v = (int64_t)(up >> q);
    else
      v = p < 0 ? (int64_t)~(~up >> q) : (int64_t)(up >> q);
    break;
  case ASC_ARITH_MIN:
  case ASC_ARITH_MAX: {
    /* unsigned 64-bit values above INT64_MAX live as negative int64 */
    int less = asc_dtype_is_unsigned_int(dt) ? up < uq : p < q;
    v = (in->imm == ASC_ARITH_MIN) == less ? p : q;
    break;
  }
  default:
    return sim_fail(x, in, "unknown arithmetic operation");
  }
  r->i = asc_int_normalize(dt, v);
  return ASC_OK;
}

AscStatus sim_arith_cmp(AscExec *x, const AscInstr *in) {
  AscDType at = in->src->operands[0]->type->dtype;
  AscDType bt = in->src->operands[1]->type->dtype;
  AscSlot a = ASC_SLOT(x, in, 0), b = ASC_SLOT(x, in, 1);
  int c;
  if (asc_dtype_is_float(at) || asc_dtype_is_float(bt)) {
    double p = as_f(at, a), q = as_f(bt, b);
    switch (in->imm2) {
    case ASC_CMPPRED_EQ:
      c = p == q;
      break;
    case ASC_CMPPRED_NE:
      c = p != q;
      break;
    case ASC_CMPPRED_LT:
      c = p < q;
      break;
    case ASC_CMPPRED_LE:
      c = p <= q;
      break;
    case ASC_CMPPRED_GT:
      c = p > q;
      break;
    default:
      c = p >= q;
    }
  } else {
    /* both operands have one type (the front end promotes them); unsigned
     * 64-bit values above INT64_MAX live as negative int64 */
    int uns = asc_dtype_is_unsigned_int(at);
    uint64_t bias = uns ? (uint64_t)1 << 63 : 0;
    /* flipping the top bit maps unsigned order onto signed order */
    int64_t p = (int64_t)((uint64_t)a.i ^ bias);
    int64_t q = (int64_t)((uint64_t)b.i ^ bias);
    switch (in->imm2) {
    case ASC_CMPPRED_EQ:
      c = p == q;
      break;
    case ASC_CMPPRED_NE:
      c = p != q;
      break;
    case ASC_CMPPRED_LT:
      c = p < q;
      break;
    case ASC_CMPPRED_LE:
      c = p <= q;
      break;
    case ASC_CMPPRED_GT:
      c = p > q;
      break;
    default:
      c = p >= q;
    }
  }
  ASC_DST(x, in).i = c;
  return ASC_OK;
}

AscStatus sim_arith_unary(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  AscDType at = in->src->operands[0]->type->dtype;
  AscSlot a = ASC_SLOT(x, in, 0);
  AscSlot *r = &ASC_DST(x, in);
  switch (in->imm) {
  case ASC_ARITH_NEG:
    if (asc_dtype_is_float(dt))
      r->f = -a.f;
    else
      r->i = asc_int_normalize(dt, (int64_t)(0u - (uint64_t)a.i));
    return ASC_OK;
  case ASC_ARITH_NOT:
    r->i = a.i == 0;
    return ASC_OK;
  case ASC_ARITH_INVERT:
    r->i = asc_int_normalize(dt, ~a.i);
    return ASC_OK;
  case ASC_ARITH_CAST:
    if (asc_dtype_is_float(dt))
      r->f = asc_float_normalize(dt, as_f(at, a));
    else
      r->i = asc_int_normalize(dt, as_i(at, a));
    return ASC_OK;
  default:
    return sim_fail(x, in, "unknown arithmetic operation");
  }
}

AscStatus sim_arith_select(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in) =
      ASC_SLOT(x, in, 0).i ? ASC_SLOT(x, in, 1) : ASC_SLOT(x, in, 2);
  return ASC_OK;
}

AscStatus sim_get_block_idx(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->block_idx;
  return ASC_OK;
}

AscStatus sim_get_block_num(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->block_num;
  return ASC_OK;
}
