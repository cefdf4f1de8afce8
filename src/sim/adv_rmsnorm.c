/* family: adv normquant. asc.adv.rmsnorm: the devkit's RmsNorm<T,
 * isBasicBlock> on the Ascend910B
 * (impl/adv_api/detail/normalization/rmsnorm/rmsnorm_common_impl.h and
 * rmsnorm_v220_impl.h), run as its sequence of basic vector instructions
 * in counter mode over the rows of the tiling's rounds (loopRound rounds of
 * mainBsLength rows, then tailBsLength rows), all in float:
 *
 *   [Cast half -> float of x]           into tmp's third part (half only)
 *   Mul x * x                           into tmp's second part
 *   the sum of each row's originalHLength squares (RepeatReduceSum, a tree
 *     of adjacent pairs per 64 floats, repeated on the partial sums until
 *     one is left; basic block: Adds of the row's 64-float blocks into its
 *     first, then one RepeatReduceSum)  into tmp's first part
 *   Muls by reciprocalOfHLength, Adds epsilon, Ln, Muls -0.5, Exp
 *     (the devkit's rsqrt: exp(-0.5 * ln(mean + eps)))
 *   x * that, row by row (Muls with the row's value read by the scalar
 *     unit; basic block with many rows: Brcb, Adds 0, one Mul)
 *   [Cast half -> float of gamma,] * gamma along each row, [Cast float ->
 *     half into dst]
 *
 * with PipeBarrier<PIPE_V> where the devkit has them; every float operation
 * rounds to nearest even (Ln and Exp are vecmath.c's). The temporary is
 * the tiling's: mainBsLengthAlign floats for the row sums, then
 * mainBshLength floats, then (half) mainBshLength floats more. */
#include <math.h>
#include <string.h>

#include "adv_normquant.h"
#include "checked.h"
#include "vecmath.h"

enum { BLK_H = 64, BLK_BS = 8, F32_PER_REPEAT = 64 };

/* the RmsNormTiling fields in the struct table's order */
enum {
  T_B,
  T_S,
  T_H,
  T_ORIG_H,
  T_RECIP,
  T_MAIN_BSH,
  T_MAIN_BS,
  T_MAIN_BS_ALIGN,
  T_LOOP,
  T_TAIL_POS,
  T_TAIL_BSH,
  T_TAIL_BS,
  T_NFIELDS
};

typedef struct Norm {
  AscExec *x;
  const AscInstr *in;
  SimAdvSeq seq;
  AscDType dt;
  int basic;
  int64_t h, orig_h;
  float recip, eps;
  int64_t red, tmp, x32; /* UB addresses of tmp's three parts */
  int64_t gamma;
} Norm;

static float ldf(const Norm *n, int64_t addr) {
  float v;
  memcpy(&v, n->x->b->ub + addr, 4);
  return v;
}
static void stf(const Norm *n, int64_t addr, float v) {
  memcpy(n->x->b->ub + addr, &v, 4);
}
static uint8_t *ub(const Norm *n, int64_t addr) { return n->x->b->ub + addr; }

/* The sum of one repeat of RepeatReduceSum: the tree of adjacent pairs
 * over the first m (<= 64) lanes, the others taking no part. */
static float repeat_sum(const Norm *n, int64_t addr, int64_t m) {
  float v[F32_PER_REPEAT];
  int p[F32_PER_REPEAT];
  for (int i = 0; i < F32_PER_REPEAT; i++) {
    p[i] = i < m;
    v[i] = p[i] ? ldf(n, addr + 4 * i) : 0.0f;
  }
  for (int w = F32_PER_REPEAT; w > 1; w /= 2)
    for (int i = 0; i < w; i += 2) {
      v[i / 2] = p[i] && p[i + 1] ? v[i] + v[i + 1] : p[i] ? v[i] : v[i + 1];
      p[i / 2] = p[i] || p[i + 1];
    }
  return v[0];
}

static int op(Norm *n, int code, int64_t elems, const char *label, SimUbSpan a,
              SimUbSpan b, SimUbSpan c, int n_spans) {
  SimUbSpan sp[3] = {a, b, c};
  return sim_adv_op(&n->seq, code, ASC_DT_FLOAT32, elems, label, sp, n_spans);
}
static SimUbSpan rd(int64_t addr, int64_t floats) {
  return sim_adv_span(addr, floats * 4, 0);
}
static SimUbSpan wr(int64_t addr, int64_t floats) {
  return sim_adv_span(addr, floats * 4, 1);
}

/* step 2: the row sums of tmp into red */
static int reduce(Norm *n, int64_t bs) {
  int64_t h = n->h;
  if (n->basic) {
    for (int64_t i = 1; i < h / BLK_H; i++) {
      for (int64_t r = 0; r < bs; r++)
        for (int64_t j = 0; j < BLK_H; j++) {
          int64_t a = n->tmp + 4 * (r * h + j);
          stf(n, a, ldf(n, a) + ldf(n, a + 4 * i * BLK_H));
        }
      if (!op(n, ASC_OP_ADD, bs * BLK_H, "RmsNorm (Add)", rd(n->tmp, bs * h),
              wr(n->tmp, bs * h), wr(0, 0), 2))
        return 0;
      sim_adv_barrier(&n->seq);
    }
    for (int64_t r = 0; r < bs; r++)
      stf(n, n->red + 4 * r, repeat_sum(n, n->tmp + 4 * r * h, BLK_H));
    if (!op(n, ASC_OP_REPEAT_REDUCE_SUM, bs * BLK_H,
            "RmsNorm (RepeatReduceSum)", rd(n->tmp, bs * h), wr(n->red, bs),
            wr(0, 0), 2))
      return 0;
    sim_adv_barrier(&n->seq);
    return 1;
  }
  for (int64_t r = 0; r < bs; r++) {
    int64_t total = n->orig_h;
    int64_t src = n->tmp + 4 * r * h, dst = src;
    while (total > 1) {
      if (total <= F32_PER_REPEAT)
        dst = n->red + 4 * r;
      int64_t reps = (total + F32_PER_REPEAT - 1) / F32_PER_REPEAT;
      for (int64_t k = 0; k < reps; k++) {
        int64_t m = total - k * F32_PER_REPEAT;
        float v = repeat_sum(n, src + 4 * k * F32_PER_REPEAT,
                             m < F32_PER_REPEAT ? m : F32_PER_REPEAT);
        stf(n, dst + 4 * k, v);
      }
      if (!op(n, ASC_OP_REPEAT_REDUCE_SUM, total, "RmsNorm (RepeatReduceSum)",
              rd(src, total), wr(dst, reps), wr(0, 0), 2))
        return 0;
      sim_adv_barrier(&n->seq);
      total = reps;
    }
  }
  return 1;
}

/* steps 3-5 on the bs row sums: 1 / sqrt(mean + eps) */
static int rsqrt_rows(Norm *n, int64_t bs) {
  AscScalar s = {.f = n->recip};
  asc_vec_scalar(ASC_VSCA_MULS, ASC_DT_FLOAT32, ub(n, n->red), ub(n, n->red), s,
                 bs);
  if (!op(n, ASC_OP_MULS, bs, "RmsNorm (Muls)", rd(n->red, bs), wr(n->red, bs),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  s.f = n->eps;
  asc_vec_scalar(ASC_VSCA_ADDS, ASC_DT_FLOAT32, ub(n, n->red), ub(n, n->red), s,
                 bs);
  if (!op(n, ASC_OP_ADDS, bs, "RmsNorm (Adds)", rd(n->red, bs), wr(n->red, bs),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  asc_vec_unary(ASC_VUN_LN, ASC_DT_FLOAT32, ub(n, n->red), ub(n, n->red), bs);
  if (!op(n, ASC_OP_LN, bs, "RmsNorm (Ln)", rd(n->red, bs), wr(n->red, bs),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  s.f = -0.5;
  asc_vec_scalar(ASC_VSCA_MULS, ASC_DT_FLOAT32, ub(n, n->red), ub(n, n->red), s,
                 bs);
  if (!op(n, ASC_OP_MULS, bs, "RmsNorm (Muls)", rd(n->red, bs), wr(n->red, bs),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  asc_vec_unary(ASC_VUN_EXP, ASC_DT_FLOAT32, ub(n, n->red), ub(n, n->red), bs);
  if (!op(n, ASC_OP_EXP, bs, "RmsNorm (Exp)", rd(n->red, bs), wr(n->red, bs),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  return 1;
}

/* step 7: tmp = x * the row's value */
static int scale_rows(Norm *n, int64_t bs) {
  int64_t h = n->h;
  for (int64_t r = 0; r < bs; r++) {
    float v = ldf(n, n->red + 4 * r);
    for (int64_t j = 0; j < h; j++) {
      int64_t e = 4 * (r * h + j);
      stf(n, n->tmp + e, ldf(n, n->x32 + e) * v);
    }
  }
  if (n->basic && bs > BLK_BS && bs > h / BLK_H) {
    /* Brcb of the row values into each row's first block, Adds 0 copying
     * it along the row, one Mul by x (the products are the same) */
    if (!op(n, ASC_OP_BRCB, bs * 8, "RmsNorm (Brcb)", rd(n->red, bs),
            wr(n->tmp, bs * h), wr(0, 0), 2))
      return 0;
    sim_adv_barrier(&n->seq);
    for (int64_t i = 0; i < h / BLK_H; i++)
      if (!op(n, ASC_OP_ADDS, bs * BLK_H, "RmsNorm (Adds)", rd(n->tmp, bs * h),
              wr(n->tmp, bs * h), wr(0, 0), 2))
        return 0;
    sim_adv_barrier(&n->seq);
    if (!op(n, ASC_OP_MUL, bs * h, "RmsNorm (Mul)", rd(n->tmp, bs * h),
            rd(n->x32, bs * h), wr(n->tmp, bs * h), 3))
      return 0;
    sim_adv_barrier(&n->seq);
  } else {
    for (int64_t r = 0; r < bs; r++)
      if (!op(n, ASC_OP_MULS, h, "RmsNorm (Muls)", rd(n->x32 + 4 * r * h, h),
              rd(n->red + 4 * r, 1), wr(n->tmp + 4 * r * h, h), 3))
        return 0;
    sim_adv_barrier(&n->seq);
  }
  sim_adv_barrier(&n->seq);
  return 1;
}

/* step 8: out[r, j] = tmp[r, j] * g[j] (g: float gamma at g32), as the
 * devkit's RmsNormLastAxisBrcMul issues it */
static int gamma_rows(Norm *n, int64_t bs, int64_t out, int64_t g32) {
  int64_t h = n->h;
  for (int64_t r = 0; r < bs; r++)
    for (int64_t j = 0; j < h; j++) {
      int64_t e = 4 * (r * h + j);
      stf(n, out + e, ldf(n, n->tmp + e) * ldf(n, g32 + 4 * j));
    }
  SimUbSpan src = rd(n->tmp, bs * h), g = rd(g32, h), dst = wr(out, bs * h);
  const char *l = "RmsNorm (Mul)";
  int64_t loop = h / BLK_H;
  if (!n->basic && h <= BLK_H) { /* one Mul: counter or bs repeats */
    if (!op(n, ASC_OP_MUL, bs * h, l, src, g, dst, 3))
      return 0;
  } else if (loop >= bs) {
    for (int64_t r = 0; r < bs; r++)
      if (!op(n, ASC_OP_MUL, h, l, rd(n->tmp + 4 * r * h, h), g,
              wr(out + 4 * r * h, h), 3))
        return 0;
  } else {
    for (int64_t i = 0; i < loop; i++)
      if (!op(n, ASC_OP_MUL, bs * BLK_H, l, src, g, dst, 3))
        return 0;
    if (h % BLK_H && !op(n, ASC_OP_MUL, bs * (h % BLK_H), l, src, g, dst, 3))
      return 0;
  }
  sim_adv_barrier(&n->seq);
  return 1;
}

/* One round: bs rows from element e of src and dst. */
static int compute(Norm *n, int64_t e, int64_t bs, int64_t src, int64_t dst) {
  int64_t bsh = bs * n->h;
  if (n->dt == ASC_DT_FLOAT16) {
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, ub(n, n->x32),
                 ub(n, src + 2 * e), bsh);
    if (!op(n, ASC_OP_CAST, bsh, "RmsNorm (Cast)",
            sim_adv_span(src + 2 * e, bsh * 2, 0), wr(n->x32, bsh), wr(0, 0),
            2))
      return 0;
    sim_adv_barrier(&n->seq);
  } else {
    n->x32 = src + 4 * e;
  }
  asc_vec_binary(ASC_VBIN_MUL, ASC_DT_FLOAT32, ub(n, n->tmp), ub(n, n->x32),
                 ub(n, n->x32), bsh);
  if (!op(n, ASC_OP_MUL, bsh, "RmsNorm (Mul)", rd(n->x32, bsh), wr(n->tmp, bsh),
          wr(0, 0), 2))
    return 0;
  sim_adv_barrier(&n->seq);
  if (!reduce(n, bs) || !rsqrt_rows(n, bs) || !scale_rows(n, bs))
    return 0;
  if (n->dt == ASC_DT_FLOAT16) {
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, ub(n, n->x32),
                 ub(n, n->gamma), n->h);
    if (!op(n, ASC_OP_CAST, n->h, "RmsNorm (Cast)",
            sim_adv_span(n->gamma, n->h * 2, 0), wr(n->x32, n->h), wr(0, 0), 2))
      return 0;
    sim_adv_barrier(&n->seq);
    if (!gamma_rows(n, bs, n->tmp, n->x32))
      return 0;
    asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, ASC_ROUND_NONE,
                 ub(n, dst + 2 * e), ub(n, n->tmp), bsh);
    if (!op(n, ASC_OP_CAST, bsh, "RmsNorm (Cast)", rd(n->tmp, bsh),
            sim_adv_span(dst + 2 * e, bsh * 2, 1), wr(0, 0), 2))
      return 0;
  } else if (!gamma_rows(n, bs, dst + 4 * e, n->gamma)) {
    return 0;
  }
  sim_adv_barrier(&n->seq);
  return 1;
}

static uint32_t field_u(AscExec *x, const AscInstr *in, const AscStructInfo *si,
                        int f) {
  return (uint32_t)x->regs[in->a[4] + si->fields[f].slot].i;
}

/* Operands: dst, src, gamma, epsilon, tiling, [shared_tmp_buffer];
 * attribute basic_block (isBasicBlock). */
AscStatus sim_adv_rmsnorm(AscExec *x, const AscInstr *in) {
  const AscStructInfo *si = asc_struct_info(ASC_STRUCT_RMS_NORM_TILING);
  if (!si || si->n_fields != T_NFIELDS)
    return sim_fail(x, in, "RmsNorm: the RmsNormTiling struct is unknown");
  Norm n;
  memset(&n, 0, sizeof n);
  n.x = x;
  n.in = in;
  n.basic = asc_op_attr_int(in->src, "basic_block", 0) != 0;
  const AscTensorRef *dt = sim_tensor_arg(x, in, 0, "dst");
  const AscTensorRef *st = dt ? sim_tensor_arg(x, in, 1, "src") : NULL;
  const AscTensorRef *gt = st ? sim_tensor_arg(x, in, 2, "gamma") : NULL;
  if (!gt)
    return ASC_ERR_KERNEL;
  n.dt = (AscDType)st->dtype;
  if (n.dt != ASC_DT_FLOAT16 && n.dt != ASC_DT_FLOAT32)
    return sim_fail(x, in, "RmsNorm only takes half or float");
  int64_t es = (int64_t)asc_dtype_size(n.dt);
  uint32_t b = field_u(x, in, si, T_B), s = field_u(x, in, si, T_S);
  n.h = field_u(x, in, si, T_H);
  n.orig_h = field_u(x, in, si, T_ORIG_H);
  n.recip = (float)x->regs[in->a[4] + si->fields[T_RECIP].slot].f;
  int64_t main_bsh = field_u(x, in, si, T_MAIN_BSH);
  int64_t main_bs = field_u(x, in, si, T_MAIN_BS);
  int64_t bs_align = field_u(x, in, si, T_MAIN_BS_ALIGN);
  int64_t loops = field_u(x, in, si, T_LOOP);
  int64_t tail_pos = field_u(x, in, si, T_TAIL_POS);
  int64_t tail_bsh = field_u(x, in, si, T_TAIL_BSH);
  int64_t tail_bs = field_u(x, in, si, T_TAIL_BS);
  double eps = ASC_SLOT(x, in, 3).f;
  n.eps = n.dt == ASC_DT_FLOAT16 ? asc_f16_to_f32(asc_f32_to_f16((float)eps))
                                 : (float)eps;
  /* uint32 fields: their products may pass int64's range */
  int64_t rows, total, main_prod, tail_prod, covered, ends;
  int overflow = asc_mul_i64(b, s, &rows) || asc_mul_i64(rows, n.h, &total) ||
                 asc_mul_i64(main_bs, n.h, &main_prod) ||
                 asc_mul_i64(tail_bs, n.h, &tail_prod) ||
                 asc_mul_i64(loops, main_bsh, &covered) ||
                 asc_add_i64(covered, tail_bsh, &ends);
  if (overflow || n.h == 0 || (n.h * es) % 32 || n.orig_h == 0 ||
      n.orig_h > n.h || main_bsh != main_prod || tail_bsh != tail_prod ||
      ends != total || tail_pos != covered || (main_bs == 0 && loops) ||
      bs_align < main_bs || bs_align % 8)
    return sim_fail(x, in,
                    "RmsNorm: the tiling (b %u, s %u, h %lld, "
                    "original h %lld, %lld rounds of %lld rows, %lld tail "
                    "rows) is not one GetRmsNormTilingInfo makes: h must be "
                    "32-byte aligned and at least the original h, the rounds "
                    "must cover b * s rows",
                    b, s, (long long)n.h, (long long)n.orig_h, (long long)loops,
                    (long long)main_bs, (long long)tail_bs);
  if (n.basic &&
      (n.h % BLK_H || n.h / 8 > 255 || (main_bs > BLK_BS && main_bs % BLK_BS) ||
       (tail_bs > BLK_BS && tail_bs % BLK_BS)))
    return sim_fail(x, in,
                    "RmsNorm<isBasicBlock>: h (%lld) must be a "
                    "multiple of 64 below 2048 and the rows of a round a "
                    "multiple of 8",
                    (long long)n.h);
  if (!n.basic && n.h < BLK_H && (main_bs > 255 || tail_bs > 255))
    return sim_fail(x, in,
                    "RmsNorm: more than 255 rows in a round (the "
                    "repeat limit of its Mul for h < 64)");
  if (!sim_vec_operand(x, in, 0, total, 1, "dst") ||
      !sim_vec_operand(x, in, 1, total, 0, "src") ||
      !sim_vec_operand(x, in, 2, n.h, 0, "gamma"))
    return ASC_ERR_KERNEL;
  int64_t tmp_addr, tmp_bytes;
  if (!sim_adv_tmp(x, in, 5, &tmp_addr, &tmp_bytes))
    return ASC_ERR_KERNEL;
  int64_t need = 4 * (bs_align + main_bsh * (n.dt == ASC_DT_FLOAT16 ? 2 : 1));
  if (tmp_bytes < need)
    return sim_fail(x, in,
                    "RmsNorm: the temporary buffer has %lld bytes but "
                    "the tiling uses %lld (at least what "
                    "GetRmsNormMaxMinTmpSize gives as the minimum; "
                    "GetRmsNormTilingInfo sizes the rounds to the buffer it "
                    "is told)",
                    (long long)tmp_bytes, (long long)need);
  n.red = tmp_addr;
  n.tmp = tmp_addr + 4 * bs_align;
  n.x32 = n.tmp + 4 * main_bsh;
  n.gamma = gt->addr;
  int64_t x32_half = n.x32;
  sim_adv_begin(&n.seq, x, in);
  int ok = 1;
  for (int64_t i = 0; ok && i < loops; i++)
    ok = compute(&n, i * main_bsh, main_bs, st->addr, dt->addr);
  if (ok && tail_bs) {
    n.x32 = x32_half;
    ok = compute(&n, tail_pos, tail_bs, st->addr, dt->addr);
  }
  return sim_adv_end(&n.seq);
}
