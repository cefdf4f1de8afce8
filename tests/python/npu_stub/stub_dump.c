/* A stand-in for CANN's dump library (libascend_dump.so) that
 * tests/python/test_npu_launch.py compiles with `cc -shared -fPIC` and
 * loads through PYASC_NPU_DUMP_LIB.
 *
 * It exports the one entry point Backend.NPU calls, the C++ function
 * Adx::AdumpPrintWorkSpace(const void *, size_t, void *, const char *),
 * under its Itanium-mangled name. A call appends a JSON line to $STUB_LOG
 * (the stand-in runtime's log): the buffer's address and size, the stream
 * and the kernel's name; then it prints the text at the buffer's start (up
 * to its first zero byte: what the stand-in runtime's "npu_print..."
 * kernels write there) to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void _ZN3Adx19AdumpPrintWorkSpaceEPKvmPvPKc(const void *addr, size_t size,
                                            void *stream, const char *name);

void _ZN3Adx19AdumpPrintWorkSpaceEPKvmPvPKc(const void *addr, size_t size,
                                            void *stream, const char *name) {
  const char *path = getenv("STUB_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f,
            "{\"call\": \"AdumpPrintWorkSpace\", \"addr\": %llu, \"size\": "
            "%llu, \"stream\": %llu, \"name\": \"%s\"}\n",
            (unsigned long long)(uintptr_t)addr, (unsigned long long)size,
            (unsigned long long)(uintptr_t)stream, name ? name : "");
    fclose(f);
  }
  const char *text = addr;
  size_t n = 0;
  while (n < size && n < 4096 && text[n])
    n++;
  fwrite(text, 1, n, stdout);
}
