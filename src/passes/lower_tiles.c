/* family: tiles. `lower-tiles`: the asc2 tile ops (ops.def, "family:
 * tiles") become existing ASC-IR.
 *
 * A tile is an SSA value of type !asc.local_tensor<T, VECCALC> whose bytes
 * nobody chose yet. Each op producing one becomes an asc.local_tensor_auto of
 * the tile's `length` (so the plan-ub pass that runs later gives it UB
 * bytes, reusing and double-buffering them, and insert-sync orders the
 * pipes) followed by the copy or vector op that fills it:
 *
 *   asc2.load(g, off)              asc.global_tensor.offset(g, off) then
 *                                  asc.data_copy.gm_to_local(t, g', length)
 *   asc2.store(g, t, off)          asc.data_copy.local_to_gm(g', t, length)
 *   asc2.binary {op}(a, b)         op(t, a, b, length)       (asc.add, ...)
 *   asc2.binary_scalar {op}(a, s)  op(t, a, s, length)       (asc.adds, ...)
 *   asc2.unary {op}(a)             op(t, a, length)          (asc.exp, ...)
 *   asc2.full(s)                   asc.duplicate(t, s, length)
 *
 * The `op` attribute names the row of the op table; it must have the
 * operand shape of its tile op (checked here), and the row's own verifier
 * rules (element types, counts) apply to the op made, at the tile op's
 * Python line. Nothing else is rewritten: the pass is idempotent and a
 * module without tile ops is left as it was. */
#include <stdio.h>
#include <string.h>

#include "pass.h"

typedef struct Lowering {
  AscModule *m;
  AscContext *ctx;
  AscBlock *body; /* the function body: holds every use of a tile */
} Lowering;

static AscStatus oom(Lowering *lw, const AscOp *op) {
  return asc_error(lw->ctx, ASC_ERR_INTERNAL, op->loc,
                   "lower-tiles: out of memory");
}

static AscValue *make_count(Lowering *lw, AscOp *at, int64_t length) {
  AscOp *c = asc_make_int_constant(
      lw->ctx, asc_type_scalar(lw->ctx, ASC_DT_INT32), length, at->loc);
  if (!c)
    return NULL;
  asc_block_insert_before(at->parent, at, c);
  return &c->results[0];
}

static AscOp *insert(Lowering *lw, AscOp *at, AscOpId id,
                     AscValue *const *operands, int n, const AscType *result) {
  AscOp *op = asc_op_create(lw->ctx, id, at->loc, operands, n, &result,
                            result ? 1 : 0, NULL, 0, 0, NULL, NULL);
  if (op)
    asc_block_insert_before(at->parent, at, op);
  return op;
}

/* The row `op` names, when its required operands are `names` (dst first,
 * written; count last) on the V pipe, and the rest optional (the adv math
 * library's temp_buffer: left out, the devkit's framework takes its
 * temporary from the UB the TPipe did not give out). */
static const AscOpInfo *vector_row(Lowering *lw, AscOp *op,
                                   const char *const *names, int n,
                                   AscStatus *s) {
  const char *name = asc_op_attr_str(op, "op");
  AscOpId id = name ? asc_op_from_name(name) : ASC_OP_COUNT;
  const AscOpInfo *info = id == ASC_OP_COUNT ? NULL : asc_op_info(id);
  int ok = info && info->pipe == ASC_PIPE_V && info->n_required == n &&
           !info->variadic && info->operands[0].writes;
  for (int i = 0; ok && i < n; i++)
    ok = strcmp(info->operands[i].name, names[i]) == 0;
  if (!ok) {
    char want[128] = "";
    for (int i = 0; i < n; i++)
      snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
               i ? ", " : "", names[i]);
    *s = asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                   "%s: op = \"%s\" is no vector operation taking (%s)",
                   asc_op_info(op->id)->name, name ? name : "", want);
    return NULL;
  }
  return info;
}

static AscStatus lower_op(Lowering *lw, AscOp *op) {
  const AscOpInfo *self = asc_op_info(op->id);
  int64_t length = asc_op_attr_int(op, "length", 0);
  if (length <= 0 || length >= ((int64_t)1 << 31))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: length %lld is no valid number of elements",
                     self->name, (long long)length);
  AscValue *count = make_count(lw, op, length);
  if (!count)
    return oom(lw, op);
  if (op->id == ASC_OP_TILE_STORE) {
    AscValue *off[2] = {op->operands[0], op->operands[2]};
    AscOp *g = insert(lw, op, ASC_OP_GT_OFFSET, off, 2, op->operands[0]->type);
    AscValue *cp[3] = {g ? &g->results[0] : NULL, op->operands[1], count};
    if (!g || !insert(lw, op, ASC_OP_COPY_LOCAL_TO_GM, cp, 3, NULL))
      return oom(lw, op);
    asc_module_log(
        lw->m,
        "lower-tiles: asc2.store at %s:%d: asc.data_copy.local_to_gm "
        "of %lld elements",
        op->loc.file ? op->loc.file : "?", op->loc.line, (long long)length);
    asc_block_remove(op->parent, op);
    return ASC_OK;
  }
  const AscOpInfo *row = NULL;
  AscStatus s = ASC_OK;
  switch (op->id) {
  case ASC_OP_TILE_LOAD:
    row = asc_op_info(ASC_OP_COPY_GM_TO_LOCAL);
    break;
  case ASC_OP_TILE_BINARY: {
    static const char *const names[] = {"dst", "src0", "src1", "count"};
    row = vector_row(lw, op, names, 4, &s);
    break;
  }
  case ASC_OP_TILE_BINARY_SCALAR: {
    static const char *const names[] = {"dst", "src", "scalar", "count"};
    row = vector_row(lw, op, names, 4, &s);
    break;
  }
  case ASC_OP_TILE_UNARY: {
    static const char *const names[] = {"dst", "src", "count"};
    row = vector_row(lw, op, names, 3, &s);
    break;
  }
  default: /* ASC_OP_TILE_FULL */
    row = asc_op_info(ASC_OP_DUPLICATE);
    break;
  }
  if (!row)
    return s;
  AscAttr len;
  memset(&len, 0, sizeof len);
  len.name = "length";
  len.kind = ASC_ATTR_INT;
  len.i = length;
  const AscType *tt = op->results[0].type;
  AscOp *tile = asc_op_create(lw->ctx, ASC_OP_LT_AUTO, op->loc, NULL, 0, &tt, 1,
                              &len, 1, 0, NULL, NULL);
  if (!tile)
    return oom(lw, op);
  asc_block_insert_before(op->parent, op, tile);
  AscValue *dst = &tile->results[0];
  AscValue *args[4] = {dst, NULL, NULL, NULL};
  int n = 0;
  if (op->id == ASC_OP_TILE_LOAD) {
    AscValue *off[2] = {op->operands[0], op->operands[1]};
    AscOp *g = insert(lw, op, ASC_OP_GT_OFFSET, off, 2, op->operands[0]->type);
    if (!g)
      return oom(lw, op);
    args[1] = &g->results[0];
    args[2] = count;
    n = 3;
  } else {
    for (int i = 0; i < op->n_operands; i++)
      args[1 + i] = op->operands[i];
    args[1 + op->n_operands] = count;
    n = op->n_operands + 2;
  }
  AscAttr reuse;
  memset(&reuse, 0, sizeof reuse);
  reuse.name = "is_reuse_source"; /* adv math: a tile source stays intact */
  reuse.kind = ASC_ATTR_INT;
  int n_attrs = 0;
  for (int i = 0; i < row->n_attrs; i++)
    if (strcmp(row->attrs[i].name, "is_reuse_source") == 0)
      n_attrs = 1;
    else if (!row->attrs[i].optional) {
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: %s needs the attribute %s, which tile ops do "
                       "not give",
                       self->name, row->name, row->attrs[i].name);
    }
  AscOp *made = asc_op_create(lw->ctx, row->id, op->loc, args, n, NULL, 0,
                              &reuse, n_attrs, 0, NULL, NULL);
  if (!made)
    return oom(lw, op);
  asc_block_insert_before(op->parent, op, made);
  if (op->n_results && op->results[0].name)
    dst->name = op->results[0].name;
  asc_replace_all_uses(lw->body, &op->results[0], dst);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: a UB tile of %lld elements "
                 "(asc.local_tensor_auto) filled by %s",
                 self->name, op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)length, row->name);
  asc_block_remove(op->parent, op);
  return ASC_OK;
}

static int is_tile_op(AscOpId id) {
  return id == ASC_OP_TILE_LOAD || id == ASC_OP_TILE_STORE ||
         id == ASC_OP_TILE_BINARY || id == ASC_OP_TILE_BINARY_SCALAR ||
         id == ASC_OP_TILE_UNARY || id == ASC_OP_TILE_FULL;
}

static AscStatus lower_block(Lowering *lw, AscBlock *b) {
  AscOp *next;
  for (AscOp *op = b->first; op; op = next) {
    next = op->next;
    for (int r = 0; r < op->n_regions; r++) {
      AscStatus s = lower_block(lw, op->regions[r].block);
      if (s)
        return s;
    }
    if (is_tile_op(op->id)) {
      AscStatus s = lower_op(lw, op);
      if (s)
        return s;
    }
  }
  return ASC_OK;
}

AscStatus asc_pass_lower_tiles(AscModule *m, const char *opts) {
  if (opts && *opts)
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "pass 'lower-tiles' takes no options, got '%s'", opts);
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC || !f->n_regions)
      continue;
    Lowering lw = {m, m->ctx, f->regions[0].block};
    AscStatus s = lower_block(&lw, lw.body);
    if (s)
      return s;
  }
  return ASC_OK;
}
