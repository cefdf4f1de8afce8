/* What a tensor value addresses: the buffer it lies in and its bytes there,
 * traced from the ops that make and view tensors (mem_ref.c). The sync
 * insertion pass compares these to find the accesses that conflict. */
#ifndef ASC_PASSES_MEM_REF_H
#define ASC_PASSES_MEM_REF_H

#include <stddef.h>
#include <stdint.h>

#include "asc/ir.h"

enum { ASC_MEM_NONE, ASC_MEM_UB, ASC_MEM_GM };
enum { ASC_LIN_TERMS = 4 };

/* coef * sym (sym NULL: 1), times the loop's iteration parity when parity */
typedef struct AscLinTerm {
  int64_t coef;
  const AscValue *sym;
  int parity;
} AscLinTerm;

/* A byte offset as c + the sum of the terms: symbols are integers that hold
 * one value for the whole launch (kernel parameters, values computed outside
 * every loop); the parity is that of loop's iteration count (plus phase),
 * as double buffers pick their half. known 0: no such form (anything). */
typedef struct AscLin {
  int known;
  int64_t c;
  int n;
  AscLinTerm t[ASC_LIN_TERMS];
  const AscOp *loop;
  int phase;
} AscLin;

/* A buffer (root: a TBuf or TQue value, a kernel argument, a marker for
 * static UB addresses; NULL: unknown, which may be any buffer of its space)
 * and bytes [lo, hi) in it (lo unknown: anywhere; hi unknown: to its end). */
typedef struct AscMemRef {
  int space;
  const void *root;
  AscLin lo, hi;
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
/* An op touching `elements` elements of elem_bytes from r's start: its end. */
void asc_mem_ref_limit(AscMemRefs *refs, AscMemRef *r, const AscValue *elements,
                       int64_t elem_bytes);
/* The loop whose iteration parity moves r's bytes (a double buffer), or NULL.
 */
const AscOp *asc_mem_ref_parity_loop(const AscMemRef *r);
/* r in pass `pass` of that loop (its iteration parity), -1: in any. */
AscMemRef asc_mem_ref_resolve(AscMemRef r, int pass);
/* 1 when two resolved references may share a byte. */
int asc_mem_ref_overlap(const AscMemRef *a, const AscMemRef *b);
void asc_mem_refs_free(AscMemRefs *refs);

#endif
