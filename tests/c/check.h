/* The checks of the C unit tests: each failure prints file:line and what
 * was expected; main() prints "NAME: N passed, M failed" at the end and
 * exits non-zero on failure. Included by one test program each. */
#ifndef PYASC_TEST_CHECK_H
#define PYASC_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

static void report(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void report(int ok, const char *file, int line, const char *fmt, ...) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

#define CHECK(c) report(!!(c), __FILE__, __LINE__, "%s", #c)

#define CHECK_EQ(a, b)                                                         \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    report(a_ == b_, __FILE__, __LINE__, "%s == %s: got %lld, expected %lld",  \
           #a, #b, a_, b_);                                                    \
  } while (0)

#define CHECK_STREQ(a, b)                                                      \
  do {                                                                         \
    const char *a_ = (a), *b_ = (b);                                           \
    report(a_ && b_ && strcmp(a_, b_) == 0, __FILE__, __LINE__,                \
           "%s == %s: got \"%s\", expected \"%s\"", #a, #b,                    \
           a_ ? a_ : "(null)", b_ ? b_ : "(null)");                            \
  } while (0)

#define CHECK_HAS(hay, needle)                                                 \
  do {                                                                         \
    const char *h_ = (hay), *n_ = (needle);                                    \
    report(h_ && strstr(h_, n_) != NULL, __FILE__, __LINE__,                   \
           "%s contains \"%s\": got \"%s\"", #hay, n_, h_ ? h_ : "(null)");    \
  } while (0)

#define CHECK_LACKS(hay, needle)                                               \
  do {                                                                         \
    const char *h_ = (hay), *n_ = (needle);                                    \
    report(h_ && strstr(h_, n_) == NULL, __FILE__, __LINE__,                   \
           "%s lacks \"%s\": got \"%s\"", #hay, n_, h_ ? h_ : "(null)");       \
  } while (0)

#endif
