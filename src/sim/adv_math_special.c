/* family: adv math. Erf, Erfc, Digamma, Lgamma as the devkit computes them
 * for Ascend910B (impl/adv_api/detail/math/<name>/), one element at a
 * time, instruction by instruction (adv_math_ops.h). */
#include "adv_math_ops.h"
