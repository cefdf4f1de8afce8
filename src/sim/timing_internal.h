/* The parts of the timing model (timing.c: pipes and dependencies;
 * timing_gm.c: the GM side of a copy, its L2 and bursts; timing_banks.c:
 * UB bank conflicts of vector instructions). Private to src/sim. */
#ifndef ASC_SIM_TIMING_INTERNAL_H
#define ASC_SIM_TIMING_INTERNAL_H

#include <stdint.h>

#include "events.h"
#include "timing.h"

/* ---- timing_banks.c ---------------------------------------------------- */

/* The cycles the repeats of elementwise vector instruction e (e->vrepeats
 * repeats, e->n_vops operands) take at the UB: per repeat the accesses of
 * its busiest bank group, plus rw_conflict when a read and a write meet in
 * one bank, at least floor_per_repeat (the unit's own rate). */
double timing_ub_cycles(const AscEvent *e, double floor_per_repeat,
                        double rw_conflict);

/* The same through a small cache of recent answers (a loop issues the
 * same few geometries again and again). */
enum { TIMING_BANK_MEMO = 16 };
typedef struct TimingBankMemo {
  struct {
    AscVecOperand vop[ASC_EVENT_MAX_VOPS];
    int64_t vrepeats;
    int n_vops, valid;
    double floor, result;
  } e[TIMING_BANK_MEMO];
} TimingBankMemo;
double timing_ub_cycles_memo(TimingBankMemo *m, const AscEvent *e,
                             double floor_per_repeat, double rw_conflict);

/* ---- timing_gm.c ------------------------------------------------------- */

/* One block's share of the L2: the lines its copies touched, least recently
 * used first out, with a dirty bit (write-back). */
typedef struct TimingL2 {
  int64_t capacity; /* lines */
  int line_shift;   /* log2 of the line size */
  /* lines: a doubly linked LRU list over `node`, found through `slot`
   * (open addressing, linear probing; -1 empty) */
  struct TimingL2Line *node;
  int64_t n_nodes, cap_nodes;
  int32_t head, tail, free_list;
  int32_t *slot;
  int64_t n_slots;
} TimingL2;

/* What a DMA instruction's GM side costs. */
typedef struct TimingDma {
  double hbm_bytes;   /* moved to or from HBM: misses, write-backs, bypass */
  double l2_bytes;    /* served by the L2: hits and writes into it */
  double chan_cycles; /* the core's own channel: bursts and bytes */
} TimingDma;

/* capacity_lines 0: no L2 (every access goes to HBM). */
void timing_l2_init(TimingL2 *l2, int64_t capacity_lines, int line_shift);
void timing_l2_free(TimingL2 *l2);

/* The cost of the GM side of copy e (read: GM -> local; else local -> GM),
 * updating the L2. Returns 0 when out of memory. */
int timing_dma_cost(TimingL2 *l2, const AscEvent *e, int read,
                    const AscTimingParams *p, TimingDma *out);

#endif
