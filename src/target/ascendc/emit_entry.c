/* family: entry. What a kernel must do first and last on the NPU for the
 * way it uses the AI Core, derived from the IR (the ops the kernel and the
 * device functions it calls use, and its kernel_type attribute):
 *
 *  - A static-tensor kernel (an asc.local_tensor: a LocalTensor built at
 *    an address, which asc.LocalMemAllocator makes too) starts with
 *    AscendC::InitSocState() and ends with PipeBarrier<PIPE_ALL>(): the
 *    state registers (atomic mode, mask mode, mask, LoadData padding) hold
 *    whatever the previous kernel left, and no TPipe resets them or drains
 *    the pipes at the end (静态Tensor编程.md, "使用约束和限制";
 *    InitSocState.md; the devkit's static-tensor examples such as
 *    examples/01_simd_cpp_api/05_best_practices/00_vector_compute/
 *    add_high_performance/add.asc). A kernel with a TPipe gets neither: the
 *    TPipe's constructor calls InitSocState and its destructor Destroy(),
 *    which ends with pipe_barrier(PIPE_ALL) (impl/basic_api/
 *    kernel_tpipe_impl.h). A kernel with neither uses no local memory, so
 *    nothing depends on those registers. A line the kernel already has
 *    (asc.init_soc_state() first, asc.pipe_barrier(PIPE_ALL) last, as
 *    upstream's tutorials end) is not repeated.
 *  - A MIX kernel type (MIX_AIV_1_0, MIX_AIC_1_0, MIX_AIC_1_1, MIX_AIC_1_2)
 *    reaches its cross-core flags through the FFTS, whose base address the
 *    launcher passes: the devkit's generated kernel wrapper takes it as an
 *    extra argument and calls set_ffts_base_addr first for these types
 *    (cmake/asc/legacy_modules/util/extract_host_stub.py,
 *    add_ffts_addr_func_param_by_mode, _generate_ffts_source). As upstream
 *    pyasc (its legalize-kernel-args pass), the argument comes last and
 *    points at a uint64 that holds the address.
 *  - A kernel that prints from the device (asc.printf, DumpTensor,
 *    DumpAccChkPoint, PrintTimeStamp, LocalTensor.print, which is a
 *    DumpTensor there; also in a device function it calls)
 *    takes the dump buffer as its last parameter, after the FFTS address
 *    (upstream pyasc's order: explicit arguments, ffts_addr, dump_addr),
 *    and first hands it to AscendC::InitDump with 1 MiB per core, mix =
 *    true for the MIX kernel types, under `#if defined ASCENDC_DUMP` (upstream
 *    pyasc's _gen_init_dump_code, without its CANN version printf). With
 *    no_dump (ASCENDC_DUMP=false) neither is emitted: the devkit then
 *    compiles the printing out (-DASCENDC_DUMP=0).
 *  - A kernel type without vector cores (AIC_ONLY, MIX_AIC_HARD_SYNC,
 *    MIX_AIC_1_0) that makes a Matmul defines ASCENDC_CUBE_ONLY before the
 *    matmul header: else REGIST_MATMUL_OBJ starts the cube side's message
 *    server, which waits for vector cores that never run
 *    (impl/adv_api/detail/kfc/kfc_register_obj.h; upstream's
 *    define-cube-only pass). The MIX side of a Matmul is in emit_matmul.c.
 *
 * The simulator needs none of this: every block starts with the state
 * InitSocState sets, and a block ends when all its pipes are done. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

/* The ops that decide a kernel's entry and exit, and what they mean. */
enum { USES_STATIC_TENSOR = 1, USES_DUMP = 2 };
static const struct {
  AscOpId id;
  unsigned uses;
} marks[] = {{ASC_OP_LT_CREATE, USES_STATIC_TENSOR},
             {ASC_OP_PRINTF, USES_DUMP},
             {ASC_OP_DUMP_TENSOR_LOCAL, USES_DUMP},
             {ASC_OP_DUMP_TENSOR_GLOBAL, USES_DUMP},
             {ASC_OP_DUMP_ACC_CHK_POINT_LOCAL, USES_DUMP},
             {ASC_OP_DUMP_ACC_CHK_POINT_GLOBAL, USES_DUMP},
             {ASC_OP_PRINT_TIME_STAMP, USES_DUMP},
             /* DumpTensor on the NPU (emit_framework.c) */
             {ASC_OP_LT_PRINT, USES_DUMP}};

typedef struct Scan {
  const AscModule *m;
  const AscOp **seen; /* the functions scanned */
  int n_seen, cap_seen;
  unsigned uses;
  int oom;
} Scan;

static void scan_block(const AscBlock *b, Scan *s);

static void scan_function(const AscOp *f, Scan *s) {
  if (!f || f->id != ASC_OP_FUNC || !f->n_regions)
    return;
  for (int i = 0; i < s->n_seen; i++)
    if (s->seen[i] == f)
      return;
  if (s->n_seen == s->cap_seen) {
    int cap = s->cap_seen ? 2 * s->cap_seen : 8;
    const AscOp **n = realloc(s->seen, sizeof *n * (size_t)cap);
    if (!n) {
      s->oom = 1;
      return;
    }
    s->seen = n;
    s->cap_seen = cap;
  }
  s->seen[s->n_seen++] = f;
  scan_block(f->regions[0].block, s);
}

static void scan_block(const AscBlock *b, Scan *s) {
  for (const AscOp *op = b ? b->first : NULL; op && !s->oom; op = op->next) {
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
      if (op->id == marks[i].id)
        s->uses |= marks[i].uses;
    if (op->id == ASC_OP_CALL) {
      const char *callee = asc_op_attr_str(op, "callee");
      if (callee)
        scan_function(asc_module_find_function(s->m, callee), s);
    }
    for (int r = 0; r < op->n_regions; r++)
      scan_block(op->regions[r].block, s);
  }
}

/* What function f (with the functions it calls) uses; -1 out of memory. */
static int scan_uses(const AscModule *m, const AscOp *f) {
  Scan s = {m, NULL, 0, 0, 0, 0};
  scan_function(f, &s);
  free(s.seen);
  return s.oom ? -1 : (int)s.uses;
}

/* What kernel f uses; -1 out of memory (reported). */
static int kernel_uses(Emitter *e, const AscOp *f) {
  int uses = scan_uses(e->m, f);
  if (uses < 0) {
    asc_error(e->ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
    e->failed = 1;
    return -1;
  }
  return uses;
}

static int64_t kernel_type(const AscOp *f) {
  return asc_op_attr_int(f, "kernel_type", 0);
}

int em_kernel_type_is_mix(int64_t kt) {
  return kt == KT_MIX_AIV_1_0 || kt == KT_MIX_AIC_1_0 || kt == KT_MIX_AIC_1_1 ||
         kt == KT_MIX_AIC_1_2;
}

static int cube_cores_only(int64_t kt) {
  return kt == KT_AIC_ONLY || kt == KT_MIX_AIC_HARD_SYNC ||
         kt == KT_MIX_AIC_1_0;
}

static int is_kernel(const AscOp *f) {
  return f->id == ASC_OP_FUNC && asc_op_attr_int(f, "kernel", 0);
}

int em_module_has_mix_cores(const AscModule *m) {
  for (const AscOp *f = m->body->first; f; f = f->next)
    if (is_kernel(f) &&
        (kernel_type(f) == KT_MIX_AIC_1_1 || kernel_type(f) == KT_MIX_AIC_1_2))
      return 1;
  return 0;
}

void em_entry_defines(Emitter *e) {
  if (!em_uses_matmul(e->m))
    return;
  for (const AscOp *f = e->m->body->first; f; f = f->next)
    if (is_kernel(f) && cube_cores_only(kernel_type(f))) {
      em_buf_printf(&e->out, "#define ASCENDC_CUBE_ONLY\n");
      return;
    }
}

int asc_emit_kernel_dumps(const AscModule *m) {
  int dumps = 0;
  for (const AscOp *f = m->body->first; f && !dumps; f = f->next)
    if (is_kernel(f)) {
      int uses = scan_uses(m, f);
      if (uses < 0)
        return -1;
      dumps = (uses & USES_DUMP) != 0;
    }
  return dumps;
}

void em_entry_params(Emitter *e, const AscOp *f, int n_params,
                     EmEntryParams *out) {
  out->ffts = out->dump = NULL;
  if (em_kernel_type_is_mix(kernel_type(f))) {
    out->ffts = em_fresh_name(e, "ffts_addr");
    if (!out->ffts)
      return;
    em_buf_printf(&e->out, "%sGM_ADDR %s", n_params ? ", " : "", out->ffts);
    n_params++;
  }
  int uses = e->opt->no_dump ? 0 : kernel_uses(e, f);
  if (uses > 0 && (uses & USES_DUMP)) {
    out->dump = em_fresh_name(e, "dump_addr");
    if (out->dump)
      em_buf_printf(&e->out, "%sGM_ADDR %s", n_params ? ", " : "", out->dump);
  }
}

/* The first op of the kernel's body that is not a constant (constants are
 * inlined: they emit nothing). */
static const AscOp *first_statement(const AscBlock *b) {
  const AscOp *op = b->first;
  while (op && op->id == ASC_OP_CONSTANT)
    op = op->next;
  return op;
}

/* The last op before the body's func.return. */
static const AscOp *last_statement(const AscBlock *b) {
  const AscOp *op = b->last;
  if (op && op->id == ASC_OP_RETURN)
    op = op->prev;
  return op;
}

static int is_barrier_all(const AscOp *op) {
  return op && op->id == ASC_OP_PIPE_BARRIER &&
         asc_op_attr_int(op, "pipe", -1) == ASC_PIPEID_PIPE_ALL;
}

void em_entry_prologue(Emitter *e, const AscOp *f, const EmEntryParams *p) {
  if (p->dump) {
    int mix = em_kernel_type_is_mix(kernel_type(f));
    em_buf_printf(&e->out, "#if defined ASCENDC_DUMP\n");
    char *s =
        em_fmt_str("AscendC::InitDump(%s, %s, %d)", mix ? "true" : "false",
                   p->dump, (int)ASC_EMIT_ONE_CORE_DUMP_SIZE);
    if (!s) {
      e->failed = 1;
      return;
    }
    em_statement(e, NULL, s);
    free(s);
    em_buf_printf(&e->out, "#endif\n");
  }
  const char *ffts = p->ffts;
  if (ffts) {
    char *s = em_fmt_str(
        "set_ffts_base_addr(*reinterpret_cast<__gm__ uint64_t *>(%s))", ffts);
    if (!s) {
      e->failed = 1;
      return;
    }
    em_statement(e, NULL, s);
    free(s);
  }
  int uses = kernel_uses(e, f);
  if (uses > 0 && (uses & USES_STATIC_TENSOR)) {
    const AscOp *first = first_statement(f->regions[0].block);
    if (!first || first->id != ASC_OP_INIT_SOC_STATE)
      em_statement(e, NULL, "AscendC::InitSocState()");
  }
}

void em_entry_epilogue(Emitter *e, const AscOp *f) {
  int uses = kernel_uses(e, f);
  if (uses > 0 && (uses & USES_STATIC_TENSOR) &&
      !is_barrier_all(last_statement(f->regions[0].block)))
    em_statement(e, NULL, "AscendC::PipeBarrier<PIPE_ALL>()");
}
