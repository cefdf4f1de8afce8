/* Lowering: verified ASC-IR → compact bytecode (bytecode.h).
 *
 * Every SSA value of a function gets its own register slot (a parameter
 * struct one per field, side by side); structured
 * control flow becomes jumps; constants are preset slots filled when a frame
 * is entered, so loops do not re-execute them. Element types an op does not
 * support on the target are rejected here, with the op's Python location. */
#include <stdlib.h>
#include <string.h>

#include "../ir/hash.h"
#include "../sim/adv_math.h" /* family: adv math: its rows' subs, types */
#include "../sim/compare.h"
#include "../sim/layout.h"
#include "../sim/quant.h"
#include "../sim/sim.h" /* the vector unit's element types, constants */
#include "bytecode.h"

/* The `sub` column: the sub-operation each row's instructions carry. */
static const int exec_subs[ASC_OP_COUNT] = {
#define ASC_OP(ID, name, cpp, pipe, emit, exec, sub, operands, results, attrs, \
               cost)                                                           \
  [ASC_OP_##ID] = sub,
#include "../ir/ops.def"
#undef ASC_OP
};

int asc_exec_sub(int op) { return exec_subs[op]; }

int asc_slot_width(const AscType *t) {
  const AscStructInfo *si = asc_type_struct_info(t);
  if (si)
    return si->n_slots > 0 ? si->n_slots : 1;
  if (t->kind == ASC_TY_LOCAL_TENSOR || t->kind == ASC_TY_GLOBAL_TENSOR)
    return ASC_TENSOR_SHAPE_SLOT + 1 +
           asc_struct_info(ASC_STRUCT_SHAPE_INFO)->n_slots;
  /* family: listtensor: the decoded state (bytecode.h) */
  if (t->kind == ASC_TY_TENSOR_DESC)
    return ASC_TDESC_SLOTS;
  if (t->kind == ASC_TY_LIST_TENSOR_DESC)
    return ASC_LTDESC_SLOTS;
  return 1;
}

typedef struct Lower {
  AscModule *m;
  AscContext *ctx;
  /* the functions to lower; index = callee id */
  AscOp **funcs;
  int n_funcs, cap_funcs;
  AscPtrMap callee_ids; /* function op → its index in funcs + 1 */
  /* the function being lowered */
  AscInstr *code;
  int n_code, cap_code;
  int n_slots;
  int32_t *const_slots;
  AscSlot *const_values;
  int n_consts, cap_consts;
  /* operand pool, shared; instructions keep offsets until the end */
  int32_t *pool;
  int n_pool, cap_pool;
  int oom;
} Lower;

static int grow(void **p, int *cap, int need, size_t elem) {
  if (need <= *cap)
    return 0;
  int ncap = *cap ? *cap * 2 : 64;
  while (ncap < need)
    ncap *= 2;
  void *np = realloc(*p, (size_t)ncap * elem);
  if (!np)
    return -1;
  *p = np;
  *cap = ncap;
  return 0;
}

static int slot_of(Lower *l, AscValue *v) {
  if (v->id < 0) {
    v->id = l->n_slots;
    l->n_slots += asc_slot_width(v->type);
  }
  return v->id;
}

static AscInstr *emit(Lower *l, int op, const AscOp *src) {
  if (grow((void **)&l->code, &l->cap_code, l->n_code + 1, sizeof(AscInstr))) {
    l->oom = 1;
    static AscInstr dummy;
    return &dummy;
  }
  AscInstr *in = &l->code[l->n_code++];
  memset(in, 0, sizeof *in);
  in->op = (uint16_t)op;
  in->dst = -1;
  in->src = src;
  in->a = (const int32_t *)(intptr_t)l->n_pool; /* offset, fixed up later */
  return in;
}

static void add_arg(Lower *l, AscInstr *in, int slot) {
  if (grow((void **)&l->pool, &l->cap_pool, l->n_pool + 1, sizeof(int32_t))) {
    l->oom = 1;
    return;
  }
  l->pool[l->n_pool++] = slot;
  in->n_args++;
}

/* Copies a value of `width` slots. */
static void emit_mov(Lower *l, int dst, int src, int width, const AscOp *op) {
  if (dst == src)
    return;
  AscInstr *in = emit(l, width > 1 ? ASC_BC_MOVN : ASC_BC_MOV, op);
  add_arg(l, in, src);
  in->dst = dst;
  in->imm = width;
}

/* Copies n values to n slots as if all at once (a yield may swap values). */
static void emit_parallel_copy(Lower *l, AscValue **from, const int *to, int n,
                               const AscOp *op) {
  if (n == 1) {
    emit_mov(l, to[0], slot_of(l, from[0]), asc_slot_width(from[0]->type), op);
    return;
  }
  int tmp = l->n_slots, off = 0;
  for (int i = 0; i < n; i++)
    l->n_slots += asc_slot_width(from[i]->type);
  for (int i = 0; i < n; off += asc_slot_width(from[i++]->type))
    emit_mov(l, tmp + off, slot_of(l, from[i]), asc_slot_width(from[i]->type),
             op);
  off = 0;
  for (int i = 0; i < n; off += asc_slot_width(from[i++]->type))
    emit_mov(l, to[i], tmp + off, asc_slot_width(from[i]->type), op);
}

static AscStatus lower_block(Lower *l, AscBlock *b);

static AscStatus unsupported_dtype(Lower *l, const AscOp *op, AscDType dt) {
  return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                   "%s does not support element type %s on the Ascend910B "
                   "vector unit",
                   asc_op_info(op->id)->api, asc_dtype_name(dt));
}

static AscDType first_tensor_dtype(const AscOp *op) {
  for (int i = 0; i < op->n_operands; i++)
    if (asc_type_is_tensor(op->operands[i]->type))
      return op->operands[i]->type->dtype;
  return ASC_DT_NONE;
}

/* Target checks that need the simulator's knowledge of the vector unit. */
/* family gather: the element types and operand types of the broadcast,
 * gather and transpose rows. T is the data's element type: the dtype
 * attribute of the address forms of TransDataTo5HD, else dst's. */
static AscDType layout_dtype(const AscOp *op) {
  const AscAttr *a = asc_op_attr(op, "dtype");
  if (a && a->kind == ASC_ATTR_TYPES && a->n_types == 1)
    return a->types[0]->dtype;
  return op->operands[0]->type->dtype;
}

static AscStatus layout_check(Lower *l, const AscOp *op) {
  const char *name = asc_op_info(op->id)->api;
  AscDType dt = layout_dtype(op);
  int n_same = op->id == ASC_OP_TRANS_DATA_TO_5HD_LIST ? 32
               : op->id == ASC_OP_TRANS_DATA_TO_5HD ||
                       op->id == ASC_OP_TRANS_DATA_TO_5HD_ADDRS
                   ? 0
                   : 2;
  for (int i = 1; i < n_same; i++)
    if (op->operands[i]->type->dtype != dt)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: dst and src must have one element type, got %s "
                       "and %s",
                       name, asc_dtype_name(dt),
                       asc_dtype_name(op->operands[i]->type->dtype));
  if (op->id == ASC_OP_TRANS_DATA_TO_5HD)
    for (int i = 0; i < 2; i++)
      if (op->operands[i]->type->dtype != ASC_DT_UINT64)
        return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: the address tensors must be uint64, got %s", name,
                         asc_dtype_name(op->operands[i]->type->dtype));
  if (op->id == ASC_OP_TRANSPOSE_EXT &&
      op->operands[2]->type->dtype != ASC_DT_UINT8)
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: shared_tmp_buffer must be a uint8 tensor, got %s",
                     name, asc_dtype_name(op->operands[2]->type->dtype));
  if ((op->id == ASC_OP_GATHERB || op->id == ASC_OP_GATHER ||
       op->id == ASC_OP_GATHER_L0) &&
      op->operands[2]->type->dtype != ASC_DT_UINT32)
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: the offsets must be a uint32 tensor, got %s", name,
                     asc_dtype_name(op->operands[2]->type->dtype));
  if (op->id == ASC_OP_GATHER_MASK) { /* U: uint16 for 2-byte T, else uint32 */
    AscDType u = op->operands[2]->type->dtype;
    AscDType want = asc_dtype_size(dt) == 2 ? ASC_DT_UINT16 : ASC_DT_UINT32;
    if (asc_layout_dtype_supported(op->id, dt) && u != want)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: src1_pattern must be a %s tensor for %s data, "
                       "got %s",
                       name, asc_dtype_name(want), asc_dtype_name(dt),
                       asc_dtype_name(u));
  }
  return asc_layout_dtype_supported(op->id, dt) ? ASC_OK
                                                : unsupported_dtype(l, op, dt);
}

/* family: adv math: the element types of the devkit's math library on the
 * Ascend910B; temp_buffer is a uint8 tensor. */
static AscStatus adv_math_supported(Lower *l, const AscOp *op, int sub,
                                    AscDType dt) {
  const char *name = sim_adv_math_name(sub);
  AscDType src = op->operands[1]->type->dtype;
  int kt = op->id == ASC_OP_ADV_MATH_POWER || op->id == ASC_OP_ADV_MATH_XOR ||
                   op->id == ASC_OP_ADV_MATH_AXPY
               ? 4
               : 3;
  if (!sim_adv_math_dtype_ok(sub, dt, src))
    return asc_error(
        l->ctx, ASC_ERR_COMPILE, op->loc,
        "%s does not support element type %s%s%s on the Ascend910B (%s)", name,
        asc_dtype_name(dt), dt != src ? " with a source of " : "",
        dt != src ? asc_dtype_name(src) : "", sim_adv_math_dtypes(sub));
  if (op->n_operands > kt && op->operands[kt]->type->dtype != ASC_DT_UINT8)
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s: temp_buffer must be a uint8 tensor, got %s", name,
                     asc_dtype_name(op->operands[kt]->type->dtype));
  return ASC_OK;
}

static AscStatus check_supported(Lower *l, const AscOp *op, int sub) {
  AscDType dt = first_tensor_dtype(op);
  if (op->id >= ASC_OP_ADV_MATH_ACOS && op->id <= ASC_OP_ADV_MATH_XOR)
    return adv_math_supported(l, op, sub, dt); /* family: adv math */
  /* the devkit's And / Or take int32 / uint32 in the count form only
   * (as int16 lanes, 逻辑计算/And.md); its level-0 form rejects them */
  if ((op->id == ASC_OP_BITWISE_AND || op->id == ASC_OP_BITWISE_OR) &&
      (dt == ASC_DT_INT32 || dt == ASC_DT_UINT32))
    return ASC_OK;
  if ((op->id == ASC_OP_BITWISE_AND_L0 || op->id == ASC_OP_BITWISE_OR_L0) &&
      (dt == ASC_DT_INT32 || dt == ASC_DT_UINT32))
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s does not support element type %s: the devkit's %s "
                     "takes int16/uint16 there (the count form takes "
                     "int32/uint32 as int16 lanes)",
                     asc_op_info(op->id)->api, asc_dtype_name(dt),
                     asc_op_info(op->id)->cpp);
  switch (op->id) {
  case ASC_OP_ADD:
  case ASC_OP_SUB:
  case ASC_OP_MUL:
  case ASC_OP_DIV:
  case ASC_OP_MAX:
  case ASC_OP_MIN:
  case ASC_OP_ADD_L0:
  case ASC_OP_SUB_L0:
  case ASC_OP_MUL_L0:
  case ASC_OP_DIV_L0:
  case ASC_OP_MAX_L0:
  case ASC_OP_MIN_L0:
  case ASC_OP_ADD_RELU:
  case ASC_OP_SUB_RELU:
  case ASC_OP_BITWISE_AND:
  case ASC_OP_BITWISE_OR:
  case ASC_OP_ADD_RELU_L0:
  case ASC_OP_SUB_RELU_L0:
  case ASC_OP_BITWISE_AND_L0:
  case ASC_OP_BITWISE_OR_L0:
    return asc_vec_binary_supported((AscVecBinOp)sub, dt)
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_ADDS:
  case ASC_OP_MULS:
  case ASC_OP_MAXS:
  case ASC_OP_MINS:
  case ASC_OP_ADDS_L0:
  case ASC_OP_MULS_L0:
  case ASC_OP_MAXS_L0:
  case ASC_OP_MINS_L0:
  case ASC_OP_LEAKY_RELU:
  case ASC_OP_SHIFT_LEFT:
  case ASC_OP_SHIFT_RIGHT:
  case ASC_OP_LEAKY_RELU_L0:
  case ASC_OP_SHIFT_LEFT_L0:
  case ASC_OP_SHIFT_RIGHT_L0:
    return asc_vec_scalar_supported((AscVecScalarOp)sub, dt)
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_REDUCE_MAX:
  case ASC_OP_REDUCE_MIN:
  case ASC_OP_REDUCE_SUM:
    for (int i = 1; i < 3; i++)
      if (op->operands[i]->type->dtype != dt)
        return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: dst, src and shared_tmp_buffer must have one "
                         "element type, got %s and %s",
                         asc_op_info(op->id)->api, asc_dtype_name(dt),
                         asc_dtype_name(op->operands[i]->type->dtype));
    return dt == ASC_DT_FLOAT16 || dt == ASC_DT_FLOAT32
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_RELU:
  case ASC_OP_EXP:
  case ASC_OP_LN:
  case ASC_OP_ABS:
  case ASC_OP_SQRT:
  case ASC_OP_RSQRT:
  case ASC_OP_RECIPROCAL:
  case ASC_OP_RELU_L0:
  case ASC_OP_EXP_L0:
  case ASC_OP_LN_L0:
  case ASC_OP_ABS_L0:
  case ASC_OP_SQRT_L0:
  case ASC_OP_RSQRT_L0:
  case ASC_OP_RECIPROCAL_L0:
  case ASC_OP_BITWISE_NOT:
  case ASC_OP_BITWISE_NOT_L0:
    return asc_vec_unary_supported((AscVecUnOp)sub, dt)
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_FUSED_MUL_ADD:
  case ASC_OP_FUSED_MUL_ADD_RELU:
  case ASC_OP_MUL_ADD_DST:
  case ASC_OP_AXPY:
  case ASC_OP_FUSED_MUL_ADD_L0:
  case ASC_OP_FUSED_MUL_ADD_RELU_L0:
  case ASC_OP_MUL_ADD_DST_L0:
  case ASC_OP_AXPY_L0: {
    AscDType s = op->operands[1]->type->dtype;
    if (asc_type_is_tensor(op->operands[2]->type) &&
        op->operands[2]->type->dtype != s)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: src0 and src1 must have one element type, got "
                       "%s and %s",
                       asc_op_info(op->id)->api, asc_dtype_name(s),
                       asc_dtype_name(op->operands[2]->type->dtype));
    if (asc_vec_ternary_supported((AscVecTernOp)sub, dt, s))
      return ASC_OK;
    if (dt == s)
      return unsupported_dtype(l, op, dt);
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s does not support a %s dst with %s sources on the "
                     "Ascend910B vector unit",
                     asc_op_info(op->id)->api, asc_dtype_name(dt),
                     asc_dtype_name(s));
  }
  case ASC_OP_DUPLICATE:
  case ASC_OP_DUPLICATE_L0:
    return asc_vec_dup_supported(dt) ? ASC_OK : unsupported_dtype(l, op, dt);
  /* compare's count and level-0 forms: a uint8 (Compare: or int8) bit mask
   * of half or float sources (int32: EQ only) */
  case ASC_OP_COMPARE:
  case ASC_OP_COMPARE_SCALAR:
  case ASC_OP_COMPARE_L0:
  case ASC_OP_COMPARE_SCALAR_L0: {
    int scalar =
        op->id == ASC_OP_COMPARE_SCALAR || op->id == ASC_OP_COMPARE_SCALAR_L0;
    AscDType s = op->operands[1]->type->dtype;
    int64_t mode = asc_op_attr_int(op, "cmp_mode", 0);
    if (!scalar && op->operands[2]->type->dtype != s)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: src0 and src1 must have one element type, got "
                       "%s and %s",
                       asc_op_info(op->id)->api, asc_dtype_name(s),
                       asc_dtype_name(op->operands[2]->type->dtype));
    if (!asc_cmp_dst_supported(dt, scalar))
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: dst must be a %s tensor (the bit mask), got %s",
                       asc_op_info(op->id)->api,
                       scalar ? "uint8" : "uint8 or int8", asc_dtype_name(dt));
    if (asc_cmp_src_supported(s, mode))
      return ASC_OK;
    if (asc_cmp_src_supported(s, ASC_CMPMODE_EQ)) /* int32: EQ only */
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s with %s sources supports only CMPMODE.EQ on the "
                       "Ascend910B, got CMPMODE.%s",
                       asc_op_info(op->id)->api, asc_dtype_name(s),
                       asc_enum_value_name(ASC_ENUM_CMPMODE, mode));
    return unsupported_dtype(l, op, s);
  }
  /* sort family: half or float scores (and lists), uint32 indices */
  case ASC_OP_SORT32:
  case ASC_OP_SORT:
  case ASC_OP_MRG_SORT:
  case ASC_OP_MRG_SORT_INFO: {
    if (dt != ASC_DT_FLOAT16 && dt != ASC_DT_FLOAT32)
      return unsupported_dtype(l, op, dt);
    int sort = op->id == ASC_OP_SORT32 || op->id == ASC_OP_SORT;
    for (int i = 1; i < op->n_operands; i++) {
      const AscType *t = op->operands[i]->type;
      AscDType want = sort && i == 2 ? ASC_DT_UINT32 : dt;
      if (asc_type_is_tensor(t) && t->dtype != want)
        return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: %s must be a tensor of %s, got %s",
                         asc_op_info(op->id)->api,
                         asc_op_info(op->id)->operands[i].name,
                         asc_dtype_name(want), asc_dtype_name(t->dtype));
    }
    return ASC_OK;
  }
  /* Select and the reductions half or float, Select's sel_mask an unsigned
   * integer */
  case ASC_OP_SELECT:
  case ASC_OP_SELECT_SCALAR:
  case ASC_OP_SELECT_L0:
  case ASC_OP_SELECT_SCALAR_L0:
  case ASC_OP_SELECT_SCALAR_CMPMASK: {
    AscDType m = op->operands[1]->type->dtype;
    if (m != ASC_DT_UINT8 && m != ASC_DT_UINT16 && m != ASC_DT_UINT32 &&
        m != ASC_DT_UINT64)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: sel_mask must be a uint8, uint16, uint32 or "
                       "uint64 tensor, got %s",
                       asc_op_info(op->id)->api, asc_dtype_name(m));
    for (int i = 2; i < op->n_operands; i++)
      if (asc_type_is_tensor(op->operands[i]->type) &&
          op->operands[i]->type->dtype != dt)
        return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: dst, src0 and src1 must have one element "
                         "type, got %s and %s",
                         asc_op_info(op->id)->api, asc_dtype_name(dt),
                         asc_dtype_name(op->operands[i]->type->dtype));
    return dt == ASC_DT_FLOAT16 || dt == ASC_DT_FLOAT32
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  }
  case ASC_OP_GET_CMP_MASK: /* b8, b16, b32 (SetCmpMask: b64 too) */
    return asc_dtype_size(dt) <= 4 ? ASC_OK : unsupported_dtype(l, op, dt);
  case ASC_OP_COMPARE_CMPMASK:
  case ASC_OP_SELECT_CMPMASK:
  case ASC_OP_WHOLE_REDUCE_MAX:
  case ASC_OP_WHOLE_REDUCE_MIN:
  case ASC_OP_WHOLE_REDUCE_SUM:
  case ASC_OP_BLOCK_REDUCE_MAX:
  case ASC_OP_BLOCK_REDUCE_MIN:
  case ASC_OP_BLOCK_REDUCE_SUM:
  case ASC_OP_PAIR_REDUCE_SUM:
  case ASC_OP_REPEAT_REDUCE_SUM:
  case ASC_OP_REDUCE_MAX_L0:
  case ASC_OP_REDUCE_MIN_L0:
  case ASC_OP_REDUCE_SUM_L0:
    return dt == ASC_DT_FLOAT16 || dt == ASC_DT_FLOAT32
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_CAST:
  case ASC_OP_CAST_L0: {
    AscDType d = op->operands[0]->type->dtype;
    AscDType s = op->operands[1]->type->dtype;
    int64_t mode = asc_op_attr_int(op, "round_mode", 0);
    if (!asc_vec_cast_supported(d, s, (AscRoundMode)mode))
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "asc.cast from %s to %s with RoundMode.%s is not "
                       "supported on the Ascend910B",
                       asc_dtype_name(s), asc_dtype_name(d),
                       asc_enum_value_name(ASC_ENUM_ROUNDMODE, mode));
    return ASC_OK;
  }
  /* ---- family: adv normquant: RmsNorm (half, float), AscendQuant (an int8
   * dst, a half or float src) ---- */
  case ASC_OP_ADV_RMSNORM:
    return dt == ASC_DT_FLOAT16 || dt == ASC_DT_FLOAT32
               ? ASC_OK
               : unsupported_dtype(l, op, dt);
  case ASC_OP_ADV_QUANT:
  case ASC_OP_ADV_QUANT_CHANNEL:
  case ASC_OP_ADV_QUANT_CHANNEL_OFFSET: {
    AscDType s = op->operands[1]->type->dtype;
    if (dt == ASC_DT_INT8 && (s == ASC_DT_FLOAT16 || s == ASC_DT_FLOAT32))
      return ASC_OK;
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s takes an int8 dst and a float16 or float32 src on "
                     "the Ascend910B, got %s and %s",
                     asc_op_info(op->id)->api, asc_dtype_name(dt),
                     asc_dtype_name(s));
  }
  /* ---- quant family: dequantisation, fused casts, bilinear ---- */
  case ASC_OP_CAST_DEQ:
  case ASC_OP_CAST_DEQ_L0: {
    AscDType s = op->operands[1]->type->dtype;
    if (asc_cast_deq_supported(dt, s))
      return ASC_OK;
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s from %s to %s is not supported on the Ascend910B "
                     "(int16 to int8 or uint8, int32 to float16)",
                     asc_op_info(op->id)->api, asc_dtype_name(s),
                     asc_dtype_name(dt));
  }
  case ASC_OP_ADD_DEQ_RELU:
  case ASC_OP_ADD_DEQ_RELU_L0:
  case ASC_OP_MUL_CAST:
  case ASC_OP_ADD_RELU_CAST:
  case ASC_OP_SUB_RELU_CAST:
  case ASC_OP_MUL_CAST_L0:
  case ASC_OP_ADD_RELU_CAST_L0:
  case ASC_OP_SUB_RELU_CAST_L0: {
    AscDType s = op->operands[1]->type->dtype;
    if (op->operands[2]->type->dtype != s)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: src0 and src1 must have one element type, got "
                       "%s and %s",
                       asc_op_info(op->id)->api, asc_dtype_name(s),
                       asc_dtype_name(op->operands[2]->type->dtype));
    if (asc_quant_binary_supported(sub, dt, s))
      return ASC_OK;
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s does not support a %s dst with %s sources on the "
                     "Ascend910B vector unit",
                     asc_op_info(op->id)->api, asc_dtype_name(dt),
                     asc_dtype_name(s));
  }
  case ASC_OP_BILINEAR_INTERPOLATION: {
    static const AscDType want[] = {ASC_DT_FLOAT16, ASC_DT_FLOAT16,
                                    ASC_DT_UINT32, ASC_DT_FLOAT16};
    static const char *const names[] = {"dst", "src0", "src0_offset", "src1"};
    for (int i = 0; i < 4; i++)
      if (op->operands[i]->type->dtype != want[i])
        return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                         "%s: %s must be a %s tensor on the Ascend910B, got %s",
                         asc_op_info(op->id)->api, names[i],
                         asc_dtype_name(want[i]),
                         asc_dtype_name(op->operands[i]->type->dtype));
    if (op->operands[11]->type->dtype != ASC_DT_UINT8)
      return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                       "%s: shared_tmp_buffer must be a uint8 tensor, got %s",
                       asc_op_info(op->id)->api,
                       asc_dtype_name(op->operands[11]->type->dtype));
    return ASC_OK;
  }
  case ASC_OP_SET_DEQ_SCALE_VECTOR:
    return dt == ASC_DT_UINT64
               ? ASC_OK
               : asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                           "%s: vdeq must be a uint64 tensor, "
                           "got %s",
                           asc_op_info(op->id)->api, asc_dtype_name(dt));
  /* family gather: broadcast, gather, transposes (src/sim/layout.h) */
  case ASC_OP_TRANSPOSE:
  case ASC_OP_TRANSPOSE_EXT:
  case ASC_OP_TRANS_DATA_TO_5HD:
  case ASC_OP_TRANS_DATA_TO_5HD_ADDRS:
  case ASC_OP_TRANS_DATA_TO_5HD_LIST:
  case ASC_OP_BRCB:
  case ASC_OP_GATHERB:
  case ASC_OP_GATHER:
  case ASC_OP_GATHER_L0:
  case ASC_OP_GATHER_MASK:
  case ASC_OP_GATHER_MASK_PATTERN:
    return layout_check(l, op);
  /* datamove family: Copy's and the store atomics' element types */
  case ASC_OP_COPY_L0:
    return asc_copy_dtype_supported(dt) ? ASC_OK : unsupported_dtype(l, op, dt);
  case ASC_OP_SET_ATOMIC_ADD:
  case ASC_OP_SET_ATOMIC_MAX:
  case ASC_OP_SET_ATOMIC_MIN:
  case ASC_OP_SET_ATOMIC_TYPE: {
    const AscAttr *a = asc_op_attr(op, "dtype");
    AscDType t = a && a->kind == ASC_ATTR_TYPES && a->n_types == 1
                     ? a->types[0]->dtype
                     : ASC_DT_NONE;
    if (asc_atomic_dtype_supported(t))
      return ASC_OK;
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s does not support element type %s on the Ascend910B "
                     "(int8, int16, int32, float16, bfloat16, float32)",
                     asc_op_info(op->id)->api, asc_dtype_name(t));
  }
  default:
    return ASC_OK;
  }
}

/* The callee id of function `name`, adding it to the functions to lower.
 * Every entry of funcs came from asc_module_find_function, so the function
 * found for a name identifies its entry (a table: a scan of funcs per call
 * site made lowering quadratic in the number of calls). */
static int callee_index(Lower *l, const char *name) {
  AscOp *f = asc_module_find_function(l->m, name);
  intptr_t known = (intptr_t)asc_ptrmap_get(&l->callee_ids, f);
  if (known)
    return (int)known - 1;
  if (grow((void **)&l->funcs, &l->cap_funcs, l->n_funcs + 1,
           sizeof(AscOp *)) ||
      asc_ptrmap_put(&l->callee_ids, f, (void *)(intptr_t)(l->n_funcs + 1))) {
    l->oom = 1;
    return 0;
  }
  l->funcs[l->n_funcs] = f;
  return l->n_funcs++;
}

static void add_const(Lower *l, int slot, AscSlot value) {
  if (grow((void **)&l->const_slots, &l->cap_consts, l->n_consts + 1,
           sizeof(int32_t))) {
    l->oom = 1;
    return;
  }
  int cap = l->cap_consts; /* keep both arrays the same capacity */
  AscSlot *nv = realloc(l->const_values, sizeof(AscSlot) * (size_t)cap);
  if (!nv) {
    l->oom = 1;
    return;
  }
  l->const_values = nv;
  l->const_slots[l->n_consts] = slot;
  l->const_values[l->n_consts++] = value;
}

static AscStatus lower_constant(Lower *l, AscOp *op) {
  AscSlot v;
  if (asc_constant_value(op, &v))
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "arith.constant without a numeric value");
  add_const(l, slot_of(l, &op->results[0]), v);
  return ASC_OK;
}

static int *result_slots(Lower *l, AscOp *op) {
  int *s = malloc(sizeof(int) * (size_t)(op->n_results ? op->n_results : 1));
  if (!s) {
    l->oom = 1;
    return NULL;
  }
  for (int i = 0; i < op->n_results; i++)
    s[i] = slot_of(l, &op->results[i]);
  return s;
}

static AscStatus lower_for(Lower *l, AscOp *op) {
  AscBlock *body = op->regions[0].block;
  int n_iter = op->n_operands - 3;
  /* loop-carried values live in the result slots for the whole loop */
  for (int i = 0; i < n_iter; i++)
    body->args[i + 1].id = slot_of(l, &op->results[i]);
  int iv = slot_of(l, &body->args[0]);
  int ub = l->n_slots++, step = l->n_slots++; /* bounds are evaluated once */
  emit_mov(l, iv, slot_of(l, op->operands[0]), 1, op);
  emit_mov(l, ub, slot_of(l, op->operands[1]), 1, op);
  emit_mov(l, step, slot_of(l, op->operands[2]), 1, op);
  for (int i = 0; i < n_iter; i++)
    emit_mov(l, body->args[i + 1].id, slot_of(l, op->operands[i + 3]),
             asc_slot_width(op->operands[i + 3]->type), op);
  int head = l->n_code;
  AscInstr *test = emit(l, ASC_BC_FOR_TEST, op);
  add_arg(l, test, iv);
  add_arg(l, test, ub);
  add_arg(l, test, step);
  int test_at = l->n_code - 1;
  AscStatus s = lower_block(l, body);
  if (s)
    return s;
  AscOp *y = body->last;
  int *to = result_slots(l, op);
  if (!to)
    return ASC_ERR_INTERNAL;
  if (n_iter)
    emit_parallel_copy(l, y->operands, to, n_iter, y);
  free(to);
  AscInstr *next = emit(l, ASC_BC_FOR_NEXT, op);
  add_arg(l, next, iv);
  add_arg(l, next, step);
  next->imm = head;
  l->code[test_at].imm = l->n_code;
  return ASC_OK;
}

static AscStatus lower_if(Lower *l, AscOp *op) {
  int *to = result_slots(l, op);
  if (!to)
    return ASC_ERR_INTERNAL;
  AscInstr *jf = emit(l, ASC_BC_JMPF, op);
  add_arg(l, jf, slot_of(l, op->operands[0]));
  int jf_at = l->n_code - 1;
  AscStatus s = lower_block(l, op->regions[0].block);
  if (!s && op->n_results)
    emit_parallel_copy(l, op->regions[0].block->last->operands, to,
                       op->n_results, op);
  emit(l, ASC_BC_JMP, op);
  int jmp_at = l->n_code - 1;
  l->code[jf_at].imm = l->n_code;
  if (!s)
    s = lower_block(l, op->regions[1].block);
  if (!s && op->n_results)
    emit_parallel_copy(l, op->regions[1].block->last->operands, to,
                       op->n_results, op);
  l->code[jmp_at].imm = l->n_code;
  free(to);
  return s;
}

static AscStatus lower_while(Lower *l, AscOp *op) {
  AscBlock *before = op->regions[0].block, *after = op->regions[1].block;
  int n = op->n_operands;
  int *before_slots = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *to = result_slots(l, op);
  if (!before_slots || !to) {
    free(before_slots);
    free(to);
    return ASC_ERR_INTERNAL;
  }
  for (int i = 0; i < n; i++)
    before_slots[i] = slot_of(l, &before->args[i]);
  /* the after-region arguments share the result slots */
  for (int i = 0; i < op->n_results; i++)
    after->args[i].id = to[i];
  if (n)
    emit_parallel_copy(l, op->operands, before_slots, n, op);
  int head = l->n_code;
  AscStatus s = lower_block(l, before);
  AscOp *cond = before->last;
  int jf_at = -1;
  if (!s) {
    if (op->n_results)
      emit_parallel_copy(l, cond->operands + 1, to, op->n_results, cond);
    AscInstr *jf = emit(l, ASC_BC_JMPF, cond);
    add_arg(l, jf, slot_of(l, cond->operands[0]));
    jf_at = l->n_code - 1;
    s = lower_block(l, after);
  }
  if (!s) {
    AscOp *y = after->last;
    if (n)
      emit_parallel_copy(l, y->operands, before_slots, n, y);
    AscInstr *j = emit(l, ASC_BC_JMP, op);
    j->imm = head;
    l->code[jf_at].imm = l->n_code;
  }
  free(before_slots);
  free(to);
  return s;
}

static AscStatus lower_generic(Lower *l, AscOp *op) {
  int sub = exec_subs[op->id];
  AscStatus s = check_supported(l, op, sub);
  if (!s)
    s = asc_check_cpp_constants(l->ctx, op);
  if (s)
    return s;
  AscInstr *in = emit(l, op->id, op);
  for (int i = 0; i < op->n_operands; i++)
    add_arg(l, in, slot_of(l, op->operands[i]));
  if (op->n_results)
    in->dst = slot_of(l, &op->results[0]);
  in->imm = sub;
  /* sort family: GetMrgSortResult's results 1..3 are written through its
   * arguments (an instruction has one dst) */
  if (op->id == ASC_OP_GET_MRG_SORT_RESULT)
    for (int i = 1; i < op->n_results; i++)
      add_arg(l, in, slot_of(l, &op->results[i]));
  /* dtype: the result's scalar or element type, else the first tensor's */
  const AscType *rt = op->n_results ? op->results[0].type : NULL;
  AscDType dt = rt ? rt->dtype : first_tensor_dtype(op);
  if (dt == ASC_DT_NONE && op->n_operands)
    dt = op->operands[0]->type->dtype;
  in->dtype = (uint8_t)dt;
  in->dtype2 = (uint8_t)(op->n_operands ? op->operands[0]->type->dtype : 0);
  if (op->id == ASC_OP_CAST || op->id == ASC_OP_CAST_L0)
    in->dtype2 = (uint8_t)op->operands[1]->type->dtype;
  if (rt && rt->position >= 0)
    in->imm2 = rt->position;
  if (rt)
    in->imm3 = rt->depth;
  for (int i = 0; i < op->n_attrs; i++)
    if (op->attrs[i].kind == ASC_ATTR_ENUM)
      in->imm2 = op->attrs[i].i;
  /* a TQueBind's imm2 is its buffers' position (its type's), not its src /
   * dst attributes */
  if (op->id == ASC_OP_TQUE_BIND && rt)
    in->imm2 = rt->position;
  if (asc_op_info(op->id)->emit == ASC_EMIT_LEVEL0) /* bit 1: isSetMask off */
    in->imm2 = asc_op_attr_int(op, "mask_mode", 0) |
               (asc_op_attr_int(op, "is_set_mask", 1) ? 0 : 2);
  if (op->id == ASC_OP_SET_VECTOR_MASK ||
      op->id == ASC_OP_SET_VECTOR_MASK_LEN) { /* dtype: the template's T */
    const AscAttr *a = asc_op_attr(op, "dtype");
    if (a && a->kind == ASC_ATTR_TYPES && a->n_types == 1)
      in->dtype = (uint8_t)a->types[0]->dtype;
  }
  if (op->id == ASC_OP_TRANS_DATA_TO_5HD || /* family gather: T */
      op->id == ASC_OP_TRANS_DATA_TO_5HD_ADDRS)
    in->dtype = (uint8_t)layout_dtype(op);
  if (op->id == ASC_OP_STRUCT_GET || op->id == ASC_OP_STRUCT_SET)
    in->imm =
        asc_struct_field_index(asc_type_struct_info(op->operands[0]->type),
                               asc_op_attr_str(op, "field"));
  /* family: matmul (mmapi): a Matmul's C element type, which the
   * quantisation and IterateNBatch's workspace need */
  if (op->id == ASC_OP_MATMUL_CREATE) {
    const AscAttr *a = asc_op_attr(op, "dtypes");
    if (a && a->kind == ASC_ATTR_TYPES && a->n_types == 4)
      in->dtype2 = (uint8_t)a->types[2]->dtype;
  }
  /* family: matmul (mmlocal): the LayoutMode of A, B and C (bits 0, 4, 8),
   * which IterateBatch's BSNGD / SBNGD addressing needs */
  if (op->id == ASC_OP_MATMUL_CREATE)
    in->imm2 = asc_op_attr_int(op, "a_layout", 0) |
               asc_op_attr_int(op, "b_layout", 0) << 4 |
               asc_op_attr_int(op, "c_layout", 0) << 8;
  if (op->id == ASC_OP_CAST_L0) /* imm2 is the mask mode */
    in->imm3 = asc_op_attr_int(op, "round_mode", 0);
  /* datamove family: GetStoreAtomicConfig's second result */
  if (op->id == ASC_OP_GET_STORE_ATOMIC_CONFIG && op->n_results == 2)
    in->imm3 = slot_of(l, &op->results[1]);
  return ASC_OK;
}

static AscStatus lower_op(Lower *l, AscOp *op) {
  if (asc_op_is_tile(op->id)) /* family: tiles */
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "%s must be lowered: run the lower-tiles pass",
                     asc_op_info(op->id)->name);
  switch (op->id) {
  case ASC_OP_CONSTANT:
    return lower_constant(l, op);
  case ASC_OP_FOR:
    return lower_for(l, op);
  case ASC_OP_IF:
    return lower_if(l, op);
  case ASC_OP_WHILE:
    return lower_while(l, op);
  case ASC_OP_YIELD:
  case ASC_OP_CONDITION:
    return ASC_OK; /* handled by the enclosing op */
  case ASC_OP_RETURN: {
    AscInstr *in = emit(l, ASC_BC_RET, op);
    for (int i = 0; i < op->n_operands; i++)
      add_arg(l, in, slot_of(l, op->operands[i]));
    return ASC_OK;
  }
  case ASC_OP_CALL: {
    int callee = callee_index(l, asc_op_attr_str(op, "callee"));
    AscInstr *in = emit(l, ASC_BC_CALL, op);
    in->imm = callee;
    for (int i = 0; i < op->n_operands; i++)
      add_arg(l, in, slot_of(l, op->operands[i]));
    /* results take consecutive slots so the callee can write them */
    if (op->n_results) {
      in->dst = l->n_slots;
      for (int i = 0; i < op->n_results; i++) {
        op->results[i].id = l->n_slots;
        l->n_slots += asc_slot_width(op->results[i].type);
      }
    }
    return ASC_OK;
  }
  case ASC_OP_FUNC:
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "nested functions are not supported");
  case ASC_OP_LT_AUTO: /* family: ubplan */
    return asc_error(l->ctx, ASC_ERR_COMPILE, op->loc,
                     "asc.local_tensor_auto must be planned: run the plan-ub "
                     "pass");
  default:
    return lower_generic(l, op);
  }
}

static AscStatus lower_block(Lower *l, AscBlock *b) {
  for (AscOp *op = b->first; op; op = op->next) {
    AscStatus s = lower_op(l, op);
    if (s)
      return s;
    if (l->oom)
      return asc_error(l->ctx, ASC_ERR_INTERNAL, op->loc, "out of memory");
  }
  return ASC_OK;
}

static AscStatus lower_function(Lower *l, AscOp *f, AscFunc *out) {
  AscBlock *body = f->regions[0].block;
  l->n_code = 0;
  l->n_slots = 0;
  l->n_consts = 0;
  memset(out, 0, sizeof *out);
  out->name = asc_op_attr_str(f, "sym_name");
  out->n_params = body->n_args;
  const AscAttr *res_types = asc_op_attr(f, "res_types");
  out->n_results = res_types ? res_types->n_types : 0;
  for (int i = 0; i < body->n_args; i++)
    slot_of(l, &body->args[i]); /* params occupy the first slots, in order */
  AscStatus s = lower_block(l, body);
  if (s)
    return s;
  out->code = malloc(sizeof(AscInstr) * (size_t)(l->n_code ? l->n_code : 1));
  out->param_slots = malloc(sizeof(int32_t) * (size_t)(body->n_args + 1));
  out->param_widths = malloc(sizeof(int32_t) * (size_t)(body->n_args + 1));
  out->result_widths = malloc(sizeof(int32_t) * (size_t)(out->n_results + 1));
  out->const_slots = malloc(sizeof(int32_t) * (size_t)(l->n_consts + 1));
  out->const_values = malloc(sizeof(AscSlot) * (size_t)(l->n_consts + 1));
  if (!out->code || !out->param_slots || !out->param_widths ||
      !out->result_widths || !out->const_slots || !out->const_values)
    return asc_error(l->ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
  /* (memcpy from a NULL source is undefined even for 0 bytes) */
  if (l->n_code)
    memcpy(out->code, l->code, sizeof(AscInstr) * (size_t)l->n_code);
  out->n_code = l->n_code;
  for (int i = 0; i < body->n_args; i++) {
    out->param_slots[i] = body->args[i].id;
    out->param_widths[i] = asc_slot_width(body->args[i].type);
  }
  for (int i = 0; i < out->n_results; i++)
    out->result_widths[i] = asc_slot_width(res_types->types[i]);
  if (l->n_consts) {
    memcpy(out->const_slots, l->const_slots,
           sizeof(int32_t) * (size_t)l->n_consts);
    memcpy(out->const_values, l->const_values,
           sizeof(AscSlot) * (size_t)l->n_consts);
  }
  out->n_consts = l->n_consts;
  out->n_slots = l->n_slots;
  return ASC_OK;
}

/* Stack size needed: the deepest chain of frames, calls nested at most
 * ASC_MAX_CALL_DEPTH deep (deeper calls fail before pushing a frame).
 * Computed bottom-up over the depth, one pass over the code per level:
 * following every call path instead is exponential when a function has
 * several call sites of a recursive (or shared) callee. Returns -1 when out
 * of memory. */
static int64_t frames_needed(const AscKernel *k) {
  int n = k->n_funcs;
  int64_t *buf = calloc((size_t)n * 2, sizeof(int64_t));
  if (!buf)
    return -1;
  /* next[f]: frames for f called at depth d + 1 (zero past the limit) */
  int64_t *next = buf, *cur = buf + n;
  for (int d = ASC_MAX_CALL_DEPTH; d >= 0; d--) {
    for (int f = 0; f < n; f++) {
      const AscFunc *fn = &k->funcs[f];
      int64_t deepest = 0;
      for (int i = 0; i < fn->n_code; i++)
        if (fn->code[i].op == ASC_BC_CALL && next[fn->code[i].imm] > deepest)
          deepest = next[fn->code[i].imm];
      cur[f] = fn->n_slots + deepest;
    }
    int64_t *t = next;
    next = cur;
    cur = t;
  }
  int64_t need = next[0];
  free(buf);
  return need;
}

void asc_kernel_free(AscKernel *k) {
  if (!k)
    return;
  for (int i = 0; i < k->n_funcs; i++) {
    free(k->funcs[i].code);
    free(k->funcs[i].param_slots);
    free(k->funcs[i].param_widths);
    free(k->funcs[i].result_widths);
    free(k->funcs[i].const_slots);
    free(k->funcs[i].const_values);
  }
  free(k->funcs);
  free(k->pool);
  free(k->param_types);
  free(k);
}

AscKernel *asc_kernel_compile(AscModule *m, const char *entry) {
  AscContext *ctx = m->ctx;
  AscOp *f = asc_module_find_function(m, entry);
  if (!f) {
    asc_error(ctx, ASC_ERR_COMPILE, (AscLoc){0}, "no function named '%s'",
              entry);
    return NULL;
  }
  if (asc_module_verify(m))
    return NULL;
  AscKernel *k = calloc(1, sizeof *k);
  Lower l;
  memset(&l, 0, sizeof l);
  l.m = m;
  l.ctx = ctx;
  if (!k) {
    asc_error(ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
    return NULL;
  }
  k->module = m;
  callee_index(&l, entry);
  AscStatus s = ASC_OK;
  /* funcs grows while lowering as calls are discovered */
  for (int i = 0; i < l.n_funcs && !s; i++) {
    AscFunc fn;
    s = lower_function(&l, l.funcs[i], &fn);
    AscFunc *nf = realloc(k->funcs, sizeof(AscFunc) * (size_t)(k->n_funcs + 1));
    if (!nf) {
      s = asc_error(ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
      break;
    }
    k->funcs = nf;
    k->funcs[k->n_funcs++] = fn;
  }
  for (int i = 0; i < l.n_funcs; i++)
    asc_block_reset_ids(l.funcs[i]->regions[0].block);
  if (!s) {
    /* fix up operand offsets into pointers now that the pool is final */
    k->pool = l.pool;
    l.pool = NULL;
    for (int i = 0; i < k->n_funcs; i++)
      for (int j = 0; j < k->funcs[i].n_code; j++) {
        AscInstr *in = &k->funcs[i].code[j];
        in->a = k->pool + (intptr_t)in->a;
      }
    AscBlock *body = f->regions[0].block;
    k->n_params = body->n_args;
    k->param_types = malloc(sizeof(AscType *) * (size_t)(body->n_args + 1));
    if (!k->param_types)
      s = asc_error(ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
    else
      for (int i = 0; i < body->n_args; i++)
        k->param_types[i] = body->args[i].type;
  }
  if (!s) {
    k->frame_slots = frames_needed(k);
  }
  free(l.funcs);
  asc_ptrmap_free(&l.callee_ids);
  free(l.code);
  free(l.pool);
  free(l.const_slots);
  free(l.const_values);
  if (s) {
    asc_kernel_free(k);
    return NULL;
  }
  return k;
}

int asc_kernel_num_params(const AscKernel *k) { return k->n_params; }
const AscType *asc_kernel_param_type(const AscKernel *k, int i) {
  return i >= 0 && i < k->n_params ? k->param_types[i] : NULL;
}
