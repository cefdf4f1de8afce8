/* The compiled form of a kernel: register slots, bytecode instructions and
 * functions, as the lowering (lower.c) makes them and the interpreter
 * (interp.c) runs them. Nothing here refers to the simulator's state: the
 * lowering depends on this file only, the interpreter on this file and the
 * simulator's semantic functions, and launch.c (which owns the host memory
 * blocks run in) on both. */
#ifndef ASC_EXEC_BYTECODE_H
#define ASC_EXEC_BYTECODE_H

#include <stdint.h>

#include "asc/exec.h"
#include "asc/ir.h"

/* Device calls nest at most this deep (deeper calls fail before pushing a
 * frame), so the frames of the deepest chain are bounded. */
enum { ASC_MAX_CALL_DEPTH = 64 };

/* A tensor or address handle. For GM: buf is the argument index and addr a
 * byte offset into it; for local memory: buf is -1 and addr the byte
 * address in the block's UB. len is in elements (-1: unbounded). */
typedef struct AscTensorRef {
  int64_t addr;
  int64_t len;
  int32_t buf;
  uint8_t dtype;
  uint8_t position;
  /* GM: 1 after SetL2CacheHint(CACHE_MODE_DISABLE): the timing model's L2
   * is bypassed (src/sim/timing_gm.c). Like the devkit's cacheMode_ on arch
   * 2201, set_global_buffer keeps it and views copy it. */
  uint8_t l2_bypass;
} AscTensorRef;

typedef union AscSlot {
  int64_t i;
  double f;
  void *p;
  AscTensorRef t;
} AscSlot;

/* ---- bytecode --------------------------------------------------------------
 * Opcodes below ASC_OP_COUNT are op-table rows executed by their `exec`
 * function; the rest are the interpreter's own control instructions.
 *
 * Every SSA value has a slot; a parameter struct (asc/structs.def) has one
 * slot per number, consecutive, and is copied with MOVN. A LocalTensor or
 * GlobalTensor value is its handle (AscTensorRef) followed by the ShapeInfo
 * the devkit's tensors hold as a member: at ASC_TENSOR_SHAPE_SLOT a stamp
 * that says set_shape_info wrote it, then the struct's slots
 * (src/sim/shape_info.c). Instructions see slot 0; copies (MOVN) carry the
 * whole value, as a C++ copy of the tensor carries its shape info. */
enum { ASC_TENSOR_SHAPE_SLOT = 1 };
/* family: listtensor. A TensorDesc<T> value (src/sim/list_tensor.c): its
 * data pointer (an AscTensorRef, buf -1 while null), dim, index, the
 * address set_shape_addr gave (0: none; on the device the uint64_t array
 * GetDesc fills) and the shape that array holds, up to ASC_TDESC_MAX_DIM
 * entries. A ListTensorDesc value: the list's GM address, what
 * ListTensorDecode derives from its header (data-pointer offset, dim,
 * words per descriptor, count) and whether it was decoded. */
enum {
  ASC_TDESC_PTR = 0,
  ASC_TDESC_DIM,
  ASC_TDESC_INDEX,
  ASC_TDESC_SHAPE_ADDR,
  ASC_TDESC_SHAPE,
  ASC_TDESC_MAX_DIM = 8,
  ASC_TDESC_SLOTS = ASC_TDESC_SHAPE + ASC_TDESC_MAX_DIM
};
enum {
  ASC_LTDESC_BASE = 0,
  ASC_LTDESC_PTR_OFFSET,
  ASC_LTDESC_DIM,
  ASC_LTDESC_STRUCT_SIZE,
  ASC_LTDESC_COUNT,
  ASC_LTDESC_DECODED,
  ASC_LTDESC_SLOTS
};
enum {
  ASC_BC_MOV = ASC_OP_COUNT, /* regs[dst] = regs[a[0]] */
  ASC_BC_MOVN,               /* regs[dst .. dst+imm) = regs[a[0] ..) */
  ASC_BC_JMP,                /* pc = imm */
  ASC_BC_JMPF,               /* if !regs[a[0]].i: pc = imm */
  ASC_BC_FOR_TEST,           /* a = iv, ub, step: if done pc = imm */
  ASC_BC_FOR_NEXT,           /* a = iv, step: iv += step; pc = imm */
  ASC_BC_CALL,               /* imm = callee index; a = args; dst.. results */
  ASC_BC_RET,                /* a = returned values */
  ASC_BC_COUNT
};

typedef struct AscInstr {
  uint16_t op;
  uint8_t dtype;  /* result dtype (scalar ops), element dtype (tensor ops) */
  uint8_t dtype2; /* operand dtype for conversions */
  int32_t n_args;
  int32_t dst;      /* first result slot, -1 when none */
  int32_t imm;      /* jump target, callee, sub-operation */
  int64_t imm2;     /* decoded attribute (event, pipe, round mode, position) */
  int64_t imm3;     /* second decoded value (queue depth) */
  const int32_t *a; /* operand slots */
  const AscOp *src; /* for error locations */
} AscInstr;

typedef struct AscFunc {
  const char *name;
  AscInstr *code;
  int n_code;
  int n_slots;
  int n_params;
  int n_results;
  int32_t *param_slots;   /* the first slot of each parameter */
  int32_t *param_widths;  /* and how many it has (a struct: its fields) */
  int32_t *result_widths; /* the slots of each result */
  /* constants: slots set at frame entry */
  int32_t *const_slots;
  AscSlot *const_values;
  int n_consts;
} AscFunc;

struct AscKernel {
  AscModule *module;
  AscFunc *funcs; /* funcs[0] is the kernel */
  int n_funcs;
  int32_t *pool; /* operand slot pool shared by all functions */
  const AscType **param_types;
  int n_params;
  int64_t frame_slots; /* register slots of the deepest call chain, or -1 */
};

/* The slots a value of type t occupies (a struct: one per number; a
 * tensor: its handle and its shape info). */
int asc_slot_width(const AscType *t);

#endif
