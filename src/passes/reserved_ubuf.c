/* The APIs that keep their temporaries in Ascend C's reserved UB, and the
 * reserved-ubuf pass.
 *
 * On NPU arch 2201 Ascend C keeps 8 KiB of the Unified Buffer, from
 * TMP_UB_OFFSET = 184 KiB (impl/basic_api/utils/kernel_utils_constants.h),
 * for the temporaries of a few APIs (docs/zh/guide/编程指南/编程模型/
 * AI-Core-SIMD编程/基于Tensor的CPP编程/静态Tensor编程.md, table 5). Only a
 * kernel that uses one of them must leave those bytes free: nothing else
 * writes there, the TPipe does not cap its buffers below them (outside the
 * CPU debug build's asserts, impl/basic_api/kernel_tpipe_impl.h), and the
 * devkit's add_high_performance example places its tensors in the whole
 * 192 KiB of an AIV kernel and was measured so on an Atlas A2.
 * asc_kernel_reserve finds that use (and the kernel type, for the 256
 * bytes a MIX kernel leaves); the simulator and the UB planner size the
 * kernel's UB from it (src/sim/reserve.c).
 *
 * The compile option --cce-disable-asc-reserved-ubuf makes those APIs
 * unavailable (the __ASC_USE_RESERVED_UBUF__(2201, ...) attribute of
 * include/basic_api/kernel_operator_vec_cmpsel_intf.h,
 * kernel_operator_vec_binary_intf.h and include/adv_api/): the pass with
 * option "disable" (the jit's bisheng_options hold the compiler option)
 * makes every use of one in the module a CompileError naming the option.
 * Without the option the pass changes nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/exec.h"
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
    if (s)
      return s;
  }
  return ASC_OK;
}

/* ---- what a kernel keeps free ------------------------------------------ */

/* The functions find_use has entered, each once (IR from text may recurse). */
typedef struct Seen {
  const AscOp **f;
  size_t n, cap;
} Seen;

/* 1 if f was not seen before (and is now); 0 if it was, or if the list
 * cannot grow (its calls are then not followed). */
static int first_visit(Seen *s, const AscOp *f) {
  for (size_t i = 0; i < s->n; i++)
    if (s->f[i] == f)
      return 0;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    const AscOp **g = cap < s->cap || cap > SIZE_MAX / sizeof *g
                          ? NULL
                          : realloc(s->f, cap * sizeof *g);
    if (!g)
      return 0;
    s->f = g;
    s->cap = cap;
  }
  s->f[s->n++] = f;
  return 1;
}

/* The first use of an API of table 5 in block b or a function it calls. */
static const AscOp *find_use(const AscModule *m, const AscBlock *b,
                             Seen *seen) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    if (reserved_api(op->id))
      return op;
    if (op->id == ASC_OP_CALL) {
      const char *callee = asc_op_attr_str(op, "callee");
      const AscOp *f = callee ? asc_module_find_function(m, callee) : NULL;
      const AscOp *use =
          f && f->id == ASC_OP_FUNC && f->n_regions && first_visit(seen, f)
              ? find_use(m, f->regions[0].block, seen)
              : NULL;
      if (use)
        return use;
    }
    for (int r = 0; r < op->n_regions; r++) {
      const AscOp *use = find_use(m, op->regions[r].block, seen);
      if (use)
        return use;
    }
  }
  return NULL;
}

AscReserve asc_kernel_reserve(const AscModule *m, const char *kernel) {
  AscReserve r = {-1, 1, NULL, {0}};
  const AscOp *f = NULL;
  if (m && kernel)
    f = asc_module_find_function(m, kernel);
  for (const AscOp *g = m && !kernel ? m->body->first : NULL; g && !f;
       g = g->next)
    if (g->id == ASC_OP_FUNC && asc_op_attr_int(g, "kernel", 0))
      f = g;
  if (!f || f->id != ASC_OP_FUNC || !f->n_regions)
    return r;
  if (asc_op_attr(f, "kernel_type")) {
    r.kernel_type = asc_op_attr_int(f, "kernel_type", -1);
    r.mix = asc_kernel_type_is_mix(r.kernel_type);
  }
  Seen seen = {NULL, 0, 0};
  const AscOp *use =
      first_visit(&seen, f) ? find_use(m, f->regions[0].block, &seen) : NULL;
  free(seen.f);
  if (use) {
    r.api = reserved_api(use->id);
    r.api_loc = use->loc;
  }
  return r;
}
