/* family: cores. The Ascend C of the kernel types and the cross-core
 * flags: KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_...) as the kernel's first
 * statement (the devkit's way to set a kernel type in the source),
 * g_coreType == AscendC::AIC / AIV for ascend_is_aic / ascend_is_aiv (the
 * devkit's ASCEND_IS_AIC / ASCEND_IS_AIV), and
 * CrossCoreSetFlag / CrossCoreWaitFlag<modeId, pipe>(flagId). */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

/* The devkit's KernelMetaType for each asc.KernelType value; NULL for the
 * HARD_SYNC types, which the devkit sets by compiler options instead. */
static const char *const meta_type[] = {"KERNEL_TYPE_AIV_ONLY",
                                        "KERNEL_TYPE_AIC_ONLY",
                                        NULL,
                                        NULL,
                                        "KERNEL_TYPE_MIX_AIV_1_0",
                                        "KERNEL_TYPE_MIX_AIC_1_0",
                                        "KERNEL_TYPE_MIX_AIC_1_1",
                                        "KERNEL_TYPE_MIX_AIC_1_2"};

void em_kernel_type(Emitter *e, const AscOp *f) {
  const AscAttr *a = asc_op_attr(f, "kernel_type");
  /* AIV_ONLY is what a kernel without the line is */
  if (!a || a->i <= 0 ||
      a->i >= (int64_t)(sizeof meta_type / sizeof *meta_type))
    return;
  if (meta_type[a->i])
    em_buf_printf(&e->out, "    KERNEL_TASK_TYPE_DEFAULT(%s);\n",
                  meta_type[a->i]);
}

static void emit_core_role(Emitter *e, AscOp *op) {
  int aic = op->id == ASC_OP_ASCEND_IS_AIC;
  em_set_expr(e, &op->results[0],
              em_fmt_str("(g_coreType == AscendC::%s)", aic ? "AIC" : "AIV"));
}

static void emit_cross_core_flag(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *pipe = asc_op_attr(op, "pipe");
  if (!pipe) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc, "%s: malformed op", oi->name);
    e->failed = 1;
    return;
  }
  char *args = em_join_operands(e, op, 0, ASC_DT_NONE);
  char *s = em_fmt_str("%s<%lld, %s%s>(%s)", oi->cpp,
                       (long long)asc_op_attr_int(op, "mode_id", 0),
                       asc_enum_cpp_prefix(ASC_ENUM_PIPEID),
                       asc_enum_value_cpp(ASC_ENUM_PIPEID, pipe->i),
                       args ? args : "");
  free(args);
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

EmSystemRule em_cores_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_ASCEND_IS_AIC:
  case ASC_OP_ASCEND_IS_AIV:
    return emit_core_role;
  case ASC_OP_CROSS_CORE_SET_FLAG:
  case ASC_OP_CROSS_CORE_WAIT_FLAG:
    return emit_cross_core_flag;
  default:
    return NULL;
  }
}
