/* Tensor handles: global addresses, GlobalTensor and LocalTensor views, and
 * scalar element access (GetValue / SetValue run on the scalar unit). */
#include <stdio.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "sim.h"

static int64_t esize(const AscTensorRef *t) {
  return (int64_t)asc_dtype_size((AscDType)t->dtype);
}

/* An address moved by `off` elements; a result no int64 holds is a fault
 * here (a negative or past-the-end address is one only when accessed). */
static AscStatus move(AscExec *x, const AscInstr *in, AscTensorRef *t,
                      int64_t off) {
  if (asc_scaled_add(t->addr, off, esize(t), &t->addr))
    return sim_fail(x, in,
                    "address offset out of range: %lld elements of %lld "
                    "bytes from byte offset %lld overflow a 64-bit address",
                    (long long)off, (long long)esize(t), (long long)t->addr);
  return ASC_OK;
}

AscStatus sim_gm_addr_offset(AscExec *x, const AscInstr *in) {
  AscTensorRef t = ASC_SLOT(x, in, 0).t;
  AscStatus s = move(x, in, &t, ASC_SLOT(x, in, 1).i);
  if (!s)
    ASC_DST(x, in).t = t;
  return s;
}

AscStatus sim_gt_create(AscExec *x, const AscInstr *in) {
  AscTensorRef *t = &ASC_DST(x, in).t;
  t->buf = -1; /* no buffer until set_global_buffer */
  t->addr = 0;
  t->len = -1;
  t->dtype = in->dtype;
  t->l2_bypass = 0;
  return ASC_OK;
}

AscStatus sim_gt_set_buffer(AscExec *x, const AscInstr *in) {
  AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  AscTensorRef addr = ASC_SLOT(x, in, 1).t;
  t->buf = addr.buf;
  t->addr = addr.addr;
  t->dtype = in->dtype; /* the GlobalTensor's own type (a byte address) */
  t->len = in->n_args > 2 ? ASC_SLOT(x, in, 2).i : -1; /* -1: no size */
  if (in->n_args > 2 && t->len < 0)
    return sim_fail(x, in, "set_global_buffer: negative size %lld",
                    (long long)t->len);
  return ASC_OK;
}

static AscStatus view(AscExec *x, const AscInstr *in) {
  AscTensorRef t = ASC_SLOT(x, in, 0).t;
  int64_t off = ASC_SLOT(x, in, 1).i;
  if (off < 0)
    return sim_fail(x, in, "negative tensor offset %lld", (long long)off);
  AscStatus s = move(x, in, &t, off);
  if (s)
    return s;
  if (t.len >= 0)
    t.len = off > t.len ? 0 : t.len - off;
  sim_copy_shape_info(&ASC_DST(x, in), &ASC_SLOT(x, in, 0));
  ASC_DST(x, in).t = t;
  return ASC_OK;
}

/* A GlobalTensor view keeps the size set_global_buffer gave (the devkit's
 * operator[] copies bufferSize_, which GetSize returns); GM accesses are
 * bounded by the kernel argument, not by it. */
AscStatus sim_gt_offset(AscExec *x, const AscInstr *in) {
  int64_t size = ASC_SLOT(x, in, 0).t.len;
  AscStatus s = view(x, in);
  if (!s)
    ASC_DST(x, in).t.len = size;
  return s;
}

AscStatus sim_lt_offset(AscExec *x, const AscInstr *in) {
  const AscTensorRef *src = &ASC_SLOT(x, in, 0).t;
  int64_t off = ASC_SLOT(x, in, 1).i;
  if (src->len >= 0 && off > src->len)
    return sim_fail(x, in, "LocalTensor offset %lld is past its %lld elements",
                    (long long)off, (long long)src->len);
  return view(x, in);
}

AscStatus sim_lt_create(AscExec *x, const AscInstr *in) {
  int64_t addr = ASC_SLOT(x, in, 0).i, len = ASC_SLOT(x, in, 1).i;
  AscTensorRef *t = &ASC_DST(x, in).t;
  t->buf = -1;
  t->addr = addr;
  t->len = len;
  t->dtype = in->dtype;
  t->position = (uint8_t)in->imm2;
  /* family: cube: a tensor at a cube position lies in that memory */
  int mem = sim_cube_mem_of_position(t->position);
  const char *name = mem >= 0 ? sim_cube_mem_name(mem) : "UB";
  /* the part of the memory a kernel may use (its reserved end excluded) */
  int64_t size = mem >= 0 ? sim_cube_mem_user(x->b, mem) : x->b->ub_user;
  int64_t end = 0;
  int wraps =
      addr >= 0 && len >= 0 && asc_scaled_add(addr, len, esize(t), &end);
  if (wraps || addr < 0 || len < 0 || end > size) {
    /* the note is written only here: a launch creates tensors per block */
    char note[800], why[760];
    if (mem < 0 || mem == SIM_CMEM_L1) /* the memories with reserved parts */
      snprintf(note, sizeof note, "the %s the kernel may use: %s", name,
               mem < 0 ? sim_ub_user_note(x->b, why, sizeof why)
                       : sim_cube_mem_note(x->b, mem, why, sizeof why));
    else
      snprintf(note, sizeof note, "the %lld-byte %s", (long long)size, name);
    if (wraps)
      return sim_fail(x, in,
                      "LocalTensor at %s address %lld with %lld elements of "
                      "%s ends past any address, beyond %s",
                      name, (long long)addr, (long long)len,
                      asc_dtype_name((AscDType)t->dtype), note);
    return sim_fail(x, in,
                    "LocalTensor at %s address %lld with %lld elements of %s "
                    "ends at byte %lld, beyond %s",
                    name, (long long)addr, (long long)len,
                    asc_dtype_name((AscDType)t->dtype), (long long)end, note);
  }
  if (addr % 32)
    return sim_fail(x, in, "LocalTensor %s address %lld is not 32-byte aligned",
                    name, (long long)addr);
  return ASC_OK;
}

static void load_scalar(AscDType dt, const uint8_t *p, AscSlot *out) {
  if (asc_dtype_is_float(dt))
    out->f = asc_load_f(dt, p, 0);
  else
    out->i = asc_load_i(dt, p, 0);
}

static void store_scalar(AscDType dt, uint8_t *p, AscSlot v, AscDType vt) {
  AscScalar s;
  s.f = asc_dtype_is_float(vt) ? v.f : (double)v.i;
  s.i = asc_dtype_is_float(vt) ? (int64_t)v.f : v.i;
  asc_store_scalar(dt, p, 0, s);
}

/* The tensor and index of an element access, checked (index >= 0; within
 * a LocalTensor's length); t is moved to the element. */
static AscStatus element_at(AscExec *x, const AscInstr *in, int global,
                            AscTensorRef *t) {
  if (!sim_tensor_arg(x, in, 0, "tensor"))
    return ASC_ERR_KERNEL;
  *t = ASC_SLOT(x, in, 0).t;
  int64_t idx = ASC_SLOT(x, in, 1).i;
  if (idx < 0)
    return sim_fail(x, in, "negative index %lld", (long long)idx);
  if (t->len >= 0 && idx >= t->len && !global)
    return sim_fail(x, in,
                    "index %lld out of range for a LocalTensor of "
                    "%lld elements",
                    (long long)idx, (long long)t->len);
  AscStatus s = move(x, in, t, idx);
  t->len = -1;
  return s;
}

static AscStatus local_element(AscExec *x, const AscInstr *in, int write,
                               uint8_t **p) {
  AscTensorRef t;
  AscStatus s = element_at(x, in, 0, &t);
  if (s)
    return s;
  *p = sim_local_ptr(x, in, &t, 1, write, "element");
  return *p ? ASC_OK : ASC_ERR_KERNEL;
}

/* A GM element goes through a small buffer: the part of it outside the
 * argument (when overruns are reported and clamped) reads as zeros and is
 * not written. */
AscStatus sim_gt_get_value(AscExec *x, const AscInstr *in) {
  AscTensorRef t;
  SimGmSpan span;
  uint8_t tmp[8] = {0};
  AscStatus s = element_at(x, in, 1, &t);
  int n = x->b->ev.n_acc;
  if (!s)
    s = sim_gm_span(x, in, &t, 1, 0, "element", &span);
  if (s)
    return s;
  sim_gm_mark_scalar(x, n); /* through the data cache */
  if (span.valid)
    memcpy(tmp + span.skip, span.p, (size_t)span.valid);
  load_scalar((AscDType)t.dtype, tmp, &ASC_DST(x, in));
  return ASC_OK;
}

AscStatus sim_lt_get_value(AscExec *x, const AscInstr *in) {
  uint8_t *p = NULL;
  AscStatus s = local_element(x, in, 0, &p);
  if (!s)
    load_scalar((AscDType)ASC_SLOT(x, in, 0).t.dtype, p, &ASC_DST(x, in));
  return s;
}

AscStatus sim_gt_set_value(AscExec *x, const AscInstr *in) {
  AscTensorRef t;
  SimGmSpan span;
  uint8_t tmp[8] = {0};
  AscStatus s = element_at(x, in, 1, &t);
  int n = x->b->ev.n_acc;
  if (!s)
    s = sim_gm_span(x, in, &t, 1, 1, "element", &span);
  if (s)
    return s;
  sim_gm_mark_scalar(x, n); /* into the data cache */
  store_scalar((AscDType)t.dtype, tmp, ASC_SLOT(x, in, 2),
               in->src->operands[2]->type->dtype);
  if (span.valid)
    memcpy(span.p, tmp + span.skip, (size_t)span.valid);
  return ASC_OK;
}

AscStatus sim_lt_set_value(AscExec *x, const AscInstr *in) {
  uint8_t *p = NULL;
  AscStatus s = local_element(x, in, 1, &p);
  if (!s)
    store_scalar((AscDType)ASC_SLOT(x, in, 0).t.dtype, p, ASC_SLOT(x, in, 2),
                 in->src->operands[2]->type->dtype);
  return s;
}
