/* family: matmul. The Ascend C of asc.adv.Matmul: the object
 *   AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM,
 *       CubeFormat::ND, half, false, LayoutMode::NONE>, ..., CFG> mm;
 * (its template parameters are the attributes of asc.matmul; a config
 * other than CFG_NORM a static constexpr MatmulConfig before it, which the
 * reference template parameter MM_CFG can name), REGIST_MATMUL_OBJ(&pipe,
 * GetSysWorkSpacePtr(), mm, &tiling) after SetSysWorkspace(workspace) (the
 * devkit's samples), and mm.Init(&tiling). The other methods are METHOD
 * rows of the op table: mm.SetTensorA(a, false), mm.IterateAll(c, 0, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

/* AscendC::MatmulType<pos, format, T, isTrans, layout> of operand `p`
 * ("a", "b", "c"; "bias" has no isTrans / layout attributes). */
static void matmul_type(const AscOp *op, const char *p, AscDType dt, char *buf,
                        size_t size) {
  char k[32];
  snprintf(k, sizeof k, "%s_pos", p);
  int64_t pos = asc_op_attr_int(op, k, 0);
  snprintf(k, sizeof k, "%s_fmt", p);
  int64_t fmt = asc_op_attr_int(op, k, 0);
  snprintf(k, sizeof k, "%s_trans", p);
  int64_t trans = asc_op_attr_int(op, k, 0);
  snprintf(k, sizeof k, "%s_layout", p);
  int64_t layout = asc_op_attr_int(op, k, 0);
  const char *fmt_s = asc_enum_value_cpp(ASC_ENUM_CUBEFORMAT, fmt);
  const char *lay_s = asc_enum_value_cpp(ASC_ENUM_LAYOUTMODE, layout);
  snprintf(buf, size,
           "AscendC::MatmulType<AscendC::TPosition::%s, %s%s, %s, %s, %s%s>",
           em_position_cpp((int)pos), asc_enum_cpp_prefix(ASC_ENUM_CUBEFORMAT),
           fmt_s ? fmt_s : "ND", asc_dtype_cpp_name(dt),
           trans ? "true" : "false", asc_enum_cpp_prefix(ASC_ENUM_LAYOUTMODE),
           lay_s ? lay_s : "NONE");
}

static void emit_matmul_create(Emitter *e, AscOp *op) {
  const AscAttr *dts = asc_op_attr(op, "dtypes");
  if (!dts || dts->n_types != 4) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
              "asc.matmul: malformed op (dtypes wants the 4 element types of "
              "A, B, C and bias)");
    e->failed = 1;
    return;
  }
  char a[256], b[256], c[256], bias[256];
  matmul_type(op, "a", dts->types[0]->dtype, a, sizeof a);
  matmul_type(op, "b", dts->types[1]->dtype, b, sizeof b);
  matmul_type(op, "c", dts->types[2]->dtype, c, sizeof c);
  matmul_type(op, "bias", dts->types[3]->dtype, bias, sizeof bias);
  const AscValue *v = &op->results[0];
  char *name = em_fresh_name(e, v->name ? v->name : "mm");
  if (!name)
    return;
  const char *cfg = asc_op_attr_str(op, "cfg");
  char *cfg_name = NULL;
  if (cfg && cfg[0]) {
    char hint[300];
    snprintf(hint, sizeof hint, "%s_cfg", name);
    cfg_name = em_fresh_name(e, hint);
    if (!cfg_name)
      return;
    em_line_start(e);
    em_buf_printf(&e->out, "static constexpr MatmulConfig %s = %s;", cfg_name,
                  cfg);
    em_line_end(e, op);
  }
  int64_t policy = asc_op_attr_int(op, "policy", 0);
  const char *pol = asc_enum_value_cpp(ASC_ENUM_MATMULPOLICY, policy);
  em_line_start(e);
  if (policy)
    em_buf_printf(&e->out,
                  "AscendC::Matmul<%s, %s, %s, %s, %s, "
                  "AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>, "
                  "%s%s> %s;",
                  a, b, c, bias, cfg_name ? cfg_name : "CFG_NORM",
                  asc_enum_cpp_prefix(ASC_ENUM_MATMULPOLICY), pol ? pol : "",
                  name);
  else
    em_buf_printf(&e->out, "AscendC::Matmul<%s, %s, %s, %s, %s> %s;", a, b, c,
                  bias, cfg_name ? cfg_name : "CFG_NORM", name);
  em_line_end(e, op);
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

static void emit_matmul_register(Emitter *e, AscOp *op) {
  char *s;
  if (op->id == ASC_OP_MATMUL_INIT) {
    s = em_fmt_str("%s.Init(&%s)", em_expr(e, op->operands[0]),
                   em_expr(e, op->operands[1]));
  } else {
    char *ws =
        em_fmt_str("AscendC::SetSysWorkspace(%s)", em_expr(e, op->operands[1]));
    if (!ws) {
      e->failed = 1;
      return;
    }
    em_statement(e, op, ws);
    free(ws);
    if (op->n_operands > 3)
      s = em_fmt_str("REGIST_MATMUL_OBJ(&%s, GetSysWorkSpacePtr(), "
                     "%s, &%s)",
                     em_expr(e, op->operands[0]), em_expr(e, op->operands[2]),
                     em_expr(e, op->operands[3]));
    else
      s = em_fmt_str("REGIST_MATMUL_OBJ(&%s, GetSysWorkSpacePtr(), "
                     "%s)",
                     em_expr(e, op->operands[0]), em_expr(e, op->operands[2]));
  }
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

static int block_uses_matmul(const AscBlock *b) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    if (op->id == ASC_OP_MATMUL_CREATE)
      return 1;
    for (int r = 0; r < op->n_regions; r++)
      if (block_uses_matmul(op->regions[r].block))
        return 1;
  }
  return 0;
}

/* kernel_operator.h does not declare Matmul: a kernel that makes one
 * includes the matmul API itself, as the devkit's samples do. */
int em_uses_matmul(const AscModule *m) { return block_uses_matmul(m->body); }

EmSystemRule em_matmul_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_MATMUL_CREATE:
    return emit_matmul_create;
  case ASC_OP_MATMUL_REGISTER:
  case ASC_OP_MATMUL_INIT:
    return emit_matmul_register;
  default:
    return NULL;
  }
}
