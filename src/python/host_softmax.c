/* family: adv softmax. asc._C's side of asc.lib.host's SoftMax tiling
 * (include/asc/softmax_tiling.h): host_softmax_tiling(shape, type_size,
 * work_bytes) -> the 16 members; host_softmax_tmp_size(shape, type_size,
 * max) -> bytes. The devkit's host checks failing: ValueError. */
#include "pymodule.h"

#include "asc/softmax_tiling.h"

/* shape: a sequence of ints, at most 8 */
static int shape_arg(PyObject *o, int64_t *dims, int *n) {
  PyObject *seq =
      PySequence_Fast(o, "src_shape must be a list or tuple of ints");
  if (!seq)
    return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  if (len > 8) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "src_shape has more than 8 dimensions");
    return -1;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    PyObject *v = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyLong_Check(v) || PyBool_Check(v)) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError, "src_shape must hold ints");
      return -1;
    }
    dims[i] = PyLong_AsLongLong(v);
    if (dims[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
  }
  *n = (int)len;
  Py_DECREF(seq);
  return 0;
}

PyObject *py_host_softmax_tiling(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *shape;
  unsigned int ts, work;
  if (!PyArg_ParseTuple(args, "OII", &shape, &ts, &work))
    return NULL;
  int64_t dims[8];
  int n = 0;
  if (shape_arg(shape, dims, &n))
    return NULL;
  uint32_t t[ASC_SMT_COUNT];
  char err[512];
  if (asc_softmax_tiling_func(dims, n, ts, work, t, err, (int)sizeof err))
    return PyErr_Format(PyExc_ValueError, "%s", err);
  PyObject *out = PyTuple_New(ASC_SMT_COUNT);
  for (int i = 0; out && i < ASC_SMT_COUNT; i++)
    PyTuple_SET_ITEM(out, i, PyLong_FromUnsignedLong(t[i]));
  return out;
}

PyObject *py_host_softmax_tmp_size(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *shape;
  unsigned int ts;
  int max;
  if (!PyArg_ParseTuple(args, "OIp", &shape, &ts, &max))
    return NULL;
  int64_t dims[8];
  int n = 0;
  if (shape_arg(shape, dims, &n))
    return NULL;
  char err[512];
  int64_t r = asc_softmax_tmp_size(dims, n, ts, max, err, (int)sizeof err);
  if (r < 0)
    return PyErr_Format(PyExc_ValueError, "%s", err);
  return PyLong_FromLongLong(r);
}
