/* family: ubplan. The run-time check of a runtime-sized asc.LocalTensorAuto
 * (asc.local_tensor_auto.check, written by the plan-ub pass before the
 * tensor's TBuf::GetWithOffset): the tensor's elements (the shape's
 * compile-time factor `length` times the runtime dims) of `elem_bytes` each
 * at byte `offset` of the pool must fit the pool's `capacity` bytes. The
 * arithmetic is checked, so dims whose product overflows are reported as
 * not fitting rather than wrapping into a small size. */
#include <stdio.h>

#include "checked.h"
#include "sim.h"

AscStatus sim_lt_auto_check(AscExec *x, const AscInstr *in) {
  const AscOp *op = in->src;
  int64_t length = asc_op_attr_int(op, "length", 1);
  int64_t esize = asc_op_attr_int(op, "elem_bytes", 1);
  int64_t cap = asc_op_attr_int(op, "capacity", 0);
  const char *name = asc_op_attr_str(op, "tensor");
  const char *dtype = asc_op_attr_str(op, "dtype");
  int64_t offset = ASC_SLOT(x, in, 0).i;
  /* "4 x 8 x 2" as the message shows the shape */
  char dims[256];
  size_t n = 0;
  dims[0] = '\0';
  if (length != 1 || in->n_args == 1)
    n += (size_t)snprintf(dims, sizeof dims, "%lld", (long long)length);
  int64_t elems = length, bad = 0;
  for (int k = 1; k < in->n_args; k++) {
    int64_t d = ASC_SLOT(x, in, k).i;
    if (n < sizeof dims)
      n += (size_t)snprintf(dims + n, sizeof dims - n, "%s%lld", n ? " x " : "",
                            (long long)d);
    if (d <= 0)
      bad = 1;
    else if (!bad && asc_mul_i64(elems, d, &elems))
      bad = 2;
  }
  const char *who = name && *name ? name : "LocalTensorAuto";
  if (bad == 1)
    return sim_fail(x, in,
                    "asc.LocalTensorAuto %s: its runtime shape (%s elements) "
                    "has a size that is not positive",
                    who, dims);
  int64_t bytes = 0, end = 0;
  if (bad || asc_mul_i64(elems, esize, &bytes))
    return sim_fail(
        x, in,
        "asc.LocalTensorAuto %s: its runtime shape (%s elements) of "
        "%s needs more bytes than an int64 holds; the auto-tensor "
        "pool has %lld",
        who, dims, dtype ? dtype : "?", (long long)cap);
  if (asc_add_i64(offset, bytes, &end) || end > cap)
    return sim_fail(
        x, in,
        "asc.LocalTensorAuto %s: its runtime shape (%s elements) of %s "
        "needs %lld "
        "bytes at byte %lld of the auto-tensor pool, which has %lld bytes "
        "(the UB the kernel may use, less its init_buffer calls; the "
        "UB's reserved end is not the kernel's: devkit "
        "架构规格/NPU架构版本2201.md; below it the "
        "compile-time sized auto tensors and the runtime-sized ones it "
        "lives with)",
        who, dims, dtype ? dtype : "?", (long long)bytes, (long long)offset,
        (long long)cap);
  return ASC_OK;
}
