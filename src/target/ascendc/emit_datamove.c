/* The data movement family's calls whose template arguments the generic
 * rules cannot spell: SetAtomicAdd<T>() and its kin (T from the dtype
 * attribute), SetStoreAtomicConfig<AtomicDtype::X, AtomicOp::Y>(),
 * GetStoreAtomicConfig(type, op) with its two uint16_t out-parameters, and
 * SetPadValue<T, TPosition::P>(value). */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

static void malformed(Emitter *e, const AscOp *op) {
  asc_error(e->ctx, ASC_ERR_COMPILE, op->loc, "%s: malformed op",
            asc_op_info(op->id)->name);
  e->failed = 1;
}

static void statement(Emitter *e, const AscOp *op, char *s) {
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

void emit_atomic_typed(Emitter *e, AscOp *op) {
  const AscAttr *t = asc_op_attr(op, "dtype");
  if (!t || t->kind != ASC_ATTR_TYPES || t->n_types != 1) {
    malformed(e, op);
    return;
  }
  statement(e, op,
            em_fmt_str("%s<%s>()", asc_op_info(op->id)->cpp,
                       asc_dtype_cpp_name(t->types[0]->dtype)));
}

void emit_store_atomic_config(Emitter *e, AscOp *op) {
  int64_t t = asc_op_attr_int(op, "atomic_type", 0);
  int64_t o = asc_op_attr_int(op, "atomic_op", 0);
  const char *ts = asc_enum_value_cpp(ASC_ENUM_ATOMICDTYPE, t);
  const char *os = asc_enum_value_cpp(ASC_ENUM_ATOMICOP, o);
  if (!ts || !os) {
    malformed(e, op);
    return;
  }
  statement(e, op,
            em_fmt_str("%s<%s%s, %s%s>()", asc_op_info(op->id)->cpp,
                       asc_enum_cpp_prefix(ASC_ENUM_ATOMICDTYPE), ts,
                       asc_enum_cpp_prefix(ASC_ENUM_ATOMICOP), os));
}

/* uint16_t type; uint16_t op; GetStoreAtomicConfig(type, op); the results
 * are the two variables. */
void emit_get_store_atomic_config(Emitter *e, AscOp *op) {
  if (op->n_results != 2) {
    malformed(e, op);
    return;
  }
  /* em_declare's names belong to the emitter: the results get copies */
  char *n0 = em_declare(e, op, &op->results[0], "atomic_type", NULL);
  char *n1 = n0 ? em_declare(e, op, &op->results[1], "atomic_op", NULL) : NULL;
  if (!n1) {
    e->failed = 1;
    return;
  }
  statement(e, op, em_fmt_str("%s(%s, %s)", asc_op_info(op->id)->cpp, n0, n1));
  em_set_expr(e, &op->results[0], em_fmt_str("%s", n0));
  em_set_expr(e, &op->results[1], em_fmt_str("%s", n1));
}

void emit_set_pad_value(Emitter *e, AscOp *op) {
  const char *t = asc_dtype_cpp_name(op->operands[0]->type->dtype);
  /* no pos attribute: TPosition::MAX, the template's default */
  int64_t pos = asc_op_attr_int(op, "pos", -1);
  const char *p = pos < 0 ? "" : asc_enum_value_cpp(ASC_ENUM_TPOSITION, pos);
  if (!p) {
    malformed(e, op);
    return;
  }
  char tmp[4096];
  const char *v = em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp);
  if (pos < 0)
    statement(e, op,
              em_fmt_str("%s<%s>(static_cast<%s>(%s))",
                         asc_op_info(op->id)->cpp, t, t, v));
  else
    statement(e, op,
              em_fmt_str("%s<%s, %s%s>(static_cast<%s>(%s))",
                         asc_op_info(op->id)->cpp, t,
                         asc_enum_cpp_prefix(ASC_ENUM_TPOSITION), p, t, v));
}
