/* Unit test of the simulator: kernels built in IR by hand, compiled with
 * asc_kernel_compile and launched with asc_kernel_launch over malloc'ed
 * buffers. Results are checked against values computed here; every fault
 * is checked for its status, block, source line, op name and message, and
 * for leaving memory outside the kernel's own writes untouched.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asc/exec.h"
#include "asc/ir.h"

#include "check.h"

/* ---- a small builder ----------------------------------------------------- */

static const char *const FILE_PY = "kernel.py";

typedef struct B {
  AscContext *ctx;
  AscModule *m;
  AscOp *func;
  AscBlock *cur;
  const AscType *i1, *i32, *f32;
  const AscType *ga_f32, *gt_f32, *ga_i32, *gt_i32;
  const AscType *lt_in, *lt_out, *lt_calc, *lt_i32;
  const AscType *pipe, *que_in, *que_out, *que1, *tbuf;
} B;

static AscLoc loc_at(int line) {
  AscLoc l = {FILE_PY, line, 9};
  return l;
}

static void b_init(B *b) {
  memset(b, 0, sizeof *b);
  b->ctx = asc_context_new();
  b->m = asc_module_new(b->ctx, "test");
  AscContext *c = b->ctx;
  b->i1 = asc_type_scalar(c, ASC_DT_BOOL);
  b->i32 = asc_type_scalar(c, ASC_DT_INT32);
  b->f32 = asc_type_scalar(c, ASC_DT_FLOAT32);
  b->ga_f32 = asc_type_get(c, ASC_TY_GLOBAL_ADDRESS, ASC_DT_FLOAT32, -1, 0);
  b->gt_f32 = asc_type_get(c, ASC_TY_GLOBAL_TENSOR, ASC_DT_FLOAT32, -1, 0);
  b->ga_i32 = asc_type_get(c, ASC_TY_GLOBAL_ADDRESS, ASC_DT_INT32, -1, 0);
  b->gt_i32 = asc_type_get(c, ASC_TY_GLOBAL_TENSOR, ASC_DT_INT32, -1, 0);
  b->lt_in = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                          ASC_TPOSITION_VECIN, 0);
  b->lt_out = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                           ASC_TPOSITION_VECOUT, 0);
  b->lt_calc = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_FLOAT32,
                            ASC_TPOSITION_VECCALC, 0);
  b->lt_i32 = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_INT32,
                           ASC_TPOSITION_VECCALC, 0);
  b->pipe = asc_type_get(c, ASC_TY_TPIPE, ASC_DT_NONE, -1, 0);
  b->que_in = asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 2);
  b->que_out =
      asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECOUT, 2);
  b->que1 = asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECIN, 1);
  b->tbuf = asc_type_get(c, ASC_TY_TBUF, ASC_DT_NONE, ASC_TPOSITION_VECCALC, 0);
}

static void b_free(B *b) { asc_context_free(b->ctx); }

static AscOp *b_func(B *b, const char *name, int line,
                     const AscType *const *args, int n_args,
                     const AscType *const *res, int n_res, int kernel) {
  b->func = asc_module_add_function(b->m, name, loc_at(line), args, n_args, res,
                                    n_res, kernel);
  b->cur = b->func->regions[0].block;
  return b->func;
}

static AscValue *arg(B *b, int i) {
  return &b->func->regions[0].block->args[i];
}

static AscOp *b_op(B *b, AscOpId id, int line, AscValue *const *ops, int n_ops,
                   const AscType *const *res, int n_res, const AscAttr *attrs,
                   int n_attrs) {
  AscOp *op = asc_op_create(b->ctx, id, loc_at(line), ops, n_ops, res, n_res,
                            attrs, n_attrs, 0, NULL, NULL);
  asc_block_append(b->cur, op);
  return op;
}

static AscValue *emit(B *b, AscOpId id, int line, const AscType *rt, int n,
                      ...) {
  AscValue *ops[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && i < 8; i++)
    ops[i] = va_arg(ap, AscValue *);
  va_end(ap);
  AscOp *op = b_op(b, id, line, ops, n, rt ? &rt : NULL, rt ? 1 : 0, NULL, 0);
  return rt ? &op->results[0] : NULL;
}

static AscValue *cst_i(B *b, int line, int64_t v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "value";
  a.kind = ASC_ATTR_INT;
  a.i = v;
  a.type = b->i32;
  return &b_op(b, ASC_OP_CONSTANT, line, NULL, 0, &b->i32, 1, &a, 1)
              ->results[0];
}

static AscValue *cst_f(B *b, int line, double v) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "value";
  a.kind = ASC_ATTR_FLOAT;
  a.f = v;
  a.type = b->f32;
  return &b_op(b, ASC_OP_CONSTANT, line, NULL, 0, &b->f32, 1, &a, 1)
              ->results[0];
}

static void b_flag(B *b, AscOpId id, int line, int64_t event,
                   AscValue *id_val) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "event";
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = ASC_ENUM_HARDEVENT;
  a.i = event;
  b_op(b, id, line, &id_val, 1, NULL, 0, &a, 1);
}

static AscValue *b_cmp(B *b, int line, int64_t pred, AscValue *l, AscValue *r) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "predicate";
  a.kind = ASC_ATTR_ENUM;
  a.enum_kind = ASC_ENUM_CMPPRED;
  a.i = pred;
  AscValue *ops[2] = {l, r};
  return &b_op(b, ASC_OP_CMP_S, line, ops, 2, &b->i1, 1, &a, 1)->results[0];
}

static AscOp *b_call(B *b, int line, const char *callee, AscValue *const *args,
                     int n_args, const AscType *const *res, int n_res) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = "callee";
  a.kind = ASC_ATTR_STR;
  a.s = callee;
  return b_op(b, ASC_OP_CALL, line, args, n_args, res, n_res, &a, 1);
}

static void b_return(B *b, int line, AscValue *const *vals, int n) {
  b_op(b, ASC_OP_RETURN, line, vals, n, NULL, 0, NULL, 0);
}

/* A GlobalTensor over a kernel argument (global address). */
static AscValue *b_gt(B *b, int line, AscValue *addr) {
  const AscType *t = addr->type->dtype == ASC_DT_INT32 ? b->gt_i32 : b->gt_f32;
  AscValue *g = emit(b, ASC_OP_GT_CREATE, line, t, 0);
  emit(b, ASC_OP_GT_SET_BUFFER, line, NULL, 2, g, addr);
  return g;
}

/* scf.for lo..hi step st with i32 loop-carried values; returns the op and
 * makes its body current (the caller yields and calls b_end). */
static AscOp *b_for(B *b, int line, AscValue *lo, AscValue *hi, AscValue *st,
                    AscValue *const *inits, int n_inits) {
  const AscType *body_types[8], *res_types[8];
  AscValue *ops[8] = {lo, hi, st};
  body_types[0] = b->i32;
  for (int i = 0; i < n_inits; i++) {
    ops[3 + i] = inits[i];
    body_types[1 + i] = inits[i]->type;
    res_types[i] = inits[i]->type;
  }
  const AscType *const *rt[1] = {body_types};
  int rn[1] = {1 + n_inits};
  AscOp *op = asc_op_create(b->ctx, ASC_OP_FOR, loc_at(line), ops, 3 + n_inits,
                            res_types, n_inits, NULL, 0, 1, rt, rn);
  asc_block_append(b->cur, op);
  b->cur = op->regions[0].block;
  return op;
}

static AscOp *b_if(B *b, int line, AscValue *cond, const AscType *rt) {
  AscOp *op =
      asc_op_create(b->ctx, ASC_OP_IF, loc_at(line), &cond, 1, rt ? &rt : NULL,
                    rt ? 1 : 0, NULL, 0, 2, NULL, NULL);
  asc_block_append(b->cur, op);
  b->cur = op->regions[0].block;
  return op;
}

/* Leaves a region: the insertion point goes back after op. */
static void b_end(B *b, AscOp *op) { b->cur = op->parent; }

static void b_yield(B *b, int line, AscValue *const *vals, int n) {
  b_op(b, ASC_OP_YIELD, line, vals, n, NULL, 0, NULL, 0);
}

static AscKernel *compile_or_report(B *b, const char *entry, const char *file,
                                    int line) {
  AscKernel *k = asc_kernel_compile(b->m, entry);
  report(k != NULL, file, line, "compile failed: %s (line %d)",
         asc_context_message(b->ctx), asc_context_error_loc(b->ctx).line);
  return k;
}
#define COMPILE(b) compile_or_report(b, "k", __FILE__, __LINE__)

/* ---- launching ----------------------------------------------------------- */

static AscLaunchArg gm(void *p, size_t nbytes) {
  AscLaunchArg a;
  memset(&a, 0, sizeof a);
  a.kind = ASC_ARG_GM;
  a.ptr = p;
  a.nbytes = nbytes;
  return a;
}

static AscLaunchArg gm_ro(void *p, size_t nbytes) {
  AscLaunchArg a = gm(p, nbytes);
  a.readonly = 1;
  return a;
}

static AscLaunchArg arg_int(int64_t v) {
  AscLaunchArg a;
  memset(&a, 0, sizeof a);
  a.kind = ASC_ARG_INT;
  a.i = v;
  return a;
}

static AscLaunchArg arg_float(double v) {
  AscLaunchArg a;
  memset(&a, 0, sizeof a);
  a.kind = ASC_ARG_FLOAT;
  a.f = v;
  return a;
}

static const AscPlatform *platform(void) {
  return asc_platform_get("Ascend910B1");
}

static AscStatus launch(const AscKernel *k, int core_num,
                        const AscLaunchArg *args, int n, int workers,
                        AscLaunchError *err) {
  AscLaunchOptions o;
  memset(&o, 0, sizeof o);
  o.workers = workers;
  if (!k) {
    memset(err, 0, sizeof *err);
    err->status = ASC_ERR_INTERNAL;
    return ASC_ERR_INTERNAL;
  }
  return asc_kernel_launch(k, platform(), core_num, args, n, &o, err);
}

static void expect_ok(AscStatus s, const AscLaunchError *e, const char *file,
                      int line) {
  report(s == ASC_OK && e->status == ASC_OK && e->block == -1, file, line,
         "launch failed: status %d, block %d, line %d, %s: %s", s, e->block,
         e->loc.line, e->op_name ? e->op_name : "?", e->message);
}
#define EXPECT_OK(s, e) expect_ok(s, e, __FILE__, __LINE__)

static void expect_fault(AscStatus s, const AscLaunchError *e, int block,
                         int line, const char *op_name, const char *substr,
                         const char *file, int src_line) {
  report(s == ASC_ERR_KERNEL && e->status == ASC_ERR_KERNEL, file, src_line,
         "status %d/%d, expected ASC_ERR_KERNEL (message \"%s\")", s, e->status,
         e->message);
  report(e->block == block, file, src_line, "block %d, expected %d", e->block,
         block);
  report(e->loc.line == line, file, src_line, "line %d, expected %d",
         e->loc.line, line);
  report(e->loc.file && strcmp(e->loc.file, FILE_PY) == 0, file, src_line,
         "file %s", e->loc.file ? e->loc.file : "(null)");
  report(e->op_name && strcmp(e->op_name, op_name) == 0, file, src_line,
         "op %s, expected %s", e->op_name ? e->op_name : "(null)", op_name);
  report(strstr(e->message, substr) != NULL, file, src_line,
         "message \"%s\" lacks \"%s\"", e->message, substr);
}
#define EXPECT_FAULT(s, e, block, line, op, substr)                            \
  expect_fault(s, e, block, line, op, substr, __FILE__, __LINE__)

static int all_bytes(const void *p, size_t n, unsigned char v) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++)
    if (c[i] != v)
      return 0;
  return 1;
}

/* ---- vector add over several blocks -------------------------------------- */

enum { TILE = 256 };

/*  def k(x, y, z):                                    (f32 GM)
 *    off = get_block_idx() * TILE
 *    x_gm = GlobalTensor(x + off)          (address offset)
 *    y_gm = GlobalTensor(y)[off]           (tensor offset)
 *    z_gm = GlobalTensor(z, size)[off]
 *    a, b, c = LocalTensor(0), (1024), (2048)
 *    data_copy(a, x_gm); data_copy(b, y_gm); MTE2_V
 *    add(c, a, b); V_MTE3; data_copy(z_gm, c) */
static void build_add(B *b) {
  const AscType *args[3] = {b->ga_f32, b->ga_f32, b->ga_f32};
  b_func(b, "k", 1, args, 3, NULL, 0, 1);
  AscValue *c0 = cst_i(b, 2, 0), *ct = cst_i(b, 2, TILE);
  AscValue *c1024 = cst_i(b, 2, 1024), *c2048 = cst_i(b, 2, 2048);
  AscValue *idx = emit(b, ASC_OP_GET_BLOCK_IDX, 3, b->i32, 0);
  AscValue *off = emit(b, ASC_OP_MUL_S, 3, b->i32, 2, idx, ct);
  AscValue *xa =
      emit(b, ASC_OP_GM_ADDR_OFFSET, 4, b->ga_f32, 2, arg(b, 0), off);
  AscValue *xg = b_gt(b, 4, xa);
  AscValue *yg = b_gt(b, 5, arg(b, 1));
  AscValue *yo = emit(b, ASC_OP_GT_OFFSET, 5, b->gt_f32, 2, yg, off);
  AscValue *zg = emit(b, ASC_OP_GT_CREATE, 6, b->gt_f32, 0);
  AscValue *num = emit(b, ASC_OP_GET_BLOCK_NUM, 6, b->i32, 0);
  AscValue *total = emit(b, ASC_OP_MUL_S, 6, b->i32, 2, num, ct);
  emit(b, ASC_OP_GT_SET_BUFFER, 6, NULL, 3, zg, arg(b, 2), total);
  AscValue *zo = emit(b, ASC_OP_GT_OFFSET, 6, b->gt_f32, 2, zg, off);
  AscValue *la = emit(b, ASC_OP_LT_CREATE, 7, b->lt_in, 2, c0, ct);
  AscValue *lb = emit(b, ASC_OP_LT_CREATE, 7, b->lt_in, 2, c1024, ct);
  AscValue *lc = emit(b, ASC_OP_LT_CREATE, 7, b->lt_out, 2, c2048, ct);
  emit(b, ASC_OP_COPY_GM_TO_LOCAL, 8, NULL, 3, la, xg, ct);
  emit(b, ASC_OP_COPY_GM_TO_LOCAL, 8, NULL, 3, lb, yo, ct);
  b_flag(b, ASC_OP_SET_FLAG, 9, ASC_HARDEVENT_MTE2_V, c0);
  b_flag(b, ASC_OP_WAIT_FLAG, 9, ASC_HARDEVENT_MTE2_V, c0);
  emit(b, ASC_OP_ADD, 10, NULL, 4, lc, la, lb, ct);
  b_flag(b, ASC_OP_SET_FLAG, 11, ASC_HARDEVENT_V_MTE3, c0);
  b_flag(b, ASC_OP_WAIT_FLAG, 11, ASC_HARDEVENT_V_MTE3, c0);
  emit(b, ASC_OP_COPY_LOCAL_TO_GM, 12, NULL, 3, zo, lc, ct);
  b_return(b, 13, NULL, 0);
}

static void test_vector_add(void) {
  B b;
  b_init(&b);
  build_add(&b);
  AscKernel *k = COMPILE(&b);
  enum { BLOCKS = 6, N = BLOCKS * TILE };
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
  float *z = malloc(sizeof(float) * N), *z1 = malloc(sizeof(float) * N);
  for (int i = 0; i < N; i++) {
    x[i] = (float)i * 0.5f;
    y[i] = 1000.0f - (float)i * 0.25f;
  }
  memset(z, 0, sizeof(float) * N);
  AscLaunchArg args[3] = {gm_ro(x, sizeof(float) * N),
                          gm_ro(y, sizeof(float) * N),
                          gm(z, sizeof(float) * N)};
  AscLaunchError err;
  AscStatus s = launch(k, BLOCKS, args, 3, 2, &err);
  EXPECT_OK(s, &err);
  int ok = 1;
  for (int i = 0; i < N; i++)
    if (z[i] != x[i] + y[i]) {
      if (ok)
        printf("  z[%d] = %g, expected %g\n", i, z[i], x[i] + y[i]);
      ok = 0;
    }
  CHECK(ok);
  CHECK(z[N - 1] == (float)(N - 1) * 0.25f + 1000.0f);

  /* the number of workers does not change the result */
  int worker_counts[] = {1, 3, 4, 0, 64};
  for (size_t w = 0; w < sizeof worker_counts / sizeof worker_counts[0]; w++) {
    memset(z1, 0xff, sizeof(float) * N);
    args[2] = gm(z1, sizeof(float) * N);
    s = launch(k, BLOCKS, args, 3, worker_counts[w], &err);
    EXPECT_OK(s, &err);
    report(memcmp(z, z1, sizeof(float) * N) == 0, __FILE__, __LINE__,
           "workers=%d differs from workers=2", worker_counts[w]);
  }

  /* fewer blocks: only their part is written */
  memset(z1, 0, sizeof(float) * N);
  args[2] = gm(z1, sizeof(float) * N);
  s = launch(k, 2, args, 3, 2, &err);
  EXPECT_OK(s, &err);
  CHECK(memcmp(z, z1, sizeof(float) * 2 * TILE) == 0);
  CHECK(all_bytes(z1 + 2 * TILE, sizeof(float) * (N - 2 * TILE), 0));

  /* launch argument errors */
  s = launch(k, BLOCKS, args, 2, 1, &err);
  CHECK_EQ(s, ASC_ERR_KERNEL);
  CHECK_HAS(err.message, "takes 3 arguments, got 2");
  s = launch(k, 0, args, 3, 1, &err);
  CHECK_EQ(s, ASC_ERR_KERNEL);
  CHECK_HAS(err.message, "core_num");

  /* a platform of NPU arch 3510 (C310) is in the table with its capacities,
   * but the simulator models arch 2201 only: its launch refuses, z1 as it
   * was */
  const AscPlatform *c310 = asc_platform_get("Ascend950PR_9599");
  CHECK(c310 != NULL);
  if (c310) {
    CHECK_EQ(c310->npu_arch, 3510);
    CHECK_EQ(c310->ub_size, 256 * 1024);
    CHECK_EQ(c310->l0c_size, 256 * 1024);
    CHECK(!asc_platform_simulated(c310));
    CHECK(asc_platform_simulated(platform()));
    AscLaunchOptions o;
    memset(&o, 0, sizeof o);
    memset(z1, 0x7f, sizeof(float) * N);
    s = asc_kernel_launch(k, c310, BLOCKS, args, 3, &o, &err);
    CHECK_EQ(s, ASC_ERR_KERNEL);
    CHECK_HAS(err.message, "Ascend950PR_9599 is NPU arch 3510 (C310)");
    CHECK(all_bytes(z1, sizeof(float) * N, 0x7f));
  }
  CHECK(!asc_platform_simulated(NULL));

  /* a kernel can be launched from several threads at once; here simply
   * again, after a failed launch, with the same result */
  memset(z1, 0, sizeof(float) * N);
  s = launch(k, BLOCKS, args, 3, 2, &err);
  EXPECT_OK(s, &err);
  CHECK(memcmp(z, z1, sizeof(float) * N) == 0);

  asc_kernel_free(k);
  free(x);
  free(y);
  free(z);
  free(z1);
  b_free(&b);
}

/* ---- device functions ---------------------------------------------------- */

/*  def f(a, b): return a * b + 1, a - b
 *  def g(a): p, q = f(a, a); return p + q
 *  def h(t, v): t.set_value(4, v)
 *  def k(out, p, q):
 *    out[0], out[1] = f(p, q); out[2] = g(q)
 *    out[3] = sum(f(i, 3)[0] for i in range(5)); h(out, 2 * out[0]) */
static void test_calls(void) {
  B b;
  b_init(&b);
  const AscType *ii[2] = {b.i32, b.i32};
  b_func(&b, "f", 1, ii, 2, ii, 2, 0);
  AscValue *c1 = cst_i(&b, 2, 1);
  AscValue *prod = emit(&b, ASC_OP_MUL_S, 2, b.i32, 2, arg(&b, 0), arg(&b, 1));
  AscValue *p1 = emit(&b, ASC_OP_ADD_S, 2, b.i32, 2, prod, c1);
  AscValue *d = emit(&b, ASC_OP_SUB_S, 2, b.i32, 2, arg(&b, 0), arg(&b, 1));
  AscValue *fr[2] = {p1, d};
  b_return(&b, 3, fr, 2);

  b_func(&b, "g", 4, ii, 1, ii, 1, 0);
  AscValue *ga[2] = {arg(&b, 0), arg(&b, 0)};
  AscOp *gc = b_call(&b, 5, "f", ga, 2, ii, 2);
  AscValue *gs =
      emit(&b, ASC_OP_ADD_S, 5, b.i32, 2, &gc->results[0], &gc->results[1]);
  b_return(&b, 6, &gs, 1);

  const AscType *ha[2] = {b.gt_i32, b.i32};
  b_func(&b, "h", 7, ha, 2, NULL, 0, 0);
  AscValue *c4 = cst_i(&b, 8, 4);
  emit(&b, ASC_OP_GT_SET_VALUE, 8, NULL, 3, arg(&b, 0), c4, arg(&b, 1));
  b_return(&b, 9, NULL, 0);

  const AscType *ka[3] = {b.ga_i32, b.i32, b.i32};
  b_func(&b, "k", 10, ka, 3, NULL, 0, 1);
  AscValue *c0 = cst_i(&b, 11, 0), *c2 = cst_i(&b, 11, 2);
  AscValue *c3 = cst_i(&b, 11, 3), *c5 = cst_i(&b, 11, 5);
  AscValue *kc1 = cst_i(&b, 11, 1);
  AscValue *og = b_gt(&b, 11, arg(&b, 0));
  AscValue *fa[2] = {arg(&b, 1), arg(&b, 2)};
  AscOp *call = b_call(&b, 12, "f", fa, 2, ii, 2);
  emit(&b, ASC_OP_GT_SET_VALUE, 13, NULL, 3, og, c0, &call->results[0]);
  emit(&b, ASC_OP_GT_SET_VALUE, 13, NULL, 3, og, kc1, &call->results[1]);
  AscOp *gcall = b_call(&b, 14, "g", (AscValue *[]){arg(&b, 2)}, 1, ii, 1);
  emit(&b, ASC_OP_GT_SET_VALUE, 14, NULL, 3, og, c2, &gcall->results[0]);
  AscOp *loop = b_for(&b, 15, c0, c5, kc1, &c0, 1);
  AscBlock *lb = loop->regions[0].block;
  AscValue *la[2] = {&lb->args[0], c3};
  AscOp *lc = b_call(&b, 16, "f", la, 2, ii, 2);
  AscValue *acc =
      emit(&b, ASC_OP_ADD_S, 16, b.i32, 2, &lb->args[1], &lc->results[0]);
  b_yield(&b, 16, &acc, 1);
  b_end(&b, loop);
  emit(&b, ASC_OP_GT_SET_VALUE, 17, NULL, 3, og, c3, &loop->results[0]);
  AscValue *twice = emit(&b, ASC_OP_MUL_S, 18, b.i32, 2, &call->results[0], c2);
  b_call(&b, 18, "h", (AscValue *[]){og, twice}, 2, NULL, 0);
  b_return(&b, 19, NULL, 0);

  AscKernel *k = COMPILE(&b);
  int32_t out[6];
  memset(out, 0x7f, sizeof out);
  AscLaunchArg args[3] = {gm(out, sizeof out), arg_int(6), arg_int(4)};
  AscLaunchError err;
  AscStatus s = launch(k, 1, args, 3, 1, &err);
  EXPECT_OK(s, &err);
  CHECK_EQ(out[0], 25); /* 6 * 4 + 1 */
  CHECK_EQ(out[1], 2);  /* 6 - 4 */
  CHECK_EQ(out[2], 17); /* (4 * 4 + 1) + 0 */
  CHECK_EQ(out[3], 35); /* 1 + 4 + 7 + 10 + 13 */
  CHECK_EQ(out[4], 50); /* written by the device function h */
  CHECK_EQ(out[5], 0x7f7f7f7f);
  /* negative arguments and i32 wrap-around */
  args[1] = arg_int(-3);
  args[2] = arg_int(2147483647);
  s = launch(k, 1, args, 3, 1, &err);
  EXPECT_OK(s, &err);
  CHECK_EQ(out[0], (int32_t)(uint32_t)(-3LL * 2147483647LL + 1));
  CHECK_EQ(out[1], (int32_t)(uint32_t)(-3LL - 2147483647LL));
  asc_kernel_free(k);
  b_free(&b);
}

/* Unbounded recursion is a fault, not a crash or a hang; a function that
 * calls itself twice must not make the launch explore every call path. */
static void test_recursion(void) {
  for (int calls = 1; calls <= 2; calls++) {
    B b;
    b_init(&b);
    const AscType *ia[1] = {b.i32};
    b_func(&b, "r", 1, ia, 1, ia, 1, 0);
    AscValue *v = arg(&b, 0);
    for (int i = 0; i < calls; i++)
      v = &b_call(&b, 2 + i, "r", &v, 1, ia, 1)->results[0];
    b_return(&b, 5, &v, 1);
    const AscType *ka[1] = {b.ga_i32};
    b_func(&b, "k", 6, ka, 1, NULL, 0, 1);
    AscValue *c0 = cst_i(&b, 7, 0);
    AscOp *call = b_call(&b, 8, "r", &c0, 1, ia, 1);
    AscValue *og = b_gt(&b, 9, arg(&b, 0));
    emit(&b, ASC_OP_GT_SET_VALUE, 9, NULL, 3, og, c0, &call->results[0]);
    b_return(&b, 10, NULL, 0);
    AscKernel *k = COMPILE(&b);
    int32_t out[1] = {0};
    AscLaunchArg args[1] = {gm(out, sizeof out)};
    AscLaunchError err;
    AscStatus s = launch(k, 1, args, 1, 1, &err);
    EXPECT_FAULT(s, &err, 0, 2, "func.call", "nested deeper than");
    asc_kernel_free(k);
    b_free(&b);
  }
}

/* ---- control flow -------------------------------------------------------- */

static void test_control_flow(void) {
  B b;
  b_init(&b);
  const AscType *ka[1] = {b.ga_i32};
  b_func(&b, "k", 1, ka, 1, NULL, 0, 1);
  AscValue *c0 = cst_i(&b, 2, 0), *c1 = cst_i(&b, 2, 1);
  AscValue *c2 = cst_i(&b, 2, 2), *c3 = cst_i(&b, 2, 3);
  AscValue *c4 = cst_i(&b, 2, 4), *c5 = cst_i(&b, 2, 5);
  AscValue *c10 = cst_i(&b, 2, 10), *c27 = cst_i(&b, 2, 27);
  AscValue *cm3 = cst_i(&b, 2, -3), *c42 = cst_i(&b, 2, 42);
  AscValue *c6 = cst_i(&b, 2, 6), *c7 = cst_i(&b, 2, 7);
  AscValue *og = b_gt(&b, 3, arg(&b, 0));

  /* out[0]: acc = 0; for i in range(10): acc += i if i % 2 == 0 else 3 * i */
  AscOp *loop = b_for(&b, 4, c0, c10, c1, &c0, 1);
  AscValue *i = &loop->regions[0].block->args[0];
  AscValue *acc = &loop->regions[0].block->args[1];
  AscValue *r = emit(&b, ASC_OP_REM_S, 5, b.i32, 2, i, c2);
  AscValue *even = b_cmp(&b, 5, ASC_CMPPRED_EQ, r, c0);
  AscOp *iff = b_if(&b, 6, even, b.i32);
  b_yield(&b, 6, &i, 1);
  b.cur = iff->regions[1].block;
  AscValue *t3 = emit(&b, ASC_OP_MUL_S, 7, b.i32, 2, i, c3);
  b_yield(&b, 7, &t3, 1);
  b_end(&b, iff);
  AscValue *acc2 = emit(&b, ASC_OP_ADD_S, 8, b.i32, 2, acc, &iff->results[0]);
  b_yield(&b, 8, &acc2, 1);
  b_end(&b, loop);
  emit(&b, ASC_OP_GT_SET_VALUE, 9, NULL, 3, og, c0, &loop->results[0]);

  /* out[1], out[2]: x = 27; steps = 0
   *   while x != 1: x = x // 2 if x % 2 == 0 else 3 * x + 1; steps += 1 */
  const AscType *two[2] = {b.i32, b.i32};
  const AscType *const *wt[2] = {two, two};
  int wn[2] = {2, 2};
  AscValue *winit[2] = {c27, c0};
  AscOp *w = asc_op_create(b.ctx, ASC_OP_WHILE, loc_at(10), winit, 2, two, 2,
                           NULL, 0, 2, wt, wn);
  asc_block_append(b.cur, w);
  b.cur = w->regions[0].block;
  AscValue *bx = &b.cur->args[0], *bs = &b.cur->args[1];
  AscValue *ne = b_cmp(&b, 11, ASC_CMPPRED_NE, bx, c1);
  emit(&b, ASC_OP_CONDITION, 11, NULL, 3, ne, bx, bs);
  b.cur = w->regions[1].block;
  AscValue *ax = &b.cur->args[0], *as = &b.cur->args[1];
  AscValue *xr = emit(&b, ASC_OP_REM_S, 12, b.i32, 2, ax, c2);
  AscValue *xeven = b_cmp(&b, 12, ASC_CMPPRED_EQ, xr, c0);
  AscOp *xif = b_if(&b, 13, xeven, b.i32);
  AscValue *half = emit(&b, ASC_OP_DIV_S, 13, b.i32, 2, ax, c2);
  b_yield(&b, 13, &half, 1);
  b.cur = xif->regions[1].block;
  AscValue *x3 = emit(&b, ASC_OP_MUL_S, 14, b.i32, 2, ax, c3);
  AscValue *x31 = emit(&b, ASC_OP_ADD_S, 14, b.i32, 2, x3, c1);
  b_yield(&b, 14, &x31, 1);
  b_end(&b, xif);
  AscValue *s1 = emit(&b, ASC_OP_ADD_S, 15, b.i32, 2, as, c1);
  AscValue *wy[2] = {&xif->results[0], s1};
  b_yield(&b, 15, wy, 2);
  b_end(&b, w);
  emit(&b, ASC_OP_GT_SET_VALUE, 16, NULL, 3, og, c1, &w->results[1]);
  emit(&b, ASC_OP_GT_SET_VALUE, 16, NULL, 3, og, c2, &w->results[0]);

  /* out[3]: for i in range(10, 0, -3): acc += i */
  loop = b_for(&b, 17, c10, c0, cm3, &c0, 1);
  AscValue *ns =
      emit(&b, ASC_OP_ADD_S, 17, b.i32, 2, &loop->regions[0].block->args[1],
           &loop->regions[0].block->args[0]);
  b_yield(&b, 17, &ns, 1);
  b_end(&b, loop);
  emit(&b, ASC_OP_GT_SET_VALUE, 18, NULL, 3, og, c3, &loop->results[0]);

  /* out[4], out[5]: a, b = 0, 1; for _ in range(5): a, b = b, a + b */
  AscValue *fib_init[2] = {c0, c1};
  loop = b_for(&b, 19, c0, c5, c1, fib_init, 2);
  AscValue *fa = &loop->regions[0].block->args[1];
  AscValue *fb = &loop->regions[0].block->args[2];
  AscValue *fsum = emit(&b, ASC_OP_ADD_S, 19, b.i32, 2, fa, fb);
  AscValue *fy[2] = {fb, fsum};
  b_yield(&b, 19, fy, 2);
  b_end(&b, loop);
  emit(&b, ASC_OP_GT_SET_VALUE, 20, NULL, 3, og, c4, &loop->results[0]);
  emit(&b, ASC_OP_GT_SET_VALUE, 20, NULL, 3, og, c5, &loop->results[1]);

  /* out[6]: a zero-trip loop returns its init */
  loop = b_for(&b, 21, c5, c5, c1, &c42, 1);
  AscValue *inc = emit(&b, ASC_OP_ADD_S, 21, b.i32, 2,
                       &loop->regions[0].block->args[1], c1);
  b_yield(&b, 21, &inc, 1);
  b_end(&b, loop);
  emit(&b, ASC_OP_GT_SET_VALUE, 22, NULL, 3, og, c6, &loop->results[0]);

  /* out[7]: n = 0; for i in range(4): for j in range(i): n += 1
   * (an inner bound from the outer induction variable; an if without
   * results inside) */
  AscOp *outer = b_for(&b, 23, c0, c4, c1, &c0, 1);
  AscValue *oi = &outer->regions[0].block->args[0];
  AscOp *inner = b_for(&b, 24, c0, oi, c1,
                       (AscValue *[]){&outer->regions[0].block->args[1]}, 1);
  AscValue *in1 = emit(&b, ASC_OP_ADD_S, 25, b.i32, 2,
                       &inner->regions[0].block->args[1], c1);
  AscValue *never = b_cmp(&b, 25, ASC_CMPPRED_LT, oi, c0);
  AscOp *nif = b_if(&b, 26, never, NULL);
  emit(&b, ASC_OP_GT_SET_VALUE, 26, NULL, 3, og, c7, c42); /* not run */
  b_yield(&b, 26, NULL, 0);
  b.cur = nif->regions[1].block;
  b_yield(&b, 26, NULL, 0);
  b_end(&b, nif);
  b_yield(&b, 25, &in1, 1);
  b_end(&b, inner);
  b_yield(&b, 27, (AscValue *[]){&inner->results[0]}, 1);
  b_end(&b, outer);
  emit(&b, ASC_OP_GT_SET_VALUE, 28, NULL, 3, og, c7, &outer->results[0]);
  b_return(&b, 29, NULL, 0);

  AscKernel *k = COMPILE(&b);
  int32_t out[9];
  memset(out, 0, sizeof out);
  out[8] = -1;
  AscLaunchArg args[1] = {gm(out, sizeof out)};
  AscLaunchError err;
  AscStatus s = launch(k, 1, args, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK_EQ(out[0], 95);  /* 0+2+4+6+8 + 3*(1+3+5+7+9) */
  CHECK_EQ(out[1], 111); /* Collatz steps of 27 */
  CHECK_EQ(out[2], 1);
  CHECK_EQ(out[3], 22); /* 10 + 7 + 4 + 1 */
  CHECK_EQ(out[4], 5);
  CHECK_EQ(out[5], 8);
  CHECK_EQ(out[6], 42);
  CHECK_EQ(out[7], 6); /* 0 + 1 + 2 + 3 */
  CHECK_EQ(out[8], -1);
  asc_kernel_free(k);
  b_free(&b);
}

/* ---- TPipe / TQue / TBuf ------------------------------------------------- */

enum { QT = 128 /* elements per queue buffer */, QTILES = 4 };

/*  def k(x, z, scale):
 *    pipe.init_buffer(qin, 2, QT * 4); pipe.init_buffer(qout, 2, QT * 4)
 *    for t in range(QTILES):
 *      off = (block_idx * QTILES + t) * QT
 *      xt = qin.alloc_tensor(); data_copy(xt, x_gm[off], QT); qin.enque(xt)
 *      xd = qin.deque(); yt = qout.alloc_tensor()
 *      muls(yt, xd, scale, QT); adds(yt, yt, 1.0, QT)
 *      qin.free_tensor(xd); qout.enque(yt)
 *      yd = qout.deque(); data_copy(z_gm[off], yd, QT); qout.free_tensor(yd)
 */
static void test_queues(void) {
  B b;
  b_init(&b);
  const AscType *ka[3] = {b.ga_f32, b.ga_f32, b.f32};
  b_func(&b, "k", 1, ka, 3, NULL, 0, 1);
  AscValue *c0 = cst_i(&b, 2, 0), *c1 = cst_i(&b, 2, 1);
  AscValue *c2 = cst_i(&b, 2, 2), *cqt = cst_i(&b, 2, QT);
  AscValue *cbytes = cst_i(&b, 2, QT * 4), *ctiles = cst_i(&b, 2, QTILES);
  AscValue *one = cst_f(&b, 2, 1.0);
  AscValue *pipe = emit(&b, ASC_OP_TPIPE, 3, b.pipe, 0);
  AscValue *qin = emit(&b, ASC_OP_TQUE, 3, b.que_in, 0);
  AscValue *qout = emit(&b, ASC_OP_TQUE, 3, b.que_out, 0);
  emit(&b, ASC_OP_INIT_BUFFER_QUE, 4, NULL, 4, pipe, qin, c2, cbytes);
  emit(&b, ASC_OP_INIT_BUFFER_QUE, 4, NULL, 4, pipe, qout, c2, cbytes);
  AscValue *xg = b_gt(&b, 5, arg(&b, 0));
  AscValue *zg = b_gt(&b, 5, arg(&b, 1));
  AscValue *idx = emit(&b, ASC_OP_GET_BLOCK_IDX, 6, b.i32, 0);
  AscValue *first = emit(&b, ASC_OP_MUL_S, 6, b.i32, 2, idx, ctiles);
  AscOp *loop = b_for(&b, 7, c0, ctiles, c1, NULL, 0);
  AscValue *t = &loop->regions[0].block->args[0];
  AscValue *tile = emit(&b, ASC_OP_ADD_S, 8, b.i32, 2, first, t);
  AscValue *off = emit(&b, ASC_OP_MUL_S, 8, b.i32, 2, tile, cqt);
  AscValue *xt = emit(&b, ASC_OP_ALLOC_TENSOR, 9, b.lt_in, 1, qin);
  AscValue *xo = emit(&b, ASC_OP_GT_OFFSET, 10, b.gt_f32, 2, xg, off);
  emit(&b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, xt, xo, cqt);
  emit(&b, ASC_OP_ENQUE, 11, NULL, 2, qin, xt);
  AscValue *xd = emit(&b, ASC_OP_DEQUE, 12, b.lt_in, 1, qin);
  AscValue *yt = emit(&b, ASC_OP_ALLOC_TENSOR, 13, b.lt_out, 1, qout);
  emit(&b, ASC_OP_MULS, 14, NULL, 4, yt, xd, arg(&b, 2), cqt);
  emit(&b, ASC_OP_ADDS, 15, NULL, 4, yt, yt, one, cqt);
  emit(&b, ASC_OP_FREE_TENSOR, 16, NULL, 2, qin, xd);
  emit(&b, ASC_OP_ENQUE, 17, NULL, 2, qout, yt);
  AscValue *yd = emit(&b, ASC_OP_DEQUE, 18, b.lt_out, 1, qout);
  AscValue *zo = emit(&b, ASC_OP_GT_OFFSET, 19, b.gt_f32, 2, zg, off);
  emit(&b, ASC_OP_COPY_LOCAL_TO_GM, 19, NULL, 3, zo, yd, cqt);
  emit(&b, ASC_OP_FREE_TENSOR, 20, NULL, 2, qout, yd);
  b_yield(&b, 20, NULL, 0);
  b_end(&b, loop);
  b_return(&b, 21, NULL, 0);

  AscKernel *k = COMPILE(&b);
  enum { BLOCKS = 3, N = BLOCKS * QTILES * QT };
  float *x = malloc(sizeof(float) * N), *z = malloc(sizeof(float) * N);
  for (int i = 0; i < N; i++)
    x[i] = (float)(i % 97) - 40.0f;
  memset(z, 0, sizeof(float) * N);
  AscLaunchArg args[3] = {gm_ro(x, sizeof(float) * N), gm(z, sizeof(float) * N),
                          arg_float(2.5)};
  AscLaunchError err;
  AscStatus s = launch(k, BLOCKS, args, 3, 2, &err);
  EXPECT_OK(s, &err);
  int ok = 1;
  for (int i = 0; i < N; i++)
    if (z[i] != x[i] * 2.5f + 1.0f) {
      if (ok)
        printf("  z[%d] = %g, expected %g\n", i, z[i], x[i] * 2.5f + 1.0f);
      ok = 0;
    }
  CHECK(ok);
  asc_kernel_free(k);
  free(x);
  free(z);
  b_free(&b);
}

/* Two buffers in flight: FIFO order, and TBuf.get with and without a
 * length. */
static void test_queue_fifo_and_tbuf(void) {
  B b;
  b_init(&b);
  const AscType *ka[1] = {b.ga_f32};
  b_func(&b, "k", 1, ka, 1, NULL, 0, 1);
  AscValue *c2 = cst_i(&b, 2, 2), *c8 = cst_i(&b, 2, 8);
  AscValue *c16 = cst_i(&b, 2, 16), *c24 = cst_i(&b, 2, 24);
  AscValue *c32 = cst_i(&b, 2, 32), *c256 = cst_i(&b, 2, 256);
  AscValue *f1 = cst_f(&b, 2, 1.0), *f2 = cst_f(&b, 2, 2.0);
  AscValue *f3 = cst_f(&b, 2, 3.0);
  AscValue *pipe = emit(&b, ASC_OP_TPIPE, 3, b.pipe, 0);
  AscValue *q = emit(&b, ASC_OP_TQUE, 3, b.que_in, 0);
  AscValue *tb = emit(&b, ASC_OP_TBUF, 3, b.tbuf, 0);
  emit(&b, ASC_OP_INIT_BUFFER_QUE, 4, NULL, 4, pipe, q, c2, c32);
  emit(&b, ASC_OP_INIT_BUFFER_BUF, 4, NULL, 3, pipe, tb, c256);
  AscValue *og = b_gt(&b, 5, arg(&b, 0));
  AscValue *ta = emit(&b, ASC_OP_ALLOC_TENSOR, 6, b.lt_in, 1, q);
  AscValue *tbb = emit(&b, ASC_OP_ALLOC_TENSOR, 6, b.lt_in, 1, q);
  emit(&b, ASC_OP_DUPLICATE, 7, NULL, 3, ta, f1, c8);
  emit(&b, ASC_OP_DUPLICATE, 7, NULL, 3, tbb, f2, c8);
  emit(&b, ASC_OP_ENQUE, 8, NULL, 2, q, ta);
  emit(&b, ASC_OP_ENQUE, 8, NULL, 2, q, tbb);
  AscValue *d1 = emit(&b, ASC_OP_DEQUE, 9, b.lt_in, 1, q);
  AscValue *d2 = emit(&b, ASC_OP_DEQUE, 9, b.lt_in, 1, q);
  emit(&b, ASC_OP_COPY_LOCAL_TO_GM, 10, NULL, 3, og, d1, c8);
  AscValue *o8 = emit(&b, ASC_OP_GT_OFFSET, 10, b.gt_f32, 2, og, c8);
  emit(&b, ASC_OP_COPY_LOCAL_TO_GM, 10, NULL, 3, o8, d2, c8);
  emit(&b, ASC_OP_FREE_TENSOR, 11, NULL, 2, q, d2);
  emit(&b, ASC_OP_FREE_TENSOR, 11, NULL, 2, q, d1);
  /* TBuf: get() covers the buffer (64 floats), get(8) a prefix */
  AscValue *whole = emit(&b, ASC_OP_TBUF_GET, 12, b.lt_calc, 1, tb);
  AscValue *part = emit(&b, ASC_OP_TBUF_GET, 12, b.lt_calc, 2, tb, c8);
  AscValue *c64 = cst_i(&b, 12, 64);
  emit(&b, ASC_OP_DUPLICATE, 13, NULL, 3, whole, f3, c64);
  emit(&b, ASC_OP_DUPLICATE, 13, NULL, 3, part, f2, c8);
  AscValue *o16 = emit(&b, ASC_OP_GT_OFFSET, 14, b.gt_f32, 2, og, c16);
  emit(&b, ASC_OP_COPY_LOCAL_TO_GM, 14, NULL, 3, o16, whole, c16);
  AscValue *lv = emit(&b, ASC_OP_LT_GET_VALUE, 15, b.f32, 2, whole, c24);
  AscValue *c40 = cst_i(&b, 15, 40);
  emit(&b, ASC_OP_GT_SET_VALUE, 15, NULL, 3, og, c40, lv);
  b_return(&b, 16, NULL, 0);

  AscKernel *k = COMPILE(&b);
  float out[48];
  for (int i = 0; i < 48; i++)
    out[i] = -1.0f;
  AscLaunchArg args[1] = {gm(out, sizeof out)};
  AscLaunchError err;
  AscStatus s = launch(k, 1, args, 1, 1, &err);
  EXPECT_OK(s, &err);
  int ok = 1;
  for (int i = 0; i < 8; i++)
    ok &= out[i] == 1.0f && out[8 + i] == 2.0f;
  CHECK(ok); /* FIFO: the first enqueued comes out first */
  ok = 1;
  for (int i = 0; i < 8; i++)
    ok &= out[16 + i] == 2.0f && out[24 + i] == 3.0f;
  CHECK(ok); /* get(8) aliases the start of get() */
  CHECK(out[32] == -1.0f);
  CHECK(out[40] == 3.0f);
  CHECK(out[41] == -1.0f);
  asc_kernel_free(k);
  b_free(&b);
}

/* ---- faults -------------------------------------------------------------- */

/* The fault kernels share a prologue:
 *   def k(x: GM f32, y: GM f32, n: int32):
 *     c0, c1, c4, c8, c32, c40, c64; x_gm, y_gm; lt = LocalTensor(0, 64)
 * and put the faulting op at line 10 (return at line 20). */
typedef struct Fk {
  B b;
  AscValue *c0, *c1, *c4, *c8, *c32, *c40, *c64, *xg, *yg, *lt, *f7;
} Fk;

/* Frees the previous kernel's module, if any: the error location of a
 * launch points into it, so it lives until the next fk_begin or fk_done. */
static void fk_done(Fk *f) {
  if (f->b.ctx)
    b_free(&f->b);
  memset(f, 0, sizeof *f);
}

static void fk_begin(Fk *f) {
  B *b = &f->b;
  fk_done(f);
  b_init(b);
  const AscType *ka[3] = {b->ga_f32, b->ga_f32, b->i32};
  b_func(b, "k", 1, ka, 3, NULL, 0, 1);
  f->c0 = cst_i(b, 2, 0);
  f->c1 = cst_i(b, 2, 1);
  f->c4 = cst_i(b, 2, 4);
  f->c8 = cst_i(b, 2, 8);
  f->c32 = cst_i(b, 2, 32);
  f->c40 = cst_i(b, 2, 40);
  f->c64 = cst_i(b, 2, 64);
  f->f7 = cst_f(b, 2, 7.0);
  f->xg = b_gt(b, 3, arg(b, 0));
  f->yg = b_gt(b, 4, arg(b, 1));
  f->lt = emit(b, ASC_OP_LT_CREATE, 5, b->lt_in, 2, f->c0, f->c64);
}

/* Launch buffers: x has 64 floats (i), y a 96-float allocation of which
 * the kernel sees 64; the extra 32 floats must never change. */
enum { XN = 64, YN = 64, YALLOC = 96 };
static const unsigned char SENTINEL = 0x5a;

typedef struct Bufs {
  float x[XN];
  float y[YALLOC];
  AscLaunchArg args[3];
} Bufs;

static void bufs_init(Bufs *u, int64_t n) {
  for (int i = 0; i < XN; i++)
    u->x[i] = (float)i;
  memset(u->y, SENTINEL, sizeof u->y);
  u->args[0] = gm_ro(u->x, sizeof u->x);
  u->args[1] = gm(u->y, sizeof(float) * YN);
  u->args[2] = arg_int(n);
}

/* Finishes the kernel, compiles and runs it on `blocks` blocks. */
static AscStatus fk_run(Fk *f, Bufs *u, int blocks, int workers,
                        AscLaunchError *err) {
  b_return(&f->b, 20, NULL, 0);
  AscKernel *k = COMPILE(&f->b);
  AscStatus s = launch(k, blocks, u->args, 3, workers, err);
  asc_kernel_free(k);
  return s;
}

static void test_fault_gm_bounds(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  AscStatus s;

  /* read: elements [32, 96) of a 64-element buffer */
  fk_begin(&f);
  {
    AscValue *xo = emit(&f.b, ASC_OP_GT_OFFSET, 9, f.b.gt_f32, 2, f.xg, f.c32);
    emit(&f.b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, f.lt, xo, f.c64);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.data_copy.gm_to_local",
               "GM access out of bounds");
  CHECK_HAS(err.message, "elements [32, 96) of 64");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  /* write: elements [40, 72) of 64; bytes past the buffer untouched, and
   * the kernel's earlier in-bounds write kept */
  fk_begin(&f);
  {
    emit(&f.b, ASC_OP_DUPLICATE, 7, NULL, 3, f.lt, f.f7, f.c64);
    emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 8, NULL, 3, f.yg, f.lt, f.c8);
    AscValue *yo = emit(&f.b, ASC_OP_GT_OFFSET, 9, f.b.gt_f32, 2, f.yg, f.c40);
    emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 10, NULL, 3, yo, f.lt, f.c32);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.data_copy.local_to_gm",
               "GM access out of bounds");
  CHECK_HAS(err.message, "argument 1");
  {
    int ok = 1;
    for (int i = 0; i < 8; i++)
      ok &= u.y[i] == 7.0f;
    CHECK(ok);
    CHECK(all_bytes(u.y + 8, sizeof(float) * (YALLOC - 8), SENTINEL));
  }

  /* a scalar write one past the end */
  fk_begin(&f);
  emit(&f.b, ASC_OP_GT_SET_VALUE, 10, NULL, 3, f.yg, f.c64, f.f7);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.global_tensor.set_value",
               "GM access out of bounds");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  /* a scalar read past the end, at an index from the kernel argument */
  fk_begin(&f);
  {
    AscValue *v =
        emit(&f.b, ASC_OP_GT_GET_VALUE, 10, f.b.f32, 2, f.xg, arg(&f.b, 2));
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, v);
  }
  bufs_init(&u, XN);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.global_tensor.get_value",
               "GM access out of bounds");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));
  /* ... and the same kernel in bounds */
  fk_begin(&f);
  {
    AscValue *v =
        emit(&f.b, ASC_OP_GT_GET_VALUE, 10, f.b.f32, 2, f.xg, arg(&f.b, 2));
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, v);
  }
  bufs_init(&u, XN - 1);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK(u.y[0] == (float)(XN - 1));

  /* a negative index */
  fk_begin(&f);
  emit(&f.b, ASC_OP_GT_SET_VALUE, 10, NULL, 3, f.yg, arg(&f.b, 2), f.f7);
  bufs_init(&u, -1);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.global_tensor.set_value", "negative index");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  /* a GlobalTensor that was never given a buffer */
  fk_begin(&f);
  {
    AscValue *g = emit(&f.b, ASC_OP_GT_CREATE, 9, f.b.gt_f32, 0);
    emit(&f.b, ASC_OP_GT_SET_VALUE, 10, NULL, 3, g, f.c0, f.f7);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.global_tensor.set_value",
               "before set_global_buffer");
  fk_done(&f);
}

static void test_fault_ub(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  AscStatus s;
  CHECK_EQ((int64_t)platform()->ub_size, 192 * 1024);
  /* the UB a kernel may use: all 192 KiB for these kernels, AIV_ONLY (no
   * kernel_type) and using no API of 静态Tensor编程.md's table 5; a MIX
   * kernel leaves 256 bytes, one using such an API 8 KiB (src/sim/
   * reserve.c, tests/python/test_hw_rules.py) */
  const int64_t ub = (int64_t)platform()->ub_size;
  {
    AscReserve r = {0, 0, NULL, {0}};
    CHECK_EQ(asc_reserve_ub_user(&r, platform()), ub);
    r.mix = 1;
    CHECK_EQ(asc_reserve_ub_user(&r, platform()), ub - 256);
    r.api = "Select";
    CHECK_EQ(asc_reserve_ub_user(&r, platform()), ub - 256 - 8 * 1024);
    r.mix = 0;
    CHECK_EQ(asc_reserve_ub_user(&r, platform()), ub - 8 * 1024);
    CHECK_EQ(asc_reserve_l1_user(&r, platform()), 512 * 1024);
    r.mix = 1;
    CHECK_EQ(asc_reserve_l1_user(&r, platform()), 512 * 1024 - 256);
    /* a note cut short stays a prefix and ends on a whole UTF-8 character
     * (it goes to Python as a str) */
    char full[1024], cut[1024];
    r.api_loc.file = "k.py";
    r.api_loc.line = 7;
    asc_reserve_ub_note(&r, platform(), full, sizeof full);
    CHECK(strstr(full, "Select, which the kernel uses at k.py:7") != NULL);
    for (size_t n = 1; n <= strlen(full) + 1; n++) {
      asc_reserve_ub_note(&r, platform(), cut, n);
      size_t len = strlen(cut), lead = len;
      CHECK(len < n && strncmp(cut, full, len) == 0);
      while (lead > 0 && ((unsigned char)cut[lead - 1] & 0xC0) == 0x80)
        lead--;
      if (lead > 0 && (unsigned char)cut[lead - 1] >= 0xC0) {
        unsigned char c = (unsigned char)cut[lead - 1];
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        CHECK_EQ((int64_t)(len - (lead - 1)), (int64_t)need);
      }
    }
  }

  /* a LocalTensor past the end of the UB a kernel may use */
  fk_begin(&f);
  {
    AscValue *len = cst_i(&f.b, 9, ub / 4 + 8);
    emit(&f.b, ASC_OP_LT_CREATE, 10, f.b.lt_in, 2, f.c0, len);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.local_tensor",
               "beyond the UB the kernel may use: the kernel may use UB "
               "bytes [0, 196608), all of the UB: its kernel type AIV_ONLY");

  fk_begin(&f);
  {
    AscValue *addr = cst_i(&f.b, 9, ub - 32);
    emit(&f.b, ASC_OP_LT_CREATE, 10, f.b.lt_in, 2, addr, f.c32);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.local_tensor", "UB");

  /* exactly up to the end is fine, and usable */
  fk_begin(&f);
  {
    AscValue *addr = cst_i(&f.b, 9, ub - 256);
    AscValue *t = emit(&f.b, ASC_OP_LT_CREATE, 10, f.b.lt_in, 2, addr, f.c64);
    emit(&f.b, ASC_OP_COPY_GM_TO_LOCAL, 11, NULL, 3, t, f.xg, f.c64);
    emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 12, NULL, 3, f.yg, t, f.c64);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK(memcmp(u.y, u.x, sizeof u.x) == 0);

  /* a vector op over more elements than its LocalTensor has */
  fk_begin(&f);
  {
    AscValue *c65 = cst_i(&f.b, 9, 65);
    emit(&f.b, ASC_OP_ADD, 10, NULL, 4, f.lt, f.lt, f.lt, c65);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.add", "65 elements requested");

  /* init_buffer: two 100 KiB buffers do not fit */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    AscValue *c2 = cst_i(&f.b, 9, 2), *len = cst_i(&f.b, 9, 100 * 1024);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 10, NULL, 4, pipe, q, c2, len);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tpipe.init_buffer_que", "UB overflow");

  /* init_buffer: a queue fits, the TBuf after it does not */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    AscValue *tb = emit(&f.b, ASC_OP_TBUF, 8, f.b.tbuf, 0);
    AscValue *c2 = cst_i(&f.b, 9, 2), *len = cst_i(&f.b, 9, 64 * 1024);
    AscValue *len2 = cst_i(&f.b, 9, 64 * 1024 + 1);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 9, NULL, 4, pipe, q, c2, len);
    emit(&f.b, ASC_OP_INIT_BUFFER_BUF, 10, NULL, 3, pipe, tb, len2);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tpipe.init_buffer_buf", "UB overflow");

  /* misaligned UB address: a view one float into a tensor */
  fk_begin(&f);
  {
    AscValue *lo = emit(&f.b, ASC_OP_LT_OFFSET, 9, f.b.lt_in, 2, f.lt, f.c1);
    emit(&f.b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, lo, f.xg, f.c32);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.data_copy.gm_to_local",
               "UB address 4 is not 32-byte aligned");

  fk_begin(&f);
  {
    AscValue *lo = emit(&f.b, ASC_OP_LT_OFFSET, 9, f.b.lt_in, 2, f.lt, f.c4);
    emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 10, NULL, 3, f.yg, lo, f.c32);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.data_copy.local_to_gm",
               "not 32-byte aligned");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  /* a LocalTensor created at a misaligned address */
  fk_begin(&f);
  emit(&f.b, ASC_OP_LT_CREATE, 10, f.b.lt_in, 2, f.c4, f.c8);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.local_tensor", "not 32-byte aligned");
  fk_done(&f);
}

static void test_fault_queues(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  AscStatus s;

  /* deque on an empty queue */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    AscValue *c2 = cst_i(&f.b, 9, 2), *len = cst_i(&f.b, 9, 256);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 9, NULL, 4, pipe, q, c2, len);
    emit(&f.b, ASC_OP_DEQUE, 10, f.b.lt_in, 1, q);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.deque", "deque on an empty TQue");

  /* enque, deque, deque: the second finds the queue empty again */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 7, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 7, f.b.que_in, 0);
    AscValue *c2 = cst_i(&f.b, 7, 2), *len = cst_i(&f.b, 7, 256);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 8, NULL, 4, pipe, q, c2, len);
    AscValue *t = emit(&f.b, ASC_OP_ALLOC_TENSOR, 8, f.b.lt_in, 1, q);
    emit(&f.b, ASC_OP_ENQUE, 9, NULL, 2, q, t);
    emit(&f.b, ASC_OP_DEQUE, 9, f.b.lt_in, 1, q);
    emit(&f.b, ASC_OP_DEQUE, 10, f.b.lt_in, 1, q);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.deque", "empty");

  /* alloc with every buffer in use */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que1, 0);
    AscValue *len = cst_i(&f.b, 9, 256);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 9, NULL, 4, pipe, q, f.c1, len);
    emit(&f.b, ASC_OP_ALLOC_TENSOR, 9, f.b.lt_in, 1, q);
    emit(&f.b, ASC_OP_ALLOC_TENSOR, 10, f.b.lt_in, 1, q);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.alloc_tensor",
               "all 1 buffers of the TQue are in use");

  /* free of a tensor still in the queue */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    AscValue *c2 = cst_i(&f.b, 8, 2), *len = cst_i(&f.b, 8, 256);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 9, NULL, 4, pipe, q, c2, len);
    AscValue *t = emit(&f.b, ASC_OP_ALLOC_TENSOR, 9, f.b.lt_in, 1, q);
    emit(&f.b, ASC_OP_ENQUE, 9, NULL, 2, q, t);
    emit(&f.b, ASC_OP_FREE_TENSOR, 10, NULL, 2, q, t);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.free_tensor", "still in the queue");

  /* alloc before init_buffer; a tensor of another queue */
  fk_begin(&f);
  {
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    emit(&f.b, ASC_OP_ALLOC_TENSOR, 10, f.b.lt_in, 1, q);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.alloc_tensor", "init_buffer");

  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *q = emit(&f.b, ASC_OP_TQUE, 8, f.b.que_in, 0);
    AscValue *c2 = cst_i(&f.b, 8, 2), *len = cst_i(&f.b, 8, 256);
    emit(&f.b, ASC_OP_INIT_BUFFER_QUE, 9, NULL, 4, pipe, q, c2, len);
    emit(&f.b, ASC_OP_ENQUE, 10, NULL, 2, q, f.lt);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tque.enque", "not allocated");

  /* TBuf.get longer than the buffer */
  fk_begin(&f);
  {
    AscValue *pipe = emit(&f.b, ASC_OP_TPIPE, 8, f.b.pipe, 0);
    AscValue *tb = emit(&f.b, ASC_OP_TBUF, 8, f.b.tbuf, 0);
    AscValue *len = cst_i(&f.b, 8, 128);
    emit(&f.b, ASC_OP_INIT_BUFFER_BUF, 9, NULL, 3, pipe, tb, len);
    emit(&f.b, ASC_OP_TBUF_GET, 10, f.b.lt_calc, 2, tb, f.c40);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.tbuf.get", "exceeds");
  fk_done(&f);
}

static void test_fault_sync(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  AscStatus s;

  /* wait_flag(MTE2_V) with no set_flag: the vector pipe waits forever;
   * the kernel's scalar code still runs to the end, and the deadlock is
   * reported there, at the wait */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 10, ASC_HARDEVENT_MTE2_V, f.c0);
  emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, f.f7);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.wait_flag", "deadlock");
  CHECK_HAS(err.message, "MTE2_V");
  CHECK(u.y[0] == 7.0f); /* ran past the wait */

  /* wait_flag(V_S) blocks the scalar unit itself: reported at once */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 10, ASC_HARDEVENT_V_S, f.c0);
  emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, f.f7);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.wait_flag", "deadlock");
  CHECK_HAS(err.message, "V_S");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL)); /* stopped at the wait */

  /* set after wait on a non-scalar pipe releases it; set twice, wait
   * twice; other event ids are independent */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 9, ASC_HARDEVENT_MTE2_V, f.c1);
  b_flag(&f.b, ASC_OP_SET_FLAG, 10, ASC_HARDEVENT_MTE2_V, f.c1);
  b_flag(&f.b, ASC_OP_SET_FLAG, 11, ASC_HARDEVENT_V_S, f.c0);
  b_flag(&f.b, ASC_OP_SET_FLAG, 11, ASC_HARDEVENT_V_S, f.c0);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 12, ASC_HARDEVENT_V_S, f.c0);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 12, ASC_HARDEVENT_V_S, f.c0);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);

  /* one set, two waits: the second wait is the one reported */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_SET_FLAG, 9, ASC_HARDEVENT_MTE2_V, f.c0);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 9, ASC_HARDEVENT_MTE2_V, f.c0);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 10, ASC_HARDEVENT_MTE2_V, f.c0);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.wait_flag", "deadlock");

  /* a set on another event id does not release the wait */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_SET_FLAG, 9, ASC_HARDEVENT_MTE2_V, f.c1);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 10, ASC_HARDEVENT_MTE2_V, f.c0);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.wait_flag", "deadlock");

  /* event id out of range (8 ids per event) */
  fk_begin(&f);
  b_flag(&f.b, ASC_OP_SET_FLAG, 10, ASC_HARDEVENT_MTE2_V, f.c8);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.set_flag", "event id 8 out of range");

  fk_begin(&f);
  b_flag(&f.b, ASC_OP_WAIT_FLAG, 10, ASC_HARDEVENT_V_MTE3, arg(&f.b, 2));
  bufs_init(&u, -1);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.wait_flag", "event id -1 out of range");

  /* pipe_barrier(PIPE_S) is not supported (PipeBarrier(ISASI).md; the
   * front end rejects it at compile time, IR text reaches the simulator) */
  fk_begin(&f);
  {
    AscAttr a;
    memset(&a, 0, sizeof a);
    a.name = "pipe";
    a.kind = ASC_ATTR_ENUM;
    a.enum_kind = ASC_ENUM_PIPEID;
    a.i = ASC_PIPEID_PIPE_S;
    b_op(&f.b, ASC_OP_PIPE_BARRIER, 10, NULL, 0, NULL, 0, &a, 1);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.pipe_barrier", "does not support PIPE_S");
  fk_begin(&f);
  {
    AscAttr a;
    memset(&a, 0, sizeof a);
    a.name = "pipe";
    a.kind = ASC_ATTR_ENUM;
    a.enum_kind = ASC_ENUM_PIPEID;
    a.i = ASC_PIPEID_PIPE_V;
    b_op(&f.b, ASC_OP_PIPE_BARRIER, 10, NULL, 0, NULL, 0, &a, 1);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);

  /* the highest id is fine */
  fk_begin(&f);
  {
    AscValue *c7 = cst_i(&f.b, 9, 7);
    b_flag(&f.b, ASC_OP_SET_FLAG, 10, ASC_HARDEVENT_MTE2_V, c7);
    b_flag(&f.b, ASC_OP_WAIT_FLAG, 11, ASC_HARDEVENT_MTE2_V, c7);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  fk_done(&f);
}

static void test_fault_misc(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  AscStatus s;

  /* a write to a read-only argument */
  fk_begin(&f);
  emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 10, NULL, 3, f.yg, f.lt, f.c64);
  bufs_init(&u, 0);
  u.args[1].readonly = 1;
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.data_copy.local_to_gm", "read-only");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  fk_begin(&f);
  emit(&f.b, ASC_OP_GT_SET_VALUE, 10, NULL, 3, f.yg, f.c0, f.f7);
  bufs_init(&u, 0);
  u.args[1].readonly = 1;
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "asc.global_tensor.set_value", "read-only");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  /* reading a read-only argument is fine */
  fk_begin(&f);
  emit(&f.b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, f.lt, f.xg, f.c64);
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);

  /* integer division by zero */
  fk_begin(&f);
  {
    AscValue *q = emit(&f.b, ASC_OP_DIV_S, 10, f.b.i32, 2, f.c64, arg(&f.b, 2));
    AscValue *fq = emit(&f.b, ASC_OP_CAST_S, 11, f.b.f32, 1, q);
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, fq);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "arith.div", "integer division by zero");
  CHECK(all_bytes(u.y, sizeof u.y, SENTINEL));

  fk_begin(&f);
  emit(&f.b, ASC_OP_REM_S, 10, f.b.i32, 2, f.c64, arg(&f.b, 2));
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "arith.rem", "division by zero");

  /* the same division with a non-zero divisor; C semantics: truncation */
  fk_begin(&f);
  {
    AscValue *cm7 = cst_i(&f.b, 9, -7);
    AscValue *q = emit(&f.b, ASC_OP_DIV_S, 10, f.b.i32, 2, cm7, arg(&f.b, 2));
    AscValue *r = emit(&f.b, ASC_OP_REM_S, 10, f.b.i32, 2, cm7, arg(&f.b, 2));
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0,
         emit(&f.b, ASC_OP_CAST_S, 11, f.b.f32, 1, q));
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c1,
         emit(&f.b, ASC_OP_CAST_S, 11, f.b.f32, 1, r));
  }
  bufs_init(&u, 2);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK(u.y[0] == -3.0f);
  CHECK(u.y[1] == -1.0f);

  /* float division by zero is not a fault */
  fk_begin(&f);
  {
    AscValue *z = cst_f(&f.b, 9, 0.0);
    AscValue *q = emit(&f.b, ASC_OP_DIV_S, 10, f.b.f32, 2, f.f7, z);
    emit(&f.b, ASC_OP_GT_SET_VALUE, 11, NULL, 3, f.yg, f.c0, q);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK(u.y[0] > 3.0e38f); /* +inf */

  /* range() with a zero step */
  fk_begin(&f);
  {
    AscOp *loop = b_for(&f.b, 10, f.c0, f.c8, arg(&f.b, 2), NULL, 0);
    b_yield(&f.b, 10, NULL, 0);
    b_end(&f.b, loop);
  }
  bufs_init(&u, 0);
  s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_FAULT(s, &err, 0, 10, "scf.for", "step must not be zero");
  fk_done(&f);
}

/* DataCopy moves whole 32-byte blocks: 10 floats move 8. */
static void test_data_copy_rounding(void) {
  Fk f;
  memset(&f, 0, sizeof f);
  Bufs u;
  AscLaunchError err;
  fk_begin(&f);
  {
    AscValue *c10 = cst_i(&f.b, 9, 10);
    emit(&f.b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, f.lt, f.xg, c10);
    emit(&f.b, ASC_OP_COPY_LOCAL_TO_GM, 11, NULL, 3, f.yg, f.lt, c10);
  }
  bufs_init(&u, 0);
  AscStatus s = fk_run(&f, &u, 1, 1, &err);
  EXPECT_OK(s, &err);
  CHECK(memcmp(u.y, u.x, sizeof(float) * 8) == 0);
  CHECK(all_bytes(u.y + 8, sizeof(float) * (YALLOC - 8), SENTINEL));
  fk_done(&f);
}

/* Distinct launches of one kernel from several host threads at once. */
typedef struct LaunchJob {
  const AscKernel *k;
  const float *x, *y;
  float *z;
  int n, blocks;
  AscStatus s;
} LaunchJob;

static void *launch_job(void *p) {
  LaunchJob *j = p;
  AscLaunchArg args[3] = {gm_ro((void *)j->x, sizeof(float) * (size_t)j->n),
                          gm_ro((void *)j->y, sizeof(float) * (size_t)j->n),
                          gm(j->z, sizeof(float) * (size_t)j->n)};
  AscLaunchError err;
  j->s = launch(j->k, j->blocks, args, 3, 2, &err);
  return NULL;
}

static void test_concurrent_launches(void) {
  B b;
  b_init(&b);
  build_add(&b);
  AscKernel *k = COMPILE(&b);
  enum { JOBS = 4, BLOCKS = 4, N = BLOCKS * TILE };
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
  float *z = calloc(JOBS * N, sizeof(float));
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 13);
    y[i] = (float)(i / 13);
  }
  LaunchJob jobs[JOBS];
  pthread_t th[JOBS];
  int started[JOBS];
  for (int j = 0; j < JOBS; j++) {
    LaunchJob one = {k, x, y, z + j * N, N, BLOCKS, ASC_ERR_INTERNAL};
    jobs[j] = one;
    started[j] = pthread_create(&th[j], NULL, launch_job, &jobs[j]) == 0;
    if (!started[j])
      launch_job(&jobs[j]);
  }
  for (int j = 0; j < JOBS; j++)
    if (started[j])
      pthread_join(th[j], NULL);
  int ok = 1;
  for (int j = 0; j < JOBS; j++) {
    ok &= jobs[j].s == ASC_OK;
    for (int i = 0; i < N; i++)
      ok &= z[j * N + i] == x[i] + y[i];
  }
  CHECK(ok);
  asc_kernel_free(k);
  free(x);
  free(y);
  free(z);
  b_free(&b);
}

/* ---- the helper threads kept between launches (pool.c) ------------------- */

/* A 12-block add with `workers` workers; 1 when z is x + y. */
static int pool_add(const AscKernel *k, int workers) {
  enum { BLOCKS = 12, N = BLOCKS * TILE };
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
  float *z = calloc(N, sizeof(float));
  int ok = x && y && z;
  for (int i = 0; ok && i < N; i++) {
    x[i] = (float)(i % 17);
    y[i] = (float)(i / 17);
  }
  if (ok) {
    AscLaunchArg args[3] = {gm_ro(x, sizeof(float) * N),
                            gm_ro(y, sizeof(float) * N),
                            gm(z, sizeof(float) * N)};
    AscLaunchError err;
    ok = launch(k, BLOCKS, args, 3, workers, &err) == ASC_OK;
    for (int i = 0; ok && i < N; i++)
      ok = z[i] == x[i] + y[i];
  }
  free(x);
  free(y);
  free(z);
  return ok;
}

/* Helpers that end do so soon after they are told (an idle one at once, a
 * busy one after its slot); waits up to 10 s for at most `n` to be left. */
static int helpers_at_most(int n) {
  for (int i = 0; i < 1000 && asc_launch_helper_threads() > n; i++) {
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  return asc_launch_helper_threads() <= n;
}

static void test_worker_pool(void) {
  B b;
  b_init(&b);
  build_add(&b);
  AscKernel *k = COMPILE(&b);
  asc_launch_helpers_shutdown();
  CHECK_EQ(asc_launch_helper_threads(), 0);
  /* the first multi-block launch makes a helper; later ones reuse it */
  CHECK(pool_add(k, 2));
  CHECK_EQ(asc_launch_helper_threads(), 1);
  int ok = 1;
  for (int i = 0; i < 50; i++)
    ok &= pool_add(k, 2) && asc_launch_helper_threads() == 1;
  CHECK(ok);
  /* a 1-worker launch leaves the pool alone */
  CHECK(pool_add(k, 1));
  CHECK_EQ(asc_launch_helper_threads(), 1);
  /* more workers: the pool grows only as far as the setting */
  for (int i = 0; i < 20; i++)
    ok &= pool_add(k, 4) && asc_launch_helper_threads() <= 3;
  CHECK(ok);
  CHECK(asc_launch_helper_threads() >= 1);
  /* fewer: the helpers beyond the setting end */
  CHECK(pool_add(k, 2));
  CHECK(helpers_at_most(1));
  /* ended at exit (or here), and made again by the next launch */
  asc_launch_helpers_shutdown();
  CHECK_EQ(asc_launch_helper_threads(), 0);
  CHECK(pool_add(k, 3));
  CHECK(asc_launch_helper_threads() >= 1);
  /* a forked child has no helpers of its parent, and launches with its
   * own */
  pid_t pid = fork();
  if (pid == 0) {
    int child_ok = asc_launch_helper_threads() == 0;
    for (int i = 0; i < 5; i++)
      child_ok &= pool_add(k, 2);
    child_ok &= asc_launch_helper_threads() == 1;
    _exit(child_ok ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);
  CHECK(pool_add(k, 3)); /* the parent's pool is as it was */
  asc_kernel_free(k);
  b_free(&b);
}

/* Blocks >= 5 fault (an out-of-bounds set_value at their own index); the
 * report names block 5 however the blocks are spread over workers, and the
 * blocks before it did their work. */
static void test_multi_block_fault(void) {
  int worker_counts[] = {1, 2, 3, 4, 8, 0};
  for (size_t w = 0; w < sizeof worker_counts / sizeof worker_counts[0]; w++) {
    B b;
    b_init(&b);
    const AscType *ka[1] = {b.ga_i32};
    b_func(&b, "k", 1, ka, 1, NULL, 0, 1);
    AscValue *og = b_gt(&b, 2, arg(&b, 0));
    AscValue *idx = emit(&b, ASC_OP_GET_BLOCK_IDX, 3, b.i32, 0);
    AscValue *c100 = cst_i(&b, 3, 100);
    AscValue *v = emit(&b, ASC_OP_ADD_S, 3, b.i32, 2, idx, c100);
    emit(&b, ASC_OP_GT_SET_VALUE, 4, NULL, 3, og, idx, v);
    b_return(&b, 5, NULL, 0);
    AscKernel *k = COMPILE(&b);
    int32_t out[8];
    for (int i = 0; i < 8; i++)
      out[i] = -1;
    AscLaunchArg args[1] = {gm(out, sizeof(int32_t) * 5)};
    AscLaunchError err;
    AscStatus s = launch(k, 8, args, 1, worker_counts[w], &err);
    EXPECT_FAULT(s, &err, 5, 4, "asc.global_tensor.set_value", "out of bounds");
    int ok = 1;
    for (int i = 0; i < 5; i++)
      ok &= out[i] == 100 + i;
    for (int i = 5; i < 8; i++)
      ok &= out[i] == -1;
    report(ok, __FILE__, __LINE__,
           "workers=%d: blocks below 5 incomplete or "
           "bytes past the buffer written",
           worker_counts[w]);
    asc_kernel_free(k);
    b_free(&b);
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep output if a test crashes */
  CHECK(platform() != NULL);
  if (!platform()) {
    printf("test_sim: %d passed, %d failed\n", passed, failed);
    return 1;
  }
  test_vector_add();
  test_calls();
  test_recursion();
  test_control_flow();
  test_queues();
  test_queue_fifo_and_tbuf();
  test_fault_gm_bounds();
  test_fault_ub();
  test_fault_queues();
  test_fault_sync();
  test_fault_misc();
  test_data_copy_rounding();
  test_multi_block_fault();
  test_concurrent_launches();
  test_worker_pool();
  printf("test_sim: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
