/* The system family's semantics on one block: system variables, Trap, the
 * scalar bit utilities and ScalarCast, and the cache / SoC rows. The model
 * keeps memory coherent (every access goes to the memory it names), so
 * DataCacheCleanAndInvalid changes no data: it tells the sanitizer which
 * lines of the scalar unit's data cache it writes back and invalidates
 * (sanitizer_dcache.c), and the other cache rows do nothing. Cross-block
 * sync is block_sync.c. */
#include <string.h>

#include "checked.h"
#include "sim.h"
#include "timing.h"

/* The devkit's system counter on Atlas A2 runs at 50 MHz
 * (GetSystemCycle(ISASI).md: time = cycles / 50 us). */
#define SYS_COUNTER_HZ 50e6

int64_t asc_sbit_sff(uint64_t v, int bit) {
  uint64_t m = bit ? v : ~v;
  if (!m)
    return -1;
  int64_t i = 0;
  while (!(m & 1)) {
    m >>= 1;
    i++;
  }
  return i;
}

int64_t asc_sbit_count(uint64_t v, int bit) {
  uint64_t m = bit ? v : ~v;
  int64_t n = 0;
  for (; m; m &= m - 1)
    n++;
  return n;
}

int64_t asc_sbit_clz(uint64_t v) {
  int64_t n = 0;
  for (uint64_t bit = UINT64_C(1) << 63; bit && !(v & bit); bit >>= 1)
    n++;
  return n;
}

/* Bits below the sign bit equal to it, counted from bit 62 down; -1 for 0
 * and -1 (CountBitsCntSameAsSignBit.md). */
int64_t asc_sbit_same_as_sign(int64_t v) {
  uint64_t u = (uint64_t)v;
  if (u == 0 || u == UINT64_MAX)
    return -1;
  uint64_t sign = u >> 63;
  int64_t n = 0;
  for (int b = 62; b >= 0 && ((u >> b) & 1) == sign; b--)
    n++;
  return n;
}

AscStatus sim_system_nop(AscExec *x, const AscInstr *in) {
  (void)x;
  (void)in;
  return ASC_OK;
}

/* DataCacheCleanAndInvalid<T, entireType[, dcciDst]>(dst): the devkit
 * passes dst's address and both template values to the dcci instruction
 * (impl/basic_api/kernel_reg.h: DcciGMImpl). SINGLE_CACHE_LINE: the 64-byte
 * line holding dst's first byte; ENTIRE_DATA_CACHE: every line (dst's
 * address is ignored). DcciDst CACHELINE_OUT, CACHELINE_ALL (the same,
 * DataCacheCleanAndInvalid.md) and no dcciDst keep the cache coherent with
 * GM; CACHELINE_UB with the UB, and CACHELINE_ATOMIC is not supported on
 * Atlas A2 (same page): neither writes a GM line back. Only observers see
 * any of it. */
AscStatus sim_dcci(AscExec *x, const AscInstr *in) {
  if (!x->b->n_observers)
    return ASC_OK;
  const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  const AscAttr *line = asc_op_attr(in->src, "entire_type");
  const AscAttr *dst = asc_op_attr(in->src, "dcci_dst");
  AscEvent *e = &x->b->ev;
  if (dst && (dst->i == ASC_DCCIDST_CACHELINE_UB ||
              dst->i == ASC_DCCIDST_CACHELINE_ATOMIC))
    e->dc_op = ASC_DC_NO_GM;
  else if (line && line->i == ASC_CACHELINE_ENTIRE_DATA_CACHE)
    e->dc_op = ASC_DC_CLEAN_ALL;
  else
    e->dc_op = ASC_DC_CLEAN_LINE;
  e->dc_buf = t->buf;
  e->dc_off = t->addr;
  return ASC_OK;
}

/* DataCachePreload(src, cacheOffset): loads the one cache line holding
 * byte cacheOffset of src into the data cache (DataCachePreload.md), as a
 * scalar read of it would. Only observers see it. */
AscStatus sim_dc_preload(AscExec *x, const AscInstr *in) {
  if (!x->b->n_observers)
    return ASC_OK;
  const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  AscEvent *e = &x->b->ev;
  int64_t off;
  if (asc_add_i64(t->addr, ASC_SLOT(x, in, 1).i, &off))
    return ASC_OK; /* no address: nothing is loaded */
  e->dc_op = ASC_DC_PRELOAD;
  e->dc_buf = t->buf;
  e->dc_off = off;
  return ASC_OK;
}

/* The block's current cycle converted to the system counter: the timing
 * model's when it runs, else one cycle per instruction executed. */
static int64_t system_cycle(AscBlockState *b) {
  for (int i = 0; i < b->n_observers; i++)
    if (b->observers[i].now) {
      double ghz = asc_timing_clock_ghz(b->observers[i].self);
      int64_t c = b->observers[i].now(b->observers[i].self, b, 0);
      return ghz > 0 ? (int64_t)((double)c * SYS_COUNTER_HZ / (ghz * 1e9)) : 0;
    }
  return (int64_t)((double)b->steps * SYS_COUNTER_HZ / 1.85e9);
}

/* The instruction's place in the kernel's bytecode, its functions laid out
 * one after another, 4 bytes an instruction. */
static int64_t program_counter(const AscKernel *k, const AscInstr *in) {
  int64_t base = 0;
  for (int f = 0; f < k->n_funcs; f++) {
    const AscFunc *fn = &k->funcs[f];
    if ((uintptr_t)in >= (uintptr_t)fn->code &&
        (uintptr_t)in < (uintptr_t)(fn->code + fn->n_code))
      return (base + (int64_t)((uintptr_t)in - (uintptr_t)fn->code) /
                         (int64_t)sizeof *in) *
             4;
    base += fn->n_code;
  }
  return 0;
}

AscStatus sim_system_var(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  int64_t v = 0;
  switch (in->imm) {
  case ASC_SYSVAR_ICACHE_STATUS:
    v = 0; /* no preload in flight: the model has no instruction cache */
    break;
  case ASC_SYSVAR_ARCH_VERSION:
    v = ASC_ARCH_VERSION_C220;
    break;
  case ASC_SYSVAR_DATA_BLOCK_SIZE:
    v = 32; /* ONE_BLK_SIZE */
    break;
  case ASC_SYSVAR_PROGRAM_COUNTER:
    v = program_counter(b->kernel, in);
    break;
  /* family: cores: the core's place in its AI Core (cores.c); without
   * one, an AIV-only kernel's: one vector core per logical core */
  case ASC_SYSVAR_SUB_BLOCK_IDX:
    v = b->has_core ? b->core_sub_idx : 0;
    break;
  case ASC_SYSVAR_SUB_BLOCK_NUM:
  case ASC_SYSVAR_TASK_RATIO:
    v = b->has_core ? b->core_sub_num : 1;
    break;
  case ASC_SYSVAR_SYSTEM_CYCLE:
    v = system_cycle(b);
    break;
  default:
    return sim_fail(x, in, "unknown system variable %d", in->imm);
  }
  ASC_DST(x, in).i = asc_int_normalize((AscDType)in->dtype, v);
  return ASC_OK;
}

AscStatus sim_sys_workspace(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  if (in->imm == 0) {
    const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
    if (t->buf < 0 || t->buf >= b->n_args)
      return sim_fail(x, in,
                      "asc.set_sys_workspace: not a kernel argument's "
                      "global address");
    b->regs.sys_ws = *t;
    b->regs.has_sys_ws = 1;
    return ASC_OK;
  }
  if (!b->regs.has_sys_ws)
    return sim_fail(x, in,
                    "asc.get_sys_workspace(): no system workspace was set: on "
                    "the NPU the framework passes one; here call "
                    "asc.set_sys_workspace(addr) first with a kernel argument");
  AscTensorRef a = b->regs.sys_ws;
  a.dtype = ASC_DT_UINT8; /* GetSysWorkSpacePtr is a __gm__ uint8_t * */
  a.len = -1;             /* an address: bounded by its kernel argument */
  ASC_DST(x, in).t = a;
  return ASC_OK;
}

AscStatus sim_trap(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in, "asc.trap(): the kernel trapped (AscendC::Trap)");
}

AscStatus sim_scalar_bits(AscExec *x, const AscInstr *in) {
  AscSlot a = ASC_SLOT(x, in, 0);
  int64_t r;
  int bit = 0;
  if (in->imm == ASC_SBIT_SFF || in->imm == ASC_SBIT_COUNT) {
    int64_t c = ASC_SLOT(x, in, 1).i;
    if (c != 0 && c != 1)
      return sim_fail(x, in, "count_value must be 0 or 1, got %lld",
                      (long long)c);
    bit = (int)c;
  }
  switch (in->imm) {
  case ASC_SBIT_SFF:
    r = asc_sbit_sff((uint64_t)a.i, bit);
    break;
  case ASC_SBIT_COUNT:
    r = asc_sbit_count((uint64_t)a.i, bit);
    break;
  case ASC_SBIT_CLZ:
    r = asc_sbit_clz((uint64_t)a.i);
    break;
  default:
    r = asc_sbit_same_as_sign(a.i);
    break;
  }
  ASC_DST(x, in).i = asc_int_normalize((AscDType)in->dtype, r);
  return ASC_OK;
}

/* ScalarCast<float, U, mode>: the vector unit's conversion of one element,
 * so the rounding is the Cast instruction's. */
AscStatus sim_scalar_cast(AscExec *x, const AscInstr *in) {
  float f = (float)ASC_SLOT(x, in, 0).f;
  AscDType dt = (AscDType)in->dtype;
  uint8_t out[8];
  memset(out, 0, sizeof out);
  asc_vec_cast(dt, ASC_DT_FLOAT32, (AscRoundMode)in->imm2, out, &f, 1);
  if (dt == ASC_DT_INT32)
    ASC_DST(x, in).i = asc_load_i(dt, out, 0);
  else
    ASC_DST(x, in).f = asc_load_f(dt, out, 0);
  return ASC_OK;
}
