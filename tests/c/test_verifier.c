/* Unit test of the verifier and the lowering: each thing the verifier must
 * reject in IR built by hand (with message and location; compiling the
 * module must fail the same way and printing it must still work), and the
 * compile-time dtype checks of the bytecode lowering.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "asc/ir.h"

#include "check.h"
#include "ir_builder.h"

/* ---- the verifier rejects bad IR ----------------------------------------- */

/* Every rejection starts from this prologue:
 *   def k(x: GM f32, n: int32): c0 = 0; c64 = 64; lt = LocalTensor(0, 64)
 * and the bad op goes at line 10. */
typedef struct Bad {
  B b;
  AscValue *x, *n, *c0, *c64, *lt, *f;
} Bad;

static void bad_begin(Bad *t) {
  b_init(&t->b, "bad");
  const AscType *args[2] = {t->b.ga_f32, t->b.i32};
  b_func(&t->b, "k", 1, args, 2, NULL, 0, 1);
  t->x = &t->b.cur->args[0];
  t->n = &t->b.cur->args[1];
  t->c0 = cst_i(&t->b, 2, t->b.i32, 0);
  t->c64 = cst_i(&t->b, 3, t->b.i32, 64);
  t->f = cst_f(&t->b, 3, t->b.f32, 1.5);
  t->lt = emit(&t->b, ASC_OP_LT_CREATE, 4, t->b.lt_f32, 2, t->c0, t->c64);
}

/* Appends the return (unless no_return), verifies, checks the rejection and
 * frees everything. */
static void bad_expect(Bad *t, int no_return, int line, const char *substr,
                       const char *file, int src_line) {
  if (!no_return)
    b_return(&t->b, 20, NULL, 0);
  AscStatus s = asc_module_verify(t->b.m);
  const char *msg = asc_context_message(t->b.ctx);
  AscLoc loc = asc_context_error_loc(t->b.ctx);
  report(s == ASC_ERR_COMPILE, file, src_line,
         "verify returned %d, expected ASC_ERR_COMPILE (message \"%s\")", s,
         msg);
  report(asc_context_status(t->b.ctx) == ASC_ERR_COMPILE, file, src_line,
         "context status %d, expected ASC_ERR_COMPILE",
         asc_context_status(t->b.ctx));
  report(strstr(msg, substr) != NULL, file, src_line,
         "message \"%s\" lacks \"%s\"", msg, substr);
  report(loc.line == line, file, src_line, "error line %d, expected %d",
         loc.line, line);
  report(loc.file && strcmp(loc.file, FILE_PY) == 0, file, src_line,
         "error file %s", loc.file ? loc.file : "(null)");
  /* compiling the same module fails the same way */
  asc_context_clear_error(t->b.ctx);
  AscKernel *k = asc_kernel_compile(t->b.m, "k");
  report(k == NULL && asc_context_status(t->b.ctx) == ASC_ERR_COMPILE, file,
         src_line, "asc_kernel_compile accepted the bad module");
  asc_kernel_free(k);
  /* and the printer copes with it */
  char *text = asc_module_print(t->b.m);
  report(text != NULL, file, src_line, "printing the bad module failed");
  free(text);
  b_free(&t->b);
}

#define EXPECT_REJECT(t, line, substr)                                         \
  bad_expect(t, 0, line, substr, __FILE__, __LINE__)
#define EXPECT_REJECT_NORET(t, line, substr)                                   \
  bad_expect(t, 1, line, substr, __FILE__, __LINE__)

/* A scf.if with the given result type whose then-region yields `then_v`
 * (or nothing when NULL) and whose else-region yields `else_v`. */
static AscOp *bad_if(Bad *t, int line, const AscType *rt, AscValue *cond,
                     AscValue *then_v, AscValue *else_v) {
  B *b = &t->b;
  AscOp *iff = b_region_op(b, ASC_OP_IF, line, &cond, 1, rt ? &rt : NULL,
                           rt ? 1 : 0, 2, NULL, NULL);
  AscBlock *saved = b->cur;
  b->cur = iff->regions[0].block;
  emit(b, ASC_OP_YIELD, line + 1, NULL, then_v ? 1 : 0, then_v);
  b->cur = iff->regions[1].block;
  emit(b, ASC_OP_YIELD, line + 2, NULL, else_v ? 1 : 0, else_v);
  b->cur = saved;
  return iff;
}

static void test_verifier_rejects(void) {
  Bad t;

  /* sanity: the prologue alone verifies */
  bad_begin(&t);
  b_return(&t.b, 20, NULL, 0);
  CHECK_EQ(asc_module_verify(t.b.m), ASC_OK);
  b_free(&t.b);

  /* wrong operand count */
  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD, 10, NULL, 3, t.lt, t.lt, t.lt);
  EXPECT_REJECT(&t, 10, "wrong number of operands");

  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD, 10, NULL, 5, t.lt, t.lt, t.lt, t.c64, t.c64);
  EXPECT_REJECT(&t, 10, "wrong number of operands");

  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD_S, 10, t.b.i32, 1, t.c0);
  EXPECT_REJECT(&t, 10, "wrong number of operands");

  /* optional operands: tbuf.get takes one or two, not three */
  bad_begin(&t);
  {
    AscValue *buf = emit(&t.b, ASC_OP_TBUF, 9, t.b.buf, 0);
    emit(&t.b, ASC_OP_TBUF_GET, 10, t.b.lt_i32, 3, buf, t.c64, t.c64);
  }
  EXPECT_REJECT(&t, 10, "wrong number of operands");

  /* wrong operand kind: a scalar where a LocalTensor is expected */
  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD, 10, NULL, 4, t.c0, t.lt, t.lt, t.c64);
  EXPECT_REJECT(&t, 10, "'dst' must be a LocalTensor, got i32");

  /* a GlobalTensor where a LocalTensor is expected */
  bad_begin(&t);
  {
    AscValue *g = emit(&t.b, ASC_OP_GT_CREATE, 9, t.b.gt_f32, 0);
    emit(&t.b, ASC_OP_ADD, 10, NULL, 4, t.lt, g, t.lt, t.c64);
  }
  EXPECT_REJECT(&t, 10, "'src0' must be a LocalTensor");

  /* a float where an integer count is expected */
  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD, 10, NULL, 4, t.lt, t.lt, t.lt, t.f);
  EXPECT_REJECT(&t, 10, "'count' must be an integer, got f32");

  /* a tensor where a number is expected */
  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD_S, 10, t.b.i32, 2, t.c0, t.lt);
  EXPECT_REJECT(&t, 10, "'rhs' must be a number");

  /* tensors of different dtypes in asc.add */
  bad_begin(&t);
  {
    AscValue *h = emit(&t.b, ASC_OP_LT_CREATE, 9, t.b.lt_f16, 2, t.c64, t.c64);
    emit(&t.b, ASC_OP_ADD, 10, NULL, 4, t.lt, t.lt, h, t.c64);
  }
  EXPECT_REJECT(&t, 10, "dst and src1 must have one element type");

  /* ... and in a data copy */
  bad_begin(&t);
  {
    AscValue *g = emit(&t.b, ASC_OP_GT_CREATE, 9, t.b.gt_f16, 0);
    emit(&t.b, ASC_OP_COPY_GM_TO_LOCAL, 10, NULL, 3, t.lt, g, t.c64);
  }
  EXPECT_REJECT(&t, 10, "float32 and float16");

  /* wrong result count / kind */
  bad_begin(&t);
  emit(&t.b, ASC_OP_ADD_S, 10, NULL, 2, t.c0, t.c0);
  EXPECT_REJECT(&t, 10, "wrong number of results");

  bad_begin(&t);
  emit(&t.b, ASC_OP_LT_CREATE, 10, t.b.i32, 2, t.c0, t.c64);
  EXPECT_REJECT(&t, 10, "result 0 must be a LocalTensor");

  /* missing required enum attribute */
  bad_begin(&t);
  b_op(&t.b, ASC_OP_SET_FLAG, 10, &t.c0, 1, NULL, 0, NULL, 0);
  EXPECT_REJECT(&t, 10, "missing attribute event");

  /* enum attribute out of range */
  bad_begin(&t);
  b_flag(&t.b, ASC_OP_WAIT_FLAG, 10, 99, t.c0);
  EXPECT_REJECT(&t, 10, "'event' must be a HardEvent");

  bad_begin(&t);
  b_flag(&t.b, ASC_OP_SET_FLAG, 10, -1, t.c0);
  EXPECT_REJECT(&t, 10, "'event' must be a HardEvent");

  /* an enum of the wrong kind, and a plain int instead of an enum */
  bad_begin(&t);
  {
    AscAttr a = attr_enum("event", ASC_ENUM_TPOSITION, 4);
    b_op(&t.b, ASC_OP_SET_FLAG, 10, &t.c0, 1, NULL, 0, &a, 1);
  }
  EXPECT_REJECT(&t, 10, "'event' must be a HardEvent");

  bad_begin(&t);
  {
    AscAttr a = attr_int("event", 4, NULL);
    b_op(&t.b, ASC_OP_SET_FLAG, 10, &t.c0, 1, NULL, 0, &a, 1);
  }
  EXPECT_REJECT(&t, 10, "'event' must be a HardEvent");

  /* PipeID has a gap at 7 */
  bad_begin(&t);
  {
    AscAttr a = attr_enum("pipe", ASC_ENUM_PIPEID, 7);
    b_op(&t.b, ASC_OP_PIPE_BARRIER, 10, NULL, 0, NULL, 0, &a, 1);
  }
  EXPECT_REJECT(&t, 10, "'pipe' must be a PipeID");

  /* the callee attribute must be a string, not an int */
  bad_begin(&t);
  {
    AscAttr a = attr_int("callee", 3, NULL);
    b_op(&t.b, ASC_OP_CALL, 10, NULL, 0, NULL, 0, &a, 1);
  }
  EXPECT_REJECT(&t, 10, "attribute has the wrong kind: callee");

  /* a region without its terminator: scf.for body without scf.yield */
  bad_begin(&t);
  {
    const AscType *ba[1] = {t.b.i32};
    const AscType *const *rt[1] = {ba};
    int rn[1] = {1};
    AscValue *ops[3] = {t.c0, t.c64, t.c64};
    AscOp *loop = b_region_op(&t.b, ASC_OP_FOR, 10, ops, 3, NULL, 0, 1, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    emit(&t.b, ASC_OP_ADD, 11, NULL, 4, t.lt, t.lt, t.lt, t.c64);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "region must end with scf.yield");

  /* an empty else region */
  bad_begin(&t);
  {
    AscOp *iff =
        b_region_op(&t.b, ASC_OP_IF, 10, &t.c0, 1, NULL, 0, 2, NULL, NULL);
    AscBlock *saved = t.b.cur;
    t.b.cur = iff->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 0);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "region must end with scf.yield");

  /* a function without func.return */
  bad_begin(&t);
  EXPECT_REJECT_NORET(&t, 1, "function body must end with func.return");

  /* scf.while whose before region does not end with scf.condition */
  bad_begin(&t);
  {
    const AscType *wa[1] = {t.b.i32};
    const AscType *const *rt[2] = {wa, wa};
    int rn[2] = {1, 1};
    AscOp *w =
        b_region_op(&t.b, ASC_OP_WHILE, 10, &t.c0, 1, &t.b.i32, 1, 2, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = w->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 1, &t.b.cur->args[0]);
    t.b.cur = w->regions[1].block;
    emit(&t.b, ASC_OP_YIELD, 12, NULL, 1, &t.b.cur->args[0]);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "must end with scf.condition");

  /* scf.yield count mismatch */
  bad_begin(&t);
  bad_if(&t, 10, t.b.i32, t.c0, NULL, t.c0);
  EXPECT_REJECT(&t, 10, "yield count differs");

  bad_begin(&t);
  bad_if(&t, 10, NULL, t.c0, t.c0, NULL);
  EXPECT_REJECT(&t, 10, "yield count differs");

  /* scf.yield type mismatch (f32 yielded for an i32 result) */
  bad_begin(&t);
  bad_if(&t, 10, t.b.i32, t.c0, t.c0, t.f);
  EXPECT_REJECT(&t, 10, "yielded value type differs");

  /* scf.for: yielded type differs from the loop-carried type */
  bad_begin(&t);
  {
    const AscType *ba[2] = {t.b.i32, t.b.i32};
    const AscType *const *rt[1] = {ba};
    int rn[1] = {2};
    AscValue *ops[4] = {t.c0, t.c64, t.c64, t.c0};
    AscOp *loop =
        b_region_op(&t.b, ASC_OP_FOR, 10, ops, 4, &t.b.i32, 1, 1, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 1, t.f);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "yielded value type differs");

  /* scf.for: loop-carried init of another type than the block argument */
  bad_begin(&t);
  {
    const AscType *ba[2] = {t.b.i32, t.b.i32};
    const AscType *const *rt[1] = {ba};
    int rn[1] = {2};
    AscValue *ops[4] = {t.c0, t.c64, t.c64, t.f};
    AscOp *loop =
        b_region_op(&t.b, ASC_OP_FOR, 10, ops, 4, &t.b.i32, 1, 1, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 1, &t.b.cur->args[1]);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "loop-carried value changes type");

  /* scf.for without a block argument for the induction variable */
  bad_begin(&t);
  {
    AscValue *ops[3] = {t.c0, t.c64, t.c64};
    AscOp *loop =
        b_region_op(&t.b, ASC_OP_FOR, 10, ops, 3, NULL, 0, 1, NULL, NULL);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 0);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "loop-carried values do not match");

  /* scf.while: the before region's arguments must match the inits (the
   * lowering reads one argument per init) */
  bad_begin(&t);
  {
    const AscType *none[1] = {NULL};
    const AscType *wa[1] = {t.b.i32};
    const AscType *const *rt[2] = {none, wa};
    int rn[2] = {0, 1};
    AscOp *w =
        b_region_op(&t.b, ASC_OP_WHILE, 10, &t.c0, 1, &t.b.i32, 1, 2, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = w->regions[0].block;
    emit(&t.b, ASC_OP_CONDITION, 11, NULL, 2, t.c0, t.c0);
    t.b.cur = w->regions[1].block;
    emit(&t.b, ASC_OP_YIELD, 12, NULL, 1, &t.b.cur->args[0]);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "before-region arguments do not match");

  /* scf.while: the after region's arguments must match the results */
  bad_begin(&t);
  {
    const AscType *none[1] = {NULL};
    const AscType *wa[1] = {t.b.i32};
    const AscType *const *rt[2] = {wa, none};
    int rn[2] = {1, 0};
    AscOp *w =
        b_region_op(&t.b, ASC_OP_WHILE, 10, &t.c0, 1, &t.b.i32, 1, 2, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = w->regions[0].block;
    emit(&t.b, ASC_OP_CONDITION, 11, NULL, 2, t.c0, &t.b.cur->args[0]);
    t.b.cur = w->regions[1].block;
    emit(&t.b, ASC_OP_YIELD, 12, NULL, 1, t.c0);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "after-region arguments do not match");

  /* scf.while: a forwarded value of another type than the result */
  bad_begin(&t);
  {
    const AscType *wa[1] = {t.b.i32};
    const AscType *const *rt[2] = {wa, wa};
    int rn[2] = {1, 1};
    AscOp *w =
        b_region_op(&t.b, ASC_OP_WHILE, 10, &t.c0, 1, &t.b.i32, 1, 2, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = w->regions[0].block;
    emit(&t.b, ASC_OP_CONDITION, 11, NULL, 2, t.c0, t.f);
    t.b.cur = w->regions[1].block;
    emit(&t.b, ASC_OP_YIELD, 12, NULL, 1, &t.b.cur->args[0]);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "forwards a value whose type differs");

  /* use of a value before it is defined */
  bad_begin(&t);
  {
    AscOp *late = asc_op_create(t.b.ctx, ASC_OP_ADD_S, loc_at(11),
                                (AscValue *[]){t.c0, t.c0}, 2, &t.b.i32, 1,
                                NULL, 0, 0, NULL, NULL);
    emit(&t.b, ASC_OP_MUL_S, 10, t.b.i32, 2, &late->results[0], t.c0);
    asc_block_append(t.b.cur, late);
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* an op using its own result */
  bad_begin(&t);
  {
    AscOp *self = b_op(&t.b, ASC_OP_ADD_S, 10, (AscValue *[]){t.c0, t.c0}, 2,
                       &t.b.i32, 1, NULL, 0);
    self->operands[1] = &self->results[0];
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* use of a value outside its scope (defined in a loop body) */
  bad_begin(&t);
  {
    const AscType *ba[1] = {t.b.i32};
    const AscType *const *rt[1] = {ba};
    int rn[1] = {1};
    AscValue *ops[3] = {t.c0, t.c64, t.c64};
    AscOp *loop = b_region_op(&t.b, ASC_OP_FOR, 8, ops, 3, NULL, 0, 1, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    AscValue *inner =
        emit(&t.b, ASC_OP_ADD_S, 9, t.b.i32, 2, &t.b.cur->args[0], t.c0);
    emit(&t.b, ASC_OP_YIELD, 9, NULL, 0);
    t.b.cur = saved;
    emit(&t.b, ASC_OP_MUL_S, 10, t.b.i32, 2, inner, t.c0);
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* the induction variable used after the loop */
  bad_begin(&t);
  {
    const AscType *ba[1] = {t.b.i32};
    const AscType *const *rt[1] = {ba};
    int rn[1] = {1};
    AscValue *ops[3] = {t.c0, t.c64, t.c64};
    AscOp *loop = b_region_op(&t.b, ASC_OP_FOR, 8, ops, 3, NULL, 0, 1, rt, rn);
    AscBlock *saved = t.b.cur;
    t.b.cur = loop->regions[0].block;
    emit(&t.b, ASC_OP_YIELD, 9, NULL, 0);
    t.b.cur = saved;
    emit(&t.b, ASC_OP_MUL_S, 10, t.b.i32, 2, t.c0,
         &loop->regions[0].block->args[0]);
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* a value of the then-branch used in the else-branch */
  bad_begin(&t);
  {
    AscOp *iff =
        b_region_op(&t.b, ASC_OP_IF, 8, &t.c0, 1, NULL, 0, 2, NULL, NULL);
    AscBlock *saved = t.b.cur;
    t.b.cur = iff->regions[0].block;
    AscValue *v = emit(&t.b, ASC_OP_ADD_S, 9, t.b.i32, 2, t.c0, t.c0);
    emit(&t.b, ASC_OP_YIELD, 9, NULL, 0);
    t.b.cur = iff->regions[1].block;
    emit(&t.b, ASC_OP_MUL_S, 10, t.b.i32, 2, v, v);
    emit(&t.b, ASC_OP_YIELD, 11, NULL, 0);
    t.b.cur = saved;
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* a value of another function */
  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[1] = {t.b.i32};
    b_func(&t.b, "g", 30, fa, 1, NULL, 0, 0);
    AscValue *garg = &t.b.cur->args[0];
    b_return(&t.b, 31, NULL, 0);
    t.b.cur = k->regions[0].block;
    emit(&t.b, ASC_OP_ADD_S, 10, t.b.i32, 2, garg, t.c0);
  }
  EXPECT_REJECT(&t, 10, "used before it is defined");

  /* func.call to an unknown function */
  bad_begin(&t);
  b_call(&t.b, 10, "nowhere", &t.c0, 1, NULL, 0);
  EXPECT_REJECT(&t, 10, "unknown callee nowhere");

  /* func.call with wrong argument types / count */
  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[2] = {t.b.i32, t.b.f32};
    b_func(&t.b, "g", 30, fa, 2, NULL, 0, 0);
    b_return(&t.b, 31, NULL, 0);
    t.b.cur = k->regions[0].block;
    AscValue *args[2] = {t.c0, t.c0};
    b_call(&t.b, 10, "g", args, 2, NULL, 0);
  }
  EXPECT_REJECT(&t, 10, "argument type mismatch calling g");

  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[2] = {t.b.i32, t.b.f32};
    b_func(&t.b, "g", 30, fa, 2, NULL, 0, 0);
    b_return(&t.b, 31, NULL, 0);
    t.b.cur = k->regions[0].block;
    b_call(&t.b, 10, "g", &t.c0, 1, NULL, 0);
  }
  EXPECT_REJECT(&t, 10, "wrong argument count for g");

  /* func.call whose results differ from the callee's result types (the
   * callee's func.return writes the caller's result slots) */
  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[1] = {t.b.i32};
    const AscType *fr[2] = {t.b.i32, t.b.i32};
    b_func(&t.b, "g", 30, fa, 1, fr, 2, 0);
    AscValue *rv[2] = {&t.b.cur->args[0], &t.b.cur->args[0]};
    b_return(&t.b, 31, rv, 2);
    t.b.cur = k->regions[0].block;
    b_call(&t.b, 10, "g", &t.c0, 1, &t.b.i32, 1);
  }
  EXPECT_REJECT(&t, 10, "wrong result count for g");

  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[1] = {t.b.i32};
    b_func(&t.b, "g", 30, fa, 1, fa, 1, 0);
    b_return(&t.b, 31, (AscValue *[]){&t.b.cur->args[0]}, 1);
    t.b.cur = k->regions[0].block;
    b_call(&t.b, 10, "g", &t.c0, 1, &t.b.f32, 1);
  }
  EXPECT_REJECT(&t, 10, "result type mismatch calling g");

  /* func.return whose values differ from the function's result types */
  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[1] = {t.b.i32};
    b_func(&t.b, "g", 30, fa, 1, NULL, 0, 0);
    AscValue *rv[2] = {&t.b.cur->args[0], &t.b.cur->args[0]};
    b_return(&t.b, 31, rv, 2);
    t.b.cur = k->regions[0].block;
  }
  EXPECT_REJECT(&t, 31, "wrong number of values returned from g");

  bad_begin(&t);
  {
    AscOp *k = t.b.func;
    const AscType *fa[1] = {t.b.i32};
    const AscType *fr[1] = {t.b.f32};
    b_func(&t.b, "g", 30, fa, 1, fr, 1, 0);
    b_return(&t.b, 31, (AscValue *[]){&t.b.cur->args[0]}, 1);
    t.b.cur = k->regions[0].block;
  }
  EXPECT_REJECT(&t, 31,
                "returned value type differs from the result type of g");

  /* arith.select with values of two types */
  bad_begin(&t);
  emit(&t.b, ASC_OP_SELECT_S, 10, t.b.i32, 3, t.c0, t.c0, t.f);
  EXPECT_REJECT(&t, 10, "same type");

  /* an op that takes no region given one */
  bad_begin(&t);
  b_region_op(&t.b, ASC_OP_ADD_S, 10, (AscValue *[]){t.c0, t.c0}, 2, &t.b.i32,
              1, 1, NULL, NULL);
  EXPECT_REJECT(&t, 10, "op takes no regions");

  /* a non-function at module level */
  bad_begin(&t);
  {
    b_return(&t.b, 20, NULL, 0);
    AscAttr a = attr_int("value", 1, t.b.i32);
    AscOp *stray = asc_op_create(t.b.ctx, ASC_OP_CONSTANT, loc_at(40), NULL, 0,
                                 &t.b.i32, 1, &a, 1, 0, NULL, NULL);
    asc_block_append(t.b.m->body, stray);
  }
  EXPECT_REJECT_NORET(
      &t, 40,
      "only functions and struct declarations may appear at module level");
}

/* ---- compile-time target checks ------------------------------------------ */

static void test_compile_rejects(void) {
  /* asc.div is defined for float types only */
  B b;
  b_init(&b, "divi");
  const AscType *args[1] = {b.ga_f32};
  b_func(&b, "k", 1, args, 1, NULL, 0, 1);
  AscValue *c0 = cst_i(&b, 2, b.i32, 0);
  AscValue *c64 = cst_i(&b, 2, b.i32, 64);
  AscValue *lt = emit(&b, ASC_OP_LT_CREATE, 3, b.lt_i32, 2, c0, c64);
  emit(&b, ASC_OP_DIV, 7, NULL, 4, lt, lt, lt, c64);
  b_return(&b, 8, NULL, 0);
  CHECK_EQ(asc_module_verify(b.m), ASC_OK); /* valid IR ... */
  AscKernel *k = asc_kernel_compile(b.m, "k");
  CHECK(k == NULL); /* ... but not supported by the target */
  CHECK_EQ(asc_context_status(b.ctx), ASC_ERR_COMPILE);
  CHECK_HAS(asc_context_message(b.ctx), "asc.div");
  CHECK_HAS(asc_context_message(b.ctx), "int32");
  CHECK_EQ(asc_context_error_loc(b.ctx).line, 7);
  CHECK_STREQ(asc_context_error_loc(b.ctx).file, FILE_PY);
  asc_kernel_free(k);

  /* an unknown entry */
  asc_context_clear_error(b.ctx);
  k = asc_kernel_compile(b.m, "nope");
  CHECK(k == NULL);
  CHECK_EQ(asc_context_status(b.ctx), ASC_ERR_COMPILE);
  CHECK_HAS(asc_context_message(b.ctx), "nope");
  b_free(&b);

  /* asc.exp on int32, asc.cast with an unsupported rounding */
  b_init(&b, "more");
  args[0] = b.ga_f32; /* types belong to their context: the old one is gone */
  b_func(&b, "k", 1, args, 1, NULL, 0, 1);
  c0 = cst_i(&b, 2, b.i32, 0);
  c64 = cst_i(&b, 2, b.i32, 64);
  lt = emit(&b, ASC_OP_LT_CREATE, 3, b.lt_i32, 2, c0, c64);
  emit(&b, ASC_OP_EXP, 5, NULL, 3, lt, lt, c64);
  b_return(&b, 8, NULL, 0);
  k = asc_kernel_compile(b.m, "k");
  CHECK(k == NULL);
  CHECK_EQ(asc_context_status(b.ctx), ASC_ERR_COMPILE);
  CHECK_HAS(asc_context_message(b.ctx), "asc.exp");
  CHECK_EQ(asc_context_error_loc(b.ctx).line, 5);
  b_free(&b);

  /* f32 -> f32 add compiles; the same kernel in int32 does too */
  b_init(&b, "ok");
  args[0] = b.ga_f32;
  b_func(&b, "k", 1, args, 1, NULL, 0, 1);
  c0 = cst_i(&b, 2, b.i32, 0);
  c64 = cst_i(&b, 2, b.i32, 64);
  lt = emit(&b, ASC_OP_LT_CREATE, 3, b.lt_i32, 2, c0, c64);
  emit(&b, ASC_OP_ADD, 5, NULL, 4, lt, lt, lt, c64);
  AscValue *lf = emit(&b, ASC_OP_LT_CREATE, 3, b.lt_f32, 2, c64, c64);
  emit(&b, ASC_OP_DIV, 6, NULL, 4, lf, lf, lf, c64);
  b_return(&b, 8, NULL, 0);
  k = asc_kernel_compile(b.m, "k");
  CHECK(k != NULL);
  CHECK_EQ(asc_context_status(b.ctx), ASC_OK);
  asc_kernel_free(k);
  b_free(&b);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep output if a test crashes */
  test_verifier_rejects();
  test_compile_rejects();
  printf("test_verifier: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
