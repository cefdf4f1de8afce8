/* The event stream of a running block: what each executed instruction did,
 * for the observers that need it (the timing model, the sanitizer).
 *
 * While a block runs with observers attached, the interpreter prepares one
 * AscEvent per op-table instruction, the semantic function fills in what
 * it touched (memory ranges through sim_local_ptr / sim_global_ptr, the
 * flag or queue it used), and after it succeeds every observer sees the
 * event. Without observers none of this happens (one branch per
 * instruction). Control-flow bytecode (jumps, moves, calls) makes no
 * events. */
#ifndef ASC_SIM_EVENTS_H
#define ASC_SIM_EVENTS_H

#include <stdint.h>

#include "asc/ir.h"
#include "asc/ops.h"

struct AscBlockState;
struct AscInstr;

typedef enum AscEventKind {
  ASC_EV_OP,        /* computes or moves data on `pipe` */
  ASC_EV_SET_FLAG,  /* set_flag: `src` signals (event, id) to `dst` */
  ASC_EV_WAIT_FLAG, /* wait_flag: `dst` waits for (event, id) from `src` */
  ASC_EV_BARRIER,   /* pipe_barrier: waits for everything issued to `src`
                       (ASC_PIPE_COUNT: PIPE_ALL) */
  ASC_EV_QUE,       /* a TQue operation (que_op) with its implicit sync */
} AscEventKind;

/* TQue operations. Their implicit synchronisation, for a queue whose
 * producer pipe writes buffers its consumer pipe reads (asc_que_pipes):
 * ENQUE signals producer → consumer, DEQUE waits for it; FREE signals
 * consumer → producer (the buffer may be refilled), ALLOC waits for it. */
typedef enum AscQueOp {
  ASC_QUE_ALLOC,
  ASC_QUE_ENQUE,
  ASC_QUE_DEQUE,
  ASC_QUE_FREE,
} AscQueOp;

typedef enum AscSpace {
  ASC_SPACE_UB,
  ASC_SPACE_GM,
  /* family: cube. The cube core's memories (src/sim/cube.c), in the order
   * of SimCubeMem: ASC_SPACE_CUBE + mem. The sanitizer's shadow covers
   * them after the UB (one local address space). */
  ASC_SPACE_CUBE,
} AscSpace;

/* "UB", "GM", "L1", "L0A", "L0B", "L0C", "BT", "FB"; NULL for no space
 * (src/sim/cube.c). */
const char *asc_space_name(int space);

typedef struct AscAccess {
  uint8_t write; /* 1: written, 0: read */
  uint8_t space; /* AscSpace */
  /* 1: [lo, hi) bounds the bytes touched but some inside are not (a
   * level-0 vector instruction with a mask or strides): the sanitizer
   * checks races on the whole range, uninitialised reads not at all */
  uint8_t bounding;
  /* 1: a GM write with the store-atomic mode on (SetAtomicAdd, ...): two
   * blocks' atomic writes into one byte do not race (datamove family) */
  uint8_t atomic;
  /* GM: the tensor's L2 cache hint is CACHE_MODE_DISABLE (SetL2CacheHint;
   * the timing model's L2, src/sim/timing_gm.c) */
  uint8_t l2_bypass;
  /* 1: a GM access of the scalar unit (GlobalTensor get_value / set_value,
   * the list family's word reads), which goes through the core's data
   * cache; 0: a pipe's (DMA, cube, fixpipe), which reaches GM directly
   * (sanitizer_dcache.c) */
  uint8_t scalar;
  /* GM, rows > 0: [lo, hi) bounds a strided access, `rows` runs of row_len
   * bytes every row_step bytes from row0 (offsets in buf, before clamping
   * to the argument); the sanitizer checks races between blocks on the
   * runs (DataCopy with DataCopyParams, DataCopyPad: datamove family) */
  int32_t rows;
  int64_t row0, row_len, row_step;
  int32_t buf;    /* GM: the kernel argument */
  int64_t lo, hi; /* byte range [lo, hi): UB address or offset in buf */
} AscAccess;

/* What an instruction does to the core's data cache besides its scalar
 * accesses (AscEvent.dc_op; sanitizer_dcache.c). */
typedef enum AscDcOp {
  ASC_DC_NONE,
  /* DataCacheCleanAndInvalid<T, SINGLE_CACHE_LINE[, CACHELINE_OUT / _ALL]>:
   * writes back and invalidates the 64-byte line holding byte dc_off of
   * kernel argument dc_buf */
  ASC_DC_CLEAN_LINE,
  /* ENTIRE_DATA_CACHE, and the debug prints (printf, DumpTensor,
   * DumpAccChkPoint, PrintTimeStamp), whose devkit implementations issue
   * one: the whole cache */
  ASC_DC_CLEAN_ALL,
  /* a DataCacheCleanAndInvalid with DcciDst CACHELINE_UB or
   * CACHELINE_ATOMIC: no GM line is written back (named in reports) */
  ASC_DC_NO_GM,
  /* DataCachePreload: loads the line holding byte dc_off of dc_buf */
  ASC_DC_PRELOAD,
} AscDcOp;

/* The most memory ranges one instruction records: BilinearInterpolation
 * touches six, AddDeqRelu five, MrgSort five (four lists and dst). */
enum { ASC_EVENT_MAX_ACCESSES = 8 };

/* An operand of an elementwise vector instruction as the UB sees it, for
 * the timing model's bank conflicts (src/sim/timing_banks.c): block j of
 * repeat r starts at UB byte addr + (r * rep + j * blk) * 32, for
 * j < blocks. */
typedef struct AscVecOperand {
  int64_t addr;
  int32_t blk, rep; /* block and repeat strides, 32-byte blocks */
  uint8_t blocks;   /* 32-byte blocks a repeat touches (1 to 8) */
  uint8_t write;    /* 1: written (dst), 0: read */
  uint8_t pad[6];
} AscVecOperand;

enum { ASC_EVENT_MAX_VOPS = 4 };

typedef struct AscEvent {
  const struct AscInstr *in; /* the instruction: op, operands, Python line */
  AscEventKind kind;
  AscPipe pipe;     /* the pipe the instruction is issued to */
  AscPipe src, dst; /* SET/WAIT_FLAG: the event's pipes; BARRIER: src */
  int64_t event;    /* SET/WAIT_FLAG: HardEvent value */
  int64_t id;       /* SET/WAIT_FLAG: event id */
  AscQueOp que_op;  /* QUE */
  const void *que;  /* QUE: the queue (AscSimQueue *) */
  int buffer;       /* QUE: the queue buffer index */
  AscPipe producer, consumer; /* QUE: the queue's pipes */
  int64_t elems;              /* OP: elements computed or moved */
  int64_t bytes; /* OP: bytes moved (copies) or produced (vector) */
  /* OP, DMA: the bursts (DataCopyParams' blockCount, Nd2Nz's rows) of its
   * GM side; 0: one burst per GM range. A GM range with rows > 0 lists
   * them; otherwise they split the range into equal parts. */
  int64_t bursts;
  /* OP, elementwise vector instruction: its repeats and where each
   * operand's blocks lie (n_vops 0: not recorded) */
  int64_t vrepeats;
  int n_vops;
  AscVecOperand vop[ASC_EVENT_MAX_VOPS];
  /* OP: bytes a DataCopy did not move (its length is rounded down to whole
   * 32-byte blocks) */
  int64_t dropped;
  AscAccess acc[ASC_EVENT_MAX_ACCESSES];
  int n_acc;
  /* an access that did not fit acc: the instruction fails (interp.c)
   * rather than hide it from the sanitizer */
  int acc_overflow;
  /* OP: a GM access (partly) outside its kernel argument, clamped to it
   * (only when overruns are reported: the sanitizer is on): the bytes
   * [ov_lo, ov_hi) of argument ov_buf were asked for */
  int has_ov;
  uint8_t ov_write;
  int32_t ov_buf;
  int64_t ov_lo, ov_hi;
  /* OP: a UB access past the end of its LocalTensor (inside the UB), made
   * in the sanitizer's warn mode: UB bytes [lov_lo, lov_hi) of a tensor of
   * lov_len elements */
  int has_lov;
  uint8_t lov_write;
  int64_t lov_lo, lov_hi, lov_len;
  /* system family: a cross-block sync op (block_sync.c) returns at this
   * cycle, when the blocks it waited for released it (set by those ops
   * only; others leave it stale) */
  int64_t xs_release;
  /* OP: the data cache (AscDcOp; reset for every event) */
  uint8_t dc_op;
  int32_t dc_buf;
  int64_t dc_off;
  /* family: matmul: C's way into a UB tensor (AscMmUb; reset for every
   * event), which the timing model costs as arch 2201's MIX path */
  uint8_t mm_ub;
  /* family: matmul: the scalar work the devkit's Matmul implementation does
   * before this event, in cube instructions' worth: 1 for each instruction
   * it issues (the instruction's parameters, its buffer's queue operations,
   * the loop step that leads to it), the buffers it sets up at Init
   * (matmul.c, matmul_block.c); the timing model charges mm_instr_cycles
   * each. Reset for every event. */
  int32_t mm_work;
  /* family: matmul: the base blocks whose own scalar work comes before
   * this event (the devkit's M / N loop step, its L0C buffer's queue
   * operations, the Fixpipe's parameters: matmul_block.c charges it with
   * the block's Fixpipe); the timing model charges mm_block_cycles each.
   * Reset for every event. */
  int32_t mm_block;
} AscEvent;

/* family: matmul: the steps of C's way into a UB tensor (GetTensorC,
 * IterateAll into a LocalTensor). The simulator writes L0C -> UB at once;
 * on arch 2201 a MIX kernel's cube core has no path to the UB: its Fixpipe
 * writes C to GM and the vector core copies it in (matmul_client.h,
 * CopyToUB). */
typedef enum AscMmUb {
  ASC_MM_UB_NONE,
  ASC_MM_UB_FIX,  /* the Fixpipe of C bound for the UB tensor */
  ASC_MM_UB_COPY, /* C written into the UB tensor */
} AscMmUb;

/* Starts e as instruction in's OP event on pipe p (the scalar unit for an
 * op-table pipe outside the core's pipes), with no accesses and no
 * per-family details: how the interpreter starts each event, and how
 * vec_seq's sub-events start the next one. */
static inline void asc_event_start(AscEvent *e, const struct AscInstr *in,
                                   AscPipe p) {
  e->in = in;
  e->kind = ASC_EV_OP;
  e->pipe = p < ASC_PIPE_COUNT ? p : ASC_PIPE_S;
  e->n_acc = e->acc_overflow = 0;
  e->has_ov = e->has_lov = 0;
  e->elems = e->bytes = e->dropped = 0;
  e->bursts = e->vrepeats = 0;
  e->n_vops = 0;
  e->dc_op = ASC_DC_NONE;
  e->mm_ub = ASC_MM_UB_NONE;
  e->mm_work = 0;
  e->mm_block = 0;
}

typedef struct AscObserver {
  void *self;
  void (*block_begin)(void *self, struct AscBlockState *b);
  /* Returns non-OK to fail the block (the sanitizer's reports). */
  AscStatus (*event)(void *self, struct AscBlockState *b, const AscEvent *e);
  /* 1: OP events that are quiet (no memory access, no data-cache
   * operation, no dropped bytes, no overrun) are not shown to `event`:
   * the sanitizer's, which has nothing to do for them and would pay a
   * call per scalar instruction */
  int skip_quiet;
  AscStatus (*block_end)(void *self, struct AscBlockState *b);
  /* system family: the block's current cycle in the timing model: its
   * scalar unit's (GetSystemCycle), or with all_pipes when every pipe is
   * done too (a cross-block sync's PipeBarrier<PIPE_ALL>); NULL for
   * observers that keep no time */
  int64_t (*now)(void *self, struct AscBlockState *b, int all_pipes);
} AscObserver;

/* The producer and consumer pipes of a queue at TPosition `position`
 * (VECIN: MTE2 → V, VECOUT: V → MTE3, VECCALC: V → V). */
void asc_que_pipes(int position, AscPipe *producer, AscPipe *consumer);

#endif
