/* asc._C's Module object: the IR builder surface (types, functions, the
 * generic op `create`), and what the front end does with a module: verify,
 * print, parse, run passes, emit Ascend C, compile to a Kernel. Also the
 * op-table queries among the module functions. */
#include "pymodule.h"

#include <stdlib.h>
#include <string.h>

#include "asc/emit.h"
#include "asc/exec.h"
#include "asc/passes.h"

/* ---- Module ------------------------------------------------------------- */

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
  const char *kind, *dtype = NULL, *struct_name = NULL;
  int position = -1, depth = 0;
  static char *kwlist[] = {"kind",  "dtype",  "position",
                           "depth", "struct", NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "s|ziiz", kwlist, &kind, &dtype,
                                   &position, &depth, &struct_name))
    return NULL;
  if (strcmp(kind, "struct") == 0) {
    const AscStructInfo *si =
        struct_name ? asc_context_find_struct(self->ctx, struct_name) : NULL;
    if (!si)
      return PyErr_Format(PyExc_ValueError, "unknown struct '%s'",
                          struct_name ? struct_name : "");
    if (si->is_template)
      return PyErr_Format(PyExc_ValueError,
                          "struct %s is a template: name its instance, "
                          "%s<dtype>",
                          si->name, si->name);
    const AscType *t = asc_type_struct(self->ctx, si);
    if (!t)
      return PyErr_NoMemory();
    return wrap(&TypeType, (PyObject *)self, (void *)t);
  }
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

/* define_struct(name, field_names, field_types, loc=None) -> Type: a user
 * struct (asc_module_add_struct), its struct type. */
static PyObject *module_define_struct(ModuleObject *self, PyObject *args,
                                      PyObject *kw) {
  const char *name;
  PyObject *names, *types, *loc = Py_None;
  static char *kwlist[] = {"name", "field_names", "field_types", "loc", NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "sOO|O", kwlist, &name, &names,
                                   &types, &loc))
    return NULL;
  const AscType **tv = NULL;
  int nt = 0;
  if (collect_types(types, &tv, &nt))
    return NULL;
  PyObject *fast = PySequence_Fast(names, "field_names must be a sequence");
  const char **nv = fast ? PyMem_Calloc((size_t)nt + 1, sizeof(char *)) : NULL;
  PyObject *result = NULL;
  if (!nv)
    goto done;
  if (PySequence_Fast_GET_SIZE(fast) != nt) {
    PyErr_SetString(PyExc_ValueError,
                    "define_struct: one field name per field type");
    goto done;
  }
  for (int i = 0; i < nt; i++)
    if (!(nv[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i))))
      goto done;
  AscLoc l = parse_loc(loc);
  if (PyErr_Occurred())
    goto done;
  const AscStructInfo *si = asc_module_add_struct(self->m, name, nv, tv, nt, l);
  if (!si) {
    raise_ir_error(self->ctx);
    goto done;
  }
  result =
      wrap(&TypeType, (PyObject *)self, (void *)asc_type_struct(self->ctx, si));
done:
  Py_XDECREF(fast);
  PyMem_Free(nv);
  PyMem_Free(tv);
  return result;
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
  int line_comments = 1, dump = 1;
  static char *kwlist[] = {"line_comments", "dump", NULL};
  if (check_module(self) || !PyArg_ParseTupleAndKeywords(
                                args, kw, "|pp", kwlist, &line_comments, &dump))
    return NULL;
  AscEmitOptions opt = {line_comments, !dump};
  char *s = asc_emit_ascendc(self->m, &opt);
  if (!s)
    return raise_ir_error(self->ctx);
  PyObject *r = PyUnicode_FromString(s);
  free(s);
  return r;
}

static PyObject *module_kernel_dumps(ModuleObject *self, PyObject *noargs) {
  if (check_module(self))
    return NULL;
  int r = asc_emit_kernel_dumps(self->m);
  if (r < 0)
    return PyErr_NoMemory();
  return PyBool_FromLong(r);
}

static PyObject *module_run_pass(ModuleObject *self, PyObject *args) {
  const char *name;
  if (check_module(self) || !PyArg_ParseTuple(args, "s", &name))
    return NULL;
  if (asc_run_pass(self->m, name))
    return raise_ir_error(self->ctx);
  Py_RETURN_NONE;
}

static PyObject *module_pass_log(ModuleObject *self, PyObject *unused) {
  (void)unused;
  if (check_module(self))
    return NULL;
  return PyUnicode_FromString(asc_module_log_text(self->m));
}

/* Module.reserve(platform, kernel=None) -> dict: the reserved parts of the
 * UB and L1 that apply to the kernel (asc_kernel_reserve; kernel None: the
 * module's first kernel function) and what it may use of the platform's:
 * kernel_type (None: not set yet, counted as MIX), mix, api (the API of
 * 静态Tensor编程.md's table 5 it uses first, or None) and api_loc
 * ((file, line) or None), ub_user, l1_user, ub_note (the text of the
 * simulator's messages). The compiler sizes the UB planner's pool by it. */
static PyObject *module_reserve(ModuleObject *self, PyObject *args,
                                PyObject *kw) {
  const char *platform, *kernel = NULL;
  static char *kwlist[] = {"platform", "kernel", NULL};
  if (check_module(self) ||
      !PyArg_ParseTupleAndKeywords(args, kw, "s|z", kwlist, &platform, &kernel))
    return NULL;
  const AscPlatform *p = asc_platform_get(platform);
  if (!p)
    return PyErr_Format(PyExc_ValueError, "unknown platform '%s'", platform);
  if (kernel && !asc_module_find_function(self->m, kernel))
    return PyErr_Format(PyExc_ValueError, "no function '%s' in the module",
                        kernel);
  AscReserve r = asc_kernel_reserve(self->m, kernel);
  char note[768];
  PyObject *type, *loc;
  if (r.kernel_type < 0) {
    Py_INCREF(Py_None);
    type = Py_None;
  } else {
    type = PyLong_FromLongLong(r.kernel_type);
  }
  if (r.api) {
    loc = Py_BuildValue("(si)", r.api_loc.file ? r.api_loc.file : "",
                        r.api_loc.line);
  } else {
    Py_INCREF(Py_None);
    loc = Py_None;
  }
  PyObject *d =
      type && loc
          ? Py_BuildValue("{s:O,s:O,s:z,s:O,s:L,s:L,s:s}", "kernel_type", type,
                          "mix", r.mix ? Py_True : Py_False, "api", r.api,
                          "api_loc", loc, "ub_user",
                          (long long)asc_reserve_ub_user(&r, p), "l1_user",
                          (long long)asc_reserve_l1_user(&r, p), "ub_note",
                          asc_reserve_ub_note(&r, p, note, sizeof note))
          : NULL;
  Py_XDECREF(type);
  Py_XDECREF(loc);
  return d;
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
     "type(kind, dtype=None, position=-1, depth=0, struct=None) -> Type "
     "(kind 'struct': struct names the parameter struct)"},
    {"define_struct", (PyCFunction)(void (*)(void))module_define_struct,
     METH_VARARGS | METH_KEYWORDS,
     "define_struct(name, field_names, field_types, loc=None) -> the Type of "
     "a user struct"},
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
     "emit_ascendc(line_comments=True, dump=True) -> Ascend C source "
     "(dump=False: a printing kernel without its dump buffer parameter)"},
    {"kernel_dumps", (PyCFunction)module_kernel_dumps, METH_NOARGS,
     "kernel_dumps() -> bool: the kernel prints from the device (printf, "
     "DumpTensor, ...), so its Ascend C takes the dump buffer"},
    {"run_pass", (PyCFunction)module_run_pass, METH_VARARGS,
     "run_pass(name): canonicalize, dce, ... (name{options} for options)"},
    {"pass_log", (PyCFunction)module_pass_log, METH_NOARGS,
     "pass_log() -> str: what the passes reported (UB plan, inserted syncs)"},
    {"reserve", (PyCFunction)(void (*)(void))module_reserve,
     METH_VARARGS | METH_KEYWORDS,
     "reserve(platform, kernel=None) -> dict: the reserved parts of UB and "
     "L1 that apply to the kernel, and the bytes of each it may use"},
    {"parse", (PyCFunction)(void (*)(void))module_parse,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "Module.parse(text, filename='<text>') -> Module"},
    {"compile", (PyCFunction)module_compile, METH_VARARGS,
     "compile(entry) -> Kernel"},
    {NULL, NULL, 0, NULL}};

PyTypeObject ModuleType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Module",
    .tp_basicsize = sizeof(ModuleObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)module_init,
    .tp_dealloc = (destructor)module_dealloc,
    .tp_methods = module_methods,
};

/* ---- op-table queries (module functions) ------------------------------- */

PyObject *py_op_names(PyObject *mod, PyObject *unused) {
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

/* family: ubplan. pass_names() -> [str]: the passes Module.run_pass knows
 * (the compiler runs the optional ones only when they exist). */
PyObject *py_pass_names(PyObject *mod, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (const char *const *n = asc_pass_names(); l && *n; n++)
    if (list_append_new(l, PyUnicode_FromString(*n))) {
      Py_DECREF(l);
      return NULL;
    }
  return l;
}

/* struct_infos() -> [{"name", "cpp", "init", "template", "fields": [(name,
 * cpp, kind, type, default, length)]}]: the parameter-struct table, for the
 * Python classes. kind is "number" (type: the dtype name, or "T" for the
 * template argument), "enum" (type: the enum's Python name) or "struct"
 * (type: the nested struct's name); length is an array field's length, else
 * 0. init is "ctor" or "fields"; template is None, or (the default T's
 * dtype name, [the allowed dtype names], empty for any number type). */
static PyObject *template_info(const AscStructInfo *si) {
  if (!si->is_template)
    Py_RETURN_NONE;
  PyObject *allowed = PyList_New(0);
  for (int d = 1; allowed && d < ASC_DT_COUNT && *si->tallowed; d++)
    if (asc_struct_template_allows(si, (AscDType)d) &&
        list_append_new(allowed,
                        PyUnicode_FromString(asc_dtype_name((AscDType)d)))) {
      Py_CLEAR(allowed);
    }
  return allowed ? Py_BuildValue("(sN)", asc_dtype_name(si->tdefault), allowed)
                 : NULL;
}

PyObject *py_struct_infos(PyObject *mod, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (int i = 0; l && i < ASC_STRUCT_COUNT; i++) {
    const AscStructInfo *si = asc_struct_info((AscStructId)i);
    PyObject *fields = PyList_New(si->n_fields);
    for (int f = 0; fields && f < si->n_fields; f++) {
      const AscFieldInfo *fi = &si->fields[f];
      const char *kind = fi->nested           ? "struct"
                         : fi->enum_kind >= 0 ? "enum"
                                              : "number";
      const char *type = fi->nested ? fi->nested->name
                         : fi->enum_kind >= 0
                             ? asc_enum_kind_name((AscEnumKind)fi->enum_kind)
                         : fi->is_t ? "T"
                                    : asc_dtype_name(fi->dtype);
      PyObject *t = Py_BuildValue("(ssssdi)", fi->name, fi->cpp, kind, type,
                                  fi->def, fi->len);
      if (!t) {
        Py_CLEAR(fields);
        break;
      }
      PyList_SET_ITEM(fields, f, t);
    }
    PyObject *tmpl = fields ? template_info(si) : NULL;
    PyObject *d =
        tmpl ? Py_BuildValue(
                   "{s:s,s:s,s:s,s:N,s:N}", "name", si->name, "cpp", si->cpp,
                   "init", si->init == ASC_STRUCT_INIT_CTOR ? "ctor" : "fields",
                   "template", tmpl, "fields", fields)
             : NULL;
    if (!tmpl)
      Py_XDECREF(fields);
    if (list_append_new(l, d)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

/* enum_infos() -> [{"name", "prefix", "python", "members": [(name, value,
 * cpp, in_ir)]}]: the enum table (asc/enums.def), for the Python classes.
 * cpp is a member's whole Ascend C spelling (prefix included); python is
 * where the class is visible ("asc", "enums", or "" for none); in_ir is
 * False for a member of the Python enum the IR does not carry. */
typedef struct EnumMemberRow {
  const char *name;
  long long value;
  const char *cpp;
  int in_ir;
} EnumMemberRow;

typedef struct EnumKindRow {
  const char *name, *prefix, *python;
  const EnumMemberRow *members;
  int n;
} EnumKindRow;

#define ASC_ENUM_BEGIN(K, py, prefix)                                          \
  static const EnumMemberRow enum_members_##K[] = {
#define ASC_ENUM_VALUE(K, N, v, cpp) {#N, v, cpp, 1},
#define ASC_ENUM_PY_ONLY(K, N, v, cpp) {#N, v, cpp, 0},
#define ASC_ENUM_PYTHON(K, vis)
#define ASC_ENUM_END(K)                                                        \
  }                                                                            \
  ;
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_PY_ONLY
#undef ASC_ENUM_PYTHON
#undef ASC_ENUM_END

static const EnumKindRow enum_kind_rows[] = {
#define ASC_ENUM_BEGIN(K, py_name, cpp_prefix)                                 \
  {                                                                            \
    .name = py_name, .prefix = cpp_prefix, .members = enum_members_##K,        \
    .n = (int)(sizeof enum_members_##K / sizeof enum_members_##K[0]),
#define ASC_ENUM_VALUE(K, N, v, cpp)
#define ASC_ENUM_PY_ONLY(K, N, v, cpp)
#define ASC_ENUM_PYTHON(K, vis) .python = vis,
#define ASC_ENUM_END(K)                                                        \
  }                                                                            \
  ,
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_PY_ONLY
#undef ASC_ENUM_PYTHON
#undef ASC_ENUM_END
};

static PyObject *enum_members(const EnumKindRow *k) {
  PyObject *members = PyList_New(k->n);
  for (int i = 0; members && i < k->n; i++) {
    const EnumMemberRow *m = &k->members[i];
    PyObject *t = Py_BuildValue("(sLNO)", m->name, m->value,
                                PyUnicode_FromFormat("%s%s", k->prefix, m->cpp),
                                m->in_ir ? Py_True : Py_False);
    if (!t) {
      Py_CLEAR(members);
      break;
    }
    PyList_SET_ITEM(members, i, t);
  }
  return members;
}

PyObject *py_enum_infos(PyObject *mod, PyObject *unused) {
  PyObject *l = PyList_New(0);
  size_t n = sizeof enum_kind_rows / sizeof enum_kind_rows[0];
  for (size_t i = 0; l && i < n; i++) {
    const EnumKindRow *k = &enum_kind_rows[i];
    PyObject *members = enum_members(k);
    PyObject *d = members ? Py_BuildValue("{s:s,s:s,s:s,s:N}", "name", k->name,
                                          "prefix", k->prefix, "python",
                                          k->python ? k->python : "asc",
                                          "members", members)
                          : NULL;
    if (list_append_new(l, d)) {
      Py_DECREF(l);
      return NULL;
    }
  }
  return l;
}

PyObject *py_ops_without_emitter_rule(PyObject *mod, PyObject *unused) {
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
