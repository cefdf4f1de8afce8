/* family: adv softmax. asc.adv.softmax: AscendC::SoftMax(dst, sum, max,
 * src, [sharedTmpBuffer,] tiling) on the Ascend910B, ND format, as the
 * devkit's implementation issues it (impl/adv_api/detail/activation/softmax/
 * softmax_base_impl.h, membase/v220/softmax_impl.h, membase/common/
 * softmax_impl/softmax_generic_nd_impl.h, the reductions of membase/v220/
 * softmax_common_impl/softmax_common_nd_reduce.h and softmax_common/
 * softmax_common_arithmetic.h).
 *
 * The shape: src's ShapeInfo (rows m = the product of the dimensions but
 * the last, k the last; the original shape's rows and last dimension say
 * which of them take part). When the tiling's srcM / srcK are not the
 * shape's (a default, all-zero asc.adv.SoftmaxTiling()), the kernel
 * recomputes it for the work buffer it has (asc_softmax_kernel_tiling), as
 * the devkit does. The work buffer: the sharedTmpBuffer, else the UB above
 * what the TPipe allocated (the devkit's PopStackBuffer), so a tensor
 * placed there races with SoftMax's temporaries, as on hardware.
 *
 * Per chunk of splitM rows (rangeM chunks and a tail of tailM rows):
 *   float:      ReduceMax(max, src) Sub(dst, src, max) Exp(dst)
 *               ReduceSum(sum, dst) Div(dst, dst, sum)
 *   half:       Cast(w, src) ReduceMax(wmax, w) Cast(max, wmax) Sub Exp
 *               ReduceSum(wsum, w) Cast(sum, wsum) Div Cast(dst, w)
 *   half/float: as half, with the float max / sum in the user's tensors.
 * A reduction over the first oriK elements of each row: rows shorter than
 * 64 by WholeReduce; else the 64 lanes of a repeat folded (the first 512
 * elements by BlockReduce when the row has 512 or more, then one Add / Max
 * a 64-element chunk, then the tail), the lanes reduced by two
 * BlockReduce (64 -> 8 -> 1), the result broadcast over the row's block
 * (Brcb, Copy). Sums add in that order, each rounded to float (the tree
 * of a BlockReduce / WholeReduceSum: adjacent pairs, as reduce.c). Casts
 * back to half round half away from zero (the devkit's CAST_ROUND on
 * 2201).
 *
 * Observers see each step as one sub-instruction (vec_seq.h) with the UB
 * bytes it reads and writes and the PipeBarrier<PIPE_V> between the
 * steps; an instruction the devkit issues once per row (a row's Sub / Div
 * when srcK >= 192) or per 255 repeats is one step with all their
 * elements. */
#include <math.h>
#include <string.h>

#include "asc/softmax_tiling.h"
#include "vec_seq.h"

enum { LANES = 64, BLK_F = 8, SUB_DIV_ROW = 192, BIG_REDUCE = 512 };

typedef struct Sm {
  AscExec *x;
  const AscInstr *in;
  SimVecSeq q;
  uint8_t *ub;
  int failed;
} Sm;

static float ldf(const Sm *s, int64_t addr) {
  float v;
  memcpy(&v, s->ub + addr, 4);
  return v;
}

static void stf(Sm *s, int64_t addr, float v) { memcpy(s->ub + addr, &v, 4); }

/* One step: reads [ra, ra + rb) (and [ra2, ra2 + rb2)), writes
 * [wa, wa + wb). */
static void step(Sm *s, int op, AscDType dt, int64_t elems, const char *label,
                 int64_t ra, int64_t rb, int64_t ra2, int64_t rb2, int64_t wa,
                 int64_t wb) {
  SimUbSpan sp[3];
  int n = 0;
  sp[n++] = (SimUbSpan){ra, rb, 0};
  if (rb2 > 0)
    sp[n++] = (SimUbSpan){ra2, rb2, 0};
  sp[n++] = (SimUbSpan){wa, wb, 1};
  if (!s->failed && !sim_vseq_op(&s->q, op, dt, elems, label, sp, n))
    s->failed = 1;
}

static void barrier(Sm *s) {
  if (!s->failed && !sim_vseq_barrier(&s->q))
    s->failed = 1;
}

/* The tree of adjacent pairs over v[0..n) (n a power of two), the lanes
 * at or past `present` taking no part. */
static float tree(float *v, int n, int present) {
  int pres[LANES];
  for (int i = 0; i < n; i++)
    pres[i] = i < present;
  for (int w = n; w > 1; w /= 2)
    for (int i = 0; i < w; i += 2) {
      int a = pres[i], b = pres[i + 1];
      v[i / 2] = a && b ? v[i] + v[i + 1] : a ? v[i] : v[i + 1];
      pres[i / 2] = a || b;
    }
  return v[0];
}

/* The sum of row p[0..ori_k) as the devkit's NewReduceSumLastNDImpl adds. */
static float row_sum(const Sm *s, int64_t p, uint32_t ori_k) {
  float lane[LANES];
  uint32_t split = ori_k / LANES, tail = ori_k % LANES;
  if (ori_k < LANES) {
    for (uint32_t j = 0; j < ori_k; j++)
      lane[j] = ldf(s, p + 4 * (int64_t)j);
    return tree(lane, LANES, (int)ori_k);
  }
  uint32_t from;
  if (ori_k >= BIG_REDUCE) { /* BlockReduceSum of the first 8 repeats */
    for (int b = 0; b < LANES; b++) {
      float blk[BLK_F];
      for (int j = 0; j < BLK_F; j++)
        blk[j] = ldf(s, p + 4 * (int64_t)(b * BLK_F + j));
      lane[b] = tree(blk, BLK_F, BLK_F);
    }
    from = 8;
  } else if (ori_k >= 2 * LANES) {
    for (int j = 0; j < LANES; j++)
      lane[j] = ldf(s, p + 4 * j) + ldf(s, p + 4 * (LANES + j));
    from = 2;
  } else {
    for (int j = 0; j < LANES; j++)
      lane[j] = ldf(s, p + 4 * j);
    from = 1;
  }
  for (uint32_t i = from; i < split; i++)
    for (int j = 0; j < LANES; j++)
      lane[j] = ldf(s, p + 4 * ((int64_t)i * LANES + j)) + lane[j];
  for (uint32_t j = 0; j < tail; j++)
    lane[j] = lane[j] + ldf(s, p + 4 * ((int64_t)split * LANES + j));
  return tree(lane, LANES, LANES);
}

static float row_max(const Sm *s, int64_t p, uint32_t ori_k) {
  float m = ldf(s, p);
  for (uint32_t j = 1; j < ori_k; j++) {
    float v = ldf(s, p + 4 * (int64_t)j);
    if (v > m || isnan(v))
      m = isnan(m) ? m : v;
  }
  return m;
}

typedef struct Red {
  int64_t dst, src, tmp; /* UB addresses: float rows */
  uint32_t rows, ori_k, k, dst_k;
} Red;

/* NewReduceMax/SumLastNDImpl(dst, src, tmp) and the broadcast after it. */
static void reduce(Sm *s, const Red *r, int sum) {
  int64_t src_b = (int64_t)r->rows * r->k * 4;
  int64_t lanes_b = (int64_t)r->rows * LANES * 4;
  int64_t dst_b = (int64_t)r->rows * r->dst_k * 4;
  int64_t rows = r->rows;
  uint32_t split = r->ori_k / LANES, tail = r->ori_k % LANES;
  if (r->ori_k < LANES) {
    step(s, sum ? ASC_OP_WHOLE_REDUCE_SUM : ASC_OP_WHOLE_REDUCE_MAX,
         ASC_DT_FLOAT32, rows * r->ori_k,
         sum ? "SoftMax (WholeReduceSum)" : "SoftMax (WholeReduceMax)", r->src,
         src_b, 0, 0, r->dst, rows * 4);
  } else {
    int add = sum ? ASC_OP_ADD_L0 : ASC_OP_MAX_L0;
    const char *fold =
        sum ? "SoftMax (ReduceSum: Add)" : "SoftMax (ReduceMax: Max)";
    if (r->ori_k >= BIG_REDUCE) {
      step(s, sum ? ASC_OP_BLOCK_REDUCE_SUM : ASC_OP_BLOCK_REDUCE_MAX,
           ASC_DT_FLOAT32, rows * BIG_REDUCE,
           sum ? "SoftMax (ReduceSum: BlockReduceSum)"
               : "SoftMax (ReduceMax: BlockReduceMax)",
           r->src, src_b, 0, 0, r->tmp, lanes_b);
      if (split > 8) {
        barrier(s);
        step(s, add, ASC_DT_FLOAT32, rows * (split - 8) * LANES, fold, r->src,
             src_b, r->tmp, lanes_b, r->tmp, lanes_b);
      }
    } else if (r->ori_k >= 2 * LANES) {
      step(s, add, ASC_DT_FLOAT32, rows * LANES, fold, r->src, src_b, 0, 0,
           r->tmp, lanes_b);
      if (split > 2) {
        barrier(s);
        step(s, add, ASC_DT_FLOAT32, rows * (split - 2) * LANES, fold, r->src,
             src_b, r->tmp, lanes_b, r->tmp, lanes_b);
      }
    } else {
      step(s, ASC_OP_COPY_L0, ASC_DT_FLOAT32, rows * LANES, "SoftMax (Copy)",
           r->src, src_b, 0, 0, r->tmp, lanes_b);
    }
    if (tail) {
      barrier(s);
      step(s, add, ASC_DT_FLOAT32, rows * tail, fold, r->src, src_b, r->tmp,
           lanes_b, r->tmp, lanes_b);
    }
    barrier(s);
    int blk = sum ? ASC_OP_BLOCK_REDUCE_SUM : ASC_OP_BLOCK_REDUCE_MAX;
    const char *bl = sum ? "SoftMax (ReduceSum: BlockReduceSum)"
                         : "SoftMax (ReduceMax: BlockReduceMax)";
    if (rows == 1) { /* WholeReduce of the lanes, 8 repeats: dst[0..8) */
      step(s, sum ? ASC_OP_WHOLE_REDUCE_SUM : ASC_OP_WHOLE_REDUCE_MAX,
           ASC_DT_FLOAT32, BLK_F * LANES,
           sum ? "SoftMax (WholeReduceSum)" : "SoftMax (WholeReduceMax)",
           r->tmp, lanes_b, 0, 0, r->dst, BLK_F * 4);
      if (r->dst_k == 2 * BLK_F) { /* DataCopy dst[8..16) = dst[0..8) */
        barrier(s);
        step(s, ASC_OP_COPY_LOCAL_TO_LOCAL, ASC_DT_FLOAT32, BLK_F,
             "SoftMax (DataCopy)", r->dst, BLK_F * 4, 0, 0, r->dst + BLK_F * 4,
             BLK_F * 4);
      }
    } else {
      step(s, blk, ASC_DT_FLOAT32, rows * LANES, bl, r->tmp, lanes_b, 0, 0,
           r->tmp, rows * BLK_F * 4);
      barrier(s);
      step(s, blk, ASC_DT_FLOAT32, rows * BLK_F, bl, r->tmp, rows * BLK_F * 4,
           0, 0, r->dst, rows * 4);
    }
  }
  /* the values, then the broadcast over each row's dst_k elements (the
   * devkit skips it for one row longer than 64, whose WholeReduce and
   * DataCopy already wrote the row's 8, or 16, elements) */
  for (uint32_t i = 0; i < r->rows; i++) {
    int64_t p = r->src + (int64_t)i * r->k * 4;
    float v = sum ? row_sum(s, p, r->ori_k) : row_max(s, p, r->ori_k);
    for (uint32_t j = 0; j < r->dst_k; j++)
      stf(s, r->dst + ((int64_t)i * r->dst_k + j) * 4, v);
  }
  if (r->rows != 1 || r->ori_k <= LANES) {
    barrier(s);
    step(s, ASC_OP_BRCB, ASC_DT_FLOAT32, rows * r->dst_k, "SoftMax (Brcb)",
         r->dst, rows * 4, 0, 0, r->tmp, dst_b);
    barrier(s);
    step(s, ASC_OP_COPY_L0, ASC_DT_FLOAT32, rows * r->dst_k, "SoftMax (Copy)",
         r->tmp, dst_b, 0, 0, r->dst, dst_b);
  }
}

/* GenericSubNDImpl / GenericDivNDImpl: d = a op b[row block] over rows of
 * k elements, b a row's dst_k-element block. */
static void bcast(Sm *s, int div, int64_t d, int64_t a, int64_t b,
                  uint32_t rows, uint32_t k, uint32_t dst_k) {
  for (uint32_t i = 0; i < rows; i++)
    for (uint32_t j = 0; j < k; j++) {
      int64_t o = ((int64_t)i * k + j) * 4;
      float x = ldf(s, a + o);
      float y = ldf(s, b + ((int64_t)i * dst_k + j % BLK_F) * 4);
      stf(s, d + o, div ? x / y : x - y);
    }
  int64_t n = (int64_t)rows * k;
  step(s, div ? ASC_OP_DIV_L0 : ASC_OP_SUB_L0, ASC_DT_FLOAT32, n,
       div ? "SoftMax (Div)" : "SoftMax (Sub)", a, n * 4, b,
       (int64_t)rows * dst_k * 4, d, n * 4);
}

static void vexp(Sm *s, int64_t d, int64_t n) {
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT32, s->ub + d, s->ub + d, n);
  step(s, ASC_OP_EXP, ASC_DT_FLOAT32, n, "SoftMax (Exp)", d, n * 4, 0, 0, d,
       n * 4);
}

/* Cast(d, a, n): half -> float exactly, float -> half CAST_ROUND. */
static void vcast(Sm *s, int64_t d, int64_t a, int64_t n, int to_half) {
  if (to_half)
    asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_ROUND, s->ub + d,
                 s->ub + a, n);
  else
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, s->ub + d,
                 s->ub + a, n);
  step(s, ASC_OP_CAST, ASC_DT_FLOAT32, n, "SoftMax (Cast)", a,
       n * (to_half ? 4 : 2), 0, 0, d, n * (to_half ? 2 : 4));
}

static uint32_t tiling_field(AscExec *x, const AscInstr *in, int f) {
  return (uint32_t)x->regs[in->a[4] + f].i;
}

/* Does tiling t describe rows of k elements, sums of per_blk? (The rows
 * it covers are the tensors' bounds checks' business.) */
static const char *tiling_mismatch(const uint32_t *t, uint32_t k,
                                   uint32_t per_blk) {
  uint64_t sm = t[ASC_SMT_SPLIT_M], tm = t[ASC_SMT_TAIL_M];
  if (!sm || !t[ASC_SMT_RANGE_M])
    return "split_m and range_m must not be 0";
  if (t[ASC_SMT_SPLIT_SIZE] != sm * k || t[ASC_SMT_TAIL_SPLIT_SIZE] != tm * k)
    return "split_size / tail_split_size are not split_m / tail_m rows of "
           "src_k";
  if (t[ASC_SMT_REDUCE_K] != per_blk)
    return "reduce_k is not the elements of one 32-byte block of sum / max";
  if (t[ASC_SMT_REDUCE_SIZE] != sm * per_blk ||
      t[ASC_SMT_TAIL_REDUCE_SIZE] != tm * per_blk)
    return "reduce_size / tail_reduce_size are not split_m / tail_m blocks";
  return NULL;
}

AscStatus sim_adv_softmax(AscExec *x, const AscInstr *in) {
  static const char api[] = "asc.adv.softmax";
  if (asc_op_attr_int(in->src, "basic_block", 0) ||
      asc_op_attr_int(in->src, "data_format_nz", 0))
    return sim_fail(x, in, "%s: basic_block / data_format_nz are not simulated",
                    api);
  const AscTensorRef *td = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *tsum = td ? sim_tensor_arg(x, in, 1, "sum") : NULL;
  const AscTensorRef *tsrc = tsum ? sim_tensor_arg(x, in, 3, "src") : NULL;
  if (!tsrc)
    return ASC_ERR_KERNEL;
  AscDType t1 = (AscDType)tsrc->dtype, t2 = (AscDType)tsum->dtype;
  uint32_t ts1 = (uint32_t)asc_dtype_size(t1),
           ts2 = (uint32_t)asc_dtype_size(t2);
  uint32_t per_blk = 32 / ts2;
  SimShapeInfo si;
  if (!sim_tensor_shape_info(x, in, 3, &si))
    return sim_fail(x, in,
                    "%s: src has no ShapeInfo (the devkit's SoftMax reads the "
                    "shape from it: src.set_shape_info(asc.ShapeInfo([m, k])))",
                    api);
  if (si.dim < 1 || si.dim > 8 || si.ori_dim < 1 || si.ori_dim > 8)
    return sim_fail(x, in,
                    "%s: src's ShapeInfo has %d dimensions (original %d), it "
                    "needs 1 to 8",
                    api, si.dim, si.ori_dim);
  /* GetLastAxisShapeND / GetLastAxisOriginShapeND: uint32_t products */
  uint64_t size = 1, ori_size = 1;
  for (int i = 0; i < si.dim; i++)
    size *= si.shape[i];
  for (int i = 0; i < si.ori_dim; i++)
    ori_size *= si.ori_shape[i];
  uint32_t k = si.shape[si.dim - 1], ori_k = si.ori_shape[si.ori_dim - 1];
  if (!k || !ori_k || size > UINT32_MAX || ori_size > UINT32_MAX)
    return sim_fail(x, in,
                    "%s: src's ShapeInfo gives an empty last axis or more than "
                    "2^32 - 1 elements",
                    api);
  uint32_t m = (uint32_t)(size / k), ori_m = (uint32_t)(ori_size / ori_k);
  if ((uint64_t)k * ts1 % 32)
    return sim_fail(x, in,
                    "%s: the last axis of src (%u elements of %s) must be a "
                    "multiple of 32 bytes (pad the rows; the original shape "
                    "says which elements take part)",
                    api, k, asc_dtype_name(t1));
  if (ori_k > k || ori_m > m || !ori_m)
    return sim_fail(x, in,
                    "%s: src's original shape (%u rows of %u) must fit within "
                    "its shape (%u rows of %u)",
                    api, ori_m, ori_k, m, k);
  int64_t work, work_bytes;
  if (in->n_args > 5) {
    const AscTensorRef *tt = sim_tensor_arg(x, in, 5, "temp_buffer");
    if (!tt || !sim_vec_operand(x, in, 5, tt->len, 1, "temp_buffer"))
      return ASC_ERR_KERNEL;
    work = tt->addr;
    work_bytes = tt->len;
  } else { /* PopStackBuffer: the UB the TPipe did not allocate */
    work = sim_adv_stack_buffer(x, in, &work_bytes);
    if (work < 0)
      return ASC_ERR_KERNEL;
  }
  uint32_t work_floats = (uint32_t)(work_bytes / 4);
  uint32_t t[ASC_SMT_COUNT];
  for (int f = 0; f < ASC_SMT_COUNT; f++)
    t[f] = tiling_field(x, in, f);
  if (k != t[ASC_SMT_SRC_K] || m != t[ASC_SMT_SRC_M]) {
    if (!asc_softmax_kernel_tiling(work_floats, m, k, ori_m, ts1, ts2, t))
      return sim_fail(x, in,
                      "%s: the temporary buffer (%lld bytes%s) holds no row "
                      "of src (%u elements of %s; the devkit asserts "
                      "\"softmax need min tmpbuffer is not enough\"; "
                      "asc.lib.host.get_softmax_min_tmp_size)",
                      api, (long long)work_bytes,
                      in->n_args > 5 ? "" : ", the UB above the TPipe's", k,
                      asc_dtype_name(t1));
  } else {
    const char *why = tiling_mismatch(t, k, per_blk);
    if (why)
      return sim_fail(x, in, "%s: the tiling does not fit src: %s", api, why);
  }
  /* the elements the devkit touches: the tiling's rows */
  int64_t rows_done =
      (int64_t)t[ASC_SMT_SPLIT_M] * t[ASC_SMT_RANGE_M] + t[ASC_SMT_TAIL_M];
  int64_t n_src = rows_done * k, n_red = rows_done * per_blk;
  uint8_t *p = sim_vec_operand(x, in, 0, n_src, 1, "dst");
  p = p ? sim_vec_operand(x, in, 1, n_red, 1, "sum") : NULL;
  p = p ? sim_vec_operand(x, in, 2, n_red, 1, "max") : NULL;
  p = p ? sim_vec_operand(x, in, 3, n_src, 0, "src") : NULL;
  if (!p)
    return ASC_ERR_KERNEL;
  uint64_t sm = t[ASC_SMT_SPLIT_M];
  uint64_t need = t1 == ASC_DT_FLOAT32 ? sm * LANES
                  : t2 == ASC_DT_FLOAT16
                      ? t[ASC_SMT_SPLIT_SIZE] +
                            (uint64_t)t[ASC_SMT_REDUCE_SIZE] + sm * LANES
                      : t[ASC_SMT_SPLIT_SIZE] + sm * LANES;
  if (need > work_floats)
    return sim_fail(x, in,
                    "%s: the temporary buffer has %lld bytes, the tiling "
                    "(split_m = %u rows) needs %llu (%s)",
                    api, (long long)work_bytes, t[ASC_SMT_SPLIT_M],
                    (unsigned long long)need * 4,
                    in->n_args > 5 ? "asc.lib.host.get_softmax_min_tmp_size"
                                   : "the UB above the TPipe's buffers");
  Sm s = {.x = x, .in = in, .ub = x->b->ub};
  sim_vseq_begin(&s.q, x, in);
  int64_t a_dst = td->addr, a_sum = tsum->addr;
  int64_t a_max = ASC_SLOT(x, in, 2).t.addr, a_src = tsrc->addr;
  uint32_t rk = t[ASC_SMT_REDUCE_K];
  int64_t w_split = (int64_t)t[ASC_SMT_SPLIT_SIZE] * 4;
  for (uint32_t c = 0; c <= t[ASC_SMT_RANGE_M] && !s.failed; c++) {
    uint32_t rows =
        c < t[ASC_SMT_RANGE_M] ? t[ASC_SMT_SPLIT_M] : t[ASC_SMT_TAIL_M];
    if (!rows)
      break;
    if (c)
      barrier(&s);
    int64_t off1 = (int64_t)c * t[ASC_SMT_SPLIT_SIZE];
    int64_t off2 = (int64_t)c * t[ASC_SMT_REDUCE_SIZE];
    int64_t n = (int64_t)rows * k;
    if (t1 == ASC_DT_FLOAT32) {
      int64_t d = a_dst + off1 * 4, sr = a_src + off1 * 4;
      int64_t mx = a_max + off2 * 4, su = a_sum + off2 * 4;
      reduce(&s, &(Red){mx, sr, work, rows, ori_k, k, rk}, 0);
      barrier(&s);
      bcast(&s, 0, d, sr, mx, rows, k, rk);
      barrier(&s);
      vexp(&s, d, n);
      barrier(&s);
      reduce(&s, &(Red){su, d, work, rows, ori_k, k, rk}, 1);
      barrier(&s);
      bcast(&s, 1, d, d, su, rows, k, rk);
      continue;
    }
    int64_t w0 = work, d = a_dst + off1 * 2, sr = a_src + off1 * 2;
    vcast(&s, w0, sr, n, 0);
    barrier(&s);
    if (t2 == ASC_DT_FLOAT16) {
      int64_t w2 = work + w_split;
      int64_t w3 = w2 + (int64_t)t[ASC_SMT_REDUCE_SIZE] * 4;
      int64_t nr = (int64_t)rows * rk;
      reduce(&s, &(Red){w2, w0, w3, rows, ori_k, k, rk}, 0);
      barrier(&s);
      vcast(&s, a_max + off2 * 2, w2, nr, 1);
      barrier(&s);
      bcast(&s, 0, w0, w0, w2, rows, k, rk);
      barrier(&s);
      vexp(&s, w0, n);
      barrier(&s);
      reduce(&s, &(Red){w2, w0, w3, rows, ori_k, k, rk}, 1);
      barrier(&s);
      vcast(&s, a_sum + off2 * 2, w2, nr, 1);
      barrier(&s);
      bcast(&s, 1, w0, w0, w2, rows, k, rk);
    } else {
      int64_t w1 = work + w_split;
      int64_t mx = a_max + off2 * 4, su = a_sum + off2 * 4;
      reduce(&s, &(Red){mx, w0, w1, rows, ori_k, k, rk}, 0);
      barrier(&s);
      bcast(&s, 0, w0, w0, mx, rows, k, rk);
      barrier(&s);
      vexp(&s, w0, n);
      barrier(&s);
      reduce(&s, &(Red){su, w0, w1, rows, ori_k, k, rk}, 1);
      barrier(&s);
      bcast(&s, 1, w0, w0, su, rows, k, rk);
    }
    barrier(&s);
    vcast(&s, d, w0, n, 1);
  }
  if (s.failed)
    return ASC_ERR_KERNEL;
  sim_vseq_end(&s.q);
  return ASC_OK;
}
