/* The GM side of a copy in the timing model: its bursts, their alignment
 * and the L2 cache (docs/timing.md, "GM, L2 and bursts").
 *
 * Facts (devkit): the L2 is 192 MB, shared by the cores, managed in 512-byte
 * lines (docs/zh/guide/编程指南/高级编程/内存模型/缓存一致性.md; the
 * atomic_add_perf example README); reads of a line in it are served at the
 * L2's bandwidth, 5.2 TB/s on Atlas A2/A3 against about 1.8 TB/s of GM
 * (examples/.../04_memory_access/data_copy/README, scenarios 5 and 6: a
 * working set that stays in the L2 is read from GM once); writes go into the
 * L2 and back to GM when their line is replaced (write back; the
 * asc_copy_l0c2gm page's NORMAL mode); with CACHE_MODE_DISABLE a read goes
 * to GM and leaves the lines as they are, a write goes to GM and drops its
 * line (the DISABLE rows of the same pages). A copy moves blockCount bursts
 * of blockLen (DataCopyParams); the data_copy README advises 512-byte
 * aligned bursts on Atlas A2/A3 and measures misaligned rows about 1.25x
 * (UB) and 2x (L1, 512-byte rows) slower.
 *
 * The model: each block has a share of the L2 (its capacity over the cores
 * in use) of its own, least recently used lines out first, so the estimate
 * stays a function of the block's own instructions (reuse between cores is
 * not seen). A line holds four sectors: a read of a sector the line holds
 * is a hit, of another one a miss that brings the sector in; a write makes
 * its sectors valid and dirty, and a replaced line's dirty sectors go to GM.
 * A burst whose GM address or length is not a multiple of 32 bytes (the
 * DMA's block) moves every L2 line it touches whole; each burst costs
 * dma_burst_cycles on the core's channel. Reads that hit come at
 * core_l2_bpc bytes a cycle on the channel and take the core's share of the
 * L2 bandwidth; misses, write-backs and bypassed accesses take the core's
 * share of the GM bandwidth; writes go through the channel at
 * core_gm_bpc. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "timing_internal.h"

/* A line holds 4 sectors (the atomic_add_perf README: 512-byte lines of
 * four 128-byte sectors); a miss fetches the sectors it needs. */
enum { SECTORS = 4 };

typedef struct TimingL2Line {
  uint64_t key; /* argument and line index */
  int32_t prev, next;
  uint8_t valid, dirty; /* sector bits */
} TimingL2Line;

enum { NIL = -1 };

void timing_l2_init(TimingL2 *l2, int64_t capacity_lines, int line_shift) {
  memset(l2, 0, sizeof *l2);
  l2->capacity = capacity_lines > 0 ? capacity_lines : 0;
  if (l2->capacity > ((int64_t)1 << 30))
    l2->capacity = (int64_t)1 << 30; /* node indices are int32 */
  l2->line_shift = line_shift;
  l2->head = l2->tail = l2->free_list = NIL;
}

void timing_l2_free(TimingL2 *l2) {
  free(l2->node);
  free(l2->slot);
  memset(l2, 0, sizeof *l2);
  l2->head = l2->tail = l2->free_list = NIL;
}

static uint64_t hash_key(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return k;
}

/* The slot of key, or of the empty slot where it would go. */
static int64_t find_slot(const TimingL2 *l2, uint64_t key) {
  int64_t mask = l2->n_slots - 1;
  int64_t i = (int64_t)(hash_key(key) & (uint64_t)mask);
  while (l2->slot[i] != NIL && l2->node[l2->slot[i]].key != key)
    i = (i + 1) & mask;
  return i;
}

static int grow_slots(TimingL2 *l2) {
  int64_t n = l2->n_slots ? l2->n_slots * 2 : 1024;
  int32_t *s = malloc((size_t)n * sizeof *s);
  if (!s)
    return 0;
  for (int64_t i = 0; i < n; i++)
    s[i] = NIL;
  int32_t *old = l2->slot;
  l2->slot = s;
  l2->n_slots = n;
  for (int32_t i = l2->head; i != NIL; i = l2->node[i].next)
    l2->slot[find_slot(l2, l2->node[i].key)] = i;
  free(old);
  return 1;
}

/* Removes the entry at slot i (backward-shift deletion keeps every probe
 * sequence unbroken). */
static void erase_slot(TimingL2 *l2, int64_t i) {
  int64_t mask = l2->n_slots - 1, j = i;
  l2->slot[i] = NIL;
  for (;;) {
    j = (j + 1) & mask;
    if (l2->slot[j] == NIL)
      return;
    int64_t home =
        (int64_t)(hash_key(l2->node[l2->slot[j]].key) & (uint64_t)mask);
    /* j's entry may move to the hole i if its home is not in (i, j] */
    int move = i <= j ? (home <= i || home > j) : (home <= i && home > j);
    if (move) {
      l2->slot[i] = l2->slot[j];
      l2->slot[j] = NIL;
      i = j;
    }
  }
}

static void unlink_node(TimingL2 *l2, int32_t n) {
  TimingL2Line *x = &l2->node[n];
  if (x->prev != NIL)
    l2->node[x->prev].next = x->next;
  else
    l2->head = x->next;
  if (x->next != NIL)
    l2->node[x->next].prev = x->prev;
  else
    l2->tail = x->prev;
}

static void push_front(TimingL2 *l2, int32_t n) {
  TimingL2Line *x = &l2->node[n];
  x->prev = NIL;
  x->next = l2->head;
  if (l2->head != NIL)
    l2->node[l2->head].prev = n;
  l2->head = n;
  if (l2->tail == NIL)
    l2->tail = n;
}

static int popcount4(unsigned v) {
  return (int)((v & 1) + (v >> 1 & 1) + (v >> 2 & 1) + (v >> 3 & 1));
}

/* A node for a new line: a free one, a new one, or the least recently used
 * line's (its dirty sectors written back: *wb their count). Returns NIL
 * when out of memory. */
static int32_t take_node(TimingL2 *l2, int *wb) {
  *wb = 0;
  if (l2->free_list != NIL) {
    int32_t n = l2->free_list;
    l2->free_list = l2->node[n].next;
    return n;
  }
  if (l2->n_nodes < l2->capacity) {
    if (l2->n_nodes == l2->cap_nodes) {
      int64_t cap = l2->cap_nodes ? l2->cap_nodes * 2 : 256;
      if (cap > l2->capacity)
        cap = l2->capacity;
      TimingL2Line *v = realloc(l2->node, (size_t)cap * sizeof *v);
      if (!v)
        return NIL;
      l2->node = v;
      l2->cap_nodes = cap;
    }
    return (int32_t)l2->n_nodes++;
  }
  int32_t n = l2->tail;
  unlink_node(l2, n);
  erase_slot(l2, find_slot(l2, l2->node[n].key));
  *wb = popcount4(l2->node[n].dirty);
  return n;
}

/* Accesses sectors `want` of line `key` (written when `write`): returns the
 * sectors that were valid before (hits); the line becomes the most recently
 * used, the sectors valid (and dirty when written). A new line may replace
 * the least recently used one: its dirty sectors add to *wb_sectors. -1:
 * out of memory. */
static int touch(TimingL2 *l2, uint64_t key, unsigned want, int write,
                 int64_t *wb_sectors) {
  if (!l2->capacity)
    return 0;
  if (!l2->n_slots && !grow_slots(l2))
    return -1;
  int64_t i = find_slot(l2, key);
  if (l2->slot[i] != NIL) {
    int32_t n = l2->slot[i];
    unlink_node(l2, n);
    push_front(l2, n);
    int had = l2->node[n].valid & (int)want;
    l2->node[n].valid |= (uint8_t)want;
    if (write)
      l2->node[n].dirty |= (uint8_t)want;
    return had;
  }
  int wb;
  int32_t n = take_node(l2, &wb);
  if (n == NIL)
    return -1;
  *wb_sectors += wb;
  l2->node[n].key = key;
  l2->node[n].valid = (uint8_t)want;
  l2->node[n].dirty = write ? (uint8_t)want : 0;
  push_front(l2, n);
  /* keep the table at most half full */
  if ((l2->n_nodes + 1) * 2 > l2->n_slots) {
    if (!grow_slots(l2))
      return -1;
  } else {
    l2->slot[find_slot(l2, key)] = n;
  }
  return 0;
}

/* A bypassing write: the line, if present, is written back and dropped. */
static void drop(TimingL2 *l2, uint64_t key) {
  if (!l2->capacity || !l2->n_slots)
    return;
  int64_t i = find_slot(l2, key);
  if (l2->slot[i] == NIL)
    return;
  int32_t n = l2->slot[i];
  unlink_node(l2, n);
  erase_slot(l2, i);
  l2->node[n].next = l2->free_list;
  l2->free_list = n;
}

/* One burst: bytes [s, s + len) of argument buf. */
static int burst(TimingL2 *l2, const AscTimingParams *p, int read, int bypass,
                 int32_t buf, int64_t s, int64_t len, TimingDma *d) {
  if (len <= 0)
    return 1;
  int64_t line = (int64_t)1 << l2->line_shift;
  int64_t first = s >> l2->line_shift, last = (s + len - 1) >> l2->line_shift;
  /* misaligned: the whole lines it touches move */
  double scale = 1;
  if (s % 32 || len % 32)
    scale = (double)((last - first + 1) * line) / (double)len;
  double hbm = 0, hit = 0;
  int64_t wb = 0, sector = line / SECTORS;
  for (int64_t k = first; k <= last; k++) {
    int64_t lo = k * line > s ? k * line : s;
    int64_t hi = (k + 1) * line < s + len ? (k + 1) * line : s + len;
    uint64_t key = ((uint64_t)(uint32_t)buf << 44) ^ (uint64_t)k;
    if (bypass) {
      hbm += (double)(hi - lo);
      if (!read)
        drop(l2, key);
      continue;
    }
    unsigned want = 0;
    for (int q = 0; q < SECTORS; q++)
      if (k * line + (q + 1) * sector > lo && k * line + q * sector < hi)
        want |= 1u << q;
    int had = touch(l2, key, want, !read, &wb);
    if (had < 0)
      return 0;
    if (!read) {
      hit += (double)(hi - lo);
      continue;
    }
    /* the bytes of each sector: from the L2 if it held the sector */
    for (int q = 0; q < SECTORS; q++) {
      int64_t a = k * line + q * sector, b = a + sector;
      a = a > lo ? a : lo;
      b = b < hi ? b : hi;
      if (b > a)
        *(had >> q & 1 ? &hit : &hbm) += (double)(b - a);
    }
  }
  hbm *= scale;
  hit *= scale;
  d->hbm_bytes += hbm + (double)(wb * sector);
  d->l2_bytes += hit;
  d->chan_cycles += p->dma_burst_cycles;
  if (read) {
    /* a short burst from the L2 takes longer than its bytes at the L2's
     * rate ([MMHP] Cases 0 and 1: rows of 128 bytes) */
    double t = hbm / p->core_gm_bpc + hit / p->core_l2_bpc;
    d->chan_cycles += t > p->dma_burst_min_cycles ? t : p->dma_burst_min_cycles;
  } else
    d->chan_cycles += (hbm + hit) / p->core_gm_bpc;
  return 1;
}

int timing_dma_cost(TimingL2 *l2, const AscEvent *e, int read,
                    const AscTimingParams *p, TimingDma *out) {
  memset(out, 0, sizeof *out);
  int n_gm = 0;
  for (int i = 0; i < e->n_acc; i++)
    n_gm += e->acc[i].space == ASC_SPACE_GM;
  if (!n_gm) {
    /* a copy between local memories on a DMA pipe (a Fixpipe into the UB,
     * a load from L1): its bytes through the channel, no GM traffic */
    int64_t nb = e->bursts > 1 ? e->bursts : 1;
    out->chan_cycles =
        (double)nb * p->dma_burst_cycles + (double)e->bytes / p->core_gm_bpc;
    return 1;
  }
  for (int i = 0; i < e->n_acc; i++) {
    const AscAccess *a = &e->acc[i];
    if (a->space != ASC_SPACE_GM || a->hi <= a->lo)
      continue;
    if (a->rows > 0 && a->row_len > 0) {
      /* the runs, clipped to the part inside the argument */
      for (int64_t k = 0; k < a->rows; k++) {
        int64_t s, t;
        if (asc_scaled_add(a->row0, k, a->row_step, &s) ||
            asc_add_i64(s, a->row_len, &t))
          break; /* past any argument: nothing more inside */
        s = s < a->lo ? a->lo : s;
        t = t > a->hi ? a->hi : t;
        if (t > s && !burst(l2, p, read, a->l2_bypass, a->buf, s, t - s, out))
          return 0;
      }
      continue;
    }
    /* a contiguous range: blockCount bursts of (nearly) equal length */
    int64_t size = a->hi - a->lo;
    int64_t nb = n_gm == 1 && e->bursts > 1 ? e->bursts : 1;
    if (nb > size)
      nb = size;
    int64_t base = size / nb, rem = size % nb, s = a->lo;
    for (int64_t k = 0; k < nb; k++) {
      int64_t len = base + (k < rem);
      if (!burst(l2, p, read, a->l2_bypass, a->buf, s, len, out))
        return 0;
      s += len;
    }
  }
  return 1;
}
