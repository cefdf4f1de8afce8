/* `inline`: every func.call replaced by a copy of its callee's body.
 *
 * The sync-insertion and UB-planning passes analyse one kernel body, so
 * the device functions it calls must be part of it. A call is replaced by
 * clones of the callee's ops (same op, location, attributes, value names;
 * regions cloned with their block arguments), the callee's block arguments
 * standing for the call's operands and the operands of its func.return for
 * the call's results. Callees are inlined bottom-up: before a call is
 * replaced, the calls in its callee have been, so one copy per call site
 * suffices and a function is processed once however often it is called.
 * The walk starts at the kernels (every function when the module has
 * none); afterwards the functions that are not kernels are removed (no
 * call to them remains).
 *
 * Refused, with a CompileError at the call (the calls inlined before it
 * stay inlined; the IR stays valid):
 *  - recursion (a function reaching itself through calls);
 *  - a func.return anywhere but at the end of the callee's body (the front
 *    end only writes it there; inlining an early return would need the
 *    rest of the body made conditional);
 *  - by-value semantics the copy would lose. C++ (and the simulator's
 *    frames) pass tensors and tensor descriptors by value: a callee that
 *    changes a parameter in place (set_size, set_shape_info, ...) changes
 *    its own copy only, and a value it returns is a copy. Inlined, the
 *    parameter is the caller's value itself, so the pass refuses a callee
 *    that changes a parameter in place, and a callee that returns a
 *    parameter when the caller changes that value or the result in place.
 *    (The IR has no op that copies a tensor value to make them distinct.)
 *
 * Clones are built in a detached block and moved before the call only
 * when the whole body was copied, so a failure leaves the caller as it
 * was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/hash.h"
#include "pass.h"

/* The ops that change a tensor-like operand's value in place (its register
 * slots; the C++ methods change their object), and which operand. The op
 * table does not say this; src/sim/tensor_meta.c, framework.c and
 * list_tensor.c are where these ops write their operand. */
static int in_place_operand(const AscOp *op) {
  switch (op->id) {
  case ASC_OP_LT_SET_SHAPE_INFO:
  case ASC_OP_GT_SET_SHAPE_INFO:
  case ASC_OP_GT_SET_BUFFER:
  case ASC_OP_LT_SET_SIZE:
  case ASC_OP_LT_SET_BUFFER_LEN:
  case ASC_OP_LT_SET_ADDR_WITH_OFFSET:
  case ASC_OP_ADV_SORT_CONCAT: /* family: adv sort: concat = src */
  case ASC_OP_TENSOR_DESC_SET_SHAPE_ADDR:
  case ASC_OP_LIST_TENSOR_DESC_INIT:
    return 0;
  case ASC_OP_ALLOC_TENSOR_INPLACE:
  case ASC_OP_DEQUE_INPLACE:
    return 1;
  default:
    return -1;
  }
}

/* The first op in block (and its regions) that changes a or b in place. */
static const AscOp *find_in_place(const AscBlock *block, const AscValue *a,
                                  const AscValue *b) {
  for (const AscOp *op = block->first; op; op = op->next) {
    int k = in_place_operand(op);
    if (k >= 0 && k < op->n_operands &&
        (op->operands[k] == a || op->operands[k] == b))
      return op;
    for (int r = 0; r < op->n_regions; r++) {
      const AscOp *found = find_in_place(op->regions[r].block, a, b);
      if (found)
        return found;
    }
  }
  return NULL;
}

static const char *op_name(const AscOp *op) {
  const AscOpInfo *info = asc_op_info(op->id);
  return info ? info->name : "?";
}

static const char *fn_name(const AscOp *f) {
  const char *s = asc_op_attr_str(f, "sym_name");
  return s ? s : "?";
}

static const char *value_name(const AscValue *v, char *buf, size_t size) {
  if (v->name)
    return v->name;
  snprintf(buf, size, "#%d", v->index);
  return buf;
}

/* ---- cloning ------------------------------------------------------------- */

typedef struct Inliner {
  AscModule *m;
  AscContext *ctx;
  AscPtrMap map; /* callee value → the value standing for it in the copy */
  int oom;
} Inliner;

static AscValue *mapped(Inliner *in, AscValue *v) {
  AscValue *to = asc_ptrmap_get(&in->map, v);
  return to ? to : v; /* (verified IR: every operand is mapped) */
}

static void map_value(Inliner *in, const AscValue *from, AscValue *to) {
  to->name = from->name;
  if (asc_ptrmap_put(&in->map, from, to))
    in->oom = 1;
}

static AscStatus clone_block(Inliner *in, const AscBlock *src, AscBlock *dst,
                             const AscOp *skip, const AscOp *call);

/* A copy of op (not inserted), its results and region arguments mapped. */
static AscOp *clone_op(Inliner *in, const AscOp *op, const AscOp *call,
                       AscStatus *status) {
  int n_ops = op->n_operands, n_res = op->n_results, n_reg = op->n_regions;
  AscValue **operands = calloc((size_t)n_ops + 1, sizeof *operands);
  const AscType **res = calloc((size_t)n_res + 1, sizeof *res);
  const AscType ***reg_types = calloc((size_t)n_reg + 1, sizeof *reg_types);
  int *reg_n = calloc((size_t)n_reg + 1, sizeof *reg_n);
  AscOp *copy = NULL;
  int ok = operands && res && reg_types && reg_n;
  for (int r = 0; ok && r < n_reg; r++) {
    const AscBlock *b = op->regions[r].block;
    reg_n[r] = b->n_args;
    reg_types[r] = calloc((size_t)b->n_args + 1, sizeof **reg_types);
    ok = reg_types[r] != NULL;
    for (int i = 0; ok && i < b->n_args; i++)
      reg_types[r][i] = b->args[i].type;
  }
  if (ok) {
    for (int i = 0; i < n_ops; i++)
      operands[i] = mapped(in, op->operands[i]);
    for (int i = 0; i < n_res; i++)
      res[i] = op->results[i].type;
    copy = asc_op_create(in->ctx, op->id, op->loc, operands, n_ops, res, n_res,
                         op->attrs, op->n_attrs, n_reg,
                         (const AscType *const *const *)reg_types, reg_n);
    for (int i = 0; i < n_res; i++)
      map_value(in, &op->results[i], &copy->results[i]);
    for (int r = 0; r < n_reg && !*status; r++) {
      const AscBlock *b = op->regions[r].block;
      for (int i = 0; i < b->n_args; i++)
        map_value(in, &b->args[i], &copy->regions[r].block->args[i]);
      *status = clone_block(in, b, copy->regions[r].block, NULL, call);
    }
  } else {
    in->oom = 1;
  }
  for (int r = 0; reg_types && r < n_reg; r++)
    free(reg_types[r]);
  free(operands);
  free(res);
  free(reg_types);
  free(reg_n);
  if (in->oom && !*status)
    *status = asc_error(in->ctx, ASC_ERR_INTERNAL, call->loc,
                        "inline: out of memory");
  return *status ? NULL : copy;
}

/* Appends copies of src's ops (but `skip`) to dst. */
static AscStatus clone_block(Inliner *in, const AscBlock *src, AscBlock *dst,
                             const AscOp *skip, const AscOp *call) {
  for (const AscOp *op = src->first; op; op = op->next) {
    if (op == skip)
      continue;
    if (op->id == ASC_OP_RETURN) {
      const char *callee = asc_op_attr_str(call, "callee");
      return asc_error(in->ctx, ASC_ERR_COMPILE, call->loc,
                       "inline: '%s' returns before the end of its body (at "
                       "line %d); the inline pass only inlines a function "
                       "whose one func.return ends its body",
                       callee ? callee : "?", op->loc.line);
    }
    AscStatus s = ASC_OK;
    AscOp *copy = clone_op(in, op, call, &s);
    if (s)
      return s;
    asc_block_append(dst, copy);
  }
  return ASC_OK;
}

/* ---- one call ------------------------------------------------------------ */

/* Replaces the uses of `from` by `to` in the ops after `after` (in its block
 * and their regions): in verified IR, where all the uses of a result are. */
static void replace_uses_after(AscOp *after, const AscValue *from,
                               AscValue *to) {
  for (AscOp *op = after->next; op; op = op->next) {
    for (int i = 0; i < op->n_operands; i++)
      if (op->operands[i] == from)
        op->operands[i] = to;
    for (int r = 0; r < op->n_regions; r++)
      asc_replace_all_uses(op->regions[r].block, from, to);
  }
}

/* The parameter of callee body `fb` that v is, or -1. */
static int param_index(const AscBlock *fb, const AscValue *v) {
  return v->def == NULL && v->block == fb ? v->index : -1;
}

/* Checks that `call` (in function `caller`) can take a copy of `callee`'s
 * body without losing the by-value semantics of its parameters. */
static AscStatus check_by_value(Inliner *in, AscOp *caller, AscOp *call,
                                AscOp *callee) {
  const AscBlock *fb = callee->regions[0].block;
  char nb[32];
  for (int i = 0; i < fb->n_args; i++) {
    const AscOp *op = find_in_place(fb, &fb->args[i], NULL);
    if (op)
      return asc_error(
          in->ctx, ASC_ERR_COMPILE, call->loc,
          "inline: '%s' changes its parameter `%s` in place (%s at line %d), "
          "which C++ passes by value; inlined it would change the caller's "
          "value, so the inline pass does not inline it",
          fn_name(callee), value_name(&fb->args[i], nb, sizeof nb), op_name(op),
          op->loc.line);
  }
  /* results that are one value in the callee (a parameter, or a value
   * returned twice) are distinct copies in C++ */
  const AscOp *ret = fb->last;
  const AscBlock *cb = caller->regions[0].block;
  for (int r = 0; r < ret->n_operands && r < call->n_results; r++) {
    const AscValue *v = ret->operands[r];
    int p = param_index(fb, v);
    const AscValue *arg =
        p >= 0 && p < call->n_operands ? call->operands[p] : NULL;
    int n_alias = arg ? 1 : 0;
    for (int k = 0; k < ret->n_operands; k++)
      n_alias += ret->operands[k] == v;
    if (n_alias < 2)
      continue;
    const AscOp *op = arg ? find_in_place(cb, arg, NULL) : NULL;
    for (int k = 0; !op && k < ret->n_operands && k < call->n_results; k++)
      if (ret->operands[k] == v)
        op = find_in_place(cb, &call->results[k], NULL);
    if (op)
      return asc_error(
          in->ctx, ASC_ERR_COMPILE, call->loc,
          "inline: '%s' returns %s, a copy in C++, and the caller changes "
          "%s in place (%s at line %d); inlined they would be one value, so "
          "the inline pass does not inline it",
          fn_name(callee), arg ? "one of its parameters" : "one value twice",
          arg ? "the argument or the result" : "a result", op_name(op),
          op->loc.line);
  }
  return ASC_OK;
}

/* Replaces `call` (in function `caller`) by a copy of callee's body. The
 * callee holds no calls. */
static AscStatus inline_call(Inliner *in, AscOp *caller, AscOp *call,
                             AscOp *callee) {
  const AscBlock *fb = callee->regions[0].block;
  const AscOp *ret = fb->last;
  if (fb->n_args != call->n_operands)
    return asc_error(in->ctx, ASC_ERR_COMPILE, call->loc,
                     "inline: wrong argument count calling '%s'",
                     fn_name(callee));
  if (!ret || ret->id != ASC_OP_RETURN || ret->n_operands != call->n_results)
    return asc_error(in->ctx, ASC_ERR_COMPILE, call->loc,
                     "inline: '%s' does not end with a func.return of %d "
                     "values",
                     fn_name(callee), call->n_results);
  AscStatus s = check_by_value(in, caller, call, callee);
  if (s)
    return s;
  in->map.n = 0;
  if (in->map.cap) {
    memset(in->map.keys, 0, sizeof(void *) * in->map.cap);
    memset(in->map.vals, 0, sizeof(void *) * in->map.cap);
  }
  for (int i = 0; i < fb->n_args; i++)
    if (asc_ptrmap_put(&in->map, &fb->args[i], call->operands[i]))
      in->oom = 1;
  AscBlock *tmp = asc_alloc(in->ctx, sizeof *tmp); /* detached */
  s = clone_block(in, fb, tmp, ret, call);
  if (!s && in->oom)
    s = asc_error(in->ctx, ASC_ERR_INTERNAL, call->loc,
                  "inline: out of memory");
  if (s)
    return s;
  AscBlock *home = call->parent;
  while (tmp->first) {
    AscOp *op = tmp->first;
    asc_block_remove(tmp, op);
    asc_block_insert_before(home, call, op);
  }
  for (int r = 0; r < call->n_results; r++) {
    AscValue *to = mapped(in, ret->operands[r]);
    /* an unnamed value made by the copy takes the name the caller gave
     * the result (the user's variable) */
    if (!to->name && to->def && asc_ptrmap_get(&in->map, ret->operands[r]) &&
        param_index(fb, ret->operands[r]) < 0)
      to->name = call->results[r].name;
    replace_uses_after(call, &call->results[r], to);
  }
  asc_block_remove(home, call);
  return ASC_OK;
}

/* ---- the call graph, bottom-up --------------------------------------------
 */

/* The calls in block and its regions, in program order. */
typedef struct Calls {
  AscOp **ops;
  int n, cap;
} Calls;

static int collect_calls(Calls *c, AscBlock *block) {
  for (AscOp *op = block->first; op; op = op->next) {
    if (op->id == ASC_OP_CALL) {
      if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        AscOp **ops = realloc(c->ops, sizeof *ops * (size_t)cap);
        if (!ops)
          return -1;
        c->ops = ops;
        c->cap = cap;
      }
      c->ops[c->n++] = op;
    }
    for (int r = 0; r < op->n_regions; r++)
      if (collect_calls(c, op->regions[r].block))
        return -1;
  }
  return 0;
}

/* A function on the walk's stack, and the next of its calls to inline. */
typedef struct Frame {
  AscOp *f;
  Calls calls;
  int next;
} Frame;

/* Function states in Inliner's walk (values of a pointer map). */
static char ON_STACK, DONE;

static int is_kernel(const AscOp *f) {
  return asc_op_attr_int(f, "kernel", 0) == 1;
}

/* The call closing a cycle: names the chain, "f -> g -> f". */
static AscStatus recursion_error(Inliner *in, const AscOp *call,
                                 const Frame *stack, int depth,
                                 const AscOp *callee) {
  char chain[512] = "";
  size_t len = 0;
  int from = depth - 1;
  while (from > 0 && stack[from].f != callee)
    from--;
  for (int i = from; i <= depth && len + 1 < sizeof chain; i++) {
    const char *n = fn_name(i < depth ? stack[i].f : callee);
    int w = snprintf(chain + len, sizeof chain - len, "%s%s",
                     i > from ? " -> " : "", n);
    if (w < 0)
      break;
    len += (size_t)w;
  }
  return asc_error(in->ctx, ASC_ERR_COMPILE, call->loc,
                   "inline: recursive call of '%s' (%s): recursion cannot be "
                   "inlined; write it as a loop",
                   fn_name(callee), chain);
}

/* Inlines every call reachable from root, callees first. The stack is
 * explicit: a chain of calls as long as the module's function count must
 * not overflow the C stack. */
static AscStatus inline_from(Inliner *in, AscPtrMap *state, AscOp *root,
                             Frame **stack, int *cap) {
  int depth = 0;
  AscStatus s = ASC_OK;
  AscOp *push = root;
  while (!s && (push || depth > 0)) {
    if (push) {
      if (depth == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        Frame *ns = realloc(*stack, sizeof *ns * (size_t)nc);
        if (!ns) {
          s = asc_error(in->ctx, ASC_ERR_INTERNAL, push->loc,
                        "inline: out of memory");
          break;
        }
        *stack = ns;
        *cap = nc;
      }
      Frame *fr = &(*stack)[depth++];
      memset(fr, 0, sizeof *fr);
      fr->f = push;
      push = NULL;
      if (asc_ptrmap_put(state, fr->f, &ON_STACK) ||
          collect_calls(&fr->calls, fr->f->regions[0].block)) {
        s = asc_error(in->ctx, ASC_ERR_INTERNAL, fr->f->loc,
                      "inline: out of memory");
        break;
      }
      continue;
    }
    Frame *fr = &(*stack)[depth - 1];
    if (fr->next == fr->calls.n) {
      if (asc_ptrmap_put(state, fr->f, &DONE))
        s = asc_error(in->ctx, ASC_ERR_INTERNAL, fr->f->loc,
                      "inline: out of memory");
      free(fr->calls.ops);
      depth--;
      continue;
    }
    AscOp *call = fr->calls.ops[fr->next];
    const char *name = asc_op_attr_str(call, "callee");
    AscOp *callee = name ? asc_module_find_function(in->m, name) : NULL;
    if (!callee || callee->n_regions != 1) {
      s = asc_error(in->ctx, ASC_ERR_COMPILE, call->loc,
                    "inline: unknown callee '%s'", name ? name : "");
      break;
    }
    void *st = asc_ptrmap_get(state, callee);
    if (st == &ON_STACK) {
      s = recursion_error(in, call, *stack, depth, callee);
      break;
    }
    if (st != &DONE) {
      push = callee; /* its calls first; this call is taken up again after */
      continue;
    }
    s = inline_call(in, fr->f, call, callee);
    fr->next++;
  }
  for (int i = 0; i < depth; i++)
    free((*stack)[i].calls.ops);
  return s;
}

AscStatus asc_pass_inline(AscModule *m, const char *opts) {
  if (opts && opts[0])
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "pass 'inline' takes no options (got '%s')", opts);
  Inliner in = {m, m->ctx, {0}, 0};
  AscPtrMap state = {0};
  Frame *stack = NULL;
  int cap = 0;
  int has_kernel = 0;
  for (AscOp *f = m->body->first; f; f = f->next)
    has_kernel |= f->id == ASC_OP_FUNC && is_kernel(f);
  AscStatus s = ASC_OK;
  for (AscOp *f = m->body->first; f && !s; f = f->next)
    if (f->id == ASC_OP_FUNC && f->n_regions == 1 &&
        (is_kernel(f) || !has_kernel) && !asc_ptrmap_get(&state, f))
      s = inline_from(&in, &state, f, &stack, &cap);
  free(stack);
  asc_ptrmap_free(&state);
  asc_ptrmap_free(&in.map);
  if (s || !has_kernel)
    return s;
  /* no call is left in the kernels: the other functions are unused */
  for (AscOp *f = m->body->first; f;) {
    AscOp *next = f->next;
    if (f->id == ASC_OP_FUNC && !is_kernel(f))
      asc_block_remove(m->body, f);
    f = next;
  }
  return ASC_OK;
}
