/* Unit test of Backend.NPU's argument block (src/npu/runtime.c,
 * asc_npu_pack_args): addresses 8 bytes at 8-byte offsets, scalars at
 * offsets aligned to max(4, their alignment), the whole a multiple of 8,
 * bad scalars and a block past its room refused, the dump buffer's address
 * last; and the loaders' messages when the runtime or dump library is not
 * there (no CANN in the test environment).
 *
 * Every failure prints file:line; the last line is the summary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/npu.h"

#include "check.h"

static AscNpuArg scalar(const void *v, uint32_t size, uint32_t align) {
  AscNpuArg a;
  memset(&a, 0, sizeof a);
  a.kind = ASC_NPU_ARG_SCALAR;
  memcpy(a.value, v, size);
  a.size = size;
  a.align = align;
  return a;
}

static AscNpuArg address(AscNpuArgKind kind) {
  AscNpuArg a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  return a;
}

int main(void) {
  int32_t i = -7;
  float f = 1.5f;
  uint8_t b = 1;
  int16_t h = 3;
  double d = 2.0;
  AscNpuArg args[] = {address(ASC_NPU_ARG_HOST), scalar(&i, 4, 4),
                      scalar(&b, 1, 1),          address(ASC_NPU_ARG_DEVICE),
                      scalar(&h, 2, 2),          scalar(&f, 4, 4),
                      scalar(&d, 8, 8),          address(ASC_NPU_ARG_FFTS)};
  uint64_t dev[] = {0x1111, 0, 0, 0x2222, 0, 0, 0, 0x3333};
  uint8_t out[128];
  uint32_t size = 0;
  memset(out, 0xEE, sizeof out);
  CHECK_EQ(asc_npu_pack_args(args, 8, dev, out, sizeof out, &size), 0);
  /* 0: ptr; 8: i32; 12: u8 (4-byte slot); 16: ptr; 24: i16 (4-byte slot);
   * 28: f32; 32: f64; 40: ptr; 48 bytes */
  CHECK_EQ(size, 48);
  uint64_t p;
  memcpy(&p, out, 8);
  CHECK_EQ(p, 0x1111);
  int32_t gi;
  memcpy(&gi, out + 8, 4);
  CHECK_EQ(gi, -7);
  CHECK_EQ(out[12], 1);
  memcpy(&p, out + 16, 8);
  CHECK_EQ(p, 0x2222);
  int16_t gh;
  memcpy(&gh, out + 24, 2);
  CHECK_EQ(gh, 3);
  float gf;
  memcpy(&gf, out + 28, 4);
  CHECK(gf == 1.5f);
  double gd;
  memcpy(&gd, out + 32, 8);
  CHECK(gd == 2.0);
  memcpy(&p, out + 40, 8);
  CHECK_EQ(p, 0x3333);

  /* the dump buffer: an address after the FFTS address, last */
  AscNpuArg with_dump[] = {scalar(&i, 4, 4), address(ASC_NPU_ARG_FFTS),
                           address(ASC_NPU_ARG_DUMP)};
  uint64_t dump_dev[] = {0, 0x3333, 0x4444};
  CHECK_EQ(asc_npu_pack_args(with_dump, 3, dump_dev, out, sizeof out, &size),
           0);
  CHECK_EQ(size, 24);
  memcpy(&p, out + 8, 8);
  CHECK_EQ(p, 0x3333);
  memcpy(&p, out + 16, 8);
  CHECK_EQ(p, 0x4444);

  /* the end padded to 8 */
  AscNpuArg one[] = {scalar(&i, 4, 4)};
  CHECK_EQ(asc_npu_pack_args(one, 1, dev, out, sizeof out, &size), 0);
  CHECK_EQ(size, 8);
  CHECK_EQ(asc_npu_pack_args(one, 0, dev, out, sizeof out, &size), 0);
  CHECK_EQ(size, 0);
  /* no room, bad scalars */
  CHECK_EQ(asc_npu_pack_args(args, 8, dev, out, 44, &size), 1);
  CHECK_EQ(asc_npu_pack_args(args, 8, dev, out, 47, &size), 1);
  AscNpuArg bad[] = {scalar(&i, 4, 3)};
  CHECK_EQ(asc_npu_pack_args(bad, 1, dev, out, sizeof out, &size), 1);
  bad[0].size = 0;
  bad[0].align = 4;
  CHECK_EQ(asc_npu_pack_args(bad, 1, dev, out, sizeof out, &size), 1);
  bad[0].size = 9;
  CHECK_EQ(asc_npu_pack_args(bad, 1, dev, out, sizeof out, &size), 1);

  /* no runtime: the message names the library and how to point at it; a
   * second try tries again (and fails the same way) */
  setenv("PYASC_NPU_RUNTIME", "/nonexistent/libruntime.so", 1);
  AscNpuStatus st;
  const char *path = NULL;
  CHECK_EQ(asc_npu_load(&path, &st), 1);
  CHECK_EQ(st.code, ASC_NPU_MISSING);
  CHECK_STREQ(st.call, "dlopen");
  CHECK(strstr(st.msg, "PYASC_NPU_RUNTIME=/nonexistent/libruntime.so") != NULL);
  CHECK(!asc_npu_loaded());
  int32_t count = 5;
  CHECK_EQ(asc_npu_device_count(&count, &st), 1);
  CHECK_STREQ(st.call, "dlopen");
  CHECK_EQ(asc_npu_finalize(&st), 0); /* nothing loaded: nothing to do */

  /* no dump library: named, with how to point at it or to do without */
  setenv("PYASC_NPU_DUMP_LIB", "/nonexistent/libascend_dump.so", 1);
  CHECK_EQ(asc_npu_load_dump(&path, &st), 1);
  CHECK_EQ(st.code, ASC_NPU_MISSING);
  CHECK_STREQ(st.call, "dlopen");
  CHECK(strstr(st.msg, "PYASC_NPU_DUMP_LIB=/nonexistent/libascend_dump.so") !=
        NULL);
  CHECK(strstr(st.msg, "ASCENDC_DUMP=false") != NULL);
  /* a library without Adx::AdumpPrintWorkSpace (the C library) */
  setenv("PYASC_NPU_DUMP_LIB", "libc.so.6", 1);
  CHECK_EQ(asc_npu_load_dump(&path, &st), 1);
  CHECK_STREQ(st.call, "dlsym");
  CHECK(strstr(st.msg, "_ZN3Adx19AdumpPrintWorkSpaceEPKvmPvPKc") != NULL);

  printf("test_npu: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
