/* plan-ub: addresses in the Unified Buffer for asc.local_tensor_auto.
 *
 * Every auto tensor of the kernel gets bytes of one pool, a TBuf at VECCALC
 * that the pass creates and initialises on the kernel's TPipe:
 *
 *   %pipe = asc.tpipe                 (the kernel's own top-level one, if any)
 *   %pool = asc.tbuf : !asc.tbuf<VECCALC>
 *   asc.tpipe.init_buffer_buf(%pipe, %pool, %bytes)
 *
 * and each auto tensor becomes asc.tbuf.get_with_offset(%pool, %length,
 * %offset) (length in elements, offset in bytes: the devkit's
 * TBuf::GetWithOffset, whose page says the offset is 32-byte aligned).
 * Single-buffered tensors take a constant offset and their get is hoisted
 * to the kernel entry, after the init. A double-buffered tensor of an
 * scf.for body keeps its place and alternates between two slots:
 *
 *   %p = arith.rem(%iv, 2)     (lower bound 0, step 1; otherwise
 *                               arith.rem(arith.div(arith.sub(%iv, %lower),
 *                               %step), 2))
 *   %o = arith.add(arith.mul(%p, %slot_bytes), %base_bytes)
 *
 * The sync-insertion pass recognises exactly these forms; keep them.
 *
 * Lifetimes: the kernel body is numbered in program order (nested regions
 * in place); a tensor lives from its definition to its last use (uses of
 * views and of values that carry it through control flow count); a use in
 * a loop that does not contain the definition extends to that loop's end;
 * a tensor carried from one iteration to the next (scf.yield, while
 * arguments) and a double-buffered one live through their whole loop.
 * Tensors whose lifetimes do not overlap may share bytes: first fit, the
 * largest tensors placed first.
 *
 * Options: `ub=N`, the UB bytes the kernel may use (the compiler passes
 * what the kernel's reserved parts leave of its platform's UB:
 * Module.reserve). Default: the same for the Ascend910B, from the kernel
 * itself (asc_kernel_reserve: 256 bytes less for a MIX kernel, or one whose
 * kernel type is not set yet; 8 KiB less for one using an API of
 * 静态Tensor编程.md's table 5; src/sim/reserve.c). Constant-size
 * init_buffer calls of the kernel take their bytes off it.
 *
 * family: tiles (cube). Auto tensors at a cube position are planned the
 * same way, one pool per memory: a TBuf at A1 (L1), A2 (L0A), B2 (L0B) or
 * CO1 (L0C) (Ascend C's TBuf takes these positions; TBuf构造函数.md), each
 * with its memory's capacity on the Ascend910B (L1: what the kernel's
 * reserved part leaves, L0A / L0B 64 KiB, L0C the platform's), its tensors
 * 512-byte aligned (a fractal); the UB options do not apply to them. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "pass.h"

enum { UB_ALIGN = 32, CUBE_ALIGN = 512, L0AB_BYTES = 64 * 1024 };

/* The memory (pool) of an auto tensor's position: its group. */
static int group_of(int position) {
  switch (position) {
  case ASC_TPOSITION_A1:
  case ASC_TPOSITION_B1:
    return ASC_TPOSITION_A1;
  case ASC_TPOSITION_A2:
  case ASC_TPOSITION_B2:
  case ASC_TPOSITION_CO1:
    return position;
  default:
    return ASC_TPOSITION_VECCALC;
  }
}

static const char *group_name(int group) {
  switch (group) {
  case ASC_TPOSITION_A1:
    return "L1";
  case ASC_TPOSITION_A2:
    return "L0A";
  case ASC_TPOSITION_B2:
    return "L0B";
  case ASC_TPOSITION_CO1:
    return "L0C";
  default:
    return "UB";
  }
}

typedef struct Loop {
  AscOp *op;
  int start, end; /* positions of the loop op and of its last nested op */
  int depth;      /* loops around it */
} Loop;

typedef struct Tensor {
  AscOp *op; /* the asc.local_tensor_auto */
  int cls;   /* union-find parent */
  int64_t length, elem_bytes, bytes;
  int def, last; /* lifetime (positions) */
  int last_line; /* the Python line of the last use */
  int depth;     /* loops around the definition */
  int loop;      /* innermost loop around it (index in loops), or -1 */
  int ext_loop;  /* outermost loop used in that does not hold the def */
  int carried;   /* loop-carried: lives through loop `carried_loop` */
  int carried_loop;
  unsigned pipes; /* pipes that access it in its loop (bit per AscPipe) */
  int unknown;    /* used by a call whose effects are not known */
  int slots;      /* 1 or 2 */
  const char *why;
  int64_t offset;
  int dynamic;   /* runtime dims (the op's operands): length is the
                    compile-time factor, the bytes are known at run time */
  AscValue *end; /* dynamic: the pool byte after it (aligned), at run time */
  int op_pos;    /* the position of its definition (def may move earlier) */
  int64_t align; /* its bytes' alignment (UB 32, cube memories 512) */
} Tensor;

typedef struct Plan {
  AscModule *m;
  AscContext *ctx;
  /* the reserved parts of the UB that apply to the kernel: why it may use
   * what it may (asc_kernel_reserve) */
  AscReserve reserve;
  Tensor *t;
  int n, cap;
  Loop *loops;
  int n_loops, cap_loops;
  int stack[64]; /* enclosing loops during the walk */
  int depth;
  int pos;
  int oom;
  int group; /* the memory planned: group_of() of the tensors' position */
} Plan;

static int grow(void **p, int *cap, int need, size_t size) {
  size_t c = (size_t)*cap;
  if (need < 0 || asc_grow_array(p, &c, (size_t)need, size) || c > INT_MAX)
    return -1;
  *cap = (int)c;
  return 0;
}

static int find(Plan *p, int i) {
  while (p->t[i].cls != i)
    i = p->t[i].cls = p->t[p->t[i].cls].cls;
  return i;
}

/* The class of the tensor a value holds (AscValue.id), or -1. */
static int cls_of(Plan *p, const AscValue *v) {
  return v && v->id >= 0 && v->id < p->n ? find(p, v->id) : -1;
}

static void unite(Plan *p, int a, int b) {
  a = find(p, a);
  b = find(p, b);
  if (a != b)
    p->t[b].cls = a;
}

/* v carries class c (joined with what it carried before). */
static void assign(Plan *p, AscValue *v, int c) {
  if (c < 0 || !v)
    return;
  int old = cls_of(p, v);
  if (old >= 0)
    unite(p, old, c);
  else
    v->id = c;
}

static int is_local(const AscValue *v) {
  return v && v->type && v->type->kind == ASC_TY_LOCAL_TENSOR;
}

/* ---- the walk: lifetimes, aliases, pipes -------------------------------- */

/* A use of class c at the current position by op (pipe bits when the op
 * touches the tensor's memory). */
static void use(Plan *p, int c, const AscOp *op, unsigned pipes) {
  if (c < 0)
    return;
  /* every tensor of the class: the class is planned as one */
  for (int i = 0; i < p->n; i++) {
    if (find(p, i) != c)
      continue;
    Tensor *t = &p->t[i];
    if (p->pos > t->last) {
      t->last = p->pos;
      t->last_line = op->loc.line;
    }
    if (p->depth > t->depth) {
      int l = p->stack[t->depth];
      if (t->ext_loop < 0 || p->loops[l].depth < p->loops[t->ext_loop].depth)
        t->ext_loop = l;
    }
    t->pipes |= pipes;
  }
}

static void carry(Plan *p, int c, int loop) {
  if (c < 0 || loop < 0)
    return;
  for (int i = 0; i < p->n; i++)
    if (find(p, i) == c) {
      Tensor *t = &p->t[i];
      if (!t->carried || p->loops[loop].depth < p->loops[t->carried_loop].depth)
        t->carried_loop = loop;
      t->carried = 1;
    }
}

static AscOp *callee_of(Plan *p, const AscOp *call) {
  const char *name = asc_op_attr_str(call, "callee");
  return name ? asc_module_find_function(p->m, name) : NULL;
}

/* The pipes at which function f (and what it calls) touches the memory of
 * its parameter k (directly or through views); depth bounds recursion. */
static unsigned param_pipes(Plan *p, AscOp *f, int k, int depth, int *unknown);

static unsigned block_pipes(Plan *p, AscBlock *b, const AscValue **vals, int *n,
                            int cap, int depth, int *unknown) {
  unsigned pipes = 0;
  for (AscOp *op = b->first; op; op = op->next) {
    const AscOpInfo *info = asc_op_info(op->id);
    int touched = 0;
    for (int i = 0; i < op->n_operands; i++) {
      int hit = 0;
      for (int j = 0; j < *n; j++)
        hit |= op->operands[i] == vals[j];
      if (!hit)
        continue;
      touched = 1;
      if (op->id == ASC_OP_CALL) {
        AscOp *f = callee_of(p, op);
        if (f)
          pipes |= param_pipes(p, f, i, depth + 1, unknown);
        else
          *unknown = 1;
      } else if (i < info->n_operands &&
                 (info->operands[i].reads || info->operands[i].writes) &&
                 info->pipe < ASC_PIPE_COUNT) {
        pipes |= 1u << info->pipe;
      } else if (op->n_regions) {
        *unknown = 1; /* a tensor carried into a loop of the callee */
      }
    }
    if (touched)
      for (int r = 0; r < op->n_results; r++)
        if (is_local(&op->results[r]) && *n < cap)
          vals[(*n)++] = &op->results[r];
    for (int r = 0; r < op->n_regions; r++)
      pipes |=
          block_pipes(p, op->regions[r].block, vals, n, cap, depth, unknown);
  }
  return pipes;
}

static unsigned param_pipes(Plan *p, AscOp *f, int k, int depth, int *unknown) {
  AscBlock *b = f->regions[0].block;
  if (depth > 16 || k >= b->n_args) {
    *unknown = 1;
    return 0;
  }
  const AscValue *vals[64];
  int n = 1;
  vals[0] = &b->args[k];
  return block_pipes(p, b, vals, &n, 64, depth, unknown);
}

static void walk_block(Plan *p, AscBlock *b);

static int innermost_loop(Plan *p) {
  return p->depth ? p->stack[p->depth - 1] : -1;
}

static void walk_op(Plan *p, AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  p->pos++;
  if (op->id == ASC_OP_LT_AUTO &&
      group_of(op->results[0].type->position) == p->group) {
    if (grow((void **)&p->t, &p->cap, p->n + 1, sizeof *p->t)) {
      p->oom = 1;
      return;
    }
    Tensor *t = &p->t[p->n];
    memset(t, 0, sizeof *t);
    t->op = op;
    t->cls = p->n;
    t->length = asc_op_attr_int(op, "length", 0);
    t->elem_bytes = (int64_t)asc_dtype_size(op->results[0].type->dtype);
    t->def = t->last = t->op_pos = p->pos;
    t->last_line = op->loc.line;
    t->depth = p->depth;
    t->loop = innermost_loop(p);
    t->ext_loop = -1;
    t->slots = 1;
    t->dynamic = op->n_operands > 0;
    t->align = p->group == ASC_TPOSITION_VECCALC ? UB_ALIGN : CUBE_ALIGN;
    op->results[0].id = p->n;
    p->n++;
    return;
  }
  /* uses */
  for (int i = 0; i < op->n_operands; i++) {
    int c = cls_of(p, op->operands[i]);
    if (c < 0)
      continue;
    unsigned pipes = 0;
    if (op->id == ASC_OP_CALL) {
      AscOp *f = callee_of(p, op);
      int unknown = !f;
      if (f)
        pipes = param_pipes(p, f, i, 0, &unknown);
      if (unknown)
        for (int j = 0; j < p->n; j++)
          if (find(p, j) == c)
            p->t[j].unknown = 1;
    } else if (i < info->n_operands &&
               (info->operands[i].reads || info->operands[i].writes) &&
               info->pipe < ASC_PIPE_COUNT) {
      pipes = 1u << info->pipe;
    }
    use(p, c, op, pipes);
  }
  /* views and control flow carry classes to other values */
  switch (op->id) {
  case ASC_OP_FOR:
  case ASC_OP_WHILE: {
    if (grow((void **)&p->loops, &p->cap_loops, p->n_loops + 1,
             sizeof *p->loops) ||
        p->depth >= (int)(sizeof p->stack / sizeof p->stack[0])) {
      p->oom = 1;
      return;
    }
    int l = p->n_loops++;
    p->loops[l] = (Loop){op, p->pos, p->pos, p->depth};
    int first_init = op->id == ASC_OP_FOR ? 3 : 0;
    AscBlock *body = op->regions[0].block;
    for (int i = first_init; i < op->n_operands; i++) {
      int c = cls_of(p, op->operands[i]);
      int a = i - first_init + (op->id == ASC_OP_FOR ? 1 : 0);
      if (c >= 0 && a < body->n_args) {
        assign(p, &body->args[a], c);
        carry(p, c, l);
      }
      if (c >= 0 && i - first_init < op->n_results)
        assign(p, &op->results[i - first_init], c);
    }
    p->stack[p->depth++] = l;
    for (int r = 0; r < op->n_regions; r++)
      walk_block(p, op->regions[r].block);
    p->depth--;
    p->loops[l].end = p->pos;
    return;
  }
  case ASC_OP_IF:
    for (int r = 0; r < op->n_regions; r++)
      walk_block(p, op->regions[r].block);
    return;
  case ASC_OP_YIELD:
  case ASC_OP_CONDITION: {
    AscOp *parent =
        op->parent && op->parent->parent ? op->parent->parent->parent : NULL;
    if (!parent)
      return;
    int skip = op->id == ASC_OP_CONDITION ? 1 : 0;
    int l = parent->id == ASC_OP_IF ? -1 : innermost_loop(p);
    for (int i = skip; i < op->n_operands; i++) {
      int c = cls_of(p, op->operands[i]);
      if (c < 0)
        continue;
      int k = i - skip;
      if (k < parent->n_results)
        assign(p, &parent->results[k], c);
      if (parent->id == ASC_OP_WHILE) {
        for (int r = 0; r < parent->n_regions; r++) {
          AscBlock *rb = parent->regions[r].block;
          if (k < rb->n_args)
            assign(p, &rb->args[k], c);
        }
      } else if (parent->id == ASC_OP_FOR) {
        AscBlock *rb = parent->regions[0].block;
        if (k + 1 < rb->n_args)
          assign(p, &rb->args[k + 1], c);
      }
      carry(p, cls_of(p, op->operands[i]), l);
    }
    return;
  }
  case ASC_OP_LT_SET_ADDR_WITH_OFFSET:
  case ASC_OP_ADV_SORT_CONCAT: /* family: adv sort: concat = src */
    /* the tensor operand takes over src's memory from here on */
    if (op->n_operands > 1)
      assign(p, op->operands[0], cls_of(p, op->operands[1]));
    break;
  default:
    break;
  }
  for (int i = 0; i < op->n_operands; i++) {
    int c = cls_of(p, op->operands[i]);
    if (c < 0)
      continue;
    for (int r = 0; r < op->n_results; r++)
      if (is_local(&op->results[r]))
        assign(p, &op->results[r], c);
  }
  for (int r = 0; r < op->n_regions; r++)
    walk_block(p, op->regions[r].block);
}

static void walk_block(Plan *p, AscBlock *b) {
  for (AscOp *op = b->first; op && !p->oom; op = op->next)
    walk_op(p, op);
}

/* ---- packing --------------------------------------------------------------
 */

static int64_t align_up(int64_t x) {
  return (x + UB_ALIGN - 1) / UB_ALIGN * UB_ALIGN;
}

static int64_t align_to(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

static int64_t footprint(const Tensor *t) {
  /* runtime-sized tensors live above the packed ones (dynamic_offsets) */
  return t->dynamic ? 0 : align_to(t->bytes, t->align) * t->slots;
}

static int overlap_time(const Tensor *a, const Tensor *b) {
  return a->def <= b->last && b->def <= a->last;
}

static int cmp_size(const void *x, const void *y, void *arg) {
  const Plan *p = arg;
  const Tensor *a = &p->t[*(const int *)x], *b = &p->t[*(const int *)y];
  int64_t fa = footprint(a), fb = footprint(b);
  if (fa != fb)
    return fa > fb ? -1 : 1;
  return a->def != b->def ? (a->def < b->def ? -1 : 1) : 0;
}

/* First fit, largest first; returns the pool size. */
static int64_t pack(Plan *p, int *order) {
  for (int i = 0; i < p->n; i++)
    order[i] = i;
  /* insertion sort (qsort has no context argument in C11) */
  for (int i = 1; i < p->n; i++)
    for (int j = i; j > 0 && cmp_size(&order[j], &order[j - 1], p) < 0; j--) {
      int tmp = order[j];
      order[j] = order[j - 1];
      order[j - 1] = tmp;
    }
  int64_t total = 0;
  for (int i = 0; i < p->n; i++) {
    Tensor *t = &p->t[order[i]];
    int64_t size = footprint(t), off = 0;
    for (int moved = 1; moved;) {
      moved = 0;
      for (int j = 0; j < i; j++) {
        const Tensor *o = &p->t[order[j]];
        if (overlap_time(t, o) && off < o->offset + footprint(o) &&
            o->offset < off + size) {
          off = o->offset + footprint(o);
          moved = 1;
        }
      }
    }
    t->offset = off;
    if (off + size > total)
      total = off + size;
  }
  return total;
}

/* ---- rewriting -------------------------------------------------------------
 */

static AscValue *constant(Plan *p, AscBlock *b, AscOp **after, AscLoc loc,
                          const AscType *ty, int64_t v) {
  AscOp *op = asc_make_int_constant(p->ctx, ty, v, loc);
  asc_block_insert_after(b, *after, op);
  *after = op;
  return &op->results[0];
}

static AscValue *binary(Plan *p, AscBlock *b, AscOp **after, AscLoc loc,
                        AscOpId id, AscValue *x, AscValue *y) {
  AscOp *op = asc_make_binary(p->ctx, id, x, y, loc);
  asc_block_insert_after(b, *after, op);
  *after = op;
  return &op->results[0];
}

static AscOp *simple(Plan *p, AscBlock *b, AscOp **after, AscLoc loc,
                     AscOpId id, AscValue **ops, int n, const AscType *ty) {
  AscOp *op = asc_op_create(p->ctx, id, loc, ops, n, ty ? &ty : NULL,
                            ty ? 1 : 0, NULL, 0, 0, NULL, NULL);
  asc_block_insert_after(b, *after, op);
  *after = op;
  return op;
}

static const char *pipe_names(unsigned pipes, char *buf, size_t size) {
  static const char *names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
  buf[0] = '\0';
  size_t n = 0;
  for (int i = 0; i < ASC_PIPE_COUNT; i++)
    if (pipes & (1u << i))
      n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s",
                            n ? "," : "", names[i]);
  return buf;
}

static const char *tensor_name(const Tensor *t, char *buf, size_t size) {
  const char *name = t->op->results[0].name;
  if (name)
    snprintf(buf, size, "%s", name);
  else
    snprintf(buf, size, "LocalTensorAuto");
  return buf;
}

static const char *base_name(const char *file) {
  if (!file)
    return "?";
  const char *s = strrchr(file, '/');
  return s ? s + 1 : file;
}

/* An asc.local_tensor_auto or a TPipe in a function other than the kernel:
 * the plan covers one function (calls are inlined first). */
static int holds_op(const AscBlock *b, AscOpId id, const AscOp **found) {
  for (const AscOp *op = b->first; op; op = op->next) {
    if (op->id == id) {
      *found = op;
      return 1;
    }
    for (int r = 0; r < op->n_regions; r++)
      if (holds_op(op->regions[r].block, id, found))
        return 1;
  }
  return 0;
}

/* Bytes the kernel's own constant-size init_buffer calls take in the
 * memory of `group`. */
static int64_t user_bytes(const AscBlock *b, int group) {
  int64_t sum = 0;
  for (const AscOp *op = b->first; op; op = op->next) {
    int64_t num = 1, len = 0;
    if ((op->id == ASC_OP_INIT_BUFFER_QUE && op->n_operands >= 4 &&
         asc_int_constant(op->operands[2], &num) &&
         asc_int_constant(op->operands[3], &len)) ||
        ((op->id == ASC_OP_INIT_BUFFER_BUF ||
          op->id == ASC_OP_TPIPE_INIT_BUF_POOL) &&
         op->n_operands >= 3 && asc_int_constant(op->operands[2], &len)))
      if (num > 0 && len > 0 && len < ((int64_t)1 << 40) &&
          group_of(op->operands[1]->type->position) == group)
        sum += num * align_up(len);
    for (int r = 0; r < op->n_regions; r++)
      sum += user_bytes(op->regions[r].block, group);
  }
  return sum;
}

static AscStatus fail_capacity(Plan *p, int64_t need, int64_t cap, int64_t ub,
                               int64_t taken) {
  /* why the kernel may use `ub` bytes, when that is what its reserved
   * parts leave of the Ascend910B's UB (else ub= was given to the pass) */
  char why[768], tail[1024];
  const AscPlatform *pf = asc_platform_get("Ascend910B1");
  if (pf && asc_reserve_ub_user(&p->reserve, pf) == ub)
    asc_reserve_ub_note(&p->reserve, pf, why, sizeof why);
  else
    snprintf(why, sizeof why, "the pass was given ub=%lld", (long long)ub);
  int k = snprintf(tail, sizeof tail,
                   "): %lld bytes needed, the kernel has %lld (the %lld bytes "
                   "of the UB it may use, less %lld taken by its init_buffer "
                   "calls; %s)",
                   (long long)need, (long long)cap, (long long)ub,
                   (long long)taken, why);
  size_t tail_len = k < 0 ? 0 : strlen(tail);
  char msg[2000];
  size_t n = 0, room = sizeof msg - tail_len - 1;
  n += (size_t)snprintf(msg + n, sizeof msg - n,
                        "asc.LocalTensorAuto: the UB cannot hold the "
                        "automatically allocated tensors (");
  for (int i = 0; i < p->n && n < room - 64; i++) {
    char name[128];
    const Tensor *t = &p->t[i];
    if (t->dynamic)
      n += (size_t)snprintf(msg + n, room - n, "%s%s at %s:%d: a runtime size",
                            i ? ", " : "", tensor_name(t, name, sizeof name),
                            base_name(t->op->loc.file), t->op->loc.line);
    else
      n += (size_t)snprintf(msg + n, room - n, "%s%s at %s:%d: %lld bytes",
                            i ? ", " : "", tensor_name(t, name, sizeof name),
                            base_name(t->op->loc.file), t->op->loc.line,
                            (long long)align_up(t->bytes));
  }
  if (n >= room)
    n = room - 1;
  snprintf(msg + n, sizeof msg - n, "%s", tail);
  return asc_error(p->ctx, ASC_ERR_COMPILE, p->t[0].op->loc, "%s", msg);
}

/* family: tiles (cube): a cube memory cannot hold its tiles. */
static AscStatus fail_cube_capacity(Plan *p, int64_t need, int64_t cap,
                                    int64_t taken) {
  const char *mem = group_name(p->group);
  char msg[1500];
  size_t n = (size_t)snprintf(
      msg, sizeof msg,
      "the kernel's %s tiles need %lld bytes, more than the %lld bytes of "
      "%s it may use (%lld taken by its init_buffer calls): ",
      mem, (long long)need, (long long)cap, mem, (long long)taken);
  for (int i = 0; i < p->n && n < sizeof msg - 200; i++) {
    char name[128];
    const Tensor *t = &p->t[i];
    n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s at %s:%d: %lld bytes",
                          i ? ", " : "", tensor_name(t, name, sizeof name),
                          base_name(t->op->loc.file), t->op->loc.line,
                          (long long)align_to(t->bytes, t->align));
  }
  if (n < sizeof msg - 60)
    snprintf(msg + n, sizeof msg - n, "; use smaller tiles, or fewer");
  /* the tile that lives longest with the most bytes: the first large one */
  const Tensor *big = &p->t[0];
  for (int i = 1; i < p->n; i++)
    if (p->t[i].bytes > big->bytes)
      big = &p->t[i];
  return asc_error(p->ctx, ASC_ERR_COMPILE, big->op->loc, "%s", msg);
}

/* ---- runtime-sized tensors ------------------------------------------------
 * A tensor whose shape has runtime dims cannot be packed at compile time.
 * Those tensors live above the packed ones, in a pool that then takes all
 * the UB the kernel leaves: each gets, where it is defined, the offset
 *
 *   max(base, end(j) for every earlier runtime-sized j live with it)
 *
 * (base: the packed tensors' bytes; end(j): j's offset plus its bytes
 * rounded up to 32), so it lies above every one it lives with and reuses
 * the bytes of those it does not, and an asc.local_tensor_auto.check
 * before its get stops the run (a KernelError naming the tensor's line
 * and sizes; AscendC::Trap() on the device) when it does not fit: that
 * check bounds every size and offset, so the i32 arithmetic after it
 * cannot overflow. end(j) must be visible where the later tensor is
 * defined (j's block holds it), and a tensor carried from one iteration of
 * a loop to the next cannot be re-placed each iteration: both are
 * CompileErrors. */

static int block_within(const AscBlock *b, const AscBlock *outer) {
  for (; b;
       b = b->parent && b->parent->parent ? b->parent->parent->parent : NULL)
    if (b == outer)
      return 1;
  return 0;
}

static AscStatus check_dynamic(Plan *p) {
  for (int i = 0; i < p->n; i++) {
    const Tensor *t = &p->t[i];
    if (!t->dynamic)
      continue;
    for (int k = 0; k < t->op->n_operands; k++)
      if (!asc_type_is_int(t->op->operands[k]->type))
        return asc_error(p->ctx, ASC_ERR_COMPILE, t->op->loc,
                         "asc.LocalTensorAuto: a runtime dim of its shape "
                         "must be an integer");
    if (t->carried) {
      const Loop *l = &p->loops[t->carried_loop];
      if (l->start < t->op_pos && t->op_pos <= l->end)
        return asc_error(p->ctx, ASC_ERR_COMPILE, t->op->loc,
                         "asc.LocalTensorAuto with a runtime size, carried "
                         "from one iteration of a loop to the next: the "
                         "compiler places such a tensor anew in each "
                         "iteration (give it a compile-time size, or make "
                         "it before the loop)");
    }
    for (int j = 0; j < i; j++) {
      const Tensor *o = &p->t[j];
      if (!o->dynamic || !overlap_time(t, o))
        continue;
      if (!block_within(t->op->parent, o->op->parent)) {
        char a[128], b[128];
        return asc_error(
            p->ctx, ASC_ERR_COMPILE, t->op->loc,
            "asc.LocalTensorAuto %s (runtime size) lives with %s (runtime "
            "size, %s:%d), which is made in a block that does not hold this "
            "one (a loop or branch body it outlives): the compiler cannot "
            "place it above %s (give one of them a compile-time size)",
            tensor_name(t, a, sizeof a), tensor_name(o, b, sizeof b),
            base_name(o->op->loc.file), o->op->loc.line, b);
      }
    }
  }
  return ASC_OK;
}

/* Rewrites runtime-sized tensor i where it stands: its offset, the check,
 * its length, the get, and (when a later one needs it) its end. */
static AscStatus place_dynamic(Plan *p, int i, AscValue *pool, int64_t base,
                               int64_t cap, AscBlock *body) {
  Tensor *t = &p->t[i];
  AscOp *old = t->op;
  AscLoc tl = old->loc;
  AscContext *ctx = p->ctx;
  const AscType *i32 = asc_type_scalar(ctx, ASC_DT_INT32);
  AscBlock *b = old->parent;
  AscOp *after = old->prev;
  AscValue *off = constant(p, b, &after, tl, i32, base);
  char name[128];
  for (int j = 0; j < i; j++) {
    const Tensor *o = &p->t[j];
    if (o->dynamic && o->end && overlap_time(t, o))
      off = binary(p, b, &after, tl, ASC_OP_MAX_S, off, o->end);
  }
  AscValue *chk_ops[9];
  int n = 0;
  chk_ops[n++] = off;
  for (int k = 0; k < old->n_operands && n < 9; k++)
    chk_ops[n++] = old->operands[k];
  if (old->n_operands > 8)
    return asc_error(ctx, ASC_ERR_COMPILE, tl,
                     "asc.LocalTensorAuto: at most 8 runtime dims");
  AscAttr attrs[5];
  memset(attrs, 0, sizeof attrs);
  attrs[0] = (AscAttr){.name = "length", .kind = ASC_ATTR_INT, .i = t->length};
  attrs[1] =
      (AscAttr){.name = "elem_bytes", .kind = ASC_ATTR_INT, .i = t->elem_bytes};
  attrs[2] = (AscAttr){.name = "capacity", .kind = ASC_ATTR_INT, .i = cap};
  attrs[3] = (AscAttr){.name = "tensor",
                       .kind = ASC_ATTR_STR,
                       .s = tensor_name(t, name, sizeof name)};
  attrs[4] = (AscAttr){.name = "dtype",
                       .kind = ASC_ATTR_STR,
                       .s = asc_dtype_name(old->results[0].type->dtype)};
  AscOp *chk = asc_op_create(ctx, ASC_OP_LT_AUTO_CHECK, tl, chk_ops, n, NULL, 0,
                             attrs, 5, 0, NULL, NULL);
  asc_block_insert_after(b, after, chk);
  after = chk;
  AscValue *len =
      t->length != 1 ? constant(p, b, &after, tl, i32, t->length) : NULL;
  for (int k = 0; k < old->n_operands; k++) {
    AscValue *d = old->operands[k];
    if (d->type != i32)
      d = &simple(p, b, &after, tl, ASC_OP_CAST_S, &d, 1, i32)->results[0];
    len = len ? binary(p, b, &after, tl, ASC_OP_MUL_S, len, d) : d;
  }
  AscValue *get_ops[3] = {pool, len, off};
  AscOp *get = simple(p, b, &after, tl, ASC_OP_TBUF_GET_WITH_OFFSET, get_ops, 3,
                      old->results[0].type);
  get->results[0].name = old->results[0].name;
  int needed = 0;
  for (int j = i + 1; j < p->n; j++)
    needed |= p->t[j].dynamic && overlap_time(t, &p->t[j]);
  if (needed) {
    AscValue *bytes =
        t->elem_bytes == 1
            ? len
            : binary(p, b, &after, tl, ASC_OP_MUL_S, len,
                     constant(p, b, &after, tl, i32, t->elem_bytes));
    AscValue *up = binary(p, b, &after, tl, ASC_OP_ADD_S, bytes,
                          constant(p, b, &after, tl, i32, UB_ALIGN - 1));
    AscValue *a32 = constant(p, b, &after, tl, i32, UB_ALIGN);
    AscValue *q = binary(p, b, &after, tl, ASC_OP_DIV_S, up, a32);
    AscValue *al = binary(p, b, &after, tl, ASC_OP_MUL_S, q, a32);
    t->end = binary(p, b, &after, tl, ASC_OP_ADD_S, off, al);
  }
  asc_replace_all_uses(body, &old->results[0], &get->results[0]);
  asc_block_remove(b, old);
  if (p->oom || asc_context_status(ctx) == ASC_ERR_INTERNAL)
    return asc_error(ctx, ASC_ERR_INTERNAL, tl, "out of memory");
  return ASC_OK;
}

static AscStatus plan_kernel(Plan *p, AscOp *kernel, int64_t ub) {
  AscBlock *body = kernel->regions[0].block;
  asc_block_reset_ids(body);
  walk_block(p, body);
  if (p->oom)
    return asc_error(p->ctx, ASC_ERR_INTERNAL, kernel->loc, "out of memory");
  if (p->n == 0)
    return ASC_OK;
  /* finish the lifetimes; pick the double-buffer candidates */
  for (int i = 0; i < p->n; i++) {
    Tensor *t = &p->t[i];
    if (t->length <= 0 || t->elem_bytes <= 0 ||
        t->length > ((int64_t)1 << 40) / t->elem_bytes)
      return asc_error(p->ctx, ASC_ERR_COMPILE, t->op->loc,
                       "asc.LocalTensorAuto: %lld elements is no valid size",
                       (long long)t->length);
    t->bytes = t->length * t->elem_bytes;
    if (t->ext_loop >= 0 && p->loops[t->ext_loop].end > t->last)
      t->last = p->loops[t->ext_loop].end;
    if (t->carried) {
      const Loop *l = &p->loops[t->carried_loop];
      if (l->start < t->def)
        t->def = l->start;
      if (l->end > t->last)
        t->last = l->end;
    }
  }
  for (int i = 0; i < p->n; i++) {
    Tensor *t = &p->t[i];
    int in_for = t->loop >= 0 && p->loops[t->loop].op->id == ASC_OP_FOR;
    int n_pipes = __builtin_popcount(t->pipes);
    if (t->dynamic)
      t->why = "runtime size";
    else if (!in_for)
      t->why = t->loop >= 0 ? "in an scf.while loop" : "not in a loop";
    else if (t->carried)
      t->why = "carried across iterations";
    else if (t->unknown)
      t->why = "passed to a call whose accesses are unknown";
    else if (n_pipes < 2)
      t->why = "accessed by one pipe";
    else {
      t->slots = 2;
      t->why = "double-buffered";
    }
    if (t->slots == 2) {
      const Loop *l = &p->loops[t->loop];
      t->def = l->start;
      if (l->end > t->last)
        t->last = l->end;
    }
  }
  int64_t taken = user_bytes(body, p->group);
  int64_t cap = ub - taken;
  int *order = malloc(sizeof(int) * (size_t)p->n);
  if (!order)
    return asc_error(p->ctx, ASC_ERR_INTERNAL, kernel->loc, "out of memory");
  int64_t total = pack(p, order);
  while (total > cap) {
    /* give up double buffering, the largest tensors first */
    int best = -1;
    for (int i = 0; i < p->n; i++)
      if (p->t[i].slots == 2 && (best < 0 || p->t[i].bytes > p->t[best].bytes))
        best = i;
    if (best < 0)
      break;
    Tensor *t = &p->t[best];
    t->slots = 1;
    t->why = p->group == ASC_TPOSITION_VECCALC
                 ? "single: double buffering would not fit in the UB"
                 : "single: double buffering would not fit in its memory";
    total = pack(p, order);
  }
  free(order);
  if (total > cap && p->group != ASC_TPOSITION_VECCALC)
    return fail_cube_capacity(p, total, cap, taken);
  if (total > cap)
    return fail_capacity(p, total, cap, ub, taken);
  int n_dynamic = 0;
  for (int i = 0; i < p->n; i++)
    n_dynamic += p->t[i].dynamic;
  AscStatus ds = check_dynamic(p);
  if (ds)
    return ds;
  /* with runtime-sized tensors the pool takes all the UB left (32-byte
   * whole; bounded so the emitted i32 offsets cannot overflow) */
  int64_t pool_bytes = total;
  if (n_dynamic) {
    pool_bytes = cap / UB_ALIGN * UB_ALIGN;
    if (pool_bytes > INT32_MAX / 2)
      pool_bytes = INT32_MAX / 2 / UB_ALIGN * UB_ALIGN;
    if (pool_bytes < total)
      pool_bytes = total;
  }

  /* materialise: the pipe, the pool, its init */
  const AscOp *other = NULL;
  AscOp *pipe_op = NULL;
  for (AscOp *op = body->first; op; op = op->next)
    if (op->id == ASC_OP_TPIPE) {
      pipe_op = op;
      break;
    }
  for (AscOp *op = body->first; op; op = op->next)
    for (int r = 0; r < op->n_regions; r++)
      if (holds_op(op->regions[r].block, ASC_OP_TPIPE, &other))
        return asc_error(p->ctx, ASC_ERR_COMPILE, other->loc,
                         "asc.LocalTensorAuto needs the kernel's TPipe at the "
                         "top level of the kernel, this one is made in a "
                         "nested block (create the asc.TPipe() before any "
                         "loop or if)");
  AscLoc loc = kernel->loc;
  AscContext *ctx = p->ctx;
  const AscType *i32 = asc_type_scalar(ctx, ASC_DT_INT32);
  AscOp *at = pipe_op;
  if (!pipe_op) {
    const AscType *pt = asc_type_get(ctx, ASC_TY_TPIPE, ASC_DT_NONE, -1, 0);
    pipe_op = simple(p, body, &at, loc, ASC_OP_TPIPE, NULL, 0, pt);
  } else {
    for (int i = 0; i < p->n; i++) {
      const AscOp *o = p->t[i].op;
      while (o->parent != body)
        o = o->parent->parent->parent;
      for (const AscOp *q = body->first; q && q != pipe_op; q = q->next)
        if (q == o)
          return asc_error(p->ctx, ASC_ERR_COMPILE, p->t[i].op->loc,
                           "asc.LocalTensorAuto before the kernel's "
                           "asc.TPipe(): create the TPipe first");
    }
  }
  /* pipe.init() / reset() release the pipe's buffers: the pool goes after
   * the last of them before the first auto tensor, and none may follow */
  const AscOp *first_top = NULL;
  for (int i = 0; i < p->n; i++) {
    const AscOp *o = p->t[i].op;
    while (o->parent != body)
      o = o->parent->parent->parent;
    int earlier = 0;
    for (const AscOp *q = o; q && !earlier; q = q->next)
      earlier = q == first_top;
    if (!first_top || earlier)
      first_top = o;
  }
  for (AscOp *op = at ? at->next : body->first; op && op != first_top;
       op = op->next)
    if (op->id == ASC_OP_TPIPE_INIT || op->id == ASC_OP_TPIPE_RESET)
      at = op;
  for (AscOp *op = at ? at->next : body->first; op; op = op->next) {
    const AscOp *bad = NULL;
    if (op->id == ASC_OP_TPIPE_INIT || op->id == ASC_OP_TPIPE_RESET)
      bad = op;
    for (int r = 0; r < op->n_regions && !bad; r++)
      if (!holds_op(op->regions[r].block, ASC_OP_TPIPE_INIT, &bad))
        holds_op(op->regions[r].block, ASC_OP_TPIPE_RESET, &bad);
    if (bad)
      return asc_error(p->ctx, ASC_ERR_COMPILE, bad->loc,
                       "TPipe init()/reset() after the first "
                       "asc.LocalTensorAuto releases the UB the compiler "
                       "gave the auto tensors: call it before them");
  }
  const AscType *bt = asc_type_get(ctx, ASC_TY_TBUF, ASC_DT_NONE, p->group, 0);
  AscOp *pool = simple(p, body, &at, loc, ASC_OP_TBUF, NULL, 0, bt);
  static const char *const pool_names[] = {
      [ASC_TPOSITION_A1] = "auto_l1_pool",
      [ASC_TPOSITION_A2] = "auto_l0a_pool",
      [ASC_TPOSITION_B2] = "auto_l0b_pool",
      [ASC_TPOSITION_CO1] = "auto_l0c_pool",
      [ASC_TPOSITION_VECCALC] = "auto_ub_pool"};
  pool->results[0].name = asc_strdup(ctx, pool_names[p->group]);
  AscValue *bytes = constant(p, body, &at, loc, i32, pool_bytes);
  AscValue *init_ops[3] = {&pipe_op->results[0], &pool->results[0], bytes};
  simple(p, body, &at, loc, ASC_OP_INIT_BUFFER_BUF, init_ops, 3, NULL);

  for (int i = 0; i < p->n; i++) {
    Tensor *t = &p->t[i];
    if (t->dynamic) {
      AscStatus st =
          place_dynamic(p, i, &pool->results[0], total, pool_bytes, body);
      if (st)
        return st;
      continue;
    }
    AscOp *old = t->op;
    AscLoc tl = old->loc;
    AscValue *off;
    AscBlock *b;
    AscOp *after;
    if (t->slots == 1) {
      b = body;
      after = at;
      off = constant(p, b, &after, tl, i32, t->offset);
    } else {
      AscOp *loop = p->loops[t->loop].op;
      AscValue *iv = &loop->regions[0].block->args[0];
      b = old->parent;
      after = old->prev; /* NULL: the block's start */
      const AscType *it = iv->type;
      int64_t lo = -1, st = -1;
      AscValue *k;
      if (asc_int_constant(loop->operands[0], &lo) && lo == 0 &&
          asc_int_constant(loop->operands[2], &st) && st == 1) {
        k = iv;
      } else {
        AscValue *d =
            binary(p, b, &after, tl, ASC_OP_SUB_S, iv, loop->operands[0]);
        k = binary(p, b, &after, tl, ASC_OP_DIV_S, d, loop->operands[2]);
      }
      AscValue *two = constant(p, b, &after, tl, it, 2);
      AscValue *ph = binary(p, b, &after, tl, ASC_OP_REM_S, k, two);
      AscValue *slot =
          constant(p, b, &after, tl, it, align_to(t->bytes, t->align));
      AscValue *mul = binary(p, b, &after, tl, ASC_OP_MUL_S, ph, slot);
      AscValue *base = constant(p, b, &after, tl, it, t->offset);
      off = binary(p, b, &after, tl, ASC_OP_ADD_S, mul, base);
    }
    AscValue *len = constant(p, b, &after, tl, i32, t->length);
    AscValue *get_ops[3] = {&pool->results[0], len, off};
    AscOp *get = simple(p, b, &after, tl, ASC_OP_TBUF_GET_WITH_OFFSET, get_ops,
                        3, old->results[0].type);
    get->results[0].name = old->results[0].name;
    if (t->slots == 1)
      at = after;
    asc_replace_all_uses(body, &old->results[0], &get->results[0]);
    asc_block_remove(old->parent, old);
    if (p->oom || asc_context_status(ctx) == ASC_ERR_INTERNAL)
      return asc_error(ctx, ASC_ERR_INTERNAL, tl, "out of memory");
  }

  /* the report */
  for (int i = 0; i < p->n; i++) {
    const Tensor *t = &p->t[i];
    char name[128], pipes[64];
    if (t->dynamic) {
      asc_module_log(
          p->m,
          "plan-ub: %s (%s:%d) %s x %lld x %d runtime dim%s = a runtime size "
          "at a runtime offset from %lld (above the compile-time sized "
          "tensors and the runtime-sized ones it lives with), 1 slot (%s%s%s), "
          "live lines %d-%d (ops %d-%d)",
          tensor_name(t, name, sizeof name), base_name(t->op->loc.file),
          t->op->loc.line, asc_dtype_name(t->op->results[0].type->dtype),
          (long long)t->length, t->op->n_operands,
          t->op->n_operands == 1 ? "" : "s", (long long)total, t->why,
          t->pipes ? "; pipes " : "", pipe_names(t->pipes, pipes, sizeof pipes),
          t->op->loc.line, t->last_line, t->def, t->last);
      continue;
    }
    asc_module_log(
        p->m,
        "plan-ub: %s%s%s (%s:%d) %s x %lld = %lld bytes at offset %lld, %d "
        "slot%s (%s%s%s), live lines %d-%d (ops %d-%d)",
        p->group == ASC_TPOSITION_VECCALC ? "" : group_name(p->group),
        p->group == ASC_TPOSITION_VECCALC ? "" : " ",
        tensor_name(t, name, sizeof name), base_name(t->op->loc.file),
        t->op->loc.line, asc_dtype_name(t->op->results[0].type->dtype),
        (long long)t->length, (long long)align_to(t->bytes, t->align),
        (long long)t->offset, t->slots, t->slots == 2 ? "s" : "", t->why,
        t->pipes ? "; pipes " : "", pipe_names(t->pipes, pipes, sizeof pipes),
        t->op->loc.line, t->last_line, t->def, t->last);
  }
  asc_module_log(p->m,
                 "plan-ub: pool %lld bytes of %lld available (%s %lld, %lld "
                 "taken by init_buffer calls), %d tensor%s",
                 (long long)pool_bytes, (long long)cap, group_name(p->group),
                 (long long)ub, (long long)taken, p->n, p->n == 1 ? "" : "s");
  if (n_dynamic)
    asc_module_log(p->m,
                   "plan-ub: %d runtime-sized tensor%s above the first %lld "
                   "bytes (checked at run time against the pool's %lld)",
                   n_dynamic, n_dynamic == 1 ? "" : "s", (long long)total,
                   (long long)pool_bytes);
  return ASC_OK;
}

AscStatus asc_pass_plan_ub(AscModule *m, const char *opts) {
  int64_t ub = -1; /* not given: each kernel's own */
  if (asc_pass_ub_option(opts, &ub))
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "pass 'plan-ub': options are ub=BYTES, got '%s'", opts);
  AscStatus s = ASC_OK;
  for (AscOp *f = m->body->first; f && !s; f = f->next) {
    if (f->id != ASC_OP_FUNC || asc_op_attr_int(f, "kernel", 0))
      continue;
    const AscOp *found = NULL;
    if (holds_op(f->regions[0].block, ASC_OP_LT_AUTO, &found))
      return asc_error(m->ctx, ASC_ERR_COMPILE, found->loc,
                       "asc.LocalTensorAuto in device function %s: the UB "
                       "plan needs its calls inlined into the kernel (run "
                       "the inline pass first)",
                       asc_op_attr_str(f, "sym_name"));
  }
  for (AscOp *f = m->body->first; f && !s; f = f->next) {
    if (f->id != ASC_OP_FUNC || !asc_op_attr_int(f, "kernel", 0))
      continue;
    /* the UB, then each cube memory (family: tiles, cube) */
    static const int groups[] = {ASC_TPOSITION_VECCALC, ASC_TPOSITION_A1,
                                 ASC_TPOSITION_A2, ASC_TPOSITION_B2,
                                 ASC_TPOSITION_CO1};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0] && !s; g++) {
      Plan p;
      memset(&p, 0, sizeof p);
      p.m = m;
      p.ctx = m->ctx;
      p.group = groups[g];
      p.reserve = asc_kernel_reserve(m, asc_op_attr_str(f, "sym_name"));
      const AscPlatform *pf = asc_platform_get("Ascend910B1");
      int64_t cap = 0;
      switch (p.group) {
      case ASC_TPOSITION_A1:
        cap = pf ? asc_reserve_l1_user(&p.reserve, pf) : 0;
        break;
      case ASC_TPOSITION_A2:
      case ASC_TPOSITION_B2:
        cap = L0AB_BYTES;
        break;
      case ASC_TPOSITION_CO1:
        cap = pf ? (int64_t)pf->l0c_size : 0;
        break;
      default:
        cap = ub >= 0 ? ub : pf ? asc_reserve_ub_user(&p.reserve, pf) : 0;
        break;
      }
      s = plan_kernel(&p, f, cap);
      asc_block_reset_ids(f->regions[0].block);
      free(p.t);
      free(p.loops);
    }
  }
  return s;
}
