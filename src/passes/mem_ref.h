/* What a tensor value addresses: the buffer it lies in and its bytes there,
 * traced from the ops that make and view tensors (mem_ref.c). The sync
 * insertion pass compares these to find the accesses that conflict. */
#ifndef ASC_PASSES_MEM_REF_H
#define ASC_PASSES_MEM_REF_H

#include <stddef.h>
#include <stdint.h>

#include "asc/ir.h"

enum { ASC_MEM_NONE, ASC_MEM_UB, ASC_MEM_GM };
#define ASC_MEM_OPEN_END INT64_MAX

/* A buffer (root: a TBuf or TQue value, a kernel argument, a marker for
 * static UB addresses; NULL: unknown, which may be any buffer of its space)
 * and bytes [lo, hi) in it. slot != 0: a double buffer, whose bytes move by
 * slot when the parity of loop's iteration (plus phase) is odd. */
typedef struct AscMemRef {
  int space;
  const void *root;
  int64_t lo, hi;
  int64_t slot;
  const AscOp *loop;
  int phase;
} AscMemRef;

/* The tracer of one kernel: body is the kernel's body (its block arguments
 * are the arguments GM roots name); results are memoised per value. */
typedef struct AscMemRefs {
  const AscBlock *body;
  struct AscMemMemo *memo;
  size_t cap, n;
  int oom;
} AscMemRefs;

AscMemRef asc_mem_ref(AscMemRefs *refs, const AscValue *v);
/* What an unknown tensor of space addresses: anything. */
AscMemRef asc_mem_ref_unknown(int space);
/* The kernel argument a global address comes from (NULL: unknown). */
const void *asc_mem_ref_gm_root(AscMemRefs *refs, const AscValue *addr);
/* 1 when the two (resolved: slot 0) references may share a byte. */
int asc_mem_ref_overlap(const AscMemRef *a, const AscMemRef *b);
void asc_mem_refs_free(AscMemRefs *refs);

/* 1 and *out when v is an integer arith.constant. */
int asc_int_constant(const AscValue *v, int64_t *out);

#endif
