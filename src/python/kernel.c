/* asc._C's Kernel object and its launch: the platform, the sanitizer and
 * timing observers, the step budget, the GIL released while the blocks run,
 * Ctrl-C, and a failed launch's status mapped to LaunchError. Also the
 * launch-related module functions (platform, set_sanitize_default). */
#include "pymodule.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- Kernel ----------------------------------------------------------------
 */

static void kernel_dealloc(KernelObject *self) {
  asc_kernel_free(self->k);
  wrapper_dealloc((PyObject *)self);
}

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

PyObject *py_set_sanitize_default(PyObject *mod, PyObject *args) {
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

/* launch(core_num, platform, args, workers=0): args converted as
 * convert_arg (launch_args.c) says. The GIL is released while the blocks
 * run. */
static PyObject *kernel_launch(KernelObject *self, PyObject *args,
                               PyObject *kw) {
  int core_num, workers = 0, sanitize = 7;
  long long max_steps = -1;
  const char *platform_name;
  PyObject *launch_args;
  PyObject *timing = NULL;
  static char *kwlist[] = {"core_num",  "platform", "args",      "workers",
                           "sanitize",  "timing",   "max_steps", "n_extra",
                           "precision", NULL};
  /* family: listtensor: n_extra, the GM buffers after the parameters */
  int n_extra = 0;
  /* an AscPrecision (asc.lib.runtime.state.PRECISIONS) */
  int precision = ASC_PRECISION_EXACT;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "isO|iiOLii", kwlist, &core_num,
                                   &platform_name, &launch_args, &workers,
                                   &sanitize, &timing, &max_steps, &n_extra,
                                   &precision))
    return NULL;
  if (precision != ASC_PRECISION_EXACT && precision != ASC_PRECISION_HARDWARE)
    return PyErr_Format(PyExc_ValueError,
                        "precision %d is neither exact (0) nor hardware (1)",
                        precision);
  if (max_steps < 0) {
    if (max_steps_default < 0 && max_steps_from_env(&max_steps_default) < 0)
      return NULL;
    max_steps = max_steps_default;
  }
  const AscPlatform *p = asc_platform_get(platform_name);
  if (!p)
    return PyErr_Format(PyExc_ValueError, "unknown platform '%s'",
                        platform_name);
  LaunchArgs la;
  if (launch_args_convert_extra(&la, self->k, launch_args, n_extra))
    return NULL;
  PyObject *result = NULL;
  AscSanitizer *san = NULL;
  AscTiming *tim = NULL;
  AscObserver observers[2];
  LaunchInterrupt li = {0};
  AscLaunchOptions opt = {.workers = workers,
                          .precision = precision,
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
  /* family: cores: the observers see every core of a MIX launch */
  int blocks = asc_kernel_launch_blocks(self->k, core_num);
  if (blocks < 1)
    blocks = core_num; /* the launch reports the bad core_num */
  if (san_mode != ASC_SAN_OFF) {
    san = asc_sanitizer_new((AscSanMode)san_mode,
                            sanitize & 4 ? ASC_SAN_AUTO_SYNC : 0, blocks);
    if (!san) {
      PyErr_NoMemory();
      goto done;
    }
    opt.observers = asc_sanitizer_observer(san);
    opt.n_observers = 1;
    /* the sanitizer reports them: a warning, the access clamped; or an
     * error, the access not made */
    opt.gm_overruns_reported = san_mode == ASC_SAN_WARN ? 1 : 2;
  }
  if (timing && timing != Py_None) {
    /* the timing model observes after the sanitizer */
    tim = timing_prepare(self->k, timing, p, blocks);
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
  s = asc_kernel_launch(self->k, p, core_num, la.args, (int)la.n, &opt, &err);
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
    if (san && !(extra = san_failure_reports(san)))
      goto done;
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
    PyObject *r = timing_result(tim, blocks);
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
  launch_args_release(&la);
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

/* family: cores */
static PyObject *kernel_kernel_type(KernelObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(asc_kernel_type(self->k));
}

static PyObject *kernel_launch_blocks(KernelObject *self, PyObject *args) {
  int core_num;
  if (!PyArg_ParseTuple(args, "i", &core_num))
    return NULL;
  return PyLong_FromLong(asc_kernel_launch_blocks(self->k, core_num));
}

static PyMethodDef kernel_methods[] = {
    /* family: cores */
    {"kernel_type", (PyCFunction)kernel_kernel_type, METH_NOARGS,
     "kernel_type() -> int: the asc.KernelType value it was compiled as"},
    {"launch_blocks", (PyCFunction)kernel_launch_blocks, METH_VARARGS,
     "launch_blocks(core_num) -> int: the cores a launch of core_num runs"},
    {"launch", (PyCFunction)(void (*)(void))kernel_launch,
     METH_VARARGS | METH_KEYWORDS,
     "launch(core_num, platform, args, workers=0, sanitize=7, timing=None, "
     "max_steps=-1, n_extra=0, precision=0) -> None or a list of sanitizer "
     "reports"},
    {"param_types", (PyCFunction)kernel_param_types, METH_NOARGS,
     "the kernel's parameter Types"},
    {NULL, NULL, 0, NULL}};

PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "asc._C.Kernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_methods = kernel_methods,
};

/* ---- the platform table (a module function) ---------------------------- */

PyObject *py_platform(PyObject *mod, PyObject *args) {
  const char *name;
  if (!PyArg_ParseTuple(args, "s", &name))
    return NULL;
  const AscPlatform *p = asc_platform_get(name);
  if (!p)
    return PyErr_Format(PyExc_ValueError, "unknown platform '%s'", name);
  return Py_BuildValue(
      "{s:s,s:i,s:i,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:i,s:i}", "name", p->name,
      "vector_cores", p->vector_cores, "cube_cores", p->cube_cores, "ub_size",
      (Py_ssize_t)p->ub_size, "ub_asc_reserved", (Py_ssize_t)p->ub_asc_reserved,
      "ub_api_reserved", (Py_ssize_t)p->ub_api_reserved, "ub_msg_size",
      (Py_ssize_t)p->ub_msg_size, "l1_size", (Py_ssize_t)p->l1_size,
      "l1_reserved", (Py_ssize_t)p->l1_reserved, "l1_asc_reserved",
      (Py_ssize_t)p->l1_asc_reserved, "l0c_size", (Py_ssize_t)p->l0c_size,
      "event_ids", p->event_ids, "user_event_ids", p->user_event_ids);
}

/* The helper threads a multi-block launch borrows (asc_launch_helper_threads);
 * for tests and benchmarks. */
PyObject *py_helper_threads(PyObject *mod, PyObject *unused) {
  (void)mod;
  (void)unused;
  return PyLong_FromLong(asc_launch_helper_threads());
}
