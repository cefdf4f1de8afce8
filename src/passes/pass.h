/* Private interface of the IR → IR passes (src/passes/). */
#ifndef ASC_PASSES_PASS_H
#define ASC_PASSES_PASS_H

#include <stddef.h>

#include "asc/passes.h"

/* The passes, registered by name in passes.c; opts is what the pass name
 * gave between braces (`insert-sync{auto-sync}`), "" when nothing. */
AscStatus asc_pass_canonicalize(AscModule *m, const char *opts);
AscStatus asc_pass_dce(AscModule *m, const char *opts);
/* insert_sync.c; options: auto-sync (the V pipe orders itself, as the Ascend
 * C compiler's auto-sync makes it), replace (the kernel's own syncs go) */
AscStatus asc_pass_insert_sync(AscModule *m, const char *opts);
/* inline.c: every call of a device function replaced by its body */
AscStatus asc_pass_inline(AscModule *m, const char *opts);
/* family: ubplan. Places asc.local_tensor_auto in the UB (plan_ub.c);
 * opts "ub=BYTES" (default what the kernel may use of the Ascend910B's
 * 192 KiB: asc_kernel_reserve, src/sim/reserve.c). */
AscStatus asc_pass_plan_ub(AscModule *m, const char *opts);
/* family: tiles. The asc2 tile ops become asc.local_tensor_auto plus copy
 * and vector ops (lower_tiles.c); no options. */
AscStatus asc_pass_lower_tiles(AscModule *m, const char *opts);
/* family: tiles. Chains of elementwise tile ops too large for the UB become
 * loops over chunks (split_tiles.c); opts "ub=BYTES" (default the
 * Ascend910B's UB less 256 bytes). Runs before lower-tiles. */
AscStatus asc_pass_split_tiles(AscModule *m, const char *opts);
/* family: tiles. asc2's cube tile ops become cube instructions on auto
 * tensors at A1 / A2 / B2 / CO1 (lower_cube.c; lower-tiles runs it
 * first); no options. */
AscStatus asc_pass_lower_cube(AscModule *m, const char *opts);
/* reserved_ubuf.c: opts "disable" (--cce-disable-asc-reserved-ubuf): the
 * APIs that use Ascend C's reserved UB are CompileErrors. */
AscStatus asc_pass_reserved_ubuf(AscModule *m, const char *opts);

/* family: cores. Sets the kernel's kernel_type (kernel_type.c); opts
 * "cube-only" (matmul_cube_only), "type=N" (an explicit asc.KernelType). */
AscStatus asc_pass_detect_kernel_type(AscModule *m, const char *opts);

/* The option "ub=BYTES" of plan-ub and split-tiles into *ub (left as it
 * was when opts is empty); -1 for anything else. */
int asc_pass_ub_option(const char *opts, int64_t *ub);

/* Ops without side effects: erasable when their results are unused
 * (scalar arithmetic, constants, system variables, address and tensor
 * offsets). Never an op that writes memory or changes state. */
int asc_op_is_pure(const AscOp *op);

/* Use counts of values (the IR keeps no use lists): a hash map from value
 * to the number of operands that name it. malloc'ed; free with
 * asc_uses_free. */
typedef struct AscUses {
  const AscValue **keys;
  int *counts;
  size_t cap, n;
  int oom;
} AscUses;

/* Adds the operands of every op in block and its nested regions. */
void asc_uses_count(AscUses *u, const AscBlock *block);
int asc_uses_get(const AscUses *u, const AscValue *v);
void asc_uses_add(AscUses *u, const AscValue *v, int delta);
void asc_uses_free(AscUses *u);
/* 1 when no result of op is used. */
int asc_op_results_unused(const AscUses *u, const AscOp *op);
/* Unlinks op from its block and releases its uses of its operands. */
void asc_erase_op(AscUses *u, AscOp *op);

/* Grows the malloc'ed array *p of *cap elements of elem bytes (doubling)
 * to hold need; 0, or -1 when out of memory or the size would overflow
 * (*p and *cap unchanged then). */
int asc_grow_array(void **p, size_t *cap, size_t need, size_t elem);

/* 1 and *out when v is an integer arith.constant. */
int asc_int_constant(const AscValue *v, int64_t *out);
/* New ops, not yet inserted: an integer arith.constant of type t, and a
 * binary scalar op (arith.add, ...) of x's type. */
AscOp *asc_make_int_constant(AscContext *ctx, const AscType *t, int64_t value,
                             AscLoc loc);
AscOp *asc_make_binary(AscContext *ctx, AscOpId id, AscValue *x, AscValue *y,
                       AscLoc loc);

#endif
