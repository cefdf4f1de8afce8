/* Launching a kernel: core_num blocks spread over host worker threads.
 *
 * Blocks are independent (no cross-core sync yet), so worker w runs blocks
 * w, w + W, ... Each worker owns one UB reused by its blocks. Results never
 * depend on scheduling: a block sees only its own local memory, and the
 * error reported is that of the failing block with the lowest index. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim.h"

enum { MAX_WORKERS = 64 };

typedef struct Worker {
  const AscKernel *kernel;
  const AscPlatform *platform;
  const AscLaunchArg *args;
  int n_args;
  int core_num;
  int first, stride;
  AscLaunchError err; /* first error of this worker's blocks */
  pthread_t thread;
} Worker;

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

static void *worker_main(void *arg) {
  Worker *w = arg;
  AscBlockState b;
  memset(&b, 0, sizeof b);
  b.kernel = w->kernel;
  b.platform = w->platform;
  b.args = w->args;
  b.n_args = w->n_args;
  b.block_num = w->core_num;
  b.ub_size = (int64_t)w->platform->ub_size;
  b.ub = calloc(1, w->platform->ub_size);
  b.err = &w->err;
  if (!b.ub) {
    w->err.status = ASC_ERR_INTERNAL;
    snprintf(w->err.message, sizeof w->err.message, "out of memory");
    return NULL;
  }
  for (int blk = w->first; blk < w->core_num; blk += w->stride) {
    b.block_idx = blk;
    memset(b.ub, 0, w->platform->ub_size);
    AscStatus s = asc_block_run(&b);
    if (!s)
      s = block_finish(&b);
    block_reset(&b);
    if (s)
      break; /* later blocks of this worker have higher indices */
  }
  free(b.ub);
  free(b.stack);
  return NULL;
}

static int host_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (n > MAX_WORKERS ? MAX_WORKERS : (int)n);
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
  if (n_args != k->n_params) {
    err->status = ASC_ERR_KERNEL;
    snprintf(err->message, sizeof err->message,
             "the kernel takes %d arguments, got %d", k->n_params, n_args);
    return err->status;
  }
  for (int i = 0; i < n_args; i++) {
    const AscType *t = k->param_types[i];
    AscArgKind want = t->kind == ASC_TY_GLOBAL_ADDRESS ? ASC_ARG_GM
                      : asc_type_is_float(t)           ? ASC_ARG_FLOAT
                                                       : ASC_ARG_INT;
    if (args[i].kind != want) {
      static const char *kinds[] = {"a global memory buffer", "an integer",
                                    "a float"};
      err->status = ASC_ERR_KERNEL;
      snprintf(err->message, sizeof err->message,
               "kernel argument %d must be %s, got %s", i, kinds[want],
               kinds[args[i].kind]);
      return err->status;
    }
  }
  int workers =
      options && options->workers > 0 ? options->workers : host_cores();
  if (workers > MAX_WORKERS)
    workers = MAX_WORKERS;
  if (workers > core_num)
    workers = core_num;
  Worker *ws = calloc((size_t)workers, sizeof *ws);
  if (!ws) {
    err->status = ASC_ERR_INTERNAL;
    snprintf(err->message, sizeof err->message, "out of memory");
    return err->status;
  }
  for (int i = 0; i < workers; i++) {
    ws[i].kernel = k;
    ws[i].platform = platform;
    ws[i].args = args;
    ws[i].n_args = n_args;
    ws[i].core_num = core_num;
    ws[i].first = i;
    ws[i].stride = workers;
    ws[i].err.block = -1;
  }
  int started = 1;
  for (int i = 1; i < workers; i++) {
    if (pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]) != 0)
      break;
    started++;
  }
  /* blocks a thread could not be started for run here, one after another */
  for (int i = started; i < workers; i++) {
    ws[i].first = i;
    worker_main(&ws[i]);
  }
  worker_main(&ws[0]);
  for (int i = 1; i < started; i++)
    pthread_join(ws[i].thread, NULL);
  for (int i = 0; i < workers; i++)
    if (ws[i].err.status != ASC_OK &&
        (err->status == ASC_OK || ws[i].err.block < err->block))
      *err = ws[i].err;
  free(ws);
  return err->status;
}
