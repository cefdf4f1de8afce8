/* family: adv math. The plumbing of asc.adv.acos ... asc.adv.xor
 * (adv_math.c): the element types the Ascend910B's devkit takes, the
 * temporary-buffer sizes, and the numerics of the APIs this family computes
 * itself (adv_math_simple.c: Exp, Log, Power, Sign, Floor, Ceil, Round,
 * Trunc, Frac, Axpy, Xor); the transcendental ones are adv_math_fn.c's. */
#ifndef ASC_SIM_ADV_MATH_H
#define ASC_SIM_ADV_MATH_H

#include <stdint.h>

#include "adv_math_fn.h"
#include "asc/dtype.h"
#include "vec_seq.h"

/* The Python name of api ("asc.adv.acos"). */
const char *sim_adv_math_name(int api);
/* Does the devkit take api with a dst of type dst and a src of type src on
 * the Ascend910B? (lower.c's CompileError) */
int sim_adv_math_dtype_ok(int api, AscDType dst, AscDType src);
/* The element types it takes, for that error ("float16, float32"). */
const char *sim_adv_math_dtypes(int api);

/* One basic instruction of a pass of an API this family computes: its
 * op-table row, its label, whether it runs on the API's element type or on
 * float (the half APIs compute in float), the buffers it reads and writes
 * (SIM_ADV_SRC / DST / TMP, and SIM_ADV_SRC1 for src1), and whether the
 * devkit puts PipeBarrier<PIPE_V> after it. */
enum { SIM_ADV_SRC1 = 8 };
typedef struct SimAdvPlanStep {
  int op;
  const char *label;
  uint8_t on_float, reads, writes, barrier;
  /* the times a data-dependent loop of the devkit issues it (int32 Power),
   * shown as one instruction of that many times the elements (>= 1) */
  int64_t times;
} SimAdvPlanStep;

enum { SIM_ADV_PLAN_MAX = 64 };

/* One call of an API this family computes (adv_math_simple.c). */
typedef struct SimAdvCall {
  int api;
  AscDType dt;     /* src's element type */
  AscDType dst_dt; /* dst's (Axpy: float with a half src) */
  int64_t n;       /* elements */
  uint8_t *dst, *src, *src1;
  double scalar; /* Axpy's, already the src type's value */
  int reuse, level;
} SimAdvCall;

/* The numerics of c (n elements), instruction by instruction; 0 when out
 * of host memory. (int32 Power: -1 for an exponent of INT32_MIN, on which
 * the devkit's loop never ends.) */
int sim_adv_simple_compute(const SimAdvCall *c);
/* The instructions of one pass of c's API, *n of them (<= SIM_ADV_PLAN_MAX). */
void sim_adv_simple_plan(const SimAdvCall *c, SimAdvPlanStep *steps, int *n);
/* The devkit's minimum temporary buffer (bytes; 0: none needed). */
int64_t sim_adv_simple_min_tmp(int api, AscDType dt, int reuse, int level);
/* Elements per pass over a temporary buffer of tmp_bytes (the devkit's
 * split); n when the devkit makes one pass whatever the buffer. */
int64_t sim_adv_simple_pass(int api, AscDType dt, AscDType dst_dt, int reuse,
                            int level, int64_t tmp_bytes, int64_t n);

#endif
