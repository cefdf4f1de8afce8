/* The sanitizer's shadow maps (sanitizer.c): what each 32-byte block, or
 * each byte, of a core's local memory last saw, held per range.
 *
 * A vector instruction or DMA copy touches one contiguous range of
 * hundreds to thousands of blocks, and a kernel touches a handful of
 * buffers, so a map is kept as its runs: a sorted array of disjoint
 * ranges, each with its value, the blocks between them 0 and equal
 * neighbours merged. Reading or setting a range then costs a binary search
 * and the runs it meets, whatever the range's length; a block's reset
 * empties the array. Only a kernel whose accesses cut the memory into many
 * small pieces (the scalar unit writing every other element, thousands of
 * tiny copies) makes more than SAN_MAP_RUNS runs; the map then turns dense
 * (one entry per block, or one bit per byte for SanSet) until the next
 * reset, and costs what the dense arrays always cost: an operation never
 * does worse than a loop over its range.
 *
 * Both forms hold the same function from units to values, so every query
 * answers exactly as the other form would: merged runs are the maximal
 * runs of equal values of the dense array.
 *
 * A header of static functions, included by sanitizer.c alone: the
 * compiler inlines the fast paths into the checks that run per access. */
#ifndef ASC_SIM_SANITIZER_MAP_H
#define ASC_SIM_SANITIZER_MAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Units [lo, hi) holding value v. */
typedef struct SanRun {
  int32_t lo, hi;
  uint32_t v;
} SanRun;

/* A value (a seq number, 0: none) per unit of local memory: its runs, or
 * one entry per unit (dense) once the runs are too many. */
typedef struct SanMap {
  SanRun *run; /* sorted, disjoint, values > 0, equal neighbours merged */
  int n, cap;
  uint32_t *dense;     /* dense form: dense_buf; NULL: runs */
  uint32_t *dense_buf; /* kept across resets, 0 where not in use */
  int32_t units;
  int32_t dlo, dhi; /* dense: the entries set since the reset */
  uint32_t max;     /* the largest value anywhere */
} SanMap;

/* A set of units (bytes): its runs, or one bit per unit once too many. */
typedef struct SanSet {
  SanRun *run; /* sorted, disjoint, not touching */
  int n, cap;
  uint64_t *bits, *bits_buf; /* as SanMap's dense, dense_buf */
  int32_t units;
  int32_t dlo, dhi; /* dense: the words set since the reset */
} SanSet;

enum {
  /* runs a map holds before it turns dense: a binary search of 7 steps,
   * an insertion moves at most 1.5 KiB */
  SAN_MAP_RUNS = 128,
};

/* The first run whose end is past u (n when none). */
static inline int lower(const SanRun *r, int n, int32_t u) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (r[mid].hi <= u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Room for n runs; 0 when there is none. */
static inline int reserve(SanRun **run, int *cap, int n) {
  if (n <= *cap)
    return 1;
  int c = *cap ? *cap * 2 : 16;
  while (c < n)
    c *= 2;
  SanRun *v = realloc(*run, sizeof *v * (size_t)c);
  if (!v)
    return 0;
  *run = v;
  *cap = c;
  return 1;
}

/* ---- maps of values -------------------------------------------------------
 * In dense form every unit has its entry; entries outside [dlo, dhi) are
 * 0, and dense_buf stays all 0 while the map is in runs. */

static inline void san_map_init(SanMap *m, int32_t units) {
  memset(m, 0, sizeof *m);
  m->units = units;
  m->dlo = units;
}

static inline void san_map_free(SanMap *m) {
  free(m->run);
  free(m->dense_buf);
  memset(m, 0, sizeof *m);
}

/* Every unit back to 0. */
static inline void san_map_reset(SanMap *m) {
  if (m->dense && m->dhi > m->dlo)
    memset(m->dense + m->dlo, 0, sizeof *m->dense * (size_t)(m->dhi - m->dlo));
  m->dense = NULL;
  m->dlo = m->units;
  m->dhi = 0;
  m->n = 0;
  m->max = 0;
}

static inline void dense_fill(SanMap *m, int32_t u0, int32_t u1, uint32_t v) {
  uint32_t *a = m->dense;
  for (int32_t i = u0; i < u1; i++)
    a[i] = v;
  if (u0 < m->dlo)
    m->dlo = u0;
  if (u1 > m->dhi)
    m->dhi = u1;
}

/* Runs to dense form; 0 out of memory. */
static inline int map_to_dense(SanMap *m) {
  if (!m->dense_buf &&
      !(m->dense_buf = calloc((size_t)m->units, sizeof *m->dense_buf)))
    return 0;
  m->dense = m->dense_buf;
  m->dlo = m->units;
  m->dhi = 0;
  for (int k = 0; k < m->n; k++)
    dense_fill(m, m->run[k].lo, m->run[k].hi, m->run[k].v);
  m->n = 0;
  return 1;
}

/* The largest value in [u0, u1). */
static inline uint32_t san_map_max(const SanMap *m, int32_t u0, int32_t u1) {
  uint32_t best = 0;
  if (m->dense) {
    const uint32_t *a = m->dense;
    for (int32_t i = u0; i < u1; i++)
      best = a[i] > best ? a[i] : best;
    return best;
  }
  for (int k = lower(m->run, m->n, u0); k < m->n && m->run[k].lo < u1; k++)
    best = m->run[k].v > best ? m->run[k].v : best;
  return best;
}

/* The first maximal run of one value above lim in [u0, u1), clipped to
 * it: its value, or 0 when there is none. */
static inline uint32_t san_map_first_above(const SanMap *m, int32_t u0,
                                           int32_t u1, uint32_t lim,
                                           int32_t *r0, int32_t *r1) {
  if (m->dense) {
    const uint32_t *a = m->dense;
    int32_t i = u0;
    while (i < u1 && a[i] <= lim)
      i++;
    if (i == u1)
      return 0;
    uint32_t v = a[i];
    int32_t j = i;
    while (j < u1 && a[j] == v)
      j++;
    *r0 = i;
    *r1 = j;
    return v;
  }
  for (int k = lower(m->run, m->n, u0); k < m->n && m->run[k].lo < u1; k++)
    if (m->run[k].v > lim) {
      *r0 = m->run[k].lo > u0 ? m->run[k].lo : u0;
      *r1 = m->run[k].hi < u1 ? m->run[k].hi : u1;
      return m->run[k].v;
    }
  return 0;
}

/* Units [u0, u1) to v > 0; 0 out of memory (the map is then unusable until
 * its reset). */
static inline int san_map_set(SanMap *m, int32_t u0, int32_t u1, uint32_t v) {
  if (u0 < 0 || u1 > m->units || u0 >= u1 || !v)
    return 1;
  if (v > m->max)
    m->max = v;
  if (m->dense) {
    dense_fill(m, u0, u1, v);
    return 1;
  }
  SanRun *r = m->run;
  int n0 = m->n;
  /* the common cases first: past the last run (a buffer used for the
   * first time), and exactly one run (a tile buffer rewritten in a loop) */
  if ((!n0 || u0 >= r[n0 - 1].hi) && n0 < m->cap) {
    if (n0 && r[n0 - 1].hi == u0 && r[n0 - 1].v == v)
      r[n0 - 1].hi = u1;
    else
      r[m->n++] = (SanRun){u0, u1, v};
    return 1;
  }
  int k0 = lower(r, n0, u0), k1 = k0;
  if (k0 < n0 && r[k0].lo == u0 && r[k0].hi == u1 &&
      !(k0 > 0 && r[k0 - 1].hi == u0 && r[k0 - 1].v == v) &&
      !(k0 + 1 < n0 && r[k0 + 1].lo == u1 && r[k0 + 1].v == v)) {
    r[k0].v = v;
    return 1;
  }
  while (k1 < m->n && r[k1].lo < u1)
    k1++;
  /* runs k0..k1 meet [u0, u1): they become what is left of the first, the
   * new run, what is left of the last */
  SanRun t[3];
  int nt = 0;
  if (k0 < k1 && r[k0].lo < u0)
    t[nt++] = (SanRun){r[k0].lo, u0, r[k0].v};
  t[nt++] = (SanRun){u0, u1, v};
  if (k0 < k1 && r[k1 - 1].hi > u1)
    t[nt++] = (SanRun){u1, r[k1 - 1].hi, r[k1 - 1].v};
  /* equal neighbours merge, so runs stay the maximal ones */
  if (k0 > 0 && r[k0 - 1].hi == t[0].lo && r[k0 - 1].v == t[0].v)
    t[0].lo = r[--k0].lo;
  if (k1 < m->n && r[k1].lo == t[nt - 1].hi && r[k1].v == t[nt - 1].v)
    t[nt - 1].hi = r[k1++].hi;
  int w = 0;
  for (int i = 0; i < nt; i++)
    if (w && t[w - 1].hi == t[i].lo && t[w - 1].v == t[i].v)
      t[w - 1].hi = t[i].hi;
    else
      t[w++] = t[i];
  nt = w;
  int n = m->n - (k1 - k0) + nt;
  if (n > SAN_MAP_RUNS || !reserve(&m->run, &m->cap, n)) {
    if (!map_to_dense(m))
      return 0;
    dense_fill(m, u0, u1, v);
    return 1;
  }
  r = m->run;
  if (k1 != k0 + nt)
    memmove(r + k0 + nt, r + k1, sizeof *r * (size_t)(m->n - k1));
  memcpy(r + k0, t, sizeof *t * (size_t)nt);
  m->n = n;
  return 1;
}

/* ---- sets of bytes --------------------------------------------------------
 * Runs without values, merged when they touch; dense form one bit per
 * unit, 0 outside words [dlo, dhi). */

static inline void san_set_init(SanSet *s, int32_t units) {
  memset(s, 0, sizeof *s);
  s->units = units;
  s->dlo = units;
}

static inline void san_set_free(SanSet *s) {
  free(s->run);
  free(s->bits_buf);
  memset(s, 0, sizeof *s);
}

static inline void san_set_reset(SanSet *s) {
  if (s->bits && s->dhi > s->dlo)
    memset(s->bits + s->dlo, 0, sizeof *s->bits * (size_t)(s->dhi - s->dlo));
  s->bits = NULL;
  s->dlo = s->units;
  s->dhi = 0;
  s->n = 0;
}

static inline void bits_add(SanSet *s, int32_t lo, int32_t hi) {
  uint64_t *m = s->bits;
  int32_t i = lo;
  for (; i < hi && (i & 63); i++)
    m[i >> 6] |= (uint64_t)1 << (i & 63);
  for (; i + 64 <= hi; i += 64)
    m[i >> 6] = ~(uint64_t)0;
  for (; i < hi; i++)
    m[i >> 6] |= (uint64_t)1 << (i & 63);
  if (lo >> 6 < s->dlo)
    s->dlo = lo >> 6;
  if (((hi + 63) >> 6) > s->dhi)
    s->dhi = (hi + 63) >> 6;
}

static inline int set_to_dense(SanSet *s) {
  if (!s->bits_buf &&
      !(s->bits_buf = calloc((size_t)s->units / 64 + 1, sizeof *s->bits_buf)))
    return 0;
  s->bits = s->bits_buf;
  s->dlo = s->units;
  s->dhi = 0;
  for (int k = 0; k < s->n; k++)
    bits_add(s, s->run[k].lo, s->run[k].hi);
  s->n = 0;
  return 1;
}

/* Adds [lo, hi); 0 out of memory (as san_map_set). */
static inline int san_set_add(SanSet *s, int32_t lo, int32_t hi) {
  if (lo < 0 || hi > s->units || lo >= hi)
    return 1;
  if (s->bits) {
    bits_add(s, lo, hi);
    return 1;
  }
  SanRun *r = s->run;
  /* the runs that meet or touch [lo, hi) become one */
  int k0 = lower(r, s->n, lo - 1), k1 = k0;
  if (k0 < s->n && r[k0].lo <= lo && r[k0].hi >= hi)
    return 1;                        /* written before */
  if (k0 == s->n && s->n < s->cap) { /* past the last run */
    r[s->n++] = (SanRun){lo, hi, 1};
    return 1;
  }
  while (k1 < s->n && r[k1].lo <= hi)
    k1++;
  SanRun t = {lo, hi, 1};
  if (k0 < k1) {
    t.lo = r[k0].lo < lo ? r[k0].lo : lo;
    t.hi = r[k1 - 1].hi > hi ? r[k1 - 1].hi : hi;
  }
  int n = s->n - (k1 - k0) + 1;
  if (n > SAN_MAP_RUNS || !reserve(&s->run, &s->cap, n)) {
    if (!set_to_dense(s))
      return 0;
    bits_add(s, lo, hi);
    return 1;
  }
  r = s->run;
  if (k1 != k0 + 1)
    memmove(r + k0 + 1, r + k1, sizeof *r * (size_t)(s->n - k1));
  r[k0] = t;
  s->n = n;
  return 1;
}

/* The first run of units of [lo, hi) not in the set, as [*g0, *g1); 0 when
 * all of them are. */
static inline int san_set_first_gap(const SanSet *s, int32_t lo, int32_t hi,
                                    int32_t *g0, int32_t *g1) {
  if (lo >= hi)
    return 0;
  if (s->bits) {
    const uint64_t *m = s->bits;
    int32_t i = lo;
    while (i < hi) {
      if ((i & 63) == 0 && i + 64 <= hi && m[i >> 6] == ~(uint64_t)0) {
        i += 64;
        continue;
      }
      if (!(m[i >> 6] >> (i & 63) & 1))
        break;
      i++;
    }
    if (i >= hi)
      return 0;
    int32_t j = i;
    while (j < hi && !(m[j >> 6] >> (j & 63) & 1))
      j++;
    *g0 = i;
    *g1 = j;
    return 1;
  }
  const SanRun *r = s->run;
  int k = lower(r, s->n, lo);
  int32_t i = lo;
  if (k < s->n && r[k].lo <= lo)
    i = r[k++].hi; /* runs that touch are merged: a gap follows */
  if (i >= hi)
    return 0;
  *g0 = i;
  *g1 = k < s->n && r[k].lo < hi ? r[k].lo : hi;
  return 1;
}

#endif
