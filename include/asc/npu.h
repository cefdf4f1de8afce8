/* Backend.NPU's launch: the CANN runtime, loaded at first use.
 *
 * Nothing here is linked against CANN: the first call that needs the
 * runtime dlopens it (never at build or import time) and looks up each
 * entry point. The runtime library is $PYASC_NPU_RUNTIME when set, else
 * libruntime.so in the CANN library directories under $ASCEND_HOME_PATH
 * (lib64, runtime/lib64, <arch>-linux/lib64), else libruntime.so as the
 * dynamic loader finds it (LD_LIBRARY_PATH). aclInit/aclFinalize come from
 * the same library when it has them (a stand-in does), else from
 * $PYASC_NPU_ACL, else libascendcl.so in the same places.
 *
 * A kernel that prints from the device (printf, DumpTensor, ...) also needs
 * CANN's dump library: $PYASC_NPU_DUMP_LIB when set, else libascend_dump.so
 * in the same places; its Adx::AdumpPrintWorkSpace prints what the kernel
 * wrote to the dump buffer (as upstream pyasc's print_utils.cpp calls it).
 *
 * Every function returns 0, or nonzero with st filled: the runtime call that
 * failed, its error code and a message naming both. */
#ifndef ASC_NPU_H
#define ASC_NPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AscNpuStatus {
  int32_t code;   /* the runtime's error code; ASC_NPU_MISSING: not loaded */
  char call[40];  /* the runtime call (or dlopen / dlsym) that failed */
  char msg[1024]; /* what failed, for the user */
} AscNpuStatus;

enum { ASC_NPU_MISSING = -1, ASC_NPU_BAD_ARG = -2, ASC_NPU_OVERFLOW = -3 };

/* rtDevBinary_t's magic for each core type (upstream pyasc's MagicElf) */
enum {
  ASC_NPU_MAGIC_AICORE = 0x43554245, /* MIX_AIC_1_1 / MIX_AIC_1_2 */
  ASC_NPU_MAGIC_AIVEC = 0x41415246,  /* the vector-only kernel types */
  ASC_NPU_MAGIC_AICUBE = 0x41494343  /* the cube-only kernel types */
};

/* rtMemcpyKind_t */
enum {
  ASC_NPU_HOST_TO_DEVICE = 1,
  ASC_NPU_DEVICE_TO_HOST = 2,
  ASC_NPU_DEVICE_TO_DEVICE = 3
};

/* Loads the runtime (once; later calls return what the first did). On
 * success *path (may be NULL) is the runtime library's path. */
int asc_npu_load(const char **path, AscNpuStatus *st);
int asc_npu_loaded(void);

/* Loads the dump library and finds Adx::AdumpPrintWorkSpace in it (again
 * when $PYASC_NPU_DUMP_LIB names another library than the loaded one). On
 * success *path (may be NULL) is its path. */
int asc_npu_load_dump(const char **path, AscNpuStatus *st);

int asc_npu_set_device(int32_t device, AscNpuStatus *st);
int asc_npu_reset_device(int32_t device, AscNpuStatus *st);
int asc_npu_device_count(int32_t *count, AscNpuStatus *st);
int asc_npu_soc_version(char *buf, uint32_t len, AscNpuStatus *st);
int asc_npu_stream_create(void **stream, int32_t priority, AscNpuStatus *st);
int asc_npu_stream_destroy(void *stream, AscNpuStatus *st);
int asc_npu_stream_synchronize(void *stream, AscNpuStatus *st);
int asc_npu_device_synchronize(AscNpuStatus *st);
int asc_npu_malloc(void **ptr, uint64_t size, AscNpuStatus *st);
int asc_npu_free(void *ptr, AscNpuStatus *st);
int asc_npu_memcpy(void *dst, uint64_t dst_max, const void *src, uint64_t n,
                   int kind, AscNpuStatus *st);
int asc_npu_c2c_ctrl_addr(uint64_t *addr, AscNpuStatus *st);
int asc_npu_finalize(AscNpuStatus *st); /* aclFinalize */

/* One kernel argument, in the kernel signature's order. */
typedef enum AscNpuArgKind {
  ASC_NPU_ARG_HOST,   /* host bytes: copied to fresh device memory, its
                         address passed (8 bytes), copied back if asked */
  ASC_NPU_ARG_DEVICE, /* a device address passed as it is (8 bytes) */
  ASC_NPU_ARG_SCALAR, /* size bytes, aligned to max(4, align) */
  ASC_NPU_ARG_FFTS,   /* a device uint64 holding rtGetC2cCtrlAddr's address */
  ASC_NPU_ARG_ALIAS,  /* the device address of the earlier HOST argument
                         `alias` (the same host buffer passed twice) */
  ASC_NPU_ARG_DUMP    /* the dump buffer of a kernel that prints: `bytes`
                         of device memory, zeroed before the launch; after
                         it AdumpPrintWorkSpace prints what the kernel wrote
                         there (at most one per launch) */
} AscNpuArgKind;

typedef struct AscNpuArg {
  AscNpuArgKind kind;
  void *host;           /* HOST */
  uint64_t bytes;       /* HOST, DUMP: how many */
  int copy_back;        /* HOST: copied back after the launch */
  uint64_t device;      /* DEVICE */
  uint8_t value[8];     /* SCALAR, host byte order */
  uint32_t size, align; /* SCALAR: 1, 2, 4 or 8 */
  int alias;            /* ALIAS: the index of a HOST argument before it */
} AscNpuArg;

typedef struct AscNpuLaunch {
  const void *binary; /* the linked device binary */
  uint64_t binary_len;
  uint32_t magic;   /* ASC_NPU_MAGIC_* of the kernel type */
  const char *name; /* the kernel's symbol */
  uint32_t blocks;  /* core_num */
  void *stream;
  AscNpuArg *args;
  int n_args;
} AscNpuLaunch;

/* The argument block the kernel reads (the Bisheng ABI: each argument at
 * an offset aligned to max(4, its alignment), the whole a multiple of 8),
 * with device[i] the address of argument i where it has one. 0 and its
 * size in *size; 1 for a scalar of a bad size or alignment, or when it
 * would not fit cap bytes. */
int asc_npu_pack_args(const AscNpuArg *args, int n, const uint64_t *device,
                      uint8_t *out, uint32_t cap, uint32_t *size);

/* Registers the binary and the kernel, allocates and fills the device
 * memory, launches on l->blocks blocks, waits for the stream, copies the
 * results back, prints the dump buffer and frees everything (also when a
 * step fails). With a DUMP argument the dump library is loaded first:
 * when it is missing nothing is launched. */
int asc_npu_run(const AscNpuLaunch *l, AscNpuStatus *st);

#ifdef __cplusplus
}
#endif

#endif
