/* family: cores. `detect-kernel-type`: which cores a kernel runs on.
 *
 * Sets the kernel's func.func attribute kernel_type to the value of
 * asc.KernelType (python/asc/runtime/config.py), unless it has one:
 *   - options "type=N": N (the jit option kernel_type, given by the user);
 *   - else a kernel that uses the cube core is MIX_AIC_1_2 (the Ascend910B's
 *     1:2 pairing), or AIC_ONLY with the option "cube-only" (the jit option
 *     matmul_cube_only=True, as upstream);
 *   - else a kernel whose cross-core flags pair cores of one AI Core (modes
 *     1 and 2) is MIX_AIC_1_2, one with only mode-0 flags MIX_AIV_1_0 (the
 *     devkit's kernel type for all-core flags of vector cores: AIV_ONLY
 *     starts no scheduler, its flags would never be delivered);
 *   - a hard SyncAll (asc.sync_all, not the GM-workspace form) counts as a
 *     mode-0 flag: SyncAll.md asks for __mix__(0, 1), not __vector__, in a
 *     kernel of vector cores (it is built on CrossCoreSetFlag);
 *   - else AIV_ONLY.
 * "Uses the cube core": an op on the M, MTE1 or FIX pipe (from the op
 * table), a value (operand or result) that is a tensor, queue or buffer at
 * a cube position (A1, A2, B1, B2, C1, C2, CO1, CO2), or ascend_is_aic().
 * The device functions a kernel calls (transitively) count as its body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ops.h"
#include "pass.h"

typedef struct Uses {
  int cube;  /* the cube core */
  int pairs; /* cross-core flags of modes 1, 2 */
  int all;   /* cross-core flags of mode 0 */
  const AscModule *m;
  const AscOp **seen; /* the functions scanned */
  int n_seen, cap_seen;
} Uses;

static void scan(const AscBlock *b, Uses *u);

/* Scans function f once. */
static void scan_function(const AscOp *f, Uses *u) {
  if (!f || f->id != ASC_OP_FUNC || !f->n_regions)
    return;
  for (int i = 0; i < u->n_seen; i++)
    if (u->seen[i] == f)
      return;
  if (u->n_seen == u->cap_seen) {
    int cap = u->cap_seen ? 2 * u->cap_seen : 8;
    const AscOp **s = realloc(u->seen, sizeof *s * (size_t)cap);
    if (!s)
      return; /* out of memory: the callee is not scanned */
    u->seen = s;
    u->cap_seen = cap;
  }
  u->seen[u->n_seen++] = f;
  scan(f->regions[0].block, u);
}

static int cube_position(const AscType *t) {
  if (!t || t->position < 0)
    return 0;
  switch (t->position) {
  case 1: /* A1 */
  case 2: /* A2 */
  case 3: /* B1 */
  case 4: /* B2 */
  case 5: /* C1 */
  case 6: /* C2 */
  case 7: /* CO1 */
  case 8: /* CO2 */
    return 1;
  default:
    return 0;
  }
}

static void scan(const AscBlock *b, Uses *u) {
  for (const AscOp *op = b ? b->first : NULL; op; op = op->next) {
    const AscOpInfo *oi = asc_op_info(op->id);
    if (oi && (oi->pipe == ASC_PIPE_M || oi->pipe == ASC_PIPE_MTE1 ||
               oi->pipe == ASC_PIPE_FIX))
      u->cube = 1;
    if (op->id == ASC_OP_ASCEND_IS_AIC)
      u->cube = 1;
    /* family: matmul: asc.adv.Matmul's methods run on the cube core */
    if (oi && strncmp(oi->name, "asc.matmul", 10) == 0)
      u->cube = 1;
    if (op->id == ASC_OP_CALL) {
      const char *callee = asc_op_attr_str(op, "callee");
      if (callee)
        scan_function(asc_module_find_function(u->m, callee), u);
    }
    if (op->id == ASC_OP_SYNC_ALL)
      u->all = 1;
    if (op->id == ASC_OP_CROSS_CORE_SET_FLAG ||
        op->id == ASC_OP_CROSS_CORE_WAIT_FLAG) {
      if (asc_op_attr_int(op, "mode_id", 0) == 0)
        u->all = 1;
      else
        u->pairs = 1;
    }
    for (int i = 0; i < op->n_operands; i++)
      if (cube_position(op->operands[i]->type))
        u->cube = 1;
    for (int i = 0; i < op->n_results; i++)
      if (cube_position(op->results[i].type))
        u->cube = 1;
    for (int r = 0; r < op->n_regions; r++) {
      const AscBlock *rb = op->regions[r].block;
      for (int i = 0; rb && i < rb->n_args; i++)
        if (cube_position(rb->args[i].type))
          u->cube = 1;
      scan(rb, u);
    }
  }
}

/* Adds (or replaces) the INT attribute kernel_type of f. */
static AscStatus set_type(AscModule *m, AscOp *f, int64_t v) {
  for (int i = 0; i < f->n_attrs; i++)
    if (strcmp(f->attrs[i].name, "kernel_type") == 0) {
      f->attrs[i].kind = ASC_ATTR_INT;
      f->attrs[i].i = v;
      return ASC_OK;
    }
  AscAttr *a = asc_alloc(m->ctx, sizeof *a * (size_t)(f->n_attrs + 1));
  const char *name = asc_strdup(m->ctx, "kernel_type");
  if (!a || !name)
    return asc_error(m->ctx, ASC_ERR_INTERNAL, f->loc, "out of memory");
  if (f->n_attrs)
    memcpy(a, f->attrs, sizeof *a * (size_t)f->n_attrs);
  memset(&a[f->n_attrs], 0, sizeof *a);
  a[f->n_attrs].name = name;
  a[f->n_attrs].kind = ASC_ATTR_INT;
  a[f->n_attrs].i = v;
  f->attrs = a;
  f->n_attrs++;
  return ASC_OK;
}

AscStatus asc_pass_detect_kernel_type(AscModule *m, const char *opts) {
  int cube_only = 0;
  long given = -1;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", opts ? opts : "");
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
       t = strtok_r(NULL, ",", &save)) {
    char *end = NULL;
    if (strcmp(t, "cube-only") == 0)
      cube_only = 1;
    else if (strncmp(t, "type=", 5) == 0 &&
             (given = strtol(t + 5, &end, 10), end && !*end && end != t + 5) &&
             given >= 0 && given <= KT_MAX)
      ;
    else
      return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                       "detect-kernel-type: unknown option '%s' (cube-only, "
                       "type=0..%d)",
                       t, KT_MAX);
  }
  for (AscOp *f = m->body->first; f; f = f->next) {
    if (f->id != ASC_OP_FUNC || !asc_op_attr_int(f, "kernel", 0) ||
        (given < 0 && asc_op_attr(f, "kernel_type")))
      continue;
    Uses u = {0, 0, 0, m, NULL, 0, 0};
    scan_function(f, &u);
    free(u.seen);
    int64_t type = KT_AIV_ONLY;
    if (given >= 0)
      type = given;
    else if (u.cube)
      type = cube_only ? KT_AIC_ONLY : KT_MIX_AIC_1_2;
    else if (u.pairs)
      type = KT_MIX_AIC_1_2;
    else if (u.all)
      type = KT_MIX_AIV_1_0;
    AscStatus s = set_type(m, f, type);
    if (s)
      return s;
  }
  return ASC_OK;
}
