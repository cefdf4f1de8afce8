/* family: matmul. The quantisation a Matmul's fixpipe applies to a block
 * of C (SetQuantScalar / SetQuantVector; matmul.h). */
#include "matmul.h"

int sim_mm_convert(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                   int64_t n0, int64_t rows, int64_t cols, double *v) {
  (void)n0;
  (void)rows;
  (void)cols;
  (void)v;
  if (m->quant_mode == 0)
    return 1; /* C takes the values as they are (converted on store) */
  sim_fail(x, in,
           "Matmul: set_quant_scalar / set_quant_vector are not "
           "simulated yet");
  return 0;
}
