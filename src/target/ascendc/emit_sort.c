/* The sort family in Ascend C: Sort<T, isFullSort>, the two forms of
 * MrgSort (an AscendC::MrgSortSrcList<T> of the four list operands) and
 * GetMrgSortResult's four uint16_t results. Sort32, GetSortLen and
 * GetSortOffset are CALL rows of the op table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"
#include "sim/sim.h" /* asc_constant_value */

/* v as a parameter of C type dt: a constant or a value of dt as it is (a
 * braced list may not narrow a run-time value), else cast. */
static char *as_type(Emitter *e, const AscValue *v, AscDType dt) {
  char tmp[4096];
  AscSlot c;
  const char *s = em_unparen(em_expr(e, v), tmp, sizeof tmp);
  if (v->type->dtype == dt || (v->def && asc_constant_value(v->def, &c) == 0))
    return em_fmt_str("%s", s);
  return em_fmt_str("static_cast<%s>(%s)", asc_dtype_cpp_name(dt), s);
}

/* "AscendC::MrgSortSrcList<T>(a, b, c, d)" of operands 1..4 */
static char *src_list(Emitter *e, AscOp *op) {
  char t[4][4096];
  for (int i = 0; i < 4; i++)
    snprintf(t[i], sizeof t[i], "%s", em_expr(e, op->operands[1 + i]));
  return em_fmt_str("AscendC::MrgSortSrcList<%s>(%s, %s, %s, %s)",
                    asc_dtype_cpp_name(op->operands[0]->type->dtype), t[0],
                    t[1], t[2], t[3]);
}

/* "uint16_t name[4] = {...}" of operands first..first+3: the name */
static char *declare_array(Emitter *e, AscOp *op, const char *hint, AscDType dt,
                           int first) {
  char *name = em_fresh_name(e, hint);
  Buf b = {0};
  em_buf_printf(&b, "%s %s[4] = {", asc_dtype_cpp_name(dt), name ? name : "?");
  for (int i = 0; i < 4; i++) {
    char *s = as_type(e, op->operands[first + i], dt);
    em_buf_printf(&b, "%s%s", i ? ", " : "", s ? s : "");
    free(s);
  }
  em_buf_printf(&b, "}");
  if (!name || b.failed) {
    free(b.s);
    e->failed = 1;
    return NULL;
  }
  em_statement(e, op, b.s);
  free(b.s);
  return name; /* (the emitter owns the names it hands out) */
}

static void emit_sort(Emitter *e, AscOp *op) {
  char a[5][4096];
  for (int i = 0; i < 5; i++)
    snprintf(a[i], sizeof a[i], "%s", em_expr(e, op->operands[i]));
  char *call =
      em_fmt_str("AscendC::Sort<%s, %s>(%s, %s, %s, %s, %s)",
                 asc_dtype_cpp_name(op->operands[0]->type->dtype),
                 asc_op_attr_int(op, "is_full_sort", 0) ? "true" : "false",
                 a[0], a[1], a[2], a[3], a[4]);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

/* MrgSort<T, isExhaustedSuspension>(dst, list, counts, sortedNum, validBit,
 * repeatTime): the list and both arrays are variables (sortedNum is an
 * output array of the devkit) */
static void emit_mrg_sort(Emitter *e, AscOp *op) {
  const char *t = asc_dtype_cpp_name(op->operands[0]->type->dtype);
  char *list = src_list(e, op);
  char *lname = em_fresh_name(e, "sort_list");
  char *decl = list && lname ? em_fmt_str("AscendC::MrgSortSrcList<%s> %s%s", t,
                                          lname, strchr(list, '('))
                             : NULL;
  free(list);
  if (!decl) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, decl);
  free(decl);
  char *counts = declare_array(e, op, "element_count_list", ASC_DT_UINT16, 5);
  char *sorted = declare_array(e, op, "sorted_num", ASC_DT_UINT32, 9);
  char *vb = as_type(e, op->operands[13], ASC_DT_UINT16);
  char *rt = as_type(e, op->operands[14], ASC_DT_INT32);
  char dst[4096];
  snprintf(dst, sizeof dst, "%s", em_expr(e, op->operands[0]));
  char *call =
      counts && sorted && vb && rt
          ? em_fmt_str("AscendC::MrgSort<%s, %s>(%s, %s, %s, %s, %s, %s)", t,
                       asc_op_attr_int(op, "is_exhausted_suspension", 0)
                           ? "true"
                           : "false",
                       dst, lname, counts, sorted, vb, rt)
          : NULL;
  free(vb);
  free(rt);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

/* MrgSort(dst, MrgSortSrcList<T>(...), params) */
static void emit_mrg_sort_info(Emitter *e, AscOp *op) {
  char *list = src_list(e, op);
  char dst[4096], params[4096], tmp[4096];
  snprintf(dst, sizeof dst, "%s", em_expr(e, op->operands[0]));
  snprintf(params, sizeof params, "%s", em_expr(e, op->operands[5]));
  char *call = list ? em_fmt_str("AscendC::MrgSort(%s, %s, %s)", dst, list,
                                 em_unparen(params, tmp, sizeof tmp))
                    : NULL;
  free(list);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

/* uint16_t r0 = 0, ...; GetMrgSortResult(r0, r1, r2, r3); */
static void emit_get_mrg_sort_result(Emitter *e, AscOp *op) {
  char *names[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < 4 && i < op->n_results; i++) {
    names[i] = em_fresh_name(e, "mrg_sort_list");
    char *decl = names[i] ? em_fmt_str("uint16_t %s = 0", names[i]) : NULL;
    if (!decl) {
      e->failed = 1;
      return;
    }
    em_statement(e, op, decl);
    free(decl);
  }
  if (op->n_results != 4) {
    e->failed = 1;
    return;
  }
  char *call = em_fmt_str("AscendC::GetMrgSortResult(%s, %s, %s, %s)", names[0],
                          names[1], names[2], names[3]);
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
  for (int i = 0; i < 4; i++)
    em_set_expr(e, &op->results[i], em_fmt_str("%s", names[i]));
}

void em_sort_family(Emitter *e, AscOp *op) {
  switch (op->id) {
  case ASC_OP_SORT:
    emit_sort(e, op);
    break;
  case ASC_OP_MRG_SORT:
    emit_mrg_sort(e, op);
    break;
  case ASC_OP_MRG_SORT_INFO:
    emit_mrg_sort_info(e, op);
    break;
  case ASC_OP_GET_MRG_SORT_RESULT:
    emit_get_mrg_sort_result(e, op);
    break;
  default:
    e->failed = 1;
    break;
  }
}
