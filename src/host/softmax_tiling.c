/* family: softmax. The SoftMax tiling, host and kernel side
 * (include/asc/softmax_tiling.h).
 *
 * Facts from the devkit: the host's SoftMaxTilingFunc /
 * GetSoftMaxMax/MinTmpSize (impl/adv_api/tiling/activation/
 * softmax_tiling.cpp, Ascend910B branch): rows of srcK floats plus a 32-byte
 * block of sum and 64 floats of the reductions' lanes; baseM the rows that
 * fit, a multiple of 8 when not all fit, then the basic-block adjustment
 * (rows a divisor of srcM, fewer than 255 repeats). The kernel's re-tiling
 * (softmax_common/softmax_tiling_func.h, CalculateNDSplitM): half src needs
 * the row in float too (reduceK + srcK + 64 floats a row), float src only
 * the block and the lanes (reduceK + 64). */
#include <stdio.h>
#include <string.h>

#include "asc/softmax_tiling.h"

enum { BLK = 32, BASIC_TILE = 8, UNIT = 64, BASIC_MIN = 256 };

static void fill(uint32_t *t, uint32_t m, uint32_t k, uint32_t ori_m,
                 uint32_t per_blk, uint32_t base_m) {
  memset(t, 0, sizeof(uint32_t) * ASC_SMT_COUNT);
  t[ASC_SMT_SRC_M] = m;
  t[ASC_SMT_SRC_K] = k;
  t[ASC_SMT_SRC_SIZE] = m * k;
  t[ASC_SMT_OUT_MAX_M] = m;
  t[ASC_SMT_OUT_MAX_K] = per_blk;
  t[ASC_SMT_OUT_MAX_SIZE] = m * per_blk;
  t[ASC_SMT_SPLIT_M] = base_m;
  t[ASC_SMT_SPLIT_K] = k;
  t[ASC_SMT_SPLIT_SIZE] = base_m * k;
  t[ASC_SMT_REDUCE_M] = base_m;
  t[ASC_SMT_REDUCE_K] = per_blk;
  t[ASC_SMT_REDUCE_SIZE] = base_m * per_blk;
  if (base_m) {
    t[ASC_SMT_RANGE_M] = ori_m / base_m;
    t[ASC_SMT_TAIL_M] = ori_m % base_m;
  }
  t[ASC_SMT_TAIL_SPLIT_SIZE] = t[ASC_SMT_TAIL_M] * k;
  t[ASC_SMT_TAIL_REDUCE_SIZE] = t[ASC_SMT_TAIL_M] * per_blk;
}

/* The host's checks of a shape and type size; m and k its rows and row. */
static int check(const char *api, const int64_t *shape, int n_dims, uint32_t ts,
                 uint32_t *m, uint32_t *k, char *err, int errn) {
  if (ts != 2 && ts != 4) {
    snprintf(err, (size_t)errn,
             "%s: data_type_size must be 2 (half) or 4 (float), got %u", api,
             ts);
    return -1;
  }
  if (n_dims < 1) {
    snprintf(err, (size_t)errn, "%s: src_shape has no dimensions", api);
    return -1;
  }
  uint64_t size = 1;
  for (int i = 0; i < n_dims; i++) {
    if (shape[i] <= 0 || shape[i] > UINT32_MAX) {
      snprintf(err, (size_t)errn,
               "%s: dimension %d of src_shape is %lld, it must be in [1, "
               "2^32)",
               api, i, (long long)shape[i]);
      return -1;
    }
    size *= (uint64_t)shape[i];
    if (size > UINT32_MAX) {
      snprintf(err, (size_t)errn,
               "%s: src_shape has more than 2^32 - 1 elements", api);
      return -1;
    }
  }
  *k = (uint32_t)shape[n_dims - 1];
  *m = (uint32_t)(size / *k);
  if ((uint64_t)*k * ts % BLK) {
    snprintf(err, (size_t)errn,
             "%s: the last axis (%u elements of %u bytes) must be a multiple "
             "of 32 bytes (pad the rows)",
             api, *k, ts);
    return -1;
  }
  return 0;
}

int asc_softmax_tiling_func(const int64_t *shape, int n_dims,
                            uint32_t type_size, uint32_t work_bytes,
                            uint32_t out[ASC_SMT_COUNT], char *err, int errn) {
  uint32_t m, k;
  if (check("softmax_tiling_func", shape, n_dims, type_size, &m, &k, err, errn))
    return -1;
  uint32_t per_blk = BLK / type_size;
  uint64_t row = (uint64_t)per_blk + k + UNIT;
  uint64_t base = (uint64_t)(work_bytes / 4u) / row;
  uint32_t base_m = base < m ? (uint32_t)base : m;
  if (base_m < m && base_m > BASIC_TILE)
    base_m = base_m / BASIC_TILE * BASIC_TILE;
  /* AdjustToBasicBlockBaseM */
  if (base_m > BASIC_TILE && m % BASIC_TILE == 0 && k % UNIT == 0) {
    base_m = base_m / BASIC_TILE * BASIC_TILE;
    while (m % base_m != 0)
      base_m -= BASIC_TILE;
    while ((uint64_t)base_m * k >= (uint64_t)UNIT * BASIC_MIN)
      base_m /= 2;
  }
  if (base_m == 0) {
    snprintf(err, (size_t)errn,
             "softmax_tiling_func: local_work_space_size = %u bytes holds no "
             "row of %u elements (at least %llu bytes: "
             "get_softmax_min_tmp_size)",
             work_bytes, k, (unsigned long long)(row * 4));
    return -1;
  }
  fill(out, m, k, m, per_blk, base_m);
  return 0;
}

int64_t asc_softmax_tmp_size(const int64_t *shape, int n_dims,
                             uint32_t type_size, int max, char *err, int errn) {
  uint32_t m, k;
  if (check(max ? "get_softmax_max_tmp_size" : "get_softmax_min_tmp_size",
            shape, n_dims, type_size, &m, &k, err, errn))
    return -1;
  uint64_t row = (uint64_t)(BLK / type_size) + k + UNIT;
  uint64_t need = max ? (uint64_t)m * row : row;
  /* the devkit computes in uint32_t */
  return (int64_t)(uint32_t)(need * 4u);
}

int asc_softmax_kernel_tiling(uint32_t work_floats, uint32_t m, uint32_t k,
                              uint32_t ori_m, uint32_t ts1, uint32_t ts2,
                              uint32_t out[ASC_SMT_COUNT]) {
  uint32_t per_blk = BLK / ts2;
  uint64_t row =
      ts1 == 2 ? (uint64_t)per_blk + k + UNIT : (uint64_t)per_blk + UNIT;
  uint64_t split = work_floats / row;
  uint32_t reduce_m = split < m ? (uint32_t)split : m;
  if (reduce_m < ori_m && reduce_m > BASIC_TILE)
    reduce_m = reduce_m / BASIC_TILE * BASIC_TILE;
  reduce_m = reduce_m < ori_m ? reduce_m : ori_m;
  fill(out, m, k, ori_m, per_blk, reduce_m);
  return reduce_m > 0;
}
