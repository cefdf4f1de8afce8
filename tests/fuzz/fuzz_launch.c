/* fuzz_ir: compiling the first kernel of an input and launching it. Every
 * GM argument gets a buffer between guard bytes (and, without ASan, between
 * inaccessible pages); the launch runs observed by the sanitizer and the
 * timing model, then plain, then as the module was before the passes, and
 * the results must agree. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "sim/sanitizer.h"
#include "sim/timing.h"

#include "fuzz_ir.h"

enum {
  GM_BYTES = 4096, /* the usual size of a GM argument */
  GUARD = 64,      /* guard bytes on each side of a GM buffer */
};

static const AscOp *first_kernel(const AscModule *m) {
  for (const AscOp *f = m->body->first; f; f = f->next)
    if (f->id == ASC_OP_FUNC && asc_op_attr_int(f, "kernel", 0) != 0 &&
        asc_op_attr_str(f, "sym_name"))
      return f;
  return NULL;
}

typedef struct GmBuf {
  unsigned char *base; /* GUARD + n + GUARD bytes */
  unsigned char *init; /* the initial n bytes */
  size_t n;
  int readonly;
  void *map; /* the mapping holding base, between two inaccessible pages */
  size_t map_len;
} GmBuf;

/* GUARD + n + GUARD bytes. Without ASan they end where an inaccessible
 * page begins, with one more before them: a write past the guard bytes
 * faults at once instead of corrupting the heap silently. With ASan, malloc
 * memory gets a report that names the access. */
static void gm_alloc(GmBuf *g, size_t n) {
  if (__sanitizer_set_death_callback) {
    g->base = malloc(n + 2 * GUARD);
    if (!g->base)
      die_oom();
    return;
  }
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t need = n + 2 * GUARD;
  size_t body = (need + page - 1) / page * page;
  g->map_len = body + 2 * page;
  g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (g->map == MAP_FAILED)
    die_oom();
  unsigned char *m = g->map;
  if (mprotect(m, page, PROT_NONE) != 0 ||
      mprotect(m + page + body, page, PROT_NONE) != 0)
    die_oom();
  g->base = m + page + body - need;
}

static unsigned char guard_byte(size_t i) {
  return (unsigned char)(0xA5 ^ (i * 29));
}

/* Small integer arguments, mostly lengths that fit 4 KiB buffers. */
static int64_t int_arg(Rng *r, AscDType dt) {
  static const int64_t common[] = {64,  128,  256, 32, 8, 1,   16,
                                   512, 1024, 0,   2,  3, 100, 4096};
  static const int64_t edge[] = {
      -1, INT32_MAX, INT32_MIN, 65536, 1 << 20, INT64_MAX, INT64_MIN, 255, 127};
  int64_t v = chance(r, 8) ? edge[below(r, sizeof edge / sizeof *edge)]
                           : common[below(r, sizeof common / sizeof *common)];
  if (dt == ASC_DT_BOOL)
    return v & 1;
  size_t bits = asc_dtype_size(dt) * 8;
  /* the Python binding admits only values of the parameter's width */
  if (bits && bits < 64) {
    int64_t lo = -((int64_t)1 << (bits - 1)),
            hi = ((int64_t)1 << (bits - 1)) - 1;
    if (v < lo)
      v = lo;
    if (v > hi)
      v = hi;
  }
  return v;
}

static double float_arg(Rng *r) {
  static const double odd[] = {0.0, -0.0, 1e30, -3.0, 65504.0};
  if (!chance(r, 5))
    return 1.5;
  if (chance(r, 4))
    return chance(r, 2) ? NAN : INFINITY;
  return odd[below(r, sizeof odd / sizeof *odd)];
}

typedef struct LaunchSetup {
  int n;
  AscLaunchArg *args;
  GmBuf *bufs;
  int core_num;
  const AscPlatform *platform;
  int workers;
  int wrong_kind; /* an argument of the wrong kind: the launch must fail */
} LaunchSetup;

static void setup_free(LaunchSetup *s) {
  for (int i = 0; i < s->n; i++) {
    if (s->bufs[i].map)
      munmap(s->bufs[i].map, s->bufs[i].map_len);
    else
      free(s->bufs[i].base);
    free(s->bufs[i].init);
  }
  for (int i = 0; i < s->n; i++)
    free((void *)s->args[i].fields); /* a struct's numbers */
  free(s->args);
  free(s->bufs);
  memset(s, 0, sizeof *s);
}

static void setup_args(const AscKernel *k, Rng *r, LaunchSetup *s) {
  memset(s, 0, sizeof *s);
  s->n = asc_kernel_num_params(k);
  s->args = calloc((size_t)(s->n > 0 ? s->n : 1), sizeof *s->args);
  s->bufs = calloc((size_t)(s->n > 0 ? s->n : 1), sizeof *s->bufs);
  if (!s->args || !s->bufs)
    die_oom();
  s->core_num = 1 + (int)below(r, 3);
  /* the platforms the simulator runs (the others' launches refuse) */
  int sim[64], n_platforms = 0;
  for (int i = 0; asc_platform_at(i) && n_platforms < 64; i++)
    if (asc_platform_simulated(asc_platform_at(i)))
      sim[n_platforms++] = i;
  s->platform = asc_platform_at(sim[below(r, (size_t)n_platforms)]);
  s->workers = 1 + (int)below(r, 2);
  int fill = (int)below(r, 3);
  for (int i = 0; i < s->n; i++) {
    const AscType *t = asc_kernel_param_type(k, i);
    AscLaunchArg *a = &s->args[i];
    if (!t) {
      finding("no-param-type", "asc_kernel_param_type(k, %d) is NULL of %d", i,
              s->n);
      a->kind = ASC_ARG_INT;
      continue;
    }
    if (t->kind == ASC_TY_GLOBAL_ADDRESS) {
      static const size_t sizes[] = {0, 1, 32, 100, 512};
      size_t n = chance(r, 6) ? sizes[below(r, sizeof sizes / sizeof *sizes)]
                              : GM_BYTES;
      GmBuf *g = &s->bufs[i];
      g->n = n;
      gm_alloc(g, n);
      g->init = malloc(n ? n : 1);
      if (!g->base || !g->init)
        die_oom();
      for (size_t j = 0; j < GUARD; j++)
        g->base[j] = g->base[GUARD + n + j] = guard_byte(j);
      for (size_t j = 0; j < n; j++)
        g->init[j] = fill == 0   ? 0
                     : fill == 1 ? (unsigned char)((j * 13 + 7) & 0x3f)
                                 : (unsigned char)rng_next(r);
      memcpy(g->base + GUARD, g->init, n);
      g->readonly = chance(r, 8);
      a->kind = ASC_ARG_GM;
      a->ptr = g->base + GUARD;
      a->nbytes = n;
      a->readonly = g->readonly;
    } else if (asc_type_struct_info(t)) {
      /* one number per slot; sometimes one too few or too many, which the
       * launch must refuse */
      const AscStructInfo *si = asc_type_struct_info(t);
      int n = si->n_slots;
      if (chance(r, 20))
        n += chance(r, 2) ? 1 : -1;
      if (n < 0)
        n = 0;
      if (n != si->n_slots)
        s->wrong_kind = 1;
      AscLaunchArg *fs = calloc((size_t)n + 1, sizeof *fs);
      if (!fs)
        die_oom();
      for (int j = 0; j < n; j++) {
        AscDType d = asc_struct_slot_dtype(si, j);
        fs[j].kind = asc_dtype_is_float(d) ? ASC_ARG_FLOAT : ASC_ARG_INT;
        if (fs[j].kind == ASC_ARG_FLOAT)
          fs[j].f = float_arg(r);
        else
          fs[j].i = int_arg(r, d == ASC_DT_NONE ? ASC_DT_INT32 : d);
      }
      a->kind = ASC_ARG_STRUCT;
      a->fields = fs;
      a->n_fields = n;
    } else if (asc_type_is_float(t)) {
      a->kind = ASC_ARG_FLOAT;
      a->f = float_arg(r);
    } else {
      /* other parameter kinds get an int, as the Python binding passes
       * them: the launch must refuse them */
      a->kind = ASC_ARG_INT;
      a->i = int_arg(r, t->kind == ASC_TY_SCALAR ? t->dtype : ASC_DT_INT32);
    }
  }
  if (s->n && chance(r, 30)) {
    int i = (int)below(r, (size_t)s->n);
    AscArgKind kinds[] = {ASC_ARG_GM, ASC_ARG_INT, ASC_ARG_FLOAT};
    AscArgKind kind = kinds[below(r, 3)];
    if (kind != s->args[i].kind && kind != ASC_ARG_GM) {
      s->args[i].kind = kind;
      s->wrong_kind = 1;
    }
  }
}

/* Restores the buffers to their initial contents (for the second launch). */
static void setup_reset(LaunchSetup *s) {
  for (int i = 0; i < s->n; i++)
    if (s->bufs[i].base)
      memcpy(s->bufs[i].base + GUARD, s->bufs[i].init, s->bufs[i].n);
}

static void check_buffers(const LaunchSetup *s) {
  for (int i = 0; i < s->n; i++) {
    const GmBuf *g = &s->bufs[i];
    if (!g->base)
      continue;
    for (size_t j = 0; j < GUARD; j++) {
      if (g->base[j] != guard_byte(j)) {
        finding("gm-underflow",
                "GM argument %d: guard byte %zu before the buffer was "
                "overwritten",
                i, GUARD - j);
        return;
      }
      if (g->base[GUARD + g->n + j] != guard_byte(j)) {
        finding("gm-overflow",
                "GM argument %d (%zu bytes): guard byte %zu past the end was "
                "overwritten",
                i, g->n, j);
        return;
      }
    }
    if (g->readonly && memcmp(g->base + GUARD, g->init, g->n) != 0) {
      finding("readonly-written", "read-only GM argument %d was written", i);
      return;
    }
  }
}

typedef struct Deadline {
  struct timespec t;
  int hit;
} Deadline;

double seconds_since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) * 1e-9;
}

/* The launch's interrupt callback: a launch that keeps the interpreter
 * busy past --slow seconds is cancelled (slow, not hung: it still polls). */
static int past_deadline(void *ctx) {
  Deadline *d = ctx;
  if (seconds_since(&d->t) > g_slow)
    d->hit = 1;
  return d->hit;
}

static void check_timing(AscTiming *tim, int core_num) {
  if (asc_timing_duration(tim) < 0)
    finding("timing", "negative launch duration %lld",
            (long long)asc_timing_duration(tim));
  for (int b = 0; b < core_num; b++) {
    const AscTimingBlock *tb = asc_timing_block(tim, b);
    if (!tb) {
      finding("timing", "no timing for block %d", b);
      return;
    }
    for (int64_t i = 0; i < tb->n_records; i++) {
      const AscTimingRecord *rec = &tb->records[i];
      if (rec->start < 0 || rec->end < rec->start || rec->done < rec->end) {
        finding("timing",
                "block %d record %lld: start %lld, end %lld, done %lld", b,
                (long long)i, (long long)rec->start, (long long)rec->end,
                (long long)rec->done);
        return;
      }
    }
  }
  int n_sites = asc_timing_n_sites(tim);
  const AscTimingSiteStat *st = asc_timing_site_stats(tim);
  for (int i = 0; i < n_sites; i++) {
    AscLoc loc;
    AscPipe pipe;
    const char *detail = NULL;
    asc_timing_site_info(tim, i, &loc, &pipe, &detail);
    if (st && (st[i].count < 0 || st[i].busy < 0 || st[i].stall < 0)) {
      finding("timing", "site %d has negative statistics", i);
      return;
    }
  }
}

/* One launch; returns its status. observed: with the sanitizer (error mode
 * mostly, warn mode sometimes) and the timing model. */
static AscStatus launch(const AscKernel *k, LaunchSetup *s, int observed,
                        Rng *r, int *error_mode) {
  AscSanitizer *san = NULL;
  AscTiming *tim = NULL;
  AscObserver obs[2];
  int n_obs = 0;
  *error_mode = 0;
  /* family: cores: the observers see every core (block) of the launch */
  int blocks = asc_kernel_launch_blocks(k, s->core_num);
  if (blocks < 1)
    blocks = s->core_num;
  if (observed) {
    AscSanMode mode = chance(r, 4) ? ASC_SAN_WARN : ASC_SAN_ERROR;
    *error_mode = mode == ASC_SAN_ERROR;
    san = asc_sanitizer_new(mode, chance(r, 2) ? ASC_SAN_AUTO_SYNC : 0, blocks);
    if (!san)
      die_oom();
    obs[n_obs++] = *asc_sanitizer_observer(san);
    AscTimingParams prm;
    if (asc_timing_params_default(s->platform->name, &prm)) {
      tim = asc_timing_new(&prm, k, s->platform, blocks, chance(r, 2));
      if (!tim)
        die_oom();
      obs[n_obs++] = asc_timing_observer(tim);
    }
  }
  Deadline dl;
  memset(&dl, 0, sizeof dl);
  clock_gettime(CLOCK_MONOTONIC, &dl.t);
  AscLaunchOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.workers = s->workers;
  opt.observers = n_obs ? obs : NULL;
  opt.n_observers = n_obs;
  opt.max_steps = g_max_steps;
  opt.interrupt = past_deadline;
  opt.interrupt_ctx = &dl;
  AscLaunchError err;
  memset(&err, 0x5A, sizeof err); /* the launch must fill it */
  g_stats.launched++;
  AscStatus st =
      asc_kernel_launch(k, s->platform, s->core_num, s->args, s->n, &opt, &err);
  if (san)
    st = asc_sanitizer_finish(san, st, &err);
  if (st == ASC_OK)
    g_stats.launch_ok++;
  else
    g_stats.launch_failed++;
  size_t mlen = strnlen(err.message, sizeof err.message);
  note("launch (%s, %d blocks, %d workers, %s): status %d: %.*s",
       observed ? "observed" : "plain", s->core_num, s->workers,
       s->platform->name, (int)st, (int)(mlen > 300 ? 300 : mlen), err.message);
  if (mlen == sizeof err.message)
    finding("bad-launch-error", "the launch error message is not terminated");
  else if (err.status != st)
    finding("bad-launch-error", "launch returned %d, its error says %d",
            (int)st, (int)err.status);
  else if (st == ASC_ERR_INTERRUPTED && !dl.hit)
    finding("bad-launch-error", "interrupted though nobody asked: %s",
            err.message);
  else if (st == ASC_ERR_INTERRUPTED)
    g_stats.slow++;
  else if (st != ASC_OK && !err.message[0])
    finding("no-message", "launch failed (status %d) without a message",
            (int)st);
  else if (st != ASC_OK && (err.block < -1 || err.block >= blocks))
    finding("bad-launch-error", "failing block %d of %d", err.block, blocks);
  else if (st == ASC_OK && err.block != -1)
    finding("bad-launch-error", "a launch that succeeded names block %d",
            err.block);
  else if (st == ASC_OK && s->wrong_kind)
    finding("bad-launch-error",
            "a launch with an argument of the wrong kind succeeded");
  else if (st == ASC_ERR_INTERNAL && g_internal_is_finding)
    finding("internal-error", "launch: %s", err.message);
  else if (st == ASC_ERR_COMPILE)
    finding("bad-launch-error", "a launch returned ASC_ERR_COMPILE: %s",
            err.message);
  check_buffers(s);
  if (san) {
    for (int i = 0; i < asc_sanitizer_count(san); i++) {
      const AscSanReport *rep = asc_sanitizer_report(san, i);
      if (!rep || !rep->message[0] ||
          strnlen(rep->message, sizeof rep->message) == sizeof rep->message) {
        finding("sanitizer-report", "report %d has no message", i);
        break;
      }
    }
    asc_sanitizer_free(san);
  }
  if (tim) {
    if (st == ASC_OK)
      check_timing(tim, blocks);
    asc_timing_free(tim);
  }
  return st;
}

/* The results of the launch of `before` (the module as it was before the
 * passes) must be those of the launch after the passes: folding computes
 * what the simulator would have. Only launches that succeed count (dce
 * removes unused ops, faulting ones too). */
static void compare_unpassed(const char *before, LaunchSetup *s,
                             unsigned char **after_passes) {
  set_stage(ST_LAUNCH_UNPASSED);
  AscContext *c = asc_context_new();
  if (!c)
    die_oom();
  AscModule *m = asc_module_parse(c, before, "before-passes.ascir");
  const AscOp *f = m ? first_kernel(m) : NULL;
  AscKernel *k =
      f ? asc_kernel_compile(m, asc_op_attr_str(f, "sym_name")) : NULL;
  /* (the passes may have removed what the lowering rejects: no finding) */
  if (k && asc_kernel_num_params(k) == s->n) {
    setup_reset(s);
    Rng unused_rng = {0};
    int unused;
    AscStatus st = launch(k, s, 0, &unused_rng, &unused);
    if (!g_found && st == ASC_OK)
      for (int i = 0; i < s->n; i++)
        if (after_passes[i] && memcmp(after_passes[i], s->bufs[i].base + GUARD,
                                      s->bufs[i].n) != 0) {
          size_t j = 0;
          while (after_passes[i][j] == s->bufs[i].base[GUARD + j])
            j++;
          finding("passes-change-results",
                  "GM argument %d differs between the launches after and "
                  "before canonicalize + dce, first at byte %zu",
                  i, j);
          break;
        }
  }
  asc_kernel_free(k);
  asc_context_free(c);
}

static unsigned char **snapshot(const LaunchSetup *s) {
  unsigned char **v = calloc((size_t)(s->n ? s->n : 1), sizeof *v);
  if (!v)
    die_oom();
  for (int i = 0; i < s->n; i++)
    if (s->bufs[i].base) {
      v[i] = malloc(s->bufs[i].n ? s->bufs[i].n : 1);
      if (!v[i])
        die_oom();
      memcpy(v[i], s->bufs[i].base + GUARD, s->bufs[i].n);
    }
  return v;
}

static void snapshot_free(unsigned char **v, int n) {
  for (int i = 0; v && i < n; i++)
    free(v[i]);
  free(v);
}

/* (found by the inline helper) asc.get_system_cycle reads the timing
 * model's clock when it observes a launch and the step count when nothing
 * does (src/sim/system.c): a kernel that reads it may differ between the
 * observed and the plain launch by design. */
static int reads_clock(const AscBlock *b) {
  for (const AscOp *op = b->first; op; op = op->next) {
    if (op->id == ASC_OP_GET_SYSTEM_CYCLE)
      return 1;
    for (int r = 0; r < op->n_regions; r++)
      if (reads_clock(op->regions[r].block))
        return 1;
  }
  return 0;
}

/* before: the module's text before the passes (NULL: they did not run). */
void run_kernel(AscModule *m, uint64_t h, const char *before) {
  set_stage(ST_COMPILE);
  const AscOp *f = first_kernel(m);
  if (!f)
    return;
  const char *name = asc_op_attr_str(f, "sym_name");
  asc_context_clear_error(m->ctx);
  AscKernel *k = asc_kernel_compile(m, name);
  if (!k) {
    expect_error(m->ctx, ASC_OK, "asc_kernel_compile");
    return;
  }
  g_stats.compiled++;
  Rng r = {h ^ 0x6C61756E6368ull};
  LaunchSetup s;
  setup_args(k, &r, &s);
  set_stage(ST_LAUNCH_OBSERVED);
  int error_mode;
  AscStatus s1 = launch(k, &s, 1, &r, &error_mode);
  /* a slow launch would be slow again */
  if (!g_found && s1 != ASC_ERR_INTERRUPTED && !reads_clock(m->body)) {
    /* the same launch unobserved: the observers must not change results */
    unsigned char **after = snapshot(&s);
    setup_reset(&s);
    set_stage(ST_LAUNCH_PLAIN);
    int unused;
    AscStatus s2 = launch(k, &s, 0, &r, &unused);
    if (!g_found && s1 == ASC_OK && s2 == ASC_OK && error_mode)
      for (int i = 0; i < s.n; i++)
        if (after[i] &&
            memcmp(after[i], s.bufs[i].base + GUARD, s.bufs[i].n) != 0) {
          finding("observers-change-results",
                  "GM argument %d differs between the observed and the plain "
                  "launch",
                  i);
          break;
        }
    if (!g_found && s1 == ASC_OK && error_mode && s2 != ASC_OK &&
        s2 != ASC_ERR_INTERRUPTED)
      finding("observers-change-results",
              "the observed launch succeeded, the plain one failed (status "
              "%d)",
              (int)s2);
    /* and the passes must not either (a race-free launch is
     * deterministic: the sanitizer in error mode passed it) */
    if (!g_found && before && s1 == ASC_OK && error_mode && s2 == ASC_OK) {
      unsigned char **plain = snapshot(&s);
      compare_unpassed(before, &s, plain);
      snapshot_free(plain, s.n);
    }
    snapshot_free(after, s.n);
  }
  setup_free(&s);
  asc_kernel_free(k);
}
