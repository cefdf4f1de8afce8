/* family: adv normquant. What asc.adv.rmsnorm (adv_rmsnorm.c) and
 * asc.adv.quant (adv_quant.c) share: the devkit's temporary buffer and
 * their steps over vec_seq.h, which stop at the first failure. */
#ifndef ASC_SIM_ADV_NORMQUANT_H
#define ASC_SIM_ADV_NORMQUANT_H

#include "vec_seq.h"

/* The work space of an API: operand k (a uint8 LocalTensor) when the
 * instruction has it, else the devkit's stack buffer (PopStackBuffer):
 * the UB above what the TPipe allocated, up to the UB's end, so a tensor
 * the kernel placed there races with it, as on hardware. *bytes is its
 * size; NULL after sim_fail. The check records the whole buffer as
 * written (the steps then record what they touch). */
uint8_t *sim_adv_tmp(AscExec *x, const AscInstr *in, int k, int64_t *addr,
                     int64_t *bytes);

/* A sequence of steps; after a failed one the rest do nothing. */
typedef struct SimAdvSeq {
  SimVecSeq q;
  int failed;
} SimAdvSeq;

void sim_adv_begin(SimAdvSeq *s, AscExec *x, const AscInstr *in);
/* One basic instruction (as sim_vseq_op); returns 0 after sim_fail. */
int sim_adv_op(SimAdvSeq *s, int op, AscDType dt, int64_t elems,
               const char *label, const SimUbSpan *spans, int n_spans);
/* PipeBarrier<PIPE_V> */
void sim_adv_barrier(SimAdvSeq *s);
/* Ends the sequence; ASC_ERR_KERNEL when a step failed. */
AscStatus sim_adv_end(SimAdvSeq *s);

/* A span of UB bytes */
static inline SimUbSpan sim_adv_span(int64_t addr, int64_t bytes, int write) {
  SimUbSpan s = {addr, bytes, write};
  return s;
}

#endif
