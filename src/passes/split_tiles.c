/* family: tiles. `split-tiles`: asc2 tiles larger than the UB become a loop
 * over chunks of them. Runs before lower-tiles.
 *
 * A chain is a set of tile ops of one block joined by the tiles they pass
 * each other: asc2.load, asc2.store and the elementwise ops (binary,
 * binary_scalar, unary, full, cast, compare, compare_scalar, select,
 * select_scalar), every tile of it of the same `length` (rows of one
 * `width`), none used outside the chain. A chain whose tiles need more
 * bytes at once than the UB has (`ub=BYTES`; its peak: the tiles live
 * from their op to their last use), or whose tile has more rows than one
 * DataCopyPad copies (4095), is rewritten
 *
 *   %x = asc2.load(g, row, col, ...) {length = L}      scf.for %k = 0 to N {
 *   %y = asc2.unary(%x) {length = L}          ->         %c = col + %k * C
 *   asc2.store(h, %y, row, col, ...)                     %x = asc2.load(g, row,
 * %c, ...) {length = C}
 *                                                        ... }
 *                                                      (the tail: the chain
 * once more, length L - N * C)
 *
 * the chunk C elements of a one-row tile (a multiple of 256, so compare's
 * 256-byte repeats and every type's 32-byte blocks stay whole) or C rows of
 * a tile of several rows, chosen so that the chain's peak for a chunk,
 * twice (plan-ub double-buffers the tiles of a loop body), is at most half
 * the UB. A load's pad and a store's clipping at the tensor's end work per
 * chunk as for the whole tile. The loop sits where the chain's last op was;
 * the pure ops between the chain's ops (offsets, constants, global
 * tensors) stay before it
 * and asc.set_atomic_* between them go into it (they set the mode of the
 * stores). Not split (plan-ub then reports what does not fit): a chain with
 * another tile op (reduce, softmax, ...), a tile used by another op or
 * block, tiles of several sizes, another op with effects between its ops,
 * a store into a tensor the chain also loads from at other offsets (a later
 * chunk would read what an earlier one wrote). The pass log says what it
 * split, how, and why it left a large chain alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/hash.h"
#include "pass.h"

enum { CHUNK_ALIGN = 256, MAX_COPY_ROWS = 4095 };
/* a tile's length (elements) below this, as lower-tiles requires: the byte
 * sums below cannot overflow */
#define MAX_LENGTH ((int64_t)1 << 31)

typedef struct Splitter {
  AscModule *m;
  AscContext *ctx;
  int64_t ub;
  AscPtrMap escapes; /* tile ops with a use by another op or block */
  int oom;
} Splitter;

typedef struct Chain {
  AscOp **ops; /* in block order */
  int n;
  int64_t length, width;
  const char *why_not; /* NULL: splittable */
} Chain;

static int is_elementwise(AscOpId id) {
  switch (id) {
  case ASC_OP_TILE_LOAD:
  case ASC_OP_TILE_STORE:
  case ASC_OP_TILE_BINARY:
  case ASC_OP_TILE_BINARY_SCALAR:
  case ASC_OP_TILE_UNARY:
  case ASC_OP_TILE_FULL:
  case ASC_OP_TILE_CAST:
  case ASC_OP_TILE_COMPARE:
  case ASC_OP_TILE_COMPARE_SCALAR:
  case ASC_OP_TILE_SELECT:
  case ASC_OP_TILE_SELECT_SCALAR:
    return 1;
  default:
    return 0;
  }
}

/* Ops the chain's ops may move past: they only make values (a global
 * tensor and its buffer: set_global_buffer names the memory, reads none). */
static int stays_before(const AscOp *op) {
  return (asc_op_is_pure(op) && !op->n_regions) || op->id == ASC_OP_GT_CREATE ||
         op->id == ASC_OP_GT_SET_BUFFER;
}

static int is_set_atomic(AscOpId id) {
  return id == ASC_OP_SET_ATOMIC_ADD || id == ASC_OP_SET_ATOMIC_MAX ||
         id == ASC_OP_SET_ATOMIC_MIN || id == ASC_OP_SET_ATOMIC_TYPE ||
         id == ASC_OP_SET_ATOMIC_NONE;
}

/* The tile op defining operand v, or NULL. */
static AscOp *tile_def(const AscValue *v) {
  return v->def && asc_op_is_tile(v->def->id) ? v->def : NULL;
}

/* Marks the tile ops whose results some other op uses: an op that is no
 * tile op, or one in another block. */
static void find_escapes(Splitter *sp, AscBlock *b) {
  for (AscOp *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->n_operands; i++) {
      AscOp *d = tile_def(op->operands[i]);
      if (d && (!asc_op_is_tile(op->id) || d->parent != op->parent))
        if (asc_ptrmap_put(&sp->escapes, d, d))
          sp->oom = 1;
    }
    for (int r = 0; r < op->n_regions; r++)
      find_escapes(sp, op->regions[r].block);
  }
}

/* ---- chains: union-find over the tile ops of a block ----------------------
 */

static int find(int *parent, int i) {
  while (parent[i] != i)
    i = parent[i] = parent[parent[i]];
  return i;
}

/* The bytes the tile op's result takes in the UB (a mask: one bit an
 * element, in whole 256-element repeats); 0 for an op that is not
 * elementwise (its result's size is its own: the peak stays a lower bound
 * of what plan-ub will need). */
static int64_t tile_bytes(const AscOp *op) {
  int64_t length = asc_op_attr_int(op, "length", 0);
  if (!op->n_results || !is_elementwise(op->id) || length <= 0 ||
      length >= MAX_LENGTH)
    return 0; /* (a length out of range: lower-tiles reports it) */
  if (op->id == ASC_OP_TILE_COMPARE || op->id == ASC_OP_TILE_COMPARE_SCALAR)
    return (length + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN / 8;
  int64_t eb = (int64_t)asc_dtype_size(op->results[0].type->dtype);
  return (length * eb + 31) / 32 * 32;
}

/* The most bytes the chain's tiles hold at once: a tile lives from its op
 * to its last use in the chain. Each tile's last use comes from a map of
 * results to positions, then its bytes are added over its lifetime by a
 * difference array and the running sum's maximum taken. -1 when out of
 * memory. */
static int64_t peak_bytes(const Chain *c) {
  int64_t *delta = calloc((size_t)c->n + 1, sizeof *delta);
  int *last = malloc(sizeof *last * (size_t)c->n);
  AscPtrMap pos = {0};
  int64_t peak = -1;
  if (!delta || !last)
    goto done;
  for (int d = 0; d < c->n; d++) {
    last[d] = d;
    if (c->ops[d]->n_results &&
        asc_ptrmap_put(&pos, &c->ops[d]->results[0], (void *)(intptr_t)(d + 1)))
      goto done;
  }
  for (int u = 0; u < c->n; u++) /* (in order: the last use wins) */
    for (int i = 0; i < c->ops[u]->n_operands; i++) {
      intptr_t d = (intptr_t)asc_ptrmap_get(&pos, c->ops[u]->operands[i]);
      if (d)
        last[d - 1] = u;
    }
  for (int d = 0; d < c->n; d++) {
    int64_t bytes = tile_bytes(c->ops[d]);
    delta[d] += bytes;
    delta[last[d] + 1] -= bytes;
  }
  int64_t live = 0;
  peak = 0;
  for (int at = 0; at < c->n; at++) {
    live += delta[at];
    if (live > peak)
      peak = live;
  }
done:
  asc_ptrmap_free(&pos);
  free(delta);
  free(last);
  return peak;
}

/* Sets c->why_not when the chain cannot be split, and its length and
 * width otherwise. */
static void check_chain(Splitter *sp, Chain *c) {
  c->length = asc_op_attr_int(c->ops[0], "length", 0);
  c->width = 0;
  for (int i = 0; i < c->n && !c->why_not; i++) {
    AscOp *op = c->ops[i];
    int64_t len = asc_op_attr_int(op, "length", 0);
    if (len <= 0 || len >= MAX_LENGTH)
      c->why_not = "a length out of range";
    else if (!is_elementwise(op->id))
      c->why_not = asc_op_info(op->id)->name;
    else if (asc_ptrmap_get(&sp->escapes, op))
      c->why_not = "a tile used by an op that is no elementwise tile op, or "
                   "in another block";
    else if (asc_op_attr_int(op, "length", 0) != c->length)
      c->why_not = "tiles of several sizes";
    else if (op->id == ASC_OP_TILE_LOAD || op->id == ASC_OP_TILE_STORE) {
      int at = op->id == ASC_OP_TILE_LOAD ? 1 : 2; /* row, col */
      int64_t w = asc_op_attr_int(op, "width", c->length);
      if (op->n_operands < at + 2 ||
          op->operands[at]->type->dtype != ASC_DT_INT32 ||
          op->operands[at + 1]->type->dtype != ASC_DT_INT32)
        c->why_not = "a copy's offsets are no int32 values";
      if (c->width && w != c->width)
        c->why_not = "tiles with rows of several widths";
      c->width = w;
    }
  }
  if (!c->width)
    c->width = c->length;
  if (!c->why_not && (c->width <= 0 || c->length % c->width))
    c->why_not = "rows that do not divide the tile";
  /* a store into a tensor the chain loads from: the same offsets only */
  for (int s = 0; s < c->n && !c->why_not; s++) {
    AscOp *st = c->ops[s];
    if (st->id != ASC_OP_TILE_STORE)
      continue;
    for (int l = 0; l < c->n && !c->why_not; l++) {
      AscOp *ld = c->ops[l];
      if (ld->id == ASC_OP_TILE_LOAD && ld->operands[0] == st->operands[0] &&
          (ld->operands[1] != st->operands[2] ||
           ld->operands[2] != st->operands[3]))
        c->why_not = "a store into a tensor the chain loads from at other "
                     "offsets";
    }
  }
}

/* ---- the rewrite -------------------------------------------------------- */

typedef struct Cursor {
  Splitter *sp;
  AscBlock *b;
  AscOp *before;
  AscLoc loc;
} Cursor;

static void put(Cursor *c, AscOp *op) {
  if (op)
    asc_block_insert_before(c->b, c->before, op);
  else
    c->sp->oom = 1;
}

static AscValue *i32_const(Cursor *c, int64_t v) {
  AscOp *op = asc_make_int_constant(
      c->sp->ctx, asc_type_scalar(c->sp->ctx, ASC_DT_INT32), v, c->loc);
  put(c, op);
  return op ? &op->results[0] : NULL;
}

/* base + k * step (k: the loop's index or a constant) */
static AscValue *shifted(Cursor *c, AscValue *base, AscValue *k, int64_t step) {
  AscValue *s = i32_const(c, step);
  AscOp *mul =
      k && s ? asc_make_binary(c->sp->ctx, ASC_OP_MUL_S, k, s, c->loc) : NULL;
  put(c, mul);
  AscOp *add = mul ? asc_make_binary(c->sp->ctx, ASC_OP_ADD_S, base,
                                     &mul->results[0], c->loc)
                   : NULL;
  put(c, add);
  return add ? &add->results[0] : NULL;
}

/* A copy of the chain's op (or a set_atomic op among them) at the cursor,
 * for chunk k (an i32 value) of `length` elements in rows of `width`; its
 * tile operands through `map`. A copy's row (by_rows) or column moves by
 * k * step (the full chunks' rows or elements). */
static AscOp *chunk_op(Cursor *c, AscPtrMap *map, AscOp *op, AscValue *k,
                       int64_t step, int64_t length, int64_t width,
                       int by_rows) {
  AscValue *operands[16];
  if (op->n_operands > 16)
    return NULL;
  for (int i = 0; i < op->n_operands; i++) {
    AscValue *v = asc_ptrmap_get(map, op->operands[i]);
    operands[i] = v ? v : op->operands[i];
  }
  if (op->id == ASC_OP_TILE_LOAD || op->id == ASC_OP_TILE_STORE) {
    int at = op->id == ASC_OP_TILE_LOAD ? 1 : 2; /* row; col after it */
    int which = by_rows ? at : at + 1;
    operands[which] = shifted(c, operands[which], k, step);
  }
  AscAttr *attrs = asc_alloc(
      c->sp->ctx, sizeof(AscAttr) * (size_t)(op->n_attrs ? op->n_attrs : 1));
  for (int i = 0; i < op->n_attrs; i++) {
    attrs[i] = op->attrs[i];
    if (strcmp(attrs[i].name, "length") == 0)
      attrs[i].i = length;
    else if (strcmp(attrs[i].name, "width") == 0)
      attrs[i].i = width;
  }
  const AscType *rt = op->n_results ? op->results[0].type : NULL;
  AscOp *made = c->sp->oom
                    ? NULL
                    : asc_op_create(c->sp->ctx, op->id, op->loc, operands,
                                    op->n_operands, &rt, op->n_results, attrs,
                                    op->n_attrs, 0, NULL, NULL);
  put(c, made);
  if (made && op->n_results) {
    made->results[0].name = op->results[0].name;
    if (asc_ptrmap_put(map, &op->results[0], &made->results[0]))
      c->sp->oom = 1;
  }
  return made;
}

/* The chain and the set_atomic ops among its ops, for chunk k. */
static void chunk_ops(Cursor *c, AscOp **ops, int n, AscValue *k, int64_t step,
                      int64_t length, int64_t width, int by_rows) {
  AscPtrMap map = {0};
  for (int i = 0; i < n && !c->sp->oom; i++)
    chunk_op(c, &map, ops[i], k, step, length, width, by_rows);
  asc_ptrmap_free(&map);
}

static const char *base_name(const char *file) {
  const char *s = file ? strrchr(file, '/') : NULL;
  return s ? s + 1 : file ? file : "?";
}

/* Rewrites chain c (its ops and the set_atomic ops among them: `moved`,
 * block order) into the loop over chunks and the tail. */
static AscStatus split(Splitter *sp, Chain *c, AscOp **moved, int n_moved,
                       int64_t peak) {
  AscOp *last = c->ops[c->n - 1];
  int64_t rows = c->length / c->width;
  int by_rows = rows > 1;
  /* per element at the peak, rounded up: the chunk's peak is about that */
  int64_t per_elem = (peak + c->length - 1) / c->length;
  int64_t room = sp->ub / 4 / (per_elem ? per_elem : 1); /* elements */
  int64_t chunk, n_full, tail; /* in elements, or in rows */
  if (by_rows) {
    chunk = room / c->width;
    if (chunk > MAX_COPY_ROWS)
      chunk = MAX_COPY_ROWS;
    if (chunk < 1)
      chunk = 1; /* (plan-ub says so if even one row does not fit) */
  } else {
    chunk = room / CHUNK_ALIGN * CHUNK_ALIGN;
    if (chunk < CHUNK_ALIGN)
      chunk = CHUNK_ALIGN;
  }
  int64_t extent = by_rows ? rows : c->length;
  n_full = extent / chunk;
  tail = extent % chunk;
  int64_t chunk_len = by_rows ? chunk * c->width : chunk;
  int64_t chunk_w = by_rows ? c->width : chunk;

  Cursor at = {sp, last->parent, last, last->loc};
  AscValue *lo = i32_const(&at, 0), *hi = i32_const(&at, n_full),
           *step = i32_const(&at, 1);
  const AscType *i32 = asc_type_scalar(sp->ctx, ASC_DT_INT32);
  const AscType *const iv_types[1] = {i32};
  const AscType *const *region_types[1] = {iv_types};
  const int region_n[1] = {1};
  AscValue *bounds[3] = {lo, hi, step};
  AscOp *loop =
      sp->oom ? NULL
              : asc_op_create(sp->ctx, ASC_OP_FOR, last->loc, bounds, 3, NULL,
                              0, NULL, 0, 1, region_types, region_n);
  put(&at, loop);
  if (sp->oom)
    return asc_error(sp->ctx, ASC_ERR_INTERNAL, last->loc,
                     "split-tiles: out of memory");
  AscBlock *body = loop->regions[0].block;
  Cursor in = {sp, body, NULL, last->loc};
  chunk_ops(&in, moved, n_moved, &body->args[0], chunk, chunk_len, chunk_w,
            by_rows);
  put(&in, asc_op_create(sp->ctx, ASC_OP_YIELD, last->loc, NULL, 0, NULL, 0,
                         NULL, 0, 0, NULL, NULL));
  if (tail) {
    AscValue *k = i32_const(&at, n_full);
    chunk_ops(&at, moved, n_moved, k, chunk, by_rows ? tail * c->width : tail,
              by_rows ? c->width : tail, by_rows);
  }
  if (sp->oom)
    return asc_error(sp->ctx, ASC_ERR_INTERNAL, last->loc,
                     "split-tiles: out of memory");
  for (int i = 0; i < n_moved; i++)
    if (asc_op_is_tile(moved[i]->id))
      asc_block_remove(moved[i]->parent, moved[i]);
  AscDType dt = c->ops[0]->n_results ? c->ops[0]->results[0].type->dtype
                                     : c->ops[0]->operands[1]->type->dtype;
  char tail_text[96] = "", why[96];
  if (tail)
    snprintf(tail_text, sizeof tail_text, ", then a tail of %lld %s",
             (long long)tail, by_rows ? "rows" : "elements");
  if (peak > sp->ub)
    snprintf(why, sizeof why, "more than the UB's %lld", (long long)sp->ub);
  else
    snprintf(why, sizeof why, "%lld rows, more than one copy moves (%d)",
             (long long)rows, MAX_COPY_ROWS);
  asc_module_log(sp->m,
                 "split-tiles: the %d tile ops at %s:%d-%d (tiles of %lld x "
                 "%lld %s, %lld bytes at once: %s): an scf.for of %lld "
                 "chunks of %lld %s (%lld elements; its tiles "
                 "double-buffered by plan-ub)%s",
                 c->n, base_name(c->ops[0]->loc.file), c->ops[0]->loc.line,
                 last->loc.line, (long long)rows, (long long)c->width,
                 asc_dtype_name(dt), (long long)peak, why, (long long)n_full,
                 (long long)chunk, by_rows ? "rows" : "elements",
                 (long long)chunk_len, tail_text);
  return ASC_OK;
}

/* Decides about chain c of block b and splits it if it must be. */
static AscStatus consider(Splitter *sp, Chain *c) {
  int64_t peak = peak_bytes(c);
  if (peak < 0)
    return asc_error(sp->ctx, ASC_ERR_INTERNAL, c->ops[0]->loc,
                     "split-tiles: out of memory");
  int64_t rows = c->width > 0 ? c->length / c->width : 0;
  int has_copy = 0;
  for (int i = 0; i < c->n; i++)
    has_copy |=
        c->ops[i]->id == ASC_OP_TILE_LOAD || c->ops[i]->id == ASC_OP_TILE_STORE;
  if (peak <= sp->ub && !(has_copy && rows > MAX_COPY_ROWS))
    return ASC_OK;
  if (c->why_not && peak > sp->ub)
    return asc_error(sp->ctx, ASC_ERR_COMPILE, c->ops[0]->loc,
                     "asc2: the tiles made here and by the ops they feed need "
                     "%lld bytes of the UB at once, more than the %lld it "
                     "has, and cannot be split into chunks: %s (only chains "
                     "of asc2.load, asc2.store and elementwise operators are "
                     "split); use smaller tiles",
                     (long long)peak, (long long)sp->ub, c->why_not);
  if (c->why_not)
    return ASC_OK; /* (more than 4095 rows: lower-tiles says so) */
  /* the ops between the chain's first and last: pure ones stay before the
   * loop, set_atomic ones are repeated in it (they stay too, so the mode
   * after the loop is what it was), anything else leaves the chain */
  int span = 0;
  for (AscOp *op = c->ops[0]; op && op != c->ops[c->n - 1]; op = op->next)
    span++;
  AscOp **moved = malloc(sizeof(AscOp *) * (size_t)(span + 1));
  if (!moved)
    return asc_error(sp->ctx, ASC_ERR_INTERNAL, c->ops[0]->loc,
                     "split-tiles: out of memory");
  int n_moved = 0, k = 0;
  AscOp *bad = NULL;
  for (AscOp *op = c->ops[0]; op && k < c->n && !bad; op = op->next) {
    if (op == c->ops[k])
      k++;
    else if (!is_set_atomic(op->id)) {
      if (!stays_before(op))
        bad = op;
      continue;
    }
    moved[n_moved++] = op;
  }
  AscStatus s =
      bad ? asc_error(sp->ctx, ASC_ERR_COMPILE, c->ops[0]->loc,
                      "asc2: the tiles made here and by the ops they feed "
                      "need %lld bytes of the UB at once (the UB has %lld) or "
                      "more than %d rows, and cannot be split into chunks: %s "
                      "at line %d runs between their ops; use smaller tiles, "
                      "or move it",
                      (long long)peak, (long long)sp->ub, MAX_COPY_ROWS,
                      asc_op_info(bad->id)->name, bad->loc.line)
          : split(sp, c, moved, n_moved, peak);
  free(moved);
  return s;
}

/* The chains of block b (after those of the blocks nested in it). */
static AscStatus split_block(Splitter *sp, AscBlock *b) {
  int n = 0;
  for (AscOp *op = b->first; op; op = op->next) {
    for (int r = 0; r < op->n_regions; r++) {
      AscStatus s = split_block(sp, op->regions[r].block);
      if (s)
        return s;
    }
    n += asc_op_is_tile(op->id);
  }
  if (!n)
    return ASC_OK;
  AscOp **ops = malloc(sizeof(AscOp *) * (size_t)n * 2);
  int *parent = malloc(sizeof(int) * (size_t)n);
  AscPtrMap index = {0};
  AscStatus s = ASC_OK;
  if (!ops || !parent)
    sp->oom = 1;
  int i = 0;
  for (AscOp *op = b->first; op && !sp->oom; op = op->next)
    if (asc_op_is_tile(op->id)) {
      ops[i] = op;
      parent[i] = i;
      if (asc_ptrmap_put(&index, op, (void *)(intptr_t)(i + 1)))
        sp->oom = 1;
      for (int j = 0; j < op->n_operands; j++) {
        AscOp *d = tile_def(op->operands[j]);
        intptr_t di = d ? (intptr_t)asc_ptrmap_get(&index, d) : 0;
        if (di)
          parent[find(parent, (int)di - 1)] = find(parent, i);
      }
      i++;
    }
  /* each chain's ops gathered in block order, one chain after the other */
  for (int root = 0; root < n && !sp->oom && !s; root++) {
    if (find(parent, root) != root)
      continue;
    Chain c = {ops + n, 0, 0, 0, NULL};
    for (int j = 0; j < n; j++)
      if (find(parent, j) == root)
        c.ops[c.n++] = ops[j];
    check_chain(sp, &c);
    s = consider(sp, &c);
  }
  if (sp->oom && !s)
    s = asc_error(sp->ctx, ASC_ERR_INTERNAL, b->first->loc,
                  "split-tiles: out of memory");
  asc_ptrmap_free(&index);
  free(ops);
  free(parent);
  return s;
}

AscStatus asc_pass_split_tiles(AscModule *m, const char *opts) {
  /* default: the Ascend910B's UB less a MIX kernel's part */
  Splitter sp = {m, m->ctx, 192 * 1024 - 256, {0}, 0};
  if (asc_pass_ub_option(opts, &sp.ub))
    return asc_error(m->ctx, ASC_ERR_COMPILE, (AscLoc){0},
                     "pass 'split-tiles': options are ub=BYTES, got '%s'",
                     opts);
  AscStatus s = ASC_OK;
  for (AscOp *f = m->body->first; f && !s; f = f->next) {
    if (f->id != ASC_OP_FUNC || !f->n_regions)
      continue;
    find_escapes(&sp, f->regions[0].block);
    s = sp.oom ? asc_error(m->ctx, ASC_ERR_INTERNAL, f->loc,
                           "split-tiles: out of memory")
               : split_block(&sp, f->regions[0].block);
  }
  asc_ptrmap_free(&sp.escapes);
  return s;
}
