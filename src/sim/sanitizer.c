/* The sanitizer: happens-before between the pipes of a core, shadow memory
 * of the Unified Buffer. Its global-memory part (the records of GM accesses,
 * overruns, races between blocks) is in sanitizer_gm.c; what the two share,
 * in sanitizer_impl.h.
 *
 * Happens-before, by vector clocks. Every instruction that touches local
 * memory gets a sequence number (seq, per block, increasing in program
 * order); last[Q] is the seq of the latest such instruction issued to pipe
 * Q. vc[P].c[Q] is the highest seq of a pipe-Q instruction known to have
 * finished before pipe P's next instruction starts. An earlier access
 * (pipe Q, seq s) is ordered before an access on pipe P iff
 * s <= vc[P].c[Q]. The rules (sources in docs/sanitizer.md):
 *   - set_flag(Q→P) is executed once every earlier Q instruction finished:
 *     it publishes vc[Q] with c[Q] = last[Q]; the wait_flag that consumes
 *     it joins that into vc[P]. A wait on the scalar unit (X_S) blocks the
 *     issue of everything after it, so it is joined into every pipe.
 *   - pipe_barrier(P): vc[P].c[P] = last[P]; PIPE_ALL: every pipe learns
 *     every pipe's last.
 *   - TQue, per buffer: enque = set_flag(producer→consumer), deque = its
 *     wait; free_tensor = set_flag(consumer→producer), alloc_tensor = its
 *     wait.
 *   - a pipe orders its own instructions when the hardware or the compiler
 *     does: S always; V under auto-sync (the compiler inserts
 *     PipeBarrier<PIPE_V>); MTE2 / MTE3 never (copies to overlapping
 *     destinations need a PipeBarrier).
 *   - under auto-sync an unordered conflict between the scalar unit and the
 *     V / MTE2 / MTE3 pipes is ordered as the compiler's flags order it.
 *
 * Shadow memory, per 32-byte UB block: for each pipe the seq of its last
 * write and of its last read there (0: none). A write does not clear the
 * other pipes' entries: it was checked against them, and clocks only grow
 * by joins, so whatever is ordered after the write is ordered after them
 * too (a stale entry never makes a false report). A check is a
 * max-reduction per pipe over the range (the compiler vectorises it),
 * skipped for a pipe whose every entry is ordered; only a violation scans
 * the range for the culprit. One more bit per UB byte says it was written
 * in this block (uninitialised reads are exact to the byte; races to the
 * 32-byte block, the granule of every vector and DMA access).
 *
 * Threads: a launch's blocks run on worker threads; each worker keeps its
 * shadow (from a process-wide pool, reused across launches) in a
 * thread-local slot set by block_begin. Reports go to the sanitizer under
 * its lock; they are rare. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "sanitizer_impl.h"
#include "sanitizer_map.h"

/* Cold paths (reports) and the rarer events stay out of the hot ones. */
#if defined(__GNUC__)
#define SAN_NOINLINE __attribute__((noinline))
#else
#define SAN_NOINLINE
#endif

enum {
  NP = ASC_PIPE_COUNT,
  NEV = ASC_MAX_EVENTS,
  NID = ASC_MAX_EVENT_IDS,
  NBUF = ASC_MAX_QUE_BUFS,
  RECENT = 8,        /* recent writes remembered for uninitialised reads */
  MAX_REPORTS = 256, /* per launch; more are counted, not kept */
  /* sanitizer objects kept for later launches, with their per-block GM
   * record buffers up to GM_KEEP entries each (sanitizer_gm.c) */
  SAN_CACHE = 2,
};
_Static_assert(ASC_MAX_EVENTS <= 64, "ev_used has a bit per HardEvent");
_Static_assert(2 * ASC_PIPE_COUNT <= 32, "touched has a bit per map");
#define LOG_MAX ((uint32_t)1 << 22) /* instructions remembered for reports */
#define SEQ_MAX ((uint32_t)0xFFFFFFF0u)

typedef struct VC {
  uint32_t c[NP];
} VC;

typedef struct SanQue {
  const void *que;
  uint64_t enq_valid, free_valid;
  VC enq[NBUF], freed[NBUF];
  const AscInstr *alloc_in[NBUF];
} SanQue;

typedef struct Recent {
  uint32_t seq;
  const AscInstr *in;
  int64_t lo, hi;
} Recent;

/* The shadow state of the block a worker runs. */
struct Shadow {
  struct Shadow *next; /* in the pool, or in a launch's in-use list */
  int64_t ub_size, nblk;
  /* family: cube: the shadow covers the UB, then each cube memory
   * (SimCubeMem order) from base[1 + mem]: local addresses of one space,
   * `size` bytes in all (base[0] = 0: the UB) */
  int64_t base[1 + SIM_CMEM_COUNT], size;
  /* the local accesses of the running instruction, at local addresses */
  AscAccess cur[ASC_EVENT_MAX_ACCESSES];
  int n_cur;
  /* per 32-byte block, the seq of each pipe's last write and last read
   * (sanitizer_map.c: held per range) */
  SanMap w[NP], r[NP];
  SanSet init;       /* the bytes written in this block */
  uint32_t touched;  /* maps set since the reset: w[p] bit p, r[p] NP + p */
  int ready;         /* the maps are made for `size` */
  int off;           /* checking stopped (seq overflow, out of memory) */
  uint32_t seq;      /* of the latest instruction that touched the UB */
  uint32_t last[NP]; /* seq of the latest such instruction of each pipe */
  VC vc[NP];
  /* set_flag state per (HardEvent, id) */
  uint8_t pending[NEV][NID]; /* a set_flag not yet waited for */
  uint16_t held[NEV][NID];   /* wait_flags issued before their set_flag */
  VC flag_vc[NEV][NID];
  const AscInstr *flag_in[NEV][NID];
  int n_pending;
  uint8_t ids_used[NEV];
  uint64_t ev_used; /* bit ev: pending/held/ids_used[ev] may be nonzero */
  SanQue *ques;
  int n_ques, cap_ques;
  const AscInstr **log; /* log[seq]: the instruction */
  uint32_t log_cap;
  Recent recent[RECENT];
  int n_recent;
  DCache *dc; /* the block's data cache, made on its first use */
};

/* ---- names --------------------------------------------------------------- */

const char *asc_san_pipe_name(int pipe) {
  static const char *const names[] = {"S",    "V",    "M",  "MTE1",
                                      "MTE2", "MTE3", "FIX"};
  return pipe >= 0 && pipe < NP ? names[pipe] : "?";
}

const char *asc_san_kind_name(AscSanKind kind) {
  switch (kind) {
  case ASC_SAN_RACE:
    return "race";
  case ASC_SAN_CORE_RACE:
    return "core-race";
  case ASC_SAN_UNINIT:
    return "uninit";
  case ASC_SAN_SYNC:
    return "sync";
  case ASC_SAN_ALIGN:
    return "align";
  case ASC_SAN_OVERRUN:
    return "overrun";
  case ASC_SAN_STALE_READ:
    return "stale-read";
  case ASC_SAN_STALE_LINE:
    return "stale-line";
  case ASC_SAN_LOST_WRITE:
    return "lost-write";
  }
  return "?";
}

static const char *pipe_id_name(int pipe) {
  static const char *const names[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",
                                      "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                      "PIPE_FIX"};
  return pipe >= 0 && pipe < NP ? names[pipe] : "PIPE_ALL";
}

/* The HardEvent from pipe src to pipe dst, or -1. */
static int hard_event(int src, int dst) {
  for (int e = 0; e < NEV; e++) {
    AscPipe s, d;
    if (!asc_enum_value_name(ASC_ENUM_HARDEVENT, e))
      continue;
    asc_event_pipes(e, &s, &d);
    if ((int)s == src && (int)d == dst)
      return e;
  }
  return -1;
}

static const char *event_name(int64_t ev) {
  const char *n = asc_enum_value_name(ASC_ENUM_HARDEVENT, ev);
  return n ? n : "?";
}

static const char *op_name_of(const AscInstr *in) {
  if (!in || !in->src)
    return NULL;
  const AscOpInfo *info = asc_op_info(in->src->id);
  return info ? info->name : NULL;
}

/* The Python API an IR op stands for ("asc.data_copy.gm_to_local" →
 * "asc.data_copy", "asc.tque.enque" → "TQue.enque"). */
const char *san_api_of(const AscInstr *in, char *buf, size_t n) {
  /* family: matmul: a step of asc.adv.Matmul's sequence (subevents.c) */
  const char *step = sim_step_label(in);
  if (step)
    return step;
  const char *op = op_name_of(in);
  if (!op)
    return "an earlier instruction";
  static const struct {
    const char *prefix, *cls;
  } classes[] = {{"asc.local_tensor.", "LocalTensor."},
                 {"asc.global_tensor.", "GlobalTensor."},
                 {"asc.tque.", "TQue."},
                 {"asc.tbuf.", "TBuf."}};
  if (strncmp(op, "asc.data_copy.", 14) == 0)
    return "asc.data_copy";
  /* family: cube: the forms of asc.load_data and asc.mmad */
  if (strncmp(op, "asc.load_data.", 14) == 0)
    return "asc.load_data";
  if (strncmp(op, "asc.mmad.", 9) == 0)
    return "asc.mmad";
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
    size_t k = strlen(classes[i].prefix);
    if (strncmp(op, classes[i].prefix, k) == 0) {
      snprintf(buf, n, "%s%s", classes[i].cls, op + k);
      return buf;
    }
  }
  return op;
}

static AscLoc loc_of(const AscInstr *in) {
  AscLoc none = {NULL, 0, 0};
  return in && in->src ? in->src->loc : none;
}

static const char *base_name(const char *file) {
  if (!file)
    return "?";
  const char *s = strrchr(file, '/');
  return s ? s + 1 : file;
}

/* "add.py:41" */
const char *san_where(AscLoc l, char *buf, size_t n) {
  if (!l.line)
    return "an unknown line";
  snprintf(buf, n, "%s:%d", base_name(l.file), l.line);
  return buf;
}

/* "line 41" when in the file of `ref`, else "other.py:41". */
static const char *line_ref(AscLoc l, AscLoc ref, char *buf, size_t n) {
  if (!l.line)
    return "the earlier access";
  if (l.file && ref.file && strcmp(l.file, ref.file) != 0)
    snprintf(buf, n, "%s:%d", base_name(l.file), l.line);
  else
    snprintf(buf, n, "line %d", l.line);
  return buf;
}

/* ---- the shadow pool ----------------------------------------------------- */

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static Shadow *pool;

/* Sanitizer objects of ended launches, kept with their buffers: a launch
 * of a small kernel then allocates nothing. */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static AscSanitizer *cache[SAN_CACHE];
static int n_cache;

/* fork: a launch on another thread may hold either lock at that moment;
 * held across the fork, both are free in the child, whose pool and cache
 * stay valid (what they hold is plain memory no thread uses). */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void fork_prepare(void) {
  pthread_mutex_lock(&pool_lock);
  pthread_mutex_lock(&cache_lock);
}
static void fork_done(void) {
  pthread_mutex_unlock(&cache_lock);
  pthread_mutex_unlock(&pool_lock);
}
static void register_fork(void) {
  pthread_atfork(fork_prepare, fork_done, fork_done);
}
static atomic_uint_fast64_t next_launch_id = 1;

static void shadow_destroy(Shadow *sh) {
  if (!sh)
    return;
  for (int p = 0; p < NP; p++) {
    san_map_free(&sh->w[p]);
    san_map_free(&sh->r[p]);
  }
  san_set_free(&sh->init);
  free(sh->ques);
  free(sh->log);
  san_dc_free(sh->dc);
  free(sh);
}

static Shadow *shadow_take(const AscBlockState *b) {
  int64_t ub_size = b->ub_size, base[1 + SIM_CMEM_COUNT], size = ub_size;
  base[0] = 0;
  for (int m = 0; m < SIM_CMEM_COUNT; m++) {
    base[1 + m] = size;
    size += sim_cube_mem_size(b, m);
  }
  pthread_once(&fork_once, register_fork);
  pthread_mutex_lock(&pool_lock);
  Shadow *sh = pool;
  if (sh)
    pool = sh->next;
  pthread_mutex_unlock(&pool_lock);
  if (!sh && !(sh = calloc(1, sizeof *sh)))
    return NULL;
  sh->next = NULL;
  if (size > INT32_MAX - 64) { /* units of the maps are int32 */
    shadow_destroy(sh);
    return NULL;
  }
  if (sh->ub_size != ub_size || sh->size != size || !sh->ready) {
    int64_t nblk = (size + 31) / 32;
    for (int p = 0; p < NP; p++) {
      san_map_free(&sh->w[p]);
      san_map_free(&sh->r[p]);
      san_map_init(&sh->w[p], (int32_t)nblk);
      san_map_init(&sh->r[p], (int32_t)nblk);
    }
    san_set_free(&sh->init);
    san_set_init(&sh->init, (int32_t)size);
    sh->ub_size = ub_size;
    sh->size = size;
    memcpy(sh->base, base, sizeof base);
    sh->nblk = nblk;
    sh->ready = 1;
  }
  return sh;
}

static void shadow_give(Shadow *sh) {
  pthread_mutex_lock(&pool_lock);
  sh->next = pool;
  pool = sh;
  pthread_mutex_unlock(&pool_lock);
}

/* Back to the state of a block that has done nothing. */
static void shadow_reset(Shadow *sh) {
  /* only what the block used: a tiny kernel's blocks pay for little */
  for (uint32_t t = sh->touched; t; t &= t - 1) {
    int i = __builtin_ctz(t);
    SanMap *m = i < NP ? &sh->w[i] : &sh->r[i - NP];
    if (m->dense)
      san_map_reset(m);
    m->n = 0;
    m->max = 0;
  }
  sh->touched = 0;
  if (sh->init.bits)
    san_set_reset(&sh->init);
  sh->init.n = 0;
  sh->off = 0;
  sh->seq = 0;
  memset(sh->last, 0, sizeof sh->last);
  memset(sh->vc, 0, sizeof sh->vc);
  for (uint64_t u = sh->ev_used; u; u &= u - 1) {
    int ev = __builtin_ctzll(u);
    memset(sh->pending[ev], 0, sizeof sh->pending[ev]);
    memset(sh->held[ev], 0, sizeof sh->held[ev]);
    sh->ids_used[ev] = 0;
  }
  sh->ev_used = 0;
  sh->n_pending = 0;
  sh->n_ques = 0;
  sh->n_recent = 0;
  if (sh->dc)
    san_dc_reset(sh->dc);
}

/* ---- vector clocks ------------------------------------------------------- */

static int auto_sync(const AscSanitizer *s) {
  return (s->flags & ASC_SAN_AUTO_SYNC) != 0;
}

/* Pipes whose instructions are ordered among themselves. */
static int self_ordered(const AscSanitizer *s, int p) {
  return p == ASC_PIPE_S || (p == ASC_PIPE_V && auto_sync(s));
}

/* The pipes of the vector core the compiler synchronises with the scalar
 * unit under auto-sync. */
static int aiv_pipe(int p) {
  return p == ASC_PIPE_V || p == ASC_PIPE_MTE2 || p == ASC_PIPE_MTE3;
}

/* What pipe p has finished, as a flag set on it now tells, written to
 * *out. (Clocks are written where they are kept: a copy whose one entry
 * was just stored stalls the load that reads it whole.) */
static void publish(VC *out, const Shadow *sh, int p) {
  for (int i = 0; i < NP; i++)
    out->c[i] = i == p ? sh->last[p] : sh->vc[p].c[i];
}

static void join(VC *into, const VC *v) {
  for (int i = 0; i < NP; i++) /* (no branch: the compiler's max) */
    into->c[i] = v->c[i] > into->c[i] ? v->c[i] : into->c[i];
}

/* join(into, the clock pipe p publishes now) */
static void join_published(VC *into, const Shadow *sh, int p) {
  for (int i = 0; i < NP; i++) {
    uint32_t c = i == p ? sh->last[p] : sh->vc[p].c[i];
    into->c[i] = c > into->c[i] ? c : into->c[i];
  }
}

/* wait_on(sh, p, the clock pipe src publishes now) */
static void wait_on_published(Shadow *sh, int p, int src) {
  VC v;
  publish(&v, sh, src);
  if (p == ASC_PIPE_S)
    for (int q = 0; q < NP; q++)
      join(&sh->vc[q], &v);
  else
    join_published(&sh->vc[p], sh, src);
}

/* A wait on pipe p; the scalar unit blocks every later issue. */
static void wait_on(Shadow *sh, int p, const VC *v) {
  if (p == ASC_PIPE_S)
    for (int q = 0; q < NP; q++)
      join(&sh->vc[q], v);
  else
    join(&sh->vc[p], v);
}

/* The clock an access on pipe p is checked with. */
static void view(const AscSanitizer *s, const Shadow *sh, int p,
                 uint32_t *ord) {
  memcpy(ord, sh->vc[p].c, sizeof(uint32_t) * NP);
  if (self_ordered(s, p))
    ord[p] = sh->last[p];
}

/* ---- reports ------------------------------------------------------------- */

Rep *san_rep_new(Rep *r, AscSanKind kind, const AscBlockState *b,
                 const AscInstr *in, int pipe) {
  memset(r, 0, sizeof *r);
  r->r.kind = kind;
  r->r.block = b ? b->block_idx : -1;
  r->r.block2 = -1;
  r->r.loc = loc_of(in);
  r->r.op = op_name_of(in);
  r->r.pipe = pipe;
  r->r.pipe2 = NP;
  r->r.space = -1;
  r->r.buf = -1;
  r->k1 = in;
  return r;
}

void san_rep_other(Rep *r, const AscInstr *in, int pipe) {
  r->r.loc2 = loc_of(in);
  r->r.op2 = op_name_of(in);
  r->r.pipe2 = pipe;
  r->k2 = in;
}

void san_msg(Rep *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->r.message, sizeof r->r.message, fmt, ap);
  va_end(ap);
}

void san_fix(Rep *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->r.fix, sizeof r->r.fix, fmt, ap);
  va_end(ap);
}

/* The order of reports: by block, then by position in the block. */
static int rep_before(const Rep *a, const Rep *b) {
  if (a->r.block != b->r.block)
    return a->r.block < b->r.block;
  if (a->r.block2 != b->r.block2)
    return a->r.block2 < b->r.block2;
  if (a->seq != b->seq)
    return a->seq < b->seq;
  return a->r.lo < b->r.lo;
}

/* Keeps a report; in warn mode (and for warnings) one per pair of
 * instructions, from the lowest block. */
void san_keep(AscSanitizer *s, const Rep *r) {
  pthread_mutex_lock(&s->lock);
  if (s->mode == ASC_SAN_WARN || r->r.warning)
    for (int i = 0; i < s->n_reps; i++) {
      Rep *o = &s->reps[i];
      if (o->r.kind == r->r.kind && o->k1 == r->k1 && o->k2 == r->k2 &&
          o->r.warning == r->r.warning) {
        if (rep_before(r, o))
          *o = *r;
        pthread_mutex_unlock(&s->lock);
        return;
      }
    }
  if (s->n_reps == s->cap_reps && s->n_reps < MAX_REPORTS) {
    int cap = s->cap_reps ? s->cap_reps * 2 : 8;
    Rep *v = realloc(s->reps, sizeof *v * (size_t)cap);
    if (v) {
      s->reps = v;
      s->cap_reps = cap;
    }
  }
  if (s->n_reps < s->cap_reps)
    s->reps[s->n_reps++] = *r;
  else
    s->dropped++;
  pthread_mutex_unlock(&s->lock);
}

/* Records the report; in error mode a report that is not a warning fails
 * the block with it. */
AscStatus san_emit(AscSanitizer *s, AscBlockState *b, Rep *r) {
  san_keep(s, r);
  if (s->mode != ASC_SAN_ERROR || r->r.warning)
    return ASC_OK;
  AscLaunchError *e = b->err;
  if (e->status != ASC_OK)
    return e->status;
  e->status = ASC_ERR_SANITIZER;
  e->block = b->block_idx;
  e->loc = r->r.loc;
  e->op_name = r->r.op;
  snprintf(e->message, sizeof e->message, "%.620s; fix: %.380s", r->r.message,
           r->r.fix);
  return ASC_ERR_SANITIZER;
}

/* The lowest event id this block has not used with event ev (for fixes),
 * among the kernel's own (0-5: 6 and 7 are the devkit's). */
static int free_id(const Shadow *sh, const AscBlockState *b, int ev) {
  if (ev < 0)
    return 0;
  for (int id = 0; id < NID && id < b->platform->user_event_ids; id++)
    if (!(sh->ids_used[ev] & (1u << id)))
      return id;
  return 0;
}

/* ---- queues -------------------------------------------------------------- */

static SanQue *que_state(Shadow *sh, const void *que) {
  for (int i = 0; i < sh->n_ques; i++)
    if (sh->ques[i].que == que)
      return &sh->ques[i];
  if (sh->n_ques == sh->cap_ques) {
    int cap = sh->cap_ques ? sh->cap_ques * 2 : 4;
    SanQue *v = realloc(sh->ques, sizeof *v * (size_t)cap);
    if (!v)
      return NULL;
    sh->ques = v;
    sh->cap_ques = cap;
  }
  SanQue *q = &sh->ques[sh->n_ques++];
  memset(q, 0, sizeof *q);
  q->que = que;
  return q;
}

/* ---- family: cube: local addresses of the shadow ---------------------------
 * A UB or cube-memory access is at base[memory] + its address. */

/* The local range of access a, 0 for a GM access. */
static int local_range(const Shadow *sh, const AscAccess *a, int64_t *lo,
                       int64_t *hi) {
  int k =
      a->space == ASC_SPACE_UB ? 0
      : a->space >= ASC_SPACE_CUBE && a->space < ASC_SPACE_CUBE + SIM_CMEM_COUNT
          ? 1 + a->space - ASC_SPACE_CUBE
          : -1;
  if (k < 0 || a->lo < 0)
    return 0;
  *lo = sh->base[k] + a->lo;
  *hi = sh->base[k] + a->hi;
  return 1;
}

/* The memory of local address v: 0 the UB, 1 + SimCubeMem a cube one. */
static int local_memory(const Shadow *sh, int64_t v) {
  int k = 0;
  for (int i = 1; i <= SIM_CMEM_COUNT; i++)
    if (v >= sh->base[i])
      k = i;
  return k;
}

static const char *local_name(const Shadow *sh, int64_t v) {
  int k = local_memory(sh, v);
  return k ? sim_cube_mem_name(k - 1) : "UB";
}

/* Address v in its own memory. */
static long long local_off(const Shadow *sh, int64_t v) {
  return (long long)(v - sh->base[local_memory(sh, v)]);
}

/* A report's range [lo, hi) of local addresses, in its memory's terms. */
static void report_range(const Shadow *sh, AscSanReport *r, int64_t lo,
                         int64_t hi) {
  int k = local_memory(sh, lo);
  r->space = k ? ASC_SPACE_CUBE + k - 1 : ASC_SPACE_UB;
  r->lo = lo - sh->base[k];
  r->hi = hi - sh->base[k];
}

/* The TQue buffer holding local address addr: its queue and index. */
static const AscSimQueue *que_at(const Shadow *sh, const AscBlockState *b,
                                 int64_t vaddr, int *index) {
  int k = local_memory(sh, vaddr);
  int64_t addr = vaddr - sh->base[k];
  for (const AscSimQueue *q = b->queues; q; q = q->next)
    if (q->num && sim_cube_mem_of_position(q->position) + 1 == k &&
        addr >= q->base && addr < q->base + q->num * q->len) {
      *index = (int)((addr - q->base) / q->len);
      return q;
    }
  return NULL;
}

/* ---- shadow memory ------------------------------------------------------- */

/* The largest seq of map m in blocks [b0, b1). */
static uint32_t range_max(const SanMap *m, int64_t b0, int64_t b1) {
  return san_map_max(m, (int32_t)b0, (int32_t)b1);
}

typedef struct Conflict {
  int pipe;       /* of the earlier access */
  int write;      /* the earlier access wrote */
  uint32_t seq;   /* its instruction */
  int64_t b0, b1; /* blocks of the conflict */
} Conflict;

/* The latest access in blocks [b0, b1) that an access with clock ord does
 * not come after: a write, and if `write` also a read. A pipe whose
 * accesses are all ordered (its largest seq anywhere is) is skipped
 * without looking at the range. */
static int find_conflict(const Shadow *sh, const uint32_t *ord, int64_t b0,
                         int64_t b1, int write, Conflict *c) {
  uint32_t best = 0;
  for (int p = 0; p < NP; p++) {
    uint32_t lim = ord[p];
    uint32_t m;
    if (sh->w[p].max > lim && (m = range_max(&sh->w[p], b0, b1)) > lim &&
        m > best) {
      best = m;
      c->pipe = p;
      c->write = 1;
    }
    if (write && sh->r[p].max > lim &&
        (m = range_max(&sh->r[p], b0, b1)) > lim && m > best) {
      best = m;
      c->pipe = p;
      c->write = 0;
    }
  }
  if (!best)
    return 0;
  const SanMap *a = c->write ? &sh->w[c->pipe] : &sh->r[c->pipe];
  int32_t r0 = 0, r1 = 0;
  c->seq =
      san_map_first_above(a, (int32_t)b0, (int32_t)b1, ord[c->pipe], &r0, &r1);
  c->b0 = r0;
  c->b1 = r1;
  return 1;
}

static const AscInstr *logged(const Shadow *sh, uint32_t seq) {
  return seq && seq < sh->log_cap ? sh->log[seq] : NULL;
}

static void log_put(Shadow *sh, uint32_t seq, const AscInstr *in) {
  if (seq >= sh->log_cap) {
    if (sh->log_cap >= LOG_MAX)
      return;
    uint32_t cap = sh->log_cap ? sh->log_cap * 2 : 1024;
    const AscInstr **v = realloc(sh->log, sizeof *v * cap);
    if (!v)
      return;
    memset(v + sh->log_cap, 0, sizeof *v * (cap - sh->log_cap));
    sh->log = v;
    sh->log_cap = cap;
  }
  sh->log[seq] = in;
}

/* Are bytes [lo, hi) all written? Else the first unwritten run. */
static int all_written(const Shadow *sh, int64_t lo, int64_t hi, int64_t *u0,
                       int64_t *u1) {
  int32_t g0, g1;
  if (!san_set_first_gap(&sh->init, (int32_t)lo, (int32_t)hi, &g0, &g1))
    return 1;
  *u0 = g0;
  *u1 = g1;
  return 0;
}

/* ---- detectors ----------------------------------------------------------- */

/* The latest access of pipe p that some access of e is not ordered after:
 * where a flag must be set so that it covers all of them. */
static uint32_t latest_unordered(const Shadow *sh, int p, uint32_t lim) {
  uint32_t best = 0;
  for (int i = 0; i < sh->n_cur; i++) {
    const AscAccess *a = &sh->cur[i];
    int64_t b0 = a->lo >> 5, b1 = (a->hi + 31) >> 5;
    if (a->lo < 0 || b1 > sh->nblk)
      continue;
    uint32_t m = range_max(&sh->w[p], b0, b1);
    if (a->write) {
      uint32_t mr = range_max(&sh->r[p], b0, b1);
      m = mr > m ? mr : m;
    }
    if (m > lim && m > best)
      best = m;
  }
  return best;
}

static SAN_NOINLINE AscStatus report_race(AscSanitizer *s, Shadow *sh,
                                          AscBlockState *b, const AscEvent *e,
                                          const AscAccess *a, int q,
                                          const Conflict *c,
                                          const uint32_t *ord) {
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_RACE, b, e->in, q);
  const AscInstr *other = logged(sh, c->seq);
  uint32_t last_seq = latest_unordered(sh, c->pipe, ord[c->pipe]);
  const AscInstr *last = logged(sh, last_seq > c->seq ? last_seq : c->seq);
  san_rep_other(r, other, c->pipe);
  r->seq = sh->seq + 1;
  int64_t vlo = c->b0 * 32 > a->lo ? c->b0 * 32 : a->lo;
  int64_t vhi = c->b1 * 32 < a->hi ? c->b1 * 32 : a->hi;
  report_range(sh, &r->r, vlo, vhi);
  const char *mem = local_name(sh, vlo);
  char api1[64], api2[64], w1[128], w2[128], l1[128], l2[128];
  const char *verb = a->write ? "writes" : "reads";
  const char *verb2 =
      c->write ? (a->write ? "also writes" : "writes") : "reads";
  AscLoc la = r->r.loc2, lb = r->r.loc;
  if (c->pipe == q)
    san_msg(r,
            "data race on %s within pipe %s: %s at %s %s bytes [%lld, %lld), "
            "which %s at %s %s, and nothing makes the pipe finish one before "
            "starting the other",
            mem, asc_san_pipe_name(q), san_api_of(e->in, api1, sizeof api1),
            san_where(lb, w1, sizeof w1), verb, (long long)r->r.lo,
            (long long)r->r.hi, san_api_of(other, api2, sizeof api2),
            san_where(la, w2, sizeof w2), verb2);
  else
    san_msg(r,
            "data race on %s between pipes %s and %s: %s (%s) at %s %s bytes "
            "[%lld, %lld), which %s (%s) at %s %s, and no synchronisation "
            "orders the two",
            mem, asc_san_pipe_name(c->pipe), asc_san_pipe_name(q),
            san_api_of(e->in, api1, sizeof api1), asc_san_pipe_name(q),
            san_where(lb, w1, sizeof w1), verb, (long long)r->r.lo,
            (long long)r->r.hi, san_api_of(other, api2, sizeof api2),
            asc_san_pipe_name(c->pipe), san_where(la, w2, sizeof w2), verb2);
  line_ref(last ? loc_of(last) : la, lb, l1, sizeof l1);
  line_ref(lb, lb, l2, sizeof l2);
  int ev = c->pipe == q ? -1 : hard_event(c->pipe, q);
  if (c->pipe == q)
    san_fix(r,
            "insert `asc.pipe_barrier(asc.PipeID.%s)` after %s (before %s)%s",
            pipe_id_name(q), l1, l2,
            q == ASC_PIPE_V ? ", or compile with auto_sync=True" : "");
  else if (ev < 0)
    san_fix(
        r,
        "insert `asc.pipe_barrier(asc.PipeID.PIPE_ALL)` after %s (before %s)",
        l1, l2);
  else {
    /* a pending set_flag to this pipe already covers the earlier access:
     * only its wait is missing */
    uint32_t need = last_seq > c->seq ? last_seq : c->seq;
    for (int pe = 0; pe < NEV; pe++) {
      AscPipe ps, pd;
      if (pe != ev) {
        if (!asc_enum_value_name(ASC_ENUM_HARDEVENT, pe))
          continue;
        asc_event_pipes(pe, &ps, &pd);
        if ((int)pd != q)
          continue;
      }
      for (int id = 0; id < NID; id++)
        if (sh->pending[pe][id] && sh->flag_vc[pe][id].c[c->pipe] >= need) {
          char l3[128];
          san_fix(r,
                  "insert `asc.wait_flag(asc.HardEvent.%s, %d)` before %s, to "
                  "consume the set_flag at %s",
                  event_name(pe), id, l2,
                  line_ref(loc_of(sh->flag_in[pe][id]), lb, l3, sizeof l3));
          return san_emit(s, b, r);
        }
    }
    int id = free_id(sh, b, ev);
    int qi;
    const AscSimQueue *que = que_at(sh, b, vlo, &qi);
    AscPipe prod = ASC_PIPE_S, cons = ASC_PIPE_S;
    if (que)
      asc_que_pipes(que->position, &prod, &cons);
    const char *hint = "";
    if (que && (int)prod == c->pipe && (int)cons == q && c->write)
      hint = " (or hand the tensor over through its TQue: `enque` it after "
             "the first call and `deque` it before the second)";
    else if (que && (int)cons == c->pipe && (int)prod == q && a->write)
      hint = " (or let its TQue order them: `free_tensor` after the first "
             "call and `alloc_tensor` before the second)";
    san_fix(r,
            "insert `asc.set_flag(asc.HardEvent.%s, %d)` after %s and "
            "`asc.wait_flag(asc.HardEvent.%s, %d)` before %s%s",
            event_name(ev), id, l1, event_name(ev), id, l2, hint);
  }
  return san_emit(s, b, r);
}

/* The latest write in this block that nothing has read since and that
 * does not overlap [lo, hi): the buffer an uninitialised read probably
 * meant. */
static const Recent *unread_write(const Shadow *sh, int64_t lo, int64_t hi) {
  for (int k = 0; k < sh->n_recent && k < RECENT; k++) {
    const Recent *w = &sh->recent[(sh->n_recent - 1 - k) % RECENT];
    if (w->lo < hi && lo < w->hi)
      continue;
    int64_t b0 = w->lo >> 5, b1 = (w->hi + 31) >> 5;
    uint32_t latest = 0; /* the write is still there, and nothing read it */
    for (int p = 0; p < NP; p++) {
      uint32_t mr = range_max(&sh->r[p], b0, b1);
      uint32_t mw = range_max(&sh->w[p], b0, b1);
      latest = mr > latest ? mr : latest;
      latest = mw > latest ? mw : latest;
    }
    if (latest == w->seq)
      return w;
  }
  return NULL;
}

static SAN_NOINLINE AscStatus report_uninit(AscSanitizer *s, Shadow *sh,
                                            AscBlockState *b, const AscEvent *e,
                                            int q, int64_t u0, int64_t u1) {
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_UNINIT, b, e->in, q);
  r->seq = sh->seq + 1;
  report_range(sh, &r->r, u0, u1);
  const char *mem = local_name(sh, u0);
  char api1[64], api2[64], w1[128], w2[128], l1[128], l2[128];
  char from[256] = "";
  int qi;
  const AscSimQueue *que = que_at(sh, b, u0, &qi);
  const SanQue *sq = NULL;
  for (int i = 0; que && i < sh->n_ques; i++)
    if (sh->ques[i].que == que)
      sq = &sh->ques[i];
  if (sq && sq->alloc_in[qi]) {
    AscLoc al = loc_of(sq->alloc_in[qi]);
    snprintf(from, sizeof from,
             "; they belong to TQue buffer %d, taken by TQue.alloc_tensor at "
             "%s",
             qi, san_where(al, w2, sizeof w2));
  }
  const Recent *w = unread_write(sh, u0, u1);
  AscLoc lb = r->r.loc;
  san_msg(
      r,
      "uninitialised read: %s (%s) at %s reads %s bytes [%lld, %lld), which "
      "nothing wrote in this block (on the NPU they hold stale data)%s",
      san_api_of(e->in, api1, sizeof api1), asc_san_pipe_name(q),
      san_where(lb, w1, sizeof w1), mem, local_off(sh, u0), local_off(sh, u1),
      from);
  line_ref(lb, lb, l2, sizeof l2);
  if (w) {
    int wp = ASC_PIPE_S;
    for (int p = 0; p < NP; p++)
      if (range_max(&sh->w[p], w->lo >> 5, (w->hi + 31) >> 5) == w->seq)
        wp = p;
    san_rep_other(r, w->in, wp);
    AscLoc lw = r->r.loc2;
    size_t k = strlen(r->r.message);
    snprintf(r->r.message + k, sizeof r->r.message - k,
             "; the latest write nothing has read is %s at %s, to %s bytes "
             "[%lld, %lld)",
             san_api_of(w->in, api2, sizeof api2), san_where(lw, w1, sizeof w1),
             local_name(sh, w->lo), local_off(sh, w->lo), local_off(sh, w->hi));
    san_fix(r,
            "read the buffer that %s wrote (%s bytes [%lld, %lld)) at %s, or "
            "write bytes [%lld, %lld) before %s",
            line_ref(lw, lb, l1, sizeof l1), local_name(sh, w->lo),
            local_off(sh, w->lo), local_off(sh, w->hi), l2, local_off(sh, u0),
            local_off(sh, u1), l2);
  } else {
    if (sq && sq->alloc_in[qi])
      san_rep_other(r, sq->alloc_in[qi], ASC_PIPE_S);
    san_fix(r,
            "write %s bytes [%lld, %lld) (copy data in, or asc.duplicate a "
            "value) before %s",
            mem, local_off(sh, u0), local_off(sh, u1), l2);
  }
  return san_emit(s, b, r);
}

/* A read of bytes nothing wrote in this block. */
static AscStatus check_uninit(AscSanitizer *s, Shadow *sh, AscBlockState *b,
                              const AscEvent *e, const AscAccess *a, int q) {
  int64_t u0, u1;
  if (a->write || a->bounding || a->lo < 0 || (a->hi + 31) >> 5 > sh->nblk ||
      all_written(sh, a->lo, a->hi, &u0, &u1))
    return ASC_OK;
  return report_uninit(s, sh, b, e, q, u0, u1);
}

/* One local-memory access, checked against the shadow. */
static AscStatus check_local(AscSanitizer *s, Shadow *sh, AscBlockState *b,
                             const AscEvent *e, const AscAccess *a, int q) {
  int64_t b0 = a->lo >> 5, b1 = (a->hi + 31) >> 5;
  if (a->lo < 0 || b1 > sh->nblk)
    return ASC_OK; /* the simulator checked the bounds */
  for (int round = 0; round <= NP; round++) {
    uint32_t ord[NP];
    view(s, sh, q, ord);
    Conflict c;
    if (!find_conflict(sh, ord, b0, b1, a->write, &c))
      break;
    if (auto_sync(s) && c.pipe == ASC_PIPE_S && q != ASC_PIPE_S &&
        aiv_pipe(q)) {
      join_published(&sh->vc[q], sh, ASC_PIPE_S); /* the compiler's S_q flag */
      continue;
    }
    if (auto_sync(s) && q == ASC_PIPE_S && c.pipe != ASC_PIPE_S &&
        aiv_pipe(c.pipe)) {
      wait_on_published(sh, ASC_PIPE_S, c.pipe); /* the compiler's c.pipe_S */
      continue;
    }
    return report_race(s, sh, b, e, a, q, &c, ord);
  }
  return check_uninit(s, sh, b, e, a, q);
}

static AscStatus report_dropped(AscSanitizer *s, AscBlockState *b,
                                const AscEvent *e, int64_t dropped) {
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_ALIGN, b, e->in, e->pipe);
  r->r.warning = 1;
  int64_t es = (int64_t)asc_dtype_size((AscDType)e->in->dtype);
  if (es <= 0)
    es = 1;
  int64_t asked = e->bytes + dropped;
  int64_t per = 32 / es > 0 ? 32 / es : 1;
  int64_t up = (asked / es + per - 1) / per * per;
  for (int i = 0; i < e->n_acc; i++)
    if (e->acc[i].space == ASC_SPACE_UB) {
      r->r.space = ASC_SPACE_UB;
      r->r.lo = e->acc[i].hi;
      r->r.hi = e->acc[i].hi + dropped;
    }
  char api1[64], w1[128];
  san_msg(r,
          "misaligned length: %s at %s copies %lld %s elements (%lld bytes), "
          "not a whole number of 32-byte blocks: DataCopy moves whole blocks, "
          "so the last %lld bytes are not copied",
          san_api_of(e->in, api1, sizeof api1),
          san_where(r->r.loc, w1, sizeof w1), (long long)(asked / es),
          asc_dtype_name((AscDType)e->in->dtype), (long long)asked,
          (long long)dropped);
  san_fix(
      r,
      "copy a multiple of %lld elements (%lld instead of %lld, with buffers "
      "padded to match)",
      (long long)per, (long long)up, (long long)(asked / es));
  return san_emit(s, b, r);
}

static AscStatus on_access(AscSanitizer *s, Shadow *sh, AscBlockState *b,
                           const AscEvent *e) {
  int q = (int)e->pipe < NP ? (int)e->pipe : ASC_PIPE_S;
  /* the UB and cube-memory accesses at their local addresses (family:
   * cube) */
  sh->n_cur = 0;
  for (int i = 0; i < e->n_acc; i++) {
    int64_t lo, hi;
    if (e->acc[i].space == ASC_SPACE_GM) {
      san_gm_record(s, b, e, &e->acc[i]);
    } else if (local_range(sh, &e->acc[i], &lo, &hi)) {
      AscAccess *c = &sh->cur[sh->n_cur++]; /* what the checks read */
      c->write = e->acc[i].write;
      c->bounding = e->acc[i].bounding;
      c->space = ASC_SPACE_UB;
      c->lo = lo;
      c->hi = hi;
    }
  }
  AscStatus st = ASC_OK;
  if (!sh->n_cur || sh->off)
    return ASC_OK;
  if (sh->seq >= SEQ_MAX) {
    sh->off = 1;
    return ASC_OK;
  }
  /* checks first, against the state before this instruction; a pipe
   * whose every access this pipe's clock covers cannot conflict, and when
   * that is all of them only uninitialised reads are left to check */
  int live = 0;
  for (uint32_t t = sh->touched; t; t &= t - 1) { /* the maps in use */
    int i = __builtin_ctz(t), p = i < NP ? i : i - NP;
    uint32_t lim = p == q && self_ordered(s, q) ? sh->last[q] : sh->vc[q].c[p];
    live |= (i < NP ? sh->w[p].max : sh->r[p].max) > lim;
  }
  for (int i = 0; i < sh->n_cur && !st; i++)
    st = live ? check_local(s, sh, b, e, &sh->cur[i], q)
              : check_uninit(s, sh, b, e, &sh->cur[i], q);
  if (st)
    return st;
  uint32_t seq = ++sh->seq;
  sh->last[q] = seq;
  log_put(sh, seq, e->in);
  /* (reads and writes go to maps of their own: one pass, in any order) */
  for (int i = 0; i < sh->n_cur; i++) {
    const AscAccess *a = &sh->cur[i];
    int64_t b0 = a->lo >> 5, b1 = (a->hi + 31) >> 5;
    if (a->lo < 0 || b1 > sh->nblk)
      continue;
    sh->touched |= (uint32_t)1 << (a->write ? q : NP + q);
    if (!a->write) {
      if (!san_map_set(&sh->r[q], (int32_t)b0, (int32_t)b1, seq))
        sh->off = 1; /* out of memory: the block goes unchecked */
      continue;
    }
    if (!san_map_set(&sh->w[q], (int32_t)b0, (int32_t)b1, seq) ||
        !san_set_add(&sh->init, (int32_t)a->lo, (int32_t)a->hi))
      sh->off = 1;
    Recent *rw = &sh->recent[sh->n_recent++ % RECENT];
    rw->seq = seq;
    rw->in = e->in;
    rw->lo = a->lo;
    rw->hi = a->hi;
    if (sh->n_recent >= 2 * RECENT)
      sh->n_recent -= RECENT;
  }
  return ASC_OK;
}

/* The event ids of a set_flag / wait_flag (SetFlag-WaitFlag(ISASI).md):
 *
 *   - an id a TQue of the kernel's TPipe holds (its enque or free_tensor
 *     set that flag, and its deque or alloc_tensor will wait for it): the
 *     kernel's flag and the queue's are one hardware flag, so one side
 *     takes the other's signal or sets it twice. In a TPipe kernel ids
 *     come from alloc_event_id / fetch_event_id. An error;
 *   - ids past the kernel's own (6 and 7 on arch 2201: the system keeps
 *     6, the TPipe's automatic sync 7; 静态Tensor编程.md: using them may
 *     collide with internal ids): a warning, as the documents advise
 *     against them rather than define a failure, unless the id came from
 *     alloc_event_id. */
static AscStatus check_flag_id(AscSanitizer *s, AscBlockState *b,
                               const AscEvent *e, int ev, int id) {
  /* the kernel's own set_flag / wait_flag only: the steps of a high-level
   * API (Matmul, ...) are the devkit's, whose ids are its business */
  const AscOp *op = e->in ? e->in->src : NULL;
  if (!op || (op->id != ASC_OP_SET_FLAG && op->id != ASC_OP_WAIT_FLAG))
    return ASC_OK;
  const AscSimPipe *p = &b->pipe;
  uint16_t bit = (uint16_t)(1u << id);
  int live = p->initialised && !p->destroyed && ev < ASC_MAX_EVENTS;
  const char *api = e->kind == ASC_EV_SET_FLAG ? "set_flag" : "wait_flag";
  char w1[128];
  if (live && (p->event_ids[ev] & bit) && !(p->user_ids[ev] & bit)) {
    Rep rep;
    Rep *r = san_rep_new(&rep, ASC_SAN_SYNC, b, e->in, e->pipe);
    san_msg(r,
            "%s(HardEvent.%s, %d) at %s: a TQue of this kernel's TPipe holds "
            "event id %d of HardEvent.%s now (an enque or free_tensor set "
            "that flag, and a deque or alloc_tensor waits for it): the two "
            "use one hardware flag, so one takes the other's signal or sets "
            "it twice, undefined on the NPU; in a TPipe kernel event ids "
            "come from the TPipe (SetFlag-WaitFlag(ISASI).md)",
            api, event_name(ev), id, san_where(r->r.loc, w1, sizeof w1), id,
            event_name(ev));
    san_fix(r,
            "take the id from the pipe: `id = pipe.alloc_event_id(asc."
            "HardEvent.%s)` before the set_flag and "
            "`pipe.release_event_id(asc.HardEvent.%s, id)` after the "
            "wait_flag (or pipe.fetch_event_id for a pair with nothing in "
            "between)",
            event_name(ev), event_name(ev));
    return san_emit(s, b, r);
  }
  if (id >= b->platform->user_event_ids && !(live && (p->user_ids[ev] & bit))) {
    Rep rep;
    Rep *r = san_rep_new(&rep, ASC_SAN_SYNC, b, e->in, e->pipe);
    r->r.warning = 1;
    san_msg(r,
            "%s(HardEvent.%s, %d) at %s: event id %d is reserved: the devkit "
            "keeps id 6 for the system and id 7 for the TPipe's automatic "
            "synchronisation and tells kernels not to use them; they may "
            "collide with internal ids, undefined on the NPU "
            "(SetFlag-WaitFlag(ISASI).md, 静态Tensor编程.md)",
            api, event_name(ev), id, san_where(r->r.loc, w1, sizeof w1), id);
    san_fix(r,
            "use an event id in 0-%d for this set_flag/wait_flag pair (in a "
            "TPipe kernel: one from pipe.alloc_event_id)",
            b->platform->user_event_ids - 1);
    return san_emit(s, b, r);
  }
  return ASC_OK;
}

static AscStatus on_set_flag(AscSanitizer *s, Shadow *sh, AscBlockState *b,
                             const AscEvent *e) {
  int ev = (int)e->event, id = (int)e->id;
  if (ev < 0 || ev >= NEV || id < 0 || id >= NID)
    return ASC_OK;
  AscStatus st = check_flag_id(s, b, e, ev, id);
  if (st)
    return st;
  sh->ids_used[ev] |= (uint8_t)(1u << id);
  sh->ev_used |= (uint64_t)1 << ev;
  if (sh->held[ev][id]) { /* releases a wait issued before it */
    sh->held[ev][id]--;
    wait_on_published(sh, e->dst, e->src);
    return ASC_OK;
  }
  if (sh->pending[ev][id]) {
    Rep rep;
    Rep *r = san_rep_new(&rep, ASC_SAN_SYNC, b, e->in, e->src);
    san_rep_other(r, sh->flag_in[ev][id], e->src);
    r->seq = sh->seq + 1;
    char w1[128], w2[128], l1[128], l2[128];
    AscLoc la = r->r.loc2, lb = r->r.loc;
    san_msg(r,
            "set_flag(HardEvent.%s, %d) at %s while the same flag, set at %s, "
            "has not been waited for: setting a flag that is set is undefined "
            "behaviour on the NPU (and a later PipeBarrier<PIPE_ALL> hangs)",
            event_name(ev), id, san_where(lb, w1, sizeof w1),
            san_where(la, w2, sizeof w2));
    san_fix(
        r,
        "insert `asc.wait_flag(asc.HardEvent.%s, %d)` between %s and %s, or "
        "use another event id for one of them",
        event_name(ev), id, line_ref(la, lb, l1, sizeof l1),
        line_ref(lb, lb, l2, sizeof l2));
    publish(&sh->flag_vc[ev][id], sh, e->src);
    sh->flag_in[ev][id] = e->in;
    return san_emit(s, b, r);
  }
  sh->pending[ev][id] = 1;
  sh->n_pending++;
  publish(&sh->flag_vc[ev][id], sh, e->src);
  sh->flag_in[ev][id] = e->in;
  return ASC_OK;
}

static AscStatus on_wait_flag(AscSanitizer *s, Shadow *sh, AscBlockState *b,
                              const AscEvent *e) {
  int ev = (int)e->event, id = (int)e->id;
  if (ev < 0 || ev >= NEV || id < 0 || id >= NID)
    return ASC_OK;
  AscStatus st = check_flag_id(s, b, e, ev, id);
  if (st)
    return st;
  sh->ids_used[ev] |= (uint8_t)(1u << id);
  sh->ev_used |= (uint64_t)1 << ev;
  if (sh->pending[ev][id]) {
    sh->pending[ev][id] = 0;
    sh->n_pending--;
    wait_on(sh, e->dst, &sh->flag_vc[ev][id]);
    return ASC_OK;
  }
  if (sh->held[ev][id] < UINT16_MAX)
    sh->held[ev][id]++;
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_SYNC, b, e->in, e->dst);
  r->r.pipe2 = e->src;
  r->seq = sh->seq + 1;
  char w1[128], l1[128];
  AscLoc lb = r->r.loc;
  san_msg(
      r,
      "wait_flag(HardEvent.%s, %d) at %s has no set_flag issued before it: "
      "on the NPU pipe %s stalls here until a later set_flag, a deadlock if "
      "none comes; and if one does, pipe %s ran after work that follows in "
      "program order, which the simulator does not model",
      event_name(ev), id, san_where(lb, w1, sizeof w1),
      asc_san_pipe_name(e->dst), asc_san_pipe_name(e->dst));
  san_fix(r,
          "issue `asc.set_flag(asc.HardEvent.%s, %d)` before %s, after the %s "
          "work this wait is for, or remove the wait_flag",
          event_name(ev), id, line_ref(lb, lb, l1, sizeof l1),
          asc_san_pipe_name(e->src));
  return san_emit(s, b, r);
}

static void on_barrier(Shadow *sh, const AscEvent *e) {
  if ((int)e->src >= NP) { /* PIPE_ALL */
    for (int p = 0; p < NP; p++)
      for (int q = 0; q < NP; q++)
        if (sh->last[q] > sh->vc[p].c[q])
          sh->vc[p].c[q] = sh->last[q];
  } else {
    sh->vc[e->src].c[e->src] = sh->last[e->src];
  }
}

static void on_que(Shadow *sh, const AscEvent *e) {
  SanQue *q = que_state(sh, e->que);
  int i = e->buffer;
  if (!q || i < 0 || i >= NBUF)
    return;
  uint64_t bit = (uint64_t)1 << i;
  switch (e->que_op) {
  case ASC_QUE_ENQUE:
    publish(&q->enq[i], sh, e->producer);
    q->enq_valid |= bit;
    break;
  case ASC_QUE_DEQUE:
    if (q->enq_valid & bit)
      wait_on(sh, e->consumer, &q->enq[i]);
    q->enq_valid &= ~bit;
    break;
  case ASC_QUE_FREE:
    publish(&q->freed[i], sh, e->consumer);
    q->free_valid |= bit;
    break;
  case ASC_QUE_ALLOC:
    q->alloc_in[i] = e->in;
    if (q->free_valid & bit)
      wait_on(sh, e->producer, &q->freed[i]);
    q->free_valid &= ~bit;
    break;
  }
}

/* ---- the observer -------------------------------------------------------- */

/* A worker's first block of the launch takes a shadow from the pool (the
 * block state is the worker's for this launch, zeroed as it starts); each
 * block resets it. */
static void on_block_begin(void *self, AscBlockState *b) {
  AscSanitizer *s = self;
  Shadow *sh = b->san_shadow;
  if (!sh) {
    if (!(sh = shadow_take(b)))
      return; /* out of memory: this worker's blocks go unchecked */
    pthread_mutex_lock(&s->lock);
    sh->next = s->in_use;
    s->in_use = sh;
    pthread_mutex_unlock(&s->lock);
    b->san_shadow = sh;
  }
  shadow_reset(sh);
}

/* A UB access past the end of its LocalTensor, made in warn mode (events.h:
 * has_lov): a warning. */
static AscStatus report_local_overrun(AscSanitizer *s, AscBlockState *b,
                                      const AscEvent *e) {
  Rep rep;
  Rep *r = san_rep_new(&rep, ASC_SAN_OVERRUN, b, e->in, e->pipe);
  int64_t es = (int64_t)asc_dtype_size((AscDType)e->in->dtype);
  if (es <= 0)
    es = 1;
  r->r.space = ASC_SPACE_UB;
  r->r.buf = -1;
  r->r.lo = e->lov_lo;
  r->r.hi = e->lov_hi;
  char api1[64], w1[128];
  san_msg(
      r,
      "LocalTensor access out of bounds: %s at %s %s UB bytes [%lld, %lld), "
      "%lld elements, but the LocalTensor has only %lld. On an NPU this %s; "
      "here it is made (inside the UB)",
      san_api_of(e->in, api1, sizeof api1), san_where(r->r.loc, w1, sizeof w1),
      e->lov_write ? "writes" : "reads", (long long)e->lov_lo,
      (long long)e->lov_hi, (long long)((e->lov_hi - e->lov_lo) / es),
      (long long)e->lov_len,
      e->lov_write ? "overwrites whatever follows the tensor in the UB"
                   : "reads whatever follows the tensor in the UB");
  san_fix(r, "allocate the tensor to whole repeats (256 bytes), or use a mask "
             "and repeat_times that stay inside it");
  return san_emit(s, b, r);
}

/* An instruction that touched memory or the data cache, or that the
 * simulator flagged. Not inlined into on_event, which most instructions
 * leave at once. */
static SAN_NOINLINE AscStatus on_op(AscSanitizer *s, Shadow *sh,
                                    AscBlockState *b, const AscEvent *e) {
  if (e->dropped > 0)
    report_dropped(s, b, e, e->dropped);
  if (e->has_ov) {
    AscStatus st = san_report_overrun(s, b, e);
    if (st)
      return st;
  }
  if (e->has_lov) {
    AscStatus st = report_local_overrun(s, b, e);
    if (st)
      return st;
  }
  if (e->n_acc) {
    AscStatus st = on_access(s, sh, b, e);
    if (st)
      return st;
  }
  if (!sh->dc && !e->dc_op) { /* nothing cached: only a scalar load starts */
    int loads = 0;
    for (int i = 0; i < e->n_acc; i++)
      loads |= e->acc[i].space == ASC_SPACE_GM && e->acc[i].scalar;
    if (!loads)
      return ASC_OK;
  }
  return san_dc_event(s, &sh->dc, b, e, sh->seq + 1);
}

static AscStatus on_event(void *self, AscBlockState *b, const AscEvent *e) {
  AscSanitizer *s = self;
  Shadow *sh = b->san_shadow;
  if (!sh)
    return ASC_OK;
  switch (e->kind) {
  case ASC_EV_OP:
    /* most instructions of a kernel (scalar arithmetic, tensor handles)
     * touch no memory: nothing to check */
    if (!e->n_acc && !e->dc_op && e->dropped <= 0 && !e->has_ov && !e->has_lov)
      return ASC_OK;
    return on_op(s, sh, b, e);
  case ASC_EV_SET_FLAG:
    return on_set_flag(s, sh, b, e);
  case ASC_EV_WAIT_FLAG:
    return on_wait_flag(s, sh, b, e);
  case ASC_EV_BARRIER:
    on_barrier(sh, e);
    /* a debug print's write-back of the data cache (debug_print.c) */
    return e->dc_op ? san_dc_event(s, &sh->dc, b, e, sh->seq + 1) : ASC_OK;
  case ASC_EV_QUE:
    on_que(sh, e);
    return ASC_OK;
  }
  return ASC_OK;
}

/* Flags set and never waited for. */
static AscStatus on_block_end(void *self, AscBlockState *b) {
  AscSanitizer *s = self;
  Shadow *sh = b->san_shadow;
  if (!sh)
    return ASC_OK;
  if (sh->dc)
    san_dc_block_end(s, sh->dc, b);
  if (!sh->n_pending)
    return ASC_OK;
  AscStatus st = ASC_OK;
  for (int ev = 0; ev < NEV && !st; ev++)
    for (int id = 0; id < NID && !st; id++) {
      if (!sh->pending[ev][id])
        continue;
      const AscInstr *in = sh->flag_in[ev][id];
      AscPipe src, dst;
      asc_event_pipes(ev, &src, &dst);
      Rep rep;
      Rep *r = san_rep_new(&rep, ASC_SAN_SYNC, b, in, src);
      r->r.pipe2 = dst;
      r->seq = UINT32_MAX;
      char w1[128], l1[128];
      AscLoc la = r->r.loc;
      san_msg(r,
              "set_flag(HardEvent.%s, %d) at %s is never waited for: the flag "
              "stays set when the kernel ends, and the next wait_flag on it "
              "(in this kernel or the next one) passes at once",
              event_name(ev), id, san_where(la, w1, sizeof w1));
      san_fix(r,
              "add `asc.wait_flag(asc.HardEvent.%s, %d)` after %s (before the "
              "%s work that depends on it), or remove the set_flag",
              event_name(ev), id, line_ref(la, la, l1, sizeof l1),
              asc_san_pipe_name(dst));
      st = san_emit(s, b, r);
    }
  return st;
}

/* ---- the sanitizer object ------------------------------------------------ */

static void sanitizer_destroy(AscSanitizer *s) {
  san_gm_free(s);
  free(s->reps);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

AscSanitizer *asc_sanitizer_new(AscSanMode mode, int flags, int core_num) {
  AscSanitizer *s = NULL;
  pthread_once(&fork_once, register_fork);
  pthread_mutex_lock(&cache_lock);
  if (n_cache)
    s = cache[--n_cache];
  pthread_mutex_unlock(&cache_lock);
  if (!s) {
    if (!(s = calloc(1, sizeof *s)))
      return NULL;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
      free(s);
      return NULL;
    }
  }
  s->mode = mode;
  s->flags = flags;
  s->core_num = core_num;
  s->id = atomic_fetch_add(&next_launch_id, 1);
  s->in_use = NULL;
  s->n_reps = 0;
  s->dropped = 0;
  s->err_index = -1;
  s->obs.self = s;
  s->obs.block_begin = on_block_begin;
  s->obs.event = on_event;
  s->obs.skip_quiet = 1; /* on_event returns at once for those */
  s->obs.block_end = on_block_end;
  if (!san_gm_begin(s)) {
    sanitizer_destroy(s);
    return NULL;
  }
  return s;
}

const AscObserver *asc_sanitizer_observer(AscSanitizer *s) { return &s->obs; }

static void release_shadows(AscSanitizer *s) {
  pthread_mutex_lock(&s->lock);
  Shadow *sh = s->in_use;
  s->in_use = NULL;
  pthread_mutex_unlock(&s->lock);
  while (sh) {
    Shadow *next = sh->next;
    shadow_give(sh);
    sh = next;
  }
}

void asc_sanitizer_free(AscSanitizer *s) {
  if (!s)
    return;
  release_shadows(s);
  san_gm_trim(s);
  pthread_mutex_lock(&cache_lock);
  int kept = n_cache < SAN_CACHE;
  if (kept)
    cache[n_cache++] = s;
  pthread_mutex_unlock(&cache_lock);
  if (!kept)
    sanitizer_destroy(s);
}

static int cmp_rep(const void *pa, const void *pb) {
  const Rep *a = pa, *b = pb;
  return rep_before(a, b) ? -1 : rep_before(b, a) ? 1 : 0;
}

AscStatus asc_sanitizer_finish(AscSanitizer *s, AscStatus status,
                               AscLaunchError *err) {
  release_shadows(s);
  int before = s->n_reps;
  if (status == ASC_OK && s->gm) {
    san_core_races(s);
    san_dc_races(s);
  }
  if (s->mode == ASC_SAN_ERROR) {
    /* keep the warnings and the report the launch fails with */
    int keep_i = -1;
    for (int i = 0; i < s->n_reps; i++) {
      const Rep *r = &s->reps[i];
      if (r->r.warning)
        continue;
      if (status == ASC_ERR_SANITIZER && i < before && r->r.block == err->block)
        keep_i = keep_i < 0 ? i : keep_i;
      if (status == ASC_OK && i >= before &&
          (keep_i < 0 || cmp_rep(r, &s->reps[keep_i]) < 0))
        keep_i = i;
    }
    int m = 0;
    Rep kept;
    int have = keep_i >= 0;
    if (have)
      kept = s->reps[keep_i];
    for (int i = 0; i < s->n_reps; i++)
      if (s->reps[i].r.warning)
        s->reps[m++] = s->reps[i];
    if (have)
      s->reps[m++] = kept;
    s->n_reps = m;
    if (have && status == ASC_OK) {
      memset(err, 0, sizeof *err);
      err->status = ASC_ERR_SANITIZER;
      err->block = kept.r.block;
      err->loc = kept.r.loc;
      err->op_name = kept.r.op;
      snprintf(err->message, sizeof err->message, "%.620s; fix: %.380s",
               kept.r.message, kept.r.fix);
      status = ASC_ERR_SANITIZER;
    }
  }
  if (s->n_reps > 1)
    qsort(s->reps, (size_t)s->n_reps, sizeof *s->reps, cmp_rep);
  s->err_index = -1;
  if (status == ASC_ERR_SANITIZER)
    for (int i = 0; i < s->n_reps; i++)
      if (!s->reps[i].r.warning && s->reps[i].r.block == err->block) {
        s->err_index = i;
        break;
      }
  return status;
}

int asc_sanitizer_count(const AscSanitizer *s) { return s->n_reps; }

const AscSanReport *asc_sanitizer_report(const AscSanitizer *s, int i) {
  return i >= 0 && i < s->n_reps ? &s->reps[i].r : NULL;
}

int asc_sanitizer_error_index(const AscSanitizer *s) { return s->err_index; }
