/* What the files of asc._C share (private to src/python): the wrapper
 * object structs, the type and exception objects, and the functions one
 * file defines for another. Every file of the module includes this first
 * (it includes Python.h, which must come before the standard headers). */
#ifndef ASC_PYTHON_PYMODULE_H
#define ASC_PYTHON_PYMODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "asc/exec.h"
#include "asc/ir.h"
#include "sim/sanitizer.h"
#include "sim/timing.h"

/* ---- the objects (ir_module.c, ir_objects.c, kernel.c) ------------------
 * Every wrapper object keeps its Module alive (owner), because the IR lives
 * in the module's arena. The wrappers (all but ModuleObject) share the
 * layout {head, owner, ptr}: wrap and wrapper_dealloc rely on it. */

typedef struct {
  PyObject_HEAD AscContext *ctx;
  AscModule *m;
} ModuleObject;

typedef struct {
  PyObject_HEAD PyObject *owner; /* ModuleObject */
  const AscType *t;
} TypeObject;

typedef struct {
  PyObject_HEAD PyObject *owner;
  AscValue *v;
} ValueObject;

typedef struct {
  PyObject_HEAD PyObject *owner;
  AscOp *op;
} OpObject;

typedef struct {
  PyObject_HEAD PyObject *owner;
  AscBlock *b;
} BlockObject;

typedef struct {
  PyObject_HEAD PyObject *owner;
  AscKernel *k;
} KernelObject;

extern PyTypeObject ModuleType;                             /* ir_module.c */
extern PyTypeObject TypeType, ValueType, OpType, BlockType; /* ir_objects.c */
extern PyTypeObject KernelType;                             /* kernel.c */

/* The exceptions (module.c), with their arguments:
 *   IRError (message, file, line, col);
 *   LaunchError (status, message, block, file, line, col, op), plus the
 *     sanitizer's reports when the launch was sanitized. */
extern PyObject *IRError;
extern PyObject *LaunchError;
extern PyObject *NpuError; /* (message, call, code): npu.c */

/* ---- shared helpers (ir_objects.c) -------------------------------------- */

/* Type.kind names, indexed by AscTypeKind. */
extern const char *const type_kind_names[ASC_TY_KIND_COUNT];

int list_append_new(PyObject *l, PyObject *item);
PyObject *wrap(PyTypeObject *tp, PyObject *owner, void *ptr);
void wrapper_dealloc(PyObject *self);
int collect_types(PyObject *seq, const AscType ***out, int *n);

/* ---- launch arguments (launch_args.c) ----------------------------------- */

enum { LAUNCH_INLINE_ARGS = 16 };

/* The converted arguments of one launch: args[0..n) for asc_kernel_launch,
 * and what they hold until launch_args_release: the argument sequence
 * (whose "gm" tuples keep their owners alive) and the buffers acquired.
 * Up to LAUNCH_INLINE_ARGS arguments live in the struct itself (args points
 * into it), so it is never copied. */
typedef struct LaunchArgs {
  PyObject *fast;
  Py_ssize_t n;
  AscLaunchArg *args;
  Py_buffer *views;
  AscLaunchArg inline_args[LAUNCH_INLINE_ARGS];
  Py_buffer inline_views[LAUNCH_INLINE_ARGS];
} LaunchArgs;

int launch_args_convert(LaunchArgs *la, const AscKernel *k, PyObject *args);
/* family: listtensor: as launch_args_convert, where the last n_extra items
 * of args are GM buffers beyond the kernel's parameters (the tensors an
 * asc.TensorList argument points to). */
int launch_args_convert_extra(LaunchArgs *la, const AscKernel *k,
                              PyObject *args, int n_extra);
void launch_args_release(LaunchArgs *la);

/* ---- sanitizer and timing data (results.c) ------------------------------ */

PyObject *san_reports(const AscSanitizer *san);
PyObject *san_failure_reports(const AscSanitizer *san);
AscTiming *timing_prepare(const AscKernel *k, PyObject *spec,
                          const AscPlatform *p, int core_num);
PyObject *timing_result(const AscTiming *t, int core_num);

/* ---- module functions (module.c's table) -------------------------------- */

/* ir_module.c */
PyObject *py_op_names(PyObject *mod, PyObject *unused);
PyObject *py_pass_names(PyObject *mod, PyObject *unused); /* family: ubplan */
PyObject *py_ops_without_emitter_rule(PyObject *mod, PyObject *unused);
PyObject *py_struct_infos(PyObject *mod, PyObject *unused);
PyObject *py_enum_infos(PyObject *mod, PyObject *unused);
/* kernel.c */
PyObject *py_platform(PyObject *mod, PyObject *args);
PyObject *py_set_sanitize_default(PyObject *mod, PyObject *args);
PyObject *py_helper_threads(PyObject *mod, PyObject *unused);
/* results.c */
PyObject *py_timing_params(PyObject *mod, PyObject *args);
/* family: host (asc.lib.host, host.c) */
PyObject *py_host_core_mem_size(PyObject *mod, PyObject *args);
PyObject *py_host_matmul_tiling(PyObject *mod, PyObject *args);
PyObject *py_host_matmul_tiling_defaults(PyObject *mod, PyObject *args);
/* family: adv softmax (host_softmax.c) */
PyObject *py_host_softmax_tiling(PyObject *mod, PyObject *args);
PyObject *py_host_softmax_tmp_size(PyObject *mod, PyObject *args);
/* family: adv normquant (host_norm.c) */
PyObject *py_host_rmsnorm_max_min_tmp_size(PyObject *mod, PyObject *args);
PyObject *py_host_rmsnorm_tiling_info(PyObject *mod, PyObject *args);
PyObject *py_host_ascend_quant_max_min_tmp_size(PyObject *mod, PyObject *args);

/* ---- Backend.NPU (npu.c) ------------------------------------------------ */

PyObject *py_npu_load(PyObject *self, PyObject *noargs);
PyObject *py_npu_loaded(PyObject *self, PyObject *noargs);
PyObject *py_npu_load_dump(PyObject *self, PyObject *noargs);
PyObject *py_npu_set_device(PyObject *self, PyObject *args);
PyObject *py_npu_reset_device(PyObject *self, PyObject *args);
PyObject *py_npu_device_count(PyObject *self, PyObject *noargs);
PyObject *py_npu_soc_version(PyObject *self, PyObject *noargs);
PyObject *py_npu_stream_create(PyObject *self, PyObject *args);
PyObject *py_npu_stream_destroy(PyObject *self, PyObject *arg);
PyObject *py_npu_stream_synchronize(PyObject *self, PyObject *arg);
PyObject *py_npu_device_synchronize(PyObject *self, PyObject *noargs);
PyObject *py_npu_malloc(PyObject *self, PyObject *args);
PyObject *py_npu_free(PyObject *self, PyObject *arg);
PyObject *py_npu_memcpy(PyObject *self, PyObject *args);
PyObject *py_npu_c2c_ctrl_addr(PyObject *self, PyObject *noargs);
PyObject *py_npu_finalize(PyObject *self, PyObject *noargs);
PyObject *py_npu_run(PyObject *self, PyObject *args);

#endif
