/* Element data types shared by the IR, the simulator and the extension.
 *
 * The numbering is ours (it is not an Ascend C enum); names follow the
 * Python front end (`asc.float16`, ...). */
#ifndef ASC_DTYPE_H
#define ASC_DTYPE_H

#include <stddef.h>
#include <stdint.h>

typedef enum AscDType {
  ASC_DT_NONE = 0,
  ASC_DT_BOOL, /* i1 in the IR; one byte in memory */
  ASC_DT_INT8,
  ASC_DT_INT16,
  ASC_DT_INT32,
  ASC_DT_INT64,
  ASC_DT_UINT8,
  ASC_DT_UINT16,
  ASC_DT_UINT32,
  ASC_DT_UINT64,
  ASC_DT_FLOAT16,
  ASC_DT_BFLOAT16,
  ASC_DT_FLOAT32,
  ASC_DT_FLOAT64,
  ASC_DT_INDEX, /* loop induction variables, sizes: 64-bit signed */
  ASC_DT_COUNT
} AscDType;

/* Size in bytes of one element (0 for NONE). */
size_t asc_dtype_size(AscDType dt);
/* Python-facing name ("float16"), IR name ("f16") and C++ name ("half"). */
const char *asc_dtype_name(AscDType dt);
const char *asc_dtype_ir_name(AscDType dt);
const char *asc_dtype_cpp_name(AscDType dt);
/* Lookup by either the Python name or the IR name; ASC_DT_NONE if unknown. */
AscDType asc_dtype_from_name(const char *name);
int asc_dtype_is_float(AscDType dt);
int asc_dtype_is_signed_int(AscDType dt);
int asc_dtype_is_unsigned_int(AscDType dt);
int asc_dtype_is_int(AscDType dt);

#endif
