/* Unit test of the sanitizer (src/sim/sanitizer.c): kernels written as IR
 * text, compiled, launched with the sanitizer's observer, and every report
 * checked for its kind, block, lines, pipes, bytes and fix. Run under
 * AddressSanitizer / UndefinedBehaviorSanitizer by tests/run.sh, with
 * several worker threads, so the shadow pool and the reports are
 * exercised concurrently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "sim/sanitizer.h"
#include "sim/sanitizer_map.h"

#include "check.h"

/* ---- kernels --------------------------------------------------------------
 * k(x, z, n): a = UB[0, 4n) VECIN, b = UB[4096, ...) VECCALC,
 * c = UB[8192, ...) VECOUT; z_gm starts at block_idx * n. */
static const char HEAD[] =
    "module @t {\n"
    "  \"func.func\"() ({\n"
    "  ^bb0(%x: !asc.global_address<f32>, %z: !asc.global_address<f32>, "
    "%n: i32):\n"
    "    %x_gm = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
    "loc(\"k.py\":2:4)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%x_gm, %x) : "
    "(!asc.global_tensor<f32>, !asc.global_address<f32>) -> () "
    "loc(\"k.py\":2:4)\n"
    "    %bi = \"asc.get_block_idx\"() : () -> i64 loc(\"k.py\":3:4)\n"
    "    %n64 = \"arith.cast\"(%n) : (i32) -> i64 loc(\"k.py\":3:4)\n"
    "    %off = \"arith.mul\"(%bi, %n64) : (i64, i64) -> i64 "
    "loc(\"k.py\":3:4)\n"
    "    %zb = \"asc.global_address.offset\"(%z, %off) : "
    "(!asc.global_address<f32>, i64) -> !asc.global_address<f32> "
    "loc(\"k.py\":3:4)\n"
    "    %z_gm = \"asc.global_tensor\"() : () -> !asc.global_tensor<f32> "
    "loc(\"k.py\":3:4)\n"
    "    \"asc.global_tensor.set_global_buffer\"(%z_gm, %zb) : "
    "(!asc.global_tensor<f32>, !asc.global_address<f32>) -> () "
    "loc(\"k.py\":3:4)\n"
    "    %c0 = \"arith.constant\"() {value = 0 : i32} : () -> i32 "
    "loc(\"k.py\":4:4)\n"
    "    %c4096 = \"arith.constant\"() {value = 4096 : i32} : () -> i32 "
    "loc(\"k.py\":4:4)\n"
    "    %c8192 = \"arith.constant\"() {value = 8192 : i32} : () -> i32 "
    "loc(\"k.py\":4:4)\n"
    "    %c13 = \"arith.constant\"() {value = 13 : i32} : () -> i32 "
    "loc(\"k.py\":4:4)\n"
    "    %a = \"asc.local_tensor\"(%c0, %n) : (i32, i32) -> "
    "!asc.local_tensor<f32, VECIN> loc(\"k.py\":5:4)\n"
    "    %b = \"asc.local_tensor\"(%c4096, %n) : (i32, i32) -> "
    "!asc.local_tensor<f32, VECCALC> loc(\"k.py\":5:4)\n"
    "    %c = \"asc.local_tensor\"(%c8192, %n) : (i32, i32) -> "
    "!asc.local_tensor<f32, VECOUT> loc(\"k.py\":5:4)\n";

static const char TAIL[] =
    "    \"func.return\"() : () -> () loc(\"k.py\":99:4)\n"
    "  }) {sym_name = \"k\", kernel = 1 : i64, res_types = []} : () -> () "
    "loc(\"k.py\":1:0)\n"
    "}\n";

/* Statements of the body, each on Python line `line` of k.py. */
#define LOC(line) " loc(\"k.py\":" #line ":4)\n"
#define COPY_IN(line)                                                          \
  "    \"asc.data_copy.gm_to_local\"(%a, %x_gm, %n) : "                        \
  "(!asc.local_tensor<f32, VECIN>, !asc.global_tensor<f32>, i32) -> ()" LOC(   \
      line)
#define COPY_IN_13(line)                                                       \
  "    \"asc.data_copy.gm_to_local\"(%a, %x_gm, %c13) : "                      \
  "(!asc.local_tensor<f32, VECIN>, !asc.global_tensor<f32>, i32) -> ()" LOC(   \
      line)
#define ADD(line)                                                              \
  "    \"asc.add\"(%c, %a, %a, %n) : (!asc.local_tensor<f32, VECOUT>, "        \
  "!asc.local_tensor<f32, VECIN>, !asc.local_tensor<f32, VECIN>, i32) -> "     \
  "()" LOC(line)
#define COPY_OUT(line)                                                         \
  "    \"asc.data_copy.local_to_gm\"(%z_gm, %c, %n) : "                        \
  "(!asc.global_tensor<f32>, !asc.local_tensor<f32, VECOUT>, i32) -> ()" LOC(  \
      line)
#define COPY_A_TO_X(line)                                                      \
  "    \"asc.data_copy.local_to_gm\"(%x_gm, %a, %n) : "                        \
  "(!asc.global_tensor<f32>, !asc.local_tensor<f32, VECIN>, i32) -> ()" LOC(   \
      line)
#define FLAG(op, ev, line)                                                     \
  "    \"asc." op "\"(%c0) {event = #asc<HardEvent " ev                        \
  ">} : (i32) -> ()" LOC(line)
#define SET(ev, line) FLAG("set_flag", ev, line)
#define WAIT(ev, line) FLAG("wait_flag", ev, line)
#define BARRIER(pipe, line)                                                    \
  "    \"asc.pipe_barrier\"() {pipe = #asc<PipeID " pipe                       \
  ">} : () -> ()" LOC(line)
#define GET_A(line)                                                            \
  "    %v" #line " = \"asc.local_tensor.get_value\"(%a, %c0) : "               \
  "(!asc.local_tensor<f32, VECIN>, i32) -> f32" LOC(line)

typedef struct Run {
  AscContext *ctx;
  AscKernel *k;
  AscSanitizer *san;
  AscLaunchError err;
  AscStatus status;
  float x[256], z[4096];
} Run;

/* Compiles HEAD + body + TAIL and launches it on core_num blocks. */
static Run *run(const char *body, int core_num, AscSanMode mode, int flags) {
  Run *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  for (int i = 0; i < 256; i++)
    r->x[i] = (float)i;
  size_t n = strlen(HEAD) + strlen(body) + strlen(TAIL) + 1;
  char *text = malloc(n);
  if (!text) {
    free(r);
    return NULL;
  }
  snprintf(text, n, "%s%s%s", HEAD, body, TAIL);
  r->ctx = asc_context_new();
  AscModule *m = asc_module_parse(r->ctx, text, "t.ascir");
  free(text);
  r->k = m ? asc_kernel_compile(m, "k") : NULL;
  if (!r->k) {
    printf("  compile error: %s\n", asc_context_message(r->ctx));
    r->status = ASC_ERR_COMPILE;
    return r;
  }
  AscLaunchArg args[3];
  memset(args, 0, sizeof args);
  args[0].kind = ASC_ARG_GM;
  args[0].ptr = r->x;
  args[0].nbytes = sizeof r->x;
  args[1].kind = ASC_ARG_GM;
  args[1].ptr = r->z;
  args[1].nbytes = sizeof r->z;
  args[2].kind = ASC_ARG_INT;
  args[2].i = 64;
  r->san = asc_sanitizer_new(mode, flags, core_num);
  AscLaunchOptions opt;
  memset(&opt, 0, sizeof opt);
  opt.workers = 2;
  opt.observers = asc_sanitizer_observer(r->san);
  opt.n_observers = 1;
  r->status = asc_kernel_launch(r->k, asc_platform_get("Ascend910B1"), core_num,
                                args, 3, &opt, &r->err);
  r->status = asc_sanitizer_finish(r->san, r->status, &r->err);
  return r;
}

static void run_free(Run *r) {
  if (!r)
    return;
  asc_sanitizer_free(r->san);
  asc_kernel_free(r->k);
  asc_context_free(r->ctx);
  free(r);
}

static const AscSanReport *only_report(const Run *r) {
  return r && r->san && asc_sanitizer_count(r->san) == 1
             ? asc_sanitizer_report(r->san, 0)
             : NULL;
}

/* ---- tests --------------------------------------------------------------- */

static void test_clean_pipeline(void) {
  Run *r = run(COPY_IN(10) SET("MTE2_V", 11) WAIT("MTE2_V", 12) ADD(13)
                   SET("V_MTE3", 14) WAIT("V_MTE3", 15) COPY_OUT(16),
               8, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  CHECK_EQ(asc_sanitizer_count(r->san), 0);
  CHECK_EQ(asc_sanitizer_error_index(r->san), -1);
  int ok = 1;
  for (int b = 0; b < 8; b++)
    for (int i = 0; i < 64; i++)
      ok &= r->z[b * 64 + i] == 2.0f * (float)i;
  CHECK(ok);
  run_free(r);
}

static void test_race_between_pipes(void) {
  Run *r =
      run(COPY_IN(10) ADD(13) SET("V_MTE3", 14) WAIT("V_MTE3", 15) COPY_OUT(16),
          4, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  CHECK_EQ(r->err.status, ASC_ERR_SANITIZER);
  CHECK_EQ(r->err.block, 0);
  CHECK_EQ(r->err.loc.line, 13);
  CHECK_STREQ(r->err.op_name, "asc.add");
  CHECK_HAS(r->err.message, "data race on UB between pipes MTE2 and V");
  CHECK_HAS(r->err.message, "fix: insert `asc.set_flag(asc.HardEvent.MTE2_V, "
                            "0)` after line 10 and `asc.wait_flag(asc."
                            "HardEvent.MTE2_V, 0)` before line 13");
  const AscSanReport *rep = only_report(r);
  CHECK(rep != NULL);
  if (rep) {
    CHECK_EQ(rep->kind, ASC_SAN_RACE);
    CHECK_EQ(rep->warning, 0);
    CHECK_EQ(rep->block, 0);
    CHECK_EQ(rep->loc.line, 13);
    CHECK_EQ(rep->loc2.line, 10);
    CHECK_STREQ(rep->op2, "asc.data_copy.gm_to_local");
    CHECK_EQ(rep->pipe, ASC_PIPE_V);
    CHECK_EQ(rep->pipe2, ASC_PIPE_MTE2);
    CHECK_EQ(rep->space, ASC_SPACE_UB);
    CHECK_EQ(rep->lo, 0);
    CHECK_EQ(rep->hi, 256);
    CHECK_EQ(asc_sanitizer_error_index(r->san), 0);
  }
  for (int i = 0; i < 4 * 64; i++)
    if (r->z[i] != 0.0f) {
      CHECK(!"no block got past its race");
      break;
    }
  run_free(r);

  /* warn mode: every block runs to the end; one report for the pair */
  r = run(COPY_IN(10) ADD(13) SET("V_MTE3", 14) WAIT("V_MTE3", 15) COPY_OUT(16),
          4, ASC_SAN_WARN, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  rep = only_report(r);
  CHECK(rep && rep->kind == ASC_SAN_RACE && rep->block == 0);
  CHECK(r->z[3 * 64 + 5] == 10.0f);
  run_free(r);

  /* off: no observer needed, but the sanitizer object must be harmless */
  r = run(COPY_IN(10) ADD(13) COPY_OUT(16), 2, ASC_SAN_OFF, 0);
  CHECK_EQ(r->status, ASC_OK);
  run_free(r);
}

static void test_barriers(void) {
  /* PIPE_ALL orders everything before it before everything after it */
  Run *r = run(COPY_IN(10) BARRIER("PIPE_ALL", 11) ADD(13)
                   BARRIER("PIPE_ALL", 14) COPY_OUT(16),
               2, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_OK);
  CHECK_EQ(asc_sanitizer_count(r->san), 0);
  run_free(r);
  /* a barrier of one pipe orders that pipe only */
  r = run(COPY_IN(10) BARRIER("PIPE_V", 11) ADD(13) BARRIER("PIPE_ALL", 14)
              COPY_OUT(16),
          1, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  CHECK_EQ(r->err.loc.line, 13);
  run_free(r);
  /* copies to the same UB on MTE2 need PipeBarrier<PIPE_MTE2> */
  r = run(COPY_IN(10) COPY_IN(11) BARRIER("PIPE_ALL", 12), 1, ASC_SAN_ERROR,
          ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  CHECK_HAS(r->err.message, "within pipe MTE2");
  CHECK_HAS(r->err.message, "asc.pipe_barrier(asc.PipeID.PIPE_MTE2)");
  run_free(r);
  r = run(COPY_IN(10) BARRIER("PIPE_MTE2", 11) COPY_IN(12), 1, ASC_SAN_ERROR,
          ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  run_free(r);
}

static void test_scalar_unit(void) {
  /* get_value after a copy: ordered by the compiler under auto-sync */
  Run *r = run(COPY_IN(10) GET_A(12), 1, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  run_free(r);
  r = run(COPY_IN(10) GET_A(12), 1, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  const AscSanReport *rep = only_report(r);
  CHECK(rep && rep->pipe == ASC_PIPE_S && rep->pipe2 == ASC_PIPE_MTE2);
  CHECK_HAS(r->err.message, "asc.HardEvent.MTE2_S");
  run_free(r);
  /* a wait of the scalar unit orders every later instruction */
  r = run(COPY_IN(10) SET("MTE2_S", 11) WAIT("MTE2_S", 12) GET_A(13) ADD(14), 1,
          ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_OK);
  run_free(r);
}

static void test_uninitialised_read(void) {
  Run *r = run(COPY_OUT(16), 1, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  const AscSanReport *rep = only_report(r);
  CHECK(rep != NULL);
  if (rep) {
    CHECK_EQ(rep->kind, ASC_SAN_UNINIT);
    CHECK_EQ(rep->loc.line, 16);
    CHECK_EQ(rep->lo, 8192);
    CHECK_EQ(rep->hi, 8192 + 256);
    CHECK_HAS(rep->message, "uninitialised read");
  }
  run_free(r);
  /* a write nobody read is named as the buffer probably meant */
  r = run(COPY_IN(10) SET("MTE2_MTE3", 11) WAIT("MTE2_MTE3", 12) COPY_OUT(16),
          1, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  rep = only_report(r);
  CHECK(rep && rep->kind == ASC_SAN_UNINIT && rep->loc2.line == 10);
  CHECK_HAS(r->err.message, "read the buffer that line 10 wrote");
  run_free(r);
}

static void test_sync_misuse(void) {
  Run *r = run(WAIT("MTE2_V", 10) SET("MTE2_V", 11), 1, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  CHECK_EQ(r->err.loc.line, 10);
  CHECK_HAS(r->err.message, "deadlock");
  run_free(r);
  r = run(SET("MTE2_V", 10) SET("MTE2_V", 11) WAIT("MTE2_V", 12)
              WAIT("MTE2_V", 13),
          1, ASC_SAN_ERROR, 0);
  const AscSanReport *rep = only_report(r);
  CHECK(rep && rep->kind == ASC_SAN_SYNC && rep->loc.line == 11 &&
        rep->loc2.line == 10);
  run_free(r);
  r = run(SET("V_MTE3", 10), 3, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  CHECK_EQ(r->err.block, 0);
  CHECK_HAS(r->err.message, "never waited for");
  run_free(r);
  /* a wait on the scalar unit with no set: the simulator's own deadlock */
  r = run(WAIT("V_S", 10), 1, ASC_SAN_ERROR, 0);
  CHECK_EQ(r->status, ASC_ERR_KERNEL);
  CHECK_EQ(asc_sanitizer_count(r->san), 0);
  run_free(r);
}

static void test_misaligned_copy_is_a_warning(void) {
  Run *r = run(COPY_IN_13(10) BARRIER("PIPE_ALL", 11), 2, ASC_SAN_ERROR,
               ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  const AscSanReport *rep = only_report(r);
  CHECK(rep != NULL);
  if (rep) {
    CHECK_EQ(rep->kind, ASC_SAN_ALIGN);
    CHECK_EQ(rep->warning, 1);
    CHECK_EQ(rep->block, 0);
    CHECK_HAS(rep->message, "the last 20 bytes are not copied");
    CHECK_HAS(rep->fix, "16 instead of 13");
  }
  run_free(r);
}

static void test_race_between_cores(void) {
  /* every block reads x[0, n) and writes it back */
  Run *r = run(COPY_IN(10) SET("MTE2_MTE3", 11) WAIT("MTE2_MTE3", 12)
                   COPY_A_TO_X(13),
               16, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_ERR_SANITIZER);
  const AscSanReport *rep = only_report(r);
  CHECK(rep != NULL);
  if (rep) {
    CHECK_EQ(rep->kind, ASC_SAN_CORE_RACE);
    CHECK_EQ(rep->block, 0);
    CHECK_EQ(rep->block2, 1);
    CHECK_EQ(rep->space, ASC_SPACE_GM);
    CHECK_EQ(rep->buf, 0);
    CHECK_EQ(rep->lo, 0);
    CHECK_EQ(rep->hi, 256);
  }
  CHECK_EQ(r->err.block, 0);
  CHECK_HAS(r->err.message, "data race on GM between blocks 0 and 1");
  run_free(r);
  /* one block alone cannot race with itself */
  r = run(COPY_IN(10) SET("MTE2_MTE3", 11) WAIT("MTE2_MTE3", 12)
              COPY_A_TO_X(13),
          1, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
  CHECK_EQ(r->status, ASC_OK);
  run_free(r);
}

static void test_many_launches(void) {
  /* the shadow pool is reused: later launches start from a clean state */
  for (int i = 0; i < 20; i++) {
    Run *r =
        run(i % 2 ? COPY_IN(10) ADD(13)
                  : COPY_IN(10) SET("MTE2_V", 11) WAIT("MTE2_V", 12) ADD(13),
            3, ASC_SAN_ERROR, ASC_SAN_AUTO_SYNC);
    CHECK_EQ(r->status, i % 2 ? ASC_ERR_SANITIZER : ASC_OK);
    run_free(r);
  }
}

/* ---- the shadow's maps (sanitizer_map.h) -----------------------------------
 * Random operations on a map and a set, in run form and past the runs'
 * limit in dense form, against plain arrays: every answer must match. */

static uint32_t rnd_state = 12345;
static uint32_t rnd(uint32_t n) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return (rnd_state >> 8) % n;
}

static int runs_ok(const SanRun *r, int n) {
  for (int k = 0; k < n; k++) {
    if (r[k].lo >= r[k].hi || !r[k].v)
      return 0;
    if (k && (r[k - 1].hi > r[k].lo ||
              (r[k - 1].hi == r[k].lo && r[k - 1].v == r[k].v)))
      return 0; /* sorted, disjoint, equal neighbours merged */
  }
  return 1;
}

static void test_shadow_maps(void) {
  enum { U = 300 };
  static uint32_t ref[U];
  static uint8_t bits[8 * U];
  SanMap m;
  SanSet st;
  san_map_init(&m, U);
  san_set_init(&st, 8 * U);
  int went_dense = 0, set_dense = 0, bad = 0;
  for (int round = 0; round < 6; round++) {
    memset(ref, 0, sizeof ref);
    memset(bits, 0, sizeof bits);
    san_map_reset(&m);
    san_set_reset(&st);
    uint32_t v = 0;
    /* even rounds: few wide ranges (runs); odd: many small ones (dense) */
    int small = round % 2, ops = small ? 600 : 200;
    for (int op = 0; op < ops; op++) {
      int32_t u0 = (int32_t)rnd(U),
              len = (int32_t)(small ? 1 + rnd(3) : 1 + rnd(80));
      int32_t u1 = u0 + len > U ? U : u0 + len;
      if (rnd(4))
        v++; /* else the same instruction again */
      if (!v)
        v = 1;
      if (!san_map_set(&m, u0, u1, v))
        bad++;
      for (int32_t i = u0; i < u1; i++)
        ref[i] = v;
      int32_t b0 = (int32_t)rnd(8 * U),
              bl = (int32_t)(small ? 1 + rnd(5) : 1 + rnd(300));
      int32_t b1 = b0 + bl > 8 * U ? 8 * U : b0 + bl;
      if (!san_set_add(&st, b0, b1))
        bad++;
      memset(bits + b0, 1, (size_t)(b1 - b0));
      went_dense |= m.dense != NULL;
      set_dense |= st.bits != NULL;
      if (!m.dense && !runs_ok(m.run, m.n))
        bad++;
      /* queries */
      int32_t q0 = (int32_t)rnd(U), q1 = q0 + 1 + (int32_t)rnd(U - q0);
      uint32_t want = 0;
      for (int32_t i = q0; i < q1; i++)
        want = ref[i] > want ? ref[i] : want;
      if (san_map_max(&m, q0, q1) != want)
        bad++;
      uint32_t lim = v > 3 ? v - 1 - rnd(v / 2 + 1) : 0;
      int32_t i = q0, r0 = -1, r1 = -1;
      while (i < q1 && ref[i] <= lim)
        i++;
      uint32_t got = san_map_first_above(&m, q0, q1, lim, &r0, &r1);
      if (i == q1) {
        if (got)
          bad++;
      } else {
        int32_t j = i;
        while (j < q1 && ref[j] == ref[i])
          j++;
        if (got != ref[i] || r0 != i || r1 != j)
          bad++;
      }
      int32_t g0 = (int32_t)rnd(8 * U), g1 = g0 + 1 + (int32_t)rnd(8 * U - g0);
      int32_t x0 = g0, x1, y0 = -1, y1 = -1;
      while (x0 < g1 && bits[x0])
        x0++;
      x1 = x0;
      while (x1 < g1 && !bits[x1])
        x1++;
      int gap = san_set_first_gap(&st, g0, g1, &y0, &y1);
      if (gap != (x0 < g1) || (gap && (y0 != x0 || y1 != x1)))
        bad++;
    }
  }
  CHECK_EQ(bad, 0);
  CHECK(went_dense); /* both forms were exercised */
  CHECK(set_dense);
  /* a reset after the dense form leaves nothing behind */
  san_map_reset(&m);
  san_set_reset(&st);
  int32_t g0 = -1, g1 = -1;
  CHECK_EQ(san_map_max(&m, 0, U), 0);
  CHECK(san_set_first_gap(&st, 0, 8 * U, &g0, &g1) && g0 == 0 && g1 == 8 * U);
  san_map_free(&m);
  san_set_free(&st);
}

int main(void) {
  test_clean_pipeline();
  test_race_between_pipes();
  test_barriers();
  test_scalar_unit();
  test_uninitialised_read();
  test_sync_misuse();
  test_misaligned_copy_is_a_warning();
  test_race_between_cores();
  test_many_launches();
  test_shadow_maps();
  printf("sanitizer: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
