/* asc._C's wrappers of IR nodes: the Type, Value, Op and Block objects and
 * their accessors, and the helpers every wrapper uses (wrap, collect_types).
 */
#include "pymodule.h"

#include <stdint.h>

const char *const type_kind_names[ASC_TY_KIND_COUNT] = {
    "scalar", "global_address", "global_tensor", "local_tensor", "tpipe",
    "tque", "tbuf", "struct",
    /* family: listtensor */
    "tensor_desc", "list_tensor_desc"};

/* Appends a new reference to list l and drops it; -1 on failure (a NULL
 * item counts as one: the error is already set). */
int list_append_new(PyObject *l, PyObject *item) {
  int r = item ? PyList_Append(l, item) : -1;
  Py_XDECREF(item);
  return r;
}

PyObject *wrap(PyTypeObject *tp, PyObject *owner, void *ptr) {
  PyObject *o = tp->tp_alloc(tp, 0);
  if (!o)
    return NULL;
  Py_INCREF(owner);
  /* all wrapper structs share the layout {head, owner, ptr} */
  ((ValueObject *)o)->owner = owner;
  ((ValueObject *)o)->v = ptr;
  return o;
}

void wrapper_dealloc(PyObject *self) {
  Py_XDECREF(((ValueObject *)self)->owner);
  Py_TYPE(self)->tp_free(self);
}

/* Fills an array of type pointers from a sequence of Type objects. */
int collect_types(PyObject *seq, const AscType ***out, int *n) {
  PyObject *fast = PySequence_Fast(seq, "expected a sequence of Types");
  if (!fast)
    return -1;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  *out = PyMem_Calloc((size_t)len + 1, sizeof(AscType *));
  if (!*out) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyObject_TypeCheck(o, &TypeType)) {
      PyErr_SetString(PyExc_TypeError, "expected a Type");
      Py_DECREF(fast);
      PyMem_Free(*out);
      *out = NULL;
      return -1;
    }
    (*out)[i] = ((TypeObject *)o)->t;
  }
  *n = (int)len;
  Py_DECREF(fast);
  return 0;
}

/* ---- Type ---------------------------------------------------------------- */

static PyObject *type_str(TypeObject *self) {
  char buf[128];
  asc_type_format(self->t, buf, sizeof buf);
  return PyUnicode_FromString(buf);
}

static PyObject *type_get(TypeObject *self, void *which) {
  const AscType *t = self->t;
  switch ((intptr_t)which) {
  case 0:
    return PyUnicode_FromString(type_kind_names[t->kind]);
  case 1:
    if (t->dtype == ASC_DT_NONE)
      Py_RETURN_NONE;
    return PyUnicode_FromString(asc_dtype_name(t->dtype));
  case 2:
    return PyLong_FromLong(t->position);
  case 4: {
    const AscStructInfo *si = asc_type_struct_info(t);
    if (!si)
      Py_RETURN_NONE;
    return PyUnicode_FromString(si->name);
  }
  default:
    return PyLong_FromLong(t->depth);
  }
}

static PyObject *type_richcompare(PyObject *a, PyObject *b, int op) {
  if (!PyObject_TypeCheck(b, &TypeType) || (op != Py_EQ && op != Py_NE))
    Py_RETURN_NOTIMPLEMENTED;
  int eq = ((TypeObject *)a)->t == ((TypeObject *)b)->t;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t type_hash(TypeObject *self) {
  return (Py_hash_t)(((uintptr_t)self->t) >> 4);
}

static PyGetSetDef type_getset[] = {
    {"kind", (getter)type_get, NULL, "type kind", (void *)0},
    {"dtype", (getter)type_get, NULL, "element dtype name", (void *)1},
    {"position", (getter)type_get, NULL, "TPosition value", (void *)2},
    {"depth", (getter)type_get, NULL, "queue depth", (void *)3},
    {"struct_name", (getter)type_get, NULL,
     "the struct's name (kind 'struct'), else None", (void *)4},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject TypeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Type",
    .tp_basicsize = sizeof(TypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = wrapper_dealloc,
    .tp_str = (reprfunc)type_str,
    .tp_repr = (reprfunc)type_str,
    .tp_richcompare = type_richcompare,
    .tp_hash = (hashfunc)type_hash,
    .tp_getset = type_getset,
};

/* ---- Value --------------------------------------------------------------- */

static PyObject *value_get_type(ValueObject *self, void *unused) {
  return wrap(&TypeType, self->owner, (void *)self->v->type);
}

static PyObject *value_get_name(ValueObject *self, void *unused) {
  if (!self->v->name)
    Py_RETURN_NONE;
  return PyUnicode_FromString(self->v->name);
}

static int value_set_name(ValueObject *self, PyObject *val, void *unused) {
  const char *s = val && val != Py_None ? PyUnicode_AsUTF8(val) : NULL;
  if (val && val != Py_None && !s)
    return -1;
  self->v->name = s ? asc_strdup(((ModuleObject *)self->owner)->ctx, s) : NULL;
  return 0;
}

static PyObject *value_richcompare(PyObject *a, PyObject *b, int op) {
  if (!PyObject_TypeCheck(b, &ValueType) || (op != Py_EQ && op != Py_NE))
    Py_RETURN_NOTIMPLEMENTED;
  int eq = ((ValueObject *)a)->v == ((ValueObject *)b)->v;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t value_hash(ValueObject *self) {
  return (Py_hash_t)(((uintptr_t)self->v) >> 4);
}

static PyGetSetDef value_getset[] = {
    {"type", (getter)value_get_type, NULL, "the value's Type", NULL},
    {"name", (getter)value_get_name, (setter)value_set_name,
     "the Python variable name", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ValueType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Value",
    .tp_basicsize = sizeof(ValueObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = wrapper_dealloc,
    .tp_richcompare = value_richcompare,
    .tp_hash = (hashfunc)value_hash,
    .tp_getset = value_getset,
};

/* ---- Op, Block -------------------------------------------------------------
 */

/* A tuple of Value wrappers for values[0..n). */
static PyObject *wrap_values(PyObject *owner, AscValue *values, int n) {
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *v = wrap(&ValueType, owner, &values[i]);
    if (!v) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, v);
  }
  return t;
}

static PyObject *op_get_results(OpObject *self, void *unused) {
  return wrap_values(self->owner, self->op->results, self->op->n_results);
}

static PyObject *op_region(OpObject *self, PyObject *args) {
  int r;
  if (!PyArg_ParseTuple(args, "i", &r))
    return NULL;
  if (r < 0 || r >= self->op->n_regions)
    return PyErr_Format(PyExc_IndexError, "op has %d regions",
                        self->op->n_regions);
  return wrap(&BlockType, self->owner, self->op->regions[r].block);
}

/* set_result_types(types): for scf.if (results known after its regions);
 * on a func.func it sets the function's result types. */
static PyObject *op_set_result_types(OpObject *self, PyObject *args) {
  PyObject *seq;
  if (!PyArg_ParseTuple(args, "O", &seq))
    return NULL;
  const AscType **types = NULL;
  int n = 0;
  if (collect_types(seq, &types, &n))
    return NULL;
  AscContext *ctx = ((ModuleObject *)self->owner)->ctx;
  if (self->op->id == ASC_OP_FUNC)
    asc_function_set_results(ctx, self->op, types, n);
  else
    asc_op_set_results(ctx, self->op, types, n);
  PyMem_Free(types);
  Py_RETURN_NONE;
}

static PyGetSetDef op_getset[] = {
    {"results", (getter)op_get_results, NULL, "result Values", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef op_methods[] = {
    {"region", (PyCFunction)op_region, METH_VARARGS,
     "region(i) -> the Block of region i"},
    {"set_result_types", (PyCFunction)op_set_result_types, METH_VARARGS,
     "set_result_types(types)"},
    {NULL, NULL, 0, NULL}};

PyTypeObject OpType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Op",
    .tp_basicsize = sizeof(OpObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = wrapper_dealloc,
    .tp_getset = op_getset,
    .tp_methods = op_methods,
};

static PyObject *block_get_args(BlockObject *self, void *unused) {
  return wrap_values(self->owner, self->b->args, self->b->n_args);
}

static PyObject *block_get_terminated(BlockObject *self, void *unused) {
  AscOp *last = self->b->last;
  return PyBool_FromLong(last && (last->id == ASC_OP_RETURN ||
                                  last->id == ASC_OP_YIELD ||
                                  last->id == ASC_OP_CONDITION));
}

static PyGetSetDef block_getset[] = {
    {"args", (getter)block_get_args, NULL, "block argument Values", NULL},
    {"terminated", (getter)block_get_terminated, NULL, "ends with a terminator",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Block",
    .tp_basicsize = sizeof(BlockObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = wrapper_dealloc,
    .tp_getset = block_getset,
};
