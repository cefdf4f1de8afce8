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

/* ---- the copies of loads and stores ------------------------------------
 * A copy appends its ops at a cursor (a block and the op to insert before,
 * NULL: the block's end). `ok` drops to 0 when an op cannot be made. */
typedef struct Cursor {
  Lowering *lw;
  AscBlock *b;
  AscOp *before;
  AscLoc loc;
  int ok;
} Cursor;

static AscOp *emit(Cursor *c, AscOpId id, AscValue *const *operands, int n,
                   const AscType *result, const AscAttr *attrs, int n_attrs,
                   int n_regions) {
  static const int no_args[2] = {0, 0};
  const AscType *const *region_types[2] = {NULL, NULL};
  AscOp *op = c->ok ? asc_op_create(c->lw->ctx, id, c->loc, operands, n,
                                    &result, result ? 1 : 0, attrs, n_attrs,
                                    n_regions, region_types, no_args)
                    : NULL;
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return op;
}

static AscValue *res(AscOp *op) { return op ? &op->results[0] : NULL; }

static AscValue *i_const(Cursor *c, AscDType t, int64_t v) {
  AscOp *op = c->ok ? asc_make_int_constant(
                          c->lw->ctx, asc_type_scalar(c->lw->ctx, t), v, c->loc)
                    : NULL;
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return res(op);
}

static AscValue *arith(Cursor *c, AscOpId id, AscValue *x, AscValue *y) {
  AscOp *op =
      c->ok && x && y ? asc_make_binary(c->lw->ctx, id, x, y, c->loc) : NULL;
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return res(op);
}

static AscValue *make_struct(Cursor *c, const AscStructInfo *info,
                             AscValue *const *fields, int n) {
  for (int i = 0; i < n; i++)
    if (!fields[i])
      c->ok = 0;
  return info ? res(emit(c, ASC_OP_STRUCT, fields, n,
                         asc_type_struct(c->lw->ctx, info), NULL, 0, 0))
              : (c->ok = 0, NULL);
}

/* The copy of `length` elements between the tile t and the global tensor
 * view g (load: GM -> UB, else UB -> GM), of which only `n` (an i32 value
 * in [0, length)) lie inside the tensor: DataCopyPad of n elements; a load
 * first fills the whole tile with the pad value and pads the copy's last
 * 32-byte block with it (rightPadding), so every element is defined. */
static void copy_part(Cursor *c, int load, AscValue *t, AscValue *g,
                      AscValue *n, AscValue *pad, int64_t length) {
  AscDType dt = t->type->dtype;
  int64_t eb = (int64_t)asc_dtype_size(dt);
  AscValue *len = i_const(c, ASC_DT_INT32, length);
  if (load) {
    AscValue *dup[3] = {t, pad, len};
    emit(c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
  }
  AscValue *zero = i_const(c, ASC_DT_INT32, 0);
  AscValue *bytes = arith(c, ASC_OP_MUL_S, n, i_const(c, ASC_DT_INT32, eb));
  AscValue *ext_f[5] = {i_const(c, ASC_DT_INT32, 1), bytes, zero, zero, zero};
  AscValue *ext = make_struct(
      c, asc_struct_info(ASC_STRUCT_DATA_COPY_EXT_PARAMS), ext_f, 5);
  if (!load) {
    AscValue *cp[3] = {g, t, ext};
    emit(c, ASC_OP_DATA_COPY_PAD_LOCAL_TO_GM, cp, 3, NULL, NULL, 0, 0);
    return;
  }
  /* rightPadding = ((32 - bytes % 32) % 32) / eb elements */
  AscValue *c32 = i_const(c, ASC_DT_INT32, 32);
  AscValue *rpad = arith(
      c, ASC_OP_DIV_S,
      arith(c, ASC_OP_REM_S,
            arith(c, ASC_OP_SUB_S, c32, arith(c, ASC_OP_REM_S, bytes, c32)),
            c32),
      i_const(c, ASC_DT_INT32, eb));
  AscValue *pad_f[4] = {i_const(c, ASC_DT_BOOL, 1), zero, rpad, pad};
  AscValue *pe =
      make_struct(c,
                  asc_struct_instance(
                      asc_struct_info(ASC_STRUCT_DATA_COPY_PAD_EXT_PARAMS), dt),
                  pad_f, 4);
  AscValue *cp[4] = {t, g, ext, pe};
  emit(c, ASC_OP_DATA_COPY_PAD_GM_TO_LOCAL, cp, 4, NULL, NULL, 0, 0);
}

/* A load's or store's copies before `op`: when offset and size are
 * constants, the one copy that applies; else scf.if (size - offset >=
 * length) { DataCopy of the whole tile } else { copy_part of
 * max(size - offset, 0) }. Returns 0 when out of memory. */
static int lower_copy(Lowering *lw, AscOp *op, int load, AscValue *t,
                      AscValue *gt, AscValue *offset, AscValue *size,
                      AscValue *pad, int64_t length) {
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *off_ops[2] = {gt, offset};
  AscValue *g = res(emit(&c, ASC_OP_GT_OFFSET, off_ops, 2, gt->type, NULL, 0,
                         0)); /* the view at offset */
  AscOpId full_id = load ? ASC_OP_COPY_GM_TO_LOCAL : ASC_OP_COPY_LOCAL_TO_GM;
  int64_t ko, ks;
  if (asc_int_constant(offset, &ko) && asc_int_constant(size, &ks)) {
    int64_t rem = ks - ko;
    if (rem >= length) {
      AscValue *cp[3] = {load ? t : g, load ? g : t,
                         i_const(&c, ASC_DT_INT32, length)};
      emit(&c, full_id, cp, 3, NULL, NULL, 0, 0);
    } else {
      copy_part(&c, load, t, g, i_const(&c, ASC_DT_INT32, rem < 0 ? 0 : rem),
                pad, length);
    }
    return c.ok;
  }
  AscValue *rem = arith(&c, ASC_OP_SUB_S, size, offset);
  AscValue *len = i_const(&c, ASC_DT_INT32, length);
  AscAttr pred;
  memset(&pred, 0, sizeof pred);
  pred.name = "predicate";
  pred.kind = ASC_ATTR_ENUM;
  pred.enum_kind = ASC_ENUM_CMPPRED;
  pred.i = ASC_CMPPRED_GE;
  AscValue *cmp_ops[2] = {rem, len};
  AscValue *whole =
      res(emit(&c, ASC_OP_CMP_S, cmp_ops, 2,
               asc_type_scalar(lw->ctx, ASC_DT_BOOL), &pred, 1, 0));
  AscOp *branch = emit(&c, ASC_OP_IF, &whole, 1, NULL, NULL, 0, 2);
  if (!branch)
    return 0;
  Cursor in = {lw, branch->regions[0].block, NULL, op->loc, 1};
  AscValue *cp[3] = {load ? t : g, load ? g : t, len};
  emit(&in, full_id, cp, 3, NULL, NULL, 0, 0);
  emit(&in, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  Cursor tail = {lw, branch->regions[1].block, NULL, op->loc, 1};
  AscValue *n =
      arith(&tail, ASC_OP_MAX_S, rem, i_const(&tail, ASC_DT_INT32, 0));
  copy_part(&tail, load, t, g, n, pad, length);
  emit(&tail, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  return in.ok && tail.ok;
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
  if (op->id == ASC_OP_TILE_STORE) {
    if (!lower_copy(lw, op, 0, op->operands[1], op->operands[0],
                    op->operands[2], op->operands[3], NULL, length))
      return oom(lw, op);
    asc_module_log(
        lw->m,
        "lower-tiles: asc2.store at %s:%d: asc.data_copy.local_to_gm "
        "of %lld elements (asc.data_copy_pad of those inside the "
        "tensor at its end)",
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
    if (!lower_copy(lw, op, 1, dst, op->operands[0], op->operands[1],
                    op->operands[2], op->operands[3], length))
      return oom(lw, op);
  } else {
    AscValue *count = make_count(lw, op, length);
    if (!count)
      return oom(lw, op);
    for (int i = 0; i < op->n_operands; i++)
      args[1 + i] = op->operands[i];
    args[1 + op->n_operands] = count;
    n = op->n_operands + 2;
    AscAttr reuse;
    memset(&reuse, 0, sizeof reuse);
    reuse.name = "is_reuse_source"; /* adv math: a tile source stays intact */
    reuse.kind = ASC_ATTR_INT;
    int n_attrs = 0;
    for (int i = 0; i < row->n_attrs; i++)
      if (strcmp(row->attrs[i].name, "is_reuse_source") == 0)
        n_attrs = 1;
      else if (!row->attrs[i].optional)
        return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: %s needs the attribute %s, which tile ops do "
                         "not give",
                         self->name, row->name, row->attrs[i].name);
    AscOp *made = asc_op_create(lw->ctx, row->id, op->loc, args, n, NULL, 0,
                                &reuse, n_attrs, 0, NULL, NULL);
    if (!made)
      return oom(lw, op);
    asc_block_insert_before(op->parent, op, made);
  }
  if (op->n_results && op->results[0].name)
    dst->name = op->results[0].name;
  asc_replace_all_uses(lw->body, &op->results[0], dst);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: a UB tile of %lld elements "
                 "(asc.local_tensor_auto) filled by %s%s",
                 self->name, op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)length, row->name,
                 op->id == ASC_OP_TILE_LOAD
                     ? " (asc.data_copy_pad of the elements inside the "
                       "tensor at its end, the rest pad_value)"
                     : "");
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
