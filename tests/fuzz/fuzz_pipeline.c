/* fuzz_ir: one input through the path a kernel takes (parse, verify, the
 * print round trip, canonicalize + dce, verify and the round trip again,
 * emit Ascend C; then fuzz_launch.c compiles and launches it) and the
 * findings: reporting one, printing and saving the input, also from a
 * signal handler or the sanitizer's death callback. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asc/emit.h"
#include "asc/ir.h"
#include "asc/passes.h"

#include "fuzz_ir.h"

/* ---- findings ----------------------------------------------------------- */

static const char *const STAGE_NAMES[] = {
    "none",
    "parse",
    "verify",
    "print",
    "passes",
    "verify-after-passes",
    "print-after-passes",
    "emit",
    "compile",
    "launch-observed",
    "launch-plain",
    "launch-before-passes",
    "done",
};

static volatile sig_atomic_t g_stage;
static const char *volatile g_cur; /* the input being run */
static volatile size_t g_cur_len;
static char g_cur_path[4096]; /* where it is saved on a finding */
static volatile sig_atomic_t g_dumped;
int g_found;
static int g_known; /* the current input hit a known (--ignore) finding */
int g_verified;

Stats g_stats;

/* async-signal-safe output */
static void wr(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t k = write(fd, s, n);
    if (k <= 0) {
      if (k < 0 && errno == EINTR)
        continue;
      return;
    }
    s += k;
    n -= (size_t)k;
  }
}

static void wrs(int fd, const char *s) { wr(fd, s, strlen(s)); }

/* Prints the current input and saves it to the crash directory. Safe in a
 * signal handler (only write/open/close). */
static void dump_input(void) {
  const char *in = g_cur;
  if (!in)
    return;
  wrs(2, "--- input ---\n");
  wr(2, in, g_cur_len);
  if (g_cur_len && in[g_cur_len - 1] != '\n')
    wrs(2, "\n");
  wrs(2, "--- end of input ---\n");
  if (g_cur_path[0]) {
    int fd = open(g_cur_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      wr(fd, in, g_cur_len);
      close(fd);
      wrs(2, "fuzz_ir: saved as ");
      wrs(2, g_cur_path);
      wrs(2, "\n");
    }
  }
}

#ifndef ASC_LIBFUZZER /* libFuzzer catches crashes and hangs itself */
/* Writes v in decimal (async-signal-safe). */
static void wr_long(int fd, long v) {
  char buf[24];
  int k = (int)sizeof buf;
  unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
  do
    buf[--k] = (char)('0' + u % 10);
  while ((u /= 10) && k > 1);
  if (v < 0)
    buf[--k] = '-';
  wr(fd, buf + k, sizeof buf - (size_t)k);
}

static void fatal_dump(const char *kind, const char *detail) {
  if (g_dumped)
    return;
  g_dumped = 1;
  wrs(2, "fuzz_ir: input #");
  wr_long(2, g_stats.inputs);
  wrs(2, "\n");
  wrs(2, "fuzz_ir: FINDING [");
  int st = (int)g_stage;
  wrs(2, st >= 0 && st <= ST_DONE ? STAGE_NAMES[st] : "?");
  wrs(2, "] ");
  wrs(2, kind);
  wrs(2, ": ");
  wrs(2, detail);
  wrs(2, "\n");
  dump_input();
}

static void on_sanitizer_death(void) {
  fatal_dump("sanitizer", g_cur ? "see the report above"
                                : "see the report above (no current input: "
                                  "a leak found at exit?)");
}

static void on_signal(int sig) {
  const char *name = sig == SIGSEGV   ? "SIGSEGV"
                     : sig == SIGBUS  ? "SIGBUS"
                     : sig == SIGFPE  ? "SIGFPE"
                     : sig == SIGILL  ? "SIGILL"
                     : sig == SIGABRT ? "SIGABRT"
                                      : "signal";
  fatal_dump("crash", name);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_alarm(int sig) {
  (void)sig;
  fatal_dump("hang", "the input ran past the --timeout watchdog");
  _exit(3);
}

void install_handlers(void) {
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(on_sanitizer_death);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  sa.sa_handler = on_signal;
  /* ASan catches the faults itself and reports them with a stack; then the
   * death callback prints the input */
  if (!__sanitizer_set_death_callback) {
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
  }
  sigaction(SIGABRT, &sa, NULL);
}
#endif

void note(const char *fmt, ...) {
  if (g_verbose < 2)
    return;
  va_list ap;
  va_start(ap, fmt);
  printf("  [%s] ", STAGE_NAMES[g_stage]);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

void finding(const char *kind, const char *fmt, ...) {
  /* one report per input: what follows a broken invariant is noise */
  if (g_found || g_known)
    return;
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char line[2304];
  snprintf(line, sizeof line, "[%s] %s: %s", STAGE_NAMES[g_stage], kind, msg);
  for (int i = 0; i < g_n_ignore; i++)
    if (strstr(line, g_ignore[i])) {
      g_known = 1;
      g_stats.known++;
      note("known finding (--ignore): %s", line);
      return;
    }
  g_found = 1;
  g_stats.findings++;
  fflush(stdout);
  fprintf(stderr, "fuzz_ir: FINDING %s\n", line);
  fflush(stderr);
  dump_input();
}

/* A failed call must leave an error status and a non-empty message. */
void expect_error(AscContext *ctx, AscStatus returned, const char *call) {
  AscStatus s = asc_context_status(ctx);
  const char *msg = asc_context_message(ctx);
  note("%s failed: status %d: %s", call, (int)s, msg ? msg : "(null)");
  if (s == ASC_OK)
    finding("no-status", "%s failed but the context holds no error", call);
  else if (returned != ASC_OK && returned != s)
    finding("bad-status", "%s returned status %d but recorded %d", call,
            (int)returned, (int)s);
  else if (!msg || !*msg)
    finding("no-message", "%s failed (status %d) without a message", call,
            (int)s);
  else if (s == ASC_ERR_INTERNAL && g_internal_is_finding)
    finding("internal-error", "%s: %s", call, msg);
}

/* ---- the pipeline ------------------------------------------------------- */

void set_stage(Stage s) { g_stage = s; }

/* The first line where two texts differ, for the report. */
static void first_difference(const char *a, const char *b, char *out,
                             size_t size) {
  int line = 1;
  const char *la = a, *lb = b;
  while (*a && *a == *b) {
    if (*a == '\n') {
      line++;
      la = a + 1;
      lb = b + 1;
    }
    a++;
    b++;
  }
  int na = (int)strcspn(la, "\n"), nb = (int)strcspn(lb, "\n");
  snprintf(out, size, "line %d:\n    first:  %.*s\n    second: %.*s", line,
           na > 300 ? 300 : na, la, nb > 300 ? 300 : nb, lb);
}

/* print → print (the same) → parse → verify → print (the same again). */
static int round_trip(AscModule *m, const char *what) {
  char *p1 = asc_module_print(m);
  if (!p1) {
    finding("print-failed", "asc_module_print returned NULL for %s", what);
    return 0;
  }
  int ok = 0;
  char diff[1024];
  char *p1b = asc_module_print(m);
  AscContext *c2 = NULL;
  char *p2 = NULL;
  if (!p1b || strcmp(p1, p1b) != 0) {
    if (p1b)
      first_difference(p1, p1b, diff, sizeof diff);
    finding("print-unstable", "printing %s twice gives different text: %s",
            what, p1b ? diff : "(second print failed)");
    goto done;
  }
  c2 = asc_context_new();
  if (!c2)
    die_oom();
  AscModule *m2 = asc_module_parse(c2, p1, "printed.ascir");
  if (!m2) {
    AscLoc l = asc_context_error_loc(c2);
    finding("printed-does-not-parse",
            "the printed text of %s does not parse: %d:%d: %s\n%s", what,
            l.line, l.col, asc_context_message(c2), p1);
    goto done;
  }
  if (asc_module_verify(m2) != ASC_OK) {
    finding("printed-does-not-verify",
            "the printed text of %s does not verify: %s\n%s", what,
            asc_context_message(c2), p1);
    goto done;
  }
  p2 = asc_module_print(m2);
  if (!p2 || strcmp(p1, p2) != 0) {
    if (p2)
      first_difference(p1, p2, diff, sizeof diff);
    finding("round-trip", "print -> parse -> print of %s differs: %s", what,
            p2 ? diff : "(print failed)");
    goto done;
  }
  ok = 1;
done:
  free(p1);
  free(p1b);
  free(p2);
  asc_context_free(c2);
  return ok;
}

static void pipeline(const char *text, uint64_t h) {
  char *before = NULL; /* the text before the passes */
  AscContext *ctx = asc_context_new();
  if (!ctx)
    die_oom();
  set_stage(ST_PARSE);
  AscModule *m = asc_module_parse(ctx, text, "fuzz.ascir");
  if (!m) {
    expect_error(ctx, ASC_OK, "asc_module_parse");
    goto out;
  }
  g_stats.parsed++;
  if (asc_context_status(ctx) != ASC_OK) {
    finding("bad-status", "the parser returned a module and an error: %s",
            asc_context_message(ctx));
    goto out;
  }
  set_stage(ST_VERIFY);
  AscStatus s = asc_module_verify(m);
  if (s) {
    expect_error(ctx, s, "asc_module_verify");
    goto out;
  }
  g_stats.verified++;
  g_verified = 1;
  set_stage(ST_PRINT);
  if (!round_trip(m, "the parsed module"))
    goto out;
  /* the front end's run_passes=False launches IR as built: 1 in 8 inputs
   * skip the passes */
  if ((h >> 17) % 8 != 0) {
    before = asc_module_print(m);
    set_stage(ST_PASSES);
    /* 1 in 4 also inserts syncs: its flags must leave every launch as it
     * was (no deadlock, no pending flag, the same results) */
    static const char *const passes[] = {"canonicalize", "dce",
                                         "insert-sync{auto-sync}"};
    /* a module of asc2 tile ops goes through the tile passes first, with a
     * small UB so that its tiles are split, and is planned (as the compiler
     * does: docs/tools.md) */
    static const char *const tile_passes[] = {
        "split-tiles{ub=4096}", "lower-tiles",           "canonicalize", "dce",
        "plan-ub{ub=16384}",    "insert-sync{auto-sync}"};
    int tiles = strstr(text, "\"asc2.") != NULL;
    int n_passes =
        tiles ? ((h >> 29) % 4 == 0 ? 6 : 5) : ((h >> 29) % 4 == 0 ? 3 : 2);
    for (int i = 0; i < n_passes; i++) {
      const char *pass = tiles ? tile_passes[i] : passes[i];
      asc_context_clear_error(ctx);
      s = asc_run_pass(m, pass);
      if (s) {
        expect_error(ctx, s, pass);
        goto out;
      }
    }
    g_stats.passes_ok++;
    set_stage(ST_VERIFY_AFTER);
    asc_context_clear_error(ctx);
    if (asc_module_verify(m) != ASC_OK) {
      finding("pass-broke-ir", "the IR does not verify after the passes: %s",
              asc_context_message(ctx));
      goto out;
    }
    set_stage(ST_PRINT_AFTER);
    if (!round_trip(m, "the module after the passes"))
      goto out;
  }
  set_stage(ST_EMIT);
  asc_context_clear_error(ctx);
  AscEmitOptions eo;
  memset(&eo, 0, sizeof eo);
  eo.line_comments = (int)((h >> 23) & 1);
  char *cpp = asc_emit_ascendc(m, &eo);
  if (!cpp)
    expect_error(ctx, ASC_OK, "asc_emit_ascendc");
  else
    g_stats.emitted++;
  free(cpp);
  if (!g_found)
    run_kernel(m, h, before);
out:
  free(before);
  asc_context_free(ctx);
}

/* The config line's hash (CONFIG_TAG), else the hash of the text. */
uint64_t config_hash(const char *text, size_t len) {
  size_t n = sizeof CONFIG_TAG - 1;
  if (len > n && strncmp(text, CONFIG_TAG, n) == 0)
    return strtoull(text + n, NULL, 16);
  return fnv1a(text, len);
}

/* Runs one input; returns the number of findings (0 or 1). */
int run_input(const char *text, size_t len) {
  uint64_t h = config_hash(text, len);
  g_cur = text;
  g_cur_len = len;
  g_cur_path[0] = 0;
  if (g_crash_dir)
    snprintf(g_cur_path, sizeof g_cur_path, "%s/ir-%016llx.ascir", g_crash_dir,
             (unsigned long long)fnv1a(text, len));
  g_found = 0;
  g_known = 0;
  g_verified = 0;
  g_stats.inputs++;
  if (g_timeout > 0)
    alarm((unsigned)g_timeout);
  pipeline(text, h);
  if (g_timeout > 0)
    alarm(0);
  set_stage(ST_DONE);
  g_cur = NULL;
  return g_found;
}
