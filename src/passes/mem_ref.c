/* What a tensor value addresses (mem_ref.h): its buffer and bytes, traced
 * through the ops that make and view tensors. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem_ref.h"

struct AscMemMemo {
  const AscValue *v;
  AscMemRef r;
};

static const char ABS_ROOT = 0; /* static tensors: absolute UB addresses */

int asc_int_constant(const AscValue *v, int64_t *out) {
  if (!v || !v->def || v->def->id != ASC_OP_CONSTANT)
    return 0;
  const AscAttr *a = asc_op_attr(v->def, "value");
  if (!a || a->kind != ASC_ATTR_INT)
    return 0;
  *out = a->i;
  return 1;
}

/* ---- what a tensor value addresses ----------------------------------------
 */

/* Parity: v = (iv of loop, as an iteration count) % 2 — the forms plan-ub
 * writes (rem(iv, 2) with a constant lower bound and odd step, or
 * rem(div(sub(iv, lower), step), 2)) and `i % 2` / `i & 1` in user code. */
static int parity_of(const AscValue *v, const AscOp **loop, int *phase) {
  const AscOp *d = v ? v->def : NULL;
  int64_t k;
  if (!d || !(d->id == ASC_OP_REM_S || d->id == ASC_OP_AND_S))
    return 0;
  if (!asc_int_constant(d->operands[1], &k) ||
      k != (d->id == ASC_OP_REM_S ? 2 : 1))
    return 0;
  const AscValue *x = d->operands[0];
  while (x && x->def && x->def->id == ASC_OP_CAST_S)
    x = x->def->operands[0];
  if (!x)
    return 0;
  if (!x->def) { /* the induction variable itself */
    const AscOp *f =
        x->block && x->block->parent ? x->block->parent->parent : NULL;
    int64_t lower, step;
    if (!f || f->id != ASC_OP_FOR || x->index != 0 ||
        !asc_int_constant(f->operands[0], &lower) ||
        !asc_int_constant(f->operands[2], &step) || step % 2 == 0)
      return 0;
    *loop = f;
    *phase = (int)(((lower % 2) + 2) % 2);
    return 1;
  }
  if (x->def->id != ASC_OP_DIV_S)
    return 0;
  const AscOp *sub = x->def->operands[0]->def;
  const AscValue *iv = sub && sub->id == ASC_OP_SUB_S ? sub->operands[0] : NULL;
  const AscOp *f = iv && !iv->def && iv->block && iv->block->parent
                       ? iv->block->parent->parent
                       : NULL;
  if (!f || f->id != ASC_OP_FOR || iv->index != 0 ||
      sub->operands[1] != f->operands[0] ||
      x->def->operands[1] != f->operands[2])
    return 0;
  *loop = f;
  *phase = 0;
  return 1;
}

/* v = c + k * parity(loop): 1 when v has that form (k = 0: a constant). */
static int affine_of(const AscValue *v, int64_t *c, int64_t *k,
                     const AscOp **loop, int *phase, int depth) {
  if (!v || depth > 16)
    return 0;
  int64_t x;
  if (asc_int_constant(v, &x)) {
    *c = x;
    *k = 0;
    return 1;
  }
  const AscOp *d = v->def;
  if (!d)
    return 0;
  if (parity_of(v, loop, phase)) {
    *c = 0;
    *k = 1;
    return 1;
  }
  if (d->id == ASC_OP_CAST_S)
    return affine_of(d->operands[0], c, k, loop, phase, depth + 1);
  if (d->id != ASC_OP_ADD_S && d->id != ASC_OP_SUB_S && d->id != ASC_OP_MUL_S)
    return 0;
  int64_t c0, k0, c1, k1;
  const AscOp *l0 = NULL, *l1 = NULL;
  int p0 = 0, p1 = 0;
  if (!affine_of(d->operands[0], &c0, &k0, &l0, &p0, depth + 1) ||
      !affine_of(d->operands[1], &c1, &k1, &l1, &p1, depth + 1))
    return 0;
  if (k0 && k1 && (l0 != l1 || p0 != p1))
    return 0;
  *loop = k0 ? l0 : l1;
  *phase = k0 ? p0 : p1;
  if (d->id == ASC_OP_MUL_S) {
    if (k0 && k1)
      return 0;
    if (__builtin_mul_overflow(c0, c1, c) ||
        __builtin_mul_overflow(k0 ? k0 : k1, k0 ? c1 : c0, k))
      return 0;
    return 1;
  }
  int sub = d->id == ASC_OP_SUB_S;
  if (sub ? __builtin_sub_overflow(c0, c1, c) ||
                __builtin_sub_overflow(k0, k1, k)
          : __builtin_add_overflow(c0, c1, c) ||
                __builtin_add_overflow(k0, k1, k))
    return 0;
  return 1;
}

AscMemRef asc_mem_ref_unknown(int space) {
  AscMemRef r = {space, NULL, 0, ASC_MEM_OPEN_END, 0, NULL, 0};
  return r;
}

static AscMemRef ref_of(AscMemRefs *w, const AscValue *v, int depth);

static int64_t elem_size(const AscValue *v) {
  size_t n = v && v->type ? asc_dtype_size(v->type->dtype) : 0;
  return n ? (int64_t)n : 1;
}

/* The kernel argument a global address comes from (NULL: unknown). */
static const void *gm_root(AscMemRefs *w, const AscValue *a, int depth) {
  while (a && a->def && a->def->id == ASC_OP_GM_ADDR_OFFSET && depth++ < 64)
    a = a->def->operands[0];
  if (a && !a->def && a->block == w->body)
    return a;
  return NULL;
}

/* A GlobalTensor's root: the address its set_global_buffer calls gave. */
static const void *gt_root(AscMemRefs *w, const AscValue *t, const AscBlock *b,
                           const void *found, int *n) {
  for (const AscOp *op = b->first; op; op = op->next) {
    if (op->id == ASC_OP_GT_SET_BUFFER && op->operands[0] == t) {
      const void *r = gm_root(w, op->operands[1], 0);
      if ((*n)++ && r != found)
        return NULL;
      found = r;
      if (!r)
        return NULL;
    }
    for (int i = 0; i < op->n_regions; i++) {
      int before = *n;
      const void *r = gt_root(w, t, op->regions[i].block, found, n);
      if (*n != before) {
        if (!r)
          return NULL;
        found = r;
      }
    }
  }
  return found;
}

static AscMemRef compute_ref(AscMemRefs *w, const AscValue *v, int depth) {
  const AscType *t = v->type;
  int space = t && t->kind == ASC_TY_LOCAL_TENSOR ? ASC_MEM_UB : ASC_MEM_GM;
  const AscOp *d = v->def;
  if (!d || depth > 64)
    return asc_mem_ref_unknown(space);
  int64_t c, k;
  const AscOp *loop = NULL;
  int phase = 0;
  switch (d->id) {
  case ASC_OP_GT_CREATE: {
    int n = 0;
    AscMemRef r = asc_mem_ref_unknown(ASC_MEM_GM);
    r.root = gt_root(w, v, w->body, NULL, &n);
    return r;
  }
  case ASC_OP_GT_OFFSET: {
    AscMemRef r = ref_of(w, d->operands[0], depth + 1);
    r.lo = 0;
    r.hi = ASC_MEM_OPEN_END;
    r.slot = 0;
    return r;
  }
  case ASC_OP_TBUF_GET: {
    AscMemRef r = asc_mem_ref_unknown(ASC_MEM_UB);
    r.root = d->operands[0];
    int64_t len;
    if (d->n_operands > 1 && asc_int_constant(d->operands[1], &len) &&
        len >= 0 && len <= INT32_MAX)
      r.hi = len * elem_size(v);
    return r;
  }
  case ASC_OP_TBUF_ALLOC_TENSOR:
  case ASC_OP_TBUF_DEQUE:
  case ASC_OP_ALLOC_TENSOR:
  case ASC_OP_DEQUE:
  case ASC_OP_DEQUE_POS: {
    AscMemRef r = asc_mem_ref_unknown(ASC_MEM_UB);
    r.root = d->operands[0];
    return r;
  }
  case ASC_OP_TBUF_GET_WITH_OFFSET: {
    AscMemRef r = asc_mem_ref_unknown(ASC_MEM_UB);
    r.root = d->operands[0];
    int64_t len;
    if (affine_of(d->operands[2], &c, &k, &loop, &phase, 0) && c >= 0 &&
        c <= INT32_MAX && k >= -INT32_MAX && k <= INT32_MAX) {
      r.lo = c;
      if (asc_int_constant(d->operands[1], &len) && len >= 0 &&
          len <= INT32_MAX)
        r.hi = c + len * elem_size(v);
      if (k) {
        r.slot = k;
        r.loop = loop;
        r.phase = phase;
      }
    }
    return r;
  }
  case ASC_OP_LT_CREATE: {
    int64_t addr, len;
    if (!asc_int_constant(d->operands[0], &addr) ||
        !asc_int_constant(d->operands[1], &len) || addr < 0 || len < 0 ||
        addr > INT32_MAX || len > INT32_MAX)
      return asc_mem_ref_unknown(ASC_MEM_UB);
    AscMemRef r = {ASC_MEM_UB, &ABS_ROOT, addr, addr + len * elem_size(v),
                   0,          NULL,      0};
    return r;
  }
  case ASC_OP_LT_REINTERPRET_CAST:
    return ref_of(w, d->operands[0], depth + 1);
  case ASC_OP_LT_OFFSET: {
    AscMemRef r = ref_of(w, d->operands[0], depth + 1);
    int64_t es = elem_size(d->operands[0]);
    if (affine_of(d->operands[1], &c, &k, &loop, &phase, 0) && c >= 0 &&
        c <= INT32_MAX && k >= -INT32_MAX && k <= INT32_MAX &&
        (k == 0 || r.slot == 0)) {
      if (r.lo != ASC_MEM_OPEN_END)
        r.lo += c * es;
      if (r.lo > r.hi)
        r.lo = r.hi;
      if (k) {
        r.slot = k * es;
        r.loop = loop;
        r.phase = phase;
      }
      return r;
    }
    if (r.slot) { /* an unknown offset in a double buffer: both slots */
      r.hi = r.hi == ASC_MEM_OPEN_END ? ASC_MEM_OPEN_END
                                      : r.hi + (r.slot > 0 ? r.slot : 0);
      r.lo += r.slot < 0 ? r.slot : 0;
      r.slot = 0;
    }
    return r;
  }
  default:
    return asc_mem_ref_unknown(space);
  }
}

static size_t memo_slot(const AscMemRefs *w, const AscValue *v) {
  uint64_t x = (uint64_t)(uintptr_t)v;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  size_t i = (size_t)x & (w->cap - 1);
  while (w->memo[i].v && w->memo[i].v != v)
    i = (i + 1) & (w->cap - 1);
  return i;
}

static AscMemRef ref_of(AscMemRefs *w, const AscValue *v, int depth) {
  if (w->cap) {
    size_t i = memo_slot(w, v);
    if (w->memo[i].v)
      return w->memo[i].r;
  }
  AscMemRef r = compute_ref(w, v, depth);
  if ((w->n + 1) * 2 > w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 256;
    struct AscMemMemo *old = w->memo;
    size_t old_cap = w->cap;
    struct AscMemMemo *n = calloc(cap, sizeof *n);
    if (!n) {
      w->oom = 1;
      return r;
    }
    w->memo = n;
    w->cap = cap;
    for (size_t j = 0; j < old_cap; j++)
      if (old[j].v)
        w->memo[memo_slot(w, old[j].v)] = old[j];
    free(old);
  }
  size_t i = memo_slot(w, v);
  w->memo[i].v = v;
  w->memo[i].r = r;
  w->n++;
  return r;
}

int asc_mem_ref_overlap(const AscMemRef *a, const AscMemRef *b) {
  if (a->space != b->space)
    return 0;
  if (!a->root || !b->root)
    return 1;
  if (a->root != b->root) {
    /* a static address may lie in any buffer; distinct buffers are apart */
    return a->space == ASC_MEM_UB &&
           (a->root == &ABS_ROOT || b->root == &ABS_ROOT);
  }
  return a->lo < b->hi && b->lo < a->hi;
}

AscMemRef asc_mem_ref(AscMemRefs *w, const AscValue *v) {
  return ref_of(w, v, 0);
}

const void *asc_mem_ref_gm_root(AscMemRefs *w, const AscValue *a) {
  return gm_root(w, a, 0);
}

void asc_mem_refs_free(AscMemRefs *w) {
  free(w->memo);
  w->memo = NULL;
  w->cap = w->n = 0;
}
