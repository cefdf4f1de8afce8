/* CheckLocalMemoryIA (调试接口/异常检测/CheckLocalMemoryIA(ISASI).md):
 * exception register enableBit (0-3) checks the UB accesses of the kinds it
 * enables inside the blocks (startAddr, endAddr] of 32 bytes (start excluded,
 * end included); one there raises the core's exception
 * (ACL_ERROR_RT_VECTOR_CORE_EXCEPTION), modelled as a KernelError at the
 * access. isEnable false resets the register. The registers are the block's
 * (reset when a block starts). */
#include <string.h>

#include "checked.h"
#include "sim.h"

enum {
  SIM_IA_SCALAR_READ = 1,
  SIM_IA_SCALAR_WRITE = 2,
  SIM_IA_VECTOR_READ = 4,
  SIM_IA_VECTOR_WRITE = 8,
  SIM_IA_MTE_READ = 16,
  SIM_IA_MTE_WRITE = 32,
};

AscStatus sim_check_local_memory_ia(AscExec *x, const AscInstr *in) {
  const AscSlot *p = &x->regs[in->a[0]];
  /* the fields in structs.def order: enable_bit, start_addr, end_addr,
   * is_scalar_read, is_scalar_write, is_vector_read, is_vector_write,
   * is_mte_read, is_mte_write, is_enable */
  int64_t bit = p[0].i, start = p[1].i, end = p[2].i;
  if (bit < 0 || bit > 3)
    return sim_fail(x, in, "enable_bit %lld is out of range [0, 3]",
                    (long long)bit);
  if (start < 0 || start > 65535 || end < 0 || end > 65535)
    return sim_fail(x, in,
                    "start_addr %lld / end_addr %lld (in 32-byte blocks) out "
                    "of range [0, 65535]",
                    (long long)start, (long long)end);
  unsigned kinds = 0;
  for (int k = 0; k < 6; k++)
    if (p[3 + k].i)
      kinds |= 1u << k;
  if (!p[9].i)
    kinds = 0; /* isEnable false: the register is reset */
  x->b->regs.ia[bit].start = start;
  x->b->regs.ia[bit].end = end;
  x->b->regs.ia[bit].kinds = kinds;
  x->b->regs.ia[bit].set_by = in->src;
  x->b->regs.ia_on = 0;
  for (int r = 0; r < 4; r++)
    if (x->b->regs.ia[r].kinds)
      x->b->regs.ia_on = 1;
  return ASC_OK;
}

int sim_ia_access(AscExec *x, const AscInstr *in, int64_t lo, int64_t hi,
                  int write) {
  if (!in || !in->src || hi <= lo)
    return 1;
  AscPipe pipe = asc_op_info(in->src->id)->pipe;
  unsigned kind, w = write ? 1u : 0u;
  const char *name;
  if (pipe == ASC_PIPE_S)
    kind = SIM_IA_SCALAR_READ << w, name = "scalar";
  else if (pipe == ASC_PIPE_V)
    kind = SIM_IA_VECTOR_READ << w, name = "vector";
  else if (pipe == ASC_PIPE_MTE1 || pipe == ASC_PIPE_MTE2 ||
           pipe == ASC_PIPE_MTE3)
    kind = SIM_IA_MTE_READ << w, name = "MTE";
  else
    return 1;
  for (int r = 0; r < 4; r++) {
    const int64_t first = (x->b->regs.ia[r].start + 1) * 32;
    const int64_t last = (x->b->regs.ia[r].end + 1) * 32; /* exclusive */
    if (!(x->b->regs.ia[r].kinds & kind) || lo >= last || hi <= first)
      continue;
    const AscOp *at = x->b->regs.ia[r].set_by;
    const char *file = at && at->loc.file ? at->loc.file : "?";
    sim_fail(x, in,
             "the %s %s of UB bytes [%lld, %lld) falls in the range (%lld, "
             "%lld] of 32-byte blocks (UB bytes [%lld, %lld)) that "
             "check_local_memory_ia armed on exception register %d (at "
             "%s:%d): on the NPU the core raises an exception "
             "(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)",
             name, write ? "write" : "read", (long long)lo, (long long)hi,
             (long long)x->b->regs.ia[r].start, (long long)x->b->regs.ia[r].end,
             (long long)first, (long long)last, r, file, at ? at->loc.line : 0);
    return 0;
  }
  return 1;
}
