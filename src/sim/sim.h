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
#include "aipp.h"
#include "asc/exec.h"
#include "asc/ir.h"
#include "events.h"
#include "vecmath.h"
/* system family: sub-operations, cross-block sync */
#include "system.h"

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

/* The state of one queue buffer (the devkit's TBufState). */
enum {
  ASC_BUF_FREE,
  ASC_BUF_OCCUPIED, /* allocated */
  ASC_BUF_ENQUE,
  ASC_BUF_DEQUE
};

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
  /* ---- tensor and framework methods (framework.c) ----
   * The queue's binding (TQueBind<src, dst>: a TQue(VECIN) is GM -> VECIN)
   * and the pipes it hands buffers between. */
  int src_pos, dst_pos;
  AscPipe producer, consumer;
  int enq_event, free_event; /* HardEvent of enque, of free_tensor */
  uint8_t state[ASC_MAX_QUE_BUFS];
  /* per buffer: the user tag (LocalTensor.set_user_tag), the event ids
   * taken from the TPipe by enque and by free_tensor (-1: none) */
  int32_t tag[ASC_MAX_QUE_BUFS];
  int8_t enq_id[ASC_MAX_QUE_BUFS], free_id[ASC_MAX_QUE_BUFS];
  /* per buffer: the HardEvent its enque signalled (enque<src, dst> may
   * choose another than enq_event), which its deque must wait for */
  uint8_t enq_event_of[ASC_MAX_QUE_BUFS];
  int64_t init_seq; /* when init_buffer gave the buffers (newest wins) */
  int generation;   /* the TPipe's generation at init_buffer */
} AscSimQueue;

/* A TBuf, or a TBufPool (kind ASC_SIM_POOL): both have the IR type
 * !asc.tbuf<POS> until the IR has a type of the pool's own, so every
 * framework op checks the kind of the object it is given. */
enum { ASC_SIM_TBUF = 0, ASC_SIM_POOL = 1 };

typedef struct AscSimTBuf {
  int position;
  int64_t len;
  int64_t base; /* -1 until init_buffer */
  struct AscSimTBuf *next;
  /* ---- tensor and framework methods (framework.c) ---- */
  int kind;
  int32_t tag; /* TBuf: the user tag of its one buffer */
  int64_t init_seq;
  int generation;
  /* TBufPool: its UB range [base, base + len) once initialised (base -1
   * until then), the next free address, buffers taken, capacity */
  int64_t pool_next;
  int pool_bufs, pool_cap;
} AscSimTBuf;

typedef struct AscSimPipe {
  int64_t ub_used; /* bump allocator over UB */
  int initialised;
  /* ---- tensor and framework methods (framework.c) ----
   * bit i of event_ids[e]: event id i of HardEvent e is taken (by
   * alloc_event_id, or by a queue's enque / free_tensor, as the devkit's
   * queues take theirs from the TPipe) */
  uint16_t event_ids[ASC_MAX_EVENTS];
  uint16_t user_ids[ASC_MAX_EVENTS]; /* the ones alloc_event_id took */
  int n_bufs;       /* buffers given since init / reset (at most 64) */
  int generation;   /* counts init / reset: buffers of older ones are stale */
  int destroyed;    /* by destroy, until init: its memory and ids are gone */
  int64_t init_seq; /* numbers init_buffer calls */
  /* family: cube. Bytes init_buffer gave in each cube memory (SimCubeMem
   * order: L1, L0A, L0B, L0C, BT, FB), a bump allocator like ub_used */
  int64_t cube_used[6];
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

/* The registers of an AI Core a kernel's instructions set and read. Each
 * block starts with them as a kernel starts on an NPU (sim_regs_reset):
 * one struct, so that a register added for a new instruction cannot keep
 * the previous block's value on the same worker. */
typedef struct AscCoreRegs {
  /* the vector mask register: its two words and the mode (1: counter) */
  uint64_t mask_high, mask_low;
  int mask_counter;
  /* the merge result register VMS4_SR (sort.c): the elements
   * the last MrgSort took of each list, 16 bits a list */
  uint64_t vms4_sr;
  /* the 128-bit CmpMask register (Compare's register form,
   * Select, SetCmpMask/GetCmpMask), its bytes in UB order */
  uint8_t cmp_mask[16];
  /* the DEQSCALE register (what set_deq_scale wrote, of
   * kind deq_mode: ASC_DEQ_* in quant.h) and the devkit's g_deqValue, the
   * half scale AddDeqRelu reads (deq_half_set: written) */
  uint64_t deq_scale;
  int deq_mode;
  uint16_t deq_half;
  int deq_half_set;
  /* the count GatherMask kept (get_rsvd_cnt; gather.c) */
  int64_t rsvd_cnt;
  /* the store-atomic state DMA writes into GM combine with (atomic_type:
   * an AtomicDtype value, 0 none; atomic_op: 0 sum, 1 max, 2 min) and the
   * DataCopyPad pad register (set_mov_pad_val: the bits of a T) */
  int atomic_type, atomic_op;
  uint64_t pad_value;
  /* the address SetSysWorkspace gave (has_sys_ws; system.c) */
  AscTensorRef sys_ws;
  int has_sys_ws;
  /* SetAippFunctions' state (aipp.c) */
  AscSimAipp aipp;
  /* the four exception registers CheckLocalMemoryIA arms (memory_ia.c):
   * the UB blocks (start, end] of 32 bytes and the access kinds checked
   * (SIM_IA_* bits); ia_on: some register is enabled */
  struct {
    int64_t start, end;
    unsigned kinds;
    const AscOp *set_by;
  } ia[4];
  int ia_on;
  /* family: slice. The HCCL context addresses SetHcclContext<0/1> stored
   * (the devkit's per-core g_hcclContextReserved[2]; hccl.c); not set: a
   * null address */
  AscTensorRef hccl_ctx[2];
  int hccl_ctx_set[2];
  /* family: cube (cube_hf32.c, cube_load.c, cube_fixpipe.c). SetHF32Mode,
   * SetHF32TransMode (1: round toward zero, 0: to nearest even) and
   * SetMMLayoutTransform (1: N first, then M); QUANT_PRE, the scalar quant
   * parameter (SetFixpipePreQuantFlag, and Fixpipe's scalar modes); the
   * 3-D load's registers: L1_3D_SIZE (SetLoadDataBoundary, 0: no
   * boundary), PADDING (SetLoadDataPaddingValue) and L3D_RPT
   * (SetLoadDataRepeat: stride | time << 16 | mode << 24; l3d_rpt_set 0:
   * never set, repeat time 1) */
  int hf32_mode, hf32_trans_mode, mm_layout_transform;
  uint64_t quant_pre;
  uint64_t l1_3d_size, l3d_padding, l3d_rpt;
  int l3d_rpt_set;
  /* FMATRIX (l1W | l1H << 16 | padList[i] << 32 + 8 i), which a 3-D load
   * with LoadData3DParamsV2 sets and one with V2Pro reads (fmatrix_set) */
  uint64_t fmatrix;
  int fmatrix_set;
  /* the cube's index buffer of MmadWithSparse (a quarter of L0B's 64 KiB:
   * the 128-byte index fractal of the L0B fractal at byte a is at a / 4;
   * LoadDataWithSparse fills it; cube_sparse.c); sparse_used: the bytes
   * [0, sparse_used) of it a block may have written, so that a reset
   * clears only those (it is the last member: the rest is cleared whole) */
  int64_t sparse_used;
  uint8_t sparse_idx[16384];
} AscCoreRegs;

/* All registers zero, except the mask register: all bits set, normal mode.
 * r is all zero or was reset before (it reads r->sparse_used). */
void sim_regs_reset(AscCoreRegs *r);

typedef struct AscBlockState {
  const AscKernel *kernel;
  const AscPlatform *platform;
  const AscLaunchArg *args;
  int n_args;
  int block_idx, block_num;
  uint8_t *ub;
  int64_t ub_size;
  /* the reserved parts of UB and L1 that apply to the kernel (its kernel
   * type, the API of 静态Tensor编程.md's table 5 it uses), and the UB it may
   * place its own buffers and tensors in, [0, ub_user): ub_size less those
   * parts (asc_reserve_ub_user) */
  AscReserve reserve;
  int64_t ub_user;
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
  AscCoreRegs regs; /* the core's registers, reset as each block starts */
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
  int precision;            /* AscLaunchOptions.precision: an AscPrecision */
  /* observers (timing model, sanitizer); none: no events are made */
  const AscObserver *observers;
  int n_observers;
  /* the sanitizer's state for the blocks this worker runs in this launch
   * (sanitizer.c: set by its block_begin; NULL as the launch starts, the
   * block state being zeroed then) */
  void *san_shadow;
  AscEvent ev; /* the event of the running instruction */
  /* first error */
  AscLaunchError *err;
  /* system family: the launch's cross-block sync (block_sync.c), NULL
   * when the kernel has none */
  struct AscXSync *xsync;
  /* its vector clock over the blocks (core_num entries, NULL without
   * xsync) and its own entry, the epoch: bumped by every cross-block sync
   * op, so the sanitizer orders GM accesses of different blocks */
  const int32_t *xsync_vc;
  int32_t xsync_epoch;
  /* family: cores: the core this block is (cores.c). has_core 0: the
   * block_idx / block_num of an AIV-only launch. A MIX launch runs its
   * cores as blocks unit = group * per_group + r (r 0 the AIC, then the
   * AIVs); logical_idx / logical_num are GetBlockIdx / GetBlockNum. */
  int has_core;
  int kernel_type;    /* asc.KernelType value */
  int core_is_aic;    /* g_coreType == AIC */
  int core_group;     /* the AI Core (numBlocks index) */
  int core_per_group; /* blocks per AI Core: 1, 2 or 3 */
  int core_sub_idx;   /* GetSubBlockIdx */
  int core_sub_num;   /* GetSubBlockNum / GetTaskRatio */
  int64_t logical_idx, logical_num;
  struct AscCoreFlags *core_flags; /* cross-core flags, NULL: none */
  /* per function and instruction, the core that runs it (NULL: every
   * instruction runs), and this block's core (ASC_CORE_AIV / _AIC) */
  uint8_t *const *core_table;
  uint8_t core_bit;
  /* family: cube. The cube core's memories (SimCubeMem order: L1, L0A,
   * L0B, L0C, bias table, fixpipe buffer; src/sim/cube.c): allocated
   * zeroed when the block first touches one, so that vector kernels pay
   * nothing, and freed after the block (block_reset) */
  uint8_t *cube_mem[6];
  /* family: matmul. The Matmul objects this core made (matmul.c; freed
   * after the block by sim_matmul_reset) */
  struct AscSimMatmul *matmuls;
  /* family: cube: the identity of the unit flag's implicit queue between
   * Mmad and Fixpipe (cube_unitflag.c; only its address is used) */
  int unit_flag_token;
  int n_matmuls;
  /* 1: this core has left the kernel (a MIX kernel's AIC returns inside
   * REGIST_MATMUL_OBJ once its server loop ends); the interpreter stops */
  int core_done;
} AscBlockState;

/* family: matmul (matmul.c): frees a block's Matmul objects. */
typedef struct AscSimMatmul AscSimMatmul;
void sim_matmul_reset(AscBlockState *b);

typedef struct AscExec {
  AscBlockState *b;
  AscSlot *regs;
} AscExec;

/* The unary op the launch runs for `op`: with precision="hardware" the
 * approximate Rsqrt / Reciprocal (vecmath.c), else `op`. */
static inline AscVecUnOp sim_unary_op(const AscBlockState *b, AscVecUnOp op) {
  return b->precision == ASC_PRECISION_HARDWARE ? asc_vec_unary_hw(op) : op;
}

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
/* Says how much of the UB the kernel may use and why (ub_user: which
 * reserved part applies, and why), with what to do when it needs more: for
 * the messages of UB overflows (asc_reserve_ub_note). */
const char *sim_ub_user_note(const AscBlockState *b, char *buf, size_t n);
uint8_t *sim_local_ptr(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                       int64_t count, int write, const char *what);
/* the CheckLocalMemoryIA check of a UB access of bytes [lo, hi) by
 * in (its pipe: scalar, vector or MTE); 0 after sim_fail when an enabled
 * exception register's range and kinds take it, else 1 (memory_ia.c) */
int sim_ia_access(AscExec *x, const AscInstr *in, int64_t lo, int64_t hi,
                  int write);
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
/* Marks the GM accesses recorded from index n_before on as the scalar
 * unit's, made through the core's data cache (events.h: AscAccess.scalar). */
void sim_gm_mark_scalar(AscExec *x, int n_before);

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

/* ---- tensor and framework methods (tensor_meta.c, framework.c, output.c)
 * The position byte of a LocalTensor handle holds its TPosition in the low
 * 5 bits and, in the top 3, the bytes of its data length past the last
 * whole element (set_buffer_len can leave some): see tensor_meta.c. */
enum { ASC_LT_POSITION_MASK = 0x1f };
static inline int sim_lt_position(const AscTensorRef *t) {
  return t->position & ASC_LT_POSITION_MASK;
}
static inline int sim_lt_tail(const AscTensorRef *t) {
  return t->position >> 5;
}
/* The user tag of the queue or TBuf buffer holding UB address addr (the
 * newest such buffer), NULL when there is none. */
int32_t *sim_buffer_tag(AscBlockState *b, int64_t addr);
/* Output of a block to the host (LocalTensor.print, to_file), written in
 * block order at the end of its launch (output.c). */
void sim_output_text(AscBlockState *b, const char *text, size_t n);
void sim_output_file(AscBlockState *b, const char *file, const void *data,
                     size_t n);
/* Brackets a launch (its key: the launch's AscLaunchControl) whose blocks'
 * output is kept and written, block by block, by the end call. */
void asc_output_launch_begin(const void *launch, int core_num);
void asc_output_launch_end(const void *launch);

/* A vector instruction's operand k, n elements (vector.c): inside its
 * tensor and the UB, 32-byte aligned; NULL after sim_fail. */
uint8_t *sim_vec_operand(AscExec *x, const AscInstr *in, int k, int64_t n,
                         int write, const char *what);
/* The work of a count (level-2) vector instruction for the timing model,
 * and the mask register as such an instruction leaves it (vector.c). */
void sim_vec_work(AscExec *x, const AscTensorRef *dst, int64_t n);
/* cmpsel family: the mask a level-0 compare/select/reduction uses (now
 * only compare's register form; the others take sim_l0_mask_counter)
 * (vector.c). Sets the mask register as the instruction's isSetMask form
 * does (bit_mode: m0 the low word, m1 the high one; else a continuous mask
 * of m0 elements of a repeat of per_repeat) and gives the register's words
 * as a repeat of per_repeat elements reads them; 0 after sim_fail in
 * counter mode, which these forms do not take. */
int sim_l0_mask(AscExec *x, const AscInstr *in, int64_t per_repeat,
                int bit_mode, int set_mask, uint64_t m0, uint64_t m1,
                uint64_t *lo, uint64_t *hi);
/* counter family: as sim_l0_mask, but in counter mode too: the mask
 * register's low word counts the elements of the whole instruction
 * (SIMD计算说明/掩码.md), so *repeats becomes ceil(count / per_repeat) (the
 * operand repeat_times is ignored), every repeat but the last runs with all
 * per_repeat lanes and the last with the count's rest (*lo_t, *hi_t). In
 * normal mode *repeats is kept and the tail mask is the repeats' mask. The
 * register is left as it is (counter mode, the count). 0 after sim_fail. */
int sim_l0_mask_counter(AscExec *x, const AscInstr *in, int64_t per_repeat,
                        int bit_mode, int set_mask, uint64_t m0, uint64_t m1,
                        int64_t *repeats, uint64_t *lo, uint64_t *hi,
                        uint64_t *lo_t, uint64_t *hi_t);

/* ---- data movement family (atomic.c, vector.c) ----
 * Writes n bytes from src to GM at dst as a DMA write does: a plain copy,
 * or with the block's store-atomic mode on, each element combined with
 * the one in memory, atomically with respect to the other blocks.
 * KernelError when n is not a whole number of the atomic type's elements. */
AscStatus sim_gm_store(AscExec *x, const AscInstr *in, uint8_t *dst,
                       const uint8_t *src, int64_t n);
/* Marks the GM writes recorded since access n_before as atomic (for the
 * sanitizer) when the store-atomic mode is on. */
void sim_gm_mark_atomic(AscExec *x, int n_before);
/* The mask register as a level-0 instruction with operands mask0, mask1 at
 * k leaves it (its isSetMask / mask mode bits in imm2), per_repeat elements
 * a repeat (vector.c). */
void sim_l0_apply_mask(AscExec *x, const AscInstr *in, int k,
                       int64_t per_repeat);
/* The element types of the store atomics and of Copy on the Ascend910B
 * (the lowering's compile-time checks). */
int asc_atomic_dtype_supported(AscDType dt);
/* Whether the kernel turns store atomics on anywhere: its blocks then run
 * in block order, one after another (atomic.c says why). */
int asc_kernel_uses_store_atomics(const AscKernel *k);
int asc_copy_dtype_supported(AscDType dt);

/* Copies the shape info a tensor value carries after its handle from src
 * to dst (shape_info.c; bytecode.h: ASC_TENSOR_SHAPE_SLOT). */
void sim_copy_shape_info(AscSlot *dst, const AscSlot *src);
/* family: slice. The first n elements of the shape operand k's ShapeInfo
 * holds; 0 when set_shape_info never set it (shape_info.c). */
int sim_tensor_shape(AscExec *x, const AscInstr *in, int k, int n,
                     uint64_t *shape);

/* family: softmax. A tensor's ShapeInfo as the devkit holds it. */
typedef struct SimShapeInfo {
  int dim, ori_dim;
  uint32_t shape[8], ori_shape[8];
} SimShapeInfo;
/* Operand k's ShapeInfo; 0 when set_shape_info never set it
 * (shape_info.c). */
int sim_tensor_shape_info(AscExec *x, const AscInstr *in, int k,
                          SimShapeInfo *out);

/* quant family: the level-0 driver for instructions outside vector.c
 * (vector.c, sim_vec_l0_apply): fn computes elements [first, first + n) of
 * a repeat from the gathered sources tmp[1..] into tmp[0]. */
typedef void (*SimL0Fn)(void *ctx, uint8_t (*tmp)[256], int64_t first,
                        int64_t n);
AscStatus sim_vec_l0_apply(AscExec *x, const AscInstr *in, int n_ops,
                           int half_block, SimL0Fn fn, void *ctx);
/* The mask words a continuous mask of len elements sets (vector.c). */
void sim_vec_mask_words(int64_t per_repeat, uint64_t len, uint64_t *hi,
                        uint64_t *lo);
/* family: matmul (mmseq). Sub-events (subevents.c): a semantic function
 * shows the observers several events, one per step of the instruction
 * sequence it stands for (asc.adv.Matmul's copies, loads, Mmad, Fixpipe
 * and the flags between their pipes). It fills b->ev (kind, pipe, events'
 * fields, accesses, work) and calls sim_emit_event with the step's
 * instruction, which passes the event to the observers and empties it for
 * the next step (an OP on the instruction's own pipe, as the interpreter
 * starts every event); the last step is the one the interpreter shows. Without
 * observers it does nothing (and callers skip filling events). */
AscStatus sim_emit_event(AscExec *x, const AscInstr *step);
/* The instruction of a step of parent: parent with op-table row op (its
 * cost class and pipe for the timing model), element type dtype and imm2
 * (SetFlag / WaitFlag: the HardEvent), and `label` ("Matmul (GM->L1 copy
 * of A)") naming it in reports; kept for the process's life. NULL when out
 * of host memory. */
const AscInstr *sim_step_instr(const AscInstr *parent, int op, int step,
                               const char *label, int64_t imm2, AscDType dtype);
/* A step instruction's label, NULL for any other instruction; the
 * instruction a step belongs to (in itself for others). */
const char *sim_step_label(const AscInstr *in);
const AscInstr *sim_step_parent(const AscInstr *in);

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
