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
 *                                  or -1: row_products
 *   asc2.masked_* {op, mask_mode}  the level-0 row "op.l0" with the mask
 *   asc2.concat {parts}(a, b, ..)  asc.data_copy.local_to_local each
 *   asc2.rms_norm(a, gamma, eps)   per row in float32 (lower_rms_norm)
 *   asc2.compare{_scalar}(a, b)    asc.compare{_scalar}(m, a, b, n) into a
 *                                  uint8 mask tile, n whole repeats
 *   asc2.select{_scalar}(m, a, b)  asc.select{_scalar}(t, m, a, b, length)
 *   asc2.softmax(a)                per row: reduce_max, duplicate, sub, exp,
 *                                  reduce_sum, duplicate, div
 *   asc2.cast {round_mode}(a)      asc.cast(t, a, length) {round_mode}
 *   asc2.broadcast(a)              a row: asc.data_copy.local_to_local, then
 *                                  doubled; a column: per row get_value,
 *                                  duplicate (lower_broadcast)
 *
 * The `op` attribute names the row of the op table; it must have the
 * operand shape of its tile op (checked here), and the row's own verifier
 * rules (element types, counts) apply to the op made, at the tile op's
 * Python line. Nothing else is rewritten: the pass is idempotent and a
 * module without tile ops is left as it was. */
#include <stdio.h>
#include <stdlib.h>
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

/* The tile op's result replaced by `out` (its name kept) and the op gone:
 * the end of every lowering that makes a new tile. */
static AscStatus replace_tile(Lowering *lw, AscOp *op, AscValue *out) {
  if (op->results[0].name)
    out->name = op->results[0].name;
  asc_replace_all_uses(lw->body, &op->results[0], out);
  asc_block_remove(op->parent, op);
  return ASC_OK;
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

/* (Every op-making call below is a statement of its own: C leaves the
 * order of a call's arguments open, and the IR's order must not depend on
 * the C compiler.) */
static AscValue *clamp(Cursor *c, AscValue *v, int64_t hi) {
  AscValue *zero = i_const(c, ASC_DT_INT32, 0);
  AscValue *pos = arith(c, ASC_OP_MAX_S, v, zero);
  AscValue *top = i_const(c, ASC_DT_INT32, hi);
  return arith(c, ASC_OP_MIN_S, pos, top);
}

/* (32 - x % 32) % 32: the bytes from x to the next 32-byte boundary. */
static AscValue *to_block(Cursor *c, AscValue *x) {
  AscValue *c32 = i_const(c, ASC_DT_INT32, 32);
  AscValue *in_block = arith(c, ASC_OP_REM_S, x, c32);
  AscValue *rest = arith(c, ASC_OP_SUB_S, c32, in_block);
  return arith(c, ASC_OP_REM_S, rest, c32);
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
    AscValue *count = i_const(c, ASC_DT_INT32, rows * width);
    AscValue *dup[3] = {t, pad, count};
    emit(c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
  }
  AscValue *e = i_const(c, ASC_DT_INT32, eb);
  AscValue *bytes = arith(c, ASC_OP_MUL_S, n_cols, e);
  AscValue *gm_gap = arith(c, ASC_OP_SUB_S, cols, n_cols);
  AscValue *gm_stride = arith(c, ASC_OP_MUL_S, gm_gap, e);
  AscValue *tail = to_block(c, bytes); /* pad bytes after a row's data */
  /* UB blocks between rows: (width * E - (bytes + tail)) / 32 */
  AscValue *zero = i_const(c, ASC_DT_INT32, 0);
  AscValue *ub_stride = zero; /* one row: its bytes need not be blocks */
  if (rows > 1) {
    AscValue *row_bytes = i_const(c, ASC_DT_INT32, width * eb);
    AscValue *used = arith(c, ASC_OP_ADD_S, bytes, tail);
    AscValue *gap = arith(c, ASC_OP_SUB_S, row_bytes, used);
    AscValue *c32 = i_const(c, ASC_DT_INT32, 32);
    ub_stride = arith(c, ASC_OP_DIV_S, gap, c32);
  }
  AscValue *ext_f[5] = {n_rows, bytes, load ? gm_stride : ub_stride,
                        load ? ub_stride : gm_stride, zero};
  AscValue *ext = make_struct(
      c, asc_struct_info(ASC_STRUCT_DATA_COPY_EXT_PARAMS), ext_f, 5);
  if (!load) {
    AscValue *cp[3] = {g, t, ext};
    emit(c, ASC_OP_DATA_COPY_PAD_LOCAL_TO_GM, cp, 3, NULL, NULL, 0, 0);
    return;
  }
  AscValue *is_pad = i_const(c, ASC_DT_BOOL, 1);
  AscValue *right = arith(c, ASC_OP_DIV_S, tail, e);
  AscValue *pad_f[4] = {is_pad, zero, right, pad};
  AscValue *pe =
      make_struct(c,
                  asc_struct_instance(
                      asc_struct_info(ASC_STRUCT_DATA_COPY_PAD_EXT_PARAMS), dt),
                  pad_f, 4);
  AscValue *cp[4] = {t, g, ext, pe};
  emit(c, ASC_OP_DATA_COPY_PAD_GM_TO_LOCAL, cp, 4, NULL, NULL, 0, 0);
}

/* The whole tile's copy: one count-form DataCopy when the tile is one row
 * of whole 32-byte blocks, else copy_rows of every row and column. */
static void copy_whole(Cursor *c, int load, AscValue *t, AscValue *g,
                       AscValue *cols, AscValue *pad, int64_t rows,
                       int64_t width) {
  int64_t eb = (int64_t)asc_dtype_size(t->type->dtype);
  if (rows == 1 && (width * eb) % 32 == 0) {
    AscValue *cp[3] = {load ? t : g, load ? g : t,
                       i_const(c, ASC_DT_INT32, width)};
    emit(c, load ? ASC_OP_COPY_GM_TO_LOCAL : ASC_OP_COPY_LOCAL_TO_GM, cp, 3,
         NULL, NULL, 0, 0);
    return;
  }
  AscValue *n_rows = i_const(c, ASC_DT_INT32, rows);
  AscValue *n_cols = i_const(c, ASC_DT_INT32, width);
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
  AscValue *row_start = arith(&c, ASC_OP_MUL_S, row, cols);
  AscValue *base = arith(&c, ASC_OP_ADD_S, row_start, col);
  AscValue *off_ops[2] = {gt, base};
  AscValue *g = res(emit(&c, ASC_OP_GT_OFFSET, off_ops, 2, gt->type, NULL, 0,
                         0)); /* the view at (row, col) */
  int64_t k[4];
  if (asc_int_constant(row, &k[0]) && asc_int_constant(col, &k[1]) &&
      asc_int_constant(rows, &k[2]) && asc_int_constant(cols, &k[3])) {
    int64_t in_r = k[2] - k[0], in_c = k[3] - k[1];
    if (in_r >= nrows && in_c >= width) {
      copy_whole(&c, load, t, g, cols, pad, nrows, width);
    } else {
      in_r = in_r < 0 ? 0 : in_r > nrows ? nrows : in_r;
      in_c = in_c < 0 ? 0 : in_c > width ? width : in_c;
      AscValue *n_rows = i_const(&c, ASC_DT_INT32, in_r);
      AscValue *n_cols = i_const(&c, ASC_DT_INT32, in_c);
      copy_rows(&c, load, 1, t, g, n_rows, n_cols, cols, pad, nrows, width);
    }
    return c.ok;
  }
  AscValue *rem_r = arith(&c, ASC_OP_SUB_S, rows, row);
  AscValue *rem_c = arith(&c, ASC_OP_SUB_S, cols, col);
  /* whole = min(rem_r - nrows, rem_c - width) >= 0 */
  AscValue *k_rows = i_const(&c, ASC_DT_INT32, nrows);
  AscValue *slack_r = arith(&c, ASC_OP_SUB_S, rem_r, k_rows);
  AscValue *k_cols = i_const(&c, ASC_DT_INT32, width);
  AscValue *slack_c = arith(&c, ASC_OP_SUB_S, rem_c, k_cols);
  AscValue *slack = arith(&c, ASC_OP_MIN_S, slack_r, slack_c);
  AscAttr pred;
  memset(&pred, 0, sizeof pred);
  pred.name = "predicate";
  pred.kind = ASC_ATTR_ENUM;
  pred.enum_kind = ASC_ENUM_CMPPRED;
  pred.i = ASC_CMPPRED_GE;
  AscValue *zero = i_const(&c, ASC_DT_INT32, 0);
  AscValue *cmp_ops[2] = {slack, zero};
  AscValue *whole =
      res(emit(&c, ASC_OP_CMP_S, cmp_ops, 2,
               asc_type_scalar(lw->ctx, ASC_DT_BOOL), &pred, 1, 0));
  AscOp *branch = emit(&c, ASC_OP_IF, &whole, 1, NULL, NULL, 0, 2);
  if (!branch)
    return 0;
  Cursor in = {lw, branch->regions[0].block, NULL, op->loc, 1};
  copy_whole(&in, load, t, g, cols, pad, nrows, width);
  emit(&in, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  Cursor part = {lw, branch->regions[1].block, NULL, op->loc, 1};
  AscValue *in_rows = clamp(&part, rem_r, nrows);
  AscValue *in_cols = clamp(&part, rem_c, width);
  copy_rows(&part, load, 1, t, g, in_rows, in_cols, cols, pad, nrows, width);
  emit(&part, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
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

/* ---- reductions ---------------------------------------------------------
 * asc2.reduce {op} of kind `op`: the elementwise row folding two tiles and
 * the whole-tile row (ASC_OP_COUNT: none) of each kind. */
static const struct {
  const char *kind;
  AscOpId fold, whole;
} reductions[] = {
    {"sum", ASC_OP_ADD, ASC_OP_REDUCE_SUM},
    {"max", ASC_OP_MAX, ASC_OP_REDUCE_MAX},
    {"min", ASC_OP_MIN, ASC_OP_REDUCE_MIN},
    {"prod", ASC_OP_MUL, ASC_OP_COUNT},
};

static AscValue *auto_tile(Cursor *c, const AscType *tt, int64_t length) {
  AscAttr len;
  memset(&len, 0, sizeof len);
  len.name = "length";
  len.kind = ASC_ATTR_INT;
  int64_t per_block = 32 / (int64_t)asc_dtype_size(tt->dtype);
  len.i = (length + per_block - 1) / per_block * per_block; /* whole blocks */
  return res(emit(c, ASC_OP_LT_AUTO, NULL, 0, tt, &len, 1, 0));
}

/* t[at] (elements) as a tensor of t's type */
static AscValue *view(Cursor *c, AscValue *t, int64_t at) {
  if (at == 0)
    return t;
  AscValue *k = i_const(c, ASC_DT_UINT32, at);
  AscValue *ops[2] = {t, k};
  return res(emit(c, ASC_OP_LT_OFFSET, ops, 2, t->type, NULL, 0, 0));
}

static void fold(Cursor *c, AscOpId id, AscValue *dst, AscValue *a, AscValue *b,
                 int64_t n) {
  AscValue *count = i_const(c, ASC_DT_INT32, n);
  AscValue *ops[4] = {dst, a, b, count};
  emit(c, id, ops, 4, NULL, NULL, 0, 0);
}

/* ---- row-wise lowerings (softmax, rms_norm, a reduction of each row) ------
 * Up to ROWS_UNROLLED rows are unrolled (each row's views at constant
 * offsets); more are an scf.for over the rows (uint32 index; the views at
 * index * width), whose body the same code makes:
 *
 *   RowLoop l;
 *   for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l))
 *     ... row_view(&l, t), row_index(&l), emitting at b ...
 */
enum { ROWS_UNROLLED = 64 };

typedef struct RowLoop {
  Cursor *outer;
  Cursor body; /* the loop's body (looped) */
  int64_t rows, width, r;
  int looped;
  AscValue *iv, *at; /* looped: the row and its first element */
} RowLoop;

static Cursor *row_first(RowLoop *l, Cursor *c, int64_t rows, int64_t width) {
  memset(l, 0, sizeof *l);
  l->outer = c;
  l->rows = rows;
  l->width = width;
  if (rows <= ROWS_UNROLLED)
    return rows > 0 && c->ok ? c : NULL;
  l->looped = 1;
  AscValue *b[3] = {i_const(c, ASC_DT_UINT32, 0), NULL, NULL};
  b[1] = i_const(c, ASC_DT_UINT32, rows);
  b[2] = i_const(c, ASC_DT_UINT32, 1);
  const AscType *u32 = asc_type_scalar(c->lw->ctx, ASC_DT_UINT32);
  const AscType *const iv_types[1] = {u32};
  const AscType *const *region_types[1] = {iv_types};
  const int region_n[1] = {1};
  AscOp *loop = c->ok && b[0] && b[1] && b[2]
                    ? asc_op_create(c->lw->ctx, ASC_OP_FOR, c->loc, b, 3, NULL,
                                    0, NULL, 0, 1, region_types, region_n)
                    : NULL;
  if (!loop) {
    c->ok = 0;
    return NULL;
  }
  asc_block_insert_before(c->b, c->before, loop);
  Cursor in = {c->lw, loop->regions[0].block, NULL, c->loc, 1};
  l->body = in;
  l->iv = &loop->regions[0].block->args[0];
  AscValue *w = i_const(&l->body, ASC_DT_UINT32, width);
  l->at = arith(&l->body, ASC_OP_MUL_S, l->iv, w);
  return &l->body;
}

static Cursor *row_next(RowLoop *l) {
  if (!l->looped)
    return ++l->r < l->rows && l->outer->ok ? l->outer : NULL;
  emit(&l->body, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  if (!l->body.ok)
    l->outer->ok = 0;
  return NULL;
}

/* t's row (t: rows of l->width elements) */
static AscValue *row_view(RowLoop *l, AscValue *t) {
  if (!l->looped)
    return view(l->outer, t, l->r * l->width);
  AscValue *ops[2] = {t, l->at};
  return res(emit(&l->body, ASC_OP_LT_OFFSET, ops, 2, t->type, NULL, 0, 0));
}

/* the row's index (uint32) */
static AscValue *row_index(RowLoop *l) {
  return l->looped ? l->iv : i_const(l->outer, ASC_DT_UINT32, l->r);
}

/* t[0] as a scalar (GetValue) */
static AscValue *element0(Cursor *c, AscValue *t) {
  AscValue *zero = i_const(c, ASC_DT_UINT32, 0);
  AscValue *ops[2] = {t, zero};
  return res(emit(c, ASC_OP_LT_GET_VALUE, ops, 2,
                  asc_type_scalar(c->lw->ctx, t->type->dtype), NULL, 0, 0));
}

/* Axis 0 of rows x width: rows [0, h/2) op rows [h/2, 2 (h/2)) into the
 * work tile (an odd h's last row then folded into row 0), h halved until
 * one row is left: log2(rows) instructions of whole rows. Axis -1: the
 * whole-tile row into a one-element tile, its work space a tile of two
 * elements per 256-byte repeat (the devkit's per-repeat maxima and their
 * indices), whole 32-byte blocks. */
static AscAttr enum_attr(const char *name, int kind, int64_t v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = kind;
  a.i = v;
  return a;
}

/* src (n elements) converted to `to` in a new tile (asc.cast) */
static AscValue *cast_tile(Cursor *c, AscValue *src, AscDType to, int64_t n,
                           int rint) {
  AscValue *t = auto_tile(
      c,
      asc_type_get(c->lw->ctx, ASC_TY_LOCAL_TENSOR, to, src->type->position, 0),
      n);
  AscAttr mode =
      enum_attr("round_mode", ASC_ENUM_ROUNDMODE,
                rint ? ASC_ROUNDMODE_CAST_RINT : ASC_ROUNDMODE_CAST_NONE);
  AscValue *count = i_const(c, ASC_DT_INT32, n);
  AscValue *ops[3] = {t, src, count};
  emit(c, ASC_OP_CAST, ops, 3, NULL, &mode, 1, 0);
  return t;
}

/* The product of each of `rows` rows of `w` elements of src (float16 /
 * float32; axis 1, or all elements as one row), the vector unit having no
 * product reduction: in float32 (a float16 tile cast first, exactly), a
 * row's whole 32-byte blocks folded by Mul into its first block (halving
 * them each step, an odd count's last block folded into block 0), then
 * that block's elements and the row's tail past its whole blocks
 * multiplied by the scalar unit (GetValue, arith.mul) and written by
 * SetValue; a float16 result is cast back once (CAST_RINT). */
static AscValue *row_products(Cursor *c, AscValue *src, const AscType *tt,
                              int64_t rows, int64_t w) {
  AscValue *x = src;
  if (tt->dtype == ASC_DT_FLOAT16)
    x = cast_tile(c, src, ASC_DT_FLOAT32, rows * w, 0);
  const AscType *ft = asc_type_get(c->lw->ctx, ASC_TY_LOCAL_TENSOR,
                                   ASC_DT_FLOAT32, tt->position, 0);
  int64_t pb = 8, nb = w / pb;
  AscValue *work = nb > 1 ? auto_tile(c, ft, rows * w) : x;
  AscValue *out = auto_tile(c, ft, rows);
  RowLoop l;
  for (Cursor *b = row_first(&l, c, rows, w); b; b = row_next(&l)) {
    AscValue *x_r = row_view(&l, x);
    AscValue *w_r = nb > 1 ? row_view(&l, work) : x_r;
    AscValue *cur = x_r;
    for (int64_t h = nb; h > 1 && b->ok; h /= 2) {
      int64_t half = h / 2;
      AscValue *hi = view(b, cur, half * pb);
      fold(b, ASC_OP_MUL, w_r, cur, hi, half * pb);
      if (h % 2) {
        AscValue *last = view(b, cur, (h - 1) * pb);
        fold(b, ASC_OP_MUL, w_r, w_r, last, pb);
      }
      cur = w_r;
    }
    AscValue *p = NULL;
    int64_t n_first = nb ? pb : 0;
    for (int64_t j = 0; j < n_first + w % pb && b->ok; j++) {
      AscValue *t = j < n_first ? cur : x_r;
      int64_t at = j < n_first ? j : nb * pb + (j - n_first);
      AscValue *k = i_const(b, ASC_DT_UINT32, at);
      AscValue *g[2] = {t, k};
      AscValue *v =
          res(emit(b, ASC_OP_LT_GET_VALUE, g, 2,
                   asc_type_scalar(c->lw->ctx, ASC_DT_FLOAT32), NULL, 0, 0));
      p = p ? arith(b, ASC_OP_MUL_S, p, v) : v;
    }
    AscValue *at = row_index(&l);
    AscValue *set[3] = {out, at, p};
    emit(b, ASC_OP_LT_SET_VALUE, set, 3, NULL, NULL, 0, 0);
  }
  if (tt->dtype == ASC_DT_FLOAT16)
    out = cast_tile(c, out, ASC_DT_FLOAT16, rows, 1);
  return out;
}

static AscStatus lower_reduce(Lowering *lw, AscOp *op, int64_t length) {
  const char *kind = asc_op_attr_str(op, "op");
  int64_t width = asc_op_attr_int(op, "width", length);
  int64_t axis = asc_op_attr_int(op, "axis", -1);
  size_t k = 0;
  while (k < sizeof reductions / sizeof reductions[0] &&
         !(kind && strcmp(kind, reductions[k].kind) == 0))
    k++;
  if (k == sizeof reductions / sizeof reductions[0])
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.reduce: op = \"%s\" is none of sum, max, min, prod",
                     kind ? kind : "");
  AscOpId whole = reductions[k].whole;
  if (width <= 0 || length % width || axis < -1 || axis > 1)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.reduce: axis %lld of %lld elements in rows of %lld: "
                     "axis must be 0 (the rows), 1 (each row) or -1 (all), "
                     "the rows divide the elements",
                     (long long)axis, (long long)length, (long long)width);
  AscDType edt = op->results[0].type->dtype;
  if (axis != 0 && whole == ASC_OP_COUNT &&
      (edt != ASC_DT_FLOAT16 && edt != ASC_DT_FLOAT32))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.reduce: %s over a row of %s is not supported (no "
                     "whole-row instruction; float16 and float32 only)",
                     kind, asc_dtype_name(edt));
  AscValue *src = op->operands[0];
  const AscType *tt = op->results[0].type;
  int64_t eb = (int64_t)asc_dtype_size(tt->dtype);
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *out = NULL;
  const char *made = asc_op_info(reductions[k].fold)->name;
  if (axis == 0) {
    int64_t rows = length / width;
    if (rows == 1) {
      out = src; /* one row: the result is the tile itself */
    } else {
      out = auto_tile(&c, tt, rows / 2 * width);
      AscValue *cur = src;
      for (int64_t h = rows; h > 1 && c.ok; h /= 2) {
        int64_t half = h / 2;
        AscValue *hi = view(&c, cur, half * width);
        fold(&c, reductions[k].fold, out, cur, hi, half * width);
        if (h % 2) {
          AscValue *last = view(&c, cur, (h - 1) * width);
          fold(&c, reductions[k].fold, out, out, last, width);
        }
        cur = out;
      }
    }
  } else if (whole == ASC_OP_COUNT) { /* prod over each row or all */
    made = "asc.mul, get_value, arith.mul, set_value";
    int64_t rows = axis == 1 ? length / width : 1;
    out = row_products(&c, src, tt, rows, axis == 1 ? width : length);
  } else if (axis == 1) {
    /* each row: the whole-row reduction into a one-element tile, read by
     * GetValue and written to the row's element by SetValue */
    made = asc_op_info(whole)->name;
    int64_t rows = length / width, lanes = 256 / eb;
    out = auto_tile(&c, tt, rows);
    AscValue *red = auto_tile(&c, tt, 1);
    AscValue *tmp = auto_tile(&c, tt, 2 * ((width + lanes - 1) / lanes));
    RowLoop l;
    for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
      AscValue *row = row_view(&l, src);
      AscValue *count = i_const(b, ASC_DT_INT32, width);
      AscValue *ops[4] = {red, row, tmp, count};
      emit(b, whole, ops, 4, NULL, NULL, 0, 0);
      AscValue *v = element0(b, red);
      AscValue *at = row_index(&l);
      AscValue *set[3] = {out, at, v};
      emit(b, ASC_OP_LT_SET_VALUE, set, 3, NULL, NULL, 0, 0);
    }
  } else {
    made = asc_op_info(whole)->name;
    int64_t lanes = 256 / eb, per_block = 32 / eb;
    int64_t work = 2 * ((length + lanes - 1) / lanes);
    work = (work + per_block - 1) / per_block * per_block;
    out = auto_tile(&c, tt, 1);
    AscValue *tmp = auto_tile(&c, tt, work);
    AscValue *count = i_const(&c, ASC_DT_INT32, length);
    AscValue *ops[4] = {out, src, tmp, count};
    emit(&c, whole, ops, 4, NULL, NULL, 0, 0);
  }
  if (!c.ok || !out)
    return oom(lw, op);
  if (out != src && op->results[0].name)
    out->name = op->results[0].name;
  asc_replace_all_uses(lw->body, &op->results[0], out);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.reduce at %s:%d: %s of %lld elements in "
                 "rows of %lld over %s by %s",
                 op->loc.file ? op->loc.file : "?", op->loc.line, kind,
                 (long long)length, (long long)width,
                 axis == 0   ? "the rows"
                 : axis == 1 ? "each row (GetValue, SetValue)"
                             : "all",
                 made);
  asc_block_remove(op->parent, op);
  return ASC_OK;
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
        res(emit(&c, ASC_OP_CONSTANT, NULL, 0, zero.type, &zero, 1, 0));
    AscValue *count = i_const(&c, ASC_DT_INT32, n);
    AscValue *dup[3] = {t, z, count};
    emit(&c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
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
      return oom(lw, op);
    if (!w0 || !w1)
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: a source is no tile of this kernel (an "
                       "asc.local_tensor_auto the pass made)",
                       asc_op_info(op->id)->name);
    const AscAttr *mode = asc_op_attr(op, "cmp_mode");
    AscAttr m = enum_attr("cmp_mode", ASC_ENUM_CMPMODE, mode ? mode->i : 0);
    out = auto_tile(&c, op->results[0].type, n / 8);
    AscValue *count = i_const(&c, ASC_DT_INT32, n);
    AscValue *ops[4] = {out, op->operands[0], op->operands[1], count};
    AscOpId id = scalar ? ASC_OP_COMPARE_SCALAR : ASC_OP_COMPARE;
    emit(&c, id, ops, 4, NULL, &m, 1, 0);
    made = asc_op_info(id)->name;
  } else {
    int scalar = op->id == ASC_OP_TILE_SELECT_SCALAR;
    AscAttr m = enum_attr("sel_mode", ASC_ENUM_SELMODE,
                          scalar ? ASC_SELMODE_VSEL_TENSOR_SCALAR_MODE
                                 : ASC_SELMODE_VSEL_TENSOR_TENSOR_MODE);
    out = auto_tile(&c, op->results[0].type, length);
    AscValue *count = i_const(&c, ASC_DT_UINT32, length);
    AscValue *ops[5] = {out, op->operands[0], op->operands[1], op->operands[2],
                        count};
    AscOpId id = scalar ? ASC_OP_SELECT_SCALAR : ASC_OP_SELECT;
    emit(&c, id, ops, 5, NULL, &m, 1, 0);
    made = asc_op_info(id)->name;
  }
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: a UB tile of %lld elements "
                 "(asc.local_tensor_auto) filled by %s",
                 asc_op_info(op->id)->name, op->loc.file ? op->loc.file : "?",
                 op->loc.line, (long long)length, made);
  return replace_tile(lw, op, out);
}

/* ---- softmax ----------------------------------------------------------------
 * Each row r of `width` elements, unrolled: m = max (ReduceMax into a
 * one-element tile, GetValue), e = exp(row - m) (m filled into a row tile:
 * Duplicate, Sub; the Ascend C scalar of a half is no half, so no Adds of
 * -m), s = sum(e) (ReduceSum, GetValue), e / s (Duplicate, Div). */

static AscStatus lower_softmax(Lowering *lw, AscOp *op, int64_t length) {
  int64_t width = asc_op_attr_int(op, "width", length);
  AscValue *src = op->operands[0];
  AscDType dt = src->type->dtype;
  if (dt != ASC_DT_FLOAT16 && dt != ASC_DT_FLOAT32)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.softmax: tiles of %s are not supported (float16 and "
                     "float32)",
                     asc_dtype_name(dt));
  if (width <= 0 || length % width)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.softmax: %lld elements in rows of %lld: the rows "
                     "must divide the tile",
                     (long long)length, (long long)width);
  int64_t rows = length / width;
  int64_t eb = (int64_t)asc_dtype_size(dt);
  if (rows > 1 && (width * eb) % 32)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.softmax: rows of %lld bytes are no whole 32-byte "
                     "blocks",
                     (long long)(width * eb));
  const AscType *tt = op->results[0].type;
  Cursor c = {lw, op->parent, op, op->loc, 1};
  int64_t lanes = 256 / eb;
  AscValue *out = auto_tile(&c, tt, length);
  AscValue *red = auto_tile(&c, tt, 1);
  AscValue *work = auto_tile(&c, tt, 2 * ((width + lanes - 1) / lanes));
  AscValue *fill = auto_tile(&c, tt, width);
  RowLoop l;
  for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
    AscValue *s_r = row_view(&l, src);
    AscValue *o_r = row_view(&l, out);
    AscValue *n = i_const(b, ASC_DT_INT32, width);
    AscValue *rmax[4] = {red, s_r, work, n};
    emit(b, ASC_OP_REDUCE_MAX, rmax, 4, NULL, NULL, 0, 0);
    AscValue *m = element0(b, red);
    AscValue *dup_m[3] = {fill, m, n};
    emit(b, ASC_OP_DUPLICATE, dup_m, 3, NULL, NULL, 0, 0);
    fold(b, ASC_OP_SUB, o_r, s_r, fill, width);
    AscValue *ex[3] = {o_r, o_r, n};
    emit(b, ASC_OP_EXP, ex, 3, NULL, NULL, 0, 0);
    AscValue *rsum[4] = {red, o_r, work, n};
    emit(b, ASC_OP_REDUCE_SUM, rsum, 4, NULL, NULL, 0, 0);
    AscValue *sum = element0(b, red);
    AscValue *dup_s[3] = {fill, sum, n};
    emit(b, ASC_OP_DUPLICATE, dup_s, 3, NULL, NULL, 0, 0);
    fold(b, ASC_OP_DIV, o_r, o_r, fill, width);
  }
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.softmax at %s:%d: %lld rows of %lld "
                 "elements, each by asc.reduce_max, asc.duplicate, asc.sub, "
                 "asc.exp, asc.reduce_sum, asc.duplicate, asc.div",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)rows, (long long)width);
  return replace_tile(lw, op, out);
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
      return oom(lw, op);
    if (!w)
      return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: a source is no tile of this kernel (an "
                       "asc.local_tensor_auto the pass made)",
                       asc_op_info(op->id)->name);
  }
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *out = auto_tile(&c, op->results[0].type, repeats * lanes);
  if (asc_op_attr_int(op, "fill", 0)) {
    AscValue *count = i_const(&c, ASC_DT_INT32, repeats * lanes);
    AscValue *dup[3] = {out, op->operands[n_in + 2], count};
    emit(&c, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
  }
  AscValue *rp;
  if (n_src == 2) {
    AscValue *f[6];
    for (int i = 0; i < 6; i++)
      f[i] = i_const(&c, ASC_DT_UINT8, i < 3 ? 1 : 8);
    rp =
        make_struct(&c, asc_struct_info(ASC_STRUCT_BINARY_REPEAT_PARAMS), f, 6);
  } else {
    AscValue *f[4];
    for (int i = 0; i < 4; i++)
      f[i] =
          i < 2 ? i_const(&c, ASC_DT_UINT16, 1) : i_const(&c, ASC_DT_UINT8, 8);
    rp = make_struct(&c, asc_struct_info(ASC_STRUCT_UNARY_REPEAT_PARAMS), f, 4);
  }
  AscValue *rep = i_const(&c, ASC_DT_INT32, repeats);
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
  emit(&c, id, ops, n_in + 5, NULL, &mattr, 1, 0);
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: %s at %s:%d: %s over %lld repeats with the "
                 "asc2.mask mask (mask_mode %lld)%s",
                 asc_op_info(op->id)->name, op->loc.file ? op->loc.file : "?",
                 op->loc.line, l0, (long long)repeats, (long long)mode,
                 asc_op_attr_int(op, "fill", 0) ? ", the rest `other`" : "");
  return replace_tile(lw, op, out);
}

/* ---- concat: a DataCopy UB -> UB of each source at its place ---------- */
static AscStatus lower_concat(Lowering *lw, AscOp *op, int64_t length) {
  const char *parts = asc_op_attr_str(op, "parts");
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscDType dt = op->results[0].type->dtype;
  int64_t per_block = 32 / (int64_t)asc_dtype_size(dt), at = 0;
  AscValue *out = auto_tile(&c, op->results[0].type, length);
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
    AscValue *dst = view(&c, out, at);
    AscValue *count = i_const(&c, ASC_DT_UINT32, n);
    AscValue *cp[3] = {dst, op->operands[i], count};
    emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    at += n;
  }
  if (at != length || *p)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.concat: parts \"%s\" do not add up to %lld",
                     parts ? parts : "", (long long)length);
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.concat at %s:%d: %d tiles into one of %lld "
                 "elements by asc.data_copy.local_to_local",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 op->n_operands, (long long)length);
  return replace_tile(lw, op, out);
}

/* ---- broadcast ------------------------------------------------------------
 * The source (src_rows x src_cols, each 1 or the result's rows / width) into
 * a new tile of rows x width: a row (src_rows 1, src_cols width) is copied
 * into row 0 and then doubled (rows [0, k) copied to [k, 2k), DataCopy UB ->
 * UB): log2(rows) + 1 copies of whole rows; a column (src_cols 1) is per
 * row GetValue of its element and Duplicate of it over the row (the rows
 * unrolled up to ROWS_UNROLLED, else an scf.for: RowLoop); one element:
 * GetValue, one Duplicate; equal shapes: one copy. Rows of more than one are
 * whole 32-byte blocks. */
static AscStatus lower_broadcast(Lowering *lw, AscOp *op, int64_t length) {
  int64_t width = asc_op_attr_int(op, "width", length);
  int64_t src_rows = asc_op_attr_int(op, "src_rows", 0);
  int64_t src_cols = asc_op_attr_int(op, "src_cols", 0);
  AscValue *src = op->operands[0];
  AscDType dt = op->results[0].type->dtype;
  int64_t eb = (int64_t)asc_dtype_size(dt);
  int64_t rows = width > 0 && length % width == 0 ? length / width : 0;
  if (rows <= 0 || src->type->dtype != dt ||
      (src_rows != 1 && src_rows != rows) ||
      (src_cols != 1 && src_cols != width) || (rows > 1 && (width * eb) % 32))
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.broadcast: a %lld x %lld tile of %s cannot be "
                     "broadcast to %lld elements in rows of %lld (each source "
                     "dim 1 or the result's, the source of one type, rows of "
                     "whole 32-byte blocks)",
                     (long long)src_rows, (long long)src_cols,
                     asc_dtype_name(src->type->dtype), (long long)length,
                     (long long)width);
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *out = auto_tile(&c, op->results[0].type, length);
  const char *how;
  int64_t per_block = 32 / eb;
  if (src_cols == width && src_rows == rows) {
    AscValue *count = i_const(&c, ASC_DT_UINT32,
                              (length + per_block - 1) / per_block * per_block);
    AscValue *cp[3] = {out, src, count};
    emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    how = "asc.data_copy.local_to_local";
  } else if (src_cols == width) {
    int64_t first = (width + per_block - 1) / per_block * per_block;
    AscValue *count = i_const(&c, ASC_DT_UINT32, first);
    AscValue *cp[3] = {out, src, count};
    emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    for (int64_t k = 1; k < rows && c.ok; k *= 2) {
      int64_t n = k < rows - k ? k : rows - k;
      AscValue *dst = view(&c, out, k * width);
      AscValue *cnt = i_const(&c, ASC_DT_UINT32, n * width);
      AscValue *dup[3] = {dst, out, cnt};
      emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, dup, 3, NULL, NULL, 0, 0);
    }
    how = "asc.data_copy.local_to_local of the row, then doubled";
  } else {
    RowLoop l;
    for (Cursor *b = row_first(&l, &c, src_rows, width); b; b = row_next(&l)) {
      AscValue *k = row_index(&l);
      AscValue *gv[2] = {src, k};
      AscValue *v = res(emit(b, ASC_OP_LT_GET_VALUE, gv, 2,
                             asc_type_scalar(lw->ctx, dt), NULL, 0, 0));
      AscValue *dst = row_view(&l, out);
      AscValue *n = i_const(b, ASC_DT_INT32, src_rows == 1 ? length : width);
      AscValue *dup[3] = {dst, v, n};
      emit(b, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
    }
    how = "asc.local_tensor.get_value and asc.duplicate per source row";
  }
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.broadcast at %s:%d: %lld x %lld into %lld "
                 "rows of %lld elements by %s",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)src_rows, (long long)src_cols, (long long)rows,
                 (long long)width, how);
  return replace_tile(lw, op, out);
}

/* ---- rms_norm ------------------------------------------------------------
 * In float32 (a float16 tile cast first and the result cast back with
 * CAST_RINT): sq = x * x (Mul); per row r: ReduceSum of sq's row into a
 * one-element tile, Muls by 1 / width, Adds epsilon, Rsqrt, GetValue, the
 * row Muls by it, Mul by gamma. */
static AscStatus lower_rms_norm(Lowering *lw, AscOp *op, int64_t length) {
  int64_t width = asc_op_attr_int(op, "width", length);
  AscDType dt = op->results[0].type->dtype;
  if ((dt != ASC_DT_FLOAT16 && dt != ASC_DT_FLOAT32) || width <= 0 ||
      length % width || op->operands[1]->type->dtype != dt)
    return asc_error(lw->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc2.rms_norm: %lld %s elements in rows of %lld: float16 "
                     "or float32 (gamma too), the rows dividing the tile",
                     (long long)length, asc_dtype_name(dt), (long long)width);
  int64_t rows = length / width;
  if (rows > 1 && (width * 4) % 32)
    return asc_error(
        lw->ctx, ASC_ERR_COMPILE, op->loc,
        "asc2.rms_norm: rows of %lld elements are no whole 32-byte "
        "blocks in float32",
        (long long)width);
  Cursor c = {lw, op->parent, op, op->loc, 1};
  AscValue *x = op->operands[0], *g = op->operands[1];
  if (dt == ASC_DT_FLOAT16) {
    x = cast_tile(&c, x, ASC_DT_FLOAT32, length, 0);
    g = cast_tile(&c, g, ASC_DT_FLOAT32, width, 0);
  }
  const AscType *ft = asc_type_get(lw->ctx, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                                   op->results[0].type->position, 0);
  AscValue *sq = auto_tile(&c, ft, length);
  AscValue *red = auto_tile(&c, ft, 1);
  AscValue *work = auto_tile(&c, ft, 2 * ((width + 63) / 64));
  AscValue *out = auto_tile(&c, ft, length);
  fold(&c, ASC_OP_MUL, sq, x, x, length);
  RowLoop l;
  for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
    AscValue *sq_r = row_view(&l, sq);
    AscValue *x_r = row_view(&l, x);
    AscValue *o_r = row_view(&l, out);
    AscValue *n = i_const(b, ASC_DT_INT32, width);
    AscValue *rs[4] = {red, sq_r, work, n};
    emit(b, ASC_OP_REDUCE_SUM, rs, 4, NULL, NULL, 0, 0);
    AscValue *one = i_const(b, ASC_DT_INT32, 1);
    AscAttr inv;
    memset(&inv, 0, sizeof inv);
    inv.name = "value";
    inv.kind = ASC_ATTR_FLOAT;
    inv.type = asc_type_scalar(lw->ctx, ASC_DT_FLOAT32);
    inv.f = 1.0 / (double)width;
    AscValue *k = res(emit(b, ASC_OP_CONSTANT, NULL, 0, inv.type, &inv, 1, 0));
    AscValue *mean[4] = {red, red, k, one};
    emit(b, ASC_OP_MULS, mean, 4, NULL, NULL, 0, 0);
    AscValue *eps[4] = {red, red, op->operands[2], one};
    emit(b, ASC_OP_ADDS, eps, 4, NULL, NULL, 0, 0);
    AscValue *rq[3] = {red, red, one};
    emit(b, ASC_OP_RSQRT, rq, 3, NULL, NULL, 0, 0);
    AscValue *v = element0(b, red);
    AscValue *sc[4] = {o_r, x_r, v, n};
    emit(b, ASC_OP_MULS, sc, 4, NULL, NULL, 0, 0);
    fold(b, ASC_OP_MUL, o_r, o_r, g, width);
  }
  if (dt == ASC_DT_FLOAT16)
    out = cast_tile(&c, out, ASC_DT_FLOAT16, length, 1);
  if (!c.ok || !out)
    return oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.rms_norm at %s:%d: %lld rows of %lld "
                 "elements in float32: asc.mul, then each row asc.reduce_sum, "
                 "asc.muls, asc.adds, asc.rsqrt, asc.muls, asc.mul",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)rows, (long long)width);
  return replace_tile(lw, op, out);
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
    return lower_reduce(lw, op, length);
  if (op->id == ASC_OP_TILE_SOFTMAX)
    return lower_softmax(lw, op, length);
  if (op->id == ASC_OP_TILE_MASKED_BINARY ||
      op->id == ASC_OP_TILE_MASKED_BINARY_SCALAR ||
      op->id == ASC_OP_TILE_MASKED_UNARY)
    return lower_masked(lw, op, length);
  if (op->id == ASC_OP_TILE_CONCAT)
    return lower_concat(lw, op, length);
  if (op->id == ASC_OP_TILE_RMS_NORM)
    return lower_rms_norm(lw, op, length);
  if (op->id == ASC_OP_TILE_BROADCAST)
    return lower_broadcast(lw, op, length);
  if (op->id == ASC_OP_TILE_COMPARE || op->id == ASC_OP_TILE_COMPARE_SCALAR ||
      op->id == ASC_OP_TILE_SELECT || op->id == ASC_OP_TILE_SELECT_SCALAR)
    return lower_cmpsel(lw, op, length);
  if (op->id == ASC_OP_TILE_STORE) {
    if (!lower_copy(lw, op, 0, op->operands[1], op->operands[0],
                    op->operands + 2, NULL, length, width))
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
    return oom(lw, op);
  asc_block_insert_before(op->parent, op, tile);
  AscValue *dst = &tile->results[0];
  AscValue *args[4] = {dst, NULL, NULL, NULL};
  int n = 0;
  if (op->id == ASC_OP_TILE_LOAD) {
    if (!lower_copy(lw, op, 1, dst, op->operands[0], op->operands + 1,
                    op->operands[5], length, width))
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
      return oom(lw, op);
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
  return replace_tile(lw, op, dst);
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
