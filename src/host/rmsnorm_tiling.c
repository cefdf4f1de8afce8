/* family: adv normquant. The devkit's host functions of RmsNorm and
 * AscendQuant (impl/adv_api/tiling/normalization/rmsnorm_tiling_impl.cpp,
 * impl/adv_api/tiling/quantization/ascend_quant_tiling_impl.cpp): the sizes
 * of the temporary buffer the kernel-side APIs take and the RmsNormTiling
 * that splits b * s rows into rounds fitting that buffer. Sizes in bytes;
 * the temporary holds floats: the row sums (padded to 8) and one or (half)
 * two rows-by-h buffers. */
#include <stdio.h>
#include <string.h>

#include "asc/host.h"

enum { BLK_FLOATS = 8, BASIC_H = 64, BASIC_BS = 8, MAX_REPEAT = 255 };

static uint32_t align_up(uint32_t v, uint32_t unit) {
  return (v + unit - 1) / unit * unit;
}

static int basic_block_shape_bad(uint32_t b, uint32_t s, uint32_t h) {
  return h % BASIC_H != 0 || (b * s) % BASIC_BS != 0 || h >= 2048;
}

/* the devkit's max: all rows at once */
static uint32_t max_tmp(const uint32_t shape[3], uint32_t type_size) {
  uint32_t n = shape[0] * shape[1] * shape[2];
  uint32_t bs = align_up(shape[0] * shape[1], 32 / type_size);
  return (type_size == 2 ? n * 2 + bs : n + bs) * 4;
}

/* the devkit's min: one row, the row sums padded to a block */
static uint32_t min_tmp(const uint32_t shape[3], uint32_t type_size) {
  uint32_t h = shape[2];
  return (type_size == 2 ? h * 2 + BLK_FLOATS : h + BLK_FLOATS) * 4;
}

int asc_rmsnorm_max_min_tmp_size(const uint32_t shape[3], uint32_t type_size,
                                 int is_basic_block, uint32_t *max_value,
                                 uint32_t *min_value) {
  if (is_basic_block && basic_block_shape_bad(shape[0], shape[1], shape[2]))
    return 0;
  *max_value = max_tmp(shape, type_size);
  *min_value = min_tmp(shape, type_size);
  return 1;
}

static int fail(char *err, size_t size, const char *msg) {
  if (size)
    snprintf(err, size, "%s", msg);
  return 0;
}

int asc_rmsnorm_tiling_info(const uint32_t shape[3], const uint32_t orig[3],
                            uint32_t stack_buffer_size, uint32_t type_size,
                            int is_basic_block, AscRmsNormTiling *out,
                            char *err, size_t err_size) {
  uint32_t b = shape[0], s = shape[1], h = shape[2];
  if (b != orig[0] || s != orig[1] || h < orig[2] || orig[2] == 0)
    return fail(err, err_size,
                "src_shape and original_src_shape must agree in b and s, "
                "with h at least the original h (> 0)");
  if (type_size == 0 || (h * type_size) % 32 != 0)
    return fail(err, err_size, "h must be 32-byte aligned (pad it)");
  if (is_basic_block && basic_block_shape_bad(b, s, h))
    return fail(err, err_size,
                "a basic block takes h a multiple of 64 below 2048 and b * s "
                "a multiple of 8");
  if (stack_buffer_size < min_tmp(shape, type_size))
    return fail(err, err_size,
                "stack_buffer_size is below GetRmsNormMaxMinTmpSize's "
                "minimum");
  memset(out, 0, sizeof *out);
  out->b_length = b;
  out->s_length = s;
  out->h_length = h;
  out->original_h_length = orig[2];
  out->reciprocal_of_h_length = (float)(1.0 / (double)(float)orig[2]);
  uint32_t total = stack_buffer_size / 4;
  uint32_t coeff = type_size == 4 ? 1u : 2u;
  uint32_t bs = 1;
  /* the most rows whose buffers and padded sums fit */
  while (total >= (bs + 1) * h * coeff + align_up(bs + 1, BLK_FLOATS))
    bs++;
  uint32_t one = bs * h;
  uint32_t input = b * s * h;
  if (one > input)
    one = input;
  bs = one / h;
  if (is_basic_block)
    bs = bs < BASIC_BS ? bs : bs / BASIC_BS * BASIC_BS;
  else if (bs > MAX_REPEAT)
    bs = MAX_REPEAT;
  one = bs * h;
  out->main_bsh_length = one;
  out->main_bs_length = bs;
  out->main_bs_length_align = align_up(bs, 32 / 4);
  out->loop_round = one ? input / one : 0;
  uint32_t tail = one ? input % one : input;
  out->tail_bsh_length = tail;
  out->input_tail_pos = input - tail;
  out->tail_bs_length = tail / h;
  return 1;
}

void asc_ascend_quant_max_min_tmp_size(uint64_t size, uint32_t *max_value,
                                       uint32_t *min_value) {
  uint64_t v = size * 2 > 512 ? size * 2 : 512;
  v = (v + 31) / 32 * 32;
  *max_value = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
  *min_value = 2 * 256;
}
