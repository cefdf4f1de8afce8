/* Gaps of the basic API closed after the families of issue 13. */
#include <string.h>

#include "checked.h"
#include "sim.h"

/* And / Or, count form. On the Ascend910B the devkit's level-2 And / Or
 * (dav_c220 kernel_operator_vec_binary_impl.h) reinterpret every tensor as
 * int16 and run `count` 16-bit lanes in counter mode: int32 / uint32
 * tensors take count 16-bit halves, i.e. count / 2 elements (逻辑计算/And.md:
 * "count must be twice the number of elements"). An odd count leaves the
 * upper half of the last element as it was. */
AscStatus sim_vec_bitwise(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  if (dt != ASC_DT_INT32 && dt != ASC_DT_UINT32)
    return sim_vec_binary(x, in);
  int64_t n = ASC_SLOT(x, in, 3).i;
  static const char *const names[] = {"dst", "src0", "src1"};
  uint8_t *p[3];
  AscTensorRef half[3];
  for (int k = 0; k < 3; k++) {
    const AscTensorRef *t = sim_tensor_arg(x, in, k, names[k]);
    if (!t)
      return ASC_ERR_KERNEL;
    if (t->addr % 32)
      return sim_fail(x, in, "%s: UB address %lld is not 32-byte aligned",
                      names[k], (long long)t->addr);
    half[k] = *t;
    half[k].dtype = ASC_DT_INT16;
    if (t->len >= 0 && asc_mul_i64(t->len, 2, &half[k].len))
      return sim_fail(x, in, "%s: the tensor's length overflows", names[k]);
    p[k] = sim_local_ptr(x, in, &half[k], n, k == 0, names[k]);
    if (!p[k])
      return ASC_ERR_KERNEL;
  }
  asc_vec_binary((AscVecBinOp)in->imm, ASC_DT_INT16, p[0], p[1], p[2], n);
  sim_vec_work(x, &half[0], n);
  return ASC_OK;
}
