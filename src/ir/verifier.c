/* The verifier: checks every op against its op-table row, the structure of
 * regions and terminators, and that every operand is defined before use. */
#include <stdio.h>
#include <string.h>

#include "asc/ir.h"
#include "printf_format.h"
#include "sim/sim.h" /* asc_constant_value: a constant index */

typedef struct Verifier {
  AscContext *ctx;
  AscModule *m;
  const AscOp *func; /* the function being verified */
} Verifier;

static int kind_matches(char kind, const AscType *t) {
  switch (kind) {
  case ASC_OK_LOCAL:
    return t->kind == ASC_TY_LOCAL_TENSOR;
  case ASC_OK_GLOBAL:
    return t->kind == ASC_TY_GLOBAL_TENSOR;
  case ASC_OK_ADDR:
    return t->kind == ASC_TY_GLOBAL_ADDRESS;
  case ASC_OK_INT:
    return asc_type_is_int(t);
  case ASC_OK_FLOAT:
    return asc_type_is_float(t);
  case ASC_OK_NUM:
    return t->kind == ASC_TY_SCALAR && t->dtype != ASC_DT_NONE;
  case ASC_OK_PIPE:
    return t->kind == ASC_TY_TPIPE;
  case ASC_OK_QUE:
    return t->kind == ASC_TY_TQUE;
  case ASC_OK_BUF:
    return t->kind == ASC_TY_TBUF;
  case ASC_OK_STRUCT:
    return t->kind == ASC_TY_STRUCT;
  /* family: listtensor */
  case ASC_OK_TENSOR_DESC:
    return t->kind == ASC_TY_TENSOR_DESC;
  case ASC_OK_LIST_TENSOR_DESC:
    return t->kind == ASC_TY_LIST_TENSOR_DESC;
  default:
    return 1;
  }
}

static const char *kind_name(char kind) {
  switch (kind) {
  case ASC_OK_LOCAL:
    return "a LocalTensor";
  case ASC_OK_GLOBAL:
    return "a GlobalTensor";
  case ASC_OK_ADDR:
    return "a GlobalAddress";
  case ASC_OK_INT:
    return "an integer";
  case ASC_OK_FLOAT:
    return "a float";
  case ASC_OK_NUM:
    return "a number";
  case ASC_OK_PIPE:
    return "a TPipe";
  case ASC_OK_QUE:
    return "a TQue";
  case ASC_OK_BUF:
    return "a TBuf";
  case ASC_OK_STRUCT:
    return "a parameter struct";
  /* family: listtensor */
  case ASC_OK_TENSOR_DESC:
    return "a TensorDesc";
  case ASC_OK_LIST_TENSOR_DESC:
    return "a ListTensorDesc";
  default:
    return "a value";
  }
}

static AscStatus fail(Verifier *v, const AscOp *op, const char *msg,
                      const char *detail) {
  const AscOpInfo *info = asc_op_info(op->id);
  return asc_error(v->ctx, ASC_ERR_COMPILE, op->loc, "%s: %s%s",
                   info ? info->name : "?", msg, detail ? detail : "");
}

/* The type a value of field f has: its number type or its struct's. */
static int field_type_matches(const AscFieldInfo *f, const AscType *t,
                              int exact) {
  if (f->nested)
    return asc_type_struct_info(t) == f->nested;
  if (exact)
    return t->kind == ASC_TY_SCALAR && t->dtype == f->dtype;
  return asc_dtype_is_float(f->dtype) ? kind_matches(ASC_OK_NUM, t)
                                      : asc_type_is_int(t);
}

static void describe_field(const AscFieldInfo *f, char *buf, size_t n) {
  if (f->nested)
    snprintf(buf, n, "a %s", f->nested->name);
  else
    snprintf(buf, n, "%s %s",
             asc_dtype_is_float(f->dtype) ? "a number, held as"
                                          : "an integer, held as",
             asc_dtype_ir_name(f->dtype));
}

/* The field an asc.struct.get / .set names, or NULL after an error. */
static const AscFieldInfo *named_field(Verifier *v, const AscOp *op) {
  char buf[160];
  const AscStructInfo *si = asc_type_struct_info(op->operands[0]->type);
  const char *field = asc_op_attr_str(op, "field");
  int k = asc_struct_field_index(si, field ? field : "");
  if (!si || k < 0) {
    snprintf(buf, sizeof buf, "%s has no field '%s'", si ? si->name : "?",
             field ? field : "");
    fail(v, op, buf, NULL);
    return NULL;
  }
  return &si->fields[k];
}

/* The index operand of an asc.struct.get / .set (operand k): an array
 * field needs one, an integer (in range when it is a constant); any other
 * field has none. */
static AscStatus check_index(Verifier *v, const AscOp *op,
                             const AscFieldInfo *f, int k) {
  char buf[160];
  if (f->len <= 0) {
    if (op->n_operands > k) {
      snprintf(buf, sizeof buf, "field %s is no array: it takes no index",
               f->name);
      return fail(v, op, buf, NULL);
    }
    return ASC_OK;
  }
  if (op->n_operands <= k || !asc_type_is_int(op->operands[k]->type)) {
    snprintf(buf, sizeof buf,
             "field %s is an array of %d: give the element's index as an "
             "integer operand",
             f->name, f->len);
    return fail(v, op, buf, NULL);
  }
  AscSlot c;
  const AscValue *ix = op->operands[k];
  if (ix->def && asc_constant_value(ix->def, &c) == 0 &&
      (c.i < 0 || c.i >= f->len)) {
    snprintf(buf, sizeof buf, "index %lld is out of the bounds of %s[%d]",
             (long long)c.i, f->name, f->len);
    return fail(v, op, buf, NULL);
  }
  return ASC_OK;
}

/* asc.struct: one operand per field (an array field: one per element), of
 * the field's kind (a number for a number field, a value of the nested
 * struct for a struct field); asc.struct.get: a field the struct has (an
 * element of an array field, by an index operand), read as its type;
 * asc.struct.set: a value of the field's kind, the result the struct's
 * type. (That the constants fit the fields' C types is
 * asc_check_cpp_constants'.) */
static AscStatus check_struct(Verifier *v, const AscOp *op) {
  char buf[256], want[96];
  if (op->id == ASC_OP_STRUCT) {
    const AscStructInfo *si = asc_type_struct_info(op->results[0].type);
    if (!si)
      return fail(v, op, "the result must be a struct", NULL);
    if (op->n_operands != si->n_operands) {
      if (si->n_operands == si->n_fields)
        snprintf(buf, sizeof buf, "%s has %d fields, got %d values", si->name,
                 si->n_fields, op->n_operands);
      else
        snprintf(buf, sizeof buf,
                 "%s takes %d values (one per field, an array field one per "
                 "element), got %d",
                 si->name, si->n_operands, op->n_operands);
      return fail(v, op, buf, NULL);
    }
    for (int k = 0; k < op->n_operands; k++) {
      int elem = 0;
      const AscFieldInfo *f =
          &si->fields[asc_struct_operand_field(si, k, &elem)];
      if (!field_type_matches(f, op->operands[k]->type, 0)) {
        describe_field(f, want, sizeof want);
        if (f->len > 0)
          snprintf(buf, sizeof buf, "element %d of field %s of %s must be %s",
                   elem, f->name, si->name, want);
        else
          snprintf(buf, sizeof buf, "field %s of %s must be %s", f->name,
                   si->name, want);
        return fail(v, op, buf, NULL);
      }
    }
    return ASC_OK;
  }
  const AscFieldInfo *f = named_field(v, op);
  if (!f)
    return ASC_ERR_COMPILE;
  describe_field(f, want, sizeof want);
  if (op->id == ASC_OP_STRUCT_GET) {
    if (!field_type_matches(f, op->results[0].type, 1)) {
      snprintf(buf, sizeof buf, "field %s is %s", f->name, want);
      return fail(v, op, "the result must have the field's type: ", buf);
    }
    return check_index(v, op, f, 1);
  }
  if (op->id == ASC_OP_STRUCT_SET &&
      (!field_type_matches(f, op->operands[1]->type, 0) ||
       op->results[0].type != op->operands[0]->type)) {
    snprintf(buf, sizeof buf, "field %s is %s, and the result the struct",
             f->name, want);
    return fail(v, op, "wrong types: ", buf);
  }
  return check_index(v, op, f, 2);
}

/* asc.struct_def (module level): the struct it declares was defined in the
 * context when it was made or parsed, with these fields. */
static AscStatus check_struct_def(Verifier *v, const AscOp *op) {
  const char *name = asc_op_attr_str(op, "sym_name");
  const AscStructInfo *si = name ? asc_context_find_struct(v->ctx, name) : NULL;
  const AscAttr *types = asc_op_attr(op, "field_types");
  if (!si || si->id != ASC_STRUCT_USER || !types ||
      types->n_types != si->n_fields)
    return fail(v, op, "a struct declaration its context does not know", NULL);
  for (int i = 0; i < si->n_fields; i++)
    if (!field_type_matches(&si->fields[i], types->types[i], 1))
      return fail(v, op, "the declaration differs from the struct's fields",
                  NULL);
  return ASC_OK;
}

static AscStatus check_signature(Verifier *v, const AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  char buf[160];
  if (!info)
    return fail(v, op, "unknown op", NULL);
  if (op->n_operands < info->n_required ||
      (!info->variadic && op->n_operands > info->n_operands)) {
    snprintf(buf, sizeof buf, "%d, expected %d", op->n_operands,
             info->n_required);
    return fail(v, op, "wrong number of operands: ", buf);
  }
  for (int i = 0; i < op->n_operands && i < info->n_operands; i++) {
    const AscOperandSpec *s = &info->operands[i];
    if (!op->operands[i])
      return fail(v, op, "missing operand ", s->name);
    if (!kind_matches(s->kind, op->operands[i]->type)) {
      char ty[96];
      asc_type_format(op->operands[i]->type, ty, sizeof ty);
      snprintf(buf, sizeof buf, "'%s' must be %s, got %s", s->name,
               kind_name(s->kind), ty);
      return fail(v, op, "operand ", buf);
    }
    const AscStructInfo *got = asc_type_struct_info(op->operands[i]->type);
    if (s->struct_id >= 0 && (!got || (int)got->id != s->struct_id)) {
      const AscStructInfo *want = asc_struct_info(s->struct_id);
      char ty[96];
      asc_type_format(op->operands[i]->type, ty, sizeof ty);
      snprintf(buf, sizeof buf, "'%s' must be a %s, got %s", s->name,
               want ? want->name : "?", ty);
      return fail(v, op, "operand ", buf);
    }
  }
  for (int i = info->n_operands; i < op->n_operands; i++)
    if (!op->operands[i])
      return fail(v, op, "missing variadic operand", NULL);
  if (op->n_results < info->n_results ||
      (!info->variadic_results && op->n_results != info->n_results))
    return fail(v, op, "wrong number of results", NULL);
  for (int i = 0; i < info->n_results; i++) {
    if (!op->results[i].type ||
        !kind_matches(info->results[i], op->results[i].type)) {
      snprintf(buf, sizeof buf, "result %d must be %s", i,
               kind_name(info->results[i]));
      return fail(v, op, buf, NULL);
    }
    const AscStructInfo *got = asc_type_struct_info(op->results[i].type);
    int want = info->result_struct_ids[i];
    if (want >= 0 && (!got || (int)got->id != want)) {
      const AscStructInfo *w = asc_struct_info((AscStructId)want);
      snprintf(buf, sizeof buf, "result %d must be a %s", i, w ? w->name : "?");
      return fail(v, op, buf, NULL);
    }
  }
  for (int i = 0; i < info->n_attrs; i++) {
    const AscAttrSpec *s = &info->attrs[i];
    const AscAttr *a = asc_op_attr(op, s->name);
    if (!a) {
      if (s->optional)
        continue;
      return fail(v, op, "missing attribute ", s->name);
    }
    AscEnumKind ek = asc_enum_kind_from_name(s->kind);
    if (ek != ASC_ENUM_KIND_COUNT) {
      if (a->kind != ASC_ATTR_ENUM || a->enum_kind != ek ||
          !asc_enum_value_name(ek, a->i)) {
        snprintf(buf, sizeof buf, "'%s' must be a %s", s->name, s->kind);
        return fail(v, op, "attribute ", buf);
      }
    } else if ((strcmp(s->kind, "int") == 0 && a->kind != ASC_ATTR_INT) ||
               (strcmp(s->kind, "str") == 0 && a->kind != ASC_ATTR_STR) ||
               (strcmp(s->kind, "types") == 0 && a->kind != ASC_ATTR_TYPES)) {
      return fail(v, op, "attribute has the wrong kind: ", s->name);
    }
  }
  return ASC_OK;
}

/* Type rules the signature strings cannot say. */
/* An integer constant must fit its type (a wider value would be silently
 * truncated by the simulator and rejected by a C++ compiler). */
static AscStatus check_constant(Verifier *v, const AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "value");
  const AscType *t = op->results[0].type;
  if (!a || !asc_type_is_int(t) || a->kind != ASC_ATTR_INT)
    return ASC_OK;
  size_t bits = asc_dtype_size(t->dtype) * 8;
  if (t->dtype == ASC_DT_BOOL) {
    if (a->i == 0 || a->i == 1)
      return ASC_OK;
  } else if (bits >= 64) {
    return ASC_OK;
  } else if (asc_dtype_is_unsigned_int(t->dtype)) {
    if (a->i >= 0 && a->i < ((int64_t)1 << bits))
      return ASC_OK;
  } else if (a->i >= -((int64_t)1 << (bits - 1)) &&
             a->i < ((int64_t)1 << (bits - 1))) {
    return ASC_OK;
  }
  char buf[96];
  snprintf(buf, sizeof buf, "%lld does not fit %s", (long long)a->i,
           asc_dtype_name(t->dtype));
  return fail(v, op, "constant value ", buf);
}

/* family: tiles, the cube side (ops.def): the positions, element types and
 * dims of asc2's cube tile ops. */
static int cube_pos(const AscValue *v) {
  const AscType *t = v->type;
  return t && t->kind == ASC_TY_LOCAL_TENSOR ? t->position : -1;
}

static int cube_dtype_ok(AscDType d) {
  return d == ASC_DT_FLOAT16 || d == ASC_DT_BFLOAT16 || d == ASC_DT_FLOAT32;
}

static int fractal_dims(const AscOp *op, const char *a, const char *b) {
  int64_t x = asc_op_attr_int(op, a, 0), y = asc_op_attr_int(op, b, 0);
  return x > 0 && y > 0 && x % 16 == 0 && y % 16 == 0 && x <= 4096 && y <= 4096;
}

static AscStatus check_cube_tile(Verifier *v, const AscOp *op) {
  char buf[200];
  const char *dims_a =
      op->id == ASC_OP_TILE_MATMUL || op->id == ASC_OP_TILE_MATMUL_ACC ? "m"
                                                                       : "rows";
  const char *dims_b =
      op->id == ASC_OP_TILE_MATMUL || op->id == ASC_OP_TILE_MATMUL_ACC ? "n"
                                                                       : "cols";
  if (!fractal_dims(op, dims_a, dims_b) ||
      ((op->id == ASC_OP_TILE_MATMUL || op->id == ASC_OP_TILE_MATMUL_ACC) &&
       !fractal_dims(op, "k", "k")) ||
      (op->id == ASC_OP_TILE_CUBE_COPY &&
       !fractal_dims(op, "src_rows", "src_cols")))
    return fail(v, op,
                "a cube tile's dims must be positive multiples of 16 (one "
                "fractal), at most 4096",
                NULL);
  int rp = op->n_results ? cube_pos(&op->results[0]) : -1;
  AscDType rd = op->n_results ? op->results[0].type->dtype : ASC_DT_NONE;
  switch (op->id) {
  case ASC_OP_TILE_CUBE_LOAD:
    if (rp != ASC_TPOSITION_A1 && rp != ASC_TPOSITION_A2 &&
        rp != ASC_TPOSITION_B2)
      return fail(v, op, "the result must be a tile at A1, A2 or B2", NULL);
    if (!cube_dtype_ok(rd) || rd != op->operands[0]->type->dtype)
      return fail(v, op,
                  "the result must hold the tensor's element type (float16, "
                  "bfloat16 or float32)",
                  NULL);
    return ASC_OK;
  case ASC_OP_TILE_CUBE_COPY: {
    int sp = cube_pos(op->operands[0]);
    AscDType sd = op->operands[0]->type->dtype;
    if (sp == ASC_TPOSITION_A1 &&
        (rp == ASC_TPOSITION_A2 || rp == ASC_TPOSITION_B2)) {
      if (rd != sd || !cube_dtype_ok(rd))
        return fail(v, op, "the result must hold the source's element type",
                    NULL);
      if (asc_op_attr_int(op, "rows", 0) > asc_op_attr_int(op, "src_rows", 0) ||
          asc_op_attr_int(op, "cols", 0) > asc_op_attr_int(op, "src_cols", 0))
        return fail(v, op, "the part must lie inside the source tile", NULL);
      return ASC_OK;
    }
    if (sp == ASC_TPOSITION_CO1 && rp == ASC_TPOSITION_A1) {
      if (sd != ASC_DT_FLOAT32 ||
          (rd != ASC_DT_FLOAT16 && rd != ASC_DT_BFLOAT16))
        return fail(v, op,
                    "an L0C tile (float32) goes to L1 as float16 or bfloat16",
                    NULL);
      if (asc_op_attr_int(op, "rows", 0) !=
              asc_op_attr_int(op, "src_rows", 0) ||
          asc_op_attr_int(op, "cols", 0) != asc_op_attr_int(op, "src_cols", 0))
        return fail(v, op, "an L0C tile goes to L1 whole", NULL);
      return ASC_OK;
    }
    return fail(v, op, "copies an A1 tile into A2 / B2, or a CO1 tile into A1",
                NULL);
  }
  case ASC_OP_TILE_ZEROS_ACC:
    if (rp != ASC_TPOSITION_CO1 || rd != ASC_DT_FLOAT32)
      return fail(v, op, "the result must be a float32 tile at CO1", NULL);
    return ASC_OK;
  case ASC_OP_TILE_MATMUL:
  case ASC_OP_TILE_MATMUL_ACC: {
    const AscValue *acc =
        op->id == ASC_OP_TILE_MATMUL ? &op->results[0] : op->operands[2];
    AscDType ad = op->operands[0]->type->dtype;
    if (cube_pos(op->operands[0]) != ASC_TPOSITION_A2 ||
        cube_pos(op->operands[1]) != ASC_TPOSITION_B2 ||
        cube_pos(acc) != ASC_TPOSITION_CO1)
      return fail(v, op, "takes a at A2 and b at B2 into a tile at CO1", NULL);
    if (ad != op->operands[1]->type->dtype || !cube_dtype_ok(ad) ||
        acc->type->dtype != ASC_DT_FLOAT32) {
      snprintf(buf, sizeof buf,
               "a and b must hold one type (float16, bfloat16 or float32) "
               "and the accumulator float32, got %s, %s and %s",
               asc_dtype_name(ad), asc_dtype_name(op->operands[1]->type->dtype),
               asc_dtype_name(acc->type->dtype));
      return fail(v, op, buf, NULL);
    }
    return ASC_OK;
  }
  default: /* ASC_OP_TILE_CUBE_STORE */
    if (cube_pos(op->operands[1]) != ASC_TPOSITION_CO1 ||
        op->operands[1]->type->dtype != ASC_DT_FLOAT32)
      return fail(v, op, "stores a float32 tile at CO1", NULL);
    if (!cube_dtype_ok(op->operands[0]->type->dtype))
      return fail(v, op, "the tensor must hold float32, float16 or bfloat16",
                  NULL);
    return ASC_OK;
  }
}

static AscStatus check_types(Verifier *v, const AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  if (op->id == ASC_OP_CONSTANT)
    return check_constant(v, op);
  if (op->id >= ASC_OP_TILE_CUBE_LOAD && op->id <= ASC_OP_TILE_CUBE_STORE)
    return check_cube_tile(v, op);
  if (op->id == ASC_OP_STRUCT || op->id == ASC_OP_STRUCT_GET ||
      op->id == ASC_OP_STRUCT_SET)
    return check_struct(v, op);
  if (op->id == ASC_OP_STRUCT_DEF)
    return fail(v, op, "a struct is declared at module level", NULL);
  /* family debug: printf's format and its arguments' types */
  if (op->id == ASC_OP_PRINTF)
    return asc_printf_verify(v->ctx, op);
  if (info->pipe == ASC_PIPE_V || info->pipe == ASC_PIPE_MTE2 ||
      info->pipe == ASC_PIPE_MTE3) {
    AscDType dt = ASC_DT_NONE;
    int first = -1; /* the first tensor operand tied to the others */
    for (int i = 0; i < op->n_operands; i++) {
      const AscType *t = op->operands[i]->type;
      if (!asc_type_is_tensor(t) ||
          (i < info->n_operands && info->operands[i].own_dtype))
        continue;
      if (dt == ASC_DT_NONE) {
        dt = t->dtype;
        first = i;
      } else if (t->dtype != dt) {
        char buf[160];
        const char *a = first < info->n_operands ? info->operands[first].name
                                                 : "the tensor operands";
        const char *b = i < info->n_operands ? info->operands[i].name : "";
        snprintf(buf, sizeof buf,
                 "%s%s%s must have one element type, got %s and %s", a,
                 *b ? " and " : "", b, asc_dtype_name(dt),
                 asc_dtype_name(t->dtype));
        return fail(v, op, buf, NULL);
      }
    }
  }
  if (op->id == ASC_OP_SELECT_S &&
      (op->operands[1]->type != op->operands[2]->type ||
       op->results[0].type != op->operands[1]->type))
    return fail(v, op, "both values and the result must have the same type",
                NULL);
  if (op->id == ASC_OP_SELECT_S && op->operands[1]->type->kind == ASC_TY_STRUCT)
    return fail(v, op, "cannot select a parameter struct; select its fields",
                NULL);
  /* a view is a tensor of its operand's type: the simulator sizes every
   * access by the element type a tensor was made with */
  if ((op->id == ASC_OP_GM_ADDR_OFFSET || op->id == ASC_OP_GT_OFFSET ||
       op->id == ASC_OP_LT_OFFSET) &&
      op->results[0].type != op->operands[0]->type)
    return fail(v, op, "the result must have the type of the operand", NULL);
  if (op->id == ASC_OP_GT_SET_BUFFER &&
      op->operands[0]->type->dtype != op->operands[1]->type->dtype)
    return fail(v, op,
                "the GlobalTensor and the address must have one element type",
                NULL);
  return ASC_OK;
}

static AscStatus verify_block(Verifier *v, AscBlock *b);

static const char *info_name_or_empty(const AscOp *op, int i) {
  const AscOpInfo *info = asc_op_info(op->id);
  return i < info->n_operands ? info->operands[i].name : "variadic operand";
}

static void set_visible(AscValue *val, int on) { val->id = on ? -2 : -1; }

static const AscOp *terminator(const AscRegion *r) { return r->block->last; }

static AscStatus check_yield(Verifier *v, const AscOp *op, const AscRegion *r,
                             AscOpId want) {
  const AscOp *t = terminator(r);
  if (!t || t->id != want)
    return fail(v, op, "region must end with ", asc_op_info(want)->name);
  if (want == ASC_OP_YIELD) {
    if (t->n_operands != op->n_results)
      return fail(v, op, "yield count differs from the result count", NULL);
    for (int i = 0; i < t->n_operands; i++)
      if (t->operands[i]->type != op->results[i].type)
        return fail(v, op, "yielded value type differs from result type", NULL);
  }
  return ASC_OK;
}

static AscStatus check_regions(Verifier *v, const AscOp *op) {
  switch (op->id) {
  case ASC_OP_FUNC: {
    if (op->n_regions != 1)
      return fail(v, op, "a function has one region", NULL);
    const AscOp *t = terminator(&op->regions[0]);
    if (!t || t->id != ASC_OP_RETURN)
      return fail(v, op, "function body must end with func.return", NULL);
    return ASC_OK;
  }
  case ASC_OP_FOR: {
    if (op->n_regions != 1)
      return fail(v, op, "scf.for has one region", NULL);
    const AscBlock *b = op->regions[0].block;
    int n_iter = op->n_operands - 3;
    if (b->n_args != n_iter + 1 || n_iter != op->n_results)
      return fail(v, op, "loop-carried values do not match", NULL);
    if (!asc_type_is_int(b->args[0].type))
      return fail(v, op, "the induction variable must be an integer", NULL);
    for (int i = 0; i < n_iter; i++)
      if (b->args[i + 1].type != op->operands[i + 3]->type ||
          op->results[i].type != op->operands[i + 3]->type)
        return fail(v, op, "loop-carried value changes type", NULL);
    return check_yield(v, op, &op->regions[0], ASC_OP_YIELD);
  }
  case ASC_OP_IF: {
    if (op->n_regions != 2)
      return fail(v, op, "scf.if has two regions", NULL);
    AscStatus s = check_yield(v, op, &op->regions[0], ASC_OP_YIELD);
    return s ? s : check_yield(v, op, &op->regions[1], ASC_OP_YIELD);
  }
  case ASC_OP_WHILE: {
    if (op->n_regions != 2)
      return fail(v, op, "scf.while has two regions", NULL);
    /* the lowering gives every before-region argument an init and every
     * after-region argument a result: the counts must agree */
    const AscBlock *before = op->regions[0].block;
    const AscBlock *after = op->regions[1].block;
    if (before->n_args != op->n_operands)
      return fail(v, op, "before-region arguments do not match the loop values",
                  NULL);
    for (int i = 0; i < before->n_args; i++)
      if (before->args[i].type != op->operands[i]->type)
        return fail(v, op, "before-region argument type differs from its init",
                    NULL);
    if (after->n_args != op->n_results)
      return fail(v, op, "after-region arguments do not match the results",
                  NULL);
    for (int i = 0; i < after->n_args; i++)
      if (after->args[i].type != op->results[i].type)
        return fail(v, op, "after-region argument type differs from its result",
                    NULL);
    const AscOp *c = terminator(&op->regions[0]);
    if (!c || c->id != ASC_OP_CONDITION)
      return fail(v, op, "the before region must end with scf.condition", NULL);
    if (c->n_operands - 1 != op->n_results)
      return fail(v, op, "scf.condition forwards the wrong count", NULL);
    for (int i = 0; i < op->n_results; i++)
      if (c->operands[i + 1]->type != op->results[i].type)
        return fail(
            v, op,
            "scf.condition forwards a value whose type differs from the result",
            NULL);
    const AscOp *y = terminator(&op->regions[1]);
    if (!y || y->id != ASC_OP_YIELD || y->n_operands != op->n_operands)
      return fail(v, op, "the after region must yield the loop values", NULL);
    for (int i = 0; i < y->n_operands; i++)
      if (y->operands[i]->type != op->operands[i]->type)
        return fail(
            v, op, "yielded value type differs from the loop value type", NULL);
    return ASC_OK;
  }
  default:
    if (op->n_regions)
      return fail(v, op, "op takes no regions", NULL);
    return ASC_OK;
  }
}

static AscStatus verify_op(Verifier *v, AscOp *op) {
  AscStatus s = check_signature(v, op);
  if (s)
    return s;
  for (int i = 0; i < op->n_operands; i++)
    if (op->operands[i]->id != -2)
      return fail(v, op, "operand used before it is defined: ",
                  info_name_or_empty(op, i));
  if ((s = check_types(v, op)) || (s = check_regions(v, op)))
    return s;
  if (op->id == ASC_OP_CALL) {
    const char *callee = asc_op_attr_str(op, "callee");
    AscOp *f = callee ? asc_module_find_function(v->m, callee) : NULL;
    if (!f)
      return fail(v, op, "unknown callee ", callee ? callee : "");
    const AscBlock *fb = f->regions[0].block;
    if (fb->n_args != op->n_operands)
      return fail(v, op, "wrong argument count for ", callee);
    for (int i = 0; i < fb->n_args; i++)
      if (fb->args[i].type != op->operands[i]->type)
        return fail(v, op, "argument type mismatch calling ", callee);
    /* the callee's func.return writes the call's result slots */
    const AscAttr *rt = asc_op_attr(f, "res_types");
    int n_res = rt && rt->kind == ASC_ATTR_TYPES ? rt->n_types : 0;
    if (n_res != op->n_results)
      return fail(v, op, "wrong result count for ", callee);
    for (int i = 0; i < n_res; i++)
      if (rt->types[i] != op->results[i].type)
        return fail(v, op, "result type mismatch calling ", callee);
  }
  if (op->id == ASC_OP_RETURN && v->func) {
    const AscAttr *rt = asc_op_attr(v->func, "res_types");
    int n_res = rt && rt->kind == ASC_ATTR_TYPES ? rt->n_types : 0;
    const char *name = asc_op_attr_str(v->func, "sym_name");
    if (n_res != op->n_operands)
      return fail(v, op, "wrong number of values returned from ",
                  name ? name : "?");
    for (int i = 0; i < n_res; i++)
      if (rt->types[i] != op->operands[i]->type)
        return fail(v, op,
                    "returned value type differs from the result type of ",
                    name ? name : "?");
  }
  for (int r = 0; r < op->n_regions; r++)
    if ((s = verify_block(v, op->regions[r].block)))
      return s;
  for (int i = 0; i < op->n_results; i++)
    set_visible(&op->results[i], 1);
  return ASC_OK;
}

static AscStatus verify_block(Verifier *v, AscBlock *b) {
  AscStatus s = ASC_OK;
  for (int i = 0; i < b->n_args; i++)
    set_visible(&b->args[i], 1);
  for (AscOp *op = b->first; op && !s; op = op->next)
    s = verify_op(v, op);
  /* leaving the scope: its values are no longer visible */
  for (int i = 0; i < b->n_args; i++)
    set_visible(&b->args[i], 0);
  for (AscOp *op = b->first; op; op = op->next)
    for (int i = 0; i < op->n_results; i++)
      set_visible(&op->results[i], 0);
  return s;
}

AscStatus asc_module_verify(AscModule *m) {
  Verifier v = {m->ctx, m, NULL};
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id == ASC_OP_STRUCT_DEF) {
      AscStatus s = check_struct_def(&v, f);
      if (s)
        return s;
      continue;
    }
    if (f->id != ASC_OP_FUNC)
      return fail(&v, f,
                  "only functions and struct declarations may appear at "
                  "module level",
                  NULL);
    v.func = f;
    AscStatus s = verify_op(&v, f);
    if (s)
      return s;
  }
  return ASC_OK;
}
