/* Private to the core: small open-addressing hash tables.
 *
 * The IR keeps no symbol tables and no use lists, so every stage that asks
 * "is this name taken?", "which function is this?" or "what replaces this
 * value?" once per op needs a table of its own; scanning a list instead
 * makes that stage quadratic in the size of the kernel. These tables are
 * malloc'ed (free them with the matching _free), double when half full, and
 * report an allocation failure through their `oom` flag: a lookup in a
 * table that failed to grow still answers correctly for what it holds. */
#ifndef ASC_IR_HASH_H
#define ASC_IR_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline size_t asc_hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (size_t i = 0; i < n; i++)
    h = (h ^ s[i]) * 1099511628211u;
  return (size_t)(h ^ (h >> 29));
}

static inline size_t asc_hash_u64(uint64_t x) {
  x ^= x >> 33; /* a 64-bit finaliser: pointers differ only in a few bits */
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53u;
  x ^= x >> 33;
  return (size_t)x;
}

static inline size_t asc_hash_ptr(const void *p) {
  return asc_hash_u64((uint64_t)(uintptr_t)p);
}

/* ---- pointer → pointer ------------------------------------------------ */

/* Keys are non-NULL pointers; a missing key reads as NULL. */
typedef struct AscPtrMap {
  const void **keys;
  void **vals;
  size_t cap, n;
  int oom;
} AscPtrMap;

static inline size_t asc_ptrmap_slot_(const AscPtrMap *m, const void *k) {
  size_t mask = m->cap - 1;
  size_t i = asc_hash_ptr(k) & mask;
  while (m->keys[i] && m->keys[i] != k)
    i = (i + 1) & mask;
  return i;
}

static inline void *asc_ptrmap_get(const AscPtrMap *m, const void *k) {
  if (!m->cap || !k)
    return NULL;
  size_t i = asc_ptrmap_slot_(m, k);
  return m->keys[i] ? m->vals[i] : NULL;
}

/* Sets the value of k (inserting it); -1 when out of memory. */
static inline int asc_ptrmap_put(AscPtrMap *m, const void *k, void *v) {
  if (!k || m->oom)
    return -1;
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    AscPtrMap g = {calloc(cap, sizeof(void *)), calloc(cap, sizeof(void *)),
                   cap, m->n, 0};
    if (!g.keys || !g.vals) {
      free(g.keys);
      free(g.vals);
      m->oom = 1;
      return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t j = asc_ptrmap_slot_(&g, m->keys[i]);
        g.keys[j] = m->keys[i];
        g.vals[j] = m->vals[i];
      }
    free(m->keys);
    free(m->vals);
    *m = g;
  }
  size_t i = asc_ptrmap_slot_(m, k);
  if (!m->keys[i]) {
    m->keys[i] = k;
    m->n++;
  }
  m->vals[i] = v;
  return 0;
}

static inline void asc_ptrmap_free(AscPtrMap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---- string → integer ------------------------------------------------ */

/* Keys are copied into the table; values are int64. */
typedef struct AscStrMap {
  char **keys;
  size_t *lens;
  int64_t *vals;
  size_t cap, n;
  int oom;
} AscStrMap;

static inline size_t asc_strmap_slot_(const AscStrMap *m, const char *s,
                                      size_t len) {
  size_t mask = m->cap - 1;
  size_t i = asc_hash_bytes(s, len) & mask;
  while (m->keys[i] && (m->lens[i] != len || memcmp(m->keys[i], s, len) != 0))
    i = (i + 1) & mask;
  return i;
}

/* 1 and *val when the len bytes at s are a key, else 0. */
static inline int asc_strmap_getn(const AscStrMap *m, const char *s, size_t len,
                                  int64_t *val) {
  if (!m->cap)
    return 0;
  size_t i = asc_strmap_slot_(m, s, len);
  if (!m->keys[i])
    return 0;
  if (val)
    *val = m->vals[i];
  return 1;
}

/* 1 and *val when s is a key, else 0. */
static inline int asc_strmap_get(const AscStrMap *m, const char *s,
                                 int64_t *val) {
  return asc_strmap_getn(m, s, strlen(s), val);
}

/* Sets the value of s (inserting a copy); -1 when out of memory. */
static inline int asc_strmap_put(AscStrMap *m, const char *s, int64_t val) {
  if (m->oom)
    return -1;
  size_t len = strlen(s);
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    AscStrMap g = {calloc(cap, sizeof(char *)),
                   calloc(cap, sizeof(size_t)),
                   calloc(cap, sizeof(int64_t)),
                   cap,
                   m->n,
                   0};
    if (!g.keys || !g.lens || !g.vals) {
      free(g.keys);
      free(g.lens);
      free(g.vals);
      m->oom = 1;
      return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t j = asc_strmap_slot_(&g, m->keys[i], m->lens[i]);
        g.keys[j] = m->keys[i];
        g.lens[j] = m->lens[i];
        g.vals[j] = m->vals[i];
      }
    free(m->keys);
    free(m->lens);
    free(m->vals);
    *m = g;
  }
  size_t i = asc_strmap_slot_(m, s, len);
  if (!m->keys[i]) {
    char *copy = malloc(len + 1);
    if (!copy) {
      m->oom = 1;
      return -1;
    }
    memcpy(copy, s, len + 1);
    m->keys[i] = copy;
    m->lens[i] = len;
    m->n++;
  }
  m->vals[i] = val;
  return 0;
}

/* (A table is freed rather than emptied between functions: emptying walks
 * its whole capacity, the size of the largest function seen so far.) */
static inline void asc_strmap_free(AscStrMap *m) {
  for (size_t i = 0; i < m->cap; i++)
    free(m->keys[i]);
  free(m->keys);
  free(m->lens);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

#endif
