/* The Ascend C of the cmpsel family's rows (ops.def): Compare/Compares'
 * level-0 and register forms, GetCmpMask/SetCmpMask, Select and the
 * level-0 reductions. Their operands are in upstream pyasc's order, which
 * is the devkit's argument order except for the enum argument (CMPMODE,
 * SELMODE before the mask or count; ReduceOrder last) and the mask, one
 * argument: `uint64_t mask[2] = {mask0, mask1}` declared before the call in
 * bit mode, else one integer (uint64_t for Compare/Select, int32_t for the
 * reductions, whose two overloads a literal 0 would make ambiguous). */
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

typedef struct CsRule {
  AscOpId id;
  const char *enum_before; /* the operand the enum precedes; "" last */
  int mask_i32;            /* continuous mask as int32_t */
  int targs;               /* isSetMask=false template: 2 <T, U, false>,
                              1 <T, false>, 0 none */
} CsRule;

static const CsRule rules[] = {
    {ASC_OP_COMPARE_L0, "mask0", 0, 2},
    {ASC_OP_COMPARE_SCALAR_L0, "mask0", 0, 2},
    {ASC_OP_COMPARE_CMPMASK, "mask0", 0, 1},
    {ASC_OP_GET_CMP_MASK, NULL, 0, 0},
    {ASC_OP_SET_CMP_MASK, NULL, 0, 0},
    {ASC_OP_SELECT, "count", 0, 0},
    {ASC_OP_SELECT_SCALAR, "count", 0, 0},
    {ASC_OP_SELECT_L0, "mask0", 0, 2},
    {ASC_OP_SELECT_SCALAR_L0, "mask0", 0, 2},
    {ASC_OP_SELECT_CMPMASK, NULL, 0, 0},
    {ASC_OP_SELECT_SCALAR_CMPMASK, NULL, 0, 0},
    {ASC_OP_WHOLE_REDUCE_MAX, "", 1, 1},
    {ASC_OP_WHOLE_REDUCE_MIN, "", 1, 1},
    {ASC_OP_WHOLE_REDUCE_SUM, NULL, 1, 1},
    {ASC_OP_BLOCK_REDUCE_MAX, NULL, 1, 1},
    {ASC_OP_BLOCK_REDUCE_MIN, NULL, 1, 1},
    {ASC_OP_BLOCK_REDUCE_SUM, NULL, 1, 1},
    {ASC_OP_PAIR_REDUCE_SUM, NULL, 1, 1},
    {ASC_OP_REPEAT_REDUCE_SUM, NULL, 1, 1},
    {ASC_OP_REDUCE_MAX_L0, NULL, 1, 0},
    {ASC_OP_REDUCE_MIN_L0, NULL, 1, 0},
    {ASC_OP_REDUCE_SUM_L0, NULL, 1, 0},
};

static const CsRule *find_rule(AscOpId id) {
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    if (rules[i].id == id)
      return &rules[i];
  return NULL;
}

static const AscAttr *enum_attr(const AscOp *op) {
  for (int i = 0; i < op->n_attrs; i++)
    if (op->attrs[i].kind == ASC_ATTR_ENUM)
      return &op->attrs[i];
  return NULL;
}

static void put_enum(Buf *b, const AscAttr *a, int *first) {
  em_buf_printf(b, "%s%s%s", *first ? "" : ", ",
                asc_enum_cpp_prefix(a->enum_kind),
                asc_enum_value_cpp(a->enum_kind, a->i));
  *first = 0;
}

/* The element type of the tensor operand before operand i. */
static AscDType tensor_before(const AscOp *op, int i) {
  for (int k = i - 1; k >= 0; k--)
    if (asc_type_is_tensor(op->operands[k]->type))
      return op->operands[k]->type->dtype;
  return ASC_DT_NONE;
}

void emit_cmpsel(Emitter *e, AscOp *op) {
  const CsRule *r = find_rule(op->id);
  if (!r) {
    e->failed = 1;
    return;
  }
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *en = enum_attr(op);
  char tmp[4096];
  Buf b = {0};
  em_buf_printf(&b, "%s", oi->cpp);
  AscDType t0 = op->operands[0]->type->dtype;
  if (op->id == ASC_OP_SELECT_CMPMASK && en) { /* Select<T, SELMODE::X> */
    em_buf_printf(&b, "<%s, %s%s>", asc_dtype_cpp_name(t0),
                  asc_enum_cpp_prefix(en->enum_kind),
                  asc_enum_value_cpp(en->enum_kind, en->i));
    en = NULL;
  } else if (op->id == ASC_OP_SELECT_SCALAR_CMPMASK) { /* Select<T, U> */
    em_buf_printf(&b, "<%s, %s>", asc_dtype_cpp_name(t0),
                  asc_dtype_cpp_name(op->operands[1]->type->dtype));
  } else if (r->targs && !asc_op_attr_int(op, "is_set_mask", 1)) {
    /* Compare<T, U, false>: T the sources', U dst's or sel_mask's type */
    int is_sel =
        op->id == ASC_OP_SELECT_L0 || op->id == ASC_OP_SELECT_SCALAR_L0;
    AscDType t = is_sel || op->id == ASC_OP_COMPARE_CMPMASK
                     ? t0
                     : op->operands[1]->type->dtype;
    if (r->targs == 2)
      em_buf_printf(
          &b, "<%s, %s, false>", asc_dtype_cpp_name(t),
          asc_dtype_cpp_name(op->operands[is_sel ? 1 : 0]->type->dtype));
    else
      em_buf_printf(&b, "<%s, false>", asc_dtype_cpp_name(t));
  }
  em_buf_printf(&b, "(");
  int first = 1;
  for (int i = 0; i < op->n_operands; i++) {
    const char *name = oi->operands[i].name;
    const AscValue *v = op->operands[i];
    if (strcmp(name, "mask1") == 0)
      continue;
    if (en && r->enum_before && strcmp(name, r->enum_before) == 0)
      put_enum(&b, en, &first);
    em_buf_printf(&b, "%s", first ? "" : ", ");
    first = 0;
    if (strcmp(name, "mask0") == 0) {
      const char *m0 = em_unparen(em_expr(e, v), tmp, sizeof tmp);
      if (asc_op_attr_int(op, "mask_mode", 0) & 1) {
        char *mname = em_fresh_name(e, "mask");
        char *a0 = em_fmt_str("static_cast<uint64_t>(%s)", m0);
        char *a1 = em_fmt_str(
            "static_cast<uint64_t>(%s)",
            em_unparen(em_expr(e, op->operands[i + 1]), tmp, sizeof tmp));
        char *decl =
            em_fmt_str("uint64_t %s[2] = {%s, %s}", mname ? mname : "mask",
                       a0 ? a0 : "", a1 ? a1 : "");
        em_statement(e, op, decl ? decl : "");
        em_buf_printf(&b, "%s", mname ? mname : "mask");
        free(decl);
        free(a0);
        free(a1);
      } else {
        em_buf_printf(&b, "static_cast<%s>(%s)",
                      r->mask_i32 ? "int32_t" : "uint64_t", m0);
      }
      continue;
    }
    if (oi->operands[i].kind == ASC_OK_NUM) { /* a T scalar */
      AscDType el = tensor_before(op, i);
      const char *s = em_unparen(em_expr(e, v), tmp, sizeof tmp);
      if (v->type->dtype == el)
        em_buf_printf(&b, "%s", s);
      else
        em_buf_printf(&b, "static_cast<%s>(%s)", asc_dtype_cpp_name(el), s);
      continue;
    }
    if (strcmp(name, "cal_index") == 0) {
      em_buf_printf(&b, "static_cast<bool>(%s)",
                    em_unparen(em_expr(e, v), tmp, sizeof tmp));
      continue;
    }
    em_buf_printf(&b, "%s", em_unparen(em_expr(e, v), tmp, sizeof tmp));
  }
  if (en && r->enum_before && !r->enum_before[0])
    put_enum(&b, en, &first);
  em_buf_printf(&b, ")");
  if (b.failed) {
    e->failed = 1;
  } else {
    em_statement(e, op, b.s);
  }
  free(b.s);
}
