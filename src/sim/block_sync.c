/* Synchronisation between the blocks of a launch: SyncAll (hard and soft),
 * IBSet / IBWait and NotifyNextBlock / WaitPreBlock.
 *
 * A kernel that uses any of them runs every block on a thread of its own
 * (launch.c), so that the blocks are live at once as on the NPU (the devkit
 * requires numBlocks not to exceed the cores for these APIs). A waiting
 * block sleeps on the launch's condition variable; every change another
 * block makes (a flag written, a barrier reached, a block done) wakes the
 * waiters, which test their condition again.
 *
 * The simulator never hangs: a wait is a deadlock when every block still
 * running is waiting and each has tested its condition since the last
 * change (nothing can change any more). Then every waiter fails with a
 * KernelError; when a block failed before, the waits are its consequence
 * and the launch reports that block's error instead (asc_xsync_secondary).
 *
 * The flags are GM words read and written under the launch's lock, by these
 * instructions only (as the devkit's own loops of DataCopy and GetValue),
 * so they are not reported to the observers as GM accesses: they are the
 * synchronisation, not data the blocks race on. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checked.h"
#include "sim.h"

enum { WAIT_POLL_MS = 20, FLAG_STRIDE = 8 /* int32 per 32-byte block */ };
/* A wait yields the core this many times, watching for a change, before it
 * sleeps: the block that releases it usually runs on another thread at
 * that moment, and a sleep and wake-up cost 10-20 us a round (a loop of
 * SyncAll between two blocks ran at 20 us an iteration). */
enum { WAIT_SPIN_YIELDS = 64 };

struct AscXSync {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int core_num;
  int all_started; /* 0: some block has no thread; waits cannot work */
  int n_live;      /* blocks not done */
  int n_blocked;   /* blocks waiting */
  int n_checked;   /* waiters that tested their condition at this epoch */
  /* counts changes; written under the lock, read without it by a wait that
   * spins (wait_until) */
  atomic_uint_fast64_t epoch;
  int dead;
  int failed_block; /* lowest failed block, -1 */
  uint8_t *done, *failed, *secondary;
  /* Happens-before for the sanitizer: a vector clock per block (row b;
   * entry b is b's epoch, from 1), the clocks released into each GM flag
   * word (keys), and the hard barrier's merged clock. */
  int32_t *vc;
  /* Hard SyncAll: one barrier per set of cores that meets at it
   * (BAR_AIV, BAR_AIC: the cores of one kind, SyncAll<true>; BAR_ALL:
   * every core, SyncAll<false> in a MIX kernel): completed rounds, cores
   * arrived at the open one, their merged clock and latest arrival cycle,
   * the clock and cycle the last round released. */
  struct Barrier {
    int64_t gen;
    int count;
    int32_t *acc, *res;
    int64_t tacc, tres;
  } bar[3];
  struct Key {
    int32_t buf;
    int64_t off;
    int32_t *vc;
    int64_t t; /* the latest release's cycle (timing model) */
  } *keys;
  int n_keys, cap_keys;
};

int asc_kernel_syncs_blocks(const AscKernel *k) {
  for (int f = 0; f < k->n_funcs; f++)
    for (int i = 0; i < k->funcs[f].n_code; i++)
      switch (k->funcs[f].code[i].op) {
      case ASC_OP_SYNC_ALL:
      case ASC_OP_SYNC_ALL_SOFT:
      case ASC_OP_IB_SET:
      case ASC_OP_IB_WAIT:
      case ASC_OP_NOTIFY_NEXT_BLOCK:
      case ASC_OP_WAIT_PRE_BLOCK:
      /* family: cores */
      case ASC_OP_CROSS_CORE_SET_FLAG:
      case ASC_OP_CROSS_CORE_WAIT_FLAG:
        return 1;
      default:
        break;
      }
  return 0;
}

AscXSync *asc_xsync_new(int core_num, int all_started) {
  AscXSync *xs = calloc(1, sizeof *xs);
  if (!xs)
    return NULL;
  atomic_init(&xs->epoch, 0);
  xs->done = calloc((size_t)core_num * 3, 1);
  pthread_condattr_t attr;
  int ok = xs->done && pthread_condattr_init(&attr) == 0;
  if (ok) {
    ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
         pthread_cond_init(&xs->cond, &attr) == 0;
    pthread_condattr_destroy(&attr);
  }
  if (ok && pthread_mutex_init(&xs->lock, NULL) != 0) {
    pthread_cond_destroy(&xs->cond);
    ok = 0;
  }
  if (!ok) {
    free(xs->done);
    free(xs);
    return NULL;
  }
  xs->failed = xs->done + core_num;
  xs->secondary = xs->failed + core_num;
  xs->core_num = core_num;
  xs->all_started = all_started;
  xs->n_live = core_num;
  xs->failed_block = -1;
  size_t n = (size_t)core_num;
  xs->vc = calloc(n * n + 6 * n, sizeof *xs->vc);
  if (!xs->vc) {
    asc_xsync_free(xs);
    return NULL;
  }
  for (int i = 0; i < 3; i++) {
    xs->bar[i].acc = xs->vc + n * n + (size_t)(2 * i) * n;
    xs->bar[i].res = xs->bar[i].acc + n;
  }
  for (int b = 0; b < core_num; b++)
    xs->vc[(size_t)b * n + (size_t)b] = 1;
  return xs;
}

void asc_xsync_free(AscXSync *xs) {
  if (!xs)
    return;
  pthread_cond_destroy(&xs->cond);
  pthread_mutex_destroy(&xs->lock);
  for (int i = 0; i < xs->n_keys; i++)
    free(xs->keys[i].vc);
  free(xs->keys);
  free(xs->vc);
  free(xs->done);
  free(xs);
}

/* Something changed: every waiter must test its condition again. Called
 * with the lock held. */
static void changed(AscXSync *xs) {
  atomic_fetch_add_explicit(&xs->epoch, 1, memory_order_relaxed);
  xs->n_checked = 0;
  pthread_cond_broadcast(&xs->cond);
}

void asc_xsync_block_done(AscXSync *xs, int block, int failed) {
  if (!xs || block < 0 || block >= xs->core_num)
    return;
  pthread_mutex_lock(&xs->lock);
  if (!xs->done[block]) {
    xs->done[block] = 1;
    xs->n_live--;
    if (failed) {
      xs->failed[block] = 1;
      if (xs->failed_block < 0 || block < xs->failed_block)
        xs->failed_block = block;
    }
    changed(xs);
  }
  pthread_mutex_unlock(&xs->lock);
}

void asc_xsync_not_all_started(AscXSync *xs) {
  pthread_mutex_lock(&xs->lock);
  xs->all_started = 0;
  changed(xs);
  pthread_mutex_unlock(&xs->lock);
}

const int32_t *asc_xsync_vc(const AscXSync *xs, int block) {
  return xs->vc + (size_t)block * (size_t)xs->core_num;
}

/* ---- happens-before (lock held) -------------------------------------------
 */

static int32_t *my_vc(AscXSync *xs, int block) {
  return xs->vc + (size_t)block * (size_t)xs->core_num;
}

static void vc_max(int32_t *to, const int32_t *from, int n) {
  for (int i = 0; i < n; i++)
    if (from[i] > to[i])
      to[i] = from[i];
}

/* The clock released into the GM word (buf, off); NULL when out of memory
 * (the sanitizer then misses an order and may report a race too many). */
static int32_t *key_vc(AscXSync *xs, int32_t buf, int64_t off) {
  for (int i = 0; i < xs->n_keys; i++)
    if (xs->keys[i].buf == buf && xs->keys[i].off == off)
      return xs->keys[i].vc;
  if (xs->n_keys == xs->cap_keys) {
    int cap = xs->cap_keys ? xs->cap_keys * 2 : 16;
    struct Key *k = realloc(xs->keys, sizeof *k * (size_t)cap);
    if (!k)
      return NULL;
    xs->keys = k;
    xs->cap_keys = cap;
  }
  int32_t *vc = calloc((size_t)xs->core_num, sizeof *vc);
  if (!vc)
    return NULL;
  xs->keys[xs->n_keys++] = (struct Key){buf, off, vc, 0};
  return vc;
}

static struct Key *key_of(AscXSync *xs, int32_t buf, int64_t off) {
  int32_t *vc = key_vc(xs, buf, off);
  for (int i = vc ? xs->n_keys - 1 : -1; i >= 0; i--)
    if (xs->keys[i].vc == vc)
      return &xs->keys[i];
  return NULL;
}

/* The cycle the block reaches the op, all its pipes done (the devkit's
 * PipeBarrier<PIPE_ALL> before it), in the timing model; 0 without one. */
static int64_t arrival(AscBlockState *b) {
  for (int i = 0; i < b->n_observers; i++)
    if (b->observers[i].now)
      return b->observers[i].now(b->observers[i].self, b, 1);
  return 0;
}

/* The op's release cycle for the timing model (events.h). */
static void released_at(AscBlockState *b, int64_t t) {
  if (b->n_observers)
    b->ev.xs_release = t;
}

static void release_to(AscXSync *xs, AscBlockState *b, int32_t buf, int64_t off,
                       int64_t t) {
  struct Key *k = key_of(xs, buf, off);
  if (k) {
    vc_max(k->vc, my_vc(xs, b->block_idx), xs->core_num);
    if (t > k->t)
      k->t = t;
  }
}

/* Takes the clock released into (buf, off); returns its cycle. */
static int64_t acquire_from(AscXSync *xs, AscBlockState *b, int32_t buf,
                            int64_t off) {
  struct Key *k = key_of(xs, buf, off);
  if (!k)
    return 0;
  vc_max(my_vc(xs, b->block_idx), k->vc, xs->core_num);
  return k->t;
}

/* The op is done: the block's accesses after it are a new epoch. */
static void next_epoch(AscBlockState *b) {
  int32_t *v = my_vc(b->xsync, b->block_idx);
  v[b->block_idx]++;
  b->xsync_epoch = v[b->block_idx];
}

int asc_xsync_secondary(const AscXSync *xs, int block) {
  return xs && block >= 0 && block < xs->core_num && xs->secondary[block];
}

/* A GM flag word: `n` int32 from element `index` of GM tensor operand k,
 * inside its kernel argument (never clamped: a flag outside it is a
 * KernelError in every sanitizer mode). */
static int32_t *flag_words(AscExec *x, const AscInstr *in, int k, int64_t index,
                           int64_t n, const char *what) {
  const AscTensorRef *t = sim_tensor_arg(x, in, k, "gm_workspace");
  if (!t)
    return NULL;
  if (t->buf < 0 || t->buf >= x->b->n_args) {
    sim_fail(x, in, "%s: gm_workspace used before set_global_buffer", what);
    return NULL;
  }
  const AscLaunchArg *a = &x->b->args[t->buf];
  int64_t lo, hi;
  if (index < 0 || asc_scaled_add(t->addr, index, 4, &lo) ||
      asc_scaled_add(lo, n, 4, &hi) || lo < 0 || hi > (int64_t)a->nbytes ||
      (t->len >= 0 && index + n > t->len)) {
    sim_fail(x, in,
             "%s: the flag at int32 element %lld of gm_workspace (%lld "
             "elements) lies outside it (kernel argument %d, %lld bytes): "
             "gm_workspace must hold block_num * 8 * (max event_id + 1) int32 "
             "for ib_set/ib_wait, block_num * 8 for sync_all and "
             "notify_next_block/wait_pre_block",
             what, (long long)index, (long long)t->len, t->buf,
             (long long)a->nbytes);
    return NULL;
  }
  if (a->readonly) {
    sim_fail(x, in, "%s: gm_workspace is a read-only array", what);
    return NULL;
  }
  if (lo % 4) {
    sim_fail(x, in, "%s: gm_workspace is not 4-byte aligned", what);
    return NULL;
  }
  return (int32_t *)((uint8_t *)a->ptr + lo);
}

/* The ub_workspace operand, n int32 of it, which the instruction writes. */
static int32_t *ub_words(AscExec *x, const AscInstr *in, int k, int64_t n,
                         int write) {
  const AscTensorRef *t = sim_tensor_arg(x, in, k, "ub_workspace");
  if (!t)
    return NULL;
  return (int32_t *)sim_local_ptr(x, in, t, n, write, "ub_workspace");
}

typedef int (*Cond)(void *ctx);

static AscXSync *xsync_of(AscExec *x, const AscInstr *in, const char *what) {
  AscXSync *xs = x->b->xsync;
  if (!xs)
    sim_fail(x, in, "%s: internal: the launch has no cross-block state", what);
  return xs;
}

/* Waits, with the lock held, until cond(ctx) holds. */
static AscStatus wait_until(AscExec *x, const AscInstr *in, Cond cond,
                            void *ctx, const char *what) {
  AscBlockState *b = x->b;
  AscXSync *xs = b->xsync;
  uint_fast64_t seen = UINT_FAST64_MAX;
  AscStatus st = ASC_OK;
  xs->n_blocked++;
  for (;;) {
    if (cond(ctx))
      break;
    if (!xs->all_started) {
      st = sim_fail(x, in,
                    "%s: the launch could not start a thread for every block, "
                    "and blocks that wait for each other must run at once",
                    what);
      break;
    }
    if (xs->dead) {
      if (xs->failed_block >= 0) {
        xs->secondary[b->block_idx] = 1;
        st = sim_fail(x, in,
                      "deadlock: %s in block %d can never return: block %d "
                      "failed before releasing it",
                      what, b->block_idx, xs->failed_block);
      } else {
        int gone = -1;
        for (int i = 0; i < xs->core_num && gone < 0; i++)
          if (xs->done[i])
            gone = i;
        char why[128] = "every block is waiting";
        if (gone >= 0)
          snprintf(why, sizeof why,
                   "every other block is waiting or has finished (block %d "
                   "ended without releasing it)",
                   gone);
        st = sim_fail(x, in,
                      "deadlock: %s in block %d waits for ever: %s; on the "
                      "NPU the kernel hangs here",
                      what, b->block_idx, why);
      }
      break;
    }
    uint_fast64_t now = atomic_load_explicit(&xs->epoch, memory_order_relaxed);
    if (seen != now) {
      seen = now;
      xs->n_checked++;
    }
    if (xs->n_blocked == xs->n_live && xs->n_checked == xs->n_blocked) {
      xs->dead = 1;
      pthread_cond_broadcast(&xs->cond);
      continue;
    }
    if (atomic_load_explicit(&b->control->cancelled, memory_order_relaxed)) {
      st = asc_block_interrupted(b);
      break;
    }
    /* blocked and checked at this epoch while it spins, as while it sleeps:
     * the deadlock test above stays exact */
    pthread_mutex_unlock(&xs->lock);
    for (int i = 0;
         i < WAIT_SPIN_YIELDS &&
         atomic_load_explicit(&xs->epoch, memory_order_relaxed) == seen;
         i++)
      sched_yield();
    pthread_mutex_lock(&xs->lock);
    if (atomic_load_explicit(&xs->epoch, memory_order_relaxed) != seen)
      continue;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)WAIT_POLL_MS * 1000000;
    ts.tv_sec += ts.tv_nsec / 1000000000;
    ts.tv_nsec %= 1000000000;
    pthread_cond_timedwait(&xs->cond, &xs->lock, &ts);
    if (b->polls_interrupt) {
      pthread_mutex_unlock(&xs->lock);
      asc_poll_interrupt(b->control);
      pthread_mutex_lock(&xs->lock);
    }
  }
  xs->n_blocked--;
  if (seen == atomic_load_explicit(&xs->epoch, memory_order_relaxed) &&
      xs->n_checked > 0)
    xs->n_checked--;
  return st;
}

/* ---- SyncAll ---------------------------------------------------------------
 * Hard: a barrier of every block of the launch. Soft (gm, ub, usedCores):
 * the devkit's protocol on GM: block i adds 1 to the int32 at gm[8 * i]
 * and waits until the words of the first usedCores blocks (all when 0) sum
 * to usedCores times its own new value. */

typedef struct BarrierWait {
  struct Barrier *bar;
  int64_t gen;
} BarrierWait;

static int barrier_done(void *ctx) {
  BarrierWait *w = ctx;
  return w->bar->gen > w->gen;
}

enum { BAR_AIV, BAR_AIC, BAR_ALL };

/* The barrier a hard SyncAll<is_aiv_only> meets at and how many cores
 * meet there (dav_c220's SyncAllImpl: with isAIVOnly every core syncs with
 * the cores of its own kind, mode 0 of the cross-core flags; without it,
 * in a kernel with both kinds, all of them). */
static struct Barrier *barrier_of(AscXSync *xs, const AscBlockState *b,
                                  int aiv_only, int *members) {
  int per = b->core_per_group > 1 ? b->core_per_group : 1;
  /* the cube cores of the launch: one per group of a MIX kernel; in a
   * launch of one kind, all of its cores or none */
  int aics = per > 1 ? xs->core_num / per : b->core_is_aic ? xs->core_num : 0;
  if (!aiv_only && aics > 0 && aics < xs->core_num) {
    *members = xs->core_num;
    return &xs->bar[BAR_ALL];
  }
  *members = b->core_is_aic ? aics : xs->core_num - aics;
  return &xs->bar[b->core_is_aic ? BAR_AIC : BAR_AIV];
}

typedef struct SoftWait {
  int32_t *gm;
  int total;
  int64_t want;
} SoftWait;

static int soft_done(void *ctx) {
  SoftWait *w = ctx;
  int64_t sum = 0;
  for (int i = 0; i < w->total; i++)
    sum += w->gm[(int64_t)i * FLAG_STRIDE];
  return sum >= w->want;
}

AscStatus sim_sync_all(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  const char *what = "asc.sync_all()";
  AscXSync *xs = xsync_of(x, in, what);
  if (!xs)
    return ASC_ERR_KERNEL;
  int64_t t0 = arrival(b);
  if (in->imm == 0) {
    int members;
    struct Barrier *bar = barrier_of(
        xs, b, (int)asc_op_attr_int(in->src, "is_aiv_only", 1) != 0, &members);
    pthread_mutex_lock(&xs->lock);
    BarrierWait w = {bar, bar->gen};
    vc_max(bar->acc, my_vc(xs, b->block_idx), xs->core_num);
    if (t0 > bar->tacc)
      bar->tacc = t0;
    if (++bar->count == members) {
      bar->count = 0;
      bar->gen++;
      memcpy(bar->res, bar->acc, sizeof(int32_t) * (size_t)xs->core_num);
      memset(bar->acc, 0, sizeof(int32_t) * (size_t)xs->core_num);
      bar->tres = bar->tacc;
      bar->tacc = 0;
      changed(xs);
    }
    AscStatus st = wait_until(x, in, barrier_done, &w, what);
    if (!st) {
      vc_max(my_vc(xs, b->block_idx), bar->res, xs->core_num);
      next_epoch(b);
      released_at(b, bar->tres);
    }
    pthread_mutex_unlock(&xs->lock);
    return st;
  }
  what = "asc.sync_all(gm_workspace, ub_workspace, used_cores)";
  if (b->core_is_aic) /* the devkit's SoftSyncAllImpl: the AIVs' barrier */
    return ASC_OK;
  int64_t used = ASC_SLOT(x, in, 2).i;
  if (used < 0 || used > b->block_num)
    return sim_fail(x, in, "%s: used_cores = %lld is not in [0, %d]", what,
                    (long long)used, b->block_num);
  int total = used ? (int)used : b->block_num;
  /* a block past the first used_cores still counts its own word (which
   * nobody reads) and waits for theirs, as the devkit's loop does */
  int64_t span = (int64_t)(b->block_idx >= total ? b->block_idx + 1 : total);
  int32_t *gm = flag_words(x, in, 0, 0, span * FLAG_STRIDE, what);
  int32_t *ub = gm ? ub_words(x, in, 1, span * FLAG_STRIDE, 1) : NULL;
  if (!ub)
    return ASC_ERR_KERNEL;
  pthread_mutex_lock(&xs->lock);
  int32_t *mine = gm + (int64_t)b->block_idx * FLAG_STRIDE;
  int32_t cur = (int32_t)((uint32_t)*mine + 1u);
  *mine = cur;
  const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  int64_t base = t->addr;
  release_to(xs, b, t->buf, base + (int64_t)b->block_idx * FLAG_STRIDE * 4, t0);
  changed(xs);
  SoftWait w = {gm, total, (int64_t)total * cur};
  AscStatus st = wait_until(x, in, soft_done, &w, what);
  if (!st) { /* the devkit's last copy of the words into the UB */
    memcpy(ub, gm, (size_t)total * FLAG_STRIDE * 4);
    int64_t rel = t0;
    for (int i = 0; i < total; i++) {
      int64_t ti =
          acquire_from(xs, b, t->buf, base + (int64_t)i * FLAG_STRIDE * 4);
      rel = ti > rel ? ti : rel;
    }
    next_epoch(b);
    released_at(b, rel);
  }
  pthread_mutex_unlock(&xs->lock);
  return st;
}

/* ---- IBSet / IBWait
 * ---------------------------------------------------------- The flag of
 * (block_idx, event_id) is the int32 at element blockNum * 8 * eventID +
 * blockIdx * 8 of gm_workspace. IBSet waits until it is 0 and writes 1; IBWait
 * waits until it is 1 and writes 0. The UB workspace receives the flag's
 * 32-byte block, as the devkit's DataCopy. */

typedef struct FlagWait {
  int32_t *flag;
  int32_t want;
} FlagWait;

static int flag_is(void *ctx) {
  FlagWait *w = ctx;
  return *w->flag == w->want;
}

AscStatus sim_ib_flag(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  int set = in->imm == 0;
  const char *what = set ? "asc.ib_set" : "asc.ib_wait";
  AscXSync *xs = xsync_of(x, in, what);
  if (!xs)
    return ASC_ERR_KERNEL;
  int64_t blk = ASC_SLOT(x, in, 2).i, ev = ASC_SLOT(x, in, 3).i;
  if (blk < 0 || blk >= b->block_num)
    return sim_fail(x, in, "%s: block_idx = %lld is not in [0, %d)", what,
                    (long long)blk, b->block_num);
  if (ev < 0 || ev > INT32_MAX)
    return sim_fail(x, in, "%s: event_id = %lld is negative", what,
                    (long long)ev);
  int64_t index = ((int64_t)b->block_num * ev + blk) * FLAG_STRIDE;
  int32_t *flag = flag_words(x, in, 0, index, FLAG_STRIDE, what);
  int32_t *ub = flag ? ub_words(x, in, 1, FLAG_STRIDE, 1) : NULL;
  if (!ub)
    return ASC_ERR_KERNEL;
  int64_t t0 = arrival(b);
  char desc[96];
  snprintf(desc, sizeof desc, "%s(block_idx=%lld, event_id=%lld)", what,
           (long long)blk, (long long)ev);
  pthread_mutex_lock(&xs->lock);
  FlagWait w = {flag, set ? 0 : 1};
  AscStatus st = wait_until(x, in, flag_is, &w, desc);
  if (!st) {
    memcpy(ub, flag, FLAG_STRIDE * 4);
    ub[0] = *flag = set ? 1 : 0;
    const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
    int64_t off = t->addr + index * 4;
    int64_t rel = acquire_from(xs, b, t->buf, off);
    rel = rel > t0 ? rel : t0;
    release_to(xs, b, t->buf, off, rel);
    next_epoch(b);
    released_at(b, rel);
    changed(xs);
  }
  pthread_mutex_unlock(&xs->lock);
  return st;
}

/* ---- NotifyNextBlock / WaitPreBlock
 * ------------------------------------------- The devkit's determine-compute
 * protocol: ub_workspace[blockNum * 8] holds the round (repeatTime, 1 after
 * InitDetermineComputeWorkspace). WaitPreBlock waits until gm[8 * i] is the
 * round for every block i before this one and 0 for the others; NotifyNextBlock
 * writes the round into gm[8 * blockIdx] (the last block clears every word
 * instead) and counts the round up. */

typedef struct OrderWait {
  const int32_t *gm;
  int n, me;
  int32_t round;
} OrderWait;

static int order_ready(void *ctx) {
  OrderWait *w = ctx;
  for (int i = 0; i < w->n; i++)
    if (w->gm[(int64_t)i * FLAG_STRIDE] != (i < w->me ? w->round : 0))
      return 0;
  return 1;
}

AscStatus sim_block_order(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  int wait = in->imm == 1;
  const char *what = wait ? "asc.wait_pre_block" : "asc.notify_next_block";
  AscXSync *xs = xsync_of(x, in, what);
  if (!xs)
    return ASC_ERR_KERNEL;
  int n = b->block_num;
  int64_t words = (int64_t)n * FLAG_STRIDE;
  int32_t *gm = flag_words(x, in, 0, 0, words, what);
  int32_t *ub = gm ? ub_words(x, in, 1, words + FLAG_STRIDE, 1) : NULL;
  if (!ub)
    return ASC_ERR_KERNEL;
  int32_t round = ub[words];
  AscStatus st = ASC_OK;
  int64_t t0 = arrival(b);
  pthread_mutex_lock(&xs->lock);
  if (wait) {
    OrderWait w = {gm, n, b->block_idx, round};
    st = wait_until(x, in, order_ready, &w, what);
    if (!st) {
      memcpy(ub, gm, (size_t)words * 4);
      const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
      int64_t rel = t0;
      for (int i = 0; i < n; i++) { /* any block's notify may have led here */
        int64_t ti =
            acquire_from(xs, b, t->buf, t->addr + (int64_t)i * FLAG_STRIDE * 4);
        rel = ti > rel ? ti : rel;
      }
      next_epoch(b);
      released_at(b, rel);
    }
  } else {
    if (b->block_idx + 1 == n) {
      memset(gm, 0, (size_t)words * 4);
      memset(ub, 0, (size_t)words * 4);
    } else {
      int64_t off = (int64_t)b->block_idx * FLAG_STRIDE;
      for (int k = 0; k < FLAG_STRIDE; k++)
        gm[off + k] = ub[off + k] = round;
    }
    ub[words] = (int32_t)((uint32_t)round + 1u);
    const AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
    release_to(xs, b, t->buf, t->addr + (int64_t)b->block_idx * FLAG_STRIDE * 4,
               t0);
    next_epoch(b);
    released_at(b, t0);
    changed(xs);
  }
  pthread_mutex_unlock(&xs->lock);
  return st;
}

/* ---- family: cores: the machinery, for the cross-core flags (cores.c) ---
 */

void asc_xsync_lock(AscXSync *xs) { pthread_mutex_lock(&xs->lock); }

void asc_xsync_unlock(AscXSync *xs) { pthread_mutex_unlock(&xs->lock); }

int asc_xsync_wait(AscExec *x, const AscInstr *in, int (*cond)(void *ctx),
                   void *ctx, const char *what) {
  return wait_until(x, in, cond, ctx, what);
}

void asc_xsync_changed(AscXSync *xs) { changed(xs); }

int64_t asc_xsync_arrival(AscBlockState *b) { return arrival(b); }

void asc_xsync_release(AscXSync *xs, AscBlockState *b, int32_t buf, int64_t off,
                       int64_t t) {
  release_to(xs, b, buf, off, t);
}

int64_t asc_xsync_acquire(AscXSync *xs, AscBlockState *b, int32_t buf,
                          int64_t off) {
  return acquire_from(xs, b, buf, off);
}

void asc_xsync_next_epoch(AscBlockState *b) { next_epoch(b); }

void asc_xsync_released_at(AscBlockState *b, int64_t t) { released_at(b, t); }
