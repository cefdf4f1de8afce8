/* family: tiles, the cube side. `lower-cube` (also run first by
 * lower-tiles): asc2's cube tile ops (ops.def) become the cube
 * instructions of ASC-IR on tiles the UB planner places.
 *
 * Each cube tile becomes an asc.local_tensor_auto at its position (A1: L1,
 * A2: L0A, B2: L0B, CO1: L0C); plan-ub gives each position a pool of its
 * own (a TBuf at that position), reusing bytes between tiles whose
 * lifetimes do not overlap and double-buffering a tile of a loop body that
 * two pipes touch (the MTE2 load of the next iteration then overlaps the
 * mmad of this one). Layouts: L1 tiles are NZ (column blocks of 32 bytes,
 * each holding all the tile's rows), L0A ZZ, L0B ZN, L0C NZ float32.
 *
 *   asc2.cube_load -> A1           asc.data_copy.nd2nz.gm_to_local
 *   asc2.cube_load -> A2 / B2      the above into a scratch L1 tile, then
 *                                  as asc2.cube_copy (float32 into B2: the
 *                                  rows of 16 each an ND matrix, then per
 *                                  16 rows asc.load_data_with_transpose)
 *   asc2.cube_copy A1 -> A2        asc.load_data.2d per row of fractals
 *   asc2.cube_copy A1 -> B2        asc.load_data.2d per row of fractals,
 *                                  each transposed (16-bit types)
 *   asc2.cube_copy CO1 -> A1       asc.data_copy.co12dst.local_to_local
 *                                  (quant_pre from the result type, relu)
 *   asc2.zeros_acc                 asc.init_const_value.l0 of zero
 *                                  fractals in L0A / L0B, one asc.mmad
 *   asc2.matmul / matmul_acc       asc.mmad (cmatrix_init_val 1 / 0)
 *   asc2.cube_store                asc.fixpipe (NZ2ND, quant_pre, relu_en)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pass.h"

enum { FRACTAL = 16 };

typedef struct Cur {
  AscContext *ctx;
  AscBlock *b;
  AscOp *before;
  AscLoc loc;
  int ok;
  int overflow; /* a compile-time offset past the int32 range */
} Cur;

static AscValue *res(AscOp *op) { return op ? &op->results[0] : NULL; }

static AscOp *put(Cur *c, AscOp *op) {
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->ok = 0;
  return op;
}

static AscOp *emit(Cur *c, AscOpId id, AscValue *const *operands, int n,
                   const AscType *result, const AscAttr *attrs, int n_attrs) {
  for (int i = 0; i < n; i++)
    if (!operands[i])
      c->ok = 0;
  if (!c->ok)
    return NULL;
  return put(c, asc_op_create(c->ctx, id, c->loc, operands, n, &result,
                              result ? 1 : 0, attrs, n_attrs, 0, NULL, NULL));
}

static AscValue *k_int(Cur *c, AscDType t, int64_t v) {
  return c->ok ? res(put(c, asc_make_int_constant(
                                c->ctx, asc_type_scalar(c->ctx, t), v, c->loc)))
               : NULL;
}

static AscValue *arith(Cur *c, AscOpId id, AscValue *x, AscValue *y) {
  return c->ok && x && y
             ? res(put(c, asc_make_binary(c->ctx, id, x, y, c->loc)))
             : (c->ok = 0, NULL);
}

/* A compile-time offset as an i32 constant (NULL: 0); past the int32
 * range a CompileError. */
static AscValue *k_off(Cur *c, int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX) {
    c->overflow = 1;
    c->ok = 0;
    return NULL;
  }
  return v ? k_int(c, ASC_DT_INT32, v) : NULL;
}

/* x * k + y (x, y: NULL for 0), folded where constant; NULL for 0. (The
 * constants are i32 and k at most 4096: the int64 products cannot
 * overflow.) */
static AscValue *mul_add(Cur *c, AscValue *x, int64_t k, AscValue *y) {
  int64_t a = 0, b = 0;
  int kx = !x || asc_int_constant(x, &a), ky = !y || asc_int_constant(y, &b);
  if (kx && ky)
    return k_off(c, a * k + b);
  AscValue *m = NULL;
  if (!kx) {
    AscValue *kk = k_int(c, ASC_DT_INT32, k);
    m = arith(c, ASC_OP_MUL_S, x, kk);
  } else if (a) {
    m = k_off(c, a * k);
  }
  if (!m)
    return y;
  if (ky && b == 0)
    return m;
  return arith(c, ASC_OP_ADD_S, m, y);
}

static int is_zero(const AscValue *v) {
  int64_t k;
  return asc_int_constant(v, &k) && k == 0;
}

/* A parameter struct of the table: field i holds vals[i] (a value) or,
 * when that is NULL, the constant ks[i] (bool fields i1, the template
 * field a float zero of the instance's type, the rest i32). */
static AscValue *param(Cur *c, const AscStructInfo *s, AscValue *const *vals,
                       const int64_t *ks) {
  AscValue *f[16];
  if (!s || s->n_fields > 16 || s->n_operands != s->n_fields)
    return c->ok = 0, NULL;
  for (int i = 0; i < s->n_fields; i++) {
    const AscFieldInfo *fi = &s->fields[i];
    if (vals && vals[i]) {
      f[i] = vals[i];
    } else if (fi->is_t) {
      AscAttr z;
      memset(&z, 0, sizeof z);
      z.name = "value";
      z.kind = ASC_ATTR_FLOAT;
      z.type = asc_type_scalar(c->ctx, s->targ);
      z.f = (double)ks[i];
      f[i] = res(emit(c, ASC_OP_CONSTANT, NULL, 0, z.type, &z, 1));
    } else {
      f[i] = k_int(c, fi->dtype == ASC_DT_BOOL ? ASC_DT_BOOL : ASC_DT_INT32,
                   ks[i]);
    }
  }
  return res(
      emit(c, ASC_OP_STRUCT, f, s->n_fields, asc_type_struct(c->ctx, s), 0, 0));
}

static const AscType *tile_type(Cur *c, AscDType t, int pos) {
  return asc_type_get(c->ctx, ASC_TY_LOCAL_TENSOR, t, pos, 0);
}

static AscValue *auto_tile(Cur *c, AscDType t, int pos, int64_t length) {
  AscAttr len;
  memset(&len, 0, sizeof len);
  len.name = "length";
  len.kind = ASC_ATTR_INT;
  len.i = length;
  return res(emit(c, ASC_OP_LT_AUTO, NULL, 0, tile_type(c, t, pos), &len, 1));
}

/* t[at] (elements; a value, or the constant k when at is NULL) */
static AscValue *view(Cur *c, AscValue *t, AscValue *at, int64_t k) {
  if (!at && k == 0)
    return t;
  if (at && is_zero(at))
    return t;
  AscValue *off = at ? at : k_int(c, ASC_DT_INT32, k);
  AscValue *ops[2] = {t, off};
  return res(emit(c, ASC_OP_LT_OFFSET, ops, 2, t ? t->type : NULL, NULL, 0));
}

static AscValue *gm_view(Cur *c, AscValue *g, AscValue *row, AscValue *col,
                         AscValue *stride) {
  if (is_zero(row) && is_zero(col))
    return g;
  AscValue *start = arith(c, ASC_OP_MUL_S, row, stride);
  AscValue *at = arith(c, ASC_OP_ADD_S, start, col);
  AscValue *ops[2] = {g, at};
  return res(emit(c, ASC_OP_GT_OFFSET, ops, 2, g->type, NULL, 0));
}

/* load_data of the rows x cols part at (r0, c0) (elements, multiples of
 * 16; NULL: 0) of the L1 tile src (src_rows rows) into a new tile at pos. */
static AscValue *to_l0(Cur *c, AscValue *src, int64_t src_rows, int64_t rows,
                       int64_t cols, AscValue *r0, AscValue *c0, int pos) {
  AscDType dt = src->type->dtype;
  int64_t c0_elems = 32 / (int64_t)asc_dtype_size(dt);
  int64_t m1 = rows / FRACTAL, k1 = cols / c0_elems;
  /* the part's first fractal: column block c0 / c0_elems (src_rows * c0_elems
   * elements each), row r0 */
  AscValue *rr = mul_add(c, r0, c0_elems, NULL);
  AscValue *base = mul_add(c, c0, src_rows, rr);
  AscValue *sv = view(c, src, base, 0);
  AscValue *dst = auto_tile(c, dt, pos, rows * cols);
  const AscStructInfo *ps = asc_struct_info(ASC_STRUCT_LOAD_DATA_2D_PARAMS);
  for (int64_t r = 0; r < m1 && c->ok; r++) {
    /* start_index, repeat_times, src_stride, sid, dst_gap, if_transpose,
     * addr_mode */
    int64_t ks[7] = {r, k1, src_rows / FRACTAL, 0, 0, pos == ASC_TPOSITION_B2,
                     0};
    AscValue *p = param(c, ps, NULL, ks);
    AscValue *d = view(c, dst, NULL, r * k1 * FRACTAL * c0_elems);
    AscValue *ops[3] = {d, sv, p};
    emit(c, ASC_OP_LOAD_DATA_2D, ops, 3, NULL, NULL, 0);
  }
  return dst;
}

static AscStatus fail(AscContext *ctx, const AscOp *op, const char *msg) {
  return asc_error(ctx, ASC_ERR_COMPILE, op->loc, "%s: %s",
                   asc_op_info(op->id)->name, msg);
}

static int64_t quant_of(AscDType out) {
  return out == ASC_DT_FLOAT16    ? ASC_QUANTMODES_F322F16
         : out == ASC_DT_BFLOAT16 ? ASC_QUANTMODES_F322BF16
                                  : ASC_QUANTMODES_NoQuant;
}

static AscValue *mmad(Cur *c, AscValue *acc, AscValue *a, AscValue *b,
                      int64_t m, int64_t n, int64_t k, int init) {
  /* m, n, k, is_bias, fm_offset, en_ssparse, en_winograd_a, en_winograd_b,
   * unit_flag, cmatrix_source, cmatrix_init_val */
  int64_t ks[11] = {m, n, k, 0, 0, 0, 0, 0, 0, 0, init};
  AscValue *p = param(c, asc_struct_info(ASC_STRUCT_MMAD_PARAMS), NULL, ks);
  AscValue *ops[4] = {acc, a, b, p};
  emit(c, ASC_OP_MMAD, ops, 4, NULL, NULL, 0);
  return acc;
}

static const char *made_by(AscOpId id) {
  switch (id) {
  case ASC_OP_TILE_CUBE_LOAD:
    return "asc.data_copy.nd2nz.gm_to_local (then asc.load_data.2d or "
           "asc.load_data_with_transpose into L0A / L0B)";
  case ASC_OP_TILE_CUBE_COPY:
    return "asc.load_data.2d (L1 -> L0A / L0B) or "
           "asc.data_copy.co12dst.local_to_local (L0C -> L1)";
  case ASC_OP_TILE_ZEROS_ACC:
    return "asc.init_const_value.l0 and asc.mmad";
  case ASC_OP_TILE_MATMUL:
  case ASC_OP_TILE_MATMUL_ACC:
    return "asc.mmad";
  default:
    return "asc.fixpipe";
  }
}

static AscStatus lower_op(AscModule *m, AscBlock *body, AscOp *op) {
  AscContext *ctx = m->ctx;
  Cur c = {ctx, op->parent, op, op->loc, 1, 0};
  int64_t rows = asc_op_attr_int(op, "rows", 0);
  int64_t cols = asc_op_attr_int(op, "cols", 0);
  int relu = asc_op_attr_int(op, "relu", 0) != 0;
  AscValue *out = NULL;
  switch (op->id) {
  case ASC_OP_TILE_CUBE_LOAD: {
    AscValue *g = op->operands[0], *stride = op->operands[3];
    AscDType dt = g->type->dtype;
    int pos = op->results[0].type->position;
    AscValue *src = gm_view(&c, g, op->operands[1], op->operands[2], stride);
    AscValue *l1 = auto_tile(&c, dt, ASC_TPOSITION_A1, rows * cols);
    const AscStructInfo *nz = asc_struct_info(ASC_STRUCT_ND2NZ_PARAMS);
    if (pos == ASC_TPOSITION_B2 && dt == ASC_DT_FLOAT32) {
      /* each 16 rows an ND matrix of their own: the 16 x 8 fractals in row
       * order, so that two side by side are one 16 x 16 square of
       * LoadDataWithTranspose */
      AscValue *mstride = mul_add(&c, stride, FRACTAL, NULL);
      AscValue *vals[8] = {NULL, NULL, NULL, mstride, stride, NULL, NULL, NULL};
      int64_t ks[8] = {rows / FRACTAL, FRACTAL, cols,          0, 0,
                       FRACTAL,        1,       FRACTAL * cols};
      AscValue *p = param(&c, nz, vals, ks);
      AscValue *ops[3] = {l1, src, p};
      emit(&c, ASC_OP_DATA_COPY_ND2NZ, ops, 3, NULL, NULL, 0);
      int64_t n1 = cols / FRACTAL;
      out = auto_tile(&c, dt, ASC_TPOSITION_B2, rows * cols);
      const AscStructInfo *tp =
          asc_struct_info(ASC_STRUCT_LOAD_DATA_2D_TRANSPOSE_PARAMS);
      for (int64_t kb = 0; kb < rows / FRACTAL && c.ok; kb++) {
        /* start_index, repeat_times, src_stride, dst_gap, dst_frac_gap,
         * addr_mode */
        int64_t tk[6] = {kb * n1, n1, 1, 0, n1 - 1, 0};
        AscValue *tpv = param(&c, tp, NULL, tk);
        AscValue *d = view(&c, out, NULL, 2 * kb * n1 * 128);
        AscValue *lops[3] = {d, l1, tpv};
        emit(&c, ASC_OP_LOAD_DATA_TRANSPOSE, lops, 3, NULL, NULL, 0);
      }
      break;
    }
    if (pos == ASC_TPOSITION_B2 && asc_dtype_size(dt) != 2)
      return fail(ctx, op,
                  "an L0B tile of a 32-bit type comes from GM only through "
                  "the float32 path");
    AscValue *vals[8] = {NULL, NULL, NULL, NULL, stride, NULL, NULL, NULL};
    /* nd_num, n_value, d_value, src_nd_matrix_stride, src_d_value,
     * dst_nz_c0_stride, dst_nz_n_stride, dst_nz_matrix_stride */
    int64_t ks[8] = {1, rows, cols, 0, 0, rows, 1, 0};
    AscValue *p = param(&c, nz, vals, ks);
    AscValue *ops[3] = {l1, src, p};
    emit(&c, ASC_OP_DATA_COPY_ND2NZ, ops, 3, NULL, NULL, 0);
    if (pos == ASC_TPOSITION_A1) {
      out = l1;
      break;
    }
    out = to_l0(&c, l1, rows, rows, cols, NULL, NULL, pos);
    break;
  }
  case ASC_OP_TILE_CUBE_COPY: {
    AscValue *src = op->operands[0];
    int pos = op->results[0].type->position;
    if (src->type->position == ASC_TPOSITION_CO1) {
      AscDType to = op->results[0].type->dtype;
      out = auto_tile(&c, to, ASC_TPOSITION_A1, rows * cols);
      /* n_size, m_size, dst_stride, src_stride, quant_pre, relu_pre,
       * channel_split, nz2nd_en */
      int64_t ks[8] = {cols, rows, rows, rows, quant_of(to), relu, 0, 0};
      AscValue *p = param(
          &c, asc_struct_info(ASC_STRUCT_DATA_COPY_CO12_DST_PARAMS), NULL, ks);
      AscValue *ops[3] = {out, src, p};
      emit(&c, ASC_OP_DATA_COPY_CO12_L1, ops, 3, NULL, NULL, 0);
      break;
    }
    if (pos == ASC_TPOSITION_B2 && asc_dtype_size(src->type->dtype) != 2)
      return fail(ctx, op,
                  "an L0B tile of a 32-bit type from an L1 tile is not "
                  "supported (asc2.load into L0B is)");
    int64_t r0, c0;
    if ((asc_int_constant(op->operands[1], &r0) && (r0 < 0 || r0 % FRACTAL)) ||
        (asc_int_constant(op->operands[2], &c0) && (c0 < 0 || c0 % FRACTAL)))
      return fail(ctx, op, "offsets must be multiples of 16 (one fractal)");
    out = to_l0(&c, src, asc_op_attr_int(op, "src_rows", 0), rows, cols,
                op->operands[1], op->operands[2], pos);
    break;
  }
  case ASC_OP_TILE_ZEROS_ACC: {
    out = auto_tile(&c, ASC_DT_FLOAT32, ASC_TPOSITION_CO1, rows * cols);
    AscValue *za =
        auto_tile(&c, ASC_DT_FLOAT16, ASC_TPOSITION_A2, rows * FRACTAL);
    AscValue *zb =
        auto_tile(&c, ASC_DT_FLOAT16, ASC_TPOSITION_B2, cols * FRACTAL);
    const AscStructInfo *ic = asc_struct_instance(
        asc_struct_info(ASC_STRUCT_INIT_CONST_VALUE_PARAMS), ASC_DT_FLOAT16);
    /* repeat_times, block_num, dst_gap, init_value */
    int64_t ka[4] = {1, rows / FRACTAL, 0, 0};
    AscValue *pa = param(&c, ic, NULL, ka);
    AscValue *oa[2] = {za, pa};
    emit(&c, ASC_OP_INIT_CONST_VALUE_L0, oa, 2, NULL, NULL, 0);
    int64_t kb[4] = {1, cols / FRACTAL, 0, 0};
    AscValue *pb = param(&c, ic, NULL, kb);
    AscValue *ob[2] = {zb, pb};
    emit(&c, ASC_OP_INIT_CONST_VALUE_L0, ob, 2, NULL, NULL, 0);
    mmad(&c, out, za, zb, rows, cols, FRACTAL, 1);
    break;
  }
  case ASC_OP_TILE_MATMUL:
  case ASC_OP_TILE_MATMUL_ACC: {
    int init = op->id == ASC_OP_TILE_MATMUL;
    int64_t mm = asc_op_attr_int(op, "m", 0), n = asc_op_attr_int(op, "n", 0),
            k = asc_op_attr_int(op, "k", 0);
    AscValue *acc =
        init ? auto_tile(&c, ASC_DT_FLOAT32, ASC_TPOSITION_CO1, mm * n)
             : op->operands[2];
    mmad(&c, acc, op->operands[0], op->operands[1], mm, n, k, init);
    out = init ? acc : NULL;
    break;
  }
  default: { /* ASC_OP_TILE_CUBE_STORE */
    AscValue *g = op->operands[0], *stride = op->operands[4];
    AscValue *dst = gm_view(&c, g, op->operands[2], op->operands[3], stride);
    AscValue *vals[12] = {NULL, NULL, NULL, stride};
    /* n_size, m_size, src_stride, dst_stride, relu_en, quant_pre,
     * deq_scalar, nd_num, src_nd_stride, dst_nd_stride, unit_flag,
     * is_channel_split */
    int64_t ks[12] = {cols, rows, rows, 0, relu, quant_of(g->type->dtype),
                      0,    1,    0,    0, 0,    0};
    AscValue *p =
        param(&c, asc_struct_info(ASC_STRUCT_FIXPIPE_PARAMS_V220), vals, ks);
    AscValue *ops[3] = {dst, op->operands[1], p};
    emit(&c, ASC_OP_FIXPIPE, ops, 3, NULL, NULL, 0);
    break;
  }
  }
  if (c.overflow)
    return fail(ctx, op, "an offset past the int32 range");
  if (!c.ok)
    return asc_error(ctx, ASC_ERR_INTERNAL, op->loc,
                     "lower-cube: out of memory");
  if (out && op->n_results) {
    if (op->results[0].name)
      out->name = op->results[0].name;
    asc_replace_all_uses(body, &op->results[0], out);
  }
  asc_module_log(
      m, "lower-cube: %s at %s:%d: %lld x %lld, by %s",
      asc_op_info(op->id)->name, op->loc.file ? op->loc.file : "?",
      op->loc.line, (long long)(rows ? rows : asc_op_attr_int(op, "m", 0)),
      (long long)(cols ? cols : asc_op_attr_int(op, "n", 0)), made_by(op->id));
  asc_block_remove(op->parent, op);
  return ASC_OK;
}

static int is_cube_op(AscOpId id) {
  return id == ASC_OP_TILE_CUBE_LOAD || id == ASC_OP_TILE_CUBE_COPY ||
         id == ASC_OP_TILE_ZEROS_ACC || id == ASC_OP_TILE_MATMUL ||
         id == ASC_OP_TILE_MATMUL_ACC || id == ASC_OP_TILE_CUBE_STORE;
}

static AscStatus lower_block(AscModule *m, AscBlock *body, AscBlock *b) {
  AscOp *next;
  for (AscOp *op = b->first; op; op = next) {
    next = op->next;
    for (int r = 0; r < op->n_regions; r++) {
      AscStatus s = lower_block(m, body, op->regions[r].block);
      if (s)
        return s;
    }
    if (is_cube_op(op->id)) {
      AscStatus s = lower_op(m, body, op);
      if (s)
        return s;
    }
  }
  return ASC_OK;
}

AscStatus asc_pass_lower_cube(AscModule *m, const char *opts) {
  if (opts && *opts)
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "pass 'lower-cube' takes no options, got '%s'", opts);
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC || !f->n_regions)
      continue;
    AscStatus s = lower_block(m, f->regions[0].block, f->regions[0].block);
    if (s)
      return s;
  }
  return ASC_OK;
}
