/* The system family's SPECIAL rows: the rows whose Ascend C call takes a
 * template argument the generic rules do not spell (isAIVOnly, countValue,
 * the tensor's T with CacheLine/DcciDst, ScalarCast's types and RoundMode)
 * and GetArchVersion, whose result is an output parameter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

static void statement_or_fail(Emitter *e, AscOp *op, char *s) {
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

/* SyncAll / IBSet / IBWait<isAIVOnly>(operands...) */
static void emit_aiv_only(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  char *args = em_join_operands(e, op, 0, ASC_DT_NONE);
  int aiv = asc_op_attr_int(op, "is_aiv_only", 1) != 0;
  char *s = em_fmt_str("%s<%s>(%s)", oi->cpp, aiv ? "true" : "false",
                       args ? args : "");
  free(args);
  statement_or_fail(e, op, s);
}

/* DataCacheCleanAndInvalid<T, CacheLine::X[, DcciDst::Y]>(dst) */
static void emit_dcci(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *line = asc_op_attr(op, "entire_type");
  const AscAttr *dst = asc_op_attr(op, "dcci_dst");
  if (!line) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc, "%s: malformed op", oi->name);
    e->failed = 1;
    return;
  }
  char d[160] = "";
  if (dst)
    snprintf(d, sizeof d, ", %s%s", asc_enum_cpp_prefix(ASC_ENUM_DCCIDST),
             asc_enum_value_cpp(ASC_ENUM_DCCIDST, dst->i));
  char *s = em_fmt_str("%s<%s, %s%s%s>(%s)", oi->cpp,
                       asc_dtype_cpp_name(op->operands[0]->type->dtype),
                       asc_enum_cpp_prefix(ASC_ENUM_CACHELINE),
                       asc_enum_value_cpp(ASC_ENUM_CACHELINE, line->i), d,
                       em_expr(e, op->operands[0]));
  statement_or_fail(e, op, s);
}

/* uint32_t v = core_version; GetArchVersion(v); the result is v */
static void emit_arch_version(Emitter *e, AscOp *op) {
  char *name = em_declare(e, op, &op->results[0], "core_version",
                          em_expr(e, op->operands[0]));
  if (!name) {
    e->failed = 1;
    return;
  }
  char *s = em_fmt_str("AscendC::GetArchVersion(%s)", name);
  /* the name stays the function's (em_fresh_name keeps it taken) */
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
  statement_or_fail(e, op, s);
}

/* ScalarGetSFFValue / ScalarGetCountOfValue<countValue>(valueIn) */
static void emit_count_value(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscOp *def = op->operands[1]->def;
  if (!def || def->id != ASC_OP_CONSTANT) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
              "%s: count_value must be a constant (0 or 1): it is the "
              "countValue template argument",
              oi->name);
    e->failed = 1;
    return;
  }
  char tmp[4096];
  char *rhs =
      em_fmt_str("%s<%d>(%s)", oi->cpp, (int)asc_op_attr_int(def, "value", 0),
                 em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  if (!rhs) {
    e->failed = 1;
    return;
  }
  em_bind(e, op, rhs, 1);
}

/* ScalarCast<float, U, RoundMode::M>(valueIn) */
static void emit_scalar_cast_rm(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *m = asc_op_attr(op, "round_mode");
  char tmp[4096];
  char *rhs =
      em_fmt_str("%s<float, %s, %s%s>(%s)", oi->cpp,
                 asc_dtype_cpp_name(op->results[0].type->dtype),
                 asc_enum_cpp_prefix(ASC_ENUM_ROUNDMODE),
                 asc_enum_value_cpp(ASC_ENUM_ROUNDMODE, m ? m->i : 0),
                 em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  if (!rhs) {
    e->failed = 1;
    return;
  }
  em_bind(e, op, rhs, 1);
}

/* SetSysWorkspace(GM_ADDR): the address of any element type as GM_ADDR */
static void emit_set_sys_workspace(Emitter *e, AscOp *op) {
  char tmp[4096];
  char *s =
      em_fmt_str("AscendC::SetSysWorkspace(reinterpret_cast<GM_ADDR>(%s))",
                 em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  statement_or_fail(e, op, s);
}

EmSystemRule em_system_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_SYNC_ALL:
  case ASC_OP_SYNC_ALL_SOFT:
  case ASC_OP_IB_SET:
  case ASC_OP_IB_WAIT:
    return emit_aiv_only;
  case ASC_OP_DCCI:
    return emit_dcci;
  case ASC_OP_GET_ARCH_VERSION:
    return emit_arch_version;
  case ASC_OP_SCALAR_GET_SFF_VALUE:
  case ASC_OP_SCALAR_GET_COUNT_OF_VALUE:
    return emit_count_value;
  case ASC_OP_SCALAR_CAST:
    return emit_scalar_cast_rm;
  case ASC_OP_SET_SYS_WORKSPACE:
    return emit_set_sys_workspace;
  default:
    return NULL;
  }
}
