/* family: matmul. The state of an asc.adv.Matmul object on one core
 * (matmul.c: the API, which blocks a call computes) and the computation of
 * one base block of C (matmul_block.c: how a block is computed and where it
 * is written). */
#ifndef ASC_SIM_MATMUL_H
#define ASC_SIM_MATMUL_H

#include <stdint.h>

#include "sim.h"

enum { MM_MAX_OBJECTS = 8, MM_TILING_FIELDS = 50 };

/* TCubeTiling's fields by index (include/asc/structs.def order) */
enum {
  TL_M = 1,
  TL_N = 2,
  TL_KA = 3,
  TL_KB = 4,
  TL_SINGLE_M = 5,
  TL_SINGLE_N = 6,
  TL_SINGLE_K = 7,
  TL_BASE_M = 8,
  TL_BASE_N = 9,
  TL_BASE_K = 10,
  TL_IS_BIAS = 15,
  TL_ITERATE_ORDER = 17,
  /* mmlocal: the batch layouts' dimensions (ALayoutInfoB.. CLayoutInfoS2) */
  TL_A_LAYOUT_B = 33,
  TL_B_LAYOUT_B = 38,
  TL_C_LAYOUT_B = 43
};

struct AscSimMatmul {
  int64_t tiling[MM_TILING_FIELDS];
  int has_tiling;
  AscTensorRef a, b, bias;
  int has_a, has_b, has_bias, trans_a, trans_b;
  int64_t single_m, single_n, single_k;         /* < 0: the tiling's */
  int64_t org_m, org_n, org_ka, org_kb, org_kc; /* < 0: the tiling's */
  int64_t iter; /* blocks Iterate has started; 0: none */
  int64_t cur_m, cur_n;
  /* SetQuantScalar / SetQuantVector: how the block's L0C values are
   * converted to C's dtype (the fixpipe's quantisation); quant_mode 0:
   * none, 1: one scalar (quant_scalar, the bits of a uint64 as the devkit
   * passes them), 2: a vector of per-column scales in GM (quant_vec), 3:
   * such a vector in L1 (mmapi) */
  int quant_mode;
  uint64_t quant_scalar;
  AscTensorRef quant_vec;
  /* SetHF32(enable, transMode): fp32 inputs multiplied as HF32 */
  int hf32, hf32_trans;
  /* ---- mmapi: the state of the rest of the API (matmul.c) -------------
   * c_dtype: C's element type, set by each computation before it calls
   * sim_mm_block (sim_mm_convert's quantisation depends on it) */
  uint8_t c_dtype;
  int32_t batch_a, batch_b; /* SetBatchNum */
  int has_batch_num;
  AscTensorRef ws; /* SetWorkspace; ws_bytes < 0: its size unknown */
  int64_t ws_bytes;
  int has_ws;
  int iter_async;    /* the current Iterate loop is Iterate<false> */
  int64_t c_off;     /* bytes of ws the async GetTensorC forms used */
  int pending_all;   /* IterateAll<false>(..., waitIterateAll=true) */
  int pending_batch; /* IterateBatch/NBatch<false, true> */
  int has_nbatch;    /* IterateNBatch's Cs in ws: [nb_off, nb_end) */
  int64_t nb_off, nb_end;
  uint64_t self_define_data, user_def_info; /* for callbacks; unread */
  AscTensorRef sparse_index;
  int has_sparse_index;
  /* ---- mmlocal: A, B or bias an L1 LocalTensor (SetTensorA(local), ...:
   * the devkit's FROM_L1 copy-in: the loads read it, no GM -> L1 copy);
   * A and B in NZ, the bias an ND row */
  int a_l1, b_l1, bias_l1;
  /* family: adv tiling (misc): the single-core and base shape of the
   * constant tiling (MatmulApiStaticTiling) the object was made with,
   * fields 5..10 of the tiling (singleCoreM..baseK); <= 0: not constant */
  int64_t static_shape[6];
  /* Iterate(enPartialSum = true): the current block's Mmads add to what
   * the Matmul's L0C holds (the block before), GetTensorC then moves it */
  int partial;
  /* whether a GetTensorC form computed the current block (block_done) and
   * that block's enPartialSum (prev_partial); has_prev: there is one */
  int block_done, prev_partial, has_prev;
  /* LayoutMode of A, B, C (IterateBatch's BSNGD / SBNGD addressing) */
  uint8_t layout_a, layout_b, layout_c;
};

/* The shapes a computation uses. */
typedef struct Shape {
  int64_t sm, sn, sk;         /* single-core shape */
  int64_t bm, bn, bk;         /* base block */
  int64_t lda, ldb, ldc;      /* row strides of A, B, C in elements */
  int64_t m_blocks, n_blocks; /* base blocks along M and N */
  int order;                  /* iterateOrder */
} Shape;

/* Where a block of C goes: GM tensor t from element off, rows ld elements
 * apart, combined by the store-atomic mode en_atomic (0 none, 1 add, 2 max,
 * 3 min); or (to_ub) a UB tensor t, rows ld elements apart from its start. */
typedef struct MmOut {
  const AscTensorRef *t;
  int64_t off, ld, en_atomic;
  int to_ub;
  /* mmlocal: to_l0c 1: t is the user's CO1 tensor (Iterate(enPartialSum,
   * localCmatrix)): the block's Mmads accumulate there and no Fixpipe
   * follows; 2: the block stays in the Matmul's own L0C (t unused but
   * set). partial: the first Mmad adds to what the L0C holds */
  int to_l0c, partial;
} MmOut;

/* Computes the rows x cols block of C at (m0, n0) of the single-core shape
 * (A * B over all of singleK, plus bias) and writes it to o, as the
 * devkit's instruction sequence over its base blocks (matmul_block.c),
 * whose steps it shows the observers as sub-events, ending with the scalar
 * unit's wait for the last Fixpipe. *fractals is left as it is: the cube
 * work is in the steps' events, not in the call's own. Returns 0 after
 * sim_fail. */
int sim_mm_block(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                 const Shape *s, int64_t m0, int64_t n0, int64_t rows,
                 int64_t cols, const MmOut *o, int64_t *fractals);

/* The fixpipe's conversion of a block's L0C values (rows x cols from
 * column n0, row-major in v, fp32 or int32 values held as doubles) into
 * what C receives, in place: the object's quantisation (SetQuantScalar /
 * SetQuantVector; reads the per-column scales from GM). Returns 0 after
 * sim_fail (matmul_quant.c). */
int sim_mm_convert(AscExec *x, const AscInstr *in, const AscSimMatmul *m,
                   int64_t n0, int64_t rows, int64_t cols, double *v);

#endif
