/* family: softmax. The SoftMax tiling (the devkit's SoftMaxTiling, 16
 * uint32_t members) as the host computes it (SoftMaxTilingFunc,
 * GetSoftMaxMaxTmpSize / GetSoftMaxMinTmpSize of
 * include/adv_api/activation/softmax_tiling.h) and as the kernel recomputes
 * it when the tiling it is given does not match the tensor's shape
 * (impl/.../softmax/softmax_common/softmax_tiling_func.h). src/host/
 * softmax_tiling.c. */
#ifndef ASC_SOFTMAX_TILING_H
#define ASC_SOFTMAX_TILING_H

#include <stdint.h>

/* The members, in the devkit's order (include/asc/structs.def's). */
enum {
  ASC_SMT_SRC_M,
  ASC_SMT_SRC_K,
  ASC_SMT_SRC_SIZE,
  ASC_SMT_OUT_MAX_M,
  ASC_SMT_OUT_MAX_K,
  ASC_SMT_OUT_MAX_SIZE,
  ASC_SMT_SPLIT_M,
  ASC_SMT_SPLIT_K,
  ASC_SMT_SPLIT_SIZE,
  ASC_SMT_REDUCE_M,
  ASC_SMT_REDUCE_K,
  ASC_SMT_REDUCE_SIZE,
  ASC_SMT_RANGE_M,
  ASC_SMT_TAIL_M,
  ASC_SMT_TAIL_SPLIT_SIZE,
  ASC_SMT_TAIL_REDUCE_SIZE,
  ASC_SMT_COUNT
};

/* The host's checks failed: a message in err (size errn), -1. */
/* SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize): shape of
 * n_dims dims (the last the row), type size 2 or 4 (sum / max), workspace
 * bytes. 0, or -1 with err. */
int asc_softmax_tiling_func(const int64_t *shape, int n_dims,
                            uint32_t type_size, uint32_t work_bytes,
                            uint32_t out[ASC_SMT_COUNT], char *err, int errn);
/* GetSoftMaxMaxTmpSize (max 1) / GetSoftMaxMinTmpSize (max 0): bytes, or
 * -1 with err. */
int64_t asc_softmax_tmp_size(const int64_t *shape, int n_dims,
                             uint32_t type_size, int max, char *err, int errn);
/* The kernel's SoftMaxTilingFunc: work_floats the float elements of the
 * work buffer, m / k / ori_m the rows, row length and original rows, ts1 /
 * ts2 the sizes of src's and sum's element types. 0 when no row fits the
 * work buffer (the devkit asserts "softmax need min tmpbuffer is not
 * enough"), else 1. */
int asc_softmax_kernel_tiling(uint32_t work_floats, uint32_t m, uint32_t k,
                              uint32_t ori_m, uint32_t ts1, uint32_t ts2,
                              uint32_t out[ASC_SMT_COUNT]);

#endif
