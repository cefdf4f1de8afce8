/* DataCopy, count form: GM → UB (MTE2), UB → GM (MTE3), UB → UB.
 *
 * Facts (devkit docs, "DataCopy (GM与UB连续数据搬运)"): UB addresses must be
 * 32-byte aligned; GM addresses aligned to the element size; when
 * count * sizeof(T) is not a multiple of 32 bytes the amount moved is
 * rounded down to a multiple of 32 bytes. */
#include <string.h>

#include "checked.h"
#include "sim.h"

AscStatus sim_data_copy(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "dst") || !sim_tensor_arg(x, in, 1, "src"))
    return ASC_ERR_KERNEL;
  AscTensorRef dst = ASC_SLOT(x, in, 0).t, src = ASC_SLOT(x, in, 1).t;
  int64_t count = ASC_SLOT(x, in, 2).i;
  if (asc_dtype_size((AscDType)dst.dtype) !=
      asc_dtype_size((AscDType)src.dtype))
    return sim_fail(x, in,
                    "data_copy between tensors of %s and %s: the element "
                    "sizes differ",
                    asc_dtype_name((AscDType)dst.dtype),
                    asc_dtype_name((AscDType)src.dtype));
  int64_t es = (int64_t)asc_dtype_size((AscDType)src.dtype);
  int64_t want;
  if (count < 0)
    return sim_fail(x, in, "negative element count %lld", (long long)count);
  if (asc_mul_i64(count, es, &want))
    return sim_fail(x, in,
                    "%lld elements of %lld bytes are more bytes than any "
                    "memory holds",
                    (long long)count, (long long)es);
  int64_t bytes = want / 32 * 32; /* whole 32-byte blocks only */
  int64_t n = bytes / es;
  x->b->ev.dropped = want - bytes;
  int dst_gm = in->op == ASC_OP_COPY_LOCAL_TO_GM;
  int src_gm = in->op == ASC_OP_COPY_GM_TO_LOCAL;
  const AscTensorRef *local = dst_gm ? &src : &dst;
  if (local->addr % 32)
    return sim_fail(x, in, "UB address %lld is not 32-byte aligned",
                    (long long)local->addr);
  if (!dst_gm && !src_gm && src.addr % 32)
    return sim_fail(x, in, "source UB address %lld is not 32-byte aligned",
                    (long long)src.addr);
  const AscTensorRef *gm = dst_gm ? &dst : (src_gm ? &src : NULL);
  if (gm && gm->addr % es)
    return sim_fail(x, in,
                    "GM address is not aligned to the %lld-byte "
                    "element size",
                    (long long)es);
  SimGmSpan span;
  if (src_gm) { /* GM -> UB: what lies outside the argument reads as zeros */
    uint8_t *d = sim_local_ptr(x, in, &dst, n, 1, "dst");
    if (!d || sim_gm_span(x, in, &src, n, 0, "src", &span))
      return ASC_ERR_KERNEL;
    if (span.valid < bytes)
      memset(d, 0, (size_t)bytes);
    if (span.valid)
      memcpy(d + span.skip, span.p, (size_t)span.valid);
  } else if (dst_gm) { /* UB -> GM: writes outside the argument go nowhere */
    uint8_t *s = sim_local_ptr(x, in, &src, n, 0, "src");
    if (!s || sim_gm_span(x, in, &dst, n, 1, "dst", &span))
      return ASC_ERR_KERNEL;
    if (span.valid)
      memcpy(span.p, s + span.skip, (size_t)span.valid);
  } else {
    uint8_t *d = sim_local_ptr(x, in, &dst, n, 1, "dst");
    uint8_t *s = d ? sim_local_ptr(x, in, &src, n, 0, "src") : NULL;
    if (!s)
      return ASC_ERR_KERNEL;
    memmove(d, s, (size_t)bytes);
  }
  x->b->ev.elems = n;
  x->b->ev.bytes = bytes;
  return ASC_OK;
}
