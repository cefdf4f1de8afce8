/* A small builder of IR by hand for the C unit tests (test_ir,
 * test_verifier): a context and module with the frequently used types,
 * functions, ops, attributes, constants and region ops, every op at line
 * `line` of "test.py". Static inline: each test program uses some. */
#ifndef PYASC_TEST_IR_BUILDER_H
#define PYASC_TEST_IR_BUILDER_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "asc/ir.h"

static const char *const FILE_PY = "test.py";

typedef struct B {
  AscContext *ctx;
  AscModule *m;
  AscOp *func;
  AscBlock *cur;
  /* frequently used types */
  const AscType *i1, *i32, *i64, *idx, *f16, *f32;
  const AscType *ga_f32, *gt_f32, *gt_f16;
  const AscType *lt_f32, *lt_f16, *lt_i32, *lt_f32_out;
  const AscType *pipe, *que, *buf;
} B;

static inline AscLoc loc_at(int line) {
  AscLoc l = {FILE_PY, line, 5};
  return l;
}

static inline void b_types(B *b) {
  AscContext *c = b->ctx;
  b->i1 = asc_type_scalar(c, ASC_DT_BOOL);
  b->i32 = asc_type_scalar(c, ASC_DT_INT32);
  b->i64 = asc_type_scalar(c, ASC_DT_INT64);
  b->idx = asc_type_scalar(c, ASC_DT_INDEX);
  b->f16 = asc_type_scalar(c, ASC_DT_FLOAT16);
  b->f32 = asc_type_scalar(c, ASC_DT_FLOAT32);
  b->ga_f32 = asc_type_get(c, ASC_TY_GLOBAL_ADDRESS, ASC_DT_FLOAT32, -1, 0);
  b->gt_f32 = asc_type_get(c, ASC_TY_GLOBAL_TENSOR, ASC_DT_FLOAT32, -1, 0);
  b->gt_f16 = asc_type_get(c, ASC_TY_GLOBAL_TENSOR, ASC_DT_FLOAT16, -1, 0);
  b->lt_f32 = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                           ASC_TPOSITION_VECIN, 0);
  b->lt_f16 = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT16,
                           ASC_TPOSITION_VECIN, 0);
  b->lt_i32 = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_INT32,
                           ASC_TPOSITION_VECCALC, 0);
  b->lt_f32_out = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                               ASC_TPOSITION_VECOUT, 0);
  b->pipe = asc_type_get(c, ASC_TY_TPIPE, ASC_DT_NONE, -1, 0);
  b->que = asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 2);
  b->buf = asc_type_get(c, ASC_TY_TBUF, ASC_DT_NONE, ASC_TPOSITION_VECCALC, 0);
}

/* A fresh context and module; no function yet. */
static inline void b_init(B *b, const char *module_name) {
  memset(b, 0, sizeof *b);
  b->ctx = asc_context_new();
  b->m = asc_module_new(b->ctx, module_name);
  b_types(b);
}

static inline void b_free(B *b) { asc_context_free(b->ctx); }

/* Adds a function and makes its body the insertion block. */
static inline AscOp *b_func(B *b, const char *name, int line,
                            const AscType *const *args, int n_args,
                            const AscType *const *res, int n_res, int kernel) {
  b->func = asc_module_add_function(b->m, name, loc_at(line), args, n_args, res,
                                    n_res, kernel);
  b->cur = b->func->regions[0].block;
  return b->func;
}

static inline AscOp *b_op(B *b, AscOpId id, int line, AscValue *const *ops,
                          int n_ops, const AscType *const *res, int n_res,
                          const AscAttr *attrs, int n_attrs) {
  AscOp *op = asc_op_create(b->ctx, id, loc_at(line), ops, n_ops, res, n_res,
                            attrs, n_attrs, 0, NULL, NULL);
  asc_block_append(b->cur, op);
  return op;
}

/* An op with at most one result (none when rt is NULL) and n operands. */
static inline AscValue *emit(B *b, AscOpId id, int line, const AscType *rt,
                             int n, ...) {
  AscValue *ops[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && i < 8; i++)
    ops[i] = va_arg(ap, AscValue *);
  va_end(ap);
  AscOp *op = b_op(b, id, line, ops, n, rt ? &rt : NULL, rt ? 1 : 0, NULL, 0);
  return rt ? &op->results[0] : NULL;
}

static inline AscAttr attr_enum(const char *name, AscEnumKind k, int64_t v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = k;
  a.i = v;
  return a;
}

static inline AscAttr attr_int(const char *name, int64_t v, const AscType *t) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_INT;
  a.i = v;
  a.type = t;
  return a;
}

static inline AscAttr attr_str(const char *name, const char *s) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_STR;
  a.s = s;
  return a;
}

static inline AscValue *cst_i(B *b, int line, const AscType *t, int64_t v) {
  AscAttr a = attr_int("value", v, t);
  return &b_op(b, ASC_OP_CONSTANT, line, NULL, 0, &t, 1, &a, 1)->results[0];
}

static inline AscValue *cst_f(B *b, int line, const AscType *t, double v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "value";
  a.kind = ASC_ATTR_FLOAT;
  a.f = v;
  a.type = t;
  return &b_op(b, ASC_OP_CONSTANT, line, NULL, 0, &t, 1, &a, 1)->results[0];
}

static inline AscOp *b_flag(B *b, AscOpId id, int line, int64_t event,
                            AscValue *id_val) {
  AscAttr a = attr_enum("event", ASC_ENUM_HARDEVENT, event);
  return b_op(b, id, line, &id_val, 1, NULL, 0, &a, 1);
}

static inline AscOp *b_return(B *b, int line, AscValue *const *vals, int n) {
  return b_op(b, ASC_OP_RETURN, line, vals, n, NULL, 0, NULL, 0);
}

/* An op with regions; the caller fills the region blocks. */
static inline AscOp *
b_region_op(B *b, AscOpId id, int line, AscValue *const *ops, int n_ops,
            const AscType *const *res, int n_res, int n_regions,
            const AscType *const *const *region_types, const int *region_n) {
  AscOp *op = asc_op_create(b->ctx, id, loc_at(line), ops, n_ops, res, n_res,
                            NULL, 0, n_regions, region_types, region_n);
  asc_block_append(b->cur, op);
  return op;
}

static inline AscOp *b_call(B *b, int line, const char *callee,
                            AscValue *const *args, int n_args,
                            const AscType *const *res, int n_res) {
  AscAttr a = attr_str("callee", callee);
  return b_op(b, ASC_OP_CALL, line, args, n_args, res, n_res, &a, 1);
}

#endif
