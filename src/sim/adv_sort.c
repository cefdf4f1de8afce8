/* family: adv sort. asc.adv.concat and asc.adv.extract, the devkit's
 * Concat / Extract (basic_api/kernel_operator_proposal_intf_impl.h) as the
 * Ascend910B (__NPU_ARCH__ 2201) runs them.
 *
 * Concat(concat, src, tmp, repeatTime) is, on this arch, `concat = src`:
 * the LocalTensor `concat` takes src's descriptor (address, length,
 * position) and no instruction runs (src's scores already are what Sort
 * reads; tmp is not touched). So the simulator copies the descriptor into
 * dst's register, as asc.local_tensor.set_addr_with_offset does, after the
 * devkit's checks (half/float, repeatTime in [0, 255]).
 *
 * Extract(dstValue, dstIndex, sorted, repeatTime) is two GatherMask
 * instructions in normal mode (mask 0, src0BlockStride 1, src0RepeatStride
 * 8: repeats of 256 contiguous bytes), a PipeBarrier<PIPE_V> between them:
 *   float: pattern 1 (the even floats: the scores), repeatTime repeats;
 *          pattern 2 over sorted as uint32 (the odd words: the indices),
 *          repeatTime repeats;
 *   half:  pattern 3 (every 4th half: the scores), repeatTime repeats;
 *          pattern 2 over sorted as uint32, 2 * repeatTime repeats.
 * A sorted element is 8 bytes (src/sim/sort.c), so a repeat holds 32 of
 * them: dstValue gets 32 * repeatTime scores, dstIndex 32 * repeatTime
 * indices (float) or 64 * repeatTime (half: the devkit's index step runs
 * twice the repeats of its value step and reads 512 * repeatTime bytes of
 * sorted; kept as it is). The steps run in order on the UB, each shown to
 * the timing model and the sanitizer as its own instruction (vec_seq.h). */
#include <string.h>

#include "sim.h"
#include "vec_seq.h"

enum { REPEAT_BYTES = 256, ITEMS_PER_REPEAT = 32, MAX_REPEAT = 255 };

static int check_common(AscExec *x, const AscInstr *in, const char *api,
                        int64_t repeat) {
  AscDType dt = (AscDType)in->dtype;
  if (dt != ASC_DT_FLOAT16 && dt != ASC_DT_FLOAT32) {
    sim_fail(x, in, "%s: element type %s: the devkit supports half and float",
             api, asc_dtype_name(dt));
    return 0;
  }
  if (repeat < 0 || repeat > MAX_REPEAT) {
    sim_fail(x, in, "%s: repeat_time %lld is out of range [0, 255]", api,
             (long long)repeat);
    return 0;
  }
  return 1;
}

AscStatus sim_adv_sort_concat(AscExec *x, const AscInstr *in) {
  int64_t repeat = ASC_SLOT(x, in, 3).i;
  if (!check_common(x, in, "asc.adv.concat", repeat))
    return ASC_ERR_KERNEL;
  const AscTensorRef *src = sim_tensor_arg(x, in, 1, "src");
  if (!src || !sim_tensor_arg(x, in, 0, "dst") ||
      !sim_tensor_arg(x, in, 2, "tmp"))
    return ASC_ERR_KERNEL;
  /* concat = src (LocalTensor's copy assignment) */
  ASC_SLOT(x, in, 0).t = *src;
  return ASC_OK;
}

AscStatus sim_adv_sort_extract(AscExec *x, const AscInstr *in) {
  int64_t repeat = ASC_SLOT(x, in, 3).i;
  if (!check_common(x, in, "asc.adv.extract", repeat))
    return ASC_ERR_KERNEL;
  AscDType dt = (AscDType)in->dtype;
  int half = dt == ASC_DT_FLOAT16;
  int64_t es = half ? 2 : 4;
  int64_t n_val = ITEMS_PER_REPEAT * repeat;    /* scores written */
  int64_t idx_rep = half ? 2 * repeat : repeat; /* the index step's repeats */
  int64_t n_idx = ITEMS_PER_REPEAT * idx_rep;   /* indices written */
  int64_t val_bytes = REPEAT_BYTES * repeat;    /* sorted bytes step 1 reads */
  int64_t idx_bytes = REPEAT_BYTES * idx_rep;   /* and step 2 */
  int64_t src_bytes = idx_bytes > val_bytes ? idx_bytes : val_bytes;
  uint8_t *dv = sim_vec_operand(x, in, 0, n_val, 1, "dst_value");
  uint8_t *di = dv ? sim_vec_operand(x, in, 1, n_idx, 1, "dst_index") : NULL;
  uint8_t *s = di ? sim_vec_operand(x, in, 2, src_bytes / es, 0, "src") : NULL;
  if (!s)
    return ASC_ERR_KERNEL;
  int64_t a_dv = ASC_SLOT(x, in, 0).t.addr, a_di = ASC_SLOT(x, in, 1).t.addr;
  int64_t a_s = ASC_SLOT(x, in, 2).t.addr;
  SimVecSeq q;
  sim_vseq_begin(&q, x, in);
  /* step 1: the scores (element 0 of each 8-byte item); gathered through
   * a copy, since dst_value may be sorted itself (the devkit's Sort) */
  uint8_t item[REPEAT_BYTES / 4 * 2];
  for (int64_t r = 0; r < repeat; r++) {
    for (int i = 0; i < ITEMS_PER_REPEAT; i++)
      memcpy(item + i * es, s + r * REPEAT_BYTES + i * 8, (size_t)es);
    memcpy(dv + r * ITEMS_PER_REPEAT * es, item,
           (size_t)(ITEMS_PER_REPEAT * es));
  }
  SimUbSpan v_spans[2] = {{a_s, val_bytes, 0}, {a_dv, n_val * es, 1}};
  if (!sim_vseq_op(&q, ASC_OP_GATHER_MASK_PATTERN, dt, val_bytes / es,
                   half ? "Extract (GatherMask pattern 3)"
                        : "Extract (GatherMask pattern 1)",
                   v_spans, 2) ||
      !sim_vseq_barrier(&q))
    return ASC_ERR_KERNEL;
  /* step 2: the indices (the odd uint32 words), from the UB as step 1
   * left it */
  for (int64_t r = 0; r < idx_rep; r++) {
    for (int i = 0; i < ITEMS_PER_REPEAT; i++)
      memcpy(item + i * 4, s + r * REPEAT_BYTES + i * 8 + 4, 4);
    memcpy(di + r * ITEMS_PER_REPEAT * 4, item, ITEMS_PER_REPEAT * 4);
  }
  SimUbSpan i_spans[2] = {{a_s, idx_bytes, 0}, {a_di, n_idx * 4, 1}};
  if (!sim_vseq_op(&q, ASC_OP_GATHER_MASK_PATTERN, ASC_DT_UINT32, idx_bytes / 4,
                   "Extract (GatherMask pattern 2)", i_spans, 2))
    return ASC_ERR_KERNEL;
  sim_vseq_end(&q);
  return ASC_OK;
}
