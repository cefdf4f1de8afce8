/* The listtensor family's SPECIAL rows: the TensorDesc<T> and
 * ListTensorDesc variables, the ListTensorDesc constructor taking the
 * list's address, SetShapeAddr (whose parameter is a uint64_t *, which the
 * Python API passes as a uint64 address) and GetDataPtr<T>(index). */
#include <stdlib.h>

#include "emitter.h"

/* AscendC::TensorDesc<T> desc; / AscendC::ListTensorDesc list; */
static void emit_desc_declaration(Emitter *e, AscOp *op) {
  const char *hint =
      op->id == ASC_OP_TENSOR_DESC ? "tensor_desc" : "list_tensor_desc";
  char *name = em_declare(e, op, &op->results[0], hint, NULL);
  if (!name) {
    e->failed = 1;
    return;
  }
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

/* AscendC::ListTensorDesc list(data, length, shapeSize); */
static void emit_list_from_data(Emitter *e, AscOp *op) {
  const AscValue *v = &op->results[0];
  char t0[4096], t1[4096], t2[4096];
  char *name = em_fresh_name(e, v->name ? v->name : "list_tensor_desc");
  if (!name) {
    e->failed = 1;
    return;
  }
  em_line_start(e);
  em_buf_printf(&e->out, "AscendC::ListTensorDesc %s(%s, %s, %s);", name,
                em_unparen(em_expr(e, op->operands[0]), t0, sizeof t0),
                em_unparen(em_expr(e, op->operands[1]), t1, sizeof t1),
                em_unparen(em_expr(e, op->operands[2]), t2, sizeof t2));
  em_line_end(e, op);
  em_set_expr(e, &op->results[0], em_fmt_str("%s", name));
}

/* desc.SetShapeAddr(reinterpret_cast<uint64_t *>(shapePtr)); */
static void emit_set_shape_addr(Emitter *e, AscOp *op) {
  char t1[4096];
  char *s = em_fmt_str("%s.SetShapeAddr(reinterpret_cast<uint64_t *>(%s))",
                       em_expr(e, op->operands[0]),
                       em_unparen(em_expr(e, op->operands[1]), t1, sizeof t1));
  if (!s) {
    e->failed = 1;
    return;
  }
  em_statement(e, op, s);
  free(s);
}

/* list.GetDataPtr<T>(index), T the result's element type */
static void emit_list_data_ptr(Emitter *e, AscOp *op) {
  char t1[4096];
  char *rhs =
      em_fmt_str("%s.GetDataPtr<%s>(%s)", em_expr(e, op->operands[0]),
                 asc_dtype_cpp_name(op->results[0].type->dtype),
                 em_unparen(em_expr(e, op->operands[1]), t1, sizeof t1));
  if (!rhs) {
    e->failed = 1;
    return;
  }
  em_bind(e, op, rhs, 0);
}

EmSystemRule em_list_tensor_rule(AscOpId id) {
  switch (id) {
  case ASC_OP_TENSOR_DESC:
  case ASC_OP_LIST_TENSOR_DESC:
    return emit_desc_declaration;
  case ASC_OP_LIST_TENSOR_DESC_DATA:
    return emit_list_from_data;
  case ASC_OP_TENSOR_DESC_SET_SHAPE_ADDR:
    return emit_set_shape_addr;
  case ASC_OP_LIST_TENSOR_DESC_GET_DATA_PTR:
    return emit_list_data_ptr;
  default:
    return NULL;
  }
}

static int block_uses_list_tensor(const AscBlock *b) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    if (op->id == ASC_OP_TENSOR_DESC || op->id == ASC_OP_LIST_TENSOR_DESC ||
        op->id == ASC_OP_LIST_TENSOR_DESC_DATA)
      return 1;
    for (int r = 0; r < op->n_regions; r++)
      if (block_uses_list_tensor(op->regions[r].block))
        return 1;
  }
  return 0;
}

/* The devkit's kernel_operator.h does not include the list tensor API:
 * a kernel that makes a TensorDesc or ListTensorDesc includes it itself
 * (as the devkit's list_tensor_desc_input example does). */
int em_uses_list_tensor(const AscModule *m) {
  return block_uses_list_tensor(m->body);
}
