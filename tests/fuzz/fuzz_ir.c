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
 * is a libFuzzer target; see tests/fuzz/README.md. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asc/emit.h"
#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "sim/sanitizer.h"
#include "sim/timing.h"

/* ---- sanitizer runtime hooks ----------------------------------------------
 * Weak references: in a build without sanitizers these are NULL. The
 * default options make UBSan reports fatal (a report that scrolls by is a
 * finding nobody sees) and let ASan report abort() with a stack. UBSan
 * ends in abort() rather than its own exit: GCC links it as a runtime of
 * its own, which never calls the death callback registered with ASan's,
 * while the SIGABRT handler below sees both. */
extern void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));
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
  INPUT_LIMIT = 1 << 18, /* mutations never grow an input past this */
  GM_BYTES = 4096,       /* the usual size of a GM argument */
  GUARD = 64,            /* guard bytes on each side of a GM buffer */
  POOL_MAX = 256,        /* verified mutants kept to mutate further */
  MAX_FINDING_KINDS = 64,
};

static int g_verbose;
static const char *g_crash_dir;
static int g_timeout = 30;  /* seconds per input: the watchdog */
static double g_slow = 5.0; /* seconds per launch before interrupting */
static int64_t g_max_steps = 200000; /* AscLaunchOptions.max_steps */
static int g_internal_is_finding = 1;
/* --ignore: findings whose report contains one of these are known ones
 * (being fixed) and do not count */
static const char *g_ignore[32];
static int g_n_ignore;

/* ---- PRNG (splitmix64) -------------------------------------------------- */

typedef struct Rng {
  uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static size_t below(Rng *r, size_t n) {
  return n ? (size_t)(rng_next(r) % n) : 0;
}

static int chance(Rng *r, int one_in) { return below(r, (size_t)one_in) == 0; }

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* ---- text buffers ------------------------------------------------------ */

typedef struct Buf {
  char *p;
  size_t n, cap;
} Buf;

static void die_oom(void) {
  fputs("fuzz_ir: out of memory\n", stderr);
  exit(2);
}

static void buf_reserve(Buf *b, size_t n) {
  if (n + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < n + 1)
    cap *= 2;
  char *p = realloc(b->p, cap);
  if (!p)
    die_oom();
  b->p = p;
  b->cap = cap;
}

static void buf_set(Buf *b, const char *s, size_t n) {
  if (n > PTRDIFF_MAX / 2) /* tells the optimiser that sizes are sane */
    die_oom();
  buf_reserve(b, n);
  memcpy(b->p, s, n);
  b->n = n;
  b->p[n] = 0;
}

/* Replaces b[at, at + del) by ins[0, n). Returns 0 when the result would
 * exceed INPUT_LIMIT (b unchanged). The text is a C string for the parser:
 * a NUL byte inserted here ends it. */
static int buf_splice(Buf *b, size_t at, size_t del, const char *ins,
                      size_t n) {
  if (at > b->n)
    at = b->n;
  if (del > b->n - at)
    del = b->n - at;
  size_t len = b->n - del + n;
  if (len > INPUT_LIMIT)
    return 0;
  /* ins may point into b itself (duplicating a range) */
  char *copy = NULL;
  if (n && ins >= b->p && ins < b->p + b->cap) {
    copy = malloc(n);
    if (!copy)
      die_oom();
    memcpy(copy, ins, n);
    ins = copy;
  }
  buf_reserve(b, len);
  memmove(b->p + at + n, b->p + at + del, b->n - at - del);
  if (n)
    memcpy(b->p + at, ins, n);
  b->n = len;
  b->p[len] = 0;
  b->n = strlen(b->p);
  free(copy);
  return 1;
}

static int buf_insert_str(Buf *b, size_t at, const char *s) {
  return buf_splice(b, at, 0, s, strlen(s));
}

/* ---- dictionaries from the core's own tables --------------------------- */

static const char *g_op_names[ASC_OP_COUNT];
static const char *g_dtype_names[ASC_DT_COUNT];
static int g_n_dtypes;

typedef struct EnumName {
  AscEnumKind kind;
  const char *name;
} EnumName;

static EnumName g_enum_names[1024];
static int g_n_enum_names;
static const char *g_positions[64]; /* TPosition names, for types */
static int g_n_positions;

static void init_dictionaries(void) {
  for (int i = 0; i < ASC_OP_COUNT; i++)
    g_op_names[i] = asc_op_info((AscOpId)i)->name;
  for (int d = 1; d < ASC_DT_COUNT; d++)
    g_dtype_names[g_n_dtypes++] = asc_dtype_ir_name((AscDType)d);
  for (int k = 0; k < ASC_ENUM_KIND_COUNT; k++)
    for (int64_t v = 0; v < 256; v++) {
      const char *n = asc_enum_value_name((AscEnumKind)k, v);
      if (!n ||
          g_n_enum_names >= (int)(sizeof g_enum_names / sizeof g_enum_names[0]))
        continue;
      g_enum_names[g_n_enum_names].kind = (AscEnumKind)k;
      g_enum_names[g_n_enum_names++].name = n;
      if (k == ASC_ENUM_TPOSITION && g_n_positions < 64)
        g_positions[g_n_positions++] = n;
    }
}

/* Edge values of the integer literals: the bounds of every width a value
 * may be stored in, on both sides. */
static const char *const EDGE_INTS[] = {
    "0",
    "-1",
    "1",
    "31",
    "32",
    "255",
    "256",
    "65535",
    "2147483647",
    "2147483648",
    "4294967296",
    "2305843009213693952",
    "4611686018427387904",
    "-4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
    "-2147483648",
    "18446744073709551615",
    "65536",
    "8",
    "64",
    "4095",
    "196608",
    "127",
    "-128",
    "32767",
    "-32768",
    "16383",
    "8191",
    "3",
};

static const char *const EDGE_FLOATS[] = {
    "nan", "inf", "-inf",  "-0.0",  "1e308",  "-1e308", "1e-320",
    "0.0", "1.5", "65504", "65520", "3.5e38", "-2.5",   "1e19",
};

/* ---- a lenient tokenizer ----------------------------------------------
 * The mutators work on tokens of the IR's text form; unlike the parser this
 * never fails: a byte it does not know is a one-byte token. */

typedef enum TokKind {
  K_PUNCT,
  K_IDENT,
  K_INT,
  K_FLOAT,
  K_STRING,
  K_VALUE,
  K_BANG,
  K_HASH,
  K_BLOCK,
  K_SYMBOL,
} TokKind;

typedef struct Span {
  size_t at, n;
  TokKind kind;
} Span;

typedef struct Toks {
  Span *v;
  int n, cap;
} Toks;

static int id_char(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

static int digit(int c) { return c >= '0' && c <= '9'; }

static size_t scan_num(const char *s, size_t i, size_t n, int *is_float) {
  *is_float = 0;
  if (i < n && (s[i] == '-' || s[i] == '+'))
    i++;
  if (i + 3 <= n &&
      (strncmp(s + i, "inf", 3) == 0 || strncmp(s + i, "nan", 3) == 0)) {
    *is_float = 1;
    return i + 3;
  }
  while (i < n && digit((unsigned char)s[i]))
    i++;
  if (i < n && s[i] == '.') {
    *is_float = 1;
    i++;
    while (i < n && digit((unsigned char)s[i]))
      i++;
  }
  if (i + 1 < n && (s[i] == 'e' || s[i] == 'E') &&
      (digit((unsigned char)s[i + 1]) ||
       (i + 2 < n && (s[i + 1] == '+' || s[i + 1] == '-') &&
        digit((unsigned char)s[i + 2])))) {
    *is_float = 1;
    i += 2;
    while (i < n && digit((unsigned char)s[i]))
      i++;
  }
  return i;
}

static void toks_push(Toks *t, size_t at, size_t n, TokKind k) {
  if (t->n == t->cap) {
    int cap = t->cap ? t->cap * 2 : 256;
    Span *v = realloc(t->v, sizeof *v * (size_t)cap);
    if (!v)
      die_oom();
    t->v = v;
    t->cap = cap;
  }
  t->v[t->n].at = at;
  t->v[t->n].n = n;
  t->v[t->n++].kind = k;
}

static void tokenize(const Buf *b, Toks *t) {
  const char *s = b->p;
  size_t n = b->n, i = 0;
  t->n = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      i++;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        i++;
      continue;
    }
    size_t j = i + 1;
    TokKind k = K_PUNCT;
    int is_float = 0;
    if (c == '"') {
      while (j < n && s[j] != '"' && s[j] != '\n')
        j += s[j] == '\\' && j + 1 < n ? 2 : 1;
      if (j < n && s[j] == '"')
        j++;
      k = K_STRING;
    } else if (c == '%' || c == '^' || c == '@') {
      while (j < n && (id_char((unsigned char)s[j]) || s[j] == '-' ||
                       (unsigned char)s[j] >= 0x80))
        j++;
      k = c == '%' ? K_VALUE : c == '^' ? K_BLOCK : K_SYMBOL;
    } else if (c == '!' || c == '#') {
      while (j < n && id_char((unsigned char)s[j]))
        j++;
      k = c == '!' ? K_BANG : K_HASH;
    } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
      j = i + 2;
    } else if (digit(c) ||
               (c == '-' && i + 1 < n &&
                (digit((unsigned char)s[i + 1]) ||
                 (i + 4 <= n && (strncmp(s + i + 1, "inf", 3) == 0 ||
                                 strncmp(s + i + 1, "nan", 3) == 0))))) {
      j = scan_num(s, i, n, &is_float);
      k = is_float ? K_FLOAT : K_INT;
    } else if (id_char(c) && !digit(c) && c != '.' && c != '$') {
      while (j < n && id_char((unsigned char)s[j]))
        j++;
      k = K_IDENT;
      if (j - i == 3 &&
          (strncmp(s + i, "inf", 3) == 0 || strncmp(s + i, "nan", 3) == 0))
        k = K_FLOAT;
    }
    toks_push(t, i, j - i, k);
    i = j;
  }
}

static int tok_eq(const Buf *b, const Span *s, const char *text) {
  return strlen(text) == s->n && memcmp(b->p + s->at, text, s->n) == 0;
}

/* Index of a random token of kind k accepted by pred (NULL: any), or -1. */
static int pick_tok(Rng *r, const Buf *b, const Toks *t, TokKind k,
                    int (*pred)(const Buf *, const Span *)) {
  int count = 0;
  for (int i = 0; i < t->n; i++)
    if (t->v[i].kind == k && (!pred || pred(b, &t->v[i])))
      count++;
  if (!count)
    return -1;
  int want = (int)below(r, (size_t)count);
  for (int i = 0; i < t->n; i++)
    if (t->v[i].kind == k && (!pred || pred(b, &t->v[i])) && want-- == 0)
      return i;
  return -1;
}

static int dtype_index(const Buf *b, const Span *s) {
  for (int i = 0; i < g_n_dtypes; i++)
    if (tok_eq(b, s, g_dtype_names[i]))
      return i;
  return -1;
}

static int is_dtype_tok(const Buf *b, const Span *s) {
  return dtype_index(b, s) >= 0;
}

static int enum_index(const Buf *b, const Span *s) {
  for (int i = 0; i < g_n_enum_names; i++)
    if (tok_eq(b, s, g_enum_names[i].name))
      return i;
  return -1;
}

static int is_enum_tok(const Buf *b, const Span *s) {
  return enum_index(b, s) >= 0;
}

static int op_index(const Buf *b, const Span *s) {
  if (s->n < 3)
    return -1;
  for (int i = 0; i < ASC_OP_COUNT; i++) {
    size_t len = strlen(g_op_names[i]);
    if (len == s->n - 2 && memcmp(b->p + s->at + 1, g_op_names[i], len) == 0)
      return i;
  }
  return -1;
}

static int is_op_tok(const Buf *b, const Span *s) {
  return op_index(b, s) >= 0;
}

/* Replaces every token equal to the text of token `which` by `with`. */
static int replace_all_like(Buf *b, const Toks *t, int which,
                            const char *with) {
  size_t n = t->v[which].n;
  char *old = malloc(n + 1);
  if (!old)
    die_oom();
  memcpy(old, b->p + t->v[which].at, n);
  old[n] = 0;
  int done = 0;
  /* back to front: earlier offsets stay valid */
  for (int i = t->n - 1; i >= 0; i--)
    if (t->v[i].kind == t->v[which].kind && tok_eq(b, &t->v[i], old))
      done |= buf_splice(b, t->v[i].at, t->v[i].n, with, strlen(with));
  free(old);
  return done;
}

/* ---- lines ---------------------------------------------------------------
 */

typedef struct Lines {
  size_t *at; /* start of line i; at[n] == text length */
  int n;
} Lines;

static void split_lines(const Buf *b, Lines *l) {
  int cap = 1;
  for (size_t i = 0; i < b->n; i++)
    cap += b->p[i] == '\n';
  free(l->at);
  l->at = malloc(sizeof *l->at * (size_t)(cap + 1));
  if (!l->at)
    die_oom();
  l->n = 0;
  l->at[l->n++] = 0;
  for (size_t i = 0; i < b->n; i++)
    if (b->p[i] == '\n' && i + 1 < b->n)
      l->at[l->n++] = i + 1;
  l->at[l->n] = b->n;
  if (b->n == 0)
    l->n = 0;
}

static size_t line_len(const Lines *l, int i) {
  return l->at[i + 1] - l->at[i];
}

/* The braces a line opens minus those it closes (outside strings). */
static int line_balance(const Buf *b, const Lines *l, int i) {
  int bal = 0, in_str = 0;
  for (size_t k = l->at[i]; k < l->at[i + 1]; k++) {
    char c = b->p[k];
    if (in_str) {
      if (c == '\\')
        k++;
      else if (c == '"')
        in_str = 0;
    } else if (c == '"') {
      in_str = 1;
    } else if (c == '{') {
      bal++;
    } else if (c == '}') {
      bal--;
    }
  }
  return bal;
}

static char line_first_char(const Buf *b, const Lines *l, int i) {
  for (size_t k = l->at[i]; k < l->at[i + 1]; k++)
    if (b->p[k] != ' ' && b->p[k] != '\t')
      return b->p[k];
  return 0;
}

/* ---- the seeds ---------------------------------------------------------- */

typedef struct Corpus {
  Buf *v;
  char **names;
  int n, cap;
} Corpus;

static Corpus g_seeds, g_pool;

#ifndef ASC_LIBFUZZER
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

#endif

/* A random seed or pool entry other than the input itself (for splices). */
static const Buf *other_input(Rng *r) {
  if (g_pool.n && chance(r, 3))
    return &g_pool.v[below(r, (size_t)g_pool.n)];
  return g_seeds.n ? &g_seeds.v[below(r, (size_t)g_seeds.n)] : NULL;
}

/* ---- mutators ------------------------------------------------------------
 * Each returns 1 when it changed the input. */

typedef int (*Mutator)(Buf *b, Rng *r);

static int mut_flip_bit(Buf *b, Rng *r) {
  if (!b->n)
    return 0;
  size_t i = below(r, b->n);
  char c = (char)(b->p[i] ^ (1 << below(r, 8)));
  b->p[i] = c ? c : ' ';
  return 1;
}

static int mut_insert_bytes(Buf *b, Rng *r) {
  static const char special[] = "(){}[]<>,:=%^@!#\"-.\\\n 019_ae";
  char ins[8];
  size_t n = 1 + below(r, sizeof ins);
  for (size_t i = 0; i < n; i++)
    ins[i] = chance(r, 3) ? (char)(1 + below(r, 255))
                          : special[below(r, sizeof special - 1)];
  return buf_splice(b, below(r, b->n + 1), 0, ins, n);
}

static int mut_delete_range(Buf *b, Rng *r) {
  if (!b->n)
    return 0;
  size_t at = below(r, b->n);
  size_t max = chance(r, 8) ? b->n - at : (b->n - at < 64 ? b->n - at : 64);
  return buf_splice(b, at, 1 + below(r, max), "", 0);
}

static int mut_duplicate_range(Buf *b, Rng *r) {
  if (!b->n)
    return 0;
  size_t at = below(r, b->n);
  size_t max = b->n - at < 512 ? b->n - at : 512;
  size_t n = 1 + below(r, max);
  return buf_splice(b, below(r, b->n + 1), 0, b->p + at, n);
}

/* A cut point: at a line start most of the time. */
static size_t cut_point(const Buf *b, Rng *r) {
  size_t at = below(r, b->n + 1);
  if (chance(r, 4))
    return at;
  while (at > 0 && b->p[at - 1] != '\n')
    at--;
  return at;
}

static int mut_splice(Buf *b, Rng *r) {
  const Buf *o = other_input(r);
  if (!o || !o->n)
    return 0;
  size_t x = cut_point(b, r), y = cut_point(o, r);
  return buf_splice(b, x, b->n - x, o->p + y, o->n - y);
}

static int mut_overwrite_from_other(Buf *b, Rng *r) {
  const Buf *o = other_input(r);
  if (!o || !o->n || !b->n)
    return 0;
  size_t y = below(r, o->n), n = 1 + below(r, o->n - y < 128 ? o->n - y : 128);
  size_t x = below(r, b->n);
  return buf_splice(b, x, n, o->p + y, n);
}

/* The element type written after a literal (`8 : i32`), or NONE. */
static AscDType literal_type(const Buf *b, const Span *s) {
  size_t i = s->at + s->n;
  while (i < b->n && b->p[i] == ' ')
    i++;
  if (i >= b->n || b->p[i] != ':')
    return ASC_DT_NONE;
  i++;
  while (i < b->n && b->p[i] == ' ')
    i++;
  char name[8];
  size_t k = 0;
  while (i < b->n && k + 1 < sizeof name && id_char((unsigned char)b->p[i]))
    name[k++] = b->p[i++];
  name[k] = 0;
  return asc_dtype_from_name(name);
}

/* Whether the decimal integer text fits dtype dt (the verifier rejects
 * constants that do not: most edge values should get past it). */
static int fits(const char *text, AscDType dt) {
  size_t bits = asc_dtype_size(dt) * 8;
  if (dt == ASC_DT_NONE || bits >= 64)
    return 1;
  errno = 0;
  long long v = strtoll(text, NULL, 10);
  if (errno)
    return 0;
  if (dt == ASC_DT_BOOL)
    return v == 0 || v == 1;
  if (asc_dtype_is_unsigned_int(dt))
    return v >= 0 && v < (1LL << bits);
  return v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1));
}

static int mut_int_literal(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  /* now and then an integer where a float was, and the other way round */
  int i = pick_tok(r, b, &t, chance(r, 10) ? K_FLOAT : K_INT, NULL);
  int done = 0;
  if (i >= 0) {
    char buf[64];
    enum { N_EDGE = sizeof EDGE_INTS / sizeof *EDGE_INTS };
    const char *with = EDGE_INTS[below(r, N_EDGE)];
    AscDType dt = literal_type(b, &t.v[i]);
    if (!chance(r, 5)) /* mostly an edge value of the literal's own type */
      for (int tries = 0; tries < 16 && !fits(with, dt); tries++)
        with = EDGE_INTS[below(r, N_EDGE)];
    if (chance(r, 4)) { /* a neighbour of the current value */
      long long v = strtoll(b->p + t.v[i].at, NULL, 10);
      static const long long deltas[] = {1, -1, 2, 7, -32};
      long long d = deltas[below(r, sizeof deltas / sizeof *deltas)];
      if ((d > 0 && v > LLONG_MAX - d) || (d < 0 && v < LLONG_MIN - d))
        d = 0;
      snprintf(buf, sizeof buf, "%lld", chance(r, 5) ? -(v / 2) : v + d);
      with = buf;
    }
    done = buf_splice(b, t.v[i].at, t.v[i].n, with, strlen(with));
  }
  free(t.v);
  return done;
}

static int mut_float_literal(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, chance(r, 5) ? K_INT : K_FLOAT, NULL);
  int done = 0;
  if (i >= 0) {
    const char *with =
        EDGE_FLOATS[below(r, sizeof EDGE_FLOATS / sizeof *EDGE_FLOATS)];
    done = buf_splice(b, t.v[i].at, t.v[i].n, with, strlen(with));
  }
  free(t.v);
  return done;
}

/* Operand and result kinds of an op, as one comparable string. */
static void op_shape(int op, char *buf, size_t size) {
  const AscOpInfo *info = asc_op_info((AscOpId)op);
  size_t k = 0;
  for (int i = 0; i < info->n_operands && k + 2 < size; i++)
    buf[k++] = info->operands[i].kind;
  if (k + 2 < size)
    buf[k++] = info->variadic ? '+' : '|';
  for (int i = 0; i < info->n_results && k + 1 < size; i++)
    buf[k++] = info->results[i];
  buf[k] = 0;
}

static int mut_op_name(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_STRING, is_op_tok);
  int done = 0;
  if (i >= 0) {
    int cur = op_index(b, &t.v[i]), pick = (int)below(r, ASC_OP_COUNT);
    /* most swaps keep the operand kinds (add → div, relu → ln), so the
     * text still parses and verifies and the simulator runs the new op */
    int mode = (int)below(r, 10);
    if (mode < 7) {
      char want[40], have[40];
      op_shape(cur, want, sizeof want);
      int n = 0;
      for (int o = 0; o < ASC_OP_COUNT; o++) {
        op_shape(o, have, sizeof have);
        int same = mode < 5 ? strcmp(want, have) == 0
                            : asc_op_info((AscOpId)o)->n_operands ==
                                  asc_op_info((AscOpId)cur)->n_operands;
        if (same && o != cur && below(r, (size_t)++n) == 0)
          pick = o;
      }
    }
    char q[96];
    snprintf(q, sizeof q, "\"%s\"", g_op_names[pick]);
    done = buf_splice(b, t.v[i].at, t.v[i].n, q, strlen(q));
  }
  free(t.v);
  return done;
}

static int mut_dtype(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_IDENT, is_dtype_tok);
  int done = 0;
  if (i >= 0) {
    const char *with = g_dtype_names[below(r, (size_t)g_n_dtypes)];
    /* replacing every occurrence keeps operand and value types consistent,
     * so the kernel runs with another element type */
    done = chance(r, 2)
               ? replace_all_like(b, &t, i, with)
               : buf_splice(b, t.v[i].at, t.v[i].n, with, strlen(with));
  }
  free(t.v);
  return done;
}

static void random_type(Rng *r, char *buf, size_t size) {
  const char *dt = g_dtype_names[below(r, (size_t)g_n_dtypes)];
  const char *pos = g_positions[below(r, (size_t)g_n_positions)];
  static const char *const depths[] = {"0", "1", "2",         "3",
                                       "4", "8", "2147483647"};
  switch (below(r, 7)) {
  case 0:
    snprintf(buf, size, "%s", dt);
    break;
  case 1:
    snprintf(buf, size, "!asc.global_address<%s>", dt);
    break;
  case 2:
    snprintf(buf, size, "!asc.global_tensor<%s>", dt);
    break;
  case 3:
    snprintf(buf, size, "!asc.local_tensor<%s, %s>", dt, pos);
    break;
  case 4:
    snprintf(buf, size, "!asc.tpipe");
    break;
  case 5:
    snprintf(buf, size, "!asc.tque<%s, %s>", pos,
             depths[below(r, sizeof depths / sizeof *depths)]);
    break;
  default:
    snprintf(buf, size, "!asc.tbuf<%s>", pos);
  }
}

/* A whole `!asc.kind<...>` type: its end offset. */
static size_t type_end(const Buf *b, size_t at) {
  size_t i = at + 1;
  while (i < b->n && id_char((unsigned char)b->p[i]))
    i++;
  if (i < b->n && b->p[i] == '<') {
    int depth = 0;
    for (; i < b->n && b->p[i] != '\n'; i++) {
      depth += b->p[i] == '<';
      if (b->p[i] == '>' && --depth == 0)
        return i + 1;
    }
  }
  return i;
}

static int mut_type(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_BANG, NULL);
  int done = 0;
  if (i >= 0) {
    char with[96];
    random_type(r, with, sizeof with);
    size_t at = t.v[i].at, end = type_end(b, at);
    if (chance(r, 2)) {
      /* every occurrence of this exact type */
      size_t n = end - at;
      char *old = malloc(n + 1);
      if (!old)
        die_oom();
      memcpy(old, b->p + at, n);
      old[n] = 0;
      for (int k = t.n - 1; k >= 0; k--)
        if (t.v[k].kind == K_BANG && type_end(b, t.v[k].at) - t.v[k].at == n &&
            memcmp(b->p + t.v[k].at, old, n) == 0)
          done |= buf_splice(b, t.v[k].at, n, with, strlen(with));
      free(old);
    } else {
      done = buf_splice(b, at, end - at, with, strlen(with));
    }
  }
  free(t.v);
  return done;
}

static int mut_enum(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_IDENT, is_enum_tok);
  int done = 0;
  if (i >= 0) {
    AscEnumKind kind = g_enum_names[enum_index(b, &t.v[i])].kind;
    int pick = (int)below(r, (size_t)g_n_enum_names), n = 0;
    if (!chance(r, 5))
      for (int e = 0; e < g_n_enum_names; e++)
        if (g_enum_names[e].kind == kind && below(r, (size_t)++n) == 0)
          pick = e;
    const char *with = g_enum_names[pick].name;
    done = chance(r, 3)
               ? replace_all_like(b, &t, i, with)
               : buf_splice(b, t.v[i].at, t.v[i].n, with, strlen(with));
  }
  free(t.v);
  return done;
}

static int is_plain_string(const Buf *b, const Span *s) {
  return op_index(b, s) < 0;
}

/* Strings other than op names: symbol names, callees, file names. Another
 * string of the input (a call to the kernel itself, to a function that is
 * not there) or an odd one (empty, escapes, a NUL, very long). */
static int mut_string(Buf *b, Rng *r) {
  static const char *const odd[] = {
      "\"\"",  "\"\\00\"",      "\"a\\\"b\"", "\"\\ff\\fe\"",
      "\"k\"", "\"func.func\"", "\"%x\"",     "\"\\n\\t//\""};
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_STRING, is_plain_string);
  int done = 0;
  if (i >= 0) {
    int j = pick_tok(r, b, &t, K_STRING, is_plain_string);
    if (chance(r, 3) || j < 0 || j == i) {
      char longer[320];
      const char *with = odd[below(r, sizeof odd / sizeof *odd)];
      if (chance(r, 6)) {
        memset(longer, 'n', sizeof longer);
        longer[0] = '"';
        longer[sizeof longer - 2] = '"';
        longer[sizeof longer - 1] = 0;
        with = longer;
      }
      done = buf_splice(b, t.v[i].at, t.v[i].n, with, strlen(with));
    } else {
      size_t n = t.v[j].n;
      char *with = malloc(n + 1);
      if (!with)
        die_oom();
      memcpy(with, b->p + t.v[j].at, n);
      with[n] = 0;
      done = buf_splice(b, t.v[i].at, t.v[i].n, with, n);
      free(with);
    }
  }
  free(t.v);
  return done;
}

/* Uses another value where one was used: the parser accepts it when the
 * types agree, and then the op reads another length, tensor or queue. */
static int mut_value(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int i = pick_tok(r, b, &t, K_VALUE, NULL);
  int j = pick_tok(r, b, &t, K_VALUE, NULL);
  int done = 0;
  if (i >= 0 && j >= 0 && i != j) {
    size_t n = t.v[j].n;
    char *with = malloc(n + 1);
    if (!with)
      die_oom();
    memcpy(with, b->p + t.v[j].at, n);
    with[n] = 0;
    done = buf_splice(b, t.v[i].at, t.v[i].n, with, n);
    free(with);
  }
  free(t.v);
  return done;
}

static int mut_token_edit(Buf *b, Rng *r) {
  Toks t = {0};
  tokenize(b, &t);
  int done = 0;
  if (t.n) {
    int i = (int)below(r, (size_t)t.n), j = (int)below(r, (size_t)t.n);
    Span a = t.v[i], c = t.v[j];
    switch (below(r, 3)) {
    case 0: /* delete */
      done = buf_splice(b, a.at, a.n, "", 0);
      break;
    case 1: /* duplicate before another token */
      done = buf_splice(b, c.at, 0, b->p + a.at, a.n);
      break;
    default: { /* swap two tokens */
      if (i == j)
        break;
      if (a.at > c.at) {
        Span x = a;
        a = c;
        c = x;
      }
      if (a.at + a.n > c.at)
        break;
      char *ta = malloc(a.n + 1), *tc = malloc(c.n + 1);
      if (!ta || !tc)
        die_oom();
      memcpy(ta, b->p + a.at, a.n);
      memcpy(tc, b->p + c.at, c.n);
      done = buf_splice(b, c.at, c.n, ta, a.n) &&
             buf_splice(b, a.at, a.n, tc, c.n);
      free(ta);
      free(tc);
    }
    }
  }
  free(t.v);
  return done;
}

static int mut_line(Buf *b, Rng *r) {
  Lines l = {0};
  split_lines(b, &l);
  int done = 0;
  if (l.n >= 1) {
    int i = (int)below(r, (size_t)l.n), j = (int)below(r, (size_t)l.n);
    switch (below(r, 4)) {
    case 0: { /* delete 1-3 lines */
      int k = i + 1 + (int)below(r, 3);
      if (k > l.n)
        k = l.n;
      done = buf_splice(b, l.at[i], l.at[k] - l.at[i], "", 0);
      break;
    }
    case 1: /* duplicate a line, often right after itself */
      if (chance(r, 2))
        j = i + 1 < l.n ? i + 1 : i;
      done = buf_splice(b, l.at[j], 0, b->p + l.at[i], line_len(&l, i));
      break;
    case 2: { /* swap two lines (often neighbours) */
      if (chance(r, 2))
        j = i + 1 < l.n ? i + 1 : i;
      if (i == j)
        break;
      if (i > j) {
        int x = i;
        i = j;
        j = x;
      }
      Buf tmp = {0};
      buf_set(&tmp, b->p, l.at[i]);
      buf_splice(&tmp, tmp.n, 0, b->p + l.at[j], line_len(&l, j));
      buf_splice(&tmp, tmp.n, 0, b->p + l.at[i + 1], l.at[j] - l.at[i + 1]);
      buf_splice(&tmp, tmp.n, 0, b->p + l.at[i], line_len(&l, i));
      buf_splice(&tmp, tmp.n, 0, b->p + l.at[j + 1], b->n - l.at[j + 1]);
      free(b->p);
      *b = tmp;
      done = 1;
      break;
    }
    default: { /* a line of another input */
      const Buf *o = other_input(r);
      if (!o || !o->n)
        break;
      Lines ol = {0};
      split_lines(o, &ol);
      if (ol.n) {
        int k = (int)below(r, (size_t)ol.n);
        done = buf_splice(b, l.at[i], 0, o->p + ol.at[k], line_len(&ol, k));
      }
      free(ol.at);
    }
    }
  }
  free(l.at);
  return done;
}

/* Wraps a run of op lines (balanced braces) in a new region: scf.if,
 * scf.for (sometimes using its induction variable in place of a value of
 * the run) or scf.while (sometimes one that never ends: the step budget's
 * case), or in many nested scf.if (the nesting limits). */
static int mut_nest(Buf *b, Rng *r) {
  Lines l = {0};
  split_lines(b, &l);
  int done = 0, i = -1, j = -1;
  for (int tries = 0; tries < 8 && i < 0 && l.n; tries++) {
    int s = (int)below(r, (size_t)l.n);
    char c = line_first_char(b, &l, s);
    if (c != '%' && c != '"')
      continue;
    int want = 1 + (int)below(r, 6), bal = 0, e = -1;
    for (int k = s; k < l.n && k < s + 40; k++) {
      char f = line_first_char(b, &l, k);
      if (f == '^' || f == 0)
        break;
      bal += line_balance(b, &l, k);
      if (bal < 0)
        break;
      if (bal == 0) {
        e = k;
        if (k - s + 1 >= want)
          break;
      }
    }
    if (e >= 0) {
      i = s;
      j = e;
    }
  }
  if (i >= 0) {
    char id[16], pre[512], post[256];
    snprintf(id, sizeof id, "fz%08x", (unsigned)(rng_next(r) & 0xffffffffu));
    size_t from = l.at[i], to = l.at[j + 1];
    Buf body = {0};
    buf_set(&body, b->p + from, to - from);
    if (body.n && body.p[body.n - 1] != '\n')
      buf_splice(&body, body.n, 0, "\n", 1);
    const char *yield = "\"scf.yield\"() : () -> ()\n";
    int kind = (int)below(r, 5);
    if (kind == 0) {
      snprintf(pre, sizeof pre,
               "%%%s_c = \"arith.constant\"() {value = %d : i1} : () -> i1\n"
               "\"scf.if\"(%%%s_c) ({\n",
               id, (int)below(r, 2), id);
      snprintf(post, sizeof post, "%s}, {\n%s}) : (i1) -> ()\n", yield, yield);
    } else if (kind == 1) {
      static const char *const trips[] = {"0",  "1",      "2",         "3",
                                          "17", "100000", "2147483647"};
      snprintf(pre, sizeof pre,
               "%%%s_lo = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"
               "%%%s_hi = \"arith.constant\"() {value = %s : i32} : () -> i32\n"
               "%%%s_st = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
               "\"scf.for\"(%%%s_lo, %%%s_hi, %%%s_st) ({\n"
               "^bb0(%%%s_i: i32):\n",
               id, id, trips[below(r, sizeof trips / sizeof *trips)], id, id,
               id, id, id);
      snprintf(post, sizeof post, "%s}) : (i32, i32, i32) -> ()\n", yield);
      if (chance(r, 2)) { /* the induction variable as an operand */
        Toks t = {0};
        tokenize(&body, &t);
        int v = pick_tok(r, &body, &t, K_VALUE, NULL);
        if (v > 0 && body.p[t.v[v].at - 1] != '\n' &&
            body.p[t.v[v].at - 1] != ' ') {
          char iv[32];
          snprintf(iv, sizeof iv, "%%%s_i", id);
          buf_splice(&body, t.v[v].at, t.v[v].n, iv, strlen(iv));
        }
        free(t.v);
      }
    } else if (kind == 2) {
      snprintf(pre, sizeof pre,
               "\"scf.while\"() ({\n"
               "%%%s_c = \"arith.constant\"() {value = %d : i1} : () -> i1\n"
               "\"scf.condition\"(%%%s_c) : (i1) -> ()\n"
               "}, {\n",
               id, chance(r, 3) ? 1 : 0, id);
      snprintf(post, sizeof post, "%s}) : () -> ()\n", yield);
    } else {
      /* nested scf.if around the run, up to past the parser's limit */
      static const int depths[] = {2, 8, 50, 199, 200, 201};
      int depth = depths[below(r, sizeof depths / sizeof *depths)];
      Buf w = {0};
      char line[256];
      snprintf(line, sizeof line,
               "%%%s_c = \"arith.constant\"() {value = 1 : i1} : () -> i1\n",
               id);
      buf_set(&w, line, strlen(line));
      for (int d = 0; d < depth; d++) {
        snprintf(line, sizeof line, "\"scf.if\"(%%%s_c) ({\n", id);
        buf_insert_str(&w, w.n, line);
      }
      buf_splice(&w, w.n, 0, body.p, body.n);
      for (int d = 0; d < depth; d++) {
        snprintf(line, sizeof line, "%s}, {\n%s}) : (i1) -> ()\n", yield,
                 yield);
        buf_insert_str(&w, w.n, line);
      }
      done = buf_splice(b, from, to - from, w.p, w.n);
      free(w.p);
      free(body.p);
      free(l.at);
      return done;
    }
    Buf w = {0};
    buf_set(&w, pre, strlen(pre));
    buf_splice(&w, w.n, 0, body.p, body.n);
    buf_insert_str(&w, w.n, post);
    done = buf_splice(b, from, to - from, w.p, w.n);
    free(w.p);
    free(body.p);
  }
  free(l.at);
  return done;
}

/* ---- values and their types, read off the text ---------------------------
 * The printer writes one op per line: `%a, %b = "op"(...) ... -> (T, U)`,
 * and block arguments as `^bb0(%x: T, ...)`. The typed mutators below read
 * the names and types from that form (best effort: a mangled line just
 * contributes nothing). */

typedef struct ValInfo {
  char name[128]; /* with the % */
  char type[128];
  int line; /* where it is defined */
  int top;  /* defined at the top level of its function body */
} ValInfo;

typedef struct Vals {
  ValInfo *v;
  int n, cap;
} Vals;

static void vals_push(Vals *vs, const char *name, size_t nn, const char *type,
                      size_t tn, int line, int top) {
  if (nn == 0 || nn >= sizeof vs->v[0].name || tn == 0 ||
      tn >= sizeof vs->v[0].type)
    return;
  if (vs->n == vs->cap) {
    int cap = vs->cap ? vs->cap * 2 : 64;
    ValInfo *v = realloc(vs->v, sizeof *v * (size_t)cap);
    if (!v)
      die_oom();
    vs->v = v;
    vs->cap = cap;
  }
  ValInfo *x = &vs->v[vs->n++];
  memcpy(x->name, name, nn);
  x->name[nn] = 0;
  memcpy(x->type, type, tn);
  x->type[tn] = 0;
  x->line = line;
  x->top = top;
}

static size_t indent_of(const Buf *b, const Lines *l, int i) {
  size_t k = l->at[i];
  while (k < l->at[i + 1] && b->p[k] == ' ')
    k++;
  return k - l->at[i];
}

/* Splits "(T, U<a, b>)" or "T" at top-level commas into out[]. */
static int split_types(const char *s, size_t n, const char **out, size_t *len,
                       int max) {
  while (n && (*s == ' ' || *s == '('))
    s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == ')' || s[n - 1] == '\n'))
    n--;
  int k = 0, depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= n && k < max; i++) {
    if (i == n || (s[i] == ',' && depth == 0)) {
      size_t a = start, e = i;
      while (a < e && s[a] == ' ')
        a++;
      while (e > a && s[e - 1] == ' ')
        e--;
      if (e > a) {
        out[k] = s + a;
        len[k++] = e - a;
      }
      start = i + 1;
    } else if (s[i] == '<') {
      depth++;
    } else if (s[i] == '>') {
      depth--;
    }
  }
  return k;
}

static void scan_values(const Buf *b, const Lines *l, Vals *vs) {
  vs->n = 0;
  size_t top_indent = 4; /* the printer's function body */
  for (int i = 0; i < l->n; i++) {
    const char *s = b->p + l->at[i];
    size_t n = line_len(l, i);
    size_t ind = indent_of(b, l, i);
    const char *t = s + ind;
    size_t tn = n - ind;
    if (tn > 5 && strncmp(t, "^bb0(", 5) == 0) {
      /* block arguments: %x: T, %y: U */
      const char *items[ASC_MAX_SIG * 4];
      size_t lens[ASC_MAX_SIG * 4];
      const char *close = memchr(t, ':', tn);
      size_t body = tn;
      while (body && t[body - 1] != ')')
        body--;
      if (!close || body < 6)
        continue;
      int k = split_types(t + 5, body - 6, items, lens, ASC_MAX_SIG * 4);
      for (int j = 0; j < k; j++) {
        const char *colon = memchr(items[j], ':', lens[j]);
        if (!colon || items[j][0] != '%')
          continue;
        size_t nn = (size_t)(colon - items[j]);
        const char *ty = colon + 1;
        while (*ty == ' ')
          ty++;
        vals_push(vs, items[j], nn, ty, lens[j] - (size_t)(ty - items[j]), i,
                  ind + 2 == top_indent);
      }
      continue;
    }
    if (!tn || t[0] != '%')
      continue;
    const char *eq = NULL;
    for (size_t k = 0; k + 2 < tn; k++)
      if (t[k] == ' ' && t[k + 1] == '=' && t[k + 2] == ' ') {
        eq = t + k;
        break;
      }
    if (!eq)
      continue;
    /* the result types: after the last "->", before " loc(" */
    const char *arrow = NULL;
    for (size_t k = 0; k + 1 < tn; k++)
      if (t[k] == '-' && t[k + 1] == '>')
        arrow = t + k + 2;
    if (!arrow)
      continue;
    const char *end = t + tn;
    for (const char *q = arrow; q + 4 < end; q++)
      if (strncmp(q, " loc(", 5) == 0) {
        end = q;
        break;
      }
    const char *rt[ASC_MAX_SIG], *rn[ASC_MAX_SIG];
    size_t rtl[ASC_MAX_SIG], rnl[ASC_MAX_SIG];
    int nt = split_types(arrow, (size_t)(end - arrow), rt, rtl, ASC_MAX_SIG);
    int nr = split_types(t, (size_t)(eq - t), rn, rnl, ASC_MAX_SIG);
    for (int j = 0; j < nr && j < nt; j++)
      vals_push(vs, rn[j], rnl[j], rt[j], rtl[j], i, ind == top_indent);
  }
}

static const ValInfo *find_val(const Vals *vs, const char *s, size_t n) {
  for (int i = 0; i < vs->n; i++)
    if (strlen(vs->v[i].name) == n && memcmp(vs->v[i].name, s, n) == 0)
      return &vs->v[i];
  return NULL;
}

/* The op-table operand kind a type text belongs to. */
static char kind_of_type(const char *t) {
  static const struct {
    const char *prefix;
    char kind;
  } kinds[] = {{"!asc.local_tensor", 'L'},   {"!asc.global_tensor", 'G'},
               {"!asc.global_address", 'A'}, {"!asc.tpipe", 'P'},
               {"!asc.tque", 'Q'},           {"!asc.tbuf", 'B'}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (strncmp(t, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
      return kinds[i].kind;
  AscDType dt = asc_dtype_from_name(t);
  if (dt == ASC_DT_NONE)
    return 0;
  return asc_dtype_is_float(dt) ? 'f' : 'i';
}

static int kind_accepts(char want, char have) {
  if (!have)
    return 0;
  if (want == '*')
    return 1;
  if (want == 'n')
    return have == 'i' || have == 'f';
  return want == have;
}

/* Replaces an operand by another value of the same type: the parser and
 * the verifier accept many of these, and the op then reads another length,
 * offset, tensor or queue. */
static int mut_typed_value(Buf *b, Rng *r) {
  Lines l = {0};
  Vals vs = {0};
  Toks t = {0};
  split_lines(b, &l);
  scan_values(b, &l, &vs);
  tokenize(b, &t);
  int done = 0;
  /* operand tokens: a value after the op name's quote on its line */
  int count = 0, pick = -1;
  for (int i = 0; i < t.n; i++) {
    if (t.v[i].kind != K_VALUE)
      continue;
    size_t k = t.v[i].at;
    int quoted = 0;
    while (k > 0 && b->p[k - 1] != '\n')
      quoted |= b->p[--k] == '"';
    if (quoted && below(r, (size_t)++count) == 0)
      pick = i;
  }
  if (pick >= 0) {
    const ValInfo *cur = find_val(&vs, b->p + t.v[pick].at, t.v[pick].n);
    int n = 0;
    const ValInfo *with = NULL;
    for (int i = 0; cur && i < vs.n; i++)
      if (strcmp(vs.v[i].type, cur->type) == 0 &&
          strcmp(vs.v[i].name, cur->name) != 0 && below(r, (size_t)++n) == 0)
        with = &vs.v[i];
    if (with)
      done = buf_splice(b, t.v[pick].at, t.v[pick].n, with->name,
                        strlen(with->name));
  }
  free(t.v);
  free(vs.v);
  free(l.at);
  return done;
}

/* Writes a new op of the table before a function's func.return, with
 * operands of the right kinds taken from the values of the function body's
 * top level: a small generator of calls the seeds never make. */
static int mut_insert_op(Buf *b, Rng *r) {
  Lines l = {0};
  Vals vs = {0};
  split_lines(b, &l);
  int ret = -1, n_ret = 0;
  for (int i = 0; i < l.n; i++) {
    size_t ind = indent_of(b, &l, i);
    if (ind == 4 && line_len(&l, i) > ind + 13 &&
        strncmp(b->p + l.at[i] + ind, "\"func.return\"", 13) == 0 &&
        below(r, (size_t)++n_ret) == 0)
      ret = i;
  }
  int done = 0;
  if (ret >= 0) {
    scan_values(b, &l, &vs);
    /* this function's values: from its ^bb0 line (the last one at indent 2
     * before the return) on */
    int first = 0;
    for (int i = ret; i >= 0; i--)
      if (indent_of(b, &l, i) == 2 &&
          strncmp(b->p + l.at[i] + 2, "^bb0", 4) == 0) {
        first = i;
        break;
      } else if (indent_of(b, &l, i) == 2) {
        first = i;
        break;
      }
    int op = -1;
    for (int tries = 0; tries < 16 && op < 0; tries++) {
      int o = (int)below(r, ASC_OP_COUNT);
      if (o == ASC_OP_FUNC || o == ASC_OP_FOR || o == ASC_OP_IF ||
          o == ASC_OP_WHILE || o == ASC_OP_RETURN || o == ASC_OP_YIELD ||
          o == ASC_OP_CONDITION || o == ASC_OP_CALL)
        continue;
      op = o;
    }
    const AscOpInfo *info = op >= 0 ? asc_op_info((AscOpId)op) : NULL;
    Buf line = {0}, types = {0}, args = {0};
    buf_set(&line, "    ", 4);
    buf_set(&types, "", 0);
    buf_set(&args, "", 0);
    int ok = info != NULL, last_def = first;
    const ValInfo *picked[ASC_MAX_SIG];
    int n_ops =
        info ? info->n_required + (int)below(r, (size_t)(info->n_operands -
                                                         info->n_required + 1))
             : 0;
    for (int i = 0; ok && i < n_ops; i++) {
      char want = info->operands[i].kind;
      int n = 0;
      const ValInfo *pick = NULL;
      for (int v = 0; v < vs.n; v++)
        if (vs.v[v].line >= first && vs.v[v].line < ret &&
            (vs.v[v].top || vs.v[v].line == first) &&
            kind_accepts(want, kind_of_type(vs.v[v].type)) &&
            below(r, (size_t)++n) == 0)
          pick = &vs.v[v];
      if (!pick) {
        ok = 0;
        break;
      }
      picked[i] = pick;
      if (pick->line > last_def)
        last_def = pick->line;
      buf_insert_str(&args, args.n, i ? ", " : "");
      buf_insert_str(&args, args.n, pick->name);
      buf_insert_str(&types, types.n, i ? ", " : "");
      buf_insert_str(&types, types.n, pick->type);
    }
    char res_types[ASC_MAX_SIG][128];
    int n_res = info ? info->n_results : 0;
    if (info && info->variadic_results)
      n_res = 0;
    for (int i = 0; ok && i < n_res; i++) {
      char k = info->results[i];
      /* mostly the type of an operand of the same kind (offset views,
       * scalar arithmetic), else a random one of the kind */
      const ValInfo *like = NULL;
      for (int o = 0; o < n_ops && !like; o++)
        if (kind_accepts(k, kind_of_type(picked[o]->type)))
          like = picked[o];
      const char *dt = g_dtype_names[below(r, (size_t)g_n_dtypes)];
      const char *pos = g_positions[below(r, (size_t)g_n_positions)];
      if (like && !chance(r, 4))
        snprintf(res_types[i], sizeof res_types[i], "%s", like->type);
      else if (k == 'L')
        snprintf(res_types[i], sizeof res_types[i], "!asc.local_tensor<%s, %s>",
                 chance(r, 2) ? "f32" : dt, pos);
      else if (k == 'G')
        snprintf(res_types[i], sizeof res_types[i], "!asc.global_tensor<%s>",
                 chance(r, 2) ? "f32" : dt);
      else if (k == 'A')
        snprintf(res_types[i], sizeof res_types[i], "!asc.global_address<%s>",
                 chance(r, 2) ? "f32" : dt);
      else if (k == 'f')
        snprintf(res_types[i], sizeof res_types[i], "%s",
                 chance(r, 2) ? "f32" : "f16");
      else if (k == 'P' || k == 'Q' || k == 'B')
        random_type(r, res_types[i], sizeof res_types[i]);
      else
        snprintf(res_types[i], sizeof res_types[i], "%s",
                 chance(r, 2) ? "i32" : dt);
    }
    char id[16];
    snprintf(id, sizeof id, "fz%08x", (unsigned)(rng_next(r) & 0xffffffffu));
    for (int i = 0; ok && i < n_res; i++) {
      char nm[40];
      snprintf(nm, sizeof nm, "%s%%%s_r%d", i ? ", " : "", id, i);
      buf_insert_str(&line, line.n, nm);
    }
    if (ok && n_res)
      buf_insert_str(&line, line.n, " = ");
    char q[96];
    snprintf(q, sizeof q, "\"%s\"(", info ? info->name : "");
    buf_insert_str(&line, line.n, q);
    buf_splice(&line, line.n, 0, args.p, args.n);
    buf_insert_str(&line, line.n, ")");
    for (int i = 0; ok && i < info->n_attrs; i++) {
      const AscAttrSpec *a = &info->attrs[i];
      char at[160];
      AscEnumKind ek = asc_enum_kind_from_name(a->kind);
      if (ek != ASC_ENUM_KIND_COUNT) {
        int n = 0, e = 0;
        for (int x = 0; x < g_n_enum_names; x++)
          if (g_enum_names[x].kind == ek && below(r, (size_t)++n) == 0)
            e = x;
        snprintf(at, sizeof at, "%s = #asc<%s %s>", a->name, a->kind,
                 g_enum_names[e].name);
      } else if (strcmp(a->kind, "any") == 0 && n_res) {
        snprintf(at, sizeof at, "%s = %s : %s", a->name,
                 EDGE_INTS[below(r, sizeof EDGE_INTS / sizeof *EDGE_INTS)],
                 res_types[0]);
      } else {
        snprintf(at, sizeof at, "%s = %d : i64", a->name, (int)below(r, 2));
      }
      buf_insert_str(&line, line.n, i ? ", " : " {");
      buf_insert_str(&line, line.n, at);
      if (i == info->n_attrs - 1)
        buf_insert_str(&line, line.n, "}");
    }
    if (ok) {
      buf_insert_str(&line, line.n, " : (");
      buf_splice(&line, line.n, 0, types.p, types.n);
      buf_insert_str(&line, line.n, ") -> ");
      buf_insert_str(&line, line.n, n_res == 1 ? "" : "(");
      for (int i = 0; i < n_res; i++) {
        buf_insert_str(&line, line.n, i ? ", " : "");
        buf_insert_str(&line, line.n, res_types[i]);
      }
      buf_insert_str(&line, line.n, n_res == 1 ? "\n" : ")\n");
      /* anywhere after the last operand's definition */
      int at = last_def + 1 + (int)below(r, (size_t)(ret - last_def));
      if (at > ret)
        at = ret;
      done = buf_splice(b, l.at[at], 0, line.p, line.n);
    }
    free(line.p);
    free(types.p);
    free(args.p);
  }
  free(vs.v);
  free(l.at);
  return done;
}

/* Rewrites one op line so that operand `name` has type `ty` in the op's
 * type list; returns 1 when it did. */
static int retype_use(Buf *line, const char *name, const char *ty) {
  const char *s = line->p;
  const char *q = strchr(s, '"');
  q = q ? strchr(q + 1, '"') : NULL;
  if (!q || q[1] != '(')
    return 0;
  const char *ops = q + 2, *ops_end = strchr(ops, ')');
  if (!ops_end)
    return 0;
  const char *items[ASC_MAX_SIG * 4];
  size_t lens[ASC_MAX_SIG * 4];
  int n =
      split_types(ops, (size_t)(ops_end - ops), items, lens, ASC_MAX_SIG * 4);
  int k = -1;
  for (int i = 0; i < n && k < 0; i++)
    if (lens[i] == strlen(name) && memcmp(items[i], name, lens[i]) == 0)
      k = i;
  const char *tl = k >= 0 ? strstr(ops_end, " : (") : NULL;
  if (!tl)
    return 0;
  tl += 4;
  int depth = 1;
  const char *te = tl;
  for (; *te && depth; te++)
    depth += *te == '(' ? 1 : *te == ')' ? -1 : 0;
  if (depth)
    return 0;
  const char *types[ASC_MAX_SIG * 4];
  size_t tlens[ASC_MAX_SIG * 4];
  int nt =
      split_types(tl, (size_t)(te - 1 - tl), types, tlens, ASC_MAX_SIG * 4);
  if (k >= nt)
    return 0;
  size_t at = (size_t)(types[k] - line->p);
  return buf_splice(line, at, tlens[k], ty, strlen(ty));
}

/* Gives one value another type of its kind (another element type, another
 * position) at its definition and at its uses: a view or a select whose
 * result type differs from its operand's, a tensor of one element type
 * where the op expects another. */
static int mut_retype_value(Buf *b, Rng *r) {
  Lines l = {0};
  Vals vs = {0};
  split_lines(b, &l);
  scan_values(b, &l, &vs);
  int done = 0, n = 0;
  const ValInfo *v = NULL;
  for (int i = 0; i < vs.n; i++) {
    char k = kind_of_type(vs.v[i].type);
    /* op results of tensor kinds mostly */
    if (k && vs.v[i].name[0] && line_first_char(b, &l, vs.v[i].line) == '%' &&
        (k == 'L' || k == 'G' || k == 'A' || chance(r, 4)) &&
        below(r, (size_t)++n) == 0)
      v = &vs.v[i];
  }
  if (v) {
    char ty[128];
    const char *dt = g_dtype_names[below(r, (size_t)g_n_dtypes)];
    char k = kind_of_type(v->type);
    const char *lt = strchr(v->type, '<'), *comma = strchr(v->type, ',');
    if (k == 'L' && lt && comma && !chance(r, 4))
      snprintf(ty, sizeof ty, "!asc.local_tensor<%s%s", dt, comma);
    else if ((k == 'G' || k == 'A') && lt)
      snprintf(ty, sizeof ty, "%.*s<%s>", (int)(lt - v->type), v->type, dt);
    else if (k == 'i' || k == 'f')
      snprintf(ty, sizeof ty, "%s", dt);
    else
      random_type(r, ty, sizeof ty);
    Buf out = {0}, line = {0};
    buf_set(&out, "", 0);
    for (int i = 0; i < l.n; i++) {
      buf_set(&line, b->p + l.at[i], line_len(&l, i));
      if (i == v->line) {
        /* the definition: its result type after the last "->" */
        char *arrow = NULL;
        for (char *p = line.p; (p = strstr(p, "->")); p += 2)
          arrow = p;
        if (arrow) {
          size_t at = (size_t)(arrow + 2 - line.p);
          while (at < line.n && line.p[at] == ' ')
            at++;
          if (strncmp(line.p + at, v->type, strlen(v->type)) == 0)
            done |= buf_splice(&line, at, strlen(v->type), ty, strlen(ty));
        }
      } else if (i > v->line && strstr(line.p, v->name)) {
        retype_use(&line, v->name, ty);
      }
      buf_splice(&out, out.n, 0, line.p, line.n);
    }
    if (done) {
      free(b->p);
      *b = out;
    } else {
      free(out.p);
    }
    free(line.p);
  }
  free(vs.v);
  free(l.at);
  return done;
}

typedef struct MutatorInfo {
  const char *name;
  Mutator fn;
  int weight;
} MutatorInfo;

static const MutatorInfo MUTATORS[] = {
    {"flip-bit", mut_flip_bit, 3},
    {"insert-bytes", mut_insert_bytes, 2},
    {"delete-range", mut_delete_range, 2},
    {"duplicate-range", mut_duplicate_range, 2},
    {"splice", mut_splice, 2},
    {"overwrite", mut_overwrite_from_other, 1},
    {"int-literal", mut_int_literal, 10},
    {"float-literal", mut_float_literal, 3},
    {"op-name", mut_op_name, 8},
    {"dtype", mut_dtype, 5},
    {"type", mut_type, 3},
    {"enum", mut_enum, 4},
    {"value", mut_value, 6},
    {"token", mut_token_edit, 3},
    {"line", mut_line, 5},
    {"nest", mut_nest, 3},
    {"typed-value", mut_typed_value, 8},
    {"insert-op", mut_insert_op, 6},
    {"string", mut_string, 2},
    {"retype-value", mut_retype_value, 4},
};

enum { N_MUTATORS = sizeof MUTATORS / sizeof MUTATORS[0] };

static int mutate(Buf *b, Rng *r, char *names, size_t names_size) {
  int total = 0;
  for (int i = 0; i < N_MUTATORS; i++)
    total += MUTATORS[i].weight;
  /* several mutations per input; now and then many */
  int n = 1 + (int)below(r, 3) + (chance(r, 5) ? (int)below(r, 6) : 0);
  int applied = 0;
  size_t len = 0;
  if (names_size)
    names[0] = 0;
  for (int k = 0; k < n; k++)
    for (int tries = 0; tries < 4; tries++) {
      int w = (int)below(r, (size_t)total), m = 0;
      while (w >= MUTATORS[m].weight)
        w -= MUTATORS[m++].weight;
      if (MUTATORS[m].fn(b, r)) {
        applied++;
        if (len + 32 < names_size)
          len += (size_t)snprintf(names + len, names_size - len, "%s%s",
                                  len ? "," : "", MUTATORS[m].name);
        break;
      }
    }
  return applied;
}

/* ---- findings ----------------------------------------------------------- */

typedef enum Stage {
  ST_NONE,
  ST_PARSE,
  ST_VERIFY,
  ST_PRINT,
  ST_PASSES,
  ST_VERIFY_AFTER,
  ST_PRINT_AFTER,
  ST_EMIT,
  ST_COMPILE,
  ST_LAUNCH_OBSERVED,
  ST_LAUNCH_PLAIN,
  ST_LAUNCH_UNPASSED,
  ST_DONE,
} Stage;

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
static int g_found;    /* findings of the current input */
static int g_known;    /* the current input hit a known (--ignore) finding */
static int g_verified; /* the current input verified (pool candidate) */

typedef struct Stats {
  long inputs, parsed, verified, passes_ok, emitted, compiled, launched,
      launch_ok, launch_failed, slow, findings, known;
} Stats;

static Stats g_stats;

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

static void install_handlers(void) {
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

static void note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void note(const char *fmt, ...) {
  if (g_verbose < 2)
    return;
  va_list ap;
  va_start(ap, fmt);
  printf("  [%s] ", STAGE_NAMES[g_stage]);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static void finding(const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void finding(const char *kind, const char *fmt, ...) {
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
static void expect_error(AscContext *ctx, AscStatus returned,
                         const char *call) {
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

static void set_stage(Stage s) { g_stage = s; }

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
  int n_platforms = 0;
  while (asc_platform_at(n_platforms))
    n_platforms++;
  s->platform = asc_platform_at((int)below(r, (size_t)n_platforms));
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

static double seconds_since(const struct timespec *t) {
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
  if (observed) {
    AscSanMode mode = chance(r, 4) ? ASC_SAN_WARN : ASC_SAN_ERROR;
    *error_mode = mode == ASC_SAN_ERROR;
    san = asc_sanitizer_new(mode, chance(r, 2) ? ASC_SAN_AUTO_SYNC : 0,
                            s->core_num);
    if (!san)
      die_oom();
    obs[n_obs++] = *asc_sanitizer_observer(san);
    AscTimingParams prm;
    if (asc_timing_params_default(s->platform->name, &prm)) {
      tim = asc_timing_new(&prm, k, s->platform, s->core_num, chance(r, 2));
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
  else if (st != ASC_OK && (err.block < -1 || err.block >= s->core_num))
    finding("bad-launch-error", "failing block %d of %d", err.block,
            s->core_num);
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
      check_timing(tim, s->core_num);
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

/* before: the module's text before the passes (NULL: they did not run). */
static void run_kernel(AscModule *m, uint64_t h, const char *before) {
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
  if (!g_found && s1 != ASC_ERR_INTERRUPTED) {
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
    static const char *const passes[] = {"canonicalize", "dce"};
    for (int i = 0; i < 2; i++) {
      asc_context_clear_error(ctx);
      s = asc_run_pass(m, passes[i]);
      if (s) {
        expect_error(ctx, s, passes[i]);
        goto out;
      }
    }
    g_stats.passes_ok++;
    set_stage(ST_VERIFY_AFTER);
    asc_context_clear_error(ctx);
    if (asc_module_verify(m) != ASC_OK) {
      finding("pass-broke-ir",
              "the IR does not verify after canonicalize + dce: %s",
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

/* The first line `// fuzz_ir: config 0xHASH` pins the launch
 * configuration (which otherwise comes from the hash of the text): the
 * minimiser writes it, so a shrunken input still runs as the original. */
static const char CONFIG_TAG[] = "// fuzz_ir: config 0x";

static uint64_t config_hash(const char *text, size_t len) {
  size_t n = sizeof CONFIG_TAG - 1;
  if (len > n && strncmp(text, CONFIG_TAG, n) == 0)
    return strtoull(text + n, NULL, 16);
  return fnv1a(text, len);
}

/* Runs one input; returns the number of findings (0 or 1). */
static int run_input(const char *text, size_t len) {
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

/* ---- libFuzzer entry point ---------------------------------------------- */

#ifdef ASC_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  init_dictionaries();
  g_timeout = 0; /* libFuzzer's -timeout watches instead */
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
    g_crash_dir = NULL;
    g_cur_path[0] = 0;
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
