/* fuzz_ir: the mutations. A seeded PRNG picks them; the dictionaries of
 * op names, element types, enum values and positions come from the core's
 * own tables. This file has the mutators of bytes, tokens, literals, names
 * and lines and mutate(), which applies several; those that read values
 * and their types off the text are in fuzz_mutate_typed.c. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"

#include "fuzz_ir.h"

/* ---- PRNG (splitmix64) -------------------------------------------------- */

uint64_t rng_next(Rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

size_t below(Rng *r, size_t n) { return n ? (size_t)(rng_next(r) % n) : 0; }

int chance(Rng *r, int one_in) { return below(r, (size_t)one_in) == 0; }

/* ---- dictionaries from the core's own tables --------------------------- */

static const char *g_op_names[ASC_OP_COUNT];
const char *g_dtype_names[ASC_DT_COUNT];
int g_n_dtypes;

EnumName g_enum_names[1024];
int g_n_enum_names;
const char *g_positions[64]; /* TPosition names, for types */
int g_n_positions;

void init_dictionaries(void) {
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

const char *edge_int(Rng *r) {
  return EDGE_INTS[below(r, sizeof EDGE_INTS / sizeof *EDGE_INTS)];
}

static const char *const EDGE_FLOATS[] = {
    "nan", "inf", "-inf",  "-0.0",  "1e308",  "-1e308", "1e-320",
    "0.0", "1.5", "65504", "65520", "3.5e38", "-2.5",   "1e19",
};

/* ---- tokens the mutators look for ---------------------------------------- */

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

/* ---- the seeds ---------------------------------------------------------- */

Corpus g_seeds, g_pool;

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

void random_type(Rng *r, char *buf, size_t size) {
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

int mutate(Buf *b, Rng *r, char *names, size_t names_size) {
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
