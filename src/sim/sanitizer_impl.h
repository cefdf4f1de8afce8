/* What the files of the sanitizer share: sanitizer.c (happens-before and
 * shadow memory within a core, the observer, the sanitizer object),
 * sanitizer_gm.c (the records of GM accesses, overruns, races between
 * blocks) and sanitizer_dcache.c (the scalar unit's data cache). Private to
 * them. */
#ifndef ASC_SIM_SANITIZER_IMPL_H
#define ASC_SIM_SANITIZER_IMPL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sanitizer.h"
#include "sim.h"

/* The shadow state of the block a worker runs (sanitizer.c). */
typedef struct Shadow Shadow;

/* The data cache of the block a worker runs: the GM lines its scalar unit
 * holds (sanitizer_dcache.c). */
typedef struct DCache DCache;

typedef struct GmRec {
  int64_t lo, hi;
  const AscInstr *in;
  int32_t buf, block;
  uint8_t write;
  uint8_t atomic;   /* a store-atomic write (datamove family) */
  uint8_t scalar;   /* the scalar unit's, through the data cache */
  uint8_t bounding; /* [lo, hi) bounds bytes not all touched (events.h) */
  AscPipe pipe;
  /* system family: the block's sync epoch at the access and the index of
   * its vector-clock snapshot in its GmList (-1: no cross-block sync) */
  int32_t epoch, snap;
  int32_t rows; /* > 0: strided, as AscAccess.rows (datamove family) */
  int64_t row0, row_len, row_step;
} GmRec;

/* A GM line a block's scalar writes made dirty in its data cache, from
 * the write that made it dirty to its write-back (sanitizer_dcache.c). */
typedef struct DcSpan {
  int64_t line;         /* byte offset / 64 in its argument */
  uint64_t mask;        /* the bytes written (bit i: byte line * 64 + i) */
  const AscInstr *w_in; /* the latest scalar write */
  const AscInstr *c_in; /* the DataCacheCleanAndInvalid; NULL: the kernel's
                           end (or an eviction: at any time) */
  int32_t buf, block;
  /* system family: the epochs and snapshots (GmList.snaps) of the latest
   * write, of the access that brought the line in, of the write-back */
  int32_t w_epoch, w_snap, f_snap, c_epoch;
} DcSpan;

/* Scalar reads of one line from one cached copy of it: the reader sees the
 * GM bytes as they were when the copy was loaded (sanitizer_dcache.c). */
typedef struct DcRead {
  int64_t line;
  uint64_t mask;
  const AscInstr *in;
  int32_t buf, block;
  int32_t snap, f_snap; /* of the reads and of the load */
} DcRead;

typedef struct GmList {
  GmRec *v;
  int n, cap;
  int oom;
  /* the data cache's records for the checks between blocks */
  DcSpan *spans;
  DcRead *reads;
  int n_spans, cap_spans, n_reads, cap_reads;
  int dc_oom;
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
  /* the lists gm points into, kept with their buffers for the next launch
   * of a cached sanitizer (sanitizer.c) */
  GmList *gm_buf;
  int gm_cap;
  int gm_cores; /* the core_num their snapshots are sized for */
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

/* A launch starts: s->gm for s->core_num blocks, empty (the buffers of an
 * earlier launch kept); 0 out of memory. */
int san_gm_begin(AscSanitizer *s);
/* The launch ended: buffers beyond what a small launch needs are freed,
 * so that a kept sanitizer holds little memory. */
void san_gm_trim(AscSanitizer *s);
/* Frees every GM list. */
void san_gm_free(AscSanitizer *s);
/* Records block b's GM access a (of event e) for the races between blocks. */
void san_gm_record(AscSanitizer *s, const AscBlockState *b, const AscEvent *e,
                   const AscAccess *a);
/* Reports e's GM access outside its kernel argument (events.h: has_ov). */
AscStatus san_report_overrun(AscSanitizer *s, AscBlockState *b,
                             const AscEvent *e);
/* Reports every pair of blocks that race on GM, at the end of a launch. */
void san_core_races(AscSanitizer *s);
/* system family: the index of block b's snapshot of its vector clock at
 * its current epoch in its GmList, made when needed; -1 without cross-block
 * sync (or out of memory: GmList.oom). */
int32_t san_gm_snap(AscSanitizer *s, const AscBlockState *b);
/* system family: does an access of block xb at its epoch x_epoch happen
 * before one of block yb whose snapshot is y_snap (-1: none)? */
int san_gm_before(const AscSanitizer *s, int xb, int32_t x_epoch, int yb,
                  int32_t y_snap);

/* ---- sanitizer_dcache.c: the scalar unit's data cache -------------------- */

void san_dc_free(DCache *dc);
/* Back to an empty cache (a block starts). */
void san_dc_reset(DCache *dc);
/* Event e of block b: its scalar GM accesses, its pipes' GM accesses and
 * its cache operations against the block's cache *pdc (made on first use);
 * reports what reads or loses stale data. seq orders the reports. */
AscStatus san_dc_event(AscSanitizer *s, DCache **pdc, AscBlockState *b,
                       const AscEvent *e, uint32_t seq);
/* The block ends: the lines still dirty are written back after it. */
void san_dc_block_end(AscSanitizer *s, DCache *dc, const AscBlockState *b);
/* The data cache's findings between blocks, at the end of a launch. */
void san_dc_races(AscSanitizer *s);

#endif
