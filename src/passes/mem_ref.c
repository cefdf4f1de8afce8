/* What a tensor value addresses (mem_ref.h): its buffer and bytes, traced
 * through the ops that make and view tensors. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem_ref.h"
#include "pass.h"

struct AscMemMemo {
  const AscValue *v;
  AscMemRef r;
};

static const char ABS_ROOT = 0; /* static tensors: absolute UB addresses */

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

/* ---- linear forms -------------------------------------------------------- */

static AscLin lin_unknown(void) {
  AscLin l;
  memset(&l, 0, sizeof l);
  return l;
}

static AscLin lin_const(int64_t c) {
  AscLin l = lin_unknown();
  l.known = 1;
  l.c = c;
  return l;
}

/* Adds k * sym (* parity) to l; 0 when the terms run out or overflow. */
static int lin_add_term(AscLin *l, int64_t k, const AscValue *sym, int parity) {
  if (!k)
    return 1;
  if (!sym && !parity) /* a constant */
    return !__builtin_add_overflow(l->c, k, &l->c);
  for (int i = 0; i < l->n; i++)
    if (l->t[i].sym == sym && l->t[i].parity == parity) {
      if (__builtin_add_overflow(l->t[i].coef, k, &l->t[i].coef))
        return 0;
      if (!l->t[i].coef)
        l->t[i] = l->t[--l->n];
      return 1;
    }
  if (l->n == ASC_LIN_TERMS)
    return 0;
  l->t[l->n].coef = k;
  l->t[l->n].sym = sym;
  l->t[l->n].parity = parity;
  l->n++;
  return 1;
}

static int has_parity(const AscLin *l) {
  for (int i = 0; i < l->n; i++)
    if (l->t[i].parity)
      return 1;
  return 0;
}

static int has_symbol(const AscLin *l) {
  for (int i = 0; i < l->n; i++)
    if (l->t[i].sym)
      return 1;
  return 0;
}

/* a + sign * b */
static AscLin lin_add(const AscLin *a, const AscLin *b, int sign) {
  if (!a->known || !b->known)
    return lin_unknown();
  if (has_parity(a) && has_parity(b) &&
      (a->loop != b->loop || a->phase != b->phase))
    return lin_unknown();
  AscLin r = *a;
  if (!has_parity(a)) {
    r.loop = b->loop;
    r.phase = b->phase;
  }
  int64_t bc;
  if (__builtin_mul_overflow(b->c, (int64_t)sign, &bc) ||
      __builtin_add_overflow(r.c, bc, &r.c))
    return lin_unknown();
  for (int i = 0; i < b->n; i++) {
    int64_t k;
    if (__builtin_mul_overflow(b->t[i].coef, (int64_t)sign, &k) ||
        !lin_add_term(&r, k, b->t[i].sym, b->t[i].parity))
      return lin_unknown();
  }
  return r;
}

static AscLin lin_scale(const AscLin *a, int64_t k) {
  if (!a->known)
    return lin_unknown();
  AscLin r = *a;
  if (__builtin_mul_overflow(r.c, k, &r.c))
    return lin_unknown();
  for (int i = 0; i < r.n; i++)
    if (__builtin_mul_overflow(r.t[i].coef, k, &r.t[i].coef))
      return lin_unknown();
  return k ? r : lin_const(0);
}

/* a * b when one side is a constant, or one side is c + k * parity and the
 * other holds no parity (a buffer's size times the slot it picks). */
static AscLin lin_mul(const AscLin *a, const AscLin *b) {
  if (!a->known || !b->known)
    return lin_unknown();
  if (!a->n)
    return lin_scale(b, a->c);
  if (!b->n)
    return lin_scale(a, b->c);
  const AscLin *p = !has_symbol(b) && !has_parity(a)   ? b
                    : !has_symbol(a) && !has_parity(b) ? a
                                                       : NULL;
  if (!p)
    return lin_unknown();
  const AscLin *q = p == a ? b : a;
  AscLin r = lin_scale(q, p->c);
  for (int i = 0; i < p->n && r.known; i++) {
    AscLin part = lin_scale(q, p->t[i].coef);
    for (int j = 0; j < part.n && part.known; j++)
      part.t[j].parity = 1;
    if (part.known && part.c) { /* q's constant times the parity */
      int64_t c = part.c;
      part.c = 0;
      if (!lin_add_term(&part, c, NULL, 1))
        part = lin_unknown();
    }
    part.loop = p->loop;
    part.phase = p->phase;
    r = lin_add(&r, &part, 1);
  }
  return r;
}

/* A value the forms may name: an integer defined outside every loop (a
 * kernel parameter, a top-level computation), so that it holds one value
 * for the whole launch. Values that vary with an iteration are no
 * symbols: two iterations' accesses would look alike and are not. */
static int is_symbol(const AscMemRefs *w, const AscValue *v) {
  if (!v->type || !asc_type_is_int(v->type))
    return 0;
  return v->def ? v->def->parent == w->body : v->block == w->body;
}

static AscLin lin_of(AscMemRefs *w, const AscValue *v, int depth) {
  int64_t x;
  if (!v || depth > 32)
    return lin_unknown();
  if (asc_int_constant(v, &x))
    return lin_const(x);
  const AscOp *d = v->def;
  const AscOp *loop = NULL;
  int phase = 0;
  if (parity_of(v, &loop, &phase)) {
    AscLin l = lin_const(0);
    lin_add_term(&l, 1, NULL, 1);
    l.loop = loop;
    l.phase = phase;
    return l;
  }
  if (d && d->id == ASC_OP_CAST_S)
    return lin_of(w, d->operands[0], depth + 1);
  if (d && (d->id == ASC_OP_ADD_S || d->id == ASC_OP_SUB_S ||
            d->id == ASC_OP_MUL_S)) {
    AscLin a = lin_of(w, d->operands[0], depth + 1);
    AscLin b = lin_of(w, d->operands[1], depth + 1);
    if (d->id == ASC_OP_MUL_S)
      return lin_mul(&a, &b);
    return lin_add(&a, &b, d->id == ASC_OP_SUB_S ? -1 : 1);
  }
  if (is_symbol(w, v)) {
    AscLin l = lin_const(0);
    lin_add_term(&l, 1, v, 0);
    return l;
  }
  return lin_unknown();
}

/* x <= y for every value of the symbols (taken >= 0: they are offsets and
 * sizes, unsigned in Ascend C). */
static int lin_le(const AscLin *x, const AscLin *y) {
  AscLin d = lin_add(y, x, -1);
  if (!d.known || d.c < 0 || has_parity(&d))
    return 0;
  for (int i = 0; i < d.n; i++)
    if (d.t[i].coef < 0)
      return 0;
  return 1;
}

/* l with the parity terms at parity p (0, 1; -1 either: the least value
 * when `low`, else the greatest, if the sign of the terms says which). */
static AscLin lin_at(const AscLin *l, int p, int low) {
  if (!l->known || !has_parity(l))
    return *l;
  AscLin r = *l;
  r.n = 0;
  for (int i = 0; i < l->n; i++) {
    const AscLinTerm *t = &l->t[i];
    if (!t->parity) {
      r.t[r.n++] = *t;
      continue;
    }
    /* either parity: each term at its least (greatest) value, by its sign
     * (symbols being >= 0) */
    int take = p >= 0 ? p : (t->coef > 0) != low;
    if (take && !lin_add_term(&r, t->coef, t->sym, 0))
      return lin_unknown();
  }
  r.loop = NULL;
  r.phase = 0;
  return r;
}

AscMemRef asc_mem_ref_unknown(int space) {
  AscMemRef r;
  memset(&r, 0, sizeof r);
  r.space = space;
  return r;
}

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

/* lo + elements * es */
static AscLin end_of(AscMemRefs *w, const AscLin *lo, const AscValue *elements,
                     int64_t es) {
  AscLin n = lin_of(w, elements, 0);
  AscLin bytes = lin_scale(&n, es);
  return lin_add(lo, &bytes, 1);
}

static AscMemRef ref_of(AscMemRefs *w, const AscValue *v, int depth);

/* family: adv sort. Whether an op of b retargets tensor v in place (it
 * then addresses other memory from there on, which a trace from v's
 * definition does not see): asc.adv.sort.concat (`concat = src` on the
 * Ascend910B) and set_addr_with_offset. */
static int retargeted(const AscBlock *b, const AscValue *v) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    if ((op->id == ASC_OP_ADV_SORT_CONCAT ||
         op->id == ASC_OP_LT_SET_ADDR_WITH_OFFSET) &&
        op->n_operands > 0 && op->operands[0] == v)
      return 1;
    for (int r = 0; r < op->n_regions; r++)
      if (retargeted(op->regions[r].block, v))
        return 1;
  }
  return 0;
}

static AscMemRef compute_ref(AscMemRefs *w, const AscValue *v, int depth) {
  const AscType *t = v->type;
  int space = t && t->kind == ASC_TY_LOCAL_TENSOR ? ASC_MEM_UB : ASC_MEM_GM;
  const AscOp *d = v->def;
  AscMemRef r = asc_mem_ref_unknown(space);
  if (!d || depth > 64)
    return r;
  if (space == ASC_MEM_UB && retargeted(w->body, v))
    return r; /* anything: the trace cannot tell which memory it holds */
  switch (d->id) {
  case ASC_OP_GT_CREATE: {
    int n = 0;
    r.root = gt_root(w, v, w->body, NULL, &n);
    return r;
  }
  case ASC_OP_GT_OFFSET:
    r.root = ref_of(w, d->operands[0], depth + 1).root;
    return r;
  case ASC_OP_TBUF_GET:
    r.root = d->operands[0];
    r.lo = lin_const(0);
    if (d->n_operands > 1)
      r.hi = end_of(w, &r.lo, d->operands[1], elem_size(v));
    return r;
  case ASC_OP_TBUF_ALLOC_TENSOR:
  case ASC_OP_TBUF_DEQUE:
  case ASC_OP_ALLOC_TENSOR:
  case ASC_OP_DEQUE:
  case ASC_OP_DEQUE_POS:
    r.root = d->operands[0];
    return r;
  case ASC_OP_TBUF_GET_WITH_OFFSET:
    r.root = d->operands[0];
    r.lo = lin_of(w, d->operands[2], 0);
    r.hi = end_of(w, &r.lo, d->operands[1], elem_size(v));
    return r;
  case ASC_OP_LT_CREATE:
    r.root = &ABS_ROOT;
    r.lo = lin_of(w, d->operands[0], 0);
    r.hi = end_of(w, &r.lo, d->operands[1], elem_size(v));
    return r;
  case ASC_OP_LT_REINTERPRET_CAST:
    return ref_of(w, d->operands[0], depth + 1);
  case ASC_OP_LT_OFFSET: {
    /* a view from the offset to the parent's end */
    r = ref_of(w, d->operands[0], depth + 1);
    AscLin off = lin_of(w, d->operands[1], 0);
    AscLin bytes = lin_scale(&off, elem_size(d->operands[0]));
    r.lo = lin_add(&r.lo, &bytes, 1);
    return r;
  }
  default:
    return r;
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

AscMemRef asc_mem_ref(AscMemRefs *w, const AscValue *v) {
  return ref_of(w, v, 0);
}

const void *asc_mem_ref_gm_root(AscMemRefs *w, const AscValue *a) {
  return gm_root(w, a, 0);
}

void asc_mem_ref_limit(AscMemRefs *w, AscMemRef *r, const AscValue *elements,
                       int64_t elem_bytes) {
  AscLin hi = end_of(w, &r->lo, elements, elem_bytes);
  if (hi.known)
    r->hi = hi;
}

const AscOp *asc_mem_ref_parity_loop(const AscMemRef *r) {
  return has_parity(&r->lo)   ? r->lo.loop
         : has_parity(&r->hi) ? r->hi.loop
                              : NULL;
}

AscMemRef asc_mem_ref_resolve(AscMemRef r, int pass) {
  const AscLin *p = has_parity(&r.lo) ? &r.lo : &r.hi;
  int parity = pass < 0 ? -1 : (pass + p->phase) % 2;
  r.lo = lin_at(&r.lo, parity, 1);
  r.hi = lin_at(&r.hi, parity, 0);
  return r;
}

int asc_mem_ref_overlap(const AscMemRef *a, const AscMemRef *b) {
  if (a->space != b->space)
    return 0;
  if (!a->root || !b->root)
    return 1;
  if (a->root != b->root) /* a static address may lie in any buffer */
    return a->space == ASC_MEM_UB &&
           (a->root == &ABS_ROOT || b->root == &ABS_ROOT);
  /* accesses start 32-byte aligned (the simulator faults on others), so
   * bytes apart are 32-byte blocks apart as the sanitizer sees them */
  if (a->hi.known && lin_le(&a->hi, &b->lo))
    return 0;
  if (b->hi.known && lin_le(&b->hi, &a->lo))
    return 0;
  return 1;
}

void asc_mem_refs_free(AscMemRefs *w) {
  free(w->memo);
  w->memo = NULL;
  w->cap = w->n = 0;
}
