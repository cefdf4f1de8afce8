/* family: cube. The unit flag of Mmad and Fixpipe (MmadParams.unitFlag,
 * FixpipeParamsV220.unitFlag, 2 or 3): the hardware orders the two
 * instructions on their L0C data by itself, fractal by fractal (the
 * devkit's UnitFlag page), so a kernel that enables it on both needs no
 * M_FIX / FIX_M flags.
 *
 * The observers see it as an implicit queue of one L0C buffer between the
 * M and FIX pipes, the protocol a TQue's syncs already follow: a unit-flag
 * Mmad waits for the last unit-flag Fixpipe to have read L0C (ALLOC) and
 * signals its results (ENQUE); a unit-flag Fixpipe waits for them (DEQUE)
 * and signals that it has read them (FREE). The waits are shown before the
 * instruction's own event, the signals after it (sub-events). Values are
 * unchanged: the simulator runs instructions in program order. Modes 2
 * (keep the L0C block occupied) and 3 (release it) order the same here. */
#include "cube.h"

static void que_event(AscBlockState *b, AscQueOp op, AscPipe pipe) {
  AscEvent *e = &b->ev;
  e->kind = ASC_EV_QUE;
  e->que_op = op;
  e->que = &b->unit_flag_token;
  e->buffer = 0;
  e->producer = ASC_PIPE_M;
  e->consumer = ASC_PIPE_FIX;
  e->pipe = pipe;
}

AscStatus sim_unit_flag_begin(AscExec *x, const AscInstr *in, int is_mmad) {
  AscBlockState *b = x->b;
  if (!b->n_observers)
    return ASC_OK;
  AscPipe own = is_mmad ? ASC_PIPE_M : ASC_PIPE_FIX;
  que_event(b, is_mmad ? ASC_QUE_ALLOC : ASC_QUE_DEQUE, own);
  return sim_emit_event(x, in); /* then the instruction's own event */
}

AscStatus sim_unit_flag_end(AscExec *x, const AscInstr *in, int is_mmad) {
  AscBlockState *b = x->b;
  if (!b->n_observers)
    return ASC_OK;
  AscPipe own = is_mmad ? ASC_PIPE_M : ASC_PIPE_FIX;
  AscStatus s = sim_emit_event(x, in); /* the instruction's own event */
  if (s)
    return s;
  que_event(b, is_mmad ? ASC_QUE_ENQUE : ASC_QUE_FREE, own);
  return ASC_OK; /* the interpreter shows the signal as the last event */
}
