/* reserved-ubuf: the kernel compiled with --cce-disable-asc-reserved-ubuf.
 *
 * On NPU arch 2201 Ascend C keeps 8 KiB of the Unified Buffer for the
 * temporaries of a few APIs (docs/zh/guide/编程指南/编程模型/AI-Core-SIMD编程/
 * 基于Tensor的CPP编程/静态Tensor编程.md, table 5; their implementations put
 * them at TMP_UB_OFFSET). The compile option gives those bytes to the
 * kernel, and the devkit then marks the APIs unavailable (the
 * __ASC_USE_RESERVED_UBUF__(2201, ...) attribute of include/basic_api/
 * kernel_operator_vec_cmpsel_intf.h, kernel_operator_vec_binary_intf.h and
 * include/adv_api/): a call is a compile error.
 *
 * Option "disable" (the jit's bisheng_options hold the compiler option):
 * every use of such an API in the module is a CompileError naming the
 * option, and each kernel function gets the attribute reserved_ubuf = 0,
 * which the simulator reads to let the kernel use the 8 KiB
 * (AscBlockState.ub_user). Without the option the pass changes nothing. */
#include <stdio.h>
#include <string.h>

#include "pass.h"

/* The ops of table 5 we have (LayerNorm, DropOut and SelectWithBytesMask
 * have none): every overload of Select and AddDeqRelu carries the
 * attribute on arch 2201, and so do Digamma, Lgamma, Power and Sign. */
static const struct {
  AscOpId op;
  const char *api;
} uses_reserved[] = {
    {ASC_OP_SELECT, "Select"},
    {ASC_OP_SELECT_SCALAR, "Select"},
    {ASC_OP_SELECT_L0, "Select"},
    {ASC_OP_SELECT_SCALAR_L0, "Select"},
    {ASC_OP_SELECT_CMPMASK, "Select"},
    {ASC_OP_SELECT_SCALAR_CMPMASK, "Select"},
    {ASC_OP_ADD_DEQ_RELU, "AddDeqRelu"},
    {ASC_OP_ADD_DEQ_RELU_L0, "AddDeqRelu"},
    {ASC_OP_ADV_MATH_DIGAMMA, "Digamma"},
    {ASC_OP_ADV_MATH_LGAMMA, "Lgamma"},
    {ASC_OP_ADV_MATH_POWER, "Power"},
    {ASC_OP_ADV_MATH_SIGN, "Sign"},
};

static const char *reserved_api(AscOpId id) {
  for (size_t i = 0; i < sizeof uses_reserved / sizeof uses_reserved[0]; i++)
    if (uses_reserved[i].op == id)
      return uses_reserved[i].api;
  return NULL;
}

static AscStatus check_block(AscModule *m, const AscBlock *b) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    const char *api = reserved_api(op->id);
    if (api)
      return asc_error(
          m->ctx, ASC_ERR_COMPILE, op->loc,
          "%s uses the 8 KiB of UB Ascend C reserves, which the compile "
          "option --cce-disable-asc-reserved-ubuf (in bisheng_options) gives "
          "to the kernel: the devkit forbids %s with it on arch 2201 "
          "(静态Tensor编程.md, table 5); remove the option from "
          "bisheng_options, or compute without %s",
          api, api, api);
    for (int r = 0; r < op->n_regions; r++) {
      AscStatus s = check_block(m, op->regions[r].block);
      if (s)
        return s;
    }
  }
  return ASC_OK;
}

/* Adds (or replaces) the INT attribute reserved_ubuf = 0 of kernel f. */
static AscStatus mark_kernel(AscModule *m, AscOp *f) {
  for (int i = 0; i < f->n_attrs; i++)
    if (strcmp(f->attrs[i].name, "reserved_ubuf") == 0) {
      f->attrs[i].kind = ASC_ATTR_INT;
      f->attrs[i].i = 0;
      return ASC_OK;
    }
  AscAttr *a = asc_alloc(m->ctx, sizeof *a * (size_t)(f->n_attrs + 1));
  const char *name = asc_strdup(m->ctx, "reserved_ubuf");
  if (!a || !name)
    return asc_error(m->ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
  if (f->n_attrs)
    memcpy(a, f->attrs, sizeof *a * (size_t)f->n_attrs);
  memset(&a[f->n_attrs], 0, sizeof *a);
  a[f->n_attrs].name = name;
  a[f->n_attrs].kind = ASC_ATTR_INT;
  a[f->n_attrs].i = 0;
  f->attrs = a;
  f->n_attrs++;
  return ASC_OK;
}

AscStatus asc_pass_reserved_ubuf(AscModule *m, const char *opts) {
  int disable = 0;
  if (opts && strcmp(opts, "disable") == 0)
    disable = 1;
  else if (opts && *opts)
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "reserved-ubuf: unknown option '%s' (disable)", opts);
  if (!disable)
    return ASC_OK;
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC)
      continue;
    AscStatus s = check_block(m, f->regions[0].block);
    if (!s && asc_op_attr_int(f, "kernel", 0))
      s = mark_kernel(m, f);
    if (s)
      return s;
  }
  return ASC_OK;
}
