/* family: adv math. The numerics of the devkit's transcendental math
 * library (adv_math_fn.h): the one-element instructions the API files
 * use (adv_math_ops.h), the recording of an API's sequence, and the
 * devkit's minimum temporary sizes. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adv_math_ops.h"
#include "asc/exec.h"
#include "asc/ops.h"

/* ---- instructions ------------------------------------------------------ */

/* The kinds of instruction, their op-table rows and names for labels. */
enum {
  K_ADD,
  K_SUB,
  K_MUL,
  K_DIV,
  K_MIN,
  K_ADDS,
  K_MULS,
  K_MAXS,
  K_MINS,
  K_ABS,
  K_SQRT,
  K_EXP,
  K_LN,
  K_RECIP,
  K_DUP,
  K_CAST,
  K_CMP,
  K_SEL,
  K_AND,
  K_NOT,
  K_COUNT
};

static const struct {
  int op;
  const char *name;
} kinds[K_COUNT] = {
    [K_ADD] = {ASC_OP_ADD, "Add"},
    [K_SUB] = {ASC_OP_SUB, "Sub"},
    [K_MUL] = {ASC_OP_MUL, "Mul"},
    [K_DIV] = {ASC_OP_DIV, "Div"},
    [K_MIN] = {ASC_OP_MIN, "Min"},
    [K_ADDS] = {ASC_OP_ADDS, "Adds"},
    [K_MULS] = {ASC_OP_MULS, "Muls"},
    [K_MAXS] = {ASC_OP_MAXS, "Maxs"},
    [K_MINS] = {ASC_OP_MINS, "Mins"},
    [K_ABS] = {ASC_OP_ABS, "Abs"},
    [K_SQRT] = {ASC_OP_SQRT, "Sqrt"},
    [K_EXP] = {ASC_OP_EXP, "Exp"},
    [K_LN] = {ASC_OP_LN, "Ln"},
    [K_RECIP] = {ASC_OP_RECIPROCAL, "Reciprocal"},
    [K_DUP] = {ASC_OP_DUPLICATE, "Duplicate"},
    [K_CAST] = {ASC_OP_CAST, "Cast"},
    [K_CMP] = {ASC_OP_COMPARE, "Compare"},
    [K_SEL] = {ASC_OP_SELECT, "Select"},
    [K_AND] = {ASC_OP_BITWISE_AND, "And"},
    [K_NOT] = {ASC_OP_BITWISE_NOT, "Not"},
};

static const char *const api_names[ASC_ADV_MATH_COUNT] = {
    [ASC_ADV_MATH_ACOS] = "Acos",       [ASC_ADV_MATH_ACOSH] = "Acosh",
    [ASC_ADV_MATH_ASIN] = "Asin",       [ASC_ADV_MATH_ASINH] = "Asinh",
    [ASC_ADV_MATH_ATAN] = "Atan",       [ASC_ADV_MATH_ATANH] = "Atanh",
    [ASC_ADV_MATH_COS] = "Cos",         [ASC_ADV_MATH_COSH] = "Cosh",
    [ASC_ADV_MATH_SIN] = "Sin",         [ASC_ADV_MATH_SINH] = "Sinh",
    [ASC_ADV_MATH_TAN] = "Tan",         [ASC_ADV_MATH_TANH] = "Tanh",
    [ASC_ADV_MATH_ERF] = "Erf",         [ASC_ADV_MATH_ERFC] = "Erfc",
    [ASC_ADV_MATH_DIGAMMA] = "Digamma", [ASC_ADV_MATH_LGAMMA] = "Lgamma",
};

/* "Asin (Muls)": one string per API and kind, living as long as the
 * process (the sequence keeps pointers to them). */
static char labels[ASC_ADV_MATH_COUNT][K_COUNT][32];

static const char *label_of(int api, int kind) {
  char *s = labels[api][kind];
  if (!s[0])
    snprintf(s, sizeof labels[api][kind], "%s (%s)",
             api_names[api] ? api_names[api] : "AdvMath", kinds[kind].name);
  return s;
}

static int bits_eq(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Appends an instruction of kind reading operands a[0..na) to the
 * sequence being recorded; a read of the source value is a read of SRC,
 * any other operand a read of the temporary buffer. */
static void rec(AdvFn *c, int t, int kind, const float *a, int na) {
  SimAdvStep *s;
  uint8_t reads = 0;
  if (!c->rec || c->oom)
    return;
  if (c->n_steps == c->cap) {
    int cap = c->cap ? 2 * c->cap : 64;
    SimAdvStep *p = realloc(c->steps, (size_t)cap * sizeof *p);
    if (!p) {
      c->oom = 1;
      return;
    }
    c->steps = p, c->cap = cap;
  }
  for (int i = 0; i < na; i++)
    reads |= bits_eq(a[i], c->x0) ? SIM_ADV_SRC : SIM_ADV_TMP;
  if (na == 0 && kind != K_DUP) /* the masks, in the temporary buffer */
    reads = SIM_ADV_TMP;
  s = &c->steps[c->n_steps++];
  s->op = kinds[kind].op;
  s->label = label_of(c->api, kind);
  s->reads = reads;
  s->writes = SIM_ADV_TMP;
  s->on_float = (uint8_t)(c->half && t == TF);
}

static void rec1(AdvFn *c, int t, int kind, float a) { rec(c, t, kind, &a, 1); }

static void rec2(AdvFn *c, int t, int kind, float a, float b) {
  float v[2] = {a, b};
  rec(c, t, kind, v, 2);
}

float adv_round(int t, float v) {
  return t == TH ? asc_f16_to_f32(asc_f32_to_f16(v)) : v;
}

float adv_k(int t, double k) {
  float f = (float)k;
  return adv_round(t, f);
}

/* The arithmetic: the float result of the float operands rounded to the
 * compute type, as vecmath.c's loops compute for half and float. */
float adv_add(AdvFn *c, int t, float a, float b) {
  rec2(c, t, K_ADD, a, b);
  return adv_round(t, a + b);
}

float adv_sub(AdvFn *c, int t, float a, float b) {
  rec2(c, t, K_SUB, a, b);
  return adv_round(t, a - b);
}

float adv_mul(AdvFn *c, int t, float a, float b) {
  rec2(c, t, K_MUL, a, b);
  return adv_round(t, a * b);
}

float adv_div(AdvFn *c, int t, float a, float b) {
  rec2(c, t, K_DIV, a, b);
  return adv_round(t, a / b);
}

/* Max / Min as vecmath.c's: a NaN operand gives NaN, -0 is below +0. */
static float fmax_v(float a, float b) {
  return a > b || a != a || (a == b && !signbit(a)) ? a : b;
}
static float fmin_v(float a, float b) {
  return a < b || a != a || (a == b && signbit(a)) ? a : b;
}

float adv_min(AdvFn *c, int t, float a, float b) {
  rec2(c, t, K_MIN, a, b);
  return adv_round(t, fmin_v(a, b));
}

float adv_adds(AdvFn *c, int t, float a, double k) {
  rec1(c, t, K_ADDS, a);
  return adv_round(t, a + adv_k(t, k));
}

float adv_muls(AdvFn *c, int t, float a, double k) {
  rec1(c, t, K_MULS, a);
  return adv_round(t, a * adv_k(t, k));
}

float adv_maxs(AdvFn *c, int t, float a, double k) {
  rec1(c, t, K_MAXS, a);
  return adv_round(t, fmax_v(a, adv_k(t, k)));
}

float adv_mins(AdvFn *c, int t, float a, double k) {
  rec1(c, t, K_MINS, a);
  return adv_round(t, fmin_v(a, adv_k(t, k)));
}

float adv_abs(AdvFn *c, int t, float a) {
  rec1(c, t, K_ABS, a);
  return adv_round(t, fabsf(a));
}

float adv_sqrt(AdvFn *c, int t, float a) {
  rec1(c, t, K_SQRT, a);
  return adv_round(t, sqrtf(a));
}

/* Exp, Ln and Reciprocal: vecmath.c's loop of compute type t, so asc.exp
 * / asc.ln / asc.reciprocal and these agree. */
static float unary_f(int t, AscVecUnOp op, float a) {
  if (t == TH) {
    uint16_t h = asc_f32_to_f16(a), r;
    asc_vec_unary(op, ASC_DT_FLOAT16, &r, &h, 1);
    return asc_f16_to_f32(r);
  }
  float r;
  asc_vec_unary(op, ASC_DT_FLOAT32, &r, &a, 1);
  return r;
}

float adv_exp(AdvFn *c, int t, float a) {
  rec1(c, t, K_EXP, a);
  return unary_f(t, ASC_VUN_EXP, a);
}

float adv_ln(AdvFn *c, int t, float a) {
  rec1(c, t, K_LN, a);
  return unary_f(t, ASC_VUN_LN, a);
}

float adv_recip(AdvFn *c, int t, float a) {
  AscVecUnOp op = ASC_VUN_RECIPROCAL;
  rec1(c, t, K_RECIP, a);
  return unary_f(t, c->hw ? asc_vec_unary_hw(op) : op, a);
}

float adv_dup(AdvFn *c, int t, double k) {
  rec(c, t, K_DUP, NULL, 0);
  return adv_k(t, k);
}

float adv_to_half(AdvFn *c, float a) {
  rec1(c, -1, K_CAST, a);
  return adv_round(TH, a);
}

float adv_to_half_mode(AdvFn *c, AscRoundMode mode, float a) {
  uint16_t h = 0;
  rec1(c, -1, K_CAST, a);
  asc_vec_cast(ASC_DT_FLOAT16, ASC_DT_FLOAT32, mode, &h, &a, 1);
  return asc_f16_to_f32(h);
}

float adv_to_float(AdvFn *c, float a) {
  rec1(c, -1, K_CAST, a);
  return a;
}

/* Casts to integers through vecmath.c's asc_vec_cast (its saturation and
 * NaN rules). */
float adv_to_int(AdvFn *c, int t, AscDType idt, AscRoundMode mode, float a) {
  int32_t i32 = 0;
  int8_t i8 = 0;
  uint16_t h = asc_f32_to_f16(a);
  const void *src = t == TH ? (const void *)&h : (const void *)&a;
  AscDType sdt = t == TH ? ASC_DT_FLOAT16 : ASC_DT_FLOAT32;
  rec1(c, t, K_CAST, a);
  if (idt == ASC_DT_INT8) {
    asc_vec_cast(ASC_DT_INT8, sdt, mode, &i8, src, 1);
    return (float)i8;
  }
  asc_vec_cast(ASC_DT_INT32, sdt, mode, &i32, src, 1);
  return (float)i32;
}

float adv_from_int(AdvFn *c, int t, float i) {
  rec1(c, t, K_CAST, i);
  return adv_round(t, i);
}

/* A float-to-float Cast rounds to an integral value in the mode, as
 * vecmath.c's Cast (its zero results are +0). */
float adv_round_to_int(AdvFn *c, int t, AscRoundMode mode, float a) {
  float r;
  rec1(c, t, K_CAST, a);
  if (mode == ASC_ROUND_NONE || mode == ASC_ROUND_ODD)
    mode = ASC_ROUND_RINT; /* the default rounding mode: to nearest even */
  asc_vec_cast(ASC_DT_FLOAT32, ASC_DT_FLOAT32, mode, &r, &a, 1);
  return adv_round(t, r);
}

static int cmp_v(int mode, float a, float b) {
  switch (mode) {
  case ADV_LT:
    return a < b;
  case ADV_GT:
    return a > b;
  case ADV_EQ:
    return a == b;
  case ADV_LE:
    return a <= b;
  case ADV_GE:
    return a >= b;
  default: /* the hardware's NE: 0 with a NaN (compare.c) */
    return a < b || a > b;
  }
}

int adv_cmp(AdvFn *c, int t, int mode, float a, float b) {
  (void)t;
  rec2(c, t, K_CMP, a, b);
  return cmp_v(mode, a, b);
}

float adv_sels(AdvFn *c, int t, int m, float a, double k) {
  rec1(c, t, K_SEL, a);
  return m ? adv_round(t, a) : adv_k(t, k);
}

int adv_mand(AdvFn *c, int a, int b) {
  rec(c, -1, K_AND, NULL, 0);
  return a && b;
}

int adv_mnot(AdvFn *c, int a) {
  rec(c, -1, K_NOT, NULL, 0);
  return !a;
}

float adv_and_i32(AdvFn *c, float a, int32_t bits) {
  rec1(c, -1, K_AND, a);
  return (float)((int32_t)a & bits);
}

/* ---- the APIs ----------------------------------------------------------- */

typedef float (*AdvApiFn)(AdvFn *c, float x);

static const struct {
  AdvApiFn fn;
  float x0;        /* a source value to record the sequence with */
  int32_t min_f32; /* GetXxxMaxMinTmpSize's minimum, float */
  int32_t min_f16; /* ..., half (isReuseSource false) */
} apis[ASC_ADV_MATH_COUNT] = {
    [ASC_ADV_MATH_ACOS] = {adv_acos, 0.3779296875f, 2 * 256, 6 * 256},
    [ASC_ADV_MATH_ACOSH] = {adv_acosh, 1.3779296875f, 1 * 256, 2 * 256},
    [ASC_ADV_MATH_ASIN] = {adv_asin, 0.3779296875f, 2 * 256, 6 * 256},
    [ASC_ADV_MATH_ASINH] = {adv_asinh, 0.3779296875f, 3 * 256, 3 * 256},
    [ASC_ADV_MATH_ATAN] = {adv_atan, 0.3779296875f, 5 * 256, 12 * 256},
    [ASC_ADV_MATH_ATANH] = {adv_atanh, 0.3779296875f, 1 * 256, 4 * 256},
    [ASC_ADV_MATH_COS] = {adv_cos, 0.3779296875f, 3 * 256, 8 * 256},
    [ASC_ADV_MATH_COSH] = {adv_cosh, 0.3779296875f, 2 * 256, 6 * 256},
    [ASC_ADV_MATH_SIN] = {adv_sin, 0.3779296875f, 3 * 256, 8 * 256},
    [ASC_ADV_MATH_SINH] = {adv_sinh, 0.3779296875f, 1 * 256, 4 * 256},
    [ASC_ADV_MATH_TAN] = {adv_tan, 0.3779296875f, 4 * 256, 10 * 256},
    [ASC_ADV_MATH_TANH] = {adv_tanh, 0.3779296875f, 1 * 256, 4 * 256},
    [ASC_ADV_MATH_ERF] = {adv_erf, 0.3779296875f, 3 * 256, 8 * 256},
    [ASC_ADV_MATH_ERFC] = {adv_erfc, 0.3779296875f, 7 * 256, 16 * 256},
    [ASC_ADV_MATH_DIGAMMA] = {adv_digamma, 2.3779296875f, 7 * 256, 16 * 256},
    [ASC_ADV_MATH_LGAMMA] = {adv_lgamma, 2.3779296875f, 8 * 256, 26 * 256},
};

static int known(int api, AscDType dt) {
  return api >= 0 && api < ASC_ADV_MATH_COUNT && apis[api].fn &&
         (dt == ASC_DT_FLOAT16 || dt == ASC_DT_FLOAT32);
}

int sim_adv_math_fn(int api, AscDType dt, int precision, float *v, int64_t n,
                    float *scratch) {
  AdvFn c = {0};
  (void)scratch;
  if (!known(api, dt))
    return 0;
  c.api = api;
  c.half = dt == ASC_DT_FLOAT16;
  c.hw = precision == ASC_PRECISION_HARDWARE;
  for (int64_t i = 0; i < n; i++)
    v[i] = apis[api].fn(&c, v[i]);
  return 1;
}

/* The sequences, recorded once per API and type on first use; the blocks
 * of a launch run on several host threads, so under a lock (which also
 * covers the labels, written only while recording). */
static SimAdvStep *seqs[ASC_ADV_MATH_COUNT][2];
static int seq_len[ASC_ADV_MATH_COUNT][2];
static pthread_mutex_t seq_lock = PTHREAD_MUTEX_INITIALIZER;

static void record(int api, int h) {
  AdvFn c = {0};
  c.api = api;
  c.half = h;
  c.rec = 1;
  c.x0 = adv_round(h ? TH : TF, apis[api].x0);
  (void)apis[api].fn(&c, c.x0);
  if (c.oom || c.n_steps == 0) {
    free(c.steps);
    return;
  }
  /* The last instruction writes the destination. */
  c.steps[c.n_steps - 1].writes = SIM_ADV_DST;
  seqs[api][h] = c.steps;
  seq_len[api][h] = c.n_steps;
}

const SimAdvStep *sim_adv_math_steps(int api, AscDType dt, int *n_steps) {
  int h = dt == ASC_DT_FLOAT16;
  const SimAdvStep *r;
  *n_steps = 0;
  if (!known(api, dt))
    return NULL;
  pthread_mutex_lock(&seq_lock);
  if (!seqs[api][h])
    record(api, h);
  r = seqs[api][h];
  *n_steps = seq_len[api][h];
  pthread_mutex_unlock(&seq_lock);
  return r;
}

int64_t sim_adv_math_min_tmp(int api, AscDType dt, int64_t n) {
  (void)n; /* the devkit's minimum is one repeat's worth per live node */
  if (!known(api, dt))
    return 0;
  return dt == ASC_DT_FLOAT16 ? apis[api].min_f16 : apis[api].min_f32;
}
