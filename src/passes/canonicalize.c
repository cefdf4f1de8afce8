/* `canonicalize`: constant folding and constant deduplication.
 *
 *  - A scalar arith op whose operands are all defined by arith.constant is
 *    turned, in place, into an arith.constant holding its result. The value
 *    is computed exactly as the simulator computes it at run time
 *    (src/sim/scalar.c): integers wrap to their type's width and
 *    signedness (asc_int_normalize), floats round to their type's
 *    precision (asc_float_normalize). Ops that would fault at run time
 *    (integer division by zero) or whose run-time result reads a slot of
 *    the other kind are left alone. The op keeps its result value, so its
 *    uses, its Python name and its location survive.
 *  - arith.select with a constant condition is replaced by the selected
 *    value.
 *  - Every arith.constant's attribute is rewritten to its normalised value
 *    (`value = 4294967297 : i32` becomes `value = 1 : i32`), typed with the
 *    result type.
 *  - Within one block, a constant equal (same type, same normalised value)
 *    to an earlier constant of the block is replaced by it (the earlier one
 *    keeps its own name and location).
 *  - Constants left without uses are erased.
 *
 * Blocks are walked in program order, so a chain of foldable ops folds in
 * one walk (operands are always defined before their users).
 *
 * Replacing a value does not walk the block for its uses (once per folded
 * select or duplicate constant, that made the pass quadratic): the
 * replacement is recorded, and every op has its operands rewritten when
 * the walk reaches it, which in verified IR is after every value it uses
 * (a value's uses all come after it, in its block or in regions nested
 * there). */
#include <stdlib.h>
#include <string.h>

#include "ir/hash.h"
#include "pass.h"
#include "sim/sim.h"

typedef struct Canon {
  AscContext *ctx;
  AscPtrMap repl; /* replaced value → the value that stands for it */
  int oom;
} Canon;

/* Records that `to` replaces `from`; -1 (c->oom set) when out of memory.
 * (The pass then fails: ops not reached yet keep naming `from`.) */
static int replace_value(Canon *c, const AscValue *from, AscValue *to) {
  if (!asc_ptrmap_put(&c->repl, from, to))
    return 0;
  c->oom = 1;
  return -1;
}

/* Rewrites the operands of op that name replaced values. */
static void rewrite_operands(Canon *c, AscOp *op) {
  if (!c->repl.n)
    return;
  for (int i = 0; i < op->n_operands; i++) {
    AscValue *to = asc_ptrmap_get(&c->repl, op->operands[i]);
    /* (one lookup is enough: within a walk a replacement is never itself
     * replaced, and after its walk no op names a replaced value) */
    if (to)
      op->operands[i] = to;
  }
}

/* ---- constant values ----------------------------------------------------- */

static int is_scalar(const AscType *t) {
  return t && t->kind == ASC_TY_SCALAR && t->dtype != ASC_DT_NONE;
}

static int operand_value(const AscOp *op, int i, AscSlot *out) {
  const AscValue *v = op->operands[i];
  return v ? asc_constant_value(v->def, out) : -1;
}

/* ---- folding: the simulator's own scalar semantics (src/sim/scalar.c) -- */

static int fold_binary(const AscOp *op, AscDType dt, AscSlot a, AscSlot b,
                       AscSlot *r) {
  return asc_scalar_binary(asc_exec_sub(op->id), dt,
                           op->operands[0]->type->dtype,
                           op->operands[1]->type->dtype, a, b, r)
             ? -1
             : 0;
}

static int fold_cmp(const AscOp *op, AscSlot a, AscSlot b, AscSlot *r) {
  const AscAttr *pa = asc_op_attr(op, "predicate");
  if (!pa || pa->kind != ASC_ATTR_ENUM || pa->enum_kind != ASC_ENUM_CMPPRED)
    return -1;
  r->i = asc_scalar_cmp(pa->i, op->operands[0]->type->dtype,
                        op->operands[1]->type->dtype, a, b);
  return 0;
}

static int fold_unary(const AscOp *op, AscDType dt, AscSlot a, AscSlot *r) {
  AscDType at = op->operands[0]->type->dtype;
  int ff = asc_dtype_is_float(dt), af = asc_dtype_is_float(at);
  /* neg/not/invert read the operand's slot as the result's kind */
  if (op->id != ASC_OP_CAST_S && (ff != af || (op->id != ASC_OP_NEG_S && ff)))
    return -1;
  return asc_scalar_unary(asc_exec_sub(op->id), dt, at, a, r) ? -1 : 0;
}

/* ---- rewriting
 * --------------------------------------------------------------- */

/* The canonical `value` attribute of a constant of type t holding v. */
static void canonical_attr(const AscType *t, AscSlot v, AscAttr *a) {
  memset(a, 0, sizeof *a);
  a->name = "value";
  a->type = t;
  if (asc_dtype_is_float(t->dtype)) {
    a->kind = ASC_ATTR_FLOAT;
    a->f = v.f;
  } else {
    a->kind = ASC_ATTR_INT;
    a->i = v.i;
  }
}

static int same_attr(const AscAttr *x, const AscAttr *y) {
  if (x->kind != y->kind || x->type != y->type)
    return 0;
  if (x->kind == ASC_ATTR_FLOAT)
    return memcmp(&x->f, &y->f, sizeof x->f) == 0;
  return x->i == y->i;
}

/* Makes op an arith.constant of its result type holding v. */
static void set_constant(Canon *c, AscOp *op, AscSlot v) {
  AscAttr want;
  canonical_attr(op->results[0].type, v, &want);
  if (op->id == ASC_OP_CONSTANT && op->n_attrs == 1 &&
      same_attr(&op->attrs[0], &want))
    return;
  AscAttr *a = asc_alloc(c->ctx, sizeof *a);
  const char *name = asc_strdup(c->ctx, "value");
  if (!a || !name) {
    c->oom = 1;
    return;
  }
  *a = want;
  a->name = name;
  op->id = ASC_OP_CONSTANT;
  op->operands = NULL;
  op->n_operands = 0;
  op->attrs = a;
  op->n_attrs = 1;
}

static int is_arith_binary(AscOpId id) {
  switch (id) {
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
  case ASC_OP_MIN_S:
  case ASC_OP_MAX_S:
    return 1;
  default:
    return 0;
  }
}

static int is_arith_unary(AscOpId id) {
  return id == ASC_OP_NEG_S || id == ASC_OP_NOT_S || id == ASC_OP_INVERT_S ||
         id == ASC_OP_CAST_S;
}

/* Folds op if it can; returns 1 when op was erased (select). */
static int fold_op(Canon *c, AscOp *op) {
  if (op->n_results != 1 || op->n_regions)
    return 0;
  const AscType *rt = op->results[0].type;
  AscSlot a, b, r;
  memset(&r, 0, sizeof r);
  if (op->id == ASC_OP_SELECT_S) {
    if (op->n_operands != 3 || operand_value(op, 0, &a))
      return 0;
    AscValue *pick = op->operands[a.i ? 1 : 2];
    if (!pick || pick->type != rt || !op->parent)
      return 0;
    /* the select's uses are in its block, after it */
    if (replace_value(c, &op->results[0], pick))
      return 0;
    asc_block_remove(op->parent, op);
    return 1;
  }
  if (!is_scalar(rt))
    return 0;
  int ok = -1;
  if (op->id == ASC_OP_CONSTANT) {
    ok = asc_constant_value(op, &r);
  } else if (is_arith_binary(op->id) || op->id == ASC_OP_CMP_S) {
    if (op->n_operands != 2 || operand_value(op, 0, &a) ||
        operand_value(op, 1, &b))
      return 0;
    ok = op->id == ASC_OP_CMP_S ? fold_cmp(op, a, b, &r)
                                : fold_binary(op, rt->dtype, a, b, &r);
  } else if (is_arith_unary(op->id)) {
    if (op->n_operands != 1 || operand_value(op, 0, &a))
      return 0;
    ok = fold_unary(op, rt->dtype, a, &r);
  }
  if (ok == 0)
    set_constant(c, op, r);
  return 0;
}

static void fold_block(Canon *c, AscBlock *b) {
  for (AscOp *op = b->first; op && !c->oom;) {
    AscOp *next = op->next;
    rewrite_operands(c, op);
    if (!fold_op(c, op))
      for (int r = 0; r < op->n_regions; r++)
        fold_block(c, op->regions[r].block);
    op = next;
  }
}

/* ---- deduplication
 * ------------------------------------------------------------ */

/* The constants of one block, by value: two constants are the same when
 * they have the same type and the same normalised value, bit for bit for
 * floats (so -0.0 and 0.0, or two NaNs, stay apart). */
typedef struct SeenConst {
  const AscType *type;
  uint64_t bits;
  AscOp *op; /* the first constant of the block with this value */
} SeenConst;

typedef struct ConstTable {
  SeenConst *slots;
  size_t cap, n;
} ConstTable;

static uint64_t constant_bits(const AscType *t, AscSlot v) {
  uint64_t bits;
  if (asc_dtype_is_float(t->dtype))
    memcpy(&bits, &v.f, sizeof bits);
  else
    bits = (uint64_t)v.i;
  return bits;
}

static size_t const_slot(const ConstTable *ct, const AscType *t,
                         uint64_t bits) {
  size_t mask = ct->cap - 1;
  size_t i = asc_hash_u64(bits ^ asc_hash_ptr(t)) & mask;
  while (ct->slots[i].op &&
         (ct->slots[i].type != t || ct->slots[i].bits != bits))
    i = (i + 1) & mask;
  return i;
}

/* The earlier constant of the block equal to op, or NULL after recording
 * op as the first of its value (c->oom when that fails). */
static AscOp *seen_constant(Canon *c, ConstTable *ct, AscOp *op, AscSlot v) {
  const AscType *t = op->results[0].type;
  uint64_t bits = constant_bits(t, v);
  if (ct->cap) {
    size_t i = const_slot(ct, t, bits);
    if (ct->slots[i].op)
      return ct->slots[i].op;
  }
  if ((ct->n + 1) * 2 > ct->cap) {
    ConstTable g = {NULL, ct->cap ? ct->cap * 2 : 32, ct->n};
    g.slots = calloc(g.cap, sizeof *g.slots);
    if (!g.slots) {
      c->oom = 1;
      return NULL;
    }
    for (size_t i = 0; i < ct->cap; i++)
      if (ct->slots[i].op)
        g.slots[const_slot(&g, ct->slots[i].type, ct->slots[i].bits)] =
            ct->slots[i];
    free(ct->slots);
    *ct = g;
  }
  ct->slots[const_slot(ct, t, bits)] = (SeenConst){t, bits, op};
  ct->n++;
  return NULL;
}

static void dedup_block(Canon *c, AscBlock *b) {
  ConstTable seen = {NULL, 0, 0};
  for (AscOp *op = b->first; op && !c->oom;) {
    AscOp *next = op->next;
    rewrite_operands(c, op);
    for (int r = 0; r < op->n_regions; r++)
      dedup_block(c, op->regions[r].block);
    AscSlot v;
    if (op->id == ASC_OP_CONSTANT && asc_constant_value(op, &v) == 0) {
      AscOp *same = seen_constant(c, &seen, op, v);
      /* the first constant stays as it is, name and location */
      if (same && !replace_value(c, &op->results[0], &same->results[0]))
        asc_block_remove(b, op);
    }
    op = next;
  }
  free(seen.slots);
}

/* ---- dead constants
 * ---------------------------------------------------------- */

static void erase_dead_constants(AscUses *u, AscBlock *b) {
  for (AscOp *op = b->last; op;) {
    AscOp *prev = op->prev;
    for (int r = 0; r < op->n_regions; r++)
      erase_dead_constants(u, op->regions[r].block);
    if (op->id == ASC_OP_CONSTANT && asc_op_results_unused(u, op))
      asc_erase_op(u, op);
    op = prev;
  }
}

AscStatus asc_pass_canonicalize(AscModule *m, const char *opts) {
  (void)opts;
  Canon c;
  memset(&c, 0, sizeof c);
  c.ctx = m->ctx;
  for (AscOp *f = m->body->first; f && !c.oom; f = f->next)
    for (int r = 0; r < f->n_regions && !c.oom; r++) {
      AscBlock *body = f->regions[r].block;
      fold_block(&c, body);
      dedup_block(&c, body);
      AscUses u = {0};
      asc_uses_count(&u, body);
      if (u.oom)
        c.oom = 1;
      else
        erase_dead_constants(&u, body);
      asc_uses_free(&u);
    }
  asc_ptrmap_free(&c.repl);
  if (c.oom)
    return asc_error(m->ctx, ASC_ERR_INTERNAL, (AscLoc){0},
                     "canonicalize: out of memory");
  return ASC_OK;
}
