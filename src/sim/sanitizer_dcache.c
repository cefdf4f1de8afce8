/* The sanitizer's model of the scalar unit's data cache (docs/sanitizer.md,
 * "The data cache").
 *
 * On the NPU every AI Core (each AIC and AIV) has its own data cache, which
 * the scalar unit's GM accesses go through and the pipes' (DMA, cube loads,
 * fixpipe, store atomics) do not: a scalar write (GlobalTensor.set_value)
 * changes the cached line and marks it dirty, not GM, and a scalar read
 * loads the whole 64-byte line and keeps answering from it
 * (guide/.../内存访问原理/Scalar读写数据.md, GlobalTensor/SetValue.md,
 * GetValue.md; CACHE_LINE_SIZE 64 for arch 2201 in
 * impl/basic_api/utils/kernel_utils_constants.h). A dirty line is written
 * back whole (SetValue.md), when DataCacheCleanAndInvalid writes it back and
 * invalidates it, when the cache evicts it, or after the kernel. The
 * simulator keeps memory coherent; this file reports where the NPU would
 * not be:
 *   - stale-read: a pipe reads GM bytes a scalar write left dirty in the
 *     cache (or another block reads them before their write-back);
 *   - stale-line: a scalar read answered from a line loaded before a pipe
 *     (or another block) wrote those bytes to GM;
 *   - lost-write: a pipe's (or another block's) write into a line a scalar
 *     write keeps dirty, which the line's write-back overwrites.
 *
 * Within a block, at each event: the lines its scalar unit holds (line
 * index = byte offset / 64 in its kernel argument, taking each argument to
 * start on a line: device allocations are aligned far beyond 64 bytes), a
 * dense array of DcLine with a hash index by (argument, line), each with one
 * bit per byte for the bytes written by the scalar unit and not yet written
 * back (dirty) and the bytes a pipe wrote to GM since the line was loaded
 * (stale). A pipe access into an argument with lines held looks up the lines
 * of its byte range, or scans the held lines when they are fewer (rows of a
 * strided copy exactly); kernels whose scalar unit touches no GM make no
 * cache at all. A block tracks at most DC_MAX_LINES lines; an access to a
 * line past that is not tracked (its findings are missed, never invented).
 *
 * Between blocks, once the launch ended well: each block's dirty spans (a
 * line from its load to its write-back, with the latest write) and scalar
 * reads (with the load of the line they read) are checked against the
 * other blocks' GM records (sanitizer_gm.c) and spans, ordered by the
 * cross-block sync's vector clocks. A pair that nothing orders and that
 * touches the same bytes is a core-race, reported there; here are the
 * pairs the byte ranges alone do not show: ordered accesses that still
 * miss a write-back, and blocks writing different bytes of one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "sanitizer_impl.h"

enum {
  DC_LINE = 64,           /* bytes per cache line (see above) */
  DC_MAX_LINES = 1 << 16, /* lines a block tracks: 4 MiB of GM */
  DC_MAX_RECS = 1 << 16,  /* spans and reads a block keeps for the checks
                             between blocks; more are not checked */
  DC_LOOKBACK = 8,        /* reads a new read may join */
};

typedef struct DcLine {
  int64_t line;
  int32_t buf;
  uint64_t dirty;       /* bytes the scalar unit wrote, not yet written back */
  uint64_t stale;       /* bytes a pipe wrote to GM since the line was loaded */
  const AscInstr *f_in; /* the access that loaded the line */
  const AscInstr *w_in; /* the latest scalar write */
  const AscInstr *p_in; /* the latest pipe write into the line */
  uint32_t w_tick;      /* DCache.tick at the latest scalar write */
  int p_pipe;           /* the pipe of p_in */
  /* system family: of the load and the latest write */
  int32_t f_snap, w_epoch, w_snap;
} DcLine;

struct DCache {
  DcLine *v; /* the lines held, in no order */
  int n, cap;
  int32_t *slot;    /* hash index: 1 + the line's index in v, 0 empty */
  int n_slots;      /* a power of two, at least 2 * cap */
  int32_t *per_arg; /* lines held per kernel argument */
  int n_args;
  uint32_t tick; /* counts the events seen */
  /* the latest DataCacheCleanAndInvalid that wrote no GM line back
   * (CACHELINE_UB / CACHELINE_ATOMIC), and its tick */
  const AscInstr *no_gm;
  uint32_t no_gm_tick;
};

void san_dc_free(DCache *dc) {
  if (!dc)
    return;
  free(dc->v);
  free(dc->slot);
  free(dc->per_arg);
  free(dc);
}

static void drop_all(DCache *dc) {
  dc->n = 0;
  if (dc->slot)
    memset(dc->slot, 0, sizeof *dc->slot * (size_t)dc->n_slots);
  if (dc->per_arg)
    memset(dc->per_arg, 0, sizeof *dc->per_arg * (size_t)dc->n_args);
}

void san_dc_reset(DCache *dc) {
  drop_all(dc);
  dc->tick = 0;
  dc->no_gm = NULL;
  dc->no_gm_tick = 0;
}

/* ---- byte masks ------------------------------------------------------------
 * Bit i of a line's mask is byte line * 64 + i of its argument. */

/* The bytes of [s, e) in the line starting at byte base. */
static uint64_t span_bits(int64_t s, int64_t e, int64_t base) {
  int64_t a = s < base ? 0 : s - base;
  int64_t z = e - base > DC_LINE ? DC_LINE : e - base;
  if (z <= a)
    return 0;
  uint64_t hi = z == DC_LINE ? ~(uint64_t)0 : ((uint64_t)1 << z) - 1;
  return hi & ~(((uint64_t)1 << a) - 1);
}

/* The bytes of line `line` an access touches: [lo, hi), or with rows > 0
 * only rows runs of row_len bytes every row_step bytes from row0 in it
 * (events.h: AscAccess.rows). */
static uint64_t access_bits(int64_t lo, int64_t hi, int32_t rows, int64_t row0,
                            int64_t row_len, int64_t row_step, int64_t line) {
  int64_t base = line * DC_LINE;
  int64_t s = lo > base ? lo : base;
  int64_t e = hi < base + DC_LINE ? hi : base + DC_LINE;
  if (s >= e)
    return 0;
  if (rows <= 0 || row_step <= row_len || row_len <= 0)
    return span_bits(s, e, base); /* contiguous (or overlapping rows) */
  /* the runs k with row0 + k * step < e and row0 + k * step + len > s: at
   * most 64 / step + 2 of them meet a line, since step > len */
  int64_t k0 = s - row0 - row_len + 1, k1 = e - 1 - row0;
  k0 = k0 <= 0 ? 0 : (k0 + row_step - 1) / row_step;
  k1 = k1 < 0 ? -1 : k1 / row_step;
  if (k1 > rows - 1)
    k1 = rows - 1;
  uint64_t m = 0;
  for (int64_t k = k0; k <= k1; k++) {
    int64_t r, rend;
    if (asc_mul_i64(k, row_step, &r) || asc_add_i64(r, row0, &r) ||
        asc_add_i64(r, row_len, &rend))
      return span_bits(s, e, base); /* (no such copy exists) */
    m |= span_bits(r > s ? r : s, rend < e ? rend : e, base);
  }
  return m;
}

static int low_bit(uint64_t m) {
  int i = 0;
  while (i < 63 && !(m >> i & 1))
    i++;
  return i;
}

static int high_bit(uint64_t m) {
  int i = 63;
  while (i > 0 && !(m >> i & 1))
    i--;
  return i;
}

/* ---- the lines of a block ------------------------------------------------ */

static size_t home(const DCache *dc, int32_t buf, int64_t line) {
  uint64_t h = (uint64_t)line * 0x9E3779B97F4A7C15ull ^ (uint64_t)buf;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return (size_t)(h ^ h >> 32) & (size_t)(dc->n_slots - 1);
}

/* The index in v of the line, or -1; *at: its slot or the empty one. */
static int find(const DCache *dc, int32_t buf, int64_t line, size_t *at) {
  if (!dc->n_slots)
    return -1;
  size_t m = (size_t)dc->n_slots - 1;
  for (size_t i = home(dc, buf, line);; i = (i + 1) & m) {
    int32_t k = dc->slot[i] - 1;
    if (k < 0 || (dc->v[k].line == line && dc->v[k].buf == buf)) {
      if (at)
        *at = i;
      return k;
    }
  }
}

/* Makes room for one more line (v and the index); 0 when out of memory. */
static int grow(DCache *dc, int32_t buf) {
  if (buf >= dc->n_args) {
    int n = buf + 1 > 2 * dc->n_args ? buf + 1 : 2 * dc->n_args;
    int32_t *p = realloc(dc->per_arg, sizeof *p * (size_t)n);
    if (!p)
      return 0;
    memset(p + dc->n_args, 0, sizeof *p * (size_t)(n - dc->n_args));
    dc->per_arg = p;
    dc->n_args = n;
  }
  if (dc->n < dc->cap)
    return 1;
  int cap = dc->cap ? dc->cap * 2 : 64;
  DcLine *v = realloc(dc->v, sizeof *v * (size_t)cap);
  if (!v)
    return 0;
  dc->v = v;
  int32_t *slot = calloc((size_t)cap * 2, sizeof *slot);
  if (!slot)
    return 0;
  free(dc->slot);
  dc->slot = slot;
  dc->n_slots = cap * 2;
  dc->cap = cap;
  for (int k = 0; k < dc->n; k++) { /* the index anew */
    size_t at = 0;
    find(dc, dc->v[k].buf, dc->v[k].line, &at);
    dc->slot[at] = k + 1;
  }
  return 1;
}

/* The line, loaded by `in` if it is not held; NULL when it cannot be
 * tracked (DC_MAX_LINES, out of memory). */
static DcLine *load(AscSanitizer *s, DCache *dc, const AscBlockState *b,
                    int32_t buf, int64_t line, const AscInstr *in) {
  size_t at = 0;
  int k = find(dc, buf, line, &at);
  if (k >= 0)
    return &dc->v[k];
  if (buf < 0 || dc->n >= DC_MAX_LINES)
    return NULL;
  if (dc->n == dc->cap || buf >= dc->n_args) {
    if (!grow(dc, buf))
      return NULL;
    find(dc, buf, line, &at);
  }
  k = dc->n++;
  dc->slot[at] = k + 1;
  dc->per_arg[buf]++;
  DcLine *l = &dc->v[k];
  memset(l, 0, sizeof *l);
  l->line = line;
  l->buf = buf;
  l->f_in = in;
  l->f_snap = san_gm_snap(s, b);
  return l;
}

/* Drops line k (its index: backward-shift deletion of linear probing; the
 * last line takes its place in v). */
static void drop(DCache *dc, int k) {
  size_t m = (size_t)dc->n_slots - 1, i = 0;
  find(dc, dc->v[k].buf, dc->v[k].line, &i);
  for (size_t j = (i + 1) & m; dc->slot[j]; j = (j + 1) & m) {
    const DcLine *o = &dc->v[dc->slot[j] - 1];
    size_t h = home(dc, o->buf, o->line);
    /* the entry at j may move to the hole at i unless its home lies
     * cyclically in (i, j] */
    if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
      dc->slot[i] = dc->slot[j];
      i = j;
    }
  }
  dc->slot[i] = 0;
  dc->per_arg[dc->v[k].buf]--;
  int last = --dc->n;
  if (k != last) {
    size_t at = 0;
    find(dc, dc->v[last].buf, dc->v[last].line, &at);
    dc->v[k] = dc->v[last];
    dc->slot[at] = k + 1;
  }
}

/* ---- records for the checks between blocks ------------------------------ */

static GmList *list_of(AscSanitizer *s, const AscBlockState *b) {
  return s->gm && b->block_idx >= 0 && b->block_idx < s->core_num
             ? &s->gm[b->block_idx]
             : NULL;
}

/* The dirty bytes of l are written back now: by `clean` (NULL: after the
 * kernel, or at an eviction). */
static void push_span(AscSanitizer *s, const AscBlockState *b, int32_t buf,
                      const DcLine *l, const AscInstr *clean) {
  GmList *g = list_of(s, b);
  if (!g || !l->dirty)
    return;
  if (g->n_spans == g->cap_spans) {
    int cap = g->cap_spans ? g->cap_spans * 2 : 8;
    DcSpan *v =
        cap > DC_MAX_RECS ? NULL : realloc(g->spans, sizeof *v * (size_t)cap);
    if (!v) {
      g->dc_oom = 1;
      return;
    }
    g->spans = v;
    g->cap_spans = cap;
  }
  DcSpan *p = &g->spans[g->n_spans++];
  p->line = l->line;
  p->mask = l->dirty;
  p->w_in = l->w_in;
  p->c_in = clean;
  p->buf = buf;
  p->block = b->block_idx;
  p->w_epoch = l->w_epoch;
  p->w_snap = l->w_snap;
  p->f_snap = l->f_snap;
  p->c_epoch = b->xsync_epoch;
}

static void push_read(AscSanitizer *s, const AscBlockState *b, int32_t buf,
                      const DcLine *l, uint64_t mask, const AscInstr *in) {
  GmList *g = list_of(s, b);
  if (!g)
    return;
  int32_t snap = san_gm_snap(s, b);
  for (int k = g->n_reads - 1; k >= 0 && k >= g->n_reads - DC_LOOKBACK; k--) {
    DcRead *r = &g->reads[k];
    if (r->in == in && r->buf == buf && r->line == l->line && r->snap == snap &&
        r->f_snap == l->f_snap) {
      r->mask |= mask;
      return;
    }
  }
  if (g->n_reads == g->cap_reads) {
    int cap = g->cap_reads ? g->cap_reads * 2 : 8;
    DcRead *v =
        cap > DC_MAX_RECS ? NULL : realloc(g->reads, sizeof *v * (size_t)cap);
    if (!v) {
      g->dc_oom = 1;
      return;
    }
    g->reads = v;
    g->cap_reads = cap;
  }
  DcRead *r = &g->reads[g->n_reads++];
  r->line = l->line;
  r->mask = mask;
  r->in = in;
  r->buf = buf;
  r->block = b->block_idx;
  r->snap = snap;
  r->f_snap = l->f_snap;
}

/* ---- reports ------------------------------------------------------------- */

/* "line 41" when in the file of `ref`, else "other.py:41". */
static const char *line_ref(AscLoc l, AscLoc ref, char *buf, size_t n) {
  if (!l.line)
    return "an earlier line";
  const char *f = l.file ? strrchr(l.file, '/') : NULL;
  if (l.file && ref.file && strcmp(l.file, ref.file) != 0)
    snprintf(buf, n, "%s:%d", f ? f + 1 : l.file, l.line);
  else
    snprintf(buf, n, "line %d", l.line);
  return buf;
}

static AscLoc loc_of(const AscInstr *in) {
  AscLoc none = {NULL, 0, 0};
  return in && in->src ? in->src->loc : none;
}

/* A report on `in` (pipe) and `other` (pipe2), about the bytes `bits` of
 * line `line` of argument buf. */
static Rep *dc_rep(Rep *r, AscSanKind kind, const AscBlockState *b,
                   const AscInstr *in, int pipe, const AscInstr *other,
                   int pipe2, int32_t buf, int64_t line, uint64_t bits) {
  san_rep_new(r, kind, b, in, pipe);
  san_rep_other(r, other, pipe2);
  r->r.space = ASC_SPACE_GM;
  r->r.buf = buf;
  r->r.lo = line * DC_LINE + low_bit(bits);
  r->r.hi = line * DC_LINE + high_bit(bits) + 1;
  return r;
}

/* ", or ..." about a DataCacheCleanAndInvalid after `since` that wrote
 * nothing back. */
static const char *no_gm_note(const DCache *dc, uint32_t since, AscLoc ref,
                              char *buf, size_t n) {
  char l1[128];
  if (!dc->no_gm || dc->no_gm_tick <= since)
    return "";
  const AscAttr *d = asc_op_attr(dc->no_gm->src, "dcci_dst");
  const char *name = d ? asc_enum_value_name(ASC_ENUM_DCCIDST, d->i) : NULL;
  snprintf(buf, n,
           " (DcciDst.%s at %s writes no GM line back: use CACHELINE_OUT or "
           "no dcci_dst)",
           name ? name : "CACHELINE_UB",
           line_ref(loc_of(dc->no_gm), ref, l1, sizeof l1));
  return buf;
}

/* A pipe reads bytes `bits` that line l holds dirty. */
static AscStatus stale_read(AscSanitizer *s, DCache *dc, AscBlockState *b,
                            const AscEvent *e, int32_t buf, const DcLine *l,
                            uint64_t bits, uint32_t seq) {
  Rep rep;
  Rep *r = dc_rep(&rep, ASC_SAN_STALE_READ, b, e->in, e->pipe, l->w_in,
                  ASC_PIPE_S, buf, l->line, bits);
  r->seq = seq;
  char a1[64], a2[64], w1[128], w2[128], l1[128], l2[128], note[384];
  AscLoc lr = r->r.loc, lw = r->r.loc2;
  san_msg(r,
          "stale read: %s (%s) at %s reads bytes [%lld, %lld) of kernel "
          "argument %d, which %s at %s wrote through the scalar unit's data "
          "cache; the 64-byte line [%lld, %lld) holding them is still dirty "
          "there (a scalar write changes the cached line, not GM, until the "
          "line is written back), so on the NPU it reads the old bytes from "
          "GM",
          san_api_of(e->in, a1, sizeof a1), asc_san_pipe_name(e->pipe),
          san_where(lr, w1, sizeof w1), (long long)r->r.lo, (long long)r->r.hi,
          buf, san_api_of(l->w_in, a2, sizeof a2), san_where(lw, w2, sizeof w2),
          (long long)(l->line * DC_LINE),
          (long long)(l->line * DC_LINE + DC_LINE));
  san_fix(r,
          "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, "
          "dst)` after %s and before %s, dst being the GlobalTensor of %s at "
          "the element it writes (dst[i]); or ENTIRE_DATA_CACHE for every "
          "line%s",
          line_ref(lw, lr, l1, sizeof l1), line_ref(lr, lr, l2, sizeof l2),
          line_ref(lw, lr, w1, sizeof w1),
          no_gm_note(dc, l->w_tick, lr, note, sizeof note));
  return san_emit(s, b, r);
}

/* A scalar read of bytes `bits` that a pipe wrote since line l was
 * loaded. */
static AscStatus stale_line(AscSanitizer *s, DCache *dc, AscBlockState *b,
                            const AscEvent *e, int32_t buf, const DcLine *l,
                            uint64_t bits, uint32_t seq) {
  Rep rep;
  int pp = l->p_pipe;
  Rep *r = dc_rep(&rep, ASC_SAN_STALE_LINE, b, e->in, ASC_PIPE_S, l->p_in, pp,
                  buf, l->line, bits);
  r->seq = seq;
  char a1[64], a2[64], a3[64], w1[128], w2[128], w3[128], l1[128], l2[128],
      note[384];
  AscLoc lr = r->r.loc, lp = r->r.loc2;
  san_msg(r,
          "stale cached line: %s at %s reads bytes [%lld, %lld) of kernel "
          "argument %d from the scalar unit's data cache, which holds the "
          "64-byte line [%lld, %lld) since %s at %s loaded it; %s (%s) at %s "
          "wrote those bytes to GM after that, past the cache, so on the NPU "
          "this read returns the old value",
          san_api_of(e->in, a1, sizeof a1), san_where(lr, w1, sizeof w1),
          (long long)r->r.lo, (long long)r->r.hi, buf,
          (long long)(l->line * DC_LINE),
          (long long)(l->line * DC_LINE + DC_LINE),
          san_api_of(l->f_in, a2, sizeof a2),
          san_where(loc_of(l->f_in), w2, sizeof w2),
          san_api_of(l->p_in, a3, sizeof a3), asc_san_pipe_name(pp),
          san_where(lp, w3, sizeof w3));
  san_fix(r,
          "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, "
          "dst)` after %s (once its %s work is done) and before %s, dst being "
          "the GlobalTensor of %s at the element it reads (dst[i])%s",
          line_ref(lp, lr, l1, sizeof l1), asc_san_pipe_name(pp),
          line_ref(lr, lr, l2, sizeof l2), line_ref(lr, lr, w1, sizeof w1),
          no_gm_note(dc, l->w_tick, lr, note, sizeof note));
  return san_emit(s, b, r);
}

/* A pipe writes bytes `bits` of line l, which the cache holds dirty. */
static AscStatus lost_pipe_write(AscSanitizer *s, DCache *dc, AscBlockState *b,
                                 const AscEvent *e, int32_t buf,
                                 const DcLine *l, uint64_t bits, uint32_t seq) {
  Rep rep;
  Rep *r = dc_rep(&rep, ASC_SAN_LOST_WRITE, b, e->in, e->pipe, l->w_in,
                  ASC_PIPE_S, buf, l->line, bits);
  r->seq = seq;
  char a1[64], a2[64], w1[128], w2[128], l1[128], l2[128], note[384];
  AscLoc lp = r->r.loc, lw = r->r.loc2;
  san_msg(r,
          "write lost to a cache write-back: %s (%s) at %s writes bytes "
          "[%lld, %lld) of kernel argument %d, in the 64-byte line [%lld, "
          "%lld) that %s at %s left dirty in the scalar unit's data cache; "
          "the cache writes a line back whole (at "
          "data_cache_clean_and_invalid, an eviction or the kernel's end), "
          "so on the NPU that write-back overwrites these bytes with the "
          "cache's older copy",
          san_api_of(e->in, a1, sizeof a1), asc_san_pipe_name(e->pipe),
          san_where(lp, w1, sizeof w1), (long long)r->r.lo, (long long)r->r.hi,
          buf, (long long)(l->line * DC_LINE),
          (long long)(l->line * DC_LINE + DC_LINE),
          san_api_of(l->w_in, a2, sizeof a2), san_where(lw, w2, sizeof w2));
  san_fix(r,
          "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, "
          "dst)` after %s and before %s, dst being the GlobalTensor of %s at "
          "the element it writes (dst[i]); or keep scalar and %s writes out "
          "of one 64-byte line%s",
          line_ref(lw, lp, l1, sizeof l1), line_ref(lp, lp, l2, sizeof l2),
          line_ref(lw, lp, w1, sizeof w1), asc_san_pipe_name(e->pipe),
          no_gm_note(dc, l->w_tick, lp, note, sizeof note));
  return san_emit(s, b, r);
}

/* A scalar write makes line l dirty while it holds bytes `bits` a pipe
 * wrote to GM after the line was loaded. */
static AscStatus lost_by_scalar(AscSanitizer *s, AscBlockState *b,
                                const AscEvent *e, int32_t buf, const DcLine *l,
                                uint64_t bits, uint32_t seq) {
  Rep rep;
  int pp = l->p_pipe;
  Rep *r = dc_rep(&rep, ASC_SAN_LOST_WRITE, b, e->in, ASC_PIPE_S, l->p_in, pp,
                  buf, l->line, bits);
  r->seq = seq;
  char a1[64], a2[64], a3[64], w1[128], w2[128], w3[128], l1[128], l2[128];
  AscLoc lw = r->r.loc, lp = r->r.loc2;
  san_msg(r,
          "write lost to a cache write-back: %s at %s makes the 64-byte line "
          "[%lld, %lld) of kernel argument %d dirty in the scalar unit's data "
          "cache, which holds it since %s at %s loaded it, before %s (%s) at "
          "%s wrote bytes [%lld, %lld) of it to GM; the cache writes a line "
          "back whole, so on the NPU its write-back overwrites those bytes "
          "with the old copy",
          san_api_of(e->in, a1, sizeof a1), san_where(lw, w1, sizeof w1),
          (long long)(l->line * DC_LINE),
          (long long)(l->line * DC_LINE + DC_LINE), buf,
          san_api_of(l->f_in, a2, sizeof a2),
          san_where(loc_of(l->f_in), w2, sizeof w2),
          san_api_of(l->p_in, a3, sizeof a3), asc_san_pipe_name(pp),
          san_where(lp, w3, sizeof w3), (long long)r->r.lo, (long long)r->r.hi);
  san_fix(r,
          "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, "
          "dst)` after %s (once its %s work is done) and before %s, so that "
          "the write loads the line again, dst being the GlobalTensor of %s "
          "at the element it writes (dst[i])",
          line_ref(lp, lw, l1, sizeof l1), asc_san_pipe_name(pp),
          line_ref(lw, lw, l2, sizeof l2), line_ref(lw, lw, w1, sizeof w1));
  return san_emit(s, b, r);
}

/* ---- events -------------------------------------------------------------- */

static AscStatus scalar_access(AscSanitizer *s, DCache *dc, AscBlockState *b,
                               const AscEvent *e, const AscAccess *a,
                               uint32_t seq) {
  AscStatus st = ASC_OK;
  for (int64_t line = a->lo / DC_LINE; line * DC_LINE < a->hi && !st; line++) {
    uint64_t bits = span_bits(a->lo, a->hi, line * DC_LINE);
    DcLine *l = load(s, dc, b, a->buf, line, e->in);
    if (!l)
      continue;
    if (!a->write) {
      if (l->stale & bits)
        st = stale_line(s, dc, b, e, a->buf, l, l->stale & bits, seq);
      push_read(s, b, a->buf, l, bits, e->in);
      continue;
    }
    uint64_t lost = l->stale & ~bits;
    if (!l->dirty && lost)
      st = lost_by_scalar(s, b, e, a->buf, l, lost, seq);
    l->stale &= ~bits;
    l->dirty |= bits;
    l->w_in = e->in;
    l->w_tick = dc->tick;
    l->w_epoch = b->xsync_epoch;
    l->w_snap = san_gm_snap(s, b);
  }
  return st;
}

/* A pipe's access to the lines held of its argument. */
static AscStatus pipe_line(AscSanitizer *s, DCache *dc, AscBlockState *b,
                           const AscEvent *e, const AscAccess *a, DcLine *l,
                           uint32_t seq) {
  uint64_t bits = access_bits(a->lo, a->hi, a->rows, a->row0, a->row_len,
                              a->row_step, l->line);
  if (!bits)
    return ASC_OK;
  if (!a->write)
    return l->dirty & bits
               ? stale_read(s, dc, b, e, a->buf, l, l->dirty & bits, seq)
               : ASC_OK;
  AscStatus st =
      l->dirty ? lost_pipe_write(s, dc, b, e, a->buf, l, bits, seq) : ASC_OK;
  l->stale |= bits;
  l->p_in = e->in;
  l->p_pipe = (int)e->pipe;
  return st;
}

static AscStatus pipe_access(AscSanitizer *s, DCache *dc, AscBlockState *b,
                             const AscEvent *e, const AscAccess *a,
                             uint32_t seq) {
  if (a->buf >= dc->n_args || !dc->per_arg[a->buf])
    return ASC_OK;
  int64_t first = a->lo / DC_LINE, last = (a->hi - 1) / DC_LINE;
  AscStatus st = ASC_OK;
  if (last - first < dc->per_arg[a->buf]) { /* the lines of the range */
    for (int64_t line = first; line <= last && !st; line++) {
      int k = find(dc, a->buf, line, NULL);
      if (k >= 0)
        st = pipe_line(s, dc, b, e, a, &dc->v[k], seq);
    }
    return st;
  }
  for (int k = 0; k < dc->n && !st; k++) /* fewer lines held than touched */
    if (dc->v[k].buf == a->buf && dc->v[k].line >= first &&
        dc->v[k].line <= last)
      st = pipe_line(s, dc, b, e, a, &dc->v[k], seq);
  return st;
}

static void clean_all(AscSanitizer *s, DCache *dc, const AscBlockState *b,
                      const AscInstr *in) {
  for (int k = 0; k < dc->n; k++)
    push_span(s, b, dc->v[k].buf, &dc->v[k], in);
  drop_all(dc);
}

AscStatus san_dc_event(AscSanitizer *s, DCache **pdc, AscBlockState *b,
                       const AscEvent *e, uint32_t seq) {
  DCache *dc = *pdc;
  int ops = e->kind == ASC_EV_OP;
  if (!dc) { /* nothing is cached until the scalar unit loads a line */
    int loads = e->dc_op == ASC_DC_PRELOAD;
    for (int i = 0; ops && i < e->n_acc; i++)
      loads |= e->acc[i].space == ASC_SPACE_GM && e->acc[i].scalar;
    if (!loads || !(dc = *pdc = calloc(1, sizeof *dc)))
      return ASC_OK;
  }
  dc->tick++;
  /* a debug print writes the cache back before it reads */
  if (e->dc_op == ASC_DC_CLEAN_ALL)
    clean_all(s, dc, b, e->in);
  AscStatus st = ASC_OK;
  for (int i = 0; ops && i < e->n_acc && !st; i++) {
    const AscAccess *a = &e->acc[i];
    /* a bounding range may hold bytes the access does not touch: it is
     * not checked (events.h) */
    if (a->space != ASC_SPACE_GM || a->bounding || a->buf < 0 || a->lo < 0 ||
        a->hi <= a->lo)
      continue;
    st = a->scalar ? scalar_access(s, dc, b, e, a, seq)
                   : pipe_access(s, dc, b, e, a, seq);
  }
  if (st)
    return st;
  if (e->dc_op == ASC_DC_CLEAN_LINE && e->dc_off >= 0) {
    int k = find(dc, e->dc_buf, e->dc_off / DC_LINE, NULL);
    if (k >= 0) { /* written back and invalidated */
      push_span(s, b, e->dc_buf, &dc->v[k], e->in);
      drop(dc, k);
    }
  } else if (e->dc_op == ASC_DC_NO_GM) {
    dc->no_gm = e->in;
    dc->no_gm_tick = dc->tick;
  } else if (e->dc_op == ASC_DC_PRELOAD && e->dc_off >= 0 && e->dc_buf >= 0 &&
             e->dc_buf < b->n_args &&
             (uint64_t)e->dc_off < (uint64_t)b->args[e->dc_buf].nbytes) {
    load(s, dc, b, e->dc_buf, e->dc_off / DC_LINE, e->in);
  }
  return ASC_OK;
}

void san_dc_block_end(AscSanitizer *s, DCache *dc, const AscBlockState *b) {
  for (int k = 0; k < dc->n; k++)
    push_span(s, b, dc->v[k].buf, &dc->v[k], NULL);
}

/* ---- between blocks ------------------------------------------------------ */

typedef struct Cross {
  AscSanitizer *s;
  GmRec *p;       /* the pipes' GM records, by (argument, start) */
  int64_t *reach; /* reach[j]: the furthest end of p[..j] in its argument */
  int np;
  DcSpan *spans; /* by (argument, line) */
  int ns;
  DcRead *reads; /* by (argument, line) */
  int nr;
  long budget;
} Cross;

static int cmp_rec(const void *pa, const void *pb) {
  const GmRec *a = pa, *b = pb;
  if (a->buf != b->buf)
    return a->buf < b->buf ? -1 : 1;
  return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int cmp_span(const void *pa, const void *pb) {
  const DcSpan *a = pa, *b = pb;
  if (a->buf != b->buf)
    return a->buf < b->buf ? -1 : 1;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  return a->block < b->block ? -1 : a->block > b->block;
}

static int cmp_read(const void *pa, const void *pb) {
  const DcRead *a = pa, *b = pb;
  if (a->buf != b->buf)
    return a->buf < b->buf ? -1 : 1;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  return a->block < b->block ? -1 : a->block > b->block;
}

/* The pipe records of argument buf starting before byte `end`: p[..k). */
static int recs_before(const Cross *c, int32_t buf, int64_t end) {
  int lo = 0, hi = c->np;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (c->p[mid].buf < buf || (c->p[mid].buf == buf && c->p[mid].lo < end))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static uint64_t rec_bits(const GmRec *g, int64_t line) {
  return access_bits(g->lo, g->hi, g->rows, g->row0, g->row_len, g->row_step,
                     line);
}

static int before(const Cross *c, int xb, int32_t x_epoch, int yb,
                  int32_t y_snap) {
  return san_gm_before(c->s, xb, x_epoch, yb, y_snap);
}

/* the span's write-back happens before an access of block yb at y_snap */
static int cleaned_before(const Cross *c, const DcSpan *x, int yb,
                          int32_t y_snap) {
  return x->c_in && before(c, x->block, x->c_epoch, yb, y_snap);
}

static const char *write_back_of(const DcSpan *x, AscLoc ref, char *buf,
                                 size_t n) {
  char l1[128];
  if (!x->c_in)
    return "at an eviction or after the kernel (no "
           "data_cache_clean_and_invalid)";
  snprintf(buf, n, "at its data_cache_clean_and_invalid at %s",
           line_ref(loc_of(x->c_in), ref, l1, sizeof l1));
  return buf;
}

/* Block y reads (a pipe's GmRec g, or scalar reads r of a cached copy)
 * bytes `bits` of span x's line that x's write left dirty, ordered after
 * that write but not after its write-back. */
static void cross_stale_read(Cross *c, const DcSpan *x, const GmRec *g,
                             const DcRead *r, uint64_t bits) {
  const AscInstr *in = g ? g->in : r->in;
  int yb = g ? g->block : r->block;
  int pipe = g ? (int)g->pipe : ASC_PIPE_S;
  Rep rep;
  Rep *p = dc_rep(&rep, ASC_SAN_STALE_READ, NULL, in, pipe, x->w_in, ASC_PIPE_S,
                  x->buf, x->line, bits);
  p->r.block = yb;
  p->r.block2 = x->block;
  char a1[64], a2[64], w1[128], w2[128], l1[128], l2[128], wb[192];
  AscLoc lr = p->r.loc, lw = p->r.loc2;
  int late_load = r && cleaned_before(c, x, yb, r->snap);
  char why[512];
  if (late_load)
    snprintf(why, sizeof why,
             "and its write-back %s, before the read, but block %d's data "
             "cache holds the line since before that write-back and answers "
             "from its old copy",
             write_back_of(x, lr, wb, sizeof wb), yb);
  else
    snprintf(why, sizeof why,
             "before the read, but block %d writes the line back only %s, "
             "which is not ordered before it",
             x->block, write_back_of(x, lr, wb, sizeof wb));
  san_msg(p,
          "stale read between blocks: %s (%s) at %s in block %d reads bytes "
          "[%lld, %lld) of kernel argument %d, which %s at %s in block %d "
          "wrote through its data cache; cross-block synchronisation orders "
          "the write %s, so on the NPU the read sees the old bytes",
          san_api_of(in, a1, sizeof a1), asc_san_pipe_name(pipe),
          san_where(lr, w1, sizeof w1), yb, (long long)p->r.lo,
          (long long)p->r.hi, x->buf, san_api_of(x->w_in, a2, sizeof a2),
          san_where(lw, w2, sizeof w2), x->block, why);
  if (late_load)
    san_fix(p,
            "in block %d, after the synchronisation and before %s: "
            "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_"
            "LINE, dst)`, dst being the GlobalTensor of %s at the element it "
            "reads (dst[i])",
            yb, line_ref(lr, lr, l1, sizeof l1),
            line_ref(lr, lr, l2, sizeof l2));
  else
    san_fix(p,
            "in block %d, write the line back after %s and before the "
            "cross-block synchronisation: "
            "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_"
            "LINE, dst)`, dst being the GlobalTensor of %s at the element it "
            "writes (dst[i])%s",
            x->block, line_ref(lw, lr, l1, sizeof l1),
            line_ref(lw, lr, l2, sizeof l2),
            r ? "; the reader must not hold the line from before it" : "");
  san_keep(c->s, p);
}

/* Block r->block reads, from a copy of the line loaded before it, bytes
 * `bits` that pipe record g of another block wrote, ordered before the
 * read. */
static void cross_stale_line(Cross *c, const DcRead *r, const GmRec *g,
                             uint64_t bits) {
  Rep rep;
  Rep *p = dc_rep(&rep, ASC_SAN_STALE_LINE, NULL, r->in, ASC_PIPE_S, g->in,
                  g->pipe, r->buf, r->line, bits);
  p->r.block = r->block;
  p->r.block2 = g->block;
  char a1[64], a2[64], w1[128], w2[128], l1[128], l2[128];
  AscLoc lr = p->r.loc, lp = p->r.loc2;
  san_msg(p,
          "stale cached line between blocks: %s at %s in block %d reads "
          "bytes [%lld, %lld) of kernel argument %d from its data cache, "
          "whose copy of the 64-byte line [%lld, %lld) was loaded before "
          "%s (%s) at %s in block %d wrote those bytes to GM (cross-block "
          "synchronisation orders that write before the read, not before "
          "the load), so on the NPU the read returns the old value",
          san_api_of(r->in, a1, sizeof a1), san_where(lr, w1, sizeof w1),
          r->block, (long long)p->r.lo, (long long)p->r.hi, r->buf,
          (long long)(r->line * DC_LINE),
          (long long)(r->line * DC_LINE + DC_LINE),
          san_api_of(g->in, a2, sizeof a2), asc_san_pipe_name(g->pipe),
          san_where(lp, w2, sizeof w2), g->block);
  san_fix(p,
          "in block %d, after the synchronisation and before %s: "
          "`asc.data_cache_clean_and_invalid(asc.CacheLine.SINGLE_CACHE_LINE, "
          "dst)`, dst being the GlobalTensor of %s at the element it reads "
          "(dst[i])",
          r->block, line_ref(lr, lr, l1, sizeof l1),
          line_ref(lr, lr, l2, sizeof l2));
  san_keep(c->s, p);
}

/* Block y writes (a pipe's GmRec g, or the scalar writes of span y) bytes
 * `bits` of the line span x holds dirty, and x's write-back may come after
 * that write. */
static void cross_lost(Cross *c, const DcSpan *x, const GmRec *g,
                       const DcSpan *y, uint64_t bits) {
  const AscInstr *in = g ? g->in : y->w_in;
  int yb = g ? g->block : y->block;
  int pipe = g ? (int)g->pipe : ASC_PIPE_S;
  Rep rep;
  Rep *p = dc_rep(&rep, ASC_SAN_LOST_WRITE, NULL, in, pipe, x->w_in, ASC_PIPE_S,
                  x->buf, x->line, bits);
  p->r.block = yb;
  p->r.block2 = x->block;
  char a1[64], a2[64], w1[128], w2[128], l1[128], wb[192];
  AscLoc ly = p->r.loc, lx = p->r.loc2;
  char why[320];
  if (y)
    snprintf(why, sizeof why,
             "neither block's write-back is ordered before the other's load "
             "of the line, so on the NPU the later write-back overwrites the "
             "other block's bytes with old data");
  else
    snprintf(why, sizeof why,
             "block %d's write-back (%s) is not ordered before this write, so "
             "on the NPU it can overwrite these bytes with old data",
             x->block, write_back_of(x, ly, wb, sizeof wb));
  san_msg(p,
          "write lost between blocks: %s (%s) at %s in block %d writes "
          "bytes [%lld, %lld) of kernel argument %d, in the 64-byte line "
          "[%lld, %lld) that %s at %s in block %d keeps dirty in its data "
          "cache; caches write lines back whole, and %s",
          san_api_of(in, a1, sizeof a1), asc_san_pipe_name(pipe),
          san_where(ly, w1, sizeof w1), yb, (long long)p->r.lo,
          (long long)p->r.hi, x->buf, (long long)(x->line * DC_LINE),
          (long long)(x->line * DC_LINE + DC_LINE),
          san_api_of(x->w_in, a2, sizeof a2), san_where(lx, w2, sizeof w2),
          x->block, why);
  san_fix(p,
          "keep the bytes each block writes in 64-byte lines of its own (the "
          "devkit's SetValue asks that cores be a cache line apart), e.g. "
          "offset each block's elements by a multiple of 64 bytes; or in "
          "block %d write the line back after %s "
          "(asc.data_cache_clean_and_invalid) before a cross-block sync that "
          "orders it before the other write",
          x->block, line_ref(lx, ly, l1, sizeof l1));
  san_keep(c->s, p);
}

/* Span x against the other blocks' pipe records that meet its line. */
static void span_vs_pipes(Cross *c, const DcSpan *x) {
  int64_t base = x->line * DC_LINE;
  int k = recs_before(c, x->buf, base + DC_LINE);
  for (int j = k - 1;
       j >= 0 && c->p[j].buf == x->buf && c->reach[j] > base && c->budget > 0;
       j--, c->budget--) {
    const GmRec *g = &c->p[j];
    if (g->block == x->block || g->hi <= base)
      continue;
    uint64_t bits = rec_bits(g, x->line);
    if (!bits)
      continue;
    if (!g->write) {
      /* ordered after the write but not after the write-back (unordered
       * pairs on the same bytes are core races) */
      if ((bits & x->mask) &&
          before(c, x->block, x->w_epoch, g->block, g->snap) &&
          !cleaned_before(c, x, g->block, g->snap))
        cross_stale_read(c, x, g, NULL, bits & x->mask);
      continue;
    }
    if ((g->snap >= 0 && before(c, g->block, g->epoch, x->block, x->f_snap)) ||
        cleaned_before(c, x, g->block, g->snap))
      continue; /* in GM before the line was loaded, or after its write-back */
    if ((bits & x->mask) &&
        !before(c, x->block, x->w_epoch, g->block, g->snap) &&
        !(g->snap >= 0 && before(c, g->block, g->epoch, x->block, x->w_snap)))
      continue; /* a core race on the same bytes, reported as such */
    cross_lost(c, x, g, NULL, bits);
  }
}

/* Span x against the other blocks' scalar reads and spans of its line. */
static void span_vs_scalar(Cross *c, const DcSpan *x) {
  DcRead key = {x->line, 0, NULL, x->buf, -1, 0, 0};
  int lo = 0, hi = c->nr;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cmp_read(&c->reads[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (int j = lo; j < c->nr && c->reads[j].buf == x->buf &&
                   c->reads[j].line == x->line && c->budget > 0;
       j++, c->budget--) {
    const DcRead *r = &c->reads[j];
    if (r->block != x->block && (r->mask & x->mask) &&
        before(c, x->block, x->w_epoch, r->block, r->snap) &&
        !cleaned_before(c, x, r->block, r->f_snap))
      cross_stale_read(c, x, NULL, r, r->mask & x->mask);
  }
  /* spans of later blocks on the same line (each pair once) */
  for (const DcSpan *y = x + 1; y < c->spans + c->ns && y->buf == x->buf &&
                                y->line == x->line && c->budget > 0;
       y++, c->budget--) {
    if (y->block == x->block)
      continue;
    if (cleaned_before(c, y, x->block, x->f_snap) ||
        cleaned_before(c, x, y->block, y->f_snap))
      continue; /* one copy was loaded after the other's write-back */
    if ((x->mask & y->mask) &&
        !before(c, x->block, x->w_epoch, y->block, y->w_snap) &&
        !before(c, y->block, y->w_epoch, x->block, x->w_snap))
      continue; /* a core race on the same bytes, reported as such */
    cross_lost(c, x, NULL, y, y->mask);
  }
}

/* Scalar read r against the other blocks' pipe writes to its bytes. */
static void read_vs_pipes(Cross *c, const DcRead *r) {
  int64_t base = r->line * DC_LINE;
  int k = recs_before(c, r->buf, base + DC_LINE);
  for (int j = k - 1;
       j >= 0 && c->p[j].buf == r->buf && c->reach[j] > base && c->budget > 0;
       j--, c->budget--) {
    const GmRec *g = &c->p[j];
    if (g->block == r->block || !g->write || g->hi <= base || g->snap < 0)
      continue;
    uint64_t bits = rec_bits(g, r->line) & r->mask;
    if (bits && before(c, g->block, g->epoch, r->block, r->snap) &&
        !before(c, g->block, g->epoch, r->block, r->f_snap))
      cross_stale_line(c, r, g, bits);
  }
}

void san_dc_races(AscSanitizer *s) {
  Cross c;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.budget = 4000000; /* bounded work for pathological overlaps */
  int np = 0;
  for (int i = 0; i < s->core_num; i++) {
    if (s->gm[i].oom && s->gm[i].n_snaps)
      return; /* the ordering is incomplete: no reports */
    c.ns += s->gm[i].n_spans;
    c.nr += s->gm[i].n_reads;
  }
  if (!c.ns && !c.nr) /* no block used its data cache */
    return;
  for (int i = 0; i < s->core_num; i++)
    for (int k = 0; k < s->gm[i].n; k++)
      np += !s->gm[i].v[k].scalar && !s->gm[i].v[k].bounding;
  c.p = malloc(sizeof *c.p * (size_t)(np ? np : 1));
  c.reach = malloc(sizeof *c.reach * (size_t)(np ? np : 1));
  c.spans = malloc(sizeof *c.spans * (size_t)(c.ns ? c.ns : 1));
  c.reads = malloc(sizeof *c.reads * (size_t)(c.nr ? c.nr : 1));
  if (!c.p || !c.reach || !c.spans || !c.reads)
    goto done;
  int ns = 0, nr = 0;
  for (int i = 0; i < s->core_num; i++) {
    const GmList *g = &s->gm[i];
    for (int k = 0; k < g->n; k++)
      if (!g->v[k].scalar && !g->v[k].bounding)
        c.p[c.np++] = g->v[k];
    if (g->n_spans) /* (memcpy wants a buffer even for no bytes) */
      memcpy(c.spans + ns, g->spans, sizeof *g->spans * (size_t)g->n_spans);
    ns += g->n_spans;
    if (g->n_reads)
      memcpy(c.reads + nr, g->reads, sizeof *g->reads * (size_t)g->n_reads);
    nr += g->n_reads;
  }
  qsort(c.p, (size_t)c.np, sizeof *c.p, cmp_rec);
  qsort(c.spans, (size_t)c.ns, sizeof *c.spans, cmp_span);
  qsort(c.reads, (size_t)c.nr, sizeof *c.reads, cmp_read);
  for (int j = 0; j < c.np; j++)
    c.reach[j] = j && c.p[j - 1].buf == c.p[j].buf && c.reach[j - 1] > c.p[j].hi
                     ? c.reach[j - 1]
                     : c.p[j].hi;
  for (int i = 0; i < c.ns && c.budget > 0; i++) {
    span_vs_pipes(&c, &c.spans[i]);
    span_vs_scalar(&c, &c.spans[i]);
  }
  for (int i = 0; i < c.nr && c.budget > 0; i++)
    read_vs_pipes(&c, &c.reads[i]);
done:
  free(c.p);
  free(c.reach);
  free(c.spans);
  free(c.reads);
}
