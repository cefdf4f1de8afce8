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
    /* Backend.NPU (npu.c): the CANN runtime, loaded at the first call */
    {"npu_load", py_npu_load, METH_NOARGS,
     "npu_load() -> the runtime library's path (loads it once)"},
    {"npu_loaded", py_npu_loaded, METH_NOARGS, "npu_loaded() -> bool"},
    {"npu_load_dump", py_npu_load_dump, METH_NOARGS,
     "npu_load_dump() -> the dump library's path (libascend_dump.so, for a "
     "kernel that prints)"},
    {"npu_set_device", py_npu_set_device, METH_VARARGS, "rtSetDevice"},
    {"npu_reset_device", py_npu_reset_device, METH_VARARGS, "rtDeviceReset"},
    {"npu_device_count", py_npu_device_count, METH_NOARGS, "rtGetDeviceCount"},
    {"npu_soc_version", py_npu_soc_version, METH_NOARGS, "rtGetSocVersion"},
    {"npu_stream_create", py_npu_stream_create, METH_VARARGS,
     "rtStreamCreate(priority=0) -> stream address"},
    {"npu_stream_destroy", py_npu_stream_destroy, METH_O, "rtStreamDestroy"},
    {"npu_stream_synchronize", py_npu_stream_synchronize, METH_O,
     "rtStreamSynchronize"},
    {"npu_device_synchronize", py_npu_device_synchronize, METH_NOARGS,
     "rtDeviceSynchronize"},
    {"npu_malloc", py_npu_malloc, METH_VARARGS, "rtMalloc(size) -> address"},
    {"npu_free", py_npu_free, METH_O, "rtFree"},
    {"npu_memcpy", py_npu_memcpy, METH_VARARGS,
     "rtMemcpy(dst, dst_max, src, count, kind)"},
    {"npu_c2c_ctrl_addr", py_npu_c2c_ctrl_addr, METH_NOARGS,
     "rtGetC2cCtrlAddr -> the FFTS address"},
    {"npu_finalize", py_npu_finalize, METH_NOARGS, "aclFinalize"},
    {"npu_run", py_npu_run, METH_VARARGS,
     "npu_run(binary, magic, name, blocks, stream, args): one launch (and "
     "what it printed)"},
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
  NpuError = PyErr_NewException("asc._C.NpuError", PyExc_RuntimeError, NULL);
  if (!IRError || !LaunchError || !NpuError ||
      PyModule_AddObject(m, "IRError", IRError) < 0 ||
      PyModule_AddObject(m, "LaunchError", LaunchError) < 0 ||
      PyModule_AddObject(m, "NpuError", NpuError) < 0)
    return NULL;
  Py_INCREF(IRError);
  Py_INCREF(LaunchError);
  Py_INCREF(NpuError);
  const char *names[] = {"Module", "Type", "Value", "Op", "Block", "Kernel"};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    Py_INCREF(types[i]);
    if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0)
      return NULL;
  }
  return m;
}
