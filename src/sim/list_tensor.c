/* TensorDesc<T> and ListTensorDesc (family: listtensor): the devkit's
 * ListTensorDescImpl / TensorDescImpl (impl/basic_api/dav_c220/
 * kernel_operator_list_tensor_impl.h), reading the list from GM word by
 * word through sim_gm_span, so every read is bounds-checked against its
 * kernel argument and seen by the sanitizer.
 *
 * The layout in GM (uint64 words from the list's address):
 *   [0]            the byte offset of the data pointers from the start
 *   per tensor     dim | index << 32, then dim shape words (dim 0: the
 *                  list has data pointers only, and this descriptor is
 *                  followed by the word 0xffffffff)
 *   data pointers  one per tensor
 * The count is the first descriptor's high word when nonzero, else the
 * last descriptor's index + 1 (the devkit's ListTensorDecode).
 *
 * A data pointer in GM: the simulator's global memory is the kernel's
 * argument buffers, so a pointer word names one of them and a byte offset
 * into it: (argument index + 1) << 40 | offset (asc.TensorList writes
 * these). A word that names no buffer of the launch, or an offset past its
 * end, is a KernelError of the op that reads it: it can never become a
 * host address.
 *
 * The devkit's ASSERTs (a null list, an inconsistent header, an index out
 * of range, GetShape past dim, a null shape address) are KernelErrors here:
 * on the device they read or write memory that is not the list's. */
#include <inttypes.h>
#include <string.h>

#include "checked.h"
#include "sim.h"

enum { PTR_SHIFT = 40 };
#define PTR_OFFSET_MASK ((UINT64_C(1) << PTR_SHIFT) - 1)
#define NO_SIZE UINT64_C(0xffffffff)
/* what the messages of GM accesses call the words read (the op names itself) */
#define LIST_WORD "a word of the list"

/* The list is read word by word: a word's read record joins an earlier
 * read of the same argument it touches or that lies within 64 bytes of it
 * (the words between are the list's too), so that decoding a list of any
 * size makes a few records, not one per word (an event holds
 * ASC_EVENT_MAX_ACCESSES). */
static void merge_word_read(AscEvent *e, int before) {
  if (e->n_acc != before + 1)
    return;
  AscAccess *w = &e->acc[before];
  for (int i = 0; i < before; i++) {
    AscAccess *a = &e->acc[i];
    if (a->space != w->space || a->buf != w->buf || a->write || w->write ||
        a->bounding || a->rows || w->lo > a->hi + 64 || w->hi + 64 < a->lo)
      continue;
    if (w->lo < a->lo)
      a->lo = w->lo;
    if (w->hi > a->hi)
      a->hi = w->hi;
    e->n_acc--;
    return;
  }
}

/* The uint64 word at byte offset `off` from the GM address at *base. */
static AscStatus read_word(AscExec *x, const AscInstr *in,
                           const AscTensorRef *base, int64_t off,
                           const char *what, uint64_t *w) {
  AscTensorRef r = *base;
  SimGmSpan span;
  uint8_t tmp[8] = {0};
  if (asc_add_i64(base->addr, off, &r.addr))
    return sim_fail(x, in, "address overflow reading the list");
  r.dtype = ASC_DT_UINT64;
  r.len = -1;
  int before = x->b->ev.n_acc;
  AscStatus s = sim_gm_span(x, in, &r, 1, 0, what, &span);
  if (s)
    return s;
  sim_gm_mark_scalar(x, before); /* a scalar load, through the data cache */
  merge_word_read(&x->b->ev, before);
  if (span.valid)
    memcpy(tmp + span.skip, span.p, (size_t)span.valid);
  memcpy(w, tmp, sizeof *w);
  return ASC_OK;
}

/* A data pointer word as a GM address of element type dt. */
static AscStatus decode_ptr(AscExec *x, const AscInstr *in, uint64_t w,
                            uint32_t index, AscDType dt, const char *what,
                            AscTensorRef *out) {
  uint64_t arg = w >> PTR_SHIFT;
  uint64_t off = w & PTR_OFFSET_MASK;
  if (w == 0)
    return sim_fail(x, in, "the data pointer of tensor %" PRIu32 " is null",
                    index);
  if (arg == 0 || arg > (uint64_t)x->b->n_args ||
      x->b->args[arg - 1].kind != ASC_ARG_GM ||
      off > (uint64_t)x->b->args[arg - 1].nbytes)
    return sim_fail(x, in,
                    "the data pointer of tensor %" PRIu32 " (0x%" PRIx64
                    ") is not an address in this launch's global memory "
                    "(build the list with asc.TensorList)",
                    index, w);
  memset(out, 0, sizeof *out);
  out->buf = (int32_t)(arg - 1);
  out->addr = (int64_t)off;
  out->len = -1;
  out->dtype = (uint8_t)dt;
  return ASC_OK;
}

/* ---- TensorDesc --------------------------------------------------------- */

AscStatus sim_tensor_desc_create(AscExec *x, const AscInstr *in) {
  AscSlot *d = &ASC_DST(x, in);
  memset(d, 0, sizeof *d * ASC_TDESC_SLOTS);
  d[ASC_TDESC_PTR].t.buf = -1; /* a null data pointer */
  d[ASC_TDESC_PTR].t.len = -1;
  d[ASC_TDESC_PTR].t.dtype = in->dtype;
  return ASC_OK;
}

AscStatus sim_tensor_desc_set_shape_addr(AscExec *x, const AscInstr *in) {
  uint64_t p = (uint64_t)ASC_SLOT(x, in, 1).i;
  if (p == 0)
    return sim_fail(x, in, "a null shape address");
  (&ASC_SLOT(x, in, 0))[ASC_TDESC_SHAPE_ADDR].i = (int64_t)p;
  return ASC_OK;
}

AscStatus sim_tensor_desc_get(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = (&ASC_SLOT(x, in, 0))[in->imm].i;
  return ASC_OK;
}

AscStatus sim_tensor_desc_get_shape(AscExec *x, const AscInstr *in) {
  const AscSlot *d = &ASC_SLOT(x, in, 0);
  uint64_t off = (uint64_t)ASC_SLOT(x, in, 1).i;
  if (off >= (uint64_t)d[ASC_TDESC_DIM].i)
    return sim_fail(x, in,
                    "offset %" PRIu64 " is not below the tensor's dim %" PRId64,
                    off, d[ASC_TDESC_DIM].i);
  ASC_DST(x, in).i = d[ASC_TDESC_SHAPE + off].i;
  return ASC_OK;
}

AscStatus sim_tensor_desc_get_data_ptr(AscExec *x, const AscInstr *in) {
  AscTensorRef t = (&ASC_SLOT(x, in, 0))[ASC_TDESC_PTR].t;
  t.dtype = in->dtype;
  ASC_DST(x, in).t = t;
  return ASC_OK;
}

/* GetDataObj: a GlobalTensor over the data pointer whose size is
 * sizeof(T) times the shape's product (the devkit passes that byte count
 * as SetGlobalBuffer's size, which GetSize then returns). */
AscStatus sim_tensor_desc_get_data_obj(AscExec *x, const AscInstr *in) {
  const AscSlot *d = &ASC_SLOT(x, in, 0);
  int64_t size = (int64_t)asc_dtype_size((AscDType)in->dtype);
  for (int64_t i = 0; i < d[ASC_TDESC_DIM].i; i++)
    if (asc_mul_i64(size, d[ASC_TDESC_SHAPE + i].i, &size) || size < 0)
      return sim_fail(x, in,
                      "the size of the tensor "
                      "overflows");
  AscSlot *g = &ASC_DST(x, in);
  memset(g, 0, sizeof *g * (size_t)(ASC_TENSOR_SHAPE_SLOT + 1));
  g->t = d[ASC_TDESC_PTR].t;
  g->t.dtype = in->dtype;
  g->t.len = g->t.buf < 0 ? -1 : size;
  return ASC_OK;
}

/* ---- ListTensorDesc ----------------------------------------------------- */

static void list_clear(AscSlot *l) {
  memset(l, 0, sizeof *l * ASC_LTDESC_SLOTS);
  l[ASC_LTDESC_BASE].t.buf = -1;
}

/* ListTensorDecode(data, length, shapeSize) into the list value l. */
static AscStatus decode(AscExec *x, const AscInstr *in, AscSlot *l,
                        const AscTensorRef *data, uint64_t length,
                        uint64_t shape_size, const char *what) {
  uint64_t ptr_off, head;
  list_clear(l);
  if (data->buf < 0)
    return sim_fail(x, in, "a null list address");
  AscStatus s = read_word(x, in, data, 0, what, &ptr_off);
  if (!s)
    s = read_word(x, in, data, 8, what, &head);
  if (s)
    return s;
  uint64_t dim = head & 0xffffffffu, first = head >> 32;
  uint64_t words = dim == 0 ? 2 : 1 + dim;
  uint64_t count = first;
  if (ptr_off > (uint64_t)INT64_MAX - 8)
    return sim_fail(x, in, "the data pointers' offset %" PRIu64 " is too large",
                    ptr_off);
  int64_t ptrs = (int64_t)(ptr_off / 8 * 8); /* dataAddr + offset / 8 */
  if (count == 0) { /* the last descriptor's index + 1 */
    uint64_t last;
    s = read_word(x, in, data, ptrs - (int64_t)(words * 8), what, &last);
    if (s)
      return s;
    count = (last >> 32) + 1;
  }
  int consistent;
  if (dim != 0) {
    consistent =
        ptr_off >= 8 && count == (ptr_off - 8) / (words * 8); /* unsigned */
  } else {
    uint64_t marker = 0;
    s = read_word(x, in, data, 16, what, &marker);
    if (s)
      return s;
    consistent = marker == 0xffffffffu && ptr_off == 24;
  }
  if (!consistent)
    return sim_fail(x, in,
                    "the list's header is inconsistent (data pointers at "
                    "byte %" PRIu64 ", dim %" PRIu64 ", %" PRIu64 " tensors)",
                    ptr_off, dim, count);
  if (length != NO_SIZE && shape_size != NO_SIZE &&
      (count != shape_size || length != ptr_off + count * 8))
    return sim_fail(x, in,
                    "the list holds %" PRIu64 " tensors in %" PRIu64
                    " bytes, not shape_size %" PRIu64 " in length %" PRIu64,
                    count, ptr_off + count * 8, shape_size, length);
  l[ASC_LTDESC_BASE].t = *data;
  l[ASC_LTDESC_PTR_OFFSET].i = ptrs;
  l[ASC_LTDESC_DIM].i = (int64_t)dim;
  l[ASC_LTDESC_STRUCT_SIZE].i = (int64_t)words;
  l[ASC_LTDESC_COUNT].i = (int64_t)count;
  l[ASC_LTDESC_DECODED].i = 1;
  return ASC_OK;
}

AscStatus sim_list_tensor_desc_create(AscExec *x, const AscInstr *in) {
  AscSlot *l = &ASC_DST(x, in);
  if (in->imm == 0) {
    list_clear(l);
    return ASC_OK;
  }
  return decode(x, in, l, &ASC_SLOT(x, in, 0).t, (uint64_t)ASC_SLOT(x, in, 1).i,
                (uint64_t)ASC_SLOT(x, in, 2).i, LIST_WORD);
}

AscStatus sim_list_tensor_desc_init(AscExec *x, const AscInstr *in) {
  return decode(x, in, &ASC_SLOT(x, in, 0), &ASC_SLOT(x, in, 1).t,
                (uint64_t)ASC_SLOT(x, in, 2).i, (uint64_t)ASC_SLOT(x, in, 3).i,
                LIST_WORD);
}

static AscStatus check_index(AscExec *x, const AscInstr *in, const AscSlot *l,
                             uint64_t index, const char *what) {
  if (index >= (uint64_t)l[ASC_LTDESC_COUNT].i)
    return sim_fail(x, in,
                    "index %" PRIu64 " is out of range of a list of %" PRId64
                    " tensors%s",
                    index, l[ASC_LTDESC_COUNT].i,
                    l[ASC_LTDESC_DECODED].i ? ""
                                            : " (the ListTensorDesc was "
                                              "never initialised)");
  return ASC_OK;
}

AscStatus sim_list_tensor_desc_get_desc(AscExec *x, const AscInstr *in) {
  static const char what[] = LIST_WORD;
  const AscSlot *l = &ASC_SLOT(x, in, 0);
  AscSlot *d = &ASC_SLOT(x, in, 1);
  uint64_t index = (uint64_t)ASC_SLOT(x, in, 2).i;
  AscStatus s = check_index(x, in, l, index, what);
  if (s)
    return s;
  int64_t dim = l[ASC_LTDESC_DIM].i, words = l[ASC_LTDESC_STRUCT_SIZE].i;
  if (dim == 0)
    return sim_fail(x, in,
                    "the list holds data pointers only (dim 0): read them "
                    "with get_data_ptr");
  if (d[ASC_TDESC_SHAPE_ADDR].i == 0)
    return sim_fail(x, in,
                    "the TensorDesc has no shape address (call "
                    "set_shape_addr first)");
  if (dim > ASC_TDESC_MAX_DIM)
    return sim_fail(x, in,
                    "the tensors have %" PRId64
                    " dimensions; the simulator's TensorDesc holds up to %d",
                    dim, (int)ASC_TDESC_MAX_DIM);
  const AscTensorRef *base = &l[ASC_LTDESC_BASE].t;
  uint64_t w;
  AscTensorRef ptr;
  int64_t off;
  if (asc_scaled_add(l[ASC_LTDESC_PTR_OFFSET].i, (int64_t)index, 8, &off))
    return sim_fail(x, in, "address overflow reading the list");
  s = read_word(x, in, base, off, what, &w);
  if (!s)
    s = decode_ptr(x, in, w, (uint32_t)index,
                   (AscDType)d[ASC_TDESC_PTR].t.dtype, what, &ptr);
  int64_t shape[ASC_TDESC_MAX_DIM];
  /* the descriptor's shape words: after word 0 and its dim | index word */
  int64_t at = 8 + (int64_t)index * words * 8 + 8;
  for (int64_t i = 0; !s && i < dim; i++) {
    s = read_word(x, in, base, at + i * 8, what, &w);
    shape[i] = (int64_t)w;
  }
  if (s)
    return s; /* the desc is left as it was */
  d[ASC_TDESC_DIM].i = dim;
  d[ASC_TDESC_INDEX].i = (int64_t)index;
  d[ASC_TDESC_PTR].t = ptr;
  for (int64_t i = 0; i < dim; i++)
    d[ASC_TDESC_SHAPE + i].i = shape[i];
  return ASC_OK;
}

AscStatus sim_list_tensor_desc_get_data_ptr(AscExec *x, const AscInstr *in) {
  static const char what[] = LIST_WORD;
  const AscSlot *l = &ASC_SLOT(x, in, 0);
  uint64_t index = (uint64_t)ASC_SLOT(x, in, 1).i, w;
  int64_t off = 0;
  AscStatus s = check_index(x, in, l, index, what);
  if (!s && asc_scaled_add(l[ASC_LTDESC_PTR_OFFSET].i, (int64_t)index, 8, &off))
    s = sim_fail(x, in, "address overflow reading the list");
  if (!s)
    s = read_word(x, in, &l[ASC_LTDESC_BASE].t, off, what, &w);
  if (!s)
    s = decode_ptr(x, in, w, (uint32_t)index, (AscDType)in->dtype, what,
                   &ASC_DST(x, in).t);
  return s;
}

AscStatus sim_list_tensor_desc_get_size(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = (&ASC_SLOT(x, in, 0))[ASC_LTDESC_COUNT].i;
  return ASC_OK;
}
