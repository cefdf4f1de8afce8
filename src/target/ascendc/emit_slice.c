/* DataCopy with SliceInfo in Ascend C (family: slice). The devkit takes the
 * two slice lists as C arrays, declared before the call:
 *   AscendC::SliceInfo dst_slices[2] = {...};
 *   AscendC::SliceInfo src_slices[2] = {...};
 *   AscendC::DataCopy(dst, src, dst_slices, src_slices, dim_value);
 * The IR holds dim_value first, then the n_dst slices of dst, then src's.
 * Also the HCCL context registers, Set/GetHcclContext<index>. */
#include <stdio.h>
#include <stdlib.h>

#include "emitter.h"

/* `AscendC::SliceInfo name[n] = {operands from..from+n-1}`, its name. */
static char *declare_slices(Emitter *e, AscOp *op, int from, int n,
                            const char *hint) {
  char *name = em_fresh_name(e, hint);
  if (!name)
    return NULL;
  Buf b = {0};
  char tmp[4096];
  em_buf_printf(&b, "AscendC::SliceInfo %s[%d] = {", name, n);
  for (int i = 0; i < n; i++)
    em_buf_printf(
        &b, "%s%s", i ? ", " : "",
        em_unparen(em_expr(e, op->operands[from + i]), tmp, sizeof tmp));
  em_buf_printf(&b, "}");
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  em_statement(e, op, b.s);
  free(b.s);
  return name;
}

static void emit_data_copy_slice(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *a = asc_op_attr(op, "n_dst");
  int64_t n_dst_attr = a ? a->i : 0;
  if (n_dst_attr < 1 || n_dst_attr > (int64_t)op->n_operands - 4) {
    asc_error(e->ctx, ASC_ERR_COMPILE, op->loc,
              "%s: needs at least one SliceInfo for dst and for src", oi->name);
    e->failed = 1;
    return;
  }
  int n_dst = (int)n_dst_attr, n_src = op->n_operands - 3 - n_dst;
  char *dl = declare_slices(e, op, 3, n_dst, "dst_slices");
  char *sl = dl ? declare_slices(e, op, 3 + n_dst, n_src, "src_slices") : NULL;
  char *call = NULL;
  if (sl) {
    char t0[4096], t1[4096];
    call = em_fmt_str("%s(%s, %s, %s, %s, %s)", oi->cpp,
                      em_unparen(em_expr(e, op->operands[0]), t0, sizeof t0),
                      em_unparen(em_expr(e, op->operands[1]), t1, sizeof t1),
                      dl, sl, em_expr(e, op->operands[2]));
  }
  if (!call) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, call);
  free(call);
}

/* SetHcclContext<index>(GM_ADDR) (the address of any element type as
 * GM_ADDR) and GetHcclContext<index>(), a __gm__ uint8_t *. Not pure: a
 * later Set changes what Get returns. */
static void emit_hccl_context(Emitter *e, AscOp *op) {
  const AscOpInfo *oi = asc_op_info(op->id);
  const AscAttr *a = asc_op_attr(op, "index");
  long long index = a ? (long long)a->i : 0;
  if (op->id == ASC_OP_GET_HCCL_CONTEXT) {
    char *rhs = em_fmt_str("%s<%lld>()", oi->cpp, index);
    if (!rhs) {
      e->failed = 1;
      return;
    }
    em_bind(e, op, rhs, 0);
    return;
  }
  char tmp[4096];
  char *s =
      em_fmt_str("%s<%lld>(reinterpret_cast<GM_ADDR>(%s))", oi->cpp, index,
                 em_unparen(em_expr(e, op->operands[0]), tmp, sizeof tmp));
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

EmSystemRule em_slice_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_DATA_COPY_SLICE_GM_TO_LOCAL:
  case ASC_OP_DATA_COPY_SLICE_LOCAL_TO_GM:
    return emit_data_copy_slice;
  case ASC_OP_SET_HCCL_CONTEXT:
  case ASC_OP_GET_HCCL_CONTEXT:
    return emit_hccl_context;
  default:
    return NULL;
  }
}
