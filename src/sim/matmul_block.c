/* family: matmul (mmseq). Blocks of an asc.adv.Matmul's C (matmul.h) as
 * the sequence of cube instructions the devkit's Matmul issues
 * (impl/adv_api/detail/matmul/: the Norm/MDL scheduler, cube_in_buffer,
 * tbuf_pool_l0, cube_out_buffer), so that the timing model and the
 * sanitizer see every copy, load, Mmad and Fixpipe on its pipe, with the
 * flags between the pipes (sub-events, subevents.c).
 *
 * For each base block (at most baseM x baseN; sim_mm_block splits a larger
 * region, IterateAll's, into base blocks in the tiling's iterateOrder):
 *
 *   for each baseK step kk of singleK:
 *     a new A tile (stepKa baseK steps of K, L1 slot kk / stepKa % 2):
 *       WaitFlag MTE1_MTE2 (slot free); DataCopy GM -> L1 with Nd2Nz
 *       (MTE2); SetFlag / WaitFlag MTE2_MTE1
 *     the same for B (stepKb)
 *     WaitFlag M_MTE1 (ping-pong half kk % 2 of L0A and L0B free, event
 *     ids 0 and 1 as the devkit's TBufPoolL0); LoadData L1 -> L0A of
 *     baseM x baseK (ZZ) and L1 -> L0B of baseK x baseN (ZN, transposed
 *     from the NZ tile of a row-major B) (MTE1); SetFlag / WaitFlag
 *     MTE1_M; Mmad into L0C (M): cmatrixInitVal at kk 0 without bias, the
 *     bias table as the start at kk 0 with one; SetFlag M_MTE1
 *     a tile's last step: SetFlag MTE1_MTE2 (its slot is free again)
 *   SetFlag / WaitFlag M_FIX; Fixpipe L0C -> GM (Nz2Nd, enAtomic as the
 *   store-atomic mode) or -> UB (FIX); SetFlag FIX_M (L0C free)
 *
 * A bias is copied GM -> L1 (MTE2), then L1 -> the bias table (MTE1, half
 * and bfloat16 widened to fp32 as the devkit's C1 -> C2 copy does). Each
 * call starts with the SetFlags that mark the buffers free (as the
 * devkit's Init) and ends with their WaitFlags (End), then the scalar unit
 * waits for the last Fixpipe (FIX_S): the call is synchronous.
 *
 * The buffers: from the end of what the kernel's TPipe gave in each cube
 * memory (b->pipe.cube_used), two L1 slots of A and of B (one when the
 * tiling's depthA1 / depthB1 do not hold two tiles, or L1 does not), the
 * halves of L0A / L0B (all of it when one tile takes more than half), L0C
 * and the bias table after the TPipe's part too. In a MIX kernel the AIV
 * does the work of the AIC serving it (matmul.c): the AIV's block state
 * holds the cube memories it uses, the model of that AIC.
 *
 * Results: each element's sum runs over K in order in fp32 (int32 wrapping
 * for 8-bit inputs), starting from the bias when there is one (the bias
 * table is the Mmad's initial C), fp16 / bf16 products exact
 * (cube_mmad.c); the fixpipe converts with sim_mm_convert (matmul_quant.c)
 * and stores with C's dtype's rounding. */
#include <stdlib.h>
#include <string.h>

#include "checked.h"
#include "cube.h"
#include "cube_mmad.h"
#include "matmul.h"
#include "vecmath.h"

/* TCubeTiling fields beyond matmul.h's (include/asc/structs.def order) */
enum {
  TL_DEPTH_A1 = 11,
  TL_DEPTH_B1 = 12,
  TL_STEP_KA = 26,
  TL_STEP_KB = 27,
};

/* The steps, their op-table rows (cost class, pipe) and their names; work:
 * the Matmul implementation's scalar work before the step, in cube
 * instructions' worth (AscEvent.mm_work: each instruction it issues is
 * one: the devkit computes the instruction's parameters from the tiling
 * and the loop position, does its buffer's queue operations and steps its
 * loops right before issuing it); block: the base block's own work comes
 * before the step (AscEvent.mm_block: the Fixpipe, whose parameters, L0C
 * queue operations and M / N loop step the devkit's CopyCubeOut and
 * MoveNext do once a block); ub: C's way into a UB tensor (AscMmUb). */
typedef enum Step {
  ST_COPY_A,
  ST_COPY_B,
  ST_COPY_BIAS,
  ST_LOAD_A,
  ST_LOAD_B,
  ST_LOAD_BIAS,
  ST_MMAD,
  ST_FIX_GM,
  ST_FIX_UB,
  ST_UB_COPY,
  ST_SET,
  ST_WAIT,
  ST_BARRIER,
  ST_COUNT
} Step;

static const struct {
  int op;
  const char *label;
  int work;
  uint8_t block, ub;
} steps[ST_COUNT] = {
    [ST_COPY_A] = {ASC_OP_DATA_COPY_ND2NZ, "Matmul (GM->L1 copy of A)", 1, 0,
                   0},
    [ST_COPY_B] = {ASC_OP_DATA_COPY_ND2NZ, "Matmul (GM->L1 copy of B)", 1, 0,
                   0},
    [ST_COPY_BIAS] = {ASC_OP_DATA_COPY_ND2NZ,
                      "Matmul (GM->L1 copy of the bias)", 1, 0, 0},
    [ST_LOAD_A] = {ASC_OP_LOAD_DATA_2D, "Matmul (L1->L0A load of A)", 1, 0, 0},
    [ST_LOAD_B] = {ASC_OP_LOAD_DATA_2D, "Matmul (L1->L0B load of B)", 1, 0, 0},
    [ST_LOAD_BIAS] = {ASC_OP_DATA_COPY_L1_BT,
                      "Matmul (L1->bias table copy of the bias)", 1, 0, 0},
    [ST_MMAD] = {ASC_OP_MMAD, "Matmul (Mmad)", 1, 0, 0},
    [ST_FIX_GM] = {ASC_OP_FIXPIPE, "Matmul (Fixpipe L0C->GM of C)", 1, 1, 0},
    [ST_FIX_UB] = {ASC_OP_FIXPIPE, "Matmul (Fixpipe L0C->UB of C)", 1, 1,
                   ASC_MM_UB_FIX},
    [ST_UB_COPY] = {ASC_OP_FIXPIPE, "Matmul (C into the UB tensor)", 0, 0,
                    ASC_MM_UB_COPY},
    [ST_SET] = {ASC_OP_SET_FLAG, "Matmul (set_flag)", 0, 0, 0},
    [ST_WAIT] = {ASC_OP_WAIT_FLAG, "Matmul (wait_flag)", 0, 0, 0},
    [ST_BARRIER] = {ASC_OP_PIPE_BARRIER, "Matmul (pipe_barrier)", 0, 0, 0},
};

/* Event ids: L0 ping-pong 0 / 1 (the devkit's), L1 slots of A 2 / 3, of B
 * 4 / 5, the bias's L1 buffer 6; L0C and the final FIX_S 0. */
enum { ID_A = 2, ID_B = 4, ID_BIAS = 6 };

/* An L1 tile: GM rows x cols (ND) as NZ from addr, h rows (16-aligned) a
 * column block of c0 elements; its K range [k0, k0 + kl). */
typedef struct Tile {
  int64_t addr, h, k0, kl;
  int64_t x0, xl; /* its M (A) or N (B) range */
  int valid;
} Tile;

typedef struct Seq {
  AscExec *x;
  const AscInstr *in;
  const AscSimMatmul *m;
  const Shape *s;
  int obs;
  AscDType at, ct, acc; /* A/B input, C, L0C (fp32 / int32) */
  int64_t es, c0;       /* input element size, elements of 32 bytes */
  int64_t step_ka, step_kb, slots_a, slots_b;
  int64_t l1_a[2], l1_b[2], l1_bias, l0a[2], l0b[2], l0_db, l0c, bt;
  Tile ta[2], tb[2];
  int64_t bias_n0; /* mmlocal: the block's first column (a bias in L1) */
  const AscInstr *step_in[ST_COUNT];
  const AscInstr *flag_in[2][ASC_MAX_EVENTS];
} Seq;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t align(int64_t a, int64_t b) { return cdiv(a, b) * b; }

static AscTensorRef cube_ref(int position, AscDType dt, int64_t addr) {
  AscTensorRef t = {addr, -1, -1, (uint8_t)dt, (uint8_t)position, 0};
  return t;
}

/* ---- events ----------------------------------------------------------- */

/* Shows the filled event of an OP step. */
static int step_done(Seq *q, Step st, AscDType dt, int64_t elems,
                     int64_t bytes) {
  if (!q->obs)
    return 1;
  if (!q->step_in[st])
    q->step_in[st] =
        sim_step_instr(q->in, steps[st].op, st, steps[st].label, 0, dt);
  AscEvent *e = &q->x->b->ev;
  e->kind = ASC_EV_OP;
  e->pipe =
      st == ST_UB_COPY ? ASC_PIPE_S : asc_op_info((AscOpId)steps[st].op)->pipe;
  e->elems = elems;
  e->bytes = bytes;
  e->mm_work = steps[st].work;
  e->mm_block = steps[st].block;
  e->mm_ub = steps[st].ub;
  return sim_emit_event(q->x, q->step_in[st]) == ASC_OK;
}

/* SetFlag (set 1) or WaitFlag of HardEvent ev, event id id. */
static int flag(Seq *q, int set, int ev, int id) {
  if (!q->obs)
    return 1;
  const AscInstr **fi = &q->flag_in[set][ev];
  Step st = set ? ST_SET : ST_WAIT;
  if (!*fi)
    *fi = sim_step_instr(q->in, steps[st].op, st, steps[st].label, ev,
                         ASC_DT_INT32);
  AscEvent *e = &q->x->b->ev;
  e->kind = set ? ASC_EV_SET_FLAG : ASC_EV_WAIT_FLAG;
  e->event = ev;
  e->id = id;
  asc_event_pipes(ev, &e->src, &e->dst);
  e->pipe = set ? e->src : e->dst;
  return sim_emit_event(q->x, *fi) == ASC_OK;
}

static int sync(Seq *q, int ev, int id) {
  return flag(q, 1, ev, id) && flag(q, 0, ev, id);
}

/* PipeBarrier<PIPE_M> between two Mmads into one L0C block. The devkit
 * issues it below 10 fractals of m x n (mmad_compute.h: "required by
 * aicore"); for larger blocks it relies on the cube unit accumulating in
 * order, which the sanitizer does not assume of the M pipe, so the
 * sequence shows the barrier for every block (the timing model runs M's
 * instructions one after another anyway). */
static int barrier_m(Seq *q) {
  if (!q->obs)
    return 1;
  if (!q->step_in[ST_BARRIER])
    q->step_in[ST_BARRIER] = sim_step_instr(
        q->in, ASC_OP_PIPE_BARRIER, ST_BARRIER, steps[ST_BARRIER].label,
        asc_pipeid_of_pipe(ASC_PIPE_M), ASC_DT_INT32);
  AscEvent *e = &q->x->b->ev;
  e->kind = ASC_EV_BARRIER;
  e->src = ASC_PIPE_M;
  e->pipe = ASC_PIPE_M;
  return sim_emit_event(q->x, q->step_in[ST_BARRIER]) == ASC_OK;
}

/* ---- GM -> L1 (Nd2Nz) --------------------------------------------------- */

/* GM elements [off, off + (rows - 1) * ld + cols) of t as a span; the
 * access recorded as rows runs of cols elements, ld apart. */
static int gm_rows(Seq *q, const AscTensorRef *t, int64_t off, int64_t ld,
                   int64_t rows, int64_t cols, int write, const char *what,
                   SimGmSpan *g) {
  AscExec *x = q->x;
  int64_t es = (int64_t)asc_dtype_size((AscDType)t->dtype), count, at;
  AscTensorRef sub = *t;
  if (asc_mul_i64(rows - 1, ld, &count) || asc_add_i64(count, cols, &count) ||
      asc_mul_i64(off, es, &at) || asc_add_i64(t->addr, at, &sub.addr)) {
    sim_fail(x, q->in, "Matmul: %s out of range", what);
    return 0;
  }
  int n = x->b->ev.n_acc;
  if (sim_gm_span(x, q->in, &sub, count, write, what, g))
    return 0;
  if (write)
    sim_gm_mark_atomic(x, n);
  for (int i = n; i < x->b->ev.n_acc; i++) {
    AscAccess *a = &x->b->ev.acc[i];
    if (!write)
      a->bounding = 1; /* strided: not every byte is read */
    if (rows > 1 && ld != cols) {
      a->rows = (int32_t)rows;
      a->row0 = sub.addr;
      a->row_len = cols * es;
      a->row_step = ld * es;
    }
  }
  return 1;
}

/* DataCopy GM -> L1 with Nd2Nz (nd_num 1, n_value rows, d_value cols,
 * src_d_value ld, dst_nz_c0_stride h, dst_nz_n_stride 1): GM element (r,
 * c) of the rows x cols matrix at off to L1 element ((c / c0) * h + r) * c0
 * + c % c0 from addr; the columns past cols in the last block zero. */
static int copy_in(Seq *q, Step st, const AscTensorRef *t, int64_t off,
                   int64_t ld, int64_t rows, int64_t cols, int position,
                   int64_t addr, int64_t h) {
  AscExec *x = q->x;
  AscDType dt = (AscDType)t->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt), c0 = 32 / es;
  int64_t blocks = cdiv(cols, c0);
  SimGmSpan g;
  if (!gm_rows(q, t, off, ld, rows, cols, 0,
               st == ST_COPY_A   ? "A"
               : st == ST_COPY_B ? "B"
                                 : "bias",
               &g))
    return 0;
  AscTensorRef l1 = cube_ref(position, dt, addr);
  int n0 = x->b->ev.n_acc;
  uint8_t *d = sim_cube_range(x, q->in, &l1, 0, blocks * h * 32, 1, "L1");
  sim_cube_bounding(x, n0); /* rows h - rows of each block: not written */
  if (!d)
    return 0;
  SimNd2Nz p = {1, rows, cols, 0, ld, h, 1, 0};
  sim_cube_nd2nz_move(&p, es, &g, d);
  x->b->ev.bursts = rows; /* a burst a row (the timing model) */
  return step_done(q, st, dt, rows * cols, rows * cols * es);
}

/* ---- L1 -> L0A / L0B (LoadData 2-D) -------------------------------------
 * L0A: fractal (mb, kb) of 16 rows of m x k0 of k, row-major, at (mb * k1
 * + kb) * 512. L0B: fractal (kb, nb) of 16 n x k0 k (n-major: the column of
 * B of each n contiguous), at (kb * n1 + nb) * 512. The tile in L1 is ND
 * rows x cols in NZ; `kmajor` says whether K is its rows (A transposed, B
 * not) or its columns. */

/* 16 x 16 two-byte transpose of a fractal. */
static void transpose16(uint8_t *d, const uint8_t *s) {
  uint16_t in[256], out[256];
  memcpy(in, s, 512);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      out[j * 16 + i] = in[i * 16 + j];
  memcpy(d, out, 512);
}

/* One operand's L0 fractals from its L1 tile: `outer` x `inner` fractals
 * (A: m1 x k1 with rows m; B: k1 x n1 with rows n), element (i, j) of a
 * fractal being (x = 16 * fractal row + i of the non-K dimension, k =
 * k0-block * k0 + j); kofs: the step's first K index in the tile, kl its K
 * extent, xl the non-K extent. */
static void load_fractals(const Seq *q, int is_a, const Tile *t, int kmajor,
                          const uint8_t *l1, uint8_t *l0, int64_t kofs,
                          int64_t kl, int64_t xl) {
  int64_t es = q->es, c0 = q->c0, k1 = cdiv(kl, c0), x1 = cdiv(xl, 16);
  for (int64_t xb = 0; xb < x1; xb++)
    for (int64_t kb = 0; kb < k1; kb++) {
      uint8_t *f = l0 + (is_a ? xb * k1 + kb : kb * x1 + xb) * 512;
      int64_t k = kofs + kb * c0;
      if (!kmajor && k % c0 == 0) { /* NZ fractal = the L0 fractal */
        memcpy(f, l1 + ((k / c0) * t->h + xb * 16) * 32, 512);
        continue;
      }
      if (kmajor && es == 2 && k % 16 == 0) { /* transposed 16 x 16 */
        transpose16(f, l1 + (xb * t->h + k) * 32);
        continue;
      }
      for (int64_t i = 0; i < 16; i++) /* element by element */
        for (int64_t j = 0; j < c0; j++) {
          int64_t xi = xb * 16 + i, kj = k + j;
          uint8_t *e = f + (i * c0 + j) * es;
          if (xi >= xl || kj >= kofs + kl) {
            memset(e, 0, (size_t)es);
            continue;
          }
          int64_t r = kmajor ? kj : xi, c = kmajor ? xi : kj;
          memcpy(e, l1 + ((c / c0) * t->h + r) * 32 + (c % c0) * es,
                 (size_t)es);
        }
    }
}

static int load_l0(Seq *q, int is_a, const Tile *t, int position_l1, int kmajor,
                   int64_t addr0, int64_t kofs, int64_t kl, int64_t xl) {
  AscExec *x = q->x;
  int64_t l1_bytes =
      (kmajor ? cdiv(xl, q->c0) : cdiv(t->kl, q->c0)) * t->h * 32;
  AscTensorRef l1 = cube_ref(position_l1, q->at, t->addr);
  AscTensorRef l0 =
      cube_ref(is_a ? ASC_TPOSITION_A2 : ASC_TPOSITION_B2, q->at, addr0);
  /* mmlocal: the kernel's L1 tensor: the bounding range ends with it (its
   * last column block's rows past the tile's are not the tile's) */
  const AscTensorRef *u = is_a ? &q->m->a : &q->m->b;
  if ((is_a ? q->m->a_l1 : q->m->b_l1) && u->len >= 0 &&
      u->addr + u->len * q->es - t->addr < l1_bytes)
    l1_bytes = u->addr + u->len * q->es - t->addr;
  int64_t bytes = cdiv(kl, q->c0) * cdiv(xl, 16) * 512;
  int n0 = x->b->ev.n_acc;
  uint8_t *s = sim_cube_range(x, q->in, &l1, 0, l1_bytes, 0, "L1");
  sim_cube_bounding(x, n0); /* the fractals the step reads, padding too */
  uint8_t *d = s ? sim_cube_range(x, q->in, &l0, 0, bytes, 1, "L0") : NULL;
  if (!d)
    return 0;
  load_fractals(q, is_a, t, kmajor, s, d, kofs, kl, xl);
  return step_done(q, is_a ? ST_LOAD_A : ST_LOAD_B, q->at, bytes / q->es,
                   bytes);
}

/* ---- the bias: GM -> L1 -> bias table ------------------------------------ */

/* The bias, GM -> L1 (MTE2), its L1 buffer free. */
static int bias_in(Seq *q, int64_t n0, int64_t cols) {
  q->bias_n0 = n0;
  if (q->m->bias_l1) /* mmlocal: already in L1, no copy */
    return flag(q, 0, ASC_HARDEVENT_MTE1_MTE2, ID_BIAS);
  return flag(q, 0, ASC_HARDEVENT_MTE1_MTE2, ID_BIAS) &&
         copy_in(q, ST_COPY_BIAS, &q->m->bias, n0, cols, 1, cols,
                 ASC_TPOSITION_C1, q->l1_bias, 16) &&
         sync(q, ASC_HARDEVENT_MTE2_MTE1, ID_BIAS);
}

/* L1 -> the bias table (MTE1), after the first step's M_MTE1 wait (the
 * previous block's Mmads have read the table). The table holds cols fp32 /
 * int32 values; a bias that does not fit it (more than 256 columns)
 * starts the sums from a host copy instead (the tiling keeps baseN within
 * it when it enables the bias). */
static int bias_table(Seq *q, int64_t cols, uint8_t *host,
                      const uint8_t **bias) {
  AscExec *x = q->x;
  AscDType dt = (AscDType)q->m->bias.dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  AscTensorRef l1 = cube_ref(ASC_TPOSITION_C1, dt, q->l1_bias);
  int n = x->b->ev.n_acc;
  /* mmlocal: a bias in L1 is the user's ND row, the block's columns from
   * bias_n0; read as one NZ block row below (c0 columns a block, the
   * blocks 16 * c0 apart), so its elements are gathered first */
  uint8_t *row = NULL;
  if (q->m->bias_l1) {
    row = sim_cube_range(x, q->in, &q->m->bias, q->bias_n0 * es, cols * es, 0,
                         "bias");
    if (!row)
      return 0;
  }
  uint8_t *s = row ? NULL
                   : sim_cube_range(x, q->in, &l1, 0,
                                    cdiv(cols * es, 32) * 32 * 16, 0, "L1");
  if (!row)
    sim_cube_bounding(x, n); /* the block's rows 1..15: not written */
  if (!s && !row)
    return 0;
  uint8_t *d = host;
  if (q->bt + cols * 4 <= sim_cube_mem_size(x->b, SIM_CMEM_BT)) {
    AscTensorRef bt = cube_ref(ASC_TPOSITION_C2, q->acc, q->bt);
    d = sim_cube_range(x, q->in, &bt, 0, cols * 4, 1, "bias table");
    if (!d)
      return 0;
  }
  /* the ND row as one NZ block row: column c at (c / c0) * 16 * c0 + c %
   * c0 */
  int64_t c0 = 32 / es;
  for (int64_t c = 0; c < cols; c++) {
    const uint8_t *e =
        row ? row + c * es : s + ((c / c0) * 16 * c0 + c % c0) * es;
    uint8_t v[4];
    if (dt == ASC_DT_FLOAT16 || dt == ASC_DT_BFLOAT16) {
      uint16_t h;
      memcpy(&h, e, 2);
      float f = dt == ASC_DT_FLOAT16 ? asc_f16_to_f32(h) : asc_bf16_to_f32(h);
      memcpy(v, &f, 4);
    } else {
      memcpy(v, e, 4);
    }
    memcpy(d + c * 4, v, 4);
  }
  *bias = d;
  return step_done(q, ST_LOAD_BIAS, q->acc, cols, cols * 4) &&
         flag(q, 1, ASC_HARDEVENT_MTE1_MTE2, ID_BIAS);
}

/* ---- L0C -> GM / UB (Fixpipe) -------------------------------------------- */

/* The store-atomic dtype of a C element type; 0 for none. */
static int atomic_dtype(AscDType dt) {
  switch (dt) {
  case ASC_DT_FLOAT32:
    return 1;
  case ASC_DT_FLOAT16:
    return 2;
  case ASC_DT_INT32:
    return 4;
  case ASC_DT_BFLOAT16:
    return 6;
  default:
    return 0;
  }
}

/* A row of values in dt (the fixpipe's rounding to C's dtype). */
static void store_row(AscDType dt, uint8_t *p, const double *v, int64_t n) {
  if (dt == ASC_DT_FLOAT32) {
    for (int64_t j = 0; j < n; j++) {
      float f = (float)v[j];
      memcpy(p + 4 * j, &f, 4);
    }
    return;
  }
  for (int64_t j = 0; j < n; j++) {
    AscScalar sc = {v[j], asc_float_to_int64(v[j])};
    asc_store_scalar(dt, p, j, sc);
  }
}

static int write_gm(Seq *q, const MmOut *o, int64_t off, int64_t rows,
                    int64_t cols, const double *v) {
  AscExec *x = q->x;
  AscDType dt = (AscDType)o->t->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  AscCoreRegs *r = &x->b->regs;
  int saved_type = r->atomic_type, saved_op = r->atomic_op, ok = 1;
  if (o->en_atomic) {
    r->atomic_type = atomic_dtype(dt);
    r->atomic_op = (int)o->en_atomic - 1;
  }
  SimGmSpan g;
  uint8_t *buf = malloc((size_t)(cols * es));
  if (!buf) {
    sim_fail(x, q->in, "Matmul: out of host memory");
    ok = 0;
  } else if (!gm_rows(q, o->t, off, o->ld, rows, cols, 1, "C", &g)) {
    ok = 0;
  }
  for (int64_t i = 0; ok && i < rows; i++) {
    store_row(dt, buf, v + i * cols, cols);
    int64_t at = i * o->ld * es - g.skip, lo = 0, hi = cols * es;
    /* the part of the row inside the argument */
    if (at < 0)
      lo = -at < hi ? -at : hi;
    if (at + hi > g.valid)
      hi = g.valid - at > lo ? g.valid - at : lo;
    lo = align(lo, es);
    hi = hi / es * es;
    if (g.p && hi > lo &&
        sim_gm_store(x, q->in, g.p + at + lo, buf + lo, hi - lo) != ASC_OK)
      ok = 0;
  }
  free(buf);
  r->atomic_type = saved_type;
  r->atomic_op = saved_op;
  return ok;
}

static int fixpipe(Seq *q, const MmOut *o, int64_t off, int64_t n0,
                   int64_t rows, int64_t cols, int computed) {
  AscExec *x = q->x;
  int64_t m1 = cdiv(rows, 16), n1 = cdiv(cols, 16);
  double *v = malloc(sizeof(double) * (size_t)(rows * cols));
  if (!v) {
    sim_fail(x, q->in, "Matmul: out of host memory");
    return 0;
  }
  int ok = 1;
  if (computed) {
    AscTensorRef l0c = cube_ref(ASC_TPOSITION_CO1, q->acc, q->l0c);
    int n = x->b->ev.n_acc;
    uint8_t *s = sim_cube_range(x, q->in, &l0c, 0, m1 * n1 * 1024, 0, "L0C");
    sim_cube_bounding(x, n);
    if (!s)
      ok = 0;
    /* NZ: row i of column block jb is 16 contiguous values */
    for (int64_t i = 0; ok && i < rows; i++)
      for (int64_t jb = 0; jb < n1; jb++) {
        const uint8_t *e = s + ((jb * m1 + i / 16) * 256 + (i % 16) * 16) * 4;
        double *out = v + i * cols + jb * 16;
        int64_t len = cols - jb * 16 < 16 ? cols - jb * 16 : 16;
        if (q->acc == ASC_DT_INT32) {
          int32_t iv[16];
          memcpy(iv, e, 64);
          for (int64_t j = 0; j < len; j++)
            out[j] = iv[j];
        } else {
          float f[16];
          memcpy(f, e, 64);
          for (int64_t j = 0; j < len; j++)
            out[j] = f[j];
        }
      }
  } else { /* singleK 0: no Mmad, each sum is its start (0 or the bias) */
    memset(v, 0, sizeof(double) * (size_t)(rows * cols));
    SimGmSpan g;
    const AscTensorRef *bt = &q->m->bias;
    int64_t bes = (int64_t)asc_dtype_size((AscDType)bt->dtype);
    memset(&g, 0, sizeof g);
    if (q->m->has_bias && q->m->bias_l1) { /* mmlocal: the row in L1 */
      g.p = sim_cube_range(x, q->in, bt, n0 * bes, cols * bes, 0, "bias");
      g.valid = cols * bes;
      ok = g.p != NULL;
    } else if (q->m->has_bias &&
               !gm_rows(q, bt, n0, cols, 1, cols, 0, "bias", &g)) {
      ok = 0;
    }
    for (int64_t j = 0; ok && q->m->has_bias && j < cols; j++) {
      int64_t at = j * bes - g.skip;
      double bv = g.p && at >= 0 && at + bes <= g.valid
                      ? asc_load_f((AscDType)bt->dtype, g.p + at, 0)
                      : 0.0;
      if (q->acc == ASC_DT_INT32)
        bv = (double)(int32_t)bv;
      else
        bv = (double)(float)bv;
      for (int64_t i = 0; i < rows; i++)
        v[i * cols + j] = bv;
    }
  }
  ok = ok && sim_mm_convert(x, q->in, q->m, n0, rows, cols, v);
  AscDType dt = (AscDType)o->t->dtype;
  int64_t es = (int64_t)asc_dtype_size(dt);
  if (ok && !o->to_ub) {
    ok = write_gm(q, o, off, rows, cols, v) &&
         step_done(q, ST_FIX_GM, dt, rows * cols, rows * cols * es);
  } else if (ok) {
    /* to a UB tensor: the Fixpipe's values reach it once the scalar unit
     * has waited for them (in a MIX kernel through the AIC's workspace
     * and the AIV's client); the write is ordered as the call's own */
    ok = step_done(q, ST_FIX_UB, dt, rows * cols, rows * cols * es) &&
         sync(q, ASC_HARDEVENT_FIX_S, 0);
    int64_t need = off + (rows - 1) * o->ld + cols;
    uint8_t *p = ok ? sim_local_ptr(x, q->in, o->t, need, 1, "tensor") : NULL;
    if (!p)
      ok = 0;
    for (int64_t i = 0; p && i < rows; i++)
      store_row(dt, p + (off + i * o->ld) * es, v + i * cols, cols);
    ok = ok && step_done(q, ST_UB_COPY, dt, rows * cols, rows * cols * es);
  }
  free(v);
  return ok;
}

/* ---- one base block -------------------------------------------------------
 */

/* mmlocal: the tile of an A or B the kernel put in L1 (the devkit's
 * FROM_L1 copy-in: no copy, the loads read the user's tensor). The tensor
 * holds the single-core matrix as GM would store it (A M x K, K x M
 * transposed; B K x N, N x K transposed) in NZ: column blocks of c0
 * elements, each of its rows aligned to 16; the tile is the part of it
 * from (row, column) of the step, whose offsets the fractals must keep. */
static int tile_l1(Seq *q, int is_a, Tile *t, int64_t k0, int64_t kl,
                   int64_t x0, int64_t xl) {
  const AscSimMatmul *m = q->m;
  const Shape *s = q->s;
  const AscTensorRef *u = is_a ? &m->a : &m->b;
  int trans = is_a ? m->trans_a : m->trans_b;
  int kmajor = is_a ? trans : !trans;
  int64_t xs = is_a ? s->sm : s->sn; /* the non-K extent */
  int64_t rows = kmajor ? s->sk : xs, cols = kmajor ? xs : s->sk;
  int64_t r0 = kmajor ? k0 : x0, c0i = kmajor ? x0 : k0;
  int64_t h = align(rows, 16), need;
  if (r0 % 16 || c0i % q->c0) {
    sim_fail(q->x, q->in,
             "Matmul: %s in L1: a step starts at row %lld, column %lld of "
             "its NZ matrix, not at a fractal (rows of 16, columns of %lld)",
             is_a ? "A" : "B", (long long)r0, (long long)c0i, (long long)q->c0);
    return 0;
  }
  if (asc_mul_i64(cdiv(cols, q->c0) * 32, h, &need) ||
      (u->len >= 0 && need > u->len * q->es)) {
    sim_fail(q->x, q->in,
             "Matmul: %s in L1 holds %lld elements; its %lld x %lld NZ "
             "matrix (rows aligned to 16) needs %lld",
             is_a ? "A" : "B", (long long)u->len, (long long)rows,
             (long long)cols, (long long)(need / q->es));
    return 0;
  }
  t->k0 = k0;
  t->kl = kl;
  t->x0 = x0;
  t->xl = xl;
  t->h = h;
  t->valid = 0; /* not one of the Matmul's own L1 slots */
  if (asc_add_i64(u->addr, ((c0i / q->c0) * h + r0) * 32, &t->addr)) {
    sim_fail(q->x, q->in, "Matmul: address out of range");
    return 0;
  }
  return 1;
}

/* The A or B tile of K tile index ti into slot, GM -> L1. */
static int tile_in(Seq *q, int is_a, int64_t ti, int64_t m0, int64_t n0,
                   int64_t rows, int64_t cols) {
  const AscSimMatmul *m = q->m;
  const Shape *s = q->s;
  int64_t step = is_a ? q->step_ka : q->step_kb;
  int64_t slot = ti % (is_a ? q->slots_a : q->slots_b);
  Tile *t = is_a ? &q->ta[slot] : &q->tb[slot];
  int id = (int)((is_a ? ID_A : ID_B) + slot);
  int64_t k0 = ti * step * s->bk;
  int64_t kl = s->sk - k0 < step * s->bk ? s->sk - k0 : step * s->bk;
  int64_t x0 = is_a ? m0 : n0, xl = is_a ? rows : cols;
  if (!flag(q, 0, ASC_HARDEVENT_MTE1_MTE2, id))
    return 0;
  if (is_a ? m->a_l1 : m->b_l1)
    return tile_l1(q, is_a, t, k0, kl, x0, xl);
  /* the slot holds this tile still (the previous block's, of the same
   * rows of A or columns of B: the devkit's L1 cache of depthA1 / depthB1
   * tiles): no copy */
  if (t->valid && t->k0 == k0 && t->kl == kl && t->x0 == x0 && t->xl == xl)
    return 1;
  t->k0 = k0;
  t->kl = kl;
  t->x0 = x0;
  t->xl = xl;
  t->addr = is_a ? q->l1_a[slot] : q->l1_b[slot];
  int trans = is_a ? m->trans_a : m->trans_b;
  /* the tile as GM stores it: A M x K (K x M transposed), B K x N (N x K) */
  int kmajor = is_a ? trans : !trans;
  int64_t ld = is_a ? s->lda : s->ldb;
  int64_t grow = kmajor ? t->kl : xl, gcol = kmajor ? xl : t->kl;
  int64_t off = kmajor ? t->k0 * ld + x0 : x0 * ld + t->k0;
  t->h = align(grow, 16);
  t->valid = 1;
  return copy_in(q, is_a ? ST_COPY_A : ST_COPY_B, is_a ? &m->a : &m->b, off, ld,
                 grow, gcol, is_a ? ASC_TPOSITION_A1 : ASC_TPOSITION_B1,
                 t->addr, t->h) &&
         sync(q, ASC_HARDEVENT_MTE2_MTE1, id);
}

static int base_block(Seq *q, const MmOut *o, int64_t off, int64_t m0,
                      int64_t n0, int64_t rows, int64_t cols) {
  AscExec *x = q->x;
  const AscSimMatmul *m = q->m;
  const Shape *s = q->s;
  int64_t k_iter = cdiv(s->sk, s->bk);
  /* L0C free; mmlocal: the kernel's own CO1 tensor is its to order (the
   * devkit's user-managed CO1: its queue's EnQue / DeQue around Fixpipe) */
  if (o->to_l0c != 1 && !flag(q, 0, ASC_HARDEVENT_FIX_M, 0))
    return 0;
  const uint8_t *bias = NULL;
  uint8_t *host_bias = NULL;
  if (m->has_bias && k_iter > 0) {
    host_bias = malloc((size_t)(cols * 4));
    if (!host_bias) {
      sim_fail(x, q->in, "Matmul: out of host memory");
      return 0;
    }
    if (!bias_in(q, n0, cols)) {
      free(host_bias);
      return 0;
    }
  }
  int ok = 1;
  for (int64_t kk = 0; ok && kk < k_iter; kk++) {
    int64_t ia = kk / q->step_ka, ib = kk / q->step_kb;
    if (kk % q->step_ka == 0)
      ok = tile_in(q, 1, ia, m0, n0, rows, cols);
    if (ok && kk % q->step_kb == 0)
      ok = tile_in(q, 0, ib, m0, n0, rows, cols);
    if (!ok)
      break;
    const Tile *ta = &q->ta[ia % q->slots_a], *tb = &q->tb[ib % q->slots_b];
    int64_t kabs = kk * s->bk;
    int64_t kl = s->sk - kabs < s->bk ? s->sk - kabs : s->bk;
    int ping = (int)(q->l0_db ? kk % 2 : 0);
    ok = flag(q, 0, ASC_HARDEVENT_M_MTE1, ping) &&
         (kk > 0 || !host_bias || bias_table(q, cols, host_bias, &bias)) &&
         load_l0(q, 1, ta, ASC_TPOSITION_A1, m->trans_a, q->l0a[ping],
                 kabs - ta->k0, kl, rows) &&
         load_l0(q, 0, tb, ASC_TPOSITION_B1, !m->trans_b, q->l0b[ping],
                 kabs - tb->k0, kl, cols);
    /* a tile's last step: its L1 slot is free once the loads are done */
    if (ok && ((kk + 1) % q->step_ka == 0 || kk + 1 == k_iter))
      ok = flag(q, 1, ASC_HARDEVENT_MTE1_MTE2, (int)(ID_A + ia % q->slots_a));
    if (ok && ((kk + 1) % q->step_kb == 0 || kk + 1 == k_iter))
      ok = flag(q, 1, ASC_HARDEVENT_MTE1_MTE2, (int)(ID_B + ib % q->slots_b));
    if (!ok || !sync(q, ASC_HARDEVENT_MTE1_M, ping)) {
      ok = 0;
      break;
    }
    /* Mmad: L0A x L0B into L0C */
    int64_t m1 = cdiv(rows, 16), n1 = cdiv(cols, 16), k1 = cdiv(kl, q->c0);
    AscTensorRef ra = cube_ref(ASC_TPOSITION_A2, q->at, q->l0a[ping]);
    AscTensorRef rb = cube_ref(ASC_TPOSITION_B2, q->at, q->l0b[ping]);
    AscTensorRef rc = o->to_l0c == 1
                          ? *o->t /* mmlocal: the user's CO1 */
                          : cube_ref(ASC_TPOSITION_CO1, q->acc, q->l0c);
    AscTensorRef rbt = cube_ref(ASC_TPOSITION_C2, q->acc, q->bt);
    int n = x->b->ev.n_acc;
    uint8_t *pa = sim_cube_range(x, q->in, &ra, 0, m1 * k1 * 512, 0, "L0A");
    uint8_t *pb =
        pa ? sim_cube_range(x, q->in, &rb, 0, k1 * n1 * 512, 0, "L0B") : NULL;
    const uint8_t *start = kk == 0 && !o->partial ? bias : NULL;
    if (pb && start && start != host_bias &&
        !sim_cube_range(x, q->in, &rbt, 0, cols * 4, 0, "bias table"))
      pb = NULL;
    sim_cube_bounding(x, n);
    uint8_t *pc =
        pb ? sim_cube_range(x, q->in, &rc, 0, m1 * n1 * 1024, 1, "L0C") : NULL;
    if (!pc) {
      ok = 0;
      break;
    }
    SimMmad mp = {
        q->at, rows,    cols,         kl, kk == 0 && !start && !o->partial,
        start, m->hf32, m->hf32_trans};
    if (!sim_mmad_compute(&mp, pa, pb, pc)) {
      sim_fail(x, q->in, "Matmul: out of host memory");
      ok = 0;
      break;
    }
    ok = step_done(q, ST_MMAD, q->at,
                   m1 * n1 * k1 * (q->at == ASC_DT_FLOAT32 ? 2 : 1),
                   m1 * n1 * 1024) &&
         flag(q, 1, ASC_HARDEVENT_M_MTE1, ping) &&
         (kk + 1 == k_iter || barrier_m(q));
  }
  free(host_bias);
  if (!ok)
    return 0;
  if (o->to_l0c == 1) /* mmlocal: the kernel's own Fixpipe moves it out */
    return 1;
  if (o->to_l0c == 2) /* the block stays in the Matmul's L0C */
    return flag(q, 1, ASC_HARDEVENT_FIX_M, 0);
  return sync(q, ASC_HARDEVENT_M_FIX, 0) &&
         fixpipe(q, o, off, n0, rows, cols, k_iter > 0) &&
         flag(q, 1, ASC_HARDEVENT_FIX_M, 0);
}

/* Places the buffers (the top of the file); 0 after sim_fail. */
static int plan(Seq *q, const MmOut *o) {
  AscExec *x = q->x;
  AscBlockState *b = x->b;
  const Shape *s = q->s;
  const int64_t *tl = q->m->tiling;
  int64_t k_iter = cdiv(s->sk, s->bk);
  q->step_ka = tl[TL_STEP_KA] > 0 ? tl[TL_STEP_KA] : 1;
  q->step_kb = tl[TL_STEP_KB] > 0 ? tl[TL_STEP_KB] : 1;
  if (k_iter > 0 && q->step_ka > k_iter)
    q->step_ka = k_iter;
  if (k_iter > 0 && q->step_kb > k_iter)
    q->step_kb = k_iter;
  q->slots_a = tl[TL_DEPTH_A1] >= 2 * q->step_ka ? 2 : 1;
  q->slots_b = tl[TL_DEPTH_B1] >= 2 * q->step_kb ? 2 : 1;
  int64_t c0 = q->c0;
  int64_t l1_base = align(b->pipe.cube_used[SIM_CMEM_L1], 512);
  int64_t l1_cap = sim_cube_mem_capacity(b, SIM_CMEM_L1) - l1_base;
  int64_t bias_bytes = q->m->has_bias ? align(s->bn * 4, 32) * 16 : 0;
  for (;;) {
    /* a tile holds the larger of its two layouts (K as rows or as
     * columns), 16-row aligned and c0-column aligned */
    int64_t ka = q->step_ka * s->bk, kb = q->step_kb * s->bk;
    int64_t ta = align(s->bm, 16) * align(ka, c0) * q->es;
    int64_t ta2 = align(ka, 16) * align(s->bm, c0) * q->es;
    int64_t tb = align(s->bn, 16) * align(kb, c0) * q->es;
    int64_t tb2 = align(kb, 16) * align(s->bn, c0) * q->es;
    ta = align(ta > ta2 ? ta : ta2, 512);
    tb = align(tb > tb2 ? tb : tb2, 512);
    if (q->slots_a * ta + q->slots_b * tb + bias_bytes <= l1_cap) {
      q->l1_a[0] = l1_base;
      q->l1_a[1] = l1_base + ta;
      q->l1_b[0] = l1_base + q->slots_a * ta;
      q->l1_b[1] = q->l1_b[0] + tb;
      q->l1_bias = q->l1_b[0] + q->slots_b * tb;
      break;
    }
    if (q->slots_a > 1 || q->slots_b > 1) {
      q->slots_a = q->slots_b = 1;
    } else if (q->step_ka > 1 || q->step_kb > 1) {
      q->step_ka = q->step_kb = 1;
    } else {
      sim_fail(x, q->in,
               "Matmul: the base blocks (%lld x %lld x %lld) do not fit "
               "the L1 left after the TPipe's buffers (%lld bytes)",
               (long long)s->bm, (long long)s->bn, (long long)s->bk,
               (long long)l1_cap);
      return 0;
    }
  }
  int64_t la = align(s->bm, 16) * align(s->bk, c0) * q->es;
  int64_t lb = align(s->bn, 16) * align(s->bk, c0) * q->es;
  int64_t lc = align(s->bm, 16) * align(s->bn, 16) * 4;
  int64_t a0 = align(b->pipe.cube_used[SIM_CMEM_L0A], 512);
  int64_t b0 = align(b->pipe.cube_used[SIM_CMEM_L0B], 512);
  int64_t l0 = sim_cube_mem_size(b, SIM_CMEM_L0A);
  q->l0c = align(b->pipe.cube_used[SIM_CMEM_L0C], 512);
  q->bt = align(b->pipe.cube_used[SIM_CMEM_BT], 64);
  if (o->to_l0c == 1) /* mmlocal: the user's CO1 tensor (bounds: its own) */
    q->l0c = o->t->addr;
  if (a0 + la > l0 || b0 + lb > l0 ||
      (o->to_l0c != 1 && q->l0c + lc > sim_cube_mem_size(b, SIM_CMEM_L0C))) {
    sim_fail(x, q->in,
             "Matmul: a base block of %lld x %lld x %lld does not fit L0A "
             "/ L0B (%lld bytes) or L0C (%lld bytes)",
             (long long)s->bm, (long long)s->bn, (long long)s->bk,
             (long long)l0, (long long)sim_cube_mem_size(b, SIM_CMEM_L0C));
    return 0;
  }
  /* the devkit's L0 ping-pong: halves of L0A and L0B */
  q->l0_db = a0 + 2 * align(la, 512) <= l0 && b0 + 2 * align(lb, 512) <= l0;
  q->l0a[0] = a0;
  q->l0a[1] = a0 + align(la, 512);
  q->l0b[0] = b0;
  q->l0b[1] = b0 + align(lb, 512);
  return 1;
}

int sim_mm_block(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                 const Shape *s, int64_t m0, int64_t n0, int64_t rows,
                 int64_t cols, const MmOut *o, int64_t *fractals) {
  (void)fractals; /* the work is in the steps' events */
  if (!rows || !cols)
    return 1;
  Seq q;
  memset(&q, 0, sizeof q);
  q.x = x;
  q.in = in;
  q.m = m;
  q.s = s;
  q.obs = x->b->n_observers > 0;
  q.at = (AscDType)m->a.dtype;
  q.ct = (AscDType)o->t->dtype;
  int integer = q.at == ASC_DT_INT8 || q.at == ASC_DT_UINT8;
  q.acc = integer ? ASC_DT_INT32 : ASC_DT_FLOAT32;
  q.es = (int64_t)asc_dtype_size(q.at);
  if (q.es <= 0 || q.es > 4 || (AscDType)m->b.dtype != q.at) {
    sim_fail(x, in, "Matmul: A and B of %s and %s are not simulated",
             asc_dtype_name(q.at), asc_dtype_name((AscDType)m->b.dtype));
    return 0;
  }
  q.c0 = 32 / q.es;
  if (o->to_l0c == 1 && (AscDType)o->t->dtype != q.acc) {
    sim_fail(x, in,
             "Matmul: the CO1 tensor of iterate is %s; %s inputs sum in %s",
             asc_dtype_name((AscDType)o->t->dtype), asc_dtype_name(q.at),
             asc_dtype_name(q.acc));
    return 0;
  }
  if (!plan(&q, o))
    return 0;
  /* Init: every buffer free */
  int ok = o->to_l0c == 1 || flag(&q, 1, ASC_HARDEVENT_FIX_M, 0);
  for (int i = 0; i < 2 && ok; i++)
    ok = flag(&q, 1, ASC_HARDEVENT_M_MTE1, i);
  for (int i = 0; i < q.slots_a && ok; i++)
    ok = flag(&q, 1, ASC_HARDEVENT_MTE1_MTE2, ID_A + i);
  for (int i = 0; i < q.slots_b && ok; i++)
    ok = flag(&q, 1, ASC_HARDEVENT_MTE1_MTE2, ID_B + i);
  if (ok && m->has_bias)
    ok = flag(&q, 1, ASC_HARDEVENT_MTE1_MTE2, ID_BIAS);
  /* the base blocks of the region, in iterateOrder */
  int64_t mb = cdiv(rows, s->bm), nb = cdiv(cols, s->bn);
  for (int64_t c = 0; ok && c < mb * nb; c++) {
    int64_t bi = s->order == 1 ? c / nb : c % mb;
    int64_t bj = s->order == 1 ? c % nb : c / mb;
    int64_t r = rows - bi * s->bm < s->bm ? rows - bi * s->bm : s->bm;
    int64_t cl = cols - bj * s->bn < s->bn ? cols - bj * s->bn : s->bn;
    int64_t off = o->off + bi * s->bm * o->ld + bj * s->bn;
    ok = base_block(&q, o, off, m0 + bi * s->bm, n0 + bj * s->bn, r, cl);
  }
  if (!ok)
    return 0;
  /* End: the buffers' flags back; the scalar unit waits for the Fixpipe */
  ok = o->to_l0c == 1 || flag(&q, 0, ASC_HARDEVENT_FIX_M, 0);
  for (int i = 0; i < 2 && ok; i++)
    ok = flag(&q, 0, ASC_HARDEVENT_M_MTE1, i);
  for (int i = 0; i < q.slots_a && ok; i++)
    ok = flag(&q, 0, ASC_HARDEVENT_MTE1_MTE2, ID_A + i);
  for (int i = 0; i < q.slots_b && ok; i++)
    ok = flag(&q, 0, ASC_HARDEVENT_MTE1_MTE2, ID_B + i);
  if (ok && m->has_bias)
    ok = flag(&q, 0, ASC_HARDEVENT_MTE1_MTE2, ID_BIAS);
  return ok && (o->to_l0c == 1 || sync(&q, ASC_HARDEVENT_FIX_S, 0));
}
