/* Element data types: one table, read by everything that needs a size or a
 * spelling. */
#include "asc/dtype.h"

#include <string.h>

typedef struct DTypeInfo {
  const char *py;  /* Python front end: asc.float16 */
  const char *ir;  /* ASC-IR text: f16 */
  const char *cpp; /* Ascend C: half */
  unsigned char size;
  char cls; /* 'f' float, 's' signed int, 'u' unsigned int, 'b' bool */
} DTypeInfo;

static const DTypeInfo dtype_table[ASC_DT_COUNT] = {
    [ASC_DT_NONE] = {"void", "none", "void", 0, 0},
    [ASC_DT_BOOL] = {"bool", "i1", "bool", 1, 'b'},
    [ASC_DT_INT8] = {"int8", "i8", "int8_t", 1, 's'},
    [ASC_DT_INT16] = {"int16", "i16", "int16_t", 2, 's'},
    [ASC_DT_INT32] = {"int32", "i32", "int32_t", 4, 's'},
    [ASC_DT_INT64] = {"int64", "i64", "int64_t", 8, 's'},
    [ASC_DT_UINT8] = {"uint8", "ui8", "uint8_t", 1, 'u'},
    [ASC_DT_UINT16] = {"uint16", "ui16", "uint16_t", 2, 'u'},
    [ASC_DT_UINT32] = {"uint32", "ui32", "uint32_t", 4, 'u'},
    [ASC_DT_UINT64] = {"uint64", "ui64", "uint64_t", 8, 'u'},
    [ASC_DT_FLOAT16] = {"float16", "f16", "half", 2, 'f'},
    [ASC_DT_BFLOAT16] = {"bfloat16", "bf16", "bfloat16_t", 2, 'f'},
    [ASC_DT_FLOAT32] = {"float32", "f32", "float", 4, 'f'},
    [ASC_DT_FLOAT64] = {"float64", "f64", "double", 8, 'f'},
    [ASC_DT_INDEX] = {"index", "index", "int64_t", 8, 's'},
};

static const DTypeInfo *info(AscDType dt) {
  if ((int)dt < 0 || dt >= ASC_DT_COUNT)
    return &dtype_table[ASC_DT_NONE];
  return &dtype_table[dt];
}

size_t asc_dtype_size(AscDType dt) { return info(dt)->size; }
const char *asc_dtype_name(AscDType dt) { return info(dt)->py; }
const char *asc_dtype_ir_name(AscDType dt) { return info(dt)->ir; }
const char *asc_dtype_cpp_name(AscDType dt) { return info(dt)->cpp; }
int asc_dtype_is_float(AscDType dt) { return info(dt)->cls == 'f'; }
int asc_dtype_is_signed_int(AscDType dt) { return info(dt)->cls == 's'; }
int asc_dtype_is_unsigned_int(AscDType dt) {
  return info(dt)->cls == 'u' || info(dt)->cls == 'b';
}
int asc_dtype_is_int(AscDType dt) {
  return asc_dtype_is_signed_int(dt) || asc_dtype_is_unsigned_int(dt);
}

AscDType asc_dtype_from_name(const char *name) {
  for (int i = 1; i < ASC_DT_COUNT; i++) {
    if (strcmp(name, dtype_table[i].py) == 0 ||
        strcmp(name, dtype_table[i].ir) == 0)
      return (AscDType)i;
  }
  return ASC_DT_NONE;
}
