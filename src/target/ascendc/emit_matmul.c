/* family: matmul. The Ascend C of asc.adv.Matmul: the object
 *   AscendC::Matmul<AscendC::MatmulType<AscendC::TPosition::GM,
 *       CubeFormat::ND, half, false, LayoutMode::NONE>, ..., CFG> mm;
 * (its template parameters are the attributes of asc.matmul; a config
 * other than CFG_NORM a static constexpr MatmulConfig before it, which the
 * reference template parameter MM_CFG can name), REGIST_MATMUL_OBJ(&pipe,
 * workspace, mm, &tiling) after SetSysWorkspace(workspace) (and, in a MIX
 * kernel, the cube core's clearWorkspace: family entry), and
 * mm.Init(&tiling). The other methods are METHOD
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
  /* family: adv tiling (misc): a MatmulApiStaticTiling as MM_CFG,
   * "call:L1|v,...,v" (GetMatmulApiTiling of the four types and the config;
   * the values for the simulator) or "agg:v,...,v" (its int32 fields, then
   * the config) */
  const char *st = asc_op_attr_str(op, "static_tiling");
  if (st && st[0] && cfg_name) {
    char hint[300];
    snprintf(hint, sizeof hint, "%s_tiling", name);
    char *tname = em_fresh_name(e, hint);
    if (!tname)
      return;
    em_line_start(e);
    if (strncmp(st, "call:", 5) == 0)
      em_buf_printf(&e->out,
                    "static constexpr MatmulApiStaticTiling %s = "
                    "AscendC::GetMatmulApiTiling<%s, %s, %s, %s>(%s, %.*s);",
                    tname, a, b, c, bias, cfg_name, (int)strcspn(st + 5, "|"),
                    st + 5);
    else
      em_buf_printf(&e->out,
                    "static constexpr MatmulApiStaticTiling %s = {%s, %s};",
                    tname, strncmp(st, "agg:", 4) == 0 ? st + 4 : st, cfg_name);
    em_line_end(e, op);
    cfg_name = tname;
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
    /* family: entry: in a kernel of cube and vector cores the vector side
     * of REGIST_MATMUL_OBJ waits for the cube core's signal that the
     * message area is clear, which the devkit's kernel wrapper gives at
     * entry: clearWorkspace on the cube core (extract_host_stub.py,
     * _generate_matmul_clear_source; impl/adv_api/detail/kfc/kernel_kfc.h) */
    if (em_module_has_mix_cores(e->m)) {
      char *clr = em_fmt_str("if (g_coreType == AscendC::AIC) { "
                             "AscendC::clearWorkspace(%s); }",
                             em_expr(e, op->operands[1]));
      if (!clr) {
        e->failed = 1;
        return;
      }
      em_line_start(e);
      em_buf_printf(&e->out, "%s", clr);
      em_line_end(e, op);
      free(clr);
    }
    /* the workspace itself, not GetSysWorkSpacePtr(): on the 2201 device
     * the current devkit's GetSysWorkSpacePtr reads the KFC workspace
     * register, which only SetSysWorkspaceForce (the op framework's
     * wrapper) sets, not SetSysWorkspace (kernel_operator_swap_mem_intf.h,
     * dav_c220/kernel_operator_common_impl.h); upstream pyasc passes it so */
    if (op->n_operands > 3)
      s = em_fmt_str("REGIST_MATMUL_OBJ(&%s, %s, %s, &%s)",
                     em_expr(e, op->operands[0]), em_expr(e, op->operands[1]),
                     em_expr(e, op->operands[2]), em_expr(e, op->operands[3]));
    else
      s = em_fmt_str("REGIST_MATMUL_OBJ(&%s, %s, %s)",
                     em_expr(e, op->operands[0]), em_expr(e, op->operands[1]),
                     em_expr(e, op->operands[2]));
  }
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

/* A value of the struct MatrixOffset (matmul_config.h, which the matmul
 * API's header brings) (mmapi). */
static int is_matrix_offset(const AscType *t) {
  return t &&
         asc_type_struct_info(t) == asc_struct_info(ASC_STRUCT_MATRIX_OFFSET);
}

static int block_uses_matmul(const AscBlock *b) {
  for (int i = 0; b && i < b->n_args; i++)
    if (is_matrix_offset(b->args[i].type))
      return 1;
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    if (op->id == ASC_OP_MATMUL_CREATE)
      return 1;
    for (int r = 0; r < op->n_results; r++)
      if (is_matrix_offset(op->results[r].type))
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

/* ---- mmapi: the methods with template arguments (sync, waitIterateBatch)
 * or operands that are not C++ arguments (ops.def, the mmapi block) ---- */

/* Operands idx[0..n) of op, comma-separated; NULL on failure. */
static char *join_some(Emitter *e, const AscOp *op, const int *idx, int n) {
  Buf b = {0};
  for (int i = 0; i < n; i++)
    em_buf_printf(&b, "%s%s", i ? ", " : "", em_expr(e, op->operands[idx[i]]));
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s ? b.s : em_fmt_str("%s", "");
}

static void emit_matmul_method(Emitter *e, AscOp *op) {
  static const int all[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const int cube[] = {1, 2, 3, 4, 5, 6, 7};
  static const int nbatch[] = {1, 2, 3, 4, 5, 6, 7};
  const AscOpInfo *oi = asc_op_info(op->id);
  const char *obj = em_expr(e, op->operands[0]);
  char targ[64] = "";
  const int *idx = all;
  int n = op->n_operands - 1;
  switch (op->id) {
  case ASC_OP_MATMUL_ITERATE_ASYNC:
  case ASC_OP_MATMUL_ITERATE_ALL_ASYNC:
  case ASC_OP_MATMUL_GET_TENSOR_C_GM_ASYNC:
  case ASC_OP_MATMUL_GET_TENSOR_C_LOCAL_ASYNC:
    snprintf(targ, sizeof targ, "<false>");
    break;
  case ASC_OP_MATMUL_GET_TENSOR_C_RET:
  case ASC_OP_MATMUL_GET_BATCH_TENSOR_C:
  case ASC_OP_MATMUL_GET_BATCH_TENSOR_C_LOCAL:
    snprintf(targ, sizeof targ, "<%s>",
             asc_op_attr_int(op, "sync", 1) ? "true" : "false");
    break;
  case ASC_OP_MATMUL_ITERATE_BATCH:
  case ASC_OP_MATMUL_ITERATE_BATCH_ASYNC:
    /* IterateBatch<sync, waitIterateBatch>(gm, batchA, ..., enAtomic) */
    snprintf(targ, sizeof targ, "<%s, %s>",
             op->id == ASC_OP_MATMUL_ITERATE_BATCH ? "true" : "false",
             em_expr(e, op->operands[10]));
    n = 9;
    break;
  case ASC_OP_MATMUL_ITERATE_BATCH_LOCAL: /* <true>: not the cube form */
    snprintf(targ, sizeof targ, "<true>");
    n = 9;
    break;
  case ASC_OP_MATMUL_ITERATE_BATCH_CUBE:
  case ASC_OP_MATMUL_ITERATE_BATCH_CUBE_LOCAL:
    idx = cube;
    n = 7;
    break;
  case ASC_OP_MATMUL_ITERATE_N_BATCH:
  case ASC_OP_MATMUL_ITERATE_N_BATCH_ASYNC:
    snprintf(targ, sizeof targ, "<%s, %s>",
             op->id == ASC_OP_MATMUL_ITERATE_N_BATCH ? "true" : "false",
             em_expr(e, op->operands[8]));
    idx = nbatch;
    n = 7;
    break;
  case ASC_OP_MATMUL_GET_OFFSET_C: /* <true>, the default, does not build */
    snprintf(targ, sizeof targ, "<false>");
    break;
  default:
    break;
  }
  char *args;
  if (op->id == ASC_OP_MATMUL_SET_SELF_DEFINE_DATA_ADDR ||
      op->id == ASC_OP_MATMUL_SET_USER_DEF_INFO) /* a uint64_t parameter */
    args = em_fmt_str("reinterpret_cast<uint64_t>(%s)",
                      em_expr(e, op->operands[1]));
  /* SetSelfDefineData: the uint64_t overload, not the template T one */
  else if (op->id == ASC_OP_MATMUL_SET_SELF_DEFINE_DATA)
    args = em_fmt_str("static_cast<uint64_t>(%s)", em_expr(e, op->operands[1]));
  else
    args = join_some(e, op, idx, n);
  char *call =
      args ? em_fmt_str("%s.%s%s(%s)", obj, oi->cpp, targ, args) : NULL;
  free(args);
  if (!call) {
    e->failed = 1;
    return;
  }
  if (op->n_results) {
    em_bind(e, op, call, 0);
  } else {
    em_statement(e, op, call);
    free(call);
  }
}

EmSystemRule em_matmul_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_MATMUL_CREATE:
    return emit_matmul_create;
  case ASC_OP_MATMUL_REGISTER:
  case ASC_OP_MATMUL_INIT:
    return emit_matmul_register;
  case ASC_OP_MATMUL_SET_SELF_DEFINE_DATA:
  case ASC_OP_MATMUL_SET_SELF_DEFINE_DATA_ADDR:
  case ASC_OP_MATMUL_SET_USER_DEF_INFO:
  case ASC_OP_MATMUL_GET_OFFSET_C:
  case ASC_OP_MATMUL_ITERATE_ASYNC:
  case ASC_OP_MATMUL_ITERATE_ALL_ASYNC:
  case ASC_OP_MATMUL_GET_TENSOR_C_GM_ASYNC:
  case ASC_OP_MATMUL_GET_TENSOR_C_LOCAL_ASYNC:
  case ASC_OP_MATMUL_GET_TENSOR_C_RET:
  case ASC_OP_MATMUL_ITERATE_BATCH:
  case ASC_OP_MATMUL_ITERATE_BATCH_ASYNC:
  case ASC_OP_MATMUL_ITERATE_BATCH_LOCAL:
  case ASC_OP_MATMUL_ITERATE_BATCH_CUBE:
  case ASC_OP_MATMUL_ITERATE_BATCH_CUBE_LOCAL:
  case ASC_OP_MATMUL_ITERATE_N_BATCH:
  case ASC_OP_MATMUL_ITERATE_N_BATCH_ASYNC:
  case ASC_OP_MATMUL_GET_BATCH_TENSOR_C:
  case ASC_OP_MATMUL_GET_BATCH_TENSOR_C_LOCAL:
    return emit_matmul_method;
  default:
    return NULL;
  }
}
