/* SetHcclContext<index> / GetHcclContext<index> (family: slice).
 *
 * Facts (devkit include/basic_api/kernel_common.h): the core holds two
 * context addresses (g_hcclContextReserved[2]); SetHcclContext<index>
 * stores one, GetHcclContext<index> returns it; for an index above 1 Set
 * does nothing and Get returns nullptr. The model's launches have no HCCL
 * framework to fill them, so a context never set is a null address: the
 * GM access through it is the KernelError (buf -1, as an unset
 * GlobalTensor). The registers are per block (AscCoreRegs). */
#include "sim.h"

AscStatus sim_hccl_context(AscExec *x, const AscInstr *in) {
  AscCoreRegs *r = &x->b->regs;
  int64_t index = asc_op_attr_int(in->src, "index", 0);
  if (in->imm == 0) {
    const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
    if (index < 0 || index > 1)
      return ASC_OK; /* `if constexpr (index > 1) return;` */
    r->hccl_ctx[index] = *t;
    r->hccl_ctx_set[index] = t->buf >= 0;
    return ASC_OK;
  }
  AscTensorRef a;
  if (index >= 0 && index <= 1 && r->hccl_ctx_set[index]) {
    a = r->hccl_ctx[index];
  } else {
    a = (AscTensorRef){0};
    a.buf = -1; /* nullptr */
  }
  a.dtype = ASC_DT_UINT8; /* a __gm__ uint8_t * */
  a.len = -1;             /* an address: bounded by its kernel argument */
  ASC_DST(x, in).t = a;
  return ASC_OK;
}
