/* The printer: MLIR generic operation syntax.
 *
 *   %x_gm = "asc.global_tensor"() : () -> !asc.global_tensor<f32>
 * loc("k.py":3:5)
 *
 * Values print under the user's Python name when they have one (made unique
 * within the function by a numeric suffix), otherwise as %N; block
 * arguments without a name as %argN. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "hash.h"

typedef struct Out {
  char *buf;
  size_t len, cap;
  int failed;
} Out;

static void out_printf(Out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void out_printf(Out *o, const char *fmt, ...) {
  if (o->failed)
    return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      o->failed = 1;
      return;
    }
    if (o->len + (size_t)n < o->cap) {
      o->len += (size_t)n;
      return;
    }
    size_t cap = o->cap * 2 + (size_t)n + 1;
    char *nb = realloc(o->buf, cap);
    if (!nb) {
      o->failed = 1;
      return;
    }
    o->buf = nb;
    o->cap = cap;
  }
}

/* Appends n bytes of s. */
static void out_write(Out *o, const char *s, size_t n) {
  if (o->failed)
    return;
  if (o->len + n >= o->cap) {
    size_t cap = o->cap * 2 + n + 1;
    char *nb = realloc(o->buf, cap);
    if (!nb) {
      o->failed = 1;
      return;
    }
    o->buf = nb;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
  o->buf[o->len] = 0;
}

/* Names of the values of one function, indexed by value id. */
typedef struct Names {
  char **names;
  int n, cap;
} Names;

typedef struct Printer {
  Out out;
  Names names;
  /* the names taken in the function (every name in `names`), and for each
   * Python name the next `_N` suffix to try: names are only ever added
   * within a function, so every smaller suffix is known to be taken. A
   * scan of `names` per value made printing quadratic (cubic for a name
   * assigned many times). */
  AscStrMap taken, next_suffix;
  int next_number;
} Printer;

static int name_taken(const Printer *p, const char *s) {
  return asc_strmap_get(&p->taken, s, NULL);
}

/* The length of the longest prefix of s of at most max bytes that does not
 * end inside a UTF-8 sequence (names are the user's Python names, which may
 * be non-ASCII; a split character would make the text invalid UTF-8). */
static int utf8_prefix(const char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max)
    return (int)n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
    max--;
  return (int)max;
}

/* The first candidate `NAME_K` (K >= *k) not taken, into buf; *k is left at
 * that K. Names are at most size - 1 bytes (127: the parser's limit): NAME
 * is shortened, at a character boundary, to leave room for `_K`. */
static void suffixed_name(const Printer *p, const char *name, int *k, char *buf,
                          size_t size) {
  for (;; (*k)++) {
    int digits = snprintf(NULL, 0, "_%d", *k);
    snprintf(buf, size, "%.*s_%d", utf8_prefix(name, size - 1 - (size_t)digits),
             name, *k);
    if (!name_taken(p, buf))
      return;
  }
}

static void name_value(Printer *p, AscValue *v, int is_arg) {
  char buf[128];
  if (v->name && v->name[0]) {
    snprintf(buf, sizeof buf, "%.*s", utf8_prefix(v->name, sizeof buf - 1),
             v->name);
    if (name_taken(p, buf)) {
      int64_t next = 1;
      asc_strmap_get(&p->next_suffix, v->name, &next);
      int k = (int)next;
      suffixed_name(p, v->name, &k, buf, sizeof buf);
      if (asc_strmap_put(&p->next_suffix, v->name, (int64_t)k + 1)) {
        p->out.failed = 1;
        return;
      }
    }
  } else {
    do
      snprintf(buf, sizeof buf, is_arg ? "arg%d" : "%d", p->next_number++);
    while (name_taken(p, buf));
  }
  if (p->names.n == p->names.cap) {
    int cap = p->names.cap ? p->names.cap * 2 : 64;
    char **nn = realloc(p->names.names, sizeof(char *) * (size_t)cap);
    if (!nn) {
      p->out.failed = 1;
      return;
    }
    p->names.names = nn;
    p->names.cap = cap;
  }
  size_t len = strlen(buf) + 1;
  char *copy = malloc(len);
  if (!copy) {
    p->out.failed = 1;
    return;
  }
  memcpy(copy, buf, len);
  if (asc_strmap_put(&p->taken, copy, p->names.n)) {
    free(copy);
    p->out.failed = 1;
    return;
  }
  v->id = p->names.n;
  p->names.names[p->names.n++] = copy;
}

static void names_clear(Printer *p) {
  for (int i = 0; i < p->names.n; i++)
    free(p->names.names[i]);
  p->names.n = 0;
  asc_strmap_free(&p->taken);
  asc_strmap_free(&p->next_suffix);
}

static void print_value(Printer *p, const AscValue *v) {
  if (v->id >= 0 && v->id < p->names.n) {
    const char *s = p->names.names[v->id];
    out_write(&p->out, "%", 1);
    out_write(&p->out, s, strlen(s));
  } else {
    out_printf(&p->out, "%%<undefined>");
  }
}

static void print_type(Printer *p, const AscType *t) {
  char buf[96];
  asc_type_format(t, buf, sizeof buf);
  out_printf(&p->out, "%s", buf);
}

/* Runs of plain bytes are copied at once (a location's file name is
 * printed on every op). */
static void print_string(Printer *p, const char *s) {
  out_write(&p->out, "\"", 1);
  while (*s) {
    size_t n = 0;
    while (s[n] && s[n] != '"' && s[n] != '\\' && (unsigned char)s[n] >= 0x20)
      n++;
    out_write(&p->out, s, n);
    s += n;
    if (!*s)
      break;
    if (*s == '"' || *s == '\\')
      out_printf(&p->out, "\\%c", *s);
    else
      out_printf(&p->out, "\\%02X", (unsigned char)*s);
    s++;
  }
  out_write(&p->out, "\"", 1);
}

static void print_attr(Printer *p, const AscAttr *a) {
  out_printf(&p->out, "%s = ", a->name);
  switch (a->kind) {
  case ASC_ATTR_INT:
    out_printf(&p->out, "%lld : %s", (long long)a->i,
               a->type ? asc_dtype_ir_name(a->type->dtype) : "i64");
    break;
  case ASC_ATTR_FLOAT: {
    /* with an integer type the parser reads a bare "-0" or "3" as an
     * integer: a float value keeps a '.' so that it reads back as one */
    char num[40];
    snprintf(num, sizeof num, "%.17g", a->f);
    int int_type = a->type && !asc_dtype_is_float(a->type->dtype);
    int plain = !strpbrk(num, ".eEni");
    out_printf(&p->out, "%s%s : %s", num, int_type && plain ? ".0" : "",
               a->type ? asc_dtype_ir_name(a->type->dtype) : "f64");
    break;
  }
  case ASC_ATTR_STR:
    print_string(p, a->s ? a->s : "");
    break;
  case ASC_ATTR_TYPE:
    print_type(p, a->type);
    break;
  case ASC_ATTR_ENUM: {
    const char *n = asc_enum_value_name(a->enum_kind, a->i);
    out_printf(&p->out, "#asc<%s %s>", asc_enum_kind_name(a->enum_kind),
               n ? n : "?");
    break;
  }
  case ASC_ATTR_TYPES:
    out_printf(&p->out, "[");
    for (int i = 0; i < a->n_types; i++) {
      if (i)
        out_printf(&p->out, ", ");
      print_type(p, a->types[i]);
    }
    out_printf(&p->out, "]");
    break;
  }
}

static void indent(Printer *p, int depth) {
  out_printf(&p->out, "%*s", depth * 2, "");
}

static void print_op(Printer *p, AscOp *op, int depth);

static void print_block(Printer *p, AscBlock *b, int depth) {
  if (b->n_args) {
    indent(p, depth - 1);
    out_printf(&p->out, "^bb0(");
    for (int i = 0; i < b->n_args; i++) {
      if (i)
        out_printf(&p->out, ", ");
      name_value(p, &b->args[i], 1);
      print_value(p, &b->args[i]);
      out_printf(&p->out, ": ");
      print_type(p, b->args[i].type);
    }
    out_printf(&p->out, "):\n");
  }
  for (AscOp *op = b->first; op; op = op->next)
    print_op(p, op, depth);
}

static void print_op(Printer *p, AscOp *op, int depth) {
  const AscOpInfo *info = asc_op_info(op->id);
  indent(p, depth);
  for (int i = 0; i < op->n_results; i++)
    name_value(p, &op->results[i], 0);
  for (int i = 0; i < op->n_results; i++) {
    out_printf(&p->out, i ? ", " : "");
    print_value(p, &op->results[i]);
  }
  if (op->n_results)
    out_printf(&p->out, " = ");
  out_printf(&p->out, "\"%s\"(", info ? info->name : "?");
  for (int i = 0; i < op->n_operands; i++) {
    out_printf(&p->out, i ? ", " : "");
    print_value(p, op->operands[i]);
  }
  out_printf(&p->out, ")");
  if (op->n_regions) {
    out_printf(&p->out, " (");
    for (int r = 0; r < op->n_regions; r++) {
      out_printf(&p->out, r ? ", {\n" : "{\n");
      print_block(p, op->regions[r].block, depth + 1);
      indent(p, depth);
      out_printf(&p->out, "}");
    }
    out_printf(&p->out, ")");
  }
  if (op->n_attrs) {
    out_printf(&p->out, " {");
    for (int i = 0; i < op->n_attrs; i++) {
      out_printf(&p->out, i ? ", " : "");
      print_attr(p, &op->attrs[i]);
    }
    out_printf(&p->out, "}");
  }
  out_printf(&p->out, " : (");
  for (int i = 0; i < op->n_operands; i++) {
    out_printf(&p->out, i ? ", " : "");
    print_type(p, op->operands[i]->type);
  }
  out_printf(&p->out, ") -> ");
  if (op->n_results == 1) {
    print_type(p, op->results[0].type);
  } else {
    out_printf(&p->out, "(");
    for (int i = 0; i < op->n_results; i++) {
      out_printf(&p->out, i ? ", " : "");
      print_type(p, op->results[i].type);
    }
    out_printf(&p->out, ")");
  }
  if (op->loc.file) {
    out_printf(&p->out, " loc(");
    print_string(p, op->loc.file);
    out_printf(&p->out, ":%d:%d)", op->loc.line, op->loc.col);
  }
  out_printf(&p->out, "\n");
}

char *asc_module_print(AscModule *m) {
  Printer p;
  memset(&p, 0, sizeof p);
  p.out.cap = 4096;
  p.out.buf = malloc(p.out.cap);
  if (!p.out.buf)
    return NULL;
  p.out.buf[0] = 0;
  out_printf(&p.out, "module @%s {\n", m->name);
  for (AscOp *f = m->body->first; f; f = f->next) {
    p.next_number = 0;
    print_op(&p, f, 1);
    names_clear(&p);
  }
  out_printf(&p.out, "}\n");
  asc_block_reset_ids(m->body);
  free(p.names.names);
  if (p.out.failed) {
    free(p.out.buf);
    return NULL;
  }
  return p.out.buf;
}
