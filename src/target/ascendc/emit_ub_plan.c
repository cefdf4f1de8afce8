/* family: ubplan. The Ascend C of the run-time check plan-ub puts before
 * the GetWithOffset of a runtime-sized asc.LocalTensorAuto:
 *
 *   if (d0 <= 0 || d0 > (CAP - off) / SE ||
 *       d1 <= 0 || d1 > (CAP - off) / (SE * d0) || ...) AscendC::Trap();
 *
 * (SE: the shape's compile-time elements times the element's bytes; all in
 * int64_t). Each bound divides instead of multiplying, and the || stops at
 * the first failing term, so no product the check forms can overflow: the
 * kernel traps, as the simulator's KernelError says, instead of placing a
 * wrapped-around size in the UB. */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

static void emit_lt_auto_check(Emitter *e, AscOp *op) {
  int64_t se =
      asc_op_attr_int(op, "length", 1) * asc_op_attr_int(op, "elem_bytes", 1);
  int64_t cap = asc_op_attr_int(op, "capacity", 0);
  Buf b = {0};
  char rest[4096];
  snprintf(rest, sizeof rest,
           "(static_cast<int64_t>(%lld) - static_cast<int64_t>(%s))",
           (long long)cap, em_expr(e, op->operands[0]));
  Buf prod = {0};
  em_buf_printf(&prod, "static_cast<int64_t>(%lld)", (long long)se);
  em_buf_printf(&b, "if (");
  for (int k = 1; k < op->n_operands; k++) {
    const char *d = em_expr(e, op->operands[k]);
    em_buf_printf(&b,
                  "%sstatic_cast<int64_t>(%s) <= 0 || static_cast<int64_t>(%s) "
                  "> %s / (%s)",
                  k > 1 ? " || " : "", d, d, rest, prod.s ? prod.s : "1");
    em_buf_printf(&prod, " * static_cast<int64_t>(%s)", d);
  }
  if (op->n_operands < 2) /* no runtime dims: only the offset can fail */
    em_buf_printf(&b, "%s < %s", rest, prod.s ? prod.s : "0");
  em_buf_printf(&b, ") AscendC::Trap()");
  if (b.failed || prod.failed || !b.s) {
    e->failed = 1;
  } else {
    em_statement(e, op, b.s);
  }
  free(b.s);
  free(prod.s);
}

EmSystemRule em_ub_plan_rule(AscOpId id) {
  return id == ASC_OP_LT_AUTO_CHECK ? emit_lt_auto_check : NULL;
}
