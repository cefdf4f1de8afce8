/* The DMA store atomics: SetAtomicAdd / SetAtomicMax / SetAtomicMin /
 * SetAtomicType / SetAtomicNone, SetStoreAtomicConfig /
 * GetStoreAtomicConfig, and the combining GM write every DMA into GM
 * (DataCopy, DataCopyPad UB -> GM) goes through.
 *
 * Facts (devkit dav_c220 kernel_operator_set_atomic_impl.h and
 * kernel_operator_common_impl.h): the AI Core keeps a store-atomic
 * configuration of a type (AtomicDtype: 0 none, 1 f32, 2 f16, 3 s16, 4 s32,
 * 5 s8, 6 bf16; bits 0-2 of the register) and an operation (bits 3-4);
 * SetAtomicAdd<T> sets the operation and then the type of T, SetAtomicType
 * only the type, SetAtomicNone the type none. A DMA write into GM with a
 * type set combines each element of the atomic type with the one in
 * memory (sum, max or min) and writes the result. The operation encodings
 * 1 (max) and 2 (min) are the model's: the devkit names only ATOMIC_SUM = 0.
 *
 * The read-combine-write of a whole DMA write is done under one
 * process-wide lock, so each DMA write is atomic with respect to every
 * other block's. Float addition is not associative, so a float sum depends
 * on the order of the writes: to keep results independent of host thread
 * scheduling, a launch of a kernel with store atomics runs its blocks one
 * after another in block order (asc_kernel_uses_store_atomics, launch.c),
 * and the sum is then taken in block order and, within a block, in program
 * order. The exception is a kernel that also synchronises its blocks
 * (sync_all, ...), whose blocks must run at once: there the order of its
 * float atomic sums follows the threads. Each addition rounds to the
 * atomic type (round to nearest even for f16 / bf16, as an f32 add). */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "sim.h"

static pthread_mutex_t atomic_lock = PTHREAD_MUTEX_INITIALIZER;

enum { OP_SUM = 0, OP_MAX = 1, OP_MIN = 2 };

/* The AtomicDtype value of a dtype, 0 when it has none. */
static int atomic_type_of(AscDType dt) {
  switch (dt) {
  case ASC_DT_FLOAT32:
    return 1;
  case ASC_DT_FLOAT16:
    return 2;
  case ASC_DT_INT16:
    return 3;
  case ASC_DT_INT32:
    return 4;
  case ASC_DT_INT8:
    return 5;
  case ASC_DT_BFLOAT16:
    return 6;
  default:
    return 0;
  }
}

static const AscDType type_dtypes[7] = {
    ASC_DT_NONE,  ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_DT_INT16,
    ASC_DT_INT32, ASC_DT_INT8,    ASC_DT_BFLOAT16};

int asc_atomic_dtype_supported(AscDType dt) { return atomic_type_of(dt) != 0; }

int asc_kernel_uses_store_atomics(const AscKernel *k) {
  for (int f = 0; f < k->n_funcs; f++)
    for (int i = 0; i < k->funcs[f].n_code; i++)
      switch (k->funcs[f].code[i].op) {
      case ASC_OP_SET_ATOMIC_ADD:
      case ASC_OP_SET_ATOMIC_MAX:
      case ASC_OP_SET_ATOMIC_MIN:
      case ASC_OP_SET_ATOMIC_TYPE:
      case ASC_OP_SET_STORE_ATOMIC_CONFIG:
        return 1;
      default:
        break;
      }
  return 0;
}

static AscDType template_dtype(const AscInstr *in) {
  const AscAttr *a = asc_op_attr(in->src, "dtype");
  if (!a || a->kind != ASC_ATTR_TYPES || a->n_types != 1)
    return ASC_DT_NONE;
  return a->types[0]->dtype;
}

/* sub: 0 add, 1 max, 2 min (operation and type), 3 type only, 4 none. */
AscStatus sim_set_atomic(AscExec *x, const AscInstr *in) {
  if (in->imm == 4) {
    x->b->regs.atomic_type = 0;
    return ASC_OK;
  }
  AscDType dt = template_dtype(in);
  int t = atomic_type_of(dt);
  if (!t) /* the lowering rejects these; IR text might not */
    return sim_fail(x, in, "store atomics do not support %s",
                    asc_dtype_name(dt));
  if (in->imm < 3)
    x->b->regs.atomic_op = (int)in->imm;
  x->b->regs.atomic_type = t;
  return ASC_OK;
}

AscStatus sim_set_store_atomic_config(AscExec *x, const AscInstr *in) {
  int64_t t = asc_op_attr_int(in->src, "atomic_type", 0);
  int64_t op = asc_op_attr_int(in->src, "atomic_op", 0);
  if (t < 0 || t > 6 || op < 0 || op > 3)
    return sim_fail(x, in, "SetStoreAtomicConfig: type %lld, op %lld",
                    (long long)t, (long long)op);
  x->b->regs.atomic_type = (int)t;
  x->b->regs.atomic_op = (int)op;
  return ASC_OK;
}

/* Results: the type (bits 0-2) and the operation (bits 3-4); the second
 * result's slot is imm3 (lower.c). */
AscStatus sim_get_store_atomic_config(AscExec *x, const AscInstr *in) {
  ASC_DST(x, in).i = x->b->regs.atomic_type;
  x->regs[in->imm3].i = x->b->regs.atomic_op;
  return ASC_OK;
}

void sim_gm_mark_atomic(AscExec *x, int n_before) {
  if (!x->b->regs.atomic_type)
    return;
  for (int i = n_before; i < x->b->ev.n_acc; i++)
    if (x->b->ev.acc[i].space == ASC_SPACE_GM && x->b->ev.acc[i].write)
      x->b->ev.acc[i].atomic = 1;
}

static double combine_f(int op, double a, double b) {
  if (op == OP_SUM)
    return a + b;
  if (isnan(a) || isnan(b))
    return NAN;
  return op == OP_MAX ? (a > b ? a : b) : (a < b ? a : b);
}

static int64_t combine_i(int op, int64_t a, int64_t b) {
  if (op == OP_SUM)
    return a + b;
  return op == OP_MAX ? (a > b ? a : b) : (a < b ? a : b);
}

/* Element i of the atomic type dt: mem = mem OP src. Integer sums wrap at
 * the type's width (the model's choice: the devkit does not say). */
static void combine(AscDType dt, int op, uint8_t *mem, const uint8_t *src) {
  switch (dt) {
  case ASC_DT_FLOAT32: {
    float a, b;
    memcpy(&a, mem, 4);
    memcpy(&b, src, 4);
    float r = op == OP_SUM ? a + b : (float)combine_f(op, a, b);
    memcpy(mem, &r, 4);
    return;
  }
  case ASC_DT_FLOAT16:
  case ASC_DT_BFLOAT16: {
    uint16_t ha, hb, hr;
    memcpy(&ha, mem, 2);
    memcpy(&hb, src, 2);
    int h = dt == ASC_DT_FLOAT16;
    float a = h ? asc_f16_to_f32(ha) : asc_bf16_to_f32(ha);
    float b = h ? asc_f16_to_f32(hb) : asc_bf16_to_f32(hb);
    float r = op == OP_SUM ? a + b : (float)combine_f(op, a, b);
    hr = h ? asc_f32_to_f16(r) : asc_f32_to_bf16(r);
    memcpy(mem, &hr, 2);
    return;
  }
  default: {
    int64_t a = asc_load_i(dt, mem, 0), b = asc_load_i(dt, src, 0);
    int64_t r = asc_int_normalize(dt, combine_i(op, a, b));
    size_t es = asc_dtype_size(dt);
    if (dt == ASC_DT_INT8) {
      int8_t v = (int8_t)r;
      memcpy(mem, &v, es);
    } else if (dt == ASC_DT_INT16) {
      int16_t v = (int16_t)r;
      memcpy(mem, &v, es);
    } else {
      int32_t v = (int32_t)r;
      memcpy(mem, &v, es);
    }
    return;
  }
  }
}

AscStatus sim_gm_store(AscExec *x, const AscInstr *in, uint8_t *dst,
                       const uint8_t *src, int64_t n) {
  if (n <= 0)
    return ASC_OK;
  int t = x->b->regs.atomic_type;
  if (!t) {
    memcpy(dst, src, (size_t)n);
    return ASC_OK;
  }
  AscDType dt = type_dtypes[t];
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (n % es)
    return sim_fail(x, in,
                    "an atomic write of %lld bytes: not a whole number of "
                    "%s elements",
                    (long long)n, asc_dtype_name(dt));
  int op = x->b->regs.atomic_op;
  if (op > OP_MIN)
    /* counter family: op 3 can only come from set_store_atomic_config's
     * two-bit field; no devkit API names it (AtomicOp has ATOMIC_SUM only,
     * SetAtomicAdd/Max/Min set 0 to 2, kernel_operator_common_intf.h) */
    return sim_fail(x, in,
                    "store atomic operation %d: the hardware's are 0 (add), "
                    "1 (max) and 2 (min); the devkit defines no other",
                    op);
  pthread_mutex_lock(&atomic_lock);
  for (int64_t i = 0; i < n; i += es)
    combine(dt, op, dst + i, src + i);
  pthread_mutex_unlock(&atomic_lock);
  return ASC_OK;
}
