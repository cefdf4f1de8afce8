/* Parameter structs (asc/structs.def) on the scalar unit: a struct value is
 * one register slot per field, side by side (bytecode.h). Fields keep the
 * value they were given, so that an instruction taking the struct can say
 * when one is out of its range (C++ would have converted it to the field's
 * type silently); reading a field with asc.struct.get gives the value the
 * C++ member holds. */
#include "sim.h"

AscStatus sim_struct_make(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->results[0].type);
  AscSlot *dst = &ASC_DST(x, in);
  for (int f = 0; f < in->n_args; f++) {
    AscSlot v = ASC_SLOT(x, in, f);
    AscDType from = in->src->operands[f]->type->dtype;
    if (asc_dtype_is_float(si->fields[f].dtype) && !asc_dtype_is_float(from))
      v.f = (double)v.i;
    dst[f] = v;
  }
  return ASC_OK;
}

AscStatus sim_struct_get(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[0]->type);
  const AscFieldInfo *f = &si->fields[in->imm];
  AscSlot v = x->regs[in->a[0] + in->imm];
  if (asc_dtype_is_float(f->dtype))
    v.f = asc_float_normalize(f->dtype, v.f);
  else
    v.i = asc_int_normalize(f->dtype, v.i);
  ASC_DST(x, in) = v;
  return ASC_OK;
}
