/* The ShapeInfo a tensor holds (the devkit's LocalTensor / GlobalTensor
 * shapeInfo_ member, set with SetShapeInfo and read with GetShapeInfo), and
 * GetShapeSize.
 *
 * Where it lives: in the tensor's value, after its handle (bytecode.h): at
 * ASC_TENSOR_SHAPE_SLOT a stamp, then the ShapeInfo's register slots. So a
 * copy of the value (a loop-carried tensor, a device function's argument)
 * carries the shape info, as a C++ copy of the tensor does. The stamp says
 * that set_shape_info wrote the slots: a register frame is not cleared, and
 * the devkit leaves a tensor's shape info indeterminate until it is set,
 * so reading one never set is a KernelError rather than whatever the slots
 * held. It mixes in the handle's buffer and element type, so slots left by
 * another tensor's value in reused registers are not taken for set. */
#include <string.h>

#include "sim.h"

static int64_t stamp(const AscTensorRef *t) {
  return (int64_t)(0x5ea75ba9e1f0c3d1ull ^
                   ((uint64_t)(uint32_t)t->buf * 0x9e3779b97f4a7c15ull) ^
                   ((uint64_t)t->dtype << 56));
}

static const AscStructInfo *shape_info(void) {
  return asc_struct_info(ASC_STRUCT_SHAPE_INFO);
}

/* A view of a tensor (t[offset:], g[offset:]) is a copy of it with another
 * address: the devkit's operator[] copies *this, shape info included. */
void sim_copy_shape_info(AscSlot *dst, const AscSlot *src) {
  memmove(&dst[ASC_TENSOR_SHAPE_SLOT], &src[ASC_TENSOR_SHAPE_SLOT],
          sizeof(AscSlot) * (size_t)(1 + shape_info()->n_slots));
}

AscStatus sim_set_shape_info(AscExec *x, const AscInstr *in) {
  AscSlot *v = &ASC_SLOT(x, in, 0);
  v[ASC_TENSOR_SHAPE_SLOT].i = stamp(&v->t);
  memcpy(&v[ASC_TENSOR_SHAPE_SLOT + 1], &ASC_SLOT(x, in, 1),
         sizeof(AscSlot) * (size_t)shape_info()->n_slots);
  return ASC_OK;
}

AscStatus sim_get_shape_info(AscExec *x, const AscInstr *in) {
  const AscSlot *v = &ASC_SLOT(x, in, 0);
  if (v[ASC_TENSOR_SHAPE_SLOT].i != stamp(&v->t))
    return sim_fail(x, in,
                    "no ShapeInfo was set on this tensor (set_shape_info "
                    "before get_shape_info; until then the device's is "
                    "indeterminate)");
  memcpy(&ASC_DST(x, in), &v[ASC_TENSOR_SHAPE_SLOT + 1],
         sizeof(AscSlot) * (size_t)shape_info()->n_slots);
  return ASC_OK;
}

/* The fields as the C++ members hold them: shapeDim a uint8_t, the shape
 * elements uint32_t (asc.struct keeps the values it was given). */
AscStatus sim_get_shape_size(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = shape_info();
  const AscSlot *s = &ASC_SLOT(x, in, 0);
  const AscFieldInfo *dim =
      &si->fields[asc_struct_field_index(si, "shape_dim")];
  const AscFieldInfo *shape = &si->fields[asc_struct_field_index(si, "shape")];
  int64_t n = asc_int_normalize(dim->dtype, s[dim->slot].i);
  if (n > shape->len) /* the devkit's loop would read past the array */
    return sim_fail(x, in,
                    "asc.get_shape_size: shape_dim = %lld is more than the %d "
                    "elements of ShapeInfo.shape",
                    (long long)n, shape->len);
  uint64_t size = 1; /* the devkit multiplies in uint64_t */
  for (int64_t i = 0; i < n; i++)
    size *= (uint64_t)asc_int_normalize(shape->dtype, s[shape->slot + i].i);
  ASC_DST(x, in).i = asc_int_normalize((AscDType)in->dtype, (int64_t)size);
  return ASC_OK;
}

/* family: slice. The first n shape elements of operand k's ShapeInfo
 * (DataCopy with SliceInfo reads them); 0 when none was set. */
int sim_tensor_shape(AscExec *x, const AscInstr *in, int k, int n,
                     uint64_t *shape) {
  const AscSlot *v = &ASC_SLOT(x, in, k);
  if (v[ASC_TENSOR_SHAPE_SLOT].i != stamp(&v->t))
    return 0;
  /* the slots after the stamp: shape_dim, then the shape array */
  for (int i = 0; i < n; i++)
    shape[i] = (uint64_t)v[ASC_TENSOR_SHAPE_SLOT + 2 + i].i & 0xffffffffu;
  return 1;
}

/* family: softmax. Operand k's ShapeInfo as the devkit's members hold them
 * (shape_dim / original_shape_dim uint8_t, the dimensions uint32_t); 0 when
 * set_shape_info never set it. */
int sim_tensor_shape_info(AscExec *x, const AscInstr *in, int k,
                          SimShapeInfo *out) {
  const AscSlot *v = &ASC_SLOT(x, in, k);
  if (v[ASC_TENSOR_SHAPE_SLOT].i != stamp(&v->t))
    return 0;
  const AscStructInfo *si = shape_info();
  const AscSlot *s = &v[ASC_TENSOR_SHAPE_SLOT + 1];
  const AscFieldInfo *f[4] = {
      &si->fields[asc_struct_field_index(si, "shape_dim")],
      &si->fields[asc_struct_field_index(si, "shape")],
      &si->fields[asc_struct_field_index(si, "original_shape_dim")],
      &si->fields[asc_struct_field_index(si, "original_shape")]};
  out->dim = (int)(s[f[0]->slot].i & 0xff);
  out->ori_dim = (int)(s[f[2]->slot].i & 0xff);
  for (int i = 0; i < 8; i++) {
    out->shape[i] = (uint32_t)s[f[1]->slot + i].i;
    out->ori_shape[i] = (uint32_t)s[f[3]->slot + i].i;
  }
  return 1;
}
