/* family: adv math. The numerics of the devkit's transcendental math
 * library (adv_math_fn.h). Placeholder: no API implemented yet. */
#include "adv_math_fn.h"

int sim_adv_math_fn(int api, AscDType dt, float *v, int64_t n, float *scratch) {
  (void)api, (void)dt, (void)v, (void)n, (void)scratch;
  return 0;
}

const SimAdvStep *sim_adv_math_steps(int api, AscDType dt, int *n_steps) {
  (void)api, (void)dt;
  *n_steps = 0;
  return NULL;
}

int64_t sim_adv_math_min_tmp(int api, AscDType dt, int64_t n) {
  (void)api, (void)dt, (void)n;
  return 0;
}
