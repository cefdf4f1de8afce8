/* The AI Core model: per-block state and the semantic functions that the
 * op table names in its `exec` column (the bytecode they run in is
 * src/exec/bytecode.h).
 *
 * One AscBlockState per block being simulated; it owns the block's local
 * memory and its queues. Register slots hold scalars and tensor handles; a
 * tensor handle is plain data (memory, address, length, dtype), never a
 * pointer into the IR. */
#ifndef ASC_SIM_H
#define ASC_SIM_H

#include <stdatomic.h>
#include <stdint.h>

#include "../exec/bytecode.h"
#include "asc/exec.h"
#include "asc/ir.h"
#include "events.h"
#include "vecmath.h"

/* Scalar arithmetic sub-operations (the op table's `sub` column). */
enum {
  ASC_ARITH_ADD,
  ASC_ARITH_SUB,
  ASC_ARITH_MUL,
  ASC_ARITH_DIV,
  ASC_ARITH_REM,
  ASC_ARITH_AND,
  ASC_ARITH_OR,
  ASC_ARITH_XOR,
  ASC_ARITH_SHL,
  ASC_ARITH_SHR,
  ASC_ARITH_MIN,
  ASC_ARITH_MAX,
  ASC_ARITH_NEG,
  ASC_ARITH_NOT,
  ASC_ARITH_INVERT,
  ASC_ARITH_CAST,
};

/* ---- block state --------------------------------------------------------- */

enum { ASC_MAX_EVENTS = 35, ASC_MAX_EVENT_IDS = 8, ASC_MAX_QUE_BUFS = 64 };

typedef struct AscSimQueue {
  int position;
  int depth;
  int num;                    /* buffers given by init_buffer; 0 until then */
  int64_t len;                /* bytes per buffer */
  int64_t base;               /* UB address of buffer 0 */
  uint64_t allocated;         /* bit i: buffer i handed out by alloc_tensor */
  int cursor;                 /* alloc_tensor's next buffer (round robin) */
  int fifo[ASC_MAX_QUE_BUFS]; /* enqueued buffer indices */
  int fifo_head, fifo_count;
  struct AscSimQueue *next;
} AscSimQueue;

typedef struct AscSimTBuf {
  int position;
  int64_t len;
  int64_t base; /* -1 until init_buffer */
  struct AscSimTBuf *next;
} AscSimTBuf;

typedef struct AscSimPipe {
  int64_t ub_used; /* bump allocator over UB */
  int initialised;
} AscSimPipe;

/* What the workers of one launch share to stop early: the step budget, the
 * interrupt callback the launching thread polls, and the cancel flag every
 * worker checks (launch.c). */
typedef struct AscLaunchControl {
  atomic_int cancelled;
  int64_t max_steps; /* per block; <= 0: none */
  int (*interrupt)(void *ctx);
  void *interrupt_ctx;
  int64_t last_poll_ns; /* touched by the launching thread only */
} AscLaunchControl;

typedef struct AscBlockState {
  const AscKernel *kernel;
  const AscPlatform *platform;
  const AscLaunchArg *args;
  int n_args;
  int block_idx, block_num;
  uint8_t *ub;
  int64_t ub_size;
  int64_t *ub_dirty; /* the scratch's high-water mark of UB accesses */
  int16_t flags[ASC_MAX_EVENTS][ASC_MAX_EVENT_IDS]; /* pending set_flags */
  /* waits issued on a non-scalar pipe before their set_flag */
  int16_t waits[ASC_MAX_EVENTS][ASC_MAX_EVENT_IDS];
  const AscInstr *first_wait[ASC_MAX_EVENTS][ASC_MAX_EVENT_IDS];
  /* framework objects, freed after the block */
  AscSimQueue *queues;
  AscSimTBuf *tbufs;
  int n_objects; /* queues + tbufs */
  AscSimPipe pipe;
  /* register frames, a stack grown on demand */
  AscSlot *stack;
  int64_t stack_size, stack_used;
  int call_depth;
  AscSlot *ret_to; /* where the running device function returns values */
  /* instructions executed; at next_check the interpreter calls
   * asc_block_check (budget, cancel flag, interrupt polling) */
  int64_t steps, next_check;
  AscLaunchControl *control;
  int polls_interrupt;      /* runs on the launching thread */
  int gm_overruns_reported; /* AscLaunchOptions.gm_overruns_reported */
  /* observers (timing model, sanitizer); none: no events are made */
  const AscObserver *observers;
  int n_observers;
  AscEvent ev; /* the event of the running instruction */
  /* first error */
  AscLaunchError *err;
} AscBlockState;

typedef struct AscExec {
  AscBlockState *b;
  AscSlot *regs;
} AscExec;

typedef AscStatus (*AscExecFn)(AscExec *x, const AscInstr *in);

/* Records a KernelError for the running instruction; returns its status. */
AscStatus sim_fail(AscExec *x, const AscInstr *in, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Operand k of in as a tensor handle, or NULL after recording a KernelError
 * when the handle's element type is not the one the operand's IR type says:
 * the bounds checks below size an access by the handle's type and the
 * instruction by its IR type, so the two must agree. (Verified IR cannot
 * retype a tensor; IR text or a damaged cache entry might try.) */
const AscTensorRef *sim_tensor_arg(AscExec *x, const AscInstr *in, int k,
                                   const char *what);
/* Checks that `count` elements of dtype from local tensor t fit both the
 * tensor and the UB; returns a pointer to its first byte or NULL after
 * recording an error. `write` says whether the instruction writes them (for
 * the observers); `what` names the operand in messages. */
uint8_t *sim_local_ptr(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                       int64_t count, int write, const char *what);
/* The part of a GM access that lies inside its kernel argument: `valid`
 * bytes from p (NULL when none), after `skip` bytes of the request that lie
 * before the argument's start; `total` bytes were asked for. */
typedef struct SimGmSpan {
  uint8_t *p;
  int64_t skip, valid, total;
} SimGmSpan;

/* Checks an access of `count` elements of GM tensor t (`write`: also that
 * the argument is writable). Inside the argument: ASC_OK and the whole
 * span. Partly or wholly outside it: when overruns are reported, ASC_OK
 * with the span clamped (the caller reads zeros and drops writes outside
 * it) and the overrun recorded for the sanitizer; else a KernelError. An
 * address no int64 holds is always a KernelError. */
AscStatus sim_gm_span(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                      int64_t count, int write, const char *what,
                      SimGmSpan *span);

/* Normalises an integer to the width and signedness of dt. */
int64_t asc_int_normalize(AscDType dt, int64_t v);
/* Rounds a float to the precision of dt. */
double asc_float_normalize(AscDType dt, double v);

/* Records a memory access of the running instruction for the observers. */
void sim_record_access(AscBlockState *b, AscSpace space, int write, int32_t buf,
                       int64_t lo, int64_t hi);

/* The scalar unit's semantics (scalar.c), shared by the simulator and the
 * canonicalize pass. `sub` is an ASC_ARITH_* code, rt/at/bt the result and
 * operand types. Return ASC_SCALAR_OK or why no value exists. */
enum { ASC_SCALAR_OK, ASC_SCALAR_DIV_BY_ZERO, ASC_SCALAR_UNDEFINED };
int asc_scalar_binary(int sub, AscDType rt, AscDType at, AscDType bt, AscSlot a,
                      AscSlot b, AscSlot *r);
/* 1 if `a PRED b` holds (pred: a CmpPredicate value), else 0. */
int asc_scalar_cmp(int64_t pred, AscDType at, AscDType bt, AscSlot a,
                   AscSlot b);
int asc_scalar_unary(int sub, AscDType rt, AscDType at, AscSlot a, AscSlot *r);
/* A float converted to int64 saturating, NaN to 0 (never undefined). */
int64_t asc_float_to_int64(double f);
/* The run-time value of an arith.constant, normalised to its type as the
 * frame preset holds it; -1 if op is not a scalar constant. The lowering
 * presets slots with it and the canonicalize pass folds with it. */
int asc_constant_value(const AscOp *op, AscSlot *out);
/* The `sub` column of an op-table row (ASC_ARITH_*, ASC_VBIN_*, ...). */
int asc_exec_sub(int op);

/* Runs the kernel on one block whose state the caller prepared. */
AscStatus asc_block_run(AscBlockState *b);
/* The stop conditions of a launch (interp.c): */
void asc_control_init(AscLaunchControl *c, const AscLaunchOptions *options);
/* Polls the interrupt callback when a poll is due (the launching thread
 * only); 1 when it cancelled the launch. */
int asc_poll_interrupt(AscLaunchControl *c);
/* Records that block b stopped because the launch was cancelled. */
AscStatus asc_block_interrupted(AscBlockState *b);

#define ASC_SLOT(x, in, k) ((x)->regs[(in)->a[(k)]])
#define ASC_DST(x, in) ((x)->regs[(in)->dst])

/* The semantic functions named by the op table (repeated declarations of
 * one function are harmless). sim_structural marks the control-flow rows
 * that the lowering expands into ASC_BC_* instructions. */
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  AscStatus exec(AscExec *x, const AscInstr *in);
#include "../ir/ops.def"
#undef ASC_OP

#endif
