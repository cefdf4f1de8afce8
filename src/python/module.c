/* asc._C: the CPython binding of the C core.
 *
 * It is deliberately thin: the Python front end builds IR with one generic
 * `Module.create` call per op (the op table checks everything), compiles it,
 * and launches it. Every wrapper object keeps its Module alive, because the
 * IR lives in the module's arena. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asc/emit.h"
#include "asc/exec.h"
#include "asc/ir.h"
#include "asc/passes.h"
#include "sim/sanitizer.h"
#include "sim/timing.h"

static PyObject *IRError; /* (message, file, line, col) */
static PyObject
    *LaunchError; /* (status, message, block, file, line, col, op) */

/* ---- Module ------------------------------------------------------------- */

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

static PyTypeObject ModuleType, TypeType, ValueType, OpType, BlockType,
    KernelType;

static const char *type_kind_names[ASC_TY_KIND_COUNT] = {
    "scalar", "global_address", "global_tensor", "local_tensor",
    "tpipe",  "tque",           "tbuf"};

static PyObject *raise_ir_error(AscContext *ctx) {
  AscLoc loc = asc_context_error_loc(ctx);
  PyObject *args = Py_BuildValue("(ssii)", asc_context_message(ctx),
                                 loc.file ? loc.file : "", loc.line, loc.col);
  asc_context_clear_error(ctx);
  if (args) {
    PyErr_SetObject(IRError, args);
    Py_DECREF(args);
  }
  return NULL;
}

/* Appends a new reference to list l and drops it; -1 on failure (a NULL
 * item counts as one: the error is already set). */
static int list_append_new(PyObject *l, PyObject *item) {
  int r = item ? PyList_Append(l, item) : -1;
  Py_XDECREF(item);
  return r;
}

static PyObject *wrap(PyTypeObject *tp, PyObject *owner, void *ptr) {
  PyObject *o = tp->tp_alloc(tp, 0);
  if (!o)
    return NULL;
  Py_INCREF(owner);
  /* all wrapper structs share the layout {head, owner, ptr} */
  ((ValueObject *)o)->owner = owner;
  ((ValueObject *)o)->v = ptr;
  return o;
}

static void wrapper_dealloc(PyObject *self) {
  Py_XDECREF(((ValueObject *)self)->owner);
  Py_TYPE(self)->tp_free(self);
}

static int module_init(ModuleObject *self, PyObject *args, PyObject *kw) {
  const char *name = "module";
  static char *kwlist[] = {"name", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|s", kwlist, &name))
    return -1;
  self->ctx = asc_context_new();
  if (!self->ctx) {
    PyErr_NoMemory();
    return -1;
  }
  self->m = asc_module_new(self->ctx, name);
  return 0;
}

static void module_dealloc(ModuleObject *self) {
  asc_context_free(self->ctx);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int check_module(ModuleObject *self) {
  if (!self->ctx) {
    PyErr_SetString(PyExc_RuntimeError, "Module is not initialised");
    return -1;
  }
  return 0;
}

static PyObject *module_type(ModuleObject *self, PyObject *args, PyObject *kw) {
  const char *kind, *dtype = NULL;
  int position = -1, depth = 0;
  static char *kwlist[] = {"kind", "dtype", "position", "depth", NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "s|zii", kwlist, &kind, &dtype,
                                   &position, &depth))
    return NULL;
  int k = -1;
  for (int i = 0; i < ASC_TY_KIND_COUNT; i++)
    if (strcmp(type_kind_names[i], kind) == 0)
      k = i;
  if (k < 0)
    return PyErr_Format(PyExc_ValueError, "unknown type kind '%s'", kind);
  AscDType dt = ASC_DT_NONE;
  if (dtype) {
    dt = asc_dtype_from_name(dtype);
    if (dt == ASC_DT_NONE)
      return PyErr_Format(PyExc_ValueError, "unknown dtype '%s'", dtype);
  }
  if ((k == ASC_TY_LOCAL_TENSOR || k == ASC_TY_TQUE || k == ASC_TY_TBUF) &&
      !asc_enum_value_name(ASC_ENUM_TPOSITION, position))
    return PyErr_Format(PyExc_ValueError, "invalid TPosition %d", position);
  if (!(k == ASC_TY_LOCAL_TENSOR || k == ASC_TY_TQUE || k == ASC_TY_TBUF))
    position = -1;
  const AscType *t =
      asc_type_get(self->ctx, (AscTypeKind)k, dt, position, depth);
  if (!t)
    return PyErr_NoMemory();
  return wrap(&TypeType, (PyObject *)self, (void *)t);
}

static AscLoc parse_loc(PyObject *loc) {
  AscLoc l = {0};
  if (loc && loc != Py_None)
    PyArg_ParseTuple(loc, "sii", &l.file, &l.line, &l.col);
  return l;
}

/* Fills an array of type pointers from a sequence of Type objects. */
static int collect_types(PyObject *seq, const AscType ***out, int *n) {
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

static PyObject *module_add_function(ModuleObject *self, PyObject *args,
                                     PyObject *kw) {
  const char *name;
  PyObject *arg_types, *res_types, *loc = Py_None;
  int is_kernel = 0;
  static char *kwlist[] = {"name",      "arg_types", "res_types",
                           "is_kernel", "loc",       NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "sOO|pO", kwlist, &name,
                                   &arg_types, &res_types, &is_kernel, &loc))
    return NULL;
  const AscType **at = NULL, **rt = NULL;
  int na = 0, nr = 0;
  if (collect_types(arg_types, &at, &na) ||
      collect_types(res_types, &rt, &nr)) {
    PyMem_Free(at);
    return NULL;
  }
  AscLoc l = parse_loc(loc);
  if (PyErr_Occurred()) {
    PyMem_Free(at);
    PyMem_Free(rt);
    return NULL;
  }
  if (asc_module_find_function(self->m, name)) {
    PyMem_Free(at);
    PyMem_Free(rt);
    return PyErr_Format(PyExc_ValueError, "function '%s' already exists", name);
  }
  AscOp *f =
      asc_module_add_function(self->m, name, l, at, na, rt, nr, is_kernel);
  PyMem_Free(at);
  PyMem_Free(rt);
  return wrap(&OpType, (PyObject *)self, f);
}

/* attrs: {name: value} where value is int, float, str, Type, list of Types
 * or (enum_kind_name, int) for enums. Integer and float attributes may
 * carry a type as (value, Type). */
static int convert_attr(ModuleObject *self, PyObject *key, PyObject *val,
                        AscAttr *a, const AscType ***types_to_free) {
  memset(a, 0, sizeof *a);
  a->name = PyUnicode_AsUTF8(key);
  if (!a->name)
    return -1;
  if (PyTuple_Check(val) && PyTuple_GET_SIZE(val) == 2 &&
      PyUnicode_Check(PyTuple_GET_ITEM(val, 0))) {
    const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(val, 0));
    AscEnumKind ek = asc_enum_kind_from_name(kind);
    if (ek == ASC_ENUM_KIND_COUNT) {
      PyErr_Format(PyExc_ValueError, "unknown enum kind '%s'", kind);
      return -1;
    }
    a->kind = ASC_ATTR_ENUM;
    a->enum_kind = ek;
    a->i = PyLong_AsLongLong(PyTuple_GET_ITEM(val, 1));
    if (PyErr_Occurred())
      return -1;
    if (!asc_enum_value_name(ek, a->i)) {
      PyErr_Format(PyExc_ValueError, "%lld is not a valid %s", (long long)a->i,
                   kind);
      return -1;
    }
    return 0;
  }
  if (PyTuple_Check(val) && PyTuple_GET_SIZE(val) == 2 &&
      PyObject_TypeCheck(PyTuple_GET_ITEM(val, 1), &TypeType)) {
    a->type = ((TypeObject *)PyTuple_GET_ITEM(val, 1))->t;
    val = PyTuple_GET_ITEM(val, 0);
  }
  if (PyBool_Check(val) || PyLong_Check(val)) {
    a->kind = ASC_ATTR_INT;
    int overflow = 0;
    a->i = PyLong_AsLongLongAndOverflow(val, &overflow);
    if (overflow) {
      unsigned long long u = PyLong_AsUnsignedLongLong(val);
      if (PyErr_Occurred())
        return -1;
      a->i = (int64_t)u;
    }
    return PyErr_Occurred() ? -1 : 0;
  }
  if (PyFloat_Check(val)) {
    a->kind = ASC_ATTR_FLOAT;
    a->f = PyFloat_AsDouble(val);
    return 0;
  }
  if (PyUnicode_Check(val)) {
    a->kind = ASC_ATTR_STR;
    a->s = PyUnicode_AsUTF8(val);
    return a->s ? 0 : -1;
  }
  if (PyObject_TypeCheck(val, &TypeType)) {
    a->kind = ASC_ATTR_TYPE;
    a->type = ((TypeObject *)val)->t;
    return 0;
  }
  if (PyList_Check(val)) {
    a->kind = ASC_ATTR_TYPES;
    if (collect_types(val, types_to_free, &a->n_types))
      return -1;
    a->types = *types_to_free;
    return 0;
  }
  (void)self;
  PyErr_Format(PyExc_TypeError, "unsupported attribute value for '%s'",
               a->name);
  return -1;
}

static PyObject *module_create(ModuleObject *self, PyObject *args,
                               PyObject *kw) {
  PyObject *block_obj, *operands, *result_types, *attrs = Py_None;
  PyObject *regions = Py_None, *loc = Py_None;
  const char *opname;
  static char *kwlist[] = {"block", "name",    "operands", "result_types",
                           "attrs", "regions", "loc",      NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "O!sOO|OOO", kwlist, &BlockType,
                                   &block_obj, &opname, &operands,
                                   &result_types, &attrs, &regions, &loc))
    return NULL;
  AscOpId id = asc_op_from_name(opname);
  if (id == ASC_OP_COUNT)
    return PyErr_Format(PyExc_ValueError, "unknown op '%s'", opname);

  PyObject *result = NULL;
  AscValue **ops = NULL;
  const AscType **rtypes = NULL;
  AscAttr *attr_arr = NULL;
  const AscType ***attr_types = NULL;
  const AscType ***region_types = NULL;
  int *region_n = NULL;
  int n_attrs = 0, n_regions = 0, n_res = 0;
  PyObject *fast = PySequence_Fast(operands, "operands must be a sequence");
  if (!fast)
    return NULL;
  Py_ssize_t n_ops = PySequence_Fast_GET_SIZE(fast);
  ops = PyMem_Calloc((size_t)n_ops + 1, sizeof(AscValue *));
  if (!ops)
    goto nomem;
  for (Py_ssize_t i = 0; i < n_ops; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyObject_TypeCheck(o, &ValueType)) {
      PyErr_Format(PyExc_TypeError, "%s: operand %zd is not an IR Value",
                   opname, i);
      goto done;
    }
    if (((ValueObject *)o)->owner != (PyObject *)self) {
      PyErr_Format(PyExc_ValueError,
                   "%s: operand %zd belongs to another "
                   "module",
                   opname, i);
      goto done;
    }
    ops[i] = ((ValueObject *)o)->v;
  }
  if (collect_types(result_types, &rtypes, &n_res))
    goto done;
  if (attrs != Py_None) {
    if (!PyDict_Check(attrs)) {
      PyErr_SetString(PyExc_TypeError, "attrs must be a dict");
      goto done;
    }
    Py_ssize_t n = PyDict_Size(attrs), pos = 0;
    attr_arr = PyMem_Calloc((size_t)n + 1, sizeof(AscAttr));
    attr_types = PyMem_Calloc((size_t)n + 1, sizeof(AscType **));
    if (!attr_arr || !attr_types)
      goto nomem;
    PyObject *key, *val;
    while (PyDict_Next(attrs, &pos, &key, &val)) {
      if (convert_attr(self, key, val, &attr_arr[n_attrs],
                       &attr_types[n_attrs]))
        goto done;
      n_attrs++;
    }
  }
  if (regions != Py_None) {
    PyObject *rf = PySequence_Fast(regions, "regions must be a sequence");
    if (!rf)
      goto done;
    n_regions = (int)PySequence_Fast_GET_SIZE(rf);
    region_types = PyMem_Calloc((size_t)n_regions + 1, sizeof(AscType **));
    region_n = PyMem_Calloc((size_t)n_regions + 1, sizeof(int));
    if (!region_types || !region_n) {
      Py_DECREF(rf);
      goto nomem;
    }
    for (int r = 0; r < n_regions; r++)
      if (collect_types(PySequence_Fast_GET_ITEM(rf, r),
                        (const AscType ***)&region_types[r], &region_n[r])) {
        Py_DECREF(rf);
        goto done;
      }
    Py_DECREF(rf);
  }
  AscLoc l = parse_loc(loc);
  if (PyErr_Occurred())
    goto done;
  AscOp *op = asc_op_create(
      self->ctx, id, l, ops, (int)n_ops, rtypes, n_res, attr_arr, n_attrs,
      n_regions, (const AscType *const *const *)region_types, region_n);
  if (asc_context_status(self->ctx) != ASC_OK) {
    raise_ir_error(self->ctx);
    goto done;
  }
  asc_block_append(((BlockObject *)block_obj)->b, op);
  result = wrap(&OpType, (PyObject *)self, op);
  goto done;
nomem:
  PyErr_NoMemory();
done:
  Py_DECREF(fast);
  PyMem_Free(ops);
  PyMem_Free(rtypes);
  if (attr_types)
    for (int i = 0; i < n_attrs + 1; i++)
      PyMem_Free(attr_types[i]);
  PyMem_Free(attr_types);
  PyMem_Free(attr_arr);
  if (region_types)
    for (int r = 0; r < n_regions; r++)
      PyMem_Free((void *)region_types[r]);
  PyMem_Free(region_types);
  PyMem_Free(region_n);
  return result;
}

static PyObject *module_verify(ModuleObject *self, PyObject *unused) {
  if (check_module(self))
    return NULL;
  if (asc_module_verify(self->m))
    return raise_ir_error(self->ctx);
  Py_RETURN_NONE;
}

static PyObject *module_print(ModuleObject *self, PyObject *unused) {
  if (check_module(self))
    return NULL;
  char *s = asc_module_print(self->m);
  if (!s)
    return PyErr_NoMemory();
  PyObject *r = PyUnicode_FromString(s);
  free(s);
  return r;
}

static PyObject *module_emit_ascendc(ModuleObject *self, PyObject *args,
                                     PyObject *kw) {
  int line_comments = 1;
  static char *kwlist[] = {"line_comments", NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &line_comments))
    return NULL;
  AscEmitOptions opt = {line_comments};
  char *s = asc_emit_ascendc(self->m, &opt);
  if (!s)
    return raise_ir_error(self->ctx);
  PyObject *r = PyUnicode_FromString(s);
  free(s);
  return r;
}

static PyObject *module_run_pass(ModuleObject *self, PyObject *args) {
  const char *name;
  if (check_module(self) || !PyArg_ParseTuple(args, "s", &name))
    return NULL;
  if (asc_run_pass(self->m, name))
    return raise_ir_error(self->ctx);
  Py_RETURN_NONE;
}

/* Module.parse(text, filename="<text>") -> Module: IR text → a module. */
static PyObject *module_parse(PyObject *cls, PyObject *args, PyObject *kw) {
  const char *text, *filename = "<text>";
  static char *kwlist[] = {"text", "filename", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s", kwlist, &text, &filename))
    return NULL;
  ModuleObject *self = (ModuleObject *)ModuleType.tp_alloc(&ModuleType, 0);
  if (!self)
    return NULL;
  self->ctx = asc_context_new();
  if (!self->ctx) {
    Py_DECREF(self);
    return PyErr_NoMemory();
  }
  self->m = asc_module_parse(self->ctx, text, filename);
  if (!self->m) {
    raise_ir_error(self->ctx);
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

static PyObject *module_compile(ModuleObject *self, PyObject *args) {
  const char *entry;
  if (check_module(self) || !PyArg_ParseTuple(args, "s", &entry))
    return NULL;
  AscKernel *k = asc_kernel_compile(self->m, entry);
  if (!k)
    return raise_ir_error(self->ctx);
  PyObject *o = wrap(&KernelType, (PyObject *)self, k);
  if (!o)
    asc_kernel_free(k);
  return o;
}

static PyMethodDef module_methods[] = {
    {"type", (PyCFunction)(void (*)(void))module_type,
     METH_VARARGS | METH_KEYWORDS,
     "type(kind, dtype=None, position=-1, depth=0) -> Type"},
    {"add_function", (PyCFunction)(void (*)(void))module_add_function,
     METH_VARARGS | METH_KEYWORDS,
     "add_function(name, arg_types, res_types, is_kernel=False, loc=None)"},
    {"create", (PyCFunction)(void (*)(void))module_create,
     METH_VARARGS | METH_KEYWORDS,
     "create(block, name, operands, result_types, attrs=None, regions=None, "
     "loc=None) -> Op"},
    {"verify", (PyCFunction)module_verify, METH_NOARGS, "verify the module"},
    {"print", (PyCFunction)module_print, METH_NOARGS, "IR text"},
    {"emit_ascendc", (PyCFunction)(void (*)(void))module_emit_ascendc,
     METH_VARARGS | METH_KEYWORDS,
     "emit_ascendc(line_comments=True) -> Ascend C source"},
    {"run_pass", (PyCFunction)module_run_pass, METH_VARARGS,
     "run_pass(name): canonicalize, dce, ..."},
    {"parse", (PyCFunction)(void (*)(void))module_parse,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Module.parse(text, filename='<text>') -> Module"},
    {"compile", (PyCFunction)module_compile, METH_VARARGS,
     "compile(entry) -> Kernel"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ModuleType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Module",
    .tp_basicsize = sizeof(ModuleObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)module_init,
    .tp_dealloc = (destructor)module_dealloc,
    .tp_methods = module_methods,
};

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
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject TypeType = {
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

static PyTypeObject ValueType = {
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

static PyTypeObject OpType = {
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

static PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Block",
    .tp_basicsize = sizeof(BlockObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = wrapper_dealloc,
    .tp_getset = block_getset,
};

/* ---- Kernel ----------------------------------------------------------------
 */

static void kernel_dealloc(KernelObject *self) {
  asc_kernel_free(self->k);
  wrapper_dealloc((PyObject *)self);
}

/* One launch argument, converted by the kernel's parameter type:
 *   global address: an object with the buffer protocol (a NumPy array:
 *     C-contiguous; read-only buffers are passed read-only), or a tuple
 *     ("gm", address, nbytes, readonly, owner) for memory the front end
 *     has checked and vouches for (torch tensors: launcher.py checks the
 *     type and the storage's extent; owner, kept alive by the tuple for the
 *     launch, is the storage);
 *   integer: an int (or anything with __index__), range-checked for i32;
 *   float: a float or an int.
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
  if (asc_type_is_float(t)) {
    a->kind = ASC_ARG_FLOAT;
    a->f = PyFloat_AsDouble(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  a->kind = ASC_ARG_INT;
  PyObject *idx = PyNumber_Index(o);
  if (!idx)
    return -1;
  int overflow = 0;
  a->i = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (PyErr_Occurred())
    return -1;
  size_t bits = asc_dtype_size(t->dtype) * 8;
  if (overflow || (bits < 64 && (a->i < -((int64_t)1 << (bits - 1)) ||
                                 a->i >= ((int64_t)1 << (bits - 1))))) {
    PyErr_Format(PyExc_OverflowError,
                 "kernel argument %zd does not fit the kernel's %s parameter",
                 i, asc_dtype_name(t->dtype));
    return -1;
  }
  return 0;
}

enum { LAUNCH_INLINE_ARGS = 16 };

/* ---- the sanitizer's side of a launch ------------------------------------
 * Kernel.launch(..., sanitize=code): code & 3 is the mode (0 off, 1 warn,
 * 2 error, 3 the process default); code & 4 says the kernel was compiled
 * with auto_sync=True. The process default is PYASC_SANITIZE, read at the
 * first launch that needs it (error when unset), or set_sanitize_default. */
static int sanitize_default = -1; /* -1: not read yet */

/* PYASC_SANITIZE as a mode; -1 with ValueError set when it is not one. */
static int sanitize_from_env(void) {
  const char *v = getenv("PYASC_SANITIZE");
  char word[16];
  size_t n = 0;
  while (v && (*v == ' ' || *v == '\t'))
    v++;
  for (;
       v && *v && *v != ' ' && *v != '\t' && *v != '\n' && n + 1 < sizeof word;
       v++)
    word[n++] = (char)(*v >= 'A' && *v <= 'Z' ? *v - 'A' + 'a' : *v);
  word[n] = '\0';
  if (n == 0)
    return ASC_SAN_ERROR;
  if (!strcmp(word, "error"))
    return ASC_SAN_ERROR;
  if (!strcmp(word, "warn"))
    return ASC_SAN_WARN;
  if (!strcmp(word, "off"))
    return ASC_SAN_OFF;
  PyErr_Format(PyExc_ValueError,
               "PYASC_SANITIZE must be error, warn or off, got '%s'",
               getenv("PYASC_SANITIZE"));
  return -1;
}

static PyObject *py_set_sanitize_default(PyObject *mod, PyObject *args) {
  int mode;
  if (!PyArg_ParseTuple(args, "i", &mode))
    return NULL;
  if (mode < ASC_SAN_OFF || mode > ASC_SAN_ERROR)
    return PyErr_Format(PyExc_ValueError, "sanitize mode %d not in [0, 2]",
                        mode);
  sanitize_default = mode;
  Py_RETURN_NONE;
}

/* ---- stopping a launch --------------------------------------------------
 * The step budget: Kernel.launch(..., max_steps=n), n > 0 a limit, 0 none,
 * -1 the process default: PYASC_MAX_STEPS, read at the first launch that
 * needs it (none when unset). */
static long long max_steps_default = -1; /* -1: not read yet */

static int max_steps_from_env(long long *out) {
  const char *v = getenv("PYASC_MAX_STEPS");
  if (!v || !*v) {
    *out = 0;
    return 0;
  }
  char *end;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  while (*end == ' ' || *end == '\t' || *end == '\n')
    end++;
  if (errno || *end || n < 0) {
    PyErr_Format(PyExc_ValueError,
                 "PYASC_MAX_STEPS must be a non-negative integer (0: no "
                 "limit), got '%s'",
                 v);
    return -1;
  }
  *out = n;
  return 0;
}

/* Ctrl-C during a launch: the launching thread polls this (the launch runs
 * with the GIL released) and takes the GIL to run Python's signal handlers.
 * An exception they raise (KeyboardInterrupt) cancels the launch and is
 * raised by Kernel.launch once every worker has stopped. */
typedef struct LaunchInterrupt {
  PyThreadState *ts;
  PyObject *type, *value, *tb;
} LaunchInterrupt;

static int launch_interrupt(void *ctx) {
  LaunchInterrupt *li = ctx;
  PyEval_RestoreThread(li->ts);
  int stop = PyErr_CheckSignals() < 0;
  if (stop && !li->type)
    PyErr_Fetch(&li->type, &li->value, &li->tb);
  else if (stop)
    PyErr_Clear();
  li->ts = PyEval_SaveThread();
  return stop;
}

/* A report as a dict (the front end makes SanitizerError / warnings). */
static PyObject *san_report_dict(const AscSanReport *r) {
  const char *memory = r->space == ASC_SPACE_UB   ? "UB"
                       : r->space == ASC_SPACE_GM ? "GM"
                                                  : NULL;
  return Py_BuildValue(
      "{s:s,s:O,s:s,s:s,s:i,s:i,s:s,s:i,s:i,s:s,s:s,s:i,s:i,s:s,s:z,s:z,s:z,"
      "s:i,s:L,s:L}",
      "kind", asc_san_kind_name(r->kind), "warning",
      r->warning ? Py_True : Py_False, "message", r->message, "fix", r->fix,
      "block", r->block, "block2", r->block2, "file",
      r->loc.file ? r->loc.file : "", "line", r->loc.line, "col", r->loc.col,
      "op", r->op ? r->op : "", "file2", r->loc2.file ? r->loc2.file : "",
      "line2", r->loc2.line, "col2", r->loc2.col, "op2", r->op2 ? r->op2 : "",
      "pipe", r->pipe < ASC_PIPE_COUNT ? asc_san_pipe_name(r->pipe) : NULL,
      "pipe2", r->pipe2 < ASC_PIPE_COUNT ? asc_san_pipe_name(r->pipe2) : NULL,
      "memory", memory, "buf", r->buf, "lo", (long long)r->lo, "hi",
      (long long)r->hi);
}

/* The reports of a launch but the one it fails with, as a list of dicts. */
static PyObject *san_reports(const AscSanitizer *san) {
  PyObject *l = PyList_New(0);
  int skip = asc_sanitizer_error_index(san);
  for (int i = 0; l && i < asc_sanitizer_count(san); i++) {
    if (i == skip)
      continue;
    PyObject *d = san_report_dict(asc_sanitizer_report(san, i));
    if (list_append_new(l, d)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

/* ---- the timing model's side of a launch ---------------------------------
 * Kernel.launch(..., timing=spec): spec is a dict. spec["params"] (optional)
 * maps timing parameter names to overrides, spec["record"] (default True)
 * keeps per-instruction records. After a successful launch the results are
 * in spec["result"] (timing_result); the return value is unchanged. */
static AscTiming *timing_prepare(KernelObject *self, PyObject *spec,
                                 const AscPlatform *p, int core_num) {
  if (!PyDict_Check(spec)) {
    PyErr_SetString(PyExc_TypeError, "timing must be a dict");
    return NULL;
  }
  AscTimingParams prm;
  if (!asc_timing_params_default(p->name, &prm)) {
    PyErr_Format(PyExc_ValueError, "no timing parameters for platform '%s'",
                 p->name);
    return NULL;
  }
  PyObject *ov = PyDict_GetItemString(spec, "params"); /* borrowed */
  if (ov && ov != Py_None) {
    if (!PyDict_Check(ov)) {
      PyErr_SetString(PyExc_TypeError, "timing['params'] must be a dict");
      return NULL;
    }
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(ov, &pos, &key, &val)) {
      const char *name = PyUnicode_AsUTF8(key);
      if (!name)
        return NULL;
      double v = PyFloat_AsDouble(val);
      if (v == -1.0 && PyErr_Occurred())
        return NULL;
      if (!asc_timing_param_set(&prm, name, v)) {
        PyErr_Format(PyExc_ValueError,
                     "timing parameter '%s': unknown name or bad value %R",
                     name, val);
        return NULL;
      }
    }
  }
  PyObject *rec = PyDict_GetItemString(spec, "record");
  int record = rec ? PyObject_IsTrue(rec) : 1;
  if (record < 0)
    return NULL;
  AscTiming *t = asc_timing_new(&prm, self->k, p, core_num, record);
  if (!t)
    PyErr_NoMemory();
  return t;
}

static PyObject *int64_tuple(const int64_t *v, int n) {
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *x = PyLong_FromLongLong(v[i]);
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

/* The results as plain data: cycles, per-block pipe tables, records as
 * packed AscTimingRecord bytes, and the sites the records index. */
static PyObject *timing_result(const AscTiming *t, int core_num) {
  const AscTimingParams *prm = asc_timing_params(t);
  PyObject *params = PyDict_New(), *blocks = PyList_New(core_num);
  int n_sites = asc_timing_n_sites(t);
  PyObject *sites = PyList_New(n_sites);
  if (!params || !blocks || !sites)
    goto fail;
  const char *name;
  for (int i = 0; (name = asc_timing_param_name(i, NULL, NULL)); i++) {
    PyObject *v = PyFloat_FromDouble(asc_timing_param_get(prm, i));
    if (!v || PyDict_SetItemString(params, name, v)) {
      Py_XDECREF(v);
      goto fail;
    }
    Py_DECREF(v);
  }
  for (int b = 0; b < core_num; b++) {
    const AscTimingBlock *r = asc_timing_block(t, b);
    PyObject *busy = int64_tuple(r->busy, ASC_PIPE_COUNT);
    PyObject *stall = int64_tuple(r->stall, ASC_PIPE_COUNT);
    PyObject *instrs = int64_tuple(r->instrs, ASC_PIPE_COUNT);
    PyObject *bytes = int64_tuple(r->bytes, ASC_PATH_COUNT);
    PyObject *recs = PyBytes_FromStringAndSize(
        (const char *)r->records,
        (Py_ssize_t)(r->n_records * (int64_t)sizeof(AscTimingRecord)));
    PyObject *d =
        busy && stall && instrs && bytes && recs
            ? Py_BuildValue("{s:L,s:O,s:O,s:O,s:O,s:O,s:O}", "cycles",
                            (long long)r->cycles, "busy", busy, "stall", stall,
                            "instrs", instrs, "bytes", bytes, "records", recs,
                            "truncated", r->truncated ? Py_True : Py_False)
            : NULL;
    Py_XDECREF(busy);
    Py_XDECREF(stall);
    Py_XDECREF(instrs);
    Py_XDECREF(bytes);
    Py_XDECREF(recs);
    if (!d)
      goto fail;
    PyList_SET_ITEM(blocks, b, d);
  }
  const AscTimingSiteStat *st = asc_timing_site_stats(t);
  for (int i = 0; i < n_sites; i++) {
    AscLoc loc;
    AscPipe pipe;
    const char *detail;
    const char *op = asc_timing_site_info(t, i, &loc, &pipe, &detail);
    PyObject *s = Py_BuildValue(
        "(zziiiLLLLs)", op, loc.file ? loc.file : "", loc.line, loc.col,
        (int)pipe, (long long)st[i].count, (long long)st[i].scalar,
        (long long)st[i].busy, (long long)st[i].stall, detail);
    if (!s)
      goto fail;
    PyList_SET_ITEM(sites, i, s);
  }
  return Py_BuildValue("{s:d,s:i,s:d,s:L,s:L,s:i,s:N,s:N,s:N}", "clock_ghz",
                       prm->clock_ghz, "cores", asc_timing_cores(t),
                       "port_rate", asc_timing_port_rate(t), "launch_overhead",
                       (long long)asc_timing_launch_overhead(t), "duration",
                       (long long)asc_timing_duration(t), "record_size",
                       (int)sizeof(AscTimingRecord), "params", params, "blocks",
                       blocks, "sites", sites);
fail:
  Py_XDECREF(params);
  Py_XDECREF(blocks);
  Py_XDECREF(sites);
  return NULL;
}

/* timing_params(platform) -> [(name, default, unit, source)] */
static PyObject *py_timing_params(PyObject *mod, PyObject *args) {
  const char *platform;
  if (!PyArg_ParseTuple(args, "s", &platform))
    return NULL;
  AscTimingParams prm;
  if (!asc_timing_params_default(platform, &prm))
    return PyErr_Format(PyExc_ValueError,
                        "no timing parameters for platform '%s'", platform);
  PyObject *l = PyList_New(0);
  const char *name, *unit, *source;
  for (int i = 0; l && (name = asc_timing_param_name(i, &unit, &source)); i++) {
    PyObject *x = Py_BuildValue("(sdss)", name, asc_timing_param_get(&prm, i),
                                unit, source);
    if (list_append_new(l, x)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

/* launch(core_num, platform, args, workers=0): args converted as
 * convert_arg says. The GIL is released while the blocks run. */
static PyObject *kernel_launch(KernelObject *self, PyObject *args,
                               PyObject *kw) {
  int core_num, workers = 0, sanitize = 7;
  long long max_steps = -1;
  const char *platform_name;
  PyObject *launch_args;
  PyObject *timing = NULL;
  static char *kwlist[] = {"core_num", "platform", "args",      "workers",
                           "sanitize", "timing",   "max_steps", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kw, "isO|iiOL", kwlist, &core_num,
                                   &platform_name, &launch_args, &workers,
                                   &sanitize, &timing, &max_steps))
    return NULL;
  if (max_steps < 0) {
    if (max_steps_default < 0 && max_steps_from_env(&max_steps_default) < 0)
      return NULL;
    max_steps = max_steps_default;
  }
  const AscPlatform *p = asc_platform_get(platform_name);
  if (!p)
    return PyErr_Format(PyExc_ValueError, "unknown platform '%s'",
                        platform_name);
  PyObject *fast = PySequence_Fast(launch_args, "args must be a sequence");
  if (!fast)
    return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int n_params = asc_kernel_num_params(self->k);
  if (n != n_params) {
    Py_DECREF(fast);
    return PyErr_Format(PyExc_TypeError,
                        "the kernel takes %d arguments, got %zd", n_params, n);
  }
  AscLaunchArg inline_args[LAUNCH_INLINE_ARGS];
  Py_buffer inline_views[LAUNCH_INLINE_ARGS];
  AscLaunchArg *la = inline_args;
  Py_buffer *views = inline_views;
  if (n > LAUNCH_INLINE_ARGS) {
    la = PyMem_Calloc((size_t)n, sizeof(AscLaunchArg));
    views = PyMem_Calloc((size_t)n, sizeof(Py_buffer));
    if (!la || !views) {
      PyMem_Free(la);
      PyMem_Free(views);
      Py_DECREF(fast);
      return PyErr_NoMemory();
    }
  } else {
    memset(inline_args, 0, sizeof(AscLaunchArg) * (size_t)n);
    memset(inline_views, 0, sizeof(Py_buffer) * (size_t)n);
  }
  PyObject *result = NULL;
  AscSanitizer *san = NULL;
  AscTiming *tim = NULL;
  AscObserver observers[2];
  LaunchInterrupt li = {0};
  Py_ssize_t converted = 0;
  for (; converted < n; converted++)
    if (convert_arg(asc_kernel_param_type(self->k, (int)converted),
                    PySequence_Fast_GET_ITEM(fast, converted), &la[converted],
                    &views[converted], converted))
      goto done;
  AscLaunchOptions opt = {.workers = workers,
                          .max_steps = max_steps,
                          .interrupt = launch_interrupt,
                          .interrupt_ctx = &li};
  AscLaunchError err;
  AscStatus s;
  int san_mode = sanitize & 3;
  if (san_mode == 3) {
    if (sanitize_default < 0 && (sanitize_default = sanitize_from_env()) < 0)
      goto done;
    san_mode = sanitize_default;
  }
  if (san_mode != ASC_SAN_OFF) {
    san = asc_sanitizer_new((AscSanMode)san_mode,
                            sanitize & 4 ? ASC_SAN_AUTO_SYNC : 0, core_num);
    if (!san) {
      PyErr_NoMemory();
      goto done;
    }
    opt.observers = asc_sanitizer_observer(san);
    opt.n_observers = 1;
  }
  if (timing && timing != Py_None) {
    /* the timing model observes after the sanitizer */
    tim = timing_prepare(self, timing, p, core_num);
    if (!tim)
      goto done;
    int k = 0;
    if (opt.n_observers)
      observers[k++] = opt.observers[0];
    observers[k++] = asc_timing_observer(tim);
    opt.observers = observers;
    opt.n_observers = k;
  }
  li.ts = PyEval_SaveThread();
  s = asc_kernel_launch(self->k, p, core_num, la, (int)n, &opt, &err);
  if (san)
    s = asc_sanitizer_finish(san, s, &err);
  PyEval_RestoreThread(li.ts);
  if (s == ASC_ERR_INTERRUPTED) {
    if (li.type) {
      PyErr_Restore(li.type, li.value, li.tb);
      li.type = li.value = li.tb = NULL;
    } else
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    goto done;
  }
  if (s != ASC_OK) {
    /* sanitized launches add (error report or None, other reports) */
    PyObject *extra = NULL;
    if (san) {
      int ei = asc_sanitizer_error_index(san);
      PyObject *rep = ei >= 0 ? san_report_dict(asc_sanitizer_report(san, ei))
                              : (Py_INCREF(Py_None), Py_None);
      PyObject *others = san_reports(san);
      extra = rep && others ? Py_BuildValue("(OO)", rep, others) : NULL;
      Py_XDECREF(rep);
      Py_XDECREF(others);
      if (!extra)
        goto done;
    }
    PyObject *eargs =
        extra
            ? Py_BuildValue("(isisiisN)", (int)s, err.message, err.block,
                            err.loc.file ? err.loc.file : "", err.loc.line,
                            err.loc.col, err.op_name ? err.op_name : "", extra)
            : Py_BuildValue("(isisiis)", (int)s, err.message, err.block,
                            err.loc.file ? err.loc.file : "", err.loc.line,
                            err.loc.col, err.op_name ? err.op_name : "");
    if (eargs) {
      PyErr_SetObject(LaunchError, eargs);
      Py_DECREF(eargs);
    }
    goto done;
  }
  if (tim) {
    PyObject *r = timing_result(tim, core_num);
    if (!r || PyDict_SetItemString(timing, "result", r)) {
      Py_XDECREF(r);
      goto done;
    }
    Py_DECREF(r);
  }
  /* a sanitized launch returns its reports (warnings) when there are any */
  if (san && asc_sanitizer_count(san) > 0) {
    result = san_reports(san);
    goto done;
  }
  result = Py_None;
  Py_INCREF(result);
done:
  Py_XDECREF(li.type); /* an exception not raised (the launch failed) */
  Py_XDECREF(li.value);
  Py_XDECREF(li.tb);
  asc_sanitizer_free(san);
  asc_timing_free(tim);
  for (Py_ssize_t i = 0; i < n; i++)
    if (views[i].obj)
      PyBuffer_Release(&views[i]);
  if (la != inline_args) {
    PyMem_Free(la);
    PyMem_Free(views);
  }
  Py_DECREF(fast);
  return result;
}

static PyObject *kernel_param_types(KernelObject *self, PyObject *unused) {
  int n = asc_kernel_num_params(self->k);
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *ty =
        wrap(&TypeType, self->owner, (void *)asc_kernel_param_type(self->k, i));
    if (!ty) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, ty);
  }
  return t;
}

static PyMethodDef kernel_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))kernel_launch,
     METH_VARARGS | METH_KEYWORDS,
     "launch(core_num, platform, args, workers=0, sanitize=7) -> None or a "
     "list of sanitizer reports"},
    {"param_types", (PyCFunction)kernel_param_types, METH_NOARGS,
     "the kernel's parameter Types"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Kernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_methods = kernel_methods,
};

/* ---- module functions
 * -------------------------------------------------------- */

static PyObject *py_platform(PyObject *mod, PyObject *args) {
  const char *name;
  if (!PyArg_ParseTuple(args, "s", &name))
    return NULL;
  const AscPlatform *p = asc_platform_get(name);
  if (!p)
    return PyErr_Format(PyExc_ValueError, "unknown platform '%s'", name);
  return Py_BuildValue("{s:s,s:i,s:i,s:n,s:n,s:i}", "name", p->name,
                       "vector_cores", p->vector_cores, "cube_cores",
                       p->cube_cores, "ub_size", (Py_ssize_t)p->ub_size,
                       "l1_size", (Py_ssize_t)p->l1_size, "event_ids",
                       p->event_ids);
}

static PyObject *py_op_names(PyObject *mod, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (int i = 0; l && i < ASC_OP_COUNT; i++) {
    PyObject *s = PyUnicode_FromString(asc_op_info((AscOpId)i)->name);
    if (list_append_new(l, s)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

static PyObject *py_ops_without_emitter_rule(PyObject *mod, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (int i = 0; l && i < ASC_OP_COUNT; i++) {
    if (asc_emit_has_rule((AscOpId)i))
      continue;
    PyObject *s = PyUnicode_FromString(asc_op_info((AscOpId)i)->name);
    if (list_append_new(l, s)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

static PyMethodDef functions[] = {
    {"platform", py_platform, METH_VARARGS, "platform(name) -> dict"},
    {"op_names", py_op_names, METH_NOARGS, "names of all IR ops"},
    {"timing_params", py_timing_params, METH_VARARGS,
     "timing_params(platform) -> [(name, default, unit, source)]"},
    {"set_sanitize_default", py_set_sanitize_default, METH_VARARGS,
     "set_sanitize_default(mode): 0 off, 1 warn, 2 error"},
    {"ops_without_emitter_rule", py_ops_without_emitter_rule, METH_NOARGS,
     "op names the Ascend C emitter cannot spell (must be empty)"},
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
