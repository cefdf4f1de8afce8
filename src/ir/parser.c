/* The parser: reads the MLIR generic operation syntax that printer.c
 * writes, so that print → parse → print is byte-identical.
 *
 *   module @name {
 *     "func.func"() ({
 *     ^bb0(%x: !asc.global_address<f32>, %n: i32):
 *       %0 = "arith.constant"() {value = 8 : i32} : () -> i32 loc("k.py":3:5)
 *       ...
 *     }) {sym_name = "k", kernel = 1 : i64, res_types = []} : () -> ()
 *   }
 *
 * Grammar (`//` comments and white space are skipped everywhere):
 *
 *   module    := 'module' ['@' name] '{' op* '}'
 *   op        := [value (',' value)* '='] string '(' [value (',' value)*] ')'
 *                ['(' region (',' region)* ')'] ['{' [attr (',' attr)*] '}']
 *                ':' '(' [types] ')' '->' (type | '(' [types] ')') [loc]
 *   region    := '{' ['^' id ['(' value ':' type (',' ...)* ')'] ':'] op* '}'
 *   attr      := name '=' (number [':' type] | string | type | '[' [types] ']'
 *                          | '#asc' '<' EnumKind EnumValue '>')
 *   loc       := 'loc' '(' string ':' int ':' int ')' | 'loc' '(' 'unknown' ')'
 *
 * Names. The printer names a value by its Python name (made unique in the
 * function with a `_N` suffix), and otherwise by a counter shared by all
 * values of a function (`%N` for op results, `%argN` for block arguments,
 * skipping names already taken). The parser replays that counter: a value
 * whose text name is exactly what the counter would produce gets no name
 * (AscValue.name = NULL), every other value keeps its text name. Printing
 * the parsed module therefore reproduces every name.
 *
 * Scopes: each top-level op (function) starts a fresh scope; a value is
 * visible after its definition in its block and in the regions nested in
 * it; results of an op are not visible inside the op's own regions. Names
 * are unique within a function, as the printer makes them: a name is never
 * defined twice, not even in sibling regions, and is at most 127 bytes
 * long (the printer's limit), so printing a parsed module never has to
 * rename anything.
 *
 * Memory: everything, including scratch vectors, comes from the context's
 * arena, so an error anywhere leaks nothing. Errors stop the parse at the
 * first one: ASC_ERR_COMPILE at the file, line and column of the offending
 * token. Region nesting is bounded, so no input can exhaust the stack. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/passes.h"
#include "index.h"

/* MAX_NAME_LEN: the printer writes at most 127 bytes of a name */
enum { MAX_REGION_DEPTH = 200, MAX_NUMBER_LEN = 127, MAX_NAME_LEN = 127 };

typedef enum TokKind {
  T_EOF,
  T_IDENT,  /* bare identifier: module, i32, loc, attribute names */
  T_VALUE,  /* %name */
  T_SYMBOL, /* @name or @"name" */
  T_BLOCK,  /* ^bb0 */
  T_BANG,   /* !asc.tpipe */
  T_HASH,   /* #asc */
  T_STRING, /* "..." (escapes validated, not yet decoded) */
  T_NUMBER, /* -12, 1.5e+20, -inf, -nan */
  T_LPAREN,
  T_RPAREN,
  T_LBRACE,
  T_RBRACE,
  T_LBRACKET,
  T_RBRACKET,
  T_LESS,
  T_GREATER,
  T_COMMA,
  T_COLON,
  T_EQUAL,
  T_ARROW,
} TokKind;

typedef struct Tok {
  TokKind kind;
  const char *start;
  size_t len;
  int line, col;
} Tok;

/* A name defined in the current function. */
typedef enum NameState { N_HIDDEN, N_PENDING, N_VISIBLE } NameState;

typedef struct NameEntry {
  const char *text; /* arena copy, NUL-terminated */
  size_t len;
  AscValue *value;
  NameState state;
} NameEntry;

/* A growable array in the arena (old storage is simply abandoned). */
typedef struct Vec {
  void *data;
  int n, cap;
} Vec;

typedef struct Parser {
  AscContext *ctx;
  const char *file;
  const char *pos;
  const char *line_start;
  int line;
  Tok tok;
  int failed;
  int depth;
  int ctx_was_ok;
  /* the current function's names: hash map over every name defined so
   * far (the printer's "taken" set) and the stack of definitions in the
   * open scopes */
  NameEntry **map;
  size_t map_cap, map_n;
  Vec defs; /* NameEntry * */
  int next_number;
  /* the last location's file name: its string token and decoded text
   * (every op of a module carries one, nearly always the same) */
  const char *loc_tok;
  size_t loc_tok_len;
  const char *loc_file;
} Parser;

/* ---- errors and memory ------------------------------------------------- */

static int fail_at(Parser *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail_at(Parser *p, int line, int col, const char *fmt, ...) {
  if (p->failed)
    return -1;
  p->failed = 1;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  AscLoc loc = {p->file, line, col};
  asc_error(p->ctx, ASC_ERR_COMPILE, loc, "%s", msg);
  return -1;
}

#define FAIL_TOK(p, t, ...) fail_at((p), (t)->line, (t)->col, __VA_ARGS__)

static void *palloc(Parser *p, size_t size) {
  void *d = asc_alloc(p->ctx, size ? size : 1);
  if (!d || (p->ctx_was_ok && asc_context_status(p->ctx) == ASC_ERR_INTERNAL)) {
    p->failed = 1; /* the context already holds "out of memory" */
    return NULL;
  }
  return d;
}

static void *vec_push(Parser *p, Vec *v, size_t elem) {
  if (v->n == v->cap) {
    if (v->cap > INT_MAX / 4)
      return fail_at(p, p->tok.line, p->tok.col, "input too large"), NULL;
    /* most ops have one or two of each (results, operands, attributes),
     * and every vector of every op stays in the arena: starting at 8 made
     * most of a parsed module's memory abandoned scratch */
    int cap = v->cap ? v->cap * 2 : 2;
    void *d = palloc(p, elem * (size_t)cap);
    if (!d)
      return NULL;
    if (v->n)
      memcpy(d, v->data, elem * (size_t)v->n);
    v->data = d;
    v->cap = cap;
  }
  return (char *)v->data + elem * (size_t)v->n++;
}

static char *arena_strndup(Parser *p, const char *s, size_t n) {
  char *d = palloc(p, n + 1);
  if (!d)
    return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

/* ---- lexer ------------------------------------------------------------- */

static int is_alpha(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_hex(int c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/* bare identifiers: [A-Za-z_][A-Za-z0-9_$.]* */
static int is_id_char(int c) {
  return is_alpha(c) || is_digit(c) || c == '$' || c == '.';
}
/* value, block and symbol suffixes: [A-Za-z0-9_$.-]+ and any non-ASCII
 * byte (Python identifiers may be Unicode; the printer writes them as
 * UTF-8) */
static int is_suffix_char(int c) {
  return is_id_char(c) || c == '-' || c >= 0x80;
}

static const char *describe(const Tok *t, char *buf, size_t size) {
  if (t->kind == T_EOF)
    return "end of input";
  size_t n = t->len < 40 ? t->len : 40;
  snprintf(buf, size, "'%.*s%s'", (int)n, t->start, t->len > n ? "..." : "");
  return buf;
}

/* Scans a string literal starting at the opening quote; returns the
 * position after the closing quote or NULL after an error. */
static const char *scan_string(Parser *p, const char *s) {
  const char *q = s + 1;
  for (;;) {
    unsigned char c = (unsigned char)*q;
    if (c == 0 || c == '\n')
      return fail_at(p, p->line, (int)(s - p->line_start) + 1,
                     "unterminated string"),
             NULL;
    if (c == '"')
      return q + 1;
    if (c == '\\') {
      char e = q[1];
      if (e == '"' || e == '\\' || e == 'n' || e == 't') {
        q += 2;
      } else if (is_hex((unsigned char)e) && is_hex((unsigned char)q[2])) {
        q += 3;
      } else {
        return fail_at(p, p->line, (int)(q - p->line_start) + 1,
                       "invalid escape sequence in string"),
               NULL;
      }
      continue;
    }
    q++;
  }
}

/* Scans a number: -?digits[.digits][e[+-]digits] or -?inf / -?nan. */
static const char *scan_number(const char *s) {
  const char *q = s;
  if (*q == '-' || *q == '+')
    q++;
  if (strncmp(q, "inf", 3) == 0 || strncmp(q, "nan", 3) == 0)
    return q + 3;
  while (is_digit((unsigned char)*q))
    q++;
  if (*q == '.') {
    q++;
    while (is_digit((unsigned char)*q))
      q++;
  }
  if ((*q == 'e' || *q == 'E') &&
      (is_digit((unsigned char)q[1]) ||
       ((q[1] == '+' || q[1] == '-') && is_digit((unsigned char)q[2])))) {
    q += 2;
    while (is_digit((unsigned char)*q))
      q++;
  }
  return q;
}

static void next(Parser *p) {
  Tok *t = &p->tok;
  if (p->failed) {
    t->kind = T_EOF;
    return;
  }
  const char *s = p->pos;
  for (;;) {
    if (*s == '\n') {
      s++;
      p->line++;
      p->line_start = s;
    } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
               *s == '\v') {
      s++;
    } else if (s[0] == '/' && s[1] == '/') {
      while (*s && *s != '\n')
        s++;
    } else {
      break;
    }
  }
  t->start = s;
  t->line = p->line;
  t->col = (int)(s - p->line_start) + 1;
  const char *e = s + 1;
  unsigned char c = (unsigned char)*s;
  switch (c) {
  case 0:
    t->kind = T_EOF;
    e = s;
    break;
  case '(':
    t->kind = T_LPAREN;
    break;
  case ')':
    t->kind = T_RPAREN;
    break;
  case '{':
    t->kind = T_LBRACE;
    break;
  case '}':
    t->kind = T_RBRACE;
    break;
  case '[':
    t->kind = T_LBRACKET;
    break;
  case ']':
    t->kind = T_RBRACKET;
    break;
  case '<':
    t->kind = T_LESS;
    break;
  case '>':
    t->kind = T_GREATER;
    break;
  case ',':
    t->kind = T_COMMA;
    break;
  case ':':
    t->kind = T_COLON;
    break;
  case '=':
    t->kind = T_EQUAL;
    break;
  case '"':
    t->kind = T_STRING;
    e = scan_string(p, s);
    break;
  case '%':
  case '^':
  case '@':
    t->kind = c == '%' ? T_VALUE : c == '^' ? T_BLOCK : T_SYMBOL;
    if (c == '@' && s[1] == '"') {
      e = scan_string(p, s + 1);
      break;
    }
    while (is_suffix_char((unsigned char)*e))
      e++;
    if (e == s + 1 && c != '@') { /* `module @ {`: a module named "" */
      fail_at(p, t->line, t->col, "expected a name after '%c'", c);
      e = NULL;
    }
    break;
  case '!':
  case '#':
    t->kind = c == '!' ? T_BANG : T_HASH;
    while (is_id_char((unsigned char)*e))
      e++;
    if (e == s + 1) {
      fail_at(p, t->line, t->col, "expected a name after '%c'", c);
      e = NULL;
    }
    break;
  case '-':
    if (s[1] == '>') {
      t->kind = T_ARROW;
      e = s + 2;
      break;
    }
    if (is_digit((unsigned char)s[1]) || strncmp(s + 1, "inf", 3) == 0 ||
        strncmp(s + 1, "nan", 3) == 0) {
      t->kind = T_NUMBER;
      e = scan_number(s);
      break;
    }
    fail_at(p, t->line, t->col, "unexpected '-'");
    e = NULL;
    break;
  default:
    if (is_digit(c)) {
      t->kind = T_NUMBER;
      e = scan_number(s);
    } else if (is_alpha(c)) {
      t->kind = T_IDENT;
      while (is_id_char((unsigned char)*e))
        e++;
    } else if (c >= 0x21 && c < 0x7f) {
      fail_at(p, t->line, t->col, "unexpected character '%c'", c);
      e = NULL;
    } else {
      fail_at(p, t->line, t->col, "unexpected byte 0x%02X", c);
      e = NULL;
    }
  }
  if (!e) {
    t->kind = T_EOF;
    t->len = 0;
    return;
  }
  t->len = (size_t)(e - s);
  p->pos = e;
}

static int tok_is(const Tok *t, TokKind k, const char *text) {
  return t->kind == k && strlen(text) == t->len &&
         memcmp(t->start, text, t->len) == 0;
}

static const char *kind_text(TokKind k) {
  switch (k) {
  case T_LPAREN:
    return "'('";
  case T_RPAREN:
    return "')'";
  case T_LBRACE:
    return "'{'";
  case T_RBRACE:
    return "'}'";
  case T_LBRACKET:
    return "'['";
  case T_RBRACKET:
    return "']'";
  case T_LESS:
    return "'<'";
  case T_GREATER:
    return "'>'";
  case T_COMMA:
    return "','";
  case T_COLON:
    return "':'";
  case T_EQUAL:
    return "'='";
  case T_ARROW:
    return "'->'";
  case T_STRING:
    return "a string";
  case T_VALUE:
    return "a value";
  case T_NUMBER:
    return "a number";
  default:
    return "a token";
  }
}

/* Consumes a token of kind k or fails with "expected X, found Y". */
static int expect(Parser *p, TokKind k, const char *context) {
  if (p->failed)
    return -1;
  if (p->tok.kind != k) {
    char buf[64];
    return FAIL_TOK(p, &p->tok, "expected %s%s%s, found %s", kind_text(k),
                    context ? " " : "", context ? context : "",
                    describe(&p->tok, buf, sizeof buf));
  }
  next(p);
  return p->failed ? -1 : 0;
}

static int accept(Parser *p, TokKind k) {
  if (p->failed || p->tok.kind != k)
    return 0;
  next(p);
  return 1;
}

/* Decodes a string token (quotes included) into an arena string. */
static char *decode_string(Parser *p, const Tok *t) {
  const char *s = t->start;
  size_t n = t->len;
  if (*s == '@') {
    s++;
    n--;
  }
  char *d = palloc(p, n);
  if (!d)
    return NULL;
  size_t k = 0;
  for (size_t i = 1; i + 1 < n; i++) {
    if (s[i] != '\\') {
      d[k++] = s[i];
      continue;
    }
    char e = s[i + 1];
    if (e == 'n') {
      d[k++] = '\n';
      i++;
    } else if (e == 't') {
      d[k++] = '\t';
      i++;
    } else if (e == '"' || e == '\\') {
      d[k++] = e;
      i++;
    } else {
      char hex[3] = {s[i + 1], s[i + 2], 0};
      d[k++] = (char)strtol(hex, NULL, 16);
      i += 2;
    }
  }
  d[k] = 0;
  return d;
}

/* ---- numbers ----------------------------------------------------------- */

static int number_text(Parser *p, const Tok *t, char *buf) {
  if (t->kind != T_NUMBER) {
    char d[64];
    return FAIL_TOK(p, t, "expected a number, found %s",
                    describe(t, d, sizeof d));
  }
  if (t->len > MAX_NUMBER_LEN)
    return FAIL_TOK(p, t, "number too long");
  memcpy(buf, t->start, t->len);
  buf[t->len] = 0;
  return 0;
}

static int is_integer_text(const char *s) {
  if (*s == '-' || *s == '+')
    s++;
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!is_digit((unsigned char)*s))
      return 0;
  return 1;
}

/* An integer in [INT64_MIN, UINT64_MAX]; values above INT64_MAX wrap, as
 * the front end stores unsigned 64-bit attributes. */
static int parse_int(Parser *p, const Tok *t, int64_t *out) {
  char buf[MAX_NUMBER_LEN + 1];
  if (number_text(p, t, buf))
    return -1;
  if (!is_integer_text(buf))
    return FAIL_TOK(p, t, "expected an integer, found '%s'", buf);
  errno = 0;
  if (buf[0] == '-') {
    long long v = strtoll(buf, NULL, 10);
    if (errno == ERANGE)
      return FAIL_TOK(p, t, "integer %s out of range", buf);
    *out = (int64_t)v;
  } else {
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno == ERANGE || v > UINT64_MAX)
      return FAIL_TOK(p, t, "integer %s out of range", buf);
    *out = (int64_t)(uint64_t)v;
  }
  return 0;
}

static int parse_small_int(Parser *p, int lo, int hi, int *out,
                           const char *what) {
  Tok t = p->tok;
  int64_t v;
  if (t.kind != T_NUMBER) {
    char d[64];
    return FAIL_TOK(p, &t, "expected %s, found %s", what,
                    describe(&t, d, sizeof d));
  }
  if (parse_int(p, &t, &v))
    return -1;
  if (v < lo || v > hi)
    return FAIL_TOK(p, &t, "%s %lld out of range", what, (long long)v);
  *out = (int)v;
  next(p);
  return p->failed ? -1 : 0;
}

/* ---- types ------------------------------------------------------------- */

static AscDType ir_dtype(const Tok *t) {
  char buf[16];
  if (t->kind != T_IDENT || t->len >= sizeof buf)
    return ASC_DT_NONE;
  memcpy(buf, t->start, t->len);
  buf[t->len] = 0;
  AscDType dt = asc_dtype_from_name(buf);
  /* only the IR spelling (f32), not the Python one (float32) */
  if (dt != ASC_DT_NONE && strcmp(asc_dtype_ir_name(dt), buf) != 0)
    return ASC_DT_NONE;
  return dt;
}

static int parse_dtype(Parser *p, AscDType *out) {
  Tok t = p->tok;
  AscDType dt = ir_dtype(&t);
  if (dt == ASC_DT_NONE) {
    char d[64];
    return FAIL_TOK(p, &t, "expected an element type, found %s",
                    describe(&t, d, sizeof d));
  }
  *out = dt;
  next(p);
  return p->failed ? -1 : 0;
}

static int parse_enum_name(Parser *p, AscEnumKind kind, int64_t *out) {
  Tok t = p->tok;
  char buf[64];
  if (t.kind != T_IDENT || t.len >= sizeof buf)
    return FAIL_TOK(p, &t, "expected a %s, found %s", asc_enum_kind_name(kind),
                    describe(&t, buf, sizeof buf));
  memcpy(buf, t.start, t.len);
  buf[t.len] = 0;
  if (asc_enum_value_from_name(kind, buf, out))
    return FAIL_TOK(p, &t, "'%s' is not a %s", buf, asc_enum_kind_name(kind));
  next(p);
  return p->failed ? -1 : 0;
}

static const AscType *make_type(Parser *p, AscTypeKind kind, AscDType dt,
                                int position, int depth) {
  const AscType *ty = asc_type_get(p->ctx, kind, dt, position, depth);
  if (!ty || (p->ctx_was_ok && asc_context_status(p->ctx) != ASC_OK)) {
    p->failed = 1;
    return NULL;
  }
  return ty;
}

/* NAME '>' of !asc.struct<NAME> (after the '<'); a template's instance is
 * NAME<dtype>: !asc.struct<DataCopyPadExtParams<f16>>. */
static const AscType *parse_struct_type(Parser *p) {
  Tok t = p->tok;
  char buf[64];
  if (t.kind != T_IDENT || t.len >= sizeof buf)
    return FAIL_TOK(p, &t, "expected a parameter struct name, found %s",
                    describe(&t, buf, sizeof buf)),
           NULL;
  memcpy(buf, t.start, t.len);
  buf[t.len] = 0;
  const AscStructInfo *si = asc_context_find_struct(p->ctx, buf);
  if (!si)
    return FAIL_TOK(p, &t,
                    "'%s' is not a parameter struct (nor a struct declared "
                    "by an asc.struct_def before this line)",
                    buf),
           NULL;
  next(p);
  if (si->is_template) {
    if (expect(p, T_LESS, "and the template argument of the struct"))
      return NULL;
    Tok a = p->tok;
    char d[64];
    AscDType dt = a.kind == T_IDENT ? ir_dtype(&a) : ASC_DT_NONE;
    if (dt == ASC_DT_NONE || !asc_struct_template_allows(si, dt))
      return FAIL_TOK(p, &a, "%s is not a template argument of %s%s%s%s",
                      describe(&a, d, sizeof d), si->name,
                      *si->tallowed ? " (it takes " : " (a number type)",
                      si->tallowed, *si->tallowed ? ")" : ""),
             NULL;
    next(p);
    if (expect(p, T_GREATER, "to close the template argument"))
      return NULL;
    si = asc_struct_instance(si, dt);
    if (!si) {
      p->failed = 1;
      asc_error(p->ctx, ASC_ERR_INTERNAL, (AscLoc){0}, "out of memory");
      return NULL;
    }
  }
  if (expect(p, T_GREATER, "to close the type"))
    return NULL;
  const AscType *ty = asc_type_struct(p->ctx, si);
  if (!ty || (p->ctx_was_ok && asc_context_status(p->ctx) != ASC_OK)) {
    p->failed = 1;
    return NULL;
  }
  return ty;
}

static const AscType *parse_type(Parser *p) {
  if (p->failed)
    return NULL;
  Tok t = p->tok;
  char d[64];
  if (t.kind == T_IDENT) {
    AscDType dt = ir_dtype(&t);
    if (dt == ASC_DT_NONE)
      return FAIL_TOK(p, &t, "unknown type %s", describe(&t, d, sizeof d)),
             NULL;
    next(p);
    return p->failed ? NULL : make_type(p, ASC_TY_SCALAR, dt, -1, 0);
  }
  if (t.kind != T_BANG)
    return FAIL_TOK(p, &t, "expected a type, found %s",
                    describe(&t, d, sizeof d)),
           NULL;
  static const struct {
    const char *name;
    AscTypeKind kind;
  } kinds[] = {
      {"!asc.global_address", ASC_TY_GLOBAL_ADDRESS},
      {"!asc.global_tensor", ASC_TY_GLOBAL_TENSOR},
      {"!asc.local_tensor", ASC_TY_LOCAL_TENSOR},
      {"!asc.tpipe", ASC_TY_TPIPE},
      {"!asc.tque", ASC_TY_TQUE},
      {"!asc.tbuf", ASC_TY_TBUF},
      {"!asc.struct", ASC_TY_STRUCT},
      /* family: listtensor */
      {"!asc.tensor_desc", ASC_TY_TENSOR_DESC},
      {"!asc.list_tensor_desc", ASC_TY_LIST_TENSOR_DESC},
  };
  int k = -1;
  for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
    if (tok_is(&t, T_BANG, kinds[i].name))
      k = i;
  if (k < 0)
    return FAIL_TOK(p, &t, "unknown type %s", describe(&t, d, sizeof d)), NULL;
  AscTypeKind kind = kinds[k].kind;
  next(p);
  AscDType dt = ASC_DT_NONE;
  int64_t pos = -1;
  int depth = 0;
  if (kind == ASC_TY_TPIPE || kind == ASC_TY_LIST_TENSOR_DESC)
    return p->failed ? NULL : make_type(p, kind, dt, -1, 0);
  if (expect(p, T_LESS, "after the type name"))
    return NULL;
  switch (kind) {
  case ASC_TY_STRUCT:
    return parse_struct_type(p);
  case ASC_TY_GLOBAL_ADDRESS:
  case ASC_TY_GLOBAL_TENSOR:
  case ASC_TY_TENSOR_DESC: /* family: listtensor */
    if (parse_dtype(p, &dt))
      return NULL;
    break;
  case ASC_TY_LOCAL_TENSOR:
    if (parse_dtype(p, &dt) || expect(p, T_COMMA, NULL) ||
        parse_enum_name(p, ASC_ENUM_TPOSITION, &pos))
      return NULL;
    break;
  case ASC_TY_TQUE:
    if (parse_enum_name(p, ASC_ENUM_TPOSITION, &pos) ||
        expect(p, T_COMMA, NULL) ||
        parse_small_int(p, 0, INT_MAX, &depth, "a queue depth"))
      return NULL;
    break;
  default: /* TBUF */
    if (parse_enum_name(p, ASC_ENUM_TPOSITION, &pos))
      return NULL;
    break;
  }
  if (expect(p, T_GREATER, "to close the type"))
    return NULL;
  return make_type(p, kind, dt, (int)pos, depth);
}

static int types_equal(const AscType *a, const AscType *b) {
  return a == b || (a && b && a->kind == b->kind && a->dtype == b->dtype &&
                    a->position == b->position && a->depth == b->depth &&
                    a->struct_info == b->struct_info);
}

/* '(' [type (',' type)*] ')' or '[' ... ']' into an arena vector. */
static int parse_type_list(Parser *p, TokKind close, Vec *out) {
  if (p->tok.kind == close) {
    next(p);
    return p->failed ? -1 : 0;
  }
  for (;;) {
    const AscType *ty = parse_type(p);
    if (!ty)
      return -1;
    const AscType **slot = vec_push(p, out, sizeof *slot);
    if (!slot)
      return -1;
    *slot = ty;
    if (accept(p, T_COMMA))
      continue;
    return expect(p, close, "after the type list");
  }
}

/* ---- names ------------------------------------------------------------- */

static size_t hash_name(const char *s, size_t n) {
  size_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static NameEntry *map_find(const Parser *p, const char *s, size_t n) {
  if (!p->map_cap)
    return NULL;
  size_t mask = p->map_cap - 1;
  for (size_t i = hash_name(s, n) & mask;; i = (i + 1) & mask) {
    NameEntry *e = p->map[i];
    if (!e)
      return NULL;
    if (e->len == n && memcmp(e->text, s, n) == 0)
      return e;
  }
}

static int map_insert(Parser *p, NameEntry *e) {
  if ((p->map_n + 1) * 2 > p->map_cap) {
    size_t cap = p->map_cap ? p->map_cap * 2 : 64;
    NameEntry **m = palloc(p, sizeof *m * cap);
    if (!m)
      return -1;
    for (size_t i = 0; i < p->map_cap; i++) {
      NameEntry *o = p->map[i];
      if (!o)
        continue;
      size_t j = hash_name(o->text, o->len) & (cap - 1);
      while (m[j])
        j = (j + 1) & (cap - 1);
      m[j] = o;
    }
    p->map = m;
    p->map_cap = cap;
  }
  size_t j = hash_name(e->text, e->len) & (p->map_cap - 1);
  while (p->map[j])
    j = (j + 1) & (p->map_cap - 1);
  p->map[j] = e;
  p->map_n++;
  return 0;
}

static void begin_function(Parser *p) {
  p->map = NULL;
  p->map_cap = p->map_n = 0;
  p->defs.n = 0;
  p->next_number = 0;
}

/* Defines the name of value token t (pending until bound to a value).
 * *stored is the AscValue.name to give it: NULL when the printer's counter
 * reproduces the name, else the name itself. */
static NameEntry *define_name(Parser *p, const Tok *t, int is_arg,
                              const char **stored) {
  const char *s = t->start + 1;
  size_t n = t->len - 1;
  if (n > MAX_NAME_LEN)
    return FAIL_TOK(p, t, "value name longer than %d characters", MAX_NAME_LEN),
           NULL;
  /* names are unique in a function, as the printer makes them (a name is
   * not reused even in a sibling region) */
  NameEntry *e = map_find(p, s, n);
  if (e)
    return FAIL_TOK(p, t, "redefinition of value %%%.*s", (int)n, s), NULL;
  /* replay the printer's counter without committing it */
  char buf[32];
  int k = p->next_number;
  do
    snprintf(buf, sizeof buf, is_arg ? "arg%d" : "%d", k++);
  while (map_find(p, buf, strlen(buf)) && k < INT_MAX);
  int numbered = strlen(buf) == n && memcmp(buf, s, n) == 0;
  e = palloc(p, sizeof *e);
  if (!e)
    return NULL;
  e->text = arena_strndup(p, s, n);
  e->len = n;
  if (!e->text || map_insert(p, e))
    return NULL;
  if (numbered)
    p->next_number = k;
  *stored = numbered ? NULL : e->text;
  e->state = N_PENDING;
  e->value = NULL;
  NameEntry **slot = vec_push(p, &p->defs, sizeof *slot);
  if (!slot)
    return NULL;
  *slot = e;
  return e;
}

static void bind_name(NameEntry *e, AscValue *v, const char *stored) {
  e->value = v;
  e->state = N_VISIBLE;
  v->name = stored;
}

static void close_scope(Parser *p, int mark) {
  NameEntry **defs = p->defs.data;
  for (int i = mark; i < p->defs.n; i++)
    defs[i]->state = N_HIDDEN;
  p->defs.n = mark;
}

static AscValue *lookup_value(Parser *p, const Tok *t) {
  NameEntry *e = map_find(p, t->start + 1, t->len - 1);
  if (!e || e->state != N_VISIBLE)
    return FAIL_TOK(p, t, "undefined value %.*s", (int)t->len, t->start), NULL;
  return e->value;
}

/* ---- attributes and locations ------------------------------------------ */

static int float_text(const char *s) {
  for (; *s; s++)
    if (*s == '.' || *s == 'e' || *s == 'E' || *s == 'n' || *s == 'i')
      return 1;
  return 0;
}

static int parse_number_attr(Parser *p, AscAttr *a) {
  Tok t = p->tok;
  char buf[MAX_NUMBER_LEN + 1];
  if (t.kind == T_IDENT) { /* inf, nan */
    memcpy(buf, t.start, t.len);
    buf[t.len] = 0;
  } else if (number_text(p, &t, buf)) {
    return -1;
  }
  next(p);
  const AscType *ty = NULL;
  if (accept(p, T_COLON)) {
    Tok tt = p->tok;
    if (!(ty = parse_type(p)))
      return -1;
    if (ty->kind != ASC_TY_SCALAR)
      return FAIL_TOK(p, &tt, "a number's type must be a scalar type");
  }
  if (p->failed)
    return -1;
  if (float_text(buf) || (ty && asc_type_is_float(ty))) {
    errno = 0;
    char *end;
    double f = strtod(buf, &end);
    if (*end)
      return FAIL_TOK(p, &t, "malformed number '%s'", buf);
    a->kind = ASC_ATTR_FLOAT;
    a->f = f;
  } else {
    a->kind = ASC_ATTR_INT;
    if (parse_int(p, &t, &a->i))
      return -1;
  }
  a->type = ty;
  return 0;
}

static int parse_attr_value(Parser *p, AscAttr *a) {
  Tok t = p->tok;
  char d[64];
  if (t.kind == T_NUMBER || tok_is(&t, T_IDENT, "inf") ||
      tok_is(&t, T_IDENT, "nan"))
    return parse_number_attr(p, a);
  if (t.kind == T_STRING) {
    a->kind = ASC_ATTR_STR;
    if (!(a->s = decode_string(p, &t)))
      return -1;
    next(p);
    return p->failed ? -1 : 0;
  }
  if (t.kind == T_HASH) {
    if (!tok_is(&t, T_HASH, "#asc"))
      return FAIL_TOK(p, &t, "unknown attribute dialect %s",
                      describe(&t, d, sizeof d));
    next(p);
    if (expect(p, T_LESS, "after '#asc'"))
      return -1;
    Tok k = p->tok;
    char kind[64];
    if (k.kind != T_IDENT || k.len >= sizeof kind)
      return FAIL_TOK(p, &k, "expected an enum kind, found %s",
                      describe(&k, d, sizeof d));
    memcpy(kind, k.start, k.len);
    kind[k.len] = 0;
    AscEnumKind ek = asc_enum_kind_from_name(kind);
    if (ek == ASC_ENUM_KIND_COUNT)
      return FAIL_TOK(p, &k, "unknown enum kind '%s'", kind);
    next(p);
    a->kind = ASC_ATTR_ENUM;
    a->enum_kind = ek;
    if (parse_enum_name(p, ek, &a->i))
      return -1;
    return expect(p, T_GREATER, "to close the enum attribute");
  }
  if (t.kind == T_LBRACKET) {
    next(p);
    Vec types = {0};
    if (parse_type_list(p, T_RBRACKET, &types))
      return -1;
    a->kind = ASC_ATTR_TYPES;
    a->types = types.data;
    a->n_types = types.n;
    return 0;
  }
  if (t.kind == T_IDENT || t.kind == T_BANG) {
    a->kind = ASC_ATTR_TYPE;
    return (a->type = parse_type(p)) ? 0 : -1;
  }
  return FAIL_TOK(p, &t, "expected an attribute value, found %s",
                  describe(&t, d, sizeof d));
}

static int parse_attrs(Parser *p, Vec *attrs) {
  /* at '{' */
  next(p);
  if (accept(p, T_RBRACE))
    return 0;
  for (;;) {
    Tok t = p->tok;
    char d[64];
    const char *name;
    if (t.kind == T_IDENT)
      name = arena_strndup(p, t.start, t.len);
    else if (t.kind == T_STRING)
      name = decode_string(p, &t);
    else
      return FAIL_TOK(p, &t, "expected an attribute name, found %s",
                      describe(&t, d, sizeof d));
    if (!name)
      return -1;
    AscAttr *prev = attrs->data;
    for (int i = 0; i < attrs->n; i++)
      if (strcmp(prev[i].name, name) == 0)
        return FAIL_TOK(p, &t, "duplicate attribute '%s'", name);
    next(p);
    if (expect(p, T_EQUAL, "after the attribute name"))
      return -1;
    AscAttr *a = vec_push(p, attrs, sizeof *a);
    if (!a)
      return -1;
    memset(a, 0, sizeof *a);
    a->name = name;
    if (parse_attr_value(p, a))
      return -1;
    if (accept(p, T_COMMA))
      continue;
    return expect(p, T_RBRACE, "after the attributes");
  }
}

static int parse_loc(Parser *p, AscLoc *loc) {
  /* at 'loc' */
  next(p);
  if (expect(p, T_LPAREN, "after 'loc'"))
    return -1;
  if (tok_is(&p->tok, T_IDENT, "unknown")) {
    next(p);
    return expect(p, T_RPAREN, "to close the location");
  }
  Tok t = p->tok;
  char d[64];
  if (t.kind != T_STRING)
    return FAIL_TOK(p, &t, "expected a file name string, found %s",
                    describe(&t, d, sizeof d));
  if (p->loc_file && t.len == p->loc_tok_len &&
      memcmp(t.start, p->loc_tok, t.len) == 0) {
    loc->file = p->loc_file;
  } else {
    if (!(loc->file = decode_string(p, &t)))
      return -1;
    p->loc_tok = t.start;
    p->loc_tok_len = t.len;
    p->loc_file = loc->file;
  }
  next(p);
  if (expect(p, T_COLON, "after the file name") ||
      parse_small_int(p, INT_MIN, INT_MAX, &loc->line, "a line number") ||
      expect(p, T_COLON, "after the line number") ||
      parse_small_int(p, INT_MIN, INT_MAX, &loc->col, "a column number"))
    return -1;
  return expect(p, T_RPAREN, "to close the location");
}

/* ---- ops and regions ---------------------------------------------------- */

static AscOp *parse_op(Parser *p, int top_level);

/* Parses '{' [block header] op* '}' into a fresh block (not yet owned by a
 * region: the caller moves it into the op once the op exists). */
static AscBlock *parse_region(Parser *p) {
  Tok open = p->tok;
  if (expect(p, T_LBRACE, "to open a region"))
    return NULL;
  if (++p->depth > MAX_REGION_DEPTH)
    return FAIL_TOK(p, &open, "regions nested too deeply (more than %d)",
                    MAX_REGION_DEPTH),
           NULL;
  int mark = p->defs.n;
  AscBlock *b = palloc(p, sizeof *b);
  if (!b)
    return NULL;
  if (p->tok.kind == T_BLOCK) {
    next(p);
    Vec names = {0}, types = {0};
    int paren = accept(p, T_LPAREN);
    if (paren && p->tok.kind != T_RPAREN) {
      for (;;) {
        Tok v = p->tok;
        if (v.kind != T_VALUE) {
          char d[64];
          return FAIL_TOK(p, &v, "expected a block argument, found %s",
                          describe(&v, d, sizeof d)),
                 NULL;
        }
        next(p);
        if (expect(p, T_COLON, "after the block argument"))
          return NULL;
        const AscType *ty = parse_type(p);
        Tok *ns = ty ? vec_push(p, &names, sizeof *ns) : NULL;
        const AscType **ts = ns ? vec_push(p, &types, sizeof *ts) : NULL;
        if (!ts)
          return NULL;
        *ns = v;
        *ts = ty;
        if (!accept(p, T_COMMA))
          break;
      }
    }
    if (p->failed ||
        (paren && expect(p, T_RPAREN, "after the block arguments")) ||
        expect(p, T_COLON, "after the block header"))
      return NULL;
    if (names.n) {
      b->args = palloc(p, sizeof(AscValue) * (size_t)names.n);
      if (!b->args)
        return NULL;
      b->n_args = names.n;
      const Tok *nt = names.data;
      const AscType **tt = types.data;
      for (int i = 0; i < names.n; i++) {
        AscValue *a = &b->args[i];
        a->type = tt[i];
        a->block = b;
        a->index = i;
        a->id = -1;
        const char *stored;
        NameEntry *e = define_name(p, &nt[i], 1, &stored);
        if (!e)
          return NULL;
        bind_name(e, a, stored);
      }
    }
  }
  while (!p->failed && p->tok.kind != T_RBRACE) {
    if (p->tok.kind == T_BLOCK)
      return FAIL_TOK(p, &p->tok, "only one block per region is supported"),
             NULL;
    if (p->tok.kind == T_EOF)
      return FAIL_TOK(p, &p->tok,
                      "expected '}' to close the region opened at %d:%d",
                      open.line, open.col),
             NULL;
    AscOp *op = parse_op(p, 0);
    if (!op)
      return NULL;
    asc_block_append(b, op);
  }
  if (expect(p, T_RBRACE, "to close the region"))
    return NULL;
  close_scope(p, mark);
  p->depth--;
  return b;
}

typedef struct Operand {
  AscValue *value;
  Tok tok;
} Operand;

static AscOp *parse_op(Parser *p, int top_level) {
  char d[64];
  Tok first = p->tok;
  /* results: defined now (the printer names them before the regions), bound
   * once the op exists */
  Vec res_toks = {0}, res_entries = {0}, res_names = {0};
  if (p->tok.kind == T_VALUE) {
    for (;;) {
      Tok v = p->tok;
      if (v.kind != T_VALUE)
        return FAIL_TOK(p, &v, "expected a result name, found %s",
                        describe(&v, d, sizeof d)),
               NULL;
      const char *stored;
      NameEntry *e = define_name(p, &v, 0, &stored);
      Tok *ts = e ? vec_push(p, &res_toks, sizeof *ts) : NULL;
      NameEntry **es = ts ? vec_push(p, &res_entries, sizeof *es) : NULL;
      const char **ns = es ? vec_push(p, &res_names, sizeof *ns) : NULL;
      if (!ns)
        return NULL;
      *ts = v;
      *es = e;
      *ns = stored;
      next(p);
      if (!accept(p, T_COMMA))
        break;
    }
    if (expect(p, T_EQUAL, "after the result names"))
      return NULL;
  }
  Tok name = p->tok;
  if (name.kind != T_STRING)
    return FAIL_TOK(p, &name, "expected an operation name string, found %s",
                    describe(&name, d, sizeof d)),
           NULL;
  const char *opname = decode_string(p, &name);
  if (!opname)
    return NULL;
  AscOpId id = asc_op_from_name(opname);
  if (id == ASC_OP_COUNT)
    return FAIL_TOK(p, &name, "unknown op '%s'", opname), NULL;
  if (top_level && id != ASC_OP_FUNC && id != ASC_OP_STRUCT_DEF)
    return FAIL_TOK(p, &name,
                    "only func.func and asc.struct_def ops may appear at "
                    "module level, not '%s'",
                    opname),
           NULL;
  if (!top_level && id == ASC_OP_STRUCT_DEF)
    return FAIL_TOK(p, &name, "asc.struct_def belongs at module level"), NULL;
  next(p);
  /* operands */
  Vec operands = {0};
  if (expect(p, T_LPAREN, "after the op name"))
    return NULL;
  if (p->tok.kind != T_RPAREN) {
    for (;;) {
      Tok v = p->tok;
      if (v.kind != T_VALUE)
        return FAIL_TOK(p, &v, "expected an operand, found %s",
                        describe(&v, d, sizeof d)),
               NULL;
      AscValue *val = lookup_value(p, &v);
      Operand *o = val ? vec_push(p, &operands, sizeof *o) : NULL;
      if (!o)
        return NULL;
      o->value = val;
      o->tok = v;
      next(p);
      if (!accept(p, T_COMMA))
        break;
    }
  }
  if (expect(p, T_RPAREN, "after the operands"))
    return NULL;
  /* regions */
  Vec regions = {0};
  if (accept(p, T_LPAREN)) {
    for (;;) {
      AscBlock *b = parse_region(p);
      AscBlock **slot = b ? vec_push(p, &regions, sizeof *slot) : NULL;
      if (!slot)
        return NULL;
      *slot = b;
      if (!accept(p, T_COMMA))
        break;
    }
    if (expect(p, T_RPAREN, "after the regions"))
      return NULL;
  }
  /* attributes */
  Vec attrs = {0};
  if (p->tok.kind == T_LBRACE && parse_attrs(p, &attrs))
    return NULL;
  /* the function type: operand types must match the operands */
  if (expect(p, T_COLON, "before the op's type") ||
      expect(p, T_LPAREN, "to open the operand types"))
    return NULL;
  const Operand *ops = operands.data;
  int n_types = 0;
  if (p->tok.kind != T_RPAREN) {
    for (;;) {
      Tok tt = p->tok;
      const AscType *ty = parse_type(p);
      if (!ty)
        return NULL;
      if (n_types >= operands.n)
        return FAIL_TOK(p, &tt,
                        "operand type mismatch: the type lists more than the "
                        "%d operand%s of '%s'",
                        operands.n, operands.n == 1 ? "" : "s", opname),
               NULL;
      const Operand *o = &ops[n_types++];
      if (!types_equal(ty, o->value->type)) {
        char want[96], got[96];
        asc_type_format(o->value->type, got, sizeof got);
        asc_type_format(ty, want, sizeof want);
        return FAIL_TOK(p, &tt,
                        "operand type mismatch: %.*s has type %s, but the op "
                        "type says %s",
                        (int)o->tok.len, o->tok.start, got, want),
               NULL;
      }
      if (!accept(p, T_COMMA))
        break;
    }
  }
  if (!p->failed && n_types < operands.n)
    return FAIL_TOK(p, &p->tok,
                    "operand type mismatch: '%s' has %d operand%s but its "
                    "type lists %d",
                    opname, operands.n, operands.n == 1 ? "" : "s", n_types),
           NULL;
  if (expect(p, T_RPAREN, "after the operand types") ||
      expect(p, T_ARROW, "after the operand types"))
    return NULL;
  Vec results = {0};
  Tok rt = p->tok;
  if (accept(p, T_LPAREN)) {
    if (parse_type_list(p, T_RPAREN, &results))
      return NULL;
  } else {
    const AscType *ty = parse_type(p);
    const AscType **slot = ty ? vec_push(p, &results, sizeof *slot) : NULL;
    if (!slot)
      return NULL;
    *slot = ty;
  }
  if (results.n != res_toks.n)
    return FAIL_TOK(p, res_toks.n ? &first : &rt,
                    "'%s' has %d result name%s but %d result type%s", opname,
                    res_toks.n, res_toks.n == 1 ? "" : "s", results.n,
                    results.n == 1 ? "" : "s"),
           NULL;
  AscLoc loc = {0};
  if (tok_is(&p->tok, T_IDENT, "loc") && parse_loc(p, &loc))
    return NULL;
  if (p->failed)
    return NULL;
  /* build */
  AscValue **vals = NULL;
  if (operands.n) {
    vals = palloc(p, sizeof *vals * (size_t)operands.n);
    if (!vals)
      return NULL;
    for (int i = 0; i < operands.n; i++)
      vals[i] = ops[i].value;
  }
  AscOp *op =
      asc_op_create(p->ctx, id, loc, vals, operands.n, results.data, results.n,
                    attrs.data, attrs.n, regions.n, NULL, NULL);
  if (!op || (p->ctx_was_ok && asc_context_status(p->ctx) != ASC_OK)) {
    p->failed = 1;
    return NULL;
  }
  AscBlock **blocks = regions.data;
  for (int r = 0; r < regions.n; r++) {
    op->regions[r].block = blocks[r];
    blocks[r]->parent = &op->regions[r];
  }
  NameEntry **entries = res_entries.data;
  const char **names = res_names.data;
  for (int i = 0; i < op->n_results; i++)
    bind_name(entries[i], &op->results[i], names[i]);
  return op;
}

/* ---- module -------------------------------------------------------------- */

static AscModule *parse_module(Parser *p) {
  char d[64];
  if (!tok_is(&p->tok, T_IDENT, "module"))
    return FAIL_TOK(p, &p->tok, "expected 'module', found %s",
                    describe(&p->tok, d, sizeof d)),
           NULL;
  next(p);
  const char *name = "module";
  if (p->tok.kind == T_SYMBOL) {
    Tok t = p->tok;
    name = t.start[1] == '"' ? decode_string(p, &t)
                             : arena_strndup(p, t.start + 1, t.len - 1);
    if (!name)
      return NULL;
    next(p);
  }
  if (expect(p, T_LBRACE, "to open the module body"))
    return NULL;
  AscModule *m = asc_module_new(p->ctx, name);
  if (!m || (p->ctx_was_ok && asc_context_status(p->ctx) != ASC_OK)) {
    p->failed = 1;
    return NULL;
  }
  while (!p->failed && p->tok.kind != T_RBRACE) {
    if (p->tok.kind == T_EOF)
      return FAIL_TOK(p, &p->tok, "expected '}' to close the module"), NULL;
    begin_function(p);
    AscOp *f = parse_op(p, 1);
    if (!f)
      return NULL;
    /* a struct is known from its declaration on: later types name it */
    if (f->id == ASC_OP_STRUCT_DEF && asc_struct_def_register(p->ctx, f)) {
      p->failed = 1;
      return NULL;
    }
    asc_block_append(m->body, f);
  }
  if (expect(p, T_RBRACE, "to close the module"))
    return NULL;
  if (p->tok.kind != T_EOF)
    return FAIL_TOK(p, &p->tok, "unexpected %s after the module",
                    describe(&p->tok, d, sizeof d)),
           NULL;
  return m;
}

AscModule *asc_module_parse(AscContext *ctx, const char *text,
                            const char *filename) {
  if (!ctx)
    return NULL;
  Parser p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.ctx_was_ok = asc_context_status(ctx) == ASC_OK;
  p.file = asc_strdup(ctx, filename ? filename : "<input>");
  if (!text) {
    fail_at(&p, 0, 0, "no input text");
    return NULL;
  }
  p.pos = p.line_start = text;
  p.line = 1;
  /* a UTF-8 byte order mark is not part of the text */
  if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
      (unsigned char)text[2] == 0xBF)
    p.pos = p.line_start = text + 3;
  next(&p);
  AscModule *m = parse_module(&p);
  return p.failed ? NULL : m;
}
