/* Building IR: modules, ops, blocks, regions, functions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "hash.h"
#include "index.h"

static AscBlock *block_new(AscContext *ctx, AscRegion *parent,
                           const AscType *const *arg_types, int n_args) {
  AscBlock *b = asc_alloc(ctx, sizeof *b);
  b->parent = parent;
  b->n_args = n_args;
  if (n_args > 0) {
    b->args = asc_alloc(ctx, sizeof(AscValue) * (size_t)n_args);
    for (int i = 0; i < n_args; i++) {
      b->args[i].type = arg_types[i];
      b->args[i].block = b;
      b->args[i].index = i;
      b->args[i].id = -1;
    }
  }
  return b;
}

AscModule *asc_module_new(AscContext *ctx, const char *name) {
  AscModule *m = asc_alloc(ctx, sizeof *m);
  m->ctx = ctx;
  m->name = asc_strdup(ctx, name ? name : "module");
  m->body = block_new(ctx, NULL, NULL, 0);
  return m;
}

void asc_module_log(AscModule *m, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t k = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
  if (m->log_len + k + 2 > m->log_cap) {
    size_t cap = m->log_cap ? m->log_cap * 2 : 1024;
    while (cap < m->log_len + k + 2)
      cap *= 2;
    char *grown = asc_alloc(m->ctx, cap); /* the arena: freed with ctx */
    if (m->log_len)
      memcpy(grown, m->log, m->log_len);
    m->log = grown;
    m->log_cap = cap;
  }
  memcpy(m->log + m->log_len, line, k);
  m->log_len += k;
  m->log[m->log_len++] = '\n';
  m->log[m->log_len] = '\0';
}

const char *asc_module_log_text(const AscModule *m) {
  return m->log ? m->log : "";
}

AscOp *asc_op_create(AscContext *ctx, AscOpId id, AscLoc loc,
                     AscValue *const *operands, int n_operands,
                     const AscType *const *result_types, int n_results,
                     const AscAttr *attrs, int n_attrs, int n_regions,
                     const AscType *const *const *region_arg_types,
                     const int *region_n_args) {
  AscOp *op = asc_alloc(ctx, sizeof *op);
  op->id = id;
  op->loc = loc;
  op->loc.file = asc_context_file_name(ctx, loc.file);
  op->n_operands = n_operands;
  if (n_operands) {
    op->operands = asc_alloc(ctx, sizeof(AscValue *) * (size_t)n_operands);
    memcpy(op->operands, operands, sizeof(AscValue *) * (size_t)n_operands);
  }
  op->n_results = n_results;
  if (n_results) {
    op->results = asc_alloc(ctx, sizeof(AscValue) * (size_t)n_results);
    for (int i = 0; i < n_results; i++) {
      op->results[i].type = result_types[i];
      op->results[i].def = op;
      op->results[i].index = i;
      op->results[i].id = -1;
    }
  }
  op->n_attrs = n_attrs;
  if (n_attrs) {
    op->attrs = asc_alloc(ctx, sizeof(AscAttr) * (size_t)n_attrs);
    for (int i = 0; i < n_attrs; i++) {
      op->attrs[i] = attrs[i];
      op->attrs[i].name = asc_strdup(ctx, attrs[i].name);
      op->attrs[i].s = asc_strdup(ctx, attrs[i].s);
      if (attrs[i].n_types) {
        size_t sz = sizeof(AscType *) * (size_t)attrs[i].n_types;
        const AscType **types = asc_alloc(ctx, sz);
        memcpy(types, attrs[i].types, sz);
        op->attrs[i].types = types;
      }
    }
  }
  op->n_regions = n_regions;
  if (n_regions) {
    op->regions = asc_alloc(ctx, sizeof(AscRegion) * (size_t)n_regions);
    for (int r = 0; r < n_regions; r++) {
      op->regions[r].parent = op;
      op->regions[r].block = block_new(
          ctx, &op->regions[r], region_arg_types ? region_arg_types[r] : NULL,
          region_n_args ? region_n_args[r] : 0);
    }
  }
  return op;
}

void asc_block_append(AscBlock *block, AscOp *op) {
  op->parent = block;
  op->prev = block->last;
  op->next = NULL;
  if (block->last)
    block->last->next = op;
  else
    block->first = op;
  block->last = op;
}

void asc_block_insert_before(AscBlock *block, AscOp *anchor, AscOp *op) {
  if (!anchor) {
    asc_block_append(block, op);
    return;
  }
  op->parent = block;
  op->next = anchor;
  op->prev = anchor->prev;
  if (anchor->prev)
    anchor->prev->next = op;
  else
    block->first = op;
  anchor->prev = op;
}

void asc_block_insert_after(AscBlock *block, AscOp *anchor, AscOp *op) {
  if (!anchor)
    asc_block_insert_before(block, block->first, op);
  else
    asc_block_insert_before(block, anchor->next, op);
}

void asc_block_remove(AscBlock *block, AscOp *op) {
  if (!block || !op || op->parent != block)
    return;
  if (op->prev)
    op->prev->next = op->next;
  else
    block->first = op->next;
  if (op->next)
    op->next->prev = op->prev;
  else
    block->last = op->prev;
  op->parent = NULL;
  op->prev = op->next = NULL;
}

int asc_replace_all_uses(AscBlock *block, const AscValue *from, AscValue *to) {
  int n = 0;
  if (!block)
    return 0;
  for (AscOp *op = block->first; op; op = op->next) {
    for (int i = 0; i < op->n_operands; i++)
      if (op->operands[i] == from) {
        op->operands[i] = to;
        n++;
      }
    for (int r = 0; r < op->n_regions; r++)
      n += asc_replace_all_uses(op->regions[r].block, from, to);
  }
  return n;
}

void asc_block_reset_ids(AscBlock *b) {
  for (int i = 0; i < b->n_args; i++)
    b->args[i].id = -1;
  for (AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_results; i++)
      op->results[i].id = -1;
    for (int r = 0; r < op->n_regions; r++)
      asc_block_reset_ids(op->regions[r].block);
  }
}

void asc_op_set_results(AscContext *ctx, AscOp *op, const AscType *const *types,
                        int n) {
  op->n_results = n;
  op->results = n ? asc_alloc(ctx, sizeof(AscValue) * (size_t)n) : NULL;
  for (int i = 0; i < n; i++) {
    op->results[i].type = types[i];
    op->results[i].def = op;
    op->results[i].index = i;
    op->results[i].id = -1;
  }
}

void asc_function_set_results(AscContext *ctx, AscOp *f,
                              const AscType *const *types, int n) {
  for (int i = 0; i < f->n_attrs; i++)
    if (strcmp(f->attrs[i].name, "res_types") == 0) {
      const AscType **copy =
          n ? asc_alloc(ctx, sizeof(AscType *) * (size_t)n) : NULL;
      for (int k = 0; k < n; k++)
        copy[k] = types[k];
      f->attrs[i].types = copy;
      f->attrs[i].n_types = n;
    }
}

const AscAttr *asc_op_attr(const AscOp *op, const char *name) {
  for (int i = 0; i < op->n_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0)
      return &op->attrs[i];
  return NULL;
}

int64_t asc_op_attr_int(const AscOp *op, const char *name, int64_t dflt) {
  const AscAttr *a = asc_op_attr(op, name);
  if (!a || (a->kind != ASC_ATTR_INT && a->kind != ASC_ATTR_ENUM))
    return dflt;
  return a->i;
}

const char *asc_op_attr_str(const AscOp *op, const char *name) {
  const AscAttr *a = asc_op_attr(op, name);
  return a && a->kind == ASC_ATTR_STR ? a->s : NULL;
}

AscOp *asc_module_add_function(AscModule *m, const char *name, AscLoc loc,
                               const AscType *const *arg_types, int n_args,
                               const AscType *const *res_types, int n_res,
                               int is_kernel) {
  AscAttr attrs[3];
  memset(attrs, 0, sizeof attrs);
  attrs[0].name = "sym_name";
  attrs[0].kind = ASC_ATTR_STR;
  attrs[0].s = name;
  attrs[1].name = "kernel";
  attrs[1].kind = ASC_ATTR_INT;
  attrs[1].i = is_kernel;
  attrs[2].name = "res_types";
  attrs[2].kind = ASC_ATTR_TYPES;
  attrs[2].types = (const AscType **)res_types;
  attrs[2].n_types = n_res;
  const AscType *const *region_types[1] = {arg_types};
  int region_n[1] = {n_args};
  AscOp *f = asc_op_create(m->ctx, ASC_OP_FUNC, loc, NULL, 0, NULL, 0, attrs, 3,
                           1, region_types, region_n);
  asc_block_append(m->body, f);
  return f;
}

/* ---- finding functions by name -------------------------------------------
 * The verifier, the lowering and the emitter look a function up once per
 * call site, and the Python binding once per new function (it refuses a
 * duplicate): a scan of the module body per lookup made them quadratic in
 * the number of functions. So the context keeps a hash index from
 * sym_name to the first function of that name. Ops are only ever appended
 * to a module body (asc_module_add_function, the parser), so the index
 * catches up by indexing the ops after the last one it has seen; an op it
 * finds is checked (still in the body, still a function of that name), and
 * a stale index (an op removed since) is rebuilt. One index per context,
 * for the module last asked about (a lookup updates it: like building IR,
 * not for two threads on one context at once). */

typedef struct FnIndex {
  const AscModule *m;
  const AscOp *tail;  /* the last op of the body indexed; NULL: none yet */
  AscOp **ops;        /* open addressing by name */
  const char **names; /* the sym_name each op had when indexed (arena) */
  size_t cap, n;
} FnIndex;

static void fn_index_free(void *p) {
  FnIndex *ix = p;
  if (ix) {
    free(ix->ops);
    free(ix->names);
  }
  free(ix);
}

static void fn_index_reset(FnIndex *ix, const AscModule *m) {
  if (ix->cap) {
    memset(ix->ops, 0, sizeof(AscOp *) * ix->cap);
    memset(ix->names, 0, sizeof(char *) * ix->cap);
  }
  ix->n = 0;
  ix->tail = NULL;
  ix->m = m;
}

static size_t fn_slot(const FnIndex *ix, const char *name) {
  size_t mask = ix->cap - 1;
  size_t i = asc_hash_bytes(name, strlen(name)) & mask;
  while (ix->ops[i] && strcmp(ix->names[i], name) != 0)
    i = (i + 1) & mask;
  return i;
}

/* Indexes f under name unless an earlier function has that name; -1 when
 * out of memory. */
static int fn_index_add(FnIndex *ix, AscOp *f, const char *name) {
  if ((ix->n + 1) * 2 > ix->cap) {
    FnIndex g = *ix;
    g.cap = ix->cap ? ix->cap * 2 : 64;
    g.ops = calloc(g.cap, sizeof(AscOp *));
    g.names = calloc(g.cap, sizeof(char *));
    if (!g.ops || !g.names) {
      free(g.ops);
      free(g.names);
      return -1;
    }
    for (size_t i = 0; i < ix->cap; i++)
      if (ix->ops[i]) {
        size_t j = fn_slot(&g, ix->names[i]);
        g.ops[j] = ix->ops[i];
        g.names[j] = ix->names[i];
      }
    free(ix->ops);
    free(ix->names);
    *ix = g;
  }
  size_t i = fn_slot(ix, name);
  if (!ix->ops[i]) {
    ix->ops[i] = f;
    ix->names[i] = name;
    ix->n++;
  }
  return 0;
}

static AscOp *find_by_scan(const AscModule *m, const char *name) {
  for (AscOp *op = m->body->first; op; op = op->next) {
    const char *s = asc_op_attr_str(op, "sym_name");
    if (op->id == ASC_OP_FUNC && s && strcmp(s, name) == 0)
      return op;
  }
  return NULL;
}

AscOp *asc_module_find_function(const AscModule *m, const char *name) {
  if (!m || !name)
    return NULL;
  FnIndex *ix = asc_context_fn_index(m->ctx);
  if (!ix) {
    ix = calloc(1, sizeof *ix);
    if (!ix)
      return find_by_scan(m, name);
    asc_context_set_fn_index(m->ctx, ix, fn_index_free);
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    if (ix->m != m || (ix->tail && ix->tail->parent != m->body))
      fn_index_reset(ix, m);
    for (AscOp *op = ix->tail ? ix->tail->next : m->body->first; op;
         op = op->next) {
      const char *s = asc_op_attr_str(op, "sym_name");
      if (op->id == ASC_OP_FUNC && s && fn_index_add(ix, op, s)) {
        fn_index_reset(ix, NULL); /* out of memory: start over next time */
        return find_by_scan(m, name);
      }
      ix->tail = op;
    }
    if (!ix->cap)
      return NULL;
    AscOp *f = ix->ops[fn_slot(ix, name)];
    if (!f)
      return NULL;
    const char *s = asc_op_attr_str(f, "sym_name");
    if (f->parent == m->body && f->id == ASC_OP_FUNC && s &&
        strcmp(s, name) == 0)
      return f;
    fn_index_reset(ix, m); /* f was removed (or renamed) since */
  }
  return find_by_scan(m, name);
}
