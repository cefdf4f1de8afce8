/* Memory access checks and error reporting for the semantic functions. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "sim.h"

AscStatus sim_fail(AscExec *x, const AscInstr *in, const char *fmt, ...) {
  AscLaunchError *e = x->b->err;
  if (e->status != ASC_OK)
    return e->status;
  e->status = ASC_ERR_KERNEL;
  e->block = x->b->block_idx;
  if (in && in->src) {
    e->loc = in->src->loc;
    const AscOpInfo *info = asc_op_info(in->src->id);
    e->op_name = info ? info->name : NULL;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  return ASC_ERR_KERNEL;
}

void sim_record_access(AscBlockState *b, AscSpace space, int write, int32_t buf,
                       int64_t lo, int64_t hi) {
  AscEvent *e = &b->ev;
  if (hi <= lo)
    return;
  if (e->n_acc >= ASC_EVENT_MAX_ACCESSES) {
    e->acc_overflow = 1;
    return;
  }
  AscAccess *a = &e->acc[e->n_acc++];
  a->write = (uint8_t)write;
  a->space = (uint8_t)space;
  a->bounding = 0;
  a->atomic = 0;
  a->l2_bypass = 0;
  a->scalar = 0;
  a->rows = 0;
  a->buf = buf;
  a->lo = lo;
  a->hi = hi;
}

void sim_gm_mark_scalar(AscExec *x, int n_before) {
  for (int i = n_before; i < x->b->ev.n_acc; i++)
    if (x->b->ev.acc[i].space == ASC_SPACE_GM)
      x->b->ev.acc[i].scalar = 1;
}

const char *sim_ub_user_note(const AscBlockState *b, char *buf, size_t n) {
  return asc_reserve_ub_note(&b->reserve, b->platform, buf, n);
}

const AscTensorRef *sim_tensor_arg(AscExec *x, const AscInstr *in, int k,
                                   const char *what) {
  const AscTensorRef *t = &ASC_SLOT(x, in, k).t;
  AscDType want = in->src->operands[k]->type->dtype;
  if (t->dtype != want) {
    sim_fail(x, in,
             "%s: a tensor of %s used as a tensor of %s (IR that changes a "
             "tensor's element type without a cast)",
             what, asc_dtype_name((AscDType)t->dtype), asc_dtype_name(want));
    return NULL;
  }
  return t;
}

uint8_t *sim_local_ptr(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                       int64_t count, int write, const char *what) {
  int64_t esize = (int64_t)asc_dtype_size((AscDType)t->dtype);
  if (count < 0) {
    sim_fail(x, in, "negative element count %lld", (long long)count);
    return NULL;
  }
  /* family: cube. A tensor at a cube position addresses its memory. */
  if (sim_cube_mem_of_position(t->position) >= 0) {
    int64_t nbytes;
    if (asc_mul_i64(count, esize, &nbytes)) {
      sim_fail(x, in, "%s: %lld elements: too many", what, (long long)count);
      return NULL;
    }
    return sim_cube_range(x, in, t, 0, nbytes, write, what);
  }
  /* past the tensor's end: a KernelError, but in the sanitizer's warn mode
   * (gm_overruns_reported 1) a warning when the access stays inside the UB,
   * as on an NPU (a level-0 repeat of a full mask writes 256 bytes) */
  int past_tensor = t->len >= 0 && count > t->len;
  if (past_tensor && x->b->gm_overruns_reported != 1) {
    sim_fail(x, in,
             "%s: %lld elements requested but the LocalTensor has only %lld "
             "(UB address %lld)",
             what, (long long)count, (long long)t->len, (long long)t->addr);
    return NULL;
  }
  int64_t end;
  if (asc_scaled_add(t->addr, count, esize, &end)) {
    sim_fail(x, in,
             "%s: UB access out of bounds: %lld elements of %lld bytes from "
             "UB address %lld end past any address (the UB has %lld bytes)",
             what, (long long)count, (long long)esize, (long long)t->addr,
             (long long)x->b->ub_size);
    return NULL;
  }
  if (t->addr < 0 || end > x->b->ub_size) {
    sim_fail(x, in,
             "%s: UB access out of bounds: bytes [%lld, %lld) but the UB "
             "has %lld bytes",
             what, (long long)t->addr, (long long)end,
             (long long)x->b->ub_size);
    return NULL;
  }
  if (x->b->regs.ia_on && !sim_ia_access(x, in, t->addr, end, write))
    return NULL; /* CheckLocalMemoryIA's exception (memory_ia.c) */
  if (end > *x->b->ub_dirty)
    *x->b->ub_dirty = end; /* zeroed before the next block uses the UB */
  if (x->b->n_observers) {
    sim_record_access(x->b, ASC_SPACE_UB, write, -1, t->addr, end);
    if (past_tensor && !x->b->ev.has_lov) { /* the first one of the call */
      AscEvent *e = &x->b->ev;
      e->has_lov = 1;
      e->lov_write = (uint8_t)write;
      e->lov_lo = t->addr;
      e->lov_hi = end;
      e->lov_len = t->len;
    }
  }
  return x->b->ub + t->addr;
}

AscStatus sim_gm_span(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                      int64_t count, int write, const char *what,
                      SimGmSpan *span) {
  memset(span, 0, sizeof *span);
  if (t->buf < 0 || t->buf >= x->b->n_args)
    return sim_fail(x, in,
                    "%s: GlobalTensor used before set_global_buffer (or a "
                    "null GM address, such as a get_hccl_context never set)",
                    what);
  const AscLaunchArg *a = &x->b->args[t->buf];
  int64_t esize = (int64_t)asc_dtype_size((AscDType)t->dtype);
  int64_t nbytes = (int64_t)a->nbytes, end;
  if (count < 0)
    return sim_fail(x, in, "negative element count %lld", (long long)count);
  if (asc_scaled_add(t->addr, count, esize, &end))
    return sim_fail(x, in,
                    "%s: GM access out of bounds of kernel argument %d: %lld "
                    "elements of %lld bytes from byte offset %lld (a %lld-byte "
                    "buffer)",
                    what, t->buf, (long long)count, (long long)esize,
                    (long long)t->addr, (long long)nbytes);
  if (write && a->readonly)
    return sim_fail(x, in, "%s: write to kernel argument %d, a read-only array",
                    what, t->buf);
  int64_t lo = t->addr < 0 ? 0 : (t->addr > nbytes ? nbytes : t->addr);
  int64_t hi = end > nbytes ? nbytes : (end < lo ? lo : end);
  span->total = end - t->addr;
  span->valid = hi - lo;
  span->skip = span->valid > 0 ? lo - t->addr : 0;
  int inside = t->addr >= 0 && end <= nbytes;
  if (!inside && !x->b->gm_overruns_reported)
    return sim_fail(x, in,
                    "%s: GM access out of bounds of kernel argument %d: bytes "
                    "[%lld, %lld) of a %lld-byte buffer (elements [%lld, %lld) "
                    "of %lld)",
                    what, t->buf, (long long)t->addr, (long long)end,
                    (long long)nbytes, (long long)(t->addr / esize),
                    (long long)(end / esize), (long long)(nbytes / esize));
  /* in error mode (2) the faulting call touches nothing: the launch fails
   * at it, and a failed launch leaves memory as the kernel's writes before
   * it left it */
  if (!inside && x->b->gm_overruns_reported == 2)
    span->valid = span->skip = 0;
  span->p = span->valid > 0 ? (uint8_t *)a->ptr + lo : NULL;
  if (x->b->n_observers) {
    if (span->valid > 0) {
      sim_record_access(x->b, ASC_SPACE_GM, write, t->buf, lo, hi);
      AscEvent *e = &x->b->ev;
      if (e->n_acc > 0 && e->acc[e->n_acc - 1].buf == t->buf)
        e->acc[e->n_acc - 1].l2_bypass = t->l2_bypass;
    }
    if (!inside && !x->b->ev.has_ov) { /* the first overrun of the call */
      AscEvent *e = &x->b->ev;
      e->has_ov = 1;
      e->ov_write = (uint8_t)write;
      e->ov_buf = t->buf;
      e->ov_lo = t->addr;
      e->ov_hi = end;
    }
  }
  return ASC_OK;
}
