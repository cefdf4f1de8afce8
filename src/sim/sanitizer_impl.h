/* What the two files of the sanitizer share: sanitizer.c (happens-before
 * and shadow memory within a core, the observer, the sanitizer object) and
 * sanitizer_gm.c (the records of GM accesses, overruns, races between
 * blocks). Private to them. */
#ifndef ASC_SIM_SANITIZER_IMPL_H
#define ASC_SIM_SANITIZER_IMPL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sanitizer.h"
#include "sim.h"

/* The shadow state of the block a worker runs (sanitizer.c). */
typedef struct Shadow Shadow;

typedef struct GmRec {
  int64_t lo, hi;
  const AscInstr *in;
  int32_t buf, block;
  uint8_t write;
  uint8_t atomic; /* a store-atomic write (datamove family) */
  AscPipe pipe;
  /* system family: the block's sync epoch at the access and the index of
   * its vector-clock snapshot in its GmList (-1: no cross-block sync) */
  int32_t epoch, snap;
  int32_t rows; /* > 0: strided, as AscAccess.rows (datamove family) */
  int64_t row0, row_len, row_step;
} GmRec;

typedef struct GmList {
  GmRec *v;
  int n, cap;
  int oom;
  /* system family: vector clocks (core_num each) at the epochs of the
   * block's GM accesses */
  int32_t *snaps;
  int n_snaps, cap_snaps;
  int32_t last_epoch;
} GmList;

typedef struct Rep {
  AscSanReport r;
  const void *k1, *k2; /* dedupe key: the two instructions */
  uint32_t seq;        /* position in the block, for the order of reports */
} Rep;

struct AscSanitizer {
  AscSanMode mode;
  int flags;
  int core_num;
  uint64_t id;
  AscObserver obs;
  pthread_mutex_t lock;
  Shadow *in_use;
  GmList *gm; /* per block; NULL for one block */
  Rep *reps;
  int n_reps, cap_reps;
  int dropped;
  int err_index;
};

#if defined(__GNUC__)
#define ASC_SAN_FMT(a, b) __attribute__((format(printf, a, b)))
#else
#define ASC_SAN_FMT(a, b)
#endif

/* ---- sanitizer.c: reports and names -------------------------------------- */

/* Starts report r of kind at instruction in on pipe (b NULL: no block). */
Rep *san_rep_new(Rep *r, AscSanKind kind, const AscBlockState *b,
                 const AscInstr *in, int pipe);
/* Sets the second instruction of a report on two. */
void san_rep_other(Rep *r, const AscInstr *in, int pipe);
/* Sets the report's message, printf-style. */
void san_msg(Rep *r, const char *fmt, ...) ASC_SAN_FMT(2, 3);
/* Sets the report's fix, printf-style. */
void san_fix(Rep *r, const char *fmt, ...) ASC_SAN_FMT(2, 3);
/* Keeps a report under the lock; in warn mode one per instruction pair. */
void san_keep(AscSanitizer *s, const Rep *r);
/* Keeps the report; in error mode a non-warning fails block b with it. */
AscStatus san_emit(AscSanitizer *s, AscBlockState *b, Rep *r);
/* The Python API an instruction stands for, e.g. "asc.data_copy". */
const char *san_api_of(const AscInstr *in, char *buf, size_t n);
/* A source location as "add.py:41". */
const char *san_where(AscLoc l, char *buf, size_t n);

/* ---- sanitizer_gm.c: global memory --------------------------------------- */

/* Records block b's GM access a (of event e) for the races between blocks. */
void san_gm_record(AscSanitizer *s, const AscBlockState *b, const AscEvent *e,
                   const AscAccess *a);
/* Reports e's GM access outside its kernel argument (events.h: has_ov). */
AscStatus san_report_overrun(AscSanitizer *s, AscBlockState *b,
                             const AscEvent *e);
/* Reports every pair of blocks that race on GM, at the end of a launch. */
void san_core_races(AscSanitizer *s);

#endif
