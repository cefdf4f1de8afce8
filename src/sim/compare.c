/* The vector unit's compare instructions, AscendC::Compare and Compares in
 * their count form. dst is a bit mask: bit i % 8 of byte i / 8 is element
 * i's result (1 when the comparison holds). The instruction runs whole
 * repeats of 256 bytes of sources: count * sizeof(T) / 256 of them, each
 * writing 256 / sizeof(T) bits; the elements after the last whole repeat
 * are not compared and their bits not written. Comparisons are IEEE's
 * (-0 equals +0, a NaN is neither below, above nor equal to anything)
 * except NE, which is LT or GT: 0 when either operand is a NaN, where IEEE
 * gives 1 (the devkit's 附录/Memory矢量计算接口边界值汇总.md, tables 30 and
 * 31, whose notes give this as the hardware's result for half and float,
 * Compare and Compares alike). */
#include "compare.h"

#include <string.h>

#include "cmpsel.h"
#include "sim.h"

int asc_cmp_src_supported(AscDType src, int64_t mode) {
  if (mode < ASC_CMPMODE_LT || mode > ASC_CMPMODE_NE)
    return 0;
  if (src == ASC_DT_FLOAT16 || src == ASC_DT_FLOAT32)
    return 1;
  return src == ASC_DT_INT32 && mode == ASC_CMPMODE_EQ;
}

int asc_cmp_dst_supported(AscDType dst, int scalar) {
  return dst == ASC_DT_UINT8 || (!scalar && dst == ASC_DT_INT8);
}

static double load_f(AscDType dt, const uint8_t *p, int64_t i) {
  if (dt == ASC_DT_FLOAT16) {
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    return asc_f16_to_f32(h);
  }
  float f;
  memcpy(&f, p + 4 * i, 4);
  return f;
}

static int cmp_f(int mode, double a, double b) {
  switch (mode) {
  case ASC_CMPMODE_LT:
    return a < b;
  case ASC_CMPMODE_GT:
    return a > b;
  case ASC_CMPMODE_EQ:
    return a == b;
  case ASC_CMPMODE_LE:
    return a <= b;
  case ASC_CMPMODE_GE:
    return a >= b;
  default: /* NE: NaN gives 0 (tables 30 and 31) */
    return a < b || a > b;
  }
}

static int cmp_i(int mode, int64_t a, int64_t b) {
  switch (mode) {
  case ASC_CMPMODE_LT:
    return a < b;
  case ASC_CMPMODE_GT:
    return a > b;
  case ASC_CMPMODE_EQ:
    return a == b;
  case ASC_CMPMODE_LE:
    return a <= b;
  case ASC_CMPMODE_GE:
    return a >= b;
  default:
    return a != b;
  }
}

static int64_t load_i32(const uint8_t *p, int64_t i) {
  int32_t v;
  memcpy(&v, p + 4 * i, 4);
  return v;
}

/* in->imm: 0 Compare (operand 2 a tensor), 1 Compares (a scalar);
 * in->imm2: the CMPMODE. Unlike the other count forms (sim_vec_work), the
 * devkit's level-2 Compare / CompareScalar on the Ascend910B (dav_c220
 * kernel_operator_vec_cmp_impl.h: CompareCompute, CompareScalarCompute) run
 * vcmpv / vcmpvs over whole repeats in normal mode without SetMaskCount or
 * ResetMask, so the mask register is left as it was. */
AscStatus sim_vec_compare(AscExec *x, const AscInstr *in) {
  int scalar = in->imm == 1;
  int mode = (int)in->imm2;
  int64_t count = ASC_SLOT(x, in, 3).i;
  const AscTensorRef *dt = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *st = dt ? sim_tensor_arg(x, in, 1, "src0") : NULL;
  if (!st)
    return ASC_ERR_KERNEL;
  AscDType sdt = (AscDType)st->dtype;
  if (count < 0)
    return sim_fail(x, in, "negative element count %lld", (long long)count);
  if (!asc_cmp_src_supported(sdt, mode) ||
      !asc_cmp_dst_supported((AscDType)dt->dtype, scalar))
    return sim_fail(x, in, "unsupported element types or mode");
  int64_t esize = (int64_t)asc_dtype_size(sdt);
  int64_t per_repeat = 256 / esize;
  int64_t n = count / per_repeat * per_repeat; /* whole repeats only */
  uint8_t *d = sim_vec_operand(x, in, 0, n / 8, 1, "dst");
  uint8_t *a = d ? sim_vec_operand(x, in, 1, n, 0, "src0") : NULL;
  if (!a)
    return ASC_ERR_KERNEL;
  const uint8_t *b = NULL;
  double bf = 0;
  int64_t bi = 0;
  if (scalar) {
    AscSlot v = ASC_SLOT(x, in, 2);
    AscDType vt = in->src->operands[2]->type->dtype;
    if (sdt == ASC_DT_INT32) {
      bi = asc_dtype_is_float(vt) ? asc_float_to_int64(v.f) : v.i;
      bi = (int32_t)bi;
    } else {
      float f = asc_dtype_is_float(vt) ? (float)v.f : (float)v.i;
      bf = sdt == ASC_DT_FLOAT16 ? asc_f16_to_f32(asc_f32_to_f16(f)) : f;
    }
  } else {
    b = sim_vec_operand(x, in, 2, n, 0, "src1");
    if (!b)
      return ASC_ERR_KERNEL;
  }
  for (int64_t byte = 0; byte < n / 8; byte++) {
    uint8_t bits = 0;
    for (int k = 0; k < 8; k++) {
      int64_t i = byte * 8 + k;
      int r;
      if (sdt == ASC_DT_INT32)
        r = cmp_i(mode, load_i32(a, i), b ? load_i32(b, i) : bi);
      else
        r = cmp_f(mode, load_f(sdt, a, i), b ? load_f(sdt, b, i) : bf);
      bits |= (uint8_t)(r << k);
    }
    d[byte] = bits;
  }
  x->b->ev.elems = n;
  x->b->ev.bytes = n / 8;
  return ASC_OK;
}

/* ---- level-0 forms ---------------------------------------------------------
 * Compare / Compares with mask, repeat_times and repeat params (vcmpv,
 * vcmpvs): on the Ascend910B the devkit passes neither the mask nor
 * isSetMask on (Compare.md: a reserved parameter on this core), so every
 * element of each repeat is compared and the mask register is left as it
 * was. Source block b of repeat r is at (r * rep + b * blk) * 32 bytes;
 * repeat r's 256 / sizeof(T) bits go to dst's bytes from r * (256 /
 * sizeof(T) / 8): the devkit's count form runs up to 252 repeats with the
 * default strides and expects them there, so the dst strides do not place
 * them (an inference: docs/semantics.md).
 * operands: dst, src0, src1 | scalar, mask0, mask1, repeat_times, params;
 * in->imm 0 Compare, 1 Compares; in->imm2 the CMPMODE. */
AscStatus sim_vec_compare_l0(AscExec *x, const AscInstr *in) {
  int scalar = in->imm == 1;
  int mode = (int)in->imm2;
  const AscTensorRef *dt = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *st = dt ? sim_tensor_arg(x, in, 1, "src0") : NULL;
  if (!st)
    return ASC_ERR_KERNEL;
  AscDType sdt = (AscDType)st->dtype;
  if (!asc_cmp_src_supported(sdt, mode) ||
      !asc_cmp_dst_supported((AscDType)dt->dtype, scalar))
    return sim_fail(x, in, "unsupported element types or mode");
  int64_t repeats = ASC_SLOT(x, in, 5).i;
  if (repeats < 0 || repeats > 255)
    return sim_fail(x, in, "repeat_times %lld is out of range [0, 255]",
                    (long long)repeats);
  int64_t es = (int64_t)asc_dtype_size(sdt), per_repeat = CS_REPEAT / es;
  /* the params' fields: Binary dst, src0, src1 block strides then repeat
   * strides; Unary dst, src block strides then repeat strides */
  int n = scalar ? 2 : 3;
  CsOp a = {NULL, CS_FIELD(x, in, 6, 1), CS_FIELD(x, in, 6, n + 1), es};
  CsOp b = {NULL, scalar ? 0 : CS_FIELD(x, in, 6, 2),
            scalar ? 0 : CS_FIELD(x, in, 6, n + 2), es};
  /* BinaryRepeatParams' strides are uint8, UnaryRepeatParams' block
   * strides uint16 */
  int64_t blk_max = scalar ? 65535 : 255;
  if (!cs_stride_ok(x, in, a.blk, blk_max, "src0 block stride") ||
      !cs_stride_ok(x, in, a.rep, 255, "src0 repeat stride") ||
      !cs_stride_ok(x, in, b.blk, blk_max, "src1 block stride") ||
      !cs_stride_ok(x, in, b.rep, 255, "src1 repeat stride"))
    return ASC_ERR_KERNEL;
  if (repeats == 0) {
    x->b->ev.elems = 0;
    x->b->ev.bytes = 0;
    return ASC_OK; /* a NOP */
  }
  int64_t out = per_repeat / 8;
  uint8_t *d = cs_span(x, in, 0, "dst", 0, repeats * out, 1, 32, 1);
  a.base = d ? cs_span(x, in, 1, "src0", 0,
                       cs_off(&a, repeats - 1, per_repeat - 1) + es, 0, 32,
                       a.blk == 1 && a.rep == 8)
             : NULL;
  if (!a.base)
    return ASC_ERR_KERNEL;
  double bf = 0;
  int64_t bi = 0;
  if (scalar) {
    AscSlot v = ASC_SLOT(x, in, 2);
    AscDType vt = in->src->operands[2]->type->dtype;
    if (sdt == ASC_DT_INT32) {
      bi = (int32_t)(asc_dtype_is_float(vt) ? asc_float_to_int64(v.f) : v.i);
    } else {
      float f = asc_dtype_is_float(vt) ? (float)v.f : (float)v.i;
      bf = sdt == ASC_DT_FLOAT16 ? asc_f16_to_f32(asc_f32_to_f16(f)) : f;
    }
  } else {
    b.base = cs_span(x, in, 2, "src1", 0,
                     cs_off(&b, repeats - 1, per_repeat - 1) + es, 0, 32,
                     b.blk == 1 && b.rep == 8);
    if (!b.base)
      return ASC_ERR_KERNEL;
  }
  uint8_t bits[CS_REPEAT / 16];
  for (int64_t r = 0; r < repeats; r++) {
    memset(bits, 0, sizeof bits);
    for (int64_t i = 0; i < per_repeat; i++) {
      const uint8_t *pa = a.base + cs_off(&a, r, i);
      const uint8_t *pb = scalar ? NULL : b.base + cs_off(&b, r, i);
      int v;
      if (sdt == ASC_DT_INT32)
        v = cmp_i(mode, load_i32(pa, 0), pb ? load_i32(pb, 0) : bi);
      else
        v = cmp_f(mode, load_f(sdt, pa, 0), pb ? load_f(sdt, pb, 0) : bf);
      bits[i / 8] |= (uint8_t)(v << (i % 8));
    }
    memcpy(d + r * out, bits, (size_t)out);
  }
  x->b->ev.elems = repeats * per_repeat;
  x->b->ev.bytes = repeats * out;
  return ASC_OK;
}

/* Compare(src0, src1, cmp_mode, mask, repeat_params): one repeat (vcmp)
 * under the mask, which it sets as isSetMask says; the results go to the
 * CmpMask register, bit i for element i. Bits of disabled elements, and
 * for float the bits past the 64 elements, are 0 (the devkit does not
 * say; docs/semantics.md). Operands src0, src1, mask0, mask1, params. */
AscStatus sim_vec_compare_reg(AscExec *x, const AscInstr *in) {
  int mode = (int)in->imm2;
  const AscTensorRef *st = sim_tensor_arg(x, in, 0, "src0");
  if (!st)
    return ASC_ERR_KERNEL;
  AscDType sdt = (AscDType)st->dtype;
  if (sdt != ASC_DT_FLOAT16 && sdt != ASC_DT_FLOAT32)
    return sim_fail(x, in, "unsupported element type");
  int64_t es = (int64_t)asc_dtype_size(sdt), per_repeat = CS_REPEAT / es;
  int bit_mode = (int)asc_op_attr_int(in->src, "mask_mode", 0) & 1;
  int set_mask = (int)asc_op_attr_int(in->src, "is_set_mask", 1) != 0;
  uint64_t lo, hi;
  if (!sim_l0_mask(x, in, per_repeat, bit_mode, set_mask,
                   (uint64_t)ASC_SLOT(x, in, 2).i,
                   (uint64_t)ASC_SLOT(x, in, 3).i, &lo, &hi))
    return ASC_ERR_KERNEL;
  int64_t first, last;
  if (!cs_mask_range(lo, hi, per_repeat, &first, &last)) {
    x->b->ev.elems = 0;
    x->b->ev.bytes = 0;
    return ASC_OK; /* a NOP */
  }
  CsOp a = {NULL, CS_FIELD(x, in, 4, 1), CS_FIELD(x, in, 4, 4), es};
  CsOp b = {NULL, CS_FIELD(x, in, 4, 2), CS_FIELD(x, in, 4, 5), es};
  if (!cs_stride_ok(x, in, a.blk, 255, "src0 block stride") ||
      !cs_stride_ok(x, in, b.blk, 255, "src1 block stride"))
    return ASC_ERR_KERNEL;
  a.base = cs_span(x, in, 0, "src0", cs_off(&a, 0, first),
                   cs_off(&a, 0, last) + es, 0, 32, a.blk == 1);
  b.base = a.base ? cs_span(x, in, 1, "src1", cs_off(&b, 0, first),
                            cs_off(&b, 0, last) + es, 0, 32, b.blk == 1)
                  : NULL;
  if (!b.base)
    return ASC_ERR_KERNEL;
  uint8_t bits[16] = {0};
  for (int64_t i = first; i <= last; i++)
    if (cs_bit(lo, hi, i) &&
        cmp_f(mode, load_f(sdt, a.base + cs_off(&a, 0, i), 0),
              load_f(sdt, b.base + cs_off(&b, 0, i), 0)))
      bits[i / 8] |= (uint8_t)(1u << (i % 8));
  memcpy(x->b->regs.cmp_mask, bits, 16);
  x->b->ev.elems = per_repeat;
  x->b->ev.bytes = CS_REPEAT;
  return ASC_OK;
}
