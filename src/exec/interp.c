/* The interpreter loop: runs one block of a kernel over its bytecode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/checked.h"
#include "../sim/sim.h"

enum { MAX_CALL_DEPTH = 64 };

/* Takes n slots from the block's frame stack, which asc_block_run sized
 * for the deepest chain of calls (frames must never move). They are not
 * cleared: in verified SSA every slot is written (parameter, constant,
 * loop-carried copy or defining instruction) before it is read, and a
 * device call per tile would otherwise spend its time in memset. */
static AscSlot *frame_push(AscBlockState *b, int n) {
  if (b->stack_used + n > b->stack_size)
    return NULL;
  AscSlot *f = b->stack + b->stack_used;
  b->stack_used += n;
  return f;
}

static AscStatus run(AscBlockState *b, const AscFunc *fn, AscSlot *regs);

/* Runs one op-table instruction and shows its event to the observers. */
static AscStatus run_observed(AscBlockState *b, AscExec *x,
                              const AscInstr *in) {
  AscEvent *e = &b->ev;
  e->in = in;
  e->kind = ASC_EV_OP;
  AscPipe p = asc_op_info((AscOpId)in->op)->pipe;
  e->pipe = p < ASC_PIPE_COUNT ? p : ASC_PIPE_S;
  e->n_acc = 0;
  e->elems = e->bytes = e->dropped = 0;
  AscStatus s = asc_exec_fn(in->op)(x, in);
  for (int i = 0; i < b->n_observers && !s; i++)
    if (b->observers[i].event)
      s = b->observers[i].event(b->observers[i].self, b, e);
  return s;
}

static AscStatus call(AscBlockState *b, const AscInstr *in, AscSlot *regs) {
  const AscFunc *callee = &b->kernel->funcs[in->imm];
  AscExec x = {b, regs};
  if (b->call_depth >= MAX_CALL_DEPTH)
    return sim_fail(&x, in, "device function calls nested deeper than %d",
                    MAX_CALL_DEPTH);
  int64_t mark = b->stack_used;
  AscSlot *frame = frame_push(b, callee->n_slots);
  if (!frame)
    return sim_fail(&x, in,
                    "device function frames exceed the simulator's stack");
  for (int i = 0; i < in->n_args; i++)
    frame[callee->param_slots[i]] = regs[in->a[i]];
  b->call_depth++;
  /* the callee's RET writes straight into our result slots */
  AscSlot *saved_ret = b->ret_to;
  b->ret_to = in->dst >= 0 ? &regs[in->dst] : NULL;
  AscStatus s = run(b, callee, frame);
  b->ret_to = saved_ret;
  b->call_depth--;
  b->stack_used = mark;
  return s;
}

static AscStatus run(AscBlockState *b, const AscFunc *fn, AscSlot *regs) {
  for (int i = 0; i < fn->n_consts; i++)
    regs[fn->const_slots[i]] = fn->const_values[i];
  const AscInstr *code = fn->code;
  AscExec x = {b, regs};
  int pc = 0;
  while (pc < fn->n_code) {
    const AscInstr *in = &code[pc];
    if (++b->steps >= b->next_check) {
      AscStatus s = asc_block_check(b, in);
      if (s)
        return s;
    }
    switch (in->op) {
    case ASC_BC_MOV:
      regs[in->dst] = regs[in->a[0]];
      pc++;
      break;
    case ASC_BC_JMP:
      pc = in->imm;
      break;
    case ASC_BC_JMPF:
      pc = regs[in->a[0]].i ? pc + 1 : in->imm;
      break;
    case ASC_BC_FOR_TEST: {
      int64_t iv = regs[in->a[0]].i, ub = regs[in->a[1]].i;
      int64_t step = regs[in->a[2]].i;
      if (step == 0)
        return sim_fail(&x, in, "range() step must not be zero");
      pc = (step > 0 ? iv < ub : iv > ub) ? pc + 1 : in->imm;
      break;
    }
    case ASC_BC_FOR_NEXT: {
      /* an induction variable that would pass the int64 range has passed
       * the bound too: saturating ends the loop at the next test */
      int64_t *iv = &regs[in->a[0]].i, step = regs[in->a[1]].i;
      if (asc_add_i64(*iv, step, iv))
        *iv = step > 0 ? INT64_MAX : INT64_MIN;
      pc = in->imm;
      break;
    }
    case ASC_BC_CALL: {
      AscStatus s = call(b, in, regs);
      if (s)
        return s;
      pc++;
      break;
    }
    case ASC_BC_RET:
      if (b->ret_to)
        for (int i = 0; i < in->n_args; i++)
          b->ret_to[i] = regs[in->a[i]];
      return ASC_OK;
    default: {
      AscStatus s = b->n_observers ? run_observed(b, &x, in)
                                   : asc_exec_fn(in->op)(&x, in);
      if (s)
        return s;
      pc++;
    }
    }
  }
  return ASC_OK;
}

/* Stack size needed: the deepest chain of frames, calls nested at most
 * MAX_CALL_DEPTH deep (deeper calls fail before pushing a frame). Computed
 * bottom-up over the depth, one pass over the code per level: following
 * every call path instead is exponential when a function has several call
 * sites of a recursive (or shared) callee. Returns -1 when out of memory. */
int64_t asc_frames_needed(const AscKernel *k) {
  int n = k->n_funcs;
  int64_t *buf = calloc((size_t)n * 2, sizeof(int64_t));
  if (!buf)
    return -1;
  /* next[f]: frames for f called at depth d + 1 (zero past the limit) */
  int64_t *next = buf, *cur = buf + n;
  for (int d = MAX_CALL_DEPTH; d >= 0; d--) {
    for (int f = 0; f < n; f++) {
      const AscFunc *fn = &k->funcs[f];
      int64_t deepest = 0;
      for (int i = 0; i < fn->n_code; i++)
        if (fn->code[i].op == ASC_BC_CALL && next[fn->code[i].imm] > deepest)
          deepest = next[fn->code[i].imm];
      cur[f] = fn->n_slots + deepest;
    }
    int64_t *t = next;
    next = cur;
    cur = t;
  }
  int64_t need = next[0];
  free(buf);
  return need;
}

AscStatus asc_block_run(AscBlockState *b) {
  int64_t need = b->kernel->frame_slots;
  if (need < 0 || b->stack_size < need) { /* launch.c sizes the stack */
    b->err->status = ASC_ERR_INTERNAL;
    snprintf(b->err->message, sizeof b->err->message,
             "out of memory for the register stack");
    return ASC_ERR_INTERNAL;
  }
  b->stack_used = 0;
  b->call_depth = 0;
  b->ret_to = NULL;
  b->steps = 0;
  b->next_check = 0; /* the first instruction sets the real checkpoint */
  const AscFunc *k = &b->kernel->funcs[0];
  AscSlot *regs = frame_push(b, k->n_slots);
  for (int i = 0; i < k->n_params && i < b->n_args; i++) {
    const AscLaunchArg *a = &b->args[i];
    AscSlot *s = &regs[k->param_slots[i]];
    const AscType *t = b->kernel->param_types[i];
    if (a->kind == ASC_ARG_GM) {
      s->t.buf = i;
      s->t.addr = 0;
      s->t.len = -1;
      s->t.dtype = (uint8_t)t->dtype;
    } else if (a->kind == ASC_ARG_INT) {
      s->i = a->i;
    } else {
      s->f = a->f;
    }
  }
  return run(b, k, regs);
}
