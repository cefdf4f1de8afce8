/* family: adv math. The numerics of the devkit's transcendental math
 * library (asc.adv.acos ... asc.adv.lgamma) and the basic vector
 * instructions it issues, for the simulator's adv math ops (adv_math.c).
 *
 * The devkit computes these with sequences of basic vector instructions
 * (Muls, Adds, Mul, Div, Exp, Ln, Sqrt, Cast, Compare, Select, ...), each
 * rounding its result to the element type it computes in; a function here
 * repeats that sequence on host floats, rounding as the hardware does, so
 * results match the hardware's rather than libm's. */
#ifndef ASC_SIM_ADV_MATH_FN_H
#define ASC_SIM_ADV_MATH_FN_H

#include <stdint.h>

#include "asc/dtype.h"

/* The adv math APIs: the `sub` of their op-table rows. */
typedef enum {
  ASC_ADV_MATH_ACOS,
  ASC_ADV_MATH_ACOSH,
  ASC_ADV_MATH_ASIN,
  ASC_ADV_MATH_ASINH,
  ASC_ADV_MATH_ATAN,
  ASC_ADV_MATH_ATANH,
  ASC_ADV_MATH_COS,
  ASC_ADV_MATH_COSH,
  ASC_ADV_MATH_SIN,
  ASC_ADV_MATH_SINH,
  ASC_ADV_MATH_TAN,
  ASC_ADV_MATH_TANH,
  ASC_ADV_MATH_ERF,
  ASC_ADV_MATH_ERFC,
  ASC_ADV_MATH_DIGAMMA,
  ASC_ADV_MATH_LGAMMA,
  ASC_ADV_MATH_EXP,
  ASC_ADV_MATH_LOG,
  ASC_ADV_MATH_POWER,
  ASC_ADV_MATH_SIGN,
  ASC_ADV_MATH_FLOOR,
  ASC_ADV_MATH_CEIL,
  ASC_ADV_MATH_ROUND,
  ASC_ADV_MATH_TRUNC,
  ASC_ADV_MATH_FRAC,
  ASC_ADV_MATH_AXPY,
  ASC_ADV_MATH_XOR,
  ASC_ADV_MATH_COUNT
} AscAdvMathApi;

/* The buffers a step reads or writes (bit masks of SimAdvStep). */
enum {
  SIM_ADV_SRC = 1, /* the source (src0) */
  SIM_ADV_DST = 2, /* the destination */
  SIM_ADV_TMP = 4  /* the shared temporary buffer */
};

/* One basic vector instruction of an API's sequence over one pass of
 * elements: its op-table row (ASC_OP_MULS, ASC_OP_EXP, ...; for a Cast the
 * row ASC_OP_CAST), a label naming it in reports ("Acos (Muls)"), the
 * buffers it reads and writes, and whether a half API computes it in float
 * (after a Cast: its work is then float elements, for the timing model). */
typedef struct SimAdvStep {
  int op;
  const char *label;
  uint8_t reads, writes;
  uint8_t on_float;
} SimAdvStep;

/* Floats of scratch per element sim_adv_math_fn may use. */
enum { SIM_ADV_MATH_SCRATCH = 8 };

/* Computes API api for element type dt (ASC_DT_FLOAT16 or ASC_DT_FLOAT32)
 * on the n values v in place: v holds the source converted exactly to
 * float; on return the results, which the caller rounds to dt (for half
 * the devkit's final Cast, round to nearest even). scratch holds
 * SIM_ADV_MATH_SCRATCH * n floats. precision is the launch's AscPrecision
 * (asc/exec.h): with ASC_PRECISION_HARDWARE the Reciprocal steps compute as
 * the basic Reciprocal does then. Returns 0 when this file does not
 * implement api for dt (the caller raises a KernelError naming the API). */
int sim_adv_math_fn(int api, AscDType dt, int precision, float *v, int64_t n,
                    float *scratch);
/* The basic instructions the devkit issues for api on dt per pass over its
 * temporary buffer, *n_steps of them; NULL when not implemented. */
const SimAdvStep *sim_adv_math_steps(int api, AscDType dt, int *n_steps);
/* The bytes of temporary buffer the devkit's GetXxxMaxMinTmpSize gives as
 * the minimum for api on dt and n elements (0: the API needs none). */
int64_t sim_adv_math_min_tmp(int api, AscDType dt, int64_t n);

#endif
