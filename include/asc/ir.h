/* ASC-IR: the typed SSA intermediate representation of a pyasc module.
 *
 * Ownership: everything (types, ops, values, strings) is allocated from the
 * arena of one AscContext and freed at once by asc_context_free. Nothing in
 * the IR is freed individually.
 *
 * Shape: a module is a block of `func.func` ops; a function holds one region;
 * every region holds exactly one block (structured control flow only). */
#ifndef ASC_IR_H
#define ASC_IR_H

#include <stddef.h>
#include <stdint.h>

#include "asc/dtype.h"
#include "asc/ops.h"

typedef struct AscContext AscContext;
typedef struct AscType AscType;
typedef struct AscValue AscValue;
typedef struct AscOp AscOp;
typedef struct AscBlock AscBlock;
typedef struct AscRegion AscRegion;

/* ---- status ------------------------------------------------------------ */

typedef enum AscStatus {
  ASC_OK = 0,
  ASC_ERR_COMPILE, /* bad IR, unsupported construct: CompileError */
  ASC_ERR_KERNEL,  /* fault while the kernel runs: KernelError */
  ASC_ERR_SANITIZER,
  ASC_ERR_INTERNAL,    /* out of memory, bug in the core */
  ASC_ERR_INTERRUPTED, /* a launch cancelled by its interrupt callback */
} AscStatus;

/* A source location in the user's Python file. file is arena-owned. */
typedef struct AscLoc {
  const char *file;
  int line;
  int col;
} AscLoc;

/* ---- context ------------------------------------------------------------ */

AscContext *asc_context_new(void);
void asc_context_free(AscContext *ctx);
/* Arena allocation: zeroed, aligned to 16, lives as long as ctx. Never NULL
 * (aborting on exhaustion would be a crash, so the arena grows by malloc and
 * reports ASC_ERR_INTERNAL through asc_context_status if malloc fails, and
 * returns a static zero block that callers never write past). */
void *asc_alloc(AscContext *ctx, size_t size);
const char *asc_strdup(AscContext *ctx, const char *s);

/* The last error recorded on ctx: status, message and location. */
AscStatus asc_context_status(const AscContext *ctx);
const char *asc_context_message(const AscContext *ctx);
AscLoc asc_context_error_loc(const AscContext *ctx);
void asc_context_clear_error(AscContext *ctx);
/* Records an error (first one wins until cleared) and returns status. */
AscStatus asc_error(AscContext *ctx, AscStatus status, AscLoc loc,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- enums carried as attributes (see asc/enums.def) -------------------- */

typedef enum AscEnumKind {
#define ASC_ENUM_BEGIN(K, py, prefix) ASC_ENUM_##K,
#define ASC_ENUM_VALUE(K, N, v, cpp)
#define ASC_ENUM_END(K)
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_END
  ASC_ENUM_KIND_COUNT
} AscEnumKind;

/* Named constants for enum values used by the C core itself. */
enum {
#define ASC_ENUM_BEGIN(K, py, prefix)
#define ASC_ENUM_VALUE(K, N, v, cpp) ASC_##K##_##N = v,
#define ASC_ENUM_END(K)
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_END
  ASC_ENUM_DUMMY_
};

const char *asc_enum_kind_name(AscEnumKind kind); /* "HardEvent" */
AscEnumKind asc_enum_kind_from_name(const char *name);
/* NULL when value is not a member of kind. */
const char *asc_enum_value_name(AscEnumKind kind, int64_t value);
const char *asc_enum_value_cpp(AscEnumKind kind, int64_t value);
const char *asc_enum_cpp_prefix(AscEnumKind kind);
/* Returns 0 and sets *value when found. */
int asc_enum_value_from_name(AscEnumKind kind, const char *name,
                             int64_t *value);

/* ---- parameter structs (see asc/structs.def) ------------------------------
 * The Ascend C structs of the table, and the user's own structs (tiling
 * structs defined in Python, asc.language.core.struct), which a module
 * defines with asc_module_add_struct. */

typedef enum AscStructId {
#define ASC_STRUCT(ID, name, cpp, init) ASC_STRUCT_##ID,
#define ASC_FIELD(ID, name, cpp, dtype, def)
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
  ASC_STRUCT_COUNT,
  ASC_STRUCT_USER = ASC_STRUCT_COUNT /* the id of every user struct */
} AscStructId;

typedef enum AscStructInit {
  ASC_STRUCT_INIT_CTOR,   /* T(field0, field1, ...) */
  ASC_STRUCT_INIT_FIELDS, /* T v{}; v.field0 = ...; ... */
} AscStructInit;

typedef struct AscStructInfo AscStructInfo;

typedef struct AscFieldInfo {
  const char *name; /* Python name: dst_blk_stride */
  const char *cpp;  /* Ascend C member: dstBlkStride */
  /* a number field: its C type (an array field: its elements'); an enum
   * field: the type its values are held in (int32); a struct field:
   * ASC_DT_NONE; a field of type T in a template (not an instance): NONE */
  AscDType dtype;
  double def;                  /* the default of a Python argument left out */
  int enum_kind;               /* an enum field: its AscEnumKind; else -1 */
  const AscStructInfo *nested; /* a struct field: its struct; else NULL */
  int slot, width; /* where the field lies in a value's register slots */
  int len;         /* an array field: its length; else 0 */
  int is_t;        /* 1: its type is the template argument T */
  int operand;     /* its first operand of asc.struct (one per element) */
} AscFieldInfo;

struct AscStructInfo {
  AscStructId id;   /* ASC_STRUCT_USER for the user's structs */
  const char *name; /* BinaryRepeatParams; an instance: X<f16> */
  const char *cpp;  /* AscendC::BinaryRepeatParams; AscendC::X<half> */
  AscStructInit init;
  const AscFieldInfo *fields;
  int n_fields;
  int n_slots;    /* the register slots of a value: one per number */
  int n_operands; /* the operands of asc.struct: one per field, an array
                     field one per element */
  /* templates (ASC_TEMPLATE): the template itself has is_template 1 and
   * no values; each instance (asc_struct_instance) has its targ and the
   * template in tmpl. Neither: is_template 0, targ NONE, tmpl NULL. */
  int is_template;
  AscDType targ;        /* an instance's T */
  AscDType tdefault;    /* a template's default T */
  const char *tallowed; /* a template's allowed T (IR names, "" for any) */
  const AscStructInfo *tmpl;
};

/* The table's structs. NULL for an unknown id. */
const AscStructInfo *asc_struct_info(AscStructId id);
/* ASC_STRUCT_COUNT when the table has no struct of that name. */
AscStructId asc_struct_from_name(const char *name);
/* The instance of template `tmpl` for element type t (made on first use,
 * it lives as long as the process); NULL when tmpl is no template or t is
 * not one of its allowed types (out of memory too). */
const AscStructInfo *asc_struct_instance(const AscStructInfo *tmpl, AscDType t);
/* 1 when t may be the template argument of tmpl. */
int asc_struct_template_allows(const AscStructInfo *tmpl, AscDType t);
/* A struct of the table (an instance by its name "Name<f16>") or one ctx
 * defines (asc_module_add_struct); NULL. */
const AscStructInfo *asc_context_find_struct(const AscContext *ctx,
                                             const char *name);
/* The index of field `name` of s, or -1. */
int asc_struct_field_index(const AscStructInfo *s, const char *name);
/* The number type of register slot k of a value of s (a leaf field). */
AscDType asc_struct_slot_dtype(const AscStructInfo *s, int k);
/* The field operand k of asc.struct gives a value to (its element in *elem,
 * 0 for a scalar field); -1 for no such operand. */
int asc_struct_operand_field(const AscStructInfo *s, int k, int *elem);

/* ---- types -------------------------------------------------------------- */

typedef enum AscTypeKind {
  ASC_TY_SCALAR,         /* i32, f16, index, ... (dtype) */
  ASC_TY_GLOBAL_ADDRESS, /* !asc.global_address<T> */
  ASC_TY_GLOBAL_TENSOR,  /* !asc.global_tensor<T> */
  ASC_TY_LOCAL_TENSOR,   /* !asc.local_tensor<T, POSITION> */
  ASC_TY_TPIPE,          /* !asc.tpipe */
  ASC_TY_TQUE,           /* !asc.tque<POSITION, DEPTH> */
  ASC_TY_TBUF,           /* !asc.tbuf<POSITION> */
  ASC_TY_STRUCT,         /* !asc.struct<NAME>: a parameter or user struct */
  /* family: listtensor */
  ASC_TY_TENSOR_DESC,      /* !asc.tensor_desc<T>: AscendC::TensorDesc<T> */
  ASC_TY_LIST_TENSOR_DESC, /* !asc.list_tensor_desc */
  ASC_TY_KIND_COUNT
} AscTypeKind;

/* Types are interned: equal types are the same pointer. */
struct AscType {
  AscTypeKind kind;
  AscDType dtype; /* element / scalar type; NONE for pipe, que, buf */
  int position;   /* TPosition value for local tensor, que, buf; else -1 */
  int depth;      /* que depth; else 0 */
  const AscStructInfo *struct_info; /* a struct type's struct; else NULL */
};

/* Any kind but ASC_TY_STRUCT (asc_type_struct makes those). */
const AscType *asc_type_get(AscContext *ctx, AscTypeKind kind, AscDType dtype,
                            int position, int depth);
const AscType *asc_type_scalar(AscContext *ctx, AscDType dtype);
/* The type of struct s (its dtype: an instance's T); NULL for a template. */
const AscType *asc_type_struct(AscContext *ctx, const AscStructInfo *s);
/* The struct of a struct type, NULL for any other type. */
const AscStructInfo *asc_type_struct_info(const AscType *t);
/* Prints the IR spelling of t into buf (always NUL-terminated). */
void asc_type_format(const AscType *t, char *buf, size_t size);
int asc_type_is_int(const AscType *t);   /* integer or index or bool scalar */
int asc_type_is_float(const AscType *t); /* float scalar */
int asc_type_is_tensor(const AscType *t);

/* ---- attributes --------------------------------------------------------- */

/* A kernel function's kernel_type attribute: the values of asc.KernelType
 * (upstream pyasc's config.py), set by the detect-kernel-type pass or the
 * jit option; read by the emitter, the launch and the cores family. */
typedef enum AscKernelType {
  KT_AIV_ONLY = 0,
  KT_AIC_ONLY = 1,
  KT_MIX_AIV_HARD_SYNC = 2,
  KT_MIX_AIC_HARD_SYNC = 3,
  KT_MIX_AIV_1_0 = 4,
  KT_MIX_AIC_1_0 = 5,
  KT_MIX_AIC_1_1 = 6,
  KT_MIX_AIC_1_2 = 7,
  KT_MAX = KT_MIX_AIC_1_2
} AscKernelType;

typedef enum AscAttrKind {
  ASC_ATTR_INT,
  ASC_ATTR_FLOAT,
  ASC_ATTR_STR,
  ASC_ATTR_TYPE,
  ASC_ATTR_ENUM,
  ASC_ATTR_TYPES, /* a list of types (function result types) */
} AscAttrKind;

typedef struct AscAttr {
  const char *name;
  AscAttrKind kind;
  AscEnumKind enum_kind; /* ASC_ATTR_ENUM */
  int64_t i;             /* INT, ENUM value */
  double f;              /* FLOAT */
  const char *s;         /* STR */
  const AscType *type;   /* TYPE */
  const AscType **types; /* TYPES */
  int n_types;
} AscAttr;

/* ---- values, ops, blocks, regions --------------------------------------- */

struct AscValue {
  const AscType *type;
  AscOp *def;       /* defining op, or NULL for a block argument */
  AscBlock *block;  /* owning block, for block arguments */
  int index;        /* result or argument index */
  const char *name; /* the user's Python variable name, or NULL */
  int id;           /* numbering for printing; -1 until numbered */
};

struct AscOp {
  AscOpId id;
  AscLoc loc;
  AscValue **operands;
  int n_operands;
  AscValue *results;
  int n_results;
  AscAttr *attrs;
  int n_attrs;
  AscRegion *regions;
  int n_regions;
  AscBlock *parent;
  AscOp *prev, *next;
};

struct AscBlock {
  AscValue *args;
  int n_args;
  AscOp *first, *last;
  AscRegion *parent;
};

struct AscRegion {
  AscBlock *block;
  AscOp *parent;
};

/* The module: a top-level block of func.func ops. */
typedef struct AscModule {
  AscContext *ctx;
  AscBlock *body;
  const char *name;
  /* what the passes report to the user (the UB plan, the inserted syncs):
   * lines of text in the arena, asc_module_log appends; NULL: nothing */
  char *log;
  size_t log_len, log_cap;
} AscModule;

AscModule *asc_module_new(AscContext *ctx, const char *name);

/* Creates an op (not yet inserted). Attribute names and strings are copied
 * into the arena. Each region gets one block with block arguments of the
 * given types: region_arg_types[r] has region_n_args[r] entries. */
AscOp *asc_op_create(AscContext *ctx, AscOpId id, AscLoc loc,
                     AscValue *const *operands, int n_operands,
                     const AscType *const *result_types, int n_results,
                     const AscAttr *attrs, int n_attrs, int n_regions,
                     const AscType *const *const *region_arg_types,
                     const int *region_n_args);
void asc_block_append(AscBlock *block, AscOp *op);
/* Inserts op into block before `anchor` (an op of block; NULL: at the end)
 * or after it (NULL: at the start). */
void asc_block_insert_before(AscBlock *block, AscOp *anchor, AscOp *op);
void asc_block_insert_after(AscBlock *block, AscOp *anchor, AscOp *op);
/* AscValue.id is scratch space of the verifier, printer, lowering and
 * emitter; each restores it to -1 in the block (and its regions) with this
 * when done. */
void asc_block_reset_ids(AscBlock *b);
/* Unlinks op from block (op->parent, prev and next become NULL). The op's
 * memory stays in the arena; the caller makes sure its results are unused
 * (or rewires their uses with asc_replace_all_uses first). */
void asc_block_remove(AscBlock *block, AscOp *op);
/* Replaces every use of `from` by `to` in the ops of block and of all the
 * regions nested in them; returns the number of operands changed. There are
 * no use lists: pass the block that holds all the uses (the defining block,
 * or the function body). */
int asc_replace_all_uses(AscBlock *block, const AscValue *from, AscValue *to);
/* Replaces the results of an op that has no users yet (the front end learns
 * the results of scf.if only after building both branches). */
void asc_op_set_results(AscContext *ctx, AscOp *op, const AscType *const *types,
                        int n);
/* Sets the result types of a func.func (known after its body is built). */
void asc_function_set_results(AscContext *ctx, AscOp *f,
                              const AscType *const *types, int n);

const AscAttr *asc_op_attr(const AscOp *op, const char *name);
int64_t asc_op_attr_int(const AscOp *op, const char *name, int64_t dflt);
const char *asc_op_attr_str(const AscOp *op, const char *name);

/* Functions: `func.func` ops with attrs sym_name (STR), kernel (INT 0/1),
 * res_types (TYPES) and one region whose block arguments are the params. */
AscOp *asc_module_add_function(AscModule *m, const char *name, AscLoc loc,
                               const AscType *const *arg_types, int n_args,
                               const AscType *const *res_types, int n_res,
                               int is_kernel);
AscOp *asc_module_find_function(const AscModule *m, const char *name);

/* Defines the user struct `name` with these fields (scalar types, or the
 * struct types of structs defined before; a field name "name=cppName" when
 * the C++ member is spelled differently) and adds its `asc.struct_def` op
 * to the module, so that the IR text declares it before its uses. A second
 * definition of one name must be the same; NULL with an error when it is
 * not, or when the name is taken by a struct of the table. */
const AscStructInfo *asc_module_add_struct(AscModule *m, const char *name,
                                           const char *const *field_names,
                                           const AscType *const *field_types,
                                           int n, AscLoc loc);

/* Verifies every op against the op table (operand counts and kinds,
 * attributes, regions, terminators, SSA dominance). On failure records a
 * ASC_ERR_COMPILE error at the op's location and returns it. */
AscStatus asc_module_verify(AscModule *m);

/* Checks that the constants op passes to integer parameters of the Ascend
 * C API, or to the fields of a parameter struct, fit their C types (a
 * target check the lowering and the emitter make; see cpp_constants.c).
 * On failure records an ASC_ERR_COMPILE error at op's location. */
AscStatus asc_check_cpp_constants(AscContext *ctx, const AscOp *op);

/* Appends a line (printf format, no trailing newline needed) to the
 * module's pass log; out of memory drops the line. */
void asc_module_log(AscModule *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The pass log so far ("" when empty). */
const char *asc_module_log_text(const AscModule *m);

/* Prints the module in MLIR generic op syntax. Returns a malloc'ed string
 * the caller frees. */
char *asc_module_print(AscModule *m);

#endif
