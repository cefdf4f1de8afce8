/* family: adv math. The math library's calls in Ascend C
 * (include/adv_api/math/<name>.h):
 *   AscendC::Acos<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount)
 *   AscendC::Acos<T, isReuseSource>(dst, src, calCount)
 *   AscendC::Exp<T, taylorExpandLevel, isReuseSource>(dst, src[, tmp], n)
 *   AscendC::Log<T, isReuseSource>(dst, src, calCount)  (no tmp form)
 *   AscendC::Power / Xor<T, isReuseSource>(dst, src0, src1[, tmp], n)
 *   AscendC::Axpy<T, U, isReuseSource>(dst, src, U scalar, tmp, n)
 * The IR keeps count before temp_buffer (the Python order); the devkit
 * takes the buffer first. */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

static int is_adv_math(AscOpId id) {
  return id >= ASC_OP_ADV_MATH_ACOS && id <= ASC_OP_ADV_MATH_XOR;
}

static void emit_adv_math(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  int binary = op->id == ASC_OP_ADV_MATH_POWER || op->id == ASC_OP_ADV_MATH_XOR;
  int axpy = op->id == ASC_OP_ADV_MATH_AXPY;
  int kc = binary || axpy ? 3 : 2;
  AscDType t = op->operands[0]->type->dtype;
  AscDType u = op->operands[1]->type->dtype;
  int reuse = asc_op_attr_int(op, "is_reuse_source", 0) != 0;
  Buf b = {0};
  if (axpy)
    em_buf_printf(&b, "%s<%s, %s, %s>(", oi->cpp, asc_dtype_cpp_name(t),
                  asc_dtype_cpp_name(u), reuse ? "true" : "false");
  else if (op->id == ASC_OP_ADV_MATH_EXP)
    em_buf_printf(&b, "%s<%s, %lld, %s>(", oi->cpp, asc_dtype_cpp_name(t),
                  (long long)asc_op_attr_int(op, "taylor_expand_level", 0),
                  reuse ? "true" : "false");
  else
    em_buf_printf(&b, "%s<%s, %s>(", oi->cpp, asc_dtype_cpp_name(t),
                  reuse ? "true" : "false");
  /* the operands before count, then temp_buffer if any, then count */
  int order[6], n = 0;
  for (int i = 0; i < kc; i++)
    order[n++] = i;
  if (op->n_operands > kc + 1)
    order[n++] = kc + 1;
  order[n++] = kc;
  for (int j = 0; j < n; j++) {
    const AscValue *v = op->operands[order[j]];
    char tmp[4096];
    const char *s = em_unparen(em_expr(e, v), tmp, sizeof tmp);
    if (axpy && order[j] == 2 && v->type->dtype != u)
      em_buf_printf(&b, "%sstatic_cast<%s>(%s)", j ? ", " : "",
                    asc_dtype_cpp_name(u), em_expr(e, v));
    else
      em_buf_printf(&b, "%s%s", j ? ", " : "", s);
  }
  em_buf_printf(&b, ")");
  if (b.failed) {
    free(b.s);
    e->failed = 1;
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}

EmSystemRule em_adv_math_rule(AscOpId id) {
  return is_adv_math(id) ? emit_adv_math : NULL;
}
