/* Device-side debugging (family: debug): printf, DumpTensor,
 * DumpAccChkPoint, PrintTimeStamp, MetricsProfStart / MetricsProfStop.
 *
 * On an NPU the kernel writes records into a per-core buffer and the
 * runtime prints them after the kernel, core by core. Here each call makes
 * its text at once and hands it to output.c, which keeps each block's text
 * and writes it out block after block at the end of the launch: the output
 * is the same whatever the host threads do. The text is what the devkit's
 * documentation shows the runtime printing:
 *
 *   printf:        "[AIV Block b/N] " and the formatted text
 *   DumpTensor:    "DumpTensor: desc=D, addr=0xA, data_type=T, position=P,
 *                  dump_size=N" on a line, then the elements: "[v, v, ...]",
 *                  or, with a ShapeInfo, nested by its shape ("[[v,v],\n
 *                  [v,v]]", "-" for elements past the dump, a line saying
 *                  so when the shape's size and dump_size differ)
 *   PrintTimeStamp: "descId is D, rsv is 0, timeStamp is C, pcPtr is 0,
 *                  entry is E." with C the timing model's cycle
 *
 * Floats print with %f, integers in decimal. A dump of no elements or of
 * more than 30 KB (the runtime's default per-call limit) prints nothing, as
 * on the device. A dump that prints is, as the devkit's, a pipe_barrier of
 * every pipe before and after the copy of the data. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "ir/printf_format.h"
#include "sim.h"
#include "timing.h"
#include "vecmath.h"

enum { DUMP_LIMIT_BYTES = 30 * 1024 };

typedef struct Text {
  char *s;
  size_t n, cap;
  int failed;
} Text;

static void put(Text *t, const char *s, size_t n) {
  if (t->failed)
    return;
  if (t->n + n + 1 > t->cap) {
    size_t cap = (t->cap ? t->cap * 2 : 256) + n;
    char *ns = realloc(t->s, cap);
    if (!ns) {
      t->failed = 1;
      return;
    }
    t->s = ns;
    t->cap = cap;
  }
  memcpy(t->s + t->n, s, n);
  t->n += n;
  t->s[t->n] = 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void putf(Text *t, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (k < 0) {
    t->failed = 1;
    return;
  }
  put(t, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

static AscStatus flush(AscExec *x, const AscInstr *in, Text *t) {
  if (t->failed) {
    free(t->s);
    return sim_fail(x, in, "out of host memory");
  }
  if (t->n)
    sim_output_text(x->b, t->s, t->n);
  free(t->s);
  return ASC_OK;
}

/* ---- printf ---------------------------------------------------------------
 */

/* One conversion of an argument of IR type `t` held in slot v. The spec
 * (flags, width, precision) is the user's; the argument is passed to the C
 * library at the width the spec's length modifier says, as the device's
 * record holds it. */
static void format_arg(Text *out, const char *spec, size_t len,
                       const AscPrintfConv *c, const AscType *t, AscSlot v) {
  char f[64];
  size_t n = 0;
  /* the spec up to its length modifier and conversion letter */
  size_t body = len - 1 - (size_t)c->length;
  if (body > sizeof f - 8)
    body = sizeof f - 8;
  memcpy(f, spec, body);
  n = body;
  if (c->conv == 'f' || c->conv == 'F') {
    f[n++] = c->conv;
    f[n] = 0;
    putf(out, f, v.f);
    return;
  }
  int64_t i = 0;
  if (t->kind == ASC_TY_GLOBAL_ADDRESS)
    i = v.t.addr; /* the byte offset in its argument: no host address */
  else
    i = asc_dtype_is_float(t->dtype) ? (int64_t)v.f : v.i;
  if (c->conv == 'p') {
    putf(out, "0x%" PRIx64, (uint64_t)i);
    return;
  }
  int wide = c->length > 0 ||
             (t->kind == ASC_TY_SCALAR && asc_dtype_size(t->dtype) == 8);
  memcpy(f + n, "ll", 2);
  n += 2;
  f[n++] = c->conv;
  f[n] = 0;
  if (c->conv == 'd' || c->conv == 'i')
    putf(out, f, wide ? (long long)i : (long long)(int32_t)i);
  else
    putf(out, f,
         wide ? (unsigned long long)(uint64_t)i
              : (unsigned long long)(uint32_t)i);
}

/* The devkit's prefix of a printf line (impl/utils/debug: the core kind,
 * then the block index over the launch's blocks of that kind: on arch 2201
 * an AIV's GetBlockIdx * ratio + sub over GetBlockNum * ratio, an AIC's
 * GetBlockIdx over GetBlockNum). */
/* The devkit's printf, DumpTensor, DumpAccChkPoint and PrintTimeStamp each
 * write and invalidate the whole data cache first (DataCacheCleanAndInvalid
 * ENTIRE_DATA_CACHE, CACHELINE_OUT: impl/basic_api/dav_c220/
 * kernel_operator_dump_tensor_impl.h, impl/utils/debug/
 * asc_aicore_printf_impl.h), which the sanitizer's data cache model sees
 * (sanitizer_dcache.c). */
static void clean_data_cache(AscExec *x) {
  if (x->b->n_observers)
    x->b->ev.dc_op = ASC_DC_CLEAN_ALL;
}

static void put_prefix(Text *out, const AscBlockState *b) {
  if (!b->has_core) {
    putf(out, "[AIV Block %d/%d] ", b->block_idx, b->block_num);
    return;
  }
  int64_t total = b->logical_num * (b->core_is_aic ? 1 : b->core_sub_num);
  putf(out, "[%s Block %lld/%lld] ", b->core_is_aic ? "AIC" : "AIV",
       (long long)b->logical_idx, (long long)total);
}

AscStatus sim_printf(AscExec *x, const AscInstr *in) {
  clean_data_cache(x);
  const char *fmt = asc_op_attr_str(in->src, "format");
  AscPrintfConv convs[ASC_PRINTF_MAX_CONVS];
  char err[256];
  int n = fmt ? asc_printf_parse(fmt, convs, err, sizeof err) : -1;
  if (n < 0) /* (the verifier checked it; IR text may not have been) */
    return sim_fail(x, in, "asc.printf: %s", fmt ? err : "no format");
  Text out = {0};
  put_prefix(&out, x->b);
  size_t at = 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    put(&out, fmt + at, convs[i].at - at);
    at = convs[i].at + convs[i].len;
    if (convs[i].conv == '%') {
      put(&out, "%", 1);
      continue;
    }
    if (k >= in->n_args || convs[i].conv == 's') {
      free(out.s);
      return sim_fail(x, in,
                      "asc.printf: the format does not match its "
                      "arguments");
    }
    format_arg(&out, fmt + convs[i].at, convs[i].len, &convs[i],
               in->src->operands[k]->type, ASC_SLOT(x, in, k));
    k++;
  }
  put(&out, fmt + at, strlen(fmt + at));
  return flush(x, in, &out);
}

/* ---- DumpTensor, DumpAccChkPoint -------------------------------------------
 */

/* The runtime's names of the element types (aclDataType). */
static const char *dump_type_name(AscDType dt) {
  switch (dt) {
  case ASC_DT_BOOL:
    return "bool";
  case ASC_DT_INT8:
    return "int8";
  case ASC_DT_INT16:
    return "int16";
  case ASC_DT_INT32:
    return "int32";
  case ASC_DT_INT64:
    return "int64";
  case ASC_DT_UINT8:
    return "uint8";
  case ASC_DT_UINT16:
    return "uint16";
  case ASC_DT_UINT32:
    return "uint32";
  case ASC_DT_UINT64:
    return "uint64";
  case ASC_DT_FLOAT16:
    return "float16";
  case ASC_DT_BFLOAT16:
    return "bfloat16";
  case ASC_DT_FLOAT32:
    return "float32";
  default:
    return NULL;
  }
}

/* The physical memory of a LocalTensor's TPosition, as the dump names it;
 * NULL for one DumpTensor cannot print (L0A / L0B). */
static const char *local_position_name(int pos) {
  switch (pos) {
  case 1: /* A1 */
  case 3: /* B1 */
  case 5: /* C1 */
    return "L1";
  case 7: /* CO1 */
    return "L0C";
  case 2: /* A2 */
  case 4: /* B2 */
  case 6: /* C2 */
    return NULL;
  default: /* VECIN, VECOUT, VECCALC, CO2 */
    return "UB";
  }
}

static void put_element(Text *out, AscDType dt, const uint8_t *p, int64_t i) {
  if (asc_dtype_is_float(dt))
    putf(out, "%f", asc_load_f(dt, p, i));
  else if (dt == ASC_DT_UINT64)
    putf(out, "%llu", (unsigned long long)(uint64_t)asc_load_i(dt, p, i));
  else
    putf(out, "%lld", (long long)asc_load_i(dt, p, i));
}

/* Elements [first, first + count of this level) of a ShapeInfo dump:
 * dims[level..] the remaining shape, n the elements dumped. */
static void put_shaped(Text *out, AscDType dt, const uint8_t *p, int64_t n,
                       const int64_t *dims, int n_dims, int level,
                       int64_t first, int64_t stride) {
  put(out, "[", 1);
  int64_t inner = stride / (dims[level] ? dims[level] : 1);
  for (int64_t j = 0; j < dims[level]; j++) {
    if (j)
      put(out, level == n_dims - 1 ? "," : ",\n", level == n_dims - 1 ? 1 : 2);
    int64_t e = first + j * inner;
    if (level == n_dims - 1) {
      if (e < n)
        put_element(out, dt, p, e);
      else
        put(out, "-", 1);
    } else {
      put_shaped(out, dt, p, n, dims, n_dims, level + 1, e, inner);
    }
  }
  put(out, "]", 1);
}

/* A dump of n elements from tensor operand 0 moved on by `off` elements. */
static AscStatus dump(AscExec *x, const AscInstr *in, uint32_t desc,
                      int64_t off, int64_t n, int shape_arg) {
  clean_data_cache(x);
  const AscTensorRef *ref = sim_tensor_arg(x, in, 0, "tensor");
  if (!ref)
    return ASC_ERR_KERNEL;
  AscTensorRef t = *ref;
  AscDType dt = (AscDType)t.dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  const char *type_name = dump_type_name(dt);
  if (!type_name)
    return sim_fail(x, in, "cannot dump elements of type %s",
                    asc_dtype_name(dt));
  int global = t.buf >= 0;
  if (asc_scaled_add(t.addr, off, es, &t.addr))
    return sim_fail(x, in, "count_off %lld overflows the address",
                    (long long)off);
  if (t.len >= 0)
    t.len = t.len > off ? t.len - off : 0;
  const char *pos = global ? "GM" : local_position_name(sim_lt_position(&t));
  if (!pos)
    return sim_fail(x, in,
                    "DumpTensor prints tensors in the UB, L1, L0C or GM, not "
                    "at TPosition %d",
                    sim_lt_position(&t));
  if (!global && t.addr % 32)
    return sim_fail(x, in,
                    "the dumped address 0x%llx is not 32-byte aligned (the "
                    "offset address must keep the UB's alignment)",
                    (long long)t.addr);
  int64_t bytes;
  if (n == 0 || asc_mul_i64(n, es, &bytes) || bytes > DUMP_LIMIT_BYTES)
    return ASC_OK; /* nothing, or more than the runtime's per-call limit:
                      not printed (and no barrier: the devkit returns first) */
  const uint8_t *p = NULL;
  uint8_t *tmp = NULL;
  if (n > 0 && global) {
    SimGmSpan span;
    if (sim_gm_span(x, in, &t, n, 0, "tensor", &span))
      return ASC_ERR_KERNEL;
    tmp = calloc(1, (size_t)bytes);
    if (!tmp)
      return sim_fail(x, in, "out of host memory");
    if (span.valid)
      memcpy(tmp + span.skip, span.p, (size_t)span.valid);
    p = tmp;
  } else if (n > 0) {
    p = sim_local_ptr(x, in, &t, n, 0, "tensor");
    if (!p)
      return ASC_ERR_KERNEL;
  }
  Text out = {0};
  putf(&out,
       "DumpTensor: desc=%u, addr=0x%llx, data_type=%s, position=%s, "
       "dump_size=%lld\n",
       desc, (unsigned long long)t.addr, type_name, pos, (long long)n);
  if (shape_arg >= 0 && shape_arg < in->n_args) {
    const AscStructInfo *si = asc_struct_info(ASC_STRUCT_SHAPE_INFO);
    const AscSlot *s = &ASC_SLOT(x, in, shape_arg);
    const AscFieldInfo *fd =
        &si->fields[asc_struct_field_index(si, "shape_dim")];
    const AscFieldInfo *fs = &si->fields[asc_struct_field_index(si, "shape")];
    int n_dims = (int)asc_int_normalize(fd->dtype, s[fd->slot].i);
    if (n_dims < 1 || n_dims > fs->len) {
      free(out.s);
      free(tmp);
      return sim_fail(x, in,
                      "ShapeInfo.shape_dim = %d: DumpTensor takes 1 to %d "
                      "dimensions",
                      n_dims, fs->len);
    }
    int64_t dims[8], size = 1;
    for (int i = 0; i < n_dims; i++) {
      dims[i] = asc_int_normalize(fs->dtype, s[fs->slot + i].i);
      if (asc_mul_i64(size, dims[i], &size) || size > ((int64_t)1 << 24)) {
        free(out.s);
        free(tmp);
        return sim_fail(x, in, "the ShapeInfo's shape is too large to dump");
      }
    }
    if (size != n) { /* a note when the shape and the dump differ */
      put(&out, "shape is [", 10);
      for (int i = 0; i < n_dims; i++)
        putf(&out, "%s%lld", i ? ", " : "", (long long)dims[i]);
      putf(&out, "], dumpSize is %lld, %s\n", (long long)n,
           size > n ? "data is not enough."
                    : "dumpSize is greater than shapeSize.");
    }
    put_shaped(&out, dt, p, n, dims, n_dims, 0, 0, size);
    put(&out, "\n", 1);
  } else {
    put(&out, "[", 1);
    for (int64_t i = 0; i < n; i++) {
      if (i)
        put(&out, ", ", 2);
      put_element(&out, dt, p, i);
    }
    put(&out, "]\n", 2);
  }
  free(tmp);
  /* the devkit copies the data out between two pipe_barrier(PIPE_ALL): to
   * the sanitizer and the timing model the dump is a barrier of every pipe
   * (its read then races with nothing, and reads no stale data to report);
   * a read past its GM argument or local tensor stays an access, for the
   * sanitizer to report */
  AscEvent *e = &x->b->ev;
  if (!e->has_ov && !e->has_lov) {
    e->kind = ASC_EV_BARRIER;
    e->src = ASC_PIPE_COUNT;
    e->pipe = ASC_PIPE_S;
  }
  return flush(x, in, &out);
}

AscStatus sim_dump_tensor(AscExec *x, const AscInstr *in) {
  return dump(x, in, (uint32_t)ASC_SLOT(x, in, 1).i, 0,
              (int64_t)(uint32_t)ASC_SLOT(x, in, 2).i, 3);
}

AscStatus sim_dump_acc_chk_point(AscExec *x, const AscInstr *in) {
  return dump(x, in, (uint32_t)ASC_SLOT(x, in, 1).i,
              (int64_t)(uint32_t)ASC_SLOT(x, in, 2).i,
              (int64_t)(uint32_t)ASC_SLOT(x, in, 3).i, -1);
}

/* ---- PrintTimeStamp, MetricsProfStart / Stop -------------------------------
 */

AscStatus sim_print_time_stamp(AscExec *x, const AscInstr *in) {
  clean_data_cache(x);
  int64_t entry = 0;
  int64_t now = asc_timing_block_cycle(x->b, &entry);
  Text out = {0};
  putf(&out,
       "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, entry is "
       "%lld.\n",
       (uint32_t)ASC_SLOT(x, in, 0).i, (long long)(now < 0 ? 0 : now),
       (long long)entry);
  return flush(x, in, &out);
}

/* They only tell the msOpProf tool where to collect: nothing to simulate. */
AscStatus sim_metrics_prof(AscExec *x, const AscInstr *in) {
  (void)x;
  (void)in;
  return ASC_OK;
}
