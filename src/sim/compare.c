/* The vector unit's compare instructions, AscendC::Compare and Compares in
 * their count form. dst is a bit mask: bit i % 8 of byte i / 8 is element
 * i's result (1 when the comparison holds). The instruction runs whole
 * repeats of 256 bytes of sources: count * sizeof(T) / 256 of them, each
 * writing 256 / sizeof(T) bits; the elements after the last whole repeat
 * are not compared and their bits not written. Comparisons are IEEE's: a
 * NaN compares unequal to everything (only NE holds), -0 equals +0. */
#include "compare.h"

#include <string.h>

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
  default:
    return !(a == b);
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
 * in->imm2: the CMPMODE. */
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
