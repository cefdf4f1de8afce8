/* A stand-in for the CANN runtime (libruntime.so + aclInit/aclFinalize of
 * libascendcl.so) that tests/python/test_npu_launch.py compiles with
 * `cc -shared -fPIC` and loads through PYASC_NPU_RUNTIME.
 *
 * Every call appends one JSON line to the file $STUB_LOG: its name and its
 * arguments. "Device" memory is host memory from malloc, tracked so that
 * rtMemcpy and rtKernelLaunch can refuse addresses that are not device
 * memory (or copies past an allocation's end), as the real runtime would.
 * rtKernelLaunch records the argument block in hex; for the function
 * registered as "npu_double" it also runs a kernel: its first argument is a
 * float buffer, its second an int32 count, and it doubles that many floats,
 * so results flow back to the caller. For a function whose name starts with
 * "npu_print" the last argument is the dump buffer (as the emitted kernel
 * takes it) when it is device memory of at least 1 MiB (the tests' arrays
 * are small): the record says whether it was there and all zero, and the
 * "kernel" writes a line of text at its start, which the stand-in dump
 * library (stub_dump.c) prints.
 *
 * $STUB_FAIL=NAME:CODE[:NTH] makes call NAME return CODE (on its NTH call,
 * default the first). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *log_f;
static int counts[64];
static const char *names[64];

static char log_path[4096];

/* the log named by $STUB_LOG now (a test may have changed it) */
static FILE *log_file(void) {
  const char *path = getenv("STUB_LOG");
  if (!path)
    path = "/dev/null";
  if (!log_f || strcmp(path, log_path)) {
    if (log_f)
      fclose(log_f);
    snprintf(log_path, sizeof log_path, "%s", path);
    log_f = fopen(path, "a");
  }
  return log_f;
}

#define LOG(...)                                                               \
  do {                                                                         \
    FILE *f_ = log_file();                                                     \
    if (f_) {                                                                  \
      fprintf(f_, __VA_ARGS__);                                                \
      fputc('\n', f_);                                                         \
      fflush(f_);                                                              \
    }                                                                          \
  } while (0)

/* the error injected into call `name`, else 0 */
static int injected(const char *name) {
  int slot = 0;
  for (; slot < 64 && names[slot] && strcmp(names[slot], name); slot++)
    ;
  if (slot == 64)
    return 0;
  names[slot] = name;
  int nth = ++counts[slot];
  const char *spec = getenv("STUB_FAIL");
  if (!spec)
    return 0;
  size_t len = strlen(name);
  if (strncmp(spec, name, len) || spec[len] != ':')
    return 0;
  char *end;
  long code = strtol(spec + len + 1, &end, 10);
  long want = *end == ':' ? strtol(end + 1, NULL, 10) : 1;
  return nth == want ? (int)code : 0;
}

#define FAIL_IF_INJECTED(name)                                                 \
  do {                                                                         \
    int rc_ = injected(name);                                                  \
    if (rc_) {                                                                 \
      LOG("{\"call\": \"%s\", \"injected\": %d}", name, rc_);                  \
      return rc_;                                                              \
    }                                                                          \
  } while (0)

/* ---- device memory ---- */
typedef struct Block {
  uint8_t *p;
  uint64_t size;
} Block;
static Block blocks[256];

static Block *find(const void *p, uint64_t n) {
  const uint8_t *q = p;
  for (int i = 0; i < 256; i++)
    if (blocks[i].p && q >= blocks[i].p && q <= blocks[i].p + blocks[i].size &&
        n <= (uint64_t)(blocks[i].p + blocks[i].size - q))
      return &blocks[i];
  return NULL;
}

/* For the tests (through ctypes): start a new log ($STUB_LOG again) and new
 * call counts; how many device blocks are allocated. */
void stub_reset(void);
void stub_reset(void) {
  if (log_f)
    fclose(log_f);
  const char *path = getenv("STUB_LOG");
  /* a new, empty log, then appended to (O_APPEND: the stand-in dump
   * library appends its own lines to the same file) */
  log_f = path ? fopen(path, "w") : NULL;
  if (log_f)
    log_f = freopen(path, "a", log_f);
  snprintf(log_path, sizeof log_path, "%s", path ? path : "");
  memset(counts, 0, sizeof counts);
  memset(names, 0, sizeof names);
}

int stub_live_blocks(void);
int stub_live_blocks(void) {
  int n = 0;
  for (int i = 0; i < 256; i++)
    n += blocks[i].p != NULL;
  return n;
}

int32_t aclInit(const char *config) {
  LOG("{\"call\": \"aclInit\", \"config_null\": %d}", config == NULL);
  FAIL_IF_INJECTED("aclInit");
  return 0;
}

int32_t aclFinalize(void) {
  LOG("{\"call\": \"aclFinalize\"}");
  return 0;
}

int32_t rtSetDevice(int32_t dev) {
  LOG("{\"call\": \"rtSetDevice\", \"device\": %d}", dev);
  FAIL_IF_INJECTED("rtSetDevice");
  return 0;
}

int32_t rtDeviceReset(int32_t dev) {
  LOG("{\"call\": \"rtDeviceReset\", \"device\": %d}", dev);
  FAIL_IF_INJECTED("rtDeviceReset");
  return 0;
}

int32_t rtGetDeviceCount(int32_t *n) {
  LOG("{\"call\": \"rtGetDeviceCount\"}");
  FAIL_IF_INJECTED("rtGetDeviceCount");
  *n = 2;
  return 0;
}

int32_t rtGetSocVersion(char *buf, uint32_t len) {
  LOG("{\"call\": \"rtGetSocVersion\", \"len\": %u}", len);
  FAIL_IF_INJECTED("rtGetSocVersion");
  snprintf(buf, len, "Ascend910B3");
  return 0;
}

int32_t rtStreamCreate(void **stream, int32_t priority) {
  static int next = 1;
  FAIL_IF_INJECTED("rtStreamCreate");
  *stream = (void *)(uintptr_t)(0x5000 + 0x10 * next++);
  LOG("{\"call\": \"rtStreamCreate\", \"priority\": %d, \"stream\": %llu}",
      priority, (unsigned long long)(uintptr_t)*stream);
  return 0;
}

int32_t rtStreamDestroy(void *stream) {
  LOG("{\"call\": \"rtStreamDestroy\", \"stream\": %llu}",
      (unsigned long long)(uintptr_t)stream);
  FAIL_IF_INJECTED("rtStreamDestroy");
  return 0;
}

int32_t rtStreamSynchronize(void *stream) {
  LOG("{\"call\": \"rtStreamSynchronize\", \"stream\": %llu}",
      (unsigned long long)(uintptr_t)stream);
  FAIL_IF_INJECTED("rtStreamSynchronize");
  return 0;
}

int32_t rtDeviceSynchronize(void) {
  LOG("{\"call\": \"rtDeviceSynchronize\"}");
  FAIL_IF_INJECTED("rtDeviceSynchronize");
  return 0;
}

int32_t rtMalloc(void **p, uint64_t size, uint32_t type, uint16_t module) {
  FAIL_IF_INJECTED("rtMalloc");
  int i = 0;
  for (; i < 256 && blocks[i].p; i++)
    ;
  if (i == 256 || !size)
    return 207001;
  blocks[i].p = malloc(size);
  blocks[i].size = size;
  memset(blocks[i].p, 0xAB, size); /* device memory is not zeroed */
  *p = blocks[i].p;
  LOG("{\"call\": \"rtMalloc\", \"size\": %llu, \"type\": %u, \"module\": %u, "
      "\"ptr\": %llu}",
      (unsigned long long)size, type, module,
      (unsigned long long)(uintptr_t)*p);
  return 0;
}

int32_t rtFree(void *p) {
  LOG("{\"call\": \"rtFree\", \"ptr\": %llu}",
      (unsigned long long)(uintptr_t)p);
  FAIL_IF_INJECTED("rtFree");
  for (int i = 0; i < 256; i++)
    if (blocks[i].p == p) {
      free(p);
      blocks[i].p = NULL;
      return 0;
    }
  return 107000; /* not device memory */
}

int32_t rtMemcpy(void *dst, uint64_t dst_max, const void *src, uint64_t n,
                 int32_t kind) {
  /* the first 64 bytes copied, in hex */
  char hex[2 * 64 + 1] = {0};
  int readable = kind == 1 || (kind == 2 && find(src, n));
  for (uint64_t i = 0; readable && i < n && i < 64; i++)
    snprintf(hex + 2 * i, 3, "%02x", ((const uint8_t *)src)[i]);
  LOG("{\"call\": \"rtMemcpy\", \"dst\": %llu, \"dst_max\": %llu, \"src\": "
      "%llu, \"count\": %llu, \"kind\": %d, \"data\": \"%s\"}",
      (unsigned long long)(uintptr_t)dst, (unsigned long long)dst_max,
      (unsigned long long)(uintptr_t)src, (unsigned long long)n, kind, hex);
  FAIL_IF_INJECTED("rtMemcpy");
  if (n > dst_max)
    return 107000;
  /* 1: host to device, 2: device to host */
  if ((kind == 1 && !find(dst, n)) || (kind == 2 && !find(src, n)) ||
      (kind != 1 && kind != 2))
    return 107000;
  memcpy(dst, src, n);
  return 0;
}

typedef struct {
  uint32_t magic, version;
  const void *data;
  uint64_t length;
} DevBinary;

static char registered_name[256];
static const void *registered_stub;
static int binary_live;

int32_t rtDevBinaryRegister(const DevBinary *bin, void **handle) {
  char head[17] = {0};
  memcpy(head, bin->data, bin->length < 16 ? bin->length : 16);
  for (int i = 0; i < 16; i++)
    if (head[i] == '"' || head[i] == '\\' || (head[i] && head[i] < 32))
      head[i] = '?';
  LOG("{\"call\": \"rtDevBinaryRegister\", \"magic\": %u, \"version\": %u, "
      "\"length\": %llu, \"head\": \"%s\"}",
      bin->magic, bin->version, (unsigned long long)bin->length, head);
  FAIL_IF_INJECTED("rtDevBinaryRegister");
  *handle = (void *)(uintptr_t)0xB1B1;
  binary_live = 1;
  return 0;
}

int32_t rtDevBinaryUnRegister(void *handle) {
  LOG("{\"call\": \"rtDevBinaryUnRegister\", \"handle\": %llu}",
      (unsigned long long)(uintptr_t)handle);
  binary_live = 0;
  return 0;
}

int32_t rtFunctionRegister(void *bin, const void *stub, const char *name,
                           const void *info, uint32_t mode) {
  LOG("{\"call\": \"rtFunctionRegister\", \"handle\": %llu, \"name\": \"%s\", "
      "\"info_is_name\": %d, \"mode\": %u}",
      (unsigned long long)(uintptr_t)bin, name,
      info && !strcmp((const char *)info, name), mode);
  FAIL_IF_INJECTED("rtFunctionRegister");
  snprintf(registered_name, sizeof registered_name, "%s", name);
  registered_stub = stub;
  return 0;
}

int32_t rtKernelLaunch(const void *stub, uint32_t blocks_n, void *args,
                       uint32_t size, void *sm, void *stream) {
  char hex[2 * 1024 + 1] = {0};
  for (uint32_t i = 0; i < size && i < 1024; i++)
    snprintf(hex + 2 * i, 3, "%02x", ((const uint8_t *)args)[i]);
  int known = stub == registered_stub && binary_live;
  /* a printing kernel's dump buffer: its last argument */
  uint8_t *dump = NULL;
  Block *dump_block = NULL;
  int dump_zeroed = 0;
  if (known && !strncmp(registered_name, "npu_print", 9) && size >= 8) {
    memcpy(&dump, (const uint8_t *)args + size - 8, 8);
    dump_block = find(dump, 1);
    if (dump_block && dump_block->size < (1u << 20))
      dump_block = NULL;
    if (dump_block) {
      uint64_t left = dump_block->size - (uint64_t)(dump - dump_block->p);
      dump_zeroed = 1;
      for (uint64_t i = 0; i < left && dump_zeroed; i++)
        dump_zeroed = dump[i] == 0;
    }
  }
  LOG("{\"call\": \"rtKernelLaunch\", \"name\": \"%s\", \"blocks\": %u, "
      "\"size\": %u, \"args\": \"%s\", \"sm_null\": %d, \"stream\": %llu, "
      "\"dump_device\": %d, \"dump_zeroed\": %d}",
      known ? registered_name : "?", blocks_n, size, hex, sm == NULL,
      (unsigned long long)(uintptr_t)stream, dump_block != NULL, dump_zeroed);
  FAIL_IF_INJECTED("rtKernelLaunch");
  if (!known)
    return 507000;
  if (dump_block)
    snprintf((char *)dump, 128, "device: %s ran on %u blocks\n",
             registered_name, blocks_n);
  if (!strcmp(registered_name, "npu_double") && size >= 12) {
    float *x;
    int32_t n;
    memcpy(&x, args, 8);
    memcpy(&n, (const uint8_t *)args + 8, 4);
    if (n < 0 || !find(x, (uint64_t)n * sizeof(float)))
      return 507015; /* an address that is not device memory */
    for (int32_t i = 0; i < n; i++)
      x[i] *= 2;
  }
  return 0;
}

int32_t rtGetC2cCtrlAddr(uint64_t *addr, uint32_t *len) {
  LOG("{\"call\": \"rtGetC2cCtrlAddr\"}");
  FAIL_IF_INJECTED("rtGetC2cCtrlAddr");
  *addr = 0xFF7700001000ull;
  *len = 8;
  return 0;
}
