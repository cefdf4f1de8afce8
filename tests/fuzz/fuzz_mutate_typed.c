/* fuzz_ir: the mutators that read the values of a function and their
 * types off the text: an operand replaced by another value of its type, a
 * new op of the table with operands of the right kinds, a value retyped at
 * its definition and its uses. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"

#include "fuzz_ir.h"

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
int mut_typed_value(Buf *b, Rng *r) {
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
int mut_insert_op(Buf *b, Rng *r) {
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
        snprintf(at, sizeof at, "%s = %s : %s", a->name, edge_int(r),
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
int mut_retype_value(Buf *b, Rng *r) {
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
