/* fuzz_ir: a deterministic mutation fuzzer of the IR text path.
 *
 * The same ASC-IR text reaches the C core from the Python front end, from
 * IR files (asc-opt, asc-translate) and from the on-disk compile cache, so
 * no text may crash, hang or trip a sanitizer: every bad input must end in
 * an error status with a message. This program feeds the core mutated IR
 * and runs, for each input, the whole path a kernel takes:
 *
 *   parse → verify → print → parse the printed text → print (identical)
 *   → canonicalize + dce → verify → print round trip → emit Ascend C
 *   → compile the first kernel → launch it twice on small guarded GM
 *   buffers (once with the sanitizer and the timing model observing, once
 *   without) with a step budget, and once more as it was before the passes.
 *
 * A finding is any crash, sanitizer report, hang (the alarm() watchdog), a
 * failing call without an error status and message, an internal error, a
 * round trip that does not reproduce the text, a pass that leaves IR the
 * verifier rejects, a write into the guard bytes around a GM buffer or into
 * a read-only one, or results that change when the observers watch or
 * when the passes have run. The input is printed and saved (--crash-dir)
 * and the program exits non-zero.
 *
 * Everything is deterministic: the mutations come from a seeded PRNG, and
 * the launch configuration of an input (block count, argument values,
 * buffer contents, platform) from a hash of its text, so a saved input
 * replays exactly (--replay).
 *
 * Built with -DASC_LIBFUZZER (clang -fsanitize=fuzzer) the same pipeline
 * is a libFuzzer target; see tests/fuzz/README.md.
 *
 * This file has the entry points: the command line, the main loop, the
 * seeds, --fork and the minimiser (or libFuzzer's). fuzz_ir.h lists the
 * other files: the mutations, the pipeline and the launches. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asc/exec.h" /* asc_output_set_files */
#include "fuzz_ir.h"

/* ---- sanitizer runtime hooks ----------------------------------------------
 * The default options make UBSan reports fatal (a report that scrolls by is
 * a finding nobody sees) and let ASan report abort() with a stack. UBSan
 * ends in abort() rather than its own exit: GCC links it as a runtime of
 * its own, which never calls the death callback registered with ASan's
 * (__sanitizer_set_death_callback, a weak reference in fuzz_ir.h: NULL in
 * a build without sanitizers), while the SIGABRT handler of
 * fuzz_pipeline.c sees both. */
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);
const char *__asan_default_options(void) {
  return "handle_abort=1:detect_leaks=1";
}
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:abort_on_error=1:print_stacktrace=1";
}

/* ---- settings ---------------------------------------------------------- */

enum {
  POOL_MAX = 256, /* verified mutants kept to mutate further */
  MAX_FINDING_KINDS = 64,
};

int g_verbose;
const char *g_crash_dir;
int g_timeout = 30;           /* seconds per input: the watchdog */
double g_slow = 5.0;          /* seconds per launch before interrupting */
int64_t g_max_steps = 200000; /* AscLaunchOptions.max_steps */
int g_internal_is_finding = 1;
/* --ignore: findings whose report contains one of these are known ones
 * (being fixed) and do not count */
const char *g_ignore[32];
int g_n_ignore;

/* ---- libFuzzer entry point ---------------------------------------------- */

#ifdef ASC_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  init_dictionaries();
  asc_output_set_files(0); /* mutated IR must not write host files */
  g_timeout = 0;           /* libFuzzer's -timeout watches instead */
  return 0;
}

/* libFuzzer's mutations, and ours (token- and line-aware) on top. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed) {
  Rng r = {seed};
  if (chance(&r, 4))
    return LLVMFuzzerMutate(data, size, max_size);
  Buf b = {0};
  buf_set(&b, (const char *)data, strnlen((const char *)data, size));
  char names[256];
  mutate(&b, &r, names, sizeof names);
  size_t n = b.n < max_size ? b.n : max_size;
  memcpy(data, b.p, n);
  free(b.p);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > INPUT_LIMIT)
    return 0;
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  int found = run_input(text, strlen(text));
  free(text);
  if (found)
    abort(); /* libFuzzer saves the input */
  return 0;
}

#else

/* ---- seeds from files and directories ----------------------------------- */

static void corpus_add(Corpus *c, const char *text, size_t n,
                       const char *name) {
  if (c->n == c->cap) {
    int cap = c->cap ? c->cap * 2 : 64;
    Buf *v = realloc(c->v, sizeof *v * (size_t)cap);
    char **names = realloc(c->names, sizeof *names * (size_t)cap);
    if (!v || !names)
      die_oom();
    c->v = v;
    c->names = names;
    c->cap = cap;
  }
  memset(&c->v[c->n], 0, sizeof c->v[c->n]);
  buf_set(&c->v[c->n], text, n);
  c->names[c->n] = strdup(name ? name : "");
  if (!c->names[c->n])
    die_oom();
  c->n++;
}

static void corpus_free(Corpus *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->v[i].p);
    free(c->names[i]);
  }
  free(c->v);
  free(c->names);
  memset(c, 0, sizeof *c);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buf b = {0};
  char chunk[65536];
  size_t n;
  buf_reserve(&b, 0);
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    buf_reserve(&b, b.n + n);
    memcpy(b.p + b.n, chunk, n);
    b.n += n;
  }
  fclose(f);
  b.p[b.n] = 0;
  *len = strlen(b.p); /* the core reads C strings */
  return b.p;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds a file, or every *.ascir under a directory (sorted: the seed order
 * is part of the run's determinism). */
static int add_seeds(const char *path, int top) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "fuzz_ir: cannot open '%s': %s\n", path, strerror(errno));
    return -1;
  }
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) {
      fprintf(stderr, "fuzz_ir: cannot read '%s': %s\n", path, strerror(errno));
      return -1;
    }
    char **names = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
        continue;
      if (n == cap) {
        cap = cap ? cap * 2 : 64;
        char **nn = realloc(names, sizeof *names * (size_t)cap);
        if (!nn)
          die_oom();
        names = nn;
      }
      size_t len = strlen(path) + strlen(e->d_name) + 2;
      names[n] = malloc(len);
      if (!names[n])
        die_oom();
      snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    int rc = 0;
    for (int i = 0; i < n; i++) {
      struct stat es;
      if (stat(names[i], &es) == 0 &&
          (S_ISDIR(es.st_mode) || ends_with(names[i], ".ascir")))
        rc |= add_seeds(names[i], 0);
      free(names[i]);
    }
    free(names);
    return rc;
  }
  if (!top && !ends_with(path, ".ascir"))
    return 0;
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    fprintf(stderr, "fuzz_ir: cannot read '%s'\n", path);
    return -1;
  }
  corpus_add(&g_seeds, text, len, path);
  free(text);
  return 0;
}

/* ---- running inputs in child processes ----------------------------------
 * --fork runs every input in a child: a crash ends only the child, the
 * run goes on, and LeakSanitizer's check at the child's exit names the
 * input that leaked. The minimiser reruns candidates the same way. */

enum { EXIT_VERIFIED = 10 };

/* Runs text in a child; returns its wait status and, when log is given,
 * what it wrote to stderr (malloc'ed). */
static int run_in_child(const char *text, size_t len, char **out_log) {
  int fds[2] = {-1, -1};
  if (out_log && pipe(fds) != 0)
    return -1;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    if (out_log) {
      close(fds[0]);
      dup2(fds[1], 2);
      close(fds[1]);
    }
    int found = run_input(text, len);
    fflush(stdout);
    fflush(stderr);
    /* exit (not _exit) so that LeakSanitizer checks this input */
    exit(found ? 2 : g_verified ? EXIT_VERIFIED : 0);
  }
  Buf out = {0};
  if (out_log) {
    close(fds[1]);
    char chunk[4096];
    ssize_t n;
    buf_reserve(&out, 0);
    out.p[0] = 0;
    while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
      if (n < 0) {
        if (errno == EINTR)
          continue;
        break;
      }
      if (out.n < (1u << 20))
        buf_splice(&out, out.n, 0, chunk, (size_t)n);
    }
    close(fds[0]);
    *out_log = out.p;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  return status;
}

static int child_failed(int status) {
  return !(WIFEXITED(status) &&
           (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == EXIT_VERIFIED));
}

/* The file name of a path, for signatures that do not depend on where the
 * tree is. */
static const char *base_name(const char *s, const char *end) {
  const char *b = s;
  for (const char *p = s; p < end; p++)
    if (*p == '/')
      b = p + 1;
  return b;
}

/* What identifies a finding in a log: the FINDING line's stage and kind,
 * the sanitizer's headline and the first stack frame in the core (or the
 * UBSan location). */
static void signature_of(const char *text, int status, char *sig, size_t size) {
  size_t k = 0;
  sig[0] = 0;
  const char *f = strstr(text, "fuzz_ir: FINDING ");
  if (f) {
    f += strlen("fuzz_ir: FINDING ");
    size_t n = strcspn(f, ":\n");
    k += (size_t)snprintf(sig + k, size - k, "%.*s", (int)n, f);
  } else if (WIFSIGNALED(status)) {
    k += (size_t)snprintf(sig + k, size - k, "signal %d", WTERMSIG(status));
  } else {
    k += (size_t)snprintf(sig + k, size - k, "exit %d",
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  const char *u = strstr(text, ": runtime error: ");
  if (u && k < size) {
    const char *ls = u;
    while (ls > text && ls[-1] != '\n')
      ls--;
    const char *b = base_name(ls, u);
    size_t n = strcspn(u + 17, "\n");
    if (n > 60)
      n = 60;
    k += (size_t)snprintf(sig + k, size - k, " | %.*s: %.*s", (int)(u - b), b,
                          (int)n, u + 17);
  }
  const char *a = strstr(text, "Sanitizer: ");
  if (a && !u && k < size) {
    a += strlen("Sanitizer: ");
    size_t n = strcspn(a, " \n");
    k += (size_t)snprintf(sig + k, size - k, " | %.*s", (int)n, a);
    /* the first frame in the project's sources */
    for (const char *fr = strstr(a, "    #"); fr && k < size;
         fr = strstr(fr + 1, "    #")) {
      const char *eol = fr + strcspn(fr, "\n");
      const char *in = strstr(fr, " in ");
      const char *src = strstr(fr, "/src/");
      if (!in || in > eol || !src || src > eol)
        continue;
      const char *fn = in + 4;
      size_t fnl = strcspn(fn, " \n");
      const char *file = base_name(src, eol);
      size_t fl = strcspn(file, "\n");
      /* drop the column */
      const char *colon = memchr(file, ':', fl);
      if (colon) {
        const char *c2 =
            memchr(colon + 1, ':', (size_t)(file + fl - colon - 1));
        if (c2)
          fl = (size_t)(c2 - file);
      }
      k += (size_t)snprintf(sig + k, size - k, " | %.*s %.*s", (int)fnl, fn,
                            (int)fl, file);
      break;
    }
  }
}

/* ---- the minimiser ------------------------------------------------------ */

typedef struct Minimizer {
  char sig[512];
  const char *match;
  char header[64]; /* the config line every candidate starts with */
  long tries;
} Minimizer;

static int reproduces(Minimizer *mz, const Buf *b) {
  char *child_log = NULL;
  mz->tries++;
  Buf c = {0};
  buf_set(&c, mz->header, strlen(mz->header));
  buf_splice(&c, c.n, 0, b->p, b->n);
  int status = run_in_child(c.p, c.n, &child_log);
  free(c.p);
  int ok = 0;
  if (status != -1 && child_failed(status) && child_log) {
    if (mz->match) {
      ok = strstr(child_log, mz->match) != NULL;
    } else {
      char sig[512];
      signature_of(child_log, status, sig, sizeof sig);
      ok = strcmp(sig, mz->sig) == 0;
    }
  }
  free(child_log);
  return ok;
}

/* Tries b with [at, at + n) removed; keeps it when it still reproduces. */
static int try_cut(Minimizer *mz, Buf *b, size_t at, size_t n) {
  Buf c = {0};
  buf_set(&c, b->p, b->n);
  buf_splice(&c, at, n, "", 0);
  if (c.n < b->n && reproduces(mz, &c)) {
    free(b->p);
    *b = c;
    return 1;
  }
  free(c.p);
  return 0;
}

static int minimize(const char *path, const char *out_path, const char *match) {
  size_t len;
  char *text = read_file(path, &len);
  if (!text) {
    fprintf(stderr, "fuzz_ir: cannot read '%s'\n", path);
    return 2;
  }
  Minimizer mz;
  memset(&mz, 0, sizeof mz);
  mz.match = match;
  snprintf(mz.header, sizeof mz.header, "%s%016llx\n", CONFIG_TAG,
           (unsigned long long)config_hash(text, len));
  /* the body without an existing config line */
  const char *body = text;
  if (strncmp(text, CONFIG_TAG, sizeof CONFIG_TAG - 1) == 0) {
    body = strchr(text, '\n');
    body = body ? body + 1 : text + len;
  }
  Buf b = {0};
  buf_set(&b, body, strlen(body));
  free(text);
  char *child_log = NULL;
  Buf first = {0};
  buf_set(&first, mz.header, strlen(mz.header));
  buf_splice(&first, first.n, 0, b.p, b.n);
  int status = run_in_child(first.p, first.n, &child_log);
  free(first.p);
  if (status == -1 || !child_failed(status)) {
    fprintf(stderr, "fuzz_ir: '%s' does not fail: nothing to minimise\n", path);
    free(child_log);
    free(b.p);
    return 2;
  }
  signature_of(child_log ? child_log : "", status, mz.sig, sizeof mz.sig);
  free(child_log);
  printf("fuzz_ir: minimising %s (%zu bytes), finding: %s\n", path, b.n,
         match ? match : mz.sig);
  for (int round = 0; round < 4; round++) {
    size_t before = b.n;
    /* runs of lines, halving */
    Lines l = {0};
    split_lines(&b, &l);
    for (int chunk = l.n / 2 > 0 ? l.n / 2 : 1; chunk >= 1; chunk /= 2) {
      for (int i = 0; i < l.n;) {
        int e = i + chunk < l.n ? i + chunk : l.n;
        if (try_cut(&mz, &b, l.at[i], l.at[e] - l.at[i]))
          split_lines(&b, &l);
        else
          i += chunk;
      }
    }
    free(l.at);
    /* locations and comments, then single tokens, from the end */
    Toks t = {0};
    tokenize(&b, &t);
    for (int i = t.n - 1; i >= 0; i--) {
      if (i >= t.n)
        continue;
      Span s = t.v[i];
      size_t n = s.n;
      if (tok_eq(&b, &s, "loc") && i + 1 < t.n) {
        /* loc(...) as a whole */
        size_t e = s.at;
        while (e < b.n && b.p[e] != ')' && b.p[e] != '\n')
          e++;
        if (e < b.n && b.p[e] == ')')
          n = e + 1 - s.at;
      }
      while (s.at + n < b.n && b.p[s.at + n] == ' ')
        n++;
      if (try_cut(&mz, &b, s.at, n))
        tokenize(&b, &t);
    }
    free(t.v);
    printf("fuzz_ir: round %d: %zu bytes (%ld runs)\n", round + 1, b.n,
           mz.tries);
    if (b.n == before)
      break;
  }
  char out[4096];
  if (!out_path) {
    snprintf(out, sizeof out, "%s.min", path);
    out_path = out;
  }
  FILE *f = fopen(out_path, "wb");
  if (!f || fputs(mz.header, f) < 0 || fwrite(b.p, 1, b.n, f) != b.n ||
      fclose(f) != 0) {
    fprintf(stderr, "fuzz_ir: cannot write '%s'\n", out_path);
    free(b.p);
    return 2;
  }
  printf("fuzz_ir: minimised to %zu bytes: %s\n%s%s%s", b.n, out_path,
         mz.header, b.p, b.n && b.p[b.n - 1] == '\n' ? "" : "\n");
  free(b.p);
  return 0;
}

/* ---- distinct findings of a --fork run ---------------------------------- */

typedef struct FindingKind {
  char sig[512];
  char file[4096];
  long count;
} FindingKind;

static FindingKind g_kinds[MAX_FINDING_KINDS];
static int g_n_kinds;

/* Returns 1 for a finding not seen before in this run. */
static int record_finding(const char *sig, const char *file) {
  for (int i = 0; i < g_n_kinds; i++)
    if (strcmp(g_kinds[i].sig, sig) == 0) {
      g_kinds[i].count++;
      return 0;
    }
  if (g_n_kinds == MAX_FINDING_KINDS)
    return 0;
  FindingKind *k = &g_kinds[g_n_kinds++];
  snprintf(k->sig, sizeof k->sig, "%s", sig);
  snprintf(k->file, sizeof k->file, "%s", file);
  k->count = 1;
  printf("fuzz_ir: new finding #%d: %s (%s)\n", g_n_kinds, sig, file);
  fflush(stdout);
  return 1;
}

/* ---- main ------------------------------------------------------------- */

static void usage(FILE *f) {
  fprintf(
      f, "usage: fuzz_ir [options] SEED_FILES_OR_DIRS...\n"
         "       fuzz_ir --replay FILE [--verbose]\n"
         "       fuzz_ir --minimize FILE [-o OUT] [--match TEXT]\n"
         "\n"
         "Mutates ASC-IR seeds (files, or *.ascir under directories) and runs\n"
         "each input through parse, verify, print round trip, canonicalize +\n"
         "dce, Ascend C emission, compilation and simulator launches.\n"
         "Exits 1 on a finding (the input is printed and saved).\n"
         "\n"
         "  --seed S          PRNG seed (default 1)\n"
         "  --iterations N    mutated inputs to run (default 1000)\n"
         "  --crash-dir D     save findings as D/ir-HASH.ascir\n"
         "  --keep-going      report findings and go on (exit 1 at the end)\n"
         "  --fork            run every input in a child process (implies\n"
         "                    --keep-going; crashes do not end the run)\n"
         "  --timeout S       watchdog per input, seconds (default 30)\n"
         "  --slow S          interrupt a launch after S seconds (default 5)\n"
         "  --max-steps N     the launches' step budget (default 200000)\n"
         "  --no-internal     do not count ASC_ERR_INTERNAL as a finding\n"
         "  --ignore TEXT     findings whose report contains TEXT are known\n"
         "                    ones: counted apart, no failure (repeatable)\n"
         "  --replay FILE     run one input, print each stage's outcome\n"
         "  --minimize FILE   shrink a finding (-o OUT, default FILE.min;\n"
         "                    --match TEXT: keep candidates whose report\n"
         "                    contains TEXT instead of the same signature)\n"
         "  --dry-run         print the inputs instead of running them\n"
         "  --verbose         one line per input (twice: every stage)\n");
}

static int parse_long(const char *s, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || !*s || *end)
    return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  asc_output_set_files(0); /* mutated IR must not write host files */
  long long seed = 1, iterations = 1000;
  int keep_going = 0;
  const char *replay = NULL, *minimize_path = NULL, *out_path = NULL,
             *match = NULL;
  int fork_mode = 0, dry_run = 0;
  const char **inputs = calloc((size_t)argc, sizeof *inputs);
  int n_inputs = 0;
  if (!inputs)
    die_oom();
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long num = 0;
    int needs = strcmp(a, "--seed") == 0 || strcmp(a, "--iterations") == 0 ||
                strcmp(a, "--crash-dir") == 0 || strcmp(a, "--timeout") == 0 ||
                strcmp(a, "--slow") == 0 || strcmp(a, "--max-steps") == 0 ||
                strcmp(a, "--replay") == 0 || strcmp(a, "--minimize") == 0 ||
                strcmp(a, "-o") == 0 || strcmp(a, "--match") == 0 ||
                strcmp(a, "--ignore") == 0;
    if (needs && !v) {
      fprintf(stderr, "fuzz_ir: %s needs a value\n", a);
      return 2;
    }
    int numeric = strcmp(a, "--seed") == 0 || strcmp(a, "--iterations") == 0 ||
                  strcmp(a, "--timeout") == 0 || strcmp(a, "--max-steps") == 0;
    if (numeric && parse_long(v, &num)) {
      fprintf(stderr, "fuzz_ir: %s needs a number, got '%s'\n", a, v);
      return 2;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--seed") == 0) {
      seed = num;
    } else if (strcmp(a, "--iterations") == 0) {
      iterations = num;
    } else if (strcmp(a, "--timeout") == 0) {
      g_timeout = (int)num;
    } else if (strcmp(a, "--max-steps") == 0) {
      g_max_steps = num;
    } else if (strcmp(a, "--slow") == 0) {
      g_slow = atof(v);
    } else if (strcmp(a, "--crash-dir") == 0) {
      g_crash_dir = v;
    } else if (strcmp(a, "--replay") == 0) {
      replay = v;
    } else if (strcmp(a, "--minimize") == 0) {
      minimize_path = v;
    } else if (strcmp(a, "-o") == 0) {
      out_path = v;
    } else if (strcmp(a, "--match") == 0) {
      match = v;
    } else if (strcmp(a, "--ignore") == 0) {
      if (g_n_ignore == (int)(sizeof g_ignore / sizeof *g_ignore)) {
        fprintf(stderr, "fuzz_ir: too many --ignore\n");
        return 2;
      }
      g_ignore[g_n_ignore++] = v;
    } else if (strcmp(a, "--keep-going") == 0) {
      keep_going = 1;
    } else if (strcmp(a, "--fork") == 0) {
      fork_mode = keep_going = 1;
    } else if (strcmp(a, "--dry-run") == 0) {
      dry_run = 1;
    } else if (strcmp(a, "--no-internal") == 0) {
      g_internal_is_finding = 0;
    } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
      g_verbose++;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fuzz_ir: unknown option '%s' (see --help)\n", a);
      return 2;
    } else {
      inputs[n_inputs++] = a;
    }
    if (needs)
      i++;
  }
  init_dictionaries();
  install_handlers();
  if (g_crash_dir)
    mkdir(g_crash_dir, 0755);
  if (minimize_path) {
    free(inputs);
    g_crash_dir = NULL; /* the candidates are not findings to save */
    return minimize(minimize_path, out_path, match);
  }
  if (replay) {
    size_t len;
    char *text = read_file(replay, &len);
    if (!text) {
      fprintf(stderr, "fuzz_ir: cannot read '%s'\n", replay);
      return 2;
    }
    if (g_verbose < 2)
      g_verbose = 2;
    printf("fuzz_ir: replaying %s (%zu bytes)\n", replay, len);
    int found = run_input(text, len);
    printf("fuzz_ir: %s\n", found ? "FINDING (see above)" : "no finding");
    free(text);
    free(inputs);
    return found ? 1 : 0;
  }
  if (!n_inputs) {
    usage(stderr);
    return 2;
  }
  for (int i = 0; i < n_inputs; i++)
    if (add_seeds(inputs[i], 1))
      return 2;
  free(inputs);
  if (!g_seeds.n) {
    fprintf(stderr, "fuzz_ir: no seeds found\n");
    return 2;
  }
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Rng rng = {(uint64_t)seed};
  Buf cur = {0};
  int stop = 0;
  long total = g_seeds.n + iterations;
  for (long it = 0; it < total && !stop; it++) {
    char mutations[256] = "seed";
    const char *from;
    if (it < g_seeds.n) {
      /* every seed as it is first */
      buf_set(&cur, g_seeds.v[it].p, g_seeds.v[it].n);
      from = g_seeds.names[it];
    } else {
      int use_pool = g_pool.n && chance(&rng, 2);
      int idx = (int)below(&rng, (size_t)(use_pool ? g_pool.n : g_seeds.n));
      const Corpus *c = use_pool ? &g_pool : &g_seeds;
      buf_set(&cur, c->v[idx].p, c->v[idx].n);
      from = use_pool ? "pool" : c->names[idx];
      mutate(&cur, &rng, mutations, sizeof mutations);
    }
    int found = 0, verified = 0;
    long before = g_stats.verified;
    if (dry_run) {
      printf("=== #%ld %s [%s]\n%s\n", it, from, mutations, cur.p);
      continue;
    }
    if (fork_mode) {
      g_stats.inputs++;
      char *child_log = NULL;
      int status = run_in_child(cur.p, cur.n, &child_log);
      verified = WIFEXITED(status) && WEXITSTATUS(status) == EXIT_VERIFIED;
      if (verified)
        g_stats.verified++;
      if (status == -1 || child_failed(status)) {
        found = 1;
        g_stats.findings++;
        char sig[512];
        signature_of(child_log ? child_log : "", status, sig, sizeof sig);
        uint64_t h = fnv1a(cur.p, cur.n);
        char file[4096] = "";
        if (g_crash_dir) {
          snprintf(file, sizeof file, "%s/ir-%016llx", g_crash_dir,
                   (unsigned long long)h);
          char path[4200];
          snprintf(path, sizeof path, "%s.ascir", file);
          FILE *f = fopen(path, "wb");
          if (f) {
            fwrite(cur.p, 1, cur.n, f);
            fclose(f);
          }
          snprintf(path, sizeof path, "%s.log", file);
          f = fopen(path, "wb");
          if (f) {
            if (child_log)
              fputs(child_log, f);
            fclose(f);
          }
        }
        /* the child's report, once per distinct finding, when it is not
         * saved beside the input */
        if (record_finding(sig, file) && !g_crash_dir && child_log)
          fputs(child_log, stderr);
      }
      free(child_log);
    } else {
      found = run_input(cur.p, cur.n);
      verified = g_stats.verified > before;
    }
    if (g_verbose)
      printf("fuzz_ir: #%ld %s [%s] %zu bytes:%s%s\n", it, from, mutations,
             cur.n, verified ? " verified" : "", found ? " FINDING" : "");
    if (found && !keep_going)
      stop = 1;
    /* verified mutants are mutated further: deeper than one step from a
     * seed, still mostly valid */
    if (verified && it >= g_seeds.n) {
      if (g_pool.n < POOL_MAX) {
        corpus_add(&g_pool, cur.p, cur.n, "pool");
      } else {
        int k = (int)below(&rng, POOL_MAX);
        buf_set(&g_pool.v[k], cur.p, cur.n);
      }
    }
    if (!g_verbose && fork_mode && (it + 1) % 1000 == 0) {
      printf("fuzz_ir: %ld inputs, %ld verified, %ld findings (%d distinct), "
             "%.0f s\n",
             it + 1, g_stats.verified, g_stats.findings, g_n_kinds,
             seconds_since(&t0));
      fflush(stdout);
    }
  }
  double secs = seconds_since(&t0);
  if (fork_mode)
    printf("fuzz_ir: %ld inputs in %.1f s (seed %lld, one process each): %ld "
           "verified; %ld finding%s (%d distinct)\n",
           g_stats.inputs, secs, seed, g_stats.verified, g_stats.findings,
           g_stats.findings == 1 ? "" : "s", g_n_kinds);
  else
    printf("fuzz_ir: %ld inputs in %.1f s (seed %lld): %ld parsed, %ld "
           "verified, %ld through the passes, %ld emitted, %ld compiled, %ld "
           "launches (%ld ok, %ld failed, %ld slow); %ld finding%s, %ld "
           "known\n",
           g_stats.inputs, secs, seed, g_stats.parsed, g_stats.verified,
           g_stats.passes_ok, g_stats.emitted, g_stats.compiled,
           g_stats.launched, g_stats.launch_ok, g_stats.launch_failed,
           g_stats.slow, g_stats.findings, g_stats.findings == 1 ? "" : "s",
           g_stats.known);
  for (int i = 0; i < g_n_kinds; i++)
    printf("  %5ld x %s  (%s)\n", g_kinds[i].count, g_kinds[i].sig,
           g_kinds[i].file);
  free(cur.p);
  corpus_free(&g_seeds);
  corpus_free(&g_pool);
  return g_stats.findings ? 1 : 0;
}

#endif
