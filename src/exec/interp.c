/* The interpreter: runs one block of a kernel over its bytecode
 * (bytecode.h), and checks between instructions whether the block must
 * stop (its step budget, a cancelled launch, an interrupt to poll). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sim/checked.h"
#include "../sim/sim.h"

/* The semantic function of each op-table row. */
static const AscExecFn exec_fns[ASC_OP_COUNT] = {
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  [ASC_OP_##ID] = exec,
#include "../ir/ops.def"
#undef ASC_OP
};

/* The pipe each op-table row issues to (its event's pipe), read from the
 * table once here rather than through asc_op_info per instruction. */
static const uint8_t op_pipes[ASC_OP_COUNT] = {
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  [ASC_OP_##ID] = ASC_PIPE_##pipe,
#include "../ir/ops.def"
#undef ASC_OP
};

/* ---- stopping ------------------------------------------------------------ */

enum {
  /* instructions between two checks of the step budget, the cancel flag
   * and the clock: rare enough to cost nothing, often enough that even
   * instructions of ~100 us each reach the next poll in well under a
   * second */
  CHECK_INTERVAL = 1024,
};

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void asc_control_init(AscLaunchControl *c, const AscLaunchOptions *options) {
  atomic_init(&c->cancelled, 0);
  c->max_steps = options ? options->max_steps : 0;
  c->interrupt = options ? options->interrupt : NULL;
  c->interrupt_ctx = options ? options->interrupt_ctx : NULL;
  c->last_poll_ns = now_ns();
}

int asc_poll_interrupt(AscLaunchControl *c) {
  if (!c->interrupt)
    return 0;
  int64_t t = now_ns();
  if (t - c->last_poll_ns < (int64_t)ASC_INTERRUPT_POLL_MS * 1000000)
    return 0;
  c->last_poll_ns = t;
  if (!c->interrupt(c->interrupt_ctx))
    return 0;
  atomic_store(&c->cancelled, 1);
  return 1;
}

AscStatus asc_block_interrupted(AscBlockState *b) {
  if (b->err->status == ASC_OK) {
    b->err->status = ASC_ERR_INTERRUPTED;
    b->err->block = b->block_idx;
    snprintf(b->err->message, sizeof b->err->message, "launch interrupted");
  }
  return ASC_ERR_INTERRUPTED;
}

/* Called when b->steps reaches b->next_check, with the instruction about
 * to run: fails the block past its step budget, stops it when the launch
 * was cancelled, polls the interrupt callback on the launching thread; sets
 * the next check. */
static AscStatus block_check(AscBlockState *b, const AscInstr *in) {
  AscLaunchControl *c = b->control;
  if (!c) {
    b->next_check = INT64_MAX;
    return ASC_OK;
  }
  if (c->max_steps > 0 && b->steps > c->max_steps) {
    AscExec x = {b, NULL};
    return sim_fail(&x, in,
                    "the block ran more than %lld instructions, its step "
                    "budget (the max_steps option or PYASC_MAX_STEPS): does "
                    "a loop never end?",
                    (long long)c->max_steps);
  }
  if (atomic_load_explicit(&c->cancelled, memory_order_relaxed) ||
      (b->polls_interrupt && asc_poll_interrupt(c)))
    return asc_block_interrupted(b);
  b->next_check = b->steps + CHECK_INTERVAL;
  if (c->max_steps > 0 && b->next_check > c->max_steps + 1)
    b->next_check = c->max_steps + 1;
  return ASC_OK;
}

/* ---- running ------------------------------------------------------------- */

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
  asc_event_start(e, in, (AscPipe)op_pipes[in->op]);
  AscStatus s = exec_fns[in->op](x, in);
  if (!s && e->acc_overflow) /* a bug of the semantic function's records */
    return sim_fail(x, in,
                    "internal error: the instruction touched more than %d "
                    "memory ranges (ASC_EVENT_MAX_ACCESSES in events.h)",
                    ASC_EVENT_MAX_ACCESSES);
  int quiet = e->kind == ASC_EV_OP && !e->n_acc && !e->dc_op &&
              e->dropped <= 0 && !e->has_ov && !e->has_lov;
  for (int i = 0; i < b->n_observers && !s; i++)
    if (b->observers[i].event && !(quiet && b->observers[i].skip_quiet))
      s = b->observers[i].event(b->observers[i].self, b, e);
  return s;
}

static AscStatus call(AscBlockState *b, const AscInstr *in, AscSlot *regs) {
  const AscFunc *callee = &b->kernel->funcs[in->imm];
  AscExec x = {b, regs};
  if (b->call_depth >= ASC_MAX_CALL_DEPTH)
    return sim_fail(&x, in, "device function calls nested deeper than %d",
                    ASC_MAX_CALL_DEPTH);
  int64_t mark = b->stack_used;
  AscSlot *frame = frame_push(b, callee->n_slots);
  if (!frame)
    return sim_fail(&x, in,
                    "device function frames exceed the simulator's stack");
  for (int i = 0; i < in->n_args; i++)
    memcpy(&frame[callee->param_slots[i]], &regs[in->a[i]],
           sizeof(AscSlot) * (size_t)callee->param_widths[i]);
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
  /* family: cores: the instructions of the other core do nothing here */
  const uint8_t *core =
      b->core_table ? b->core_table[fn - b->kernel->funcs] : NULL;
  while (pc < fn->n_code) {
    const AscInstr *in = &code[pc];
    if (++b->steps >= b->next_check) {
      AscStatus s = block_check(b, in);
      if (s)
        return s;
    }
    switch (in->op) {
    case ASC_BC_MOV:
      regs[in->dst] = regs[in->a[0]];
      pc++;
      break;
    case ASC_BC_MOVN:
      memmove(&regs[in->dst], &regs[in->a[0]],
              sizeof(AscSlot) * (size_t)in->imm);
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
      if (s || b->core_done) /* family: matmul: the core left the kernel */
        return s;
      pc++;
      break;
    }
    case ASC_BC_RET:
      if (b->ret_to) /* results side by side, each as wide as its type */
        for (int i = 0, off = 0; i < in->n_args; off += fn->result_widths[i++])
          memcpy(&b->ret_to[off], &regs[in->a[i]],
                 sizeof(AscSlot) * (size_t)fn->result_widths[i]);
      return ASC_OK;
    default: {
      if (core && core[pc] && core[pc] != b->core_bit) { /* family: cores */
        pc++;
        break;
      }
      AscStatus s =
          b->n_observers ? run_observed(b, &x, in) : exec_fns[in->op](&x, in);
      if (s || b->core_done) /* family: matmul: the core left the kernel */
        return s;
      pc++;
    }
    }
  }
  return ASC_OK;
}

AscStatus asc_block_run(AscBlockState *b) {
  int64_t need = b->kernel->frame_slots;
  if (need < 0 || b->stack_size < need) { /* launch.c sizes the stack */
    b->err->status = ASC_ERR_INTERNAL;
    snprintf(b->err->message, sizeof b->err->message,
             "out of memory for the register stack");
    return ASC_ERR_INTERNAL;
  }
  /* every block starts from zeroed registers: the slots a never-written
   * value would read (a tensor's ShapeInfo stamp) then hold nothing of an
   * earlier block or launch on this worker */
  memset(b->stack, 0, sizeof *b->stack * (size_t)need);
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
      s->t.l2_bypass = 0;
    } else if (a->kind == ASC_ARG_INT) {
      s->i = a->i;
    } else if (a->kind == ASC_ARG_STRUCT) { /* launch.c checked the fields */
      for (int f = 0; f < a->n_fields; f++) {
        if (a->fields[f].kind == ASC_ARG_FLOAT)
          s[f].f = a->fields[f].f;
        else
          s[f].i = a->fields[f].i;
      }
    } else {
      s->f = a->f;
    }
  }
  return run(b, k, regs);
}
