/* asc._C: the CPython binding of the C core.
 *
 * It is deliberately thin: the Python front end builds IR with one generic
 * `Module.create` call per op (the op table checks everything), compiles it,
 * and launches it. Every wrapper object keeps its Module alive, because the
 * IR lives in the module's arena.
 *
 * This file registers the module: its function table, its types and its
 * exceptions. The objects are in ir_module.c (Module), ir_objects.c (Type,
 * Value, Op, Block) and kernel.c (Kernel and its launch); launch_args.c
 * converts launch arguments and results.c turns sanitizer and timing data
 * into Python objects. pymodule.h is what they share. */
#include "pymodule.h"

PyObject *IRError;     /* (message, file, line, col) */
PyObject *LaunchError; /* (status, message, block, file, line, col, op) */

static PyMethodDef functions[] = {
    {"platform", py_platform, METH_VARARGS, "platform(name) -> dict"},
    {"op_names", py_op_names, METH_NOARGS, "names of all IR ops"},
    {"pass_names", py_pass_names, METH_NOARGS,
     "names of the IR passes (family: ubplan)"},
    {"struct_infos", py_struct_infos, METH_NOARGS,
     "the parameter-struct table: [{name, cpp, fields: [(name, cpp, dtype, "
     "default)]}]"},
    {"enum_infos", py_enum_infos, METH_NOARGS,
     "the enum table: [{name, prefix, python, members: [(name, value, cpp, "
     "in_ir)]}]"},
    {"timing_params", py_timing_params, METH_VARARGS,
     "timing_params(platform) -> [(name, default, unit, source)]"},
    {"set_sanitize_default", py_set_sanitize_default, METH_VARARGS,
     "set_sanitize_default(mode): 0 off, 1 warn, 2 error"},
    {"helper_threads", py_helper_threads, METH_NOARGS,
     "helper_threads() -> int: the threads kept alive to run the blocks of "
     "multi-block launches"},
    {"ops_without_emitter_rule", py_ops_without_emitter_rule, METH_NOARGS,
     "op names the Ascend C emitter cannot spell (must be empty)"},
    /* family: host (asc.lib.host) */
    {"host_core_mem_size", py_host_core_mem_size, METH_VARARGS,
     "host_core_mem_size(platform, CoreMemType value) -> bytes"},
    {"host_matmul_tiling", py_host_matmul_tiling, METH_VARARGS,
     "host_matmul_tiling(settings) -> (ret, TCubeTiling values or None, "
     "(dim, m_dim, n_dim, batch_core_m, batch_core_n), message)"},
    /* family: adv softmax (host_softmax.c) */
    {"host_softmax_tiling", py_host_softmax_tiling, METH_VARARGS,
     "host_softmax_tiling(src_shape, data_type_size, work_bytes) -> the 16 "
     "SoftMaxTiling members"},
    {"host_softmax_tmp_size", py_host_softmax_tmp_size, METH_VARARGS,
     "host_softmax_tmp_size(src_shape, data_type_size, max) -> bytes"},
    {"host_matmul_tiling_defaults", py_host_matmul_tiling_defaults,
     METH_VARARGS,
     "host_matmul_tiling_defaults(kind, platform) -> {setting: value}"},
    /* family: adv normquant (host_norm.c) */
    {"host_rmsnorm_max_min_tmp_size", py_host_rmsnorm_max_min_tmp_size,
     METH_VARARGS,
     "host_rmsnorm_max_min_tmp_size((b, s, h), type_size, basic_block) -> "
     "(max, min) or None"},
    {"host_rmsnorm_tiling_info", py_host_rmsnorm_tiling_info, METH_VARARGS,
     "host_rmsnorm_tiling_info(shape, original_shape, stack_buffer_size, "
     "type_size, basic_block) -> (12 RmsNormTiling values or None, message)"},
    {"host_ascend_quant_max_min_tmp_size",
     py_host_ascend_quant_max_min_tmp_size, METH_VARARGS,
     "host_ascend_quant_max_min_tmp_size(elements) -> (max, min)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT,
                                       "asc._C",
                                       "The pyasc C core.",
                                       -1,
                                       functions,
                                       NULL,
                                       NULL,
                                       NULL,
                                       NULL};

PyMODINIT_FUNC PyInit__C(void); /* exported entry point */
PyMODINIT_FUNC PyInit__C(void) {
  PyTypeObject *types[] = {&ModuleType, &TypeType,  &ValueType,
                           &OpType,     &BlockType, &KernelType};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (PyType_Ready(types[i]) < 0)
      return NULL;
  PyObject *m = PyModule_Create(&moduledef);
  if (!m)
    return NULL;
  IRError = PyErr_NewException("asc._C.IRError", NULL, NULL);
  LaunchError = PyErr_NewException("asc._C.LaunchError", NULL, NULL);
  if (!IRError || !LaunchError ||
      PyModule_AddObject(m, "IRError", IRError) < 0 ||
      PyModule_AddObject(m, "LaunchError", LaunchError) < 0)
    return NULL;
  Py_INCREF(IRError);
  Py_INCREF(LaunchError);
  const char *names[] = {"Module", "Type", "Value", "Op", "Block", "Kernel"};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    Py_INCREF(types[i]);
    if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0)
      return NULL;
  }
  return m;
}
