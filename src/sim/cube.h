/* The cube core's memories and the cube family's shared helpers (cube.c,
 * cube_ops.c). */
#ifndef ASC_SIM_CUBE_H
#define ASC_SIM_CUBE_H

#include "sim.h"

/* The cube core's memories, in the order of AscBlockState.cube_mem and
 * AscSimPipe.cube_used (ASC_SPACE_CUBE + mem in the events). */
typedef enum SimCubeMem {
  SIM_CMEM_L1,
  SIM_CMEM_L0A,
  SIM_CMEM_L0B,
  SIM_CMEM_L0C,
  SIM_CMEM_BT, /* bias table */
  SIM_CMEM_FB, /* fixpipe buffer */
  SIM_CMEM_COUNT
} SimCubeMem;

/* The cube memory a TPosition addresses on arch 2201, -1 for GM and the
 * UB positions. */
int sim_cube_mem_of_position(int position);
/* A memory's name ("L1", "L0A", ...). */
const char *sim_cube_mem_name(int mem);
/* Its size in bytes on the block's platform; the part of it the
 * framework's Matmul may use (L1 less the Matmul messages' reserved end,
 * TOTAL_L1_SIZE); the part a kernel may place its own buffers and tensors
 * in (the L1 of a MIX kernel less the 256 bytes of ASC_L1_SIZE's reserve:
 * AscBlockState.reserve), and the text saying so, for error messages. */
int64_t sim_cube_mem_size(const AscBlockState *b, int mem);
int64_t sim_cube_mem_capacity(const AscBlockState *b, int mem);
int64_t sim_cube_mem_user(const AscBlockState *b, int mem);
const char *sim_cube_mem_note(const AscBlockState *b, int mem, char *buf,
                              size_t n);
/* init_buffer's bump allocation of `bytes` in memory `mem`. */
AscStatus sim_cube_take(AscExec *x, const AscInstr *in, const char *api,
                        int mem, int64_t bytes, int64_t *base);
/* Checks an access of bytes [off, off + nbytes) of local tensor t in its
 * cube memory (the tensor's extent and the memory's), records it for the
 * observers and returns a pointer to its first byte, or NULL after a
 * KernelError. */
uint8_t *sim_cube_range(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                        int64_t off, int64_t nbytes, int write,
                        const char *what);
/* Marks the accesses recorded since access n_before as bounding: the
 * fractals a cube instruction reads hold padding nothing wrote (rows past m,
 * columns past n), so the sanitizer checks races on them but not
 * uninitialised reads. */
void sim_cube_bounding(AscExec *x, int n_before);
/* family: matmul (mmseq). DataCopy GM -> L1 with Nd2NzParams, its data
 * movement: nd matrices of n rows of d elements (es bytes each; src_d
 * apart, matrices src_mat apart) from the span g into NZ at o (32-byte
 * blocks of c0 = 32 / es elements, a row's blocks c0_stride blocks apart,
 * rows n_stride blocks apart, matrices dst_mat elements apart), the
 * columns past d of the last block zero, elements outside the argument
 * zero (cube_ops.c). The caller checked the ranges. */
typedef struct SimNd2Nz {
  int64_t nd, n, d, src_mat, src_d, c0_stride, n_stride, dst_mat;
} SimNd2Nz;
void sim_cube_nd2nz_move(const SimNd2Nz *p, int64_t es, const SimGmSpan *g,
                         uint8_t *o);
/* Frees the block's cube memories (after the block). */
void sim_cube_free(AscBlockState *b);

/* family: cube. The fixpipe's conversion of one L0C element (cube_fixpipe.c):
 * mode a QuantMode_t value (NoQuant 0 ... VREQ8 8), q the quant parameter
 * (the scalar QUANT_PRE / deqScalar, or the column's uint64 of the
 * cbuf_workspace in a vector mode), relu the params' relu_en; src the
 * element (st: float32 or int32), out receives dst's bytes (dt). The pair
 * (mode, st -> dt) must be one sim_fixpipe_mode_ok accepts. */
void sim_fixpipe_convert(int mode, uint64_t q, int relu, AscDType st,
                         const uint8_t *src, AscDType dt, uint8_t *out);
int sim_fixpipe_mode_ok(int mode, AscDType st, AscDType dt);
/* VDEQF16, VQF322B8_PRE, VREQ8: the per-channel forms */
int sim_fixpipe_is_vector_mode(int mode);
/* HF32 rounding of an fp32 Mmad operand (cube_hf32.c): 11 mantissa bits,
 * to nearest; trans_mode 1 (SetHF32TransMode(true), NEAREST_ZERO) ties
 * away from zero, 0 ties to even; inf and NaN unchanged. */
float sim_hf32_round(float v, int trans_mode);

/* The unit flag of Mmad (is_mmad 1) and Fixpipe (0) as the observers see
 * it (cube_unitflag.c): _begin before the instruction records its
 * accesses, _end as it returns ASC_OK. */
/* MmadParams m, n and k each in [0, 4095] (the instruction's 12-bit fields;
 * Mmad.md); api names the instruction in the error. */
AscStatus sim_mmad_dims(AscExec *x, const AscInstr *in, const char *api,
                        int64_t m, int64_t n, int64_t k);

AscStatus sim_unit_flag_begin(AscExec *x, const AscInstr *in, int is_mmad);
AscStatus sim_unit_flag_end(AscExec *x, const AscInstr *in, int is_mmad);

#endif
