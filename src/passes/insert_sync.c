/* `insert-sync`: orders every pair of operations on different pipes that
 * touch overlapping memory, at least one writing, with the cheapest
 * construct that is correct (the jit option insert_sync=True).
 *
 * The analysis walks the kernel body in program order and keeps the same
 * happens-before model the simulator's sanitizer checks (sanitizer.c): a
 * sequence number per memory instruction, last[P] per pipe, and vector
 * clocks vc[Q].c[P] = the highest seq of a pipe-P instruction known to have
 * finished before pipe Q's next instruction. A set_flag on P publishes vc[P]
 * with c[P] = last[P]; the wait_flag that consumes it joins that into
 * vc[Q] (into every pipe when Q is the scalar unit, which stops issuing).
 * The kernel's own syncs (set/wait_flag with constant ids, pipe_barrier)
 * count as they are; TQue enque/deque do not (they are kept, and what they
 * order may be ordered twice).
 *
 * An access that is not ordered after a conflicting earlier one gets a sync
 * from the earlier one's pipe P to its pipe Q:
 *   - P == Q: a pipe_barrier(P) right before it (the V pipe orders itself
 *     when the Ascend C compiler's auto-sync is on: option `auto-sync`);
 *   - else a set_flag<P_Q> right after A' and a wait_flag<P_Q> right before
 *     B', where A' and B' are the ancestors of the two ops in the innermost
 *     block holding both. A' before B' is a dependency within one pass
 *     through that block. A' at or after B' is carried by the innermost loop
 *     L around that block (iteration i+1 against iteration i): the same pair
 *     plus one set_flag before L and one wait_flag after it, so every wait
 *     has its set and no flag is left pending when L ends, whatever its trip
 *     count.
 * Loops are walked twice (iteration i, then i+1), three times when a buffer
 * in them is double-buffered by the iteration's parity (its offset
 * `c + k * (iv % 2)`, as plan-ub writes it): iteration i+2 meets iteration
 * i in the same buffer, and that sync's event ids alternate with the
 * parity (two ids, both set before L and both waited after it), so the two
 * buffers' pipes overlap as hand-written ping-pong code does. Branches of an
 * scf.if are walked from the same state, and the state after it is what
 * both guarantee; a while loop's carried syncs are set and waited next to
 * each other.
 *
 * Memory: local tensors are traced to their buffer (a TBuf, a TQue, a static
 * address) and byte range (constant or parity offsets; anything else: the
 * whole buffer); global tensors to the kernel argument they were set to (a
 * pair on one pipe is never ordered: a DMA queue keeps its order to GM).
 * Event ids are given last, per HardEvent, to syncs whose live ranges (in
 * program order, a carried one's: its whole loop) overlap, avoiding the ids
 * the kernel uses itself and the ids 6 and 7 the devkit reserves; a sync
 * left without an id becomes a
 * pipe_barrier(PIPE_ALL). Every inserted sync is reported in the module's
 * pass log with the two Python lines it orders. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_ref.h"
#include "pass.h"

enum {
  NP = ASC_PIPE_COUNT,
  N_IDS = 8, /* event ids 0..7 per HardEvent */
  /* the ids the pass gives: 0..5 (SetFlag-WaitFlag(ISASI).md keeps id 6 for
   * the system and 7 for the TPipe's automatic sync) */
  N_GIVEN_IDS = 6,
  N_EVENTS = 64,      /* HardEvent values (enums.def) fit below this */
  VIRTUAL_ID0 = 1000, /* ids of inserted syncs until they are given real ones */
  MAX_DEPTH = 64,     /* nesting of loops and branches the walk follows */
};
/* ops visited at most: loops are walked 2-3 times each, nested ones that
 * many times more */
#define VISIT_BUDGET 4000000L

typedef struct Clock {
  uint32_t c[NP];
} Clock;

typedef struct State {
  Clock vc[NP];
  uint32_t last[NP];
} State;

typedef struct Access {
  uint32_t seq;
  int pipe;
  int write;
  AscMemRef r; /* slot resolved for the pass it was made in */
  const AscOp *op;
  Clock pub; /* what a set_flag right after it publishes */
} Access;

typedef struct Flag {
  int64_t event, id;
  Clock clk;
  int used;
} Flag;

enum { SYNC_FLAG, SYNC_BARRIER };

typedef struct Sync {
  int kind;
  int64_t event; /* SYNC_FLAG: the HardEvent; SYNC_BARRIER: the PipeID */
  int parity;
  int vid; /* virtual id (parity: vid and vid + 1) */
  AscOp *set, *wait, *pre, *post, *pre2, *post2;
  AscOp *id_const;
  const AscOp *loop; /* carried by; NULL: within one pass */
  const AscOp *a, *b;
  const AscOp *after, *before; /* set after `after`, wait before `before` */
  int hazard;                  /* 'R' RAW, 'W' WAR, 'O' WAW */
  int space;
  int id;
} Sync;

typedef struct Walk {
  AscModule *m;
  AscContext *ctx;
  AscOp *func;
  AscBlock *body;
  int auto_sync;
  State st;
  uint32_t seq;
  Access *hist;
  size_t nh, caph;
  Flag *flags;
  size_t nf, capf;
  Sync *syncs;
  int ns, caps;
  struct {
    const AscOp *loop;
    int pass;
  } loops[MAX_DEPTH];
  int nloops;
  struct {
    uint32_t lo, hi;
  } excl[MAX_DEPTH];
  int nexcl;
  AscMemRefs refs;
  struct {
    const AscOp *loop;
    AscValue *parity;
  } parities[MAX_DEPTH];
  int nparities;
  unsigned char used_ids[N_EVENTS][N_IDS];
  unsigned char unknown_ids[N_EVENTS];
  long visits;
  int oom;
  int too_deep; /* nesting or visits beyond the limits */
} Walk;

/* ---- small helpers ------------------------------------------------------ */

/* asc_grow_array that records running out of memory in w (and returns p
 * as it was then). */
static void *grow(Walk *w, void *p, size_t *cap, size_t need, size_t elem) {
  if (asc_grow_array(&p, cap, need, elem))
    w->oom = 1;
  return p;
}

static void join(Clock *into, const Clock *c) {
  for (int i = 0; i < NP; i++)
    if (c->c[i] > into->c[i])
      into->c[i] = c->c[i];
}

static Clock publish(const Walk *w, int p) {
  Clock c = w->st.vc[p];
  c.c[p] = w->st.last[p];
  return c;
}

/* A wait on pipe q learned c. */
static void wait_on(Walk *w, int q, const Clock *c) {
  if (q == ASC_PIPE_S) {
    for (int i = 0; i < NP; i++)
      join(&w->st.vc[i], c);
  } else {
    join(&w->st.vc[q], c);
  }
}

/* The bytes a reference touches in the current pass of its loop (outside
 * it: in either half). */
static AscMemRef resolve(const Walk *w, AscMemRef r) {
  const AscOp *loop = asc_mem_ref_parity_loop(&r);
  if (!loop)
    return r;
  for (int i = w->nloops - 1; i >= 0; i--)
    if (w->loops[i].loop == loop)
      return asc_mem_ref_resolve(r, w->loops[i].pass);
  return asc_mem_ref_resolve(r, -1);
}

/* ---- building the sync ops ------------------------------------------------
 */

static AscOp *make_flag(Walk *w, AscOpId id, int64_t event, AscValue *eid,
                        AscLoc loc) {
  AscAttr a = {0};
  a.name = "event";
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = ASC_ENUM_HARDEVENT;
  a.i = event;
  return asc_op_create(w->ctx, id, loc, &eid, 1, NULL, 0, &a, 1, 0, NULL, NULL);
}

static AscOp *make_barrier(Walk *w, int64_t pipeid, AscLoc loc) {
  AscAttr a = {0};
  a.name = "pipe";
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = ASC_ENUM_PIPEID;
  a.i = pipeid;
  return asc_op_create(w->ctx, ASC_OP_PIPE_BARRIER, loc, NULL, 0, NULL, 0, &a,
                       1, 0, NULL, NULL);
}

/* The iteration parity of loop f, as a value made at the start of its body:
 * rem(div(sub(iv, lower), step), 2). */
static AscValue *loop_parity(Walk *w, AscOp *f) {
  for (int i = 0; i < w->nparities; i++)
    if (w->parities[i].loop == f)
      return w->parities[i].parity;
  AscBlock *body = f->regions[0].block;
  AscValue *iv = &body->args[0];
  AscOp *two = asc_make_int_constant(w->ctx, iv->type, 2, f->loc);
  AscOp *d = asc_make_binary(w->ctx, ASC_OP_SUB_S, iv, f->operands[0], f->loc);
  AscOp *q = asc_make_binary(w->ctx, ASC_OP_DIV_S, &d->results[0],
                             f->operands[2], f->loc);
  AscOp *p = asc_make_binary(w->ctx, ASC_OP_REM_S, &q->results[0],
                             &two->results[0], f->loc);
  asc_block_insert_before(body, body->first, p);
  asc_block_insert_before(body, p, q);
  asc_block_insert_before(body, q, d);
  asc_block_insert_before(body, d, two);
  if (w->nparities < MAX_DEPTH) {
    w->parities[w->nparities].loop = f;
    w->parities[w->nparities++].parity = &p->results[0];
  }
  return &p->results[0];
}

static Sync *new_sync(Walk *w) {
  size_t cap = (size_t)w->caps;
  w->syncs = grow(w, w->syncs, &cap, (size_t)w->ns + 1, sizeof *w->syncs);
  w->caps = (int)cap;
  if (w->oom)
    return NULL;
  Sync *s = &w->syncs[w->ns++];
  memset(s, 0, sizeof *s);
  s->id = -1;
  return s;
}

/* The ancestor of op in block b (op itself, or the op of b holding it). */
static AscOp *ancestor_in(AscOp *op, const AscBlock *b) {
  while (op && op->parent != b) {
    AscRegion *r = op->parent ? op->parent->parent : NULL;
    op = r ? r->parent : NULL;
  }
  return op;
}

/* The innermost block holding both a and b. */
static AscBlock *common_block(AscOp *a, AscOp *b) {
  for (AscBlock *x = a->parent; x;) {
    if (ancestor_in(b, x))
      return x;
    AscRegion *r = x->parent;
    x = r && r->parent ? r->parent->parent : NULL;
  }
  return NULL;
}

static int precedes(const AscOp *x, const AscOp *y) {
  for (const AscOp *o = x->next; o; o = o->next)
    if (o == y)
      return 1;
  return 0;
}

/* The innermost loop around block b (an scf.for or scf.while op). */
static AscOp *loop_around(const AscBlock *b) {
  while (b && b->parent) {
    AscOp *o = b->parent->parent;
    if (o->id == ASC_OP_FOR || o->id == ASC_OP_WHILE)
      return o;
    b = o->parent;
  }
  return NULL;
}

static int loop_pass(const Walk *w, const AscOp *l) {
  for (int i = w->nloops - 1; i >= 0; i--)
    if (w->loops[i].loop == l)
      return w->loops[i].pass;
  return -1;
}

/* Orders B (pipe q) after the earlier access e. */
static void add_sync(Walk *w, const Access *e, AscOp *b, int q,
                     const AscMemRef *br, int bwrite) {
  int p = e->pipe;
  Sync *s = new_sync(w);
  if (!s)
    return;
  s->a = e->op;
  s->b = b;
  s->hazard = e->write ? (bwrite ? 'O' : 'R') : 'W';
  s->space = br->space;
  int64_t event = p == q ? -1 : asc_event_of_pipes((AscPipe)p, (AscPipe)q);
  if (p == q || event < 0) {
    s->kind = SYNC_BARRIER;
    s->event = p == q ? asc_pipeid_of_pipe((AscPipe)p) : ASC_PIPEID_PIPE_ALL;
    s->wait = make_barrier(w, s->event, b->loc);
    asc_block_insert_before(b->parent, b, s->wait);
    if (p == q) {
      w->st.vc[q].c[q] = w->st.last[q];
    } else {
      for (int i = 0; i < NP; i++)
        for (int j = 0; j < NP; j++)
          w->st.vc[i].c[j] = w->st.last[j];
    }
    return;
  }
  s->kind = SYNC_FLAG;
  s->event = event;
  AscOp *a = (AscOp *)e->op;
  AscBlock *x = common_block(a, b);
  AscOp *a1 = x ? ancestor_in(a, x) : NULL, *b1 = x ? ancestor_in(b, x) : NULL;
  AscOp *loop = NULL;
  int forward = a1 && b1 && a1 != b1 && precedes(a1, b1);
  if (!forward && x) {
    loop = loop_around(x);
    if (loop && loop->id != ASC_OP_FOR)
      loop = NULL;
  }
  /* a carried conflict first met in the third pass is two iterations
   * apart: a double buffer, whose two halves get an event id each */
  int parity = loop && loop_pass(w, loop) == 2;
  if (forward || loop) { /* one pair serves every conflict it orders */
    for (int i = 0; i < w->ns - 1; i++) {
      const Sync *t = &w->syncs[i];
      if (t->kind == SYNC_FLAG && t->event == event && t->after == a1 &&
          t->before == b1 && t->loop == loop && t->parity == parity) {
        w->ns--;
        wait_on(w, q, &e->pub);
        return;
      }
    }
  }
  s->after = a1;
  s->before = b1;
  const AscType *it = parity ? loop->regions[0].block->args[0].type
                             : asc_type_scalar(w->ctx, ASC_DT_INT32);
  s->vid = VIRTUAL_ID0 + 2 * w->ns;
  s->id_const = asc_make_int_constant(w->ctx, it, s->vid, b->loc);
  asc_block_insert_before(w->body, w->body->first, s->id_const);
  AscValue *id0 = &s->id_const->results[0];
  if (!forward && !loop) {
    /* no structure to rely on: a set right before its wait */
    s->set = make_flag(w, ASC_OP_SET_FLAG, event, id0, b->loc);
    s->wait = make_flag(w, ASC_OP_WAIT_FLAG, event, id0, b->loc);
    asc_block_insert_before(b->parent, b, s->wait);
    asc_block_insert_before(b->parent, s->wait, s->set);
    wait_on(w, q, &e->pub);
    return;
  }
  AscValue *idv = id0;
  if (parity) {
    s->parity = 1;
    AscValue *par = loop_parity(w, loop);
    AscOp *add = asc_make_binary(w->ctx, ASC_OP_ADD_S, id0, par, b->loc);
    asc_block_insert_after(loop->regions[0].block, par->def, add);
    idv = &add->results[0];
  }
  s->set = make_flag(w, ASC_OP_SET_FLAG, event, idv, a->loc);
  s->wait = make_flag(w, ASC_OP_WAIT_FLAG, event, idv, b->loc);
  asc_block_insert_after(x, a1, s->set);
  asc_block_insert_before(x, b1, s->wait);
  if (loop) {
    s->loop = loop;
    AscBlock *lb = loop->parent;
    s->pre = make_flag(w, ASC_OP_SET_FLAG, event, id0, loop->loc);
    s->post = make_flag(w, ASC_OP_WAIT_FLAG, event, id0, loop->loc);
    asc_block_insert_before(lb, loop, s->pre);
    asc_block_insert_after(lb, loop, s->post);
    if (parity) {
      AscOp *one = asc_make_int_constant(w->ctx, it, s->vid + 1, loop->loc);
      asc_block_insert_after(w->body, s->id_const, one);
      s->pre2 =
          make_flag(w, ASC_OP_SET_FLAG, event, &one->results[0], loop->loc);
      s->post2 =
          make_flag(w, ASC_OP_WAIT_FLAG, event, &one->results[0], loop->loc);
      asc_block_insert_after(lb, s->pre, s->pre2);
      asc_block_insert_after(lb, s->post, s->post2);
    }
  }
  wait_on(w, q, &e->pub);
}

/* ---- the walk --------------------------------------------------------------
 */

static int excluded(const Walk *w, uint32_t seq) {
  for (int i = 0; i < w->nexcl; i++)
    if (seq >= w->excl[i].lo && seq < w->excl[i].hi)
      return 1;
  return 0;
}

static int self_ordered(const Walk *w, int p) {
  return p == ASC_PIPE_S || (p == ASC_PIPE_V && w->auto_sync);
}

typedef struct OpAccess {
  AscMemRef r;
  int write;
} OpAccess;

enum { MAX_OP_ACCESS = 40 };

static int op_accesses(Walk *w, const AscOp *op, OpAccess *out) {
  const AscOpInfo *info = asc_op_info(op->id);
  int n = 0;
  if (!info)
    return 0;
  for (int i = 0; i < op->n_operands && n < MAX_OP_ACCESS; i++) {
    const AscOperandSpec *sp =
        i < info->n_operands ? &info->operands[i]
                             : (info->variadic && info->n_operands
                                    ? &info->operands[info->n_operands - 1]
                                    : NULL);
    const AscValue *v = op->operands[i];
    if (!sp || !(sp->reads || sp->writes) || !v || !v->type)
      continue;
    int k = v->type->kind;
    if (k != ASC_TY_LOCAL_TENSOR && k != ASC_TY_GLOBAL_TENSOR &&
        k != ASC_TY_GLOBAL_ADDRESS)
      continue;
    AscMemRef r;
    if (k == ASC_TY_GLOBAL_ADDRESS) {
      r = asc_mem_ref_unknown(ASC_MEM_GM);
      r.root = asc_mem_ref_gm_root(&w->refs, v);
    } else {
      r = asc_mem_ref(&w->refs, v);
    }
    if (info->count_operand >= 0 && k == ASC_TY_LOCAL_TENSOR)
      asc_mem_ref_limit(&w->refs, &r, op->operands[info->count_operand],
                        (int64_t)asc_dtype_size(v->type->dtype));
    out[n].r = resolve(w, r);
    out[n].write = sp->writes ? 1 : 0;
    n++;
  }
  return n;
}

static void memory_op(Walk *w, AscOp *op, int q) {
  OpAccess acc[MAX_OP_ACCESS];
  int n = op_accesses(w, op, acc);
  if (!n)
    return;
  /* the latest unordered conflicting access of each pipe */
  long best[NP];
  int best_acc[NP];
  for (int p = 0; p < NP; p++)
    best[p] = -1;
  /* the scan stops below the oldest access some pipe may still conflict
   * with: pipes q is ordered after entirely, or that order themselves with
   * q, bound nothing */
  uint32_t floor = UINT32_MAX;
  for (int p = 0; p < NP; p++)
    if (w->st.last[p] > w->st.vc[q].c[p] && !(p == q && self_ordered(w, q)) &&
        w->st.vc[q].c[p] < floor)
      floor = w->st.vc[q].c[p];
  for (size_t h = w->nh; h-- > 0;) {
    const Access *e = &w->hist[h];
    if (e->seq <= floor)
      break;
    int p = e->pipe;
    if (best[p] >= 0 || e->seq <= w->st.vc[q].c[p] || excluded(w, e->seq))
      continue;
    if (p == q && (self_ordered(w, q) || e->r.space == ASC_MEM_GM))
      continue;
    for (int i = 0; i < n; i++)
      if ((acc[i].write || e->write) && asc_mem_ref_overlap(&acc[i].r, &e->r)) {
        best[p] = (long)h;
        best_acc[p] = i;
        break;
      }
  }
  for (;;) { /* newest first: its sync may order the older ones too */
    int pick = -1;
    for (int p = 0; p < NP; p++)
      if (best[p] >= 0 && (pick < 0 || best[p] > best[pick]))
        pick = p;
    if (pick < 0)
      break;
    const Access *e = &w->hist[best[pick]];
    if (e->seq > w->st.vc[q].c[pick])
      add_sync(w, e, op, q, &acc[best_acc[pick]].r, acc[best_acc[pick]].write);
    best[pick] = -1;
    if (w->oom)
      return;
  }
  uint32_t seq = ++w->seq;
  w->st.last[q] = seq;
  Clock pub = publish(w, q);
  w->hist = grow(w, w->hist, &w->caph, w->nh + (size_t)n, sizeof *w->hist);
  if (w->oom)
    return;
  for (int i = 0; i < n; i++) {
    Access *e = &w->hist[w->nh++];
    e->seq = seq;
    e->pipe = q;
    e->write = acc[i].write;
    e->r = acc[i].r;
    e->op = op;
    e->pub = pub;
  }
}

/* The sync we inserted that op is part of (set, wait, pre, post), or NULL;
 * *virt the virtual id it uses in the current pass. */
static const Sync *our_sync(const Walk *w, const AscOp *op, int64_t *virt) {
  for (int i = 0; i < w->ns; i++) {
    const Sync *s = &w->syncs[i];
    if (s->kind != SYNC_FLAG)
      continue;
    if (op == s->pre2 || op == s->post2) {
      *virt = s->vid + 1;
      return s;
    }
    if (op == s->set || op == s->wait || op == s->pre || op == s->post) {
      *virt = s->vid;
      if (s->parity && (op == s->set || op == s->wait)) {
        int pass = loop_pass(w, s->loop);
        *virt += pass > 0 ? pass % 2 : 0;
      }
      return s;
    }
  }
  return NULL;
}

static void flag_op(Walk *w, const AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "event");
  if (!a)
    return;
  int64_t event = a->i, id = -1;
  if (!our_sync(w, op, &id) && !asc_int_constant(op->operands[0], &id))
    id = -1;
  AscPipe p, q;
  asc_event_pipes(event, &p, &q);
  if (op->id == ASC_OP_SET_FLAG) {
    w->flags = grow(w, w->flags, &w->capf, w->nf + 1, sizeof *w->flags);
    if (w->oom)
      return;
    Flag *f = &w->flags[w->nf++];
    f->event = event;
    f->id = id;
    f->clk = publish(w, p);
    f->used = 0;
    return;
  }
  for (size_t i = 0; i < w->nf; i++) {
    Flag *f = &w->flags[i];
    if (!f->used && f->event == event && f->id == id) {
      f->used = 1;
      wait_on(w, q, &f->clk);
      return;
    }
  }
}

static void barrier_op(Walk *w, const AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "pipe");
  int p = a ? (int)asc_pipe_of_pipeid(a->i) : NP;
  if (p < NP) {
    w->st.vc[p].c[p] = w->st.last[p];
    return;
  }
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NP; j++)
      w->st.vc[i].c[j] = w->st.last[j];
}

static void meet(State *into, const State *s) {
  for (int i = 0; i < NP; i++) {
    for (int j = 0; j < NP; j++)
      if (s->vc[i].c[j] < into->vc[i].c[j])
        into->vc[i].c[j] = s->vc[i].c[j];
    if (s->last[i] > into->last[i])
      into->last[i] = s->last[i];
  }
}

/* 1 when the loop runs its body at least once (constant bounds). */
static int runs_once(const AscOp *f) {
  int64_t lo, hi, st;
  return asc_int_constant(f->operands[0], &lo) &&
         asc_int_constant(f->operands[1], &hi) &&
         asc_int_constant(f->operands[2], &st) && st > 0 && lo < hi;
}

static int has_parity_in(Walk *w, const AscOp *loop, const AscBlock *b) {
  for (const AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_results; i++) {
      const AscValue *v = &op->results[i];
      if (v->type && v->type->kind == ASC_TY_LOCAL_TENSOR) {
        AscMemRef r = asc_mem_ref(&w->refs, v);
        if (asc_mem_ref_parity_loop(&r) == loop)
          return 1;
      }
    }
    for (int r = 0; r < op->n_regions; r++)
      if (has_parity_in(w, loop, op->regions[r].block))
        return 1;
  }
  return 0;
}

static void walk_block(Walk *w, AscBlock *b, int depth);

static void walk_op(Walk *w, AscOp *op, int depth) {
  switch (op->id) {
  case ASC_OP_FOR:
  case ASC_OP_WHILE: {
    if (depth >= MAX_DEPTH || w->nloops >= MAX_DEPTH) {
      w->too_deep = 1;
      return;
    }
    State before = w->st;
    int passes =
        op->id == ASC_OP_FOR && has_parity_in(w, op, op->regions[0].block) ? 3
                                                                           : 2;
    w->loops[w->nloops].loop = op;
    w->nloops++;
    for (int k = 0; k < passes && !w->oom; k++) {
      w->loops[w->nloops - 1].pass = k;
      for (int r = 0; r < op->n_regions; r++)
        walk_block(w, op->regions[r].block, depth + 1);
    }
    w->nloops--;
    if (op->id != ASC_OP_FOR || !runs_once(op))
      meet(&w->st, &before);
    return;
  }
  case ASC_OP_IF: {
    if (depth >= MAX_DEPTH || w->nexcl >= MAX_DEPTH) {
      w->too_deep = 1;
      return;
    }
    State before = w->st;
    uint32_t lo = w->seq + 1;
    walk_block(w, op->regions[0].block, depth + 1);
    if (op->n_regions < 2) {
      meet(&w->st, &before);
      return;
    }
    State then_state = w->st;
    w->st = before;
    for (int i = 0; i < NP; i++)
      w->st.last[i] = then_state.last[i];
    w->excl[w->nexcl].lo = lo;
    w->excl[w->nexcl].hi = w->seq + 1;
    w->nexcl++;
    walk_block(w, op->regions[1].block, depth + 1);
    w->nexcl--;
    meet(&w->st, &then_state);
    return;
  }
  case ASC_OP_SET_FLAG:
  case ASC_OP_WAIT_FLAG:
    flag_op(w, op);
    return;
  case ASC_OP_PIPE_BARRIER:
    barrier_op(w, op);
    return;
  default: {
    const AscOpInfo *info = asc_op_info(op->id);
    if (info && info->pipe < ASC_PIPE_COUNT)
      memory_op(w, op, info->pipe);
    return;
  }
  }
}

static void walk_block(Walk *w, AscBlock *b, int depth) {
  for (AscOp *op = b->first; op && !w->oom && !w->too_deep; op = op->next) {
    if (++w->visits > VISIT_BUDGET) {
      w->too_deep = 1;
      return;
    }
    walk_op(w, op, depth);
  }
}

/* ---- event ids
 * --------------------------------------------------------------- */

typedef struct PosEntry {
  const AscOp *op;
  int pos;
} PosEntry;

typedef struct Positions {
  PosEntry *e;
  size_t n, cap;
} Positions;

static void number_ops(Walk *w, Positions *ps, const AscBlock *b) {
  for (const AscOp *op = b->first; op && !w->oom; op = op->next) {
    ps->e = grow(w, ps->e, &ps->cap, ps->n + 1, sizeof *ps->e);
    if (w->oom)
      return;
    ps->e[ps->n].op = op;
    ps->e[ps->n].pos = (int)ps->n;
    ps->n++;
    for (int r = 0; r < op->n_regions; r++)
      number_ops(w, ps, op->regions[r].block);
  }
}

static int cmp_pos(const void *x, const void *y) {
  uintptr_t a = (uintptr_t)((const PosEntry *)x)->op;
  uintptr_t b = (uintptr_t)((const PosEntry *)y)->op;
  return a < b ? -1 : a > b;
}

static int pos_of(const Positions *ps, const AscOp *op) {
  PosEntry key = {op, 0};
  const PosEntry *e = bsearch(&key, ps->e, ps->n, sizeof *ps->e, cmp_pos);
  return e ? e->pos : -1;
}

static void sync_range(const Positions *ps, const Sync *s, int *lo, int *hi) {
  *lo = pos_of(ps, s->pre ? s->pre : s->set);
  *hi = pos_of(ps, s->post2 ? s->post2 : s->post ? s->post : s->wait);
}

/* Replaces a flag sync by a pipe_barrier(PIPE_ALL) where its wait was. */
static void to_barrier(Walk *w, Sync *s) {
  AscOp *bar = make_barrier(w, ASC_PIPEID_PIPE_ALL, s->wait->loc);
  asc_block_insert_before(s->wait->parent, s->wait, bar);
  AscOp *ops[6] = {s->set, s->wait, s->pre, s->post, s->pre2, s->post2};
  for (int i = 0; i < 6; i++)
    if (ops[i])
      asc_block_remove(ops[i]->parent, ops[i]);
  s->kind = SYNC_BARRIER;
  s->event = ASC_PIPEID_PIPE_ALL;
  s->wait = bar;
  s->set = s->pre = s->post = s->pre2 = s->post2 = NULL;
}

typedef struct Live {
  int lo, hi, sync;
} Live;

static int cmp_live(const void *x, const void *y) {
  const Live *a = x, *b = y;
  return a->lo != b->lo ? (a->lo < b->lo ? -1 : 1) : a->sync - b->sync;
}

/* Interval colouring per HardEvent: the pairs in order of their first op,
 * each taking the lowest id (pair) no live pair of its event holds. */
static void assign_ids(Walk *w) {
  Positions ps = {0};
  size_t cap = 0;
  Live *live = NULL;
  int *active = NULL, n_active = 0, n = 0;
  number_ops(w, &ps, w->body);
  if (!w->oom) {
    qsort(ps.e, ps.n, sizeof *ps.e, cmp_pos);
    live = grow(w, NULL, &cap, (size_t)w->ns + 1, sizeof *live);
    active = w->oom ? NULL : malloc(((size_t)w->ns + 1) * sizeof *active);
    if (!active)
      w->oom = 1;
  }
  for (int i = 0; !w->oom && i < w->ns; i++)
    if (w->syncs[i].kind == SYNC_FLAG) {
      sync_range(&ps, &w->syncs[i], &live[n].lo, &live[n].hi);
      live[n++].sync = i;
    }
  if (!w->oom)
    qsort(live, (size_t)n, sizeof *live, cmp_live);
  for (int k = 0; !w->oom && k < n; k++) {
    Sync *s = &w->syncs[live[k].sync];
    int kept = 0; /* drop the pairs that ended before this one starts */
    for (int a = 0; a < n_active; a++)
      if (live[active[a]].hi >= live[k].lo)
        active[kept++] = active[a];
    n_active = kept;
    unsigned char busy[N_IDS];
    memcpy(busy, w->used_ids[s->event], sizeof busy);
    for (int a = 0; a < n_active; a++) {
      const Sync *t = &w->syncs[live[active[a]].sync];
      if (t->kind != SYNC_FLAG || t->event != s->event || t->id < 0)
        continue;
      busy[t->id] = 1;
      if (t->parity)
        busy[t->id + 1] = 1;
    }
    int need = s->parity ? 2 : 1;
    for (int id = 0; id + need <= N_GIVEN_IDS; id++)
      if (!busy[id] && (need == 1 || !busy[id + 1])) {
        s->id = id;
        break;
      }
    if (s->id < 0) {
      to_barrier(w, s);
      continue;
    }
    s->id_const->attrs[0].i = s->id;
    if (s->pre2) /* the second id's constant follows the first */
      s->pre2->operands[0]->def->attrs[0].i = s->id + 1;
    active[n_active++] = k;
  }
  free(active);
  free(live);
  free(ps.e);
}

/* ---- the log ----------------------------------------------------------------
 */

static const char *op_api(const AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  return info ? info->api : "?";
}

static void log_syncs(Walk *w) {
  int flags = 0, barriers = 0;
  for (int i = 0; i < w->ns; i++) {
    const Sync *s = &w->syncs[i];
    const char *hz = s->hazard == 'R'   ? "read after write"
                     : s->hazard == 'W' ? "write after read"
                                        : "write after write";
    const char *space = s->space == ASC_MEM_GM ? "GM" : "UB";
    char where[256];
    snprintf(where, sizeof where, "%s at %s:%d before %s at %s:%d (%s, %s)",
             op_api(s->a), s->a->loc.file ? s->a->loc.file : "?",
             s->a->loc.line, op_api(s->b),
             s->b->loc.file ? s->b->loc.file : "?", s->b->loc.line, hz, space);
    if (s->kind == SYNC_BARRIER) {
      barriers++;
      asc_module_log(w->m, "insert-sync: pipe_barrier %s: %s",
                     asc_enum_value_name(ASC_ENUM_PIPEID, s->event), where);
      continue;
    }
    flags++;
    char ids[64];
    if (s->parity)
      snprintf(ids, sizeof ids, "ids %d/%d by iteration parity", s->id,
               s->id + 1);
    else
      snprintf(ids, sizeof ids, "id %d", s->id);
    char carried[160] = "";
    if (s->loop)
      snprintf(carried, sizeof carried,
               "; carried by the loop at %s:%d (set before it, waited after "
               "it)",
               s->loop->loc.file ? s->loop->loc.file : "?", s->loop->loc.line);
    asc_module_log(w->m, "insert-sync: set_flag/wait_flag %s %s: %s%s",
                   asc_enum_value_name(ASC_ENUM_HARDEVENT, s->event), ids,
                   where, carried);
  }
  asc_module_log(w->m,
                 "insert-sync: %d set_flag/wait_flag pairs, %d pipe_barriers "
                 "inserted",
                 flags, barriers);
}

/* ---- the pass
 * ------------------------------------------------------------------ */

static void scan_user_ids(Walk *w, const AscBlock *b) {
  for (const AscOp *op = b->first; op; op = op->next) {
    if (op->id == ASC_OP_SET_FLAG || op->id == ASC_OP_WAIT_FLAG) {
      const AscAttr *a = asc_op_attr(op, "event");
      int64_t id;
      if (a && a->i >= 0 && a->i < N_EVENTS) {
        if (asc_int_constant(op->operands[0], &id) && id >= 0 && id < N_IDS)
          w->used_ids[a->i][id] = 1;
        else
          w->unknown_ids[a->i] = 1;
      }
    }
    for (int r = 0; r < op->n_regions; r++)
      scan_user_ids(w, op->regions[r].block);
  }
}

/* `replace`: the kernel's own set_flag / wait_flag / pipe_barrier go. */
static void erase_user_syncs(AscBlock *b) {
  for (AscOp *op = b->first; op;) {
    AscOp *next = op->next;
    if (op->id == ASC_OP_SET_FLAG || op->id == ASC_OP_WAIT_FLAG ||
        op->id == ASC_OP_PIPE_BARRIER)
      asc_block_remove(b, op);
    else
      for (int r = 0; r < op->n_regions; r++)
        erase_user_syncs(op->regions[r].block);
    op = next;
  }
}

static const AscOp *find_call(const AscBlock *b) {
  for (const AscOp *op = b->first; op; op = op->next) {
    if (op->id == ASC_OP_CALL)
      return op;
    for (int r = 0; r < op->n_regions; r++) {
      const AscOp *c = find_call(op->regions[r].block);
      if (c)
        return c;
    }
  }
  return NULL;
}

static int has_option(const char *opts, const char *name) {
  size_t n = strlen(name);
  for (const char *p = opts; (p = strstr(p, name)) != NULL; p += n)
    if ((p == opts || p[-1] == ',' || p[-1] == ' ') &&
        (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
      return 1;
  return 0;
}

AscStatus asc_pass_insert_sync(AscModule *m, const char *opts) {
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC || !asc_op_attr_int(f, "kernel", 0) ||
        !f->n_regions)
      continue;
    AscBlock *body = f->regions[0].block;
    const AscOp *call = find_call(body);
    if (call)
      return asc_error(m->ctx, ASC_ERR_COMPILE, call->loc,
                       "insert-sync: the kernel still calls '%s'; run the "
                       "inline pass first",
                       asc_op_attr_str(call, "callee")
                           ? asc_op_attr_str(call, "callee")
                           : "?");
    Walk w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.ctx = m->ctx;
    w.func = f;
    w.body = body;
    w.refs.body = body;
    w.auto_sync = has_option(opts, "auto-sync");
    if (has_option(opts, "replace"))
      erase_user_syncs(body);
    scan_user_ids(&w, body);
    walk_block(&w, body, 0);
    if (!w.oom && !w.too_deep)
      assign_ids(&w);
    if (!w.oom && !w.too_deep)
      log_syncs(&w);
    int oom = w.oom || w.refs.oom, too_deep = w.too_deep;
    free(w.hist);
    free(w.flags);
    free(w.syncs);
    asc_mem_refs_free(&w.refs);
    if (oom)
      return asc_error(m->ctx, ASC_ERR_INTERNAL, f->loc,
                       "insert-sync: out of memory");
    if (too_deep)
      return asc_error(m->ctx, ASC_ERR_COMPILE, f->loc,
                       "insert-sync: the kernel's loops and branches are "
                       "nested too deeply to analyse (more than %d levels, or "
                       "more than %ld operations visited); write its syncs "
                       "by hand and compile it with insert_sync=False",
                       MAX_DEPTH, VISIT_BUDGET);
  }
  return ASC_OK;
}
