/* family: adv. A high-level vector API of asc.adv (the math library,
 * SoftMax, RmsNorm, AscendQuant, ...) shown to the observers (timing model,
 * sanitizer) as the sequence of basic vector instructions the devkit's
 * implementation issues, one sub-event each (subevents.c).
 *
 * Use: validate the operands as any vector instruction does
 * (sim_vec_operand), then sim_vseq_begin, then one sim_vseq_op per basic
 * instruction (Muls, Exp, Cast, ReduceMax, ...) with the UB bytes it reads
 * and writes, sim_vseq_barrier where the devkit puts PipeBarrier<PIPE_V>,
 * and sim_vseq_end. Every instruction, the last included, is a step with
 * its own op-table row (so its own cost class); the API's instruction,
 * which the interpreter shows after them, carries no work or access of its
 * own (the timing model gives it one issue slot on the V pipe). Without
 * observers every call only returns, so callers compute the same way with
 * or without them. */
#ifndef ASC_SIM_VEC_SEQ_H
#define ASC_SIM_VEC_SEQ_H

#include "sim.h"

/* UB bytes [addr, addr + bytes) an instruction reads (write 0) or writes */
typedef struct SimUbSpan {
  int64_t addr, bytes;
  int write;
} SimUbSpan;

enum { SIM_VSEQ_MAX_STEPS = 64 };

typedef struct SimVecSeq {
  AscExec *x;
  const AscInstr *in; /* the API's instruction */
  int obs;            /* observers attached */
  /* the distinct steps (op, label, type) seen so far: a step repeated in a
   * loop of the sequence is one sub-instruction (subevents.c keeps each
   * for the process's life) */
  struct {
    int op;
    const char *label;
    AscDType dt;
  } seen[SIM_VSEQ_MAX_STEPS];
  int n_seen;
} SimVecSeq;

/* Starts the sequence of instruction in. The accesses the operand checks
 * recorded are dropped: each step records its own. */
void sim_vseq_begin(SimVecSeq *q, AscExec *x, const AscInstr *in);
/* One basic vector instruction: op-table row op (its cost class and pipe:
 * ASC_OP_MULS, ASC_OP_EXP, ...), element type dt (for a Cast the wider
 * of its two types, which sets its cost), elems elements, `label` naming
 * it in reports ("Acos (Muls)": a string that lives as long as the
 * process), the UB spans it reads and writes. Returns 0 after sim_fail
 * (an observer's report, out of host memory). */
int sim_vseq_op(SimVecSeq *q, int op, AscDType dt, int64_t elems,
                const char *label, const SimUbSpan *spans, int n_spans);
/* PipeBarrier<PIPE_V> between two steps. */
int sim_vseq_barrier(SimVecSeq *q);
/* The end of the sequence: the API's own event is left empty, and the
 * mask register as a level-2 instruction leaves it (sim_vec_work). */
void sim_vseq_end(SimVecSeq *q);

/* The devkit's stack buffer (PopStackBuffer), the temporary of an adv API
 * called without a sharedTmpBuffer: the UB from what the TPipe allocated
 * (ub_used) rounded up to 32 bytes, to the UB's end less the Matmul
 * message (AscPlatform.ub_msg_size). Returns its start and sets *bytes to
 * its size (0 when the start is at or past the end), so a tensor the
 * kernel placed there races with it, as on hardware; -1 after a
 * KernelError when the block made no TPipe (the devkit's PopStackBuffer
 * asserts GetTPipePtr() is not null: a static-tensor kernel has none). */
int64_t sim_adv_stack_buffer(AscExec *x, const AscInstr *in, int64_t *bytes);

#endif
