/* The host threads that run a launch's blocks, kept between launches.
 *
 * Creating and joining threads costs tens of microseconds, more than a
 * small kernel's blocks take to run; so a launch borrows helper threads
 * from one pool for the process instead. A launch is a job of n_slots
 * slots: the launching thread runs slot 0 itself, helpers run slots 1 and
 * up (what a slot does is the caller's run function). The pool is created
 * at the first launch that asks for helpers and holds about as many
 * threads as the latest launch's worker setting asks for; it is safe to
 * use from several threads at once, survives fork (the child starts with
 * no helpers) and ends its idle threads at exit. */
#ifndef ASC_SIM_POOL_H
#define ASC_SIM_POOL_H

#include <stdatomic.h>

typedef struct AscPoolJob {
  void (*run)(void *ctx, int slot); /* runs one slot on a helper thread */
  /* 1 while another helper could still help (for a launch: blocks are
   * left); NULL: always. Called with the pool's lock held: keep it cheap. */
  int (*wanted)(void *ctx);
  void *ctx;
  int n_slots;
  /* 1: every slot needs its own thread at once (blocks that wait for each
   * other): all are handed out at the start, with threads made beyond the
   * pool's size if need be. 0: helpers join while the job runs, each one
   * that starts waking the next ones (so the launching thread pays for one
   * wake-up, and a job that is over before a helper wakes does not wait
   * for it); a slot no helper has started by asc_pool_finish never runs. */
  int all_at_once;
  /* the pool's, under its lock (active is read without it while the
   * launching thread waits) */
  int next_slot, open;
  atomic_int active;
  struct AscPoolJob *next_open;
} AscPoolJob;

/* Starts handing out slots 1, 2, ... of the job to helper threads (idle
 * ones first, new ones while the pool holds fewer than keep - 1 helpers:
 * the launching thread is the keep-th), and resizes the pool to keep - 1
 * helpers. For an all_at_once job, returns the first slot no thread could
 * be had for: the caller runs the slots from there itself. Otherwise
 * returns n_slots. */
int asc_pool_start(AscPoolJob *job, int keep);

/* Closes the job to helpers, takes back the slots given to helpers that
 * have not started them (not for all_at_once jobs), and returns once every
 * helper that started one has returned from run. Meanwhile, when poll is
 * not NULL, calls poll(poll_ctx) about every poll_ms milliseconds on this
 * thread (without the pool's lock held). */
void asc_pool_finish(AscPoolJob *job, void (*poll)(void *), void *poll_ctx,
                     int poll_ms);

/* Ends the idle helpers and waits for them (helpers busy with a launch go
 * on with it). Registered with atexit when the pool is first used, so that
 * a process exits with no helper of its own left running; a later launch
 * makes new helpers as needed. */
void asc_pool_shutdown(void);

/* Helper threads alive now (idle or busy), for tests. */
int asc_pool_threads(void);

#endif
