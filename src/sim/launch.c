/* Launching a kernel: core_num blocks spread over host worker threads.
 *
 * Blocks are independent (no cross-core sync yet), so worker w runs blocks
 * w, w + W, ... Each worker takes one UB from the scratch pool (scratch.c)
 * and reuses it for its blocks. Results never
 * depend on scheduling: a block sees only its own local memory, and the
 * error reported is that of the failing block with the lowest index. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cube.h"
#include "scratch.h"
#include "sim.h"

enum { MAX_WORKERS = 64 };
/* family: cores: the threads of a launch whose blocks wait for each other
 * (every core of a 24-core MIX_AIC_1_2 launch), and the AI Cores a launch
 * may ask for */
enum { MAX_SYNC_THREADS = 192, MAX_CORE_NUM = 1 << 20 };

/* The launch's workers report their end here, so that the launching thread
 * can wait for them while it keeps polling the interrupt callback. */
typedef struct LaunchWait {
  pthread_mutex_t lock;
  pthread_cond_t done;
  int running; /* started threads not yet finished */
} LaunchWait;

typedef struct Worker {
  const AscKernel *kernel;
  const AscPlatform *platform;
  const AscLaunchArg *args;
  int n_args;
  int core_num;
  int first, stride;
  const AscObserver *observers;
  int n_observers;
  AscScratch *scratch;
  AscLaunchControl *control;
  int polls_interrupt; /* the launching thread's worker */
  int gm_overruns_reported;
  LaunchWait *wait;
  AscLaunchError err; /* first error of this worker's blocks */
  pthread_t thread;
  /* system family: the launch's cross-block sync (one block per worker
   * then), and whether err only follows from another block's failure */
  AscXSync *xsync;
  int secondary;
  /* family: cores: the kernel type, the launch's AI Cores (core_num is
   * its blocks, the cores they make up) and the cross-core flags */
  int kernel_type, logical_num;
  int64_t ub_user; /* AscBlockState.ub_user */
  AscCoreFlags *core_flags;
  uint8_t *const *core_table;
} Worker;

void sim_regs_reset(AscCoreRegs *r) {
  memset(r, 0, sizeof *r);
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
  memset(b->first_wait, 0, sizeof b->first_wait);
}

/* Checks the end-of-kernel state: a wait_flag still waiting is a deadlock. */
static AscStatus block_finish(AscBlockState *b) {
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

/* The UB a kernel may use for its own buffers and tensors (AscBlockState.
 * ub_user): the platform's UB less what the framework keeps, and less the
 * 8 KiB the APIs that use reserved UB take unless the kernel was compiled
 * with --cce-disable-asc-reserved-ubuf (the reserved-ubuf pass then sets
 * its function attribute reserved_ubuf = 0). */
static int64_t ub_user_bytes(const AscKernel *k, const AscPlatform *p) {
  const AscOp *f = k->module && k->n_funcs
                       ? asc_module_find_function(k->module, k->funcs[0].name)
                       : NULL;
  int reserved = f ? asc_op_attr_int(f, "reserved_ubuf", 1) != 0 : 1;
  size_t keep = p->ub_asc_reserved + (reserved ? p->ub_api_reserved : 0);
  return p->ub_size > keep ? (int64_t)(p->ub_size - keep) : 0;
}

static void *worker_main(void *arg) {
  Worker *w = arg;
  AscScratch *sc = w->scratch;
  AscBlockState b;
  memset(&b, 0, sizeof b);
  b.kernel = w->kernel;
  b.platform = w->platform;
  b.args = w->args;
  b.n_args = w->n_args;
  b.block_num = w->core_num;
  b.ub = sc->ub;
  b.ub_size = sc->ub_size;
  b.ub_user = w->ub_user;
  b.ub_dirty = &sc->dirty;
  b.stack = sc->stack;
  b.stack_size = sc->stack_size;
  b.err = &w->err;
  b.observers = w->observers;
  b.n_observers = w->n_observers;
  b.control = w->control;
  b.polls_interrupt = w->polls_interrupt;
  b.gm_overruns_reported = w->gm_overruns_reported;
  b.xsync = w->xsync;
  b.core_flags = w->core_flags; /* family: cores */
  b.core_table = w->core_table;
  for (int blk = w->first; blk < w->core_num; blk += w->stride) {
    b.block_idx = blk;
    asc_cores_assign(&b, w->kernel_type, blk, w->logical_num);
    sim_regs_reset(&b.regs);
    if (w->xsync) { /* the block's vector clock, epoch 1 (block_sync.c) */
      b.xsync_vc = asc_xsync_vc(w->xsync, blk);
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
    if (w->xsync) { /* system family: the block can release no wait now */
      asc_xsync_block_done(w->xsync, blk, s != ASC_OK);
      w->secondary = s != ASC_OK && asc_xsync_secondary(w->xsync, blk);
    }
    if (s)
      break; /* later blocks of this worker have higher indices */
    if (atomic_load_explicit(&w->control->cancelled, memory_order_relaxed) ||
        (w->polls_interrupt && asc_poll_interrupt(w->control))) {
      asc_block_interrupted(&b);
      break;
    }
  }
  return NULL;
}

static void *worker_thread(void *arg) {
  Worker *w = arg;
  worker_main(w);
  pthread_mutex_lock(&w->wait->lock);
  w->wait->running--;
  pthread_cond_signal(&w->wait->done);
  pthread_mutex_unlock(&w->wait->lock);
  return NULL;
}

/* Waits until the started threads have finished, polling the interrupt
 * callback meanwhile (a worker in an endless loop stops at its next check
 * once the cancel flag is set). */
static void wait_workers(LaunchWait *wt, AscLaunchControl *c) {
  pthread_mutex_lock(&wt->lock);
  while (wt->running > 0) {
    if (!c->interrupt) {
      pthread_cond_wait(&wt->done, &wt->lock);
      continue;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)ASC_INTERRUPT_POLL_MS * 1000000;
    ts.tv_sec += ts.tv_nsec / 1000000000;
    ts.tv_nsec %= 1000000000;
    pthread_cond_timedwait(&wt->done, &wt->lock, &ts);
    if (wt->running > 0) {
      pthread_mutex_unlock(&wt->lock); /* the callback may take a while */
      asc_poll_interrupt(c);
      pthread_mutex_lock(&wt->lock);
    }
  }
  pthread_mutex_unlock(&wt->lock);
}

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

/* 1 when the wait's mutex and (monotonic-clock) condition exist, -1 when
 * they could not be created. */
static int init_wait(LaunchWait *wt) {
  pthread_condattr_t attr;
  if (pthread_condattr_init(&attr) != 0)
    return -1;
  int ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
           pthread_cond_init(&wt->done, &attr) == 0;
  pthread_condattr_destroy(&attr);
  if (!ok)
    return -1;
  if (pthread_mutex_init(&wt->lock, NULL) != 0) {
    pthread_cond_destroy(&wt->done);
    return -1;
  }
  return 1;
}

static void destroy_wait(LaunchWait *wt) {
  pthread_cond_destroy(&wt->done);
  pthread_mutex_destroy(&wt->lock);
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

AscStatus asc_kernel_launch(const AscKernel *k, const AscPlatform *platform,
                            int core_num, const AscLaunchArg *args, int n_args,
                            const AscLaunchOptions *options,
                            AscLaunchError *err) {
  memset(err, 0, sizeof *err);
  err->block = -1;
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
  int64_t ub_user = ub_user_bytes(k, platform);
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
  int workers =
      options && options->workers > 0 ? options->workers : host_cores();
  if (workers > MAX_WORKERS)
    workers = MAX_WORKERS;
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
  LaunchWait wait;
  wait.running = 0;
  int sync_ok = workers > 1 ? init_wait(&wait) : 0;
  if (sync_ok < 0) {
    asc_core_flags_free(core_flags); /* family: cores */
    asc_cores_table_free(core_table, k);
    asc_xsync_free(xsync);
    if (ws != local)
      free(ws);
    err->status = ASC_ERR_INTERNAL;
    snprintf(err->message, sizeof err->message,
             "cannot create a condition variable");
    return err->status;
  }
  int64_t slots = k->frame_slots > 0 ? k->frame_slots : 1;
  /* LocalTensor.print / to_file output is kept per block and written in
   * block order when the launch ends (output.c) */
  asc_output_launch_begin(&control, core_num);
  for (int i = 0; i < workers; i++) {
    ws[i].kernel = k;
    ws[i].platform = platform;
    ws[i].args = args;
    ws[i].n_args = n_args;
    ws[i].core_num = core_num;
    ws[i].first = i;
    ws[i].stride = workers;
    ws[i].err.block = -1;
    ws[i].observers = options ? options->observers : NULL;
    ws[i].n_observers = options ? options->n_observers : 0;
    ws[i].control = &control;
    ws[i].polls_interrupt = i == 0;
    ws[i].gm_overruns_reported = options ? options->gm_overruns_reported : 0;
    ws[i].wait = &wait;
    ws[i].xsync = xsync;
    ws[i].ub_user = ub_user;
    ws[i].kernel_type = kernel_type; /* family: cores */
    ws[i].logical_num = logical_num;
    ws[i].core_flags = core_flags;
    ws[i].core_table = core_table;
    ws[i].scratch = asc_scratch_take((int64_t)platform->ub_size, slots);
    if (!ws[i].scratch) {
      for (int j = 0; j < i; j++)
        asc_scratch_give(ws[j].scratch);
      asc_output_launch_end(&control);
      if (sync_ok)
        destroy_wait(&wait);
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
  int started = 1;
  for (int i = 1; i < workers; i++) {
    pthread_mutex_lock(&wait.lock);
    wait.running++;
    pthread_mutex_unlock(&wait.lock);
    if (pthread_create(&ws[i].thread, NULL, worker_thread, &ws[i]) != 0) {
      pthread_mutex_lock(&wait.lock);
      wait.running--;
      pthread_mutex_unlock(&wait.lock);
      break;
    }
    started++;
  }
  /* blocks a thread could not be started for run here, one after another
   * (on this thread, so they poll the interrupt callback too) */
  if (xsync && started < workers)
    asc_xsync_not_all_started(xsync);
  for (int i = started; i < workers; i++) {
    ws[i].polls_interrupt = 1;
    worker_main(&ws[i]);
  }
  worker_main(&ws[0]);
  if (started > 1)
    wait_workers(&wait, &control);
  for (int i = 1; i < started; i++)
    pthread_join(ws[i].thread, NULL);
  asc_output_launch_end(&control);
  if (sync_ok)
    destroy_wait(&wait);
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
