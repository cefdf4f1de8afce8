/* The methods of GlobalTensor and LocalTensor that read or change a
 * tensor's metadata (its address, length, position, user tag), and the
 * debugging output of LocalTensor (print, to_file).
 *
 * Where the metadata lives. A LocalTensor handle (AscTensorRef) is the
 * devkit's TBuffAddr: addr is bufferAddr, the position byte logicPos, len
 * the data length in whole elements. The handle is 24 bytes of plain data
 * that every register slot holds, so nothing is added to it:
 *  - the devkit keeps the length in bytes (dataLen), which SetBufferLen can
 *    make no whole number of elements. The bytes past the last whole
 *    element (0..7) sit in the top 3 bits of the position byte (TPosition
 *    values are below 32; sim_lt_position / sim_lt_tail in sim.h);
 *  - the user tag belongs to the buffer (TBufType.usertag), which every
 *    view of it shares, not to the handle: it lives with the queue or TBuf
 *    (AscSimQueue.tag, AscSimTBuf.tag) and is found from the tensor's
 *    address (sim_buffer_tag), the newest buffer there winning.
 *
 * The set_* methods change their tensor operand's slot in place, as the C++
 * methods change their object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "sim.h"

static int64_t esize(const AscTensorRef *t) {
  return (int64_t)asc_dtype_size((AscDType)t->dtype);
}

static void set_position(AscTensorRef *t, int position, int tail) {
  t->position = (uint8_t)((position & ASC_LT_POSITION_MASK) | (tail << 5));
}

/* The data length in bytes, the devkit's dataLen. */
static int64_t data_len(const AscTensorRef *t) {
  return t->len * esize(t) + sim_lt_tail(t);
}

/* Makes t hold `bytes` bytes: whole elements in len, the rest in the tail. */
static void set_data_len(AscTensorRef *t, int64_t bytes) {
  int64_t es = esize(t);
  t->len = bytes / es;
  set_position(t, sim_lt_position(t), (int)(bytes % es));
}

/* An address moved by off elements of the tensor's type. */
static AscStatus moved(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                       int64_t off, int64_t es, int64_t *out) {
  if (asc_scaled_add(t->addr, off, es, out))
    return sim_fail(x, in,
                    "address offset out of range: %lld elements of %lld "
                    "bytes from byte address %lld overflow a 64-bit address",
                    (long long)off, (long long)es, (long long)t->addr);
  return ASC_OK;
}

/* ---- GlobalTensor ---------------------------------------------------------
 */

AscStatus sim_gt_get_phy_addr(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  if (t->buf < 0)
    return sim_fail(x, in,
                    "GlobalTensor.get_phy_addr before set_global_buffer (the "
                    "tensor has no address)");
  AscTensorRef a = *t;
  AscStatus s = moved(x, in, t, ASC_SLOT(x, in, 1).i, esize(t), &a.addr);
  if (s)
    return s;
  a.len = -1; /* an address: bounded by its kernel argument only */
  ASC_DST(x, in).t = a;
  return ASC_OK;
}

AscStatus sim_gt_get_size(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  /* the size given to set_global_buffer, unchanged by views (0 without
   * one, as in the devkit's CPU debug build) */
  ASC_DST(x, in).i = t->len < 0 ? 0 : t->len;
  return ASC_OK;
}

/* SetL2CacheHint(mode): the tensor's reads and writes bypass the L2 with
 * CACHE_MODE_DISABLE, go through it otherwise; only the timing model reads
 * the mode (src/sim/timing_gm.c). CacheRwMode is not modelled: the devkit
 * on arch 2201 encodes the mode in the tensor's address
 * (impl/basic_api/kernel_tensor_impl.h, SetL2CacheHint). */
AscStatus sim_gt_set_l2_cache_hint(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "tensor"))
    return ASC_ERR_KERNEL;
  ASC_SLOT(x, in, 0).t.l2_bypass =
      asc_op_attr_int(in->src, "mode", ASC_CACHEMODE_CACHE_MODE_NORMAL) ==
      ASC_CACHEMODE_CACHE_MODE_DISABLE;
  return ASC_OK;
}

/* ---- LocalTensor ------------------------------------------------------------
 */

/* LocalTensor<T>() / LocalTensor(dtype): no memory until a TQue of depth 0
 * allocates into it, or set_addr_with_offset points it somewhere. */
AscStatus sim_lt_empty(AscExec *x, const AscInstr *in) {
  AscTensorRef *t = &ASC_DST(x, in).t;
  memset(t, 0, sizeof *t);
  t->buf = -1;
  t->dtype = in->dtype;
  set_position(t, (int)in->imm2, 0);
  return ASC_OK;
}

AscStatus sim_lt_get_length(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).i = data_len(t);
  return ASC_OK;
}

AscStatus sim_lt_get_size(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).i = t->len;
  return ASC_OK;
}

AscStatus sim_lt_get_position(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).i = sim_lt_position(t);
  return ASC_OK;
}

AscStatus sim_lt_get_phy_addr(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  int64_t a = 0;
  AscStatus s = moved(x, in, t, ASC_SLOT(x, in, 1).i, esize(t), &a);
  if (!s)
    ASC_DST(x, in).i = a;
  return s;
}

static int32_t *tag_of(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                       const char *api) {
  int32_t *tag = sim_buffer_tag(x->b, t->addr);
  if (!tag)
    sim_fail(x, in,
             "%s: this LocalTensor (UB address %lld) is not in a TQue or TBuf "
             "buffer; a tensor made at an address has no buffer to hold a "
             "tag (on the NPU its buffer handle is a null pointer)",
             api, (long long)t->addr);
  return tag;
}

AscStatus sim_lt_get_user_tag(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  int32_t *tag = t ? tag_of(x, in, t, "LocalTensor.get_user_tag") : NULL;
  if (!tag)
    return ASC_ERR_KERNEL;
  ASC_DST(x, in).i = *tag;
  return ASC_OK;
}

AscStatus sim_lt_set_user_tag(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  int32_t *tag = t ? tag_of(x, in, t, "LocalTensor.set_user_tag") : NULL;
  if (!tag)
    return ASC_ERR_KERNEL;
  *tag = (int32_t)ASC_SLOT(x, in, 1).i;
  return ASC_OK;
}

AscStatus sim_lt_set_size(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "tensor"))
    return ASC_ERR_KERNEL;
  AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  int64_t n = ASC_SLOT(x, in, 1).i, end;
  /* (the devkit's CPU debug build checks this too) */
  if (n < 0 || asc_scaled_add(t->addr, n, esize(t), &end) ||
      end > x->b->ub_user) {
    char note[768];
    return sim_fail(x, in,
                    "LocalTensor.set_size(%lld): %lld elements of %s from UB "
                    "address %lld end past the UB the kernel may use; %s",
                    (long long)n, (long long)n,
                    asc_dtype_name((AscDType)t->dtype), (long long)t->addr,
                    sim_ub_user_note(x->b, note, sizeof note));
  }
  t->len = n;
  set_position(t, sim_lt_position(t), 0);
  return ASC_OK;
}

AscStatus sim_lt_set_buffer_len(AscExec *x, const AscInstr *in) {
  if (!sim_tensor_arg(x, in, 0, "tensor"))
    return ASC_ERR_KERNEL;
  AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  int64_t n = ASC_SLOT(x, in, 1).i;
  if (n < 0)
    return sim_fail(x, in, "LocalTensor.set_buffer_len: negative length %lld",
                    (long long)n);
  set_data_len(t, n); /* in bytes */
  return ASC_OK;
}

/* SetAddrWithOffset(src, offset): the tensor takes src's address, data
 * length (in bytes, not shortened by the offset), position and buffer,
 * moved on by offset elements of src's type; it keeps its own type. */
AscStatus sim_lt_set_addr_with_offset(AscExec *x, const AscInstr *in) {
  const AscTensorRef *src = sim_tensor_arg(x, in, 1, "src");
  if (!src || !sim_tensor_arg(x, in, 0, "tensor"))
    return ASC_ERR_KERNEL;
  AscTensorRef *t = &ASC_SLOT(x, in, 0).t;
  AscTensorRef r = *src;
  AscStatus s = moved(x, in, src, ASC_SLOT(x, in, 2).i, esize(src), &r.addr);
  if (s)
    return s;
  int64_t bytes = data_len(src);
  r.dtype = t->dtype;
  set_data_len(&r, bytes);
  *t = r;
  return ASC_OK;
}

/* ReinterpretCast<U>(): the same bytes seen as U; the length is the whole
 * elements of T in bytes (the devkit's GetSize() * sizeof(T)). */
AscStatus sim_lt_reinterpret_cast(AscExec *x, const AscInstr *in) {
  const AscTensorRef *src = sim_tensor_arg(x, in, 0, "tensor");
  if (!src)
    return ASC_ERR_KERNEL;
  AscTensorRef r = *src;
  int64_t bytes = src->len * esize(src);
  r.dtype = in->dtype;
  set_position(&r, sim_lt_position(src), 0);
  set_data_len(&r, bytes);
  ASC_DST(x, in).t = r;
  return ASC_OK;
}

/* ---- print, to_file ------------------------------------------------------
 */

typedef struct Text {
  char *s;
  size_t n, cap;
} Text;

static int text_add(Text *t, const char *s, size_t n) {
  if (t->n + n + 1 > t->cap) {
    size_t cap = (t->cap ? t->cap * 2 : 256) + n;
    char *ns = realloc(t->s, cap);
    if (!ns)
      return -1;
    t->s = ns;
    t->cap = cap;
  }
  memcpy(t->s + t->n, s, n);
  t->n += n;
  t->s[t->n] = 0;
  return 0;
}

/* One element as the devkit's Print writes it to a std::ostream: 8-bit
 * types as int32_t, half / bfloat16 through ToFloat(), floats in the
 * stream's default format (printf's %g), integers in decimal. */
static int format_element(AscDType dt, const uint8_t *p, char *buf,
                          size_t size) {
  if (asc_dtype_is_float(dt))
    return snprintf(buf, size, "%g", asc_load_f(dt, p, 0));
  int64_t v = asc_load_i(dt, p, 0);
  if (dt == ASC_DT_UINT64)
    return snprintf(buf, size, "%llu", (unsigned long long)(uint64_t)v);
  return snprintf(buf, size, "%lld", (long long)v);
}

/* Print(dataLen): min(dataLen, GetSize()) elements, one 32-byte block per
 * line, each line `IIII : v v ... v ` with the index of its first element
 * zero-padded to 4 digits. */
AscStatus sim_lt_print(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  /* (dataLen is a uint32_t: a negative runtime value is a huge one, which
   * prints the whole tensor, as in C++) */
  int64_t n = (int64_t)(uint32_t)ASC_SLOT(x, in, 1).i;
  if (n > t->len)
    n = t->len;
  if (n <= 0)
    return ASC_OK;
  uint8_t *p = sim_local_ptr(x, in, t, n, 0, "tensor");
  if (!p)
    return ASC_ERR_KERNEL;
  AscDType dt = (AscDType)t->dtype;
  int64_t es = esize(t), per_line = 32 / es;
  Text out = {0};
  char buf[64];
  int failed = 0;
  for (int64_t i = 0; i < n && !failed; i++) {
    if (i % per_line == 0) {
      int k = snprintf(buf, sizeof buf, "%04lld : ", (long long)i);
      failed |= text_add(&out, buf, (size_t)k);
    }
    int k = format_element(dt, p + i * es, buf, sizeof buf - 1);
    buf[k++] = ' ';
    failed |= text_add(&out, buf, (size_t)k);
    if (i % per_line == per_line - 1 || i == n - 1)
      failed |= text_add(&out, "\n", 1);
  }
  if (failed) {
    free(out.s);
    return sim_fail(x, in, "out of host memory");
  }
  sim_output_text(x->b, out.s, out.n);
  free(out.s);
  return ASC_OK;
}

/* ToFile(fileName): the tensor's GetSize() * sizeof(T) bytes, as they are,
 * into the file (relative to the current directory). */
AscStatus sim_lt_to_file(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "tensor");
  if (!t)
    return ASC_ERR_KERNEL;
  const char *file = asc_op_attr_str(in->src, "file_name");
  if (!file || !file[0])
    return sim_fail(x, in, "LocalTensor.to_file: an empty file name");
  uint8_t *p =
      t->len > 0 ? sim_local_ptr(x, in, t, t->len, 0, "tensor") : x->b->ub;
  if (!p)
    return ASC_ERR_KERNEL;
  sim_output_file(x->b, file, p, (size_t)(t->len * esize(t)));
  return ASC_OK;
}
