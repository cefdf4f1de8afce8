/* Tensor and framework objects and methods in Ascend C: TQueBind and
 * TBufPool declarations, empty tensors, the TPipe pointer, methods that
 * change their object in place, debug output. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

/* ---- tensor and framework methods ---------------------------------------
 */

/* TQueBind<src, dst, depth> and TBufPool<pos, bufIDSize>: declared with the
 * template arguments of the op that makes them (their IR types, a TQue's
 * and a TBuf's, do not carry them). */
void emit_framework_object(Emitter *e, AscOp *op) {
  const AscValue *v = &op->results[0];
  char ty[256];
  int bind_op = op->id == ASC_OP_TQUE_BIND;
  if (bind_op)
    snprintf(ty, sizeof ty,
             "AscendC::TQueBind<AscendC::TPosition::%s, "
             "AscendC::TPosition::%s, %d>",
             em_position_cpp((int)asc_op_attr_int(op, "src", -1)),
             em_position_cpp((int)asc_op_attr_int(op, "dst", -1)),
             v->type->depth);
  else
    snprintf(ty, sizeof ty, "AscendC::TBufPool<AscendC::TPosition::%s, %lld>",
             em_position_cpp(v->type->position),
             (long long)asc_op_attr_int(op, "buf_id_size", 4));
  char *name = em_fresh_name(e, v->name ? v->name : bind_op ? "que" : "pool");
  if (!name)
    return;
  em_line_start(e);
  em_buf_printf(&e->out, "%s %s;", ty, name);
  em_line_end(e, op);
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

/* LocalTensor<T>(): a default-constructed variable. */
void emit_empty_tensor(Emitter *e, AscOp *op) {
  char *name = em_declare(e, op, &op->results[0], "tensor", NULL);
  em_set_expr(e, &op->results[0], name ? em_fmt_str("%s", name) : NULL);
}

/* GetTPipePtr(): a reference to the kernel's TPipe (a copy of a TPipe would
 * be another pipe). */
void emit_tpipe_ptr(Emitter *e, AscOp *op) {
  const AscValue *v = &op->results[0];
  char *name = em_fresh_name(e, v->name ? v->name : "pipe");
  if (!name)
    return;
  em_line_start(e);
  em_buf_printf(&e->out, "AscendC::TPipe &%s = *GetTPipePtr();", name);
  em_line_end(e, op);
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

/* family: ubplan */
void emit_unplanned_auto(Emitter *e, AscOp *op) {
  if (!e->failed && op->id != ASC_OP_LT_AUTO) /* family: tiles */
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
              "%s must be lowered: run the lower-tiles pass",
              asc_op_info(op->id)->name);
  else if (!e->failed)
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
              "asc.local_tensor_auto must be planned: run the plan-ub pass");
  e->failed = 1;
}

/* Makes v a variable when it is an inlined expression (a view t[i]): the
 * methods that take a `LocalTensor<T> &` need an lvalue. */
static void make_lvalue(Emitter *e, AscOp *op, AscValue *v) {
  const char *s = em_expr(e, v);
  int ident = s && *s && !isdigit((unsigned char)*s);
  for (const char *p = s; ident && *p; p++)
    ident = em_is_word_char(*p);
  if (ident)
    return;
  char *name = em_declare(e, op, v, "tensor", s);
  em_set_expr(e, v, name ? em_fmt_str("%s", name) : NULL);
}

/* obj.Method(args) with every tensor operand an lvalue: SetAddrWithOffset,
 * AllocTensor / DeQue in place, TBuf::FreeTensor. */
void emit_method_lvalues(Emitter *e, AscOp *op) {
  for (int i = 0; i < op->n_operands; i++)
    if (op->operands[i]->type->kind == ASC_TY_LOCAL_TENSOR)
      make_lvalue(e, op, op->operands[i]);
  char *args = em_join_operands(e, op, 1, ASC_DT_NONE);
  char *call = em_fmt_str("%s.%s(%s)", em_expr(e, op->operands[0]),
                          asc_op_info(op->id)->cpp, args ? args : "");
  em_statement(e, op, call ? call : "");
  free(call);
  free(args);
}

/* EnQue<srcUserPos, dstUserPos>(tensor), DeQue<srcUserPos, dstUserPos,
 * T>(). */
void emit_que_user_pos(Emitter *e, AscOp *op) {
  char pos[160];
  snprintf(pos, sizeof pos, "AscendC::TPosition::%s, AscendC::TPosition::%s",
           em_position_cpp((int)asc_op_attr_int(op, "src_user_pos", -1)),
           em_position_cpp((int)asc_op_attr_int(op, "dst_user_pos", -1)));
  char tmp[4096];
  if (op->id == ASC_OP_ENQUE_POS) {
    char *call =
        em_fmt_str("%s.EnQue<%s>(%s)", em_expr(e, op->operands[0]), pos,
                   em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp));
    em_statement(e, op, call ? call : "");
    free(call);
    return;
  }
  em_bind(e, op,
          em_fmt_str("%s.DeQue<%s, %s>()", em_expr(e, op->operands[0]), pos,
                     asc_dtype_cpp_name(op->results[0].type->dtype)),
          0);
}

/* SetL2CacheHint<rwMode>(mode): a no-op in the simulator, which has no L2
 * cache. */
void emit_l2_cache_hint(Emitter *e, AscOp *op) {
  const AscAttr *m = asc_op_attr(op, "mode");
  const AscAttr *rw = asc_op_attr(op, "rw_mode");
  char *call =
      em_fmt_str("%s.SetL2CacheHint<%s%s>(%s%s)", em_expr(e, op->operands[0]),
                 asc_enum_cpp_prefix(ASC_ENUM_CACHERWMODE),
                 asc_enum_value_cpp(ASC_ENUM_CACHERWMODE, rw ? rw->i : 3),
                 asc_enum_cpp_prefix(ASC_ENUM_CACHEMODE),
                 asc_enum_value_cpp(ASC_ENUM_CACHEMODE, m ? m->i : 0));
  em_statement(e, op, call ? call : "");
  free(call);
}

/* A C++ string literal of s (quotes, backslashes and bytes outside
 * printable ASCII escaped). */
static char *c_string(const char *s) {
  Buf b = {0};
  em_buf_printf(&b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      em_buf_printf(&b, "\\%c", *p);
    else if (*p < 0x20 || *p >= 0x7f)
      em_buf_printf(&b, "\\%03o", *p);
    else
      em_buf_printf(&b, "%c", *p);
  }
  em_buf_printf(&b, "\"");
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

/* LocalTensor::Print and ToFile exist in the devkit's CPU debug build only;
 * on the NPU a tensor is printed with DumpTensor. */
void emit_debug_output(Emitter *e, AscOp *op) {
  char tmp[4096];
  const char *t = em_expr(e, op->operands[0]);
  em_buf_printf(&e->out,
                "#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1\n");
  if (op->id == ASC_OP_LT_PRINT) {
    const char *n = em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp);
    char *cpu = em_fmt_str("%s.Print(%s)", t, n);
    char *npu = em_fmt_str("AscendC::DumpTensor(%s, 0, %s)", t, n);
    em_statement(e, op, cpu ? cpu : "");
    em_buf_printf(&e->out, "#else\n");
    em_statement(e, op, npu ? npu : "");
    free(cpu);
    free(npu);
  } else {
    char *file = c_string(asc_op_attr_str(op, "file_name"));
    char *call = em_fmt_str("%s.ToFile(%s)", t, file ? file : "\"\"");
    em_statement(e, op, call ? call : "");
    free(call);
    free(file);
  }
  em_buf_printf(&e->out, "#endif\n");
}
