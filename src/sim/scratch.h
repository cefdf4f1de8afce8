/* Host memory that blocks are simulated in: a UB and a register stack per
 * worker thread, from a process-wide pool, so that a launch allocates
 * nothing once the pool holds what it needs. */
#ifndef ASC_SIM_SCRATCH_H
#define ASC_SIM_SCRATCH_H

#include <stdint.h>

#include "../exec/bytecode.h"

typedef struct AscScratch {
  uint8_t *ub;
  int64_t ub_size;
  int64_t dirty; /* UB bytes [0, dirty) may be non-zero */
  AscSlot *stack;
  int64_t stack_size;
  struct AscScratch *next;
} AscScratch;

/* A zeroed UB of ub_size bytes and a stack of at least `slots` register
 * slots; NULL when out of memory. Thread-safe. */
AscScratch *asc_scratch_take(int64_t ub_size, int64_t slots);
/* Back to the pool (which keeps a bounded number; the rest are freed). */
void asc_scratch_give(AscScratch *s);

#endif
