/* family: adv. A high-level vector API as the devkit's basic instruction
 * sequence (vec_seq.h). */
#include "vec_seq.h"

void sim_vseq_begin(SimVecSeq *q, AscExec *x, const AscInstr *in) {
  q->x = x;
  q->in = in;
  q->obs = x->b->n_observers > 0;
  q->n_seen = 0;
  /* the operand checks recorded the whole operands as the instruction's
   * accesses; the steps record what each of them touches instead */
  x->b->ev.n_acc = 0;
  x->b->ev.acc_overflow = 0;
}

static void record(SimVecSeq *q, const SimUbSpan *spans, int n_spans) {
  for (int i = 0; i < n_spans; i++)
    if (spans[i].bytes > 0)
      sim_record_access(q->x->b, ASC_SPACE_UB, spans[i].write, -1,
                        spans[i].addr, spans[i].addr + spans[i].bytes);
}

/* The step number of (op, label, dt) in the sequence: its first one's. */
static int step_id(SimVecSeq *q, int op, const char *label, AscDType dt) {
  for (int i = 0; i < q->n_seen; i++)
    if (q->seen[i].op == op && q->seen[i].label == label && q->seen[i].dt == dt)
      return i;
  if (q->n_seen == SIM_VSEQ_MAX_STEPS)
    return SIM_VSEQ_MAX_STEPS; /* shares one (a label may be another's) */
  q->seen[q->n_seen].op = op;
  q->seen[q->n_seen].label = label;
  q->seen[q->n_seen].dt = dt;
  return q->n_seen++;
}

int sim_vseq_op(SimVecSeq *q, int op, AscDType dt, int64_t elems,
                const char *label, const SimUbSpan *spans, int n_spans) {
  if (!q->obs)
    return 1;
  const AscInstr *step =
      sim_step_instr(q->in, op, step_id(q, op, label, dt), label, 0, dt);
  AscEvent *e = &q->x->b->ev;
  e->kind = ASC_EV_OP;
  e->pipe = asc_op_info((AscOpId)op)->pipe;
  e->elems = elems;
  e->bytes = elems * (int64_t)asc_dtype_size(dt);
  record(q, spans, n_spans);
  return sim_emit_event(q->x, step) == ASC_OK;
}

int sim_vseq_barrier(SimVecSeq *q) {
  if (!q->obs)
    return 1;
  const AscInstr *step = sim_step_instr(
      q->in, ASC_OP_PIPE_BARRIER,
      step_id(q, ASC_OP_PIPE_BARRIER, NULL, ASC_DT_INT32), "PipeBarrier<V>",
      asc_pipeid_of_pipe(ASC_PIPE_V), ASC_DT_INT32);
  AscEvent *e = &q->x->b->ev;
  e->kind = ASC_EV_BARRIER;
  e->src = ASC_PIPE_V;
  e->pipe = ASC_PIPE_V;
  return sim_emit_event(q->x, step) == ASC_OK;
}

void sim_vseq_end(SimVecSeq *q) {
  AscTensorRef t = {0, -1, -1, (uint8_t)ASC_DT_FLOAT32, 0, 0};
  sim_vec_work(q->x, &t, 0);
}

int64_t sim_adv_stack_buffer(AscExec *x, const AscInstr *in, int64_t *bytes) {
  *bytes = 0;
  if (!x->b->pipe.initialised || x->b->pipe.destroyed) {
    const AscOpInfo *info = in && in->src ? asc_op_info(in->src->id) : NULL;
    sim_fail(x, in,
             "%s without a temporary buffer takes the TPipe's free UB "
             "(PopStackBuffer, which needs GetTPipePtr(): a null pointer on "
             "the NPU when the kernel has no TPipe%s); pass a temp_buffer, or "
             "create the kernel's TPipe first (impl/basic_api/"
             "kernel_pop_stack_buffer.h)",
             info ? info->cpp : "the API",
             x->b->pipe.destroyed ? " or it was destroyed" : "");
    return -1;
  }
  /* ub_used never exceeds the UB's size, so the rounding cannot overflow.
   * The buffer ends where the devkit's GetEndAddress puts it on arch 2201
   * (impl/basic_api/kernel_pop_stack_buffer.h): below the Matmul client's
   * message at the UB's end, so it spans the 8 KiB Ascend C keeps too */
  int64_t start = (x->b->pipe.ub_used + 31) / 32 * 32;
  int64_t end = x->b->ub_size - (int64_t)x->b->platform->ub_msg_size;
  *bytes = end > start ? end - start : 0;
  return start;
}
