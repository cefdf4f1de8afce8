/* family: tiles. Private interface of the lower-tiles pass, whose lowerings
 * live in two files: lower_tiles.c (the driver, copies, elementwise ops,
 * comparisons, masks, concat) and lower_tiles_rows.c (the row-wise ops:
 * reductions, softmax, rms_norm, broadcast). */
#ifndef ASC_PASSES_LOWER_TILES_H
#define ASC_PASSES_LOWER_TILES_H

#include "pass.h"

/* The lowering of one function (lower_tiles.c's driver). */
typedef struct Lowering {
  AscModule *m;
  AscContext *ctx;
  AscBlock *body; /* the function body: holds every use of a tile */
} Lowering;

/* Where made ops go: before `before` in block b (NULL: at its end), at loc;
 * `ok` drops to 0 when an op cannot be made (out of memory). */
typedef struct Cursor {
  Lowering *lw;
  AscBlock *b;
  AscOp *before;
  AscLoc loc;
  int ok;
} Cursor;

/* ---- helpers (lower_tiles.c) ---------------------------------------------
 * Each op-making helper appends at the cursor and returns NULL (ok = 0) when
 * it cannot. */
AscStatus lt_oom(Lowering *lw, const AscOp *op);
/* The tile op's result replaced by `out` (its name kept), the op removed. */
AscStatus lt_replace_tile(Lowering *lw, AscOp *op, AscValue *out);
AscValue *lt_make_count(Lowering *lw, AscOp *at, int64_t length);
AscOp *lt_emit(Cursor *c, AscOpId id, AscValue *const *operands, int n,
               const AscType *result, const AscAttr *attrs, int n_attrs,
               int n_regions);
AscValue *lt_res(AscOp *op);
AscValue *lt_i_const(Cursor *c, AscDType t, int64_t v);
AscValue *lt_arith(Cursor *c, AscOpId id, AscValue *x, AscValue *y);
AscValue *lt_make_struct(Cursor *c, const AscStructInfo *info,
                         AscValue *const *fields, int n);
/* A new tile (asc.local_tensor_auto) of tt, `length` elements rounded up to
 * whole 32-byte blocks. */
AscValue *lt_auto_tile(Cursor *c, const AscType *tt, int64_t length);
/* t[at] (elements) as a tensor of t's type; t itself for 0. */
AscValue *lt_view(Cursor *c, AscValue *t, int64_t at);
/* dst = a op b over n elements (a vector row taking dst, a, b, count). */
void lt_fold(Cursor *c, AscOpId id, AscValue *dst, AscValue *a, AscValue *b,
             int64_t n);
/* t[0] as a scalar (GetValue). */
AscValue *lt_element0(Cursor *c, AscValue *t);
AscAttr lt_enum_attr(const char *name, int kind, int64_t v);
/* src (n elements) converted to `to` in a new tile (asc.cast). */
AscValue *lt_cast_tile(Cursor *c, AscValue *src, AscDType to, int64_t n,
                       int narrow);

/* ---- the row-wise lowerings (lower_tiles_rows.c) ------------------------- */
AscStatus lt_lower_reduce(Lowering *lw, AscOp *op, int64_t length);
AscStatus lt_lower_softmax(Lowering *lw, AscOp *op, int64_t length);
AscStatus lt_lower_broadcast(Lowering *lw, AscOp *op, int64_t length);
AscStatus lt_lower_rms_norm(Lowering *lw, AscOp *op, int64_t length);

#endif
