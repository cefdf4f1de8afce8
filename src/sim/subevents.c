/* family: matmul. Sub-events: one op-table instruction shown to the
 * observers (timing model, sanitizer) as several events (sim.h).
 *
 * A high-level API such as asc.adv.Matmul runs, on hardware, as a sequence
 * of basic instructions on several pipes. Its semantic function fills
 * b->ev for each of them in turn (the pipe, the accesses, the work) and
 * passes it on with sim_emit_event; the last one is shown by the
 * interpreter as any instruction's event.
 *
 * The observers name an event by its instruction (e->in): its op-table row
 * gives the timing model the cost class, its source op the Python line.
 * Each step of a sequence therefore gets an instruction of its own: a copy
 * of the API's instruction with the basic op's row (DataCopy Nd2Nz,
 * LoadData, Mmad, Fixpipe, SetFlag, WaitFlag) and the API's source op, so
 * the line is the API call's. The observers keep these pointers past the
 * block (the sanitizer's reports name earlier accesses by them), so the
 * copies live as long as the process: a table keyed by the parent
 * instruction's contents (a kernel freed and another one made at the same
 * address finds a copy only if its instruction is the same one). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* imm3 of a step instruction: the marker plus its step (no decoded
 * attribute of a real instruction comes near it). */
#define STEP_MARK ((int64_t)0x5e5e5e5e00000000)

typedef struct SimStep {
  AscInstr in; /* first: a SimStep * is its instruction */
  const AscInstr *parent;
  const char *label;
  int op, step;
  int64_t imm2;
  uint8_t dtype;
} SimStep;

static pthread_mutex_t steps_lock = PTHREAD_MUTEX_INITIALIZER;
static SimStep **steps;
static size_t n_steps, cap_steps;

static uint64_t step_hash(const AscInstr *parent, int op, int step,
                          int64_t imm2, int dtype) {
  uint64_t h = (uint64_t)(uintptr_t)parent * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(op * 131 + step * 7 + dtype) + (uint64_t)imm2 * 1000003u;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

/* The parent's fields a step copies: equal ones make an equal step. */
static int same_parent(const SimStep *s, const AscInstr *p) {
  return s->in.src == p->src && s->in.a == p->a && s->in.dst == p->dst &&
         s->in.imm == p->imm;
}

static int grow(void) {
  size_t cap = cap_steps ? cap_steps * 2 : 256;
  SimStep **t = calloc(cap, sizeof *t);
  if (!t)
    return 0;
  for (size_t i = 0; i < cap_steps; i++)
    if (steps[i]) {
      SimStep *s = steps[i];
      size_t j =
          step_hash(s->parent, s->op, s->step, s->imm2, s->dtype) & (cap - 1);
      while (t[j])
        j = (j + 1) & (cap - 1);
      t[j] = s;
    }
  free(steps);
  steps = t;
  cap_steps = cap;
  return 1;
}

const AscInstr *sim_step_instr(const AscInstr *parent, int op, int step,
                               const char *label, int64_t imm2,
                               AscDType dtype) {
  const AscInstr *r = NULL;
  pthread_mutex_lock(&steps_lock);
  if ((n_steps + 1) * 2 > cap_steps && !grow())
    goto out;
  size_t j = step_hash(parent, op, step, imm2, dtype) & (cap_steps - 1);
  for (; steps[j]; j = (j + 1) & (cap_steps - 1)) {
    SimStep *s = steps[j];
    if (s->parent == parent && s->op == op && s->step == step &&
        s->imm2 == imm2 && s->dtype == dtype) {
      if (!same_parent(s, parent)) { /* a new instruction at the address */
        s->in = *parent;
        s->in.op = (uint16_t)op;
        s->in.dtype = dtype;
        s->in.imm2 = imm2;
        s->in.n_args = 0;
        s->in.imm3 = STEP_MARK + step;
      }
      r = &s->in;
      goto out;
    }
  }
  SimStep *s = malloc(sizeof *s);
  if (!s)
    goto out;
  s->in = *parent;
  s->in.op = (uint16_t)op;
  s->in.dtype = dtype;
  s->in.imm2 = imm2;
  s->in.n_args = 0; /* observers read no operands of it */
  s->in.imm3 = STEP_MARK + step;
  s->parent = parent;
  s->label = label;
  s->op = op;
  s->step = step;
  s->imm2 = imm2;
  s->dtype = dtype;
  steps[j] = s;
  n_steps++;
  r = &s->in;
out:
  pthread_mutex_unlock(&steps_lock);
  return r;
}

static const SimStep *step_of(const AscInstr *in) {
  if (!in || in->imm3 < STEP_MARK || in->imm3 >= STEP_MARK + 4096)
    return NULL;
  return (const SimStep *)in;
}

const char *sim_step_label(const AscInstr *in) {
  const SimStep *s = step_of(in);
  return s ? s->label : NULL;
}

const AscInstr *sim_step_parent(const AscInstr *in) {
  const SimStep *s = step_of(in);
  return s ? s->parent : in;
}

AscStatus sim_emit_event(AscExec *x, const AscInstr *in) {
  AscBlockState *b = x->b;
  AscEvent *e = &b->ev;
  AscStatus s = ASC_OK;
  if (!b->n_observers)
    return ASC_OK;
  if (!in)
    return sim_fail(x, e->in, "out of host memory for a sub-event");
  const AscInstr *shown = e->in;
  e->in = in;
  if (e->acc_overflow)
    s = sim_fail(x, in,
                 "internal error: a step touched more than %d memory "
                 "ranges (ASC_EVENT_MAX_ACCESSES in events.h)",
                 ASC_EVENT_MAX_ACCESSES);
  for (int i = 0; i < b->n_observers && !s; i++)
    if (b->observers[i].event)
      s = b->observers[i].event(b->observers[i].self, b, e);
  /* the next sub-event starts empty, as run_observed starts each event: an
   * OP on the pipe of the instruction's own op-table row */
  asc_event_start(e, shown, asc_op_info((AscOpId)shown->op)->pipe);
  return s;
}
