/* Unit test of the `inline` pass (src/passes/inline.c): calls with scalar,
 * LocalTensor and GlobalTensor arguments, results returned as a tuple,
 * nested calls (work -> mid -> leaf), a callee whose scf.for / scf.if
 * regions have block arguments to remap, one callee called twice (two
 * independent copies), and the calls the pass refuses (recursion, a
 * return before the end, by-value semantics it would lose), which leave
 * the IR as it was.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "asc/passes.h"

#include "check.h"

static const char MAIN[] =
    "module @k {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: !asc.global_address<f32>, %n: i32):\n"
    "    %x_gm = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
    "loc(\"k.py\":3:4)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%x_gm, %x) : "
    "(!asc.global_tensor<f32>, !asc.global_address<f32>) -> () "
    "loc(\"k.py\":3:4)\n"
    "    %pipe = \"asc.tpipe\"() : () -> !asc.tpipe loc(\"k.py\":4:4)\n"
    "    %tmp = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC> loc(\"k.py\":5:4)\n"
    "    %c256 = \"arith.constant\"() {value = 256 : i32} : () -> i32 "
    "loc(\"k.py\":6:4)\n"
    "    \"asc.tpipe.init_buffer_buf\"(%pipe, %tmp, %c256) : (!asc.tpipe, "
    "!asc.tbuf<VECCALC>, i32) -> () loc(\"k.py\":6:4)\n"
    "    %t = \"asc.tbuf.get\"(%tmp) : (!asc.tbuf<VECCALC>) -> "
    "!asc.local_tensor<f32, VECCALC> loc(\"k.py\":7:4)\n"
    "    %c2 = \"arith.constant\"() {value = 2 : i32} : () -> i32 "
    "loc(\"k.py\":8:4)\n"
    "    %s, %d = \"func.call\"(%t, %x_gm, %n, %c2) {callee = \"work\"} : "
    "(!asc.local_tensor<f32, VECCALC>, !asc.global_tensor<f32>, i32, i32) -> "
    "(i32, i32) loc(\"k.py\":8:4)\n"
    "    %u, %w = \"func.call\"(%t, %x_gm, %s, %d) {callee = \"work\"} : "
    "(!asc.local_tensor<f32, VECCALC>, !asc.global_tensor<f32>, i32, i32) -> "
    "(i32, i32) loc(\"k.py\":9:4)\n"
    "    %sum = \"arith.add\"(%u, %w) : (i32, i32) -> i32 loc(\"k.py\":10:4)\n"
    "    \"func.return\"() : () -> () loc(\"k.py\":11:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"k.py\":1:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%lt: !asc.local_tensor<f32, VECCALC>, %g: !asc.global_tensor<f32>, "
    "%a: i32, %b: i32):\n"
    "    \"asc.data_copy.gm_to_local\"(%lt, %g, %a) : (!asc.local_tensor<f32, "
    "VECCALC>, !asc.global_tensor<f32>, i32) -> () loc(\"d.py\":21:4)\n"
    "    %zero = \"arith.constant\"() {value = 0 : i32} : () -> i32 "
    "loc(\"d.py\":22:4)\n"
    "    %one = \"arith.constant\"() {value = 1 : i32} : () -> i32 "
    "loc(\"d.py\":22:4)\n"
    "    %acc = \"scf.for\"(%zero, %a, %one, %b) ({\n"
    "    ^bb0(%i: i32, %acc_in: i32):\n"
    "      %m = \"arith.rem\"(%i, %b) : (i32, i32) -> i32 loc(\"d.py\":23:8)\n"
    "      %c = \"arith.cmp\"(%m, %zero) {predicate = #asc<CmpPredicate EQ>} : "
    "(i32, i32) -> i1 loc(\"d.py\":23:8)\n"
    "      %acc_out = \"scf.if\"(%c) ({\n"
    "        %x1 = \"func.call\"(%acc_in, %i) {callee = \"leaf\"} : (i32, i32) "
    "-> i32 loc(\"d.py\":24:12)\n"
    "        \"scf.yield\"(%x1) : (i32) -> () loc(\"d.py\":24:12)\n"
    "      }, {\n"
    "        \"scf.yield\"(%acc_in) : (i32) -> () loc(\"d.py\":26:12)\n"
    "      }) : (i1) -> i32 loc(\"d.py\":23:8)\n"
    "      \"scf.yield\"(%acc_out) : (i32) -> () loc(\"d.py\":22:4)\n"
    "    }) : (i32, i32, i32, i32) -> i32 loc(\"d.py\":22:4)\n"
    "    %r = \"func.call\"(%acc, %a) {callee = \"mid\"} : (i32, i32) -> i32 "
    "loc(\"d.py\":27:4)\n"
    "    \"func.return\"(%r, %acc) : (i32, i32) -> () loc(\"d.py\":28:4)\n"
    "  }) {sym_name = \"work\", kernel = 0 : i64, res_types = [i32, i32]} : () "
    "-> () loc(\"d.py\":20:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%p: i32, %q: i32):\n"
    "    %y = \"func.call\"(%p, %q) {callee = \"leaf\"} : (i32, i32) -> i32 "
    "loc(\"d.py\":31:4)\n"
    "    \"func.return\"(%y) : (i32) -> () loc(\"d.py\":32:4)\n"
    "  }) {sym_name = \"mid\", kernel = 0 : i64, res_types = [i32]} : () -> () "
    "loc(\"d.py\":30:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%e: i32, %f: i32):\n"
    "    %prod = \"arith.mul\"(%e, %f) : (i32, i32) -> i32 loc(\"d.py\":41:4)\n"
    "    \"func.return\"(%prod) : (i32) -> () loc(\"d.py\":42:4)\n"
    "  }) {sym_name = \"leaf\", kernel = 0 : i64, res_types = [i32]} : () -> "
    "() loc(\"d.py\":40:0)\n"
    "}\n";

static const char RECURSIVE[] =
    "module @r {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%n: i32):\n"
    "    %a = \"func.call\"(%n) {callee = \"f\"} : (i32) -> i32 "
    "loc(\"r.py\":3:4)\n"
    "    \"func.return\"() : () -> () loc(\"r.py\":4:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"r.py\":1:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: i32):\n"
    "    %y = \"func.call\"(%x) {callee = \"g\"} : (i32) -> i32 "
    "loc(\"r.py\":11:4)\n"
    "    \"func.return\"(%y) : (i32) -> () loc(\"r.py\":12:4)\n"
    "  }) {sym_name = \"f\", kernel = 0 : i64, res_types = [i32]} : () -> () "
    "loc(\"r.py\":10:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: i32):\n"
    "    %y = \"func.call\"(%x) {callee = \"f\"} : (i32) -> i32 "
    "loc(\"r.py\":21:4)\n"
    "    \"func.return\"(%y) : (i32) -> () loc(\"r.py\":22:4)\n"
    "  }) {sym_name = \"g\", kernel = 0 : i64, res_types = [i32]} : () -> () "
    "loc(\"r.py\":20:0)\n"
    "}\n";

static const char EARLY_RETURN[] =
    "module @e {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%n: i32):\n"
    "    %a = \"func.call\"(%n) {callee = \"f\"} : (i32) -> i32 "
    "loc(\"e.py\":3:4)\n"
    "    \"func.return\"() : () -> () loc(\"e.py\":4:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"e.py\":1:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: i32):\n"
    "    \"scf.if\"(%x) ({\n"
    "      \"func.return\"(%x) : (i32) -> () loc(\"e.py\":12:8)\n"
    "      \"scf.yield\"() : () -> () loc(\"e.py\":11:4)\n"
    "    }, {\n"
    "      \"scf.yield\"() : () -> () loc(\"e.py\":11:4)\n"
    "    }) : (i32) -> () loc(\"e.py\":11:4)\n"
    "    \"func.return\"(%x) : (i32) -> () loc(\"e.py\":13:4)\n"
    "  }) {sym_name = \"f\", kernel = 0 : i64, res_types = [i32]} : () -> () "
    "loc(\"e.py\":10:0)\n"
    "}\n";

static const char IN_PLACE_PARAM[] =
    "module @ip {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%n: i32):\n"
    "    %pipe = \"asc.tpipe\"() : () -> !asc.tpipe loc(\"ip.py\":2:4)\n"
    "    %tmp = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC> loc(\"ip.py\":3:4)\n"
    "    %c256 = \"arith.constant\"() {value = 256 : i32} : () -> i32 "
    "loc(\"ip.py\":4:4)\n"
    "    \"asc.tpipe.init_buffer_buf\"(%pipe, %tmp, %c256) : (!asc.tpipe, "
    "!asc.tbuf<VECCALC>, i32) -> () loc(\"ip.py\":4:4)\n"
    "    %t = \"asc.tbuf.get\"(%tmp) : (!asc.tbuf<VECCALC>) -> "
    "!asc.local_tensor<f32, VECCALC> loc(\"ip.py\":5:4)\n"
    "    \"func.call\"(%t, %n) {callee = \"shrink\"} : (!asc.local_tensor<f32, "
    "VECCALC>, i32) -> () loc(\"ip.py\":6:4)\n"
    "    \"func.return\"() : () -> () loc(\"ip.py\":7:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"ip.py\":1:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%lt: !asc.local_tensor<f32, VECCALC>, %len: i32):\n"
    "    \"asc.local_tensor.set_size\"(%lt, %len) : (!asc.local_tensor<f32, "
    "VECCALC>, i32) -> () loc(\"ip.py\":12:4)\n"
    "    \"func.return\"() : () -> () loc(\"ip.py\":13:4)\n"
    "  }) {sym_name = \"shrink\", kernel = 0 : i64, res_types = []} : () -> () "
    "loc(\"ip.py\":10:0)\n"
    "}\n";

static const char RETURNED_PARAM[] =
    "module @rp {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%n: i32):\n"
    "    %pipe = \"asc.tpipe\"() : () -> !asc.tpipe loc(\"rp.py\":2:4)\n"
    "    %tmp = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC> loc(\"rp.py\":3:4)\n"
    "    %c256 = \"arith.constant\"() {value = 256 : i32} : () -> i32 "
    "loc(\"rp.py\":4:4)\n"
    "    \"asc.tpipe.init_buffer_buf\"(%pipe, %tmp, %c256) : (!asc.tpipe, "
    "!asc.tbuf<VECCALC>, i32) -> () loc(\"rp.py\":4:4)\n"
    "    %t = \"asc.tbuf.get\"(%tmp) : (!asc.tbuf<VECCALC>) -> "
    "!asc.local_tensor<f32, VECCALC> loc(\"rp.py\":5:4)\n"
    "    %r = \"func.call\"(%t) {callee = \"same\"} : (!asc.local_tensor<f32, "
    "VECCALC>) -> !asc.local_tensor<f32, VECCALC> loc(\"rp.py\":6:4)\n"
    "    \"asc.local_tensor.set_size\"(%r, %n) : (!asc.local_tensor<f32, "
    "VECCALC>, i32) -> () loc(\"rp.py\":7:4)\n"
    "    \"func.return\"() : () -> () loc(\"rp.py\":8:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"rp.py\":1:0)\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%lt: !asc.local_tensor<f32, VECCALC>):\n"
    "    \"func.return\"(%lt) : (!asc.local_tensor<f32, VECCALC>) -> () "
    "loc(\"rp.py\":13:4)\n"
    "  }) {sym_name = \"same\", kernel = 0 : i64, res_types = "
    "[!asc.local_tensor<f32, VECCALC>]} : () -> () loc(\"rp.py\":10:0)\n"
    "}\n";

static int count_of(const char *hay, const char *needle) {
  int n = 0;
  for (const char *s = hay; s && (s = strstr(s, needle)); s++)
    n++;
  return n;
}

static AscModule *parse_ok(AscContext *ctx, const char *text) {
  AscModule *m = asc_module_parse(ctx, text, "t.ascir");
  if (!m)
    printf("  parse error: %d:%d: %s\n", asc_context_error_loc(ctx).line,
           asc_context_error_loc(ctx).col, asc_context_message(ctx));
  CHECK(m != NULL);
  return m;
}

static int n_functions(const AscModule *m) {
  int n = 0;
  for (const AscOp *f = m->body->first; f; f = f->next)
    n += f->id == ASC_OP_FUNC;
  return n;
}

/* The n-th op of `id` in block (not in its regions), or NULL. */
static AscOp *nth_op(AscBlock *b, AscOpId id, int n) {
  for (AscOp *op = b->first; op; op = op->next)
    if (op->id == id && n-- == 0)
      return op;
  return NULL;
}

static void test_inline_main(void) {
  AscContext *ctx = asc_context_new();
  AscModule *m = parse_ok(ctx, MAIN);
  if (!m) {
    asc_context_free(ctx);
    return;
  }
  CHECK_EQ(asc_module_verify(m), ASC_OK);
  CHECK_EQ(asc_run_pass(m, "inline"), ASC_OK);
  CHECK_EQ(asc_module_verify(m), ASC_OK);
  /* only the kernel is left, without calls */
  CHECK_EQ(n_functions(m), 1);
  AscOp *k = m->body->first;
  CHECK_STREQ(asc_op_attr_str(k, "sym_name"), "k");
  char *text = asc_module_print(m);
  CHECK_LACKS(text, "func.call");
  CHECK_LACKS(text, "sym_name = \"work\"");
  CHECK_LACKS(text, "sym_name = \"leaf\"");
  /* work twice; leaf twice in each copy of work (in the if, through mid) */
  CHECK_EQ(count_of(text, "\"scf.for\""), 2);
  CHECK_EQ(count_of(text, "\"scf.if\""), 2);
  CHECK_EQ(count_of(text, "\"arith.mul\""), 4);
  CHECK_EQ(count_of(text, "\"asc.data_copy.gm_to_local\""), 2);

  AscBlock *kb = k->regions[0].block;
  AscValue *x_gm = &nth_op(kb, ASC_OP_GT_CREATE, 0)->results[0];
  AscValue *t = &nth_op(kb, ASC_OP_TBUF_GET, 0)->results[0];
  AscValue *n = &kb->args[1];
  AscOp *copy0 = nth_op(kb, ASC_OP_COPY_GM_TO_LOCAL, 0);
  AscOp *copy1 = nth_op(kb, ASC_OP_COPY_GM_TO_LOCAL, 1);
  AscOp *for0 = nth_op(kb, ASC_OP_FOR, 0), *for1 = nth_op(kb, ASC_OP_FOR, 1);
  AscOp *mul0 = nth_op(kb, ASC_OP_MUL_S, 0),
        *mul1 = nth_op(kb, ASC_OP_MUL_S, 1);
  AscOp *sum = nth_op(kb, ASC_OP_ADD_S, 0);
  CHECK(copy0 && copy1 && for0 && for1 && mul0 && mul1 && sum);
  if (!(copy0 && copy1 && for0 && for1 && mul0 && mul1 && sum)) {
    free(text);
    asc_context_free(ctx);
    return;
  }
  /* the parameters stand for the call's operands: the tensors are the
   * kernel's own values, the scalars the call's arguments */
  CHECK(copy0->operands[0] == t && copy0->operands[1] == x_gm);
  CHECK(copy0->operands[2] == n);
  CHECK(copy1->operands[0] == t && copy1->operands[1] == x_gm);
  CHECK(for0->operands[1] == n);
  CHECK_EQ(for0->operands[3]->def->id, ASC_OP_CONSTANT);
  /* the results of the first call (mid's leaf, the loop) feed the second */
  CHECK(mul0->operands[0] == &for0->results[0] && mul0->operands[1] == n);
  CHECK(copy1->operands[2] == &mul0->results[0]);
  CHECK(for1->operands[1] == &mul0->results[0]);
  CHECK(for1->operands[3] == &for0->results[0]);
  CHECK(mul1->operands[0] == &for1->results[0]);
  CHECK(mul1->operands[1] == &mul0->results[0]);
  /* ... and of the second call the kernel's add */
  CHECK(sum->operands[0] == &mul1->results[0]);
  CHECK(sum->operands[1] == &for1->results[0]);
  /* two independent copies: each loop uses its own block arguments */
  for (int c = 0; c < 2; c++) {
    AscOp *f = c ? for1 : for0;
    AscBlock *body = f->regions[0].block;
    CHECK_EQ(body->n_args, 2);
    AscOp *rem = nth_op(body, ASC_OP_REM_S, 0);
    AscOp *iff = nth_op(body, ASC_OP_IF, 0);
    CHECK(rem && iff);
    if (!rem || !iff)
      continue;
    CHECK(rem->operands[0] == &body->args[0]);
    CHECK(rem->operands[1] == (c ? &for0->results[0] : for0->operands[3]));
    AscOp *leaf = nth_op(iff->regions[0].block, ASC_OP_MUL_S, 0);
    CHECK(leaf != NULL);
    if (leaf) {
      CHECK(leaf->operands[0] == &body->args[1]);
      CHECK(leaf->operands[1] == &body->args[0]);
      /* the device function's own line, and its names */
      CHECK_STREQ(leaf->loc.file, "d.py");
      CHECK_EQ(leaf->loc.line, 41);
      CHECK_STREQ(leaf->results[0].name, "prod");
    }
    CHECK(iff->regions[1].block->last->operands[0] == &body->args[1]);
    CHECK_STREQ(body->args[1].name, "acc_in");
    CHECK_STREQ(f->results[0].name, "acc");
    CHECK_EQ(f->loc.line, 22);
  }
  CHECK(for0->regions[0].block != for1->regions[0].block);
  CHECK_STREQ(copy0->loc.file, "d.py");
  CHECK_EQ(copy0->loc.line, 21);
  /* the kernel's own ops keep their locations */
  CHECK_STREQ(sum->loc.file, "k.py");
  CHECK_EQ(sum->loc.line, 10);

  /* the inlined module prints, parses and prints the same */
  AscContext *c2 = asc_context_new();
  AscModule *m2 = parse_ok(c2, text);
  if (m2) {
    CHECK_EQ(asc_module_verify(m2), ASC_OK);
    char *again = asc_module_print(m2);
    CHECK_STREQ(again, text);
    /* a second run has nothing to do */
    CHECK_EQ(asc_run_pass(m2, "inline"), ASC_OK);
    char *third = asc_module_print(m2);
    CHECK_STREQ(third, text);
    free(again);
    free(third);
  }
  asc_context_free(c2);
  free(text);
  asc_context_free(ctx);
}

/* A refused call: the pass fails at `line` of `file` with a message that
 * contains `what`, and the module is what it was. */
static void check_refused(const char *text, const char *file, int line,
                          const char *what) {
  AscContext *ctx = asc_context_new();
  AscModule *m = parse_ok(ctx, text);
  if (!m) {
    asc_context_free(ctx);
    return;
  }
  CHECK_EQ(asc_module_verify(m), ASC_OK);
  char *before = asc_module_print(m);
  CHECK_EQ(asc_run_pass(m, "inline"), ASC_ERR_COMPILE);
  CHECK_STREQ(asc_context_error_loc(ctx).file, file);
  CHECK_EQ(asc_context_error_loc(ctx).line, line);
  CHECK_HAS(asc_context_message(ctx), what);
  asc_context_clear_error(ctx);
  CHECK_EQ(asc_module_verify(m), ASC_OK);
  char *after = asc_module_print(m);
  CHECK_STREQ(after, before);
  free(before);
  free(after);
  asc_context_free(ctx);
}

/* Replaces the first `from` in text by `to` (malloc'ed). */
static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  size_t n = strlen(text) + strlen(to) + 1;
  char *out = malloc(n);
  if (!out || !at) {
    free(out);
    return NULL;
  }
  size_t k = (size_t)(at - text);
  memcpy(out, text, k);
  strcpy(out + k, to);
  strcat(out, at + strlen(from));
  return out;
}

static void test_refused(void) {
  /* k -> f -> g -> f: at the call closing the cycle */
  check_refused(RECURSIVE, "r.py", 21, "recursive call of 'f' (f -> g -> f)");
  /* f calling itself */
  char *self = replaced(RECURSIVE, "{callee = \"g\"}", "{callee = \"f\"}");
  CHECK(self != NULL);
  if (self)
    check_refused(self, "r.py", 11, "recursive call of 'f' (f -> f)");
  free(self);
  check_refused(EARLY_RETURN, "e.py", 3, "returns before the end of its body");
  check_refused(IN_PLACE_PARAM, "ip.py", 6,
                "changes its parameter `lt` in place "
                "(asc.local_tensor.set_size at line 12)");
  check_refused(RETURNED_PARAM, "rp.py", 6, "returns one of its parameters");
}

/* A returned parameter that nobody changes in place is inlined: the
 * result is the argument itself. */
static void test_returned_param(void) {
  const char *set =
      "    \"asc.local_tensor.set_size\"(%r, %n) : (!asc.local_tensor<f32, "
      "VECCALC>, i32) -> () loc(\"rp.py\":7:4)\n";
  char *text = replaced(RETURNED_PARAM, set,
                        "    %len = \"asc.local_tensor.get_length\"(%r) : "
                        "(!asc.local_tensor<f32, VECCALC>) -> i32 "
                        "loc(\"rp.py\":7:4)\n");
  CHECK(text != NULL);
  if (!text)
    return;
  AscContext *ctx = asc_context_new();
  AscModule *m = parse_ok(ctx, text);
  if (m) {
    CHECK_EQ(asc_module_verify(m), ASC_OK);
    CHECK_EQ(asc_run_pass(m, "inline"), ASC_OK);
    CHECK_EQ(asc_module_verify(m), ASC_OK);
    AscBlock *kb = m->body->first->regions[0].block;
    AscOp *get = nth_op(kb, ASC_OP_TBUF_GET, 0);
    AscOp *len = nth_op(kb, ASC_OP_LT_GET_LENGTH, 0);
    CHECK(get && len && len->operands[0] == &get->results[0]);
    CHECK_EQ(n_functions(m), 1);
  }
  free(text);
  asc_context_free(ctx);
}

/* A module without kernels: every call inlined, every function kept. */
static void test_no_kernel(void) {
  char *text =
      replaced(RECURSIVE, "{callee = \"f\"} : (i32) -> i32 loc(\"r.py\":21:4)",
               "{callee = \"h\"} : (i32) -> i32 loc(\"r.py\":21:4)");
  char *lib = text ? replaced(text, "kernel = 1", "kernel = 0") : NULL;
  free(text);
  CHECK(lib != NULL);
  if (!lib)
    return;
  /* h: a leaf */
  char *full = replaced(
      lib, "\n}\n",
      "\n  \"func.func\"() ({\n  ^bb0(%v: i32):\n"
      "    %w = \"arith.add\"(%v, %v) : (i32, i32) -> i32 loc(\"r.py\":31:4)\n"
      "    \"func.return\"(%w) : (i32) -> () loc(\"r.py\":32:4)\n"
      "  }) {sym_name = \"h\", kernel = 0 : i64, res_types = [i32]} : () -> "
      "() loc(\"r.py\":30:0)\n}\n");
  free(lib);
  CHECK(full != NULL);
  if (!full)
    return;
  AscContext *ctx = asc_context_new();
  AscModule *m = parse_ok(ctx, full);
  if (m) {
    CHECK_EQ(asc_module_verify(m), ASC_OK);
    CHECK_EQ(asc_run_pass(m, "inline"), ASC_OK);
    CHECK_EQ(asc_module_verify(m), ASC_OK);
    CHECK_EQ(n_functions(m), 4);
    char *out = asc_module_print(m);
    CHECK_LACKS(out, "func.call");
    CHECK_EQ(count_of(out, "\"arith.add\""), 4); /* h itself, g, f, k */
    free(out);
  }
  free(full);
  asc_context_free(ctx);
}

/* A chain of calls as long as many functions (the walk's stack is its
 * own, not the C stack's), and a bad option, an unknown callee. */
static void test_chain_and_errors(void) {
  enum { N = 3000 };
  size_t cap = (size_t)N * 400 + 4096, len = 0;
  char *text = malloc(cap);
  CHECK(text != NULL);
  if (!text)
    return;
  len += (size_t)snprintf(text + len, cap - len, "module @chain {\n");
  for (int i = 0; i < N; i++) {
    len += (size_t)snprintf(
        text + len, cap - len,
        "  \"func.func\"() ({\n  ^bb0(%%a: i32):\n"
        "    %%b = \"arith.add\"(%%a, %%a) : (i32, i32) -> i32 "
        "loc(\"c.py\":%d:4)\n",
        i + 1);
    if (i + 1 < N)
      len += (size_t)snprintf(
          text + len, cap - len,
          "    %%c = \"func.call\"(%%b) {callee = \"f%d\"} : (i32) -> i32 "
          "loc(\"c.py\":%d:8)\n    \"func.return\"(%%c) : (i32) -> ()"
          " loc(\"c.py\":%d:4)\n",
          i + 1, i + 1, i + 1);
    else
      len += (size_t)snprintf(text + len, cap - len,
                              "    \"func.return\"(%%b) : (i32) -> () "
                              "loc(\"c.py\":%d:4)\n",
                              i + 1);
    len += (size_t)snprintf(text + len, cap - len,
                            "  }) {sym_name = \"f%d\", kernel = %d : i64, "
                            "res_types = [i32]} : () -> () loc(\"c.py\":1:0)\n",
                            i, i == 0);
  }
  snprintf(text + len, cap - len, "}\n");
  AscContext *ctx = asc_context_new();
  AscModule *m = parse_ok(ctx, text);
  if (m) {
    CHECK_EQ(asc_run_pass(m, "inline"), ASC_OK);
    CHECK_EQ(n_functions(m), 1);
    int adds = 0;
    for (AscOp *op = m->body->first->regions[0].block->first; op; op = op->next)
      adds += op->id == ASC_OP_ADD_S;
    CHECK_EQ(adds, N);
    CHECK_EQ(asc_module_verify(m), ASC_OK);
  }
  asc_context_free(ctx);
  free(text);

  ctx = asc_context_new();
  m = parse_ok(ctx, MAIN);
  if (m) {
    CHECK_EQ(asc_run_pass(m, "inline{all}"), ASC_ERR_COMPILE);
    CHECK_HAS(asc_context_message(ctx), "takes no options");
  }
  asc_context_free(ctx);
  char *unknown = replaced(MAIN, "{callee = \"mid\"}", "{callee = \"nope\"}");
  ctx = asc_context_new();
  m = unknown ? parse_ok(ctx, unknown) : NULL;
  if (m) {
    CHECK_EQ(asc_run_pass(m, "inline"), ASC_ERR_COMPILE);
    CHECK_HAS(asc_context_message(ctx), "unknown callee 'nope'");
    CHECK_EQ(asc_context_error_loc(ctx).line, 27);
  }
  asc_context_free(ctx);
  free(unknown);
}

int main(void) {
  test_inline_main();
  test_refused();
  test_returned_param();
  test_no_kernel();
  test_chain_and_errors();
  printf("test_inline: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
