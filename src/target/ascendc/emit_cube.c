/* family: cube. Fixpipe with a FixpipeConfig: the config is a template
 * argument after the two element types (Fixpipe<T, U, CFG_NZ>(dst, src,
 * [cbufWorkspace,] params)), which deduction cannot fill in. */
#include <stdlib.h>

#include "emitter.h"

void em_cube_fixpipe(Emitter *e, AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "layout");
  const char *cfg =
      a && a->i == 0 ? "AscendC::CFG_NZ" : "AscendC::CFG_ROW_MAJOR";
  char *args = em_join_operands(e, op, 0, ASC_DT_NONE);
  char *call = em_fmt_str("AscendC::Fixpipe<%s, %s, %s>(%s)",
                          asc_dtype_cpp_name(op->operands[0]->type->dtype),
                          asc_dtype_cpp_name(op->operands[1]->type->dtype), cfg,
                          args ? args : "");
  free(args);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}
