/* asc._C's Backend.NPU functions: the CANN runtime (src/npu/runtime.c) for
 * asc.lib.runtime and the launcher. Nothing is loaded until one of them is
 * called. A failure raises NpuError(message, call, code): the runtime call
 * that failed and its error code; code -1 (ASC_NPU_MISSING) means the
 * runtime library, or an entry point of it, was not found. Addresses
 * (device memory, streams) are Python ints. */
#include "pymodule.h"

#include "asc/npu.h"

PyObject *NpuError; /* (message, call, code) */

static PyObject *raise_status(const AscNpuStatus *st) {
  PyObject *args = Py_BuildValue("(ssi)", st->msg, st->call, (int)st->code);
  if (args) {
    PyErr_SetObject(NpuError, args);
    Py_DECREF(args);
  }
  return NULL;
}

static int as_address(PyObject *o, void **out) {
  unsigned long long v = PyLong_AsUnsignedLongLong(o);
  if (v == (unsigned long long)-1 && PyErr_Occurred())
    return 0;
  if (v > UINTPTR_MAX) {
    PyErr_SetString(PyExc_OverflowError, "address does not fit a pointer");
    return 0;
  }
  *out = (void *)(uintptr_t)v;
  return 1;
}

static PyObject *address(const void *p) {
  return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p);
}

PyObject *py_npu_load(PyObject *self, PyObject *noargs) {
  const char *path = NULL;
  AscNpuStatus st;
  if (asc_npu_load(&path, &st))
    return raise_status(&st);
  return PyUnicode_DecodeFSDefault(path);
}

PyObject *py_npu_loaded(PyObject *self, PyObject *noargs) {
  return PyBool_FromLong(asc_npu_loaded());
}

PyObject *py_npu_load_dump(PyObject *self, PyObject *noargs) {
  const char *path = NULL;
  AscNpuStatus st;
  if (asc_npu_load_dump(&path, &st))
    return raise_status(&st);
  return PyUnicode_DecodeFSDefault(path);
}

PyObject *py_npu_set_device(PyObject *self, PyObject *args) {
  int device;
  AscNpuStatus st;
  if (!PyArg_ParseTuple(args, "i", &device))
    return NULL;
  if (asc_npu_set_device(device, &st))
    return raise_status(&st);
  Py_RETURN_NONE;
}

PyObject *py_npu_reset_device(PyObject *self, PyObject *args) {
  int device;
  AscNpuStatus st;
  if (!PyArg_ParseTuple(args, "i", &device))
    return NULL;
  if (asc_npu_reset_device(device, &st))
    return raise_status(&st);
  Py_RETURN_NONE;
}

PyObject *py_npu_device_count(PyObject *self, PyObject *noargs) {
  int32_t n = 0;
  AscNpuStatus st;
  if (asc_npu_device_count(&n, &st))
    return raise_status(&st);
  return PyLong_FromLong(n);
}

PyObject *py_npu_soc_version(PyObject *self, PyObject *noargs) {
  char buf[64];
  AscNpuStatus st;
  if (asc_npu_soc_version(buf, sizeof buf, &st))
    return raise_status(&st);
  return PyUnicode_DecodeLatin1(buf, (Py_ssize_t)strlen(buf), NULL);
}

PyObject *py_npu_stream_create(PyObject *self, PyObject *args) {
  int priority = 0;
  void *stream = NULL;
  AscNpuStatus st;
  if (!PyArg_ParseTuple(args, "|i", &priority))
    return NULL;
  if (asc_npu_stream_create(&stream, priority, &st))
    return raise_status(&st);
  return address(stream);
}

/* f(address) for the stream / memory functions */
static PyObject *with_address(PyObject *arg, int (*f)(void *, AscNpuStatus *)) {
  void *p;
  AscNpuStatus st;
  if (!as_address(arg, &p))
    return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = f(p, &st);
  Py_END_ALLOW_THREADS if (rc) return raise_status(&st);
  Py_RETURN_NONE;
}

PyObject *py_npu_stream_destroy(PyObject *self, PyObject *arg) {
  return with_address(arg, asc_npu_stream_destroy);
}

PyObject *py_npu_stream_synchronize(PyObject *self, PyObject *arg) {
  return with_address(arg, asc_npu_stream_synchronize);
}

PyObject *py_npu_free(PyObject *self, PyObject *arg) {
  return with_address(arg, asc_npu_free);
}

PyObject *py_npu_device_synchronize(PyObject *self, PyObject *noargs) {
  AscNpuStatus st;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = asc_npu_device_synchronize(&st);
  Py_END_ALLOW_THREADS if (rc) return raise_status(&st);
  Py_RETURN_NONE;
}

PyObject *py_npu_malloc(PyObject *self, PyObject *args) {
  unsigned long long size;
  void *p = NULL;
  AscNpuStatus st;
  if (!PyArg_ParseTuple(args, "K", &size))
    return NULL;
  if (asc_npu_malloc(&p, size, &st))
    return raise_status(&st);
  return address(p);
}

PyObject *py_npu_memcpy(PyObject *self, PyObject *args) {
  PyObject *dst_o, *src_o;
  unsigned long long dst_max, n;
  int kind;
  void *dst, *src;
  AscNpuStatus st;
  if (!PyArg_ParseTuple(args, "OKOKi", &dst_o, &dst_max, &src_o, &n, &kind) ||
      !as_address(dst_o, &dst) || !as_address(src_o, &src))
    return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = asc_npu_memcpy(dst, dst_max, src, n, kind, &st);
  Py_END_ALLOW_THREADS if (rc) return raise_status(&st);
  Py_RETURN_NONE;
}

PyObject *py_npu_c2c_ctrl_addr(PyObject *self, PyObject *noargs) {
  uint64_t addr = 0;
  AscNpuStatus st;
  if (asc_npu_c2c_ctrl_addr(&addr, &st))
    return raise_status(&st);
  return PyLong_FromUnsignedLongLong(addr);
}

PyObject *py_npu_finalize(PyObject *self, PyObject *noargs) {
  AscNpuStatus st;
  if (asc_npu_finalize(&st))
    return raise_status(&st);
  Py_RETURN_NONE;
}

/* One argument of npu_run: ("host", buffer or address, nbytes, copy_back),
 * ("device", address), ("scalar", bytes of 1..8, align), ("alias", index of
 * an earlier "host" argument), ("ffts",) or ("dump", nbytes). */
static int convert_arg(PyObject *t, AscNpuArg *a, Py_buffer *view, int *held,
                       Py_ssize_t i) {
  const char *kind;
  memset(a, 0, sizeof *a);
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 1 ||
      !(kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0)))) {
    PyErr_Format(PyExc_TypeError, "npu_run: argument %zd is not a tuple", i);
    return 0;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(t);
  if (!strcmp(kind, "host") && n == 4) {
    PyObject *src = PyTuple_GET_ITEM(t, 1);
    a->kind = ASC_NPU_ARG_HOST;
    a->copy_back = PyObject_IsTrue(PyTuple_GET_ITEM(t, 3));
    if (a->copy_back < 0)
      return 0;
    if (PyLong_Check(src)) {
      unsigned long long bytes =
          PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, 2));
      if (PyErr_Occurred() || !as_address(src, &a->host))
        return 0;
      a->bytes = bytes;
      return 1;
    }
    int flags = PyBUF_ANY_CONTIGUOUS | (a->copy_back ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(src, view, flags) < 0)
      return 0;
    *held = 1;
    a->host = view->buf;
    a->bytes = (uint64_t)view->len;
    return 1;
  }
  if (!strcmp(kind, "device") && n == 2) {
    void *p;
    if (!as_address(PyTuple_GET_ITEM(t, 1), &p))
      return 0;
    a->kind = ASC_NPU_ARG_DEVICE;
    a->device = (uint64_t)(uintptr_t)p;
    return 1;
  }
  if (!strcmp(kind, "scalar") && n == 3) {
    char *bytes;
    Py_ssize_t len;
    long align = PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
    if (PyErr_Occurred() ||
        PyBytes_AsStringAndSize(PyTuple_GET_ITEM(t, 1), &bytes, &len) < 0)
      return 0;
    if (len < 1 || len > 8 || align < 1 || align > 8) {
      PyErr_Format(PyExc_ValueError,
                   "npu_run: argument %zd: a scalar of %zd bytes aligned to "
                   "%ld",
                   i, len, align);
      return 0;
    }
    a->kind = ASC_NPU_ARG_SCALAR;
    memcpy(a->value, bytes, (size_t)len);
    a->size = (uint32_t)len;
    a->align = (uint32_t)align;
    return 1;
  }
  if (!strcmp(kind, "alias") && n == 2) {
    long j = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
    if (j == -1 && PyErr_Occurred())
      return 0;
    if (j < 0 || j >= i) {
      PyErr_Format(PyExc_ValueError,
                   "npu_run: argument %zd: an alias of %ld, which is not "
                   "an earlier argument",
                   i, j);
      return 0;
    }
    a->kind = ASC_NPU_ARG_ALIAS;
    a->alias = (int)j;
    return 1;
  }
  if (!strcmp(kind, "dump") && n == 2) {
    unsigned long long bytes =
        PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(t, 1));
    if (PyErr_Occurred())
      return 0;
    if (!bytes) {
      PyErr_Format(PyExc_ValueError,
                   "npu_run: argument %zd: an empty dump buffer", i);
      return 0;
    }
    a->kind = ASC_NPU_ARG_DUMP;
    a->bytes = bytes;
    return 1;
  }
  if (!strcmp(kind, "ffts") && n == 1) {
    a->kind = ASC_NPU_ARG_FFTS;
    return 1;
  }
  PyErr_Format(PyExc_ValueError, "npu_run: argument %zd: bad kind %s", i, kind);
  return 0;
}

PyObject *py_npu_run(PyObject *self, PyObject *args) {
  Py_buffer binary;
  const char *name;
  unsigned int magic, blocks;
  PyObject *stream_o, *arg_list;
  void *stream;
  if (!PyArg_ParseTuple(args, "y*IsIOO!", &binary, &magic, &name, &blocks,
                        &stream_o, &PyList_Type, &arg_list))
    return NULL;
  if (!as_address(stream_o, &stream)) {
    PyBuffer_Release(&binary);
    return NULL;
  }
  Py_ssize_t n = PyList_GET_SIZE(arg_list);
  AscNpuArg *a = PyMem_Calloc((size_t)n + 1, sizeof *a);
  Py_buffer *views = PyMem_Calloc((size_t)n + 1, sizeof *views);
  int *held = PyMem_Calloc((size_t)n + 1, sizeof *held);
  PyObject *result = NULL;
  if (!a || !views || !held) {
    PyErr_NoMemory();
    goto out;
  }
  if (n > 4096) {
    PyErr_SetString(PyExc_ValueError, "npu_run: more than 4096 arguments");
    goto out;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (!convert_arg(PyList_GET_ITEM(arg_list, i), &a[i], &views[i], &held[i],
                     i))
      goto out;
  AscNpuLaunch l = {
      binary.buf, (uint64_t)binary.len, magic, name, blocks, stream, a, (int)n};
  AscNpuStatus st;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = asc_npu_run(&l, &st);
  Py_END_ALLOW_THREADS if (rc) raise_status(&st);
  else {
    Py_INCREF(Py_None);
    result = Py_None;
  }
out:
  for (Py_ssize_t i = 0; held && i < n; i++)
    if (held[i])
      PyBuffer_Release(&views[i]);
  PyMem_Free(a);
  PyMem_Free(views);
  PyMem_Free(held);
  PyBuffer_Release(&binary);
  return result;
}
