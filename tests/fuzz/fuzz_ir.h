/* What the files of fuzz_ir share (see fuzz_ir.c for the whole program):
 *
 *   fuzz_ir.c           the command line and the main loop, the seeds from
 *                       files, --fork, the minimiser; or, with
 *                       -DASC_LIBFUZZER, libFuzzer's entry points
 *   fuzz_text.c         text buffers, the lenient tokenizer, lines
 *   fuzz_mutate.c       the PRNG, the dictionaries, the mutators of bytes,
 *                       tokens and lines, and mutate()
 *   fuzz_mutate_typed.c the mutators that read values and their types off
 *                       the text (typed-value, insert-op, retype-value)
 *   fuzz_pipeline.c     one input through parse, verify, print, passes and
 *                       emit; findings and their reports (also from a
 *                       signal handler)
 *   fuzz_launch.c       compile and launch: the guarded GM buffers, the
 *                       arguments, the observed, plain and unpassed launches
 *                       and the comparison of their results
 *
 * Private to tests/fuzz: not an interface of the core. */
#ifndef PYASC_FUZZ_IR_H
#define PYASC_FUZZ_IR_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "asc/ir.h"

/* ---- settings (fuzz_ir.c: the command line sets them) ------------------- */

enum {
  INPUT_LIMIT = 1 << 18, /* mutations never grow an input past this */
};

extern int g_verbose;
extern const char *g_crash_dir;
extern int g_timeout;       /* seconds per input: the watchdog */
extern double g_slow;       /* seconds per launch before interrupting */
extern int64_t g_max_steps; /* AscLaunchOptions.max_steps */
extern int g_internal_is_finding;
/* --ignore: findings whose report contains one of these are known ones
 * (being fixed) and do not count */
extern const char *g_ignore[32];
extern int g_n_ignore;

/* The sanitizer runtime's, a weak reference: NULL in a build without
 * sanitizers (fuzz_ir.c says more). */
extern void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));

/* ---- text (fuzz_text.c) ------------------------------------------------- */

typedef struct Buf {
  char *p;
  size_t n, cap;
} Buf;

void die_oom(void);
void buf_reserve(Buf *b, size_t n);
void buf_set(Buf *b, const char *s, size_t n);
int buf_splice(Buf *b, size_t at, size_t del, const char *ins, size_t n);
int buf_insert_str(Buf *b, size_t at, const char *s);
uint64_t fnv1a(const char *s, size_t n);

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

int id_char(int c);
void tokenize(const Buf *b, Toks *t);
int tok_eq(const Buf *b, const Span *s, const char *text);

typedef struct Lines {
  size_t *at; /* start of line i; at[n] == text length */
  int n;
} Lines;

void split_lines(const Buf *b, Lines *l);
size_t line_len(const Lines *l, int i);
char line_first_char(const Buf *b, const Lines *l, int i);

/* ---- mutations (fuzz_mutate.c, fuzz_mutate_typed.c) --------------------- */

typedef struct Rng {
  uint64_t s;
} Rng;

uint64_t rng_next(Rng *r);
size_t below(Rng *r, size_t n);
int chance(Rng *r, int one_in);

/* The dictionaries, from the core's own tables (init_dictionaries). */
typedef struct EnumName {
  AscEnumKind kind;
  const char *name;
} EnumName;

extern const char *g_dtype_names[ASC_DT_COUNT];
extern int g_n_dtypes;
extern EnumName g_enum_names[1024];
extern int g_n_enum_names;
extern const char *g_positions[64]; /* TPosition names, for types */
extern int g_n_positions;

void init_dictionaries(void);
/* A random edge value of the integer literals. */
const char *edge_int(Rng *r);
/* A random type of any kind, as text. */
void random_type(Rng *r, char *buf, size_t size);

/* The seeds (main loads them) and the pool of verified mutants: splices
 * take from both. */
typedef struct Corpus {
  Buf *v;
  char **names;
  int n, cap;
} Corpus;

extern Corpus g_seeds, g_pool;

/* Each returns 1 when it changed the input. */
int mut_typed_value(Buf *b, Rng *r);
int mut_insert_op(Buf *b, Rng *r);
int mut_retype_value(Buf *b, Rng *r);

/* Applies several mutations; their names go to names (comma-separated).
 * Returns how many changed the input. */
int mutate(Buf *b, Rng *r, char *names, size_t names_size);

/* ---- running an input (fuzz_pipeline.c, fuzz_launch.c) ------------------ */

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

typedef struct Stats {
  long inputs, parsed, verified, passes_ok, emitted, compiled, launched,
      launch_ok, launch_failed, slow, findings, known;
} Stats;

extern Stats g_stats;
extern int g_found;    /* findings of the current input */
extern int g_verified; /* the current input verified (pool candidate) */

void set_stage(Stage s);

/* A line of the stage's trace (--verbose twice). */
void note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Reports a finding of the current input (once per input). */
void finding(const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A failed call must leave an error status and a non-empty message. */
void expect_error(AscContext *ctx, AscStatus returned, const char *call);

/* The first line `// fuzz_ir: config 0xHASH` pins the launch
 * configuration (which otherwise comes from the hash of the text): the
 * minimiser writes it, so a shrunken input still runs as the original. */
#define CONFIG_TAG "// fuzz_ir: config 0x"

uint64_t config_hash(const char *text, size_t len);

/* Runs one input; returns the number of findings (0 or 1). */
int run_input(const char *text, size_t len);

#ifndef ASC_LIBFUZZER /* libFuzzer catches crashes and hangs itself */
void install_handlers(void);
#endif

/* Compiles the first kernel of m and launches it; h is the input's config
 * hash, before the module's text before the passes (NULL: they did not
 * run). */
void run_kernel(AscModule *m, uint64_t h, const char *before);

double seconds_since(const struct timespec *t);

#endif
