/* Compiling a module to bytecode and launching it on the simulator. */
#ifndef ASC_EXEC_H
#define ASC_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "asc/ir.h"

/* ---- platforms ---------------------------------------------------------- */

typedef struct AscPlatform {
  const char *name; /* "Ascend910B1" */
  int vector_cores; /* AIV cores */
  int cube_cores;   /* AIC cores */
  size_t ub_size;   /* Unified Buffer bytes per vector core */
  /* The UB a kernel may place its own buffers and tensors in is ub_size
   * less ub_asc_reserved when it is a MIX kernel (the framework and
   * compiler keep these at its end: ASC_UB_SIZE) less ub_api_reserved when
   * it uses an API that keeps its temporaries there (AddDeqRelu, Select,
   * ...; with --cce-disable-asc-reserved-ubuf such a use is a compile
   * error): asc_reserve_ub_user. */
  size_t ub_asc_reserved;
  size_t ub_api_reserved;
  /* bytes at the UB's very end that hold a Matmul client's message: the
   * high-level APIs' stack buffer (PopStackBuffer) ends below them */
  size_t ub_msg_size;
  size_t l1_size; /* L1 bytes per cube core */
  /* L1 bytes at its end that the devkit keeps for the messages of its
   * Matmul client and server (TOTAL_L1_SIZE is l1_size less these) */
  size_t l1_reserved;
  /* the L1 a MIX kernel may place its own buffers in is l1_size less
   * these (ASC_L1_SIZE); another kernel may use all of it */
  size_t l1_asc_reserved;
  size_t l0c_size; /* L0C bytes per cube core */
  int event_ids;   /* event ids per HardEvent */
  /* ids 0 .. user_event_ids - 1 are the kernel's own; the others the
   * system and the TPipe's automatic sync keep */
  int user_event_ids;
  /* the devkit's __NPU_ARCH__ of the part: 2201 (C220: Ascend910B,
   * Ascend910_93) or 3510 (C310: Ascend950, Ascend910_95). The simulator
   * models arch 2201 only: asc_kernel_launch refuses any other (the row
   * holds the part's documented capacities for the host-side queries). */
  int npu_arch;
} AscPlatform;

/* NULL when unknown. */
const AscPlatform *asc_platform_get(const char *name);
const AscPlatform *asc_platform_at(int index); /* NULL past the end */
/* The NPU arch the simulator models (2201). */
#define ASC_SIM_NPU_ARCH 2201
/* Whether kernels of platform p can run on the simulator (its npu_arch is
 * ASC_SIM_NPU_ARCH); 0 for NULL. */
int asc_platform_simulated(const AscPlatform *p);

/* The reserved parts of the UB and L1 that apply to one kernel (devkit
 * 架构规格/NPU架构版本2201.md): the framework's and compiler's 256 bytes of
 * each in a MIX kernel, Ascend C's 8 KiB of UB in a kernel that uses an
 * API keeping its temporaries there (静态Tensor编程.md, table 5). */
typedef struct AscReserve {
  /* the kernel's asc.KernelType value; -1: not known yet (the
   * detect-kernel-type pass did not run), counted as MIX */
  int64_t kernel_type;
  int mix;         /* both core kinds: ub_asc_reserved, l1_asc_reserved */
  const char *api; /* the Ascend C API of table 5 the kernel uses first */
  AscLoc api_loc;  /* where (api NULL: none; ub_api_reserved is free) */
} AscReserve;

/* Of the kernel function `kernel` of m (NULL: its first kernel function),
 * its body and the device functions it calls (src/passes/reserved_ubuf.c). */
AscReserve asc_kernel_reserve(const AscModule *m, const char *kernel);
/* The UB and L1 bytes such a kernel may use on p, [0, N); and the text
 * saying so for an error message: N, which reserve applies and why (the
 * API and its line), the devkit sources and what to do
 * (src/sim/reserve.c). */
int64_t asc_reserve_ub_user(const AscReserve *r, const AscPlatform *p);
int64_t asc_reserve_l1_user(const AscReserve *r, const AscPlatform *p);
const char *asc_reserve_ub_note(const AscReserve *r, const AscPlatform *p,
                                char *buf, size_t n);
const char *asc_reserve_l1_note(const AscReserve *r, const AscPlatform *p,
                                char *buf, size_t n);

/* ---- kernels --------------------------------------------------------------
 */

typedef struct AscKernel AscKernel;

/* Lowers the function named `entry` and every function it calls to
 * bytecode. The module must outlive the kernel (instructions point at their
 * IR ops for locations). On error returns NULL with the error recorded on
 * the module's context (ASC_ERR_COMPILE). */
AscKernel *asc_kernel_compile(AscModule *m, const char *entry);
void asc_kernel_free(AscKernel *k);
int asc_kernel_num_params(const AscKernel *k);
const AscType *asc_kernel_param_type(const AscKernel *k, int i);

typedef enum AscArgKind {
  ASC_ARG_GM,
  ASC_ARG_INT,
  ASC_ARG_FLOAT,
  ASC_ARG_STRUCT
} AscArgKind;

typedef struct AscLaunchArg {
  AscArgKind kind;
  void *ptr;     /* GM: the caller's buffer, used in place */
  size_t nbytes; /* GM: its size; every access is checked against it */
  int readonly;  /* GM: writes are faults (a read-only NumPy array) */
  int64_t i;
  double f;
  /* STRUCT: the value of each number field, nested structs flattened, in
   * the order of the struct's register slots (an INT or FLOAT arg each) */
  const struct AscLaunchArg *fields;
  int n_fields;
} AscLaunchArg;

typedef struct AscLaunchError {
  AscStatus status;
  int block;           /* failing block index, -1 if none */
  AscLoc loc;          /* the Python line of the failing API call */
  const char *op_name; /* its IR op name */
  char message[1024];
} AscLaunchError;

struct AscObserver; /* src/sim/events.h */

typedef struct AscLaunchOptions {
  int workers; /* host threads; <= 0: as many as host cores (max 64) */
  /* observers of every block's events (timing model, sanitizer). They are
   * called from the worker threads: per-block state must be kept per
   * block index (each block runs on one thread). */
  const struct AscObserver *observers;
  int n_observers;
  /* The step budget: bytecode instructions one block may execute before
   * the launch fails with a KernelError at the instruction that exceeds it
   * (a loop that never ends); <= 0: no limit. */
  int64_t max_steps;
  /* Called on the launching thread about every ASC_INTERRUPT_POLL_MS while
   * the launch runs (from inside the interpreter and while it waits for
   * the other workers); a nonzero result cancels the launch, which then
   * returns ASC_ERR_INTERRUPTED once every worker has stopped. The Python
   * binding checks for Ctrl-C here. NULL: never polled. */
  int (*interrupt)(void *ctx);
  void *interrupt_ctx;
  /* A GM access past the end (or before the start) of its kernel
   * argument: 0, a KernelError; otherwise it is shown to the observers
   * (AscEvent.has_ov), for the sanitizer to report, and 1: clamped to the
   * argument (reads outside see zeros, writes outside go nowhere; the
   * sanitizer's warn mode), 2: not made at all (its error mode: the
   * sanitizer fails the launch at it). Host memory outside the arguments is
   * never touched in any case. */
  int gm_overruns_reported;
  /* How the approximate instructions (Rsqrt, Reciprocal) compute, an
   * AscPrecision: correctly rounded (0, the default), or the model of the
   * hardware's documented error (src/sim/vecmath.c). */
  int precision;
} AscLaunchOptions;

/* The platform parameter precision (asc.runtime.config.set_platform). */
typedef enum AscPrecision {
  ASC_PRECISION_EXACT = 0,
  ASC_PRECISION_HARDWARE = 1,
} AscPrecision;

enum { ASC_INTERRUPT_POLL_MS = 100 };

/* Runs `core_num` blocks of the kernel. Thread-safe for distinct launches;
 * blocks never write outside the GM arguments. Returns ASC_OK, or
 * ASC_ERR_INTERRUPTED when options->interrupt cancelled it, or the status
 * of the failing block with the lowest index, described in *err. args holds
 * one argument per parameter, then (family: listtensor) any number of GM
 * buffers that only pointers stored in GM refer to. */
AscStatus asc_kernel_launch(const AscKernel *k, const AscPlatform *platform,
                            int core_num, const AscLaunchArg *args, int n_args,
                            const AscLaunchOptions *options,
                            AscLaunchError *err);

/* Launches with more than one worker run blocks on helper threads kept
 * between launches (src/sim/pool.c): about workers - 1 of them, made at the
 * first such launch. How many are alive now; and ending the idle ones
 * (also done at exit; a later launch makes new ones). */
int asc_launch_helper_threads(void);
void asc_launch_helpers_shutdown(void);

/* family: cores. The kernel's asc.KernelType value (AIV_ONLY = 0 when the
 * detect-kernel-type pass did not run), and the blocks (cores) a launch of
 * core_num runs: core_num times 3 for MIX_AIC_1_2 (a cube core and its
 * two vector cores), 2 for MIX_AIC_1_1, else core_num; 0 when too many.
 * The observers of a launch (sanitizer, timing model) are made for that
 * many blocks. */
int asc_kernel_type(const AscKernel *k);
int asc_kernel_launch_blocks(const AscKernel *k, int core_num);
/* An asc.KernelType value's name ("MIX_AIC_1_2"; "?" for none), and
 * whether it is MIX: compiled for both core kinds (__mix__), which every
 * type but AIV_ONLY and AIC_ONLY is (the devkit's 核间同步能力概述.md,
 * table 1: MIX_AIV_1_0 and MIX_AIC_1_0 are Mix算子 too). */
const char *asc_kernel_type_name(int64_t kernel_type);
int asc_kernel_type_is_mix(int64_t kernel_type);

/* LocalTensor.to_file writes the host file its IR names (as the devkit's
 * CPU debug build does). A process that runs untrusted IR (the fuzzer)
 * turns that off for the whole process: to_file then writes nothing. */
void asc_output_set_files(int enabled);

#endif
