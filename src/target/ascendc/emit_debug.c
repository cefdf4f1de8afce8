/* Ascend C of the debugging ops (family: debug): AscendC::printf takes its
 * format as a string literal, then the arguments. */
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

/* The format as a C string literal: printf prints no escape but the
 * newline (the verifier refused the others). */
static char *format_literal(const char *s) {
  Buf b = {0};
  em_buf_printf(&b, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\n')
      em_buf_printf(&b, "\\n");
    else if (*p == '"' || *p == '\\')
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

void emit_printf(Emitter *e, AscOp *op) {
  char tmp[4096];
  char *fmt = format_literal(asc_op_attr_str(op, "format"));
  Buf b = {0};
  em_buf_printf(&b, "AscendC::printf(%s", fmt ? fmt : "\"\"");
  for (int i = 0; i < op->n_operands; i++)
    em_buf_printf(&b, ", %s",
                  em_unparen(em_expr(e, op->operands[i]), tmp, sizeof tmp));
  em_buf_printf(&b, ")");
  free(fmt);
  if (b.failed || !fmt) {
    e->failed = 1;
    free(b.s);
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}

/* SetAippFunctions(src0[, src1], AippInputFormat::X, config): the format is
 * the op's attribute, written before the config. */
void emit_set_aipp_functions(Emitter *e, AscOp *op) {
  char tmp[4096];
  const AscAttr *a = asc_op_attr(op, "input_format");
  Buf b = {0};
  em_buf_printf(&b, "AscendC::SetAippFunctions(%s, ",
                em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  if (op->n_operands > 2)
    em_buf_printf(&b, "%s, ",
                  em_unparen(em_expr(e, op->operands[2]), tmp, sizeof tmp));
  const char *v = asc_enum_value_cpp(ASC_ENUM_AIPPINPUTFORMAT, a ? a->i : 0);
  em_buf_printf(&b, "%s%s, %s)", asc_enum_cpp_prefix(ASC_ENUM_AIPPINPUTFORMAT),
                v ? v : "?",
                em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp));
  if (b.failed || !v) {
    e->failed = 1;
    free(b.s);
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}
