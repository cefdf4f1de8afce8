/* The sort family of the vector unit on the Ascend910B (the devkit's
 * dav_c220 implementation): Sort32, Sort, MrgSort (both forms), the merge
 * result register (GetMrgSortResult) and GetSortLen / GetSortOffset.
 *
 * A sorted element is 8 bytes: its score in the low bytes (a float: bytes
 * 0-3; a half: bytes 0-1, bytes 2-3 reserved, written 0 here) and its
 * uint32 index in bytes 4-7. Order: descending score; of equal scores (+0
 * and -0 are equal) the one first in its input (Sort32: the lower position;
 * MrgSort: the lower list, a list's own order kept), as the devkit
 * documents. The devkit leaves NaN unordered; here a NaN ranks above every
 * number (NaNs among themselves in input order).
 *
 * The 910B does not have RpSort16, MrgSort4, ProposalConcat or
 * ProposalExtract (the devkit reports them unsupported there); the front
 * end refuses them. */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum {
  ELEM_BYTES = 8,   /* a (score, index) element */
  SORT32_RUN = 32,  /* the elements one Sort32 repeat sorts */
  MAX_LISTS = 4,    /* MRG_SORT_ELEMENT_LEN */
  MAX_LIST = 4095,  /* the largest element length of a list */
  MAX_REPEAT = 255, /* Sort32 / Sort repeatTime */
};

static double score_at(AscDType dt, const uint8_t *e) {
  if (dt == ASC_DT_FLOAT32) {
    float f;
    memcpy(&f, e, 4);
    return (double)f;
  }
  uint16_t h;
  memcpy(&h, e, 2);
  return (double)asc_f16_to_f32(h);
}

/* 1 when score a goes strictly before score b. */
static int ranks_above(double a, double b) {
  if (a != a)
    return b == b;
  if (b != b)
    return 0;
  return a > b;
}

/* ---- Sort32 ------------------------------------------------------------ */

/* Sorts rep runs of 32 (scores from s0 of dt, indices from s1) into out,
 * rep * 32 elements of 8 bytes. */
static void sort32_runs(AscDType dt, uint8_t *out, const uint8_t *s0,
                        const uint8_t *s1, int64_t rep) {
  size_t esz = asc_dtype_size(dt);
  for (int64_t r = 0; r < rep; r++) {
    int order[SORT32_RUN];
    double key[SORT32_RUN];
    const uint8_t *sc = s0 + r * SORT32_RUN * (int64_t)esz;
    for (int i = 0; i < SORT32_RUN; i++) {
      key[i] = dt == ASC_DT_FLOAT32 ? score_at(dt, sc + i * 4)
                                    : score_at(dt, sc + i * 2);
      /* insertion keeps equal scores in position order (stable) */
      int j = i;
      while (j > 0 && ranks_above(key[i], key[order[j - 1]])) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = i;
    }
    uint8_t *o = out + r * SORT32_RUN * ELEM_BYTES;
    for (int i = 0; i < SORT32_RUN; i++, o += ELEM_BYTES) {
      int k = order[i];
      memset(o, 0, ELEM_BYTES);
      memcpy(o, sc + (size_t)k * esz, esz); /* the score's own bits */
      memcpy(o + 4, s1 + (r * SORT32_RUN + k) * 4, 4);
    }
  }
}

/* The repeat count of Sort32 / Sort: [0, 255]. */
static int repeat_ok(AscExec *x, const AscInstr *in, int64_t rep) {
  if (rep >= 0 && rep <= MAX_REPEAT)
    return 1;
  sim_fail(x, in, "repeat_time %lld is out of range [0, 255]", (long long)rep);
  return 0;
}

/* An operand's UB address aligned as an instruction requires. */
static int aligned(AscExec *x, const AscInstr *in, int k, int64_t align,
                   const char *what) {
  const AscTensorRef *t = &ASC_SLOT(x, in, k).t;
  if (t->addr % align == 0)
    return 1;
  sim_fail(x, in, "%s: UB address %lld is not %lld-byte aligned", what,
           (long long)t->addr, (long long)align);
  return 0;
}

/* Sort32 over operands dst (0), scores (1), indices (2): the checked
 * destination pointer in *dst_out, NULL after a failure. */
static AscStatus sort32_operands(AscExec *x, const AscInstr *in, int64_t rep,
                                 const char *src_name, const char *idx_name,
                                 uint8_t **dst_out) {
  AscDType dt = (AscDType)in->dtype;
  int64_t esz = (int64_t)asc_dtype_size(dt);
  int64_t n = rep * SORT32_RUN;
  *dst_out = NULL;
  /* each repeat: dst 256-byte, scores 128 (float) / 64 (half), indices
   * 128-byte aligned (the devkit's Sort32 constraints) */
  uint8_t *d = sim_vec_operand(x, in, 0, n * ELEM_BYTES / esz, 1, "dst");
  uint8_t *s0 = d ? sim_vec_operand(x, in, 1, n, 0, src_name) : NULL;
  uint8_t *s1 = s0 ? sim_vec_operand(x, in, 2, n, 0, idx_name) : NULL;
  if (!s1 || !aligned(x, in, 0, 256, "dst") ||
      !aligned(x, in, 1, SORT32_RUN * esz, src_name) ||
      !aligned(x, in, 2, 128, idx_name))
    return ASC_ERR_KERNEL;
  /* the result is built aside: dst may overlap the sources */
  uint8_t *out = malloc((size_t)(n * ELEM_BYTES) + 1);
  if (!out) {
    sim_fail(x, in, "out of host memory");
    return ASC_ERR_KERNEL;
  }
  sort32_runs(dt, out, s0, s1, rep);
  memcpy(d, out, (size_t)(n * ELEM_BYTES));
  free(out);
  *dst_out = d;
  return ASC_OK;
}

static void sort_work(AscExec *x, const AscInstr *in, int64_t elems) {
  sim_vec_work(x, &ASC_SLOT(x, in, 0).t, elems);
  x->b->ev.bytes = elems * ELEM_BYTES;
}

AscStatus sim_sort32(AscExec *x, const AscInstr *in) {
  int64_t rep = ASC_SLOT(x, in, 3).i;
  if (!repeat_ok(x, in, rep))
    return ASC_ERR_KERNEL;
  uint8_t *d;
  if (rep > 0 && sort32_operands(x, in, rep, "src0", "src1", &d))
    return ASC_ERR_KERNEL;
  sort_work(x, in, rep * SORT32_RUN);
  return ASC_OK;
}

/* ---- MrgSort ----------------------------------------------------------- */

/* Merges the lists of `valid` (bit i: list i) into out; with suspend it
 * stops when a list runs out (a list that is empty from the start: at
 * once). took[i]: the elements taken from list i. Returns the elements
 * written. */
static int64_t merge_lists(AscDType dt, uint8_t *out,
                           const uint8_t *const src[MAX_LISTS],
                           const int64_t len[MAX_LISTS], unsigned valid,
                           int suspend, int64_t took[MAX_LISTS]) {
  int64_t n = 0;
  for (int i = 0; i < MAX_LISTS; i++) {
    took[i] = 0;
    if (suspend && (valid >> i & 1) && len[i] == 0)
      return 0;
  }
  for (;;) {
    int best = -1;
    double bv = 0;
    for (int i = 0; i < MAX_LISTS; i++) {
      if (!(valid >> i & 1) || took[i] >= len[i])
        continue;
      double v = score_at(dt, src[i] + took[i] * ELEM_BYTES);
      if (best < 0 || ranks_above(v, bv)) { /* ties: the lower list */
        best = i;
        bv = v;
      }
    }
    if (best < 0)
      return n;
    memcpy(out + n * ELEM_BYTES, src[best] + took[best] * ELEM_BYTES,
           ELEM_BYTES);
    n++;
    if (++took[best] == len[best] && suspend)
      return n;
  }
}

/* VMS4_SR: 16 bits a list, list 0 in the low bits. */
static void set_result_register(AscBlockState *b,
                                const int64_t took[MAX_LISTS]) {
  uint64_t r = 0;
  for (int i = 0; i < MAX_LISTS; i++)
    r |= ((uint64_t)took[i] & 0xffff) << (16 * i);
  b->regs.vms4_sr = r;
}

static int lists_of(unsigned valid) {
  return valid == 3 ? 2 : valid == 7 ? 3 : 4;
}

typedef struct MergeArgs {
  int64_t len[MAX_LISTS];
  unsigned valid;
  int64_t repeat;
  int suspend;
} MergeArgs;

/* The lengths, mask, repeats and suspension of either form: the list form
 * (element counts, sorted nums, valid_bit, repeat_time as operands 5..14)
 * or the MrgSort4Info form (operand 5). */
static void merge_args(AscExec *x, const AscInstr *in, MergeArgs *m) {
  if (in->imm == 0) {
    for (int i = 0; i < MAX_LISTS; i++)
      m->len[i] = ASC_SLOT(x, in, 5 + i).i & 0xffff;
    m->valid = (unsigned)(ASC_SLOT(x, in, 13).i & 0xffff);
    /* MrgSort4Info(..., (uint16_t)repeatTime): its uint8_t member */
    m->repeat = ASC_SLOT(x, in, 14).i & 0xff;
    m->suspend = asc_op_attr_int(in->src, "is_exhausted_suspension", 0) != 0;
    return;
  }
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[5]->type);
  const AscSlot *v = &x->regs[in->a[5]];
  const AscFieldInfo *f = si->fields;
  int fl = asc_struct_field_index(si, "element_lengths");
  int fs = asc_struct_field_index(si, "if_exhausted_suspension");
  int fv = asc_struct_field_index(si, "valid_bit");
  int fr = asc_struct_field_index(si, "repeat_times");
  for (int i = 0; i < MAX_LISTS; i++)
    m->len[i] = v[f[fl].slot + i].i & 0xffff;
  m->suspend = v[f[fs].slot].i != 0;
  m->valid = (unsigned)(v[f[fv].slot].i & 0xffff);
  m->repeat = v[f[fr].slot].i & 0xff;
}

AscStatus sim_mrg_sort(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  int64_t esz = (int64_t)asc_dtype_size(dt);
  MergeArgs m;
  merge_args(x, in, &m);
  int given = (int)asc_op_attr_int(in->src, "lists", MAX_LISTS);
  if (m.valid != 3 && m.valid != 7 && m.valid != 15)
    return sim_fail(x, in,
                    "valid_bit %u is not 3, 7 or 15 (the first 2, 3 "
                    "or 4 lists)",
                    m.valid);
  int nl = lists_of(m.valid);
  if (nl > given)
    return sim_fail(x, in,
                    "valid_bit %u merges %d lists but the MrgSortSrcList "
                    "holds %d",
                    m.valid, nl, given);
  for (int i = 0; i < MAX_LISTS; i++)
    if (m.len[i] > MAX_LIST)
      return sim_fail(x, in,
                      "element length %lld of list %d is out of range "
                      "[0, 4095]",
                      (long long)m.len[i], i + 1);
  if (m.repeat == 0) { /* a NOP on the 910B */
    sort_work(x, in, 0);
    return ASC_OK;
  }
  int64_t total = 0;
  for (int i = 0; i < nl; i++)
    total += m.len[i];
  const AscTensorRef *t[MAX_LISTS];
  for (int i = 0; i < nl; i++)
    t[i] = &ASC_SLOT(x, in, 1 + i).t;
  if (m.repeat > 1) {
    /* the devkit's conditions for repeats: 4 contiguous lists of one
     * length, no suspension */
    int ok = m.valid == 15 && !m.suspend;
    for (int i = 1; ok && i < MAX_LISTS; i++)
      ok = m.len[i] == m.len[0] &&
           t[i]->addr == t[i - 1]->addr + m.len[0] * ELEM_BYTES;
    if (!ok)
      return sim_fail(x, in,
                      "repeat_time %lld needs 4 lists of one length stored "
                      "one after another, valid_bit 15 and no exhausted "
                      "suspension",
                      (long long)m.repeat);
  }
  static const char *const names[MAX_LISTS] = {"src1", "src2", "src3", "src4"};
  const uint8_t *src[MAX_LISTS] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < nl; i++) {
    /* list i of every repeat: (repeat - 1) * total + len[i] elements */
    int64_t bytes = ((m.repeat - 1) * total + m.len[i]) * ELEM_BYTES;
    if (!sim_tensor_arg(x, in, 1 + i, names[i]) ||
        !aligned(x, in, 1 + i, ELEM_BYTES, names[i]))
      return ASC_ERR_KERNEL;
    src[i] = sim_local_ptr(x, in, t[i], bytes / esz, 0, names[i]);
    if (!src[i])
      return ASC_ERR_KERNEL;
  }
  int64_t out_bytes = m.repeat * total * ELEM_BYTES;
  uint8_t *out = malloc((size_t)out_bytes + 1);
  if (!out)
    return sim_fail(x, in, "out of host memory");
  int64_t took[MAX_LISTS], n = 0;
  for (int64_t r = 0; r < m.repeat; r++) {
    const uint8_t *rs[MAX_LISTS];
    for (int i = 0; i < MAX_LISTS; i++)
      rs[i] = src[i] ? src[i] + r * total * ELEM_BYTES : NULL;
    n += merge_lists(dt, out + n * ELEM_BYTES, rs, m.len, m.valid, m.suspend,
                     took);
  }
  const AscTensorRef *dt_ref = sim_tensor_arg(x, in, 0, "dst");
  int64_t d0 = dt_ref ? dt_ref->addr : 0, d1 = d0 + n * ELEM_BYTES;
  for (int i = 0; dt_ref && i < nl; i++) {
    int64_t s0 = t[i]->addr,
            s1 = s0 + ((m.repeat - 1) * total + m.len[i]) * ELEM_BYTES;
    if (n > 0 && s1 > s0 && d0 < s1 && s0 < d1) {
      free(out);
      return sim_fail(x, in,
                      "dst (UB bytes [%lld, %lld)) overlaps %s (bytes [%lld, "
                      "%lld)); the devkit does not allow it",
                      (long long)d0, (long long)d1, names[i], (long long)s0,
                      (long long)s1);
    }
  }
  uint8_t *d =
      dt_ref ? sim_vec_operand(x, in, 0, n * ELEM_BYTES / esz, 1, "dst") : NULL;
  if (!d) {
    free(out);
    return ASC_ERR_KERNEL;
  }
  memcpy(d, out, (size_t)(n * ELEM_BYTES));
  free(out);
  set_result_register(x->b, took);
  sort_work(x, in, n);
  return ASC_OK;
}

/* ---- Sort (Sort32, then the devkit's full-sort merge passes) ----------- */

/* One MrgSort of the full sort over byte buffers the caller checked:
 * `repeat` groups of lists at offsets off[] (elements) of tmp into dst at
 * off[0], advancing by the group's total each repeat. */
static void full_merge(AscBlockState *b, AscDType dt, uint8_t *dst,
                       const uint8_t *tmp, const int64_t off[MAX_LISTS],
                       const int64_t len[MAX_LISTS], unsigned valid,
                       int64_t repeat) {
  int64_t total = 0, took[MAX_LISTS];
  for (int i = 0; i < lists_of(valid); i++)
    total += len[i];
  for (int64_t r = 0; r < repeat; r++) {
    const uint8_t *src[MAX_LISTS];
    for (int i = 0; i < MAX_LISTS; i++)
      src[i] = tmp + (off[i] + r * total) * ELEM_BYTES;
    merge_lists(dt, dst + (off[0] + r * total) * ELEM_BYTES, src, len, valid, 0,
                took);
  }
  set_result_register(b, took);
}

/* The devkit's DoFullSort on the 910B: rounds of 4-way merges of the runs
 * of the previous round (32, 128, 512, ... elements) from tmp into dst,
 * the last group of a round taking the 2 to 4 runs left (or copied when
 * one is), and dst copied back to tmp after each round. The order of its
 * steps (and which runs meet in which merge) is the devkit's. */
static void full_sort(AscBlockState *b, AscDType dt, uint8_t *dst, uint8_t *tmp,
                      int32_t rep) {
  int64_t elems = (int64_t)rep * SORT32_RUN;
  size_t bytes = (size_t)(elems * ELEM_BYTES);
  int rounds = 0;
  for (int32_t q = rep; q > 1; q = (q + MAX_LISTS - 1) / MAX_LISTS)
    rounds++;
  int64_t run = SORT32_RUN; /* the devkit's uint16_t run length */
  int32_t runs = rep, tail_runs = rep % MAX_LISTS, groups = rep / MAX_LISTS;
  memcpy(tmp, dst, bytes);
  for (int k = 0; k < rounds; k++) {
    if (groups > 0) {
      int64_t off[MAX_LISTS], len[MAX_LISTS];
      for (int i = 0; i < MAX_LISTS; i++) {
        off[i] = i * run;
        len[i] = run;
      }
      full_merge(b, dt, dst, tmp, off, len, 15, groups);
    }
    int64_t tail = elems % run ? elems % run : run;
    if (tail_runs > 1) {
      int64_t off[MAX_LISTS], len[MAX_LISTS];
      off[0] = (int64_t)MAX_LISTS * run * groups;
      for (int i = 0; i < MAX_LISTS; i++) {
        off[i] = i < tail_runs ? off[0] + i * run : 0;
        len[i] = i < tail_runs - 1 ? run : i == tail_runs - 1 ? tail : 0;
      }
      full_merge(b, dt, dst, tmp, off, len,
                 tail_runs == 2   ? 3
                 : tail_runs == 3 ? 7
                                  : 15,
                 1);
    } else if (tail_runs == 1) {
      int64_t off0 = (int64_t)MAX_LISTS * run * groups;
      memcpy(dst + off0 * ELEM_BYTES, tmp + off0 * ELEM_BYTES,
             (size_t)(tail * ELEM_BYTES));
    }
    memcpy(tmp, dst, bytes);
    run = (run * MAX_LISTS) & 0xffff;
    runs = (runs + MAX_LISTS - 1) / MAX_LISTS;
    tail_runs = runs % MAX_LISTS;
    if (tail_runs == 0 && tail != run)
      tail_runs = MAX_LISTS;
    groups = (runs - tail_runs) / MAX_LISTS;
  }
}

AscStatus sim_sort(AscExec *x, const AscInstr *in) {
  AscDType dt = (AscDType)in->dtype;
  int64_t rep = ASC_SLOT(x, in, 4).i;
  int full = asc_op_attr_int(in->src, "is_full_sort", 0) != 0;
  if (!repeat_ok(x, in, rep))
    return ASC_ERR_KERNEL;
  if (rep == 0) {
    sort_work(x, in, 0);
    return ASC_OK;
  }
  uint8_t *d;
  if (sort32_operands(x, in, rep, "concat", "index", &d))
    return ASC_ERR_KERNEL;
  if (full) {
    int64_t n = rep * SORT32_RUN * ELEM_BYTES / (int64_t)asc_dtype_size(dt);
    uint8_t *tmp = sim_vec_operand(x, in, 3, n, 1, "tmp");
    if (!tmp)
      return ASC_ERR_KERNEL;
    const AscTensorRef *a = &ASC_SLOT(x, in, 0).t, *c = &ASC_SLOT(x, in, 3).t;
    int64_t len = rep * SORT32_RUN * ELEM_BYTES;
    if (a->addr < c->addr + len && c->addr < a->addr + len)
      return sim_fail(x, in,
                      "tmp (UB bytes [%lld, %lld)) overlaps dst (bytes "
                      "[%lld, %lld)): the full sort merges between them",
                      (long long)c->addr, (long long)(c->addr + len),
                      (long long)a->addr, (long long)(a->addr + len));
    full_sort(x->b, dt, d, tmp, (int32_t)rep);
  }
  sort_work(x, in, rep * SORT32_RUN);
  return ASC_OK;
}

/* ---- scalar helpers ---------------------------------------------------- */

AscStatus sim_get_mrg_sort_result(AscExec *x, const AscInstr *in) {
  uint64_t r = x->b->regs.vms4_sr;
  /* result 0 is the instruction's dst, results 1..3 its arguments (the
   * lowering's layout for this op) */
  ASC_DST(x, in).i = (int64_t)(r & 0xffff);
  for (int i = 1; i < MAX_LISTS && i <= in->n_args; i++)
    x->regs[in->a[i - 1]].i = (int64_t)(r >> (16 * i) & 0xffff);
  return ASC_OK;
}

/* GetSortLen<float> / GetSortOffset<float>: 2 floats an element (uint32_t
 * arithmetic, as in C++). */
AscStatus sim_get_sort_len(AscExec *x, const AscInstr *in) {
  uint32_t n = (uint32_t)ASC_SLOT(x, in, 0).i;
  ASC_DST(x, in).i = asc_int_normalize((AscDType)in->dtype, (int64_t)(n * 2u));
  return ASC_OK;
}
