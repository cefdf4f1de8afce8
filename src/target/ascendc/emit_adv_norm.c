/* family: adv normquant. The Ascend C of asc.adv.rmsnorm and asc.adv.quant:
 *   AscendC::RmsNorm<T, isBasicBlock>(dst, src, gamma, [tmp,] eps, tiling);
 *   AscendC::AscendQuant<T[, isReuseSource[, cfg]]>(dst, src, [tmp,] scale,
 *       offset, [scaleCount, [offsetCount,]] calCount);
 * (include/adv_api/normalization/rmsnorm.h,
 * include/adv_api/quantization/ascend_quant.h). The IR holds the optional
 * shared_tmp_buffer last; RmsNorm takes it fourth, AscendQuant third. A
 * QuantConfig is the reference template argument `config`: a static constexpr
 * AscendQuantConfig declared before the call, as the devkit's samples do
 * with their MatmulConfig. */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

/* The first n_main operands, comma-separated, with the shared_tmp_buffer
 * (operand n_main, when the op has it) after operand `after`. */
static char *call_args(Emitter *e, AscOp *op, int n_main, int after) {
  Buf b = {0};
  char tmp[4096];
  for (int i = 0; i < n_main; i++) {
    em_buf_printf(&b, "%s%s", i ? ", " : "",
                  em_unparen(em_expr(e, op->operands[i]), tmp, sizeof tmp));
    if (i == after && op->n_operands > n_main)
      em_buf_printf(
          &b, ", %s",
          em_unparen(em_expr(e, op->operands[n_main]), tmp, sizeof tmp));
  }
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static void emit_rmsnorm(Emitter *e, AscOp *op) {
  AscDType dt = op->operands[1]->type->dtype;
  char *args = call_args(e, op, 5, 2);
  char *call =
      args
          ? em_fmt_str("AscendC::RmsNorm<%s, %s>(%s)", asc_dtype_cpp_name(dt),
                       asc_op_attr_int(op, "basic_block", 0) ? "true" : "false",
                       args)
          : NULL;
  free(args);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

static void emit_quant(Emitter *e, AscOp *op) {
  AscDType dt = op->operands[1]->type->dtype;
  int n_main = op->id == ASC_OP_ADV_QUANT           ? 5
               : op->id == ASC_OP_ADV_QUANT_CHANNEL ? 6
                                                    : 7;
  int reuse = asc_op_attr_int(op, "reuse_source", 0) != 0;
  char targs[512];
  if (asc_op_attr(op, "cfg_calc_count")) {
    char *name = em_fresh_name(e, "quant_cfg");
    if (!name) {
      e->failed = 1;
      return;
    }
    em_line_start(e);
    em_buf_printf(&e->out,
                  "static constexpr AscendC::AscendQuantConfig %s = {%lld, "
                  "%lld, %lld, %lld};",
                  name, (long long)asc_op_attr_int(op, "cfg_calc_count", 0),
                  (long long)asc_op_attr_int(op, "cfg_offset_count", 0),
                  (long long)asc_op_attr_int(op, "cfg_scale_count", 0),
                  (long long)asc_op_attr_int(op, "cfg_work_local_size", 0));
    em_line_end(e, op);
    snprintf(targs, sizeof targs, "%s, %s, %s", asc_dtype_cpp_name(dt),
             reuse ? "true" : "false", name); /* name: the emitter's */
  } else if (reuse) {
    snprintf(targs, sizeof targs, "%s, true", asc_dtype_cpp_name(dt));
  } else {
    snprintf(targs, sizeof targs, "%s", asc_dtype_cpp_name(dt));
  }
  char *args = call_args(e, op, n_main, 1);
  char *call =
      args ? em_fmt_str("AscendC::AscendQuant<%s>(%s)", targs, args) : NULL;
  free(args);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

EmSystemRule em_adv_norm_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_ADV_RMSNORM:
    return emit_rmsnorm;
  case ASC_OP_ADV_QUANT:
  case ASC_OP_ADV_QUANT_CHANNEL:
  case ASC_OP_ADV_QUANT_CHANNEL_OFFSET:
    return emit_quant;
  default:
    return NULL;
  }
}
