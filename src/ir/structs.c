/* Parameter structs: the table (asc/structs.def) expanded into
 * AscStructInfo rows, and the user's structs a module defines.
 *
 * A value of a struct occupies one register slot per number field, nested
 * structs laid out in place (AscFieldInfo.slot / width), so the lowering
 * and the simulator see a struct as `n_slots` consecutive slots. */
#include <pthread.h>
#include <string.h>

#include "asc/ir.h"
#include "index.h"

/* ---- the table ----------------------------------------------------------- */

typedef struct FieldRow {
  AscStructId owner;
  AscFieldInfo info;
  int nested; /* a struct field: the AscStructId of its struct; else -1 */
} FieldRow;

static FieldRow field_rows[] = {
#define ASC_STRUCT(ID, name, cpp, init)
#define ASC_FIELD(ID, name, cpp, dtype, def)                                   \
  {ASC_STRUCT_##ID, {name, cpp, ASC_DT_##dtype, def, -1, NULL, 0, 1}, -1},
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)                               \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_INT32, def, ASC_ENUM_##kind, NULL, 0, 1},                \
   -1},
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)                                \
  {ASC_STRUCT_##ID,                                                            \
   {name, cpp, ASC_DT_NONE, 0, -1, NULL, 0, 0},                                \
   ASC_STRUCT_##nested},
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
};

enum { N_FIELD_ROWS = sizeof field_rows / sizeof field_rows[0] };

/* the fields of all structs, in table order (a struct's are contiguous) */
static AscFieldInfo fields[N_FIELD_ROWS + 1];

static AscStructInfo structs[ASC_STRUCT_COUNT + 1] = {
#define ASC_STRUCT(ID, name, cpp, init)                                        \
  [ASC_STRUCT_##ID] = {                                                        \
      ASC_STRUCT_##ID, name, cpp, ASC_STRUCT_INIT_##init, NULL, 0, 0},
#define ASC_FIELD(ID, name, cpp, dtype, def)
#define ASC_ENUM_FIELD(ID, name, cpp, kind, def)
#define ASC_STRUCT_FIELD(ID, name, cpp, nested)
#include "asc/structs.def"
#undef ASC_STRUCT
#undef ASC_FIELD
#undef ASC_ENUM_FIELD
#undef ASC_STRUCT_FIELD
};

static pthread_once_t link_once = PTHREAD_ONCE_INIT;

/* Slots of s, its nested structs first (the table declares a nested
 * struct before the structs that contain it). */
static void lay_out(AscStructInfo *s) {
  if (s->n_slots || !s->fields)
    return;
  int slot = 0;
  for (int i = 0; i < s->n_fields; i++) {
    AscFieldInfo *f = (AscFieldInfo *)&s->fields[i];
    if (f->nested)
      lay_out((AscStructInfo *)f->nested);
    f->slot = slot;
    f->width = f->nested ? f->nested->n_slots : 1;
    slot += f->width;
  }
  s->n_slots = slot;
}

static void link_table(void) {
  for (int i = 0; i < N_FIELD_ROWS; i++) {
    fields[i] = field_rows[i].info;
    if (field_rows[i].nested >= 0)
      fields[i].nested = &structs[field_rows[i].nested];
    AscStructInfo *s = &structs[field_rows[i].owner];
    if (!s->fields)
      s->fields = &fields[i];
    s->n_fields = (int)(&fields[i] - s->fields) + 1;
  }
  for (int i = 0; i < ASC_STRUCT_COUNT; i++)
    lay_out(&structs[i]);
}

const AscStructInfo *asc_struct_info(AscStructId id) {
  if ((int)id < 0 || id >= ASC_STRUCT_COUNT)
    return NULL;
  pthread_once(&link_once, link_table);
  return &structs[id];
}

AscStructId asc_struct_from_name(const char *name) {
  for (int i = 0; i < ASC_STRUCT_COUNT; i++)
    if (strcmp(structs[i].name, name) == 0)
      return (AscStructId)i;
  return ASC_STRUCT_COUNT;
}

int asc_struct_field_index(const AscStructInfo *s, const char *name) {
  for (int i = 0; s && name && i < s->n_fields; i++)
    if (strcmp(s->fields[i].name, name) == 0)
      return i;
  return -1;
}

AscDType asc_struct_slot_dtype(const AscStructInfo *s, int k) {
  for (int i = 0; s && i < s->n_fields; i++) {
    const AscFieldInfo *f = &s->fields[i];
    if (k >= f->slot && k < f->slot + f->width)
      return f->nested ? asc_struct_slot_dtype(f->nested, k - f->slot)
                       : f->dtype;
  }
  return ASC_DT_NONE;
}

/* ---- the user's structs -------------------------------------------------- */

typedef struct UserStruct {
  AscStructInfo info;
  struct UserStruct *next;
} UserStruct;

const AscStructInfo *asc_context_find_struct(const AscContext *ctx,
                                             const char *name) {
  AscStructId id = asc_struct_from_name(name);
  if (id != ASC_STRUCT_COUNT)
    return asc_struct_info(id);
  for (const UserStruct *u = ctx ? asc_context_user_structs(ctx) : NULL; u;
       u = u->next)
    if (strcmp(u->info.name, name) == 0)
      return &u->info;
  return NULL;
}

/* 1 when s has exactly these fields. */
static int same_fields(const AscStructInfo *s, const char *const *names,
                       const char *const *cpp, const AscType *const *types,
                       int n) {
  if (s->n_fields != n)
    return 0;
  for (int i = 0; i < n; i++) {
    const AscFieldInfo *f = &s->fields[i];
    const AscStructInfo *nested = asc_type_struct_info(types[i]);
    if (strcmp(f->name, names[i]) != 0 || strcmp(f->cpp, cpp[i]) != 0 ||
        f->nested != nested || (!nested && f->dtype != types[i]->dtype))
      return 0;
  }
  return 1;
}

static int is_identifier(const char *s) {
  if (!s || !*s || (*s >= '0' && *s <= '9'))
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  return 1;
}

/* A field's spelling: "name", or "name=cppName" when its C++ member is
 * spelled differently (upstream's Field(name=...)). */
static int split_field(AscContext *ctx, const char *spec, const char **py,
                       const char **cpp) {
  const char *eq = spec ? strchr(spec, '=') : NULL;
  if (!eq) {
    *py = *cpp = spec;
    return 0;
  }
  size_t n = (size_t)(eq - spec);
  char *p = asc_alloc(ctx, n + 1);
  if (!p)
    return -1;
  memcpy(p, spec, n);
  p[n] = 0;
  *py = p;
  *cpp = eq + 1;
  return 0;
}

static const AscStructInfo *define(AscContext *ctx, const char *name,
                                   const char *const *specs,
                                   const AscType *const *types, int n,
                                   AscLoc loc) {
  enum { MAX_FIELDS = 256 };
  const char *names[MAX_FIELDS], *cpp[MAX_FIELDS];
  if (n > MAX_FIELDS) {
    asc_error(ctx, ASC_ERR_COMPILE, loc, "struct %s: more than %d fields", name,
              MAX_FIELDS);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if (split_field(ctx, specs[i], &names[i], &cpp[i]))
      return NULL;
  const AscStructInfo *old = asc_context_find_struct(ctx, name);
  if (old && old->id != ASC_STRUCT_USER) {
    asc_error(ctx, ASC_ERR_COMPILE, loc,
              "struct %s: the name of an Ascend C parameter struct", name);
    return NULL;
  }
  if (old) {
    if (same_fields(old, names, cpp, types, n))
      return old;
    asc_error(ctx, ASC_ERR_COMPILE, loc,
              "struct %s is defined twice with different fields", name);
    return NULL;
  }
  if (!is_identifier(name) || n < 1) {
    asc_error(ctx, ASC_ERR_COMPILE, loc,
              "struct '%s': a struct needs an identifier name and at least "
              "one field",
              name);
    return NULL;
  }
  UserStruct *u = asc_alloc(ctx, sizeof *u);
  AscFieldInfo *fs = asc_alloc(ctx, sizeof *fs * (size_t)n);
  if (!u || !fs)
    return NULL;
  memset(u, 0, sizeof *u);
  for (int i = 0; i < n; i++) {
    const AscType *t = types[i];
    const AscStructInfo *nested = asc_type_struct_info(t);
    if (!is_identifier(names[i]) || !is_identifier(cpp[i]) || !t ||
        (!nested && (t->kind != ASC_TY_SCALAR || t->dtype == ASC_DT_NONE ||
                     t->dtype == ASC_DT_INDEX))) {
      asc_error(ctx, ASC_ERR_COMPILE, loc,
                "struct %s: field '%s' must be named by identifiers (name or "
                "name=cppName) and be a number or a struct",
                name, specs[i] ? specs[i] : "");
      return NULL;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(names[j], names[i]) == 0) {
        asc_error(ctx, ASC_ERR_COMPILE, loc, "struct %s: two fields named %s",
                  name, names[i]);
        return NULL;
      }
    memset(&fs[i], 0, sizeof fs[i]);
    fs[i].name = asc_strdup(ctx, names[i]);
    fs[i].cpp = cpp[i] == names[i] ? fs[i].name : asc_strdup(ctx, cpp[i]);
    fs[i].dtype = nested ? ASC_DT_NONE : t->dtype;
    fs[i].enum_kind = -1;
    fs[i].nested = nested;
  }
  u->info.id = ASC_STRUCT_USER;
  u->info.name = asc_strdup(ctx, name);
  u->info.cpp = u->info.name;
  u->info.init = ASC_STRUCT_INIT_FIELDS;
  u->info.fields = fs;
  u->info.n_fields = n;
  lay_out(&u->info);
  u->next = asc_context_user_structs(ctx);
  asc_context_set_user_structs(ctx, u);
  return &u->info;
}

const AscStructInfo *asc_module_add_struct(AscModule *m, const char *name,
                                           const char *const *field_names,
                                           const AscType *const *field_types,
                                           int n, AscLoc loc) {
  AscContext *ctx = m->ctx;
  const AscStructInfo *known = asc_context_find_struct(ctx, name);
  const AscStructInfo *s = define(ctx, name, field_names, field_types, n, loc);
  if (!s || s == known)
    return s; /* an error, or defined (and declared) before */
  /* the declaration in the IR: field names joined by commas, and types */
  size_t len = 1;
  for (int i = 0; i < n; i++)
    len += strlen(field_names[i]) + 1;
  char *joined = asc_alloc(ctx, len);
  if (!joined)
    return NULL;
  joined[0] = 0;
  for (int i = 0; i < n; i++) {
    if (i)
      strcat(joined, ",");
    strcat(joined, field_names[i]);
  }
  AscAttr attrs[3];
  memset(attrs, 0, sizeof attrs);
  attrs[0].name = "sym_name";
  attrs[0].kind = ASC_ATTR_STR;
  attrs[0].s = name;
  attrs[1].name = "field_names";
  attrs[1].kind = ASC_ATTR_STR;
  attrs[1].s = joined;
  attrs[2].name = "field_types";
  attrs[2].kind = ASC_ATTR_TYPES;
  attrs[2].types = (const AscType **)field_types; /* copied by the op */
  attrs[2].n_types = n;
  AscOp *op = asc_op_create(ctx, ASC_OP_STRUCT_DEF, loc, NULL, 0, NULL, 0,
                            attrs, 3, 0, NULL, NULL);
  if (!op)
    return NULL;
  asc_block_append(m->body, op);
  return s;
}

AscStatus asc_struct_def_register(AscContext *ctx, const AscOp *op) {
  const char *name = asc_op_attr_str(op, "sym_name");
  const char *joined = asc_op_attr_str(op, "field_names");
  const AscAttr *types = asc_op_attr(op, "field_types");
  if (!name || !joined || !types || types->kind != ASC_ATTR_TYPES)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                     "asc.struct_def needs sym_name, field_names and "
                     "field_types");
  enum { MAX_FIELDS = 256 };
  const char *names[MAX_FIELDS];
  int n = 0;
  size_t len = strlen(joined) + 1;
  char *copy = asc_alloc(ctx, len);
  if (!copy)
    return ASC_ERR_INTERNAL;
  memcpy(copy, joined, len);
  for (char *p = copy; p;) {
    char *comma = strchr(p, ',');
    if (comma)
      *comma = 0;
    if (n == MAX_FIELDS)
      return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                       "struct %s: more than %d fields", name, MAX_FIELDS);
    names[n++] = p;
    p = comma ? comma + 1 : NULL;
  }
  if (n != types->n_types)
    return asc_error(ctx, ASC_ERR_COMPILE, op->loc,
                     "struct %s: %d field names for %d field types", name, n,
                     types->n_types);
  return define(ctx, name, names, types->types, n, op->loc) ? ASC_OK
                                                            : ASC_ERR_COMPILE;
}
