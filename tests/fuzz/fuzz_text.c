/* fuzz_ir: the IR text as the mutators and the minimiser handle it: growing
 * text buffers, the hash of a text, a lenient tokenizer and lines. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_ir.h"

/* ---- text buffers ------------------------------------------------------ */

void die_oom(void) {
  fputs("fuzz_ir: out of memory\n", stderr);
  exit(2);
}

void buf_reserve(Buf *b, size_t n) {
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

void buf_set(Buf *b, const char *s, size_t n) {
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
int buf_splice(Buf *b, size_t at, size_t del, const char *ins, size_t n) {
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

int buf_insert_str(Buf *b, size_t at, const char *s) {
  return buf_splice(b, at, 0, s, strlen(s));
}

/* FNV-1a: names a finding's file and, without a config line, picks an
 * input's launch configuration. */
uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* ---- a lenient tokenizer ----------------------------------------------
 * The mutators work on tokens of the IR's text form; unlike the parser this
 * never fails: a byte it does not know is a one-byte token. */

int id_char(int c) {
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

void tokenize(const Buf *b, Toks *t) {
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

int tok_eq(const Buf *b, const Span *s, const char *text) {
  return strlen(text) == s->n && memcmp(b->p + s->at, text, s->n) == 0;
}

/* ---- lines ---------------------------------------------------------------
 */

void split_lines(const Buf *b, Lines *l) {
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

size_t line_len(const Lines *l, int i) { return l->at[i + 1] - l->at[i]; }

char line_first_char(const Buf *b, const Lines *l, int i) {
  for (size_t k = l->at[i]; k < l->at[i + 1]; k++)
    if (b->p[k] != ' ' && b->p[k] != '\t')
      return b->p[k];
  return 0;
}
