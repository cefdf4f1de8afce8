/* Unit test of the IR text parser (src/ir/parser.c) and the passes
 * (src/passes/): print → parse → print identity on hand-built and printed
 * modules, every parser error with its line and column, a mutation fuzz
 * loop (every input must give a module or an error, never a crash), and
 * the canonicalize / dce passes, whose folded constants are checked
 * against the simulator running the unfolded kernel.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"

#include "check.h"

static int count_of(const char *hay, const char *needle) {
  int n = 0;
  for (const char *s = hay; s && (s = strstr(s, needle)); s++)
    n++;
  return n;
}

/* ---- helpers --------------------------------------------------------------
 */

/* Parses text, returns the printed module (malloc'ed) or NULL. */
static char *reprint(const char *text) {
  AscContext *ctx = asc_context_new();
  AscModule *m = asc_module_parse(ctx, text, "t.ascir");
  char *out = m ? asc_module_print(m) : NULL;
  if (!m)
    printf("  parse error: %d:%d: %s\n", asc_context_error_loc(ctx).line,
           asc_context_error_loc(ctx).col, asc_context_message(ctx));
  asc_context_free(ctx);
  return out;
}

/* text must be printer output: parse → print gives it back byte for byte. */
#define CHECK_IDENTITY(text)                                                   \
  do {                                                                         \
    char *p1_ = reprint(text);                                                 \
    report(p1_ && strcmp(p1_, (text)) == 0, __FILE__, __LINE__,                \
           "round trip differs:\n--- in\n%s--- out\n%s", (text),               \
           p1_ ? p1_ : "(parse failed)\n");                                    \
    free(p1_);                                                                 \
  } while (0)

static AscLoc L(int line) {
  AscLoc l = {"k.py", line, 5};
  return l;
}

static AscAttr attr_int(const char *name, int64_t v, const AscType *t) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_INT;
  a.i = v;
  a.type = t;
  return a;
}

static AscAttr attr_float(const char *name, double v, const AscType *t) {
  AscAttr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.kind = ASC_ATTR_FLOAT;
  a.f = v;
  a.type = t;
  return a;
}

static AscOp *op0(AscContext *c, AscBlock *b, AscOpId id, AscLoc loc,
                  AscValue *const *ops, int n, const AscType *rt,
                  const AscAttr *attrs, int n_attrs) {
  AscOp *op = asc_op_create(c, id, loc, ops, n, rt ? &rt : NULL, rt ? 1 : 0,
                            attrs, n_attrs, 0, NULL, NULL);
  asc_block_append(b, op);
  return op;
}

/* ---- round trip of a hand-built module ------------------------------------
 * Exercises every type, every attribute kind, tricky names (numbered names
 * the counter must reproduce, user names that look like numbers, name
 * clashes), regions with and without arguments, multiple results, ops with
 * and without locations and several functions. The module need not verify:
 * the text form covers more than valid IR. */

/* The printed hand-built module, kept as a fuzz sample. */
static char *hand_built_text;

static void test_hand_built(void) {
  AscContext *c = asc_context_new();
  AscModule *m = asc_module_new(c, "hand_built");
  const AscType *i32 = asc_type_scalar(c, ASC_DT_INT32);
  const AscType *f32 = asc_type_scalar(c, ASC_DT_FLOAT32);
  const AscType *i1 = asc_type_scalar(c, ASC_DT_BOOL);
  const AscType *idx = asc_type_scalar(c, ASC_DT_INDEX);
  const AscType *ga =
      asc_type_get(c, ASC_TY_GLOBAL_ADDRESS, ASC_DT_FLOAT16, -1, 0);
  const AscType *gt =
      asc_type_get(c, ASC_TY_GLOBAL_TENSOR, ASC_DT_BFLOAT16, -1, 0);
  const AscType *lt = asc_type_get(c, ASC_TY_LOCAL_TENSOR, ASC_DT_UINT8,
                                   ASC_TPOSITION_VECCALC, 0);
  const AscType *pipe = asc_type_get(c, ASC_TY_TPIPE, ASC_DT_NONE, -1, 0);
  const AscType *que =
      asc_type_get(c, ASC_TY_TQUE, ASC_DT_NONE, ASC_TPOSITION_VECOUT, 4);
  const AscType *buf =
      asc_type_get(c, ASC_TY_TBUF, ASC_DT_NONE, ASC_TPOSITION_A1, 0);
  const AscType *args[] = {i32, i32, ga, gt, lt, pipe, que, buf, idx};
  AscOp *f = asc_module_add_function(m, "k", L(1), args, 9, NULL, 0, 1);
  AscBlock *b = f->regions[0].block;
  b->args[1].name = "arg0"; /* clashes with the counter's first name */
  b->args[2].name = "x";
  b->args[3].name = "x"; /* printed x_1 */
  b->args[4].name = "";  /* empty: numbered */
  b->args[5].name = "a.b$c-d";
  /* all dtypes as constants, numbered and named */
  const AscDType dts[] = {ASC_DT_BOOL,    ASC_DT_INT8,     ASC_DT_INT16,
                          ASC_DT_INT32,   ASC_DT_INT64,    ASC_DT_UINT8,
                          ASC_DT_UINT16,  ASC_DT_UINT32,   ASC_DT_UINT64,
                          ASC_DT_FLOAT16, ASC_DT_BFLOAT16, ASC_DT_FLOAT32,
                          ASC_DT_FLOAT64, ASC_DT_INDEX};
  for (int i = 0; i < (int)(sizeof dts / sizeof dts[0]); i++) {
    const AscType *t = asc_type_scalar(c, dts[i]);
    AscAttr a = asc_dtype_is_float(dts[i]) ? attr_float("value", 1.5, t)
                                           : attr_int("value", i - 3, t);
    AscOp *k = op0(c, b, ASC_OP_CONSTANT, L(2), NULL, 0, t, &a, 1);
    if (i == 3)
      k->results[0].name = "5"; /* a user name that looks like a number */
    if (i == 5)
      k->results[0].name = "x_1"; /* clashes with a made-unique name */
    if (i == 6)
      k->results[0].name = "x";
  }
  /* attribute kinds: ints, floats, strings, types, enums, type lists */
  const AscType *tl[] = {i32, lt, que};
  AscAttr attrs[] = {
      attr_int("i_untyped", 42, NULL),
      attr_int("i_min", INT64_MIN, asc_type_scalar(c, ASC_DT_INT64)),
      attr_int("i_u64max", -1, asc_type_scalar(c, ASC_DT_UINT64)),
      attr_int("i_i8", -128, asc_type_scalar(c, ASC_DT_INT8)),
      attr_float("f_untyped", 0.1, NULL),
      attr_float("f_f32", (float)0.1, f32),
      attr_float("f_one", 1.0, f32),
      attr_float("f_negzero", -0.0, f32),
      attr_float("f_inf", INFINITY, f32),
      attr_float("f_ninf", -INFINITY, f32),
      attr_float("f_nan", NAN, f32),
      attr_float("f_big", 1e300, NULL),
      attr_float("f_denorm", 5e-324, NULL),
      attr_float("f_int_typed", 2.5, i32),
  };
  int na = (int)(sizeof attrs / sizeof attrs[0]);
  AscAttr more[8];
  memset(more, 0, sizeof more);
  more[0].name = "s";
  more[0].kind = ASC_ATTR_STR;
  more[0].s = "quote\" backslash\\ tab\t nl\n ctl\x01 utf8 \xc3\xa9";
  more[1].name = "s_empty";
  more[1].kind = ASC_ATTR_STR;
  more[1].s = "";
  more[2].name = "ty";
  more[2].kind = ASC_ATTR_TYPE;
  more[2].type = buf;
  more[3].name = "ty_scalar";
  more[3].kind = ASC_ATTR_TYPE;
  more[3].type = asc_type_scalar(c, ASC_DT_BFLOAT16);
  more[4].name = "en";
  more[4].kind = ASC_ATTR_ENUM;
  more[4].enum_kind = ASC_ENUM_HARDEVENT;
  more[4].i = ASC_HARDEVENT_FIX_FIX;
  more[5].name = "en2";
  more[5].kind = ASC_ATTR_ENUM;
  more[5].enum_kind = ASC_ENUM_PIPEID;
  more[5].i = ASC_PIPEID_PIPE_FIX;
  more[6].name = "types";
  more[6].kind = ASC_ATTR_TYPES;
  more[6].types = tl;
  more[6].n_types = 3;
  more[7].name = "types_empty";
  more[7].kind = ASC_ATTR_TYPES;
  AscAttr all[32];
  memcpy(all, attrs, sizeof attrs);
  memcpy(all + na, more, sizeof more);
  AscLoc weird = {"dir \"q\"\\sub/\xc3\xa9.py", 7, 0};
  AscValue *ops2[] = {&b->args[0], &b->args[1]};
  op0(c, b, ASC_OP_ADD, weird, ops2, 2, NULL, all, na + 8);
  /* an op without a location, with two results */
  const AscType *two[] = {i32, f32};
  AscOp *multi = asc_op_create(c, ASC_OP_CALL, (AscLoc){0}, ops2, 2, two, 2,
                               NULL, 0, 0, NULL, NULL);
  asc_block_append(b, multi);
  multi->results[1].name = "y";
  /* scf.for with an iter arg, nested scf.if with two regions and results */
  const AscType *for_args[] = {i32, f32};
  const AscType *const *rtypes[] = {for_args};
  int rn[] = {2};
  AscValue *for_ops[] = {&b->args[0], &b->args[1], &b->args[0],
                         &multi->results[1]};
  AscOp *loop = asc_op_create(c, ASC_OP_FOR, L(10), for_ops, 4, &f32, 1, NULL,
                              0, 1, rtypes, rn);
  asc_block_append(b, loop);
  loop->results[0].name = "acc";
  AscBlock *lb = loop->regions[0].block;
  lb->args[0].name = "i";
  AscValue *cond_ops[] = {&lb->args[0]};
  AscOp *iff = asc_op_create(c, ASC_OP_IF, L(11), cond_ops, 1, &f32, 1, NULL, 0,
                             2, NULL, NULL);
  asc_block_append(lb, iff);
  AscValue *y1[] = {&lb->args[1]};
  op0(c, iff->regions[0].block, ASC_OP_YIELD, L(12), y1, 1, NULL, NULL, 0);
  AscAttr fa = attr_float("value", 2.0, f32);
  AscOp *two_c = op0(c, iff->regions[1].block, ASC_OP_CONSTANT, L(13), NULL, 0,
                     f32, &fa, 1);
  AscValue *y2[] = {&two_c->results[0]};
  op0(c, iff->regions[1].block, ASC_OP_YIELD, L(14), y2, 1, NULL, NULL, 0);
  AscValue *y3[] = {&iff->results[0]};
  op0(c, lb, ASC_OP_YIELD, L(15), y3, 1, NULL, NULL, 0);
  /* scf.while: before region with args, after region with args */
  const AscType *w_args[] = {i32};
  const AscType *const *wtypes[] = {w_args, w_args};
  int wn[] = {1, 1};
  AscValue *w_ops[] = {&b->args[0]};
  AscOp *wh = asc_op_create(c, ASC_OP_WHILE, L(20), w_ops, 1, &i32, 1, NULL, 0,
                            2, wtypes, wn);
  asc_block_append(b, wh);
  AscBlock *before = wh->regions[0].block, *after = wh->regions[1].block;
  AscValue *cmp_ops[] = {&before->args[0], &b->args[1]};
  AscAttr pred;
  memset(&pred, 0, sizeof pred);
  pred.name = "predicate";
  pred.kind = ASC_ATTR_ENUM;
  pred.enum_kind = ASC_ENUM_CMPPRED;
  pred.i = ASC_CMPPRED_LT;
  AscOp *cmp = op0(c, before, ASC_OP_CMP_S, L(21), cmp_ops, 2, i1, &pred, 1);
  AscValue *cond_args[] = {&cmp->results[0], &before->args[0]};
  op0(c, before, ASC_OP_CONDITION, L(21), cond_args, 2, NULL, NULL, 0);
  after->args[0].name = "arg7"; /* a counter-like name out of sequence */
  AscValue *w_y[] = {&after->args[0]};
  op0(c, after, ASC_OP_YIELD, L(22), w_y, 1, NULL, NULL, 0);
  /* an empty region */
  asc_block_append(b, asc_op_create(c, ASC_OP_IF, L(23), cond_ops, 0, NULL, 0,
                                    NULL, 0, 2, NULL, NULL));
  op0(c, b, ASC_OP_RETURN, L(30), NULL, 0, NULL, NULL, 0);
  /* a second function: numbering restarts, names may repeat */
  const AscType *res[] = {i32};
  AscOp *g = asc_module_add_function(m, "device_fn", L(40), args, 2, res, 1, 0);
  AscBlock *gb = g->regions[0].block;
  gb->args[0].name = "x";
  AscAttr ia = attr_int("value", 7, i32);
  AscOp *seven = op0(c, gb, ASC_OP_CONSTANT, L(41), NULL, 0, i32, &ia, 1);
  AscValue *rv[] = {&seven->results[0]};
  op0(c, gb, ASC_OP_RETURN, L(42), rv, 1, NULL, NULL, 0);
  /* a function without arguments */
  asc_module_add_function(m, "empty", L(50), NULL, 0, NULL, 0, 0);

  char *text = asc_module_print(m);
  CHECK(text != NULL);
  if (text) {
    CHECK_HAS(text, "^bb0(%arg0: i32, %arg0_1: i32, %x: ");
    CHECK_HAS(text, "%x_1: !asc.global_tensor<bf16>");
    CHECK_HAS(text, "%x_1_1 = ");
    CHECK_HAS(text, "%a.b$c-d: !asc.tpipe");
    CHECK_HAS(text, "%5 = \"arith.constant\"");
    CHECK_HAS(text, "f_nan = nan : f32");
    CHECK_HAS(text, "s = \"quote\\\" backslash\\\\ tab\\09 nl\\0A ctl\\01");
    CHECK_IDENTITY(text);
    hand_built_text = malloc(strlen(text) + 1);
    if (hand_built_text)
      strcpy(hand_built_text, text);
    /* names: numbered values come back unnamed, named ones keep names */
    AscContext *c2 = asc_context_new();
    AscModule *m2 = asc_module_parse(c2, text, "t.ascir");
    CHECK(m2 != NULL);
    if (m2) {
      AscOp *f2 = m2->body->first;
      AscBlock *b2 = f2->regions[0].block;
      CHECK(b2->args[0].name == NULL);
      CHECK_STREQ(b2->args[1].name, "arg0_1");
      CHECK_STREQ(b2->args[2].name, "x");
      CHECK_STREQ(b2->args[3].name, "x_1");
      CHECK(b2->args[4].name == NULL);
      CHECK_STREQ(b2->args[5].name, "a.b$c-d");
      CHECK_STREQ(m2->name, "hand_built");
      CHECK_STREQ(asc_op_attr_str(f2, "sym_name"), "k");
      /* attributes came back with their values */
      AscOp *add = NULL;
      for (AscOp *o = b2->first; o; o = o->next)
        if (o->id == ASC_OP_ADD)
          add = o;
      CHECK(add != NULL);
      if (add) {
        CHECK_STREQ(add->loc.file, weird.file);
        CHECK_EQ(add->loc.line, 7);
        CHECK_EQ(asc_op_attr_int(add, "i_min", 0), INT64_MIN);
        CHECK_EQ(asc_op_attr_int(add, "i_u64max", 0), -1);
        CHECK_STREQ(asc_op_attr_str(add, "s"), more[0].s);
        CHECK_STREQ(asc_op_attr_str(add, "s_empty"), "");
        const AscAttr *a = asc_op_attr(add, "f_f32");
        CHECK(a && a->kind == ASC_ATTR_FLOAT && a->f == (float)0.1);
        a = asc_op_attr(add, "f_negzero");
        CHECK(a && a->f == 0 && signbit(a->f));
        a = asc_op_attr(add, "f_nan");
        CHECK(a && a->f != a->f);
        a = asc_op_attr(add, "f_denorm");
        CHECK(a && a->f == 5e-324);
        a = asc_op_attr(add, "f_one");
        CHECK(a && a->kind == ASC_ATTR_FLOAT && a->f == 1.0);
        a = asc_op_attr(add, "en");
        CHECK(a && a->kind == ASC_ATTR_ENUM &&
              a->enum_kind == ASC_ENUM_HARDEVENT &&
              a->i == ASC_HARDEVENT_FIX_FIX);
        a = asc_op_attr(add, "types");
        CHECK(a && a->kind == ASC_ATTR_TYPES && a->n_types == 3 &&
              a->types[1]->kind == ASC_TY_LOCAL_TENSOR &&
              a->types[2]->depth == 4);
        a = asc_op_attr(add, "ty");
        CHECK(a && a->kind == ASC_ATTR_TYPE && a->type->kind == ASC_TY_TBUF &&
              a->type->position == ASC_TPOSITION_A1);
        CHECK(add->next && add->next->loc.file == NULL);
        CHECK(add->next && add->next->n_results == 2 &&
              add->next->results[0].name == NULL &&
              strcmp(add->next->results[1].name, "y") == 0);
      }
      CHECK(m2->body->first->next != NULL);
    }
    asc_context_free(c2);
  }
  free(text);
  asc_context_free(c);
}

/* ---- round trip of printed text ---------------------------------------------
 */

static const char *const VALID[] = {
    /* a kernel as the front end prints it */
    "module @add_kernel {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: !asc.global_address<f32>, %y: !asc.global_address<f32>, %z: "
    "!asc.global_address<f32>, %block_length: i32):\n"
    "    %0 = \"asc.get_block_idx\"() : () -> i64 loc(\"add.py\":26:12)\n"
    "    %1 = \"arith.cast\"(%block_length) : (i32) -> i64 "
    "loc(\"add.py\":26:12)\n"
    "    %start = \"arith.mul\"(%0, %1) : (i64, i64) -> i64 "
    "loc(\"add.py\":26:12)\n"
    "    %2 = \"asc.global_address.offset\"(%x, %start) : "
    "(!asc.global_address<f32>, i64) -> !asc.global_address<f32> "
    "loc(\"add.py\":30:27)\n"
    "    %x_gm = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
    "loc(\"add.py\":30:4)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%x_gm, %2, %block_length) : "
    "(!asc.global_tensor<f32>, !asc.global_address<f32>, i32) -> () "
    "loc(\"add.py\":30:4)\n"
    "    %pipe = \"asc.tpipe\"() : () -> !asc.tpipe loc(\"add.py\":34:11)\n"
    "    %q = \"asc.tque\"() : () -> !asc.tque<VECIN, 2> "
    "loc(\"add.py\":35:11)\n"
    "    %3 = \"arith.constant\"() {value = 2 : i32} : () -> i32 "
    "loc(\"add.py\":38:4)\n"
    "    %4 = \"arith.constant\"() {value = 512 : i32} : () -> i32 "
    "loc(\"add.py\":38:4)\n"
    "    \"asc.tpipe.init_buffer_que\"(%pipe, %q, %3, %4) : (!asc.tpipe, "
    "!asc.tque<VECIN, 2>, i32, i32) -> () loc(\"add.py\":38:4)\n"
    "    %5 = \"arith.constant\"() {value = 0 : i32} : () -> i32 "
    "loc(\"add.py\":42:13)\n"
    "    %6 = \"arith.constant\"() {value = 16 : i32} : () -> i32 "
    "loc(\"add.py\":42:13)\n"
    "    %7 = \"arith.constant\"() {value = 1 : i32} : () -> i32 "
    "loc(\"add.py\":42:13)\n"
    "    \"scf.for\"(%5, %6, %7) ({\n"
    "    ^bb0(%i: i32):\n"
    "      %x_ub = \"asc.tque.alloc_tensor\"(%q) : (!asc.tque<VECIN, 2>) -> "
    "!asc.local_tensor<f32, VECIN> loc(\"add.py\":51:11)\n"
    "      %8 = \"asc.global_tensor.offset\"(%x_gm, %i) : "
    "(!asc.global_tensor<f32>, i32) -> !asc.global_tensor<f32> "
    "loc(\"add.py\":53:24)\n"
    "      \"asc.data_copy.gm_to_local\"(%x_ub, %8, %4) : "
    "(!asc.local_tensor<f32, VECIN>, !asc.global_tensor<f32>, i32) -> () "
    "loc(\"add.py\":53:4)\n"
    "      \"asc.set_flag\"(%5) {event = #asc<HardEvent MTE2_V>} : (i32) -> () "
    "loc(\"add.py\":54:4)\n"
    "      \"asc.wait_flag\"(%5) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
    "() loc(\"add.py\":55:4)\n"
    "      \"asc.tque.enque\"(%q, %x_ub) : (!asc.tque<VECIN, 2>, "
    "!asc.local_tensor<f32, VECIN>) -> () loc(\"add.py\":56:4)\n"
    "      \"scf.yield\"() : () -> () loc(\"add.py\":42:4)\n"
    "    }) : (i32, i32, i32) -> () loc(\"add.py\":42:4)\n"
    "    \"func.return\"() : () -> () loc(\"add.py\":42:4)\n"
    "  }) {sym_name = \"add_kernel\", kernel = 1 : i64, res_types = []} : () "
    "-> () loc(\"add.py\":23:0)\n"
    "}\n",
    /* device function with results, scf.if with results, func.call */
    "module @m {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%arg0: i32, %arg1: f32):\n"
    "    %2 = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"
    "    %3 = \"arith.cmp\"(%arg0, %2) {predicate = #asc<CmpPredicate GT>} : "
    "(i32, i32) -> i1\n"
    "    %r = \"scf.if\"(%3) ({\n"
    "      \"scf.yield\"(%arg1) : (f32) -> ()\n"
    "    }, {\n"
    "      %4 = \"arith.neg\"(%arg1) : (f32) -> f32\n"
    "      \"scf.yield\"(%4) : (f32) -> ()\n"
    "    }) : (i1) -> f32\n"
    "    \"func.return\"(%r, %arg0) : (f32, i32) -> ()\n"
    "  }) {sym_name = \"absf\", kernel = 0 : i64, res_types = [f32, i32]} : "
    "() -> ()\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%v: f32, %w: i32):\n"
    "    %0, %1 = \"func.call\"(%w, %v) {callee = \"absf\"} : (i32, f32) -> "
    "(f32, i32)\n"
    "    \"func.return\"() : () -> ()\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> ()\n"
    "}\n",
};

static void test_printed_text(void) {
  AscContext *c;
  AscModule *m;
  for (int i = 0; i < (int)(sizeof VALID / sizeof VALID[0]); i++) {
    CHECK_IDENTITY(VALID[i]);
    c = asc_context_new();
    m = asc_module_parse(c, VALID[i], "t.ascir");
    CHECK(m != NULL);
    report(m && asc_module_verify(m) == ASC_OK, __FILE__, __LINE__,
           "VALID[%d] verifies: %s", i, asc_context_message(c));
    asc_context_free(c);
  }
  /* Unicode names (Python identifiers may be), an empty module name */
  const char *uni =
      "module @k\xc3\xa9 {\n"
      "  \"func.func\"() ({\n"
      "  ^bb0(%caf\xc3\xa9: i32, %\xce\xb1\xce\xb2: i32):\n"
      "    %\xe5\x90\x8d = \"arith.add\"(%caf\xc3\xa9, %\xce\xb1\xce\xb2) : "
      "(i32, i32) -> i32\n"
      "    \"func.return\"() : () -> ()\n"
      "  }) {sym_name = \"k\xc3\xa9\", kernel = 1 : i64, res_types = []} : () "
      "-> "
      "()\n"
      "}\n";
  CHECK_IDENTITY(uni);
  c = asc_context_new();
  m = asc_module_parse(c, uni, "u.ascir");
  CHECK(m && strcmp(m->name, "k\xc3\xa9") == 0 &&
        strcmp(m->body->first->regions[0].block->args[0].name, "caf\xc3\xa9") ==
            0);
  asc_context_free(c);
  CHECK_IDENTITY("module @ {\n}\n");
  /* comments, blank lines, CRLF, a byte order mark and loc(unknown) are
   * accepted; `^bb0():` and `^bb0:` headers too */
  const char *loose =
      "\xEF\xBB\xBF// a comment\r\n"
      "module {  // no name\r\n"
      "\r\n"
      "  \"func.func\"() ({\n"
      "  ^bb0:\n"
      "    \"scf.if\"(%c) ({ ^bb0(): \"scf.yield\"() : () -> () }, {\n"
      "      \"scf.yield\"() : () -> () }) : (i1) -> () loc(unknown)\n"
      "  }) {sym_name = \"k\", \"kernel\" = 1, res_types = [], f = 1.5, "
      "g = -inf, h = nan : f16} : () -> ()\n"
      "}  // trailing comment";
  m = NULL;
  c = asc_context_new();
  m = asc_module_parse(c, loose, "loose.ascir");
  CHECK(m == NULL); /* %c is undefined */
  CHECK_HAS(asc_context_message(c), "undefined value %c");
  CHECK_EQ(asc_context_error_loc(c).line, 6);
  CHECK_EQ(asc_context_error_loc(c).col, 14);
  asc_context_free(c);
  char fixed[1024];
  const char *at = strstr(loose, "^bb0:");
  snprintf(fixed, sizeof fixed, "%.*s^bb0(%%c: i1):%s", (int)(at - loose),
           loose, at + 5);
  c = asc_context_new();
  m = asc_module_parse(c, fixed, "loose.ascir");
  CHECK(m != NULL);
  if (m) {
    CHECK_STREQ(m->name, "module");
    AscOp *f = m->body->first;
    CHECK_EQ(asc_op_attr_int(f, "kernel", 0), 1);
    const AscAttr *g = asc_op_attr(f, "g");
    CHECK(g && g->kind == ASC_ATTR_FLOAT && isinf(g->f) && g->f < 0);
    const AscAttr *h = asc_op_attr(f, "h");
    CHECK(h && h->kind == ASC_ATTR_FLOAT && h->f != h->f &&
          h->type->dtype == ASC_DT_FLOAT16);
    AscOp *iff = f->regions[0].block->first;
    CHECK(iff && iff->id == ASC_OP_IF && iff->loc.file == NULL);
    char *out = asc_module_print(m);
    CHECK(out != NULL);
    if (out)
      CHECK_IDENTITY(out);
    free(out);
  }
  asc_context_free(c);
}

/* ---- errors
 * -------------------------------------------------------------------
 */

typedef struct ErrCase {
  const char *text;
  int line, col;
  const char *message;
} ErrCase;

#define FN_OPEN "module @m {\n  \"func.func\"() ({\n"
#define FN_CLOSE                                                               \
  "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> ()\n}\n"
#define RET "    \"func.return\"() : () -> ()\n"

static const ErrCase ERRORS[] = {
    {"", 1, 1, "expected 'module', found end of input"},
    {"modul @m {}", 1, 1, "expected 'module', found 'modul'"},
    {"module @m {} extra", 1, 14, "unexpected 'extra' after the module"},
    {"module @m {", 1, 12, "expected '}' to close the module"},
    {"module @m }", 1, 11, "expected '{' to open the module body"},
    {"module @m { $ }", 1, 13, "unexpected character '$'"},
    {"module @m { \x01 }", 1, 13, "unexpected byte 0x01"},
    {"module @m {\n  ^ ", 2, 3, "expected a name after '^'"},
    {"module @m {\n  % = \"x\"", 2, 3, "expected a name after '%'"},
    {"module @m {\n  !", 2, 3, "expected a name after '!'"},
    {"module @m {\n  \"abc", 2, 3, "unterminated string"},
    {"module @m {\n  \"a\nb\"", 2, 3, "unterminated string"},
    {"module @m {\n  \"a\\qb\"", 2, 5, "invalid escape sequence"},
    {"module @m {\n  - ", 2, 3, "unexpected '-'"},
    {"module @m {\n  \"asc.addd\"() : () -> ()\n}", 2, 3,
     "unknown op 'asc.addd'"},
    {"module @m {\n  \"arith.constant\"() {value = 1} : () -> i32\n}", 2, 3,
     "only func.func and asc.struct_def ops may appear at module level, not "
     "'arith.constant'"},
    {"module @m {\n  %a \"func.func\"", 2, 6,
     "expected '=' after the result names, found '\"func.func\"'"},
    {"module @m {\n  %a, = ", 2, 7, "expected a result name, found '='"},
    {"module @m {\n  = ", 2, 3, "expected an operation name string"},
    {FN_OPEN "    \"func.return\"(%nope) : () -> ()\n", 3, 19,
     "undefined value %nope"},
    {FN_OPEN "    \"func.return\"(1) : () -> ()\n", 3, 19,
     "expected an operand, found '1'"},
    {FN_OPEN "    \"func.return\"( : () -> ()\n", 3, 20,
     "expected an operand, found ':'"},
    {FN_OPEN "  ^bb0(%a: i32):\n    \"func.return\"(%a : () -> ()\n", 4, 22,
     "expected ')' after the operands, found ':'"},
    {FN_OPEN "  ^bb0(%a: i32, %a: i32):\n", 3, 17, "redefinition of value %a"},
    {FN_OPEN "  ^bb0(%a: i32):\n    %a = \"arith.constant\"", 4, 5,
     "redefinition of value %a"},
    {FN_OPEN "    %a, %a = \"func.call\"", 3, 9, "redefinition of value %a"},
    {FN_OPEN "  ^bb0(%a: i32):\n    \"func.return\"(%a) : (i64) -> ()\n", 4, 26,
     "operand type mismatch: %a has type i32, but the op type says i64"},
    {FN_OPEN "  ^bb0(%a: i32):\n    \"func.return\"(%a) : (i32, i32) -> ()\n",
     4, 31, "operand type mismatch: the type lists more than the 1 operand"},
    {FN_OPEN "  ^bb0(%a: i32):\n    \"func.return\"(%a) : () -> ()\n", 4, 26,
     "operand type mismatch: 'func.return' has 1 operand but its type lists "
     "0"},
    {FN_OPEN "    %a = \"func.call\"() : () -> ()\n", 3, 5,
     "'func.call' has 1 result name but 0 result types"},
    {FN_OPEN "    \"func.call\"() : () -> (i32, i32)\n", 3, 27,
     "'func.call' has 0 result names but 2 result types"},
    {FN_OPEN "    \"func.call\"() : () -> i33\n", 3, 27, "unknown type 'i33'"},
    {FN_OPEN "    \"func.call\"() : () -> float32\n", 3, 27,
     "unknown type 'float32'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.foo\n", 3, 27,
     "unknown type '!asc.foo'"},
    {FN_OPEN "    \"func.call\"() : () -> %x\n", 3, 27,
     "expected a type, found '%x'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.global_tensor<x>\n", 3, 46,
     "expected an element type, found 'x'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.global_tensor f32\n", 3, 46,
     "expected '<' after the type name, found 'f32'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.local_tensor<f32, VECINN>\n", 3,
     50, "'VECINN' is not a TPosition"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.local_tensor<f32 VECIN>\n", 3,
     49, "expected ',', found 'VECIN'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.tque<VECIN, -1>\n", 3, 44,
     "a queue depth -1 out of range"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.tque<VECIN, 2.5>\n", 3, 44,
     "expected an integer, found '2.5'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.tque<VECIN, x>\n", 3, 44,
     "expected a queue depth, found 'x'"},
    {FN_OPEN "    \"func.call\"() : () -> !asc.tbuf<VECIN\n", 4, 1,
     "expected '>' to close the type"},
    {FN_OPEN "    \"func.call\"() {a = 99999999999999999999} : () -> ()\n", 3,
     24, "integer 99999999999999999999 out of range"},
    {FN_OPEN "    \"func.call\"() {a = -99999999999999999999} : () -> ()\n", 3,
     24, "integer -99999999999999999999 out of range"},
    {FN_OPEN "    \"func.call\"() {a = 1"
             "0000000000000000000000000000000000000000000000000000000000000000"
             "0000000000000000000000000000000000000000000000000000000000000000"
             "} : () -> ()\n",
     3, 24, "number too long"},
    {FN_OPEN "    \"func.call\"() {a = 1 : !asc.tpipe} : () -> ()\n", 3, 28,
     "a number's type must be a scalar type"},
    {FN_OPEN "    \"func.call\"() {a = #foo<X Y>} : () -> ()\n", 3, 24,
     "unknown attribute dialect '#foo'"},
    {FN_OPEN "    \"func.call\"() {a = #asc<Bogus X>} : () -> ()\n", 3, 29,
     "unknown enum kind 'Bogus'"},
    {FN_OPEN "    \"func.call\"() {a = #asc<HardEvent MTE2_X>} : () -> ()\n", 3,
     39, "'MTE2_X' is not a HardEvent"},
    {FN_OPEN "    \"func.call\"() {a = #asc<HardEvent MTE2_V} : () -> ()\n", 3,
     45, "expected '>' to close the enum attribute"},
    {FN_OPEN "    \"func.call\"() {a = } : () -> ()\n", 3, 24,
     "expected an attribute value, found '}'"},
    {FN_OPEN "    \"func.call\"() {a = [i32 f32]} : () -> ()\n", 3, 29,
     "expected ']' after the type list, found 'f32'"},
    {FN_OPEN "    \"func.call\"() {a = 1, a = 2} : () -> ()\n", 3, 27,
     "duplicate attribute 'a'"},
    {FN_OPEN "    \"func.call\"() {1 = 2} : () -> ()\n", 3, 20,
     "expected an attribute name, found '1'"},
    {FN_OPEN "    \"func.call\"() {a 1} : () -> ()\n", 3, 22,
     "expected '=' after the attribute name, found '1'"},
    {FN_OPEN "    \"func.call\"() {a = 1 : () -> ()\n", 3, 28,
     "expected a type, found '('"},
    {FN_OPEN "    \"func.call\"() {a = 1 b = 2} : () -> ()\n", 3, 26,
     "expected '}' after the attributes, found 'b'"},
    {FN_OPEN "    \"func.call\"() -> ()\n", 3, 19,
     "expected ':' before the op's type, found '->'"},
    {FN_OPEN "    \"func.call\"() : -> ()\n", 3, 21,
     "expected '(' to open the operand types, found '->'"},
    {FN_OPEN "    \"func.call\"() : () ()\n", 3, 24,
     "expected '->' after the operand types, found '('"},
    {FN_OPEN "    \"func.call\"() : () -> () loc(x)\n", 3, 34,
     "expected a file name string, found 'x'"},
    {FN_OPEN "    \"func.call\"() : () -> () loc(\"f\" 1)\n", 3, 38,
     "expected ':' after the file name, found '1'"},
    {FN_OPEN "    \"func.call\"() : () -> () loc(\"f\":x:1)\n", 3, 38,
     "expected a line number, found 'x'"},
    {FN_OPEN "    \"func.call\"() : () -> () loc(\"f\":1:2\n", 4, 1,
     "expected ')' to close the location"},
    {FN_OPEN "    \"scf.if\"() ({\n    ^bb0(1): ", 4, 10,
     "expected a block argument, found '1'"},
    {FN_OPEN "    \"scf.if\"() ({\n    ^bb0(%a i32): ", 4, 13,
     "expected ':' after the block argument, found 'i32'"},
    {FN_OPEN "    \"scf.if\"() ({\n    ^bb0(%a: i32) ", 4, 19,
     "expected ':' after the block header"},
    {FN_OPEN "    \"scf.if\"() ({\n    ^bb0(%a: i32 ", 4, 18,
     "expected ')' after the block arguments"},
    {FN_OPEN
     "    \"scf.if\"() ({\n    ^bb0:\n      \"scf.yield\"() : () -> ()\n"
     "    ^bb1:\n    }) : () -> ()\n",
     6, 5, "only one block per region is supported"},
    {FN_OPEN "    \"scf.if\"() ({\n    \"scf.yield\"() : () -> ()\n", 5, 1,
     "expected '}' to close the region opened at 3:17"},
    {FN_OPEN "    \"scf.if\"() ({\n    }) ", 4, 8,
     "expected ':' before the op's type"},
    {FN_OPEN "    \"scf.if\"() ({\n    } : () -> ()", 4, 7,
     "expected ')' after the regions, found ':'"},
    /* a result is not visible inside its own op's regions */
    {FN_OPEN
     "    %r = \"scf.if\"() ({\n      \"scf.yield\"(%r) : (i32) -> ()\n",
     4, 19, "undefined value %r"},
    /* names are unique in a function, even across sibling regions */
    {FN_OPEN
     "    \"scf.if\"() ({\n      %v = \"arith.constant\"() : () -> i32\n"
     "    }, {\n      %v = \"arith.constant\"() : () -> i32\n",
     6, 7, "redefinition of value %v"},
    /* a value of a closed region is not visible after it */
    {FN_OPEN
     "    \"scf.if\"() ({\n      %v = \"arith.constant\"() : () -> i32\n"
     "    }) : () -> ()\n    \"func.return\"(%v) : (i32) -> ()\n",
     6, 19, "undefined value %v"},
};

static void test_errors(void) {
  for (int i = 0; i < (int)(sizeof ERRORS / sizeof ERRORS[0]); i++) {
    const ErrCase *e = &ERRORS[i];
    AscContext *c = asc_context_new();
    AscModule *m = asc_module_parse(c, e->text, "bad.ascir");
    AscLoc l = asc_context_error_loc(c);
    const char *msg = asc_context_message(c);
    report(m == NULL && asc_context_status(c) == ASC_ERR_COMPILE &&
               strstr(msg, e->message) != NULL && l.file &&
               strcmp(l.file, "bad.ascir") == 0 && l.line == e->line &&
               (e->col == 0 || l.col == e->col),
           __FILE__, __LINE__,
           "error case %d: got %s:%d:%d: \"%s\", expected %d:%d: \"%s\"", i,
           l.file ? l.file : "(null)", l.line, l.col, msg, e->line, e->col,
           e->message);
    asc_context_free(c);
  }
  /* NULL text, NULL file name */
  AscContext *c = asc_context_new();
  CHECK(asc_module_parse(c, NULL, NULL) == NULL);
  CHECK_HAS(asc_context_message(c), "no input text");
  asc_context_free(c);
  CHECK(asc_module_parse(NULL, "module {}", "x") == NULL);
  /* nesting is bounded */
  size_t n = 400;
  char *deep = malloc(n * 64 + 256);
  if (deep) {
    strcpy(deep, FN_OPEN);
    for (size_t i = 0; i < n; i++)
      strcat(deep, "\"scf.if\"() ({");
    c = asc_context_new();
    CHECK(asc_module_parse(c, deep, "deep.ascir") == NULL);
    CHECK_HAS(asc_context_message(c), "regions nested too deeply");
    asc_context_free(c);
    free(deep);
  }
  /* a functions's values are not visible in the next function */
  const char *two = FN_OPEN
      "  ^bb0(%a: i32):\n" RET FN_CLOSE
      "  \"func.func\"() ({\n    \"func.return\"(%a) : (i32) -> ()\n" FN_CLOSE;
  char *fixed = malloc(strlen(two) + 1);
  if (fixed) {
    /* drop the "}\n" that closed the module after the first function */
    strcpy(fixed, two);
    char *close = strstr(fixed, "-> ()\n}\n");
    memmove(close + 6, close + 8, strlen(close + 8) + 1);
    c = asc_context_new();
    CHECK(asc_module_parse(c, fixed, "two.ascir") == NULL);
    CHECK_HAS(asc_context_message(c), "undefined value %a");
    asc_context_free(c);
    free(fixed);
  }
  /* value names are at most 127 bytes, the printer's limit */
  char longname[512];
  snprintf(longname, sizeof longname,
           FN_OPEN "  ^bb0(%%%0128d: i32):\n" RET FN_CLOSE, 7);
  c = asc_context_new();
  CHECK(asc_module_parse(c, longname, "long.ascir") == NULL);
  CHECK_HAS(asc_context_message(c), "value name longer than 127 characters");
  CHECK_EQ(asc_context_error_loc(c).line, 3);
  CHECK_EQ(asc_context_error_loc(c).col, 8);
  asc_context_free(c);
  snprintf(longname, sizeof longname,
           FN_OPEN "  ^bb0(%%%0127d: i32):\n" RET FN_CLOSE, 7);
  c = asc_context_new();
  CHECK(asc_module_parse(c, longname, "long.ascir") != NULL);
  asc_context_free(c);
  /* an error already on the context is not overwritten */
  c = asc_context_new();
  asc_error(c, ASC_ERR_COMPILE, (AscLoc){0}, "earlier");
  CHECK(asc_module_parse(c, "bogus", "x") == NULL);
  CHECK_STREQ(asc_context_message(c), "earlier");
  asc_context_free(c);
}

/* ---- fuzz
 * --------------------------------------------------------------------- Random
 * truncations and mutations of valid text: every input gives either a module
 * (which then prints, re-parses to the same text, and verifies or not without
 * crashing) or an ASC_ERR_COMPILE error with a location. */

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static const char *const PIECES[] = {"(",
                                     ")",
                                     "{",
                                     "}",
                                     "[",
                                     "]",
                                     "<",
                                     ">",
                                     ",",
                                     ":",
                                     "=",
                                     "->",
                                     "%",
                                     "%0",
                                     "%x",
                                     "%arg0",
                                     "\"",
                                     "\\",
                                     "@",
                                     "^bb0",
                                     "!asc.tque",
                                     "#asc",
                                     "-",
                                     "1",
                                     "-1.5e+3",
                                     "nan",
                                     "inf",
                                     "i32",
                                     "f16",
                                     "!asc.local_tensor<f32, VECIN>",
                                     "loc(",
                                     "\"scf.if\"",
                                     "\"arith.add\"",
                                     "({",
                                     "})",
                                     "\n",
                                     " ",
                                     "//",
                                     "\x80",
                                     "\"func.return\"() : () -> ()"};

static void mutate(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  size_t a = n ? rnd() % n : 0;
  size_t b = a + (n - a ? rnd() % (n - a < 40 ? n - a : 40) : 0);
  const char *piece = PIECES[rnd() % (sizeof PIECES / sizeof PIECES[0])];
  switch (rnd() % 5) {
  case 0: /* truncate */
    snprintf(dst, cap, "%.*s", (int)a, src);
    break;
  case 1: /* delete a span */
    snprintf(dst, cap, "%.*s%s", (int)a, src, src + b);
    break;
  case 2: /* insert a piece */
    snprintf(dst, cap, "%.*s%s%s", (int)a, src, piece, src + a);
    break;
  case 3: /* replace a span by a piece */
    snprintf(dst, cap, "%.*s%s%s", (int)a, src, piece, src + b);
    break;
  default: /* duplicate a span */
    snprintf(dst, cap, "%.*s%.*s%s", (int)b, src, (int)(b - a), src + a,
             src + b);
    break;
  }
}

static void fuzz_one(const char *text, int *parsed, int *bad) {
  AscContext *c = asc_context_new();
  AscModule *m = asc_module_parse(c, text, "fuzz.ascir");
  if (!m) {
    AscLoc l = asc_context_error_loc(c);
    if (asc_context_status(c) != ASC_ERR_COMPILE || l.line < 1 || l.col < 1 ||
        !asc_context_message(c)[0]) {
      if (++*bad <= 3)
        printf("  fuzz: bad error %d at %d:%d for:\n%s\n",
               (int)asc_context_status(c), l.line, l.col, text);
    }
  } else {
    ++*parsed;
    char *p1 = asc_module_print(m);
    char *p2 = p1 ? reprint(p1) : NULL;
    if (!p1 || !p2 || strcmp(p1, p2) != 0) {
      if (++*bad <= 3)
        printf("  fuzz: not idempotent for:\n%s\n", text);
    }
    if (asc_module_verify(m) == ASC_OK) {
      asc_run_pass(m, "canonicalize");
      asc_run_pass(m, "dce");
      char *p3 = asc_module_print(m);
      free(p3);
    }
    free(p1);
    free(p2);
  }
  asc_context_free(c);
}

static void test_fuzz(char *const *samples, int n_samples) {
  int parsed = 0, bad = 0, runs = 0;
  size_t cap = 1 << 16;
  char *buf = malloc(cap), *buf2 = malloc(cap);
  if (!buf || !buf2) {
    free(buf);
    free(buf2);
    CHECK(0);
    return;
  }
  for (int s = 0; s < n_samples; s++) {
    if (!samples[s])
      continue;
    /* every truncation of a short sample */
    size_t n = strlen(samples[s]);
    for (size_t k = 0; k < n; k += 1 + n / 2000) {
      snprintf(buf, cap, "%.*s", (int)k, samples[s]);
      fuzz_one(buf, &parsed, &bad);
      runs++;
    }
    for (int i = 0; i < 4000; i++) {
      mutate(buf, cap, samples[s]);
      if (rnd() % 3 == 0) {
        mutate(buf2, cap, buf);
        fuzz_one(buf2, &parsed, &bad);
      } else {
        fuzz_one(buf, &parsed, &bad);
      }
      runs++;
    }
  }
  printf("  fuzz: %d inputs, %d parsed\n", runs, parsed);
  CHECK_EQ(bad, 0);
  CHECK(parsed > 0);
  free(buf);
  free(buf2);
}

/* ---- passes
 * --------------------------------------------------------------------
 */

/* Parses, runs the passes (NULL-terminated), verifies, prints. */
static char *run_passes(const char *text, const char *const *passes) {
  AscContext *c = asc_context_new();
  AscModule *m = asc_module_parse(c, text, "p.ascir");
  char *out = NULL;
  if (m && asc_module_verify(m) == ASC_OK) {
    int ok = 1;
    for (const char *const *p = passes; *p && ok; p++)
      ok = asc_run_pass(m, *p) == ASC_OK && asc_module_verify(m) == ASC_OK;
    if (ok)
      out = asc_module_print(m);
  }
  if (!out)
    printf("  run_passes: %s\n", asc_context_message(c));
  asc_context_free(c);
  return out;
}

static const char *const CANON_DCE[] = {"canonicalize", "dce", NULL};
static const char *const CANON[] = {"canonicalize", NULL};
static const char *const DCE[] = {"dce", NULL};

#define KERNEL_OPEN                                                            \
  "module @m {\n  \"func.func\"() ({\n  ^bb0(%out: "                           \
  "!asc.global_address<i32>, %n: i32):\n"
#define KERNEL_CLOSE                                                           \
  "    \"func.return\"() : () -> () loc(\"k.py\":99:4)\n"                      \
  "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> ()\n}\n"
#define STORE(v)                                                               \
  "    %gt = \"asc.global_tensor\"() : () -> !asc.global_tensor<i32>\n"        \
  "    \"asc.global_tensor.set_global_buffer\"(%gt, %out) : "                  \
  "(!asc.global_tensor<i32>, !asc.global_address<i32>) -> ()\n"                \
  "    %zero = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"           \
  "    \"asc.global_tensor.set_value\"(%gt, %zero, " v ") : "                  \
  "(!asc.global_tensor<i32>, i32, i32) -> ()\n"

static void test_passes(void) {
  /* folding a chain; locations and names of the folded ops survive */
  const char *chain = KERNEL_OPEN
      "    %0 = \"arith.constant\"() {value = 6 : i32} : () -> i32 "
      "loc(\"k.py\":1:1)\n"
      "    %1 = \"arith.constant\"() {value = 7 : i32} : () -> i32 "
      "loc(\"k.py\":2:1)\n"
      "    %p = \"arith.mul\"(%0, %1) : (i32, i32) -> i32 loc(\"k.py\":3:9)\n"
      "    %2 = \"arith.sub\"(%p, %0) : (i32, i32) -> i32 loc(\"k.py\":4:9)\n"
      "    %3 = \"arith.add\"(%2, %n) : (i32, i32) -> i32 loc(\"k.py\":5:9)\n"
      "    %4 = \"arith.constant\"() {value = 7 : i32} : () -> i32 "
      "loc(\"k.py\":6:1)\n"
      "    %5 = \"arith.add\"(%3, %4) : (i32, i32) -> i32 "
      "loc(\"k.py\":7:9)\n" STORE("%5") KERNEL_CLOSE;
  char *out = run_passes(chain, CANON);
  CHECK(out != NULL);
  if (out) {
    CHECK_HAS(out, "\"arith.constant\"() {value = 36 : i32} : () -> i32 "
                   "loc(\"k.py\":4:9)");
    CHECK_LACKS(out, "arith.mul");
    CHECK_LACKS(out, "arith.sub");
    CHECK_LACKS(out, "{value = 6 : i32}"); /* dead constants are erased */
    /* the duplicate 7 is replaced by the first one */
    CHECK_EQ(count_of(out, "{value = 7 : i32}"), 1);
    CHECK_HAS(out, "loc(\"k.py\":2:1)");
    CHECK_LACKS(out, "loc(\"k.py\":6:1)");
    CHECK_EQ(count_of(out, "arith.add"), 2); /* %n is not a constant */
    CHECK_IDENTITY(out);
  }
  free(out);
  /* dce: pure ops without uses go, recursively; effects stay */
  const char *dead = KERNEL_OPEN
      "    %0 = \"asc.get_block_idx\"() : () -> i64\n"
      "    %1 = \"arith.cast\"(%n) : (i32) -> i64\n"
      "    %2 = \"arith.mul\"(%0, %1) : (i64, i64) -> i64\n"
      "    %3 = \"asc.global_address.offset\"(%out, %2) : "
      "(!asc.global_address<i32>, i64) -> !asc.global_address<i32>\n"
      "    %4 = \"asc.get_block_num\"() : () -> i64\n"
      "    %c = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
      "    %c2 = \"arith.constant\"() {value = 2 : i32} : () -> i32\n"
      "    \"scf.for\"(%c, %n, %c) ({\n"
      "    ^bb0(%i: i32):\n"
      "      %5 = \"arith.add\"(%i, %c2) : (i32, i32) -> i32\n"
      "      \"scf.yield\"() : () -> ()\n"
      "    }) : (i32, i32, i32) -> ()\n"
      "    \"asc.set_flag\"(%c) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "()\n"
      "    %6 = \"asc.global_tensor\"() : () -> "
      "!asc.global_tensor<i32>\n" STORE("%n") KERNEL_CLOSE;
  out = run_passes(dead, DCE);
  CHECK(out != NULL);
  if (out) {
    CHECK_LACKS(out, "get_block_idx");
    CHECK_LACKS(out, "get_block_num");
    CHECK_LACKS(out, "arith.cast");
    CHECK_LACKS(out, "arith.mul");
    CHECK_LACKS(out, "global_address.offset");
    CHECK_LACKS(out, "arith.add");
    CHECK_LACKS(out, "%c2");
    CHECK_HAS(out, "%c = ");
    CHECK_HAS(out, "\"scf.for\"(%c, %n, %c)");
    CHECK_HAS(out, "asc.set_flag");
    /* asc.global_tensor is not in the pure list */
    CHECK_EQ(count_of(out, "= \"asc.global_tensor\"()"), 2);
    CHECK_HAS(out, "asc.global_tensor.set_value");
  }
  free(out);
  /* select with a constant condition; division by zero is not folded */
  const char *sel = KERNEL_OPEN
      "    %t = \"arith.constant\"() {value = 1 : i1} : () -> i1\n"
      "    %s = \"arith.select\"(%t, %n, %t2) : (i1, i32, i32) -> i32\n" STORE(
          "%s") KERNEL_CLOSE;
  CHECK(run_passes(sel, CANON) == NULL); /* %t2 undefined */
  const char *sel2 = KERNEL_OPEN
      "    %t = \"arith.constant\"() {value = 0 : i1} : () -> i1\n"
      "    %z = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"
      "    %d = \"arith.div\"(%n, %z) : (i32, i32) -> i32\n"
      "    %e = \"arith.div\"(%z, %z) : (i32, i32) -> i32\n"
      "    %s = \"arith.select\"(%t, %e, %d) : (i1, i32, i32) -> i32\n" STORE(
          "%s") KERNEL_CLOSE;
  out = run_passes(sel2, CANON_DCE);
  CHECK(out != NULL);
  if (out) {
    CHECK_LACKS(out, "arith.select");
    CHECK_HAS(out, "\"asc.global_tensor.set_value\"(%gt, %z, %d)");
    CHECK_HAS(out, "%d = \"arith.div\"(%n, %z)");
    CHECK_LACKS(out, "%e"); /* 0/0 is not folded, but it is dead */
  }
  free(out);
  /* constants in different blocks are not merged; normalisation */
  const char *blocks = KERNEL_OPEN
      "    %a = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
      "    %b = \"arith.constant\"() {value = 1.5 : i32} : () -> i32\n"
      "    %h = \"arith.constant\"() {value = 0.1 : f16} : () -> f16\n"
      "    \"scf.for\"(%a, %n, %b) ({\n"
      "    ^bb0(%i: i32):\n"
      "      %c = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
      "      \"asc.set_flag\"(%c) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "()\n"
      "      \"asc.set_flag\"(%h2) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "()\n"
      "      \"scf.yield\"() : () -> ()\n"
      "    }) : (i32, i32, i32) -> ()\n"
      "    %h2 = \"arith.cast\"(%h) : (f16) -> i32\n" STORE("%n") KERNEL_CLOSE;
  CHECK(run_passes(blocks, CANON) == NULL); /* %h2 used before defined */
  const char *blocks2 = KERNEL_OPEN
      "    %a = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
      "    %b = \"arith.constant\"() {value = 1.5 : i32} : () -> i32\n"
      "    %h = \"arith.constant\"() {value = 0.1 : f16} : () -> f16\n"
      "    %hd = \"arith.cast\"(%h) : (f16) -> f64\n"
      "    %h2 = \"arith.cast\"(%h) : (f16) -> i32\n"
      "    \"scf.for\"(%a, %n, %b) ({\n"
      "    ^bb0(%i: i32):\n"
      "      %c = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
      "      \"asc.set_flag\"(%c) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "()\n"
      "      \"asc.set_flag\"(%h2) {event = #asc<HardEvent MTE2_V>} : (i32) -> "
      "()\n"
      "      \"scf.yield\"() : () -> ()\n"
      "    }) : (i32, i32, i32) -> ()\n"
      "    %w = \"arith.cast\"(%hd) : (f64) -> i32\n" STORE("%w") KERNEL_CLOSE;
  out = run_passes(blocks2, CANON);
  CHECK(out != NULL);
  if (out) {
    /* 1.5 truncated to i32 equals 1: merged */
    CHECK_HAS(out, "%a = \"arith.constant\"() {value = 1 : i32}");
    CHECK_LACKS(out, "%b =");
    CHECK_HAS(out, "\"scf.for\"(%a, %n, %a)");
    /* the loop body keeps its own constant */
    CHECK_HAS(out, "%c = \"arith.constant\"() {value = 1 : i32}");
    /* casts of a constant fold; %w and %zero equal %h2 (0) and merge */
    CHECK_HAS(out, "%h2 = \"arith.constant\"() {value = 0 : i32}");
    CHECK_HAS(out, "\"asc.global_tensor.set_value\"(%gt, %h2, %h2)");
    CHECK_LACKS(out, "arith.cast");
    CHECK_LACKS(out, "%hd");
  }
  free(out);
  /* float constants are rounded to their type: 0.1 in f16 */
  const char *half =
      "module @m {\n  \"func.func\"() ({\n  ^bb0(%out: "
      "!asc.global_address<f16>):\n"
      "    %h = \"arith.constant\"() {value = 0.1 : f16} : () -> f16\n"
      "    %gt = \"asc.global_tensor\"() : () -> !asc.global_tensor<f16>\n"
      "    \"asc.global_tensor.set_global_buffer\"(%gt, %out) : "
      "(!asc.global_tensor<f16>, !asc.global_address<f16>) -> ()\n"
      "    %zero = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"
      "    \"asc.global_tensor.set_value\"(%gt, %zero, %h) : "
      "(!asc.global_tensor<f16>, i32, f16) -> ()\n"
      "    \"func.return\"() : () -> ()\n"
      "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> ()\n"
      "}\n";
  out = run_passes(half, CANON);
  CHECK_HAS(out, "%h = \"arith.constant\"() {value = 0.0999755859375 : f16}");
  free(out);
  /* unknown pass; pass names */
  AscContext *c = asc_context_new();
  AscModule *m = asc_module_new(c, "x");
  CHECK_EQ(asc_run_pass(m, "nope"), ASC_ERR_COMPILE);
  CHECK_HAS(asc_context_message(c), "unknown pass 'nope'");
  asc_context_free(c);
  const char *const *names = asc_pass_names();
  int n = 0, canon = 0, dce = 0;
  for (; names[n]; n++) {
    canon |= strcmp(names[n], "canonicalize") == 0;
    dce |= strcmp(names[n], "dce") == 0;
  }
  CHECK(n >= 2 && canon && dce);
  CHECK_EQ(asc_run_pass(NULL, "dce"), ASC_ERR_INTERNAL);
}

/* ---- folding agrees with the simulator
 * ------------------------------------------ Each case is a kernel computing
 * one scalar from constants and storing it (cast to the stored type) into
 * out[0]. It is run before and after canonicalize; the stored bytes must be
 * equal and the op must be gone. */

typedef struct FoldCase {
  const char *op; /* arith op name */
  const char *ta; /* operand types */
  const char *tb; /* NULL: unary */
  const char *tr; /* result type */
  const char *a, *b;
  const char *attrs; /* extra attribute text or "" */
  int folds;         /* 0: must stay (run-time error or unfoldable) */
} FoldCase;

static const FoldCase FOLDS[] = {
    {"arith.add", "i32", "i32", "i32", "2147483647", "1", "", 1},
    {"arith.sub", "ui8", "ui8", "ui8", "3", "5", "", 1},
    {"arith.mul", "i16", "i16", "i16", "300", "300", "", 1},
    {"arith.mul", "i64", "i64", "i64", "-9223372036854775808", "-1", "", 1},
    {"arith.div", "i32", "i32", "i32", "-7", "2", "", 1},
    {"arith.div", "i64", "i64", "i64", "-9223372036854775808", "-1", "", 1},
    {"arith.div", "ui32", "ui32", "ui32", "4294967295", "3", "", 1},
    {"arith.rem", "i32", "i32", "i32", "-7", "2", "", 1},
    {"arith.rem", "i32", "i32", "i32", "7", "0", "", 0},
    {"arith.and", "i32", "i32", "i32", "12", "10", "", 1},
    {"arith.or", "i8", "i8", "i8", "-128", "1", "", 1},
    {"arith.xor", "i32", "i32", "i32", "-1", "5", "", 1},
    {"arith.shl", "i32", "i32", "i32", "1", "31", "", 1},
    {"arith.shl", "i32", "i32", "i32", "1", "70", "", 1},
    {"arith.shr", "i32", "i32", "i32", "-16", "2", "", 1},
    {"arith.shr", "ui16", "ui16", "ui16", "65535", "3", "", 1},
    {"arith.shr", "i32", "i32", "i32", "-16", "99", "", 1},
    {"arith.min", "i32", "i32", "i32", "-3", "4", "", 1},
    {"arith.max", "ui8", "ui8", "ui8", "200", "100", "", 1},
    {"arith.add", "f32", "f32", "f32", "0.1", "0.2", "", 1},
    {"arith.add", "f16", "f16", "f16", "65504", "65504", "", 1},
    {"arith.mul", "bf16", "bf16", "bf16", "1.1", "3.3", "", 1},
    {"arith.div", "f32", "f32", "f32", "1", "3", "", 1},
    {"arith.div", "f32", "f32", "f32", "1", "0", "", 1},
    {"arith.div", "f64", "f64", "f64", "0", "0", "", 1},
    {"arith.sub", "f16", "f16", "f16", "1", "0.0001", "", 1},
    {"arith.min", "f32", "f32", "f32", "-0.5", "2", "", 1},
    {"arith.max", "f64", "f64", "f64", "1e300", "-1e300", "", 1},
    {"arith.add", "i32", "f32", "f32", "3", "0.25", "", 1},
    {"arith.mul", "f32", "i32", "i32", "2.75", "3", "", 1},
    {"arith.cmp", "i32", "i32", "i1", "3", "4",
     ", {predicate = #asc<CmpPredicate LT>}", 1},
    {"arith.cmp", "f32", "i32", "i1", "4.5", "4",
     ", {predicate = #asc<CmpPredicate GE>}", 1},
    {"arith.cmp", "f32", "f32", "i1", "nan", "nan",
     ", {predicate = #asc<CmpPredicate NE>}", 1},
    {"arith.cmp", "ui32", "ui32", "i1", "4294967295", "1",
     ", {predicate = #asc<CmpPredicate GT>}", 1},
    {"arith.neg", "i32", NULL, "i32", "-2147483648", NULL, "", 1},
    {"arith.neg", "f16", NULL, "f16", "1.5", NULL, "", 1},
    {"arith.not", "i32", NULL, "i32", "0", NULL, "", 1},
    {"arith.not", "i32", NULL, "i1", "5", NULL, "", 1},
    {"arith.invert", "ui8", NULL, "ui8", "5", NULL, "", 1},
    {"arith.invert", "i64", NULL, "i64", "0", NULL, "", 1},
    {"arith.cast", "f32", NULL, "i8", "300.7", NULL, "", 1},
    {"arith.cast", "f32", NULL, "i32", "-3.9", NULL, "", 1},
    {"arith.cast", "f64", NULL, "i64", "1e30", NULL, "", 1},
    {"arith.cast", "f32", NULL, "i32", "nan", NULL, "", 1},
    {"arith.cast", "i32", NULL, "f16", "70000", NULL, "", 1},
    {"arith.cast", "i64", NULL, "bf16", "16777217", NULL, "", 1},
    {"arith.cast", "f32", NULL, "f16", "0.1", NULL, "", 1},
    {"arith.cast", "i32", NULL, "ui8", "-1", NULL, "", 1},
    {"arith.cast", "i32", NULL, "i1", "-7", NULL, "", 1},
};

/* Runs text's kernel on one block; out receives the 8 stored bytes. */
static int run_kernel(AscModule *m, uint8_t *out, char *why, size_t why_n) {
  AscKernel *k = asc_kernel_compile(m, "k");
  if (!k) {
    snprintf(why, why_n, "compile: %s", asc_context_message(m->ctx));
    return -1;
  }
  const AscPlatform *plat = asc_platform_at(0);
  AscLaunchArg arg;
  memset(&arg, 0, sizeof arg);
  arg.kind = ASC_ARG_GM;
  arg.ptr = out;
  arg.nbytes = 8;
  AscLaunchError err;
  memset(&err, 0, sizeof err);
  AscStatus s = asc_kernel_launch(k, plat, 1, &arg, 1, NULL, &err);
  asc_kernel_free(k);
  if (s != ASC_OK) {
    snprintf(why, why_n, "launch: %s", err.message);
    return -1;
  }
  return 0;
}

static void test_fold_vs_sim(void) {
  for (int i = 0; i < (int)(sizeof FOLDS / sizeof FOLDS[0]); i++) {
    const FoldCase *f = &FOLDS[i];
    /* store as the result type when it is storable; else cast to i32 */
    const char *st = strcmp(f->tr, "i1") == 0 ? "i32" : f->tr;
    char text[4096], operand_b[256] = "", types[64];
    if (f->tb)
      snprintf(operand_b, sizeof operand_b,
               "    %%b = \"arith.constant\"() {value = %s : %s} : () -> "
               "%s\n",
               f->b, f->tb, f->tb);
    snprintf(types, sizeof types, f->tb ? "%s, %s" : "%s", f->ta, f->tb);
    char attrs[128] = "";
    if (f->attrs[0])
      snprintf(attrs, sizeof attrs, " %s", f->attrs + 2);
    snprintf(
        text, sizeof text,
        "module @m {\n  \"func.func\"() ({\n"
        "  ^bb0(%%out: !asc.global_address<%s>):\n"
        "    %%a = \"arith.constant\"() {value = %s : %s} : () -> %s\n"
        "%s"
        "    %%r = \"%s\"(%%a%s)%s : (%s) -> %s loc(\"k.py\":7:3)\n"
        "    %%s = \"arith.cast\"(%%r) : (%s) -> %s\n"
        "    %%gt = \"asc.global_tensor\"() : () -> !asc.global_tensor<%s>\n"
        "    \"asc.global_tensor.set_global_buffer\"(%%gt, %%out) : "
        "(!asc.global_tensor<%s>, !asc.global_address<%s>) -> ()\n"
        "    %%zero = \"arith.constant\"() {value = 0 : i32} : () -> i32\n"
        "    \"asc.global_tensor.set_value\"(%%gt, %%zero, %%s) : "
        "(!asc.global_tensor<%s>, i32, %s) -> ()\n"
        "    \"func.return\"() : () -> ()\n"
        "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> "
        "()\n}\n",
        st, f->a, f->ta, f->ta, operand_b, f->op, f->tb ? ", %b" : "", attrs,
        types, f->tr, f->tr, st, st, st, st, st, st);
    uint8_t before[8], after[8];
    memset(before, 0xA5, sizeof before);
    memset(after, 0xA5, sizeof after);
    char why[1200] = "";
    AscContext *c = asc_context_new();
    AscModule *m = asc_module_parse(c, text, "fold.ascir");
    int ok = m && asc_module_verify(m) == ASC_OK;
    if (!ok)
      snprintf(why, sizeof why, "parse/verify: %s", asc_context_message(c));
    int ran_before = ok && run_kernel(m, before, why, sizeof why) == 0;
    ok = ok && asc_run_pass(m, "canonicalize") == ASC_OK &&
         asc_module_verify(m) == ASC_OK;
    char *printed = ok ? asc_module_print(m) : NULL;
    int gone = printed && strstr(printed, f->op) == NULL;
    int ran_after = ok && run_kernel(m, after, why, sizeof why) == 0;
    if (f->folds) {
      report(ran_before && ran_after && gone &&
                 memcmp(before, after, sizeof before) == 0,
             __FILE__, __LINE__,
             "fold case %d (%s %s %s -> %s): ran %d/%d, folded %d, bytes "
             "%02x%02x%02x%02x vs %02x%02x%02x%02x %s\n%s",
             i, f->op, f->a, f->b ? f->b : "", f->tr, ran_before, ran_after,
             gone, before[0], before[1], before[2], before[3], after[0],
             after[1], after[2], after[3], why, printed ? printed : text);
    } else {
      report(!gone && !ran_before && !ran_after, __FILE__, __LINE__,
             "fold case %d (%s) must not fold: folded %d", i, f->op, gone);
    }
    free(printed);
    asc_context_free(c);
  }
}

/* ---- block editing helpers
 * --------------------------------------------------------
 */

static void test_block_helpers(void) {
  AscContext *c = asc_context_new();
  AscModule *m = asc_module_new(c, "b");
  const AscType *i32 = asc_type_scalar(c, ASC_DT_INT32);
  AscOp *f = asc_module_add_function(m, "f", L(1), &i32, 1, NULL, 0, 0);
  AscBlock *b = f->regions[0].block;
  AscAttr a = attr_int("value", 1, i32);
  AscOp *k1 = op0(c, b, ASC_OP_CONSTANT, L(2), NULL, 0, i32, &a, 1);
  AscOp *k2 = op0(c, b, ASC_OP_CONSTANT, L(3), NULL, 0, i32, &a, 1);
  AscValue *ops[] = {&k1->results[0], &k1->results[0]};
  AscOp *add = op0(c, b, ASC_OP_ADD_S, L(4), ops, 2, i32, NULL, 0);
  AscValue *cond[] = {&b->args[0]};
  AscOp *iff = asc_op_create(c, ASC_OP_IF, L(5), cond, 1, NULL, 0, NULL, 0, 2,
                             NULL, NULL);
  asc_block_append(b, iff);
  AscValue *y[] = {&k1->results[0]};
  op0(c, iff->regions[1].block, ASC_OP_SET_FLAG, L(6), y, 1, NULL, NULL, 0);
  CHECK_EQ(asc_replace_all_uses(b, &k1->results[0], &k2->results[0]), 3);
  CHECK(add->operands[0] == &k2->results[0]);
  CHECK(iff->regions[1].block->first->operands[0] == &k2->results[0]);
  asc_block_remove(b, k1); /* first */
  CHECK(b->first == k2 && k2->prev == NULL && k1->parent == NULL);
  asc_block_remove(b, iff); /* last */
  CHECK(b->last == add && add->next == NULL);
  asc_block_remove(b, k1); /* not in the block any more: no-op */
  CHECK(b->first == k2);
  asc_block_remove(b, k2);
  asc_block_remove(b, add);
  CHECK(b->first == NULL && b->last == NULL);
  asc_block_append(b, add); /* a removed op can be re-inserted */
  CHECK(b->first == add && b->last == add && add->parent == b);
  asc_context_free(c);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_hand_built();
  test_printed_text();
  test_errors();
  test_passes();
  test_fold_vs_sim();
  test_block_helpers();
  /* fuzz samples: the printed texts of this test */
  char *samples[4] = {NULL, NULL, NULL, NULL};
  samples[0] = malloc(strlen(VALID[0]) + 1);
  if (samples[0])
    strcpy(samples[0], VALID[0]);
  samples[1] = malloc(strlen(VALID[1]) + 1);
  if (samples[1])
    strcpy(samples[1], VALID[1]);
  samples[2] = hand_built_text;
  test_fuzz(samples, 3);
  for (int i = 0; i < 4; i++)
    free(samples[i]);
  printf("parser: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
