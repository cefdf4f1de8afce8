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
 *   asc2.reduce {op, axis}(a)      axis 0: log2(rows) folds of rows by the
 *                                  elementwise row of op (asc.add, ...);
 *                                  axis -1: asc.reduce_sum/max/min(t, a,
 *                                  work, length); axis 1: that per row,
 *                                  get_value, set_value; prod over axis 1
 *                                  or -1: row_products (the row-wise
 *                                  lowerings: lower_tiles_rows.c)
 *   asc2.masked_* {op, mask_mode}  the level-0 row "op.l0" with the mask
 *   asc2.concat {parts}(a, b, ..)  asc.data_copy.local_to_local each
 *   asc2.rms_norm(a, gamma, eps)   per row in float32
 *   asc2.compare{_scalar}(a, b)    asc.compare{_scalar}(m, a, b, n) into a
 *                                  uint8 mask tile, n whole repeats
 *   asc2.select{_scalar}(m, a, b)  asc.select{_scalar}(t, m, a, b, length)
 *   asc2.softmax(a)                per row: reduce_max, duplicate, sub, exp,
 *                                  reduce_sum, duplicate, div
 *   asc2.cast {round_mode}(a)      asc.cast(t, a, length) {round_mode}
 *   asc2.broadcast(a)              a row: asc.data_copy.local_to_local, then
 *                                  doubled; a column: per row get_value,
 *                                  duplicate
 *
 * The `op` attribute names the row of the op table; it must have the
 * operand shape of its tile op (checked here), and the row's own verifier
 * rules (element types, counts) apply to the op made, at the tile op's
 * Python line. Nothing else is rewritten: the pass is idempotent and a
 * module without tile ops is left as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_tiles.h"

AscStatus lt_oom(Lowering *lw, const AscOp *op) {
  return asc_error(lw->ctx, ASC_ERR_INTERNAL, op->loc,
                   "lower-tiles: out of memory");
}

/* The tile op's result replaced by `out` (its name kept) and the op gone:
 * the end of every lowering that makes a new tile. */
AscStatus lt_replace_tile(Lowering *lw, AscOp *op, AscValue *out) {
  if (op->results[0].name)
    out->name = op->results[0].name;
  asc_replace_all_uses(lw->body, &op->results[0], out);
  asc_block_remove(op->parent, op);
  return ASC_OK;
}

AscValue *lt_make_count(Lowering *lw, AscOp *at, int64_t length) {
  AscOp *c = asc_make_int_constant(
      lw->ctx, asc_type_scalar(lw->ctx, ASC_DT_INT32), length, at->loc);
  if (!c)
    return NULL;
  asc_block_insert_before(at->parent, at, c);
  return &c->results[0];
}

AscOp *lt_emit(Cursor *c, AscOpId id, AscValue *const *operands, int n,
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

AscValue *lt_res(AscOp *op) { return op ? &op->results[0] : NULL; }

AscValue *lt_i_const(Cursor *c, AscDType t, int64_t v) {
  AscOp *op = c->ok ? asc_make_int_constant(
                          c->lw->ctx, asc_type_scalar(c->lw->ctx, t), v, c->loc)
                    : NULL;
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return lt_res(op);
}

AscValue *lt_arith(Cursor *c, AscOpId id, AscValue *x, AscValue *y) {
  AscOp *op =
      c->ok && x && y ? asc_make_binary(c->lw->ctx, id, x, y, c->loc) : NULL;
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return lt_res(op);
}

AscValue *lt_make_struct(Cursor *c, const AscStructInfo *info,
                         AscValue *const *fields, int n) {
  for (int i = 0; i < n; i++)
    if (!fields[i])
      c->ok = 0;
  return info ? lt_res(lt_emit(c, ASC_OP_STRUCT, fields, n,
                               asc_type_struct(c->lw->ctx, info), NULL, 0, 0))
              : (c->ok = 0, NULL);
}

/* ---- the copies of loads and stores ------------------------------------
 * A copy appends its ops at a cursor (a block and the op to insert before,
 * NULL: the block's end). `ok` drops to 0 when an op cannot be made. */
/* (Every op-making call below is a statement of its own: C leaves the
 * order of a call's arguments open, and the IR's order must not depend on
 * the C compiler.) */
static AscValue *clamp(Cursor *c, AscValue *v, int64_t hi) {
  AscValue *zero = lt_i_const(c, ASC_DT_INT32, 0);
  AscValue *pos = lt_arith(c, ASC_OP_MAX_S, v, zero);
  AscValue *top = lt_i_const(c, ASC_DT_INT32, hi);
  return lt_arith(c, ASC_OP_MIN_S, pos, top);
}

/* (32 - x % 32) % 32: the bytes from x to the next 32-byte boundary. */
static AscValue *to_block(Cursor *c, AscValue *x) {
  AscValue *c32 = lt_i_const(c, ASC_DT_INT32, 32);
  AscValue *in_block = lt_arith(c, ASC_OP_REM_S, x, c32);
  AscValue *rest = lt_arith(c, ASC_OP_SUB_S, c32, in_block);
  return lt_arith(c, ASC_OP_REM_S, rest, c32);
}

/* The copy between the tile t (rows x width elements, rows of width * E
 * bytes) and the global tensor view g (rows `cols` elements apart) of
 * n_rows rows of n_cols elements (i32 values in [0, rows] / [0, width]):
 * one DataCopyPad, its GM stride (cols - n_cols) * E bytes, its UB stride
 * the 32-byte blocks from a row's copied part to the next row. A load of a
 * part (`part`) first fills the tile with the pad value and pads each row's
 * last copied block with it (rightPadding), so every element is defined. */
static void copy_rows(Cursor *c, int load, int part, AscValue *t, AscValue *g,
                      AscValue *n_rows, AscValue *n_cols, AscValue *cols,
                      AscValue *pad, int64_t rows, int64_t width) {
  AscDType dt = t->type->dtype;
  int64_t eb = (int64_t)asc_dtype_size(dt);
  if (load && part) {
    AscValue *count = lt_i_const(c, ASC_DT_INT32, rows * width);
    AscValue *dup[3] = {t, pad, count};
    lt_emit(c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
  }
  AscValue *e = lt_i_const(c, ASC_DT_INT32, eb);
  AscValue *bytes = lt_arith(c, ASC_OP_MUL_S, n_cols, e);
  AscValue *gm_gap = lt_arith(c, ASC_OP_SUB_S, cols, n_cols);
  AscValue *gm_stride = lt_arith(c, ASC_OP_MUL_S, gm_gap, e);
  AscValue *tail = to_block(c, bytes); /* pad bytes after a row's data */
  /* UB blocks between rows: (width * E - (bytes + tail)) / 32 */
  AscValue *zero = lt_i_const(c, ASC_DT_INT32, 0);
  AscValue *ub_stride = zero; /* one row: its bytes need not be blocks */
  if (rows > 1) {
    AscValue *row_bytes = lt_i_const(c, ASC_DT_INT32, width * eb);
    AscValue *used = lt_arith(c, ASC_OP_ADD_S, bytes, tail);
    AscValue *gap = lt_arith(c, ASC_OP_SUB_S, row_bytes, used);
    AscValue *c32 = lt_i_const(c, ASC_DT_INT32, 32);
    ub_stride = lt_arith(c, ASC_OP_DIV_S, gap, c32);
  }
  AscValue *ext_f[5] = {n_rows, bytes, load ? gm_stride : ub_stride,
                        load ? ub_stride : gm_stride, zero};
  AscValue *ext = lt_make_struct(
      c, asc_struct_info(ASC_STRUCT_DATA_COPY_EXT_PARAMS), ext_f, 5);
  if (!load) {
    AscValue *cp[3] = {g, t, ext};
    lt_emit(c, ASC_OP_DATA_COPY_PAD_LOCAL_TO_GM, cp, 3, NULL, NULL, 0, 0);
    return;
  }
  AscValue *is_pad = lt_i_const(c, ASC_DT_BOOL, 1);
  AscValue *right = lt_arith(c, ASC_OP_DIV_S, tail, e);
  AscValue *pad_f[4] = {is_pad, zero, right, pad};
  AscValue *pe = lt_make_struct(
      c,
      asc_struct_instance(asc_struct_info(ASC_STRUCT_DATA_COPY_PAD_EXT_PARAMS),
                          dt),
      pad_f, 4);
  AscValue *cp[4] = {t, g, ext, pe};
  lt_emit(c, ASC_OP_DATA_COPY_PAD_GM_TO_LOCAL, cp, 4, NULL, NULL, 0, 0);
}

/* The whole tile's copy: one count-form DataCopy when the tile is one row
 * of whole 32-byte blocks, else copy_rows of every row and column. */
static void copy_whole(Cursor *c, int load, AscValue *t, AscValue *g,
                       AscValue *cols, AscValue *pad, int64_t rows,
                       int64_t width) {
  int64_t eb = (int64_t)asc_dtype_size(t->type->dtype);
  if (rows == 1 && (width * eb) % 32 == 0) {
    AscValue *cp[3] = {load ? t : g, load ? g : t,
                       lt_i_const(c, ASC_DT_INT32, width)};
    lt_emit(c, load ? ASC_OP_COPY_GM_TO_LOCAL : ASC_OP_COPY_LOCAL_TO_GM, cp, 3,
            NULL, NULL, 0, 0);
    return;
  }
  AscValue *n_rows = lt_i_const(c, ASC_DT_INT32, rows);
  AscValue *n_cols = lt_i_const(c, ASC_DT_INT32, width);
  copy_rows(c, load, 0, t, g, n_rows, n_cols, cols, pad, rows, width);
}

/* A load's or store's copies before `op`, between the tile t (`length`
 * elements, rows of `width`) and the global tensor gt of rows x cols
 * elements at (row, col): when the four are constants, the one copy that
 * applies; else scf.if (rows - row >= tile rows && cols - col >= width) {
 * copy_whole } else { copy_rows of the rows and columns inside }. Returns
 * 0 when out of memory. */
static int lower_copy(Lowering *lw, AscOp *op, int load, AscValue *t,
                      AscValue *gt, AscValue *const *rc, AscValue *pad,
                      int64_t length, int64_t width) {
  AscValue *row = rc[0], *col = rc[1], *rows = rc[2], *cols = rc[3];
  int64_t nrows = length / width;
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *row_start = lt_arith(&c, ASC_OP_MUL_S, row, cols);
  AscValue *base = lt_arith(&c, ASC_OP_ADD_S, row_start, col);
  AscValue *off_ops[2] = {gt, base};
  AscValue *g = lt_res(lt_emit(&c, ASC_OP_GT_OFFSET, off_ops, 2, gt->type, NULL,
                               0, 0)); /* the view at (row, col) */
  int64_t k[4];
  if (asc_int_constant(row, &k[0]) && asc_int_constant(col, &k[1]) &&
      asc_int_constant(rows, &k[2]) && asc_int_constant(cols, &k[3])) {
    int64_t in_r = k[2] - k[0], in_c = k[3] - k[1];
    if (in_r >= nrows && in_c >= width) {
      copy_whole(&c, load, t, g, cols, pad, nrows, width);
    } else {
      in_r = in_r < 0 ? 0 : in_r > nrows ? nrows : in_r;
      in_c = in_c < 0 ? 0 : in_c > width ? width : in_c;
      AscValue *n_rows = lt_i_const(&c, ASC_DT_INT32, in_r);
      AscValue *n_cols = lt_i_const(&c, ASC_DT_INT32, in_c);
      copy_rows(&c, load, 1, t, g, n_rows, n_cols, cols, pad, nrows, width);
    }
    return c.ok;
  }
  AscValue *rem_r = lt_arith(&c, ASC_OP_SUB_S, rows, row);
  AscValue *rem_c = lt_arith(&c, ASC_OP_SUB_S, cols, col);
  /* whole = min(rem_r - nrows, rem_c - width) >= 0 */
  AscValue *k_rows = lt_i_const(&c, ASC_DT_INT32, nrows);
  AscValue *slack_r = lt_arith(&c, ASC_OP_SUB_S, rem_r, k_rows);
  AscValue *k_cols = lt_i_const(&c, ASC_DT_INT32, width);
  AscValue *slack_c = lt_arith(&c, ASC_OP_SUB_S, rem_c, k_cols);
  AscValue *slack = lt_arith(&c, ASC_OP_MIN_S, slack_r, slack_c);
  AscAttr pred;
  memset(&pred, 0, sizeof pred);
  pred.name = "predicate";
  pred.kind = ASC_ATTR_ENUM;
  pred.enum_kind = ASC_ENUM_CMPPRED;
  pred.i = ASC_CMPPRED_GE;
  AscValue *zero = lt_i_const(&c, ASC_DT_INT32, 0);
  AscValue *cmp_ops[2] = {slack, zero};
  AscValue *whole =
      lt_res(lt_emit(&c, ASC_OP_CMP_S, cmp_ops, 2,
                     asc_type_scalar(lw->ctx, ASC_DT_BOOL), &pred, 1, 0));
  AscOp *branch = lt_emit(&c, ASC_OP_IF, &whole, 1, NULL, NULL, 0, 2);
  if (!branch)
    return 0;
  Cursor in = {lw, branch->regions[0].block, NULL, op->loc, 1};
  copy_whole(&in, load, t, g, cols, pad, nrows, width);
  lt_emit(&in, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  Cursor part = {lw, branch->regions[1].block, NULL, op->loc, 1};
  AscValue *in_rows = clamp(&part, rem_r, nrows);
  AscValue *in_cols = clamp(&part, rem_c, width);
  copy_rows(&part, load, 1, t, g, in_rows, in_cols, cols, pad, nrows, width);
  lt_emit(&part, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  return c.ok && in.ok && part.ok;
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

AscValue *lt_auto_tile(Cursor *c, const AscType *tt, int64_t length) {
  AscAttr len;
  memset(&len, 0, sizeof len);
  len.name = "length";
  len.kind = ASC_ATTR_INT;
  int64_t per_block = 32 / (int64_t)asc_dtype_size(tt->dtype);
  len.i = (length + per_block - 1) / per_block * per_block; /* whole blocks */
  return lt_res(lt_emit(c, ASC_OP_LT_AUTO, NULL, 0, tt, &len, 1, 0));
}

/* t[at] (elements) as a tensor of t's type */
AscValue *lt_view(Cursor *c, AscValue *t, int64_t at) {
  if (at == 0)
    return t;
  AscValue *k = lt_i_const(c, ASC_DT_UINT32, at);
  AscValue *ops[2] = {t, k};
  return lt_res(lt_emit(c, ASC_OP_LT_OFFSET, ops, 2, t->type, NULL, 0, 0));
}

void lt_fold(Cursor *c, AscOpId id, AscValue *dst, AscValue *a, AscValue *b,
             int64_t n) {
  AscValue *count = lt_i_const(c, ASC_DT_INT32, n);
  AscValue *ops[4] = {dst, a, b, count};
  lt_emit(c, id, ops, 4, NULL, NULL, 0, 0);
}

/* t[0] as a scalar (GetValue) */
AscValue *lt_element0(Cursor *c, AscValue *t) {
  AscValue *zero = lt_i_const(c, ASC_DT_UINT32, 0);
  AscValue *ops[2] = {t, zero};
  return lt_res(lt_emit(c, ASC_OP_LT_GET_VALUE, ops, 2,
                        asc_type_scalar(c->lw->ctx, t->type->dtype), NULL, 0,
                        0));
}

/* Axis 0 of rows x width: rows [0, h/2) op rows [h/2, 2 (h/2)) into the
 * work tile (an odd h's last row then folded into row 0), h halved until
 * one row is left: log2(rows) instructions of whole rows. Axis -1: the
 * whole-tile row into a one-element tile, its work space a tile of two
 * elements per 256-byte repeat (the devkit's per-repeat maxima and their
 * indices), whole 32-byte blocks. */
AscAttr lt_enum_attr(const char *name, int kind, int64_t v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = kind;
  a.i = v;
  return a;
}

/* src (n elements) converted to `to` in a new tile (asc.cast) */
AscValue *lt_cast_tile(Cursor *c, AscValue *src, AscDType to, int64_t n,
                       int rint) {
  AscValue *t = lt_auto_tile(
      c,
      asc_type_get(c->lw->ctx, ASC_TY_LOCAL_TENSOR, to, src->type->position, 0),
      n);
  AscAttr mode =
      lt_enum_attr("round_mode", ASC_ENUM_ROUNDMODE,
                   rint ? ASC_ROUNDMODE_CAST_RINT : ASC_ROUNDMODE_CAST_NONE);
  AscValue *count = lt_i_const(c, ASC_DT_INT32, n);
  AscValue *ops[3] = {t, src, count};
  lt_emit(c, ASC_OP_CAST, ops, 3, NULL, &mode, 1, 0);
  return t;
}

/* ---- comparisons and selection -------------------------------------------
 * Compare works on whole 256-byte repeats: a source tile made here (an
 * asc.local_tensor_auto) is lengthened to n elements and filled with zeros
 * (a Duplicate right after it is made; what fills the tile overwrites its
 * first elements), so every byte Compare reads is defined; the bits of the
 * elements past the tile are never selected. 0: t is no such tile. */
static int widen(Lowering *lw, AscValue *t, int64_t n) {
  AscOp *def = t->def;
  if (!def || def->id != ASC_OP_LT_AUTO)
    return 0;
  for (int i = 0; i < def->n_attrs; i++) {
    if (strcmp(def->attrs[i].name, "length") != 0)
      continue;
    if (def->attrs[i].i >= n)
      return 1;
    def->attrs[i].i = n;
    Cursor c = {lw, def->parent, def->next, def->loc, 1};
    AscAttr zero;
    memset(&zero, 0, sizeof zero);
    zero.name = "value";
    zero.kind =
        asc_dtype_is_float(t->type->dtype) ? ASC_ATTR_FLOAT : ASC_ATTR_INT;
    zero.type = asc_type_scalar(lw->ctx, t->type->dtype);
    AscValue *z =
        lt_res(lt_emit(&c, ASC_OP_CONSTANT, NULL, 0, zero.type, &zero, 1, 0));
    AscValue *count = lt_i_const(&c, ASC_DT_INT32, n);
    AscValue *dup[3] = {t, z, count};
    lt_emit(&c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
    return c.ok ? 1 : -1;
  }
  return 0;
}

static AscStatus lower_cmpsel(Lowering *lw, AscOp *op, int64_t length) {
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *src = op->operands[op->id == ASC_OP_TILE_COMPARE ||
                                       op->id == ASC_OP_TILE_COMPARE_SCALAR
                                   ? 0
                                   : 1];
  AscDType dt = src->type->dtype;
  int64_t lanes = 256 / (int64_t)asc_dtype_size(dt);
  AscValue *out = NULL;
  const char *made;
  if (op->id == ASC_OP_TILE_COMPARE || op->id == ASC_OP_TILE_COMPARE_SCALAR) {
    int scalar = op->id == ASC_OP_TILE_COMPARE_SCALAR;
    int64_t n = (length + lanes - 1) / lanes * lanes;
    int w0 = widen(lw, op->operands[0], n);
    int w1 = scalar ? 1 : widen(lw, op->operands[1], n);
    if (w0 < 0 || w1 < 0)
      return lt_oom(lw, op);
    if (!w0 || !w1)
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: a source is no tile of this kernel (an "
                       "asc.local_tensor_auto the pass made)",
                       asc_op_info(op->id)->name);
    const AscAttr *mode = asc_op_attr(op, "cmp_mode");
    AscAttr m = lt_enum_attr("cmp_mode", ASC_ENUM_CMPMODE, mode ? mode->i : 0);
    out = lt_auto_tile(&c, op->results[0].type, n / 8);
    AscValue *count = lt_i_const(&c, ASC_DT_INT32, n);
    AscValue *ops[4] = {out, op->operands[0], op->operands[1], count};
    AscOpId id = scalar ? ASC_OP_COMPARE_SCALAR : ASC_OP_COMPARE;
    lt_emit(&c, id, ops, 4, NULL, &m, 1, 0);
    made = asc_op_info(id)->name;
  } else {
    int scalar = op->id == ASC_OP_TILE_SELECT_SCALAR;
    AscAttr m = lt_enum_attr("sel_mode", ASC_ENUM_SELMODE,
                             scalar ? ASC_SELMODE_VSEL_TENSOR_SCALAR_MODE
                                    : ASC_SELMODE_VSEL_TENSOR_TENSOR_MODE);
    out = lt_auto_tile(&c, op->results[0].type, length);
    AscValue *count = lt_i_const(&c, ASC_DT_UINT32, length);
    AscValue *ops[5] = {out, op->operands[0], op->operands[1], op->operands[2],
                        count};
    AscOpId id = scalar ? ASC_OP_SELECT_SCALAR : ASC_OP_SELECT;
    lt_emit(&c, id, ops, 5, NULL, &m, 1, 0);
    made = asc_op_info(id)->name;
  }
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: a UB tile of %lld elements "
                 "(asc.local_tensor_auto) filled by %s",
                 asc_op_info(op->id)->name, op->loc.file ? op->loc.file : "?",
                 op->loc.line, (long long)length, made);
  return lt_replace_tile(lw, op, out);
}

/* ---- asc2.mask: the masked elementwise ops -------------------------------
 * The level-0 row "op.l0" over whole 256-byte repeats (contiguous: block
 * strides 1, repeat strides 8) with the block's mask; the source tiles and
 * the result are lengthened to whole repeats (the sources zero-filled, as
 * for Compare), the result first filled with `other` when asked. */
static AscStatus lower_masked(Lowering *lw, AscOp *op, int64_t length) {
  const char *name = asc_op_attr_str(op, "op");
  char l0[96];
  snprintf(l0, sizeof l0, "%s.l0", name ? name : "");
  AscOpId id = asc_op_from_name(l0);
  int n_src = op->id == ASC_OP_TILE_MASKED_BINARY ? 2 : 1;
  int scalar = op->id == ASC_OP_TILE_MASKED_BINARY_SCALAR;
  int n_in = n_src + scalar; /* the operands before mask0 */
  const AscOpInfo *info = id == ASC_OP_COUNT ? NULL : asc_op_info(id);
  if (!info || info->n_required != n_in + 5 ||
      info->operands[n_in + 1].kind != ASC_OK_INT)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: \"%s\" has no level-0 form taking a mask (asc2.mask "
                     "masks Add, Sub, Mul, Div, Max, Min, Adds, Muls, Maxs, "
                     "Mins, Abs, Exp, Ln, Sqrt, Rsqrt, Relu)",
                     asc_op_info(op->id)->name, name ? name : "");
  AscDType dt = op->results[0].type->dtype;
  int64_t eb = (int64_t)asc_dtype_size(dt), lanes = 256 / eb;
  int64_t repeats = (length + lanes - 1) / lanes;
  if (repeats > 255)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: a masked tile of %lld elements is %lld repeats, more "
                     "than the 255 of one instruction",
                     asc_op_info(op->id)->name, (long long)length,
                     (long long)repeats);
  int64_t mode = asc_op_attr_int(op, "mask_mode", 0), k0 = 0, k1 = 0;
  if (mode == 0 && asc_int_constant(op->operands[n_in], &k0) &&
      (k0 < 1 || k0 > lanes))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: asc2.mask count %lld is not in [1, %lld] (the %s "
                     "elements of a 256-byte repeat)",
                     asc_op_info(op->id)->name, (long long)k0, (long long)lanes,
                     asc_dtype_name(dt));
  if (mode == 1 && eb == 4 && asc_int_constant(op->operands[n_in + 1], &k1) &&
      k1 != 0)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: asc2.mask bits: the high word must be 0 for %s (a "
                     "repeat holds 64 elements, the low word's bits)",
                     asc_op_info(op->id)->name, asc_dtype_name(dt));
  for (int i = 0; i < n_src; i++) {
    int w = widen(lw, op->operands[i], repeats * lanes);
    if (w < 0)
      return lt_oom(lw, op);
    if (!w)
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: a source is no tile of this kernel (an "
                       "asc.local_tensor_auto the pass made)",
                       asc_op_info(op->id)->name);
  }
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *out = lt_auto_tile(&c, op->results[0].type, repeats * lanes);
  if (asc_op_attr_int(op, "fill", 0)) {
    AscValue *count = lt_i_const(&c, ASC_DT_INT32, repeats * lanes);
    AscValue *dup[3] = {out, op->operands[n_in + 2], count};
    lt_emit(&c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
  }
  AscValue *rp;
  if (n_src == 2) {
    AscValue *f[6];
    for (int i = 0; i < 6; i++)
      f[i] = lt_i_const(&c, ASC_DT_UINT8, i < 3 ? 1 : 8);
    rp = lt_make_struct(&c, asc_struct_info(ASC_STRUCT_BINARY_REPEAT_PARAMS), f,
                        6);
  } else {
    AscValue *f[4];
    for (int i = 0; i < 4; i++)
      f[i] = i < 2 ? lt_i_const(&c, ASC_DT_UINT16, 1)
                   : lt_i_const(&c, ASC_DT_UINT8, 8);
    rp = lt_make_struct(&c, asc_struct_info(ASC_STRUCT_UNARY_REPEAT_PARAMS), f,
                        4);
  }
  AscValue *rep = lt_i_const(&c, ASC_DT_INT32, repeats);
  AscValue *ops[8] = {out};
  for (int i = 0; i < n_in + 2; i++)
    ops[1 + i] = op->operands[i];
  ops[n_in + 3] = rep;
  ops[n_in + 4] = rp;
  AscAttr mattr;
  memset(&mattr, 0, sizeof mattr);
  mattr.name = "mask_mode";
  mattr.kind = ASC_ATTR_INT;
  mattr.i = mode;
  lt_emit(&c, id, ops, n_in + 5, NULL, &mattr, 1, 0);
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: %s over %lld repeats with the "
                 "asc2.mask mask (mask_mode %lld)%s",
                 asc_op_info(op->id)->name, op->loc.file ? op->loc.file : "?",
                 op->loc.line, l0, (long long)repeats, (long long)mode,
                 asc_op_attr_int(op, "fill", 0) ? ", the rest `other`" : "");
  return lt_replace_tile(lw, op, out);
}

/* ---- concat: a DataCopy UB -> UB of each source at its place ---------- */
static AscStatus lower_concat(Lowering *lw, AscOp *op, int64_t length) {
  const char *parts = asc_op_attr_str(op, "parts");
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscDType dt = op->results[0].type->dtype;
  int64_t per_block = 32 / (int64_t)asc_dtype_size(dt), at = 0;
  AscValue *out = lt_auto_tile(&c, op->results[0].type, length);
  const char *p = parts ? parts : "";
  for (int i = 0; i < op->n_operands; i++) {
    char *end = NULL;
    long long n = strtoll(p, &end, 10);
    if (end == p || n <= 0 || n % per_block || n > length - at ||
        op->operands[i]->type->dtype != dt)
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "asc2.concat: parts \"%s\" do not describe %d sources "
                       "of %s, whole 32-byte blocks, %lld elements in all",
                       parts ? parts : "", op->n_operands, asc_dtype_name(dt),
                       (long long)length);
    p = *end == ',' ? end + 1 : end;
    AscValue *dst = lt_view(&c, out, at);
    AscValue *count = lt_i_const(&c, ASC_DT_UINT32, n);
    AscValue *cp[3] = {dst, op->operands[i], count};
    lt_emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    at += n;
  }
  if (at != length || *p)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.concat: parts \"%s\" do not add up to %lld",
                     parts ? parts : "", (long long)length);
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.concat at %s:%d: %d tiles into one of %lld "
                 "elements by asc.data_copy.local_to_local",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 op->n_operands, (long long)length);
  return lt_replace_tile(lw, op, out);
}

static AscStatus lower_op(Lowering *lw, AscOp *op) {
  const AscOpInfo *self = asc_op_info(op->id);
  int64_t length = asc_op_attr_int(op, "length", 0);
  if (length <= 0 || length >= ((int64_t)1 << 31))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: length %lld is no valid number of elements",
                     self->name, (long long)length);
  for (int i = 0; i < op->n_operands + op->n_results; i++) {
    const AscType *t = i < op->n_operands
                           ? op->operands[i]->type
                           : op->results[i - op->n_operands].type;
    if (t->kind == ASC_TY_LOCAL_TENSOR &&
        (t->dtype == ASC_DT_INDEX || t->dtype == ASC_DT_BOOL ||
         asc_dtype_size(t->dtype) == 0 || t->position != ASC_TPOSITION_VECCALC))
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: a tile is a !asc.local_tensor<T, VECCALC> of a "
                       "number type T of the UB (not bool or index)",
                       self->name);
  }
  if (op->id == ASC_OP_TILE_LOAD || op->id == ASC_OP_TILE_STORE) {
    int at = op->id == ASC_OP_TILE_LOAD ? 1 : 2; /* row, col, rows, cols */
    for (int i = at; i < at + 4 && i < op->n_operands; i++)
      if (op->operands[i]->type->kind != ASC_TY_SCALAR ||
          op->operands[i]->type->dtype != ASC_DT_INT32)
        return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: the row, col, rows and cols operands are int32 "
                         "values (the copies compute their offsets in "
                         "int32)",
                         self->name);
  }
  int64_t width = asc_op_attr_int(op, "width", length);
  if ((op->id == ASC_OP_TILE_LOAD || op->id == ASC_OP_TILE_STORE) &&
      (width <= 0 || length % width || length / width > 4095))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: a tile of %lld elements in rows of %lld: the rows "
                     "must divide it and be at most 4095 (DataCopyPad's "
                     "blockCount)",
                     self->name, (long long)length, (long long)width);
  if (op->id == ASC_OP_TILE_REDUCE)
    return lt_lower_reduce(lw, op, length);
  if (op->id == ASC_OP_TILE_SOFTMAX)
    return lt_lower_softmax(lw, op, length);
  if (op->id == ASC_OP_TILE_MASKED_BINARY ||
      op->id == ASC_OP_TILE_MASKED_BINARY_SCALAR ||
      op->id == ASC_OP_TILE_MASKED_UNARY)
    return lower_masked(lw, op, length);
  if (op->id == ASC_OP_TILE_CONCAT)
    return lower_concat(lw, op, length);
  if (op->id == ASC_OP_TILE_RMS_NORM)
    return lt_lower_rms_norm(lw, op, length);
  if (op->id == ASC_OP_TILE_BROADCAST)
    return lt_lower_broadcast(lw, op, length);
  if (op->id == ASC_OP_TILE_COMPARE || op->id == ASC_OP_TILE_COMPARE_SCALAR ||
      op->id == ASC_OP_TILE_SELECT || op->id == ASC_OP_TILE_SELECT_SCALAR)
    return lower_cmpsel(lw, op, length);
  if (op->id == ASC_OP_TILE_STORE) {
    if (!lower_copy(lw, op, 0, op->operands[1], op->operands[0],
                    op->operands + 2, NULL, length, width))
      return lt_oom(lw, op);
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
  case ASC_OP_TILE_CAST:
    row = asc_op_info(ASC_OP_CAST);
    break;
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
  const AscType *tt = op->results[0].type;
  /* whole 32-byte blocks: a copy of a 1-D tile of any length (DataCopyPad)
   * writes its last block whole */
  int64_t per_block = 32 / (int64_t)asc_dtype_size(tt->dtype);
  len.i = (length + per_block - 1) / per_block * per_block;
  AscOp *tile = asc_op_create(lw->ctx, ASC_OP_LT_AUTO, op->loc, NULL, 0, &tt, 1,
                              &len, 1, 0, NULL, NULL);
  if (!tile)
    return lt_oom(lw, op);
  asc_block_insert_before(op->parent, op, tile);
  AscValue *dst = &tile->results[0];
  AscValue *args[4] = {dst, NULL, NULL, NULL};
  int n = 0;
  if (op->id == ASC_OP_TILE_LOAD) {
    if (!lower_copy(lw, op, 1, dst, op->operands[0], op->operands + 1,
                    op->operands[5], length, width))
      return lt_oom(lw, op);
  } else {
    AscValue *count = lt_make_count(lw, op, length);
    if (!count)
      return lt_oom(lw, op);
    for (int i = 0; i < op->n_operands; i++)
      args[1 + i] = op->operands[i];
    args[1 + op->n_operands] = count;
    n = op->n_operands + 2;
    AscAttr reuse;
    memset(&reuse, 0, sizeof reuse);
    reuse.name = "is_reuse_source"; /* adv math: a tile source stays intact */
    reuse.kind = ASC_ATTR_INT;
    int n_attrs = 0;
    const AscAttr *mode = asc_op_attr(op, "round_mode");
    if (op->id == ASC_OP_TILE_CAST && mode) {
      reuse = *mode; /* asc.cast's own attribute */
      n_attrs = 1;
    }
    for (int i = 0; i < row->n_attrs; i++)
      if (strcmp(row->attrs[i].name, "is_reuse_source") == 0)
        n_attrs = 1;
      else if (!row->attrs[i].optional &&
               !(op->id == ASC_OP_TILE_CAST && mode &&
                 strcmp(row->attrs[i].name, "round_mode") == 0))
        return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: %s needs the attribute %s, which tile ops do "
                         "not give",
                         self->name, row->name, row->attrs[i].name);
    AscOp *made = asc_op_create(lw->ctx, row->id, op->loc, args, n, NULL, 0,
                                &reuse, n_attrs, 0, NULL, NULL);
    if (!made)
      return lt_oom(lw, op);
    asc_block_insert_before(op->parent, op, made);
  }
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: a UB tile of %lld elements "
                 "(asc.local_tensor_auto) filled by %s%s",
                 self->name, op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)length, row->name,
                 op->id == ASC_OP_TILE_LOAD
                     ? " (asc.data_copy_pad of the elements inside the "
                       "tensor at its end, the rest pad_value)"
                     : "");
  return lt_replace_tile(lw, op, dst);
}

static int is_tile_op(AscOpId id) {
  return id == ASC_OP_TILE_LOAD || id == ASC_OP_TILE_STORE ||
         id == ASC_OP_TILE_BINARY || id == ASC_OP_TILE_BINARY_SCALAR ||
         id == ASC_OP_TILE_UNARY || id == ASC_OP_TILE_FULL ||
         id == ASC_OP_TILE_REDUCE || id == ASC_OP_TILE_COMPARE ||
         id == ASC_OP_TILE_COMPARE_SCALAR || id == ASC_OP_TILE_SELECT ||
         id == ASC_OP_TILE_SELECT_SCALAR || id == ASC_OP_TILE_SOFTMAX ||
         id == ASC_OP_TILE_CAST || id == ASC_OP_TILE_MASKED_BINARY ||
         id == ASC_OP_TILE_MASKED_BINARY_SCALAR ||
         id == ASC_OP_TILE_MASKED_UNARY || id == ASC_OP_TILE_CONCAT ||
         id == ASC_OP_TILE_RMS_NORM || id == ASC_OP_TILE_BROADCAST;
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
  AscStatus cs = asc_pass_lower_cube(m, NULL); /* the cube side */
  if (cs)
    return cs;
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC || !f->n_regions)
      continue;
    Lowering lw = {m, m->ctx, f->regions[0].block};
    AscStatus s = lower_block(&lw, lw.body);
    if (s)
      return s;
  }
  /* the rows made have rules of their own (element types, counts) that the
   * tile ops' rows do not state: a pass leaves verified IR or fails */
  return asc_module_verify(m);
}
