/* The Ascend C emitter: ASC-IR → a complete Ascend C translation unit. */
#ifndef ASC_EMIT_H
#define ASC_EMIT_H

#include "asc/ir.h"

typedef struct AscEmitOptions {
  int line_comments; /* `// file.py:LINE` after statements from Python */
} AscEmitOptions;

/* Returns a malloc'ed C++ source the caller frees, or NULL with an error
 * (ASC_ERR_COMPILE, at the op that has no emitter rule) on m's context.
 * The module must verify. */
char *asc_emit_ascendc(AscModule *m, const AscEmitOptions *options);

/* Whether the emitter can spell op `id` (tests check every row has one). */
int asc_emit_has_rule(AscOpId id);

#endif
