/* The Ascend C emitter: ASC-IR → one C++ translation unit for the Bisheng
 * compiler of the CANN toolkit.
 *
 * Spelling comes from the op table (its `cpp` and `emit` columns): CALL rows
 * become `AscendC::Add(dst, src0, src1, count)`, TEMPLATE rows take their
 * enum attribute as the template argument (`AscendC::SetFlag<
 * AscendC::HardEvent::MTE2_V>(id)`), METHOD rows call a member of their
 * first operand. SPECIAL rows (declarations, scalar arithmetic, control
 * flow) are spelled here, by the functions special_rule picks.
 *
 * Readability: variables take the user's Python names (made unique per
 * function, C++ keywords avoided); pure single-use temporaries and constants
 * are inlined into the expression that uses them; each statement can carry
 * a `// file.py:LINE` comment. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/emit.h"
#include "emitter.h"
#include "ir/hash.h"

/* ---- output buffer --------------------------------------------------------
 */

static void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  if (b->failed)
    return;
  for (;;) {
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0,
                      fmt, cp);
    va_end(cp);
    if (n < 0) {
      b->failed = 1;
      return;
    }
    if (b->s && b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = (b->cap + (size_t)n + 1) * 2;
    char *ns = realloc(b->s, cap);
    if (!ns) {
      b->failed = 1;
      return;
    }
    b->s = ns;
    b->cap = cap;
  }
}

void em_buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

/* A malloc'ed formatted string (NULL on failure). */

char *em_fmt_str(const char *fmt, ...) {
  Buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

/* ---- per-function value table
 * ------------------------------------------------ */

static const char *const cpp_keywords[] = {
    "alignas",  "alignof",   "asm",       "auto",      "bool",     "break",
    "case",     "catch",     "char",      "class",     "const",    "constexpr",
    "continue", "default",   "delete",    "do",        "double",   "else",
    "enum",     "explicit",  "export",    "extern",    "false",    "float",
    "for",      "friend",    "goto",      "if",        "inline",   "int",
    "long",     "mutable",   "namespace", "new",       "noexcept", "nullptr",
    "operator", "private",   "protected", "public",    "register", "return",
    "short",    "signed",    "sizeof",    "static",    "struct",   "switch",
    "template", "this",      "throw",     "true",      "try",      "typedef",
    "typeid",   "typename",  "union",     "unsigned",  "using",    "virtual",
    "void",     "volatile",  "while",     "half",      "AscendC",  "GM_ADDR",
    "int8_t",   "int16_t",   "int32_t",   "int64_t",   "uint8_t",  "uint16_t",
    "uint32_t", "uint64_t",  "main",      "std",       "PIPE_S",   "PIPE_V",
    "PIPE_M",   "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_FIX",
    NULL};

static int is_keyword(const char *s) {
  for (int i = 0; cpp_keywords[i]; i++)
    if (strcmp(cpp_keywords[i], s) == 0)
      return 1;
  return 0;
}

static int name_taken(const Emitter *e, const char *s) {
  return asc_strmap_get(&e->taken_set, s, NULL);
}

/* Takes ownership of s; -1 (s freed, e->failed set) when out of memory. */
static int take_name(Emitter *e, char *s) {
  if (!s) {
    e->failed = 1;
    return -1;
  }
  if (e->n_taken == e->cap_taken) {
    int cap = e->cap_taken ? e->cap_taken * 2 : 64;
    char **nt = realloc(e->taken, sizeof(char *) * (size_t)cap);
    if (!nt) {
      e->failed = 1;
      free(s);
      return -1;
    }
    e->taken = nt;
    e->cap_taken = cap;
  }
  if (asc_strmap_put(&e->taken_set, s, 1)) {
    e->failed = 1;
    free(s);
    return -1;
  }
  e->taken[e->n_taken++] = s;
  return 0;
}

/* A fresh C++ identifier based on hint (the Python name, or a role). */
char *em_fresh_name(Emitter *e, const char *hint) {
  char base[96];
  size_t n = 0;
  for (const char *p = hint; *p && n < sizeof base - 8; p++)
    base[n++] = (isalnum((unsigned char)*p) || *p == '_') ? *p : '_';
  base[n] = 0;
  if (n == 0 || isdigit((unsigned char)base[0])) {
    memmove(base + 2, base, n + 1);
    base[0] = 'v';
    base[1] = '_';
  }
  if (is_keyword(base))
    strcat(base, "_");
  char cand[128];
  snprintf(cand, sizeof cand, "%s", base);
  if (name_taken(e, cand)) {
    int64_t k = 1;
    asc_strmap_get(&e->next_suffix, base, &k);
    do
      snprintf(cand, sizeof cand, "%s_%d", base, (int)k++);
    while (name_taken(e, cand));
    if (asc_strmap_put(&e->next_suffix, base, k)) {
      e->failed = 1;
      return NULL;
    }
  }
  char *s = em_fmt_str("%s", cand);
  return take_name(e, s) ? NULL : s;
}

static ValueInfo *info(Emitter *e, const AscValue *v) {
  static ValueInfo none;
  if (v->id < 0 || v->id >= e->n_vals)
    return &none;
  return &e->vals[v->id];
}

const char *em_expr(Emitter *e, const AscValue *v) {
  const char *s = info(e, v)->expr;
  return s ? s : "/*?*/";
}

void em_set_expr(Emitter *e, AscValue *v, char *s) {
  if (!s) {
    e->failed = 1;
    return;
  }
  if (v->id < 0 || v->id >= e->n_vals) {
    free(s);
    return;
  }
  ValueInfo *vi = &e->vals[v->id];
  free(vi->mem ? vi->mem : vi->expr);
  vi->expr = s;
  vi->len = strlen(s);
  vi->mem = NULL;
  vi->cap = 0;
}

static void value_info_free(ValueInfo *vi) {
  free(vi->mem ? vi->mem : vi->expr);
  vi->expr = vi->mem = NULL;
}

static void number_values(Emitter *e, AscBlock *b) {
  for (int i = 0; i < b->n_args; i++)
    b->args[i].id = e->n_vals++;
  for (AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_results; i++)
      op->results[i].id = e->n_vals++;
    for (int r = 0; r < op->n_regions; r++)
      number_values(e, op->regions[r].block);
  }
}

static void count_uses(Emitter *e, AscBlock *b) {
  for (AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_operands; i++) {
      info(e, op->operands[i])->uses++;
      info(e, op->operands[i])->user = op;
    }
    for (int r = 0; r < op->n_regions; r++)
      count_uses(e, op->regions[r].block);
  }
}

static void function_begin(Emitter *e, AscOp *f) {
  e->n_vals = 0;
  number_values(e, f->regions[0].block);
  if (e->n_vals > e->cap_vals) {
    ValueInfo *nv = realloc(e->vals, sizeof(ValueInfo) * (size_t)e->n_vals);
    if (!nv) {
      e->failed = 1;
      e->n_vals = 0;
      return;
    }
    e->vals = nv;
    e->cap_vals = e->n_vals;
  }
  if (e->n_vals) /* (vals is still NULL when no function had values) */
    memset(e->vals, 0, sizeof(ValueInfo) * (size_t)e->n_vals);
  count_uses(e, f->regions[0].block);
}

static void function_end(Emitter *e, AscOp *f) {
  for (int i = 0; i < e->n_vals; i++)
    value_info_free(&e->vals[i]);
  e->n_vals = 0;
  for (int i = 0; i < e->n_taken; i++)
    free(e->taken[i]);
  e->n_taken = 0;
  asc_strmap_free(&e->taken_set);
  asc_strmap_free(&e->next_suffix);
  asc_block_reset_ids(f->regions[0].block);
}

/* ---- types ------------------------------------------------------------------
 */

const char *em_position_cpp(int pos) {
  const char *s = asc_enum_value_cpp(ASC_ENUM_TPOSITION, pos);
  return s ? s : "VECCALC";
}

/* The C++ spelling of an IR type, into buf. */
static const char *type_cpp(const AscType *t, char *buf, size_t size) {
  const char *el = asc_dtype_cpp_name(t->dtype);
  switch (t->kind) {
  case ASC_TY_SCALAR:
    snprintf(buf, size, "%s", el);
    break;
  case ASC_TY_GLOBAL_ADDRESS:
    snprintf(buf, size, "__gm__ %s *", el);
    break;
  case ASC_TY_GLOBAL_TENSOR:
    snprintf(buf, size, "AscendC::GlobalTensor<%s>", el);
    break;
  case ASC_TY_LOCAL_TENSOR:
    snprintf(buf, size, "AscendC::LocalTensor<%s>", el);
    break;
  case ASC_TY_TPIPE:
    snprintf(buf, size, "AscendC::TPipe");
    break;
  case ASC_TY_TQUE:
    snprintf(buf, size, "AscendC::TQue<AscendC::TPosition::%s, %d>",
             em_position_cpp(t->position), t->depth);
    break;
  case ASC_TY_TBUF:
    snprintf(buf, size, "AscendC::TBuf<AscendC::TPosition::%s>",
             em_position_cpp(t->position));
    break;
  case ASC_TY_STRUCT: {
    const AscStructInfo *si = asc_type_struct_info(t);
    snprintf(buf, size, "%s", si ? si->cpp : "void");
    break;
  }
  /* family: listtensor */
  case ASC_TY_TENSOR_DESC:
    snprintf(buf, size, "AscendC::TensorDesc<%s>", el);
    break;
  case ASC_TY_LIST_TENSOR_DESC:
    snprintf(buf, size, "AscendC::ListTensorDesc");
    break;
  default:
    snprintf(buf, size, "void");
  }
  return buf;
}

/* Framework objects are passed to device functions by reference. */
static int by_reference(const AscType *t) {
  return t->kind == ASC_TY_TPIPE || t->kind == ASC_TY_TQUE ||
         t->kind == ASC_TY_TBUF;
}

/* ---- statements
 * ---------------------------------------------------------------- */

void em_line_start(Emitter *e) {
  em_buf_printf(&e->out, "%*s", e->depth * 4, "");
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

void em_line_end(Emitter *e, const AscOp *op) {
  if (e->opt->line_comments && op && op->loc.file && op->loc.line > 0)
    em_buf_printf(&e->out, "  // %s:%d", base_name(op->loc.file), op->loc.line);
  em_buf_printf(&e->out, "\n");
}

/* Emits `stmt` (already formatted) as a full statement line. */
void em_statement(Emitter *e, const AscOp *op, const char *stmt) {
  em_line_start(e);
  em_buf_printf(&e->out, "%s;", stmt);
  em_line_end(e, op);
}

/* Strips one pair of enclosing parentheses for use at statement level. */
const char *em_unparen(const char *s, char *buf, size_t size) {
  size_t n = strlen(s);
  if (n < 2 || s[0] != '(' || s[n - 1] != ')' || n - 1 > size)
    return s;
  int depth = 0;
  for (size_t i = 0; i < n - 1; i++) {
    if (s[i] == '(')
      depth++;
    else if (s[i] == ')')
      depth--;
    if (depth == 0)
      return s; /* the first paren closes before the end */
  }
  memcpy(buf, s + 1, n - 2);
  buf[n - 2] = 0;
  return buf;
}

/* ---- expressions grown in place ------------------------------------------
 * An inlined temporary's expression is read once, by its only user. When
 * that user wraps it in more text (`(` ... ` + 1)`), the expression's
 * buffer is taken over and grown in place, with free room kept on both
 * sides, instead of being copied: a chain of N inlined single-use
 * temporaries (unnamed values, as IR text or a lowering writes them) then
 * costs O(N), not O(N^2). */

/* Makes room for `before` bytes before the text and `after` after it;
 * mem becomes NULL when out of memory. */
static void expr_reserve(Expr *x, size_t before, size_t after) {
  if (!x->mem ||
      (x->start >= before && x->cap - x->start - x->len - 1 >= after))
    return;
  /* doubling, the text in the middle: a run of small additions on either
   * side costs O(1) each, amortised */
  size_t cap = 2 * (x->len + before + after) + 64;
  char *m = malloc(cap);
  if (m) {
    size_t start = before + (cap - x->len - 1 - before - after) / 2;
    memcpy(m + start, x->mem + x->start, x->len + 1);
    x->start = start;
    x->cap = cap;
  }
  free(x->mem);
  x->mem = m;
}

static void expr_prepend(Expr *x, const char *s, size_t n) {
  expr_reserve(x, n, 0);
  if (!x->mem)
    return;
  x->start -= n;
  memcpy(x->mem + x->start, s, n);
  x->len += n;
}

static void expr_append(Expr *x, const char *s, size_t n) {
  expr_reserve(x, 0, n);
  if (!x->mem)
    return;
  memcpy(x->mem + x->start + x->len, s, n);
  x->len += n;
  x->mem[x->start + x->len] = 0;
}

/* An Expr holding a copy of s (mem NULL when out of memory). */
static Expr expr_of(const char *s, size_t n) {
  Expr x = {malloc(n + 1), 0, n, n + 1};
  if (x.mem) {
    memcpy(x.mem, s, n);
    x.mem[n] = 0;
  }
  return x;
}

/* Takes v's expression out of its table entry. */
static Expr take_expr(Emitter *e, const AscValue *v) {
  ValueInfo *vi = &e->vals[v->id];
  Expr x = {vi->mem ? vi->mem : vi->expr,
            vi->mem ? (size_t)(vi->expr - vi->mem) : 0, vi->len,
            vi->mem ? vi->cap : vi->len + 1};
  vi->expr = vi->mem = NULL;
  vi->len = vi->cap = 0;
  return x;
}

/* Below this length an operand's expression is copied. */
enum { SPLICE_MIN = 64 };

/* The expression pieces[0] vals[0] pieces[1] ... vals[n-1] pieces[n]
 * (each vals[i] spelled as its expression), reusing in place the longest
 * operand expression that op is the only reader of. */
static Expr splice(Emitter *e, const AscOp *op, const char *const *pieces,
                   AscValue *const *vals, int n) {
  int k = -1;
  size_t longest = SPLICE_MIN;
  for (int i = 0; i < n; i++) {
    const ValueInfo *vi = info(e, vals[i]);
    if (vals[i]->id >= 0 && vi->expr && vi->uses == 1 && vi->user == op &&
        vi->len > longest) {
      longest = vi->len;
      k = i;
    }
  }
  Expr x;
  if (k < 0) {
    x = expr_of(pieces[0], strlen(pieces[0]));
    for (int i = 0; i < n; i++) {
      const char *s = em_expr(e, vals[i]);
      expr_append(&x, s, strlen(s));
      expr_append(&x, pieces[i + 1], strlen(pieces[i + 1]));
    }
    return x;
  }
  x = take_expr(e, vals[k]);
  for (int i = k; i >= 0; i--) {
    expr_prepend(&x, pieces[i], strlen(pieces[i]));
    if (i > 0) {
      const ValueInfo *vi = info(e, vals[i - 1]);
      const char *s = em_expr(e, vals[i - 1]);
      expr_prepend(&x, s, vi->expr ? vi->len : strlen(s));
    }
  }
  for (int i = k + 1; i <= n; i++) {
    if (i > k + 1) {
      const ValueInfo *vi = info(e, vals[i - 1]);
      const char *s = em_expr(e, vals[i - 1]);
      expr_append(&x, s, vi->expr ? vi->len : strlen(s));
    }
    expr_append(&x, pieces[i], strlen(pieces[i]));
  }
  return x;
}

static void bind_expr(Emitter *e, AscOp *op, Expr rhs, int pure);

/* Binds result 0 of op to the expression rhs: inlined when the value is a
 * pure single-use temporary without a Python name, else declared. */
void em_bind(Emitter *e, AscOp *op, char *rhs, int pure) {
  if (!rhs) {
    e->failed = 1;
    return;
  }
  size_t n = strlen(rhs);
  bind_expr(e, op, (Expr){rhs, 0, n, n + 1}, pure);
}

static void bind_expr(Emitter *e, AscOp *op, Expr x, int pure) {
  if (!x.mem) {
    e->failed = 1;
    return;
  }
  char *rhs = x.mem + x.start;
  AscValue *v = &op->results[0];
  const AscOp *user = info(e, v)->user;
  /* a value only passed on by a yield is assigned to its variable directly */
  int only_yielded = info(e, v)->uses == 1 && user &&
                     (user->id == ASC_OP_YIELD || user->id == ASC_OP_CONDITION);
  if (pure && (only_yielded || (!v->name && info(e, v)->uses <= 1))) {
    if (v->id < 0 || v->id >= e->n_vals) {
      free(x.mem);
      return;
    }
    ValueInfo *vi = &e->vals[v->id];
    value_info_free(vi);
    vi->expr = rhs;
    vi->len = x.len;
    vi->mem = x.mem;
    vi->cap = x.cap;
    return;
  }
  if (info(e, v)->uses == 0 && !v->name && pure) {
    free(x.mem);
    return;
  }
  char ty[160], tmp[4096];
  char *name = em_fresh_name(e, v->name ? v->name : "tmp");
  if (!name) {
    free(x.mem);
    return;
  }
  em_line_start(e);
  em_buf_printf(&e->out, "%s %s = %s;", type_cpp(v->type, ty, sizeof ty), name,
                em_unparen(rhs, tmp, sizeof tmp));
  em_line_end(e, op);
  free(x.mem);
  em_set_expr(e, v, em_fmt_str("%s", name));
}

/* Declares a variable for value v (a loop-carried or if result) named
 * after v or hint, optionally initialised. */
char *em_declare(Emitter *e, const AscOp *op, const AscValue *v,
                 const char *hint, const char *init) {
  char ty[160], tmp[4096];
  char *name = em_fresh_name(e, v->name ? v->name : hint);
  if (!name)
    return NULL;
  em_line_start(e);
  if (init)
    em_buf_printf(&e->out, "%s %s = %s;", type_cpp(v->type, ty, sizeof ty),
                  name, em_unparen(init, tmp, sizeof tmp));
  else
    em_buf_printf(&e->out, "%s %s;", type_cpp(v->type, ty, sizeof ty), name);
  em_line_end(e, op);
  return name;
}

static char *literal(const AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "value");
  const AscType *t = op->results[0].type;
  if (!a)
    return em_fmt_str("0");
  if (asc_type_is_float(t)) {
    double f = a->kind == ASC_ATTR_FLOAT ? a->f : (double)a->i;
    char num[64];
    if (f != f)
      snprintf(num, sizeof num, "(0.0f / 0.0f)");
    else if (f > 3.5e38 || f < -3.5e38)
      snprintf(num, sizeof num, "(%s1.0f / 0.0f)", f < 0 ? "-" : "");
    else {
      snprintf(num, sizeof num, "%.9g", f);
      if (!strpbrk(num, ".eEn"))
        strcat(num, ".0");
      strcat(num, "f");
    }
    if (t->dtype == ASC_DT_FLOAT32)
      return em_fmt_str("%s", num);
    if (t->dtype == ASC_DT_FLOAT64)
      return em_fmt_str("%.17g", f);
    return em_fmt_str("%s(%s)", asc_dtype_cpp_name(t->dtype), num);
  }
  int64_t i = a->kind == ASC_ATTR_FLOAT ? (int64_t)a->f : a->i;
  switch (t->dtype) {
  case ASC_DT_BOOL:
    return em_fmt_str("%s", i ? "true" : "false");
  case ASC_DT_INT64:
  case ASC_DT_INDEX:
    /* 9223372036854775808LL does not fit long long: negating it is no
     * int64_t constant (as INT32_MIN below) */
    if (i == INT64_MIN)
      return em_fmt_str("(-9223372036854775807LL - 1)");
    return em_fmt_str(i < 0 ? "(%lldLL)" : "%lldLL", (long long)i);
  case ASC_DT_UINT32:
    return em_fmt_str("%lluU", (unsigned long long)(uint32_t)i);
  case ASC_DT_UINT64:
    return em_fmt_str("%lluULL", (unsigned long long)i);
  case ASC_DT_INT32:
    if (i == INT32_MIN)
      return em_fmt_str("(-2147483647 - 1)");
    return em_fmt_str(i < 0 ? "(%lld)" : "%lld", (long long)i);
  default:
    return em_fmt_str("static_cast<%s>(%lld)", asc_dtype_cpp_name(t->dtype),
                      (long long)i);
  }
}

static const char *cmp_op(int64_t pred) {
  const char *s = asc_enum_value_cpp(ASC_ENUM_CMPPRED, pred);
  return s ? s : "==";
}

/* Scalar operands of vector instructions are converted to the element type
 * as the C++ API's `const T&` parameter expects. */
static char *typed_scalar(Emitter *e, const AscValue *v, AscDType el) {
  char tmp[4096];
  if (v->type->dtype == el)
    return em_fmt_str("%s", em_unparen(em_expr(e, v), tmp, sizeof tmp));
  return em_fmt_str("static_cast<%s>(%s)", asc_dtype_cpp_name(el),
                    em_expr(e, v));
}

/* The type a number operand is passed as: the element type of the tensor
 * operand before it (Axpy's scalar is a `const U&` of its src, whose type
 * may differ from dst's), else el. */
static AscDType scalar_el(const AscOp *op, int i, AscDType el) {
  for (int k = i - 1; k >= 0; k--)
    if (asc_type_is_tensor(op->operands[k]->type))
      return op->operands[k]->type->dtype;
  return el;
}

char *em_join_operands(Emitter *e, AscOp *op, int from, AscDType el) {
  Buf b = {0};
  em_buf_printf(&b, "%s", "");
  for (int i = from; i < op->n_operands; i++) {
    const AscValue *v = op->operands[i];
    int scalar_to_el = el != ASC_DT_NONE && v->type->kind == ASC_TY_SCALAR &&
                       asc_op_info(op->id)->operands[i].kind == ASC_OK_NUM;
    char tmp[4096];
    char *s =
        scalar_to_el
            ? typed_scalar(e, v, scalar_el(op, i, el))
            : em_fmt_str("%s", em_unparen(em_expr(e, v), tmp, sizeof tmp));
    em_buf_printf(&b, "%s%s", i > from ? ", " : "", s ? s : "");
    free(s);
  }
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  return b.s;
}

static AscDType element_type(const AscOp *op) {
  for (int i = 0; i < op->n_operands; i++)
    if (asc_type_is_tensor(op->operands[i]->type))
      return op->operands[i]->type->dtype;
  return ASC_DT_NONE;
}

/* The template argument of a TEMPLATE row: its enum attribute. */
static char *template_arg(const AscOp *op) {
  for (int i = 0; i < op->n_attrs; i++)
    if (op->attrs[i].kind == ASC_ATTR_ENUM) {
      const AscAttr *a = &op->attrs[i];
      return em_fmt_str("%s%s", asc_enum_cpp_prefix(a->enum_kind),
                        asc_enum_value_cpp(a->enum_kind, a->i));
    }
  return NULL;
}

static void emit_block(Emitter *e, AscBlock *b);

static void assign(Emitter *e, const AscOp *op, const char *name,
                   const char *value) {
  char tmp[4096];
  char *s = em_fmt_str("%s = %s", name, em_unparen(value, tmp, sizeof tmp));
  em_statement(e, op, s ? s : "");
  free(s);
}

int em_is_word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Does any value read a variable assigned before it? That is, for some
 * i < j, names[i] is really assigned (its value is not itself) and occurs
 * as a whole word in value j. The names are identifiers (fresh_name makes
 * them of word characters only), so a whole-word occurrence is a maximal
 * run of word characters: each value is cut into such runs, looked up in
 * the set of names assigned before it. (A substring search for every
 * pair was quadratic in the number of loop-carried values.) -1 when out
 * of memory. */
static int assignments_clash(Emitter *e, char **names, AscValue **values,
                             int n) {
  AscStrMap assigned = {0};
  int clash = 0;
  for (int j = 0; j < n && !clash; j++) {
    const char *v = em_expr(e, values[j]);
    for (const char *p = v; *p && j > 0 && !clash;) {
      if (!em_is_word_char(*p)) {
        p++;
        continue;
      }
      const char *w = p;
      while (em_is_word_char(*p))
        p++;
      clash = asc_strmap_getn(&assigned, w, (size_t)(p - w), NULL);
    }
    if (!clash && strcmp(names[j], v) != 0 &&
        asc_strmap_put(&assigned, names[j], 1))
      clash = -1;
  }
  asc_strmap_free(&assigned);
  return clash;
}

/* Assigns values to the named variables `names` (loop-carried values) as a
 * parallel assignment: in order when no value reads a variable assigned
 * before it, else through `_next` temporaries. */
static void assign_all(Emitter *e, const AscOp *op, char **names,
                       AscValue **values, int n) {
  int clash = assignments_clash(e, names, values, n);
  if (clash < 0) {
    e->failed = 1;
    return;
  }
  if (!clash) {
    for (int i = 0; i < n; i++)
      if (strcmp(names[i], em_expr(e, values[i])) != 0)
        assign(e, op, names[i], em_expr(e, values[i]));
    return;
  }
  char **tmps = calloc((size_t)n, sizeof(char *));
  if (!tmps) {
    e->failed = 1;
    return;
  }
  for (int i = 0; i < n; i++) {
    if (strcmp(names[i], em_expr(e, values[i])) == 0)
      continue;
    char hint[128];
    snprintf(hint, sizeof hint, "%s_next", names[i]);
    AscValue next = *values[i];
    next.name = hint;
    tmps[i] = em_declare(e, op, &next, hint, em_expr(e, values[i]));
  }
  for (int i = 0; i < n; i++)
    if (tmps[i])
      assign(e, op, names[i], tmps[i]);
  free(tmps);
}

/* Declares the variables of n loop-carried or if results, named after the
 * results or else after the matching block arguments `also`. */
static char **carried_names(Emitter *e, AscOp *op, AscValue *const *inits,
                            int n, const AscValue *also) {
  char **names = calloc((size_t)(n ? n : 1), sizeof(char *));
  if (!names) {
    e->failed = 1;
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    AscValue *r = &op->results[i];
    const char *hint = r->name                  ? r->name
                       : (also && also[i].name) ? also[i].name
                                                : "carried";
    AscValue named = *r;
    named.name = hint;
    names[i] =
        em_declare(e, op, &named, hint, inits ? em_expr(e, inits[i]) : NULL);
  }
  return names;
}

static void emit_for(Emitter *e, AscOp *op) {
  AscBlock *body = op->regions[0].block;
  int n = op->n_results;
  char **names = carried_names(e, op, op->operands + 3, n, body->args + 1);
  if (!names)
    return;
  for (int i = 0; i < n; i++) {
    em_set_expr(e, &body->args[i + 1], em_fmt_str("%s", names[i]));
    em_set_expr(e, &op->results[i], em_fmt_str("%s", names[i]));
  }
  AscValue *iv = &body->args[0];
  char ty[160];
  char *ivn = em_fresh_name(e, iv->name ? iv->name : "i");
  if (!ivn)
    return;
  em_set_expr(e, iv, em_fmt_str("%s", ivn));
  const AscValue *step = op->operands[2];
  const AscOp *sdef = step->def;
  char cond[512];
  if (sdef && sdef->id == ASC_OP_CONSTANT) {
    int64_t s = asc_op_attr_int(sdef, "value", 1);
    snprintf(cond, sizeof cond, "%s %s %s", ivn, s > 0 ? "<" : ">",
             em_expr(e, op->operands[1]));
  } else {
    snprintf(cond, sizeof cond, "(%s > 0 ? %s < %s : %s > %s)",
             em_expr(e, step), ivn, em_expr(e, op->operands[1]), ivn,
             em_expr(e, op->operands[1]));
  }
  int64_t unroll = asc_op_attr_int(op, "unroll_factor", 1);
  if (unroll > 1) { /* asc2.range(..., unroll_factor=N) */
    em_line_start(e);
    em_buf_printf(&e->out, "#pragma GCC unroll %lld\n", (long long)unroll);
  }
  em_line_start(e);
  if (sdef && sdef->id == ASC_OP_CONSTANT &&
      asc_op_attr_int(sdef, "value", 0) == 1)
    em_buf_printf(&e->out, "for (%s %s = %s; %s; ++%s) {",
                  type_cpp(iv->type, ty, sizeof ty), ivn,
                  em_expr(e, op->operands[0]), cond, ivn);
  else
    em_buf_printf(&e->out, "for (%s %s = %s; %s; %s += %s) {",
                  type_cpp(iv->type, ty, sizeof ty), ivn,
                  em_expr(e, op->operands[0]), cond, ivn, em_expr(e, step));
  em_line_end(e, op);
  e->depth++;
  emit_block(e, body);
  AscOp *y = body->last;
  if (y && y->id == ASC_OP_YIELD && n)
    assign_all(e, y, names, y->operands, n);
  e->depth--;
  em_line_start(e);
  em_buf_printf(&e->out, "}\n");
  free(names);
}

static void emit_if(Emitter *e, AscOp *op) {
  int n = op->n_results;
  char **names = carried_names(e, op, NULL, n, NULL);
  if (!names)
    return;
  for (int i = 0; i < n; i++)
    em_set_expr(e, &op->results[i], em_fmt_str("%s", names[i]));
  char tmp[4096];
  em_line_start(e);
  em_buf_printf(&e->out, "if (%s) {",
                em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  em_line_end(e, op);
  for (int r = 0; r < 2; r++) {
    AscBlock *b = op->regions[r].block;
    if (r == 1) {
      if (b->first == b->last && n == 0)
        break; /* empty else */
      em_line_start(e);
      em_buf_printf(&e->out, "} else {\n");
    }
    e->depth++;
    emit_block(e, b);
    if (b->last && b->last->id == ASC_OP_YIELD && n)
      assign_all(e, b->last, names, b->last->operands, n);
    e->depth--;
  }
  em_line_start(e);
  em_buf_printf(&e->out, "}\n");
  free(names);
}

static void emit_while(Emitter *e, AscOp *op) {
  AscBlock *before = op->regions[0].block, *after = op->regions[1].block;
  int n = op->n_operands;
  char **names = carried_names(e, op, op->operands, n, before->args);
  if (!names)
    return;
  for (int i = 0; i < n; i++) {
    em_set_expr(e, &before->args[i], em_fmt_str("%s", names[i]));
    if (i < after->n_args)
      em_set_expr(e, &after->args[i], em_fmt_str("%s", names[i]));
    if (i < op->n_results)
      em_set_expr(e, &op->results[i], em_fmt_str("%s", names[i]));
  }
  em_line_start(e);
  em_buf_printf(&e->out, "while (true) {");
  em_line_end(e, op);
  e->depth++;
  emit_block(e, before);
  AscOp *c = before->last;
  if (c && c->id == ASC_OP_CONDITION) {
    if (c->n_operands - 1 == n && n)
      assign_all(e, c, names, c->operands + 1, n);
    em_line_start(e);
    em_buf_printf(&e->out, "if (!%s) {", em_expr(e, c->operands[0]));
    em_line_end(e, c);
    em_line_start(e);
    em_buf_printf(&e->out, "    break;\n");
    em_line_start(e);
    em_buf_printf(&e->out, "}\n");
  }
  emit_block(e, after);
  AscOp *y = after->last;
  if (y && y->id == ASC_OP_YIELD && n)
    assign_all(e, y, names, y->operands, n);
  e->depth--;
  em_line_start(e);
  em_buf_printf(&e->out, "}\n");
  free(names);
}

/* The struct a device function with several results returns. */
static void result_struct_name(const char *fname, char *buf, size_t size) {
  snprintf(buf, size, "%s_result", fname);
}

static void emit_call(Emitter *e, AscOp *op) {
  const char *callee = asc_op_attr_str(op, "callee");
  /* a TQueBind (other than a TQue's binding) and a TBufPool have IR types
   * of a TQue and a TBuf: a parameter of such a type cannot take them */
  for (int i = 0; i < op->n_operands; i++) {
    const AscOp *d = op->operands[i]->def;
    if (d && (d->id == ASC_OP_TQUE_BIND || d->id == ASC_OP_TBUFPOOL)) {
      asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
                "%s cannot be passed to the device function %s yet: the IR "
                "has no type for it (argument %d)",
                d->id == ASC_OP_TQUE_BIND ? "a TQueBind" : "a TBufPool",
                callee ? callee : "?", i + 1);
      e->failed = 1;
      return;
    }
  }
  char *args = em_join_operands(e, op, 0, ASC_DT_NONE);
  char *call = em_fmt_str("%s(%s)", callee ? callee : "?", args ? args : "");
  free(args);
  if (op->n_results == 0) {
    em_statement(e, op, call ? call : "");
    free(call);
  } else if (op->n_results == 1) {
    em_bind(e, op, call, 0);
  } else {
    char sname[160];
    result_struct_name(callee ? callee : "?", sname, sizeof sname);
    char *r = em_fresh_name(e, "result");
    if (r) {
      em_line_start(e);
      em_buf_printf(&e->out, "%s %s = %s;", sname, r, call ? call : "");
      em_line_end(e, op);
      for (int i = 0; i < op->n_results; i++)
        em_set_expr(e, &op->results[i], em_fmt_str("%s.value%d", r, i));
    }
    free(call);
  }
}

static void emit_return(Emitter *e, AscOp *op) {
  if (op->n_operands == 0)
    return; /* falls off the end of a void function */
  if (op->n_operands == 1) {
    char *s = em_fmt_str("return %s", em_expr(e, op->operands[0]));
    em_statement(e, op, s ? s : "");
    free(s);
    return;
  }
  char *args = em_join_operands(e, op, 0, ASC_DT_NONE);
  char *s = em_fmt_str("return {%s}", args ? args : "");
  em_statement(e, op, s ? s : "");
  free(s);
  free(args);
}

/* ---- SPECIAL rows: one function per kind of op, chosen by special_rule ----
 */

typedef void (*SpecialRule)(Emitter *e, AscOp *op);

static void emit_constant(Emitter *e, AscOp *op) {
  em_set_expr(e, &op->results[0], literal(op)); /* literals are inlined */
}

/* "(a OP b)" */
static void bind_infix(Emitter *e, AscOp *op, const char *cpp) {
  char mid[64];
  snprintf(mid, sizeof mid, " %s ", cpp);
  const char *pieces[] = {"(", mid, ")"};
  bind_expr(e, op, splice(e, op, pieces, op->operands, 2), 1);
}

static void emit_infix(Emitter *e, AscOp *op) {
  bind_infix(e, op, asc_op_info(op->id)->cpp);
}

/* min and max spell each operand twice: an inlined operand that is
 * itself a min or max doubles at every level of nesting (2^depth bytes).
 * An operand longer than this is declared as a variable first. */
enum { MIN_MAX_INLINE_MAX = 256 };

static const char *once_spellable(Emitter *e, AscOp *op, AscValue *v) {
  const char *s = em_expr(e, v);
  if (!info(e, v)->expr || info(e, v)->len <= MIN_MAX_INLINE_MAX)
    return s;
  char *name = em_declare(e, op, v, "tmp", s);
  em_set_expr(e, v, name ? em_fmt_str("%s", name) : NULL);
  return em_expr(e, v);
}

static void emit_min_max(Emitter *e, AscOp *op) {
  const char *a = once_spellable(e, op, op->operands[0]);
  const char *b = once_spellable(e, op, op->operands[1]);
  em_bind(e, op,
          em_fmt_str("(%s %s %s ? %s : %s)", a,
                     op->id == ASC_OP_MIN_S ? "<" : ">", b, a, b),
          1);
}

static void emit_compare(Emitter *e, AscOp *op) {
  bind_infix(e, op, cmp_op(asc_op_attr_int(op, "predicate", 0)));
}

static void emit_prefix(Emitter *e, AscOp *op) {
  char open[64];
  snprintf(open, sizeof open, "(%s", asc_op_info(op->id)->cpp);
  const char *pieces[] = {open, ")"};
  bind_expr(e, op, splice(e, op, pieces, op->operands, 1), 1);
}

static void emit_scalar_cast(Emitter *e, AscOp *op) {
  char ty[160], open[192];
  snprintf(open, sizeof open, "static_cast<%s>(",
           type_cpp(op->results[0].type, ty, sizeof ty));
  const char *pieces[] = {open, ")"};
  bind_expr(e, op, splice(e, op, pieces, op->operands, 1), 1);
}

static void emit_select(Emitter *e, AscOp *op) {
  const char *pieces[] = {"(", " ? ", " : ", ")"};
  bind_expr(e, op, splice(e, op, pieces, op->operands, 3), 1);
}

static void emit_address_offset(Emitter *e, AscOp *op) {
  const char *pieces[] = {"(", " + ", ")"};
  bind_expr(e, op, splice(e, op, pieces, op->operands, 2), 1);
}

static void emit_view(Emitter *e, AscOp *op) {
  char tmp[4096];
  em_bind(e, op,
          em_fmt_str("%s[%s]", em_expr(e, op->operands[0]),
                     em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp)),
          1);
}

/* GlobalTensor, TPipe, TQue, TBuf: a default-constructed variable. */
static void emit_declaration(Emitter *e, AscOp *op) {
  const char *hint = op->id == ASC_OP_GT_CREATE ? "global_tensor"
                     : op->id == ASC_OP_TPIPE   ? "pipe"
                     : op->id == ASC_OP_TQUE    ? "que"
                                                : "buf";
  char *name = em_declare(e, op, &op->results[0], hint, NULL);
  em_set_expr(e, &op->results[0], name ? em_fmt_str("%s", name) : NULL);
}

static void emit_local_tensor(Emitter *e, AscOp *op) {
  const AscValue *v = &op->results[0];
  char ty[160], t0[4096], t1[4096];
  char *name = em_fresh_name(e, v->name ? v->name : "local_tensor");
  if (!name)
    return;
  em_line_start(e);
  em_buf_printf(&e->out, "%s %s(AscendC::TPosition::%s, %s, %s);",
                type_cpp(v->type, ty, sizeof ty), name,
                em_position_cpp(v->type->position),
                em_unparen(em_expr(e, op->operands[0]), t0, sizeof t0),
                em_unparen(em_expr(e, op->operands[1]), t1, sizeof t1));
  em_line_end(e, op);
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

/* func.func is spelled by emit_function; yield and condition by the op
 * that encloses them. */
static void emit_nothing(Emitter *e, AscOp *op) {
  (void)e;
  (void)op;
}

/* The rule for a SPECIAL row, NULL if there is none (then the op cannot be
 * emitted, and asc_emit_has_rule says so). */
static char *u64_arg(Emitter *e, const AscValue *v);

/* AscendC::SetVectorMask<T, AscendC::MaskMode::M>(maskHigh, maskLow) or
 * (len): T from the dtype attribute. */
static void emit_set_vector_mask(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *t = asc_op_attr(op, "dtype");
  const AscAttr *m = asc_op_attr(op, "mode");
  char tmp[4096];
  if (!t || t->kind != ASC_ATTR_TYPES || t->n_types != 1 || !m) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc, "%s: malformed op", oi->name);
    e->failed = 1;
    return;
  }
  Buf b = {0};
  em_buf_printf(&b, "%s<%s, %s%s>(", oi->cpp,
                asc_dtype_cpp_name(t->types[0]->dtype),
                asc_enum_cpp_prefix(ASC_ENUM_MASKMODE),
                asc_enum_value_cpp(ASC_ENUM_MASKMODE, m->i));
  if (op->id == ASC_OP_SET_VECTOR_MASK) {
    char *hi = u64_arg(e, op->operands[0]);
    char *lo = u64_arg(e, op->operands[1]);
    em_buf_printf(&b, "%s, %s)", hi ? hi : "", lo ? lo : "");
    free(hi);
    free(lo);
  } else {
    em_buf_printf(&b, "%s)",
                  em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  }
  if (b.failed) {
    e->failed = 1;
    free(b.s);
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}

/* quant family: CastDeq<T, U, isVecDeq, halfBlock>(dst, src, count) */
static void emit_cast_deq(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  char tmp[4096];
  Buf b = {0};
  em_buf_printf(&b, "%s<%s, %s, %s, %s>(", oi->cpp,
                asc_dtype_cpp_name(op->operands[0]->type->dtype),
                asc_dtype_cpp_name(op->operands[1]->type->dtype),
                asc_op_attr_int(op, "is_vec_deq", 1) ? "true" : "false",
                asc_op_attr_int(op, "half_block", 1) ? "true" : "false");
  for (int i = 0; i < op->n_operands; i++)
    em_buf_printf(&b, "%s%s", i ? ", " : "",
                  em_unparen(em_expr(e, op->operands[i]), tmp, sizeof tmp));
  em_buf_printf(&b, ")");
  if (b.failed) {
    e->failed = 1;
    free(b.s);
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}

static SpecialRule special_rule(AscOpId id) {
  if (asc_op_is_tile(
          id)) /* family: tiles (lower-tiles makes them auto tensors) */
    return emit_unplanned_auto;
  switch (id) {
  case ASC_OP_CAST_DEQ: /* quant family */
    return emit_cast_deq;
  case ASC_OP_CONSTANT:
    return emit_constant;
  case ASC_OP_SET_VECTOR_MASK:
  case ASC_OP_SET_VECTOR_MASK_LEN:
    return emit_set_vector_mask;
  case ASC_OP_ADD_S:
  case ASC_OP_SUB_S:
  case ASC_OP_MUL_S:
  case ASC_OP_DIV_S:
  case ASC_OP_REM_S:
  case ASC_OP_AND_S:
  case ASC_OP_OR_S:
  case ASC_OP_XOR_S:
  case ASC_OP_SHL_S:
  case ASC_OP_SHR_S:
    return emit_infix;
  case ASC_OP_MIN_S:
  case ASC_OP_MAX_S:
    return emit_min_max;
  case ASC_OP_CMP_S:
    return emit_compare;
  /* cmpsel family */
  case ASC_OP_COMPARE_L0:
  case ASC_OP_COMPARE_SCALAR_L0:
  case ASC_OP_COMPARE_CMPMASK:
  case ASC_OP_GET_CMP_MASK:
  case ASC_OP_SET_CMP_MASK:
  case ASC_OP_SELECT:
  case ASC_OP_SELECT_SCALAR:
  case ASC_OP_SELECT_L0:
  case ASC_OP_SELECT_SCALAR_L0:
  case ASC_OP_SELECT_CMPMASK:
  case ASC_OP_SELECT_SCALAR_CMPMASK:
  case ASC_OP_WHOLE_REDUCE_MAX:
  case ASC_OP_WHOLE_REDUCE_MIN:
  case ASC_OP_WHOLE_REDUCE_SUM:
  case ASC_OP_BLOCK_REDUCE_MAX:
  case ASC_OP_BLOCK_REDUCE_MIN:
  case ASC_OP_BLOCK_REDUCE_SUM:
  case ASC_OP_PAIR_REDUCE_SUM:
  case ASC_OP_REPEAT_REDUCE_SUM:
  case ASC_OP_REDUCE_MAX_L0:
  case ASC_OP_REDUCE_MIN_L0:
  case ASC_OP_REDUCE_SUM_L0:
    return emit_cmpsel;
  case ASC_OP_NEG_S:
  case ASC_OP_NOT_S:
  case ASC_OP_INVERT_S:
    return emit_prefix;
  case ASC_OP_CAST_S:
    return emit_scalar_cast;
  case ASC_OP_SELECT_S:
    return emit_select;
  case ASC_OP_STRUCT:
    return emit_struct;
  case ASC_OP_STRUCT_GET:
    return emit_struct_get;
  case ASC_OP_STRUCT_SET:
    return emit_struct_set;
  case ASC_OP_GM_ADDR_OFFSET:
    return emit_address_offset;
  case ASC_OP_GT_OFFSET:
  case ASC_OP_LT_OFFSET:
    return emit_view;
  case ASC_OP_GT_CREATE:
  case ASC_OP_TPIPE:
  case ASC_OP_TQUE:
  case ASC_OP_TBUF:
    return emit_declaration;
  case ASC_OP_LT_CREATE:
    return emit_local_tensor;
  case ASC_OP_TQUE_BIND:
  case ASC_OP_TBUFPOOL:
    return emit_framework_object;
  case ASC_OP_LT_EMPTY:
    return emit_empty_tensor;
  case ASC_OP_TPIPE_GET_PTR:
    return emit_tpipe_ptr;
  case ASC_OP_LT_AUTO: /* family: ubplan */
    return emit_unplanned_auto;
  case ASC_OP_LT_SET_ADDR_WITH_OFFSET:
  case ASC_OP_ALLOC_TENSOR_INPLACE:
  case ASC_OP_DEQUE_INPLACE:
  case ASC_OP_TBUF_FREE_TENSOR:
    return emit_method_lvalues;
  case ASC_OP_ENQUE_POS:
  case ASC_OP_DEQUE_POS:
    return emit_que_user_pos;
  case ASC_OP_LT_PRINT:
  case ASC_OP_LT_TO_FILE:
    return emit_debug_output;
  case ASC_OP_GT_SET_L2_CACHE_HINT:
    return emit_l2_cache_hint;
  /* sort family (emit_sort.c) */
  case ASC_OP_SORT:
  case ASC_OP_MRG_SORT:
  case ASC_OP_MRG_SORT_INFO:
  case ASC_OP_GET_MRG_SORT_RESULT:
    return em_sort_family;
  case ASC_OP_PRINTF: /* family: debug */
    return emit_printf;
  case ASC_OP_SET_AIPP_FUNCTIONS: /* family: debug */
    return emit_set_aipp_functions;
  case ASC_OP_TRANS_DATA_TO_5HD: /* family gather */
  case ASC_OP_TRANS_DATA_TO_5HD_ADDRS:
  case ASC_OP_TRANS_DATA_TO_5HD_LIST:
    return emit_trans_data_to_5hd;
  case ASC_OP_GATHER_MASK:
  case ASC_OP_GATHER_MASK_PATTERN:
    return emit_gather_mask;
  case ASC_OP_FOR:
    return emit_for;
  case ASC_OP_IF:
    return emit_if;
  case ASC_OP_WHILE:
    return emit_while;
  case ASC_OP_CALL:
    return emit_call;
  case ASC_OP_RETURN:
    return emit_return;
  case ASC_OP_FUNC:
  case ASC_OP_YIELD:
  case ASC_OP_CONDITION:
  case ASC_OP_STRUCT_DEF: /* declared before the functions */
    return emit_nothing;
  /* data movement family (emit_datamove.c) */
  case ASC_OP_SET_ATOMIC_ADD:
  case ASC_OP_SET_ATOMIC_MAX:
  case ASC_OP_SET_ATOMIC_MIN:
  case ASC_OP_SET_ATOMIC_TYPE:
    return emit_atomic_typed;
  case ASC_OP_SET_STORE_ATOMIC_CONFIG:
    return emit_store_atomic_config;
  case ASC_OP_GET_STORE_ATOMIC_CONFIG:
    return emit_get_store_atomic_config;
  case ASC_OP_SET_PAD_VALUE:
    return emit_set_pad_value;
  case ASC_OP_FIXPIPE_CFG: /* family: cube (emit_cube.c) */
  case ASC_OP_FIXPIPE_WS:
    return em_cube_fixpipe;
  default:
    /* system family (emit_system.c), family listtensor, or NULL */
    if (em_slice_rule(id)) /* family: slice (emit_slice.c) */
      return em_slice_rule(id);
    if (em_cores_rule(id)) /* family: cores (emit_cores.c) */
      return em_cores_rule(id);
    if (em_matmul_rule(id)) /* family: matmul (emit_matmul.c) */
      return em_matmul_rule(id);
    if (em_adv_softmax_rule(id)) /* family: adv softmax */
      return em_adv_softmax_rule(id);
    if (em_ub_plan_rule(id)) /* family: ubplan (emit_ub_plan.c) */
      return em_ub_plan_rule(id);
    if (em_adv_sort_rule(id)) /* family: adv sort (emit_adv_sort.c) */
      return em_adv_sort_rule(id);
    if (em_adv_norm_rule(id)) /* family: adv normquant (emit_adv_norm.c) */
      return em_adv_norm_rule(id);
    if (em_adv_math_rule(id)) /* family: adv math (emit_adv_math.c) */
      return em_adv_math_rule(id);
    return em_system_rule(id) ? em_system_rule(id) : em_list_tensor_rule(id);
  }
}

int asc_emit_has_rule(AscOpId id) {
  const AscOpInfo *oi = asc_op_info(id);
  if (!oi)
    return 0;
  if (oi->emit == ASC_EMIT_SPECIAL)
    return special_rule(id) != NULL;
  return oi->cpp && oi->cpp[0];
}

/* A uint64_t argument (a mask): the value itself when it has that type,
 * else converted (a literal 0 would also convert to the mask[] pointer). */
static char *u64_arg(Emitter *e, const AscValue *v) {
  char tmp[4096];
  const char *s = em_expr(e, v);
  if (v->type->dtype == ASC_DT_UINT64 && strcmp(s, "0ULL") != 0)
    return em_fmt_str("%s", em_unparen(s, tmp, sizeof tmp));
  return em_fmt_str("static_cast<uint64_t>(%s)",
                    em_unparen(s, tmp, sizeof tmp));
}

/* The level-0 form of a vector instruction:
 *   Add(dst, src0, src1, mask, repeatTime, BinaryRepeatParams(...));
 * (Cast: Cast(dst, src, RoundMode::X, mask, repeatTime, UnaryRepeatParams))
 * its operands up to mask0 are passed as they are, then the mask (in bit
 * mode an array `uint64_t mask[2] = {low, high}` declared before the
 * call), repeat_times and the strides (a BinaryRepeatParams or
 * UnaryRepeatParams value, or Duplicate's two strides), as they are. */
static void emit_level0(Emitter *e, AscOp *op, AscDType el) {
  const AscOpInfo *oi = asc_op_info(op->id);
  int k = 0;
  while (k < op->n_operands && strcmp(oi->operands[k].name, "mask0") != 0)
    k++;
  if (k + 3 > op->n_operands) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc, "%s: malformed level-0 op",
              oi->name);
    e->failed = 1;
    return;
  }
  Buf b = {0};
  char tmp[4096];
  /* quant family: CastDeq<T, U, isSetMask, isVecDeq, halfBlock>(...) and
   * AddReluCast / SubReluCast<T, U, false>(...) */
  int is_set = asc_op_attr_int(op, "is_set_mask", 1) != 0;
  if (op->id == ASC_OP_CAST_DEQ_L0) {
    em_buf_printf(&b, "%s<%s, %s, %s, %s, %s>(", oi->cpp,
                  asc_dtype_cpp_name(op->operands[0]->type->dtype),
                  asc_dtype_cpp_name(op->operands[1]->type->dtype),
                  is_set ? "true" : "false",
                  asc_op_attr_int(op, "is_vec_deq", 1) ? "true" : "false",
                  asc_op_attr_int(op, "half_block", 1) ? "true" : "false");
  } else if (!is_set && op->id == ASC_OP_ADD_DEQ_RELU_L0) {
    em_buf_printf(&b, "%s<false>(", oi->cpp); /* template <bool isSetMask> */
  } else if (!is_set && (op->id == ASC_OP_ADD_RELU_CAST_L0 ||
                         op->id == ASC_OP_SUB_RELU_CAST_L0 ||
                         op->id == ASC_OP_MUL_CAST_L0)) {
    em_buf_printf(&b, "%s<%s, %s, false>(", oi->cpp,
                  asc_dtype_cpp_name(op->operands[0]->type->dtype),
                  asc_dtype_cpp_name(op->operands[1]->type->dtype));
  } else if (!asc_op_attr_int(op, "is_set_mask", 1)) { /* Add<T, false>(...) */
    const char *t = asc_dtype_cpp_name(op->operands[0]->type->dtype);
    if (op->id == ASC_OP_CAST_L0 || op->id == ASC_OP_MUL_ADD_DST_L0 ||
        op->id == ASC_OP_AXPY_L0) /* template <typename T, typename U, ...> */
      em_buf_printf(&b, "%s<%s, %s, false>(", oi->cpp, t,
                    asc_dtype_cpp_name(op->operands[1]->type->dtype));
    else
      em_buf_printf(&b, "%s<%s, false>(", oi->cpp, t);
  } else {
    em_buf_printf(&b, "%s(", oi->cpp);
  }
  for (int i = 0; i < k; i++) {
    const AscValue *v = op->operands[i];
    char *s =
        oi->operands[i].kind == ASC_OK_NUM
            ? typed_scalar(e, v, scalar_el(op, i, el))
            : em_fmt_str("%s", em_unparen(em_expr(e, v), tmp, sizeof tmp));
    em_buf_printf(&b, "%s%s", s ? s : "", ", ");
    free(s);
  }
  if (op->id == ASC_OP_CAST_L0) { /* Cast: the round mode after the tensors */
    const AscAttr *a = asc_op_attr(op, "round_mode");
    em_buf_printf(&b, "%s%s, ", asc_enum_cpp_prefix(ASC_ENUM_ROUNDMODE),
                  asc_enum_value_cpp(ASC_ENUM_ROUNDMODE, a ? a->i : 0));
  }
  if (asc_op_attr_int(op, "mask_mode", 0) & 1) {
    char *name = em_fresh_name(e, "mask");
    char *m0 = u64_arg(e, op->operands[k]);
    char *m1 = u64_arg(e, op->operands[k + 1]);
    char *decl = em_fmt_str("uint64_t %s[2] = {%s, %s}", name ? name : "mask",
                            m0 ? m0 : "", m1 ? m1 : "");
    em_statement(e, op, decl ? decl : "");
    em_buf_printf(&b, "%s", name ? name : "mask");
    free(decl);
    free(m0);
    free(m1);
  } else {
    char *m = u64_arg(e, op->operands[k]);
    em_buf_printf(&b, "%s", m ? m : "");
    free(m);
  }
  em_buf_printf(&b, ", %s, ",
                em_unparen(em_expr(e, op->operands[k + 2]), tmp, sizeof tmp));
  for (int i = k + 3; i < op->n_operands; i++)
    em_buf_printf(&b, "%s%s", i > k + 3 ? ", " : "",
                  em_unparen(em_expr(e, op->operands[i]), tmp, sizeof tmp));
  em_buf_printf(&b, ")");
  if (b.failed) {
    e->failed = 1;
    free(b.s);
    return;
  }
  em_statement(e, op, b.s);
  free(b.s);
}

static void emit_op(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  if (asc_check_cpp_constants(e->ctx, op)) { /* C++ would narrow them */
    e->failed = 1;
    return;
  }
  if (oi->emit == ASC_EMIT_SPECIAL) {
    SpecialRule rule = special_rule(op->id);
    if (rule) {
      rule(e, op);
    } else if (!e->failed) {
      asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
                "no Ascend C emitter rule for op %s", oi->name);
      e->failed = 1;
    }
    return;
  }
  AscDType el = element_type(op);
  if (oi->emit == ASC_EMIT_LEVEL0) {
    emit_level0(e, op, el);
    return;
  }
  char *call = NULL;
  if (oi->emit == ASC_EMIT_CALL || oi->emit == ASC_EMIT_TEMPLATE) {
    char *args = em_join_operands(e, op, 0, el);
    char *targ = oi->emit == ASC_EMIT_TEMPLATE ? template_arg(op) : NULL;
    if (oi->emit == ASC_EMIT_TEMPLATE && !targ) {
      asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
                "%s: no enum attribute for the template argument", oi->name);
      e->failed = 1;
      free(args);
      return;
    }
    /* Cast: the round mode is a runtime argument before the count */
    if (op->id == ASC_OP_CAST) {
      free(args);
      args = NULL;
      const AscAttr *a = asc_op_attr(op, "round_mode");
      call = em_fmt_str(
          "%s(%s, %s, %s%s, %s)", oi->cpp, em_expr(e, op->operands[0]),
          em_expr(e, op->operands[1]), asc_enum_cpp_prefix(ASC_ENUM_ROUNDMODE),
          asc_enum_value_cpp(ASC_ENUM_ROUNDMODE, a ? a->i : 0),
          em_expr(e, op->operands[2]));
    } else if (op->id == ASC_OP_COMPARE || op->id == ASC_OP_COMPARE_SCALAR) {
      /* Compare(dst, src0, src1, CMPMODE::X, count); Compares' scalar is
       * a T, src0's element type */
      free(args);
      args = NULL;
      const AscAttr *a = asc_op_attr(op, "cmp_mode");
      char *s1 =
          op->id == ASC_OP_COMPARE_SCALAR
              ? typed_scalar(e, op->operands[2], op->operands[1]->type->dtype)
              : em_fmt_str("%s", em_expr(e, op->operands[2]));
      call =
          em_fmt_str("%s(%s, %s, %s, %s%s, %s)", oi->cpp,
                     em_expr(e, op->operands[0]), em_expr(e, op->operands[1]),
                     s1 ? s1 : "", asc_enum_cpp_prefix(ASC_ENUM_CMPMODE),
                     asc_enum_value_cpp(ASC_ENUM_CMPMODE, a ? a->i : 0),
                     em_expr(e, op->operands[3]));
      free(s1);
    } else if (targ) {
      call = em_fmt_str("%s<%s>(%s)", oi->cpp, targ, args ? args : "");
    } else {
      call = em_fmt_str("%s(%s)", oi->cpp, args ? args : "");
    }
    free(targ);
    free(args);
  } else { /* METHOD */
    char *args = em_join_operands(e, op, 1, el);
    const AscType *rt = op->n_results ? op->results[0].type : NULL;
    char *targ = template_arg(op); /* pipe.AllocEventID<HardEvent::X>() */
    if (targ)
      call = em_fmt_str("%s.%s<%s>(%s)", em_expr(e, op->operands[0]), oi->cpp,
                        targ, args ? args : "");
    else if (rt && rt->kind == ASC_TY_LOCAL_TENSOR)
      call = em_fmt_str("%s.%s<%s>(%s)", em_expr(e, op->operands[0]), oi->cpp,
                        asc_dtype_cpp_name(rt->dtype), args ? args : "");
    else
      call = em_fmt_str("%s.%s(%s)", em_expr(e, op->operands[0]), oi->cpp,
                        args ? args : "");
    free(targ);
    free(args);
  }
  if (op->n_results) {
    int pure = op->id == ASC_OP_GET_BLOCK_IDX || op->id == ASC_OP_GET_BLOCK_NUM;
    em_bind(e, op, call, pure);
  } else {
    em_statement(e, op, call ? call : "");
    free(call);
  }
}

static void emit_block(Emitter *e, AscBlock *b) {
  for (AscOp *op = b->first; op && !e->failed; op = op->next)
    emit_op(e, op);
}

/* ---- functions
 * --------------------------------------------------------------- */

static void emit_function(Emitter *e, AscOp *f) {
  const char *name = asc_op_attr_str(f, "sym_name");
  int is_kernel = (int)asc_op_attr_int(f, "kernel", 0);
  const AscAttr *rt = asc_op_attr(f, "res_types");
  int n_res = rt ? rt->n_types : 0;
  AscBlock *body = f->regions[0].block;
  char ty[160];
  function_begin(e, f);
  if (e->failed)
    return;
  take_name(e, em_fmt_str("%s", name)); /* params must not shadow it */
  if (n_res > 1) {
    char sname[160];
    result_struct_name(name, sname, sizeof sname);
    em_buf_printf(&e->out, "struct %s {\n", sname);
    for (int i = 0; i < n_res; i++)
      em_buf_printf(&e->out, "    %s value%d;\n",
                    type_cpp(rt->types[i], ty, sizeof ty), i);
    em_buf_printf(&e->out, "};\n\n");
  }
  if (e->opt->line_comments && f->loc.file)
    em_buf_printf(&e->out, "// %s:%d\n", base_name(f->loc.file), f->loc.line);
  if (is_kernel) {
    em_buf_printf(&e->out, "extern \"C\" __global__ __aicore__ void %s(", name);
  } else {
    const char *ret = "void";
    char sname[160];
    if (n_res == 1)
      ret = type_cpp(rt->types[0], ty, sizeof ty);
    else if (n_res > 1) {
      result_struct_name(name, sname, sizeof sname);
      ret = sname;
    }
    em_buf_printf(&e->out, "__aicore__ inline %s %s(", ret, name);
  }
  /* a kernel's struct parameters come as pointers to their bytes in global
   * memory (a kernel takes addresses and scalars), copied in below */
  char **struct_params = calloc((size_t)body->n_args + 1, sizeof(char *));
  if (!struct_params) {
    e->failed = 1;
    return;
  }
  for (int i = 0; i < body->n_args; i++) {
    AscValue *a = &body->args[i];
    char hint[32];
    snprintf(hint, sizeof hint, "arg%d", i);
    char *pn = em_fresh_name(e, a->name ? a->name : hint);
    if (!pn) {
      free(struct_params);
      return;
    }
    if (is_kernel && asc_type_struct_info(a->type)) {
      char gm_hint[96];
      snprintf(gm_hint, sizeof gm_hint, "%s_gm", pn);
      char *gm = em_fresh_name(e, gm_hint);
      if (!gm) {
        free(struct_params);
        return;
      }
      em_buf_printf(&e->out, "%sGM_ADDR %s", i ? ", " : "", gm);
      struct_params[i] = gm;
      em_set_expr(e, a, em_fmt_str("%s", pn));
    } else if (is_kernel && a->type->kind == ASC_TY_GLOBAL_ADDRESS) {
      em_buf_printf(&e->out, "%sGM_ADDR %s", i ? ", " : "", pn);
      em_set_expr(e, a,
                  em_fmt_str("reinterpret_cast<__gm__ %s *>(%s)",
                             asc_dtype_cpp_name(a->type->dtype), pn));
    } else {
      em_buf_printf(&e->out, "%s%s %s%s", i ? ", " : "",
                    type_cpp(a->type, ty, sizeof ty),
                    by_reference(a->type) ? "&" : "", pn);
      em_set_expr(e, a, em_fmt_str("%s", pn));
    }
  }
  /* family: entry: the FFTS address of a MIX kernel, the dump buffer */
  EmEntryParams entry = {NULL, NULL};
  if (is_kernel)
    em_entry_params(e, f, body->n_args, &entry);
  em_buf_printf(&e->out, ")\n{\n");
  for (int i = 0; i < body->n_args && !e->failed; i++) {
    if (!struct_params[i])
      continue;
    const char *cpp = asc_type_struct_info(body->args[i].type)->cpp;
    const char *pn = em_expr(e, &body->args[i]);
    char *k = em_fresh_name(e, "byte");
    if (!k)
      break;
    em_buf_printf(&e->out,
                  "    %s %s;\n"
                  "    for (uint32_t %s = 0; %s < sizeof(%s); %s++) {\n"
                  "        reinterpret_cast<uint8_t *>(&%s)[%s] = "
                  "reinterpret_cast<__gm__ uint8_t *>(%s)[%s];\n"
                  "    }\n",
                  cpp, pn, k, k, cpp, k, pn, k, struct_params[i], k);
  }
  free(struct_params);
  if (e->failed)
    return;
  e->depth = 1;
  if (is_kernel) { /* family: cores: the kernel type, as the devkit sets it */
    em_kernel_type(e, f);
    em_entry_prologue(e, f, &entry); /* family: entry */
  }
  emit_block(e, body);
  if (is_kernel && !e->failed)
    em_entry_epilogue(e, f); /* family: entry */
  e->depth = 0;
  em_buf_printf(&e->out, "}\n");
  function_end(e, f);
}

/* The position of f in the module body, -1 if it is not there (a table
 * built once: a scan per call site made ordering quadratic). */
static int function_index(const Emitter *e, const AscOp *f) {
  return (int)(intptr_t)asc_ptrmap_get(&e->func_index, f) - 1;
}

static int order_calls(const Emitter *e, const AscBlock *b, AscOp **order,
                       char *state, int k);

/* Appends f to order after (depth first) every function it calls. The
 * front end builds no recursion, and the verifier checks callees exist. */
static int order_functions(const Emitter *e, AscOp *f, AscOp **order,
                           char *state, int k) {
  int i = function_index(e, f);
  if (i < 0 || state[i] || f->id != ASC_OP_FUNC)
    return k;
  state[i] = 1;
  k = order_calls(e, f->regions[0].block, order, state, k);
  order[k++] = f;
  return k;
}

static int order_calls(const Emitter *e, const AscBlock *b, AscOp **order,
                       char *state, int k) {
  for (AscOp *op = b->first; op; op = op->next) {
    if (op->id == ASC_OP_CALL) {
      const char *callee = asc_op_attr_str(op, "callee");
      AscOp *f = callee ? asc_module_find_function(e->m, callee) : NULL;
      if (f)
        k = order_functions(e, f, order, state, k);
    }
    for (int r = 0; r < op->n_regions; r++)
      k = order_calls(e, op->regions[r].block, order, state, k);
  }
  return k;
}

char *asc_emit_ascendc(AscModule *m, const AscEmitOptions *options) {
  AscEmitOptions dflt = {1, 0};
  Emitter e;
  memset(&e, 0, sizeof e);
  e.m = m;
  e.ctx = m->ctx;
  e.opt = options ? options : &dflt;
  if (asc_module_verify(m))
    return NULL;
  em_buf_printf(&e.out,
                "// Ascend C generated by pyasc from module %s.\n"
                "#include \"kernel_operator.h\"\n",
                m->name);
  if (em_uses_list_tensor(m)) /* family: listtensor */
    em_buf_printf(&e.out, "#include \"kernel_operator_list_tensor_intf.h\"\n");
  if (em_uses_matmul(m)) { /* family: matmul */
    em_entry_defines(&e);  /* family: entry: ASCENDC_CUBE_ONLY */
    em_buf_printf(&e.out, "#include \"lib/matmul_intf.h\"\n");
  }
  /* every function after the functions it calls (C++ declares before use) */
  int n = 0;
  for (AscOp *f = m->body->first; f; f = f->next)
    if (asc_ptrmap_put(&e.func_index, f, (void *)(intptr_t)(++n)))
      break;
  AscOp **order = calloc((size_t)(n ? n : 1), sizeof(AscOp *));
  char *state = calloc((size_t)(n ? n : 1), 1);
  if (!order || !state || e.func_index.oom) {
    free(order);
    free(state);
    asc_ptrmap_free(&e.func_index);
    asc_error(e.ctx, ASC_ERR_INTERNAL, (AscLoc){0}, "out of memory");
    return NULL;
  }
  /* the user's structs first, in the order they are declared (a struct
   * after the structs it contains) */
  for (AscOp *f = m->body->first; f && !e.failed; f = f->next)
    if (f->id == ASC_OP_STRUCT_DEF)
      emit_struct_def(&e, f);
  int k = 0;
  for (AscOp *f = m->body->first; f; f = f->next)
    k = order_functions(&e, f, order, state, k);
  for (int i = 0; i < k && !e.failed; i++) {
    em_buf_printf(&e.out, "\n");
    emit_function(&e, order[i]);
  }
  free(order);
  free(state);
  for (int i = 0; i < e.n_vals; i++)
    value_info_free(&e.vals[i]);
  for (int i = 0; i < e.n_taken; i++)
    free(e.taken[i]);
  free(e.vals);
  free(e.taken);
  asc_strmap_free(&e.taken_set);
  asc_strmap_free(&e.next_suffix);
  asc_ptrmap_free(&e.func_index);
  if (e.failed || e.out.failed) {
    if (asc_context_status(e.ctx) == ASC_OK)
      asc_error(e.ctx, ASC_ERR_INTERNAL, (AscLoc){0},
                "out of memory while emitting Ascend C");
    free(e.out.s);
    return NULL;
  }
  return e.out.s;
}
