/* Overflow-checked int64 arithmetic: the one way the simulator computes an
 * address, an extent or a size from values a kernel supplies.
 *
 * Kernel values (an index, an offset, a length) may be anything an int64
 * holds: a ConstExpr, a value derived from get_block_idx(), a number in IR
 * text or a cache entry. Plain `addr + count * esize` wraps (undefined
 * behaviour in C, in practice a small or negative number that passes the
 * bounds check), so every such computation goes through these functions and
 * a result that does not fit is an out-of-bounds fault. Each returns 0 and
 * stores the exact result, or returns 1 (overflow) and stores nothing. */
#ifndef ASC_SIM_CHECKED_H
#define ASC_SIM_CHECKED_H

#include <stdint.h>

static inline int asc_add_i64(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_add_overflow(a, b, r);
#else
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
    return 1;
  *r = a + b;
  return 0;
#endif
}

static inline int asc_mul_i64(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_mul_overflow(a, b, r);
#else
  if (a == 0 || b == 0) {
    *r = 0;
    return 0;
  }
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
    return 1;
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
    return 1;
  *r = a * b;
  return 0;
#endif
}

/* addr + index * scale: the byte address of element `index` of `scale`
 * bytes from byte address `addr` (or the end of `index` such elements). */
static inline int asc_scaled_add(int64_t addr, int64_t index, int64_t scale,
                                 int64_t *r) {
  int64_t off;
  return asc_mul_i64(index, scale, &off) || asc_add_i64(addr, off, r);
}

/* n rounded up to a multiple of `to` (> 0), n >= 0. */
static inline int asc_round_up(int64_t n, int64_t to, int64_t *r) {
  int64_t t;
  if (asc_add_i64(n, to - 1, &t))
    return 1;
  *r = t / to * to;
  return 0;
}

#endif
