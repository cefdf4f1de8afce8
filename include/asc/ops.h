/* Op identifiers and the op table's static description (src/ir/ops.def). */
#ifndef ASC_OPS_H
#define ASC_OPS_H

#include "asc/dtype.h"

typedef enum AscOpId {
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  ASC_OP_##ID,
#include "../../src/ir/ops.def"
#undef ASC_OP
  ASC_OP_COUNT
} AscOpId;

/* Hardware pipes (order matters: it indexes per-pipe tables). */
typedef enum AscPipe {
  ASC_PIPE_S,
  ASC_PIPE_V,
  ASC_PIPE_M,
  ASC_PIPE_MTE1,
  ASC_PIPE_MTE2,
  ASC_PIPE_MTE3,
  ASC_PIPE_FIX,
  ASC_PIPE_COUNT,
  ASC_PIPE_NONE = ASC_PIPE_COUNT, /* structural ops */
  ASC_PIPE_EVENT                  /* set/wait_flag: from the HardEvent */
} AscPipe;

/* The pipes as the enums name them (src/ir/pipes.c). */
const char *asc_pipe_name(AscPipe p); /* "MTE2"; "?" for none */
/* A HardEvent's pipes (MTE2_V: MTE2 then V); unknown: S and S. */
void asc_event_pipes(int64_t hard_event, AscPipe *src, AscPipe *dst);
/* The HardEvent SRC_DST, or -1 when the devkit has none. */
int64_t asc_event_of_pipes(AscPipe src, AscPipe dst);
/* PipeID value -> pipe; PIPE_ALL (and unknown values) -> ASC_PIPE_COUNT. */
AscPipe asc_pipe_of_pipeid(int64_t pipeid);
/* pipe -> PipeID value; anything else -> PIPE_ALL. */
int64_t asc_pipeid_of_pipe(AscPipe p);

/* Emitter rules: how the Ascend C emitter spells a row. */
typedef enum AscEmit {
  ASC_EMIT_CALL,     /* cpp(operands...) */
  ASC_EMIT_TEMPLATE, /* cpp<attr>(operands...) */
  ASC_EMIT_METHOD,   /* operand0.cpp(operands 1..) */
  ASC_EMIT_SPECIAL,  /* spelled by the emitter itself */
  ASC_EMIT_LEVEL0,   /* a vector instruction's level-0 form (mask, repeat) */
} AscEmit;

/* Cost classes of the timing model (the op table's `cost` column). */
typedef enum AscCost {
  ASC_COST_NONE,
  ASC_COST_SCALAR,
  ASC_COST_SIMPLE,
  ASC_COST_TRANSCENDENTAL,
  ASC_COST_DIVISION,
  ASC_COST_CAST,
  ASC_COST_DMA_IN,
  ASC_COST_DMA_OUT,
  ASC_COST_LOCAL_COPY,
  ASC_COST_UB_READ,
  ASC_COST_UB_WRITE,
  ASC_COST_GM_READ,
  ASC_COST_GM_WRITE,
  /* family: cube: Mmad (16 x 16 x C0 fractal products), LoadData
   * (512-byte fractals L1 -> L0) */
  ASC_COST_CUBE,
  ASC_COST_CUBE_LOAD,
} AscCost;

/* Operand / result kinds of the op table's signature strings. */
typedef enum AscOperandKind {
  ASC_OK_LOCAL = 'L',
  ASC_OK_GLOBAL = 'G',
  ASC_OK_ADDR = 'A',
  ASC_OK_INT = 'i',
  ASC_OK_FLOAT = 'f',
  ASC_OK_NUM = 'n',
  ASC_OK_PIPE = 'P',
  ASC_OK_QUE = 'Q',
  ASC_OK_BUF = 'B',
  ASC_OK_STRUCT = 'S', /* a parameter struct: S{BinaryRepeatParams} */
  /* family: listtensor */
  ASC_OK_TENSOR_DESC = 'D',      /* an AscendC::TensorDesc<T> */
  ASC_OK_LIST_TENSOR_DESC = 'T', /* an AscendC::ListTensorDesc */
  ASC_OK_ANY = '*',
} AscOperandKind;

/* 36: TransDataTo5HD's list forms take 16 + 16 tensors or addresses and their
 * params (family gather) */
enum { ASC_MAX_SIG = 36 };

typedef struct AscOperandSpec {
  const char *name;
  char kind;      /* AscOperandKind */
  int struct_id;  /* struct operands: the AscStructId they must have */
  AscDType ctype; /* integer operands: the type of the Ascend C parameter
                     (ASC_DT_NONE: any) */
  char reads;     /* tensor operand is read */
  char writes;    /* tensor operand is written */
  char optional;  /* may be omitted (only at the end) */
  char own_dtype; /* tensor: not tied to the others' element type (ops.def) */
} AscOperandSpec;

typedef struct AscAttrSpec {
  const char *name;
  const char *kind; /* "int", "float", "str", "types", "any" or an enum */
  int optional;
} AscAttrSpec;

typedef struct AscOpInfo {
  AscOpId id;
  const char *name;
  /* how errors name it to the Python user: the name, a level-0 form as
   * "asc.add (level-0 form)" rather than its IR name "asc.add.l0" */
  const char *api;
  const char *cpp;
  AscPipe pipe;
  AscEmit emit;
  AscCost cost;
  /* parsed signature */
  AscOperandSpec operands[ASC_MAX_SIG];
  int n_operands; /* fixed operands, optional ones included */
  int n_required; /* operands that must be present */
  int variadic;   /* a variadic tail follows the fixed operands */
  char results[ASC_MAX_SIG];
  int result_struct_ids[ASC_MAX_SIG]; /* S{NAME} results: the AscStructId
                                         they must have; else -1 */
  int n_results;
  int variadic_results;
  AscAttrSpec attrs[ASC_MAX_SIG];
  int n_attrs;
  /* the operand giving how many elements of each tensor operand it touches
   * from the tensor's start (elementwise ops, count-form copies); -1: the
   * tensor views bound it (optable.c says which rows) */
  int count_operand;
} AscOpInfo;

const AscOpInfo *asc_op_info(AscOpId id);
/* 1 for an op of the tile layer (IR name "asc2.*"): the lower-tiles pass
 * replaces them all, so the interpreter and the emitter never see one. */
int asc_op_is_tile(AscOpId id);
/* ASC_OP_COUNT when unknown. */
AscOpId asc_op_from_name(const char *name);

#endif
