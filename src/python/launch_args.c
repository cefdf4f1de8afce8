/* asc._C's launch arguments: each Python argument of Kernel.launch becomes
 * an AscLaunchArg by the kernel's parameter type (buffers, raw "gm" tuples,
 * ints, floats), and what the conversion holds is released after the
 * launch. */
#include "pymodule.h"

#include <string.h>

/* A number for a parameter (field < 0) or for number `field` of a struct
 * parameter, of type dt: range-checked for an integer type. */
static int convert_number(AscDType dt, PyObject *o, AscLaunchArg *a,
                          Py_ssize_t i, int field) {
  if (asc_dtype_is_float(dt)) {
    a->kind = ASC_ARG_FLOAT;
    a->f = PyFloat_AsDouble(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  a->kind = ASC_ARG_INT;
  PyObject *idx = PyNumber_Index(o);
  if (!idx)
    return -1;
  int overflow = 0;
  if (dt == ASC_DT_UINT64) { /* held as its bit pattern */
    unsigned long long u = PyLong_AsUnsignedLongLong(idx);
    overflow = u == (unsigned long long)-1 && PyErr_Occurred();
    if (overflow)
      PyErr_Clear();
    memcpy(&a->i, &u, sizeof a->i);
  } else {
    a->i = PyLong_AsLongLongAndOverflow(idx, &overflow);
  }
  Py_DECREF(idx);
  if (PyErr_Occurred())
    return -1;
  size_t bits = asc_dtype_size(dt) * 8;
  int64_t lo = 0, hi = 0;
  if (bits < 64) {
    int is_unsigned = asc_dtype_is_unsigned_int(dt) || dt == ASC_DT_BOOL;
    lo = is_unsigned ? 0 : -((int64_t)1 << (bits - 1));
    hi =
        is_unsigned ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
    if (dt == ASC_DT_BOOL)
      hi = 1;
  }
  if (overflow || (bits < 64 && (a->i < lo || a->i > hi))) {
    if (field < 0)
      PyErr_Format(PyExc_OverflowError,
                   "kernel argument %zd does not fit the kernel's %s parameter",
                   i, asc_dtype_name(dt));
    else
      PyErr_Format(PyExc_OverflowError,
                   "kernel argument %zd: number %d of the struct does not fit "
                   "its field's type %s",
                   i, field, asc_dtype_name(dt));
    return -1;
  }
  return 0;
}

/* A struct parameter: ("struct", numbers), one number per register slot of
 * the struct (its number fields, nested structs flattened, in order; what
 * Struct.values() gives). The numbers are held in a->fields, which
 * launch_args_release frees. */
static int convert_struct(const AscStructInfo *si, PyObject *o, AscLaunchArg *a,
                          Py_ssize_t i) {
  a->kind = ASC_ARG_STRUCT;
  const char *kind = NULL;
  PyObject *values = NULL;
  if (!PyTuple_Check(o) || !PyArg_ParseTuple(o, "sO", &kind, &values) ||
      strcmp(kind, "struct") != 0) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError,
                 "kernel argument %zd: a %s is passed as (\"struct\", "
                 "numbers)",
                 i, si->name);
    return -1;
  }
  PyObject *fast = PySequence_Fast(values, "the numbers of a struct");
  if (!fast)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n != si->n_slots) {
    PyErr_Format(PyExc_TypeError,
                 "kernel argument %zd: a %s has %d numbers (its fields, "
                 "nested structs flattened), got %zd",
                 i, si->name, si->n_slots, n);
    Py_DECREF(fast);
    return -1;
  }
  AscLaunchArg *fields = PyMem_Calloc((size_t)n + 1, sizeof *fields);
  if (!fields) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  a->fields = fields;
  a->n_fields = (int)n;
  int rc = 0;
  for (Py_ssize_t k = 0; k < n && !rc; k++)
    rc = convert_number(asc_struct_slot_dtype(si, (int)k),
                        PySequence_Fast_GET_ITEM(fast, k), &fields[k], i,
                        (int)k);
  Py_DECREF(fast);
  return rc;
}

/* One launch argument, converted by the kernel's parameter type:
 *   global address: an object with the buffer protocol (a NumPy array:
 *     C-contiguous; read-only buffers are passed read-only), or a tuple
 *     ("gm", address, nbytes, readonly, owner) for memory the front end
 *     has checked and vouches for (torch tensors: launcher.py checks the
 *     type and the storage's extent; owner, kept alive by the tuple for the
 *     launch, is the storage);
 *   integer: an int (or anything with __index__), range-checked for i32;
 *   float: a float or an int;
 *   struct: ("struct", numbers) (convert_struct).
 * A buffer acquired here is released by the caller (view->obj != NULL). */
static int convert_arg(const AscType *t, PyObject *o, AscLaunchArg *a,
                       Py_buffer *view, Py_ssize_t i) {
  if (t->kind == ASC_TY_GLOBAL_ADDRESS) {
    a->kind = ASC_ARG_GM;
    if (PyTuple_Check(o)) {
      const char *kind;
      PyObject *addr, *nbytes, *owner = NULL;
      int readonly = 0;
      if (!PyArg_ParseTuple(o, "sOO|pO", &kind, &addr, &nbytes, &readonly,
                            &owner))
        return -1;
      if (strcmp(kind, "gm") != 0) {
        PyErr_Format(PyExc_TypeError,
                     "kernel argument %zd: a raw buffer is a tuple (\"gm\", "
                     "address, nbytes, readonly, owner)",
                     i);
        return -1;
      }
      a->ptr = PyLong_AsVoidPtr(addr);
      a->nbytes = PyLong_AsSize_t(nbytes);
      a->readonly = readonly;
      return PyErr_Occurred() ? -1 : 0;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
      PyErr_Clear();
      if (PyObject_GetBuffer(o, view, PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Format(PyExc_ValueError,
                     "kernel argument %zd must be a C-contiguous array", i);
        return -1;
      }
      a->readonly = 1;
    }
    a->ptr = view->buf;
    a->nbytes = (size_t)view->len;
    return 0;
  }
  const AscStructInfo *si = asc_type_struct_info(t);
  if (si)
    return convert_struct(si, o, a, i);
  return convert_number(t->dtype, o, a, i, -1);
}

/* Converts args (a sequence, one item per parameter of k) into la. On
 * failure the error is set, nothing is held and the result is -1; on
 * success the caller releases la with launch_args_release. */
int launch_args_convert(LaunchArgs *la, const AscKernel *k, PyObject *args) {
  return launch_args_convert_extra(la, k, args, 0);
}

int launch_args_convert_extra(LaunchArgs *la, const AscKernel *k,
                              PyObject *args, int n_extra) {
  /* family: listtensor: the type of the extra GM buffers */
  static const AscType extra_type = {
      .kind = ASC_TY_GLOBAL_ADDRESS, .dtype = ASC_DT_UINT8, .position = -1};
  la->n = 0;
  la->args = la->inline_args;
  la->views = la->inline_views;
  la->fast = PySequence_Fast(args, "args must be a sequence");
  if (!la->fast)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(la->fast);
  int n_params = asc_kernel_num_params(k);
  if (n_extra < 0 || n - n_extra != n_params) {
    PyErr_Format(PyExc_TypeError, "the kernel takes %d arguments, got %zd",
                 n_params, n - n_extra);
    launch_args_release(la);
    return -1;
  }
  if (n > LAUNCH_INLINE_ARGS) {
    la->args = PyMem_Calloc((size_t)n, sizeof(AscLaunchArg));
    la->views = PyMem_Calloc((size_t)n, sizeof(Py_buffer));
    if (!la->args || !la->views) {
      PyErr_NoMemory();
      launch_args_release(la);
      return -1;
    }
  } else {
    memset(la->inline_args, 0, sizeof(AscLaunchArg) * (size_t)n);
    memset(la->inline_views, 0, sizeof(Py_buffer) * (size_t)n);
  }
  la->n = n;
  for (Py_ssize_t i = 0; i < n; i++)
    if (convert_arg(i < n_params ? asc_kernel_param_type(k, (int)i)
                                 : &extra_type,
                    PySequence_Fast_GET_ITEM(la->fast, i), &la->args[i],
                    &la->views[i], i)) {
      launch_args_release(la);
      return -1;
    }
  return 0;
}

void launch_args_release(LaunchArgs *la) {
  for (Py_ssize_t i = 0; i < la->n; i++) {
    if (la->views[i].obj)
      PyBuffer_Release(&la->views[i]);
    if (la->args[i].kind == ASC_ARG_STRUCT)
      PyMem_Free((void *)la->args[i].fields);
  }
  if (la->args != la->inline_args) {
    PyMem_Free(la->args);
    PyMem_Free(la->views);
  }
  Py_DECREF(la->fast);
}
