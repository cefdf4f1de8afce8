/* family: cube. The Mmad mode registers of arch 2201 (SetHF32Mode,
 * SetHF32TransMode, SetMMLayoutTransform: kernel_operator_mm_intf_impl.h)
 * and the HF32 rounding of an fp32 operand (the devkit's HF32 page).
 *
 * HF32 keeps fp32's sign and 8-bit exponent and 11 mantissa bits: the
 * devkit's text says only that the Ascend 950's HF32 has 10 mantissa bits
 * and shows the 2201 format in a figure (mmad_hf32.png) that is not
 * readable here; 11 bits is the format of the 2201 cube's HF32 as Huawei's
 * public material describes it and the width the text implies differs
 * from the 950's (docs/semantics.md). */
#include <string.h>

#include "cube.h"

enum { HF32_DROP = 23 - 11 }; /* fp32 mantissa bits HF32 does not keep */

float sim_hf32_round(float v, int trans_mode) {
  uint32_t u;
  memcpy(&u, &v, 4);
  if ((u & 0x7f800000u) == 0x7f800000u)
    return v; /* inf and NaN as they are */
  uint32_t low = u & ((1u << HF32_DROP) - 1);
  u &= ~((1u << HF32_DROP) - 1);
  /* to nearest (a carry may reach inf); a tie to even, or with trans_mode
   * away from zero (the magnitude goes up: SetHF32's transMode 1,
   * HF32TransMode::NEAREST_ZERO) */
  uint32_t half = 1u << (HF32_DROP - 1);
  if (low > half || (low == half && (trans_mode || (u & (1u << HF32_DROP)))))
    u += 1u << HF32_DROP;
  memcpy(&v, &u, 4);
  return v;
}

/* sub 0: SetHF32Mode(bool), 1: SetHF32TransMode(bool) (true: ties away
 * from zero, the devkit's HF32TransMode::NEAREST_ZERO), 2:
 * SetMMLayoutTransform(bool) (true: the cube produces the result N first, then
 * M; the order does not change a value). */
AscStatus sim_cube_set_mode(AscExec *x, const AscInstr *in) {
  int on = ASC_SLOT(x, in, 0).i != 0;
  AscCoreRegs *r = &x->b->regs;
  if (in->imm == 0)
    r->hf32_mode = on;
  else if (in->imm == 1)
    r->hf32_trans_mode = on;
  else
    r->mm_layout_transform = on;
  return ASC_OK;
}
