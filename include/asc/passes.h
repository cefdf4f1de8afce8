/* IR → IR passes and the IR text parser. */
#ifndef ASC_PASSES_H
#define ASC_PASSES_H

#include "asc/ir.h"

/* Parses the generic-op text that asc_module_print writes. On error returns
 * NULL with an ASC_ERR_COMPILE error on ctx whose location is the line and
 * column in `text` (file = filename). */
AscModule *asc_module_parse(AscContext *ctx, const char *text,
                            const char *filename);

/* Runs the pass named `name` (or `name{options}`) on m; ASC_ERR_COMPILE if
 * no such pass. */
AscStatus asc_run_pass(AscModule *m, const char *name);
/* The names of the passes, NULL-terminated. */
const char *const *asc_pass_names(void);

#endif
