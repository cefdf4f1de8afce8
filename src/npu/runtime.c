/* Backend.NPU's launch through the CANN runtime (include/asc/npu.h).
 *
 * The entry points and their meaning are the Ascend runtime's (rt*.h of
 * CANN, as upstream pyasc's rt_wrapper.cpp calls them): rtSetDevice,
 * rtStreamCreate, rtDevBinaryRegister with a magic per core type,
 * rtFunctionRegister, rtMalloc, rtMemcpy, rtKernelLaunch,
 * rtStreamSynchronize, rtFree, rtGetC2cCtrlAddr, ...; aclInit/aclFinalize
 * are ACL's. They are looked up with dlsym the first time one is needed. */
#include "asc/npu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t rt_err;

/* rtDevBinary_t */
typedef struct DevBinary {
  uint32_t magic;
  uint32_t version;
  const void *data;
  uint64_t length;
} DevBinary;

typedef struct Api {
  rt_err (*rtSetDevice)(int32_t);
  rt_err (*rtDeviceReset)(int32_t);
  rt_err (*rtGetDeviceCount)(int32_t *);
  rt_err (*rtGetSocVersion)(char *, uint32_t);
  rt_err (*rtStreamCreate)(void **, int32_t);
  rt_err (*rtStreamDestroy)(void *);
  rt_err (*rtStreamSynchronize)(void *);
  rt_err (*rtDeviceSynchronize)(void);
  rt_err (*rtMalloc)(void **, uint64_t, uint32_t, uint16_t);
  rt_err (*rtFree)(void *);
  rt_err (*rtMemcpy)(void *, uint64_t, const void *, uint64_t, int32_t);
  rt_err (*rtDevBinaryRegister)(const DevBinary *, void **);
  rt_err (*rtDevBinaryUnRegister)(void *);
  rt_err (*rtFunctionRegister)(void *, const void *, const char *, const void *,
                               uint32_t);
  rt_err (*rtKernelLaunch)(const void *, uint32_t, void *, uint32_t, void *,
                           void *);
  rt_err (*rtGetC2cCtrlAddr)(uint64_t *, uint32_t *);
  int32_t (*aclInit)(const char *);
  int32_t (*aclFinalize)(void);
} Api;

/* Each entry point: its name and where its address goes. */
#define RT_CALLS(X)                                                            \
  X(rtSetDevice)                                                               \
  X(rtDeviceReset)                                                             \
  X(rtGetDeviceCount)                                                          \
  X(rtGetSocVersion)                                                           \
  X(rtStreamCreate)                                                            \
  X(rtStreamDestroy)                                                           \
  X(rtStreamSynchronize)                                                       \
  X(rtDeviceSynchronize)                                                       \
  X(rtMalloc)                                                                  \
  X(rtFree)                                                                    \
  X(rtMemcpy)                                                                  \
  X(rtDevBinaryRegister)                                                       \
  X(rtDevBinaryUnRegister)                                                     \
  X(rtFunctionRegister)                                                        \
  X(rtKernelLaunch)                                                            \
  X(rtGetC2cCtrlAddr)

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static Api api;
static int load_state; /* 0 not loaded, 1 loaded */
static AscNpuStatus load_error;
static char runtime_path[4096];

static int fail(AscNpuStatus *st, int32_t code, const char *call,
                const char *fmt, ...) {
  if (st) {
    st->code = code;
    snprintf(st->call, sizeof st->call, "%s", call);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof st->msg, fmt, ap);
    va_end(ap);
  }
  return 1;
}

#if defined(__aarch64__)
#define HOST_DIR "aarch64-linux"
#else
#define HOST_DIR "x86_64-linux"
#endif

/* Opens the first of lib's usual places: under $ASCEND_HOME_PATH, then by
 * name (LD_LIBRARY_PATH, the loader's cache). *tried lists them. */
static void *open_cann(const char *lib, char *path, size_t path_len,
                       char *tried, size_t tried_len) {
  static const char *const subdirs[] = {"lib64", "runtime/lib64",
                                        HOST_DIR "/lib64"};
  const char *home = getenv("ASCEND_HOME_PATH");
  size_t used = 0;
  tried[0] = 0;
  if (home && *home) {
    for (size_t i = 0; i < sizeof subdirs / sizeof *subdirs; i++) {
      int n = snprintf(path, path_len, "%s/%s/%s", home, subdirs[i], lib);
      if (n < 0 || (size_t)n >= path_len)
        continue;
      void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (h)
        return h;
      if (used < tried_len) {
        int m = snprintf(tried + used, tried_len - used, "%s, ", path);
        if (m > 0)
          used += (size_t)m;
      }
    }
  }
  snprintf(path, path_len, "%s", lib);
  void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!h && used < tried_len)
    snprintf(tried + used, tried_len - used, "%s (LD_LIBRARY_PATH)", lib);
  return h;
}

/* Opens lib from the path in the environment variable `env` when it is
 * set (*override then points at it), else from its usual places
 * (open_cann). *path is the path tried last, *tried lists them. */
static void *open_lib(const char *env, const char *lib, const char **override,
                      char *path, size_t path_len, char *tried,
                      size_t tried_len) {
  const char *v = getenv(env);
  *override = v && *v ? v : NULL;
  if (!*override)
    return open_cann(lib, path, path_len, tried, tried_len);
  snprintf(path, path_len, "%s", v);
  snprintf(tried, tried_len, "%s=%s", env, v);
  return dlopen(v, RTLD_NOW | RTLD_LOCAL);
}

static void *sym(void *h, const char *name) {
  dlerror();
  return dlsym(h, name);
}

/* dlsym's object pointer as a function pointer, without the cast ISO C
 * leaves undefined (POSIX guarantees the representations agree). */
#define BIND(h, field, name)                                                   \
  do {                                                                         \
    void *p_ = sym(h, name);                                                   \
    memcpy(&api.field, &p_, sizeof p_);                                        \
  } while (0)

static void *rt_handle, *acl_handle;

static int do_load(AscNpuStatus *st) {
  char tried[3072];
  const char *env;
  void *rt = open_lib("PYASC_NPU_RUNTIME", "libruntime.so", &env, runtime_path,
                      sizeof runtime_path, tried, sizeof tried);
  if (!rt && env) {
    const char *why = dlerror();
    return fail(st, ASC_NPU_MISSING, "dlopen",
                "Backend.NPU cannot load the CANN runtime library "
                "PYASC_NPU_RUNTIME=%s: %s. Point PYASC_NPU_RUNTIME at "
                "libruntime.so (lib64 of the CANN toolkit), or unset it to "
                "look under ASCEND_HOME_PATH",
                env, why ? why : "(no reason given)");
  }
  if (!rt) {
    const char *home = getenv("ASCEND_HOME_PATH");
    return fail(st, ASC_NPU_MISSING, "dlopen",
                "Backend.NPU needs the CANN runtime library libruntime.so "
                "to launch a kernel; it was not found (tried %s)%s. Install "
                "CANN and source its set_env.sh (which sets "
                "ASCEND_HOME_PATH and LD_LIBRARY_PATH), or set "
                "PYASC_NPU_RUNTIME to the library's path",
                tried, home && *home ? "" : "; ASCEND_HOME_PATH is not set");
  }
  rt_handle = rt;
#define X(name)                                                                \
  BIND(rt, name, #name);                                                       \
  if (!api.name)                                                               \
    return fail(st, ASC_NPU_MISSING, "dlsym",                                  \
                "the CANN runtime library %s has no entry point " #name        \
                " (is it libruntime.so of CANN for an Ascend 910B?)",          \
                runtime_path);
  RT_CALLS(X)
#undef X
  BIND(rt, aclInit, "aclInit");
  BIND(rt, aclFinalize, "aclFinalize");
  if (!api.aclInit || !api.aclFinalize) {
    char acl_path[4096];
    const char *acl_env;
    void *acl = open_lib("PYASC_NPU_ACL", "libascendcl.so", &acl_env, acl_path,
                         sizeof acl_path, tried, sizeof tried);
    if (!acl)
      return fail(st, ASC_NPU_MISSING, "dlopen",
                  "Backend.NPU needs the CANN library libascendcl.so (for "
                  "aclInit) beside the runtime %s; it was not found (tried "
                  "%s). Source CANN's set_env.sh, or set PYASC_NPU_ACL to its "
                  "path",
                  runtime_path, tried);
    acl_handle = acl;
    BIND(acl, aclInit, "aclInit");
    BIND(acl, aclFinalize, "aclFinalize");
    if (!api.aclInit || !api.aclFinalize)
      return fail(st, ASC_NPU_MISSING, "dlsym",
                  "%s has no entry point aclInit/aclFinalize", acl_path);
  }
  int32_t rc = api.aclInit(NULL);
  /* 100002: ACL_ERROR_REPEAT_INITIALIZE (someone else, e.g. torch_npu,
   * initialised ACL in this process already) */
  if (rc != 0 && rc != 100002)
    return fail(st, rc, "aclInit", "aclInit failed with error code %d",
                (int)rc);
  return 0;
}

int asc_npu_load(const char **path, AscNpuStatus *st) {
  pthread_mutex_lock(&load_lock);
  /* a failed load is tried again next time (the user may have fixed the
   * environment meanwhile): what it opened is closed */
  if (load_state == 0) {
    memset(&api, 0, sizeof api);
    rt_handle = acl_handle = NULL;
    if (do_load(&load_error)) {
      if (acl_handle)
        dlclose(acl_handle);
      if (rt_handle)
        dlclose(rt_handle);
      memset(&api, 0, sizeof api);
    } else {
      load_state = 1;
    }
  }
  int ok = load_state == 1;
  pthread_mutex_unlock(&load_lock);
  if (!ok) {
    if (st)
      *st = load_error;
    return 1;
  }
  if (path)
    *path = runtime_path;
  return 0;
}

int asc_npu_loaded(void) {
  pthread_mutex_lock(&load_lock);
  int s = load_state == 1;
  pthread_mutex_unlock(&load_lock);
  return s;
}

/* ---- the dump library -------------------------------------------------- */

/* Adx::AdumpPrintWorkSpace(const void *workSpaceAddr, size_t size,
 * void *stream, const char *opType) of libascend_dump.so, a C++ function:
 * found by its Itanium-mangled name (size_t is unsigned long, `m`, on both
 * Linux hosts CANN supports). */
#define ADUMP_PRINT_SYMBOL "_ZN3Adx19AdumpPrintWorkSpaceEPKvmPvPKc"
typedef void (*AdumpPrint)(const void *, size_t, void *, const char *);

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
static AdumpPrint adump_print;
static char dump_path[4096];
static char dump_request[4096]; /* $PYASC_NPU_DUMP_LIB when it was loaded */

int asc_npu_load_dump(const char **path, AscNpuStatus *st) {
  const char *env = getenv("PYASC_NPU_DUMP_LIB");
  const char *request = env && *env ? env : "";
  int rc = 0;
  pthread_mutex_lock(&dump_lock);
  if (!adump_print || strcmp(request, dump_request)) {
    /* a library loaded before stays loaded (its code may still be in use
     * by another thread); only the entry point changes */
    char found[4096], tried[3072];
    const char *ignored;
    void *h = open_lib("PYASC_NPU_DUMP_LIB", "libascend_dump.so", &ignored,
                       found, sizeof found, tried, sizeof tried);
    if (!h) {
      const char *why = dlerror();
      const char *home = getenv("ASCEND_HOME_PATH");
      if (*request)
        rc = fail(st, ASC_NPU_MISSING, "dlopen",
                  "Backend.NPU cannot load CANN's dump library "
                  "PYASC_NPU_DUMP_LIB=%s, which prints what a kernel's "
                  "printf / DumpTensor wrote: %s. Point PYASC_NPU_DUMP_LIB at "
                  "libascend_dump.so (lib64 of the CANN toolkit), unset it to "
                  "look under ASCEND_HOME_PATH, or set ASCENDC_DUMP=false to "
                  "compile the kernel's printing out",
                  request, why ? why : "(no reason given)");
      else
        rc = fail(st, ASC_NPU_MISSING, "dlopen",
                  "Backend.NPU needs CANN's dump library libascend_dump.so to "
                  "print what a kernel's printf / DumpTensor wrote; it was not "
                  "found (tried %s)%s. Source CANN's set_env.sh (which sets "
                  "ASCEND_HOME_PATH and LD_LIBRARY_PATH), set "
                  "PYASC_NPU_DUMP_LIB to the library's path, or set "
                  "ASCENDC_DUMP=false to compile the kernel's printing out",
                  tried, home && *home ? "" : "; ASCEND_HOME_PATH is not set");
    } else {
      void *p = sym(h, ADUMP_PRINT_SYMBOL);
      if (!p) {
        dlclose(h);
        rc = fail(st, ASC_NPU_MISSING, "dlsym",
                  "CANN's dump library %s has no entry point "
                  "Adx::AdumpPrintWorkSpace (" ADUMP_PRINT_SYMBOL
                  "); is it libascend_dump.so of CANN?",
                  found);
      } else {
        memcpy(&adump_print, &p, sizeof p);
        snprintf(dump_path, sizeof dump_path, "%s", found);
        snprintf(dump_request, sizeof dump_request, "%s", request);
      }
    }
  }
  if (!rc && path)
    *path = dump_path;
  pthread_mutex_unlock(&dump_lock);
  return rc;
}

static AdumpPrint dump_entry(void) {
  pthread_mutex_lock(&dump_lock);
  AdumpPrint f = adump_print;
  pthread_mutex_unlock(&dump_lock);
  return f;
}

/* A runtime call's result: 0, or the status naming the call and its code. */
static int check(rt_err rc, const char *call, AscNpuStatus *st) {
  if (rc == 0)
    return 0;
  return fail(st, rc, call, "%s failed with error code %d", call, (int)rc);
}

#define NEED_RUNTIME(st)                                                       \
  do {                                                                         \
    if (asc_npu_load(NULL, st))                                                \
      return 1;                                                                \
  } while (0)

int asc_npu_set_device(int32_t device, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtSetDevice(device), "rtSetDevice", st);
}

int asc_npu_reset_device(int32_t device, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtDeviceReset(device), "rtDeviceReset", st);
}

int asc_npu_device_count(int32_t *count, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  *count = 0;
  return check(api.rtGetDeviceCount(count), "rtGetDeviceCount", st);
}

int asc_npu_soc_version(char *buf, uint32_t len, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  if (!len)
    return fail(st, ASC_NPU_BAD_ARG, "rtGetSocVersion", "no room");
  memset(buf, 0, len);
  if (check(api.rtGetSocVersion(buf, len), "rtGetSocVersion", st))
    return 1;
  buf[len - 1] = 0;
  return 0;
}

int asc_npu_stream_create(void **stream, int32_t priority, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  *stream = NULL;
  return check(api.rtStreamCreate(stream, priority), "rtStreamCreate", st);
}

int asc_npu_stream_destroy(void *stream, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtStreamDestroy(stream), "rtStreamDestroy", st);
}

int asc_npu_stream_synchronize(void *stream, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtStreamSynchronize(stream), "rtStreamSynchronize", st);
}

int asc_npu_device_synchronize(AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtDeviceSynchronize(), "rtDeviceSynchronize", st);
}

/* rtMemType_t and the malloc policies (upstream pyasc's MemoryType,
 * MallocPolicy; it asks for huge pages above 2 KiB), its module id */
enum {
  MEMORY_HBM = 0x2,
  POLICY_HUGE_PAGE_ONLY = 0x800,
  HUGE_PAGE_FROM = 2048,
  MODULE_ID = 33
};

int asc_npu_malloc(void **ptr, uint64_t size, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  *ptr = NULL;
  if (!size)
    return fail(st, ASC_NPU_BAD_ARG, "rtMalloc",
                "rtMalloc: the size must be greater than 0");
  uint32_t type =
      MEMORY_HBM | (size > HUGE_PAGE_FROM ? POLICY_HUGE_PAGE_ONLY : 0);
  return check(api.rtMalloc(ptr, size, type, MODULE_ID), "rtMalloc", st);
}

int asc_npu_free(void *ptr, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  return check(api.rtFree(ptr), "rtFree", st);
}

int asc_npu_memcpy(void *dst, uint64_t dst_max, const void *src, uint64_t n,
                   int kind, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  if (n > dst_max)
    return fail(st, ASC_NPU_BAD_ARG, "rtMemcpy",
                "rtMemcpy: %llu bytes do not fit the destination's %llu",
                (unsigned long long)n, (unsigned long long)dst_max);
  return check(api.rtMemcpy(dst, dst_max, src, n, kind), "rtMemcpy", st);
}

int asc_npu_c2c_ctrl_addr(uint64_t *addr, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  uint32_t len = 0;
  *addr = 0;
  return check(api.rtGetC2cCtrlAddr(addr, &len), "rtGetC2cCtrlAddr", st);
}

int asc_npu_finalize(AscNpuStatus *st) {
  if (!asc_npu_loaded())
    return 0;
  return check(api.aclFinalize(), "aclFinalize", st);
}

/* ---- the launch ------------------------------------------------------- */

static int arg_has_address(const AscNpuArg *a) {
  return a->kind != ASC_NPU_ARG_SCALAR;
}

int asc_npu_pack_args(const AscNpuArg *args, int n, const uint64_t *device,
                      uint8_t *out, uint32_t cap, uint32_t *size_out) {
  uint64_t off = 0;
  *size_out = 0;
  for (int i = 0; i < n; i++) {
    uint32_t size = 8, align = 8;
    const void *src = &device[i];
    if (!arg_has_address(&args[i])) {
      size = args[i].size;
      align = args[i].align;
      src = args[i].value;
      if (size == 0 || size > 8 ||
          (align != 1 && align != 2 && align != 4 && align != 8))
        return 1;
    }
    if (align < 4) /* the Bisheng ABI: at least 4-byte aligned */
      align = 4;
    off = (off + align - 1) / align * align;
    if (off + size > cap)
      return 1;
    memcpy(out + off, src, size);
    off += size;
  }
  off = (off + 7) / 8 * 8;
  if (off > cap)
    return 1;
  *size_out = (uint32_t)off;
  return 0;
}

/* Device memory of one launch, freed on every path. */
typedef struct Run {
  void **mem;
  int n_mem;
  void *bin;
  char *stub; /* the registered function's stub (a unique host address) */
} Run;

static int run_alloc(Run *r, uint64_t size, void **out, AscNpuStatus *st) {
  /* rtMalloc gets whole 32-byte blocks (a DataCopy moves 32-byte blocks) */
  if (size > UINT64_MAX - 31)
    return fail(st, ASC_NPU_OVERFLOW, "rtMalloc",
                "rtMalloc: %llu bytes overflow", (unsigned long long)size);
  uint64_t rounded = size ? (size + 31) / 32 * 32 : 32;
  if (asc_npu_malloc(out, rounded, st))
    return 1;
  r->mem[r->n_mem++] = *out;
  return 0;
}

static int run_cleanup(Run *r, AscNpuStatus *st, int failed) {
  /* every block is freed; the first failure is reported unless the launch
   * failed already (its error is the one to see) */
  for (int i = r->n_mem - 1; i >= 0; i--) {
    rt_err rc = api.rtFree(r->mem[i]);
    if (rc != 0 && !failed)
      failed = check(rc, "rtFree", st);
  }
  r->n_mem = 0;
  if (r->bin)
    (void)api.rtDevBinaryUnRegister(r->bin);
  r->bin = NULL;
  free(r->stub);
  r->stub = NULL;
  free(r->mem);
  r->mem = NULL;
  return failed;
}

int asc_npu_run(const AscNpuLaunch *l, AscNpuStatus *st) {
  NEED_RUNTIME(st);
  if (l->n_args < 0 || l->n_args > 4096 || !l->name || !*l->name ||
      !l->binary || !l->binary_len || !l->blocks)
    return fail(st, ASC_NPU_BAD_ARG, "rtKernelLaunch", "bad launch: %s",
                !l->blocks ? "core_num must be at least 1"
                           : "no binary, name or arguments");
  int dump = -1; /* the DUMP argument */
  for (int i = 0; i < l->n_args; i++)
    if (l->args[i].kind == ASC_NPU_ARG_DUMP) {
      if (dump >= 0 || !l->args[i].bytes)
        return fail(st, ASC_NPU_BAD_ARG, "rtKernelLaunch", "bad launch: %s",
                    dump >= 0 ? "more than one dump buffer"
                              : "an empty dump buffer");
      dump = i;
    }
  /* before anything reaches the device: without the dump library the
   * launch would print nothing */
  if (dump >= 0 && asc_npu_load_dump(NULL, st))
    return 1;
  AdumpPrint print = dump >= 0 ? dump_entry() : NULL;
  Run r = {NULL, 0, NULL, NULL};
  int n = l->n_args;
  uint64_t *device = calloc((size_t)n + 1, sizeof *device);
  r.mem = calloc((size_t)n + 1, sizeof *r.mem);
  size_t name_len = strlen(l->name);
  r.stub = malloc(name_len + 1);
  /* 8 bytes per argument at most, plus alignment */
  uint32_t cap = (uint32_t)(8 * (size_t)n + 8);
  uint8_t *packed = calloc(cap, 1);
  int rc = 1;
  if (!device || !r.mem || !r.stub || !packed) {
    fail(st, ASC_NPU_BAD_ARG, "malloc", "out of host memory");
    goto out;
  }
  memcpy(r.stub, l->name, name_len + 1);
  DevBinary bin = {l->magic, 0, l->binary, l->binary_len};
  if (check(api.rtDevBinaryRegister(&bin, &r.bin), "rtDevBinaryRegister", st))
    goto out;
  if (check(api.rtFunctionRegister(r.bin, r.stub, r.stub, r.stub, 0),
            "rtFunctionRegister", st))
    goto out;
  for (int i = 0; i < n; i++) {
    const AscNpuArg *a = &l->args[i];
    void *mem = NULL;
    if (a->kind == ASC_NPU_ARG_DEVICE) {
      device[i] = a->device;
    } else if (a->kind == ASC_NPU_ARG_ALIAS) {
      if (a->alias < 0 || a->alias >= i ||
          l->args[a->alias].kind != ASC_NPU_ARG_HOST) {
        fail(st, ASC_NPU_BAD_ARG, "rtKernelLaunch",
             "argument %d: an alias of %d, which is not an earlier buffer", i,
             a->alias);
        goto out;
      }
      device[i] = device[a->alias];
    } else if (a->kind == ASC_NPU_ARG_HOST) {
      if (run_alloc(&r, a->bytes, &mem, st))
        goto out;
      device[i] = (uint64_t)(uintptr_t)mem;
      if (a->bytes && asc_npu_memcpy(mem, a->bytes, a->host, a->bytes,
                                     ASC_NPU_HOST_TO_DEVICE, st))
        goto out;
    } else if (a->kind == ASC_NPU_ARG_DUMP) {
      /* zeroed from zeroed host memory, as upstream pyasc copies a zeroed
       * array in (calloc's pages are shared until written) */
      void *zeros = calloc(1, a->bytes);
      if (!zeros) {
        fail(st, ASC_NPU_BAD_ARG, "malloc",
             "out of host memory for the %llu-byte dump buffer",
             (unsigned long long)a->bytes);
        goto out;
      }
      int bad = run_alloc(&r, a->bytes, &mem, st);
      if (!bad) {
        device[i] = (uint64_t)(uintptr_t)mem;
        bad = asc_npu_memcpy(mem, a->bytes, zeros, a->bytes,
                             ASC_NPU_HOST_TO_DEVICE, st);
      }
      free(zeros);
      if (bad)
        goto out;
    } else if (a->kind == ASC_NPU_ARG_FFTS) {
      uint64_t addr;
      if (asc_npu_c2c_ctrl_addr(&addr, st) || run_alloc(&r, 8, &mem, st))
        goto out;
      device[i] = (uint64_t)(uintptr_t)mem;
      if (asc_npu_memcpy(mem, 8, &addr, 8, ASC_NPU_HOST_TO_DEVICE, st))
        goto out;
    }
  }
  uint32_t size = 0;
  if (asc_npu_pack_args(l->args, n, device, packed, cap, &size)) {
    fail(st, ASC_NPU_BAD_ARG, "rtKernelLaunch",
         "a kernel argument has an unsupported size or alignment");
    goto out;
  }
  if (check(api.rtKernelLaunch(r.stub, l->blocks, size ? packed : NULL, size,
                               NULL, l->stream),
            "rtKernelLaunch", st))
    goto out;
  if (check(api.rtStreamSynchronize(l->stream), "rtStreamSynchronize", st))
    goto out;
  for (int i = 0; i < n; i++) {
    const AscNpuArg *a = &l->args[i];
    if (a->kind == ASC_NPU_ARG_HOST && a->copy_back && a->bytes &&
        check(api.rtMemcpy(a->host, a->bytes,
                           (const void *)(uintptr_t)device[i], a->bytes,
                           ASC_NPU_DEVICE_TO_HOST),
              "rtMemcpy", st))
      goto out;
  }
  if (print) {
    /* what the kernel printed, between what the process printed before
     * (the caller flushed Python's stdout) and after */
    fflush(stdout);
    print((const void *)(uintptr_t)device[dump], (size_t)l->args[dump].bytes,
          l->stream, l->name);
    fflush(stdout);
  }
  rc = 0;
out:
  if (r.mem)
    rc = run_cleanup(&r, st, rc);
  else
    free(r.stub);
  free(device);
  free(packed);
  return rc;
}
