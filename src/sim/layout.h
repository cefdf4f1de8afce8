/* The vector unit's broadcast, gather and transpose instructions (family
 * "gather": gather.c, transpose.c): what the lowering checks before a
 * kernel runs, and the UB helpers the two files share. */
#ifndef ASC_SIM_LAYOUT_H
#define ASC_SIM_LAYOUT_H

#include "asc/ops.h"

#include "sim.h"

/* Does op (one of this family's rows) support element type dt on the
 * Ascend910B? (dt: the data's element type, the template's T.) */
int asc_layout_dtype_supported(AscOpId op, AscDType dt);

/* The UB bytes [lo, hi) of an instruction that touches only some of them
 * (strided or scattered blocks): checked against the UB, recorded for the
 * observers as a bounding access; the host pointer of byte lo, NULL after
 * sim_fail. */
uint8_t *sim_ub_span(AscExec *x, const AscInstr *in, int64_t lo, int64_t hi,
                     int write, const char *what);

/* Sets the timing model's work of the running instruction: n elements of
 * es bytes (the mask register is left as it is). */
void sim_layout_work(AscExec *x, int64_t n, int64_t es);

#endif
