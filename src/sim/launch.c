/* Launching a kernel: core_num blocks spread over host worker threads.
 *
 * The launching thread and helpers from the thread pool (pool.c) each run
 * a worker; a worker takes the next block not yet taken until none is
 * left, so a helper that wakes late only takes fewer blocks. Each worker
 * takes one UB from the scratch pool (scratch.c) and reuses it for its
 * blocks. Results never depend on scheduling: a block sees only its own
 * local memory, and the error reported is that of the failing block with
 * the lowest index (blocks are taken in index order, so every block below
 * a failing one was taken and runs to its end). Blocks that wait for each
 * other (cross-block sync) run one per thread, all at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cube.h"
#include "pool.h"
#include "scratch.h"
#include "sim.h"

enum { MAX_WORKERS = 64 };
/* family: cores: the threads of a launch whose blocks wait for each other
 * (every core of a 24-core MIX_AIC_1_2 launch), and the AI Cores a launch
 * may ask for */
enum { MAX_SYNC_THREADS = 192, MAX_CORE_NUM = 1 << 20 };

/* What every worker of a launch shares. */
typedef struct Launch {
  const AscKernel *kernel;
  const AscPlatform *platform;
  const AscLaunchArg *args;
  int n_args;
  int core_num;
  const AscObserver *observers;
  int n_observers;
  AscLaunchControl *control;
  int gm_overruns_reported;
  int precision; /* AscLaunchOptions.precision */
  /* the next block to take, and 1 once a block failed: the blocks not
   * taken yet have higher indices than it and need not run */
  atomic_int next_block, failed;
  /* system family: the launch's cross-block sync (then worker i runs
   * block i, and only it) */
  AscXSync *xsync;
  /* family: cores: the kernel type, the launch's AI Cores (core_num is
   * its blocks, the cores they make up) and the cross-core flags */
  int kernel_type, logical_num;
  AscReserve reserve; /* AscBlockState.reserve */
  int64_t ub_user;    /* AscBlockState.ub_user */
  AscCoreFlags *core_flags;
  uint8_t *const *core_table;
  struct Worker *workers;
} Launch;

typedef struct Worker {
  Launch *launch;
  AscScratch *scratch;
  int index;
  int polls_interrupt; /* runs on the launching thread */
  AscLaunchError err;  /* first error of this worker's blocks */
  /* system family: err only follows from another block's failure */
  int secondary;
} Worker;

void sim_regs_reset(AscCoreRegs *r) {
  /* every block starts with one: 16 KiB of index buffer cleared per block
   * would cost a small kernel more than its instructions */
  int64_t sparse = r->sparse_used;
  memset(r, 0, offsetof(AscCoreRegs, sparse_idx));
  if (sparse > 0)
    memset(r->sparse_idx, 0,
           (size_t)(sparse < (int64_t)sizeof r->sparse_idx
                        ? sparse
                        : (int64_t)sizeof r->sparse_idx));
  r->mask_high = UINT64_MAX; /* the mask register as a kernel starts: */
  r->mask_low = UINT64_MAX;  /* all bits set, normal mode */
}

static void block_reset(AscBlockState *b) {
  for (AscSimQueue *q = b->queues; q;) {
    AscSimQueue *n = q->next;
    free(q);
    q = n;
  }
  for (AscSimTBuf *t = b->tbufs; t;) {
    AscSimTBuf *n = t->next;
    free(t);
    t = n;
  }
  b->queues = NULL;
  b->tbufs = NULL;
  sim_cube_free(b); /* family: cube */
  b->n_objects = 0;
  sim_matmul_reset(b); /* family: matmul */
  memset(&b->pipe, 0, sizeof b->pipe);
  memset(b->flags, 0, sizeof b->flags);
  memset(b->waits, 0, sizeof b->waits);
  /* b->first_wait is not cleared: an entry is read only while its count in
   * b->waits is above 0, and the wait that raised the count from 0 wrote
   * it (sync.c) */
}

/* Checks the end-of-kernel state: a wait_flag still waiting is a deadlock. */
_Static_assert(sizeof(((AscBlockState *)0)->waits) % 8 == 0,
               "block_finish reads the wait counts 8 bytes at a time");

static AscStatus block_finish(AscBlockState *b) {
  /* almost always none is left: one vectorisable pass says so, where the
   * search below costs a small kernel's block more than its instructions */
  const unsigned char *w = (const unsigned char *)b->waits;
  uint64_t left = 0; /* the counts never go below 0 */
  for (size_t i = 0; i + 8 <= sizeof b->waits; i += 8) {
    uint64_t v;
    memcpy(&v, w + i, sizeof v);
    left |= v;
  }
  if (!left)
    return ASC_OK;
  for (int e = 0; e < ASC_MAX_EVENTS; e++)
    for (int id = 0; id < ASC_MAX_EVENT_IDS; id++)
      if (b->waits[e][id] > 0) {
        AscExec x = {b, NULL};
        return sim_fail(&x, b->first_wait[e][id],
                        "deadlock: wait_flag(HardEvent.%s, %d) waits for a "
                        "set_flag that is never issued",
                        asc_enum_value_name(ASC_ENUM_HARDEVENT, e), id);
      }
  return ASC_OK;
}

/* The reserved parts of the UB and L1 that apply to the kernel
 * (AscBlockState.reserve): its kernel type is the one it runs as. */
static AscReserve kernel_reserve(const AscKernel *k, int kernel_type) {
  AscReserve r = asc_kernel_reserve(
      k->module, k->module && k->n_funcs ? k->funcs[0].name : NULL);
  r.kernel_type = kernel_type;
  r.mix = asc_kernel_type_is_mix(kernel_type);
  return r;
}

/* The next block for w, or -1 when it has none left. */
static int next_block(Worker *w, int *ran) {
  Launch *l = w->launch;
  if (l->xsync) /* one block per worker */
    return (*ran)++ ? -1 : w->index;
  if (atomic_load_explicit(&l->failed, memory_order_relaxed) ||
      atomic_load_explicit(&l->control->cancelled, memory_order_relaxed))
    return -1;
  int blk = atomic_fetch_add_explicit(&l->next_block, 1, memory_order_relaxed);
  return blk < l->core_num ? blk : -1;
}

static void worker_main(Worker *w) {
  Launch *l = w->launch;
  AscScratch *sc = w->scratch;
  int ran = 0, blk = next_block(w, &ran);
  if (blk < 0)
    return; /* a helper that came when every block was taken */
  AscBlockState b;
  memset(&b, 0, sizeof b);
  b.kernel = l->kernel;
  b.platform = l->platform;
  b.args = l->args;
  b.n_args = l->n_args;
  b.block_num = l->core_num;
  b.ub = sc->ub;
  b.ub_size = sc->ub_size;
  b.reserve = l->reserve;
  b.ub_user = l->ub_user;
  b.ub_dirty = &sc->dirty;
  b.stack = sc->stack;
  b.stack_size = sc->stack_size;
  b.err = &w->err;
  b.observers = l->observers;
  b.n_observers = l->n_observers;
  b.control = l->control;
  b.polls_interrupt = w->polls_interrupt;
  b.gm_overruns_reported = l->gm_overruns_reported;
  b.precision = l->precision;
  b.xsync = l->xsync;
  b.core_flags = l->core_flags; /* family: cores */
  b.core_table = l->core_table;
  for (; blk >= 0; blk = next_block(w, &ran)) {
    b.block_idx = blk;
    asc_cores_assign(&b, l->kernel_type, blk, l->logical_num);
    sim_regs_reset(&b.regs);
    if (l->xsync) { /* the block's vector clock, epoch 1 (block_sync.c) */
      b.xsync_vc = asc_xsync_vc(l->xsync, blk);
      b.xsync_epoch = 1;
    }
    /* every block starts from a zeroed UB: only what was touched needs it */
    memset(b.ub, 0, (size_t)sc->dirty);
    sc->dirty = 0;
    for (int i = 0; i < b.n_observers; i++)
      if (b.observers[i].block_begin)
        b.observers[i].block_begin(b.observers[i].self, &b);
    AscStatus s = asc_block_run(&b);
    if (!s)
      s = block_finish(&b);
    for (int i = 0; i < b.n_observers && !s; i++)
      if (b.observers[i].block_end)
        s = b.observers[i].block_end(b.observers[i].self, &b);
    block_reset(&b);
    if (l->xsync) { /* system family: the block can release no wait now */
      asc_xsync_block_done(l->xsync, blk, s != ASC_OK);
      w->secondary = s != ASC_OK && asc_xsync_secondary(l->xsync, blk);
    }
    if (s) {
      atomic_store_explicit(&l->failed, 1, memory_order_relaxed);
      break;
    }
    if (atomic_load_explicit(&l->control->cancelled, memory_order_relaxed) ||
        (w->polls_interrupt && asc_poll_interrupt(l->control))) {
      asc_block_interrupted(&b);
      break;
    }
  }
}

/* The pool runs worker `slot` on a helper thread. */
static void run_slot(void *ctx, int slot) {
  Launch *l = ctx;
  worker_main(&l->workers[slot]);
}

/* Another helper could still help: blocks are left to take. */
static int blocks_left(void *ctx) {
  Launch *l = ctx;
  return atomic_load_explicit(&l->next_block, memory_order_relaxed) <
             l->core_num &&
         !atomic_load_explicit(&l->failed, memory_order_relaxed) &&
         !atomic_load_explicit(&l->control->cancelled, memory_order_relaxed);
}

/* The launching thread polls the interrupt callback while it waits for the
 * helpers (a worker in an endless loop stops at its next check once the
 * cancel flag is set). */
static void poll_interrupt(void *ctx) { asc_poll_interrupt(ctx); }

static int n_host_cores = 1;
static pthread_once_t host_cores_once = PTHREAD_ONCE_INIT;

static void count_host_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  n_host_cores = n < 1 ? 1 : (n > MAX_WORKERS ? MAX_WORKERS : (int)n);
}

/* Host cores, counted once: sysconf reads /sys, far slower than a launch. */
static int host_cores(void) {
  pthread_once(&host_cores_once, count_host_cores);
  return n_host_cores;
}

/* Argument i against the kernel's parameter type t: a GM buffer for a
 * global address, an integer or a float for a scalar, and for a struct one
 * number per register slot of its value. */
static AscStatus check_arg(const AscType *t, const AscLaunchArg *a, int i,
                           AscLaunchError *err) {
  static const char *const kinds[] = {"a global memory buffer", "an integer",
                                      "a float", "a struct"};
  const AscStructInfo *si = asc_type_struct_info(t);
  if (t->kind != ASC_TY_GLOBAL_ADDRESS && !si &&
      (t->kind != ASC_TY_SCALAR || t->dtype == ASC_DT_NONE)) {
    char ty[64];
    asc_type_format(t, ty, sizeof ty);
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "kernel parameter %d has type %s: a launch passes only global "
             "addresses, scalars and structs",
             i, ty);
    return err->status;
  }
  AscArgKind want = t->kind == ASC_TY_GLOBAL_ADDRESS ? ASC_ARG_GM
                    : si                             ? ASC_ARG_STRUCT
                    : asc_type_is_float(t)           ? ASC_ARG_FLOAT
                                                     : ASC_ARG_INT;
  if (a->kind != want) {
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "kernel argument %d must be %s, got %s", i, kinds[want],
             (int)a->kind >= 0 && a->kind <= ASC_ARG_STRUCT ? kinds[a->kind]
                                                            : "?");
    return err->status;
  }
  if (si) {
    int ok = a->n_fields == si->n_slots && (a->fields || !a->n_fields);
    for (int k = 0; ok && k < si->n_slots; k++)
      ok = a->fields[k].kind ==
           (asc_dtype_is_float(asc_struct_slot_dtype(si, k)) ? ASC_ARG_FLOAT
                                                             : ASC_ARG_INT);
    if (!ok) {
      err->status = ASC_ERR_KERNEL;
      snprintf(err->message, sizeof err->message,
               "kernel argument %d: a %s is %d numbers (its fields, nested "
               "structs flattened), each an integer or a float as its field",
               i, si->name, si->n_slots);
      return err->status;
    }
  }
  return ASC_OK;
}

int asc_launch_helper_threads(void) { return asc_pool_threads(); }

void asc_launch_helpers_shutdown(void) { asc_pool_shutdown(); }

AscStatus asc_kernel_launch(const AscKernel *k, const AscPlatform *platform,
                            int core_num, const AscLaunchArg *args, int n_args,
                            const AscLaunchOptions *options,
                            AscLaunchError *err) {
  memset(err, 0, sizeof *err);
  err->block = -1;
  if (!asc_platform_simulated(platform)) {
    err->status = ASC_ERR_KERNEL;
    if (platform)
      snprintf(err->message, sizeof err->message,
               "platform %s is NPU arch %d%s: the simulator models NPU arch "
               "%d (C220) only; arch %d's register-based vector unit, SIMT, "
               "its UB<->L1 and L0C->UB paths and its cube memories are not "
               "modelled",
               platform->name, platform->npu_arch,
               platform->npu_arch == 3510 ? " (C310)" : "", ASC_SIM_NPU_ARCH,
               platform->npu_arch);
    else
      snprintf(err->message, sizeof err->message, "no platform");
    return err->status;
  }
  if (core_num < 1) {
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "core_num must be at least 1, got %d", core_num);
    return err->status;
  }
  /* family: listtensor: GM buffers may follow the parameters (the tensors
   * a list argument points to) */
  if (n_args < k->n_params) {
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "the kernel takes %d arguments, got %d", k->n_params, n_args);
    return err->status;
  }
  for (int i = 0; i < n_args; i++) {
    if (i >= k->n_params && args[i].kind != ASC_ARG_GM) {
      err->status = ASC_ERR_KERNEL;
      snprintf(err->message, sizeof err->message,
               "launch argument %d (after the kernel's parameters) must be a "
               "global memory buffer",
               i);
      return err->status;
    }
    if (i < k->n_params && check_arg(k->param_types[i], &args[i], i, err))
      return err->status;
  }
  /* family: cores: a MIX launch runs core_num AI Cores of 2 or 3 cores,
   * each a block; from here core_num counts the blocks */
  int kernel_type = asc_kernel_type_of(k);
  int per_group = asc_cores_per_group(kernel_type);
  int logical_num = core_num;
  if (core_num > MAX_CORE_NUM) {
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "core_num = %d: the model runs at most %d", core_num,
             MAX_CORE_NUM);
    return err->status;
  }
  core_num *= per_group;
  /* the threads the worker setting asks for: the pool keeps that many */
  int keep = options && options->workers > 0 ? options->workers : host_cores();
  if (keep > MAX_WORKERS)
    keep = MAX_WORKERS;
  int workers = keep;
  if (workers > core_num)
    workers = core_num;
  /* system family: blocks that wait for each other run at once, one
   * thread each; the devkit requires numBlocks within the cores for them */
  AscXSync *xsync = NULL;
  AscCoreFlags *core_flags = NULL; /* family: cores */
  if (asc_kernel_syncs_blocks(k)) {
    int cores = platform->vector_cores;
    const char *kind = "vector cores"; /* family: cores: or AI Cores' */
    if (per_group > 1 || kernel_type == 1 || kernel_type == 3 ||
        kernel_type == 5) {
      cores = platform->cube_cores * per_group;
      kind = per_group > 1 ? "cube and vector cores" : "cube cores";
    }
    if (core_num > cores || core_num > MAX_SYNC_THREADS) {
      err->status = ASC_ERR_KERNEL;
      snprintf(err->message, sizeof err->message,
               "the kernel synchronises its blocks (sync_all, ib_set/ib_wait, "
               "notify_next_block/wait_pre_block, cross-core flags), which "
               "needs every block running at once: %d blocks exceed the %d %s "
               "of %s (on the NPU it hangs)",
               core_num, cores < MAX_SYNC_THREADS ? cores : MAX_SYNC_THREADS,
               kind, platform->name);
      return err->status;
    }
    workers = core_num;
    xsync = asc_xsync_new(core_num, 1);
    /* family: cores */
    if (xsync && asc_kernel_uses_core_flags(k) &&
        !(core_flags = asc_core_flags_new(core_num, per_group))) {
      asc_xsync_free(xsync);
      xsync = NULL;
    }
    if (!xsync) {
      err->status = ASC_ERR_INTERNAL;
      snprintf(err->message, sizeof err->message, "out of memory");
      return err->status;
    }
  } else if (asc_kernel_uses_store_atomics(k)) {
    workers = 1; /* float atomic sums in block order (atomic.c) */
  }
  /* family: cores: which core runs each instruction (none for kernels of
   * vector cores only) */
  uint8_t **core_table = asc_cores_table_new(k);
  if (!core_table && kernel_type != 0 && kernel_type != 2 && kernel_type != 4) {
    asc_core_flags_free(core_flags);
    asc_xsync_free(xsync);
    err->status = ASC_ERR_INTERNAL;
    snprintf(err->message, sizeof err->message, "out of memory");
    return err->status;
  }
  /* small launches (the common 1-block case) allocate nothing */
  Worker local[4];
  Worker *ws = workers <= 4 ? local : calloc((size_t)workers, sizeof *ws);
  if (ws == local)
    memset(local, 0, sizeof local);
  if (!ws) {
    asc_core_flags_free(core_flags); /* family: cores */
    asc_cores_table_free(core_table, k);
    asc_xsync_free(xsync);
    err->status = ASC_ERR_INTERNAL;
    snprintf(err->message, sizeof err->message, "out of memory");
    return err->status;
  }
  AscLaunchControl control;
  asc_control_init(&control, options);
  AscReserve reserve = kernel_reserve(k, kernel_type);
  int64_t slots = k->frame_slots > 0 ? k->frame_slots : 1;
  Launch l = {
      .kernel = k,
      .platform = platform,
      .args = args,
      .n_args = n_args,
      .core_num = core_num,
      .observers = options ? options->observers : NULL,
      .n_observers = options ? options->n_observers : 0,
      .control = &control,
      .gm_overruns_reported = options ? options->gm_overruns_reported : 0,
      .precision = options ? options->precision : ASC_PRECISION_EXACT,
      .xsync = xsync,
      .kernel_type = kernel_type, /* family: cores */
      .reserve = reserve,
      .ub_user = asc_reserve_ub_user(&reserve, platform),
      .logical_num = logical_num,
      .core_flags = core_flags,
      .core_table = core_table,
      .workers = ws,
  };
  atomic_init(&l.next_block, 0);
  atomic_init(&l.failed, 0);
  for (int i = 0; i < workers; i++) {
    ws[i].launch = &l;
    ws[i].index = i;
    ws[i].err.block = -1;
    ws[i].polls_interrupt = i == 0;
    ws[i].scratch = asc_scratch_take((int64_t)platform->ub_size, slots);
    if (!ws[i].scratch) {
      for (int j = 0; j < i; j++)
        asc_scratch_give(ws[j].scratch);
      asc_core_flags_free(core_flags); /* family: cores */
      asc_cores_table_free(core_table, k);
      asc_xsync_free(xsync);
      if (ws != local)
        free(ws);
      err->status = ASC_ERR_INTERNAL;
      snprintf(err->message, sizeof err->message, "out of memory");
      return err->status;
    }
  }
  /* LocalTensor.print / to_file output is kept per block and written in
   * block order when the launch ends (output.c) */
  asc_output_launch_begin(&control, core_num);
  AscPoolJob job = {.run = run_slot,
                    .wanted = blocks_left,
                    .ctx = &l,
                    .n_slots = workers,
                    .all_at_once = xsync != NULL};
  int unstaffed = asc_pool_start(&job, keep);
  if (xsync) {
    /* blocks no thread could be had for run here, one after another (on
     * this thread, so they poll the interrupt callback too) */
    if (unstaffed < workers)
      asc_xsync_not_all_started(xsync);
    for (int i = unstaffed; i < workers; i++) {
      ws[i].polls_interrupt = 1;
      worker_main(&ws[i]);
    }
  }
  worker_main(&ws[0]);
  asc_pool_finish(&job, control.interrupt ? poll_interrupt : NULL, &control,
                  ASC_INTERRUPT_POLL_MS);
  asc_output_launch_end(&control);
  for (int i = 0; i < workers; i++)
    asc_scratch_give(ws[i].scratch);
  if (atomic_load(&control.cancelled)) {
    /* whatever the blocks were doing, the launch as a whole was stopped */
    err->status = ASC_ERR_INTERRUPTED;
    snprintf(err->message, sizeof err->message, "launch interrupted");
  } else {
    /* system family: a wait that failed because another block failed is
     * reported only when no block failed on its own */
    for (int pass = 0; pass < 2 && err->status == ASC_OK; pass++)
      for (int i = 0; i < workers; i++)
        if (ws[i].err.status != ASC_OK && ws[i].secondary == pass &&
            (err->status == ASC_OK || ws[i].err.block < err->block))
          *err = ws[i].err;
  }
  asc_core_flags_free(core_flags); /* family: cores */
  asc_cores_table_free(core_table, k);
  asc_xsync_free(xsync);
  if (ws != local)
    free(ws);
  return err->status;
}
