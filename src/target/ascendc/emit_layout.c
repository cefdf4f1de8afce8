/* The broadcast, gather and transpose family in Ascend C (family
 * "gather"): the three forms of TransDataTo5HD, whose lists are C arrays
 * declared before the call and whose T the call names:
 *   AscendC::LocalTensor<half> dst_list[16] = {...};  (or uint64_t ...[16])
 *   AscendC::TransDataTo5HD<half>(dst_list, src_list, params);
 * The address-tensor form passes its two uint64 tensors as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitter.h"

/* `TYPE name[16] = {operands from..from+15}`, its name (the emitter owns
 * it, as every fresh name). */
static char *declare_list(Emitter *e, AscOp *op, int from, const char *type,
                          const char *hint) {
  char *name = em_fresh_name(e, hint);
  if (!name)
    return NULL;
  Buf b = {0};
  char tmp[4096];
  em_buf_printf(&b, "%s %s[16] = {", type, name);
  for (int i = 0; i < 16; i++) {
    const AscValue *v = op->operands[from + i];
    const char *s = em_unparen(em_expr(e, v), tmp, sizeof tmp);
    if (op->id == ASC_OP_TRANS_DATA_TO_5HD_ADDRS &&
        v->type->dtype != ASC_DT_UINT64)
      em_buf_printf(&b, "%sstatic_cast<uint64_t>(%s)", i ? ", " : "", s);
    else
      em_buf_printf(&b, "%s%s", i ? ", " : "", s);
  }
  em_buf_printf(&b, "}");
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  em_statement(e, op, b.s);
  free(b.s);
  return name;
}

void emit_trans_data_to_5hd(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *a = asc_op_attr(op, "dtype");
  AscDType t = a && a->kind == ASC_ATTR_TYPES && a->n_types == 1
                   ? a->types[0]->dtype
                   : op->operands[0]->type->dtype;
  const char *tn = asc_dtype_cpp_name(t);
  char tmp[4096], *call = NULL;
  if (op->id == ASC_OP_TRANS_DATA_TO_5HD) {
    char d[4096];
    snprintf(d, sizeof d, "%s",
             em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
    call = em_fmt_str("%s<%s>(%s, %s, %s)", oi->cpp, tn, d,
                      em_unparen(em_expr(e, op->operands[1]), tmp, sizeof tmp),
                      em_expr(e, op->operands[2]));
  } else {
    char ty[96];
    if (op->id == ASC_OP_TRANS_DATA_TO_5HD_ADDRS)
      snprintf(ty, sizeof ty, "uint64_t");
    else
      snprintf(ty, sizeof ty, "AscendC::LocalTensor<%s>", tn);
    char *dl = declare_list(e, op, 0, ty, "dst_list");
    char *sl = dl ? declare_list(e, op, 16, ty, "src_list") : NULL;
    if (sl)
      call = em_fmt_str("%s<%s>(%s, %s, %s)", oi->cpp, tn, dl, sl,
                        em_expr(e, op->operands[32]));
  }
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

/* GatherMask's rsvdCnt is an out parameter: a variable for the result,
 * declared before the call that writes it.
 *   uint64_t rsvd_cnt = 0;
 *   AscendC::GatherMask(dst, src0, src1Pattern, reduceMode, mask, params,
 *                       rsvd_cnt);
 * (the built-in pattern as a uint8_t, which selects that overload). */
void emit_gather_mask(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  char *name = em_declare(e, op, &op->results[0], "rsvd_cnt", "0");
  if (!name) {
    e->failed = 1;
    return;
  }
  Buf b = {0};
  char tmp[4096];
  em_buf_printf(&b, "%s(", oi->cpp);
  for (int i = 0; i < 6; i++) {
    const char *s = em_unparen(em_expr(e, op->operands[i]), tmp, sizeof tmp);
    if (i == 2 && op->id == ASC_OP_GATHER_MASK_PATTERN)
      em_buf_printf(&b, "static_cast<uint8_t>(%s), ", s);
    else if (i == 3 && op->operands[i]->type->dtype != ASC_DT_BOOL)
      em_buf_printf(&b, "static_cast<bool>(%s), ", s);
    else
      em_buf_printf(&b, "%s, ", s);
  }
  em_buf_printf(&b, "%s)", name);
  if (b.failed) {
    e->failed = 1;
  } else {
    em_statement(e, op, b.s);
    em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
  }
  free(b.s);
}
