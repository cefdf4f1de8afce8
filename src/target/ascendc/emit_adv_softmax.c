/* family: adv softmax. asc.adv.softmax in Ascend C:
 * AscendC::SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ>(dst,
 * sum, max, src, [sharedTmpBuffer,] tiling), T src's element type (also for
 * the half src / float sum form, whose overload takes LocalTensor<half> and
 * LocalTensor<float>); softmaxShapeInfo is left to its default {}, so the
 * devkit reads the shape from src's ShapeInfo, as upstream does. */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

static void emit_adv_softmax(Emitter *e, AscOp *op) {
  char a[6][4096];
  for (int i = 0; i < op->n_operands && i < 6; i++)
    snprintf(a[i], sizeof a[i], "%s", em_expr(e, op->operands[i]));
  const char *b[2] = {"false", "true"};
  int reuse = asc_op_attr_int(op, "reuse_source", 0) != 0;
  int basic = asc_op_attr_int(op, "basic_block", 0) != 0;
  int nz = asc_op_attr_int(op, "data_format_nz", 0) != 0;
  char tmp[4200] = "";
  if (op->n_operands > 5)
    snprintf(tmp, sizeof tmp, "%s, ", a[5]);
  char *s =
      em_fmt_str("AscendC::SoftMax<%s, %s, %s, %s>(%s, %s, %s, %s, %s%s)",
                 asc_dtype_cpp_name(op->operands[3]->type->dtype), b[reuse],
                 b[basic], b[nz], a[0], a[1], a[2], a[3], tmp, a[4]);
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

EmSystemRule em_adv_softmax_rule(AscOpId id) {
  return id == ASC_OP_ADV_SOFTMAX ? emit_adv_softmax : NULL;
}
