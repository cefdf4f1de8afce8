/* Private to src/target/ascendc/: the emitter's state and the helpers its
 * files share. emit.c holds the driver (value table, statements,
 * expressions, control flow, the rule table, functions and the module);
 * emit_structs.c spells struct values and declarations, emit_framework.c
 * the tensor and framework objects and methods. */
#ifndef ASC_TARGET_ASCENDC_EMITTER_H
#define ASC_TARGET_ASCENDC_EMITTER_H

#include <stddef.h>

#include "asc/emit.h"
#include "ir/hash.h"

typedef struct Buf {
  char *s;
  size_t len, cap;
  int failed;
} Buf;

typedef struct ValueInfo {
  char *expr; /* the C++ expression that stands for the value */
  size_t len; /* strlen(expr) */
  char *mem;  /* NULL, or the allocation expr lies in, with free room on
               * both sides for splice() to grow it in place */
  size_t cap; /* the size of mem */
  int uses;
  const AscOp *user; /* the last op that uses it */
} ValueInfo;

typedef struct Emitter {
  AscModule *m;
  AscContext *ctx;
  const AscEmitOptions *opt;
  Buf out;
  int depth;
  ValueInfo *vals; /* indexed by AscValue.id */
  int n_vals, cap_vals;
  char **taken; /* C++ names used in the current function */
  int n_taken, cap_taken;
  /* the same names as a set, and for each base name the next `_N` suffix
   * to try (names are only added within a function, so every smaller
   * suffix is taken): scanning `taken` per name made emitting quadratic,
   * cubic for a Python name assigned many times */
  AscStrMap taken_set, next_suffix;
  /* function op → its position in the module body + 1 (ordering the
   * functions scanned the body per call site) */
  AscPtrMap func_index;
  int failed;
} Emitter;

/* Text at mem + start: len bytes and a NUL. */
typedef struct Expr {
  char *mem;
  size_t start, len, cap;
} Expr;

/* ---- helpers (emit.c) ---- */

/* A malloc'ed formatted string (NULL on failure). */
char *em_fmt_str(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Appends to b (b->failed on failure). */
void em_buf_printf(Buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The C++ expression that stands for v. */
const char *em_expr(Emitter *e, const AscValue *v);

/* One statement of the current function, with its line comment. */
void em_statement(Emitter *e, const AscOp *op, const char *stmt);

/* Gives op's result the expression rhs (taken): inlined into its one use
 * when pure and used once, else declared in a variable. */
void em_bind(Emitter *e, AscOp *op, char *rhs, int pure);

/* s without one pair of enclosing parentheses (copied into buf). */
const char *em_unparen(const char *s, char *buf, size_t size);

/* Sets v's expression to s (taken). */
void em_set_expr(Emitter *e, AscValue *v, char *s);

/* A C++ name like hint, unused in the current function (malloc'ed). */
char *em_fresh_name(Emitter *e, const char *hint);

/* Declares a variable for v (named after hint) initialised with init:
 * its name (malloc'ed), NULL on failure. */
char *em_declare(Emitter *e, const AscOp *op, const AscValue *v,
                 const char *hint, const char *init);

/* The Ascend C spelling of a TPosition value. */
const char *em_position_cpp(int pos);

/* Indentation at the start of a statement. */
void em_line_start(Emitter *e);

/* The end of a statement: op's line comment and the newline. */
void em_line_end(Emitter *e, const AscOp *op);

/* Operands from `from` on, comma-separated (scalars as el). */
char *em_join_operands(Emitter *e, AscOp *op, int from, AscDType el);

/* The sort family's SPECIAL rows: Sort, MrgSort, GetMrgSortResult
 * (emit_sort.c). */
void em_sort_family(Emitter *e, AscOp *op);

/* A character of a C identifier. */
int em_is_word_char(char c);

/* ---- SPECIAL rules spelled in the other files ---- */
/* emit_system.c (system family): the rule for one of its rows, or NULL */
typedef void (*EmSystemRule)(Emitter *e, AscOp *op);
EmSystemRule em_system_rule(AscOpId id);
/* emit_structs.c */
void emit_struct(Emitter *e, AscOp *op);
void emit_struct_get(Emitter *e, AscOp *op);
void emit_struct_set(Emitter *e, AscOp *op);
void emit_struct_def(Emitter *e, AscOp *op);
/* emit_framework.c */
void emit_framework_object(Emitter *e, AscOp *op);
void emit_empty_tensor(Emitter *e, AscOp *op);
void emit_tpipe_ptr(Emitter *e, AscOp *op);
/* family: ubplan: an asc.local_tensor_auto has no Ascend C spelling of its
 * own (plan-ub makes it a TBuf::GetWithOffset); a CompileError. */
void emit_unplanned_auto(Emitter *e, AscOp *op);
void emit_method_lvalues(Emitter *e, AscOp *op);
void emit_que_user_pos(Emitter *e, AscOp *op);
void emit_l2_cache_hint(Emitter *e, AscOp *op);
void emit_debug_output(Emitter *e, AscOp *op);
/* cmpsel family (emit_cmpsel.c): compare/select/reduction level-0 rows */
void emit_cmpsel(Emitter *e, AscOp *op);
/* emit_debug.c (family: debug) */
void emit_printf(Emitter *e, AscOp *op);
void emit_set_aipp_functions(Emitter *e, AscOp *op);
/* emit_layout.c (family gather) */
void emit_trans_data_to_5hd(Emitter *e, AscOp *op);
void emit_gather_mask(Emitter *e, AscOp *op);
/* emit_datamove.c (data movement family) */
void emit_atomic_typed(Emitter *e, AscOp *op);
void emit_store_atomic_config(Emitter *e, AscOp *op);
void emit_get_store_atomic_config(Emitter *e, AscOp *op);
void emit_set_pad_value(Emitter *e, AscOp *op);
/* family: cube (emit_cube.c) */
void em_cube_fixpipe(Emitter *e, AscOp *op);

/* emit_list_tensor.c (family: listtensor): the rule for one of its rows,
 * or NULL */
EmSystemRule em_list_tensor_rule(AscOpId id);
/* emit_slice.c (family: slice): DataCopy with SliceInfo, or NULL */
EmSystemRule em_slice_rule(AscOpId id);
/* whether the module makes a TensorDesc or ListTensorDesc */
int em_uses_list_tensor(const AscModule *m);

/* family: cores (emit_cores.c): ascend_is_aic/aiv and the cross-core
 * flags, or NULL; and the KERNEL_TASK_TYPE_DEFAULT line of a kernel whose
 * kernel_type is set */
EmSystemRule em_cores_rule(AscOpId id);
/* family: matmul (emit_matmul.c) */
EmSystemRule em_matmul_rule(AscOpId id);
int em_uses_matmul(const AscModule *m); /* any asc.matmul */
/* family: ubplan (emit_ub_plan.c): the run-time size check of a
 * runtime-sized asc.LocalTensorAuto, or NULL */
EmSystemRule em_ub_plan_rule(AscOpId id);
/* family: adv sort (emit_adv_sort.c): Concat (dst an lvalue), or NULL */
EmSystemRule em_adv_sort_rule(AscOpId id);
void em_kernel_type(Emitter *e, const AscOp *f);
/* family: adv softmax (emit_adv_softmax.c) */
EmSystemRule em_adv_softmax_rule(AscOpId id);
/* family: adv normquant (emit_adv_norm.c): RmsNorm, AscendQuant, or NULL */
EmSystemRule em_adv_norm_rule(AscOpId id);
/* family: adv math (emit_adv_math.c): asc.adv.math.*, or NULL */
EmSystemRule em_adv_math_rule(AscOpId id);
/* family: entry (emit_entry.c): what a kernel does first and last for its
 * programming style and kernel type. em_entry_defines: the module's
 * #defines before the matmul header; em_entry_params: a kernel's extra
 * parameters after its own n_params (the FFTS address of a MIX kernel, the
 * dump buffer of a kernel that prints), their names (owned by the emitter)
 * or NULL; em_entry_prologue
 * after the kernel type line, em_entry_epilogue after the body. */
void em_entry_defines(Emitter *e);
typedef struct EmEntryParams {
  const char *ffts; /* a MIX kernel's FFTS address parameter, or NULL */
  const char *dump; /* the dump buffer parameter of a printing kernel */
} EmEntryParams;
void em_entry_params(Emitter *e, const AscOp *f, int n_params,
                     EmEntryParams *out);
void em_entry_prologue(Emitter *e, const AscOp *f, const EmEntryParams *p);
void em_entry_epilogue(Emitter *e, const AscOp *f);
int em_kernel_type_is_mix(int64_t kernel_type);
/* whether a kernel of the module runs a cube core with vector cores
 * (MIX_AIC_1_1, MIX_AIC_1_2): a Matmul's cube side then serves them */
int em_module_has_mix_cores(const AscModule *m);

#endif
