/* family: tiles. The row-wise lowerings of lower-tiles (lower_tiles.h):
 * asc2.reduce, asc2.softmax, asc2.broadcast and asc2.rms_norm, which work
 * on a tile's rows one at a time: up to ROWS_UNROLLED rows unrolled, more in
 * an scf.for over the rows (RowLoop). */
#include <string.h>

#include "lower_tiles.h"

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
  AscValue *b[3] = {lt_i_const(c, ASC_DT_UINT32, 0), NULL, NULL};
  b[1] = lt_i_const(c, ASC_DT_UINT32, rows);
  b[2] = lt_i_const(c, ASC_DT_UINT32, 1);
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
  AscValue *w = lt_i_const(&l->body, ASC_DT_UINT32, width);
  l->at = lt_arith(&l->body, ASC_OP_MUL_S, l->iv, w);
  return &l->body;
}

static Cursor *row_next(RowLoop *l) {
  if (!l->looped)
    return ++l->r < l->rows && l->outer->ok ? l->outer : NULL;
  lt_emit(&l->body, ASC_OP_YIELD, NULL, 0, NULL, NULL, 0, 0);
  if (!l->body.ok)
    l->outer->ok = 0;
  return NULL;
}

/* t's row (t: rows of l->width elements) */
static AscValue *row_view(RowLoop *l, AscValue *t) {
  if (!l->looped)
    return lt_view(l->outer, t, l->r * l->width);
  AscValue *ops[2] = {t, l->at};
  return lt_res(
      lt_emit(&l->body, ASC_OP_LT_OFFSET, ops, 2, t->type, NULL, 0, 0));
}

/* the row's index (uint32) */
static AscValue *row_index(RowLoop *l) {
  return l->looped ? l->iv : lt_i_const(l->outer, ASC_DT_UINT32, l->r);
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
    x = lt_cast_tile(c, src, ASC_DT_FLOAT32, rows * w, 0);
  const AscType *ft = asc_type_get(c->lw->ctx, ASC_TY_LOCAL_TENSOR,
                                   ASC_DT_FLOAT32, tt->position, 0);
  int64_t pb = 8, nb = w / pb;
  AscValue *work = nb > 1 ? lt_auto_tile(c, ft, rows * w) : x;
  AscValue *out = lt_auto_tile(c, ft, rows);
  RowLoop l;
  for (Cursor *b = row_first(&l, c, rows, w); b; b = row_next(&l)) {
    AscValue *x_r = row_view(&l, x);
    AscValue *w_r = nb > 1 ? row_view(&l, work) : x_r;
    AscValue *cur = x_r;
    for (int64_t h = nb; h > 1 && b->ok; h /= 2) {
      int64_t half = h / 2;
      AscValue *hi = lt_view(b, cur, half * pb);
      lt_fold(b, ASC_OP_MUL, w_r, cur, hi, half * pb);
      if (h % 2) {
        AscValue *last = lt_view(b, cur, (h - 1) * pb);
        lt_fold(b, ASC_OP_MUL, w_r, w_r, last, pb);
      }
      cur = w_r;
    }
    AscValue *p = NULL;
    int64_t n_first = nb ? pb : 0;
    for (int64_t j = 0; j < n_first + w % pb && b->ok; j++) {
      AscValue *t = j < n_first ? cur : x_r;
      int64_t at = j < n_first ? j : nb * pb + (j - n_first);
      AscValue *k = lt_i_const(b, ASC_DT_UINT32, at);
      AscValue *g[2] = {t, k};
      AscValue *v = lt_res(lt_emit(b, ASC_OP_LT_GET_VALUE, g, 2,
                                   asc_type_scalar(c->lw->ctx, ASC_DT_FLOAT32),
                                   NULL, 0, 0));
      p = p ? lt_arith(b, ASC_OP_MUL_S, p, v) : v;
    }
    AscValue *at = row_index(&l);
    AscValue *set[3] = {out, at, p};
    lt_emit(b, ASC_OP_LT_SET_VALUE, set, 3, NULL, NULL, 0, 0);
  }
  if (tt->dtype == ASC_DT_FLOAT16)
    out = lt_cast_tile(c, out, ASC_DT_FLOAT16, rows, 1);
  return out;
}

AscStatus lt_lower_reduce(Lowering *lw, AscOp *op, int64_t length) {
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
      out = lt_auto_tile(&c, tt, rows / 2 * width);
      AscValue *cur = src;
      for (int64_t h = rows; h > 1 && c.ok; h /= 2) {
        int64_t half = h / 2;
        AscValue *hi = lt_view(&c, cur, half * width);
        lt_fold(&c, reductions[k].fold, out, cur, hi, half * width);
        if (h % 2) {
          AscValue *last = lt_view(&c, cur, (h - 1) * width);
          lt_fold(&c, reductions[k].fold, out, out, last, width);
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
    out = lt_auto_tile(&c, tt, rows);
    AscValue *red = lt_auto_tile(&c, tt, 1);
    AscValue *tmp = lt_auto_tile(&c, tt, 2 * ((width + lanes - 1) / lanes));
    RowLoop l;
    for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
      AscValue *row = row_view(&l, src);
      AscValue *count = lt_i_const(b, ASC_DT_INT32, width);
      AscValue *ops[4] = {red, row, tmp, count};
      lt_emit(b, whole, ops, 4, NULL, NULL, 0, 0);
      AscValue *v = lt_element0(b, red);
      AscValue *at = row_index(&l);
      AscValue *set[3] = {out, at, v};
      lt_emit(b, ASC_OP_LT_SET_VALUE, set, 3, NULL, NULL, 0, 0);
    }
  } else {
    made = asc_op_info(whole)->name;
    int64_t lanes = 256 / eb, per_block = 32 / eb;
    int64_t work = 2 * ((length + lanes - 1) / lanes);
    work = (work + per_block - 1) / per_block * per_block;
    out = lt_auto_tile(&c, tt, 1);
    AscValue *tmp = lt_auto_tile(&c, tt, work);
    AscValue *count = lt_i_const(&c, ASC_DT_INT32, length);
    AscValue *ops[4] = {out, src, tmp, count};
    lt_emit(&c, whole, ops, 4, NULL, NULL, 0, 0);
  }
  if (!c.ok || !out)
    return lt_oom(lw, op);
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

/* ---- softmax ----------------------------------------------------------------
 * Each row r of `width` elements, unrolled: m = max (ReduceMax into a
 * one-element tile, GetValue), e = exp(row - m) (m filled into a row tile:
 * Duplicate, Sub; the Ascend C scalar of a half is no half, so no Adds of
 * -m), s = sum(e) (ReduceSum, GetValue), e / s (Duplicate, Div). */

AscStatus lt_lower_softmax(Lowering *lw, AscOp *op, int64_t length) {
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
  AscValue *out = lt_auto_tile(&c, tt, length);
  AscValue *red = lt_auto_tile(&c, tt, 1);
  AscValue *work = lt_auto_tile(&c, tt, 2 * ((width + lanes - 1) / lanes));
  AscValue *fill = lt_auto_tile(&c, tt, width);
  RowLoop l;
  for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
    AscValue *s_r = row_view(&l, src);
    AscValue *o_r = row_view(&l, out);
    AscValue *n = lt_i_const(b, ASC_DT_INT32, width);
    AscValue *rmax[4] = {red, s_r, work, n};
    lt_emit(b, ASC_OP_REDUCE_MAX, rmax, 4, NULL, NULL, 0, 0);
    AscValue *m = lt_element0(b, red);
    AscValue *dup_m[3] = {fill, m, n};
    lt_emit(b, ASC_OP_DUPLICATE, dup_m, 3, NULL, NULL, 0, 0);
    lt_fold(b, ASC_OP_SUB, o_r, s_r, fill, width);
    AscValue *ex[3] = {o_r, o_r, n};
    lt_emit(b, ASC_OP_EXP, ex, 3, NULL, NULL, 0, 0);
    AscValue *rsum[4] = {red, o_r, work, n};
    lt_emit(b, ASC_OP_REDUCE_SUM, rsum, 4, NULL, NULL, 0, 0);
    AscValue *sum = lt_element0(b, red);
    AscValue *dup_s[3] = {fill, sum, n};
    lt_emit(b, ASC_OP_DUPLICATE, dup_s, 3, NULL, NULL, 0, 0);
    lt_fold(b, ASC_OP_DIV, o_r, o_r, fill, width);
  }
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.softmax at %s:%d: %lld rows of %lld "
                 "elements, each by asc.reduce_max, asc.duplicate, asc.sub, "
                 "asc.exp, asc.reduce_sum, asc.duplicate, asc.div",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)rows, (long long)width);
  return lt_replace_tile(lw, op, out);
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
AscStatus lt_lower_broadcast(Lowering *lw, AscOp *op, int64_t length) {
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
  AscValue *out = lt_auto_tile(&c, op->results[0].type, length);
  const char *how;
  int64_t per_block = 32 / eb;
  if (src_cols == width && src_rows == rows) {
    AscValue *count = lt_i_const(
        &c, ASC_DT_UINT32, (length + per_block - 1) / per_block * per_block);
    AscValue *cp[3] = {out, src, count};
    lt_emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    how = "asc.data_copy.local_to_local";
  } else if (src_cols == width) {
    int64_t first = (width + per_block - 1) / per_block * per_block;
    AscValue *count = lt_i_const(&c, ASC_DT_UINT32, first);
    AscValue *cp[3] = {out, src, count};
    lt_emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, cp, 3, NULL, NULL, 0, 0);
    for (int64_t k = 1; k < rows && c.ok; k *= 2) {
      int64_t n = k < rows - k ? k : rows - k;
      AscValue *dst = lt_view(&c, out, k * width);
      AscValue *cnt = lt_i_const(&c, ASC_DT_UINT32, n * width);
      AscValue *dup[3] = {dst, out, cnt};
      lt_emit(&c, ASC_OP_COPY_LOCAL_TO_LOCAL, dup, 3, NULL, NULL, 0, 0);
    }
    how = "asc.data_copy.local_to_local of the row, then doubled";
  } else {
    RowLoop l;
    for (Cursor *b = row_first(&l, &c, src_rows, width); b; b = row_next(&l)) {
      AscValue *k = row_index(&l);
      AscValue *gv[2] = {src, k};
      AscValue *v = lt_res(lt_emit(b, ASC_OP_LT_GET_VALUE, gv, 2,
                                   asc_type_scalar(lw->ctx, dt), NULL, 0, 0));
      AscValue *dst = row_view(&l, out);
      AscValue *n = lt_i_const(b, ASC_DT_INT32, src_rows == 1 ? length : width);
      AscValue *dup[3] = {dst, v, n};
      lt_emit(b, ASC_OP_DUPLICATE, dup, 3, NULL, NULL, 0, 0);
    }
    how = "asc.local_tensor.get_value and asc.duplicate per source row";
  }
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.broadcast at %s:%d: %lld x %lld into %lld "
                 "rows of %lld elements by %s",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)src_rows, (long long)src_cols, (long long)rows,
                 (long long)width, how);
  return lt_replace_tile(lw, op, out);
}

/* ---- rms_norm ------------------------------------------------------------
 * In float32 (a float16 tile cast first and the result cast back with
 * CAST_RINT): sq = x * x (Mul); per row r: ReduceSum of sq's row into a
 * one-element tile, Muls by 1 / width, Adds epsilon, Rsqrt, GetValue, the
 * row Muls by it, Mul by gamma. */
AscStatus lt_lower_rms_norm(Lowering *lw, AscOp *op, int64_t length) {
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
    x = lt_cast_tile(&c, x, ASC_DT_FLOAT32, length, 0);
    g = lt_cast_tile(&c, g, ASC_DT_FLOAT32, width, 0);
  }
  const AscType *ft = asc_type_get(lw->ctx, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                                   op->results[0].type->position, 0);
  AscValue *sq = lt_auto_tile(&c, ft, length);
  AscValue *red = lt_auto_tile(&c, ft, 1);
  AscValue *work = lt_auto_tile(&c, ft, 2 * ((width + 63) / 64));
  AscValue *out = lt_auto_tile(&c, ft, length);
  lt_fold(&c, ASC_OP_MUL, sq, x, x, length);
  RowLoop l;
  for (Cursor *b = row_first(&l, &c, rows, width); b; b = row_next(&l)) {
    AscValue *sq_r = row_view(&l, sq);
    AscValue *x_r = row_view(&l, x);
    AscValue *o_r = row_view(&l, out);
    AscValue *n = lt_i_const(b, ASC_DT_INT32, width);
    AscValue *rs[4] = {red, sq_r, work, n};
    lt_emit(b, ASC_OP_REDUCE_SUM, rs, 4, NULL, NULL, 0, 0);
    AscValue *one = lt_i_const(b, ASC_DT_INT32, 1);
    AscAttr inv;
    memset(&inv, 0, sizeof inv);
    inv.name = "value";
    inv.kind = ASC_ATTR_FLOAT;
    inv.type = asc_type_scalar(lw->ctx, ASC_DT_FLOAT32);
    inv.f = 1.0 / (double)width;
    AscValue *k =
        lt_res(lt_emit(b, ASC_OP_CONSTANT, NULL, 0, inv.type, &inv, 1, 0));
    AscValue *mean[4] = {red, red, k, one};
    lt_emit(b, ASC_OP_MULS, mean, 4, NULL, NULL, 0, 0);
    AscValue *eps[4] = {red, red, op->operands[2], one};
    lt_emit(b, ASC_OP_ADDS, eps, 4, NULL, NULL, 0, 0);
    AscValue *rq[3] = {red, red, one};
    lt_emit(b, ASC_OP_RSQRT, rq, 3, NULL, NULL, 0, 0);
    AscValue *v = lt_element0(b, red);
    AscValue *sc[4] = {o_r, x_r, v, n};
    lt_emit(b, ASC_OP_MULS, sc, 4, NULL, NULL, 0, 0);
    lt_fold(b, ASC_OP_MUL, o_r, o_r, g, width);
  }
  if (dt == ASC_DT_FLOAT16)
    out = lt_cast_tile(&c, out, ASC_DT_FLOAT16, length, 1);
  if (!c.ok || !out)
    return lt_oom(lw, op);
  asc_module_log(lw->m,
                 "lower-tiles: asc2.rms_norm at %s:%d: %lld rows of %lld "
                 "elements in float32: asc.mul, then each row asc.reduce_sum, "
                 "asc.muls, asc.adds, asc.rsqrt, asc.muls, asc.mul",
                 op->loc.file ? op->loc.file : "?", op->loc.line,
                 (long long)rows, (long long)width);
  return lt_replace_tile(lw, op, out);
}
