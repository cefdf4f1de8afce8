/* The vector unit's select instruction (AscendC::Select) and its CmpMask
 * register (SetCmpMask, GetCmpMask), as the Ascend910B's devkit drives
 * them (impl/basic_api/dav_c220/kernel_operator_vec_cmpsel_impl.h).
 *
 * vsel writes dst[i] = bit ? src0[i] : src1[i], where the bit of element i
 * comes, by SELMODE:
 *   VSEL_CMPMASK_SPR (0): from the CmpMask register, bit i % per_repeat of
 *     it; every repeat reads the same 256 / sizeof(T) bits;
 *   VSEL_TENSOR_SCALAR_MODE (1): from sel_mask, bits consumed one repeat
 *     after the other; src1 is the scalar in the register's first element;
 *   VSEL_TENSOR_TENSOR_MODE (2): from the selection mask at the UB address
 *     the register's low 32 bits hold, consumed one repeat after the other.
 * The count forms and the forms with a mask first set the register as the
 * devkit does (mode 0: sel_mask's first 16 bytes; mode 1: the scalar
 * duplicated; mode 2: sel_mask's address in each 32-bit lane), so it holds
 * that afterwards. The devkit stages modes 1 and 2 through a block of its
 * reserved UB area; the model does not write that area. The selection
 * mask is read as bytes (uint8/16/32/64 alike: bit i % 8 of byte i / 8)
 * and takes no strides. Elements the mask register disables keep dst. */
#include <string.h>

#include "cmpsel.h"

uint8_t *cs_span(AscExec *x, const AscInstr *in, int k, const char *what,
                 int64_t lo, int64_t hi, int write, int64_t align, int dense) {
  const AscTensorRef *t = sim_tensor_arg(x, in, k, what);
  if (!t)
    return NULL;
  if (t->addr % align) {
    sim_fail(x, in, "%s: UB address %lld is not %lld-byte aligned", what,
             (long long)t->addr, (long long)align);
    return NULL;
  }
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  AscTensorRef sub = *t;
  sub.addr = t->addr + lo;
  if (t->len >= 0)
    sub.len = t->len - lo / es < 0 ? 0 : t->len - lo / es;
  uint8_t *p = sim_local_ptr(x, in, &sub, (hi - lo + es - 1) / es, write, what);
  if (!p)
    return NULL;
  if (!dense && x->b->n_observers && x->b->ev.n_acc)
    x->b->ev.acc[x->b->ev.n_acc - 1].bounding = 1;
  return p - lo;
}

int cs_stride_ok(AscExec *x, const AscInstr *in, int64_t v, int64_t max,
                 const char *what) {
  if (v >= 0 && v <= max)
    return 1;
  sim_fail(x, in, "%s %lld is out of range [0, %lld]", what, (long long)v,
           (long long)max);
  return 0;
}

int cs_mask_range(uint64_t lo, uint64_t hi, int64_t n, int64_t *first,
                  int64_t *last) {
  *first = -1;
  *last = -1;
  for (int64_t i = 0; i < n; i++)
    if (cs_bit(lo, hi, i)) {
      if (*first < 0)
        *first = i;
      *last = i;
    }
  return *first >= 0;
}

/* ---- the CmpMask register ------------------------------------------------ */

/* SetCmpMask(src): the register takes src's first 16 bytes (src 16-byte
 * aligned, SetCmpMask(ISASI).md). */
AscStatus sim_set_cmp_mask(AscExec *x, const AscInstr *in) {
  const uint8_t *s = cs_span(x, in, 0, "src", 0, 16, 0, 16, 1);
  if (!s)
    return ASC_ERR_KERNEL;
  memcpy(x->b->regs.cmp_mask, s, 16);
  x->b->ev.elems = 16;
  x->b->ev.bytes = 16;
  return ASC_OK;
}

/* GetCmpMask(dst): dst's first 16 bytes take the register. The devkit
 * wants dst 16-byte aligned and at least 128 bytes (GetCmpMask(ISASI).md);
 * the model writes the register's 16. */
AscStatus sim_get_cmp_mask(AscExec *x, const AscInstr *in) {
  const AscTensorRef *t = sim_tensor_arg(x, in, 0, "dst");
  if (!t)
    return ASC_ERR_KERNEL;
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype);
  if (t->len >= 0 && t->len * es < 128)
    return sim_fail(x, in,
                    "dst holds %lld bytes; GetCmpMask needs at least 128",
                    (long long)(t->len * es));
  uint8_t *d = cs_span(x, in, 0, "dst", 0, 16, 1, 16, 1);
  if (!d)
    return ASC_ERR_KERNEL;
  memcpy(d, x->b->regs.cmp_mask, 16);
  x->b->ev.elems = 16;
  x->b->ev.bytes = 16;
  return ASC_OK;
}

/* ---- vsel ------------------------------------------------------------------
 */

/* Every element of a repeat enabled (the touched bytes are then the
 * operands' whole ranges, for the sanitizer). */
static int mask_full(uint64_t lo, uint64_t hi, int64_t per_repeat) {
  for (int64_t i = 0; i < per_repeat; i++)
    if (!cs_bit(lo, hi, i))
      return 0;
  return 1;
}

typedef struct Sel {
  int mode;    /* SELMODE */
  AscDType dt; /* T */
  int64_t es, per_repeat;
  CsOp dst, src0, src1; /* src1 unused in mode 1 */
  const uint8_t *bits;  /* modes 1 and 2: the selection mask */
  uint8_t scalar[8];    /* mode 1: the register's first element */
  int64_t tail_last;    /* counter mode: the last repeat's last element + 1
                           (0: as the other repeats) */
} Sel;

static int sel_bit(const Sel *s, const uint8_t *reg, int64_t r, int64_t i) {
  if (s->mode == 0)
    return (reg[i / 8] >> (i % 8)) & 1;
  int64_t j = r * s->per_repeat + i;
  return (s->bits[j / 8] >> (j % 8)) & 1;
}

/* Runs `repeats` repeats, the last one's mask (lo_t, hi_t) (counter mode's
 * short last repeat), the others' (lo, hi). */
static void sel_run(AscExec *x, const Sel *s, int64_t repeats, uint64_t lo,
                    uint64_t hi, uint64_t lo_t, uint64_t hi_t) {
  uint8_t reg[16];
  memcpy(reg, x->b->regs.cmp_mask, 16);
  for (int64_t r = 0; r < repeats; r++) {
    uint64_t l = r == repeats - 1 ? lo_t : lo, h = r == repeats - 1 ? hi_t : hi;
    /* the repeat reads its sources before it writes dst */
    uint8_t out[CS_REPEAT];
    for (int64_t i = 0; i < s->per_repeat; i++) {
      if (!cs_bit(l, h, i))
        continue;
      const uint8_t *v = sel_bit(s, reg, r, i)
                             ? s->src0.base + cs_off(&s->src0, r, i)
                         : s->mode == 1 ? s->scalar
                                        : s->src1.base + cs_off(&s->src1, r, i);
      memcpy(out + i * s->es, v, (size_t)s->es);
    }
    for (int64_t i = 0; i < s->per_repeat; i++)
      if (cs_bit(l, h, i))
        memcpy(s->dst.base + cs_off(&s->dst, r, i), out + i * s->es,
               (size_t)s->es);
  }
}

/* The register as the devkit's set-up before vsel leaves it. */
static void sel_set_register(AscExec *x, const Sel *s, const uint8_t *sel,
                             int64_t sel_addr) {
  if (s->mode == 0) {
    memcpy(x->b->regs.cmp_mask, sel, 16);
  } else if (s->mode == 1) {
    for (int64_t k = 0; k < 16; k += s->es)
      memcpy(x->b->regs.cmp_mask + k, s->scalar, (size_t)s->es);
  } else {
    uint32_t a = (uint32_t)sel_addr;
    for (int k = 0; k < 16; k += 4)
      memcpy(x->b->regs.cmp_mask + k, &a, 4);
  }
}

static void scalar_bits(AscExec *x, const AscInstr *in, int k, Sel *s) {
  AscSlot v = ASC_SLOT(x, in, k);
  AscDType vt = in->src->operands[k]->type->dtype;
  AscScalar sc;
  sc.f = asc_dtype_is_float(vt) ? v.f : (double)v.i;
  sc.i = asc_dtype_is_float(vt) ? asc_float_to_int64(v.f) : v.i;
  asc_store_scalar(s->dt, s->scalar, 0, sc);
}

/* Checks dst, src0 and (tensor modes) src1 over `repeats` repeats of
 * elements [first, last]; strides from a BinaryRepeatParams (field order:
 * dst, src0, src1 block strides, then their repeat strides) or, for the
 * count forms, contiguous. */
static int sel_operands(AscExec *x, const AscInstr *in, Sel *s, int kd, int k0,
                        int k1, int kp, int64_t repeats, int64_t first,
                        int64_t last, int full) {
  CsOp *ops[3] = {&s->dst, &s->src0, &s->src1};
  int ks[3] = {kd, k0, k1};
  const char *names[3] = {"dst", "src0", "src1"};
  for (int j = 0; j < 3; j++) {
    if (ks[j] < 0)
      continue;
    ops[j]->es = s->es;
    ops[j]->blk = kp >= 0 ? CS_FIELD(x, in, kp, j) : 1;
    ops[j]->rep = kp >= 0 ? CS_FIELD(x, in, kp, 3 + j) : 8;
    if (!cs_stride_ok(x, in, ops[j]->blk, 255, "block stride") ||
        !cs_stride_ok(x, in, ops[j]->rep, 255, "repeat stride"))
      return 0;
    if (kp >= 0 && j == 0 && ops[j]->blk == 0)
      return sim_fail(x, in,
                      "dst block stride 0 is undefined behaviour on the "
                      "hardware (all 8 blocks of a repeat would write one "
                      "block)"),
             0;
    int dense = full && ops[j]->blk == 1 && ops[j]->rep == 8;
    int64_t lo = cs_off(ops[j], 0, first);
    int64_t hi = cs_off(ops[j], repeats - 1, last) + s->es;
    if (s->tail_last) { /* counter mode: the last repeat is short */
      hi = cs_off(ops[j], repeats - 1, s->tail_last - 1) + s->es;
      if (repeats > 1 && cs_off(ops[j], repeats - 2, last) + s->es > hi)
        hi = cs_off(ops[j], repeats - 2, last) + s->es;
    }
    ops[j]->base = cs_span(x, in, ks[j], names[j], lo, hi, j == 0, 32, dense);
    if (!ops[j]->base)
      return 0;
  }
  return 1;
}

/* The selection mask's bits of `repeats` repeats (modes 1 and 2), at the
 * sel_mask operand ks or (ks < 0, mode 2's register form) the address the
 * register holds. */
static int sel_bits(AscExec *x, const AscInstr *in, Sel *s, int ks,
                    int64_t n_bits) {
  int64_t bytes = (n_bits + 7) / 8;
  if (ks >= 0) {
    s->bits = cs_span(x, in, ks, "sel_mask", 0, bytes, 0, 32, 1);
    return s->bits != NULL;
  }
  uint32_t a;
  memcpy(&a, x->b->regs.cmp_mask, 4);
  AscTensorRef t = {.addr = a, .len = -1, .buf = -1, .dtype = ASC_DT_UINT8};
  if (a % 32)
    return sim_fail(x, in,
                    "VSEL_TENSOR_TENSOR_MODE: the CmpMask register holds UB "
                    "address %u, not 32-byte aligned (set_cmp_mask sets it)",
                    a),
           0;
  s->bits = sim_local_ptr(x, in, &t, bytes, 0, "the selection mask");
  return s->bits != NULL;
}

static int sel_init(AscExec *x, const AscInstr *in, Sel *s, int mode) {
  memset(s, 0, sizeof *s);
  s->mode = mode;
  const AscTensorRef *d = sim_tensor_arg(x, in, 0, "dst");
  if (!d)
    return 0;
  s->dt = (AscDType)d->dtype;
  if (s->dt != ASC_DT_FLOAT16 && s->dt != ASC_DT_FLOAT32)
    return sim_fail(x, in, "unsupported element type"), 0;
  if (mode < 0 || mode > 2)
    return sim_fail(x, in, "SELMODE %d is out of range", mode), 0;
  s->es = (int64_t)asc_dtype_size(s->dt);
  s->per_repeat = CS_REPEAT / s->es;
  return 1;
}

/* Select(dst, sel_mask, src0, src1 | scalar, sel_mode, count): operands
 * dst, sel_mask, src0, src1, count; in->imm 1 for the scalar form. The
 * devkit runs one vsel in counter mode: ceil(count / per_repeat) repeats,
 * the last one short, then ResetMask and SetMaskNorm. */
AscStatus sim_vec_select(AscExec *x, const AscInstr *in) {
  Sel s;
  int scalar = in->imm == 1;
  int mode = (int)in->imm2;
  if (!sel_init(x, in, &s, mode))
    return ASC_ERR_KERNEL;
  if (scalar != (mode == 1))
    return sim_fail(x, in,
                    scalar ? "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE"
                           : "a tensor src1 needs VSEL_CMPMASK_SPR or "
                             "VSEL_TENSOR_TENSOR_MODE");
  int64_t count = ASC_SLOT(x, in, 4).i;
  if (count < 0 || count > 0xffffffffLL)
    return sim_fail(x, in, "count %lld is out of range", (long long)count);
  int64_t repeats = (count + s.per_repeat - 1) / s.per_repeat;
  const AscTensorRef *st = sim_tensor_arg(x, in, 1, "sel_mask");
  if (!st)
    return ASC_ERR_KERNEL;
  if (scalar)
    scalar_bits(x, in, 3, &s);
  if (count == 0) { /* the register is still set up */
    if (mode == 0) {
      const uint8_t *m = cs_span(x, in, 1, "sel_mask", 0, 16, 0, 32, 1);
      if (!m)
        return ASC_ERR_KERNEL;
      sel_set_register(x, &s, m, st->addr);
    } else {
      sel_set_register(x, &s, NULL, st->addr);
    }
    sim_vec_work(x, &ASC_SLOT(x, in, 0).t, 0);
    return ASC_OK;
  }
  const uint8_t *m0 = NULL;
  if (mode == 0) {
    m0 = cs_span(x, in, 1, "sel_mask", 0, 16, 0, 32, 1);
    if (!m0)
      return ASC_ERR_KERNEL;
  } else if (!sel_bits(x, in, &s, 1, count)) {
    return ASC_ERR_KERNEL;
  }
  if (!sel_operands(x, in, &s, 0, 2, scalar ? -1 : 3, -1, 1, 0, count - 1, 1))
    return ASC_ERR_KERNEL;
  sel_set_register(x, &s, m0, st->addr);
  uint64_t lo = UINT64_MAX, hi = s.per_repeat > 64 ? UINT64_MAX : 0;
  if (s.per_repeat < 64)
    lo &= ((uint64_t)1 << s.per_repeat) - 1;
  uint64_t lt = lo, ht = hi;
  int64_t rest = count % s.per_repeat;
  if (rest) /* the short last repeat: a continuous mask of rest elements */
    sim_vec_mask_words(s.per_repeat, (uint64_t)rest, &ht, &lt);
  /* sel_operands sized the operands as one contiguous run */
  s.dst.rep = s.src0.rep = s.src1.rep = s.per_repeat * s.es / CS_BLOCK;
  sel_run(x, &s, repeats, lo, hi, lt, ht);
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, count);
  return ASC_OK;
}

/* counter family: the mask of a level-0 vsel in either mode (operands km,
 * km + 1 the mask when km >= 0). In counter mode the register's count
 * sets the repeats (repeat_times is ignored) and the last repeat is
 * short; the selection mask is then read for the count's bits only. */
static int sel_mask_mode(AscExec *x, const AscInstr *in, Sel *s, int bit_mode,
                         int set_mask, int km, int64_t *repeats,
                         int64_t *n_bits, uint64_t *lo, uint64_t *hi,
                         uint64_t *lt, uint64_t *ht) {
  int counter = x->b->regs.mask_counter;
  if (!sim_l0_mask_counter(x, in, s->per_repeat, bit_mode, set_mask,
                           km >= 0 ? (uint64_t)ASC_SLOT(x, in, km).i : 0,
                           km >= 0 ? (uint64_t)ASC_SLOT(x, in, km + 1).i : 0,
                           repeats, lo, hi, lt, ht))
    return 0;
  *n_bits = *repeats * s->per_repeat;
  if (counter && *repeats > 0) {
    int64_t rest = (int64_t)(x->b->regs.mask_low % (uint64_t)s->per_repeat);
    s->tail_last = rest;
    *n_bits = (int64_t)x->b->regs.mask_low;
  }
  return 1;
}

/* Select's level-0 forms with a mask: operands dst, sel_mask, src0,
 * src1 | scalar, mask0, mask1, repeat_times, repeat_params; in->imm 1 for
 * the scalar form. */
AscStatus sim_vec_select_l0(AscExec *x, const AscInstr *in) {
  Sel s;
  int scalar = in->imm == 1;
  int mode = (int)in->imm2;
  if (!sel_init(x, in, &s, mode))
    return ASC_ERR_KERNEL;
  if (scalar != (mode == 1))
    return sim_fail(x, in,
                    scalar ? "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE"
                           : "a tensor src1 needs VSEL_CMPMASK_SPR or "
                             "VSEL_TENSOR_TENSOR_MODE");
  int bit_mode = (int)asc_op_attr_int(in->src, "mask_mode", 0) & 1;
  int set_mask = (int)asc_op_attr_int(in->src, "is_set_mask", 1) != 0;
  int64_t repeats = ASC_SLOT(x, in, 6).i;
  if (repeats < 0 || repeats > 255)
    return sim_fail(x, in, "repeat_times %lld is out of range [0, 255]",
                    (long long)repeats);
  const AscTensorRef *st = sim_tensor_arg(x, in, 1, "sel_mask");
  if (!st)
    return ASC_ERR_KERNEL;
  if (scalar)
    scalar_bits(x, in, 3, &s);
  const uint8_t *m0 = NULL;
  if (mode == 0) {
    m0 = cs_span(x, in, 1, "sel_mask", 0, 16, 0, 32, 1);
    if (!m0)
      return ASC_ERR_KERNEL;
  }
  sel_set_register(x, &s, m0, st->addr);
  uint64_t lo, hi, lt, ht;
  int64_t n_bits = 0;
  if (!sel_mask_mode(x, in, &s, bit_mode, set_mask, 4, &repeats, &n_bits, &lo,
                     &hi, &lt, &ht))
    return ASC_ERR_KERNEL;
  int64_t first, last;
  if (repeats == 0 || !cs_mask_range(lo, hi, s.per_repeat, &first, &last)) {
    x->b->ev.elems = 0;
    x->b->ev.bytes = 0;
    return ASC_OK; /* a NOP */
  }
  if (mode != 0 && !sel_bits(x, in, &s, 1, n_bits))
    return ASC_ERR_KERNEL;
  if (!sel_operands(x, in, &s, 0, 2, scalar ? -1 : 3, 7, repeats, first, last,
                    mask_full(lo, hi, s.per_repeat)))
    return ASC_ERR_KERNEL;
  sel_run(x, &s, repeats, lo, hi, lt, ht);
  x->b->ev.elems = repeats * s.per_repeat;
  x->b->ev.bytes = repeats * CS_REPEAT;
  return ASC_OK;
}

/* Select's forms without a mask, which use the mask register and the
 * CmpMask register as they are: in->imm 0 is
 * Select<T, selMode>(dst, src0, src1, repeat_times, repeat_params) (mode 0
 * or 2; in->imm2 the mode), in->imm 1 is
 * Select<T, U>(dst, sel_mask, src0, repeat_times, repeat_params) (mode 1,
 * the scalar in the register's first element). */
AscStatus sim_vec_select_reg(AscExec *x, const AscInstr *in) {
  Sel s;
  int scalar = in->imm == 1;
  int mode = scalar ? 1 : (int)in->imm2;
  if (!sel_init(x, in, &s, mode))
    return ASC_ERR_KERNEL;
  if (!scalar && mode == 1)
    return sim_fail(x, in,
                    "Select<T, selMode>(dst, src0, src1, ...) takes "
                    "VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE");
  int64_t repeats = ASC_SLOT(x, in, 3).i;
  if (repeats < 0 || repeats > 255)
    return sim_fail(x, in, "repeat_times %lld is out of range [0, 255]",
                    (long long)repeats);
  if (scalar)
    memcpy(s.scalar, x->b->regs.cmp_mask, (size_t)s.es);
  uint64_t lo, hi, lt, ht;
  int64_t n_bits = 0;
  if (!sel_mask_mode(x, in, &s, 0, 0, -1, &repeats, &n_bits, &lo, &hi, &lt,
                     &ht))
    return ASC_ERR_KERNEL;
  int64_t first, last;
  if (repeats == 0 || !cs_mask_range(lo, hi, s.per_repeat, &first, &last)) {
    x->b->ev.elems = 0;
    x->b->ev.bytes = 0;
    return ASC_OK;
  }
  if (mode != 0 && !sel_bits(x, in, &s, scalar ? 1 : -1, n_bits))
    return ASC_ERR_KERNEL;
  if (!sel_operands(x, in, &s, 0, scalar ? 2 : 1, scalar ? -1 : 2, 4, repeats,
                    first, last, mask_full(lo, hi, s.per_repeat)))
    return ASC_ERR_KERNEL;
  sel_run(x, &s, repeats, lo, hi, lt, ht);
  x->b->ev.elems = repeats * s.per_repeat;
  x->b->ev.bytes = repeats * CS_REPEAT;
  return ASC_OK;
}
