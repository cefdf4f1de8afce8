/* Private to src/ir/: what the context keeps for ir.c and structs.c.
 *
 * ir.c's index of function names: the context owns it (so it lives and
 * dies with the IR it indexes) but only ir.c knows its layout: the context
 * frees it with the function registered here. */
#ifndef ASC_IR_INDEX_H
#define ASC_IR_INDEX_H

#include "asc/ir.h"

/* The arena copy of a location's file name: the copy made last time when
 * it is the same name (every op carries one, nearly always the same). */
const char *asc_context_file_name(AscContext *ctx, const char *file);

/* The index stored on ctx, or NULL. */
void *asc_context_fn_index(const AscContext *ctx);
/* Stores index on ctx; free_fn(index) runs when ctx is freed. */
void asc_context_set_fn_index(AscContext *ctx, void *index,
                              void (*free_fn)(void *));

/* structs.c's list of the user structs of ctx (NULL: none yet). */
void *asc_context_user_structs(const AscContext *ctx);
void asc_context_set_user_structs(AscContext *ctx, void *list);

/* Defines in ctx the user struct an asc.struct_def op declares (the parser
 * calls it for each one it reads). */
AscStatus asc_struct_def_register(AscContext *ctx, const AscOp *op);

#endif
