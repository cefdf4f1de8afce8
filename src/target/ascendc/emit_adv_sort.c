/* family: adv sort. AscendC::Concat(concat, src, tmp, repeatTime): its
 * first parameter is a non-const LocalTensor<T>& (on the Ascend910B the
 * call assigns src to it), so dst must be a named tensor: a view or other
 * expression is first declared as a variable, which later uses of dst then
 * name. Extract is a CALL row of the op table. */
#include <stdlib.h>

#include "emitter.h"

static void emit_concat(Emitter *e, AscOp *op) {
  AscValue *dst = op->operands[0];
  const char *s = em_expr(e, dst);
  int ident = s && *s;
  for (const char *p = s; ident && *p; p++)
    ident = em_is_word_char(*p);
  if (!ident) {
    char *name = em_declare(e, op, dst, "concat", s);
    /* (the name stays the emitter's: em_fresh_name records it) */
    em_set_expr(e, dst, name ? em_fmt_str("%s", name) : NULL);
  }
  char *args = em_join_operands(e, op, 1, ASC_DT_NONE);
  char *call =
      em_fmt_str("AscendC::Concat(%s, %s)", em_expr(e, dst), args ? args : "");
  if (!args || !call)
    e->failed = 1;
  else
    em_statement(e, op, call);
  free(call);
  free(args);
}

EmSystemRule em_adv_sort_rule(AscOpId id) {
  return id == ASC_OP_ADV_SORT_CONCAT ? emit_concat : NULL;
}
