/* The sanitizer's global-memory part: the records of each block's GM
 * accesses, the reports of GM accesses outside their kernel argument, and
 * the races between blocks (the per-core checks are in sanitizer.c).
 *
 * Records: per block (of a launch of more than one) a GmList of GmRec: the
 * instruction, argument, byte range, read or write, store-atomic or not. A
 * new contiguous access extends one of the block's last GM_LOOKBACK records
 * of the same instruction and kind that it overlaps or adjoins. Strided
 * accesses (datamove family) keep their rows. Under cross-block sync
 * (system family) a record holds the block's sync epoch and a snapshot of
 * its vector clock over the blocks.
 *
 * Races between blocks, once a launch ended well: the records and the
 * writes are sorted by (argument, start, block); each record is checked
 * against the writes that can reach it, with a bound on the work. A pair
 * races unless it is in one block, both are store atomics, their bytes do
 * not meet, or cross-block sync orders them; out of memory with sync
 * snapshots, the ordering is incomplete and nothing is reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sanitizer_impl.h"

enum {
  GM_LOOKBACK = 8, /* GM records a new access may extend */
  /* what a kept sanitizer keeps: per block up to GM_KEEP records, dirty
   * spans and reads and GM_KEEP_SNAPS snapshots, for up to GM_KEEP_BLOCKS
   * blocks (with SAN_CACHE of them, about 1 MiB at most in all) */
  GM_KEEP = 32,
  GM_KEEP_SNAPS = 8,
  GM_KEEP_BLOCKS = 64,
  REPS_KEEP = 8,
};

int san_gm_begin(AscSanitizer *s) {
  s->gm = NULL;
  if (s->core_num <= 1)
    return 1;
  if (s->gm_cap < s->core_num) {
    GmList *v = realloc(s->gm_buf, sizeof *v * (size_t)s->core_num);
    if (!v)
      return 0;
    memset(v + s->gm_cap, 0, sizeof *v * (size_t)(s->core_num - s->gm_cap));
    s->gm_buf = v;
    s->gm_cap = s->core_num;
  }
  for (int i = 0; i < s->core_num; i++) {
    GmList *l = &s->gm_buf[i];
    if (s->gm_cores != s->core_num) { /* a snapshot is core_num entries */
      free(l->snaps);
      l->snaps = NULL;
      l->cap_snaps = 0;
    }
    l->n = l->oom = 0;
    l->n_spans = l->n_reads = l->dc_oom = 0;
    l->n_snaps = 0;
    l->last_epoch = 0;
  }
  s->gm_cores = s->core_num;
  s->gm = s->gm_buf;
  return 1;
}

static void list_free(GmList *l) {
  free(l->v);
  free(l->snaps);
  free(l->spans);
  free(l->reads);
  memset(l, 0, sizeof *l);
}

void san_gm_free(AscSanitizer *s) {
  for (int i = 0; i < s->gm_cap; i++)
    list_free(&s->gm_buf[i]);
  free(s->gm_buf);
  s->gm_buf = s->gm = NULL;
  s->gm_cap = 0;
}

void san_gm_trim(AscSanitizer *s) {
  s->gm = NULL;
  if (s->gm_cap > GM_KEEP_BLOCKS) {
    san_gm_free(s);
  } else {
    for (int i = 0; i < s->gm_cap; i++) {
      GmList *l = &s->gm_buf[i];
      if (l->cap > GM_KEEP || l->cap_snaps > GM_KEEP_SNAPS ||
          l->cap_spans > GM_KEEP || l->cap_reads > GM_KEEP)
        list_free(l);
    }
  }
  if (s->cap_reps > REPS_KEEP) {
    free(s->reps);
    s->reps = NULL;
    s->cap_reps = 0;
  }
}

/* A GM access (partly) outside its kernel argument, which the simulator
 * clamped (events.h: has_ov): an error in error mode; in warn mode a
 * warning, and the launch goes on with reads outside seeing zeros and
 * writes outside going nowhere. One report per call site. */
AscStatus san_report_overrun(AscSanitizer *s, AscBlockState *b,
                             const AscEvent *e) {
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_OVERRUN, b, e->in, e->pipe);
  int64_t nbytes = e->ov_buf >= 0 && e->ov_buf < b->n_args
                       ? (int64_t)b->args[e->ov_buf].nbytes
                       : 0;
  int64_t es = (int64_t)asc_dtype_size((AscDType)e->in->dtype);
  if (es <= 0)
    es = 1;
  r->r.space = ASC_SPACE_GM;
  r->r.buf = e->ov_buf;
  r->r.lo = e->ov_lo;
  r->r.hi = e->ov_hi;
  int64_t past = e->ov_hi > nbytes ? e->ov_hi - nbytes : 0;
  /* unsigned: the start may be INT64_MIN, whose negation int64 lacks */
  uint64_t before = e->ov_lo < 0 ? 0u - (uint64_t)e->ov_lo : 0;
  char api1[64], w1[128], extent[96];
  if (before)
    snprintf(extent, sizeof extent, "%llu bytes before its start",
             (unsigned long long)before);
  else
    snprintf(extent, sizeof extent, "%lld bytes past its end", (long long)past);
  san_msg(r,
          "GM access out of bounds: %s at %s %s bytes [%lld, %lld) of kernel "
          "argument %d, a %lld-byte buffer (elements [%lld, %lld) of %lld): "
          "%s. On an NPU this %s%s",
          san_api_of(e->in, api1, sizeof api1),
          san_where(r->r.loc, w1, sizeof w1), e->ov_write ? "writes" : "reads",
          (long long)e->ov_lo, (long long)e->ov_hi, e->ov_buf,
          (long long)nbytes, (long long)(e->ov_lo / es),
          (long long)(e->ov_hi / es), (long long)(nbytes / es), extent,
          e->ov_write
              ? "silently overwrites whatever follows the tensor (another "
                "tensor, the allocator's padding)"
              : "reads whatever memory follows the tensor",
          s->mode == ASC_SAN_ERROR
              ? ""
              : "; here reads outside the argument see zeros and writes go "
                "nowhere");
  san_fix(
      r,
      "copy only the elements that are left on the last tile or block "
      "(count = min(tile, total - offset)), or allocate the tensor padded to "
      "whole tiles");
  return san_emit(s, b, r);
}

int32_t san_gm_snap(AscSanitizer *s, const AscBlockState *b) {
  if (!s->gm || !b->xsync_vc || b->block_idx < 0 || b->block_idx >= s->core_num)
    return -1;
  GmList *l = &s->gm[b->block_idx];
  if (!l->n_snaps || l->last_epoch != b->xsync_epoch) {
    if (l->n_snaps == l->cap_snaps) {
      int cap = l->cap_snaps ? l->cap_snaps * 2 : 8;
      int32_t *v =
          cap > (1 << 20) / s->core_num
              ? NULL
              : realloc(l->snaps, sizeof *v * (size_t)cap * s->core_num);
      if (!v) {
        l->oom = 1;
        return -1;
      }
      l->snaps = v;
      l->cap_snaps = cap;
    }
    memcpy(l->snaps + (size_t)l->n_snaps * s->core_num, b->xsync_vc,
           sizeof(int32_t) * (size_t)s->core_num);
    l->n_snaps++;
    l->last_epoch = b->xsync_epoch;
  }
  return l->n_snaps - 1;
}

void san_gm_record(AscSanitizer *s, const AscBlockState *b, const AscEvent *e,
                   const AscAccess *a) {
  if (!s->gm || b->block_idx < 0 || b->block_idx >= s->core_num)
    return;
  GmList *l = &s->gm[b->block_idx];
  int32_t snap = -1;
  if (b->xsync_vc) { /* system family: a snapshot per epoch */
    snap = san_gm_snap(s, b);
    if (snap < 0)
      return;
  }
  for (int k = l->n - 1; k >= 0 && k >= l->n - GM_LOOKBACK; k--) {
    GmRec *g = &l->v[k];
    if (g->in == e->in && g->buf == a->buf && g->write == a->write &&
        g->snap == snap && g->atomic == a->atomic && g->scalar == a->scalar &&
        g->bounding == a->bounding && !g->rows && !a->rows && a->lo <= g->hi &&
        g->lo <= a->hi) {
      if (a->lo < g->lo)
        g->lo = a->lo;
      if (a->hi > g->hi)
        g->hi = a->hi;
      return;
    }
  }
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 16;
    GmRec *v = realloc(l->v, sizeof *v * (size_t)cap);
    if (!v) {
      l->oom = 1;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  GmRec *g = &l->v[l->n++];
  g->lo = a->lo;
  g->hi = a->hi;
  g->in = e->in;
  g->buf = a->buf;
  g->block = b->block_idx;
  g->write = a->write;
  g->atomic = a->atomic;
  g->scalar = a->scalar;
  g->bounding = a->bounding;
  g->pipe = e->pipe;
  g->epoch = b->xsync_epoch;
  g->snap = snap;
  g->rows = a->rows;
  g->row0 = a->row0;
  g->row_len = a->row_len;
  g->row_step = a->row_step;
}

/* ---- races between cores ------------------------------------------------- */

static int cmp_gm(const void *pa, const void *pb) {
  const GmRec *a = pa, *b = pb;
  if (a->buf != b->buf)
    return a->buf < b->buf ? -1 : 1;
  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->block != b->block)
    return a->block < b->block ? -1 : 1;
  return 0;
}

static void report_core_race(AscSanitizer *s, const GmRec *x, const GmRec *y) {
  if (y->block < x->block) {
    const GmRec *t = x;
    x = y;
    y = t;
  }
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_CORE_RACE, NULL, x->in, x->pipe);
  r->r.block = x->block;
  r->r.block2 = y->block;
  san_rep_other(r, y->in, y->pipe);
  r->r.space = ASC_SPACE_GM;
  r->r.buf = x->buf;
  r->r.lo = x->lo > y->lo ? x->lo : y->lo;
  r->r.hi = x->hi < y->hi ? x->hi : y->hi;
  char api1[64], api2[64], w1[128], w2[128];
  san_msg(
      r,
      "data race on GM between blocks %d and %d: %s at %s in block %d %s "
      "bytes [%lld, %lld) of kernel argument %d, which %s at %s in block %d "
      "%s; blocks run in parallel and nothing orders them",
      x->block, y->block, san_api_of(x->in, api1, sizeof api1),
      san_where(r->r.loc, w1, sizeof w1), x->block,
      x->write ? "writes" : "reads", (long long)r->r.lo, (long long)r->r.hi,
      x->buf, san_api_of(y->in, api2, sizeof api2),
      san_where(r->r.loc2, w2, sizeof w2), y->block,
      y->write ? (x->write ? "also writes" : "writes") : "reads");
  san_fix(r,
          "give each block its own part of kernel argument %d (offset by "
          "asc.get_block_idx()), or let a single block %s it",
          x->buf, "write");
  san_keep(s, r);
}

/* system family: x happens before y through cross-block sync (y's block
 * had, at y's epoch, seen x's block's epoch). */
int san_gm_before(const AscSanitizer *s, int xb, int32_t x_epoch, int yb,
                  int32_t y_snap) {
  if (y_snap < 0 || y_snap >= s->gm[yb].n_snaps)
    return 0;
  const int32_t *vc = s->gm[yb].snaps + (size_t)y_snap * s->core_num;
  return vc[xb] >= x_epoch;
}

static int gm_before(const AscSanitizer *s, const GmRec *x, const GmRec *y) {
  if (x->snap < 0)
    return 0;
  return san_gm_before(s, x->block, x->epoch, y->block, y->snap);
}

/* Do the bytes of x and y (each contiguous in [lo, hi), or strided runs
 * within it) meet? The runs of the one with fewer are checked against the
 * other's pattern (datamove family). */
static int run_meets(const GmRec *y, int64_t s, int64_t e) {
  if (s < y->lo)
    s = y->lo;
  if (e > y->hi)
    e = y->hi;
  if (s >= e)
    return 0;
  if (!y->rows)
    return 1;
  if (y->row_step == 0) /* every run is the first (a copy with stride 0) */
    return y->row0 < e && y->row0 + y->row_len > s;
  if (y->row_step < 0)
    return 1; /* (no copy records such runs; the ranges meet) */
  /* the runs k of y with row0 + k * step < e and row0 + k * step + len > s */
  int64_t k0 = s - y->row0 - y->row_len + 1, k1 = e - 1 - y->row0;
  k0 = k0 <= 0 ? 0 : (k0 + y->row_step - 1) / y->row_step;
  k1 = k1 < 0 ? -1 : k1 / y->row_step;
  if (k1 > y->rows - 1)
    k1 = y->rows - 1;
  return k0 <= k1;
}

static int gm_meet(const GmRec *x, const GmRec *y) {
  if (!x->rows && !y->rows)
    return 1; /* contiguous: the ranges already overlap */
  if (!x->rows || (y->rows && y->rows < x->rows)) {
    const GmRec *t = x;
    x = y;
    y = t;
  }
  for (int64_t k = 0; k < x->rows; k++) {
    int64_t s = x->row0 + k * x->row_step;
    if (s >= x->hi)
      break;
    if (s + x->row_len > x->lo &&
        run_meets(y, s < x->lo ? x->lo : s, s + x->row_len))
      return 1;
  }
  return 0;
}

/* No two blocks' records meet with one of them writing: the common case
 * (each block its own part of every argument it writes), proven from the
 * range each block touches in each argument, without sorting the records
 * or allocating; 0 when unproven (the full check decides). Conservative:
 * the ranges of an argument some block writes must not meet at all. */
static int no_race_quick(const AscSanitizer *s) {
  enum { QB = 8, QCORES = 64 };
  if (s->core_num > QCORES)
    return 0;
  int32_t bufs[QB];
  int nb = 0, wrote[QB] = {0};
  struct {
    int64_t lo, hi;
  } box[QCORES][QB];
  for (int i = 0; i < s->core_num; i++)
    for (int k = 0; k < s->gm[i].n; k++) {
      const GmRec *x = &s->gm[i].v[k];
      int slot = 0;
      while (slot < nb && bufs[slot] != x->buf)
        slot++;
      if (slot == nb) {
        if (nb == QB)
          return 0;
        bufs[nb++] = x->buf;
        for (int j = 0; j < s->core_num; j++) {
          box[j][slot].lo = INT64_MAX;
          box[j][slot].hi = INT64_MIN;
        }
      }
      if (x->lo < box[i][slot].lo)
        box[i][slot].lo = x->lo;
      if (x->hi > box[i][slot].hi)
        box[i][slot].hi = x->hi;
      wrote[slot] |= x->write;
    }
  for (int slot = 0; slot < nb; slot++) {
    if (!wrote[slot])
      continue;
    int order[QCORES], n = 0;
    for (int i = 0; i < s->core_num; i++) { /* by start, insertion */
      if (box[i][slot].lo >= box[i][slot].hi)
        continue;
      int j = n++;
      while (j > 0 && box[order[j - 1]][slot].lo > box[i][slot].lo) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = i;
    }
    int64_t reach = INT64_MIN; /* the furthest end of the ranges before */
    for (int j = 0; j < n; j++) {
      if (box[order[j]][slot].lo < reach)
        return 0;
      if (box[order[j]][slot].hi > reach)
        reach = box[order[j]][slot].hi;
    }
  }
  return 1;
}

/* Every pair of blocks that touch one GM byte, at least one writing. */
void san_core_races(AscSanitizer *s) {
  int n = 0, nw = 0;
  for (int i = 0; i < s->core_num; i++)
    if (s->gm[i].oom && s->gm[i].n_snaps)
      return; /* the ordering is incomplete: no reports */
  for (int i = 0; i < s->core_num; i++) {
    n += s->gm[i].n;
    for (int k = 0; k < s->gm[i].n; k++)
      nw += s->gm[i].v[k].write;
  }
  if (!nw || no_race_quick(s))
    return;
  GmRec *all = malloc(sizeof *all * (size_t)n);
  GmRec *w = malloc(sizeof *w * (size_t)nw);
  int64_t *reach = malloc(sizeof *reach * (size_t)nw);
  if (!all || !w || !reach)
    goto done;
  n = nw = 0;
  for (int i = 0; i < s->core_num; i++)
    for (int k = 0; k < s->gm[i].n; k++) {
      all[n++] = s->gm[i].v[k];
      if (s->gm[i].v[k].write)
        w[nw++] = s->gm[i].v[k];
    }
  qsort(all, (size_t)n, sizeof *all, cmp_gm);
  qsort(w, (size_t)nw, sizeof *w, cmp_gm);
  /* reach[j]: the furthest end of writes[..j] into the same argument */
  for (int j = 0; j < nw; j++)
    reach[j] = j && w[j - 1].buf == w[j].buf && reach[j - 1] > w[j].hi
                   ? reach[j - 1]
                   : w[j].hi;
  long budget = 4000000; /* bounded work for pathological overlaps */
  for (int i = 0; i < n && budget > 0; i++) {
    const GmRec *a = &all[i];
    /* the writes into a->buf starting before a->hi: w[..hi) */
    int lo = 0, hi = nw;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (w[mid].buf < a->buf || (w[mid].buf == a->buf && w[mid].lo < a->hi))
        lo = mid + 1;
      else
        hi = mid;
    }
    for (int j = lo - 1;
         j >= 0 && w[j].buf == a->buf && reach[j] > a->lo && budget > 0;
         j--, budget--)
      if (w[j].block != a->block && w[j].hi > a->lo &&
          (!a->write || a->block < w[j].block) &&
          !(a->atomic && w[j].atomic) && /* store atomics combine */
          gm_meet(a, &w[j]) && !gm_before(s, a, &w[j]) &&
          !gm_before(s, &w[j], a))
        report_core_race(s, a, &w[j]);
  }
done:
  free(all);
  free(w);
  free(reach);
}
