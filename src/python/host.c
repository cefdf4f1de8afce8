/* asc._C's side of asc.lib.host: the platform's memory sizes and the matmul
 * tiling (include/asc/host.h). The Python tiling objects keep their
 * settings in a dict named as AscMatmulTilingArgs's members; a call takes
 * that dict, so no state lives here. */
#include "pymodule.h"

#include <string.h>

#include "asc/host.h"

static const AscPlatform *platform_named(const char *name) {
  const AscPlatform *p = asc_platform_get(name);
  if (!p)
    PyErr_Format(PyExc_ValueError, "unknown platform '%s'", name);
  return p;
}

PyObject *py_host_core_mem_size(PyObject *mod, PyObject *args) {
  (void)mod;
  const char *name;
  int type;
  if (!PyArg_ParseTuple(args, "si", &name, &type))
    return NULL;
  const AscPlatform *p = platform_named(name);
  if (!p)
    return NULL;
  uint64_t size = 0;
  if (asc_host_core_mem_size(p, type, &size))
    return PyErr_Format(PyExc_ValueError, "unknown CoreMemType value %d", type);
  return PyLong_FromUnsignedLongLong(size);
}

static int32_t *arg_slot(AscMatmulTilingArgs *a, int i) {
  return (int32_t *)a + i;
}

PyObject *py_host_matmul_tiling_defaults(PyObject *mod, PyObject *args) {
  (void)mod;
  int kind;
  const char *name;
  if (!PyArg_ParseTuple(args, "is", &kind, &name))
    return NULL;
  const AscPlatform *p = platform_named(name);
  if (!p)
    return NULL;
  AscMatmulTilingArgs a;
  asc_matmul_tiling_args_init(&a, kind, p);
  PyObject *d = PyDict_New();
  if (!d)
    return NULL;
  for (int i = 0; asc_matmul_tiling_arg_names[i]; i++) {
    PyObject *v = PyLong_FromLong(*arg_slot(&a, i));
    if (!v || PyDict_SetItemString(d, asc_matmul_tiling_arg_names[i], v) < 0) {
      Py_XDECREF(v);
      Py_DECREF(d);
      return NULL;
    }
    Py_DECREF(v);
  }
  return d;
}

PyObject *py_host_matmul_tiling(PyObject *mod, PyObject *args) {
  (void)mod;
  PyObject *settings;
  if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &settings))
    return NULL;
  AscMatmulTilingArgs a;
  memset(&a, 0, sizeof a);
  for (int i = 0; asc_matmul_tiling_arg_names[i]; i++) {
    const char *key = asc_matmul_tiling_arg_names[i];
    PyObject *v = PyDict_GetItemString(settings, key); /* borrowed */
    if (!v)
      return PyErr_Format(PyExc_KeyError, "tiling setting '%s' missing", key);
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred())
      return NULL;
    if (overflow || x < INT32_MIN || x > INT32_MAX)
      return PyErr_Format(PyExc_ValueError,
                          "tiling setting '%s' does not fit int32", key);
    *arg_slot(&a, i) = (int32_t)x;
  }
  AscTCubeTiling t;
  AscMatmulTilingSplit split;
  char err[256];
  int ret = asc_matmul_tiling_compute(&a, &t, &split, err, sizeof err);
  if (ret != 0)
    return Py_BuildValue("(iOOs)", ret, Py_None, Py_None, err);
  PyObject *values = PyTuple_New(ASC_TCUBE_TILING_NFIELDS);
  if (!values)
    return NULL;
  const int32_t *tv = (const int32_t *)&t;
  for (int i = 0; i < ASC_TCUBE_TILING_NFIELDS; i++) {
    PyObject *v = PyLong_FromLong(tv[i]);
    if (!v) {
      Py_DECREF(values);
      return NULL;
    }
    PyTuple_SET_ITEM(values, i, v);
  }
  return Py_BuildValue("(iN(iiiii)s)", ret, values, split.dim, split.m_dim,
                       split.n_dim, split.batch_core_m, split.batch_core_n, "");
}
