/* family: adv normquant. asc._C's side of asc.lib.host's RmsNorm and
 * AscendQuant functions (src/host/rmsnorm_tiling.c). Shapes come as
 * 3-tuples of uint32 values, checked by the Python wrappers. */
#include "pymodule.h"

#include "asc/host.h"

PyObject *py_host_rmsnorm_max_min_tmp_size(PyObject *mod, PyObject *args) {
  (void)mod;
  unsigned int shape[3], type_size;
  int basic;
  if (!PyArg_ParseTuple(args, "(III)Ip", &shape[0], &shape[1], &shape[2],
                        &type_size, &basic))
    return NULL;
  uint32_t sh[3] = {shape[0], shape[1], shape[2]}, mx = 0, mn = 0;
  if (!asc_rmsnorm_max_min_tmp_size(sh, type_size, basic, &mx, &mn))
    Py_RETURN_NONE;
  return Py_BuildValue("(kk)", (unsigned long)mx, (unsigned long)mn);
}

PyObject *py_host_rmsnorm_tiling_info(PyObject *mod, PyObject *args) {
  (void)mod;
  unsigned int shape[3], orig[3], stack, type_size;
  int basic;
  if (!PyArg_ParseTuple(args, "(III)(III)IIp", &shape[0], &shape[1], &shape[2],
                        &orig[0], &orig[1], &orig[2], &stack, &type_size,
                        &basic))
    return NULL;
  uint32_t sh[3] = {shape[0], shape[1], shape[2]};
  uint32_t og[3] = {orig[0], orig[1], orig[2]};
  AscRmsNormTiling t;
  char err[256] = "";
  if (!asc_rmsnorm_tiling_info(sh, og, stack, type_size, basic, &t, err,
                               sizeof err))
    return Py_BuildValue("(Os)", Py_None, err);
  return Py_BuildValue(
      "((kkkkdkkkkkkk)s)", (unsigned long)t.b_length, (unsigned long)t.s_length,
      (unsigned long)t.h_length, (unsigned long)t.original_h_length,
      (double)t.reciprocal_of_h_length, (unsigned long)t.main_bsh_length,
      (unsigned long)t.main_bs_length, (unsigned long)t.main_bs_length_align,
      (unsigned long)t.loop_round, (unsigned long)t.input_tail_pos,
      (unsigned long)t.tail_bsh_length, (unsigned long)t.tail_bs_length, "");
}

PyObject *py_host_ascend_quant_max_min_tmp_size(PyObject *mod, PyObject *args) {
  (void)mod;
  unsigned long long n;
  if (!PyArg_ParseTuple(args, "K", &n))
    return NULL;
  uint32_t mx, mn;
  asc_ascend_quant_max_min_tmp_size(n, &mx, &mn);
  return Py_BuildValue("(kk)", (unsigned long)mx, (unsigned long)mn);
}
