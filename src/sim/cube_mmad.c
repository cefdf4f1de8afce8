/* family: matmul. Mmad's arithmetic (cube_mmad.h).
 *
 * The fast path converts L0A and L0B to fp32 (int32 for 8-bit inputs) once
 * per instruction, repacks A row by row (each row's k values contiguous)
 * and B into panels of NR columns (each k's NR values contiguous, columns
 * past n zero), then computes MR x NR tiles of C: MR * NR / 16 vector
 * accumulators, each product added to its accumulator in k order. The
 * products are multiplied and then added: this build is ISO C, where the
 * compiler does not contract a * b + c, except in the half inputs' loop,
 * where a product is exact in fp32 and a fused multiply-add gives the same
 * bits (for bfloat16, whose products can underflow, and float it would
 * not). So every element gets the very roundings of the scalar reference,
 * in the same order: the results are identical bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "cube.h"
#include "cube_mmad.h"
#include "vecmath.h"

enum { NR = 32, MR = 6, VL = 16 };

/* One vector of 16 lanes: a zmm register with AVX-512, two ymm with AVX2,
 * four xmm in the baseline (GCC vector extensions). */
typedef float vf __attribute__((vector_size(VL * sizeof(float))));
typedef uint32_t vu __attribute__((vector_size(VL * sizeof(uint32_t))));

/* Compiled for AVX-512, AVX2 and the baseline (as vecmath.c's loops). */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) &&          \
    !defined(__SANITIZE_ADDRESS__)
#define MMAD_LOOP __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MMAD_LOOP
#endif

/* Unaligned loads and stores (memcpy compiles to one vector move). The
 * vectors are never passed by value between functions: a 64-byte vector
 * argument's ABI depends on the target. */
#define LD(v, p) memcpy(&(v), (p), sizeof(v))
#define ST(p, v) memcpy((p), &(v), sizeof(v))

/* c[MR rows][NR] (rows ldc apart) += a[MR rows][k] (rows k apart) *
 * b[k][NR]; rows: how many of the MR rows exist. Inlined into the two
 * functions below, which compile it without and with contraction. */
static inline __attribute__((always_inline)) void
tile_body(int rows, int64_t k, const float *a, const float *b, float *c,
          int64_t ldc) {
  if (rows == MR) {
    vf c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
    LD(c00, c);
    LD(c01, c + VL);
    LD(c10, c + ldc);
    LD(c11, c + ldc + VL);
    LD(c20, c + 2 * ldc);
    LD(c21, c + 2 * ldc + VL);
    LD(c30, c + 3 * ldc);
    LD(c31, c + 3 * ldc + VL);
    LD(c40, c + 4 * ldc);
    LD(c41, c + 4 * ldc + VL);
    LD(c50, c + 5 * ldc);
    LD(c51, c + 5 * ldc + VL);
    const float *a0 = a, *a1 = a + k, *a2 = a + 2 * k, *a3 = a + 3 * k;
    const float *a4 = a + 4 * k, *a5 = a + 5 * k;
    for (int64_t j = 0; j < k; j++) {
      vf b0, b1;
      LD(b0, b + j * NR);
      LD(b1, b + j * NR + VL);
      c00 = c00 + a0[j] * b0;
      c01 = c01 + a0[j] * b1;
      c10 = c10 + a1[j] * b0;
      c11 = c11 + a1[j] * b1;
      c20 = c20 + a2[j] * b0;
      c21 = c21 + a2[j] * b1;
      c30 = c30 + a3[j] * b0;
      c31 = c31 + a3[j] * b1;
      c40 = c40 + a4[j] * b0;
      c41 = c41 + a4[j] * b1;
      c50 = c50 + a5[j] * b0;
      c51 = c51 + a5[j] * b1;
    }
    ST(c, c00);
    ST(c + VL, c01);
    ST(c + ldc, c10);
    ST(c + ldc + VL, c11);
    ST(c + 2 * ldc, c20);
    ST(c + 2 * ldc + VL, c21);
    ST(c + 3 * ldc, c30);
    ST(c + 3 * ldc + VL, c31);
    ST(c + 4 * ldc, c40);
    ST(c + 4 * ldc + VL, c41);
    ST(c + 5 * ldc, c50);
    ST(c + 5 * ldc + VL, c51);
    return;
  }
  for (int r = 0; r < rows; r++) {
    float *cr = c + r * ldc;
    const float *ar = a + r * k;
    vf c0, c1, b0, b1;
    LD(c0, cr);
    LD(c1, cr + VL);
    for (int64_t j = 0; j < k; j++) {
      LD(b0, b + j * NR);
      LD(b1, b + j * NR + VL);
      c0 = c0 + ar[j] * b0;
      c1 = c1 + ar[j] * b1;
    }
    ST(cr, c0);
    ST(cr + VL, c1);
  }
}

/* bfloat16 and float inputs: each product rounded, then added. */
MMAD_LOOP static void tile_f32(int rows, int64_t k, const float *a,
                               const float *b, float *c, int64_t ldc) {
  tile_body(rows, k, a, b, c, ldc);
}

/* half inputs: a product of two halves is exact in fp32, so a fused
 * multiply-add rounds exactly as the product's addition does; the compiler
 * may fuse them here (it does where the target has FMA). */
MMAD_LOOP __attribute__((optimize("fp-contract=fast"))) static void
tile_f16(int rows, int64_t k, const float *a, const float *b, float *c,
         int64_t ldc) {
  tile_body(rows, k, a, b, c, ldc);
}

/* The same in wrapping 32-bit integers (the products of 8-bit values are
 * exact; unsigned arithmetic wraps as the hardware's accumulator). */
MMAD_LOOP static void tile_i32(int rows, int64_t k, const uint32_t *a,
                               const uint32_t *b, uint32_t *c, int64_t ldc) {
  for (int r = 0; r < rows; r++) {
    uint32_t *cr = c + r * ldc;
    const uint32_t *ar = a + r * k;
    vu c0, c1, b0, b1;
    LD(c0, cr);
    LD(c1, cr + VL);
    for (int64_t j = 0; j < k; j++) {
      LD(b0, b + j * NR);
      LD(b1, b + j * NR + VL);
      c0 = c0 + ar[j] * b0;
      c1 = c1 + ar[j] * b1;
    }
    ST(cr, c0);
    ST(cr + VL, c1);
  }
}

/* n elements of type dt from s as fp32 (the bits of int32 for 8-bit
 * types) in d. */
static void widen(AscDType dt, const uint8_t *s, uint32_t *d, int64_t n) {
  switch (dt) {
  case ASC_DT_FLOAT16: /* exact; the vectorised conversion */
    asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT16, ASC_ROUND_NONE, d, s, n);
    break;
  case ASC_DT_BFLOAT16:
    for (int64_t i = 0; i < n; i++) {
      uint16_t h;
      memcpy(&h, s + 2 * i, 2);
      d[i] = (uint32_t)h << 16;
    }
    break;
  case ASC_DT_FLOAT32:
    memcpy(d, s, (size_t)n * 4);
    break;
  case ASC_DT_INT8:
    for (int64_t i = 0; i < n; i++)
      d[i] = (uint32_t)(int32_t)(int8_t)s[i];
    break;
  default: /* uint8 */
    for (int64_t i = 0; i < n; i++)
      d[i] = s[i];
    break;
  }
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int sim_mmad_compute(const SimMmad *p, const uint8_t *a, const uint8_t *b,
                     uint8_t *c) {
  int64_t m = p->m, n = p->n, k = p->k;
  if (m <= 0 || n <= 0 || k <= 0)
    return 1;
  int integer = p->in == ASC_DT_INT8 || p->in == ASC_DT_UINT8;
  int64_t es = (int64_t)asc_dtype_size(p->in), k0 = 32 / es;
  int64_t m1 = ceil_div(m, 16), n1 = ceil_div(n, 16), k1 = ceil_div(k, k0);
  int64_t np = ceil_div(n, NR), ldc = np * NR;
  int64_t na = m1 * k1 * 16 * k0, nb = k1 * n1 * 16 * k0;
  /* one allocation: A and B widened in their layouts, the repacked A, the
   * B panels, C row-major */
  size_t words = (size_t)(na + nb + m * k + np * k * NR + m * ldc);
  uint32_t *w = malloc(words * sizeof *w);
  if (!w)
    return 0;
  uint32_t *wa = w, *wb = wa + na, *ap = wb + nb, *bp = ap + m * k;
  uint32_t *cr = bp + np * k * NR;
  widen(p->in, a, wa, na);
  widen(p->in, b, wb, nb);
  if (p->hf32 && p->in == ASC_DT_FLOAT32) { /* both operands in HF32 */
    for (int64_t i = 0; i < na + nb; i++) {
      float f;
      memcpy(&f, &wa[i], 4);
      f = sim_hf32_round(f, p->hf32_trans);
      memcpy(&wa[i], &f, 4);
    }
  }
  /* A: ZZ fractal (i/16, j/k0) row-major -> row i's k values */
  for (int64_t i = 0; i < m; i++)
    for (int64_t kb = 0; kb < k1; kb++) {
      int64_t len = k - kb * k0 < k0 ? k - kb * k0 : k0;
      memcpy(ap + i * k + kb * k0,
             wa + ((i / 16) * k1 + kb) * 16 * k0 + (i % 16) * k0,
             (size_t)len * 4);
    }
  /* B: ZN fractal (j/k0, c/16) column-major -> panel c/NR, row j (row by
   * row: each row's 16 values are stored together) */
  memset(bp, 0, (size_t)(np * k * NR) * 4);
  for (int64_t kb = 0; kb < k1; kb++)
    for (int64_t nb1 = 0; nb1 < n1; nb1++) {
      const uint32_t *f = wb + (kb * n1 + nb1) * 16 * k0;
      int64_t cols = n - nb1 * 16 < 16 ? n - nb1 * 16 : 16;
      int64_t rows = k - kb * k0 < k0 ? k - kb * k0 : k0;
      uint32_t *dst =
          bp + (nb1 * 16 / NR) * k * NR + kb * k0 * NR + (nb1 * 16) % NR;
      for (int64_t jj = 0; jj < rows; jj++)
        for (int64_t cc = 0; cc < cols; cc++)
          dst[jj * NR + cc] = f[cc * k0 + jj];
    }
  /* the starts of the sums (columns past n: zero, never stored) */
  for (int64_t i = 0; i < m; i++) {
    uint32_t *row = cr + i * ldc;
    memset(row + n, 0, (size_t)(ldc - n) * 4);
    if (p->init) {
      memset(row, 0, (size_t)n * 4);
    } else if (p->bias) {
      memcpy(row, p->bias, (size_t)n * 4);
    } else {
      for (int64_t cb = 0; cb < n1; cb++) {
        const uint8_t *f = c + ((cb * m1 + i / 16) * 256 + (i % 16) * 16) * 4;
        if (n - cb * 16 >= 16)
          memcpy(row + cb * 16, f, 64); /* inlined */
        else
          memcpy(row + cb * 16, f, (size_t)(n - cb * 16) * 4);
      }
    }
  }
  for (int64_t pn = 0; pn < np; pn++)
    for (int64_t i = 0; i < m; i += MR) {
      int rows = (int)(m - i < MR ? m - i : MR);
      if (integer)
        tile_i32(rows, k, ap + i * k, bp + pn * k * NR, cr + i * ldc + pn * NR,
                 ldc);
      else if (p->in == ASC_DT_FLOAT16)
        tile_f16(rows, k, (const float *)(ap + i * k),
                 (const float *)(bp + pn * k * NR),
                 (float *)(cr + i * ldc + pn * NR), ldc);
      else
        tile_f32(rows, k, (const float *)(ap + i * k),
                 (const float *)(bp + pn * k * NR),
                 (float *)(cr + i * ldc + pn * NR), ldc);
    }
  for (int64_t cb = 0; cb < n1; cb++)
    for (int64_t i = 0; i < m; i++) {
      uint8_t *f = c + ((cb * m1 + i / 16) * 256 + (i % 16) * 16) * 4;
      if (n - cb * 16 >= 16)
        memcpy(f, cr + i * ldc + cb * 16, 64); /* inlined */
      else
        memcpy(f, cr + i * ldc + cb * 16, (size_t)(n - cb * 16) * 4);
    }
  free(w);
  return 1;
}

/* ---- the scalar reference ------------------------------------------------ */

static double load_in(AscDType dt, const uint8_t *p) {
  switch (dt) {
  case ASC_DT_FLOAT16: {
    uint16_t h;
    memcpy(&h, p, 2);
    return asc_f16_to_f32(h);
  }
  case ASC_DT_BFLOAT16: {
    uint16_t h;
    memcpy(&h, p, 2);
    return asc_bf16_to_f32(h);
  }
  case ASC_DT_FLOAT32: {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  case ASC_DT_INT8:
    return (int8_t)*p;
  case ASC_DT_UINT8:
    return *p;
  default:
    return 0;
  }
}

/* An operand's value: an fp32 one in HF32 while the mode is on. */
static double operand(const SimMmad *p, const uint8_t *e) {
  double v = load_in(p->in, e);
  return p->hf32 && p->in == ASC_DT_FLOAT32
             ? (double)sim_hf32_round((float)v, p->hf32_trans)
             : v;
}

void sim_mmad_reference(const SimMmad *p, const uint8_t *pa, const uint8_t *pb,
                        uint8_t *pc) {
  int64_t m = p->m, n = p->n, k = p->k;
  AscDType it = p->in;
  int integer = it == ASC_DT_INT8 || it == ASC_DT_UINT8;
  int64_t ies = (int64_t)asc_dtype_size(it), k0 = 32 / ies;
  int64_t m1 = ceil_div(m, 16), k1 = ceil_div(k, k0);
  int64_t n1 = ceil_div(n, 16);
  for (int64_t i = 0; i < m; i++)
    for (int64_t col = 0; col < n; col++) {
      uint8_t *po =
          pc +
          (((col / 16) * m1 + i / 16) * 256 + (i % 16) * 16 + col % 16) * 4;
      /* the start: 0, the bias of the column, or C */
      const uint8_t *start = p->init ? NULL : p->bias ? p->bias + col * 4 : po;
      if (integer) {
        int32_t acc = 0;
        if (start)
          memcpy(&acc, start, 4);
        for (int64_t j = 0; j < k; j++) {
          const uint8_t *ea = pa + (((i / 16) * k1 + j / k0) * 16 * k0 +
                                    (i % 16) * k0 + j % k0);
          const uint8_t *eb = pb + (((j / k0) * n1 + col / 16) * 16 * k0 +
                                    (col % 16) * k0 + j % k0);
          /* wraps as the hardware's 32-bit accumulator */
          acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)load_in(it, ea) *
                                                     (int32_t)load_in(it, eb)));
        }
        memcpy(po, &acc, 4);
      } else {
        float acc = 0;
        if (start)
          memcpy(&acc, start, 4);
        for (int64_t j = 0; j < k; j++) {
          const uint8_t *ea = pa + (((i / 16) * k1 + j / k0) * 16 * k0 +
                                    (i % 16) * k0 + j % k0) *
                                       ies;
          const uint8_t *eb = pb + (((j / k0) * n1 + col / 16) * 16 * k0 +
                                    (col % 16) * k0 + j % k0) *
                                       ies;
          float prod = (float)(operand(p, ea) * operand(p, eb));
          acc = acc + prod;
        }
        memcpy(po, &acc, 4);
      }
    }
}
