/* The pool of helper threads (pool.h).
 *
 * Each helper has a record with its own condition variable: a slot is
 * handed to one idle helper, which alone is woken. An open job (one whose
 * slots helpers may still join) is on the open list; a helper that starts
 * a slot of it wakes up to RECRUIT more idle helpers for it while it is
 * wanted, and a helper that finishes a slot joins the oldest open job
 * still wanted before it goes idle. So concurrent launches share the pool,
 * and each always progresses on its own launching thread: none waits for
 * another. A helper given a slot it has not started yet can be taken back
 * (asc_pool_finish): a launch whose blocks are all done never waits for a
 * helper that has not been scheduled yet. A helper that ends (the pool
 * shrinks, or the process exits) puts its record on the `ended` list,
 * where the next asc_pool_start or asc_pool_shutdown joins and frees it. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "pool.h"

/* helpers recruited by each helper that starts a slot of an open job: the
 * wake-ups spread as a tree, not all on the launching thread */
enum { RECRUIT = 2 };
/* how long a launch waits awake for its helpers' last blocks */
enum { SPIN_NS = 20000 };
/* How long an idle helper stays awake for the next launch, at most:
 * launches in a loop then find their helpers running. Adaptive, so that
 * a process whose launches are far apart does not keep a core busy: a
 * helper whose wait ran out halves its next one, and one that got a slot
 * within IDLE_SPIN_NS of going idle stays awake that long again. It yields
 * the core meanwhile, to whatever else is runnable. */
enum { IDLE_SPIN_NS = 100000 };

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

typedef enum { H_NONE, H_IDLE, H_ASSIGNED, H_RUNNING } HelperState;

typedef struct Helper {
  pthread_t thread;
  pthread_cond_t wake;
  atomic_int state; /* a HelperState; read without the lock while it spins */
  int spinning;     /* idle and awake: a slot given it needs no wake-up */
  int64_t spin_ns;  /* how long it stays awake when it goes idle */
  AscPoolJob *job;  /* H_ASSIGNED, H_RUNNING: the job of its slot */
  int slot;
  int quit;                /* asked to end */
  struct Helper *next;     /* in the idle list or the ended list */
  struct Helper *all_next; /* every helper alive */
} Helper;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done; /* a job's last helper returned, or one ended */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int usable; /* done exists and the fork handlers are registered */
static Helper *idle, *all, *ended;
static AscPoolJob *open_jobs; /* oldest first */
static int n_threads;         /* helpers alive (quitting ones included) */
static int n_quitting;        /* asked to end, not ended yet */
static int keep_helpers;      /* the pool's size: the latest launch's */

/* `done` waits on the monotonic clock (the wait polls Ctrl-C by time). */
static int init_done(void) {
  pthread_condattr_t a;
  if (pthread_condattr_init(&a) != 0)
    return -1;
  int ok = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0 &&
           pthread_cond_init(&done, &a) == 0;
  pthread_condattr_destroy(&a);
  return ok ? 0 : -1;
}

/* fork: the child has only the forking thread, so none of the helpers the
 * records describe exists there. Holding the lock across fork keeps the
 * lists consistent; the child starts with an empty pool (its first
 * multi-block launch makes new helpers). */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void) {
  for (Helper *h = all; h;) {
    Helper *n = h->all_next;
    free(h);
    h = n;
  }
  for (Helper *h = ended; h;) {
    Helper *n = h->next;
    free(h);
    h = n;
  }
  idle = all = ended = NULL;
  open_jobs = NULL;
  n_threads = n_quitting = 0;
  pthread_mutex_init(&lock, NULL);
  if (init_done() != 0)
    usable = 0;
}

static void pool_init(void) {
  if (init_done() != 0)
    return;
  if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0) {
    pthread_cond_destroy(&done);
    return;
  }
  atexit(asc_pool_shutdown); /* if it cannot be registered, exit kills them */
  usable = 1;
}

/* ---- under the lock ---------------------------------------------------- */

static void close_job(AscPoolJob *j) {
  if (!j->open)
    return;
  for (AscPoolJob **p = &open_jobs; *p; p = &(*p)->next_open)
    if (*p == j) {
      *p = j->next_open;
      break;
    }
  j->open = 0;
}

static void assign(AscPoolJob *j, Helper *h) {
  h->job = j;
  h->slot = j->next_slot++;
  h->state = H_ASSIGNED;
  j->active++;
  if (j->next_slot >= j->n_slots)
    close_job(j);
}

static int wanted(const AscPoolJob *j) {
  return j->open && (!j->wanted || j->wanted(j->ctx));
}

static void *helper_main(void *arg);

/* A new helper with no slot yet (it waits for the lock before it looks at
 * its record, so the caller may still assign it one). */
static Helper *spawn(void) {
  Helper *h = calloc(1, sizeof *h);
  if (!h)
    return NULL;
  if (pthread_cond_init(&h->wake, NULL) != 0) {
    free(h);
    return NULL;
  }
  h->spin_ns = IDLE_SPIN_NS; /* made for a launch: more may follow */
  /* helpers take no asynchronous signals: those go to the application's
   * threads (Ctrl-C to Python's), as if the pool were not there */
  sigset_t block, old;
  sigfillset(&block);
  const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
  for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
    sigdelset(&block, faults[i]);
  pthread_sigmask(SIG_SETMASK, &block, &old);
  int err = pthread_create(&h->thread, NULL, helper_main, h);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err != 0) {
    pthread_cond_destroy(&h->wake);
    free(h);
    return NULL;
  }
  h->all_next = all;
  all = h;
  n_threads++;
  return h;
}

static Helper *pop_idle(void) {
  Helper *h = idle;
  idle = h->next;
  h->next = NULL;
  return h;
}

/* Gives j's next slot to an idle helper, or to a new one while the pool is
 * below its size (or, force, in any case); 0 when there was none. */
static int recruit_one(AscPoolJob *j, int force) {
  Helper *h;
  if (idle) {
    h = pop_idle();
    assign(j, h);
    if (!h->spinning)
      pthread_cond_signal(&h->wake);
    return 1;
  }
  if (!force && n_threads - n_quitting >= keep_helpers)
    return 0;
  if (!(h = spawn()))
    return 0;
  assign(j, h);
  return 1;
}

/* ---- helpers ----------------------------------------------------------- */

static void *helper_main(void *arg) {
  Helper *h = arg;
  pthread_mutex_lock(&lock);
  for (;;) {
    if (h->job) {
      AscPoolJob *j = h->job;
      int slot = h->slot;
      h->state = H_RUNNING;
      for (int i = 0; i < RECRUIT && wanted(j); i++)
        if (!recruit_one(j, 0))
          break;
      pthread_mutex_unlock(&lock);
      j->run(j->ctx, slot);
      pthread_mutex_lock(&lock);
      h->job = NULL;
      h->state = H_NONE;
      if (--j->active == 0)
        pthread_cond_broadcast(&done);
      for (AscPoolJob *o = open_jobs; o; o = o->next_open)
        if (wanted(o)) {
          assign(o, h);
          break;
        }
      continue;
    }
    /* a helper made beyond the pool's size ends after its slot */
    if (h->quit || n_threads - n_quitting > keep_helpers)
      break;
    h->state = H_IDLE;
    h->next = idle;
    idle = h;
    int64_t t0 = now_ns();
    if (h->spin_ns > 0) {
      h->spinning = 1;
      pthread_mutex_unlock(&lock);
      while (atomic_load(&h->state) == H_IDLE && now_ns() - t0 < h->spin_ns)
        sched_yield();
      pthread_mutex_lock(&lock);
      h->spinning = 0;
      if (h->state == H_IDLE) /* in vain */
        h->spin_ns = h->spin_ns / 2 < 1000 ? 0 : h->spin_ns / 2;
    }
    while (h->state == H_IDLE) /* who changes it unlinks h first */
      pthread_cond_wait(&h->wake, &lock);
    if (h->job && now_ns() - t0 < IDLE_SPIN_NS)
      h->spin_ns = IDLE_SPIN_NS; /* launches come that often */
  }
  for (Helper **p = &all; *p; p = &(*p)->all_next)
    if (*p == h) {
      *p = h->all_next;
      break;
    }
  n_threads--;
  if (h->quit)
    n_quitting--;
  h->next = ended;
  ended = h;
  pthread_cond_broadcast(&done);
  pthread_mutex_unlock(&lock);
  return NULL;
}

/* Joins and frees ended helpers (lock not held: they may still be on
 * their way out of helper_main). */
static void reap(Helper *h) {
  while (h) {
    Helper *n = h->next;
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->wake);
    free(h);
    h = n;
  }
}

/* Idle helpers beyond the pool's size end now, and so do those between two
 * slots (one whose slot was taken back before it started goes idle when it
 * wakes); busy ones end when they are done with their slot. Lock held. */
static void shrink(int to) {
  while (idle && n_threads - n_quitting > to) {
    Helper *h = pop_idle();
    h->quit = 1;
    h->state = H_NONE;
    n_quitting++;
    pthread_cond_signal(&h->wake);
  }
  for (Helper *h = all; h && n_threads - n_quitting > to; h = h->all_next)
    if (h->state == H_NONE && !h->quit) {
      h->quit = 1;
      n_quitting++;
    }
}

/* ---- launches ---------------------------------------------------------- */

int asc_pool_start(AscPoolJob *job, int keep) {
  job->next_slot = 1;
  atomic_init(&job->active, 0);
  job->open = 0;
  job->next_open = NULL;
  if (job->n_slots <= 1)
    return job->n_slots;
  pthread_once(&once, pool_init);
  if (!usable)
    return job->all_at_once ? 1 : job->n_slots;
  pthread_mutex_lock(&lock);
  keep_helpers = keep > 1 ? keep - 1 : 0;
  if (job->all_at_once) {
    while (job->next_slot < job->n_slots && recruit_one(job, 1))
      ;
  } else {
    job->open = 1;
    AscPoolJob **p = &open_jobs;
    while (*p)
      p = &(*p)->next_open;
    *p = job;
    recruit_one(job, 0); /* the helpers it starts recruit more */
  }
  shrink(keep_helpers);
  int first_free = job->all_at_once ? job->next_slot : job->n_slots;
  Helper *gone = ended;
  ended = NULL;
  pthread_mutex_unlock(&lock);
  reap(gone);
  return first_free;
}

void asc_pool_finish(AscPoolJob *job, void (*poll)(void *), void *poll_ctx,
                     int poll_ms) {
  if (job->n_slots <= 1)
    return;
  pthread_mutex_lock(&lock);
  close_job(job);
  if (!job->all_at_once)
    for (Helper *h = all; h && job->active > 0; h = h->all_next)
      if (h->state == H_ASSIGNED && h->job == job) {
        /* not started: it wakes to find no slot and goes idle again */
        h->job = NULL;
        h->state = H_NONE;
        job->active--;
      }
  if (job->active > 0) {
    /* what is left is usually a block or two: wait for it awake before
     * sleeping, since a sleep and a wake-up cost more than a tiny kernel */
    pthread_mutex_unlock(&lock);
    for (int64_t t0 = now_ns();
         atomic_load(&job->active) > 0 && now_ns() - t0 < SPIN_NS;)
      cpu_relax();
    pthread_mutex_lock(&lock);
  }
  while (job->active > 0) {
    if (!poll) {
      pthread_cond_wait(&done, &lock);
      continue;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)poll_ms * 1000000;
    ts.tv_sec += ts.tv_nsec / 1000000000;
    ts.tv_nsec %= 1000000000;
    pthread_cond_timedwait(&done, &lock, &ts);
    if (job->active > 0) {
      pthread_mutex_unlock(&lock); /* the callback may take a while */
      poll(poll_ctx);
      pthread_mutex_lock(&lock);
    }
  }
  pthread_mutex_unlock(&lock);
}

void asc_pool_shutdown(void) {
  pthread_once(&once, pool_init);
  if (!usable)
    return;
  pthread_mutex_lock(&lock);
  shrink(0);
  while (n_quitting > 0) /* none of them was busy: they end at once */
    pthread_cond_wait(&done, &lock);
  Helper *gone = ended;
  ended = NULL;
  pthread_mutex_unlock(&lock);
  reap(gone);
}

int asc_pool_threads(void) {
  pthread_mutex_lock(&lock);
  int n = n_threads - n_quitting;
  pthread_mutex_unlock(&lock);
  return n;
}
