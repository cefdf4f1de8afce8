/* family: adv math. The basic vector instructions the devkit's math
 * library is written in, on one element, for the API files
 * (adv_math_trig.c, adv_math_hyp.c, adv_math_special.c) behind
 * adv_math_fn.h.
 *
 * Each function is one instruction on one element: it computes as the
 * simulator's instruction of that name does (the same rounding; Exp, Ln
 * and the casts through the functions of vecmath.c), in the compute type
 * given (TF: float, TH: half, rounded to nearest even), and, while the
 * steps of an API are being recorded, appends itself to the sequence.
 * The devkit computes every branch of a function and blends them with
 * masks, so one element issues every instruction of the sequence and
 * recording one element gives the whole sequence. */
#ifndef ASC_SIM_ADV_MATH_OPS_H
#define ASC_SIM_ADV_MATH_OPS_H

#include <stdint.h>

#include "adv_math_fn.h"
#include "vecmath.h"

/* Compute types of an instruction. */
enum { TF = 0, TH = 1 };

typedef struct AdvFn {
  int api;  /* AscAdvMathApi */
  int half; /* the API's element type is half */
  int rec;  /* recording the sequence */
  float x0; /* the source value while recording (marks reads of src) */
  SimAdvStep *steps;
  int n_steps, cap;
  int oom; /* the recording ran out of memory */
  int hw;  /* precision="hardware": the approximate Reciprocal */
} AdvFn;

/* The value of v in compute type t. */
float adv_round(int t, float v);
/* A constant as the instruction sees its scalar (static_cast<T>). */
float adv_k(int t, double k);

float adv_add(AdvFn *c, int t, float a, float b);
float adv_sub(AdvFn *c, int t, float a, float b);
float adv_mul(AdvFn *c, int t, float a, float b);
float adv_div(AdvFn *c, int t, float a, float b);
float adv_min(AdvFn *c, int t, float a, float b);
float adv_adds(AdvFn *c, int t, float a, double k);
float adv_muls(AdvFn *c, int t, float a, double k);
float adv_maxs(AdvFn *c, int t, float a, double k);
float adv_mins(AdvFn *c, int t, float a, double k);
float adv_abs(AdvFn *c, int t, float a);
float adv_sqrt(AdvFn *c, int t, float a);
float adv_exp(AdvFn *c, int t, float a);
float adv_ln(AdvFn *c, int t, float a);
float adv_recip(AdvFn *c, int t, float a);
float adv_dup(AdvFn *c, int t, double k);
/* Cast between half and float (CAST_NONE: to nearest even). */
float adv_to_half(AdvFn *c, float a);
float adv_to_float(AdvFn *c, float a);
/* Cast float to half with rounding mode mode. */
float adv_to_half_mode(AdvFn *c, AscRoundMode mode, float a);
/* Cast from compute type t to integer type idt with rounding mode mode,
 * then (a second instruction, when back) back to type t; returns the
 * integer as a float. */
float adv_to_int(AdvFn *c, int t, AscDType idt, AscRoundMode mode, float a);
float adv_from_int(AdvFn *c, int t, float i);
/* Cast from float to float with a rounding mode (CAST_FLOOR, CAST_RINT,
 * ...: the devkit's float-to-float Cast, rounding to an integer value). */
float adv_round_to_int(AdvFn *c, int t, AscRoundMode mode, float a);

/* Compare (a mode below) giving a 0/1 mask, and Select(mask ? a : k)
 * against a scalar. */
enum { ADV_LT, ADV_GT, ADV_EQ, ADV_LE, ADV_GE, ADV_NE };
int adv_cmp(AdvFn *c, int t, int mode, float a, float b);
float adv_sels(AdvFn *c, int t, int m, float a, double k);

/* And / Not of compare masks, And of an int32 (as a float) with a bit
 * pattern. */
int adv_mand(AdvFn *c, int a, int b);
int adv_mnot(AdvFn *c, int a);
float adv_and_i32(AdvFn *c, float a, int32_t bits);

/* The float kernels of Sin, Cos, Tan (TanCompute<float> with its leading
 * Adds), which Digamma and Lgamma call. */
float adv_sin_f32(AdvFn *c, float x);
float adv_cos_f32(AdvFn *c, float x);
float adv_tan_f32(AdvFn *c, float x);

/* The APIs. */
float adv_asin(AdvFn *c, float x);
float adv_acos(AdvFn *c, float x);
float adv_atan(AdvFn *c, float x);
float adv_sin(AdvFn *c, float x);
float adv_cos(AdvFn *c, float x);
float adv_tan(AdvFn *c, float x);
float adv_asinh(AdvFn *c, float x);
float adv_acosh(AdvFn *c, float x);
float adv_atanh(AdvFn *c, float x);
float adv_sinh(AdvFn *c, float x);
float adv_cosh(AdvFn *c, float x);
float adv_tanh(AdvFn *c, float x);
float adv_erf(AdvFn *c, float x);
float adv_erfc(AdvFn *c, float x);
float adv_digamma(AdvFn *c, float x);
float adv_lgamma(AdvFn *c, float x);

#endif
