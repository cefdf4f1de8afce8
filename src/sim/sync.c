/* Synchronisation between the pipes of one core.
 *
 * The model executes instructions in program order, so set/wait pairs do
 * not change results here; what they can do is deadlock. A wait issued to a
 * pipe blocks that pipe until a matching set arrives: if the waiting pipe is
 * the scalar unit itself (events *_S), nothing after it can issue the set,
 * so a wait with no pending set deadlocks at once; on any other pipe a
 * later set may still release it, so the wait is held and reported as a
 * deadlock only if the kernel ends with it still waiting. */
#include <string.h>

#include "sim.h"

/* HardEvent value → destination pipe is the scalar unit. */
static int waits_on_scalar(int64_t event) {
  switch (event) {
  case ASC_HARDEVENT_V_S:
  case ASC_HARDEVENT_MTE2_S:
  case ASC_HARDEVENT_MTE3_S:
  case ASC_HARDEVENT_FIX_S:
  case ASC_HARDEVENT_M_S:
    return 1;
  default:
    return 0;
  }
}

static AscStatus check_event(AscExec *x, const AscInstr *in, int64_t *id) {
  *id = ASC_SLOT(x, in, 0).i;
  int ids = x->b->platform->event_ids;
  if (in->imm2 < 0 || in->imm2 >= ASC_MAX_EVENTS)
    return sim_fail(x, in, "unknown HardEvent %lld", (long long)in->imm2);
  if (*id < 0 || *id >= ids || *id >= ASC_MAX_EVENT_IDS)
    return sim_fail(x, in, "event id %lld out of range [0, %d)", (long long)*id,
                    ids);
  return ASC_OK;
}

/* The event of a set_flag / wait_flag, for the observers (events.h). */
static void flag_event(AscBlockState *b, const AscInstr *in, AscEventKind kind,
                       int64_t id) {
  if (!b->n_observers)
    return;
  AscEvent *e = &b->ev;
  e->kind = kind;
  e->event = in->imm2;
  e->id = id;
  asc_event_pipes(in->imm2, &e->src, &e->dst);
  e->pipe = kind == ASC_EV_SET_FLAG ? e->src : e->dst;
}

AscStatus sim_set_flag(AscExec *x, const AscInstr *in) {
  int64_t id;
  AscStatus s = check_event(x, in, &id);
  if (s)
    return s;
  AscBlockState *b = x->b;
  flag_event(b, in, ASC_EV_SET_FLAG, id);
  if (b->waits[in->imm2][id] > 0) {
    b->waits[in->imm2][id]--; /* releases a held wait */
    return ASC_OK;
  }
  if (b->flags[in->imm2][id] >= 32767)
    return sim_fail(x, in, "too many pending set_flag on one event");
  b->flags[in->imm2][id]++;
  return ASC_OK;
}

AscStatus sim_wait_flag(AscExec *x, const AscInstr *in) {
  int64_t id;
  AscStatus s = check_event(x, in, &id);
  if (s)
    return s;
  AscBlockState *b = x->b;
  flag_event(b, in, ASC_EV_WAIT_FLAG, id);
  if (b->flags[in->imm2][id] > 0) {
    b->flags[in->imm2][id]--;
    return ASC_OK;
  }
  const char *ev = asc_enum_value_name(ASC_ENUM_HARDEVENT, in->imm2);
  if (waits_on_scalar(in->imm2))
    return sim_fail(x, in,
                    "deadlock: wait_flag(HardEvent.%s, %lld) blocks the "
                    "scalar unit but no set_flag for it was issued before",
                    ev, (long long)id);
  if (b->waits[in->imm2][id] == 0)
    b->first_wait[in->imm2][id] = in;
  b->waits[in->imm2][id]++;
  return ASC_OK;
}

AscStatus sim_pipe_barrier(AscExec *x, const AscInstr *in) {
  /* PipeBarrier<PIPE_S> is not supported (PipeBarrier(ISASI).md; the
   * devkit asserts it on arch 2201, impl/basic_api/kernel_reg.h). The
   * front end rejects it at compile time; this catches IR given as text. */
  if (in->imm2 == ASC_PIPEID_PIPE_S)
    return sim_fail(x, in,
                    "pipe_barrier(PIPE_S): PipeBarrier does not support "
                    "PIPE_S (the scalar pipe keeps its own order; on the NPU "
                    "it is a hardware error); remove it, or wait for another "
                    "pipe with set_flag/wait_flag of a *_S HardEvent");
  /* ordering only: results are in program order already */
  AscEvent *e = &x->b->ev;
  e->kind = ASC_EV_BARRIER;
  e->src = asc_pipe_of_pipeid(in->imm2);
  e->pipe = e->src == ASC_PIPE_COUNT ? ASC_PIPE_S : e->src;
  return ASC_OK;
}
