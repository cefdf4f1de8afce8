/* family: adv math. asc.adv.acos ... asc.adv.xor, the devkit's math
 * library (include/adv_api/math/), on the Ascend910B.
 *
 * One semantic function for all 27 rows (sub: the AscAdvMathApi). It checks
 * the operands as any count-form vector instruction does (sim_vec_operand:
 * 32-byte alignment, count elements inside each tensor and the UB), that
 * dst overlaps neither source and the temporary buffer none of them (the
 * devkit's constraints), and the temporary buffer:
 *
 *   - given (temp_buffer, the devkit's sharedTmpBuffer): at least the
 *     minimum the devkit's host tiling gives (GetXxxMaxMinTmpSize), else a
 *     KernelError naming both sizes;
 *   - not given: the devkit's framework pops it off its stack
 *     (PopStackBuffer<TPosition::LCM>), the UB the TPipe has not given out.
 *     Here it is the UB from the TPipe's allocation mark (ub_used, rounded
 *     up to 32 bytes) to the UB's end, so a tensor placed there by hand is
 *     a race the sanitizer reports, as on the hardware; too little room
 *     left is a KernelError.
 *
 * The results: the transcendental APIs (Acos ... Lgamma) from
 * sim_adv_math_fn (adv_math_fn.c), the others from adv_math_simple.c. The
 * observers (timing model, sanitizer) see the devkit's instructions pass by
 * pass over the temporary buffer (its split of count into passes of what
 * the buffer holds; vec_seq.h), each step with the UB it reads and writes:
 * the pass's part of src / dst, and the temporary bytes the pass uses
 * (approximated as the devkit's minimum for 64 floats times the pass's
 * float repeats, at most the buffer). The API's own event is its last
 * instruction. */
#include <stdlib.h>
#include <string.h>

#include "adv_math.h"
#include "checked.h"
#include "sim.h"
#include "vecmath.h"

static const char *const names[ASC_ADV_MATH_COUNT] = {
    "asc.adv.acos",  "asc.adv.acosh", "asc.adv.asin",    "asc.adv.asinh",
    "asc.adv.atan",  "asc.adv.atanh", "asc.adv.cos",     "asc.adv.cosh",
    "asc.adv.sin",   "asc.adv.sinh",  "asc.adv.tan",     "asc.adv.tanh",
    "asc.adv.erf",   "asc.adv.erfc",  "asc.adv.digamma", "asc.adv.lgamma",
    "asc.adv.exp",   "asc.adv.log",   "asc.adv.power",   "asc.adv.sign",
    "asc.adv.floor", "asc.adv.ceil",  "asc.adv.round",   "asc.adv.trunc",
    "asc.adv.frac",  "asc.adv.axpy",  "asc.adv.xor"};

const char *sim_adv_math_name(int api) {
  return api >= 0 && api < ASC_ADV_MATH_COUNT ? names[api] : "asc.adv.math";
}

int sim_adv_math_dtype_ok(int api, AscDType dst, AscDType src) {
  if (api == ASC_ADV_MATH_POWER && dst == src && src == ASC_DT_INT32)
    return 1;
  if (api == ASC_ADV_MATH_XOR)
    return dst == src && (src == ASC_DT_INT16 || src == ASC_DT_UINT16);
  if (api == ASC_ADV_MATH_AXPY && dst == ASC_DT_FLOAT32 &&
      src == ASC_DT_FLOAT16)
    return 1;
  return dst == src && (src == ASC_DT_FLOAT16 || src == ASC_DT_FLOAT32);
}

const char *sim_adv_math_dtypes(int api) {
  if (api == ASC_ADV_MATH_XOR)
    return "int16, uint16";
  if (api == ASC_ADV_MATH_AXPY)
    return "dst/src float16/float16, float32/float32 or float32/float16";
  if (api == ASC_ADV_MATH_POWER)
    return "float16, float32, int32";
  return "float16, float32";
}

static int transcendental(int api) { return api <= ASC_ADV_MATH_LGAMMA; }

enum { REPEAT = 256, BLK = 32 };

/* One call being run: its operands' UB spans. */
typedef struct Run {
  SimVecSeq q;
  int64_t dst, src, src1, tmp, tmp_bytes, min_tmp;
  int64_t es, des; /* element sizes of src and dst */
  AscDType dt;
} Run;

/* The temporary bytes a pass of m elements uses. */
static int64_t tmp_used(const Run *r, int64_t m) {
  int64_t repeats = (m * 4 + REPEAT - 1) / REPEAT;
  int64_t per = r->min_tmp > 0 ? r->min_tmp : 2 * REPEAT;
  int64_t used = per * (repeats > 0 ? repeats : 1);
  return used < r->tmp_bytes ? used : r->tmp_bytes;
}

static int spans_of(const Run *r, int64_t off, int64_t m, int reads, int writes,
                    SimUbSpan *sp) {
  int n = 0;
  for (int w = 0; w < 2; w++) {
    int bits = w ? writes : reads;
    if (bits & SIM_ADV_SRC)
      sp[n++] = (SimUbSpan){r->src + off * r->es, m * r->es, w};
    if (bits & SIM_ADV_SRC1)
      sp[n++] = (SimUbSpan){r->src1 + off * r->es, m * r->es, w};
    if (bits & SIM_ADV_DST)
      sp[n++] = (SimUbSpan){r->dst + off * r->des, m * r->des, w};
    if ((bits & SIM_ADV_TMP) && r->tmp_bytes > 0)
      sp[n++] = (SimUbSpan){r->tmp, tmp_used(r, m), w};
  }
  return n;
}

/* A step over elements [off, off + m) of the pass, `elems` elements of work
 * (m, or m times a loop's iterations), and the PipeBarrier<PIPE_V> after it
 * where the devkit has one; 0 after sim_fail. */
static int step(Run *r, int op, const char *label, AscDType dt, int64_t off,
                int64_t m, int64_t elems, int reads, int writes, int barrier) {
  SimUbSpan sp[8];
  int n = spans_of(r, off, m, reads, writes, sp);
  if (!sim_vseq_op(&r->q, op, dt, elems, label, sp, n))
    return 0;
  return !barrier || sim_vseq_barrier(&r->q);
}

static int overlap(const AscTensorRef *a, int64_t abytes, const AscTensorRef *b,
                   int64_t bbytes) {
  return abytes > 0 && bbytes > 0 && a->addr < b->addr + bbytes &&
         b->addr < a->addr + abytes;
}

/* The transcendental APIs' numerics: src to float, sim_adv_math_fn, the
 * final Cast to dst's type. 0: not implemented (*oom: out of memory). */
static int fn_compute(int api, AscDType dt, int precision, uint8_t *d,
                      const uint8_t *s, int64_t n, int *oom) {
  *oom = 0;
  if (n <= 0)
    return 1;
  float *v = malloc((size_t)n * sizeof(float));
  float *scratch = malloc((size_t)n * SIM_ADV_MATH_SCRATCH * sizeof(float));
  int ok = 0;
  if (!v || !scratch) {
    *oom = 1;
  } else {
    if (dt == ASC_DT_FLOAT32)
      memcpy(v, s, (size_t)n * sizeof(float));
    else
      asc_vec_cast(ASC_DT_FLOAT32, dt, ASC_ROUND_NONE, v, s, n);
    ok = sim_adv_math_fn(api, dt, precision, v, n, scratch);
    if (ok) {
      if (dt == ASC_DT_FLOAT32)
        memcpy(d, v, (size_t)n * sizeof(float));
      else
        asc_vec_cast(dt, ASC_DT_FLOAT32, ASC_ROUND_NONE, d, v, n);
    }
  }
  free(v);
  free(scratch);
  return ok;
}

AscStatus sim_adv_math(AscExec *x, const AscInstr *in) {
  int api = (int)in->imm;
  const char *name = sim_adv_math_name(api);
  int binary = api == ASC_ADV_MATH_POWER || api == ASC_ADV_MATH_XOR;
  int kc = binary || api == ASC_ADV_MATH_AXPY ? 3 : 2, kt = kc + 1;
  int has_tmp = in->src->n_operands > kt;
  int64_t n = ASC_SLOT(x, in, kc).i;
  const AscTensorRef *dr = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *sr =
      dr ? sim_tensor_arg(x, in, 1, binary ? "src0" : "src") : NULL;
  if (!sr)
    return ASC_ERR_KERNEL;
  Run r;
  memset(&r, 0, sizeof r);
  r.dt = (AscDType)sr->dtype;
  AscDType ddt = (AscDType)dr->dtype;
  r.es = (int64_t)asc_dtype_size(r.dt);
  r.des = (int64_t)asc_dtype_size(ddt);
  int reuse = asc_op_attr_int(in->src, "is_reuse_source", 0) != 0;
  int level = (int)asc_op_attr_int(in->src, "taylor_expand_level", 0);
  if (n < 0 || n > INT32_MAX) {
    sim_fail(x, in, "%s: count %lld is out of range [0, %d]", name,
             (long long)n, INT32_MAX);
    return ASC_ERR_KERNEL;
  }
  uint8_t *d = sim_vec_operand(x, in, 0, n, 1, "dst");
  uint8_t *s =
      d ? sim_vec_operand(x, in, 1, n, 0, binary ? "src0" : "src") : NULL;
  uint8_t *s1 = s && binary ? sim_vec_operand(x, in, 2, n, 0, "src1") : s;
  if (!s1)
    return ASC_ERR_KERNEL;
  const AscTensorRef *s1r = binary ? sim_tensor_arg(x, in, 2, "src1") : NULL;
  if (overlap(dr, n * r.des, sr, n * r.es) ||
      (s1r && overlap(dr, n * r.des, s1r, n * r.es))) {
    sim_fail(x, in,
             "%s: dst (UB bytes from %lld) overlaps a source (from %lld): the "
             "devkit's %s does not support overlapping source and destination",
             name, (long long)dr->addr,
             (long long)(overlap(dr, n * r.des, sr, n * r.es) ? sr->addr
                                                              : s1r->addr),
             asc_op_info(in->src->id)->cpp);
    return ASC_ERR_KERNEL;
  }
  r.dst = dr->addr;
  r.src = sr->addr;
  r.src1 = s1r ? s1r->addr : sr->addr;
  r.min_tmp = transcendental(api)
                  ? sim_adv_math_min_tmp(api, r.dt, n)
                  : sim_adv_simple_min_tmp(api, r.dt, reuse, level);
  if (has_tmp) {
    const AscTensorRef *tr = sim_tensor_arg(x, in, kt, "temp_buffer");
    if (!tr)
      return ASC_ERR_KERNEL;
    int64_t bytes = tr->len < 0 ? 0 : tr->len;
    if (!sim_vec_operand(x, in, kt, bytes, 1, "temp_buffer"))
      return ASC_ERR_KERNEL;
    if (bytes < r.min_tmp) {
      sim_fail(x, in,
               "%s: temp_buffer holds %lld bytes, but the devkit's %s needs "
               "at least %lld for %s (its Get%sMaxMinTmpSize minimum)",
               name, (long long)bytes, asc_op_info(in->src->id)->cpp,
               (long long)r.min_tmp, asc_dtype_name(r.dt),
               asc_op_info(in->src->id)->cpp + 9);
      return ASC_ERR_KERNEL;
    }
    if (overlap(tr, bytes, dr, n * r.des) || overlap(tr, bytes, sr, n * r.es) ||
        (s1r && overlap(tr, bytes, s1r, n * r.es))) {
      sim_fail(x, in,
               "%s: temp_buffer (UB bytes %lld..%lld) overlaps dst or a "
               "source: the devkit does not support that",
               name, (long long)tr->addr, (long long)(tr->addr + bytes));
      return ASC_ERR_KERNEL;
    }
    r.tmp = tr->addr;
    r.tmp_bytes = bytes;
  } else if (r.min_tmp <= 0 && !x->b->pipe.initialised) {
    r.tmp = 0; /* no temporary needed, none taken (a kernel without TPipe) */
    r.tmp_bytes = 0;
  } else {
    int64_t avail;
    int64_t at = sim_adv_stack_buffer(x, in, &avail);
    if (at < 0)
      return ASC_ERR_KERNEL;
    if (avail < r.min_tmp) {
      sim_fail(x, in,
               "%s: without a temp_buffer the devkit's framework takes %lld "
               "bytes of UB for %s's temporary, but only %lld are left above "
               "what the TPipe gave out; pass a temp_buffer",
               name, (long long)r.min_tmp, asc_dtype_name(r.dt),
               (long long)avail);
      return ASC_ERR_KERNEL;
    }
    r.tmp = at;
    r.tmp_bytes = avail;
  }
  /* the numerics */
  SimAdvCall c = {api, r.dt, ddt, n, d, s, s1, 0, reuse, level};
  const SimAdvStep *fn_steps = NULL;
  int n_fn = 0;
  if (transcendental(api)) {
    int oom = 0;
    fn_steps = sim_adv_math_steps(api, r.dt, &n_fn);
    if (!fn_steps || !fn_compute(api, r.dt, x->b->precision, d, s, n, &oom)) {
      if (oom)
        sim_fail(x, in, "%s: out of host memory", name);
      else
        sim_fail(x, in, "%s: not implemented for %s in this simulator", name,
                 asc_dtype_name(r.dt));
      return ASC_ERR_KERNEL;
    }
  } else {
    if (api == ASC_ADV_MATH_AXPY) {
      AscSlot v = ASC_SLOT(x, in, 2);
      c.scalar = asc_dtype_is_float(in->src->operands[2]->type->dtype)
                     ? v.f
                     : (double)v.i;
    }
    int ok = sim_adv_simple_compute(&c);
    if (ok < 0) {
      sim_fail(x, in,
               "%s: an exponent of INT32_MIN: the devkit's loop over |src1| "
               "(which stays negative) never ends",
               name);
      return ASC_ERR_KERNEL;
    }
    if (!ok) {
      sim_fail(x, in, "%s: out of host memory", name);
      return ASC_ERR_KERNEL;
    }
  }
  /* the instructions, pass by pass */
  SimAdvPlanStep plan[SIM_ADV_PLAN_MAX];
  int n_plan = 0;
  int64_t pass;
  if (transcendental(api)) {
    int64_t factor = r.min_tmp / REPEAT;
    pass = factor > 0 ? r.tmp_bytes / factor / r.es / BLK * BLK : n;
  } else {
    sim_adv_simple_plan(&c, plan, &n_plan);
    pass = sim_adv_simple_pass(api, r.dt, ddt, reuse, level, r.tmp_bytes, n);
  }
  if (pass <= 0 || pass > n)
    pass = n;
  sim_vseq_begin(&r.q, x, in);
  for (int64_t off = 0; off < n; off += pass) {
    int64_t m = n - off < pass ? n - off : pass;
    if (transcendental(api)) {
      for (int i = 0; i < n_fn; i++) {
        const SimAdvStep *st = &fn_steps[i];
        AscDType sdt =
            st->op == ASC_OP_CAST || st->on_float ? ASC_DT_FLOAT32 : r.dt;
        if (!step(&r, st->op, st->label, sdt, off, m, m, st->reads, st->writes,
                  1))
          return ASC_ERR_KERNEL;
      }
    } else {
      for (int i = 0; i < n_plan; i++) {
        const SimAdvPlanStep *st = &plan[i];
        AscDType sdt = st->on_float ? ASC_DT_FLOAT32 : r.dt;
        int64_t elems, times = st->times > 0 ? st->times : 1;
        if (asc_mul_i64(m, times, &elems))
          elems = INT64_MAX;
        if (!step(&r, st->op, st->label, sdt, off, m, elems, st->reads,
                  st->writes, st->barrier))
          return ASC_ERR_KERNEL;
      }
    }
  }
  sim_vseq_end(&r.q);
  return ASC_OK;
}
