/* The framework classes: TPipe (UB allocation), TQue (buffers handed
 * between pipes in FIFO order), TBuf (a plain buffer).
 *
 * The model checks the protocol the real implementation relies on but does
 * not check: a deque on an empty queue, an alloc with no free buffer, a free
 * of a tensor the queue does not own. On hardware these hang or corrupt. */
#include <stdlib.h>

#include "checked.h"
#include "sim.h"

static AscStatus oom(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in, "out of host memory");
}

AscStatus sim_tpipe_create(AscExec *x, const AscInstr *in) {
  x->b->pipe.initialised = 1;
  ASC_DST(x, in).p = &x->b->pipe;
  return ASC_OK;
}

/* Framework objects live until the block ends (the model never knows when
 * the C++ object would go out of scope); a cap keeps a loop that creates
 * them without end from taking all host memory. */
enum { MAX_FRAMEWORK_OBJECTS = 65536 };

static AscStatus count_object(AscExec *x, const AscInstr *in) {
  if (x->b->n_objects >= MAX_FRAMEWORK_OBJECTS)
    return sim_fail(x, in,
                    "more than %d TQue / TBuf objects created by one block "
                    "(created in a loop? create them once, before it)",
                    MAX_FRAMEWORK_OBJECTS);
  x->b->n_objects++;
  return ASC_OK;
}

AscStatus sim_tque_create(AscExec *x, const AscInstr *in) {
  if (count_object(x, in))
    return ASC_ERR_KERNEL;
  AscSimQueue *q = calloc(1, sizeof *q);
  if (!q)
    return oom(x, in);
  q->position = (int)in->imm2;
  q->depth = (int)in->imm3;
  q->next = x->b->queues;
  x->b->queues = q;
  ASC_DST(x, in).p = q;
  return ASC_OK;
}

AscStatus sim_tbuf_create(AscExec *x, const AscInstr *in) {
  if (count_object(x, in))
    return ASC_ERR_KERNEL;
  AscSimTBuf *t = calloc(1, sizeof *t);
  if (!t)
    return oom(x, in);
  t->position = (int)in->imm2;
  t->base = -1;
  t->next = x->b->tbufs;
  x->b->tbufs = t;
  ASC_DST(x, in).p = t;
  return ASC_OK;
}

/* Takes bytes from the pipe's UB, 32-byte aligned. */
static AscStatus ub_take(AscExec *x, const AscInstr *in, int64_t bytes,
                         int64_t *base) {
  AscSimPipe *p = &x->b->pipe;
  int64_t start = p->ub_used;
  if (bytes < 0 || bytes > x->b->ub_size - start)
    return sim_fail(x, in,
                    "init_buffer: UB overflow: %lld more bytes requested at "
                    "offset %lld, but the UB has %lld bytes",
                    (long long)bytes, (long long)start,
                    (long long)x->b->ub_size);
  p->ub_used = start + bytes;
  *base = start;
  return ASC_OK;
}

void asc_que_pipes(int position, AscPipe *producer, AscPipe *consumer) {
  switch (position) {
  case ASC_TPOSITION_VECIN:
    *producer = ASC_PIPE_MTE2;
    *consumer = ASC_PIPE_V;
    break;
  case ASC_TPOSITION_VECOUT:
    *producer = ASC_PIPE_V;
    *consumer = ASC_PIPE_MTE3;
    break;
  default:
    *producer = *consumer = ASC_PIPE_V;
  }
}

/* The event of a queue operation on buffer i, for the observers. */
static void que_event(AscExec *x, const AscSimQueue *q, AscQueOp op, int i) {
  AscEvent *e = &x->b->ev;
  e->kind = ASC_EV_QUE;
  e->que_op = op;
  e->que = q;
  e->buffer = i;
  asc_que_pipes(q->position, &e->producer, &e->consumer);
}

AscStatus sim_init_buffer_que(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 1).p;
  int64_t num = ASC_SLOT(x, in, 2).i, len = ASC_SLOT(x, in, 3).i;
  if (q->num)
    return sim_fail(x, in, "init_buffer: this TQue already has buffers");
  if (num < 1 || num > ASC_MAX_QUE_BUFS)
    return sim_fail(x, in, "init_buffer: buffer count %lld not in [1, %d]",
                    (long long)num, ASC_MAX_QUE_BUFS);
  if (len <= 0)
    return sim_fail(x, in,
                    "init_buffer: buffer length must be positive, "
                    "got %lld",
                    (long long)len);
  int64_t each, total;
  if (asc_round_up(len, 32, &each) || asc_mul_i64(num, each, &total))
    return sim_fail(x, in,
                    "init_buffer: UB overflow: %lld buffers of %lld bytes "
                    "requested, but the UB has %lld bytes",
                    (long long)num, (long long)len, (long long)x->b->ub_size);
  AscStatus s = ub_take(x, in, total, &q->base);
  if (s)
    return s;
  q->num = (int)num;
  q->len = each;
  return ASC_OK;
}

AscStatus sim_init_buffer_buf(AscExec *x, const AscInstr *in) {
  AscSimTBuf *t = ASC_SLOT(x, in, 1).p;
  int64_t len = ASC_SLOT(x, in, 2).i;
  if (t->base >= 0)
    return sim_fail(x, in, "init_buffer: this TBuf already has a buffer");
  if (len <= 0)
    return sim_fail(x, in,
                    "init_buffer: buffer length must be positive, "
                    "got %lld",
                    (long long)len);
  int64_t each;
  if (asc_round_up(len, 32, &each))
    return sim_fail(x, in,
                    "init_buffer: UB overflow: %lld bytes requested, but the "
                    "UB has %lld bytes",
                    (long long)len, (long long)x->b->ub_size);
  AscStatus s = ub_take(x, in, each, &t->base);
  if (!s)
    t->len = len;
  return s;
}

static AscTensorRef buffer_tensor(const AscSimQueue *q, int i, uint8_t dt) {
  AscTensorRef t;
  t.buf = -1;
  t.addr = q->base + i * q->len;
  t.len = q->len / (int64_t)asc_dtype_size((AscDType)dt);
  t.dtype = dt;
  t.position = (uint8_t)q->position;
  return t;
}

static int buffer_of(const AscSimQueue *q, const AscTensorRef *t) {
  if (q->num == 0 || t->buf != -1 || t->addr < q->base)
    return -1;
  int64_t off = t->addr - q->base;
  if (off % q->len || off / q->len >= q->num)
    return -1;
  return (int)(off / q->len);
}

AscStatus sim_alloc_tensor(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  if (q->num == 0)
    return sim_fail(x, in,
                    "alloc_tensor on a TQue without buffers (call "
                    "pipe.init_buffer first)");
  /* Ascend C's TQue hands out its buffers in turn (a cursor that moves on
   * past each buffer it looks at), so that copy-in, compute and copy-out
   * of consecutive tiles use different buffers (double buffering) */
  for (int k = 0; k < q->num; k++) {
    int i = (q->cursor + k) % q->num;
    if (!(q->allocated & (1ull << i))) {
      q->allocated |= 1ull << i;
      q->cursor = (i + 1) % q->num;
      ASC_DST(x, in).t = buffer_tensor(q, i, in->dtype);
      que_event(x, q, ASC_QUE_ALLOC, i);
      return ASC_OK;
    }
  }
  return sim_fail(x, in,
                  "alloc_tensor: all %d buffers of the TQue are in use (a "
                  "free_tensor is missing); on the NPU this hangs",
                  q->num);
}

AscStatus sim_enque(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  const AscTensorRef *t = &ASC_SLOT(x, in, 1).t;
  int i = buffer_of(q, t);
  if (i < 0 || !(q->allocated & (1ull << i)))
    return sim_fail(x, in,
                    "enque of a LocalTensor that was not allocated "
                    "from this TQue");
  int cap = q->depth > 0 ? q->depth : q->num;
  if (q->fifo_count >= cap || q->fifo_count >= ASC_MAX_QUE_BUFS)
    return sim_fail(x, in, "enque on a full TQue (depth %d)", cap);
  q->fifo[(q->fifo_head + q->fifo_count) % ASC_MAX_QUE_BUFS] = i;
  q->fifo_count++;
  que_event(x, q, ASC_QUE_ENQUE, i);
  return ASC_OK;
}

AscStatus sim_deque(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  if (q->fifo_count == 0)
    return sim_fail(x, in,
                    "deque on an empty TQue: no tensor was enqueued "
                    "(on the NPU this hangs)");
  int i = q->fifo[q->fifo_head];
  q->fifo_head = (q->fifo_head + 1) % ASC_MAX_QUE_BUFS;
  q->fifo_count--;
  ASC_DST(x, in).t = buffer_tensor(q, i, in->dtype);
  que_event(x, q, ASC_QUE_DEQUE, i);
  return ASC_OK;
}

AscStatus sim_free_tensor(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  const AscTensorRef *t = &ASC_SLOT(x, in, 1).t;
  int i = buffer_of(q, t);
  if (i < 0 || !(q->allocated & (1ull << i)))
    return sim_fail(x, in,
                    "free_tensor of a LocalTensor this TQue did not "
                    "allocate (or already freed)");
  for (int k = 0; k < q->fifo_count; k++)
    if (q->fifo[(q->fifo_head + k) % ASC_MAX_QUE_BUFS] == i)
      return sim_fail(x, in,
                      "free_tensor of a LocalTensor still in the "
                      "queue (deque it first)");
  q->allocated &= ~(1ull << i);
  que_event(x, q, ASC_QUE_FREE, i);
  return ASC_OK;
}

AscStatus sim_tbuf_get(AscExec *x, const AscInstr *in) {
  AscSimTBuf *b = ASC_SLOT(x, in, 0).p;
  if (b->base < 0)
    return sim_fail(x, in, "TBuf.get before pipe.init_buffer");
  int64_t es = (int64_t)asc_dtype_size((AscDType)in->dtype);
  int64_t len = in->n_args > 1 ? ASC_SLOT(x, in, 1).i : b->len / es;
  int64_t bytes;
  if (len < 0 || asc_mul_i64(len, es, &bytes) || bytes > b->len)
    return sim_fail(x, in,
                    "TBuf.get of %lld elements exceeds the %lld-byte "
                    "buffer",
                    (long long)len, (long long)b->len);
  AscTensorRef *t = &ASC_DST(x, in).t;
  t->buf = -1;
  t->addr = b->base;
  t->len = len;
  t->dtype = in->dtype;
  t->position = (uint8_t)b->position;
  return ASC_OK;
}
