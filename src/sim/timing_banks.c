/* The timing model's UB banks: how many cycles the repeats of an
 * elementwise vector instruction take at the UB when its operands' blocks
 * collide in banks (docs/timing.md, "UB bank conflicts").
 *
 * Facts (devkit examples/01_simd_cpp_api/05_best_practices/04_memory_access/
 * bank_conflict_ub/README, Atlas A2/A3): the 192 KiB UB has 48 banks of
 * 128 rows of 32 bytes in 16 bank groups of 3; a UB address splits, from
 * bit 17 down, into bank id (2 bits), row (7), bank group (4) and offset
 * in the row (5). A repeat reads 8 blocks of each source and writes 8 of
 * dst at once. Two reads in one bank group, or two writes in one, conflict
 * (they take turns); a read and a write in one bank conflict. The hardware
 * delays a repeat's write by one repeat when dst's blocks lie bank by bank
 * in the banks of a source's blocks, so that write meets the next repeat's
 * reads instead. A block stride 0 reads its one block once.
 *
 * The model: a repeat takes as many cycles as the busiest bank group has
 * reads (or writes), plus ub_rw_conflict_cycles when a read and a write
 * meet in a bank; the vector unit's own rate is a floor (a transcendental
 * repeat is not made faster by conflict-free banks). */
#include "timing_internal.h"

#include <string.h>

enum { BANK_GROUPS = 16, BANKS = 64 /* 2-bit bank id x 16 groups */ };

static int bank_of(int64_t addr) {
  return (int)(((addr >> 5) & 15) | (((addr >> 16) & 3) << 4));
}

/* The blocks operand v touches in repeat r: their banks into out, the
 * count returned; a block read twice counts once. */
static int blocks_of(const AscVecOperand *v, int64_t r, int64_t *addr,
                     int *bank) {
  int n = 0;
  for (int j = 0; j < v->blocks && j < 8; j++) {
    int64_t a = v->addr + (r * v->rep + (int64_t)j * v->blk) * 32;
    int dup = 0;
    for (int k = 0; k < n && !dup; k++)
      dup = addr[k] == a;
    if (dup)
      continue;
    addr[n] = a;
    bank[n] = bank_of(a);
    n++;
  }
  return n;
}

/* Whether the hardware delays the writes: dst's blocks of repeat 0 lie
 * bank by bank in those of some source. */
static int write_delayed(const AscEvent *e, int dst) {
  int64_t da[8], sa[8];
  int db[8], sb[8];
  int nd = blocks_of(&e->vop[dst], 0, da, db);
  for (int i = 0; i < e->n_vops; i++) {
    if (e->vop[i].write)
      continue;
    int ns = blocks_of(&e->vop[i], 0, sa, sb);
    if (ns != nd || nd == 0)
      continue;
    int same = 1;
    for (int j = 0; j < nd && same; j++)
      same = db[j] == sb[j];
    if (same)
      return 1;
  }
  return 0;
}

/* Operand i reads the blocks an earlier operand reads (Add(dst, a, a)):
 * one read serves both. */
static int same_as_earlier(const AscEvent *e, int i) {
  const AscVecOperand *v = &e->vop[i];
  for (int k = 0; k < i; k++) {
    const AscVecOperand *u = &e->vop[k];
    if (u->write == v->write && u->addr == v->addr && u->blk == v->blk &&
        u->rep == v->rep && u->blocks == v->blocks)
      return 1;
  }
  return 0;
}

double timing_ub_cycles(const AscEvent *e, double floor_per_repeat,
                        double rw_conflict) {
  int dst = -1;
  for (int i = 0; i < e->n_vops; i++)
    if (e->vop[i].write)
      dst = i;
  int delayed = dst >= 0 && write_delayed(e, dst);
  double total = 0;
  int64_t a[8];
  int b[8];
  for (int64_t r = 0; r < e->vrepeats; r++) {
    int reads[BANK_GROUPS] = {0}, writes[BANK_GROUPS] = {0};
    unsigned char rbank[BANKS] = {0}, wbank[BANKS] = {0};
    for (int i = 0; i < e->n_vops; i++) {
      const AscVecOperand *v = &e->vop[i];
      int64_t rr = v->write && delayed ? r - 1 : r;
      if (rr < 0 || same_as_earlier(e, i))
        continue;
      int n = blocks_of(v, rr, a, b);
      for (int j = 0; j < n; j++) {
        if (v->write) {
          writes[b[j] & 15]++;
          wbank[b[j]] = 1;
        } else {
          reads[b[j] & 15]++;
          rbank[b[j]] = 1;
        }
      }
    }
    int busiest = 1, rw = 0;
    for (int g = 0; g < BANK_GROUPS; g++) {
      if (reads[g] > busiest)
        busiest = reads[g];
      if (writes[g] > busiest)
        busiest = writes[g];
    }
    for (int k = 0; k < BANKS && !rw; k++)
      rw = rbank[k] && wbank[k];
    double c = busiest + (rw ? rw_conflict : 0);
    total += c > floor_per_repeat ? c : floor_per_repeat;
  }
  return total;
}

double timing_ub_cycles_memo(TimingBankMemo *m, const AscEvent *e,
                             double floor_per_repeat, double rw_conflict) {
  uint64_t h = (uint64_t)e->vrepeats * 31u + (uint64_t)e->n_vops;
  for (int i = 0; i < e->n_vops; i++)
    h = h * 1000003u ^ (uint64_t)e->vop[i].addr ^
        ((uint64_t)(uint32_t)e->vop[i].rep << 20) ^
        ((uint64_t)(uint32_t)e->vop[i].blk << 40);
  int k = (int)((h ^ (h >> 17)) % TIMING_BANK_MEMO);
  size_t n = (size_t)e->n_vops * sizeof e->vop[0];
  if (m->e[k].valid && m->e[k].vrepeats == e->vrepeats &&
      m->e[k].n_vops == e->n_vops && m->e[k].floor == floor_per_repeat &&
      memcmp(m->e[k].vop, e->vop, n) == 0)
    return m->e[k].result;
  double r = timing_ub_cycles(e, floor_per_repeat, rw_conflict);
  memcpy(m->e[k].vop, e->vop, n);
  m->e[k].vrepeats = e->vrepeats;
  m->e[k].n_vops = e->n_vops;
  m->e[k].floor = floor_per_repeat;
  m->e[k].result = r;
  m->e[k].valid = 1;
  return r;
}
