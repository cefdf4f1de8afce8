/* The UB and L1 a kernel may use, and the text that says why.
 *
 * docs/zh/guide/编程指南/高级编程/硬件实现/架构规格/NPU架构版本2201.md: the
 * framework and compiler keep 256 bytes of the UB and of the L1 in Cube
 * and Vector fusion (MIX) kernels (ASC_UB_SIZE, ASC_L1_SIZE of
 * include/utils/base/sys_constants.h); Ascend C keeps 8 KiB of the UB,
 * from TMP_UB_OFFSET (impl/basic_api/utils/kernel_utils_constants.h), for
 * the temporaries of the APIs of 静态Tensor编程.md's table 5. The page
 * gives 192 KiB - 256 B - 8 KiB for a MIX kernel that keeps both; each
 * part is subtracted only where it applies (AscReserve, found by
 * asc_kernel_reserve in src/passes/reserved_ubuf.c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asc/exec.h"

int64_t asc_reserve_ub_user(const AscReserve *r, const AscPlatform *p) {
  size_t keep =
      (r->mix ? p->ub_asc_reserved : 0) + (r->api ? p->ub_api_reserved : 0);
  return p->ub_size > keep ? (int64_t)(p->ub_size - keep) : 0;
}

int64_t asc_reserve_l1_user(const AscReserve *r, const AscPlatform *p) {
  size_t keep = r->mix ? p->l1_asc_reserved : 0;
  return p->l1_size > keep ? (int64_t)(p->l1_size - keep) : 0;
}

/* Ends buf (a string of n bytes cut at n - 1) before a UTF-8 character
 * the cut left incomplete. */
static void cut_utf8(char *buf, size_t n) {
  size_t end = n - 1, lead = end;
  while (lead > 0 && ((unsigned char)buf[lead - 1] & 0xC0) == 0x80)
    lead--;
  if (lead == 0)
    return;
  unsigned char c = (unsigned char)buf[lead - 1];
  size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (end - (lead - 1) < len)
    buf[lead - 1] = '\0';
}

/* Appends to buf (of n bytes) at *at; text past the end is cut (at a
 * character's start: the text goes to Python as UTF-8). */
static void put(char *buf, size_t n, size_t *at, const char *fmt, ...) {
  if (*at >= n)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf + *at, n - *at, fmt, ap);
  va_end(ap);
  if (k > 0)
    *at += (size_t)k;
  if (*at >= n)
    cut_utf8(buf, n);
}

static const char *base_name(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "?";
}

/* Which kernel type the kernel has, in words. */
static void put_type(char *buf, size_t n, size_t *at, const AscReserve *r) {
  if (r->kernel_type < 0)
    put(buf, n, at,
        "its kernel type is not known yet, so it counts as MIX; the jit "
        "option kernel_type decides it");
  else
    put(buf, n, at, "kernel type %s", asc_kernel_type_name(r->kernel_type));
}

/* Says that a non-MIX kernel keeps nothing for the framework. */
static void put_not_mix(char *buf, size_t n, size_t *at, const AscReserve *r,
                        size_t reserve) {
  put(buf, n, at, "its ");
  put_type(buf, n, at, r);
  put(buf, n, at,
      " is not MIX (the framework and compiler keep %zu bytes in MIX "
      "kernels only)",
      reserve);
}

const char *asc_reserve_ub_note(const AscReserve *r, const AscPlatform *p,
                                char *buf, size_t n) {
  size_t at = 0;
  int64_t user = asc_reserve_ub_user(r, p);
  if (n)
    buf[0] = '\0';
  put(buf, n, &at, "the kernel may use UB bytes [0, %lld)", (long long)user);
  if (!r->mix && !r->api) {
    put(buf, n, &at, ", all of the UB: ");
    put_not_mix(buf, n, &at, r, p->ub_asc_reserved);
    put(buf, n, &at,
        " and it uses no API of 静态Tensor编程.md's table 5 (Ascend C keeps "
        "%zu bytes for those)",
        p->ub_api_reserved);
  } else {
    put(buf, n, &at, ": the UB's %zu", p->ub_size);
    if (r->mix) {
      put(buf, n, &at,
          " less the %zu the framework and compiler keep in a MIX kernel (",
          p->ub_asc_reserved);
      put_type(buf, n, &at, r);
      put(buf, n, &at, "; ASC_UB_SIZE)");
    }
    if (r->api)
      put(buf, n, &at,
          "%s the %zu Ascend C keeps from byte %zu (TMP_UB_OFFSET) for the "
          "temporaries of %s, which the kernel uses at %s:%d "
          "(静态Tensor编程.md, table 5)",
          r->mix ? " and" : " less", p->ub_api_reserved,
          p->ub_size - p->ub_api_reserved, r->api, base_name(r->api_loc.file),
          r->api_loc.line);
    if (!r->mix) {
      put(buf, n, &at, "; ");
      put_not_mix(buf, n, &at, r, p->ub_asc_reserved);
    } else if (!r->api) {
      put(buf, n, &at,
          "; it uses no API of 静态Tensor编程.md's table 5, so Ascend C's "
          "%zu bytes are its own",
          p->ub_api_reserved);
    }
  }
  put(buf, n, &at, "; devkit 架构规格/NPU架构版本2201.md; use smaller buffers");
  if (r->api)
    put(buf, n, &at,
        ", or do without %s (and the other APIs of table 5) to have the %zu "
        "bytes",
        r->api, p->ub_api_reserved);
  return buf;
}

const char *asc_reserve_l1_note(const AscReserve *r, const AscPlatform *p,
                                char *buf, size_t n) {
  size_t at = 0;
  if (n)
    buf[0] = '\0';
  put(buf, n, &at, "the kernel may use L1 bytes [0, %lld)",
      (long long)asc_reserve_l1_user(r, p));
  if (r->mix) {
    put(buf, n, &at,
        ": the L1's %zu less the %zu the framework and compiler keep in a "
        "MIX kernel (",
        p->l1_size, p->l1_asc_reserved);
    put_type(buf, n, &at, r);
    put(buf, n, &at, "; ASC_L1_SIZE)");
  } else {
    put(buf, n, &at, ", all of the L1: ");
    put_not_mix(buf, n, &at, r, p->l1_asc_reserved);
  }
  put(buf, n, &at, "; devkit 架构规格/NPU架构版本2201.md; use smaller buffers");
  return buf;
}
