/* Struct values and declarations in Ascend C: a parameter struct from its
 * fields (its constructor, or a variable and member assignments), a
 * field read or replaced, a user struct's declaration. */
#include <stdlib.h>
#include <string.h>

#include "emitter.h"
#include "sim/sim.h" /* asc_constant_value */

/* The C++ spelling of value v given to field f: an enum field's value as
 * the enum (its member for a constant; a scoped enum takes no integer). */
static char *field_value(Emitter *e, const AscFieldInfo *f, const AscValue *v) {
  char tmp[4096];
  const char *s = em_unparen(em_expr(e, v), tmp, sizeof tmp);
  if (f->enum_kind < 0)
    return em_fmt_str("%s", s);
  AscEnumKind kind = (AscEnumKind)f->enum_kind;
  const char *prefix = asc_enum_cpp_prefix(kind);
  AscSlot c;
  if (v->def && asc_constant_value(v->def, &c) == 0 &&
      asc_enum_value_cpp(kind, c.i))
    return em_fmt_str("%s%s", prefix, asc_enum_value_cpp(kind, c.i));
  size_t n = strlen(prefix);
  if (n > 2 && strcmp(prefix + n - 2, "::") == 0) /* Type:: -> Type */
    return em_fmt_str("static_cast<%.*s>(%s)", (int)(n - 2), prefix, s);
  return em_fmt_str("%s", s);
}

/* The spelling of operand v as an element of an array field f: a constant
 * as it is (a braced list may not narrow a run-time value), else cast. */
static char *element_value(Emitter *e, const AscFieldInfo *f,
                           const AscValue *v) {
  AscSlot c;
  char *s = field_value(e, f, v);
  if (!s || (v->def && asc_constant_value(v->def, &c) == 0))
    return s;
  char *cast =
      em_fmt_str("static_cast<%s>(%s)", asc_dtype_cpp_name(f->dtype), s);
  free(s);
  return cast;
}

/* Array field f of a CTOR struct: a C array of its operands (from operand
 * first), declared before the constructor that takes it. */
static char *declare_array(Emitter *e, AscOp *op, const AscFieldInfo *f,
                           int first) {
  char *name = em_fresh_name(e, f->cpp);
  Buf b = {0};
  em_buf_printf(&b, "%s %s[%d] = {", asc_dtype_cpp_name(f->dtype),
                name ? name : "?", f->len);
  for (int j = 0; j < f->len && first + j < op->n_operands; j++) {
    char *val = element_value(e, f, op->operands[first + j]);
    em_buf_printf(&b, "%s%s", j ? ", " : "", val ? val : "");
    free(val);
  }
  em_buf_printf(&b, "}");
  if (!name || b.failed) { /* (the emitter owns the names it hands out) */
    free(b.s);
    e->failed = 1;
    return NULL;
  }
  em_statement(e, op, b.s);
  free(b.s);
  return em_fmt_str("%s", name);
}

/* A struct from its fields. INIT CTOR: the constructor that takes them in
 * order, inlined into its one use, as DataCopy(..., DataCopyParams(1, 2, 0,
 * 0)) is written by hand (an array field: a C array declared just before,
 * uint32_t shape[8] = {...}, passed by name). INIT FIELDS (no such
 * constructor; the user's structs): a variable, default-initialised, then
 * each member set (an array field element by element: v.shape[0] = ...). */
void emit_struct(Emitter *e, AscOp *op) {
  const AscStructInfo *si = asc_type_struct_info(op->results[0].type);
  if (!si || op->n_operands != si->n_operands) {
    e->failed = 1;
    return;
  }
  if (si->init == ASC_STRUCT_INIT_FIELDS) {
    AscValue *v = &op->results[0];
    char *name = em_fresh_name(e, v->name ? v->name : "s");
    char *decl = name ? em_fmt_str("%s %s{}", si->cpp, name) : NULL;
    em_statement(e, op, decl ? decl : "");
    free(decl);
    for (int k = 0; name && k < op->n_operands; k++) {
      int elem = 0;
      const AscFieldInfo *f =
          &si->fields[asc_struct_operand_field(si, k, &elem)];
      char *val = field_value(e, f, op->operands[k]);
      char *set = f->len > 0
                      ? em_fmt_str("%s.%s[%d] = %s", name, f->cpp, elem, val)
                      : em_fmt_str("%s.%s = %s", name, f->cpp, val);
      em_statement(e, op, set ? set : "");
      free(set);
      free(val);
    }
    em_set_expr(e, v, name ? em_fmt_str("%s", name) : NULL);
    return;
  }
  Buf b = {0};
  em_buf_printf(&b, "%s(", si->cpp);
  for (int i = 0; i < si->n_fields; i++) {
    const AscFieldInfo *f = &si->fields[i];
    char *val = f->len > 0 ? declare_array(e, op, f, f->operand)
                           : field_value(e, f, op->operands[f->operand]);
    em_buf_printf(&b, "%s%s", i ? ", " : "", val ? val : "");
    free(val);
  }
  em_buf_printf(&b, ")");
  if (b.failed) {
    free(b.s);
    e->failed = 1;
    return;
  }
  em_bind(e, op, b.s, 1);
}

/* A field of a struct: value.cppMember; an array element value.cpp[i]; an
 * enum field as the int32 the IR holds it in (a scoped enum converts to no
 * integer by itself). */
void emit_struct_get(Emitter *e, AscOp *op) {
  const AscStructInfo *si = asc_type_struct_info(op->operands[0]->type);
  int k = asc_struct_field_index(si, asc_op_attr_str(op, "field"));
  if (k < 0) {
    e->failed = 1;
    return;
  }
  const AscFieldInfo *f = &si->fields[k];
  if (f->len > 0 && op->n_operands > 1) {
    char tmp[4096];
    em_bind(
        e, op,
        em_fmt_str("%s.%s[%s]", em_expr(e, op->operands[0]), f->cpp,
                   em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp)),
        1);
    return;
  }
  if (f->enum_kind >= 0) {
    em_bind(e, op,
            em_fmt_str("static_cast<int32_t>(%s.%s)",
                       em_expr(e, op->operands[0]), f->cpp),
            1);
    return;
  }
  em_bind(e, op, em_fmt_str("%s.%s", em_expr(e, op->operands[0]), f->cpp), 1);
}

/* A struct with one field (element) replaced: a copy, then the member set. */
void emit_struct_set(Emitter *e, AscOp *op) {
  const AscStructInfo *si = asc_type_struct_info(op->operands[0]->type);
  int k = asc_struct_field_index(si, asc_op_attr_str(op, "field"));
  AscValue *v = &op->results[0];
  char *name = em_declare(e, op, v, "s", em_expr(e, op->operands[0]));
  if (name && k >= 0) {
    const AscFieldInfo *f = &si->fields[k];
    char *val = field_value(e, f, op->operands[1]);
    char tmp[4096];
    char *set =
        f->len > 0 && op->n_operands > 2
            ? em_fmt_str(
                  "%s.%s[%s] = %s", name, f->cpp,
                  em_unparen(em_expr(e, op->operands[2]), tmp, sizeof tmp), val)
            : em_fmt_str("%s.%s = %s", name, f->cpp, val);
    em_statement(e, op, set ? set : "");
    free(set);
    free(val);
  }
  em_set_expr(e, v, name ? em_fmt_str("%s", name) : NULL);
}

/* A user struct's declaration (asc.struct_def), before the functions. */
void emit_struct_def(Emitter *e, AscOp *op) {
  const char *name = asc_op_attr_str(op, "sym_name");
  const AscStructInfo *si = name ? asc_context_find_struct(e->ctx, name) : NULL;
  if (!si) {
    e->failed = 1;
    return;
  }
  em_buf_printf(&e->out, "\nstruct %s {\n", si->cpp);
  for (int i = 0; i < si->n_fields; i++) {
    const AscFieldInfo *f = &si->fields[i];
    em_buf_printf(&e->out, "    %s %s;\n",
                  f->nested ? f->nested->cpp : asc_dtype_cpp_name(f->dtype),
                  f->cpp);
  }
  em_buf_printf(&e->out, "};\n");
}
