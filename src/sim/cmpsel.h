/* The cmpsel family's level-0 operands (compare.c, select.c, reduce_l0.c):
 * an operand whose elements lie in 32-byte blocks placed by a block stride
 * and a repeat stride, as the devkit's level-0 forms address them. */
#ifndef ASC_SIM_CMPSEL_H
#define ASC_SIM_CMPSEL_H

#include "sim.h"

enum { CS_BLOCK = 32, CS_REPEAT = 256 };

typedef struct CsOp {
  uint8_t *base; /* host pointer of the operand's UB address */
  int64_t blk;   /* block stride, 32-byte units */
  int64_t rep;   /* repeat stride, 32-byte units */
  int64_t es;    /* element size */
} CsOp;

/* Byte offset of element i of repeat r (strides are >= 0, so offsets grow
 * with r and i: the first and last touched elements bound the access). */
static inline int64_t cs_off(const CsOp *o, int64_t r, int64_t i) {
  int64_t byte = i * o->es;
  return (r * o->rep + byte / CS_BLOCK * o->blk) * CS_BLOCK + byte % CS_BLOCK;
}

/* Checks bytes [lo, hi) from operand k's address (inside its tensor and
 * the UB; its address a multiple of align), records the access (as a
 * bounding range when it may skip bytes) and returns the host pointer of
 * the operand's address, or NULL after sim_fail. */
uint8_t *cs_span(AscExec *x, const AscInstr *in, int k, const char *what,
                 int64_t lo, int64_t hi, int write, int64_t align, int dense);

/* The bit i of a mask of two words. */
static inline int cs_bit(uint64_t lo, uint64_t hi, int64_t i) {
  return i < 64 ? (int)((lo >> i) & 1) : (int)((hi >> (i - 64)) & 1);
}

/* The enabled elements' first and last index of a repeat of n; 0 when
 * none. */
int cs_mask_range(uint64_t lo, uint64_t hi, int64_t n, int64_t *first,
                  int64_t *last);

/* A stride inside [0, max] (the parameter struct's field type), else 0
 * after sim_fail: this also keeps the offsets far from overflow. */
int cs_stride_ok(AscExec *x, const AscInstr *in, int64_t v, int64_t max,
                 const char *what);

/* A struct operand's field f (a slot each, numbers only). */
#define CS_FIELD(x, in, k, f) ((x)->regs[(in)->a[(k)] + (f)].i)

#endif
