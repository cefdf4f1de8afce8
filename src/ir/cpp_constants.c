/* Constants for the Ascend C API's integer parameters and struct fields
 * must fit their C types (ops.def names a parameter's type, structs.def a
 * field's): C++ would convert them silently (-1 to 2^32 - 1, a count of
 * 2^32 + 3 to 3), so the kernel would do something else on the NPU than
 * here, or not compile with -Werror. A target check, not a rule of the IR:
 * the lowering and the emitter run it, so that a pass folding a run-time
 * expression into such a constant leaves valid IR that fails to compile,
 * with the op's location. (A run-time value that does not fit faults in
 * the simulator, where the access it sizes is checked.) */
#include <stdio.h>

#include "asc/ir.h"
#include "sim/sim.h" /* asc_constant_value: a constant's run-time value */

static AscStatus check_fits(AscContext *ctx, const AscOp *op,
                            const AscValue *val, const char *name,
                            AscDType ctype, const char *what,
                            const char *where) {
  AscSlot c;
  if (!val->def || asc_constant_value(val->def, &c) != 0 ||
      !asc_type_is_int(val->type))
    return ASC_OK;
  int64_t x = c.i;
  int value_unsigned = asc_dtype_is_unsigned_int(val->type->dtype);
  size_t bits = asc_dtype_size(ctype) * 8;
  int fits;
  if (asc_dtype_is_unsigned_int(ctype))
    fits = (value_unsigned || x >= 0) &&
           (bits >= 64 || (uint64_t)x < ((uint64_t)1 << bits));
  else
    fits = bits >= 64 ? (!value_unsigned || x >= 0)
                      : (x >= -((int64_t)1 << (bits - 1)) &&
                         x < ((int64_t)1 << (bits - 1)));
  if (fits)
    return ASC_OK;
  const char *op_name = asc_op_info(op->id)->name;
  if (value_unsigned)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: %s = %llu does not fit the %s %s of %s", op_name,
                     name, (unsigned long long)x, asc_dtype_cpp_name(ctype),
                     what, where);
  return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                   "%s: %s = %lld does not fit the %s %s of %s", op_name, name,
                   (long long)x, asc_dtype_cpp_name(ctype), what, where);
}

/* A constant for an enum field must be one of the enum's values (C++ has
 * no conversion from an integer to a scoped enum). */
static AscStatus check_enum(AscContext *ctx, const AscOp *op,
                            const AscValue *val, const AscFieldInfo *f,
                            const AscStructInfo *si) {
  AscSlot c;
  if (!val->def || asc_constant_value(val->def, &c) != 0 ||
      !asc_type_is_int(val->type) ||
      asc_enum_value_name((AscEnumKind)f->enum_kind, c.i))
    return ASC_OK;
  return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                   "%s: %s = %lld is not a %s value (field %s of %s)",
                   asc_op_info(op->id)->name, f->name, (long long)c.i,
                   asc_enum_kind_name((AscEnumKind)f->enum_kind), f->cpp,
                   si->cpp);
}

AscStatus asc_check_cpp_constants(AscContext *ctx, const AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  if (op->id == ASC_OP_STRUCT) {
    const AscStructInfo *si = asc_type_struct_info(op->results[0].type);
    for (int i = 0; si && i < si->n_operands && i < op->n_operands; i++) {
      int elem = 0, k = asc_struct_operand_field(si, i, &elem);
      const AscFieldInfo *f = &si->fields[k];
      if (f->nested || asc_dtype_is_float(f->dtype))
        continue;
      if (f->enum_kind >= 0 && check_enum(ctx, op, op->operands[i], f, si))
        return ASC_ERR_COMPILE;
      char name[96];
      if (f->len > 0)
        snprintf(name, sizeof name, "%s[%d]", f->name, elem);
      else
        snprintf(name, sizeof name, "%s", f->name);
      if (f->enum_kind < 0 && check_fits(ctx, op, op->operands[i], name,
                                         f->dtype, "field", si->cpp))
        return ASC_ERR_COMPILE;
    }
    return ASC_OK;
  }
  if (op->id == ASC_OP_STRUCT_SET && op->n_operands >= 2) {
    const AscStructInfo *si = asc_type_struct_info(op->operands[0]->type);
    int k = asc_struct_field_index(si, asc_op_attr_str(op, "field"));
    const AscFieldInfo *f = k >= 0 ? &si->fields[k] : NULL;
    if (!f || f->nested || asc_dtype_is_float(f->dtype))
      return ASC_OK;
    if (f->enum_kind >= 0)
      return check_enum(ctx, op, op->operands[1], f, si);
    return check_fits(ctx, op, op->operands[1], f->name, f->dtype, "field",
                      si->cpp);
  }
  for (int i = 0; i < op->n_operands && i < info->n_operands; i++) {
    const AscOperandSpec *s = &info->operands[i];
    if (s->ctype != ASC_DT_NONE && check_fits(ctx, op, op->operands[i], s->name,
                                              s->ctype, "parameter", info->cpp))
      return ASC_ERR_COMPILE;
  }
  return ASC_OK;
}
