/* Bit patterns of floats and a reproducible random source, for the C unit
 * tests that compare numerics bit for bit. */
#ifndef PYASC_TEST_BITS_H
#define PYASC_TEST_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* xorshift64: deterministic, so a failure reproduces; *state nonzero. */
static inline uint64_t xorshift64(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

#endif
