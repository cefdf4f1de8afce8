/* asc._C's side of the launch observers' data: sanitizer reports as dicts,
 * the timing spec of Kernel.launch read into an AscTiming, the timing
 * results as plain data, and timing_params. */
#include "pymodule.h"

/* ---- the sanitizer's reports --------------------------------------------- */

/* A report as a dict (the front end makes SanitizerError / warnings). */
static PyObject *san_report_dict(const AscSanReport *r) {
  /* UB, GM, or a cube memory (family: cube) */
  const char *memory = asc_space_name(r->space);
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
PyObject *san_reports(const AscSanitizer *san) {
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

/* The reports of a failed sanitized launch as (the report it fails with or
 * None, the other reports): what it adds to its LaunchError's arguments. */
PyObject *san_failure_reports(const AscSanitizer *san) {
  int ei = asc_sanitizer_error_index(san);
  PyObject *rep = ei >= 0 ? san_report_dict(asc_sanitizer_report(san, ei))
                          : (Py_INCREF(Py_None), Py_None);
  PyObject *others = san_reports(san);
  PyObject *extra = rep && others ? Py_BuildValue("(OO)", rep, others) : NULL;
  Py_XDECREF(rep);
  Py_XDECREF(others);
  return extra;
}

/* ---- the timing model's side of a launch ---------------------------------
 * Kernel.launch(..., timing=spec): spec is a dict. spec["params"] (optional)
 * maps timing parameter names to overrides, spec["record"] (default True)
 * keeps per-instruction records. After a successful launch the results are
 * in spec["result"] (timing_result); the return value is unchanged. */
AscTiming *timing_prepare(const AscKernel *k, PyObject *spec,
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
  AscTiming *t = asc_timing_new(&prm, k, p, core_num, record);
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
PyObject *timing_result(const AscTiming *t, int core_num) {
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
  return Py_BuildValue("{s:d,s:i,s:d,s:L,s:L,s:L,s:i,s:N,s:N,s:N}", "clock_ghz",
                       prm->clock_ghz, "cores", asc_timing_cores(t),
                       "port_rate", asc_timing_port_rate(t), "launch_overhead",
                       (long long)asc_timing_launch_overhead(t), "block_start",
                       (long long)asc_timing_block_start(t), "duration",
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
PyObject *py_timing_params(PyObject *mod, PyObject *args) {
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
