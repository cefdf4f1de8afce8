/* The pass registry, use counting shared by the passes, and `dce`. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

/* ---- registry ------------------------------------------------------------ */

/* One row per pass: name, function. */
#define ASC_PASS_LIST(X)                                                       \
  X("canonicalize", asc_pass_canonicalize)                                     \
  X("dce", asc_pass_dce)                                                       \
  X("inline", asc_pass_inline)                                                 \
  X("plan-ub", asc_pass_plan_ub)                                               \
  X("split-tiles", asc_pass_split_tiles) /* family: tiles */                   \
  X("lower-tiles", asc_pass_lower_tiles) /* family: tiles */                   \
  X("lower-cube", asc_pass_lower_cube)   /* family: tiles */                   \
  X("insert-sync", asc_pass_insert_sync)                                       \
  X("reserved-ubuf", asc_pass_reserved_ubuf)                                   \
  /* family: cores */                                                          \
  X("detect-kernel-type", asc_pass_detect_kernel_type)

typedef struct PassRow {
  const char *name;
  AscStatus (*run)(AscModule *m, const char *opts);
} PassRow;

#define PASS_ROW(name, fn) {name, fn},
#define PASS_NAME(name, fn) name,
static const PassRow pass_table[] = {ASC_PASS_LIST(PASS_ROW)};
static const char *const pass_name_list[] = {ASC_PASS_LIST(PASS_NAME) NULL};

enum { N_PASSES = sizeof pass_table / sizeof pass_table[0] };

const char *const *asc_pass_names(void) { return pass_name_list; }

/* `name` or `name{options}` (as MLIR spells pass options): the pass gets
 * the text between the braces ("" when none). */
AscStatus asc_run_pass(AscModule *m, const char *name) {
  if (!m)
    return ASC_ERR_INTERNAL;
  const char *brace = name ? strchr(name, '{') : NULL;
  size_t n = name ? (brace ? (size_t)(brace - name) : strlen(name)) : 0;
  char opts[256] = "";
  if (brace) {
    size_t k = strlen(brace + 1);
    if (k == 0 || brace[k] != '}' || k > sizeof opts)
      return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                       "pass '%s': options are written name{options}", name);
    memcpy(opts, brace + 1, k - 1);
    opts[k - 1] = '\0';
  }
  for (int i = 0; i < N_PASSES; i++)
    if (name && strlen(pass_table[i].name) == n &&
        strncmp(pass_table[i].name, name, n) == 0)
      return pass_table[i].run(m, opts);
  return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0}, "unknown pass '%s'",
                   name ? name : "(null)");
}

int asc_pass_ub_option(const char *opts, int64_t *ub) {
  if (!opts || !*opts)
    return 0;
  if (strncmp(opts, "ub=", 3) != 0)
    return -1;
  char *end = NULL;
  long long v = strtoll(opts + 3, &end, 10);
  if (end == opts + 3 || *end || v <= 0 || v > ((long long)1 << 32))
    return -1;
  *ub = v;
  return 0;
}

/* ---- purity -----------------------------------------------------------------
 */

int asc_op_is_pure(const AscOp *op) {
  if (op->n_regions)
    return 0;
  switch (op->id) {
  case ASC_OP_GET_BLOCK_IDX:
  case ASC_OP_GET_BLOCK_NUM:
  case ASC_OP_GM_ADDR_OFFSET:
  case ASC_OP_GT_OFFSET:
  case ASC_OP_LT_OFFSET:
    return 1;
  default: {
    const AscOpInfo *info = asc_op_info(op->id);
    return info && strncmp(info->name, "arith.", 6) == 0;
  }
  }
}

/* ---- use counts ------------------------------------------------------------
 */

static size_t hash_ptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  return (size_t)x;
}

static size_t uses_slot(const AscUses *u, const AscValue *v) {
  size_t mask = u->cap - 1;
  size_t i = hash_ptr(v) & mask;
  while (u->keys[i] && u->keys[i] != v)
    i = (i + 1) & mask;
  return i;
}

static int uses_grow(AscUses *u) {
  size_t cap = u->cap ? u->cap * 2 : 256;
  AscUses n = {calloc(cap, sizeof(AscValue *)), calloc(cap, sizeof(int)), cap,
               0, 0};
  if (!n.keys || !n.counts) {
    free(n.keys);
    free(n.counts);
    u->oom = 1;
    return -1;
  }
  for (size_t i = 0; i < u->cap; i++)
    if (u->keys[i]) {
      size_t j = uses_slot(&n, u->keys[i]);
      n.keys[j] = u->keys[i];
      n.counts[j] = u->counts[i];
      n.n++;
    }
  free(u->keys);
  free(u->counts);
  *u = n;
  return 0;
}

void asc_uses_add(AscUses *u, const AscValue *v, int delta) {
  if (!v || u->oom)
    return;
  if (u->cap) {
    size_t i = uses_slot(u, v);
    if (u->keys[i]) {
      u->counts[i] += delta;
      return;
    }
  }
  if ((u->n + 1) * 2 > u->cap && uses_grow(u))
    return;
  size_t i = uses_slot(u, v);
  u->keys[i] = v;
  u->n++;
  u->counts[i] = delta;
}

int asc_uses_get(const AscUses *u, const AscValue *v) {
  if (!u->cap)
    return 0;
  size_t i = uses_slot(u, v);
  return u->keys[i] ? u->counts[i] : 0;
}

void asc_uses_count(AscUses *u, const AscBlock *block) {
  for (const AscOp *op = block->first; op; op = op->next) {
    for (int i = 0; i < op->n_operands; i++)
      asc_uses_add(u, op->operands[i], 1);
    for (int r = 0; r < op->n_regions; r++)
      asc_uses_count(u, op->regions[r].block);
  }
}

void asc_uses_free(AscUses *u) {
  free(u->keys);
  free(u->counts);
  memset(u, 0, sizeof *u);
}

int asc_op_results_unused(const AscUses *u, const AscOp *op) {
  for (int i = 0; i < op->n_results; i++)
    if (asc_uses_get(u, &op->results[i]) > 0)
      return 0;
  return 1;
}

void asc_erase_op(AscUses *u, AscOp *op) {
  for (int i = 0; i < op->n_operands; i++)
    asc_uses_add(u, op->operands[i], -1);
  asc_block_remove(op->parent, op);
}

/* ---- small IR helpers of the passes ----------------------------------------
 */

int asc_grow_array(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  size_t n = *cap ? *cap : 16, bytes;
  while (n < need)
    if (__builtin_mul_overflow(n, (size_t)2, &n))
      return -1;
  if (__builtin_mul_overflow(n, elem, &bytes))
    return -1;
  void *q = realloc(*p, bytes);
  if (!q)
    return -1;
  *p = q;
  *cap = n;
  return 0;
}

int asc_int_constant(const AscValue *v, int64_t *out) {
  if (!v || !v->def || v->def->id != ASC_OP_CONSTANT)
    return 0;
  const AscAttr *a = asc_op_attr(v->def, "value");
  if (!a || a->kind != ASC_ATTR_INT)
    return 0;
  *out = a->i;
  return 1;
}

AscOp *asc_make_int_constant(AscContext *ctx, const AscType *t, int64_t value,
                             AscLoc loc) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "value";
  a.kind = ASC_ATTR_INT;
  a.i = value;
  a.type = t;
  return asc_op_create(ctx, ASC_OP_CONSTANT, loc, NULL, 0, &t, 1, &a, 1, 0,
                       NULL, NULL);
}

AscOp *asc_make_binary(AscContext *ctx, AscOpId id, AscValue *x, AscValue *y,
                       AscLoc loc) {
  AscValue *ops[2] = {x, y};
  const AscType *t = x->type;
  return asc_op_create(ctx, id, loc, ops, 2, &t, 1, NULL, 0, 0, NULL, NULL);
}

/* ---- dce --------------------------------------------------------------------
 * Erases pure ops whose results are unused. A block is walked backwards,
 * nested regions before the op that holds them, so that every user of a
 * value is visited before the value's definition: erasing a user releases
 * its operands, which may then die in the same walk. The walk repeats until
 * nothing changes. */

static int dce_block(AscUses *u, AscBlock *b) {
  int erased = 0;
  for (AscOp *op = b->last; op;) {
    AscOp *prev = op->prev;
    for (int r = 0; r < op->n_regions; r++)
      erased += dce_block(u, op->regions[r].block);
    if (asc_op_is_pure(op) && asc_op_results_unused(u, op)) {
      asc_erase_op(u, op);
      erased++;
    }
    op = prev;
  }
  return erased;
}

AscStatus asc_pass_dce(AscModule *m, const char *opts) {
  (void)opts;
  for (AscOp *f = m->body->first; f; f = f->next) {
    for (int r = 0; r < f->n_regions; r++) {
      AscBlock *body = f->regions[r].block;
      int erased;
      do {
        AscUses u = {0};
        asc_uses_count(&u, body);
        erased = u.oom ? 0 : dce_block(&u, body);
        int oom = u.oom;
        asc_uses_free(&u);
        if (oom)
          return asc_error(m->ctx, ASC_ERR_INTERNAL, f->loc,
                           "dce: out of memory");
      } while (erased);
    }
  }
  return ASC_OK;
}
