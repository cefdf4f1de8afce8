/* AIPP, the AI Core's image pre-processing (family: debug):
 * SetAippFunctions.
 *
 * SetAippFunctions(src0[, src1], format, config) loads the AIPP registers of
 * the core: where the source image lies in GM (src1 the UV plane of a
 * YUV420SP image), its format and the AippParams<U> (padding, channel swap,
 * single-line read, data-type conversion, channel padding, colour-space
 * conversion). Nothing is read or written until LoadImageToLocal copies an
 * image with them; on the Ascend910B that instruction writes the L1
 * (TPosition A1/B1) and is not simulated yet (the devkit gives its
 * colour-space conversion and most padding modes only as figures), so here
 * the state is checked and kept for the block (AscCoreRegs.aipp) and
 * nothing else happens. The checks are the devkit's constraints on the values:
 * the modes' ranges and the GM alignment each format needs. */
#include <string.h>

#include "sim.h"

enum {
  FORMAT_YUV420SP_U8 = 0,
  FORMAT_XRGB8888_U8 = 1,
  FORMAT_RGB888_U8 = 4,
  FORMAT_YUV400_U8 = 9,
};

/* A number field of the AippParams value at s: "nested.field". */
static int64_t field(const AscStructInfo *si, const AscSlot *s,
                     const char *nested, const char *name) {
  int n = asc_struct_field_index(si, nested);
  if (n < 0 || !si->fields[n].nested)
    return 0;
  const AscStructInfo *inner = si->fields[n].nested;
  int f = asc_struct_field_index(inner, name);
  if (f < 0)
    return 0;
  return asc_int_normalize(inner->fields[f].dtype,
                           s[si->fields[n].slot + inner->fields[f].slot].i);
}

static AscStatus aligned(AscExec *x, const AscInstr *in, const AscTensorRef *t,
                         int64_t to, const char *what, const char *format) {
  int64_t off = t->addr; /* the byte offset in its argument */
  if (to > 1 && off % to)
    return sim_fail(x, in,
                    "SetAippFunctions: %s must be %lld-byte aligned for %s, "
                    "its address is %lld bytes into its argument",
                    what, (long long)to, format, (long long)off);
  return ASC_OK;
}

AscStatus sim_set_aipp_functions(AscExec *x, const AscInstr *in) {
  const AscTensorRef *src0 = sim_tensor_arg(x, in, 0, "src0");
  if (!src0)
    return ASC_ERR_KERNEL;
  const AscTensorRef *src1 = NULL;
  if (in->n_args > 2 && !(src1 = sim_tensor_arg(x, in, 2, "src1")))
    return ASC_ERR_KERNEL;
  const AscStructInfo *si = asc_type_struct_info(in->src->operands[1]->type);
  if (!si || si->n_slots > ASC_AIPP_MAX_SLOTS)
    return sim_fail(x, in, "SetAippFunctions: config is no AippParams");
  const AscSlot *cfg = &ASC_SLOT(x, in, 1);
  int format = (int)asc_op_attr_int(in->src, "input_format", 0);
  const char *fname = asc_enum_value_name(ASC_ENUM_AIPPINPUTFORMAT, format);
  fname = fname ? fname : "?";
  int64_t padding = field(si, cfg, "padding_params", "padding_mode");
  if (padding < 0 || padding > 3)
    return sim_fail(x, in,
                    "SetAippFunctions: padding_params.padding_mode = %lld "
                    "(0 constant, 1 row/column copy, 2 block copy, 3 mirror "
                    "block copy)",
                    (long long)padding);
  int64_t c_padding = field(si, cfg, "c_padding_params", "c_padding_mode");
  if (c_padding < 0 || c_padding > 1)
    return sim_fail(x, in,
                    "SetAippFunctions: c_padding_params.c_padding_mode = %lld "
                    "(0 pads the channels to 32 bytes, 1 to 4 channels)",
                    (long long)c_padding);
  AscStatus s = ASC_OK;
  if (format == FORMAT_YUV420SP_U8) {
    if (!src1)
      return sim_fail(x, in,
                      "SetAippFunctions: a YUV420SP_U8 image takes src1, its "
                      "UV plane");
    s = aligned(x, in, src0, 2, "src0", fname);
    if (!s)
      s = aligned(x, in, src1, 2, "src1", fname);
  } else if (format == FORMAT_XRGB8888_U8) {
    s = aligned(x, in, src0, 4, "src0", fname);
  } else if (format != FORMAT_RGB888_U8 && format != FORMAT_YUV400_U8) {
    return sim_fail(x, in, "SetAippFunctions: unknown input format %d", format);
  }
  if (s)
    return s;
  AscSimAipp *a = &x->b->regs.aipp;
  a->set = 1;
  a->format = format;
  a->src0 = *src0;
  a->has_src1 = src1 != NULL;
  if (src1)
    a->src1 = *src1;
  a->out_dtype = (uint8_t)si->targ;
  a->n_slots = si->n_slots;
  memcpy(a->config, cfg, sizeof(AscSlot) * (size_t)si->n_slots);
  return ASC_OK;
}
