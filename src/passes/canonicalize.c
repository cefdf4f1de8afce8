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
 * one walk (operands are always defined before their users). */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "sim/sim.h"

typedef struct Canon {
  AscContext *ctx;
  int oom;
} Canon;

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
    asc_replace_all_uses(op->parent, &op->results[0], pick);
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
    if (!fold_op(c, op))
      for (int r = 0; r < op->n_regions; r++)
        fold_block(c, op->regions[r].block);
    op = next;
  }
}

/* ---- deduplication
 * ------------------------------------------------------------ */

static int same_constant(const AscOp *x, const AscOp *y) {
  AscSlot a, b;
  if (x->results[0].type != y->results[0].type || asc_constant_value(x, &a) ||
      asc_constant_value(y, &b))
    return 0;
  if (asc_dtype_is_float(x->results[0].type->dtype))
    return memcmp(&a.f, &b.f, sizeof a.f) == 0;
  return a.i == b.i;
}

static void dedup_block(Canon *c, AscBlock *b) {
  AscOp **seen = NULL;
  size_t n = 0, cap = 0;
  for (AscOp *op = b->first; op && !c->oom;) {
    AscOp *next = op->next;
    for (int r = 0; r < op->n_regions; r++)
      dedup_block(c, op->regions[r].block);
    AscSlot v;
    if (op->id == ASC_OP_CONSTANT && asc_constant_value(op, &v) == 0) {
      AscOp *same = NULL;
      for (size_t i = 0; i < n && !same; i++)
        if (same_constant(seen[i], op))
          same = seen[i];
      if (same) {
        /* the first constant stays as it is, name and location */
        asc_replace_all_uses(b, &op->results[0], &same->results[0]);
        asc_block_remove(b, op);
      } else {
        if (n == cap) {
          size_t ncap = cap ? cap * 2 : 32;
          AscOp **ns = realloc(seen, sizeof *ns * ncap);
          if (!ns) {
            c->oom = 1;
            break;
          }
          seen = ns;
          cap = ncap;
        }
        seen[n++] = op;
      }
    }
    op = next;
  }
  free(seen);
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

AscStatus asc_pass_canonicalize(AscModule *m) {
  Canon c = {m->ctx, 0};
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
  if (c.oom)
    return asc_error(m->ctx, ASC_ERR_INTERNAL, (AscLoc){0},
                     "canonicalize: out of memory");
  return ASC_OK;
}
