/* Structs on the scalar unit (asc/structs.def, and the user's structs): a
 * struct value is one register slot per number (an array field one per
 * element), nested structs laid out in place (bytecode.h,
 * AscFieldInfo.slot). Number fields keep the value they were given, so that
 * an instruction taking the struct can say when one is out of its range
 * (C++ would have converted it to the field's type silently); reading a
 * field with asc.struct.get gives the value the C++ member holds. An array
 * element is read and written by a run-time index: one outside the array
 * is a KernelError (in C++ it would read or write another member). */
#include <string.h>

#include "sim.h"

/* Stores operand value v (of IR type t) into element `elem` of field f of
 * the value at dst (elem 0 for a scalar or struct field). */
static void put_field(AscSlot *dst, const AscFieldInfo *f, int elem,
                      const AscSlot *v, const AscType *t) {
  if (f->nested) {
    memcpy(&dst[f->slot], v, sizeof(AscSlot) * (size_t)f->width);
    return;
  }
  AscSlot x = *v;
  if (asc_dtype_is_float(f->dtype) && !asc_dtype_is_float(t->dtype))
    x.f = (double)x.i;
  dst[f->slot + elem] = x;
}

/* The element an asc.struct.get / .set names: 0 for a field that is no
 * array, else the index operand k checked against the array's length. */
static AscStatus element(AscExec *x, const AscInstr *in,
                         const AscStructInfo *si, const AscFieldInfo *f, int k,
                         int *elem) {
  *elem = 0;
  if (f->len <= 0)
    return ASC_OK;
  int64_t i = ASC_SLOT(x, in, k).i;
  if (asc_dtype_is_unsigned_int(in->src->operands[k]->type->dtype) && i < 0)
    i = INT64_MAX; /* a uint64_t above INT64_MAX: out of bounds too */
  if (i < 0 || i >= f->len)
    return sim_fail(x, in, "index %lld is out of the bounds of %s.%s[%d]",
                    (long long)i, si->name, f->name, f->len);
  *elem = (int)i;
  return ASC_OK;
}

AscStatus sim_struct_make(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->results[0].type);
  AscSlot *dst = &ASC_DST(x, in);
  for (int i = 0; i < in->n_args; i++) {
    int elem = 0, k = asc_struct_operand_field(si, i, &elem);
    put_field(dst, &si->fields[k], elem, &ASC_SLOT(x, in, i),
              in->src->operands[i]->type);
  }
  return ASC_OK;
}

AscStatus sim_struct_get(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[0]->type);
  const AscFieldInfo *f = &si->fields[in->imm];
  int elem;
  AscStatus s = element(x, in, si, f, 1, &elem);
  if (s)
    return s;
  const AscSlot *src = &x->regs[in->a[0] + f->slot + elem];
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
  const AscFieldInfo *f = &si->fields[in->imm];
  int elem;
  AscStatus s = element(x, in, si, f, 2, &elem);
  if (s)
    return s;
  AscSlot *dst = &ASC_DST(x, in);
  memcpy(dst, &ASC_SLOT(x, in, 0), sizeof(AscSlot) * (size_t)si->n_slots);
  put_field(dst, f, elem, &ASC_SLOT(x, in, 1), in->src->operands[1]->type);
  return ASC_OK;
}
