/* Unit test of what a tensor addresses (src/passes/mem_ref.c), the sync
 * pass's notion of which accesses may conflict: constant ranges in a TBuf,
 * static tensors at addresses linear in a kernel parameter (apart for
 * every value of it), halves of a double buffer picked by the iteration's
 * parity, offsets that move with the iteration (no form: anywhere),
 * overflowing constants, different buffers, views.
 *
 * Every failure prints file:line; the last line is the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "asc/passes.h"
#include "passes/mem_ref.h"

#include "check.h"

#define T "!asc.local_tensor<f32, VECCALC>"
#define C(name, v)                                                             \
  "    %" name " = \"arith.constant\"() {value = " v " : i32} : () -> i32\n"
#define GET(name, buf, n, off)                                                 \
  "    %" name " = \"asc.tbuf.get_with_offset\"(%" buf ", %" n ", %" off       \
  ") : (!asc.tbuf<VECCALC>, i32, i32) -> " T "\n"
#define STATIC(name, addr, len)                                                \
  "    %" name " = \"asc.local_tensor\"(%" addr ", %" len                      \
  ") : (i32, i32) -> " T "\n"
#define BIN(name, op, x, y)                                                    \
  "    %" name " = \"arith." op "\"(%" x ", %" y ") : (i32, i32) -> i32\n"

static const char TEXT[] =
    "module @k {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%t: i32):\n"
    "    %buf = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC>\n"
    "    %other = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC>\n" C("c0", "0") C(
        "c2", "2") C("c4", "4") C("c64", "64") C("c128", "128") C("c256", "256")
        C("c8",
          "8") "    %huge = \"arith.constant\"() {value = 9223372036854775807 "
               ": i64} : () -> i64\n" GET("a", "buf", "c64", "c0")
                   GET("b", "buf", "c64", "c256") GET("c", "buf", "c64", "c128")
                       GET("o", "other", "c64",
                           "c0") "    %h = \"asc.tbuf.get_with_offset\"(%buf, "
                                 "%c64, %huge) : (!asc.tbuf<VECCALC>, i32, "
                                 "i64) -> " T "\n"
    /* static tensors at 0, 4t and 2t bytes, t elements of f32 each */
    BIN("t4", "mul", "t", "c4") BIN("t2", "mul", "t", "c2")
        STATIC("sa", "c0", "t") STATIC("sb", "t4", "t") STATIC("sc", "t2", "t")
    /* a view 8 elements into sa: [32, 4t) */
    "    %va = \"asc.local_tensor.offset\"(%sa, %c8) : (" T ", i32) -> " T "\n"
    "    %c1 = \"arith.constant\"() {value = 1 : i32} : () -> i32\n"
    "    \"scf.for\"(%c0, %c8, %c1) ({\n"
    "    ^bb0(%i: i32):\n" BIN("p", "rem", "i", "c2")
        BIN("po", "mul", "p", "c256") GET("d", "buf", "c64", "po")
            BIN("q", "mul", "i", "c256") GET("e", "buf", "c64", "q")
    /* a half picked by parity, of a size the parameter gives: p * 4t */
    BIN("pt", "mul", "p", "t4")
        STATIC("sh", "pt", "t") "      \"scf.yield\"() : () -> ()\n"
                                "    }) : (i32, i32, i32) -> ()\n"
                                "    \"func.return\"() : () -> ()\n"
                                "  }) {sym_name = \"k\", kernel = 1 : i64, "
                                "res_types = []} : () -> ()\n"
                                "}\n";

static const AscValue *find(const AscBlock *b, const char *name) {
  for (const AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_results; i++)
      if (op->results[i].name && strcmp(op->results[i].name, name) == 0)
        return &op->results[i];
    for (int r = 0; r < op->n_regions; r++) {
      const AscValue *v = find(op->regions[r].block, name);
      if (v)
        return v;
    }
  }
  return NULL;
}

static AscMemRefs refs;
static const AscBlock *body;

static AscMemRef ref(const char *name) {
  const AscValue *v = find(body, name);
  if (!v) {
    printf("no value %%%s\n", name);
    return asc_mem_ref_unknown(ASC_MEM_UB);
  }
  return asc_mem_ref(&refs, v);
}

static int apart(const char *x, const char *y) {
  AscMemRef a = asc_mem_ref_resolve(ref(x), -1);
  AscMemRef b = asc_mem_ref_resolve(ref(y), -1);
  return !asc_mem_ref_overlap(&a, &b);
}

/* x in pass px of its loop against y in pass py */
static int apart_in(const char *x, int px, const char *y, int py) {
  AscMemRef a = asc_mem_ref_resolve(ref(x), px);
  AscMemRef b = asc_mem_ref_resolve(ref(y), py);
  return !asc_mem_ref_overlap(&a, &b);
}

int main(void) {
  AscContext *ctx = asc_context_new();
  AscModule *m = asc_module_parse(ctx, TEXT, "mem_ref.ascir");
  CHECK(m != NULL);
  if (!m) {
    printf("%s\n", asc_context_message(ctx));
    return 1;
  }
  CHECK_EQ(asc_module_verify(m), ASC_OK);
  body = m->body->first->regions[0].block;
  refs.body = body;

  /* constant ranges of one TBuf */
  CHECK(apart("a", "b"));
  CHECK(!apart("a", "c"));
  CHECK(!apart("b", "c"));
  CHECK(apart("a", "o"));  /* another TBuf */
  AscMemRef rh = ref("h"); /* its end overflows: open */
  CHECK(rh.lo.known && !rh.hi.known);
  CHECK(apart("h", "c")); /* it starts past c's end */
  /* static tensors at addresses linear in %t: apart for every t >= 0 */
  CHECK(apart("sa", "sb"));
  CHECK(!apart("sa", "sc"));
  CHECK(!apart("sc", "sb"));
  CHECK(!apart("va", "sa"));
  CHECK(apart("va", "sb")); /* [32, 4t) ends where sb starts */
  CHECK(!apart("sa", "a")); /* a static address may lie in any TBuf */
  /* the halves of a double buffer */
  const AscValue *d = find(body, "d");
  AscMemRef rd = ref("d");
  CHECK(d && asc_mem_ref_parity_loop(&rd) == body->last->prev);
  CHECK(apart_in("d", 0, "d", 1));
  CHECK(!apart_in("d", 0, "d", 2));
  CHECK(!apart_in("d", 1, "b", -1)); /* half 1 is [256, 512) */
  CHECK(apart_in("d", 0, "b", -1));
  CHECK(!apart("d", "b"));           /* either half */
  CHECK(apart_in("sh", 0, "sh", 1)); /* halves p * 4t apart, t elements */
  CHECK(!apart_in("sh", 1, "sb", -1));
  CHECK(apart_in("sh", 0, "sb", -1));
  /* offsets that move with the iteration: no form, so anywhere */
  AscMemRef re = ref("e");
  CHECK(!re.lo.known && asc_mem_ref_parity_loop(&re) == NULL);
  CHECK(!apart("e", "b"));
  CHECK(apart("e", "o"));

  asc_mem_refs_free(&refs);
  asc_context_free(ctx);
  printf("test_mem_ref: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
