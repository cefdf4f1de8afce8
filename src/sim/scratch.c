/* The scratch pool (scratch.h). One pool for the process, not one per
 * kernel: a process with many compiled kernels (thousands of
 * specialisations) would otherwise keep a UB per kernel for as long as the
 * kernel lives. The pool holds at most MAX_KEPT entries, about the number
 * of worker threads that run at once. */
#include <pthread.h>
#include <stdlib.h>

#include "scratch.h"

enum { MAX_KEPT = 64 };

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static AscScratch *pool;
static int n_pooled;

/* fork: a launch on another thread may hold the lock at that moment; held
 * across the fork, it is free in the child, whose pool stays valid (its
 * entries are plain memory). */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void fork_prepare(void) { pthread_mutex_lock(&pool_lock); }
static void fork_done(void) { pthread_mutex_unlock(&pool_lock); }
static void register_fork(void) {
  pthread_atfork(fork_prepare, fork_done, fork_done);
}

static void scratch_free(AscScratch *s) {
  if (!s)
    return;
  free(s->ub);
  free(s->stack);
  free(s);
}

AscScratch *asc_scratch_take(int64_t ub_size, int64_t slots) {
  pthread_once(&fork_once, register_fork);
  pthread_mutex_lock(&pool_lock);
  /* one of this UB size if there is one (platforms differ in UB size) */
  AscScratch **pick = &pool;
  for (AscScratch **q = &pool; *q; q = &(*q)->next)
    if ((*q)->ub_size == ub_size) {
      pick = q;
      break;
    }
  AscScratch *s = *pick;
  if (s) {
    *pick = s->next;
    n_pooled--;
  }
  pthread_mutex_unlock(&pool_lock);
  if (!s && !(s = calloc(1, sizeof *s)))
    return NULL;
  s->next = NULL;
  if (s->ub_size != ub_size) {
    free(s->ub);
    s->ub = calloc(1, (size_t)ub_size);
    s->ub_size = s->ub ? ub_size : 0;
    s->dirty = 0;
  }
  if (s->stack_size < slots) {
    free(s->stack);
    s->stack = malloc(sizeof(AscSlot) * (size_t)(slots > 0 ? slots : 1));
    s->stack_size = s->stack ? slots : 0;
  }
  if (!s->ub || (slots > 0 && !s->stack)) {
    scratch_free(s);
    return NULL;
  }
  return s;
}

void asc_scratch_give(AscScratch *s) {
  if (!s)
    return;
  pthread_mutex_lock(&pool_lock);
  if (n_pooled < MAX_KEPT) {
    s->next = pool;
    pool = s;
    n_pooled++;
    s = NULL;
  }
  pthread_mutex_unlock(&pool_lock);
  scratch_free(s); /* the pool is full */
}
