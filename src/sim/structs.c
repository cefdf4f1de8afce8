/* Structs on the scalar unit (asc/structs.def, and the user's structs): a
 * struct value is one register slot per number field, nested structs laid
 * out in place (bytecode.h, AscFieldInfo.slot). Number fields keep the value
 * they were given, so that an instruction taking the struct can say when
 * one is out of its range (C++ would have converted it to the field's type
 * silently); reading a field with asc.struct.get gives the value the C++
 * member holds. */
#include <string.h>

#include "sim.h"

/* Stores operand value v (of IR type t) into field f of the value at dst. */
static void put_field(AscSlot *dst, const AscFieldInfo *f, const AscSlot *v,
                      const AscType *t) {
  if (f->nested) {
    memcpy(&dst[f->slot], v, sizeof(AscSlot) * (size_t)f->width);
    return;
  }
  AscSlot x = *v;
  if (asc_dtype_is_float(f->dtype) && !asc_dtype_is_float(t->dtype))
    x.f = (double)x.i;
  dst[f->slot] = x;
}

AscStatus sim_struct_make(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->results[0].type);
  AscSlot *dst = &ASC_DST(x, in);
  for (int i = 0; i < in->n_args; i++)
    put_field(dst, &si->fields[i], &ASC_SLOT(x, in, i),
              in->src->operands[i]->type);
  return ASC_OK;
}

AscStatus sim_struct_get(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[0]->type);
  const AscFieldInfo *f = &si->fields[in->imm];
  const AscSlot *src = &x->regs[in->a[0] + f->slot];
  if (f->nested) {
    memmove(&ASC_DST(x, in), src, sizeof(AscSlot) * (size_t)f->width);
    return ASC_OK;
  }
  AscSlot v = *src;
  if (asc_dtype_is_float(f->dtype))
    v.f = asc_float_normalize(f->dtype, v.f);
  else
    v.i = asc_int_normalize(f->dtype, v.i);
  ASC_DST(x, in) = v;
  return ASC_OK;
}

AscStatus sim_struct_set(AscExec *x, const AscInstr *in) {
  /* every SSA value has slots of its own: the result, the old value and the
   * new field do not overlap */
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[0]->type);
  AscSlot *dst = &ASC_DST(x, in);
  memcpy(dst, &ASC_SLOT(x, in, 0), sizeof(AscSlot) * (size_t)si->n_slots);
  put_field(dst, &si->fields[in->imm], &ASC_SLOT(x, in, 1),
            in->src->operands[1]->type);
  return ASC_OK;
}
