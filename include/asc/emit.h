/* The Ascend C emitter: ASC-IR → a complete Ascend C translation unit. */
#ifndef ASC_EMIT_H
#define ASC_EMIT_H

#include "asc/ir.h"

typedef struct AscEmitOptions {
  int line_comments; /* `// file.py:LINE` after statements from Python */
  /* 1: a kernel that prints from the device (asc_emit_kernel_dumps) gets no
   * dump buffer parameter and no InitDump: upstream pyasc's ASCENDC_DUMP=false
   * build, where the devkit's printing is compiled out (-DASCENDC_DUMP=0) */
  int no_dump;
} AscEmitOptions;

/* Returns a malloc'ed C++ source the caller frees, or NULL with an error
 * (ASC_ERR_COMPILE, at the op that has no emitter rule) on m's context.
 * The module must verify. */
char *asc_emit_ascendc(AscModule *m, const AscEmitOptions *options);

/* Whether a kernel of m, or a function it calls, prints from the device
 * (asc.printf, DumpTensor, DumpAccChkPoint, PrintTimeStamp, LocalTensor.print,
 * a DumpTensor on the NPU): unless
 * no_dump, its Ascend C then takes the dump buffer as its last parameter
 * (`GM_ADDR dump_addr`, after a MIX kernel's FFTS address) and hands it to
 * AscendC::InitDump at entry, as upstream pyasc's generated code does; the
 * launcher passes that buffer (1 MiB per core, 75 cores). */
enum { ASC_EMIT_ONE_CORE_DUMP_SIZE = 1048576, ASC_EMIT_DUMP_CORES = 75 };
int asc_emit_kernel_dumps(const AscModule *m);

/* Whether the emitter can spell op `id` (tests check every row has one). */
int asc_emit_has_rule(AscOpId id);

#endif
