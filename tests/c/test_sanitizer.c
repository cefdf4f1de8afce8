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
  printf("sanitizer: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
