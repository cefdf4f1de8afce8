/* The framework classes: TPipe (UB allocation, event ids), TQue / TQueBind
 * (buffers handed between pipes in FIFO order), TBuf (a plain buffer) and
 * TBufPool (a part of the UB that queues and buffers are carved from, and
 * that other pools may share).
 *
 * Semantics follow the devkit's implementation (impl/basic_api/
 * kernel_tpipe_impl.h, kernel_tquebind_impl.h, kernel_tbuf_impl.h,
 * kernel_tbufpool_impl.h), including its bookkeeping of event ids: a queue
 * of depth >= 1 takes an id of its enque event from the TPipe at each enque
 * (released by the deque) and one of its free event at each free_tensor
 * (released when the buffer is allocated again, or by free_all_event); a
 * queue of depth 0 takes both for every buffer at init_buffer. So
 * alloc_event_id and fetch_event_id answer what they answer on the NPU.
 *
 * The model checks the protocol the real implementation relies on but does
 * not check: a deque on an empty queue, an alloc with no free buffer, a free
 * of a tensor the queue does not own, an event id released twice or out of
 * ids. On hardware these hang or corrupt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "sim.h"

static AscStatus oom(AscExec *x, const AscInstr *in) {
  return sim_fail(x, in, "out of host memory");
}

static const char *event_name(int64_t ev) {
  const char *s = asc_enum_value_name(ASC_ENUM_HARDEVENT, ev);
  return s ? s : "?";
}

static const char *position_name(int64_t pos) {
  const char *s = asc_enum_value_name(ASC_ENUM_TPOSITION, pos);
  return s ? s : "?";
}

/* The instruction's event for the observers: an ordering of every pipe
 * (PIPE_ALL), as TPipe.destroy issues and as reset / TBufPool.reset
 * approximate (they wait for the free events of the buffers freed so far:
 * that orders every earlier use of those buffers before their next one). */
static void barrier_all(AscExec *x) {
  AscEvent *e = &x->b->ev;
  e->kind = ASC_EV_BARRIER;
  e->src = ASC_PIPE_COUNT;
  e->pipe = ASC_PIPE_S;
}

/* ---- the TPipe's event ids --------------------------------------------- */

static int n_event_ids(const AscBlockState *b) {
  int n = b->platform->event_ids;
  return n > ASC_MAX_EVENT_IDS ? ASC_MAX_EVENT_IDS : n;
}

/* The lowest free id of event ev, -1 when all are taken. */
static int lowest_free_id(const AscBlockState *b, int ev) {
  int n = n_event_ids(b);
  for (int i = 0; i < n; i++)
    if (!(b->pipe.event_ids[ev] & (1u << i)))
      return i;
  return -1;
}

static AscStatus out_of_ids(AscExec *x, const AscInstr *in, const char *api,
                            int ev) {
  return sim_fail(x, in,
                  "%s: all %d event ids of HardEvent.%s are taken (by "
                  "alloc_event_id calls without release_event_id, or by queue "
                  "buffers in flight: each enqueued or freed buffer of a TQue "
                  "holds one); on the NPU the id is out of range",
                  api, n_event_ids(x->b), event_name(ev));
}

/* Takes an id of ev for a queue; -1 after recording an error. */
static int take_id(AscExec *x, const AscInstr *in, const char *api, int ev) {
  int id = lowest_free_id(x->b, ev);
  if (id < 0) {
    out_of_ids(x, in, api, ev);
    return -1;
  }
  x->b->pipe.event_ids[ev] |= (uint16_t)(1u << id);
  return id;
}

static void give_id(AscBlockState *b, int ev, int id) {
  if (id >= 0 && ev >= 0 && ev < ASC_MAX_EVENTS)
    b->pipe.event_ids[ev] &= (uint16_t)~(1u << id);
}

static int event_arg(AscExec *x, const AscInstr *in, const char *api) {
  int64_t ev = in->imm2;
  if (ev < 0 || ev >= ASC_MAX_EVENTS) {
    sim_fail(x, in, "%s: unknown HardEvent %lld", api, (long long)ev);
    return -1;
  }
  return (int)ev;
}

/* After TPipe.destroy nothing may take or give the pipe's memory or event
 * ids until init: the devkit requires Destroy / Init in pairs to reuse a
 * pipe, and its debug build makes GetTPipePtr() (which the queues' event
 * bookkeeping calls) a null pointer in between. */
static AscStatus pipe_usable(AscExec *x, const AscInstr *in, const char *api) {
  if (x->b->pipe.destroyed)
    return sim_fail(x, in,
                    "%s after pipe.destroy(): the TPipe's memory and event "
                    "ids were released; call pipe.init() before using the "
                    "pipe or its queues again",
                    api);
  return ASC_OK;
}

AscStatus sim_tpipe_alloc_event_id(AscExec *x, const AscInstr *in) {
  int ev = event_arg(x, in, "TPipe.alloc_event_id");
  if (ev < 0 || pipe_usable(x, in, "TPipe.alloc_event_id"))
    return ASC_ERR_KERNEL;
  int id = lowest_free_id(x->b, ev);
  if (id < 0)
    return out_of_ids(x, in, "TPipe.alloc_event_id", ev);
  x->b->pipe.event_ids[ev] |= (uint16_t)(1u << id);
  x->b->pipe.user_ids[ev] |= (uint16_t)(1u << id);
  ASC_DST(x, in).i = id;
  return ASC_OK;
}

AscStatus sim_tpipe_fetch_event_id(AscExec *x, const AscInstr *in) {
  int ev = event_arg(x, in, "TPipe.fetch_event_id");
  if (ev < 0 || pipe_usable(x, in, "TPipe.fetch_event_id"))
    return ASC_ERR_KERNEL;
  int id = lowest_free_id(x->b, ev);
  if (id < 0)
    return out_of_ids(x, in, "TPipe.fetch_event_id", ev);
  ASC_DST(x, in).i = id;
  return ASC_OK;
}

AscStatus sim_tpipe_release_event_id(AscExec *x, const AscInstr *in) {
  int ev = event_arg(x, in, "TPipe.release_event_id");
  if (ev < 0 || pipe_usable(x, in, "TPipe.release_event_id"))
    return ASC_ERR_KERNEL;
  int64_t id = ASC_SLOT(x, in, 1).i;
  int n = n_event_ids(x->b);
  if (id < 0 || id >= n)
    return sim_fail(x, in,
                    "TPipe.release_event_id: event id %lld of HardEvent.%s is "
                    "out of range [0, %d)",
                    (long long)id, event_name(ev), n);
  uint16_t bit = (uint16_t)(1u << id);
  if (!(x->b->pipe.user_ids[ev] & bit))
    return sim_fail(
        x, in,
        "TPipe.release_event_id: event id %lld of HardEvent.%s is not "
        "allocated%s (released twice, or never taken by alloc_event_id)",
        (long long)id, event_name(ev),
        x->b->pipe.event_ids[ev] & bit ? " by alloc_event_id (a queue holds it)"
                                       : "");
  x->b->pipe.user_ids[ev] &= (uint16_t)~bit;
  x->b->pipe.event_ids[ev] &= (uint16_t)~bit;
  return ASC_OK;
}

/* ---- TPipe ------------------------------------------------------------------
 */

/* The devkit's TPipe::Init / ResetPool: the UB is free again, every event
 * id too; buffers given before belong to an older generation. */
static void pipe_reset_pool(AscSimPipe *p) {
  p->ub_used = 0;
  memset(p->cube_used, 0, sizeof p->cube_used); /* family: cube */
  memset(p->event_ids, 0, sizeof p->event_ids);
  memset(p->user_ids, 0, sizeof p->user_ids);
  p->n_bufs = 0;
  p->generation++;
}

AscStatus sim_tpipe_create(AscExec *x, const AscInstr *in) {
  AscSimPipe *p = &x->b->pipe;
  if (!p->initialised) /* (the constructor runs Init) */
    pipe_reset_pool(p);
  p->initialised = 1;
  p->destroyed = 0;
  ASC_DST(x, in).p = p;
  return ASC_OK;
}

AscStatus sim_tpipe_get_ptr(AscExec *x, const AscInstr *in) {
  AscSimPipe *p = &x->b->pipe;
  if (!p->initialised)
    return sim_fail(x, in,
                    "asc.get_tpipe_ptr: no TPipe was created in this block "
                    "yet (on the NPU GetTPipePtr() returns a null pointer)");
  if (pipe_usable(x, in, "asc.get_tpipe_ptr"))
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).p = p;
  return ASC_OK;
}

AscStatus sim_tpipe_init(AscExec *x, const AscInstr *in) {
  (void)in;
  AscSimPipe *p = &x->b->pipe;
  pipe_reset_pool(p);
  p->initialised = 1;
  p->destroyed = 0;
  return ASC_OK;
}

/* Forgets the free events the queues' buffers hold (the devkit waits for
 * them): their ids stay taken until the next init or reset. */
static void drop_free_events(AscBlockState *b) {
  for (AscSimQueue *q = b->queues; q; q = q->next)
    if (q->generation == b->pipe.generation && q->depth > 0)
      for (int i = 0; i < q->num; i++)
        if (q->state[i] == ASC_BUF_FREE)
          q->free_id[i] = -1;
}

AscStatus sim_tpipe_destroy(AscExec *x, const AscInstr *in) {
  (void)in;
  drop_free_events(x->b);
  x->b->pipe.destroyed = 1;
  barrier_all(x); /* Destroy ends with PipeBarrier<PIPE_ALL> */
  return ASC_OK;
}

AscStatus sim_tpipe_reset(AscExec *x, const AscInstr *in) {
  (void)in;
  drop_free_events(x->b);
  pipe_reset_pool(&x->b->pipe);
  barrier_all(x);
  return ASC_OK;
}

/* ---- objects -------------------------------------------------------------
 */

/* Framework objects live until the block ends (the model never knows when
 * the C++ object would go out of scope); a cap keeps a loop that creates
 * them without end from taking all host memory. */
enum { MAX_FRAMEWORK_OBJECTS = 65536 };

/* Buffers one TPipe (between init / reset) and one TBufPool manage at most
 * (the devkit's QBUF_MAX_LEN and QBUFPOOL_MAX_LEN). */
enum { MAX_PIPE_BUFS = 64, MAX_POOL_BUFS = 16 };

static AscStatus count_object(AscExec *x, const AscInstr *in) {
  if (x->b->n_objects >= MAX_FRAMEWORK_OBJECTS)
    return sim_fail(x, in,
                    "more than %d TQue / TBuf objects created by one block "
                    "(created in a loop? create them once, before it)",
                    MAX_FRAMEWORK_OBJECTS);
  x->b->n_objects++;
  return ASC_OK;
}

static int is_ub_position(int pos) {
  return pos == ASC_TPOSITION_VECIN || pos == ASC_TPOSITION_VECOUT ||
         pos == ASC_TPOSITION_VECCALC;
}

/* The pipes of a binding src -> dst of vector memory (GetQueEvt of the
 * devkit): GM -> UB is MTE2 -> V, UB -> GM is V -> MTE3, UB -> UB is
 * MTE2 -> MTE3. */
static void binding_pipes(int src, int dst, AscPipe *prod, AscPipe *cons) {
  if (src == ASC_TPOSITION_GM) {
    *prod = ASC_PIPE_MTE2;
    *cons = ASC_PIPE_V;
  } else if (dst == ASC_TPOSITION_GM) {
    *prod = ASC_PIPE_V;
    *cons = ASC_PIPE_MTE3;
  } else {
    *prod = ASC_PIPE_MTE2;
    *cons = ASC_PIPE_MTE3;
  }
}

static AscSimQueue *new_queue(AscExec *x, const AscInstr *in, int position,
                              int depth) {
  if (count_object(x, in))
    return NULL;
  AscSimQueue *q = calloc(1, sizeof *q);
  if (!q) {
    oom(x, in);
    return NULL;
  }
  q->position = position;
  q->depth = depth;
  q->next = x->b->queues;
  x->b->queues = q;
  return q;
}

static void set_queue_events(AscSimQueue *q) {
  q->enq_event = (int)asc_event_of_pipes(q->producer, q->consumer);
  q->free_event = (int)asc_event_of_pipes(q->consumer, q->producer);
}

AscStatus sim_tque_create(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = new_queue(x, in, (int)in->imm2, (int)in->imm3);
  if (!q)
    return ASC_ERR_KERNEL;
  /* TQue<pos> is TQueBind<GM, VECIN> for VECIN, <VECOUT, GM> for VECOUT;
   * a VECCALC queue hands buffers from V to V */
  q->src_pos =
      q->position == ASC_TPOSITION_VECIN ? ASC_TPOSITION_GM : q->position;
  q->dst_pos =
      q->position == ASC_TPOSITION_VECOUT ? ASC_TPOSITION_GM : q->position;
  asc_que_pipes(q->position, &q->producer, &q->consumer);
  set_queue_events(q);
  ASC_DST(x, in).p = q;
  return ASC_OK;
}

/* family: cube: the bindings into and inside the cube core's memories the
 * devkit's GetBufferLogicPos pairs (GM -> A1/B1/C1, A1 -> A2, B1 -> B2,
 * C1 -> C2, CO1 -> CO2): the buffers at GetPosition(src, dst), the queue
 * synchronised as a TQue of that position (asc_que_pipes). */
static int cube_binding(int64_t src, int64_t dst) {
  switch (dst) {
  case ASC_TPOSITION_A1:
  case ASC_TPOSITION_B1:
  case ASC_TPOSITION_C1:
    return src == ASC_TPOSITION_GM;
  case ASC_TPOSITION_A2:
    return src == ASC_TPOSITION_A1;
  case ASC_TPOSITION_B2:
    return src == ASC_TPOSITION_B1;
  case ASC_TPOSITION_C2:
    return src == ASC_TPOSITION_C1;
  case ASC_TPOSITION_CO2:
    return src == ASC_TPOSITION_CO1;
  default:
    return 0;
  }
}

AscStatus sim_tque_bind_create(AscExec *x, const AscInstr *in) {
  int64_t src = asc_op_attr_int(in->src, "src", -1);
  int64_t dst = asc_op_attr_int(in->src, "dst", -1);
  if (cube_binding(src, dst)) {
    AscSimQueue *q = new_queue(x, in, (int)in->imm2, (int)in->imm3);
    if (!q)
      return ASC_ERR_KERNEL;
    q->src_pos = (int)src;
    q->dst_pos = (int)dst;
    asc_que_pipes(q->position, &q->producer, &q->consumer);
    set_queue_events(q);
    ASC_DST(x, in).p = q;
    return ASC_OK;
  }
  if (!(src == ASC_TPOSITION_GM || is_ub_position((int)src)) ||
      !(dst == ASC_TPOSITION_GM || is_ub_position((int)dst)) ||
      (src == ASC_TPOSITION_GM && dst == ASC_TPOSITION_GM))
    return sim_fail(x, in,
                    "TQueBind<%s, %s>: not a binding of arch 2201 (GM, VECIN, "
                    "VECOUT, VECCALC among themselves; GM -> A1/B1/C1, A1 -> "
                    "A2, B1 -> B2, C1 -> C2, CO1 -> CO2)",
                    position_name(src), position_name(dst));
  AscSimQueue *q = new_queue(x, in, (int)in->imm2, (int)in->imm3);
  if (!q)
    return ASC_ERR_KERNEL;
  q->src_pos = (int)src;
  q->dst_pos = (int)dst;
  binding_pipes(q->src_pos, q->dst_pos, &q->producer, &q->consumer);
  set_queue_events(q);
  ASC_DST(x, in).p = q;
  return ASC_OK;
}

static AscSimTBuf *new_tbuf(AscExec *x, const AscInstr *in, int kind) {
  if (count_object(x, in))
    return NULL;
  AscSimTBuf *t = calloc(1, sizeof *t);
  if (!t) {
    oom(x, in);
    return NULL;
  }
  t->kind = kind;
  t->position = (int)in->imm2;
  t->base = -1;
  t->tag = -1;
  t->next = x->b->tbufs;
  x->b->tbufs = t;
  return t;
}

AscStatus sim_tbuf_create(AscExec *x, const AscInstr *in) {
  AscSimTBuf *t = new_tbuf(x, in, ASC_SIM_TBUF);
  if (!t)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).p = t;
  return ASC_OK;
}

AscStatus sim_tbufpool_create(AscExec *x, const AscInstr *in) {
  AscSimTBuf *t = new_tbuf(x, in, ASC_SIM_POOL);
  if (!t)
    return ASC_ERR_KERNEL;
  t->pool_cap = (int)asc_op_attr_int(in->src, "buf_id_size", 4);
  ASC_DST(x, in).p = t;
  return ASC_OK;
}

/* Operand k as a TBuf (kind ASC_SIM_TBUF) or a TBufPool; NULL after
 * recording an error when it is the other (IR text may mix them: they
 * share the IR type until the pool has one of its own). */
static AscSimTBuf *tbuf_arg(AscExec *x, const AscInstr *in, int k, int kind) {
  AscSimTBuf *t = ASC_SLOT(x, in, k).p;
  if (t->kind != kind) {
    sim_fail(x, in, "%s: a %s where a %s is expected",
             asc_op_info(in->op)->name,
             t->kind == ASC_SIM_POOL ? "TBufPool" : "TBuf",
             kind == ASC_SIM_POOL ? "TBufPool" : "TBuf");
    return NULL;
  }
  return t;
}

/* ---- giving buffers ---------------------------------------------------------
 */

/* Where buffers come from: the TPipe's part of the UB or a TBufPool's. */
typedef struct Source {
  const char *api;
  AscSimTBuf *pool; /* NULL: the TPipe */
} Source;

/* Takes bytes (already whole 32-byte blocks) from the source. */
static AscStatus take_bytes(AscExec *x, const AscInstr *in, const Source *src,
                            int position, int64_t bytes, int64_t *base) {
  AscSimPipe *p = &x->b->pipe;
  /* family: cube: a buffer at a cube position is in the cube's memory */
  int cube_mem = sim_cube_mem_of_position(position);
  if (cube_mem >= 0 && !src->pool)
    return sim_cube_take(x, in, src->api, cube_mem, bytes, base);
  if (src->pool) {
    AscSimTBuf *pool = src->pool;
    int64_t end = pool->base < 0 ? 0 : pool->base + pool->len;
    if (pool->base < 0 || bytes < 0 || bytes > end - pool->pool_next)
      return sim_fail(
          x, in,
          "%s: %lld bytes requested at UB address %lld, but the TBufPool "
          "has %lld bytes left of its %lld%s",
          src->api, (long long)bytes, (long long)pool->pool_next,
          (long long)(pool->base < 0 ? 0 : end - pool->pool_next),
          (long long)(pool->base < 0 ? 0 : pool->len),
          pool->base < 0 ? " (give it memory first: pipe.init_buf_pool(pool, "
                           "len), or again after pool.reset())"
                         : "");
    *base = pool->pool_next;
    pool->pool_next += bytes;
    return ASC_OK;
  }
  int64_t start = p->ub_used;
  if (bytes < 0 || bytes > x->b->ub_user - start) {
    char note[768];
    return sim_fail(x, in,
                    "%s: UB overflow: %lld more bytes requested at "
                    "offset %lld; %s",
                    src->api, (long long)bytes, (long long)start,
                    sim_ub_user_note(x->b, note, sizeof note));
  }
  p->ub_used = start + bytes;
  *base = start;
  return ASC_OK;
}

/* Counts n buffers against the TPipe's (or the pool's) limit. */
static AscStatus count_bufs(AscExec *x, const AscInstr *in, const Source *src,
                            int n) {
  if (src->pool) {
    int cap = src->pool->pool_cap < MAX_POOL_BUFS ? src->pool->pool_cap
                                                  : MAX_POOL_BUFS;
    if (src->pool->pool_bufs + n > cap)
      return sim_fail(x, in,
                      "%s: the TBufPool manages at most %d buffers (%s), %d "
                      "more requested after %d",
                      src->api, cap,
                      cap < src->pool->pool_cap ? "16 at most, whatever its "
                                                  "buf_id_size"
                                                : "its buf_id_size",
                      n, src->pool->pool_bufs);
    src->pool->pool_bufs += n;
    return ASC_OK;
  }
  if (x->b->pipe.n_bufs + n > MAX_PIPE_BUFS)
    return sim_fail(x, in,
                    "%s: the TPipe manages at most %d buffers between "
                    "init / reset, %d more requested after %d",
                    src->api, MAX_PIPE_BUFS, n, x->b->pipe.n_bufs);
  x->b->pipe.n_bufs += n;
  return ASC_OK;
}

static AscStatus init_que(AscExec *x, const AscInstr *in, const Source *src,
                          AscSimQueue *q, int64_t num, int64_t len) {
  AscSimPipe *p = &x->b->pipe;
  if (pipe_usable(x, in, src->api))
    return ASC_ERR_KERNEL;
  if (q->num && q->generation == p->generation && !src->pool)
    return sim_fail(x, in,
                    "%s: this TQue already has buffers (on the NPU the old "
                    "ones are lost: call pipe.reset() or pipe.init() first)",
                    src->api);
  if (num < 1 || num > ASC_MAX_QUE_BUFS)
    return sim_fail(x, in, "%s: buffer count %lld not in [1, %d]", src->api,
                    (long long)num, ASC_MAX_QUE_BUFS);
  if (len <= 0)
    return sim_fail(x, in,
                    "%s: buffer length must be positive, "
                    "got %lld",
                    src->api, (long long)len);
  if (src->pool && !is_ub_position(q->position))
    return sim_fail(x, in, "%s: a queue at TPosition.%s in a UB TBufPool",
                    src->api, position_name(q->position));
  int64_t each, total;
  char note[768];
  if (asc_round_up(len, 32, &each) || asc_mul_i64(num, each, &total))
    return sim_fail(x, in,
                    "%s: UB overflow: %lld buffers of %lld bytes "
                    "requested; %s",
                    src->api, (long long)num, (long long)len,
                    sim_ub_user_note(x->b, note, sizeof note));
  int64_t base = 0;
  AscStatus s = take_bytes(x, in, src, q->position, total, &base);
  if (!s)
    s = count_bufs(x, in, src, (int)num);
  if (s)
    return s;
  q->base = base;
  q->num = (int)num;
  q->len = each;
  q->allocated = 0;
  q->cursor = 0;
  q->fifo_head = q->fifo_count = 0;
  q->generation = p->generation;
  q->init_seq = ++p->init_seq;
  for (int i = 0; i < q->num; i++) {
    q->state[i] = ASC_BUF_FREE;
    q->tag[i] = -1;
    q->enq_id[i] = q->free_id[i] = -1;
    q->enq_event_of[i] = (uint8_t)q->enq_event;
  }
  /* a queue of depth 0 keeps an id of each event per buffer, and signals
   * its free event at once (the first in-place alloc waits for it) */
  if (q->depth == 0)
    for (int i = 0; i < q->num; i++) {
      int e = take_id(x, in, src->api, q->enq_event);
      int f = e < 0 ? -1 : take_id(x, in, src->api, q->free_event);
      if (f < 0)
        return ASC_ERR_KERNEL;
      q->enq_id[i] = (int8_t)e;
      q->free_id[i] = (int8_t)f;
    }
  return ASC_OK;
}

static AscStatus init_buf(AscExec *x, const AscInstr *in, const Source *src,
                          AscSimTBuf *t, int64_t len) {
  AscSimPipe *p = &x->b->pipe;
  if (pipe_usable(x, in, src->api))
    return ASC_ERR_KERNEL;
  if (t->base >= 0 && t->generation == p->generation && !src->pool)
    return sim_fail(x, in,
                    "%s: this TBuf already has a buffer (call pipe.reset() "
                    "or pipe.init() first)",
                    src->api);
  if (len <= 0)
    return sim_fail(x, in,
                    "%s: buffer length must be positive, "
                    "got %lld",
                    src->api, (long long)len);
  int64_t each;
  char note[768];
  if (asc_round_up(len, 32, &each))
    return sim_fail(x, in, "%s: UB overflow: %lld bytes requested; %s",
                    src->api, (long long)len,
                    sim_ub_user_note(x->b, note, sizeof note));
  int64_t base = 0;
  AscStatus s = take_bytes(x, in, src, t->position, each, &base);
  if (!s)
    s = count_bufs(x, in, src, 1);
  if (s)
    return s;
  t->base = base;
  t->len = each; /* TBuf.get() without a length takes all of it */
  t->tag = -1;
  t->generation = p->generation;
  t->init_seq = ++p->init_seq;
  return ASC_OK;
}

AscStatus sim_init_buffer_que(AscExec *x, const AscInstr *in) {
  Source src = {"init_buffer", NULL};
  return init_que(x, in, &src, ASC_SLOT(x, in, 1).p, ASC_SLOT(x, in, 2).i,
                  ASC_SLOT(x, in, 3).i);
}

AscStatus sim_init_buffer_buf(AscExec *x, const AscInstr *in) {
  Source src = {"init_buffer", NULL};
  AscSimTBuf *t = tbuf_arg(x, in, 1, ASC_SIM_TBUF);
  return t ? init_buf(x, in, &src, t, ASC_SLOT(x, in, 2).i) : ASC_ERR_KERNEL;
}

AscStatus sim_tbufpool_init_buffer_que(AscExec *x, const AscInstr *in) {
  AscSimTBuf *pool = tbuf_arg(x, in, 0, ASC_SIM_POOL);
  Source src = {"TBufPool.init_buffer", pool};
  return pool ? init_que(x, in, &src, ASC_SLOT(x, in, 1).p,
                         ASC_SLOT(x, in, 2).i, ASC_SLOT(x, in, 3).i)
              : ASC_ERR_KERNEL;
}

AscStatus sim_tbufpool_init_buffer_buf(AscExec *x, const AscInstr *in) {
  AscSimTBuf *pool = tbuf_arg(x, in, 0, ASC_SIM_POOL);
  AscSimTBuf *t = pool ? tbuf_arg(x, in, 1, ASC_SIM_TBUF) : NULL;
  Source src = {"TBufPool.init_buffer", pool};
  return t ? init_buf(x, in, &src, t, ASC_SLOT(x, in, 2).i) : ASC_ERR_KERNEL;
}

/* InitBufPool(pool, len[, share]) from the TPipe (parent NULL) or from a
 * TBufPool: len bytes of the parent's memory, or with share the memory of
 * another pool (which the two then use in turn). */
static AscStatus init_pool(AscExec *x, const AscInstr *in, const char *api,
                           AscSimTBuf *parent) {
  /* (operand 0 is the TPipe or the parent pool, 1 the pool) */
  AscSimTBuf *pool = tbuf_arg(x, in, 1, ASC_SIM_POOL);
  if (!pool || pipe_usable(x, in, api))
    return ASC_ERR_KERNEL;
  int64_t len = ASC_SLOT(x, in, 2).i;
  if (len <= 0)
    return sim_fail(x, in, "%s: the pool's length must be positive, got %lld",
                    api, (long long)len);
  int64_t each;
  if (asc_round_up(len, 32, &each))
    return sim_fail(x, in, "%s: UB overflow: %lld bytes requested", api,
                    (long long)len);
  if (in->n_args > 3) {
    AscSimTBuf *share = tbuf_arg(x, in, 3, ASC_SIM_POOL);
    if (!share)
      return ASC_ERR_KERNEL;
    if (share->base < 0)
      return sim_fail(x, in,
                      "%s: the pool to share has no memory yet (initialise "
                      "it first)",
                      api);
    if (each > share->len)
      return sim_fail(x, in,
                      "%s: %lld bytes requested, but the shared pool has "
                      "only %lld",
                      api, (long long)each, (long long)share->len);
    pool->base = share->base;
    pool->len = share->len;
  } else {
    Source src = {api, parent};
    AscStatus s = take_bytes(x, in, &src, pool->position, each, &pool->base);
    if (s)
      return s;
    pool->len = each;
  }
  pool->pool_next = pool->base;
  pool->pool_bufs = 0;
  pool->generation = x->b->pipe.generation;
  return ASC_OK;
}

AscStatus sim_tpipe_init_buf_pool(AscExec *x, const AscInstr *in) {
  return init_pool(x, in, "TPipe.init_buf_pool", NULL);
}

AscStatus sim_tbufpool_init_buf_pool(AscExec *x, const AscInstr *in) {
  AscSimTBuf *parent = tbuf_arg(x, in, 0, ASC_SIM_POOL);
  return parent ? init_pool(x, in, "TBufPool.init_buf_pool", parent)
                : ASC_ERR_KERNEL;
}

AscStatus sim_tbufpool_reset(AscExec *x, const AscInstr *in) {
  AscSimTBuf *pool = tbuf_arg(x, in, 0, ASC_SIM_POOL);
  if (!pool)
    return ASC_ERR_KERNEL;
  /* the devkit's ResetPool: the pool's buffers stay where they are (the
   * pool sharing its memory may now overwrite them); the pool itself has
   * no memory left to give until init_buf_pool again */
  pool->base = -1;
  pool->len = 0;
  pool->pool_next = 0;
  pool->pool_bufs = 0;
  barrier_all(x);
  return ASC_OK;
}

/* ---- queues --------------------------------------------------------------
 */

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
  /* family: cube: the devkit's GetQueEvt on arch 2201: L1 is filled by
   * MTE2 and read by MTE1 (load_data), L0A/L0B filled by MTE1 and read by
   * M (mmad), L0C written by M and read by FIX (fixpipe); the bias table
   * C2 is filled by MTE1 and read by M */
  case ASC_TPOSITION_A1:
  case ASC_TPOSITION_B1:
  case ASC_TPOSITION_C1:
    *producer = ASC_PIPE_MTE2;
    *consumer = ASC_PIPE_MTE1;
    break;
  case ASC_TPOSITION_A2:
  case ASC_TPOSITION_B2:
  case ASC_TPOSITION_C2:
    *producer = ASC_PIPE_MTE1;
    *consumer = ASC_PIPE_M;
    break;
  case ASC_TPOSITION_CO1:
    *producer = ASC_PIPE_M;
    *consumer = ASC_PIPE_FIX;
    break;
  default:
    *producer = *consumer = ASC_PIPE_V;
  }
}

/* The event of a queue operation on buffer i, for the observers; the pipes
 * are those of HardEvent ev (the queue's own, or an enque's user
 * positions). */
static void que_event(AscExec *x, const AscSimQueue *q, AscQueOp op, int i,
                      int ev) {
  AscEvent *e = &x->b->ev;
  e->kind = ASC_EV_QUE;
  e->que_op = op;
  e->que = q;
  e->buffer = i;
  if (ev == q->enq_event || ev < 0) {
    e->producer = q->producer;
    e->consumer = q->consumer;
  } else {
    asc_event_pipes(ev, &e->producer, &e->consumer);
  }
}

static AscTensorRef buffer_tensor(const AscSimQueue *q, int i, uint8_t dt) {
  AscTensorRef t;
  memset(&t, 0, sizeof t);
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

/* Buffers the TPipe gave before its latest init / reset, which took their
 * memory back (later buffers reuse it, and the devkit reuses the
 * bookkeeping slots too). */
static AscStatus fresh(AscExec *x, const AscInstr *in, int generation,
                       const char *what, const char *api) {
  if (generation != x->b->pipe.generation)
    return sim_fail(x, in,
                    "%s: the %s's buffers were given before the latest "
                    "pipe.reset() / pipe.init(), which took their memory "
                    "back; give it buffers again with init_buffer",
                    api, what);
  return ASC_OK;
}

/* A queue operation: the queue has buffers of the current TPipe, and the
 * pipe is not destroyed (its depth >= 1 operations take and give the
 * pipe's event ids). */
static AscStatus need_buffers(AscExec *x, const AscInstr *in,
                              const AscSimQueue *q, const char *api) {
  if (q->num == 0)
    return sim_fail(x, in,
                    "%s on a TQue without buffers (call "
                    "pipe.init_buffer first)",
                    api);
  if (fresh(x, in, q->generation, "TQue", api))
    return ASC_ERR_KERNEL;
  return q->depth > 0 ? pipe_usable(x, in, api) : ASC_OK;
}

/* The devkit's limit on queue buffers of one TPosition allocated at once
 * (TQue简介.md "TQue Buffer限制"; FAQ 运行验证时AllocTensor-FreeTensor失败.md):
 * every buffer carries a synchronisation event id, and a position has as
 * many buffers in use as the core has event ids (8 on arch 2201); the
 * AllocTensor past them hangs on the NPU. The devkit's own bookkeeping
 * (kernel_tpipe_impl.h AllocEventID, QUE_MAX_EVENT of kernel_macros.h)
 * fails only once the ids run out, which the checks of enque and
 * free_tensor model; this counts what the documentation bounds: the
 * buffers handed out by alloc_tensor and not yet freed, over every queue
 * of the TPipe (TQue, TQueBind, of depth 0 too, and those a TBufPool
 * gave) at that position. TBufs carry no event and do not count. */
static AscStatus position_limit(AscExec *x, const AscInstr *in,
                                const AscSimQueue *q, const char *api) {
  int limit = n_event_ids(x->b), used = 0, queues = 0;
  for (const AscSimQueue *o = x->b->queues; o; o = o->next) {
    if (o->position != q->position || !o->num ||
        o->generation != x->b->pipe.generation)
      continue;
    int n = 0;
    for (int i = 0; i < o->num; i++)
      n += (int)((o->allocated >> i) & 1);
    used += n;
    queues += n > 0;
  }
  if (used < limit)
    return ASC_OK;
  return sim_fail(
      x, in,
      "%s: %d buffers of TPosition.%s are allocated and not yet freed (from "
      "%d queue%s); the NPU holds at most %d queue buffers of one TPosition at "
      "once (one event id each), and the next AllocTensor hangs (devkit "
      "TQue简介.md \"TQue Buffer限制\", FAQ "
      "运行验证时AllocTensor-FreeTensor失败.md); free_tensor one first, or "
      "merge buffers: init_buffer one queue with a larger buffer and use "
      "offsets into its tensor",
      api, used, position_name(q->position), queues, queues == 1 ? "" : "s",
      limit);
}

/* Takes a free buffer, round robin as Ascend C's TQue does (a cursor that
 * moves on past each buffer it looks at), so that copy-in, compute and
 * copy-out of consecutive tiles use different buffers (double buffering).
 * -1 after recording an error. */
static int take_buffer(AscExec *x, const AscInstr *in, AscSimQueue *q,
                       const char *api) {
  if (need_buffers(x, in, q, api))
    return -1;
  for (int k = 0; k < q->num; k++) {
    int i = (q->cursor + k) % q->num;
    if (!(q->allocated & (1ull << i))) {
      if (position_limit(x, in, q, api))
        return -1;
      q->allocated |= 1ull << i;
      q->state[i] = ASC_BUF_OCCUPIED;
      q->cursor = (i + 1) % q->num;
      if (q->depth > 0 && q->free_id[i] >= 0) { /* the free event's id */
        if (q->generation == x->b->pipe.generation)
          give_id(x->b, q->free_event, q->free_id[i]);
        q->free_id[i] = -1;
      }
      que_event(x, q, ASC_QUE_ALLOC, i, -1);
      return i;
    }
  }
  sim_fail(x, in,
           "%s: all %d buffers of the TQue are in use (a "
           "free_tensor is missing); on the NPU this hangs",
           api, q->num);
  return -1;
}

AscStatus sim_alloc_tensor(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int i = take_buffer(x, in, q, "alloc_tensor");
  if (i < 0)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).t = buffer_tensor(q, i, in->dtype);
  return ASC_OK;
}

/* AllocTensor(tensor) of a queue of depth 0: the tensor becomes the
 * buffer. */
AscStatus sim_alloc_tensor_inplace(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  AscTensorRef *t = &ASC_SLOT(x, in, 1).t;
  int i = take_buffer(x, in, q, "alloc_tensor");
  if (i < 0)
    return ASC_ERR_KERNEL;
  *t = buffer_tensor(q, i, t->dtype);
  return ASC_OK;
}

/* The queue buffer of operand 1; -1 after recording an error. */
static int owned_buffer(AscExec *x, const AscInstr *in, AscSimQueue *q,
                        const char *what) {
  if (need_buffers(x, in, q, what))
    return -1;
  const AscTensorRef *t = &ASC_SLOT(x, in, 1).t;
  int i = buffer_of(q, t);
  if (i < 0 || !(q->allocated & (1ull << i))) {
    sim_fail(x, in,
             "%s of a LocalTensor that was not allocated from this TQue "
             "(pass the tensor this queue's alloc_tensor or deque gave)",
             what);
    return -1;
  }
  return i;
}

static AscStatus enque(AscExec *x, const AscInstr *in, int ev) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int i = owned_buffer(x, in, q, "enque");
  if (i < 0)
    return ASC_ERR_KERNEL;
  if (q->state[i] == ASC_BUF_ENQUE)
    return sim_fail(x, in,
                    "enque of a LocalTensor that is already queued (deque it "
                    "before enqueuing it again)");
  if (q->depth == 0) { /* signals its buffer's own event id */
    q->state[i] = ASC_BUF_ENQUE;
    que_event(x, q, ASC_QUE_ENQUE, i, ev);
    return ASC_OK;
  }
  int cap = q->depth;
  if (q->fifo_count >= cap || q->fifo_count >= ASC_MAX_QUE_BUFS)
    return sim_fail(x, in,
                    "enque on a full TQue: it holds at most depth = %d "
                    "tensors (deque one first, or give the queue a greater "
                    "depth)",
                    cap);
  if (ev != ASC_HARDEVENT_V_V) { /* (V_V uses id 0 and takes none) */
    int id = take_id(x, in, "enque", ev);
    if (id < 0)
      return ASC_ERR_KERNEL;
    q->enq_id[i] = (int8_t)id;
  }
  q->enq_event_of[i] = (uint8_t)ev;
  q->state[i] = ASC_BUF_ENQUE;
  q->fifo[(q->fifo_head + q->fifo_count) % ASC_MAX_QUE_BUFS] = i;
  q->fifo_count++;
  que_event(x, q, ASC_QUE_ENQUE, i, ev);
  return ASC_OK;
}

AscStatus sim_enque(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  return enque(x, in, q->enq_event);
}

/* The event of the user positions (src, dst) of enque / deque<src, dst>:
 * the devkit's GetQueEvt of their memories. */
static int user_event(const AscInstr *in) {
  int64_t s = asc_op_attr_int(in->src, "src_user_pos", -1);
  int64_t d = asc_op_attr_int(in->src, "dst_user_pos", -1);
  AscPipe prod, cons;
  binding_pipes((int)s, (int)d, &prod, &cons);
  if (s != ASC_TPOSITION_GM && d != ASC_TPOSITION_GM)
    prod = ASC_PIPE_MTE2, cons = ASC_PIPE_MTE3;
  return (int)asc_event_of_pipes(prod, cons);
}

AscStatus sim_enque_pos(AscExec *x, const AscInstr *in) {
  return enque(x, in, user_event(in));
}

static AscStatus deque(AscExec *x, const AscInstr *in, int ev, int *index) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  if (need_buffers(x, in, q, "deque"))
    return ASC_ERR_KERNEL;
  if (q->fifo_count == 0)
    return sim_fail(x, in,
                    "deque on an empty TQue: no tensor was enqueued "
                    "(on the NPU this hangs); enque the tensor first");
  int i = q->fifo[q->fifo_head];
  if (ev >= 0 && q->enq_event_of[i] != ev)
    return sim_fail(x, in,
                    "deque waits for HardEvent.%s, but the tensor was "
                    "enqueued with HardEvent.%s (enque and deque must name "
                    "the same positions)",
                    event_name(ev), event_name(q->enq_event_of[i]));
  q->fifo_head = (q->fifo_head + 1) % ASC_MAX_QUE_BUFS;
  q->fifo_count--;
  if (q->enq_id[i] >= 0) {
    if (q->generation == x->b->pipe.generation)
      give_id(x->b, q->enq_event_of[i], q->enq_id[i]);
    q->enq_id[i] = -1;
  }
  q->state[i] = ASC_BUF_DEQUE;
  que_event(x, q, ASC_QUE_DEQUE, i, q->enq_event_of[i]);
  *index = i;
  return ASC_OK;
}

AscStatus sim_deque(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int i = -1;
  /* DeQue<T>() waits for the queue's own event: a tensor enqueued with
   * other user positions is a mismatch as much as for DeQue<src, dst> */
  AscStatus s = deque(x, in, q->enq_event, &i);
  if (!s)
    ASC_DST(x, in).t = buffer_tensor(q, i, in->dtype);
  return s;
}

AscStatus sim_deque_pos(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int i = -1;
  AscStatus s = deque(x, in, user_event(in), &i);
  if (!s)
    ASC_DST(x, in).t = buffer_tensor(q, i, in->dtype);
  return s;
}

/* DeQue(tensor) of a queue of depth 0: waits for the tensor's buffer. */
AscStatus sim_deque_inplace(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int i = owned_buffer(x, in, q, "deque");
  if (i < 0)
    return ASC_ERR_KERNEL;
  if (q->state[i] != ASC_BUF_ENQUE)
    return sim_fail(x, in,
                    "deque of a LocalTensor that was not enqueued (on the NPU "
                    "this waits for ever); enque it first");
  q->state[i] = ASC_BUF_DEQUE;
  que_event(x, q, ASC_QUE_DEQUE, i, -1);
  return ASC_OK;
}

AscStatus sim_free_tensor(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  const AscTensorRef *t = &ASC_SLOT(x, in, 1).t;
  if (need_buffers(x, in, q, "free_tensor"))
    return ASC_ERR_KERNEL;
  int i = buffer_of(q, t);
  if (i < 0 || !(q->allocated & (1ull << i)))
    return sim_fail(x, in,
                    "free_tensor of a LocalTensor this TQue did not "
                    "allocate, or freed already (each tensor of "
                    "alloc_tensor is freed once, by its own queue)");
  for (int k = 0; k < q->fifo_count; k++)
    if (q->fifo[(q->fifo_head + k) % ASC_MAX_QUE_BUFS] == i)
      return sim_fail(x, in,
                      "free_tensor of a LocalTensor still in the "
                      "queue (deque it first)");
  if (q->depth > 0 && q->free_event != ASC_HARDEVENT_V_V) {
    int id = take_id(x, in, "free_tensor", q->free_event);
    if (id < 0)
      return ASC_ERR_KERNEL;
    q->free_id[i] = (int8_t)id;
  }
  q->allocated &= ~(1ull << i);
  q->state[i] = ASC_BUF_FREE;
  que_event(x, q, ASC_QUE_FREE, i, -1);
  return ASC_OK;
}

AscStatus sim_free_all_event(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  if (q->num && need_buffers(x, in, q, "free_all_event"))
    return ASC_ERR_KERNEL;
  for (int i = 0; i < q->num; i++)
    if (q->free_id[i] >= 0) {
      if (q->generation == x->b->pipe.generation)
        give_id(x->b, q->free_event, q->free_id[i]);
      q->free_id[i] = -1;
    }
  return ASC_OK;
}

AscStatus sim_get_tensor_count_in_que(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  ASC_DST(x, in).i = q->fifo_count;
  return ASC_OK;
}

AscStatus sim_has_tensor_in_que(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  ASC_DST(x, in).i = q->fifo_count > 0;
  return ASC_OK;
}

AscStatus sim_vacant_in_que(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  ASC_DST(x, in).i = q->fifo_count < q->depth;
  return ASC_OK;
}

AscStatus sim_has_idle_buffer(AscExec *x, const AscInstr *in) {
  AscSimQueue *q = ASC_SLOT(x, in, 0).p;
  int used = 0;
  for (int i = 0; i < q->num; i++)
    used += (q->allocated >> i) & 1;
  ASC_DST(x, in).i = used < q->num;
  return ASC_OK;
}

/* ---- TBuf -------------------------------------------------------------------
 */

static AscStatus tbuf_view(AscExec *x, const AscInstr *in, AscSimTBuf *b,
                           int64_t offset, int64_t len, const char *api) {
  if (b->base < 0)
    return sim_fail(x, in,
                    "%s before pipe.init_buffer (give the TBuf its "
                    "memory first)",
                    api);
  if (fresh(x, in, b->generation, "TBuf", api))
    return ASC_ERR_KERNEL;
  int64_t es = (int64_t)asc_dtype_size((AscDType)in->dtype);
  int64_t bytes, end;
  if (offset < 0 || len < 0 || asc_mul_i64(len, es, &bytes) ||
      asc_add_i64(offset, bytes, &end) || end > b->len)
    return sim_fail(x, in,
                    "%s of %lld elements at byte offset %lld exceeds the "
                    "%lld-byte buffer (ask for fewer elements, or give the "
                    "TBuf more bytes in init_buffer)",
                    api, (long long)len, (long long)offset, (long long)b->len);
  if (offset % 32)
    return sim_fail(x, in,
                    "%s: byte offset %lld is not a multiple of 32 (LocalTensor "
                    "addresses are 32-byte aligned)",
                    api, (long long)offset);
  AscTensorRef *t = &ASC_DST(x, in).t;
  memset(t, 0, sizeof *t);
  t->buf = -1;
  t->addr = b->base + offset;
  t->len = len;
  t->dtype = in->dtype;
  t->position = (uint8_t)b->position;
  return ASC_OK;
}

AscStatus sim_tbuf_get(AscExec *x, const AscInstr *in) {
  AscSimTBuf *b = tbuf_arg(x, in, 0, ASC_SIM_TBUF);
  if (!b)
    return ASC_ERR_KERNEL;
  int64_t es = (int64_t)asc_dtype_size((AscDType)in->dtype);
  int64_t len = in->n_args > 1 ? ASC_SLOT(x, in, 1).i : b->len / es;
  return tbuf_view(x, in, b, 0, len, "TBuf.get");
}

AscStatus sim_tbuf_get_with_offset(AscExec *x, const AscInstr *in) {
  AscSimTBuf *b = tbuf_arg(x, in, 0, ASC_SIM_TBUF);
  if (!b)
    return ASC_ERR_KERNEL;
  return tbuf_view(x, in, b, ASC_SLOT(x, in, 2).i, ASC_SLOT(x, in, 1).i,
                   "TBuf.get_with_offset");
}

/* TBuf.enque / free_tensor do nothing (the devkit's TBuf has no queue). */
AscStatus sim_tbuf_nop(AscExec *x, const AscInstr *in) {
  return tbuf_arg(x, in, 0, ASC_SIM_TBUF) ? ASC_OK : ASC_ERR_KERNEL;
}

/* ---- the buffer of a tensor ----------------------------------------------
 */

int32_t *sim_buffer_tag(AscBlockState *b, int64_t addr) {
  int32_t *best = NULL;
  int64_t seq = -1;
  for (AscSimQueue *q = b->queues; q; q = q->next)
    if (q->num && q->init_seq > seq && addr >= q->base &&
        addr - q->base < (int64_t)q->num * q->len) {
      best = &q->tag[(addr - q->base) / q->len];
      seq = q->init_seq;
    }
  for (AscSimTBuf *t = b->tbufs; t; t = t->next) {
    if (t->kind == ASC_SIM_TBUF && t->base >= 0 && t->init_seq > seq &&
        addr >= t->base && addr - t->base < t->len) {
      best = &t->tag;
      seq = t->init_seq;
    }
  }
  return best;
}
