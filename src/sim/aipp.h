/* The AIPP (AI Core pre-processing) state of a block (family: debug), as
 * SetAippFunctions sets it: the source image(s) in GM, their format and the
 * AippParams<U> (its register slots as they were, the output type U). */
#ifndef ASC_SIM_AIPP_H
#define ASC_SIM_AIPP_H

#include "../exec/bytecode.h"

enum { ASC_AIPP_MAX_SLOTS = 48 }; /* AippParams has 37 numbers */

typedef struct AscSimAipp {
  int set;    /* SetAippFunctions ran in this block */
  int format; /* AippInputFormat value */
  int has_src1;
  AscTensorRef src0, src1;
  uint8_t out_dtype; /* U */
  int n_slots;
  AscSlot config[ASC_AIPP_MAX_SLOTS];
} AscSimAipp;

#endif
