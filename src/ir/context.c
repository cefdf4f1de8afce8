/* The context: an arena that owns all IR memory, interned types, and the
 * last error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asc/ir.h"
#include "index.h"

typedef struct ArenaChunk {
  struct ArenaChunk *next;
  size_t used, size;
  /* payload follows, 16-byte aligned */
} ArenaChunk;

enum { ARENA_CHUNK = 64 * 1024 };

struct AscContext {
  ArenaChunk *chunks;
  /* interned types; grows (there are more than a few hundred possible
   * types: every dtype and position of a local tensor, every que depth) */
  const AscType **types;
  int n_types, cap_types;
  AscStatus status;
  char message[2048];
  AscLoc loc;
  /* the location file name copied last (asc_context_file_name) */
  const char *file_name;
  /* ir.c's index of function names (see asc_module_find_function) */
  void *fn_index;
  void (*fn_index_free)(void *);
  /* structs.c's list of the user structs defined in this context (arena) */
  void *user_structs;
};

static size_t header_size(void) {
  return (sizeof(ArenaChunk) + 15) & ~(size_t)15;
}

AscContext *asc_context_new(void) {
  AscContext *ctx = calloc(1, sizeof *ctx);
  return ctx;
}

void asc_context_free(AscContext *ctx) {
  if (!ctx)
    return;
  ArenaChunk *c = ctx->chunks;
  while (c) {
    ArenaChunk *next = c->next;
    free(c);
    c = next;
  }
  if (ctx->fn_index_free)
    ctx->fn_index_free(ctx->fn_index);
  free(ctx->types);
  free(ctx);
}

void *asc_context_user_structs(const AscContext *ctx) {
  return ctx->user_structs;
}

void asc_context_set_user_structs(AscContext *ctx, void *list) {
  ctx->user_structs = list;
}

const char *asc_context_file_name(AscContext *ctx, const char *file) {
  if (!file)
    return NULL;
  if (ctx->file_name && strcmp(ctx->file_name, file) == 0)
    return ctx->file_name;
  const char *copy = asc_strdup(ctx, file);
  if (copy && asc_context_status(ctx) != ASC_ERR_INTERNAL)
    ctx->file_name = copy;
  return copy;
}

void *asc_context_fn_index(const AscContext *ctx) { return ctx->fn_index; }

void asc_context_set_fn_index(AscContext *ctx, void *index,
                              void (*free_fn)(void *)) {
  ctx->fn_index = index;
  ctx->fn_index_free = free_fn;
}

void *asc_alloc(AscContext *ctx, size_t size) {
  static _Alignas(16) unsigned char oom_block[256];
  size = (size + 15) & ~(size_t)15;
  ArenaChunk *c = ctx->chunks;
  if (!c || c->used + size > c->size) {
    size_t want = size > ARENA_CHUNK ? size : ARENA_CHUNK;
    ArenaChunk *n = malloc(header_size() + want);
    if (!n) {
      asc_error(ctx, ASC_ERR_INTERNAL, (AscLoc){0}, "out of memory");
      memset(oom_block, 0, sizeof oom_block);
      return size <= sizeof oom_block ? oom_block : NULL;
    }
    n->used = 0;
    n->size = want;
    n->next = ctx->chunks;
    ctx->chunks = n;
    c = n;
  }
  unsigned char *p = (unsigned char *)c + header_size() + c->used;
  c->used += size;
  memset(p, 0, size);
  return p;
}

const char *asc_strdup(AscContext *ctx, const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *d = asc_alloc(ctx, n);
  if (d)
    memcpy(d, s, n);
  return d;
}

AscStatus asc_context_status(const AscContext *ctx) { return ctx->status; }
const char *asc_context_message(const AscContext *ctx) { return ctx->message; }
AscLoc asc_context_error_loc(const AscContext *ctx) { return ctx->loc; }

void asc_context_clear_error(AscContext *ctx) {
  ctx->status = ASC_OK;
  ctx->message[0] = 0;
  ctx->loc = (AscLoc){0};
}

AscStatus asc_error(AscContext *ctx, AscStatus status, AscLoc loc,
                    const char *fmt, ...) {
  if (ctx->status != ASC_OK)
    return ctx->status;
  ctx->status = status;
  ctx->loc = loc;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
  va_end(ap);
  return status;
}

/* ---- types ------------------------------------------------------------- */

/* The one type with these fields, made on first use. */
static const AscType *intern(AscContext *ctx, AscTypeKind kind, AscDType dtype,
                             int position, int depth,
                             const AscStructInfo *struct_info) {
  for (int i = 0; i < ctx->n_types; i++) {
    const AscType *t = ctx->types[i];
    if (t->kind == kind && t->dtype == dtype && t->position == position &&
        t->depth == depth && t->struct_info == struct_info)
      return t;
  }
  if (ctx->n_types == ctx->cap_types) {
    int cap = ctx->cap_types ? ctx->cap_types * 2 : 64;
    const AscType **nt = realloc(ctx->types, sizeof(AscType *) * (size_t)cap);
    if (!nt) {
      /* an uninterned type would compare unequal to its twin */
      asc_error(ctx, ASC_ERR_INTERNAL, (AscLoc){0}, "out of memory");
      return NULL;
    }
    ctx->types = nt;
    ctx->cap_types = cap;
  }
  AscType *t = asc_alloc(ctx, sizeof *t);
  if (!t)
    return NULL;
  t->kind = kind;
  t->dtype = dtype;
  t->position = position;
  t->depth = depth;
  t->struct_info = struct_info;
  ctx->types[ctx->n_types++] = t;
  return t;
}

const AscType *asc_type_get(AscContext *ctx, AscTypeKind kind, AscDType dtype,
                            int position, int depth) {
  if (kind == ASC_TY_STRUCT)
    return NULL; /* a struct type names its struct: asc_type_struct */
  return intern(ctx, kind, dtype, position, depth, NULL);
}

const AscType *asc_type_struct(AscContext *ctx, const AscStructInfo *s) {
  /* a template is no type, its instances are (their dtype is T) */
  return s && !s->is_template ? intern(ctx, ASC_TY_STRUCT, s->targ, -1, 0, s)
                              : NULL;
}

const AscStructInfo *asc_type_struct_info(const AscType *t) {
  return t && t->kind == ASC_TY_STRUCT ? t->struct_info : NULL;
}

const AscType *asc_type_scalar(AscContext *ctx, AscDType dtype) {
  return asc_type_get(ctx, ASC_TY_SCALAR, dtype, -1, 0);
}

void asc_type_format(const AscType *t, char *buf, size_t size) {
  const char *dt = asc_dtype_ir_name(t->dtype);
  const char *pos = asc_enum_value_name(ASC_ENUM_TPOSITION, t->position);
  if (!pos)
    pos = "?";
  switch (t->kind) {
  case ASC_TY_SCALAR:
    snprintf(buf, size, "%s", dt);
    break;
  case ASC_TY_GLOBAL_ADDRESS:
    snprintf(buf, size, "!asc.global_address<%s>", dt);
    break;
  case ASC_TY_GLOBAL_TENSOR:
    snprintf(buf, size, "!asc.global_tensor<%s>", dt);
    break;
  case ASC_TY_LOCAL_TENSOR:
    snprintf(buf, size, "!asc.local_tensor<%s, %s>", dt, pos);
    break;
  case ASC_TY_TPIPE:
    snprintf(buf, size, "!asc.tpipe");
    break;
  case ASC_TY_TQUE:
    snprintf(buf, size, "!asc.tque<%s, %d>", pos, t->depth);
    break;
  case ASC_TY_TBUF:
    snprintf(buf, size, "!asc.tbuf<%s>", pos);
    break;
  case ASC_TY_STRUCT: {
    const AscStructInfo *si = asc_type_struct_info(t);
    snprintf(buf, size, "!asc.struct<%s>", si ? si->name : "?");
    break;
  }
  /* family: listtensor */
  case ASC_TY_TENSOR_DESC:
    snprintf(buf, size, "!asc.tensor_desc<%s>", dt);
    break;
  case ASC_TY_LIST_TENSOR_DESC:
    snprintf(buf, size, "!asc.list_tensor_desc");
    break;
  default:
    snprintf(buf, size, "!asc.unknown");
  }
}

int asc_type_is_int(const AscType *t) {
  return t->kind == ASC_TY_SCALAR && asc_dtype_is_int(t->dtype);
}
int asc_type_is_float(const AscType *t) {
  return t->kind == ASC_TY_SCALAR && asc_dtype_is_float(t->dtype);
}
int asc_type_is_tensor(const AscType *t) {
  return t->kind == ASC_TY_LOCAL_TENSOR || t->kind == ASC_TY_GLOBAL_TENSOR;
}

/* ---- enums --------------------------------------------------------------- */

typedef struct EnumValue {
  const char *name;
  int64_t value;
  const char *cpp;
} EnumValue;

typedef struct EnumInfo {
  const char *name;
  const char *prefix;
  const EnumValue *values;
  int n;
} EnumInfo;

#define ASC_ENUM_BEGIN(K, py, prefix) static const EnumValue values_##K[] = {
#define ASC_ENUM_VALUE(K, N, v, cpp) {#N, v, cpp},
#define ASC_ENUM_END(K)                                                        \
  }                                                                            \
  ;
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_END

static const EnumInfo enum_table[ASC_ENUM_KIND_COUNT] = {
#define ASC_ENUM_BEGIN(K, py, prefix)                                          \
  [ASC_ENUM_##K] = {py, prefix, values_##K,                                    \
                    (int)(sizeof values_##K / sizeof values_##K[0])},
#define ASC_ENUM_VALUE(K, N, v, cpp)
#define ASC_ENUM_END(K)
#include "asc/enums.def"
#undef ASC_ENUM_BEGIN
#undef ASC_ENUM_VALUE
#undef ASC_ENUM_END
};

static const EnumValue *enum_find(AscEnumKind kind, int64_t value) {
  if ((int)kind < 0 || kind >= ASC_ENUM_KIND_COUNT)
    return NULL;
  const EnumInfo *e = &enum_table[kind];
  for (int i = 0; i < e->n; i++)
    if (e->values[i].value == value)
      return &e->values[i];
  return NULL;
}

const char *asc_enum_kind_name(AscEnumKind kind) {
  if ((int)kind < 0 || kind >= ASC_ENUM_KIND_COUNT)
    return "?";
  return enum_table[kind].name;
}

AscEnumKind asc_enum_kind_from_name(const char *name) {
  for (int k = 0; k < ASC_ENUM_KIND_COUNT; k++)
    if (strcmp(enum_table[k].name, name) == 0)
      return (AscEnumKind)k;
  return ASC_ENUM_KIND_COUNT;
}

const char *asc_enum_value_name(AscEnumKind kind, int64_t value) {
  const EnumValue *v = enum_find(kind, value);
  return v ? v->name : NULL;
}

const char *asc_enum_value_cpp(AscEnumKind kind, int64_t value) {
  const EnumValue *v = enum_find(kind, value);
  return v ? v->cpp : NULL;
}

const char *asc_enum_cpp_prefix(AscEnumKind kind) {
  if ((int)kind < 0 || kind >= ASC_ENUM_KIND_COUNT)
    return "";
  return enum_table[kind].prefix;
}

int asc_enum_value_from_name(AscEnumKind kind, const char *name,
                             int64_t *value) {
  if ((int)kind < 0 || kind >= ASC_ENUM_KIND_COUNT)
    return -1;
  const EnumInfo *e = &enum_table[kind];
  for (int i = 0; i < e->n; i++)
    if (strcmp(e->values[i].name, name) == 0) {
      *value = e->values[i].value;
      return 0;
    }
  return -1;
}
