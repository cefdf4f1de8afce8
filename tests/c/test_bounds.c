/* Bounds and overflow: the checked arithmetic of src/sim/checked.h against
 * a 128-bit reference at the int64 edges, then every address path of the
 * simulator driven with hostile run-time values.
 *
 * Each probe kernel (IR text, as it would arrive from a cache entry or a
 * file) takes an i64 parameter %v and uses it as an index, offset, length
 * or count of one API call; it is launched with every edge value, with and
 * without the sanitizer. A launch either succeeds or fails with a
 * KernelError at the probe's line; either way the guard bytes around the
 * GM buffer are untouched (and AddressSanitizer, which this test runs
 * under, sees no access outside the UB). Then: loops whose induction
 * variable reaches the int64 limits, the step budget, the interrupt
 * callback and kernel parameters no launch can pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "sim/checked.h"
#include "sim/sanitizer.h"

#include "check.h"

__extension__ typedef __int128 i128;

static const int64_t EDGES[] = {0,
                                1,
                                2,
                                7,
                                31,
                                32,
                                63,
                                64,
                                65,
                                255,
                                256,
                                4095,
                                4096,
                                65535,
                                65536,
                                INT32_MAX,
                                (int64_t)INT32_MAX + 1,
                                (int64_t)1 << 32,
                                (int64_t)1 << 40,
                                ((int64_t)1 << 61) - 1,
                                (int64_t)1 << 61,
                                ((int64_t)1 << 61) + 3,
                                (int64_t)1 << 62,
                                ((int64_t)1 << 62) + 1,
                                INT64_MAX - 31,
                                INT64_MAX - 1,
                                INT64_MAX,
                                -1,
                                -2,
                                -31,
                                -32,
                                INT32_MIN,
                                -((int64_t)1 << 61),
                                -((int64_t)1 << 62),
                                INT64_MIN + 1,
                                INT64_MIN};
enum { N_EDGES = sizeof EDGES / sizeof EDGES[0] };

/* ---- the helpers against 128-bit arithmetic ------------------------------ */

static int fits(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

static void check_pair(int64_t a, int64_t b) {
  int64_t r = 12345;
  int ov = asc_add_i64(a, b, &r);
  i128 want = (i128)a + b;
  report(ov == !fits(want) && (ov || r == (int64_t)want), __FILE__, __LINE__,
         "add %lld + %lld", (long long)a, (long long)b);
  ov = asc_mul_i64(a, b, &r);
  want = (i128)a * b;
  report(ov == !fits(want) && (ov || r == (int64_t)want), __FILE__, __LINE__,
         "mul %lld * %lld", (long long)a, (long long)b);
  for (int64_t scale = 1; scale <= 8; scale *= 2) {
    ov = asc_scaled_add(a, b, scale, &r);
    i128 prod = (i128)b * scale;
    want = (i128)a + prod;
    int bad = !fits(prod) || !fits(want);
    report(ov == bad && (ov || r == (int64_t)want), __FILE__, __LINE__,
           "scaled_add %lld + %lld * %lld", (long long)a, (long long)b,
           (long long)scale);
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void) { /* xorshift64* */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 2685821657736338717u;
}

static void test_checked_arithmetic(void) {
  for (int i = 0; i < N_EDGES; i++)
    for (int j = 0; j < N_EDGES; j++)
      check_pair(EDGES[i], EDGES[j]);
  /* random values of every magnitude near the edges */
  for (int k = 0; k < 20000; k++) {
    int sa = (int)(next_random() % 64), sb = (int)(next_random() % 64);
    int64_t a = (int64_t)(next_random() >> sa),
            b = (int64_t)(next_random() >> sb);
    check_pair(next_random() & 1 ? a : -a, next_random() & 1 ? b : -b);
  }
  for (int i = 0; i < N_EDGES; i++) {
    int64_t n = EDGES[i], r = 7;
    if (n < 0)
      continue;
    int ov = asc_round_up(n, 32, &r);
    i128 want = ((i128)n + 31) / 32 * 32;
    report(ov == !fits(want) && (ov || r == (int64_t)want), __FILE__, __LINE__,
           "round_up %lld", (long long)n);
  }
}

/* ---- probe kernels ----------------------------------------------------- */

enum { GM_ELEMS = 64, GUARD = 256 };

static const char *const PROLOGUE =
    "module @probe {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: !asc.global_address<f32>, %v: i64):\n"
    "    %g = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
    "loc(\"probe.py\":1:0)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%g, %x) : "
    "(!asc.global_tensor<f32>, !asc.global_address<f32>) -> () "
    "loc(\"probe.py\":1:0)\n"
    "    %pipe = \"asc.tpipe\"() : () -> !asc.tpipe loc(\"probe.py\":2:0)\n"
    "    %tmp = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC> "
    "loc(\"probe.py\":2:0)\n"
    "    %blen = \"arith.constant\"() {value = 4096 : i64} : () -> i64 "
    "loc(\"probe.py\":2:0)\n"
    "    \"asc.tpipe.init_buffer_buf\"(%pipe, %tmp, %blen) : (!asc.tpipe, "
    "!asc.tbuf<VECCALC>, i64) -> () loc(\"probe.py\":2:0)\n"
    "    %t = \"asc.tbuf.get\"(%tmp) : (!asc.tbuf<VECCALC>) -> "
    "!asc.local_tensor<f32, VECCALC> loc(\"probe.py\":3:0)\n"
    "    %f = \"arith.constant\"() {value = 1.5 : f32} : () -> f32 "
    "loc(\"probe.py\":3:0)\n"
    "    %zero = \"arith.constant\"() {value = 0 : i64} : () -> i64 "
    "loc(\"probe.py\":3:0)\n"
    "    %one = \"arith.constant\"() {value = 1 : i64} : () -> i64 "
    "loc(\"probe.py\":3:0)\n"
    "    %n = \"arith.constant\"() {value = 64 : i64} : () -> i64 "
    "loc(\"probe.py\":3:0)\n"
    "    %m0 = \"arith.constant\"() {value = 64 : ui64} : () -> ui64 "
    "loc(\"probe.py\":3:0)\n"
    "    %m1 = \"arith.constant\"() {value = 0 : ui64} : () -> ui64 "
    "loc(\"probe.py\":3:0)\n"
    "    %r8 = \"arith.constant\"() {value = 8 : i64} : () -> i64 "
    "loc(\"probe.py\":3:0)\n"
    "    %vm = \"arith.cast\"(%v) : (i64) -> ui64 loc(\"probe.py\":3:0)\n";

static const char *const EPILOGUE =
    "    \"func.return\"() : () -> () loc(\"probe.py\":9:0)\n"
    "  }) {sym_name = \"probe\", kernel = 1 : i64, res_types = []} : () -> "
    "() loc(\"probe.py\":1:0)\n"
    "}\n";

#define LT "!asc.local_tensor<f32, VECCALC>"
#define GT "!asc.global_tensor<f32>"
#define GA "!asc.global_address<f32>"
#define AT(line) " loc(\"probe.py\":" #line ":0)\n"

typedef struct Probe {
  const char *name;
  const char *body; /* lines 7-8 of probe.py */
  /* for values v in [0, 64): the GM element the kernel writes 1.5 to
   * (-1: none, -2: element v) */
  int writes;
  /* values of magnitude 2^40 and more may succeed (they are not used as an
   * address or a size); for every other probe they must fault */
  int huge_ok;
} Probe;

static const Probe PROBES[] = {
    {"gm set_value index",
     "    \"asc.global_tensor.set_value\"(%g, %v, %f) : (" GT
     ", i64, f32) -> ()" AT(7),
     -2, 0},
    {"gm get_value index",
     "    %r = \"asc.global_tensor.get_value\"(%g, %v) : (" GT
     ", i64) -> f32" AT(7) "    \"asc.global_tensor.set_value\"(%g, %zero, "
                           "%r) : (" GT ", i64, f32) -> ()" AT(8),
     -1, 0},
    {"ub set_value index",
     "    \"asc.local_tensor.set_value\"(%t, %v, %f) : (" LT
     ", i64, f32) -> ()" AT(7),
     -1, 0},
    {"ub get_value index",
     "    %r = \"asc.local_tensor.get_value\"(%t, %v) : (" LT
     ", i64) -> f32" AT(7),
     -1, 0},
    {"global address + v",
     "    %a = \"asc.global_address.offset\"(%x, %v) : (" GA
     ", i64) -> " GA AT(7) "    %g2 = \"asc.global_tensor\"() : () -> " GT AT(
         8) "    \"asc.global_tensor.set_global_buffer\"(%g2, %a) : (" GT
            ", " GA ") -> ()" AT(8) "    \"asc.global_tensor.set_value\"(%g2, "
                                    "%zero, %f) : (" GT
                                    ", i64, f32) -> ()" AT(8),
     -2, 0},
    {"global tensor [v:]",
     "    %g2 = \"asc.global_tensor.offset\"(%g, %v) : (" GT ", i64) -> " GT AT(
         7) "    \"asc.global_tensor.set_value\"(%g2, %zero, %f) : (" GT
            ", i64, f32) -> ()" AT(8),
     -2, 0},
    {"local tensor [v:]",
     "    %t2 = \"asc.local_tensor.offset\"(%t, %v) : (" LT ", i64) -> " LT AT(
         7) "    \"asc.local_tensor.set_value\"(%t2, %zero, %f) : (" LT
            ", i64, f32) -> ()" AT(8),
     -1, 0},
    {"LocalTensor at address v",
     "    %t2 = \"asc.local_tensor\"(%v, %n) : (i64, i64) -> " LT AT(
         7) "    \"asc.duplicate\"(%t2, %f, %n) : (" LT
            ", f32, i64) -> ()" AT(8),
     -1, 0},
    {"LocalTensor of v elements",
     "    %t2 = \"asc.local_tensor\"(%zero, %v) : (i64, i64) -> " LT AT(
         7) "    \"asc.duplicate\"(%t2, %f, %n) : (" LT
            ", f32, i64) -> ()" AT(8),
     -1, 0},
    {"duplicate count",
     "    \"asc.duplicate\"(%t, %f, %v) : (" LT ", f32, i64) -> ()" AT(7), -1,
     0},
    {"adds count",
     "    \"asc.adds\"(%t, %t, %f, %v) : (" LT ", " LT
     ", f32, i64) -> ()" AT(7),
     -1, 0},
    {"copy GM to UB count",
     "    \"asc.data_copy.gm_to_local\"(%t, %g, %v) : (" LT ", " GT
     ", i64) -> ()" AT(7),
     -1, 0},
    {"copy UB to GM count",
     "    \"asc.duplicate\"(%t, %f, %n) : (" LT ", f32, i64) -> ()" AT(
         7) "    \"asc.data_copy.local_to_gm\"(%g, %t, %v) : (" GT ", " LT
            ", i64) -> ()" AT(8),
     -1, 0},
    {"copy UB to GM at [v:]",
     "    \"asc.duplicate\"(%t, %f, %n) : (" LT ", f32, i64) -> ()" AT(
         7) "    %g2 = \"asc.global_tensor.offset\"(%g, %v) : (" GT
            ", i64) -> " GT AT(8) "    \"asc.data_copy.local_to_gm\"(%g2, %t, "
                                  "%r8) : (" GT ", " LT ", i64) -> ()" AT(8),
     -1, 0},
    {"init_buffer que count",
     "    %q = \"asc.tque\"() : () -> !asc.tque<VECIN, 2>" AT(
         7) "    \"asc.tpipe.init_buffer_que\"(%pipe, %q, %v, %n) : "
            "(!asc.tpipe, !asc.tque<VECIN, 2>, i64, i64) -> ()" AT(7),
     -1, 0},
    {"init_buffer que length",
     "    %q = \"asc.tque\"() : () -> !asc.tque<VECIN, 2>" AT(
         7) "    \"asc.tpipe.init_buffer_que\"(%pipe, %q, %one, %v) : "
            "(!asc.tpipe, !asc.tque<VECIN, 2>, i64, i64) -> ()" AT(7),
     -1, 0},
    {"init_buffer buf length",
     "    %b2 = \"asc.tbuf\"() : () -> !asc.tbuf<VECCALC>" AT(
         7) "    \"asc.tpipe.init_buffer_buf\"(%pipe, %b2, %v) : (!asc.tpipe, "
            "!asc.tbuf<VECCALC>, i64) -> ()" AT(7),
     -1, 0},
    {"TBuf.get length",
     "    %t2 = \"asc.tbuf.get\"(%tmp, %v) : (!asc.tbuf<VECCALC>, i64) -> " LT
         AT(7) "    \"asc.duplicate\"(%t2, %f, %n) : (" LT
               ", f32, i64) -> ()" AT(8),
     -1, 0},
    {"set_global_buffer length",
     "    %g2 = \"asc.global_tensor\"() : () -> " GT AT(
         7) "    \"asc.global_tensor.set_global_buffer\"(%g2, %x, %v) : (" GT
            ", " GA
            ", i64) -> ()" AT(7) "    \"asc.global_tensor.set_value\"(%g2, "
                                 "%zero, %f) : (" GT ", i64, f32) -> ()" AT(8),
     -1, 1},
    {"level-0 duplicate repeat",
     "    \"asc.duplicate.l0\"(%t, %f, %m0, %m1, %v, %one, %r8) {mask_mode = 0 "
     ": "
     "i64} : (" LT ", f32, ui64, ui64, i64, i64, i64) -> ()" AT(7),
     -1, 0},
    {"level-0 duplicate strides",
     "    \"asc.duplicate.l0\"(%t, %f, %m0, %m1, %one, %v, %v) {mask_mode = 0 "
     ": "
     "i64} : (" LT ", f32, ui64, ui64, i64, i64, i64) -> ()" AT(7),
     -1, 0},
    /* counter mode: the mask counts v elements (a float32 repeat ignores
     * the high word in normal mode, so no mask value faults there) */
    {"level-0 adds mask (counter mode)",
     "    %rp = \"asc.struct\"(%one, %one, %r8, %r8) : (i64, i64, i64, i64) -> "
     "!asc.struct<UnaryRepeatParams>" AT(
         7) "    \"asc.set_mask_count\"() : "
            "() -> ()" AT(
                7) "    \"asc.adds.l0\"(%t, %t, %f, "
                   "%vm, %vm, %one, %rp) {mask_mode = 1 : i64} : (" LT ", " LT
                   ", f32, ui64, "
                   "ui64, i64, !asc.struct<UnaryRepeatParams>) -> ()" AT(7),
     -1, 0},
    {"level-0 adds strides",
     "    %rp = \"asc.struct\"(%v, %one, %v, %r8) : (i64, i64, i64, i64) -> "
     "!asc.struct<UnaryRepeatParams>" AT(
         7) "    \"asc.adds.l0\"(%t, %t, %f, "
            "%m0, %m1, %r8, %rp) {mask_mode = 0 : i64} : (" LT ", " LT
            ", f32, ui64, "
            "ui64, i64, !asc.struct<UnaryRepeatParams>) -> ()" AT(7),
     -1, 0},
};
enum { N_PROBES = sizeof PROBES / sizeof PROBES[0] };

typedef struct Kernel {
  AscContext *ctx;
  AscModule *m;
  AscKernel *k;
} Kernel;

static int kernel_from_text(Kernel *kn, const char *text, const char *what) {
  kn->ctx = asc_context_new();
  kn->m = asc_module_parse(kn->ctx, text, "probe.ascir");
  kn->k = kn->m ? asc_kernel_compile(kn->m, "probe") : NULL;
  report(kn->k != NULL, __FILE__, __LINE__, "%s: compiles: %s", what,
         asc_context_message(kn->ctx));
  return kn->k != NULL;
}

static void kernel_free(Kernel *kn) {
  asc_kernel_free(kn->k);
  asc_context_free(kn->ctx);
}

/* The GM buffer of 64 floats between two guard zones. */
typedef struct Gm {
  uint8_t mem[GUARD + GM_ELEMS * 4 + GUARD];
} Gm;

static float *gm_data(Gm *g) { return (float *)(void *)(g->mem + GUARD); }

static void gm_reset(Gm *g) {
  memset(g->mem, 0xA5, sizeof g->mem);
  memset(g->mem + GUARD, 0, GM_ELEMS * 4);
}

static int gm_guards_intact(const Gm *g) {
  for (int i = 0; i < GUARD; i++)
    if (g->mem[i] != 0xA5 || g->mem[GUARD + GM_ELEMS * 4 + i] != 0xA5)
      return 0;
  return 1;
}

static AscStatus launch_probe(const Kernel *kn, Gm *gm, int64_t v, int sanitize,
                              AscLaunchError *err) {
  AscLaunchArg args[2];
  memset(args, 0, sizeof args);
  args[0].kind = ASC_ARG_GM;
  args[0].ptr = gm_data(gm);
  args[0].nbytes = GM_ELEMS * 4;
  args[1].kind = ASC_ARG_INT;
  args[1].i = v;
  AscLaunchOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.workers = 1;
  AscSanitizer *san = NULL;
  if (sanitize) {
    san = asc_sanitizer_new(ASC_SAN_WARN, ASC_SAN_AUTO_SYNC, 1);
    opt.observers = asc_sanitizer_observer(san);
    opt.n_observers = 1;
  }
  AscStatus s = asc_kernel_launch(kn->k, asc_platform_get("Ascend910B1"), 1,
                                  args, 2, &opt, err);
  if (san) {
    s = asc_sanitizer_finish(san, s, err);
    asc_sanitizer_free(san);
  }
  return s;
}

static void test_probes(void) {
  char text[8192];
  for (int p = 0; p < N_PROBES; p++) {
    const Probe *pr = &PROBES[p];
    snprintf(text, sizeof text, "%s%s%s", PROLOGUE, pr->body, EPILOGUE);
    Kernel kn;
    if (!kernel_from_text(&kn, text, pr->name)) {
      kernel_free(&kn);
      continue;
    }
    int n_ok = 0, n_fault = 0;
    for (int e = 0; e < N_EDGES; e++)
      for (int san = 0; san < 2; san++) {
        int64_t v = EDGES[e];
        Gm gm;
        gm_reset(&gm);
        AscLaunchError err;
        AscStatus s = launch_probe(&kn, &gm, v, san, &err);
        report(gm_guards_intact(&gm), __FILE__, __LINE__,
               "%s, v = %lld: bytes outside the GM argument changed", pr->name,
               (long long)v);
        if (s == ASC_OK) {
          n_ok++;
          if (pr->writes == -2 && v >= 0 && v < GM_ELEMS)
            report(gm_data(&gm)[v] == 1.5f, __FILE__, __LINE__,
                   "%s, v = %lld: element v holds %g", pr->name, (long long)v,
                   (double)gm_data(&gm)[v]);
          continue;
        }
        n_fault++;
        report(s == ASC_ERR_KERNEL, __FILE__, __LINE__,
               "%s, v = %lld: status %d (%s)", pr->name, (long long)v, (int)s,
               err.message);
        report(err.message[0] && err.loc.line >= 7 && err.loc.line <= 8,
               __FILE__, __LINE__,
               "%s, v = %lld: fault at line %d of probe.py (want 7 or 8): %s",
               pr->name, (long long)v, err.loc.line, err.message);
      }
    /* every probe has both outcomes over the edge values: the check is not
     * vacuous, and the kernel text is not rejected outright */
    report(n_ok > 0 && n_fault > 0, __FILE__, __LINE__,
           "%s: %d launches succeeded, %d failed", pr->name, n_ok, n_fault);
    /* no valid index, offset or size is that large here */
    for (int e = 0; e < N_EDGES && !pr->huge_ok; e++) {
      int64_t v = EDGES[e];
      if (v < ((int64_t)1 << 40) && v > -((int64_t)1 << 40))
        continue;
      Gm gm;
      gm_reset(&gm);
      AscLaunchError err;
      report(launch_probe(&kn, &gm, v, 0, &err) == ASC_ERR_KERNEL, __FILE__,
             __LINE__, "%s, v = %lld: accepted", pr->name, (long long)v);
    }
    kernel_free(&kn);
  }
}

/* ---- loops at the int64 limits ------------------------------------------- */

static const char *const LOOP_KERNEL =
    "module @probe {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: !asc.global_address<i64>, %lo: i64, %hi: i64, %step: i64):\n"
    "    %g = \"asc.global_tensor\"() : () -> !asc.global_tensor<i64> "
    "loc(\"loop.py\":1:0)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%g, %x) : "
    "(!asc.global_tensor<i64>, !asc.global_address<i64>) -> () "
    "loc(\"loop.py\":1:0)\n"
    "    %c0 = \"arith.constant\"() {value = 0 : i64} : () -> i64 "
    "loc(\"loop.py\":2:0)\n"
    "    %c1 = \"arith.constant\"() {value = 1 : i64} : () -> i64 "
    "loc(\"loop.py\":2:0)\n"
    "    %count = \"scf.for\"(%lo, %hi, %step, %c0) ({\n"
    "    ^bb0(%i: i64, %acc: i64):\n"
    "      %acc_1 = \"arith.add\"(%acc, %c1) : (i64, i64) -> i64 "
    "loc(\"loop.py\":4:0)\n"
    "      \"scf.yield\"(%acc_1) : (i64) -> () loc(\"loop.py\":3:0)\n"
    "    }) : (i64, i64, i64, i64) -> i64 loc(\"loop.py\":3:0)\n"
    "    \"asc.global_tensor.set_value\"(%g, %c0, %count) : "
    "(!asc.global_tensor<i64>, i64, i64) -> () loc(\"loop.py\":5:0)\n"
    "    \"func.return\"() : () -> () loc(\"loop.py\":6:0)\n"
    "  }) {sym_name = \"probe\", kernel = 1 : i64, res_types = []} : () -> "
    "() loc(\"loop.py\":1:0)\n"
    "}\n";

static AscStatus launch_loop(const Kernel *kn, int64_t lo, int64_t hi,
                             int64_t step, int64_t max_steps, int64_t *count,
                             AscLaunchError *err) {
  AscLaunchArg a[4];
  memset(a, 0, sizeof a);
  a[0].kind = ASC_ARG_GM;
  a[0].ptr = count;
  a[0].nbytes = sizeof *count;
  int64_t v[3] = {lo, hi, step};
  for (int i = 0; i < 3; i++) {
    a[i + 1].kind = ASC_ARG_INT;
    a[i + 1].i = v[i];
  }
  AscLaunchOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.workers = 1;
  opt.max_steps = max_steps;
  *count = -1;
  return asc_kernel_launch(kn->k, asc_platform_get("Ascend910B1"), 1, a, 4,
                           &opt, err);
}

static void test_loops(void) {
  Kernel kn;
  if (!kernel_from_text(&kn, LOOP_KERNEL, "loop")) {
    kernel_free(&kn);
    return;
  }
  static const struct {
    int64_t lo, hi, step, count;
  } cases[] = {
      {INT64_MAX - 7, INT64_MAX, 3, 3}, /* MAX-7, MAX-4, MAX-1 */
      {INT64_MAX - 1, INT64_MAX, 1, 1},
      {INT64_MAX - 10, INT64_MAX, INT64_MAX, 1},
      {INT64_MIN + 7, INT64_MIN, -3, 3},
      {INT64_MIN + 1, INT64_MIN, INT64_MIN, 1},
      {0, 10, 3, 4},
      {10, 0, -3, 4},
      {0, INT64_MAX, INT64_MAX / 2 + 1, 2},
      {-5, 5, INT64_MAX, 1},
      {5, 5, 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int64_t count;
    AscLaunchError err;
    AscStatus s = launch_loop(&kn, cases[i].lo, cases[i].hi, cases[i].step, 0,
                              &count, &err);
    report(s == ASC_OK && count == cases[i].count, __FILE__, __LINE__,
           "range(%lld, %lld, %lld): status %d, %lld iterations, want %lld",
           (long long)cases[i].lo, (long long)cases[i].hi,
           (long long)cases[i].step, (int)s, (long long)count,
           (long long)cases[i].count);
  }
  /* the step budget ends a loop of 2^62 iterations at the loop's line */
  int64_t count;
  AscLaunchError err;
  AscStatus s = launch_loop(&kn, 0, (int64_t)1 << 62, 1, 100000, &count, &err);
  CHECK_EQ(s, ASC_ERR_KERNEL);
  CHECK_HAS(err.message, "step budget");
  CHECK(err.loc.line == 3 || err.loc.line == 4);
  CHECK_EQ(count, -1); /* the store after the loop never ran */
  /* a budget the loop fits in changes nothing */
  s = launch_loop(&kn, 0, 1000, 1, 100000, &count, &err);
  CHECK(s == ASC_OK && count == 1000);
  kernel_free(&kn);
}

/* ---- the interrupt callback ---------------------------------------------- */

typedef struct Poll {
  int calls, cancel_after;
} Poll;

static int count_polls(void *ctx) {
  Poll *p = ctx;
  return ++p->calls >= p->cancel_after;
}

static int64_t ms_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_interrupt(void) {
  Kernel kn;
  if (!kernel_from_text(&kn, LOOP_KERNEL, "loop")) {
    kernel_free(&kn);
    return;
  }
  /* 4 blocks on 2 and on 1 workers, each an endless loop: the second poll
   * cancels; every worker stops, and the launch says it was interrupted */
  for (int workers = 1; workers <= 2; workers++) {
    int64_t out = -1;
    AscLaunchArg a[4];
    memset(a, 0, sizeof a);
    a[0].kind = ASC_ARG_GM;
    a[0].ptr = &out;
    a[0].nbytes = sizeof out;
    int64_t v[3] = {0, INT64_MAX, 1};
    for (int i = 0; i < 3; i++) {
      a[i + 1].kind = ASC_ARG_INT;
      a[i + 1].i = v[i];
    }
    Poll poll = {0, 2};
    AscLaunchOptions opt;
    memset(&opt, 0, sizeof opt);
    opt.workers = workers;
    opt.interrupt = count_polls;
    opt.interrupt_ctx = &poll;
    AscLaunchError err;
    int64_t t0 = ms_now();
    AscStatus s = asc_kernel_launch(kn.k, asc_platform_get("Ascend910B1"), 4, a,
                                    4, &opt, &err);
    int64_t took = ms_now() - t0;
    CHECK_EQ(s, ASC_ERR_INTERRUPTED);
    CHECK_EQ(poll.calls, 2);
    CHECK_EQ(out, -1);
    /* two polls ~100 ms apart; a generous bound for a loaded machine */
    report(took < 3000, __FILE__, __LINE__, "interrupt took %lld ms",
           (long long)took);
  }
  /* a callback that never cancels: the launch completes normally */
  int64_t out = -1;
  AscLaunchArg a[4];
  memset(a, 0, sizeof a);
  a[0].kind = ASC_ARG_GM;
  a[0].ptr = &out;
  a[0].nbytes = sizeof out;
  int64_t v[3] = {0, 100, 1};
  for (int i = 0; i < 3; i++) {
    a[i + 1].kind = ASC_ARG_INT;
    a[i + 1].i = v[i];
  }
  Poll never = {0, 1 << 30};
  AscLaunchOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.workers = 2;
  opt.interrupt = count_polls;
  opt.interrupt_ctx = &never;
  AscLaunchError err;
  CHECK_EQ(asc_kernel_launch(kn.k, asc_platform_get("Ascend910B1"), 3, a, 4,
                             &opt, &err),
           ASC_OK);
  CHECK_EQ(out, 100);
  kernel_free(&kn);
}

/* ---- parameters no launch can pass ------------------------------------- */

static void test_unlaunchable_params(void) {
  static const char *const text =
      "module @probe {\n"
      "  \"func.func\"() ({\n"
      "  ^bb0(%q: !asc.tque<VECIN, 1>):\n"
      "    %c = \"asc.tque.alloc_tensor\"(%q) : (!asc.tque<VECIN, 1>) -> "
      "!asc.local_tensor<f32, VECIN> loc(\"p.py\":2:0)\n"
      "    \"func.return\"() : () -> () loc(\"p.py\":3:0)\n"
      "  }) {sym_name = \"probe\", kernel = 1 : i64, res_types = []} : () -> "
      "() loc(\"p.py\":1:0)\n"
      "}\n";
  AscContext *ctx = asc_context_new();
  AscModule *m = asc_module_parse(ctx, text, "p.ascir");
  AscKernel *k = m ? asc_kernel_compile(m, "probe") : NULL;
  if (k) {
    AscLaunchArg a;
    memset(&a, 0, sizeof a);
    a.kind = ASC_ARG_INT;
    a.i = 0x1000; /* would be dereferenced as a TQue */
    AscLaunchError err;
    CHECK_EQ(asc_kernel_launch(k, asc_platform_get("Ascend910B1"), 1, &a, 1,
                               NULL, &err),
             ASC_ERR_KERNEL);
    CHECK_HAS(err.message, "kernel parameter 0");
  } else {
    CHECK(asc_context_status(ctx) == ASC_ERR_COMPILE); /* rejected earlier */
  }
  asc_kernel_free(k);
  asc_context_free(ctx);
}

int main(void) {
  test_checked_arithmetic();
  test_probes();
  test_loops();
  test_interrupt();
  test_unlaunchable_params();
  printf("test_bounds: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
